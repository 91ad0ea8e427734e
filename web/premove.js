// @ts-check
// Premoves and pre-drops: a move or drop the player makes while it is not his turn (or a drop of a
// piece he does not hold yet), kept in the page, drawn on the board, and sent the instant it can
// be. Bughouse is played waiting for the partner's pieces, so a pre-drop of an absent piece waits
// until the piece arrives. The page still never judges legality: what is sent is chosen from the
// server's list of legal moves of the new position; a premove not in that list is dropped.

import { complete, dropText } from "./moves.js";

/**
 * A queued premove: a move from a square, or a drop of a reserve role.
 * @typedef {{ kind: "square", from: string, to: string, piece: string }
 *   | { kind: "reserve", role: string, to: string, piece: string }} Premove
 */

/**
 * What to do with a premove now that it is the player's turn and `legal` is the list:
 * send a text, show a promotion's choice (the player must pick), keep waiting (a pre-drop whose
 * piece has not arrived), or drop it (not legal here).
 * @param {Premove} p
 * @param {string[]} legal
 * @param {number} held  how many of the pre-drop's role the player holds now
 * @returns {{ kind: "send", text: string } | { kind: "choose", completion: import("./moves.js").Completion } | { kind: "wait" } | { kind: "drop" }}
 */
export function premoveAction(p, legal, held) {
  if (p.kind === "reserve") {
    const text = dropText(p.role, p.to);
    if (legal.includes(text)) return { kind: "send", text };
    return held === 0 ? { kind: "wait" } : { kind: "drop" };
  }
  const c = complete(legal, p.from, p.to);
  if (c.kind === "send") return { kind: "send", text: c.text };
  if (c.kind === "none") return { kind: "drop" };
  return { kind: "choose", completion: c };
}

/**
 * The premove as move text for the report and the page (`e2e4`, `N@f3`).
 * @param {Premove | null} p
 * @returns {string | null}
 */
export function premoveText(p) {
  if (!p) return null;
  return p.kind === "reserve" ? dropText(p.role, p.to) : p.from + p.to;
}

/**
 * The squares a premove marks on the board.
 * @param {Premove | null} p
 * @returns {string[]}
 */
export function premoveSquares(p) {
  if (!p) return [];
  return p.kind === "reserve" ? [p.to] : [p.from, p.to];
}
