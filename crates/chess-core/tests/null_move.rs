//! The null move a search passes with: the other side to move, the en passant right gone, and a
//! hash equal to the same position read afresh (the transposition table depends on it).

use chess_core::{Color, Position};

fn pos(text: &str) -> Position {
    Position::from_fen(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn a_null_move_passes_the_turn_and_forgets_en_passant_with_a_consistent_hash() {
    // Black just played ...d7d5 beside the white e5 pawn: White may take en passant.
    let mut p = pos("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3");
    assert!(p.ep_square().is_some());
    p.play_null();
    assert_eq!(p.turn(), Color::Black);
    assert_eq!(p.ep_square(), None);
    assert!(!p.is_check());
    let fresh = pos("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 1 3");
    assert_eq!(p.zobrist(), fresh.zobrist());
    assert_eq!(p.legal_moves().len(), fresh.legal_moves().len());
}

#[test]
fn two_null_moves_give_the_position_back_without_its_en_passant_right() {
    let start = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Pp] w KQkq - 0 1");
    let mut p = start;
    p.play_null();
    assert_ne!(p.zobrist(), start.zobrist());
    p.play_null();
    assert_eq!(p.zobrist(), start.zobrist());
    assert_eq!(p.turn(), Color::White);
}
