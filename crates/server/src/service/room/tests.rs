//! A match task driven directly on tokio's paused clock, over an in-memory store that fails on
//! command: expiry of unattended forming matches, players that fall behind, spectators served
//! from the gallery (and given the latest state when they fall behind), storage outages (pause,
//! back-off, idempotent retry, resume), and a task that dies.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use bughouse::RuleOptions;
use bughouse_match::{ClockConfig, Match, MatchConfig};
use shvedka_proto::{
    Board, ClientMsg, ClosedReason, ErrorCode, EventView, MatchId, PauseReason, SeatId, ServerMsg,
};
use shvedka_storage::{Ending, NewMatch, Store};
use tokio::sync::oneshot;
use tokio::time::Instant;

use super::{Room, RoomHandle, RoomMsg, RoomSetup};
use crate::service::outbound::{Outbound, OutboundRx};
use crate::service::session::{Session, Sessions};
use crate::test_store::MemStore;

const ID: MatchId = MatchId(1);
const EXPIRY: Duration = Duration::from_secs(600);

struct Fixture {
    store: Arc<MemStore>,
    sessions: Arc<Sessions>,
    room: RoomHandle,
    task: tokio::task::JoinHandle<super::Ran>,
    /// This node's standing: lost, the task lets its match go.
    standing: crate::service::standing::StandingTx,
}

/// A match task of a new classic 3+0 match (no countdown) over a fresh in-memory store.
async fn fixture() -> Fixture {
    let store = Arc::new(MemStore::default());
    let clock = ClockConfig::builtin();
    let config = MatchConfig {
        rules: RuleOptions::preset("classic").unwrap(),
        time_control: clock.time_control("3+0").unwrap(),
        lag: clock.lag,
        countdown: Duration::ZERO,
        start: None,
        window_holds_endings: true,
    };
    let created = NewMatch {
        id: ID.0,
        rules: "classic".into(),
        time_control: "3+0".into(),
        listed: true,
        config: serde_json::to_string(&config).unwrap(),
        created_ms: 0,
        invite_hash: None,
        rated: false,
    };
    store.add_match(&created).await.unwrap();
    let sessions = Arc::new(Sessions::new(store.clone(), 0, Duration::from_secs(86_400)));
    let (standing_tx, standing) = crate::service::standing::channel();
    let setup = RoomSetup {
        listed: true,
        rated: false,
        hooks: Arc::new(crate::service::hooks::Unrated),
        creator: None,
        store: store.clone(),
        committer: crate::service::committer::Committer::spawn(
            store.clone(),
            Arc::new(crate::service::metrics::Metrics::new()),
        ),
        sessions: sessions.clone(),
        started: Instant::now(),
        records_dir: None,
        reserved: None,
        arbiters: false,
        expiry: EXPIRY,
        restart_wait: Duration::from_secs(120),
        metrics: Arc::new(crate::service::metrics::Metrics::new()),
        restored: None,
        gallery: 4,
        standing,
        lingering: Arc::default(),
    };
    let (room, handle) = Room::new(ID, Match::new(config).unwrap(), setup);
    let task = tokio::spawn(room.run());
    Fixture { store, sessions, room: handle, task, standing: standing_tx }
}

/// A player: a session with one connection.
struct Player {
    session: Arc<Session>,
    out: Outbound,
    rx: OutboundRx,
}

impl Fixture {
    async fn player(&self, name: &str, queue: usize) -> Player {
        let (session, _token) = self.sessions.open(name.into(), None).await.unwrap();
        let (out, rx) = Outbound::channel(queue);
        Player { session, out, rx }
    }

    async fn ask(&self, p: &Player, msg: ClientMsg) -> Result<(), shvedka_proto::ErrorMsg> {
        let (reply, rx) = oneshot::channel();
        let msg =
            RoomMsg::Command { session: p.session.clone(), out: p.out.clone(), msg: Box::new(msg), reply };
        self.room.tx.send(msg).await.expect("the task runs");
        rx.await.expect("an answer")
    }

    /// Four players seated and ready: the match runs.
    async fn running(&self) -> Vec<Player> {
        let mut players = Vec::new();
        for seat in SeatId::ALL {
            let p = self.player(seat.name(), 1024).await;
            self.ask(&p, ClientMsg::TakeSeat { match_id: ID, seat }).await.unwrap();
            players.push(p);
        }
        for p in &players {
            self.ask(p, ClientMsg::Ready { ready: true }).await.unwrap();
        }
        players
    }
}

/// Every event kind queued for a player so far.
fn kinds(rx: &mut OutboundRx) -> Vec<EventView> {
    let mut v = Vec::new();
    while let Some(msg) = rx.try_recv() {
        if let ServerMsg::Event(e) = msg.into_msg() {
            v.push(e.kind);
        }
    }
    v
}

#[tokio::test(start_paused = true)]
async fn a_forming_match_nobody_attends_expires_and_is_stored_as_expired() {
    let f = fixture().await;
    let mut watcher = f.player("watcher", 16).await;
    let (reply, rx) = oneshot::channel();
    let follow =
        RoomMsg::Follow { session: watcher.session.clone(), out: watcher.out.clone(), last_seq: None, reply };
    f.room.tx.send(follow).await.unwrap();
    rx.await.unwrap().unwrap();
    tokio::time::sleep(EXPIRY - Duration::from_secs(1)).await;
    assert!(!f.task.is_finished(), "not before the expiry time");
    assert_eq!(f.store.ending(ID.0), None);
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert!(f.task.await.unwrap().finished.is_none(), "an expired match has no rematch");
    assert_eq!(f.store.ending(ID.0), Some(Ending::Expired), "stored as expired: never restored");
    let mut told = None;
    while let Some(msg) = watcher.rx.try_recv() {
        if let ServerMsg::MatchClosed { match_id, reason } = msg.into_msg() {
            told = Some((match_id, reason));
        }
    }
    assert_eq!(told, Some((ID, ClosedReason::Expired)), "the watcher is told why");
    assert_eq!(watcher.session.room(), None, "and follows no match any more");
}

#[tokio::test(start_paused = true)]
async fn a_forming_match_expires_once_its_seated_player_has_been_gone_for_the_expiry_time() {
    let f = fixture().await;
    let p = f.player("anna", 16).await;
    f.ask(&p, ClientMsg::TakeSeat { match_id: ID, seat: SeatId::WhiteA }).await.unwrap();
    tokio::time::sleep(EXPIRY * 3).await;
    assert!(!f.task.is_finished(), "attended: it waits as long as she is there");
    // Her connection ends without a word (its writer is gone).
    let Player { rx, .. } = p;
    drop(rx);
    let gone = Instant::now();
    f.task.await.unwrap();
    let waited = gone.elapsed();
    assert!(waited >= EXPIRY && waited <= EXPIRY + EXPIRY / 4 + Duration::from_secs(1), "{waited:?}");
    assert_eq!(f.store.ending(ID.0), Some(Ending::Expired));
}

#[tokio::test(start_paused = true)]
async fn a_player_that_cannot_keep_up_is_signalled_once_and_gets_nothing_more() {
    let f = fixture().await;
    let players = f.running().await;
    // Black-B's client comes back on a connection whose queue holds two messages.
    let (out, mut slow_rx) = Outbound::channel(2);
    let (reply, rx) = oneshot::channel();
    let follow =
        RoomMsg::Follow { session: players[3].session.clone(), out: out.clone(), last_seq: None, reply };
    f.room.tx.send(follow).await.unwrap();
    rx.await.unwrap().unwrap();
    // The state fills one place; three moves overflow the queue of two.
    for (i, text) in ["e4", "e5", "d4"].into_iter().enumerate() {
        let p = &players[if i % 2 == 0 { 0 } else { 1 }];
        f.ask(p, ClientMsg::Move { board: Board::A, text: text.into(), think_ms: None }).await.unwrap();
    }
    // The signal was raised while nobody waited for it: it is kept for the connection.
    tokio::time::timeout(Duration::from_secs(1), out.fallen_behind()).await.expect("signalled");
    let mut got = 0;
    while slow_rx.try_recv().is_some() {
        got += 1;
    }
    assert_eq!(got, 2, "the queue holds what fitted; nothing was forced in");
    f.ask(&players[1], ClientMsg::Move { board: Board::A, text: "d5".into(), think_ms: None }).await.unwrap();
    assert!(slow_rx.try_recv().is_none(), "a player that fell behind gets nothing until he resumes");
}

/// A spectator following the match with a queue of `queue` messages.
async fn spectator(f: &Fixture, name: &str, queue: usize) -> Player {
    let p = f.player(name, queue).await;
    let (reply, rx) = oneshot::channel();
    let follow = RoomMsg::Follow { session: p.session.clone(), out: p.out.clone(), last_seq: None, reply };
    f.room.tx.send(follow).await.unwrap();
    rx.await.unwrap().unwrap();
    p
}

/// Board A's moves of a short game, White-A and Black-A in turn.
const MOVES: [&str; 10] = ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "c3", "Nf6", "d3", "d6"];

async fn play_a(f: &Fixture, players: &[Player], moves: &[&str]) {
    for &text in moves {
        let mover = &players[MOVES.iter().position(|m| *m == text).expect("a move of MOVES") % 2];
        f.ask(mover, ClientMsg::Move { board: Board::A, text: text.into(), think_ms: None }).await.unwrap();
    }
}

/// What a connection's writer would take now, waiting for what is on its way (a spectator's lane
/// is released within a round).
async fn taken(rx: &mut OutboundRx) -> Vec<ServerMsg> {
    let mut got = Vec::new();
    let wait = crate::service::gallery::ROUND * 2;
    while let Ok(Some(msg)) = tokio::time::timeout(wait, rx.recv()).await {
        got.push(msg.into_msg());
    }
    got
}

fn seqs(msgs: &[ServerMsg]) -> Vec<u64> {
    msgs.iter().filter_map(|m| if let ServerMsg::Event(e) = m { Some(e.seq) } else { None }).collect()
}

#[tokio::test(start_paused = true)]
async fn a_spectator_takes_every_event_once_in_order_from_the_gallery_not_through_his_queue() {
    let f = fixture().await;
    let players = f.running().await;
    // A queue of two: the state and one more. Events through it would overflow it at once.
    let mut s = spectator(&f, "watcher", 2).await;
    let mut seen = Vec::new();
    for pair in MOVES.chunks(2) {
        play_a(&f, &players, pair).await;
        seen.extend(taken(&mut s.rx).await);
    }
    let behind = tokio::time::timeout(Duration::from_millis(10), s.out.fallen_behind()).await;
    assert!(behind.is_err(), "never behind: the match did not queue his events");
    let ServerMsg::State(state) = &seen[0] else { panic!("the state first: {seen:?}") };
    let first = state.last_seq.map_or(0, |s| s + 1);
    let expected: Vec<u64> = (first..first + MOVES.len() as u64).collect();
    assert_eq!(seqs(&seen), expected, "each move once, in log order, no gap");
}

#[tokio::test(start_paused = true)]
async fn a_spectator_who_falls_behind_is_given_the_latest_state_then_every_later_event() {
    let f = fixture().await;
    let players = f.running().await;
    let mut s = spectator(&f, "dreamer", 16).await;
    // He takes nothing while ten moves are made: the gallery keeps four.
    play_a(&f, &players, &MOVES).await;
    let seen = taken(&mut s.rx).await;
    let states: Vec<_> =
        seen.iter().filter_map(|m| if let ServerMsg::State(s) = m { Some(s) } else { None }).collect();
    assert_eq!(states.len(), 2, "his first state, and the latest instead of the moves he missed: {seen:?}");
    let last = f.store.log(ID.0).last().unwrap().seq;
    assert_eq!(states[1].last_seq, Some(last), "the latest state covers every move");
    assert_eq!(states[1].your_seat, None);
    assert_eq!(states[1].moves.len(), MOVES.len(), "with the whole move list");
    assert!(seqs(&seen).iter().all(|&seq| seq <= last), "nothing after it yet");
    let after_state =
        seen.iter().skip_while(|m| !matches!(m, ServerMsg::State(s) if s.last_seq == Some(last)));
    assert_eq!(seqs(&after_state.cloned().collect::<Vec<_>>()), Vec::<u64>::new(), "nothing it covers again");
    // And the next move reaches him as an event, right after the state.
    f.ask(&players[2], ClientMsg::Move { board: Board::B, text: "d4".into(), think_ms: None }).await.unwrap();
    assert_eq!(seqs(&taken(&mut s.rx).await), vec![last + 1]);
    let behind = tokio::time::timeout(Duration::from_millis(10), s.out.fallen_behind()).await;
    assert!(behind.is_err(), "never disconnected for it");
}

#[tokio::test(start_paused = true)]
async fn a_spectator_who_takes_a_seat_is_told_each_event_once_first_by_the_gallery_then_by_his_queue() {
    let f = fixture().await;
    let mut s = spectator(&f, "late", 64).await;
    let anna = f.player("anna", 64).await;
    f.ask(&anna, ClientMsg::TakeSeat { match_id: ID, seat: SeatId::WhiteA }).await.unwrap();
    f.ask(&s, ClientMsg::TakeSeat { match_id: ID, seat: SeatId::BlackA }).await.unwrap();
    f.ask(&anna, ClientMsg::Ready { ready: true }).await.unwrap();
    let seen = taken(&mut s.rx).await;
    let kinds: Vec<&str> = seen
        .iter()
        .map(|m| match m {
            ServerMsg::State(st) if st.your_seat.is_some() => "seated state",
            ServerMsg::State(_) => "state",
            ServerMsg::Event(e) => match e.kind {
                EventView::SeatTaken { seat: SeatId::WhiteA, .. } => "anna sits",
                EventView::SeatTaken { seat: SeatId::BlackA, .. } => "he sits",
                EventView::Ready { .. } => "ready",
                _ => "other",
            },
            _ => "other",
        })
        .collect();
    assert_eq!(kinds, ["state", "anna sits", "he sits", "seated state", "ready"], "{seen:?}");
    let seqs = seqs(&seen);
    let mut sorted = seqs.clone();
    sorted.dedup();
    assert_eq!(seqs, sorted, "no event twice");
}

/// Issue 58: a full disk refuses moves with its own reason (players see why, and that it is the
/// operator's to mend), acknowledges nothing it did not store, and play resumes once space is
/// back.
#[tokio::test(start_paused = true)]
async fn k5_a_full_disk_refuses_moves_as_such_loses_nothing_acknowledged_and_play_resumes_with_space() {
    let f = fixture().await;
    let mut players = f.running().await;
    f.ask(&players[0], ClientMsg::Move { board: Board::A, text: "e4".into(), think_ms: None }).await.unwrap();
    kinds(&mut players[0].rx);
    let stored = f.store.log(ID.0).len();
    f.store.faults.full.store(true, Ordering::SeqCst);
    // Black-A's move cannot be stored: it waits, unacknowledged.
    let (reply, mut answered) = oneshot::channel();
    let msg = ClientMsg::Move { board: Board::A, text: "e5".into(), think_ms: None };
    let b = &players[1];
    f.room
        .tx
        .send(RoomMsg::Command { session: b.session.clone(), out: b.out.clone(), msg: Box::new(msg), reply })
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_secs(5)).await;
    assert!(answered.try_recv().is_err(), "not acknowledged while it is not stored");
    // Every other move meanwhile: refused, saying the disk is full.
    let refused =
        f.ask(&players[2], ClientMsg::Move { board: Board::B, text: "d4".into(), think_ms: None }).await;
    assert_eq!(refused.unwrap_err().code, ErrorCode::StorageFull);
    assert_eq!(f.store.log(ID.0).len(), stored, "nothing more stored");
    assert!(kinds(&mut players[0].rx).is_empty(), "nothing is told before it is stored");
    // Space returns: the waiting move is stored and acknowledged, the match resumes by itself.
    f.store.faults.full.store(false, Ordering::SeqCst);
    answered.await.unwrap().unwrap();
    let seen = kinds(&mut players[0].rx);
    assert!(matches!(seen[0], EventView::Moved { .. }), "{seen:?}");
    assert_eq!(seen[1], EventView::Paused { reason: PauseReason::Storage });
    assert_eq!(seen[2], EventView::Resumed { reason: PauseReason::Storage });
    // And the next move is taken as any other (not refused as full any more).
    f.ask(&players[2], ClientMsg::Move { board: Board::B, text: "d4".into(), think_ms: None }).await.unwrap();
    assert!(f.store.log(ID.0).len() > stored + 2, "e5, the pause, the resume and d4 stored");
}

#[tokio::test(start_paused = true)]
async fn k5_a_storage_outage_pauses_the_match_charges_nobody_and_it_resumes_by_itself() {
    let f = fixture().await;
    let mut players = f.running().await;
    f.ask(&players[0], ClientMsg::Move { board: Board::A, text: "e4".into(), think_ms: None }).await.unwrap();
    kinds(&mut players[0].rx);
    f.store.faults.refuse.store(true, Ordering::SeqCst);
    let tries_before = f.store.faults.appends.load(Ordering::SeqCst);
    // Black-A moves while storage refuses: his request waits for the write.
    let (reply, answered) = oneshot::channel();
    let msg = ClientMsg::Move { board: Board::A, text: "e5".into(), think_ms: None };
    let b = &players[1];
    f.room
        .tx
        .send(RoomMsg::Command { session: b.session.clone(), out: b.out.clone(), msg: Box::new(msg), reply })
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_secs(1)).await;
    // Meanwhile every other request is answered at once: unavailable.
    let refused =
        f.ask(&players[2], ClientMsg::Move { board: Board::B, text: "d4".into(), think_ms: None }).await;
    assert_eq!(refused.unwrap_err().code, ErrorCode::Unavailable);
    assert!(kinds(&mut players[0].rx).is_empty(), "nothing is told before it is stored");
    tokio::time::sleep(Duration::from_secs(59)).await;
    // Back-off: at most one try every 2 s after the first few, not a busy loop.
    let tries = f.store.faults.appends.load(Ordering::SeqCst) - tries_before;
    assert!((5..=40).contains(&tries), "{tries} tries in a minute");
    f.store.faults.refuse.store(false, Ordering::SeqCst);
    answered.await.unwrap().unwrap();
    let seen = kinds(&mut players[0].rx);
    assert!(matches!(seen[0], EventView::Moved { .. }), "{seen:?}");
    assert_eq!(seen[1], EventView::Paused { reason: PauseReason::Storage });
    assert_eq!(seen[2], EventView::Resumed { reason: PauseReason::Storage });
    // White-A's clock runs from the resume: the minute of the outage is charged to nobody.
    let log = f.store.log(ID.0);
    let last: shvedka_proto::MatchEvent = serde_json::from_str(&log.last().unwrap().view).unwrap();
    assert!(last.clocks_ms[0] > 170_000, "White-A was not charged the outage: {:?}", last.clocks_ms);
    f.ask(&players[2], ClientMsg::Move { board: Board::B, text: "d4".into(), think_ms: None }).await.unwrap();
}

#[tokio::test(start_paused = true)]
async fn a4_a_commit_whose_acknowledgement_was_lost_is_retried_without_a_duplicate() {
    let f = fixture().await;
    let mut players = f.running().await;
    let tried = f.store.faults.appends.load(Ordering::SeqCst);
    f.store.faults.lose_ack.store(true, Ordering::SeqCst);
    f.ask(&players[0], ClientMsg::Move { board: Board::A, text: "e4".into(), think_ms: None }).await.unwrap();
    assert!(!f.store.faults.lose_ack.load(Ordering::SeqCst), "the lost acknowledgement happened");
    let retries = f.store.faults.appends.load(Ordering::SeqCst) - tried;
    assert!(retries >= 2, "e4's commit was sent again after its lost acknowledgement ({retries} appends)");
    f.ask(&players[1], ClientMsg::Move { board: Board::A, text: "e5".into(), think_ms: None }).await.unwrap();
    let log = f.store.log(ID.0);
    for (i, e) in log.iter().enumerate() {
        assert_eq!(e.seq, i as u64, "one event per number, no gap, no duplicate");
    }
    // The rows themselves: each move once, whatever was sent twice.
    let stored =
        |text: &str| log.iter().filter(|e| e.view.contains("\"Moved\"") && e.view.contains(text)).count();
    assert_eq!((stored("\"e4\""), stored("\"e5\"")), (1, 1), "each move stored once");
    let moves =
        kinds(&mut players[2].rx).into_iter().filter(|k| matches!(k, EventView::Moved { .. })).count();
    assert_eq!(moves, 2, "each move told once");
}

#[tokio::test(start_paused = true)]
async fn a_commit_that_panics_fails_its_batch_and_the_match_goes_on() {
    let f = fixture().await;
    let players = f.running().await;
    let tried = f.store.faults.appends.load(Ordering::SeqCst);
    f.store.faults.panic.store(true, Ordering::SeqCst);
    let e4 = ClientMsg::Move { board: Board::A, text: "e4".into(), think_ms: None };
    f.ask(&players[0], e4).await.expect("stored on the retry after the failed commit");
    // The injected panic fired (the append that panics takes its flag), was answered as a failed
    // commit (the match paused for storage, which only a failed write does), and e4 was stored
    // once by a later append.
    assert!(!f.store.faults.panic.load(Ordering::SeqCst), "the injected panic never fired");
    assert!(f.store.faults.appends.load(Ordering::SeqCst) - tried >= 2, "the panicked commit, then a retry");
    let log = f.store.log(ID.0);
    let moves = log.iter().filter(|e| e.view.contains("\"Moved\"")).count();
    assert_eq!(moves, 1, "e4 stored once");
    let paused = log.iter().any(|e| e.view.contains("\"Paused\"") && e.view.contains("Storage"));
    assert!(paused, "the failed commit paused the match for storage");
    let e5 = ClientMsg::Move { board: Board::A, text: "e5".into(), think_ms: None };
    f.ask(&players[1], e5).await.unwrap();
    assert!(!f.task.is_finished());
}

#[tokio::test(start_paused = true)]
async fn a_task_that_dies_frees_and_tells_its_followers() {
    let f = fixture().await;
    let mut players = f.running().await;
    let mut p = players.remove(0);
    assert_eq!(p.session.room(), Some(ID));
    f.store.faults.panic_finish.store(true, Ordering::SeqCst);
    let (reply, rx) = oneshot::channel();
    let msg = RoomMsg::Command {
        session: p.session.clone(),
        out: p.out.clone(),
        msg: Box::new(ClientMsg::Resign),
        reply,
    };
    f.room.tx.send(msg).await.unwrap();
    assert!(rx.await.is_err(), "no answer from a dead task (the session says the match is gone)");
    assert!(f.task.await.err().expect("a panic").is_panic());
    assert_eq!(p.session.room(), None, "freed: it may watch or join another match");
    let mut told = None;
    while let Some(msg) = p.rx.try_recv() {
        if let ServerMsg::MatchClosed { reason, .. } = msg.into_msg() {
            told = Some(reason);
        }
    }
    assert_eq!(told, Some(ClosedReason::Failed));
    assert!(f.store.ending(ID.0).is_none(), "not marked decided: it stays restorable from its log");
}

#[tokio::test(start_paused = true)]
async fn a_fenced_append_ends_the_task_and_its_players_are_sent_to_whoever_runs_the_match_now() {
    let f = fixture().await;
    let mut players = f.running().await;
    f.ask(&players[0], ClientMsg::Move { board: Board::A, text: "e4".into(), think_ms: None }).await.unwrap();
    let stored = f.store.log(ID.0).len();
    for p in &mut players {
        kinds(&mut p.rx);
    }
    // Another node took the match over (cluster mode): this node's appends are refused.
    f.store.faults.fenced.store(true, Ordering::SeqCst);
    let tries_before = f.store.faults.appends.load(Ordering::SeqCst);
    let answer =
        f.ask(&players[1], ClientMsg::Move { board: Board::A, text: "e5".into(), think_ms: None }).await;
    assert_eq!(answer.unwrap_err().code, ErrorCode::Unavailable, "not acknowledged: it was not stored");
    f.task.await.expect("the task ends without a panic");
    assert_eq!(
        f.store.faults.appends.load(Ordering::SeqCst) - tries_before,
        1,
        "no retry: another node's log cannot be written by waiting"
    );
    assert_eq!(f.store.log(ID.0).len(), stored, "nothing of it stored");
    for p in &mut players {
        let mut told = Vec::new();
        while let Some(msg) = p.rx.try_recv() {
            told.push(msg.into_msg());
        }
        assert!(!told.iter().any(|m| matches!(m, ServerMsg::Event(_))), "nothing unstored is told: {told:?}");
        assert!(
            told.iter().any(|m| matches!(
                m,
                ServerMsg::ResumeElsewhere { reason: shvedka_proto::ElsewhereReason::LeaseLost, .. }
            )),
            "told to follow it where it runs now, not that it closed: {told:?}"
        );
        assert!(!told.iter().any(|m| matches!(m, ServerMsg::MatchClosed { .. })), "{told:?}");
    }
    assert!(f.store.ending(ID.0).is_none(), "not marked ended: the new owner runs it on");
}

#[tokio::test(start_paused = true)]
async fn a_crowd_arriving_at_once_shares_one_state_made_once_until_the_next_event() {
    use crate::service::encoding::Outgoing;
    let f = fixture().await;
    let players = f.running().await;
    let mut crowd = Vec::new();
    for i in 0..50 {
        crowd.push(spectator(&f, &format!("fan{i}"), 4).await);
    }
    let first_state = |p: &mut Player| match p.rx.try_recv() {
        Some(Outgoing::Shared(state)) if matches!(state.msg(), ServerMsg::State(_)) => state,
        other => panic!("a shared state first, got {other:?}"),
    };
    let states: Vec<_> = crowd.iter_mut().map(first_state).collect();
    assert!(states.iter().all(|s| Arc::ptr_eq(s, &states[0])), "one state for the crowd, made once");
    // After a move, a newcomer's state has it: the shared one is never stale by an event.
    play_a(&f, &players, &MOVES[..1]).await;
    let mut late = spectator(&f, "late", 4).await;
    let state = first_state(&mut late);
    assert!(!Arc::ptr_eq(&state, &states[0]));
    let ServerMsg::State(s) = state.msg() else { unreachable!() };
    assert_eq!(s.moves.len(), 1);
}

#[tokio::test(start_paused = true)]
async fn a_crowd_coming_and_going_leaves_the_match_no_follower_per_spectator_gone() {
    let f = fixture().await;
    let mut players = f.running().await;
    // A player whose connection drops stays a follower: his seat is his (he resumes).
    let gone_player = players.pop().unwrap();
    let gone_player_session = gone_player.session.clone();
    let held = |s: &Arc<Session>| Arc::strong_count(s);
    let player_before = held(&gone_player_session);
    drop(gone_player);
    // A crowd four times the sweep's threshold, each spectator closing his page after watching.
    let mut left = Vec::new();
    for i in 0..4 * super::followers::SWEEP_MIN {
        let fan = spectator(&f, &format!("fan{i}"), 4).await;
        let watching = held(&fan.session);
        left.push((fan.session.clone(), watching));
        drop(fan);
    }
    // One more, still watching.
    let mut stays = spectator(&f, "stays", 4).await;
    let room_holds = |s: &Arc<Session>, watching: usize| held(s) == watching;
    let still_held = left.iter().filter(|(s, watching)| room_holds(s, *watching)).count();
    assert!(
        still_held <= super::followers::SWEEP_MIN,
        "{still_held} of {} spectators gone still held by the match",
        left.len()
    );
    assert_eq!(held(&gone_player_session), player_before - 1, "the seated player's follower is kept");
    // The one still watching is served as before.
    play_a(&f, &players, &MOVES[..1]).await;
    let seen = taken(&mut stays.rx).await;
    assert_eq!(seqs(&seen).len(), 1, "{seen:?}");
}

#[tokio::test(start_paused = true)]
async fn a_node_that_lost_its_lease_lets_the_match_go_storing_and_acknowledging_nothing_more() {
    let f = fixture().await;
    let mut players = f.running().await;
    let mut fan = spectator(&f, "fan", 16).await;
    f.ask(&players[0], ClientMsg::Move { board: Board::A, text: "e4".into(), think_ms: None }).await.unwrap();
    let stored = f.store.log(ID.0).len();
    for p in &mut players {
        kinds(&mut p.rx);
    }
    // The database is cut off: the next move waits for its write, retried with back-off.
    f.store.faults.refuse.store(true, Ordering::SeqCst);
    let (reply, answer) = oneshot::channel();
    let msg = ClientMsg::Move { board: Board::A, text: "e5".into(), think_ms: None };
    let asked = RoomMsg::Command {
        session: players[1].session.clone(),
        out: players[1].out.clone(),
        msg: Box::new(msg),
        reply,
    };
    f.room.tx.send(asked).await.unwrap();
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert!(!f.task.is_finished(), "storage failing alone: the match waits for it");
    // The lease is lost: the task ends where it is, whatever storage does after.
    assert!(f.standing.set(false));
    f.store.faults.refuse.store(false, Ordering::SeqCst);
    let answer = answer.await.expect("answered");
    assert_eq!(answer.unwrap_err().code, ErrorCode::Unavailable, "not acknowledged: not stored here");
    let ran = f.task.await.expect("the task ends without a panic");
    assert!(ran.let_go, "let go, so its lease is kept to be taken back");
    assert!(ran.finished.is_none());
    assert_eq!(f.store.log(ID.0).len(), stored, "nothing more stored");
    for p in &mut players {
        let mut told = Vec::new();
        while let Some(msg) = p.rx.try_recv() {
            told.push(msg.into_msg());
        }
        let moved = told
            .iter()
            .any(|m| matches!(m, ServerMsg::Event(e) if matches!(e.kind, EventView::Moved { .. })));
        assert!(!moved, "nothing unstored is told: {told:?}");
        assert!(
            matches!(
                told.last(),
                Some(ServerMsg::ResumeElsewhere {
                    match_id: ID,
                    reason: shvedka_proto::ElsewhereReason::LeaseLost
                })
            ),
            "told to resume elsewhere, last: {told:?}"
        );
        assert_eq!(p.session.room(), None, "it follows no match here any more");
    }
    let mut fan_told = Vec::new();
    while let Some(msg) = fan.rx.try_recv() {
        fan_told.push(msg.into_msg());
    }
    assert!(
        fan_told.iter().any(|m| matches!(m, ServerMsg::ResumeElsewhere { .. })),
        "the spectators too: {fan_told:?}"
    );
    assert!(f.store.ending(ID.0).is_none(), "not marked ended: another node runs it on");
}

/// A match task lives as long as its match, and an async function's future is as large as its
/// largest await. With a request or a flush served inline, a waiting match held 4.9 KiB besides
/// its room; they are boxed while they run.
#[test]
fn a_waiting_match_task_holds_its_room_and_little_more() {
    /// The size of the future `run` returns, without calling it.
    fn of_task<F: std::future::Future>(_run: impl FnOnce(Room) -> F) -> usize {
        std::mem::size_of::<F>()
    }
    let beside = of_task(Room::run) - std::mem::size_of::<Room>();
    assert!(beside <= 3584, "a match task holds {beside} bytes besides its room");
}

/// Every match's queue allocates its first 32 slots when it is made: a command inline (96
/// bytes) made each slot 128 bytes, 4 KiB a match waiting in every match (heap profile).
#[test]
fn a_match_queue_slot_is_small() {
    assert!(std::mem::size_of::<RoomMsg>() <= 64, "a RoomMsg is {} bytes", std::mem::size_of::<RoomMsg>());
}

/// K3: a client's thinking time is evidence for lag credit, read as at most a year; one past
/// what the log's whole nanoseconds hold (`u64::MAX` ms) neither fails the move's store nor ends
/// the match.
#[tokio::test(start_paused = true)]
async fn k3_a_thinking_time_past_any_clock_is_read_as_a_year_and_the_move_is_stored() {
    let f = fixture().await;
    let players = f.running().await;
    let e4 = ClientMsg::Move { board: Board::A, text: "e4".into(), think_ms: Some(u64::MAX) };
    f.ask(&players[0], e4).await.expect("the move is played and stored");
    let log = f.store.log(ID.0);
    let moved = log
        .iter()
        .map(|row| serde_json::from_str::<bughouse_match::Event>(&row.event).expect("the log reads"))
        .find_map(|e| match e.kind {
            bughouse_match::EventKind::Moved { client_time, credit, .. } => Some((client_time, credit)),
            _ => None,
        });
    assert_eq!(moved, Some((Some(bughouse_match::MOST_CLIENT_TIME), Duration::ZERO)));
    let e5 = ClientMsg::Move { board: Board::A, text: "e5".into(), think_ms: None };
    f.ask(&players[1], e5).await.expect("the match goes on");
    assert!(!f.task.is_finished());
}

/// Anna's, Boris's and Vera's sessions with their connections, as a decided match keeps them.
async fn three_watchers(f: &Fixture) -> Vec<crate::service::rooms::lingering::Watcher> {
    let mut watchers = Vec::new();
    for name in ["anna", "boris", "vera"] {
        let p = f.player(name, 4).await;
        watchers.push((p.session.clone(), p.out.clone()));
    }
    watchers
}

/// The watchers of decided matches are bounded (`decided_matches_watched`,
/// `decided_watchers_kept`): the oldest match's go first, a match keeps its first watchers only,
/// and one who follows another match since is not told.
#[tokio::test]
async fn a2_the_watchers_of_decided_matches_are_bounded() {
    use crate::service::rooms::lingering::Lingering;
    let f = fixture().await;
    let watchers = three_watchers(&f).await;
    let kept = Lingering::new(2, 2);
    for id in 1..=3 {
        kept.keep(MatchId(id), watchers.clone());
    }
    assert!(kept.take(MatchId(1)).is_empty(), "the oldest match's watchers went first");
    let two = kept.take(MatchId(2));
    assert_eq!(two.iter().map(|(s, _)| s.name.as_str()).collect::<Vec<_>>(), ["anna", "boris"]);
    assert!(kept.take(MatchId(2)).is_empty(), "taken once");
    watchers[0].0.set_room(Some(MatchId(9)));
    let three = kept.take(MatchId(3));
    assert_eq!(
        three.iter().map(|(s, _)| s.name.as_str()).collect::<Vec<_>>(),
        ["boris"],
        "anna follows match 9 now"
    );
    let none = Lingering::new(0, 64);
    none.keep(MatchId(1), watchers);
    assert!(none.take(MatchId(1)).is_empty(), "0 keeps none");
}

/// A2: a connection that resumes on a decided match's end screen is kept in place of its
/// session's lost one (not beside it), a match not kept yet is kept for it, and the bounds hold.
#[tokio::test]
async fn a2_a_resumed_end_screen_replaces_its_lost_connection_among_the_kept_watchers() {
    use crate::service::rooms::lingering::Lingering;
    let f = fixture().await;
    let watchers = three_watchers(&f).await;
    let kept = Lingering::new(2, 2);
    kept.keep(MatchId(1), watchers[..2].to_vec());
    let again = f.player("anna-again", 4).await;
    kept.add(MatchId(1), (watchers[0].0.clone(), again.out.clone()));
    let one = kept.take(MatchId(1));
    assert_eq!(one.iter().map(|(s, _)| s.name.as_str()).collect::<Vec<_>>(), ["boris", "anna"]);
    assert!(one[1].1.same(&again.out), "anna's new connection, not her lost one");
    // Full: another session is not added past the bound.
    kept.keep(MatchId(2), watchers[..2].to_vec());
    kept.add(MatchId(2), watchers[2].clone());
    assert_eq!(kept.take(MatchId(2)).len(), 2);
    // A match not kept yet is kept for the resumed connection, the oldest going first.
    kept.keep(MatchId(3), watchers[..1].to_vec());
    kept.keep(MatchId(4), watchers[..1].to_vec());
    kept.add(MatchId(5), watchers[2].clone());
    assert!(kept.take(MatchId(3)).is_empty(), "the oldest went first");
    assert_eq!(kept.take(MatchId(5)).iter().map(|(s, _)| s.name.as_str()).collect::<Vec<_>>(), ["vera"]);
}
