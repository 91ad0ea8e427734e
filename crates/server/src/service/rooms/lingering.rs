//! The connections that watched a match when it was decided, kept a while after its task ended:
//! an arbiter who corrects the result later (A2) brings the match back from its log, and the
//! players still on its end screen are told the corrected result at once, as they were told the
//! first. Bounded (config/default.toml): the latest `decided_matches_watched` decided matches, at
//! most `decided_watchers_kept` connections each; a connection closed since simply takes nothing
//! more, and one that follows another match since is not told. A client that comes back to a
//! decided match's end screen — its connection lost, or the server restarted — names the match
//! when it resumes and is kept again on its new connection ([`Lingering::add`]).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use shvedka_proto::MatchId;

use crate::service::outbound::Outbound;
use crate::service::session::Session;

/// One watcher: the session and its connection.
pub(crate) type Watcher = (Arc<Session>, Outbound);

/// The watchers of recently decided matches.
#[derive(Debug, Default)]
pub(crate) struct Lingering {
    kept: Mutex<VecDeque<(MatchId, Vec<Watcher>)>>,
    most_matches: usize,
    most_per_match: usize,
}

impl Lingering {
    /// Keeps the watchers of the latest `most_matches` decided matches, `most_per_match` each.
    pub(crate) fn new(most_matches: usize, most_per_match: usize) -> Lingering {
        Lingering { kept: Mutex::default(), most_matches, most_per_match }
    }

    /// Keeps the watchers of decided match `id`, forgetting the oldest match's past the limit.
    pub(crate) fn keep(&self, id: MatchId, mut watchers: Vec<Watcher>) {
        watchers.truncate(self.most_per_match);
        let Ok(mut kept) = self.kept.lock() else { return };
        kept.retain(|(m, _)| *m != id);
        if watchers.is_empty() || self.most_matches == 0 {
            return;
        }
        while kept.len() >= self.most_matches {
            kept.pop_front();
        }
        kept.push_back((id, watchers));
    }

    /// Keeps one more watcher of decided match `id` (a resumed connection on its end screen): it
    /// replaces the session's earlier connection; the match becomes the latest kept.
    pub(crate) fn add(&self, id: MatchId, watcher: Watcher) {
        let Ok(mut kept) = self.kept.lock() else { return };
        let mut watchers = kept
            .iter()
            .position(|(m, _)| *m == id)
            .and_then(|i| kept.remove(i))
            .map_or_else(Vec::new, |(_, w)| w);
        watchers.retain(|(s, _)| !Arc::ptr_eq(s, &watcher.0));
        watchers.push(watcher);
        drop(kept);
        self.keep(id, watchers);
    }

    /// The watchers kept for `id` (and forgets them): those that follow no other match since.
    pub(crate) fn take(&self, id: MatchId) -> Vec<Watcher> {
        let Ok(mut kept) = self.kept.lock() else { return Vec::new() };
        let Some(i) = kept.iter().position(|(m, _)| *m == id) else { return Vec::new() };
        let (_, watchers) = kept.remove(i).unwrap_or((id, Vec::new()));
        watchers.into_iter().filter(|(s, _)| s.room().is_none()).collect()
    }
}
