// Move texts from the server's legal moves (RULES.md P1, R1-R7), labels and BPGN movetext.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  complete, dropTargets, dropText, moveLabel, moveNumber, parseUci, removalCandidates, targetsFrom,
  touchedSquares,
  completeAwaiting, isPromotionGesture } from "./moves.js";

// Board B after 1.e4 d5 2.exd5 c6 3.dxc6 Nf6 4.cxb7 Nbd7, White to move (from a real server).
const LEGAL = ["e1e2", "b1c3", "g1f3", "d1e2", "f1b5", "a2a3", "a2a4", "b7b8ra1", "b7b8nb1", "b7b8qd1",
  "b7a8ra1", "b7a8nb1", "b7a8bc1", "b7a8qd1", "b7a8bf1", "b7a8ng1", "b7a8rh1", "b7c8qd1", "b7c8nb1", "P@e4", "P@e3", "N@f3"];

test("a4_long_notation_reads", () => {
  assert.deepEqual(parseUci("e2e4"), { kind: "move", from: "e2", to: "e4", promo: "", removal: "" });
  assert.deepEqual(parseUci("N@f3"), { kind: "drop", role: "N", to: "f3" });
  assert.deepEqual(parseUci("e7e8qd1"), { kind: "move", from: "e7", to: "e8", promo: "q", removal: "d1" });
  assert.deepEqual(parseUci("e7e8n"), { kind: "move", from: "e7", to: "e8", promo: "n", removal: "" });
  assert.equal(parseUci("Nf3"), null);
  assert.equal(parseUci("e7e8kd1"), null);
});

test("targets_of_a_piece_and_of_a_reserve_piece", () => {
  assert.deepEqual(targetsFrom(LEGAL, "a2").sort(), ["a3", "a4"]);
  assert.deepEqual(targetsFrom(LEGAL, "b7").sort(), ["a8", "b8", "c8"]);
  assert.deepEqual(targetsFrom(LEGAL, "h2"), []);
  assert.deepEqual(dropTargets(LEGAL, "P").sort(), ["e3", "e4"]);
  assert.deepEqual(dropTargets(LEGAL, "n"), ["f3"]);
  assert.deepEqual(dropTargets(LEGAL, "Q"), []);
});

test("r1_removal_candidates_are_the_distinct_squares_of_the_other_board", () => {
  const c = removalCandidates(LEGAL, "b7", "a8");
  assert.deepEqual(c.map((o) => o.square), ["a1", "b1", "c1", "d1", "f1", "g1", "h1"]);
  assert.deepEqual(c.find((o) => o.square === "b1"), { square: "b1", role: "n", text: "b7a8nb1" });
  assert.deepEqual(removalCandidates(LEGAL, "b7", "c8").map((o) => o.square), ["d1", "b1"]);
  assert.deepEqual(removalCandidates(LEGAL, "a2", "a3"), []);
});

test("a_gesture_becomes_a_move_a_choice_or_nothing", () => {
  assert.deepEqual(complete(LEGAL, "a2", "a4"), { kind: "send", text: "a2a4" });
  assert.deepEqual(complete(LEGAL, "a2", "a5"), { kind: "none" });
  assert.deepEqual(complete(LEGAL, "a2", "a2"), { kind: "none" });
  const r = complete(LEGAL, "b7", "b8");
  assert.equal(r.kind, "removal");
  assert.deepEqual(r.kind === "removal" && r.options.map((o) => o.text), ["b7b8ra1", "b7b8nb1", "b7b8qd1"]);
  // Without a list yet, the plain move goes to the server, which judges it.
  assert.deepEqual(complete(null, "g1", "f3"), { kind: "send", text: "g1f3" });
  // Classic rules: an upgrade offers the pieces, queen first.
  const up = complete(["e7e8n", "e7e8q", "e7e8b", "e7e8r"], "e7", "e8");
  assert.deepEqual(up, { kind: "upgrade", options: ["q", "r", "b", "n"].map((role) => ({ role, text: `e7e8${role}` })) });
  // R4: no removal possible, the promotion is written without one.
  assert.deepEqual(complete(["e7e8"], "e7", "e8"), { kind: "send", text: "e7e8" });
  assert.equal(dropText("n", "f3"), "N@f3");
});

test("highlights_of_a_move", () => {
  assert.deepEqual(touchedSquares("e2e4"), { own: ["e2", "e4"], other: [] });
  assert.deepEqual(touchedSquares("P@a6"), { own: ["a6"], other: [] });
  assert.deepEqual(touchedSquares("b7a8nb1"), { own: ["b7", "a8"], other: ["b1"] });
  assert.deepEqual(touchedSquares("junk"), { own: [], other: [] });
});

test("a4_move_labels", () => {
  assert.equal(moveLabel(1, "A", true, "e4"), "1A. e4");
  assert.equal(moveLabel(12, "B", false, "Qxf2#"), "12b. Qxf2#");
  assert.equal(moveNumber(1, true), 1); // after 1.e4 the FEN still says 1
  assert.equal(moveNumber(2, false), 1); // after 1...d5 it says 2
});

test("a_promotion_waits_for_the_legal_list", async () => {
  assert.equal(isPromotionGesture("P", "e8"), true);
  assert.equal(isPromotionGesture("p", "e1"), true);
  assert.equal(isPromotionGesture("P", "e7"), false);
  assert.equal(isPromotionGesture("N", "e8"), false);
  let asked = 0;
  const list = ["e7e8qd1", "e7e8qa1", "e2e4"];
  const wait = async () => { asked += 1; return list; };
  assert.deepEqual(await completeAwaiting(null, "e7", "e8", "P", wait),
    { kind: "removal", options: [{ square: "d1", role: "q", text: "e7e8qd1" }, { square: "a1", role: "q", text: "e7e8qa1" }] });
  assert.equal(asked, 1);
  assert.deepEqual(await completeAwaiting(null, "e2", "e4", "P", wait), { kind: "send", text: "e2e4" }, "no wait for a plain move");
  assert.equal(asked, 1);
  assert.deepEqual(await completeAwaiting(null, "e7", "e8", "P", async () => null), { kind: "none" }, "never a bare e7e8");
  assert.deepEqual(await completeAwaiting(["e7e8q", "e7e8n"], "e7", "e8", "P", wait), { kind: "upgrade", options: [{ role: "q", text: "e7e8q" }, { role: "n", text: "e7e8n" }] });
});
