//! The tree search: iterative deepening over the root moves, principal-variation alpha-beta
//! (negamax) below them in an aspiration window, with the transposition table, check extension,
//! reverse futility pruning, null-move pruning, late-move pruning and logarithmic late-move
//! reductions. Quiescence lives in `quiesce`.
//!
//! Why it prunes this hard: a bughouse position with pieces in reserve has a hundred or more moves
//! (every drop on every empty square), almost all of them pointless. Measured against
//! Fairy-Stockfish on the same positions and time (`shvedka bench-strength --speed-only`), the
//! search visited four times its nodes per second yet reached half its depth: the cost was in the
//! width of the tree, not in its nodes. Null moves (a side with pieces to drop is never in
//! zugzwang) and reductions that grow with the move's rank in the ordering cut that width.
//!
//! The tree sees one board only, as a `chess_core::Position` played by copy-make. A captured piece
//! leaves the board and joins neither pocket of it (it goes to the partner on the other board,
//! RULES.md C1), so pockets only shrink by drops below the root. Promotions are the core's plain
//! promotions (the removal rules, R1, apply at the root, where the bughouse crate lists the moves).
//! A drop that gives mate on board is skipped where the rules forbid it (P3).

use std::time::Instant;

use bughouse::is_mate_on_board;
use chess_core::{MAX_MOVES, Move, Position};

use crate::eval::evaluate;
use crate::ordering::{Heuristics, MAX_PLY, is_quiet, pick_next};
use crate::score::{INF, MATE, MATE_BOUND, WAIT_PENALTY, is_mate};
use crate::tt::{Bound, Table};

/// How often (in nodes) the clock is read.
const CLOCK_EVERY: u64 = 1_024;

/// A root move: the chess move (for ordering), the position after it, and its index in the
/// caller's list.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RootMove {
    /// The move as the core sees it.
    pub(crate) mv: Move,
    /// The position after it, on the searched board.
    pub(crate) child: Position,
    /// Its index in the caller's move list.
    pub(crate) index: usize,
}

/// The result of a search.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Outcome {
    /// Index of the chosen move in the caller's list.
    pub(crate) index: usize,
    /// Its score for the side to move.
    pub(crate) score: i32,
    /// The last depth searched to the end.
    pub(crate) depth: u8,
}

/// What bounds one search.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Budget {
    /// The deepest iteration.
    pub(crate) depth: u8,
    /// Stop when this many nodes are searched.
    pub(crate) nodes: u64,
    /// Stop at this instant.
    pub(crate) deadline: Option<Instant>,
    /// Start no new iteration after this instant.
    pub(crate) soft_deadline: Option<Instant>,
    /// Answer a position with one legal move after depth 1 (a bot need not think about a forced
    /// move; an analysis wants its score).
    pub(crate) forced_at_once: bool,
}

/// One search in progress.
pub(crate) struct Search<'a> {
    pub(crate) tt: &'a mut Table,
    pub(crate) heuristics: &'a mut Heuristics,
    /// P3: a drop may not give mate on board.
    pub(crate) forbid_drop_mate: bool,
    pub(crate) nodes: u64,
    budget: Budget,
    pub(crate) stopped: bool,
    /// The hashes of the positions on the current path, by ply (for repetitions).
    path: [u64; MAX_PLY + 1],
    root_depth: i32,
    /// The plies on the current path whose position was reached by a null move (bit per ply): a
    /// repetition is only looked for after the last of them, since a pass is no move of the game.
    nulls: u128,
    /// Late-move reductions by depth and by the move's number in the node (both capped).
    reductions: &'static Reductions,
}

/// The late-move reduction of a quiet move: `0.75 + ln(depth) · ln(number) / 2.25` plies.
pub(crate) struct Reductions([[u8; 64]; 64]);

impl Reductions {
    fn table() -> &'static Reductions {
        static TABLE: std::sync::OnceLock<Reductions> = std::sync::OnceLock::new();
        TABLE.get_or_init(|| {
            let mut t = [[0u8; 64]; 64];
            for (d, row) in t.iter_mut().enumerate().skip(1) {
                for (n, r) in row.iter_mut().enumerate().skip(1) {
                    let plies = 0.75 + (d as f64).ln() * (n as f64).ln() / 2.25;
                    *r = plies.clamp(0.0, 63.0) as u8;
                }
            }
            Reductions(t)
        })
    }

    fn of(&self, depth: i32, number: usize) -> i32 {
        let d = (depth.max(0) as usize).min(63);
        i32::from(self.0[d][number.min(63)])
    }
}

/// Aspiration: the first window around the last iteration's score, from this depth on.
const ASPIRATION_FROM: u8 = 4;
const ASPIRATION_WINDOW: i32 = 40;

impl<'a> Search<'a> {
    /// A search with fresh counters.
    pub(crate) fn new(
        tt: &'a mut Table,
        heuristics: &'a mut Heuristics,
        forbid_drop_mate: bool,
        budget: Budget,
    ) -> Search<'a> {
        tt.new_search();
        heuristics.new_search();
        Search {
            tt,
            heuristics,
            forbid_drop_mate,
            nodes: 0,
            budget,
            stopped: false,
            path: [0; MAX_PLY + 1],
            root_depth: 1,
            nulls: 0,
            reductions: Reductions::table(),
        }
    }

    /// Counts a node and says whether the search must stop (node limit or clock).
    pub(crate) fn tick(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        self.nodes += 1;
        if self.nodes >= self.budget.nodes {
            self.stopped = true;
        } else if self.nodes.is_multiple_of(CLOCK_EVERY)
            && let Some(deadline) = self.budget.deadline
            && Instant::now() >= deadline
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// Iterative deepening over the root moves (not empty). Returns the best move of the last
    /// completed depth — or a better one a stopped iteration had already proved — and, when not even
    /// the first move of depth 1 was searched, the first move in order.
    pub(crate) fn iterate(&mut self, root: &Position, moves: &mut [RootMove]) -> Option<Outcome> {
        if moves.is_empty() {
            return None;
        }
        let hash_move = self.tt.probe(root.zobrist()).and_then(|e| e.mv);
        let heuristics = &*self.heuristics;
        moves.sort_by_cached_key(|m| std::cmp::Reverse(heuristics.score(root, m.mv, hash_move, 0)));
        let mut outcome: Option<Outcome> = None;
        let max_depth =
            if moves.len() == 1 && self.budget.forced_at_once { 1 } else { self.budget.depth.max(1) };
        self.path[0] = root.zobrist();
        for depth in 1..=max_depth {
            self.root_depth = i32::from(depth);
            let previous = outcome.map(|o| o.score);
            let (best, score) = self.aspiration(moves, i32::from(depth), previous);
            if let Some(b) = best {
                let completed = if self.stopped { depth - 1 } else { depth };
                outcome = Some(Outcome { index: moves[b].index, score, depth: completed });
                moves[..=b].rotate_right(1);
                if !self.stopped {
                    self.tt.store(
                        root.zobrist(),
                        Some(moves[0].mv),
                        score,
                        i32::from(depth),
                        Bound::Exact,
                        0,
                    );
                }
            }
            if self.stopped {
                break;
            }
            if is_mate(score) && MATE - score.abs() <= i32::from(depth) {
                break;
            }
            if let Some(soft) = self.budget.soft_deadline
                && Instant::now() >= soft
            {
                break;
            }
        }
        outcome.or_else(|| moves.first().map(|m| Outcome { index: m.index, score: evaluate(root), depth: 0 }))
    }

    /// One iteration in a window around the last one's score, widened on each side that fails
    /// until the score falls inside (or the window is the whole range). A move that failed high
    /// is kept as the best if the search stops before the re-search ends.
    fn aspiration(
        &mut self,
        moves: &mut [RootMove],
        depth: i32,
        previous: Option<i32>,
    ) -> (Option<usize>, i32) {
        let Some(guess) = previous.filter(|s| depth >= i32::from(ASPIRATION_FROM) && !is_mate(*s)) else {
            return self.search_root(moves, depth, -INF, INF);
        };
        let mut delta = ASPIRATION_WINDOW;
        let (mut alpha, mut beta) = (guess - delta, guess + delta);
        let mut kept: Option<(usize, i32)> = None;
        loop {
            let (best, score) = self.search_root(moves, depth, alpha, beta);
            if self.stopped {
                return match (best, kept) {
                    (Some(b), _) if score > alpha => (Some(b), score),
                    (_, Some((b, s))) => (Some(b), s),
                    _ => (None, score),
                };
            }
            if score <= alpha && alpha > -INF {
                alpha = (alpha - delta).max(-INF);
                beta = (alpha + beta) / 2 + delta / 2;
            } else if score >= beta && beta < INF {
                if let Some(b) = best {
                    // Search it first in the wider window: it is the move that failed high.
                    moves[..=b].rotate_right(1);
                    kept = Some((0, score));
                }
                beta = (beta + delta).min(INF);
            } else {
                return (best, score);
            }
            delta += delta / 2 + 20;
            if delta > 1_000 {
                (alpha, beta) = (-INF, INF);
            }
        }
    }

    /// One iteration at the root within `alpha..beta`. Returns the index (in `moves`) of the best
    /// move whose search completed with a score above `alpha`, with that score (or `alpha` when
    /// no move beat it: a fail low).
    fn search_root(
        &mut self,
        moves: &[RootMove],
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> (Option<usize>, i32) {
        let mut best = None;
        for (i, m) in moves.iter().enumerate() {
            let child = m.child;
            let score = if i == 0 {
                -self.negamax(&child, depth - 1, -beta, -alpha, 1, true)
            } else {
                let s = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, 1, true);
                if s > alpha && !self.stopped {
                    -self.negamax(&child, depth - 1, -beta, -alpha, 1, true)
                } else {
                    s
                }
            };
            if self.stopped {
                break;
            }
            if score > alpha {
                alpha = score;
                best = Some(i);
                if alpha >= beta {
                    break;
                }
            }
        }
        (best, alpha)
    }

    /// The score of a position with no legal move: mate on board is a loss (M1), anything else is
    /// waiting (M2, M3).
    pub(crate) fn terminal(pos: &Position, ply: usize) -> i32 {
        if is_mate_on_board(pos) {
            -MATE + ply as i32
        } else {
            (evaluate(pos) - WAIT_PENALTY).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
        }
    }

    /// Whether playing `m` to reach `child` is a drop that the rules forbid because it mates (P3).
    pub(crate) fn forbidden_drop(&self, m: Move, child: &Position) -> bool {
        self.forbid_drop_mate && m.is_drop() && child.is_check() && is_mate_on_board(child)
    }

    /// Whether the position at `ply` repeats one earlier on the path (a draw).
    fn is_repetition(&self, pos: &Position, ply: usize) -> bool {
        let below = self.nulls & ((1u128 << (ply + 1)) - 1);
        let since_null = if below == 0 { ply } else { ply - (127 - below.leading_zeros() as usize) };
        let reversible = (pos.halfmoves() as usize).min(since_null);
        let key = pos.zobrist();
        (4..=reversible).step_by(2).any(|back| self.path.get(ply - back) == Some(&key))
    }

    /// Whether the side to move has something besides pawns to move or drop: then passing is never
    /// better than its best move (no zugzwang), and a null move tells the truth.
    fn may_pass(pos: &Position) -> bool {
        let us = pos.turn();
        let board = pos.board();
        let pieces = board.by_color(us)
            - board.by_piece(chess_core::Role::Pawn.of(us))
            - board.by_piece(chess_core::Role::King.of(us));
        pieces.is_nonempty() || pos.pockets().is_some_and(|p| !p.of(us).is_empty())
    }

    fn negamax(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        null_allowed: bool,
    ) -> i32 {
        if self.tick() {
            return 0;
        }
        let key = pos.zobrist();
        if let Some(slot) = self.path.get_mut(ply) {
            *slot = key;
        }
        if ply >= MAX_PLY - 1 {
            return evaluate(pos);
        }
        if self.is_repetition(pos, ply) {
            return 0;
        }
        // Mate distance pruning: no score here can beat a mate already found nearer the root.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        let in_check = pos.is_check();
        let depth = if in_check && ply < 2 * self.root_depth as usize { depth + 1 } else { depth };
        if depth <= 0 {
            return self.quiesce(pos, alpha, beta, ply);
        }
        let pv = beta - alpha > 1;
        let mut hash_move = None;
        if let Some(e) = self.tt.probe(key) {
            hash_move = e.mv;
            let s = e.score(ply);
            if !pv && e.depth >= depth {
                match e.bound {
                    Bound::Exact => return s,
                    Bound::Lower if s >= beta => return s,
                    Bound::Upper if s <= alpha => return s,
                    _ => {}
                }
            }
        }
        let mut moves = pos.legal_moves();
        if moves.is_empty() {
            return Search::terminal(pos, ply);
        }
        let static_eval = if in_check { -INF } else { evaluate(pos) };
        if !pv && !in_check && depth <= 3 && !is_mate(beta) && static_eval - 100 * depth >= beta {
            return static_eval;
        }
        // Null move: if passing still holds beta at a reduced depth, a real move will too.
        if null_allowed
            && !pv
            && !in_check
            && depth >= 3
            && static_eval >= beta
            && !is_mate(beta)
            && Search::may_pass(pos)
        {
            let r = (3 + depth / 4).min(depth - 1);
            let mut passed = *pos;
            passed.play_null();
            self.nulls |= 1u128 << (ply + 1);
            let s = -self.negamax(&passed, depth - 1 - r, -beta, -beta + 1, ply + 1, false);
            self.nulls &= !(1u128 << (ply + 1));
            if self.stopped {
                return 0;
            }
            if s >= beta {
                return if is_mate(s) { beta } else { s };
            }
        }
        // No hash move to start from in a deep node: search it a ply shallower (the next
        // iteration finds it in the table).
        let depth = if hash_move.is_none() && depth >= 5 { depth - 1 } else { depth };

        let color = pos.turn();
        let mut scores = [0i32; MAX_MOVES];
        for (s, m) in scores.iter_mut().zip(moves.iter()) {
            *s = self.heuristics.score(pos, *m, hash_move, ply);
        }
        let original_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        let mut legal = 0;
        let mut tried = [None::<Move>; 32];
        let mut tried_len = 0;
        for n in 0..moves.len() {
            let Some(m) = pick_next(&mut moves, &mut scores, n) else { break };
            let mut child = *pos;
            child.play_unchecked(m);
            if self.forbidden_drop(m, &child) {
                continue;
            }
            legal += 1;
            let quiet = is_quiet(m);
            let gives_check = child.is_check();
            let prunable = !pv && !in_check && quiet && !gives_check && best > -MATE_BOUND;
            if prunable && depth <= 3 && legal > 4 + 3 * depth * depth {
                continue;
            }
            if prunable && depth <= 2 && static_eval + 150 * depth <= alpha {
                continue;
            }
            let score = if legal == 1 {
                -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, true)
            } else {
                let reduction = if depth >= 3 && quiet && !in_check && !gives_check && legal > 2 {
                    (self.reductions.of(depth, legal as usize) - i32::from(pv)).clamp(0, depth - 2)
                } else {
                    0
                };
                let mut s = -self.negamax(&child, depth - 1 - reduction, -alpha - 1, -alpha, ply + 1, true);
                if s > alpha && reduction > 0 && !self.stopped {
                    s = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, ply + 1, true);
                }
                if s > alpha && s < beta && !self.stopped {
                    s = -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, true);
                }
                s
            };
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        if quiet {
                            self.heuristics.reward(m, color, ply, depth, &tried[..tried_len]);
                        }
                        break;
                    }
                }
            }
            if quiet && tried_len < tried.len() {
                tried[tried_len] = Some(m);
                tried_len += 1;
            }
        }
        if legal == 0 {
            // Every move was a drop that mates, forbidden here (P3): no legal move at all.
            return Search::terminal(pos, ply);
        }
        if best == -INF {
            return static_eval.max(-MATE_BOUND);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(key, best_move, best, depth, bound, ply);
        best
    }
}
