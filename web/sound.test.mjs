// Which sound a move makes, from the server's SAN.
import { test } from "node:test";
import assert from "node:assert/strict";
import { moveSound } from "./sound.js";

test("a_move_sounds_by_its_san_check_over_capture_over_drop", () => {
  assert.equal(moveSound("e4"), "move");
  assert.equal(moveSound("exd5"), "capture");
  assert.equal(moveSound("N@f3"), "drop");
  assert.equal(moveSound("Qxf2#"), "check");
  assert.equal(moveSound("N@f7+"), "check");
  assert.equal(moveSound("bxa8=Nb1"), "capture");
});
