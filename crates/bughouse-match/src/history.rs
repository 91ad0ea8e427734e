//! What a match remembers about past positions: how often each occurred on each board (E4), and
//! enough about each move to take it back with every reserve transfer it made (A2).

use bughouse::{BoardId, BughouseMove, Game, Seat};

use crate::reject::TakeBackFailure;
use chess_core::{Color, Move, Piece, Position, Repetitions, Role, Square};

/// One played move, as needed to undo it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Played {
    seat: Seat,
    mv: BughouseMove,
    /// Its board before the move.
    before: Position,
    /// The pieces it passed into the other board's reserves (a capture, a promoted pawn).
    gave: [Option<Piece>; 2],
    /// The piece a promotion by removal took off the other board.
    removed: Option<Removed>,
    /// The placement epoch of its board when it was played.
    epoch: u32,
    /// The repetition keys it recorded: its board, and the other board if the move changed it.
    keys: (u64, Option<u64>),
}

/// A piece a promotion lifted off the other board (R1), with what a take-back must give back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Removed {
    square: Square,
    piece: Piece,
    promoted: bool,
    /// Whether it was a rook with a castling right, which the removal cancelled (R5).
    castling_right: bool,
}

/// Per-board move records and repetition counts.
#[derive(Clone, Debug, Default)]
pub(crate) struct History {
    played: [Vec<Played>; 2],
    /// Bumped whenever a board's pieces change other than by its own moves (a removal from the
    /// other board, a corrected position): older moves of that board can no longer be undone.
    epoch: [u32; 2],
    occurrences: [Repetitions; 2],
}

impl History {
    /// A history starting at `game`.
    pub(crate) fn new(game: &Game) -> History {
        let mut h = History::default();
        h.reset(game);
        h
    }

    /// Forgets everything before `game` (a corrected position): it is the only occurrence.
    pub(crate) fn reset(&mut self, game: &Game) {
        for board in BoardId::ALL {
            let i = board.index();
            self.played[i].clear();
            self.epoch[i] += 1;
            self.occurrences[i].clear();
            self.occurrences[i].record_key(game.repetition_key(board));
        }
    }

    /// How often the current position of a board has occurred (E4).
    pub(crate) fn occurrences(&self, game: &Game, board: BoardId) -> u32 {
        self.occurrences[board.index()].count_key(game.repetition_key(board))
    }

    /// Records a move from `before` to `after`.
    pub(crate) fn record(&mut self, seat: Seat, mv: BughouseMove, before: &Game, after: &Game) {
        let (x, o) = (mv.board, mv.board.other());
        let (o_before, o_after) = (before.board(o), after.board(o));
        // At most two: a captured piece and a promoted pawn.
        let mut added = pocket_pieces().flat_map(|p| {
            std::iter::repeat_n(p, pocket(o_after, p).saturating_sub(pocket(o_before, p)).into())
        });
        let gave = [added.next(), added.next()];
        let gone = o_before.board().occupied() & !o_after.board().occupied();
        let removed = gone.into_iter().next().and_then(|square| {
            Some(Removed {
                square,
                piece: o_before.board().piece_at(square)?,
                promoted: o_before.board().promoted().contains(square),
                castling_right: o_before.castling().rooks().contains(square),
            })
        });
        if removed.is_some() {
            self.epoch[o.index()] += 1;
        }
        let key_x = after.repetition_key(x);
        self.occurrences[x.index()].record_key(key_x);
        let key_o = (after.repetition_key(o) != before.repetition_key(o)).then(|| after.repetition_key(o));
        if let Some(k) = key_o {
            self.occurrences[o.index()].record_key(k);
        }
        self.played[x.index()].push(Played {
            seat,
            mv,
            before: *before.board(x),
            gave,
            removed,
            epoch: self.epoch[x.index()],
            keys: (key_x, key_o),
        });
    }

    /// Takes back the last move on `board`: its board returns to the position before it (with
    /// the reserves it has gained since), the pieces it passed on leave the other board's
    /// reserves, and a removed piece returns to its square — a rook with the castling right the
    /// removal cancelled (R5), if its king has not moved since; every right derived from the
    /// board (en passant) follows the board as it then stands. Returns the game and the seat
    /// that is to move again.
    ///
    /// # Errors
    /// Why not: no move to take back, a transferred piece has since been
    /// dropped, the other board has changed so the piece cannot return, or this board's pieces
    /// were changed from outside since.
    pub(crate) fn take_back(&mut self, game: &Game, board: BoardId) -> Result<(Game, Seat), TakeBackFailure> {
        let (x, o) = (board, board.other());
        let Some(last) = self.played[x.index()].last().copied() else {
            return Err(TakeBackFailure::NoMove(board));
        };
        if last.epoch != self.epoch[x.index()] {
            return Err(TakeBackFailure::ChangedSince(x));
        }
        let mut other = *game.board(o);
        for piece in last.gave.into_iter().flatten() {
            other.remove_from_pocket(piece).map_err(|_| TakeBackFailure::PieceDropped { piece, board: o })?;
        }
        if let Some(Removed { square, piece, promoted, castling_right }) = last.removed {
            other.put_piece_at(square, piece, promoted).map_err(|_| TakeBackFailure::SquareOccupied {
                square,
                board: o,
                piece,
            })?;
            // The right comes back unless the king has moved since. (The en passant right needs
            // nothing: the position derives it from the board as it now stands.)
            if castling_right {
                other.restore_castling_right(square);
            }
        }
        let mut this = last.before;
        let dropped = match last.mv.mv {
            Move::Drop { role, .. } => Some(role.of(last.seat.color)),
            _ => None,
        };
        for piece in pocket_pieces() {
            let want = pocket(game.board(x), piece) + u8::from(dropped == Some(piece));
            let have = pocket(&this, piece);
            for _ in have..want {
                this.add_to_pocket(piece).map_err(|_| TakeBackFailure::WouldBeIllegal(o))?;
            }
            for _ in want..have {
                this.remove_from_pocket(piece).map_err(|_| TakeBackFailure::WouldBeIllegal(o))?;
            }
        }
        let (a, b) = match x {
            BoardId::A => (this, other),
            BoardId::B => (other, this),
        };
        let candidate = Game::from_positions(a, b, *game.rules());
        // The other board must still be a legal position (its side not to move not in check).
        Game::from_bfen(&candidate.bfen(), *game.rules()).map_err(|_| TakeBackFailure::WouldBeIllegal(o))?;
        self.played[x.index()].pop();
        self.occurrences[x.index()].unrecord_key(last.keys.0);
        if let Some(k) = last.keys.1 {
            self.occurrences[o.index()].unrecord_key(k);
        }
        if last.removed.is_some() {
            self.epoch[o.index()] += 1;
        }
        Ok((candidate, last.seat))
    }
}

/// Every piece a reserve can hold.
fn pocket_pieces() -> impl Iterator<Item = Piece> {
    Color::ALL.into_iter().flat_map(|c| Role::POCKET.map(|r| r.of(c)))
}

fn pocket(pos: &Position, piece: Piece) -> u8 {
    pos.pockets().map_or(0, |p| p.count(piece))
}
