//! What is wrong with a record, in the reader's language: the records crate's facts
//! ([`Wrong`], [`Stuck`], [`Broken`], [`Undecided`], [`NotRead`]) said from the catalogues, for
//! `shvedka arbiter check-record` and `show`. A colour is passed as a code (`white`, `black`) so
//! each language declines it as its grammar needs.

use bughouse::{Illegal, Seat};
use chess_core::{CastlingSide, Color, Role, Square};
use shvedka_proto::{IllegalMove, PieceKind};
use shvedka_records::{Broken, Castling, CheckEnd, NotRead, Record, Stuck, Undecided, Wrong};

use crate::explain::speak_seat;
use crate::i18n::{Lang, t};
use crate::speak;

fn side(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

fn sq(s: Square) -> String {
    s.to_string()
}

fn seat_of(lang: Lang, s: Seat) -> String {
    speak::seat_of(lang, speak_seat(s))
}

fn kind(role: Role) -> PieceKind {
    match role {
        Role::Pawn => PieceKind::Pawn,
        Role::Knight => PieceKind::Knight,
        Role::Bishop => PieceKind::Bishop,
        Role::Rook => PieceKind::Rook,
        Role::Queen => PieceKind::Queen,
        Role::King => PieceKind::King,
    }
}

/// A piece named by the record, or any piece (`piece` / «фигуры»), in the genitive.
fn piece_of(lang: Lang, role: Option<Role>) -> String {
    match role {
        Some(r) => speak::piece_of(lang, kind(r)),
        None => t!(lang, "wrong-any-piece"),
    }
}

/// The rules' own refusal, as a player is told it.
fn rules(lang: Lang, why: Illegal) -> String {
    let seat = speak_seat;
    let wire = match why {
        Illegal::Chess { in_check } => IllegalMove::Chess { in_check },
        Illegal::NotInReserve { seat: s, role } => {
            IllegalMove::NotInReserve { seat: seat(s), piece: kind(role) }
        }
        Illegal::Occupied(square) => IllegalMove::Occupied { square: wire_square(square) },
        Illegal::DropLeavesCheck => IllegalMove::DropLeavesCheck,
        Illegal::PawnRank { first, last } => IllegalMove::PawnRank { first, last },
        Illegal::DropMates => IllegalMove::DropMates,
        Illegal::NotRemovable { square, crosswise } => IllegalMove::NotRemovable {
            square: wire_square(square),
            board: wire_board(crosswise.board),
            crosswise: seat(crosswise),
        },
        Illegal::RemovalLeavesIllegal { square, board, role } => IllegalMove::RemovalLeavesIllegal {
            square: wire_square(square),
            board: wire_board(board),
            piece: kind(role),
        },
        Illegal::MustRemove { crosswise } => IllegalMove::MustRemove { crosswise: seat(crosswise) },
        Illegal::VanishingLeavesCheck => IllegalMove::VanishingLeavesCheck,
        Illegal::WrongPiece { square, board, role } => IllegalMove::WrongPiece {
            square: wire_square(square),
            board: wire_board(board),
            piece: kind(role),
        },
    };
    speak::illegal_move(lang, wire)
}

fn wire_square(s: Square) -> shvedka_proto::Square {
    shvedka_proto::Square(u8::try_from(s.index()).unwrap_or(u8::MAX))
}

fn wire_board(b: bughouse::BoardId) -> shvedka_proto::Board {
    match b {
        bughouse::BoardId::A => shvedka_proto::Board::A,
        bughouse::BoardId::B => shvedka_proto::Board::B,
    }
}

/// Why a move is impossible.
pub fn wrong(lang: Lang, why: &Wrong) -> String {
    match why {
        Wrong::OutOfTurn { board, turn } => {
            t!(lang, "wrong-out-of-turn", board = board.to_string(), side = side(*turn))
        }
        Wrong::CapturesKing { king, on } => {
            t!(lang, "wrong-captures-king", side = side(*king), square = sq(*on))
        }
        Wrong::Rules(illegal) => rules(lang, *illegal),
        Wrong::DroppedRookCastles => t!(lang, "wrong-dropped-rook-castles"),
        Wrong::TakesNewPiece { crosswise, role } => t!(
            lang,
            "wrong-takes-new-piece",
            crosswise_of = seat_of(lang, *crosswise),
            board = crosswise.board.to_string(),
            piece = speak::piece(lang, *role)
        ),
        Wrong::NothingToRemove { crosswise, role } => t!(
            lang,
            "wrong-nothing-to-remove",
            crosswise_of = seat_of(lang, *crosswise),
            piece = speak::piece(lang, *role)
        ),
        Wrong::UpgradeRemovesNothing => t!(lang, "wrong-upgrade-removes-nothing"),
        Wrong::Castling { side: castled, color, why } => match why {
            None => t!(lang, "wrong-castling"),
            Some(why) => t!(lang, "wrong-castling-why", why = castling(lang, *castled, *color, *why)),
        },
        Wrong::MustPromote => t!(lang, "wrong-must-promote"),
        Wrong::VanishingLeavesCheck { color } => {
            t!(lang, "wrong-vanishing-leaves-check", side = side(*color))
        }
        Wrong::KingRookSwap { color, king, rook } => {
            t!(lang, "wrong-king-rook-swap", side = side(*color), king = sq(*king), rook = sq(*rook))
        }
        Wrong::NoSuchPiece { color, role, on: None } => {
            t!(lang, "wrong-no-such-piece", side = side(*color), piece_of = piece_of(lang, *role))
        }
        Wrong::NoSuchPiece { color, role, on: Some(on) } => t!(
            lang,
            "wrong-no-such-piece-on",
            side = side(*color),
            piece_of = piece_of(lang, *role),
            square = sq(*on)
        ),
        Wrong::CannotReach { color, role, capture, to } => {
            let capture = if *capture { "yes" } else { "no" };
            match role {
                Some(r) => t!(
                    lang,
                    "wrong-cannot-reach",
                    side = side(*color),
                    piece = speak::piece(lang, *r),
                    capture = capture,
                    square = sq(*to)
                ),
                None => t!(
                    lang,
                    "wrong-cannot-reach-any",
                    side = side(*color),
                    capture = capture,
                    square = sq(*to)
                ),
            }
        }
        Wrong::LeavesCheck { color } => t!(lang, "wrong-leaves-check", side = side(*color)),
        Wrong::NotLegal => t!(lang, "rule-FIDE"),
        Wrong::Unreadable { ambiguous: true, .. } => t!(lang, "wrong-ambiguous"),
        Wrong::Unreadable { ambiguous: false, .. } => t!(lang, "wrong-unreadable"),
        Wrong::BadPosition(_) => t!(lang, "wrong-bad-position"),
    }
}

fn castling(lang: Lang, castled: CastlingSide, color: Color, why: Castling) -> String {
    match why {
        Castling::KingMoved => t!(lang, "castling-king-moved", side = side(color)),
        Castling::NoRook => {
            let written = match castled {
                CastlingSide::KingSide => "O-O",
                CastlingSide::QueenSide => "O-O-O",
            };
            t!(lang, "castling-no-rook", side = side(color), written = written)
        }
        Castling::InCheck => t!(lang, "castling-in-check", side = side(color)),
        Castling::Blocked(s) => t!(lang, "castling-blocked", square = sq(s)),
        Castling::Attacked(s) => t!(lang, "castling-attacked", square = sq(s), side = side(!color)),
    }
}

/// Why an impossible move cannot be carried out.
pub fn stuck(lang: Lang, why: Stuck) -> String {
    match why {
        Stuck::OutOfTurn(seat) => t!(lang, "stuck-out-of-turn", seat = speak::seat(lang, speak_seat(seat))),
        Stuck::NotOneMove => t!(lang, "wrong-unreadable"),
        Stuck::DropOccupied(s) => t!(lang, "stuck-drop-occupied", square = sq(s)),
        Stuck::FromOutside(role) => t!(lang, "stuck-from-outside", piece = speak::piece(lang, role)),
        Stuck::Castling => t!(lang, "stuck-castling"),
        Stuck::Units { color, was, is } => t!(lang, "stuck-units", side = side(color), was = was, is = is),
        Stuck::NothingOn(s) => t!(lang, "stuck-nothing-on", square = sq(s)),
        Stuck::OwnPiece { to, color } => t!(lang, "stuck-own-piece", square = sq(to), side = side(color)),
        Stuck::KingCaptured { king, on } => {
            t!(lang, "stuck-king-captured", side = side(king), square = sq(on))
        }
        Stuck::NothingToTake { square, board } => {
            t!(lang, "stuck-nothing-to-take", square = sq(square), board = board.to_string())
        }
        Stuck::KingRemoved { square, board } => {
            t!(lang, "stuck-king-removed", square = sq(square), board = board.to_string())
        }
        Stuck::NotCrosswises { square, board, crosswise } => t!(
            lang,
            "stuck-not-crosswises",
            square = sq(square),
            board = board.to_string(),
            crosswise_of = seat_of(lang, crosswise)
        ),
        Stuck::PieceNotThere => t!(lang, "stuck-piece-not-there"),
        Stuck::WhichPiece => t!(lang, "stuck-which-piece"),
    }
}

/// What makes a board no legal position.
pub fn broken(lang: Lang, why: Broken) -> String {
    match why {
        Broken::Kings { color, count } => t!(lang, "broken-kings", side = side(color), count = count),
        Broken::PawnOnEdge(s) => t!(lang, "broken-pawn-on-edge", square = sq(s)),
        Broken::WaitingInCheck { waiting } => {
            t!(lang, "broken-waiting-in-check", side = side(waiting), mover = side(!waiting))
        }
    }
}

/// Why the arbiter decides.
pub fn undecided(lang: Lang, why: &Undecided) -> String {
    match why {
        Undecided::Stuck(s) => t!(lang, "undecided-stuck", why = stuck(lang, *s)),
        Undecided::StillIllegal { board, now, end } => {
            let (board, now) = (board.to_string(), broken(lang, *now));
            match end {
                CheckEnd::Stuck(label) => {
                    t!(lang, "undecided-at-stuck", board = board, label = label.as_str(), now = now)
                }
                CheckEnd::Unreadable(label) => {
                    t!(lang, "undecided-at-unreadable", board = board, label = label.as_str(), now = now)
                }
                CheckEnd::RecordEnds => t!(lang, "undecided-at-end", board = board, now = now),
            }
        }
    }
}

/// What the check could not read: its place and why.
pub fn not_read(lang: Lang, record: &Record, what: &NotRead) -> (String, String) {
    let label = |i: usize| record.moves.get(i).map(|m| m.label()).unwrap_or_default();
    match what {
        NotRead::Start => (t!(lang, "check-label-start"), t!(lang, "notread-start")),
        NotRead::Act { after: Some(i), why } => {
            (t!(lang, "check-label-act", label = label(*i)), wrong(lang, why))
        }
        NotRead::Act { after: None, why } => (t!(lang, "check-label-act-start"), wrong(lang, why)),
        NotRead::Move { index, ambiguous } => (
            label(*index),
            if *ambiguous { t!(lang, "wrong-ambiguous") } else { t!(lang, "wrong-unreadable") },
        ),
    }
}
