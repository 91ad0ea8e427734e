//! What one connection costs a server in memory, against a reference in the same run (issue 34:
//! a live match is four connections, and its memory target is 150 KiB).
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
//! `cargo bench -p shvedka-tests --bench connection_memory` (`SHVEDKA_MEMORY_CONNECTIONS` sets `N`,
//! default 2,000). Loopback only; each child ends when its stdin closes.

use std::io::{BufRead, Write};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
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
    tokio::spawn(async move {
        while let Some(incoming) = server.accept().await {
            tokio::spawn(async move {
                let Ok(conn) = incoming.await else { return };
                let Ok((mut send, mut recv)) = conn.accept_bi().await else { return };
                let mut byte = [0u8; 1];
                if recv.read_exact(&mut byte).await.is_ok() && send.write_all(&byte).await.is_ok() {
                    // Held, stream and all, until the client goes.
                    conn.closed().await;
                }
            });
        }
    });
    format!("{addr} {}", hex(&der))
}

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

async fn bare_client(endpoint: quinn::Endpoint, addr: SocketAddr) -> Held {
    let conn = endpoint.connect(addr, "localhost").unwrap().await.unwrap();
    let (mut send, mut recv) = conn.open_bi().await.unwrap();
    send.write_all(&[1]).await.unwrap();
    let mut byte = [0u8; 1];
    recv.read_exact(&mut byte).await.unwrap();
    Box::new((conn, send))
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
                tasks.spawn(bare_client(endpoint.clone(), addr));
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

fn measure() {
    let n: usize =
        std::env::var("SHVEDKA_MEMORY_CONNECTIONS").ok().and_then(|v| v.parse().ok()).unwrap_or(2000);
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    rt.block_on(async {
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
    });
}
