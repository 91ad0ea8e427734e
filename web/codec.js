// The shvedka protocol in the browser: the same messages as proto/ (crates' shvedka-proto), as
// JSON text frames in serde's external tagging: a unit variant is its name ("ListMatches"), any
// other variant an object with one key ({"Move": {...}}). Checked against the Rust encoder by
// codec.test.mjs over proto/tests/data/golden.json.txt. Numbers travel as JSON numbers: request
// numbers, nonces and ids stay far below 2^53, the largest integer JavaScript holds exactly.

export const PROTOCOL_VERSION = 1;

/** The seats in the order of every four-element array (clocks, names, readiness). */
export const SEATS = ["WhiteA", "BlackA", "WhiteB", "BlackB"];

/** One client frame as text. */
export function frame(req, msg) {
  return JSON.stringify({ req, msg });
}

/** Client messages, by the names of their Rust variants. */
export const msg = {
  hello: (name, resume = null) => ({ Hello: { version: PROTOCOL_VERSION, name, resume } }),
  resume: (token, last_seq) => ({ token, last_seq }),
  ping: (nonce) => ({ Ping: { nonce } }),
  listMatches: () => "ListMatches",
  createMatch: (rules, time_control, listed) => ({ CreateMatch: { rules, time_control, listed } }),
  watch: (match_id) => ({ Watch: { match_id } }),
  takeSeat: (match_id, seat) => ({ TakeSeat: { match_id, seat } }),
  leaveSeat: () => "LeaveSeat",
  ready: (ready) => ({ Ready: { ready } }),
  move: (board, text, think_ms = null) => ({ Move: { board, text, think_ms } }),
  offerDraw: () => "OfferDraw",
  declineDraw: () => "DeclineDraw",
  claim: (kind) => ({ Claim: kind }),
  flag: (seat) => ({ Flag: seat }),
  resign: () => "Resign",
  callArbiter: () => "CallArbiter",
  chat: (scope, text) => ({ Chat: { scope, text } }),
  arbiter: (token) => ({ Arbiter: { token } }),
  arbiterAct: (match_id, act) => ({ ArbiterAct: { match_id, act } }),
  adjustClock: (seat, delta_ms) => ({ AdjustClock: { seat, delta_ms } }),
  declareResult: (winner, reason) => ({ DeclareResult: { winner, reason } }),
  listLive: () => "ListLive",
  record: (match_id) => ({ Record: { match_id } }),
  register: (tournament, team, players) => ({ Td: { Register: { tournament, team, players } } }),
  choose: (tournament, round, game, choice) => ({ Choose: { tournament, round, game, choice } }),
  assignment: (tournament) => ({ Assignment: { tournament } }),
  legal: (match_id, board) => ({ Legal: { match_id, board } }),
};

/** Reads a server message: `{ kind, body }` (`body` is null for a unit variant). */
export function decode(text) {
  const value = JSON.parse(text);
  if (typeof value === "string") return { kind: value, body: null };
  const keys = Object.keys(value);
  if (keys.length !== 1) throw new Error(`not a server message: ${text.slice(0, 80)}`);
  return { kind: keys[0], body: value[keys[0]] };
}

/** Writes a message read by `decode` back as text (the Rust encoding, key order kept). */
export function encode({ kind, body }) {
  return body === null ? JSON.stringify(kind) : JSON.stringify({ [kind]: body });
}

/** A reply's result: `{ ok: reply }` or `{ err: {code, rule, message} }`. */
export function result(replyBody) {
  const r = replyBody.result;
  return "Ok" in r ? { ok: r.Ok } : { err: r.Err };
}

/** Arbiter acts (`ArbiterRequest`), for `msg.arbiterAct(match_id, act)`. */
export const act = {
  pause: () => "Pause",
  resume: () => "Resume",
  adjustClock: (seat, delta_ms) => ({ AdjustClock: { seat, delta_ms } }),
  takeBack: (board) => ({ TakeBack: { board } }),
  setPosition: (bfen) => ({ SetPosition: { bfen } }),
  declareResult: (winner, reason) => ({ DeclareResult: { winner, reason } }),
  annul: (reason) => ({ Annul: { reason } }),
};

/** Claims (`ClaimKind`), for `msg.claim(kind)`. */
export const claims = {
  repetition: () => "Repetition",
  fiftyMoves: () => "FiftyMoves",
  flag: (seat) => ({ Flag: seat }),
};

/**
 * An integer typed by the user, if it is one the server can read and lies within `[min, max]`
 * (a JSON number like 1e+30 is refused by the server, which then closes the link); else null.
 */
export function wholeNumberIn(text, min, max) {
  const t = String(text).trim();
  if (!/^[+-]?\d+(\.\d+)?$/.test(t)) return null;
  const n = Number(t);
  if (!Number.isSafeInteger(n) || n < min || n > max) return null;
  return n;
}
