//! Search limits, and what each level may spend: a depth cap and a share of the clock.

use std::time::Duration;

/// What bounds one search. `None` means no limit of that kind; the search stops at the first
/// limit reached, and at the engine level's depth cap in any case. With neither `time` nor `nodes`
/// given, a safety limit of ten seconds applies, so a search always ends.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Wall-clock time for the whole search.
    pub time: Option<Duration>,
    /// Nodes (positions visited, quiescence included).
    pub nodes: Option<u64>,
    /// Iterations of iterative deepening (plies of full-width search).
    pub depth: Option<u8>,
}

/// What one level may spend.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Profile {
    /// The deepest iteration.
    pub(crate) depth: u8,
    /// The share of the remaining clock spent on one move: `remaining / divisor`.
    divisor: u32,
    /// The most time spent on one move, however long the clock.
    cap: Duration,
}

/// Levels 1 to 5. Bughouse clocks are short (one to five minutes) and a slow move also keeps the
/// partner waiting for material, so even level 5 spends at most two seconds.
const PROFILES: [Profile; 5] = [
    Profile { depth: 2, divisor: 100, cap: Duration::from_millis(100) },
    Profile { depth: 3, divisor: 80, cap: Duration::from_millis(200) },
    Profile { depth: 6, divisor: 60, cap: Duration::from_millis(500) },
    Profile { depth: 10, divisor: 50, cap: Duration::from_millis(1_000) },
    Profile { depth: 32, divisor: 40, cap: Duration::from_millis(2_000) },
];

/// The least time a move is given (unless the clock has less than ten times as much).
const FLOOR: Duration = Duration::from_millis(20);

/// A move never takes more than this share of the remaining clock.
const MAX_SHARE: u32 = 10;

/// The time given a search when the caller sets neither a time nor a node limit.
pub(crate) const SAFETY_TIME: Duration = Duration::from_secs(10);

/// The highest level.
pub(crate) const MAX_LEVEL: u8 = 5;

/// The profile of a level (clamped to 1..=5).
pub(crate) fn profile(level: u8) -> Profile {
    let i = usize::from(level.clamp(1, MAX_LEVEL) - 1);
    PROFILES.get(i).copied().unwrap_or(PROFILES[0])
}

/// The limits for one move of a level with `remaining` on the clock and `increment` per move: a
/// share of the clock plus three quarters of the increment, at least [`FLOOR`], at most the
/// level's cap and never more than a tenth of the remaining time. Every step is monotone in
/// `remaining`, so more time on the clock never means less time for the move.
pub(crate) fn limits_for(level: u8, remaining: Duration, increment: Duration) -> Limits {
    let p = profile(level);
    let share = remaining / p.divisor + increment * 3 / 4;
    let time = share.max(FLOOR).min(p.cap).min(remaining / MAX_SHARE);
    Limits { time: Some(time), nodes: None, depth: Some(p.depth) }
}
