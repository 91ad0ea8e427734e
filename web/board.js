// Pure helpers of the web client (no DOM): reading BFEN into boards and reserves, and showing
// clocks. Tested by board.test.mjs.

/** One board of a BFEN: `{ squares: 64 chars ("." empty, from a8 to h1), reserve: "QNp", turn }`. */
export function readBoard(fen) {
  const [placementWithReserve, turn = "w"] = fen.trim().split(/\s+/);
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
  return { squares, reserve, turn };
}

/** Both boards of a BFEN. */
export function readBfen(bfen) {
  const parts = bfen.split("|");
  if (parts.length !== 2) throw new Error(`not a BFEN: ${bfen}`);
  return parts.map(readBoard);
}

/** A reserve's pieces of one colour with counts: `{Q: 1, N: 2}`. */
export function reserveOf(reserve, white) {
  const counts = {};
  for (const c of reserve) {
    if ((c === c.toUpperCase()) === white) counts[c.toUpperCase()] = (counts[c.toUpperCase()] ?? 0) + 1;
  }
  return counts;
}

/** `2:59`, and tenths below ten seconds: `9.8`. */
export function formatClock(ms) {
  const t = Math.max(0, Math.floor(ms));
  if (t < 10000) return `${Math.floor(t / 1000)}.${Math.floor((t % 1000) / 100)}`;
  const s = Math.floor(t / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}
