//! The live matches: a registry of match tasks by id, bounded by `max_matches`, which forgets a
//! match when its task ends (decided, annulled, expired, or failed). What the store already has
//! — results, records, the logs of finished matches — is read from the store, not kept here.
//! A map guard is never held across an `.await`: handles are cloned out first.

use std::collections::HashMap;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Weak};
use std::time::Duration;

use bughouse_match::{ClockConfig, Match, PlayerId};
use dashmap::DashMap;
use shvedka_proto::{ClientMsg, ErrorCode, ErrorMsg, MatchId, MatchSummary, PhaseView, SeatId};
use shvedka_storage::Store;
use tokio::sync::oneshot;
use tokio::time::Instant;

use crate::config::ServerConfig;
use crate::service::committer::Committer;
use crate::service::convert::error;
use crate::service::hooks::MatchHooks;
use crate::service::metrics::Metrics;
use crate::service::outbound::Outbound;
use crate::service::room::{Reserved, Restored, Room, RoomHandle, RoomMsg, RoomSetup};
use crate::service::session::{Session, Sessions};
use crate::service::standing::Standing;

/// A tournament game's reserved seats (White-A, Black-A, White-B, Black-B) and the game it is.
pub(crate) type TourSeats = ([String; 4], shvedka_proto::TournamentGameView);

mod create;
pub(crate) mod lingering;
mod stored;
#[cfg(test)]
mod tests;

/// The limits and settings of matches, from the server's configuration.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MatchLimits {
    /// `max_matches`: live matches at once.
    pub(crate) max_matches: usize,
    /// `max_open_matches_per_session`: forming matches one session may have created.
    pub(crate) max_open_per_session: usize,
    /// `forming_expiry_s`: how long a forming match may go with no seated player connected.
    pub(crate) forming_expiry: Duration,
    /// `restart_wait_s` (K6): how long a match restored in play waits for its players.
    pub(crate) restart_wait: Duration,
    /// `list_page_max`: the most matches in one page of the list.
    pub(crate) page_max: usize,
    /// `max_reads_at_once`: expensive reads at a time.
    pub(crate) reads_at_once: usize,
    /// `record_cache_bytes`: decided matches' records kept.
    pub(crate) record_cache_bytes: usize,
    /// `spectator_events_kept`: events each lane of a match's spectators keeps.
    pub(crate) spectator_events_kept: usize,
    /// `decided_matches_watched`, `decided_watchers_kept`: decided matches whose watchers are
    /// kept, and how many each.
    pub(crate) watched: (usize, usize),
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
    /// The expensive reads' turns, and decided matches' records.
    pub(crate) reads: crate::service::reads::Reads,
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
    /// Whether this node may run matches now.
    standing: Standing,
    /// The watchers of recently decided matches, told a corrected result.
    lingering: Arc<lingering::Lingering>,
    /// The matches let go since the node lost its lease: their leases are still this node's,
    /// and it takes back those nobody took over once it rejoins ([`Rooms::let_go`]).
    let_go: std::sync::Mutex<std::collections::BTreeSet<MatchId>>,
    /// The seats of the server's own bots in matches restored since the bots last looked
    /// ([`Rooms::restored_bots`]): at most one entry a live match.
    restored_bots: std::sync::Mutex<Vec<BotSeat>>,
    me: Weak<Rooms>,
}

/// A seat the server's own bot held in a match restored from its log (`bot_names.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BotSeat {
    pub(crate) match_id: MatchId,
    pub(crate) seat: shvedka_proto::SeatId,
    /// The name it sat as, which a new bot sits on as.
    pub(crate) name: String,
    pub(crate) level: u8,
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
    /// Whether this node may run matches now (a single server always may).
    pub(crate) standing: Standing,
}

impl Rooms {
    /// The registry, with every undecided match rebuilt from its log and its seated players'
    /// sessions (paused until they are back; see [`Room::new`]). `reserved` gives tournament
    /// games their seats back. Start-up reads the live matches and their players only.
    pub(crate) async fn open(
        setup: RoomsSetup,
        mut reserved: HashMap<MatchId, TourSeats>,
    ) -> anyhow::Result<Arc<Rooms>> {
        let (max_match, _) = setup.store.max_ids().await?;
        let store = setup.store;
        let rooms = Arc::new_cyclic(|me| Rooms {
            map: DashMap::new(),
            private: DashMap::new(),
            codes: DashMap::new(),
            next_match: AtomicU64::new(max_match + 1),
            reads: crate::service::reads::Reads::new(
                setup.limits.reads_at_once,
                setup.limits.record_cache_bytes,
            ),
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
            standing: setup.standing,
            lingering: Arc::new(lingering::Lingering::new(setup.limits.watched.0, setup.limits.watched.1)),
            let_go: std::sync::Mutex::default(),
            restored_bots: std::sync::Mutex::default(),
            me: me.clone(),
        });
        for row in rooms.store.matches(true).await? {
            let id = MatchId(row.created.id);
            let seats = reserved.remove(&id);
            rooms.restore(&row, seats).await?;
        }
        Ok(rooms)
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
            restart_wait: self.limits.restart_wait,
            metrics: self.metrics.clone(),
            restored,
            gallery: self.limits.spectator_events_kept,
            standing: self.standing.clone(),
            lingering: self.lingering.clone(),
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
        // The lease this task runs under (cluster mode): released when it ends, and no later one.
        let fence = room.fence;
        let task = tokio::spawn(room.run());
        let me = self.me.clone();
        tokio::spawn(async move {
            let (finished, let_go) = match task.await {
                Ok(ran) => (ran.finished, ran.let_go),
                Err(e) => {
                    tracing::error!(match_id = %id, error = %e, "the match task died; its followers are freed");
                    (None, false)
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
                if let_go {
                    // Its lease stays: released late, it could free a lease taken back since.
                    rooms.let_go.lock().expect("let-go lock").insert(id);
                    return;
                }
                // A node of a cluster lets the match go (a no-op when another took it over).
                if let (Some(leases), Some(fence)) = (rooms.store.leases(), fence)
                    && let Err(e) = leases.release_lease_taken(id.0, fence).await
                {
                    tracing::warn!(match_id = %id, error = %e, "cannot release a match's lease; it runs out");
                }
            }
        });
        handle
    }

    /// Takes and forgets the matches let go since the node lost its lease (to be taken back
    /// where nobody took them over: [`Rooms::take_over`]).
    pub(crate) fn let_go(&self) -> Vec<MatchId> {
        std::mem::take(&mut *self.let_go.lock().expect("let-go lock")).into_iter().collect()
    }

    /// Keeps a match let go for a later try to take it back.
    pub(crate) fn keep_let_go(&self, id: MatchId) {
        self.let_go.lock().expect("let-go lock").insert(id);
    }

    /// Whether a match let go that a look did not take back must wait for the next look: it is
    /// not live here, and this node could not take anything now (its lease lost again since the
    /// look began, or `max_matches` reached). Its lease is still this node's in the database, so
    /// while this node lives no other takes it over: forgotten here, it would run nowhere.
    pub(crate) fn take_back_later(&self, id: MatchId) -> bool {
        !self.map.contains_key(&id) && (self.standing.lost() || self.map.len() >= self.limits.max_matches)
    }

    /// Whether this node may run matches now: `Unavailable` otherwise.
    pub(crate) fn may_run(&self) -> Result<(), ErrorMsg> {
        if self.standing.lost() {
            return Err(error(
                ErrorCode::Unavailable,
                "this node cannot reach the cluster's database and runs no match now; try another node",
            ));
        }
        Ok(())
    }

    /// Live matches now.
    pub(crate) fn len(&self) -> usize {
        self.map.len()
    }

    /// The match in play on this node in which `session` sits, if any (a player seeks no other
    /// game and asks the engine nothing while his match is not over).
    pub(crate) fn seated_in_play(&self, session: &Session) -> Option<MatchId> {
        let id = session.room()?;
        let room = self.room(id).ok()?;
        let seated = room.summary.lock().is_ok_and(|s| {
            !matches!(s.phase, PhaseView::Ended | PhaseView::Annulled)
                && s.seats.iter().any(|n| n.as_deref() == Some(session.name.as_str()))
        });
        seated.then_some(id)
    }

    /// The server's bots' seats in the matches restored since the last call (at start, and at
    /// a cluster node's take-over): the bots' feature starts a bot in each.
    pub(crate) fn restored_bots(&self) -> Vec<BotSeat> {
        std::mem::take(&mut *self.restored_bots.lock().expect("restored bots lock"))
    }

    /// The registry itself, weakly (for a task that must not keep it alive).
    pub(crate) fn me(&self) -> Weak<Rooms> {
        self.me.clone()
    }

    /// The sessions, for the server's bots, whose sessions the server opens itself.
    pub(crate) fn sessions(&self) -> &Arc<Sessions> {
        &self.sessions
    }

    /// Keeps a resumed connection among the watchers of decided match `id`, so a later
    /// correction of its result reaches it ([`lingering::Lingering::add`]).
    pub(crate) fn linger(&self, id: MatchId, session: Arc<Session>, out: Outbound) {
        self.lingering.add(id, (session, out));
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
    /// What leaving the match followed before answers; `NoSuchMatch` when match `id` is not
    /// live; what the match answers; `Unavailable` when its task ended meanwhile.
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
                .send(RoomMsg::Command {
                    session: session.clone(),
                    out: out.clone(),
                    msg: Box::new(msg),
                    reply,
                })
                .await
                .map_err(|_| error(ErrorCode::Unavailable, "the new match"))?;
            rx.await.map_err(|_| error(ErrorCode::Unavailable, "the new match"))??;
        }
        Ok(())
    }

    /// One page of the matches that are not over, by id, after `after`: the listed ones, or
    /// (for an arbiter) all, with `others` (other nodes' matches, in cluster mode). Gives the
    /// page and the `after` of the next one, if any.
    pub(crate) fn page(
        &self,
        (unlisted_too, mine): (bool, Option<&str>),
        after: Option<MatchId>,
        limit: usize,
        others: Vec<MatchSummary>,
    ) -> (Vec<MatchSummary>, Option<MatchId>) {
        let limit = limit.clamp(1, self.limits.page_max);
        let mut v: Vec<MatchSummary> = self
            .map
            .iter()
            .filter(|r| after.is_none_or(|a| *r.key() > a))
            // An account's own unlisted matches are in its list too (its private and tournament
            // games: a new device of the account finds its seat there).
            .filter_map(|r| {
                let summary = r.summary.lock().expect("summary lock");
                let shown = r.listed || unlisted_too || mine.is_some_and(|name| sits(&summary, name));
                shown.then(|| summary.clone())
            })
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

/// Whether the account `name` holds a seat in the match `summary` describes.
pub(crate) fn sits(summary: &MatchSummary, name: &str) -> bool {
    summary
        .seats
        .iter()
        .zip(&summary.kinds)
        .any(|(n, k)| n.as_deref() == Some(name) && *k == Some(shvedka_proto::PlayerKind::Account))
}

fn gone() -> ErrorMsg {
    error(ErrorCode::NoSuchMatch, "the match is gone")
}

impl MatchLimits {
    /// The limits of matches in `config`.
    pub(crate) fn of(config: &ServerConfig) -> MatchLimits {
        MatchLimits {
            max_matches: config.max_matches,
            max_open_per_session: config.max_open_matches_per_session,
            forming_expiry: Duration::from_secs(config.forming_expiry_s),
            restart_wait: Duration::from_secs(config.restart_wait_s),
            page_max: config.list_page_max,
            reads_at_once: config.max_reads_at_once,
            record_cache_bytes: config.record_cache_bytes,
            spectator_events_kept: config.spectator_events_kept,
            watched: (config.decided_matches_watched, config.decided_watchers_kept),
        }
    }
}
