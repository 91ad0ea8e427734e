//! End-to-end tests of shvedka live in this package's `tests/` directory: they drive the `shvedka`
//! command line, and a real server on `127.0.0.1:0` with real clients. This library is their
//! harness (also used by the latency benchmark): a server in a temporary data directory, clients
//! pinned to its certificate, and bounded waits for updates.

mod faulty;
pub mod process;

use std::net::SocketAddr;
use std::time::Duration;

use shvedka_client::{Client, Trust, Update};
use shvedka_proto::{MatchEvent, MatchId, SeatId, ServerMsg};
use shvedka_server::{Server, ServerConfig};
use tokio::sync::oneshot;

pub use faulty::FaultyStore;

/// Clock settings for tests: no countdown, quick named controls.
pub const TEST_CLOCK: &str = r#"
countdown_ms = 0
[lag]
gain_base_ms = 150
estimate_moves = 40
gain_divisor = 250
gain_max_ms = 1000
start_gains = 3
max_gains = 7
max_grace_ms = 2000
[time_controls]
blitz = "3+0"
"#;

/// A server running on loopback in its own temporary data directory.
pub struct TestServer {
    /// Where it listens.
    pub addr: SocketAddr,
    /// Its certificate's SHA-256.
    pub pin: [u8; 32],
    /// Where its HTTP side (web client, WebSocket) listens.
    pub http: SocketAddr,
    /// Where its browsers' QUIC endpoint (WebTransport) listens.
    pub webtransport: SocketAddr,
    /// Its live counts.
    pub stats: shvedka_server::Stats,
    shutdown: Option<oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<Result<(), String>>>,
    dir: tempfile::TempDir,
    overrides: String,
    clock: String,
}

impl TestServer {
    /// Starts a server with test clock settings and `overrides` (TOML) on top of the defaults.
    pub async fn start(overrides: &str) -> TestServer {
        TestServer::start_in(tempfile::tempdir().expect("a temporary directory"), overrides, None, TEST_CLOCK)
            .await
    }

    /// As [`TestServer::start`], its data directory in `dir` (a small file system the test
    /// made, say).
    pub async fn start_in_dir(dir: tempfile::TempDir, overrides: &str) -> TestServer {
        TestServer::start_in(dir, overrides, None, TEST_CLOCK).await
    }

    /// As [`TestServer::start`], with other clock settings (a countdown, say) than [`TEST_CLOCK`].
    pub async fn start_with_clock(overrides: &str, clock: &str) -> TestServer {
        TestServer::start_in(tempfile::tempdir().expect("a temporary directory"), overrides, None, clock)
            .await
    }

    /// As [`TestServer::start`], on a store made by the test (one that fails on command, or a
    /// PostgreSQL the test stops and starts).
    pub async fn start_with_store(
        overrides: &str,
        store: std::sync::Arc<dyn shvedka_storage::Store>,
    ) -> TestServer {
        let dir = tempfile::tempdir().expect("a temporary directory");
        TestServer::start_in(dir, overrides, Some(store), TEST_CLOCK).await
    }

    /// Stops the server and starts a new one on the same data directory and database (on another
    /// port): everything it knows must come from storage.
    pub async fn restart(self) -> TestServer {
        let overrides = self.overrides.clone();
        self.restart_with(&overrides).await
    }

    /// As [`TestServer::restart`], the new server with other settings (an operator who changed
    /// the configuration between the two).
    pub async fn restart_with(mut self, overrides: &str) -> TestServer {
        self.shut_down().await;
        let dir = std::mem::replace(&mut self.dir, tempfile::tempdir().expect("a temporary directory"));
        TestServer::start_in(dir, overrides, None, &self.clock).await
    }

    async fn start_in(
        dir: tempfile::TempDir,
        overrides: &str,
        store: Option<std::sync::Arc<dyn shvedka_storage::Store>>,
        clock_toml: &str,
    ) -> TestServer {
        let clock = dir.path().join("clock.toml");
        std::fs::write(&clock, clock_toml).expect("write clock settings");
        // Every test's accounts and guests come from 127.0.0.1: the hourly limits per address
        // are the defaults only where a test asks for them (address_limits.rs, accounts.rs).
        let lift = |key: &str, value: u32| {
            if overrides.contains(key) { String::new() } else { format!("{key} = {value}\n") }
        };
        let registrations = lift("registrations_per_address_per_hour", 10_000)
            + &lift("guest_sessions_per_address_per_hour", 100_000)
            + &lift("new_connections_per_address_per_second", 100_000);
        let text = format!(
            "listen = \"127.0.0.1:0\"\nhttp_listen = \"127.0.0.1:0\"\nwebtransport_listen = \"127.0.0.1:0\"\ndata_dir = {:?}\nclock = {:?}\n{registrations}{overrides}",
            dir.path().join("data"),
            clock
        );
        let config = ServerConfig::from_overrides(&text).expect("a valid test configuration");
        let server = match store {
            Some(store) => Server::bind_with_store(config, store).await,
            None => Server::bind(config).await,
        };
        let server = server.expect("the server binds");
        let stats = server.stats();
        let addr = server.local_addr().expect("a local address");
        let http = server.http_addr().expect("an HTTP address").expect("the HTTP side is on");
        let webtransport =
            server.webtransport_addr().expect("a WebTransport address").expect("WebTransport is on");
        let pin = shvedka_client::parse_fingerprint(server.fingerprint()).expect("a fingerprint");
        let (tx, rx) = oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            server
                .run(async {
                    let _ = rx.await;
                })
                .await
                .map_err(|e| e.to_string())
        });
        TestServer {
            addr,
            http,
            webtransport,
            pin,
            stats,
            shutdown: Some(tx),
            task: Some(task),
            dir,
            overrides: overrides.to_owned(),
            clock: clock_toml.to_owned(),
        }
    }

    /// Waits until `/metrics` has the line `line` (the server's own count of what a test waits
    /// for), at most 30 s.
    pub async fn until_metric(&self, line: &str) {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
        loop {
            let metrics = self.http_get("/metrics").await;
            if metrics.lines().any(|l| l == line) {
                return;
            }
            assert!(tokio::time::Instant::now() < deadline, "no `{line}` within 30 s:\n{metrics}");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// A plain HTTP/1.1 `GET` of `path` on the HTTP side: the whole response, head and body.
    pub async fn http_get(&self, path: &str) -> String {
        self.http_get_from(std::net::Ipv4Addr::LOCALHOST, path).await
    }

    /// As [`TestServer::http_get`], from the loopback address `from` (`127.0.0.2` …): every
    /// HTTP connection counts against its address's limits.
    pub async fn http_get_from(&self, from: std::net::Ipv4Addr, path: &str) -> String {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let socket = tokio::net::TcpSocket::new_v4().expect("a TCP socket");
        socket.bind(std::net::SocketAddr::from((from, 0))).expect("a loopback address");
        let mut tcp = socket.connect(self.http).await.expect("the HTTP side accepts");
        let request = format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
        tcp.write_all(request.as_bytes()).await.expect("the request is sent");
        let mut response = String::new();
        tcp.read_to_string(&mut response).await.expect("a response");
        response
    }

    /// A new session named `name`, from the loopback address `from` (`127.0.0.2` …): the
    /// server's limits per address tell it from the other clients, which come from `127.0.0.1`.
    pub async fn client_from(&self, from: std::net::Ipv4Addr, name: &str) -> Client {
        let trust = Trust::Fingerprint(self.pin);
        let (_, config) = shvedka_client::client_config(&trust).expect("the client's TLS configuration");
        let local = std::net::SocketAddr::from((from, 0));
        let mut endpoint =
            shvedka_client::quinn::Endpoint::client(local).expect("a client endpoint on loopback");
        endpoint.set_default_client_config(config);
        Client::connect_on(endpoint, self.addr, &trust, name).await.expect("the client connects")
    }

    /// A new session named `name`.
    pub async fn client(&self, name: &str) -> Client {
        Client::connect(self.addr, Trust::Fingerprint(self.pin), name).await.expect("the client connects")
    }

    /// A client logged in as the account `name` (password [`TestServer::password`]), registering
    /// it first if it is new.
    pub async fn account(&self, name: &str) -> Client {
        let mut c = self.client("").await;
        match c.register(name, &TestServer::password(name), false).await {
            Ok(_) => {}
            Err(shvedka_client::ClientError::Server(e)) if e.code == shvedka_proto::ErrorCode::NameTaken => {
                c.login(name, &TestServer::password(name)).await.expect("the account logs in");
            }
            Err(e) => panic!("cannot register {name}: {e}"),
        }
        c
    }

    /// The server's data directory (its SQLite database, records, certificate).
    pub fn data_dir(&self) -> std::path::PathBuf {
        self.dir.path().join("data")
    }

    /// The password of a test account.
    pub fn password(name: &str) -> String {
        format!("{name}-password")
    }

    /// Four clients seated in the order of `SeatId::ALL` and ready; the match has started.
    pub async fn seated_match(&self, rules: &str, tc: &str) -> (MatchId, Vec<Client>) {
        let mut clients = Vec::new();
        for seat in SeatId::ALL {
            clients.push(self.client(seat.name()).await);
        }
        let id = clients[0].create_match(rules, tc, true).await.expect("create");
        for (c, seat) in clients.iter().zip(SeatId::ALL) {
            c.take_seat(id, seat).await.expect("take seat");
        }
        for c in &clients {
            c.ready(true).await.expect("ready");
        }
        for c in &mut clients {
            wait_event(c, |e| matches!(e.kind, shvedka_proto::EventView::Started)).await;
        }
        (id, clients)
    }

    /// Stops the server gracefully.
    pub async fn stop(mut self) {
        self.shut_down().await;
    }

    async fn shut_down(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(task) = self.task.take() {
            let done = tokio::time::timeout(Duration::from_secs(10), task).await;
            assert!(matches!(done, Ok(Ok(Ok(())))), "the server stops cleanly: {done:?}");
        }
    }
}

/// The next update within 10 s (panics otherwise: a test must never hang).
pub async fn next(c: &mut Client) -> Update {
    match tokio::time::timeout(Duration::from_secs(10), c.next_update()).await {
        Ok(Some(u)) => u,
        Ok(None) => panic!("the update stream ended"),
        Err(_) => panic!("no update within 10 s"),
    }
}

/// Waits for a server message matching `f`, skipping others.
pub async fn wait_msg(c: &mut Client, f: impl Fn(&ServerMsg) -> bool) -> ServerMsg {
    loop {
        match next(c).await {
            Update::Server(m) if f(&m) => return m,
            Update::Server(_) => {}
            Update::Disconnected(why) => panic!("disconnected while waiting: {why}"),
        }
    }
}

/// Waits for a match event matching `f`.
pub async fn wait_event(c: &mut Client, f: impl Fn(&MatchEvent) -> bool) -> MatchEvent {
    match wait_msg(c, |m| matches!(m, ServerMsg::Event(e) if f(e))).await {
        ServerMsg::Event(e) => e,
        _ => unreachable!(),
    }
}

/// Every update already received, without waiting.
pub fn drain(c: &mut Client) -> Vec<Update> {
    std::iter::from_fn(|| c.try_update()).collect()
}

/// Every server message up to and including the first event matching `f`.
pub async fn collect_until(c: &mut Client, f: impl Fn(&MatchEvent) -> bool) -> Vec<ServerMsg> {
    let mut seen = Vec::new();
    loop {
        match next(c).await {
            Update::Server(m) => {
                let done = matches!(&m, ServerMsg::Event(e) if f(e));
                seen.push(m);
                if done {
                    return seen;
                }
            }
            Update::Disconnected(why) => panic!("disconnected while waiting: {why}"),
        }
    }
}

/// The next tournament push on a followed tournament's updates, within 10 s (other updates are
/// skipped; a lost connection panics).
pub async fn tournament_push(
    feed: &mut shvedka_client::Updates,
) -> (shvedka_proto::TourChange, shvedka_proto::TournamentView) {
    let next = async {
        loop {
            match feed.recv().await {
                Some(Update::Server(ServerMsg::Tournament { change, view })) => return (change, *view),
                Some(Update::Server(_)) => {}
                other => panic!("the connection ended: {other:?}"),
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(10), next).await.expect("a tournament push within 10 s")
}
