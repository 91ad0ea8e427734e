// @ts-check
// The projector's live boards (issue 30): on the wall (`?projector=ID`) the running round's
// matches are shown as they are played — both boards, the reserves and the four clocks — one
// match at a time, the page turning to the next live match by itself every `PAGE_MS`, since a
// round has more matches than a wall can show readably. The page follows one match at a time
// (the protocol's `Watch`), so it watches the match it shows; everything drawn comes from that
// match's state and events, as on a player's screen. Between two matches the wall shows the
// tables (projector.js): every page fits the screen whole, in the largest type that fits.

import { BoardPanel, noMarks } from "./board-view.js";
import { clockFace, clocksAt } from "./clocks.js";
import { boardPos, checkedKing } from "./match-state.js";
import { boardOf, isWhiteSeat } from "./seats.js";
import { $ } from "./tournament.js";
import { t as tr } from "./i18n.js";
import { LARGE_PX, WALL_MIN_WIDTH, fitFont, fitsWindow, nextPage } from "./projector.js";

/** @typedef {import("./codec.js").TournamentView} TournamentView */
/** @typedef {import("./match-state.js").MatchModel} MatchModel */

/** How long the wall shows one match before it turns to the next live one. */
export const PAGE_MS = 20_000;

const SEATS = /** @type {const} */ (["WhiteA", "BlackA", "WhiteB", "BlackB"]);

/**
 * The games of the latest round being played now: a match made and no result yet, in table order.
 * @param {TournamentView} v
 * @returns {{ table: number, game: number, match: number, first: number, second: number }[]}
 */
export function liveGames(v) {
  const out = [];
  for (const t of v.round?.tables ?? []) {
    if (!("Pairing" in t)) continue;
    const p = t.Pairing;
    for (const g of p.games) {
      if (g.match_id !== null && g.result === null) out.push({ table: p.table, game: g.game, match: g.match_id, first: p.first, second: p.second });
    }
  }
  return out;
}

export class Wall {
  /**
   * @param {(message: import("./codec.js").ClientMsg) => Promise<any>} request  sends without
   *   changing the page's screen
   * @param {import("./codec.js").msg} msg
   * @param {() => MatchModel | null} model  the match the page follows
   * @param {number} pageMs  how long one match shows before the next (`PAGE_MS` unless the
   *   address says `?page=SECONDS`)
   */
  constructor(request, msg, model, pageMs = PAGE_MS) {
    this.request = request;
    this.msg = msg;
    this.model = model;
    this.panels = new Map([["A", new BoardPanel("A")], ["B", new BoardPanel("B")]]);
    // As a spectator sees a match: board A with White below, board B with Black below, so the
    // partners sit side by side.
    /** @type {BoardPanel} */ (this.panels.get("B")).layout(false);
    for (const panel of this.panels.values()) {
      // The match screen's test hooks (`data-square`, `data-clock` …) stay unique in the page.
      for (const el of panel.el.querySelectorAll("[data-square], [data-board], [data-clock], [data-reserve-of]")) {
        const d = /** @type {HTMLElement} */ (el).dataset;
        for (const key of ["square", "board", "clock", "reserveOf"]) {
          if (d[key] === undefined) continue;
          d[`wall${key[0].toUpperCase()}${key.slice(1)}`] = d[key];
          delete d[key];
        }
      }
    }
    $("t-wall-boards").append(...[...this.panels.values()].map((p) => p.el));
    /** @type {ReturnType<typeof liveGames>} */
    this.live = [];
    this.index = 0;
    /** The match shown. @type {number | null} */
    this.watching = null;
    /** @type {TournamentView | null} */
    this.view = null;
    this.frame = 0;
    /** The page on the wall; none before the tournament is read. @type {import("./projector.js").WallPage | null} */
    this.page = null;
    /** Whether the tables take two pages (the standings with the crosstable, then the round). */
    this.split = false;
    /** A fit asked for the next frame. */
    this.fitting = 0;
    setInterval(() => this.turn(), pageMs);
    window.addEventListener("resize", () => this.refit());
    const tables = document.querySelector("#tournament .t-cols");
    if (tables) new MutationObserver(() => this.refit()).observe(tables, { childList: true, subtree: true, characterData: true });
  }

  /**
   * Shows `page`: a match page shows the match of `this.index`; the tables start as one page
   * and become two when one page would need type smaller than `LARGE_PX`.
   * @param {import("./projector.js").WallPage} page
   */
  setPage(page) {
    if (page === "all") this.split = false;
    this.page = page;
    if (page === "match") this.show(this.index);
    this.fit();
  }

  /** Fits the page to the screen (next frame: after the tournament's page is drawn). */
  refit() {
    if (!this.fitting) this.fitting = requestAnimationFrame(() => {
      this.fitting = 0;
      this.fit();
    });
  }

  /** Fits the page on the wall to the screen, or lets it flow on a phone. */
  fit() {
    const body = document.body;
    // A phone's layout viewport may be wider than its screen (a page wider than it): its screen says.
    if (Math.min(window.innerWidth, screen.width) < WALL_MIN_WIDTH || !this.page) {
      delete body.dataset.wall;
      body.style.fontSize = "";
      return;
    }
    body.dataset.wall = this.page;
    const px = fitFont(body, fitsWindow);
    if (this.page === "all" && px < LARGE_PX) {
      this.split = true;
      this.page = "standings";
      body.dataset.wall = this.page;
      fitFont(body, fitsWindow);
    }
  }

  /**
   * The tournament changed: which matches are live now.
   * @param {TournamentView} v
   */
  update(v) {
    this.view = v;
    this.live = liveGames(v);
    $("t-wall").hidden = this.live.length === 0;
    document.body.classList.toggle("wall-live", this.live.length > 0);
    if (this.live.length === 0) {
      this.watching = null;
      if (this.page === null || this.page === "match") this.setPage("all");
      return;
    }
    const at = this.live.findIndex((g) => g.match === this.watching);
    if (at >= 0) this.index = at;
    else {
      this.index = Math.min(this.index, this.live.length - 1);
      if (this.page === "match") this.show(this.index);
    }
    if (this.page === null) this.setPage("match");
  }

  /** Turns to the next page (by itself, every `PAGE_MS`): after the tables, the next live match. */
  turn() {
    const next = nextPage(this.page, this.live.length > 0, this.split);
    if (next === "match" && this.page !== null) this.index = (this.index + 1) % this.live.length;
    this.setPage(next === "standings" && this.page === "match" ? "all" : next);
  }

  /** @param {number} i */
  show(i) {
    this.index = i;
    const g = this.live[i];
    if (!g) return;
    this.watching = g.match;
    const v = this.view;
    /** @param {number} team */
    const name = (team) => v?.teams.find((t) => t.team === team)?.name ?? tr("t.team-n", { n: team });
    $("t-wall-title").textContent = tr("w.title", { table: g.table, game: g.game, first: name(g.first), second: name(g.second) })
      + (this.live.length > 1 ? ` ${tr("w.of-live", { n: i + 1, count: this.live.length })}` : "");
    void this.request(this.msg.watch(g.match));
  }

  /** Draws the match shown from the page's model (after its state and each event). */
  render() {
    const m = this.model();
    if (!m || m.matchId !== this.watching || $("t-wall").hidden) return;
    for (const [board, panel] of this.panels) {
      const marks = noMarks();
      marks.check = checkedKing(m, /** @type {"A" | "B"} */ (board));
      const pos = boardPos(m, /** @type {"A" | "B"} */ (board));
      panel.render(pos, marks);
      panel.title.textContent = tr("w.board", { board });
      for (const seat of SEATS.filter((s) => boardOf(s) === board)) {
        const i = SEATS.indexOf(seat);
        panel.renderBar(seat, {
          name: m.names[i] ?? null, ready: false, you: false, partner: false, mine: false, selectedRole: "",
          turn: m.phase === "Running" && (pos.turn === "w") === isWhiteSeat(seat),
          reserve: pos.reserve,
        });
      }
    }
    this.tick();
    if (!this.frame) this.loop();
    this.refit();
  }

  /** The four clocks now. */
  tick() {
    const m = this.model();
    if (!m || m.matchId !== this.watching) return;
    const clocks = clocksAt(m.clocks, performance.now());
    for (const [i, seat] of SEATS.entries()) {
      const el = /** @type {BoardPanel} */ (this.panels.get(boardOf(seat))).clockOf(seat);
      const face = clockFace(clocks[i]);
      if (el.textContent !== face.text) el.textContent = face.text;
      el.classList.toggle("running", m.clocks.running[i]);
      el.classList.toggle("low", face.low);
    }
  }

  /** Redraws the clocks every frame while one runs. */
  loop() {
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      const m = this.model();
      if (!m || m.matchId !== this.watching || $("t-wall").hidden) return;
      this.tick();
      if (m.clocks.running.some(Boolean)) this.loop();
    });
  }
}
