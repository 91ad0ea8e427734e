//! Edits outside a move — a variant's removal (RULES.md R1) and a take-back putting a piece back —
//! change a board between two of its moves. What chess derives from the board must follow: the
//! en passant right is re-derived from the double step and the board as it stands, the hash with
//! it, and the pieces giving check.

use chess_core::{Piece, Position, Role, Square};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

fn can_take_en_passant(p: &Position) -> bool {
    p.legal_moves().iter().any(|m| matches!(m, chess_core::Move::EnPassant { .. }))
}

/// After d2–d4 the capture exd3 would open the fourth rank between Black's king on a4 and
/// White's rook on h4: no right. Removing the rook gives it; putting the rook back takes it
/// again, and the hash follows each time (equal to the hash of the position read fresh).
#[test]
fn r1_removing_the_pinning_piece_gives_the_en_passant_right_and_putting_it_back_takes_it() {
    let mut p = pos("8/8/8/8/k3p2R/8/3P4/6K1 w - - 0 1");
    p.play(p.parse_uci("d2d4").unwrap()).unwrap();
    let pinned = p;
    assert_eq!((p.ep_square(), p.ep_target()), (None, Some(sq("d3"))));
    assert!(!can_take_en_passant(&p));
    assert_eq!(p.fen(), "8/8/8/8/k2Pp2R/8/8/6K1 b - - 0 1", "FEN writes the right, not the fact");
    assert_eq!(p.zobrist(), pos(&p.fen()).zobrist());

    p.remove_piece_at(sq("h4")).unwrap();
    assert_eq!(p.ep_square(), Some(sq("d3")));
    assert!(can_take_en_passant(&p));
    assert_eq!(p.fen(), "8/8/8/8/k2Pp3/8/8/6K1 b - d3 0 1");
    assert_eq!(p.zobrist(), pos(&p.fen()).zobrist());

    p.put_piece_at(sq("h4"), Role::Rook.of(chess_core::Color::White), false).unwrap();
    assert_eq!(p, pinned);
    assert_eq!(p.zobrist(), pinned.zobrist());
    assert!(!can_take_en_passant(&p));
}

/// A FEN states the double step even when the capture is illegal for now: here White's king is
/// in check from the e2 rook, and exf6 does not answer it. The fact is kept, so removing the
/// checking rook gives the right.
#[test]
fn r1_a_fen_s_double_step_is_kept_while_its_capture_is_illegal() {
    let mut p = pos("4k3/8/8/3pPp2/8/8/4r3/4K3 w - f6 0 3");
    assert_eq!((p.ep_square(), p.ep_target()), (None, Some(sq("f6"))));
    assert!(p.fen().contains(" w - - "), "{}", p.fen());
    p.remove_piece_at(sq("e2")).unwrap();
    assert!(!p.is_check());
    assert_eq!(p.ep_square(), Some(sq("f6")));
    assert_eq!(p.zobrist(), pos("4k3/8/8/3pPp2/8/8/8/4K3 w - f6 0 3").zobrist());
    // The right lives until the side to move has moved.
    p.play(p.parse_uci("e1d1").unwrap()).unwrap();
    p.play(p.parse_uci("e8d8").unwrap()).unwrap();
    assert_eq!((p.ep_square(), p.ep_target()), (None, None));
}

/// The fact is kept only where a capture could ever arise: a pawn of the side to move beside the
/// pushed pawn (nothing but a move adds a pawn).
#[test]
fn r1_no_en_passant_fact_without_a_pawn_beside_the_pushed_pawn() {
    let mut p = Position::new();
    p.play(p.parse_uci("e2e4").unwrap()).unwrap();
    assert_eq!(p.ep_target(), None);
    assert_eq!(pos("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"), p);
}

/// R3 lets a removal leave the side to move in check: the checkers follow the edit.
#[test]
fn r3_removing_a_shield_puts_the_side_to_move_in_check_and_putting_it_back_lifts_it() {
    let mut w = pos("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1");
    w.remove_piece_at(sq("e2")).unwrap();
    assert_eq!(w.checkers(), chess_core::Bitboard::EMPTY.with(sq("e7")));
    w.put_piece_at(sq("e2"), Piece { color: chess_core::Color::White, role: Role::Knight }, false).unwrap();
    assert!(!w.is_check());
}

/// R5: lifting a rook off its corner cancels its castling right. A take-back that puts it back
/// gives the right back — unless the king has moved since, when no right can stand.
#[test]
fn r5_a_rook_put_back_on_its_corner_gets_its_castling_right_back_if_the_king_never_moved() {
    let white_rook = Role::Rook.of(chess_core::Color::White);
    let start = pos("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
    let mut p = start;
    p.remove_piece_at(sq("a1")).unwrap();
    assert!(p.castling().is_empty());
    assert!(!p.restore_castling_right(sq("a1")), "no rook there");
    p.put_piece_at(sq("a1"), white_rook, false).unwrap();
    assert!(p.castling().is_empty(), "putting a piece grants nothing by itself");
    assert!(p.restore_castling_right(sq("a1")));
    assert_eq!(p, start);
    assert_eq!(p.zobrist(), start.zobrist());

    let mut moved = start;
    moved.remove_piece_at(sq("a1")).unwrap();
    moved.set_king_moved(chess_core::Color::White, true);
    moved.put_piece_at(sq("a1"), white_rook, false).unwrap();
    assert!(!moved.restore_castling_right(sq("a1")));
    assert!(moved.fen().contains(" w - "), "{}", moved.fen());
    // A rook off its corner file never gets one.
    let mut b1 = pos("4k3/8/8/8/8/8/8/1R2K3 w - - 0 1");
    b1.set_king_moved(chess_core::Color::White, false);
    assert!(!b1.restore_castling_right(sq("b1")));
}
