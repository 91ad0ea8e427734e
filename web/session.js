// @ts-check
// The session with the server (PROTOCOL.md, session): Hello and Welcome, requests and their
// replies, and resuming after a lost link by itself, with back-off. The session token is kept
// in sessionStorage, so a reload of the page resumes the same session.

import { open } from "./transport.js";
import { frame, msg, decode, result } from "./codec.js";
import { syncSample } from "./clocks.js";
import { t } from "./i18n.js";
import { errorText } from "./say.js";

/** @typedef {"auto" | "webtransport" | "websocket"} TransportChoice */
/** @typedef {import("./transport.js").Link} Link */

/** @typedef {import("./codec.js").ErrorMsg} ErrorMsg  a refusal, or a local failure ("Offline", "Timeout") */

/** @typedef {{ ok: any, err?: undefined } | { err: ErrorMsg, ok?: undefined }} Outcome */

/**
 * @typedef {object} SessionHooks
 * @property {(resumed: boolean, fresh: boolean) => void} welcome  the session is open
 *   (`fresh`: a new session after the old token was refused, so the page forgets its match)
 * @property {(kind: string, body: any) => void} push  a server message that is not a reply
 * @property {() => void} status  the link's status changed
 * @property {() => number | null} lastSeq  the last event seen of the followed match
 * @property {() => number | null} matchId  the followed match
 * @property {() => void} [synced]  the offset between the server's clock and the page's changed
 */

const STORE_KEY = "shvedka.session";
const BACKOFF_MS = [400, 800, 1600, 3200, 6400, 10000];
const REQUEST_TIMEOUT_MS = 15000;
const HELLO_TIMEOUT_MS = 10000;
const PING_EVERY_MS = 5000;
/** How long opening a link may take before the attempt is given up. */
const OPEN_TIMEOUT_MS = 8000;
/** How long a link must stay up before the back-off starts again from the shortest wait. */
const STABLE_AFTER_MS = 10000;

/**
 * The stored session of this tab, if any.
 * @returns {{ token: string, name: string, account?: boolean } | null}
 */
export function storedSession() {
  try {
    const v = JSON.parse(sessionStorage.getItem(STORE_KEY) ?? "null");
    return v && typeof v.token === "string" && typeof v.name === "string" ? v : null;
  } catch {
    return null;
  }
}

/** @param {{ token: string, name: string, account?: boolean } | null} v */
function store(v) {
  try {
    if (v) sessionStorage.setItem(STORE_KEY, JSON.stringify(v));
    else sessionStorage.removeItem(STORE_KEY);
  } catch {
    // storage may be disabled; the session then lasts as long as the page
  }
}

export class Session {
  /**
   * @param {string} name
   * @param {TransportChoice} transport
   * @param {SessionHooks} hooks
   */
  constructor(name, transport, hooks) {
    this.name = name;
    this.transport = transport;
    this.hooks = hooks;
    /** @type {Link | null} */
    this.link = null;
    /** @type {"connecting" | "connected" | "lost" | "refused"} */
    this.state = "connecting";
    /** Whether the last Welcome resumed an earlier session. */
    this.resumed = false;
    /** How many times the link was lost. */
    this.losses = 0;
    /** The refusal or link error last seen. */
    this.problem = "";
    /** Whether the link was dropped because the match moved to another node (until connected). */
    this.moving = false;
    /** Round trip of the last ping, ms. */
    this.rttMs = /** @type {number | null} */ (null);
    const saved = storedSession();
    /** @type {string | null} */
    this.token = saved && saved.name === name ? saved.token : null;
    /** Whether the session is an account's (a log-in), not a guest's. */
    this.account = Boolean(saved && saved.name === name && saved.account);
    this.nextReq = 1;
    /** @type {Map<number, { resolve: (o: Outcome) => void, timer: number }>} */
    this.pending = new Map();
    this.attempt = 0;
    this.triedResume = false;
    /** @type {number | undefined} */
    this.helloTimer = undefined;
    /** @type {number | undefined} */
    this.pingTimer = undefined;
    /** @type {number | undefined} */
    this.stableTimer = undefined;
    /** @type {number | undefined} */
    this.retryTimer = undefined;
    /** Whether a retry is scheduled or a connect is under way (exactly one at a time). */
    this.connecting = false;
    /** The last Hello was a resume the server refused: the next Welcome starts a new session. */
    this.resumeRefused = false;
    /** Server ms − page ms (`performance.now()`), null until the first Welcome. */
    this.offsetMs = /** @type {number | null} */ (null);
    this.helloSent = 0;
    /** @type {Map<number, number>} ping nonce → page time sent */
    this.pingsSent = new Map();
  }

  /**
   * The connection now serves another session (a log-in): its token, kept for resuming, and
   * its name.
   * @param {string} token
   * @param {string} name
   */
  adopt(token, name) {
    this.token = token;
    this.name = name;
    this.account = true;
    store({ token, name, account: true });
    this.hooks.status();
  }

  /** Forgets this tab's session for good (a log-out): the link closes and nothing resumes. */
  forget() {
    store(null);
    this.token = null;
    this.state = "refused";
    const link = this.link;
    this.link = null;
    window.clearInterval(this.pingTimer);
    link?.close();
  }

  /** Opens the first link. */
  start() {
    void this.connect();
  }

  async connect() {
    window.clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.connecting = true;
    this.state = this.losses > 0 ? "lost" : "connecting";
    this.hooks.status();
    /** @type {Link | null} */
    let opened = null;
    /** @type {string | null} the link closed before open() returned it */
    let closedEarly = null;
    /** @type {Link} */
    let link;
    try {
      /** @type {ReturnType<typeof setTimeout> | undefined} */
      let timer;
      const attempt = open(this.transport, {
        onmessage: (text) => opened && this.receive(opened, text),
        onclose: (reason) => {
          if (opened) this.lost(opened, reason);
          else closedEarly = reason;
        },
      });
      const late = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(t("l.problem.open-late"))), OPEN_TIMEOUT_MS);
      });
      try {
        link = /** @type {Link} */ (await Promise.race([attempt, late]));
      } catch (e) {
        // An attempt that opens after all is closed at once.
        attempt.then((l) => l.close(), () => {});
        throw e;
      } finally {
        clearTimeout(timer);
      }
      opened = link;
    } catch (e) {
      this.problem = String(/** @type {any} */ (e)?.message ?? e);
      this.connecting = false;
      this.retry();
      return;
    }
    this.connecting = false;
    this.link = link;
    if (closedEarly !== null) {
      this.lost(link, closedEarly);
      return;
    }
    this.triedResume = this.token !== null;
    const resume = this.token ? msg.resume(this.token, this.hooks.lastSeq(), this.hooks.matchId()) : null;
    this.helloSent = performance.now();
    link.send(frame(0, msg.hello(this.name, /** @type {any} */ (resume))));
    this.helloTimer = window.setTimeout(() => {
      this.problem = t("l.problem.no-hello");
      this.lost(link, this.problem);
      link.close();
    }, HELLO_TIMEOUT_MS);
  }

  retry() {
    if (this.connecting || this.retryTimer !== undefined) return; // one retry at a time
    const base = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    this.attempt += 1;
    this.state = "lost";
    this.hooks.status();
    this.retryTimer = window.setTimeout(() => {
      this.retryTimer = undefined;
      void this.connect();
    }, base * (0.8 + 0.4 * Math.random()));
  }

  /**
   * Takes a measurement of the server's clock against the page's.
   * @param {number} serverUs
   * @param {number} sentAt
   * @param {number} receivedAt
   */
  sync(serverUs, sentAt, receivedAt) {
    if (typeof serverUs !== "number") return;
    const s = syncSample(serverUs, sentAt, receivedAt);
    this.offsetMs = s.offsetMs;
    this.hooks.synced?.();
  }

  /** Pings now (e.g. when the page becomes visible again): measures the link and the clocks. */
  ping() {
    if (this.state !== "connected") return;
    const nonce = this.nextReq;
    const sent = performance.now();
    this.pingsSent.set(nonce, sent);
    void this.request(msg.ping(nonce), PING_EVERY_MS * 3).then((r) => {
      this.pingsSent.delete(nonce);
      if (!r.err) {
        this.rttMs = Math.round(performance.now() - sent);
        this.hooks.status();
      } else if (r.err.code === "Timeout") {
        this.drop(); // a silent link (a phone that changed networks): start over
      }
    });
  }

  /**
   * @param {Link} link
   * @param {string} text
   */
  receive(link, text) {
    if (link !== this.link) return;
    /** @type {{ kind: string, body: any }} */
    let m;
    try {
      m = decode(text);
    } catch (e) {
      console.warn("not a server message", e);
      return;
    }
    switch (m.kind) {
      case "Welcome": {
        window.clearTimeout(this.helloTimer);
        const fresh = (this.triedResume || this.resumeRefused) && !m.body.resumed;
        this.resumeRefused = false;
        this.token = m.body.token;
        store({ token: m.body.token, name: this.name, account: this.account });
        this.state = "connected";
        this.resumed = Boolean(m.body.resumed);
        // The back-off starts again only once the link has stayed up a while (a server that
        // closes right after Welcome is not hammered).
        window.clearTimeout(this.stableTimer);
        this.stableTimer = window.setTimeout(() => {
          if (this.link === link) this.attempt = 0;
        }, STABLE_AFTER_MS);
        this.problem = "";
        this.moving = false;
        this.pingsSent.clear();
        this.sync(m.body.server_time_us, this.helloSent, performance.now());
        this.startPings();
        this.hooks.welcome(this.resumed, fresh);
        this.hooks.status();
        break;
      }
      case "Refused":
      case "SessionRefused":
        window.clearTimeout(this.helloTimer);
        // `Refused` now means only another protocol version (the page is older than the server).
        this.problem = m.kind === "Refused" ? t("x.version") : errorText(m.body);
        if (m.kind === "SessionRefused" && m.body.code === "Unavailable") {
          // The server cannot reach its storage now (a node cut off from its database): the
          // session is not in question. Keep the token and try again, as after a lost link.
          link.close();
          this.lost(link, this.problem);
        } else if (this.triedResume && m.kind === "SessionRefused") {
          // The token is unknown (the server forgot it): start a new session under the name.
          this.token = null;
          store(null);
          this.triedResume = false;
          this.resumeRefused = true;
          this.link = null;
          link.close();
          void this.connect();
        } else {
          this.state = "refused";
          this.link = null;
          link.close();
          this.hooks.status();
        }
        break;
      case "Reply": {
        const p = this.pending.get(m.body.req);
        if (p) {
          this.pending.delete(m.body.req);
          window.clearTimeout(p.timer);
          p.resolve(result(m.body));
        }
        break;
      }
      case "Pong": {
        const sent = this.pingsSent.get(m.body?.nonce);
        if (sent !== undefined) this.sync(m.body.server_time_us, sent, performance.now());
        break;
      }
      default:
        this.hooks.push(m.kind, m.body);
    }
  }

  /**
   * @param {Link} link
   * @param {string} reason
   */
  lost(link, reason) {
    if (link !== this.link) return; // a link this session already let go
    window.clearTimeout(this.helloTimer);
    window.clearInterval(this.pingTimer);
    window.clearTimeout(this.stableTimer);
    this.link = null;
    for (const [, p] of this.pending) {
      window.clearTimeout(p.timer);
      p.resolve({ err: { code: "Offline", rule: null, message: t("l.problem.lost") } });
    }
    this.pending.clear();
    if (this.state === "refused") return;
    this.losses += 1;
    this.problem = reason;
    this.retry();
  }

  startPings() {
    window.clearInterval(this.pingTimer);
    this.pingTimer = window.setInterval(() => this.ping(), PING_EVERY_MS);
  }

  /**
   * Sends a request and waits for its reply.
   * @param {any} message  a client message of codec.js's `msg`
   * @param {number} [timeoutMs]
   * @returns {Promise<Outcome>}
   */
  request(message, timeoutMs = REQUEST_TIMEOUT_MS) {
    const link = this.link;
    if (!link || this.state !== "connected") {
      return Promise.resolve({ err: { code: "Offline", rule: null, message: t("l.problem.offline") } });
    }
    const req = this.nextReq++;
    return new Promise((resolve) => {
      const timer = window.setTimeout(() => {
        this.pending.delete(req);
        resolve({ err: { code: "Timeout", rule: null, message: t("l.problem.timeout") } });
      }, timeoutMs);
      this.pending.set(req, { resolve, timer });
      link.send(frame(req, message));
    });
  }

  /**
   * Closes the link abruptly, without a goodbye: the reconnect-and-resume logic takes over.
   * @param {string} [problem] why, in the reader's language (the status's title says it)
   * @param {boolean} [moving] the match moved to another node: the status says so until connected
   */
  drop(problem = t("l.problem.dropped"), moving = false) {
    const link = this.link;
    if (!link) return;
    this.moving = moving;
    // Let the link go at once: its close event may never come on a dead network.
    this.lost(link, problem);
    link.close();
  }
}
