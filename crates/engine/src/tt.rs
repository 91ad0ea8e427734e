//! The transposition table: search results keyed by `Position::zobrist`, so a position met again
//! (by transposition, or in the next iteration of iterative deepening) reuses its bound and its
//! best move. The hash covers the pockets, so the same placement with other reserves is another
//! entry.

use chess_core::Move;

use crate::score::{from_table, to_table};

/// What a stored score says about the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The true score.
    Exact,
    /// At least this (the search failed high).
    Lower,
    /// At most this (the search failed low).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    key: u64,
    /// The best (or refuting) move found, if any.
    pub(crate) mv: Option<Move>,
    score: i32,
    /// The remaining depth the score was searched to.
    pub(crate) depth: i32,
    /// What the score says.
    pub(crate) bound: Bound,
    generation: u8,
}

impl Entry {
    /// The stored score, seen from a node at `ply`.
    pub(crate) fn score(&self, ply: usize) -> i32 {
        from_table(self.score, ply)
    }
}

/// A fixed-size, always-allocated table with one entry per slot.
#[derive(Debug)]
pub(crate) struct Table {
    slots: Vec<Option<Entry>>,
    generation: u8,
}

impl Table {
    /// A table of `2^bits` slots.
    pub(crate) fn new(bits: u32) -> Table {
        Table { slots: vec![None; 1 << bits], generation: 0 }
    }

    fn index(&self, key: u64) -> usize {
        (key as usize) & (self.slots.len() - 1)
    }

    /// Starts a new search: older entries become the first to be replaced.
    pub(crate) fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    /// The entry for a position, if the table holds one.
    pub(crate) fn probe(&self, key: u64) -> Option<Entry> {
        self.slots.get(self.index(key)).copied().flatten().filter(|e| e.key == key)
    }

    /// Stores a result. A slot is overwritten unless it holds a deeper result of this search for
    /// another position; for the same position a missing move keeps the old one.
    pub(crate) fn store(
        &mut self,
        key: u64,
        mv: Option<Move>,
        score: i32,
        depth: i32,
        bound: Bound,
        ply: usize,
    ) {
        let index = self.index(key);
        let generation = self.generation;
        let Some(slot) = self.slots.get_mut(index) else { return };
        let mut mv = mv;
        if let Some(old) = slot {
            if old.key == key {
                mv = mv.or(old.mv);
            } else if old.generation == generation && old.depth > depth {
                return;
            }
        }
        *slot = Some(Entry { key, mv, score: to_table(score, ply), depth, bound, generation });
    }
}
