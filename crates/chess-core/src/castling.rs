//! Castling rights, for standard chess and Chess960 alike, plus the "king has moved" state that
//! castling with a dropped rook needs.

use crate::{Bitboard, ByColor, Color, File, Rank, Square};

/// A side of the board for castling.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastlingSide {
    /// Towards the h-file (`O-O`).
    KingSide,
    /// Towards the a-file (`O-O-O`).
    QueenSide,
}

impl CastlingSide {
    /// Both sides, king side first.
    pub const ALL: [CastlingSide; 2] = [CastlingSide::KingSide, CastlingSide::QueenSide];

    /// The side on which a rook stands relative to its king.
    pub fn of(king: Square, rook: Square) -> CastlingSide {
        if rook.file() > king.file() { CastlingSide::KingSide } else { CastlingSide::QueenSide }
    }

    /// The file the king lands on (g or c).
    pub const fn king_to_file(self) -> File {
        match self {
            CastlingSide::KingSide => File::G,
            CastlingSide::QueenSide => File::C,
        }
    }

    /// The file the rook lands on (f or d).
    pub const fn rook_to_file(self) -> File {
        match self {
            CastlingSide::KingSide => File::F,
            CastlingSide::QueenSide => File::D,
        }
    }

    /// Where the king lands.
    pub fn king_to(self, color: Color) -> Square {
        Square::from_coords(self.king_to_file(), Rank::FIRST.relative_to(color))
    }

    /// Where the rook lands.
    pub fn rook_to(self, color: Color) -> Square {
        Square::from_coords(self.rook_to_file(), Rank::FIRST.relative_to(color))
    }
}

/// The castling state of a position.
///
/// Rights are kept as the set of rooks that may still castle, so standard chess and Chess960 share
/// one representation (FIDE 3.8 and appendix F). Separately, `king_moved` records whether each
/// king has ever moved: a right is lost for good once the king moves, but while it has not, a rook
/// dropped on its original corner may regain the right (bughouse; see [`crate::DropRules`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Castling {
    pub(crate) rooks: Bitboard,
    pub(crate) king_moved: ByColor<bool>,
    /// The files the castling rooks start on: queen side, king side.
    pub(crate) rook_files: [File; 2],
    pub(crate) chess960: bool,
}

impl Default for Castling {
    fn default() -> Castling {
        Castling {
            rooks: Bitboard::EMPTY,
            king_moved: ByColor { white: true, black: true },
            rook_files: [File::A, File::H],
            chess960: false,
        }
    }
}

impl Castling {
    /// The rooks that still have the right to castle.
    pub fn rooks(&self) -> Bitboard {
        self.rooks
    }

    /// The rooks of one colour that may still castle.
    pub fn rooks_of(&self, color: Color) -> Bitboard {
        self.rooks & Bitboard::back_rank(color)
    }

    /// Whether the king of a colour has ever moved (or is taken to have, for lack of rights).
    pub fn king_moved(&self, color: Color) -> bool {
        self.king_moved[color]
    }

    /// Whether castling is written the Chess960 way (king takes rook, Shredder-FEN letters).
    pub fn is_chess960(&self) -> bool {
        self.chess960
    }

    /// The file a castling rook of a side starts on (a and h in standard chess).
    pub fn rook_file(&self, side: CastlingSide) -> File {
        match side {
            CastlingSide::QueenSide => self.rook_files[0],
            CastlingSide::KingSide => self.rook_files[1],
        }
    }

    /// Whether any castling right remains.
    pub fn is_empty(&self) -> bool {
        self.rooks.is_empty()
    }
}
