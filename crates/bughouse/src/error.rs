//! Errors of the rules layer, each naming the rule (RULES.md id) it enforces.

use std::fmt;

use crate::BoardId;

/// A rule of RULES.md that a move can break.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RuleId {
    /// The FIDE Laws (an ordinary illegal chess move).
    Chess,
    /// P1: drops (reserve, empty square, own king).
    P1,
    /// P2: pawn-drop ranks.
    P2,
    /// P3: a drop may not give mate on board.
    P3,
    /// R1: what may be removed.
    R1,
    /// R3: a removal must leave the other board legal.
    R3,
    /// R4: promotion without removal only when nothing can be removed.
    R4,
    /// R7: the notation names a piece that is not there.
    R7,
}

impl RuleId {
    /// The id as RULES.md writes it (`FIDE` for the ordinary laws).
    pub const fn as_str(self) -> &'static str {
        match self {
            RuleId::Chess => "FIDE",
            RuleId::P1 => "P1",
            RuleId::P2 => "P2",
            RuleId::P3 => "P3",
            RuleId::R1 => "R1",
            RuleId::R3 => "R3",
            RuleId::R4 => "R4",
            RuleId::R7 => "R7",
        }
    }
}

impl fmt::Display for RuleId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A move refused by the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayError {
    /// The board it was tried on.
    pub board: BoardId,
    /// The rule it breaks.
    pub rule: RuleId,
    /// What is wrong, in words.
    pub reason: String,
}

impl fmt::Display for PlayError {
    /// For example `illegal on board A: drop would give mate on board (P3)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal on board {}: {} ({})", self.board, self.reason, self.rule)
    }
}

impl std::error::Error for PlayError {}

/// Move text that could not be read or matches no legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveTextError {
    /// Neither long notation nor SAN.
    Syntax {
        /// The rejected text.
        input: String,
        /// Why.
        reason: String,
    },
    /// Read, but not legal; says which rule it breaks.
    Illegal {
        /// The rejected text.
        input: String,
        /// The rule and reason.
        error: PlayError,
    },
    /// SAN matching several legal moves.
    Ambiguous {
        /// The rejected text.
        input: String,
    },
}

impl fmt::Display for MoveTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveTextError::Syntax { input, reason } => write!(f, "cannot read move {input:?}: {reason}"),
            MoveTextError::Illegal { input, error } => write!(f, "move {input:?} is {error}"),
            MoveTextError::Ambiguous { input } => {
                write!(f, "move {input:?} is ambiguous: name the origin square")
            }
        }
    }
}

impl std::error::Error for MoveTextError {}
