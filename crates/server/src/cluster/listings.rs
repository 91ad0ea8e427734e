//! The lobby across nodes: every node publishes the summaries of its live matches on
//! [`lobby_subject`] every [`EVERY`] (in parts of at most [`PART`]), and keeps the latest whole
//! listing of every other node, so a player on any node sees every node's matches within a second of a
//! change. A node not heard for the lease time is dropped from the list (its matches reappear
//! once another node has taken them over). Parts that do not decode or name too many matches
//! are ignored; at most `max_nodes` nodes are kept.

use std::collections::HashMap;
use std::sync::{Mutex, Weak};
use std::time::Duration;

use futures_util::StreamExt;
use serde::{Deserialize, Serialize};
use shvedka_proto::{MatchId, MatchSummary};
use tokio::sync::watch;
use tokio::time::Instant;

use super::wire::lobby_subject;
use crate::service::rooms::Rooms;

/// How often a node publishes its listing.
pub(crate) const EVERY: Duration = Duration::from_millis(500);

/// The most matches in one part.
pub(crate) const PART: usize = 256;

/// One part of a node's listing.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Part {
    pub(crate) node: String,
    /// Counts the node's listings: the parts of one listing share it.
    pub(crate) tick: u64,
    pub(crate) part: u32,
    pub(crate) parts: u32,
    /// Each live match, and whether it is listed (unlisted ones are shown to arbiters only).
    pub(crate) matches: Vec<(MatchSummary, bool)>,
}

/// One node's listing as heard.
struct Heard {
    at: Instant,
    tick: u64,
    /// The listing being received.
    building: Vec<(MatchSummary, bool)>,
    /// The last whole listing.
    whole: Vec<(MatchSummary, bool)>,
}

/// The other nodes' live matches.
pub(crate) struct Listings {
    node: String,
    heard: Mutex<HashMap<String, Heard>>,
    forget: Duration,
    max_nodes: usize,
}

impl Listings {
    pub(crate) fn new(node: String, forget: Duration, max_nodes: usize) -> Listings {
        Listings { node, heard: Mutex::new(HashMap::new()), forget, max_nodes }
    }

    /// Notes a part heard at `now`; this node's own are ignored.
    pub(crate) fn hear(&self, part: Part, now: Instant) {
        if part.node == self.node || part.matches.len() > PART || part.part >= part.parts {
            return;
        }
        let mut heard = self.heard.lock().expect("listings lock");
        heard.retain(|_, h| now.duration_since(h.at) < self.forget);
        if !heard.contains_key(&part.node) && heard.len() >= self.max_nodes {
            return;
        }
        let h = heard.entry(part.node).or_insert_with(|| Heard {
            at: now,
            tick: part.tick,
            building: Vec::new(),
            whole: Vec::new(),
        });
        if h.tick != part.tick {
            h.tick = part.tick;
            h.building.clear();
        }
        h.at = now;
        h.building.extend(part.matches);
        if part.part + 1 == part.parts {
            h.whole = std::mem::take(&mut h.building);
        }
    }

    /// The other nodes' live matches at `now`: the listed ones, or all.
    pub(crate) fn matches(&self, unlisted_too: bool, now: Instant) -> Vec<MatchSummary> {
        let heard = self.heard.lock().expect("listings lock");
        let mut seen: HashMap<MatchId, MatchSummary> = HashMap::new();
        for h in heard.values().filter(|h| now.duration_since(h.at) < self.forget) {
            for (summary, listed) in &h.whole {
                if *listed || unlisted_too {
                    seen.insert(summary.match_id, summary.clone());
                }
            }
        }
        seen.into_values().collect()
    }
}

/// This node's listing, in parts.
fn parts(node: &str, tick: u64, matches: Vec<(MatchSummary, bool)>) -> Vec<Part> {
    let chunks: Vec<Vec<(MatchSummary, bool)>> =
        if matches.is_empty() { vec![Vec::new()] } else { matches.chunks(PART).map(<[_]>::to_vec).collect() };
    let parts = u32::try_from(chunks.len()).unwrap_or(u32::MAX);
    chunks
        .into_iter()
        .enumerate()
        .map(|(i, matches)| Part {
            node: node.to_owned(),
            tick,
            part: u32::try_from(i).unwrap_or(u32::MAX),
            parts,
            matches,
        })
        .collect()
}

/// Publishes this node's listing every [`EVERY`] and hears the others', until `stopped`.
pub(crate) async fn run(
    nats: async_nats::Client,
    node: String,
    rooms: Weak<Rooms>,
    listings: std::sync::Arc<Listings>,
    mut stopped: watch::Receiver<bool>,
) {
    let mut heard = match nats.subscribe(lobby_subject()).await {
        Ok(sub) => sub,
        Err(e) => {
            tracing::error!(error = %e, "cannot hear the other nodes' lobbies");
            return;
        }
    };
    let mut tick = tokio::time::interval(EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut count = 0u64;
    loop {
        let stop = async {
            let _ = stopped.wait_for(|stop| *stop).await;
        };
        tokio::select! {
            () = stop => return,
            _ = tick.tick() => {
                let Some(rooms) = rooms.upgrade() else { return };
                count += 1;
                for part in parts(&node, count, rooms.summaries()) {
                    let Ok(payload) = shvedka_proto::encode(&part) else { continue };
                    if let Err(e) = nats.publish(lobby_subject(), payload.into()).await {
                        tracing::debug!(error = %e, "cannot publish this node's lobby");
                        break;
                    }
                }
            }
            msg = heard.next() => {
                let Some(msg) = msg else { return };
                match shvedka_proto::decode::<Part>(&msg.payload) {
                    Ok(part) => listings.hear(part, Instant::now()),
                    Err(e) => tracing::debug!(error = %e, "a lobby part that does not decode; ignored"),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shvedka_proto::PhaseView;

    fn summary(id: u64) -> MatchSummary {
        MatchSummary {
            match_id: MatchId(id),
            rules: "classic".into(),
            time_control: "3+0".into(),
            chess960: false,
            seats: Default::default(),
            kinds: Default::default(),
            phase: PhaseView::Forming,
            rated: false,
        }
    }

    fn ids(mut v: Vec<MatchSummary>) -> Vec<u64> {
        v.sort_by_key(|s| s.match_id);
        v.into_iter().map(|s| s.match_id.0).collect()
    }

    #[tokio::test(start_paused = true)]
    async fn a_listing_counts_once_whole_and_until_its_node_falls_silent() {
        let listings = Listings::new("a".into(), Duration::from_secs(2), 8);
        let t0 = Instant::now();
        let all: Vec<(MatchSummary, bool)> = (1..=600).map(|i| (summary(i), i != 7)).collect();
        let mut b = parts("b", 1, all);
        assert_eq!(b.len(), 3, "600 matches in parts of {PART}");
        let last = b.pop().unwrap();
        for p in b {
            listings.hear(p, t0);
        }
        assert!(listings.matches(true, t0).is_empty(), "a listing counts once whole");
        listings.hear(last, t0);
        assert_eq!(listings.matches(true, t0).len(), 600);
        assert_eq!(listings.matches(false, t0).len(), 599, "an unlisted match is for arbiters");
        for p in parts("b", 2, vec![(summary(9), true)]) {
            listings.hear(p, t0 + Duration::from_secs(1));
        }
        assert_eq!(
            ids(listings.matches(false, t0 + Duration::from_secs(1))),
            [9],
            "the newest listing replaces"
        );
        for p in parts("a", 5, vec![(summary(3), true)]) {
            listings.hear(p, t0);
        }
        assert_eq!(
            ids(listings.matches(false, t0 + Duration::from_secs(1))),
            [9],
            "its own listing is not heard"
        );
        assert!(listings.matches(false, t0 + Duration::from_secs(3)).is_empty(), "b fell silent");
    }
}
