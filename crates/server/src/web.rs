//! The HTTP side of the server: the web client's files, embedded in the binary, and `/ws`, a
//! WebSocket carrying the protocol's messages for browsers. A WebSocket session is the same
//! session as a QUIC one (`session::converse`); only the encoding differs: each message is one
//! JSON text frame (serde's external tagging of the `shvedka-proto` types, pinned by
//! `proto/tests/data/golden.json`), or one binary frame holding exactly the bincode payload of a
//! QUIC frame without its length prefix.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::extract::State;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use shvedka_proto::{ClientFrame, MAX_FRAME, ServerMsg};
use tokio::sync::mpsc;

use crate::ServerConfig;
use crate::devcert::DevCerts;
use crate::encoding::Encoding;
use crate::lobby::Lobby;
use crate::session::{End, Frames, converse};
use crate::web_files::FILES;

/// What the HTTP side serves from.
#[derive(Clone)]
pub(crate) struct Shared {
    pub(crate) lobby: Arc<Lobby>,
    pub(crate) config: Arc<ServerConfig>,
    pub(crate) connect: Arc<Connect>,
}

/// Where a page finds the WebTransport side: the QUIC port and, with the development
/// certificate, its current hash.
pub(crate) struct Connect {
    /// The QUIC endpoint's address when it is bound to one (a page loaded from `localhost`
    /// must not guess `::1` for a server on `127.0.0.1`); `None` for an unspecified address,
    /// where the page's own host is right.
    pub(crate) quic_host: Option<std::net::IpAddr>,
    pub(crate) quic_port: u16,
    pub(crate) browsers: Option<Arc<DevCerts>>,
}

/// `/connect.json`: `{"quic_host": "127.0.0.1", "quic_port": 7475, "path": "/shvedka",
/// "cert_hashes": ["<sha-256 hex>"]}`; `quic_host` is null when the endpoint listens on every
/// address, and the hashes are empty with a configured certificate, which the browser verifies
/// itself.
async fn connect_json(State(shared): State<Shared>) -> Response {
    let hashes: Vec<String> = shared.connect.browsers.iter().map(|c| c.current().hash.clone()).collect();
    let body = serde_json::json!({
        "quic_host": shared.connect.quic_host.map(|ip| ip.to_string()),
        "quic_port": shared.connect.quic_port,
        "path": crate::webtransport::PATH,
        "cert_hashes": hashes,
    });
    ([(header::CONTENT_TYPE, "application/json"), (header::CACHE_CONTROL, "no-store")], body.to_string())
        .into_response()
}

/// Serves HTTP on `listener` until `shutdown` completes.
pub(crate) async fn serve(
    listener: tokio::net::TcpListener,
    shared: Shared,
    shutdown: impl Future<Output = ()> + Send + 'static,
) {
    let mut app = Router::new().route("/ws", get(upgrade)).route("/connect.json", get(connect_json));
    for &(path, mime, body) in FILES {
        app = app.route(path, get(move || async move { ([(header::CONTENT_TYPE, mime)], body) }));
    }
    let app = app.with_state(shared);
    if let Err(e) = axum::serve(listener, app).with_graceful_shutdown(shutdown).await {
        tracing::error!(error = %e, "the HTTP side stopped");
    }
}

/// Binds the HTTP address of the config, if any.
pub(crate) async fn bind(config: &ServerConfig) -> anyhow::Result<Option<tokio::net::TcpListener>> {
    if config.http_listen.is_empty() {
        return Ok(None);
    }
    let addr: SocketAddr = config.http_listen.parse()?;
    Ok(Some(tokio::net::TcpListener::bind(addr).await?))
}

async fn upgrade(ws: WebSocketUpgrade, State(shared): State<Shared>) -> Response {
    ws.max_message_size(MAX_FRAME)
        .on_upgrade(move |socket| session(socket, shared.lobby, shared.config))
        .into_response()
}

/// A server message as one WebSocket frame: text for JSON, binary for bincode.
fn ws_frame(encoding: Encoding, msg: &ServerMsg) -> Option<Message> {
    let payload = encoding.payload(msg)?;
    Some(match encoding {
        Encoding::Json => Message::Text(Utf8Bytes::try_from(payload).ok()?),
        Encoding::Bincode => Message::Binary(payload.into()),
    })
}

/// Client frames arriving from the socket task.
struct Inbox(mpsc::Receiver<Result<Option<ClientFrame>, String>>);

impl Frames for Inbox {
    async fn next(&mut self) -> Result<Option<ClientFrame>, End> {
        match self.0.recv().await {
            Some(Ok(frame)) => Ok(frame),
            Some(Err(reason)) => Err(End::Protocol(reason)),
            None => Err(End::Done),
        }
    }
}

/// One WebSocket session: a task moves frames between the socket and the session's channels;
/// the session itself is the transport-independent `converse`.
async fn session(mut socket: WebSocket, lobby: Arc<Lobby>, config: Arc<ServerConfig>) {
    let (frames_tx, frames_rx) = mpsc::channel(64);
    let (out, mut out_rx) = mpsc::channel::<ServerMsg>(1024);
    let talk = tokio::spawn(async move { converse(&mut Inbox(frames_rx), out, &lobby, &config).await });
    let mut encoding = Encoding::Json;
    let mut first = true;
    let mut ended: Option<String> = None;
    loop {
        tokio::select! {
            incoming = socket.recv() => {
                let decoded = match incoming {
                    Some(Ok(Message::Text(text))) => {
                        if first { encoding = Encoding::Json; }
                        Encoding::Json.decode(text.as_bytes()).map(Some)
                    }
                    Some(Ok(Message::Binary(bytes))) => {
                        if first { encoding = Encoding::Bincode; }
                        Encoding::Bincode.decode(&bytes).map(Some)
                    }
                    Some(Ok(Message::Close(_))) | None => Ok(None),
                    Some(Ok(_)) => continue, // pings are answered by the library
                    Some(Err(_)) => break,
                };
                first = false;
                let stop = !matches!(decoded, Ok(Some(_)));
                if frames_tx.send(decoded).await.is_err() || stop {
                    break;
                }
            }
            msg = out_rx.recv() => match msg {
                Some(msg) => {
                    if let Some(frame) = ws_frame(encoding, &msg) && socket.send(frame).await.is_err() {
                        break;
                    }
                }
                None => break, // the session ended
            },
        }
    }
    drop(frames_tx);
    // Deliver what the session still has to say (a refusal, the last replies), then close with
    // the reason if the input was not the protocol.
    while let Ok(msg) = out_rx.try_recv() {
        if let Some(frame) = ws_frame(encoding, &msg)
            && socket.send(frame).await.is_err()
        {
            break;
        }
    }
    if let Ok(End::Protocol(reason) | End::Refused(reason)) = talk.await {
        ended = Some(reason);
    }
    let close = ended.map(|reason| CloseFrame {
        code: 4002,
        reason: Utf8Bytes::from(reason.chars().take(120).collect::<String>()),
    });
    let _ = socket.send(Message::Close(close)).await;
}
