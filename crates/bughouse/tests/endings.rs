//! Ending the match (RULES.md section 6): adjudication by E1–E10 as a pure function, and the
//! per-board repetition key and move counts (E4, E5).

mod common;

use bughouse::{
    Adjudication, BoardId::*, DrawKind, EndingEvent as E, MatchResult, Reason, Seat, Team, adjudicate,
};
use chess_core::Color::*;
use common::*;

const WA: Seat = Seat { board: A, color: White };
const BA: Seat = Seat { board: A, color: Black };
const WB: Seat = Seat { board: B, color: White };
const BB: Seat = Seat { board: B, color: Black };

fn result(events: &[E]) -> (MatchResult, &'static str) {
    let Adjudication { result, reason } = adjudicate(events).expect("decided");
    (result, reason.rule())
}

#[test]
fn e1_mate_on_board_wins_for_the_mating_team_even_after_its_flag() {
    assert_eq!(result(&[E::MateOnBoard { winner: BA }]), (MatchResult::Win(Team::Two), "E1"));
    assert_eq!(
        result(&[E::Flag { seat: BB }, E::MateOnBoard { winner: BB }]),
        (MatchResult::Win(Team::One), "E1")
    );
    assert!(adjudicate(&[]).is_none());
}

#[test]
fn e2_mates_by_both_teams_draw() {
    assert_eq!(
        result(&[E::MateOnBoard { winner: WA }, E::MateOnBoard { winner: WB }]),
        (MatchResult::Draw, "E2")
    );
    assert_eq!(
        result(&[E::MateOnBoard { winner: WA }, E::MateOnBoard { winner: BB }]),
        (MatchResult::Win(Team::One), "E1")
    );
}

#[test]
fn e3_e4_e5_a_draw_on_one_board_draws_the_match() {
    for (kind, rule) in
        [(DrawKind::Agreement, "E3"), (DrawKind::Repetition, "E4"), (DrawKind::MoveRule, "E5")]
    {
        assert_eq!(result(&[E::Draw { board: B, kind }]), (MatchResult::Draw, rule));
    }
}

#[test]
fn e6_e7_flags() {
    // One team's flag: it loses.
    let a = adjudicate(&[E::Flag { seat: WB }]).unwrap();
    assert_eq!(a.result, MatchResult::Win(Team::One));
    assert_eq!(a.reason, Reason::Flag(WB));
    // Partners both flagged: still one team.
    assert_eq!(result(&[E::Flag { seat: WA }, E::Flag { seat: BB }]), (MatchResult::Win(Team::Two), "E7"));
    // Both players of one board, or two crosswise players: draw.
    assert_eq!(result(&[E::Flag { seat: WA }, E::Flag { seat: BA }]), (MatchResult::Draw, "E7"));
    assert_eq!(result(&[E::Flag { seat: WA }, E::Flag { seat: WB }]), (MatchResult::Draw, "E7"));
    // E6: a flag counts only without a mate on board.
    assert_eq!(
        result(&[E::Flag { seat: WA }, E::MateOnBoard { winner: WA }]),
        (MatchResult::Win(Team::One), "E1")
    );
}

#[test]
fn e8_e9_priority_mate_over_draw_over_flag() {
    assert_eq!(
        result(&[E::Flag { seat: BA }, E::Draw { board: B, kind: DrawKind::Agreement }]),
        (MatchResult::Draw, "E3")
    );
    assert_eq!(
        result(&[E::Draw { board: B, kind: DrawKind::Repetition }, E::MateOnBoard { winner: WA }]),
        (MatchResult::Win(Team::One), "E1")
    );
}

#[test]
fn e10_resignation_ends_the_match_at_once() {
    assert_eq!(result(&[E::Resign { seat: WB }]), (MatchResult::Win(Team::One), "E10"));
    // What came after the resignation does not count; what came before is weighed first.
    assert_eq!(
        result(&[E::Resign { seat: WB }, E::MateOnBoard { winner: WB }]),
        (MatchResult::Win(Team::One), "E10")
    );
    assert_eq!(
        result(&[E::MateOnBoard { winner: WB }, E::Resign { seat: WA }]),
        (MatchResult::Win(Team::Two), "E1")
    );
    let text = adjudicate(&[E::Resign { seat: WB }]).unwrap().to_string();
    assert_eq!(text, "team 1 wins: white-B resigned (E10)");
}

#[test]
fn e4_the_repetition_key_includes_the_reserves_of_that_board() {
    let mut g = game(&bfen(START, START));
    let start_key = g.repetition_key(A);
    for m in ["Nf3", "Nf6", "Ng1", "Ng8"] {
        play(&mut g, A, m);
    }
    assert_eq!(g.repetition_key(A), start_key, "same position again");
    // A capture on board B changes board A's reserves, and so its key, without a move on A.
    for m in ["e4", "d5", "exd5"] {
        play(&mut g, B, m);
    }
    assert_ne!(g.repetition_key(A), start_key);
}

#[test]
fn e5_a_drop_resets_the_move_count() {
    let mut g = game(&bfen("4k3/8/8/8/8/8/8/4K3[N] w - - 40 60", START));
    assert_eq!(g.halfmoves(A), 40);
    play(&mut g, A, "N@c3");
    assert_eq!(g.halfmoves(A), 0);
    play(&mut g, A, "Kd7");
    assert_eq!(g.halfmoves(A), 1);
}
