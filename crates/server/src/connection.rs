//! One connection: the handshake (version, name, new or resumed session), then a loop reading
//! client frames from the session's stream, rate-limited, each answered by one reply. Bytes that
//! are not a message close the connection with a reason; the server and every match carry on.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use shvedka_proto::{ClientFrame, ClientMsg, ErrorCode, FrameDecoder, PROTOCOL_VERSION, Resume, ServerMsg};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::oneshot;
use tokio::time::Instant;

use crate::config::ServerConfig;
use crate::dispatch::dispatch;
use crate::lobby::Lobby;
use crate::login::{self, After, is_account_request};
use crate::service::convert::error;
use crate::service::encoding::Encoding;
use crate::service::metrics::Refusal;
use crate::service::outbound::{Outbound, OutboundRx};
use crate::service::room::RoomMsg;
use crate::service::session::Session;

/// Application error codes of a closed connection.
const CLOSE_OK: u32 = 0;
const CLOSE_PROTOCOL: u32 = 2;
/// The connection could not keep up with what it was sent; the client resumes.
pub(crate) const CLOSE_BEHIND: u32 = 3;
/// The session ended for good (`ServerMsg::SessionEnded` says why); nothing resumes.
pub(crate) const CLOSE_ENDED: u32 = 4;

/// Why a connection of an ended session is closed (its close reason).
pub(crate) const ENDED: &str = "the session ended";

/// How long a logged-out connection is kept for its client to read the reply and close.
const LOGOUT_LINGER: Duration = Duration::from_secs(2);

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

pub(crate) async fn serve(conn: quinn::Connection, lobby: Arc<Lobby>, config: Arc<ServerConfig>) {
    let remote = conn.remote_address();
    let end = run(&conn, &lobby, &config).await;
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

async fn run(conn: &quinn::Connection, lobby: &Arc<Lobby>, config: &ServerConfig) -> End {
    let hello_timeout = Duration::from_secs(config.hello_timeout_s);
    let (send, recv) = match tokio::time::timeout(hello_timeout, conn.accept_bi()).await {
        Ok(Ok(streams)) => streams,
        Ok(Err(_)) => return End::Done,
        Err(_) => return End::Protocol("no session stream opened in time".into()),
    };
    match over_stream(send, recv, Encoding::Bincode, lobby, config, conn.remote_address().ip()).await {
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

/// A session on one bidirectional stream of length-prefixed frames (a native QUIC stream, or a
/// WebTransport stream). A refusal has been written out when this returns `End::Refused`.
pub(crate) async fn over_stream(
    send: impl AsyncWrite + Unpin + Send + 'static,
    recv: impl AsyncRead + Unpin,
    encoding: Encoding,
    lobby: &Arc<Lobby>,
    config: &ServerConfig,
    remote: IpAddr,
) -> End {
    let (out, out_rx) = Outbound::channel(crate::service::outbound::OUTBOUND_QUEUE);
    let writer = tokio::spawn(write_loop(send, encoding, out_rx));
    let mut reader = Reader { recv, encoding, decoder: FrameDecoder::new(), buf: vec![0; 16 * 1024] };
    let end = converse(&mut reader, out, lobby, config, remote).await;
    if matches!(end, End::Refused(_)) {
        let _ = writer.await;
    }
    end
}

/// Where a session's client frames come from: a QUIC or WebTransport stream, a WebSocket.
pub(crate) trait Frames {
    /// The next client frame; `None` when the client ended the session cleanly.
    async fn next(&mut self) -> Result<Option<ClientFrame>, End>;
}

/// The session over any transport: `Hello`, then one reply per frame, rate-limited; pushed
/// messages go to `out` too. One request is served at a time: the next frame is read only once
/// the previous one is answered, so a session holds at most one pending request (what the
/// client sends meanwhile waits in the transport's flow-control window). Returns how it ended;
/// a refused `Hello` is answered with `Refused` and ends as [`End::Refused`] once `out` is
/// dropped. `remote` is the client's address (log-in attempts are counted per address).
pub(crate) async fn converse(
    reader: &mut impl Frames,
    out: Outbound,
    lobby: &Arc<Lobby>,
    config: &ServerConfig,
    remote: IpAddr,
) -> End {
    let hello_timeout = Duration::from_secs(config.hello_timeout_s);
    let first = match tokio::time::timeout(hello_timeout, reader.next()).await {
        Ok(Ok(Some(frame))) => frame,
        Ok(Ok(None)) => return End::Done,
        Ok(Err(end)) => return end,
        Err(_) => return End::Protocol("no Hello in time".into()),
    };
    let mut session = match handshake(lobby, first, &out).await {
        Ok(session) => session,
        Err(reason) => {
            let _ = out.send(ServerMsg::Refused { reason: reason.clone() }).await;
            return End::Refused(reason);
        }
    };
    tracing::debug!(name = %session.name, player = session.player.0, "session open");
    lobby.seeks.connected(&session, &out).await;
    let end = serve_session(reader, &out, lobby, config, &mut session, remote).await;
    // A seek lives only while its players are connected.
    lobby.seeks.disconnected(&session, &out).await;
    if let Some(cluster) = &lobby.cluster {
        // The match's node counts the player gone, as it would a connection of its own.
        cluster.relays.connection_closed(&session, &out);
    }
    lobby.sessions.release(&session).await;
    end
}

async fn serve_session(
    reader: &mut impl Frames,
    out: &Outbound,
    lobby: &Arc<Lobby>,
    config: &ServerConfig,
    session: &mut Arc<Session>,
    remote: IpAddr,
) -> End {
    let mut bucket = TokenBucket::new(config.rate_per_second, config.rate_burst);
    // A client that stops reading its replies is behind like one that stops reading events.
    let reply_wait = config.idle_timeout();
    loop {
        let frame = tokio::select! {
            read = reader.next() => match read {
                Ok(Some(frame)) => frame,
                Ok(None) => return End::Done,
                Err(end) => return end,
            },
            () = out.fallen_behind() => return behind(lobby),
            reason = session.ended() => return ended(out, reason).await,
        };
        let (result, after) = if !bucket.take() {
            lobby.metrics.refused(Refusal::RateLimited);
            (Err(error(ErrorCode::RateLimited, "too many requests; slow down")), After::Continue)
        } else if is_account_request(&frame.msg) {
            let before = session.clone();
            let served = login::serve(lobby, session, frame.msg, remote).await;
            if !Arc::ptr_eq(&before, session) {
                // Logged in: the connection serves another session; the guest's seeks end.
                lobby.seeks.disconnected(&before, out).await;
                lobby.seeks.connected(session, out).await;
                if let Some(cluster) = &lobby.cluster {
                    cluster.relays.connection_closed(&before, out);
                }
            }
            served
        } else {
            (dispatch(lobby, session, out, frame.msg).await, After::Continue)
        };
        let reply = ServerMsg::Reply { req: frame.req, result };
        tokio::select! {
            sent = tokio::time::timeout(reply_wait, out.send(reply)) => match sent {
                Ok(Ok(())) => {}
                Ok(Err(_)) => return End::Done,
                Err(_) => return behind(lobby),
            },
            () = out.fallen_behind() => return behind(lobby),
        }
        if after == After::Close {
            // Logged out: the reply is on its way; the client closes once it has it (frames it
            // sends meanwhile are not answered), and one that does not is closed after a while.
            let drain = async { while let Ok(Some(_)) = reader.next().await {} };
            let _ = tokio::time::timeout(LOGOUT_LINGER, drain).await;
            return End::Done;
        }
    }
}

/// Tells the client its session ended, and why.
async fn ended(out: &Outbound, reason: shvedka_proto::SessionEnd) -> End {
    let told = out.send(ServerMsg::SessionEnded { reason });
    let _ = tokio::time::timeout(Duration::from_secs(1), told).await;
    End::Ended
}

fn behind(lobby: &Lobby) -> End {
    lobby.metrics.fell_behind();
    End::Behind
}

/// Checks `Hello` and opens (or resumes) the session; the `Welcome` is queued before any match
/// message of a resumed session.
async fn handshake(lobby: &Arc<Lobby>, first: ClientFrame, out: &Outbound) -> Result<Arc<Session>, String> {
    let ClientMsg::Hello { version, name, resume } = first.msg else {
        return Err("the first message must be Hello".into());
    };
    if version != PROTOCOL_VERSION {
        return Err(format!(
            "protocol version {version} is not supported; this server speaks {PROTOCOL_VERSION}"
        ));
    }
    let (session, token) = match &resume {
        Some(r) => {
            let session = lobby.sessions.resume(&r.token).await?;
            if let Some(account) = session.account {
                let row = lobby.accounts.account(account).await;
                if !matches!(row, Ok(Some(ref a)) if !a.disabled) {
                    lobby.sessions.release(&session).await;
                    return Err(match row {
                        Err(e) => e.message,
                        Ok(_) => "the account is disabled".to_owned(),
                    });
                }
                if let Ok(Some(a)) = &row
                    && a.bot
                {
                    session.bot.store(true, std::sync::atomic::Ordering::Relaxed);
                }
            }
            (session, r.token.clone())
        }
        None => {
            // A guest: any name of at most 32 characters without control characters that is not
            // registered (empty: the server names the guest); an account logs in next.
            if name.chars().count() > 32 || name.chars().any(char::is_control) {
                return Err("a name has at most 32 characters and no control characters".into());
            }
            if lobby.accounts.is_registered(&name).await.map_err(|e| e.message)? {
                return Err(format!(
                    "the name {name} is registered: log in (Login) from a session of another name, or leave the name empty"
                ));
            }
            lobby.sessions.open(name, None).await?
        }
    };
    let welcome = ServerMsg::Welcome {
        version: PROTOCOL_VERSION,
        token,
        resumed: resume.is_some(),
        server_time_us: lobby.server_time_us(),
    };
    if out.send(welcome).await.is_err() {
        lobby.sessions.release(&session).await;
        return Err("connection lost".to_owned());
    }
    if let Some(r) = resume {
        follow_again(lobby, &session, out, r).await;
    }
    Ok(session)
}

/// A resumed session follows its match again from the last event its client has: the match it
/// follows here, or (cluster mode) the one its client names, on whichever node runs it.
async fn follow_again(lobby: &Arc<Lobby>, session: &Arc<Session>, out: &Outbound, r: Resume) {
    let named = r.match_id.filter(|_| lobby.cluster.is_some());
    let Some(id) = session.room().or(named) else { return };
    let followed = match (lobby.rooms.room(id), &lobby.cluster) {
        (Ok(room), _) => {
            let (reply, rx) = oneshot::channel();
            let msg =
                RoomMsg::Follow { session: session.clone(), out: out.clone(), last_seq: r.last_seq, reply };
            room.tx.send(msg).await.is_ok() && matches!(rx.await, Ok(Ok(())))
        }
        (Err(_), Some(cluster)) => {
            // A private match's id named by a client that may not reach it is not followed.
            matches!(crate::dispatch::reaches(lobby, session, id).await, Ok(true))
                && cluster.relays.follow_again(session, out, id, r.last_seq).await
        }
        (Err(_), None) => false,
    };
    if !followed {
        // Its match closed meanwhile (decided, expired): the client learns it by asking.
        session.leave_room(id);
    }
}

/// The most bytes of frames gathered into one write.
const WRITE_BATCH: usize = 64 * 1024;

/// Writes each queued message as one frame; what is queued at once goes out in one write (one
/// wake-up of the QUIC connection, often one packet: a move's reply and its event). A reply too
/// large for a frame has already become a refusal (`Encoding::payload`); any other message that
/// cannot be encoded ends the connection (logged there), and the client resumes.
async fn write_loop(mut send: impl AsyncWrite + Unpin, encoding: Encoding, mut rx: OutboundRx) {
    let mut buf = Vec::with_capacity(4 * 1024);
    while let Some(first) = rx.recv().await {
        buf.clear();
        let mut next = Some(first);
        while let Some(msg) = next.take() {
            if !encoding.append_frame(&msg, &mut buf) {
                return;
            }
            if buf.len() < WRITE_BATCH {
                next = rx.try_recv().ok();
            }
        }
        if send.write_all(&buf).await.is_err() {
            return;
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

impl<R: AsyncRead + Unpin> Frames for Reader<R> {
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

/// A token bucket: `rate` requests per second on average, `burst` at once.
struct TokenBucket {
    rate: f64,
    burst: f64,
    tokens: f64,
    at: Instant,
}

impl TokenBucket {
    fn new(rate: u32, burst: u32) -> TokenBucket {
        let burst = f64::from(burst.max(1));
        TokenBucket { rate: f64::from(rate), burst, tokens: burst, at: Instant::now() }
    }

    fn take(&mut self) -> bool {
        let now = Instant::now();
        self.tokens = (self.tokens + now.duration_since(self.at).as_secs_f64() * self.rate).min(self.burst);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::encoding::Shared;

    #[tokio::test]
    async fn queued_messages_go_out_as_frames_in_order_however_they_are_gathered() {
        let (out, rx) = Outbound::channel(crate::service::outbound::OUTBOUND_QUEUE);
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
