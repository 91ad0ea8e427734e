//! Helpers that several crates' test suites share, so each suite does not carry its own copy.
//! A dev-dependency only: nothing here reaches a shipped binary.

pub mod imports;
pub mod link;
pub mod nats;
pub mod pebble;
pub mod postgres;

/// A number no earlier call in this process returned (nanoseconds since the Unix epoch, made
/// strictly increasing): names temporary directories.
pub(crate) fn unique() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static LAST: AtomicU64 = AtomicU64::new(0);
    let now =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
    let mut last = LAST.load(Ordering::Relaxed);
    loop {
        let next = now.max(last + 1);
        match LAST.compare_exchange(last, next, Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => return next,
            Err(seen) => last = seen,
        }
    }
}

/// SplitMix64: a small deterministic generator, so random-play tests replay the same games on
/// every run and every machine.
#[derive(Clone, Debug)]
pub struct SplitMix(pub u64);

impl SplitMix {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` must be positive).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// A fair coin.
    pub fn coin(&mut self) -> bool {
        self.next_u64() & 1 == 1
    }
}

/// The seed a property test starts from: `SHVEDKA_SEED` when it is set (a decimal or `0x` hex
/// number), so that a run explores other inputs and a failure is replayed by giving its seed
/// back; else `fixed`, so that CI without the variable is reproducible. A test names the seed in
/// every failure message ([`replay`]).
///
/// # Panics
/// When `SHVEDKA_SEED` is set but is not a number.
pub fn seed(fixed: u64) -> u64 {
    match std::env::var("SHVEDKA_SEED") {
        Ok(text) => parse_seed(&text).unwrap_or_else(|| panic!("SHVEDKA_SEED={text}: not a number")),
        Err(_) => fixed,
    }
}

fn parse_seed(text: &str) -> Option<u64> {
    let text = text.trim();
    match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => text.parse().ok(),
    }
}

/// How to replay a run from `seed`, for a failure message: `seed N (replay: SHVEDKA_SEED=N …)`.
pub fn replay(seed: u64) -> String {
    format!("seed {seed} (replay: SHVEDKA_SEED={seed})")
}

/// Held for a property test's length: if the test fails (a panic drops it), says which seed it
/// ran from and how to replay it, beside the failure's own message.
#[derive(Debug)]
pub struct SaySeed(pub u64);

impl Drop for SaySeed {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("this property test ran from {}", replay(self.0));
        }
    }
}

/// [`seed`] and a [`SaySeed`] for it: `let (seed, _say) = testkit::seeded(FIXED);`.
pub fn seeded(fixed: u64) -> (u64, SaySeed) {
    let seed = seed(fixed);
    (seed, SaySeed(seed))
}

#[cfg(test)]
mod tests {
    use super::SplitMix;

    #[test]
    fn same_seed_same_sequence_and_in_range() {
        let (mut a, mut b) = (SplitMix(42), SplitMix(42));
        let xs: Vec<u64> = (0..8).map(|_| a.next_u64()).collect();
        let ys: Vec<u64> = (0..8).map(|_| b.next_u64()).collect();
        assert_eq!(xs, ys);
        assert_ne!(xs[0], xs[1]);
        assert!((0..1000).all(|_| a.below(7) < 7));
    }

    #[test]
    fn a_seed_is_read_in_decimal_or_hex() {
        assert_eq!(super::parse_seed("42"), Some(42));
        assert_eq!(super::parse_seed(" 0x2a\n"), Some(42));
        assert_eq!(super::parse_seed("forty-two"), None);
        assert!(super::replay(7).contains("SHVEDKA_SEED=7"));
    }
}
