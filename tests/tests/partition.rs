//! Partitions (issue 36), end to end on loopback: two nodes over one throwaway PostgreSQL and
//! NATS, node a's links to them through faulty links of the test kit (`testkit::link`), the four
//! players given both nodes' addresses. A node cut off from the database cannot prove its leases:
//! after `lease_ms` it lets its matches go and tells their players to resume elsewhere; node b
//! takes the match over, the players move on there, and node a rejoins when its links heal. In
//! every test each acknowledged move is in the final log exactly once and in order, and each
//! client saw each event exactly once.

use std::time::{Duration, Instant};

use shvedka_client::{Client, ClientError, Trust, Update};
use shvedka_proto::{Board, ElsewhereReason, EventView, MatchId, SeatId, ServerMsg};
use shvedka_storage::{PgStore, Store};
use shvedka_tests::TestServer;
use testkit::link::{Link, Mode};
use testkit::nats::TempNats;
use testkit::postgres::TempPostgres;

/// The nodes' lease, ms (short, so the tests are short).
const LEASE_MS: u64 = 2000;

/// A node's overrides: its database URL and NATS URL (each direct or through a link), its name,
/// and (from the second node on) the first node's certificate.
fn node(
    db: &str,
    nats: &TempNats,
    nats_url: &str,
    name: &str,
    cert: Option<&TestServer>,
    lease_ms: u64,
) -> String {
    let shared = cert.map_or_else(String::new, |first| {
        let dir = first.data_dir();
        format!("cert = {:?}\nkey = {:?}\n", dir.join("cert.pem"), dir.join("key.pem"))
    });
    let settings = nats.node_settings().replace(&nats.url, nats_url);
    format!(
        "database_url = {db:?}\n{shared}[cluster]\nnode = {name:?}\n{settings}lease_ms = {lease_ms}\n\
         lease_renew_ms = 250\n"
    )
}

/// The services and two nodes; node a reaches PostgreSQL and NATS through `links`.
pub(crate) struct Cluster {
    pub(crate) pg: TempPostgres,
    _nats: TempNats,
    pub(crate) pg_link: Link,
    pub(crate) nats_link: Link,
    pub(crate) a: TestServer,
    pub(crate) b: TestServer,
}

pub(crate) async fn cluster() -> Cluster {
    cluster_with_lease(LEASE_MS).await
}

/// As [`cluster`], the nodes' leases lasting `lease_ms`.
async fn cluster_with_lease(lease_ms: u64) -> Cluster {
    // The nodes' logs go to the test's output, which the runner shows only for a test that
    // failed: a set-up that failed on a CI machine once ("connection lost" taking a seat, before
    // any cut) could not be told apart from a lease lost under load without them.
    let _ = tracing_subscriber::fmt().with_env_filter("info").with_ansi(false).with_test_writer().try_init();
    let (pg, nats) = (TempPostgres::start(), TempNats::start());
    let socket = pg.socket().expect("a throwaway PostgreSQL: its socket is linked");
    let pg_link = Link::start_unix(socket).await.unwrap();
    let nats_addr = nats.url.trim_start_matches("tls://").parse().expect("tls://127.0.0.1:PORT");
    let nats_link = Link::start(nats_addr).await.unwrap();
    let linked_db = format!("postgres://postgres@{}/postgres", pg_link.addr());
    let linked_nats = format!("tls://{}", nats_link.addr());
    let a = TestServer::start(&node(&linked_db, &nats, &linked_nats, "node-a", None, lease_ms)).await;
    let b = TestServer::start(&node(&pg.url, &nats, &nats.url, "node-b", Some(&a), lease_ms)).await;
    Cluster { pg, _nats: nats, pg_link, nats_link, a, b }
}

/// A client and the sequence numbers of every event it was told, across connections.
pub(crate) struct Player {
    pub(crate) client: Client,
    seqs: Vec<u64>,
    elsewhere: usize,
}

impl Player {
    /// Takes what has come, waiting at most `within` for the first update.
    async fn take(&mut self, within: Duration) -> Option<Update> {
        let update = tokio::time::timeout(within, self.client.next_update()).await.ok()??;
        match &update {
            Update::Server(ServerMsg::Event(e)) => self.seqs.push(e.seq),
            Update::Server(ServerMsg::ResumeElsewhere { reason, .. }) => {
                assert_eq!(*reason, ElsewhereReason::LeaseLost);
                self.elsewhere += 1;
            }
            _ => {}
        }
        Some(update)
    }

    /// Takes everything until `f` holds for an update (bounded: 15 s).
    pub(crate) async fn until(&mut self, what: &str, f: impl Fn(&Update) -> bool) {
        let deadline = Instant::now() + Duration::from_secs(15);
        while Instant::now() < deadline {
            if let Some(u) = self.take(Duration::from_millis(100)).await
                && f(&u)
            {
                return;
            }
        }
        panic!("never: {what}");
    }

    /// Waits to be told to resume elsewhere, for the connection's end, and resumes (the client
    /// picks the next address).
    pub(crate) async fn move_on(&mut self) {
        self.until("told to resume elsewhere", |u| {
            matches!(u, Update::Server(ServerMsg::ResumeElsewhere { .. }))
        })
        .await;
        self.until("the connection let go", |u| matches!(u, Update::Disconnected(_))).await;
        self.client.resume().await.expect("resumed on another node");
    }

    /// Takes whatever is waiting.
    pub(crate) async fn drain(&mut self) {
        while self.take(Duration::from_millis(200)).await.is_some() {}
    }
}

/// Four players on node a (given node a, then node b), seated, the match started, one move on
/// each board acknowledged.
pub(crate) async fn started(c: &Cluster) -> (MatchId, Vec<Player>) {
    started_on(c, [true; 4]).await
}

/// As [`started`], each player on node a where `on_a` says so, else on node b (given node b, then
/// node a); the match is created on node a.
async fn started_on(c: &Cluster, on_a: [bool; 4]) -> (MatchId, Vec<Player>) {
    let mut players = Vec::new();
    for (seat, on_a) in SeatId::ALL.into_iter().zip(on_a) {
        let nodes = if on_a { [c.a.addr, c.b.addr] } else { [c.b.addr, c.a.addr] };
        let client = Client::connect_any(&nodes, Trust::Fingerprint(c.a.pin), seat.name()).await.unwrap();
        players.push(Player { client, seqs: Vec::new(), elsewhere: 0 });
    }
    let creator = c.a.client("creator").await;
    let id = creator.create_match("classic", "blitz", true).await.unwrap();
    for (p, seat) in players.iter().zip(SeatId::ALL) {
        p.client.take_seat(id, seat).await.unwrap();
    }
    for p in &players {
        p.client.ready(true).await.unwrap();
    }
    for p in &mut players {
        p.until(
            "started",
            |u| matches!(u, Update::Server(ServerMsg::Event(e)) if e.kind == EventView::Started),
        )
        .await;
    }
    players[0].client.play(Board::A, "e4", None).await.unwrap();
    players[2].client.play(Board::B, "d4", None).await.unwrap();
    (id, players)
}

/// Plays `text` as `p` until it is accepted (refusals while the match moves are expected),
/// bounded: 20 s. Takes the updates meanwhile.
pub(crate) async fn play_until_accepted(players: &mut [Player], who: usize, board: Board, text: &str) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        match players[who].client.play(board, text, None).await {
            Ok(()) => return,
            Err(ClientError::Server(e)) => {
                assert!(Instant::now() < deadline, "{text} never accepted: last {e:?}");
            }
            Err(e) => assert!(Instant::now() < deadline, "{text} never accepted: last {e:?}"),
        }
        for p in players.iter_mut() {
            p.take(Duration::from_millis(20)).await;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A move refused `Unavailable`, or whose connection let go before its answer: never acknowledged.
fn not_acknowledged(answer: &Result<(), ClientError>) {
    match answer {
        Err(ClientError::Server(e)) => assert_eq!(e.code, shvedka_proto::ErrorCode::Unavailable, "{e:?}"),
        Err(ClientError::Connection(_)) => {}
        other => panic!("not acknowledged: {other:?}"),
    }
}

/// Every event a player was told, once each and in order, and the log whole, in order, with
/// every acknowledged move once.
async fn check(c: &Cluster, id: MatchId, players: &mut [Player], acknowledged: &[&str]) {
    let store = PgStore::connect_tool(&c.pg.url).await.unwrap();
    let log = store.events(id.0).await.unwrap();
    assert!(log.iter().enumerate().all(|(i, e)| e.seq == i as u64), "one log, in order, no gap");
    let moves: Vec<String> = log
        .iter()
        .filter_map(|e| serde_json::from_str::<shvedka_proto::MatchEvent>(&e.view).ok())
        .filter_map(|e| match e.kind {
            EventView::Moved { san, .. } => Some(san),
            _ => None,
        })
        .collect();
    assert_eq!(moves, acknowledged, "every acknowledged move once, in order");
    let last = log.last().expect("events").seq;
    for (p, seat) in players.iter_mut().zip(SeatId::ALL) {
        let deadline = Instant::now() + Duration::from_secs(10);
        while p.seqs.last() != Some(&last) && Instant::now() < deadline {
            p.take(Duration::from_millis(100)).await;
        }
        let first = p.seqs[0];
        let expected: Vec<u64> = (first..=last).collect();
        assert_eq!(p.seqs, expected, "{seat} saw every event once, in order");
    }
}

/// Waits (bounded: 15 s) for a node's metric to read `value`.
async fn metric_reads(node: &TestServer, name: &str, value: i64) -> Duration {
    let start = Instant::now();
    loop {
        let page = node.http_get("/metrics").await;
        let now = page
            .lines()
            .find(|l| l.starts_with(&format!("{name} ")))
            .and_then(|l| l.rsplit(' ').next()?.parse::<i64>().ok());
        if now == Some(value) {
            return start.elapsed();
        }
        assert!(start.elapsed() < Duration::from_secs(15), "{name} never read {value} (last {now:?})");
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

/// The owner is cut off (from PostgreSQL, and from NATS when `cut_nats`): its players are told to
/// resume elsewhere, resume on node b, and all four play on there once node b took the match
/// over; healed, node a rejoins and takes new matches again.
async fn owner_cut_off(cut_nats: bool) {
    let c = cluster().await;
    // White-A and Black-A on node a, the match's; White-B and Black-B on node b.
    let (id, mut players) = started_on(&c, [true, true, false, false]).await;
    for p in &mut players {
        p.drain().await;
    }
    let cut = Instant::now();
    c.pg_link.set(Mode::Blackhole);
    if cut_nats {
        c.nats_link.set(Mode::Blackhole);
    }
    // Node a's players are told to go, lose the connection, and resume on the next node; node
    // b's stay where they are.
    for p in &mut players[..2] {
        p.move_on().await;
        assert_eq!(p.client.server(), c.b.addr, "the next node, at once");
    }
    let told = cut.elapsed();
    play_until_accepted(&mut players, 1, Board::A, "e5").await;
    let moved = cut.elapsed();
    println!(
        "players told to resume elsewhere {} ms after the cut; the first move after it accepted on node b {} ms \
         after it (lease_ms {LEASE_MS}, target lease_ms + 2000)",
        told.as_millis(),
        moved.as_millis()
    );
    // The lease counts from the last heartbeat sent before the cut: lease_renew_ms before on an
    // idle machine, more on a loaded one, where a renewal runs late (CI saw 1.6 s of a 2 s
    // lease). Half the lease still shows node a held on past its first failed renewals instead of
    // giving up at the first.
    assert!(told >= Duration::from_millis(LEASE_MS / 2), "not at the first failed renewal: {told:?}");
    assert!(
        moved <= Duration::from_millis(LEASE_MS + 4000),
        "play goes on within the lease and a few renewals: {moved:?}"
    );
    metric_reads(&c.a, "shvedka_cluster_lease_lost", 1).await;
    assert_eq!(c.a.stats.live_matches(), 0, "node a runs nothing while cut off");
    // Every player moves again there, node a still cut off.
    play_until_accepted(&mut players, 3, Board::B, "d5").await;
    play_until_accepted(&mut players, 0, Board::A, "Nf3").await;
    play_until_accepted(&mut players, 2, Board::B, "c4").await;

    // Healed: node a rejoins by itself; the match stays where it is.
    c.pg_link.set(Mode::Pass);
    c.nats_link.set(Mode::Pass);
    let rejoined = metric_reads(&c.a, "shvedka_cluster_lease_lost", 0).await;
    println!("node a rejoined {} ms after the links healed", rejoined.as_millis());
    assert_eq!(c.b.stats.live_matches(), 1);
    players[1].client.play(Board::A, "Nc6", None).await.expect("play goes on");
    check(&c, id, &mut players, &["e4", "d4", "e5", "d5", "Nf3", "c4", "Nc6"]).await;
    let told: Vec<usize> = players.iter().map(|p| p.elsewhere).collect();
    assert_eq!(told, [1, 1, 0, 0], "node a's players told once; node b's never had to move");
    // Node a takes new matches again.
    let other = c.a.client("other").await;
    other.create_match("classic", "blitz", true).await.expect("node a creates matches again");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_cut_off_from_postgresql_and_nats_lets_its_match_go_and_its_players_move_on() {
    owner_cut_off(true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_cut_off_from_postgresql_alone_lets_its_match_go_and_its_players_move_on() {
    owner_cut_off(false).await;
}

/// Node a is cut from NATS alone: it still holds its leases, so it keeps its match and its own
/// players play on; a player on node b is refused at once (`Unavailable`, naming node a), not
/// left waiting, and plays again once NATS heals, having missed nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_cut_off_from_nats_alone_keeps_its_match_and_other_nodes_refuse_at_once() {
    let c = cluster().await;
    let (id, mut players) = started_on(&c, [true, true, false, false]).await;
    for p in &mut players {
        p.drain().await;
    }
    c.nats_link.set(Mode::Blackhole);
    // Its own players play on: the leases are PostgreSQL's.
    players[1].client.play(Board::A, "e5", None).await.expect("node a runs its match");
    players[0].client.play(Board::A, "Nf3", None).await.expect("node a runs its match");
    // Once node a has gone unheard for half a lease, node b says so at once.
    tokio::time::sleep(Duration::from_millis(LEASE_MS / 2 + 300)).await;
    let asked = Instant::now();
    let refused = players[3].client.play(Board::B, "d5", None).await;
    let took = asked.elapsed();
    println!("a move through node b refused {} ms after it was asked", took.as_millis());
    let Err(ClientError::Server(e)) = refused else { panic!("refused: {refused:?}") };
    assert_eq!(e.code, shvedka_proto::ErrorCode::Unavailable, "{e:?}");
    assert!(e.message.contains("node-a"), "names the node: {e:?}");
    assert!(took < Duration::from_secs(1), "at once, not after the forwarding timeout: {took:?}");
    assert_eq!(c.a.stats.live_matches(), 1, "node a keeps its match");
    assert_eq!(c.b.stats.live_matches(), 0, "nobody takes it over");
    assert!(players.iter().all(|p| p.elsewhere == 0), "nobody is told to move");

    c.nats_link.set(Mode::Pass);
    play_until_accepted(&mut players, 3, Board::B, "d5").await;
    players[1].client.play(Board::A, "Nc6", None).await.unwrap();
    check(&c, id, &mut players, &["e4", "d4", "e5", "Nf3", "d5", "Nc6"]).await;
}

/// Node a's link to PostgreSQL is slow — a second and a half each way, so no heartbeat gets
/// through within the lease — but never cut: everything node a sends arrives, late. It lets its
/// match go as if cut off, its players move on to node b, and what node a had on its way (the
/// commit of the move it was storing, its heartbeats) reaches the database after the take-over
/// and changes nothing: the move it could not store is not acknowledged and never appears.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_link_to_postgresql_slower_than_the_lease_lets_the_match_go_and_its_late_traffic_changes_nothing() {
    let c = cluster().await;
    let (id, mut players) = started(&c).await;
    for p in &mut players {
        p.drain().await;
    }
    let slow = Instant::now();
    c.pg_link.set(Mode::Delay(Duration::from_millis(1500)));
    let answer = players[1].client.play(Board::A, "e5", None).await;
    not_acknowledged(&answer);
    for p in &mut players {
        p.move_on().await;
    }
    play_until_accepted(&mut players, 1, Board::A, "c5").await;
    println!(
        "over a link 1500 ms slow each way, play went on on node b {} ms after it slowed",
        slow.elapsed().as_millis()
    );
    // The late traffic arrives meanwhile; then the link is quick again and node a rejoins.
    tokio::time::sleep(Duration::from_secs(4)).await;
    c.pg_link.set(Mode::Pass);
    metric_reads(&c.a, "shvedka_cluster_lease_lost", 0).await;
    players[0].client.play(Board::A, "Nf3", None).await.expect("play goes on on node b");
    check(&c, id, &mut players, &["e4", "d4", "c5", "Nf3"]).await;
}

/// Node a is cut from both for half a lease, then healed: nothing is let go. A move asked during
/// the cut waits and is acknowledged once its commit gets through; play goes on where it was.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cut_that_heals_before_the_lease_runs_out_lets_nothing_go() {
    let c = cluster().await;
    let (id, mut players) = started(&c).await;
    for p in &mut players {
        p.drain().await;
    }
    c.pg_link.set(Mode::Blackhole);
    c.nats_link.set(Mode::Blackhole);
    let cut = Instant::now();
    let mover = players.remove(1);
    let held = tokio::spawn(async move {
        let asked = Instant::now();
        let answer = mover.client.play(Board::A, "e5", None).await;
        (mover, answer, asked.elapsed())
    });
    tokio::time::sleep(Duration::from_millis(LEASE_MS / 2)).await;
    c.pg_link.set(Mode::Pass);
    c.nats_link.set(Mode::Pass);
    let (mover, answer, waited) = held.await.unwrap();
    players.insert(1, mover);
    println!(
        "a move asked during a {} ms cut was answered after {} ms",
        cut.elapsed().as_millis(),
        waited.as_millis()
    );
    answer.expect("stored once the link healed, then acknowledged");
    metric_reads(&c.a, "shvedka_cluster_lease_lost", 0).await;
    players[0].client.play(Board::A, "Nf3", None).await.expect("play goes on on node a");
    assert_eq!(c.b.stats.live_matches(), 0, "nobody took it over");
    check(&c, id, &mut players, &["e4", "d4", "e5", "Nf3"]).await;
    assert!(players.iter().all(|p| p.elsewhere == 0), "nobody is told to move");
}

/// Node a is cut while a move's commit is on its way: it lets the match go (the move is answered
/// `Unavailable`), node b takes it over and play goes on there with another move. When the link
/// heals, what node a had sent reaches the database late and stores nothing: its connection was
/// closed when the commit was abandoned (`storage/careful.rs`), and an append that did get
/// through late would meet the fence (`crates/storage/tests/leases.rs`). The log does not fork,
/// nothing is stored twice, and node a rejoins.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_commit_held_by_the_cut_never_lands_after_the_take_over_and_the_log_does_not_fork() {
    let c = cluster().await;
    let (id, mut players) = started(&c).await;
    for p in &mut players {
        p.drain().await;
    }
    c.pg_link.set(Mode::Blackhole);
    c.nats_link.set(Mode::Blackhole);
    let answer = players[1].client.play(Board::A, "e5", None).await;
    // Refused `Unavailable`, or its connection let go before the answer: never acknowledged.
    not_acknowledged(&answer);
    for p in &mut players {
        p.move_on().await;
    }
    // Another move than the one held: if the held commit got in, the log would fork here.
    play_until_accepted(&mut players, 1, Board::A, "c5").await;
    c.pg_link.set(Mode::Pass);
    c.nats_link.set(Mode::Pass);
    metric_reads(&c.a, "shvedka_cluster_lease_lost", 0).await;
    // The held commit is answered by now (refused); a moment for it to play out all the same.
    tokio::time::sleep(Duration::from_millis(500)).await;
    players[0].client.play(Board::A, "Nf3", None).await.expect("play goes on on node b");
    check(&c, id, &mut players, &["e4", "d4", "c5", "Nf3"]).await;
}

/// Node a's link to PostgreSQL is slow — half a second each way, so a commit (four round trips)
/// takes four seconds and more, as long as its lease — but its heartbeats, a new one every
/// `lease_renew_ms` on connections of their own, keep its lease: it keeps its match, play is
/// slower, nobody moves, nothing is lost or repeated. (With a two-second lease and a quarter
/// second each way, a CI machine's load once made the heartbeats themselves miss it.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_link_to_postgresql_slows_play_but_the_node_keeps_its_match() {
    let c = cluster_with_lease(4_000).await;
    let (id, mut players) = started(&c).await;
    for p in &mut players {
        p.drain().await;
    }
    let delay = Duration::from_millis(500);
    c.pg_link.set(Mode::Delay(delay));
    let mut slowest = Duration::ZERO;
    for (who, board, text) in [(1, Board::A, "e5"), (3, Board::B, "d5"), (0, Board::A, "Nf3")] {
        let asked = Instant::now();
        players[who].client.play(board, text, None).await.expect("accepted, late");
        slowest = slowest.max(asked.elapsed());
        for p in &mut players {
            p.drain().await;
        }
    }
    println!(
        "moves over a link {} ms slow each way took up to {} ms",
        delay.as_millis(),
        slowest.as_millis()
    );
    assert!(slowest >= delay * 2, "each commit crossed the slow link: {slowest:?}");
    metric_reads(&c.a, "shvedka_cluster_lease_lost", 0).await;
    assert_eq!(c.a.stats.live_matches(), 1, "node a keeps its match");
    assert_eq!(c.b.stats.live_matches(), 0, "nobody takes it over");
    c.pg_link.set(Mode::Pass);
    check(&c, id, &mut players, &["e4", "d4", "e5", "d5", "Nf3"]).await;
    assert!(players.iter().all(|p| p.elsewhere == 0), "nobody is told to move");
}
