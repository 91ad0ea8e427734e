// @ts-check
// What the page knows of the match it follows: built from a `State` and advanced by each
// `Event` (PROTOCOL.md, session 3-4). Pure (the page's clock is passed in); tested by
// match-state.test.mjs.

import { readBfen, squareName } from "./board.js";
import { reading, restamp, stampedAt } from "./clocks.js";
import { moveLabel, moveNumber } from "./moves.js";
import { boardOf, isWhiteSeat, marked, seatIndex, seatLabel, teamLabel } from "./seats.js";
import { t } from "./i18n.js";
import { actText } from "./say.js";

/** @typedef {import("./seats.js").Seat} Seat */
/** @typedef {import("./seats.js").BoardId} BoardId */
/** @typedef {import("./seats.js").Team} Team */
/** @typedef {import("./board.js").BoardPos} BoardPos */
/** @typedef {import("./clocks.js").ClockReading} ClockReading */
/** @typedef {"Forming" | "Countdown" | "Running" | "Paused" | "Ended" | "Annulled"} Phase */
/** @typedef {import("./codec.js").PauseReason} PauseReason */

/**
 * `ResultView` of the protocol.
 * @typedef {object} ResultView
 * @property {Team | null} winner  null for a draw
 * @property {string} reason  the server's words, for logs only: the page says `cause`
 * @property {string} rule
 * @property {any} [cause]  `ResultCause` of the protocol (version 9); absent from results stored before it
 * @property {string | null} [note]  the arbiter's words on a declared result (version 12)
 * @property {string[]} [rules]  every rule that decided it, `rule` first (version 12)
 */

/**
 * @typedef {{ tournament: number, name: string, round: number, table: number, game: number, teams: string[] }} TourGameOf
 *   `TournamentGameView` of the protocol: the teams' names, the match's team 1 (on White-A) first
 */

/**
 * `MatchState` of the protocol (`ServerMsg::State`).
 * @typedef {object} StateMsg
 * @property {number} match_id
 * @property {string} rules
 * @property {string} time_control
 * @property {(string | null)[]} seats
 * @property {(import("./seats.js").PlayerKind | null)[]} kinds  beside `seats` (version 4)
 * @property {boolean[]} ready
 * @property {Phase} phase
 * @property {string} bfen
 * @property {number[]} clocks_ms
 * @property {boolean[]} running
 * @property {number | null} last_seq
 * @property {ResultView | null} result
 * @property {Seat | null} your_seat
 * @property {number} server_time_us
 * @property {{ seat: Seat, number: number, san: string }[]} [moves]  every move so far (version 3)
 * @property {boolean} [rated]  rated (version 5)
 * @property {import("./codec.js").RatingChange[]} [rating_changes]  what a decided rated match made of its players' ratings (version 5)
 * @property {{ seat: Seat, replay: import("./codec.js").ReplayReason | null } | null} [called]  the call that keeps the clocks stopped (version 12)
 * @property {number | null} [restart_by_us]  K6: while a restart's wait runs, the server time the clocks (or the countdown) start again at the latest (version 14)
 * @property {number | null} [countdown_left_ms]  K1: during the countdown, the time until the clocks start (version 14)
 * @property {{ seat: Seat, reason: "MaxBots" | "Failed" }[]} [bots_missing]  the server's bots that could not sit again after a restart (version 14)
 * @property {boolean} [reserved]  its seats are reserved for named players: no bots (version 15)
 * @property {TourGameOf | null} [tournament]  the tournament game it is (version 15)
 */

/**
 * `EventView` of the protocol: "Started", or an object with one key.
 * @typedef {"Started" | {
 *   SeatTaken?: { seat: Seat, name: string, kind: import("./seats.js").PlayerKind },
 *   SeatLeft?: { seat: Seat },
 *   Ready?: { seat: Seat, ready: boolean },
 *   CountdownStarted?: { starts_at_ms: number },
 *   Moved?: { seat: Seat, uci: string, san: string, charged_ms: number, credit_ms: number },
 *   DrawOffered?: { seat: Seat },
 *   DrawDeclined?: { seat: Seat },
 *   Claimed?: { seat: Seat, claim: "Repetition" | "FiftyMoves" | { Flag: Seat } },
 *   Resigned?: { seat: Seat },
 *   ArbiterCalled?: { seat: Seat, replay?: import("./codec.js").ReplayReason | null },
 *   FlagFell?: { seat: Seat },
 *   Arbiter?: { act: string },
 *   ArbiterActed?: { act: import("./codec.js").ArbiterRequest, text: string, by?: import("./codec.js").OfficialView | null },
 *   Ended?: ResultView,
 *   Paused?: { reason: PauseReason },
 *   Resumed?: { reason: PauseReason },
 * }} EventKind
 */

/**
 * `MatchEvent` of the protocol (`ServerMsg::Event`).
 * @typedef {object} EventMsg
 * @property {number} match_id
 * @property {number} seq
 * @property {number} at_ms
 * @property {EventKind} kind
 * @property {number[]} clocks_ms
 * @property {boolean[]} running
 * @property {string | null} bfen
 * @property {number} server_time_us
 */

/**
 * One line of the move list: a move, or an arbiter's act between moves.
 * @typedef {object} MoveEntry
 * @property {number} seq
 * @property {BoardId | null} board  null for a note that is not a move
 * @property {string} san  the SAN, or the note
 * @property {string} label  `1A. e4`, or the note (in the language of the moment it came: see `entryLabel`)
 * @property {string} uci  "" for a note
 * @property {any} [act]  an arbiter's act (`ArbiterRequest`), said in the reader's language
 * @property {string} [words]  an arbiter's act as an old server's words only
 * @property {boolean} [takenBack]  a move the arbiter took back (A2): listed as played, not
 *   counted among the moves (as the record keeps it: docs/bpgn.md)
 */

/**
 * @typedef {object} MatchModel
 * @property {number} matchId
 * @property {string} rules
 * @property {string} timeControl
 * @property {(string | null)[]} names  by seat index
 * @property {(import("./seats.js").PlayerKind | null)[]} kinds  by seat index, beside `names`
 * @property {boolean[]} ready
 * @property {Phase} phase
 * @property {string} bfen
 * @property {[BoardPos, BoardPos]} boards  A, B
 * @property {ClockReading} clocks
 * @property {number | null} lastSeq
 * @property {ResultView | null} result
 * @property {Seat | null} yourSeat
 * @property {{ A: string, B: string }} lastMove  long notation of each board's last move, "" if none
 * @property {{ A: string, B: string }} removedOn  square of each board a promotion removed a piece from
 * @property {MoveEntry[]} moves
 * @property {Seat | null} drawOffer  the seat whose draw offer stands
 * @property {Countdown | null} countdown
 * @property {Seat[]} flagged  seats whose flag fell
 * @property {string} arbiterNote  the arbiter's reason for a declared result or an annulment
 * @property {boolean[]} [clocksUnknown]  which clocks a reviewed record does not give (no
 *   `TimeControl`, no clock comments): drawn as unknown, never as a fallen flag
 * @property {PauseReason | null} serverPause  why the server stopped the clocks by itself, while
 *   they stand for that (null when they run, or an arbiter or a player stopped them)
 * @property {boolean} reserved  its seats are reserved for named players (a tournament game): no bots
 * @property {TourGameOf | null} tournament  the tournament game it is: its teams by name, team 1 first
 * @property {{ seat: Seat, reason: "MaxBots" | "Failed" }[]} botsMissing  the server's bots that
 *   could not sit again after a restart, and why
 * @property {number | null} restartBy  K6: the page time at which the clocks (or a held countdown)
 *   start again at the latest after a restart, while they wait for missing players
 */

/**
 * A countdown: the match time the clocks start, the match time of the event that announced it,
 * and the page time (`at`) at which the server announced it.
 * @typedef {{ startsAtMs: number, atMs: number, at: number, stamp?: number | null, received?: number }} Countdown
 */

const START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";

/**
 * @param {string} bfen
 * @param {[BoardPos, BoardPos] | null} fallback
 * @returns {[BoardPos, BoardPos]}
 */
function boardsOf(bfen, fallback) {
  try {
    return readBfen(bfen);
  } catch {
    return fallback ?? readBfen(`${START} | ${START}`);
  }
}

/**
 * A model from a whole state, received at page time `now`; with `offsetMs` (server ms − page
 * ms) the clocks count from the instant the server stamped the state.
 * @param {StateMsg} s
 * @param {number} now
 * @param {number | null} [offsetMs]
 * @returns {MatchModel}
 */
export function fromState(s, now, offsetMs = null) {
  return {
    matchId: s.match_id,
    rules: s.rules,
    timeControl: s.time_control,
    names: [...s.seats],
    kinds: [...(s.kinds ?? [null, null, null, null])],
    ready: [...s.ready],
    phase: s.phase,
    bfen: s.bfen,
    boards: boardsOf(s.bfen, null),
    clocks: reading(s.clocks_ms, s.running, now, s.server_time_us, offsetMs),
    lastSeq: s.last_seq,
    result: s.result,
    yourSeat: s.your_seat,
    lastMove: { A: "", B: "" },
    removedOn: { A: "", B: "" },
    // The moves before the state, from the state itself (its record's list: SAN, no long notation).
    moves: (s.moves ?? []).map((mv) => {
      const board = boardOf(mv.seat);
      const white = isWhiteSeat(mv.seat);
      return { seq: -1, board, san: mv.san, label: moveLabel(mv.number, board, white, mv.san), uci: "" };
    }),
    drawOffer: null,
    // A countdown the state tells (one held by a restart is not counting: the banner says so).
    countdown: s.phase === "Countdown" && s.countdown_left_ms != null && s.restart_by_us == null ? { startsAtMs: s.countdown_left_ms, atMs: 0, at: now } : null,
    flagged: [],
    // The arbiter's words on a declared result reach a page that opens the match later too.
    arbiterNote: s.result?.note ?? "",
    // A state sent while a restart's wait runs (K6) says so, and until when.
    serverPause: s.phase === "Paused" && s.restart_by_us != null ? "Restart" : null,
    restartBy: s.restart_by_us != null ? now + (s.restart_by_us - s.server_time_us) / 1000 : null,
    botsMissing: [...(s.bots_missing ?? [])],
    reserved: s.reserved ?? false,
    tournament: s.tournament ?? null,
  };
}

/**
 * Replaces the model's state with a newer whole state. The move list is the state's (it is
 * the match's whole list); the arbiter's notes the page saw stay. When the state is at another
 * event than the model, the marks of the last moves no longer hold.
 * @param {MatchModel | null} old
 * @param {StateMsg} s
 * @param {number} now
 * @param {number | null} [offsetMs]
 */
export function refresh(old, s, now, offsetMs = null) {
  const m = fromState(s, now, offsetMs);
  if (old && old.matchId === m.matchId) {
    if (!s.moves) m.moves = old.moves; // a server without the list: keep what was seen
    m.arbiterNote = m.arbiterNote || old.arbiterNote;
    if (old.lastSeq === m.lastSeq) {
      m.lastMove = old.lastMove;
      m.removedOn = old.removedOn;
      m.drawOffer = old.drawOffer;
      m.flagged = old.flagged;
    }
    // A server before version 14 does not tell the countdown: the page's own stays.
    if (m.phase === "Countdown" && s.countdown_left_ms == null && old.countdown) m.countdown = old.countdown;
    if (m.phase === "Paused") m.serverPause = m.serverPause ?? old.serverPause;
  }
  return m;
}

/**
 * Places the model's clock readings again on the page's clock with a newer offset.
 * @param {MatchModel} m
 * @param {number | null} offsetMs
 */
export function resync(m, offsetMs) {
  m.clocks = restamp(m.clocks, offsetMs);
  const c = m.countdown;
  if (c && typeof c.stamp === "number" && typeof offsetMs === "number") {
    c.at = Math.min(c.received ?? c.at, c.stamp - offsetMs);
  }
}

/**
 * What `applyEvent` made of an event.
 * @typedef {"applied" | "stale" | "gap" | "other-match"} Applied
 */

/**
 * Advances the model by one event received at page time `now`. Events already seen are
 * ignored ("stale"); a missing event ("gap") leaves the model as it is: the page then asks for
 * the whole state again. With `offsetMs` (server ms − page ms) the clocks count from the
 * instant the server stamped the event (`server_time_us`), not from receipt: events replayed on
 * resume carry the clocks of their own time.
 * @param {MatchModel} m
 * @param {EventMsg} e
 * @param {number} now
 * @param {number | null} [offsetMs]
 * @returns {Applied}
 */
export function applyEvent(m, e, now, offsetMs = null) {
  if (e.match_id !== m.matchId) return "other-match";
  if (m.lastSeq !== null && e.seq <= m.lastSeq) return "stale";
  if (e.seq !== (m.lastSeq === null ? 0 : m.lastSeq + 1)) return "gap";
  m.lastSeq = e.seq;
  m.clocks = reading(e.clocks_ms, e.running, now, e.server_time_us, offsetMs);
  if (e.bfen) {
    m.bfen = e.bfen;
    m.boards = boardsOf(e.bfen, m.boards);
  }
  const k = e.kind;
  const inPlay = () => (e.running.some(Boolean) ? "Running" : "Paused");
  if (k === "Started") {
    m.phase = "Running";
    m.countdown = null;
    m.serverPause = null;
    m.restartBy = null;
    return "applied";
  }
  if (k.SeatTaken) {
    m.names[seatIndex(k.SeatTaken.seat)] = k.SeatTaken.name;
    m.kinds[seatIndex(k.SeatTaken.seat)] = k.SeatTaken.kind;
  } else if (k.SeatLeft) {
    m.names[seatIndex(k.SeatLeft.seat)] = null;
    m.kinds[seatIndex(k.SeatLeft.seat)] = null;
    m.ready[seatIndex(k.SeatLeft.seat)] = false;
    if (m.yourSeat === k.SeatLeft.seat) m.yourSeat = null;
    if (m.phase === "Countdown") m.phase = "Forming";
  } else if (k.Ready) {
    m.ready[seatIndex(k.Ready.seat)] = k.Ready.ready;
    if (!k.Ready.ready && m.phase === "Countdown") {
      m.phase = "Forming";
      m.countdown = null;
    }
  } else if (k.CountdownStarted) {
    m.phase = "Countdown";
    m.countdown = {
      startsAtMs: k.CountdownStarted.starts_at_ms,
      atMs: e.at_ms,
      at: stampedAt(e.server_time_us, offsetMs, now),
      stamp: typeof e.server_time_us === "number" ? e.server_time_us / 1000 : null,
      received: now,
    };
  } else if (k.Moved) {
    const { seat, uci, san } = k.Moved;
    const board = boardOf(seat);
    const white = isWhiteSeat(seat);
    const number = moveNumber(m.boards[board === "A" ? 0 : 1].fullmove, white);
    m.moves.push({ seq: e.seq, board, san, label: moveLabel(number, board, white, san), uci });
    m.lastMove[board] = uci;
    const removal = /^[a-h][1-8][a-h][1-8][nbrq]([a-h][1-8])$/.exec(uci);
    m.removedOn[board === "A" ? "B" : "A"] = removal ? removal[1] : "";
    m.removedOn[board] = "";
    if (m.drawOffer && boardOf(m.drawOffer) === board) m.drawOffer = null;
  } else if (k.DrawOffered) m.drawOffer = k.DrawOffered.seat;
  else if (k.DrawDeclined) m.drawOffer = null;
  else if (k.ArbiterCalled) m.phase = inPlay();
  else if (k.FlagFell) m.flagged.push(k.FlagFell.seat);
  else if (k.ArbiterActed) {
    // The act as a fact: the phase and the marks follow from it; its words are only shown.
    const { act, text } = k.ArbiterActed;
    const entry = { seq: e.seq, board: null, san: `arbiter ${text}`, label: "", uci: "", act };
    entry.label = entryLabel(entry);
    m.moves.push(entry);
    if (typeof act === "object" && "DeclareResult" in act) m.arbiterNote = act.DeclareResult.reason;
    if (typeof act === "object" && "Annul" in act) {
      m.arbiterNote = act.Annul.reason;
      m.phase = "Annulled";
    } else if (m.phase === "Running" || m.phase === "Paused") m.phase = inPlay();
    if (typeof act === "object" && "TakeBack" in act) {
      // The move taken back stays in the list as played, marked.
      const board = act.TakeBack.board;
      for (let i = m.moves.length - 1; i >= 0; i -= 1) {
        if (m.moves[i].board === board && !m.moves[i].takenBack) {
          m.moves[i].takenBack = true;
          break;
        }
      }
    }
    if (typeof act === "object" && ("TakeBack" in act || "SetPosition" in act || "Replay" in act)) {
      m.lastMove = { A: "", B: "" };
      m.removedOn = { A: "", B: "" };
    }
    if (typeof act === "object" && "Replay" in act) {
      // A2, A5, A6: the game starts again from the start the event carries; the annulled
      // game's moves, flags, offer and notes go, the act stays as the list's first line.
      m.moves = [entry];
      m.flagged = [];
      m.drawOffer = null;
      m.result = null;
      m.arbiterNote = "";
      m.phase = "Countdown";
    }
  } else if (k.Arbiter) {
    // Words only (from servers before typed acts): a note in the list, nothing acted on.
    const entry = { seq: e.seq, board: null, san: `arbiter ${k.Arbiter.act}`, label: "", uci: "", words: k.Arbiter.act };
    entry.label = entryLabel(entry);
    m.moves.push(entry);
  } else if (k.Ended) {
    m.phase = "Ended";
    m.result = k.Ended;
    if (k.Ended.note) m.arbiterNote = k.Ended.note;
    m.drawOffer = null;
  } else if (k.Paused) {
    m.phase = "Paused";
    m.serverPause = k.Paused.reason;
  } else if (k.Resumed) {
    m.phase = "Running";
  }
  // Stopped for the arbiter now (or running again): no longer the server's own pause.
  if (m.phase !== "Paused" || k.ArbiterCalled || k.ArbiterActed?.act === "Pause") m.serverPause = null;
  // The restart's wait (K6) is over once play goes on (the countdown's: at `Started`).
  if (m.phase !== "Paused" && m.phase !== "Countdown") m.restartBy = null;
  return "applied";
}

/** The phases' names, by the catalogue's keys. */
const PHASE_KEY = {
  Forming: "v.phase.Forming",
  Countdown: "v.phase.Countdown",
  Running: "v.phase.Running",
  Paused: "v.phase.Paused",
  Ended: "v.phase.Ended",
  Annulled: "v.phase.Annulled",
};

/**
 * A phase's name (`in play` / «идёт игра»); a phase this page does not know, as it came.
 * @param {string} phase
 */
export function phaseText(phase) {
  const key = /** @type {Record<string, string>} */ (PHASE_KEY)[phase];
  return key ? t(key) : phase;
}

/** The rule presets' short names, by the catalogue's keys (a preset not listed shows its id). */
const RULES_KEY = /** @type {Record<string, string>} */ ({
  "mgimo-2017": "v.rules.mgimo-2017",
  classic: "v.rules.classic",
});

/**
 * A rule preset's short name (`MGIMO 2017` / «МГИМО-2017»); a preset this page does not know, by
 * its id.
 * @param {string} id
 */
export function rulesText(id) {
  return RULES_KEY[id] ? t(RULES_KEY[id]) : id;
}

/**
 * A line of the move list as the reader reads it now: a move's label (`1A. e4`, the same in
 * every language), or an arbiter's act said from its code in the page's language (an old
 * server's words as they came).
 * @param {MoveEntry} entry
 */
export function entryLabel(entry) {
  if (entry.act !== undefined) return t("m.ev.arbiter", { act: actText(entry.act) });
  if (entry.words !== undefined) return t("m.ev.arbiter", { act: entry.words });
  return entry.label;
}

// What the server reports is said by say.js, from codes (issue 31).
export { closedText, describe, elsewhereText, pauseText, resultHeadline, resultLine, resultReason, resumeText } from "./say.js";

/**
 * The side to move on a board is the viewer's: whether the viewer may move there now.
 * @param {MatchModel} m
 * @param {BoardId} board
 */
export function yourTurn(m, board) {
  const me = m.yourSeat;
  if (!me || boardOf(me) !== board || m.phase !== "Running") return false;
  return (m.boards[board === "A" ? 0 : 1].turn === "w") === isWhiteSeat(me);
}

/**
 * The position of one board.
 * @param {MatchModel} m
 * @param {BoardId} board
 */
export function boardPos(m, board) {
  return m.boards[board === "A" ? 0 : 1];
}

/**
 * The square of the king in check on `board`, "" if none. The fact comes from the server: the SAN
 * of the board's last move ends in `+` or `#` (a take-back or a set position clears the last move).
 * @param {MatchModel} m
 * @param {BoardId} board
 * @returns {string}
 */
export function checkedKing(m, board) {
  if (!m.lastMove[board]) return "";
  const last = [...m.moves].reverse().find((e) => e.board === board);
  if (!last || !/[+#]$/.test(last.san)) return "";
  const pos = boardPos(m, board);
  const index = pos.squares.indexOf(pos.turn === "w" ? "K" : "k");
  return index < 0 ? "" : squareName(index);
}
