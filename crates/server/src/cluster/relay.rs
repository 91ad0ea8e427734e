//! The other side of forwarding: this node's sessions that follow (or play in) a match another
//! node runs. A request about such a match is forwarded to its owner — found in the database
//! (the lease holder), remembered until it stops answering — and what the owner relays for a
//! session is delivered to the session's connection here, event by event in `seq` order: a
//! repeat is dropped, and a gap (a relayed message lost while NATS reconnected) is filled from
//! the database before the event that revealed it. So every event reaches the client exactly
//! once and in order, whichever node runs the match.
//!
//! When the owner stops, a request to it gets `Unavailable`; the session stays with its match,
//! and once another node has taken the match over (it says so on [`TAKEN`]; or this node finds
//! the new holder every `lease_renew_ms`) the session follows it there again from the last event
//! it has. A session whose match is taken over by nobody within [`GIVE_UP`] is told the match
//! closed.
//!
//! A decided match's rematch offer stays on the node that ran it: this node remembers, for
//! `rematch_offer_s` after it saw a match it relayed end, which node that was, forwards its
//! players' answers there, and seats a player in the rematch (through the node that runs it)
//! when it hears the rematch exists.

use std::sync::{Arc, OnceLock, Weak};
use std::time::Duration;

use dashmap::DashMap;
use futures_util::StreamExt;
use shvedka_proto::{
    ArbiterRequest, ClientMsg, ClosedReason, ErrorCode, ErrorMsg, EventView, MatchId, Reply, SeatId, SeekEnd,
    ServerMsg,
};
use shvedka_storage::Store;
use tokio::sync::{oneshot, watch};
use tokio::time::Instant;

use super::wire::{About, Answer, Ask, Forward, Relay, TAKEN, Who, ask_subject, relay_subject};
use crate::features::tournaments::TourAsk;
use crate::service::convert::error;
use crate::service::outbound::Outbound;
use crate::service::room::RoomMsg;
use crate::service::rooms::Rooms;
use crate::service::session::Session;

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
}

/// Which node runs the seeks (one node pairs every node's seekers; a role in the database).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Seeking {
    /// This one.
    Here,
    /// Another.
    There(String),
    /// Not known yet.
    Unknown,
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
}

impl Relays {
    /// Relays of node `node`; the nodes of ended matches are kept as long as rematch offers
    /// (`keep`, at most `max_ended`).
    pub(crate) fn new(
        node: String,
        nats: async_nats::Client,
        store: Arc<dyn Store>,
        keep: Duration,
        max_ended: usize,
    ) -> Relays {
        Relays {
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
        }
    }

    /// Which node runs the seeks, as last read from the database.
    pub(crate) fn seeking(&self) -> Seeking {
        self.seeking.lock().expect("seeking lock").clone()
    }

    /// Notes which node runs the seeks. When that changes, the seeks this node's sessions made
    /// through the old one are gone with it: each is told so.
    pub(crate) fn set_seeking(&self, now: Seeking) {
        let was = std::mem::replace(&mut *self.seeking.lock().expect("seeking lock"), now.clone());
        if was != now && matches!(was, Seeking::There(_)) {
            if now != Seeking::Unknown {
                tracing::info!(
                    ?now,
                    "the seeks are run by another node now; seeks made through the old one end"
                );
            }
            for mut s in self.seekers.iter_mut() {
                for seek in std::mem::take(&mut s.seeks) {
                    s.out.push(ServerMsg::SeekEnded { seek, reason: SeekEnd::Failed });
                }
            }
            // Those answering a rematch offer elsewhere still hear of it.
            self.seekers.retain(|_, s| s.rematch.is_some());
        }
    }

    /// Forwards a seek request of `session` (connected here through `out`) to `node`, which
    /// runs the seeks; what it pushes the session (invitations, matches found) comes to `out`.
    pub(crate) async fn ask_seeks(
        &self,
        session: &Arc<Session>,
        out: &Outbound,
        node: &str,
        msg: ClientMsg,
    ) -> Result<Reply, ErrorMsg> {
        self.listen(session, out);
        let payload = self.payload(session, About::Seek(msg))?;
        let unavailable = |what: &str| {
            error(ErrorCode::Unavailable, format!("node {node}, which runs the seeks, {what}; try again"))
        };
        match self.request(node, &payload).await {
            Ok(Answer::Reply(reply)) => {
                if let (Reply::Seek(view), Some(mut s)) = (&reply, self.seekers.get_mut(&session.key))
                    && !s.seeks.contains(&view.seek)
                {
                    s.seeks.push(view.seek);
                }
                Ok(reply)
            }
            Ok(Answer::Refused(e)) => Err(e),
            Ok(_) => Err(unavailable("does not run them any more")),
            Err(true) => Err(unavailable("stopped")),
            Err(false) => Err(unavailable("did not answer in time")),
        }
    }

    /// What another node pushes `session` from now on comes to `out`.
    fn listen(&self, session: &Arc<Session>, out: &Outbound) {
        match self.seekers.get_mut(&session.key) {
            Some(mut s) => s.out = out.clone(),
            None => {
                let seeker =
                    Seeker { session: session.clone(), out: out.clone(), seeks: Vec::new(), rematch: None };
                self.seekers.insert(session.key.clone(), seeker);
            }
        }
    }

    /// The node that ran the match `id` if this node saw it end there lately (its rematch offer
    /// is there).
    pub(crate) fn ran_elsewhere(&self, id: MatchId) -> Option<String> {
        self.ended.get(&id).filter(|e| e.1.elapsed() < self.keep).map(|e| e.0.clone())
    }

    /// Forwards `session`'s answer to the rematch offer of match `id` to `node`, which ran it;
    /// what the offer tells the session later comes to `out`. When the rematch exists (this
    /// answer was the fourth acceptance), the session is seated in it first.
    pub(crate) async fn ask_rematch(
        self: &Arc<Self>,
        session: &Arc<Session>,
        out: &Outbound,
        node: &str,
        id: MatchId,
        accept: Option<bool>,
    ) -> Result<Reply, ErrorMsg> {
        self.listen(session, out);
        let payload = self.payload(session, About::Rematch { match_id: id, accept })?;
        let (view, seat) = match self.request(node, &payload).await {
            Ok(Answer::Rematch { view, seat }) => (view, seat),
            Ok(Answer::Refused(e)) => return Err(e),
            Ok(_) | Err(true) => {
                return Err(error(
                    ErrorCode::NoSuchMatch,
                    format!("node {node}, which ran match {id}, stopped: its rematch offer is gone"),
                ));
            }
            Err(false) => {
                return Err(error(
                    ErrorCode::Unavailable,
                    format!("node {node}, which ran match {id}, did not answer in time; try again"),
                ));
            }
        };
        if let Some(mut s) = self.seekers.get_mut(&session.key) {
            s.rematch = Some(Pending { node: node.to_owned(), match_id: id, seat });
        }
        if let Some(new) = view.rematch
            && let Err(e) = self.seat_in_rematch(session, out, new, seat).await
        {
            tracing::warn!(match_id = %new, error = %e.message, "a rematch seat stays empty");
        }
        Ok(Reply::Rematch(view))
    }

    /// Seats `session` in the rematch `new` of a match it played at `seat` (the other colour,
    /// same board), ready, through the node that runs it; nothing when it is in it already.
    async fn seat_in_rematch(
        &self,
        session: &Arc<Session>,
        out: &Outbound,
        new: MatchId,
        seat: SeatId,
    ) -> Result<(), ErrorMsg> {
        if session.room() == Some(new) {
            return Ok(());
        }
        self.leave_other(session, new).await?;
        self.seat_ready(session, out, new, crate::features::rematch::swapped(seat)).await
    }

    /// `session` stops following a match other than `new` (on this node or another), as
    /// following a match does.
    async fn leave_other(&self, session: &Arc<Session>, new: MatchId) -> Result<(), ErrorMsg> {
        let Some(other) = session.room().filter(|&other| other != new) else { return Ok(()) };
        let rooms = self.rooms.get().and_then(Weak::upgrade);
        if let Some(rooms) = rooms
            && rooms.unfollow(session, other).await?
        {
            return Ok(());
        }
        self.let_go(session, other).await
    }

    /// `session` stops following the match `id` another node runs (or ran). Refused only by a
    /// match that keeps him (he plays in it); one that is over, gone or being taken over lets go.
    pub(crate) async fn let_go(&self, session: &Arc<Session>, id: MatchId) -> Result<(), ErrorMsg> {
        if !self.ended.contains_key(&id) {
            // Nothing is relayed for an unfollow: its queue is never read.
            let (out, _) = Outbound::channel(1);
            match self.forward(session, &out, id, Ask::Unfollow).await {
                Err(e) if !matches!(e.code, ErrorCode::Unavailable | ErrorCode::NoSuchMatch) => {
                    return Err(e);
                }
                Ok(_) => return Ok(()),
                Err(_) => {}
            }
        }
        self.drop_target(session, id);
        session.leave_room(id);
        Ok(())
    }

    /// Takes `seat` in match `id` and says ready, through the node that runs it, as the session's
    /// own requests would.
    async fn seat_ready(
        &self,
        session: &Arc<Session>,
        out: &Outbound,
        id: MatchId,
        seat: SeatId,
    ) -> Result<(), ErrorMsg> {
        let sit = ClientMsg::TakeSeat { match_id: id, seat };
        self.forward(session, out, id, Ask::Command(sit)).await?;
        self.forward(session, out, id, Ask::Command(ClientMsg::Ready { ready: true })).await?;
        Ok(())
    }

    /// What another node pushed a session of this node: from the seeks, or from a rematch offer.
    /// A match found, or a rematch made, is sat in here, through the match's node, before the
    /// session is told (as the node running the seeks, or the offer, seats its own).
    fn push(self: &Arc<Self>, key: &str, msg: ServerMsg) {
        let Some(mut s) = self.seekers.get_mut(key) else { return };
        if let ServerMsg::Rematch(view) = &msg
            && let Some(new) = view.rematch
            && let Some(p) = s.rematch.clone().filter(|p| p.match_id == view.match_id)
        {
            let (session, out) = (s.session.clone(), s.out.clone());
            drop(s);
            let relays = self.clone();
            tokio::spawn(async move {
                if let Err(e) = relays.seat_in_rematch(&session, &out, new, p.seat).await {
                    tracing::warn!(match_id = %new, error = %e.message, "a rematch seat stays empty");
                }
                out.push(msg);
            });
            return;
        }
        match &msg {
            ServerMsg::Seek(view) | ServerMsg::SeekInvitation(view) if !s.seeks.contains(&view.seek) => {
                s.seeks.push(view.seek);
            }
            ServerMsg::SeekEnded { seek, .. } | ServerMsg::MatchFound { seek, .. } => {
                s.seeks.retain(|x| x != seek)
            }
            _ => {}
        }
        let ServerMsg::MatchFound { seek, match_id, seat, .. } = msg else {
            s.out.push(msg);
            return;
        };
        let (session, out) = (s.session.clone(), s.out.clone());
        drop(s);
        let relays = self.clone();
        tokio::spawn(async move {
            match relays.seat_ready(&session, &out, match_id, seat).await {
                Ok(_) => {
                    out.push(msg);
                }
                Err(e) => {
                    tracing::warn!(match_id = %match_id, error = %e.message, "a sought seat cannot be taken through this node");
                    out.push(ServerMsg::SeekEnded { seek, reason: SeekEnd::Failed });
                }
            }
        });
    }

    /// Where this node's own matches are (set once, when the node starts its tasks).
    pub(crate) fn set_rooms(&self, rooms: Weak<Rooms>) {
        let _ = self.rooms.set(rooms);
    }

    /// Sessions here following matches of other nodes now.
    pub(crate) fn followed(&self) -> usize {
        self.targets.len()
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
    /// node that runs it. Following it (`Follow`, a seat) routes what the match sends the
    /// session to `out` from then on. `NoSuchMatch` when no node runs it.
    pub(crate) async fn forward(
        &self,
        session: &Arc<Session>,
        out: &Outbound,
        id: MatchId,
        ask: Ask,
    ) -> Result<Answer, ErrorMsg> {
        let follows = matches!(ask, Ask::Follow { .. } | Ask::Command(ClientMsg::TakeSeat { .. }));
        let registered = follows && self.register(session, out, id, &ask);
        let unfollow = matches!(ask, Ask::Unfollow);
        let answer = self.ask(session, id, ask).await;
        match &answer {
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
        &self,
        session: &Arc<Session>,
        out: &Outbound,
        id: MatchId,
        last_seq: Option<u64>,
    ) -> bool {
        let ask = Ask::Follow { last_seq };
        self.register(session, out, id, &ask);
        session.set_room(Some(id));
        match self.ask(session, id, ask).await {
            Ok(_) => {
                if let Some(mut t) = self.targets.get_mut(&session.key) {
                    t.attached = true;
                }
                true
            }
            Err(e) if e.code == ErrorCode::Unavailable => true,
            Err(_) => {
                self.targets.remove_if(&session.key, |_, t| t.match_id == id && t.out.same(out));
                session.leave_room(id);
                false
            }
        }
    }

    /// Notes where what the match sends the session goes, before the owner is asked (its first
    /// message may come before its answer). `true` when a new target was made.
    fn register(&self, session: &Arc<Session>, out: &Outbound, id: MatchId, ask: &Ask) -> bool {
        let seen = match ask {
            Ask::Follow { last_seq: Some(seq) } => Seen::Upto(Some(*seq)),
            _ => Seen::Unknown,
        };
        if let Some(mut t) = self.targets.get_mut(&session.key)
            && t.match_id == id
        {
            // Watching already and now taking a seat: the events go on where they are.
            if !t.out.same(out) || matches!(ask, Ask::Follow { .. }) {
                t.out = out.clone();
                t.seen = seen;
            }
            return false;
        }
        let target = Target {
            match_id: id,
            session: session.clone(),
            out: out.clone(),
            seen,
            attached: false,
            since: Instant::now(),
        };
        self.targets.insert(session.key.clone(), target);
        true
    }

    /// Asks the owner of `id`; asks the database again when the owner it knew does not run the
    /// match any more. A request that went unanswered is not repeated (a move may have been
    /// played): the client is told, and sees the event if it was.
    async fn ask(&self, session: &Session, id: MatchId, ask: Ask) -> Result<Answer, ErrorMsg> {
        let payload = self.payload(session, About::Match(id, ask))?;
        for _ in 0..2 {
            let node = self.owner(id).await?;
            match self.request(&node, &payload).await {
                Ok(Answer::NotHere) => {
                    self.owners.remove(&id);
                }
                Ok(Answer::Refused(e)) => return Err(e),
                Ok(answer) => return Ok(answer),
                Err(unheard) => {
                    self.owners.remove(&id);
                    return Err(if unheard { moving(id, &node) } else { unanswered(id, &node) });
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
            Err(true) => Err(unavailable("stopped")),
            Err(false) => Err(unavailable("did not answer in time")),
        }
    }

    fn payload(&self, session: &Session, about: About) -> Result<Vec<u8>, ErrorMsg> {
        let who = Who {
            key: session.key.clone(),
            name: session.name.clone(),
            player: session.player.0,
            account: session.account,
            bot: session.bot.load(std::sync::atomic::Ordering::Relaxed),
        };
        let fwd = Forward { from: self.node.clone(), who, about };
        shvedka_proto::encode(&fwd)
            .map_err(|e| error(ErrorCode::TooLarge, format!("the request cannot be forwarded: {e}")))
    }

    /// One request to `node`, answered within [`ANSWER_WAIT`]. `Err(true)` when nobody heard it
    /// (the node is gone: nothing was done), `Err(false)` when it went unanswered (it may have
    /// been done).
    async fn request(&self, node: &str, payload: &[u8]) -> Result<Answer, bool> {
        let asked =
            tokio::time::timeout(ANSWER_WAIT, self.nats.request(ask_subject(node), payload.to_vec().into()));
        let reply = match asked.await {
            Ok(Ok(reply)) => reply,
            Ok(Err(e)) if e.kind() == async_nats::RequestErrorKind::NoResponders => return Err(true),
            Ok(Err(e)) => {
                tracing::warn!(node, error = %e, "a forwarded request failed");
                return Err(false);
            }
            Err(_) => return Err(false),
        };
        shvedka_proto::decode::<Answer>(&reply.payload).map_err(|e| {
            tracing::error!(node, error = %e, "an answer that does not decode");
            false
        })
    }

    /// The node that runs `id`: remembered, or the lease holder in the database.
    async fn owner(&self, id: MatchId) -> Result<String, ErrorMsg> {
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
            _ => Err(error(ErrorCode::NoSuchMatch, format!("no live match {id}"))),
        }
    }

    /// Delivers what an owner relayed.
    async fn deliver(self: &Arc<Self>, relay: Relay) {
        match relay {
            Relay::Push { key, msg } => self.push(&key, msg),
            Relay::Behind { key, match_id } => {
                if let Some((_, t)) = self.targets.remove_if(&key, |_, t| t.match_id == match_id) {
                    // The connection closes as one that cannot keep up, and its client resumes.
                    t.out.raise_behind();
                }
            }
            Relay::Msg { key, match_id, msg } => {
                let next = match self.targets.get_mut(&key) {
                    Some(mut t) if t.match_id == match_id => step(&mut t, &msg),
                    _ => return,
                };
                if let Step::Fill { after, upto } = next {
                    let missed = self.missed(match_id, after, upto).await;
                    let Some(mut t) = self.targets.get_mut(&key).filter(|t| t.match_id == match_id) else {
                        return;
                    };
                    for view in missed {
                        t.seen = Seen::Upto(Some(view.seq));
                        t.out.push(ServerMsg::Event(view));
                    }
                    if step(&mut t, &msg) != Step::Deliver {
                        // The database had fewer events than the owner sent: resume instead.
                        t.out.raise_behind();
                        return;
                    }
                } else if matches!(next, Step::Drop) {
                    return;
                }
                if let ServerMsg::Event(e) = &msg
                    && matches!(
                        e.kind,
                        EventView::Ended(_)
                            | EventView::ArbiterActed { act: ArbiterRequest::Annul { .. }, .. }
                    )
                {
                    self.note_ended(match_id);
                }
                let closed = matches!(msg, ServerMsg::MatchClosed { .. });
                let gone = match self.targets.get(&key) {
                    Some(t) => !t.out.push(msg) && t.out.is_closed(),
                    None => return,
                };
                if closed || gone {
                    // Closed: its client resumes here and follows it again.
                    if let Some((_, t)) = self.targets.remove_if(&key, |_, t| t.match_id == match_id)
                        && closed
                    {
                        t.session.leave_room(match_id);
                    }
                }
            }
        }
    }

    /// Notes that the match `id` ended on the node this node knew ran it (where its rematch
    /// offer is), forgetting the oldest noted at [`Relays::max_ended`].
    fn note_ended(&self, id: MatchId) {
        let Some(node) = self.owners.get(&id).map(|n| n.clone()) else { return };
        if !self.ended.contains_key(&id) && self.ended.len() >= self.max_ended {
            let oldest = self.ended.iter().min_by_key(|e| e.1).map(|e| *e.key());
            if let Some(oldest) = oldest {
                self.ended.remove(&oldest);
            }
        }
        self.ended.insert(id, (node, Instant::now()));
    }

    /// The events of `id` after `after` and before `upto`, from the database (the owner stores
    /// an event before it relays it). None when it cannot be read: the follower resumes then.
    async fn missed(&self, id: MatchId, after: Option<u64>, upto: u64) -> Vec<shvedka_proto::MatchEvent> {
        let rows = match self.store.events(id.0).await {
            Ok(rows) => rows,
            Err(e) => {
                tracing::warn!(match_id = %id, error = %e, "cannot read missed events");
                return Vec::new();
            }
        };
        rows.iter()
            .filter(|r| after.is_none_or(|a| r.seq > a) && r.seq < upto)
            .map(|r| crate::service::restore::view_of(r, None))
            .collect::<anyhow::Result<Vec<_>>>()
            .unwrap_or_else(|e| {
                tracing::warn!(match_id = %id, error = %e, "cannot read missed events");
                Vec::new()
            })
    }

    /// Another node took `id` over: its followers here follow it there, from what they have.
    fn taken_over(self: &Arc<Self>, id: MatchId) {
        self.owners.remove(&id);
        let mut again = Vec::new();
        for mut t in self.targets.iter_mut() {
            if t.match_id == id {
                t.attached = false;
                again.push(t.key().clone());
            }
        }
        for key in again {
            self.spawn_follow(key);
        }
    }

    /// Asks the owner again for a session whose match was waiting to be taken over.
    fn spawn_follow(self: &Arc<Self>, key: String) {
        let Some((session, out, id, seen)) =
            self.targets.get(&key).map(|t| (t.session.clone(), t.out.clone(), t.match_id, t.seen))
        else {
            return;
        };
        if out.is_closed() {
            // Its connection is gone: it follows again when its client resumes, not before (a
            // restored match must not count an absent player back).
            self.targets.remove_if(&key, |_, t| t.out.same(&out));
            return;
        }
        let last_seq = match seen {
            Seen::Upto(seq) => seq,
            Seen::Unknown => None,
        };
        let relays = self.clone();
        // This node took the match over itself: the session follows it here, as any local one.
        let here = self.rooms.get().and_then(Weak::upgrade).and_then(|rooms| rooms.room(id).ok());
        if let Some(room) = here {
            self.targets.remove_if(&key, |_, t| t.match_id == id);
            tokio::spawn(async move {
                let (reply, rx) = oneshot::channel();
                let msg = RoomMsg::Follow { session: session.clone(), out, last_seq, reply };
                if room.tx.send(msg).await.is_err() || !matches!(rx.await, Ok(Ok(()))) {
                    session.leave_room(id);
                }
            });
            return;
        }
        tokio::spawn(async move {
            match relays.ask(&session, id, Ask::Follow { last_seq }).await {
                Ok(_) => {
                    if let Some(mut t) = relays.targets.get_mut(&key)
                        && t.match_id == id
                    {
                        t.attached = true;
                    }
                }
                Err(e) if e.code == ErrorCode::Unavailable => {}
                Err(_) => relays.close(&key, id),
            }
        });
    }

    /// The session's match is gone for good: it is told so and follows nothing.
    fn close(&self, key: &str, id: MatchId) {
        if let Some((_, t)) = self.targets.remove_if(key, |_, t| t.match_id == id) {
            t.out.push(ServerMsg::MatchClosed { match_id: id, reason: ClosedReason::Failed });
            t.session.leave_room(id);
        }
    }

    /// Every `every`: sessions whose match waits to be taken over ask again, and give up after
    /// [`GIVE_UP`]; what is remembered of matches nobody here follows any more is forgotten.
    fn retry(self: &Arc<Self>) {
        // Who runs a match is remembered while sessions here follow it; an ended match's node
        // as long as its rematch offer lasts.
        let followed: std::collections::HashSet<MatchId> = self.targets.iter().map(|t| t.match_id).collect();
        self.owners.retain(|id, _| followed.contains(id));
        self.ended.retain(|_, e| e.1.elapsed() < self.keep);
        let waiting: Vec<(String, MatchId, bool)> = self
            .targets
            .iter()
            .filter(|t| !t.attached)
            .map(|t| (t.key().clone(), t.match_id, t.since.elapsed() > GIVE_UP))
            .collect();
        for (key, id, expired) in waiting {
            if expired {
                self.close(&key, id);
            } else {
                self.spawn_follow(key);
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

fn moving(id: MatchId, node: &str) -> ErrorMsg {
    error(
        ErrorCode::Unavailable,
        format!(
            "node {node}, which ran match {id}, stopped; another node takes the match over within seconds: try again"
        ),
    )
}

fn unanswered(id: MatchId, node: &str) -> ErrorMsg {
    error(
        ErrorCode::Unavailable,
        format!(
            "node {node}, which runs match {id}, did not answer in time; if it was a move, its event tells"
        ),
    )
}

/// Delivers what other nodes relay to this node's sessions, and follows matches taken over,
/// until `stopped`.
pub(crate) async fn run(relays: Arc<Relays>, every: Duration, mut stopped: watch::Receiver<bool>) {
    let subscribed = async {
        let relayed = relays.nats.subscribe(relay_subject(&relays.node)).await?;
        let taken = relays.nats.subscribe(TAKEN).await?;
        Ok::<_, async_nats::SubscribeError>((relayed, taken))
    };
    let (mut relayed, mut taken) = match subscribed.await {
        Ok(subs) => subs,
        Err(e) => {
            tracing::error!(error = %e, "cannot hear relayed messages");
            return;
        }
    };
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        let stop = async {
            let _ = stopped.wait_for(|stop| *stop).await;
        };
        tokio::select! {
            () = stop => return,
            msg = relayed.next() => {
                let Some(msg) = msg else { return };
                match shvedka_proto::decode::<Relay>(&msg.payload) {
                    Ok(relay) => relays.deliver(relay).await,
                    Err(e) => tracing::warn!(error = %e, "a relayed message that does not decode"),
                }
            }
            msg = taken.next() => {
                let Some(msg) = msg else { return };
                if let Ok(id) = shvedka_proto::decode::<MatchId>(&msg.payload) {
                    relays.taken_over(id);
                }
            }
            _ = tick.tick() => relays.retry(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::encoding::Outgoing;
    use crate::test_store::MemStore;
    use shvedka_proto::{EventView, MatchEvent, MatchState, PhaseView};
    use shvedka_storage::{EventRow, NewMatch};

    fn view(seq: u64) -> MatchEvent {
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
    async fn relays() -> (Arc<Relays>, Arc<Session>) {
        let store = Arc::new(MemStore::default());
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
        (Arc::new(Relays::new("b".into(), nats, store, keep, 2)), session)
    }

    fn relayed(key: &str, msg: ServerMsg) -> Relay {
        Relay::Msg { key: key.into(), match_id: MatchId(4), msg }
    }

    fn seqs(rx: &mut crate::service::outbound::OutboundRx) -> Vec<u64> {
        let mut seqs = Vec::new();
        while let Ok(msg) = rx.try_recv() {
            match msg {
                Outgoing::Own(ServerMsg::Event(e)) => seqs.push(e.seq),
                Outgoing::Own(ServerMsg::State(s)) => seqs.push(1000 + s.last_seq.unwrap_or(0)),
                other => panic!("unexpected {:?}", other.msg()),
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
        let state = MatchState {
            match_id: MatchId(4),
            rules: "classic".into(),
            time_control: "3+0".into(),
            seats: Default::default(),
            kinds: Default::default(),
            ready: [false; 4],
            phase: PhaseView::Forming,
            bfen: String::new(),
            clocks_ms: [0; 4],
            running: [false; 4],
            last_seq: Some(3),
            result: None,
            your_seat: None,
            server_time_us: 0,
            moves: Vec::new(),
            rated: false,
            rating_changes: Vec::new(),
        };
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
        let result = shvedka_proto::ResultView { winner: None, reason: "agreed".into(), rule: "E5".into() };
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
}
