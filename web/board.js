// @ts-check
// Pure helpers of the web client (no DOM): reading BFEN (RULES.md A4) into boards and
// reserves, square names and indices, and showing clocks. Tested by board.test.mjs.

/**
 * One board of a BFEN.
 * @typedef {object} BoardPos
 * @property {string} squares  64 characters from a8 to h1, "." for an empty square
 * @property {string} reserve  the reserve letters, upper case White's, lower case Black's
 * @property {"w" | "b"} turn  the side to move
 * @property {number} fullmove  the FEN's move number (1 at the start)
 */

export const FILES = "abcdefgh";

/**
 * One board of a BFEN: its placement (with `[reserve]` and `~` marks), side to move and move
 * number.
 * @param {string} fen
 * @returns {BoardPos}
 */
export function readBoard(fen) {
  const fields = fen.trim().split(/\s+/);
  const placementWithReserve = fields[0];
  const turn = fields[1] === "b" ? "b" : "w";
  const fullmove = Number(fields[5] ?? 1) || 1;
  const open = placementWithReserve.indexOf("[");
  const placement = open < 0 ? placementWithReserve : placementWithReserve.slice(0, open);
  const reserve = open < 0 ? "" : placementWithReserve.slice(open + 1, placementWithReserve.indexOf("]"));
  let squares = "";
  for (const rank of placement.split("/")) {
    for (const c of rank) {
      if (c >= "1" && c <= "8") squares += ".".repeat(Number(c));
      else if (c !== "~") squares += c; // "~" marks a promoted piece
    }
  }
  if (squares.length !== 64) throw new Error(`not a board: ${fen}`);
  return { squares, reserve, turn, fullmove };
}

/**
 * Both boards of a BFEN, A then B.
 * @param {string} bfen
 * @returns {[BoardPos, BoardPos]}
 */
export function readBfen(bfen) {
  const parts = bfen.split("|");
  if (parts.length !== 2) throw new Error(`not a BFEN: ${bfen}`);
  return [readBoard(parts[0]), readBoard(parts[1])];
}

/**
 * A reserve's pieces of one colour with counts: `{Q: 1, N: 2}`.
 * @param {string} reserve
 * @param {boolean} white
 * @returns {Record<string, number>}
 */
export function reserveOf(reserve, white) {
  /** @type {Record<string, number>} */
  const counts = {};
  for (const c of reserve) {
    if ((c === c.toUpperCase()) === white) counts[c.toUpperCase()] = (counts[c.toUpperCase()] ?? 0) + 1;
  }
  return counts;
}

/**
 * The index of a square ("e4") in `BoardPos.squares`, or -1.
 * @param {string} name
 */
export function squareIndex(name) {
  if (!/^[a-h][1-8]$/.test(name)) return -1;
  return (8 - Number(name[1])) * 8 + FILES.indexOf(name[0]);
}

/**
 * The name of the square at `squares[index]`.
 * @param {number} index 0 (a8) to 63 (h1)
 */
export function squareName(index) {
  return FILES[index % 8] + String(8 - Math.floor(index / 8));
}

/**
 * The piece letter on a square, or "" when empty.
 * @param {BoardPos} board
 * @param {string} name
 */
export function pieceAt(board, name) {
  const i = squareIndex(name);
  const c = i < 0 ? "." : board.squares[i];
  return c === "." ? "" : c;
}

/**
 * Whether a piece letter is White's.
 * @param {string} piece
 */
export function isWhitePiece(piece) {
  return piece !== "" && piece === piece.toUpperCase();
}

/**
 * The 64 squares in the order they are drawn, top-left first: from a8 with White at the
 * bottom, from h1 with Black at the bottom.
 * @param {boolean} whiteBottom
 * @returns {string[]}
 */
export function drawOrder(whiteBottom) {
  const names = Array.from({ length: 64 }, (_, i) => squareName(i));
  return whiteBottom ? names : names.reverse();
}

/**
 * Whether a square is dark (a1 is).
 * @param {string} name
 */
export function isDark(name) {
  return (FILES.indexOf(name[0]) + Number(name[1])) % 2 === 1;
}

/**
 * `2:59`, and tenths below ten seconds: `9.8`.
 * @param {number} ms
 */
export function formatClock(ms) {
  const t = Math.max(0, Math.floor(ms));
  if (t < 10000) return `${Math.floor(t / 1000)}.${Math.floor((t % 1000) / 100)}`;
  const s = Math.floor(t / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}
