//! Clock readings: the BPGN clock comment (`{179.870}`, seconds with milliseconds; bughousedb
//! also writes whole seconds `{179}`), PGN's `[%clk 0:02:59.870]`, and the four readings known
//! at a point of a record.

use bughouse::Seat;

/// The four clocks as known at some point of a record, in milliseconds, indexed like
/// [`Seat::ALL`]. A clock is known from the time control's base time (tag `TimeControl`,
/// `180+0`) until its player's first clock comment, then from his last one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Clocks(pub [Option<u64>; 4]);

impl Clocks {
    /// A seat's clock, if known.
    pub fn get(&self, seat: Seat) -> Option<u64> {
        self.0[seat.index()]
    }

    pub(crate) fn set(&mut self, seat: Seat, ms: u64) {
        self.0[seat.index()] = Some(ms);
    }
}

/// `179870` → `179.870`.
pub(crate) fn format_seconds(ms: u64) -> String {
    format!("{}.{:03}", ms / 1000, ms % 1000)
}

/// `179870` → `0:02:59.870` (PGN `%clk`).
pub(crate) fn format_hms(ms: u64) -> String {
    let secs = ms / 1000;
    format!("{}:{:02}:{:02}.{:03}", secs / 3600, secs / 60 % 60, secs % 60, ms % 1000)
}

/// Reads a clock comment's text: whole seconds (`179`) or seconds with a fraction (`179.87`);
/// digits beyond milliseconds are dropped. `None` if the text is not such a number.
pub fn parse_seconds(text: &str) -> Option<u64> {
    let (whole, frac) = match text.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (text, None),
    };
    if whole.is_empty() || !whole.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut ms = whole.parse::<u64>().ok()?.checked_mul(1000)?;
    if let Some(frac) = frac {
        if frac.is_empty() || !frac.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let mut digits = frac.bytes().take(3).map(|b| u64::from(b - b'0'));
        let mut part = 0;
        for scale in [100, 10, 1] {
            part += digits.next().unwrap_or(0) * scale;
        }
        ms = ms.checked_add(part)?;
    }
    Some(ms)
}

/// The base time of a `TimeControl` tag in milliseconds: `180+0` or `180` → 180 000. Other
/// forms (`-`, `?`, periods with `/`) give `None`.
pub(crate) fn base_ms(time_control: &str) -> Option<u64> {
    time_control_ms(time_control).map(|(base, _)| base)
}

/// A `TimeControl` tag's base time and increment in milliseconds: `180+2` → (180 000, 2 000),
/// `180` → (180 000, 0). Other forms (`-`, `?`, periods with `/`, a delay) give `None`.
pub fn time_control_ms(time_control: &str) -> Option<(u64, u64)> {
    let (base, inc) = time_control.split_once('+').unwrap_or((time_control, "0"));
    Some((parse_seconds(base.trim())?, parse_seconds(inc.trim())?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_texts() {
        assert_eq!(parse_seconds("179"), Some(179_000));
        assert_eq!(parse_seconds("179.9"), Some(179_900));
        assert_eq!(parse_seconds("179.8705"), Some(179_870));
        assert_eq!(parse_seconds("0.002"), Some(2));
        for bad in ["", ".5", "5.", "-1", "1e3", "99999999999999999999"] {
            assert_eq!(parse_seconds(bad), None, "{bad}");
        }
        assert_eq!(format_seconds(179_870), "179.870");
        assert_eq!(format_seconds(5), "0.005");
        assert_eq!(format_hms(179_870), "0:02:59.870");
        assert_eq!(format_hms(3_723_004), "1:02:03.004");
        assert_eq!(base_ms("180+0"), Some(180_000));
        assert_eq!(base_ms("-"), None);
        assert_eq!(time_control_ms("180+2"), Some((180_000, 2_000)));
        assert_eq!(time_control_ms("300+d3"), None);
    }
}
