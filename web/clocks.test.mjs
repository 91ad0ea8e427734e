// The clocks between the server's readings (RULES.md K1).
import { test } from "node:test";
import assert from "node:assert/strict";
import { clockFace, clocksAt, countdownLeft, reading } from "./clocks.js";

test("k1_running_clocks_count_down_from_the_reading", () => {
  const r = reading([179100, 180000, 175000, 180000], [false, true, true, false], 1000);
  assert.deepEqual(clocksAt(r, 1000), [179100, 180000, 175000, 180000]);
  assert.deepEqual(clocksAt(r, 1250.5), [179100, 179749.5, 174749.5, 180000]);
  assert.deepEqual(clocksAt(r, 500), [179100, 180000, 175000, 180000], "never runs backwards");
  assert.deepEqual(clocksAt(r, 1000 + 200000), [179100, 0, 0, 180000], "never below zero");
});

test("a_reading_is_a_copy", () => {
  const ms = [1, 2, 3, 4];
  const r = reading(ms, [true, false, false, false], 0);
  ms[0] = 99;
  assert.equal(r.clocks_ms[0], 1);
});

test("countdown_and_faces", () => {
  assert.equal(countdownLeft(3151, 151, 10000, 10000), 3000);
  assert.equal(countdownLeft(3151, 151, 10000, 11200), 1800);
  assert.equal(countdownLeft(3151, 151, 10000, 20000), 0);
  assert.deepEqual(clockFace(180000), { text: "3:00", low: false, flagged: false });
  assert.deepEqual(clockFace(9870), { text: "9.8", low: true, flagged: false });
  assert.deepEqual(clockFace(0), { text: "0.0", low: true, flagged: true });
});
