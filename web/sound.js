// @ts-check
// Sounds: a move, a capture, a drop, a check, low time (ten seconds left on the player's own
// clock), a partner's message or request, and the end of the match. Short tones made with the Web
// Audio API, so the page ships no audio files (and no licence to state). A mute switch in the
// header, remembered in localStorage across reloads and sessions. `played` lists the sounds of
// this page (muted ones too, marked so), for the tests and a curious player.

import { t as tr } from "./i18n.js";

/** @typedef {"move" | "capture" | "drop" | "check" | "lowtime" | "partner" | "end"} SoundKind */

/** localStorage key of the mute switch. */
const MUTED_KEY = "shvedka.muted";

/** Each sound: its notes, [frequency Hz, start s, length s]. */
/** @type {Record<SoundKind, [number, number, number][]>} */
const NOTES = {
  move: [[520, 0, 0.06]],
  capture: [[380, 0, 0.05], [300, 0.05, 0.08]],
  drop: [[660, 0, 0.05], [440, 0.04, 0.06]],
  check: [[880, 0, 0.08], [880, 0.12, 0.08]],
  lowtime: [[990, 0, 0.05], [990, 0.1, 0.05], [990, 0.2, 0.05]],
  partner: [[620, 0, 0.07], [780, 0.08, 0.09]],
  end: [[523, 0, 0.12], [392, 0.13, 0.12], [262, 0.26, 0.25]],
};

/**
 * Which sound a move makes, from its SAN (the server's): a check (or mate) over a capture over a
 * drop over a plain move.
 * @param {string} san
 * @returns {SoundKind}
 */
export function moveSound(san) {
  if (/[+#]$/.test(san)) return "check";
  if (san.includes("x")) return "capture";
  if (san.includes("@")) return "drop";
  return "move";
}

export class Sounds {
  /** @param {HTMLButtonElement} button  the mute switch */
  constructor(button) {
    this.button = button;
    /** @type {AudioContext | null} */
    this.ctx = null;
    /** @type {string[]} the last sounds, "kind" or "kind (muted)" */
    this.played = [];
    this.muted = localStorage.getItem(MUTED_KEY) === "1";
    button.addEventListener("click", () => this.setMuted(!this.muted));
    this.draw();
  }

  /** @param {boolean} muted */
  setMuted(muted) {
    this.muted = muted;
    localStorage.setItem(MUTED_KEY, muted ? "1" : "0");
    this.draw();
  }

  draw() {
    this.label();
    this.button.setAttribute("aria-pressed", String(this.muted));
  }

  /** The switch's words, in the page's language. */
  label() {
    this.button.textContent = tr(this.muted ? "l.sound-off" : "l.sound-on");
  }

  /** @param {SoundKind} kind */
  play(kind) {
    this.played.push(this.muted ? `${kind} (muted)` : kind);
    if (this.played.length > 50) this.played.shift();
    if (this.muted) return;
    try {
      this.ctx ??= new AudioContext();
      const ctx = this.ctx;
      if (ctx.state === "suspended") void ctx.resume();
      for (const [freq, start, length] of NOTES[kind]) {
        const osc = ctx.createOscillator();
        const gain = ctx.createGain();
        osc.frequency.value = freq;
        const t = ctx.currentTime + start;
        gain.gain.setValueAtTime(0.12, t);
        gain.gain.exponentialRampToValueAtTime(0.001, t + length);
        osc.connect(gain).connect(ctx.destination);
        osc.start(t);
        osc.stop(t + length + 0.02);
      }
    } catch {
      // no audio here (an old browser, or none allowed): the game goes on in silence
    }
  }
}
