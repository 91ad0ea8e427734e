//! The server's HTTP side: the web client's files, and the WebSocket transport carrying the same
//! session as QUIC — JSON text frames (the browser's encoding) or bincode binary frames.

use std::time::Duration;

use shvedka_proto::{Board, ClientFrame, ClientMsg, EventView, Reply, SeatId, ServerMsg};
use shvedka_tests::{TestServer, wait_event};
use tokio_tungstenite::tungstenite::Message;

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn ws(server: &TestServer) -> Ws {
    let url = format!("ws://{}/ws", server.http);
    tokio_tungstenite::connect_async(url).await.expect("the WebSocket opens").0
}

async fn send_json(ws: &mut Ws, req: u32, msg: ClientMsg) {
    use futures_util::SinkExt;
    let text = serde_json::to_string(&ClientFrame { req, msg }).unwrap();
    ws.send(Message::Text(text.into())).await.unwrap();
}

/// The next server message in JSON, within 10 s.
async fn recv_json(ws: &mut Ws) -> ServerMsg {
    use futures_util::StreamExt;
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(10), ws.next()).await.expect("a message in time");
        match msg.expect("the socket is open").expect("a frame") {
            Message::Text(t) => return serde_json::from_str(t.as_str()).expect("a server message"),
            Message::Ping(_) | Message::Pong(_) => {}
            other => panic!("expected a text frame, got {other:?}"),
        }
    }
}

async fn reply(ws: &mut Ws, req: u32) -> Result<Reply, shvedka_proto::ErrorMsg> {
    loop {
        if let ServerMsg::Reply { req: r, result } = recv_json(ws).await
            && r == req
        {
            return result;
        }
    }
}

#[tokio::test]
async fn the_web_client_is_served_from_the_binary() {
    let server = TestServer::start("").await;
    let page = server.http_get("/").await;
    assert!(page.starts_with("HTTP/1.1 200") && page.contains("text/html"), "{page}");
    let codec = server.http_get("/codec.js").await;
    assert!(codec.contains("text/javascript") && codec.contains("PROTOCOL_VERSION"), "{codec}");
    assert!(server.http_get("/nothing").await.starts_with("HTTP/1.1 404"));
    server.stop().await;
}

#[tokio::test]
async fn s1_a_browser_session_over_the_websocket_plays_with_quic_players() {
    let server = TestServer::start("").await;
    let mut browser = ws(&server).await;
    send_json(
        &mut browser,
        0,
        ClientMsg::Hello { version: shvedka_proto::PROTOCOL_VERSION, name: "web".into(), resume: None },
    )
    .await;
    assert!(matches!(recv_json(&mut browser).await, ServerMsg::Welcome { resumed: false, .. }));
    send_json(
        &mut browser,
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
    let Ok(Reply::Created { match_id }) = reply(&mut browser, 1).await else { panic!("created") };
    send_json(&mut browser, 2, ClientMsg::TakeSeat { match_id, seat: SeatId::WhiteA }).await;
    assert_eq!(reply(&mut browser, 2).await, Ok(Reply::Ok));
    let mut quic = Vec::new();
    for seat in [SeatId::BlackA, SeatId::WhiteB, SeatId::BlackB] {
        let c = server.client(seat.name()).await;
        c.take_seat(match_id, seat).await.unwrap();
        c.ready(true).await.unwrap();
        quic.push(c);
    }
    send_json(&mut browser, 3, ClientMsg::Ready { ready: true }).await;
    assert_eq!(reply(&mut browser, 3).await, Ok(Reply::Ok));
    // A refused move comes back with its rule, over JSON too.
    send_json(&mut browser, 4, ClientMsg::Move { board: Board::A, text: "Ke2".into(), think_ms: None }).await;
    let refused = reply(&mut browser, 4).await.unwrap_err();
    assert_eq!(refused.rule.as_deref(), Some("FIDE"));
    send_json(&mut browser, 5, ClientMsg::Move { board: Board::A, text: "e4".into(), think_ms: Some(300) })
        .await;
    assert_eq!(reply(&mut browser, 5).await, Ok(Reply::Ok));
    let seen = wait_event(&mut quic[0], |e| matches!(e.kind, EventView::Moved { .. })).await;
    assert!(matches!(&seen.kind, EventView::Moved { seat: SeatId::WhiteA, san, .. } if san == "e4"));
    quic[0].play(Board::A, "e5", None).await.unwrap();
    loop {
        if let ServerMsg::Event(e) = recv_json(&mut browser).await
            && matches!(&e.kind, EventView::Moved { san, .. } if san == "e5")
        {
            break;
        }
    }
    server.stop().await;
}

#[tokio::test]
async fn bincode_binary_frames_and_garbage_over_the_websocket() {
    use futures_util::{SinkExt, StreamExt};
    let server = TestServer::start("").await;
    let mut binary = ws(&server).await;
    let hello = ClientFrame {
        req: 0,
        msg: ClientMsg::Hello { version: shvedka_proto::PROTOCOL_VERSION, name: "bin".into(), resume: None },
    };
    binary.send(Message::Binary(shvedka_proto::encode(&hello).unwrap().into())).await.unwrap();
    let Some(Ok(Message::Binary(bytes))) = binary.next().await else { panic!("a binary answer") };
    assert!(matches!(shvedka_proto::decode::<ServerMsg>(&bytes).unwrap(), ServerMsg::Welcome { .. }));

    let mut garbage = ws(&server).await;
    garbage.send(Message::Text("{\"not\": \"a frame\"}".into())).await.unwrap();
    let close = loop {
        match tokio::time::timeout(Duration::from_secs(10), garbage.next()).await.expect("closed in time") {
            Some(Ok(Message::Close(frame))) => break frame,
            Some(Ok(_)) => {}
            other => panic!("expected a close frame, got {other:?}"),
        }
    };
    let close = close.expect("a close frame with a reason");
    assert_eq!(u16::from(close.code), 4002);
    assert!(close.reason.contains("not a client frame"), "{}", close.reason);
    server.stop().await;
}
