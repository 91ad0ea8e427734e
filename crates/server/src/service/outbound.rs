//! Where a session's messages go: the bounded queue of one connection's writer, and that
//! connection's "fallen behind" signal. A match task never waits for a follower: it queues
//! without blocking, and when a queue is full it raises the signal of *that* connection, which
//! closes itself with "cannot keep up" and resumes from the last event it has. The signal is a
//! stored permit (`Notify::notify_one`), so it cannot be lost by a connection that was busy at
//! that instant, and it belongs to one connection, so a resumed connection never inherits it.
//!
//! A spectator's events do not pass through his queue: his match hands his writer a receiver of
//! its gallery (`gallery.rs`) through the queue, in order with everything else, and the writer
//! takes from both ([`OutboundRx::recv`]); when he takes a seat or stops watching, the match
//! takes it back the same way, with the gallery's mark up to which he is still owed its posts.

use std::collections::VecDeque;
use std::sync::Arc;

use shvedka_proto::ServerMsg;
use tokio::sync::{Notify, mpsc};

use crate::service::encoding::{Outgoing, Shared};
use crate::service::gallery::GalleryRx;

/// Messages queued for one connection's writer before the connection counts as behind.
pub(crate) const OUTBOUND_QUEUE: usize = 1024;

/// One connection's outbound queue and its signal.
#[derive(Clone, Debug)]
pub(crate) struct Outbound {
    tx: mpsc::Sender<Queued>,
    behind: Arc<Notify>,
}

/// What goes through a connection's queue: small (16 bytes), since the queue's slots are
/// allocated 32 at a time for every connection (see [`Outgoing`]).
#[derive(Debug)]
enum Queued {
    Msg(Outgoing),
    /// From now on, also what this gallery posts.
    Watch(Box<GalleryRx>),
    /// No gallery any more, once its posts before this mark are taken.
    Unwatch {
        mark: u64,
    },
}

impl Outbound {
    /// A queue of `capacity` messages.
    pub(crate) fn channel(capacity: usize) -> (Outbound, OutboundRx) {
        let (tx, rx) = mpsc::channel(capacity);
        let rx = OutboundRx { queue: rx, gallery: None, taken: VecDeque::new() };
        (Outbound { tx, behind: Arc::new(Notify::new()) }, rx)
    }

    /// Hands the writer a gallery to take posts from, after everything queued before (`false`:
    /// the queue is full, raising the signal, or gone).
    pub(crate) fn watch(&self, gallery: GalleryRx) -> bool {
        self.push_queued(Queued::Watch(Box::new(gallery)))
    }

    /// Takes the gallery back once its posts before `mark` are taken (`false` as for
    /// [`Outbound::watch`]).
    pub(crate) fn unwatch(&self, mark: u64) -> bool {
        self.push_queued(Queued::Unwatch { mark })
    }

    /// Queues without waiting. A full queue raises the connection's signal; a closed one (the
    /// connection is gone) does not. Either way the message is not queued: `false`.
    pub(crate) fn push(&self, msg: ServerMsg) -> bool {
        self.push_outgoing(Outgoing::Own(Box::new(msg)))
    }

    /// As [`Outbound::push`], a message shared with other connections.
    pub(crate) fn push_shared(&self, msg: &Arc<Shared>) -> bool {
        self.push_outgoing(Outgoing::Shared(msg.clone()))
    }

    fn push_outgoing(&self, msg: Outgoing) -> bool {
        self.push_queued(Queued::Msg(msg))
    }

    fn push_queued(&self, msg: Queued) -> bool {
        match self.tx.try_send(msg) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Full(_)) => {
                self.behind.notify_one();
                false
            }
            Err(mpsc::error::TrySendError::Closed(_)) => false,
        }
    }

    /// Queues, waiting for room (the session's own replies, which it produces at its own pace).
    ///
    /// # Errors
    /// The message back when the connection's writer is gone.
    pub(crate) async fn send(&self, msg: ServerMsg) -> Result<(), Box<ServerMsg>> {
        self.tx.send(Queued::Msg(Outgoing::Own(Box::new(msg)))).await.map_err(|e| match e.0 {
            Queued::Msg(out) => Box::new(out.msg().clone()),
            Queued::Watch(_) | Queued::Unwatch { .. } => unreachable!("sent a message"),
        })
    }

    /// Raises the connection's signal: it closes as one that cannot keep up, and its client
    /// resumes (a follower relayed from another node fell behind there).
    pub(crate) fn raise_behind(&self) {
        self.behind.notify_one();
    }

    /// Completes once the connection has fallen behind (a permit raised earlier counts).
    pub(crate) async fn fallen_behind(&self) {
        self.behind.notified().await;
    }

    /// Whether `other` is the same connection's queue.
    pub(crate) fn same(&self, other: &Outbound) -> bool {
        self.tx.same_channel(&other.tx)
    }

    /// Whether the connection's writer is gone.
    pub(crate) fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }
}

/// What a connection's writer drains: its queue, and the gallery of the match it watches.
#[derive(Debug)]
pub(crate) struct OutboundRx {
    queue: mpsc::Receiver<Queued>,
    gallery: Option<GalleryRx>,
    /// Posts taken from a gallery given back, not written yet.
    taken: VecDeque<Outgoing>,
}

impl OutboundRx {
    /// The next message to write; `None` once every sender of the queue is gone. Cancel-safe.
    pub(crate) async fn recv(&mut self) -> Option<Outgoing> {
        loop {
            if let Some(msg) = self.taken.pop_front() {
                return Some(msg);
            }
            let queued = match &mut self.gallery {
                None => self.queue.recv().await?,
                Some(gallery) => tokio::select! {
                    biased;
                    queued = self.queue.recv() => queued?,
                    post = gallery.recv() => match post {
                        Some(post) => return Some(Outgoing::Shared(post)),
                        // The match task has ended and its every post is taken.
                        None => {
                            self.gallery = None;
                            continue;
                        }
                    },
                },
            };
            if let Some(msg) = self.queued(queued) {
                return Some(msg);
            }
        }
    }

    /// The next message if one is ready now (a writer gathering a batch).
    pub(crate) fn try_recv(&mut self) -> Option<Outgoing> {
        use futures_util::FutureExt;
        self.recv().now_or_never().flatten()
    }

    fn queued(&mut self, queued: Queued) -> Option<Outgoing> {
        match queued {
            Queued::Msg(msg) => Some(msg),
            Queued::Watch(gallery) => {
                self.gallery = Some(*gallery);
                None
            }
            Queued::Unwatch { mark } => {
                if let Some(mut gallery) = self.gallery.take() {
                    self.taken.extend(gallery.before(mark).into_iter().map(Outgoing::Shared));
                }
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pong(nonce: u64) -> ServerMsg {
        ServerMsg::Pong { nonce, server_time_us: 0 }
    }

    /// Every connection holds a block of 32 queue slots from its first message on: 352 bytes a
    /// slot (the message inline) made it 11 KiB a connection, 44 KiB a match (issue 34).
    #[test]
    fn a_queue_slot_is_two_words_so_an_idle_connections_queue_holds_half_a_kib() {
        assert_eq!(std::mem::size_of::<Queued>(), 16);
        assert_eq!(std::mem::size_of::<Outgoing>(), 16);
    }

    #[tokio::test]
    async fn a_full_queue_raises_a_signal_that_waits_for_its_connection() {
        let (out, mut rx) = Outbound::channel(1);
        assert!(out.push(pong(1)));
        // Nobody waits on the signal at this instant: the permit is kept (notify_waiters would
        // have lost it and left the connection frozen).
        assert!(!out.push(pong(2)), "the queue is full");
        tokio::time::timeout(std::time::Duration::from_secs(1), out.fallen_behind())
            .await
            .expect("the signal raised while nobody waited is still seen");
        assert_eq!(rx.recv().await.map(Outgoing::into_msg), Some(pong(1)));
    }

    #[tokio::test]
    async fn another_connection_does_not_inherit_the_signal() {
        let (old, _old_rx) = Outbound::channel(1);
        let (new, _new_rx) = Outbound::channel(1);
        assert!(old.push(pong(1)));
        assert!(!old.push(pong(2)));
        let waited = tokio::time::timeout(std::time::Duration::from_millis(50), new.fallen_behind()).await;
        assert!(waited.is_err(), "the new connection has not fallen behind");
    }

    #[tokio::test]
    async fn a_closed_connection_raises_nothing() {
        let (out, rx) = Outbound::channel(1);
        drop(rx);
        assert!(out.is_closed());
        assert!(!out.push(pong(1)));
        let waited = tokio::time::timeout(std::time::Duration::from_millis(50), out.fallen_behind()).await;
        assert!(waited.is_err(), "a gone connection is not behind, it is gone");
    }
}
