//! One task per match: it owns the match state machine and both boards, wakes at the machine's
//! timeouts, and delivers every event to the sessions that follow the match, in log order. No
//! lock is taken inside a match; sessions talk to it through its channel.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bughouse::Seat;
use bughouse_match::{ArbiterAct, Command, Event, EventKind, Match, Phase, PlayerId};
use shvedka_proto::{
    ChatScope, ClientMsg, ErrorCode, ErrorMsg, EventView, MatchEvent, MatchId, MatchState, MatchSummary,
    ServerMsg,
};
use shvedka_storage::{EventRow, Store};
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

use crate::convert::{self, error, seat_id};

/// The most events a resuming follower is sent one by one; beyond it, the whole state.
const MAX_CATCH_UP: usize = 256;

/// Where a session's messages go: the writer of its current connection.
pub(crate) type Outbound = mpsc::Sender<ServerMsg>;

/// A player's session, surviving lost connections.
#[derive(Debug)]
pub(crate) struct Session {
    /// The SHA-256 of the session token (the token itself is known only to its client).
    pub(crate) key: String,
    pub(crate) name: String,
    pub(crate) player: PlayerId,
    /// The match the session follows, if any.
    pub(crate) room: Mutex<Option<MatchId>>,
    /// Woken when the session's connection cannot keep up with its match: the connection is
    /// then closed, and the client resumes from the last event it has.
    pub(crate) lagging: tokio::sync::Notify,
    /// Whether the session presented the arbiters' secret.
    pub(crate) arbiter: std::sync::atomic::AtomicBool,
    /// Whether the session presented the tournament directors' secret.
    pub(crate) director: std::sync::atomic::AtomicBool,
}

impl Session {
    pub(crate) fn new(key: String, name: String, player: PlayerId) -> Session {
        Session {
            key,
            name,
            player,
            room: Mutex::default(),
            lagging: tokio::sync::Notify::new(),
            arbiter: Default::default(),
            director: Default::default(),
        }
    }

    pub(crate) fn room(&self) -> Option<MatchId> {
        *self.room.lock().expect("session lock")
    }

    pub(crate) fn set_room(&self, id: Option<MatchId>) {
        *self.room.lock().expect("session lock") = id;
    }
}

pub(crate) type Reply = oneshot::Sender<Result<(), ErrorMsg>>;

/// What a session asks of a match task.
pub(crate) enum RoomMsg {
    /// Follow the match: the whole state (`last_seq` = `None`), or the events after `last_seq`
    /// (resume), then every event.
    Follow { session: Arc<Session>, out: Outbound, last_seq: Option<u64>, reply: Reply },
    /// Stop following (refused while the session plays in the running match).
    Unfollow { session: Arc<Session>, reply: Reply },
    /// A match command from a player (or the seat request).
    Command { session: Arc<Session>, out: Outbound, msg: ClientMsg, reply: Reply },
    /// An arbiter's act (the session is known to be an arbiter).
    Arbiter { act: ArbiterAct, reply: Reply },
    /// The match record as BPGN.
    Record { reply: oneshot::Sender<String> },
    /// The legal moves on one board, in long notation (none unless the clocks run).
    Legal { board: bughouse::BoardId, reply: oneshot::Sender<Vec<String>> },
}

/// How the lobby reaches a match task.
#[derive(Clone)]
pub(crate) struct RoomHandle {
    pub(crate) tx: mpsc::Sender<RoomMsg>,
    pub(crate) summary: Arc<Mutex<MatchSummary>>,
    pub(crate) listed: bool,
    /// The decision, once the match is decided (read by the tournament driver).
    pub(crate) decided: Arc<Mutex<Option<bughouse::Adjudication>>>,
}

struct Follower {
    session: Arc<Session>,
    out: Option<Outbound>,
}

pub(crate) struct Room {
    id: MatchId,
    m: Match,
    /// Match time zero.
    epoch: Instant,
    /// The server's start, for `server_time_us`.
    started: Instant,
    rules: String,
    time_control: String,
    names: [Option<String>; 4],
    followers: HashMap<String, Follower>,
    /// The wire form of every event so far, for followers that resume.
    views: Vec<MatchEvent>,
    /// Long notation and SAN of the move being played, written before the position changes.
    pending_move: Option<(String, String)>,
    summary: Arc<Mutex<MatchSummary>>,
    store: Arc<dyn Store>,
    /// Restored after a restart and paused: the clocks restart when all four players are back.
    restart_pause: bool,
    /// Where a decided match's BPGN is written.
    records_dir: Option<std::path::PathBuf>,
    /// For a tournament game: the name of the one player who may take each seat.
    reserved: Option<[String; 4]>,
    decided: Arc<Mutex<Option<bughouse::Adjudication>>>,
}

/// How a match task is set up besides its machine.
pub(crate) struct RoomSetup {
    pub(crate) listed: bool,
    pub(crate) store: Arc<dyn Store>,
    pub(crate) records_dir: Option<std::path::PathBuf>,
    pub(crate) reserved: Option<[String; 4]>,
    pub(crate) restored: Option<Restored>,
}

/// What a match restored from storage brings besides its machine.
pub(crate) struct Restored {
    /// The wire views of its logged events.
    pub(crate) views: Vec<MatchEvent>,
    /// The seated players' names.
    pub(crate) names: [Option<String>; 4],
}

impl Room {
    /// Starts the match task. A restored match resumes at the match time of its last logged
    /// event, so the outage is charged to nobody: every clock reads what it read at that event,
    /// and a match in play is paused there until its four players are back (or an arbiter
    /// restarts it).
    pub(crate) fn spawn(id: MatchId, mut m: Match, started: Instant, setup: RoomSetup) -> RoomHandle {
        let RoomSetup { listed, store, records_dir, reserved, restored } = setup;
        let rules = m.config().rules.name.clone();
        let time_control = m.config().time_control.to_string();
        let summary = Arc::new(Mutex::new(MatchSummary {
            match_id: id,
            rules: rules.clone(),
            time_control: time_control.clone(),
            seats: Default::default(),
            phase: convert::phase(m.phase()),
        }));
        let (tx, rx) = mpsc::channel(256);
        let decided = Arc::new(Mutex::new(m.result()));
        let resumed_at = m.events().last().map_or(Duration::ZERO, |e| e.at);
        let epoch = Instant::now().checked_sub(resumed_at).unwrap_or_else(Instant::now);
        let mut restart_pause = false;
        let (views, names) = match restored {
            Some(r) => {
                if matches!(m.phase(), Phase::Running | Phase::Countdown { .. }) {
                    restart_pause = m.handle_arbiter(resumed_at, ArbiterAct::Pause).is_ok();
                }
                (r.views, r.names)
            }
            None => (Vec::new(), Default::default()),
        };
        let room = Room {
            id,
            m,
            epoch,
            started,
            rules,
            time_control,
            names,
            followers: HashMap::new(),
            views,
            pending_move: None,
            summary: summary.clone(),
            store,
            restart_pause,
            records_dir,
            reserved,
            decided: decided.clone(),
        };
        tokio::spawn(room.run(rx));
        RoomHandle { tx, summary, listed, decided }
    }

    fn now(&self) -> Duration {
        self.epoch.elapsed()
    }

    fn server_time_us(&self) -> u64 {
        self.started.elapsed().as_micros() as u64
    }

    /// The task: 1. wait for a message or the machine's next timeout; 2. apply it; 3. deliver
    /// the events it produced and refresh the lobby summary.
    async fn run(mut self, mut rx: mpsc::Receiver<RoomMsg>) {
        // A restored match's restart pause is stored before anything else happens.
        self.flush().await;
        loop {
            let wake = self.m.poll_timeout().map(|t| self.epoch + t);
            tokio::select! {
                msg = rx.recv() => match msg {
                    Some(msg) => self.handle(msg).await,
                    None => break,
                },
                () = sleep_until(wake) => {
                    let now = self.now();
                    self.m.handle_timeout(now);
                }
            }
            self.flush().await;
        }
    }

    async fn handle(&mut self, msg: RoomMsg) {
        match msg {
            RoomMsg::Follow { session, out, last_seq, reply } => {
                self.follow(session, out, last_seq);
                self.restart_when_all_back();
                self.flush().await;
                let _ = reply.send(Ok(()));
            }
            RoomMsg::Unfollow { session, reply } => {
                let _ = reply.send(self.unfollow(&session));
            }
            RoomMsg::Arbiter { act, reply } => {
                let now = self.now();
                let resume = matches!(act, ArbiterAct::Resume);
                let result = self.m.handle_arbiter(now, act).map_err(|r| convert::rejection(&r));
                if result.is_ok() && resume {
                    self.restart_pause = false;
                }
                self.flush().await;
                let _ = reply.send(result);
            }
            RoomMsg::Record { reply } => {
                let _ = reply.send(self.bpgn());
            }
            RoomMsg::Legal { board, reply } => {
                let moves = if matches!(self.m.phase(), Phase::Running) {
                    let game = self.m.game();
                    game.legal_moves(board).iter().map(|m| game.uci(m)).collect()
                } else {
                    Vec::new()
                };
                let _ = reply.send(moves);
            }
            RoomMsg::Command { session, out, msg, reply } => {
                let result = self.command(&session, out, msg).await;
                // Write-ahead: the reply waits until the events it caused are durable.
                self.flush().await;
                let _ = reply.send(result);
            }
        }
    }

    /// After a restart, the clocks restart once the four seated players follow the match again.
    fn restart_when_all_back(&mut self) {
        if !self.restart_pause {
            return;
        }
        let connected =
            |p: PlayerId| self.followers.values().any(|f| f.session.player == p && f.out.is_some());
        if self.m.seats().iter().all(|s| s.is_some_and(connected)) {
            let now = self.now();
            if self.m.handle_arbiter(now, ArbiterAct::Resume).is_ok() {
                tracing::info!(match_id = %self.id, "all four players are back: the clocks restart");
            }
            self.restart_pause = false;
        }
    }

    fn follow(&mut self, session: Arc<Session>, out: Outbound, last_seq: Option<u64>) {
        // A long absence is cheaper to bridge with the whole state than event by event (and
        // must not overflow the connection's queue).
        let resume_from = last_seq
            .map(|s| s as usize + 1)
            .filter(|&from| from <= self.views.len() && self.views.len() - from <= MAX_CATCH_UP);
        match resume_from {
            Some(from) => {
                for view in &self.views[from..] {
                    let _ = out.try_send(ServerMsg::Event(view.clone()));
                }
            }
            None => {
                let _ = out.try_send(ServerMsg::State(self.state(session.player)));
            }
        }
        session.set_room(Some(self.id));
        self.followers.insert(session.key.clone(), Follower { session, out: Some(out) });
    }

    fn unfollow(&mut self, session: &Session) -> Result<(), ErrorMsg> {
        if let Some(seat) = self.m.seat_of(session.player) {
            match self.m.phase() {
                Phase::Forming => {
                    let now = self.now();
                    self.m
                        .handle_command(now, session.player, Command::LeaveSeat)
                        .map_err(|r| convert::rejection(&r))?;
                    self.names[seat.index()] = None;
                }
                Phase::Ended(_) | Phase::Annulled => {}
                _ => {
                    return Err(error(
                        ErrorCode::NotInMatch,
                        format!("you play {seat} in match {}", self.id),
                    ));
                }
            }
        }
        self.followers.remove(&session.key);
        session.set_room(None);
        Ok(())
    }

    fn state(&self, player: PlayerId) -> MatchState {
        let now = self.now();
        MatchState {
            match_id: self.id,
            rules: self.rules.clone(),
            time_control: self.time_control.clone(),
            seats: self.names.clone(),
            ready: self.m.ready(),
            phase: convert::phase(self.m.phase()),
            bfen: self.m.game().bfen(),
            clocks_ms: convert::clocks(self.m.clocks(now)),
            running: self.m.running(),
            last_seq: self.views.last().map(|v| v.seq),
            result: self.m.result().map(|a| convert::result(&a)),
            your_seat: self.m.seat_of(player).map(seat_id),
            server_time_us: self.server_time_us(),
        }
    }

    async fn command(
        &mut self,
        session: &Arc<Session>,
        out: Outbound,
        msg: ClientMsg,
    ) -> Result<(), ErrorMsg> {
        let now = self.now();
        let player = session.player;
        let command = match msg {
            ClientMsg::TakeSeat { seat, .. } => {
                if let Some(names) = &self.reserved
                    && names[seat.index()] != session.name
                {
                    return Err(error(
                        ErrorCode::Forbidden,
                        format!("{seat} of this tournament game is reserved for {}", names[seat.index()]),
                    ));
                }
                let seat = convert::seat(seat);
                let taken = self.m.handle_command(now, player, Command::TakeSeat(seat));
                taken.map_err(|r| convert::rejection(&r))?;
                self.names[seat.index()] = Some(session.name.clone());
                // Everyone hears of the seat first; then the seated player gets the whole state,
                // which names his seat (also when he was watching already).
                self.flush().await;
                self.follow(session.clone(), out, None);
                return Ok(());
            }
            ClientMsg::LeaveSeat => Command::LeaveSeat,
            ClientMsg::Ready { ready } => Command::Ready(ready),
            ClientMsg::Move { board, text, think_ms } => {
                let board = convert::board(board);
                self.m.may_move(player, board).map_err(|r| convert::rejection(&r))?;
                let game = self.m.game();
                let mv = game.parse_move(board, &text).map_err(|e| move_error(&e))?;
                self.pending_move = Some((game.uci(&mv), game.san(&mv)));
                Command::Move { mv, client_time: think_ms.map(Duration::from_millis) }
            }
            ClientMsg::OfferDraw => Command::OfferDraw,
            ClientMsg::DeclineDraw => Command::DeclineDraw,
            ClientMsg::Claim(kind) => Command::Claim(convert::claim(kind)),
            ClientMsg::Resign => Command::Resign,
            ClientMsg::CallArbiter => Command::CallArbiter,
            ClientMsg::Chat { scope, text } => return self.chat(session, scope, text),
            _ => return Err(error(ErrorCode::BadRequest, "not a match command")),
        };
        let left = matches!(command, Command::LeaveSeat).then(|| self.m.seat_of(player)).flatten();
        self.m.handle_command(now, player, command).map_err(|r| convert::rejection(&r))?;
        if let Some(seat) = left {
            self.names[seat.index()] = None;
        }
        Ok(())
    }

    /// RULES.md A3: team chat reaches the partner only; a spectator's words never reach the
    /// players of a match in play.
    fn chat(&mut self, session: &Session, scope: ChatScope, text: String) -> Result<(), ErrorMsg> {
        let chars = text.chars().count();
        if chars == 0 || chars > 500 || text.chars().any(char::is_control) {
            return Err(error(
                ErrorCode::BadRequest,
                "a chat message has 1 to 500 characters and no control characters",
            ));
        }
        let from = self.m.seat_of(session.player);
        let in_play =
            matches!(self.m.phase(), Phase::Countdown { .. } | Phase::Running | Phase::Paused { .. });
        let recipients: Vec<String> = match (scope, from) {
            (ChatScope::Team, None) => {
                return Err(error(ErrorCode::NotInMatch, "team chat is for the players of the match"));
            }
            (ChatScope::Team, Some(seat)) => {
                self.tokens_where(|s| s == Some(seat) || s == Some(seat.partner()))
            }
            (ChatScope::Match, Some(_)) => self.followers.keys().cloned().collect(),
            (ChatScope::Match, None) if in_play => self.tokens_where(|s| s.is_none()),
            (ChatScope::Match, None) => self.followers.keys().cloned().collect(),
        };
        let msg = ServerMsg::Chat {
            match_id: self.id,
            from: session.name.clone(),
            seat: from.map(seat_id),
            scope,
            text,
        };
        for token in recipients {
            if let Some(f) = self.followers.get_mut(&token) {
                deliver(f, &msg);
            }
        }
        Ok(())
    }

    fn tokens_where(&self, f: impl Fn(Option<Seat>) -> bool) -> Vec<String> {
        self.followers
            .iter()
            .filter(|(_, fl)| f(self.m.seat_of(fl.session.player)))
            .map(|(t, _)| t.clone())
            .collect()
    }

    /// Makes the events the machine produced durable, then delivers them in order, and refreshes
    /// the lobby summary. Nothing is delivered before it is stored (write-ahead).
    async fn flush(&mut self) {
        let mut batch = Vec::new();
        while let Some(e) = self.m.poll_event() {
            let kind = match &e.kind {
                EventKind::SeatTaken { seat, .. } => EventView::SeatTaken {
                    seat: seat_id(*seat),
                    name: self.names[seat.index()].clone().unwrap_or_default(),
                },
                EventKind::SeatLeft { seat, .. } => EventView::SeatLeft { seat: seat_id(*seat) },
                EventKind::Ready { seat, ready, .. } => {
                    EventView::Ready { seat: seat_id(*seat), ready: *ready }
                }
                EventKind::CountdownStarted { starts_at } => {
                    EventView::CountdownStarted { starts_at_ms: convert::millis(*starts_at) }
                }
                EventKind::Started => EventView::Started,
                EventKind::Moved { seat, charged, credit, .. } => {
                    let (uci, san) = self.pending_move.take().unwrap_or_default();
                    EventView::Moved {
                        seat: seat_id(*seat),
                        uci,
                        san,
                        charged_ms: convert::millis(*charged),
                        credit_ms: convert::millis(*credit),
                    }
                }
                EventKind::DrawOffered { seat, .. } => EventView::DrawOffered { seat: seat_id(*seat) },
                EventKind::DrawDeclined { seat, .. } => EventView::DrawDeclined { seat: seat_id(*seat) },
                EventKind::Claimed { seat, claim, .. } => {
                    EventView::Claimed { seat: seat_id(*seat), claim: convert::claim_kind(*claim) }
                }
                EventKind::Resigned { seat, .. } => EventView::Resigned { seat: seat_id(*seat) },
                EventKind::ArbiterCalled { seat, .. } => EventView::ArbiterCalled { seat: seat_id(*seat) },
                EventKind::FlagFell { seat } => EventView::FlagFell { seat: seat_id(*seat) },
                EventKind::Arbiter(act) => EventView::Arbiter { act: convert::describe_act(act) },
                EventKind::Ended(adj) => EventView::Ended(convert::result(adj)),
            };
            let changes_position = matches!(
                e.kind,
                EventKind::Moved { .. }
                    | EventKind::Arbiter(
                        bughouse_match::ArbiterAct::TakeBack { .. }
                            | bughouse_match::ArbiterAct::SetPosition { .. }
                    )
            );
            let view = MatchEvent {
                match_id: self.id,
                seq: e.seq,
                at_ms: convert::millis(e.at),
                kind,
                clocks_ms: convert::clocks(e.clocks),
                running: self.m.running(),
                bfen: changes_position.then(|| self.m.game().bfen()),
                server_time_us: self.server_time_us(),
            };
            batch.push((e, view));
        }
        if !batch.is_empty() {
            self.persist(&batch).await;
        }
        for (e, view) in batch {
            // A decision is recorded (result row, BPGN file, the tournament's view) before anyone
            // hears of it, so whoever sees `Ended` finds the record already there.
            if let EventKind::Ended(adj) = &e.kind {
                self.record_result(adj).await;
                *self.decided.lock().expect("decided lock") = Some(*adj);
            }
            self.views.push(view.clone());
            let msg = ServerMsg::Event(view);
            for f in self.followers.values_mut() {
                deliver(f, &msg);
            }
        }
        let mut summary = self.summary.lock().expect("summary lock");
        summary.seats = self.names.clone();
        summary.phase = convert::phase(self.m.phase());
    }
}

impl Room {
    /// Stores a batch of events in one transaction, retrying until the database takes it: a
    /// match whose log cannot be written stands still rather than tell anyone what is not durable.
    async fn persist(&self, batch: &[(Event, MatchEvent)]) {
        let rows: Vec<EventRow> = batch
            .iter()
            .map(|(e, view)| EventRow {
                seq: e.seq,
                at_us: e.at.as_micros() as u64,
                event: serde_json::to_string(e).expect("events serialize"),
                view: serde_json::to_string(view).expect("views serialize"),
            })
            .collect();
        let mut wait = Duration::from_millis(50);
        while let Err(e) = self.store.append(self.id.0, &rows).await {
            tracing::error!(match_id = %self.id, error = %e, "cannot store events; retrying");
            tokio::time::sleep(wait).await;
            wait = (wait * 2).min(Duration::from_secs(2));
        }
    }

    async fn record_result(&self, adj: &bughouse::Adjudication) {
        let result = serde_json::to_string(adj).expect("results serialize");
        if let Err(e) = self.store.finish(self.id.0, &result, crate::lobby::unix_ms()).await {
            tracing::error!(match_id = %self.id, error = %e, "cannot store the result (the log has it)");
        }
        // The BPGN file is a convenience beside the database, which stays the record of truth.
        if let Some(dir) = &self.records_dir {
            let path = dir.join(format!("match-{}.bpgn", self.id));
            let written = std::fs::create_dir_all(dir).and_then(|()| std::fs::write(&path, self.bpgn()));
            match written {
                Ok(()) => tracing::info!(match_id = %self.id, path = %path.display(), "match record written"),
                Err(e) => tracing::warn!(match_id = %self.id, error = %e, "cannot write the match record"),
            }
        }
    }

    fn bpgn(&self) -> String {
        crate::record::record(self.id.0, &self.m, &self.names, &crate::record::today()).to_bpgn()
    }
}

/// Queues a message for a follower; a follower whose connection is gone or cannot keep up loses
/// its connection here and catches up when it resumes.
fn deliver(f: &mut Follower, msg: &ServerMsg) {
    if let Some(out) = &f.out
        && out.try_send(msg.clone()).is_err()
    {
        f.out = None;
        f.session.lagging.notify_waiters();
    }
}

fn move_error(e: &bughouse::MoveTextError) -> ErrorMsg {
    match e {
        bughouse::MoveTextError::Illegal { error: play, .. } => ErrorMsg {
            code: ErrorCode::Rejected,
            rule: Some(play.rule.as_str().to_owned()),
            message: e.to_string(),
        },
        _ => error(ErrorCode::BadRequest, e.to_string()),
    }
}

async fn sleep_until(t: Option<Instant>) {
    match t {
        Some(t) => tokio::time::sleep_until(t).await,
        None => std::future::pending().await,
    }
}
