//! A match's spectators, served apart from its players (issue 34: a final watched by thousands).
//!
//! The match task queues each event to its four players one by one, as before, but *posts* it
//! once to the gallery, however many watch: a broadcast channel that keeps the last posts, from
//! which each spectator's connection writer takes them at its own pace. So the match task's work
//! per event does not grow with its audience, and a player's event never waits behind a crowd's.
//!
//! A spectator who cannot keep up — his connection too slow, or his writer too busy — is not
//! disconnected and not fed every event he missed: once the gallery has moved on by more than it
//! keeps, his writer asks the match task for the latest state (a ticket), and the task answers
//! all such asks together with one snapshot (both positions, reserves, clocks, the move list),
//! computed once and shared. The writer then skips the posts the snapshot already covers, and
//! goes on with the next event, so nothing is given twice and nothing is missing after it.
//!
//! A crowd is not told all at once: the spectators are dealt into lanes of about [`PER_LANE`]
//! (at most [`LANES`] lanes, opened as the crowd grows, so a match nobody watches holds none),
//! and the match task releases what was posted to one lane at a time, a lane every
//! `ROUND / LANES`, so every spectator has each post within [`ROUND`] and the crowd's writers,
//! packets and acknowledgements come in small waves between which the players' own work goes
//! on, not in one wave of thousands in front of it. A handful of spectators is one lane, told at
//! once.

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use shvedka_proto::ServerMsg;
use tokio::sync::broadcast::error::{RecvError, TryRecvError};
use tokio::sync::{Notify, broadcast, watch};
use tokio::time::Instant;

use crate::service::encoding::Shared;

/// The most lanes the spectators are dealt into.
pub(crate) const LANES: usize = 64;

/// Spectators a lane takes before another lane is opened (while there are fewer than [`LANES`]).
const PER_LANE: usize = 80;

/// The longest a post waits for the spectators' lanes: every lane is released once within it.
/// The spectators may wait 250 ms for an event (issue 34); the wider the round, the thinner the
/// crowd's waves in front of other matches' players. 500 matches beside 5,000 spectators of one,
/// alternated (docs/benchmarks.md): the other players' p99 30.8–65.0 ms (median 36.7) at 160 ms
/// against 41.8–100.6 ms (median 63) at 100 ms; the spectators' p99 163–170 ms against 135–168.
pub(crate) const ROUND: Duration = Duration::from_millis(160);

/// One message for every spectator: its place in the gallery's order, and its event's `seq`.
#[derive(Clone, Debug)]
struct Post {
    index: u64,
    seq: Option<u64>,
    msg: Arc<Shared>,
}

/// The state given to spectators that fell behind, answering every ticket up to `ticket`.
#[derive(Debug)]
struct Snapshot {
    ticket: u64,
    last_seq: Option<u64>,
    msg: Arc<Shared>,
}

/// Spectators' asks for a snapshot: tickets handed out, and the match task's wake-up.
#[derive(Debug, Default)]
struct Asks {
    tickets: AtomicU64,
    notify: Notify,
}

/// The match task's side.
#[derive(Debug)]
pub(crate) struct Gallery {
    /// Posts each lane keeps.
    capacity: usize,
    lanes: Vec<broadcast::Sender<Post>>,
    /// Per lane, the index of the first post it has not been given.
    released: Vec<u64>,
    /// The posts some lane has not been given yet, oldest first.
    log: VecDeque<Post>,
    /// The index of the next post.
    next: u64,
    /// The lane released next.
    turn: usize,
    /// When that lane is released (`None`: every lane has every post).
    due: Option<Instant>,
    snapshots: watch::Sender<Option<Arc<Snapshot>>>,
    asks: Arc<Asks>,
    /// The last ticket a snapshot answered.
    answered: u64,
}

impl Gallery {
    /// A gallery whose lanes keep `capacity` posts each (at least one).
    pub(crate) fn new(capacity: usize) -> Gallery {
        let (snapshots, _) = watch::channel(None);
        Gallery {
            capacity: capacity.max(1),
            lanes: Vec::new(),
            released: Vec::new(),
            log: VecDeque::new(),
            next: 0,
            turn: 0,
            due: None,
            snapshots,
            asks: Arc::default(),
            answered: 0,
        }
    }

    /// Posts a message to every spectator (nobody watching: nothing kept). The next lane has it
    /// at once if no lane was waiting; the others in turn.
    pub(crate) fn post(&mut self, msg: &Arc<Shared>) {
        if self.lanes.iter().all(|lane| lane.receiver_count() == 0) {
            self.next += 1;
            self.released.fill(self.next);
            return;
        }
        let seq = match msg.msg() {
            ServerMsg::Event(e) => Some(e.seq),
            _ => None,
        };
        self.log.push_back(Post { index: self.next, seq, msg: msg.clone() });
        self.next += 1;
        if self.due.is_none() {
            self.due = Some(Instant::now());
            self.release();
        }
    }

    /// When the next lane is due (`None`: nothing waits).
    pub(crate) fn due(&self) -> Option<Instant> {
        self.due
    }

    /// Releases every lane that is due: a lane every `ROUND / LANES` from the first post that
    /// found every lane given all, so a late wake-up catches up instead of stretching the round.
    pub(crate) fn release(&mut self) {
        let now = Instant::now();
        while let Some(due) = self.due.filter(|&due| due <= now) {
            self.release_next();
            self.due = (!self.log.is_empty()).then(|| due + ROUND / LANES as u32);
        }
    }

    /// Gives the next lane with spectators (an empty lane is passed over, given all) every post
    /// it has not had, and forgets the posts every lane has had.
    fn release_next(&mut self) {
        if self.lanes.is_empty() {
            return;
        }
        loop {
            let lane = self.turn;
            self.turn = (lane + 1) % self.lanes.len();
            let empty = self.lanes[lane].receiver_count() == 0;
            self.give(lane);
            if !empty || self.released.iter().all(|&r| r == self.next) {
                break;
            }
        }
        let oldest = self.released.iter().copied().min().unwrap_or(self.next);
        while self.log.front().is_some_and(|p| p.index < oldest) {
            self.log.pop_front();
        }
    }

    /// Every lane is given everything: the match task is ending, and what it posted last (its
    /// closing) must reach every spectator before his gallery closes.
    pub(crate) fn release_all(&mut self) {
        for lane in 0..self.lanes.len() {
            self.give(lane);
        }
        self.log.clear();
        self.due = None;
    }

    fn give(&mut self, lane: usize) {
        let from = self.released[lane];
        for post in self.log.iter().filter(|p| p.index >= from) {
            let _ = self.lanes[lane].send(post.clone());
        }
        self.released[lane] = self.next;
    }

    /// A new spectator: his place (the least crowded lane) and his receiver, which takes every
    /// post from now on.
    pub(crate) fn subscribe(&mut self) -> (Spot, GalleryRx) {
        let least = (0..self.lanes.len()).min_by_key(|&l| self.lanes[l].receiver_count());
        let lane = match least {
            Some(lane) if self.lanes[lane].receiver_count() < PER_LANE || self.lanes.len() == LANES => lane,
            _ => {
                self.lanes.push(broadcast::channel(self.capacity).0);
                self.released.push(self.next);
                self.lanes.len() - 1
            }
        };
        let rx = GalleryRx {
            posts: self.lanes[lane].subscribe(),
            snapshots: self.snapshots.subscribe(),
            asks: self.asks.clone(),
            from: self.next,
            waiting: None,
            given: None,
        };
        (Spot { lane, from: self.next }, rx)
    }

    /// A spectator leaves the gallery now: the mark up to which his lane has given him its posts,
    /// and the posts after it that he is still owed (to be queued to him directly).
    pub(crate) fn leave(&self, spot: Spot) -> (u64, Vec<Arc<Shared>>) {
        let mark = self.released[spot.lane];
        let owed =
            self.log.iter().filter(|p| p.index >= mark.max(spot.from)).map(|p| p.msg.clone()).collect();
        (mark, owed)
    }

    /// Completes when a spectator asks for a snapshot (an ask made earlier counts).
    pub(crate) async fn asked(&self) {
        self.asks.notify.notified().await;
    }

    /// Whether a spectator waits for a snapshot.
    pub(crate) fn wanted(&self) -> bool {
        self.asks.tickets.load(Ordering::Acquire) > self.answered
    }

    /// Answers every ticket handed out so far with `state` (a `ServerMsg::State`), the match as
    /// of now.
    pub(crate) fn answer(&mut self, state: Arc<Shared>) {
        let ticket = self.asks.tickets.load(Ordering::Acquire);
        let last_seq = match state.msg() {
            ServerMsg::State(s) => s.last_seq,
            _ => None,
        };
        self.snapshots.send_replace(Some(Arc::new(Snapshot { ticket, last_seq, msg: state })));
        self.answered = ticket;
    }
}

/// Where a spectator stands in the gallery: his lane, and the first post made for him.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Spot {
    lane: usize,
    from: u64,
}

/// A spectator's side, held by his connection's writer (`OutboundRx`).
#[derive(Debug)]
pub(crate) struct GalleryRx {
    posts: broadcast::Receiver<Post>,
    snapshots: watch::Receiver<Option<Arc<Snapshot>>>,
    asks: Arc<Asks>,
    /// The first post for him: those before it were made before he came (his state has them).
    from: u64,
    /// The ticket of the snapshot this spectator waits for.
    waiting: Option<u64>,
    /// The last event the snapshot he was given covers: posts of events up to it are skipped.
    given: Option<u64>,
}

impl GalleryRx {
    /// The next message for this spectator; `None` once the match task has ended and every post
    /// is taken. Cancel-safe: whatever completes is kept across calls.
    pub(crate) async fn recv(&mut self) -> Option<Arc<Shared>> {
        loop {
            if let Some(ticket) = self.waiting {
                if let Some(snapshot) = self.answer(ticket) {
                    return Some(snapshot);
                }
                if self.snapshots.changed().await.is_err() {
                    // The task is gone and no state comes: what it posted last (its end, or why
                    // it closed) is still given, after whatever of the rest the lane kept.
                    self.waiting = None;
                }
                continue;
            }
            match self.posts.recv().await {
                Ok(post) => {
                    if let Some(msg) = self.fresh(post) {
                        return Some(msg);
                    }
                }
                Err(RecvError::Lagged(_)) => self.waiting = Some(self.ask()),
                Err(RecvError::Closed) => return None,
            }
        }
    }

    /// A spectator who has nothing yet: his first message is the next snapshot (a match task
    /// queues a newcomer his state itself; another node's gallery of the match has none to give
    /// and asks its owner, `cluster/relay/galleries.rs`).
    pub(crate) fn starting_with_a_snapshot(mut self) -> GalleryRx {
        self.waiting = Some(self.ask());
        self
    }

    /// The posts made before `mark` that this spectator has not taken, without waiting: he takes
    /// a seat or stops watching, and what the match told the crowd until then still reaches him.
    pub(crate) fn before(&mut self, mark: u64) -> Vec<Arc<Shared>> {
        let mut taken = Vec::new();
        if self.waiting.is_some() {
            // He had fallen behind: a state follows his seat, and a spectator who left needs none.
            return taken;
        }
        loop {
            match self.posts.try_recv() {
                Ok(post) if post.index < mark => taken.extend(self.fresh(post)),
                Ok(_) | Err(TryRecvError::Empty | TryRecvError::Closed | TryRecvError::Lagged(_)) => {
                    return taken;
                }
            }
        }
    }

    /// A post, unless it was made before he came or the snapshot he was given covers its event.
    fn fresh(&self, post: Post) -> Option<Arc<Shared>> {
        match (post.seq, self.given) {
            _ if post.index < self.from => None,
            (Some(seq), Some(given)) if seq <= given => None,
            _ => Some(post.msg),
        }
    }

    /// Takes a ticket and wakes the match task.
    fn ask(&self) -> u64 {
        let ticket = self.asks.tickets.fetch_add(1, Ordering::AcqRel) + 1;
        self.asks.notify.notify_one();
        ticket
    }

    /// The snapshot answering `ticket`, if it has come.
    fn answer(&mut self, ticket: u64) -> Option<Arc<Shared>> {
        let snapshot = self.snapshots.borrow_and_update().clone().filter(|s| s.ticket >= ticket)?;
        self.waiting = None;
        // Only what comes after it: the posts it covers are skipped as they are read.
        self.given = snapshot.last_seq.max(self.given);
        Some(snapshot.msg.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pong(nonce: u64) -> Arc<Shared> {
        Shared::new(ServerMsg::Pong { nonce, server_time_us: 0 })
    }

    fn has(rx: &mut GalleryRx) -> Vec<u64> {
        let mut got = Vec::new();
        // Unconstrained: a test task reading a crowd would run out of tokio's budget of polls.
        while let Some(Some(post)) =
            futures_util::FutureExt::now_or_never(tokio::task::unconstrained(rx.recv()))
        {
            if let ServerMsg::Pong { nonce, .. } = post.msg() {
                got.push(*nonce);
            }
        }
        got
    }

    #[tokio::test(start_paused = true)]
    async fn a_crowd_is_told_lane_by_lane_and_everyone_within_a_round() {
        let mut g = Gallery::new(16);
        let mut crowd: Vec<GalleryRx> = (0..3 * PER_LANE).map(|_| g.subscribe().1).collect();
        assert_eq!(g.lanes.len(), 3, "a lane per {PER_LANE} spectators");
        g.post(&pong(1));
        let told = crowd.iter_mut().map(has).filter(|got| got == &[1]).count();
        assert_eq!(told, PER_LANE, "one lane at once, not the whole crowd");
        let due = g.due().expect("the other lanes are due");
        assert!(due <= Instant::now() + ROUND / LANES as u32);
        tokio::time::advance(ROUND).await;
        g.release();
        let told = crowd.iter_mut().map(has).filter(|got| got == &[1]).count();
        assert_eq!(told, 2 * PER_LANE, "the other two lanes, once each");
        assert_eq!(g.due(), None, "every lane has had everything: nothing waits");
        assert!(g.log.is_empty(), "and nothing is kept");
    }

    #[tokio::test(start_paused = true)]
    async fn every_spectator_has_every_post_once_in_order_and_the_last_ones_when_the_match_ends() {
        let mut g = Gallery::new(64);
        let mut crowd: Vec<GalleryRx> = (0..2 * PER_LANE).map(|_| g.subscribe().1).collect();
        let mut seen = vec![Vec::new(); crowd.len()];
        for n in 0..10 {
            g.post(&pong(n));
            tokio::time::advance(ROUND / 4).await;
            g.release();
            for (rx, seen) in crowd.iter_mut().zip(&mut seen) {
                seen.extend(has(rx));
            }
        }
        // The match task ends: whatever a lane was still owed is given before the gallery closes.
        g.post(&pong(10));
        g.release_all();
        drop(g);
        for (rx, seen) in crowd.iter_mut().zip(&mut seen) {
            seen.extend(has(rx));
            assert_eq!(*seen, (0..=10).collect::<Vec<_>>());
            assert!(rx.recv().await.is_none(), "closed after its last post");
        }
    }

    #[tokio::test(start_paused = true)]
    async fn a_spectator_waiting_for_a_state_when_the_match_ends_is_still_given_its_end() {
        let mut g = Gallery::new(16);
        let mut rx = g.subscribe().1.starting_with_a_snapshot();
        assert!(has(&mut rx).is_empty(), "he waits for a state");
        g.post(&pong(1));
        g.release_all();
        drop(g);
        assert_eq!(has(&mut rx), [1], "no state comes: the last post does");
        assert!(rx.recv().await.is_none(), "closed after it");
    }

    #[test]
    fn a_match_nobody_watches_keeps_no_lane_and_no_post() {
        let mut g = Gallery::new(256);
        for n in 0..1000 {
            g.post(&pong(n));
        }
        assert!(g.lanes.is_empty() && g.log.is_empty() && g.due().is_none());
    }

    #[tokio::test(start_paused = true)]
    async fn a_spectator_who_leaves_takes_what_his_lane_gave_and_is_owed_the_rest() {
        let mut g = Gallery::new(16);
        let _first_lane: Vec<GalleryRx> = (0..PER_LANE).map(|_| g.subscribe().1).collect();
        let (spot, mut rx) = g.subscribe();
        assert_eq!(spot.lane, 1);
        g.post(&pong(1)); // lane 0 at once; his lane is due later
        let (mark, owed) = g.leave(spot);
        assert!(rx.before(mark).is_empty(), "his lane gave him nothing yet");
        assert_eq!(owed.len(), 1, "so he is owed the post");
        tokio::time::advance(ROUND).await;
        g.release();
        g.post(&pong(2)); // lane 0's turn again: his lane has the first, not the second
        let (mark, owed) = g.leave(spot);
        assert_eq!(rx.before(mark).len(), 1, "the first, given by his lane");
        assert_eq!(owed.len(), 1, "the second, owed");
        assert!(matches!(owed[0].msg(), ServerMsg::Pong { nonce: 2, .. }));
    }
}
