//! Why an input was refused. A refused input changes nothing and is not logged.

use std::fmt;

use bughouse::{BoardId, PlayError, Seat};

/// A refused input, with the rule it enforces where there is one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rejection {
    /// The player holds no seat in this match.
    NotSeated,
    /// S1: someone else sits there.
    SeatTaken(Seat),
    /// The player already holds this seat.
    AlreadySeated(Seat),
    /// Seats are fixed once all four are ready.
    SeatsLocked,
    /// The match has not started.
    NotStarted,
    /// K5: the clocks are stopped for the arbiter.
    Paused,
    /// Resume when nothing is paused.
    NotPaused,
    /// The match has ended or been annulled.
    Over,
    /// The player's seat is on the other board.
    NotYourBoard {
        /// The player's seat.
        seat: Seat,
        /// The board of the move.
        board: BoardId,
    },
    /// K1: the other side is to move on that board.
    NotYourTurn {
        /// The player's seat.
        seat: Seat,
    },
    /// The rules forbid the move (the rule id is inside).
    Illegal(PlayError),
    /// K4: the player's time ran out, lag credit included.
    FlagFell(Seat),
    /// E3: the player's offer already stands.
    AlreadyOffered,
    /// E3: there is no offer to decline.
    NoDrawOffer,
    /// A claim that does not hold.
    ClaimRejected {
        /// The rule.
        rule: &'static str,
        /// Why not.
        reason: String,
    },
    /// A2: the take-back cannot be done.
    TakeBackRefused(String),
    /// A2: the corrected position is not acceptable.
    InvalidPosition(String),
}

impl Rejection {
    /// The rule id the refusal enforces, if any.
    pub fn rule(&self) -> Option<&'static str> {
        Some(match self {
            Rejection::SeatTaken(_) | Rejection::AlreadySeated(_) | Rejection::SeatsLocked => "S1",
            Rejection::Paused | Rejection::NotPaused => "K5",
            Rejection::NotYourTurn { .. } => "K1",
            Rejection::FlagFell(_) => "K4",
            Rejection::Illegal(e) => e.rule.as_str(),
            Rejection::AlreadyOffered | Rejection::NoDrawOffer => "E3",
            Rejection::ClaimRejected { rule, .. } => rule,
            Rejection::TakeBackRefused(_) | Rejection::InvalidPosition(_) => "A2",
            Rejection::NotSeated
            | Rejection::NotStarted
            | Rejection::Over
            | Rejection::NotYourBoard { .. } => {
                return None;
            }
        })
    }
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rejection::NotSeated => f.write_str("you hold no seat in this match"),
            Rejection::SeatTaken(seat) => write!(f, "seat {seat} is taken"),
            Rejection::AlreadySeated(seat) => write!(f, "you already sit at {seat}"),
            Rejection::SeatsLocked => f.write_str("seats are fixed once all four players are ready"),
            Rejection::NotStarted => f.write_str("the match has not started"),
            Rejection::Paused => f.write_str("the clocks are stopped for the arbiter"),
            Rejection::NotPaused => f.write_str("the match is not paused"),
            Rejection::Over => f.write_str("the match is over"),
            Rejection::NotYourBoard { seat, board } => {
                write!(f, "you play {seat}, not on board {board}")
            }
            Rejection::NotYourTurn { seat } => write!(f, "not your turn: {} is to move", seat.opponent()),
            Rejection::Illegal(e) => write!(f, "{e}"),
            Rejection::FlagFell(seat) => write!(f, "{seat}'s time has run out"),
            Rejection::AlreadyOffered => f.write_str("your draw offer already stands"),
            Rejection::NoDrawOffer => f.write_str("there is no draw offer to decline"),
            Rejection::ClaimRejected { reason, .. } => write!(f, "claim rejected: {reason}"),
            Rejection::TakeBackRefused(why) => write!(f, "cannot take back: {why}"),
            Rejection::InvalidPosition(why) => write!(f, "cannot set that position: {why}"),
        }?;
        match self.rule() {
            Some(rule) if !matches!(self, Rejection::Illegal(_)) => write!(f, " ({rule})"),
            _ => Ok(()),
        }
    }
}

impl std::error::Error for Rejection {}
