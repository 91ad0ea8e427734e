//! Time controls (RULES.md K2): a base time with a Fischer increment or with a delay.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// What a player gets per move on top of the base time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bonus {
    /// Fischer increment: added to the clock after every move.
    Increment(Duration),
    /// Delay (FIDE 6.3b "fixed additional time"): the base time does not run for this long at
    /// the start of every move.
    Delay(Duration),
}

/// A time control: the same for all four clocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TimeControl {
    /// The starting time of each clock.
    pub base: Duration,
    /// The per-move bonus.
    pub bonus: Bonus,
}

impl TimeControl {
    /// Base time with a Fischer increment.
    pub const fn fischer(base: Duration, increment: Duration) -> TimeControl {
        TimeControl { base, bonus: Bonus::Increment(increment) }
    }

    /// Base time with a delay.
    pub const fn delay(base: Duration, delay: Duration) -> TimeControl {
        TimeControl { base, bonus: Bonus::Delay(delay) }
    }

    /// The Fischer increment, zero under a delay.
    pub fn increment(&self) -> Duration {
        match self.bonus {
            Bonus::Increment(d) => d,
            Bonus::Delay(_) => Duration::ZERO,
        }
    }

    /// The delay, zero under a Fischer increment.
    pub fn delay_time(&self) -> Duration {
        match self.bonus {
            Bonus::Delay(d) => d,
            Bonus::Increment(_) => Duration::ZERO,
        }
    }

    /// The per-move bonus whatever its kind (the lag quota formula counts a delay like an
    /// increment).
    pub fn bonus_time(&self) -> Duration {
        match self.bonus {
            Bonus::Increment(d) | Bonus::Delay(d) => d,
        }
    }
}

/// A time control that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseTimeControlError {
    /// The text given.
    pub text: String,
    /// What is wrong.
    pub message: &'static str,
}

impl fmt::Display for ParseTimeControlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid time control {:?}: {} (expected MINUTES+SECONDS such as 3+2, MINUTES+dSECONDS for a \
             delay such as 5+d3, or a base with a unit such as 30s+0)",
            self.text, self.message
        )
    }
}

impl std::error::Error for ParseTimeControlError {}

/// The longest base time accepted: a day. Longer is a typo, not a game.
const MAX_BASE: Duration = Duration::from_secs(24 * 3600);
/// The longest bonus accepted per move.
const MAX_BONUS: Duration = Duration::from_secs(600);

impl FromStr for TimeControl {
    type Err = ParseTimeControlError;

    /// `3+2` (3 minutes, 2 s increment), `5+d3` (5 minutes, 3 s delay), `30s+0` (30 seconds),
    /// `0.5+0` (half a minute). A bonus may also carry a unit: `1+500ms`.
    fn from_str(text: &str) -> Result<TimeControl, ParseTimeControlError> {
        let err = |message| ParseTimeControlError { text: text.to_owned(), message };
        let (base, bonus) = text.trim().split_once('+').ok_or(err("no '+' between base and bonus"))?;
        let base = parse_amount(base, 60_000).ok_or(err("the base is not a number of minutes"))?;
        let (is_delay, bonus) = match bonus.trim().strip_prefix('d') {
            Some(rest) => (true, rest),
            None => (false, bonus),
        };
        let bonus = parse_amount(bonus, 1000).ok_or(err("the bonus is not a number of seconds"))?;
        if base.is_zero() {
            return Err(err("the base time must be positive"));
        }
        if base > MAX_BASE || bonus > MAX_BONUS {
            return Err(err("longer than a day of base or ten minutes of bonus"));
        }
        Ok(if is_delay { TimeControl::delay(base, bonus) } else { TimeControl::fischer(base, bonus) })
    }
}

/// A non-negative decimal amount with an optional unit (`ms`, `s`, `m`); `default_ms` is the
/// milliseconds in one unit when none is written. Precision is one millisecond.
fn parse_amount(text: &str, default_ms: u64) -> Option<Duration> {
    let text = text.trim();
    let (number, unit_ms) = if let Some(n) = text.strip_suffix("ms") {
        (n, 1)
    } else if let Some(n) = text.strip_suffix('s') {
        (n, 1000)
    } else if let Some(n) = text.strip_suffix('m') {
        (n, 60_000)
    } else {
        (text, default_ms)
    };
    let (whole, frac) = number.split_once('.').unwrap_or((number, ""));
    let digits = |s: &str| !s.is_empty() && s.len() <= 9 && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || !(frac.is_empty() || digits(frac)) {
        return None;
    }
    let whole: u64 = whole.parse().ok()?;
    let mut ms = whole.checked_mul(unit_ms)?;
    if !frac.is_empty() {
        let scale = 10u64.pow(frac.len() as u32);
        let f: u64 = frac.parse().ok()?;
        ms = ms.checked_add(f.checked_mul(unit_ms)? / scale)?;
    }
    Some(Duration::from_millis(ms))
}

impl TimeControl {
    /// The PGN `TimeControl` tag: base and bonus in seconds, `180+2` (a delay as `300+d3`), to
    /// the millisecond in decimal (`4.472`; never a binary float's `4.4719999999999995`).
    pub fn pgn(&self) -> String {
        let secs = |d: Duration| {
            let ms = d.as_millis();
            let text = format!("{}.{:03}", ms / 1000, ms % 1000);
            text.trim_end_matches('0').trim_end_matches('.').to_owned()
        };
        match self.bonus {
            Bonus::Increment(inc) => format!("{}+{}", secs(self.base), secs(inc)),
            Bonus::Delay(delay) => format!("{}+d{}", secs(self.base), secs(delay)),
        }
    }
}

impl fmt::Display for TimeControl {
    /// The form [`TimeControl::from_str`] reads: `3+2`, `5+d3`, `30s+0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let base = self.base.as_millis();
        if base.is_multiple_of(60_000) {
            write!(f, "{}", base / 60_000)?;
        } else if base.is_multiple_of(1000) {
            write!(f, "{}s", base / 1000)?;
        } else {
            write!(f, "{base}ms")?;
        }
        f.write_str("+")?;
        if let Bonus::Delay(_) = self.bonus {
            f.write_str("d")?;
        }
        let bonus = self.bonus_time().as_millis();
        if bonus.is_multiple_of(1000) { write!(f, "{}", bonus / 1000) } else { write!(f, "{bonus}ms") }
    }
}

impl<'de> serde::Deserialize<'de> for TimeControl {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<TimeControl, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

impl serde::Serialize for TimeControl {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}
