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
//!
//! By default it starts a server of its own (`load_server.rs`: a temporary embedded database,
//! deleted at the end); a server it did not start it targets only with `--running-server`, since
//! it plays hundreds of matches there. Either way it ends every match it played and logs out
//! every session (`load_end.rs`), and it ends with a verdict against its targets and the settings
//! to change (`load_verdict.rs`); its exit status is 1 when they are not met.

use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use anyhow::Context;
use clap::Args;
use shvedka_client::{Client, ClientError, MatchModel, Update, Updates};
use shvedka_proto::{Board, ClientMsg, ErrorCode, EventView, MatchId, PhaseView, SeatId, ServerMsg};
use tokio::sync::Mutex;
use tokio::time::Instant;

use crate::Failure;
use crate::client_cmds::ConnectArgs;
use crate::load_crowd::{self, Crowd};
use crate::load_end::{self, next_update};
use crate::load_figures::Percentiles;
use crate::load_server::OwnServer;
use crate::load_verdict::{self, Observed, SetupFailure, Targets, Verdict};

/// The UDP receive buffer asked for each client endpoint (the system may grant less; raise
/// `net.core.rmem_max` to get it all).
const RECV_BUFFER: usize = 8 << 20;

/// Arguments of `shvedka load`.
#[derive(Debug, Args)]
pub(crate) struct LoadArgs {
    /// A running server to load, as HOST:PORT (with --running-server); without it, load starts a
    /// server of its own with a temporary database and stops it at the end.
    #[arg(long, value_name = "HOST:PORT")]
    server: Option<String>,
    /// The running server's certificate SHA-256, as `shvedka serve` prints it.
    #[arg(long, requires = "server")]
    fingerprint: Option<String>,
    /// Yes, load the running server --server names: its players will see the run's matches,
    /// which its database keeps. Never a tournament's server; a server with real accounts only
    /// when you mean it.
    #[arg(long)]
    running_server: bool,
    /// The settings of the server load starts (the ones being sized: max_connections,
    /// rate_per_second …); its data directory, addresses and limits per address are the run's.
    #[arg(long, value_name = "FILE", conflicts_with = "server")]
    server_config: Option<std::path::PathBuf>,
    /// The target: a move sent until all four players have its event, 99th percentile, ms.
    #[arg(long, default_value_t = 100.0)]
    target_p99_ms: f64,
    /// The target: of the moves answered within the run, at least this share served, percent.
    #[arg(long, default_value_t = 99.0)]
    target_served_percent: f64,
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
    /// Moves still on their way when the run stopped.
    in_flight: AtomicU64,
    /// Moves refused for the connection's request rate (`rate_per_second`).
    rate_limited: AtomicU64,
    /// Matches ended at the end of the run, and those that could not be.
    ended: AtomicU64,
    left_live: AtomicU64,
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
    if let (Some(server), false) = (&args.server, args.running_server) {
        return Err(Failure {
            code: 2,
            message: format!(
                "--server {server} is a server this run did not start: load plays --matches \
                 matches there, which its players see and its database keeps. Leave --server out to \
                 have load start a server of its own (--server-config FILE for the settings to size), \
                 or add --running-server if it is a test server of yours — never a tournament's, nor \
                 one with real accounts unless you mean it"
            ),
        }
        .into());
    }
    let own = match &args.server {
        Some(_) => None,
        None => Some(OwnServer::start(args.server_config.as_deref())?),
    };
    let connect = match (&own, &args.server) {
        (Some(own), _) => own.connect(),
        (None, Some(server)) => ConnectArgs::new(server.clone(), args.fingerprint.clone()),
        (None, None) => unreachable!("load starts a server when none is named"),
    };
    match &own {
        Some(own) => writeln!(
            out,
            "load: started a server of its own on {} (a temporary database, deleted at the end; \
             max_connections {})",
            connect.server(),
            own.max_connections()
        )?,
        None => writeln!(out, "load: on the running server {} (--running-server)", connect.server())?,
    }
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    let verdict = runtime.block_on(load(args, &connect, out));
    drop(runtime);
    if let Some(own) = own {
        let (matches, sessions) = own.held(Duration::from_secs(5));
        writeln!(
            out,
            "load: its server held {matches} live matches and {sessions} sessions at the end; stopped"
        )?;
        own.stop()?;
    }
    let verdict = verdict?;
    verdict.print(out)?;
    if verdict.met {
        Ok(())
    } else {
        Err(Failure {
            code: 1,
            message: "the targets were not met (the verdict above says what to change)".into(),
        }
        .into())
    }
}

async fn load(args: &LoadArgs, connect: &ConnectArgs, out: &mut dyn Write) -> anyhow::Result<Verdict> {
    let (addr, trust) = connect.target()?;
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
    let mut setup_failures = std::collections::BTreeMap::new();
    for chunk in (0..args.matches).collect::<Vec<_>>().chunks(32) {
        let mut tasks = Vec::new();
        for &m in chunk {
            let endpoints = endpoints.clone();
            let (trust, rules, tc) = (trust.clone(), args.rules.clone(), args.time_control.clone());
            // The crowd's match is listed: anyone may watch it.
            let listed = args.listed || (m == 0 && args.spectators > 0);
            tasks.push(tokio::spawn(async move {
                let mut clients = Vec::with_capacity(4);
                let set_up = async {
                    for (i, seat) in SeatId::ALL.into_iter().enumerate() {
                        let endpoint = endpoints[(m * 4 + i) % endpoints.len()].clone();
                        let name = format!("load{m}-{}", seat.name());
                        clients.push(Client::connect_on(endpoint, addr, &trust, &name).await?);
                    }
                    start_match(&clients.iter().collect::<Vec<_>>(), &rules, &tc, listed).await
                };
                match set_up.await {
                    Ok(id) => Ok((clients, id)),
                    Err(e) => {
                        // What was made of it goes: its sessions are logged out.
                        for c in &clients {
                            let _ = c.request(ClientMsg::Logout).await;
                        }
                        Err(e)
                    }
                }
            }));
        }
        for t in tasks {
            match t.await? {
                Ok(set_up) => matches.push(set_up),
                Err(e) => *setup_failures.entry(SetupFailure::of(&e)).or_default() += 1,
            }
        }
    }
    for (why, n) in &setup_failures {
        writeln!(out, "load: {n} matches could not be set up: {why}")?;
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
            // A crowd that cannot connect is a finding, not an abort: the matches set up are
            // played and ended as ever.
            match load_crowd::connect(n, &endpoints, addr, &trust).await {
                Ok(clients) => {
                    let secs = crowd_setup.elapsed().as_secs_f64();
                    writeln!(out, "load: {n} spectators connected in {secs:.1} s")?;
                    Some((Crowd::new(*first), clients))
                }
                Err(e) => {
                    writeln!(out, "load: the spectators could not connect: {e}")?;
                    *setup_failures.entry(SetupFailure::of(&e)).or_default() += 1;
                    None
                }
            }
        }
    };
    // Each match's countdown is waited for: --duration is play.
    let mut prepared = Vec::with_capacity(matches.len());
    for (mut clients, _) in matches {
        let mut updates: Vec<Option<Updates>> = clients.iter_mut().map(|c| Some(c.take_updates())).collect();
        let model = load_end::started(&mut updates).await;
        prepared.push((clients, updates, model));
    }
    writeln!(
        out,
        "load: {} matches set up in {:.1} s; playing for {} s",
        prepared.len(),
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
    // Nothing to play when no match was set up: the verdict says why at once.
    let duration = if prepared.is_empty() { 0 } else { args.duration };
    let until = Instant::now() + Duration::from_secs(duration);
    let pace = Duration::from_millis(args.pace_ms);
    let mut tasks = Vec::new();
    let crowd = crowd.map(|(crowd, clients)| {
        tasks.extend(load_crowd::watch_all(clients, &crowd, until));
        crowd
    });
    for (i, (clients, updates, model)) in prepared.into_iter().enumerate() {
        let game = Game {
            rules: args.rules.clone(),
            time_control: args.time_control.clone(),
            listed: args.listed,
            pace,
            until,
        };
        let watched = crowd.clone().filter(|_| i == 0);
        tasks.push(tokio::spawn(play(
            Players { clients, updates, model },
            i as u64,
            game,
            totals.clone(),
            watched,
        )));
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
    let count = |c: &AtomicU64| c.load(Ordering::Relaxed);
    writeln!(
        out,
        "load: offered {:.0} moves/s, served {:.0} moves/s ({} of {}), {p}, refused {}, errors {}, disconnected {}, matches decided and replaced {}",
        count(&totals.offered) as f64 / secs,
        count(&totals.served) as f64 / secs,
        count(&totals.served),
        count(&totals.offered),
        count(&totals.refused),
        count(&totals.errors),
        count(&totals.disconnected),
        count(&totals.decided)
    )?;
    for (why, n) in totals.disconnect_reasons.lock().expect("reasons lock").iter() {
        writeln!(out, "load: {n} connections lost: {why}")?;
    }
    if let Some(crowd) = &crowd {
        crowd.report(args.spectators, out)?;
    }
    writeln!(
        out,
        "load: ended {} matches and logged out their players{}",
        count(&totals.ended),
        match count(&totals.left_live) {
            0 => String::new(),
            n => format!("; {n} could not be ended"),
        }
    )?;
    if let Some(t) = &totals.timeline {
        t.lock().expect("timeline lock").flush().context("cannot write the --events file")?;
    }
    let observed = Observed {
        matches_asked: args.matches,
        setup_failures,
        connections: args.matches * 4 + args.spectators,
        offered: count(&totals.offered),
        served: count(&totals.served),
        refused: count(&totals.refused),
        in_flight: count(&totals.in_flight),
        rate_limited: count(&totals.rate_limited),
        errors: count(&totals.errors),
        disconnected: count(&totals.disconnected),
        p99_ms: p.p99_ms,
        left_live: count(&totals.left_live),
    };
    let targets = Targets { p99_ms: args.target_p99_ms, served_percent: args.target_served_percent };
    Ok(load_verdict::weigh(&observed, targets))
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

/// A match's four players, their updates, and what the first has seen of it.
struct Players {
    clients: Vec<Client>,
    updates: Vec<Option<Updates>>,
    model: Option<MatchModel>,
}

/// What every match plays, and until when.
struct Game {
    rules: String,
    time_control: String,
    listed: bool,
    pace: Duration,
    until: Instant,
}

/// Plays one match: each board moves once per `pace`, a random legal move of the side to move.
/// When the match is decided, the same four start another, so the server holds `--matches`
/// live matches all along (and releases the decided ones, as on a tournament night).
async fn play(players: Players, seed: u64, game: Game, totals: Arc<Totals>, crowd: Option<Arc<Crowd>>) {
    let Game { pace, until, .. } = game;
    // The four clients' updates are read by this task itself: no task between a client and it.
    let Players { clients, mut updates, mut model } = players;
    let clients: Vec<Arc<Client>> = clients.into_iter().map(Arc::new).collect();
    let pending: Arc<Mutex<[Option<Pending>; 2]>> = Arc::default();
    let mut turn_started = [Instant::now(); 2];
    let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    // Matches are spread over the pace, as players are: not all moving in the same millisecond.
    let offset = pace.mul_f64((seed.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64);
    let mut tick = tokio::time::interval_at(Instant::now() + offset, pace);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            () = tokio::time::sleep_until(until) => break,
            update = next_update(&mut updates) => {
                let Some((i, update)) = update else { break };
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
                            break;
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
                        let answer = client.play(wire, &uci, Some(thought)).await;
                        // An answer after the run is the run's own ending (a resigned match, a
                        // logged-out session): the move counts as on its way at the end.
                        if Instant::now() >= until {
                            return;
                        }
                        match answer {
                            Ok(()) => return,
                            Err(ClientError::Server(e)) if e.code == ErrorCode::RateLimited => {
                                totals.rate_limited.fetch_add(1, Ordering::Relaxed);
                            }
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
    // The run is over: the moves still on their way are not counted against the server, and
    // the match is ended and its players logged out.
    let in_flight = pending.lock().await.iter().filter(|p| p.is_some()).count() as u64;
    totals.in_flight.fetch_add(in_flight, Ordering::Relaxed);
    let counter = if load_end::finish(&clients, &mut updates, &mut model).await {
        &totals.ended
    } else {
        &totals.left_live
    };
    counter.fetch_add(1, Ordering::Relaxed);
}
