//! Why an input was refused. A refused input changes nothing and is not logged.

use std::fmt;

use bughouse::{BoardId, PlayError, Seat};
use chess_core::{Color, Piece, Square};

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
    ClaimRejected(ClaimFailure),
    /// A2: the take-back cannot be done.
    TakeBackRefused(TakeBackFailure),
    /// A2: the corrected position is not acceptable.
    InvalidPosition(PositionFailure),
}

/// Why a claim does not hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClaimFailure {
    /// E4: the position has occurred `seen` times; `needed` are needed.
    Repetition {
        /// The board.
        board: BoardId,
        /// How often the position has occurred.
        seen: u32,
        /// How often it must.
        needed: u32,
    },
    /// E5: `halfmoves` since the last capture, pawn move or drop; `needed` are needed.
    FiftyMoves {
        /// The board.
        board: BoardId,
        /// Halfmoves so far.
        halfmoves: u32,
        /// Halfmoves needed.
        needed: u32,
    },
    /// K4: flags fall by themselves under `flag = auto`.
    FlagsFallByThemselves,
    /// K4: only a player of the other team may claim this flag.
    OwnTeamFlag(Seat),
    /// K4: this flag has not fallen.
    FlagNotFallen(Seat),
}

impl ClaimFailure {
    /// The rule of the claim.
    pub const fn rule(&self) -> &'static str {
        match self {
            ClaimFailure::Repetition { .. } => "E4",
            ClaimFailure::FiftyMoves { .. } => "E5",
            ClaimFailure::FlagsFallByThemselves
            | ClaimFailure::OwnTeamFlag(_)
            | ClaimFailure::FlagNotFallen(_) => "K4",
        }
    }
}

impl fmt::Display for ClaimFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClaimFailure::Repetition { board, seen, needed } => {
                write!(f, "the position on board {board} has occurred {seen} time(s); {needed} are needed")
            }
            ClaimFailure::FiftyMoves { board, halfmoves, needed } => write!(
                f,
                "{halfmoves} halfmove(s) on board {board} since the last capture, pawn move or drop; {needed} are needed"
            ),
            ClaimFailure::FlagsFallByThemselves => f.write_str("flags fall by themselves under flag = auto"),
            ClaimFailure::OwnTeamFlag(seat) => {
                write!(f, "only a player of the other team may claim {seat}'s flag")
            }
            ClaimFailure::FlagNotFallen(seat) => write!(f, "{seat}'s flag has not fallen"),
        }
    }
}

/// Why the arbiter's take-back cannot be done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TakeBackFailure {
    /// No move on the board to take back.
    NoMove(BoardId),
    /// The board's pieces were changed since by a promotion on the other board or a corrected
    /// position.
    ChangedSince(BoardId),
    /// The piece the move passed to `board` has since been dropped.
    PieceDropped {
        /// The piece.
        piece: Piece,
        /// The board it went to.
        board: BoardId,
    },
    /// The square a removed piece would return to is occupied now.
    SquareOccupied {
        /// The square.
        square: Square,
        /// Its board.
        board: BoardId,
        /// The removed piece.
        piece: Piece,
    },
    /// The position after it would not be legal (the other board's side not to move in check).
    WouldBeIllegal(BoardId),
}

impl fmt::Display for TakeBackFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = |p: &Piece| format!("{} {}", p.color, p.role.name());
        match self {
            TakeBackFailure::NoMove(board) => write!(f, "no move on board {board} to take back"),
            TakeBackFailure::ChangedSince(board) => write!(
                f,
                "the pieces on board {board} have been changed since by a promotion on board {} or a \
                 corrected position; set the corrected position instead",
                board.other()
            ),
            TakeBackFailure::PieceDropped { piece, board } => {
                write!(f, "the {} it passed to board {board} has since been dropped", name(piece))
            }
            TakeBackFailure::SquareOccupied { square, board, piece } => {
                write!(
                    f,
                    "{square} on board {board} is occupied now; the removed {} cannot return",
                    name(piece)
                )
            }
            TakeBackFailure::WouldBeIllegal(board) => {
                write!(f, "the position would be illegal: board {board} would not be a legal position")
            }
        }
    }
}

/// Why the arbiter's corrected position is not acceptable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionFailure {
    /// Not a legal position of the match's rules (the reader's words).
    Unreadable(String),
    /// C2: `color` would own `would` units instead of `was`.
    Units {
        /// The colour.
        color: Color,
        /// Units now.
        was: u32,
        /// Units in the corrected position.
        would: u32,
    },
}

impl fmt::Display for PositionFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionFailure::Unreadable(why) => f.write_str(why),
            PositionFailure::Units { color, was, would } => write!(
                f,
                "{color} would own {would} units instead of {was}: pieces neither appear nor vanish (C2)"
            ),
        }
    }
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
            Rejection::ClaimRejected(c) => c.rule(),
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
            Rejection::ClaimRejected(why) => write!(f, "claim rejected: {why}"),
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
