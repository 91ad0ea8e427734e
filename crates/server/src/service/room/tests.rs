//! A match task driven directly on tokio's paused clock, over an in-memory store that fails on
//! command: expiry of unattended forming matches, followers that fall behind, storage outages
//! (pause, back-off, idempotent retry, resume), and a task that dies.

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
    task: tokio::task::JoinHandle<Option<crate::service::hooks::Finished>>,
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
        metrics: Arc::new(crate::service::metrics::Metrics::new()),
        restored: None,
    };
    let (room, handle) = Room::new(ID, Match::new(config).unwrap(), setup);
    let task = tokio::spawn(room.run());
    Fixture { store, sessions, room: handle, task }
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
        let msg = RoomMsg::Command { session: p.session.clone(), out: p.out.clone(), msg, reply };
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
    while let Ok(msg) = rx.try_recv() {
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
    assert!(f.task.await.unwrap().is_none(), "an expired match has no rematch");
    assert_eq!(f.store.ending(ID.0), Some(Ending::Expired), "stored as expired: never restored");
    let mut told = None;
    while let Ok(msg) = watcher.rx.try_recv() {
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
async fn a_follower_that_cannot_keep_up_is_signalled_once_and_gets_nothing_more() {
    let f = fixture().await;
    let players = f.running().await;
    let (reply, rx) = oneshot::channel();
    let slow = f.player("slow", 2).await;
    let follow =
        RoomMsg::Follow { session: slow.session.clone(), out: slow.out.clone(), last_seq: None, reply };
    f.room.tx.send(follow).await.unwrap();
    rx.await.unwrap().unwrap();
    // The state fills one place; three moves overflow the queue of two.
    for (i, text) in ["e4", "e5", "d4"].into_iter().enumerate() {
        let p = &players[if i % 2 == 0 { 0 } else { 1 }];
        f.ask(p, ClientMsg::Move { board: Board::A, text: text.into(), think_ms: None }).await.unwrap();
    }
    // The signal was raised while nobody waited for it: it is kept for the connection.
    tokio::time::timeout(Duration::from_secs(1), slow.out.fallen_behind()).await.expect("signalled");
    let mut slow_rx = slow.rx;
    let mut got = 0;
    while slow_rx.try_recv().is_ok() {
        got += 1;
    }
    assert_eq!(got, 2, "the queue holds what fitted; nothing was forced in");
    f.ask(&players[1], ClientMsg::Move { board: Board::A, text: "d5".into(), think_ms: None }).await.unwrap();
    assert!(slow_rx.try_recv().is_err(), "a follower that fell behind gets nothing until it resumes");
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
        .send(RoomMsg::Command { session: b.session.clone(), out: b.out.clone(), msg, reply })
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
    f.store.faults.lose_ack.store(true, Ordering::SeqCst);
    f.ask(&players[0], ClientMsg::Move { board: Board::A, text: "e4".into(), think_ms: None }).await.unwrap();
    f.ask(&players[1], ClientMsg::Move { board: Board::A, text: "e5".into(), think_ms: None }).await.unwrap();
    let log = f.store.log(ID.0);
    for (i, e) in log.iter().enumerate() {
        assert_eq!(e.seq, i as u64, "one event per number, no gap, no duplicate");
    }
    let moves =
        kinds(&mut players[2].rx).into_iter().filter(|k| matches!(k, EventView::Moved { .. })).count();
    assert_eq!(moves, 2, "each move told once");
}

#[tokio::test(start_paused = true)]
async fn a_commit_that_panics_fails_its_batch_and_the_match_goes_on() {
    let f = fixture().await;
    let players = f.running().await;
    f.store.faults.panic.store(true, Ordering::SeqCst);
    let e4 = ClientMsg::Move { board: Board::A, text: "e4".into(), think_ms: None };
    f.ask(&players[0], e4).await.expect("stored on the retry after the failed commit");
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
    let msg =
        RoomMsg::Command { session: p.session.clone(), out: p.out.clone(), msg: ClientMsg::Resign, reply };
    f.room.tx.send(msg).await.unwrap();
    assert!(rx.await.is_err(), "no answer from a dead task (the session says the match is gone)");
    assert!(f.task.await.unwrap_err().is_panic());
    assert_eq!(p.session.room(), None, "freed: it may watch or join another match");
    let mut told = None;
    while let Ok(msg) = p.rx.try_recv() {
        if let ServerMsg::MatchClosed { reason, .. } = msg.into_msg() {
            told = Some(reason);
        }
    }
    assert_eq!(told, Some(ClosedReason::Failed));
    assert!(f.store.ending(ID.0).is_none(), "not marked decided: it stays restorable from its log");
}

#[tokio::test(start_paused = true)]
async fn a_fenced_append_ends_the_task_as_a_conflict_does_and_nothing_is_told() {
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
        while let Ok(msg) = p.rx.try_recv() {
            told.push(msg.into_msg());
        }
        assert!(!told.iter().any(|m| matches!(m, ServerMsg::Event(_))), "nothing unstored is told: {told:?}");
        assert!(
            told.iter().any(|m| matches!(m, ServerMsg::MatchClosed { reason: ClosedReason::Failed, .. })),
            "{told:?}"
        );
    }
    assert!(f.store.ending(ID.0).is_none(), "not marked ended: the new owner runs it on");
}
