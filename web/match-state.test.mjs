// The page's match model: a State, then Events (PROTOCOL.md, session 3-4), as a real server
// sent them.
import { setLanguage } from "./i18n.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import { applyEvent, boardPos, checkedKing, closedText, describe, entryLabel, fromState, pauseText, phaseText, refresh, resultHeadline, resultLine, resultReason, resumeText, resync, yourTurn } from "./match-state.js";
import { clocksAt, countdownLeft } from "./clocks.js";

const START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";
const C = [180000, 180000, 180000, 180000];
const state = (over = {}) => ({
  match_id: 2, rules: "mgimo-2017", time_control: "3+0", seats: ["wa", null, null, null],
  ready: [false, false, false, false], phase: "Forming", bfen: `${START} | ${START}`, clocks_ms: C,
  running: [false, false, false, false], last_seq: 0, result: null, your_seat: "WhiteA", server_time_us: 1,
  ...over,
});
let seq = 0;
const ev = (kind, over = {}) => ({
  match_id: 2, seq: ++seq, at_ms: 100 * seq, kind, clocks_ms: C, running: [false, false, false, false],
  bfen: null, server_time_us: seq, ...over,
});

test("a_match_from_forming_to_mate_on_board", () => {
  seq = 0;
  const m = fromState(state(), 0);
  assert.equal(m.yourSeat, "WhiteA");
  assert.equal(applyEvent(m, ev({ SeatTaken: { seat: "BlackA", name: "ba" } }), 1), "applied");
  assert.deepEqual(m.names, ["wa", "ba", null, null]);
  applyEvent(m, ev({ Ready: { seat: "WhiteA", ready: true } }), 2);
  assert.deepEqual(m.ready, [true, false, false, false]);
  applyEvent(m, ev({ CountdownStarted: { starts_at_ms: 3500 } }), 3);
  assert.equal(m.phase, "Countdown");
  assert.deepEqual(m.countdown, { startsAtMs: 3500, atMs: 300, at: 3, stamp: 0.003, received: 3 });
  applyEvent(m, ev("Started", { running: [true, false, true, false] }), 4);
  assert.equal(m.phase, "Running");
  assert.equal(yourTurn(m, "A"), true);
  assert.equal(yourTurn(m, "B"), false, "not his board");
  const afterE4 = `${START} | rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[] b KQkq - 0 1`;
  applyEvent(m, ev({ Moved: { seat: "WhiteB", uci: "e2e4", san: "e4", charged_ms: 5, credit_ms: 0 } },
    { bfen: afterE4, clocks_ms: [179000, 180000, 179000, 180000], running: [true, false, false, true] }), 5);
  assert.equal(boardPos(m, "B").turn, "b");
  assert.deepEqual(m.clocks, { clocks_ms: [179000, 180000, 179000, 180000], running: [true, false, false, true], at: 5, stamp: 0.005, received: 5 });
  assert.deepEqual(m.moves.map((x) => x.label), ["1B. e4"]);
  assert.equal(m.lastMove.B, "e2e4");
  // A promotion on B removing White-A's knight from b1 of board A (R1).
  applyEvent(m, ev({ Moved: { seat: "WhiteB", uci: "b7a8nb1", san: "bxa8=Nb1", charged_ms: 5, credit_ms: 0 } },
    { bfen: `${START} | ${START.replace(" w ", " b ").replace(" 0 1", " 0 5")}` }), 6);
  assert.equal(m.removedOn.A, "b1");
  assert.equal(m.moves.at(-1)?.label, "5B. bxa8=Nb1");
  applyEvent(m, ev({ DrawOffered: { seat: "BlackA" } }), 7);
  assert.equal(m.drawOffer, "BlackA");
  assert.match(describe(m, { DrawOffered: { seat: "BlackA" } }), /^ba \(black-A\) offers a draw$/);
  // The other side's offer on the same board standing, an offer is its acceptance (E3); an offer
  // standing on the other board, or one's own, is not.
  assert.match(describe(m, { DrawOffered: { seat: "WhiteA" } }, "BlackA"), /^.* \(white-A\) accepts the draw$/);
  assert.match(describe(m, { DrawOffered: { seat: "WhiteA" } }, "BlackB"), /offers a draw$/);
  assert.match(describe(m, { DrawOffered: { seat: "BlackA" } }, "BlackA"), /offers a draw$/);
  applyEvent(m, ev({ DrawDeclined: { seat: "WhiteA" } }), 8);
  assert.equal(m.drawOffer, null);
  applyEvent(m, ev({ ArbiterActed: { act: "Pause", text: "paused the clocks" } }), 9);
  assert.equal(m.phase, "Paused");
  // The arbiter's act in the list is said from its code, not the server's words, in the reader's language.
  assert.equal(m.moves.at(-1)?.label, "arbiter: stopped the clocks");
  setLanguage("ru");
  assert.equal(entryLabel(/** @type {any} */ (m.moves.at(-1))), "судья: остановил часы", "drawn again in Russian");
  assert.equal(entryLabel(m.moves[0]), "1B. e4", "a move's label is the same in every language");
  setLanguage("en");
  applyEvent(m, ev({ ArbiterActed: { act: "Resume", text: "restarted the clocks" } }, { running: [true, false, true, false] }), 10);
  assert.equal(m.phase, "Running");
  applyEvent(m, ev({ ArbiterActed: { act: { DeclareResult: { winner: "One", reason: "team 1 left\nthe hall" } }, text: "declared the result: team 1 left\nthe hall" } }), 10.5);
  assert.equal(m.arbiterNote, "team 1 left\nthe hall", "the reason from the act, not parsed from its words");
  const result = { winner: "Two", reason: "server's words", rule: "E1", cause: { MateOnBoard: { seat: "BlackA" } } };
  applyEvent(m, ev({ Ended: result }), 11);
  assert.equal(m.phase, "Ended");
  assert.deepEqual(m.result, result);
  assert.equal(yourTurn(m, "A"), false);
  assert.equal(resultHeadline(result), "team 2 wins");
  assert.equal(resultReason(result), "mate on board by black-A");
  assert.equal(resultLine(result), "team 2 wins: mate on board by black-A (E1)");
  const repetition = { winner: null, reason: "server's words", rule: "E4", cause: { BoardDrawn: { board: "B", how: "Repetition" } } };
  assert.equal(resultLine(repetition), "draw: the same position three times on board B (E4)");
  // A result stored before causes were sent names its rule.
  assert.equal(resultLine({ winner: "One", reason: "server's words", rule: "E10" }), "team 1 wins: by rule E10 (E10)");
  setLanguage("ru");
  assert.equal(resultLine(result), "победила команда 2 — чёрные A поставили мат на доске (E1)");
  assert.equal(resultLine(repetition), "ничья — троекратное повторение позиции на доске B (E4)");
  setLanguage("en");
});

test("events_seen_twice_other_matches_and_gaps", () => {
  seq = 0;
  const m = fromState(state({ last_seq: 3 }), 0);
  seq = 3;
  assert.equal(applyEvent(m, { ...ev({ SeatLeft: { seat: "WhiteA" } }), seq: 2 }, 1), "stale");
  assert.equal(applyEvent(m, { ...ev("Started"), match_id: 9 }, 1), "other-match");
  assert.equal(applyEvent(m, { ...ev("Started"), seq: 6 }, 1), "gap");
  assert.equal(m.lastSeq, 3, "a gap changes nothing");
  assert.equal(applyEvent(m, { ...ev({ SeatLeft: { seat: "WhiteA" } }), seq: 4 }, 1), "applied");
  assert.equal(m.yourSeat, null, "he stood up");
  const fresh = fromState(state({ last_seq: null }), 0);
  assert.equal(applyEvent(fresh, { ...ev("Started"), seq: 0 }, 1), "applied");
});

test("a_whole_state_after_a_long_absence_keeps_the_move_list", () => {
  seq = 0;
  const m = fromState(state({ phase: "Running", running: [true, false, true, false] }), 0);
  applyEvent(m, ev({ Moved: { seat: "WhiteA", uci: "a2a3", san: "a3", charged_ms: 1, credit_ms: 0 } },
    { bfen: `rnbqkbnr/pppppppp/8/8/8/P7/1PPPPPPP/RNBQKBNR[] b KQkq - 0 1 | ${START}` }), 1);
  const again = refresh(m, state({ phase: "Running", last_seq: 300 }), 2);
  assert.deepEqual(again.moves.map((x) => x.san), ["a3"]);
  assert.equal(again.lastSeq, 300);
  const other = refresh(m, state({ match_id: 3 }), 2);
  assert.deepEqual(other.moves, []);
  // A position the page cannot read keeps the last one.
  assert.equal(fromState(state({ bfen: "x" }), 0).boards[0].squares.length, 64);
});

test("k1_replayed_events_count_from_their_server_stamp_not_from_receipt", () => {
  seq = 0;
  // Offset: server ms − page ms = 1000 (server clock 1 s ahead of the page's).
  const offset = 1000;
  const m = fromState(state({ phase: "Running", running: [true, false, true, false], last_seq: 0, server_time_us: 2_000_000 }), 1000, offset);
  assert.equal(m.clocks.at, 1000, "the state was stamped at page time 1000");
  // On resume at page time 60000 an event stamped at server 11 s (page 10000) is replayed.
  applyEvent(m, ev({ ArbiterActed: { act: "Pause", text: "paused the clocks" } }, {
    clocks_ms: [170000, 180000, 170000, 180000], running: [true, false, true, false], server_time_us: 11_000_000,
  }), 60000, offset);
  assert.equal(m.clocks.at, 10000);
  assert.deepEqual(clocksAt(m.clocks, 60000), [120000, 180000, 120000, 180000], "50 s ran since the event");
  // Without an offset (not yet measured) the receipt counts.
  applyEvent(m, ev({ DrawOffered: { seat: "WhiteA" } }, { clocks_ms: C, running: [true, false, true, false], server_time_us: 1 }), 70000, null);
  assert.equal(m.clocks.at, 70000);
  // A stamp that would lie after receipt (a bad estimate) is held at receipt.
  applyEvent(m, ev({ DrawDeclined: { seat: "BlackA" } }, { server_time_us: 99_000_000 }), 71000, offset);
  assert.equal(m.clocks.at, 71000);
});

test("k1_countdown_from_the_server_stamp_and_resync_after_sleep", () => {
  seq = 0;
  const m = fromState(state(), 0, 0);
  applyEvent(m, ev({ CountdownStarted: { starts_at_ms: 3300 } }, { server_time_us: 5_000_000 }), 5500, 0);
  // at_ms 100: 3200 ms of countdown from page time 5000.
  assert.equal(m.countdown?.at, 5000);
  assert.equal(countdownLeft(m.countdown.startsAtMs, m.countdown.atMs, m.countdown.at, 6000), 2200);
  // A state in the countdown keeps the banner.
  const again = refresh(m, state({ phase: "Countdown", last_seq: m.lastSeq }), 6000, 0);
  assert.deepEqual(again.countdown, m.countdown);
  // The page's clock stood still 2 s (a phone asleep): the new offset is 2000 more.
  applyEvent(m, ev({ Ready: { seat: "WhiteA", ready: true } }, { running: [true, false, true, false], server_time_us: 6_000_000 }), 6000, 0);
  resync(m, 2000);
  assert.equal(m.clocks.at, 4000);
  assert.equal(m.countdown?.at, 3000);
});

test("a_state_carries_the_move_list_and_a_state_at_another_event_clears_marks", () => {
  seq = 0;
  const m = fromState(state({ phase: "Running", running: [true, false, true, false] }), 0);
  applyEvent(m, ev({ Moved: { seat: "WhiteA", uci: "a2a3", san: "a3", charged_ms: 1, credit_ms: 0 } },
    { bfen: `rnbqkbnr/pppppppp/8/8/8/P7/1PPPPPPP/RNBQKBNR[] b KQkq - 0 1 | ${START}` }), 1);
  assert.equal(m.lastMove.A, "a2a3");
  // A whole state later (a long absence): its list is the match's list, the marks are gone.
  const moves = [{ seat: "WhiteA", number: 1, san: "a3" }, { seat: "WhiteB", number: 1, san: "d4" }, { seat: "BlackA", number: 1, san: "h6" }];
  const again = refresh(m, state({ phase: "Running", last_seq: 300, moves }), 2);
  assert.deepEqual(again.lastMove, { A: "", B: "" });
  assert.deepEqual(again.removedOn, { A: "", B: "" });
  assert.deepEqual(again.moves.map((x) => x.label), ["1A. a3", "1B. d4", "1a. h6"]);
  // Events after the state add to it.
  seq = 300;
  applyEvent(again, ev({ Moved: { seat: "WhiteB", uci: "e2e4", san: "e4", charged_ms: 1, credit_ms: 0 } }), 4);
  assert.deepEqual(again.moves.map((x) => x.san), ["a3", "d4", "h6", "e4"]);
  // A new match joined late: the state's list alone, no record asked for.
  const late = fromState(state({ phase: "Running", last_seq: 300, moves: moves.slice(0, 1) }), 0);
  assert.deepEqual(late.moves.map((x) => x.label), ["1A. a3"]);
});

test("the_server_pauses_for_its_storage_and_resumes_with_the_clocks_of_the_event", () => {
  seq = 0;
  const running = [true, false, false, true];
  const m = fromState(state({ phase: "Running", running, last_seq: 0 }), 0);
  assert.equal(m.serverPause, null);
  assert.equal(applyEvent(m, ev({ Paused: { reason: "Storage" } }, { clocks_ms: [170000, 175000, 171000, 176000] }), 10), "applied");
  assert.equal(m.phase, "Paused");
  assert.equal(m.serverPause, "Storage");
  assert.deepEqual(m.clocks.running, [false, false, false, false]);
  assert.deepEqual(m.clocks.clocks_ms, [170000, 175000, 171000, 176000]);
  assert.equal(yourTurn(m, "A"), false, "no move while the clocks stand");
  assert.equal(describe(m, { Paused: { reason: "Storage" } }), "clocks stopped: the server's storage is failing — they restart when it recovers");
  // A whole state while paused (a resume) keeps the reason.
  const again = refresh(m, state({ phase: "Paused", last_seq: m.lastSeq }), 11);
  assert.equal(again.serverPause, "Storage");
  assert.equal(applyEvent(again, ev({ Resumed: { reason: "Storage" } }, { running }), 20), "applied");
  assert.equal(again.phase, "Running");
  assert.equal(again.serverPause, null);
  assert.deepEqual(again.clocks.running, running);
  assert.equal(again.clocks.at, 20);
  assert.equal(describe(again, { Resumed: { reason: "Storage" } }), "clocks restarted: the server's storage recovered");
});

test("a_restart_pause_waits_for_the_players_and_an_arbiter_pause_is_not_the_servers", () => {
  seq = 0;
  const m = fromState(state({ phase: "Running", running: [true, false, true, false], last_seq: 0 }), 0);
  applyEvent(m, ev({ Paused: { reason: "Restart" } }), 1);
  assert.equal(m.phase, "Paused");
  assert.equal(m.serverPause, "Restart");
  assert.match(describe(m, { Paused: { reason: "Restart" } }), /server restarted — they restart when all four players are back$/);
  applyEvent(m, ev({ Resumed: { reason: "Restart" } }, { running: [false, true, true, false] }), 2);
  assert.equal(m.phase, "Running");
  assert.deepEqual(m.clocks.running, [false, true, true, false]);
  // A shutdown pause, then the arbiter restarts the clocks himself.
  applyEvent(m, ev({ Paused: { reason: "Shutdown" } }), 3);
  assert.equal(pauseText("Shutdown"), "clocks stopped: the server is shutting down");
  assert.equal(describe(m, { Paused: { reason: "Shutdown" } }), pauseText("Shutdown"));
  applyEvent(m, ev({ ArbiterActed: { act: "Resume", text: "restarted the clocks" } }, { running: [true, false, true, false] }), 4);
  assert.equal(m.phase, "Running");
  assert.equal(m.serverPause, null);
  // A pause by a player is no server pause.
  applyEvent(m, ev({ ArbiterCalled: { seat: "WhiteA" } }), 5);
  assert.equal(m.phase, "Paused");
  assert.equal(m.serverPause, null);
  assert.equal(resumeText("Restart"), "clocks restarted after the server's restart: all four players are back, or the wait for the missing ones is over (K6)");
  assert.equal(closedText("Expired"), "the match expired: nobody attended it");
  assert.equal(closedText("Failed"), "the match stopped on the server; it will be restored when the server restarts");
});

test("check_the_king_of_the_side_to_move_is_marked_after_a_checking_move", () => {
  const B = " | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";
  const m = fromState({ match_id: 1, rules: "classic", time_control: "1+0", seats: ["a", "b", "c", "d"], ready: [true, true, true, true], phase: "Running", bfen: "rnbqkbnr/ppp1pppp/3p4/8/4P3/8/PPPP1PPP/RNBQKBNR[] w KQkq - 0 2" + B, clocks_ms: [1, 1, 1, 1], running: [true, false, true, false], last_seq: 3, result: null, your_seat: null, server_time_us: 0 }, 0, 0);
  const moved = (seq, seat, san, uci, fen) => assert.equal(applyEvent(m, { match_id: 1, seq, at_ms: seq, kind: { Moved: { seat, uci, san, charged_ms: 0, credit_ms: 0 } }, clocks_ms: [1, 1, 1, 1], running: [true, true, true, false], bfen: fen + B, server_time_us: 0 }, 0, 0), "applied");
  assert.equal(checkedKing(m, "A"), "", "no move seen: no mark");
  moved(4, "WhiteA", "Bb5+", "f1b5", "rnbqkbnr/ppp1pppp/3p4/1B6/4P3/8/PPPP1PPP/RNBQK1NR[] b KQkq - 1 2");
  assert.equal(checkedKing(m, "A"), "e8", "Black's king, the side to move, is in check");
  assert.equal(checkedKing(m, "B"), "", "not on the other board");
  moved(5, "BlackA", "Nc6", "b8c6", "r1bqkbnr/ppp1pppp/2np4/1B6/4P3/8/PPPP1PPP/RNBQK1NR[] w KQkq - 2 3");
  assert.equal(checkedKing(m, "A"), "", "answered: no mark");
});

test("a2_arbiter_acts_are_facts_and_words_alone_change_nothing", () => {
  const m = fromState(state({ phase: "Running", running: [true, false, true, false], last_seq: 0 }), 0);
  const at = (seq, kind, extra = {}) => applyEvent(m, { match_id: 2, seq, at_ms: seq, kind, clocks_ms: [1, 1, 1, 1], running: [true, false, true, false], bfen: null, server_time_us: 0, ...extra }, seq);
  // Words alone (an old server's event) are a note: they neither annul nor pause.
  assert.equal(at(1, { Arbiter: { act: "annulled the match: replay tomorrow" } }), "applied");
  assert.equal(m.phase, "Running");
  assert.equal(m.moves.at(-1)?.label, "arbiter: annulled the match: replay tomorrow");
  // The typed act does, whatever its words.
  assert.equal(at(2, { ArbiterActed: { act: { Annul: { reason: "replay tomorrow" } }, text: "any words" } }), "applied");
  assert.equal(m.phase, "Annulled");
  assert.equal(m.arbiterNote, "replay tomorrow");
  assert.equal(m.moves.at(-1)?.label, "arbiter: annulled the match: replay tomorrow", "its words from the act");
  setLanguage("ru");
  assert.equal(entryLabel(/** @type {any} */ (m.moves.at(-1))), "судья: аннулировал партию: replay tomorrow");
  assert.equal(phaseText(m.phase), "аннулирована");
  setLanguage("en");
  assert.equal(phaseText(m.phase), "annulled");
  assert.equal(phaseText("Running"), "in play");
  assert.equal(phaseText("Later"), "Later", "a phase this page does not know, as it came");
});

// A5, A6: a player's call for a replay is said with its reason, and the arbiter's replay sets
// both boards back at the start (the event carries it), clears the annulled game's moves and
// flags, and the countdown or the start follows — in both languages.
test("a5_a6_a_call_for_a_replay_and_the_replay_are_said_and_start_the_game_again", () => {
  seq = 0;
  const names = { names: ["wa", "ba", "wb", "bb"], kinds: ["Guest", "Guest", "Guest", "Guest"] };
  const m = fromState(state({ phase: "Running", seats: names.names, running: [true, false, true, false], last_seq: 0 }), 0);
  const afterE4 = `rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[] b KQkq - 0 1 | ${START}`;
  applyEvent(m, ev({ Moved: { seat: "WhiteA", uci: "e2e4", san: "e4", charged_ms: 5, credit_ms: 0 } }, { bfen: afterE4, running: [false, true, true, false] }), 1);
  applyEvent(m, ev({ FlagFell: { seat: "WhiteB" } }), 2);
  const call = { ArbiterCalled: { seat: "BlackB", replay: "OutsideHint" } };
  assert.equal(applyEvent(m, ev(call)), "applied");
  assert.equal(m.phase, "Paused");
  assert.equal(describe(names, call), "bb (guest) (black-B) stopped the clocks and asks the arbiter for a replay: a hint from outside (A6)");
  assert.equal(describe(names, { ArbiterCalled: { seat: "BlackB", replay: null } }), "bb (guest) (black-B) stopped the clocks and called the arbiter", "a plain call");
  const replay = { ArbiterActed: { act: { Replay: { reason: "OutsideHint", note: "" } }, text: "the server's words", by: { Account: "olga" } } };
  assert.equal(applyEvent(m, ev(replay, { bfen: `${START} | ${START}`, clocks_ms: C })), "applied");
  assert.equal(m.phase, "Countdown");
  assert.equal(m.bfen, `${START} | ${START}`);
  assert.deepEqual(m.moves.map((e) => e.label), ["arbiter: ordered a replay: a hint from outside (A6); the game starts again"], "the annulled e4 is gone");
  assert.deepEqual(m.flagged, []);
  assert.deepEqual(m.lastMove, { A: "", B: "" });
  assert.equal(describe(names, replay.ArbiterActed ? replay : {}), "arbiter olga: ordered a replay: a hint from outside (A6); the game starts again");
  applyEvent(m, ev("Started", { running: [true, false, true, false] }));
  assert.equal(m.phase, "Running");
  assert.equal(yourTurn(m, "A"), true, "white-A moves first again");
  setLanguage("ru");
  assert.equal(describe(names, call), "bb (гость) (чёрные B): часы остановлены, судью просят о переигровке: подсказка со стороны (A6)");
  const noted = { ArbiterActed: { act: { Replay: { reason: "WrongSetup", note: "ладьи стояли не там" } }, text: "x", by: "Secret" } };
  assert.equal(describe(names, noted), "судья: назначил переигровку: неправильная расстановка фигур (A5) (ладьи стояли не там); партия начинается заново");
  setLanguage("en");
  assert.equal(describe(names, noted), "arbiter: ordered a replay: wrong initial setup (A5) (ладьи стояли не там); the game starts again");
});

test("a2_k5_a_page_that_opens_a_match_later_has_the_arbiters_words_and_the_call", () => {
  setLanguage("en");
  const decided = fromState(state({
    phase: "Ended",
    result: { winner: null, reason: "", rule: "A2", cause: "Arbiter", note: "a flag missed" },
  }), 0);
  assert.equal(decided.arbiterNote, "a flag missed");
  // A corrected result on an open page: the new words replace the old result's.
  const m = fromState(state({ phase: "Ended", result: { winner: "One", reason: "", rule: "E10", cause: null } }), 0);
  applyEvent(m, { match_id: m.matchId, seq: (m.lastSeq ?? 0) + 1, at_ms: 0, kind: { Ended: { winner: null, reason: "", rule: "A2", cause: "Arbiter", note: "replayed later" } }, clocks_ms: [0, 0, 0, 0], running: [false, false, false, false], bfen: null, server_time_us: 0 }, 0);
  assert.equal(m.result?.rule, "A2");
  assert.equal(m.arbiterNote, "replayed later");
  // The call a state carries is said as the event is.
  const paused = fromState(state({ phase: "Paused" }), 0);
  assert.match(describe(paused, { ArbiterCalled: { seat: "BlackB", replay: "OutsideHint" } }, null) ?? "", /replay/);
});

test("k6_a_state_sent_during_a_restarts_wait_says_until_when_and_the_resume_ends_it", () => {
  seq = 0;
  // Received at page time 5000, the server's clock at 10 s, the wait over at its 100 s.
  const s = state({ phase: "Paused", running: [false, false, false, false], server_time_us: 10_000_000, restart_by_us: 100_000_000 });
  const m = fromState(s, 5000);
  assert.equal(m.serverPause, "Restart", "a state in a restart's wait is the server's own pause");
  assert.equal(m.restartBy, 5000 + 90_000, "until when, on the page's clock");
  // A newer state keeps saying it; the one before a resume of an older page keeps its reason.
  const again = refresh(m, { ...s, restart_by_us: null }, 6000);
  assert.equal(again.serverPause, "Restart");
  assert.equal(again.restartBy, null);
  applyEvent(m, ev({ Resumed: { reason: "Restart" } }, { running: [true, false, true, false] }), 7000);
  assert.equal(m.phase, "Running");
  assert.equal(m.restartBy, null, "the wait is over");
  // A countdown held by a restart says until when too; the start ends it.
  const held = fromState(state({ phase: "Countdown", last_seq: seq, server_time_us: 1_000_000, restart_by_us: 61_000_000, countdown_left_ms: 4500 }), 0);
  assert.equal(held.serverPause, null);
  assert.equal(held.restartBy, 60_000);
  assert.equal(held.countdown, null, "a held countdown is not counting");
  // The wait over, the server says the countdown goes on, and how long it has left.
  const going = refresh(held, state({ phase: "Countdown", last_seq: seq, server_time_us: 2_000_000, countdown_left_ms: 4000 }), 50);
  assert.equal(going.restartBy, null);
  assert.equal(countdownLeft(going.countdown.startsAtMs, going.countdown.atMs, going.countdown.at, 1050), 3000);
  applyEvent(going, ev("Started", { running: [true, false, true, false] }), 100);
  assert.equal(going.restartBy, null);
  assert.equal(going.countdown, null);
});
