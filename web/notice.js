// @ts-check
// Telling the player: a refusal or a problem in the notice bar (with the rule that decided it,
// e.g. "refused (P3): drop would give mate on board"), and a small log of the match's events.

import { t as tr, timeText } from "./i18n.js";
import { findRule, ruleLink } from "./rules.js";
import { errorText } from "./say.js";

/** @typedef {import("./codec.js").ErrorMsg} ErrorMsg */

const HIDE_AFTER_MS = 7000;
let lastError = "";
/** @type {number | undefined} */
let timer;
/**
 * How to say what the bar shows again, after a switch of language; `null` for a text given as
 * it is.
 * @type {(() => string) | null}
 */
let sayAgain = null;

/** @typedef {string | (() => string)} Said  a text, or how to say it (again in another language) */

/** @param {Said} said */
const textOf = (said) => (typeof said === "function" ? said() : said);

/**
 * @param {string} id
 * @returns {HTMLElement}
 */
function $(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`no #${id} in the page`);
  return el;
}

/**
 * The text of a refusal, said from its code (say.js): `refused (P3): a drop may not give mate on
 * board`.
 * @param {ErrorMsg} err
 */
export function refusalText(err) {
  return errorText(err, tourRefusalText);
}

/** The followed tournament's teams' names by number, for a refusal that names a team. */
let teamNames = new Map();

/**
 * The teams a refusal's `team` names (the tournament the page follows).
 * @param {Map<number, string>} names
 */
export function setTeamNames(names) {
  teamNames = names;
}

/**
 * Why a tournament request was refused, in words, from the protocol's `TourRefusal`; a team by
 * its name where the page knows it («команда «Пешки» поставлена дважды»), else its number.
 * @param {import("./codec.js").TourRefusal} r
 */
export function tourRefusalText(r) {
  /** @param {{ round: number, table: number, game: number }} g */
  const at = (g) => tr("r.game", g);
  if (typeof r === "string") return tr(`r.${r}`);
  const [code, p] = /** @type {[string, Record<string, any>]} */ (Object.entries(r)[0]);
  /** @type {Record<string, string | number>} */
  const params = {};
  for (const [k, v] of Object.entries(p)) {
    if (k === "game" && typeof v === "object") params.game = at(v);
    else if (k === "choice") params.choice = tr(`r.choice.${v}`);
    else if (k === "due_ms") params.due = timeText(v);
    else if (k === "team" && teamNames.has(v)) params.team = tr("r.team-name", { name: teamNames.get(v) });
    else params[k] = v;
  }
  return tr(`r.${code}`, params);
}

/**
 * Shows a problem in the notice bar (and the log); with `rule`, a link to that rule on the rules
 * page, so the reader can read the rule the server applied.
 * @param {Said} said
 * @param {string | null} [rule]
 */
export function showError(said, rule = null) {
  const text = textOf(said);
  lastError = text;
  show(said, "error", rule);
  log(text, true);
}

/**
 * Shows a refusal, said from its code, with a link to its rule.
 * @param {ErrorMsg} err
 */
export function showRefusal(err) {
  showError(() => refusalText(err), err.rule && findRule(err.rule) ? err.rule : null);
}

/**
 * Shows a passing piece of news in the notice bar.
 * @param {Said} said
 */
export function showInfo(said) {
  show(said, "info");
}

/**
 * @param {Said} said
 * @param {string} kind
 * @param {string | null} [rule]
 */
function show(said, kind, rule = null) {
  const bar = $("notice");
  sayAgain = typeof said === "function" ? said : null;
  $("notice-text").textContent = textOf(said);
  $("notice-rule").replaceChildren(...(rule ? [ruleLink(rule)] : []));
  bar.className = kind;
  bar.hidden = false;
  window.clearTimeout(timer);
  timer = window.setTimeout(() => (bar.hidden = true), HIDE_AFTER_MS);
}

/** Says what the bar shows again, in the language switched to (a text given as it is stays). */
export function relabelNotice() {
  if (sayAgain && !$("notice").hidden) $("notice-text").textContent = sayAgain();
}

/** Hides the notice bar if it holds news (not a problem): it is out of date. */
export function hideInfo() {
  const bar = $("notice");
  if (bar.className === "info") bar.hidden = true;
}

/**
 * Hides the notice bar if it holds a problem, and takes the red off the problems in the log: a
 * later request of the user's succeeded, so they are history (the log keeps their words).
 */
export function clearError() {
  const bar = $("notice");
  if (bar.className === "error") bar.hidden = true;
  for (const line of $("log").querySelectorAll(".error")) line.className = "";
}

/** The last problem shown, for the test report. */
export function lastErrorText() {
  return lastError;
}

/**
 * A line in the log under the page.
 * @param {string} text
 * @param {boolean} [error]
 */
export function log(text, error = false) {
  const line = document.createElement("div");
  line.textContent = `${timeText(Date.now())} ${text}`;
  if (error) line.className = "error";
  const box = $("log");
  box.prepend(line);
  while (box.childElementCount > 200) box.lastElementChild?.remove();
}

/** Empties the event log (another match begins). */
export function clearLog() {
  $("log").replaceChildren();
}

/** Wires the notice bar's close button. */
export function initNotice() {
  $("notice-close").addEventListener("click", () => ($("notice").hidden = true));
}
