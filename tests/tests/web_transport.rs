//! Browsers' QUIC: WebTransport (ALPN `h3`) on its own endpoint (`webtransport_listen`), beside
//! the native protocol's (ALPN `shvedka/1`, `listen`), each granting only what its protocol
//! needs. The test plays the browser with `web-transport-quinn`'s client, trusting the
//! development certificate by the hash `/connect.json` hands the page, exactly as a browser does
//! with `serverCertificateHashes`.

use std::time::Duration;

use futures_util::FutureExt;
use shvedka_proto::{Board, ClientFrame, ClientMsg, EventView, Reply, SeatId, ServerMsg};
use shvedka_tests::{TestServer, wait_event};

/// What `/connect.json` says.
struct ConnectInfo {
    quic_host: Option<String>,
    quic_port: u16,
    path: String,
    hashes: Vec<String>,
}

async fn connect_info(server: &TestServer) -> ConnectInfo {
    let response = server.http_get("/connect.json").await;
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    assert!(response.contains("application/json") && response.contains("no-store"), "{response}");
    let body = &response[response.find("\r\n\r\n").expect("a body") + 4..];
    let json: serde_json::Value = serde_json::from_str(body).expect("JSON");
    ConnectInfo {
        quic_host: json["quic_host"].as_str().map(str::to_owned),
        quic_port: u16::try_from(json["quic_port"].as_u64().expect("a port")).expect("a port"),
        path: json["path"].as_str().expect("a path").to_owned(),
        hashes: json["cert_hashes"]
            .as_array()
            .expect("hashes")
            .iter()
            .map(|h| h.as_str().expect("hex").to_owned())
            .collect(),
    }
}

fn bytes_of_hex(hex: &str) -> Vec<u8> {
    (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex")).collect()
}

async fn open(
    info: &ConnectInfo,
    hashes: Vec<Vec<u8>>,
    path: &str,
) -> Result<web_transport_quinn::Session, web_transport_quinn::ClientError> {
    let client = web_transport_quinn::ClientBuilder::new()
        .with_server_certificate_hashes(hashes)
        .expect("a WebTransport client");
    let url = url::Url::parse(&format!("https://127.0.0.1:{}{path}", info.quic_port)).expect("a URL");
    tokio::time::timeout(Duration::from_secs(10), client.connect(url)).await.expect("an answer in time")
}

/// A browser-style session: one bidirectional stream of length-prefixed JSON frames.
struct Browser {
    send: web_transport_quinn::SendStream,
    recv: web_transport_quinn::RecvStream,
    _session: web_transport_quinn::Session,
}

impl Browser {
    async fn open(info: &ConnectInfo) -> Browser {
        let hashes = info.hashes.iter().map(|h| bytes_of_hex(h)).collect();
        let session = open(info, hashes, &info.path).await.expect("the WebTransport session opens");
        let (send, recv) = session.open_bi().await.expect("a stream");
        Browser { send, recv, _session: session }
    }

    async fn send(&mut self, req: u32, msg: ClientMsg) {
        let text = serde_json::to_vec(&ClientFrame { req, msg }).expect("JSON");
        self.send.write_all(&u32::try_from(text.len()).expect("small").to_be_bytes()).await.expect("sent");
        self.send.write_all(&text).await.expect("sent");
    }

    async fn recv(&mut self) -> ServerMsg {
        let read = async {
            let mut len = [0u8; 4];
            self.recv.read_exact(&mut len).await.expect("a frame");
            let mut payload = vec![0; u32::from_be_bytes(len) as usize];
            self.recv.read_exact(&mut payload).await.expect("a frame");
            payload
        };
        let payload = tokio::time::timeout(Duration::from_secs(10), read).await.expect("a message in time");
        serde_json::from_slice(&payload).expect("a server message in JSON")
    }

    async fn reply(&mut self, req: u32) -> Result<Reply, shvedka_proto::ErrorMsg> {
        loop {
            if let ServerMsg::Reply { req: r, result } = self.recv().await
                && r == req
            {
                return result;
            }
        }
    }
}

#[tokio::test]
async fn s1_a_webtransport_session_on_the_browsers_endpoint_plays_with_native_players() {
    let server = TestServer::start("").await;
    let info = connect_info(&server).await;
    assert_eq!(info.quic_port, server.webtransport.port(), "the browsers' endpoint");
    assert_ne!(info.quic_port, server.addr.port(), "not the native endpoint");
    assert_eq!(info.quic_host.as_deref(), Some("127.0.0.1"), "the endpoint's own address");
    assert_eq!(info.hashes.len(), 1);
    let mut browser = Browser::open(&info).await;
    browser
        .send(
            0,
            ClientMsg::Hello { version: shvedka_proto::PROTOCOL_VERSION, name: "web".into(), resume: None },
        )
        .await;
    assert!(matches!(browser.recv().await, ServerMsg::Welcome { resumed: false, .. }));
    browser
        .send(
            1,
            ClientMsg::CreateMatch {
                rules: "mgimo-2017".into(),
                time_control: "blitz".into(),
                listed: true,
                chess960: false,
                rated: false,
            },
        )
        .await;
    let Ok(Reply::Created { match_id }) = browser.reply(1).await else { panic!("created") };
    browser.send(2, ClientMsg::TakeSeat { match_id, seat: SeatId::WhiteA }).await;
    assert_eq!(browser.reply(2).await, Ok(Reply::Ok));
    let mut native = Vec::new();
    for seat in [SeatId::BlackA, SeatId::WhiteB, SeatId::BlackB] {
        let c = server.client(seat.name()).await;
        c.take_seat(match_id, seat).await.unwrap();
        c.ready(true).await.unwrap();
        native.push(c);
    }
    browser.send(3, ClientMsg::Ready { ready: true }).await;
    assert_eq!(browser.reply(3).await, Ok(Reply::Ok));
    wait_event(&mut native[0], |e| matches!(e.kind, EventView::Started)).await;

    // The legal moves of board A for white: the twenty of the initial position.
    browser.send(4, ClientMsg::Legal { match_id, board: Board::A }).await;
    let Ok(Reply::Legal(moves)) = browser.reply(4).await else { panic!("legal moves") };
    assert_eq!(moves.len(), 20, "{moves:?}");
    assert!(moves.contains(&"e2e4".to_owned()) && moves.contains(&"g1f3".to_owned()));

    browser.send(5, ClientMsg::Move { board: Board::A, text: "Ke2".into(), think_ms: None }).await;
    assert_eq!(browser.reply(5).await.unwrap_err().rule.as_deref(), Some("FIDE"));
    browser.send(6, ClientMsg::Move { board: Board::A, text: "e2e4".into(), think_ms: Some(200) }).await;
    assert_eq!(browser.reply(6).await, Ok(Reply::Ok));
    let seen = wait_event(&mut native[0], |e| matches!(e.kind, EventView::Moved { .. })).await;
    assert!(matches!(&seen.kind, EventView::Moved { seat: SeatId::WhiteA, san, .. } if san == "e4"));
    native[0].play(Board::A, "e5", None).await.unwrap();
    loop {
        if let ServerMsg::Event(e) = browser.recv().await
            && matches!(&e.kind, EventView::Moved { san, .. } if san == "e5")
        {
            break;
        }
    }
    server.stop().await;
}

#[tokio::test]
async fn browsers_get_the_development_certificate_and_natives_keep_their_pin() {
    let server = TestServer::start("").await;
    let info = connect_info(&server).await;
    // The browser's certificate is not the native one: pinning the native fingerprint fails on h3.
    assert_ne!(bytes_of_hex(&info.hashes[0]), server.pin.to_vec());
    assert!(open(&info, vec![server.pin.to_vec()], &info.path).await.is_err());
    // A wrong path is refused.
    let hashes = vec![bytes_of_hex(&info.hashes[0])];
    assert!(open(&info, hashes, "/elsewhere").await.is_err(), "an unknown path is refused");
    // The native protocol on its own endpoint still works with its pinned certificate.
    let native = server.client("native").await;
    assert!(native.list_matches().await.is_ok());
    server.stop().await;
}

#[tokio::test]
async fn each_endpoint_speaks_only_its_own_protocol() {
    let server = TestServer::start("").await;
    let info = connect_info(&server).await;
    // A native client at the browsers' endpoint: no shvedka/1 there.
    let trust = shvedka_client::Trust::Fingerprint(server.pin);
    let native = shvedka_client::Client::connect(server.webtransport, trust, "lost").await;
    assert!(native.is_err(), "the browsers' endpoint refuses ALPN shvedka/1");
    // A browser at the native endpoint: no h3 there.
    let at_native = ConnectInfo { quic_port: server.addr.port(), ..info };
    let hashes = at_native.hashes.iter().map(|h| bytes_of_hex(h)).collect();
    assert!(open(&at_native, hashes, &at_native.path).await.is_err(), "the native endpoint refuses h3");
    server.stop().await;
}

/// Streams the client may still open at once on `conn` (polled once each: credit the server
/// granted is there at once, a stream beyond it would wait for credit that never comes).
fn streams_available(conn: &web_transport_quinn::quinn::Connection, bidi: bool) -> usize {
    let mut opened = Vec::new();
    loop {
        let ready = if bidi {
            conn.open_bi().now_or_never().map(|s| s.map(|(send, _)| send))
        } else {
            conn.open_uni().now_or_never()
        };
        match ready {
            Some(Ok(stream)) => opened.push(stream),
            Some(Err(e)) => panic!("cannot open a stream: {e}"),
            None => return opened.len(),
        }
        assert!(opened.len() <= 100, "no limit on streams");
    }
}

#[tokio::test]
async fn a_webtransport_connection_gets_exactly_what_http3_and_one_session_need() {
    let server = TestServer::start("").await;
    let info = connect_info(&server).await;
    let browser = Browser::open(&info).await;
    let conn: &web_transport_quinn::quinn::Connection = &browser._session;
    // The CONNECT stream and the session's stream took both bidirectional streams.
    assert_eq!(streams_available(conn, true), 0, "no third bidirectional stream");
    // The client's HTTP/3 control stream took one of three unidirectional streams; the other
    // two are for its QPACK encoder and decoder streams.
    assert_eq!(streams_available(conn, false), 2, "three unidirectional streams in all");
    // Datagrams are negotiated (WebTransport requires it) and small.
    let datagrams = conn.max_datagram_size().expect("datagrams are on");
    assert!(datagrams <= 1200, "datagrams of at most 1200 bytes, not {datagrams}");
    server.stop().await;
}

#[tokio::test]
async fn a_configured_certificate_needs_no_hash() {
    let dir = tempfile::tempdir().unwrap();
    let names = vec!["localhost".to_owned()];
    let generated = rcgen::generate_simple_self_signed(names).unwrap();
    let (cert, key) = (dir.path().join("c.pem"), dir.path().join("k.pem"));
    std::fs::write(&cert, generated.cert.pem()).unwrap();
    std::fs::write(&key, generated.signing_key.serialize_pem()).unwrap();
    let server = TestServer::start(&format!("cert = {cert:?}\nkey = {key:?}\n")).await;
    let info = connect_info(&server).await;
    assert!(info.hashes.is_empty(), "a real certificate is verified by the browser itself");
    server.stop().await;
}

#[tokio::test]
async fn garbage_on_a_webtransport_stream_ends_the_session_and_the_server_goes_on() {
    let server = TestServer::start("").await;
    let info = connect_info(&server).await;
    let mut bad = Browser::open(&info).await;
    bad.send.write_all(&[0, 0, 0, 3, b'{', b'x', b'}']).await.unwrap();
    let read = tokio::time::timeout(Duration::from_secs(10), bad.recv.read_to_end(64 * 1024)).await;
    assert!(read.is_ok(), "the stream ends in time");
    let mut good = Browser::open(&info).await;
    good.send(
        0,
        ClientMsg::Hello { version: shvedka_proto::PROTOCOL_VERSION, name: "after".into(), resume: None },
    )
    .await;
    assert!(matches!(good.recv().await, ServerMsg::Welcome { .. }));
    server.stop().await;
}
