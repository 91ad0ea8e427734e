//! Soak: 100,000 matches played one after another (in parallel lanes) through one server that
//! may hold only 100 at once (`max_matches = 100`), with new sessions all along. Every match is
//! created, seated, started, given a move and resigned. The server runs in a child process of its
//! own, so its resident memory is measured alone; it must stay flat: RSS after the last match
//! within 20 % of RSS after the 10,000th.
//!
//! `cargo bench -p shvedka-tests --bench soak` (`SHVEDKA_SOAK_MATCHES`, `SHVEDKA_SOAK_LANES`).
//! The database is on tmpfs (`/dev/shm`) when there is one: this measures memory, not the disk.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use shvedka_client::{Client, Trust};
use shvedka_proto::{Board, EventView, SeatId};
use shvedka_server::{Server, ServerConfig};
use shvedka_tests::{TEST_CLOCK, wait_event};

/// A session is replaced by a new one every this many matches of its lane.
const SESSION_LIFE: u64 = 10;

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Resident memory of a process, KiB.
fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// The child: a server on loopback, its address and fingerprint on stdout, until stdin closes.
fn serve_child(dir: &str) {
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let clock = format!("{dir}/clock.toml");
        std::fs::write(&clock, TEST_CLOCK).unwrap();
        let text = format!(
            "listen = \"127.0.0.1:0\"\nhttp_listen = \"\"\nwebtransport_listen = \"\"\ndata_dir = \"{dir}/data\"\n\
             clock = \"{clock}\"\nmax_matches = 100\nmax_connections = 10000\nrate_per_second = 1000\nrate_burst = 1000\n"
        );
        let server = Server::bind(ServerConfig::from_overrides(&text).unwrap()).await.unwrap();
        println!("{} {}", server.local_addr().unwrap(), server.fingerprint());
        let stdin_closed = tokio::task::spawn_blocking(|| {
            let mut line = String::new();
            let _ = std::io::stdin().read_line(&mut line);
        });
        server
            .run(async {
                let _ = stdin_closed.await;
            })
            .await
            .unwrap();
    });
}

async fn lane(addr: std::net::SocketAddr, pin: [u8; 32], lane: u64, matches: u64, done: Arc<AtomicU64>) {
    let mut clients: Vec<Client> = Vec::new();
    for n in 0..matches {
        if n % SESSION_LIFE == 0 {
            for c in clients.drain(..) {
                c.close().await;
            }
            for seat in SeatId::ALL {
                let name = format!("l{lane}-{n}-{}", seat.name());
                clients.push(Client::connect(addr, Trust::Fingerprint(pin), &name).await.unwrap());
            }
        }
        let id = loop {
            match clients[0].create_match("classic", "blitz", true).await {
                Ok(id) => break id,
                // Another lane filled the server's 100 places: a decided match frees one soon.
                Err(_) => tokio::time::sleep(Duration::from_millis(5)).await,
            }
        };
        for (c, seat) in clients.iter().zip(SeatId::ALL) {
            c.take_seat(id, seat).await.unwrap();
        }
        for c in &clients {
            c.ready(true).await.unwrap();
        }
        for c in &mut clients {
            wait_event(c, |e| matches!(e.kind, EventView::Started)).await;
        }
        clients[0].play(Board::A, "e4", None).await.unwrap();
        clients[1].resign().await.unwrap();
        for c in &mut clients {
            wait_event(c, |e| matches!(e.kind, EventView::Ended(_))).await;
        }
        done.fetch_add(1, Ordering::Relaxed);
    }
    for c in clients {
        c.close().await;
    }
}

fn spawn_server(dir: &str) -> (Child, std::net::SocketAddr, [u8; 32]) {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["--serve-child", dir])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let mut parts = line.split_whitespace();
    let addr = parts.next().unwrap().parse().unwrap();
    let pin = shvedka_client::parse_fingerprint(parts.next().unwrap()).unwrap();
    (child, addr, pin)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--serve-child") {
        serve_child(&args[i + 1]);
        return;
    }
    if args.iter().any(|a| a == "--list" || a == "--test") {
        return; // `cargo test --benches` asks for a listing; the soak runs only as a benchmark
    }
    let total = env("SHVEDKA_SOAK_MATCHES", 100_000);
    let lanes = env("SHVEDKA_SOAK_LANES", 32).max(1);
    let base = if std::path::Path::new("/dev/shm").is_dir() { "/dev/shm" } else { "/tmp" };
    let dir = tempfile::Builder::new().prefix("shvedka-soak-").tempdir_in(base).unwrap();
    let dir_text = dir.path().to_str().unwrap().to_owned();
    let (mut child, addr, pin) = spawn_server(&dir_text);
    let pid = child.id();
    println!(
        "soak: {total} matches in {lanes} lanes, server pid {pid} (max_matches = 100), data in {dir_text}"
    );
    let rt = tokio::runtime::Runtime::new().unwrap();
    let done = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    let rss_at_10k = rt.block_on(async {
        let mut tasks = Vec::new();
        for l in 0..lanes {
            let share = total / lanes + u64::from(l < total % lanes);
            tasks.push(tokio::spawn(lane(addr, pin, l, share, done.clone())));
        }
        let mut rss_at_10k = None;
        let mut next_report = 5_000;
        while !tasks.iter().all(|t| t.is_finished()) {
            tokio::time::sleep(Duration::from_millis(200)).await;
            let n = done.load(Ordering::Relaxed);
            if rss_at_10k.is_none() && n >= 10_000.min(total) {
                rss_at_10k = Some((n, rss_kib(pid)));
            }
            if n >= next_report {
                let secs = started.elapsed().as_secs_f64();
                println!(
                    "{n:>7} matches  {:>6.0} matches/s  server RSS {:>7} KiB",
                    n as f64 / secs,
                    rss_kib(pid)
                );
                next_report += 5_000;
            }
        }
        for t in tasks {
            t.await.unwrap();
        }
        rss_at_10k
    });
    let end = rss_kib(pid);
    let (at, early) = rss_at_10k.unwrap_or((0, end));
    let growth = (end as f64 - early as f64) / early.max(1) as f64 * 100.0;
    println!(
        "soak: {} matches in {:.0} s; server RSS {early} KiB after {at}, {end} KiB after the last: {growth:+.1} % (limit +20 %)",
        done.load(Ordering::Relaxed),
        started.elapsed().as_secs_f64()
    );
    drop(child.stdin.take());
    let _ = child.wait();
    assert!(growth <= 20.0, "the server's memory grew by {growth:.1} %");
}
