// @ts-check
// The four clocks between the server's readings (RULES.md K1): each State and Event carries
// the clocks in milliseconds and which of them run; the page notes when it received them and
// counts the running ones down from there. The server stays authoritative: every reading
// replaces the last. Pure; tested by clocks.test.mjs.

import { formatClock } from "./board.js";

export { formatClock };

/** Below this a clock is shown as low (red). */
export const LOW_MS = 20000;

/**
 * The server's clocks as received.
 * @typedef {object} ClockReading
 * @property {number[]} clocks_ms  White-A, Black-A, White-B, Black-B
 * @property {boolean[]} running
 * @property {number} at  the page's clock (performance.now()) when the server took the reading, ms
 * @property {number | null} [stamp]  the server's clock (server_time_us / 1000) at the reading
 * @property {number} [received]  the page's clock at receipt
 */

/**
 * The offset between the server's monotonic clock and the page's (`performance.now()`), from
 * one exchange: the server's time `serverUs` was read about half a round trip before receipt.
 * `offsetMs` = server ms − page ms.
 * @param {number} serverUs  server_time_us of the answer
 * @param {number} sentAt  page time the question left
 * @param {number} receivedAt  page time the answer arrived
 * @returns {{ offsetMs: number, rttMs: number }}
 */
export function syncSample(serverUs, sentAt, receivedAt) {
  const rttMs = Math.max(0, receivedAt - sentAt);
  return { offsetMs: serverUs / 1000 - (receivedAt - rttMs / 2), rttMs };
}

/**
 * The page time at which the server stamped `serverUs`, given the offset (null: unknown, then
 * receipt); never after receipt.
 * @param {number | null | undefined} serverUs
 * @param {number | null | undefined} offsetMs
 * @param {number} received
 */
export function stampedAt(serverUs, offsetMs, received) {
  if (typeof serverUs !== "number" || typeof offsetMs !== "number") return received;
  return Math.min(received, serverUs / 1000 - offsetMs);
}

/**
 * @param {number[]} clocks_ms
 * @param {boolean[]} running
 * @param {number} at  page time of receipt
 * @param {number | null} [serverUs]  server_time_us of the message
 * @param {number | null} [offsetMs]  server ms − page ms, when known
 * @returns {ClockReading}
 */
export function reading(clocks_ms, running, at, serverUs = null, offsetMs = null) {
  return {
    clocks_ms: [...clocks_ms],
    running: [...running],
    at: stampedAt(serverUs, offsetMs, at),
    stamp: typeof serverUs === "number" ? serverUs / 1000 : null,
    received: at,
  };
}

/**
 * The same reading placed again on the page's clock with a newer offset (after a resync, e.g.
 * a phone that slept while the server's clock went on).
 * @param {ClockReading} r
 * @param {number | null} offsetMs
 * @returns {ClockReading}
 */
export function restamp(r, offsetMs) {
  const received = r.received ?? r.at;
  if (typeof r.stamp !== "number" || typeof offsetMs !== "number") return r;
  return { ...r, at: Math.min(received, r.stamp - offsetMs) };
}

/**
 * The four clocks at the page's time `now`, never below zero.
 * @param {ClockReading} r
 * @param {number} now
 * @returns {number[]}
 */
export function clocksAt(r, now) {
  const elapsed = Math.max(0, now - r.at);
  return r.clocks_ms.map((ms, i) => Math.max(0, ms - (r.running[i] ? elapsed : 0)));
}

/**
 * Milliseconds left of a countdown that was `startsAtMs - atMs` long when received at `at`.
 * @param {number} startsAtMs  match time the clocks start
 * @param {number} atMs  match time of the event that announced it
 * @param {number} at  page time of receipt
 * @param {number} now
 */
export function countdownLeft(startsAtMs, atMs, at, now) {
  return Math.max(0, startsAtMs - atMs - Math.max(0, now - at));
}

/**
 * A clock's text and how it looks.
 * @param {number} ms
 * @returns {{ text: string, low: boolean, flagged: boolean }}
 */
export function clockFace(ms) {
  return { text: formatClock(ms), low: ms < LOW_MS, flagged: ms <= 0 };
}
