//! A faulty network link for partition tests: a TCP proxy on loopback that a test puts between a
//! node and PostgreSQL (or NATS), then slows, blackholes, refuses, cuts and heals mid-match.
//!
//! The node is given [`Link::addr`] instead of the server's address; [`Link::set`] changes what
//! the link does at once, for the connections already open through it and for new ones. What the
//! program behind the link (PostgreSQL's client, NATS's client) sees in each [`Mode`]:
//!
//! - [`Mode::Pass`]: a working network.
//! - [`Mode::Delay`]: slow answers. Every chunk of bytes is delivered a fixed time after the link
//!   read it, in order, in both directions: nothing is lost, a round trip takes twice the delay.
//! - [`Mode::Blackhole`]: no answers, the connection stays open (what a firewall that drops
//!   packets does to a TCP stream). The client's own timeouts and pings decide what happens
//!   (PostgreSQL's client's query timeouts, NATS's PING/PONG). Unlike a real partition, TCP's
//!   own retransmission timeout and keepalive probes never fire: the link's socket acknowledges
//!   every byte. Bytes sent meanwhile are held and delivered, in order, if the link heals
//!   to `Pass` or `Delay` (as TCP's retransmission succeeds once a partition heals). A new
//!   connection completes its handshake (with the link) but is not connected to the server until
//!   the link heals, so its client sees no answer either.
//! - [`Mode::Refuse`]: the other end is down. Every open connection is reset (both sides), and new
//!   connections are reset as soon as the link accepts them: the client's connect may succeed
//!   (the kernel completes the handshake before the link sees it), its next read or write then
//!   fails with a reset, where a real dead host would refuse the connect itself.
//!
//! [`Link::cut`] resets the open connections but keeps the mode: with `Pass`, the client's next
//! connection works (a server restart, or a NAT that forgot its connections).
//!
//! The link holds at most [`HELD_LIMIT`] bytes per connection and direction (data delayed or
//! blackholed); beyond that it stops reading from the sender, whose writes then block as they do
//! on a congested network: never a byte dropped, never unbounded memory.
//!
//! Dropping the [`Link`] stops its listener and closes every connection through it, leaving no
//! task running.

use std::collections::VecDeque;
use std::io;
use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream, UnixStream};
use tokio::sync::watch;
use tokio::task::{JoinHandle, JoinSet};
use tokio::time::Instant;

/// The most bytes a connection holds in one direction (read but not yet delivered) before the
/// link stops reading from the sender: 8 MiB.
pub const HELD_LIMIT: usize = 8 << 20;

/// The most bytes read at once.
const READ_SIZE: usize = 64 << 10;

/// What a [`Link`] does to the bytes and connections through it (the module documentation says
/// what each means for the program behind it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Forward as is.
    Pass,
    /// Deliver every chunk of bytes this long after it was read, in order, in each direction.
    Delay(Duration),
    /// Forward nothing, hold what is read (up to [`HELD_LIMIT`]), keep connections open; new
    /// connections wait, unconnected to the server, until the link heals.
    Blackhole,
    /// Reset every connection, open or new.
    Refuse,
}

/// What every connection's task watches: the mode, and how many times the link was cut.
#[derive(Clone, Copy, Debug)]
struct State {
    mode: Mode,
    cuts: u64,
}

/// A TCP proxy on loopback to one upstream address, whose behaviour a test changes at will.
///
/// Each accepted connection is connected to the upstream address (once the link is not a
/// blackhole); if the upstream refuses, the link resets the client's connection.
#[derive(Debug)]
pub struct Link {
    addr: SocketAddr,
    state: watch::Sender<State>,
    open: Arc<AtomicUsize>,
    /// The accept loop; it owns every connection's task (in a [`JoinSet`]), so aborting it ends
    /// them all.
    accept: JoinHandle<()>,
}

impl Link {
    /// Starts a link to `upstream` in [`Mode::Pass`], listening on a port of 127.0.0.1 (or of
    /// `[::1]` when `upstream` is IPv6) that the system picks.
    ///
    /// Must be called within a Tokio runtime (the link's tasks run on it).
    ///
    /// # Errors
    /// When the listener cannot be bound.
    pub async fn start(upstream: SocketAddr) -> io::Result<Link> {
        let local: SocketAddr = if upstream.is_ipv6() {
            (Ipv6Addr::LOCALHOST, 0).into()
        } else {
            (Ipv4Addr::LOCALHOST, 0).into()
        };
        Link::listen(local, Upstream::Tcp(upstream)).await
    }

    /// Starts a link on a port of 127.0.0.1 to a server listening on the Unix socket `path` (the
    /// tests' PostgreSQL listens on one only), in [`Mode::Pass`].
    ///
    /// # Errors
    /// When the listener cannot be bound.
    pub async fn start_unix(path: impl Into<PathBuf>) -> io::Result<Link> {
        Link::listen((Ipv4Addr::LOCALHOST, 0).into(), Upstream::Unix(Arc::new(path.into()))).await
    }

    async fn listen(local: SocketAddr, upstream: Upstream) -> io::Result<Link> {
        let listener = TcpListener::bind(local).await?;
        let addr = listener.local_addr()?;
        let (state, watcher) = watch::channel(State { mode: Mode::Pass, cuts: 0 });
        let open = Arc::new(AtomicUsize::new(0));
        let accept = tokio::spawn(accept_loop(listener, upstream, watcher, open.clone()));
        Ok(Link { addr, state, open, accept })
    }

    /// The address to connect to instead of the upstream one.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Changes what the link does, at once, for open and new connections.
    pub fn set(&self, mode: Mode) {
        self.state.send_modify(|state| state.mode = mode);
    }

    /// The current mode.
    pub fn mode(&self) -> Mode {
        self.state.borrow().mode
    }

    /// Resets every connection the link has accepted (as [`Mode::Refuse`] does), keeping the
    /// mode: new connections then behave as it says. A connection still in the kernel's backlog
    /// (its client's `connect` returned, the link has not accepted it yet) is not cut; a test
    /// that must cut it first waits for [`Link::connections`] to count it, or for an answer
    /// through it.
    pub fn cut(&self) {
        self.state.send_modify(|state| state.cuts += 1);
    }

    /// How many connections through the link are open now (accepted and not yet closed).
    pub fn connections(&self) -> usize {
        self.open.load(Ordering::SeqCst)
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        // Drops the listener and the JoinSet of connections, which aborts them all (their
        // sockets close); the closed watch channel also tells each connection to end.
        self.accept.abort();
    }
}

/// Counts a connection open for as long as it lives (dropped too when its task is aborted).
struct Open(Arc<AtomicUsize>);

impl Open {
    fn new(count: &Arc<AtomicUsize>) -> Open {
        count.fetch_add(1, Ordering::SeqCst);
        Open(count.clone())
    }
}

impl Drop for Open {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Where a link's connections go.
#[derive(Clone, Debug)]
enum Upstream {
    Tcp(SocketAddr),
    Unix(Arc<PathBuf>),
}

/// A connection to the upstream server.
enum Server {
    Tcp(TcpStream),
    Unix(UnixStream),
}

impl Upstream {
    async fn connect(&self) -> io::Result<Server> {
        Ok(match self {
            Upstream::Tcp(addr) => {
                let server = TcpStream::connect(addr).await?;
                let _ = server.set_nodelay(true);
                Server::Tcp(server)
            }
            Upstream::Unix(path) => Server::Unix(UnixStream::connect(path.as_path()).await?),
        })
    }
}

async fn accept_loop(
    listener: TcpListener,
    upstream: Upstream,
    watcher: watch::Receiver<State>,
    open: Arc<AtomicUsize>,
) {
    let mut connections = JoinSet::new();
    loop {
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((client, _)) => {
                    // The cuts so far are taken now: a cut after this accept closes it.
                    let cuts = watcher.borrow().cuts;
                    let counted = Open::new(&open);
                    let watcher = watcher.clone();
                    let upstream = upstream.clone();
                    connections.spawn(async move {
                        connection(client, upstream, watcher, cuts).await;
                        drop(counted);
                    });
                }
                // Out of file descriptors, say: wait a little instead of spinning on the error.
                Err(_) => tokio::time::sleep(Duration::from_millis(10)).await,
            },
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
        }
    }
}

/// Whether a connection that started after `cuts` cuts must close now.
fn closing(state: &State, cuts: u64) -> bool {
    state.mode == Mode::Refuse || state.cuts != cuts
}

/// Closes with a reset (`SO_LINGER` zero) rather than a FIN.
fn reset(stream: TcpStream) {
    // If the option cannot be set the stream still closes, with a FIN.
    let _ = stream.set_zero_linger();
    drop(stream);
}

/// One proxied connection, from its accept to its close.
async fn connection(
    mut client: TcpStream,
    upstream: Upstream,
    mut watcher: watch::Receiver<State>,
    cuts: u64,
) {
    let _ = client.set_nodelay(true);
    // Wait out a blackhole before connecting upstream; a Refuse or a cut meanwhile resets.
    let server = loop {
        let state = *watcher.borrow_and_update();
        if closing(&state, cuts) {
            return reset(client);
        }
        if state.mode == Mode::Blackhole {
            if watcher.changed().await.is_err() {
                return reset(client);
            }
            continue;
        }
        tokio::select! {
            connected = upstream.connect() => match connected {
                Ok(server) => break server,
                // The upstream refused: so does the link.
                Err(_) => return reset(client),
            },
            changed = watcher.changed() => if changed.is_err() {
                return reset(client);
            },
        }
    };
    let clean = match server {
        Server::Tcp(mut server) => {
            let clean = pump(&mut client, &mut server, watcher, cuts).await;
            if !clean {
                reset(server);
            }
            clean
        }
        // A Unix socket has no reset: it closes.
        Server::Unix(mut server) => pump(&mut client, &mut server, watcher, cuts).await,
    };
    if !clean {
        reset(client);
    }
}

/// One direction of a connection: what was read and not yet delivered.
struct Held {
    /// Chunks with the instant each was read; `None` is the sender's end of stream (a FIN),
    /// delivered in its turn like the bytes.
    chunks: VecDeque<(Instant, Option<Vec<u8>>)>,
    /// Bytes of the front chunk already written.
    written: usize,
    /// Bytes in `chunks` not yet written.
    bytes: usize,
    /// The sender's end of stream was read.
    ended: bool,
    /// The end of stream was delivered: this direction is over.
    done: bool,
}

/// What happened to the front chunk of a direction.
enum Delivered {
    Bytes(usize),
    End,
}

impl Held {
    fn new() -> Held {
        Held { chunks: VecDeque::new(), written: 0, bytes: 0, ended: false, done: false }
    }

    /// How many bytes may be read now (zero: do not read).
    fn room(&self) -> usize {
        if self.ended { 0 } else { HELD_LIMIT.saturating_sub(self.bytes).min(READ_SIZE) }
    }

    /// Takes in the result of a read.
    fn read(&mut self, data: &[u8]) {
        let now = Instant::now();
        if data.is_empty() {
            self.ended = true;
            self.chunks.push_back((now, None));
        } else {
            self.bytes += data.len();
            self.chunks.push_back((now, Some(data.to_vec())));
        }
    }

    /// Delivers (part of) the front chunk once it is due, `delay` after it was read.
    async fn deliver<W: AsyncWriteExt + Unpin>(&self, to: &mut W, delay: Duration) -> io::Result<Delivered> {
        let Some((read_at, chunk)) = self.chunks.front() else { return std::future::pending().await };
        let due = *read_at + delay;
        if due > Instant::now() {
            tokio::time::sleep_until(due).await;
        }
        match chunk {
            Some(bytes) => match to.write(&bytes[self.written..]).await? {
                0 => Err(io::ErrorKind::WriteZero.into()),
                n => Ok(Delivered::Bytes(n)),
            },
            None => to.shutdown().await.map(|()| Delivered::End),
        }
    }

    /// Takes in what [`Held::deliver`] did.
    fn delivered(&mut self, what: Delivered) {
        match what {
            Delivered::Bytes(n) => {
                self.written += n;
                self.bytes -= n;
                if matches!(self.chunks.front(), Some((_, Some(chunk))) if chunk.len() == self.written) {
                    self.chunks.pop_front();
                    self.written = 0;
                }
            }
            Delivered::End => {
                self.chunks.pop_front();
                self.done = true;
            }
        }
    }
}

/// Moves bytes both ways as the mode says, until both ends have closed (then closes normally) or
/// the link resets the connection (Refuse, a cut, the link dropped, or an error on either side).
/// `true` when it ended cleanly (the caller resets both otherwise).
async fn pump<S: AsyncRead + AsyncWrite + Unpin>(
    client: &mut TcpStream,
    server: &mut S,
    mut watcher: watch::Receiver<State>,
    cuts: u64,
) -> bool {
    let (mut up, mut down) = (Held::new(), Held::new());
    let (mut up_buf, mut down_buf) = (vec![0; READ_SIZE], vec![0; READ_SIZE]);
    {
        let (mut client_r, mut client_w) = client.split();
        let (mut server_r, mut server_w) = tokio::io::split(server);
        loop {
            let state = *watcher.borrow_and_update();
            if closing(&state, cuts) {
                break false;
            }
            if up.done && down.done {
                break true;
            }
            let delay = match state.mode {
                Mode::Pass => Some(Duration::ZERO),
                Mode::Delay(delay) => Some(delay),
                Mode::Blackhole | Mode::Refuse => None,
            };
            let (up_room, down_room) = (up.room(), down.room());
            let outcome: io::Result<()> = tokio::select! {
                n = client_r.read(&mut up_buf[..up_room]), if up_room > 0 => n.map(|n| up.read(&up_buf[..n])),
                n = server_r.read(&mut down_buf[..down_room]), if down_room > 0 => {
                    n.map(|n| down.read(&down_buf[..n]))
                }
                what = up.deliver(&mut server_w, delay.unwrap_or_default()), if delay.is_some() => {
                    what.map(|what| up.delivered(what))
                }
                what = down.deliver(&mut client_w, delay.unwrap_or_default()), if delay.is_some() => {
                    what.map(|what| down.delivered(what))
                }
                changed = watcher.changed() => changed.map_err(|_| io::ErrorKind::NotConnected.into()),
            };
            if outcome.is_err() {
                break false;
            }
        }
    }
}
