//! `shvedka load`: sizing a server before a tournament night. It plays random legal moves in N
//! matches of four connections (sharing a few QUIC endpoints, so the generator stays cheap), each
//! board moving once every `--pace-ms`, and reports what was offered and served and how long a
//! move took from being sent until all four players had its event. It targets only the address
//! it is given and stops by itself after `--duration`.
//!
//! For the attack suite (`shvedka attack`, `tools/attack.py`) it can also speak from several
//! loopback addresses (`--bind`), so that the server's limits per address stay at their defaults
//! for honest players, create listed matches (`--listed`) that anyone may watch and review, and
//! write a timeline of every served move, error and lost connection (`--events`), from which the
//! driver takes each attack's window.
//!
//! With `--spectators N` a crowd watches the first match (`load_crowd.rs`).

use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use anyhow::Context;
use clap::Args;
use shvedka_client::{Client, ClientError, MatchModel, Update, Updates};
use shvedka_proto::{Board, EventView, MatchId, PhaseView, SeatId, ServerMsg};
use tokio::sync::Mutex;
use tokio::time::Instant;

use crate::client_cmds::ConnectArgs;
use crate::load_crowd::{self, Crowd};

/// The UDP receive buffer asked for each client endpoint (the system may grant less; raise
/// `net.core.rmem_max` to get it all).
const RECV_BUFFER: usize = 8 << 20;

/// Arguments of `shvedka load`.
#[derive(Debug, Args)]
pub(crate) struct LoadArgs {
    #[command(flatten)]
    connect: ConnectArgs,
    /// Matches played at once (four connections each).
    #[arg(long, default_value_t = 50)]
    matches: usize,
    /// Each board moves once every this many milliseconds.
    #[arg(long, default_value_t = 1000)]
    pace_ms: u64,
    /// How long to play, seconds (after every match has started).
    #[arg(long, default_value_t = 30)]
    duration: u64,
    /// Rule preset of the matches.
    #[arg(long, default_value = "classic")]
    rules: String,
    /// Time control of the matches (long enough not to flag during the run).
    #[arg(long, default_value = "60+0")]
    time_control: String,
    /// Client QUIC endpoints (UDP sockets) the connections share.
    #[arg(long, default_value_t = 16)]
    endpoints: usize,
    /// Local addresses the endpoints speak from, in turn (e.g. 127.0.1.1,127.0.1.2): players
    /// spread over several addresses, each within the server's limits per address. Default: the
    /// loopback address (or any, for a server elsewhere).
    #[arg(long, value_delimiter = ',', value_name = "IP[,IP…]")]
    bind: Vec<IpAddr>,
    /// Create listed matches (anyone may watch them and read their records), as a tournament
    /// night's are; by default they are private.
    #[arg(long)]
    listed: bool,
    /// Write a timeline to this file, one line per served move (`<unix ms> M <latency µs>`),
    /// failed request (`<unix ms> E`) and lost connection (`<unix ms> D <why>`), flushed every
    /// second.
    #[arg(long, value_name = "FILE")]
    events: Option<std::path::PathBuf>,
    /// Sessions watching the first match (made listed), over endpoints of their own, 250
    /// connections each, speaking from the --bind addresses in turn.
    #[arg(long, default_value_t = 0)]
    spectators: usize,
}

/// Spectators' connections per client endpoint.
const SPECTATORS_PER_ENDPOINT: usize = 250;

/// A latency distribution's figures.
pub(crate) struct Percentiles {
    pub(crate) p50_ms: f64,
    pub(crate) p99_ms: f64,
    pub(crate) max_ms: f64,
}

impl Percentiles {
    /// The figures of `us` (microseconds; sorted here).
    pub(crate) fn of(us: &mut [u64]) -> Percentiles {
        us.sort_unstable();
        let pct = |p: f64| {
            us.get(((us.len().saturating_sub(1)) as f64 * p).round() as usize).copied().unwrap_or(0) as f64
                / 1000.0
        };
        Percentiles { p50_ms: pct(0.5), p99_ms: pct(0.99), max_ms: pct(1.0) }
    }
}

impl std::fmt::Display for Percentiles {
    /// As the reports print them: `p50 1.2 ms, p99 3.4 ms, max 5.6 ms`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms", self.p50_ms, self.p99_ms, self.max_ms)
    }
}

/// The `--events` timeline, shared by every match.
type Timeline = Option<std::sync::Mutex<std::io::BufWriter<std::fs::File>>>;

/// Milliseconds since the Unix epoch, the timeline's clock (the driver's windows use it too).
fn unix_ms() -> u128 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis())
}

/// What every match reports.
#[derive(Default)]
struct Totals {
    offered: AtomicU64,
    served: AtomicU64,
    /// Moves the server refused: the position changed under them (a removal from the other
    /// board, R3) or the match ended meanwhile; the rules at work, not a fault.
    refused: AtomicU64,
    /// Requests that got no answer (a connection failed) or a setup that failed.
    errors: AtomicU64,
    /// Connections lost during the run (the server closed them, or the network failed).
    disconnected: AtomicU64,
    /// Why, with how many each.
    disconnect_reasons: std::sync::Mutex<std::collections::BTreeMap<String, u64>>,
    /// Matches decided during the run (each is followed by a new one with the same players).
    decided: AtomicU64,
    latencies_us: std::sync::Mutex<Vec<u64>>,
    timeline: Timeline,
}

impl Totals {
    /// Notes a line of the timeline, if there is one.
    fn note(&self, line: std::fmt::Arguments<'_>) {
        if let Some(t) = &self.timeline {
            let mut t = t.lock().expect("timeline lock");
            let _ = writeln!(t, "{} {line}", unix_ms());
        }
    }

    fn error(&self) {
        self.errors.fetch_add(1, Ordering::Relaxed);
        self.note(format_args!("E"));
    }
}

pub(crate) fn run(args: &LoadArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    anyhow::ensure!(
        args.matches > 0 && args.pace_ms > 0 && args.endpoints > 0,
        "--matches, --pace-ms and --endpoints must be positive"
    );
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(load(args, out))
}

async fn load(args: &LoadArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let (addr, trust) = args.connect.target()?;
    let endpoint = |i: usize| match args.bind.get(i % args.bind.len().max(1)) {
        Some(&ip) => Client::endpoint_bound(SocketAddr::new(ip, 0), &trust, RECV_BUFFER),
        None => Client::endpoint_with_buffer(addr, &trust, RECV_BUFFER),
    };
    let endpoints: Vec<_> = (0..args.endpoints)
        .map(endpoint)
        .collect::<Result<_, _>>()
        .context("cannot make the client endpoints (is every --bind address this machine's?)")?;
    writeln!(
        out,
        "load: {} matches ({} connections) on {addr}, a move per board every {} ms",
        args.matches,
        args.matches * 4,
        args.pace_ms
    )?;
    // Set up in batches, so the server sees a steady stream of handshakes.
    let setup = Instant::now();
    let mut matches = Vec::with_capacity(args.matches);
    for chunk in (0..args.matches).collect::<Vec<_>>().chunks(32) {
        let mut tasks = Vec::new();
        for &m in chunk {
            let endpoints = endpoints.clone();
            let (trust, rules, tc) = (trust.clone(), args.rules.clone(), args.time_control.clone());
            // The crowd's match is listed: anyone may watch it.
            let listed = args.listed || (m == 0 && args.spectators > 0);
            tasks.push(tokio::spawn(async move {
                let mut clients = Vec::with_capacity(4);
                for (i, seat) in SeatId::ALL.into_iter().enumerate() {
                    let endpoint = endpoints[(m * 4 + i) % endpoints.len()].clone();
                    let name = format!("load{m}-{}", seat.name());
                    clients.push(Client::connect_on(endpoint, addr, &trust, &name).await?);
                }
                let id = start_match(&clients.iter().collect::<Vec<_>>(), &rules, &tc, listed).await?;
                Ok::<_, shvedka_client::ClientError>((clients, id))
            }));
        }
        for t in tasks {
            matches.push(t.await?.context("setting up a match")?);
        }
    }
    let timeline = match &args.events {
        Some(path) => Some(std::sync::Mutex::new(std::io::BufWriter::new(
            std::fs::File::create(path).with_context(|| format!("cannot create {}", path.display()))?,
        ))),
        None => None,
    };
    let setup = setup.elapsed();
    let crowd = match (args.spectators, matches.first()) {
        (0, _) | (_, None) => None,
        (n, Some((_, first))) => {
            let crowd_setup = Instant::now();
            // Endpoints of their own, after the players' in the turn of --bind addresses.
            let endpoints: Vec<_> = (0..n.div_ceil(SPECTATORS_PER_ENDPOINT))
                .map(|i| endpoint(args.endpoints + i))
                .collect::<Result<_, _>>()
                .context("cannot make the spectators' endpoints")?;
            let clients = load_crowd::connect(n, &endpoints, addr, &trust)
                .await
                .context("connecting the spectators")?;
            writeln!(out, "load: {n} spectators connected in {:.1} s", crowd_setup.elapsed().as_secs_f64())?;
            Some((Crowd::new(*first), clients))
        }
    };
    writeln!(
        out,
        "load: {} matches set up in {:.1} s; playing for {} s",
        matches.len(),
        setup.as_secs_f64(),
        args.duration
    )?;
    let totals = Arc::new(Totals { timeline, ..Totals::default() });
    if totals.timeline.is_some() {
        let totals = totals.clone();
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(Duration::from_secs(1)).await;
                if let Some(t) = &totals.timeline {
                    let _ = t.lock().expect("timeline lock").flush();
                }
            }
        });
    }
    let until = Instant::now() + Duration::from_secs(args.duration);
    let pace = Duration::from_millis(args.pace_ms);
    let mut tasks = Vec::new();
    let crowd = crowd.map(|(crowd, clients)| {
        tasks.extend(load_crowd::watch_all(clients, &crowd, until));
        crowd
    });
    for (i, (clients, _)) in matches.into_iter().enumerate() {
        let game = Game {
            rules: args.rules.clone(),
            time_control: args.time_control.clone(),
            listed: args.listed,
            pace,
            until,
        };
        let watched = crowd.clone().filter(|_| i == 0);
        tasks.push(tokio::spawn(play(clients, i as u64, game, totals.clone(), watched)));
    }
    let started = Instant::now();
    let mut last = (0u64, 0u64);
    while Instant::now() < until {
        tokio::time::sleep(Duration::from_secs(5).min(until - Instant::now())).await;
        let (offered, served) =
            (totals.offered.load(Ordering::Relaxed), totals.served.load(Ordering::Relaxed));
        let secs = 5.0_f64.min(started.elapsed().as_secs_f64()).max(0.001);
        writeln!(
            out,
            "  {:>4.0} s  offered {:>6.0}/s  served {:>6.0}/s  refused {}  errors {}",
            started.elapsed().as_secs_f64(),
            (offered - last.0) as f64 / secs,
            (served - last.1) as f64 / secs,
            totals.refused.load(Ordering::Relaxed),
            totals.errors.load(Ordering::Relaxed)
        )?;
        last = (offered, served);
    }
    for t in tasks {
        let _ = t.await;
    }
    let secs = started.elapsed().as_secs_f64();
    let mut lat = std::mem::take(&mut *totals.latencies_us.lock().expect("latency lock"));
    let p = Percentiles::of(&mut lat);
    writeln!(
        out,
        "load: offered {:.0} moves/s, served {:.0} moves/s ({} of {}), {p}, refused {}, errors {}, disconnected {}, matches decided and replaced {}",
        totals.offered.load(Ordering::Relaxed) as f64 / secs,
        totals.served.load(Ordering::Relaxed) as f64 / secs,
        totals.served.load(Ordering::Relaxed),
        totals.offered.load(Ordering::Relaxed),
        totals.refused.load(Ordering::Relaxed),
        totals.errors.load(Ordering::Relaxed),
        totals.disconnected.load(Ordering::Relaxed),
        totals.decided.load(Ordering::Relaxed)
    )?;
    for (why, n) in totals.disconnect_reasons.lock().expect("reasons lock").iter() {
        writeln!(out, "load: {n} connections lost: {why}")?;
    }
    if let Some(crowd) = &crowd {
        crowd.report(args.spectators, out)?;
    }
    if let Some(t) = &totals.timeline {
        t.lock().expect("timeline lock").flush().context("cannot write the --events file")?;
    }
    Ok(())
}

/// Creates a match with the four clients seated in order and ready.
async fn start_match(
    clients: &[&Client],
    rules: &str,
    tc: &str,
    listed: bool,
) -> Result<MatchId, ClientError> {
    let id = if listed {
        clients[0].create_match(rules, tc, true).await?
    } else {
        // Private, as a load run's matches are no one else's business: the other three reach it
        // with its invitation code.
        let (id, code) = clients[0].create_private(rules, tc).await?;
        for c in &clients[1..] {
            c.redeem(&code).await?;
        }
        id
    };
    for (c, seat) in clients.iter().zip(SeatId::ALL) {
        c.take_seat(id, seat).await?;
    }
    for c in clients {
        c.ready(true).await?;
    }
    Ok(id)
}

/// A move sent and not yet seen by all four.
struct Pending {
    uci: String,
    sent: Instant,
    seen: u8,
}

/// What every match plays, and until when.
struct Game {
    rules: String,
    time_control: String,
    listed: bool,
    pace: Duration,
    until: Instant,
}

/// The next update of any of a match's clients, with the client's index; `None` once every
/// client is gone. A client whose updates ended is not polled again.
async fn next_update(updates: &mut [Option<Updates>]) -> Option<(usize, Update)> {
    std::future::poll_fn(|cx| {
        let mut open = false;
        for (i, slot) in updates.iter_mut().enumerate() {
            let Some(u) = slot else { continue };
            match u.poll_recv(cx) {
                std::task::Poll::Ready(Some(update)) => return std::task::Poll::Ready(Some((i, update))),
                std::task::Poll::Ready(None) => *slot = None,
                std::task::Poll::Pending => open = true,
            }
        }
        if open { std::task::Poll::Pending } else { std::task::Poll::Ready(None) }
    })
    .await
}

/// Plays one match: each board moves once per `pace`, a random legal move of the side to move.
/// When the match is decided, the same four start another, so the server holds `--matches`
/// live matches all along (and releases the decided ones, as on a tournament night).
async fn play(
    mut clients: Vec<Client>,
    seed: u64,
    game: Game,
    totals: Arc<Totals>,
    crowd: Option<Arc<Crowd>>,
) {
    let Game { pace, until, .. } = game;
    // The four clients' updates are read by this task itself: no task between a client and it.
    let mut updates: Vec<Option<Updates>> = clients.iter_mut().map(|c| Some(c.take_updates())).collect();
    let clients: Vec<Arc<Client>> = clients.into_iter().map(Arc::new).collect();
    let pending: Arc<Mutex<[Option<Pending>; 2]>> = Arc::default();
    let mut model: Option<MatchModel> = None;
    let mut turn_started = [Instant::now(); 2];
    let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    // Matches are spread over the pace, as players are: not all moving in the same millisecond.
    let offset = pace.mul_f64((seed.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64);
    let mut tick = tokio::time::interval_at(Instant::now() + offset, pace);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            () = tokio::time::sleep_until(until) => return,
            update = next_update(&mut updates) => {
                let Some((i, update)) = update else { return };
                let msg = match update {
                    Update::Server(msg) => msg,
                    // Counted, not resumed: a server that closes connections under load (one
                    // that fell behind its events) should show it in the figures.
                    Update::Disconnected(why) => {
                        if Instant::now() < until {
                            totals.disconnected.fetch_add(1, Ordering::Relaxed);
                            totals.note(format_args!("D {why}"));
                            *totals.disconnect_reasons.lock().expect("reasons lock").entry(why).or_default() += 1;
                        }
                        continue;
                    }
                };
                if i == 0 {
                    let _ = MatchModel::follow(&mut model, &msg, std::time::Instant::now(), Duration::ZERO);
                    // A board's turn starts when the clocks start and with each move on it.
                    if let ServerMsg::Event(e) = &msg {
                        match &e.kind {
                            EventView::Started => turn_started = [Instant::now(); 2],
                            EventView::Moved { seat, .. } => turn_started[seat.board() as usize] = Instant::now(),
                            _ => {}
                        }
                    }
                }
                if let ServerMsg::Event(e) = &msg
                    && let EventView::Moved { seat, uci, .. } = &e.kind
                {
                    let board = seat.board() as usize;
                    let mut p = pending.lock().await;
                    if let Some(slot) = p[board].as_mut().filter(|p| &p.uci == uci) {
                        slot.seen += 1;
                        if slot.seen == 4 {
                            let us = u64::try_from(slot.sent.elapsed().as_micros()).unwrap_or(u64::MAX);
                            totals.latencies_us.lock().expect("latency lock").push(us);
                            if let Some(crowd) = &crowd {
                                crowd.played(us);
                            }
                            totals.note(format_args!("M {us}"));
                            totals.served.fetch_add(1, Ordering::Relaxed);
                            p[board] = None;
                        }
                    }
                }
            }
            _ = tick.tick() => {
                let Some(m) = model.as_ref() else { continue };
                if m.result().is_some() {
                    totals.decided.fetch_add(1, Ordering::Relaxed);
                    *pending.lock().await = [None, None];
                    let four: Vec<&Client> = clients.iter().map(|c| &**c).collect();
                    let listed = game.listed || crowd.is_some();
                    match start_match(&four, &game.rules, &game.time_control, listed).await {
                        Ok(next) => {
                            if let Some(crowd) = &crowd {
                                crowd.next_match(next);
                            }
                        }
                        Err(_) => {
                            totals.error();
                            return;
                        }
                    }
                    // The new match's state is on its way; the decided one is not played on.
                    model = None;
                    continue;
                }
                if m.phase() != PhaseView::Running {
                    continue;
                }
                for (board, wire) in [(bughouse::BoardId::A, Board::A), (bughouse::BoardId::B, Board::B)] {
                    let mut p = pending.lock().await;
                    if p[board as usize].is_some() {
                        continue;
                    }
                    let game = m.game();
                    let moves = game.legal_moves(board);
                    if moves.is_empty() {
                        continue;
                    }
                    rng ^= rng << 13;
                    rng ^= rng >> 7;
                    rng ^= rng << 17;
                    let mv = &moves[(rng % moves.len() as u64) as usize];
                    let uci = game.uci(mv);
                    let mover = game.to_move(board).index();
                    p[board as usize] = Some(Pending { uci: uci.clone(), sent: Instant::now(), seen: 0 });
                    if let Some(crowd) = &crowd {
                        crowd.sent(board as usize, &uci);
                    }
                    totals.offered.fetch_add(1, Ordering::Relaxed);
                    let (client, pending, totals) = (clients[mover].clone(), pending.clone(), totals.clone());
                    // The player's own thinking time, as a real client reports it: the clocks
                    // run as they would for people (lag credit, K3, covers only the transit).
                    let thought = turn_started[board as usize].elapsed();
                    tokio::spawn(async move {
                        match client.play(wire, &uci, Some(thought)).await {
                            Ok(()) => return,
                            Err(ClientError::Server(_)) => {
                                totals.refused.fetch_add(1, Ordering::Relaxed);
                            }
                            Err(_) => totals.error(),
                        }
                        pending.lock().await[board as usize] = None;
                    });
                }
            }
        }
    }
}
