//! Move latency on loopback: four clients in a match, the time from a move sent until all four
//! have received its event, p50 and p99 over at least 1,000 moves — next to the round trip of a
//! bare quinn echo (same machine, same run, same TLS) as the reference.
//!
//! The same moves are then timed again while the server's engine is flooded with analyses (issue
//! 35: analysis must never delay a move): one search that never ends keeps the analysis thread
//! busy, and eighteen askers from three addresses ask for a fresh position as fast as they are
//! answered (refused `Limit(Analyses)` past each address's share). The ratio flood ÷ quiet is the figure.
//!
//! `cargo bench -p shvedka-tests --bench latency` (`SHVEDKA_LATENCY_MOVES` sets the count).

use std::sync::Arc;
use std::time::{Duration, Instant};

use bughouse::{BoardId, Game, RuleOptions};
use shvedka_client::quinn;
use shvedka_proto::{AnalysisRequest, Board, ClientMsg, EventView};
use shvedka_tests::{TestServer, wait_event};
use testkit::SplitMix;

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn report(name: &str, mut v: Vec<Duration>) -> (Duration, Duration) {
    v.sort();
    let (p50, p99) = (percentile(&v, 0.50), percentile(&v, 0.99));
    println!("{name:<34} n={:<5} p50={:>8.1?} p99={:>8.1?} max={:>8.1?}", v.len(), p50, p99, v[v.len() - 1]);
    (p50, p99)
}

/// A bare quinn echo server and client with a self-signed certificate: round trips of a 64-byte
/// message on one bidirectional stream.
async fn quinn_echo(n: usize) -> Vec<Duration> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let rcgen::CertifiedKey { cert, signing_key } =
        rcgen::generate_simple_self_signed(vec!["localhost".into()]).unwrap();
    let der = rustls::pki_types::CertificateDer::from(cert.der().to_vec());
    let key = rustls::pki_types::PrivateKeyDer::try_from(signing_key.serialize_der()).unwrap();
    let mut tls = rustls::ServerConfig::builder_with_provider(provider.clone())
        .with_protocol_versions(&[&rustls::version::TLS13])
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(vec![der.clone()], key)
        .unwrap();
    tls.alpn_protocols = vec![b"echo".to_vec()];
    let quic = quinn::crypto::rustls::QuicServerConfig::try_from(tls).unwrap();
    let server = quinn::Endpoint::server(
        quinn::ServerConfig::with_crypto(Arc::new(quic)),
        "127.0.0.1:0".parse().unwrap(),
    )
    .unwrap();
    let addr = server.local_addr().unwrap();
    tokio::spawn(async move {
        let conn = server.accept().await.unwrap().await.unwrap();
        let (mut send, mut recv) = conn.accept_bi().await.unwrap();
        let mut buf = [0u8; 64];
        while recv.read_exact(&mut buf).await.is_ok() {
            if send.write_all(&buf).await.is_err() {
                break;
            }
        }
    });
    let mut roots = rustls::RootCertStore::empty();
    roots.add(der).unwrap();
    let mut tls = rustls::ClientConfig::builder_with_provider(provider)
        .with_protocol_versions(&[&rustls::version::TLS13])
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    tls.alpn_protocols = vec![b"echo".to_vec()];
    let quic = quinn::crypto::rustls::QuicClientConfig::try_from(tls).unwrap();
    let mut client = quinn::Endpoint::client("127.0.0.1:0".parse().unwrap()).unwrap();
    client.set_default_client_config(quinn::ClientConfig::new(Arc::new(quic)));
    let conn = client.connect(addr, "localhost").unwrap().await.unwrap();
    let (mut send, mut recv) = conn.open_bi().await.unwrap();
    let mut buf = [0u8; 64];
    let mut times = Vec::with_capacity(n);
    for i in 0..n + 50 {
        let t = Instant::now();
        send.write_all(&[i as u8; 64]).await.unwrap();
        recv.read_exact(&mut buf).await.unwrap();
        if i >= 50 {
            times.push(t.elapsed());
        }
    }
    times
}

/// One disk flush as the database makes it: a small write and `fdatasync`, in a temporary
/// directory on the same file system the test server's database uses.
fn disk_flushes(n: usize) -> Vec<Duration> {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let mut file = std::fs::File::create(dir.path().join("flush")).unwrap();
    (0..n)
        .map(|i| {
            let t = Instant::now();
            file.write_all(&[i as u8; 256]).unwrap();
            file.sync_data().unwrap();
            t.elapsed()
        })
        .collect()
}

/// The server's settings for the latency runs (no rate limit in the way of a fast client).
const UNLIMITED: &str = "rate_per_second = 100000\nrate_burst = 100000";

/// Askers that keep the server's engine busy until dropped: the first position's search never
/// ends (`analysis_nodes` is huge in the flood's settings), later ones wait or are refused.
/// Returns the askers' tasks and the count of their requests (answered or refused).
async fn flood(server: &TestServer) -> (Vec<tokio::task::JoinHandle<()>>, Arc<std::sync::atomic::AtomicU64>) {
    let asked = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let mut askers = Vec::new();
    // Six connections from each of three addresses: four of each address's hold its share (a
    // connection's requests are answered in order, so each waits behind its first for good), the
    // other two are refused at once, again and again.
    for n in 0..18u8 {
        let asker = server.client_from([127, 0, 0, 30 + n / 6].into(), &format!("asker{n}")).await;
        let asked = asked.clone();
        askers.push(tokio::spawn(async move {
            for i in 0u32.. {
                // A distinct position each time (pawns in a reserve, counted in base 8 over the
                // two reserves of board B), so none is answered from the cache.
                let white = "P".repeat((i % 8) as usize);
                let black = "p".repeat(((i / 8) % 8) as usize);
                let bfen = format!(
                    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[{}] w KQkq - 0 1 | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[{white}{black}] w KQkq - 0 1",
                    "N".repeat(usize::from(n))
                );
                let msg = ClientMsg::Analyse(AnalysisRequest { bfen, rules: "mgimo-2017".into(), clocks_ms: None });
                // Answered, refused, or still waiting after 20 ms: ask again (what waits stays
                // queued on the server, holding its place in the address's share).
                let _ = tokio::time::timeout(Duration::from_millis(20), asker.request(msg)).await;
                asked.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(1)).await;
            }
        }));
    }
    (askers, asked)
}

/// Random legal moves in matches between four clients until `n` moves are timed.
async fn match_moves(server: &TestServer, n: usize) -> Vec<Duration> {
    let rules = RuleOptions::mgimo_2017().rules().unwrap();
    let mut rng = SplitMix(0x1a7e);
    let mut times = Vec::with_capacity(n);
    while times.len() < n {
        let (_, mut c) = server.seated_match("mgimo-2017", "60+0").await;
        let mut game = Game::new(rules);
        loop {
            let board = BoardId::ALL[rng.below(2)];
            let moves = game.legal_moves(board);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            let mover = game.to_move(board).index();
            let text = game.uci(&mv);
            let wire_board = if board == BoardId::A { Board::A } else { Board::B };
            let t = Instant::now();
            if c[mover].play(wire_board, &text, Some(Duration::ZERO)).await.is_err() {
                break; // the match ended (a repetition or the like): start another
            }
            let mut last = None;
            for client in &mut c {
                last = Some(wait_event(client, |e| matches!(e.kind, EventView::Moved { .. })).await);
            }
            times.push(t.elapsed());
            let event = last.unwrap();
            game = Game::from_bfen(event.bfen.as_deref().unwrap(), rules).unwrap();
            let over = game.is_mate_on_board(BoardId::A) || game.is_mate_on_board(BoardId::B);
            if over
                || times.len() >= n
                || game.halfmoves(BoardId::A) > 140
                || game.halfmoves(BoardId::B) > 140
            {
                break;
            }
        }
    }
    // Where the time goes, by the server's own histograms: a move from reaching its match to its
    // reply (events stored and queued to the four), and the commit within it.
    let metrics = server.http_get("/metrics").await;
    let mean = |name: &str| {
        let value = |suffix: &str| {
            metrics
                .lines()
                .find_map(|l| l.strip_prefix(&format!("{name}_{suffix} ")))
                .and_then(|v| v.trim().parse::<f64>().ok())
                .unwrap_or(0.0)
        };
        Duration::from_secs_f64(value("sum") / value("count").max(1.0))
    };
    println!(
        "server's own means: move {:.1?} (of which commit {:.1?})",
        mean("shvedka_move_seconds"),
        mean("shvedka_commit_seconds")
    );
    times
}

fn main() {
    let n: usize = std::env::var("SHVEDKA_LATENCY_MOVES").ok().and_then(|v| v.parse().ok()).unwrap_or(1000);
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let (echo50, echo99) = report("bare quinn echo round trip", quinn_echo(n).await);
        let (flush50, flush99) = report("one disk flush (write + fdatasync)", disk_flushes(n));
        let server = TestServer::start(UNLIMITED).await;
        let (move50, move99) = report("move sent -> event at all four", match_moves(&server, n).await);
        server.stop().await;
        println!(
            "ratio to the echo round trip: p50 {:.1}x, p99 {:.1}x",
            move50.as_secs_f64() / echo50.as_secs_f64(),
            move99.as_secs_f64() / echo99.as_secs_f64()
        );
        let (ref50, ref99) = (echo50 + flush50, echo99 + flush99);
        println!(
            "ratio to echo + one flush: p50 {:.2}x (target at most 2x), p99 {:.2}x",
            move50.as_secs_f64() / ref50.as_secs_f64(),
            move99.as_secs_f64() / ref99.as_secs_f64()
        );
        let flooded = TestServer::start(&format!(
            "{UNLIMITED}\nanalysis_nodes = 1000000000000\nmax_analyses_queued = 16\nanalyses_per_address = 4"
        ))
        .await;
        let (askers, asked) = flood(&flooded).await;
        let started = Instant::now();
        let times = match_moves(&flooded, n).await;
        let asked = asked.load(std::sync::atomic::Ordering::Relaxed);
        let took = started.elapsed();
        for asker in askers {
            asker.abort();
        }
        let metrics = flooded.http_get("/metrics").await;
        let line = |name: &str| {
            metrics
                .lines()
                .filter(|l| l.starts_with(name) && !l.ends_with(" 0"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let (flood50, flood99) = report("the same, the engine flooded", times);
        println!(
            "the flood: {asked} analyses asked in {took:.1?} ({:.0}/s); {}; {}",
            asked as f64 / took.as_secs_f64(),
            line("shvedka_analyses_total"),
            line("shvedka_refused_total")
        );
        println!(
            "flooded / quiet: p50 {:.2}x, p99 {:.2}x",
            flood50.as_secs_f64() / move50.as_secs_f64(),
            flood99.as_secs_f64() / move99.as_secs_f64()
        );
        flooded.stop().await;
    });
}
