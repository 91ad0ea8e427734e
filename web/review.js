// @ts-check
// Review of a match (PROTOCOL.md, Review): the server's stored events, applied one by one as a
// live follower applies them, give the match after every event — both boards, reserves, the
// four clocks — so the page can show any move, or any instant between two events (the clocks
// that ran since the last one count down from its readings). Pure; tested by review.test.mjs.

import { SEATS } from "./codec.js";
import { applyEvent, fromState } from "./match-state.js";
import { reading } from "./clocks.js";

/** @typedef {import("./match-state.js").MatchModel} MatchModel */
/** @typedef {import("./match-state.js").EventMsg} EventMsg */
/** @typedef {import("./seats.js").Seat} Seat */

/**
 * The match after one event.
 * @typedef {object} Point
 * @property {number} seq  the event's place in the log (-1: before any event)
 * @property {number} atMs  its match time
 * @property {number[]} clocksMs  the four clocks after it
 * @property {boolean[]} running  which of them ran after it
 * @property {MatchModel} model  the match as a follower saw it then
 */

/**
 * A match to review: every point of its log, and which of them are moves (and the start).
 * @typedef {object} Review
 * @property {number} matchId
 * @property {Point[]} points  one per event, in order
 * @property {number[]} moves  indices into `points`: the start of play, then each move
 * @property {import("./match-state.js").MoveEntry[]} list  the move list (with the arbiter's notes)
 * @property {number} endMs  the match time of the last event
 */

const START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";

/**
 * Builds the review of a match from its whole log.
 * @param {{ match_id: number, rules: string, time_control: string, clocks_unknown?: boolean[] }} head
 * @param {EventMsg[]} events  the log from its first event
 * @param {Seat | null} viewer  the seat the boards are drawn for (null: as a spectator)
 * @param {string | null} [viewerName]  without a seat: the reader's account name, whose seat in
 *   the match (if he played in it) the boards are drawn for — a match reviewed from the list of
 *   his recent ones, not followed
 * @returns {Review}
 */
export function buildReview(head, events, viewer, viewerName = null) {
  const m = fromState({
    match_id: head.match_id,
    rules: head.rules,
    time_control: head.time_control,
    seats: [null, null, null, null],
    kinds: [null, null, null, null],
    ready: [false, false, false, false],
    phase: "Forming",
    bfen: `${START} | ${START}`,
    clocks_ms: events[0]?.clocks_ms ?? [0, 0, 0, 0],
    running: [false, false, false, false],
    last_seq: null,
    result: null,
    your_seat: null,
    server_time_us: 0,
    moves: [],
  }, 0);
  /** @type {Point[]} */
  const points = [];
  /** @type {number[]} */
  const moves = [];
  // Match time counts from the start of the clocks (K1), as the record and `shvedka arbiter show`
  // count it; what came before is negative.
  const origin = events.find((e) => e.kind === "Started")?.at_ms ?? 0;
  /** @type {string[]} the board of each move of `moves` (after the start) */
  const boards = [];
  for (const e of events) {
    if (applyEvent(m, e, 0) !== "applied") continue;
    const k = e.kind;
    // A seat taken by the viewer's seat: the boards are drawn from his side.
    const model = /** @type {MatchModel} */ (structuredClone(m));
    model.yourSeat = viewer;
    if (head.clocks_unknown) model.clocksUnknown = [...head.clocks_unknown];
    points.push({ seq: e.seq, atMs: e.at_ms - origin, clocksMs: [...e.clocks_ms], running: [...e.running], model });
    const act = typeof k === "object" && k.ArbiterActed ? k.ArbiterActed.act : null;
    if (k === "Started") {
      moves.push(points.length - 1);
      boards.push("");
    } else if (typeof k === "object" && k.Moved) {
      moves.push(points.length - 1);
      boards.push(k.Moved.seat.endsWith("A") ? "A" : "B");
    } else if (typeof act === "object" && act && "TakeBack" in act) {
      // A move taken back is a point of the match, no longer one of its moves (docs/bpgn.md).
      const i = boards.lastIndexOf(act.TakeBack.board);
      if (i > 0) {
        moves.splice(i, 1);
        boards.splice(i, 1);
      }
    } else if (typeof act === "object" && act && "Replay" in act) {
      // The annulled game's moves are points, not moves: counting starts again.
      moves.length = 0;
      boards.length = 0;
    }
  }
  if (moves.length === 0 && points.length) moves.push(0);
  const named = viewer === null && viewerName ? m.names.indexOf(viewerName) : -1;
  if (named >= 0) {
    for (const p of points) p.model.yourSeat = /** @type {Seat} */ (SEATS[named]);
  }
  return { matchId: head.match_id, points, moves, list: m.moves, endMs: points.at(-1)?.atMs ?? 0 };
}

/**
 * The last point at or before match time `t` (0 before the first).
 * @param {Review} r
 * @param {number} t
 */
export function pointAt(r, t) {
  let i = 0;
  while (i + 1 < r.points.length && r.points[i + 1].atMs <= t) i += 1;
  return i;
}

/**
 * The four clocks at match time `t`, from point `i`: those that ran after it lose the time
 * since (never below zero).
 * @param {Review} r
 * @param {number} i
 * @param {number} t
 * @returns {number[]}
 */
export function clocksAt(r, i, t) {
  const p = r.points[i];
  if (!p) return [0, 0, 0, 0];
  const since = Math.max(0, t - p.atMs);
  return p.clocksMs.map((ms, k) => (p.running[k] ? Math.max(0, ms - since) : ms));
}

/**
 * The model to draw at point `i` and match time `t`: its clocks standing at that instant.
 * @param {Review} r
 * @param {number} i
 * @param {number} t
 * @param {number} now  page time
 * @returns {MatchModel}
 */
export function modelAt(r, i, t, now) {
  const m = /** @type {MatchModel} */ ({ ...r.points[i].model });
  m.clocks = reading(clocksAt(r, i, t), [false, false, false, false], now);
  return m;
}

/**
 * Which point the `k`-th move of the list is (counting moves only, from 1); the start for 0.
 * @param {Review} r
 * @param {number} k
 */
export function moveIndex(r, k) {
  return r.moves[Math.max(0, Math.min(k, r.moves.length - 1))] ?? 0;
}

/**
 * How many moves have been made by point `i` (0: the start).
 * @param {Review} r
 * @param {number} i
 */
export function movesBy(r, i) {
  let k = 0;
  while (k + 1 < r.moves.length && r.moves[k + 1] <= i) k += 1;
  return k;
}

/**
 * Match time as the review shows it and `shvedka arbiter show` prints it: `m:ss.mmm`, the
 * milliseconds after the language's decimal sign (`1:05,300` in Russian), so a flag and a mate
 * a few milliseconds apart are told apart; negative before the clocks start.
 * @param {number} ms
 * @param {string} [lang]  the language (English's point by default)
 */
export function matchTime(ms, lang = "en") {
  const sign = ms < 0 ? "-" : "";
  const abs = Math.abs(ms);
  const seconds = new Intl.NumberFormat(lang, { minimumIntegerDigits: 2, minimumFractionDigits: 3, maximumFractionDigits: 3, useGrouping: false });
  return `${sign}${Math.floor(abs / 60000)}:${seconds.format((abs % 60000) / 1000)}`;
}
