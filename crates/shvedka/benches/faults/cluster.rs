//! The cluster under test: one throwaway PostgreSQL and NATS server, and three `shvedka serve`
//! child processes (real processes, so that SIGKILL is real), each reaching PostgreSQL and NATS
//! through faulty links of its own (`testkit::link`), so that one node at a time can be cut off,
//! slowed, killed and restarted with the same name, data directory and addresses.

use std::fs::OpenOptions;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use shvedka_client::parse_fingerprint;
use testkit::link::{Link, Mode};
use testkit::nats::TempNats;
use testkit::postgres::TempPostgres;

/// The nodes' clock settings: the tests' (`shvedka_tests::TEST_CLOCK`, no countdown) with a time
/// control long enough that nobody flags during a ten-minute run (`long`, an hour each).
fn clock() -> String {
    format!("{}long = \"60+0\"\n", shvedka_tests::TEST_CLOCK)
}

/// The time control the matches are created with (an hour each, [`clock`]).
pub(crate) const TIME_CONTROL: &str = "long";

/// One node: its process (none while killed), its addresses, and its two links.
pub(crate) struct Node {
    pub(crate) name: String,
    pub(crate) addr: SocketAddr,
    pub(crate) http: SocketAddr,
    dir: PathBuf,
    config: PathBuf,
    log: PathBuf,
    child: Option<Child>,
    pub(crate) pg: Link,
    pub(crate) nats: Link,
}

/// The services and the nodes.
pub(crate) struct Cluster {
    pub(crate) pg: TempPostgres,
    _nats: TempNats,
    pub(crate) nodes: Vec<Node>,
    pub(crate) pin: [u8; 32],
}

/// The leases the nodes run with.
#[derive(Clone, Copy)]
pub(crate) struct Leases {
    pub(crate) lease_ms: u64,
    pub(crate) renew_ms: u64,
}

fn free_udp() -> SocketAddr {
    std::net::UdpSocket::bind("127.0.0.1:0").unwrap().local_addr().unwrap()
}

fn free_tcp() -> SocketAddr {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap()
}

impl Cluster {
    /// Starts PostgreSQL, NATS and `count` nodes, logging each node's stderr to `logs/NAME.log`.
    pub(crate) async fn start(count: usize, leases: Leases, logs: &Path) -> Cluster {
        let (pg, nats) = (TempPostgres::start(), TempNats::start());
        let socket =
            pg.socket().expect("a throwaway PostgreSQL (SHVEDKA_TEST_DATABASE_URL cannot be linked)");
        let nats_addr: SocketAddr =
            nats.url.trim_start_matches("tls://").parse().expect("tls://127.0.0.1:PORT");
        let mut nodes = Vec::new();
        let mut pin = None;
        for i in 0..count {
            let name = format!("node-{}", (b'a' + i as u8) as char);
            let dir = logs.join(&name);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join("clock.toml"), clock()).unwrap();
            let pg_link = Link::start_unix(socket.clone()).await.unwrap();
            let nats_link = Link::start(nats_addr).await.unwrap();
            let settings = nats.node_settings().replace(&nats.url, &format!("tls://{}", nats_link.addr()));
            let shared = nodes.first().map_or_else(String::new, |first: &Node| {
                let data = first.dir.join("data");
                format!("cert = {:?}\nkey = {:?}\n", data.join("cert.pem"), data.join("key.pem"))
            });
            let (addr, http) = (free_udp(), free_tcp());
            // Every client comes from 127.0.0.1: the per-address limits are lifted.
            let config = format!(
                "listen = \"{addr}\"\nhttp_listen = \"{http}\"\nwebtransport_listen = \"127.0.0.1:0\"\n\
                 data_dir = {:?}\nclock = {:?}\ndatabase_url = \"postgres://postgres@{}/postgres\"\n{shared}\
                 max_connections = 10000\nmax_connections_per_address = 10000\n\
                 new_connections_per_address_per_second = 10000\nguest_sessions_per_address_per_hour = 100000\n\
                 rate_per_second = 1000\nrate_burst = 1000\n\
                 [cluster]\nnode = {name:?}\n{settings}lease_ms = {}\nlease_renew_ms = {}\n",
                dir.join("data"),
                dir.join("clock.toml"),
                pg_link.addr(),
                leases.lease_ms,
                leases.renew_ms,
            );
            let config_path = dir.join("server.toml");
            std::fs::write(&config_path, config).unwrap();
            let mut node = Node {
                log: logs.join(format!("{name}.log")),
                name,
                addr,
                http,
                dir,
                config: config_path,
                child: None,
                pg: pg_link,
                nats: nats_link,
            };
            let node_pin = node.spawn().await;
            assert_eq!(*pin.get_or_insert(node_pin), node_pin, "the nodes share one certificate");
            nodes.push(node);
        }
        Cluster { pg, _nats: nats, nodes, pin: pin.expect("a node") }
    }

    /// Every node's client address.
    pub(crate) fn addrs(&self) -> Vec<SocketAddr> {
        self.nodes.iter().map(|n| n.addr).collect()
    }
}

impl Node {
    /// Starts the process; gives the certificate's fingerprint once it listens. A start that
    /// fails (its address not free yet, say) is tried again, ten times at most.
    pub(crate) async fn spawn(&mut self) -> [u8; 32] {
        for _ in 0..10 {
            if let Some(pin) = self.spawn_once().await {
                return pin;
            }
            self.kill();
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
        panic!("{} did not start: see its log", self.name)
    }

    async fn spawn_once(&mut self) -> Option<[u8; 32]> {
        let log = OpenOptions::new().create(true).append(true).open(&self.log).unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_shvedka"))
            .args(["serve", "--config"])
            .arg(&self.config)
            .stdout(Stdio::piped())
            .stderr(log)
            .spawn()
            .expect("shvedka serve starts");
        let stdout = child.stdout.take().unwrap();
        self.child = Some(child);
        let cert = tokio::task::spawn_blocking(move || {
            let mut lines = BufReader::new(stdout).lines();
            let _address = lines.next()?.ok()?;
            let cert = lines.next()?.ok()?;
            std::thread::spawn(move || lines.for_each(drop));
            Some(cert)
        })
        .await
        .unwrap()?;
        parse_fingerprint(cert.trim_start_matches("certificate sha256 ")).ok()
    }

    /// SIGKILL: no chance to store anything, release a lease or say goodbye.
    pub(crate) fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Whether its process runs.
    pub(crate) fn running(&self) -> bool {
        self.child.is_some()
    }

    /// Both links back to a working network.
    pub(crate) fn heal(&self) {
        self.pg.set(Mode::Pass);
        self.nats.set(Mode::Pass);
    }

    /// A metric on its HTTP side (none while it does not answer within a second).
    pub(crate) async fn metric(&self, name: &str) -> Option<i64> {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let fetch = async {
            let mut tcp = tokio::net::TcpStream::connect(self.http).await.ok()?;
            let request = "GET /metrics HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
            tcp.write_all(request.as_bytes()).await.ok()?;
            let mut page = String::new();
            tcp.read_to_string(&mut page).await.ok()?;
            page.lines().find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.trim().parse().ok())
        };
        tokio::time::timeout(Duration::from_secs(1), fetch).await.ok().flatten()
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        self.kill();
    }
}
