// @ts-check
// The link to the server: WebTransport (HTTP/3 on the server's QUIC port) when the browser has it,
// the WebSocket at /ws otherwise. Both carry the same JSON text messages (codec.js); on
// WebTransport each message travels on one bidirectional stream as a big-endian u32 length and
// that many bytes of UTF-8 JSON, the framing of the native QUIC protocol.
//
// The page learns where the QUIC endpoint is, and which certificate hashes to trust, from
// /connect.json: with the server's own development certificate (ECDSA P-256, at most 14 days,
// rotated by the server) the browser trusts it through `serverCertificateHashes`; with a
// configured real certificate the list is empty and the browser verifies it as usual.
//
// Why a link closed or did not open is said in the reader's language (it shows in the header's
// status); a reason the browser or the server gave is shown as it came.

import { t } from "./i18n.js";

/** How long "auto" waits for a WebTransport session before it takes the WebSocket. */
export const WT_PATIENCE_MS = 3000;

/** The largest frame the server accepts (proto's MAX_FRAME): the limit of what the page sends. */
export const MAX_FRAME = 64 * 1024;

/** The largest frame the page accepts: replies (a record, a list) may be far bigger than a request. */
export const MAX_INCOMING_FRAME = 4 * 1024 * 1024;

/**
 * @typedef {object} Link
 * @property {"webtransport" | "websocket"} kind
 * @property {(text: string) => void} send
 * @property {() => void} close
 */

/**
 * @typedef {object} Handlers
 * @property {(text: string) => void} onmessage  one server message, as JSON text
 * @property {(reason: string) => void} onclose  the link is gone (called once)
 */

/**
 * Opens a link. `kind` is "auto" (WebTransport if the browser has it and it connects, else
 * WebSocket), "webtransport" or "websocket".
 * @param {"auto" | "webtransport" | "websocket"} kind
 * @param {Handlers} handlers
 * @returns {Promise<Link>}
 */
export async function open(kind, handlers) {
  if (kind === "websocket") return openWebSocket(handlers);
  if (kind === "webtransport" || "WebTransport" in globalThis) {
    try {
      // Where UDP is blocked the QUIC handshake only gives up after a long while: in "auto"
      // the WebSocket is tried after a few seconds instead.
      return await openWebTransport(handlers, kind === "auto" ? WT_PATIENCE_MS : null);
    } catch (e) {
      if (kind === "webtransport") throw e;
    }
  }
  return openWebSocket(handlers);
}

/**
 * Why a link closed, by its close code (QUIC's application code, or the WebSocket's 4000 + it):
 * the server's codes said in the reader's language, another with the reason it came with.
 * @param {number | undefined} code
 * @param {string | undefined} reason
 */
export function closeReason(code, reason) {
  const app = code !== undefined && code >= 4000 ? code - 4000 : code;
  if (app === 3) return t("l.link.behind");
  if (app === 4) return t("l.link.ended");
  return reason || (code ? t("l.link.closed-code", { code }) : t("l.link.closed"));
}

/**
 * @param {Handlers} handlers
 * @returns {Promise<Link>}
 */
function openWebSocket(handlers) {
  return new Promise((resolve, reject) => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws`);
    let opened = false;
    let closed = false;
    socket.onopen = () => {
      opened = true;
      resolve({
        kind: "websocket",
        send: (text) => socket.send(text),
        close: () => socket.close(),
      });
    };
    socket.onmessage = (e) => handlers.onmessage(String(e.data));
    socket.onclose = (e) => {
      if (!opened) reject(new Error(t("l.link.ws-refused", { code: e.code })));
      else if (!closed) handlers.onclose(closeReason(e.code, e.reason));
      closed = true;
    };
  });
}

/** @param {string} hex */
function bytesOfHex(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/**
 * Splits a byte stream into frames: push chunks, take whole payloads.
 */
export class FrameReader {
  /** @param {number} [limit]  the largest payload accepted */
  constructor(limit = MAX_INCOMING_FRAME) {
    /** @type {Uint8Array} */
    this.buf = new Uint8Array(0);
    this.limit = limit;
  }
  /** @param {Uint8Array} chunk */
  push(chunk) {
    const next = new Uint8Array(this.buf.length + chunk.length);
    next.set(this.buf);
    next.set(chunk, this.buf.length);
    this.buf = next;
  }
  /** @returns {Uint8Array | null} the next whole payload */
  next() {
    if (this.buf.length < 4) return null;
    const len = new DataView(this.buf.buffer, this.buf.byteOffset, 4).getUint32(0);
    if (len > this.limit) throw new Error(t("l.link.frame", { len, limit: this.limit }));
    if (this.buf.length < 4 + len) return null;
    const payload = this.buf.slice(4, 4 + len);
    this.buf = this.buf.slice(4 + len);
    return payload;
  }
}

/**
 * One frame: the length prefix and the UTF-8 bytes of `text`.
 * @param {string} text
 */
export function frameBytes(text) {
  const payload = new TextEncoder().encode(text);
  const out = new Uint8Array(4 + payload.length);
  new DataView(out.buffer).setUint32(0, payload.length);
  out.set(payload, 4);
  return out;
}

/**
 * @param {Handlers} handlers
 * @param {number | null} patienceMs  give up (and close the attempt) after this long
 * @returns {Promise<Link>}
 */
async function openWebTransport(handlers, patienceMs) {
  const info = await (await fetch("/connect.json", { cache: "no-store" })).json();
  // The endpoint's own address when it has one (Chromium dials `localhost` as ::1 first).
  const name = info.quic_host ?? location.hostname;
  const host = name.includes(":") && !name.startsWith("[") ? `[${name}]` : name;
  const url = `https://${host}:${info.quic_port}${info.path}`;
  /** @type {any} */
  const options = {};
  if (info.cert_hashes.length > 0) {
    options.serverCertificateHashes = info.cert_hashes.map((/** @type {string} */ h) => ({
      algorithm: "sha-256",
      value: bytesOfHex(h),
    }));
  }
  // @ts-ignore: WebTransport is not in every TypeScript DOM library yet.
  const wt = new WebTransport(url, options);
  wt.closed.catch(() => {}); // an attempt given up is not an error of the page
  if (patienceMs === null) {
    await wt.ready;
  } else {
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    const late = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(t("l.link.wt-late"))), patienceMs);
    });
    try {
      await Promise.race([wt.ready, late]);
    } catch (e) {
      wt.close();
      throw e;
    } finally {
      clearTimeout(timer);
    }
  }
  const stream = await wt.createBidirectionalStream();
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  let closed = false;
  const gone = (/** @type {string} */ reason) => {
    if (closed) return;
    closed = true;
    handlers.onclose(reason);
  };
  wt.closed.then(
    (/** @type {any} */ info) => gone(closeReason(info?.closeCode, info?.reason)),
    (/** @type {any} */ e) => gone(String(e?.message ?? e)),
  );
  (async () => {
    const frames = new FrameReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        frames.push(value);
        for (let p = frames.next(); p; p = frames.next()) handlers.onmessage(decoder.decode(p));
      }
      gone(t("l.link.ended"));
    } catch (e) {
      gone(String(/** @type {any} */ (e)?.message ?? e));
    }
  })();
  return {
    kind: "webtransport",
    send: (text) => {
      writer.write(frameBytes(text)).catch(() => gone(t("l.link.write-failed")));
    },
    close: () => {
      try {
        wt.close();
      } catch {
        gone(t("l.link.closed"));
      }
    },
  };
}
