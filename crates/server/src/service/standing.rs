//! Whether this server may run matches now. A single server always may. A node of a cluster may
//! only while it can prove its leases: when it has not renewed its heartbeat in the database for
//! a lease's length, another node may already be taking its matches over, so the node lets every
//! match go (its followers are told to resume elsewhere) and creates none until a renewal
//! succeeds again (`cluster/lease.rs` decides; the match tasks and the registry obey).
//!
//! A `watch` channel: the match tasks wait on it beside their other work, and nobody polls.

use tokio::sync::watch;

/// The deciding side: held by the cluster's lease keeper.
pub(crate) struct StandingTx(watch::Sender<bool>);

/// The obeying side: whether matches may run here (`true`) or must be let go.
#[derive(Clone)]
pub(crate) struct Standing(watch::Receiver<bool>);

/// A new standing, good. Dropping the sender leaves it good for ever (a single server).
pub(crate) fn channel() -> (StandingTx, Standing) {
    let (tx, rx) = watch::channel(true);
    (StandingTx(tx), Standing(rx))
}

impl StandingTx {
    /// Sets whether matches may run here. `true` when that changed it.
    pub(crate) fn set(&self, good: bool) -> bool {
        self.0.send_if_modified(|now| {
            let changed = *now != good;
            *now = good;
            changed
        })
    }
}

impl Standing {
    /// Whether the matches here must be let go now.
    pub(crate) fn lost(&self) -> bool {
        !*self.0.borrow()
    }

    /// Completes once the matches here must be let go (at once if they must already); never
    /// for a single server.
    pub(crate) async fn until_lost(&mut self) {
        if self.0.wait_for(|good| !good).await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[tokio::test]
    async fn a_lost_standing_wakes_its_waiters_and_a_dropped_keeper_never_does() {
        let (tx, mut standing) = channel();
        assert!(!standing.lost());
        let waiting = tokio::time::timeout(Duration::from_millis(20), standing.until_lost()).await;
        assert!(waiting.is_err(), "good: nothing to let go");
        let mut waiter = standing.clone();
        let woken = tokio::spawn(async move { waiter.until_lost().await });
        assert!(tx.set(false), "a change");
        assert!(!tx.set(false), "no change the second time");
        woken.await.unwrap();
        assert!(standing.lost());
        tokio::time::timeout(Duration::from_millis(20), standing.until_lost()).await.expect("at once");
        assert!(tx.set(true));
        drop(tx);
        assert!(!standing.lost());
        let waiting = tokio::time::timeout(Duration::from_millis(20), standing.until_lost()).await;
        assert!(waiting.is_err(), "a single server never lets go");
    }
}
