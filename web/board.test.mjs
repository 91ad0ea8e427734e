import { test } from "node:test";
import assert from "node:assert/strict";
import { drawOrder, formatClock, isDark, isWhitePiece, pieceAt, readBfen, reserveOf, squareIndex, squareName } from "./board.js";

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

test("a4_bfen_with_promoted_marks_and_move_numbers", () => {
  const [a, b] = readBfen("r1b1k2r/8/8/8/8/8/8/R3K2Q~[Pnp] b Qk - 3 17 | 8/8/8/8/8/8/8/K6k[] w - - 0 1");
  assert.equal(pieceAt(a, "h1"), "Q", "the ~ of a promoted piece is not a square");
  assert.equal(a.fullmove, 17);
  assert.equal(a.reserve, "Pnp");
  assert.equal(b.turn, "w");
});

test("squares_by_name_and_drawing_order", () => {
  assert.equal(squareIndex("a8"), 0);
  assert.equal(squareIndex("h1"), 63);
  assert.equal(squareIndex("e4"), 36);
  assert.equal(squareIndex("i9"), -1);
  for (let i = 0; i < 64; i++) assert.equal(squareIndex(squareName(i)), i);
  assert.equal(drawOrder(true)[0], "a8");
  assert.equal(drawOrder(false)[0], "h1");
  assert.equal(drawOrder(false)[63], "a8");
  assert.equal(isDark("a1"), true);
  assert.equal(isDark("h1"), false);
  assert.equal(isDark("e4"), false);
  assert.equal(isWhitePiece("N"), true);
  assert.equal(isWhitePiece("n"), false);
  assert.equal(isWhitePiece(""), false);
  const [start] = readBfen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1 | 8/8/8/8/8/8/8/K6k[] w - - 0 1");
  assert.equal(pieceAt(start, "e1"), "K");
  assert.equal(pieceAt(start, "e4"), "");
});
