//! The wire views of a match's last events, for followers that resume. A follower that missed
//! more than [`MAX_CATCH_UP`] events is sent the whole state instead, so older views are never
//! sent again and are not kept: a long match costs its task the machine's log, not a second
//! copy of it in wire form (the store has every view).

use std::collections::VecDeque;

use shvedka_proto::MatchEvent;

/// The most events a resuming follower is sent one by one; beyond it, the whole state. Every
/// live match keeps this many views (a view with its position is about 300 bytes): 256 of them
/// were 77 KiB a match, the largest part of a match's own memory (heap profile, issue 34). 64 is
/// half a minute of a match at its fastest; a follower away longer gets the state, one message.
pub(super) const MAX_CATCH_UP: usize = 64;

/// The last [`MAX_CATCH_UP`] views, in log order.
#[derive(Debug, Default)]
pub(super) struct Recent {
    views: VecDeque<MatchEvent>,
}

impl Recent {
    /// The window over a whole log's views (those of a restored match).
    pub(super) fn new(views: Vec<MatchEvent>) -> Recent {
        let mut views = VecDeque::from(views);
        views.drain(..views.len().saturating_sub(MAX_CATCH_UP));
        Recent { views }
    }

    /// Adds the next event's view, forgetting the oldest beyond the window.
    pub(super) fn push(&mut self, view: MatchEvent) {
        if self.views.len() == MAX_CATCH_UP {
            self.views.pop_front();
        }
        self.views.push_back(view);
    }

    /// The last event's number.
    pub(super) fn last_seq(&self) -> Option<u64> {
        self.views.back().map(|v| v.seq)
    }

    /// Every view after event `seen`, when the window holds them all (`None`: send the state).
    pub(super) fn after(&self, seen: u64) -> Option<impl Iterator<Item = &MatchEvent>> {
        let from = seen.checked_add(1)?;
        let first = self.views.front()?.seq;
        let next = self.last_seq()? + 1;
        if from < first || from > next {
            return None;
        }
        Some(self.views.range(usize::try_from(from - first).ok()?..))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shvedka_proto::{EventView, MatchId};

    fn view(seq: u64) -> MatchEvent {
        MatchEvent {
            match_id: MatchId(1),
            seq,
            at_ms: seq,
            kind: EventView::Started,
            clocks_ms: [0; 4],
            running: [false; 4],
            bfen: None,
            server_time_us: 0,
        }
    }

    fn seqs<'a>(views: impl Iterator<Item = &'a MatchEvent>) -> Vec<u64> {
        views.map(|v| v.seq).collect()
    }

    #[test]
    fn a_follower_within_the_window_gets_what_it_missed_and_one_beyond_it_gets_the_state() {
        let n = MAX_CATCH_UP as u64 + 100;
        let mut recent = Recent::default();
        assert!(recent.after(0).is_none(), "nothing logged: the state");
        for seq in 0..n {
            recent.push(view(seq));
        }
        assert_eq!(recent.views.len(), MAX_CATCH_UP, "no more than the window is kept");
        assert_eq!(recent.last_seq(), Some(n - 1));
        assert_eq!(seqs(recent.after(n - 3).unwrap()), vec![n - 2, n - 1]);
        assert_eq!(seqs(recent.after(n - 1).unwrap()), Vec::<u64>::new(), "up to date: nothing");
        let oldest = n - MAX_CATCH_UP as u64;
        assert_eq!(recent.after(oldest - 1).unwrap().count(), MAX_CATCH_UP, "exactly the window");
        assert!(recent.after(oldest - 2).is_none(), "one event too far back: the state");
        assert!(recent.after(n).is_none(), "an event not logged yet: the state");
        assert!(recent.after(u64::MAX).is_none());
    }

    #[test]
    fn a_restored_log_keeps_its_last_views() {
        let recent = Recent::new((0..1000).map(view).collect());
        assert_eq!(recent.views.len(), MAX_CATCH_UP);
        assert_eq!(seqs(recent.after(997).unwrap()), vec![998, 999]);
        let short = Recent::new((0..3).map(view).collect());
        assert_eq!(seqs(short.after(0).unwrap()), vec![1, 2]);
    }
}
