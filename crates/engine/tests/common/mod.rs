//! Helpers shared by the engine tests.
#![allow(dead_code)]

use bughouse::{BoardId, BughouseMove, Game, RuleOptions};
use shvedka_engine::{Choice, Engine, Limits};

/// The standard start with empty reserves, one board.
pub(crate) const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";

/// A game of board A's FEN (board B at the start) under a preset.
pub(crate) fn game(a: &str, preset: &str) -> Game {
    game2(a, START, preset)
}

/// A game of two boards' FENs under a preset.
pub(crate) fn game2(a: &str, b: &str, preset: &str) -> Game {
    let rules = RuleOptions::preset(preset).unwrap().rules().unwrap();
    let bfen = format!("{a} | {b}");
    Game::from_bfen(&bfen, rules).unwrap_or_else(|e| panic!("{bfen}: {e}"))
}

/// Node-limited limits (deterministic).
pub(crate) fn nodes(n: u64) -> Limits {
    Limits { time: None, nodes: Some(n), depth: None }
}

/// A level-5 engine's choice on board A under a node limit; panics if there is none.
pub(crate) fn choose(game: &Game, n: u64) -> Choice {
    let choice = Engine::new(5).choose(game, BoardId::A, nodes(n)).expect("a legal move exists");
    assert_legal(game, &choice.mv);
    choice
}

/// Fails unless the move is one of the bughouse crate's legal moves on its board.
pub(crate) fn assert_legal(game: &Game, mv: &BughouseMove) {
    assert!(game.legal_moves(mv.board).contains(mv), "{mv:?} is not legal in {}", game.bfen());
}

/// The game after a move.
pub(crate) fn after(game: &Game, mv: BughouseMove) -> Game {
    let mut g = *game;
    g.play(mv).unwrap();
    g
}
