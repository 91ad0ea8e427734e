//! Where a record starts — the position of its `BFEN`/`FEN` tag and the clocks of its
//! `TimeControl` — and why a record cannot be replayed: what the replay (`replay`), the one
//! timeline (`timeline`) and the check (`check`) share.

use bughouse::{BoardId, Game, MoveTextError, ParseBfenError, Rules};
use chess_core::Color;

use crate::clock::{Clocks, base_ms};
use crate::record::Record;

/// A record that could not be replayed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// The `BFEN` tag is not a position.
    #[error("start position (BFEN tag): {0}")]
    Start(ParseBfenError),
    /// The move's colour is not the side to move on its board.
    #[error("{label}: it is {turn}'s turn on board {board}")]
    OutOfTurn {
        /// The move's index in [`Record::moves`].
        index: usize,
        /// The move as written, `14a. Q@g8`.
        label: String,
        /// The board.
        board: BoardId,
        /// Who was to move there.
        turn: Color,
    },
    /// The move cannot be read, is ambiguous, or is illegal (the error names the rule).
    #[error("{label}: {error}")]
    Move {
        /// The move's index in [`Record::moves`].
        index: usize,
        /// The move as written, `14a. Q@g8`.
        label: String,
        /// Why it cannot be played.
        error: MoveTextError,
    },
    /// An act cannot be applied (a position that does not read, a taken-back move that cannot be
    /// played).
    #[error("after {after}: the act {act}: {why}")]
    Act {
        /// The index in [`Record::moves`] of the move it follows (`None`: before the first).
        index: Option<usize>,
        /// The move it follows as written, or `the start`.
        after: String,
        /// The act's verb.
        act: String,
        /// Why.
        why: crate::Wrong,
    },
}

/// The game a record starts from: the `BFEN` or `FEN` tag, or the standard start.
pub(crate) fn start_game(record: &Record, rules: Rules) -> Result<Game, ReplayError> {
    match record.start_bfen() {
        Some(bfen) => Game::from_bfen(&bfen, rules).map_err(ReplayError::Start),
        None => Ok(Game::new(rules)),
    }
}

/// The clocks before any move: the base time of the `TimeControl` tag, if it has one.
pub(crate) fn start_clocks(record: &Record) -> Clocks {
    let base = record.tag("TimeControl").and_then(base_ms);
    Clocks([base; 4])
}
