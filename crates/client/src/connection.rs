//! The connection, the session on it, and requests with their replies.

use std::collections::HashMap;
use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use shvedka_proto::{
    ArbiterRequest, Board, ChatScope, ClaimKind, ClientFrame, ClientMsg, ErrorMsg, FrameDecoder, MatchId,
    MatchSummary, PROTOCOL_VERSION, RematchView, Reply, Resume, SeatId, ServerMsg, TdChoice, TdRequest,
};
use tokio::sync::{mpsc, oneshot};

use crate::tls::{Pinned, provider};

/// How the server's certificate is checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Trust {
    /// Exactly the certificate with this SHA-256 (what `shvedka serve` prints).
    Fingerprint([u8; 32]),
    /// A certificate for `server_name` from a web PKI authority.
    WebPki {
        /// The name the certificate must be for.
        server_name: String,
    },
}

/// Something the server pushed, or the end of the connection.
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(clippy::large_enum_variant)] // updates are the common case; boxing them would cost more
pub enum Update {
    /// A message: `State`, `Event`, `Chat` (replies and pongs are consumed by the client).
    Server(ServerMsg),
    /// The connection is gone; [`Client::resume`] continues the session.
    Disconnected(String),
}

/// What went wrong with a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClientError {
    /// The server refused the request.
    Server(ErrorMsg),
    /// The server refused the session, and why (another protocol version is `ErrorCode::Handshake`
    /// with the server's words).
    Refused(ErrorMsg),
    /// The connection failed or is gone.
    Connection(String),
    /// The server sent something that is not the protocol.
    Protocol(String),
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // The server's message is whole: it names the rule where there is one.
            ClientError::Server(e) => f.write_str(&e.message),
            ClientError::Refused(r) => write!(f, "the server refused the session: {}", r.message),
            ClientError::Connection(r) => write!(f, "connection: {r}"),
            ClientError::Protocol(r) => write!(f, "protocol: {r}"),
        }
    }
}

impl std::error::Error for ClientError {}

/// How long a client of several server addresses waits for one of them to answer (the QUIC
/// handshake and the session's `Welcome`) before it tries the next: an address that is dead or
/// refused never answers, and QUIC alone would wait for its idle timeout (10 s). A client of one
/// address has nothing else to try and waits as long as QUIC does.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);

/// Where a client endpoint binds to reach `server`: loopback for a loopback server, else any
/// address of the same family; a port the system picks.
fn local_for(server: SocketAddr) -> SocketAddr {
    let ip: IpAddr = match server.ip() {
        IpAddr::V4(ip) if ip.is_loopback() => Ipv4Addr::LOCALHOST.into(),
        IpAddr::V4(_) => Ipv4Addr::UNSPECIFIED.into(),
        IpAddr::V6(ip) if ip.is_loopback() => Ipv6Addr::LOCALHOST.into(),
        IpAddr::V6(_) => Ipv6Addr::UNSPECIFIED.into(),
    };
    SocketAddr::new(ip, 0)
}

/// Where a client endpoint binds to reach every one of `servers`: as [`local_for`] when they all
/// want the same, else any address (IPv6, which on Linux reaches IPv4 addresses too, when the
/// families differ).
fn local_for_all(servers: &[SocketAddr]) -> Option<SocketAddr> {
    let first = local_for(*servers.first()?);
    if servers.iter().all(|s| local_for(*s) == first) {
        return Some(first);
    }
    let ip: IpAddr = if servers.iter().all(SocketAddr::is_ipv4) {
        Ipv4Addr::UNSPECIFIED.into()
    } else {
        Ipv6Addr::UNSPECIFIED.into()
    };
    Some(SocketAddr::new(ip, 0))
}

/// A client endpoint bound to `local`, trusting as `trust` says.
fn endpoint_at(local: SocketAddr, trust: &Trust) -> Result<quinn::Endpoint, ClientError> {
    let (_, config) = client_config(trust)?;
    let mut endpoint = quinn::Endpoint::client(local).map_err(conn_err)?;
    endpoint.set_default_client_config(config);
    Ok(endpoint)
}

fn conn_err(e: impl fmt::Display) -> ClientError {
    ClientError::Connection(e.to_string())
}

/// The refusal a connection closed at a limit carries (`CLOSE_LIMIT`, PROTOCOL.md), if it was.
fn refused_at_limit(conn: &quinn::Connection) -> Option<ClientError> {
    let quinn::ConnectionError::ApplicationClosed(close) = conn.close_reason()? else { return None };
    if close.error_code != quinn::VarInt::from_u32(shvedka_proto::CLOSE_LIMIT) {
        return None;
    }
    let (limit, value) = shvedka_proto::limit_of_close_reason(&close.reason)?;
    let whose = if limit == shvedka_proto::Limit::Connections { "the server" } else { "your address" };
    let key = String::from_utf8_lossy(&close.reason);
    let key = key.split(' ').next().unwrap_or_default();
    Some(ClientError::Refused(ErrorMsg {
        code: shvedka_proto::ErrorCode::Limit(limit),
        rule: None,
        message: format!("{whose} holds as many connections as the server allows ({key} = {value})"),
    }))
}

/// A connection the server refused before its handshake (QUIC's `CONNECTION_REFUSED`): it opens
/// no connection for an address that opens them too fast (`new_connections_per_address_per_second`),
/// nor past `max_connections` for a flood it cannot tell one by one (PROTOCOL.md, Session).
fn refused_unseen(e: &quinn::ConnectionError) -> Option<ClientError> {
    let quinn::ConnectionError::ConnectionClosed(close) = e else { return None };
    if close.error_code != quinn::TransportErrorCode::CONNECTION_REFUSED {
        return None;
    }
    Some(ClientError::Refused(ErrorMsg {
        code: shvedka_proto::ErrorCode::Full,
        rule: None,
        message:
            "the server refused the connection before its handshake: too many new connections from this \
                  address at once, or the server is full"
                .into(),
    }))
}

fn no_address() -> ClientError {
    ClientError::Connection("no server address".into())
}

type Pending = Mutex<HashMap<u32, oneshot::Sender<Result<Reply, ErrorMsg>>>>;

/// State shared with the reader task.
#[derive(Default)]
struct Shared {
    pending: Pending,
    pongs: Mutex<HashMap<u64, oneshot::Sender<()>>>,
    last_seq: Mutex<Option<u64>>,
    /// The match whose events `last_seq` counts (told to the server on resuming).
    followed: Mutex<Option<MatchId>>,
    /// Counts connections: advanced whenever the current one is given up (dropped, or closed by
    /// a resume), so that the read loop of an older connection neither reports a disconnection
    /// nor fails the new connection's requests (issue 32).
    generation: AtomicU64,
    /// The server let the followed match go (`ServerMsg::ResumeElsewhere`): the next resume
    /// starts at the next address.
    elsewhere: std::sync::atomic::AtomicBool,
}

/// An update as the read loops send it: with the generation of the connection it came on, so a
/// disconnection of a connection given up since is never told ([`Updates`]).
type Tagged = (u64, Update);

/// A client's stream of updates: what the server pushed, and the end of the current connection.
/// [`Client::next_update`] reads it; [`Client::take_updates`] hands it to another task.
///
/// A disconnection is told only while its connection is the current one: the end of a
/// connection given up since ([`Client::drop_connection`], [`Client::resume`]) is left out, even
/// when its reader told it just before, so that a resumed connection is never taken for lost.
pub struct Updates {
    rx: mpsc::Receiver<Tagged>,
    shared: Arc<Shared>,
}

impl Updates {
    /// The next pushed message or disconnection; `None` once the client is gone (or the stream
    /// was taken from it).
    pub async fn recv(&mut self) -> Option<Update> {
        std::future::poll_fn(|cx| self.poll_recv(cx)).await
    }

    /// As [`Updates::recv`], polled: for a task that waits on several clients' updates at once
    /// (`shvedka load` reads a match's four from one task).
    pub fn poll_recv(&mut self, cx: &mut std::task::Context<'_>) -> std::task::Poll<Option<Update>> {
        loop {
            let Some(tagged) = std::task::ready!(self.rx.poll_recv(cx)) else {
                return std::task::Poll::Ready(None);
            };
            if let Some(update) = self.current(tagged) {
                return std::task::Poll::Ready(Some(update));
            }
        }
    }

    /// A pushed message or disconnection if one is waiting.
    pub fn try_recv(&mut self) -> Option<Update> {
        loop {
            let tagged = self.rx.try_recv().ok()?;
            if let Some(update) = self.current(tagged) {
                return Some(update);
            }
        }
    }

    /// The update, unless it is the disconnection of a connection given up since.
    fn current(&self, (generation, update): Tagged) -> Option<Update> {
        let stale = matches!(update, Update::Disconnected(_))
            && generation != self.shared.generation.load(Ordering::SeqCst);
        (!stale).then_some(update)
    }
}

struct Live {
    conn: quinn::Connection,
    tx: mpsc::Sender<ClientFrame>,
}

/// The account a client logged in as.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    /// Its name as registered.
    pub name: String,
    /// Whether it is a bot.
    pub bot: bool,
    /// Its roles (`arbiter`, `director`).
    pub roles: Vec<String>,
}

/// A session with a shvedka server, reachable at one address or several (the nodes of a
/// cluster, which share one certificate and the sessions).
pub struct Client {
    endpoint: quinn::Endpoint,
    /// Never empty: the one connected to (or last connected to) first, then the others in the
    /// order given, the list rotated so.
    servers: Vec<SocketAddr>,
    server_name: String,
    name: String,
    token: String,
    /// Whether the last `Welcome` resumed an earlier session (else the server opened a new one).
    resumed: bool,
    live: Option<Live>,
    shared: Arc<Shared>,
    updates_tx: mpsc::Sender<Tagged>,
    updates: Updates,
    next_req: AtomicU32,
    next_nonce: AtomicU64,
}

impl Client {
    /// Connects and opens a new session as `name`.
    ///
    /// # Errors
    /// [`ClientError::Connection`] if the server cannot be reached or verified,
    /// [`ClientError::Refused`] if it refuses the session.
    pub async fn connect(server: SocketAddr, trust: Trust, name: &str) -> Result<Client, ClientError> {
        Client::connect_any(&[server], trust, name).await
    }

    /// Connects to the first of `servers` that answers (the nodes of one cluster, trusted alike)
    /// and opens a new session as `name`. With several addresses each gets at most
    /// [`CONNECT_TIMEOUT`], in order; the one that answers becomes [`Client::server`], and
    /// [`Client::resume`] moves on to the others when it is lost.
    ///
    /// # Errors
    /// As [`Client::connect`]: the error of the last address tried, or the refusal of one that
    /// answered and refused; [`ClientError::Connection`] for an empty list.
    pub async fn connect_any(
        servers: &[SocketAddr],
        trust: Trust,
        name: &str,
    ) -> Result<Client, ClientError> {
        let endpoint = endpoint_at(local_for_all(servers).ok_or_else(no_address)?, &trust)?;
        let mut client = Client::new(endpoint, servers.to_vec(), &trust, name)?;
        client.open_any(None).await?;
        Ok(client)
    }

    /// Connects to the first of `servers` that answers and resumes the session of `token`, kept
    /// from an earlier run of the program (as a browser keeps its tab's): the same player, in
    /// the same seats. `Ok(None)` when the server no longer knows the session (expired, logged
    /// out, ended by a password change): the new session the server opened instead is closed.
    ///
    /// # Errors
    /// As [`Client::connect_any`].
    pub async fn resume_token(
        servers: &[SocketAddr],
        trust: Trust,
        token: &str,
    ) -> Result<Option<Client>, ClientError> {
        let endpoint = endpoint_at(local_for_all(servers).ok_or_else(no_address)?, &trust)?;
        let mut client = Client::new(endpoint, servers.to_vec(), &trust, "")?;
        let resume = Resume { token: token.to_owned(), last_seq: None, match_id: None };
        client.open_any(Some(resume)).await?;
        if client.resumed {
            Ok(Some(client))
        } else {
            client.close().await;
            Ok(None)
        }
    }

    /// A client endpoint (one UDP socket) for `server`, trusting as `trust` says: several
    /// clients may share it ([`Client::connect_on`]), as a load generator does.
    ///
    /// # Errors
    /// [`ClientError::Connection`] if the socket or the TLS configuration cannot be made.
    pub fn endpoint_for(server: SocketAddr, trust: &Trust) -> Result<quinn::Endpoint, ClientError> {
        endpoint_at(local_for(server), trust)
    }

    /// As [`Client::endpoint_for`], with a UDP receive buffer of `recv_buffer` bytes (as large as
    /// the system allows: `net.core.rmem_max`): an endpoint shared by hundreds of connections
    /// (a load generator) otherwise drops packets in bursts, and QUIC's retransmissions then
    /// show as seconds of latency that are not the server's.
    ///
    /// # Errors
    /// As [`Client::endpoint_for`].
    pub fn endpoint_with_buffer(
        server: SocketAddr,
        trust: &Trust,
        recv_buffer: usize,
    ) -> Result<quinn::Endpoint, ClientError> {
        Client::endpoint_bound(local_for(server), trust, recv_buffer)
    }

    /// As [`Client::endpoint_with_buffer`], bound to `local` (an address of this machine, port 0
    /// for any): a load or attack run on loopback speaks from several addresses of 127.0.0.0/8,
    /// as players and an attacker on the network would, so that the server's limits per address
    /// apply to each as they would to them.
    ///
    /// # Errors
    /// As [`Client::endpoint_for`]; an address that is not this machine's cannot be bound.
    pub fn endpoint_bound(
        local: SocketAddr,
        trust: &Trust,
        recv_buffer: usize,
    ) -> Result<quinn::Endpoint, ClientError> {
        use socket2::{Domain, Protocol, Socket, Type};
        let (_, config) = client_config(trust)?;
        let socket =
            Socket::new(Domain::for_address(local), Type::DGRAM, Some(Protocol::UDP)).map_err(conn_err)?;
        // Best effort: the system may grant less.
        let _ = socket.set_recv_buffer_size(recv_buffer);
        socket.bind(&local.into()).map_err(conn_err)?;
        let runtime =
            quinn::default_runtime().ok_or_else(|| ClientError::Connection("no async runtime".into()))?;
        let mut endpoint =
            quinn::Endpoint::new(quinn::EndpointConfig::default(), None, socket.into(), runtime)
                .map_err(conn_err)?;
        endpoint.set_default_client_config(config);
        Ok(endpoint)
    }

    /// As [`Client::connect`], on an endpoint made by [`Client::endpoint_for`] (shared).
    ///
    /// # Errors
    /// As [`Client::connect`].
    pub async fn connect_on(
        endpoint: quinn::Endpoint,
        server: SocketAddr,
        trust: &Trust,
        name: &str,
    ) -> Result<Client, ClientError> {
        let mut client = Client::new(endpoint, vec![server], trust, name)?;
        client.open_any(None).await?;
        Ok(client)
    }

    /// A client of `servers`, not yet connected.
    fn new(
        endpoint: quinn::Endpoint,
        servers: Vec<SocketAddr>,
        trust: &Trust,
        name: &str,
    ) -> Result<Client, ClientError> {
        if servers.is_empty() {
            return Err(no_address());
        }
        let (server_name, _) = client_config(trust)?;
        let (updates_tx, updates) = mpsc::channel(4096);
        let shared = Arc::<Shared>::default();
        let updates = Updates { rx: updates, shared: shared.clone() };
        Ok(Client {
            endpoint,
            servers,
            server_name,
            name: name.to_owned(),
            token: String::new(),
            resumed: false,
            live: None,
            shared,
            updates_tx,
            updates,
            next_req: AtomicU32::new(1),
            next_nonce: AtomicU64::new(1),
        })
    }

    /// Connects and logs in as an account (a session opened without a name, then `Login`).
    ///
    /// # Errors
    /// As [`Client::connect`] and [`Client::login`].
    pub async fn connect_as(
        server: SocketAddr,
        trust: Trust,
        name: &str,
        password: &str,
    ) -> Result<Client, ClientError> {
        let mut client = Client::connect(server, trust, "").await?;
        client.login(name, password).await?;
        Ok(client)
    }

    /// Logs in as an account: the connection now serves a new session of it, whose token
    /// replaces the old one for resuming.
    ///
    /// # Errors
    /// As [`Client::request`]: `BadCredentials`, `AccountDisabled`, `Limit(LoginAttempts)`.
    pub async fn login(&mut self, name: &str, password: &str) -> Result<Account, ClientError> {
        let reply =
            self.request(ClientMsg::Login { name: name.to_owned(), password: password.to_owned() }).await?;
        self.logged_in(reply)
    }

    /// Registers an account and logs in as it, as [`Client::login`] does.
    ///
    /// # Errors
    /// As [`Client::request`]: `NameTaken`, `BadRequest` (the name or password rules).
    pub async fn register(&mut self, name: &str, password: &str, bot: bool) -> Result<Account, ClientError> {
        let msg = ClientMsg::Register { name: name.to_owned(), password: password.to_owned(), bot };
        let reply = self.request(msg).await?;
        self.logged_in(reply)
    }

    fn logged_in(&mut self, reply: Reply) -> Result<Account, ClientError> {
        match reply {
            Reply::LoggedIn { name, token, bot, roles } => {
                self.token = token;
                self.name.clone_from(&name);
                Ok(Account { name, bot, roles })
            }
            other => Err(ClientError::Protocol(format!("expected LoggedIn, got {other:?}"))),
        }
    }

    /// Logs out: the session ends for good (its token never resumes), and the connection is
    /// closed.
    ///
    /// # Errors
    /// As [`Client::request`].
    pub async fn logout(&mut self) -> Result<(), ClientError> {
        self.ok(ClientMsg::Logout).await?;
        self.drop_connection();
        Ok(())
    }

    /// Says the session is a program playing: it is shown as a bot wherever its name is.
    ///
    /// # Errors
    /// As [`Client::request`]: `BadRequest` once the session follows a match.
    pub async fn declare_bot(&self) -> Result<(), ClientError> {
        self.ok(ClientMsg::Bot).await
    }

    /// Changes the account's password; its other sessions end.
    ///
    /// # Errors
    /// As [`Client::request`]: `LoginRequired`, `BadCredentials`, `BadRequest`.
    pub async fn change_password(&self, old: &str, new: &str) -> Result<(), ClientError> {
        self.ok(ClientMsg::ChangePassword { old: old.to_owned(), new: new.to_owned() }).await
    }

    /// Hands the stream of updates to another task (the client's own `next_update` then ends):
    /// one task may read updates while others send requests through a shared `&Client`.
    pub fn take_updates(&mut self) -> Updates {
        let (_, closed) = mpsc::channel(1);
        std::mem::replace(&mut self.updates, Updates { rx: closed, shared: self.shared.clone() })
    }

    /// The session token (for resuming).
    pub fn token(&self) -> &str {
        &self.token
    }

    /// The `seq` of the last match event received.
    pub fn last_seq(&self) -> Option<u64> {
        *self.shared.last_seq.lock().expect("client lock")
    }

    /// Whether the connection is up.
    pub fn is_connected(&self) -> bool {
        self.live.as_ref().is_some_and(|l| l.conn.close_reason().is_none())
    }

    /// The server address connected to (or last connected to, while the connection is lost).
    pub fn server(&self) -> SocketAddr {
        self.servers[0]
    }

    /// Every server address of this client: [`Client::server`] first, then the others in the
    /// order [`Client::resume`] tries them.
    pub fn servers(&self) -> &[SocketAddr] {
        &self.servers
    }

    /// Opens a connection to the first server that answers, from the current one on, each tried
    /// once (for at most [`CONNECT_TIMEOUT`] when there are several), and makes it the current
    /// one. Fails with a refusal if a server answered and refused, else with the last error.
    async fn open_any(&mut self, resume: Option<Resume>) -> Result<(), ClientError> {
        let several = self.servers.len() > 1;
        let (mut refusal, mut failure) = (None, None);
        for i in 0..self.servers.len() {
            let server = self.servers[i];
            let attempt = self.open(server, resume.clone());
            let result = if several {
                match tokio::time::timeout(CONNECT_TIMEOUT, attempt).await {
                    Ok(result) => result,
                    Err(_) => Err(ClientError::Connection(format!(
                        "no answer within {} ms",
                        CONNECT_TIMEOUT.as_millis()
                    ))),
                }
            } else {
                attempt.await
            };
            match result {
                Ok(()) => {
                    self.servers.rotate_left(i);
                    return Ok(());
                }
                // Which address failed, when there are several to tell apart.
                Err(ClientError::Connection(e)) if several => {
                    failure = Some(ClientError::Connection(format!("{server}: {e}")));
                }
                Err(e @ ClientError::Refused(_)) => refusal = Some(e),
                Err(e) => failure = Some(e),
            }
        }
        Err(refusal.or(failure).unwrap_or_else(no_address))
    }

    /// Opens a connection to `server` and says `Hello` (resuming when `resume` is given).
    async fn open(&mut self, server: SocketAddr, resume: Option<Resume>) -> Result<(), ClientError> {
        let connecting = self.endpoint.connect(server, &self.server_name).map_err(conn_err)?;
        let conn = connecting.await.map_err(|e| refused_unseen(&e).unwrap_or_else(|| conn_err(e)))?;
        // A connection refused at a limit is closed at once naming it (PROTOCOL.md, Session).
        self.hello(conn.clone(), resume).await.map_err(|e| refused_at_limit(&conn).unwrap_or(e))
    }

    /// Says `Hello` on `conn` (resuming when `resume` is given) and starts reading.
    async fn hello(&mut self, conn: quinn::Connection, resume: Option<Resume>) -> Result<(), ClientError> {
        let (mut send, mut recv) = conn.open_bi().await.map_err(conn_err)?;
        let hello = ClientFrame {
            req: 0,
            msg: ClientMsg::Hello { version: PROTOCOL_VERSION, name: self.name.clone(), resume },
        };
        let bytes = shvedka_proto::frame(&hello).map_err(|e| ClientError::Protocol(e.to_string()))?;
        send.write_all(&bytes).await.map_err(conn_err)?;
        let mut decoder = FrameDecoder::new();
        let mut buf = vec![0u8; 16 * 1024];
        let welcome = loop {
            if let Some(msg) =
                decoder.next_message::<ServerMsg>().map_err(|e| ClientError::Protocol(e.to_string()))?
            {
                break msg;
            }
            match recv.read(&mut buf).await.map_err(conn_err)? {
                Some(n) => decoder.push(&buf[..n]),
                None => return Err(ClientError::Connection("the server closed the session stream".into())),
            }
        };
        match welcome {
            ServerMsg::Welcome { token, resumed, .. } => {
                self.token = token;
                self.resumed = resumed;
            }
            ServerMsg::Refused { reason } => {
                conn.close(0u32.into(), b"refused");
                return Err(ClientError::Refused(ErrorMsg {
                    code: shvedka_proto::ErrorCode::Handshake,
                    rule: None,
                    message: reason,
                }));
            }
            ServerMsg::SessionRefused(why) => {
                conn.close(0u32.into(), b"refused");
                return Err(ClientError::Refused(why));
            }
            other => return Err(ClientError::Protocol(format!("expected Welcome, got {other:?}"))),
        }
        let (tx, rx) = mpsc::channel::<ClientFrame>(256);
        tokio::spawn(write_loop(send, rx));
        let generation = self.shared.generation.load(Ordering::SeqCst);
        tokio::spawn(read_loop(
            recv,
            decoder,
            buf,
            generation,
            self.shared.clone(),
            self.updates_tx.clone(),
            conn.clone(),
        ));
        self.live = Some(Live { conn, tx });
        Ok(())
    }

    /// Reconnects and resumes the session: the server sends the events after the last one this
    /// client received, then live events. The current server is tried first, then the client's
    /// other addresses in order, each once (for at most [`CONNECT_TIMEOUT`]); the first that
    /// answers becomes the current one.
    ///
    /// # Errors
    /// As [`Client::connect_any`].
    pub async fn resume(&mut self) -> Result<(), ClientError> {
        self.give_up(b"reconnecting");
        // Told to go elsewhere: the current server runs the match no more.
        if self.shared.elsewhere.swap(false, Ordering::SeqCst) {
            self.servers.rotate_left(1);
        }
        let match_id = *self.shared.followed.lock().expect("client lock");
        let resume = Resume { token: self.token.clone(), last_seq: self.last_seq(), match_id };
        self.open_any(Some(resume)).await
    }

    /// Resumes the session on a server at another address (the same server restarted elsewhere,
    /// or another node of it), trusted as before. An address of the client's list becomes the
    /// current one; another replaces the current one (the server moved). The client's other
    /// addresses are tried after it, as [`Client::resume`] does.
    ///
    /// # Errors
    /// As [`Client::connect`].
    pub async fn resume_at(&mut self, server: SocketAddr) -> Result<(), ClientError> {
        match self.servers.iter().position(|s| *s == server) {
            Some(i) => self.servers.rotate_left(i),
            None => self.servers[0] = server,
        }
        self.resume().await
    }

    /// Closes the connection at once (the session stays on the server and can be resumed). No
    /// [`Update::Disconnected`] is told for it, nor for any connection before it.
    pub fn drop_connection(&mut self) {
        self.give_up(b"dropped");
    }

    /// Gives the current connection up: the generation advances first, so that its read loop,
    /// which can notice the close only after it, stays silent; then the connection is closed.
    fn give_up(&mut self, reason: &[u8]) {
        self.shared.generation.fetch_add(1, Ordering::SeqCst);
        if let Some(live) = self.live.take() {
            live.conn.close(0u32.into(), reason);
        }
    }

    /// Closes the connection and waits for the close to be sent.
    pub async fn close(mut self) {
        self.drop_connection();
        let _ = tokio::time::timeout(Duration::from_secs(2), self.endpoint.wait_idle()).await;
    }

    /// The next pushed message or disconnection (of the current connection only); `None` never
    /// happens while the client lives.
    pub async fn next_update(&mut self) -> Option<Update> {
        self.updates.recv().await
    }

    /// A pushed message (or disconnection of the current connection) if one is waiting.
    pub fn try_update(&mut self) -> Option<Update> {
        self.updates.try_recv()
    }

    /// Sends a message and waits (at most 10 s) for its reply.
    ///
    /// # Errors
    /// [`ClientError::Server`] when refused; [`ClientError::Connection`] when the connection is gone.
    pub async fn request(&self, msg: ClientMsg) -> Result<Reply, ClientError> {
        let live = self.live.as_ref().ok_or_else(|| conn_err("not connected"))?;
        let req = self.next_req.fetch_add(1, Ordering::Relaxed);
        let (reply, rx) = oneshot::channel();
        self.shared.pending.lock().expect("client lock").insert(req, reply);
        // A connection lost before the request was counted (its reader has failed the requests
        // it knew of already): failed now, not after the wait for a reply. A restarted server's
        // reset to a keep-alive closes it so between two requests.
        if let Some(why) = live.conn.close_reason() {
            self.shared.pending.lock().expect("client lock").remove(&req);
            return Err(conn_err(format!("connection lost: {why}")));
        }
        live.tx.send(ClientFrame { req, msg }).await.map_err(|_| conn_err("connection lost"))?;
        match tokio::time::timeout(Duration::from_secs(10), rx).await {
            Ok(Ok(result)) => result.map_err(ClientError::Server),
            Ok(Err(_)) => Err(conn_err("connection lost")),
            Err(_) => Err(conn_err("no reply within 10 s")),
        }
    }

    async fn ok(&self, msg: ClientMsg) -> Result<(), ClientError> {
        self.request(msg).await.map(|_| ())
    }

    /// Measures the round trip of a `Ping`.
    ///
    /// # Errors
    /// As [`Client::request`].
    pub async fn ping(&self) -> Result<Duration, ClientError> {
        let nonce = self.next_nonce.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        self.shared.pongs.lock().expect("client lock").insert(nonce, tx);
        let start = Instant::now();
        self.ok(ClientMsg::Ping { nonce }).await?;
        rx.await.map_err(|_| conn_err("connection lost"))?;
        Ok(start.elapsed())
    }

    /// The lobby.
    ///
    /// # Errors
    /// As [`Client::request`].
    pub async fn list_matches(&self) -> Result<Vec<MatchSummary>, ClientError> {
        self.list_pages(false).await
    }

    /// Every match of the lobby (or, `live`, every live match: arbiters only), page by page.
    async fn list_pages(&self, live: bool) -> Result<Vec<MatchSummary>, ClientError> {
        let mut all = Vec::new();
        let mut after = None;
        loop {
            let (page, next) = self.list_page(after, u32::MAX, live).await?;
            all.extend(page);
            match next {
                Some(next) => after = Some(next),
                None => return Ok(all),
            }
        }
    }

    /// One page of the lobby: at most `limit` matches after `after` (the server caps the page),
    /// and the `after` of the next page when there are more.
    ///
    /// # Errors
    /// As [`Client::request`].
    pub async fn list_page(
        &self,
        after: Option<MatchId>,
        limit: u32,
        live: bool,
    ) -> Result<(Vec<MatchSummary>, Option<MatchId>), ClientError> {
        match self.request(ClientMsg::ListPage { after, limit, live }).await? {
            Reply::MatchPage { matches, next } => Ok((matches, next)),
            other => Err(ClientError::Protocol(format!("expected a page of matches, got {other:?}"))),
        }
    }

    /// Creates a match.
    ///
    /// # Errors
    /// As [`Client::request`].
    pub async fn create_match(
        &self,
        rules: &str,
        time_control: &str,
        listed: bool,
    ) -> Result<MatchId, ClientError> {
        self.create_match_with(rules, time_control, listed, false).await
    }

    /// Creates a match, from a Chess960 start when `chess960` (both boards alike, drawn by the
    /// server and fixed at the countdown).
    ///
    /// # Errors
    /// As [`Client::request`].
    pub async fn create_match_with(
        &self,
        rules: &str,
        time_control: &str,
        listed: bool,
        chess960: bool,
    ) -> Result<MatchId, ClientError> {
        let msg = ClientMsg::CreateMatch {
            rules: rules.into(),
            time_control: time_control.into(),
            listed,
            chess960,
            rated: false,
        };
        match self.request(msg).await? {
            Reply::Created { match_id } | Reply::Invited { match_id, .. } => Ok(match_id),
            other => Err(ClientError::Protocol(format!("expected a match id, got {other:?}"))),
        }
    }

    /// Creates a listed rated match (the session must be logged in; only accounts may sit).
    ///
    /// # Errors
    /// As [`Client::request`]; `LoginRequired` for a guest.
    pub async fn create_rated(&self, rules: &str, time_control: &str) -> Result<MatchId, ClientError> {
        let msg = ClientMsg::CreateMatch {
            rules: rules.into(),
            time_control: time_control.into(),
            listed: true,
            chess960: false,
            rated: true,
        };
        match self.request(msg).await? {
            Reply::Created { match_id } => Ok(match_id),
            other => Err(ClientError::Protocol(format!("expected a match id, got {other:?}"))),
        }
    }

    /// The ranked players of a rating category (`bullet`, `blitz`, `rapid`), best first.
    ///
    /// # Errors
    /// As [`Client::request`].
    pub async fn leaderboard(&self, category: &str) -> Result<Vec<shvedka_proto::LeaderRow>, ClientError> {
        match self.request(ClientMsg::Leaderboard { category: category.into() }).await? {
            Reply::Leaderboard { rows, .. } => Ok(rows),
            other => Err(ClientError::Protocol(format!("expected a leaderboard, got {other:?}"))),
        }
    }

    /// A player's profile: ratings with history, partners, recent matches.
    ///
    /// # Errors
    /// As [`Client::request`]; `NoSuchAccount`.
    pub async fn profile(&self, name: &str) -> Result<shvedka_proto::ProfileView, ClientError> {
        match self.request(ClientMsg::Profile { name: name.into() }).await? {
            Reply::Profile(p) => Ok(p),
            other => Err(ClientError::Protocol(format!("expected a profile, got {other:?}"))),
        }
    }

    /// A private match: its id and the invitation code that reaches it.
    ///
    /// # Errors
    /// As [`Client::request`].
    pub async fn create_private(
        &self,
        rules: &str,
        time_control: &str,
    ) -> Result<(MatchId, String), ClientError> {
        let msg = ClientMsg::CreateMatch {
            rules: rules.into(),
            time_control: time_control.into(),
            listed: false,
            chess960: false,
            rated: false,
        };
        match self.request(msg).await? {
            Reply::Invited { match_id, code } => Ok((match_id, code)),
            other => Err(ClientError::Protocol(format!("expected an invitation, got {other:?}"))),
        }
    }

    /// Redeems a private match's invitation code: the session may then watch it, sit in it and
    /// read its record by its id.
    ///
    /// # Errors
    /// As [`Client::request`]; `NoSuchMatch` for a wrong code.
    pub async fn redeem(&self, code: &str) -> Result<MatchId, ClientError> {
        match self.request(ClientMsg::Invitation { code: code.to_owned() }).await? {
            Reply::Invited { match_id, .. } => Ok(match_id),
            other => Err(ClientError::Protocol(format!("expected an invitation, got {other:?}"))),
        }
    }

    /// Follows a match as a spectator.
    ///
    /// # Errors
    /// As [`Client::request`].
    pub async fn watch(&self, match_id: MatchId) -> Result<(), ClientError> {
        self.ok(ClientMsg::Watch { match_id }).await
    }

    /// Sits down.
    ///
    /// # Errors
    /// As [`Client::request`].
    pub async fn take_seat(&self, match_id: MatchId, seat: SeatId) -> Result<(), ClientError> {
        self.ok(ClientMsg::TakeSeat { match_id, seat }).await
    }

    /// Stands up before the start.
    ///
    /// # Errors
    /// As [`Client::request`].
    pub async fn leave_seat(&self) -> Result<(), ClientError> {
        self.ok(ClientMsg::LeaveSeat).await
    }

    /// Says ready (or not).
    ///
    /// # Errors
    /// As [`Client::request`].
    pub async fn ready(&self, ready: bool) -> Result<(), ClientError> {
        self.ok(ClientMsg::Ready { ready }).await
    }

    /// Plays a move, with the thinking time the client measured.
    ///
    /// # Errors
    /// As [`Client::request`]; an illegal move names its rule.
    pub async fn play(&self, board: Board, text: &str, think: Option<Duration>) -> Result<(), ClientError> {
        let think_ms = think.map(|d| d.as_millis() as u64);
        self.ok(ClientMsg::Move { board, text: text.into(), think_ms }).await
    }

    /// Offers (or accepts) a draw.
    ///
    /// # Errors
    /// As [`Client::request`].
    pub async fn offer_draw(&self) -> Result<(), ClientError> {
        self.ok(ClientMsg::OfferDraw).await
    }

    /// Declines a draw.
    ///
    /// # Errors
    /// As [`Client::request`].
    pub async fn decline_draw(&self) -> Result<(), ClientError> {
        self.ok(ClientMsg::DeclineDraw).await
    }

    /// Makes a claim.
    ///
    /// # Errors
    /// As [`Client::request`].
    pub async fn claim(&self, claim: ClaimKind) -> Result<(), ClientError> {
        self.ok(ClientMsg::Claim(claim)).await
    }

    /// Resigns.
    ///
    /// # Errors
    /// As [`Client::request`].
    pub async fn resign(&self) -> Result<(), ClientError> {
        self.ok(ClientMsg::Resign).await
    }

    /// Answers the rematch offer of a decided match one played in (`Some(true)` accept,
    /// `Some(false)` decline, `None` only listen); later changes come as `ServerMsg::Rematch`.
    ///
    /// # Errors
    /// As [`Client::request`].
    pub async fn rematch(&self, match_id: MatchId, accept: Option<bool>) -> Result<RematchView, ClientError> {
        match self.request(ClientMsg::Rematch { match_id, accept }).await? {
            Reply::Rematch(view) => Ok(view),
            other => Err(ClientError::Protocol(format!("expected Rematch, got {other:?}"))),
        }
    }

    /// Seeks a game (alone, or inviting `req.partner`); the seek's changes come as
    /// `ServerMsg::Seek`, its end as `ServerMsg::SeekEnded`, its match as `ServerMsg::MatchFound`
    /// (the server seats the session there itself).
    ///
    /// # Errors
    /// As [`Client::request`].
    pub async fn seek(
        &self,
        req: shvedka_proto::SeekRequest,
    ) -> Result<shvedka_proto::SeekView, ClientError> {
        match self.request(ClientMsg::Seek(req)).await? {
            Reply::Seek(view) => Ok(view),
            other => Err(ClientError::Protocol(format!("expected Seek, got {other:?}"))),
        }
    }

    /// Accepts a partner's invitation to seek (`ServerMsg::SeekInvitation`): the pair's seek as
    /// it now waits in the pool.
    ///
    /// # Errors
    /// As [`Client::request`].
    pub async fn accept_seek(&self, seek: u64) -> Result<shvedka_proto::SeekView, ClientError> {
        match self.request(ClientMsg::AnswerSeek { seek, accept: true }).await? {
            Reply::Seek(view) => Ok(view),
            other => Err(ClientError::Protocol(format!("expected Seek, got {other:?}"))),
        }
    }

    /// Declines a partner's invitation to seek.
    ///
    /// # Errors
    /// As [`Client::request`].
    pub async fn decline_seek(&self, seek: u64) -> Result<(), ClientError> {
        self.ok(ClientMsg::AnswerSeek { seek, accept: false }).await
    }

    /// Withdraws a seek.
    ///
    /// # Errors
    /// As [`Client::request`].
    pub async fn cancel_seek(&self, seek: u64) -> Result<(), ClientError> {
        self.ok(ClientMsg::CancelSeek { seek }).await
    }

    /// The pools of seeks: the quick pools, and any other terms somebody seeks now.
    ///
    /// # Errors
    /// As [`Client::request`].
    pub async fn seek_pools(&self) -> Result<Vec<shvedka_proto::SeekPool>, ClientError> {
        match self.request(ClientMsg::SeekPools).await? {
            Reply::SeekPools(pools) => Ok(pools),
            other => Err(ClientError::Protocol(format!("expected SeekPools, got {other:?}"))),
        }
    }

    /// One page of the tournaments, newest first, after tournament `after`; with the `after` of
    /// the next page.
    ///
    /// # Errors
    /// As [`Client::request`].
    pub async fn tournaments(
        &self,
        after: Option<u64>,
        limit: u32,
    ) -> Result<(Vec<shvedka_proto::TournamentSummary>, Option<u64>), ClientError> {
        match self.request(ClientMsg::Tournaments { after, limit }).await? {
            Reply::TournamentPage { tournaments, next } => Ok((tournaments, next)),
            other => Err(ClientError::Protocol(format!("expected TournamentPage, got {other:?}"))),
        }
    }

    /// One round of tournament `id`.
    ///
    /// # Errors
    /// As [`Client::request`].
    pub async fn tournament_round(
        &self,
        id: u64,
        round: u32,
    ) -> Result<shvedka_proto::RoundView, ClientError> {
        match self.request(ClientMsg::TournamentRound { tournament: id, round }).await? {
            Reply::TournamentRound(r) => Ok(r),
            other => Err(ClientError::Protocol(format!("expected TournamentRound, got {other:?}"))),
        }
    }

    /// Follows tournament `id` (`None`: none): its state comes as `ServerMsg::Tournament` before
    /// the answer, and again at every change.
    ///
    /// # Errors
    /// As [`Client::request`].
    pub async fn follow_tournament(&self, id: Option<u64>) -> Result<(), ClientError> {
        self.ok(ClientMsg::FollowTournament { tournament: id }).await
    }

    /// Stops the clocks and calls the arbiter (K5); with a reason, asking for the game to be
    /// played again (RULES.md A5, A6).
    ///
    /// # Errors
    /// As [`Client::request`].
    pub async fn call_arbiter(&self, replay: Option<shvedka_proto::ReplayReason>) -> Result<(), ClientError> {
        self.ok(ClientMsg::CallArbiter { replay }).await
    }

    /// Writes in the chat.
    ///
    /// # Errors
    /// As [`Client::request`].
    pub async fn chat(&self, scope: ChatScope, text: &str) -> Result<(), ClientError> {
        self.ok(ClientMsg::Chat { scope, text: text.into() }).await
    }

    /// Becomes an arbiter with the server's arbiter secret.
    ///
    /// # Errors
    /// As [`Client::request`]; `Official(WrongSecret)` for a wrong secret.
    pub async fn arbiter(&self, token: &str) -> Result<(), ClientError> {
        self.ok(ClientMsg::Arbiter { token: token.to_owned() }).await
    }

    /// An arbiter's act on a match.
    ///
    /// # Errors
    /// As [`Client::request`].
    pub async fn arbiter_act(&self, match_id: MatchId, act: ArbiterRequest) -> Result<(), ClientError> {
        self.ok(ClientMsg::ArbiterAct { match_id, act }).await
    }

    /// Every match not over, listed or not (arbiters only).
    ///
    /// # Errors
    /// As [`Client::request`].
    pub async fn list_live(&self) -> Result<Vec<MatchSummary>, ClientError> {
        self.list_pages(true).await
    }

    /// Becomes a tournament director with the server's director secret.
    ///
    /// # Errors
    /// As [`Client::request`]; `Official(WrongSecret)` for a wrong secret.
    pub async fn director(&self, token: &str) -> Result<(), ClientError> {
        self.ok(ClientMsg::Director { token: token.to_owned() }).await
    }

    /// A tournament director's command, with the server's reply.
    ///
    /// # Errors
    /// As [`Client::request`].
    pub async fn td(&self, req: TdRequest) -> Result<Reply, ClientError> {
        self.request(ClientMsg::Td(req)).await
    }

    /// A player's request to enter a tournament: invite a partner, accept or decline an
    /// invitation, check the team in (protocol version 8).
    ///
    /// # Errors
    /// As [`Client::request`].
    pub async fn entry(&self, req: shvedka_proto::EntryRequest) -> Result<Reply, ClientError> {
        self.request(ClientMsg::Entry(req)).await
    }

    /// A team's S3 choice for a tournament game.
    ///
    /// # Errors
    /// As [`Client::request`].
    pub async fn choose(
        &self,
        tournament: u64,
        round: u32,
        game: u32,
        choice: TdChoice,
    ) -> Result<(), ClientError> {
        self.ok(ClientMsg::Choose { tournament, round, game, choice }).await
    }

    /// Where this session's player plays now in a tournament, and whether it is over.
    ///
    /// # Errors
    /// As [`Client::request`].
    pub async fn assignment(
        &self,
        tournament: u64,
    ) -> Result<(Option<(MatchId, SeatId)>, bool), ClientError> {
        match self.request(ClientMsg::Assignment { tournament }).await? {
            Reply::Assigned { game, finished } => Ok((game, finished)),
            other => Err(ClientError::Protocol(format!("expected an assignment, got {other:?}"))),
        }
    }

    /// A match's record as BPGN.
    ///
    /// # Errors
    /// As [`Client::request`].
    pub async fn record(&self, match_id: MatchId) -> Result<String, ClientError> {
        // In parts, so a record longer than one frame comes whole too.
        let mut bpgn = String::new();
        loop {
            let msg = ClientMsg::RecordPart { match_id, offset: bpgn.len() as u64 };
            match self.request(msg).await? {
                Reply::RecordPart { text, offset, total } if offset == bpgn.len() as u64 => {
                    let empty = text.is_empty();
                    bpgn.push_str(&text);
                    if bpgn.len() as u64 >= total {
                        return Ok(bpgn);
                    }
                    if empty {
                        return Err(ClientError::Protocol(format!(
                            "an empty part at {offset} of {total} bytes"
                        )));
                    }
                }
                other => {
                    return Err(ClientError::Protocol(format!("expected a part of a record, got {other:?}")));
                }
            }
        }
    }
}

/// The QUIC client configuration shvedka uses: TLS 1.3 with one crypto provider, ALPN
/// `shvedka/1`, no 0-RTT, keep-alive below the idle timeout; and the name to ask the server for.
/// [`Client::connect`] uses it; tools and tests that speak the protocol by hand can too.
///
/// # Errors
/// [`ClientError::Connection`] if the TLS configuration cannot be built.
pub fn client_config(trust: &Trust) -> Result<(String, quinn::ClientConfig), ClientError> {
    let (server_name, mut tls) = match trust {
        Trust::Fingerprint(pin) => {
            let verifier = Arc::new(Pinned { pin: *pin, provider: provider() });
            let tls = rustls::ClientConfig::builder_with_provider(provider())
                .with_protocol_versions(&[&rustls::version::TLS13])
                .map_err(conn_err)?
                .dangerous()
                .with_custom_certificate_verifier(verifier)
                .with_no_client_auth();
            ("localhost".to_owned(), tls)
        }
        Trust::WebPki { server_name } => {
            let roots = rustls::RootCertStore { roots: webpki_roots::TLS_SERVER_ROOTS.to_vec() };
            let tls = rustls::ClientConfig::builder_with_provider(provider())
                .with_protocol_versions(&[&rustls::version::TLS13])
                .map_err(conn_err)?
                .with_root_certificates(roots)
                .with_no_client_auth();
            (server_name.clone(), tls)
        }
    };
    tls.alpn_protocols = vec![shvedka_proto::ALPN.to_vec()];
    tls.enable_early_data = false;
    let quic = quinn::crypto::rustls::QuicClientConfig::try_from(tls).map_err(conn_err)?;
    let mut config = quinn::ClientConfig::new(Arc::new(quic));
    let mut transport = quinn::TransportConfig::default();
    transport
        .max_idle_timeout(Some(quinn::IdleTimeout::try_from(IDLE_TIMEOUT).map_err(conn_err)?))
        .keep_alive_interval(Some(KEEP_ALIVE))
        .max_concurrent_bidi_streams(0u32.into())
        .max_concurrent_uni_streams(0u32.into());
    config.transport_config(Arc::new(transport));
    Ok((server_name, config))
}

/// How long a connection that hears nothing from its server lives: then it is lost, and the
/// client resumes (on the next node of a cluster). A server that restarts ends its old
/// connections at once (stateless resets); one that died and stays dead, or a link cut off, is
/// noticed only by this. 30 s kept four players of a match on a killed node away that long while
/// the match waited for them elsewhere (the fault benchmark, issue 36).
const IDLE_TIMEOUT: Duration = Duration::from_secs(10);

/// A keep-alive when nothing else was sent for this long: well inside the idle timeout, and the
/// packet a restarted server answers with a reset.
const KEEP_ALIVE: Duration = Duration::from_secs(3);

async fn write_loop(mut send: quinn::SendStream, mut rx: mpsc::Receiver<ClientFrame>) {
    while let Some(frame) = rx.recv().await {
        let Ok(bytes) = shvedka_proto::frame(&frame) else { continue };
        if send.write_all(&bytes).await.is_err() {
            return;
        }
    }
    let _ = send.finish();
}

async fn read_loop(
    mut recv: quinn::RecvStream,
    mut decoder: FrameDecoder,
    mut buf: Vec<u8>,
    generation: u64,
    shared: Arc<Shared>,
    updates: mpsc::Sender<Tagged>,
    conn: quinn::Connection,
) {
    let reason = 'read: loop {
        loop {
            match decoder.next_message::<ServerMsg>() {
                Ok(Some(msg @ ServerMsg::ResumeElsewhere { .. })) => {
                    // Told, then lost: the client resumes, from the next address.
                    shared.elsewhere.store(true, Ordering::SeqCst);
                    route(&shared, &updates, generation, msg).await;
                    conn.close(0u32.into(), b"resuming elsewhere");
                    break 'read ELSEWHERE.to_owned();
                }
                Ok(Some(msg)) => route(&shared, &updates, generation, msg).await,
                Ok(None) => break,
                Err(e) => break 'read format!("protocol error: {e}"),
            }
        }
        match recv.read(&mut buf).await {
            Ok(Some(n)) => decoder.push(&buf[..n]),
            Ok(None) => break "the server ended the session".to_owned(),
            Err(e) => break e.to_string(),
        }
    };
    let reason = match conn.close_reason() {
        Some(r) if reason != ELSEWHERE => r.to_string(),
        _ => reason,
    };
    {
        // Checked under the lock of the requests: a newer connection's requests are only made
        // after its generation was counted, so they are never failed here.
        let mut pending = shared.pending.lock().expect("client lock");
        if shared.generation.load(Ordering::SeqCst) != generation {
            return;
        }
        pending.clear();
    }
    // Should the connection be given up before this is read, the reader leaves it out.
    let _ = updates.send((generation, Update::Disconnected(reason))).await;
}

/// Why a connection whose server let the followed match go ended.
const ELSEWHERE: &str = "the server let the match go (its lease lost); resuming on another node";

async fn route(shared: &Shared, updates: &mpsc::Sender<Tagged>, generation: u64, msg: ServerMsg) {
    match msg {
        ServerMsg::Reply { req, result } => {
            if let Some(tx) = shared.pending.lock().expect("client lock").remove(&req) {
                let _ = tx.send(result);
            }
        }
        ServerMsg::Pong { nonce, .. } => {
            if let Some(tx) = shared.pongs.lock().expect("client lock").remove(&nonce) {
                let _ = tx.send(());
            }
        }
        msg => {
            match &msg {
                ServerMsg::Event(e) => {
                    *shared.last_seq.lock().expect("client lock") = Some(e.seq);
                    *shared.followed.lock().expect("client lock") = Some(e.match_id);
                }
                ServerMsg::State(s) => {
                    *shared.last_seq.lock().expect("client lock") = s.last_seq;
                    *shared.followed.lock().expect("client lock") = Some(s.match_id);
                }
                _ => {}
            }
            let _ = updates.send((generation, Update::Server(msg))).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pin() -> Trust {
        Trust::Fingerprint([7; 32])
    }

    #[tokio::test]
    async fn a_list_of_dead_addresses_fails_after_each_was_tried_once_for_the_bounded_time() {
        // Bound, held open, never answering: a node that is down without saying so.
        let dead: Vec<_> = (0..2).map(|_| std::net::UdpSocket::bind("127.0.0.1:0").unwrap()).collect();
        let addrs: Vec<_> = dead.iter().map(|s| s.local_addr().unwrap()).collect();
        let start = Instant::now();
        let err = match Client::connect_any(&addrs, pin(), "nobody").await {
            Ok(_) => panic!("nothing answers"),
            Err(e) => e,
        };
        let took = start.elapsed();
        assert!(took >= CONNECT_TIMEOUT * 2, "each address is waited for: {took:?}");
        assert!(took < CONNECT_TIMEOUT * 2 + Duration::from_secs(2), "and no longer: {took:?}");
        let ClientError::Connection(text) = err else { panic!("{err:?}") };
        assert!(text.starts_with(&addrs[1].to_string()), "the last address's error: {text}");
        assert!(text.contains("no answer within 3000 ms"), "{text}");
    }

    #[tokio::test]
    async fn an_empty_list_is_refused_at_once() {
        let err = Client::connect_any(&[], pin(), "nobody").await.err().expect("no address");
        assert_eq!(err, ClientError::Connection("no server address".into()));
    }

    /// A stand-in server on loopback: it welcomes every connection (resumed or not), then
    /// pushes one chat message naming the connection's number (1, 2, …), then, when `ends` says
    /// so for that number, ends the session stream (the client's read loop sees the session
    /// end); it holds the connection open until the client closes it. Returns its address and its
    /// certificate's pin.
    fn stand_in_server(ends: fn(u64) -> bool) -> (SocketAddr, Trust) {
        use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
        use sha2::{Digest, Sha256};
        // Made afresh for each stand-in: the repository keeps no certificate or key.
        let made = rcgen::generate_simple_self_signed(vec!["localhost".to_owned()]).expect("a certificate");
        let der = CertificateDer::from(made.cert.der().to_vec());
        let pin: [u8; 32] = Sha256::digest(der.as_ref()).into();
        let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(made.signing_key.serialize_der()));
        let mut tls = rustls::ServerConfig::builder_with_provider(provider())
            .with_protocol_versions(&[&rustls::version::TLS13])
            .expect("TLS 1.3")
            .with_no_client_auth()
            .with_single_cert(vec![der], key)
            .expect("the certificate and its key");
        tls.alpn_protocols = vec![shvedka_proto::ALPN.to_vec()];
        let crypto = quinn::crypto::rustls::QuicServerConfig::try_from(tls).expect("a QUIC TLS config");
        let config = quinn::ServerConfig::with_crypto(Arc::new(crypto));
        let endpoint = quinn::Endpoint::server(config, "127.0.0.1:0".parse().unwrap()).expect("bound");
        let addr = endpoint.local_addr().unwrap();
        tokio::spawn(async move {
            let mut number = 0u64;
            while let Some(incoming) = endpoint.accept().await {
                number += 1;
                tokio::spawn(serve_one(incoming, number, ends(number)));
            }
        });
        (addr, Trust::Fingerprint(pin))
    }

    async fn serve_one(incoming: quinn::Incoming, number: u64, end: bool) {
        let Ok(conn) = incoming.await else { return };
        let Ok((mut send, mut recv)) = conn.accept_bi().await else { return };
        let mut decoder = FrameDecoder::new();
        let mut buf = vec![0u8; 4096];
        let resumed = loop {
            match decoder.next_message::<ClientFrame>() {
                Ok(Some(ClientFrame { msg: ClientMsg::Hello { resume, .. }, .. })) => break resume.is_some(),
                Ok(Some(_)) | Err(_) => return,
                Ok(None) => {}
            }
            match recv.read(&mut buf).await {
                Ok(Some(n)) => decoder.push(&buf[..n]),
                _ => return,
            }
        };
        let welcome =
            ServerMsg::Welcome { version: PROTOCOL_VERSION, token: "t".into(), resumed, server_time_us: 0 };
        for msg in [welcome, chat(number)] {
            if send.write_all(&shvedka_proto::frame(&msg).unwrap()).await.is_err() {
                return;
            }
        }
        if end {
            let _ = send.finish();
        }
        conn.closed().await;
    }

    /// The message the stand-in server pushes on its `number`th connection.
    fn chat(number: u64) -> ServerMsg {
        ServerMsg::Chat {
            match_id: MatchId(1),
            from: "server".into(),
            kind: shvedka_proto::PlayerKind::Bot,
            seat: None,
            scope: ChatScope::Match,
            text: format!("connection {number}"),
        }
    }

    /// Waits until at most `readers` read loops are left (each holds a sender of updates, beside
    /// the client's own): a loop ends once it noticed its connection's end and told it, or not.
    async fn readers_left(client: &Client, readers: usize) {
        let deadline = Instant::now() + Duration::from_secs(5);
        while client.updates_tx.strong_count() > 1 + readers {
            assert!(Instant::now() < deadline, "a connection's reader never ended");
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    async fn next(client: &mut Client) -> Option<Update> {
        tokio::time::timeout(Duration::from_secs(5), client.next_update()).await.expect("an update in time")
    }

    /// Issue 32: a connection dropped (`drop_connection`, as tests simulate a lost one) and then
    /// resumed. The dropped connection's reader notices the close at once; here it is made to
    /// finish before the resume, the order that lost the race. The caller then reads the resumed
    /// connection's updates: its first is the new connection's message, and no `Disconnected` of
    /// the dropped connection ever comes.
    #[tokio::test]
    async fn a_dropped_connection_reports_no_disconnection_to_the_resumed_one() {
        let (addr, trust) = stand_in_server(|_| false);
        let mut client = Client::connect(addr, trust, "alice").await.expect("connected");
        assert_eq!(next(&mut client).await, Some(Update::Server(chat(1))));

        client.drop_connection();
        readers_left(&client, 0).await;
        client.resume().await.expect("resumed");

        assert_eq!(
            next(&mut client).await,
            Some(Update::Server(chat(2))),
            "the resumed connection's first update"
        );
        // Nor later: the resumed connection is live, and nothing else is waiting.
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert_eq!(client.try_update(), None);
        assert!(client.is_connected());
        client.close().await;
    }

    /// A session lost for real (the server ended the stream) tells its disconnection; resumed
    /// before the caller read it, the caller is not told it afterwards (it belongs to the
    /// connection given up), while the resumed connection's own end is told.
    #[tokio::test]
    async fn a_lost_connection_resumed_before_its_disconnection_was_read_does_not_tell_it_later() {
        let (addr, trust) = stand_in_server(|_| true);
        let mut client = Client::connect(addr, trust, "alice").await.expect("connected");
        // The first session ends after its message: its reader has told so and ended, unread.
        readers_left(&client, 0).await;
        client.resume().await.expect("resumed");
        assert_eq!(next(&mut client).await, Some(Update::Server(chat(1))), "sent before the end");
        assert_eq!(next(&mut client).await, Some(Update::Server(chat(2))), "no disconnection between");
        let end = next(&mut client).await;
        assert_eq!(
            end,
            Some(Update::Disconnected("the server ended the session".into())),
            "the current one's"
        );
        client.close().await;
    }

    #[test]
    fn one_endpoint_reaches_every_address_of_a_list() {
        let a: SocketAddr = "127.0.0.1:1".parse().unwrap();
        let b: SocketAddr = "127.0.0.1:2".parse().unwrap();
        let far: SocketAddr = "192.0.2.1:3".parse().unwrap();
        let v6: SocketAddr = "[2001:db8::1]:4".parse().unwrap();
        assert_eq!(local_for_all(&[a, b]), Some("127.0.0.1:0".parse().unwrap()));
        assert_eq!(local_for_all(&[a, far]), Some("0.0.0.0:0".parse().unwrap()));
        assert_eq!(local_for_all(&[far, v6]), Some("[::]:0".parse().unwrap()));
        assert_eq!(local_for_all(&[]), None);
    }
}
