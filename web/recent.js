// @ts-check
// A player's recent matches (`RecentMatches`): the lobby's list of the decided matches a name
// played — when, the four players, the result — each with a link that reviews it (review.js).

import { SEAT_ORDER, seatLabel } from "./seats.js";
import { resultLine } from "./match-state.js";

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
    if (!list) return;
    const body = /** @type {HTMLTableSectionElement} */ ($("recent").querySelector("tbody"));
    body.replaceChildren(...list.map((m) => {
      const tr = document.createElement("tr");
      tr.dataset.match = String(m.match_id);
      const when = m.finished_ms ? new Date(m.finished_ms).toLocaleString() : "";
      const players = m.players.map((p, i) => `${p} (${seatLabel(SEAT_ORDER[i])})`).join(", ");
      const result = m.result ? resultLine(m.result) : "annulled";
      for (const text of [`#${m.match_id}`, when, `${m.rules} ${m.time_control}`, players, result]) {
        const td = document.createElement("td");
        td.textContent = text;
        tr.append(td);
      }
      const td = document.createElement("td");
      const b = document.createElement("button");
      b.type = "button";
      b.id = `recent-review-${m.match_id}`;
      b.textContent = "Review";
      b.addEventListener("click", () => this.review(m.match_id));
      td.append(b);
      tr.append(td);
      return tr;
    }));
    $("recent").hidden = false;
    $("no-recent").hidden = list.length > 0;
    $("no-recent").textContent = `${name} has no finished match yet.`;
  }
}
