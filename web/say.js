// @ts-check
// Saying what the server reports, in the reader's language (issue 31). The server sends facts —
// a refusal's code with its parameters and rule, a result's cause, a pause's reason, an
// arbiter's act — and never a sentence for the page to show: every text here comes from the
// catalogues (`locales/`). The English `message` of a refusal is shown only for a code this page
// does not know (a newer server), and the page's own failures ("Offline", "Timeout",
// "BadReply"), which it wrote itself.

import { t } from "./i18n.js";
import { boardOf, marked, seatIndex, teamLabel } from "./seats.js";

/** @typedef {import("./codec.js").ErrorMsg} ErrorMsg */
/** @typedef {import("./seats.js").Seat} Seat */
/** @typedef {import("./seats.js").Team} Team */
/** @typedef {import("./match-state.js").ResultView} ResultView */
/** @typedef {import("./codec.js").PauseReason} PauseReason */

/**
 * `white-A` / «белые A».
 * @param {Seat} seat
 */
export function seatName(seat) {
  return t(`m.seat.${seat}`);
}

/**
 * The seat in the genitive where a language has one (`of white-A` / «белых A»).
 * @param {Seat} seat
 */
export function seatOf(seat) {
  return t(`m.seat-of.${seat}`);
}

/**
 * `team 1` / «команда 1».
 * @param {Team} team
 */
export function teamName(team) {
  return teamLabel(team);
}

/**
 * A square by its index, `a1` 0 to `h8` 63.
 * @param {number} index
 */
export function squareText(index) {
  return `${"abcdefgh"[index % 8]}${Math.floor(index / 8) + 1}`;
}

/**
 * Parameters of a refusal or a cause, written for the reader: seats, pieces, squares, boards.
 * @param {Record<string, any>} p
 * @returns {Record<string, string | number>}
 */
function said(p) {
  /** @type {Record<string, string | number>} */
  const out = {};
  for (const [k, v] of Object.entries(p ?? {})) {
    if (k === "seat" || k === "crosswise") {
      out[k] = seatName(v);
      out[`${k}_of`] = seatOf(v);
    } else if (k === "piece") {
      out.piece = t(`m.piece.${v}`);
      out.piece_of = t(`m.piece-of.${v}`);
    } else if (k === "square") out.square = squareText(v);
    else if (k === "colour") out.colour = t(`m.colour.${v}`);
    else out[k] = v;
  }
  return out;
}

/**
 * A code that is a name or `{ Name: parameters }`, as `[name, parameters]`.
 * @param {any} code
 * @returns {[string, any]}
 */
function split(code) {
  if (typeof code === "string") return [code, {}];
  const [name, p] = Object.entries(code)[0];
  return [name, p];
}

/**
 * Why the match refused a request (`MatchRefusal`), in words.
 * @param {any} r
 */
export function matchRefusalText(r) {
  const [name, p] = split(r);
  if (name === "Illegal") {
    const [why, q] = split(p.why);
    return t("x.illegal", { board: p.board, why: t(`x.illegal.${why}`, said(q)) });
  }
  if (name === "Unreadable") return t(`x.text.${p.why}`);
  if (name === "Claim") {
    const [why, q] = split(p);
    return t(`x.claim.${why}`, { ...said(q), count: q.seen ?? q.halfmoves ?? 0 });
  }
  if (name === "TakeBack") {
    const [why, q] = split(p);
    return t(`x.takeback.${why}`, said(q));
  }
  if (name === "Position") {
    const [why, q] = split(p);
    return t(`x.position.${why}`, said(q));
  }
  return t(`x.match.${name}`, said(p));
}

/**
 * What was wrong with what the person typed (`Invalid`).
 * @param {any} r
 */
export function invalidText(r) {
  const [name, p] = split(r);
  return t(`x.invalid.${name}`, said(p));
}

/**
 * Why a session was not opened (`SessionRefusal`).
 * @param {any} r
 */
export function sessionRefusalText(r) {
  const [name, p] = split(r);
  return t(`x.session.${name}`, { ...said(p), count: p.days ?? 0 });
}

/**
 * Why a request that needs an official (arbiter, director) was refused (`OfficialRefusal`).
 * @param {any} r
 */
export function officialRefusalText(r) {
  const [name, p] = split(r);
  return t(`x.official.${name}`, { role: t(`x.official.role.${p.role}`) });
}

/**
 * The text of a refusal, with the rule that decided it: `refused (P3): a drop may not give mate
 * on board`. Every code is said from the catalogue.
 * @param {ErrorMsg} err
 * @param {(r: any) => string} [tournament]  how to say a tournament's refusal
 */
export function errorText(err, tournament) {
  const code = /** @type {any} */ (err.code);
  if (code === "Offline" || code === "Timeout" || code === "BadReply") return err.message;
  const rule = err.rule ? ` (${err.rule})` : "";
  /** @param {string} text */
  const refused = (text) => `${t("r.refused")}${rule}: ${text}`;
  if (typeof code === "string") {
    const text = t(`x.code.${code}`);
    return text === `x.code.${code}` ? refused(err.message) : refused(text);
  }
  const [name, p] = split(code);
  if (name === "Match") return refused(matchRefusalText(p));
  if (name === "Invalid") return refused(invalidText(p));
  if (name === "Session") return refused(sessionRefusalText(p));
  if (name === "Limit") return refused(t(`x.limit.${p}`));
  if (name === "Busy") return refused(t(`x.busy.${p}`));
  if (name === "Official") return refused(officialRefusalText(p));
  if (name === "Tournament" && tournament) return refused(tournament(p));
  return refused(err.message);
}

/**
 * `team 2 wins`, `draw`.
 * @param {ResultView} r
 */
export function resultHeadline(r) {
  return r.winner ? t("m.wins", { team: teamName(r.winner) }) : t("m.drawn");
}

/**
 * How the match was decided, without the headline: `mate on board by black-A`. A result stored
 * before causes were sent says its rule's name.
 * @param {ResultView} r
 */
export function resultReason(r) {
  if (!r.cause) return t("m.cause.rule", { rule: r.rule });
  const [name, p] = split(r.cause);
  if (name === "BoardDrawn") return t(`m.draw.${p.how}`, { board: p.board });
  return t(`m.cause.${name}`, said(p));
}

/**
 * The result in one line, with its rule: `team 2 wins: mate on board by black-A (E1)`.
 * @param {ResultView} r
 */
export function resultLine(r) {
  return t("m.line", { head: resultHeadline(r), reason: resultReason(r), rule: r.rule });
}

/**
 * Why the server stopped the clocks by itself, and when they restart.
 * @param {PauseReason} reason
 */
export function pauseText(reason) {
  return t(`m.pause.${reason}`);
}

/**
 * The clocks run again after the server's own pause.
 * @param {PauseReason} reason  why they had stopped
 */
export function resumeText(reason) {
  return t(`m.resume.${reason}`);
}

/**
 * Why a followed match closed without a decision (`MatchClosed`).
 * @param {import("./codec.js").ClosedReason} reason
 */
export function closedText(reason) {
  return t(`m.closed.${reason}`);
}

/**
 * Why the server let the followed match go (`ResumeElsewhere`, version 11).
 * @param {import("./codec.js").ElsewhereReason} reason
 * @param {number} id  the match
 */
export function elsewhereText(reason, id) {
  return t(`m.elsewhere.${reason}`, { id });
}

/**
 * Why a game is played again (`ReplayReason`), with its rule: `wrong initial setup (A5)`.
 * @param {import("./codec.js").ReplayReason} reason
 */
export function replayReasonText(reason) {
  return t(`m.replay.${reason}`);
}

/**
 * An arbiter's act (`ArbiterRequest`), in words: `took back the last move on board A`.
 * @param {any} act
 */
export function actText(act) {
  const [name, p] = split(act);
  if (name === "AdjustClock") {
    const key = p.delta_ms >= 0 ? "m.act.AddTime" : "m.act.TakeTime";
    return t(key, { ...said(p), seconds: Math.abs(p.delta_ms) / 1000 });
  }
  if (name === "Replay") {
    const reason = replayReasonText(p.reason);
    return p.note ? t("m.act.ReplayNote", { reason, note: p.note }) : t("m.act.Replay", { reason });
  }
  if (name === "DeclareResult") {
    return t("m.act.DeclareResult", { result: p.winner ? t("m.wins", { team: teamName(p.winner) }) : t("m.drawn"), note: p.reason });
  }
  return t(`m.act.${name}`, said(p));
}

/**
 * A line for the page's log about an event, or "" for events shown otherwise (moves, seats).
 * @param {{ names: (string | null)[], kinds: (import("./seats.js").PlayerKind | null)[] }} m
 * @param {any} k  the event's `EventKind`
 * @param {Seat | null} [offerBefore]  the seat whose draw offer stood before this event: the other
 *   side's offer on the same board is accepted, not offered again (E3)
 */
export function describe(m, k, offerBefore = null) {
  /** @param {Seat} seat */
  const who = (seat) => {
    const name = m.names[seatIndex(seat)];
    return `${name === null || name === undefined ? "?" : marked(name, m.kinds[seatIndex(seat)])} (${seatName(seat)})`;
  };
  if (k === "Started") return t("m.ev.started");
  if (k.DrawOffered) {
    const seat = k.DrawOffered.seat;
    const accepts = offerBefore !== null && offerBefore !== seat && boardOf(offerBefore) === boardOf(seat);
    return t(accepts ? "m.ev.draw-accepted" : "m.ev.draw-offered", { who: who(seat) });
  }
  if (k.DrawDeclined) return t("m.ev.draw-declined", { who: who(k.DrawDeclined.seat) });
  if (k.Claimed) {
    const c = k.Claimed.claim;
    const what = typeof c === "string" ? t(`m.claim.${c}`) : t("m.claim.Flag", { seat_of: seatOf(c.Flag) });
    return t("m.ev.claimed", { who: who(k.Claimed.seat), what });
  }
  if (k.Resigned) return t("m.ev.resigned", { who: who(k.Resigned.seat) });
  if (k.ArbiterCalled?.replay) {
    return t("m.ev.arbiter-called-replay", { who: who(k.ArbiterCalled.seat), reason: replayReasonText(k.ArbiterCalled.replay) });
  }
  if (k.ArbiterCalled) return t("m.ev.arbiter-called", { who: who(k.ArbiterCalled.seat) });
  if (k.FlagFell) return t("m.ev.flag-fell", { who: who(k.FlagFell.seat) });
  if (k.ArbiterActed) {
    // Who acted (version 9): the account's name, or the arbiter without a name (the secret).
    const by = k.ArbiterActed.by;
    const act = actText(k.ArbiterActed.act);
    if (by && typeof by === "object" && "Account" in by) return t("m.ev.arbiter-named", { name: by.Account, act });
    return t("m.ev.arbiter", { act });
  }
  if (k.Arbiter) return t("m.ev.arbiter", { act: k.Arbiter.act });
  if (k.Ended) return resultLine(k.Ended);
  if (k.Paused) return pauseText(k.Paused.reason);
  if (k.Resumed) return resumeText(k.Resumed.reason);
  return "";
}
