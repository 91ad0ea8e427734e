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
