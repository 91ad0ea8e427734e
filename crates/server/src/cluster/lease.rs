//! The node's standing in the cluster: it keeps itself alive in the database, and lets its
//! matches go when it cannot.
//!
//! A heartbeat (`Leases::heartbeat`) makes the node's row live until the database's clock
//! reaches its statement's time plus `lease_ms`; after that any node may take the node's
//! matches over. This node cannot read the database's clock, but its own monotonic clock at the
//! moment it *sent* a heartbeat that succeeded is no later than that statement's time, so
//! "`lease_ms` since the last successful heartbeat was sent" is never later than the database's
//! expiry. At that moment the node lets every match go ([`StandingTx`]: the match tasks end where
//! they are, storing nothing more, and tell their followers to resume elsewhere), creates and
//! takes over none, and sets `shvedka_cluster_lease_lost`. The fence in the append path stays
//! the last word: whatever was in flight is stored only if the node still held the lease.
//!
//! The next heartbeat that succeeds rejoins: matches may run again, and those let go that
//! nobody took over meanwhile (their leases are still this node's) are taken back by the next
//! look for orphaned matches.
//! Each heartbeat is given at most `lease_ms` (a cut link can hold a statement for ever), and
//! up to [`BEATS_IN_FLIGHT`] are on their way at once, on connections of their own.

use std::sync::{Arc, Weak};
use std::time::Duration;

use shvedka_storage::Store;
use tokio::sync::watch;
use tokio::time::Instant;

use super::owner::Here;
use crate::service::standing::StandingTx;

/// What the lease keeper needs.
pub(super) struct Keeper {
    pub(super) store: Arc<dyn Store>,
    /// `lease_renew_ms`.
    pub(super) every: Duration,
    /// `lease_ms`.
    pub(super) lease: Duration,
    pub(super) standing: StandingTx,
    pub(super) here: Weak<Here>,
}

/// Heartbeats on their way at once, at most: a new one is sent every `lease_renew_ms` whether or
/// not the last was answered, so a slow database (a round trip near `lease_renew_ms` or beyond)
/// still renews the lease every `lease_renew_ms`.
pub(crate) const BEATS_IN_FLIGHT: usize = shvedka_storage::BEAT_CONNECTIONS as usize;

impl Keeper {
    /// Renews the node's leases every `every` and watches their expiry, until `stopped`.
    pub(super) async fn run(self, mut stopped: watch::Receiver<bool>) {
        use futures_util::StreamExt;
        let Some(leases) = self.store.leases() else { return };
        // The heartbeat at start-up (`open_store`) was sent before this.
        let mut renewed = Instant::now();
        let mut tick = tokio::time::interval(self.every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut beats = futures_util::stream::FuturesUnordered::new();
        loop {
            let expiry = renewed + self.lease;
            let lost = self.lost();
            tokio::select! {
                _ = tick.tick() => {
                    if beats.len() < BEATS_IN_FLIGHT {
                        let (sent, lease) = (Instant::now(), self.lease);
                        beats.push(async move { (sent, tokio::time::timeout(lease, leases.heartbeat()).await) });
                    }
                }
                Some((sent, answered)) = beats.next(), if !beats.is_empty() => match answered {
                    Ok(Ok(())) => {
                        renewed = renewed.max(sent);
                        if lost && renewed + self.lease > Instant::now() {
                            self.rejoin();
                        }
                    }
                    Ok(Err(e)) => tracing::error!(error = %e, "cannot renew this node's leases; trying again"),
                    Err(_) => tracing::error!(
                        lease_ms = self.lease.as_millis(),
                        "the database did not answer a heartbeat of this node within a lease"
                    ),
                },
                () = tokio::time::sleep_until(expiry), if !lost => self.lose(renewed.elapsed()),
                _ = stopped.wait_for(|stop| *stop) => return,
            }
        }
    }

    fn lost(&self) -> bool {
        self.here.upgrade().is_some_and(|here| here.rooms.may_run().is_err())
    }

    /// The lease may have run out: every match here is let go.
    fn lose(&self, since: Duration) {
        let Some(here) = self.here.upgrade() else { return };
        if self.standing.set(false) {
            here.metrics.set_lease_lost(true);
            tracing::error!(
                since_ms = since.as_millis(),
                matches = here.rooms.len(),
                "this node has not renewed its leases for a lease's length: it lets its matches go \
                 (their players resume on other nodes) and runs none until the database answers again"
            );
        }
    }

    /// A heartbeat succeeded after the lease was lost: matches may run here again (the matches
    /// let go that nobody took over come back with the next look for orphans, `take_overs`).
    fn rejoin(&self) {
        let Some(here) = self.here.upgrade() else { return };
        if self.standing.set(true) {
            here.metrics.set_lease_lost(false);
            tracing::info!("this node renewed its leases again: it rejoins the cluster");
        }
    }
}
