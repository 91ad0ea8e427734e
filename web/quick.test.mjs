// The seek bar's words (quick.js): what is sought, the wait, and the rating range widening while
// the seek waits, from the server's view and the time since.

import { test } from "node:test";
import assert from "node:assert/strict";
import { clock, poolId, seekText } from "./quick.js";

const view = {
  seek: 3, time_control: "3+0", rules: "mgimo-2017", rated: false, range: null, players: ["anna"],
  invited: null, waiting: true, waited_ms: 4_000, reach: 250, widening: 25, expires_in_ms: null,
};

test("the wait counts on and the quick range widens by its points a second", () => {
  assert.equal(seekText(view, 0), "Seeking a 3+0 casual game · waiting 0:04 · rating ±250");
  assert.equal(seekText(view, 62_000), "Seeking a 3+0 casual game · waiting 1:06 · rating ±1800");
});

test("a fixed range stays, a pair is named, an invitation counts down", () => {
  const fixed = { ...view, range: 100, rated: true, players: ["anna", "gleb"] };
  assert.equal(seekText(fixed, 10_000), "Seeking a 3+0 rated game (anna & gleb) · waiting 0:14 · rating ±100");
  const inviting = { ...view, waiting: false, invited: "gleb", waited_ms: 0, expires_in_ms: 60_000 };
  assert.equal(seekText(inviting, 15_000), "Waiting for gleb to accept a 3+0 casual game as partners (0:45 left)");
});

test("clock and pool ids", () => {
  assert.equal(clock(-5), "0:00");
  assert.equal(clock(600_000), "10:00");
  assert.equal(poolId("5+d3"), "quick-5-d3");
});
