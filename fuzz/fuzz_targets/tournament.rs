//! A stored tournament state (serde JSON of `Tournament`): a state that reads writes back to JSON
//! that reads as the same state, and its views and exports never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shvedka_tournament::Tournament;

fuzz_target!(|data: &[u8]| {
    let Ok(tournament) = serde_json::from_slice::<Tournament>(data) else { return };
    let text = serde_json::to_string(&tournament).expect("a state writes");
    let again: Tournament =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{text} does not read back: {e}"));
    assert_eq!(again, tournament);
    let standings = tournament.standings();
    let _ = standings.to_text();
    let _ = standings.to_csv();
    let crosstable = tournament.crosstable();
    let _ = crosstable.to_text();
    let _ = crosstable.to_csv();
    let _ = tournament.to_html();
    let _ = tournament.entrants();
    let _ = tournament.total_rounds();
    let _ = tournament.is_finished();
});
