// @ts-check
// A player entering a tournament from its page (issue 30, protocol version 8): while registration
// is open he invites his partner to form a team, the partner accepts or declines (the inviter may
// take it back); once it runs, a tournament that asks for check-in has each team check in before
// the round is called, and a team that did not is told it was not paired.

import { showInfo } from "./notice.js";
import { $, cell } from "./tournament.js";
import { t as tr } from "./i18n.js";

/** @typedef {import("./codec.js").TournamentView} TournamentView */

/**
 * Where `me` stands in entering `v`:
 * - `invite`: registration is open and he is in no team and no invitation: he may invite;
 * - `waiting`: his invitation to `to` waits for the answer;
 * - `invited`: `from` invites him to the team `team`;
 * - `closed`: registration is closed to players and he is in no team;
 * - `check-in`: his team should check in for the next round; `checked-in`: it has;
 * - `absent`: his team was not paired in the latest round (it had not checked in);
 * - `none`: nothing to do here.
 * @param {TournamentView} v
 * @param {string} me
 * @returns {{ kind: "invite" | "closed" | "check-in" | "none" } | { kind: "waiting", to: string, team: string }
 *   | { kind: "invited", from: string, team: string } | { kind: "checked-in" | "absent", team: number, round: number }}
 */
export function entryState(v, me) {
  const key = me.toLowerCase();
  const mine = v.teams.find((t) => !t.withdrawn && t.players.some((p) => p.toLowerCase() === key));
  const phase = v.summary.phase;
  if (!mine) {
    if (phase !== "Registering") return { kind: "none" };
    const out = v.invitations.find((i) => i.from.toLowerCase() === key);
    if (out) return { kind: "waiting", to: out.to, team: out.team };
    const invited = v.invitations.find((i) => i.to.toLowerCase() === key);
    if (invited) return { kind: "invited", from: invited.from, team: invited.team };
    return { kind: v.registration_open ? "invite" : "closed" };
  }
  const round = v.round;
  const complete = !round || round.tables.every((t) => "Bye" in t || t.Pairing.games.every((g) => g.result !== null));
  const next = (round?.round ?? 0) + 1;
  if (round && !complete && round.absent.includes(mine.team)) return { kind: "absent", team: mine.team, round: round.round };
  if (v.check_in && roundsLeft(v) && (complete || phase === "Registering")) {
    if (v.checked_in.includes(mine.team)) return { kind: "checked-in", team: mine.team, round: next };
    return { kind: "check-in" };
  }
  if (round && round.absent.includes(mine.team)) return { kind: "absent", team: mine.team, round: round.round };
  return { kind: "none" };
}

export class Entry {
  /**
   * @param {import("./codec.js").Ask} ask
   * @param {import("./codec.js").msg} msg
   * @param {import("./codec.js").entry} entry
   * @param {() => string | null} me  the account this page is logged in as, if any
   * @param {() => boolean} isDirector  whether the page's account directs (the desk says what a
   *   player's box would)
   */
  constructor(ask, msg, entry, me, isDirector) {
    this.isDirector = isDirector;
    this.ask = ask;
    this.msg = msg;
    this.entry = entry;
    this.me = me;
    /** @type {TournamentView | null} */
    this.view = null;
    $("t-invite-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const v = this.view;
      if (!v) return;
      const team = /** @type {HTMLInputElement} */ ($("t-invite-team")).value.trim();
      const partner = /** @type {HTMLInputElement} */ ($("t-invite-partner")).value.trim();
      void this.send(this.entry.invite(v.summary.id, team, partner), () => tr("e.sent", { player: partner }));
    });
  }

  /**
   * @param {import("./codec.js").EntryRequest} req
   * @param {import("./notice.js").Said} done
   */
  async send(req, done) {
    // A refusal is said by `ask` from its code.
    const r = await this.ask(this.msg.entry(req));
    if (!r.err) showInfo(done);
  }

  /**
   * Draws the entry box for the followed tournament.
   * @param {TournamentView} v
   */
  render(v) {
    this.view = v;
    const me = this.me();
    const box = $("t-entry");
    const form = $("t-invite-form");
    let state = me && !document.body.classList.contains("projector") ? entryState(v, me) : /** @type {const} */ ({ kind: "none" });
    if (state.kind === "closed" && this.isDirector()) state = { kind: "none" };
    box.hidden = state.kind === "none";
    form.hidden = state.kind !== "invite";
    const status = $("t-entry-status");
    const id = v.summary.id;
    /**
     * @param {string} label
     * @param {string} bid
     * @param {() => void} act
     */
    const button = (label, bid, act) => {
      const b = /** @type {HTMLButtonElement} */ (cell("button", label));
      b.id = bid;
      b.type = "button";
      b.addEventListener("click", act);
      return b;
    };
    switch (state.kind) {
      case "invite":
        status.replaceChildren(cell("span", tr("e.invite")));
        break;
      case "closed":
        status.replaceChildren(cell("span", tr("e.closed")));
        break;
      case "waiting":
        status.replaceChildren(cell("span", `${tr("e.waiting", { team: state.team, player: state.to })} `),
          button(tr("e.take-back"), "t-invite-cancel", () => void this.send(this.entry.decline(id, state.to), () => tr("e.taken-back"))));
        break;
      case "invited":
        status.replaceChildren(cell("span", `${tr("e.invited", { player: state.from, team: state.team })} `),
          button(tr("e.accept"), "t-invite-accept", () => void this.send(this.entry.accept(id, state.from), () => tr("e.accepted", { team: state.team }))),
          button(tr("e.decline"), "t-invite-decline", () => void this.send(this.entry.decline(id, state.from), () => tr("e.declined"))));
        break;
      case "check-in":
        status.replaceChildren(cell("span", `${tr("e.check-in")} `),
          button(tr("e.check-in-button"), "t-check-in", () => void this.send(this.entry.checkIn(id), () => tr("e.checked"))));
        break;
      case "checked-in":
        status.replaceChildren(cell("span", tr("e.checked-in", { round: state.round })));
        break;
      case "absent":
        status.replaceChildren(cell("span", tr("e.absent", { round: state.round })));
        break;
      default:
        status.replaceChildren();
    }
  }
}

/**
 * Whether a round remains to be paired, so that a check-in means something: always before the
 * start; while it runs, while fewer rounds are paired than it has (a Swiss its rounds, a round
 * robin its schedule's, `most_rounds`, fixed by the draw at the start); never once it ended.
 * @param {TournamentView} v
 */
export function roundsLeft(v) {
  const s = v.summary;
  if (s.phase === "Registering") return true;
  if (s.phase !== "Running") return false;
  const total = s.format === "RoundRobin" ? v.most_rounds : s.format.Swiss.rounds;
  return s.rounds_paired < total;
}
