//! Moves, including drops, and what a move captured.

use std::fmt;

use arrayvec::ArrayVec;

use crate::{Color, Piece, Role, Square};

/// A move on one board. It carries enough to be played without looking at the board again, and to
/// be written in SAN or long notation given the position it is played in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Move {
    /// A piece moves from one square to another, possibly capturing and possibly promoting.
    Normal {
        /// The moving piece's role (a pawn when promoting).
        role: Role,
        /// Where it comes from.
        from: Square,
        /// The role of the piece it captures on `to`, if any.
        capture: Option<Role>,
        /// Where it goes.
        to: Square,
        /// The role it becomes, for a pawn reaching the last rank.
        promotion: Option<Role>,
    },
    /// A pawn captures en passant: it goes to `to` and the pawn beside `from` is taken.
    EnPassant {
        /// The capturing pawn's square.
        from: Square,
        /// The square the pawn goes to (the square the enemy pawn skipped).
        to: Square,
    },
    /// Castling, written internally as the king "taking" its own rook, so that it is the same for
    /// standard chess and Chess960.
    Castle {
        /// The king's square.
        king: Square,
        /// The castling rook's square.
        rook: Square,
    },
    /// A piece from the pocket is put on an empty square (`N@f3`).
    Drop {
        /// The dropped role.
        role: Role,
        /// The square it is put on.
        to: Square,
    },
}

impl Move {
    /// The role of the piece that moves (or is dropped).
    pub fn role(&self) -> Role {
        match *self {
            Move::Normal { role, .. } | Move::Drop { role, .. } => role,
            Move::EnPassant { .. } => Role::Pawn,
            Move::Castle { .. } => Role::King,
        }
    }

    /// The square the piece comes from (none for a drop).
    pub fn from(&self) -> Option<Square> {
        match *self {
            Move::Normal { from, .. } | Move::EnPassant { from, .. } => Some(from),
            Move::Castle { king, .. } => Some(king),
            Move::Drop { .. } => None,
        }
    }

    /// The square named as the destination (the rook's square for castling).
    pub fn to(&self) -> Square {
        match *self {
            Move::Normal { to, .. } | Move::EnPassant { to, .. } | Move::Drop { to, .. } => to,
            Move::Castle { rook, .. } => rook,
        }
    }

    /// The role captured, if any.
    pub fn capture(&self) -> Option<Role> {
        match *self {
            Move::Normal { capture, .. } => capture,
            Move::EnPassant { .. } => Some(Role::Pawn),
            _ => None,
        }
    }

    /// Whether the move captures.
    pub fn is_capture(&self) -> bool {
        self.capture().is_some()
    }

    /// The promotion role, if any.
    pub fn promotion(&self) -> Option<Role> {
        match *self {
            Move::Normal { promotion, .. } => promotion,
            _ => None,
        }
    }

    /// Whether this is a drop.
    pub fn is_drop(&self) -> bool {
        matches!(self, Move::Drop { .. })
    }

    /// Whether it resets the halfmove clock: a pawn move, a capture or a drop.
    pub fn is_zeroing(&self) -> bool {
        self.is_capture() || self.role() == Role::Pawn || self.is_drop()
    }
}

impl fmt::Display for Move {
    /// Long notation in standard-chess style (castling written as the king's two-square step is
    /// the job of [`crate::Position::uci`]; this writes castling as king-takes-rook).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Normal { from, to, promotion, .. } => {
                write!(f, "{from}{to}")?;
                if let Some(p) = promotion {
                    write!(f, "{}", p.char())?;
                }
                Ok(())
            }
            Move::EnPassant { from, to } => write!(f, "{from}{to}"),
            Move::Castle { king, rook } => write!(f, "{king}{rook}"),
            Move::Drop { role, to } => write!(f, "{}@{to}", role.upper_char()),
        }
    }
}

/// A piece a move took off the board. The rules core does not decide where it goes: the caller
/// (a variant) does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Captured {
    /// The captured piece.
    pub piece: Piece,
    /// Whether it had been promoted (classic bughouse returns such a piece as a pawn).
    pub promoted: bool,
    /// Where it stood.
    pub square: Square,
}

impl Captured {
    /// The colour of the captured piece.
    pub fn color(&self) -> Color {
        self.piece.color
    }
}

/// The most moves a position can have: 218 board moves, plus drops of five roles on at most 62
/// empty squares.
pub const MAX_MOVES: usize = 512;

/// A list of moves on the stack.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;
