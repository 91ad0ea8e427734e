// A record's review built from the server's pages (record-review.js): the events a stored
// match's review is made of (players, the start position, each move with its position and the
// clocks the record knows), and the A1 check said in both languages.
import { test } from "node:test";
import assert from "node:assert/strict";
import { findingText, labeler, recordEvents, verdictText, RECORD_MATCH } from "./record-review.js";
import { buildReview, movesBy } from "./review.js";
import { setLanguage } from "./i18n.js";

const START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";
const AFTER_E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[] b KQkq - 0 1";

/** A first page as the server answers a two-move record whose third move is impossible. */
function page() {
  return {
    games: 1, rules: "mgimo-2017", time_control: "180+0",
    players: ["Anna", "Boris", null, null],
    start: `${START} | ${START}`, start_clocks_ms: [180000, 180000, 180000, 180000], total: 3,
    moves: [
      { seat: "WhiteA", number: 1, text: "e4", san: "e4", uci: "e2e4", bfen: `${AFTER_E4} | ${START}`, clocks_ms: [178000, 180000, 178000, 180000], comment: null, at_ms: 2000, running: [false, true, true, false] },
      { seat: "WhiteB", number: 1, text: "d2d4", san: "d4", uci: "d2d4", bfen: `${AFTER_E4} | ${START}`, clocks_ms: [178000, 177000, 175000, 180000], comment: null, at_ms: 5000, running: [false, true, false, true] },
    ],
    stopped: 2, next: null,
    impossible: [{ index: 2, kind: 2, rule: "P2", later: { LegalAgain: { index: 1 } } }, { index: 0, kind: 1, rule: "FIDE", later: "ArbiterDecides" }],
    unreadable: null,
    named: [{ index: 2, label: "1a. P@e2" }],
  };
}

test("a4_a_records_pages_become_the_events_of_a_review_with_positions_clocks_and_players", () => {
  const first = page();
  const { head, events } = recordEvents(/** @type {any} */ (first), /** @type {any} */ (first.moves));
  assert.equal(head.match_id, RECORD_MATCH);
  assert.deepEqual(events.map((e) => e.seq), [0, 1, 2, 3, 4]);
  const r = buildReview(head, events, null);
  assert.equal(r.moves.length, 3, "the start and two moves");
  const last = r.points.at(-1);
  assert.equal(last.model.bfen, `${AFTER_E4} | ${START}`);
  assert.deepEqual(last.clocksMs, [178000, 177000, 175000, 180000]);
  assert.deepEqual(last.running, [false, true, false, true], "the server says which clocks run");
  assert.deepEqual(last.model.names.slice(0, 2), ["Anna", "Boris"]);
  assert.equal(last.model.lastMove.B, "d2d4");
  // The server's match times (one axis with `shvedka arbiter show`): the two boards run side by
  // side, so White-B's move after 5 s of his own is at 5 s, not after White-A's 2 s.
  assert.deepEqual(r.points.slice(-2).map((p) => p.atMs), [2000, 5000]);
  assert.equal(movesBy(r, r.points.length - 1), 2);
  // A page without times (a server before version 12): a second after the move before.
  const old = page();
  for (const mv of old.moves) mv.at_ms = null;
  const { events: untimed } = recordEvents(/** @type {any} */ (old), /** @type {any} */ (old.moves));
  assert.deepEqual(untimed.slice(-2).map((e) => e.at_ms), [1000, 2000]);
});

test("a1_findings_and_the_verdict_are_said_in_english_and_russian_with_the_moves_as_written", () => {
  const first = /** @type {any} */ (page());
  const label = labeler(first, first.moves);
  assert.equal(label(0), "1A. e4");
  assert.equal(label(1), "1B. d2d4");
  assert.equal(label(2), "1a. P@e2", "a move beyond the replay, named by the server");
  setLanguage("en");
  assert.equal(findingText(first.impossible[0], label),
    "1a. P@e2: impossible move, type 2 (P2): taken back, and the other team gets a minute on both clocks; noticed later: it stands, the position is legal again after 1B. d2d4");
  assert.match(findingText(first.impossible[1], label), /^1A\. e4: impossible move, type 1 \(FIDE\): the mover's team loses the game; noticed later: the arbiter decides$/);
  assert.equal(verdictText(first, label), "record check (A1): 2 impossible moves · the boards are shown up to 1a. P@e2, which the rules cannot play");
  setLanguage("ru");
  assert.equal(verdictText(first, label), "проверка записи (A1): 2 невозможных хода · доски показаны до хода 1a. P@e2: по правилам его сделать нельзя");
  assert.match(findingText(first.impossible[0], label), /^1a\. P@e2: невозможный ход 2-го типа \(P2\): ход возвращается/);
  const clean = { ...first, impossible: [], stopped: null };
  assert.equal(verdictText(clean, label), "проверка записи (A1): невозможных ходов нет");
  setLanguage("en");
});

test("a4_a_record_without_clocks_has_unknown_clocks_not_four_fallen_flags", () => {
  const first = page();
  first.start_clocks_ms = [null, null, null, null];
  first.time_control = null;
  for (const mv of first.moves) mv.clocks_ms = [null, null, null, null];
  const { head, events } = recordEvents(/** @type {any} */ (first), /** @type {any} */ (first.moves));
  assert.deepEqual(head.clocks_unknown, [true, true, true, true]);
  const r = buildReview(head, events, null);
  assert.deepEqual(r.points.at(-1).model.clocksUnknown, [true, true, true, true]);
  // A record with clocks has none unknown.
  assert.deepEqual(recordEvents(/** @type {any} */ (page()), /** @type {any} */ (page().moves)).head.clocks_unknown, [false, false, false, false]);
});

test("a2_k5_a_records_acts_come_at_their_places_a_move_taken_back_struck_and_a_pause_stopping_the_clocks", () => {
  const first = { ...page(), acts: [], explained: null };
  const played = `${START} | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1`;
  /** @type {import("./codec.js").ReviewedAct[]} */
  const acts = [
    { after_moves: 1, at_ms: 3000, what: { Played: { seat: "BlackA", text: "e5" } }, bfen: played, clocks_ms: [178000, 179000, 177000, 180000], running: [true, false, true, false] },
    { after_moves: 1, at_ms: 3500, what: { Arbiter: "Pause" }, bfen: played, clocks_ms: [177500, 179000, 176500, 180000], running: [false, false, false, false] },
    { after_moves: 1, at_ms: 4000, what: { Arbiter: { TakeBack: { board: "A" } } }, bfen: `${AFTER_E4} | ${START}`, clocks_ms: [177500, 179000, 176500, 180000], running: [false, false, false, false] },
    { after_moves: 1, at_ms: 4200, what: { Arbiter: "Resume" }, bfen: `${AFTER_E4} | ${START}`, clocks_ms: [177500, 179000, 176500, 180000], running: [false, true, true, false] },
    { after_moves: 2, at_ms: 6000, what: "End", bfen: `${AFTER_E4} | ${START}`, clocks_ms: [null, null, null, null], running: [false, false, false, false] },
  ];
  const { head, events } = recordEvents(first, first.moves, acts);
  const kinds = events.map((e) => (typeof e.kind === "string" ? e.kind : Object.keys(e.kind)[0]));
  assert.deepEqual(kinds, ["SeatTaken", "SeatTaken", "Started", "Moved", "Moved", "ArbiterActed", "ArbiterActed", "ArbiterActed", "Moved", "Ended"]);
  const r = buildReview(head, events, null);
  // The played move is in the list, struck through; the record's moves are two.
  const struck = r.list.filter((e) => e.board && e.takenBack).map((e) => e.san);
  assert.deepEqual(struck, ["e5"]);
  assert.equal(r.list.filter((e) => e.board && !e.takenBack).length, 2);
  // During the pause no clock runs; the review ends at the record's end, not its last move.
  const paused = r.points.find((p) => p.atMs === 3500);
  assert.deepEqual(paused?.running, [false, false, false, false]);
  assert.equal(r.endMs, 6000);
});
