// @ts-check
// Moving pieces with the pointer (mouse, pen or touch: pointer events): drag-and-drop and
// click-to-move on the player's board, drops by dragging or clicking a reserve piece, and the
// choices a promotion needs: a piece (upgrade) or, under MGIMO rules, the piece to remove from
// the other board (RULES.md R1), picked on that board among the highlighted ones or from the
// choice bar. What may be played comes only from the server's list of legal moves. The same
// gestures while it is not the player's turn, or with a reserve piece he does not hold yet, queue
// a premove or pre-drop (`premove.js`), sent the instant the turn (or the piece) comes; a click or
// tap on the board, or a right-click, cancels it.

import { isWhitePiece, pieceAt } from "./board.js";
import { onLanguage, t } from "./i18n.js";
import { BoardPanel, noMarks, pieceElement } from "./board-view.js";
import { completeAwaiting, dropTargets, dropText, removalCandidates, targetsFrom } from "./moves.js";
import { premoveAction, premoveSquares } from "./premove.js";
import { otherBoard } from "./seats.js";

/** @typedef {import("./seats.js").BoardId} BoardId */
/** @typedef {import("./board.js").BoardPos} BoardPos */
/** @typedef {import("./board-view.js").Marks} Marks */
/** @typedef {import("./moves.js").Completion} Completion */
/** @typedef {import("./premove.js").Premove} Premove */

/**
 * What the gestures need to know of the match, and how they play.
 * @typedef {object} GestureContext
 * @property {() => BoardId | null} myBoard
 * @property {() => boolean} myWhite
 * @property {() => boolean} myTurn
 * @property {() => boolean} canPremove  seated in a running match, so a premove may be queued
 * @property {(role: string) => number} held  how many of a role the player holds
 * @property {() => BoardPos | null} myPos
 * @property {() => string[] | null} legal  null while not known
 * @property {() => Promise<string[] | null>} awaitLegal  the list once it is in (null: not in time)
 * @property {(text: string, pending: { from: string, to: string, piece: string }) => void} play
 * @property {() => void} changed  the marks changed: draw again
 */

/** @typedef {{ kind: "square", from: string, piece: string } | { kind: "reserve", role: string, piece: string }} Selection */

/** How far (px) a pointer moves before a press becomes a drag. */
const DRAG_START_PX = 5;

export class Gestures {
  /**
   * @param {Map<BoardId, BoardPanel>} panels
   * @param {HTMLElement} choiceBar
   * @param {GestureContext} ctx
   */
  constructor(panels, choiceBar, ctx) {
    this.panels = panels;
    this.choiceBar = choiceBar;
    this.ctx = ctx;
    /** @type {Selection | null} */
    this.sel = null;
    /** @type {Set<string>} */
    this.targets = new Set();
    /** @type {{ from: string, to: string, pawn: string, options: { square: string, role: string, text: string }[] } | null} */
    this.removal = null;
    /** A promotion waiting for the legal list (its token: a newer gesture or a clear cancels it). */
    this.waiting = 0;
    /** @type {{ pointerId: number, x0: number, y0: number, moved: boolean, toggle: boolean, ghost: HTMLElement | null, el: HTMLElement } | null} */
    this.drag = null;
    this.hover = "";
    /** @type {(() => void) | undefined} */
    this.dragListeners = undefined;
    /** @type {Premove | null} the queued premove or pre-drop */
    this.premove = null;
    /** @type {[string, string, string, Completion] | null} the promotion's choice on screen */
    this.offered = null;
    // The choice bar speaks the page's language: a change of it draws the bar again.
    onLanguage(() => {
      if (this.offered && this.choiceBar.dataset.kind) this.offer(...this.offered);
    });
    for (const [board, panel] of panels) {
      panel.grid.addEventListener("pointerdown", (e) => this.gridDown(e, board));
      panel.el.addEventListener("pointerdown", (e) => this.reserveDown(e));
      panel.grid.addEventListener("contextmenu", (e) => {
        if (!this.premove && !this.sel) return;
        e.preventDefault();
        this.cancelPremove();
      });
    }
  }

  /**
   * The marks of the gestures on one board.
   * @param {BoardId} board
   * @returns {Marks}
   */
  marks(board) {
    const m = noMarks();
    if (board === this.ctx.myBoard()) {
      if (this.sel?.kind === "square") m.selected = this.sel.from;
      m.targets = this.targets;
      m.hover = this.hover;
      if (this.drag?.moved && this.sel?.kind === "square") m.lifted = this.sel.from;
      m.premove = premoveSquares(this.premove);
    } else if (this.removal) {
      m.removable = new Set(this.removal.options.map((o) => o.square));
    }
    return m;
  }

  /** The selected reserve role ("" if none), for the reserve's look. */
  selectedRole() {
    return this.sel?.kind === "reserve" ? this.sel.role : "";
  }

  /** Forgets the queued premove and any selection (right-click, tap, Escape). */
  cancelPremove() {
    this.premove = null;
    this.clear();
  }

  /** Forgets the selection and any pending choice (the position changed, or Escape). */
  clear() {
    this.waiting += 1;
    this.sel = null;
    this.targets = new Set();
    this.hover = "";
    this.endDrag();
    this.closeChoice();
    this.ctx.changed();
  }

  /**
   * After each change of the match: drops what no longer holds.
   */
  revalidate() {
    if (!this.ctx.myTurn()) {
      // Waiting for the turn: a premove and its selection stay while the match runs.
      if (!this.ctx.canPremove()) {
        this.premove = null;
        if (this.sel || this.removal || this.choiceBar.dataset.kind) this.clear();
      } else if (this.removal || this.choiceBar.dataset.kind) this.clear();
      return;
    }
    const queued = this.premove;
    const list = this.ctx.legal();
    if (queued && list) {
      const action = premoveAction(queued, list, queued.kind === "reserve" ? this.ctx.held(queued.role) : 0);
      if (action.kind !== "wait") this.premove = null;
      if (action.kind === "send") {
        this.ctx.play(action.text, { from: queued.kind === "square" ? queued.from : "", to: queued.to, piece: queued.piece });
        this.ctx.changed();
        return;
      }
      if (action.kind === "choose" && queued.kind === "square") {
        this.completed({ kind: "square", from: queued.from, piece: queued.piece }, queued.to, action.completion);
        return;
      }
      if (action.kind === "drop") this.ctx.changed();
    }
    if (this.sel) this.select(this.sel); // the legal list may have arrived: recompute targets
    const r = this.removal;
    const legal = this.ctx.legal();
    if (r && legal) {
      // The other board may have changed: offer only what the new list allows.
      const options = removalCandidates(legal, r.from, r.to);
      const same =
        options.length === r.options.length && options.every((o, i) => o.text === r.options[i].text);
      if (options.length === 0) {
        this.closeChoice();
        this.ctx.changed();
      } else if (!same) {
        this.offer(r.from, r.to, r.pawn, { kind: "removal", options });
      }
    }
  }

  /** @param {Selection} sel */
  select(sel) {
    this.sel = sel;
    const legal = this.ctx.legal();
    this.targets = new Set(
      legal ? (sel.kind === "square" ? targetsFrom(legal, sel.from) : dropTargets(legal, sel.role)) : [],
    );
    this.ctx.changed();
  }

  /**
   * @param {string} square
   */
  isTarget(square) {
    if (!this.sel) return false;
    // A premove, or a pre-drop of a piece not held: judged when the turn (or the piece) comes.
    if (this.queues()) return this.sel.kind === "square" || this.empty(square);
    if (this.ctx.legal()) return this.targets.has(square);
    // Not known yet: offer every square that does not hold one of the player's own pieces.
    const pos = this.ctx.myPos();
    const piece = pos ? pieceAt(pos, square) : "";
    return piece === "" || isWhitePiece(piece) !== this.ctx.myWhite();
  }

  /** Whether completing the selection now queues it rather than playing it. */
  queues() {
    const sel = this.sel;
    if (!sel) return false;
    if (!this.ctx.myTurn()) return this.ctx.canPremove();
    return sel.kind === "reserve" && this.ctx.held(sel.role) === 0;
  }

  /** @param {string} square */
  empty(square) {
    const pos = this.ctx.myPos();
    return !pos || pieceAt(pos, square) === "";
  }

  /**
   * @param {PointerEvent} e
   * @param {BoardId} board
   */
  gridDown(e, board) {
    if (e.pointerType === "mouse" && e.button !== 0) return;
    const sqEl = e.target instanceof HTMLElement ? e.target.closest("[data-square]") : null;
    const square = sqEl instanceof HTMLElement ? sqEl.dataset.square ?? "" : "";
    if (!square) return;
    if (this.removal) {
      if (board !== this.ctx.myBoard()) {
        const option = this.removal.options.find((o) => o.square === square);
        if (option) {
          e.preventDefault();
          this.playRemoval(option.text);
        }
      }
      return;
    }
    if (board !== this.ctx.myBoard()) return;
    e.preventDefault();
    // A click or tap on the board while a premove waits cancels it.
    if (this.premove && !this.sel) {
      this.cancelPremove();
      return;
    }
    if (this.sel && square !== (this.sel.kind === "square" ? this.sel.from : "") && this.isTarget(square)) {
      this.finish(square);
      return;
    }
    const pos = this.ctx.myPos();
    const piece = pos ? pieceAt(pos, square) : "";
    if ((this.ctx.myTurn() || this.ctx.canPremove()) && piece && isWhitePiece(piece) === this.ctx.myWhite()) {
      const toggle = this.sel?.kind === "square" && this.sel.from === square;
      this.select({ kind: "square", from: square, piece });
      this.beginDrag(e, piece, this.panels.get(board)?.grid ?? this.choiceBar, toggle);
    } else if (this.sel) {
      this.clear();
    }
  }

  /** @param {PointerEvent} e */
  reserveDown(e) {
    const btn = e.target instanceof HTMLElement ? e.target.closest("button.rpiece.mine") : null;
    if (!(btn instanceof HTMLButtonElement) || btn.disabled) return;
    if (e.pointerType === "mouse" && e.button !== 0) return;
    e.preventDefault();
    if (!(this.ctx.myTurn() || this.ctx.canPremove()) || this.removal) return;
    const role = btn.dataset.reserve ?? "";
    const piece = this.ctx.myWhite() ? role : role.toLowerCase();
    const toggle = this.sel?.kind === "reserve" && this.sel.role === role;
    this.select({ kind: "reserve", role, piece });
    this.beginDrag(e, piece, btn, toggle);
  }

  /**
   * @param {PointerEvent} e
   * @param {string} piece
   * @param {HTMLElement} el  the element that captures the pointer
   * @param {boolean} toggle  a click (no drag) on the same selection unselects it
   */
  beginDrag(e, piece, el, toggle) {
    this.endDrag();
    try {
      el.setPointerCapture(e.pointerId);
    } catch {
      // the pointer may already be gone
    }
    /** @type {{ pointerId: number, x0: number, y0: number, moved: boolean, toggle: boolean, ghost: HTMLElement | null, el: HTMLElement }} */
    const drag = { pointerId: e.pointerId, x0: e.clientX, y0: e.clientY, moved: false, toggle, ghost: null, el };
    this.drag = drag;
    /** @param {PointerEvent} ev */
    const move = (ev) => {
      if (ev.pointerId !== drag.pointerId) return;
      if (!drag.moved && Math.hypot(ev.clientX - drag.x0, ev.clientY - drag.y0) < DRAG_START_PX) return;
      if (!drag.moved) {
        drag.moved = true;
        const ghost = document.createElement("div");
        ghost.className = "ghost";
        const size = this.squareSize();
        ghost.style.width = ghost.style.height = `${size}px`;
        ghost.style.fontSize = `${size * 0.8}px`;
        ghost.append(pieceElement(piece));
        document.body.append(ghost);
        drag.ghost = ghost;
        this.ctx.changed();
      }
      if (drag.ghost) {
        drag.ghost.style.transform = `translate(${ev.clientX}px, ${ev.clientY}px) translate(-50%, -50%)`;
      }
      const hover = this.squareAt(ev.clientX, ev.clientY);
      if (hover !== this.hover) {
        this.hover = hover;
        this.ctx.changed();
      }
    };
    /** @param {PointerEvent} ev */
    const up = (ev) => {
      if (ev.pointerId !== drag.pointerId) return;
      const target = ev.type === "pointerup" ? this.squareAt(ev.clientX, ev.clientY) : "";
      const moved = drag.moved;
      this.endDrag();
      if (moved) {
        if (target && this.isTarget(target)) this.finish(target);
        else if (!(this.sel?.kind === "square" && this.sel.from === target)) this.clear();
        else this.ctx.changed();
      } else if (drag.toggle) {
        this.clear();
      }
    };
    // On the window (filtered by pointerId): the element may be drawn again mid-drag (a reserve
    // bar re-rendered), and then neither its events nor its pointer capture would remain.
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
    window.addEventListener("pointercancel", up);
    this.dragListeners = () => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      window.removeEventListener("pointercancel", up);
    };
  }

  endDrag() {
    this.dragListeners?.();
    this.dragListeners = undefined;
    if (this.drag) {
      this.drag.ghost?.remove();
      try {
        this.drag.el.releasePointerCapture(this.drag.pointerId);
      } catch {
        // released already
      }
    }
    const wasDragging = this.drag?.moved ?? false;
    this.drag = null;
    if (this.hover || wasDragging) {
      this.hover = "";
      this.ctx.changed();
    }
  }

  squareSize() {
    const board = this.ctx.myBoard();
    const grid = board ? this.panels.get(board)?.grid : null;
    return grid ? grid.getBoundingClientRect().width / 8 : 48;
  }

  /**
   * The square of the player's board under a point, or "".
   * @param {number} x
   * @param {number} y
   */
  squareAt(x, y) {
    const board = this.ctx.myBoard();
    return board ? this.panels.get(board)?.squareAt(x, y) ?? "" : "";
  }

  /**
   * Completes the selection on `to`.
   * @param {string} to
   */
  finish(to) {
    const sel = this.sel;
    if (!sel) return;
    if (this.queues()) {
      this.premove = sel.kind === "square"
        ? { kind: "square", from: sel.from, to, piece: sel.piece }
        : { kind: "reserve", role: sel.role, to, piece: sel.piece };
      this.sel = null;
      this.targets = new Set();
      this.ctx.changed();
      this.revalidate(); // a pre-drop made on the player's turn may be legal at once
      return;
    }
    if (sel.kind === "reserve") {
      const text = dropText(sel.role, to);
      this.sel = null;
      this.targets = new Set();
      this.ctx.play(text, { from: "", to, piece: sel.piece });
      this.ctx.changed();
      return;
    }
    const token = ++this.waiting;
    const legal = this.ctx.legal();
    void completeAwaiting(legal, sel.from, to, sel.piece, () => this.ctx.awaitLegal()).then((c) => {
      // A newer gesture, a clear or the end of the turn while the list was awaited: drop it.
      if (token !== this.waiting || this.sel !== sel || !this.ctx.myTurn()) return;
      this.completed(sel, to, c);
    });
  }

  /**
   * @param {{ kind: "square", from: string, piece: string }} sel
   * @param {string} to
   * @param {Completion} c
   */
  completed(sel, to, c) {
    if (c.kind === "none") {
      this.clear();
    } else if (c.kind === "send") {
      this.sel = null;
      this.targets = new Set();
      this.ctx.play(c.text, { from: sel.from, to, piece: sel.piece });
      this.ctx.changed();
    } else {
      this.offer(sel.from, to, sel.piece, c);
    }
  }

  /**
   * Shows the choice a promotion needs.
   * @param {string} from
   * @param {string} to
   * @param {string} pawn
   * @param {Completion} c
   */
  offer(from, to, pawn, c) {
    this.offered = [from, to, pawn, c];
    const white = isWhitePiece(pawn);
    const bar = this.choiceBar;
    const text = document.createElement("span");
    /** @type {HTMLButtonElement[]} */
    const buttons = [];
    /**
     * @param {string} id
     * @param {string} piece
     * @param {string} label
     * @param {() => void} act
     */
    const button = (id, piece, label, act) => {
      const b = document.createElement("button");
      b.type = "button";
      b.id = id;
      if (piece) b.append(pieceElement(piece));
      b.append(label);
      b.addEventListener("click", act);
      buttons.push(b);
    };
    if (c.kind === "removal") {
      this.removal = { from, to, pawn, options: c.options };
      const other = otherBoard(this.ctx.myBoard() ?? "A");
      text.textContent = t("v.promo-removal", { from, to, board: other });
      for (const o of c.options) {
        button(`choice-${o.square}`, white ? o.role.toUpperCase() : o.role, ` ${o.square}`, () => this.playRemoval(o.text));
      }
      bar.dataset.kind = "removal";
    } else if (c.kind === "upgrade") {
      text.textContent = t("v.promo-upgrade", { from, to });
      for (const o of c.options) {
        button(`choice-${o.role}`, white ? o.role.toUpperCase() : o.role, "", () => {
          this.closeChoice();
          this.ctx.play(o.text, { from, to, piece: white ? o.role.toUpperCase() : o.role });
        });
      }
      bar.dataset.kind = "upgrade";
    }
    button("choice-cancel", "", t("v.cancel"), () => this.clear());
    bar.replaceChildren(text, ...buttons);
    bar.hidden = false;
    this.sel = null;
    this.targets = new Set();
    this.ctx.changed();
  }

  /** @param {string} text */
  playRemoval(text) {
    const r = this.removal;
    if (!r) return;
    const pos = this.ctx.myPos();
    const pawn = pos ? pieceAt(pos, r.from) : "";
    const role = text[4];
    this.closeChoice();
    this.ctx.play(text, { from: r.from, to: r.to, piece: isWhitePiece(pawn) ? role.toUpperCase() : role });
    this.ctx.changed();
  }

  closeChoice() {
    this.removal = null;
    this.offered = null;
    this.choiceBar.hidden = true;
    delete this.choiceBar.dataset.kind;
    this.choiceBar.replaceChildren();
  }
}
