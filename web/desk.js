// @ts-check
// The director's desk (issue 30): what a tournament director does on the night, in the page of an
// account holding the director role — create a tournament, open and close registration, register
// and withdraw teams, check teams in, seed and start, see the computer's pairing of the next round
// and change it before publishing (swap teams, fix a pairing, give a bye: the server logs the
// change with his name), enter and correct results, and print the pairing sheet and standings on
// A4. Everything shown comes from the tournament's data; every refusal is said from its code.

import { showError, showInfo } from "./notice.js";
import { $, cell, officialName, points } from "./tournament.js";
import { language, t as tr } from "./i18n.js";
import { Exports } from "./exports.js";
import { roundsLeft } from "./entry.js";

/** @typedef {import("./codec.js").TournamentView} TournamentView */
/** @typedef {import("./codec.js").RoundView} RoundView */
/** @typedef {import("./codec.js").TdRequest} TdRequest */
/** @typedef {{ tables: [number, number][], byes: number[] }} Plan */

/**
 * The teams the next round pairs: active, and checked in when the tournament asks for it.
 * @param {TournamentView} v
 * @returns {number[]}
 */
export function fieldOf(v) {
  return v.teams.filter((t) => !t.withdrawn && (!v.check_in || v.checked_in.includes(t.team))).map((t) => t.team);
}

/**
 * A round's tables as a plan the director can change: the pairings in table order, then the byes.
 * @param {RoundView} round
 * @returns {Plan}
 */
export function planOf(round) {
  /** @type {Plan} */
  const plan = { tables: [], byes: [] };
  for (const t of round.tables) {
    if ("Pairing" in t) plan.tables.push([t.Pairing.first, t.Pairing.second]);
    else plan.byes.push(t.Bye.team);
  }
  return plan;
}

/**
 * Whether two plans pair the same teams at the same tables (who is named first aside: the server
 * names him from the history either way).
 * @param {Plan} a
 * @param {Plan} b
 */
export function samePlan(a, b) {
  const key = (/** @type {Plan} */ p) => JSON.stringify({
    tables: p.tables.map(([x, y]) => (x < y ? [x, y] : [y, x])),
    byes: [...p.byes].sort((x, y) => x - y),
  });
  return key(a) === key(b);
}

/**
 * What is wrong with a plan before it is sent, if anything: a team placed twice, or a table
 * with a team missing. Teams placed nowhere are absent (allowed: the director's word).
 * @param {Plan} plan
 * @returns {{ twice: number } | { empty: number } | null}
 */
export function planProblem(plan) {
  const seen = new Set();
  for (const [i, [a, b]] of plan.tables.entries()) {
    if (!a || !b) return { empty: i + 1 };
  }
  for (const team of [...plan.tables.flat(), ...plan.byes]) {
    if (seen.has(team)) return { twice: team };
    seen.add(team);
  }
  return null;
}

/**
 * The warning a director reads before he starts a Swiss longer than its teams can play without
 * meeting twice, if any.
 * @param {TournamentView} v
 */
export function roundsWarning(v) {
  const f = v.summary.format;
  if (f === "RoundRobin" || v.summary.phase !== "Registering" || v.teams.length < 2) return "";
  if (f.Swiss.rounds <= v.most_rounds) return "";
  return tr("d.too-many-rounds", { teams: v.teams.filter((t) => !t.withdrawn).length, count: v.most_rounds, rounds: f.Swiss.rounds });
}

const OUTCOMES = /** @type {const} */ (["FirstWins", "Draw", "SecondWins"]);

export class Desk {
  /**
   * @param {import("./codec.js").Ask} ask
   * @param {import("./codec.js").msg} msg
   * @param {import("./codec.js").td} td
   * @param {() => boolean} isDirector  whether the page's account holds the director role
   * @param {(id: number) => Promise<unknown>} open  opens a tournament's page
   * @param {(matchId: number, decided: boolean) => unknown} watch  opens a game's match: one in play
   *   followed (with the arbiter's tools for an arbiter), a decided one reviewed from its log
   */
  constructor(ask, msg, td, isDirector, open, watch) {
    this.watch = watch;
    this.ask = ask;
    this.msg = msg;
    this.td = td;
    this.isDirector = isDirector;
    this.open = open;
    /** The tournament on the desk. @type {TournamentView | null} */
    this.view = null;
    /** The computer's proposal being edited, if any. @type {Plan | null} */
    this.proposal = null;
    /** The computer's proposal as it came. @type {Plan | undefined} */
    this.computer = undefined;
    /** The round's field (the teams to pair) when the computer proposed it. */
    this.proposedField = "";
    /** Whether the field changed under a plan changed by hand (it is said, not redone). */
    this.fieldMoved = false;
    /** The results table as last drawn (not drawn again under the director's hand unless it changed). */
    this.resultsKey = "";
    $("tc-form").addEventListener("submit", (e) => {
      e.preventDefault();
      void this.create();
    });
    $("d-registration").addEventListener("click", () => {
      if (this.view) void this.send(this.td.registration(this.view.summary.id, !this.view.registration_open));
    });
    $("d-settings").addEventListener("submit", (e) => {
      e.preventDefault();
      const v = this.view;
      if (!v) return;
      const rounds = Number(/** @type {HTMLInputElement} */ ($("d-rounds")).value);
      const swiss = v.summary.format !== "RoundRobin" && v.summary.phase === "Registering" ? rounds : null;
      void this.send(this.td.settings(v.summary.id, swiss, /** @type {HTMLInputElement} */ ($("d-check-in")).checked), () => tr("d.settings-saved"));
    });
    $("d-seed").addEventListener("click", () => {
      if (this.view) void this.send(this.td.seedByRating(this.view.summary.id), () => tr("d.seeded"));
    });
    $("d-start").addEventListener("click", () => {
      if (this.view) void this.send(this.td.start(this.view.summary.id), () => tr("d.started"));
    });
    $("d-register").addEventListener("submit", (e) => {
      e.preventDefault();
      const v = this.view;
      if (!v) return;
      const value = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ ($(id)).value.trim();
      const req = /** @type {TdRequest} */ ({ Register: { tournament: v.summary.id, team: value("d-team"), players: [value("d-p1"), value("d-p2")] } });
      void this.send(req, () => tr("d.registered")).then((ok) => {
        if (ok) /** @type {HTMLFormElement} */ ($("d-register")).reset();
      });
    });
    $("d-preview").addEventListener("click", () => void this.preview());
    $("d-add-table").addEventListener("click", () => {
      if (!this.proposal) return;
      this.proposal.tables.push([0, 0]);
      this.drawPlan();
    });
    $("d-add-bye").addEventListener("click", () => {
      if (!this.proposal) return;
      this.proposal.byes.push(0);
      this.drawPlan();
    });
    $("d-cancel").addEventListener("click", () => this.closePlan());
    $("d-pair").addEventListener("click", () => void this.pair());
    $("d-print").addEventListener("click", () => window.print());
    this.exports = new Exports(ask, msg, td, () => this.view);
  }

  /** Creates a tournament from the lobby's form and opens it. */
  async create() {
    const value = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ ($(id)).value;
    const checked = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ ($(id)).checked;
    const swiss = value("tc-format") === "swiss" ? Number(value("tc-rounds")) : null;
    const req = this.td.create(value("tc-name").trim(), value("tc-rules"), value("tc-clock").trim(), swiss, checked("tc-online"), checked("tc-check-in"), checked("tc-chess960"));
    const r = await this.ask(this.msg.td(req));
    if (r.err) return;
    if (typeof r.ok?.Id === "number") await this.open(r.ok.Id);
  }

  /**
   * Sends a director's command; says a refusal from its code, and a success in `done`'s words.
   * @param {TdRequest} req
   * @param {import("./notice.js").Said} [done]
   * @returns {Promise<boolean>}
   */
  async send(req, done) {
    // A refusal is said by `ask` from its code.
    const r = await this.ask(this.msg.td(req));
    if (r.err) return false;
    if (done) showInfo(done);
    return true;
  }

  /** Shows the computer's pairing of the next round, to publish as it is or to change. */
  async preview() {
    const v = this.view;
    if (!v) return;
    const r = await this.ask(this.msg.td(this.td.preview(v.summary.id)));
    if (!r.ok?.TournamentRound) return;
    this.computer = planOf(r.ok.TournamentRound);
    this.proposal = planOf(r.ok.TournamentRound);
    this.proposedField = JSON.stringify(fieldOf(v));
    this.fieldMoved = false;
    this.drawPlan();
  }

  closePlan() {
    this.proposal = null;
    this.fieldMoved = false;
    this.computer = undefined;
    $("d-proposal").hidden = true;
  }

  /** Publishes the plan: the computer's pairing as it is, or the director's by hand. */
  async pair() {
    const v = this.view;
    const plan = this.proposal;
    if (!v || !plan) return;
    const problem = planProblem(plan);
    if (problem) {
      /** @param {number} team */
      const name = (team) => v.teams.find((t) => t.team === team)?.name ?? tr("t.team-n", { n: team });
      showError("twice" in problem ? tr("d.placed-twice", { team: name(problem.twice) }) : tr("d.table-empty", { table: problem.empty }));
      return;
    }
    const window_ms = Math.max(10, Number(/** @type {HTMLInputElement} */ ($("d-window")).value) || 120) * 1000;
    const byComputer = this.computer && samePlan(plan, this.computer);
    const req = byComputer ? this.td.pairNext(v.summary.id, window_ms) : this.td.pairByHand(v.summary.id, window_ms, plan.tables, plan.byes.filter((b) => b > 0));
    if (await this.send(req, () => tr(byComputer ? "d.paired" : "d.paired-by-hand"))) this.closePlan();
  }

  /** Draws the plan being edited: a select per place, the teams of the round's field to choose from. */
  drawPlan() {
    const v = this.view;
    const plan = this.proposal;
    if (!v || !plan) return;
    $("d-proposal").hidden = false;
    const field = fieldOf(v);
    /** @param {number} team */
    const name = (team) => v.teams.find((t) => t.team === team)?.name ?? tr("t.team-n", { n: team });
    /**
     * @param {number} value
     * @param {(team: number) => void} set
     * @param {string} id
     */
    const select = (value, set, id) => {
      const s = document.createElement("select");
      s.id = id;
      s.append(new Option("—", "0"), ...field.map((t) => new Option(`${t} ${name(t)}`, String(t))));
      s.value = String(value);
      s.addEventListener("change", () => {
        set(Number(s.value));
        this.drawChanged();
      });
      return s;
    };
    /** @param {() => void} drop */
    const remove = (drop) => {
      const b = /** @type {HTMLButtonElement} */ (cell("button", tr("d.remove")));
      b.type = "button";
      b.addEventListener("click", () => {
        drop();
        this.drawPlan();
      });
      return b;
    };
    const rows = plan.tables.map(([a, b], i) => {
      const row = document.createElement("tr");
      const td = (/** @type {HTMLElement} */ el) => {
        const c = document.createElement("td");
        c.append(el);
        return c;
      };
      row.append(cell("td", String(i + 1)),
        td(select(a, (t) => { plan.tables[i][0] = t; }, `d-t${i + 1}-a`)),
        td(select(b, (t) => { plan.tables[i][1] = t; }, `d-t${i + 1}-b`)),
        td(remove(() => plan.tables.splice(i, 1))));
      return row;
    });
    rows.push(...plan.byes.map((team, i) => {
      const row = document.createElement("tr");
      const c = document.createElement("td");
      c.append(select(team, (t) => { plan.byes[i] = t; }, `d-bye-${i + 1}`));
      const r = document.createElement("td");
      r.append(remove(() => plan.byes.splice(i, 1)));
      row.append(cell("td", tr("d.bye")), c, cell("td", ""), r);
      return row;
    }));
    /** @type {HTMLTableSectionElement} */ ($("d-pairing").querySelector("tbody")).replaceChildren(...rows);
    this.drawChanged();
  }

  /** Says whether the plan is still the computer's, and who is left out. */
  drawChanged() {
    const v = this.view;
    const plan = this.proposal;
    if (!v || !plan) return;
    const placed = new Set([...plan.tables.flat(), ...plan.byes]);
    const field = fieldOf(v);
    /** @param {number} team */
    const name = (team) => v.teams.find((t) => t.team === team)?.name ?? tr("t.team-n", { n: team });
    const out = field.filter((t) => !placed.has(t));
    const away = v.teams.filter((t) => !t.withdrawn && !field.includes(t.team)).map((t) => t.team);
    const same = this.computer && samePlan(plan, this.computer);
    // A team placed twice is said at once, by name (publishing would be refused).
    const problem = planProblem(plan);
    const twice = problem && "twice" in problem ? problem.twice : 0;
    $("d-changed").classList.toggle("d-warning", twice > 0);
    $("d-changed").textContent = (twice ? `${tr("d.twice-line", { team: name(twice) })} ` : "")
      + tr(same ? "d.computers" : "d.changed")
      + (this.fieldMoved ? ` ${tr("d.field-moved")}` : "")
      + (away.length ? ` ${tr("d.away", { teams: away.map(name).join(", ") })}` : "")
      + (out.length ? ` ${tr("d.left-out", { teams: out.map(name).join(", ") })}` : "");
  }

  /**
   * Draws the desk for the followed tournament (hidden for anyone but a director, and on the wall).
   * @param {TournamentView} v
   */
  render(v) {
    const desk = $("t-desk");
    desk.hidden = !this.isDirector() || document.body.classList.contains("projector");
    if (desk.hidden) return;
    if (this.view?.summary.id !== v.summary.id) this.closePlan();
    this.view = v;
    const s = v.summary;
    const before = s.phase === "Registering";
    $("d-before").hidden = !before;
    $("d-register").hidden = !before;
    $("d-registration").textContent = tr(v.registration_open ? "d.close-registration" : "d.open-registration");
    const rounds = /** @type {HTMLInputElement} */ ($("d-rounds"));
    const roundsLabel = rounds.parentElement;
    if (roundsLabel) roundsLabel.hidden = s.format === "RoundRobin";
    if (document.activeElement !== rounds && s.format !== "RoundRobin") rounds.value = String(s.format.Swiss.rounds);
    /** @type {HTMLInputElement} */ ($("d-check-in")).checked = v.check_in;
    const warning = roundsWarning(v);
    $("d-warning").textContent = warning;
    $("d-warning").hidden = warning === "";
    const running = s.phase === "Running";
    const complete = !v.round || v.round.tables.every((t) => "Bye" in t || t.Pairing.games.every((g) => g.result !== null));
    $("d-next").hidden = !(running && complete);
    if (!(running && complete)) this.closePlan();
    this.drawTeams(v);
    this.drawResults(v);
    this.followField(v);
    this.exports.render(v);
  }

  /**
   * An open proposal follows check-ins and withdrawals: the computer's pairing, untouched, is
   * asked for again; one changed by hand is drawn again with the new field (a team that checked
   * in since is among the choices and said to be left out) and the change is said.
   * @param {TournamentView} v
   */
  followField(v) {
    const field = JSON.stringify(fieldOf(v));
    if (!this.proposal || field === this.proposedField) return;
    // Taken as seen at once: a refused preview is not asked again at every push.
    this.proposedField = field;
    if (this.computer && samePlan(this.proposal, this.computer)) {
      void this.preview();
      return;
    }
    this.fieldMoved = true;
    this.drawPlan();
  }

  /** @param {TournamentView} v */
  drawTeams(v) {
    const before = v.summary.phase === "Registering";
    // After the last round is paired nobody checks in: there is no round to check in for.
    const checkIn = v.check_in && roundsLeft(v);
    const rows = v.teams.map((t) => {
      const row = document.createElement("tr");
      const checked = v.checked_in.includes(t.team);
      const actions = document.createElement("td");
      if (!t.withdrawn && checkIn && !checked) {
        const b = cell("button", tr("d.check-in"));
        b.id = `d-checkin-${t.team}`;
        b.addEventListener("click", () => void this.send(this.td.checkIn(v.summary.id, t.team)));
        actions.append(b);
      }
      if (!t.withdrawn && v.summary.phase !== "Finished") {
        const w = cell("button", tr("d.withdraw"));
        w.id = `d-withdraw-${t.team}`;
        w.addEventListener("click", () => {
          if (before || window.confirm(tr("d.withdraw-confirm", { team: t.name }))) void this.send(this.td.withdraw(v.summary.id, t.team));
        });
        actions.append(w);
      }
      const status = t.withdrawn ? tr("d.withdrawn") : checkIn ? tr(checked ? "d.checked-in" : "d.not-yet") : "";
      row.append(cell("td", String(t.team)), cell("td", t.name), cell("td", t.players.join(", ")), cell("td", status, checked ? "d-in" : ""), actions);
      return row;
    });
    for (const i of v.invitations) {
      const row = document.createElement("tr");
      row.append(cell("td", ""), cell("td", i.team), cell("td", `${i.from}, ${i.to}`), cell("td", tr("d.waiting-for", { player: i.to })), cell("td", ""));
      rows.push(row);
    }
    /** @type {HTMLTableSectionElement} */ ($("d-teams").querySelector("tbody")).replaceChildren(...rows);
  }

  /**
   * The round's games with their results: enter one (over the board) or correct one.
   * @param {TournamentView} v
   */
  drawResults(v) {
    const round = v.round;
    const key = JSON.stringify([language(), v.summary.id, round]);
    if (key === this.resultsKey) return;
    this.resultsKey = key;
    $("d-results-box").hidden = !round;
    if (!round) return;
    $("d-results-title").textContent = tr("d.results-of", { round: round.round });
    /** @param {number} team */
    const name = (team) => v.teams.find((t) => t.team === team)?.name ?? tr("t.team-n", { n: team });
    const rows = round.tables.flatMap((t) => {
      if ("Bye" in t) return [];
      const p = t.Pairing;
      return p.games.map((g) => {
        const row = document.createElement("tr");
        const id = `d-r${p.table}-${g.game}`;
        const outcome = document.createElement("select");
        outcome.id = `${id}-outcome`;
        outcome.append(...OUTCOMES.map((k) => new Option(tr(`d.outcome.${k}`), k)));
        if (g.result) outcome.value = g.result.outcome;
        const reason = document.createElement("input");
        reason.id = `${id}-reason`;
        reason.maxLength = 100;
        reason.placeholder = tr("d.how-it-ended");
        reason.value = g.result?.note ?? "";
        const go = cell("button", tr(g.result ? "d.correct" : "d.enter"));
        go.id = `${id}-enter`;
        // A game in play: only deliberately, and then its match ends with the result.
        const inPlay = g.match_id !== null && g.result === null;
        go.addEventListener("click", () => {
          const at = { round: round.round, table: p.table, game: g.game };
          if (inPlay && !window.confirm(tr("d.end-game-confirm", { table: p.table, game: g.game, match: g.match_id ?? "" }))) return;
          const said = reason.value.trim() || tr(g.match_id !== null ? "d.default-reason-online" : "d.default-reason");
          const req = this.td.result(v.summary.id, at, /** @type {import("./codec.js").TdOutcome} */ (outcome.value), said, g.result !== null, inPlay);
          void this.send(req, () => tr(g.result ? "d.corrected" : "d.entered"));
        });
        const director = officialName(g.result?.director ?? null);
        const now = g.result ? `${tr(`d.outcome.${g.result.outcome}`)}${director ? ` (${director})` : ""}` : "—";
        const form = document.createElement("td");
        form.append(outcome, reason, go);
        if (g.result && g.match_id === null) {
          const clear = cell("button", tr("d.clear"));
          clear.id = `${id}-clear`;
          clear.title = tr("d.clear-title");
          clear.addEventListener("click", () => {
            if (!window.confirm(tr("d.clear-confirm", { table: p.table, game: g.game }))) return;
            void this.send(this.td.clearResult(v.summary.id, { round: round.round, table: p.table, game: g.game }), () => tr("d.cleared"));
          });
          form.append(clear);
        }
        if (g.match_id !== null) {
          const matchId = g.match_id;
          const look = cell("button", tr("d.match", { match: matchId }));
          look.id = `${id}-match`;
          look.title = tr("d.match-title");
          const decided = g.result !== null;
          look.addEventListener("click", () => void this.watch(matchId, decided));
          form.append(look);
        }
        row.append(cell("td", g.game === 1 ? String(p.table) : ""), cell("td", g.game === 1 ? `${name(p.first)} — ${name(p.second)}` : ""),
          cell("td", String(g.game)), cell("td", now), form);
        return row;
      });
    });
    /** @type {HTMLTableSectionElement} */ ($("d-results").querySelector("tbody")).replaceChildren(...rows);
    // This round's points (quarter points): a point a decided game, two a bye.
    const given = round.tables.reduce((a, t) => a + ("Bye" in t ? 8 : t.Pairing.games.filter((g) => g.result !== null).length * 4), 0);
    $("d-results-sum").textContent = tr("d.points-given", { round: round.round, points: points(given) });
  }
}
