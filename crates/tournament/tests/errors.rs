//! Bad input is refused with a precise error and leaves the state exactly as it was.

mod common;

use common::{json, registered, started};
use shvedka_tournament::{
    Format, GameRef, GameResult, Outcome, ResultSource, TeamNo, Tournament, TournamentError,
};

fn draw() -> GameResult {
    GameResult::new(Outcome::Draw, ResultSource::OverTheBoard, "agreed")
}

/// Runs a command that must fail with `expected` and checks the state did not change.
fn refused<T: std::fmt::Debug>(
    t: &mut Tournament,
    expected: TournamentError,
    command: impl FnOnce(&mut Tournament) -> Result<T, TournamentError>,
) {
    let before = json(t);
    let got = command(t);
    assert_eq!(got.unwrap_err(), expected);
    assert_eq!(json(t), before, "a refused command changed the state ({expected})");
}

#[test]
fn new_validates_names_and_rounds() {
    let long = "x".repeat(65);
    assert!(Tournament::new(&"x".repeat(64), "mgimo-2017", "3+2", Format::RoundRobin).is_ok());
    for (name, rules, tc) in [
        ("", "r", "t"),
        (long.as_str(), "r", "t"),
        ("  ", "r", "t"),
        ("a\nb", "r", "t"),
        ("n", "", "t"),
        ("n", "r", ""),
    ] {
        assert!(
            matches!(
                Tournament::new(name, rules, tc, Format::RoundRobin),
                Err(TournamentError::InvalidName { .. })
            ),
            "{name:?} {rules:?} {tc:?}"
        );
    }
    assert_eq!(
        Tournament::new("n", "r", "t", Format::Swiss { rounds: 0 }),
        Err(TournamentError::NoSwissRounds)
    );
}

#[test]
fn registration_errors_change_nothing() {
    let mut t = registered(Format::RoundRobin, 2);
    refused(&mut t, TournamentError::DuplicateTeamName("team 1".into()), |t| {
        t.register("team 1", ["X", "Y"])
    });
    refused(&mut t, TournamentError::SamePlayerTwice("Ann".into()), |t| t.register("New", ["Ann", "ann"]));
    let long = "p".repeat(33);
    refused(
        &mut t,
        TournamentError::InvalidName { field: "player name", value: long.clone(), max: 32 },
        |t| t.register("New", ["Ann", &long]),
    );
    refused(&mut t, TournamentError::UnknownTeam(TeamNo(9)), |t| t.withdraw(TeamNo(9)));
    refused(&mut t, TournamentError::NotStarted, |t| t.pair_next_round(0, 1));
    // A team withdrawn before the start leaves the draw, and its name is free again.
    t.withdraw(TeamNo(2)).unwrap();
    refused(&mut t, TournamentError::TooFewTeams { active: 1 }, Tournament::start);
    assert_eq!(t.register("Team 2", ["Q", "R"]), Ok(TeamNo(3)));
    t.start().unwrap();
    assert_eq!(t.entrants(), [TeamNo(1), TeamNo(3)]);
    refused(&mut t, TournamentError::AlreadyStarted, |t| t.register("Late", ["L1", "L2"]));
    refused(&mut t, TournamentError::AlreadyStarted, Tournament::start);
}

#[test]
fn result_errors_change_nothing() {
    let mut t = started(Format::RoundRobin, 3);
    t.pair_next_round(0, 1).unwrap();
    // Berger round 1 for three: 1 has the bye (table 2), 2–3 at table 1.
    let bye_table = 2;
    assert!(t.round(1).unwrap().byes().eq([TeamNo(1)]));
    refused(&mut t, TournamentError::Bye { round: 1, table: bye_table }, |t| {
        t.record_result(1, bye_table, 1, draw())
    });
    refused(&mut t, TournamentError::UnknownRound(2), |t| t.record_result(2, 1, 1, draw()));
    refused(&mut t, TournamentError::UnknownRound(0), |t| t.record_result(0, 1, 1, draw()));
    refused(&mut t, TournamentError::UnknownTable { round: 1, table: 3 }, |t| {
        t.record_result(1, 3, 1, draw())
    });
    refused(&mut t, TournamentError::UnknownTable { round: 1, table: 0 }, |t| {
        t.record_result(1, 0, 1, draw())
    });
    refused(&mut t, TournamentError::UnknownGame(3), |t| t.record_result(1, 1, 3, draw()));
    let at = GameRef { round: 1, table: 1, game: 1 };
    refused(&mut t, TournamentError::NotDecided(at), |t| t.correct_result(1, 1, 1, draw()));
    t.record_result(1, 1, 1, draw()).unwrap();
    refused(&mut t, TournamentError::AlreadyDecided(at), |t| t.record_result(1, 1, 1, draw()));
    refused(&mut t, TournamentError::AlreadyDecided(at), |t| t.set_match(1, 1, 1, 5));
    refused(&mut t, TournamentError::RoundIncomplete(1), |t| t.pair_next_round(0, 1));
    refused(&mut t, TournamentError::UnknownTeam(TeamNo(4)), |t| t.withdraw(TeamNo(4)));
    assert_eq!(t.pairing_sheet(7, 0), Err(TournamentError::UnknownRound(7)));
    // The correction is the one way to change a result.
    let win = GameResult::new(Outcome::FirstWins, ResultSource::OverTheBoard, "corrected");
    t.correct_result(1, 1, 1, win.clone()).unwrap();
    assert_eq!(t.pairing_at(1, 1).unwrap().games[0].result, Some(win));
}

#[test]
fn pairing_stops_when_too_few_teams_remain() {
    let mut t = started(Format::Swiss { rounds: 3 }, 3);
    t.pair_next_round(0, 1).unwrap();
    t.withdraw(TeamNo(1)).unwrap();
    t.withdraw(TeamNo(2)).unwrap();
    // Round 1 is complete now (the games of 1 and 2 were forfeited), but one team remains.
    assert!(t.is_round_complete(1));
    assert!(t.is_finished());
    refused(&mut t, TournamentError::TooFewTeams { active: 1 }, |t| t.pair_next_round(0, 1));
}

/// A result entered by mistake is cleared: the game is undecided again and the standings
/// follow; an online game's result (its match's) is corrected, not cleared, and game 1's stays
/// once game 2 has started. A refused clearing changes nothing.
#[test]
fn a_result_entered_by_mistake_is_cleared() {
    let mut t = started(Format::RoundRobin, 4);
    t.pair_next_round(0, 1).unwrap();
    let at = GameRef { round: 1, table: 1, game: 1 };
    refused(&mut t, TournamentError::NotDecided(at), |t| t.clear_result(1, 1, 1));
    let before = json(&t);
    t.record_result(1, 1, 1, draw()).unwrap();
    t.clear_result(1, 1, 1).unwrap();
    assert_eq!(json(&t), before, "cleared, the tournament is as it was before the entry");
    // Game 2 started (its match linked): game 1's result stays.
    t.record_result(1, 1, 1, draw()).unwrap();
    t.apply_defaults(u64::MAX);
    t.set_match(1, 1, 2, 7).unwrap();
    refused(&mut t, TournamentError::GameTwoStarted(at), |t| t.clear_result(1, 1, 1));
    // Played online: corrected, not cleared.
    t.record_result(1, 1, 2, draw()).unwrap();
    let two = GameRef { game: 2, ..at };
    refused(&mut t, TournamentError::PlayedOnline(two), |t| t.clear_result(1, 1, 2));
}
