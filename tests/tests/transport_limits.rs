//! The native QUIC endpoint grants exactly what the protocol needs, from the handshake on: one
//! bidirectional stream, no unidirectional stream, no datagrams, and receive windows of two
//! frames, so no connection can make the server buffer more. Seen from a bare quinn client with
//! the client library's configuration: credit the server granted is usable at once, so a
//! future polled once tells whether it was granted.

use futures_util::FutureExt;
use shvedka_client::quinn;
use shvedka_client::{Trust, client_config};
use shvedka_proto::{ClientFrame, ClientMsg, MAX_FRAME, PROTOCOL_VERSION, ServerMsg};
use shvedka_tests::TestServer;

async fn raw(server: &TestServer) -> (quinn::Endpoint, quinn::Connection) {
    let (name, config) = client_config(&Trust::Fingerprint(server.pin)).unwrap();
    let mut endpoint = quinn::Endpoint::client("127.0.0.1:0".parse().unwrap()).unwrap();
    endpoint.set_default_client_config(config);
    let conn = endpoint.connect(server.addr, &name).unwrap().await.unwrap();
    (endpoint, conn)
}

#[tokio::test]
async fn a_native_connection_gets_one_stream_no_uni_streams_and_no_datagrams() {
    let server = TestServer::start("").await;
    let (_endpoint, conn) = raw(&server).await;
    assert_eq!(conn.max_datagram_size(), None, "the server takes no datagrams");
    assert!(conn.open_uni().now_or_never().is_none(), "no unidirectional stream is granted");
    let (mut send, mut recv) =
        conn.open_bi().now_or_never().expect("one bidirectional stream is granted").unwrap();
    assert!(conn.open_bi().now_or_never().is_none(), "a second bidirectional stream is not");

    // The one stream carries the session as usual, and no more credit comes with it.
    let hello = ClientMsg::Hello { version: PROTOCOL_VERSION, name: "raw".into(), resume: None };
    send.write_all(&shvedka_proto::frame(&ClientFrame { req: 0, msg: hello }).unwrap()).await.unwrap();
    let mut len = [0u8; 4];
    recv.read_exact(&mut len).await.unwrap();
    let mut payload = vec![0; u32::from_be_bytes(len) as usize];
    recv.read_exact(&mut payload).await.unwrap();
    let welcome: ServerMsg = shvedka_proto::decode(&payload).unwrap();
    assert!(matches!(welcome, ServerMsg::Welcome { .. }), "{welcome:?}");
    let mut second = Box::pin(conn.open_bi());
    assert!(futures_util::poll!(&mut second).is_pending(), "still no second stream mid-session");
    server.stop().await;
}

#[tokio::test]
async fn a_native_stream_may_send_two_frames_ahead_and_no_more() {
    let server = TestServer::start("").await;
    let (_endpoint, conn) = raw(&server).await;
    let (mut send, _recv) = conn.open_bi().await.unwrap();
    // A fresh stream: the first write takes exactly the credit of the server's transport
    // parameters (the smaller of the stream's and the connection's window), no more.
    let megabyte = vec![0u8; 1 << 20];
    let taken = send.write(&megabyte).await.unwrap();
    assert_eq!(taken, 2 * MAX_FRAME, "the server's receive window is two frames, not {taken} bytes");
    server.stop().await;
}
