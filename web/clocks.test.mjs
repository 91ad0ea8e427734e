// The clocks between the server's readings (RULES.md K1).
import { test } from "node:test";
import assert from "node:assert/strict";
import { clockFace, clocksAt, countdownLeft, reading, restamp, stampedAt, syncSample } from "./clocks.js";

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
  assert.equal(r.at, 0);
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

test("k1_offset_from_a_ping_with_half_the_round_trip", () => {
  // Ping left at page 1000, Pong (server 50 s) came back at 1100: the server read its clock
  // at about page 1050.
  const s = syncSample(50_000_000, 1000, 1100);
  assert.equal(s.rttMs, 100);
  assert.equal(s.offsetMs, 50000 - 1050);
  // A reading the server stamped at 49.5 s happened at page 550, not at its receipt.
  assert.equal(stampedAt(49_500_000, s.offsetMs, 5000), 550);
  assert.equal(stampedAt(49_500_000, null, 5000), 5000, "no offset yet: receipt");
  assert.equal(stampedAt(99_000_000, s.offsetMs, 5000), 5000, "never after receipt");
  const r = reading([60000, 60000, 60000, 60000], [true, false, false, false], 5000, 49_500_000, s.offsetMs);
  assert.equal(r.at, 550);
  assert.deepEqual(clocksAt(r, 5550), [55000, 60000, 60000, 60000]);
  // After a sleep the page's clock lags 3 s more: the same reading is placed 3 s earlier.
  const r2 = restamp(r, s.offsetMs + 3000);
  assert.equal(r2.at, -2450);
  assert.deepEqual(clocksAt(r2, 5550), [52000, 60000, 60000, 60000]);
  assert.equal(restamp(reading([1, 1, 1, 1], [true, true, true, true], 7), 500).at, 7, "no stamp: unchanged");
});
