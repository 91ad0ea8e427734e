//! The owner's side of forwarding: a node answers the requests other nodes forward about the
//! matches it runs ([`Ask`] on its [`ask_subject`]), and keeps, for each session of another node
//! that follows one of its matches, a follower of the match whose queue is relayed to that node
//! ([`Relay`] on the node's [`relay_subject`]). To the match task such a follower is one more
//! connection: it queues without waiting, and a follower that falls behind is dropped there and
//! told so (`Relay::Behind`), so its node closes the connection and the client resumes, exactly
//! as a slow connection of this node would.
//!
//! Bounded: at most [`MAX_ASKS`] forwarded requests are answered at once (more are refused
//! `Unavailable`); a relayed follower lives as long as the match or until it stops following; a
//! relayed seeker (or rematch listener) until its connection there closes or its node is no
//! longer heard. Each queue holds [`OUTBOUND_QUEUE`](crate::service::outbound::OUTBOUND_QUEUE) messages
//! like a connection's.

use std::sync::{Arc, Weak};
use std::time::Duration;

use dashmap::DashMap;
use futures_util::StreamExt;
use shvedka_proto::{ClientMsg, ErrorCode, ErrorMsg, MatchId, ServerMsg};
use shvedka_storage::Role;
use tokio::sync::{Semaphore, oneshot, watch};

use super::Peers;
use super::wire::{About, Answer, Ask, Forward, Relay, Who, ask_subject, gallery_key, relay_subject};
use crate::features::tournaments::{TourAsk, Tournaments};
use crate::service::accounts::Accounts;
use crate::service::convert::{self, error};
use crate::service::outbound::{Outbound, OutboundRx};
use crate::service::roles::{Roles, official};
use crate::service::room::{RoomHandle, RoomMsg};
use crate::service::rooms::Rooms;
use crate::service::session::{Session, Sessions};

/// Forwarded requests answered at once, at most.
pub(crate) const MAX_ASKS: usize = 1024;

/// How often a relayed follower's task looks whether its match or its entry is gone.
const CHECK: Duration = Duration::from_secs(2);

/// A session of another node following one of this node's matches.
struct Remote {
    node: String,
    match_id: MatchId,
    /// The match task it follows: a match let go and taken back is another task, whose
    /// followers need relays of their own (the old one's ends with the old task).
    room: tokio::sync::mpsc::WeakSender<RoomMsg>,
    session: Arc<Session>,
    out: Outbound,
}

impl Remote {
    /// Whether this stand-in still serves node `from`'s session in the task `room` runs match
    /// `id` in. One made for an earlier task of the match would be used while its relay ends
    /// (within [`CHECK`]), and then the new task would hold a closed queue for the player: absent
    /// for good, the match paused waiting for him (the fault benchmark: a node that let its match
    /// go and took it back within 2 s, 20 s of stall).
    fn serves(&self, from: &str, id: MatchId, room: &tokio::sync::mpsc::Sender<RoomMsg>) -> bool {
        self.node == from
            && self.match_id == id
            && !self.out.is_closed()
            && self.room.upgrade().is_some_and(|tx| tx.same_channel(room))
    }
}

/// A session of another node seeking a game through this node (which runs the seeks).
struct Seeker {
    node: String,
    session: Arc<Session>,
    out: Outbound,
}

/// This node as the owner of matches other nodes' sessions follow.
pub(crate) struct Owner {
    nats: async_nats::Client,
    /// By session key.
    remote: DashMap<String, Remote>,
    /// Other nodes' seekers, by session key (this node runs the seeks).
    seekers: DashMap<String, Seeker>,
    busy: Arc<Semaphore>,
    me: Weak<Owner>,
}

impl Owner {
    pub(crate) fn new(nats: async_nats::Client) -> Arc<Owner> {
        Arc::new_cyclic(|me| Owner {
            nats,
            remote: DashMap::new(),
            seekers: DashMap::new(),
            busy: Arc::new(Semaphore::new(MAX_ASKS)),
            me: me.clone(),
        })
    }

    /// Sessions of other nodes following this node's matches now.
    pub(crate) fn followers(&self) -> usize {
        self.remote.len()
    }

    /// Sessions of other nodes seeking, or answering a rematch offer, through this node now.
    pub(crate) fn seekers(&self) -> usize {
        self.seekers.len()
    }

    /// Forgets the seekers of nodes no longer heard (killed, or cut off) or heard speaking another
    /// wire (restarted on another build): their connections went with their node's process, which
    /// will never say `SeekGone` for them; their seeks end as a closing connection's do. Nothing
    /// is concluded while this node does not hear itself (NATS is down).
    async fn sweep(&self, node: &str, here: &Here) {
        let alive: std::collections::HashSet<String> =
            here.peers.reachable(tokio::time::Instant::now()).into_iter().map(|b| b.node).collect();
        if !alive.contains(node) {
            return;
        }
        let gone: Vec<String> =
            self.seekers.iter().filter(|s| !alive.contains(&s.node)).map(|s| s.key().clone()).collect();
        for key in gone {
            if let Some((_, s)) = self.seekers.remove_if(&key, |_, s| !alive.contains(&s.node)) {
                let why = "a seeker of a node no longer heard, or of another build, is forgotten";
                tracing::info!(node = %s.node, "{why}");
                here.seeks.disconnected(&s.session, &s.out).await;
            }
        }
    }

    /// Answers one forwarded request, for the session its key names here (`verify`).
    async fn answer(&self, f: Forward, here: &Here) -> Answer {
        if let About::SeekGone = f.about {
            // Only that node's own stand-in for the key goes: it acts for nobody.
            if let Some((_, s)) = self.seekers.remove_if(&f.who.key, |_, s| s.node == f.from) {
                // His seeks end, as a connection of this node's closing would end them.
                here.seeks.disconnected(&s.session, &s.out).await;
            }
            return Answer::Done;
        }
        if let About::Match(id, ask) = &f.about
            && f.who.key == gallery_key(&f.from, *id)
        {
            return self.answer_gallery(&f.from, &f.who.key, *id, ask.clone(), here).await;
        }
        let session = match self.verify(&f.from, &f.who, here).await {
            Ok(session) => session,
            // A session this node cannot find yet (its row is still being written) sits in no
            // match: he watches, as anyone may, from his node's gallery.
            Err(e)
                if e.code == ErrorCode::Forbidden
                    && matches!(f.about, About::Match(_, Ask::Watch { .. })) =>
            {
                return Answer::Spectator;
            }
            Err(e) => return Answer::Refused(e),
        };
        match f.about {
            About::Match(id, ask) => self.answer_match(&f.from, &session, id, ask, here).await,
            About::Seek(msg) => {
                let (session, out) = self.seeker(&f.from, session, here);
                // Reachable as a partner from now on, as a connection of this node is.
                here.seeks.connected(&session, &out).await;
                match here.seeks.request_remote(&session, &out, msg).await {
                    Ok(reply) => Answer::Reply(reply),
                    Err(e) => Answer::Refused(e),
                }
            }
            About::SeekGone => Answer::Done,
            About::Rematch { match_id, accept } => {
                // He hears of the offer's changes as a seeker hears of his seeks.
                let (session, out) = self.seeker(&f.from, session, here);
                match here.rematches.answer(&here.rooms, &session, &out, match_id, accept, true).await {
                    Ok((view, seat)) => Answer::Rematch { view, seat },
                    Err(e) => Answer::Refused(e),
                }
            }
            About::Tournament(ask) => {
                let ask = match checked(ask, &session, here).await {
                    Ok(ask) => ask,
                    Err(e) => return Answer::Refused(e),
                };
                match here.tournaments.answer(&here.rooms, ask).await {
                    Ok(reply) => Answer::Reply(reply),
                    Err(e) => Answer::Refused(e),
                }
            }
        }
    }

    /// A request of node `from`'s follower serving its spectators of match `id`: it may follow
    /// the match and stop, as a spectator who is nobody (no account, no player, no role).
    async fn answer_gallery(&self, from: &str, key: &str, id: MatchId, ask: Ask, here: &Here) -> Answer {
        if !matches!(ask, Ask::Follow { .. } | Ask::Unfollow | Ask::Away) {
            return Answer::Refused(error(
                ErrorCode::Forbidden,
                "a node's spectators' follower only follows",
            ));
        }
        let session = (self.remote.get(key).filter(|r| r.node == from).map(|r| r.session.clone()))
            .unwrap_or_else(|| Arc::new(Session::nobody(key.to_owned())));
        self.answer_match(from, &session, id, ask, here).await
    }

    /// The session a request of node `from` acts for, as this node knows it: the stand-in it
    /// keeps for that node's session already, else the session read by its key (`Sessions::
    /// of_another_node`: never the forwarding node's word); with the roles `who` proves.
    async fn verify(&self, from: &str, who: &Who, here: &Here) -> Result<Arc<Session>, ErrorMsg> {
        let known = self
            .remote
            .get(&who.key)
            .filter(|r| r.node == from)
            .map(|r| r.session.clone())
            .or_else(|| self.seekers.get(&who.key).filter(|s| s.node == from).map(|s| s.session.clone()));
        let session = match known {
            Some(session) => session,
            None => here.sessions.of_another_node(&who.key).await?,
        };
        session.bot.store(who.bot, std::sync::atomic::Ordering::Relaxed);
        if let Some(proof) = &who.arbiter {
            here.roles.accept_proof(&session, Role::Arbiter, proof);
        }
        if let Some(proof) = &who.director {
            here.roles.accept_proof(&session, Role::Director, proof);
        }
        Ok(session)
    }

    /// Answers a request about one of this node's matches.
    async fn answer_match(
        &self,
        from: &str,
        session: &Arc<Session>,
        id: MatchId,
        ask: Ask,
        here: &Here,
    ) -> Answer {
        let rooms = &here.rooms;
        if let Ask::Arbiter(act) = ask {
            // To its live task, one ending just now, or a decided match brought back here.
            return super::arbiter_act::carry_out(rooms, &here.accounts, session, id, act).await;
        }
        let Ok(room) = rooms.room(id) else { return Answer::NotHere };
        // Its task ended as it was asked: over, the match is gone; not over, it was let go (this
        // node lost its lease) or failed, and the asker looks for where it runs next — never told
        // it closed for good on the strength of a registry entry about to be removed.
        let over = room.summary.lock().is_ok_and(|s| {
            matches!(s.phase, shvedka_proto::PhaseView::Ended | shvedka_proto::PhaseView::Annulled)
        });
        let gone = || {
            if over {
                Answer::Refused(error(ErrorCode::NoSuchMatch, "the match is gone"))
            } else {
                Answer::NotHere
            }
        };
        let (reply, rx) = oneshot::channel();
        let unfollow = matches!(ask, Ask::Unfollow);
        let msg = match ask {
            Ask::Legal(board) => {
                let (reply, rx) = oneshot::channel();
                let board = convert::board(board);
                if room.tx.send(RoomMsg::Legal { board, reply }).await.is_err() {
                    return gone();
                }
                return rx.await.map_or_else(|_| gone(), Answer::Legal);
            }
            Ask::Arbiter(_) => unreachable!("an arbiter's act is carried out above"),
            Ask::FillWithBots(level) => {
                return match here.bots.fill(rooms, &here.metrics, session, id, level) {
                    Ok(_) => Answer::Done,
                    Err(e) => Answer::Refused(e),
                };
            }
            Ask::Away => {
                // Its task ends at its next look and drops the queue: the match sees it closed.
                self.remote.remove_if(&session.key, |_, r| r.match_id == id && r.node == from);
                return Answer::Done;
            }
            Ask::Unfollow => match self.remote.get(&session.key) {
                Some(r) if r.match_id == id => RoomMsg::Unfollow { session: r.session.clone(), reply },
                _ => return Answer::Done,
            },
            Ask::Follow { last_seq } => {
                let (session, out) = self.follower(from, session, id, &room, rooms);
                RoomMsg::Follow { session, out, last_seq, reply }
            }
            Ask::Watch { last_seq } => {
                let (seated, rx) = oneshot::channel();
                if room.tx.send(RoomMsg::Seated { session: session.clone(), reply: seated }).await.is_err() {
                    return gone();
                }
                match rx.await {
                    Ok(true) => {}
                    Ok(false) => {
                        // Served by his node's follower from now: one it had for him here goes.
                        self.remote.remove_if(&session.key, |_, r| r.match_id == id && r.node == from);
                        return Answer::Spectator;
                    }
                    Err(_) => return gone(),
                }
                let (session, out) = self.follower(from, session, id, &room, rooms);
                RoomMsg::Follow { session, out, last_seq, reply }
            }
            Ask::Command(msg) => {
                let following = (self.remote.get(&session.key).filter(|r| r.serves(from, id, &room.tx)))
                    .map(|r| (r.session.clone(), r.out.clone()));
                let (session, out) = match following {
                    Some(following) => following,
                    None if matches!(msg, ClientMsg::TakeSeat { .. }) => {
                        self.follower(from, session, id, &room, rooms)
                    }
                    // Nobody followed here (a spectator served by his node's gallery chatting, a
                    // command refused): nothing is relayed back but the answer.
                    None => (session.clone(), Outbound::channel(1).0),
                };
                RoomMsg::Command { session, out, msg: Box::new(msg), reply }
            }
        };
        if room.tx.send(msg).await.is_err() {
            return gone();
        }
        match rx.await {
            Ok(Ok(())) => {
                if unfollow {
                    self.remote.remove(&session.key);
                }
                Answer::Done
            }
            Ok(Err(e)) => Answer::Refused(e),
            Err(_) => gone(),
        }
    }

    /// A queue whose messages go to session `key` on node `from`, in order, by a task of its own:
    /// about match `id` (a follower, until the match ends or he stops following), or from the
    /// seeks (`None`: until his connection there closes).
    fn relay(
        &self,
        from: &str,
        key: &str,
        room: Option<(MatchId, &RoomHandle)>,
        rooms: &Arc<Rooms>,
    ) -> Outbound {
        let (out, rx) = Outbound::channel(crate::service::outbound::OUTBOUND_QUEUE);
        let relay = Relaying {
            nats: self.nats.clone(),
            subject: relay_subject(from),
            key: key.to_owned(),
            match_id: room.map(|(id, _)| id),
            out: out.clone(),
            room: room.map(|(_, r)| r.tx.downgrade()),
            rooms: Arc::downgrade(rooms),
            owner: self.me.clone(),
        };
        tokio::spawn(relay.run(rx));
        out
    }

    /// The seeker standing for `session` of node `from`: the one it has, or a new one whose
    /// pushes (invitations, seeks, matches found) are relayed to `from`.
    fn seeker(&self, from: &str, session: Arc<Session>, here: &Here) -> (Arc<Session>, Outbound) {
        if let Some(s) = self.seekers.get(&session.key)
            && s.node == from
            && !s.out.is_closed()
        {
            return (s.session.clone(), s.out.clone());
        }
        let out = self.relay(from, &session.key, None, &here.rooms);
        let seeker = Seeker { node: from.to_owned(), session: session.clone(), out: out.clone() };
        self.seekers.insert(session.key.clone(), seeker);
        (session, out)
    }

    /// The follower standing for `session` of node `from` in match `id`: the one it has, or a
    /// new one relayed to `from` (a session that moved to another node is relayed there from
    /// now).
    fn follower(
        &self,
        from: &str,
        session: &Arc<Session>,
        id: MatchId,
        room: &RoomHandle,
        rooms: &Arc<Rooms>,
    ) -> (Arc<Session>, Outbound) {
        if let Some(r) = self.remote.get(&session.key)
            && r.serves(from, id, &room.tx)
        {
            return (r.session.clone(), r.out.clone());
        }
        let out = self.relay(from, &session.key, Some((id, room)), rooms);
        let remote = Remote {
            node: from.to_owned(),
            match_id: id,
            room: room.tx.downgrade(),
            session: session.clone(),
            out: out.clone(),
        };
        self.remote.insert(session.key.clone(), remote);
        (session.clone(), out)
    }
}

/// A tournament request as this node finds it for `session`: a director's command by whom this
/// node finds acting, a player's by his account (never the forwarding node's word).
async fn checked(ask: TourAsk, session: &Session, here: &Here) -> Result<TourAsk, ErrorMsg> {
    Ok(match ask {
        TourAsk::Director { req, .. } => {
            TourAsk::Director { by: official(&here.accounts, session, Role::Director).await?, req }
        }
        TourAsk::Choose { tournament, round, game, choice, .. } => {
            let name = session.account_name()?.to_owned();
            TourAsk::Choose { name, tournament, round, game, choice }
        }
        TourAsk::Assignment { tournament, .. } => {
            TourAsk::Assignment { name: session.account_name()?.to_owned(), tournament }
        }
        TourAsk::Entry { req, .. } => TourAsk::Entry {
            name: session.account_name()?.to_owned(),
            req: crate::features::tournaments::with_partner_account(req, &here.accounts).await?,
        },
        // The list and the rounds are public.
        TourAsk::List { after, limit } => TourAsk::List { after, limit },
        TourAsk::Round { tournament, round } => TourAsk::Round { tournament, round },
    })
}

/// One relayed follower's task: what the match (or, for a seeker, the seeks) queues for it goes
/// to its node, in order.
struct Relaying {
    nats: async_nats::Client,
    subject: String,
    key: String,
    /// The match followed; `None` for a seeker.
    match_id: Option<MatchId>,
    out: Outbound,
    room: Option<tokio::sync::mpsc::WeakSender<RoomMsg>>,
    rooms: Weak<Rooms>,
    owner: Weak<Owner>,
}

impl Relaying {
    async fn run(self, mut rx: OutboundRx) {
        let mut tick = tokio::time::interval(CHECK);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                biased;
                msg = rx.recv() => match msg {
                    Some(msg) => self.send(msg.msg().clone()).await,
                    None => break,
                },
                () = self.out.fallen_behind() => {
                    if let Some(match_id) = self.match_id {
                        self.publish(&Relay::Behind { key: self.key.clone(), match_id }).await;
                    }
                    break;
                }
                _ = tick.tick() => {
                    if self.done() {
                        // What the match queued before it ended still goes (its closing).
                        while let Some(msg) = rx.try_recv() {
                            self.send(msg.msg().clone()).await;
                        }
                        break;
                    }
                }
            }
        }
        if let Some(owner) = self.owner.upgrade() {
            match self.match_id {
                Some(_) => drop(owner.remote.remove_if(&self.key, |_, r| r.out.same(&self.out))),
                None => drop(owner.seekers.remove_if(&self.key, |_, s| s.out.same(&self.out))),
            }
        }
    }

    /// The match ended, or the follower was replaced or stopped following (a seeker: his
    /// connection there closed).
    fn done(&self) -> bool {
        let Some(owner) = self.owner.upgrade() else { return true };
        let Some(id) = self.match_id else {
            return owner.seekers.get(&self.key).is_none_or(|s| !s.out.same(&self.out));
        };
        let live = self
            .room
            .as_ref()
            .and_then(tokio::sync::mpsc::WeakSender::upgrade)
            .is_some_and(|tx| !tx.is_closed())
            && self.rooms.upgrade().is_some_and(|r| r.room(id).is_ok());
        let ours = owner.remote.get(&self.key).is_some_and(|r| r.out.same(&self.out));
        !live || !ours
    }

    async fn send(&self, msg: ServerMsg) {
        let relay = match self.match_id {
            Some(match_id) => Relay::Msg { key: self.key.clone(), match_id, msg },
            None => Relay::Push { key: self.key.clone(), msg },
        };
        self.publish(&relay).await;
    }

    async fn publish(&self, relay: &Relay) {
        let payload = match shvedka_proto::encode(relay) {
            Ok(payload) => payload,
            Err(e) => {
                tracing::error!(error = %e, "cannot encode a relayed message; its follower resumes");
                return;
            }
        };
        // NATS down: the message is lost here; the follower's node sees the gap at the next
        // event and reads it from the database.
        if let Err(e) = self.nats.publish(self.subject.clone(), payload.into()).await {
            tracing::debug!(error = %e, subject = %self.subject, "cannot relay a message");
        }
    }
}

/// What of this node a forwarded request may reach.
pub(crate) struct Here {
    pub(crate) seeks: crate::features::seeks::Seeks,
    pub(crate) rooms: Arc<Rooms>,
    pub(crate) sessions: Arc<Sessions>,
    pub(crate) tournaments: Arc<Tournaments>,
    pub(crate) rematches: Arc<crate::features::rematch::Rematches>,
    /// The node's own bots.
    pub(crate) bots: Arc<crate::features::bots::Bots>,
    pub(crate) metrics: Arc<crate::service::metrics::Metrics>,
    /// The nodes heard lately.
    pub(crate) peers: Arc<Peers>,
    /// Whose roles a forwarded request's session holds (`roles::official`).
    pub(crate) accounts: Arc<Accounts>,
    /// The roles' secrets, to check a forwarding node's proof that a session presented one.
    pub(crate) roles: Roles,
}

/// Answers the requests forwarded to node `node` until `stopped`.
pub(crate) async fn serve(
    owner: Arc<Owner>,
    node: String,
    here: Arc<Here>,
    mut stopped: watch::Receiver<bool>,
) {
    let mut asks = match owner.nats.subscribe(ask_subject(&node)).await {
        Ok(asks) => asks,
        Err(e) => {
            tracing::error!(error = %e, "cannot hear forwarded requests");
            return;
        }
    };
    let mut sweep = tokio::time::interval(CHECK);
    sweep.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        let stop = async {
            let _ = stopped.wait_for(|stop| *stop).await;
        };
        let msg = tokio::select! {
            () = stop => return,
            msg = asks.next() => msg,
            _ = sweep.tick() => {
                owner.sweep(&node, &here).await;
                continue;
            }
        };
        let Some(msg) = msg else { return };
        let Some(reply) = msg.reply.clone() else { continue };
        let Ok(permit) = owner.busy.clone().try_acquire_owned() else {
            let busy = Answer::Refused(error(ErrorCode::Unavailable, "the match's node is busy; try again"));
            publish_answer(&owner.nats, reply, &busy).await;
            continue;
        };
        let (owner, here) = (owner.clone(), here.clone());
        tokio::spawn(async move {
            let answer = match shvedka_proto::decode::<Forward>(&msg.payload) {
                Ok(f) => owner.answer(f, &here).await,
                Err(e) => Answer::Refused(error(ErrorCode::BadRequest, format!("a forwarded request: {e}"))),
            };
            publish_answer(&owner.nats, reply, &answer).await;
            drop(permit);
        });
    }
}

async fn publish_answer(nats: &async_nats::Client, reply: async_nats::Subject, answer: &Answer) {
    match shvedka_proto::encode(answer) {
        Ok(payload) => {
            if let Err(e) = nats.publish(reply, payload.into()).await {
                tracing::debug!(error = %e, "cannot answer a forwarded request");
            }
        }
        Err(e) => tracing::error!(error = %e, "cannot encode an answer"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stand-in made for one task of a match serves its session in that task only: after the
    /// match is let go and taken back by this node (a new task, a new channel), the session gets
    /// a new relay, not the one ending with the old task.
    #[test]
    fn a_followers_stand_in_serves_only_the_task_it_was_made_for() {
        let (old_task, _old_rx) = tokio::sync::mpsc::channel::<RoomMsg>(1);
        let (new_task, _new_rx) = tokio::sync::mpsc::channel::<RoomMsg>(1);
        let (out, _rx) = Outbound::channel(4);
        let remote = Remote {
            node: "b".into(),
            match_id: MatchId(75),
            room: old_task.downgrade(),
            session: Arc::new(Session::remote("k".into(), "anna".into(), 1, None)),
            out,
        };
        assert!(remote.serves("b", MatchId(75), &old_task));
        assert!(!remote.serves("b", MatchId(75), &new_task), "the match's next task needs its own relay");
        assert!(!remote.serves("c", MatchId(75), &old_task), "the session moved to another node");
        assert!(!remote.serves("b", MatchId(76), &old_task));
        drop(old_task);
        assert!(!remote.serves("b", MatchId(75), &new_task), "the old task is gone");
    }
}
