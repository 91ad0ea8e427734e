// @ts-check
// Chat of the match (RULES.md A3): the team's own line to the partner, the match's line to
// everyone, and the quick signals bughouse players shout across the table ("need a knight",
// "sit", "go", the terminal client's F1-F8 and "trade"). A partner's message also shows
// beside the boards for a few seconds, where a player looks.
//
// A signal goes out in its one spelling (the terminal client's words, "need a knight"), whatever
// the sender's language; a page shows a message that is a signal in its reader's language.

import { onLanguage, t } from "./i18n.js";
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

/** The signals as sent (the terminal client's F1-F8, and "trade"), by the catalogue's key for their words. */
const SIGNALS = /** @type {Record<string, string>} */ ({
  "need a knight": "v.say.need-n",
  "need a bishop": "v.say.need-b",
  "need a rook": "v.say.need-r",
  "need a queen": "v.say.need-q",
  "need a pawn": "v.say.need-p",
  sit: "v.say.sit",
  go: "v.say.go",
  "don't trade": "v.say.no-trade",
  trade: "v.say.trade",
});

/**
 * A message's text as the reader reads it: a signal in the page's language, anything else as
 * its writer wrote it.
 * @param {string} text
 */
export function chatText(text) {
  return Object.hasOwn(SIGNALS, text) ? t(SIGNALS[text]) : text;
}

/**
 * The writer as the log shows him: `anna (guest) (white-A)`.
 * @param {string} from
 * @param {import("./seats.js").PlayerKind | null | undefined} kind
 * @param {Seat | null} seat
 */
function whoText(from, kind, seat) {
  const name = marked(from, kind);
  return seat ? `${name} (${seatLabel(seat)})` : name;
}

/** @param {string} scope  the message's: `Team` (to the partner) or `Match` (to everyone) */
function tagText(scope) {
  return t(scope === "Team" ? "v.chat-tag-team" : "v.chat-tag-all");
}

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
    onLanguage(() => this.relabel());
  }

  /** Draws the log's tags and signals again, in the page's language. */
  relabel() {
    for (const line of $("chat-log").querySelectorAll(".chat")) {
      const el = /** @type {HTMLElement} */ (line);
      const tag = el.querySelector(".tag");
      if (tag) tag.textContent = tagText(el.dataset.scope ?? "");
      const who = el.querySelector(".writer");
      const kind = /** @type {import("./seats.js").PlayerKind | null} */ (el.dataset.kind || null);
      if (who) who.textContent = whoText(el.dataset.from ?? "", kind, /** @type {Seat | null} */ (el.dataset.seat || null));
      const text = el.querySelector(".text");
      if (text) text.textContent = chatText(el.dataset.text ?? "");
    }
    const says = $("partner-says");
    if (says.dataset.from !== undefined && says.textContent) says.textContent = `${says.dataset.from}: ${chatText(says.dataset.text ?? "")}`;
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
    line.dataset.scope = c.scope;
    line.dataset.text = c.text;
    const tag = document.createElement("span");
    tag.className = "tag";
    tag.textContent = tagText(c.scope);
    const who = document.createElement("b");
    who.className = "writer";
    who.textContent = whoText(c.from, c.kind, c.seat);
    line.dataset.from = c.from;
    line.dataset.kind = c.kind ?? "";
    line.dataset.seat = c.seat ?? "";
    const text = document.createElement("span");
    text.className = "text";
    text.textContent = chatText(c.text);
    line.append(tag, " ", who, ": ", text);
    const log = $("chat-log");
    log.append(line);
    log.scrollTop = log.scrollHeight;
    if (c.scope === "Team" && c.seat && c.seat !== me) {
      const says = $("partner-says");
      says.dataset.from = c.from;
      says.dataset.text = c.text;
      says.textContent = `${c.from}: ${chatText(c.text)}`;
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
