// @ts-check
// Finding a game (version 5): the quick pools in the lobby, one click each (a seek on the pool's
// time control, casual, or rated for an account who ticks "rated"); the seek bar under the
// header on every screen, saying what the player seeks, how long he has waited, how far his
// rating range reaches now (it widens while he waits) and a Cancel button; an invitation from a
// partner with Accept and Decline; and "Play again with my partner" after a match. The match a
// seek finds comes as its own State (the server seats the player), which shows the match.

import { partnerOf, seatIndex } from "./seats.js";
import { log, showInfo } from "./notice.js";
import { t } from "./i18n.js";
import { seatName } from "./say.js";

/** @typedef {import("./codec.js").SeekView} SeekView */
/** @typedef {import("./codec.js").SeekPool} SeekPool */

/**
 * @param {string} id
 * @returns {HTMLElement}
 */
function $(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`no #${id} in the page`);
  return el;
}

/** `m:ss` of a number of milliseconds. */
export function clock(/** @type {number} */ ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** The button id of a quick pool's time control (`3+0` → `quick-3-0`). */
export function poolId(/** @type {string} */ tc) {
  return `quick-${tc.replace(/[^0-9a-z]+/gi, "-")}`;
}

/** The clock settings' named time controls, in words (a name the page does not know shows as it is). @type {Record<string, string>} */
const TC_NAMES = {
  bullet: "l.tc.bullet",
  blitz: "l.tc.blitz",
  "blitz-increment": "l.tc.blitz-increment",
  rapid: "l.tc.rapid",
  delay: "l.tc.delay",
};

/**
 * A named time control or rating category (`blitz`) in the reader's language.
 * @param {string} name
 */
export function tcName(name) {
  return name in TC_NAMES ? t(TC_NAMES[name]) : name;
}

/** Why a seek ended without a match. @type {Record<string, string>} */
const SEEK_ENDS = {
  Cancelled: "l.seek-end.Cancelled",
  Disconnected: "l.seek-end.Disconnected",
  Declined: "l.seek-end.Declined",
  Expired: "l.seek-end.Expired",
  Failed: "l.seek-end.Failed",
};

/**
 * What the page says when a seek ended (`SeekEnded`).
 * @param {import("./codec.js").SeekEnd} reason
 */
export function seekEndText(reason) {
  return t(SEEK_ENDS[reason] ?? "l.seek-end.Cancelled");
}

/** `rated` or `casual` in the reader's language. */
const kindText = (/** @type {boolean} */ rated) => t(rated ? "l.rated" : "l.casual");

/**
 * What the seek bar says of a seek `elapsed` ms after the server described it.
 * @param {SeekView} s
 * @param {number} elapsed
 */
export function seekText(s, elapsed) {
  const kind = kindText(s.rated);
  const who = s.players.length > 1 ? ` (${s.players.join(" & ")})` : "";
  if (!s.waiting && s.invited) {
    return t("l.seek.inviting", { name: s.invited, clock: s.time_control, kind, left: clock((s.expires_in_ms ?? 0) - elapsed) });
  }
  const waited = s.waited_ms + elapsed;
  const reach = s.range ?? Math.round(s.reach + (s.widening * elapsed) / 1000);
  return t("l.seek.seeking", { clock: s.time_control, kind, who, waited: clock(waited), reach });
}

/**
 * What the seek bar says of a partner's invitation `elapsed` ms after it came.
 * @param {SeekView} v
 * @param {number} elapsed
 */
export function invitationText(v, elapsed) {
  return t("l.seek.invited", { name: v.players[0], clock: v.time_control, kind: kindText(v.rated), left: clock((v.expires_in_ms ?? 0) - elapsed) });
}

/**
 * The small line under a quick pool's time control: its name and how many wait in it.
 * @param {SeekPool} p
 */
export function poolNote(p) {
  return [p.name ? tcName(p.name) : "", p.players ? t("l.pool-waiting", { count: p.players }) : ""].filter(Boolean).join(" · ");
}

export class QuickPairing {
  /**
   * @param {import("./codec.js").Ask} ask
   * @param {import("./codec.js").msg} msg
   * @param {() => { name: string, account: boolean } | null} me  who the page is
   */
  constructor(ask, msg, me) {
    this.ask = ask;
    this.msg = msg;
    this.me = me;
    /** @type {{ view: SeekView, at: number } | null} the seek the player is in */
    this.seek = null;
    /** @type {{ view: SeekView, at: number } | null} a partner's invitation not yet answered */
    this.invitation = null;
    /** @type {SeekPool[]} */
    this.pools = [];
    $("seek-cancel").addEventListener("click", () => void this.cancel());
    $("seek-accept").addEventListener("click", () => void this.answer(true));
    $("seek-decline").addEventListener("click", () => void this.answer(false));
    $("quick-rated").addEventListener("change", () => this.renderPools());
    setInterval(() => this.renderBar(), 1000);
  }

  /** Asks for the pools and draws their buttons. */
  async refresh() {
    const r = await this.ask(this.msg.seekPools());
    if (r.ok?.SeekPools) {
      this.pools = r.ok.SeekPools;
      this.renderPools();
    }
  }

  renderPools() {
    const me = this.me();
    const ratedBox = /** @type {HTMLInputElement} */ ($("quick-rated"));
    $("quick-rated-label").hidden = !me?.account;
    const rated = Boolean(me?.account && ratedBox.checked);
    const shown = this.pools.filter((p) => p.quick && p.rated === rated);
    $("quick-pools").replaceChildren(...shown.map((p) => {
      const b = document.createElement("button");
      b.type = "button";
      b.id = poolId(p.time_control);
      b.className = "pool";
      b.dataset.tc = p.time_control;
      const tc = document.createElement("b");
      tc.textContent = p.time_control;
      const note = document.createElement("small");
      note.textContent = poolNote(p);
      b.append(tc, note);
      b.disabled = Boolean(this.seek);
      b.addEventListener("click", () => void this.start(p));
      return b;
    }));
  }

  /**
   * Seeks in a pool (one click).
   * @param {SeekPool} p
   */
  async start(p) {
    const r = await this.ask(this.msg.seek({ time_control: p.time_control, rules: p.rules, rated: p.rated, range: null, partner: null }));
    if (r.ok?.Seek) this.changed(r.ok.Seek);
  }

  /**
   * Seeks again with the partner of a decided match, on its terms: he is invited, and if he
   * asked the same of us, the pair is seeking at once.
   * @param {import("./match-state.js").MatchModel} m
   */
  async withPartner(m) {
    if (!m.yourSeat) return;
    const partner = m.names[seatIndex(partnerOf(m.yourSeat))];
    if (!partner) return;
    const r = await this.ask(this.msg.seek({ time_control: m.timeControl, rules: m.rules, rated: false, range: null, partner }));
    if (r.ok?.Seek) this.changed(r.ok.Seek);
  }

  async cancel() {
    if (!this.seek) return;
    const id = this.seek.view.seek;
    const r = await this.ask(this.msg.cancelSeek(id));
    if (!r.err || r.err.code === "NoSuchSeek") this.ended(id, null);
  }

  /** @param {boolean} accept */
  async answer(accept) {
    if (!this.invitation) return;
    const id = this.invitation.view.seek;
    this.invitation = null;
    const r = await this.ask(this.msg.answerSeek(id, accept));
    if (r.ok?.Seek) this.changed(r.ok.Seek);
    this.renderBar();
  }

  /** @param {SeekView} view */
  changed(view) {
    this.seek = { view, at: performance.now() };
    this.renderBar();
    this.renderPools();
  }

  /**
   * A seek ended (`reason` null: cancelled here).
   * @param {number} id
   * @param {import("./codec.js").SeekEnd | null} reason
   */
  ended(id, reason) {
    if (this.invitation?.view.seek === id) this.invitation = null;
    if (this.seek?.view.seek === id) {
      this.seek = null;
      if (reason) showInfo(() => seekEndText(reason));
    }
    this.renderBar();
    this.renderPools();
  }

  /** A new connection (or a resumed one): the server withdrew the old one's seek. */
  connectionChanged() {
    if (this.seek) showInfo(() => t("l.seek-lost"));
    this.seek = null;
    this.invitation = null;
    this.renderBar();
    this.renderPools();
  }

  /**
   * A server message of seeking; true when it was one.
   * @param {string} kind
   * @param {any} body
   */
  receive(kind, body) {
    if (kind === "SeekInvitation") {
      this.invitation = { view: body, at: performance.now() };
    } else if (kind === "Seek") {
      this.changed(body);
    } else if (kind === "SeekEnded") {
      this.ended(body.seek, body.reason);
    } else if (kind === "MatchFound") {
      log(t(body.rated ? "l.found-rated" : "l.found", { id: body.match_id, seat: seatName(body.seat) }));
      this.seek = null;
      this.renderPools();
    } else return false;
    this.renderBar();
    return true;
  }

  /** The bar under the header: the seek, or the invitation. */
  renderBar() {
    const now = performance.now();
    const s = this.seek;
    const inv = this.invitation;
    if (inv && (inv.view.expires_in_ms ?? 0) - (now - inv.at) <= 0) this.invitation = null;
    $("seek-bar").hidden = !s && !this.invitation;
    $("seek-cancel").hidden = !s;
    // One seek at a time: "Play again with my partner" waits for this one to end.
    /** @type {HTMLButtonElement} */ ($("play-partner")).disabled = Boolean(s);
    $("seek-accept").hidden = $("seek-decline").hidden = !this.invitation || Boolean(s);
    $("seek-bar").dataset.state = s ? (s.view.waiting ? "waiting" : "inviting") : this.invitation ? "invited" : "";
    if (s) {
      $("seek-text").textContent = seekText(s.view, now - s.at);
    } else if (this.invitation) {
      $("seek-text").textContent = invitationText(this.invitation.view, now - this.invitation.at);
    }
  }
}
