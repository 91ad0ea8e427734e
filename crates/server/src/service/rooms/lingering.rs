//! The connections that watched a match when it was decided, kept a while after its task ended:
//! an arbiter who corrects the result later (A2) brings the match back from its log, and the
//! players still on its end screen are told the corrected result at once, as they were told the
//! first. Bounded: the latest [`MOST_MATCHES`] decided matches, at most [`MOST_PER_MATCH`]
//! connections each; a connection closed since simply takes nothing more.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use shvedka_proto::MatchId;

use crate::service::outbound::Outbound;
use crate::service::session::Session;

/// Decided matches whose watchers are kept.
pub(crate) const MOST_MATCHES: usize = 256;

/// Watchers kept for one match (its four players, arbiters and a few spectators).
pub(crate) const MOST_PER_MATCH: usize = 64;

/// One watcher: the session and its connection.
pub(crate) type Watcher = (Arc<Session>, Outbound);

/// The watchers of recently decided matches.
#[derive(Debug, Default)]
pub(crate) struct Lingering {
    kept: Mutex<VecDeque<(MatchId, Vec<Watcher>)>>,
}

impl Lingering {
    /// Keeps the watchers of decided match `id`, forgetting the oldest match's past the limit.
    pub(crate) fn keep(&self, id: MatchId, mut watchers: Vec<Watcher>) {
        watchers.truncate(MOST_PER_MATCH);
        let Ok(mut kept) = self.kept.lock() else { return };
        kept.retain(|(m, _)| *m != id);
        if watchers.is_empty() {
            return;
        }
        if kept.len() >= MOST_MATCHES {
            kept.pop_front();
        }
        kept.push_back((id, watchers));
    }

    /// The watchers kept for `id` (and forgets them): those that follow no other match since.
    pub(crate) fn take(&self, id: MatchId) -> Vec<Watcher> {
        let Ok(mut kept) = self.kept.lock() else { return Vec::new() };
        let Some(i) = kept.iter().position(|(m, _)| *m == id) else { return Vec::new() };
        let (_, watchers) = kept.remove(i).unwrap_or((id, Vec::new()));
        watchers.into_iter().filter(|(s, _)| s.room().is_none()).collect()
    }
}
