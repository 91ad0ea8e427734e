//! A bughouse match as Glicko-2 sees it.
//!
//! A team is as strong as the mean of its partners: the Elo curve of the difference between the
//! two teams' mean ratings gives each team's expected score. For one player `p` with partner `q`
//! against `o₁` and `o₂` that difference is `(p + q − o₁ − o₂) / 2`: half of `p` against half of
//! the rest. So each player's update is Glicko-2's for a game between a player at half his scale
//! (rating `p/2`, deviation `d_p/2`) and an opponent at `(o₁ + o₂ − q)/2` whose deviation is
//! `√(d₁² + d₂² + d_q²)/2` (the three others' uncertainty), and the change is then counted double.
//! This is the team-mean model taken exactly: a result says half as much about each partner as a
//! game alone would (rating the player as if he had met the other team's mean alone moves ratings
//! twice as far on each result, and ranks worse — see the calibration benchmark).
//!
//! What follows: a win over a stronger team gains more; new partners or new opponents make a
//! result say less; the partners of a team move in the same direction, each by how unsure the
//! server is of him (a newcomer fast, a settled player slowly).
//!
//! A **partnership** (two accounts who play together) is rated as one player against the opposing
//! partnership: the same Glicko-2 update, on the pair's own rating.

use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};

use crate::Rating;

/// How a match ended for the first team.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The first team won.
    FirstWins,
    /// The second team won.
    SecondWins,
    /// A draw.
    Draw,
}

impl Outcome {
    fn for_team(self, team: usize) -> Outcomes {
        match (self, team) {
            (Outcome::Draw, _) => Outcomes::DRAW,
            (Outcome::FirstWins, 0) | (Outcome::SecondWins, 1) => Outcomes::WIN,
            _ => Outcomes::LOSS,
        }
    }
}

/// Glicko-2's system constant τ: how fast volatility may change. Glickman recommends 0.3–1.2;
/// 0.5 is his worked example's. Each match is a rating period of its own (ratings move at once).
const TAU: f64 = 0.5;

/// Glicko-2's centre of the scale (its internal zero).
const CENTRE: f64 = 1500.0;

fn config() -> Glicko2Config {
    Glicko2Config { tau: TAU, ..Glicko2Config::new() }
}

/// The four players' new ratings after a match: `teams[t][i]` is player `i` of team `t`.
#[must_use]
pub fn rate_match(teams: [[Rating; 2]; 2], outcome: Outcome) -> [[Rating; 2]; 2] {
    let mut after = teams;
    for t in 0..2 {
        let other = 1 - t;
        for i in 0..2 {
            let me = teams[t][i];
            let partner = teams[t][1 - i];
            let [o1, o2] = teams[other];
            // Half of me against half of the rest (module docs); the change counts double.
            let half = |r: f64| CENTRE + (r - CENTRE) / 2.0;
            let virtual_me = Glicko2Rating {
                rating: half(me.rating),
                deviation: me.deviation / 2.0,
                volatility: me.volatility / 2.0,
            };
            let virtual_opponent = Glicko2Rating {
                rating: half(me.rating) - (me.rating + partner.rating - o1.rating - o2.rating) / 2.0,
                deviation: (o1.deviation.powi(2) + o2.deviation.powi(2) + partner.deviation.powi(2)).sqrt()
                    / 2.0,
                volatility: 0.06,
            };
            let (new, _) = glicko2(&virtual_me, &virtual_opponent, &outcome.for_team(t), &config());
            after[t][i] = Rating {
                rating: me.rating + 2.0 * (new.rating - virtual_me.rating),
                deviation: 2.0 * new.deviation,
                volatility: 2.0 * new.volatility,
            };
        }
    }
    after
}

/// The two partnerships' new ratings after a match between them: `pairs[t]` is team `t`'s pair.
#[must_use]
pub fn rate_pairs(pairs: [Rating; 2], outcome: Outcome) -> [Rating; 2] {
    let (first, second) = glicko2(&pairs[0].into(), &pairs[1].into(), &outcome.for_team(0), &config());
    [first.into(), second.into()]
}
