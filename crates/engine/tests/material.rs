//! Simple material tactics: take a hanging queen, keep one's own queen out of danger.

mod common;

use bughouse::BoardId;
use chess_core::{Color, Role};
use common::{after, choose, game};

#[test]
fn wins_a_hanging_queen() {
    // The black queen on d5 hangs to the rook on d1 (and threatens it).
    let g = game("6k1/5ppp/8/3q4/8/8/5PPP/3R2K1[] w - - 0 1", "mgimo-2017");
    let choice = choose(&g, 20_000);
    assert_eq!(choice.mv.mv.capture(), Some(Role::Queen), "{:?}", choice.mv);
    assert!(choice.score > 500, "score {}", choice.score);
}

#[test]
fn does_not_leave_its_queen_en_prise() {
    // The white queen on d4 is attacked by the e5 pawn; Qd8+ would lose it to the rook.
    let g = game("2r3k1/5ppp/8/4p3/3Q4/8/P4PPP/6K1[] w - - 0 1", "mgimo-2017");
    let choice = choose(&g, 20_000);
    let next = after(&g, choice.mv);
    let board = next.board(BoardId::A).board();
    let queen =
        board.by_piece(Role::Queen.of(Color::White)).first().expect("the queen is still on the board");
    assert!(
        !board.is_attacked(queen, Color::Black, board.occupied()),
        "{:?} leaves the queen attacked",
        choice.mv
    );
}
