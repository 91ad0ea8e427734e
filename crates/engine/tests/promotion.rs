//! Promotion by removal at the root (R1): the chosen promotion names a removable piece of the
//! crosswise player on the other board.

mod common;

use bughouse::{BoardId, Seat};
use chess_core::{Color, Role};
use common::{START, choose, game2};

#[test]
fn r1_promotion_removes_a_piece_of_the_crosswise_player() {
    let g = game2("k7/4P3/8/8/8/8/8/6K1[] w - - 0 1", START, "mgimo-2017");
    let choice = choose(&g, 20_000);
    assert!(choice.mv.is_promotion(), "{:?}", choice.mv);
    let removal = choice.mv.removal.expect("a removal square");
    assert!(g.removable(Seat::new(BoardId::B, Color::White)).contains(&removal));
    let removed = g.board(BoardId::B).board().piece_at(removal).expect("a piece to remove");
    assert_eq!(removed.color, Color::White);
    assert_eq!(choice.mv.mv.promotion(), Some(removed.role));
    // The strongest piece to bring over is the queen.
    assert_eq!(removed.role, Role::Queen);
}

#[test]
fn r6_classic_promotes_to_a_queen() {
    let g = game2("k7/4P3/8/8/8/8/8/6K1[] w - - 0 1", START, "classic");
    let choice = choose(&g, 20_000);
    assert_eq!(choice.mv.mv.promotion(), Some(Role::Queen), "{:?}", choice.mv);
    assert_eq!(choice.mv.removal, None);
}
