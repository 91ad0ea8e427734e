// @ts-check
// Tournaments in the page (issue 30, protocol version 7): the list in the lobby, and one
// tournament followed live — its standings with every tie-break and its latest round, pairing by
// pairing, both games with their S3 choices, seats and results. The same view fills the
// projector (`?projector=ID`: no controls, large type). Everything shown is rendered from the
// server's data (codes, numbers, names), never from its text.

/** @typedef {import("./codec.js").TournamentView} TournamentView */
/** @typedef {import("./codec.js").TournamentSummary} TournamentSummary */
/** @typedef {import("./codec.js").GameView} GameView */
/** @typedef {import("./codec.js").TableView} TableView */

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
 * A score in quarter points, written as crosstables are: `2`, `1½`, `½`, `0`; quarters (only
 * Sonneborn–Berger has them) as decimals.
 * @param {number} quarters
 */
export function points(quarters) {
  const whole = Math.floor(quarters / 4);
  switch (quarters % 4) {
    case 0: return String(whole);
    case 2: return whole === 0 ? "½" : `${whole}½`;
    default: return (quarters / 4).toFixed(2);
  }
}

/** @param {TournamentSummary} s */
export function formatText(s) {
  return s.format === "RoundRobin" ? "round robin" : `Swiss, ${s.format.Swiss.rounds} rounds`;
}

/** @type {Record<string, string>} */
const PHASES = { Registering: "registration open", Running: "in play", Finished: "finished" };

/** @type {Record<string, string>} */
const CHOICES = { Straight: "straight", Crossed: "crossed", WhiteOnA: "White on A", WhiteOnB: "White on B" };

/**
 * What a game shows: its result, or where it stands.
 * @param {GameView} g
 * @param {(team: number) => string} name
 * @param {{ first: number, second: number }} p
 */
export function gameText(g, name, p) {
  if (g.result) {
    const r = g.result;
    const who = r.outcome === "Draw" ? "draw" : `${name(r.outcome === "FirstWins" ? p.first : p.second)} won`;
    const how = r.source === "Forfeit" ? " (forfeit)" : r.source === "OverTheBoard" ? " (over the board)" : "";
    // `(secret)`: entered with the server's director secret, by no account.
    const by = r.director === "(secret)" ? "the director" : r.director;
    return `${who}${how}${by ? ` — ${by}${r.note ? `: ${r.note}` : ""}` : ""}`;
  }
  if (g.match_id !== null) return `in play: match ${g.match_id}`;
  const seating = g.seating ? CHOICES[g.seating] : `${name(g.seating_team)} to choose the seating`;
  const colours = g.colours ? CHOICES[g.colours] : `${name(g.colour_team)} to choose the colours`;
  return `${seating}; ${colours}`;
}

/**
 * @param {string} tag
 * @param {string} text
 * @param {string} [cls]
 */
function cell(tag, text, cls) {
  const el = document.createElement(tag);
  el.textContent = text;
  if (cls) el.className = cls;
  return el;
}

export class Tournaments {
  /**
   * @param {import("./codec.js").Ask} ask
   * @param {import("./codec.js").msg} msg
   * @param {() => void} show  shows the tournament's screen
   */
  constructor(ask, msg, show) {
    this.ask = ask;
    this.msg = msg;
    this.show = show;
    /** The tournament followed, if any. @type {number | null} */
    this.followed = null;
    /** Its latest view. @type {TournamentView | null} */
    this.view = null;
    /** What changed last (a code of the protocol), for tests and the status line. */
    this.lastChange = "";
    /** The list as last drawn. */
    this.listed = "";
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
      row.append(cell("td", t.name), cell("td", PHASES[t.phase] ?? t.phase), cell("td", formatText(t)),
        cell("td", t.time_control), cell("td", String(t.teams)), cell("td", `${t.rounds_paired}`));
      const open = cell("button", "Open");
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
   * Follows tournament `id`: its state comes pushed, then every change.
   * @param {number} id
   */
  async follow(id) {
    this.followed = id;
    const r = await this.ask(this.msg.followTournament(id));
    if (r.err) {
      this.followed = null;
      return r;
    }
    this.show();
    return r;
  }

  /** Stops following (back to the lobby). */
  async leave() {
    this.followed = null;
    this.view = null;
    await this.ask(this.msg.followTournament(null));
  }

  /** A new connection follows nothing: follow again what this page showed. */
  async connectionChanged() {
    if (this.followed !== null) await this.follow(this.followed);
  }

  /**
   * A push: `Tournament { change, view }`.
   * @param {{ change: import("./codec.js").TourChange, view: TournamentView }} body
   */
  update(body) {
    if (body.view.summary.id !== this.followed) return;
    this.view = body.view;
    this.lastChange = typeof body.change === "string" ? body.change : Object.keys(body.change)[0];
    this.render();
  }

  /** Draws the followed tournament. */
  render() {
    const v = this.view;
    if (!v) return;
    const s = v.summary;
    $("t-name").textContent = s.name;
    const round = v.round ? `, round ${v.round.round} of ${s.format === "RoundRobin" ? "the round robin" : s.format.Swiss.rounds}` : "";
    $("t-status").textContent = `${formatText(s)}, ${s.time_control}, ${s.online ? "online" : "over the board"} — ${PHASES[s.phase] ?? s.phase}${round}`;
    /** @param {number} team */
    const name = (team) => v.teams.find((t) => t.team === team)?.name ?? `team ${team}`;
    const standings = /** @type {HTMLTableSectionElement} */ ($("t-standings").querySelector("tbody"));
    standings.replaceChildren(...v.standings.map((l) => {
      const row = document.createElement("tr");
      const team = v.teams.find((t) => t.team === l.team);
      row.append(cell("td", String(l.rank)), cell("td", `${name(l.team)}${l.withdrawn ? " (withdrawn)" : ""}`, "t-team"),
        cell("td", team ? team.players.join(", ") : ""), cell("td", points(l.points), "t-points"),
        cell("td", points(l.direct)), cell("td", points(l.buchholz)), cell("td", points(l.sonneborn_berger)),
        cell("td", String(l.wins)));
      return row;
    }));
    const tables = /** @type {HTMLTableSectionElement} */ ($("t-round").querySelector("tbody"));
    $("t-round-title").textContent = v.round ? `Round ${v.round.round}` : "No round paired yet";
    tables.replaceChildren(...(v.round?.tables ?? []).flatMap((/** @type {TableView} */ t) => {
      if ("Bye" in t) {
        const row = document.createElement("tr");
        row.append(cell("td", String(t.Bye.table)), cell("td", `${name(t.Bye.team)}: bye`), cell("td", ""), cell("td", ""));
        return [row];
      }
      const p = t.Pairing;
      return p.games.map((g) => {
        const row = document.createElement("tr");
        row.append(cell("td", g.game === 1 ? String(p.table) : ""),
          cell("td", g.game === 1 ? `${name(p.first)} — ${name(p.second)}${p.repeat ? " (again)" : ""}` : ""),
          cell("td", `game ${g.game}${g.seats ? `: ${g.seats[0]} vs ${g.seats[1]} (A), ${g.seats[2]} vs ${g.seats[3]} (B)` : ""}`),
          cell("td", gameText(g, name, p), "t-game"));
        return row;
      });
    }));
  }
}
