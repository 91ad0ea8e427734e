//! Pausing (K5) and the arbiter's acts (A2) on virtual time. Every accepted act is an event.

mod common;

use bughouse::{BoardId, MatchResult, Reason, Team};
use bughouse_match::{ArbiterAct, Command, EventKind, Match, Official, Phase, Rejection};
use chess_core::Role;
use common::*;

#[test]
fn k5_a_player_stops_all_four_clocks_and_only_the_arbiter_restarts_them() {
    let mut t = Table::new(config("mgimo-2017", "1+0"));
    t.play(secs(5), WA, "e4");
    t.cmd(secs(10), WB, Command::CallArbiter { replay: None }).unwrap();
    assert_eq!(t.m.phase(), &Phase::Paused { since: secs(10), by: Some(WB) });
    let frozen = t.m.clocks(secs(10));
    assert_eq!(frozen, [secs(55), secs(55), secs(50), secs(60)]);
    assert_eq!(t.m.clocks(secs(50)), frozen);
    assert_eq!(t.m.poll_timeout(), None, "no flag can fall while paused");
    assert_eq!(t.try_play(secs(20), BA, "e5", None), Err(Rejection::Paused));
    assert_eq!(t.cmd(secs(20), BA, Command::CallArbiter { replay: None }), Err(Rejection::Paused));
    assert_eq!(t.cmd(secs(20), BA, Command::Ready(true)), Err(Rejection::SeatsLocked));
    t.arbiter(secs(40), ArbiterAct::Resume).unwrap();
    assert_eq!(t.m.clocks(secs(45)), [secs(55), secs(50), secs(45), secs(60)]);
    assert_eq!(t.m.poll_timeout(), Some(secs(90)), "white-B's flag moved on by the pause");
    assert_eq!(t.arbiter(secs(46), ArbiterAct::Resume), Err(Rejection::NotPaused));
    t.arbiter(secs(47), ArbiterAct::Pause).unwrap();
    assert_eq!(t.m.phase(), &Phase::Paused { since: secs(47), by: None });
}

#[test]
fn k5_a_pause_inside_the_grace_window_moves_the_window_on() {
    let mut t = Table::board_a_only(config("mgimo-2017", "1+0"));
    t.wait(ms(60_500));
    t.arbiter(ms(60_500), ArbiterAct::Pause).unwrap();
    t.wait(secs(100));
    assert_eq!(t.result(), None);
    t.arbiter(secs(100), ArbiterAct::Resume).unwrap();
    assert_eq!(t.m.poll_timeout(), Some(ms(100_670)));
    t.wait(secs(101));
    assert_eq!(t.result(), win(Team::Two, Reason::Flag(WA)));
}

#[test]
fn a2_adding_and_removing_time() {
    let mut t = Table::new(config("mgimo-2017", "1+0"));
    t.arbiter(secs(10), ArbiterAct::AdjustClock { seat: BA, delta_ms: 30_000 }).unwrap();
    assert_eq!(t.clock(secs(10), BA), secs(90));
    t.arbiter(secs(10), ArbiterAct::AdjustClock { seat: WB, delta_ms: -20_500 }).unwrap();
    assert_eq!(t.clock(secs(10), WB), ms(29_500));
    // Removing more than is left stops at zero, and the flag falls.
    t.arbiter(secs(20), ArbiterAct::AdjustClock { seat: WA, delta_ms: -100_000 }).unwrap();
    assert_eq!(t.clock(secs(20), WA), secs(0));
    t.wait(secs(20));
    assert_eq!(t.when(|k| matches!(k, EventKind::FlagFell { seat } if *seat == WA)), Some(secs(20)));
    // Time given inside the grace window lifts the flag.
    t.arbiter(ms(20_500), ArbiterAct::AdjustClock { seat: WA, delta_ms: 10_000 }).unwrap();
    assert_eq!(t.m.fallen_flags(), [false; 4]);
    t.wait(secs(30));
    assert_eq!(t.result(), None);
    assert_eq!(t.m.poll_timeout(), Some(ms(30_500)));
}

#[test]
fn a2_take_back_undoes_the_capture_transfer() {
    let mut t = Table::new(config("mgimo-2017", "3+0"));
    t.play(secs(1), WA, "e4");
    t.play(secs(2), BA, "d5");
    let before = t.m.game().bfen();
    t.play(secs(3), WA, "exd5");
    assert_eq!(t.m.game().reserve(BB, Role::Pawn), 1, "C1: to white-A's partner");
    t.arbiter(secs(4), ArbiterAct::TakeBack { board: BoardId::A }).unwrap();
    assert_eq!(t.m.game().bfen(), before);
    assert_eq!(t.m.game().reserve(BB, Role::Pawn), 0);
    assert_eq!(t.m.game().to_move(BoardId::A), WA);
    assert_eq!(t.clock(secs(6), WA), secs(176), "the mover's clock runs again from the take-back");
    t.play(secs(6), WA, "Nc3");
}

#[test]
fn a2_take_back_is_refused_once_the_transferred_piece_was_dropped() {
    let mut t = Table::new(config("mgimo-2017", "3+0"));
    t.play(secs(1), WA, "e4");
    t.play(secs(2), BA, "d5");
    t.play(secs(3), WA, "exd5");
    t.play(secs(4), WB, "e4");
    t.play(secs(5), BB, "P@d6");
    let game = *t.m.game();
    let events = t.m.events().len();
    let e = t.arbiter(secs(6), ArbiterAct::TakeBack { board: BoardId::A }).unwrap_err();
    assert_eq!(
        e.to_string(),
        "cannot take back: the black pawn it passed to board B has since been dropped (A2)"
    );
    assert_eq!((*t.m.game(), t.m.events().len()), (game, events), "a refusal changes nothing");
    t.arbiter(secs(6), ArbiterAct::TakeBack { board: BoardId::B }).unwrap();
    t.arbiter(secs(6), ArbiterAct::TakeBack { board: BoardId::B }).unwrap();
    let e = t.arbiter(secs(6), ArbiterAct::TakeBack { board: BoardId::B }).unwrap_err();
    assert_eq!(e.to_string(), "cannot take back: no move on board B to take back (A2)");
    // With the drop undone, the capture can go back too.
    t.arbiter(secs(7), ArbiterAct::TakeBack { board: BoardId::A }).unwrap();
    assert_eq!(t.m.game().units(chess_core::Color::Black), 32);
}

#[test]
fn a2_r1_take_back_of_a_promotion_returns_the_removed_piece() {
    let a = "k7/4P3/8/8/8/8/8/4K3[] w - - 0 1";
    let b = "4k3/8/8/8/8/8/8/R3K3[] w - - 0 1";
    let mut t = Table::new(with_start(config("mgimo-2017", "3+0"), a, b));
    let start = t.m.game().bfen();
    t.play(secs(1), WA, "e7e8ra1");
    assert_eq!(t.m.game().reserve(WB, Role::Pawn), 1, "R2: the pawn goes to the crosswise player");
    t.arbiter(secs(2), ArbiterAct::TakeBack { board: BoardId::A }).unwrap();
    assert_eq!(t.m.game().bfen(), start);
}

/// R5 took the a1 rook's castling right along with it; taking the promotion back puts the rook
/// back with its right (White-B's king never moved), so board B is again the start, `Q` and all.
#[test]
fn a2_r5_take_back_of_a_promotion_gives_the_removed_rook_its_castling_right_back() {
    let a = "k7/4P3/8/8/8/8/8/4K3[] w - - 0 1";
    let b = "4k3/8/8/8/8/8/8/R3K3[] w Q - 0 1";
    let mut t = Table::new(with_start(config("mgimo-2017", "3+0"), a, b));
    let start = t.m.game().bfen();
    t.play(secs(1), WA, "e7e8ra1");
    assert!(t.m.game().bfen().ends_with("4k3/8/8/8/8/8/8/4K3[P] w U - 0 1"), "{}", t.m.game().bfen());
    t.arbiter(secs(2), ArbiterAct::TakeBack { board: BoardId::A }).unwrap();
    assert_eq!(t.m.game().bfen(), start);
    assert!(
        t.m.game().legal_moves(BoardId::B).iter().any(|m| matches!(m.mv, chess_core::Move::Castle { .. }))
    );
}

/// On board B Black has just played d7–d5 and White may take exd6; lifting the b5 bishop for
/// White-A's promotion would open the fifth rank to the a5 rook, so the right is gone. Taking
/// the promotion back returns the bishop, and with it the right: board B is the start again, d6
/// included.
#[test]
fn a2_r1_take_back_of_a_removal_gives_the_en_passant_right_back() {
    let a = "7k/1P6/8/8/8/8/8/K7[] w - - 0 1";
    let b = "6k1/8/8/rB1pP2K/8/8/8/8[] w - d6 0 2";
    let mut t = Table::new(with_start(config("mgimo-2017", "3+0"), a, b));
    let start = t.m.game().bfen();
    assert!(start.ends_with("w - d6 0 2"), "{start}");
    t.play(secs(1), WA, "b7b8bb5");
    assert!(t.m.game().bfen().ends_with("6k1/8/8/r2pP2K/8/8/8/8[P] w - - 0 2"), "{}", t.m.game().bfen());
    t.arbiter(secs(2), ArbiterAct::TakeBack { board: BoardId::A }).unwrap();
    assert_eq!(t.m.game().bfen(), start);
    assert_eq!(t.m.occurrences(BoardId::B), 1, "E4: the start position, counted once");
}

#[test]
fn a2_take_back_of_a_promotion_is_refused_when_the_square_was_taken() {
    let a = "k7/4P3/8/8/8/8/8/4K3[] w - - 0 1";
    let b = "4k3/8/8/8/8/8/8/RK6[] w - - 0 1";
    let mut t = Table::new(with_start(config("mgimo-2017", "3+0"), a, b));
    t.play(secs(1), WA, "e7e8ra1");
    t.play(secs(2), WB, "Ka1");
    let e = t.arbiter(secs(3), ArbiterAct::TakeBack { board: BoardId::A }).unwrap_err();
    assert!(e.to_string().contains("a1 on board B is occupied now"), "{e}");
    // Once the king's move is undone, the promotion can be too.
    t.arbiter(secs(3), ArbiterAct::TakeBack { board: BoardId::B }).unwrap();
    t.arbiter(secs(3), ArbiterAct::TakeBack { board: BoardId::A }).unwrap();
    assert_eq!(t.m.game().board(BoardId::B).board().role_at(chess_core::Square::A1), Some(Role::Rook));
}

#[test]
fn a2_c2_a_corrected_position_keeps_every_unit() {
    let mut t = Table::new(config("mgimo-2017", "3+0"));
    let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[] b KQkq - 0 1 | \
                    rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";
    t.arbiter(secs(5), ArbiterAct::SetPosition { bfen: after_e4.to_owned() }).unwrap();
    assert_eq!(t.m.game().bfen(), after_e4);
    assert_eq!(t.m.clocks(secs(8)), [secs(175), secs(177), secs(172), secs(180)], "black-A's clock runs now");
    let missing = after_e4.replacen("PPPP1PPP", "PPPP2PP", 1);
    let e = t.arbiter(secs(9), ArbiterAct::SetPosition { bfen: missing }).unwrap_err();
    assert_eq!(
        e.to_string(),
        "cannot set that position: white would own 31 units instead of 32: pieces neither appear nor \
         vanish (C2) (A2)"
    );
    let e = t.arbiter(secs(9), ArbiterAct::SetPosition { bfen: "garbage".into() }).unwrap_err();
    assert!(matches!(e, Rejection::InvalidPosition(_)), "{e}");
    assert_eq!(t.m.game().bfen(), after_e4);
}

#[test]
fn a2_declare_result_then_annul() {
    let mut t = Table::new(config("mgimo-2017", "3+0"));
    let declare = |result| ArbiterAct::DeclareResult { result, note: "dispute settled".into() };
    t.arbiter(secs(5), declare(MatchResult::Win(Team::Two))).unwrap();
    assert_eq!(t.result(), win(Team::Two, Reason::Arbiter));
    assert_eq!(t.result().unwrap().reason.rule(), "A2");
    t.arbiter(secs(6), declare(MatchResult::Draw)).unwrap();
    assert_eq!(t.result(), draw(Reason::Arbiter), "a later declaration replaces the result");
    t.arbiter(secs(7), ArbiterAct::Annul { note: "replay".into() }).unwrap();
    assert_eq!(t.m.phase(), &Phase::Annulled);
    assert_eq!(t.try_play(secs(8), WA, "e4", None), Err(Rejection::Over));
    assert_eq!(t.arbiter(secs(8), ArbiterAct::Annul { note: "again".into() }), Err(Rejection::Over));
    assert_eq!(t.arbiter(secs(8), declare(MatchResult::Draw)), Err(Rejection::Over));
}

#[test]
fn a2_every_accepted_act_is_an_event() {
    let mut t = Table::new(config("mgimo-2017", "3+0"));
    t.play(secs(1), WA, "e4");
    let acts = [
        ArbiterAct::Pause,
        ArbiterAct::AdjustClock { seat: BB, delta_ms: 5000 },
        ArbiterAct::TakeBack { board: BoardId::A },
        ArbiterAct::Resume,
        ArbiterAct::Resume,
        ArbiterAct::Annul { note: "x".into() },
    ];
    let mut accepted = Vec::new();
    for (i, act) in acts.into_iter().enumerate() {
        if t.arbiter(secs(2 + i as u64), act.clone()).is_ok() {
            accepted.push(act);
        }
    }
    let logged: Vec<ArbiterAct> =
        t.m.events()
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::Arbiter(ruling) => Some(ruling.act.clone()),
                _ => None,
            })
            .collect();
    assert_eq!(accepted.len(), 5);
    assert_eq!(logged, accepted);
}

/// A4: the log names who made each arbiter act — an account, the shared secret, the server —
/// and a replay of the log keeps it.
#[test]
fn a4_every_arbiter_act_is_logged_with_who_made_it_and_replays_with_it() {
    let mut t = Table::new(config("mgimo-2017", "1+0"));
    t.play(secs(1), WA, "e4");
    let alice = Official::Account("alice".into());
    t.m.handle_arbiter(secs(2), alice.clone(), ArbiterAct::Pause).unwrap();
    t.m.handle_arbiter(secs(3), Official::Secret, ArbiterAct::Resume).unwrap();
    let by: Vec<Official> =
        t.m.events()
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::Arbiter(ruling) => Some(ruling.by.clone()),
                _ => None,
            })
            .collect();
    assert_eq!(by, [alice, Official::Secret]);
    let replayed = Match::replay(t.m.config().clone(), t.m.events()).unwrap();
    assert_eq!(replayed.events(), t.m.events(), "the officials replay with their acts");
}

/// An act logged before the log named who made it (the bare act, as stored JSON) reads back as
/// made by an unrecorded official, and its log still replays to itself.
#[test]
fn a4_an_act_logged_without_its_official_reads_back_as_unrecorded_and_replays() {
    let mut t = Table::new(config("mgimo-2017", "1+0"));
    t.play(secs(1), WA, "e4");
    t.arbiter(secs(2), ArbiterAct::AdjustClock { seat: BA, delta_ms: 5_000 }).unwrap();
    let mut json = serde_json::to_value(t.m.events()).unwrap();
    let last = json.as_array_mut().unwrap().last_mut().unwrap();
    let act = last["kind"]["Arbiter"]["act"].take();
    assert!(!act.is_null(), "written with its official: {last}");
    last["kind"]["Arbiter"] = act;
    let old: Vec<bughouse_match::Event> = serde_json::from_value(json).unwrap();
    let EventKind::Arbiter(ruling) = &old.last().unwrap().kind else { panic!("not an act") };
    assert_eq!(ruling.by, Official::Unrecorded);
    assert_eq!(ruling.act, ArbiterAct::AdjustClock { seat: BA, delta_ms: 5_000 });
    let replayed = Match::replay(t.m.config().clone(), &old).unwrap();
    assert_eq!(replayed.events(), &old[..]);
}
