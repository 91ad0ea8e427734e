//! Why the server refused something, as facts (version 9): a code, its parameters and the rule
//! it rests on, for a client to say in its reader's language. A client never shows the English
//! `ErrorMsg::message` when it knows the code; the message stays for logs and older clients.
//!
//! Squares, pieces and colours are small values (a square is its index, `a1` 0 to `h8` 63):
//! identifiers, not prose.

use serde::{Deserialize, Serialize};

use crate::{Board, SeatId};

/// A square of a board: `a1` is 0, `b1` 1, … `h8` 63.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Square(pub u8);

impl std::fmt::Display for Square {
    /// As chess writes it: `e4`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (file, rank) = (self.0 % 8, self.0 / 8);
        write!(f, "{}{}", char::from(b'a' + file), rank + 1)
    }
}

/// A kind of chess piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PieceKind {
    /// A pawn.
    Pawn,
    /// A knight.
    Knight,
    /// A bishop.
    Bishop,
    /// A rook.
    Rook,
    /// A queen.
    Queen,
    /// A king.
    King,
}

/// A side of the chessboard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Colour {
    /// White.
    White,
    /// Black.
    Black,
}

/// Why a match refused a request (`ErrorCode::Match`). [`MatchRefusal::rule`] names the rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MatchRefusal {
    /// The session holds no seat in this match.
    NotSeated,
    /// S1: someone else sits there.
    SeatTaken {
        /// The seat.
        seat: SeatId,
    },
    /// S1: the session sits there already.
    AlreadySeated {
        /// The seat.
        seat: SeatId,
    },
    /// S1: seats are fixed once all four are ready.
    SeatsLocked,
    /// The match has not started.
    NotStarted,
    /// K5: the clocks are stopped for the arbiter.
    Paused,
    /// K5: nothing is paused.
    NotPaused,
    /// The match has ended or was annulled.
    Over,
    /// The session's seat is on the other board.
    NotYourBoard {
        /// The session's seat.
        seat: SeatId,
        /// The board of the request.
        board: Board,
    },
    /// K1: the other side is to move on that board.
    NotYourTurn {
        /// The session's seat.
        seat: SeatId,
    },
    /// K4: the player's time ran out, lag credit included.
    FlagFell {
        /// Whose.
        seat: SeatId,
    },
    /// E3: the player's draw offer stands already.
    AlreadyOffered,
    /// E3: there is no draw offer to decline.
    NoDrawOffer,
    /// The rules forbid the move.
    Illegal {
        /// The board it was tried on.
        board: Board,
        /// Why, with the rule.
        why: IllegalMove,
    },
    /// R7: the move's text could not be read as one move.
    Unreadable {
        /// The board it was meant for.
        board: Board,
        /// What is wrong with it.
        why: MoveText,
    },
    /// A claim that does not hold.
    Claim(ClaimRefusal),
    /// A2: the arbiter's take-back cannot be done.
    TakeBack(TakeBackRefusal),
    /// A2: the arbiter's corrected position is not acceptable.
    Position(PositionRefusal),
    /// K5: this server has no arbiter to call; the clocks keep running.
    NoArbiter,
}

impl MatchRefusal {
    /// The rule id (RULES.md) the refusal enforces, if any.
    pub fn rule(&self) -> Option<&'static str> {
        Some(match self {
            MatchRefusal::SeatTaken { .. }
            | MatchRefusal::AlreadySeated { .. }
            | MatchRefusal::SeatsLocked => "S1",
            MatchRefusal::Paused | MatchRefusal::NotPaused | MatchRefusal::NoArbiter => "K5",
            MatchRefusal::NotYourTurn { .. } => "K1",
            MatchRefusal::FlagFell { .. } => "K4",
            MatchRefusal::AlreadyOffered | MatchRefusal::NoDrawOffer => "E3",
            MatchRefusal::Illegal { why, .. } => why.rule(),
            MatchRefusal::Unreadable { .. } => "R7",
            MatchRefusal::Claim(c) => c.rule(),
            MatchRefusal::TakeBack(_) | MatchRefusal::Position(_) => "A2",
            MatchRefusal::NotSeated
            | MatchRefusal::NotStarted
            | MatchRefusal::Over
            | MatchRefusal::NotYourBoard { .. } => return None,
        })
    }
}

/// Why a move is illegal, with what the player needs to see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum IllegalMove {
    /// FIDE: not a legal chess move here (`in_check`: the mover is in check, which is usually
    /// why).
    Chess {
        /// The side to move is in check.
        in_check: bool,
    },
    /// P1: the reserve holds no such piece.
    NotInReserve {
        /// Whose reserve.
        seat: SeatId,
        /// The piece.
        piece: PieceKind,
    },
    /// P1: a drop on a square that is not empty.
    Occupied {
        /// The square.
        square: Square,
    },
    /// P1: the drop would leave the mover's king in check.
    DropLeavesCheck,
    /// P2: pawns are dropped only on these ranks, counted from the dropping side.
    PawnRank {
        /// The lowest rank.
        first: u8,
        /// The highest rank.
        last: u8,
    },
    /// P3: the drop would give mate on board.
    DropMates,
    /// R1: the removal square holds no knight, bishop, rook or queen of the crosswise player.
    NotRemovable {
        /// The square named.
        square: Square,
        /// Its board (the other one).
        board: Board,
        /// The crosswise player.
        crosswise: SeatId,
    },
    /// R3: removing that piece would leave the other board illegal.
    RemovalLeavesIllegal {
        /// The square.
        square: Square,
        /// Its board.
        board: Board,
        /// The piece there.
        piece: PieceKind,
    },
    /// R4: a piece of the crosswise player can be removed, so the promotion must remove one.
    MustRemove {
        /// The crosswise player.
        crosswise: SeatId,
    },
    /// R4: the pawn would leave the board and uncover the mover's king.
    VanishingLeavesCheck,
    /// R7: the promotion names another piece than the one on the removal square.
    WrongPiece {
        /// The square.
        square: Square,
        /// Its board.
        board: Board,
        /// The piece that is there.
        piece: PieceKind,
    },
}

impl IllegalMove {
    /// The rule id it breaks (`FIDE` for the ordinary laws of chess).
    pub fn rule(&self) -> &'static str {
        match self {
            IllegalMove::Chess { .. } => "FIDE",
            IllegalMove::NotInReserve { .. }
            | IllegalMove::Occupied { .. }
            | IllegalMove::DropLeavesCheck => "P1",
            IllegalMove::PawnRank { .. } => "P2",
            IllegalMove::DropMates => "P3",
            IllegalMove::NotRemovable { .. } => "R1",
            IllegalMove::RemovalLeavesIllegal { .. } => "R3",
            IllegalMove::MustRemove { .. } | IllegalMove::VanishingLeavesCheck => "R4",
            IllegalMove::WrongPiece { .. } => "R7",
        }
    }
}

/// What is wrong with a move's text (R7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MoveText {
    /// Neither long notation nor SAN.
    NotAMove,
    /// A promotion by removal must name the removed piece's square (`e7e8qd1`, `e8=Qd1`).
    RemovalSquareMissing,
    /// Only a promotion by removal ends with a square.
    SquareAfterMove,
    /// The SAN fits several legal moves: name the origin square.
    Ambiguous,
}

/// Why a claim does not hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ClaimRefusal {
    /// E4: the position has not occurred often enough.
    Repetition {
        /// The board.
        board: Board,
        /// How often it has occurred.
        seen: u32,
        /// How often it must.
        needed: u32,
    },
    /// E5: not enough moves without a capture, a pawn move or a drop.
    FiftyMoves {
        /// The board.
        board: Board,
        /// Halfmoves so far.
        halfmoves: u32,
        /// Halfmoves needed.
        needed: u32,
    },
    /// K4: flags fall by themselves in this match (`flag = auto`).
    FlagsFallByThemselves,
    /// K4: only a player of the other team may claim this flag.
    OwnTeamFlag {
        /// The flag claimed.
        seat: SeatId,
    },
    /// K4: this flag has not fallen.
    FlagNotFallen {
        /// The flag claimed.
        seat: SeatId,
    },
}

impl ClaimRefusal {
    /// The rule id of the claim.
    pub fn rule(&self) -> &'static str {
        match self {
            ClaimRefusal::Repetition { .. } => "E4",
            ClaimRefusal::FiftyMoves { .. } => "E5",
            ClaimRefusal::FlagsFallByThemselves
            | ClaimRefusal::OwnTeamFlag { .. }
            | ClaimRefusal::FlagNotFallen { .. } => "K4",
        }
    }
}

/// Why the arbiter's take-back cannot be done (A2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TakeBackRefusal {
    /// No move on that board to take back.
    NoMove {
        /// The board.
        board: Board,
    },
    /// The pieces of the board were changed since by a promotion on the other board or a
    /// corrected position: set the corrected position instead.
    ChangedSince {
        /// The board.
        board: Board,
    },
    /// The piece the move passed to the other board has been dropped since.
    PieceDropped {
        /// The piece.
        piece: PieceKind,
        /// The board it went to.
        board: Board,
    },
    /// The square a removed piece would return to is occupied now.
    SquareOccupied {
        /// The square.
        square: Square,
        /// Its board.
        board: Board,
        /// The removed piece.
        piece: PieceKind,
    },
    /// The position after it would not be legal on this board (its side not to move in check).
    WouldBeIllegal {
        /// The board.
        board: Board,
    },
}

/// Why the arbiter's corrected position is not acceptable (A2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PositionRefusal {
    /// The BFEN is not a legal position of this match's rules.
    Unreadable,
    /// C2: a colour would own another number of units (pieces on both boards and reserves).
    Units {
        /// The colour.
        colour: Colour,
        /// Units it owns now.
        was: u32,
        /// Units it would own.
        would: u32,
    },
}

/// A request whose content a person typed is not acceptable (`ErrorCode::Invalid`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Invalid {
    /// The time control is not one this server reads (`3+2`, `blitz`).
    TimeControl,
    /// No rule preset has this name.
    RulePreset,
    /// A bot level is from `min` to `max`.
    BotLevel {
        /// The lowest level.
        min: u8,
        /// The highest level.
        max: u8,
    },
    /// A partner must be another player.
    SamePartner,
    /// An account name has `min` to `max` ASCII letters, digits, `_` or `-`, starts with a
    /// letter, and does not start with `guest-`.
    AccountName {
        /// The fewest characters.
        min: u32,
        /// The most characters.
        max: u32,
    },
    /// A password has `min` to `max` characters.
    Password {
        /// The fewest characters.
        min: u32,
        /// The most characters.
        max: u32,
    },
    /// A guest's name has at most `max` characters and none that hide or reorder text.
    GuestName {
        /// The most characters.
        max: u32,
    },
    /// A chat message has text and no control, bidirectional or invisible characters.
    ChatText,
    /// A reason or note has at most `max` characters.
    NoteLength {
        /// The most characters.
        max: u32,
    },
    /// No rating category has this name.
    RatingCategory,
    /// A session says it is a bot before it follows a match.
    BotTooLate,
    /// A position that does not read as BFEN, or is no legal bughouse position (version 10).
    Position,
    /// A text that is not a BPGN record, or has no game of the number asked (version 10).
    Record,
    /// A text that stops reading as BPGN at this place (version 12).
    RecordAt {
        /// The line, from 1.
        line: u32,
        /// The column in characters, from 1.
        column: u32,
    },
    /// A text that has not the game asked for: it has `games` (version 12).
    NoSuchGame {
        /// How many games the text has.
        games: u32,
    },
}

/// Why a session was not opened (`ServerMsg::SessionRefused`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SessionRefusal {
    /// The first message must be `Hello`.
    NotHello,
    /// The resume token is unknown: start a new session.
    UnknownToken,
    /// The session went unused for `days` days (`session_expiry_s`): start a new session.
    Expired {
        /// The server's expiry, in days.
        days: u32,
    },
    /// The session was logged out: log in again.
    LoggedOut,
    /// The session's account is disabled.
    AccountDisabled,
    /// The guest's name is registered: log in, or take another name.
    NameRegistered,
    /// Too many guest sessions from this address (`guest_sessions_per_address_per_hour`):
    /// resume yours, log in, or try later.
    TooManyGuests,
    /// The connection was lost while the session opened.
    ConnectionLost,
}

/// A request the state of things refuses, outside a match's own rules (`ErrorCode::Busy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Busy {
    /// The match has started: its seats are taken (bots fill only a forming match).
    Started,
    /// The session sits in a match in play: finish it (or leave the seat) before seeking another.
    Playing,
    /// A player of this seek is seeking a game already: cancel that seek first.
    AlreadySeeking,
    /// The partner asked for is seeking a game already.
    PartnerSeeking,
    /// The match is not over: no rematch yet.
    NotOver,
    /// The rematch was declined.
    RematchDeclined,
    /// The match's seats are reserved for named players (version 15: a tournament game, a
    /// match a seek drew): no bot takes one.
    Reserved,
}

/// An official's role, as a refusal names it (`OfficialRefusal`, version 16).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum OfficialRole {
    /// Pauses, corrects, adjudicates and annuls matches (RULES.md A2, A4).
    Arbiter,
    /// Runs tournaments.
    Director,
}

/// Why a request that needs an official was refused (`ErrorCode::Official`, version 16; older
/// servers send `Forbidden` with words).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum OfficialRefusal {
    /// The request needs the role: log in as an account that has it, or present the role's
    /// secret.
    Needed {
        /// The role needed.
        role: OfficialRole,
    },
    /// The secret presented is not the role's, or the server has none for it (it counts as a
    /// failed log-in of the address).
    WrongSecret {
        /// The role asked for.
        role: OfficialRole,
    },
    /// A cluster's nodes hold different secrets: the node the session is connected to accepted
    /// its secret, but the node running the match is configured with another (or none). Every
    /// node needs the same one; meanwhile an account with the role is served.
    SecretDiffers {
        /// The role asked for.
        role: OfficialRole,
    },
}
