//! What an impossible move leaves behind when it is noticed only later (RULES.md A1): the move as
//! it was made on the real boards, and whether a board is a legal position.
//!
//! [`carry_out`] plays the move as it was made — a drop from wherever the piece came, a piece going
//! where the record says, a promotion as written, the king and rook swapping squares (A1a) — with
//! the transfers the rules prescribe (C1 for a capture, R2 for a removal). The result may be no
//! legal position at all (a king left attacked with the other side to move, a pawn on a last
//! rank): over the board the game went on from it, and so does the check, which asks [`illegal`]
//! after every later move whether the boards are legal again. A move that cannot be carried out
//! (a piece that is not there, out of turn, a castling chess has no way to make, a unit from
//! outside the game, a king taken) leaves no position to follow: the arbiter decides there.

use bughouse::{BoardId, BughouseMove, Game, Promotion, Seat};
use chess_core::{Bitboard, CastlingSide, Color, Move, Position, Role, Square};

use crate::act::RecordMove;
use crate::classify::{Shape, Written, can_reach, king_rook_swap, read};
use crate::wrong::{Broken, Stuck};

/// An impossible move as it was made on one board.
enum Made {
    /// What the bughouse game can play as it stands: every transfer is the game's own.
    Bughouse(BughouseMove),
    /// A pawn left unpromoted on the last rank (`upgrade`): it stays a pawn there.
    Unpromoted { board: BoardId, mv: Move },
    /// The king and a rook of his own exchange squares (A1a).
    Swap { board: BoardId, king: Square, rook: Square },
}

impl Made {
    /// The game after the move, whatever the position it leaves.
    fn apply(&self, game: &Game) -> Game {
        let mut boards = [*game.board(BoardId::A), *game.board(BoardId::B)];
        match *self {
            Made::Bughouse(m) => {
                let mut after = *game;
                after.play_unchecked(m);
                return after;
            }
            Made::Unpromoted { board, mv } => {
                if let Some(c) = boards[board.index()].play_unchecked(mv) {
                    // Only under `upgrade`: a promoted piece goes back as a pawn (R6), C1.
                    let role = if c.promoted { Role::Pawn } else { c.piece.role };
                    let _ = boards[board.other().index()].add_to_pocket(role.of(c.piece.color));
                }
            }
            Made::Swap { board, king, rook } => {
                let pos = &mut boards[board.index()];
                if let Some(r) = pos.remove_piece_at(rook) {
                    pos.play_unchecked(Move::Normal {
                        role: Role::King,
                        from: king,
                        capture: None,
                        to: rook,
                        promotion: None,
                    });
                    let _ = pos.put_piece_at(king, r.piece, r.promoted);
                }
            }
        }
        Game::from_positions(boards[0], boards[1], *game.rules())
    }
}

/// Plays an impossible move as it was made, on the game and on its shadow (the same game under
/// rules that let a dropped rook castle). `Err` says why it cannot be carried out.
pub(crate) fn carry_out(game: &Game, shadow: &Game, rm: &RecordMove) -> Result<(Game, Game), Stuck> {
    let board = rm.board;
    let pos = game.board(board);
    let us = pos.turn();
    if rm.color != us {
        return Err(Stuck::OutOfTurn(rm.seat()));
    }
    let written = read(&rm.text).ok_or(Stuck::NotOneMove)?;
    let made = match written {
        Written::Drop { role, to } => {
            if pos.board().occupied().contains(to) {
                return Err(Stuck::DropOccupied(to));
            }
            if game.reserve(Seat::new(board, us), role) == 0 {
                return Err(Stuck::FromOutside(role));
            }
            Made::Bughouse(BughouseMove { board, mv: Move::Drop { role, to }, removal: None })
        }
        Written::Castle(side) => {
            let castle =
                shadow.board(board).legal_moves().into_iter().find(
                    |m| matches!(*m, Move::Castle { king, rook } if CastlingSide::of(king, rook) == side),
                );
            let Some(mv) = castle else {
                return Err(Stuck::Castling);
            };
            Made::Bughouse(BughouseMove { board, mv, removal: None })
        }
        Written::Board { role, file, rank, capture, to, promotion, removal } => {
            board_move(game, board, Shape { role, file, rank, capture, to }, promotion, removal)?
        }
    };
    let after = (made.apply(game), made.apply(shadow));
    for color in Color::ALL {
        let (was, is) = (game.units(color), after.0.units(color));
        if was != is {
            return Err(Stuck::Units { color, was, is });
        }
    }
    Ok(after)
}

/// A board move as made: the piece the record names goes where it says.
fn board_move(
    game: &Game,
    board: BoardId,
    shape: Shape,
    promotion: Option<Role>,
    removal: Option<Square>,
) -> Result<Made, Stuck> {
    let pos = game.board(board);
    let us = pos.turn();
    if let Some((king, rook)) = king_rook_swap(pos, shape) {
        return Ok(Made::Swap { board, king, rook });
    }
    let from = origin(pos, shape)?;
    let role = pos.board().role_at(from).ok_or(Stuck::NothingOn(from))?;
    let to = shape.to;
    if pos.board().by_color(us).contains(to) {
        return Err(Stuck::OwnPiece { to, color: us });
    }
    if pos.board().piece_at(to) == Some(Role::King.of(!us)) {
        return Err(Stuck::KingCaptured { king: !us, on: to });
    }
    let capture = pos.board().role_at(to);
    if role == Role::Pawn && capture.is_none() && pos.ep_square() == Some(to) && from.file() != to.file() {
        return Ok(Made::Bughouse(BughouseMove { board, mv: Move::EnPassant { from, to }, removal: None }));
    }
    let normal = |promotion| Move::Normal { role, from, capture, to, promotion };
    let bughouse = |mv, removal| Made::Bughouse(BughouseMove { board, mv, removal });
    if role != Role::Pawn || !Bitboard::BACK_RANKS.contains(to) {
        return Ok(bughouse(normal(None), None));
    }
    Ok(match (removal, promotion) {
        (Some(sq), _) => {
            // R1/R2 as made: the piece on `sq` of the other board comes over, the pawn goes to
            // the crosswise player.
            let cross = Seat::new(board, us).crosswise();
            let removed = game
                .board(cross.board)
                .board()
                .piece_at(sq)
                .ok_or(Stuck::NothingToTake { square: sq, board: cross.board })?;
            if removed.role == Role::King {
                return Err(Stuck::KingRemoved { square: sq, board: cross.board });
            }
            if removed.color != us {
                return Err(Stuck::NotCrosswises { square: sq, board: cross.board, crosswise: cross });
            }
            bughouse(normal(Some(removed.role)), Some(sq))
        }
        (None, Some(new)) => bughouse(normal(Some(new)), None),
        // R4 as made: the pawn leaves the board for the crosswise player's reserve.
        (None, None) if game.rules().promotion == Promotion::Removal => bughouse(normal(None), None),
        (None, None) => Made::Unpromoted { board, mv: normal(None) },
    })
}

/// The square the written piece came from: the one piece that fits the notation (and, among
/// several, the one that could go there by its way of moving).
fn origin(pos: &Position, shape: Shape) -> Result<Square, Stuck> {
    let us = pos.turn();
    let board = pos.board();
    let mut pieces = board.by_color(us);
    if let Some(role) = shape.role {
        pieces &= board.by_role(role);
    }
    let fitting: Vec<Square> = pieces.filter(|&sq| shape.origin_fits(sq)).collect();
    let reaching: Vec<Square> = fitting.iter().copied().filter(|&sq| can_reach(pos, sq, shape)).collect();
    match (fitting.as_slice(), reaching.as_slice()) {
        (_, [one]) | ([one], _) => Ok(*one),
        ([], _) => Err(Stuck::PieceNotThere),
        _ => Err(Stuck::WhichPiece),
    }
}

/// What makes a board no legal position, if anything: a side without exactly one king, a pawn on
/// a first or last rank, or the side not to move in check.
pub(crate) fn illegal(game: &Game, board: BoardId) -> Option<Broken> {
    let pos = game.board(board);
    let turn = pos.turn();
    let placement = pos.board();
    for color in Color::ALL {
        let kings = (placement.by_color(color) & placement.by_role(Role::King)).count();
        if kings != 1 {
            return Some(Broken::Kings { color, count: kings });
        }
    }
    if let Some(sq) = (placement.by_role(Role::Pawn) & Bitboard::BACK_RANKS).into_iter().next() {
        return Some(Broken::PawnOnEdge(sq));
    }
    let waiting = !turn;
    let king = placement.king_of(waiting)?;
    placement.is_attacked(king, turn, placement.occupied()).then_some(Broken::WaitingInCheck { waiting })
}
