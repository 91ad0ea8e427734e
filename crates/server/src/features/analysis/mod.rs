//! The engine's analysis of a position for review and for the arbiter (`ClientMsg::Analyse`,
//! PROTOCOL.md item 23): both boards searched under the position's rules by the bot's engine.
//!
//! Analysis must never delay a move, and nothing one address does may shut others out, so:
//! - the search runs on one thread of its own at the lowest priority (`engine`), never on the
//!   runtime that carries the matches;
//! - at most `max_analyses_queued` positions wait for it (a bounded channel), and at most
//!   `analyses_per_address` of them from one address (IPv6: its /64); past either the request is
//!   refused at once with `Limit(Analyses)`, not queued;
//! - a player seated in a match in play is refused (`Busy(Playing)`): the engine is for review;
//! - each board is searched to `analysis_nodes` nodes, so an answer is deterministic and is kept
//!   in a cache by rules and position ([`CACHE_ENTRIES`], oldest out first); the clocks of a
//!   request only decide `short_of_time`, so they are not part of the key.

mod engine;

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use bughouse::{Game, RuleOptions, Seat};
use shvedka_proto::{AnalysisRequest, AnalysisView, BoardAnalysis, ErrorCode, ErrorMsg, Invalid, Limit};
use tokio::sync::oneshot;

use crate::service::addresses::AtOnce;
use crate::service::convert::{error, seat_id};
use crate::service::metrics::{Metrics, Refusal};

/// Positions whose analysis the server keeps.
pub(crate) const CACHE_ENTRIES: usize = 4_096;

/// Below this on its clock the side to move is short of time (`BoardAnalysis::short_of_time`).
pub(crate) const SHORT_OF_TIME: Duration = Duration::from_secs(10);

/// The settings of the analysis (`config/default.toml`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct AnalysisLimits {
    /// `max_analyses_queued`.
    pub(crate) queued: usize,
    /// `analyses_per_address`.
    pub(crate) per_address: usize,
    /// `analysis_nodes`.
    pub(crate) nodes: u64,
}

/// The server's analyst: admission, the cache and the thread.
pub(crate) struct Analyst {
    jobs: std::sync::mpsc::SyncSender<engine::Job>,
    metrics: Arc<Metrics>,
    per_address: Arc<AtOnce>,
    cache: Mutex<Cache>,
}

impl Analyst {
    /// Starts the analysis thread.
    ///
    /// # Errors
    /// When the thread cannot be started.
    pub(crate) fn start(limits: AnalysisLimits, metrics: Arc<Metrics>) -> std::io::Result<Analyst> {
        let jobs = engine::spawn(limits.queued, limits.nodes, metrics.clone())?;
        Ok(Analyst::with_thread(jobs, limits, metrics))
    }

    fn with_thread(
        jobs: std::sync::mpsc::SyncSender<engine::Job>,
        limits: AnalysisLimits,
        metrics: Arc<Metrics>,
    ) -> Analyst {
        Analyst {
            jobs,
            metrics,
            per_address: AtOnce::new(limits.per_address.max(1)),
            cache: Mutex::new(Cache::default()),
        }
    }

    /// The analysis of `req`'s position, for a client at `remote`.
    ///
    /// # Errors
    /// `Invalid(RulePreset)`, `Invalid(Position)`, `Limit(Analyses)`; `Unavailable` if the
    /// analysis thread is gone.
    pub(crate) async fn analyse(
        &self,
        req: AnalysisRequest,
        remote: IpAddr,
    ) -> Result<AnalysisView, ErrorMsg> {
        let rules = RuleOptions::preset(&req.rules).and_then(|o| o.rules()).map_err(|_| {
            error(ErrorCode::Invalid(Invalid::RulePreset), format!("no rules preset {:?}", req.rules))
        })?;
        let game = Game::from_bfen(&req.bfen, rules).map_err(|e| {
            error(ErrorCode::Invalid(Invalid::Position), format!("the position does not read: {e}"))
        })?;
        let key = format!("{}|{}", req.rules, game.bfen());
        if let Some(boards) = self.cached(&key) {
            return Ok(view(req, &game, boards));
        }
        let full = || {
            self.metrics.refused(Refusal::Analyses);
            error(ErrorCode::Limit(Limit::Analyses), "the server's engine is busy; ask again in a moment")
        };
        let held = self.per_address.take(remote).ok_or_else(full)?;
        let (reply, answer) = oneshot::channel();
        self.jobs.try_send(engine::Job { game, reply }).map_err(|e| match e {
            std::sync::mpsc::TrySendError::Full(_) => full(),
            std::sync::mpsc::TrySendError::Disconnected(_) => gone(),
        })?;
        let _pending = self.metrics.analysis_pending();
        let boards = answer.await.map_err(|_| gone())?.map_err(|engine::Failed| {
            error(ErrorCode::Unavailable, "the server's engine failed on this position")
        })?;
        drop(held);
        self.cache.lock().unwrap_or_else(PoisonError::into_inner).put(key, boards.clone());
        Ok(view(req, &game, boards))
    }

    fn cached(&self, key: &str) -> Option<[BoardAnalysis; 2]> {
        self.cache.lock().unwrap_or_else(PoisonError::into_inner).map.get(key).cloned()
    }
}

/// The same analysis on the caller's thread, for the arbiter's command line (`shvedka arbiter
/// analyse`): both boards of `game` searched to `nodes` nodes each, `short_of_time` read from
/// `clocks_ms` when given.
pub fn analyse_here(game: &Game, nodes: u64, clocks_ms: Option<[u64; 4]>) -> [BoardAnalysis; 2] {
    let mut boards = engine::analyse_game(
        &mut shvedka_engine::Engine::new(engine::LEVEL),
        game,
        shvedka_engine::Limits { time: None, nodes: Some(nodes), depth: None },
    );
    mark_short_of_time(game, clocks_ms, &mut boards);
    boards
}

fn gone() -> ErrorMsg {
    tracing::error!("the analysis thread is gone");
    error(ErrorCode::Unavailable, "the server's engine is not running")
}

/// The answer, with the request's clocks read for the side to move on each board.
fn view(req: AnalysisRequest, game: &Game, mut boards: [BoardAnalysis; 2]) -> AnalysisView {
    mark_short_of_time(game, req.clocks_ms, &mut boards);
    AnalysisView { bfen: req.bfen, boards }
}

fn mark_short_of_time(game: &Game, clocks_ms: Option<[u64; 4]>, boards: &mut [BoardAnalysis; 2]) {
    let Some(clocks) = clocks_ms else { return };
    for (board, view) in [bughouse::BoardId::A, bughouse::BoardId::B].into_iter().zip(boards) {
        let seat = seat_id(Seat::new(board, game.board(board).turn()));
        view.short_of_time = Duration::from_millis(clocks[seat.index()]) < SHORT_OF_TIME;
    }
}

/// Answers by rules and position, the oldest forgotten first.
#[derive(Default)]
struct Cache {
    map: HashMap<String, [BoardAnalysis; 2]>,
    order: VecDeque<String>,
}

impl Cache {
    fn put(&mut self, key: String, boards: [BoardAnalysis; 2]) {
        if self.map.insert(key.clone(), boards).is_none() {
            self.order.push_back(key);
        }
        while self.order.len() > CACHE_ENTRIES {
            if let Some(old) = self.order.pop_front() {
                self.map.remove(&old);
            }
        }
    }
}

#[cfg(test)]
mod tests;
