// @ts-check
// The shvedka web client: logs in, keeps the session (session.js), follows one match at a time
// and ties the screens together: the lobby (lobby.js), the match (match-view.js, with
// board-view.js, gestures.js, chat.js) and the arbiter's panel (arbiter.js).
//
// URL options: ?name=anna enters at once; ?transport=webtransport|websocket|auto (default
// auto); ?arbiter shows the arbiter's secret field (on the log-in form and in the lobby). The
// secret itself is never read from the address: an address is kept in the history, in bookmarks
// and in the logs of every proxy it passes. One given there anyway is wiped from the address bar
// and not used.

import { msg, act, td, entry, fetchRecord, fetchReview } from "./codec.js";
import { buildReview, clocksAt as reviewClocks, modelAt, moveIndex, movesBy, pointAt } from "./review.js";
import { Session, storedSession } from "./session.js";
import { logIn, logOut } from "./login.js";
import { applyEvent, boardPos, closedText, describe, elsewhereText, refresh, resync, yourTurn } from "./match-state.js";
import { seatOf } from "./say.js";
import { MatchView } from "./match-view.js";
import { Gestures } from "./gestures.js";
import { Lobby } from "./lobby.js";
import { QuickPairing } from "./quick.js";
import { Tournaments } from "./tournament.js";
import { Desk } from "./desk.js";
import { Entry } from "./entry.js";
import { Wall } from "./wall.js";
import { LANGUAGES, applyStatic, language, onLanguage, setLanguage, t as tr } from "./i18n.js";
import { RecentMatches } from "./recent.js";
import { ReviewAnalysis } from "./analysis-view.js";
import { findingText, labeler, recordEvents, verdictText } from "./record-review.js";
import { showRules } from "./rules.js";
import { Ratings, renderChanges } from "./ratings.js";
import { Chat } from "./chat.js";
import { ArbiterPanel } from "./arbiter.js";
import { installReport } from "./report.js";
import { premoveText } from "./premove.js";
import { Sounds, moveSound } from "./sound.js";
import { clocksAt } from "./clocks.js";
import { reserveOf } from "./board.js";
import { clearError, clearLog, hideInfo, initNotice, lastErrorText, log, relabelNotice, showError, showInfo, showRefusal } from "./notice.js";
import { boardOf, isWhiteSeat, nameTeams } from "./seats.js";

/** @typedef {import("./match-state.js").MatchModel} MatchModel */
/** @typedef {import("./seats.js").BoardId} BoardId */
/** @typedef {import("./session.js").Outcome} Outcome */
/** @typedef {import("./session.js").TransportChoice} TransportChoice */

/**
 * @param {string} id
 * @returns {HTMLElement}
 */
function $(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`no #${id} in the page`);
  return el;
}

const params = new URLSearchParams(location.search);
const transport = /** @type {TransportChoice} */ (
  ["webtransport", "websocket"].includes(params.get("transport") ?? "") ? params.get("transport") : "auto"
);
let arbiterSecret = "";
const secretInAddress = (params.get("arbiter") ?? "") !== "";
if (secretInAddress) {
  params.set("arbiter", "");
  history.replaceState(null, "", `${location.pathname}?${params.toString().replace(/arbiter=(&|$)/, "arbiter$1")}${location.hash}`);
}
const LOBBY_REFRESH_MS = 4000;

/** @type {Session | null} */
let session = null;
/** The login form's account credentials, sent once the session opens (login.js). */
let credentials = /** @type {import("./login.js").Credentials | null} */ (null);
/** @type {MatchModel | null} */
let model = null;
/** @type {"login" | "lobby" | "match" | "tournament"} */
let screen = "login";
/**
 * The server's legal moves on the player's board for the position `bfen` (null: asked, not
 * known), asked under `key` (position, phase and last event: a list received while the clocks
 * stood is not the list once they run again).
 */
let legal = { bfen: "", key: "", moves: /** @type {string[] | null} */ (null) };
/** @type {((moves: string[] | null) => void)[]} waiting for the legal list of the current key */
let legalWaiters = [];
/** A Watch was sent to close a gap (or follow another match): one per gap, not one per event. */
let resyncing = false;
/** The next State shows the match screen even for the match already followed (the user asked). */
let showOnState = false;
const LEGAL_RETRY_MS = 500;
const LEGAL_WAIT_MS = 3000;
/** @type {{ board: BoardId, from: string, to: string, piece: string } | null} */
let pendingMove = null;
let turnSince = 0;
let wasMyTurn = false;
/** The rematch offer of the decided match shown, once asked about (`Rematch`). */
let rematchOffer = /** @type {import("./codec.js").RematchView | null} */ (null);
/** The decided match whose rematch offer the page listens to. */
let rematchAsked = -1;
/**
 * The review shown instead of the live match (review.js): the match's log, the point shown and
 * the match time shown; why it ended as it did (the server's explanation of its record, when
 * it has one); for a record with several games, which one and how many, with its text.
 * @type {{ r: import("./review.js").Review, i: number, t: number, why: import("./codec.js").ExplanationView | null,
 *   game: { k: number, n: number, bpgn: string, rules: string | null } | null } | null}
 */
let review = null;

/**
 * Whether the page may review the match it follows: its players once it is over, a spectator
 * at any time.
 * @param {MatchModel} m
 */
function mayReview(m) {
  return m.phase !== "Forming" && (!m.yourSeat || m.phase === "Ended" || m.phase === "Annulled");
}

/**
 * Reviews match `matchId` (followed, or only stored) at its `k`-th move (the last if none).
 * @param {number} matchId
 * @param {number} [k]
 */
async function openReview(matchId, k) {
  const r = await fetchReview(ask, matchId);
  if (r.err) return;
  const viewer = model && model.matchId === matchId ? model.yourSeat : null;
  // A match of his reviewed from the list of recent ones is drawn from his seat too.
  const built = buildReview(r.ok, r.ok.events, viewer, session?.account ? session.name : null);
  if (built.points.length === 0) {
    showError(() => tr("l.nothing-to-review", { id: matchId }));
    return;
  }
  // Another match than the one followed: its log and chat are not this one's.
  if (!model || model.matchId !== matchId) {
    clearLog();
    chat.clear();
    // Nor its teams' names: a review knows no tournament, so its teams go by number.
    nameTeams(null);
  }
  review = { r: built, i: 0, t: 0, why: null, game: null };
  showScreen("match");
  reviewGo(k === undefined ? built.points.length - 1 : moveIndex(built, k));
  // Why it ended as it did: the server explains the match's own record (a decided match only).
  /** @param {any} kind */
  const decides = (kind) => typeof kind === "object" && ("Ended" in kind
    || ("ArbiterActed" in kind && typeof kind.ArbiterActed.act === "object" && "Annul" in kind.ArbiterActed.act));
  if (r.ok.events.some((e) => decides(e.kind))) void explainStored(matchId, built);
}

/**
 * Asks the server to explain a decided match's record (its BPGN, then `ReviewRecord`'s first
 * page), and shows it under the review if that review is still the one on the screen.
 * @param {number} matchId
 * @param {import("./review.js").Review} built
 */
async function explainStored(matchId, built) {
  const text = await fetchRecord(ask, matchId);
  if (text.err) return;
  const r = await ask(msg.reviewRecord({ bpgn: text.ok, game: 1, rules: null, from: 0 }));
  const why = r.ok?.RecordReview?.explained ?? null;
  if (review && review.r === built && why) {
    review.why = why;
    render();
  }
}

/**
 * Reviews a BPGN record given as text (PROTOCOL.md item 24): the server replays and checks it,
 * page by page; the review then steps through it as through a stored match (the engine's
 * analysis included), with the check of A1 beside the moves.
 * @param {string} bpgn
 * @param {string | null} rules
 * @param {number} [game]  which game of the text, from 1
 */
async function openRecordReview(bpgn, rules, game = 1) {
  /** @type {import("./codec.js").RecordReview | null} */
  let first = null;
  /** @type {import("./codec.js").ReviewedMove[]} */
  const moves = [];
  /** @type {import("./codec.js").ReviewedAct[]} */
  const acts = [];
  for (let from = 0; ;) {
    const r = await ask(msg.reviewRecord({ bpgn, game, rules, from }));
    if (r.err) return;
    const page = r.ok?.RecordReview;
    if (!page) return;
    first ??= page;
    moves.push(...page.moves);
    acts.push(...(page.acts ?? []));
    if (page.next === null || page.next <= from) break;
    from = page.next;
  }
  if (!first) return;
  const { head, events } = recordEvents(first, moves, acts);
  const built = buildReview(head, events, null);
  const label = labeler(first, moves);
  // The check beside the moves: each finding after its move (or at the end, past the replay).
  /** @param {string} text @returns {import("./match-state.js").MoveEntry} */
  const note = (text) => ({ seq: -1, board: null, san: text, label: text, uci: "" });
  const head0 = first;
  /** @type {import("./match-state.js").MoveEntry[]} */
  const list = [note(verdictText(head0, label))];
  let k = 0;
  for (const entry of built.list) {
    list.push(entry);
    // A move played and taken back is in the list, struck through, but is not a record's move.
    if (!entry.board || entry.takenBack) continue;
    for (const f of head0.impossible.filter((f) => f.index === k)) list.push(note(findingText(f, label)));
    k += 1;
  }
  for (const f of head0.impossible.filter((f) => f.index >= k)) list.push(note(findingText(f, label)));
  built.list = list;
  review = { r: built, i: 0, t: 0, why: first.explained ?? null, game: first.games > 1 ? { k: game, n: first.games, bpgn, rules } : null };
  showScreen("match");
  reviewGo(built.points.length - 1);
}

/**
 * Shows point `i` of the review (at its own match time, or at `t`).
 * @param {number} i
 * @param {number} [t]
 */
function reviewGo(i, t) {
  if (!review) return;
  const last = review.r.points.length - 1;
  review.i = Math.max(0, Math.min(i, last));
  review.t = t ?? review.r.points[review.i].atMs;
  render();
}

/** Steps by move: -1 back, +1 on; "start" and "end". */
function reviewStep(/** @type {number | "start" | "end"} */ how) {
  if (!review) return;
  const r = review.r;
  if (how === "start") return reviewGo(r.moves[0] ?? 0);
  if (how === "end") return reviewGo(r.points.length - 1);
  const k = movesBy(r, review.i);
  // On from a move: the next move; back from between moves: this move itself.
  const here = r.moves[k] === review.i && review.t === r.points[review.i].atMs;
  const next = how > 0 ? k + 1 : here ? k - 1 : k;
  if (how > 0 && next >= r.moves.length) return reviewGo(r.points.length - 1);
  reviewGo(moveIndex(r, Math.max(0, next)));
}

function closeReview() {
  review = null;
  reviewAnalysis.show(null);
  view.shownList = null; // the live list is drawn again
  if (model) render();
  else showScreen("lobby");
}

/**
 * Sends a request; a refusal is shown with its rule, or in the words `said` gives it (the asker
 * knows what a generic code means there: a wrong invitation code's `NoSuchMatch`).
 * @param {any} message
 * @param {((err: import("./codec.js").ErrorMsg) => string | null) | null} [said]
 * @returns {Promise<Outcome>}
 */
async function ask(message, said = null) {
  if (!session) return { err: { code: "Offline", rule: null, message: tr("l.not-connected") } };
  // The user asked to follow or join a match: its state brings the match screen.
  if (message && typeof message === "object" && ("Watch" in message || "TakeSeat" in message)) showOnState = true;
  const r = await session.request(message);
  const text = r.err && said ? said(r.err) : null;
  if (text) showError(text);
  else if (r.err) showRefusal(r.err);
  else clearError();
  if (r.ok?.Rematch) rematchChanged(r.ok.Rematch);
  return r;
}

/**
 * The rematch offer changed (a reply or the server's push); a new match, once agreed, comes as
 * its own `State` (the server seats the four in it).
 * @param {import("./codec.js").RematchView} offer
 */
function rematchChanged(offer) {
  if (!model || offer.match_id !== model.matchId) return;
  rematchOffer = offer;
  render();
}

/** Once the match the player played is over, the page listens to its rematch offer. */
function listenRematch() {
  const m = model;
  if (!m?.yourSeat || !(m.phase === "Ended" || m.phase === "Annulled") || rematchAsked === m.matchId) return;
  rematchAsked = m.matchId;
  askRematch(m.matchId, 0);
}

/**
 * Asks for the decided match's rematch offer. The server opens it as the match's task ends,
 * which may come a moment after the page saw the end: a refusal then is asked again, a few
 * times, while the page is still on that match (CI: one page of four was never offered one).
 * @param {number} matchId
 * @param {number} tries
 */
function askRematch(matchId, tries) {
  void session?.request(msg.rematch(matchId, null)).then((r) => {
    if (r.ok?.Rematch) rematchChanged(r.ok.Rematch);
    else if (r.err && tries < 10 && model?.matchId === matchId && rematchOffer?.match_id !== matchId) {
      setTimeout(() => askRematch(matchId, tries + 1), 300);
    }
  });
}

/** @type {MatchView} */
const view = new MatchView(
  {
    ask,
    takeSeat,
    marks: (board) => gestures.marks(board),
    selectedRole: () => gestures.selectedRole(),
    pending: () => pendingMove,
    rematch: () => rematchOffer,
    reviewing: () => (review
      ? { list: review.r.list, k: movesBy(review.r, review.i), t: review.t, endMs: review.r.endMs, why: review.why, game: review.game ? { k: review.game.k, n: review.game.n } : null }
      : null),
    reviewMove: (k) => {
      if (review) reviewGo(moveIndex(review.r, k));
      else if (model && mayReview(model)) void openReview(model.matchId, k);
    },
  },
  msg,
);

/**
 * The review's analysis (analysis-view.js): its requests go out quietly (a busy engine is asked
 * again later, a refusal is said in the review bar, not as a notice), and may wait for the engine.
 */
const reviewAnalysis = new ReviewAnalysis(
  (req) => session ? session.request(msg.analyse(req), 30000) : Promise.resolve({ err: { code: "Offline", rule: null, message: "" } }),
  view.panels,
);

/** @type {Gestures} */
const gestures = new Gestures(view.panels, $("choice"), {
  myBoard: () => (model?.yourSeat ? boardOf(model.yourSeat) : null),
  myWhite: () => (model?.yourSeat ? isWhiteSeat(model.yourSeat) : true),
  myTurn: () => Boolean(model?.yourSeat && yourTurn(model, boardOf(model.yourSeat))),
  canPremove: () => Boolean(model?.yourSeat && model.phase === "Running"),
  held: (role) => {
    if (!model?.yourSeat) return 0;
    return reserveOf(boardPos(model, boardOf(model.yourSeat)).reserve, isWhiteSeat(model.yourSeat))[role] ?? 0;
  },
  myPos: () => (model?.yourSeat ? boardPos(model, boardOf(model.yourSeat)) : null),
  legal: () => (model && legal.bfen === model.bfen ? legal.moves : null),
  awaitLegal,
  play,
  changed: () => {
    if (model && screen === "match") view.renderBoards();
  },
});

/** The low-time warning's threshold on the player's own clock. */
const LOW_TIME_MS = 10_000;
/** @type {Record<string, number>} */
const SEAT_INDEX = { WhiteA: 0, BlackA: 1, WhiteB: 2, BlackB: 3 };
const lobby = new Lobby(ask, msg, takeSeat, () => (session?.account ? session.name : null), () => model?.matchId ?? null);
const quick = new QuickPairing(ask, msg, () => (session ? { name: session.name, account: session.account } : null));
const tournaments = new Tournaments(ask, msg, () => showScreen("tournament"), () => session?.account ? session.name : null, takeSeat,
  () => (!$("match").hidden && model && !review ? model.matchId : null));
// The page's language: its fixed texts now, and everything again when the reader changes it.
applyStatic(document);
{
  // The menu names each language in its own words; on a phone, where the header is full, by its
  // code (EN, RU), the menu still named "language" (style.css).
  const select = /** @type {HTMLSelectElement} */ ($("lang"));
  const narrow = matchMedia("(max-width: 60rem)");
  select.append(...LANGUAGES.map(([code, own]) => new Option(own, code)));
  const names = () => {
    for (const [i, [code, own]] of LANGUAGES.entries()) select.options[i].textContent = narrow.matches ? code.toUpperCase() : own;
  };
  names();
  narrow.addEventListener("change", names);
  select.value = language();
  select.addEventListener("change", () => setLanguage(select.value));
}
status(); // not connected yet: on a phone, a grey dot
if (params.has("rules")) showRules(); // ?rules#P3: the rules page, at P3 (rules.js)
onLanguage(() => {
  applyStatic(document);
  relabelNotice();
  sounds.label();
  status();
  /** @type {HTMLSelectElement} */ ($("lang")).value = language();
  tournaments.listed = "";
  void tournaments.refresh();
  if (tournaments.view) tournaments.render();
  // The lobby's lists as they were, in the new words (nothing asked again).
  if (lobby.matches) lobby.render(lobby.matches);
  quick.renderPools();
  quick.renderBar();
  if (recent.shown) recent.render(recent.shown.name, recent.shown.list);
  ratings.redraw();
  pageTitle();
  if (model) render();
});
/** The roles of the page's account (`director`, `arbiter`), as the server last said. @type {string[]} */
let roles = [];
const desk = new Desk(ask, msg, td, () => roles.includes("director"), (id) => tournaments.follow(id),
  (id, decided) => (decided ? openReview(id) : ask(msg.watch(id))));
const entryBox = new Entry(ask, msg, entry, () => session?.account ? session.name : null, () => roles.includes("director"));
tournaments.extras.push((v) => desk.render(v), (v) => entryBox.render(v));
/** On the wall: the round's live matches, one at a time (`?page=SECONDS` each, 20 by default). */
const wallPage = Number.parseInt(params.get("page") ?? "", 10);
const wall = params.has("projector")
  ? new Wall((m) => session ? session.request(m) : Promise.resolve({}), msg, () => model, Number.isSafeInteger(wallPage) && wallPage > 0 ? wallPage * 1000 : undefined)
  : null;
if (wall) tournaments.extras.push((v) => wall.update(v));
/** Shows the director's and the arbiter's controls when the session holds the role. */
function showRoles() {
  $("tc-form").hidden = !roles.includes("director");
  if (roles.includes("arbiter") && !arbiter.enabled) arbiter.enable();
  if (!roles.includes("arbiter") && arbiter.enabled && !arbiterSecret) arbiter.disable();
  if (tournaments.view) tournaments.render();
}
/** How often the page asks the server which roles the session holds: a role granted or revoked
 * after the log-in shows within this (the operator's command writes the database, which the
 * server reads at each request; nothing pushes it). */
const ROLES_EVERY_MS = 10_000;
/** Asks the server the session's roles now, and shows the controls they open. */
async function readRoles() {
  // A guest holds no role but those of secrets it presented, which the page knows itself: only an
  // account's roles can change behind its back.
  if (session?.state !== "connected" || !session.account) return;
  const r = await session.request(msg.roles());
  const now = r.ok?.Roles?.roles;
  if (!now || JSON.stringify(now) === JSON.stringify(roles)) return;
  roles = now;
  showRoles();
}
setInterval(() => void readRoles(), ROLES_EVERY_MS);
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") void readRoles();
});
/** The tournament a shared address names (`?tournament=ID`), opened once after log-in. */
const addressed = Number.parseInt(params.get("tournament") ?? "", 10);
let addressOpened = false;
/** The tournament this page is the projector of (`?projector=ID`): no controls, large type. */
const projector = Number.parseInt(params.get("projector") ?? "", 10);
if (Number.isSafeInteger(projector) && projector > 0) document.body.classList.add("projector");
$("t-back").addEventListener("click", () => {
  void tournaments.leave();
  showScreen("lobby");
});
$("refresh").addEventListener("click", () => void quick.refresh());
$("play-partner").addEventListener("click", () => {
  if (model) void quick.withPartner(model);
});
const recent = new RecentMatches(ask, msg, (id) => void openReview(id));
const ratings = new Ratings(ask, msg);
/** What a decided rated match made of its players' ratings (`Rated`, or the state's). */
let ratingChanges = /** @type {{ matchId: number, changes: import("./codec.js").RatingChange[] }} */ ({ matchId: -1, changes: [] });
const sounds = new Sounds(/** @type {HTMLButtonElement} */ ($("mute")));
/** The match whose low-time warning sounded (once per match). */
let lowTimeWarned = -1;
/** Ten seconds left on the player's own running clock: one warning a match. */
setInterval(() => {
  const m = model;
  if (!m?.yourSeat || m.phase !== "Running" || lowTimeWarned === m.matchId) return;
  const i = SEAT_INDEX[m.yourSeat];
  if (m.clocks.running[i] && clocksAt(m.clocks, performance.now())[i] <= LOW_TIME_MS) {
    lowTimeWarned = m.matchId;
    sounds.play("lowtime");
  }
}, 200);
const chat = new Chat(ask, msg.chat);
const arbiter = new ArbiterPanel(ask, msg, act, () => model);

/**
 * Takes a seat. A newcomer to the match gets its whole state (with his seat); a follower only
 * the seat event, so the page notes the seat itself once the server agreed.
 * @param {number} matchId
 * @param {import("./seats.js").Seat} seat
 */
async function takeSeat(matchId, seat) {
  // Seated there already (he looked at the tournament meanwhile): back to the board.
  if (model && model.matchId === matchId && model.yourSeat === seat) {
    showScreen("match");
    render();
    return { ok: "Ok" };
  }
  const r = await ask(msg.takeSeat(matchId, seat));
  if (r.ok && model && model.matchId === matchId) {
    model.yourSeat = seat;
    showOnState = false;
    showScreen("match");
    render();
  }
  return r;
}

/**
 * Plays a move on the player's board.
 * @param {string} text
 * @param {{ from: string, to: string, piece: string }} shown  what to draw until the answer
 */
async function play(text, shown) {
  if (!model?.yourSeat) return;
  const board = boardOf(model.yourSeat);
  pendingMove = { board, ...shown };
  render();
  const think = Math.max(0, Math.round(performance.now() - turnSince));
  await ask(msg.move(board, text, /** @type {any} */ (think)));
  pendingMove = null;
  render();
}

/** @param {"login" | "lobby" | "match" | "tournament"} next */
function showScreen(next) {
  screen = next;
  // A tournament's page has an address of its own (`?tournament=ID`): shared, it opens the
  // tournament straight after log-in. The projector's address stays as it is.
  if (!document.body.classList.contains("projector") && next !== "login") {
    const here = new URL(location.href);
    const id = next === "tournament" ? tournaments.followed : null;
    if (id !== null) here.searchParams.set("tournament", String(id));
    else here.searchParams.delete("tournament");
    if (here.href !== location.href) history.replaceState(null, "", here.href);
  }
  $("login").hidden = next !== "login";
  $("lobby").hidden = next !== "lobby";
  $("match").hidden = next !== "match";
  $("tournament").hidden = next !== "tournament";
  $("back-to-match").hidden = !model;
  if (next !== "match") reviewAnalysis.show(null);
  if (next === "lobby") {
    void lobby.refresh();
    void quick.refresh();
    void tournaments.refresh();
    // The player's own recent matches, unless another name's are shown.
    const named = /** @type {HTMLInputElement} */ ($("recent-name"));
    if (session?.state === "connected" && session.name && (!named.value || named.value === session.name)) void recent.show(session.name);
    void arbiter.refresh();
  }
}

/** The tab's title: the player's move, a decided match, or the page's name. */
function pageTitle() {
  const m = model;
  document.title = tr(m && wasMyTurn ? "l.title-move" : m?.phase === "Ended" ? "l.title-over" : "l.page-title");
}

/** Draws the match after a change (or the review shown instead). */
function render() {
  if (!model) {
    if (review && screen === "match") view.show(modelAt(review.r, review.i, review.t, performance.now()));
    reviewAnalysis.show(review && screen === "match" ? review : null);
    return;
  }
  const mine = Boolean(model.yourSeat && yourTurn(model, boardOf(model.yourSeat)));
  if (mine && !wasMyTurn) turnSince = performance.now();
  wasMyTurn = mine;
  pageTitle();
  fetchLegal();
  listenRematch();
  gestures.revalidate();
  if (screen === "match") view.show(review ? modelAt(review.r, review.i, review.t, performance.now()) : model);
  reviewAnalysis.show(review && screen === "match" ? review : null);
  renderChanges(ratingChanges.matchId === model.matchId && !review ? ratingChanges.changes : []);
  arbiter.render(model);
}

/** @param {MatchModel} m */
function legalKey(m) {
  return `${m.matchId}|${m.bfen}|${m.phase}|${m.lastSeq}`;
}

/**
 * The legal list of the current position once it is in (null if it does not come in time).
 * @param {number} [timeoutMs]
 * @returns {Promise<string[] | null>}
 */
function awaitLegal(timeoutMs = LEGAL_WAIT_MS) {
  if (model && legal.bfen === model.bfen && legal.moves) return Promise.resolve(legal.moves);
  fetchLegal();
  return new Promise((resolve) => {
    let done = false;
    /** @param {string[] | null} moves */
    const finish = (moves) => {
      if (done) return;
      done = true;
      legalWaiters = legalWaiters.filter((w) => w !== finish);
      resolve(moves);
    };
    legalWaiters.push(finish);
    setTimeout(() => finish(model && legal.bfen === model.bfen ? legal.moves : null), timeoutMs);
  });
}

/** Asks for the legal moves of the player's board when it is his turn in a new position. */
function fetchLegal() {
  const m = model;
  if (!m?.yourSeat || !session || !yourTurn(m, boardOf(m.yourSeat))) return;
  const key = legalKey(m);
  if (legal.key === key) return;
  // The same position after a pause (or a resync): the list stays good if it had moves.
  if (legal.bfen === m.bfen && legal.moves && legal.moves.length > 0) {
    legal.key = key;
    return;
  }
  const bfen = m.bfen;
  legal = { bfen, key, moves: null };
  void session.request(msg.legal(m.matchId, boardOf(m.yourSeat))).then((r) => {
    if (legal.key !== key) return;
    if (r.ok?.Legal) {
      /** @type {string[]} */
      const moves = r.ok.Legal;
      legal.moves = moves;
      if (moves.length === 0 && model?.phase !== "Running") legal.key = ""; // ask again when play resumes
      const waiters = legalWaiters;
      legalWaiters = [];
      for (const w of waiters) w(moves);
      gestures.revalidate();
      if (screen === "match" && model) view.renderBoards();
    } else {
      legal.key = ""; // ask again, after a moment
      setTimeout(() => {
        if (legal.key === "" && model && legalKey(model) === key) fetchLegal();
      }, LEGAL_RETRY_MS);
    }
  });
}

/**
 * A message the server pushed.
 * @param {string} kind
 * @param {any} body
 */
function push(kind, body) {
  const now = performance.now();
  const offset = session?.offsetMs ?? null;
  if (kind === "State") {
    resyncing = false;
    const fresh = !model || model.matchId !== body.match_id;
    const missingBefore = fresh ? [] : (model?.botsMissing ?? []);
    if (fresh) {
      // Another match: nothing of the last one stays on the screen.
      review = null;
      clearLog();
      chat.clear();
      gestures.clear(); // while the old model is still there to draw
      view.reset();
    }
    model = refresh(model, body, now, offset);
    nameTeams(model.tournament?.teams ?? null);
    if (body.rating_changes?.length) ratingChanges = { matchId: body.match_id, changes: body.rating_changes };
    // K5: a match stopped by a call says who called and why to whoever opens it (an arbiter
    // who comes in later reads it as the players did).
    if (body.called && !wall) {
      const line = describe(model, { ArbiterCalled: body.called }, null);
      if (line) {
        log(line);
        showInfo(line);
      }
    }
    // A server's bot that could not sit again after a restart is said once, with its reason.
    for (const b of model.botsMissing) {
      if (wall || missingBefore.some((o) => o.seat === b.seat && o.reason === b.reason)) continue;
      const line = tr(`m.bot-missing.${b.reason}`, { seat: seatOf(b.seat) });
      log(line);
      showInfo(line);
    }
    // The wall watches the matches it shows: it stays on the tournament.
    if ((fresh && !wall) || showOnState) showScreen("match");
    showOnState = false;
    render();
    wall?.render();
  } else if (kind === "Event") {
    if (!model) return;
    const offerBefore = model.drawOffer;
    const applied = applyEvent(model, body, now, offset);
    if (applied === "gap" || applied === "other-match") {
      if (resyncing) return; // one Watch per gap
      resyncing = true;
      const id = applied === "gap" ? model.matchId : body.match_id;
      log(applied === "gap" ? tr("l.log-gap") : tr("l.log-follow", { id }));
      void session?.request(msg.watch(id)).then((r) => {
        if (r.err) {
          resyncing = false;
          showRefusal(r.err);
        }
      });
      return;
    }
    if (applied !== "applied") return;
    const line = describe(model, body.kind, offerBefore);
    if (line) log(line);
    const k = body.kind;
    // The wall is silent: a hall does not hear every move of the match on the screen.
    if (wall) {
      wall.render();
      return;
    }
    if (k.Moved) sounds.play(moveSound(k.Moved.san));
    else if (k.Ended) sounds.play("end");
    if (k.DrawOffered || k.ArbiterCalled || k.ArbiterActed || k.Arbiter || k.Paused || k.Resumed) showInfo(line);
    else if (k.Ended || k.DrawDeclined) hideInfo(); // the banner says it now
    render();
  } else if (kind === "Chat") {
    chat.receive(body, model?.yourSeat ?? null, model?.matchId ?? null);
    const me = model?.yourSeat;
    if (body.scope === "Team" && me && body.seat && body.seat !== me && (typeof body.match_id !== "number" || body.match_id === model?.matchId)) {
      sounds.play("partner");
    }
  } else if (kind === "MatchClosed") {
    closed(body);
  } else if (kind === "ResumeElsewhere") {
    // This node let the match go: the link is dropped, and the session resumes (where the
    // page's address leads now: behind a load balancer, a live node) from the last event.
    const why = elsewhereText(body.reason, body.match_id);
    showInfo(why);
    session?.drop(why, true);
  } else if (quick.receive(kind, body)) {
    // A seek's news; the match it found comes as its own State.
  } else if (kind === "Rematch") {
    rematchChanged(body);
  } else if (kind === "SessionEnded") {
    ended(body.reason);
  } else if (kind === "Rated") {
    ratingChanges = { matchId: body.match_id, changes: body.changes };
    render();
  } else if (kind === "Tournament") {
    tournaments.update(body);
  }
}

/**
 * The server ended the session for good (`SessionEnded`: logged out elsewhere, the password
 * changed, the account disabled): nothing resumes, so the page says why and goes to the login.
 * @param {import("./codec.js").SessionEnd} reason
 */
function ended(reason) {
  const why = {
    LoggedOut: "l.ended.LoggedOut",
    PasswordChanged: "l.ended.PasswordChanged",
    AccountDisabled: "l.ended.AccountDisabled",
  }[reason] ?? "l.ended.LoggedOut";
  session?.forget();
  rememberArbiter(false);
  session = null;
  model = null;
  nameTeams(null);
  $("logout").hidden = true;
  status();
  showScreen("login");
  showError(() => tr(why));
}

/**
 * The followed match closed undecided (`MatchClosed`): the session follows no match now, so the
 * page says why and goes back to the lobby.
 * @param {import("./codec.js").MatchClosedMsg} body
 */
function closed(body) {
  const text = tr("l.closed", { id: body.match_id, why: closedText(body.reason) });
  if (!model || model.matchId !== body.match_id) {
    log(text);
    return;
  }
  model = null;
  nameTeams(null);
  resyncing = false;
  showOnState = false;
  pendingMove = null;
  legal = { bfen: "", key: "", moves: null };
  for (const w of legalWaiters.splice(0)) w(null);
  chat.clear();
  gestures.clear();
  view.reset();
  arbiter.render(null);
  pageTitle();
  showError(text);
  showScreen("lobby");
}

/**
 * The header's connection status: its state in words (`connected`), then its details (`·
 * websocket · 23 ms`), which a phone leaves out (style.css: there the state is a coloured dot,
 * or a line of its own while the page is not connected); the whole, with the last problem, is
 * the status's title.
 */
function status() {
  const s = session;
  const el = $("link");
  let state = tr("l.not-connected");
  let detail = "";
  if (s?.state === "connecting") state = tr("l.connecting");
  else if (s?.state === "lost") state = tr(s.moving ? "l.moving" : s.losses > 0 ? "l.reconnecting" : "l.unreachable");
  else if (s?.state === "refused") state = tr("l.refused", { problem: s.problem });
  else if (s) {
    state = tr(s.resumed ? "l.resumed" : "l.connected");
    detail = ` · ${s.link?.kind ?? ""}${s.rttMs !== null ? ` · ${tr("l.ms", { ms: s.rttMs })}` : ""}`;
  }
  if (el.textContent !== state + detail || !el.firstElementChild) {
    const word = document.createElement("span");
    word.className = "state";
    word.textContent = state;
    const more = document.createElement("span");
    more.className = "detail";
    more.textContent = detail;
    el.replaceChildren(word, ...(detail ? [more] : []));
  }
  if (s) el.dataset.state = s.state;
  else delete el.dataset.state;
  el.title = s?.problem && s.state !== "refused" ? `${state + detail} — ${s.problem}` : state + detail;
  $("whoami").textContent = s?.name ?? "";
  if (s?.state === "refused") {
    // A bad name or another protocol version: back to the login, to try again.
    showError(() => tr("l.refused-session", { problem: s.problem }));
    session = null;
    showScreen("login");
  }
}

/**
 * @param {boolean} resumed
 * @param {boolean} fresh
 */
async function welcome(resumed, fresh) {
  resyncing = false;
  if (credentials && session) {
    const c = credentials;
    credentials = null;
    const s = session;
    const r = await logIn(ask, c, (token, name) => s.adopt(token, name));
    roles = r.ok?.LoggedIn?.roles ?? [];
    showRoles();
    // An account with the arbiter role is an arbiter without the shared secret.
    if (r.ok?.LoggedIn?.roles?.includes("arbiter")) {
      rememberArbiter(true);
      arbiter.enable();
    }
    if (r.err) {
      // A wrong password or a taken name: back to the form, the guest session dropped.
      s.forget();
      session = null;
      showScreen("login");
      return;
    }
  }
  $("logout").hidden = !session?.account;
  // Only accounts sit in rated matches: a guest is not offered one.
  $("rated-label").hidden = !session?.account;
  if (fresh) {
    const followed = model?.matchId ?? null;
    model = null;
    nameTeams(null);
    gestures.clear();
    view.reset();
    legal = { bfen: "", key: "", moves: null };
    showInfo(() => tr("l.fresh-session"));
    // Follow the match again as a new session (a seat is taken again by the player).
    if (followed !== null) void ask(msg.watch(followed));
  }
  // A seek lives only while its connection does: a new connection has none.
  quick.connectionChanged();
  // Nor does following a tournament; the projector follows its own from the start.
  if (tournaments.followed === null && Number.isSafeInteger(projector) && projector > 0) tournaments.followed = projector;
  // A tournament's own address opens it once, straight after log-in.
  if (tournaments.followed === null && !addressOpened && Number.isSafeInteger(addressed) && addressed > 0) tournaments.followed = addressed;
  addressOpened = true;
  // A player on his game's screen stays on it; a page on the tournament (or a projector) shows it.
  void tournaments.connectionChanged(screen !== "match");
  if (resumed) log(tr("l.log-resumed"));
  if (resumed && session?.account && arbiterRemembered()) arbiter.enable();
  if (arbiterSecret && (!resumed || !arbiter.enabled)) {
    const r = await ask(msg.arbiter(arbiterSecret));
    if (r.ok) arbiter.enable();
    else arbiterSecret = "";
  }
  $("arbiter-form").hidden = !params.has("arbiter") || arbiter.enabled;
  // A resumed session logged in earlier: its roles as they are now.
  void readRoles();
  if (!model && screen !== "lobby" && tournaments.followed === null) showScreen("lobby");
  else if (model) render();
}

/** @param {string} name */
function enter(name) {
  if (session) return;
  session = new Session(name, transport, {
    welcome: (resumed, fresh) => void welcome(resumed, fresh),
    push,
    status,
    lastSeq: () => model?.lastSeq ?? null,
    matchId: () => model?.matchId ?? null,
    synced: () => {
      if (model) resync(model, session?.offsetMs ?? null);
    },
  });
  session.start();
  status();
}

const ARBITER_KEY = "shvedka.arbiter-role";
/** @param {boolean} yes  whether this tab's account has the arbiter role (kept across a reload) */
function rememberArbiter(yes) {
  try {
    if (yes) sessionStorage.setItem(ARBITER_KEY, "1");
    else sessionStorage.removeItem(ARBITER_KEY);
  } catch {
    // storage may be disabled: the role is then asked again at the next log-in
  }
}
function arbiterRemembered() {
  try {
    return sessionStorage.getItem(ARBITER_KEY) === "1";
  } catch {
    return false;
  }
}

initNotice();
if (secretInAddress) showInfo(() => tr("l.secret-in-address"));
$("arbiter-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const input = /** @type {HTMLInputElement} */ ($("arbiter-secret"));
  const secret = input.value;
  input.value = "";
  const r = await ask(msg.arbiter(secret));
  if (r.ok) {
    // Kept in memory only, to ask again for a session the server no longer knows.
    arbiterSecret = secret;
    arbiter.enable();
    $("arbiter-form").hidden = true;
  } else if (r.err) showRefusal(r.err);
});
// The arbiter's secret field is for arbiters only: shown with `?arbiter` in the address (an
// account with the arbiter role needs no secret: its log-in makes it an arbiter).
$("arbiter-login").hidden = !params.has("arbiter");
$("login-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const name = /** @type {HTMLInputElement} */ ($("name")).value.trim();
  const secret = /** @type {HTMLInputElement} */ ($("arbiter-token")).value;
  const password = /** @type {HTMLInputElement} */ ($("password")).value;
  const register = /** @type {HTMLInputElement} */ ($("register")).checked;
  if (secret) arbiterSecret = secret;
  if (!name) return;
  if (password) {
    // An account: the session opens as an unnamed guest, then logs in (login.js).
    credentials = { name, password, register };
    enter("");
  } else enter(name);
});
$("logout").addEventListener("click", async () => {
  const s = session;
  if (!s) return;
  const r = await logOut(ask, () => s.forget());
  if (r.ok) {
    rememberArbiter(false);
    roles = [];
    showRoles();
    session = null;
    model = null;
    nameTeams(null);
    $("logout").hidden = true;
    status();
    showScreen("login");
  }
});
$("to-lobby").addEventListener("click", () => showScreen("lobby"));
// A tournament game's screen links back to its tournament.
$("to-tournament").addEventListener("click", () => {
  if (model?.tournament) void tournaments.follow(model.tournament.tournament);
});
$("move-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const input = /** @type {HTMLInputElement} */ ($("move-input"));
  const text = input.value.trim();
  if (!text || !model?.yourSeat) return;
  const think = Math.max(0, Math.round(performance.now() - turnSince));
  const r = await ask(msg.move(boardOf(model.yourSeat), text, /** @type {any} */ (think)));
  if (r.ok) input.value = "";
});
$("back-to-match").addEventListener("click", () => {
  if (model) {
    showScreen("match");
    render();
  }
});
$("record").addEventListener("click", async () => {
  if (!model) return;
  const matchId = model.matchId;
  const r = await fetchRecord(ask, matchId);
  if (r.err) {
    if (r.err.code === "BadReply") showRefusal(r.err);
    return;
  }
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([r.ok], { type: "text/plain" }));
  a.download = `shvedka-match-${matchId}.bpgn`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
});
// A phone waking up: measure the server's clock again, and correct the clocks shown.
document.addEventListener("visibilitychange", () => {
  if (!document.hidden) session?.ping();
});
document.addEventListener("keydown", (e) => {
  if (e.key === "Escape") gestures.cancelPremove();
  // Stepping through a review by keys, unless typing.
  const typing = e.target instanceof HTMLElement && e.target.matches("input:not([type=range]), textarea, select");
  if (!review || screen !== "match" || typing) return;
  const step = { ArrowLeft: -1, ArrowRight: 1, Home: "start", End: "end" }[e.key];
  if (step !== undefined) {
    e.preventDefault();
    reviewStep(/** @type {number | "start" | "end"} */ (step));
  }
});
$("record-file").addEventListener("change", async (e) => {
  const file = /** @type {HTMLInputElement} */ (e.target).files?.[0];
  if (!file) return;
  if (file.size > 61440) return showError(() => tr("l.record-file-big"));
  /** @type {HTMLTextAreaElement} */ ($("record-text")).value = await file.text();
});
$("record-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const text = /** @type {HTMLTextAreaElement} */ ($("record-text")).value;
  if (!text.trim()) return showError(() => tr("l.record-empty"));
  const rules = /** @type {HTMLSelectElement} */ ($("record-rules")).value || null;
  void openRecordReview(text, rules);
});
$("review-open").addEventListener("click", () => {
  if (model) void openReview(model.matchId);
});
$("review-game").addEventListener("change", (e) => {
  const k = Number(/** @type {HTMLSelectElement} */ (e.target).value);
  if (review?.game && k !== review.game.k) void openRecordReview(review.game.bpgn, review.game.rules, k);
});
$("review-first").addEventListener("click", () => reviewStep("start"));
$("review-prev").addEventListener("click", () => reviewStep(-1));
$("review-next").addEventListener("click", () => reviewStep(1));
$("review-last").addEventListener("click", () => reviewStep("end"));
$("review-exit").addEventListener("click", () => closeReview());
$("review-time").addEventListener("input", (e) => {
  if (!review) return;
  const t = Number(/** @type {HTMLInputElement} */ (e.target).value);
  reviewGo(pointAt(review.r, t), t);
});
$("join-review").addEventListener("click", () => {
  const id = Number.parseInt(/** @type {HTMLInputElement} */ ($("join-id")).value, 10);
  if (Number.isSafeInteger(id) && id > 0) void openReview(id);
});
setInterval(() => {
  if (screen === "lobby" && session?.state === "connected" && !document.hidden) {
    void lobby.refresh();
    void quick.refresh();
    void tournaments.refresh();
  }
}, LOBBY_REFRESH_MS);

installReport(
  () => ({
    link: session?.link?.kind ?? null,
    connected: session?.state === "connected",
    resumed: session?.resumed ?? false,
    losses: session?.losses ?? 0,
    seat: model?.yourSeat ?? null,
    matchId: model?.matchId ?? null,
    phase: model?.phase ?? null,
    bfen: model?.bfen ?? null,
    moves: (model?.moves ?? []).filter((m) => m.board).map((m) => m.san),
    result: model?.result ? { ...model.result } : null,
    lastError: lastErrorText(),
    premove: premoveText(gestures.premove),
    sounds: sounds.played.slice(),
    muted: sounds.muted,
    rematch: rematchOffer ? { ...rematchOffer } : null,
    tournament: tournaments.view ? {
      id: tournaments.view.summary.id,
      change: tournaments.lastChange,
      standings: tournaments.view.standings.map((l) => ({ team: l.team, points: l.points })),
      round: tournaments.view.round?.round ?? null,
    } : null,
    review: review ? {
      matchId: review.r.matchId,
      move: movesBy(review.r, review.i),
      t: review.t,
      bfen: modelAt(review.r, review.i, review.t, 0).bfen,
      clocks: reviewClocks(review.r, review.i, review.t),
      running: review.r.points[review.i].running.slice(),
    } : null,
    analysis: reviewAnalysis.report(),
  }),
  () => session?.drop(),
);

// Enter at once with ?name=, or with the session this tab had before a reload.
const saved = storedSession();
const named = params.get("name");
if (named) enter(named);
else if (saved) enter(saved.name);
// The projector enters by itself, as a guest the server names.
else if (document.body.classList.contains("projector")) enter("");
