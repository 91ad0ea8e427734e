//! RULES.md S1 and S3: who chooses seating and colours in each game, deadlines, defaults, seats.

mod common;

use common::{json, started};
use shvedka_tournament::{
    ColourChoice, Format, GameRef, GameResult, Outcome, PlayerRef, ResultSource, SeatingChoice, TeamNo,
    Tournament, TournamentError,
};

const DUE: u64 = 1_000_000 + 600_000;

/// Two teams, round 1 paired at t = 1 000 000 ms with a 10-minute window: team 1 is named first.
fn paired() -> Tournament {
    let mut t = started(Format::RoundRobin, 2);
    t.pair_next_round(1_000_000, 600_000).unwrap();
    let p = t.pairing_at(1, 1).unwrap();
    assert_eq!((p.first, p.second), (TeamNo(1), TeamNo(2)));
    assert!(p.games.iter().all(|g| g.choices_due_ms == DUE));
    t
}

fn player(team: u32, index: usize) -> PlayerRef {
    PlayerRef { team: TeamNo(team), index }
}

#[test]
fn s3_game_one_first_named_chooses_seating_other_chooses_colours() {
    let mut t = paired();
    let p = t.pairing_at(1, 1).unwrap();
    assert_eq!((p.seating_team(1), p.colour_team(1)), (Some(TeamNo(1)), Some(TeamNo(2))));
    t.choose_seating(DUE - 1, 1, TeamNo(1), 1, SeatingChoice::Crossed).unwrap();
    assert_eq!(t.game_seats(1, 1, 1), None, "seats wait for both choices");
    t.choose_colours(DUE - 1, 1, TeamNo(2), 1, ColourChoice::WhiteOnB).unwrap();
    // Board A holds team 1's first player; crossed, he faces team 2's second player. Team 2 chose
    // White on B, so it has Black on A (S1): White-A P1a, Black-A P2b, White-B P2a, Black-B P1b.
    let seats = t.game_seats(1, 1, 1).unwrap();
    assert_eq!(seats, [player(1, 0), player(2, 1), player(2, 0), player(1, 1)]);
    assert_eq!(t.pairing_at(1, 1).unwrap().games[0].seats, Some(seats));
}

#[test]
fn s3_game_two_swaps_who_chooses() {
    let mut t = paired();
    let before = json(&t);
    assert!(matches!(
        t.choose_seating(0, 1, TeamNo(1), 2, SeatingChoice::Straight),
        Err(TournamentError::NotYourChoice { team: TeamNo(1), choice: "seating", .. })
    ));
    assert!(matches!(
        t.choose_colours(0, 1, TeamNo(2), 2, ColourChoice::WhiteOnA),
        Err(TournamentError::NotYourChoice { team: TeamNo(2), choice: "colours", .. })
    ));
    assert_eq!(json(&t), before, "a refused choice changes nothing");
    t.choose_seating(0, 1, TeamNo(2), 2, SeatingChoice::Straight).unwrap();
    t.choose_colours(0, 1, TeamNo(1), 2, ColourChoice::WhiteOnA).unwrap();
    // Board A holds team 2's first player facing team 1's first; team 1 has White on A, Black on B.
    assert_eq!(t.game_seats(1, 1, 2), Some([player(1, 0), player(2, 0), player(2, 1), player(1, 1)]));
}

#[test]
fn s1_every_seating_gives_each_team_one_white_and_one_black_and_partners_side_by_side() {
    for seating in [SeatingChoice::Straight, SeatingChoice::Crossed] {
        for colours in [ColourChoice::WhiteOnA, ColourChoice::WhiteOnB] {
            let s = shvedka_tournament::seats(TeamNo(7), TeamNo(9), seating, colours);
            // Partners (White-A & Black-B, Black-A & White-B) are team-mates, the two teams differ.
            assert_eq!(s[0].team, s[3].team);
            assert_eq!(s[1].team, s[2].team);
            assert_ne!(s[0].team, s[1].team);
            // Board A (seats 0, 1) holds the seating team's first player.
            assert!(s[..2].contains(&PlayerRef { team: TeamNo(7), index: 0 }));
            let white_a_team = if colours == ColourChoice::WhiteOnA { TeamNo(9) } else { TeamNo(7) };
            assert_eq!(s[0].team, white_a_team);
            let mut all: Vec<_> = s.iter().map(|p| (p.team, p.index)).collect();
            all.sort();
            assert_eq!(all, [(TeamNo(7), 0), (TeamNo(7), 1), (TeamNo(9), 0), (TeamNo(9), 1)]);
        }
    }
}

#[test]
fn s3_wrong_team_after_deadline_and_unknowns_are_refused_and_change_nothing() {
    let mut t = paired();
    let before = json(&t);
    let at = GameRef { round: 1, table: 1, game: 1 };
    assert!(matches!(
        t.choose_colours(0, 1, TeamNo(1), 1, ColourChoice::WhiteOnA),
        Err(TournamentError::NotYourChoice { .. })
    ));
    assert_eq!(
        t.choose_seating(DUE, 1, TeamNo(1), 1, SeatingChoice::Straight),
        Err(TournamentError::DeadlinePassed { game: at, due_ms: DUE, now_ms: DUE })
    );
    assert_eq!(
        t.choose_seating(0, 1, TeamNo(3), 1, SeatingChoice::Straight),
        Err(TournamentError::UnknownTeam(TeamNo(3)))
    );
    assert_eq!(
        t.choose_seating(0, 2, TeamNo(1), 1, SeatingChoice::Straight),
        Err(TournamentError::UnknownRound(2))
    );
    assert_eq!(
        t.choose_seating(0, 1, TeamNo(1), 3, SeatingChoice::Straight),
        Err(TournamentError::UnknownGame(3))
    );
    assert_eq!(
        t.choose_seating(0, 1, TeamNo(1), 0, SeatingChoice::Straight),
        Err(TournamentError::UnknownGame(0))
    );
    assert_eq!(json(&t), before);
    // A choice is final.
    t.choose_seating(0, 1, TeamNo(1), 1, SeatingChoice::Crossed).unwrap();
    let chosen = json(&t);
    assert_eq!(
        t.choose_seating(1, 1, TeamNo(1), 1, SeatingChoice::Straight),
        Err(TournamentError::AlreadyChosen { choice: "seating", game: at })
    );
    assert_eq!(json(&t), chosen);
}

#[test]
fn s3_choices_close_when_the_game_starts() {
    let mut t = paired();
    let at = GameRef { round: 1, table: 1, game: 1 };
    assert_eq!(t.set_match(1, 1, 1, 42), Err(TournamentError::ChoicesPending(at)));
    t.choose_seating(0, 1, TeamNo(1), 1, SeatingChoice::Straight).unwrap();
    t.choose_colours(0, 1, TeamNo(2), 1, ColourChoice::WhiteOnA).unwrap();
    t.set_match(1, 1, 1, 42).unwrap();
    assert_eq!(t.pairing_at(1, 1).unwrap().games[0].match_id, Some(42));
    // Game 2 has a result (a forfeit entered before any choice): its choices are closed too.
    t.record_result(1, 1, 2, GameResult::new(Outcome::FirstWins, ResultSource::Forfeit, "no show")).unwrap();
    let before = json(&t);
    assert_eq!(
        t.choose_seating(0, 1, TeamNo(2), 2, SeatingChoice::Straight),
        Err(TournamentError::GameStarted(GameRef { game: 2, ..at }))
    );
    assert_eq!(t.set_choices_due(1, 1, 1, DUE * 2), Err(TournamentError::GameStarted(at)));
    assert_eq!(json(&t), before);
}

#[test]
fn s3_defaults_apply_after_the_deadline_and_not_before() {
    let mut t = paired();
    t.choose_colours(0, 1, TeamNo(2), 1, ColourChoice::WhiteOnB).unwrap();
    let before = json(&t);
    assert!(t.apply_defaults(DUE - 1).is_empty());
    assert_eq!(json(&t), before, "nothing is defaulted before the deadline");
    let touched = t.apply_defaults(DUE);
    assert_eq!(touched, [GameRef { round: 1, table: 1, game: 1 }, GameRef { round: 1, table: 1, game: 2 }]);
    let games = &t.pairing_at(1, 1).unwrap().games;
    // Game 1: team 1's missing seating defaults to Straight; team 2's colour choice stands.
    assert_eq!(
        (games[0].seating, games[0].colours),
        (Some(SeatingChoice::Straight), Some(ColourChoice::WhiteOnB))
    );
    assert_eq!(t.game_seats(1, 1, 1), Some([player(1, 0), player(2, 0), player(2, 1), player(1, 1)]));
    // Game 2: both defaulted — team 2 seats Straight, team 1 takes White on A.
    assert_eq!(
        (games[1].seating, games[1].colours),
        (Some(SeatingChoice::Straight), Some(ColourChoice::WhiteOnA))
    );
    assert_eq!(t.game_seats(1, 1, 2), Some([player(1, 0), player(2, 0), player(2, 1), player(1, 1)]));
    // What was defaulted is said so (a team's card does not claim it chose): game 1's seating
    // only, game 2's both.
    let defaulted: Vec<(bool, bool)> =
        games.iter().map(|g| (g.seating_defaulted, g.colours_defaulted)).collect();
    assert_eq!(defaulted, [(true, false), (true, true)]);
    assert!(t.apply_defaults(DUE + 1).is_empty(), "defaults apply once");
    t.set_match(1, 1, 2, 7).unwrap();
}

#[test]
fn set_choices_due_gives_game_two_its_own_window() {
    let mut t = paired();
    t.set_choices_due(1, 1, 2, DUE + 3_600_000).unwrap();
    assert_eq!(t.apply_defaults(DUE + 1), [GameRef { round: 1, table: 1, game: 1 }]);
    t.choose_seating(DUE + 1, 1, TeamNo(2), 2, SeatingChoice::Crossed).unwrap();
    assert_eq!(t.pairing_sheet(1, 0).unwrap().matches("choices pending (due 01:26)").count(), 1);
}

#[test]
fn a_team_with_a_bye_has_no_choice_to_make() {
    let mut t = started(Format::RoundRobin, 3);
    t.pair_next_round(0, 1000).unwrap();
    let bye = t.round(1).unwrap().byes().next().unwrap();
    let table = u32::try_from(t.round(1).unwrap().fixtures.len()).unwrap();
    let before = json(&t);
    assert_eq!(
        t.choose_seating(0, 1, bye, 1, SeatingChoice::Straight),
        Err(TournamentError::NotPaired { round: 1, team: bye })
    );
    assert_eq!(t.game_seats(1, table, 1), None);
    assert_eq!(t.set_match(1, table, 1, 1), Err(TournamentError::Bye { round: 1, table }));
    assert_eq!(json(&t), before);
}

/// S3 online: game 2 is played after game 1, so its choices wait for game 1 — no defaults fill
/// them while game 1 is played, however long it takes — and then have the round's whole window
/// from game 1's result. Over the board the deadlines stay as paired.
#[test]
fn s3_online_game_two_choices_open_when_game_one_ends_with_a_window_of_their_own() {
    let mut t = paired();
    assert_eq!(t.round(1).unwrap().choice_window_ms, 600_000, "the round keeps its window");
    assert_eq!(t.apply_defaults_in_play(DUE + 1), [GameRef { round: 1, table: 1, game: 1 }]);
    t.set_match(1, 1, 1, 5).unwrap();
    // Game 1 is long: game 2's deadline passes while it is played, and nothing is filled.
    let game_one_ends = DUE + 3_600_000;
    assert!(t.apply_defaults_in_play(game_one_ends).is_empty(), "game 2 waits for game 1");
    assert_eq!(t.game_seats(1, 1, 2), None);
    let win = GameResult::new(Outcome::FirstWins, ResultSource::Online, "");
    t.record_result(1, 1, 1, win).unwrap();
    assert_eq!(t.open_game_two(1, 1, game_one_ends), Ok(true));
    assert_eq!(t.pairing_at(1, 1).unwrap().games[1].choices_due_ms, game_one_ends + 600_000);
    assert_eq!(t.open_game_two(1, 1, game_one_ends), Ok(false), "a later window already");
    // Game 2's seating is team 2's to choose (S3), within its window.
    t.choose_seating(game_one_ends + 1, 1, TeamNo(2), 2, SeatingChoice::Crossed).unwrap();
    assert!(t.apply_defaults_in_play(game_one_ends + 599_999).is_empty(), "open till its deadline");
    assert_eq!(t.apply_defaults_in_play(game_one_ends + 600_000), [GameRef { round: 1, table: 1, game: 2 }]);
    assert_eq!(
        t.pairing_at(1, 1).unwrap().games[1].seating,
        Some(SeatingChoice::Crossed),
        "the choice made is kept, the missing one defaulted"
    );
    assert_eq!(t.open_game_two(1, 1, game_one_ends + 700_000), Ok(false), "its seats are known");
    assert_eq!(t.open_game_two(9, 1, 0), Err(TournamentError::UnknownRound(9)));

    // Over the board both games' deadlines are as paired: game 2's defaults come with game 1's.
    let mut t = paired();
    assert_eq!(t.apply_defaults(DUE).len(), 2);
}
