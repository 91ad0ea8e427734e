//! Browsers on the QUIC endpoint: a connection that negotiated ALPN `h3` is a WebTransport
//! session (HTTP/3 `CONNECT` on the path [`PATH`], accepted with `web-transport-quinn` on the
//! very connection the endpoint accepted). The session then runs on one bidirectional stream
//! the page opens, with the native framing (a big-endian `u32` length, then the payload) and
//! JSON payloads, the browser's encoding of the same `shvedka-proto` messages.

use std::sync::Arc;
use std::time::Duration;

use axum::http::StatusCode;

use crate::service::encoding::Encoding;
use crate::transport::frames::{BEHIND, CLOSE_BEHIND, CLOSE_ENDED, Conversation, ENDED, End, over_stream};

/// The path of the WebTransport session (the page finds it in `/connect.json`).
pub(crate) const PATH: &str = "/shvedka";

/// WebTransport session close codes: a clean end and a protocol violation.
const CLOSE_OK: u32 = 0;
const CLOSE_PROTOCOL: u32 = 2;

pub(crate) async fn serve(conn: quinn::Connection, conversation: Arc<impl Conversation>) {
    let remote = conn.remote_address();
    let hello_timeout = conversation.hello_timeout();
    let request =
        match tokio::time::timeout(hello_timeout, web_transport_quinn::Request::accept(conn.clone())).await {
            Ok(Ok(request)) => request,
            Ok(Err(e)) => {
                tracing::debug!(%remote, error = %e, "not a WebTransport session");
                conn.close(CLOSE_PROTOCOL.into(), b"expected a WebTransport session");
                return;
            }
            Err(_) => {
                conn.close(CLOSE_PROTOCOL.into(), b"no WebTransport request in time");
                return;
            }
        };
    if request.url.path() != PATH {
        tracing::debug!(%remote, url = %request.url, "WebTransport request for an unknown path");
        let _ = request.reject(StatusCode::NOT_FOUND).await;
        return;
    }
    let session = match request.ok().await {
        Ok(session) => session,
        Err(e) => {
            tracing::debug!(%remote, error = %e, "WebTransport session not established");
            return;
        }
    };
    let (send, recv) = match tokio::time::timeout(hello_timeout, session.accept_bi()).await {
        Ok(Ok(streams)) => streams,
        Ok(Err(_)) => return,
        Err(_) => {
            session.close(CLOSE_PROTOCOL, b"no session stream opened in time");
            return;
        }
    };
    match over_stream(send, recv, Encoding::Json, conversation.as_ref(), remote.ip()).await {
        End::Done => session.close(CLOSE_OK, b"bye"),
        End::Protocol(reason) | End::Refused(reason) => {
            tracing::info!(%remote, %reason, "closing WebTransport session");
            // Give the page a moment to read a refusal before the session goes.
            let _ = tokio::time::timeout(Duration::from_millis(500), session.closed()).await;
            let reason: String = reason.chars().take(200).collect();
            session.close(CLOSE_PROTOCOL, reason.as_bytes());
        }
        End::Behind => {
            tracing::info!(%remote, "closing a WebTransport session that cannot keep up");
            session.close(CLOSE_BEHIND, BEHIND.as_bytes());
        }
        End::Ended => {
            // Give the page a moment to read why before the session goes.
            let _ = tokio::time::timeout(Duration::from_millis(500), session.closed()).await;
            session.close(CLOSE_ENDED, ENDED.as_bytes());
        }
    }
}
