//! How a clock reads: minutes and seconds, and tenths below ten seconds.

use std::time::Duration;

/// `2:59`, `0:10`, `9.8`, `0.0`.
pub fn format_clock(d: Duration) -> String {
    let ms = d.as_millis();
    if ms < 10_000 {
        format!("{}.{}", ms / 1000, ms % 1000 / 100)
    } else {
        let s = ms / 1000;
        format!("{}:{:02}", s / 60, s % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn k1_tenths_below_ten_seconds_minutes_above() {
        let ms = Duration::from_millis;
        assert_eq!(format_clock(ms(180_000)), "3:00");
        assert_eq!(format_clock(ms(10_000)), "0:10");
        assert_eq!(format_clock(ms(9_999)), "9.9");
        assert_eq!(format_clock(ms(9_870)), "9.8");
        assert_eq!(format_clock(ms(50)), "0.0");
        assert_eq!(format_clock(ms(3_723_000)), "62:03");
    }
}
