// Premoves: what a queued premove or pre-drop becomes when the turn comes, from the legal list.
import { test } from "node:test";
import assert from "node:assert/strict";
import { premoveAction, premoveSquares, premoveText } from "./premove.js";

const LEGAL = ["e2e4", "e2e3", "g1f3", "N@h3", "a7a8q", "a7a8n", "b7b8qd1", "b7b8qc1"];

test("a_legal_premove_is_sent_as_the_list_writes_it", () => {
  const p = { kind: "square", from: "g1", to: "f3", piece: "N" };
  assert.deepEqual(premoveAction(p, LEGAL, 0), { kind: "send", text: "g1f3" });
  assert.equal(premoveText(p), "g1f3");
  assert.deepEqual(premoveSquares(p), ["g1", "f3"]);
});

test("a_premove_no_longer_legal_is_dropped", () => {
  assert.deepEqual(premoveAction({ kind: "square", from: "e2", to: "e5", piece: "P" }, LEGAL, 0), { kind: "drop" });
});

test("r1_a_premoved_promotion_asks_for_its_choice", () => {
  const up = premoveAction({ kind: "square", from: "a7", to: "a8", piece: "P" }, LEGAL, 0);
  assert.equal(up.kind, "choose");
  const removal = premoveAction({ kind: "square", from: "b7", to: "b8", piece: "P" }, LEGAL, 0);
  assert.equal(removal.kind, "choose");
  assert.equal(removal.kind === "choose" && removal.completion.kind, "removal");
});

test("p1_a_pre_drop_waits_for_its_piece_and_is_sent_when_legal", () => {
  const p = { kind: "reserve", role: "N", to: "h3", piece: "N" };
  assert.deepEqual(premoveAction(p, LEGAL, 1), { kind: "send", text: "N@h3" });
  const absent = { kind: "reserve", role: "B", to: "h3", piece: "B" };
  assert.deepEqual(premoveAction(absent, LEGAL, 0), { kind: "wait" }, "no bishop yet: keep waiting");
  assert.deepEqual(premoveAction(absent, LEGAL, 1), { kind: "drop" }, "the bishop came but may not go there");
  assert.equal(premoveText(p), "N@h3");
  assert.deepEqual(premoveSquares(p), ["h3"]);
  assert.equal(premoveText(null), null);
});
