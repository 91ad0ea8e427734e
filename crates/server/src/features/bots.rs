//! Bots the server runs itself, so a player can fill a forming match's empty seats
//! (`ClientMsg::FillWithBots`) from any client, the browser included.
//!
//! Each bot is a task of this process running `shvedka-bot` over a loopback connection to the
//! server's own native endpoint, exactly as `shvedka bot` would from outside: it has a session, is
//! rate-limited, counts in `max_connections`, and goes through the match task like any player, so
//! the match machine and the write-ahead path know nothing of bots. What is special is only who
//! starts them and the bound: at most `max_bots` run at once (one permit each, held until its
//! match ends), a request that needs more is refused whole with `Limit(Bots)`, and shutdown stops
//! them all. They play at a human pace (`bot_pace_ms` the least per move).
//!
//! The server opens each bot's session itself, under a name only it gives (`bot_names.rs`), and
//! the bot resumes it. So a match's log says which seats were the server's bots': after a
//! restart or a cluster node's take-over, a new bot (within `max_bots`) takes each such seat
//! over and plays on from the position. One that cannot start leaves the seat to K6: the match
//! waits for it at most `restart_wait_s`, then its clock runs.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use shvedka_bot::{BotConfig, play_match, play_seated};
use shvedka_client::{Client, Trust};
use shvedka_proto::{BotTrouble, ErrorCode, ErrorMsg, Limit, MatchId, PhaseView, SeatId};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::task::JoinSet;

use crate::service::convert::error;
use crate::service::metrics::{Metrics, Refusal};
use crate::service::room::RoomMsg;
use crate::service::rooms::{BotSeat, Rooms};
use crate::service::session::{Session, Sessions};

/// The server's bots: where they connect, and how many may run.
pub(crate) struct Bots {
    /// The native endpoint as seen from this machine.
    server: SocketAddr,
    /// Its certificate, pinned as any native client pins it.
    trust: [u8; 32],
    max: usize,
    pace: Duration,
    permits: Arc<Semaphore>,
    tasks: std::sync::Mutex<JoinSet<()>>,
    next: AtomicU64,
}

impl Bots {
    /// Bots that connect to the native endpoint bound at `listen` (an unspecified address is
    /// reached on loopback) with certificate `fingerprint`.
    pub(crate) fn new(listen: SocketAddr, fingerprint: [u8; 32], max: usize, pace: Duration) -> Bots {
        let ip = match listen.ip() {
            IpAddr::V4(ip) if ip.is_unspecified() => Ipv4Addr::LOCALHOST.into(),
            IpAddr::V6(ip) if ip.is_unspecified() => Ipv6Addr::LOCALHOST.into(),
            ip => ip,
        };
        Bots {
            server: SocketAddr::new(ip, listen.port()),
            trust: fingerprint,
            max,
            pace,
            permits: Arc::new(Semaphore::new(max)),
            tasks: std::sync::Mutex::new(JoinSet::new()),
            next: AtomicU64::new(1),
        }
    }

    /// Seats a bot at `level` in every empty seat of the forming match `match_id`, for `session`
    /// (its creator, or one of its seated players).
    ///
    /// # Errors
    /// `BadRequest` for a level outside 1–5, `NoSuchMatch`, `NotRatable` for a rated match,
    /// `Rejected` once the match has started, `Forbidden` for anyone else, `Limit(Bots)` when
    /// the bots would exceed `max_bots`.
    pub(crate) fn fill(
        &self,
        rooms: &Rooms,
        metrics: &Metrics,
        session: &Session,
        match_id: MatchId,
        level: u8,
    ) -> Result<usize, ErrorMsg> {
        if !(1..=5).contains(&level) {
            return Err(error(
                ErrorCode::Invalid(shvedka_proto::Invalid::BotLevel { min: 1, max: 5 }),
                format!("bot level {level}: expected 1 to 5"),
            ));
        }
        let room = rooms.room(match_id)?;
        if room.reserved {
            return Err(error(
                ErrorCode::Busy(shvedka_proto::Busy::Reserved),
                format!("the seats of match {match_id} are reserved for its players: no bot takes one"),
            ));
        }
        let summary = room.summary.lock().expect("summary lock").clone();
        if summary.rated {
            return Err(error(
                ErrorCode::NotRatable,
                "the server's bots have no accounts and may not sit in a rated match; create a casual one",
            ));
        }
        if summary.phase != PhaseView::Forming {
            return Err(error(
                ErrorCode::Busy(shvedka_proto::Busy::Started),
                format!("match {match_id} has started: its seats are taken"),
            ));
        }
        let seated =
            session.room() == Some(match_id) && summary.seats.iter().flatten().any(|n| *n == session.name);
        if room.creator != Some(session.player) && !seated {
            return Err(error(
                ErrorCode::Forbidden,
                "only the match's creator or one of its players may fill it with bots",
            ));
        }
        let empty: Vec<SeatId> =
            SeatId::ALL.into_iter().filter(|s| summary.seats[s.index()].is_none()).collect();
        if empty.is_empty() {
            return Ok(0);
        }
        let Ok(mut permits) = self.permits.clone().try_acquire_many_owned(empty.len() as u32) else {
            metrics.refused(Refusal::MaxBots);
            return Err(error(
                ErrorCode::Limit(Limit::Bots),
                format!(
                    "the server runs {} bots already and may run {} (max_bots)",
                    self.max - self.permits.available_permits(),
                    self.max
                ),
            ));
        };
        let mut tasks = self.tasks.lock().expect("bots lock");
        while tasks.try_join_next().is_some() {}
        for seat in &empty {
            let permit = permits.split(1).expect("one permit per seat");
            let n = self.next.fetch_add(1, Ordering::Relaxed);
            let config = BotConfig { level, chat: true, pace: self.pace };
            tasks.spawn(run(
                self.link(rooms),
                // A name in no language: the kind (bot) is shown beside it in the reader's
                // words, the level as stars.
                Entry {
                    name: crate::service::bot_names::name(n, level),
                    invitation: rooms.code_of(match_id),
                    again: false,
                },
                match_id,
                *seat,
                config,
                permit,
            ));
        }
        tracing::info!(name = %session.name, %match_id, level, bots = empty.len(), "filled with bots");
        Ok(empty.len())
    }

    /// Starts a bot again in each seat the server's bots held in the matches restored since the
    /// last call (at start, and after a cluster node's take-over), each within `max_bots`. A
    /// seat no bot can take now is left to K6 (the match waits for it `restart_wait_s` at most).
    pub(crate) fn resume_restored(&self, rooms: &Rooms, metrics: &Metrics) {
        let mut tasks = self.tasks.lock().expect("bots lock");
        while tasks.try_join_next().is_some() {}
        for BotSeat { match_id, seat, name, level } in rooms.restored_bots() {
            let Ok(permit) = self.permits.clone().try_acquire_owned() else {
                metrics.refused(Refusal::MaxBots);
                tracing::warn!(%match_id, %seat, max_bots = self.max, "no bot may start again for this seat (max_bots); the match waits for it as for any player (K6)");
                // The players are told (the match's queue has room: it was just made).
                if let Ok(room) = rooms.room(match_id) {
                    let (reply, _) = tokio::sync::oneshot::channel();
                    let seat = crate::service::convert::seat(seat);
                    let _ =
                        room.tx.try_send(RoomMsg::BotSeat { seat, session: Err(BotTrouble::MaxBots), reply });
                }
                continue;
            };
            let config = BotConfig { level, chat: true, pace: self.pace };
            let entry = Entry { name, invitation: None, again: true };
            tasks.spawn(run(self.link(rooms), entry, match_id, seat, config, permit));
        }
    }

    fn link(&self, rooms: &Rooms) -> Link {
        Link { server: self.server, trust: self.trust, sessions: rooms.sessions().clone(), rooms: rooms.me() }
    }

    /// Stops every bot (at shutdown: the matches pause and are stored like any other).
    pub(crate) fn stop(&self) {
        self.tasks.lock().expect("bots lock").abort_all();
    }
}

/// How a bot enters: its name, the invitation code of a private match, and whether it takes
/// over the seat an earlier bot of the server held (after a restart or a take-over).
struct Entry {
    name: String,
    invitation: Option<String>,
    again: bool,
}

/// What a bot reaches: the native endpoint and its certificate, where the server opens its
/// session, and the matches.
struct Link {
    server: SocketAddr,
    trust: [u8; 32],
    sessions: Arc<Sessions>,
    rooms: std::sync::Weak<Rooms>,
}

/// One bot, from connecting to the end of its match; its permit is released when it ends.
async fn run(
    link: Link,
    entry: Entry,
    match_id: MatchId,
    seat: SeatId,
    config: BotConfig,
    _permit: OwnedSemaphorePermit,
) {
    let Entry { name, invitation, again } = entry;
    let mut client = match enter(&link, &name, match_id, seat, again).await {
        Ok(client) => client,
        Err(e) => {
            tracing::warn!(%match_id, %seat, "a bot of the server cannot start: {e}");
            // A seat of its own already: the players are told no bot sits there.
            if again && let Some(room) = link.rooms.upgrade().and_then(|r| r.room(match_id).ok()) {
                let (reply, _) = tokio::sync::oneshot::channel();
                let seat = crate::service::convert::seat(seat);
                let _ =
                    room.tx.send(RoomMsg::BotSeat { seat, session: Err(BotTrouble::Failed), reply }).await;
            }
            return;
        }
    };
    // A private match: the bot holds its code like any invited player.
    if let Some(code) = invitation
        && let Err(e) = client.redeem(&code).await
    {
        tracing::warn!(%match_id, %seat, "a bot cannot redeem its match's invitation: {e}");
    }
    let played = if again {
        // The seat is the bot's already: it follows the match, says ready should it still be
        // forming, and plays on from the position.
        let _ = client.declare_bot().await;
        match client.watch(match_id).await {
            Ok(()) => {
                let _ = client.ready(true).await;
                play_seated(&mut client, match_id, seat, &config).await
            }
            Err(e) => Err(shvedka_bot::BotError::Seat(e.to_string())),
        }
    } else {
        play_match(&mut client, match_id, seat, &config).await
    };
    match played {
        Ok(outcome) => tracing::debug!(%match_id, %seat, moves = outcome.moves, "bot done"),
        // A person sat there first, or the match went away: the bot has nothing to do.
        Err(e) => tracing::info!(%match_id, %seat, "bot stopped: {e}"),
    }
    client.close().await;
}

/// The bot's session, opened by the server under `name`, and a client that resumed it; one
/// that takes over an earlier bot's seat (`again`) is handed the seat first.
async fn enter(
    link: &Link,
    name: &str,
    match_id: MatchId,
    seat: SeatId,
    again: bool,
) -> anyhow::Result<Client> {
    let (session, token) =
        link.sessions.open(name.to_owned(), None).await.map_err(|e| anyhow::anyhow!(e.message))?;
    if again {
        let rooms = link.rooms.upgrade().ok_or_else(|| anyhow::anyhow!("the server is stopping"))?;
        // A private match's seat is its bot's: the new session may follow it.
        session.invite(match_id);
        let room = rooms.room(match_id).map_err(|e| anyhow::anyhow!(e.message))?;
        let (reply, answer) = tokio::sync::oneshot::channel();
        let seat = crate::service::convert::seat(seat);
        room.tx
            .send(RoomMsg::BotSeat { seat, session: Ok(session.clone()), reply })
            .await
            .map_err(|_| anyhow::anyhow!("the match task has ended"))?;
        answer.await?.map_err(|e| anyhow::anyhow!(e.message))?;
    }
    let client = Client::resume_token(&[link.server], Trust::Fingerprint(link.trust), &token)
        .await?
        .ok_or_else(|| anyhow::anyhow!("the server does not know the session it opened"))?;
    Ok(client)
}
