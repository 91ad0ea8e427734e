// The review's analysis without the page (analysis.js): requests and their cache key, the bar and
// the number of an evaluation in both languages, short of time at another instant, the turning
// points of a match, the arrow's geometry on a board either way up, and the queue that asks one
// position at a time, the one shown first, backs off while the engine is busy and stops when the
// server refuses a seated player.

import { test } from "node:test";
import assert from "node:assert/strict";
import {
  AnalysisQueue, BACKOFF, analysisKey, analysisRequest, arrowOf, barOf, evaluationText, evaluationWords, lineText,
  scoreOf, shortOfTime, squareXY, turningPoints, whiteShare,
} from "./analysis.js";
import { CATALOGUES } from "./i18n.js";

const START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";
const BFEN = `${START} | ${START}`;
const cp = (white) => ({ Centipawns: { white } });

/** A board's analysis. */
const board = (b, to_move, evaluation, extra = {}) =>
  ({ board: b, to_move, evaluation, best: null, line: [], depth: 4, nodes: 100, wish: null, short_of_time: false, ...extra });
/** Both boards' analysis. */
const view = (a, b, bfen = BFEN) => ({ bfen, boards: [a, b] });

test("a request names the position, its rules and the clocks in whole milliseconds; the key leaves the clocks out", () => {
  const req = analysisRequest(BFEN, "mgimo-2017", [180000.4, 179999.6, -3, 0]);
  assert.deepEqual(req, { bfen: BFEN, rules: "mgimo-2017", clocks_ms: [180000, 180000, 0, 0] });
  assert.equal(analysisRequest(BFEN, "classic", null).clocks_ms, null);
  assert.equal(analysisKey(req), analysisKey(analysisRequest(BFEN, "mgimo-2017", [1, 2, 3, 4])));
  assert.notEqual(analysisKey(req), analysisKey(analysisRequest(BFEN, "classic", null)));
});

test("White's share: a logistic of the centipawns, a mate full, a board that waits or is drawn in the middle", () => {
  assert.equal(whiteShare(cp(0)), 0.5);
  assert.ok(Math.abs(whiteShare(cp(400)) - 10 / 11) < 1e-9);
  assert.ok(Math.abs(whiteShare(cp(-400)) - 1 / 11) < 1e-9);
  assert.ok(whiteShare(cp(150)) > 0.5 && whiteShare(cp(150)) < whiteShare(cp(300)));
  assert.equal(whiteShare({ MateIn: { white: 3 } }), 1);
  assert.equal(whiteShare({ MateIn: { white: -2 } }), 0);
  assert.equal(whiteShare({ Mated: { winner: "Black" } }), 0);
  assert.equal(whiteShare({ Mated: { winner: "White" } }), 1);
  assert.equal(whiteShare("Waiting"), 0.5);
  assert.equal(whiteShare("Drawn"), 0.5);
  assert.equal(scoreOf(cp(400), "Black"), 1 - whiteShare(cp(400)));
});

test("the bar grows from White's side of the board as drawn, and marks a board that waits or is drawn", () => {
  assert.deepEqual(barOf(cp(0), true), { white: 0.5, whiteFrom: "bottom", mark: "" });
  assert.equal(barOf(cp(0), false).whiteFrom, "top");
  assert.equal(barOf("Waiting", true).mark, "waiting");
  assert.equal(barOf("Drawn", false).mark, "drawn");
  assert.equal(barOf({ Mated: { winner: "White" } }, false).white, 1);
});

test("an evaluation's number: pawns with one decimal and a real minus, mates with #, in each language", () => {
  assert.equal(evaluationText(cp(130)), "+1.3");
  assert.equal(evaluationText(cp(-40)), "\u22120.4");
  assert.equal(evaluationText(cp(0)), "0.0");
  assert.equal(evaluationText(cp(-4)), "0.0", "what rounds to nothing has no sign");
  assert.equal(evaluationText(cp(1234), "ru"), "+12,3");
  assert.equal(evaluationText(cp(-40), "ru"), "\u22120,4");
  assert.equal(evaluationText({ MateIn: { white: 3 } }), "#3");
  assert.equal(evaluationText({ MateIn: { white: -2 } }), "#\u22122");
  assert.equal(evaluationText({ Mated: { winner: "Black" } }), "0–1");
  assert.equal(evaluationText("Drawn"), "½");
  assert.equal(evaluationText("Waiting"), "…");
});

test("an evaluation's words are keys of both catalogues, a mate counted with the language's plural", () => {
  const cases = [cp(130), { MateIn: { white: 3 } }, { MateIn: { white: -1 } }, { Mated: { winner: "White" } }, { Mated: { winner: "Black" } }, "Waiting", "Drawn"];
  for (const ev of cases) {
    const [key] = evaluationWords(ev);
    for (const lang of ["en", "ru"]) assert.ok(key in CATALOGUES[lang], `${lang}: ${key}`);
  }
  assert.deepEqual(evaluationWords({ MateIn: { white: -2 } }), ["v.an.mate-black", { count: 2 }]);
  assert.deepEqual(evaluationWords(cp(-40), "ru"), ["v.an.eval", { value: "\u22120,4" }]);
});

test("short of time: the server's word for the clocks it was asked with, the same rule at another instant", () => {
  const b = board("B", "Black", cp(0), { short_of_time: false });
  assert.equal(shortOfTime(b, [60000, 60000, 60000, 60000], [60000, 60000, 60000, 60000]), false);
  // The same position scrubbed later: Black-B's clock ran down under ten seconds.
  assert.equal(shortOfTime(b, [60000, 60000, 60000, 60000], [60000, 60000, 60000, 9500]), true);
  assert.equal(shortOfTime(b, [60000, 60000, 60000, 60000], [60000, 60000, 9500, 60000]), false, "White-B's clock is not the side to move's");
  assert.equal(shortOfTime(board("A", "White", cp(0), { short_of_time: true }), null, null), true);
});

test("turning points: a move whose board swung against its mover, '?' from 0.25 of expected score, '??' from 0.4", () => {
  // After each move (0: the start): board A's evaluation and the side to move.
  const positions = [
    view(board("A", "White", cp(0)), board("B", "White", cp(0))),
    view(board("A", "Black", cp(30)), board("B", "White", cp(0))), // 1A. e4: fine
    view(board("A", "Black", cp(30)), board("B", "Black", cp(-250))), // 1B: White-B gives away 2.5 pawns: "?"
    view(board("A", "White", cp(900)), board("B", "Black", cp(-250))), // 1a: Black-A hangs the queen: "??"
    view(board("A", "Black", { MateIn: { white: 2 } }), board("B", "Black", cp(-250))), // 2A: White-A finds a mate: no mark
    view(board("A", "White", cp(20)), board("B", "Black", cp(-250))), // 2a: ok for Black (a mate missed by White is not Black's error)
  ];
  const swings = turningPoints(["A", "B", "A", "A", "A"], (k) => positions[k] ?? null);
  assert.deepEqual(swings.map((s) => [s.k, s.board, s.mover, s.mark]), [[2, "B", "White", "?"], [3, "A", "Black", "??"]]);
  assert.ok(swings[1].before > 0.4 && swings[1].after < 0.01);
  // A position not analysed yet: the moves next to it are not judged.
  assert.deepEqual(turningPoints(["A", "B", "A"], (k) => (k === 2 ? null : positions[k])).map((s) => s.k), []);
  // A mate given against the mover counts as a loss of all.
  const mated = [view(board("A", "White", cp(0)), board("B", "White", cp(0))), view(board("A", "Black", { MateIn: { white: -1 } }), board("B", "White", cp(0)))];
  assert.deepEqual(turningPoints(["A"], (k) => mated[k]).map((s) => s.mark), ["??"]);
  // A note between moves (null board) is skipped.
  assert.deepEqual(turningPoints([null], () => positions[0]), []);
});

test("squares on a board drawn either way up: a1 bottom-left for White, top-right for Black", () => {
  assert.deepEqual(squareXY(0, true), [0.5, 7.5]);
  assert.deepEqual(squareXY(63, true), [7.5, 0.5]);
  assert.deepEqual(squareXY(0, false), [7.5, 0.5]);
  assert.deepEqual(squareXY(4, false), [3.5, 0.5], "e1 for Black at the bottom");
  assert.deepEqual(squareXY(12 + 16, true), [4.5, 4.5], "e4");
  assert.deepEqual(squareXY(12 + 16, false), [3.5, 3.5], "e4 for Black at the bottom");
});

test("the arrow: from the square's centre to the target's, its head's tip on the target; a drop marks its target", () => {
  const e2e4 = arrowOf({ san: "e4", from: 12, to: 28, drop: null, removal: null }, true);
  assert.deepEqual(e2e4.target, [4.5, 4.5]);
  assert.ok(e2e4.points);
  assert.deepEqual(e2e4.points[3], [4.5, 4.5], "the tip");
  assert.ok(e2e4.points.every(([x]) => x > 4.2 && x < 4.8), "a vertical arrow on the e-file");
  assert.ok(e2e4.points[0][1] < 6.5 && e2e4.points[0][1] > 5.5, "it starts near e2's centre");
  // The same move seen by Black: it points down the page.
  const flipped = arrowOf({ san: "e4", from: 12, to: 28, drop: null, removal: null }, false);
  assert.deepEqual(flipped.points?.[3], [3.5, 3.5]);
  assert.ok((flipped.points?.[0][1] ?? 9) < 2, "it starts near e2, at the top");
  // Castling short: the king's square to g1.
  const castle = arrowOf({ san: "O-O", from: 4, to: 6, drop: null, removal: null }, true);
  assert.deepEqual(castle.points?.[3], [6.5, 7.5]);
  // A drop: no arrow, its target and its piece.
  assert.deepEqual(arrowOf({ san: "N@f7", from: null, to: 53, drop: "Knight", removal: null }, true), { points: null, target: [5.5, 1.5], drop: "Knight" });
});

test("the line: at most five moves, then an ellipsis", () => {
  assert.equal(lineText(["e5", "Nf3", "Nc6"]), "e5 Nf3 Nc6");
  assert.equal(lineText(["a", "b", "c", "d", "e", "f"]), "a b c d e …");
  assert.equal(lineText([]), "");
});

/** A fake server: answers from `script` in order, and records what it was asked. */
function fakeServer(script) {
  const asked = [];
  let inFlight = 0;
  let most = 0;
  const ask = async (req) => {
    asked.push(req.bfen);
    inFlight += 1;
    most = Math.max(most, inFlight);
    await new Promise((r) => setImmediate(r));
    inFlight -= 1;
    const answer = script.shift() ?? "ok";
    if (answer === "ok") return { ok: { Analysis: view(board("A", "White", cp(0)), board("B", "White", cp(0)), req.bfen) } };
    return { err: { code: answer, rule: null, message: "the server's words" } };
  };
  return { ask, asked, most: () => most };
}

/** Resolves once the queue has stopped asking. */
async function settled(q) {
  for (let i = 0; i < 200 && (q.running || q.next()); i += 1) await new Promise((r) => setImmediate(r));
}

const req = (n) => analysisRequest(`${n} | x`, "classic", [1, 2, 3, 4]);

test("the queue asks one position at a time, the one shown first, and never asks a position it knows", async () => {
  const server = fakeServer([]);
  let changes = 0;
  const q = new AnalysisQueue(server.ask, () => { changes += 1; }, async () => {});
  q.want(req(5), [req(1), req(2), req(5), req(3)]);
  await settled(q);
  assert.deepEqual(server.asked, ["5 | x", "1 | x", "2 | x", "3 | x"]);
  assert.equal(server.most(), 1, "one request at a time");
  assert.equal(changes, 4);
  assert.equal(q.done([req(1), req(2), req(3), req(5), req(9)]), 4);
  // Back to a position it knows: nothing asked.
  q.want(req(2), [req(1), req(2)]);
  await settled(q);
  assert.equal(server.asked.length, 4);
  assert.equal(q.get(req(2))?.bfen, "2 | x");
  assert.equal(q.get(req(9)), null);
});

test("the user moves on while a request is out: its answer is kept for its own position, the new one asked next", async () => {
  let release = () => {};
  const asked = [];
  const ask = (r) => {
    asked.push(r.bfen);
    if (r.bfen === "1 | x") return new Promise((res) => { release = () => res({ ok: { Analysis: view(board("A", "White", cp(50)), board("B", "White", cp(0)), r.bfen) } }); });
    return Promise.resolve({ ok: { Analysis: view(board("A", "White", cp(-50)), board("B", "White", cp(0)), r.bfen) } });
  };
  const q = new AnalysisQueue(ask, () => {}, async () => {});
  q.want(req(1), []);
  await new Promise((r) => setImmediate(r));
  q.want(req(2), []);
  q.want(req(2), []); // a second render: still one request at a time
  assert.deepEqual(asked, ["1 | x"]);
  release();
  await settled(q);
  assert.deepEqual(asked, ["1 | x", "2 | x"]);
  assert.deepEqual(q.get(req(1))?.boards[0].evaluation, cp(50), "the late answer is its own position's");
  assert.deepEqual(q.get(req(2))?.boards[0].evaluation, cp(-50));
});

test("the engine busy: the queue waits, longer each time, then asks the same position again", async () => {
  const server = fakeServer([{ Limit: "Analyses" }, { Limit: "Analyses" }, "Timeout", "ok"]);
  const waits = [];
  const states = [];
  const q = new AnalysisQueue(server.ask, () => states.push(q.busy), async (ms) => { waits.push(ms); });
  q.want(req(1), []);
  await settled(q);
  assert.deepEqual(server.asked, ["1 | x", "1 | x", "1 | x", "1 | x"]);
  assert.deepEqual(waits, [BACKOFF[0], BACKOFF[0] * 2, BACKOFF[0] * 4]);
  assert.equal(states[0], true, "said busy while waiting");
  assert.equal(q.busy, false);
  assert.ok(q.get(req(1)));
  assert.equal(q.delay, BACKOFF[0], "an answer resets the wait");
});

test("a seated player of a match in play is refused: the queue stops until asked to retry; a bad position is not asked again", async () => {
  const server = fakeServer([{ Busy: "Playing" }, { Invalid: "Position" }, "ok"]);
  const q = new AnalysisQueue(server.ask, () => {}, async () => {});
  q.want(req(1), [req(2)]);
  await settled(q);
  assert.equal(q.refused, "Playing");
  assert.deepEqual(server.asked, ["1 | x"]);
  q.want(req(1), [req(2)]);
  await settled(q);
  assert.deepEqual(server.asked, ["1 | x"], "nothing asked while refused");
  q.retry();
  await settled(q);
  assert.deepEqual(server.asked, ["1 | x", "1 | x", "2 | x"]);
  assert.deepEqual(q.known(req(1)), { failed: "Invalid" });
  assert.equal(q.get(req(1)), null);
  assert.ok(q.get(req(2)));
  q.stop();
  assert.equal(q.next(), null, "stopped: nothing wanted");
});
