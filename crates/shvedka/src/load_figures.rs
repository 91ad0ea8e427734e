//! The latency figures `shvedka load` and its crowd report: p50, p99 and max of a distribution.

/// A latency distribution's figures.
pub(crate) struct Percentiles {
    pub(crate) p50_ms: f64,
    pub(crate) p99_ms: f64,
    pub(crate) max_ms: f64,
}

impl Percentiles {
    /// The figures of `us` (microseconds; sorted here).
    pub(crate) fn of(us: &mut [u64]) -> Percentiles {
        us.sort_unstable();
        let pct = |p: f64| {
            us.get(((us.len().saturating_sub(1)) as f64 * p).round() as usize).copied().unwrap_or(0) as f64
                / 1000.0
        };
        Percentiles { p50_ms: pct(0.5), p99_ms: pct(0.99), max_ms: pct(1.0) }
    }
}

impl std::fmt::Display for Percentiles {
    /// As the reports print them: `p50 1.2 ms, p99 3.4 ms, max 5.6 ms`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms", self.p50_ms, self.p99_ms, self.max_ms)
    }
}
