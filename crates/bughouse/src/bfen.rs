//! BFEN (RULES.md A4): the two boards' FENs, each with its reserves in brackets after the
//! placement, joined by ` | `. Castling rights are X-FEN (`KQkq`) for standard chess and
//! Shredder-FEN file letters (`GBgb`) for Chess960.
//!
//! Two extensions of the castling field record what FEN cannot (P5a):
//!
//! - `U` (White) or `u` (Black) after that side's rights says its king has never moved although
//!   no castling right is left — so a rook dropped on its start square may castle later. A side
//!   with a castling right has an unmoved king anyway and is never marked. Example:
//!   `… w Uk - 0 12`.
//! - `(bg)` at the end gives the files a Chess960 position's rooks started on, queen side first
//!   (one pair for both colours, as in every start array). It is written only where the rights
//!   left would read back others — a side no right names reads as a or h, and a field without
//!   rights as standard chess — so a standard position is written as it always was, and a
//!   Chess960 one reads back the same. Example, Chess960 `NRBKQBRN` after both rooks of each side
//!   moved: `… w Uu(bg) - 4 3`; with every right gone and both kings moved: `… w -(bg) …`.
//!
//! [`Game::from_bfen_with_start`] reads a BFEN of a game whose start is known (an arbiter's
//! corrected position): files the text does not name are then the start's.

use std::fmt;

use chess_core::{ParseFenError, Position};

use crate::castling_field::{self, Extensions};
use crate::options::Rules;
use crate::{BoardId, Game};

/// A BFEN that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseBfenError {
    /// The board whose FEN is wrong (none when the split into two boards failed).
    pub board: Option<BoardId>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ParseBfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.board {
            Some(b) => write!(f, "invalid BFEN, board {b}: {}", self.message),
            None => write!(f, "invalid BFEN: {}", self.message),
        }
    }
}

impl std::error::Error for ParseBfenError {}

fn parse_board(text: &str, board: BoardId, start: Option<&Position>) -> Result<Position, ParseBfenError> {
    let fail = |message: String| ParseBfenError { board: Some(board), message };
    let castling: String;
    let mut fields: Vec<&str> = text.split_whitespace().collect();
    let mut extensions = Extensions::default();
    if let Some(field) = fields.get(2) {
        (castling, extensions) = castling_field::split(field).map_err(fail)?;
        fields[2] = &castling;
    }
    let fen = fields.join(" ");
    let mut pos = Position::from_fen(&fen).map_err(|e: ParseFenError| fail(e.to_string()))?;
    extensions.apply(&mut pos, start).map_err(fail)?;
    pos.enable_pockets();
    Ok(pos)
}

/// Appends a board's FEN with the castling field's extensions.
fn print_board(pos: &Position, out: &mut String) {
    let fen = pos.fen();
    // The castling field is the third: between the second and the third space. It is written
    // in place (every event of a match prints both boards, so no splitting into owned fields).
    let mut spaces = fen.match_indices(' ').map(|(at, _)| at);
    let (Some(from), Some(to)) = (spaces.nth(1), spaces.next()) else {
        out.push_str(&fen);
        return;
    };
    out.push_str(&fen[..=from]);
    castling_field::write(pos, &fen[from + 1..to], out);
    out.push_str(&fen[to..]);
}

impl Game {
    /// Reads a BFEN under the given rules.
    ///
    /// # Errors
    /// [`ParseBfenError`] naming the board and what is wrong with its FEN.
    pub fn from_bfen(bfen: &str, rules: Rules) -> Result<Game, ParseBfenError> {
        Game::read_bfen(bfen, rules, None)
    }

    /// Reads a BFEN of a game that started from `start`, as an arbiter's corrected position is
    /// (RULES.md A2): where a board's BFEN names no start files of a side (neither a castling right
    /// on it nor the files in parentheses) and `start` is Chess960, that side's file is `start`'s.
    /// So the arbiter of a Chess960 match need not write them.
    ///
    /// # Errors
    /// [`ParseBfenError`] naming the board and what is wrong with its FEN.
    pub fn from_bfen_with_start(bfen: &str, rules: Rules, start: &Game) -> Result<Game, ParseBfenError> {
        Game::read_bfen(bfen, rules, Some(start))
    }

    fn read_bfen(bfen: &str, rules: Rules, start: Option<&Game>) -> Result<Game, ParseBfenError> {
        let parts: Vec<&str> = bfen.split('|').collect();
        if parts.len() != 2 {
            return Err(ParseBfenError {
                board: None,
                message: format!("expected two FENs joined by ' | ', found {} part(s)", parts.len()),
            });
        }
        let start = |board: BoardId| start.map(|g| g.board(board));
        let a = parse_board(parts[0].trim(), BoardId::A, start(BoardId::A))?;
        let b = parse_board(parts[1].trim(), BoardId::B, start(BoardId::B))?;
        Ok(Game::from_positions(a, b, rules))
    }

    /// Writes the game as BFEN.
    pub fn bfen(&self) -> String {
        let mut out = String::with_capacity(192);
        print_board(self.board(BoardId::A), &mut out);
        out.push_str(" | ");
        print_board(self.board(BoardId::B), &mut out);
        out
    }
}
