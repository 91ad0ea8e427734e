//! Judging one recorded move: legal, impossible of type 1 or 2 (RULES.md A1), or unreadable.
//!
//! A move is first held against *ordinary chess* — the chess core's rules on the board as it
//! stands, with the variant's filters lifted: any piece may be dropped (as if held, pawns on any
//! rank, mate allowed), a pawn reaching the last rank counts as promoting, and a rook dropped on
//! its corner keeps the castling right P5 would give it. A move that fails there is of type 1. A
//! move that passes there but that the variant refuses is of type 2, with the rule the bughouse
//! rules name. One move chess refuses is type 2 all the same: the king and a rook of his own
//! changing places, the «нижегородская рокировка» MGIMO lists among the type 2 moves (A1a), since
//! it is no chess move in any position; every castling chess has but forbids here stays type 1,
//! with the condition it breaks named. The table is in [`crate::check`].

use bughouse::{BoardId, BughouseMove, Game, Illegal, MoveTextError, Promotion, RuleId, Seat};
use chess_core::attacks::{attacks, between, king_attacks, pawn_attacks};
use chess_core::{
    Bitboard, Board, CastlingSide, Color, File, Move, Position, Rank, Role, San, Square, UciMove,
};

use crate::act::RecordMove;
use crate::notation::after_chars;
use crate::wrong::{Castling, ImpossibleKind, Wrong};

/// What a recorded move is.
pub(crate) enum Verdict {
    /// Legal: play it.
    Legal(BughouseMove),
    /// An impossible move.
    Impossible { kind: ImpossibleKind, rule: String, why: Wrong },
    /// Not readable as one move: no form of a move, or `ambiguous` (the parser's words).
    Unreadable { ambiguous: bool, detail: String },
}

fn type1(rule: &str, why: Wrong) -> Verdict {
    Verdict::Impossible { kind: ImpossibleKind::Type1, rule: rule.to_owned(), why }
}

fn type2(rule: &str, why: Wrong) -> Verdict {
    Verdict::Impossible { kind: ImpossibleKind::Type2, rule: rule.to_owned(), why }
}

fn unreadable(error: &MoveTextError) -> Verdict {
    Verdict::Unreadable {
        ambiguous: matches!(error, MoveTextError::Ambiguous { .. }),
        detail: error.to_string(),
    }
}

/// A move as written, read without deciding legality.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Written {
    Drop {
        role: Role,
        to: Square,
    },
    Castle(CastlingSide),
    Board {
        /// The moving role; `None` in long notation (it is whatever stands on the origin).
        role: Option<Role>,
        file: Option<File>,
        rank: Option<Rank>,
        capture: bool,
        to: Square,
        promotion: Option<Role>,
        /// The removed piece's square (R7), if written.
        removal: Option<Square>,
    },
}

/// The square after a move, up to annotation marks; `Err` if something else follows.
fn tail(rest: &str) -> Result<Option<Square>, ()> {
    let rest = rest.trim_end_matches(['+', '#', '!', '?']);
    if rest.is_empty() { Ok(None) } else { rest.parse().map(Some).map_err(|_| ()) }
}

pub(crate) fn read(text: &str) -> Option<Written> {
    if let Ok((uci, used)) = UciMove::parse_prefix(text)
        && let Ok(removal) = tail(after_chars(text, used))
    {
        return Some(match uci {
            UciMove::Drop { role, to } => Written::Drop { role, to },
            UciMove::Normal { from, to, promotion } => Written::Board {
                role: None,
                file: Some(from.file()),
                rank: Some(from.rank()),
                capture: false,
                to,
                promotion,
                removal,
            },
        });
    }
    let (san, used) = San::parse_prefix(text).ok()?;
    let removal = tail(after_chars(text, used)).ok()?;
    Some(match san {
        San::Drop { role, to } => Written::Drop { role, to },
        San::Castle(side) => Written::Castle(side),
        San::Normal { role, file, rank, capture, to, promotion } => {
            Written::Board { role: Some(role), file, rank, capture, to, promotion, removal }
        }
    })
}

/// Judges the next recorded move. `shadow` is the same game under rules that let a dropped rook
/// castle (P5), so that ordinary castling rights are known whatever the preset.
pub(crate) fn judge(game: &Game, shadow: &Game, rm: &RecordMove) -> Verdict {
    let board = rm.board;
    let turn = game.board(board).turn();
    if turn != rm.color {
        return type1("FIDE", Wrong::OutOfTurn { board, turn });
    }
    let text = rm.text.as_str();
    let error = match game.parse_move(board, text) {
        // Legal on a legal board; after an impossible move left the other king attacked, chess
        // would let the mover take it, which no rule set does (M4).
        Ok(m) if game.board(board).board().piece_at(m.mv.to()) == Some(Role::King.of(!turn)) => {
            return type1("M4", Wrong::CapturesKing { king: !turn, on: m.mv.to() });
        }
        Ok(m) => return Verdict::Legal(m),
        Err(e) => e,
    };
    let Some(written) = read(text) else {
        return unreadable(&error);
    };
    if let Some(verdict) = ordinary_chess(game, shadow, board, written) {
        return verdict;
    }
    // Legal in ordinary chess: whatever is wrong is the variant's.
    let seat = Seat::new(board, turn);
    match error {
        MoveTextError::Ambiguous { .. } => unreadable(&error),
        MoveTextError::Syntax { .. } => {
            promotion_form(game, seat, written).unwrap_or_else(|| unreadable(&error))
        }
        MoveTextError::Illegal { error, .. } if error.rule == RuleId::Chess => {
            if shadow.parse_move(board, text).is_ok() {
                type2("P5", Wrong::DroppedRookCastles)
            } else {
                type1("FIDE", Wrong::Rules(error.why))
            }
        }
        MoveTextError::Illegal { error, .. } => type2(error.rule.as_str(), Wrong::Rules(error.why)),
    }
}

/// A promotion written in the form the preset does not use: `e8=Q` when promotion is by removal
/// (R1, or R4 when nothing can be removed), `e8=Qd1` in the upgrade preset (R6).
fn promotion_form(game: &Game, seat: Seat, written: Written) -> Option<Verdict> {
    let Written::Board { to, promotion, removal, .. } = written else { return None };
    if !Bitboard::BACK_RANKS.contains(to) {
        return None;
    }
    let cross = seat.crosswise();
    match (game.rules().promotion, promotion, removal) {
        (Promotion::Removal, Some(role), None) => Some(if game.removable(cross).is_empty() {
            type2("R4", Wrong::NothingToRemove { crosswise: cross, role })
        } else {
            type2("R1", Wrong::TakesNewPiece { crosswise: cross, role })
        }),
        (Promotion::Upgrade, Some(_), Some(_)) => Some(type2("R6", Wrong::UpgradeRemovesNothing)),
        _ => None,
    }
}

/// `None` if the move is legal in ordinary chess; otherwise its verdict: type 1, or type 2 for the
/// king–rook swap, a move that is no chess move in any position (A1a).
fn ordinary_chess(game: &Game, shadow: &Game, board: BoardId, written: Written) -> Option<Verdict> {
    let pos = game.board(board);
    let us = pos.turn();
    match written {
        Written::Drop { role, to } => {
            if pos.board().occupied().contains(to) {
                return Some(type1("P1", Wrong::Rules(Illegal::Occupied(to))));
            }
            let mut after = *pos.board();
            after.set_piece_at(to, role.of(us), false);
            if king_attacked(&after, us) {
                return Some(type1("P1", Wrong::Rules(Illegal::DropLeavesCheck)));
            }
            let seat = Seat::new(board, us);
            if game.reserve(seat, role) == 0 {
                // No rule set lets a player drop a piece he does not hold.
                return Some(type1("P1", Wrong::Rules(Illegal::NotInReserve { seat, role })));
            }
            None
        }
        Written::Castle(side) => {
            let castles =
                shadow.board(board).legal_moves().iter().any(
                    |m| matches!(*m, Move::Castle { king, rook } if CastlingSide::of(king, rook) == side),
                );
            (!castles).then(|| type1("FIDE", castling_refused(shadow.board(board), side)))
        }
        Written::Board { role, file, rank, capture, to, promotion, removal } => {
            let written_promotion = promotion;
            let shape = Shape { role, file, rank, capture, to };
            let from_role = |sq: Square| pos.board().role_at(sq);
            let moving = role.or_else(|| Some(Square::from_coords(file?, rank?)).and_then(from_role));
            let promoting = moving == Some(Role::Pawn) && Bitboard::BACK_RANKS.contains(to);
            let promotion = if promoting {
                match (game.rules().promotion, promotion) {
                    // Removal promotion: the chess move is the pawn's step, whatever arrives.
                    (Promotion::Removal, _) => Some(Role::Queen),
                    (Promotion::Upgrade, Some(p)) => Some(p),
                    (Promotion::Upgrade, None) => {
                        return Some(type1("FIDE", Wrong::MustPromote));
                    }
                }
            } else {
                promotion
            };
            let shadow_pos = shadow.board(board);
            let chess_move =
                shadow_pos.legal_moves().into_iter().find(|m| shape.matches(shadow_pos, m, promotion));
            if let Some(m) = chess_move {
                // `e8` when nothing can be removed: the pawn vanishes (R4), and if that uncovers
                // the mover's own king the move leaves it in check, as in ordinary chess.
                let plain = promoting && written_promotion.is_none() && removal.is_none();
                if plain
                    && game.rules().promotion == Promotion::Removal
                    && game.removable(Seat::new(board, us).crosswise()).is_empty()
                    && vanishing_exposes_king(pos, m)
                {
                    return Some(type1("FIDE", Wrong::VanishingLeavesCheck { color: us }));
                }
                return None;
            }
            if let Some((king, rook)) = king_rook_swap(pos, shape) {
                // Not this castling refused, but a kind of move chess never has (A1a).
                return Some(type2("A1a", Wrong::KingRookSwap { color: us, king, rook }));
            }
            let (rule, why) = explain(pos, shape);
            Some(type1(rule, why))
        }
    }
}

/// A board move as written.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Shape {
    pub(crate) role: Option<Role>,
    pub(crate) file: Option<File>,
    pub(crate) rank: Option<Rank>,
    pub(crate) capture: bool,
    pub(crate) to: Square,
}

impl Shape {
    pub(crate) fn origin_fits(&self, from: Square) -> bool {
        self.file.is_none_or(|f| f == from.file()) && self.rank.is_none_or(|r| r == from.rank())
    }

    /// Whether a legal chess move is this one (with `promotion` as the chess promotion role).
    fn matches(&self, pos: &Position, m: &Move, promotion: Option<Role>) -> bool {
        match *m {
            Move::Castle { king, rook } => {
                // Long notation writes castling as the king's step or as king takes rook.
                self.role.is_none()
                    && self.origin_fits(king)
                    && (self.to == rook || self.to == CastlingSide::of(king, rook).king_to(pos.turn()))
            }
            Move::Drop { .. } => false,
            _ => {
                let Some(from) = m.from() else { return false };
                self.role.is_none_or(|r| r == m.role())
                    && self.origin_fits(from)
                    && m.to() == self.to
                    && (!self.capture || m.is_capture())
                    && m.promotion() == promotion
            }
        }
    }
}

/// «Нижегородская рокировка» (RULES.md A1a): the written move takes the king onto a rook of his
/// own, both on his first rank. `Some((king, rook))`, their squares, if it is one.
pub(crate) fn king_rook_swap(pos: &Position, shape: Shape) -> Option<(Square, Square)> {
    let us = pos.turn();
    let board = pos.board();
    let king = board.king_of(us)?;
    let first = Rank::FIRST.relative_to(us);
    let rook = shape.to;
    (shape.role.is_none_or(|r| r == Role::King)
        && shape.origin_fits(king)
        && king.rank() == first
        && rook.rank() == first
        && board.piece_at(rook) == Some(Role::Rook.of(us)))
    .then_some((king, rook))
}

/// Why ordinary chess refuses castling toward `side` here: the first of its conditions that fails
/// (the king has moved, the rook has, check, a square in the way, an attacked square).
fn castling_refused(pos: &Position, side: CastlingSide) -> Wrong {
    let us = pos.turn();
    let board = pos.board();
    let castling = pos.castling();
    let king = board.king_of(us);
    let rook = king.and_then(|k| castling.rooks_of(us).into_iter().find(|&r| CastlingSide::of(k, r) == side));
    let why = match (king, rook) {
        _ if castling.king_moved(us) => Some(Castling::KingMoved),
        (Some(king), Some(rook)) => {
            let (king_to, rook_to) = (side.king_to(us), side.rook_to(us));
            let king_path = between(king, king_to).with(king_to);
            let path = (king_path | between(rook, rook_to).with(rook_to)).without(king).without(rook);
            let after = board.occupied().without(king).without(rook);
            if pos.is_check() {
                Some(Castling::InCheck)
            } else if let Some(sq) = (path & board.occupied()).first() {
                Some(Castling::Blocked(sq))
            } else {
                king_path.into_iter().find(|&sq| board.is_attacked(sq, !us, after)).map(Castling::Attacked)
            }
        }
        _ => Some(Castling::NoRook),
    };
    Wrong::Castling { side, color: us, why }
}

/// Why a board move that ordinary chess refuses is refused: capturing the king (M4), no such
/// piece, no such piece able to go there, or every such move leaving the king in check.
fn explain(pos: &Position, shape: Shape) -> (&'static str, Wrong) {
    let us = pos.turn();
    let board = pos.board();
    let to = shape.to;
    if board.piece_at(to) == Some(Role::King.of(!us)) {
        return ("M4", Wrong::CapturesKing { king: !us, on: to });
    }
    let mut pieces = board.by_color(us);
    if let Some(role) = shape.role {
        pieces &= board.by_role(role);
    }
    let pieces: Vec<Square> = pieces.filter(|&sq| shape.origin_fits(sq)).collect();
    if pieces.is_empty() {
        let on = shape.file.zip(shape.rank).map(|(f, r)| Square::from_coords(f, r));
        return ("FIDE", Wrong::NoSuchPiece { color: us, role: shape.role, on });
    }
    let reaching: Vec<Square> = pieces.into_iter().filter(|&from| can_reach(pos, from, shape)).collect();
    if reaching.is_empty() {
        return ("FIDE", Wrong::CannotReach { color: us, role: shape.role, capture: shape.capture, to });
    }
    if reaching.iter().all(|&from| leaves_check(pos, from, to)) {
        return ("FIDE", Wrong::LeavesCheck { color: us });
    }
    ("FIDE", Wrong::NotLegal)
}

/// Whether the piece on `from` could go to the shape's target by its way of moving, ignoring its
/// own king's safety.
pub(crate) fn can_reach(pos: &Position, from: Square, shape: Shape) -> bool {
    let board = pos.board();
    let us = pos.turn();
    let to = shape.to;
    let Some(role) = board.role_at(from) else { return false };
    if board.by_color(us).contains(to) {
        return false;
    }
    let enemy = board.by_color(!us).contains(to);
    let occupied = board.occupied();
    match role {
        Role::Pawn => {
            let forward: i32 = us.fold(8, -8);
            let capture = pawn_attacks(us, from).contains(to) && (enemy || pos.ep_square() == Some(to));
            let one = from.offset(forward).filter(|s| !occupied.contains(*s));
            let single = one == Some(to);
            let double = from.rank() == Rank::SECOND.relative_to(us)
                && one.and_then(|s| s.offset(forward)).is_some_and(|s| s == to && !occupied.contains(s));
            capture || ((single || double) && !shape.capture)
        }
        Role::King => king_attacks(from).contains(to),
        _ => attacks(role, us, from, occupied).contains(to),
    }
}

/// Whether moving the piece on `from` to `to` (capturing what stands there, or en passant) leaves
/// the mover's king attacked.
fn leaves_check(pos: &Position, from: Square, to: Square) -> bool {
    let us = pos.turn();
    let mut after = *pos.board();
    let Some(piece) = after.remove_piece_at(from) else { return false };
    if piece.role == Role::Pawn && pos.ep_square() == Some(to) && !after.occupied().contains(to) {
        // En passant: the pawn taken stands beside the capturer.
        after.remove_piece_at(Square::from_coords(to.file(), from.rank()));
    }
    after.set_piece_at(to, piece, false);
    king_attacked(&after, us)
}

/// Whether a promotion whose pawn then leaves the board (R4) leaves the mover's king attacked.
fn vanishing_exposes_king(pos: &Position, promotion: Move) -> bool {
    let mut after = *pos.board();
    let Some(from) = promotion.from() else { return false };
    after.remove_piece_at(from);
    after.remove_piece_at(promotion.to());
    king_attacked(&after, pos.turn())
}

fn king_attacked(board: &Board, color: Color) -> bool {
    board.king_of(color).is_some_and(|k| board.is_attacked(k, !color, board.occupied()))
}
