//! The engine: its public face ([`Engine`], [`Choice`]) over the search, the transposition table
//! and the ordering heuristics it keeps between moves.

use std::time::{Duration, Instant};

use bughouse::{BoardId, BughouseMove, DropMate, Game};

use crate::limits::{self, Limits, SAFETY_TIME};
use crate::ordering::Heuristics;
use crate::search::{Budget, RootMove, Search};
use crate::tt::Table;

/// The transposition table has `2^TABLE_BITS` entries (about 3 MB).
const TABLE_BITS: u32 = 17;

/// The move the engine chose, with what the search found out about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The move, one of `Game::legal_moves` of the board.
    pub mv: BughouseMove,
    /// Its score in centipawns for the side to move; beyond `±(MATE − 1000)` it is a mate score,
    /// [`MATE`](crate::MATE) minus the plies to mate.
    pub score: i32,
    /// The last depth searched to the end (0 when not even depth 1 finished).
    pub depth: u8,
    /// The nodes searched.
    pub nodes: u64,
}

/// A bughouse move search for one seat, reusable from move to move (it keeps its transposition
/// table and move-ordering history).
#[derive(Debug)]
pub struct Engine {
    level: u8,
    pub(crate) tt: Table,
    pub(crate) heuristics: Box<Heuristics>,
}

impl Engine {
    /// An engine of a level from 1 (fastest, weakest) to 5 (strongest); other values are clamped.
    pub fn new(level: u8) -> Engine {
        Engine {
            level: level.clamp(1, limits::MAX_LEVEL),
            tt: Table::new(TABLE_BITS),
            heuristics: Box::new(Heuristics::new()),
        }
    }

    /// The level, 1 to 5.
    pub fn level(&self) -> u8 {
        self.level
    }

    /// The limits for one move at this level, with `remaining` on the bot's clock and `increment`
    /// added per move: a share of the clock (larger at higher levels) plus most of the increment,
    /// at least 20 ms, never more than a tenth of the remaining time nor the level's cap (from
    /// 0.1 s at level 1 to 2 s at level 5), and the level's depth cap.
    pub fn limits_for(&self, remaining: Duration, increment: Duration) -> Limits {
        limits::limits_for(self.level, remaining, increment)
    }

    /// Chooses a move for the side to move on `board`: always one of `game.legal_moves(board)`,
    /// or `None` when that list is empty (mate on board, or waiting: M2, M3). The search stops at
    /// the first of the limits and the level's depth cap, and answers with the best move of the
    /// last depth it finished (or the first move in its order if it finished none).
    pub fn choose(&mut self, game: &Game, board: BoardId, limits: Limits) -> Option<Choice> {
        self.search_board(game, board, self.budget(limits))
    }

    /// The search behind [`Engine::choose`], under a budget already made.
    pub(crate) fn search_board(&mut self, game: &Game, board: BoardId, budget: Budget) -> Option<Choice> {
        let legal = game.legal_moves(board);
        let mut roots: Vec<RootMove> = legal
            .iter()
            .enumerate()
            .map(|(index, bm)| {
                let mut after = *game;
                after.play_unchecked(*bm);
                RootMove { mv: bm.mv, child: *after.board(board), index }
            })
            .collect();
        let forbid = game.rules().drop_mate == DropMate::Forbidden;
        let mut search = Search::new(&mut self.tt, &mut self.heuristics, forbid, budget);
        let outcome = search.iterate(game.board(board), &mut roots)?;
        let nodes = search.nodes;
        let mv = legal.get(outcome.index).or(legal.first()).copied()?;
        Some(Choice { mv, score: outcome.score, depth: outcome.depth, nodes })
    }

    /// The budget of one search under `limits` at this level, starting now.
    pub(crate) fn budget(&self, limits: Limits) -> Budget {
        let depth = limits.depth.unwrap_or(u8::MAX).min(limits::profile(self.level).depth).max(1);
        let time = match (limits.time, limits.nodes) {
            (None, None) => Some(SAFETY_TIME),
            (time, _) => time,
        };
        let now = Instant::now();
        Budget {
            depth,
            nodes: limits.nodes.unwrap_or(u64::MAX),
            deadline: time.and_then(|t| now.checked_add(t)),
            // No new iteration after half the time: it would most likely not finish.
            soft_deadline: time.and_then(|t| now.checked_add(t / 2)),
            forced_at_once: true,
        }
    }
}
