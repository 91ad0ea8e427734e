//! The whole tournament round-trips through serde_json, and no stored state makes it panic.

mod common;

use common::{json, random_results, started};
use shvedka_tournament::{ColourChoice, Format, SeatingChoice, TeamNo, Tournament};
use testkit::SplitMix;

/// A Swiss in the middle of round 3: results, choices, a match link, a withdrawal.
fn in_progress() -> Tournament {
    let mut t = started(Format::Swiss { rounds: 5 }, 7);
    let mut rng = SplitMix(7);
    for round in 1..=2 {
        t.pair_next_round(u64::from(round) * 3_600_000, 600_000).unwrap();
        random_results(&mut t, round, &mut rng);
    }
    t.withdraw(TeamNo(6)).unwrap();
    t.pair_next_round(3 * 3_600_000, 600_000).unwrap();
    let (table, p) = t.round(3).unwrap().pairings().next().unwrap();
    let (first, second) = (p.first, p.second);
    t.choose_seating(3 * 3_600_000, 3, first, 1, SeatingChoice::Crossed).unwrap();
    t.choose_colours(3 * 3_600_000, 3, second, 1, ColourChoice::WhiteOnB).unwrap();
    t.set_match(3, table, 1, 99).unwrap();
    t
}

#[test]
fn tournament_round_trips_through_json() {
    let t = in_progress();
    let text = serde_json::to_string_pretty(&t).unwrap();
    let back: Tournament = serde_json::from_str(&text).unwrap();
    assert_eq!(back, t);
    assert_eq!(json(&back), json(&t));
    assert_eq!(back.standings(), t.standings());
    assert_eq!(back.to_html(), t.to_html());
    // The restored tournament carries on exactly like the original.
    let (mut a, mut b) = (t, back);
    for x in [&mut a, &mut b] {
        x.apply_defaults(u64::MAX);
        random_results(x, 3, &mut SplitMix(3));
        x.pair_next_round(4 * 3_600_000, 1).unwrap();
    }
    assert_eq!(json(&a), json(&b));
}

#[test]
fn a_tampered_state_never_panics() {
    let text = json(&in_progress());
    // Point pairings and the draw at teams that do not exist, and player indices out of range.
    let tampered = [
        text.replace("\"first\":1,", "\"first\":99,"),
        text.replace("\"index\":1", "\"index\":7"),
        text.replace("\"total_rounds\":5", "\"total_rounds\":4000000000"),
        text.replace("\"number\":2,", "\"number\":0,"),
        text.replace("\"draw\":[1,", "\"draw\":[1,1,1,99,"),
    ];
    for tampered in tampered {
        assert_ne!(tampered, text, "the tampering found its target");
        let mut t: Tournament = serde_json::from_str(&tampered).unwrap();
        let _ = (t.standings().to_text(), t.crosstable().to_csv(), t.to_html());
        for round in 0..5 {
            let _ = t.pairing_sheet(round, 0);
            let _ = t.game_seats(round, 1, 1);
        }
        t.apply_defaults(u64::MAX);
        for round in 1..=3 {
            random_results(&mut t, round, &mut SplitMix(1));
        }
        let _ = t.pair_next_round(0, 1);
        let _ = t.withdraw(TeamNo(99));
    }
}

/// What entry, check-in and the director's word add to the state round-trips too: invitations,
/// closed registration, check-ins, Chess960, a round paired by hand with a team absent; and a
/// state stored before they existed reads with their defaults.
#[test]
fn entry_check_in_and_a_pairing_by_hand_round_trip_and_old_states_read() {
    let mut t = Tournament::new("Night", "mgimo-2017", "3+2", Format::Swiss { rounds: 3 }).unwrap();
    t.set_chess960(true).unwrap();
    t.set_check_in(true);
    for i in 1..=4 {
        t.invite(&format!("a{i}"), &format!("Team {i}"), &format!("b{i}"), 5).unwrap();
        t.accept(&format!("b{i}"), &format!("a{i}")).unwrap();
    }
    t.invite("c", "Late", "d", 6).unwrap();
    t.set_registration_open(false).unwrap();
    let before_start: Tournament = serde_json::from_str(&serde_json::to_string(&t).unwrap()).unwrap();
    assert_eq!(before_start, t);
    assert_eq!((before_start.invitations().len(), before_start.registration_open()), (1, false));
    t.start().unwrap();
    for team in [1, 2, 3] {
        t.check_in_team(TeamNo(team)).unwrap();
    }
    let checked: Tournament = serde_json::from_str(&serde_json::to_string(&t).unwrap()).unwrap();
    assert_eq!(checked.checked_in().collect::<Vec<_>>(), [TeamNo(1), TeamNo(2), TeamNo(3)]);
    t.pair_next_round_by_hand(
        0,
        1,
        &[(TeamNo(1), TeamNo(2))],
        &[TeamNo(3)],
        shvedka_tournament::Director::Secret,
    )
    .unwrap();
    let back: Tournament = serde_json::from_str(&serde_json::to_string(&t).unwrap()).unwrap();
    assert_eq!(back, t);
    assert!(back.chess960() && back.asks_check_in());
    assert_eq!(back.round(1).unwrap().absent, [TeamNo(4)]);
    assert_eq!(back.round(1).unwrap().by_hand, Some(shvedka_tournament::Director::Secret));
    // A state without the new fields (stored by an older server) reads with their defaults.
    let mut old: serde_json::Value = serde_json::to_value(&t).unwrap();
    for key in ["registration_closed", "check_in", "checked_in", "invitations", "chess960"] {
        old.as_object_mut().unwrap().remove(key);
    }
    for round in old["rounds"].as_array_mut().unwrap() {
        round.as_object_mut().unwrap().remove("absent");
        round.as_object_mut().unwrap().remove("by_hand");
    }
    let old: Tournament = serde_json::from_value(old).unwrap();
    assert!(!old.chess960() && !old.asks_check_in() && old.invitations().is_empty());
    assert!(old.round(1).unwrap().absent.is_empty() && old.round(1).unwrap().by_hand.is_none());
}
