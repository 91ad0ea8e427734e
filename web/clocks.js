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
 * @property {number} at  the page's clock (performance.now()) at receipt, ms
 */

/**
 * @param {number[]} clocks_ms
 * @param {boolean[]} running
 * @param {number} at
 * @returns {ClockReading}
 */
export function reading(clocks_ms, running, at) {
  return { clocks_ms: [...clocks_ms], running: [...running], at };
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
