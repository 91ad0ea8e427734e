// @ts-check
// Telling the player: a refusal or a problem in the notice bar (with the rule that decided it,
// e.g. "refused (P3): drop would give mate on board"), and a small log of the match's events.

/** @typedef {import("./codec.js").ErrorMsg} ErrorMsg */

const HIDE_AFTER_MS = 7000;
let lastError = "";
/** @type {number | undefined} */
let timer;

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
 * The text of a refusal: `refused (P3): drop would give mate on board`; a limit
 * (`{Limit: …}`) or an unavailable server with the server's own sentence.
 * @param {ErrorMsg} err
 */
export function refusalText(err) {
  const code = err.code;
  if (code === "Offline" || code === "Timeout" || code === "BadReply") return err.message;
  // A tournament's refusal is a code with its parameters: said here, not by the server.
  if (typeof code === "object" && code !== null && "Tournament" in code) {
    return `refused${err.rule ? ` (${err.rule})` : ""}: ${tourRefusalText(code.Tournament)}`;
  }
  // The server's sentence names the limit (`… (max_open_matches_per_session)`) or the trouble.
  if (typeof code === "object" && code !== null && "Limit" in code) return `refused: ${err.message}`;
  if (code === "Unavailable") return `the server cannot do it now: ${err.message}`;
  // The server's sentence often ends with the rule already: "… 3 are needed (E4)".
  const message = err.rule && err.message.endsWith(` (${err.rule})`) ? err.message.slice(0, -err.rule.length - 3) : err.message;
  return `refused${err.rule ? ` (${err.rule})` : ""}: ${message}`;
}

/**
 * Why a tournament request was refused, in words, from the protocol's `TourRefusal`.
 * @param {import("./codec.js").TourRefusal} r
 */
export function tourRefusalText(r) {
  /** @param {{ round: number, table: number, game: number }} g */
  const at = (g) => `round ${g.round}, table ${g.table}, game ${g.game}`;
  if (typeof r === "string") {
    /** @type {Record<string, string>} */
    const words = {
      NoSuchTournament: "there is no such tournament",
      SamePlayerTwice: "a team's two players must be two people",
      DuplicateTeamName: "another team has this name",
      BadSeeding: "a seeding lists every registered team once",
      NoSwissRounds: "a Swiss needs at least one round",
      AlreadyStarted: "the tournament has started already",
      NotStarted: "the tournament has not started",
      NotAMember: "you play for no team of this tournament",
      RegistrationClosed: "registration is closed; ask the director",
      AlreadyInTeam: "that player is in a team already or has an invitation pending",
      NoInvitation: "that invitation is no longer pending",
      CheckInNotRequired: "this tournament does not ask teams to check in",
      NotASwiss: "only a Swiss has a number of rounds to set",
    };
    return words[r] ?? r;
  }
  if ("InvalidName" in r) return `a name must be 1 to ${r.InvalidName.max} characters, not blank`;
  if ("TooManyTeams" in r) return `the tournament holds at most ${r.TooManyTeams.max} teams`;
  if ("TooFewTeams" in r) return `too few teams (${r.TooFewTeams.active}); at least 2 are needed`;
  if ("UnknownTeam" in r) return `there is no team ${r.UnknownTeam.team}`;
  if ("AlreadyWithdrawn" in r) return `team ${r.AlreadyWithdrawn.team} has withdrawn already`;
  if ("RoundIncomplete" in r) return `round ${r.RoundIncomplete.round} still has games without a result`;
  if ("NoRoundsLeft" in r) return `all ${r.NoRoundsLeft.rounds} rounds are paired`;
  if ("UnknownRound" in r) return `there is no round ${r.UnknownRound.round}`;
  if ("UnknownTable" in r) return `round ${r.UnknownTable.round} has no table ${r.UnknownTable.table}`;
  if ("UnknownGame" in r) return `a pairing has games 1 and 2 only, not ${r.UnknownGame.game}`;
  if ("Bye" in r) return `table ${r.Bye.table} of round ${r.Bye.round} is a bye`;
  if ("NotPaired" in r) return `team ${r.NotPaired.team} has no pairing in round ${r.NotPaired.round}`;
  if ("NotYourChoice" in r) return `the ${r.NotYourChoice.choice === "Seating" ? "seating" : "colours"} of ${at(r.NotYourChoice.game)} is the other team's choice`;
  if ("DeadlinePassed" in r) return `the choices of ${at(r.DeadlinePassed.game)} were due at ${new Date(r.DeadlinePassed.due_ms).toLocaleTimeString()}; the defaults apply`;
  if ("GameStarted" in r) return `${at(r.GameStarted.game)} has started`;
  if ("AlreadyChosen" in r) return `the ${r.AlreadyChosen.choice === "Seating" ? "seating" : "colours"} of ${at(r.AlreadyChosen.game)} is chosen already; a choice is final`;
  if ("ChoicesPending" in r) return `the choices of ${at(r.ChoicesPending.game)} are not all made yet`;
  if ("AlreadyDecided" in r) return `${at(r.AlreadyDecided.game)} has a result already; correct it instead`;
  if ("NotDecided" in r) return `${at(r.NotDecided.game)} has no result to correct`;
  if ("NotInField" in r) return `team ${r.NotInField.team} is not in this round (withdrawn or not checked in)`;
  if ("PlacedTwice" in r) return `team ${r.PlacedTwice.team} is placed twice`;
  return "refused";
}

/**
 * Shows a problem in the notice bar (and the log).
 * @param {string} text
 */
export function showError(text) {
  lastError = text;
  show(text, "error");
  log(text, true);
}

/**
 * Shows a passing piece of news in the notice bar.
 * @param {string} text
 */
export function showInfo(text) {
  show(text, "info");
}

/**
 * @param {string} text
 * @param {string} kind
 */
function show(text, kind) {
  const bar = $("notice");
  $("notice-text").textContent = text;
  bar.className = kind;
  bar.hidden = false;
  window.clearTimeout(timer);
  timer = window.setTimeout(() => (bar.hidden = true), HIDE_AFTER_MS);
}

/** Hides the notice bar if it holds news (not a problem): it is out of date. */
export function hideInfo() {
  const bar = $("notice");
  if (bar.className === "info") bar.hidden = true;
}

/** Hides the notice bar if it holds a problem: a later request of the user's succeeded. */
export function clearError() {
  const bar = $("notice");
  if (bar.className === "error") bar.hidden = true;
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
  line.textContent = `${new Date().toLocaleTimeString()} ${text}`;
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
