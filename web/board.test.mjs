import { test } from "node:test";
import assert from "node:assert/strict";
import { readBfen, reserveOf, formatClock } from "./board.js";

const START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";

test("a4_bfen_reads_into_boards_and_reserves", () => {
  const [a, b] = readBfen(`${START} | rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[QNNp] b KQkq - 0 1`);
  assert.equal(a.squares.slice(0, 8), "rnbqkbnr");
  assert.equal(a.squares.slice(56), "RNBQKBNR");
  assert.equal(a.turn, "w");
  assert.equal(b.squares[4 * 8 + 4], "P", "e4 on board B");
  assert.equal(b.turn, "b");
  assert.deepEqual(reserveOf(b.reserve, true), { Q: 1, N: 2 });
  assert.deepEqual(reserveOf(b.reserve, false), { P: 1 });
  assert.throws(() => readBfen(START));
  assert.throws(() => readBfen("8/8 w | 8/8 w"));
});

test("k1_clocks_show_tenths_below_ten_seconds", () => {
  assert.equal(formatClock(180000), "3:00");
  assert.equal(formatClock(10000), "0:10");
  assert.equal(formatClock(9870), "9.8");
  assert.equal(formatClock(-5), "0.0");
});
