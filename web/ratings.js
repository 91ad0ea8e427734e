// @ts-check
// Ratings in the page (protocol version 5): the leaderboard of a category (`Leaderboard`), a
// player's profile (`Profile`: each category's rating with its recent history and the
// partnerships played most, and the recent matches), and the lines a decided rated match shows
// under its result. The numbers come from the server, rounded, with its provisional mark ("?").

import { seatLabel } from "./seats.js";

/** @typedef {import("./codec.js").RatingChange} RatingChange */
/** @typedef {import("./codec.js").RatingView} RatingView */
/** @typedef {import("./codec.js").ProfileView} ProfileView */
/** @typedef {import("./codec.js").LeaderRow} LeaderRow */

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
 * A rating as players read it: `1612`, or `1500?` while provisional.
 * @param {{ rating: number, provisional: boolean }} r
 */
export function ratingText(r) {
  return `${r.rating}${r.provisional ? "?" : ""}`;
}

/**
 * One player's change by a rated match: `anna (White A) 1500 → 1612? (+112)`.
 * @param {RatingChange} c
 */
export function changeLine(c) {
  const delta = c.after - c.before;
  return `${c.name} (${seatLabel(c.seat)}) ${c.before} → ${ratingText({ rating: c.after, provisional: c.provisional })} (${delta >= 0 ? "+" : "−"}${Math.abs(delta)})`;
}

/** @param {number} n */
const games = (n) => `${n} ${n === 1 ? "game" : "games"}`;

/**
 * A history as a small line of the ratings after each match, oldest first.
 * @param {import("./codec.js").HistoryPoint[]} history  newest first, as the server sends it
 */
export function historyLine(history) {
  return [...history].reverse().map((h) => String(h.after)).join(" → ");
}

/**
 * @param {string} tag
 * @param {string} text
 * @param {string} [cls]
 */
function el(tag, text, cls) {
  const e = document.createElement(tag);
  e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

export class Ratings {
  /**
   * @param {import("./codec.js").Ask} ask
   * @param {import("./codec.js").msg} msg
   */
  constructor(ask, msg) {
    this.ask = ask;
    this.msg = msg;
    for (const category of ["bullet", "blitz", "rapid"]) {
      $(`board-${category}`).addEventListener("click", () => void this.leaderboard(category));
    }
    $("profile-form").addEventListener("submit", (e) => {
      e.preventDefault();
      void this.profile(/** @type {HTMLInputElement} */ ($("profile-name")).value.trim());
    });
  }

  /**
   * Shows a category's leaderboard; a name opens its profile.
   * @param {string} category
   */
  async leaderboard(category) {
    const r = await this.ask(this.msg.leaderboard(category));
    /** @type {LeaderRow[] | undefined} */
    const rows = r.ok?.Leaderboard?.rows;
    if (!rows) return;
    const out = $("ratings-out");
    out.replaceChildren(el("h3", `Leaderboard · ${category}`));
    if (rows.length === 0) {
      out.append(el("p", `Nobody is ranked in ${category} yet: a rating is ranked once it is no longer provisional.`, "hint"));
      return;
    }
    const table = document.createElement("table");
    table.id = "leaderboard";
    table.createTHead().append(...["#", "player", "rating", "±", "games"].map((h) => el("th", h)));
    const body = table.createTBody();
    for (const row of rows) {
      const tr = body.insertRow();
      tr.dataset.name = row.name;
      tr.insertCell().textContent = String(row.rank);
      const name = tr.insertCell();
      const link = el("button", row.name, "link");
      /** @type {HTMLButtonElement} */ (link).type = "button";
      link.addEventListener("click", () => void this.profile(row.name));
      name.append(link);
      tr.insertCell().textContent = ratingText(row.rating);
      tr.insertCell().textContent = String(row.rating.deviation);
      tr.insertCell().textContent = String(row.rating.games);
    }
    out.append(table);
  }

  /**
   * Shows a player's profile.
   * @param {string} name
   */
  async profile(name) {
    if (!name) return;
    /** @type {HTMLInputElement} */ ($("profile-name")).value = name;
    const r = await this.ask(this.msg.profile(name));
    /** @type {ProfileView | undefined} */
    const p = r.ok?.Profile;
    if (!p) return;
    const out = $("ratings-out");
    const since = new Date(p.created_ms).toLocaleDateString();
    out.replaceChildren(el("h3", `${p.name}${p.kind === "Bot" ? " (bot)" : ""} · since ${since}`));
    out.dataset.profile = p.name;
    if (p.categories.length === 0) out.append(el("p", `${p.name} has no rated match yet.`, "hint"));
    for (const c of p.categories) {
      const box = el("div", "", "category");
      box.dataset.category = c.rating.category;
      box.append(el("b", `${c.rating.category} ${ratingText(c.rating)}`), el("span", ` ±${c.rating.deviation} · ${games(c.rating.games)}`, "rule"));
      if (c.history.length > 0) box.append(el("div", `history: ${historyLine(c.history)}`, "history"));
      for (const partner of c.partners) {
        box.append(el("div", `with ${partner.name}: pair ${ratingText(partner.rating)} in ${games(partner.rating.games)}`, "partner"));
      }
      out.append(box);
    }
    if (p.recent.length > 0) {
      out.append(el("div", `recent: ${p.recent.slice(0, 5).map((m) => `#${m.match_id}`).join(", ")}`, "rule"));
    }
  }
}

/**
 * The lines under a decided rated match's result.
 * @param {RatingChange[]} changes
 */
export function renderChanges(changes) {
  const box = $("rating-changes");
  box.hidden = changes.length === 0;
  box.replaceChildren(...changes.map((c) => {
    const line = el("span", changeLine(c), c.after >= c.before ? "up" : "down");
    line.dataset.seat = c.seat;
    return line;
  }));
}
