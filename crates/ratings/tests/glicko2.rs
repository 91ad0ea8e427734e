//! The mathematics checked against its published worked example, and a bughouse match's update
//! against what the model promises (crate docs; RATINGS in README).

use shvedka_ratings::{Outcome, Rating, rate_match, rate_pairs};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2_rating_period};

fn near(a: f64, b: f64, tolerance: f64) -> bool {
    (a - b).abs() <= tolerance
}

/// Glickman, "Example of the Glicko-2 system" (2013): a player at 1500 (deviation 200,
/// volatility 0.06) beats a 1400 (30), loses to a 1550 (100) and to a 1700 (300) with τ = 0.5,
/// and ends at 1464.06, deviation 151.52, volatility 0.05999.
#[test]
fn glicko2_reproduces_glickmans_worked_example() {
    let player = Glicko2Rating { rating: 1500.0, deviation: 200.0, volatility: 0.06 };
    let opponent = |rating, deviation| Glicko2Rating { rating, deviation, volatility: 0.06 };
    let results = [
        (opponent(1400.0, 30.0), Outcomes::WIN),
        (opponent(1550.0, 100.0), Outcomes::LOSS),
        (opponent(1700.0, 300.0), Outcomes::LOSS),
    ];
    let config = Glicko2Config { tau: 0.5, ..Glicko2Config::new() };
    let after = glicko2_rating_period(&player, &results, &config);
    assert!(near(after.rating, 1464.06, 0.01), "{after:?}");
    assert!(near(after.deviation, 151.52, 0.01), "{after:?}");
    assert!(near(after.volatility, 0.05999, 0.00001), "{after:?}");
}

fn r(rating: f64, deviation: f64) -> Rating {
    Rating { rating, deviation, volatility: 0.06 }
}

#[test]
fn winners_gain_losers_lose_and_the_sums_move_by_what_was_expected() {
    let teams = [[r(1500.0, 80.0), r(1500.0, 80.0)], [r(1500.0, 80.0), r(1500.0, 80.0)]];
    let after = rate_match(teams, Outcome::FirstWins);
    for i in 0..2 {
        assert!(after[0][i].rating > 1500.0 && after[1][i].rating < 1500.0, "{after:?}");
    }
    let unsure = [[r(1500.0, 200.0), r(1500.0, 200.0)], [r(1500.0, 200.0), r(1500.0, 200.0)]];
    for team in rate_match(unsure, Outcome::SecondWins) {
        for player in team {
            assert!(player.deviation < 195.0, "a game makes an unsure rating surer: {player:?}");
        }
    }
    assert!(near(after[0][0].rating - 1500.0, 1500.0 - after[1][0].rating, 1e-9), "equal teams: symmetric");
    let draw = rate_match(teams, Outcome::Draw);
    assert!(near(draw[0][0].rating, 1500.0, 1e-9), "a draw between equal teams moves nobody");

    // Unequal teams (means 1700 and 1400, one of them mixed): each team's sum moves by its score
    // less what was expected of it. The Elo curve of the means' difference expects 0.849 of the
    // favourite; the change is zero at that score and linear in the score, so a win gains the
    // favourite little, a loss costs it much, a draw costs it too, and the underdog's sum moves
    // by as much the other way.
    let teams = [[r(1900.0, 60.0), r(1500.0, 60.0)], [r(1400.0, 60.0), r(1400.0, 60.0)]];
    let sum = |team: [Rating; 2]| team[0].rating + team[1].rating;
    let moved = |outcome| {
        let after = rate_match(teams, outcome);
        [sum(after[0]) - sum(teams[0]), sum(after[1]) - sum(teams[1])]
    };
    let (win, draw, loss) = (moved(Outcome::FirstWins), moved(Outcome::Draw), moved(Outcome::SecondWins));
    let expected = 1.0 / (1.0 + 10f64.powf(-(1700.0 - 1400.0) / 400.0));
    // The score at which the favourite's sum would not move, from its win and its loss.
    let implied = -loss[0] / (win[0] - loss[0]);
    assert!(near(implied, expected, 0.02), "moves by what was expected: {implied} against {expected}");
    assert!(win[0] > 0.0 && loss[0] < 0.0 && draw[0] < 0.0, "{win:?} {draw:?} {loss:?}");
    assert!(
        -loss[0] > 4.0 * win[0],
        "a loss costs the favourite far more than a win gains: {win:?} {loss:?}"
    );
    assert!(near(draw[0], (win[0] + loss[0]) / 2.0, 0.05 * (win[0] - loss[0])), "linear in the score");
    for (outcome, d) in [("win", win), ("draw", draw), ("loss", loss)] {
        assert!(near(d[0], -d[1], 0.05 * d[0].abs().max(1.0)), "{outcome}: the other sum moves back: {d:?}");
    }
}

#[test]
fn beating_a_stronger_team_gains_more_than_beating_a_weaker_one() {
    let us = [r(1500.0, 80.0), r(1500.0, 80.0)];
    let strong = rate_match([us, [r(1700.0, 80.0), r(1700.0, 80.0)]], Outcome::FirstWins);
    let weak = rate_match([us, [r(1300.0, 80.0), r(1300.0, 80.0)]], Outcome::FirstWins);
    assert!(strong[0][0].rating - 1500.0 > 2.0 * (weak[0][0].rating - 1500.0), "{strong:?} {weak:?}");
    // And the team is its mean: a 1900 and a 1100 are a 1500 team.
    let mixed = rate_match([us, [r(1900.0, 80.0), r(1100.0, 80.0)]], Outcome::FirstWins);
    let even = rate_match([us, [r(1500.0, 80.0), r(1500.0, 80.0)]], Outcome::FirstWins);
    assert!(near(mixed[0][0].rating, even[0][0].rating, 0.5), "{mixed:?} {even:?}");
}

#[test]
fn a_newcomer_moves_fast_and_a_settled_player_slowly_in_the_same_direction() {
    let newcomer = Rating::default();
    let settled = r(1500.0, 50.0);
    assert!(newcomer.provisional() && !settled.provisional());
    let after = rate_match([[newcomer, settled], [r(1500.0, 50.0), r(1500.0, 50.0)]], Outcome::FirstWins);
    let (new_gain, settled_gain) = (after[0][0].rating - 1500.0, after[0][1].rating - 1500.0);
    assert!(new_gain > 4.0 * settled_gain && settled_gain > 0.0, "{new_gain} {settled_gain}");
    let lost = rate_match([[newcomer, settled], [r(1500.0, 50.0), r(1500.0, 50.0)]], Outcome::SecondWins);
    assert!(lost[0][0].rating < 1500.0 && lost[0][1].rating < 1500.0, "partners move together");
}

#[test]
fn a_partnership_is_rated_as_one_player_against_the_other_pair() {
    let [a, b] = rate_pairs([Rating::default(), r(1600.0, 60.0)], Outcome::FirstWins);
    assert!(a.rating > 1600.0, "a new pair that beats a settled 1600 pair jumps: {a:?}");
    assert!(b.rating < 1600.0 && b.rating > 1580.0, "the settled pair moves a little: {b:?}");
    let [c, d] = rate_pairs([r(1600.0, 60.0), Rating::default()], Outcome::SecondWins);
    assert!(near(c.rating, b.rating, 1e-9) && near(d.rating, a.rating, 1e-9), "the same either way round");
}

/// The calibration benchmark's simulation, small: after 50 games each in random pairings the
/// ratings order the players nearly as well as hindsight over every game could.
#[test]
fn ratings_rank_hidden_strengths_almost_as_well_as_hindsight() {
    use shvedka_ratings::calibration::{Model, Setup, simulate};
    let setup = Setup { players: 200, games: 50, spread: 350.0, draws: 0.02, seed: 7 };
    let glicko = *simulate(setup, Model::Glicko2TeamMean).last().unwrap();
    let hindsight = *simulate(setup, Model::Hindsight).last().unwrap();
    assert!(glicko > 0.88, "ρ {glicko}");
    assert!(glicko > hindsight - 0.02, "ρ {glicko} against hindsight's {hindsight}");
}
