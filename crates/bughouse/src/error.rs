//! Errors of the rules layer, each naming the rule (RULES.md id) it enforces.

use std::fmt;

use chess_core::{Role, Square};

use crate::{BoardId, Seat};

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
    /// What is wrong, as a fact (a client says it in its own words).
    pub why: Illegal,
}

impl PlayError {
    /// A refusal of a move on `board` for `why`, under the rule `why` breaks.
    pub fn new(board: BoardId, why: Illegal) -> PlayError {
        PlayError { board, rule: why.rule(), why }
    }

    /// What is wrong, in English words (logs, records, the command line).
    pub fn reason(&self) -> String {
        self.why.to_string()
    }
}

impl fmt::Display for PlayError {
    /// For example `illegal on board A: drop would give mate on board (P3)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal on board {}: {} ({})", self.board, self.why, self.rule)
    }
}

/// Why a move is illegal, with what a player needs to see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Illegal {
    /// FIDE: not a legal chess move here; `in_check`: the mover is in check.
    Chess {
        /// The side to move is in check.
        in_check: bool,
    },
    /// P1: the reserve holds no such piece.
    NotInReserve {
        /// Whose reserve.
        seat: Seat,
        /// The piece.
        role: Role,
    },
    /// P1: a drop on a square that is not empty.
    Occupied(Square),
    /// P1: the drop would leave the mover's king in check.
    DropLeavesCheck,
    /// P2: pawns are dropped only on these ranks, from the dropping side.
    PawnRank {
        /// The lowest rank.
        first: u8,
        /// The highest rank.
        last: u8,
    },
    /// P3: the drop would give mate on board.
    DropMates,
    /// R1: the square holds no knight, bishop, rook or queen of the crosswise player.
    NotRemovable {
        /// The square named.
        square: Square,
        /// The crosswise player.
        crosswise: Seat,
    },
    /// R3: removing that piece would leave the other board illegal.
    RemovalLeavesIllegal {
        /// The square.
        square: Square,
        /// Its board.
        board: BoardId,
        /// The piece there.
        role: Role,
    },
    /// R4: a piece of the crosswise player can be removed, so the promotion must remove one.
    MustRemove {
        /// The crosswise player.
        crosswise: Seat,
    },
    /// R4: the pawn would leave the board and uncover the mover's king.
    VanishingLeavesCheck,
    /// R7: the promotion names another piece than the one on the removal square.
    WrongPiece {
        /// The square.
        square: Square,
        /// Its board.
        board: BoardId,
        /// The piece that is there.
        role: Role,
    },
}

impl Illegal {
    /// The rule it breaks.
    pub const fn rule(&self) -> RuleId {
        match self {
            Illegal::Chess { .. } => RuleId::Chess,
            Illegal::NotInReserve { .. } | Illegal::Occupied(_) | Illegal::DropLeavesCheck => RuleId::P1,
            Illegal::PawnRank { .. } => RuleId::P2,
            Illegal::DropMates => RuleId::P3,
            Illegal::NotRemovable { .. } => RuleId::R1,
            Illegal::RemovalLeavesIllegal { .. } => RuleId::R3,
            Illegal::MustRemove { .. } | Illegal::VanishingLeavesCheck => RuleId::R4,
            Illegal::WrongPiece { .. } => RuleId::R7,
        }
    }
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Illegal::Chess { in_check: true } => f.write_str("you are in check: not a legal chess move here"),
            Illegal::Chess { in_check: false } => f.write_str("not a legal chess move here"),
            Illegal::NotInReserve { seat, role } => write!(f, "no {role} in {seat}'s reserve"),
            Illegal::Occupied(square) => write!(f, "{square} is not empty"),
            Illegal::DropLeavesCheck => f.write_str("drop would leave the king in check"),
            Illegal::PawnRank { first, last } => {
                write!(f, "pawns may be dropped only on ranks {first}-{last}")
            }
            Illegal::DropMates => f.write_str("drop would give mate on board"),
            Illegal::NotRemovable { square, crosswise } => write!(
                f,
                "{square} on board {} holds no knight, bishop, rook or queen of {crosswise}",
                crosswise.board
            ),
            Illegal::RemovalLeavesIllegal { square, board, role } => {
                write!(f, "removing the {role} on {square} would leave board {board} illegal")
            }
            Illegal::MustRemove { crosswise } => {
                write!(f, "a piece of {crosswise} can be removed, so the promotion must remove one")
            }
            Illegal::VanishingLeavesCheck => {
                f.write_str("promotion without removal would leave the king in check")
            }
            Illegal::WrongPiece { square, board, role } => {
                write!(f, "the piece on {square} of board {board} is a {role}")
            }
        }
    }
}

/// What is wrong with a move's text (R7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unreadable {
    /// Neither long notation nor SAN (or something after the move that is not a square).
    NotAMove,
    /// A promotion by removal must name the removed piece's square.
    RemovalSquareMissing,
    /// Only a promotion by removal ends with a square.
    SquareAfterMove,
}

impl std::error::Error for PlayError {}

/// Move text that could not be read or matches no legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveTextError {
    /// Neither long notation nor SAN.
    Syntax {
        /// The rejected text.
        input: String,
        /// What is wrong, as a fact.
        kind: Unreadable,
        /// Why, in English words.
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
            MoveTextError::Syntax { input, reason, .. } => write!(f, "cannot read move {input:?}: {reason}"),
            MoveTextError::Illegal { input, error } => write!(f, "move {input:?} is {error}"),
            MoveTextError::Ambiguous { input } => {
                write!(f, "move {input:?} is ambiguous: name the origin square")
            }
        }
    }
}

impl std::error::Error for MoveTextError {}
