//! Setting the files a Chess960 position's castling rooks started on from outside FEN.
//!
//! FEN names a start file only through a castling right on that side, so a position without one
//! reads back with the standard a and h. Yet the files still matter while a king has not moved:
//! a rook dropped on its side's start square may castle (RULES.md P5). Notations that keep them
//! anyway (BFEN's extension, RULES.md P5a) and a match that knows its start array set them here.

use std::fmt;

use crate::{CastlingSide, Color, File, Position, Square};

/// Start files that do not fit the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StartFilesError {
    /// The queen-side file is not left of the king-side one.
    Order {
        /// The queen-side file given.
        queen_side: File,
        /// The king-side file given.
        king_side: File,
    },
    /// A rook with a castling right stands on another file than its side's start file.
    Right {
        /// The castling rook.
        rook: Square,
        /// The side it castles to.
        side: CastlingSide,
        /// The start file given for that side.
        file: File,
    },
}

impl fmt::Display for StartFilesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartFilesError::Order { queen_side, king_side } => write!(
                f,
                "the queen-side start file ({}) must lie left of the king-side one ({})",
                queen_side.char(),
                king_side.char()
            ),
            StartFilesError::Right { rook, side, file } => write!(
                f,
                "a castling rook stands on {rook}, but the {} rooks start on the {}-file",
                match side {
                    CastlingSide::QueenSide => "queen-side",
                    CastlingSide::KingSide => "king-side",
                },
                file.char()
            ),
        }
    }
}

impl std::error::Error for StartFilesError {}

impl Position {
    /// Makes this a Chess960 position whose castling rooks started on `queen_side` and
    /// `king_side` (one pair for both colours, as in every start array): castling is then written
    /// the Chess960 way, and under P5 a rook dropped on a king's back rank on the file of its side
    /// may castle while that king has not moved.
    ///
    /// # Errors
    /// [`StartFilesError`] when the queen-side file is not left of the king-side one, or a
    /// castling right of either colour is on another file than its side's; then nothing changes.
    pub fn set_chess960_start_files(
        &mut self,
        queen_side: File,
        king_side: File,
    ) -> Result<(), StartFilesError> {
        if queen_side >= king_side {
            return Err(StartFilesError::Order { queen_side, king_side });
        }
        for color in Color::ALL {
            let Some(king) = self.board.king_of(color) else { continue };
            for rook in self.castling.rooks_of(color) {
                let side = CastlingSide::of(king, rook);
                let file = match side {
                    CastlingSide::QueenSide => queen_side,
                    CastlingSide::KingSide => king_side,
                };
                if rook.file() != file {
                    return Err(StartFilesError::Right { rook, side, file });
                }
            }
        }
        self.castling.rook_files = [queen_side, king_side];
        self.castling.chess960 = true;
        Ok(())
    }
}
