// @ts-check
// The engine's analysis in the review (issue 35; PROTOCOL.md item 23), without the page: the
// request for a point of the review, the client's cache and its one-at-a-time queue (with a
// back-off when the server's engine is busy), an evaluation as a bar's White share and as a
// number (`+1.3`, `−0.4`, `#3`, `#−2`), the turning points of a match (a move after which its
// board's evaluation swung against the mover), and the geometry of a best move's arrow. The
// server says facts (White-side scores, squares 0 = a1 … 63 = h8); this module turns them into
// what the view draws. Pure (no DOM); tested by analysis.test.mjs.

/** @typedef {import("./codec.js").AnalysisRequest} AnalysisRequest */
/** @typedef {import("./codec.js").AnalysisView} AnalysisView */
/** @typedef {import("./codec.js").BoardAnalysis} BoardAnalysis */
/** @typedef {import("./codec.js").Evaluation} Evaluation */
/** @typedef {import("./codec.js").AnalysedMove} AnalysedMove */
/** @typedef {import("./session.js").Outcome} Outcome */
/** @typedef {"A" | "B"} BoardId */
/** @typedef {"White" | "Black"} Colour */

/** Below this on his clock the side to move is short of time (the server's `SHORT_OF_TIME`). */
export const SHORT_OF_TIME_MS = 10000;
/** A move that cost its mover this much expected score is a turning point ("?"). */
export const TURNING = 0.25;
/** … and this much, a blunder ("??"): a piece left to be taken from an equal position. */
export const BLUNDER = 0.4;
/** Centipawns that make White's expected score 10 : 1 (the logistic's scale). */
const SCALE = 400;

/**
 * The request for a position of the review: its BFEN, its rules, the four clocks then (whole
 * milliseconds, never negative).
 * @param {string} bfen
 * @param {string} rules
 * @param {number[] | null} clocks  White-A, Black-A, White-B, Black-B
 * @returns {AnalysisRequest}
 */
export function analysisRequest(bfen, rules, clocks) {
  return { bfen, rules, clocks_ms: clocks ? clocks.map((ms) => Math.max(0, Math.round(ms))) : null };
}

/**
 * What a request is cached by: its rules and position (the clocks only decide `short_of_time`).
 * @param {AnalysisRequest} req
 */
export function analysisKey(req) {
  return `${req.rules}|${req.bfen}`;
}

/**
 * White's share of the bar (0 … 1): a logistic of the centipawns, a mate found or given full for
 * its side, the middle for a board that waits or is drawn.
 * @param {Evaluation} ev
 */
export function whiteShare(ev) {
  if (typeof ev === "string") return 0.5;
  if ("Centipawns" in ev) return 1 / (1 + 10 ** (-ev.Centipawns.white / SCALE));
  if ("MateIn" in ev) return ev.MateIn.white > 0 ? 1 : 0;
  return ev.Mated.winner === "White" ? 1 : 0;
}

/**
 * The expected score of `colour` on a board that stands so.
 * @param {Evaluation} ev
 * @param {Colour} colour
 */
export function scoreOf(ev, colour) {
  const white = whiteShare(ev);
  return colour === "White" ? white : 1 - white;
}

/**
 * How the bar is drawn: White's share and from which end it grows (White's side of the board as
 * drawn), and a mark for a board that waits or is drawn.
 * @param {Evaluation} ev
 * @param {boolean} whiteBottom  the board is drawn with White at the bottom
 * @returns {{ white: number, whiteFrom: "bottom" | "top", mark: "" | "waiting" | "drawn" }}
 */
export function barOf(ev, whiteBottom) {
  const mark = ev === "Waiting" ? "waiting" : ev === "Drawn" ? "drawn" : "";
  return { white: whiteShare(ev), whiteFrom: whiteBottom ? "bottom" : "top", mark };
}

/**
 * A signed number as the language writes it, with a real minus sign: `+1.3`, `−0.4`, `0.0`.
 * @param {number} n
 * @param {string} lang
 * @param {number} digits  fraction digits
 */
function signed(n, lang, digits) {
  const f = new Intl.NumberFormat(lang, { signDisplay: "exceptZero", minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false });
  return f.format(n).replace(/^[-\u2212]/, "\u2212");
}

/**
 * An evaluation as a short number, from White's side: `+1.3`, `−0.4` (pawns, one decimal in the
 * language's way: `+1,3` in Russian), `#3` (White mates in 3), `#−2` (Black mates in 2), `1–0` /
 * `0–1` for a board mated already, `½` for a drawn board, `…` for a side that waits for a piece.
 * @param {Evaluation} ev
 * @param {string} [lang]
 */
export function evaluationText(ev, lang = "en") {
  if (ev === "Waiting") return "…";
  if (ev === "Drawn") return "½";
  if ("Centipawns" in ev) return signed(ev.Centipawns.white / 100, lang, 1);
  if ("MateIn" in ev) return `#${ev.MateIn.white < 0 ? "\u2212" : ""}${new Intl.NumberFormat(lang).format(Math.abs(ev.MateIn.white))}`;
  return ev.Mated.winner === "White" ? "1–0" : "0–1";
}

/**
 * The words that say an evaluation (a key of the catalogues and its parameters), for the
 * number's title and a screen reader.
 * @param {Evaluation} ev
 * @param {string} [lang]
 * @returns {[string, Record<string, string | number>]}
 */
export function evaluationWords(ev, lang = "en") {
  if (ev === "Waiting") return ["v.an.waiting", {}];
  if (ev === "Drawn") return ["v.an.drawn", {}];
  if ("Centipawns" in ev) return ["v.an.eval", { value: evaluationText(ev, lang) }];
  if ("MateIn" in ev) return [ev.MateIn.white > 0 ? "v.an.mate-white" : "v.an.mate-black", { count: Math.abs(ev.MateIn.white) }];
  return [ev.Mated.winner === "White" ? "v.an.mated-white" : "v.an.mated-black", {}];
}

/** The key of "wants: …" for the piece wished for from the partner (`PieceKind`). */
export const WISH = /** @type {Record<string, string>} */ ({
  Pawn: "v.an.wish.Pawn", Knight: "v.an.wish.Knight", Bishop: "v.an.wish.Bishop",
  Rook: "v.an.wish.Rook", Queen: "v.an.wish.Queen",
});

/**
 * Whether the side to move on a board is short of time at the instant shown: the server's word
 * when it was asked with the clocks shown, else the same rule on the clocks shown (the same
 * position at another instant of the review).
 * @param {BoardAnalysis} b
 * @param {number[] | null} asked  the clocks the answer was asked with
 * @param {number[] | null} shown  the clocks at the instant shown
 */
export function shortOfTime(b, asked, shown) {
  if (!shown) return b.short_of_time;
  if (asked && asked.length === shown.length && asked.every((ms, i) => ms === Math.max(0, Math.round(shown[i])))) return b.short_of_time;
  const seat = (b.board === "A" ? 0 : 2) + (b.to_move === "White" ? 0 : 1);
  return shown[seat] < SHORT_OF_TIME_MS;
}

/**
 * A move that swung its board against its mover.
 * @typedef {object} Swing
 * @property {number} k  the move, counted from 1 in the review's list
 * @property {BoardId} board
 * @property {Colour} mover
 * @property {number} before  the mover's expected score before the move (0 … 1)
 * @property {number} after  and after it
 * @property {"?" | "??"} mark  a turning point, or a blunder
 */

/**
 * The turning points of a match: every move after which its board's evaluation swung against
 * the mover by at least `TURNING` of expected score (`BLUNDER`: "??"). A move whose position
 * before or after is not analysed (yet) is not judged.
 * @param {(BoardId | null)[]} boards  the board of each move, the first move first
 * @param {(k: number) => AnalysisView | null} after  the analysis after the k-th move (0: the start)
 * @returns {Swing[]}
 */
export function turningPoints(boards, after) {
  /** @type {Swing[]} */
  const out = [];
  for (let k = 1; k <= boards.length; k += 1) {
    const board = boards[k - 1];
    const a = after(k - 1);
    const b = after(k);
    if (!board || !a || !b) continue;
    const i = board === "A" ? 0 : 1;
    const mover = a.boards[i].to_move;
    const before = scoreOf(a.boards[i].evaluation, mover);
    const now = scoreOf(b.boards[i].evaluation, mover);
    const drop = before - now;
    if (drop >= TURNING - 1e-9) out.push({ k, board, mover, before, after: now, mark: drop >= BLUNDER - 1e-9 ? "??" : "?" });
  }
  return out;
}

/**
 * The centre of a square (0 = a1 … 63 = h8) on a board drawn 8 × 8 units, top-left (0, 0).
 * @param {number} square
 * @param {boolean} whiteBottom
 * @returns {[number, number]}
 */
export function squareXY(square, whiteBottom) {
  const file = square % 8;
  const rank = Math.floor(square / 8);
  return whiteBottom ? [file + 0.5, 7 - rank + 0.5] : [7 - file + 0.5, rank + 0.5];
}

/** @param {number} n */
const round = (n) => Math.round(n * 1000) / 1000;

/**
 * The arrow of a move on a board drawn 8 × 8 units: a polygon (shaft and head) from the centre
 * of its square to the centre of its target; a drop has no arrow but its target and the piece
 * (the view marks the square and shows the piece there). Castling goes to the king's square, as
 * the server gives it.
 * @param {AnalysedMove} move
 * @param {boolean} whiteBottom
 * @returns {{ points: [number, number][] | null, target: [number, number], drop: string | null }}
 */
export function arrowOf(move, whiteBottom) {
  const target = squareXY(move.to, whiteBottom);
  if (move.from === null || move.from === move.to) return { points: null, target, drop: move.drop };
  const [x1, y1] = squareXY(move.from, whiteBottom);
  const [x2, y2] = target;
  const len = Math.hypot(x2 - x1, y2 - y1);
  const [dx, dy] = [(x2 - x1) / len, (y2 - y1) / len];
  const [nx, ny] = [-dy, dx];
  const shaft = 0.16 / 2;
  const head = 0.48 / 2;
  const headLen = 0.42;
  const start = [x1 + dx * 0.2, y1 + dy * 0.2];
  const neck = [x2 - dx * headLen, y2 - dy * headLen];
  /** @type {[number, number][]} */
  const points = [
    [start[0] + nx * shaft, start[1] + ny * shaft],
    [neck[0] + nx * shaft, neck[1] + ny * shaft],
    [neck[0] + nx * head, neck[1] + ny * head],
    [x2, y2],
    [neck[0] - nx * head, neck[1] - ny * head],
    [neck[0] - nx * shaft, neck[1] - ny * shaft],
    [start[0] - nx * shaft, start[1] - ny * shaft],
  ];
  return { points: points.map(([x, y]) => [round(x), round(y)]), target, drop: move.drop };
}

/**
 * The first moves of the line the engine expects, written as a short line: at most `max` of
 * them, `…` when there are more.
 * @param {string[]} line
 * @param {number} [max]
 */
export function lineText(line, max = 5) {
  return line.slice(0, max).join(" ") + (line.length > max ? " …" : "");
}

/** The first wait after the server's engine said it was busy, and the longest, in ms. */
export const BACKOFF = /** @type {const} */ ([1000, 16000]);

/**
 * What the client knows of one position: the server's answer (with the clocks it was asked
 * with), or why there is none.
 * @typedef {{ view: AnalysisView, clocks: number[] | null } | { failed: string }} Known
 */

/**
 * The client's analyses: a cache by rules and position, and a queue that asks the server one
 * position at a time — the position shown first, then the review's other positions in order —
 * waiting longer and longer while the server's engine is busy (`Limit(Analyses)`, or no answer)
 * and stopping when the server refuses a player seated in a match in play (`Busy(Playing)`). An
 * answer that comes after the page has moved on is kept for later and shown only for its own
 * position.
 */
export class AnalysisQueue {
  /**
   * @param {(req: AnalysisRequest) => Promise<Outcome>} ask  sends `Analyse`
   * @param {() => void} changed  an answer (or the queue's state) changed
   * @param {(ms: number) => Promise<void>} [wait]
   */
  constructor(ask, changed, wait = (ms) => new Promise((r) => setTimeout(r, ms))) {
    this.ask = ask;
    this.changed = changed;
    this.wait = wait;
    /** @type {Map<string, Known>} */
    this.cache = new Map();
    /** @type {AnalysisRequest | null} the position shown */
    this.current = null;
    /** @type {AnalysisRequest[]} the review's positions, in order */
    this.background = [];
    /** @type {string | null} the key asked now */
    this.asking = null;
    /** The server's engine was busy: the queue waits before asking again. */
    this.busy = false;
    /** The server refused analysis to this session (`Playing`), until `retry()`. */
    this.refused = /** @type {string | null} */ (null);
    /** @type {number} the next wait after a busy answer, ms */
    this.delay = BACKOFF[0];
    this.running = false;
    /** How many requests were sent (for tests and the report). */
    this.sent = 0;
  }

  /**
   * What to analyse now: the position shown, then the others in order. Starts the queue.
   * @param {AnalysisRequest | null} current
   * @param {AnalysisRequest[]} background
   */
  want(current, background) {
    this.current = current;
    this.background = background;
    void this.pump();
  }

  /** Wants nothing more (analysis turned off); an answer on its way is still kept. */
  stop() {
    this.current = null;
    this.background = [];
  }

  /** Asks again after a refusal of the session (a new review, analysis turned on again). */
  retry() {
    this.refused = null;
    void this.pump();
  }

  /**
   * What is known of a position.
   * @param {AnalysisRequest} req
   * @returns {Known | null}
   */
  known(req) {
    return this.cache.get(analysisKey(req)) ?? null;
  }

  /**
   * The analysis of a position, if in.
   * @param {AnalysisRequest} req
   * @returns {AnalysisView | null}
   */
  get(req) {
    const k = this.known(req);
    return k && "view" in k ? k.view : null;
  }

  /** The next position to ask for, if any. */
  next() {
    for (const req of [this.current, ...this.background]) {
      if (req && !this.cache.has(analysisKey(req))) return req;
    }
    return null;
  }

  /** Asks for each wanted position in turn, one at a time, until none is left. */
  async pump() {
    if (this.running || this.refused) return;
    this.running = true;
    try {
      for (let req = this.next(); req && !this.refused; req = this.next()) {
        const key = analysisKey(req);
        this.asking = key;
        this.sent += 1;
        const r = await this.ask(req);
        this.asking = null;
        if (r.ok && typeof r.ok === "object" && "Analysis" in r.ok) {
          this.cache.set(key, { view: r.ok.Analysis, clocks: req.clocks_ms });
          this.busy = false;
          this.delay = BACKOFF[0];
          this.changed();
          continue;
        }
        const code = /** @type {any} */ (r.err?.code);
        if (code && typeof code === "object" && "Busy" in code) {
          this.refused = String(code.Busy);
          this.changed();
        } else if (code === "Offline" || code === "Timeout" || code === "Unavailable" || (code && typeof code === "object" && "Limit" in code)) {
          // The engine is busy, or the link is down: quietly, later.
          this.busy = true;
          this.changed();
          await this.wait(this.delay);
          this.delay = Math.min(this.delay * 2, BACKOFF[1]);
        } else {
          // The position does not read under its rules (Invalid), or another refusal: not again.
          this.cache.set(key, { failed: code && typeof code === "object" ? Object.keys(code)[0] : String(code) });
          this.changed();
        }
      }
    } finally {
      this.running = false;
      this.asking = null;
      if (this.busy) {
        this.busy = false;
        this.changed();
      }
    }
  }

  /**
   * How many of `reqs` are known (answered, or failed for good).
   * @param {AnalysisRequest[]} reqs
   */
  done(reqs) {
    return reqs.filter((r) => this.cache.has(analysisKey(r))).length;
  }
}
