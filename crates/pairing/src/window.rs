//! How far from his own strength a seeker accepts others, and how that widens while he waits:
//! a quick-pairing pool starts close and opens up, so that a lone player on a quiet server still
//! gets a game, and on a busy one a close one.

use serde::{Deserialize, Serialize};

/// A rating window: ± `start` at once, widening by `per_second` while the seek waits, up to
/// `widest` (`f64::INFINITY`: anybody, in the end).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Window {
    /// Rating points either side, at once.
    pub start: f64,
    /// Points added each second of waiting.
    pub per_second: f64,
    /// The most it widens to.
    pub widest: f64,
}

impl Window {
    /// A fixed range (a seek with an explicit rating range): no widening.
    #[must_use]
    pub fn fixed(points: f64) -> Window {
        Window { start: points, per_second: 0.0, widest: points }
    }

    /// The quick pools' default: ± 150 at once, 25 more a second (± 1,650 after a minute: in
    /// practice anybody).
    #[must_use]
    pub fn quick() -> Window {
        Window { start: 150.0, per_second: 25.0, widest: f64::INFINITY }
    }

    /// The reach after waiting `waited_ms`.
    #[must_use]
    pub fn reach(&self, waited_ms: u64) -> f64 {
        let widened = self.start + self.per_second * waited_ms as f64 / 1000.0;
        widened.min(self.widest).max(self.start)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quick_window_widens_with_waiting_and_a_fixed_one_does_not() {
        let quick = Window::quick();
        assert_eq!(quick.reach(0), 150.0);
        assert_eq!(quick.reach(4_000), 250.0);
        assert_eq!(quick.reach(60_000), 1650.0, "in practice anybody after a minute");
        let fixed = Window::fixed(200.0);
        assert_eq!(fixed.reach(0), 200.0);
        assert_eq!(fixed.reach(3_600_000), 200.0);
    }
}
