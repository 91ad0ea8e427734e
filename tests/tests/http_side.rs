//! The HTTP side is bounded like the QUIC side (issue 32): a client that trickles its headers is
//! closed (`http_header_timeout_ms`); every TCP connection holds a place of `max_connections` and
//! of its address's `max_connections_per_address`, so idle HTTP connections cannot take the
//! slots of others; behind a trusted reverse proxy the limits per address apply to the address
//! it forwards (`trusted_proxies`), and from anyone else `X-Forwarded-For` is ignored; `/metrics`
//! is for `metrics_allowed` alone. Clients come from `127.0.0.1`, others from `127.0.0.2`.

use std::net::{Ipv4Addr, SocketAddr};
use std::time::Duration;

use shvedka_client::{Client, Trust};
use shvedka_proto::ClientMsg;
use shvedka_tests::TestServer;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

const OTHER: Ipv4Addr = Ipv4Addr::new(127, 0, 0, 2);
const PATIENCE: Duration = Duration::from_secs(10);

/// A TCP connection to the HTTP side from `from`.
async fn tcp_from(from: Ipv4Addr, to: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::from((from, 0))).unwrap();
    socket.connect(to).await.expect("the HTTP side accepts")
}

/// Sends `request` and reads the whole response (until the server closes).
async fn exchange(mut tcp: TcpStream, request: &str) -> String {
    tcp.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    let read = tokio::time::timeout(PATIENCE, tcp.read_to_end(&mut response)).await;
    read.expect("the server answers and closes").ok();
    String::from_utf8_lossy(&response).into_owned()
}

fn get(path: &str, extra: &str) -> String {
    format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n{extra}\r\n")
}

/// A WebSocket upgrade request, with `extra` headers.
fn upgrade(extra: &str) -> String {
    format!(
        "GET /ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n{extra}\r\n"
    )
}

/// The status line's code of an answer to an upgrade (read up to the end of the head).
async fn upgrade_status(mut tcp: TcpStream, extra: &str) -> (u16, TcpStream) {
    tcp.write_all(upgrade(extra).as_bytes()).await.unwrap();
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        match tokio::time::timeout(PATIENCE, tcp.read(&mut byte)).await.expect("an answer") {
            Ok(1) => head.push(byte[0]),
            _ => break,
        }
    }
    let text = String::from_utf8_lossy(&head);
    let code = text.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    (code, tcp)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_trickling_its_headers_is_closed_and_a_prompt_one_is_served() {
    let server = TestServer::start("http_header_timeout_ms = 300").await;
    let mut slow = TcpStream::connect(server.http).await.unwrap();
    slow.write_all(b"GET / HTTP/1.1\r\nHost: localhost\r\n").await.unwrap();
    let started = tokio::time::Instant::now();
    // A byte now and then does not keep it open: the headers must be whole in time.
    let mut closed = false;
    for _ in 0..40 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        if slow.write_all(b"X").await.is_err() {
            closed = true;
            break;
        }
        let mut buf = [0u8; 256];
        if let Ok(Ok(n)) = tokio::time::timeout(Duration::from_millis(1), slow.read(&mut buf)).await {
            closed = n == 0 || String::from_utf8_lossy(&buf[..n]).starts_with("HTTP/1.1 408");
            if closed {
                break;
            }
        }
    }
    assert!(closed, "the trickling client was still open after {:?}", started.elapsed());
    assert!(started.elapsed() < Duration::from_secs(3), "closed in {:?}", started.elapsed());
    // An idle keep-alive connection is closed as soon.
    let mut idle = TcpStream::connect(server.http).await.unwrap();
    let mut buf = [0u8; 64];
    let read = tokio::time::timeout(Duration::from_secs(3), idle.read(&mut buf)).await;
    assert!(matches!(read, Ok(Ok(0))), "an idle connection is closed: {read:?}");
    let page = server.http_get("/").await;
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_http_connections_count_against_their_address_and_no_other() {
    let server = TestServer::start("max_connections_per_address = 3").await;
    let trust = Trust::Fingerprint(server.pin);
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(TcpStream::connect(server.http).await.unwrap());
    }
    // The address is full: a fourth HTTP connection is told 503, a QUIC one refused.
    let refused = exchange(TcpStream::connect(server.http).await.unwrap(), &get("/", "")).await;
    assert!(refused.starts_with("HTTP/1.1 503"), "{refused}");
    assert!(Client::connect(server.addr, trust.clone(), "late").await.is_err(), "QUIC from the full address");
    // Another address is served on both sides.
    let other = exchange(tcp_from(OTHER, server.http).await, &get("/", "")).await;
    assert!(other.starts_with("HTTP/1.1 200"), "{other}");
    server.client_from(OTHER, "other").await.request(ClientMsg::ListMatches).await.unwrap();
    // A connection closed gives its place back.
    drop(held.pop());
    let again = tokio::time::timeout(PATIENCE, async {
        loop {
            if let Ok(c) = Client::connect(server.addr, trust.clone(), "again").await {
                return c;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("the freed place is taken");
    again.request(ClientMsg::ListMatches).await.unwrap();
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_a_trusted_proxy_each_forwarded_address_has_its_own_limits_and_nobody_else_can_claim_one() {
    let server =
        TestServer::start("trusted_proxies = [\"127.0.0.1\"]\nmax_connections_per_address = 2").await;
    let from = |addr: &str| format!("X-Forwarded-For: {addr}\r\n");
    // Two sessions of one forwarded address fill its places; a third is refused …
    let (first, _a) =
        upgrade_status(TcpStream::connect(server.http).await.unwrap(), &from("203.0.113.7")).await;
    let (second, _b) =
        upgrade_status(TcpStream::connect(server.http).await.unwrap(), &from("203.0.113.7")).await;
    assert_eq!((first, second), (101, 101));
    let (third, _) =
        upgrade_status(TcpStream::connect(server.http).await.unwrap(), &from("203.0.113.7")).await;
    assert_eq!(third, 503, "the forwarded address holds as many as it may");
    // … while the proxy's other clients are served: the proxy's own address is not full.
    let (other, _c) =
        upgrade_status(TcpStream::connect(server.http).await.unwrap(), &from("203.0.113.8")).await;
    assert_eq!(other, 101, "another client behind the proxy");
    // From an address that is no trusted proxy the header is ignored: 127.0.0.2 is itself.
    let (direct, _d) = upgrade_status(tcp_from(OTHER, server.http).await, &from("203.0.113.9")).await;
    let (direct2, _e) = upgrade_status(tcp_from(OTHER, server.http).await, &from("203.0.113.10")).await;
    assert_eq!((direct, direct2), (101, 101));
    let (claimed, _) = upgrade_status(tcp_from(OTHER, server.http).await, &from("203.0.113.11")).await;
    assert_eq!(claimed, 503, "127.0.0.2 cannot escape its limit by naming other addresses");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_metrics_are_served_to_the_allowed_addresses_alone() {
    let server = TestServer::start("metrics_allowed = [\"127.0.0.2/32\"]").await;
    let refused = exchange(TcpStream::connect(server.http).await.unwrap(), &get("/metrics", "")).await;
    assert!(refused.starts_with("HTTP/1.1 404"), "{refused}");
    assert!(!refused.contains("shvedka_"), "{refused}");
    let allowed = exchange(tcp_from(OTHER, server.http).await, &get("/metrics", "")).await;
    assert!(allowed.starts_with("HTTP/1.1 200") && allowed.contains("shvedka_live_matches"), "{allowed}");
    server.stop().await;
}
