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
use crate::room::{Restored, Room, RoomHandle, RoomSetup, Session};
use crate::tournaments::Tournaments;
use shvedka_storage::{NewMatch, PlayerRow, Store};

/// The roles' secrets from the configuration (empty: the role is disabled).
pub(crate) struct Secrets<'a> {
    pub(crate) arbiter: &'a str,
    pub(crate) director: &'a str,
}

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
    /// SHA-256 of the tournament directors' secret, if the role is enabled.
    pub(crate) director_key: Option<String>,
    pub(crate) tournaments: Tournaments,
}

impl Lobby {
    /// The lobby over `store`: every stored player's session, and every undecided match rebuilt
    /// from its log, paused until its players are back (see `Room::spawn`).
    pub(crate) async fn open(
        clock: ClockConfig,
        max_matches: usize,
        store: Arc<dyn Store>,
        secrets: Secrets<'_>,
        records_dir: Option<std::path::PathBuf>,
    ) -> anyhow::Result<Lobby> {
        let stored = crate::tournaments::load(store.tournaments().await?);
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
            arbiter_key: (!secrets.arbiter.is_empty()).then(|| token_key(secrets.arbiter)),
            records_dir,
            director_key: (!secrets.director.is_empty()).then(|| token_key(secrets.director)),
            tournaments: Tournaments::new(stored),
        };
        let mut by_player = HashMap::new();
        for p in lobby.store.players().await? {
            let session = Arc::new(Session::new(p.token_hash.clone(), p.name, PlayerId(p.id)));
            by_player.insert(session.player, session.clone());
            lobby.sessions.insert(p.token_hash, session);
        }
        // Tournament games keep their reserved seats across a restart.
        let mut reserved = lobby.tournaments.reservations().await;
        for row in lobby.store.matches(true).await? {
            let id = MatchId(row.created.id);
            match restore::rebuild(&*lobby.store, &row).await {
                Ok(rebuilt) => {
                    let seated = rebuilt.m.seats().map(|p| p.and_then(|p| by_player.get(&p)));
                    for s in seated.iter().flatten() {
                        s.set_room(Some(id));
                    }
                    let seat_names = seated.map(|s| s.map(|s| s.name.clone()));
                    tracing::info!(match_id = %id, events = rebuilt.views.len(), "match restored from its log");
                    let setup = RoomSetup {
                        listed: row.created.listed,
                        store: lobby.store.clone(),
                        records_dir: lobby.records_dir.clone(),
                        reserved: reserved.remove(&id),
                        restored: Some(Restored { views: rebuilt.views, names: seat_names }),
                    };
                    let handle = Room::spawn(id, rebuilt.m, lobby.started, setup);
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
        self.create_with(rules, time_control, listed, None).await
    }

    /// A tournament game: a listed match whose four seats only the named players may take.
    pub(crate) async fn create_reserved(
        &self,
        rules: &str,
        time_control: &str,
        names: [String; 4],
    ) -> Result<MatchId, ErrorMsg> {
        self.create_with(rules, time_control, true, Some(names)).await
    }

    /// A time control by name or spec, as this server reads it.
    pub(crate) fn time_control(&self, text: &str) -> Result<bughouse_match::TimeControl, ErrorMsg> {
        self.clock.time_control(text).map_err(|e| error(ErrorCode::BadRequest, e.to_string()))
    }

    /// A match's decision: from its live room, or from the database.
    pub(crate) async fn result_of(
        &self,
        id: MatchId,
    ) -> Result<Option<(bughouse::MatchResult, String)>, ErrorMsg> {
        if let Ok(room) = self.room(id) {
            let decided = *room.decided.lock().expect("decided lock");
            return Ok(decided.map(|a| (a.result, a.to_string())));
        }
        let row = self.store.find_match(id.0).await.map_err(|e| error(ErrorCode::Full, e.to_string()))?;
        Ok(row
            .and_then(|r| r.result)
            .and_then(|json| serde_json::from_str::<bughouse::Adjudication>(&json).ok())
            .map(|a| (a.result, a.to_string())))
    }

    /// A match's BPGN: from its live room, or rebuilt from the database.
    pub(crate) async fn record_of(&self, id: MatchId) -> Result<Option<String>, ErrorMsg> {
        match self.room(id) {
            Ok(room) => {
                let (reply, rx) = tokio::sync::oneshot::channel();
                if room.tx.send(crate::room::RoomMsg::Record { reply }).await.is_err() {
                    return Ok(None);
                }
                Ok(rx.await.ok())
            }
            Err(_) => self.stored_record(id).await,
        }
    }

    async fn create_with(
        &self,
        rules: &str,
        time_control: &str,
        listed: bool,
        reserved: Option<[String; 4]>,
    ) -> Result<MatchId, ErrorMsg> {
        let bad = |e: String| error(ErrorCode::BadRequest, e);
        let rules = RuleOptions::preset(rules).map_err(|e| bad(e.to_string()))?;
        let tc = self.time_control(time_control)?;
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
            Room::spawn(
                id,
                m,
                self.started,
                RoomSetup {
                    listed,
                    store: self.store.clone(),
                    records_dir: self.records_dir.clone(),
                    reserved,
                    restored: None,
                },
            ),
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
