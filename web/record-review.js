// @ts-check
// A record reviewed from its text (PROTOCOL.md item 24, `ReviewRecord`): the server replays a
// pasted or uploaded BPGN record and checks it for impossible moves (RULES.md A1); this module
// turns its pages into the events a stored match's review is built from (review.js), so the same
// review — boards, clocks, stepping, the engine's analysis — serves a record, and says the A1
// findings beside the moves. Pure; tested by record-review.test.mjs.

import { t } from "./i18n.js";

/** @typedef {import("./codec.js").RecordReview} RecordReview */
/** @typedef {import("./codec.js").ImpossibleView} ImpossibleView */
/** @typedef {import("./match-state.js").EventMsg} EventMsg */
/** @typedef {import("./seats.js").Seat} Seat */

/** The seats in the protocol's order (`SeatId::ALL`). */
const SEATS = /** @type {Seat[]} */ (["WhiteA", "BlackA", "WhiteB", "BlackB"]);

/** A record has no match id: its review uses 0, which no match has. */
export const RECORD_MATCH = 0;

/** A move's time when the record's clocks do not give it, ms. */
const NO_CLOCK_STEP = 1000;

/**
 * The events of a record's replay, as a stored match's review has them: the players seated, the
 * start (with the record's start position and the clocks its time control starts them at), then
 * every move with the position, the clocks after it and which of them run. A move's match time
 * is the server's (`at_ms`, the records crate's one time axis, which `shvedka arbiter show --at`
 * reads too: the record's own times, else placed by its clocks board by board); where the record
 * gives none, a second after the move before. The record's acts (version 13: a move later taken
 * back, the take-back, a corrected position, a pause, a flag, the end) come at their places with
 * the boards and clocks after them, as the events of a stored match would: the same replay as
 * `shvedka arbiter show` at every instant.
 * @param {RecordReview} first  the first page (its header)
 * @param {import("./codec.js").ReviewedMove[]} moves  every page's moves, in order
 * @param {import("./codec.js").ReviewedAct[]} [acts]  every page's acts, in order
 * @returns {{ head: { match_id: number, rules: string, time_control: string, clocks_unknown: boolean[] }, events: EventMsg[] }}
 */
export function recordEvents(first, moves, acts = []) {
  /** @type {EventMsg[]} */
  const events = [];
  const start = first.start_clocks_ms.map((c) => c ?? 0);
  /** @param {any} kind @param {number} at @param {number[]} clocks @param {string | null} bfen */
  const push = (kind, at, clocks, bfen) => events.push({
    match_id: RECORD_MATCH, seq: events.length, at_ms: at, kind, clocks_ms: clocks,
    running: [false, false, false, false], bfen, server_time_us: 0,
  });
  first.players.forEach((name, i) => {
    // Who they are (an account, a guest) the record does not say.
    if (name) push({ SeatTaken: { seat: SEATS[i], name, kind: null } }, 0, start, null);
  });
  push("Started", 0, start, first.start);
  // Both White clocks run from the start (K1).
  events[events.length - 1].running = [true, false, true, false];
  let at = 0;
  let clocks = start;
  let a = 0;
  /** The acts before the record's move `k` (all that are left: `k` past the last move). */
  const actsBefore = (/** @type {number} */ k) => {
    for (; a < acts.length && acts[a].after_moves <= k; a += 1) {
      const act = acts[a];
      const kind = actEvent(act.what, first);
      if (kind === null) continue;
      const after = act.clocks_ms.map((c, i) => c ?? clocks[i]);
      at = act.at_ms ?? at;
      push(kind, at, after, act.bfen);
      events[events.length - 1].running = [...act.running];
      clocks = after;
    }
  };
  moves.forEach((mv, k) => {
    actsBefore(k);
    const after = mv.clocks_ms.map((c, i) => c ?? clocks[i]);
    at = mv.at_ms ?? at + NO_CLOCK_STEP;
    push({ Moved: { seat: mv.seat, san: mv.san, uci: mv.uci, credit_ms: 0, charged_ms: 0 } }, at, after, mv.bfen);
    events[events.length - 1].running = [...(mv.running ?? [false, false, false, false])];
    clocks = after;
  });
  actsBefore(Number.MAX_SAFE_INTEGER);
  // A clock the record never gives (no TimeControl, no clock comment of its player) is unknown.
  const clocks_unknown = first.start_clocks_ms.map((c, k) => c === null && moves.every((mv) => mv.clocks_ms[k] === null));
  return { head: { match_id: RECORD_MATCH, rules: first.rules, time_control: first.time_control ?? "", clocks_unknown }, events };
}

/**
 * The event a stored match's log would hold for a record's act; `null` for one that changes
 * nothing on the boards or clocks (a draw a flag's window held).
 * @param {import("./codec.js").ActView} what
 * @param {RecordReview} first
 * @returns {any}
 */
function actEvent(what, first) {
  if (what === "Start") return "Started";
  if (what === "End") {
    const e = first.explained;
    const winner = e && e.outcome && e.outcome !== "Draw" ? e.outcome.Win : null;
    return { Ended: { winner, reason: "", rule: e?.rule ?? "", cause: null, note: null, rules: e?.rules ?? [] } };
  }
  if ("Played" in what) return { Moved: { seat: what.Played.seat, san: what.Played.text, uci: "", credit_ms: 0, charged_ms: 0 } };
  if ("Arbiter" in what) return { ArbiterActed: { act: what.Arbiter, text: "", by: null } };
  if ("Flag" in what) return { FlagFell: { seat: what.Flag.seat } };
  if ("Call" in what) return { ArbiterCalled: { seat: what.Call.seat, replay: null } };
  if ("Resign" in what) return { Resigned: { seat: what.Resign.seat } };
  return null;
}

/**
 * A record's move by index as written (`14a. Q@g8`): a move the answer names, else one replayed.
 * @param {RecordReview} first
 * @param {import("./codec.js").ReviewedMove[]} moves
 * @returns {(index: number) => string}
 */
export function labeler(first, moves) {
  const named = new Map(first.named.map((n) => [n.index, n.label]));
  return (index) => {
    const known = named.get(index);
    if (known) return known;
    const mv = moves[index];
    if (!mv) return `#${index + 1}`;
    const board = mv.seat.endsWith("A") ? "A" : "B";
    return `${mv.number}${mv.seat.startsWith("White") ? board : board.toLowerCase()}. ${mv.text}`;
  };
}

/**
 * What A1 says of one impossible move, in the reader's language: its type, rule and
 * consequence, and what holds had it been noticed only later.
 * @param {ImpossibleView} f
 * @param {(index: number) => string} label  a move of the record by index, `14a. Q@g8`
 */
export function findingText(f, label) {
  const now = t(f.kind === 1 ? "v.a1.type1" : "v.a1.type2");
  const later = f.later === "Stands"
    ? t("v.a1.stands")
    : f.later === "ArbiterDecides"
      ? t("v.a1.arbiter")
      : t("v.a1.legal-again", { move: label(f.later.LegalAgain.index) });
  return t("v.a1.finding", { move: label(f.index), kind: f.kind, rule: f.rule, now, later });
}

/**
 * The record's whole verdict in one line: clean, or how many impossible moves, and where the
 * replay had to stop.
 * @param {RecordReview} first
 * @param {(index: number) => string} label
 */
export function verdictText(first, label) {
  const parts = [first.impossible.length === 0 && first.unreadable === null
    ? t("v.a1.clean")
    : t("v.a1.found", { count: first.impossible.length })];
  if (first.stopped !== null) parts.push(t("v.a1.stopped", { move: label(first.stopped), shown: first.stopped }));
  if (first.unreadable === "Start") parts.push(t("v.a1.unreadable-start"));
  else if (first.unreadable) parts.push(t("v.a1.unreadable", { move: label(first.unreadable.Move.index) }));
  return parts.join(" · ");
}
