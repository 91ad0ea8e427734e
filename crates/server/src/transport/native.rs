//! Native clients on the QUIC endpoint (ALPN `shvedka/1`): one bidirectional stream per
//! connection carries the session's length-prefixed bincode frames; how the session ends
//! decides the connection's close code.

use std::sync::Arc;
use std::time::Duration;

use super::frames::{
    BEHIND, CLOSE_BEHIND, CLOSE_ENDED, CLOSE_OK, CLOSE_PROTOCOL, Conversation, ENDED, End, over_stream,
};
use crate::service::encoding::Encoding;

pub(crate) async fn serve(conn: quinn::Connection, conversation: Arc<impl Conversation>) {
    let remote = conn.remote_address();
    let end = run(&conn, conversation.as_ref()).await;
    match end {
        End::Done => conn.close(CLOSE_OK.into(), b"bye"),
        End::Protocol(reason) | End::Refused(reason) => {
            tracing::info!(%remote, %reason, "closing connection");
            let reason: String = reason.chars().take(200).collect();
            conn.close(CLOSE_PROTOCOL.into(), reason.as_bytes());
        }
        End::Behind => {
            tracing::info!(%remote, "closing a connection that cannot keep up");
            conn.close(CLOSE_BEHIND.into(), BEHIND.as_bytes());
        }
        End::Ended => conn.close(CLOSE_ENDED.into(), ENDED.as_bytes()),
    }
}

async fn run(conn: &quinn::Connection, conversation: &impl Conversation) -> End {
    let hello_timeout = conversation.hello_timeout();
    let (send, recv) = match tokio::time::timeout(hello_timeout, conn.accept_bi()).await {
        Ok(Ok(streams)) => streams,
        Ok(Err(_)) => return End::Done,
        Err(_) => return End::Protocol("no session stream opened in time".into()),
    };
    match over_stream(send, recv, Encoding::Bincode, conversation, conn.remote_address().ip()).await {
        End::Refused(reason) => {
            // Let the client read the refusal and close; then close ourselves.
            let _ = tokio::time::timeout(Duration::from_secs(2), conn.closed()).await;
            End::Protocol(reason)
        }
        End::Ended => {
            // Let the client read why; then close.
            let _ = tokio::time::timeout(Duration::from_secs(1), conn.closed()).await;
            End::Ended
        }
        end => end,
    }
}
