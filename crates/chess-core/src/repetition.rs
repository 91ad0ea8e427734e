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
        let n = self.counts.entry(pos.zobrist()).or_insert(0);
        *n += 1;
        *n
    }

    /// How often the position has occurred.
    pub fn count(&self, pos: &Position) -> u32 {
        self.counts.get(&pos.zobrist()).copied().unwrap_or(0)
    }

    /// Forgets one occurrence (when a move is taken back).
    pub fn unrecord(&mut self, pos: &Position) {
        if let Some(n) = self.counts.get_mut(&pos.zobrist()) {
            *n -= 1;
            if *n == 0 {
                self.counts.remove(&pos.zobrist());
            }
        }
    }
}
