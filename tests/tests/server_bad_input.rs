//! Bad input on the wire and in requests: each gets a typed error or closes only the offending
//! connection with a reason, and the server goes on serving other matches.

use std::time::Duration;

use shvedka_client::quinn;
use shvedka_client::{Client, ClientError, Trust, client_config};
use shvedka_proto::{
    Board, ClientFrame, ClientMsg, ErrorCode, EventView, IllegalMove, Invalid, MatchRefusal, MoveText,
    PROTOCOL_VERSION, PieceKind, SeatId,
};
use shvedka_tests::*;

/// A bare QUIC connection to the server with the client library's configuration, but no
/// session: the tests below speak the protocol by hand.
async fn raw(server: &TestServer) -> (quinn::Endpoint, quinn::Connection) {
    let (name, config) = client_config(&Trust::Fingerprint(server.pin)).unwrap();
    let mut endpoint = quinn::Endpoint::client("127.0.0.1:0".parse().unwrap()).unwrap();
    endpoint.set_default_client_config(config);
    let conn = endpoint.connect(server.addr, &name).unwrap().await.unwrap();
    (endpoint, conn)
}

/// Sends `bytes` on a fresh session stream (then finishes it if `finish`) and returns how the
/// server closed the connection.
async fn send_raw(server: &TestServer, bytes: &[u8], finish: bool) -> String {
    let (_endpoint, conn) = raw(server).await;
    let (mut send, _recv) = conn.open_bi().await.unwrap();
    send.write_all(bytes).await.unwrap();
    if finish {
        send.finish().unwrap();
    }
    match tokio::time::timeout(Duration::from_secs(10), conn.closed()).await {
        Ok(quinn::ConnectionError::ApplicationClosed(c)) => {
            format!("{} {}", c.error_code, String::from_utf8_lossy(&c.reason))
        }
        other => panic!("expected the server to close the connection, got {other:?}"),
    }
}

fn hello() -> Vec<u8> {
    let msg = ClientMsg::Hello { version: PROTOCOL_VERSION, name: "raw".into(), resume: None };
    shvedka_proto::frame(&ClientFrame { req: 0, msg }).unwrap()
}

/// After all the abuse, another match is still served from start to a move.
async fn still_serving(server: &TestServer) {
    let (_, mut c) = server.seated_match("classic", "blitz").await;
    c[0].play(Board::A, "d4", None).await.unwrap();
    wait_event(&mut c[3], |e| matches!(e.kind, EventView::Moved { .. })).await;
}

#[tokio::test]
async fn garbage_oversized_truncated_and_unknown_frames_close_only_that_connection() {
    let server = TestServer::start("").await;
    let (_, mut players) = server.seated_match("mgimo-2017", "blitz").await;

    let closed = send_raw(&server, b"\x00\x00\x00\x05hello, not bincode", false).await;
    assert!(closed.starts_with("2 malformed frame"), "garbage: {closed}");
    let closed = send_raw(&server, &(1u32 << 20).to_be_bytes(), false).await;
    assert_eq!(closed, "2 frame of 1048576 bytes exceeds the limit of 65536", "oversized");
    let h = hello();
    let closed = send_raw(&server, &h[..h.len() - 2], true).await;
    assert_eq!(closed, "2 the stream ended inside a frame", "truncated");
    let mut unknown = hello();
    unknown.extend_from_slice(&[0, 0, 0, 2, 9, 200]);
    let closed = send_raw(&server, &unknown, false).await;
    assert!(closed.starts_with("2 malformed frame"), "unknown message: {closed}");
    let not_hello = shvedka_proto::frame(&ClientFrame { req: 1, msg: ClientMsg::ListMatches }).unwrap();
    let closed = send_raw(&server, &not_hello, false).await;
    assert_eq!(closed, "2 the first message must be Hello");

    // The match in progress never noticed.
    players[0].play(Board::A, "e4", None).await.unwrap();
    wait_event(&mut players[1], |e| matches!(e.kind, EventView::Moved { .. })).await;
    still_serving(&server).await;
    server.stop().await;
}

#[tokio::test]
async fn another_protocol_version_or_a_bad_name_is_refused_with_a_reason() {
    let server = TestServer::start("").await;
    let (_endpoint, conn) = raw(&server).await;
    let (mut send, mut recv) = conn.open_bi().await.unwrap();
    let msg = ClientMsg::Hello { version: PROTOCOL_VERSION + 1, name: "future".into(), resume: None };
    send.write_all(&shvedka_proto::frame(&ClientFrame { req: 0, msg }).unwrap()).await.unwrap();
    let mut d = shvedka_proto::FrameDecoder::new();
    let mut buf = [0u8; 4096];
    let reply = loop {
        if let Some(m) = d.next_message::<shvedka_proto::ServerMsg>().unwrap() {
            break m;
        }
        let n = recv.read(&mut buf).await.unwrap().expect("a reply before the end");
        d.push(&buf[..n]);
    };
    assert_eq!(
        reply,
        shvedka_proto::ServerMsg::Refused {
            reason: format!(
                "protocol version {} is not supported; this server speaks {PROTOCOL_VERSION}",
                PROTOCOL_VERSION + 1
            )
        }
    );
    let long = "x".repeat(33);
    let named = Client::connect(server.addr, Trust::Fingerprint(server.pin), &long).await.err().unwrap();
    assert!(
        matches!(named, ClientError::Refused(ref e) if e.code == ErrorCode::Invalid(Invalid::GuestName { max: 32 })),
        "{named:?}"
    );
    // A control character, a right-to-left override (a name that reads backwards), a zero-width
    // space (a look-alike of another name).
    for hidden in ["a\u{7}b", "ad\u{202E}nim", "anna\u{200B}"] {
        let refused =
            Client::connect(server.addr, Trust::Fingerprint(server.pin), hidden).await.err().unwrap();
        assert!(
            matches!(refused, ClientError::Refused(ref e) if e.code == ErrorCode::Invalid(Invalid::GuestName { max: 32 })),
            "{hidden:?}: {refused:?}"
        );
    }
    let wrong_pin = Client::connect(server.addr, Trust::Fingerprint([7; 32]), "x").await.err().unwrap();
    assert!(matches!(wrong_pin, ClientError::Connection(_)), "{wrong_pin}");
    still_serving(&server).await;
    server.stop().await;
}

#[tokio::test]
async fn refused_requests_get_typed_errors_with_the_rule() {
    let server = TestServer::start("").await;
    let (id, c) = server.seated_match("mgimo-2017", "blitz").await;
    let err = |e: ClientError| match e {
        ClientError::Server(m) => m,
        other => panic!("expected a server error, got {other}"),
    };
    let e = err(c[2].play(Board::A, "e4", None).await.unwrap_err());
    assert_eq!(
        (e.code, e.message.as_str()),
        (
            ErrorCode::Match(MatchRefusal::NotYourBoard { seat: SeatId::WhiteB, board: Board::A }),
            "you play white-B, not on board A"
        )
    );
    for hidden in ["gg\u{202E}", "\u{200B}", "a\u{2066}b"] {
        let e = err(c[0].chat(shvedka_proto::ChatScope::Match, hidden).await.unwrap_err());
        assert_eq!(e.code, ErrorCode::Invalid(Invalid::ChatText), "chat {hidden:?} hides or reorders text");
    }
    let e = err(c[1].play(Board::A, "e5", None).await.unwrap_err());
    assert_eq!(
        (e.code, e.rule.as_deref()),
        (ErrorCode::Match(MatchRefusal::NotYourTurn { seat: SeatId::BlackA }), Some("K1"))
    );
    let e = err(c[0].play(Board::A, "e5", None).await.unwrap_err());
    let chess = MatchRefusal::Illegal { board: Board::A, why: IllegalMove::Chess { in_check: false } };
    assert_eq!((e.code, e.rule.as_deref()), (ErrorCode::Match(chess), Some("FIDE")), "{}", e.message);
    let e = err(c[0].play(Board::A, "P@e4", None).await.unwrap_err());
    let reserve = IllegalMove::NotInReserve { seat: SeatId::WhiteA, piece: PieceKind::Pawn };
    assert_eq!(e.code, ErrorCode::Match(MatchRefusal::Illegal { board: Board::A, why: reserve }));
    assert_eq!(e.rule.as_deref(), Some("P1"), "{}", e.message);
    let e = err(c[0].play(Board::A, "xyzzy", None).await.unwrap_err());
    assert_eq!(
        e.code,
        ErrorCode::Match(MatchRefusal::Unreadable { board: Board::A, why: MoveText::NotAMove })
    );
    let outsider = server.client("outsider").await;
    let e = err(outsider.play(Board::A, "e4", None).await.unwrap_err());
    assert_eq!(e.code, ErrorCode::NotInMatch);
    outsider.watch(id).await.unwrap();
    let e = err(outsider.play(Board::A, "e4", None).await.unwrap_err());
    assert_eq!(e.message, "you hold no seat in this match");
    let e = err(outsider.take_seat(id, SeatId::WhiteA).await.unwrap_err());
    assert_eq!(e.rule.as_deref(), Some("S1"));
    let e = err(outsider.watch(shvedka_proto::MatchId(999)).await.unwrap_err());
    assert_eq!(e.code, ErrorCode::NoSuchMatch);
    let e = err(outsider.create_match("chess960-blitz", "3+0", true).await.unwrap_err());
    assert!(e.message.contains("unknown rules preset"), "{}", e.message);
    let e = err(outsider.create_match("classic", "fast", true).await.unwrap_err());
    assert!(e.message.contains("invalid time control"), "{}", e.message);
    let e = err(c[0]
        .request(ClientMsg::Hello {
            version: shvedka_proto::PROTOCOL_VERSION,
            name: "x".into(),
            resume: None,
        })
        .await
        .unwrap_err());
    assert_eq!(e.code, ErrorCode::Handshake);
    c[0].play(Board::A, "e4", None).await.unwrap();
    server.stop().await;
}

#[tokio::test]
async fn too_many_requests_are_limited_and_too_many_connections_refused() {
    let server = TestServer::start("rate_per_second = 5\nrate_burst = 10\nmax_connections = 2").await;
    let a = server.client("a").await;
    let mut limited = 0;
    for _ in 0..40 {
        if let Err(ClientError::Server(e)) = a.request(ClientMsg::ListMatches).await {
            assert_eq!(e.code, ErrorCode::RateLimited);
            limited += 1;
        }
    }
    assert!(limited >= 25, "only the burst and the refill pass: {limited} limited");
    let _b = server.client("b").await;
    let third = Client::connect(server.addr, Trust::Fingerprint(server.pin), "c").await;
    match third {
        Err(ClientError::Refused(e)) => {
            assert_eq!(e.code, ErrorCode::Limit(shvedka_proto::Limit::Connections), "{e:?}");
            assert!(e.message.contains("max_connections = 2"), "told the limit: {}", e.message);
        }
        Err(other) => panic!("the third connection is refused at the limit: {other:?}"),
        Ok(_) => panic!("the third connection is refused"),
    }
    server.stop().await;
}
