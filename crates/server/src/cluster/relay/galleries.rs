//! This node's spectators of a match another node runs, all served from one follower of it
//! (issue 34: a final watched by thousands, in cluster mode). Relayed one by one, each spectator
//! here would cost the owner a follower and NATS a copy of every event; instead the owner sees one
//! spectator who is nobody ([`gallery_key`]), and this node posts what is relayed to it to a
//! [`Gallery`] of its own, from which each spectator's writer takes it, exactly as a match task's
//! spectators take theirs (`service/gallery.rs`): lanes, a round, a snapshot for whoever falls
//! behind.
//!
//! That follower is a [`Target`] of the relays like any session's, so what is relayed to it comes
//! in `seq` order with gaps filled from the database, and follows the match to the node that takes
//! it over. What it cannot have is the match's state: a spectator who comes, or who falls behind,
//! takes a ticket, and the gallery's task asks the owner to follow it afresh, which puts the whole
//! state in the relayed stream at its place, after the events it covers and before the next; that
//! one state answers every ticket taken until it came.
//!
//! Bounded: one task, one follower and one gallery per match watched here (lanes of
//! `spectator_events_kept` posts); the task ends when its last spectator has gone, when the match
//! ends or closes, and moves its spectators to this node's own match task if this node takes the
//! match over.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use shvedka_proto::{ArbiterRequest, ErrorCode, ErrorMsg, EventView, MatchId, ServerMsg};
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;
use tokio::time::Instant;

use super::Relays;
use crate::cluster::wire::{Answer, Ask, gallery_key};
use crate::service::convert::error;
use crate::service::encoding::{Outgoing, Shared};
use crate::service::gallery::{Gallery, ROUND, Spot};
use crate::service::outbound::{OUTBOUND_QUEUE, Outbound, OutboundRx};
use crate::service::room::RoomMsg;
use crate::service::session::Session;

/// How often a gallery's task looks for spectators gone, and whether its follower still is one.
const CHECK: Duration = Duration::from_millis(500);

/// What a gallery's task is asked.
enum Cmd {
    /// A spectator comes (a connection of his watching already is replaced).
    Join { session: Arc<Session>, out: Outbound, done: oneshot::Sender<()> },
    /// A spectator goes, with what the gallery owes him; only from connection `out` if given.
    Leave { key: String, out: Option<Outbound>, done: oneshot::Sender<()> },
}

/// Where a match's gallery task is reached, once started (a watcher starting one holds it meanwhile).
type Slot = Arc<tokio::sync::Mutex<Option<mpsc::Sender<Cmd>>>>;

/// The matches of other nodes watched here, each served by a task of its own.
pub(crate) struct Galleries {
    /// Posts each lane keeps (`spectator_events_kept`).
    kept: usize,
    /// By match.
    tasks: Mutex<HashMap<MatchId, Slot>>,
    /// The spectators here by session key: the match and the connection each watches from.
    pub(super) watching: dashmap::DashMap<String, (MatchId, Outbound)>,
}

impl Galleries {
    pub(crate) fn new(kept: usize) -> Galleries {
        Galleries { kept, tasks: Mutex::default(), watching: dashmap::DashMap::new() }
    }

    /// Spectators here of other nodes' matches.
    pub(crate) fn spectators(&self) -> usize {
        self.watching.len()
    }

    /// Forgets the slots of tasks that ended.
    pub(super) fn sweep(&self) {
        let mut tasks = self.tasks.lock().expect("galleries lock");
        tasks.retain(|_, slot| {
            slot.try_lock().map_or(true, |tx| tx.as_ref().is_some_and(|tx| !tx.is_closed()))
        });
    }
}

impl Relays {
    /// `session` watches match `id`, which another node runs and in which he plays no part,
    /// from this node's gallery of it (started, with its follower, if there is none): his state
    /// comes first, then every event.
    ///
    /// # Errors
    /// As following the match: `NoSuchMatch`, `Unavailable` while nobody runs it.
    pub(crate) async fn watch_here(
        self: &Arc<Self>,
        session: &Arc<Session>,
        out: &Outbound,
        id: MatchId,
    ) -> Result<(), ErrorMsg> {
        for _ in 0..2 {
            let slot = self.galleries.tasks.lock().expect("galleries lock").entry(id).or_default().clone();
            let tx = {
                let mut task = slot.lock().await;
                match task.as_ref().filter(|tx| !tx.is_closed()) {
                    Some(tx) => tx.clone(),
                    None => {
                        let tx = self.start_gallery(id).await?;
                        *task = Some(tx.clone());
                        tx
                    }
                }
            };
            let (done, joined) = oneshot::channel();
            let join = Cmd::Join { session: session.clone(), out: out.clone(), done };
            // A task that has just ended drops the request: another is started.
            if tx.send(join).await.is_ok() && joined.await.is_ok() {
                self.galleries.watching.insert(session.key.clone(), (id, out.clone()));
                session.set_room(Some(id));
                return Ok(());
            }
        }
        Err(error(
            ErrorCode::Unavailable,
            format!("match {id} cannot be watched through this node now; try again"),
        ))
    }

    /// The owner answered `session`'s ask `Spectator`: the target registered for the ask goes,
    /// and he watches from this node's gallery of the match.
    ///
    /// # Errors
    /// As [`Relays::watch_here`].
    pub(crate) async fn spectate_here(
        self: &Arc<Self>,
        session: &Arc<Session>,
        out: &Outbound,
        id: MatchId,
    ) -> Result<(), ErrorMsg> {
        self.targets.remove_if(&session.key, |_, t| t.match_id == id && t.out.same(out));
        self.watch_here(session, out, id).await
    }

    /// `session` stops watching match `id` (any, if `None`) from a gallery here; from connection
    /// `out` only, if given. `false` when he did not.
    pub(super) async fn unwatch(
        &self,
        session: &Session,
        id: Option<MatchId>,
        out: Option<&Outbound>,
    ) -> bool {
        let Some((_, (id, _))) = self.galleries.watching.remove_if(&session.key, |_, (watched, from)| {
            id.is_none_or(|id| id == *watched) && out.is_none_or(|out| out.same(from))
        }) else {
            return false;
        };
        self.leave_gallery(&session.key, id, out.cloned()).await;
        true
    }

    /// The task of match `id`'s gallery lets the spectator `key` go (from connection `out` only,
    /// if given), with what it owes him. It holds his queue no more: a connection that closed
    /// while nothing was posted ends its writer now, not at the next post.
    pub(super) async fn leave_gallery(&self, key: &str, id: MatchId, out: Option<Outbound>) {
        let slot = self.galleries.tasks.lock().expect("galleries lock").get(&id).cloned();
        let tx = match slot {
            Some(slot) => slot.lock().await.clone(),
            None => None,
        };
        if let Some(tx) = tx {
            let (done, left) = oneshot::channel();
            if tx.send(Cmd::Leave { key: key.to_owned(), out, done }).await.is_ok() {
                let _ = left.await;
            }
        }
    }

    /// Starts the gallery of match `id`: its follower, followed by the owner, and its task.
    async fn start_gallery(self: &Arc<Self>, id: MatchId) -> Result<mpsc::Sender<Cmd>, ErrorMsg> {
        let key = gallery_key(&self.node, id);
        let nobody = Arc::new(Session::nobody(key.clone()));
        let (out, rx) = Outbound::channel(OUTBOUND_QUEUE);
        let follow = Ask::Follow { last_seq: None };
        // Registered before the owner is asked: its state may come before its answer.
        self.register(&nobody, &out, id, &follow);
        let answer = self.ask(&nobody, id, follow).await;
        self.asked(&key, id);
        match answer {
            Ok(_) => {
                if let Some(mut t) = self.targets.get_mut(&key) {
                    t.attached = true;
                }
            }
            // Waiting to be taken over: the relays follow it there (`retry`), as a session's.
            Err(e) if e.code == ErrorCode::Unavailable => {}
            Err(e) => {
                self.targets.remove_if(&key, |_, t| t.out.same(&out));
                return Err(e);
            }
        }
        let (tx, cmds) = mpsc::channel(64);
        let task = Task {
            id,
            key,
            nobody,
            out,
            relays: self.clone(),
            gallery: Gallery::new(self.galleries.kept),
            watchers: HashMap::new(),
            known: None,
            gap: false,
            refresh: None,
            state: None,
            over: false,
        };
        tokio::spawn(task.run(cmds, rx));
        Ok(tx)
    }
}

/// A spectator of the gallery.
struct Watcher {
    session: Arc<Session>,
    out: Outbound,
    spot: Spot,
}

/// The task serving this node's spectators of one match of another node.
struct Task {
    id: MatchId,
    /// Its follower's key ([`gallery_key`]) and session.
    key: String,
    nobody: Arc<Session>,
    /// Where what is relayed to its follower is queued.
    out: Outbound,
    relays: Arc<Relays>,
    gallery: Gallery,
    /// By session key.
    watchers: HashMap<String, Watcher>,
    /// The last event posted (`None`: no state yet; `Some(None)`: the match had no event).
    known: Option<Option<u64>>,
    /// The follower follows afresh after the owner dropped it: events may be missing, and the
    /// state that comes is every spectator's.
    gap: bool,
    /// The owner asked for the state afresh, until it answers.
    refresh: Option<JoinHandle<Result<Answer, ErrorMsg>>>,
    /// The last state relayed, while nothing was posted after it, and when it came: given to
    /// spectators who ask within a [`ROUND`] (its clocks are that old at most), so a crowd
    /// arriving one by one costs the owner a state a round, not one each.
    state: Option<(Arc<Shared>, Instant)>,
    /// The match ended: what was posted goes out, and the task ends.
    over: bool,
}

impl Task {
    async fn run(mut self, mut cmds: mpsc::Receiver<Cmd>, mut rx: OutboundRx) {
        let mut tick = tokio::time::interval(CHECK);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        tick.reset();
        loop {
            let due = self.gallery.due();
            tokio::select! {
                biased;
                msg = rx.recv() => match msg {
                    Some(msg) => self.take(msg),
                    None => break,
                },
                () = self.out.fallen_behind() => self.follow_afresh(),
                cmd = cmds.recv() => match cmd {
                    Some(cmd) => self.obey(cmd),
                    None => break,
                },
                answer = async { self.refresh.as_mut().expect("a refresh").await }, if self.refresh.is_some() => {
                    self.refresh = None;
                    self.relays.asked(&self.key, self.id);
                    if !matches!(answer, Ok(Ok(_))) {
                        tracing::debug!(match_id = %self.id, "the owner could not give the state afresh; asked again");
                    }
                }
                () = self.gallery.asked(), if self.refresh.is_none() => self.ask_state(),
                () = until(due) => self.gallery.release(),
                _ = tick.tick() => {
                    if !self.check().await {
                        break;
                    }
                }
            }
            if self.over {
                break;
            }
        }
        self.end();
    }

    /// Posts what was relayed to the follower; a state answers the spectators waiting for one.
    fn take(&mut self, msg: Outgoing) {
        let msg = match msg {
            Outgoing::Shared(msg) => msg,
            Outgoing::Own(msg) => Shared::new(*msg),
        };
        match msg.msg() {
            ServerMsg::State(s) => {
                // A state that is not where the spectators are (the follower missed events it
                // could not fill) is everybody's: each starts again from it.
                if self.gap || self.known.is_some_and(|known| known != s.last_seq) {
                    self.gallery.post(&msg);
                }
                self.gap = false;
                self.known = Some(s.last_seq);
                self.state = Some((msg.clone(), Instant::now()));
                self.gallery.answer(msg);
                return;
            }
            ServerMsg::Event(e) => {
                self.known = Some(Some(e.seq));
                self.over |= matches!(
                    e.kind,
                    EventView::Ended(_) | EventView::ArbiterActed { act: ArbiterRequest::Annul { .. }, .. }
                );
            }
            ServerMsg::MatchClosed { .. } => self.over = true,
            _ => {}
        }
        self.state = None;
        self.gallery.post(&msg);
    }

    fn obey(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Join { session, out, done } => {
                self.leave(&session.key, None);
                let (spot, rx) = self.gallery.subscribe();
                // He has nothing yet: his first message is the next state.
                if out.watch(rx.starting_with_a_snapshot()) {
                    self.watchers.insert(session.key.clone(), Watcher { session, out, spot });
                }
                let _ = done.send(());
            }
            Cmd::Leave { key, out, done } => {
                self.leave(&key, out.as_ref());
                let _ = done.send(());
            }
        }
    }

    /// A spectator stops taking the gallery's posts: he takes those his lane gave him, and is
    /// queued those it has not.
    fn leave(&mut self, key: &str, from: Option<&Outbound>) {
        if self.watchers.get(key).is_some_and(|w| from.is_none_or(|from| from.same(&w.out)))
            && let Some(w) = self.watchers.remove(key)
        {
            let (mark, owed) = self.gallery.leave(w.spot);
            let _ = w.out.unwatch(mark) && owed.iter().all(|msg| w.out.push_shared(msg));
        }
    }

    /// Asks the owner to follow the match afresh: its whole state comes in the relayed stream.
    fn ask_state(&mut self) {
        if !self.gallery.wanted() {
            return;
        }
        if let Some((state, at)) = &self.state
            && at.elapsed() < ROUND
        {
            self.gallery.answer(state.clone());
            return;
        }
        self.refresh = Some(self.ask_owner(Ask::Follow { last_seq: None }));
    }

    /// Asks the owner about the match for the follower, in the background.
    fn ask_owner(&self, ask: Ask) -> JoinHandle<Result<Answer, ErrorMsg>> {
        let (relays, nobody, id) = (self.relays.clone(), self.nobody.clone(), self.id);
        tokio::spawn(async move { relays.ask(&nobody, id, ask).await })
    }

    /// The owner stopped relaying to the follower (it fell behind there): it follows again from
    /// the whole state, which every spectator is then given.
    fn follow_afresh(&mut self) {
        self.relays.register(&self.nobody, &self.out, self.id, &Ask::Follow { last_seq: None });
        self.gap = true;
        self.refresh = Some(self.ask_owner(Ask::Follow { last_seq: None }));
    }

    /// Forgets spectators whose connection closed, and says whether the task goes on: not
    /// without spectators, nor once its follower is gone (the match ended, closed, or was taken
    /// over by this node, whose own task then serves them).
    async fn check(&mut self) -> bool {
        self.watchers.retain(|_, w| !w.out.is_closed());
        if self.watchers.is_empty() {
            return false;
        }
        let follows = self.relays.targets.get(&self.key).is_some_and(|t| t.out.same(&self.out));
        if follows {
            if self.gallery.wanted() && self.refresh.is_none() {
                self.ask_state();
            }
            return true;
        }
        let here =
            self.relays.rooms.get().and_then(std::sync::Weak::upgrade).and_then(|r| r.room(self.id).ok());
        if let Some(room) = here {
            for (key, w) in std::mem::take(&mut self.watchers) {
                let (mark, owed) = self.gallery.leave(w.spot);
                let _ = w.out.unwatch(mark) && owed.iter().all(|msg| w.out.push_shared(msg));
                self.relays.galleries.watching.remove_if(&key, |_, (_, out)| out.same(&w.out));
                let (reply, _) = oneshot::channel();
                let follow = RoomMsg::Follow { session: w.session, out: w.out, last_seq: None, reply };
                let _ = room.tx.send(follow).await;
            }
        }
        false
    }

    /// Every spectator is given what was posted, and watches the match no more; the owner stops
    /// relaying to the follower.
    fn end(mut self) {
        self.gallery.release_all();
        for (key, w) in self.watchers.drain() {
            w.session.leave_room(self.id);
            self.relays.galleries.watching.remove_if(&key, |_, (_, out)| out.same(&w.out));
        }
        let followed = self.relays.targets.remove_if(&self.key, |_, t| t.out.same(&self.out)).is_some();
        if followed && !self.over {
            drop(self.ask_owner(Ask::Away));
        }
    }
}

async fn until(t: Option<tokio::time::Instant>) {
    match t {
        Some(t) => tokio::time::sleep_until(t).await,
        None => std::future::pending().await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::relay::tests::{relays, view};
    use shvedka_proto::PhaseView;

    fn state(last_seq: u64) -> ServerMsg {
        ServerMsg::State(crate::cluster::relay::tests::state(last_seq, PhaseView::Running))
    }

    /// A gallery's task for match 4, fed by hand (nothing is relayed).
    async fn task() -> Task {
        let (relays, _) = relays().await;
        let key = gallery_key("b", MatchId(4));
        let (out, _rx) = Outbound::channel(16);
        Task {
            id: MatchId(4),
            nobody: Arc::new(Session::nobody(key.clone())),
            key,
            out,
            relays,
            gallery: Gallery::new(16),
            watchers: HashMap::new(),
            known: None,
            gap: false,
            refresh: None,
            state: None,
            over: false,
        }
    }

    /// A spectator joined to the task: his connection's queue (held open, as his connection
    /// holds it) and what it is given.
    fn join(task: &mut Task, name: &str) -> (Outbound, OutboundRx) {
        let (out, rx) = Outbound::channel(16);
        let session = Arc::new(Session::remote(name.into(), name.into(), 1, None));
        task.obey(Cmd::Join { session, out: out.clone(), done: oneshot::channel().0 });
        (out, rx)
    }

    /// What a connection was given, as `seq`s (a state: 1000 + its last `seq`).
    fn told(rx: &mut OutboundRx) -> Vec<u64> {
        let mut seqs = Vec::new();
        while let Some(msg) = rx.try_recv() {
            match msg.msg() {
                ServerMsg::Event(e) => seqs.push(e.seq),
                ServerMsg::State(s) => seqs.push(1000 + s.last_seq.unwrap_or(0)),
                other => panic!("unexpected {other:?}"),
            }
        }
        seqs
    }

    /// A spectator asking to watch a match no node runs or will (no row: `NoSuchMatch` from the
    /// owner's lookup) is refused with that code; the gallery's follower is not left registered,
    /// no task runs, he watches nothing, and the empty slot goes at the next sweep.
    #[tokio::test]
    async fn watching_a_match_that_does_not_exist_is_refused_and_leaves_nothing_behind() {
        let (relays, _) = relays().await;
        let bob = Arc::new(Session::remote("bob".into(), "bob".into(), 1, None));
        let (out, mut rx) = Outbound::channel(16);
        let refused = relays.watch_here(&bob, &out, MatchId(9)).await.expect_err("no match 9");
        assert_eq!(refused.code, ErrorCode::NoSuchMatch, "{refused:?}");
        assert!(relays.targets.get(&gallery_key("b", MatchId(9))).is_none(), "the gallery's follower stayed");
        assert!(!relays.galleries.watching.contains_key("bob"), "watching a refused match");
        assert!(rx.try_recv().is_none(), "told something");
        relays.galleries.sweep();
        assert!(relays.galleries.tasks.lock().unwrap().is_empty(), "a slot kept for a refused match");
    }

    #[tokio::test]
    async fn newcomers_are_given_one_state_then_every_event_once() {
        let mut task = task().await;
        let ((_a, mut anna), (_b, mut boris)) = (join(&mut task, "anna"), join(&mut task, "boris"));
        assert!(task.gallery.wanted(), "both wait for a state");
        assert!(told(&mut anna).is_empty(), "nothing before his state");
        task.take(Outgoing::Own(Box::new(state(3))));
        task.take(Outgoing::Own(Box::new(ServerMsg::Event(view(4)))));
        assert_eq!(told(&mut anna), [1003, 4]);
        assert_eq!(told(&mut boris), [1003, 4]);
        // One who comes after an event waits for the owner's next state (the last one is older
        // than the event); one who comes while the last state is current (nothing posted since,
        // within a round) is given it at once.
        let (_v, mut vera) = join(&mut task, "vera");
        task.ask_state();
        assert!(task.refresh.is_some(), "the owner is asked afresh");
        if let Some(refresh) = task.refresh.take() {
            refresh.abort();
        }
        task.take(Outgoing::Own(Box::new(state(4))));
        let (_g, mut gleb) = join(&mut task, "gleb");
        task.ask_state();
        assert!(task.refresh.is_none(), "the state of a moment ago answers him");
        task.take(Outgoing::Own(Box::new(ServerMsg::Event(view(5)))));
        assert_eq!(told(&mut vera), [1004, 5]);
        assert_eq!(told(&mut gleb), [1004, 5]);
        assert_eq!(told(&mut anna), [5], "a state that is where he is, is not his");
    }

    #[tokio::test]
    async fn a_state_past_what_the_spectators_have_is_given_to_everyone() {
        let mut task = task().await;
        let (_a, mut anna) = join(&mut task, "anna");
        task.take(Outgoing::Own(Box::new(state(3))));
        task.take(Outgoing::Own(Box::new(ServerMsg::Event(view(4)))));
        assert_eq!(told(&mut anna), [1003, 4]);
        // Its follower missed 5 to 8 and could not fill them (the owner dropped it, it
        // follows afresh): the state it is given is everybody's next message.
        task.take(Outgoing::Own(Box::new(state(8))));
        task.take(Outgoing::Own(Box::new(ServerMsg::Event(view(9)))));
        assert_eq!(told(&mut anna), [1008, 9]);
    }

    #[tokio::test]
    async fn a_follower_the_owner_dropped_follows_afresh_and_its_state_goes_to_everyone() {
        let mut task = task().await;
        let (_a, mut anna) = join(&mut task, "anna");
        task.take(Outgoing::Own(Box::new(state(3))));
        task.take(Outgoing::Own(Box::new(ServerMsg::Event(view(4)))));
        assert_eq!(told(&mut anna), [1003, 4]);
        // The owner stopped relaying (`Relay::Behind`): the follower is registered afresh, from
        // a whole state, and nothing relayed before that state is taken for the next event.
        task.follow_afresh();
        let seen = task.relays.targets.get(&task.key).map(|t| (t.seen, t.out.same(&task.out)));
        assert_eq!(seen, Some((super::super::Seen::Unknown, true)));
        task.take(Outgoing::Own(Box::new(state(9))));
        task.take(Outgoing::Own(Box::new(ServerMsg::Event(view(10)))));
        assert_eq!(told(&mut anna), [1009, 10], "the state is his next message");
    }

    #[tokio::test]
    async fn the_end_of_the_match_is_posted_and_ends_the_task() {
        let mut task = task().await;
        let (_a, mut anna) = join(&mut task, "anna");
        task.take(Outgoing::Own(Box::new(state(3))));
        let result = shvedka_proto::ResultView {
            winner: None,
            reason: "agreed".into(),
            rule: "E5".into(),
            cause: None,
            note: None,
            rules: Box::default(),
        };
        let ended = shvedka_proto::MatchEvent { seq: 4, kind: EventView::Ended(result), ..view(4) };
        task.take(Outgoing::Own(Box::new(ServerMsg::Event(ended))));
        assert!(task.over, "the task ends after it");
        task.end();
        assert_eq!(told(&mut anna), [1003, 4]);
    }
}
