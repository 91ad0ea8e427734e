//! Reading what the player typed as a move: most text goes to the server as typed (the server is
//! the judge and explains a refusal with its rule), except a promotion by removal written without
//! the removed piece — then the player picks one of the pieces that may be removed (R1, R3).

use bughouse::{BoardId, Game};
use chess_core::{Role, Square};

/// A piece the player may remove for a promotion.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pick {
    /// The whole move in long notation (`e7e8qd1`).
    pub text: String,
    /// The removed piece's kind (the interface names it in the player's language).
    pub role: Role,
    /// Its square on the other board.
    pub square: Square,
}

/// What to do with typed move text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    /// Send this text.
    Send(String),
    /// Ask which piece to remove first.
    Pick(Vec<Pick>),
}

/// Reads move text for `board`.
pub fn read_entry(game: &Game, board: BoardId, text: &str) -> Entry {
    let text = text.trim();
    if game.parse_move(board, text).is_ok() {
        return Entry::Send(text.to_owned());
    }
    let stem = text.trim_end_matches(['+', '#']);
    if stem.len() < 2 {
        return Entry::Send(text.to_owned());
    }
    let other = game.board(board.other());
    let picks: Vec<Pick> = game
        .legal_moves(board)
        .into_iter()
        .filter_map(|m| {
            let square = m.removal?;
            let (san, uci) = (game.san(&m), game.uci(&m));
            if !(san.starts_with(stem) || uci.starts_with(stem)) {
                return None;
            }
            let role = other.board().role_at(square)?;
            Some(Pick { text: uci, role, square })
        })
        .collect();
    if picks.is_empty() { Entry::Send(text.to_owned()) } else { Entry::Pick(picks) }
}
