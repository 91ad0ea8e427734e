//! The lobby: every session and every match of the server, indexed by `DashMap`s. A map guard is
//! never held across an `.await`: handles are cloned out first.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use bughouse::RuleOptions;
use bughouse_match::{ClockConfig, Match, MatchConfig, PlayerId};
use dashmap::DashMap;
use shvedka_proto::{ErrorCode, ErrorMsg, MatchId, MatchSummary, PhaseView};
use tokio::time::Instant;

use crate::convert::error;
use crate::restore;
use crate::room::{Restored, Room, RoomHandle, Session};
use shvedka_storage::{NewMatch, PlayerRow, Store};

pub(crate) struct Lobby {
    pub(crate) rooms: DashMap<MatchId, RoomHandle>,
    /// Sessions by the SHA-256 of their token (the token itself is known only to its client).
    pub(crate) sessions: DashMap<String, Arc<Session>>,
    next_match: AtomicU64,
    next_player: AtomicU64,
    clock: ClockConfig,
    max_matches: usize,
    pub(crate) started: Instant,
    pub(crate) store: Arc<dyn Store>,
    /// SHA-256 of the arbiters' secret, if the role is enabled.
    pub(crate) arbiter_key: Option<String>,
    /// Where decided matches' BPGN files go.
    records_dir: Option<std::path::PathBuf>,
}

impl Lobby {
    /// The lobby over `store`: every stored player's session, and every undecided match rebuilt
    /// from its log, paused until its players are back (see `Room::spawn`).
    pub(crate) async fn open(
        clock: ClockConfig,
        max_matches: usize,
        store: Arc<dyn Store>,
        arbiter_token: &str,
        records_dir: Option<std::path::PathBuf>,
    ) -> anyhow::Result<Lobby> {
        let (max_match, max_player) = store.max_ids().await?;
        let lobby = Lobby {
            rooms: DashMap::new(),
            sessions: DashMap::new(),
            next_match: AtomicU64::new(max_match + 1),
            next_player: AtomicU64::new(max_player + 1),
            clock,
            max_matches,
            started: Instant::now(),
            store,
            arbiter_key: (!arbiter_token.is_empty()).then(|| token_key(arbiter_token)),
            records_dir,
        };
        let mut names = HashMap::new();
        for p in lobby.store.players().await? {
            names.insert(PlayerId(p.id), p.name.clone());
            let session = Arc::new(Session::new(p.token_hash.clone(), p.name, PlayerId(p.id)));
            lobby.sessions.insert(p.token_hash, session);
        }
        for row in lobby.store.matches(true).await? {
            let id = MatchId(row.created.id);
            match restore::rebuild(&*lobby.store, &row).await {
                Ok(rebuilt) => {
                    for player in rebuilt.m.seats().into_iter().flatten() {
                        if let Some(s) = lobby.sessions.iter().find(|s| s.player == player) {
                            s.set_room(Some(id));
                        }
                    }
                    let seat_names = rebuilt.m.seats().map(|p| p.and_then(|p| names.get(&p).cloned()));
                    tracing::info!(match_id = %id, events = rebuilt.views.len(), "match restored from its log");
                    let handle = Room::spawn(
                        id,
                        rebuilt.m,
                        lobby.started,
                        row.created.listed,
                        lobby.store.clone(),
                        lobby.records_dir.clone(),
                        Some(Restored { views: rebuilt.views, names: seat_names }),
                    );
                    lobby.rooms.insert(id, handle);
                }
                Err(e) => {
                    tracing::error!(match_id = %id, error = %e, "cannot restore the match; left as stored")
                }
            }
        }
        Ok(lobby)
    }

    /// A new session, recorded before it is answered; gives the session and its token.
    pub(crate) async fn new_session(&self, name: String) -> Result<(Arc<Session>, String), String> {
        let token = new_token();
        let key = token_key(&token);
        let player = PlayerId(self.next_player.fetch_add(1, Ordering::Relaxed));
        let row =
            PlayerRow { id: player.0, name: name.clone(), token_hash: key.clone(), created_ms: unix_ms() };
        self.store.add_player(&row).await.map_err(|e| {
            tracing::error!(error = %e, "cannot record a new session");
            "the server cannot record the session now; try again".to_owned()
        })?;
        let session = Arc::new(Session::new(key.clone(), name, player));
        self.sessions.insert(key, session.clone());
        Ok((session, token))
    }

    pub(crate) fn session(&self, token: &str) -> Option<Arc<Session>> {
        self.sessions.get(&token_key(token)).map(|s| s.clone())
    }

    pub(crate) fn room(&self, id: MatchId) -> Result<RoomHandle, ErrorMsg> {
        self.rooms
            .get(&id)
            .map(|r| r.clone())
            .ok_or_else(|| error(ErrorCode::NoSuchMatch, format!("no match {id}")))
    }

    pub(crate) async fn create(
        &self,
        rules: &str,
        time_control: &str,
        listed: bool,
    ) -> Result<MatchId, ErrorMsg> {
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
        let m = Match::new(config.clone()).map_err(|e| bad(e.to_string()))?;
        let id = MatchId(self.next_match.fetch_add(1, Ordering::Relaxed));
        let row = NewMatch {
            id: id.0,
            rules: config.rules.name.clone(),
            time_control: config.time_control.to_string(),
            listed,
            config: serde_json::to_string(&config).map_err(|e| bad(e.to_string()))?,
            created_ms: unix_ms(),
        };
        self.store.add_match(&row).await.map_err(|e| {
            tracing::error!(error = %e, "cannot record a new match");
            error(ErrorCode::Full, "the server cannot record a new match now; try again")
        })?;
        self.rooms.insert(
            id,
            Room::spawn(id, m, self.started, listed, self.store.clone(), self.records_dir.clone(), None),
        );
        Ok(id)
    }

    /// The BPGN of a match that is only in the database, if it is there and replays.
    pub(crate) async fn stored_record(&self, id: MatchId) -> Result<Option<String>, ErrorMsg> {
        let unavailable = |e: String| {
            tracing::error!(match_id = %id, error = %e, "cannot read a stored match");
            error(ErrorCode::Full, "the stored match cannot be read now")
        };
        let Some(row) = self.store.find_match(id.0).await.map_err(|e| unavailable(e.to_string()))? else {
            return Ok(None);
        };
        let rebuilt = restore::rebuild(&*self.store, &row).await.map_err(|e| unavailable(e.to_string()))?;
        let names = rebuilt
            .m
            .seats()
            .map(|p| p.and_then(|p| self.sessions.iter().find(|s| s.player == p).map(|s| s.name.clone())));
        let date = crate::record::date_of(row.created.created_ms);
        Ok(Some(crate::record::record(id.0, &rebuilt.m, &names, &date).to_bpgn()))
    }

    /// Matches that are not over, by id: the listed ones, or (for an arbiter) all.
    pub(crate) fn list(&self, unlisted_too: bool) -> Vec<MatchSummary> {
        let mut v: Vec<MatchSummary> = self
            .rooms
            .iter()
            .filter(|r| r.listed || unlisted_too)
            .map(|r| r.summary.lock().expect("summary lock").clone())
            .filter(|s| !matches!(s.phase, PhaseView::Ended | PhaseView::Annulled))
            .collect();
        v.sort_by_key(|s| s.match_id);
        v
    }
}

/// The SHA-256 of a secret, lower-case hex: what is stored and compared instead of the secret.
pub(crate) fn token_key(token: &str) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(token.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// Milliseconds since the Unix epoch.
pub(crate) fn unix_ms() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

/// 128 random bits as hex.
fn new_token() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the system random source works");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
