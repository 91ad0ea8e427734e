//! `shvedka load --spectators N`: a crowd watching one match while the others play (issue 34: a
//! tournament final on the projector and on everyone's phone). The first match of the run is
//! listed, and N more sessions watch it — the next one when it is decided and its four start
//! another. Each spectator times each move of it from the moment its player sent it until he has
//! its event; besides, it counts the states he was given after his first (the latest state a
//! spectator gets instead of the events he fell too far behind on) and the connections lost.

use std::collections::{BTreeMap, VecDeque};
use std::io::Write;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use shvedka_client::{Client, ClientError, Trust, Update, quinn};
use shvedka_proto::{EventView, MatchId, ServerMsg};
use tokio::sync::watch;
use tokio::time::Instant;

/// Events of the watched match whose sending time is kept for the spectators still to see them.
const KEPT: usize = 1024;

/// The crowd's shared figures.
pub(crate) struct Crowd {
    /// The match watched now.
    watched: watch::Sender<MatchId>,
    /// The watched match's moves sent on each board and not yet seen by a spectator, oldest first.
    sent: Mutex<[VecDeque<(String, Instant)>; 2]>,
    /// When the move of each of its events was sent, as the first spectator to see it found.
    by_event: Mutex<BTreeMap<(MatchId, u64), Instant>>,
    /// Move sent until a spectator has its event, each spectator and move.
    latencies_us: Mutex<Vec<u64>>,
    /// The watched match's own players: move sent until all four have its event.
    players_us: Mutex<Vec<u64>>,
    /// States given after the first of each watch.
    caught_up: AtomicU64,
    disconnected: AtomicU64,
    errors: AtomicU64,
}

impl Crowd {
    pub(crate) fn new(first: MatchId) -> Arc<Crowd> {
        Arc::new(Crowd {
            watched: watch::Sender::new(first),
            sent: Mutex::default(),
            by_event: Mutex::default(),
            latencies_us: Mutex::default(),
            players_us: Mutex::default(),
            caught_up: AtomicU64::new(0),
            disconnected: AtomicU64::new(0),
            errors: AtomicU64::new(0),
        })
    }

    /// A player of the watched match sends a move on `board`.
    pub(crate) fn sent(&self, board: usize, uci: &str) {
        let mut sent = self.sent.lock().expect("crowd lock");
        sent[board].push_back((uci.to_owned(), Instant::now()));
        if sent[board].len() > KEPT {
            sent[board].pop_front();
        }
    }

    /// The watched match's four players all have a move's event, `us` after it was sent.
    pub(crate) fn played(&self, us: u64) {
        self.players_us.lock().expect("crowd lock").push(us);
    }

    /// The watched match was decided and its four play `next` now: the crowd watches that.
    pub(crate) fn next_match(&self, next: MatchId) {
        *self.sent.lock().expect("crowd lock") = Default::default();
        self.watched.send_replace(next);
    }

    /// When the move of event `seq` of `id` was sent: the first spectator to see the event takes
    /// the oldest move sent with that text on its board (moves before it were refused).
    fn sent_at(&self, id: MatchId, seq: u64, board: usize, uci: &str) -> Option<Instant> {
        let mut by_event = self.by_event.lock().expect("crowd lock");
        if let Some(&at) = by_event.get(&(id, seq)) {
            return Some(at);
        }
        if *self.watched.borrow() != id {
            return None;
        }
        let mut sent = self.sent.lock().expect("crowd lock");
        let at = loop {
            let (text, at) = sent[board].pop_front()?;
            if text == uci {
                break at;
            }
        };
        by_event.insert((id, seq), at);
        while by_event.len() > KEPT {
            by_event.pop_first();
        }
        Some(at)
    }

    /// The crowd's line of the report.
    pub(crate) fn report(&self, spectators: usize, out: &mut dyn Write) -> std::io::Result<()> {
        let mut lat = std::mem::take(&mut *self.latencies_us.lock().expect("crowd lock"));
        let mut players = std::mem::take(&mut *self.players_us.lock().expect("crowd lock"));
        let (seen, crowd) = (lat.len(), crate::load_figures::Percentiles::of(&mut lat));
        let players = crate::load_figures::Percentiles::of(&mut players);
        writeln!(
            out,
            "crowd: {spectators} spectators of the first match: {seen} events seen, {crowd}; its players p99 {:.1} ms; caught up by a state {}; disconnected {}; errors {}",
            players.p99_ms,
            self.caught_up.load(Ordering::Relaxed),
            self.disconnected.load(Ordering::Relaxed),
            self.errors.load(Ordering::Relaxed),
        )
    }
}

/// Connects `n` spectators over `endpoints`, 64 at a time.
pub(crate) async fn connect(
    n: usize,
    endpoints: &[quinn::Endpoint],
    addr: SocketAddr,
    trust: &Trust,
) -> Result<Vec<Client>, ClientError> {
    let mut clients = Vec::with_capacity(n);
    for chunk in (0..n).collect::<Vec<_>>().chunks(64) {
        let mut tasks = Vec::new();
        for &i in chunk {
            let (endpoint, trust) = (endpoints[i % endpoints.len()].clone(), trust.clone());
            tasks.push(tokio::spawn(async move {
                Client::connect_on(endpoint, addr, &trust, &format!("crowd{i}")).await
            }));
        }
        for t in tasks {
            clients.push(t.await.map_err(|e| ClientError::Protocol(e.to_string()))??);
        }
    }
    Ok(clients)
}

/// Each spectator watches until `until`, in a task of his own.
pub(crate) fn watch_all(
    clients: Vec<Client>,
    crowd: &Arc<Crowd>,
    until: Instant,
) -> Vec<tokio::task::JoinHandle<()>> {
    clients.into_iter().map(|c| tokio::spawn(spectate(c, crowd.clone(), until))).collect()
}

/// A spectator watches until `until`, then logs out (a load run leaves no session behind).
async fn spectate(mut client: Client, crowd: Arc<Crowd>, until: Instant) {
    follow(&mut client, &crowd, until).await;
    let _ = client.logout().await;
}

async fn follow(client: &mut Client, crowd: &Crowd, until: Instant) {
    let mut updates = client.take_updates();
    let mut watched = crowd.watched.subscribe();
    let mut id = *watched.borrow_and_update();
    let mut states = 0u64;
    if client.watch(id).await.is_err() {
        crowd.errors.fetch_add(1, Ordering::Relaxed);
        return;
    }
    loop {
        tokio::select! {
            () = tokio::time::sleep_until(until) => return,
            changed = watched.changed() => {
                if changed.is_err() {
                    return;
                }
                id = *watched.borrow_and_update();
                states = 0;
                if client.watch(id).await.is_err() {
                    crowd.errors.fetch_add(1, Ordering::Relaxed);
                }
            }
            update = updates.recv() => match update {
                None => return,
                Some(Update::Server(ServerMsg::Event(e))) => {
                    if let EventView::Moved { seat, uci, .. } = &e.kind
                        && let Some(sent) = crowd.sent_at(e.match_id, e.seq, seat.board() as usize, uci)
                    {
                        let us = u64::try_from(sent.elapsed().as_micros()).unwrap_or(u64::MAX);
                        crowd.latencies_us.lock().expect("crowd lock").push(us);
                    }
                }
                Some(Update::Server(ServerMsg::State(s))) if s.match_id == id => {
                    states += 1;
                    if states > 1 {
                        crowd.caught_up.fetch_add(1, Ordering::Relaxed);
                    }
                }
                // Counted, not resumed: a crowd should never be disconnected.
                Some(Update::Disconnected(_)) if Instant::now() < until => {
                    crowd.disconnected.fetch_add(1, Ordering::Relaxed);
                }
                Some(_) => {}
            },
        }
    }
}
