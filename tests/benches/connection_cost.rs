//! What one connection costs a server in memory, and what a move costs a bare quinn server in
//! CPU: the references for issue 34's targets (150 KiB a match of four connections, 120 µs a
//! move), measured in the same run as shvedka's own figures.
//!
//! - **bare quinn:** a quinn server whose clients each open one bidirectional stream and keep it
//!   (the stream counts and windows of shvedka's native endpoint, `transport/endpoint.rs`): what
//!   quinn and rustls hold for a connection, and nothing of ours;
//! - **shvedka, idle sessions:** shvedka's server, each client a guest session on its own
//!   connection, in no match.
//!
//! Each server runs in a child process of its own (this program again, told its role in
//! `CONNECTION_MEMORY_ROLE`), so the clients' memory is not counted: the figure is the growth of
//! the child's resident set (`VmRSS`) from a few warm connections to `N` more, divided by `N`.
//! Both children run as the `shvedka` binary does: mimalloc, no transparent huge pages.
//!
//! Then the CPU a move costs the bare server, the reference for issue 34's 120 µs a move: groups
//! of four connections ("matches"), a move a second on each of a group's two boards, each move 64
//! bytes from one client answered by 256 bytes to all four (the shape of a move's traffic, with
//! no rules, no storage, no sessions), the child's CPU time over 20 s divided by the moves.
//!
//! The same run measures the clients too, as a load generator made of bare quinn clients would
//! cost beside the server (this process's CPU time over the window), the time from a move sent
//! to each of its events read, and the datagrams the server's socket dropped: the floor of
//! `tools/capacity.py`'s knee on this machine.
//!
//! `cargo bench -p shvedka-tests --bench connection_cost` (`SHVEDKA_MEMORY_CONNECTIONS` sets `N`,
//! default 2,000, 0 for no memory part; `SHVEDKA_TRAFFIC_MATCHES` the groups, default 2,000, or a
//! list such as `2000,3000,3500` for a run each). Loopback only; each child ends when its stdin
//! closes.

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use shvedka_client::{Client, Trust, quinn};
use shvedka_proto::MAX_FRAME;
use shvedka_tests::TestServer;

/// Connections opened before the first reading: the allocator's and the runtime's first pools.
const WARM: usize = 50;
/// Connections being opened at once.
const AT_ONCE: usize = 32;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    rustix::thread::disable_transparent_huge_pages(true).expect("transparent huge pages off");
    match std::env::var("CONNECTION_MEMORY_ROLE").as_deref() {
        Ok("bare") => child(bare_server()),
        Ok("shvedka") => child(shvedka_server()),
        _ => measure(),
    }
}

/// A child: starts its server, says where it listens on one line, and serves until stdin closes.
fn child(server: impl std::future::Future<Output = String>) {
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    rt.block_on(async {
        let line = server.await;
        println!("{line}");
        std::io::stdout().flush().unwrap();
        // Serve until the parent closes our stdin.
        tokio::task::spawn_blocking(|| std::io::stdin().lock().lines().count()).await.unwrap();
    });
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Vec<u8> {
    (0..text.len()).step_by(2).map(|i| u8::from_str_radix(&text[i..i + 2], 16).unwrap()).collect()
}

/// The bare quinn server: `ADDR CERT` (its certificate's DER in hex).
async fn bare_server() -> String {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let rcgen::CertifiedKey { cert, signing_key } =
        rcgen::generate_simple_self_signed(vec!["localhost".into()]).unwrap();
    let der = rustls::pki_types::CertificateDer::from(cert.der().to_vec());
    let key = rustls::pki_types::PrivateKeyDer::try_from(signing_key.serialize_der()).unwrap();
    let mut tls = rustls::ServerConfig::builder_with_provider(provider)
        .with_protocol_versions(&[&rustls::version::TLS13])
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(vec![der.clone()], key)
        .unwrap();
    tls.alpn_protocols = vec![b"bare".to_vec()];
    let quic = quinn::crypto::rustls::QuicServerConfig::try_from(tls).unwrap();
    let mut config = quinn::ServerConfig::with_crypto(Arc::new(quic));
    // As shvedka's native endpoint: one bidirectional stream, no other, the same windows.
    let window = 2 * MAX_FRAME as u32;
    let mut transport = quinn::TransportConfig::default();
    transport
        .max_idle_timeout(Some(quinn::IdleTimeout::try_from(Duration::from_secs(60)).unwrap()))
        .max_concurrent_bidi_streams(1u32.into())
        .max_concurrent_uni_streams(0u32.into())
        .stream_receive_window(window.into())
        .receive_window(window.into())
        .send_window((2 * window).into())
        .datagram_receive_buffer_size(None)
        .datagram_send_buffer_size(0);
    config.transport_config(Arc::new(transport));
    let server = quinn::Endpoint::server(config, "127.0.0.1:0".parse().unwrap()).unwrap();
    let addr = server.local_addr().unwrap();
    let groups = Groups::default();
    tokio::spawn(async move {
        while let Some(incoming) = server.accept().await {
            tokio::spawn(bare_connection(incoming, groups.clone()));
        }
    });
    format!("{addr} {}", hex(&der))
}

/// The bare server's connections by group (a "match" of four), each's stream to write to.
type Groups = Arc<std::sync::Mutex<HashMap<u32, Vec<Arc<tokio::sync::Mutex<quinn::SendStream>>>>>>;

/// One connection of the bare server: its hello (its group), answered with one byte; then each
/// [`MOVE`] bytes it sends are [`EVENT`] bytes written to every stream of its group, its own
/// included: the shape of a move's traffic in a match, without the match.
async fn bare_connection(incoming: quinn::Incoming, groups: Groups) {
    let Ok(conn) = incoming.await else { return };
    let Ok((mut send, mut recv)) = conn.accept_bi().await else { return };
    let mut hello = [0u8; HELLO];
    if recv.read_exact(&mut hello).await.is_err() || send.write_all(&[1]).await.is_err() {
        return;
    }
    let group = u32::from_le_bytes(hello[1..].try_into().unwrap());
    groups.lock().unwrap().entry(group).or_default().push(Arc::new(tokio::sync::Mutex::new(send)));
    let mut mv = [0u8; MOVE];
    let mut event = [7u8; EVENT];
    // Held, stream and all, until the client goes.
    while recv.read_exact(&mut mv).await.is_ok() {
        // The move's stamp (when its client sent it) goes back in each event, for its latency.
        event[..STAMP].copy_from_slice(&mv[..STAMP]);
        let members = groups.lock().unwrap()[&group].clone();
        for member in members {
            let _ = member.lock().await.write_all(&event).await;
        }
    }
    drop(conn);
}

/// A client's first bytes: one, then its group (`u32`, little-endian).
const HELLO: usize = 5;
/// A move's and its events' first bytes: when the move was sent, µs since [`Clock`]'s start
/// (`u64`, little-endian).
const STAMP: usize = 8;
/// What a client sends for a move, and what each of its group is sent for it.
const MOVE: usize = 64;
const EVENT: usize = 256;

/// shvedka's server: `ADDR PIN`. Its limits per address let one address open every connection.
async fn shvedka_server() -> String {
    let server = TestServer::start(
        "max_connections = 100000\nmax_connections_per_address = 100000\n\
         new_connections_per_address_per_second = 100000\nguest_sessions_per_address_per_hour = 100000\n\
         rate_per_second = 100000\nrate_burst = 100000",
    )
    .await;
    let line = format!("{} {}", server.addr, hex(&server.pin));
    // The server lives as long as this process.
    std::mem::forget(server);
    line
}

fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

fn spawn(role: &str) -> (Child, String) {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .env("CONNECTION_MEMORY_ROLE", role)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    (child, line.trim().to_owned())
}

/// What the clients keep open (a connection and its stream, or a session's client): each must
/// live until the reading is taken.
type Held = Box<dyn std::any::Any + Send>;

async fn bare_client(endpoint: quinn::Endpoint, addr: SocketAddr, group: u32) -> Held {
    Box::new(bare_connect(&endpoint, addr, group).await)
}

async fn bare_connect(
    endpoint: &quinn::Endpoint,
    addr: SocketAddr,
    group: u32,
) -> (quinn::Connection, quinn::SendStream, quinn::RecvStream) {
    let conn = endpoint.connect(addr, "localhost").unwrap().await.unwrap();
    let (mut send, mut recv) = conn.open_bi().await.unwrap();
    let mut hello = [1u8; HELLO];
    hello[1..].copy_from_slice(&group.to_le_bytes());
    send.write_all(&hello).await.unwrap();
    let mut byte = [0u8; 1];
    recv.read_exact(&mut byte).await.unwrap();
    (conn, send, recv)
}

fn bare_endpoint(cert: &[u8]) -> quinn::Endpoint {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut roots = rustls::RootCertStore::empty();
    roots.add(rustls::pki_types::CertificateDer::from(cert.to_vec())).unwrap();
    let mut tls = rustls::ClientConfig::builder_with_provider(provider)
        .with_protocol_versions(&[&rustls::version::TLS13])
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    tls.alpn_protocols = vec![b"bare".to_vec()];
    let quic = quinn::crypto::rustls::QuicClientConfig::try_from(tls).unwrap();
    let mut client = quinn::ClientConfig::new(Arc::new(quic));
    let mut transport = quinn::TransportConfig::default();
    transport.keep_alive_interval(Some(Duration::from_secs(5)));
    client.transport_config(Arc::new(transport));
    let mut endpoint = quinn::Endpoint::client("127.0.0.1:0".parse().unwrap()).unwrap();
    endpoint.set_default_client_config(client);
    endpoint
}

/// Opens `n` connections of `role` to the child that said `line`, `AT_ONCE` at a time.
async fn open(role: &str, line: &str, n: usize, from: usize, held: &mut Vec<Held>) {
    let (addr, key) = line.split_once(' ').unwrap();
    let addr: SocketAddr = addr.parse().unwrap();
    let key = unhex(key);
    let endpoint = (role == "bare").then(|| bare_endpoint(&key));
    let mut tasks = tokio::task::JoinSet::new();
    for i in from..from + n {
        if tasks.len() == AT_ONCE {
            held.push(tasks.join_next().await.unwrap().unwrap());
        }
        match &endpoint {
            Some(endpoint) => {
                tasks.spawn(bare_client(endpoint.clone(), addr, i as u32 / 4));
            }
            None => {
                let pin: [u8; 32] = key.clone().try_into().unwrap();
                tasks.spawn(async move {
                    let client =
                        Client::connect(addr, Trust::Fingerprint(pin), &format!("m{i}")).await.unwrap();
                    Box::new(client) as Held
                });
            }
        }
    }
    while let Some(done) = tasks.join_next().await {
        held.push(done.unwrap());
    }
}

/// KiB of the child's resident set per connection opened after the warm ones.
async fn per_connection(role: &str, n: usize) -> f64 {
    let (mut child, line) = spawn(role);
    let mut held = Vec::new();
    open(role, &line, WARM, 0, &mut held).await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    let before = rss_kib(child.id());
    open(role, &line, n, WARM, &mut held).await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    let after = rss_kib(child.id());
    assert_eq!(held.len(), WARM + n, "every connection is open");
    println!("{role:<8} {n} connections: RSS {before} → {after} KiB");
    drop(held);
    drop(child.stdin.take());
    child.wait().unwrap();
    (after - before) as f64 / n as f64
}

/// CPU time of a process so far, in clock ticks of 10 ms (`USER_HZ`, 100 on Linux).
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let fields: Vec<&str> = stat.rsplit_once(')').unwrap().1.split_whitespace().collect();
    fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
}

/// What the bare server and its clients cost under a match's traffic.
struct Traffic {
    /// The server's CPU time over [`WINDOW`], as a share of a core.
    share: f64,
    /// The same, µs a move.
    per_move: f64,
    /// The clients' (this process's) CPU time over the window, as a share of a core: what a load
    /// generator made of bare quinn clients costs beside the server.
    clients_share: f64,
    /// The same, µs a move.
    clients_per_move: f64,
    /// Moves sent over the window, a second, against those offered ([`MOVES_PER_SECOND`] a group).
    sent_per_second: f64,
    /// From a move sent to each of its four events read, over the window: the 50th and 99th
    /// percentiles, ms (each event counted, so not longer than `shvedka load`'s "until all four
    /// saw it").
    p50_ms: f64,
    p99_ms: f64,
    /// Datagrams the server's socket dropped over the window (its receive buffer full).
    drops: u64,
    /// Its resident set at the end less the idle server's, KiB a group of four.
    kib_a_group: f64,
}

/// Datagrams dropped so far by the UDP socket on `port` (IPv4 loopback): `/proc/net/udp`'s last
/// column.
fn udp_drops(port: u16) -> u64 {
    let table = std::fs::read_to_string("/proc/net/udp").unwrap();
    table
        .lines()
        .skip(1)
        .filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let local = u16::from_str_radix(fields.get(1)?.rsplit_once(':')?.1, 16).ok()?;
            (local == port).then(|| fields.last()?.parse::<u64>().ok()).flatten()
        })
        .sum()
}

/// The clients' clock for the stamps: µs since the bench started.
struct Clock(std::time::Instant);

impl Clock {
    fn micros(&self) -> u64 {
        u64::try_from(self.0.elapsed().as_micros()).unwrap_or(u64::MAX)
    }
}

/// The latencies read while the window is open (`None` before and after).
type Latencies = Arc<std::sync::Mutex<Option<Vec<u32>>>>;

fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    f64::from(sorted[i]) / 1000.0
}

/// The bare server under traffic: `matches` groups of four connections, [`MOVES_PER_SECOND`] in
/// each group (as `tools/capacity.py`: a move a second on each board), each reaching all four;
/// the child's CPU time over [`WINDOW`] after a warm-up, over the moves sent, and its resident
/// set then against the idle server's.
async fn bare_under_traffic(matches: usize) -> Traffic {
    let (mut child, line) = spawn("bare");
    let idle = rss_kib(child.id());
    let (addr, cert) = line.split_once(' ').unwrap();
    let addr: SocketAddr = addr.parse().unwrap();
    let endpoints: Vec<quinn::Endpoint> = (0..8).map(|_| bare_endpoint(&unhex(cert))).collect();
    let sent = Arc::new(AtomicU64::new(0));
    let clock = Arc::new(Clock(std::time::Instant::now()));
    let latencies = Latencies::default();
    let mut tasks = tokio::task::JoinSet::new();
    for group in 0..matches as u32 {
        let mut streams = Vec::new();
        for i in 0..4 {
            let endpoint = &endpoints[(group as usize * 4 + i) % endpoints.len()];
            let (conn, send, mut recv) = bare_connect(endpoint, addr, group).await;
            // Every event read, its latency noted while the window is open, and dropped.
            let (clock, latencies) = (clock.clone(), latencies.clone());
            tasks.spawn(async move {
                let mut event = [0u8; EVENT];
                while recv.read_exact(&mut event).await.is_ok() {
                    let stamp = u64::from_le_bytes(event[..STAMP].try_into().unwrap());
                    let us = clock.micros().saturating_sub(stamp);
                    if let Some(seen) = latencies.lock().unwrap().as_mut() {
                        seen.push(u32::try_from(us).unwrap_or(u32::MAX));
                    }
                }
                drop(conn);
            });
            streams.push(send);
        }
        let (sent, clock) = (sent.clone(), clock.clone());
        tasks.spawn(async move {
            let every = Duration::from_secs_f64(1.0 / MOVES_PER_SECOND);
            // Spread over the first period, as players are.
            let offset = every.mul_f64(f64::from(group % 97) / 97.0);
            let mut next = tokio::time::Instant::now() + offset;
            for turn in 0usize.. {
                tokio::time::sleep_until(next).await;
                let mut mv = [0u8; MOVE];
                mv[..STAMP].copy_from_slice(&clock.micros().to_le_bytes());
                if streams[turn % 4].write_all(&mv).await.is_err() {
                    return;
                }
                sent.fetch_add(1, Ordering::Relaxed);
                next += every;
            }
        });
    }
    tokio::time::sleep(Duration::from_secs(5)).await;
    let me = std::process::id();
    let port = addr.port();
    let (ticks, own, moves, dropped) =
        (cpu_ticks(child.id()), cpu_ticks(me), sent.load(Ordering::Relaxed), udp_drops(port));
    *latencies.lock().unwrap() = Some(Vec::new());
    tokio::time::sleep(WINDOW).await;
    let mut seen = latencies.lock().unwrap().take().unwrap_or_default();
    let ticks = cpu_ticks(child.id()) - ticks;
    let own = cpu_ticks(me) - own;
    let moves = sent.load(Ordering::Relaxed) - moves;
    let drops = udp_drops(port) - dropped;
    let busy = rss_kib(child.id());
    seen.sort_unstable();
    tasks.abort_all();
    drop(child.stdin.take());
    child.wait().unwrap();
    let cpu = ticks as f64 / 100.0;
    let clients = own as f64 / 100.0;
    let window = WINDOW.as_secs_f64();
    Traffic {
        share: cpu / window,
        per_move: cpu * 1e6 / moves as f64,
        clients_share: clients / window,
        clients_per_move: clients * 1e6 / moves as f64,
        sent_per_second: moves as f64 / window,
        p50_ms: percentile(&seen, 0.50),
        p99_ms: percentile(&seen, 0.99),
        drops,
        kib_a_group: busy.saturating_sub(idle) as f64 / matches as f64,
    }
}

/// Moves a second in each group: one a second on each of a match's two boards.
const MOVES_PER_SECOND: f64 = 2.0;
/// How long the CPU is measured.
const WINDOW: Duration = Duration::from_secs(20);

fn measure() {
    let n: usize =
        std::env::var("SHVEDKA_MEMORY_CONNECTIONS").ok().and_then(|v| v.parse().ok()).unwrap_or(2000);
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    rt.block_on(async {
        // 0: the traffic part alone.
        if n > 0 {
            let bare = per_connection("bare", n).await;
            let ours = per_connection("shvedka", n).await;
            println!();
            println!("| server | KiB a connection | ratio to bare quinn |");
            println!("|---|---|---|");
            println!("| bare quinn, one stream held | {bare:.1} | 1.00 |");
            println!("| shvedka, an idle guest session | {ours:.1} | {:.2} |", ours / bare);
            println!();
            println!(
                "four connections of bare quinn: {:.0} KiB (issue 34's target for a whole match: 150 KiB)",
                4.0 * bare
            );
        }
        let counts = std::env::var("SHVEDKA_TRAFFIC_MATCHES").unwrap_or_else(|_| "2000".into());
        for matches in counts.split(',').map(|m| m.trim().parse::<usize>().expect("SHVEDKA_TRAFFIC_MATCHES: numbers")) {
            let t = bare_under_traffic(matches).await;
            println!();
            println!(
                "bare quinn, {matches} groups of four, {MOVES_PER_SECOND} moves a second each, each move's {EVENT} bytes to all \
                 four: server CPU {:.0} % of a core, {:.0} µs a move (issue 34's target for shvedka: 120 µs); \
                 {:.1} KiB a group of four above the idle server (the target for a whole match: 150 KiB)",
                t.share * 100.0,
                t.per_move,
                t.kib_a_group,
            );
            println!(
                "  its clients (this process, as a load generator): CPU {:.0} % of a core, {:.0} µs a move; \
                 together {:.0} % of the machine's cores; moves sent {:.0} a second of {:.0} offered; \
                 each event from its move p50 {:.1} ms, p99 {:.1} ms; server socket drops {}",
                t.clients_share * 100.0,
                t.clients_per_move,
                (t.share + t.clients_share) * 100.0 / std::thread::available_parallelism().map_or(1.0, |n| n.get() as f64),
                t.sent_per_second,
                matches as f64 * MOVES_PER_SECOND,
                t.p50_ms,
                t.p99_ms,
                t.drops,
            );
        }
    });
}
