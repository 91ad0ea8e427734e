//! One connection: the handshake (version, name, new or resumed session), then a loop reading
//! client frames from the session's stream, rate-limited, each answered by one reply. Bytes that
//! are not a message close the connection with a reason; the server and every match carry on.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use shvedka_proto::{
    ClientFrame, ClientMsg, ErrorCode, ErrorMsg, FrameDecoder, PROTOCOL_VERSION, Reply, ServerMsg,
};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

use crate::ServerConfig;
use crate::convert::{self, error};
use crate::encoding::Encoding;
use crate::lobby::{Lobby, token_key};
use crate::room::{Outbound, RoomMsg, Session};

/// Application error codes of a closed connection.
const CLOSE_OK: u32 = 0;
const CLOSE_PROTOCOL: u32 = 2;

/// Why a connection ends.
pub(crate) enum End {
    /// The client finished the stream or closed the connection.
    Done,
    /// A protocol violation: close with code 2 and this reason.
    Protocol(String),
    /// The `Hello` was refused (the refusal is queued on the session's outbound channel).
    Refused(String),
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
    }
}

async fn run(conn: &quinn::Connection, lobby: &Arc<Lobby>, config: &ServerConfig) -> End {
    let hello_timeout = Duration::from_secs(config.hello_timeout_s);
    let (send, recv) = match tokio::time::timeout(hello_timeout, conn.accept_bi()).await {
        Ok(Ok(streams)) => streams,
        Ok(Err(_)) => return End::Done,
        Err(_) => return End::Protocol("no session stream opened in time".into()),
    };
    match over_stream(send, recv, Encoding::Bincode, lobby, config).await {
        End::Refused(reason) => {
            // Let the client read the refusal and close; then close ourselves.
            let _ = tokio::time::timeout(Duration::from_secs(2), conn.closed()).await;
            End::Protocol(reason)
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
) -> End {
    let (out, out_rx) = mpsc::channel::<ServerMsg>(1024);
    let writer = tokio::spawn(write_loop(send, encoding, out_rx));
    let mut reader = Reader { recv, encoding, decoder: FrameDecoder::new(), buf: vec![0; 16 * 1024] };
    let end = converse(&mut reader, out, lobby, config).await;
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
/// messages go to `out` too. Returns how it ended; a refused `Hello` is answered with `Refused`
/// and ends as [`End::Refused`] once `out` is dropped.
pub(crate) async fn converse(
    reader: &mut impl Frames,
    out: Outbound,
    lobby: &Arc<Lobby>,
    config: &ServerConfig,
) -> End {
    let hello_timeout = Duration::from_secs(config.hello_timeout_s);
    let first = match tokio::time::timeout(hello_timeout, reader.next()).await {
        Ok(Ok(Some(frame))) => frame,
        Ok(Ok(None)) => return End::Done,
        Ok(Err(end)) => return end,
        Err(_) => return End::Protocol("no Hello in time".into()),
    };
    let session = match handshake(lobby, first, &out).await {
        Ok(session) => session,
        Err(reason) => {
            let _ = out.send(ServerMsg::Refused { reason: reason.clone() }).await;
            return End::Refused(reason);
        }
    };
    tracing::debug!(name = %session.name, player = session.player.0, "session open");

    let mut bucket = TokenBucket::new(config.rate_per_second, config.rate_burst);
    loop {
        let frame = tokio::select! {
            read = reader.next() => match read {
                Ok(Some(frame)) => frame,
                Ok(None) => return End::Done,
                Err(end) => return end,
            },
            () = session.lagging.notified() => {
                return End::Protocol("the connection cannot keep up with the match; resume to catch up".into());
            }
        };
        let result = if bucket.take() {
            dispatch(lobby, &session, &out, frame.msg).await
        } else {
            Err(error(ErrorCode::RateLimited, "too many requests; slow down"))
        };
        if out.send(ServerMsg::Reply { req: frame.req, result }).await.is_err() {
            return End::Done;
        }
    }
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
            (lobby.session(&r.token).ok_or("unknown session token; start a new session")?, r.token.clone())
        }
        None => {
            let n = name.chars().count();
            if n == 0 || n > 32 || name.chars().any(char::is_control) {
                return Err("a name has 1 to 32 characters and no control characters".into());
            }
            lobby.new_session(name).await?
        }
    };
    let welcome = ServerMsg::Welcome {
        version: PROTOCOL_VERSION,
        token,
        resumed: resume.is_some(),
        server_time_us: lobby.started.elapsed().as_micros() as u64,
    };
    out.send(welcome).await.map_err(|_| "connection lost".to_owned())?;
    if let (Some(r), Some(id)) = (resume, session.room())
        && let Ok(room) = lobby.room(id)
    {
        let (reply, rx) = oneshot::channel();
        let msg = RoomMsg::Follow { session: session.clone(), out: out.clone(), last_seq: r.last_seq, reply };
        if room.tx.send(msg).await.is_ok() {
            let _ = rx.await;
        }
    }
    Ok(session)
}

async fn dispatch(
    lobby: &Arc<Lobby>,
    session: &Arc<Session>,
    out: &Outbound,
    msg: ClientMsg,
) -> Result<Reply, ErrorMsg> {
    match msg {
        ClientMsg::Hello { .. } => Err(error(ErrorCode::Handshake, "the session is already open")),
        ClientMsg::Ping { nonce } => {
            let pong = ServerMsg::Pong { nonce, server_time_us: lobby.started.elapsed().as_micros() as u64 };
            let _ = out.send(pong).await;
            Ok(Reply::Ok)
        }
        ClientMsg::ListMatches => Ok(Reply::Matches(lobby.list(false))),
        ClientMsg::Arbiter { token } => {
            grant(session, lobby.arbiter_key.as_deref(), &token, &session.arbiter, "arbiter")
        }
        ClientMsg::Director { token } => {
            grant(session, lobby.director_key.as_deref(), &token, &session.director, "director")
        }
        ClientMsg::Td(req) => {
            if !session.director.load(Ordering::Relaxed) {
                return Err(error(
                    ErrorCode::Forbidden,
                    "only a tournament director may do this: present the secret first",
                ));
            }
            tracing::info!(name = %session.name, ?req, "director command");
            lobby.tournaments.director(lobby, req).await
        }
        ClientMsg::Choose { tournament, round, game, choice } => lobby
            .tournaments
            .choose(lobby, &session.name, tournament, round, game, choice)
            .await
            .map(|()| Reply::Ok),
        ClientMsg::Assignment { tournament } => {
            let (game, finished) = lobby.tournaments.assignment(tournament, &session.name).await?;
            Ok(Reply::Assigned { game, finished })
        }
        ClientMsg::ListLive => {
            arbiter_only(session)?;
            Ok(Reply::Matches(lobby.list(true)))
        }
        ClientMsg::ArbiterAct { match_id, act } => {
            arbiter_only(session)?;
            let room = lobby.room(match_id)?;
            let act = convert::arbiter_act(act).map_err(|e| error(ErrorCode::BadRequest, e))?;
            tracing::info!(name = %session.name, match_id = %match_id, ?act, "arbiter act");
            let (reply, rx) = oneshot::channel();
            ask(&room.tx, rx, RoomMsg::Arbiter { act, reply }).await
        }
        ClientMsg::Record { match_id } => match lobby.record_of(match_id).await? {
            Some(bpgn) => Ok(Reply::Record { bpgn }),
            None => Err(error(ErrorCode::NoSuchMatch, format!("no match {match_id}"))),
        },
        ClientMsg::Legal { match_id, board } => {
            let room = lobby.room(match_id)?;
            let (reply, rx) = oneshot::channel();
            let board = convert::board(board);
            room.tx.send(RoomMsg::Legal { board, reply }).await.map_err(|_| gone())?;
            Ok(Reply::Legal(rx.await.map_err(|_| gone())?))
        }
        ClientMsg::CreateMatch { rules, time_control, listed } => {
            lobby.create(&rules, &time_control, listed).await.map(|match_id| Reply::Created { match_id })
        }
        ClientMsg::Watch { match_id } => {
            let room = lobby.room(match_id)?;
            leave_other(lobby, session, match_id).await?;
            let (reply, rx) = oneshot::channel();
            ask(
                &room.tx,
                rx,
                RoomMsg::Follow { session: session.clone(), out: out.clone(), last_seq: None, reply },
            )
            .await
        }
        ClientMsg::TakeSeat { match_id, .. } => {
            let room = lobby.room(match_id)?;
            leave_other(lobby, session, match_id).await?;
            let (reply, rx) = oneshot::channel();
            ask(&room.tx, rx, RoomMsg::Command { session: session.clone(), out: out.clone(), msg, reply })
                .await
        }
        msg => {
            let id = session.room().ok_or_else(|| error(ErrorCode::NotInMatch, "you follow no match"))?;
            let room = lobby.room(id)?;
            let (reply, rx) = oneshot::channel();
            ask(&room.tx, rx, RoomMsg::Command { session: session.clone(), out: out.clone(), msg, reply })
                .await
        }
    }
}

/// Stops following another match before following `id` (refused while playing there).
async fn leave_other(
    lobby: &Arc<Lobby>,
    session: &Arc<Session>,
    id: shvedka_proto::MatchId,
) -> Result<(), ErrorMsg> {
    match session.room() {
        Some(other) if other != id => {
            let Ok(room) = lobby.room(other) else { return Ok(()) };
            let (reply, rx) = oneshot::channel();
            ask(&room.tx, rx, RoomMsg::Unfollow { session: session.clone(), reply }).await.map(|_| ())
        }
        _ => Ok(()),
    }
}

/// Gives the session a role if `token` is the role's secret (whose SHA-256 is `key`; `None`
/// when the role is disabled).
fn grant(
    session: &Session,
    key: Option<&str>,
    token: &str,
    flag: &std::sync::atomic::AtomicBool,
    role: &str,
) -> Result<Reply, ErrorMsg> {
    if key.is_none_or(|key| key != token_key(token)) {
        tracing::warn!(name = %session.name, role, "refused a secret");
        return Err(error(
            ErrorCode::Forbidden,
            format!("not the {role}s' secret (or the role is disabled)"),
        ));
    }
    flag.store(true, Ordering::Relaxed);
    tracing::info!(name = %session.name, role, "role granted");
    Ok(Reply::Ok)
}

fn arbiter_only(session: &Session) -> Result<(), ErrorMsg> {
    if session.arbiter.load(Ordering::Relaxed) {
        Ok(())
    } else {
        Err(error(
            ErrorCode::Forbidden,
            "only an arbiter may do this: present the secret first (ClientMsg::Arbiter)",
        ))
    }
}

fn gone() -> ErrorMsg {
    error(ErrorCode::NoSuchMatch, "the match is gone")
}

async fn ask(
    tx: &mpsc::Sender<RoomMsg>,
    rx: oneshot::Receiver<Result<(), ErrorMsg>>,
    msg: RoomMsg,
) -> Result<Reply, ErrorMsg> {
    tx.send(msg).await.map_err(|_| gone())?;
    rx.await.map_err(|_| gone())?.map(|()| Reply::Ok)
}

async fn write_loop(
    mut send: impl AsyncWrite + Unpin,
    encoding: Encoding,
    mut rx: mpsc::Receiver<ServerMsg>,
) {
    while let Some(msg) = rx.recv().await {
        let Some(frame) = encoding.frame(&msg) else { continue };
        if send.write_all(&frame).await.is_err() {
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
