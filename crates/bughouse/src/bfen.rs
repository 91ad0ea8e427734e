//! BFEN (RULES.md A4): the two boards' FENs, each with its reserves in brackets after the
//! placement, joined by ` | `.
//!
//! One extension records what FEN cannot (P5a): in the castling field, `U` (White) or `u` (Black)
//! says that side's king has never moved although it has no castling right left — so a rook
//! dropped on its corner may castle later. A side with a castling right has an unmoved king
//! anyway and is never marked. Example: `… w Uk - 0 12`.

use std::fmt;

use chess_core::{Color, ParseFenError, Position};

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

fn parse_board(text: &str, board: BoardId) -> Result<Position, ParseBfenError> {
    let fail = |message: String| ParseBfenError { board: Some(board), message };
    let mut fields: Vec<&str> = text.split_whitespace().collect();
    let mut unmoved = Vec::new();
    let castling: String;
    if let Some(field) = fields.get(2) {
        unmoved = field
            .chars()
            .filter_map(|c| match c {
                'U' => Some(Color::White),
                'u' => Some(Color::Black),
                _ => None,
            })
            .collect();
        castling = field.chars().filter(|c| !matches!(c, 'U' | 'u')).collect();
        fields[2] = if castling.is_empty() { "-" } else { &castling };
    }
    let fen = fields.join(" ");
    let mut pos = Position::from_fen(&fen).map_err(|e: ParseFenError| fail(e.to_string()))?;
    for color in unmoved {
        let king = pos.board().king_of(color).expect("a parsed position has both kings");
        if king.rank() != chess_core::Rank::FIRST.relative_to(color) {
            return Err(fail(format!(
                "'{}' but the {color} king is not on its back rank",
                color.fold('U', 'u')
            )));
        }
        pos.set_king_moved(color, false);
    }
    pos.enable_pockets();
    Ok(pos)
}

fn print_board(pos: &Position) -> String {
    let fen = pos.fen();
    let mut fields: Vec<String> = fen.split(' ').map(str::to_owned).collect();
    let rights: String = fields[2].chars().filter(|&c| c != '-').collect();
    let mut castling = String::new();
    for color in Color::ALL {
        castling.extend(rights.chars().filter(|c| c.is_ascii_uppercase() == (color == Color::White)));
        if !pos.castling().king_moved(color) && pos.castling().rooks_of(color).is_empty() {
            castling.push(color.fold('U', 'u'));
        }
    }
    fields[2] = if castling.is_empty() { "-".to_owned() } else { castling };
    fields.join(" ")
}

impl Game {
    /// Reads a BFEN under the given rules.
    ///
    /// # Errors
    /// [`ParseBfenError`] naming the board and what is wrong with its FEN.
    pub fn from_bfen(bfen: &str, rules: Rules) -> Result<Game, ParseBfenError> {
        let parts: Vec<&str> = bfen.split('|').collect();
        if parts.len() != 2 {
            return Err(ParseBfenError {
                board: None,
                message: format!("expected two FENs joined by ' | ', found {} part(s)", parts.len()),
            });
        }
        let a = parse_board(parts[0].trim(), BoardId::A)?;
        let b = parse_board(parts[1].trim(), BoardId::B)?;
        Ok(Game::from_positions(a, b, rules))
    }

    /// Writes the game as BFEN.
    pub fn bfen(&self) -> String {
        format!("{} | {}", print_board(self.board(BoardId::A)), print_board(self.board(BoardId::B)))
    }
}
