// @ts-check
// Why a match ended as it did (PROTOCOL.md item 24, version 13: `RecordReview.explained`), said
// in the reader's language from the server's codes — what `shvedka arbiter explain` prints: the
// result, each ending at its match time (mates, flags, a flag lag credit or the arbiter withdrew,
// a draw a flag's window held, the arbiter's results and annulment, the end), which of them the
// deciding grace window held (K4), how E1–E9 weighed it, and every rule that decided it. The
// only words not from the catalogues are the arbiter's own notes and the moves as written. Pure;
// tested by explain.test.mjs.

import { t } from "./i18n.js";
import { matchTime } from "./review.js";
import { seatName, seatOf, teamName } from "./say.js";

/** @typedef {import("./codec.js").ExplanationView} ExplanationView */
/** @typedef {import("./codec.js").ExplainedLine} ExplainedLine */

/**
 * Who made an act, as the record names him.
 * @param {string | null} by
 */
function who(by) {
  if (by === null) return t("why.who.arbiter");
  if (by === "(secret)") return t("why.who.secret");
  if (by === "(server)") return t("why.who.server");
  return t("why.who.named", { name: by });
}

/**
 * One happening, at its time.
 * @param {ExplainedLine} l
 * @param {string} lang
 */
function lineText(l, lang) {
  const at = l.at_ms === null ? "?:??" : matchTime(l.at_ms, lang);
  const w = l.what;
  /** @type {string} */
  let text;
  if (w === "Ended") text = t("why.ended", { at });
  else if ("Mate" in w) text = t("why.mate", { at, by: w.Mate.by, seat: seatName(w.Mate.mated) });
  else if ("Flag" in w) text = t("why.flag", { at, seat: seatOf(w.Flag.seat) });
  else if ("Resigned" in w) text = t("why.resigned", { at, seat: seatName(w.Resigned.seat) });
  else if ("FlagWithdrawnByCredit" in w) {
    const c = w.FlagWithdrawnByCredit;
    text = t("why.flag-credit", { at, by: c.by, seat: seatOf(c.seat), credit: (c.credit_ms / 1000).toFixed(3) });
  } else if ("FlagWithdrawnByArbiter" in w) {
    const c = w.FlagWithdrawnByArbiter;
    text = t("why.flag-arbiter", { at, who: who(c.by), seat: seatName(c.seat) });
  } else if ("Draw" in w) {
    text = t("why.draw", { at, board: w.Draw.board, why: t(`why.draw.${w.Draw.rule}`), rule: w.Draw.rule });
  } else if ("Declared" in w) {
    const d = w.Declared;
    const result = d.winner === null ? t("why.a-draw") : t("why.wins", { team: teamName(d.winner) });
    text = t(d.note ? "why.declared-note" : "why.declared", { at, who: who(d.by), result, note: d.note });
  } else {
    const a = w.Annulled;
    text = t(a.note ? "why.annulled-note" : "why.annulled", { at, who: who(a.by), note: a.note });
  }
  return l.in_window ? t("why.in-window", { line: text }) : text;
}

/**
 * The explanation, line by line: the result, what happened, how it was weighed; the rules that
 * decided it are `rules` (for links).
 * @param {ExplanationView} e
 * @param {string} lang  the page's language (for match times)
 * @returns {{ lines: string[], rules: string[] }}
 */
export function explanationLines(e, lang) {
  const rule = e.rule ?? "?";
  const o = e.outcome;
  const lines = [
    o === null ? t("why.no-result") : o === "Draw" ? t("why.result-draw", { rule }) : t("why.result-win", { team: teamName(o.Win), rule }),
  ];
  if (e.lines.length === 0) lines.push(t("why.nothing"));
  for (const l of e.lines) lines.push(lineText(l, lang));
  for (const w of e.weighing) lines.push(t(`why.weigh.${w}`));
  return { lines, rules: e.rules };
}
