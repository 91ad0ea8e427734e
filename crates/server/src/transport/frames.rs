//! A session's frames on any transport, and what serves the session. A transport (a native QUIC
//! stream, a WebTransport stream, a WebSocket) turns bytes into client frames ([`Frames`]) and
//! drains the session's [`Outbound`] queue; the session itself — handshake, requests, replies —
//! is served by the layer above through [`Conversation`], which the transports know only as that
//! trait. How a session ends ([`End`]) decides how its transport closes.

use std::future::Future;
use std::net::IpAddr;

use shvedka_proto::{ClientFrame, FrameDecoder};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

use crate::service::encoding::Encoding;
use crate::service::metrics::Metrics;
use crate::service::outbound::{OUTBOUND_QUEUE, Outbound, OutboundRx};

/// Application error codes of a closed connection.
pub(crate) const CLOSE_OK: u32 = 0;
pub(crate) const CLOSE_PROTOCOL: u32 = 2;
/// The connection could not keep up with what it was sent; the client resumes.
pub(crate) const CLOSE_BEHIND: u32 = 3;
/// The session ended for good (`ServerMsg::SessionEnded` says why); nothing resumes.
pub(crate) const CLOSE_ENDED: u32 = 4;

/// Why a connection of an ended session is closed (its close reason).
pub(crate) const ENDED: &str = "the session ended";

/// Why a connection that cannot keep up is closed (its close reason).
pub(crate) const BEHIND: &str = "cannot keep up";

/// Why a connection ends.
pub(crate) enum End {
    /// The client finished the stream or closed the connection.
    Done,
    /// A protocol violation: close with code 2 and this reason.
    Protocol(String),
    /// The `Hello` was refused (the refusal is queued on the session's outbound channel).
    Refused(String),
    /// The connection cannot keep up with its match or its own replies: close with code 3
    /// ([`CLOSE_BEHIND`]); the client resumes from the last event it has.
    Behind,
    /// The session ended for good (logged out elsewhere, its password changed, its account
    /// disabled): `SessionEnded` is queued; close with code 4 ([`CLOSE_ENDED`]).
    Ended,
}

/// Where a session's client frames come from: a QUIC or WebTransport stream, a WebSocket.
pub(crate) trait Frames: Send {
    /// The next client frame; `None` when the client ended the session cleanly.
    fn next(&mut self) -> impl Future<Output = Result<Option<ClientFrame>, End>> + Send;
}

/// Who a session talks to: the client's address, and whether what it sends crosses the network
/// readable (a WebSocket over plain HTTP from another machine, `web.rs`): such a session is
/// refused log-ins, registrations and password changes (`ErrorCode::Unencrypted`). QUIC and
/// WebTransport are always TLS.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Peer {
    pub(crate) ip: IpAddr,
    pub(crate) clear: bool,
}

impl Peer {
    /// A client over TLS.
    pub(crate) fn encrypted(ip: IpAddr) -> Peer {
        Peer { ip, clear: false }
    }
}

/// What serves the sessions the transports carry (`connection.rs`, above them).
pub(crate) trait Conversation: Send + Sync + 'static {
    /// Serves one session: its client frames come from `reader`, and everything it sends goes
    /// to `out`. `peer` is the client. Returns how it ended; a refused `Hello` is answered with
    /// `Refused` and ends as [`End::Refused`] once `out` is dropped.
    fn converse(
        &self,
        reader: &mut impl Frames,
        out: Outbound,
        peer: Peer,
    ) -> impl Future<Output = End> + Send;

    /// How long a new connection has to open its session (`hello_timeout_s`).
    fn hello_timeout(&self) -> std::time::Duration;

    /// The server's metrics: the transports count connections and refusals there.
    fn metrics(&self) -> &Metrics;

    /// The metrics page, with the live counts as of now (`/metrics`).
    fn metrics_text(&self) -> String;
}

/// A session on one bidirectional stream of length-prefixed frames (a native QUIC stream, or a
/// WebTransport stream). A refusal has been written out when this returns `End::Refused`.
pub(crate) async fn over_stream(
    send: impl AsyncWrite + Unpin + Send + 'static,
    recv: impl AsyncRead + Unpin + Send,
    encoding: Encoding,
    conversation: &impl Conversation,
    remote: IpAddr,
) -> End {
    let (out, out_rx) = Outbound::channel(OUTBOUND_QUEUE);
    let writer = tokio::spawn(write_loop(send, encoding, out_rx));
    let mut reader = Reader { recv, encoding, decoder: FrameDecoder::new(), buf: vec![0; READ_CHUNK] };
    let end = conversation.converse(&mut reader, out, Peer::encrypted(remote)).await;
    if matches!(end, End::Refused(_)) {
        let _ = writer.await;
    }
    end
}

/// The most bytes taken from a connection's stream at a time. A client's frames are small (a
/// move is under 100 bytes), and the buffer is held by every connection for its life: 16 KiB of
/// it was 64 KiB a match (heap profile, issue 34), 1 KiB still 4 KiB. A larger frame is read in
/// several takes.
const READ_CHUNK: usize = 512;

/// The most bytes of frames gathered into one write.
const WRITE_BATCH: usize = 64 * 1024;

/// The most bytes a connection's writer keeps between writes. It is held for the connection's
/// life: 4 KiB of it from the start was 16 KiB a match, and a batch is mostly a reply and an
/// event of a few hundred bytes (heap profile, issue 34). A larger batch (a state, a record)
/// gets its buffer back after its write.
const WRITE_KEPT: usize = 2 * 1024;

/// Writes each queued message as one frame; what is queued at once goes out in one write (one
/// wake-up of the QUIC connection, often one packet: a move's reply and its event). A reply too
/// large for a frame has already become a refusal (`Encoding::payload`); any other message that
/// cannot be encoded ends the connection (logged there), and the client resumes.
async fn write_loop(mut send: impl AsyncWrite + Unpin, encoding: Encoding, mut rx: OutboundRx) {
    let mut buf = Vec::new();
    while let Some(first) = rx.recv().await {
        buf.clear();
        let mut next = Some(first);
        while let Some(msg) = next.take() {
            if !encoding.append_frame(&msg, &mut buf) {
                return;
            }
            if buf.len() < WRITE_BATCH {
                next = rx.try_recv();
            }
        }
        if send.write_all(&buf).await.is_err() {
            return;
        }
        if buf.capacity() > WRITE_KEPT {
            buf = Vec::new();
        }
    }
    let _ = send.shutdown().await;
}

struct Reader<R> {
    recv: R,
    encoding: Encoding,
    decoder: FrameDecoder,
    buf: Vec<u8>,
}

impl<R: AsyncRead + Unpin + Send> Frames for Reader<R> {
    /// The next client frame; `None` when the client finished the stream between frames.
    async fn next(&mut self) -> Result<Option<ClientFrame>, End> {
        loop {
            match self.decoder.next_payload() {
                Ok(Some(payload)) => return self.encoding.decode(&payload).map(Some).map_err(End::Protocol),
                Ok(None) => {}
                Err(e) => return Err(End::Protocol(e.to_string())),
            }
            match self.recv.read(&mut self.buf).await {
                Ok(0) => {
                    return self.decoder.finish().map(|()| None).map_err(|e| End::Protocol(e.to_string()));
                }
                Ok(n) => self.decoder.push(&self.buf[..n]),
                Err(_) => return Err(End::Done),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use shvedka_proto::ServerMsg;

    use super::*;
    use crate::service::encoding::Shared;

    #[tokio::test]
    async fn queued_messages_go_out_as_frames_in_order_however_they_are_gathered() {
        let (out, rx) = Outbound::channel(OUTBOUND_QUEUE);
        let pong = |nonce| ServerMsg::Pong { nonce, server_time_us: 0 };
        let shared = Shared::new(pong(2));
        // Queued before the writer runs: one write carries them all.
        assert!(out.push(pong(1)) && out.push_shared(&shared) && out.push(pong(3)));
        let (client, server) = tokio::io::duplex(64 * 1024);
        let writer = tokio::spawn(write_loop(server, Encoding::Bincode, rx));
        assert!(out.push_shared(&shared), "and one queued later");
        drop(out);
        writer.await.unwrap();
        let mut bytes = Vec::new();
        let mut client = client;
        client.read_to_end(&mut bytes).await.unwrap();
        let mut decoder = FrameDecoder::new();
        decoder.push(&bytes);
        let mut got = Vec::new();
        while let Some(payload) = decoder.next_payload().unwrap() {
            got.push(shvedka_proto::decode::<ServerMsg>(&payload).unwrap());
        }
        assert_eq!(got, vec![pong(1), pong(2), pong(3), pong(2)]);
    }
}
