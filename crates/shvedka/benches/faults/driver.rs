//! The players: four driver clients per match, each given all the nodes' addresses (rotated, so
//! the players of a match sit on different nodes), playing random legal moves a little while
//! after their turn comes, and resuming (on the next address, with a bounded back-off) whenever
//! their connection goes. Each writes down what the check needs: every move acknowledged to it
//! (seat, how many of its own moves came before it, its text) and every event it was told, and
//! counts events told twice or skipped as they arrive. A slot keeps one match live: when its
//! match ends, four new players start another.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use shvedka_client::{Client, ClientError, MatchModel, Trust, Update, rules_seat, wire_board};
use shvedka_proto::{EventView, MatchId, PhaseView, SeatId, ServerMsg};
use testkit::SplitMix;

use crate::cluster::TIME_CONTROL;

/// A move acknowledged to a player.
pub(crate) struct Ack {
    pub(crate) ordinal: usize,
    pub(crate) uci: String,
    pub(crate) at: Instant,
}

/// What one player saw and did.
#[derive(Default)]
pub(crate) struct Seen {
    pub(crate) acks: Vec<Ack>,
    /// Every event told, in the order told (after a `State`, the next expected is the state's).
    pub(crate) told: Vec<(u64, EventView)>,
    pub(crate) repeats: u64,
    pub(crate) gaps: u64,
    /// A `State` older than an event already told.
    pub(crate) went_back: u64,
    pub(crate) resumes: u64,
    pub(crate) elsewhere: u64,
    /// Told its live match closed (`MatchClosed`): it follows nothing since.
    pub(crate) closed: u64,
    /// Times the player could not resume for a whole minute.
    pub(crate) resume_failures: u64,
    pub(crate) longest_resume: Duration,
    /// The longest from wanting to move (its turn, its thinking done) to an acknowledgement.
    pub(crate) longest_wait: (Duration, Option<Instant>),
    pub(crate) refusals: BTreeMap<String, u64>,
    pub(crate) connected: bool,
    pub(crate) last_seq: Option<u64>,
    pub(crate) anomalies: Vec<String>,
}

/// One match: its id and its four players' records.
pub(crate) struct Played {
    pub(crate) id: MatchId,
    pub(crate) seats: [Arc<Mutex<Seen>>; 4],
    pub(crate) started: Mutex<Option<Instant>>,
    pub(crate) ended: Mutex<Option<Instant>>,
}

/// What every task shares.
pub(crate) struct Run {
    pub(crate) start: Instant,
    pub(crate) nodes: Vec<SocketAddr>,
    pub(crate) pin: [u8; 32],
    pub(crate) seed: u64,
    /// No new move, no new match.
    pub(crate) stop_moving: AtomicBool,
    /// The players stop.
    pub(crate) stop: AtomicBool,
    pub(crate) played: Mutex<Vec<Arc<Played>>>,
    pub(crate) setup_failures: Mutex<u64>,
}

impl Run {
    fn t(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }
}

/// Keeps one match live until the run stops moving.
pub(crate) async fn slot(run: Arc<Run>, slot: usize) {
    let mut generation = 0u64;
    while !run.stop_moving.load(Ordering::SeqCst) {
        generation += 1;
        let seed = run.seed ^ ((slot as u64) << 32) ^ (generation << 48);
        match setup(&run, slot, generation).await {
            Some((id, clients)) => {
                let played = Arc::new(Played {
                    id,
                    seats: Default::default(),
                    started: Mutex::new(None),
                    ended: Mutex::new(None),
                });
                run.played.lock().unwrap().push(played.clone());
                let drivers = clients.into_iter().zip(SeatId::ALL).enumerate().map(|(i, (client, seat))| {
                    let (run, played) = (run.clone(), played.clone());
                    tokio::spawn(drive(run, played, client, seat, SplitMix(seed.wrapping_add(i as u64))))
                });
                for d in drivers.collect::<Vec<_>>() {
                    if let Ok(client) = d.await {
                        client.close().await;
                    }
                }
            }
            None => {
                *run.setup_failures.lock().unwrap() += 1;
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }
    }
}

/// Retries a request for at most 30 s (resuming when its connection went); a `Server` refusal
/// after a try whose answer was lost is taken as done (the seat was taken, say).
macro_rules! retried {
    ($run:expr, $client:expr, $call:expr) => {{
        let deadline = Instant::now() + Duration::from_secs(30);
        let mut lost = false;
        loop {
            match $call.await {
                Ok(v) => break Some(Some(v)),
                Err(ClientError::Server(_)) if lost => break Some(None),
                Err(e) => {
                    if Instant::now() > deadline || $run.stop_moving.load(Ordering::SeqCst) {
                        break None;
                    }
                    if matches!(e, ClientError::Connection(_)) {
                        lost = true;
                        let _ = $client.resume().await;
                    }
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
            }
        }
    }};
}

/// Four players connected (each to its own first node), a match created, seated and readied.
async fn setup(run: &Run, slot: usize, generation: u64) -> Option<(MatchId, Vec<Client>)> {
    let n = run.nodes.len();
    let mut clients = Vec::new();
    for (i, seat) in SeatId::ALL.into_iter().enumerate() {
        let list: Vec<SocketAddr> = (0..n).map(|k| run.nodes[(slot + i + k) % n]).collect();
        let name = format!("s{slot}g{generation}-{}", seat.name());
        let deadline = Instant::now() + Duration::from_secs(30);
        let client = loop {
            match Client::connect_any(&list, Trust::Fingerprint(run.pin), &name).await {
                Ok(c) => break c,
                Err(_) if Instant::now() < deadline => tokio::time::sleep(Duration::from_millis(300)).await,
                Err(_) => return None,
            }
        };
        clients.push(client);
    }
    let id = {
        let c = &mut clients[0];
        retried!(run, c, c.create_match("classic", TIME_CONTROL, true))??
    };
    for (c, seat) in clients.iter_mut().zip(SeatId::ALL) {
        retried!(run, c, c.take_seat(id, seat))?;
    }
    for c in &mut clients {
        retried!(run, c, c.ready(true))?;
    }
    Some((id, clients))
}

/// Plays one seat of a match until it ends (or the run stops); gives the client back.
async fn drive(
    run: Arc<Run>,
    played: Arc<Played>,
    mut client: Client,
    seat: SeatId,
    mut rng: SplitMix,
) -> Client {
    let record = played.seats[seat.index()].clone();
    record.lock().unwrap().connected = true;
    let mut model: Option<MatchModel> = None;
    let mut next_seq: Option<u64> = None;
    let mut due: Option<Instant> = None;
    let mut wanting: Option<Instant> = None;
    let began = Instant::now();
    let rules = rules_seat(seat);
    loop {
        if run.stop.load(Ordering::SeqCst) {
            return client;
        }
        let wait = due.map_or(Duration::from_millis(200), |d| d.saturating_duration_since(Instant::now()));
        let update = tokio::time::timeout(wait.min(Duration::from_millis(200)), client.next_update()).await;
        let mut updates: Vec<Update> = update.ok().flatten().into_iter().collect();
        while let Some(u) = client.try_update() {
            updates.push(u);
        }
        let mut disconnected = false;
        for u in updates {
            match u {
                Update::Disconnected(_) => disconnected = true,
                Update::Server(msg) => {
                    let mut seen = record.lock().unwrap();
                    match &msg {
                        ServerMsg::State(s) if s.match_id == played.id => {
                            let told_up_to = next_seq.map(|n| n.saturating_sub(1));
                            if let (Some(told), Some(state)) = (told_up_to, s.last_seq)
                                && next_seq.is_some_and(|n| n > 0)
                                && state < told
                            {
                                seen.went_back += 1;
                                seen.anomalies.push(format!(
                                    "{:.3} s {seat}: a State at seq {state} after seq {told} was told",
                                    run.t()
                                ));
                            }
                            next_seq = Some(s.last_seq.map_or(0, |l| l + 1));
                        }
                        ServerMsg::Event(e) if e.match_id == played.id => {
                            match next_seq {
                                Some(n) if e.seq < n => {
                                    seen.repeats += 1;
                                    seen.anomalies.push(format!(
                                        "{:.3} s {seat}: seq {} told again (next {n})",
                                        run.t(),
                                        e.seq
                                    ));
                                }
                                Some(n) if e.seq > n => {
                                    seen.gaps += 1;
                                    seen.anomalies.push(format!(
                                        "{:.3} s {seat}: seq {} told, {n} expected",
                                        run.t(),
                                        e.seq
                                    ));
                                }
                                _ => {}
                            }
                            next_seq = Some(next_seq.map_or(e.seq + 1, |n| n.max(e.seq + 1)));
                            seen.told.push((e.seq, e.kind.clone()));
                            seen.last_seq = Some(e.seq);
                        }
                        ServerMsg::ResumeElsewhere { .. } => seen.elsewhere += 1,
                        ServerMsg::MatchClosed { match_id, reason } if *match_id == played.id => {
                            seen.closed += 1;
                            seen.anomalies
                                .push(format!("{:.3} s {seat}: told the match closed: {reason:?}", run.t()));
                        }
                        _ => {}
                    }
                    drop(seen);
                    let _ = MatchModel::follow(&mut model, &msg, Instant::now(), Duration::ZERO);
                }
            }
        }
        let phase = model.as_ref().map(MatchModel::phase);
        if phase == Some(PhaseView::Running) {
            played.started.lock().unwrap().get_or_insert_with(Instant::now);
        }
        if matches!(phase, Some(PhaseView::Ended | PhaseView::Annulled)) {
            played.ended.lock().unwrap().get_or_insert_with(Instant::now);
            return client;
        }
        if phase.is_none() && began.elapsed() > Duration::from_secs(120) {
            record.lock().unwrap().anomalies.push(format!("{:.3} s {seat}: follows no match (told it closed, or never given its state), 2 min after it began: stops", run.t()));
            return client;
        }
        if disconnected {
            reconnect(&run, &record, &mut client, seat).await;
            continue;
        }
        // A move: the legal ones on the model's board when it is this seat's turn.
        let mine = model.as_ref().filter(|m| m.to_move(seat) && !run.stop_moving.load(Ordering::SeqCst));
        let legal = mine.map(|m| m.game().legal_moves(rules.board)).unwrap_or_default();
        let Some(m) = mine.filter(|_| !legal.is_empty()) else {
            (due, wanting) = (None, None);
            continue;
        };
        let now = Instant::now();
        let when = *due.get_or_insert_with(|| now + Duration::from_millis(500 + rng.next_u64() % 1500));
        if now < when {
            continue;
        }
        let asked = *wanting.get_or_insert(now);
        let mv = legal[rng.below(legal.len())];
        let uci = m.game().uci(&mv);
        let ordinal = m.moves().iter().filter(|s| s.seat == seat).count();
        match client.play(wire_board(rules.board), &uci, None).await {
            Ok(()) => {
                let at = Instant::now();
                let mut seen = record.lock().unwrap();
                seen.acks.push(Ack { ordinal, uci, at });
                if at - asked > seen.longest_wait.0 {
                    seen.longest_wait = (at - asked, Some(asked));
                }
                (due, wanting) = (None, None);
            }
            Err(ClientError::Server(e)) => {
                *record.lock().unwrap().refusals.entry(format!("{:?}", e.code)).or_default() += 1;
                due = Some(Instant::now() + Duration::from_millis(250));
            }
            Err(e) => {
                let why = if e.to_string().contains("no reply") {
                    "no reply within 10 s"
                } else {
                    "connection lost"
                };
                *record.lock().unwrap().refusals.entry(why.to_owned()).or_default() += 1;
                due = Some(Instant::now());
                reconnect(&run, &record, &mut client, seat).await;
            }
        }
    }
}

/// Resumes, on the next address when the current one fails, backing off from 100 ms to 2 s;
/// gives up only when the run stops.
async fn reconnect(run: &Run, record: &Mutex<Seen>, client: &mut Client, seat: SeatId) {
    record.lock().unwrap().connected = false;
    let began = Instant::now();
    let mut backoff = Duration::from_millis(100);
    let mut failed = false;
    let mut last = String::new();
    loop {
        match client.resume().await {
            Ok(()) => break,
            Err(e) => last = e.to_string(),
        }
        if run.stop.load(Ordering::SeqCst) {
            return;
        }
        if !failed && began.elapsed() > Duration::from_secs(60) {
            failed = true;
            let mut seen = record.lock().unwrap();
            seen.resume_failures += 1;
            seen.anomalies.push(format!("{:.3} s {seat}: not resumed for a minute: {last}", run.t()));
        }
        tokio::time::sleep(backoff).await;
        backoff = (backoff * 2).min(Duration::from_secs(2));
    }
    let took = began.elapsed();
    let mut seen = record.lock().unwrap();
    seen.connected = true;
    seen.resumes += 1;
    seen.longest_resume = seen.longest_resume.max(took);
    if took > Duration::from_secs(10) {
        seen.anomalies.push(format!(
            "{:.3} s {seat}: resumed after {} ms ({last})",
            run.t(),
            took.as_millis()
        ));
    }
}
