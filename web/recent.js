// @ts-check
// A player's recent matches (`RecentMatches`): the lobby's list of the decided matches a name
// played — when, the four players, the result — each with a link that reviews it (review.js).

import { SEAT_ORDER } from "./seats.js";
import { resultLine, seatName } from "./say.js";
import { language, t } from "./i18n.js";
import { rulesName } from "./lobby.js";

/**
 * `RecentMatch` of the protocol.
 * @typedef {{ match_id: number, rules: string, time_control: string, players: string[], result: import("./match-state.js").ResultView | null, finished_ms: number | null }} RecentMatch
 */

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
 * When a match ended, as the reader's language writes a date and a time (`12.05.2026, 18:04`).
 * @param {number} unixMs
 * @param {string} [lang]
 */
export function endedText(unixMs, lang = language()) {
  return new Intl.DateTimeFormat(lang, { dateStyle: "short", timeStyle: "short" }).format(unixMs);
}

/**
 * The cells of a recent match's row: its number, when it ended, its rules and clock, the four
 * players with their seats, the result (or that it was annulled).
 * @param {RecentMatch} m
 */
export function recentCells(m) {
  const when = m.finished_ms ? endedText(m.finished_ms) : "";
  const players = m.players.map((p, i) => `${p} (${seatName(SEAT_ORDER[i])})`).join(", ");
  const result = m.result ? resultLine(m.result) : t("l.annulled");
  return [`#${m.match_id}`, when, `${rulesName(m.rules)} ${m.time_control}`, players, result];
}

export class RecentMatches {
  /**
   * @param {import("./codec.js").Ask} ask
   * @param {import("./codec.js").msg} msg
   * @param {(matchId: number) => void} review
   */
  constructor(ask, msg, review) {
    this.ask = ask;
    this.msg = msg;
    this.review = review;
    /** @type {{ name: string, list: RecentMatch[] } | null} the list shown (drawn again in another language) */
    this.shown = null;
    $("recent-form").addEventListener("submit", (e) => {
      e.preventDefault();
      void this.show(/** @type {HTMLInputElement} */ ($("recent-name")).value.trim());
    });
  }

  /**
   * Lists `name`'s recent matches.
   * @param {string} name
   */
  async show(name) {
    if (!name) return;
    /** @type {HTMLInputElement} */ ($("recent-name")).value = name;
    const r = await this.ask(this.msg.recentMatches(name));
    /** @type {RecentMatch[] | undefined} */
    const list = r.ok?.Recent;
    if (list) this.render(name, list);
  }

  /**
   * Draws `name`'s recent matches.
   * @param {string} name
   * @param {RecentMatch[]} list
   */
  render(name, list) {
    this.shown = { name, list };
    const body = /** @type {HTMLTableSectionElement} */ ($("recent").querySelector("tbody"));
    body.replaceChildren(...list.map((m) => {
      const tr = document.createElement("tr");
      tr.dataset.match = String(m.match_id);
      for (const text of recentCells(m)) {
        const td = document.createElement("td");
        td.textContent = text;
        tr.append(td);
      }
      const td = document.createElement("td");
      const b = document.createElement("button");
      b.type = "button";
      b.id = `recent-review-${m.match_id}`;
      b.textContent = t("l.review");
      b.addEventListener("click", () => this.review(m.match_id));
      td.append(b);
      tr.append(td);
      return tr;
    }));
    $("recent").hidden = list.length === 0;
    $("no-recent").hidden = list.length > 0;
    $("no-recent").textContent = t("l.no-recent", { name });
  }
}
