// @ts-check
// The arbiter's panel (RULES.md A2, K5), for a session that presented the arbiters' secret:
// every live match (ListPage with live, page by page) to watch, and on the watched match: pause, resume, adjust a
// clock, take back a move, set a corrected position, declare the result, annul, play the game
// again (a player's call for a replay shows its reason in the match's log). Every act
// is recorded by the server with its description.

import { SEAT_ORDER, marked, seatLabel } from "./seats.js";
import { listAll } from "./codec.js";
import { language, onLanguage, t } from "./i18n.js";
import { phaseText, rulesText } from "./match-state.js";
import { showError, showRefusal } from "./notice.js";

/** The largest clock adjustment the panel sends: a day. */
const MAX_ADJUST_MS = 24 * 3600 * 1000;

/** @typedef {import("./codec.js").MatchSummary} MatchSummary */
/** @typedef {import("./match-state.js").MatchModel} MatchModel */
/** @typedef {import("./seats.js").Seat} Seat */

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
 * @returns {HTMLInputElement}
 */
function input(id) {
  return /** @type {HTMLInputElement} */ ($(id));
}

export class ArbiterPanel {
  /**
   * @param {import("./codec.js").Ask} ask
   * @param {import("./codec.js").msg} msg
   * @param {import("./codec.js").act} act
   * @param {() => MatchModel | null} model
   */
  constructor(ask, msg, act, model) {
    this.ask = ask;
    this.msg = msg;
    this.act = act;
    this.model = model;
    this.enabled = false;
    /**
     * @param {any} a
     * @returns {ReturnType<import("./codec.js").Ask>}
     */
    const send = async (a) => {
      const m = this.model();
      if (!m) return { err: { code: "Offline", rule: null, message: t("v.arb-no-match") } };
      return this.ask(this.msg.arbiterAct(m.matchId, a));
    };
    $("arb-refresh").addEventListener("click", () => void this.refresh());
    $("arb-pause").addEventListener("click", () => void send(act.pause()));
    $("arb-resume").addEventListener("click", () => void send(act.resume()));
    $("arb-clock-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const seat = /** @type {Seat} */ (input("arb-clock-seat").value);
      const text = input("arb-clock-seconds").value.trim();
      const seconds = /^[+-]?\d+(\.\d+)?$/.test(text) ? Number(text) : NaN;
      const ms = Math.round(seconds * 1000);
      if (!Number.isSafeInteger(ms) || Math.abs(ms) > MAX_ADJUST_MS) {
        showError(() => t("v.arb-adjust-range", { max: new Intl.NumberFormat(language()).format(MAX_ADJUST_MS / 1000) }));
      } else if (ms !== 0) void send(act.adjustClock(seat, ms));
    });
    $("arb-takeback").addEventListener("click", () => void send(act.takeBack(input("arb-takeback-board").value)));
    $("arb-position-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const bfen = /** @type {HTMLTextAreaElement} */ ($("arb-bfen")).value.trim();
      if (bfen) void send(act.setPosition(bfen));
    });
    $("arb-result-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      const winner = input("arb-winner").value || null;
      const reason = input("arb-result-reason").value.trim();
      const r = await send(act.declareResult(winner, reason));
      if (r.ok) input("arb-result-reason").value = "";
    });
    $("arb-annul-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      const r = await send(act.annul(input("arb-annul-reason").value.trim()));
      if (r.ok) input("arb-annul-reason").value = "";
    });
    // A2, A5, A6: the game in play is annulled and the same match starts again.
    $("arb-replay-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      const reason = /** @type {import("./codec.js").ReplayReason} */ (input("arb-replay-reason").value);
      const r = await send(act.replay(reason, input("arb-replay-note").value.trim()));
      if (r.ok) input("arb-replay-note").value = "";
    });
    // The list and the panel speak the page's language: drawn again when it changes.
    onLanguage(() => {
      void this.refresh();
      this.render(this.model());
    });
  }

  /** The session is an arbiter now: show the panels. */
  enable() {
    this.enabled = true;
    $("arbiter-lobby").hidden = false;
    void this.refresh();
  }

  /** The session is no longer an arbiter (the role was revoked): hide the panels. */
  disable() {
    this.enabled = false;
    $("arbiter-lobby").hidden = true;
    $("arbiter-panel").hidden = true;
  }

  /** Lists the live matches. */
  async refresh() {
    if (!this.enabled) return;
    const r = await listAll(this.ask, true);
    if (r.err) {
      if (r.err.code === "BadReply") showRefusal(r.err);
      return;
    }
    /** @type {MatchSummary[]} */
    const live = r.ok.matches;
    const body = /** @type {HTMLTableElement} */ ($("live")).tBodies[0];
    body.replaceChildren(...live.map((m) => {
      const row = document.createElement("tr");
      for (const v of [m.match_id, rulesText(m.rules), m.time_control, phaseText(m.phase)]) row.insertCell().textContent = String(v);
      row.insertCell().textContent = m.seats.map((n, i) => (n === null ? "·" : marked(n, m.kinds?.[i]))).join(", ");
      const b = document.createElement("button");
      b.type = "button";
      b.id = `arb-watch-${m.match_id}`;
      b.textContent = t("v.arb-watch");
      b.addEventListener("click", () => void this.ask(this.msg.watch(m.match_id)));
      row.insertCell().append(b);
      if (m.phase === "Paused") row.className = "attention";
      return row;
    }));
  }

  /**
   * Shows the match panel for the watched match.
   * @param {MatchModel | null} m
   */
  render(m) {
    const panel = $("arbiter-panel");
    panel.hidden = !this.enabled || !m;
    if (panel.hidden || !m) return;
    // Another match: nothing typed for the last one stays (a seat, a delta, a reason).
    if (panel.dataset.match !== String(m.matchId)) {
      panel.dataset.match = String(m.matchId);
      for (const el of panel.querySelectorAll("input, textarea, select")) {
        const field = /** @type {HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement} */ (el);
        if (field instanceof HTMLSelectElement) field.selectedIndex = 0;
        else if (field.type !== "checkbox" && field.type !== "radio") field.value = "";
      }
      delete (/** @type {HTMLElement} */ ($("arb-bfen"))).dataset.shown;
    }
    const bfen = /** @type {HTMLTextAreaElement} */ ($("arb-bfen"));
    if (document.activeElement !== bfen && bfen.dataset.shown !== m.bfen) {
      bfen.value = m.bfen;
      bfen.dataset.shown = m.bfen;
    }
    const live = m.phase === "Running" || m.phase === "Paused";
    for (const id of ["arb-pause", "arb-resume", "arb-clock", "arb-takeback", "arb-position", "arb-declare", "arb-annul", "arb-replay"]) {
      // A decided match's result may still be corrected (A2).
      const open = live || id === "arb-annul" || (id === "arb-declare" && m.phase === "Ended");
      /** @type {HTMLButtonElement} */ ($(id)).disabled = !open;
    }
    /** @type {HTMLButtonElement} */ ($("arb-pause")).disabled = m.phase !== "Running";
    /** @type {HTMLButtonElement} */ ($("arb-resume")).disabled = m.phase !== "Paused";
    const seat = /** @type {HTMLSelectElement} */ ($("arb-clock-seat"));
    for (const o of seat.options) {
      const i = SEAT_ORDER.indexOf(/** @type {Seat} */ (o.value));
      const name = m.names[i];
      o.textContent = `${seatLabel(/** @type {Seat} */ (o.value))} ${name === null ? "" : marked(name, m.kinds[i])}`;
    }
  }
}
