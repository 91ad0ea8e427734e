//! No legal move: `choose` answers `None` while waiting (M2), a legal move as soon as there is one.

mod common;

use bughouse::BoardId;
use common::{assert_legal, choose, game, nodes};
use shvedka_engine::Engine;

/// White is checked from a1 with empty squares between: not mate on board, but no move.
const DISTANT_CHECK: &str = "k7/8/8/8/8/8/6PP/r6K[] w - - 0 1";

#[test]
fn m2_returns_none_while_waiting() {
    let g = game(DISTANT_CHECK, "mgimo-2017");
    assert!(g.legal_moves(BoardId::A).is_empty());
    assert!(!g.is_mate_on_board(BoardId::A));
    assert_eq!(Engine::new(3).choose(&g, BoardId::A, nodes(1_000)), None);
}

#[test]
fn m2_blocks_the_check_once_a_piece_arrives() {
    let g = game("k7/8/8/8/8/8/6PP/r6K[N] w - - 0 1", "mgimo-2017");
    let choice = choose(&g, 5_000);
    assert!(choice.mv.mv.is_drop(), "{:?}", choice.mv);
}

#[test]
fn the_other_board_still_gets_a_move_while_one_waits() {
    let g = game(DISTANT_CHECK, "classic");
    let choice = Engine::new(1).choose(&g, BoardId::B, nodes(500)).expect("board B has moves");
    assert_legal(&g, &choice.mv);
}
