//! What an impossible move leaves behind when it is noticed only later (RULES.md A1): "it stands
//! if the resulting position is legal; otherwise the arbiter decides".
//!
//! [`carry_out`] plays the move as it was made on the real boards — a drop from wherever the
//! piece came, a piece going where the record says, a promotion as written — with the transfers
//! the rules prescribe (C1 for a capture, R2 for a removal), and rebuilds the game from the
//! resulting BFEN. Rebuilding is the legality check: a king for each side, no pawn on a first or
//! last rank, the side not to move not in check (the FEN reader refuses anything else), and no
//! unit created or lost (C2). A move that cannot be carried out at all (a piece that is not
//! there, out of turn, an impossible castling) leaves nothing to judge: the arbiter decides.

use bughouse::{BoardId, Game, Promotion, Seat};
use chess_core::{Bitboard, CastlingSide, Color, Move, Piece, Position, Role, Square};

use crate::classify::{Shape, Written, can_reach, read};
use crate::record::RecordMove;

/// Plays an impossible move as it was made. `Ok` is the game after it, a legal position (the move
/// stands when noticed later); `Err` says why the arbiter must decide.
pub(crate) fn carry_out(game: &Game, shadow: &Game, rm: &RecordMove) -> Result<Game, String> {
    let board = rm.board;
    let pos = game.board(board);
    let us = pos.turn();
    if rm.color != us {
        return Err(format!("{} moved out of turn; the moves cannot be put in order", rm.seat()));
    }
    let written = read(&rm.text).ok_or_else(|| "the move does not read as one move".to_owned())?;
    let mut boards = [*game.board(BoardId::A), *game.board(BoardId::B)];
    let (b, o) = (board.index(), board.other().index());
    match written {
        Written::Drop { role, to } => {
            if pos.board().occupied().contains(to) {
                return Err(format!("{to} is occupied: the drop cannot be carried out"));
            }
            boards[b]
                .remove_from_pocket(role.of(us))
                .map_err(|_| format!("the {role} came from outside the game (C2)"))?;
            put(&mut boards[b], to, role.of(us), false)?;
        }
        Written::Castle(side) => {
            let castle =
                shadow.board(board).legal_moves().into_iter().find(
                    |m| matches!(*m, Move::Castle { king, rook } if CastlingSide::of(king, rook) == side),
                );
            let Some(castle) = castle else {
                return Err("the castling cannot be carried out".to_owned());
            };
            boards[b] = *shadow.board(board);
            boards[b].play_unchecked(castle);
            return rebuild(game, board, boards, true);
        }
        Written::Board { role, file, rank, capture, to, promotion, removal } => {
            let shape = Shape { role, file, rank, capture, to };
            let from = origin(pos, shape)?;
            let moving = pos.board().piece_at(from).expect("origin holds a piece");
            if moving.role == Role::King {
                boards[b].set_king_moved(us, true);
            }
            if pos.board().by_color(us).contains(to) {
                return Err(format!("{to} holds a {us} piece"));
            }
            let _ = boards[b].remove_piece_at(from);
            let promoted_mark = pos.board().promoted().contains(from);
            if moving.role == Role::Pawn && pos.ep_square() == Some(to) && from.file() != to.file() {
                let passed = Square::from_coords(to.file(), from.rank());
                take(game, &mut boards, b, o, passed)?;
            }
            take(game, &mut boards, b, o, to)?;
            let last_rank = moving.role == Role::Pawn && Bitboard::BACK_RANKS.contains(to);
            match (last_rank, removal, promotion) {
                (true, Some(sq), _) => {
                    // R1/R2 as made: the piece on `sq` of the other board comes over, the pawn goes
                    // to the crosswise player.
                    let cross = Seat::new(board, us).crosswise();
                    let removed = boards[o]
                        .remove_piece_at(sq)
                        .ok_or_else(|| format!("nothing stands on {sq} of board {}", cross.board))?;
                    if removed.piece.role == Role::King {
                        return Err(format!("the king on {sq} of board {} cannot leave it", cross.board));
                    }
                    if removed.piece.color != us {
                        return Err(format!("the piece on {sq} of board {} is not {cross}'s", cross.board));
                    }
                    put(&mut boards[b], to, removed.piece.role.of(us), false)?;
                    pocket(&mut boards[o], Role::Pawn.of(us))?;
                }
                (true, None, Some(new)) => {
                    let mark = game.rules().promotion == Promotion::Upgrade;
                    put(&mut boards[b], to, new.of(us), mark)?;
                }
                (true, None, None) if game.rules().promotion == Promotion::Removal => {
                    // R4 as made: the pawn leaves the board for the crosswise player's reserve.
                    pocket(&mut boards[o], Role::Pawn.of(us))?;
                }
                _ => put(&mut boards[b], to, moving, promoted_mark)?,
            }
        }
    }
    rebuild(game, board, boards, false)
}

/// The square the written piece came from: the one piece that fits the notation (and, among
/// several, the one that could go there by its way of moving).
fn origin(pos: &Position, shape: Shape) -> Result<Square, String> {
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
        ([], _) => Err("the piece the record names is not on the board".to_owned()),
        _ => Err("which piece moved cannot be told from the record".to_owned()),
    }
}

/// A capture on `sq` as made: the piece goes to the capturer's partner (C1; a promoted piece as a
/// pawn under `upgrade`, R6). A king is never captured (M4).
fn take(game: &Game, boards: &mut [Position; 2], b: usize, o: usize, sq: Square) -> Result<(), String> {
    let Some(captured) = boards[b].remove_piece_at(sq) else { return Ok(()) };
    if captured.piece.role == Role::King {
        return Err(format!("the {} king on {sq} was captured (M4)", captured.piece.color));
    }
    let role = if captured.promoted && game.rules().promotion == Promotion::Upgrade {
        Role::Pawn
    } else {
        captured.piece.role
    };
    pocket(&mut boards[o], role.of(captured.piece.color))
}

fn put(pos: &mut Position, sq: Square, piece: Piece, promoted: bool) -> Result<(), String> {
    pos.put_piece_at(sq, piece, promoted).map_err(|sq| format!("{sq} is occupied"))
}

fn pocket(pos: &mut Position, piece: Piece) -> Result<(), String> {
    pos.add_to_pocket(piece).map_err(|e| e.to_string())
}

/// The game after the edited boards, with the turn passed on the board moved on: read back from
/// BFEN under the game's rules, which refuses an illegal position; and no unit created or lost.
fn rebuild(game: &Game, board: BoardId, boards: [Position; 2], turn_passed: bool) -> Result<Game, String> {
    let mover = game.board(board).turn();
    for (i, pos) in boards.iter().enumerate() {
        let turn = if i == board.index() && !turn_passed { !mover } else { pos.turn() };
        if let Some(why) = illegal(pos, turn) {
            return Err(format!("the position after it is not legal: {why}"));
        }
    }
    let bfen = Game::from_positions(boards[0], boards[1], *game.rules()).bfen();
    let mut fens: Vec<String> = bfen.split(" | ").map(str::to_owned).collect();
    if !turn_passed {
        let mut fields: Vec<String> = fens[board.index()].split(' ').map(str::to_owned).collect();
        fields[1] = (!mover).fold('w', 'b').to_string();
        fields[3] = "-".to_owned();
        fields[4] = "0".to_owned();
        if mover == Color::Black {
            let n: u32 = fields[5].parse().unwrap_or(1);
            fields[5] = (n + 1).to_string();
        }
        fens[board.index()] = fields.join(" ");
    }
    let after = Game::from_bfen(&fens.join(" | "), *game.rules())
        .map_err(|e| format!("the position after it is not legal: {}", e.message))?;
    for color in Color::ALL {
        let (was, is) = (game.units(color), after.units(color));
        if was != is {
            return Err(format!("{color} would own {is} units instead of {was} (C2)"));
        }
    }
    Ok(after)
}

/// What makes a board with `turn` to move no legal position, if anything.
fn illegal(pos: &Position, turn: Color) -> Option<String> {
    let board = pos.board();
    for color in Color::ALL {
        let kings = (board.by_color(color) & board.by_role(Role::King)).count();
        if kings != 1 {
            return Some(format!("{kings} {color} kings on the board"));
        }
    }
    if let Some(sq) = (board.by_role(Role::Pawn) & Bitboard::BACK_RANKS).into_iter().next() {
        return Some(format!("a pawn stands on {sq}"));
    }
    let waiting = !turn;
    let king = board.king_of(waiting)?;
    board
        .is_attacked(king, turn, board.occupied())
        .then(|| format!("the {waiting} king is in check with {turn} to move"))
}
