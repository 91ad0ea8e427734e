// @ts-check
// Ratings in the page (protocol version 5): the leaderboard of a category (`Leaderboard`), a
// player's profile (`Profile`: each category's rating with its recent history and the
// partnerships played most, and the recent matches), and the lines a decided rated match shows
// under its result. The numbers come from the server, rounded, with its provisional mark ("?"),
// written as the reader's language writes numbers and dates (`Intl`).

import { marked } from "./seats.js";
import { language, t } from "./i18n.js";
import { seatName } from "./say.js";
import { tcName } from "./quick.js";

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
 * A rating (or a count) as the reader's language writes a number: a rating is never grouped
 * (`1612`, not `1,612`); a count is (`12 345`, `12,345`).
 * @param {number} n
 * @param {boolean} [grouped]
 * @param {string} [lang]
 */
export function numberText(n, grouped = false, lang = language()) {
  return new Intl.NumberFormat(lang, { useGrouping: grouped, maximumFractionDigits: 0 }).format(n);
}

/**
 * A day as the reader's language writes it (`12 May 2026`, «12 мая 2026 г.»).
 * @param {number} unixMs
 * @param {string} [lang]
 */
export function dayText(unixMs, lang = language()) {
  return new Intl.DateTimeFormat(lang, { dateStyle: "long" }).format(unixMs);
}

/**
 * A rating as players read it: `1612`, or `1500?` while provisional.
 * @param {{ rating: number, provisional: boolean }} r
 */
export function ratingText(r) {
  return `${numberText(r.rating)}${r.provisional ? "?" : ""}`;
}

/**
 * One player's change by a rated match: `anna (white-A) 1500 → 1612? (+112)`.
 * @param {RatingChange} c
 */
export function changeLine(c) {
  const delta = c.after - c.before;
  return `${c.name} (${seatName(c.seat)}) ${numberText(c.before)} → ${ratingText({ rating: c.after, provisional: c.provisional })} (${delta >= 0 ? "+" : "−"}${numberText(Math.abs(delta))})`;
}

/** `12 games`, «12 партий». @param {number} n */
export const games = (n) => t("l.games", { count: n });

/**
 * A history as a small line of the ratings after each match, oldest first.
 * @param {import("./codec.js").HistoryPoint[]} history  newest first, as the server sends it
 */
export function historyLine(history) {
  return [...history].reverse().map((h) => numberText(h.after)).join(" → ");
}

/**
 * A player's profile, as lines: the heading, then per category its rating, history and
 * partnerships, then the recent matches.
 * @param {ProfileView} p
 */
export function profileHead(p) {
  return t("l.since", { name: marked(p.name, p.kind === "Bot" ? "Bot" : null), date: dayText(p.created_ms) });
}

/**
 * A partnership's line: `with vera: pair 1580? in 3 games`.
 * @param {import("./codec.js").PartnerView} partner
 */
export function partnerLine(partner) {
  return t("l.partner-line", { name: partner.name, rating: ratingText(partner.rating), count: partner.rating.games });
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
    /** @type {(() => void) | null} draws the leaderboard or profile shown, again */
    this.shown = null;
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
    if (rows) this.renderBoard(category, rows);
  }

  /**
   * @param {string} category
   * @param {LeaderRow[]} rows
   */
  renderBoard(category, rows) {
    this.shown = () => this.renderBoard(category, rows);
    const out = $("ratings-out");
    delete out.dataset.profile;
    out.replaceChildren(el("h3", t("l.leaderboard", { category: tcName(category) })));
    if (rows.length === 0) {
      out.append(el("p", t("l.nobody-ranked", { category: tcName(category) }), "hint"));
      return;
    }
    const table = document.createElement("table");
    table.id = "leaderboard";
    const deviation = el("th", "±");
    deviation.title = t("l.col.deviation");
    table.createTHead().append(el("th", "#"), el("th", t("l.col.player")), el("th", t("l.col.rating")), deviation, el("th", t("l.col.games")));
    const body = table.createTBody();
    for (const row of rows) {
      const tr = body.insertRow();
      tr.dataset.name = row.name;
      tr.insertCell().textContent = numberText(row.rank, true);
      const name = tr.insertCell();
      const link = el("button", row.name, "link");
      /** @type {HTMLButtonElement} */ (link).type = "button";
      link.addEventListener("click", () => void this.profile(row.name));
      name.append(link);
      tr.insertCell().textContent = ratingText(row.rating);
      tr.insertCell().textContent = numberText(row.rating.deviation);
      tr.insertCell().textContent = numberText(row.rating.games, true);
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
    if (p) this.renderProfile(p);
  }

  /** @param {ProfileView} p */
  renderProfile(p) {
    this.shown = () => this.renderProfile(p);
    const out = $("ratings-out");
    out.replaceChildren(el("h3", profileHead(p)));
    out.dataset.profile = p.name;
    if (p.categories.length === 0) out.append(el("p", t("l.no-rated", { name: p.name }), "hint"));
    for (const c of p.categories) {
      const box = el("div", "", "category");
      box.dataset.category = c.rating.category;
      box.append(el("b", `${tcName(c.rating.category)} ${ratingText(c.rating)}`), el("span", ` ±${numberText(c.rating.deviation)} · ${games(c.rating.games)}`, "rule"));
      if (c.history.length > 0) box.append(el("div", t("l.history", { line: historyLine(c.history) }), "history"));
      for (const partner of c.partners) box.append(el("div", partnerLine(partner), "partner"));
      out.append(box);
    }
    if (p.recent.length > 0) {
      out.append(el("div", t("l.profile-recent", { list: p.recent.slice(0, 5).map((m) => `#${m.match_id}`).join(", ") }), "rule"));
    }
  }

  /** Draws what is shown again (another language). */
  redraw() {
    this.shown?.();
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
