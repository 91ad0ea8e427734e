//! The other side of forwarding: this node's sessions that follow (or play in) a match another
//! node runs. A request about such a match is forwarded to its owner — found in the database
//! (the lease holder), remembered until it stops answering — and what the owner relays for a
//! session is delivered to the session's connection here, event by event in `seq` order: a
//! repeat is dropped, and a gap (a relayed message lost while NATS reconnected) is filled from
//! the database before the event that revealed it. So every event reaches the client exactly
//! once and in order, whichever node runs the match.
//!
//! When the owner stops, a request to it gets `Unavailable`; the session stays with its match,
//! and once another node has taken the match over (it says so on
//! [`super::wire::TAKEN`]; or this node finds the new holder every `lease_renew_ms`) the
//! session follows it there again from the last event it has. A session whose match is taken
//! over by nobody within [`GIVE_UP`] is told the match closed. A node that speaks another wire
//! version (another build, `peers.rs`) is never asked: its requests are refused at once.
//!
//! A decided match's rematch offer stays on the node that ran it: this node remembers, for
//! `rematch_offer_s` after it saw a match it relayed end, which node that was, forwards its
//! players' answers there, and seats a player in the rematch (through the node that runs it)
//! when it hears the rematch exists.

use std::sync::{Arc, OnceLock, Weak};
use std::time::Duration;

use dashmap::DashMap;
use shvedka_proto::{ClientMsg, ErrorCode, ErrorMsg, MatchId, Reply, SeatId, ServerMsg};
use shvedka_storage::{Role, Store};
use tokio::time::Instant;

use super::wire::{About, Answer, Ask, Forward, Who, ask_subject};
pub(crate) use crate::features::remote::Seeking;
use crate::features::tournaments::TourAsk;
use crate::service::convert::error;
use crate::service::outbound::Outbound;
use crate::service::roles::Roles;
use crate::service::rooms::Rooms;
use crate::service::session::Session;

mod delivery;
mod galleries;
mod seeking;
mod unreached;

use delivery::TheEnd;
use unreached::{Unreached, moving, other_wire, unanswered, unheard};

pub(crate) use delivery::run;

/// How long a forwarded request waits for its answer (a move waits for its commit there).
const ANSWER_WAIT: Duration = Duration::from_secs(5);

/// How long a session waits for another node to take over its match before it is told the
/// match closed.
pub(crate) const GIVE_UP: Duration = Duration::from_secs(60);

/// The last event a session was given of its match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Seen {
    /// Not known yet: its whole state comes first.
    Unknown,
    /// Up to this `seq` (`None`: the match had no event yet).
    Upto(Option<u64>),
}

/// A session here following a match that runs elsewhere.
struct Target {
    match_id: MatchId,
    session: Arc<Session>,
    out: Outbound,
    seen: Seen,
    /// The owner accepted the follow; `false` while its match waits to be taken over.
    attached: bool,
    since: Instant,
    /// This node is asking its owner to follow it now: not asked again meanwhile (`retry`), or
    /// a spectator's `Watch` would be answered twice, and he would join the gallery twice.
    asking: bool,
}

/// A session here that another node pushes messages to: seeking through the node that runs the
/// seeks, or answering a rematch offer kept by the node that ran the decided match.
struct Seeker {
    session: Arc<Session>,
    out: Outbound,
    /// Its open seeks (told SeekEnded Failed should that node stop).
    seeks: Vec<u64>,
    /// The rematch offer it answered on another node, if any.
    rematch: Option<Pending>,
}

/// A rematch offer a session here answered on the node that ran the decided match.
#[derive(Clone, Debug)]
struct Pending {
    node: String,
    match_id: MatchId,
    /// The session's seat in the decided match.
    seat: SeatId,
}

/// What to do with a relayed event, decided under the map's lock.
enum Step {
    Deliver,
    Drop,
    Fill { after: Option<u64>, upto: u64 },
}

/// This node's sessions following other nodes' matches.
pub(crate) struct Relays {
    /// The roles' secrets, to prove to an owner that a session presented one here.
    roles: Roles,
    node: String,
    nats: async_nats::Client,
    store: Arc<dyn Store>,
    /// By session key.
    targets: DashMap<String, Target>,
    /// Who ran each match when last asked.
    owners: DashMap<MatchId, String>,
    /// This node's matches: one its sessions followed elsewhere may come here by a take-over.
    rooms: std::sync::OnceLock<Weak<Rooms>>,
    /// This node's sessions seeking through another node, by key.
    seekers: DashMap<String, Seeker>,
    seeking: std::sync::Mutex<Seeking>,
    /// Matches of other nodes this node saw end, with the node that ran them (where their
    /// rematch offers are) and when: kept for [`Relays::keep`], at most [`Relays::max_ended`].
    ended: DashMap<MatchId, (String, Instant)>,
    keep: Duration,
    max_ended: usize,
    /// The nodes heard on NATS: a node silent for [`Relays::quiet`] is not asked.
    peers: Arc<super::Peers>,
    /// Half a lease: a node unheard so long is cut off from NATS (or this one is).
    quiet: Duration,
    /// This node's spectators of other nodes' matches, served from one follower per match.
    galleries: galleries::Galleries,
}

impl Relays {
    /// Relays of node `node`; the nodes of ended matches are kept as long as rematch offers
    /// (`keep`, at most `max_ended`).
    pub(crate) fn new(
        node: String,
        nats: async_nats::Client,
        store: Arc<dyn Store>,
        (keep, max_ended): (Duration, usize),
        roles: Roles,
        peers: Arc<super::Peers>,
        lease: Duration,
    ) -> Relays {
        Relays {
            roles,
            node,
            nats,
            store,
            targets: DashMap::new(),
            owners: DashMap::new(),
            rooms: OnceLock::new(),
            seekers: DashMap::new(),
            seeking: std::sync::Mutex::new(Seeking::Unknown),
            ended: DashMap::new(),
            keep,
            max_ended: max_ended.max(1),
            peers,
            quiet: lease / 2,
            galleries: galleries::Galleries::new(256),
        }
    }

    /// Relays whose galleries of other nodes' matches keep `kept` posts a lane
    /// (`spectator_events_kept`).
    pub(crate) fn with_gallery_kept(mut self, kept: usize) -> Relays {
        self.galleries = galleries::Galleries::new(kept);
        self
    }

    /// Where this node's own matches are (set once, when the node starts its tasks).
    pub(crate) fn set_rooms(&self, rooms: Weak<Rooms>) {
        let _ = self.rooms.set(rooms);
    }

    /// Sessions here following matches of other nodes now: each relayed, or a spectator of this
    /// node's gallery of the match (whose follower, nobody's, is not counted).
    pub(crate) fn followed(&self) -> usize {
        let galleries = self.targets.iter().filter(|t| t.session.is_nobody()).count();
        self.targets.len() - galleries + self.galleries.spectators()
    }

    /// Whether `session` follows a match of another node through this node.
    #[cfg(test)]
    pub(crate) fn follows(&self, session: &Session, id: MatchId) -> bool {
        self.targets.get(&session.key).is_some_and(|t| t.match_id == id)
    }

    /// A connection of `session` here closed: if it was the one its match's messages went to,
    /// the match's node is told (in the background) that the player is gone, as a connection of
    /// its own closing would tell it. He follows again when he resumes.
    pub(crate) fn connection_closed(self: &Arc<Self>, session: &Arc<Session>, out: &Outbound) {
        if let Some((_, s)) = self.seekers.remove_if(&session.key, |_, s| s.out.same(out)) {
            // His seeks end there, as they would end here, and the rematch offer he answered
            // elsewhere stops telling him.
            let mut nodes: Vec<String> = s.rematch.map(|p| p.node).into_iter().collect();
            if let Seeking::There(node) = self.seeking()
                && !nodes.contains(&node)
            {
                nodes.push(node);
            }
            let (relays, session) = (self.clone(), session.clone());
            tokio::spawn(async move {
                if let Ok(payload) = relays.payload(&session, About::SeekGone) {
                    for node in nodes {
                        let _ = relays.request(&node, &payload).await;
                    }
                }
            });
        }
        // A spectator of a gallery here: its task lets him go.
        if let Some((_, (id, out))) =
            self.galleries.watching.remove_if(&session.key, |_, (_, from)| from.same(out))
        {
            let (relays, key) = (self.clone(), session.key.clone());
            tokio::spawn(async move { relays.leave_gallery(&key, id, Some(out)).await });
        }
        let Some((_, t)) = self.targets.remove_if(&session.key, |_, t| t.out.same(out)) else { return };
        let (relays, session) = (self.clone(), session.clone());
        tokio::spawn(async move {
            let _ = relays.ask(&session, t.match_id, Ask::Away).await;
        });
    }

    /// Forgets that `session` follows `id` here (it follows another match now).
    pub(crate) fn drop_target(&self, session: &Session, id: MatchId) {
        self.targets.remove_if(&session.key, |_, t| t.match_id == id);
    }

    /// Forwards a request of `session` (connected here through `out`) about match `id` to the
    /// node that runs it. Following it (`Follow`, `Watch` by a player, a seat) routes what the
    /// match sends the session to `out` from then on; a spectator's `Watch` is answered
    /// `Spectator`, and the caller serves him from this node's gallery of the match
    /// ([`Relays::watch_here`]). `NoSuchMatch` when no node runs it.
    pub(crate) async fn forward(
        &self,
        session: &Arc<Session>,
        out: &Outbound,
        id: MatchId,
        ask: Ask,
    ) -> Result<Answer, ErrorMsg> {
        let follows =
            matches!(ask, Ask::Follow { .. } | Ask::Watch { .. } | Ask::Command(ClientMsg::TakeSeat { .. }));
        if follows {
            // Watching from a gallery here: he leaves it (with what it owes him) first.
            self.unwatch(session, Some(id), None).await;
        }
        let registered = follows && self.register(session, out, id, &ask);
        let unfollow = matches!(ask, Ask::Unfollow);
        let answer = self.ask(session, id, ask).await;
        if follows {
            self.asked(&session.key, id);
        }
        match &answer {
            // The caller hands him to this node's gallery (`spectate_here`).
            Ok(Answer::Spectator) => {}
            Ok(_) if follows => {
                if let Some(mut t) = self.targets.get_mut(&session.key) {
                    t.attached = true;
                }
                session.set_room(Some(id));
            }
            Ok(_) if unfollow => {
                self.targets.remove_if(&session.key, |_, t| t.match_id == id);
                session.set_room(None);
            }
            Err(_) if registered => {
                self.targets.remove_if(&session.key, |_, t| t.match_id == id && t.out.same(out));
            }
            _ => {}
        }
        answer
    }

    /// A resumed session follows its match again (the one it followed here, or the one its
    /// client names). While the match waits to be taken over the session stays with it, and
    /// follows it once another node runs it. `false` when no node runs it or will.
    pub(crate) async fn follow_again(
        self: &Arc<Self>,
        session: &Arc<Session>,
        out: &Outbound,
        id: MatchId,
        last_seq: Option<u64>,
    ) -> bool {
        let ask = Ask::Watch { last_seq };
        self.register(session, out, id, &ask);
        session.set_room(Some(id));
        let answer = self.ask(session, id, ask).await;
        self.asked(&session.key, id);
        match answer {
            // A spectator: his state comes from this node's gallery of the match.
            Ok(Answer::Spectator) => self.spectate_here(session, out, id).await.is_ok(),
            Ok(_) => {
                if let Some(mut t) = self.targets.get_mut(&session.key) {
                    t.attached = true;
                }
                true
            }
            Err(e) if e.code == ErrorCode::Unavailable => true,
            // Decided while the session was away: what it missed, the end included. Unread, it
            // stays with the match, as while the match waits to be taken over.
            Err(e) if e.code == ErrorCode::NoSuchMatch => match self.give_the_end(&session.key, id).await {
                TheEnd::Given => false,
                TheEnd::Unread => true,
                TheEnd::NotDecided => self.stop_following(session, out, id),
            },
            Err(_) => self.stop_following(session, out, id),
        }
    }

    /// The session follows match `id` no more (through `out`): `false`, for
    /// [`Relays::follow_again`].
    fn stop_following(&self, session: &Session, out: &Outbound, id: MatchId) -> bool {
        self.targets.remove_if(&session.key, |_, t| t.match_id == id && t.out.same(out));
        session.leave_room(id);
        false
    }

    /// The owner of `id` answered (or did not) this node's ask to follow it for session `key`.
    fn asked(&self, key: &str, id: MatchId) {
        if let Some(mut t) = self.targets.get_mut(key)
            && t.match_id == id
        {
            t.asking = false;
        }
    }

    /// Notes where what the match sends the session goes, before the owner is asked (its first
    /// message may come before its answer). `true` when a new target was made.
    fn register(&self, session: &Arc<Session>, out: &Outbound, id: MatchId, ask: &Ask) -> bool {
        let seen = match ask {
            Ask::Follow { last_seq: Some(seq) } | Ask::Watch { last_seq: Some(seq) } => {
                Seen::Upto(Some(*seq))
            }
            _ => Seen::Unknown,
        };
        if let Some(mut t) = self.targets.get_mut(&session.key)
            && t.match_id == id
        {
            // Watching already and now taking a seat: the events go on where they are.
            if !t.out.same(out) || matches!(ask, Ask::Follow { .. } | Ask::Watch { .. }) {
                t.out = out.clone();
                t.seen = seen;
            }
            if !t.attached {
                // Asked again now: its wait for the match to be taken over starts again.
                t.since = Instant::now();
            }
            t.asking = true;
            return false;
        }
        let target = Target {
            match_id: id,
            session: session.clone(),
            out: out.clone(),
            seen,
            attached: false,
            since: Instant::now(),
            asking: true,
        };
        self.targets.insert(session.key.clone(), target);
        true
    }

    /// Asks the owner of `id`; asks the database again when the owner it knew does not run the
    /// match any more. A request that went unanswered is not repeated (a move may have been
    /// played): the client is told, and sees the event if it was.
    async fn ask(&self, session: &Session, id: MatchId, ask: Ask) -> Result<Answer, ErrorMsg> {
        let act = matches!(ask, Ask::Arbiter(_));
        let payload = self.payload(session, About::Match(id, ask))?;
        for _ in 0..2 {
            let node = self.owner(id, act).await?;
            if self.peers.quiet(&node, Instant::now(), self.quiet) {
                // Asked, it would not answer within ANSWER_WAIT: said at once instead.
                self.owners.remove(&id);
                return Err(unheard(id, &node, self.quiet));
            }
            match self.request(&node, &payload).await {
                Ok(Answer::NotHere) => {
                    self.owners.remove(&id);
                }
                Ok(Answer::Refused(e)) => return Err(e),
                Ok(answer) => return Ok(answer),
                Err(Unreached::OtherWire(wire)) => {
                    // Asked of the database again next time: the match may be taken over by a
                    // node of this build, or this one restarted on it, unheard of here.
                    self.owners.remove(&id);
                    return Err(other_wire(&node, &wire, &format!("runs match {id}")));
                }
                Err(unreached) => {
                    self.owners.remove(&id);
                    return Err(if matches!(unreached, Unreached::Gone) {
                        moving(id, &node)
                    } else {
                        unanswered(id, &node)
                    });
                }
            }
        }
        Err(moving(id, "another node"))
    }

    /// Forwards a tournament request of `session` to `node`, which drives the tournaments.
    pub(crate) async fn ask_driver(
        &self,
        session: &Session,
        node: &str,
        ask: TourAsk,
    ) -> Result<Reply, ErrorMsg> {
        let payload = self.payload(session, About::Tournament(ask))?;
        let unavailable = |what: &str| {
            error(
                ErrorCode::Unavailable,
                format!("node {node}, which runs the tournaments, {what}; try again"),
            )
        };
        match self.request(node, &payload).await {
            Ok(Answer::Reply(reply)) => Ok(reply),
            Ok(Answer::Refused(e)) => Err(e),
            Ok(_) => Err(unavailable("does not run them any more")),
            Err(Unreached::OtherWire(wire)) => Err(other_wire(node, &wire, "runs the tournaments")),
            Err(Unreached::Gone) => Err(unavailable("stopped")),
            Err(Unreached::Unanswered) => Err(unavailable("did not answer in time")),
        }
    }

    fn payload(&self, session: &Session, about: About) -> Result<Vec<u8>, ErrorMsg> {
        let who = Who {
            key: session.key.clone(),
            bot: session.bot.load(std::sync::atomic::Ordering::Relaxed),
            arbiter: self.roles.proof(session, Role::Arbiter),
            director: self.roles.proof(session, Role::Director),
        };
        let fwd = Forward { from: self.node.clone(), who, about };
        shvedka_proto::encode(&fwd)
            .map_err(|e| error(ErrorCode::TooLarge, format!("the request cannot be forwarded: {e}")))
    }

    /// One request to `node`, answered within [`ANSWER_WAIT`]; not sent to a node that speaks
    /// another wire (it would never hear it).
    async fn request(&self, node: &str, payload: &[u8]) -> Result<Answer, Unreached> {
        if let Some(wire) = self.peers.other_wire(node) {
            return Err(Unreached::OtherWire(wire));
        }
        let asked =
            tokio::time::timeout(ANSWER_WAIT, self.nats.request(ask_subject(node), payload.to_vec().into()));
        let reply = match asked.await {
            Ok(Ok(reply)) => reply,
            Ok(Err(e)) if e.kind() == async_nats::RequestErrorKind::NoResponders => {
                return Err(Unreached::Gone);
            }
            Ok(Err(e)) => {
                tracing::warn!(node, error = %e, "a forwarded request failed");
                return Err(Unreached::Unanswered);
            }
            Err(_) => return Err(Unreached::Unanswered),
        };
        shvedka_proto::decode::<Answer>(&reply.payload).map_err(|e| {
            tracing::error!(node, error = %e, "an answer that does not decode");
            Unreached::Unanswered
        })
    }

    /// The node that runs `id`: remembered, or the lease holder in the database. For an arbiter's
    /// `act` on a decided match, the node that ran it last (alive, not this one): it kept the
    /// match's watchers, whom the act's correction must reach (issue 55).
    async fn owner(&self, id: MatchId, act: bool) -> Result<String, ErrorMsg> {
        if let Some(node) = self.owners.get(&id) {
            return Ok(node.clone());
        }
        let Some(leases) = self.store.leases() else {
            return Err(error(ErrorCode::NoSuchMatch, format!("no live match {id}")));
        };
        let holder = leases.holder(id.0).await.map_err(|e| {
            tracing::error!(match_id = %id, error = %e, "cannot read who runs a match");
            error(ErrorCode::Unavailable, "the database cannot be read now; try again")
        })?;
        match holder {
            Some(h) if h.alive && h.node != self.node => {
                self.owners.insert(id, h.node.clone());
                Ok(h.node)
            }
            Some(h) if !h.alive => Err(moving(id, &h.node)),
            // Nobody holds it: a match that is not over waits for a node to take it over (its
            // lease was given back, or its node has just created it); its followers here ask
            // again. Told `NoSuchMatch`, they were told it closed for good (the fault benchmark).
            None => match self.store.find_match(id.0).await {
                Ok(Some(row)) if row.finished_ms.is_none() => Err(error(
                    ErrorCode::Unavailable,
                    format!("match {id} waits for a node to take it over; try again in a moment"),
                )),
                Ok(Some(_)) if act => self.ran_last(id).await,
                Ok(_) => Err(error(ErrorCode::NoSuchMatch, format!("no live match {id}"))),
                Err(e) => {
                    tracing::error!(match_id = %id, error = %e, "cannot read a match");
                    Err(error(ErrorCode::Unavailable, "the database cannot be read now; try again"))
                }
            },
            // This node holds a decided match it no longer runs: its task has just ended and is
            // giving the lease back. An act on it brings it back here (`Rooms::revive_with`).
            Some(_) if self.decided(id).await? => {
                Err(error(ErrorCode::NoSuchMatch, format!("no live match {id}")))
            }
            // This node holds it but does not run it yet: taking it over (or back) now; the
            // session follows it here once it runs (`taken_over`, `retry`).
            Some(_) => Err(error(
                ErrorCode::Unavailable,
                format!(
                    "match {id} is being taken over by this node; its players follow it here in a moment"
                ),
            )),
        }
    }
}

impl Relays {
    /// The live node, not this one, that ran decided match `id` last; `NoSuchMatch` (the act is
    /// carried out here) when there is none.
    async fn ran_last(&self, id: MatchId) -> Result<String, ErrorMsg> {
        let Some(leases) = self.store.leases() else {
            return Err(error(ErrorCode::NoSuchMatch, format!("no live match {id}")));
        };
        match leases.last_holder(id.0).await {
            Ok(Some(h)) if h.alive && h.node != self.node => Ok(h.node),
            Ok(_) => Err(error(ErrorCode::NoSuchMatch, format!("no live match {id}"))),
            Err(e) => {
                tracing::error!(match_id = %id, error = %e, "cannot read who ran a match");
                Err(error(ErrorCode::Unavailable, "the database cannot be read now; try again"))
            }
        }
    }

    /// Whether match `id` is decided in the database.
    async fn decided(&self, id: MatchId) -> Result<bool, ErrorMsg> {
        match self.store.find_match(id.0).await {
            Ok(row) => Ok(row.is_some_and(|r| r.finished_ms.is_some())),
            Err(e) => {
                tracing::error!(match_id = %id, error = %e, "cannot read a match");
                Err(error(ErrorCode::Unavailable, "the database cannot be read now; try again"))
            }
        }
    }
}

/// Where a relayed message goes in its follower's sequence.
fn step(t: &mut Target, msg: &ServerMsg) -> Step {
    match msg {
        ServerMsg::State(s) => {
            t.seen = Seen::Upto(s.last_seq);
            Step::Deliver
        }
        ServerMsg::Event(e) => match t.seen {
            Seen::Unknown => Step::Drop,
            Seen::Upto(last) => {
                let next = last.map_or(0, |l| l + 1);
                if e.seq < next {
                    Step::Drop
                } else if e.seq > next {
                    Step::Fill { after: last, upto: e.seq }
                } else {
                    t.seen = Seen::Upto(Some(e.seq));
                    Step::Deliver
                }
            }
        },
        _ => Step::Deliver,
    }
}

impl PartialEq for Step {
    fn eq(&self, other: &Step) -> bool {
        matches!((self, other), (Step::Deliver, Step::Deliver) | (Step::Drop, Step::Drop))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::wire::Relay;
    use crate::service::encoding::Outgoing;
    use crate::test_store::MemStore;
    use shvedka_proto::{EventView, MatchEvent, MatchState, PhaseView};
    use shvedka_storage::{EventRow, NewMatch};

    pub(super) fn view(seq: u64) -> MatchEvent {
        MatchEvent {
            match_id: MatchId(4),
            seq,
            at_ms: seq,
            kind: EventView::Started,
            clocks_ms: [1000; 4],
            running: [false; 4],
            bfen: None,
            server_time_us: 0,
        }
    }

    /// A node's relays over a store holding events 0 to 5 of match 4, and a session following
    /// it; NATS is never reached (delivery needs none).
    pub(super) async fn relays() -> (Arc<Relays>, Arc<Session>) {
        relays_over(Arc::new(MemStore::default())).await
    }

    /// As [`relays`], over `store`.
    async fn relays_over(store: Arc<MemStore>) -> (Arc<Relays>, Arc<Session>) {
        let created = NewMatch {
            id: 4,
            rules: "classic".into(),
            time_control: "3+0".into(),
            listed: true,
            config: "{}".into(),
            created_ms: 1,
            invite_hash: None,
            rated: false,
        };
        store.add_match(&created).await.unwrap();
        let rows: Vec<EventRow> = (0..6)
            .map(|seq| EventRow {
                seq,
                at_us: seq,
                event: "{}".into(),
                view: serde_json::to_string(&view(seq)).unwrap(),
            })
            .collect();
        store.append(4, &rows).await.unwrap();
        let nats = async_nats::ConnectOptions::new()
            .retry_on_initial_connect()
            .connect("nats://127.0.0.1:1")
            .await
            .expect("a client that connects in the background");
        let session = Arc::new(Session::remote("k".into(), "anna".into(), 1, None));
        let keep = Duration::from_secs(60);
        let roles = Roles::new(&crate::service::roles::Secrets { arbiter: "", director: "" });
        let peers = Arc::new(crate::cluster::Peers::new(Duration::from_secs(2), 8));
        let lease = Duration::from_secs(2);
        (Arc::new(Relays::new("b".into(), nats, store, (keep, 2), roles, peers, lease)), session)
    }

    /// A whole state of match 4 up to event `last_seq`.
    pub(super) fn state(last_seq: u64, phase: PhaseView) -> MatchState {
        MatchState {
            match_id: MatchId(4),
            rules: "classic".into(),
            time_control: "3+0".into(),
            seats: Default::default(),
            kinds: Default::default(),
            ready: [false; 4],
            phase,
            bfen: String::new(),
            clocks_ms: [0; 4],
            running: [false; 4],
            last_seq: Some(last_seq),
            result: None,
            your_seat: None,
            server_time_us: 0,
            moves: Vec::new(),
            rated: false,
            rating_changes: Vec::new(),
            called: None,
            restart_by_us: None,
            countdown_left_ms: None,
            bots_missing: Vec::new(),
            reserved: false,
            tournament: None,
        }
    }

    fn relayed(key: &str, msg: ServerMsg) -> Relay {
        Relay::Msg { key: key.into(), match_id: MatchId(4), msg }
    }

    fn seqs(rx: &mut crate::service::outbound::OutboundRx) -> Vec<u64> {
        let mut seqs = Vec::new();
        while let Some(msg) = rx.try_recv() {
            match msg.msg() {
                ServerMsg::Event(e) if matches!(msg, Outgoing::Own(_)) => seqs.push(e.seq),
                ServerMsg::State(s) if matches!(msg, Outgoing::Own(_)) => {
                    seqs.push(1000 + s.last_seq.unwrap_or(0))
                }
                _ => panic!("unexpected {:?}", msg.msg()),
            }
        }
        seqs
    }

    #[tokio::test]
    async fn a_relayed_event_is_told_once_in_order_and_a_gap_is_filled_from_the_database() {
        let (relays, anna) = relays().await;
        let (out, mut rx) = Outbound::channel(64);
        assert!(relays.register(&anna, &out, MatchId(4), &Ask::Follow { last_seq: Some(1) }));
        relays.deliver(relayed("k", ServerMsg::Event(view(2)))).await;
        relays.deliver(relayed("k", ServerMsg::Event(view(2)))).await;
        assert_eq!(seqs(&mut rx), [2], "a repeat is dropped");
        relays.deliver(relayed("k", ServerMsg::Event(view(5)))).await;
        assert_eq!(seqs(&mut rx), [3, 4, 5], "3 and 4 were lost on the way: read from the database first");
        relays.deliver(relayed("k", ServerMsg::Event(view(4)))).await;
        relays.deliver(relayed("other", ServerMsg::Event(view(6)))).await;
        assert!(seqs(&mut rx).is_empty(), "an old event, and another session's, are not told");
    }

    #[tokio::test]
    async fn a_fresh_follower_is_told_nothing_before_its_state_and_everything_after() {
        let (relays, anna) = relays().await;
        let (out, mut rx) = Outbound::channel(64);
        relays.register(&anna, &out, MatchId(4), &Ask::Follow { last_seq: None });
        relays.deliver(relayed("k", ServerMsg::Event(view(3)))).await;
        assert!(seqs(&mut rx).is_empty(), "an event before the state it follows is not told");
        let state = state(3, PhaseView::Forming);
        relays.deliver(relayed("k", ServerMsg::State(state))).await;
        relays.deliver(relayed("k", ServerMsg::Event(view(4)))).await;
        assert_eq!(seqs(&mut rx), [1003, 4]);
    }

    #[tokio::test]
    async fn a_follower_the_owner_dropped_for_falling_behind_has_its_connection_closed() {
        let (relays, anna) = relays().await;
        let (out, _rx) = Outbound::channel(64);
        relays.register(&anna, &out, MatchId(4), &Ask::Follow { last_seq: Some(5) });
        relays.deliver(Relay::Behind { key: "k".into(), match_id: MatchId(4) }).await;
        tokio::time::timeout(Duration::from_secs(1), out.fallen_behind())
            .await
            .expect("its connection is told to close and resume");
        assert!(!relays.follows(&anna, MatchId(4)), "it follows again when it resumes");
    }

    #[tokio::test]
    async fn the_node_an_ended_match_ran_on_is_kept_as_long_and_as_many_as_rematch_offers() {
        let (relays, anna) = relays().await;
        let (out, mut rx) = Outbound::channel(64);
        relays.register(&anna, &out, MatchId(4), &Ask::Follow { last_seq: Some(5) });
        relays.owners.insert(MatchId(4), "a".into());
        assert_eq!(relays.ran_elsewhere(MatchId(4)), None, "live: no offer yet");
        let result = shvedka_proto::ResultView {
            winner: None,
            reason: "agreed".into(),
            rule: "E5".into(),
            cause: None,
            note: None,
            rules: Box::default(),
        };
        let ended = MatchEvent { seq: 6, kind: EventView::Ended(result), ..view(6) };
        relays.deliver(relayed("k", ServerMsg::Event(ended))).await;
        assert_eq!(seqs(&mut rx), [6], "the end is told");
        assert_eq!(relays.ran_elsewhere(MatchId(4)).as_deref(), Some("a"), "its offer is on node a");

        // Nobody here follows it any more: who ran it is forgotten, where it ended is not.
        relays.drop_target(&anna, MatchId(4));
        relays.retry();
        assert!(relays.owners.is_empty(), "who runs a match is kept only while it is followed");
        assert_eq!(relays.ran_elsewhere(MatchId(4)).as_deref(), Some("a"));

        // At most max_rematch_offers (2 here): the oldest goes first.
        for id in [7, 8] {
            tokio::time::sleep(Duration::from_millis(2)).await;
            relays.owners.insert(MatchId(id), "c".into());
            relays.note_ended(MatchId(id));
        }
        assert_eq!(relays.ran_elsewhere(MatchId(4)), None, "the oldest is forgotten at the limit");
        assert_eq!(relays.ran_elsewhere(MatchId(8)).as_deref(), Some("c"));

        // After rematch_offer_s (60 s here) the offer is gone, and so is where it was.
        tokio::time::pause();
        tokio::time::advance(Duration::from_secs(61)).await;
        assert_eq!(relays.ran_elsewhere(MatchId(8)), None);
        relays.retry();
        assert!(relays.ended.is_empty(), "forgotten, not only hidden");
    }

    /// Waits (a bounded number of turns) until the relays no longer route match `id` to anna.
    async fn until_released(relays: &Relays, anna: &Session, id: MatchId) {
        for _ in 0..200 {
            if !relays.follows(anna, id) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        panic!("anna still follows match {id}");
    }

    /// The fault benchmark (issue 36): a node lost its lease while its commit of a match's
    /// last move and end went through; the players following it on another node were told the
    /// match closed (`Failed`) instead of how it ended. Nobody runs it now and it is decided:
    /// each is given the events he missed, the end included, from the database — once it can
    /// be read: while its row or its events cannot, he is neither told it closed nor let go
    /// without its end, and keeps following it until a retry reads them.
    #[tokio::test]
    async fn a_follower_of_a_match_decided_while_nobody_could_tell_him_is_given_its_end_from_the_database() {
        use std::sync::atomic::Ordering::SeqCst;
        let store = Arc::new(MemStore::default());
        let (relays, anna) = relays_over(store.clone()).await;
        let (out, mut rx) = Outbound::channel(64);
        relays.register(&anna, &out, MatchId(4), &Ask::Follow { last_seq: Some(3) });
        relays.asked("k", MatchId(4));
        relays.store.finish(4, "{}", 9).await.unwrap();
        let faults = &store.faults;
        for (refused, fault) in
            [("the match's row", &faults.refuse_match_reads), ("its events", &faults.refuse_event_reads)]
        {
            fault.store(true, SeqCst);
            relays.spawn_follow("k".into());
            tokio::time::sleep(Duration::from_millis(100)).await;
            assert!(relays.follows(&anna, MatchId(4)), "let go when {refused} could not be read");
            assert!(rx.try_recv().is_none(), "told something when {refused} could not be read");
            relays.asked("k", MatchId(4));
            fault.store(false, SeqCst);
        }
        relays.spawn_follow("k".into());
        until_released(&relays, &anna, MatchId(4)).await;
        assert_eq!(seqs(&mut rx), [4, 5], "what he missed, to the last event stored; no MatchClosed");
    }

    /// The same on a resume: a session resuming on this node into a decided match nobody runs,
    /// the database unreadable, still follows it (`true`, as while it waits to be taken over);
    /// readable, it is given the end and follows it no more (`false`).
    #[tokio::test]
    async fn a_resumed_session_whose_decided_match_cannot_be_read_still_follows_it() {
        use std::sync::atomic::Ordering::SeqCst;
        let store = Arc::new(MemStore::default());
        let (relays, anna) = relays_over(store.clone()).await;
        let (out, mut rx) = Outbound::channel(64);
        relays.store.finish(4, "{}", 9).await.unwrap();
        store.faults.refuse_event_reads.store(true, SeqCst);
        assert!(relays.follow_again(&anna, &out, MatchId(4), Some(3)).await, "given up on a failed read");
        assert!(relays.follows(&anna, MatchId(4)) && rx.try_recv().is_none());
        store.faults.refuse_event_reads.store(false, SeqCst);
        assert!(!relays.follow_again(&anna, &out, MatchId(4), Some(3)).await);
        assert!(!relays.follows(&anna, MatchId(4)));
        assert_eq!(seqs(&mut rx), [4, 5], "what he missed, the end included");
    }

    /// A match that is gone and not decided (no row): the follower is told it closed.
    #[tokio::test]
    async fn a_follower_of_a_match_that_is_gone_undecided_is_told_it_closed() {
        let (relays, anna) = relays().await;
        let (out, mut rx) = Outbound::channel(64);
        relays.register(&anna, &out, MatchId(9), &Ask::Follow { last_seq: Some(3) });
        // While his node's own ask is under way, nobody asks again: its answer decides (asked
        // twice, a spectator was answered twice and joined his gallery twice).
        relays.spawn_follow("k".into());
        relays.retry();
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert!(relays.follows(&anna, MatchId(9)) && rx.try_recv().is_none(), "asked again while asking");
        relays.asked("k", MatchId(9));
        relays.spawn_follow("k".into());
        until_released(&relays, &anna, MatchId(9)).await;
        let told = rx.try_recv().map(|m| m.msg().clone());
        assert!(
            matches!(told, Some(ServerMsg::MatchClosed { reason: shvedka_proto::ClosedReason::Failed, .. })),
            "{told:?}"
        );
    }

    /// The fault benchmark (issue 36): four players who had followed a match for more than
    /// [`GIVE_UP`] were given up on (told it closed) the moment it was taken over, before the
    /// new owner could answer. Their wait starts when the match moves, not when they came.
    #[tokio::test(start_paused = true)]
    async fn a_follower_is_given_up_on_only_after_waiting_for_the_take_over_itself() {
        let (relays, anna) = relays().await;
        let (out, _rx) = Outbound::channel(64);
        relays.register(&anna, &out, MatchId(4), &Ask::Follow { last_seq: Some(5) });
        relays.targets.get_mut("k").unwrap().attached = true;
        tokio::time::advance(GIVE_UP + Duration::from_secs(1)).await;
        relays.taken_over(MatchId(4));
        let waited = relays.targets.get("k").map(|t| t.since.elapsed()).expect("still a follower");
        assert!(waited < GIVE_UP / 2, "waiting since the take-over, not since he came: {waited:?}");
        // Asked again while unattached (he resumed): the wait starts again too.
        tokio::time::advance(GIVE_UP + Duration::from_secs(1)).await;
        relays.register(&anna, &out, MatchId(4), &Ask::Follow { last_seq: Some(5) });
        let waited = relays.targets.get("k").map(|t| t.since.elapsed()).expect("still a follower");
        assert!(waited < GIVE_UP / 2, "{waited:?}");
    }

    /// The cluster's wire version (`wire::version`): a node of another build is never asked —
    /// not about a match it runs, not about the tournaments it drives — and the player is told
    /// why at once, not after waiting for an answer that cannot come.
    #[tokio::test(start_paused = true)]
    async fn a_node_of_another_build_is_never_asked_and_the_player_is_told_why_at_once() {
        let (relays, anna) = relays().await;
        let (out, _rx) = Outbound::channel(64);
        relays.owners.insert(MatchId(4), "a".into());
        let older = crate::cluster::peers::Beat {
            node: "a".into(),
            matches: 1,
            connections: 4,
            wire: "w0-p10".into(),
        };
        assert!(relays.peers.hear(older, Instant::now()));
        let asked = Instant::now();
        let e4 = Ask::Command(ClientMsg::Move {
            board: shvedka_proto::Board::A,
            text: "e4".into(),
            think_ms: None,
        });
        let e = relays.forward(&anna, &out, MatchId(4), e4).await.unwrap_err();
        assert_eq!(e.code, ErrorCode::Unavailable);
        assert!(e.message.contains("runs match 4") && e.message.contains("w0-p10"), "{}", e.message);
        assert!(relays.owners.get(&MatchId(4)).is_none(), "asked of the database again next time");
        let e = relays.ask_seeks(&anna, &out, "a", ClientMsg::SeekPools).await.unwrap_err();
        assert_eq!(e.code, ErrorCode::Unavailable);
        assert!(e.message.contains("runs the seeks") && e.message.contains("another build"), "{}", e.message);
        // The node that ran a decided match restarted on another build: its rematch offer is gone.
        let e = relays.ask_rematch(&anna, &out, "a", MatchId(3), Some(true)).await.unwrap_err();
        assert_eq!(e.code, ErrorCode::NoSuchMatch, "{e:?}");
        let e = relays.ask_driver(&anna, "a", TourAsk::List { after: None, limit: 10 }).await.unwrap_err();
        assert!(
            e.message.contains("runs the tournaments") && e.message.contains("another build"),
            "{}",
            e.message
        );
        assert_eq!(asked.elapsed(), Duration::ZERO, "nothing sent, so nothing waited for");
        // Once it runs this build, it is asked (here: NATS is unreachable, so unanswered).
        let upgraded = crate::cluster::peers::Beat {
            wire: crate::cluster::wire::version(),
            ..relays.peers.alive(Instant::now())[0].clone()
        };
        assert!(relays.peers.hear(upgraded, Instant::now()));
        let e = relays.ask_driver(&anna, "a", TourAsk::List { after: None, limit: 10 }).await.unwrap_err();
        assert!(e.message.contains("did not answer in time"), "{}", e.message);
        assert_eq!(asked.elapsed(), ANSWER_WAIT);
    }
}
