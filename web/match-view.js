// @ts-check
// The match screen: both boards (the player's own from his side, the partner's from the
// partner's side), the four clocks ticking between the server's readings, the controls of
// the moment (ready, draw, claims, resign, call the arbiter), the result with its reason and
// rule, and the move list. Every text comes from the catalogues (`locales/`, issue 31); a change
// of language draws the screen again.

import { language, onLanguage, t } from "./i18n.js";
import { findRule, ruleLink } from "./rules.js";
import { BoardPanel } from "./board-view.js";
import { clocksAt, clockFace, countdownLeft } from "./clocks.js";
import { touchedSquares } from "./moves.js";
import { boardPos, checkedKing, entryLabel, pauseText, phaseText, resultHeadline, resultReason, rulesText, yourTurn } from "./match-state.js";
import { matchTime } from "./review.js";
import { explanationLines } from "./explain.js";
import { seatOf } from "./say.js";
import {
  SEAT_ORDER, boardOf, boardOrder, isWhiteSeat, marked, otherBoard, partnerOf, seatIndex, seatLabel, teamLabel,
  teamOf, whiteAtBottom,
} from "./seats.js";

/** @typedef {import("./match-state.js").MatchModel} MatchModel */
/** @typedef {import("./seats.js").Seat} Seat */
/** @typedef {import("./seats.js").BoardId} BoardId */
/** @typedef {import("./board-view.js").Marks} Marks */

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
 * What the match screen asks of the page.
 * @typedef {object} MatchActions
 * @property {(message: any) => Promise<unknown>} ask  send a request; errors are shown by the page
 * @property {(matchId: number, seat: Seat) => Promise<unknown>} takeSeat
 * @property {(board: BoardId) => Marks} marks  the gestures' marks on a board
 * @property {() => string} selectedRole
 * @property {() => { board: BoardId, from: string, to: string, piece: string } | null} pending
 * @property {() => import("./codec.js").RematchView | null} rematch  the decided match's rematch offer, if heard of
 * @property {() => Reviewing | null} reviewing  the review shown instead of the live match, if any
 * @property {(k: number) => void} reviewMove  show the position after the `k`-th move of the list (from 1)
 */

/**
 * A review on the screen: its move list, the move shown (`k`, 0 for the start), the match
 * time shown and the last; why it ended as it did, if the server explained it; which game of a
 * record of several.
 * @typedef {{ list: import("./match-state.js").MoveEntry[], k: number, t: number, endMs: number,
 *   why: import("./codec.js").ExplanationView | null, game: { k: number, n: number } | null }} Reviewing
 */

/**
 * Texts of the page that `applyStatic` (i18n.js) does not write: `aria-label`s
 * (`data-i18n-aria`), the empty move list's words (`data-i18n-empty`, shown by style.css), the
 * bot levels.
 */
function applyMatchStatic() {
  for (const el of document.querySelectorAll("[data-i18n-aria]")) {
    el.setAttribute("aria-label", t(/** @type {HTMLElement} */ (el).dataset.i18nAria ?? ""));
  }
  for (const el of document.querySelectorAll("[data-i18n-empty]")) {
    /** @type {HTMLElement} */ (el).dataset.empty = t(/** @type {HTMLElement} */ (el).dataset.i18nEmpty ?? "");
  }
  for (const o of /** @type {HTMLSelectElement} */ ($("bot-level")).options) o.textContent = t("v.bot-level", { level: o.value });
}

export class MatchView {
  /**
   * @param {MatchActions} actions
   * @param {import("./codec.js").msg} msg
   */
  constructor(actions, msg) {
    this.actions = actions;
    this.msg = msg;
    /** @type {MatchModel | null} */
    this.model = null;
    /** @type {Map<BoardId, BoardPanel>} */
    this.panels = new Map([["A", new BoardPanel("A")], ["B", new BoardPanel("B")]]);
    /** @type {string} */
    this.orientation = "";
    this.shownMoves = 0;
    /** @type {unknown[] | null} the move list drawn */
    this.shownList = null;
    /** How many taken-back moves the drawn list marks. */
    this.shownTakenBack = 0;
    this.frame = 0;
    /** @type {[HTMLElement, string, string][]} the buttons pressed twice: label and question keys */
    this.confirmed = [];
    this.wire();
    applyMatchStatic();
    // After every other listener (app.js writes the fixed texts): everything again in the new language.
    onLanguage(() => queueMicrotask(() => this.relabel()));
  }

  /** Draws every text again, in the page's language now. */
  relabel() {
    applyMatchStatic();
    for (const [button, label, question] of this.confirmed) button.textContent = t(button.dataset.armed ? question : label);
    for (const panel of this.panels.values()) panel.forget();
    this.shownList = null;
    for (const id of ["flag-claims", "seat-bar"]) delete $(id).dataset.key;
    if (this.model) this.show(this.model);
  }

  wire() {
    const a = this.actions;
    const m = this.msg;
    $("ready").addEventListener("click", () => {
      const me = this.model?.yourSeat;
      if (me && this.model) a.ask(m.ready(!this.model.ready[seatIndex(me)]));
    });
    $("leave-seat").addEventListener("click", () => a.ask(m.leaveSeat()));
    $("fill-bots").addEventListener("click", () => {
      const level = Number(/** @type {HTMLSelectElement} */ ($("bot-level")).value);
      if (this.model) a.ask(m.fillWithBots(this.model.matchId, level));
    });
    $("draw-offer").addEventListener("click", () => a.ask(m.offerDraw()));
    $("draw-accept").addEventListener("click", () => a.ask(m.offerDraw()));
    $("draw-decline").addEventListener("click", () => a.ask(m.declineDraw()));
    $("claim-repetition").addEventListener("click", () => a.ask(m.claim("Repetition")));
    $("claim-fifty").addEventListener("click", () => a.ask(m.claim("FiftyMoves")));
    this.confirmTwice($("resign"), "v.resign", "v.resign-confirm", () => a.ask(m.resign()));
    $("moves").addEventListener("click", (e) => {
      const li = e.target instanceof HTMLElement ? e.target.closest("li[data-k]") : null;
      if (li instanceof HTMLElement) a.reviewMove(Number(li.dataset.k));
    });
    $("rematch").addEventListener("click", () => {
      if (this.model) a.ask(m.rematch(this.model.matchId, true));
    });
    $("rematch-decline").addEventListener("click", () => {
      if (this.model) a.ask(m.rematch(this.model.matchId, false));
    });
    // A plain call (K5), or a call asking for a replay with its reason (A5, A6).
    this.confirmTwice($("call-arbiter"), "v.call-arbiter", "v.call-arbiter-confirm", () => {
      const reason = /** @type {HTMLSelectElement} */ ($("call-reason")).value;
      a.ask(m.callArbiter(reason === "" ? null : /** @type {import("./codec.js").ReplayReason} */ (reason)));
    });
  }

  /**
   * A button that acts only when pressed twice within four seconds.
   * @param {HTMLElement} button
   * @param {string} label  the key of its words
   * @param {string} question  the key of its question, once pressed
   * @param {() => void} act
   */
  confirmTwice(button, label, question, act) {
    this.confirmed.push([button, label, question]);
    button.textContent = t(label);
    /** @type {number | undefined} */
    let timer;
    const disarm = () => {
      delete button.dataset.armed;
      button.textContent = t(label);
    };
    button.addEventListener("click", () => {
      if (button.dataset.armed) {
        window.clearTimeout(timer);
        disarm();
        act();
        return;
      }
      button.dataset.armed = "1";
      button.textContent = t(question);
      timer = window.setTimeout(disarm, 4000);
    });
  }

  /** The board panels' elements, in the page. */
  get boardsEl() {
    return $("boards");
  }

  /**
   * Shows a model (a new match, or the same one changed).
   * @param {MatchModel} model
   */
  show(model) {
    if (this.model?.matchId !== model.matchId) this.shownMoves = 0;
    this.model = model;
    const me = model.yourSeat;
    const orientation = `${me ?? "-"}`;
    if (orientation !== this.orientation) {
      this.orientation = orientation;
      const order = boardOrder(me);
      for (const b of /** @type {BoardId[]} */ (["A", "B"])) {
        this.panels.get(b)?.layout(whiteAtBottom(b, me));
      }
      const [first, second] = order.map((b) => /** @type {BoardPanel} */ (this.panels.get(b)).el);
      first.classList.add("first");
      second.classList.remove("first");
      first.classList.toggle("own", Boolean(me));
      second.classList.remove("own");
      this.boardsEl.replaceChildren(first, $("signals"), second);
    }
    this.renderHead();
    this.renderBoards();
    this.renderControls();
    this.renderMoves();
    this.tick();
    if (!this.frame) this.loop();
  }

  renderHead() {
    const m = /** @type {MatchModel} */ (this.model);
    const me = m.yourSeat;
    // Match 0 is no match: a record reviewed from its text (record-review.js).
    const tg = m.tournament;
    const title = tg
      ? t("v.title-tour", { name: tg.name, round: tg.round, table: tg.table, game: tg.game, rules: rulesText(m.rules), clock: m.timeControl })
      : t("v.title", { id: m.matchId, rules: rulesText(m.rules), clock: m.timeControl });
    $("to-tournament").hidden = !tg;
    $("match-title").textContent = m.matchId === 0
      ? t("v.record-heading", { rules: rulesText(m.rules), clock: m.timeControl || "—" })
      : `${title} · ` +
        (me ? t("v.you-play", { seat: seatLabel(me), team: teamLabel(teamOf(me)), partner: seatLabel(partnerOf(me)) }) : t("v.watching"));
    // The invitation code of a private match this page created, while it is on.
    $("invite").hidden = $("invite").dataset.match !== String(m.matchId) || m.phase === "Ended" || m.phase === "Annulled";
    const reviewing = this.actions.reviewing();
    $("phase").textContent = reviewing ? t("v.phase.review") : phaseText(m.phase);
    $("phase").dataset.phase = reviewing ? "Review" : m.phase;
    const result = $("result");
    if (m.result || m.phase === "Annulled") {
      result.hidden = false;
      /** @param {string} reason */
      const noted = (reason) => (m.arbiterNote ? t("v.note", { reason, note: m.arbiterNote }) : reason);
      let ruleId = "A2";
      if (m.result) {
        let head = resultHeadline(m.result);
        if (me && m.result.winner !== null) head = t(m.result.winner === teamOf(me) ? "v.you-win" : "v.you-lose", { head });
        $("result-head").textContent = capitalized(head);
        $("result-reason").textContent = noted(resultReason(m.result));
        ruleId = m.result.rule;
        result.dataset.rule = m.result.rule;
        result.dataset.winner = m.result.winner ?? "draw";
      } else {
        $("result-head").textContent = t("v.annulled");
        $("result-reason").textContent = noted(t("v.annulled-why"));
      }
      // The rule that decided it, linked to its text on the rules page.
      // Every rule that decided it (the server's explanation: a flag's window, the weighing of
      // E1–E9), each linked; an older server names the one.
      const rule = $("result-rule");
      const ids = m.result?.rules?.length ? m.result.rules : [ruleId];
      const drawn = `${ids.join(",")} ${language()}`;
      if (rule.dataset.drawn !== drawn) {
        rule.dataset.drawn = drawn;
        /** @type {(string | Node)[]} */
        const parts = [];
        ids.forEach((id, k) => {
          if (k > 0) parts.push(", ");
          parts.push(findRule(id) ? ruleLink(id) : id);
        });
        rule.replaceChildren(...parts);
      }
    } else {
      result.hidden = true;
    }
    this.renderRematch();
  }

  /**
   * The games of a record of several: which one the review shows.
   * @param {{ k: number, n: number } | null} game
   */
  renderGamePick(game) {
    const pick = /** @type {HTMLSelectElement} */ ($("review-game"));
    pick.hidden = !game;
    if (!game) return;
    const drawn = `${game.k}/${game.n} ${language()}`;
    if (pick.dataset.drawn === drawn) return;
    pick.dataset.drawn = drawn;
    const options = [];
    for (let k = 1; k <= game.n; k++) {
      const o = document.createElement("option");
      o.value = String(k);
      o.textContent = t("why.game", { k, n: game.n });
      o.selected = k === game.k;
      options.push(o);
    }
    pick.replaceChildren(...options);
  }

  /**
   * Why the reviewed match ended as it did (explain.js), each rule that decided it linked.
   * @param {import("./codec.js").ExplanationView | null} why
   */
  renderWhy(why) {
    const box = /** @type {HTMLDetailsElement} */ ($("review-why"));
    box.hidden = !why;
    if (!why) return;
    const drawn = `${JSON.stringify(why)} ${language()}`;
    if (box.dataset.drawn === drawn) return;
    box.dataset.drawn = drawn;
    const { lines, rules } = explanationLines(why, language());
    $("review-why-lines").replaceChildren(...lines.map((line) => {
      const li = document.createElement("li");
      li.textContent = line;
      return li;
    }));
    /** @type {(string | Node)[]} */
    const parts = [t("why.rules"), " "];
    rules.forEach((id, k) => {
      if (k > 0) parts.push(", ");
      parts.push(findRule(id) ? ruleLink(id) : id);
    });
    $("review-why-rules").replaceChildren(...(rules.length ? parts : []));
  }

  /** The rematch offer under the result: who accepted, who declined, the buttons. */
  renderRematch() {
    const m = /** @type {MatchModel} */ (this.model);
    const me = m.yourSeat;
    const over = m.phase === "Ended" || m.phase === "Annulled";
    const offer = this.actions.rematch();
    const view = offer && offer.match_id === m.matchId ? offer : null;
    // Only a match that has an offer (none for a tournament game, whose next game the
    // tournament makes) shows the rematch's buttons.
    $("rematch-bar").hidden = !me || !over || !view;
    if (!me || !over || !view) return;
    const i = seatIndex(me);
    const shown = view ? view.players.map((name, k) => marked(name, view.kinds[k])) : [];
    const declined = view ? shown.filter((_, k) => view.declined[k]) : [];
    const accepted = view ? shown.filter((_, k) => view.accepted[k]) : [];
    const mine = Boolean(view?.accepted[i]);
    /** @type {HTMLButtonElement} */ ($("rematch")).disabled = mine || declined.length > 0;
    /** @type {HTMLButtonElement} */ ($("rematch-decline")).hidden = declined.length > 0 || Boolean(view?.declined[i]);
    let text = t("v.rematch-same");
    if (declined.length) text = t("v.rematch-declined", { count: declined.length, names: declined.join(", ") });
    else if (accepted.length) text = t("v.rematch-want", { count: accepted.length, names: accepted.join(", ") });
    $("rematch-text").textContent = text;
    $("rematch").textContent = t(mine ? "v.rematch-asked" : "v.rematch");
    $("rematch-bar").dataset.accepted = String(accepted.length);
  }

  renderBoards() {
    if (!this.model) return; // nothing shown yet (a reset view)
    const m = this.model;
    const me = m.yourSeat;
    const pending = this.actions.pending();
    for (const [board, panel] of this.panels) {
      const marks = this.actions.marks(board);
      const last = m.lastMove[board];
      marks.last = last ? touchedSquares(last).own : [];
      marks.removed = m.removedOn[board];
      marks.check = checkedKing(m, board);
      marks.pending = pending && pending.board === board ? pending : null;
      panel.render(boardPos(m, board), marks);
      panel.grid.classList.toggle("own", Boolean(me && boardOf(me) === board));
      const title = t(me && boardOf(me) === board ? "v.board-yours" : me ? "v.board-partner" : "v.board", { board });
      if (panel.title.textContent !== title) panel.title.textContent = title;
      const pos = boardPos(m, board);
      for (const seat of SEAT_ORDER.filter((s) => boardOf(s) === board)) {
        const i = seatIndex(seat);
        const mine = me === seat;
        panel.renderBar(seat, {
          name: m.names[i] === null ? null : marked(m.names[i] ?? "", m.kinds[i]),
          ready: m.phase === "Forming" || m.phase === "Countdown" ? m.ready[i] : false,
          turn: (m.phase === "Running" || m.phase === "Paused") && (pos.turn === "w") === isWhiteSeat(seat),
          you: mine,
          partner: me !== null && partnerOf(me) === seat,
          reserve: pos.reserve,
          mine: mine && m.phase === "Running",
          selectedRole: mine ? this.actions.selectedRole() : "",
        });
      }
    }
  }

  renderControls() {
    const m = /** @type {MatchModel} */ (this.model);
    const me = m.yourSeat;
    const reviewing = this.actions.reviewing();
    $("review-bar").hidden = !reviewing;
    $("controls").hidden = Boolean(reviewing);
    if (reviewing) {
      for (const id of ["draw-bar", "seat-bar", "signals", "move-form"]) $(id).hidden = true;
      const time = /** @type {HTMLInputElement} */ ($("review-time"));
      time.max = String(reviewing.endMs);
      if (document.activeElement !== time) time.value = String(reviewing.t);
      const at = reviewing.k === 0 ? t("v.review-start") : t("v.review-move", { k: reviewing.k, n: reviewing.list.filter((e) => e.board && !e.takenBack).length });
      $("review-at").textContent = `${at} · ${matchTime(reviewing.t, language())}`;
      this.renderGamePick(reviewing.game);
      this.renderWhy(reviewing.why);
      return;
    }
    const forming = m.phase === "Forming" || m.phase === "Countdown";
    const playing = m.phase === "Running" || m.phase === "Paused";
    /** @param {string} id @param {boolean} visible @param {boolean} [enabled] */
    const show = (id, visible, enabled = true) => {
      const el = /** @type {HTMLButtonElement} */ ($(id));
      el.hidden = !visible;
      el.disabled = !enabled;
    };
    const ready = me ? m.ready[seatIndex(me)] : false;
    show("ready", Boolean(me) && forming);
    $("ready").textContent = t(ready ? "v.not-ready" : "v.ready");
    $("ready").classList.toggle("primary", !ready);
    show("leave-seat", Boolean(me) && m.phase === "Forming");
    $("bots-bar").hidden = !(me && m.phase === "Forming" && !m.reserved && m.names.some((n) => !n));
    const offer = m.drawOffer;
    const offerToMe = Boolean(me && offer && boardOf(offer) === boardOf(me) && offer !== me);
    show("draw-offer", Boolean(me) && playing && !offerToMe, m.phase === "Running" && offer !== me);
    $("draw-offer").textContent = t(offer === me ? "v.draw-offered" : "v.offer-draw");
    show("claim-repetition", Boolean(me) && playing, m.phase === "Running");
    show("claim-fifty", Boolean(me) && playing, m.phase === "Running");
    show("call-bar", Boolean(me) && m.phase === "Running");
    show("resign", Boolean(me) && playing);
    show("record", m.phase !== "Forming");
    // A finished match may be reviewed by its players; a match in play by its spectators.
    show("review-open", m.phase !== "Forming" && (!me || m.phase === "Ended" || m.phase === "Annulled"));
    const flags = $("flag-claims");
    const wanted = me && playing ? SEAT_ORDER.filter((s) => teamOf(s) !== teamOf(me)) : [];
    if (flags.dataset.key !== wanted.join()) {
      flags.dataset.key = wanted.join();
      flags.replaceChildren(...wanted.map((seat) => {
        const b = document.createElement("button");
        b.type = "button";
        b.id = `claim-flag-${seat}`;
        b.textContent = t("v.flag", { seat_of: seatOf(seat) });
        b.title = t("v.flag-title", { seat_of: seatOf(seat) });
        b.dataset.seat = seat;
        b.hidden = true; // shown while that clock reads zero (tick)
        b.addEventListener("click", () => this.actions.ask(this.msg.claim(this.msg.flag(seat))));
        return b;
      }));
    }
    // Draw offers to this player (one board's players agree, E3).
    const bar = $("draw-bar");
    bar.hidden = !offerToMe || !playing;
    const offerer = offer ? m.names[seatIndex(offer)] : null;
    if (offer) {
      const who = `${offerer === null || offerer === undefined ? "?" : marked(offerer, m.kinds[seatIndex(offer)])} (${seatLabel(offer)})`;
      $("draw-text").textContent = t("m.ev.draw-offered", { who });
    }
    // Empty seats one may take before the start.
    const seatBar = $("seat-bar");
    const free = m.phase === "Forming" && !me ? SEAT_ORDER.filter((s) => !m.names[seatIndex(s)]) : [];
    seatBar.hidden = free.length === 0;
    if (seatBar.dataset.key !== `${m.matchId}:${free.join()}`) {
      seatBar.dataset.key = `${m.matchId}:${free.join()}`;
      seatBar.replaceChildren(...free.map((seat) => {
        const b = document.createElement("button");
        b.type = "button";
        b.id = `sit-${seat}`;
        b.textContent = t("v.sit", { seat_of: seatOf(seat) });
        b.addEventListener("click", () => this.actions.takeSeat(m.matchId, seat));
        return b;
      }));
    }
    $("signals").hidden = !me || !playing;
    $("move-form").hidden = !me || !playing;
    const scope = /** @type {HTMLSelectElement} */ ($("chat-scope"));
    const team = /** @type {HTMLOptionElement} */ (scope.options[0]);
    team.disabled = !me;
    // Players talk to their partner by default; spectators can only talk to everyone.
    if (!me && scope.value === "Team") scope.value = "Match";
    if (me && scope.dataset.seat !== me) scope.value = "Team";
    scope.dataset.seat = me ?? "";
  }

  renderMoves() {
    const m = /** @type {MatchModel} */ (this.model);
    const list = $("moves");
    const reviewing = this.actions.reviewing();
    const entries = reviewing ? reviewing.list : m.moves;
    // A take-back marks a move already drawn: the list is drawn again.
    const takenBack = entries.reduce((n, e) => n + (e.takenBack ? 1 : 0), 0);
    if (entries.length < this.shownMoves || entries !== this.shownList || takenBack !== this.shownTakenBack) {
      this.shownTakenBack = takenBack;
      // a shorter list, or another one (rebuilt from the record): draw it again
      list.replaceChildren();
      this.shownMoves = 0;
      this.shownList = entries;
    }
    let k = list.querySelectorAll("li[data-k]").length;
    for (const entry of entries.slice(this.shownMoves)) {
      const li = document.createElement("li");
      li.textContent = entryLabel(entry);
      if (entry.takenBack) {
        // Played, then taken back by the arbiter: shown as such, not counted.
        li.dataset.board = entry.board ?? "";
        li.className = "taken-back";
      } else if (entry.board) {
        li.dataset.board = entry.board;
        // The k-th move: a click reviews the match there (when it may be reviewed).
        k += 1;
        li.dataset.k = String(k);
      } else li.className = "note";
      list.append(li);
    }
    if (entries.length !== this.shownMoves && !reviewing) list.scrollTop = list.scrollHeight;
    this.shownMoves = entries.length;
    for (const li of list.querySelectorAll("li.current")) li.classList.remove("current");
    if (reviewing && reviewing.k > 0) {
      const current = list.querySelector(`li[data-k="${reviewing.k}"]`);
      current?.classList.add("current");
      current?.scrollIntoView({ block: "nearest" });
    }
  }

  /** Draws the clocks (and the countdown) for this instant. */
  tick() {
    const m = this.model;
    if (!m) return;
    const now = performance.now();
    const clocks = clocksAt(m.clocks, now);
    for (const seat of SEAT_ORDER) {
      const i = seatIndex(seat);
      const el = /** @type {BoardPanel} */ (this.panels.get(boardOf(seat))).clockOf(seat);
      // A reviewed record that gives no clock for this seat: unknown, not a fallen flag.
      const unknown = m.clocksUnknown?.[i] ?? false;
      const face = unknown ? { text: "–:––", low: false, flagged: false } : clockFace(clocks[i]);
      if (el.textContent !== face.text) el.textContent = face.text;
      el.classList.toggle("running", m.clocks.running[i] && !unknown);
      el.classList.toggle("low", face.low && m.phase !== "Forming");
      el.classList.toggle("flagged", face.flagged || m.flagged.includes(seat));
    }
    // A flag may be claimed (K4, flag = claim) while the clock of the other team reads zero.
    for (const b of $("flag-claims").querySelectorAll("button")) {
      const seat = /** @type {Seat} */ (/** @type {HTMLElement} */ (b).dataset.seat);
      const hide = clocks[seatIndex(seat)] > 0 || m.phase !== "Running";
      if (/** @type {HTMLElement} */ (b).hidden !== hide) /** @type {HTMLElement} */ (b).hidden = hide;
    }
    const banner = $("banner");
    let text = "";
    if (m.phase === "Countdown" && m.restartBy != null) {
      text = t("v.countdown-held", { time: waitText(m.restartBy - now) });
    } else if (m.phase === "Countdown" && m.countdown) {
      const left = countdownLeft(m.countdown.startsAtMs, m.countdown.atMs, m.countdown.at, now);
      text = t("v.starting", { n: Math.ceil(left / 1000) });
    } else if (m.phase === "Paused") {
      // K6: after a restart, until when the clocks wait for the missing players.
      const by = m.restartBy == null ? "" : `, ${t("v.restart-by", { time: waitText(m.restartBy - now) })}`;
      text = m.serverPause ? `${capitalized(pauseText(m.serverPause))}${by}.` : t("v.arbiter-pause");
    } else if (m.phase === "Forming") {
      const missing = m.names.filter((n) => !n).length;
      const unready = m.ready.filter((r) => !r).length;
      text = missing ? t("v.waiting-players", { count: missing }) : unready ? t("v.waiting-ready") : "";
    } else if (m.phase === "Running" && m.yourSeat && yourTurn(m, boardOf(m.yourSeat))) {
      text = "";
    }
    if (banner.textContent !== text) banner.textContent = text;
    banner.hidden = text === "";
  }

  /** Redraws the clocks every frame while one runs, a countdown is on or a restart's wait runs (show() restarts it). */
  loop() {
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      const m = this.model;
      if (!m || document.getElementById("match")?.hidden) return;
      this.tick();
      // A restart's wait (K6) counts down on the banner too.
      if (m.clocks.running.some(Boolean) || m.phase === "Countdown" || m.restartBy != null) this.loop();
    });
  }

  /** Forgets the match (back to the lobby for good). */
  reset() {
    this.model = null;
    this.orientation = "";
    this.shownMoves = 0;
    $("moves").replaceChildren();
    /** @type {HTMLInputElement} */ ($("move-input")).value = "";
  }

  /** The other board than the viewer's (the partner's), for the removal picker. */
  otherBoard() {
    const me = this.model?.yourSeat;
    return me ? otherBoard(boardOf(me)) : "B";
  }
}

/**
 * A restart's wait left (K6), as minutes and whole seconds, counted up (`0:09`, `1:42`).
 * @param {number} ms
 */
function waitText(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/**
 * @param {string} text
 */
function capitalized(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
