//! Captures, drops and promotions on hand-built positions, one test per rule id of RULES.md
//! sections 1–4 (S, C, P, R).

mod common;

use bughouse::{BoardId::*, MoveTextError, RuleId, Seat, Team};
use chess_core::{Color, Role};
use common::*;

fn rule_of(g: &bughouse::Game, board: bughouse::BoardId, text: &str) -> RuleId {
    match g.parse_move(board, text) {
        Err(MoveTextError::Illegal { error, .. }) => error.rule,
        other => panic!("{text}: expected an illegal move, got {other:?}"),
    }
}

const W_A: Seat = Seat { board: A, color: Color::White };
const B_A: Seat = Seat { board: A, color: Color::Black };
const W_B: Seat = Seat { board: B, color: Color::White };
const B_B: Seat = Seat { board: B, color: Color::Black };

#[test]
fn s1_s2_teams_partners_and_crosswise() {
    assert_eq!(
        (W_A.team(), B_B.team(), B_A.team(), W_B.team()),
        (Team::One, Team::One, Team::Two, Team::Two)
    );
    assert_eq!((W_A.partner(), B_A.partner()), (B_B, W_B));
    assert_eq!((W_A.crosswise(), B_A.crosswise()), (W_B, B_B));
}

#[test]
fn c1_captures_go_to_the_capturers_partner_with_their_colour() {
    let mut g = game(&bfen(START, START));
    for (b, m) in [(A, "e4"), (A, "d5"), (A, "exd5")] {
        play(&mut g, b, m);
    }
    // White-A took a black pawn: Black-B (White-A's partner) holds it.
    assert_eq!(g.reserve(B_B, Role::Pawn), 1);
    assert_eq!(g.reserve(W_A, Role::Pawn) + g.reserve(B_A, Role::Pawn) + g.reserve(W_B, Role::Pawn), 0);
    // White-B takes a black pawn on B: Black-A holds it.
    for (b, m) in [(B, "e4"), (B, "d5"), (B, "exd5")] {
        play(&mut g, b, m);
    }
    assert_eq!(g.reserve(B_A, Role::Pawn), 1);
    assert_eq!((g.units(Color::White), g.units(Color::Black)), (32, 32), "C2");
}

#[test]
fn p1_drops_need_the_piece_an_empty_square_and_a_safe_king() {
    let g = game(&bfen("4k3/8/8/8/8/8/8/r3K3[N] w - - 0 1", START));
    assert_eq!(moves(&g, A).iter().filter(|m| m.starts_with("N@")).count(), 3, "only interposing drops");
    assert_eq!(rule_of(&g, A, "N@e4"), RuleId::P1);
    assert_eq!(rule_of(&g, A, "B@c1"), RuleId::P1);
    let g = game(&bfen("4k3/8/8/8/8/8/8/4K3[N] w - - 0 1", START));
    assert_eq!(rule_of(&g, A, "N@e8"), RuleId::P1);
}

#[test]
fn p2_pawn_drop_ranks_by_preset() {
    let a = "4k3/8/8/8/8/8/8/4K3[Pp] w - - 0 1";
    let g = game(&bfen(a, START));
    assert_eq!(rule_of(&g, A, "P@a7"), RuleId::P2, "MGIMO: no pawn drops on the 7th");
    assert_eq!(rule_of(&g, A, "P@a1"), RuleId::P2);
    assert!(g.parse_move(A, "P@a6").is_ok());
    assert!(classic(&bfen(a, START)).parse_move(A, "P@a7").is_ok(), "classic: 2..=7");
    // Black counts from its side: its 7th rank is rank 2.
    let g = game(&bfen("4k3/8/8/8/8/8/8/4K3[Pp] b - - 0 1", START));
    assert_eq!(rule_of(&g, A, "P@a2"), RuleId::P2);
    assert!(g.parse_move(A, "P@a3").is_ok());
}

#[test]
fn p3_a_drop_may_not_give_mate_on_board_but_may_give_a_blockable_mate() {
    // N@f7 smothers the king: mate on board.
    let a = "6rk/6pp/8/8/8/8/8/K7[NR] w - - 0 1";
    let g = game(&bfen(a, START));
    assert_eq!(rule_of(&g, A, "N@f7"), RuleId::P3);
    assert!(g.parse_move(A, "N@f7").unwrap_err().to_string().contains("mate on board (P3)"));
    assert!(classic(&bfen(a, START)).parse_move(A, "N@f7").is_ok(), "classic allows it");
    // A back-rank check from a distance is chess mate (Black holds nothing) but could be blocked by
    // a drop: legal, and Black must wait (M2).
    let a = "6k1/5ppp/8/8/8/8/8/K7[R] w - - 0 1";
    let mut g = game(&bfen(a, START));
    play(&mut g, A, "R@a8");
    let s = g.status(A);
    assert!(s.in_check && !s.mate_on_board && s.waiting && s.legal_moves == 0);
}

#[test]
fn p4_a_dropped_pawn_double_steps_and_is_taken_en_passant() {
    let mut g = game(&bfen("4k3/8/8/8/3p4/8/8/4K3[P] w - - 0 1", START));
    for m in ["P@e2", "Kd8", "e4"] {
        play(&mut g, A, m);
    }
    assert!(moves(&g, A).contains(&"d4e3".to_owned()));
    play(&mut g, A, "dxe3");
    // Black-A took a white pawn: its partner White-B holds it.
    assert_eq!(g.reserve(W_B, Role::Pawn), 1);
}

#[test]
fn p5_castling_with_a_dropped_rook_after_the_original_was_captured() {
    // White's h1 rook was captured; the king never moved (`U` in BFEN). A rook dropped on h1 may
    // castle (MGIMO); under classic rules it may not.
    let a = "r3k3/8/8/8/8/8/8/R3K3[R] w QU - 0 20";
    for (preset, can) in [("mgimo-2017", true), ("classic", false)] {
        let mut g = game_with(&bfen(a, START), preset);
        play(&mut g, A, "R@h1");
        play(&mut g, A, "Kd8");
        assert_eq!(g.parse_move(A, "O-O").is_ok(), can, "{preset}");
    }
    // P5a: the unmoved king survives export and import.
    let g = game(&bfen("4k3/8/8/8/8/8/8/4K3[R] w Uu - 0 1", START));
    assert!(g.bfen().starts_with("4k3/8/8/8/8/8/8/4K3[R] w Uu -"), "{}", g.bfen());
    assert!(
        bughouse::Game::from_bfen(
            "4k3/8/8/8/8/8/4K3/8[] w U - 0 1 | 4k3/8/8/8/8/8/8/4K3[] w - - 0 1",
            *g.rules()
        )
        .is_err()
    );
}

/// Board B for the removal tests: White-B is in a smothered-mate net that only its d2 queen
/// prevents (it can take the f2 knight).
const NET: &str = "4k3/8/8/8/8/8/3Q1nPP/6RK[] w - - 0 1";
const PROMOTER: &str = "7k/1P6/8/8/8/8/8/K7[] w - - 0 1";

#[test]
fn r1_r2_promotion_removes_a_crosswise_piece_and_passes_the_pawn() {
    let b = "4k3/8/8/8/8/8/8/3QK2R[] b K - 0 1";
    let mut g = game(&bfen(PROMOTER, b));
    assert_eq!(
        moves(&g, A).iter().filter(|m| m.starts_with("b7b8")).cloned().collect::<Vec<_>>(),
        ["b7b8qd1", "b7b8rh1"]
    );
    play(&mut g, A, "b7b8qd1");
    assert!(g.bfen().starts_with("1Q5k/8/8/8/8/8/8/K7[] b"), "{}", g.bfen());
    assert!(g.bfen().contains("| 4k3/8/8/8/8/8/8/4K2R[P] b K"), "{}", g.bfen());
    // R2: a capturing promotion sends the captured piece to the partner.
    let mut g = game(&bfen("r6k/1P6/8/8/8/8/8/K7[] w - - 0 1", b));
    play(&mut g, A, "bxa8=Rh1");
    assert_eq!(g.reserve(B_B, Role::Rook), 1, "captured rook to Black-B");
    assert_eq!(g.reserve(W_B, Role::Pawn), 1, "pawn to White-B");
    assert_eq!((g.units(Color::White), g.units(Color::Black)), (5, 3), "C2: nothing created or lost");
}

#[test]
fn r3_a_pinned_piece_may_go_unless_it_leaves_mate_on_board_or_the_king_in_check() {
    // White-B is to move: removing the queen would leave smothered mate on board; the rook may go.
    let g = game(&bfen(PROMOTER, NET));
    let promos: Vec<String> = moves(&g, A).into_iter().filter(|m| m.starts_with("b7b8")).collect();
    assert_eq!(promos, ["b7b8rg1"]);
    assert_eq!(rule_of(&g, A, "b7b8qd2"), RuleId::R3);
    // White-B is not to move: removing the pinned bishop would leave his king in check.
    let pinned = "4r1k1/8/8/8/8/8/4B3/4K3[] b - - 0 1";
    let g = game(&bfen(PROMOTER, pinned));
    assert_eq!(rule_of(&g, A, "b7b8be2"), RuleId::R3);
}

#[test]
fn r3_removal_may_not_leave_the_other_king_attacked() {
    // White-B (the crosswise player) is to move: taking the e4 knight would uncover his own rook
    // on the black king, who is not to move; only the rook may go.
    let uncovers = "4k3/8/8/8/4N3/8/8/4RK2[] w - - 0 1";
    let g = game(&bfen(PROMOTER, uncovers));
    let promos: Vec<String> = moves(&g, A).into_iter().filter(|m| m.starts_with("b7b8")).collect();
    assert_eq!(promos, ["b7b8re1"]);
    assert_eq!(rule_of(&g, A, "b7b8ne4"), RuleId::R3);
    // Black-B (his opponent) is to move: the same removal only gives Black a check to answer.
    let black_to_move = "4k3/8/8/8/4N3/8/8/4RK2[] b - - 0 1";
    let mut g = game(&bfen(PROMOTER, black_to_move));
    let promos: Vec<String> = moves(&g, A).into_iter().filter(|m| m.starts_with("b7b8")).collect();
    assert_eq!(promos, ["b7b8ne4", "b7b8re1"]);
    play(&mut g, A, "b7b8ne4");
    assert!(g.board(B).is_check(), "Black-B is in check on his own move");
    // ...but a removal that exposes White-B's own king, not to move, stays refused.
    let pinned = "4r1k1/8/8/8/8/8/4B3/4K3[] b - - 0 1";
    let g = game(&bfen(PROMOTER, pinned));
    assert_eq!(rule_of(&g, A, "b7b8be2"), RuleId::R3);
}

#[test]
fn r4_nothing_removable_means_the_pawn_just_passes_crosswise() {
    let pinned = "4r1k1/8/8/8/8/8/4B3/4K3[] b - - 0 1";
    let mut g = game(&bfen(PROMOTER, pinned));
    assert_eq!(moves(&g, A).iter().filter(|m| m.starts_with("b7")).cloned().collect::<Vec<_>>(), ["b7b8"]);
    play(&mut g, A, "b8");
    assert!(g.bfen().starts_with("7k/8/8/8/8/8/8/K7[] b"), "square left empty: {}", g.bfen());
    assert_eq!(g.reserve(W_B, Role::Pawn), 1);
    // Where a piece can be removed, the plain promotion is refused.
    let g = game(&bfen(PROMOTER, NET));
    assert_eq!(rule_of(&g, A, "b7b8"), RuleId::R4);
    // Only pawns on the other board: nothing to remove.
    let g = game(&bfen(PROMOTER, "4k3/8/8/8/8/8/PPP5/4K3[] w - - 0 1"));
    assert!(moves(&g, A).contains(&"b7b8".to_owned()));
}

#[test]
fn r5_a_removed_corner_rook_takes_its_castling_right_along() {
    let b = "4k3/8/8/8/8/8/8/R3K3[] b Q - 0 1";
    let mut g = game(&bfen(PROMOTER, b));
    play(&mut g, A, "b7b8ra1");
    assert!(g.bfen().ends_with("4k3/8/8/8/8/8/8/4K3[P] b U - 0 1"), "{}", g.bfen());
    // The removed rook is an ordinary rook on its new board (no promoted mark).
    assert!(g.board(A).board().promoted().is_empty());
}

#[test]
fn r6_classic_upgrade_and_the_promoted_piece_returns_as_a_pawn() {
    let mut g = classic(&bfen("1r5k/P7/8/8/8/8/8/K7[] w - - 0 1", START));
    play(&mut g, A, "a8=Q");
    assert_eq!(g.board(A).fen().split(' ').next().unwrap(), "Q~r5k/8/8/8/8/8/8/K7[]");
    play(&mut g, A, "Rxa8");
    assert_eq!(g.reserve(W_B, Role::Pawn), 1, "the promoted queen returns as a pawn");
    assert_eq!(g.reserve(W_B, Role::Queen), 0);
}

#[test]
fn r7_removal_notation_long_and_san() {
    let b = "4k3/8/8/8/8/8/8/3QK2R[] b K - 0 1";
    let g = game(&bfen(PROMOTER, b));
    let m = mv(&g, A, "b8=Qd1");
    assert_eq!(g.uci(&m), "b7b8qd1");
    assert_eq!(g.san(&m), "b8=Qd1+");
    assert_eq!(mv(&g, A, "b7b8qd1"), m);
    assert!(matches!(g.parse_move(A, "b7b8q"), Err(MoveTextError::Syntax { .. })));
    assert_eq!(rule_of(&g, A, "b7b8rd1"), RuleId::R7, "the role letter must match the piece");
    let pinned = "4r1k1/8/8/8/8/8/4B3/4K3[] b - - 0 1";
    let g = game(&bfen(PROMOTER, pinned));
    let m = mv(&g, A, "b8");
    assert_eq!((g.uci(&m), g.san(&m)), ("b7b8".to_owned(), "b8".to_owned()));
}
