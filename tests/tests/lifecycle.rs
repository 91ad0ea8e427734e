//! A server that runs for months: its memory follows what is live (decided matches and idle
//! sessions leave it, `max_matches` counts live matches only), every limit answers with a typed
//! error naming it, and every fault has a defined outcome — storage refusing writes (a fault
//! store, a real PostgreSQL stopped and started mid-match, a PostgreSQL writer lock lost and taken
//! back), a match task that dies, a restart
//! during the countdown, a shutdown in play.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use shvedka_client::{Client, ClientError, Update};
use shvedka_proto::{
    Board, ChatScope, ClientMsg, ClosedReason, ErrorCode, EventView, Limit, PauseReason, PhaseView, SeatId,
    ServerMsg,
};
use shvedka_storage::{PgStore, SqliteStore, Store};
use shvedka_tests::*;

fn code(e: ClientError) -> ErrorCode {
    match e {
        ClientError::Server(e) => e.code,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// Waits (bounded) until `f` holds.
async fn eventually(what: &str, f: impl Fn() -> bool) {
    for _ in 0..200 {
        if f() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("never: {what}");
}

/// A count on the server's `/metrics` page (`shvedka_storage_errors_total` …), the sum over its
/// labels.
async fn metric(server: &TestServer, name: &str) -> u64 {
    let page = server.http_get("/metrics").await;
    page.lines()
        .filter(|l| l.starts_with(&format!("{name} ")) || l.starts_with(&format!("{name}{{")))
        .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
        .sum::<f64>() as u64
}

/// Waits (bounded: 10 s) until the count `name` on `/metrics` reaches `at_least`.
async fn metric_reaches(server: &TestServer, name: &str, at_least: u64) {
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        let now = metric(server, name).await;
        if now >= at_least {
            return;
        }
        assert!(std::time::Instant::now() < deadline, "{name} is {now}, never {at_least}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Waits (bounded: 10 s) until the count `name` on `/metrics` falls to `at_most`.
async fn metric_falls_to(server: &TestServer, name: &str, at_most: u64) {
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        let now = metric(server, name).await;
        if now <= at_most {
            return;
        }
        assert!(std::time::Instant::now() < deadline, "{name} is {now}, never down to {at_most}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Waits for an event matching `f`, across the lost connection of a restart.
async fn event_across_restart(c: &mut Client, f: impl Fn(&EventView) -> bool) -> shvedka_proto::MatchEvent {
    loop {
        match next(c).await {
            Update::Server(ServerMsg::Event(e)) if f(&e.kind) => return e,
            Update::Server(_) | Update::Disconnected(_) => {}
        }
    }
}

/// Plays the seated match to a resignation and waits for everyone to see the end.
async fn resign(c: &mut [Client]) {
    c[0].resign().await.unwrap();
    for client in c.iter_mut() {
        wait_event(client, |e| matches!(e.kind, EventView::Ended(_))).await;
    }
}

#[tokio::test]
async fn decided_matches_leave_memory_so_max_matches_counts_live_ones() {
    let server = TestServer::start("max_matches = 2").await;
    let mut decided = Vec::new();
    for _ in 0..5 {
        let (id, mut c) = server.seated_match("classic", "blitz").await;
        c[0].play(Board::A, "e4", None).await.unwrap();
        resign(&mut c).await;
        decided.push(id);
        eventually("the decided match leaves memory", || server.stats.live_matches() == 0).await;
        for client in c {
            client.close().await;
        }
    }
    eventually("idle sessions leave memory", || server.stats.sessions_in_memory() == 0).await;
    // What the store has is read from the store: records of every old match.
    let reader = server.client("reader").await;
    for id in &decided {
        let bpgn = reader.record(*id).await.unwrap();
        assert!(bpgn.contains("1A. e4") && bpgn.contains("resign"), "{bpgn}");
    }
    // An old match is not live: it cannot be watched or joined.
    assert_eq!(code(reader.watch(decided[0]).await.unwrap_err()), ErrorCode::NoSuchMatch);
    // Two live matches fill the server; the third is refused with the limit's name.
    reader.create_match("classic", "blitz", true).await.unwrap();
    let other = server.client("other").await;
    other.create_match("classic", "blitz", true).await.unwrap();
    let refused = other.create_match("classic", "blitz", true).await.unwrap_err();
    assert_eq!(code(refused), ErrorCode::Limit(Limit::Matches));
    server.stop().await;
}

#[tokio::test]
async fn a_session_leaves_memory_with_its_connection_and_resumes_from_the_store() {
    let server = TestServer::start("").await;
    let mut anna = server.client("anna").await;
    assert_eq!(server.stats.sessions_in_memory(), 1);
    anna.drop_connection();
    eventually("the session leaves memory", || server.stats.sessions_in_memory() == 0).await;
    anna.resume().await.expect("the token is read back from the store");
    assert_eq!(server.stats.sessions_in_memory(), 1);
    let id = anna.create_match("classic", "blitz", true).await.unwrap();
    anna.take_seat(id, SeatId::WhiteA).await.unwrap();
    // Seated in a live match, a disconnected session stays (the match holds it); one that is
    // not seated, dropped after hers, leaves. A connection's count is given back once its
    // session is released (after the eviction, which release does at once), so when both
    // connections are gone both sessions have been judged: this is no wait for an eviction
    // that might merely be slow.
    let mut boris = server.client("boris").await;
    assert_eq!(server.stats.sessions_in_memory(), 2);
    anna.drop_connection();
    boris.drop_connection();
    metric_falls_to(&server, "shvedka_connections", 0).await;
    assert_eq!(server.stats.sessions_in_memory(), 1, "the seated session stays, the other has left");
    boris.resume().await.expect("the other resumes from the store");
    anna.resume().await.unwrap();
    server.stop().await;
}

#[tokio::test]
async fn each_limit_is_refused_with_a_typed_error_naming_it() {
    let server = TestServer::start("max_open_matches_per_session = 2\nlist_page_max = 2").await;
    let anna = server.client("anna").await;
    anna.create_match("classic", "blitz", true).await.unwrap();
    anna.create_match("classic", "blitz", true).await.unwrap();
    let refused = anna.create_match("classic", "blitz", true).await.unwrap_err();
    let ClientError::Server(e) = refused else { panic!() };
    assert_eq!(e.code, ErrorCode::Limit(Limit::OpenMatches));
    assert!(e.message.contains("max_open_matches_per_session"), "{}", e.message);
    let boris = server.client("boris").await;
    boris.create_match("classic", "blitz", false).await.unwrap();
    boris.create_match("classic", "blitz", true).await.unwrap();
    // Three listed matches do not fit one page of two: the whole list is refused, pages work.
    let whole = boris.request(ClientMsg::ListMatches).await.unwrap_err();
    assert_eq!(code(whole), ErrorCode::TooLarge);
    let (first, next) = boris.list_page(None, 10, false).await.unwrap();
    assert_eq!(first.len(), 2, "capped at list_page_max");
    let (second, last) = boris.list_page(next, 10, false).await.unwrap();
    assert_eq!((second.len(), last), (1, None));
    assert_eq!(boris.list_matches().await.unwrap().len(), 3, "the unlisted one is not listed");
    let live = boris.list_page(None, 10, true).await.unwrap_err();
    let needed = shvedka_proto::OfficialRefusal::Needed { role: shvedka_proto::OfficialRole::Arbiter };
    assert_eq!(code(live), ErrorCode::Official(needed), "unlisted matches are for arbiters");
    // Chat has its length.
    let id = first[0].match_id;
    boris.watch(id).await.unwrap();
    let long = boris.chat(ChatScope::Match, &"x".repeat(501)).await.unwrap_err();
    assert_eq!(code(long), ErrorCode::Limit(Limit::ChatLength));
    server.stop().await;
}

#[tokio::test]
async fn k5_calling_the_arbiter_on_a_server_without_one_is_refused_and_the_clocks_run() {
    let server = TestServer::start("").await;
    let (_, mut c) = server.seated_match("classic", "blitz").await;
    let refused = c[0].call_arbiter(None).await.unwrap_err();
    let ClientError::Server(e) = refused else { panic!() };
    assert_eq!(
        (e.code, e.rule.as_deref()),
        (ErrorCode::Match(shvedka_proto::MatchRefusal::NoArbiter), Some("K5"))
    );
    c[0].play(Board::A, "e4", None).await.expect("the match goes on");
    let e = wait_event(&mut c[1], |e| matches!(e.kind, EventView::Moved { .. })).await;
    assert!(e.running[1], "Black-A's clock runs");
    server.stop().await;
}

#[tokio::test]
async fn a_forming_match_nobody_attends_expires_and_is_not_restored() {
    let server = TestServer::start("forming_expiry_s = 1").await;
    let mut anna = server.client("anna").await;
    let id = anna.create_match("classic", "blitz", true).await.unwrap();
    anna.watch(id).await.unwrap();
    let closed = wait_msg(&mut anna, |m| matches!(m, ServerMsg::MatchClosed { .. })).await;
    assert_eq!(closed, ServerMsg::MatchClosed { match_id: id, reason: ClosedReason::Expired });
    assert_eq!(server.stats.live_matches(), 0);
    assert!(anna.list_matches().await.unwrap().is_empty());
    anna.close().await;
    let server = server.restart().await;
    assert_eq!(server.stats.live_matches(), 0, "an expired match is not restored");
    server.stop().await;
}

#[tokio::test]
async fn a_match_task_that_dies_is_removed_and_its_followers_are_freed() {
    let dir = tempfile::tempdir().unwrap();
    let sqlite: Arc<dyn Store> = Arc::new(SqliteStore::open(&dir.path().join("s.db")).await.unwrap());
    let faulty = FaultyStore::new(sqlite);
    let server = TestServer::start_with_store("", faulty.clone()).await;
    let (id, mut c) = server.seated_match("classic", "blitz").await;
    faulty.panic.store(true, Ordering::SeqCst);
    let err = c[0].resign().await.unwrap_err();
    assert_eq!(code(err), ErrorCode::NoSuchMatch, "the match is gone");
    let closed = wait_msg(&mut c[1], |m| matches!(m, ServerMsg::MatchClosed { .. })).await;
    assert_eq!(closed, ServerMsg::MatchClosed { match_id: id, reason: ClosedReason::Failed });
    eventually("the dead task is forgotten", || server.stats.live_matches() == 0).await;
    let anna = c.remove(0);
    // Freed: she may follow another match.
    let other = anna.create_match("classic", "blitz", true).await.unwrap();
    anna.take_seat(other, SeatId::BlackB).await.expect("free to sit elsewhere");
    server.stop().await;
    // Its log (with the resignation) is whole: the next start records the decision.
    let server = TestServer::start_with_store("", sqlite_again(&dir).await).await;
    let row = sqlite_again(&dir).await.find_match(id.0).await.unwrap().unwrap();
    assert!(row.result.is_some(), "decided from its log at the restart");
    assert_eq!(server.stats.live_matches(), 1, "only the other match, still forming, is live");
    server.stop().await;
}

async fn sqlite_again(dir: &tempfile::TempDir) -> Arc<dyn Store> {
    Arc::new(SqliteStore::open(&dir.path().join("s.db")).await.unwrap())
}

#[tokio::test]
async fn k5_storage_that_refuses_writes_pauses_the_match_and_it_resumes_by_itself() {
    let dir = tempfile::tempdir().unwrap();
    let sqlite: Arc<dyn Store> = Arc::new(SqliteStore::open(&dir.path().join("s.db")).await.unwrap());
    let faulty = FaultyStore::new(sqlite.clone());
    let server = TestServer::start_with_store("", faulty.clone()).await;
    let (id, mut c) = server.seated_match("classic", "blitz").await;
    c[0].play(Board::A, "e4", None).await.unwrap();
    let spare = server.client("spare").await;
    faulty.refuse.store(true, Ordering::SeqCst);
    let mover = tokio::spawn({
        let black = std::mem::replace(&mut c[1], spare);
        async move {
            black.play(Board::A, "e5", None).await.expect("accepted once it is stored");
            black
        }
    });
    // e5's commit has failed (the match now waits on storage): only then is d4 sent, so it is
    // d4 that is refused, never d4 that waits in e5's place.
    metric_reaches(&server, "shvedka_storage_errors_total", 1).await;
    let refused = c[2].play(Board::B, "d4", None).await.unwrap_err();
    assert_eq!(code(refused), ErrorCode::Unavailable);
    faulty.refuse.store(false, Ordering::SeqCst);
    c[1] = mover.await.unwrap();
    let paused = wait_event(&mut c[3], |e| matches!(e.kind, EventView::Paused { .. })).await;
    assert_eq!(paused.kind, EventView::Paused { reason: PauseReason::Storage });
    wait_event(&mut c[3], |e| matches!(e.kind, EventView::Resumed { .. })).await;
    c[2].play(Board::B, "d4", None).await.expect("play goes on");
    resign(&mut c).await;
    let log = sqlite.events(id.0).await.unwrap();
    let moves = log.iter().filter(|e| e.view.contains("\"Moved\"")).count();
    assert_eq!(moves, 3, "nothing acknowledged is lost");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn k5_postgres_stopped_and_started_mid_match_loses_nothing_and_the_match_finishes() {
    let pg = Arc::new(testkit::postgres::TempPostgres::start());
    let store: Arc<dyn Store> = Arc::new(PgStore::connect(&pg.url).await.unwrap());
    let server = TestServer::start_with_store("", store).await;
    let (id, mut c) = server.seated_match("classic", "blitz").await;
    c[0].play(Board::A, "e4", None).await.unwrap();
    let spare = server.client("spare").await;
    let down = pg.clone();
    tokio::task::spawn_blocking(move || down.stop()).await.unwrap();
    let black = std::mem::replace(&mut c[1], spare);
    let mover = tokio::spawn(async move {
        black.play(Board::A, "e5", None).await.expect("accepted once PostgreSQL is back");
        black
    });
    // As above: d4 is sent once e5's commit has failed.
    metric_reaches(&server, "shvedka_storage_errors_total", 1).await;
    let refused = c[2].play(Board::B, "d4", None).await.unwrap_err();
    assert_eq!(code(refused), ErrorCode::Unavailable);
    let up = pg.clone();
    tokio::task::spawn_blocking(move || up.start_again()).await.unwrap();
    c[1] = mover.await.unwrap();
    wait_event(&mut c[3], |e| e.kind == EventView::Resumed { reason: PauseReason::Storage }).await;
    c[2].play(Board::B, "d4", None).await.unwrap();
    resign(&mut c).await;
    let check = PgStore::connect_tool(&pg.url).await.unwrap();
    let log = check.events(id.0).await.unwrap();
    assert_eq!(
        log.iter().filter(|e| e.view.contains("\"Moved\"")).count(),
        3,
        "nothing acknowledged is lost"
    );
    assert!(check.find_match(id.0).await.unwrap().unwrap().result.is_some(), "the result is stored");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_lost_its_postgresql_writer_lock_pauses_its_match_until_it_holds_it_again() {
    use sqlx::{Connection, Row};
    let pg = testkit::postgres::TempPostgres::start();
    let pg_store = Arc::new(PgStore::connect(&pg.url).await.unwrap());
    let mut lock = pg_store.writer_lock().expect("a standalone server's store holds the lock");
    let server = TestServer::start_with_store("", pg_store).await;
    let (id, mut c) = server.seated_match("classic", "blitz").await;
    c[0].play(Board::A, "e4", None).await.unwrap();
    // Connected first: without the lock not even a new session's row is written.
    let spare = server.client("spare").await;
    // The lock's backend is ended, and a connection named as the server's (as its own lost one
    // looks until the database ends it) holds the lock meanwhile: the server cannot take it back.
    let mut admin = sqlx::PgConnection::connect(&pg.url).await.unwrap();
    let held = sqlx::query(
        "SELECT l.pid, a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid \
         WHERE l.locktype = 'advisory' AND l.granted AND l.objid::bigint = $1",
    )
    .bind(shvedka_storage::WRITER_LOCK & 0xffff_ffff)
    .fetch_one(&mut admin)
    .await
    .unwrap();
    let (pid, name): (i32, String) = (held.get(0), held.get(1));
    let options: sqlx::postgres::PgConnectOptions = pg.url.parse().unwrap();
    let mut stale = sqlx::ConnectOptions::connect(&options.application_name(&name)).await.unwrap();
    let stale_pid: i32 = sqlx::query("SELECT pg_backend_pid()").fetch_one(&mut stale).await.unwrap().get(0);
    let granted = tokio::spawn(async move {
        sqlx::query("SELECT pg_advisory_lock($1)")
            .bind(shvedka_storage::WRITER_LOCK)
            .execute(&mut stale)
            .await
            .unwrap();
        stale
    });
    let queued = "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE pid = $1 AND NOT granted)";
    while !sqlx::query(queued).bind(stale_pid).fetch_one(&mut admin).await.unwrap().get::<bool, _>(0) {
        tokio::task::yield_now().await;
    }
    sqlx::query("SELECT pg_terminate_backend($1, 10000)").bind(pid).execute(&mut admin).await.unwrap();
    let mut stale = granted.await.unwrap();
    lock.wait_for(|s| s.losses == 1).await.unwrap();
    // Nothing is acknowledged meanwhile: the match waits on storage, as in an outage.
    let black = std::mem::replace(&mut c[1], spare);
    let mover = tokio::spawn(async move {
        black.play(Board::A, "e5", None).await.expect("accepted once the lock is back");
        black
    });
    metric_reaches(&server, "shvedka_storage_errors_total", 1).await;
    let refused = c[2].play(Board::B, "d4", None).await.unwrap_err();
    assert_eq!(code(refused), ErrorCode::Unavailable);
    // The stale connection goes: the server takes the lock back and play goes on.
    sqlx::query("SELECT pg_advisory_unlock_all()").execute(&mut stale).await.unwrap();
    stale.close().await.unwrap();
    c[1] = mover.await.unwrap();
    wait_event(&mut c[3], |e| e.kind == EventView::Resumed { reason: PauseReason::Storage }).await;
    c[2].play(Board::B, "d4", None).await.unwrap();
    resign(&mut c).await;
    let check = PgStore::connect_tool(&pg.url).await.unwrap();
    let moves = check.events(id.0).await.unwrap().iter().filter(|e| e.view.contains("\"Moved\"")).count();
    assert_eq!(moves, 3, "nothing acknowledged is lost");
    server.stop().await;
}

#[tokio::test]
async fn k1_a_restart_during_the_countdown_holds_it_until_all_four_players_are_back() {
    // The test clock settings with a countdown of a second.
    let clock = TEST_CLOCK.replace("countdown_ms = 0", "countdown_ms = 1000");
    assert_ne!(clock, TEST_CLOCK);
    let server = TestServer::start_with_clock("", &clock).await;
    let mut c = Vec::new();
    for seat in SeatId::ALL {
        c.push(server.client(seat.name()).await);
    }
    let id = c[0].create_match("classic", "blitz", true).await.unwrap();
    for (client, seat) in c.iter().zip(SeatId::ALL) {
        client.take_seat(id, seat).await.unwrap();
    }
    for client in &c {
        client.ready(true).await.unwrap();
    }
    wait_event(&mut c[3], |e| matches!(e.kind, EventView::CountdownStarted { .. })).await;
    let server = server.restart().await;
    let watcher = server.client("watcher").await;
    // Not a wait for a state: longer than the countdown (1 s), which must not run out meanwhile.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let phase = watcher.list_matches().await.unwrap()[0].phase;
    assert_eq!(phase, PhaseView::Countdown, "held: the clocks do not start without the players");
    for client in &mut c {
        client.resume_at(server.addr).await.unwrap();
    }
    for client in &mut c {
        event_across_restart(client, |k| matches!(k, EventView::Started)).await;
    }
    server.stop().await;
}

#[tokio::test]
async fn a_shutdown_in_play_pauses_the_match_and_the_restart_resumes_it_when_all_are_back() {
    let server = TestServer::start("").await;
    let (id, mut c) = server.seated_match("classic", "blitz").await;
    c[0].play(Board::A, "e4", None).await.unwrap();
    let server = server.restart().await;
    // Three of the four are back. A connection's requests reach the match after it follows the
    // match again, so once each of the three has had a move refused, the match has seen all
    // three back, and it is still paused.
    for client in &mut c[..3] {
        client.resume_at(server.addr).await.unwrap();
    }
    for (who, board, mv) in [(0, Board::A, "Nf3"), (1, Board::A, "e5"), (2, Board::B, "d4")] {
        let refused = c[who].play(board, mv, None).await.expect_err("paused until all four are back");
        if who > 0 {
            assert!(
                refused.to_string().contains("(K5)"),
                "{mv} is refused as the clocks are stopped: {refused}"
            );
        }
    }
    for client in &mut c[..3] {
        let early = drain(client).into_iter().find(|u| {
            matches!(u, Update::Server(ServerMsg::Event(e)) if matches!(e.kind, EventView::Resumed { .. }))
        });
        assert!(early.is_none(), "resumed before the fourth was back: {early:?}");
    }
    c[3].resume_at(server.addr).await.unwrap();
    let resumed = event_across_restart(&mut c[0], |k| matches!(k, EventView::Resumed { .. })).await;
    assert_eq!(resumed.kind, EventView::Resumed { reason: PauseReason::Restart });
    let record = c[0].record(id).await.unwrap();
    assert!(record.contains("1A. e4"), "{record}");
    c[1].play(Board::A, "e5", None).await.expect("play goes on");
    server.stop().await;
}

#[tokio::test]
async fn a_shutdown_stores_a_pause_so_the_restart_charges_nobody() {
    let server = TestServer::start("").await;
    let (_, mut c) = server.seated_match("classic", "blitz").await;
    c[0].play(Board::A, "e4", None).await.unwrap();
    let before = wait_event(&mut c[3], |e| matches!(e.kind, EventView::Moved { .. })).await;
    // Not a wait for a state: Black-A's thinking time, which the shutdown's pause must charge.
    tokio::time::sleep(Duration::from_millis(400)).await;
    let server = server.restart().await;
    // Whoever missed it sees the pause on resume: it was stored at shutdown, with its reason.
    c[3].resume_at(server.addr).await.unwrap();
    let paused = event_across_restart(&mut c[3], |k| matches!(k, EventView::Paused { .. })).await;
    assert_eq!(paused.kind, EventView::Paused { reason: PauseReason::Shutdown });
    let thought = before.clocks_ms[1] - paused.clocks_ms[1];
    assert!(
        (300..3_000).contains(&thought),
        "Black-A is charged his {thought} ms until the shutdown, no more"
    );
    server.stop().await;
}

/// A raw connection whose client never reads (a small receive window nobody drains), that has
/// said `Hello` and then each of `asks`.
async fn never_reads(
    server: &TestServer,
    asks: Vec<ClientMsg>,
) -> (shvedka_client::quinn::Connection, shvedka_client::quinn::RecvStream) {
    use shvedka_client::quinn;
    let (name, mut config) =
        shvedka_client::client_config(&shvedka_client::Trust::Fingerprint(server.pin)).unwrap();
    let mut transport = quinn::TransportConfig::default();
    transport.stream_receive_window(16_384u32.into()).receive_window(16_384u32.into());
    config.transport_config(Arc::new(transport));
    let mut endpoint = quinn::Endpoint::client("127.0.0.1:0".parse().unwrap()).unwrap();
    endpoint.set_default_client_config(config);
    let conn = endpoint.connect(server.addr, &name).unwrap().await.unwrap();
    let (mut send, recv) = conn.open_bi().await.unwrap();
    let hello =
        ClientMsg::Hello { version: shvedka_proto::PROTOCOL_VERSION, name: "sleepy".into(), resume: None };
    for (req, msg) in std::iter::once(hello).chain(asks).enumerate() {
        let frame = shvedka_proto::ClientFrame { req: req as u32, msg };
        send.write_all(&shvedka_proto::frame(&frame).unwrap()).await.unwrap();
    }
    // Kept open: the client goes on, it only stops reading.
    std::mem::forget(send);
    (conn, recv)
}

#[tokio::test]
async fn a_player_that_cannot_keep_up_is_closed_with_code_3_and_the_match_goes_on() {
    use shvedka_client::quinn;
    let server = TestServer::start("rate_per_second = 100000\nrate_burst = 100000").await;
    let anna = server.client("anna").await;
    let id = anna.create_match("classic", "blitz", true).await.unwrap();
    anna.take_seat(id, SeatId::WhiteA).await.unwrap();
    // Black-A sits down, and his client stops reading.
    let (conn, _recv) =
        never_reads(&server, vec![ClientMsg::TakeSeat { match_id: id, seat: SeatId::BlackA }]).await;
    // Anna talks far more than he takes: every line is queued to him, a player, one by one.
    let text = "x".repeat(500);
    let mut closed = None;
    for _ in 0..5_000 {
        anna.chat(ChatScope::Match, &text).await.unwrap();
        if let Some(reason) = conn.close_reason() {
            closed = Some(reason);
            break;
        }
    }
    match closed {
        Some(quinn::ConnectionError::ApplicationClosed(close)) => {
            assert_eq!(close.error_code, quinn::VarInt::from_u32(3));
            assert_eq!(&close.reason[..], b"cannot keep up");
        }
        other => panic!("expected his connection closed with code 3, got {other:?}"),
    }
    anna.ready(true).await.expect("the match never waited for him");
    server.stop().await;
}

#[tokio::test]
async fn a_spectator_that_cannot_keep_up_stays_and_is_given_the_latest_state_when_he_reads_again() {
    let server = TestServer::start("rate_per_second = 100000\nrate_burst = 100000").await;
    let (id, c) = server.seated_match("classic", "blitz").await;
    let (conn, mut recv) = never_reads(&server, vec![ClientMsg::Watch { match_id: id }]).await;
    // The players talk far more than he takes: more than his lane of the gallery keeps.
    let text = "x".repeat(500);
    for _ in 0..1_000 {
        c[0].chat(ChatScope::Match, &text).await.unwrap();
    }
    c[0].play(Board::A, "e4", None).await.expect("the match never waited for him");
    assert!(conn.close_reason().is_none(), "a spectator is never disconnected for being slow");
    // He reads again: after what was on its way, the latest state (the move in it), and then
    // the next move as it is played.
    let mut decoder = shvedka_proto::FrameDecoder::new();
    let mut buf = vec![0; 64 * 1024];
    let mut caught_up = false;
    let mut next_move = false;
    let until = tokio::time::Instant::now() + Duration::from_secs(20);
    while !next_move && tokio::time::Instant::now() < until {
        let n = tokio::time::timeout(Duration::from_secs(5), recv.read(&mut buf))
            .await
            .expect("data keeps coming")
            .unwrap()
            .expect("the stream stays open");
        decoder.push(&buf[..n]);
        while let Some(payload) = decoder.next_payload().unwrap() {
            match shvedka_proto::decode::<ServerMsg>(&payload).unwrap() {
                ServerMsg::State(s) if s.moves.len() == 1 => {
                    caught_up = true;
                    c[1].play(Board::A, "e5", None).await.unwrap();
                }
                ServerMsg::Event(e)
                    if caught_up && matches!(&e.kind, EventView::Moved { uci, .. } if uci == "e7e5") =>
                {
                    next_move = true;
                }
                _ => {}
            }
        }
    }
    assert!(caught_up && next_move, "the latest state, then the next move (caught up {caught_up})");
    assert!(conn.close_reason().is_none());
    server.stop().await;
}
