//! The director overrules the computer: the proposed pairing is what pairing would do, and a
//! pairing by hand is kept as given (named first by the history), logged as by hand, with
//! repeats marked, teams left out absent, and every mistake refused without a change.

mod common;

use common::{appearances, json, pairs, score, started};
use shvedka_tournament::{Director, Format, TeamNo, TournamentError};

fn t(n: u32) -> TeamNo {
    TeamNo(n)
}

/// The proposal is the round the computer pairs, and proposing changes nothing.
#[test]
fn the_proposal_is_what_the_computer_pairs() {
    let mut tour = started(Format::Swiss { rounds: 3 }, 5);
    let before = json(&tour);
    let proposal = tour.propose_next_round(7, 100).unwrap();
    assert_eq!(json(&tour), before, "a proposal pairs nothing");
    tour.pair_next_round(7, 100).unwrap();
    assert_eq!(tour.round(1).unwrap(), &proposal);
    assert!(proposal.by_hand.is_none());
}

/// Swapping two teams of the proposal: the round is paired as given, with the director named.
#[test]
fn a_swap_by_hand_is_paired_as_given_and_names_the_director() {
    let mut tour = started(Format::Swiss { rounds: 3 }, 4);
    let proposal = tour.propose_next_round(0, 1).unwrap();
    // Swiss round 1 of four by seed: 1–3, 2–4. The director swaps 3 and 4.
    assert_eq!(pairs(&proposal), [(t(1), t(3)), (t(2), t(4))]);
    let by = Director::Account("td".into());
    assert_eq!(tour.pair_next_round_by_hand(0, 1, &[(t(1), t(4)), (t(2), t(3))], &[], by.clone()), Ok(1));
    let r = tour.round(1).unwrap();
    assert_eq!(pairs(r), [(t(1), t(4)), (t(2), t(3))]);
    assert_eq!(r.by_hand, Some(by));
    assert!(r.absent.is_empty());
}

/// A bye by hand, a team left out (absent), and a repeat marked as one.
#[test]
fn a_bye_by_hand_a_team_left_out_and_a_repeat() {
    let mut tour = started(Format::Swiss { rounds: 3 }, 4);
    tour.pair_next_round(0, 1).unwrap();
    score(&mut tour, 1, 1, 3, ['W', 'W']);
    score(&mut tour, 1, 2, 4, ['W', 'D']);
    let by = Director::Secret;
    // 1 and 3 meet again; 2 has a bye; 4 is left out.
    assert_eq!(tour.pair_next_round_by_hand(0, 1, &[(t(3), t(1))], &[t(2)], by), Ok(2));
    let r = tour.round(2).unwrap();
    let (_, p) = r.pairing_of(t(1)).unwrap();
    assert!(p.repeat, "1 and 3 met in round 1");
    assert_eq!(r.byes().collect::<Vec<_>>(), [t(2)]);
    assert_eq!(r.absent, [t(4)]);
    assert_eq!(appearances(r), [t(1), t(2), t(3)]);
    // Who is named first follows the history: 1 was first in round 1, so 3 is now.
    assert_eq!((p.first, p.second), (t(3), t(1)));
}

/// Mistakes are refused with what was wrong, and the tournament is as it was.
#[test]
fn a_pairing_by_hand_with_a_mistake_changes_nothing() {
    let mut tour = started(Format::Swiss { rounds: 3 }, 5);
    tour.withdraw(t(5)).unwrap();
    let before = json(&tour);
    let by = || Director::Secret;
    let cases = [
        (vec![(t(1), t(1))], vec![], TournamentError::PlacedTwice(t(1))),
        (vec![(t(1), t(2)), (t(2), t(3))], vec![], TournamentError::PlacedTwice(t(2))),
        (vec![(t(1), t(2))], vec![t(1)], TournamentError::PlacedTwice(t(1))),
        (vec![(t(1), t(9))], vec![], TournamentError::UnknownTeam(t(9))),
        (vec![(t(1), t(5))], vec![], TournamentError::NotInField(t(5))),
    ];
    for (tables, byes, want) in cases {
        assert_eq!(tour.pair_next_round_by_hand(0, 1, &tables, &byes, by()), Err(want.clone()), "{tables:?}");
        assert_eq!(json(&tour), before, "{want:?} changed the tournament");
    }
    // With check-in, a team not checked in is not in the field.
    tour.set_check_in(true);
    tour.check_in_team(t(1)).unwrap();
    tour.check_in_team(t(2)).unwrap();
    assert_eq!(
        tour.pair_next_round_by_hand(0, 1, &[(t(1), t(3))], &[], by()),
        Err(TournamentError::NotInField(t(3)))
    );
    assert_eq!(tour.pair_next_round_by_hand(0, 1, &[(t(1), t(2))], &[], by()), Ok(1));
    assert_eq!(tour.round(1).unwrap().absent, [t(3), t(4)]);
}

/// Four teams play three rounds without a repeat, five teams five; a Swiss's rounds change only
/// before the start and only for a Swiss.
#[test]
fn the_most_rounds_without_a_repeat_and_setting_a_swiss_rounds() {
    let mut four = common::registered(Format::Swiss { rounds: 5 }, 4);
    assert_eq!(four.most_rounds_without_repeat(), 3);
    assert_eq!(common::registered(Format::Swiss { rounds: 5 }, 5).most_rounds_without_repeat(), 5);
    assert_eq!(common::registered(Format::Swiss { rounds: 5 }, 1).most_rounds_without_repeat(), 0);
    assert_eq!(four.set_swiss_rounds(0), Err(TournamentError::NoSwissRounds));
    four.set_swiss_rounds(3).unwrap();
    assert_eq!(four.format(), Format::Swiss { rounds: 3 });
    four.start().unwrap();
    assert_eq!(four.set_swiss_rounds(2), Err(TournamentError::AlreadyStarted));
    let mut rr = common::registered(Format::RoundRobin, 4);
    assert_eq!(rr.set_swiss_rounds(2), Err(TournamentError::NotASwiss));
}
