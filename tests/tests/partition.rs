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
fn node(db: &str, nats: &TempNats, nats_url: &str, name: &str, cert: Option<&TestServer>) -> String {
    let shared = cert.map_or_else(String::new, |first| {
        let dir = first.data_dir();
        format!("cert = {:?}\nkey = {:?}\n", dir.join("cert.pem"), dir.join("key.pem"))
    });
    let settings = nats.node_settings().replace(&nats.url, nats_url);
    format!(
        "database_url = {db:?}\n{shared}[cluster]\nnode = {name:?}\n{settings}lease_ms = {LEASE_MS}\n\
         lease_renew_ms = 250\n"
    )
}

/// The services and two nodes; node a reaches PostgreSQL and NATS through `links`.
struct Cluster {
    pg: TempPostgres,
    _nats: TempNats,
    pg_link: Link,
    nats_link: Link,
    a: TestServer,
    b: TestServer,
}

async fn cluster() -> Cluster {
    if std::env::var_os("SHVEDKA_TEST_LOG").is_some() {
        let _ = tracing_subscriber::fmt().with_env_filter("info").with_test_writer().try_init();
    }
    let (pg, nats) = (TempPostgres::start(), TempNats::start());
    let socket = pg.socket().expect("a throwaway PostgreSQL: its socket is linked");
    let pg_link = Link::start_unix(socket).await.unwrap();
    let nats_addr = nats.url.trim_start_matches("tls://").parse().expect("tls://127.0.0.1:PORT");
    let nats_link = Link::start(nats_addr).await.unwrap();
    let linked_db = format!("postgres://postgres@{}/postgres", pg_link.addr());
    let linked_nats = format!("tls://{}", nats_link.addr());
    let a = TestServer::start(&node(&linked_db, &nats, &linked_nats, "node-a", None)).await;
    let b = TestServer::start(&node(&pg.url, &nats, &nats.url, "node-b", Some(&a))).await;
    Cluster { pg, _nats: nats, pg_link, nats_link, a, b }
}

/// A client and the sequence numbers of every event it was told, across connections.
struct Player {
    client: Client,
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
    async fn until(&mut self, what: &str, f: impl Fn(&Update) -> bool) {
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

    /// Takes whatever is waiting.
    async fn drain(&mut self) {
        while self.take(Duration::from_millis(200)).await.is_some() {}
    }
}

/// Four players on node a (given node a, then node b), seated, the match started, one move on
/// each board acknowledged.
async fn started(c: &Cluster) -> (MatchId, Vec<Player>) {
    let nodes = [c.a.addr, c.b.addr];
    let mut players = Vec::new();
    for seat in SeatId::ALL {
        let client = Client::connect_any(&nodes, Trust::Fingerprint(c.a.pin), seat.name()).await.unwrap();
        players.push(Player { client, seqs: Vec::new(), elsewhere: 0 });
    }
    let id = players[0].client.create_match("classic", "blitz", true).await.unwrap();
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
async fn play_until_accepted(players: &mut [Player], who: usize, board: Board, text: &str) {
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

/// Every event a player was told, once each and in order, and the log whole, in order, with
/// every acknowledged move once.
async fn check(c: &Cluster, id: MatchId, players: &mut [Player], acknowledged: &[&str]) {
    let store = PgStore::connect(&c.pg.url).await.unwrap();
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

/// The owner is cut off (from `links`): its players are told to resume elsewhere, resume on node
/// b, and play on there once node b took the match over; healed, node a rejoins.
async fn owner_cut_off(cut_nats: bool) {
    let c = cluster().await;
    let (id, mut players) = started(&c).await;
    for p in &mut players {
        p.drain().await;
    }
    let cut = Instant::now();
    c.pg_link.set(Mode::Blackhole);
    if cut_nats {
        c.nats_link.set(Mode::Blackhole);
    }
    // Each is told to go, loses the connection, and resumes on the next node.
    for p in &mut players {
        p.until("told to resume elsewhere", |u| {
            matches!(u, Update::Server(ServerMsg::ResumeElsewhere { .. }))
        })
        .await;
        p.until("the connection let go", |u| matches!(u, Update::Disconnected(_))).await;
        p.client.resume().await.expect("resumed on node b");
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
    // The lease counts from the last heartbeat sent before the cut (at most lease_renew_ms before).
    assert!(told >= Duration::from_millis(LEASE_MS - 300), "not before the lease could run out: {told:?}");
    assert!(
        moved <= Duration::from_millis(LEASE_MS + 4000),
        "play goes on within the lease and a few renewals: {moved:?}"
    );
    metric_reads(&c.a, "shvedka_cluster_lease_lost", 1).await;
    assert_eq!(c.a.stats.live_matches(), 0, "node a runs nothing while cut off");
    play_until_accepted(&mut players, 3, Board::B, "d5").await;

    // Healed: node a rejoins by itself; the match stays where it is.
    c.pg_link.set(Mode::Pass);
    c.nats_link.set(Mode::Pass);
    let rejoined = metric_reads(&c.a, "shvedka_cluster_lease_lost", 0).await;
    println!("node a rejoined {} ms after the links healed", rejoined.as_millis());
    assert_eq!(c.b.stats.live_matches(), 1);
    players[0].client.play(Board::A, "Nf3", None).await.expect("play goes on");
    check(&c, id, &mut players, &["e4", "d4", "e5", "d5", "Nf3"]).await;
    assert!(players.iter().all(|p| p.elsewhere == 1), "each told once");
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
