// @ts-check
// Tournaments in the page (issue 30, protocol version 7): the list in the lobby, and one
// tournament followed live — its standings with every tie-break and its latest round, pairing by
// pairing, both games with their S3 choices, seats and results. The same view fills the
// projector (`?projector=ID`: no controls, large type). Everything shown is rendered from the
// server's data (codes, numbers, names), never from its text.

import { setTeamNames, showRefusal } from "./notice.js";
import { language, t as tr } from "./i18n.js";

/** @typedef {import("./codec.js").TournamentView} TournamentView */
/** @typedef {import("./codec.js").TournamentSummary} TournamentSummary */
/** @typedef {import("./codec.js").GameView} GameView */
/** @typedef {import("./codec.js").TableView} TableView */

/**
 * An official who acted, as the page names him: his account, or "the director" for the server's
 * secret (who has no name); null for nobody.
 * @param {import("./codec.js").OfficialView | null} o
 */
export function officialName(o) {
  if (o === null || o === undefined) return null;
  if (o === "Secret" || o === "Server") return tr("t.the-director");
  return o.Account;
}

/**
 * @param {string} id
 * @returns {HTMLElement}
 */
export function $(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`no #${id} in the page`);
  return el;
}

/**
 * A score in quarter points, written as crosstables are: `2`, `1½`, `½`, `0`; quarters (only
 * Sonneborn–Berger has them) as decimals.
 * @param {number} quarters
 */
export function points(quarters) {
  const whole = Math.floor(quarters / 4);
  switch (quarters % 4) {
    case 0: return String(whole);
    case 2: return whole === 0 ? "½" : `${whole}½`;
    // Quarters (Sonneborn–Berger), in the page's language: 0,75 in Russian.
    default: return new Intl.NumberFormat(language(), { minimumFractionDigits: 2 }).format(quarters / 4);
  }
}

/** @param {TournamentSummary} s */
export function formatText(s) {
  const chess960 = s.chess960 ? tr("t.chess960") : "";
  if (s.format === "RoundRobin") return tr("t.round-robin") + chess960;
  return tr("t.swiss", { count: s.format.Swiss.rounds }) + chess960;
}

/** @param {string} phase */
const phaseText = (phase) => tr(`t.phase.${phase}`);

/** @param {string} choice  a `TdChoice` */
const choiceText = (choice) => tr(`t.choice.${choice}`);

/**
 * What a game shows: its result, or where it stands.
 * @param {GameView} g
 * @param {(team: number) => string} name
 * @param {{ first: number, second: number }} p
 */
export function gameText(g, name, p) {
  if (g.result) {
    const r = g.result;
    const who = r.outcome === "Draw" ? tr("t.draw") : tr("t.won", { team: name(r.outcome === "FirstWins" ? p.first : p.second) });
    const how = r.source === "Forfeit" ? tr("t.forfeit") : r.source === "OverTheBoard" ? tr("t.over-the-board") : r.source === "Director" ? tr("t.by-director") : "";
    const by = officialName(r.director);
    return `${who}${how}${by ? ` — ${by}${r.note ? `: ${r.note}` : ""}` : ""}`;
  }
  if (g.match_id !== null) return tr("t.in-play", { match: g.match_id });
  const seating = g.seating ? choiceText(g.seating) : tr("t.to-seat", { team: name(g.seating_team) });
  const colours = g.colours ? choiceText(g.colours) : tr("t.to-colour", { team: name(g.colour_team) });
  return `${seating}; ${colours}`;
}

/** @param {string} seat */
const seatWords = (seat) => tr(`t.seat.${seat}`);
const SEATS = /** @type {const} */ (["WhiteA", "BlackA", "WhiteB", "BlackB"]);

/**
 * @param {string} tag
 * @param {string} text
 * @param {string} [cls]
 */
export function cell(tag, text, cls) {
  const el = document.createElement(tag);
  el.textContent = text;
  if (cls) el.className = cls;
  return el;
}

/**
 * The game of the round that `me` plays next, if his team is paired in it: game 1 until it has a
 * result, then game 2 (S3: one game of a pairing at a time).
 * @param {TournamentView} v
 * @param {string} me  an account name
 * @returns {{ team: number, table: number, pairing: { first: number, second: number }, game: GameView } | { team: number, bye: true } | null}
 */
export function myGame(v, me) {
  const team = v.teams.find((t) => t.players.includes(me))?.team;
  if (team === undefined || !v.round) return null;
  for (const t of v.round.tables) {
    if ("Bye" in t) {
      if (t.Bye.team === team) return { team, bye: true };
      continue;
    }
    const p = t.Pairing;
    if (p.first !== team && p.second !== team) continue;
    const game = p.games.find((g) => g.result === null);
    return game ? { team, table: p.table, pairing: p, game } : null;
  }
  return null;
}

/**
 * Whether match `matchId` is a game of `me`'s team in the latest round, with its result.
 * @param {TournamentView} v
 * @param {string} me  an account name
 * @param {number} matchId
 */
export function decidedGameOf(v, me, matchId) {
  const team = v.teams.find((t) => t.players.includes(me))?.team;
  if (team === undefined || !v.round) return false;
  return v.round.tables.some((t) => "Pairing" in t && (t.Pairing.first === team || t.Pairing.second === team)
    && t.Pairing.games.some((g) => g.match_id === matchId && g.result !== null));
}

/**
 * Where `me`'s team stands once both its games of the latest round are decided, if they are.
 * @param {TournamentView} v
 * @param {string} me  an account name
 * @returns {{ team: number, round: number, rank: number, of: number, points: number } | null}
 */
export function roundOver(v, me) {
  const team = v.teams.find((t) => t.players.includes(me))?.team;
  const round = v.round;
  if (team === undefined || !round) return null;
  const played = round.tables.some((t) => "Pairing" in t && (t.Pairing.first === team || t.Pairing.second === team)
    && t.Pairing.games.every((g) => g.result !== null));
  const line = v.standings.find((l) => l.team === team);
  if (!played || !line) return null;
  return { team, round: round.round, rank: line.rank, of: v.standings.length, points: line.points };
}

/**
 * 1st, 2nd, 3rd, 4th … in the page's language (`Intl.PluralRules` with `type: "ordinal"`).
 * @param {number} n
 * @param {string} [lang]
 */
export function ordinal(n, lang) {
  return tr("t.ordinal", { ordinal: n, n }, lang ?? language());
}

/**
 * The crosstable: for each team in standings order, its quarter points against each other team
 * in the same order (summed over their decided games; `null` where they have not met, and on the
 * diagonal). Built from the rounds, as the server's own crosstable is.
 * @param {TournamentView} v
 * @param {import("./codec.js").RoundView[]} rounds
 * @returns {{ team: number, cells: (number | null)[], byes: number }[]}  `byes`: the quarter
 *   points of the team's byes (a bye is 2 points), so that a row adds up to its points
 */
export function crosstable(v, rounds) {
  const order = v.standings.map((l) => l.team);
  /** @type {Map<string, number>} */
  const scored = new Map();
  /** @type {Map<number, number>} */
  const byes = new Map();
  for (const r of rounds) {
    for (const t of r.tables) {
      if ("Bye" in t) byes.set(t.Bye.team, (byes.get(t.Bye.team) ?? 0) + 8);
      if (!("Pairing" in t)) continue;
      const p = t.Pairing;
      for (const g of p.games) {
        if (!g.result) continue;
        const [a, b] = g.result.outcome === "FirstWins" ? [4, 0] : g.result.outcome === "SecondWins" ? [0, 4] : [2, 2];
        scored.set(`${p.first}:${p.second}`, (scored.get(`${p.first}:${p.second}`) ?? 0) + a);
        scored.set(`${p.second}:${p.first}`, (scored.get(`${p.second}:${p.first}`) ?? 0) + b);
      }
    }
  }
  return order.map((team) => ({ team, cells: order.map((other) => scored.get(`${team}:${other}`) ?? null), byes: byes.get(team) ?? 0 }));
}

/**
 * Minutes and seconds until `due_ms` (Unix ms), never below zero.
 * @param {number} due_ms
 * @param {number} now_ms
 */
export function countdown(due_ms, now_ms) {
  const s = Math.max(0, Math.ceil((due_ms - now_ms) / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

export class Tournaments {
  /**
   * @param {import("./codec.js").Ask} ask
   * @param {import("./codec.js").msg} msg
   * @param {() => void} show  shows the tournament's screen
   * @param {() => string | null} me  the account this page is logged in as, if any
   * @param {(matchId: number, seat: import("./seats.js").Seat) => Promise<unknown>} takeSeat
   * @param {() => number | null} [onScreen]  the match the page shows, if it shows one
   */
  constructor(ask, msg, show, me, takeSeat, onScreen = () => null) {
    this.ask = ask;
    this.msg = msg;
    this.show = show;
    this.me = me;
    this.takeSeat = takeSeat;
    this.onScreen = onScreen;
    /** The games of his whose end screen the page left for the tournament's. @type {Set<number>} */
    this.movedOn = new Set();
    // The deadline counts down while a choice is open.
    setInterval(() => {
      if (this.view && !document.getElementById("t-mine")?.hidden) this.renderMine();
    }, 1000);
    /** The tournament followed, if any. @type {number | null} */
    this.followed = null;
    /** Its latest view. @type {TournamentView | null} */
    this.view = null;
    /** What changed last (a code of the protocol), for tests and the status line. */
    this.lastChange = "";
    /** The list as last drawn. */
    this.listed = "";
    /** The server's clock minus the page's, ms, from the latest view. */
    this.skew = 0;
    /** The matches the page seated its player in by itself. @type {Set<number>} */
    this.seated = new Set();
    /** What else draws from the view at each change (the director's desk, the entry box). @type {((v: TournamentView) => void)[]} */
    this.extras = [];
    /** Every round of the followed tournament read so far, by number (the crosstable's). @type {Map<number, import("./codec.js").RoundView>} */
    this.rounds = new Map();
    $("t-refresh").addEventListener("click", () => void this.refresh());
  }

  /** Fills the lobby's list (the first page, newest first). */
  async refresh() {
    const r = await this.ask(this.msg.tournaments(null, 20));
    const list = r.ok?.TournamentPage?.tournaments;
    if (!list) return;
    // Drawn again only when it changed: a row is not replaced under a finger about to tap it.
    const key = JSON.stringify(list);
    if (key === this.listed) return;
    this.listed = key;
    const body = /** @type {HTMLTableSectionElement} */ ($("tournaments").querySelector("tbody"));
    body.replaceChildren(...list.map((/** @type {TournamentSummary} */ t) => {
      const row = document.createElement("tr");
      // A phone shows the row as a card: its clock and teams say what they are (`data-label`).
      const labelled = (/** @type {string} */ text, /** @type {string} */ label) => {
        const td = cell("td", text);
        td.dataset.label = tr(label);
        return td;
      };
      row.append(cell("td", t.name), cell("td", phaseText(t.phase)), cell("td", formatText(t)),
        labelled(t.time_control, "h.clock-col"), labelled(String(t.teams), "h.teams"), cell("td", `${t.rounds_paired}`));
      const open = cell("button", tr("t.open"));
      open.id = `t-open-${t.id}`;
      open.addEventListener("click", () => void this.follow(t.id));
      const last = document.createElement("td");
      last.append(open);
      row.append(last);
      return row;
    }));
    $("no-tournaments").hidden = list.length > 0;
  }

  /**
   * Follows tournament `id`: its state comes pushed, then every change; the page shows it
   * unless `show` is false.
   * @param {number} id
   * @param {boolean} [show]
   */
  async follow(id, show = true) {
    this.followed = id;
    const r = await this.ask(this.msg.followTournament(id));
    if (r.err) {
      this.followed = null;
      return r;
    }
    if (show) this.show();
    return r;
  }

  /** Stops following (back to the lobby). */
  async leave() {
    this.followed = null;
    this.view = null;
    this.rounds.clear();
    await this.ask(this.msg.followTournament(null));
  }

  /**
   * A new connection follows nothing: follow again what this page showed; shown again only if
   * `show` (a player on his game's screen stays there after a lost connection).
   * @param {boolean} show
   */
  async connectionChanged(show) {
    if (this.followed !== null) await this.follow(this.followed, show);
  }

  /**
   * A push: `Tournament { change, view }`.
   * @param {{ change: import("./codec.js").TourChange, view: TournamentView }} body
   */
  update(body) {
    if (body.view.summary.id !== this.followed) return;
    if (this.view?.summary.id !== body.view.summary.id) this.rounds.clear();
    this.view = body.view;
    setTeamNames(new Map(body.view.teams.map((t) => [t.team, t.name])));
    // How far the server's clock is ahead of this page's (a push is on its way for a few ms).
    this.skew = body.view.now_ms - Date.now();
    this.lastChange = typeof body.change === "string" ? body.change : Object.keys(body.change)[0];
    if (body.view.round) this.rounds.set(body.view.round.round, body.view.round);
    // A correction of an earlier round changes that round: read it again.
    const c = body.change;
    if (typeof c === "object" && "Corrected" in c && c.Corrected.round !== body.view.round?.round) this.rounds.delete(c.Corrected.round);
    // The player's game on screen has just got its result: back to the tournament's screen,
    // where his next game's S3 choice is (its window runs already) and where he is seated when
    // it is made, or where the round's standings are.
    const here = this.onScreen();
    const me = this.me();
    if (typeof c === "object" && "Result" in c && here !== null && me && !this.movedOn.has(here) && decidedGameOf(body.view, me, here)) {
      this.movedOn.add(here);
      this.show();
    }
    this.render();
    void this.readRounds();
  }

  /** Reads the rounds the crosstable still lacks (the view carries the latest only). */
  async readRounds() {
    const v = this.view;
    if (!v) return;
    for (let n = 1; n <= v.summary.rounds_paired; n++) {
      if (this.rounds.has(n)) continue;
      const r = await this.ask(this.msg.tournamentRound(v.summary.id, n));
      if (!r.ok?.TournamentRound || this.view?.summary.id !== v.summary.id) return;
      this.rounds.set(n, r.ok.TournamentRound);
    }
    this.renderCross();
  }

  /** Draws the crosstable from the rounds read. */
  renderCross() {
    const v = this.view;
    if (!v) return;
    const rows = crosstable(v, [...this.rounds.values()]);
    const rank = new Map(v.standings.map((l, i) => [l.team, i + 1]));
    /** @param {number} team */
    const name = (team) => v.teams.find((t) => t.team === team)?.name ?? tr("t.team-n", { n: team });
    const head = /** @type {HTMLTableSectionElement} */ ($("t-cross").querySelector("thead"));
    const top = document.createElement("tr");
    const byes = rows.some((r) => r.byes > 0);
    top.append(cell("th", "#"), cell("th", tr("t.team")), ...rows.map((r) => cell("th", String(rank.get(r.team)))),
      ...(byes ? [cell("th", tr("t.byes"))] : []), cell("th", tr("t.points")));
    head.replaceChildren(top);
    const body = /** @type {HTMLTableSectionElement} */ ($("t-cross").querySelector("tbody"));
    body.replaceChildren(...rows.map((r, i) => {
      const row = document.createElement("tr");
      row.append(cell("td", String(rank.get(r.team))), cell("td", name(r.team)),
        ...r.cells.map((c, j) => cell("td", i === j ? "×" : c === null ? "" : points(c), "t-cell")),
        ...(byes ? [cell("td", r.byes ? points(r.byes) : "", "t-cell")] : []),
        cell("td", points(v.standings[i].points), "t-points"));
      return row;
    }));
  }

  /** Draws the followed tournament. */
  render() {
    const v = this.view;
    if (!v) return;
    const s = v.summary;
    $("t-name").textContent = s.name;
    // A round whose games all have results is said played, not in play.
    const done = !!v.round && s.phase === "Running" && v.round.tables.every((t) => "Bye" in t || t.Pairing.games.every((g) => g.result !== null));
    const round = !v.round ? "" : s.format === "RoundRobin" ? tr(done ? "t.status-round-rr-done" : "t.status-round-rr", { round: v.round.round })
      : tr(done ? "t.status-round-done" : "t.status-round", { round: v.round.round, of: s.format.Swiss.rounds });
    const phase = s.phase === "Registering" && !v.registration_open ? "Closed" : s.phase;
    $("t-status").textContent = `${formatText(s)}, ${s.time_control}, ${tr(s.online ? "t.online" : "t.otb")} — ${phaseText(phase)}${round}`;
    /** @param {number} team */
    const name = (team) => v.teams.find((t) => t.team === team)?.name ?? tr("t.team-n", { n: team });
    const standings = /** @type {HTMLTableSectionElement} */ ($("t-standings").querySelector("tbody"));
    standings.replaceChildren(...v.standings.map((l) => {
      const row = document.createElement("tr");
      const team = v.teams.find((t) => t.team === l.team);
      row.append(cell("td", String(l.rank)), cell("td", `${name(l.team)}${l.withdrawn ? tr("t.withdrawn") : ""}`, "t-team"),
        cell("td", team ? team.players.join(", ") : ""), cell("td", points(l.points), "t-points"),
        cell("td", points(l.direct)), cell("td", points(l.buchholz)), cell("td", points(l.sonneborn_berger)),
        cell("td", String(l.wins)));
      return row;
    }));
    this.renderMine();
    this.renderCross();
    for (const draw of this.extras) draw(v);
    const tables = /** @type {HTMLTableSectionElement} */ ($("t-round").querySelector("tbody"));
    const r = v.round;
    const byHand = r?.by_hand ? officialName(r.by_hand) : null;
    const notes = r ? [byHand ? tr("t.by-hand", { who: byHand }) : "", r.absent.length ? tr("t.not-paired", { teams: r.absent.map(name).join(", ") }) : ""].filter(Boolean) : [];
    $("t-round-title").textContent = r ? `${tr("t.round", { round: r.round })}${notes.length ? ` (${notes.join("; ")})` : ""}` : tr("t.no-round");
    tables.replaceChildren(...(v.round?.tables ?? []).flatMap((/** @type {TableView} */ t) => {
      if ("Bye" in t) {
        const row = document.createElement("tr");
        row.append(cell("td", String(t.Bye.table)), cell("td", tr("t.bye", { team: name(t.Bye.team) })), cell("td", ""), cell("td", ""));
        return [row];
      }
      const p = t.Pairing;
      return p.games.map((g) => {
        const row = document.createElement("tr");
        row.append(cell("td", g.game === 1 ? String(p.table) : ""),
          cell("td", g.game === 1 ? `${name(p.first)} — ${name(p.second)}${p.repeat ? tr("t.again") : ""}` : ""),
          cell("td", g.seats ? tr("t.game-seats", { game: g.game, wa: g.seats[0], ba: g.seats[1], wb: g.seats[2], bb: g.seats[3] }) : tr("t.game", { game: g.game })),
          cell("td", gameText(g, name, p), "t-game"));
        return row;
      });
    }));
  }

  /** The player's own game: the S3 choice his team owns, its deadline, and his seat. */
  renderMine() {
    const v = this.view;
    const me = this.me();
    const box = $("t-mine");
    const mine = v && me ? myGame(v, me) : null;
    const over = v && me && !mine ? roundOver(v, me) : null;
    box.hidden = mine === null && over === null;
    /** @param {number} team */
    const name = (team) => v?.teams.find((t) => t.team === team)?.name ?? tr("t.team-n", { n: team });
    if (over) {
      box.replaceChildren(cell("p", tr("t.round-over", { round: over.round, team: name(over.team), rank: ordinal(over.rank), of: over.of, points: points(over.points) })));
      return;
    }
    if (!mine || !v) return;
    if ("bye" in mine) {
      box.replaceChildren(cell("p", tr("t.your-bye", { team: name(mine.team) })));
      return;
    }
    const g = mine.game;
    const other = mine.pairing.first === mine.team ? mine.pairing.second : mine.pairing.first;
    const parts = [cell("h3", tr("t.your-game", { table: mine.table, game: g.game, team: name(other) }))];
    /** @param {"Straight" | "Crossed" | "WhiteOnA" | "WhiteOnB"} choice */
    const choose = (choice) => {
      const b = cell("button", choiceText(choice));
      b.id = `t-choose-${choice}`;
      b.addEventListener("click", async () => {
        const r = await this.ask(this.msg.choose(v.summary.id, v.round?.round ?? 0, g.game, choice));
        if (r.err) showRefusal(r.err);
      });
      return b;
    };
    // The server's clock, from the view's: the deadline is the server's.
    const now = Date.now() + this.skew;
    const open = g.match_id === null && now < g.choices_due_ms;
    // S3 by name: the seating team's first player plays board A against the player the seating
    // gives him; its second plays board B.
    /** @param {number} team */
    const players = (team) => v.teams.find((t) => t.team === team)?.players ?? ["?", "?"];
    const [s1, s2] = players(g.seating_team);
    const [o1, o2] = players(g.colour_team);
    const seatsSaid = { s1, s2, o1, o2 };
    const mySeating = g.seating_team === mine.team;
    const myChoice = mySeating ? g.seating : g.colours;
    const theirs = mySeating ? g.colours : g.seating;
    if (myChoice === null && open) {
      if (mySeating) parts.push(cell("p", tr("t.you-seat", seatsSaid)), choose("Straight"), choose("Crossed"));
      else parts.push(cell("p", tr("t.you-colour", seatsSaid)), choose("WhiteOnA"), choose("WhiteOnB"));
    } else if (myChoice !== null) {
      // A choice not made in time is the default (S3), not the team's.
      const mine = mySeating ? g.seating_by_default : g.colours_by_default;
      const key = mySeating ? (mine ? "t.defaulted-seating" : "t.chosen-seating") : (mine ? "t.defaulted-colours" : "t.chosen-colours");
      parts.push(cell("p", tr(key, { choice: choiceText(myChoice) })));
    }
    if (theirs !== null) {
      const byDefault = mySeating ? g.colours_by_default : g.seating_by_default;
      const key = mySeating ? (byDefault ? "t.they-defaulted-colours" : "t.they-chose-colours") : (byDefault ? "t.they-defaulted-seating" : "t.they-chose-seating");
      parts.push(cell("p", tr(key, { team: name(other), choice: choiceText(theirs) })));
    }
    if (g.seating === null || g.colours === null) {
      const left = countdown(g.choices_due_ms, now);
      const due = !open ? tr("t.defaults-now") : myChoice === null ? tr("t.due", { left }) : tr("t.due-other", { team: name(other), left });
      parts.push(cell("p", due, "hint"));
    }
    const seat = g.seats ? g.seats.indexOf(me ?? "") : -1;
    if (g.match_id !== null && seat >= 0) {
      const s = SEATS[seat];
      const go = cell("button", tr("t.take-seat", { seat: seatWords(s) }));
      go.id = "t-take-seat";
      const matchId = g.match_id;
      go.addEventListener("click", () => void this.takeSeat(matchId, s));
      parts.push(go);
      // On the tournament's page when his match is made, he is seated by himself (once: if he
      // leaves the match, the button takes him back).
      if (!this.seated.has(matchId) && !$("tournament").hidden && !document.body.classList.contains("projector")) {
        this.seated.add(matchId);
        void this.takeSeat(matchId, s);
      }
    } else if (seat >= 0) {
      parts.push(cell("p", tr("t.you-play", { seat: seatWords(SEATS[seat]) })));
    }
    box.replaceChildren(...parts);
  }
}
