// @ts-check
// One board on the page: the 8x8 squares with their pieces (pictures of web/pieces/), the two
// player bars (name, clock), the two reserves in a column beside the board, and the marks of
// the moment: last move, selected piece, legal targets, pieces a promotion may remove.
// Rendering only; gestures.js handles the pointer.
//
// Test hooks: every square has `data-square="e4"` and `data-board="A"` (the grid too has
// `data-board`); every reserve piece `data-reserve="N"` inside `data-reserve-of="<Seat>"`;
// every clock `data-clock="<Seat>"`.

import { drawOrder, isDark, isWhitePiece, reserveOf, pieceAt } from "./board.js";
import { t } from "./i18n.js";
import { seatOf } from "./say.js";
import { seatAt, seatLabel } from "./seats.js";

/** @typedef {import("./seats.js").Seat} Seat */
/** @typedef {import("./seats.js").BoardId} BoardId */
/** @typedef {import("./board.js").BoardPos} BoardPos */

/** The roles by their FEN letter, as the protocol names them (`m.piece.*` of the catalogues). */
const NAMES = /** @type {Record<string, string>} */ ({
  k: "King", q: "Queen", r: "Rook", b: "Bishop", n: "Knight", p: "Pawn",
});

/** A piece's name for a screen reader, by colour and role (the catalogues' `v.piece.*`). */
const PIECE_KEY = /** @type {Record<string, string>} */ ({
  wK: "v.piece.wK", wQ: "v.piece.wQ", wR: "v.piece.wR", wB: "v.piece.wB", wN: "v.piece.wN", wP: "v.piece.wP",
  bK: "v.piece.bK", bQ: "v.piece.bQ", bR: "v.piece.bR", bB: "v.piece.bB", bN: "v.piece.bN", bP: "v.piece.bP",
});

/**
 * A role's name in the page's language (`queen` / «ферзь»).
 * @param {string} role  a FEN letter
 */
function roleName(role) {
  const name = NAMES[role.toLowerCase()];
  return name ? t(`m.piece.${name}`) : role;
}

/**
 * A piece element: a picture of shvedka's own SVG set (`web/pieces/`, drawn for the project, under
 * the project's licence), the same on every system.
 * @param {string} piece  a FEN letter
 */
export function pieceElement(piece) {
  const span = document.createElement("span");
  const white = isWhitePiece(piece);
  const role = piece.toUpperCase();
  span.className = `piece ${white ? "white" : "black"}`;
  span.dataset.piece = `${white ? "w" : "b"}${role}`;
  if (NAMES[piece.toLowerCase()]) span.style.backgroundImage = `url("/pieces/${white ? "w" : "b"}${role}.svg")`;
  else span.textContent = "?";
  span.setAttribute("role", "img");
  const key = PIECE_KEY[`${white ? "w" : "b"}${role}`];
  span.setAttribute("aria-label", key ? t(key) : piece);
  return span;
}

/**
 * The marks drawn on a board.
 * @typedef {object} Marks
 * @property {string[]} last  squares of the last move
 * @property {string} removed  square a promotion on the other board removed a piece from
 * @property {string} selected
 * @property {Set<string>} targets  where the selected piece may go
 * @property {Set<string>} removable  pieces a pending promotion may remove
 * @property {string} hover  the square under a dragged piece
 * @property {string} lifted  the square whose piece is being dragged
 * @property {{ from: string, to: string, piece: string } | null} pending  a move sent, not yet answered
 * @property {string} [check]  the square of a king in check, "" if none
 * @property {string[]} [premove]  the squares of the queued premove or pre-drop
 */

/** @returns {Marks} */
export function noMarks() {
  return { last: [], removed: "", selected: "", targets: new Set(), removable: new Set(), hover: "", lifted: "", pending: null };
}

/**
 * One player's bar.
 * @typedef {object} Bar
 * @property {HTMLElement} el
 * @property {HTMLElement} name
 * @property {HTMLElement} reserve
 * @property {HTMLElement} clock
 */

export class BoardPanel {
  /** @param {BoardId} board */
  constructor(board) {
    this.board = board;
    this.whiteBottom = true;
    this.el = document.createElement("section");
    this.el.className = "board-panel";
    this.el.dataset.panel = board;
    this.title = document.createElement("div");
    this.title.className = "board-title";
    this.grid = document.createElement("div");
    this.grid.className = "board";
    this.grid.dataset.board = board;
    this.grid.setAttribute("role", "grid");
    this.grid.setAttribute("aria-label", t("v.board", { board }));
    /** @type {Map<string, HTMLElement>} */
    this.squares = new Map();
    this.top = this.bar();
    this.bottom = this.bar();
    // Each player's reserve has a fixed place beside the board, on his side of it: the top
    // player's from the top edge down, the bottom player's from the bottom edge up. A piece
    // arriving never moves the board, a reserve never wraps, and never cuts a name.
    this.top.reserve.classList.add("top");
    this.bottom.reserve.classList.add("bottom");
    const reserves = document.createElement("div");
    reserves.className = "reserves";
    reserves.append(this.top.reserve, this.bottom.reserve);
    const wrap = document.createElement("div");
    wrap.className = "board-wrap";
    wrap.append(this.grid, reserves);
    /** The board and its reserves' column (the review's analysis adds its bar and arrows here). */
    this.wrap = wrap;
    this.el.append(this.title, this.top.el, wrap, this.bottom.el);
    this.layout(true);
  }

  /** @returns {Bar} */
  bar() {
    const el = document.createElement("div");
    el.className = "bar";
    const name = document.createElement("span");
    name.className = "who";
    const reserve = document.createElement("span");
    reserve.className = "reserve";
    const clock = document.createElement("span");
    clock.className = "clock";
    el.append(name, clock);
    return { el, name, reserve, clock };
  }

  /**
   * Builds the squares for one orientation.
   * @param {boolean} whiteBottom
   */
  layout(whiteBottom) {
    this.whiteBottom = whiteBottom;
    this.squares.clear();
    const cells = drawOrder(whiteBottom).map((name, i) => {
      const sq = document.createElement("div");
      sq.className = `sq ${isDark(name) ? "dark" : "light"}`;
      sq.dataset.square = name;
      sq.dataset.board = this.board;
      // Coordinates on the edge squares, as on a printed board.
      if (i % 8 === 0) sq.dataset.rank = name[1];
      if (i >= 56) sq.dataset.file = name[0];
      this.squares.set(name, sq);
      return sq;
    });
    this.grid.replaceChildren(...cells);
    const topSeat = seatAt(this.board, !whiteBottom);
    const bottomSeat = seatAt(this.board, whiteBottom);
    for (const [bar, seat] of /** @type {[Bar, Seat][]} */ ([[this.top, topSeat], [this.bottom, bottomSeat]])) {
      bar.el.dataset.seat = seat;
      bar.clock.dataset.clock = seat;
      bar.reserve.dataset.reserveOf = seat;
      bar.clock.title = t("v.clock-of", { seat_of: seatOf(seat) });
    }
  }

  /**
   * Forgets what was drawn (the language changed): the next `render` and `renderBar` draw the
   * pieces, reserves, names and clocks' titles again in the page's language.
   */
  forget() {
    for (const sq of this.squares.values()) delete sq.dataset.piece;
    for (const bar of [this.top, this.bottom]) {
      delete bar.reserve.dataset.key;
      bar.name.textContent = "";
      const seat = /** @type {Seat} */ (bar.el.dataset.seat);
      if (seat) bar.clock.title = t("v.clock-of", { seat_of: seatOf(seat) });
    }
    this.grid.setAttribute("aria-label", t("v.board", { board: this.board }));
  }

  /**
   * Draws the position and marks.
   * @param {BoardPos} pos
   * @param {Marks} marks
   */
  render(pos, marks) {
    const p = marks.pending;
    for (const [name, sq] of this.squares) {
      let piece = pieceAt(pos, name);
      if (p && name === p.from) piece = "";
      if (p && name === p.to) piece = p.piece;
      const cls = [
        "sq",
        isDark(name) ? "dark" : "light",
        marks.last.includes(name) ? "last" : "",
        marks.removed === name ? "removed" : "",
        marks.check === name ? "check" : "",
        marks.premove?.includes(name) ? "premove" : "",
        marks.selected === name ? "selected" : "",
        marks.targets.has(name) ? (piece ? "target capture" : "target") : "",
        marks.removable.has(name) ? "removable" : "",
        marks.hover === name ? "hover" : "",
        marks.lifted === name ? "lifted" : "",
      ].filter(Boolean).join(" ");
      if (sq.className !== cls) sq.className = cls;
      if (sq.dataset.piece !== piece) {
        sq.dataset.piece = piece;
        sq.replaceChildren(...(piece ? [pieceElement(piece)] : []));
      }
    }
  }

  /**
   * Draws a player's bar: name, readiness, whose turn, reserve.
   * @param {Seat} seat
   * @param {{ name: string | null, ready: boolean, turn: boolean, you: boolean, partner: boolean, reserve: string, mine: boolean, selectedRole: string }} info
   */
  renderBar(seat, info) {
    const bar = this.top.el.dataset.seat === seat ? this.top : this.bottom;
    const name = info.name ?? t("v.empty-seat");
    const label = info.you ? t("v.you", { name }) : info.partner ? t("v.partner", { name }) : name;
    const text = `${label} · ${seatLabel(seat)}${info.ready ? " ✓" : ""}`;
    if (bar.name.textContent !== text) bar.name.textContent = text;
    bar.el.classList.toggle("turn", info.turn);
    bar.el.classList.toggle("you", info.you);
    const white = seat.startsWith("White");
    const counts = reserveOf(info.reserve, white);
    const key = `${JSON.stringify(counts)}|${info.mine}`;
    if (bar.reserve.dataset.key === key) {
      // Only the selection changed: keep the buttons (one may hold the pointer of a drag).
      for (const b of bar.reserve.querySelectorAll("button")) {
        b.classList.toggle("selected", b.dataset.reserve === info.selectedRole);
      }
      return;
    }
    bar.reserve.dataset.key = key;
    // The player's own reserve shows every role, those he lacks dimmed: a pre-drop may wait for one.
    const pieces = ["Q", "R", "B", "N", "P"].filter((r) => counts[r] || info.mine).map((role) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "rpiece" + (info.mine ? " mine" : "") + (counts[role] ? "" : " absent") + (info.selectedRole === role ? " selected" : "");
      b.dataset.reserve = role;
      b.disabled = !info.mine;
      b.append(pieceElement(white ? role : role.toLowerCase()));
      if (counts[role] > 1) {
        const n = document.createElement("sub");
        n.textContent = String(counts[role]);
        b.append(n);
      }
      b.title = counts[role] ? t("v.reserve-has", { count: counts[role], piece: roleName(role) }) : t("v.reserve-none", { piece: roleName(role) });
      return b;
    });
    bar.reserve.replaceChildren(...pieces);
  }

  /**
   * @param {Seat} seat
   * @returns {HTMLElement}
   */
  clockOf(seat) {
    return this.top.el.dataset.seat === seat ? this.top.clock : this.bottom.clock;
  }

  /**
   * The square element at a point of the viewport, if on this board.
   * @param {number} x
   * @param {number} y
   * @returns {string}
   */
  squareAt(x, y) {
    const el = document.elementFromPoint(x, y);
    const sq = el instanceof HTMLElement ? el.closest("[data-square]") : null;
    return sq instanceof HTMLElement && sq.dataset.board === this.board ? sq.dataset.square ?? "" : "";
  }
}
