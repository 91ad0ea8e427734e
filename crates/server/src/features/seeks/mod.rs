//! Finding a game: players seek alone or with an invited partner, and the server forms a match as
//! soon as compatible seeks make four players (the rules are `shvedka-pairing`'s), creates it with
//! its four seats reserved for them, seats them ready (as a rematch does) with the seats the pool
//! drew, and tells each seeker his match and seat (`ServerMsg::MatchFound`); the countdown then
//! starts by itself.
//!
//! One task owns every seek (the [`desk::Desk`]), so there is one order of events and no lock:
//! requests, connections coming and going, and a tick each second (windows widen, invitations
//! lapse) all arrive on its queue. It reads a seeker's rating in the seek's category from the
//! store (none: 1500, a newcomer's); creating and seating a formed match runs in a task of its
//! own. A seek lives only while its players are connected: when a player's last connection ends
//! (or serves another session after a log-in), every seek he is in ends (`SeekEnded
//! Disconnected`). Seeks live in memory only; a restart forgets them.

mod desk;
#[cfg(test)]
mod tests;

use std::sync::Arc;
use std::time::Duration;

use bughouse::RuleOptions;
use bughouse_match::Bonus;
use shvedka_pairing::Terms;
use shvedka_proto::{
    ClientMsg, ErrorCode, ErrorMsg, PlayerKind, Reply, SeatId, SeekEnd, SeekRequest, ServerMsg,
};
use shvedka_ratings::Categories;
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

pub(crate) use desk::SeekSettings;
use desk::{Desk, Found, Member};

use crate::service::convert::error;
use crate::service::outbound::Outbound;
use crate::service::rooms::Rooms;
use crate::service::session::Session;

/// A newcomer's rating, for a player without one in the seek's category.
pub(crate) const NEWCOMER: f64 = 1500.0;

/// How often windows widen and invitations are looked at.
const TICK: Duration = Duration::from_secs(1);

/// Requests queued for the seek task.
const QUEUE: usize = 1024;

enum Msg {
    Connected {
        session: Arc<Session>,
        out: Outbound,
    },
    Disconnected {
        session: Arc<Session>,
        out: Outbound,
    },
    Request {
        session: Arc<Session>,
        out: Outbound,
        msg: ClientMsg,
        /// From a session of another node of a cluster.
        remote: bool,
        reply: oneshot::Sender<Result<Reply, ErrorMsg>>,
    },
}

/// The seek task's handle.
#[derive(Clone)]
pub(crate) struct Seeks {
    tx: mpsc::Sender<Msg>,
}

/// What the seek task needs besides its settings.
pub(crate) struct SeekSetup {
    pub(crate) settings: SeekSettings,
    pub(crate) rooms: Arc<Rooms>,
    pub(crate) categories: Categories,
    /// Whether bots may play rated (`rated_bots`).
    pub(crate) rated_bots: bool,
}

impl Seeks {
    /// Starts the seek task; it ends when every handle is gone.
    pub(crate) fn spawn(setup: SeekSetup) -> Seeks {
        let (tx, rx) = mpsc::channel(QUEUE);
        tokio::spawn(run(setup, rx));
        Seeks { tx }
    }

    /// A connection now serves `session`: invitations reach him there.
    pub(crate) async fn connected(&self, session: &Arc<Session>, out: &Outbound) {
        let _ = self.tx.send(Msg::Connected { session: session.clone(), out: out.clone() }).await;
    }

    /// A connection of `session` ended (or serves another session now).
    pub(crate) async fn disconnected(&self, session: &Arc<Session>, out: &Outbound) {
        let _ = self.tx.send(Msg::Disconnected { session: session.clone(), out: out.clone() }).await;
    }

    /// A seek request: `Seek`, `AnswerSeek`, `CancelSeek`, `SeekPools`.
    pub(crate) async fn request(
        &self,
        session: &Arc<Session>,
        out: &Outbound,
        msg: ClientMsg,
    ) -> Result<Reply, ErrorMsg> {
        self.ask(session, out, msg, false).await
    }

    /// A seek request of a session of another node of a cluster (this node runs the seeks):
    /// `out` reaches that node, which seats the session when its match is found.
    pub(crate) async fn request_remote(
        &self,
        session: &Arc<Session>,
        out: &Outbound,
        msg: ClientMsg,
    ) -> Result<Reply, ErrorMsg> {
        self.ask(session, out, msg, true).await
    }

    async fn ask(
        &self,
        session: &Arc<Session>,
        out: &Outbound,
        msg: ClientMsg,
        remote: bool,
    ) -> Result<Reply, ErrorMsg> {
        let (reply, rx) = oneshot::channel();
        let gone = || error(ErrorCode::Unavailable, "the server is not taking seeks now");
        self.tx
            .send(Msg::Request { session: session.clone(), out: out.clone(), msg, remote, reply })
            .await
            .map_err(|_| gone())?;
        rx.await.map_err(|_| gone())?
    }
}

/// Whether `msg` is a seek request.
pub(crate) fn is_seek_request(msg: &ClientMsg) -> bool {
    matches!(
        msg,
        ClientMsg::Seek(_)
            | ClientMsg::AnswerSeek { .. }
            | ClientMsg::CancelSeek { .. }
            | ClientMsg::SeekPools
    )
}

struct Task {
    desk: Desk,
    rooms: Arc<Rooms>,
    categories: Categories,
    rated_bots: bool,
}

async fn run(setup: SeekSetup, mut rx: mpsc::Receiver<Msg>) {
    let SeekSetup { settings, rooms, categories, rated_bots } = setup;
    let mut task = Task { desk: Desk::new(settings, Instant::now()), rooms, categories, rated_bots };
    let mut tick = tokio::time::interval(TICK);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        let found = tokio::select! {
            msg = rx.recv() => match msg {
                None => return,
                Some(Msg::Connected { session, out }) => {
                    task.desk.connected(session, out);
                    Vec::new()
                }
                Some(Msg::Disconnected { session, out }) => {
                    task.desk.disconnected(&session, &out);
                    Vec::new()
                }
                Some(Msg::Request { session, out, msg, remote, reply }) => {
                    let (answer, found) = match task.request(&session, &out, msg, remote).await {
                        Ok((reply, found)) => (Ok(reply), found),
                        Err(e) => (Err(e), Vec::new()),
                    };
                    let _ = reply.send(answer);
                    found
                }
            },
            _ = tick.tick() => if task.desk.busy() { task.desk.tick(Instant::now(), random) } else { Vec::new() },
        };
        for f in found {
            tokio::spawn(start(task.rooms.clone(), f));
        }
    }
}

impl Task {
    async fn request(
        &mut self,
        session: &Arc<Session>,
        out: &Outbound,
        msg: ClientMsg,
        remote: bool,
    ) -> Result<(Reply, Vec<Found>), ErrorMsg> {
        let now = Instant::now();
        match msg {
            ClientMsg::Seek(SeekRequest { time_control, rules, rated, range, partner }) => {
                let terms = self.terms(&time_control, &rules, rated)?;
                self.may_play(session, &terms)?;
                self.not_playing(session)?;
                let me = self.member(session, out, &terms, remote).await?;
                let partner = partner.as_deref().map(str::trim).filter(|p| !p.is_empty());
                let (view, found) = self.desk.seek(me, terms, range, partner, now, random)?;
                Ok((Reply::Seek(view), found))
            }
            ClientMsg::AnswerSeek { seek, accept: true } => {
                let terms = self.desk.invitation_terms(seek, session.player).ok_or_else(|| {
                    error(ErrorCode::NoSuchSeek, format!("no invitation to seek {seek} for you"))
                })?;
                self.may_play(session, &terms)?;
                self.not_playing(session)?;
                let me = self.member(session, out, &terms, remote).await?;
                let (view, found) = self.desk.accept(seek, me, now, random)?;
                Ok((Reply::Seek(view), found))
            }
            ClientMsg::AnswerSeek { seek, accept: false } => {
                self.desk.decline(seek, session.player)?;
                Ok((Reply::Ok, Vec::new()))
            }
            ClientMsg::CancelSeek { seek } => {
                self.desk.cancel(seek, session.player)?;
                Ok((Reply::Ok, Vec::new()))
            }
            ClientMsg::SeekPools => Ok((Reply::SeekPools(self.desk.pools(now)), Vec::new())),
            _ => Err(error(ErrorCode::BadRequest, "not a seek request")),
        }
    }

    /// The terms of a seek, normalised: the time control as the match will show it, the
    /// preset by its name.
    fn terms(&self, time_control: &str, rules: &str, rated: bool) -> Result<Terms, ErrorMsg> {
        let tc = self.rooms.time_control(time_control)?;
        let preset = RuleOptions::preset(rules)
            .map_err(|e| error(ErrorCode::Invalid(shvedka_proto::Invalid::RulePreset), e.to_string()))?;
        Ok(Terms { time_control: tc.to_string(), rules: preset.name, rated })
    }

    /// A rated seek is for accounts, and for bots only where the server rates them.
    fn may_play(&self, session: &Session, terms: &Terms) -> Result<(), ErrorMsg> {
        if !terms.rated {
            return Ok(());
        }
        if session.account.is_none() {
            return Err(error(
                ErrorCode::LoginRequired,
                "rated games are for accounts: log in, or seek a casual game",
            ));
        }
        if session.kind() == PlayerKind::Bot && !self.rated_bots {
            return Err(error(
                ErrorCode::Forbidden,
                "bots do not play rated games on this server (rated_bots)",
            ));
        }
        Ok(())
    }

    /// A player seated in a match that is not over seeks no other: the server could not seat him
    /// in the match his seek found.
    fn not_playing(&self, session: &Session) -> Result<(), ErrorMsg> {
        if let Some(id) = self.rooms.seated_in_play(session) {
            return Err(error(
                ErrorCode::Busy(shvedka_proto::Busy::Playing),
                format!("you sit in match {id}: finish it (or leave your seat) before seeking another"),
            ));
        }
        Ok(())
    }

    /// The seeker with his rating in the seek's category (a newcomer's without one).
    async fn member(
        &self,
        session: &Arc<Session>,
        out: &Outbound,
        terms: &Terms,
        remote: bool,
    ) -> Result<Member, ErrorMsg> {
        let tc = self.rooms.time_control(&terms.time_control)?;
        let increment = match tc.bonus {
            Bonus::Increment(d) | Bonus::Delay(d) => d,
        };
        let category = self.categories.of(tc.base.as_millis() as u64, increment.as_millis() as u64);
        let rating = match session.account {
            Some(account) => match self.rooms.store.rating(account, category.as_str()).await {
                Ok(row) => row.map_or(NEWCOMER, |r| r.rating),
                Err(e) => {
                    tracing::error!(error = %e, "cannot read a rating");
                    return Err(error(
                        ErrorCode::Unavailable,
                        "the server cannot read ratings now; try again",
                    ));
                }
            },
            None => NEWCOMER,
        };
        Ok(Member { session: session.clone(), out: out.clone(), rating, remote })
    }
}

/// A random number from the system's source (the seat draw).
fn random() -> u64 {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).expect("the system random source works");
    u64::from_le_bytes(bytes)
}

/// Creates a formed match with its seats reserved for its four, seats each ready (over the
/// connection he sought from; a seeker on another node of a cluster is seated by his node) and
/// tells him; when the match cannot be created, each hears his
/// seek failed.
async fn start(rooms: Arc<Rooms>, found: Found) {
    let players = found.seats.each_ref().map(|(_, m)| m.session.player);
    let rated = found.terms.rated;
    let created = rooms.create_sought(&found.terms.rules, &found.terms.time_control, rated, players).await;
    let id = match created {
        Ok(id) => id,
        Err(e) => {
            tracing::warn!(error = %e.message, "a match found by seeking cannot be created");
            for (seek, m) in &found.seats {
                m.out.push(ServerMsg::SeekEnded { seek: *seek, reason: SeekEnd::Failed });
            }
            return;
        }
    };
    let names: Vec<&str> = found.seats.iter().map(|(_, m)| m.session.name.as_str()).collect();
    tracing::info!(match_id = %id, ?names, rated, "a match found by seeking");
    let mut seated: Vec<&Member> = Vec::with_capacity(4);
    for (i, (_, m)) in found.seats.iter().enumerate() {
        let seat = SeatId::ALL[i];
        if m.remote {
            // His node seats him when it hears MatchFound (cluster mode); should he not be able
            // to sit, the match is left to expire unattended as any forming match.
            continue;
        }
        if let Err(e) = rooms.seat_ready(&m.session, &m.out, id, seat).await {
            // One of the four cannot sit (he sat down to play elsewhere meanwhile): nobody plays
            // a match one of its four could not join. Those seated stand up and stop following
            // it, every seeker hears his seek failed (he may seek again), and the empty match,
            // its seats reserved for the four, expires as any unattended forming match does.
            tracing::warn!(match_id = %id, %seat, error = %e.message, "a sought seat cannot be taken; the match is given up");
            if let Ok(room) = rooms.room(id) {
                for m in &seated {
                    let (reply, rx) = tokio::sync::oneshot::channel();
                    let unfollow =
                        crate::service::room::RoomMsg::Unfollow { session: m.session.clone(), reply };
                    if room.tx.send(unfollow).await.is_ok() {
                        let _ = rx.await;
                    }
                }
            }
            for (seek, m) in &found.seats {
                m.out.push(ServerMsg::SeekEnded { seek: *seek, reason: SeekEnd::Failed });
            }
            return;
        }
        seated.push(m);
    }
    for (i, (seek, m)) in found.seats.iter().enumerate() {
        m.out.push(ServerMsg::MatchFound { seek: *seek, match_id: id, seat: SeatId::ALL[i], rated });
    }
}
