//! The live matches: a registry of match tasks by id, bounded by `max_matches`, which forgets a
//! match when its task ends (decided, annulled, expired, or failed). What the store already has
//! — results, records, the logs of finished matches — is read from the store, not kept here.
//! A map guard is never held across an `.await`: handles are cloned out first.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Weak};
use std::time::Duration;

use bughouse::RuleOptions;
use bughouse_match::{ClockConfig, Match, MatchConfig, Phase, PlayerId};
use dashmap::DashMap;
use shvedka_proto::{ClientMsg, ErrorCode, ErrorMsg, Limit, MatchId, MatchSummary, PhaseView, SeatId};
use shvedka_storage::{IdKind, NewMatch, Store, Take};
use tokio::sync::oneshot;
use tokio::time::Instant;

use crate::service::committer::Committer;
use crate::service::convert::error;
use crate::service::hooks::{Decided, MatchHooks};
use crate::service::invitations;
use crate::service::metrics::{Metrics, Refusal};
use crate::service::outbound::Outbound;
use crate::service::restore;
use crate::service::room::{Reserved, Restored, Room, RoomHandle, RoomMsg, RoomSetup};
use crate::service::session::{Session, Sessions};
use crate::service::wall::unix_ms;

/// The limits and settings of matches, from the server's configuration.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MatchLimits {
    /// `max_matches`: live matches at once.
    pub(crate) max_matches: usize,
    /// `max_open_matches_per_session`: forming matches one session may have created.
    pub(crate) max_open_per_session: usize,
    /// `forming_expiry_s`: how long a forming match may go with no seated player connected.
    pub(crate) forming_expiry: Duration,
    /// `list_page_max`: the most matches in one page of the list.
    pub(crate) page_max: usize,
}

/// What kind of match a new one is.
#[derive(Clone, Copy, Debug)]
struct Kind {
    /// Shown in the lobby list (otherwise private, reached by its invitation code).
    listed: bool,
    /// From a Chess960 start.
    chess960: bool,
    /// Rated.
    rated: bool,
}

/// Every live match.
pub(crate) struct Rooms {
    map: DashMap<MatchId, RoomHandle>,
    /// The live private matches: the SHA-256 of each one's invitation code.
    private: DashMap<MatchId, String>,
    /// The codes of the private matches this process created (kept in memory only, never
    /// stored): the server's own bots redeem them to sit (`FillWithBots`).
    codes: DashMap<MatchId, String>,
    next_match: AtomicU64,
    limits: MatchLimits,
    clock: ClockConfig,
    pub(crate) store: Arc<dyn Store>,
    committer: Committer,
    sessions: Arc<Sessions>,
    /// Where decided matches' BPGN files go.
    records_dir: Option<std::path::PathBuf>,
    /// Whether the server has arbiters.
    arbiters: bool,
    started: Instant,
    metrics: Arc<Metrics>,
    /// What the layers above hear of decided and ended matches.
    hooks: Arc<dyn MatchHooks>,
    me: Weak<Rooms>,
}

/// How the registry is set up.
pub(crate) struct RoomsSetup {
    pub(crate) limits: MatchLimits,
    pub(crate) clock: ClockConfig,
    pub(crate) store: Arc<dyn Store>,
    pub(crate) sessions: Arc<Sessions>,
    pub(crate) records_dir: Option<std::path::PathBuf>,
    pub(crate) arbiters: bool,
    pub(crate) started: Instant,
    pub(crate) metrics: Arc<Metrics>,
    pub(crate) hooks: Arc<dyn MatchHooks>,
}

impl Rooms {
    /// The registry, with every undecided match rebuilt from its log and its seated players'
    /// sessions (paused until they are back; see [`Room::new`]). `reserved` gives tournament
    /// games their seats back. Start-up reads the live matches and their players only.
    pub(crate) async fn open(
        setup: RoomsSetup,
        mut reserved: HashMap<MatchId, [String; 4]>,
    ) -> anyhow::Result<Arc<Rooms>> {
        let (max_match, _) = setup.store.max_ids().await?;
        let store = setup.store;
        let rooms = Arc::new_cyclic(|me| Rooms {
            map: DashMap::new(),
            private: DashMap::new(),
            codes: DashMap::new(),
            next_match: AtomicU64::new(max_match + 1),
            limits: setup.limits,
            clock: setup.clock,
            committer: Committer::spawn(store.clone(), setup.metrics.clone()),
            store: store.clone(),
            sessions: setup.sessions,
            records_dir: setup.records_dir,
            arbiters: setup.arbiters,
            started: setup.started,
            metrics: setup.metrics,
            hooks: setup.hooks,
            me: me.clone(),
        });
        for row in rooms.store.matches(true).await? {
            let id = MatchId(row.created.id);
            let seats = reserved.remove(&id);
            rooms.restore(&row, seats).await?;
        }
        Ok(rooms)
    }

    /// Rebuilds an undecided match from its log and runs it, paused until its players are back.
    /// A node of a cluster first takes the match's lease, and leaves a match another live node
    /// runs alone. `false` when the match is not run here.
    async fn restore(
        &self,
        row: &shvedka_storage::MatchRow,
        reserved: Option<[String; 4]>,
    ) -> anyhow::Result<bool> {
        let id = MatchId(row.created.id);
        if let Some(leases) = self.store.leases() {
            match leases.take_lease(id.0).await? {
                Take::Taken { fence } => tracing::info!(match_id = %id, fence, "lease taken"),
                Take::Held { node } => {
                    tracing::debug!(match_id = %id, node, "the match runs on another node");
                    return Ok(false);
                }
            }
        }
        let rebuilt = match restore::rebuild(&*self.store, row).await {
            Ok(rebuilt) => rebuilt,
            Err(e) => {
                // A node of a cluster keeps its lease: another node could not replay this log
                // either, and would only try again and again.
                tracing::error!(match_id = %id, error = %e, "cannot restore the match; left as stored");
                return Ok(false);
            }
        };
        // Its log ends the match, but the row does not say so (its task died recording it):
        // rate it (once) and record it now; it is not live.
        let ended = match rebuilt.m.phase() {
            Phase::Ended(adj) => {
                if row.created.rated {
                    let (names, _) = restore::names(&rebuilt.views);
                    let winner = crate::service::convert::result(adj).winner;
                    self.rate(id, &rebuilt.m.config().time_control, &names, winner).await?;
                }
                let result = serde_json::to_string(adj).expect("results serialize");
                self.store.finish(id.0, &result, unix_ms()).await?;
                true
            }
            Phase::Annulled => {
                self.store.end_match(id.0, shvedka_storage::Ending::Annulled, unix_ms()).await?;
                true
            }
            _ => false,
        };
        if ended {
            if let Some(leases) = self.store.leases() {
                leases.release_lease(id.0).await?;
            }
            return Ok(false);
        }
        let mut seated = Vec::new();
        for player in rebuilt.m.seats().into_iter().flatten() {
            if let Some(s) = self.sessions.restore(player, id).await? {
                seated.push(s);
            }
        }
        let (names, kinds) = restore::names(&rebuilt.views);
        tracing::info!(match_id = %id, events = rebuilt.views.len(), "match restored from its log");
        let restored = Restored { views: rebuilt.views, names, kinds, seated };
        if let Some(hash) = &row.created.invite_hash {
            self.private.insert(id, hash.clone());
        }
        let setup = self.setup(
            row.created.listed,
            row.created.rated,
            None,
            reserved.map(Reserved::Names),
            Some(restored),
        );
        self.spawn(id, rebuilt.m, setup, None);
        Ok(true)
    }

    /// Cluster mode: runs a match no live node runs (its node stopped, and its lease ran out),
    /// rebuilt from its log and paused as after a restart, so the outage is charged to nobody.
    /// `false` when it is live here already, decided, or another node was quicker, or when this
    /// node holds `max_matches` already.
    pub(crate) async fn take_over(&self, id: MatchId, reserved: Option<[String; 4]>) -> anyhow::Result<bool> {
        if self.map.contains_key(&id) {
            return Ok(false);
        }
        if self.map.len() >= self.limits.max_matches {
            // Full (max_matches): another node may take it.
            return Ok(false);
        }
        let Some(row) = self.store.find_match(id.0).await? else { return Ok(false) };
        if row.finished_ms.is_some() {
            return Ok(false);
        }
        self.restore(&row, reserved).await
    }

    fn setup(
        &self,
        listed: bool,
        rated: bool,
        creator: Option<PlayerId>,
        reserved: Option<Reserved>,
        restored: Option<Restored>,
    ) -> RoomSetup {
        RoomSetup {
            listed,
            rated,
            hooks: self.hooks.clone(),
            creator,
            store: self.store.clone(),
            committer: self.committer.clone(),
            sessions: self.sessions.clone(),
            started: self.started,
            records_dir: self.records_dir.clone(),
            reserved,
            arbiters: self.arbiters,
            expiry: self.limits.forming_expiry,
            metrics: self.metrics.clone(),
            restored,
        }
    }

    /// Starts a match task (with `first` already in its queue), and forgets the match when the
    /// task ends, however it ends.
    fn spawn(&self, id: MatchId, m: Match, setup: RoomSetup, first: Option<RoomMsg>) -> RoomHandle {
        let (room, handle) = Room::new(id, m, setup);
        if let Some(msg) = first {
            // The queue is empty: this cannot fail, and the task sees it before it can end.
            let _ = handle.tx.try_send(msg);
        }
        self.map.insert(id, handle.clone());
        let task = tokio::spawn(room.run());
        let me = self.me.clone();
        tokio::spawn(async move {
            let finished = match task.await {
                Ok(finished) => finished,
                Err(e) => {
                    tracing::error!(match_id = %id, error = %e, "the match task died; its followers are freed");
                    None
                }
            };
            if let Some(rooms) = me.upgrade() {
                if let Some(f) = finished {
                    // Who played it, for their lists of recent matches (a lost write only leaves
                    // the match out of those lists).
                    let names = f.players.clone().map(|(_, name)| name);
                    if let Err(e) = rooms.store.add_match_players(id.0, &names).await {
                        tracing::warn!(match_id = %id, error = %e, "cannot note a match's players");
                    }
                    rooms.hooks.ended(f);
                }
                rooms.map.remove(&id);
                rooms.private.remove(&id);
                rooms.codes.remove(&id);
                // A node of a cluster lets the match go (a no-op when another took it over).
                if let Some(leases) = rooms.store.leases()
                    && let Err(e) = leases.release_lease(id.0).await
                {
                    tracing::warn!(match_id = %id, error = %e, "cannot release a match's lease; it runs out");
                }
            }
        });
        handle
    }

    /// Rates a decided rated match found decided in its log at start (once: a match rated before
    /// is not rated again).
    async fn rate(
        &self,
        id: MatchId,
        tc: &bughouse_match::TimeControl,
        names: &[Option<String>; 4],
        winner: Option<shvedka_proto::TeamId>,
    ) -> anyhow::Result<()> {
        self.hooks.rate(Decided { match_id: id.0, time_control: *tc, names, winner }).await?;
        Ok(())
    }

    /// Live matches now.
    pub(crate) fn len(&self) -> usize {
        self.map.len()
    }

    pub(crate) fn room(&self, id: MatchId) -> Result<RoomHandle, ErrorMsg> {
        self.map
            .get(&id)
            .map(|r| r.clone())
            .ok_or_else(|| error(ErrorCode::NoSuchMatch, format!("no live match {id}")))
    }

    /// `session` stops following the match `id` if this node runs it: `false` when it does not.
    ///
    /// # Errors
    /// What the match answers (a seated player of a match in play may not leave it), or
    /// `NoSuchMatch` when its task ended meanwhile.
    pub(crate) async fn unfollow(&self, session: &Arc<Session>, id: MatchId) -> Result<bool, ErrorMsg> {
        let Ok(room) = self.room(id) else { return Ok(false) };
        let gone = || error(ErrorCode::NoSuchMatch, "the match is gone");
        let (reply, rx) = oneshot::channel();
        room.tx.send(RoomMsg::Unfollow { session: session.clone(), reply }).await.map_err(|_| gone())?;
        rx.await.map_err(|_| gone())??;
        Ok(true)
    }

    /// Seats a session in match `id` and says it is ready, as its own requests would (a rematch,
    /// a match found by seeking), leaving the match it followed before.
    ///
    /// # Errors
    /// What the match answers; `Unavailable` when its task ended meanwhile.
    pub(crate) async fn seat_ready(
        &self,
        session: &Arc<Session>,
        out: &Outbound,
        id: MatchId,
        seat: SeatId,
    ) -> Result<(), ErrorMsg> {
        if let Some(other) = session.room().filter(|&other| other != id) {
            self.unfollow(session, other).await?;
        }
        let room = self.room(id)?;
        for msg in [ClientMsg::TakeSeat { match_id: id, seat }, ClientMsg::Ready { ready: true }] {
            let (reply, rx) = oneshot::channel();
            room.tx
                .send(RoomMsg::Command { session: session.clone(), out: out.clone(), msg, reply })
                .await
                .map_err(|_| error(ErrorCode::Unavailable, "the new match"))?;
            rx.await.map_err(|_| error(ErrorCode::Unavailable, "the new match"))??;
        }
        Ok(())
    }

    /// A new match created by a session's player; an unlisted one is private, and its
    /// invitation code comes with its id.
    pub(crate) async fn create(
        &self,
        creator: PlayerId,
        rules: &str,
        time_control: &str,
        listed: bool,
        chess960: bool,
        rated: bool,
    ) -> Result<(MatchId, Option<String>), ErrorMsg> {
        let open = self
            .map
            .iter()
            .filter(|r| {
                r.creator == Some(creator)
                    && r.summary.lock().expect("summary lock").phase == PhaseView::Forming
            })
            .count();
        if open >= self.limits.max_open_per_session {
            self.metrics.refused(Refusal::OpenMatches);
            return Err(error(
                ErrorCode::Limit(Limit::OpenMatches),
                format!(
                    "you have {open} forming matches already, the most one session may have open \
                     (max_open_matches_per_session)"
                ),
            ));
        }
        self.create_with(rules, time_control, Kind { listed, chess960, rated }, Some(creator), None).await
    }

    /// Whether `session` may reach match `id` by its id: always unless it is private, and a
    /// private one only with its code (or as its player; the caller lets arbiters in). A refusal
    /// must look like an id that does not exist, so the caller answers as it would for one.
    ///
    /// # Errors
    /// `Unavailable` when the store cannot say.
    pub(crate) async fn reaches(&self, session: &Session, id: MatchId) -> Result<bool, ErrorMsg> {
        if session.is_invited(id) || session.room() == Some(id) {
            return Ok(true);
        }
        if self.private.contains_key(&id) {
            return Ok(false);
        }
        if self.map.contains_key(&id) {
            return Ok(true);
        }
        let row = self.store.find_match(id.0).await.map_err(|e| {
            tracing::error!(match_id = %id, error = %e, "cannot read a stored match");
            error(ErrorCode::Unavailable, "the stored match cannot be read now")
        })?;
        Ok(row.is_none_or(|r| r.created.invite_hash.is_none()))
    }

    /// The invitation code of a private match this process created, for the server's own bots.
    pub(crate) fn code_of(&self, id: MatchId) -> Option<String> {
        self.codes.get(&id).map(|c| c.clone())
    }

    /// Redeems an invitation code: the session may reach its match from now on.
    ///
    /// # Errors
    /// `NoSuchMatch` for a wrong code (as for a match that does not exist); `Unavailable`.
    pub(crate) async fn redeem(&self, session: &Session, code: &str) -> Result<MatchId, ErrorMsg> {
        let wrong = || error(ErrorCode::NoSuchMatch, "no match has this invitation code");
        let id = invitations::match_of(code).ok_or_else(wrong)?;
        let hash = invitations::hash(code);
        let stored = match self.private.get(&id) {
            Some(h) => Some(h.clone()),
            None => self
                .store
                .find_match(id.0)
                .await
                .map_err(|e| {
                    tracing::error!(match_id = %id, error = %e, "cannot read a stored match");
                    error(ErrorCode::Unavailable, "the stored match cannot be read now")
                })?
                .and_then(|r| r.created.invite_hash),
        };
        if stored.as_deref() != Some(hash.as_str()) {
            return Err(wrong());
        }
        session.invite(id);
        Ok(id)
    }

    /// A tournament game: a listed match whose four seats only the named players may take.
    pub(crate) async fn create_reserved(
        &self,
        rules: &str,
        time_control: &str,
        names: [String; 4],
    ) -> Result<MatchId, ErrorMsg> {
        let kind = Kind { listed: true, chess960: false, rated: false };
        self.create_with(rules, time_control, kind, None, Some(Reserved::Names(names)))
            .await
            .map(|(id, _)| id)
    }

    /// The rematch of a decided match: a match like it, created by nobody (its players are seated
    /// by the server, [`crate::features::rematch`]).
    pub(crate) async fn create_rematch(
        &self,
        rules: &str,
        time_control: &str,
        listed: bool,
        chess960: bool,
        rated: bool,
    ) -> Result<MatchId, ErrorMsg> {
        let kind = Kind { listed, chess960, rated };
        self.create_with(rules, time_control, kind, None, None).await.map(|(id, _)| id)
    }

    /// A match found by seeking (`crate::features::seeks`): listed, created by nobody, each seat reserved
    /// for the player the seat draw gave it (the seek task seats them). `rated` is the seeks'.
    pub(crate) async fn create_sought(
        &self,
        rules: &str,
        time_control: &str,
        rated: bool,
        players: [PlayerId; 4],
    ) -> Result<MatchId, ErrorMsg> {
        let kind = Kind { listed: true, chess960: false, rated };
        self.create_with(rules, time_control, kind, None, Some(Reserved::Players(players)))
            .await
            .map(|(id, _)| id)
    }

    /// A time control by name or spec, as this server reads it.
    pub(crate) fn time_control(&self, text: &str) -> Result<bughouse_match::TimeControl, ErrorMsg> {
        self.clock.time_control(text).map_err(|e| error(ErrorCode::BadRequest, e.to_string()))
    }

    async fn create_with(
        &self,
        rules: &str,
        time_control: &str,
        kind: Kind,
        creator: Option<PlayerId>,
        reserved: Option<Reserved>,
    ) -> Result<(MatchId, Option<String>), ErrorMsg> {
        let Kind { listed, chess960, rated } = kind;
        let bad = |e: String| error(ErrorCode::BadRequest, e);
        let mut rules = RuleOptions::preset(rules).map_err(|e| bad(e.to_string()))?;
        rules.chess960 |= chess960;
        let tc = self.time_control(time_control)?;
        if self.map.len() >= self.limits.max_matches {
            self.metrics.refused(Refusal::MaxMatches);
            return Err(error(
                ErrorCode::Limit(Limit::Matches),
                format!("the server holds {} live matches, as many as it may (max_matches)", self.map.len()),
            ));
        }
        let config = MatchConfig {
            rules,
            time_control: tc,
            lag: self.clock.lag,
            countdown: self.clock.countdown(),
            start: None,
        };
        let mut m = Match::new(config.clone()).map_err(|e| bad(e.to_string()))?;
        m.choose_chess960(crate::service::random::chess960());
        let id = match self.store.leases() {
            // Nodes of a cluster share the ids: the database hands them out.
            Some(leases) => MatchId(leases.next_id(IdKind::Match).await.map_err(|e| {
                tracing::error!(error = %e, "cannot get a new match id");
                error(ErrorCode::Unavailable, "the server cannot record a new match now; try again")
            })?),
            None => MatchId(self.next_match.fetch_add(1, Ordering::Relaxed)),
        };
        let code = (!listed).then(|| invitations::new_code(id));
        let row = NewMatch {
            id: id.0,
            rules: config.rules.name.clone(),
            time_control: config.time_control.to_string(),
            listed,
            config: serde_json::to_string(&config).map_err(|e| bad(e.to_string()))?,
            created_ms: unix_ms(),
            invite_hash: code.as_deref().map(invitations::hash),
            rated,
        };
        self.store.add_match(&row).await.map_err(|e| {
            tracing::error!(error = %e, "cannot record a new match");
            error(ErrorCode::Unavailable, "the server cannot record a new match now; try again")
        })?;
        if let Some(leases) = self.store.leases() {
            // A new match nobody else knows yet: taken unless the database fails (then another
            // node takes it over as an orphan).
            let taken = leases.take_lease(id.0).await;
            if !matches!(taken, Ok(Take::Taken { .. })) {
                tracing::error!(match_id = %id, ?taken, "cannot take the lease of a new match");
                return Err(error(
                    ErrorCode::Unavailable,
                    "the server cannot record a new match now; try again",
                ));
            }
        }
        if let (Some(hash), Some(code)) = (&row.invite_hash, &code) {
            self.private.insert(id, hash.clone());
            self.codes.insert(id, code.clone());
        }
        self.spawn(id, m, self.setup(listed, rated, creator, reserved, None), None);
        Ok((id, code))
    }

    /// Asks a match task, bringing a finished match back from its log first (an arbiter may
    /// still correct or annul it): the task handles `msg` and ends again.
    pub(crate) async fn revive_with(&self, id: MatchId, msg: RoomMsg) -> Result<(), ErrorMsg> {
        let unavailable = |e: String| {
            tracing::error!(match_id = %id, error = %e, "cannot read a stored match");
            error(ErrorCode::Unavailable, "the stored match cannot be read now")
        };
        if let Ok(room) = self.room(id) {
            return room.tx.send(msg).await.map_err(|_| gone());
        }
        let row = self.store.find_match(id.0).await.map_err(|e| unavailable(e.to_string()))?;
        let row = row.ok_or_else(|| error(ErrorCode::NoSuchMatch, format!("no match {id}")))?;
        let rebuilt = restore::rebuild(&*self.store, &row).await.map_err(|e| unavailable(e.to_string()))?;
        if let Some(leases) = self.store.leases() {
            // An arbiter's act on a finished match is appended to its log: by its lease holder.
            match leases.take_lease(id.0).await.map_err(|e| unavailable(e.to_string()))? {
                Take::Taken { .. } => {}
                Take::Held { node } => {
                    return Err(error(
                        ErrorCode::Unavailable,
                        format!("match {id} is run by node {node} now"),
                    ));
                }
            }
        }
        if !matches!(rebuilt.m.phase(), Phase::Ended(_) | Phase::Annulled) {
            // Undecided but not live (its task failed): it comes back on the next start.
            return Err(error(
                ErrorCode::Unavailable,
                format!("match {id} is not live; it is restored at restart"),
            ));
        }
        let (names, kinds) = restore::names(&rebuilt.views);
        let restored = Restored { views: rebuilt.views, names, kinds, seated: Vec::new() };
        if let Some(hash) = &row.created.invite_hash {
            self.private.insert(id, hash.clone());
        }
        self.spawn(
            id,
            rebuilt.m,
            self.setup(row.created.listed, row.created.rated, None, None, Some(restored)),
            Some(msg),
        );
        Ok(())
    }

    /// A match's decision: from its live task, or from the database.
    pub(crate) async fn result_of(
        &self,
        id: MatchId,
    ) -> Result<Option<(bughouse::MatchResult, String)>, ErrorMsg> {
        if let Ok(room) = self.room(id) {
            let decided = *room.decided.lock().expect("decided lock");
            if let Some(a) = decided {
                return Ok(Some((a.result, a.to_string())));
            }
            return Ok(None);
        }
        let row =
            self.store.find_match(id.0).await.map_err(|e| error(ErrorCode::Unavailable, e.to_string()))?;
        Ok(row
            .and_then(|r| r.result)
            .and_then(|json| serde_json::from_str::<bughouse::Adjudication>(&json).ok())
            .map(|a| (a.result, a.to_string())))
    }

    /// A match's BPGN: from its live task, or rebuilt from the database.
    pub(crate) async fn record_of(&self, id: MatchId) -> Result<Option<String>, ErrorMsg> {
        if let Ok(room) = self.room(id) {
            let (reply, rx) = oneshot::channel();
            // A task that ended meanwhile has stored everything: read it from the store.
            if room.tx.send(RoomMsg::Record { reply }).await.is_ok()
                && let Ok(record) = rx.await
            {
                return record.map(Some);
            }
        }
        self.stored_record(id).await
    }

    /// The BPGN of a match that is only in the database, if it is there and replays.
    async fn stored_record(&self, id: MatchId) -> Result<Option<String>, ErrorMsg> {
        let unavailable = |e: String| {
            tracing::error!(match_id = %id, error = %e, "cannot read a stored match");
            error(ErrorCode::Unavailable, "the stored match cannot be read now")
        };
        let Some(row) = self.store.find_match(id.0).await.map_err(|e| unavailable(e.to_string()))? else {
            return Ok(None);
        };
        let rebuilt = restore::rebuild(&*self.store, &row).await.map_err(|e| unavailable(e.to_string()))?;
        let (names, kinds) = restore::names(&rebuilt.views);
        let date = crate::service::wall::date_of(row.created.created_ms);
        Ok(Some(crate::service::record::record(id.0, &rebuilt.m, &names, &kinds, &date).to_bpgn()))
    }

    /// One page of the matches that are not over, by id, after `after`: the listed ones, or
    /// (for an arbiter) all, with `others` (other nodes' matches, in cluster mode). Gives the
    /// page and the `after` of the next one, if any.
    pub(crate) fn page(
        &self,
        unlisted_too: bool,
        after: Option<MatchId>,
        limit: usize,
        others: Vec<MatchSummary>,
    ) -> (Vec<MatchSummary>, Option<MatchId>) {
        let limit = limit.clamp(1, self.limits.page_max);
        let mut v: Vec<MatchSummary> = self
            .map
            .iter()
            .filter(|r| (r.listed || unlisted_too) && after.is_none_or(|a| *r.key() > a))
            .map(|r| r.summary.lock().expect("summary lock").clone())
            .chain(
                others
                    .into_iter()
                    .filter(|s| after.is_none_or(|a| s.match_id > a) && !self.map.contains_key(&s.match_id)),
            )
            .filter(|s| !matches!(s.phase, PhaseView::Ended | PhaseView::Annulled))
            .collect();
        v.sort_by_key(|s| s.match_id);
        let more = v.len() > limit;
        v.truncate(limit);
        let next = more.then(|| v.last().map(|s| s.match_id)).flatten();
        (v, next)
    }

    /// Every live match's summary, and whether it is listed (this node's lobby, for the others).
    pub(crate) fn summaries(&self) -> Vec<(MatchSummary, bool)> {
        self.map.iter().map(|r| (r.summary.lock().expect("summary lock").clone(), r.listed)).collect()
    }

    /// The most matches one page holds.
    pub(crate) fn page_max(&self) -> usize {
        self.limits.page_max
    }

    /// Asks every match task to shut down (play paused and stored) and waits for each to end,
    /// at most `within`.
    pub(crate) async fn shutdown(&self, within: Duration) {
        let handles: Vec<RoomHandle> = self.map.iter().map(|r| r.clone()).collect();
        let all = async {
            let mut ended = Vec::with_capacity(handles.len());
            for room in handles {
                let (reply, rx) = oneshot::channel();
                if room.tx.send(RoomMsg::Shutdown { reply }).await.is_ok() {
                    ended.push(rx);
                }
            }
            for rx in ended {
                let _ = rx.await;
            }
        };
        if tokio::time::timeout(within, all).await.is_err() {
            tracing::warn!("some match tasks did not end in time for the shutdown");
        }
    }
}

fn gone() -> ErrorMsg {
    error(ErrorCode::NoSuchMatch, "the match is gone")
}
