//! The nodes of a cluster as NATS tells them: every node publishes a heartbeat on
//! [`SUBJECT`] every `lease_renew_ms` (its name, its live matches, its open connections, the wire
//! version it speaks) and listens to everyone's, so each node knows the others within one
//! heartbeat. A node not heard for `lease_ms` is forgotten (its leases in the database run out as
//! long after). At most `max_nodes` are kept; beats beyond that, and beats that do not parse or
//! exceed [`MAX_BEAT`] bytes, are ignored.
//!
//! The heartbeats are JSON on a subject of no version, so nodes of two builds still hear each
//! other's: a node that speaks another wire ([`super::wire::version`]) is shown, logged once as a
//! warning, and never asked anything (its subjects are not this node's; `relay::Relays` refuses
//! at once).
//!
//! This is what an operator sees (`/metrics`: `shvedka_cluster_nodes`,
//! `shvedka_cluster_node_matches{node}`, `shvedka_cluster_node_connections{node}`,
//! `shvedka_cluster_nodes_other_wire`); who runs a match is decided by the leases in PostgreSQL
//! alone, never by what NATS says.

use std::collections::HashMap;
use std::sync::{Mutex, Weak};
use std::time::Duration;

use futures_util::StreamExt;
use serde::{Deserialize, Serialize};
use tokio::sync::watch;
use tokio::time::Instant;

use super::Here;

/// The subject of the heartbeats.
pub(crate) const SUBJECT: &str = "shvedka.nodes";

/// The largest heartbeat read, bytes (a real one is well under 200).
pub(crate) const MAX_BEAT: usize = 1024;

/// One node's heartbeat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Beat {
    /// The node's name.
    pub(crate) node: String,
    /// Its live matches.
    pub(crate) matches: u64,
    /// Its open connections, over every transport.
    pub(crate) connections: u64,
    /// The wire version it speaks ([`super::wire::version`]); empty from a build before there was
    /// one.
    #[serde(default)]
    pub(crate) wire: String,
}

/// The nodes heard lately, this one included.
pub(crate) struct Peers {
    heard: Mutex<HashMap<String, (Instant, Beat)>>,
    forget: Duration,
    max: usize,
    /// When this node began to listen.
    born: Instant,
    /// The wire version this node speaks.
    wire: String,
}

impl Peers {
    /// Keeps at most `max` nodes, each until it has been silent for `forget`.
    pub(crate) fn new(forget: Duration, max: usize) -> Peers {
        Peers {
            heard: Mutex::new(HashMap::new()),
            forget,
            max,
            born: Instant::now(),
            wire: super::wire::version(),
        }
    }

    /// The wire version `node` speaks, if it was heard and it is not this node's: this node
    /// cannot ask it anything, nor hear what it relays.
    pub(crate) fn other_wire(&self, node: &str) -> Option<String> {
        let heard = self.heard.lock().expect("peers lock");
        heard.get(node).map(|(_, beat)| &beat.wire).filter(|wire| **wire != self.wire).cloned()
    }

    /// Whether `node` has not been heard within `within` of `now`, though this node has listened
    /// that long: cut off from NATS, or this node is (its forwarded requests would go
    /// unanswered: `relay::Relays::ask` refuses them at once instead).
    pub(crate) fn quiet(&self, node: &str, now: Instant, within: Duration) -> bool {
        if now.saturating_duration_since(self.born) < within {
            return false;
        }
        let heard = self.heard.lock().expect("peers lock");
        heard.get(node).is_none_or(|(at, _)| now.saturating_duration_since(*at) >= within)
    }

    /// Notes a heartbeat heard at `now`. `false` when it was ignored (too many nodes).
    pub(crate) fn hear(&self, beat: Beat, now: Instant) -> bool {
        let mut heard = self.heard.lock().expect("peers lock");
        heard.retain(|_, (at, _)| now.duration_since(*at) < self.forget);
        if !heard.contains_key(&beat.node) && heard.len() >= self.max {
            return false;
        }
        let known = heard.get(&beat.node).map(|(_, b)| &b.wire);
        if beat.wire != self.wire && known != Some(&beat.wire) {
            tracing::warn!(
                node = %beat.node,
                its_wire = %if beat.wire.is_empty() { "none (an older build)" } else { &beat.wire },
                this_wire = %self.wire,
                "a node of another build is heard: the two cannot ask each other anything, so requests \
                 about its matches are refused here until every node runs the same build"
            );
        }
        heard.insert(beat.node.clone(), (now, beat));
        true
    }

    /// Of the nodes heard within `forget` of `now`, those that speak this node's wire: the ones
    /// it can ask and be asked by, by name.
    pub(crate) fn reachable(&self, now: Instant) -> Vec<Beat> {
        let mut alive = self.alive(now);
        alive.retain(|beat| beat.wire == self.wire);
        alive
    }

    /// The nodes heard within `forget` of `now`, by name.
    pub(crate) fn alive(&self, now: Instant) -> Vec<Beat> {
        let heard = self.heard.lock().expect("peers lock");
        let mut alive: Vec<Beat> = heard
            .values()
            .filter(|(at, _)| now.duration_since(*at) < self.forget)
            .map(|(_, beat)| beat.clone())
            .collect();
        alive.sort_by(|a, b| a.node.cmp(&b.node));
        alive
    }
}

/// Publishes this node's heartbeat every `every` and hears the others', until `stopped`.
pub(crate) async fn run(
    client: async_nats::Client,
    node: String,
    every: Duration,
    here: Weak<Here>,
    mut stopped: watch::Receiver<bool>,
) {
    let mut beats = match client.subscribe(SUBJECT).await {
        Ok(subscriber) => subscriber,
        Err(e) => {
            tracing::error!(error = %e, "cannot subscribe to the cluster's heartbeats");
            return;
        }
    };
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        let stop = async {
            // The guard it gives is dropped here, not held across the branches' awaits.
            let _ = stopped.wait_for(|stop| *stop).await;
        };
        tokio::select! {
            () = stop => return,
            _ = tick.tick() => {
                let Some(here) = here.upgrade() else { return };
                let beat = Beat {
                    node: node.clone(),
                    matches: here.rooms.len() as u64,
                    connections: here.metrics.open_connections(),
                    wire: super::wire::version(),
                };
                let payload = serde_json::to_vec(&beat).expect("a beat serializes");
                // Not heard back when NATS is down: this node still counts itself.
                here.peers.hear(beat, Instant::now());
                if let Err(e) = client.publish(SUBJECT, payload.into()).await {
                    tracing::debug!(error = %e, "cannot publish this node's heartbeat");
                }
            }
            msg = beats.next() => {
                let Some(msg) = msg else { return };
                let Some(here) = here.upgrade() else { return };
                if msg.payload.len() > MAX_BEAT {
                    continue;
                }
                match serde_json::from_slice::<Beat>(&msg.payload) {
                    Ok(beat) if beat.node.len() <= crate::config::cluster::MAX_NODE_NAME => {
                        if !here.peers.hear(beat, Instant::now()) {
                            tracing::warn!("more nodes than max_nodes are heard; the rest are not shown");
                        }
                    }
                    _ => tracing::debug!("a heartbeat that does not parse; ignored"),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn beat(node: &str, matches: u64) -> Beat {
        Beat { node: node.into(), matches, connections: 2 * matches, wire: crate::cluster::wire::version() }
    }

    #[tokio::test(start_paused = true)]
    async fn a_node_is_shown_until_it_has_been_silent_for_the_lease() {
        let peers = Peers::new(Duration::from_secs(5), 8);
        let t0 = Instant::now();
        assert!(peers.hear(beat("b", 1), t0));
        assert!(peers.hear(beat("a", 3), t0 + Duration::from_secs(1)));
        assert_eq!(peers.alive(t0 + Duration::from_secs(2)), vec![beat("a", 3), beat("b", 1)], "by name");
        assert!(peers.hear(beat("b", 4), t0 + Duration::from_secs(4)));
        assert_eq!(peers.alive(t0 + Duration::from_secs(4))[1], beat("b", 4), "the latest beat counts");
        assert_eq!(peers.alive(t0 + Duration::from_secs(6)), vec![beat("b", 4)], "a fell silent");
        assert!(peers.alive(t0 + Duration::from_secs(9)).is_empty());
    }

    #[tokio::test(start_paused = true)]
    async fn a_node_is_quiet_once_unheard_for_the_window_but_not_before_this_one_listened_that_long() {
        let peers = Peers::new(Duration::from_secs(5), 8);
        let (t0, half) = (Instant::now(), Duration::from_millis(2500));
        assert!(!peers.quiet("a", t0 + Duration::from_secs(1), half), "not listened long enough to say");
        assert!(peers.quiet("a", t0 + Duration::from_secs(3), half), "never heard");
        assert!(peers.hear(beat("a", 1), t0 + Duration::from_secs(3)));
        assert!(!peers.quiet("a", t0 + Duration::from_secs(5), half), "heard 2 s ago");
        assert!(peers.quiet("a", t0 + Duration::from_millis(5500), half), "silent for half a lease");
    }

    #[tokio::test(start_paused = true)]
    async fn at_most_max_nodes_are_kept() {
        let peers = Peers::new(Duration::from_secs(5), 2);
        let t0 = Instant::now();
        assert!(peers.hear(beat("a", 1), t0));
        assert!(peers.hear(beat("b", 1), t0));
        assert!(!peers.hear(beat("c", 1), t0), "a third is ignored");
        assert!(peers.hear(beat("a", 2), t0), "a known node is still heard");
        assert!(peers.hear(beat("c", 1), t0 + Duration::from_secs(5)), "room once the others are forgotten");
        assert_eq!(peers.alive(t0 + Duration::from_secs(5)), vec![beat("c", 1)]);
    }

    #[tokio::test(start_paused = true)]
    async fn a_node_of_another_wire_version_is_shown_and_known_as_such() {
        let peers = Peers::new(Duration::from_secs(5), 8);
        let t0 = Instant::now();
        assert!(peers.hear(beat("a", 1), t0));
        let older = Beat { wire: "w0-p10".into(), ..beat("b", 2) };
        assert!(peers.hear(older.clone(), t0));
        assert_eq!(peers.alive(t0).len(), 2, "both are shown");
        assert_eq!(peers.reachable(t0), vec![beat("a", 1)], "one can be asked");
        assert_eq!(peers.other_wire("a"), None, "the same build");
        assert_eq!(peers.other_wire("b").as_deref(), Some("w0-p10"));
        assert_eq!(peers.other_wire("c"), None, "never heard: nothing known against it");
        // A beat from a build before the version: it parses, and speaks another wire.
        let before: Beat = serde_json::from_str(r#"{"node":"d","matches":0,"connections":0}"#).unwrap();
        assert!(peers.hear(before, t0));
        assert_eq!(peers.other_wire("d").as_deref(), Some(""));
        // Upgraded: the same node, now of this build.
        assert!(peers.hear(beat("b", 2), t0 + Duration::from_secs(1)));
        assert_eq!(peers.other_wire("b"), None);
    }
}
