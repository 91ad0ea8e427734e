//! The rules for drops that differ between variants, as a small value carried by the position.

use std::fmt;
use std::ops::RangeInclusive;

use crate::{Bitboard, ByColor, Color, Rank};

/// Where pawns may be dropped and whether a dropped rook may castle.
///
/// The default is the crazyhouse convention that `perft` uses: pawn drops on ranks 2–7 (relative
/// to the dropper) and no castling with a dropped rook. Bughouse presets choose their own
/// (RULES.md P2, P5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DropRules {
    pawn_squares: ByColor<Bitboard>,
    pawn_ranks: (u8, u8),
    castle_with_dropped_rook: bool,
}

impl Default for DropRules {
    fn default() -> DropRules {
        DropRules::new(2..=7, false).expect("2..=7 is a valid range")
    }
}

impl DropRules {
    /// Rules that allow pawn drops on `pawn_ranks` (1-based, counted from the dropping side) and,
    /// if `castle_with_dropped_rook`, let a rook dropped on its original corner castle while the
    /// king has never moved.
    ///
    /// # Errors
    /// The ranks must lie within 1..=8 and not be empty.
    pub fn new(
        pawn_ranks: RangeInclusive<u8>,
        castle_with_dropped_rook: bool,
    ) -> Result<DropRules, DropRulesError> {
        let (lo, hi) = (*pawn_ranks.start(), *pawn_ranks.end());
        if lo < 1 || hi > 8 || lo > hi {
            return Err(DropRulesError { lo, hi });
        }
        let mut white = Bitboard::EMPTY;
        for r in lo..=hi {
            white |= Bitboard::rank(Rank::new(u32::from(r) - 1).expect("checked range"));
        }
        let black = Bitboard(white.0.swap_bytes());
        Ok(DropRules {
            pawn_squares: ByColor { white, black },
            pawn_ranks: (lo, hi),
            castle_with_dropped_rook,
        })
    }

    /// The squares a side may drop a pawn on (if empty).
    #[inline]
    pub fn pawn_drop_squares(&self, color: Color) -> Bitboard {
        self.pawn_squares[color]
    }

    /// The allowed pawn-drop ranks, 1-based, relative to the dropping side.
    pub fn pawn_ranks(&self) -> RangeInclusive<u8> {
        self.pawn_ranks.0..=self.pawn_ranks.1
    }

    /// Whether a rook dropped on its corner may castle (RULES.md P5).
    pub fn castle_with_dropped_rook(&self) -> bool {
        self.castle_with_dropped_rook
    }
}

/// A pawn-drop rank range outside 1..=8 or empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DropRulesError {
    /// The first rank asked for.
    pub lo: u8,
    /// The last rank asked for.
    pub hi: u8,
}

impl fmt::Display for DropRulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid pawn drop ranks {}..={}: expected a non-empty range within 1..=8",
            self.lo, self.hi
        )
    }
}

impl std::error::Error for DropRulesError {}
