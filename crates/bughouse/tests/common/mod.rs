//! Helpers shared by the rules tests.
#![allow(dead_code)]

use bughouse::{BoardId, BughouseMove, Game, RuleOptions};

pub(crate) const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";

pub(crate) fn game(bfen: &str) -> Game {
    game_with(bfen, "mgimo-2017")
}

pub(crate) fn classic(bfen: &str) -> Game {
    game_with(bfen, "classic")
}

pub(crate) fn game_with(bfen: &str, preset: &str) -> Game {
    let rules = RuleOptions::preset(preset).unwrap().rules().unwrap();
    Game::from_bfen(bfen, rules).unwrap_or_else(|e| panic!("{bfen}: {e}"))
}

pub(crate) fn bfen(a: &str, b: &str) -> String {
    format!("{a} | {b}")
}

pub(crate) fn mv(g: &Game, board: BoardId, text: &str) -> BughouseMove {
    g.parse_move(board, text).unwrap_or_else(|e| panic!("{text} on {board}: {e}\n{}", g.bfen()))
}

pub(crate) fn play(g: &mut Game, board: BoardId, text: &str) {
    let m = mv(g, board, text);
    g.play(m).unwrap();
}

pub(crate) fn moves(g: &Game, board: BoardId) -> Vec<String> {
    let mut v: Vec<String> = g.legal_moves(board).iter().map(|m| g.uci(m)).collect();
    v.sort();
    v
}
