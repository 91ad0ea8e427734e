// @ts-check
// Chat of the match (RULES.md A3): the team's own line to the partner, the match's line to
// everyone, and the quick signals bughouse players shout across the table ("need a knight",
// "sit", "go", the terminal client's F1-F8 and "trade"). A partner's message also shows
// beside the boards for a few seconds, where a player looks.

import { marked, seatLabel } from "./seats.js";

/** @typedef {import("./seats.js").Seat} Seat */

/**
 * `ServerMsg::Chat`.
 * @typedef {object} ChatMsg
 * @property {number} match_id
 * @property {string} from
 * @property {import("./seats.js").PlayerKind} kind  the writer's (version 4)
 * @property {Seat | null} seat
 * @property {"Team" | "Match"} scope
 * @property {string} text
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

const SHOW_PARTNER_MS = 8000;

export class Chat {
  /**
   * @param {(message: any) => Promise<{ ok?: any, err?: any }>} ask
   * @param {(scope: "Team" | "Match", text: string) => any} chatMsg
   */
  constructor(ask, chatMsg) {
    this.ask = ask;
    this.chatMsg = chatMsg;
    /** @type {number | undefined} */
    this.flashTimer = undefined;
    const signals = $("signals");
    const toggle = $("signals-toggle");
    /** @param {boolean} open */
    const openSignals = (open) => {
      signals.classList.toggle("open", open);
      toggle.setAttribute("aria-expanded", String(open));
    };
    // On a phone the signals fold into one control (style.css); a signal sent folds them again.
    toggle.addEventListener("click", () => openSignals(!signals.classList.contains("open")));
    for (const b of signals.querySelectorAll("button[data-say]")) {
      const say = /** @type {HTMLElement} */ (b).dataset.say ?? "";
      b.addEventListener("click", () => {
        openSignals(false);
        this.ask(this.chatMsg("Team", say));
      });
    }
    $("chat-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      const input = /** @type {HTMLInputElement} */ ($("chat-input"));
      const scope = /** @type {HTMLSelectElement} */ ($("chat-scope")).value === "Team" ? "Team" : "Match";
      const text = input.value.trim();
      if (!text) return;
      const r = await this.ask(this.chatMsg(scope, text));
      if (r.ok) input.value = "";
    });
  }

  /**
   * Shows a message.
   * @param {ChatMsg} c
   * @param {Seat | null} me
   * @param {number | null} [matchId]  the match the page follows: chat of others is not shown
   */
  receive(c, me, matchId = null) {
    if (matchId !== null && typeof c.match_id === "number" && c.match_id !== matchId) return; // another match's
    const line = document.createElement("div");
    line.className = `chat ${c.scope === "Team" ? "team" : "all"}`;
    const tag = document.createElement("span");
    tag.className = "tag";
    tag.textContent = c.scope === "Team" ? "partner" : "all";
    const who = document.createElement("b");
    const from = marked(c.from, c.kind);
    who.textContent = c.seat ? `${from} (${seatLabel(c.seat)})` : from;
    line.append(tag, " ", who, ": ", c.text);
    const log = $("chat-log");
    log.append(line);
    log.scrollTop = log.scrollHeight;
    if (c.scope === "Team" && c.seat && c.seat !== me) {
      const says = $("partner-says");
      says.textContent = `${c.from}: ${c.text}`;
      says.classList.add("flash");
      window.clearTimeout(this.flashTimer);
      this.flashTimer = window.setTimeout(() => {
        says.classList.remove("flash");
        says.textContent = "";
      }, SHOW_PARTNER_MS);
    }
  }

  /** Empties the chat (another match). */
  clear() {
    $("chat-log").replaceChildren();
    $("partner-says").textContent = "";
  }
}
