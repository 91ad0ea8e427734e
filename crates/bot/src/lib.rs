//! The shvedka bot (`shvedka bot`, and the four players of `shvedka demo`): a client that takes a
//! seat over the protocol like any player and plays with the engine's search.
//!
//! [`play_match`] follows the match through a [`shvedka_client::MatchModel`], searches on a
//! blocking thread when it is the bot's turn (within a budget from its own clock, so it does not
//! flag in ordinary play), holds the move until a human's think time is up ([`think_time`]: from
//! its clock and the position, never under [`BotConfig::pace`], so people can play beside it),
//! sends the move with its thinking time for lag credit, asks its partner once for the piece that
//! would help most while it waits, answers draw offers (accepting only when its search says it is
//! losing), claims fallen flags when the rules want claims, and resumes its session after a lost
//! connection. [`answer_seeks`] (`shvedka bot --seek`) joins pools where a person waits, so a
//! lone player gets a game. It never trusts its own copy of the
//! position over the server's: a refused move just means searching again.
//!
//! What chooses the move is a [`Chooser`]: the own search ([`play_match`]), or a bughouse UCI
//! engine such as Fairy-Stockfish run as a separate process (`shvedka bot --uci`, through
//! [`play_match_with`]; the `classic` preset only), which falls back to the own search for any
//! move the engine cannot give. The strength benchmark (`shvedka bench-strength`) plays choosers
//! against each other with a [`Budget`] per move.

mod chooser;
mod pace;
mod player;
mod seeker;

pub use chooser::{Budget, ChooseError, Chooser};
pub use pace::{DEFAULT_PACE, Situation, think_time};
pub use player::{
    BotConfig, Outcome, increment, play_match, play_match_with, play_seated, play_seated_with,
    play_tournament,
};
pub use seeker::{SeekConfig, answer_seeks, pool_to_answer};

/// Why a bot stopped before its match ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotError {
    /// The seat could not be taken (or readiness not said).
    Seat(String),
    /// The connection is gone and could not be resumed.
    Connection(String),
    /// The move chooser cannot play the match's rules (a UCI engine plays `classic` only).
    Rules(String),
}

impl std::fmt::Display for BotError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BotError::Seat(e) => write!(f, "cannot take the seat: {e}"),
            BotError::Connection(e) => write!(f, "connection: {e}"),
            BotError::Rules(e) => write!(f, "cannot play this match: {e}"),
        }
    }
}

impl std::error::Error for BotError {}
