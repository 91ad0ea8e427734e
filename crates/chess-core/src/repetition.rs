//! Repetition detection: counts how often each position (by Zobrist hash) has occurred.

use std::collections::HashMap;

use crate::Position;

/// Occurrences of positions in one game, keyed by [`Position::zobrist`] (which covers pockets, so
/// variants with drops repeat only with equal reserves).
#[derive(Clone, Debug, Default)]
pub struct Repetitions {
    counts: HashMap<u64, u32>,
}

impl Repetitions {
    /// An empty record.
    pub fn new() -> Repetitions {
        Repetitions::default()
    }

    /// Records one occurrence of the position; returns how often it has now occurred.
    pub fn record(&mut self, pos: &Position) -> u32 {
        self.record_key(pos.zobrist())
    }

    /// How often the position has occurred.
    pub fn count(&self, pos: &Position) -> u32 {
        self.count_key(pos.zobrist())
    }

    /// Forgets one occurrence (when a move is taken back).
    pub fn unrecord(&mut self, pos: &Position) {
        self.unrecord_key(pos.zobrist());
    }

    /// [`Repetitions::record`] by hash, for a caller that keeps the keys of what it recorded
    /// (a variant whose positions also change by events of another board).
    pub fn record_key(&mut self, key: u64) -> u32 {
        let n = self.counts.entry(key).or_insert(0);
        *n += 1;
        *n
    }

    /// [`Repetitions::count`] by hash.
    pub fn count_key(&self, key: u64) -> u32 {
        self.counts.get(&key).copied().unwrap_or(0)
    }

    /// [`Repetitions::unrecord`] by hash.
    pub fn unrecord_key(&mut self, key: u64) {
        if let Some(n) = self.counts.get_mut(&key) {
            *n -= 1;
            if *n == 0 {
                self.counts.remove(&key);
            }
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.counts.clear();
    }
}
