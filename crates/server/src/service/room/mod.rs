//! One task per match: it owns the match state machine and both boards, wakes at the machine's
//! timeouts, and delivers every event to the sessions that follow the match, in log order. No
//! lock is taken inside a match; sessions talk to it through its channel. The task ends when
//! the match is decided, annulled or expired (the store keeps it; the registry forgets it), or
//! when the server shuts down.

mod durable;
mod followers;
mod holders;
mod lifecycle;
mod recent;
mod record_cache;
mod requests;
mod setup;
#[cfg(test)]
mod tests;
mod view;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bughouse_match::{ArbiterAct, Match, Official, Phase, PlayerId};
use shvedka_proto::{
    BotTrouble, ClientMsg, ErrorMsg, MatchId, MatchSummary, MissingBot, PauseReason, PlayerKind, RatingChange,
};
use shvedka_storage::Store;
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

use crate::service::committer::Committer;
use crate::service::convert;
use crate::service::encoding::Shared;
use crate::service::gallery::{Gallery, Spot};
use crate::service::hooks::{Finished, MatchHooks};
use crate::service::metrics::Metrics;
use crate::service::outbound::Outbound;
use crate::service::session::{Session, Sessions};
use crate::service::standing::Standing;
use recent::Recent;

pub(crate) use lifecycle::Ran;
pub(crate) use setup::{Reserved, Restored, RoomSetup};
pub(crate) use view::paused_by_server;

/// Messages a match task holds before senders wait.
const ROOM_QUEUE: usize = 256;

/// The longest chat message, in characters.
pub(crate) const MAX_CHAT: usize = 500;

pub(crate) type Reply = oneshot::Sender<Result<(), ErrorMsg>>;

/// What a session asks of a match task.
pub(crate) enum RoomMsg {
    /// Follow the match: the whole state (`last_seq` = `None`), or the events after `last_seq`
    /// (resume), then every event.
    Follow { session: Arc<Session>, out: Outbound, last_seq: Option<u64>, reply: Reply },
    /// Stop following (refused while the session plays in the running match).
    Unfollow { session: Arc<Session>, reply: Reply },
    /// A match command from a player (or the seat request).
    Command { session: Arc<Session>, out: Outbound, msg: Box<ClientMsg>, reply: Reply },
    /// An arbiter's act, by `by` (known to be an arbiter).
    Arbiter { act: ArbiterAct, by: Official, reply: Reply },
    /// The legal moves on one board, in long notation (none unless the clocks run).
    Legal { board: bughouse::BoardId, reply: oneshot::Sender<Vec<String>> },
    /// Whether the session plays in the match (`holders::plays_here`; a watcher on another node
    /// who does not is served there, from that node's one follower of the match).
    Seated { session: Arc<Session>, reply: oneshot::Sender<bool> },
    /// The server shuts down: pause play, store it, end the task; answered when it has ended.
    Shutdown { reply: oneshot::Sender<()> },
    /// A bot the server started again takes its earlier bot's seat (`holders.rs`), or none
    /// could (`trouble`: the players are told why).
    BotSeat { seat: bughouse::Seat, session: Result<Arc<Session>, BotTrouble>, reply: Reply },
}

/// How the lobby reaches a match task.
#[derive(Clone)]
pub(crate) struct RoomHandle {
    pub(crate) tx: mpsc::Sender<RoomMsg>,
    pub(crate) summary: Arc<Mutex<MatchSummary>>,
    pub(crate) listed: bool,
    /// The player whose session created the match (a tournament's: none).
    pub(crate) creator: Option<PlayerId>,
    /// The decision, once the match is decided (read by the tournament driver).
    pub(crate) decided: Arc<Mutex<Option<bughouse::Adjudication>>>,
    /// Whether its seats are reserved for named players (a tournament game, a seek's match).
    pub(crate) reserved: bool,
}

/// A session that follows the match, or a seated player of a restored match who has not come
/// back yet (`out` is `None` while it has no connection).
struct Follower {
    session: Arc<Session>,
    out: Option<Outbound>,
    /// A spectator's place in the gallery, from which his writer takes the match's events (not
    /// from `deliver`).
    spectator: Option<Spot>,
}

/// A state made for spectators, shared while it is current.
struct SpectatorsState {
    /// The last event and the rating changes it covers.
    key: (Option<u64>, usize),
    /// When it was made (its clocks read then).
    at: Instant,
    state: Arc<Shared>,
}

/// Why a match task ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Closing {
    /// Decided or annulled: stored, and every follower saw it.
    Over,
    /// Forming, and nobody attended it for the expiry time.
    Expired,
    /// The server shuts down.
    Shutdown,
    /// The task cannot go on (its stored log is another's).
    Failed,
    /// This node may not run matches now (a node of a cluster that lost its lease): nothing
    /// more is stored, and the followers are told to resume elsewhere.
    LetGo,
}

pub(crate) struct Room {
    id: MatchId,
    m: Match,
    rx: mpsc::Receiver<RoomMsg>,
    /// Match time zero.
    epoch: Instant,
    /// Match time held still: a restored countdown waits here for its four players.
    frozen: Option<Duration>,
    /// The server's start, for `server_time_us`.
    started: Instant,
    rules: String,
    time_control: String,
    names: [Option<String>; 4],
    /// The seated players' kinds, beside `names`.
    kinds: [Option<PlayerKind>; 4],
    followers: HashMap<String, Follower>,
    /// Where the watchers of the decided match are kept when its task ends.
    lingering: Arc<crate::service::rooms::lingering::Lingering>,
    /// Every rule that decided the match, once decided here (`ResultView::rules`).
    result_rules: Box<[String]>,
    /// How many followers make the next follow sweep out those whose connection is gone.
    sweep_at: usize,
    /// What the spectators are told, posted once for all of them.
    gallery: Gallery,
    /// The state last made for spectators (`Room::spectators_state`).
    spectators_state: Option<SpectatorsState>,
    sessions: Arc<Sessions>,
    /// The wire form of the last events, for followers that resume.
    recent: Recent,
    /// Long notation and SAN of the move being played, written before the position changes.
    pending_move: Option<(String, String)>,
    /// Why the server itself is pausing or resuming the match now (read when the event's view
    /// is built).
    server_pause: Option<PauseReason>,
    summary: Arc<Mutex<MatchSummary>>,
    store: Arc<dyn Store>,
    /// The group-commit writer the match's events go through.
    committer: Committer,
    /// The lease fence this task runs the match under (a node of a cluster: the one its node
    /// took just before it was made), named by each of its appends so that none is stored once
    /// it was let go, even if its node takes the match back for another task.
    pub(crate) fence: Option<u64>,
    /// Restored after a restart and paused: the clocks restart when all four players are back.
    restart_pause: bool,
    /// K6: when a restored match starts again (its clocks or countdown) with players missing.
    restart_by: Option<Instant>,
    /// The server's bots that could not sit again (`holders::hand_to_bot`), told in the state.
    bots_missing: Vec<MissingBot>,
    /// Paused because storage refused writes: the clocks restart when it takes them again.
    storage_paused: bool,
    /// The last write storage refused failed for want of space (the disk is full): requests
    /// are refused `StorageFull` meanwhile, not `Unavailable`.
    storage_full: bool,
    /// Where a decided match's BPGN is written.
    records_dir: Option<std::path::PathBuf>,
    /// The session that took each seat over from another session of its account (`holders.rs`);
    /// none: the machine's own player's session holds it.
    holders: [Option<Box<str>>; 4],
    /// The record at the log's current state (`Room::record`).
    record_cache: record_cache::RecordCache,
    /// Who alone may take each seat: a tournament game's or a sought match's players.
    reserved: Option<Reserved>,
    /// Listed in the lobby (a rematch is too).
    listed: bool,
    /// Rated: its decision changes its players' ratings; only accounts sit in it.
    rated: bool,
    /// What the layers above hear of its decision and end (ratings, rematch offers).
    hooks: Arc<dyn MatchHooks>,
    /// What the decision made of the players' ratings, once rated.
    rating_changes: Vec<RatingChange>,
    decided: Arc<Mutex<Option<bughouse::Adjudication>>>,
    /// Whether the server has arbiters (a call for one is refused otherwise).
    arbiters: bool,
    /// How long a forming match may go with no seated player connected.
    expiry: Duration,
    metrics: Arc<Metrics>,
    /// Since when no seated player of the forming match has been connected.
    unattended_since: Option<Instant>,
    closing: Option<Closing>,
    /// A shutdown's answer, sent when the task ends.
    shutdown: Option<oneshot::Sender<()>>,
    /// Whether this node may run matches now.
    standing: Standing,
}

impl Room {
    /// A match task, to be run by [`Room::run`]. A restored match resumes at the match time of
    /// its last logged event, so the outage is charged to nobody: every clock reads what it read
    /// at that event; a match in play is paused there (as is one the server paused itself before
    /// it stopped), and a countdown is held, until its four players are back (or an arbiter
    /// restarts it).
    pub(crate) fn new(id: MatchId, mut m: Match, setup: RoomSetup) -> (Room, RoomHandle) {
        let RoomSetup {
            listed,
            rated,
            hooks,
            creator,
            store,
            committer,
            sessions,
            started,
            records_dir,
            reserved,
            arbiters,
            expiry,
            restart_wait,
            metrics,
            restored,
            gallery,
            standing,
            lingering,
        } = setup;
        let rules = m.config().rules.name.clone();
        let time_control = m.config().time_control.to_string();
        let fence = store.leases().and_then(|l| l.fence(id.0));
        let summary = Arc::new(Mutex::new(MatchSummary {
            match_id: id,
            rules: rules.clone(),
            time_control: time_control.clone(),
            chess960: m.config().rules.chess960,
            seats: Default::default(),
            kinds: Default::default(),
            phase: convert::phase(m.phase()),
            rated,
        }));
        let (tx, rx) = mpsc::channel(ROOM_QUEUE);
        let decided = Arc::new(Mutex::new(m.result()));
        let resumed_at = m.events().last().map_or(Duration::ZERO, |e| e.at);
        let epoch = Instant::now().checked_sub(resumed_at).unwrap_or_else(Instant::now);
        let (mut restart_pause, mut frozen, mut server_pause) = (false, None, None);
        let (views, names, kinds, seated, watchers) = match restored {
            Some(r) => {
                match m.phase() {
                    Phase::Running => {
                        restart_pause =
                            m.handle_arbiter(resumed_at, Official::Server, ArbiterAct::Pause).is_ok();
                        server_pause = restart_pause.then_some(PauseReason::Restart);
                    }
                    Phase::Countdown { .. } => frozen = Some(resumed_at),
                    Phase::Paused { .. } => restart_pause = paused_by_server(&m, &r.views),
                    _ => {}
                }
                (r.views, r.names, r.kinds, r.seated, r.lingering)
            }
            None => (Vec::new(), Default::default(), Default::default(), Vec::new(), Vec::new()),
        };
        let mut followers: HashMap<String, Follower> = seated
            .into_iter()
            .map(|session| (session.key.clone(), Follower { session, out: None, spectator: None }))
            .collect();
        for (session, out) in watchers {
            session.set_room(Some(id));
            followers.insert(session.key.clone(), Follower { session, out: Some(out), spectator: None });
        }
        let room = Room {
            id,
            m,
            rx,
            epoch,
            frozen,
            started,
            rules,
            time_control,
            names,
            kinds,
            followers,
            sweep_at: followers::SWEEP_MIN,
            gallery: Gallery::new(gallery),
            spectators_state: None,
            record_cache: Default::default(),
            holders: Default::default(),
            sessions,
            recent: Recent::new(views),
            pending_move: None,
            server_pause,
            summary: summary.clone(),
            store,
            committer,
            fence,
            restart_pause,
            restart_by: (restart_pause || frozen.is_some()).then(|| Instant::now() + restart_wait),
            bots_missing: Vec::new(),
            storage_paused: false,
            storage_full: false,
            records_dir,
            reserved,
            listed,
            rated,
            hooks,
            rating_changes: Vec::new(),
            decided: decided.clone(),
            arbiters,
            expiry,
            metrics,
            unattended_since: None,
            closing: None,
            lingering,
            result_rules: Box::default(),
            shutdown: None,
            standing,
        };
        let reserved = room.reserved.is_some();
        (room, RoomHandle { tx, summary, listed, creator, decided, reserved })
    }

    fn now(&self) -> Duration {
        self.frozen.unwrap_or_else(|| self.epoch.elapsed())
    }

    fn server_time_us(&self) -> u64 {
        self.started.elapsed().as_micros() as u64
    }

    /// The task: 1. wait for a message, the machine's next timeout, or a look at who attends a
    /// forming match; 2. apply it; 3. store and deliver the events it produced. It ends when the
    /// match is over and nothing more is asked of it, when it expires, or on shutdown. A match
    /// that ended decided or annulled with four players is returned, for its players' list of
    /// matches and (unless its seats were reserved) its rematch offer. A node that may not run
    /// matches now lets it go at once, wherever the task is.
    pub(crate) async fn run(mut self) -> Ran {
        // A restored match's restart pause is stored before anything else happens.
        Box::pin(self.flush()).await;
        Box::pin(self.load_rating_changes()).await;
        self.check_attendance();
        while self.closing.is_none() {
            if matches!(self.m.phase(), Phase::Ended(_) | Phase::Annulled) && self.rx.is_empty() {
                // Closed first, then whatever was sent meanwhile is still handled (an arbiter
                // correcting the result just as the task ends): no request is dropped unanswered.
                // A sender finding it closed gets its message back (`Rooms::revive_with`).
                self.rx.close();
                while let Ok(msg) = self.rx.try_recv() {
                    Box::pin(self.handle(msg)).await;
                    Box::pin(self.flush()).await;
                }
                // A drained request may have ended it otherwise (its log another node's).
                self.closing.get_or_insert(Closing::Over);
                break;
            }
            let wake =
                if self.frozen.is_some() { None } else { self.m.poll_timeout().map(|t| self.epoch + t) };
            let attend = self.attendance_wake();
            tokio::select! {
                () = self.standing.until_lost() => {
                    self.let_go();
                    break;
                }
                msg = self.rx.recv() => match msg {
                    Some(msg) => Box::pin(self.handle(msg)).await,
                    None => self.closing = Some(Closing::Shutdown),
                },
                () = sleep_until(wake) => {
                    let now = self.now();
                    self.m.handle_timeout(now);
                }
                () = sleep_until(self.restart_by) => self.restart_without_the_missing(),
                () = sleep_until(attend) => {
                    if self.check_attendance() {
                        Box::pin(self.expire()).await;
                    }
                }
                () = self.gallery.asked() => self.answer_spectators(),
                () = sleep_until(self.gallery.due()) => self.gallery.release(),
            }
            Box::pin(self.flush()).await;
            self.check_attendance();
        }
        if self.closing == Some(Closing::LetGo) {
            self.refuse_the_rest();
        }
        if let Some(reply) = self.shutdown.take() {
            let _ = reply.send(());
        }
        Ran { finished: self.finished(), let_go: self.closing == Some(Closing::LetGo) }
    }

    /// What a rematch needs of the match, if it may have one.
    fn finished(&self) -> Option<Finished> {
        if self.closing != Some(Closing::Over) {
            return None;
        }
        let seats = self.m.seats();
        let mut players = Vec::with_capacity(4);
        for (seat, name) in seats.iter().zip(&self.names) {
            players.push(((*seat)?, name.clone()?));
        }
        Some(Finished {
            id: self.id,
            rules: self.m.config().rules.name.clone(),
            time_control: self.time_control.clone(),
            listed: self.listed,
            chess960: self.m.config().rules.chess960,
            rated: self.rated,
            players: players.try_into().ok()?,
            kinds: self.kinds.map(Option::unwrap_or_default),
            rematch: !matches!(self.reserved, Some(Reserved::Names(..))),
        })
    }

    fn bpgn(&self) -> String {
        let mut record = shvedka_records::Record::clone(&self.record());
        record.set_tag("Date", crate::service::wall::today());
        record.to_bpgn()
    }

    /// The match's record as its log stands now, built once per state of the log.
    fn record(&self) -> Arc<shvedka_records::Record> {
        self.record_cache.get(self.m.events().len(), || {
            crate::service::record::record(self.id.0, &self.m, &self.names, &self.kinds, "")
        })
    }
}

async fn sleep_until(t: Option<Instant>) {
    match t {
        Some(t) => tokio::time::sleep_until(t).await,
        None => std::future::pending().await,
    }
}
