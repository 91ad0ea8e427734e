//! A WebSocket is held to the limits of a QUIC connection: one connection cap for every
//! transport, frames no larger than the protocol's, an idle socket closed, and a socket task
//! that neither deadlocks on a client flooding it with requests nor waits forever on a client
//! that never reads. Some tests speak the WebSocket protocol by hand over TCP, to send what a
//! well-behaved client library would not (a frame header announcing too much) or to not answer
//! the server's pings.

use std::net::SocketAddr;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use shvedka_client::{Client, ClientError, Trust};
use shvedka_proto::{ClientFrame, ClientMsg, ErrorCode, Limit, MAX_FRAME, Reply, ServerMsg};
use shvedka_tests::TestServer;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::{self, Message};

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

const PATIENCE: Duration = Duration::from_secs(10);

/// A client frame in JSON.
fn json(req: u32, msg: ClientMsg) -> String {
    serde_json::to_string(&ClientFrame { req, msg }).unwrap()
}

fn hello(name: &str) -> String {
    json(0, ClientMsg::Hello { version: shvedka_proto::PROTOCOL_VERSION, name: name.into(), resume: None })
}

async fn ws(server: &TestServer) -> Result<Ws, tungstenite::Error> {
    Ok(tokio_tungstenite::connect_async(format!("ws://{}/ws", server.http)).await?.0)
}

/// A WebSocket session with its `Welcome` read.
async fn ws_session(server: &TestServer, name: &str) -> Ws {
    let mut ws = ws(server).await.expect("the WebSocket opens");
    ws.send(Message::Text(hello(name).into())).await.unwrap();
    assert!(matches!(recv(&mut ws).await, ServerMsg::Welcome { .. }));
    ws
}

/// The next server message (pings and pongs skipped; the library answers pings while reading).
async fn recv(ws: &mut Ws) -> ServerMsg {
    loop {
        let frame = tokio::time::timeout(PATIENCE, ws.next()).await.expect("a message in time");
        match frame.expect("the socket is open").expect("a frame") {
            Message::Text(t) => return serde_json::from_str(t.as_str()).expect("a server message"),
            Message::Ping(_) | Message::Pong(_) => {}
            other => panic!("expected a text frame, got {other:?}"),
        }
    }
}

/// Whether the session answers a request.
async fn answers(ws: &mut Ws, req: u32) -> bool {
    ws.send(Message::Text(json(req, ClientMsg::ListMatches).into())).await.unwrap();
    loop {
        if let ServerMsg::Reply { req: r, result } = recv(ws).await
            && r == req
        {
            return matches!(result, Ok(Reply::Matches(_)));
        }
    }
}

/// Retries `attempt` until it succeeds (a connection permit is released a moment after the
/// connection that held it is closed), for at most [`PATIENCE`].
async fn eventually<T, E: std::fmt::Debug, F: Future<Output = Result<T, E>>>(
    mut attempt: impl FnMut() -> F,
) -> T {
    let deadline = Instant::now() + PATIENCE;
    loop {
        match attempt().await {
            Ok(value) => return value,
            Err(e) => assert!(Instant::now() < deadline, "still refused after {PATIENCE:?}: {e:?}"),
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A WebSocket client by hand: the upgrade over a TCP stream, then raw frames.
struct RawWs(TcpStream);

impl RawWs {
    async fn open(http: SocketAddr) -> RawWs {
        let mut tcp = TcpStream::connect(http).await.unwrap();
        let request = format!(
            "GET /ws HTTP/1.1\r\nHost: {http}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
             Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        );
        tcp.write_all(request.as_bytes()).await.unwrap();
        // The response head, byte by byte (nothing follows it until the client speaks).
        let mut head = Vec::new();
        while !head.ends_with(b"\r\n\r\n") {
            head.push(tcp.read_u8().await.unwrap());
        }
        let head = String::from_utf8(head).unwrap();
        assert!(head.starts_with("HTTP/1.1 101"), "{head}");
        RawWs(tcp)
    }

    /// A masked client frame's header announcing `len` bytes of payload.
    fn header(opcode: u8, len: usize) -> Vec<u8> {
        let mut frame = vec![0x80 | opcode];
        match len {
            n if n < 126 => frame.push(0x80 | n as u8),
            n if n <= 0xffff => {
                frame.push(0x80 | 126);
                frame.extend((n as u16).to_be_bytes());
            }
            n => {
                frame.push(0x80 | 127);
                frame.extend((n as u64).to_be_bytes());
            }
        }
        frame.extend(MASK);
        frame
    }

    /// A whole masked text frame.
    fn text(payload: &str) -> Vec<u8> {
        let mut frame = RawWs::header(0x1, payload.len());
        frame.extend(payload.bytes().enumerate().map(|(i, b)| b ^ MASK[i % 4]));
        frame
    }

    /// Reads the server's frames until the connection ends: the opcodes seen (never answering a
    /// ping), within [`PATIENCE`].
    async fn opcodes_until_closed(&mut self) -> Vec<u8> {
        let mut bytes = Vec::new();
        let read = tokio::time::timeout(PATIENCE, self.0.read_to_end(&mut bytes)).await;
        assert!(read.is_ok(), "the server did not close the connection within {PATIENCE:?}");
        let mut opcodes = Vec::new();
        let mut at = 0;
        while at + 2 <= bytes.len() {
            let (opcode, len) = (bytes[at] & 0x0f, usize::from(bytes[at + 1] & 0x7f));
            let (skip, len) = match len {
                126 => (4, usize::from(u16::from_be_bytes([bytes[at + 2], bytes[at + 3]]))),
                127 => panic!("the server sent a frame above 64 KiB"),
                n => (2, n),
            };
            opcodes.push(opcode);
            at += skip + len;
        }
        opcodes
    }
}

const MASK: [u8; 4] = [0x37, 0xfa, 0x21, 0x3d];
const PING: u8 = 0x9;
const CLOSE: u8 = 0x8;

/// A WebTransport session with its `Welcome` read; the session and its stream (dropping the
/// stream would end the session).
type Browser =
    (web_transport_quinn::Session, web_transport_quinn::SendStream, web_transport_quinn::RecvStream);

/// The hash of the WebTransport certificate, as a page reads it from `/connect.json` (an HTTP
/// connection, which counts in `max_connections` while it lives: read before the server is full).
async fn cert_hash(server: &TestServer) -> Vec<u8> {
    let response = server.http_get("/connect.json").await;
    let body = &response[response.find("\r\n\r\n").unwrap() + 4..];
    let info: serde_json::Value = serde_json::from_str(body).unwrap();
    let hex = info["cert_hashes"][0].as_str().unwrap();
    (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap()).collect()
}

async fn browser_session(server: &TestServer, hash: Vec<u8>) -> Result<Browser, String> {
    let client =
        web_transport_quinn::ClientBuilder::new().with_server_certificate_hashes(vec![hash]).unwrap();
    let url = format!("https://127.0.0.1:{}/shvedka", server.webtransport.port());
    let url: url::Url = url.parse().unwrap();
    let session = client.connect(url).await.map_err(|e| e.to_string())?;
    // The server holds a permit from the handshake on; a session stream shows it is served.
    let (mut send, mut recv) = session.open_bi().await.map_err(|e| e.to_string())?;
    let text = hello("wt");
    send.write_all(&(text.len() as u32).to_be_bytes()).await.map_err(|e| e.to_string())?;
    send.write_all(text.as_bytes()).await.map_err(|e| e.to_string())?;
    let mut len = [0u8; 4];
    recv.read_exact(&mut len).await.map_err(|e| e.to_string())?;
    Ok((session, send, recv))
}

#[tokio::test]
async fn one_connection_cap_covers_quic_webtransport_and_websocket() {
    let server = TestServer::start("max_connections = 2").await;
    let trust = Trust::Fingerprint(server.pin);
    let hash = cert_hash(&server).await;
    let native = server.client("native").await;
    let mut socket = ws_session(&server, "socket").await;

    // Full (native + WebSocket): a third session is refused on every transport.
    match ws(&server).await {
        Err(tungstenite::Error::Http(response)) => assert_eq!(response.status(), 503),
        other => panic!("expected 503 for a third WebSocket, got {:?}", other.map(|_| ())),
    }
    // A third QUIC one is told which limit, as a fact (issue 61: it named none and waited).
    match Client::connect(server.addr, trust.clone(), "third").await {
        Err(ClientError::Refused(e)) => {
            assert_eq!(e.code, ErrorCode::Limit(Limit::Connections), "{e:?}");
            assert!(e.message.contains("max_connections = 2"), "{}", e.message);
        }
        other => panic!("expected a refusal at max_connections, got {:?}", other.map(|_| ())),
    }
    assert!(browser_session(&server, hash.clone()).await.is_err(), "a third WebTransport one");
    // A page's own request is an HTTP connection too: told 503 while the server is full, and why.
    let page = server.http_get("/").await;
    assert!(page.starts_with("HTTP/1.1 503"), "an HTTP connection of a full server: {page}");
    assert!(page.contains("the server holds as many connections as it may (max_connections = 2)"), "{page}");

    // The native client leaves: a WebTransport session takes its place (WebSocket + WebTransport)…
    native.close().await;
    let _browser = eventually(|| browser_session(&server, hash.clone())).await;
    // …and the server is full again, for WebSocket and QUIC alike.
    assert!(matches!(ws(&server).await, Err(tungstenite::Error::Http(r)) if r.status() == 503));
    assert!(Client::connect(server.addr, trust.clone(), "third").await.is_err());
    assert!(answers(&mut socket, 1).await, "the sessions within the cap are served");

    // The WebSocket leaves: its permit comes back.
    socket.close(None).await.unwrap();
    let mut again = eventually(|| ws(&server)).await;
    again.send(Message::Text(hello("again").into())).await.unwrap();
    assert!(matches!(recv(&mut again).await, ServerMsg::Welcome { .. }));
    server.stop().await;
}

#[tokio::test]
async fn a_websocket_frame_over_max_frame_is_refused_from_its_header() {
    let server = TestServer::start("").await;
    let mut raw = RawWs::open(server.http).await;
    // A header announcing one byte more than a frame may hold, and a few bytes of it: the
    // server must not wait for (and buffer) the rest.
    let mut frame = RawWs::header(0x2, MAX_FRAME + 1);
    frame.extend([0u8; 16]);
    raw.0.write_all(&frame).await.unwrap();
    raw.opcodes_until_closed().await;
    // A frame of MAX_FRAME itself is read (and refused as no message, with the reason).
    let mut big = ws(&server).await.unwrap();
    big.send(Message::Binary(vec![0u8; MAX_FRAME].into())).await.unwrap();
    let closed = tokio::time::timeout(PATIENCE, big.next()).await.expect("an answer in time");
    assert!(matches!(&closed, Some(Ok(Message::Close(Some(f)))) if u16::from(f.code) == 4002), "{closed:?}");
    let mut fine = ws_session(&server, "after").await;
    assert!(answers(&mut fine, 1).await, "the server goes on");
    server.stop().await;
}

#[tokio::test]
async fn an_idle_websocket_is_closed_and_a_live_one_is_kept() {
    let server = TestServer::start("idle_timeout_ms = 300\nkeep_alive_ms = 100").await;
    // A live client: its library answers the server's pings while it reads. After more than
    // twice the idle timeout without a request, the session still answers.
    let mut live = ws_session(&server, "live").await;
    let mut pings = 0;
    while pings < 7 {
        let frame = tokio::time::timeout(PATIENCE, live.next()).await.expect("a ping in time");
        match frame.expect("open").expect("a frame") {
            Message::Ping(_) => pings += 1,
            other => panic!("expected only pings, got {other:?}"),
        }
    }
    assert!(answers(&mut live, 1).await, "a live WebSocket is kept");

    // A client that stops answering (it never answers a ping) is closed after the idle timeout.
    let mut silent = RawWs::open(server.http).await;
    silent.0.write_all(&RawWs::text(&hello("silent"))).await.unwrap();
    let since = Instant::now();
    let opcodes = silent.opcodes_until_closed().await;
    let after = since.elapsed();
    assert!(after >= Duration::from_millis(300), "closed after only {after:?}");
    assert!(opcodes.iter().filter(|&&op| op == PING).count() >= 2, "pinged first: {opcodes:?}");
    assert_eq!(opcodes.last(), Some(&CLOSE), "a close frame last: {opcodes:?}");
    server.stop().await;
}

#[tokio::test]
async fn a_burst_of_requests_over_the_websocket_gets_every_reply() {
    // No rate limit: every Ping is answered by a Pong and a Reply, twice the messages out as in,
    // which used to fill the socket task's two queues and leave it and the session waiting on
    // each other.
    let server = TestServer::start("rate_per_second = 1000000\nrate_burst = 1000000").await;
    let (mut sink, mut stream) = ws_session(&server, "burst").await.split();
    const N: u32 = 5000;
    let writer = tokio::spawn(async move {
        for req in 1..=N {
            let ping = json(req, ClientMsg::Ping { nonce: u64::from(req) });
            sink.send(Message::Text(ping.into())).await.unwrap();
        }
        sink
    });
    let mut replies = 0;
    let read = async {
        while replies < N {
            match stream.next().await.expect("open").expect("a frame") {
                Message::Text(t) => {
                    if let ServerMsg::Reply { result, .. } = serde_json::from_str(t.as_str()).unwrap() {
                        assert_eq!(result, Ok(Reply::Ok));
                        replies += 1;
                    }
                }
                Message::Ping(_) | Message::Pong(_) => {}
                other => panic!("unexpected {other:?}"),
            }
        }
    };
    let done = tokio::time::timeout(PATIENCE, read).await;
    assert!(done.is_ok(), "only {replies} of {N} replies: the session stalled");
    let mut ws = writer.await.unwrap().reunite(stream).unwrap();
    assert!(answers(&mut ws, N + 1).await);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_websocket_client_that_never_reads_is_closed_and_the_server_goes_on() {
    // An idle timeout that a client busy reading never comes near, even on a loaded machine.
    let server = TestServer::start("idle_timeout_ms = 1500\nkeep_alive_ms = 200").await;
    let native = server.client("native").await;
    let mut other = ws_session(&server, "other").await;
    let RawWs(flood) = RawWs::open(server.http).await;
    let (mut reader, mut writer) = flood.into_split();
    let writing = tokio::spawn(async move {
        writer.write_all(&RawWs::text(&hello("flood"))).await?;
        for req in 1.. {
            writer.write_all(&RawWs::text(&json(req, ClientMsg::ListMatches))).await?;
        }
        Ok::<(), std::io::Error>(())
    });
    // Meanwhile other sessions, on both transports, are served.
    assert!(answers(&mut other, 1).await);
    assert!(native.list_matches().await.is_ok());
    assert!(server.client("newcomer").await.list_matches().await.is_ok());
    // The flooding client's writes fail once the server has given up on it: its replies were
    // not taken for the idle timeout.
    let ended = tokio::time::timeout(PATIENCE, writing).await.expect("closed in time").unwrap();
    assert!(ended.is_err(), "the server closed the connection");
    // Nothing but the socket's end is waiting on the reading side (no deadlock kept it open).
    let mut rest = Vec::new();
    let _ = tokio::time::timeout(PATIENCE, reader.read_to_end(&mut rest)).await.expect("ended");
    // A new session (`other` has read nothing since, so answered no ping, and may be idle by now).
    let mut later = ws_session(&server, "later").await;
    assert!(answers(&mut later, 1).await, "the server goes on");
    assert!(native.list_matches().await.is_ok());
    server.stop().await;
}

/// A WebSocket upgrade sent with `origin`, as a browser on that page would.
async fn ws_from(server: &TestServer, origin: &str) -> Result<Ws, tungstenite::Error> {
    use tungstenite::client::IntoClientRequest;
    let mut request = format!("ws://{}/ws", server.http).into_client_request().unwrap();
    request.headers_mut().insert("origin", origin.parse().unwrap());
    Ok(tokio_tungstenite::connect_async(request).await?.0)
}

#[tokio::test]
async fn a_page_of_another_origin_cannot_open_a_session_and_the_servers_own_and_allowed_ones_can() {
    let server = TestServer::start("allowed_origins = [\"https://chess.example.org\"]").await;
    match ws_from(&server, "https://evil.example").await {
        Err(tungstenite::Error::Http(response)) => assert_eq!(response.status(), 403),
        other => panic!("expected 403 for a foreign origin, got {:?}", other.map(|_| ())),
    }
    for origin in [format!("http://{}", server.http), "https://chess.example.org".to_owned()] {
        let mut ws = ws_from(&server, &origin).await.unwrap_or_else(|e| panic!("{origin} is let in: {e}"));
        ws.send(Message::Text(hello("page").into())).await.unwrap();
        assert!(matches!(recv(&mut ws).await, ServerMsg::Welcome { .. }), "{origin}");
    }
    let _tool = ws(&server).await.expect("a client with no Origin is no browser: let in");
    server.stop().await;
}

/// The head of the answer to `request` on a new connection to `addr` (read up to its blank line).
async fn head_of(addr: SocketAddr, request: &str) -> String {
    let mut tcp = TcpStream::connect(addr).await.expect("the HTTP side accepts");
    tcp.write_all(request.as_bytes()).await.expect("sent");
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        match tokio::time::timeout(Duration::from_secs(10), tcp.read(&mut byte)).await.expect("an answer") {
            Ok(1) => head.push(byte[0]),
            _ => break,
        }
    }
    String::from_utf8_lossy(&head).to_ascii_lowercase()
}

fn assert_secured(what: &str, response: &str) {
    for header in [
        "content-security-policy: default-src 'self'",
        "frame-ancestors 'none'",
        "x-frame-options: deny",
        "x-content-type-options: nosniff",
        "referrer-policy: no-referrer",
    ] {
        assert!(response.contains(header), "{what} lacks {header}: {response:.600}");
    }
}

/// Every answer of the HTTP side, not only the router's pages (issue 60): a WebSocket's `101`, a
/// foreign origin's `403`, and the raw `503` of a connection refused at accept.
#[tokio::test]
async fn every_http_response_carries_the_security_headers() {
    let server = TestServer::start("max_connections = 3").await;
    for path in ["/", "/app.js", "/connect.json", "/metrics", "/nothing"] {
        assert_secured(path, &server.http_get(path).await.to_ascii_lowercase());
    }
    let upgrade = |origin: &str| {
        format!(
            "GET /ws HTTP/1.1\r\nHost: {}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
             Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n{origin}\r\n",
            server.http
        )
    };
    let switched = head_of(server.http, &upgrade("")).await;
    assert!(switched.starts_with("http/1.1 101"), "{switched}");
    assert_secured("101", &switched);
    let foreign = head_of(server.http, &upgrade("Origin: https://evil.example\r\n")).await;
    assert!(foreign.starts_with("http/1.1 403"), "{foreign}");
    assert_secured("403", &foreign);
    // Three connections held (max_connections = 3): the fourth is refused at accept, raw.
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(TcpStream::connect(server.http).await.unwrap());
    }
    let refused = head_of(server.http, "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n").await;
    assert!(refused.starts_with("http/1.1 503"), "{refused}");
    assert_secured("503", &refused);
    drop(held);
    server.stop().await;
}
