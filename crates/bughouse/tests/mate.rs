//! Mate on board (M1), waiting (M2, M3) and king capture (M4) on hand-built positions.

mod common;

use bughouse::{BoardId::*, is_mate_on_board};
use chess_core::Position;
use common::*;

fn mate(fen: &str) -> bool {
    is_mate_on_board(&Position::from_fen(fen).unwrap())
}

#[test]
fn m1_knight_pawn_contact_and_double_check_mates_on_board() {
    // Knight check, smothered: nothing can take f7, every flight is the king's own piece.
    assert!(mate("6rk/5Npp/8/8/8/8/8/K7[] b - - 0 1"), "knight");
    // Pawn check from g7, protected by the f7 king; the g8 knight cannot take it.
    assert!(mate("6nk/5KPp/8/8/8/8/8/8[] b - - 0 1"), "pawn");
    // Contact check by a queen protected from d4: no drop can interpose.
    assert!(mate("6k1/5pQp/8/8/3B4/8/8/K7[] b - - 0 1"), "contact");
    // Double check by knight and rook: only the king could move, and it cannot.
    assert!(mate("3rkr2/3p1p2/3N4/8/8/8/8/K3R3[qrbnp] b - - 0 1"), "double check");
    // Not mate on board: the king escapes to g8; the knight can be taken; not in check at all.
    assert!(!mate("7k/6P1/6K1/8/8/8/8/8[] b - - 0 1"));
    assert!(!mate("6rk/6pp/8/8/8/8/8/K7[] b - - 0 1"));
    // A single check from a distance is never mate on board, whatever the reserve (M1, M2).
    assert!(!mate("R5k1/5ppp/8/8/8/8/8/6K1[] b - - 0 1"));
    assert!(
        Position::from_fen("R5k1/5ppp/8/8/8/8/8/6K1[] b - - 0 1").unwrap().is_checkmate(),
        "though chess mate"
    );
}

#[test]
fn m2_a_blockable_check_without_material_means_waiting() {
    let g = game(&bfen("R5k1/5ppp/8/8/8/8/8/6K1[] b - - 0 1", START));
    let s = g.status(A);
    assert!(s.in_check && !s.mate_on_board && s.waiting, "{s:?}");
    // The partner sends a knight: now Black-A can interpose.
    let g = game(&bfen("R5k1/5ppp/8/8/8/8/8/6K1[n] b - - 0 1", START));
    assert_eq!(moves(&g, A).len(), 5, "{:?}", moves(&g, A));
}

#[test]
fn m3_stalemate_waits_or_draws_by_option() {
    let a = "k7/8/1Q6/8/8/8/8/7K[] b - - 0 1";
    let g = game(&bfen(a, START));
    let s = g.status(A);
    assert!(!s.in_check && s.waiting && s.legal_moves == 0);
    assert!(!g.is_stalemate_draw(A), "MGIMO: wait");
    let mut options = bughouse::RuleOptions::mgimo_2017();
    options.stalemate = bughouse::Stalemate::Draw;
    let g = bughouse::Game::from_bfen(&bfen(a, START), options.rules().unwrap()).unwrap();
    assert!(g.is_stalemate_draw(A));
}

#[test]
fn m4_no_move_ever_captures_a_king() {
    let g = game(&bfen("4k3/8/8/8/8/8/8/4K2R[QRBNP] w K - 0 1", START));
    for m in g.legal_moves(A) {
        assert_ne!(m.mv.capture(), Some(chess_core::Role::King));
    }
}

#[test]
fn chess_a_move_refused_while_in_check_says_you_are_in_check() {
    use bughouse::{MoveTextError, RuleId};
    let checked = "rnbqkbnr/ppp1pppp/3p4/1B6/4P3/8/PPPP1PPP/RNBQK1NR[] b KQkq - 1 2";
    let g = game(&bfen(checked, START));
    let reason = |g: &bughouse::Game, text: &str| match g.parse_move(A, text) {
        Err(MoveTextError::Illegal { error, .. }) => (error.rule, error.reason()),
        other => panic!("{text}: expected an illegal move, got {other:?}"),
    };
    // A quiet move that leaves the king in check, in both notations.
    for text in ["a6", "a7a6"] {
        let (rule, why) = reason(&g, text);
        assert_eq!(rule, RuleId::Chess);
        assert!(why.starts_with("you are in check"), "{text}: {why}");
    }
    // Not in check: the plain reason.
    let (_, why) = reason(&game(&bfen(START, START)), "e2e5");
    assert!(!why.contains("check"), "{why}");
}
