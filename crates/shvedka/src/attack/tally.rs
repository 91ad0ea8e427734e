//! What an attack (or the honest probe) counted: what the server served it, what it refused
//! (a limit, a closed connection: the server defending itself), and what failed otherwise, each
//! with its reasons, and the slowest success.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Counters shared by an attack's tasks.
#[derive(Default)]
pub(crate) struct Tally {
    served: AtomicU64,
    refused: AtomicU64,
    failed: AtomicU64,
    worst_us: AtomicU64,
    reasons: Mutex<BTreeMap<(&'static str, String), u64>>,
}

impl Tally {
    /// The server served a request (a connection, a handshake, a page …).
    pub(crate) fn served(&self) {
        self.served.fetch_add(1, Ordering::Relaxed);
    }

    /// As [`Tally::served`], noting how long it took.
    pub(crate) fn served_in(&self, took: Duration) {
        self.served();
        let us = u64::try_from(took.as_micros()).unwrap_or(u64::MAX);
        self.worst_us.fetch_max(us, Ordering::Relaxed);
    }

    /// The server refused it, for `why`.
    pub(crate) fn refused(&self, why: impl Into<String>) {
        self.refused.fetch_add(1, Ordering::Relaxed);
        self.note("refused", why.into());
    }

    /// It failed otherwise (no answer, a lost connection), for `why`.
    pub(crate) fn failed(&self, why: impl Into<String>) {
        self.failed.fetch_add(1, Ordering::Relaxed);
        self.note("failed", why.into());
    }

    fn note(&self, what: &'static str, why: String) {
        *self.reasons.lock().expect("tally lock").entry((what, why)).or_default() += 1;
    }

    /// The counts as `key=value` fields, each key after `prefix`.
    pub(crate) fn fields(&self, prefix: &str) -> String {
        format!(
            "{prefix}served={} {prefix}refused={} {prefix}failed={} {prefix}worst_ms={:.1}",
            self.served.load(Ordering::Relaxed),
            self.refused.load(Ordering::Relaxed),
            self.failed.load(Ordering::Relaxed),
            self.worst_us.load(Ordering::Relaxed) as f64 / 1000.0
        )
    }

    /// One line per reason: `refused 12: Limit(Registrations)`.
    pub(crate) fn reasons(&self) -> Vec<String> {
        let reasons = self.reasons.lock().expect("tally lock");
        reasons.iter().map(|((what, why), n)| format!("{what} {n}: {why}")).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_reasons_are_told_as_the_driver_reads_them() {
        let t = Tally::default();
        t.served_in(Duration::from_micros(1500));
        t.served_in(Duration::from_micros(700));
        t.refused("Limit(Registrations)");
        t.refused("Limit(Registrations)");
        t.failed("timed out");
        assert_eq!(t.fields("probe_"), "probe_served=2 probe_refused=2 probe_failed=1 probe_worst_ms=1.5");
        assert_eq!(t.reasons(), vec!["failed 1: timed out", "refused 2: Limit(Registrations)"]);
    }
}
