//! The wish for team chat: the piece whose arrival would help most, or none.

mod common;

use bughouse::{BoardId, Seat};
use chess_core::{Color, Role};
use common::{START, game};
use shvedka_engine::Engine;

#[test]
fn wishes_for_the_knight_that_mates() {
    // A knight dropped on f7 would smother the king (classic allows drop mates).
    let g = game("6rk/6pp/8/8/8/8/5PPP/6K1[] w - - 0 1", "classic");
    assert_eq!(Engine::new(3).wish(&g, Seat::new(BoardId::A, Color::White)), Some(Role::Knight));
}

#[test]
fn p3_no_wish_for_a_drop_mate_that_mgimo_forbids() {
    let g = game("6rk/6pp/8/8/8/8/5PPP/6K1[] w - - 0 1", "mgimo-2017");
    assert_ne!(Engine::new(3).wish(&g, Seat::new(BoardId::A, Color::White)), Some(Role::Knight));
}

#[test]
fn no_wish_in_a_quiet_balanced_position() {
    let g = game(START, "mgimo-2017");
    let mut engine = Engine::new(3);
    assert_eq!(engine.wish(&g, Seat::new(BoardId::A, Color::White)), None);
    // Not Black's turn: judged after White's best reply.
    assert_eq!(engine.wish(&g, Seat::new(BoardId::A, Color::Black)), None);
}
