// @ts-check
// The lobby: the listed matches (asked page by page) with their seats (take one, or watch), a new match (its
// creator seated at White-A), and a private match opened by its number.

import { SEAT_ORDER, marked } from "./seats.js";
import { listAll, wholeNumberIn } from "./codec.js";
import { showError, showRefusal } from "./notice.js";
import { t } from "./i18n.js";
import { seatName } from "./say.js";

/** @typedef {import("./codec.js").MatchSummary} MatchSummary */

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
 * @param {string} id
 * @param {string} text
 * @param {() => void} act
 */
function button(id, text, act) {
  const b = document.createElement("button");
  b.type = "button";
  b.id = id;
  b.textContent = text;
  b.addEventListener("click", act);
  return b;
}

/** The rule presets' names, by the server's code. @type {Record<string, string>} */
const RULES = { "mgimo-2017": "h.mgimo", classic: "h.classic" };

/** A match's phase in the lobby's words. @type {Record<string, string>} */
const PHASES = {
  Forming: "l.phase.Forming",
  Countdown: "l.phase.Countdown",
  Running: "l.phase.Running",
  Paused: "l.phase.Paused",
  Ended: "l.phase.Ended",
  Annulled: "l.phase.Annulled",
};

/**
 * A rule preset by its name in the reader's language (`MGIMO 2017 (removal)`), or its code if
 * the page does not know it (a preset of a newer server).
 * @param {string} code
 */
export function rulesName(code) {
  return code in RULES ? t(RULES[code]) : code;
}

/**
 * What the lobby says of a match's rules: the preset, Chess960, rated.
 * @param {{ rules: string, chess960?: boolean, rated?: boolean }} m
 */
export function rulesText(m) {
  return [rulesName(m.rules), ...(m.chess960 ? ["Chess960"] : []), ...(m.rated ? [t("l.rated")] : [])].join(" · ");
}

/**
 * The match in play in which `account` holds a seat (a seat belongs to the account, whichever
 * session sat down: a page that lost its session is offered its match back), unless the page
 * follows it already.
 * @param {MatchSummary[]} matches
 * @param {string | null} account
 * @param {number | null} following
 * @returns {{ id: number, seat: import("./seats.js").Seat } | null}
 */
export function yourMatch(matches, account, following) {
  if (!account) return null;
  for (const m of matches) {
    if (!["Countdown", "Running", "Paused"].includes(m.phase) || m.match_id === following) continue;
    const i = m.seats.findIndex((name, k) => name === account && m.kinds?.[k] === "Account");
    if (i >= 0) return { id: m.match_id, seat: SEAT_ORDER[i] };
  }
  return null;
}

/**
 * A match's phase in words.
 * @param {string} phase
 */
export function phaseText(phase) {
  return phase in PHASES ? t(PHASES[phase]) : phase.toLowerCase();
}

/**
 * The lobby's line of a match, for narrow screens: `Match 12 · MGIMO 2017 (removal) · 3+0 · forming`.
 * @param {MatchSummary} m
 */
export function summaryText(m) {
  return t("l.summary", { id: m.match_id, rules: rulesText(m), clock: m.time_control, phase: phaseText(m.phase) });
}

export class Lobby {
  /**
   * @param {(message: any, said?: (err: import("./codec.js").ErrorMsg) => string | null) => ReturnType<import("./codec.js").Ask>} ask
   *   sends a request; a refusal is said as `said` says it, else from its code
   * @param {import("./codec.js").msg} msg
   * @param {(matchId: number, seat: import("./seats.js").Seat) => Promise<unknown>} takeSeat
   * @param {() => string | null} account  the account the page is logged in as, if any
   * @param {() => number | null} following  the match the page follows, if any
   */
  constructor(ask, msg, takeSeat, account = () => null, following = () => null) {
    this.ask = ask;
    this.msg = msg;
    this.takeSeat = takeSeat;
    this.account = account;
    this.following = following;
    /** @type {{ id: number, seat: import("./seats.js").Seat } | null} the account's match in play, offered */
    this.yours = null;
    $("your-match-go").addEventListener("click", () => {
      // Watching it takes the account's seat over from the session that held it (issue 56).
      if (this.yours) void this.ask(this.msg.watch(this.yours.id));
    });
    /** @type {MatchSummary[] | null} the list drawn last (drawn again in another language) */
    this.matches = null;
    $("refresh").addEventListener("click", () => void this.refresh());
    $("create-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      const rules = /** @type {HTMLSelectElement} */ ($("rules")).value;
      const tc = /** @type {HTMLInputElement} */ ($("tc")).value.trim();
      const listed = /** @type {HTMLInputElement} */ ($("listed")).checked;
      const chess960 = /** @type {HTMLInputElement} */ ($("chess960")).checked;
      const rated = /** @type {HTMLInputElement} */ ($("rated")).checked;
      const r = await this.ask(this.msg.createMatch(rules, tc, listed, chess960, rated));
      // The creator sits at once (White-A; "Leave seat" and another seat if he wants another).
      if (r.ok?.Created) await this.takeSeat(r.ok.Created.match_id, "WhiteA");
      // A private match: the creator sits too; its invitation code is what others join with,
      // shown on the match's screen (and left in the join field).
      if (r.ok?.Invited) {
        /** @type {HTMLInputElement} */ ($("join-id")).value = r.ok.Invited.code;
        $("invite-code").textContent = r.ok.Invited.code;
        $("invite").dataset.match = String(r.ok.Invited.match_id);
        await this.takeSeat(r.ok.Invited.match_id, "WhiteA");
      }
    });
    $("join-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      const text = /** @type {HTMLInputElement} */ ($("join-id")).value.trim();
      // A private match is joined by its invitation code (`12.3f9c…`), never by its number.
      if (text.includes(".")) {
        // A wrong code is said as one ("refused: no match has this invitation code"), not as the
        // server's generic `NoSuchMatch`.
        const r = await this.ask(this.msg.invitation(text), (err) => (err.code === "NoSuchMatch" ? `${t("r.refused")}: ${t("l.no-invitation")}` : null));
        if (r.ok?.Invited) await this.ask(this.msg.watch(r.ok.Invited.match_id));
        return;
      }
      const id = wholeNumberIn(text, 1, Number.MAX_SAFE_INTEGER);
      if (id === null) showError(() => t("l.bad-number"));
      else await this.ask(this.msg.watch(id));
    });
  }

  /** Asks for the list, page by page (`ListPage`), and draws it. */
  async refresh() {
    const r = await listAll(this.ask, false);
    if (r.ok) this.render(r.ok.matches);
    else if (r.err.code === "BadReply") showRefusal(r.err);
  }

  /** @param {MatchSummary[]} matches */
  render(matches) {
    this.matches = matches;
    const body = /** @type {HTMLTableElement} */ ($("matches")).tBodies[0];
    body.replaceChildren(...matches.map((m) => {
      const row = document.createElement("tr");
      row.dataset.match = String(m.match_id);
      for (const v of [m.match_id, rulesText(m), m.time_control, phaseText(m.phase)]) {
        const cell = row.insertCell();
        cell.className = "meta";
        cell.textContent = String(v);
      }
      // The same in one line, for narrow screens (style.css shows one or the other).
      const summary = row.insertCell();
      summary.className = "summary";
      summary.textContent = summaryText(m);
      SEAT_ORDER.forEach((seat, i) => {
        const cell = row.insertCell();
        cell.dataset.label = seatName(seat);
        const name = m.seats[i];
        if (name) cell.textContent = marked(name, m.kinds?.[i]);
        else if (m.phase === "Forming") {
          cell.append(button(`seat-${m.match_id}-${seat}`, t("l.sit"), () => {
            void this.takeSeat(m.match_id, seat);
          }));
        } else cell.textContent = "·";
      });
      row.insertCell().append(button(`watch-${m.match_id}`, t("l.watch"), () => void this.ask(this.msg.watch(m.match_id))));
      return row;
    }));
    $("no-matches").hidden = matches.length > 0;
    this.yours = yourMatch(matches, this.account(), this.following());
    $("your-match").hidden = !this.yours;
    if (this.yours) $("your-match-text").textContent = t("l.your-match", { id: this.yours.id, seat: seatName(this.yours.seat) });
  }
}
