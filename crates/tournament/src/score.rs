//! Points, counted exactly.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A score in quarter points. Game points are whole or half; Sonneborn–Berger multiplies a half
/// by a half and needs quarters. Integers keep comparisons exact.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Score(pub u32);

impl Score {
    /// Zero.
    pub const ZERO: Score = Score(0);

    /// A score of whole points.
    pub fn points(points: u32) -> Score {
        Score(points.saturating_mul(4))
    }

    /// The score as a number (exact: quarters are binary fractions).
    pub fn as_f64(self) -> f64 {
        f64::from(self.0) / 4.0
    }

    /// The sum, saturating.
    pub(crate) fn plus(self, other: Score) -> Score {
        Score(self.0.saturating_add(other.0))
    }

    /// The score written with a fraction sign, as crosstables are: `1½`, `½`, `2`; quarters (which
    /// only Sonneborn–Berger has) as decimals.
    pub fn fraction(self) -> String {
        let whole = self.0 / 4;
        match (whole, self.0 % 4) {
            (w, 0) => w.to_string(),
            (0, 2) => "½".to_owned(),
            (w, 2) => format!("{w}½"),
            _ => self.to_string(),
        }
    }
}

/// Decimal: `2`, `1.5`, `0.25`.
impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let whole = self.0 / 4;
        match self.0 % 4 {
            0 => write!(f, "{whole}"),
            1 => write!(f, "{whole}.25"),
            2 => write!(f, "{whole}.5"),
            _ => write!(f, "{whole}.75"),
        }
    }
}
