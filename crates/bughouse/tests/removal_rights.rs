//! A promotion by removal (R1) changes the other board between two of its moves. The rights chess
//! derives from the previous move — en passant above all — must follow the position as it now
//! stands: a right a pin withheld comes when the removal lifts the pin, a right a removal makes
//! illegal goes, and comes back when a later removal makes it legal again. Each test plays the
//! boards as a match would: a double step on board B, promotions on board A, then board B's reply.

mod common;

use bughouse::{BoardId::*, Game, Seat};
use chess_core::{Color, Role, Square};
use common::*;

const W_A: Seat = Seat { board: A, color: Color::White };

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

/// The repetition key (E4) of board B must be the key of the same position read from its BFEN:
/// the hash follows the right as it stands, not as it was.
fn assert_b_key_is_fresh(g: &Game, b_now: &str) {
    let fresh = game(&bfen(START, b_now));
    assert_eq!(g.bfen().split(" | ").nth(1).unwrap(), b_now);
    assert_eq!(g.repetition_key(B), fresh.repetition_key(B), "{}", g.bfen());
}

/// (a) Board B: Black's king on a4 and pawn on e4, White's rook on h4. After d2–d4, exd3 would
/// open the fourth rank to the rook, so Black has no en passant capture. White-A then promotes and
/// lifts that rook (White-B is his crosswise player): the pin is gone, and the position Black now
/// faces — White just played d2–d4 — gives him exd3.
#[test]
fn r1_a_removal_that_lifts_the_pin_gives_the_en_passant_right() {
    let a = "7k/1P6/8/8/8/8/8/K7[] w - - 0 1";
    let b = "8/8/8/8/k3p2R/8/3P4/6K1[] w - - 0 1";
    let mut g = game(&bfen(a, b));
    play(&mut g, B, "d4");
    assert!(!moves(&g, B).contains(&"e4d3".to_owned()), "pinned along the fourth rank");
    assert_eq!(g.board(B).ep_square(), None);
    assert_b_key_is_fresh(&g, "8/8/8/8/k2Pp2R/8/8/6K1[] b - - 0 1");

    play(&mut g, A, "b7b8rh4");
    assert!(moves(&g, B).contains(&"e4d3".to_owned()), "{}", g.bfen());
    assert_eq!(g.board(B).ep_square(), Some(sq("d3")));
    assert_b_key_is_fresh(&g, "8/8/8/8/k2Pp3/8/8/6K1[P] b - d3 0 1");

    play(&mut g, B, "exd3");
    // Black-B took a white pawn: his partner White-A holds it (C1).
    assert_eq!(g.reserve(W_A, Role::Pawn), 1);
    assert_eq!(g.bfen().split(" | ").nth(1).unwrap(), "8/8/8/8/k7/3p4/8/6K1[P] w - - 0 2");
}

/// (b) Board B: Black plays d7–d5 beside White's e5 pawn; White's king stands on h5, his bishop on
/// b5 shields it from Black's rook on a5, so exd6 is legal. White-A promotes and lifts that bishop:
/// exd6 would now open the fifth rank, so the right is gone (FEN, hash and move list alike).
/// Black-A promotes next and lifts the a5 rook (Black-B is his crosswise player): nothing pins any
/// more, White has still not moved on B since d7–d5, so exd6 is legal again.
#[test]
fn r1_a_removal_that_pins_takes_the_en_passant_right_and_one_that_unpins_gives_it_back() {
    let a = "7k/1P6/8/8/8/8/1p6/7K[] w - - 0 1";
    let b = "6k1/3p4/8/rB2P2K/8/8/8/8[] b - - 0 1";
    let mut g = game(&bfen(a, b));
    play(&mut g, B, "d5");
    assert!(moves(&g, B).contains(&"e5d6".to_owned()));
    assert_b_key_is_fresh(&g, "6k1/8/8/rB1pP2K/8/8/8/8[] w - d6 0 2");

    play(&mut g, A, "b7b8bb5");
    assert!(!moves(&g, B).contains(&"e5d6".to_owned()), "{}", g.bfen());
    assert_eq!(g.board(B).ep_square(), None);
    assert_b_key_is_fresh(&g, "6k1/8/8/r2pP2K/8/8/8/8[P] w - - 0 2");

    play(&mut g, A, "b2b1ra5");
    assert!(moves(&g, B).contains(&"e5d6".to_owned()), "{}", g.bfen());
    assert_eq!(g.board(B).ep_square(), Some(sq("d6")));
    assert_b_key_is_fresh(&g, "6k1/8/8/3pP2K/8/8/8/8[Pp] w - d6 0 2");

    play(&mut g, B, "exd6");
    assert_eq!(g.bfen().split(" | ").nth(1).unwrap(), "6k1/8/3P4/7K/8/8/8/8[Pp] b - - 0 2");
}
