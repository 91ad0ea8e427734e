//! Pockets (reserves): pieces a side holds off the board and may drop.

use std::fmt::{self, Write as _};

use crate::{ByColor, Color, Piece, Role};

/// How many pieces of each role (pawn to queen) one side holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pocket {
    counts: [u8; 5],
}

impl Pocket {
    /// How many pieces of a role the pocket holds (always 0 for the king).
    #[inline]
    pub fn count(&self, role: Role) -> u8 {
        self.counts.get(role.index()).copied().unwrap_or(0)
    }

    /// Whether the pocket holds nothing.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.counts == [0; 5]
    }

    /// The total number of pieces held.
    pub fn total(&self) -> u32 {
        self.counts.iter().map(|&c| u32::from(c)).sum()
    }

    /// Adds one piece of a role.
    ///
    /// # Errors
    /// A king cannot be held, and a pocket holds at most 64 pieces of one role.
    pub fn add(&mut self, role: Role) -> Result<(), PocketError> {
        match self.counts.get_mut(role.index()) {
            Some(c) if *c < Pockets::MAX_PER_ROLE => {
                *c += 1;
                Ok(())
            }
            Some(_) => Err(PocketError::Full(role)),
            None => Err(PocketError::King),
        }
    }

    /// Takes one piece of a role out.
    ///
    /// # Errors
    /// When the pocket holds no piece of that role.
    pub fn remove(&mut self, role: Role) -> Result<(), PocketError> {
        match self.counts.get_mut(role.index()) {
            Some(c) if *c > 0 => {
                *c -= 1;
                Ok(())
            }
            _ => Err(PocketError::Missing(role)),
        }
    }
}

/// Both sides' pockets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pockets(pub ByColor<Pocket>);

impl Pockets {
    /// The most pieces of one role a pocket can hold.
    pub const MAX_PER_ROLE: u8 = 64;

    /// How many pieces of a kind are held.
    #[inline]
    pub fn count(&self, piece: Piece) -> u8 {
        self.0[piece.color].count(piece.role)
    }

    /// One side's pocket.
    #[inline]
    pub fn of(&self, color: Color) -> &Pocket {
        &self.0[color]
    }

    /// One side's pocket, to change.
    #[inline]
    pub fn of_mut(&mut self, color: Color) -> &mut Pocket {
        &mut self.0[color]
    }

    /// Whether both pockets are empty.
    pub fn is_empty(&self) -> bool {
        self.0.white.is_empty() && self.0.black.is_empty()
    }
}

impl fmt::Display for Pockets {
    /// The crazyhouse-style letters without brackets: White's pieces upper case first, strongest
    /// first (`QRBNPqrbnp` order).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.letters().try_for_each(|letter| f.write_char(letter))
    }
}

impl Pockets {
    /// The letters [`Pockets`]' `Display` writes, one a piece (a FEN's pockets, written for
    /// every event a server sends, are pushed from here without the formatting machinery).
    pub(crate) fn letters(&self) -> impl Iterator<Item = char> + '_ {
        Color::ALL.into_iter().flat_map(move |color| {
            Role::POCKET.into_iter().rev().flat_map(move |role| {
                let piece = role.of(color);
                std::iter::repeat_n(piece.char(), usize::from(self.count(piece)))
            })
        })
    }
}

/// Why a pocket operation failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PocketError {
    /// Kings are never held in a pocket.
    King,
    /// The pocket already holds the most pieces of that role it can.
    Full(Role),
    /// The pocket holds no piece of that role.
    Missing(Role),
}

impl fmt::Display for PocketError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PocketError::King => f.write_str("a king cannot be held in a pocket"),
            PocketError::Full(r) => write!(f, "pocket already holds {} {r}s", Pockets::MAX_PER_ROLE),
            PocketError::Missing(r) => write!(f, "no {r} in the pocket"),
        }
    }
}

impl std::error::Error for PocketError {}
