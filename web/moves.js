// @ts-check
// Move texts, from the server's list of legal moves (`Reply::Legal`, long notation: `e2e4`,
// `N@f3`, `e7e8q` for an upgrade, `e7e8qd1` for a promotion removing the piece on d1 of the
// other board, RULES.md R1-R7). The client never judges legality: it only offers what the list
// holds. Also the move list's labels. Pure; tested by
// moves.test.mjs.

/**
 * A move in long notation, taken apart.
 * @typedef {{ kind: "drop", role: string, to: string }
 *   | { kind: "move", from: string, to: string, promo: string, removal: string }} ParsedMove
 * `promo` is the promotion role (lower case, "" if none); `removal` the square on the other board
 * the promoted piece is taken from ("" if none).
 */

/**
 * What completing a gesture from `from` to `to` needs.
 * @typedef {{ kind: "none" }
 *   | { kind: "send", text: string }
 *   | { kind: "upgrade", options: { role: string, text: string }[] }
 *   | { kind: "removal", options: { square: string, role: string, text: string }[] }} Completion
 */

/**
 * @param {string} uci
 * @returns {ParsedMove | null}
 */
export function parseUci(uci) {
  let m = /^([PNBRQK])@([a-h][1-8])$/.exec(uci);
  if (m) return { kind: "drop", role: m[1], to: m[2] };
  m = /^([a-h][1-8])([a-h][1-8])(?:([nbrq])([a-h][1-8])?)?$/.exec(uci);
  if (m) return { kind: "move", from: m[1], to: m[2], promo: m[3] ?? "", removal: m[4] ?? "" };
  return null;
}

/**
 * The squares a piece on `from` may go to.
 * @param {string[]} legal
 * @param {string} from
 * @returns {string[]}
 */
export function targetsFrom(legal, from) {
  const out = new Set();
  for (const uci of legal) {
    const m = parseUci(uci);
    if (m?.kind === "move" && m.from === from) out.add(m.to);
  }
  return [...out];
}

/**
 * The squares a reserve piece of `role` (upper case) may be dropped on.
 * @param {string[]} legal
 * @param {string} role
 * @returns {string[]}
 */
export function dropTargets(legal, role) {
  const out = [];
  for (const uci of legal) {
    const m = parseUci(uci);
    if (m?.kind === "drop" && m.role === role.toUpperCase()) out.push(m.to);
  }
  return out;
}

/**
 * The squares of the other board whose piece a promotion `from`-`to` may remove (R1, R3),
 * each with its role and the move's text.
 * @param {string[]} legal
 * @param {string} from
 * @param {string} to
 * @returns {{ square: string, role: string, text: string }[]}
 */
export function removalCandidates(legal, from, to) {
  /** @type {Map<string, { square: string, role: string, text: string }>} */
  const out = new Map();
  for (const uci of legal) {
    const m = parseUci(uci);
    if (m?.kind === "move" && m.from === from && m.to === to && m.removal && !out.has(m.removal)) {
      out.set(m.removal, { square: m.removal, role: m.promo, text: uci });
    }
  }
  return [...out.values()];
}

/**
 * What a gesture from `from` to `to` on the player's board becomes: a move to send, a choice of
 * piece (upgrade promotion), a choice of a piece to remove on the other board, or nothing (not
 * in the list). Without a list (`null`, not yet known) the plain move is sent and the server
 * judges it.
 * @param {string[] | null} legal
 * @param {string} from
 * @param {string} to
 * @returns {Completion}
 */
export function complete(legal, from, to) {
  if (from === to) return { kind: "none" };
  if (!legal) return { kind: "send", text: from + to };
  const matching = legal.filter((uci) => {
    const m = parseUci(uci);
    return m?.kind === "move" && m.from === from && m.to === to;
  });
  if (matching.length === 0) return { kind: "none" };
  const removal = removalCandidates(matching, from, to);
  if (removal.length > 0) return { kind: "removal", options: removal };
  const upgrades = matching.filter((uci) => uci.length === 5);
  if (upgrades.length > 0) {
    const order = "qrbn";
    const options = upgrades
      .map((text) => ({ role: text[4], text }))
      .sort((a, b) => order.indexOf(a.role) - order.indexOf(b.role));
    return { kind: "upgrade", options };
  }
  return { kind: "send", text: matching[0] };
}

/**
 * Whether a gesture of `piece` to `to` brings a pawn to its last rank: a promotion, whose text
 * (piece, removal) only the legal list tells.
 * @param {string} piece  FEN letter of the moving piece
 * @param {string} to
 */
export function isPromotionGesture(piece, to) {
  return (piece === "P" && to[1] === "8") || (piece === "p" && to[1] === "1");
}

/**
 * Like `complete`, but a promotion never goes out without the list: while it is not known
 * (`legal` null) it is awaited (`wait` resolves with it, or null when it did not come in time,
 * and the gesture then comes to nothing rather than a plain `e7e8` the server refuses).
 * @param {string[] | null} legal
 * @param {string} from
 * @param {string} to
 * @param {string} piece
 * @param {() => Promise<string[] | null>} wait
 * @returns {Promise<Completion>}
 */
export async function completeAwaiting(legal, from, to, piece, wait) {
  if (!legal && from !== to && isPromotionGesture(piece, to)) {
    const list = await wait();
    if (!list) return { kind: "none" };
    return complete(list, from, to);
  }
  return complete(legal, from, to);
}

/**
 * A drop's text: `N@f3`.
 * @param {string} role
 * @param {string} to
 */
export function dropText(role, to) {
  return `${role.toUpperCase()}@${to}`;
}

/**
 * The squares a move touched, to highlight: on its own board, and on the other board (the
 * square a promoted piece was removed from).
 * @param {string} uci
 * @returns {{ own: string[], other: string[] }}
 */
export function touchedSquares(uci) {
  const m = parseUci(uci);
  if (!m) return { own: [], other: [] };
  if (m.kind === "drop") return { own: [m.to], other: [] };
  return { own: [m.from, m.to], other: m.removal ? [m.removal] : [] };
}

/**
 * A move's label in the move list, as in BPGN: `1A. e4`, `1a. d5` (capital board letter for
 * White, small for Black).
 * @param {number} number
 * @param {"A" | "B"} board
 * @param {boolean} white
 * @param {string} san
 */
export function moveLabel(number, board, white, san) {
  return `${number}${white ? board : board.toLowerCase()}. ${san}`;
}

/**
 * The move number of a move from the FEN move number of the position after it: a White move
 * keeps the number, a Black move has already advanced it.
 * @param {number} fullmoveAfter
 * @param {boolean} white
 */
export function moveNumber(fullmoveAfter, white) {
  return white ? fullmoveAfter : Math.max(1, fullmoveAfter - 1);
}
