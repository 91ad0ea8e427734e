//! How long a bot takes over a move, so that a human can play beside it.
//!
//! A search at level 1 answers in milliseconds; four such bots play a whole match before a person
//! has found his first move, and a bot's clock climbs on increments. So a bot thinks as a player
//! does: a share of what is left on its own clock (more with an increment), scaled by the position
//! (a forced move or a single answer to check is played at once, a position full of choices takes
//! longer) and varied from move to move, never faster than the configured minimum nor than the
//! increment (a bot gains no time on a move), and never so long that the clock itself runs short
//! while it has more than its bonus to spend. A minimum of zero turns pacing off: tests and
//! benchmarks that want bots as fast as the search set it explicitly.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::time::Duration;

/// The least time a bot takes per move unless told otherwise (`shvedka bot --pace-ms`).
pub const DEFAULT_PACE: Duration = Duration::from_millis(1000);

/// The moves a bot expects still to play on its clock: it spends about this fraction of it on a
/// move of ordinary difficulty.
const MOVES_AHEAD: u32 = 40;

/// The largest share of the remaining clock one move may take (pacing must not flag the bot).
const MAX_SHARE: u32 = 12;

/// What a bot knows of its position when it decides how long to take.
#[derive(Clone, Copy, Debug)]
pub struct Situation<'a> {
    /// Its own clock.
    pub remaining: Duration,
    /// The increment (or delay) per move.
    pub increment: Duration,
    /// The legal moves it has on its board.
    pub legal: usize,
    /// Whether its king is in check.
    pub in_check: bool,
    /// The position, written out (BFEN): the seed of the variation from move to move.
    pub position: &'a str,
}

/// The time a bot with minimum `pace` takes over a move in `situation`, search included.
///
/// Zero when `pace` is zero. Otherwise a share of the clock (`remaining / 40` plus three quarters
/// of the increment), times a factor for the position (0 for a single legal move, 0.5 in check,
/// else between 0.5 and 1.5 growing with the number of legal moves), times a variation between
/// 0.6 and 1.4 drawn from the position; at least `pace`, and at most a twelfth of the remaining
/// clock beyond the increment (which wins over `pace` when the clock runs low). Under an
/// increment (or delay), never less than the increment and a quarter: a bot faster than its bonus
/// would gain time with every move, and a match of such bots would go on for ever; so at the very
/// end of its clock a bot may run out, as a player short of time does.
pub fn think_time(pace: Duration, situation: Situation<'_>) -> Duration {
    if pace.is_zero() {
        return Duration::ZERO;
    }
    let share = situation.remaining / MOVES_AHEAD + situation.increment.mul_f64(0.75);
    let factor = match situation.legal {
        0 | 1 => 0.0,
        _ if situation.in_check => 0.5,
        n => (n as f64 / 30.0).sqrt().clamp(0.5, 1.5),
    };
    let think = share.mul_f64(factor * variation(situation.position)).max(pace);
    let cap = situation.remaining / MAX_SHARE + situation.increment;
    think.min(cap).max(situation.increment + situation.increment / 4)
}

/// A factor between 0.6 and 1.4, the same for the same position (tests stay reproducible).
fn variation(position: &str) -> f64 {
    let mut h = DefaultHasher::new();
    position.hash(&mut h);
    0.6 + 0.8 * ((h.finish() >> 11) as f64 / (1u64 << 53) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(remaining_s: u64, legal: usize, in_check: bool, position: &str) -> Situation<'_> {
        Situation {
            remaining: Duration::from_secs(remaining_s),
            increment: Duration::ZERO,
            legal,
            in_check,
            position,
        }
    }

    #[test]
    fn zero_pace_turns_pacing_off() {
        assert_eq!(think_time(Duration::ZERO, at(180, 30, false, "x")), Duration::ZERO);
    }

    #[test]
    fn a_full_clock_gives_seconds_a_move_not_milliseconds() {
        // 3+0, thirty moves to choose from: 4.5 s, varied by 0.6..1.4.
        for p in ["a", "b", "c", "d", "e"] {
            let t = think_time(DEFAULT_PACE, at(180, 30, false, p));
            assert!(t >= Duration::from_millis(2700) && t <= Duration::from_millis(6300), "{p}: {t:?}");
        }
    }

    #[test]
    fn the_time_varies_from_position_to_position_but_not_for_the_same_one() {
        let times: Vec<Duration> = ["a", "b", "c", "d", "e", "f"]
            .iter()
            .map(|p| think_time(DEFAULT_PACE, at(180, 30, false, p)))
            .collect();
        assert!(times.windows(2).any(|w| w[0] != w[1]), "{times:?}");
        assert_eq!(think_time(DEFAULT_PACE, at(180, 30, false, "a")), times[0]);
    }

    #[test]
    fn a_forced_move_takes_the_minimum_and_never_less() {
        assert_eq!(think_time(DEFAULT_PACE, at(180, 1, true, "a")), DEFAULT_PACE);
        let pace = Duration::from_millis(3000);
        assert!(think_time(pace, at(180, 2, false, "a")) >= pace);
    }

    #[test]
    fn a_check_is_answered_faster_than_a_quiet_position() {
        let quiet = think_time(DEFAULT_PACE, at(180, 30, false, "a"));
        let check = think_time(DEFAULT_PACE, at(180, 30, true, "a"));
        assert!(check < quiet, "{check:?} {quiet:?}");
    }

    #[test]
    fn an_increment_lengthens_the_thought() {
        let mut s = at(60, 30, false, "a");
        let without = think_time(DEFAULT_PACE, s);
        s.increment = Duration::from_secs(2);
        assert!(think_time(DEFAULT_PACE, s) > without);
    }

    #[test]
    fn a_low_clock_overrides_the_minimum_so_the_bot_does_not_flag() {
        let t = think_time(Duration::from_secs(2), at(6, 30, false, "a"));
        assert_eq!(t, Duration::from_millis(500));
    }

    /// K2: under an increment every move costs the bot time, however low or high its clock: a
    /// match of bots ends on the clocks.
    #[test]
    fn k2_a_bot_never_gains_time_on_a_move() {
        let increment = Duration::from_millis(300);
        for remaining_ms in [60_000, 10_000, 3_600, 1_000, 300, 50] {
            for legal in [1, 2, 30] {
                let mut s = at(0, legal, false, "a");
                s.remaining = Duration::from_millis(remaining_ms);
                s.increment = increment;
                let t = think_time(Duration::from_millis(50), s);
                assert!(t >= increment + increment / 4, "{remaining_ms} ms left, {legal} moves: {t:?}");
            }
        }
    }
}
