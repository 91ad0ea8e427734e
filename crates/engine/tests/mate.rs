//! Mates in one: on the board (M1), by a drop where allowed, and never by a drop under MGIMO (P3).

mod common;

use bughouse::BoardId;
use common::{after, choose, game};
use shvedka_engine::MATE;

/// White mates with Qg7 (supported by the f6 pawn): a contact check, so mate on board.
const QUEEN_MATE: &str = "r5k1/5p1p/5PpQ/8/8/8/5PPP/6K1[] w - - 0 1";

/// Smothered king: a knight dropped on f7 mates; White holds a knight.
const SMOTHERED: &str = "6rk/6pp/8/8/8/8/5PPP/6K1[N] w - - 0 1";

/// Qg8+ Rxg8 N@f7 is a smothered mate ending in a drop: a mate in two under classic rules, a
/// queen thrown away under MGIMO (P3).
const SACRIFICE_THEN_DROP: &str = "r6k/6pp/8/3Q4/8/8/B4PPP/6K1[N] w - - 0 1";

#[test]
fn m1_finds_mate_on_board_in_one() {
    let g = game(QUEEN_MATE, "mgimo-2017");
    let choice = choose(&g, 20_000);
    assert!(after(&g, choice.mv).is_mate_on_board(BoardId::A), "{:?} does not mate", choice.mv);
    assert_eq!(choice.score, MATE - 1);
}

#[test]
fn p3_classic_finds_drop_mate_in_one() {
    let g = game(SMOTHERED, "classic");
    let choice = choose(&g, 20_000);
    assert!(choice.mv.mv.is_drop(), "{:?} is not a drop", choice.mv);
    assert!(after(&g, choice.mv).is_mate_on_board(BoardId::A), "{:?} does not mate", choice.mv);
    assert_eq!(choice.score, MATE - 1);
}

#[test]
fn p3_mgimo_never_plays_a_drop_mate() {
    let g = game(SMOTHERED, "mgimo-2017");
    let choice = choose(&g, 20_000);
    assert!(!after(&g, choice.mv).is_mate_on_board(BoardId::A), "{:?} mates by a drop", choice.mv);
    // Inside the tree too the forbidden drop mate is no mate: the search sees no forced mate.
    assert!(choice.score < MATE - 1_000, "score {} claims a mate", choice.score);
}

#[test]
fn p3_classic_finds_a_mate_in_two_ending_in_a_drop() {
    let g = game(SACRIFICE_THEN_DROP, "classic");
    let choice = choose(&g, 20_000);
    assert_eq!(g.uci(&choice.mv), "d5g8");
    assert_eq!(choice.score, MATE - 3);
}

#[test]
fn p3_mgimo_search_knows_a_drop_may_not_mate() {
    let g = game(SACRIFICE_THEN_DROP, "mgimo-2017");
    let choice = choose(&g, 20_000);
    assert_ne!(g.uci(&choice.mv), "d5g8", "the queen sacrifice only works with a forbidden drop mate");
    assert_ne!(choice.score, MATE - 3);
}
