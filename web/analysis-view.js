// @ts-check
// The engine's analysis on the review's screen (issue 35): the "Analysis" switch of the review
// bar (remembered), and while it is on, beside each board an evaluation bar (White's share,
// growing from White's side of the board as drawn), over each board the best move's arrow (a
// drop's target marked with its piece, a promotion's removal crossed out on the other board),
// under each board a line (the number, the best move, the line, the piece wished for, short of
// time), and in the move list the turning points, found by analysing every position of the match
// in the background, one request at a time (analysis.js), with the progress in the review bar.
// Every word comes from the catalogues.

import { language, onLanguage, t } from "./i18n.js";
import { clocksAt } from "./review.js";
import {
  AnalysisQueue, WISH, analysisRequest, arrowOf, barOf, evaluationText, evaluationWords, lineText, shortOfTime,
  squareXY, turningPoints,
} from "./analysis.js";

/** @typedef {import("./analysis.js").AnalysisRequest} AnalysisRequest */
/** @typedef {import("./analysis.js").AnalysisView} AnalysisView */
/** @typedef {import("./analysis.js").Swing} Swing */
/** @typedef {import("./board-view.js").BoardPanel} BoardPanel */
/** @typedef {import("./seats.js").BoardId} BoardId */
/** @typedef {{ r: import("./review.js").Review, i: number, t: number }} Shown */

const SVG = "http://www.w3.org/2000/svg";
/** localStorage key of the switch. */
const STORED = "shvedka.analysis";
/** The piece letters of the pictures (`pieces/`), by `PieceKind`. */
const LETTER = /** @type {Record<string, string>} */ ({ Pawn: "P", Knight: "N", Bishop: "B", Rook: "R", Queen: "Q", King: "K" });
/** The words of a swing, by mark and mover. */
const SWING = /** @type {Record<string, string>} */ ({
  "?White": "v.an.swing-White", "?Black": "v.an.swing-Black", "??White": "v.an.blunder-White", "??Black": "v.an.blunder-Black",
});

/**
 * @param {string} id
 * @returns {HTMLElement}
 */
function $(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`no #${id} in the page`);
  return el;
}

/**
 * @template {keyof SVGElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, string | number>} attrs
 * @returns {SVGElementTagNameMap[K]}
 */
function svg(tag, attrs) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/**
 * A span with a class and words.
 * @param {string} cls
 * @param {string} text
 * @param {string} [title]
 */
function span(cls, text, title) {
  const s = document.createElement("span");
  s.className = cls;
  s.textContent = text;
  if (title) s.title = title;
  return s;
}

/** What one board panel gets: the bar, the arrows' layer, the line. */
class BoardAnalysisView {
  /** @param {BoardPanel} panel */
  constructor(panel) {
    this.panel = panel;
    this.bar = document.createElement("div");
    this.bar.className = "evalbar";
    this.bar.dataset.evalbar = panel.board;
    this.bar.setAttribute("role", "img");
    this.fill = document.createElement("div");
    this.fill.className = "evalbar-white";
    this.bar.append(this.fill);
    this.arrows = svg("svg", { class: "arrows", viewBox: "0 0 8 8", "aria-hidden": "true" });
    this.arrows.dataset.arrows = panel.board;
    this.line = document.createElement("div");
    this.line.className = "an-line";
    this.line.dataset.anLine = panel.board;
    this.line.setAttribute("aria-live", "polite");
    const wrap = panel.wrap;
    wrap.prepend(this.bar);
    wrap.append(this.arrows);
    panel.el.append(this.line);
    this.hide();
  }

  hide() {
    this.bar.hidden = true;
    this.arrows.replaceChildren();
    this.line.hidden = true;
    this.line.replaceChildren();
  }

  /**
   * A message in place of the analysis (waiting for it, refused); the bar keeps its last fill,
   * dimmed.
   * @param {string} text
   */
  message(text) {
    this.bar.hidden = false;
    this.bar.classList.add("stale");
    this.arrows.replaceChildren();
    this.line.hidden = false;
    this.line.replaceChildren(span("an-note", text));
  }

  /**
   * Draws a board's analysis.
   * @param {import("./analysis.js").BoardAnalysis} b
   * @param {boolean} short  the side to move is short of time at the instant shown
   * @param {number | null} removal  the square a best move on the other board would remove here
   */
  draw(b, short, removal) {
    const lang = language();
    const whiteBottom = this.panel.whiteBottom;
    const bar = barOf(b.evaluation, whiteBottom);
    const [key, params] = evaluationWords(b.evaluation, lang);
    const words = t(key, params);
    this.bar.hidden = false;
    this.bar.classList.remove("stale");
    this.bar.dataset.from = bar.whiteFrom;
    this.bar.dataset.mark = bar.mark;
    this.bar.dataset.white = bar.white.toFixed(3);
    this.fill.style.height = `${(bar.white * 100).toFixed(1)}%`;
    this.bar.title = words;
    this.bar.setAttribute("aria-label", words);

    const layer = [];
    if (b.best) {
      const a = arrowOf(b.best, whiteBottom);
      const colour = b.to_move === "White" ? "w" : "b";
      if (a.points) {
        layer.push(svg("polygon", { class: "arrow", points: a.points.map((p) => p.join(",")).join(" ") }));
      } else {
        const [x, y] = a.target;
        layer.push(svg("circle", { class: "drop-ring", cx: x, cy: y, r: 0.44 }));
        if (a.drop && LETTER[a.drop]) {
          layer.push(svg("image", { class: "drop-piece", href: `/pieces/${colour}${LETTER[a.drop]}.svg`, x: x - 0.38, y: y - 0.38, width: 0.76, height: 0.76 }));
        }
      }
    }
    if (removal !== null) {
      const [x, y] = squareXY(removal, whiteBottom);
      const d = 0.3;
      const g = svg("g", { class: "removal" });
      const cross = [[-d, -d, d, d], [-d, d, d, -d]].map(([a, b, c, e]) => svg("line", { x1: x + a, y1: y + b, x2: x + c, y2: y + e }));
      g.append(...cross);
      layer.push(g);
    }
    this.arrows.replaceChildren(...layer);
    this.arrows.dataset.best = b.best?.san ?? "";

    const parts = [span("an-eval", evaluationText(b.evaluation, lang), words)];
    parts[0].dataset.white = bar.white > 0.5 ? "1" : bar.white < 0.5 ? "0" : "";
    if (b.best) parts.push(span("an-best", t("v.an.best", { san: b.best.san })));
    else if (typeof b.evaluation === "object" && "Centipawns" in b.evaluation) parts.push(span("an-best", t("v.an.no-move")));
    if (b.wish && WISH[b.wish]) parts.push(span("an-wish", t(WISH[b.wish]), t("v.an.wish-title")));
    if (short) parts.push(span("an-short", t("v.an.short"), t("v.an.short-title")));
    if (removal !== null) parts.push(span("an-removal", "✕", t("v.an.removal")));
    // The line on a row of its own, last.
    if (b.line.length) parts.push(span("an-pv", t("v.an.line", { moves: lineText(b.line) })));
    this.line.hidden = false;
    this.line.replaceChildren(...parts);
  }
}

/**
 * The analysis of the review: the switch, the queue of requests and the drawing.
 */
export class ReviewAnalysis {
  /**
   * @param {(req: AnalysisRequest) => Promise<import("./session.js").Outcome>} ask  sends `Analyse`, quietly
   * @param {Map<BoardId, BoardPanel>} panels
   */
  constructor(ask, panels) {
    this.queue = new AnalysisQueue(ask, () => this.draw());
    /** @type {Map<BoardId, BoardAnalysisView>} */
    this.boards = new Map([...panels].map(([b, p]) => [b, new BoardAnalysisView(p)]));
    /** @type {Shown | null} */
    this.shown = null;
    /** @type {AnalysisRequest | null} */
    this.current = null;
    /** @type {AnalysisRequest[]} the position after each move (0: the start) */
    this.positions = [];
    /** @type {import("./review.js").Review | null} the review `positions` are of */
    this.positionsOf = null;
    /** @type {Swing[]} */
    this.swings = [];
    this.on = readStored();
    this.toggle = $("review-analysis");
    this.status = $("analysis-status");
    this.toggle.addEventListener("click", () => this.setOn(!this.on));
    onLanguage(() => queueMicrotask(() => this.draw()));
  }

  /**
   * Turns the analysis on or off (remembered).
   * @param {boolean} on
   */
  setOn(on) {
    this.on = on;
    try {
      localStorage.setItem(STORED, on ? "1" : "0");
    } catch {
      // a page without storage keeps the choice until it closes
    }
    if (on) this.queue.retry();
    this.show(this.shown);
  }

  /**
   * The review shown now (null: none). Asks for what it needs and draws.
   * @param {Shown | null} shown
   */
  show(shown) {
    this.shown = shown;
    document.documentElement.classList.toggle("analysing", Boolean(shown && this.on));
    this.toggle.setAttribute("aria-pressed", String(this.on));
    if (!shown || !this.on) {
      this.queue.stop();
      this.current = null;
      this.draw();
      return;
    }
    const { r, i, t: at } = shown;
    const p = r.points[i];
    if (this.positionsOf !== r) {
      this.positionsOf = r;
      this.positions = r.moves.map((k) => analysisRequest(r.points[k].model.bfen, r.points[k].model.rules, r.points[k].clocksMs));
      this.queue.retry();
    }
    this.current = analysisRequest(p.model.bfen, p.model.rules, clocksAt(r, i, at));
    this.queue.want(this.current, this.positions);
    this.draw();
  }

  /** Draws everything from what is known now. */
  draw() {
    const shown = this.shown;
    const on = Boolean(shown && this.on);
    this.status.hidden = !on;
    if (!on || !shown || !this.current) {
      for (const v of this.boards.values()) v.hide();
      this.swings = [];
      this.markMoves();
      return;
    }
    const q = this.queue;
    const known = q.known(this.current);
    const view = known && "view" in known ? known.view : null;
    if (view) {
      const clocks = this.current.clocks_ms;
      for (const [b, v] of this.boards) {
        const i = b === "A" ? 0 : 1;
        const mine = view.boards[i];
        const removal = view.boards[1 - i].best?.removal ?? null;
        v.draw(mine, shortOfTime(mine, known && "view" in known ? known.clocks : null, clocks), removal);
      }
    } else {
      const text = q.refused ? t("v.an.playing") : known ? t("v.an.failed") : q.busy ? t("v.an.busy") : t("v.an.thinking");
      for (const v of this.boards.values()) v.message(text);
    }
    // The turning points, from the positions known so far.
    const boards = shown.r.list.filter((e) => e.board).map((e) => e.board);
    this.swings = turningPoints(boards, (k) => (this.positions[k] ? q.get(this.positions[k]) : null));
    this.markMoves();
    const count = Math.max(0, this.positions.length - 1);
    const done = this.positions.slice(1).filter((p) => q.known(p)).length;
    let text = t("v.an.progress", { done: new Intl.NumberFormat(language()).format(done), count });
    if (q.refused) text = t("v.an.playing");
    else if (q.busy) text = `${text} · ${t("v.an.busy")}`;
    this.status.textContent = text;
    this.status.dataset.done = String(done);
    this.status.dataset.count = String(count);
  }

  /** Marks the turning points in the move list (and unmarks the others). */
  markMoves() {
    const lang = language();
    const percent = new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 });
    const by = new Map(this.swings.map((s) => [String(s.k), s]));
    for (const li of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("#moves li[data-k]"))) {
      const s = by.get(li.dataset.k ?? "");
      if (!s) {
        if (li.dataset.mark) {
          delete li.dataset.mark;
          li.removeAttribute("title");
        }
        continue;
      }
      li.dataset.mark = s.mark;
      li.title = t(SWING[s.mark + s.mover], { before: percent.format(s.before), after: percent.format(s.after) });
    }
  }

  /** For `window.shvedka.analysis`: what the review's analysis shows. */
  report() {
    const view = this.current ? this.queue.get(this.current) : null;
    return {
      on: this.on,
      shown: view && this.shown ? {
        bfen: view.bfen,
        boards: view.boards.map((b) => ({
          board: b.board, evaluation: evaluationText(b.evaluation), best: b.best?.san ?? null, wish: b.wish,
          to: b.best ? `${"abcdefgh"[b.best.to % 8]}${Math.floor(b.best.to / 8) + 1}` : null,
        })),
      } : null,
      done: this.positions.length ? this.positions.slice(1).filter((p) => this.queue.known(p)).length : 0,
      count: Math.max(0, this.positions.length - 1),
      swings: this.swings.map((s) => ({ k: s.k, board: s.board, mover: s.mover, mark: s.mark })),
      busy: this.queue.busy,
      refused: this.queue.refused,
      sent: this.queue.sent,
    };
  }
}

/** The stored switch (off unless turned on). */
function readStored() {
  try {
    return globalThis.localStorage?.getItem(STORED) === "1";
  } catch {
    return false;
  }
}
