//! Analysis for review: the score, the best move and the line after it, read for people.

mod common;

use bughouse::BoardId;
use chess_core::Color;
use common::{START, assert_legal, game, nodes};
use shvedka_engine::{Engine, MAX_LINE, Verdict, verdict};

#[test]
fn p3_a_drop_mate_is_a_mate_in_one_under_classic_and_not_under_mgimo() {
    // A knight in White's reserve smothers the king on h8 from f7.
    let classic = game("6rk/6pp/8/8/8/8/5PPP/6K1[N] w - - 0 1", "classic");
    let a = Engine::new(5).analyse(&classic, BoardId::A, nodes(20_000)).expect("White can move");
    assert_legal(&classic, &a.best);
    assert_eq!(a.verdict(), Verdict::MateIn(1), "{a:?}");
    assert!(a.line.is_empty(), "nothing follows a mate: {:?}", a.line);
    assert_eq!(a.score_for_white(Color::White), a.score);

    let mgimo = game("6rk/6pp/8/8/8/8/5PPP/6K1[N] w - - 0 1", "mgimo-2017");
    let m = Engine::new(5).analyse(&mgimo, BoardId::A, nodes(20_000)).expect("White can move");
    assert_legal(&mgimo, &m.best);
    assert_ne!(m.verdict(), Verdict::MateIn(1), "P3 forbids the drop mate: {m:?}");
}

#[test]
fn the_line_after_the_best_move_is_legal_move_by_move() {
    let g = game(START, "mgimo-2017");
    let a = Engine::new(5).analyse(&g, BoardId::A, nodes(50_000)).expect("White can move");
    assert!(!a.line.is_empty() && a.line.len() <= MAX_LINE, "{:?}", a.line);
    let mut after = g;
    after.play(a.best).unwrap();
    let mut pos = *after.board(BoardId::A);
    for mv in &a.line {
        assert!(pos.is_legal(mv), "{mv:?} is not legal in {pos:?}");
        pos.play_unchecked(*mv);
    }
}

#[test]
fn m1_a_mated_side_is_told_the_mate_against_it_and_a_board_without_moves_has_no_analysis() {
    // Black to move has only Kb8, and Qb7 mates by contact (a check no drop can block).
    let g = game("k7/7Q/1K6/8/8/8/8/8[] b - - 0 1", "classic");
    let a = Engine::new(5).analyse(&g, BoardId::A, nodes(20_000)).expect("Black can move");
    assert_eq!(a.verdict(), Verdict::MateIn(-1), "{a:?}");
    assert!(a.score_for_white(Color::Black) > 0);
    // Mate on board: nothing to analyse.
    let mated = game("1k6/1Q6/1K6/8/8/8/8/8[] b - - 0 1", "classic");
    assert_eq!(Engine::new(5).analyse(&mated, BoardId::A, nodes(1_000)), None);
}

#[test]
fn verdicts_read_centipawns_and_mates_in_moves() {
    assert_eq!(verdict(35), Verdict::Centipawns(35));
    assert_eq!(verdict(-120), Verdict::Centipawns(-120));
    assert_eq!(verdict(shvedka_engine::MATE - 1), Verdict::MateIn(1));
    assert_eq!(verdict(shvedka_engine::MATE - 3), Verdict::MateIn(2));
    assert_eq!(verdict(-(shvedka_engine::MATE - 2)), Verdict::MateIn(-1));
    assert_eq!(verdict(-(shvedka_engine::MATE - 4)), Verdict::MateIn(-2));
}
