//! The bot's wish: which piece, sent by the partner, would help most — for the "need a knight"
//! team chat.
//!
//! For each role the seat's board is searched shallowly with one such piece added to the seat's
//! reserve and compared with the board as it is; the gain is the difference less the piece's own
//! reserve value (which any piece adds), so only a piece that does more than add material — a
//! mate, a decisive attack, a blocked check — is wished for. When it is not the seat's turn, the
//! search is from the opponent's side, so the score is the seat's after the opponent's best reply
//! (the opponent sees the added piece in the seat's reserve and defends against it).

use bughouse::{DropMate, Game, Seat, is_mate_on_board};
use chess_core::{Color, Position, Role};

use crate::Engine;
use crate::eval::evaluate;
use crate::limits::Limits;
use crate::search::{RootMove, Search};
use crate::values::HAND_VALUE;

/// Nodes per searched position (six positions per wish).
const WISH_NODES: u64 = 3_000;
/// Depth cap per searched position.
const WISH_DEPTH: u8 = 3;
/// The least gain, beyond the piece's own value, worth asking for.
const WISH_THRESHOLD: i32 = 300;

impl Engine {
    /// The piece that, added to `seat`'s reserve, would help most, or `None` when no piece gains
    /// at least 300 centipawns beyond its own value (or the board is already decided by mate on
    /// board). Ties go to the cheaper piece. Works whether or not it is the seat's turn.
    pub fn wish(&mut self, game: &Game, seat: Seat) -> Option<Role> {
        let pos = *game.board(seat.board);
        if is_mate_on_board(&pos) {
            return None;
        }
        let forbid = game.rules().drop_mate == DropMate::Forbidden;
        let base = self.outlook(&pos, seat.color, forbid);
        let mut best: Option<(Role, i32)> = None;
        for role in Role::POCKET {
            let mut with = pos;
            if with.add_to_pocket(role.of(seat.color)).is_err() {
                continue;
            }
            let gain = self.outlook(&with, seat.color, forbid) - base - HAND_VALUE[role.index()];
            if best.is_none_or(|(_, g)| gain > g) {
                best = Some((role, gain));
            }
        }
        best.filter(|&(_, gain)| gain >= WISH_THRESHOLD).map(|(role, _)| role)
    }

    /// A shallow search's score of a position for `color`.
    fn outlook(&mut self, pos: &Position, color: Color, forbid: bool) -> i32 {
        let mut roots: Vec<RootMove> = Vec::new();
        for (index, mv) in pos.legal_moves().into_iter().enumerate() {
            let mut child = *pos;
            child.play_unchecked(mv);
            if forbid && mv.is_drop() && child.is_check() && is_mate_on_board(&child) {
                continue;
            }
            roots.push(RootMove { mv, child, index });
        }
        let limits = Limits { time: None, nodes: Some(WISH_NODES), depth: Some(WISH_DEPTH) };
        let mut budget = self.budget(limits);
        budget.depth = WISH_DEPTH;
        let score = if roots.is_empty() {
            Search::terminal(pos, 0)
        } else {
            let mut search = Search::new(&mut self.tt, &mut self.heuristics, forbid, budget);
            search.iterate(pos, &mut roots).map_or_else(|| evaluate(pos), |o| o.score)
        };
        if pos.turn() == color { score } else { -score }
    }
}
