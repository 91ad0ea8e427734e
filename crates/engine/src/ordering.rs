//! Move ordering, which makes alpha-beta fast: the hash move first, then captures by most valuable
//! victim / least valuable attacker, queen promotions, the two killer moves of the ply, quiet moves
//! and drops that give check (most bughouse attacks are drop checks), and the remaining quiet moves
//! and drops by their history score.

use chess_core::attacks;
use chess_core::{Color, Move, Position, Role};

use crate::values::BOARD_VALUE;

/// The deepest ply the search reaches (quiescence included).
pub(crate) const MAX_PLY: usize = 64;

const HASH_MOVE: i32 = 4_000_000;
const CAPTURE: i32 = 2_000_000;
const PROMOTION: i32 = 1_900_000;
const KILLER: [i32; 2] = [1_000_000, 990_000];
const CHECK: i32 = 900_000;
/// History scores stay within ± this.
const HISTORY_MAX: i32 = 16_384;

/// Killer moves and history scores, kept by the engine between searches.
#[derive(Debug)]
pub(crate) struct Heuristics {
    killers: [[Option<Move>; 2]; MAX_PLY],
    /// By side, by role (drops apart: index + 6), by destination square.
    history: [[[i32; 64]; 12]; 2],
}

impl Heuristics {
    /// Empty heuristics.
    pub(crate) fn new() -> Heuristics {
        Heuristics { killers: [[None; 2]; MAX_PLY], history: [[[0; 64]; 12]; 2] }
    }

    /// Starts a new search: killers belong to the old tree and go; history fades by half.
    pub(crate) fn new_search(&mut self) {
        self.killers = [[None; 2]; MAX_PLY];
        for row in self.history.iter_mut().flatten().flatten() {
            *row /= 2;
        }
    }

    fn history_slot(&mut self, m: Move, color: Color) -> Option<&mut i32> {
        let kind = m.role().index() + if m.is_drop() { 6 } else { 0 };
        self.history.get_mut(color.index())?.get_mut(kind)?.get_mut(m.to().index())
    }

    fn history(&self, m: Move, color: Color) -> i32 {
        let kind = m.role().index() + if m.is_drop() { 6 } else { 0 };
        self.history[color.index()].get(kind).and_then(|h| h.get(m.to().index())).copied().unwrap_or(0)
    }

    /// The ordering score of a move of `pos` at a ply.
    pub(crate) fn score(&self, pos: &Position, m: Move, hash_move: Option<Move>, ply: usize) -> i32 {
        if Some(m) == hash_move {
            return HASH_MOVE;
        }
        if m.is_capture() {
            return CAPTURE + mvv_lva(m);
        }
        if m.promotion() == Some(Role::Queen) {
            return PROMOTION;
        }
        if let Some(killers) = self.killers.get(ply) {
            for (k, bonus) in killers.iter().zip(KILLER) {
                if *k == Some(m) {
                    return bonus;
                }
            }
        }
        if gives_direct_check(pos, m) {
            return CHECK;
        }
        self.history(m, pos.turn())
    }

    /// A quiet move caused a cutoff at `depth`: it becomes a killer of the ply, its history grows
    /// and the quiet moves tried before it lose history.
    pub(crate) fn reward(&mut self, m: Move, color: Color, ply: usize, depth: i32, tried: &[Option<Move>]) {
        if let Some(killers) = self.killers.get_mut(ply)
            && killers[0] != Some(m)
        {
            killers[1] = killers[0];
            killers[0] = Some(m);
        }
        let bonus = (depth * depth).min(400);
        if let Some(h) = self.history_slot(m, color) {
            *h += bonus - *h * bonus / HISTORY_MAX;
        }
        for &t in tried.iter().flatten() {
            if let Some(h) = self.history_slot(t, color) {
                *h -= bonus + *h * bonus / HISTORY_MAX;
            }
        }
    }
}

/// Most valuable victim first; among equal victims, the least valuable attacker first.
pub(crate) fn mvv_lva(m: Move) -> i32 {
    let victim = m.capture().map_or(0, |r| BOARD_VALUE[r.index()]);
    let promotion = m.promotion().map_or(0, |r| BOARD_VALUE[r.index()]);
    (victim + promotion) * 8 - m.role().index() as i32
}

/// Whether the moved or dropped piece itself attacks the enemy king from its new square
/// (discovered checks are not looked for).
fn gives_direct_check(pos: &Position, m: Move) -> bool {
    let us = pos.turn();
    let Some(king) = pos.board().king_of(!us) else { return false };
    let (role, to) = match m {
        Move::Normal { role, to, promotion, .. } => (promotion.unwrap_or(role), to),
        Move::Drop { role, to } => (role, to),
        Move::EnPassant { .. } | Move::Castle { .. } => return false,
    };
    let mut occupied = pos.board().occupied().with(to);
    if let Some(from) = m.from() {
        occupied = occupied.without(from);
    }
    attacks::attacks(role, us, to, occupied).contains(king)
}

/// Whether a move neither captures nor promotes.
pub(crate) fn is_quiet(m: Move) -> bool {
    !m.is_capture() && m.promotion().is_none()
}

/// Swaps the best-scored move from `start` on into `start` and returns it (a selection sort run
/// lazily: most nodes cut off after a few moves).
pub(crate) fn pick_next(moves: &mut [Move], scores: &mut [i32], start: usize) -> Option<Move> {
    let best = (start..moves.len().min(scores.len())).max_by_key(|&i| (scores[i], std::cmp::Reverse(i)))?;
    moves.swap(start, best);
    scores.swap(start, best);
    moves.get(start).copied()
}
