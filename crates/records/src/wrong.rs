//! What is wrong with a record, as facts: which kind of impossible move ([`ImpossibleKind`]), why a
//! move is impossible ([`Wrong`]), why an impossible
//! move cannot be carried out ([`Stuck`]), what makes a board no legal position ([`Broken`]), why
//! the arbiter decides ([`Undecided`]) and what the check could not read ([`NotRead`]).
//!
//! Readers say these in their own language (the terminal's catalogues); the `Display` impls are
//! the English of the library's own reports and logs. A detail only a parser can give (the text
//! of a syntax error) stays English words inside the fact that carries it.

use std::fmt;

use bughouse::{BoardId, Illegal, Seat};
use chess_core::{CastlingSide, Color, Role, Square};

/// The two kinds of impossible move of RULES.md A1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImpossibleKind {
    /// Illegal in ordinary chess too: the mover's team loses.
    Type1,
    /// Illegal only in this variant: taken back, the other team gains a minute on both clocks.
    Type2,
}

impl ImpossibleKind {
    /// 1 or 2.
    pub const fn number(self) -> u8 {
        match self {
            ImpossibleKind::Type1 => 1,
            ImpossibleKind::Type2 => 2,
        }
    }
}

/// Why a recorded move is impossible (RULES.md A1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Wrong {
    /// Moved out of turn: it is `turn`'s move on `board`.
    OutOfTurn {
        /// The board.
        board: BoardId,
        /// Who was to move there.
        turn: Color,
    },
    /// M4: it captures the `king`'s king on `on`.
    CapturesKing {
        /// The colour of the king taken.
        king: Color,
        /// Its square.
        on: Square,
    },
    /// What the rules themselves refuse, in their own terms (P1–P3, R1–R7, FIDE).
    Rules(Illegal),
    /// P5: castling with a dropped rook, which these rules do not allow.
    DroppedRookCastles,
    /// R1: the promotion takes a new piece where it must remove one of the crosswise player's.
    TakesNewPiece {
        /// The crosswise player.
        crosswise: Seat,
        /// The piece the record names.
        role: Role,
    },
    /// R4: nothing of the crosswise player can be removed, so the pawn leaves the board; it may
    /// not become the piece the record names.
    NothingToRemove {
        /// The crosswise player.
        crosswise: Seat,
        /// The piece the record names.
        role: Role,
    },
    /// R6: these rules promote by upgrade; the record names a piece removed.
    UpgradeRemovesNothing,
    /// Castling ordinary chess refuses here, with the first of its conditions that fails.
    Castling {
        /// The side castled toward.
        side: CastlingSide,
        /// Who castled.
        color: Color,
        /// The condition, if one can be named.
        why: Option<Castling>,
    },
    /// A pawn reaching the last rank must be promoted (`upgrade`).
    MustPromote,
    /// R4: the pawn leaves the board and that leaves the mover's king in check.
    VanishingLeavesCheck {
        /// The mover.
        color: Color,
    },
    /// A1a: the king and a rook of his own exchange squares («нижегородская рокировка»).
    KingRookSwap {
        /// The mover.
        color: Color,
        /// The king's square.
        king: Square,
        /// The rook's square.
        rook: Square,
    },
    /// There is no such piece (on that square, if the record names one).
    NoSuchPiece {
        /// The mover.
        color: Color,
        /// The piece named, `None` for any.
        role: Option<Role>,
        /// The square named, if both file and rank are.
        on: Option<Square>,
    },
    /// No such piece can go there by its way of moving.
    CannotReach {
        /// The mover.
        color: Color,
        /// The piece named, `None` for any.
        role: Option<Role>,
        /// Whether the record writes a capture.
        capture: bool,
        /// The target square.
        to: Square,
    },
    /// Every such move leaves the mover's king in check.
    LeavesCheck {
        /// The mover.
        color: Color,
    },
    /// Not a legal chess move here, for no reason more precise.
    NotLegal,
    /// The move does not read as one move here: no form of a move, or it fits several
    /// (`ambiguous`); the parser's words.
    Unreadable {
        /// Whether it fits several legal moves.
        ambiguous: bool,
        /// The parser's words.
        detail: String,
    },
    /// An act's position (a take-back's or a corrected one) does not read; the parser's words.
    BadPosition(String),
}

/// Why ordinary chess refuses a castling (the king's colour is the [`Wrong::Castling`]'s).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Castling {
    /// The king has moved.
    KingMoved,
    /// No rook may castle that way: it has moved or is gone.
    NoRook,
    /// The king is in check.
    InCheck,
    /// A square in the way is not empty.
    Blocked(Square),
    /// The king would pass or land on a square the other side attacks.
    Attacked(Square),
}

/// Why an impossible move cannot be carried out as it was made, so the record cannot be followed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stuck {
    /// The seat moved out of turn; the moves cannot be put in order.
    OutOfTurn(Seat),
    /// The move does not read as one move.
    NotOneMove,
    /// The drop's square is occupied.
    DropOccupied(Square),
    /// C2: the dropped piece came from outside the game.
    FromOutside(Role),
    /// Chess has no way to make the castling.
    Castling,
    /// C2: a colour would own another number of units.
    Units {
        /// The colour.
        color: Color,
        /// Its units before.
        was: u32,
        /// Its units after.
        is: u32,
    },
    /// Nothing stands on the square the move starts from.
    NothingOn(Square),
    /// The target holds a piece of the mover's own.
    OwnPiece {
        /// The target.
        to: Square,
        /// The mover.
        color: Color,
    },
    /// M4: a king was captured.
    KingCaptured {
        /// The king's colour.
        king: Color,
        /// Its square.
        on: Square,
    },
    /// Nothing stands on the removal square of the other board.
    NothingToTake {
        /// The square.
        square: Square,
        /// Its board.
        board: BoardId,
    },
    /// The removal names a king.
    KingRemoved {
        /// The square.
        square: Square,
        /// Its board.
        board: BoardId,
    },
    /// The removal names a piece that is not the crosswise player's.
    NotCrosswises {
        /// The square.
        square: Square,
        /// Its board.
        board: BoardId,
        /// The crosswise player.
        crosswise: Seat,
    },
    /// The piece the record names is not on the board.
    PieceNotThere,
    /// Which piece moved cannot be told from the record.
    WhichPiece,
}

/// What makes a board no legal position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Broken {
    /// A side has not exactly one king.
    Kings {
        /// The side.
        color: Color,
        /// How many it has.
        count: usize,
    },
    /// A pawn stands on a first or last rank.
    PawnOnEdge(Square),
    /// The side not to move is in check.
    WaitingInCheck {
        /// The side in check.
        waiting: Color,
    },
}

/// Where the check of a record ended with a board still illegal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckEnd {
    /// At a move that cannot be carried out (its label).
    Stuck(String),
    /// At a move that cannot be read (its label).
    Unreadable(String),
    /// At the record's end.
    RecordEnds,
}

/// Why the arbiter decides an impossible move noticed later (A1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Undecided {
    /// The move cannot be carried out; the record is not checked further.
    Stuck(Stuck),
    /// A board it left illegal is still no legal position where the check ends.
    StillIllegal {
        /// The board.
        board: BoardId,
        /// What is wrong with it.
        now: Broken,
        /// Where the check ended.
        end: CheckEnd,
    },
}

/// What the check could not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotRead {
    /// The start position (the `BFEN` tag).
    Start,
    /// An act cannot be applied.
    Act {
        /// The index of the move it follows (`None`: before the first move).
        after: Option<usize>,
        /// Why.
        why: Wrong,
    },
    /// The move at this index: `ambiguous` if it fits several moves, else no form of a move.
    Move {
        /// The move's index.
        index: usize,
        /// Whether it fits several legal moves.
        ambiguous: bool,
    },
}

impl fmt::Display for Wrong {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Wrong::OutOfTurn { board, turn } => {
                write!(f, "moved out of turn: it is {turn}'s move on board {board}")
            }
            Wrong::CapturesKing { king, on } => {
                write!(f, "it captures the {king} king on {on}: a king is never captured")
            }
            Wrong::Rules(why) => write!(f, "{why}"),
            Wrong::DroppedRookCastles => {
                f.write_str("castling with a dropped rook is not allowed under these rules")
            }
            Wrong::TakesNewPiece { crosswise, role } => write!(
                f,
                "a promotion removes a piece of {crosswise} from board {}; it may not take a new {role}",
                crosswise.board
            ),
            Wrong::NothingToRemove { crosswise, role } => write!(
                f,
                "no piece of {crosswise} can be removed, so the pawn leaves the board; it may not become a {role}"
            ),
            Wrong::UpgradeRemovesNothing => {
                f.write_str("these rules promote by upgrade; nothing is removed from the other board")
            }
            Wrong::Castling { side, color, why } => {
                f.write_str("castling is not possible here")?;
                match why {
                    None => Ok(()),
                    Some(Castling::KingMoved) => write!(f, ": the {color} king has moved"),
                    Some(Castling::NoRook) => {
                        let written = match side {
                            CastlingSide::KingSide => "O-O",
                            CastlingSide::QueenSide => "O-O-O",
                        };
                        write!(f, ": no {color} rook may castle {written}: it has moved or is gone")
                    }
                    Some(Castling::InCheck) => write!(f, ": the {color} king is in check"),
                    Some(Castling::Blocked(sq)) => write!(f, ": {sq} is not empty"),
                    Some(Castling::Attacked(sq)) => {
                        write!(f, ": the king would pass or land on {sq}, which {} attacks", !*color)
                    }
                }
            }
            Wrong::MustPromote => f.write_str("a pawn reaching the last rank must be promoted"),
            Wrong::VanishingLeavesCheck { color } => {
                write!(f, "the pawn leaves the board (R4) and that leaves the {color} king in check")
            }
            Wrong::KingRookSwap { color, king, rook } => write!(
                f,
                "the {color} king on {king} and rook on {rook} exchange squares («нижегородская рокировка»), which chess never allows"
            ),
            Wrong::NoSuchPiece { color, role, on } => {
                write!(f, "there is no {}", what(*color, *role))?;
                on.map_or(Ok(()), |sq| write!(f, " on {sq}"))
            }
            Wrong::CannotReach { color, role, capture, to } => {
                let verb = if *capture { "capture on" } else { "move to" };
                write!(f, "no {} can {verb} {to}", what(*color, *role))
            }
            Wrong::LeavesCheck { color } => write!(f, "it leaves the {color} king in check"),
            Wrong::NotLegal => f.write_str("not a legal chess move here"),
            Wrong::Unreadable { detail, .. } => f.write_str(detail),
            Wrong::BadPosition(detail) => write!(f, "its position: {detail}"),
        }
    }
}

fn what(color: Color, role: Option<Role>) -> String {
    match role {
        Some(role) => format!("{color} {role}"),
        None => format!("{color} piece"),
    }
}

impl fmt::Display for Stuck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Stuck::OutOfTurn(seat) => write!(f, "{seat} moved out of turn; the moves cannot be put in order"),
            Stuck::NotOneMove => f.write_str("the move does not read as one move"),
            Stuck::DropOccupied(sq) => write!(f, "{sq} is occupied: the drop cannot be carried out"),
            Stuck::FromOutside(role) => write!(f, "the {role} came from outside the game (C2)"),
            Stuck::Castling => f.write_str("the castling cannot be carried out"),
            Stuck::Units { color, was, is } => {
                write!(f, "{color} would own {is} units instead of {was} (C2)")
            }
            Stuck::NothingOn(sq) => write!(f, "nothing stands on {sq}"),
            Stuck::OwnPiece { to, color } => write!(f, "{to} holds a {color} piece"),
            Stuck::KingCaptured { king, on } => write!(f, "the {king} king on {on} was captured (M4)"),
            Stuck::NothingToTake { square, board } => {
                write!(f, "nothing stands on {square} of board {board}")
            }
            Stuck::KingRemoved { square, board } => {
                write!(f, "the king on {square} of board {board} cannot leave it")
            }
            Stuck::NotCrosswises { square, board, crosswise } => {
                write!(f, "the piece on {square} of board {board} is not {crosswise}'s")
            }
            Stuck::PieceNotThere => f.write_str("the piece the record names is not on the board"),
            Stuck::WhichPiece => f.write_str("which piece moved cannot be told from the record"),
        }
    }
}

impl fmt::Display for Broken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Broken::Kings { color, count } => write!(f, "{count} {color} kings on the board"),
            Broken::PawnOnEdge(sq) => write!(f, "a pawn stands on {sq}"),
            Broken::WaitingInCheck { waiting } => {
                write!(f, "the {waiting} king is in check with {} to move", !waiting)
            }
        }
    }
}

impl fmt::Display for Undecided {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Undecided::Stuck(stuck) => write!(f, "{stuck}, and the record is not checked further"),
            Undecided::StillIllegal { board, now, end: CheckEnd::Stuck(label) } => write!(
                f,
                "board {board} is still no legal position at {label}, past which the record cannot be followed: {now}"
            ),
            Undecided::StillIllegal { board, now, end: CheckEnd::Unreadable(label) } => {
                write!(f, "board {board} is still no legal position at {label}, which cannot be read: {now}")
            }
            Undecided::StillIllegal { board, now, end: CheckEnd::RecordEnds } => {
                write!(f, "board {board} is still no legal position when the record ends: {now}")
            }
        }
    }
}
