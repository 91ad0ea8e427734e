//! One rating: Glicko-2's three numbers, stored and sent as they are, and whether it is still
//! provisional.

use serde::{Deserialize, Serialize};
use skillratings::glicko2::Glicko2Rating;

/// A deviation above this marks a rating provisional (shown with a `?`), as on lichess: the
/// server is not yet sure of it within about ±220 points (two deviations).
pub const PROVISIONAL_ABOVE: f64 = 110.0;

/// A player's (or a partnership's) rating in one category.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// The rating: 1500 for a newcomer.
    pub rating: f64,
    /// How unsure it is (one standard deviation, in rating points): 350 for a newcomer, falling
    /// with every game and rising again with time away.
    pub deviation: f64,
    /// How erratic the player's results are (Glicko-2's σ): 0.06 for a newcomer.
    pub volatility: f64,
}

impl Default for Rating {
    fn default() -> Rating {
        Rating::from(Glicko2Rating::new())
    }
}

impl Rating {
    /// Still unsure: shown with a mark, and not on leaderboards.
    #[must_use]
    pub fn provisional(&self) -> bool {
        self.deviation > PROVISIONAL_ABOVE
    }

    /// The rating as shown: a whole number.
    #[must_use]
    pub fn shown(&self) -> i64 {
        self.rating.round() as i64
    }
}

impl From<Glicko2Rating> for Rating {
    fn from(r: Glicko2Rating) -> Rating {
        Rating { rating: r.rating, deviation: r.deviation, volatility: r.volatility }
    }
}

impl From<Rating> for Glicko2Rating {
    fn from(r: Rating) -> Glicko2Rating {
        Glicko2Rating { rating: r.rating, deviation: r.deviation, volatility: r.volatility }
    }
}
