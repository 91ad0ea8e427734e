//! The lobby: every session and every match of the server, indexed by `DashMap`s. A map guard is
//! never held across an `.await`: handles are cloned out first.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use bughouse::RuleOptions;
use bughouse_match::{ClockConfig, Match, MatchConfig, PlayerId};
use dashmap::DashMap;
use shvedka_proto::{ErrorCode, ErrorMsg, MatchId, MatchSummary, PhaseView};
use tokio::time::Instant;

use crate::convert::error;
use crate::room::{Room, RoomHandle, Session};

pub(crate) struct Lobby {
    pub(crate) rooms: DashMap<MatchId, RoomHandle>,
    pub(crate) sessions: DashMap<String, Arc<Session>>,
    next_match: AtomicU64,
    next_player: AtomicU64,
    clock: ClockConfig,
    max_matches: usize,
    pub(crate) started: Instant,
}

impl Lobby {
    pub(crate) fn new(clock: ClockConfig, max_matches: usize) -> Lobby {
        Lobby {
            rooms: DashMap::new(),
            sessions: DashMap::new(),
            next_match: AtomicU64::new(1),
            next_player: AtomicU64::new(1),
            clock,
            max_matches,
            started: Instant::now(),
        }
    }

    pub(crate) fn new_session(&self, name: String) -> Arc<Session> {
        let token = new_token();
        let session = Arc::new(Session {
            token: token.clone(),
            name,
            player: PlayerId(self.next_player.fetch_add(1, Ordering::Relaxed)),
            room: Default::default(),
            lagging: Default::default(),
        });
        self.sessions.insert(token, session.clone());
        session
    }

    pub(crate) fn session(&self, token: &str) -> Option<Arc<Session>> {
        self.sessions.get(token).map(|s| s.clone())
    }

    pub(crate) fn room(&self, id: MatchId) -> Result<RoomHandle, ErrorMsg> {
        self.rooms
            .get(&id)
            .map(|r| r.clone())
            .ok_or_else(|| error(ErrorCode::NoSuchMatch, format!("no match {id}")))
    }

    pub(crate) fn create(&self, rules: &str, time_control: &str, listed: bool) -> Result<MatchId, ErrorMsg> {
        let bad = |e: String| error(ErrorCode::BadRequest, e);
        let rules = RuleOptions::preset(rules).map_err(|e| bad(e.to_string()))?;
        let tc = self.clock.time_control(time_control).map_err(|e| bad(e.to_string()))?;
        if self.rooms.len() >= self.max_matches {
            return Err(error(ErrorCode::Full, "the server holds as many matches as it may"));
        }
        let config = MatchConfig {
            rules,
            time_control: tc,
            lag: self.clock.lag,
            countdown: self.clock.countdown(),
            start: None,
        };
        let m = Match::new(config).map_err(|e| bad(e.to_string()))?;
        let id = MatchId(self.next_match.fetch_add(1, Ordering::Relaxed));
        self.rooms.insert(id, Room::spawn(id, m, self.started, listed));
        Ok(id)
    }

    /// Listed matches that are not over, by id.
    pub(crate) fn list(&self) -> Vec<MatchSummary> {
        let mut v: Vec<MatchSummary> = self
            .rooms
            .iter()
            .filter(|r| r.listed)
            .map(|r| r.summary.lock().expect("summary lock").clone())
            .filter(|s| !matches!(s.phase, PhaseView::Ended | PhaseView::Annulled))
            .collect();
        v.sort_by_key(|s| s.match_id);
        v
    }
}

/// 128 random bits as hex.
fn new_token() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the system random source works");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
