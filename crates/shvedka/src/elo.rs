//! A match score as an Elo difference with a 95 % interval, for `shvedka bench-strength`.
//!
//! The score of N matches with W wins, D draws and L losses is `s = (W + D/2) / N`. The logistic
//! (Elo) model says a player `d` points stronger scores `1 / (1 + 10^(-d/400))`, so the difference
//! the score says is `d(s) = -400 · log10(1/s - 1)`. The interval comes from the spread of the
//! per-match results: each match scores x = 1, ½ or 0, their variance is
//! `σ² = (W(1-s)² + D(½-s)² + L·s²) / N`, the standard error of the mean score `σ/√N`, and the
//! 95 % interval of the score `s ± 1.96·σ/√N` (the normal approximation), mapped through `d`. A
//! score of 0 or 1 has no finite difference: it prints as `-inf`/`+inf`.

/// The z value of a two-sided 95 % interval.
const Z95: f64 = 1.959_964;

/// Wins, draws and losses, from one side's view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    pub(crate) wins: u32,
    pub(crate) draws: u32,
    pub(crate) losses: u32,
}

impl Tally {
    pub(crate) fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The mean score, 0 to 1 (`None` before any game).
    pub(crate) fn score(&self) -> Option<f64> {
        let n = f64::from(self.games());
        (n > 0.0).then(|| (f64::from(self.wins) + f64::from(self.draws) / 2.0) / n)
    }

    /// The Elo difference the score says, and its 95 % interval (low, high).
    pub(crate) fn elo(&self) -> Option<(f64, f64, f64)> {
        let s = self.score()?;
        let n = f64::from(self.games());
        let variance = (f64::from(self.wins) * (1.0 - s).powi(2)
            + f64::from(self.draws) * (0.5 - s).powi(2)
            + f64::from(self.losses) * s.powi(2))
            / n;
        let margin = Z95 * (variance / n).sqrt();
        Some((elo_of(s), elo_of((s - margin).max(0.0)), elo_of((s + margin).min(1.0))))
    }
}

/// The Elo difference of a mean score: `-400 · log10(1/s - 1)`, infinite at 0 and 1.
pub(crate) fn elo_of(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// An Elo figure as the table prints it: rounded, with a sign, `±inf` at the ends.
pub(crate) fn show(elo: f64) -> String {
    if elo.is_infinite() {
        if elo > 0.0 { "+inf".into() } else { "-inf".into() }
    } else {
        // `+ 0.0` makes a negative zero positive.
        format!("{:+.0}", elo + 0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 0.5
    }

    #[test]
    fn an_even_score_is_no_difference_and_three_quarters_is_191_points() {
        assert!(close(elo_of(0.5), 0.0));
        assert!(close(elo_of(0.75), 190.8), "{}", elo_of(0.75));
        assert!(close(elo_of(0.25), -190.8));
        assert_eq!(elo_of(0.0), f64::NEG_INFINITY);
        assert_eq!(elo_of(1.0), f64::INFINITY);
    }

    #[test]
    fn the_interval_comes_from_the_per_match_variance() {
        // 6 wins, 2 draws, 2 losses: s = 0.7, σ² = (6·0.09 + 2·0.04 + 2·0.49)/10 = 0.16,
        // se = 0.4/√10 = 0.1265, interval 0.7 ± 0.2479 = 0.4521 .. 0.9479.
        let t = Tally { wins: 6, draws: 2, losses: 2 };
        let (elo, low, high) = t.elo().unwrap();
        assert!(close(elo, 147.2), "{elo}");
        assert!(close(low, elo_of(0.4521)), "{low}");
        assert!(close(high, elo_of(0.9479)), "{high}");
        assert!(low < elo && elo < high);
    }

    #[test]
    fn all_draws_have_no_spread_and_all_wins_are_infinite() {
        let draws = Tally { wins: 0, draws: 10, losses: 0 };
        assert_eq!(
            draws.elo().map(|(e, l, h)| (show(e), show(l), show(h))),
            Some(("+0".into(), "+0".into(), "+0".into()))
        );
        let wins = Tally { wins: 10, draws: 0, losses: 0 };
        assert_eq!(show(wins.elo().unwrap().0), "+inf");
        assert_eq!(Tally::default().elo(), None);
    }
}
