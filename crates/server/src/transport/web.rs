//! The HTTP side of the server: the web client's files, embedded in the binary, and `/ws`, a
//! WebSocket carrying the protocol's messages for browsers. A WebSocket session is the same
//! session as a QUIC one (`Conversation::converse`, served by `connection.rs`); only the encoding differs: each message is one
//! JSON text frame (serde's external tagging of the `shvedka-proto` types, pinned by
//! `proto/tests/data/golden.json`), or one binary frame holding exactly the bincode payload of a
//! QUIC frame without its length prefix.
//!
//! A WebSocket is held to the limits of a QUIC connection: it takes one of the server's
//! `max_connections` permits (an upgrade beyond them is answered 503), a frame or message above
//! the protocol's `MAX_FRAME` is refused from its header, before its payload is read, and a socket
//! that receives nothing for `idle_timeout_ms` (the server pings it every `keep_alive_ms`), or
//! that takes no data for as long, is closed.
//!
//! A browser sends every WebSocket upgrade with the page's `Origin`, and sends cookies and
//! credentials of the server's site whatever page asks: an upgrade whose `Origin` is neither the
//! server's own (its `Host`) nor one of `allowed_origins` is refused 403, so no other site's page
//! can open a session in its visitor's name (cross-site WebSocket hijacking). A client that is no
//! browser sends no `Origin` and is not concerned. Every response carries the headers that keep
//! the page from being framed, its types from being sniffed and its scripts to its own origin
//! ([`SECURITY_HEADERS`]).

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, Extension, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use ipnet::IpNet;
use shvedka_proto::{ClientFrame, MAX_FRAME};
use tokio::sync::mpsc;
use tokio::time::Instant;

use crate::config::ServerConfig;
use crate::service::addresses::Held;
use crate::service::encoding::{Encoding, Outgoing};
use crate::transport::admission::Admission;
use crate::transport::devcert::DevCerts;
use crate::transport::frames::{BEHIND, CLOSE_BEHIND, CLOSE_ENDED, Conversation, ENDED, End, Frames, Peer};
use crate::transport::http_accept::{self, ClientAddr};
use crate::transport::web_files::FILES;

/// What the HTTP side serves from.
pub(crate) struct Shared<C> {
    /// What serves the WebSocket sessions (and knows the metrics).
    pub(crate) conversation: Arc<C>,
    pub(crate) config: Arc<ServerConfig>,
    pub(crate) connect: Arc<Connect>,
    /// The server's connection limits, shared with the QUIC endpoints.
    pub(crate) admission: Arc<Admission>,
    /// `trusted_proxies`.
    pub(crate) proxies: Arc<Vec<IpNet>>,
    /// `metrics_allowed`.
    pub(crate) metrics_allowed: Arc<Vec<IpNet>>,
    /// `plain_http_logins`.
    pub(crate) plain_logins: Arc<Vec<IpNet>>,
}

impl<C> Clone for Shared<C> {
    fn clone(&self) -> Shared<C> {
        Shared {
            conversation: self.conversation.clone(),
            config: self.config.clone(),
            connect: self.connect.clone(),
            admission: self.admission.clone(),
            proxies: self.proxies.clone(),
            metrics_allowed: self.metrics_allowed.clone(),
            plain_logins: self.plain_logins.clone(),
        }
    }
}

/// Where a page finds the WebTransport side: the browsers' QUIC endpoint and, with the
/// development certificate, its current hash.
pub(crate) struct Connect {
    /// The browsers' endpoint; `None` when WebTransport is off.
    pub(crate) webtransport: Option<SocketAddr>,
    /// The development certificates, when no certificate is configured.
    pub(crate) certs: Option<Arc<DevCerts>>,
}

/// `/connect.json`: `{"quic_host": "127.0.0.1", "quic_port": 7476, "path": "/shvedka",
/// "cert_hashes": ["<sha-256 hex>"]}`, the browsers' endpoint. `quic_host` is `public_host` when
/// one is configured (the name its certificate is for), else the endpoint's address when it is
/// bound to one (a page loaded from `localhost` must not guess `::1` for a server on
/// `127.0.0.1`), null when it listens on every address (the page's own host is right); the hashes
/// are empty with a configured or CA-issued certificate, which the browser verifies itself. 404
/// when WebTransport is off (the page then uses the WebSocket).
async fn connect_json<C: Conversation>(State(shared): State<Shared<C>>) -> Response {
    let Some(addr) = shared.connect.webtransport else {
        return (StatusCode::NOT_FOUND, "WebTransport is off on this server").into_response();
    };
    let hashes: Vec<String> = shared.connect.certs.iter().map(|c| c.current().hash.clone()).collect();
    let host = match shared.config.public_host.as_str() {
        "" => (!addr.ip().is_unspecified()).then(|| addr.ip().to_string()),
        name => Some(name.to_owned()),
    };
    let body = serde_json::json!({
        "quic_host": host,
        "quic_port": addr.port(),
        "path": crate::transport::webtransport::PATH,
        "cert_hashes": hashes,
    });
    ([(header::CONTENT_TYPE, "application/json"), (header::CACHE_CONTROL, "no-store")], body.to_string())
        .into_response()
}

/// Serves the web client, `/ws`, `/connect.json` and `/metrics` on `listener` until `shutdown`
/// completes: over TLS with `tls` (HTTPS, every response with HSTS too), else in plain HTTP;
/// every response with the security headers (`headers.rs`).
pub(crate) async fn serve<C: Conversation>(
    listener: tokio::net::TcpListener,
    shared: Shared<C>,
    tls: Option<tokio_rustls::TlsAcceptor>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) {
    let mut app = Router::new()
        .route("/ws", get(upgrade::<C>))
        .route("/connect.json", get(connect_json::<C>))
        .route("/metrics", get(metrics::<C>));
    for &(path, mime, body) in FILES {
        app = app.route(path, get(move || async move { ([(header::CONTENT_TYPE, mime)], body) }));
    }
    let (admission, proxies) = (shared.admission.clone(), shared.proxies.clone());
    let header_timeout = Duration::from_millis(shared.config.http_header_timeout_ms);
    let app = crate::transport::headers::secured(app.with_state(shared), tls.is_some());
    let settings = http_accept::Settings { header_timeout, proxies, tls };
    http_accept::serve(listener, app, admission, settings, shutdown).await;
}

/// `/metrics`: the server's metrics in the OpenMetrics text exposition (Prometheus scrapes it),
/// for the addresses of `metrics_allowed` (others are told there is nothing here).
async fn metrics<C: Conversation>(
    State(shared): State<Shared<C>>,
    Extension(client): Extension<ClientAddr>,
) -> Response {
    if !shared.metrics_allowed.iter().any(|net| net.contains(&client.ip)) {
        return (StatusCode::NOT_FOUND, "not found").into_response();
    }
    let content_type = "application/openmetrics-text; version=1.0.0; charset=utf-8";
    (
        [(header::CONTENT_TYPE, content_type), (header::CACHE_CONTROL, "no-store")],
        shared.conversation.metrics_text(),
    )
        .into_response()
}

/// Binds the HTTP address of the config, if any.
pub(crate) async fn bind(config: &ServerConfig) -> anyhow::Result<Option<tokio::net::TcpListener>> {
    if config.http_listen.is_empty() {
        return Ok(None);
    }
    let addr: SocketAddr = config.http_listen.parse()?;
    Ok(Some(tokio::net::TcpListener::bind(addr).await?))
}

/// Upgrades to a WebSocket session if the connection is admitted (503 otherwise: the server or
/// this address holds as many connections as it may).
async fn upgrade<C: Conversation>(
    ws: WebSocketUpgrade,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Extension(client): Extension<ClientAddr>,
    State(shared): State<Shared<C>>,
    headers: HeaderMap,
) -> Response {
    let remote = client.ip;
    if !origin_allowed(&headers, &shared.config.allowed_origins) {
        tracing::warn!(%remote, %peer, origin = ?headers.get(header::ORIGIN), "WebSocket from a foreign origin refused");
        return (StatusCode::FORBIDDEN, "this page's origin may not open a session here (allowed_origins)")
            .into_response();
    }
    // The connection holds its places already (`http_accept`); a proxy's session takes its
    // client's place now.
    let place = if client.proxied { shared.admission.admit_address(remote).map(Some) } else { Ok(None) };
    let place = match place {
        Ok(place) => place,
        Err(limit) => {
            shared.admission.log_refused(limit, remote, "WebSocket");
            return (StatusCode::SERVICE_UNAVAILABLE, shared.admission.words(limit)).into_response();
        }
    };
    // A password would cross the network readable: the session refuses log-ins (`Peer::clear`).
    let clear = http_accept::in_clear(client, peer.ip(), &headers, &shared.plain_logins);
    let session_peer = Peer { ip: remote, clear };
    // A frame's header above MAX_FRAME is refused before its payload is read (tungstenite would
    // otherwise take frames of 16 MiB, and check a message's size only once it is whole).
    ws.max_frame_size(MAX_FRAME)
        .max_message_size(MAX_FRAME)
        .on_upgrade(move |socket| session(socket, shared.conversation, shared.config, place, session_peer))
        .into_response()
}

/// Whether an upgrade's `Origin` may open a session: absent (no browser), the server's own (its
/// `Host`, any scheme), or one of `allowed` (`https://chess.example.org`, compared without case).
fn origin_allowed(headers: &HeaderMap, allowed: &[String]) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else { return true };
    let Ok(origin) = origin.to_str() else { return false };
    if allowed.iter().any(|a| a.trim_end_matches('/').eq_ignore_ascii_case(origin)) {
        return true;
    }
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    let origin_host = origin.split_once("://").map(|(_, rest)| rest);
    matches!((origin_host, host), (Some(o), Some(h)) if o.eq_ignore_ascii_case(h))
}

/// A server message as one WebSocket frame: text for JSON, binary for bincode.
fn ws_frame(encoding: Encoding, msg: &Outgoing) -> Option<Message> {
    let payload = encoding.payload_of(msg)?.into_owned();
    Some(match encoding {
        Encoding::Json => Message::Text(Utf8Bytes::try_from(payload).ok()?),
        Encoding::Bincode => Message::Binary(payload.into()),
    })
}

/// A decoded client frame for the session, `None` for the end of the input, or why the input is
/// not the protocol.
type Incoming = Result<Option<ClientFrame>, String>;

/// Client frames arriving from the socket task.
struct Inbox(mpsc::Receiver<Incoming>);

impl Frames for Inbox {
    async fn next(&mut self) -> Result<Option<ClientFrame>, End> {
        match self.0.recv().await {
            Some(Ok(frame)) => Ok(frame),
            Some(Err(reason)) => Err(End::Protocol(reason)),
            None => Err(End::Done),
        }
    }
}

/// How long the last words (the messages still queued, a close frame) may take to leave once the
/// session is over.
const FAREWELL: Duration = Duration::from_secs(2);

/// One WebSocket session: a task moves frames between the socket and the session's channels;
/// the session itself is the transport-independent `converse`, in a task of its own.
///
/// The socket task never waits on the session while the session may be waiting on it: it
/// holds at most one incoming frame the session has not taken yet, reads the socket only when
/// it holds none, and hands that frame over only when the inbox has room (`reserve`), so it
/// keeps draining the session's outbound queue whatever the client sends. Each write to the
/// socket is bounded by the idle timeout: a client that stops reading is closed, not waited on.
async fn session(
    mut socket: WebSocket,
    conversation: Arc<impl Conversation>,
    config: Arc<ServerConfig>,
    place: Option<Held>,
    peer: Peer,
) {
    let _place = place;
    let _counted = conversation.metrics().connection(crate::service::metrics::Transport::Websocket);
    let (idle, keep) = (config.idle_timeout(), config.keep_alive());
    let (frames_tx, frames_rx) = mpsc::channel::<Incoming>(64);
    let (out, mut out_rx) =
        crate::service::outbound::Outbound::channel(crate::service::outbound::OUTBOUND_QUEUE);
    let mut talk = tokio::spawn(async move { conversation.converse(&mut Inbox(frames_rx), out, peer).await });
    let mut keep_alive = tokio::time::interval_at(Instant::now() + keep, keep);
    keep_alive.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut encoding = Encoding::Json;
    let mut first = true;
    // A frame read from the socket that the session has not taken yet.
    let mut pending: Option<Incoming> = None;
    // Whether the client's input goes on (not after a close, nor after a frame that is no message).
    let mut reading = true;
    let mut heard = Instant::now();
    // Each turn: 1. the session ended? 2. send what it queued, 3. hand it the pending frame,
    // 4. read the next frame if none is pending, 5. close an idle socket, 6. ping.
    let ended = loop {
        tokio::select! {
            biased;
            end = &mut talk => break Ended::Session(end.ok()),
            Some(msg) = out_rx.recv() => {
                if !deliver(&mut socket, encoding, &msg, idle).await {
                    tracing::debug!("a WebSocket client took no data for idle_timeout_ms; closing");
                    break Ended::Unwritable;
                }
            }
            permit = frames_tx.reserve(), if pending.is_some() => match permit {
                Ok(permit) => permit.send(pending.take().expect("a pending frame")),
                // The session stopped reading: it is ending, `talk` says how.
                Err(_) => (pending, reading) = (None, false),
            },
            incoming = socket.recv(), if reading && pending.is_none() => {
                heard = Instant::now();
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
                    Some(Ok(_)) => continue, // pings are answered by the library; pongs keep it alive
                    Some(Err(e)) => {
                        // Among them a frame above MAX_FRAME, refused from its header.
                        tracing::debug!(error = %e, "WebSocket input failed");
                        break Ended::Socket;
                    }
                };
                first = false;
                reading = matches!(decoded, Ok(Some(_)));
                pending = Some(decoded);
            }
            () = tokio::time::sleep_until(heard + idle) => {
                tracing::debug!("a WebSocket received nothing for idle_timeout_ms; closing");
                break Ended::Socket;
            }
            _ = keep_alive.tick() => {
                if !send(&mut socket, Message::Ping(axum::body::Bytes::new()), idle).await {
                    break Ended::Unwritable;
                }
            }
        }
    };
    drop(frames_tx);
    let end = match ended {
        Ended::Session(Some(end)) => end,
        Ended::Session(None) => End::Protocol("the session failed".into()),
        socket_side => {
            // Closed channels end the session (its reads end, and so do its writes, even into a
            // full queue); it is waited for, so nothing of it outlives the connection's permit.
            drop(out_rx);
            let _ = talk.await;
            if matches!(socket_side, Ended::Socket) {
                let _ = send(&mut socket, Message::Close(None), FAREWELL).await;
            }
            return;
        }
    };
    // The session ended: deliver what it still has to say (a refusal, the last replies), then
    // close with the reason if the input was not the protocol.
    while let Some(msg) = out_rx.try_recv() {
        if !deliver(&mut socket, encoding, &msg, FAREWELL).await {
            return;
        }
    }
    let close = match end {
        End::Protocol(reason) | End::Refused(reason) => Some(CloseFrame {
            code: 4002,
            reason: Utf8Bytes::from(reason.chars().take(120).collect::<String>()),
        }),
        // 4000 + the QUIC application code: the client resumes.
        End::Behind => {
            Some(CloseFrame { code: 4000 + CLOSE_BEHIND as u16, reason: Utf8Bytes::from_static(BEHIND) })
        }
        End::Ended => {
            Some(CloseFrame { code: 4000 + CLOSE_ENDED as u16, reason: Utf8Bytes::from_static(ENDED) })
        }
        End::Done => None,
    };
    let _ = send(&mut socket, Message::Close(close), FAREWELL).await;
}

/// Why a WebSocket's socket task stopped.
enum Ended {
    /// The session ended (`None`: its task failed).
    Session(Option<End>),
    /// The socket's input failed or went idle.
    Socket,
    /// The client took no data for the idle timeout: nothing more can be sent.
    Unwritable,
}

/// Sends one server message; `false` if the socket failed or took longer than `limit`.
async fn deliver(socket: &mut WebSocket, encoding: Encoding, msg: &Outgoing, limit: Duration) -> bool {
    match ws_frame(encoding, msg) {
        Some(frame) => send(socket, frame, limit).await,
        None => {
            tracing::warn!("a server message cannot be encoded; not sent");
            true
        }
    }
}

/// Sends one frame; `false` if the socket failed or took longer than `limit`.
async fn send(socket: &mut WebSocket, frame: Message, limit: Duration) -> bool {
    matches!(tokio::time::timeout(limit, socket.send(frame)).await, Ok(Ok(())))
}
