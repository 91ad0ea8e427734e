// Review built from a match's events: the position and clocks at every move and between moves.
import { test } from "node:test";
import assert from "node:assert/strict";
import { buildReview, clocksAt, modelAt, moveIndex, movesBy, pointAt, matchTime } from "./review.js";

const START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";
const AFTER_E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[] b KQkq - 0 1";
const AFTER_E5 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR[] w KQkq - 0 2";
const ev = (seq, at, kind, clocks, running, bfen = null) =>
  ({ match_id: 3, seq, at_ms: at, kind, clocks_ms: clocks, running, bfen, server_time_us: 0 });
const events = [
  ev(0, 0, { SeatTaken: { seat: "WhiteA", name: "anna" } }, [180000, 180000, 180000, 180000], [false, false, false, false]),
  ev(1, 0, "Started", [180000, 180000, 180000, 180000], [true, false, true, false]),
  ev(2, 2000, { Moved: { seat: "WhiteA", uci: "e2e4", san: "e4", charged_ms: 2000, credit_ms: 0 } },
    [178000, 180000, 178000, 180000], [false, true, true, false], `${AFTER_E4} | ${START}`),
  ev(3, 5000, { Moved: { seat: "BlackA", uci: "e7e5", san: "e5", charged_ms: 3000, credit_ms: 0 } },
    [178000, 177000, 175000, 180000], [true, false, true, false], `${AFTER_E5} | ${START}`),
  ev(4, 6000, { Resigned: { seat: "WhiteB" } }, [177000, 177000, 174000, 180000], [false, false, false, false]),
  ev(5, 6000, { Ended: { winner: "One", reason: "white-B resigned", rule: "E10" } }, [177000, 177000, 174000, 180000], [false, false, false, false]),
];

test("every move's position and the list, from the events", () => {
  const r = buildReview({ match_id: 3, rules: "classic", time_control: "3+0" }, events, null);
  assert.equal(r.moves.length, 3, "the start and two moves");
  assert.deepEqual(r.list.map((m) => m.label), ["1A. e4", "1a. e5"]);
  assert.equal(r.points[moveIndex(r, 1)].model.bfen.split(" | ")[0], AFTER_E4);
  assert.equal(r.points[moveIndex(r, 2)].model.lastMove.A, "e7e5");
  assert.equal(r.points[moveIndex(r, 0)].model.bfen.split(" | ")[0], START);
  assert.equal(r.points[moveIndex(r, 0)].model.names[0], "anna");
  assert.equal(r.points.at(-1)?.model.result?.rule, "E10");
  assert.equal(movesBy(r, r.points.length - 1), 2);
  assert.equal(r.endMs, 6000);
});

test("a match reviewed by one of its players, not followed, is drawn from his seat; by others as a spectator", () => {
  const head = { match_id: 3, rules: "classic", time_control: "3+0" };
  assert.ok(buildReview(head, events, null, "anna").points.every((p) => p.model.yourSeat === "WhiteA"));
  assert.ok(buildReview(head, events, null, "boris").points.every((p) => p.model.yourSeat === null));
  assert.ok(buildReview(head, events, "BlackA", "anna").points.every((p) => p.model.yourSeat === "BlackA"), "a seat given wins");
});

test("clocks between two moves count down for those that ran", () => {
  const r = buildReview({ match_id: 3, rules: "classic", time_control: "3+0" }, events, "BlackA");
  const i = pointAt(r, 3500);
  assert.equal(r.points[i].seq, 2, "after e4, before e5");
  assert.deepEqual(clocksAt(r, i, 3500), [178000, 178500, 176500, 180000]);
  const m = modelAt(r, i, 3500, 0);
  assert.equal(m.yourSeat, "BlackA", "drawn for the viewer");
  assert.deepEqual(m.clocks.running, [false, false, false, false], "the clocks stand in review");
  assert.equal(pointAt(r, 0), 1, "at 0:00 the match has started");
  assert.equal(matchTime(65300), "1:05.300");
});

test("a4_a2_match_time_counts_from_the_clocks_start_and_a_taken_back_move_is_no_move", () => {
  // The clocks start 3 s after the match was made; white-A's e4 is taken back and he plays d4.
  const AFTER_D4 = "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR[] b KQkq - 0 1";
  const log = [
    ev(0, 0, { SeatTaken: { seat: "WhiteA", name: "anna" } }, [180000, 180000, 180000, 180000], [false, false, false, false]),
    ev(1, 3000, "Started", [180000, 180000, 180000, 180000], [true, false, true, false]),
    ev(2, 5000, { Moved: { seat: "WhiteA", uci: "e2e4", san: "e4", charged_ms: 2000, credit_ms: 0 } },
      [178000, 180000, 178000, 180000], [false, true, true, false], `${AFTER_E4} | ${START}`),
    ev(3, 6000, { ArbiterActed: { act: { TakeBack: { board: "A" } }, text: "", by: null } },
      [178000, 179000, 177000, 180000], [true, false, true, false], `${START} | ${START}`),
    ev(4, 8000, { Moved: { seat: "WhiteA", uci: "d2d4", san: "d4", charged_ms: 2000, credit_ms: 0 } },
      [176000, 179000, 175000, 180000], [false, true, true, false], `${AFTER_D4} | ${START}`),
  ];
  const r = buildReview({ match_id: 3, rules: "classic", time_control: "3+0" }, log, null);
  assert.deepEqual(r.points.map((p) => p.atMs), [-3000, 0, 2000, 3000, 5000], "from the start of the clocks");
  assert.equal(r.endMs, 5000);
  assert.equal(r.moves.length, 2, "the start and d4: the taken-back e4 is no move");
  assert.equal(movesBy(r, r.points.length - 1), 1);
  assert.equal(r.points[moveIndex(r, 1)].model.lastMove.A, "d2d4");
  const list = r.list.filter((e) => e.board);
  assert.deepEqual(list.map((e) => [e.label, Boolean(e.takenBack)]), [["1A. e4", true], ["1A. d4", false]]);
});
