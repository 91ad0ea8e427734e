//! One connection: the handshake (version, name, new or resumed session), then a loop reading
//! client frames from the session's stream, rate-limited, each answered by one reply. Bytes that
//! are not a message close the connection with a reason; the server and every match carry on.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use shvedka_proto::{
    ClientFrame, ClientMsg, ErrorCode, ErrorMsg, Invalid, PROTOCOL_VERSION, Resume, ServerMsg, SessionRefusal,
};
use tokio::sync::oneshot;
use tokio::time::Instant;

use crate::config::ServerConfig;
use crate::dispatch::dispatch;
use crate::lobby::Lobby;
use crate::login::{self, After, is_account_request};
use crate::service::convert::error;
use crate::service::metrics::{Metrics, Refusal as MetricRefusal};
use crate::service::outbound::Outbound;
use crate::service::room::RoomMsg;
use crate::service::session::{Session, refused};
use crate::transport::frames::{Conversation, End, Frames, Peer};

/// How long a logged-out connection is kept for its client to read the reply and close.
const LOGOUT_LINGER: Duration = Duration::from_secs(2);

/// The server's sessions, as the transports see them.
pub(crate) struct Connections {
    pub(crate) lobby: Arc<Lobby>,
    pub(crate) config: Arc<ServerConfig>,
}

impl Conversation for Connections {
    fn converse(
        &self,
        reader: &mut impl Frames,
        out: Outbound,
        peer: Peer,
    ) -> impl std::future::Future<Output = End> + Send {
        converse(reader, out, &self.lobby, &self.config, peer)
    }

    fn hello_timeout(&self) -> Duration {
        Duration::from_secs(self.config.hello_timeout_s)
    }

    fn metrics(&self) -> &Metrics {
        &self.lobby.metrics
    }

    fn metrics_text(&self) -> String {
        self.lobby.metrics_text()
    }
}

/// The session over any transport: `Hello`, then one reply per frame, rate-limited; pushed
/// messages go to `out` too. One request is served at a time: the next frame is read only once
/// the previous one is answered, so a session holds at most one pending request (what the
/// client sends meanwhile waits in the transport's flow-control window). Returns how it ended;
/// a refused `Hello` is answered with `Refused` and ends as [`End::Refused`] once `out` is
/// dropped. `peer` is the client (log-in attempts are counted per address; a client in clear
/// may not send a password or an official's secret).
async fn converse(
    reader: &mut impl Frames,
    out: Outbound,
    lobby: &Arc<Lobby>,
    config: &ServerConfig,
    peer: Peer,
) -> End {
    let remote = peer.ip;
    let hello_timeout = Duration::from_secs(config.hello_timeout_s);
    let first = match tokio::time::timeout(hello_timeout, reader.next()).await {
        Ok(Ok(Some(frame))) => frame,
        Ok(Ok(None)) => return End::Done,
        Ok(Err(end)) => return end,
        Err(_) => return End::Protocol("no Hello in time".into()),
    };
    // Boxed, as are the requests served below: each lives for one request, and inline they would
    // be part of every connection's task for its whole life (see `a_waiting_session_holds_…`).
    let mut session = match Box::pin(handshake(lobby, first, &out, remote)).await {
        Ok(session) => session,
        Err(Refusal::Version(reason)) => {
            let _ = out.send(ServerMsg::Refused { reason: reason.clone() }).await;
            return End::Refused(reason);
        }
        Err(Refusal::Session(why)) => {
            let reason = why.message.clone();
            let _ = out.send(ServerMsg::SessionRefused(why)).await;
            return End::Refused(reason);
        }
    };
    tracing::debug!(name = %session.name, player = session.player.0, "session open");
    lobby.seeks.connected(&session, &out).await;
    let end = serve_session(reader, &out, lobby, config, &mut session, peer).await;
    // A seek lives only while its players are connected.
    lobby.seeks.disconnected(&session, &out).await;
    lobby.tournaments.unfollow(&out);
    // The match's node counts the player gone, as it would a connection of its own.
    lobby.placement.connection_closed(&session, &out);
    lobby.sessions.release(&session).await;
    end
}

async fn serve_session(
    reader: &mut impl Frames,
    out: &Outbound,
    lobby: &Arc<Lobby>,
    config: &ServerConfig,
    session: &mut Arc<Session>,
    peer: Peer,
) -> End {
    let remote = peer.ip;
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
            lobby.metrics.refused(MetricRefusal::RateLimited);
            (Err(error(ErrorCode::RateLimited, "too many requests; slow down")), After::Continue)
        } else if peer.clear && carries_secret(&frame.msg) {
            lobby.metrics.refused(MetricRefusal::Unencrypted);
            let words =
                "a password or secret may not cross the network unencrypted: open the server's https:// page";
            (Err(error(ErrorCode::Unencrypted, words)), After::Continue)
        } else if is_account_request(&frame.msg) {
            let before = session.clone();
            let served = Box::pin(login::serve(lobby, session, frame.msg, remote)).await;
            if !Arc::ptr_eq(&before, session) {
                // Logged in: the connection serves another session; the guest's seeks end.
                lobby.seeks.disconnected(&before, out).await;
                lobby.seeks.connected(session, out).await;
                lobby.placement.connection_closed(&before, out);
            }
            served
        } else {
            (Box::pin(dispatch(lobby, session, out, frame.msg, remote)).await, After::Continue)
        };
        // A locked-out address's attempts (passwords, roles' secrets) are counted as refused.
        if matches!(&result, Err(e) if e.code == ErrorCode::Limit(shvedka_proto::Limit::LoginAttempts)) {
            lobby.metrics.refused(MetricRefusal::LoginAttempts);
        }
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

/// The longest guest name, in characters.
const GUEST_NAME_MAX: usize = 32;

/// Whether a request carries a password or an official's secret, which a client in clear may not
/// send (the refusal comes once it has crossed, but before it is used: the client is told to
/// use HTTPS, and a server that accepted it would teach its users to type passwords into a page
/// anyone on the network can read).
fn carries_secret(msg: &ClientMsg) -> bool {
    matches!(
        msg,
        ClientMsg::Register { .. }
            | ClientMsg::Login { .. }
            | ClientMsg::ChangePassword { .. }
            | ClientMsg::Arbiter { .. }
            | ClientMsg::Director { .. }
    )
}

/// Why a `Hello` opened no session.
enum Refusal {
    /// Another protocol version: `ServerMsg::Refused`, which every version's client reads.
    Version(String),
    /// Anything else: `ServerMsg::SessionRefused`.
    Session(ErrorMsg),
}

impl From<ErrorMsg> for Refusal {
    fn from(e: ErrorMsg) -> Refusal {
        Refusal::Session(e)
    }
}

/// Checks `Hello` and opens (or resumes) the session; the `Welcome` is queued before any match
/// message of a resumed session.
async fn handshake(
    lobby: &Arc<Lobby>,
    first: ClientFrame,
    out: &Outbound,
    remote: IpAddr,
) -> Result<Arc<Session>, Refusal> {
    let ClientMsg::Hello { version, name, resume } = first.msg else {
        return Err(Refusal::Session(refused(
            SessionRefusal::NotHello,
            "the first message must be Hello".into(),
        )));
    };
    if version != PROTOCOL_VERSION {
        return Err(Refusal::Version(format!(
            "protocol version {version} is not supported; this server speaks {PROTOCOL_VERSION}"
        )));
    }
    let (session, token) = match &resume {
        Some(r) => {
            let session = lobby.sessions.resume(&r.token).await?;
            if let Some(account) = session.account {
                let row = lobby.accounts.account(account).await;
                if !matches!(row, Ok(Some(ref a)) if !a.disabled) {
                    lobby.sessions.release(&session).await;
                    return Err(Refusal::Session(match row {
                        Err(e) => e,
                        Ok(_) => refused(SessionRefusal::AccountDisabled, "the account is disabled".into()),
                    }));
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
            // A guest: any name of at most 32 characters without characters that hide or reorder
            // text, nor the star that marks the server's own bots (`bot_names.rs`), that is not
            // registered (empty: the server names the guest); an account logs in next.
            if name.chars().count() > GUEST_NAME_MAX
                || crate::service::text::hides(&name)
                || name.contains(crate::service::bot_names::LEVEL_MARK)
            {
                return Err(Refusal::Session(ErrorMsg {
                    code: ErrorCode::Invalid(Invalid::GuestName { max: GUEST_NAME_MAX as u32 }),
                    rule: None,
                    message: format!(
                        "a name has at most {GUEST_NAME_MAX} characters, no control, bidirectional or invisible characters, and no ★ (the server's bots' mark)"
                    ),
                }));
            }
            if lobby.accounts.is_registered(&name).await? {
                return Err(Refusal::Session(refused(
                    SessionRefusal::NameRegistered,
                    format!(
                        "the name {name} is registered: log in (Login) from a session of another name, or leave the name empty"
                    ),
                )));
            }
            if let Err(reason) = lobby.accounts.new_guest(remote) {
                lobby.metrics.refused(MetricRefusal::Guests);
                return Err(Refusal::Session(refused(SessionRefusal::TooManyGuests, reason)));
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
        return Err(Refusal::Session(refused(SessionRefusal::ConnectionLost, "connection lost".into())));
    }
    if let Some(r) = resume {
        follow_again(lobby, &session, out, r).await;
    }
    Ok(session)
}

/// A resumed session follows its match again from the last event its client has: the match it
/// follows here, or (when other processes serve too: a cluster) the one its client names,
/// wherever it runs.
async fn follow_again(lobby: &Arc<Lobby>, session: &Arc<Session>, out: &Outbound, r: Resume) {
    let named = r.match_id.filter(|&id| lobby.placement.may_run_elsewhere(id));
    let Some(id) = session.room().or(named) else {
        if let Some(id) = r.match_id {
            linger(lobby, session, out, id).await;
        }
        return;
    };
    // One access check for every way into a match: a match the client names (not the one this
    // session followed) is followed only if the session may reach it — a private match only
    // with its invitation — wherever it runs.
    if session.room() != Some(id) && !matches!(crate::dispatch::reaches(lobby, session, id).await, Ok(true)) {
        return;
    }
    let followed = match lobby.rooms.room(id) {
        Ok(room) => {
            let (reply, rx) = oneshot::channel();
            let msg =
                RoomMsg::Follow { session: session.clone(), out: out.clone(), last_seq: r.last_seq, reply };
            room.tx.send(msg).await.is_ok() && matches!(rx.await, Ok(Ok(())))
        }
        Err(_) => lobby.placement.follow_again(session, out, id, r.last_seq).await,
    };
    if !followed {
        // Its match closed meanwhile (decided, expired): the client learns it by asking.
        session.leave_room(id);
        linger(lobby, session, out, id).await;
    }
}

/// A resumed client names a match that is not live here: if it is a decided match the session
/// may reach, its end screen is kept among the match's watchers, so a correction of the result
/// made later (A2) reaches this connection too, as it would have reached the lost one.
async fn linger(lobby: &Arc<Lobby>, session: &Arc<Session>, out: &Outbound, id: shvedka_proto::MatchId) {
    if lobby.rooms.room(id).is_ok() || !matches!(crate::dispatch::reaches(lobby, session, id).await, Ok(true))
    {
        return;
    }
    lobby.rooms.linger(id, session.clone(), out.clone());
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

    struct NoFrames;

    impl Frames for NoFrames {
        async fn next(&mut self) -> Result<Option<ClientFrame>, End> {
            Ok(None)
        }
    }

    /// A connection's task lives as long as its connection, and an async function's future is as
    /// large as its largest await: serving a request inline (the dispatch of every kind of request
    /// is 3 KiB) made each waiting session 4.2 KiB, 17 KiB a match of four. Requests are boxed
    /// while they are served.
    #[test]
    fn a_waiting_session_holds_little_besides_its_connection() {
        /// The size of the future `serve` returns, without calling it.
        fn of_session<F: std::future::Future>(
            _serve: impl FnOnce(
                &'static mut NoFrames,
                Outbound,
                &'static Arc<Lobby>,
                &'static ServerConfig,
                Peer,
            ) -> F,
        ) -> usize {
            std::mem::size_of::<F>()
        }
        fn of_connection<F: std::future::Future>(
            _serve: impl FnOnce(quinn::Connection, Arc<Connections>) -> F,
        ) -> usize {
            std::mem::size_of::<F>()
        }
        let session = of_session(converse);
        let native = of_connection(crate::transport::native::serve);
        assert!(session <= 2048, "a session's future is {session} bytes");
        assert!(native <= 2560, "a native connection's future is {native} bytes");
    }
}
