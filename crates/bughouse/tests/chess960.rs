//! Chess960 starts (docs/RULES.md section 9): the 960 arrays, castling by FIDE appendix F on both
//! boards, and P5 with a rook dropped on the square its side's rook started on.

mod common;

use std::collections::HashSet;

use bughouse::{BoardId::*, Game, chess960_back_rank, chess960_fen};
use chess_core::Role;
use common::*;

#[test]
fn chess960_518_is_the_standard_array_and_all_960_are_distinct_and_valid() {
    assert_eq!(chess960_fen(518), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w HAha - 0 1");
    assert_eq!(chess960_fen(0), "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR[] w HFhf - 0 1");
    let mut seen = HashSet::new();
    for n in 0..960 {
        let rank = chess960_back_rank(n);
        assert!(seen.insert(rank), "position {n} repeats");
        let file = |role: Role| rank.iter().enumerate().filter(move |(_, r)| **r == role).map(|(i, _)| i);
        let bishops: Vec<usize> = file(Role::Bishop).collect();
        assert_eq!(bishops.len(), 2);
        assert_ne!(bishops[0] % 2, bishops[1] % 2, "{n}: bishops on opposite colours");
        let rooks: Vec<usize> = file(Role::Rook).collect();
        let king = file(Role::King).next().unwrap();
        assert!(rooks[0] < king && king < rooks[1], "{n}: the king between its rooks");
        let game = Game::chess960(n, rules());
        assert_eq!(game.board(A), game.board(B), "{n}: both boards alike");
        assert_eq!(game.legal_moves(A).len(), game.board(A).legal_moves().len());
    }
}

fn rules() -> bughouse::Rules {
    bughouse::RuleOptions::mgimo_2017().rules().unwrap()
}

#[test]
fn chess960_castling_ends_on_the_standard_squares() {
    // Position 0, BBQNNRKR: with f1 cleared, the king on g1 castles with the h1 rook (king to g1,
    // rook to f1) and with the f1 rook queen side (king to c1, rook to d1) once b1-e1 are clear.
    let a = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/4R1KR[] w HEhf - 0 1";
    let mut g = game(&bfen(a, START));
    assert!(moves(&g, A).contains(&"g1h1".to_owned()), "king takes rook: {:?}", moves(&g, A));
    play(&mut g, A, "O-O");
    assert!(g.bfen().starts_with("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/4RRK1[] b hf"), "{}", g.bfen());
    let mut g = game(&bfen(a, START));
    play(&mut g, A, "O-O-O");
    assert!(g.bfen().starts_with("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/2KR3R[] b hf"), "{}", g.bfen());
}

#[test]
fn p5_chess960_a_rook_dropped_on_its_start_square_may_castle() {
    // Position 0 (rooks on f1 and h1). White-B promotes on board B and removes White-A's f1 rook
    // (R5: the right goes with it); the king never moved, so a rook dropped back on f1 regains
    // the queen-side right, and castling brings king and rook to c1 and d1.
    let a = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/5RKR[R] b HFhf - 0 1";
    let b = "7k/1P6/8/8/8/8/8/K7[] w - - 0 1";
    let mut g = game(&bfen(a, b));
    play(&mut g, B, "b7b8rf1");
    assert!(g.bfen().starts_with("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/6KR[RP] b Hhf"), "{}", g.bfen());
    play(&mut g, A, "e6");
    play(&mut g, A, "R@f1");
    play(&mut g, A, "d6");
    assert!(moves(&g, A).contains(&"g1f1".to_owned()), "{:?}", moves(&g, A));
    play(&mut g, A, "O-O-O");
    assert!(g.bfen().starts_with("bbqnnrkr/ppp2ppp/3pp3/8/8/8/PPPPPPPP/2KR3R[P] b hf"), "{}", g.bfen());
    // A rook dropped on a1, not its side's start square, gives no right.
    let mut g = game(&bfen(a, b));
    play(&mut g, B, "b7b8rf1");
    play(&mut g, A, "e6");
    play(&mut g, A, "R@a1");
    play(&mut g, A, "d6");
    assert!(!moves(&g, A).contains(&"g1a1".to_owned()), "{:?}", moves(&g, A));
    assert!(g.parse_move(A, "O-O-O").is_err());
}
