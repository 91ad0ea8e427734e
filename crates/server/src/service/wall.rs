//! The one place the server's code reads the wall clock (`tests/layers.rs` checks it; only
//! `devcert.rs`'s unit test reads it besides): Unix milliseconds for stored rows and token
//! expiry, dates as PGN writes them, and the instant a certificate's validity is measured from.
//! Match time never comes from here (the match machine is driven by tokio's monotonic clock).
//! Below the server, the storage crate reads the wall clock itself for two columns of its own
//! (`stores.rs`' `now_ms`: a migration's `applied_ms`, a tournament's `updated_ms`).

/// The wall clock now (certificates' validity: the development certificate's rotation).
pub(crate) fn now() -> std::time::SystemTime {
    std::time::SystemTime::now()
}

/// Milliseconds since the Unix epoch (0 if the system clock is before it).
pub(crate) fn unix_ms() -> u64 {
    now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

/// Today's date (UTC) as PGN writes it, `2026.11.21`.
pub(crate) fn today() -> String {
    date_of(unix_ms())
}

/// The date (UTC) of a Unix time in milliseconds, as PGN writes it.
pub(crate) fn date_of(unix_ms: u64) -> String {
    let secs = unix_ms / 1000;
    // Days to a civil date (proleptic Gregorian), after Howard Hinnant's `civil_from_days`.
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn a4_dates_are_pgn_dates() {
        assert_eq!(super::date_of(0), "1970.01.01");
        assert_eq!(super::date_of(1_795_274_072_000), "2026.11.21");
        assert_eq!(super::date_of(951_782_400_000), "2000.02.29");
        let d = super::today();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20") && d.as_bytes()[4] == b'.' && d.as_bytes()[7] == b'.', "{d}");
    }
}
