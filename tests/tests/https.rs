//! A public server's HTTPS (issue 58): with no certificate of its own and an ACME CA (Debian's
//! `pebble`, on loopback, validating the HTTP-01 challenge for real through its own DNS), the
//! server obtains a certificate for `public_host`, serves the web client and the WebSocket over
//! HTTPS with HSTS, and WebTransport with the same certificate (no hashes in `/connect.json`); a
//! renewal reaches new handshakes while the sessions already open go on; a restart serves the kept
//! certificate; plain HTTP only redirects. A client trusts pebble's issuing root, as a browser
//! trusts Let's Encrypt's. And a password over plain HTTP from another machine is refused.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName};
use shvedka_proto::{ClientFrame, ClientMsg, ErrorCode, PROTOCOL_VERSION, Reply, ServerMsg};
use shvedka_server::{Server, ServerConfig};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;

pub(crate) const HOST: &str = "chess.test";
const PATIENCE: Duration = Duration::from_secs(60);

/// A client TLS configuration trusting only `root` (PEM), with `alpn`.
fn trusting(root: &str, alpn: &[u8]) -> Arc<rustls::ClientConfig> {
    let mut roots = rustls::RootCertStore::empty();
    for cert in CertificateDer::pem_slice_iter(root.as_bytes()) {
        roots.add(cert.expect("a PEM certificate")).expect("a root");
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ClientConfig::builder_with_provider(provider)
        .with_protocol_versions(&[&rustls::version::TLS13])
        .expect("TLS 1.3")
        .with_root_certificates(roots)
        .with_no_client_auth();
    config.alpn_protocols = vec![alpn.to_vec()];
    Arc::new(config)
}

type Tls = tokio_rustls::client::TlsStream<tokio::net::TcpStream>;

/// A TLS connection to `addr` for [`HOST`], verified against `root`.
async fn tls(addr: SocketAddr, root: &str) -> Tls {
    let tcp = tokio::net::TcpStream::connect(addr).await.expect("HTTPS accepts");
    let connector = tokio_rustls::TlsConnector::from(trusting(root, b"http/1.1"));
    let name = ServerName::try_from(HOST).expect("a name");
    tokio::time::timeout(PATIENCE, connector.connect(name, tcp))
        .await
        .expect("a handshake in time")
        .expect("the certificate verifies against the CA's root")
}

/// The leaf certificate a TLS connection was given.
fn leaf(conn: &Tls) -> Vec<u8> {
    conn.get_ref().1.peer_certificates().expect("a certificate")[0].as_ref().to_vec()
}

/// `GET path` over an open connection: the whole response.
async fn get(mut conn: impl tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin, path: &str) -> String {
    let request = format!("GET {path} HTTP/1.1\r\nHost: {HOST}\r\nConnection: close\r\n\r\n");
    conn.write_all(request.as_bytes()).await.expect("sent");
    let mut response = Vec::new();
    let _ = tokio::time::timeout(PATIENCE, conn.read_to_end(&mut response)).await.expect("an answer in time");
    String::from_utf8_lossy(&response).into_owned()
}

type Wss = tokio_tungstenite::WebSocketStream<Tls>;

async fn send(ws: &mut Wss, req: u32, msg: ClientMsg) {
    let text = serde_json::to_string(&ClientFrame { req, msg }).expect("JSON");
    ws.send(Message::Text(text.into())).await.expect("sent");
}

async fn reply(ws: &mut Wss, req: u32) -> Result<Reply, shvedka_proto::ErrorMsg> {
    loop {
        let frame = tokio::time::timeout(PATIENCE, ws.next()).await.expect("a message in time");
        if let Message::Text(text) = frame.expect("open").expect("a frame")
            && let ServerMsg::Reply { req: r, result } = serde_json::from_str(text.as_str()).expect("JSON")
            && r == req
        {
            return result;
        }
    }
}

/// A session over `wss://` that has said Hello.
async fn wss(addr: SocketAddr, root: &str) -> Wss {
    let conn = tls(addr, root).await;
    let url = format!("wss://{HOST}:{}/ws", addr.port());
    let (mut ws, _) = tokio_tungstenite::client_async(url, conn).await.expect("the WebSocket opens over TLS");
    send(&mut ws, 0, ClientMsg::Hello { version: PROTOCOL_VERSION, name: "web".into(), resume: None }).await;
    ws
}

/// A QUIC handshake with `addr` asking for `name` with `alpn`, verified against `root`.
async fn quic_handshake(
    addr: SocketAddr,
    root: &str,
    alpn: &[u8],
    name: &str,
) -> web_transport_quinn::quinn::Connection {
    use web_transport_quinn::quinn;
    let crypto = quinn::crypto::rustls::QuicClientConfig::try_from((*trusting(root, alpn)).clone())
        .expect("a QUIC TLS configuration");
    let config = quinn::ClientConfig::new(Arc::new(crypto));
    let endpoint = quinn::Endpoint::client("127.0.0.1:0".parse().expect("an address")).expect("an endpoint");
    let conn = endpoint.connect_with(config, addr, name).expect("a connection");
    tokio::time::timeout(PATIENCE, conn).await.expect("in time").expect("the handshake verifies")
}

/// A WebTransport session to `addr` for [`HOST`], verifying against `root` (no hashes).
async fn webtransport(addr: SocketAddr, root: &str, path: &str) -> web_transport_quinn::Session {
    let conn = quic_handshake(addr, root, b"h3", HOST).await;
    let url = url::Url::parse(&format!("https://{HOST}:{}{path}", addr.port())).expect("a URL");
    tokio::time::timeout(PATIENCE, web_transport_quinn::Session::connect(conn, url))
        .await
        .expect("in time")
        .expect("the WebTransport session opens")
}

/// A server configured as the operators' guide says, its CA's directory `directory`.
pub(crate) fn config(data: &std::path::Path, directory: &str, ca: &std::path::Path) -> ServerConfig {
    let text = format!(
        "listen = \"127.0.0.1:0\"\nhttp_listen = \"127.0.0.1:0\"\nhttps_listen = \"127.0.0.1:0\"\n\
         webtransport_listen = \"127.0.0.1:0\"\ndata_dir = {data:?}\npublic_host = \"{HOST}\"\n\
         acme_directory = \"{directory}\"\nacme_ca_roots = {ca:?}\nacme_contact = \"mailto:ops@{HOST}\"\n"
    );
    ServerConfig::from_overrides(&text).expect("a valid configuration")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_without_a_certificate_obtains_one_by_acme_serves_https_and_renews_it_with_players_connected()
 {
    let dir = tempfile::tempdir().expect("a directory");
    let reserved = testkit::pebble::Reserved::new();
    let config = config(&dir.path().join("data"), &reserved.directory(), &reserved.tls_root);
    let server = Server::bind(config.clone()).await.expect("the server binds");
    let http = server.http_addr().unwrap().expect("plain HTTP");
    let https = server.https_addr().unwrap().expect("HTTPS");
    let browsers = server.webtransport_addr().unwrap().expect("WebTransport");
    let native = server.local_addr().unwrap();
    let pin = shvedka_client::parse_fingerprint(server.fingerprint()).unwrap();
    let ca = reserved.start(http.port());
    let certificates = server.certificates().expect("ACME is on");
    let mut served = certificates.watch();
    assert!(!served.borrow().issued, "no certificate before the CA gave one");
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(server.run(async {
        let _ = stopped.await;
    }));

    // The server asks the CA, answers its challenge on plain HTTP, and serves what it got.
    let got = tokio::time::timeout(PATIENCE, served.wait_for(|s| s.issued)).await;
    let first =
        got.unwrap_or_else(|_| panic!("no certificate within {PATIENCE:?}; the CA's log:\n{}", ca.log()));
    let first = first.expect("the server runs").key.cert[0].as_ref().to_vec();
    let root = ca.issuing_root();
    let conn = tls(https, &root).await;
    assert_eq!(leaf(&conn), first, "HTTPS serves the CA's certificate");
    let page = get(conn, "/").await;
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    assert!(page.to_lowercase().contains("strict-transport-security: max-age=31536000"), "no HSTS: {page}");
    let connect = get(tls(https, &root).await, "/connect.json").await;
    let json: serde_json::Value =
        serde_json::from_str(connect.split("\r\n\r\n").nth(1).expect("a body")).unwrap();
    assert_eq!(json["quic_host"], HOST, "{json}");
    assert_eq!(
        json["cert_hashes"],
        serde_json::json!([]),
        "the browser verifies the CA's certificate itself"
    );

    // Native clients: one verifying with the web PKI asks for the public name and gets the CA's
    // certificate; one that pinned the server's fingerprint still gets the pinned one.
    let quic = quic_handshake(native, &root, shvedka_proto::ALPN, HOST).await;
    let leaf_der = quic.peer_identity().and_then(|id| id.downcast::<Vec<CertificateDer<'static>>>().ok());
    assert_eq!(
        leaf_der.expect("a chain")[0].as_ref(),
        first,
        "a web-PKI native client gets the CA's certificate"
    );
    let pinned =
        shvedka_client::Client::connect(native, shvedka_client::Trust::Fingerprint(pin), "pinned").await;
    assert!(pinned.is_ok(), "a pinned native client still finds its fingerprint: {:?}", pinned.err());

    // Plain HTTP only redirects, to the same path on the public name.
    let plain = get(tokio::net::TcpStream::connect(http).await.unwrap(), "/ws?x=1").await;
    assert!(plain.starts_with("HTTP/1.1 308"), "{plain}");
    assert!(plain.to_lowercase().contains("x-frame-options: deny"), "the redirect is secured too: {plain}");
    assert!(!plain.to_lowercase().contains("strict-transport-security"), "no HSTS in clear: {plain}");
    assert!(plain.contains(&format!("location: https://{HOST}:{}/ws?x=1", https.port())), "{plain}");

    // A player over wss: logs in (TLS: allowed), and one over WebTransport with no hashes.
    let mut player = wss(https, &root).await;
    let password = "correct horse battery".to_owned();
    send(&mut player, 1, ClientMsg::Register { name: "Anna".into(), password, bot: false }).await;
    assert!(matches!(reply(&mut player, 1).await, Ok(Reply::LoggedIn { .. })), "a log-in over HTTPS is fine");
    let session = webtransport(browsers, &root, json["path"].as_str().expect("a path")).await;
    let (mut wt_send, mut wt_recv) = session.open_bi().await.expect("a stream");
    let hello = serde_json::to_vec(&ClientFrame {
        req: 0,
        msg: ClientMsg::Hello { version: PROTOCOL_VERSION, name: "wt".into(), resume: None },
    })
    .unwrap();
    wt_send.write_all(&u32::try_from(hello.len()).unwrap().to_be_bytes()).await.unwrap();
    wt_send.write_all(&hello).await.unwrap();
    let mut len = [0u8; 4];
    tokio::time::timeout(PATIENCE, wt_recv.read_exact(&mut len)).await.expect("in time").expect("Welcome");

    // Renewal: new handshakes get the new certificate; the sessions open go on.
    certificates.renew_now();
    let renewed = tokio::time::timeout(PATIENCE, served.wait_for(|s| s.key.cert[0].as_ref() != first)).await;
    let renewed = renewed.expect("renewed in time").expect("the server runs").key.cert[0].as_ref().to_vec();
    assert_eq!(leaf(&tls(https, &root).await), renewed, "a new handshake gets the renewed certificate");
    send(&mut player, 2, ClientMsg::ListMatches).await;
    assert!(reply(&mut player, 2).await.is_ok(), "the wss session outlived the renewal");
    let ping = serde_json::to_vec(&ClientFrame { req: 1, msg: ClientMsg::ListMatches }).unwrap();
    wt_send.write_all(&u32::try_from(ping.len()).unwrap().to_be_bytes()).await.unwrap();
    wt_send.write_all(&ping).await.unwrap();
    let mut rest = vec![0; u32::from_be_bytes(len) as usize];
    wt_recv.read_exact(&mut rest).await.expect("the Welcome's body");
    tokio::time::timeout(PATIENCE, wt_recv.read_exact(&mut len))
        .await
        .expect("in time")
        .expect("the WebTransport session outlived the renewal");
    drop((player, wt_send, wt_recv, session));

    // A restart serves the kept certificate before asking anyone.
    let _ = stop.send(());
    running.await.expect("the server task").expect("a clean stop");
    let again = Server::bind(config).await.expect("the server binds again");
    let kept = again.certificates().expect("ACME").watch().borrow().clone();
    assert!(kept.issued && kept.key.cert[0].as_ref() == renewed, "the kept certificate is served at once");
}

/// A plain-HTTP WebSocket through a trusted proxy on loopback that forwards `forwarded` headers.
async fn plain_ws(
    http: SocketAddr,
    forwarded: &str,
) -> tokio_tungstenite::WebSocketStream<tokio::net::TcpStream> {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut request = format!("ws://{http}/ws").into_client_request().expect("a request");
    for line in forwarded.lines() {
        let (name, value) = line.split_once(": ").expect("a header");
        request.headers_mut().insert(
            tokio_tungstenite::tungstenite::http::HeaderName::from_bytes(name.as_bytes()).unwrap(),
            value.parse().unwrap(),
        );
    }
    let tcp = tokio::net::TcpStream::connect(http).await.expect("HTTP accepts");
    tokio_tungstenite::client_async(request, tcp).await.expect("the WebSocket opens").0
}

/// What a registration over that WebSocket is answered.
async fn register(http: SocketAddr, forwarded: &str, name: &str) -> Result<Reply, shvedka_proto::ErrorMsg> {
    let mut ws = plain_ws(http, forwarded).await;
    let frames = [
        ClientFrame {
            req: 0,
            msg: ClientMsg::Hello { version: PROTOCOL_VERSION, name: "web".into(), resume: None },
        },
        ClientFrame {
            req: 1,
            msg: ClientMsg::Register {
                name: name.into(),
                password: "correct horse battery".into(),
                bot: false,
            },
        },
    ];
    for frame in frames {
        ws.send(Message::Text(serde_json::to_string(&frame).unwrap().into())).await.unwrap();
    }
    loop {
        let frame = tokio::time::timeout(PATIENCE, ws.next()).await.expect("in time");
        if let Message::Text(text) = frame.expect("open").expect("a frame")
            && let ServerMsg::Reply { req: 1, result } = serde_json::from_str(text.as_str()).expect("JSON")
        {
            return result;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_password_over_plain_http_from_another_machine_is_refused_and_over_tls_or_from_an_allowed_network_taken()
 {
    let server = shvedka_tests::TestServer::start(
        "trusted_proxies = [\"127.0.0.1\"]\nplain_http_logins = [\"198.51.100.0/24\"]",
    )
    .await;
    // Another machine's page over plain HTTP (the proxy says so): refused with the code.
    let far = "X-Forwarded-For: 203.0.113.7";
    let refused = register(server.http, far, "Boris").await.expect_err("refused");
    assert_eq!(refused.code, ErrorCode::Unencrypted, "{refused:?}");
    // The same page over TLS to the proxy: taken.
    let via_tls = format!("{far}\nX-Forwarded-Proto: https");
    assert!(matches!(register(server.http, &via_tls, "Boris").await, Ok(Reply::LoggedIn { .. })));
    // A client's own claim of TLS to a proxy that then said http is no TLS.
    let claimed = format!("{far}\nX-Forwarded-Proto: https, http");
    assert_eq!(
        register(server.http, &claimed, "Vera").await.expect_err("refused").code,
        ErrorCode::Unencrypted
    );
    // A network the operator allowed (a tournament hall's LAN): taken.
    let hall = "X-Forwarded-For: 198.51.100.20";
    assert!(matches!(register(server.http, hall, "Vera").await, Ok(Reply::LoggedIn { .. })));
    // The trusted proxy saying nothing of TLS, nor whom it forwards for: not this machine.
    let silent = register(server.http, "X-Nothing: 1", "Gleb").await.expect_err("refused");
    assert_eq!(silent.code, ErrorCode::Unencrypted);
    let metrics = server.http_get("/metrics").await;
    assert!(metrics.contains("shvedka_refused_total{limit=\"Unencrypted\"} 3"), "{metrics}");
    server.stop().await;

    // Without trusted proxies: this machine itself is taken, but a proxy on it that nobody
    // trusts relays other machines (its forwarding headers say so) and is refused.
    let server = shvedka_tests::TestServer::start("").await;
    assert!(matches!(register(server.http, "X-Nothing: 1", "Gleb").await, Ok(Reply::LoggedIn { .. })));
    let relayed = register(server.http, far, "Dana").await.expect_err("refused");
    assert_eq!(relayed.code, ErrorCode::Unencrypted);
    server.stop().await;
}
