//! Which rating a match counts for: bullet, blitz or rapid, by how long a game with its time
//! control lasts. The estimate is lichess's: the base time plus forty increments (a game of
//! forty moves a side), so 2+1 (two minutes and a second a move) is a 160-second game, bullet
//! under the default bounds, and 3+0 is blitz, as on lichess.

use serde::{Deserialize, Serialize};

/// A time-control category: each has its own ratings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Category {
    /// Estimated games under [`Categories::bullet_below_s`].
    Bullet,
    /// Under [`Categories::blitz_below_s`].
    Blitz,
    /// The rest.
    Rapid,
}

impl Category {
    /// Every category, shortest first.
    pub const ALL: [Category; 3] = [Category::Bullet, Category::Blitz, Category::Rapid];

    /// The category's name as stored and shown (`bullet`, `blitz`, `rapid`).
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Bullet => "bullet",
            Category::Blitz => "blitz",
            Category::Rapid => "rapid",
        }
    }

    /// The category named so ([`Category::as_str`]).
    #[must_use]
    pub fn parse(name: &str) -> Option<Category> {
        Category::ALL.into_iter().find(|c| c.as_str() == name)
    }
}

impl std::fmt::Display for Category {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where the categories part, in seconds of an estimated game (the server's config).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Categories {
    /// A game estimated shorter than this is bullet (default 180: under three minutes).
    pub bullet_below_s: u64,
    /// Shorter than this (and not bullet) is blitz (default 480: under eight minutes).
    pub blitz_below_s: u64,
}

impl Default for Categories {
    fn default() -> Categories {
        Categories { bullet_below_s: 180, blitz_below_s: 480 }
    }
}

/// Increments counted in a game's estimated length: forty moves a side.
const MOVES_ESTIMATED: u64 = 40;

impl Categories {
    /// The category of a time control of `base_ms` and `increment_ms` a move (a delay counts as an
    /// increment: both add at most that much a move).
    #[must_use]
    pub fn of(&self, base_ms: u64, increment_ms: u64) -> Category {
        let estimate_s = (base_ms.saturating_add(increment_ms.saturating_mul(MOVES_ESTIMATED))) / 1000;
        if estimate_s < self.bullet_below_s {
            Category::Bullet
        } else if estimate_s < self.blitz_below_s {
            Category::Blitz
        } else {
            Category::Rapid
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_fall_in_the_categories_players_expect() {
        let c = Categories::default();
        let minutes = |m: u64| m * 60_000;
        assert_eq!(c.of(minutes(1), 0), Category::Bullet, "1+0");
        assert_eq!(c.of(minutes(2), 1000), Category::Bullet, "2+1 is 120 + 40 = 160 s");
        assert_eq!(c.of(minutes(2), 0), Category::Bullet, "2+0");
        assert_eq!(c.of(minutes(3), 0), Category::Blitz, "3+0 is 180 s: not under three minutes");
        assert_eq!(c.of(minutes(5), 3000), Category::Blitz, "5+3 is 420 s");
        assert_eq!(c.of(minutes(8), 0), Category::Rapid, "8+0");
        assert_eq!(c.of(minutes(10), 5000), Category::Rapid, "10+5");
        let tight = Categories { bullet_below_s: 60, blitz_below_s: 120 };
        assert_eq!(tight.of(minutes(1), 0), Category::Blitz, "bounds from the config");
        assert_eq!(c.of(u64::MAX, u64::MAX), Category::Rapid, "no overflow");
        for cat in Category::ALL {
            assert_eq!(Category::parse(cat.as_str()), Some(cat));
        }
        assert_eq!(Category::parse("classical"), None);
    }
}
