//! The match's refusals as the wire says them (`ErrorCode::Match`, protocol version 9): the
//! rules crates' typed reasons turned into the protocol's, with the English words kept in
//! `message` for logs and older clients. No client shows those words when it knows the code.

use bughouse::{Illegal, MoveTextError, Unreadable};
use bughouse_match::{ClaimFailure, PositionFailure, Rejection, TakeBackFailure};
use chess_core::{Color, Role, Square as CoreSquare};
use shvedka_proto::{
    ClaimRefusal, Colour, ErrorCode, ErrorMsg, IllegalMove, MatchRefusal, MoveText, PieceKind,
    PositionRefusal, Square, TakeBackRefusal,
};

use crate::service::convert::{seat_id, wire_board as board};

/// A refusal of the match machine.
pub(crate) fn rejection(r: &Rejection) -> ErrorMsg {
    refused(match_refusal(r), r.to_string())
}

/// A move whose text was unreadable, ambiguous or illegal.
pub(crate) fn move_text(e: &MoveTextError, on: bughouse::BoardId) -> ErrorMsg {
    let why = match e {
        MoveTextError::Illegal { error, .. } => {
            MatchRefusal::Illegal { board: board(error.board), why: illegal(&error.why) }
        }
        MoveTextError::Ambiguous { .. } => {
            MatchRefusal::Unreadable { board: board(on), why: MoveText::Ambiguous }
        }
        MoveTextError::Syntax { kind, .. } => MatchRefusal::Unreadable {
            board: board(on),
            why: match kind {
                Unreadable::NotAMove => MoveText::NotAMove,
                Unreadable::RemovalSquareMissing => MoveText::RemovalSquareMissing,
                Unreadable::SquareAfterMove => MoveText::SquareAfterMove,
            },
        },
    };
    refused(why, e.to_string())
}

fn refused(why: MatchRefusal, message: String) -> ErrorMsg {
    ErrorMsg { code: ErrorCode::Match(why), rule: why.rule().map(str::to_owned), message }
}

fn match_refusal(r: &Rejection) -> MatchRefusal {
    match r {
        Rejection::NotSeated => MatchRefusal::NotSeated,
        Rejection::SeatTaken(s) => MatchRefusal::SeatTaken { seat: seat_id(*s) },
        Rejection::AlreadySeated(s) => MatchRefusal::AlreadySeated { seat: seat_id(*s) },
        Rejection::SeatsLocked => MatchRefusal::SeatsLocked,
        Rejection::NotStarted => MatchRefusal::NotStarted,
        Rejection::Paused => MatchRefusal::Paused,
        Rejection::NotPaused => MatchRefusal::NotPaused,
        Rejection::Over => MatchRefusal::Over,
        Rejection::NotYourBoard { seat, board: b } => {
            MatchRefusal::NotYourBoard { seat: seat_id(*seat), board: board(*b) }
        }
        Rejection::NotYourTurn { seat } => MatchRefusal::NotYourTurn { seat: seat_id(*seat) },
        Rejection::Illegal(e) => MatchRefusal::Illegal { board: board(e.board), why: illegal(&e.why) },
        Rejection::FlagFell(s) => MatchRefusal::FlagFell { seat: seat_id(*s) },
        Rejection::AlreadyOffered => MatchRefusal::AlreadyOffered,
        Rejection::NoDrawOffer => MatchRefusal::NoDrawOffer,
        Rejection::ClaimRejected(c) => MatchRefusal::Claim(match *c {
            ClaimFailure::Repetition { board: b, seen, needed } => {
                ClaimRefusal::Repetition { board: board(b), seen, needed }
            }
            ClaimFailure::FiftyMoves { board: b, halfmoves, needed } => {
                ClaimRefusal::FiftyMoves { board: board(b), halfmoves, needed }
            }
            ClaimFailure::FlagsFallByThemselves => ClaimRefusal::FlagsFallByThemselves,
            ClaimFailure::OwnTeamFlag(s) => ClaimRefusal::OwnTeamFlag { seat: seat_id(s) },
            ClaimFailure::FlagNotFallen(s) => ClaimRefusal::FlagNotFallen { seat: seat_id(s) },
        }),
        Rejection::TakeBackRefused(t) => MatchRefusal::TakeBack(match *t {
            TakeBackFailure::NoMove(b) => TakeBackRefusal::NoMove { board: board(b) },
            TakeBackFailure::ChangedSince(b) => TakeBackRefusal::ChangedSince { board: board(b) },
            TakeBackFailure::PieceDropped { piece, board: b } => {
                TakeBackRefusal::PieceDropped { piece: kind(piece.role), board: board(b) }
            }
            TakeBackFailure::SquareOccupied { square: sq, board: b, piece } => {
                TakeBackRefusal::SquareOccupied {
                    square: square(sq),
                    board: board(b),
                    piece: kind(piece.role),
                }
            }
            TakeBackFailure::WouldBeIllegal(b) => TakeBackRefusal::WouldBeIllegal { board: board(b) },
        }),
        Rejection::InvalidPosition(p) => MatchRefusal::Position(match p {
            PositionFailure::Unreadable(_) => PositionRefusal::Unreadable,
            PositionFailure::Units { color, was, would } => {
                PositionRefusal::Units { colour: colour(*color), was: *was, would: *would }
            }
        }),
    }
}

fn illegal(why: &Illegal) -> IllegalMove {
    match *why {
        Illegal::Chess { in_check } => IllegalMove::Chess { in_check },
        Illegal::NotInReserve { seat, role } => {
            IllegalMove::NotInReserve { seat: seat_id(seat), piece: kind(role) }
        }
        Illegal::Occupied(sq) => IllegalMove::Occupied { square: square(sq) },
        Illegal::DropLeavesCheck => IllegalMove::DropLeavesCheck,
        Illegal::PawnRank { first, last } => IllegalMove::PawnRank { first, last },
        Illegal::DropMates => IllegalMove::DropMates,
        Illegal::NotRemovable { square: sq, crosswise } => IllegalMove::NotRemovable {
            square: square(sq),
            board: board(crosswise.board),
            crosswise: seat_id(crosswise),
        },
        Illegal::RemovalLeavesIllegal { square: sq, board: b, role } => {
            IllegalMove::RemovalLeavesIllegal { square: square(sq), board: board(b), piece: kind(role) }
        }
        Illegal::MustRemove { crosswise } => IllegalMove::MustRemove { crosswise: seat_id(crosswise) },
        Illegal::VanishingLeavesCheck => IllegalMove::VanishingLeavesCheck,
        Illegal::WrongPiece { square: sq, board: b, role } => {
            IllegalMove::WrongPiece { square: square(sq), board: board(b), piece: kind(role) }
        }
    }
}

pub(crate) fn square(sq: CoreSquare) -> Square {
    Square(u8::try_from(sq.index()).unwrap_or(u8::MAX))
}

pub(crate) fn kind(role: Role) -> PieceKind {
    match role {
        Role::Pawn => PieceKind::Pawn,
        Role::Knight => PieceKind::Knight,
        Role::Bishop => PieceKind::Bishop,
        Role::Rook => PieceKind::Rook,
        Role::Queen => PieceKind::Queen,
        Role::King => PieceKind::King,
    }
}

pub(crate) fn colour(c: Color) -> Colour {
    match c {
        Color::White => Colour::White,
        Color::Black => Colour::Black,
    }
}
