//! The reads that cost: review pages, records and their parts, profiles, recent matches and
//! leaderboards. Each reads the database (on the store's own read connections, never those of
//! the appends and leases) and some replay a whole match, so a crowd asking for them could take
//! the server's threads from the matches: they take turns, at most `max_reads_at_once` at a time
//! ([`Reads::turn`], first come first served), and never run inside a match's task. A connection
//! asks one thing at a time, so those waiting are bounded by the connections.
//!
//! A decided match's record is rendered once and kept ([`Reads::record`]), at most
//! `record_cache_bytes` of them (the least recently used go first), each checked against the
//! match's row at every use (an arbiter's correction changes its result, and the record with it).

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use shvedka_proto::MatchId;
use tokio::sync::{Semaphore, SemaphorePermit};

/// What a decided match's row says that its record depends on: a correction changes it.
pub(crate) type Stamp = (Option<u64>, Option<String>, Option<&'static str>);

/// The expensive reads' turns and the records kept.
pub(crate) struct Reads {
    turns: Semaphore,
    records: Mutex<Records>,
}

/// Decided matches' records, by match, with their stamps; the least recently used first.
struct Records {
    max_bytes: usize,
    bytes: usize,
    kept: HashMap<MatchId, (Stamp, Arc<str>)>,
    order: VecDeque<MatchId>,
}

impl Reads {
    /// At most `at_once` reads at a time; records kept up to `record_bytes`.
    pub(crate) fn new(at_once: usize, record_bytes: usize) -> Reads {
        let records =
            Records { max_bytes: record_bytes, bytes: 0, kept: HashMap::new(), order: VecDeque::new() };
        Reads { turns: Semaphore::new(at_once.max(1)), records: Mutex::new(records) }
    }

    /// Waits for a turn: the read runs while the permit lives.
    pub(crate) async fn turn(&self) -> SemaphorePermit<'_> {
        self.turns.acquire().await.expect("the semaphore is never closed")
    }

    /// The kept record of `id`, if it was rendered for the same `stamp`.
    pub(crate) fn record(&self, id: MatchId, stamp: &Stamp) -> Option<Arc<str>> {
        let mut records = self.records.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let text = records.kept.get(&id).filter(|(s, _)| s == stamp).map(|(_, t)| t.clone())?;
        records.order.retain(|i| *i != id);
        records.order.push_back(id);
        Some(text)
    }

    /// Keeps `text`, the record of decided match `id` at `stamp`, forgetting the least recently
    /// used beyond the bytes allowed (a record larger than all of them is not kept).
    pub(crate) fn keep(&self, id: MatchId, stamp: Stamp, text: Arc<str>) {
        let mut records = self.records.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if text.len() > records.max_bytes {
            return;
        }
        if let Some((_, old)) = records.kept.remove(&id) {
            records.bytes -= old.len();
            records.order.retain(|i| *i != id);
        }
        records.bytes += text.len();
        records.kept.insert(id, (stamp, text));
        records.order.push_back(id);
        while records.bytes > records.max_bytes {
            let Some(oldest) = records.order.pop_front() else { break };
            if let Some((_, old)) = records.kept.remove(&oldest) {
                records.bytes -= old.len();
            }
        }
    }

    /// Records kept now, and their bytes.
    #[cfg(test)]
    fn kept(&self) -> (usize, usize) {
        let records = self.records.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        (records.kept.len(), records.bytes)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn stamp(finished: u64) -> Stamp {
        (Some(finished), Some("{\"Won\":1}".into()), None)
    }

    #[test]
    fn a_record_is_kept_for_its_stamp_and_the_least_recently_used_go_first_beyond_the_bytes() {
        let reads = Reads::new(2, 10);
        reads.keep(MatchId(1), stamp(1), "aaaa".into());
        reads.keep(MatchId(2), stamp(2), "bbbb".into());
        assert_eq!(reads.record(MatchId(1), &stamp(1)).as_deref(), Some("aaaa"), "1 is used: 2 is older now");
        assert_eq!(reads.record(MatchId(1), &stamp(9)), None, "a corrected match is rendered again");
        reads.keep(MatchId(3), stamp(3), "cccc".into());
        assert_eq!(reads.kept(), (2, 8), "at most 10 bytes");
        assert_eq!(reads.record(MatchId(2), &stamp(2)), None, "the least recently used went");
        assert!(reads.record(MatchId(3), &stamp(3)).is_some());
        reads.keep(MatchId(4), stamp(4), "x".repeat(11).into());
        assert_eq!(reads.record(MatchId(4), &stamp(4)), None, "larger than the whole cache: not kept");
        reads.keep(MatchId(3), stamp(5), "dd".into());
        assert_eq!(reads.kept(), (2, 6), "a record kept again replaces its old text");
    }

    #[tokio::test(start_paused = true)]
    async fn reads_take_turns_first_come_first_served() {
        let reads = Arc::new(Reads::new(1, 0));
        let first = reads.turn().await;
        let order = Arc::new(Mutex::new(Vec::new()));
        let mut waiting = Vec::new();
        for n in 0..3 {
            let (reads, order) = (reads.clone(), order.clone());
            waiting.push(tokio::spawn(async move {
                let _turn = reads.turn().await;
                order.lock().unwrap().push(n);
                tokio::time::sleep(Duration::from_millis(10)).await;
            }));
            tokio::task::yield_now().await;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(order.lock().unwrap().is_empty(), "nobody reads while the one turn is taken");
        drop(first);
        for w in waiting {
            w.await.unwrap();
        }
        assert_eq!(*order.lock().unwrap(), vec![0, 1, 2]);
    }
}
