//! Quiescence search: at the horizon, only captures and queen promotions are searched (or every
//! evasion when in check), so the static evaluation is never read in the middle of an exchange.
//!
//! Captures come from a small generator of their own rather than the full legal move list, which
//! holds every drop on every empty square and costs far more than the few captures a node needs:
//! a capture is generated pseudo-legally and kept if it does not leave the mover's king attacked.

use chess_core::attacks::{self, pawn_attacks};
use chess_core::{Bitboard, MAX_MOVES, Move, MoveList, Position, Rank, Role, Square};

use crate::eval::evaluate;
use crate::ordering::{MAX_PLY, mvv_lva, pick_next};
use crate::score::INF;
use crate::search::Search;
use crate::values::BOARD_VALUE;

/// A capture that cannot raise the score to alpha even with this margin is skipped.
const DELTA_MARGIN: i32 = 200;

impl Search<'_> {
    /// The quiescence score of a position, within `alpha..beta`.
    pub(crate) fn quiesce(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        if self.tick() {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return evaluate(pos);
        }
        if pos.is_check() {
            return self.evasions(pos, alpha, beta, ply);
        }
        let stand = evaluate(pos);
        if stand >= beta {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut best = stand;
        let mut moves = captures(pos);
        let mut scores = [0i32; MAX_MOVES];
        for (s, m) in scores.iter_mut().zip(moves.iter()) {
            *s = mvv_lva(*m);
        }
        let us = pos.turn();
        for n in 0..moves.len() {
            let Some(m) = pick_next(&mut moves, &mut scores, n) else { break };
            let gain = m.capture().map_or(0, |r| BOARD_VALUE[r.index()])
                + m.promotion().map_or(0, |r| BOARD_VALUE[r.index()] - BOARD_VALUE[0]);
            if stand + gain + DELTA_MARGIN <= alpha {
                continue;
            }
            let mut child = *pos;
            child.play_unchecked(m);
            let board = child.board();
            if board.king_of(us).is_none_or(|k| board.is_attacked(k, !us, board.occupied())) {
                continue;
            }
            let score = -self.quiesce(&child, -beta, -alpha, ply + 1);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// In check at the horizon: every legal evasion (interposing drops included) is searched.
    fn evasions(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        let mut moves = pos.legal_moves();
        let mut scores = [0i32; MAX_MOVES];
        for (s, m) in scores.iter_mut().zip(moves.iter()) {
            *s = self.heuristics.score(pos, *m, None, ply);
        }
        let mut best = -INF;
        for n in 0..moves.len() {
            let Some(m) = pick_next(&mut moves, &mut scores, n) else { break };
            let mut child = *pos;
            child.play_unchecked(m);
            if self.forbidden_drop(m, &child) {
                continue;
            }
            let score = -self.quiesce(&child, -beta, -alpha, ply + 1);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if best == -INF { Search::terminal(pos, ply) } else { best }
    }
}

/// The captures (en passant aside) and queen promotions of the side to move, pseudo-legal: a
/// move may still leave its own king attacked. Kings are never captured (M4).
fn captures(pos: &Position) -> MoveList {
    let board = pos.board();
    let us = pos.turn();
    let occupied = board.occupied();
    let targets = board.by_color(!us) - board.by_role(Role::King);
    let mut out = MoveList::new();
    let mut push = |m: Move| {
        let _ = out.try_push(m);
    };
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King] {
        for from in board.by_piece(role.of(us)) {
            for to in attacks::attacks(role, us, from, occupied) & targets {
                push(Move::Normal { role, from, capture: board.role_at(to), to, promotion: None });
            }
        }
    }
    let last = Bitboard::rank(Rank::EIGHTH.relative_to(us));
    let promote = |to: Square| if last.contains(to) { Some(Role::Queen) } else { None };
    for from in board.by_piece(Role::Pawn.of(us)) {
        for to in pawn_attacks(us, from) & targets {
            push(Move::Normal {
                role: Role::Pawn,
                from,
                capture: board.role_at(to),
                to,
                promotion: promote(to),
            });
        }
        if let Some(to) = from.offset(us.fold(8, -8))
            && last.contains(to)
            && !occupied.contains(to)
        {
            push(Move::Normal { role: Role::Pawn, from, capture: None, to, promotion: Some(Role::Queen) });
        }
    }
    out
}
