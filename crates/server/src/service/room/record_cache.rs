//! The match's record, built once per state of its log. Building it replays the whole log
//! through a second machine (`service::record`), and a room needs it often at one state: every
//! `MatchState` (its move list), the result's deciding rules, the BPGN file and export at the end,
//! and four players resuming together after a restart. The cache holds the last record built
//! and the log length it was built at; any new event makes the next ask build it again.

use std::sync::{Arc, Mutex};

use shvedka_records::Record;

/// The last record built, by the number of events it covers.
#[derive(Default)]
pub(super) struct RecordCache {
    // A mutex, not a cell: the room is borrowed across awaits by its task, so it must be Sync.
    last: Mutex<Option<(usize, Arc<Record>)>>,
}

impl RecordCache {
    /// The record of a log of `events` events: the cached one if it covers exactly those,
    /// else `build()`, kept for the next ask.
    pub(super) fn get(&self, events: usize, build: impl FnOnce() -> Record) -> Arc<Record> {
        let mut last = self.last.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((n, record)) = last.as_ref()
            && *n == events
        {
            return Arc::clone(record);
        }
        let record = Arc::new(build());
        *last = Some((events, Arc::clone(&record)));
        record
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A4: the record is built once per state of the log, and again after a new event.
    #[test]
    fn a4_the_record_is_built_once_per_state_of_the_log() {
        let cache = RecordCache::default();
        let mut builds = 0;
        let first = cache.get(3, || {
            builds += 1;
            Record::new()
        });
        let again = cache.get(3, || {
            builds += 1;
            Record::new()
        });
        assert!(Arc::ptr_eq(&first, &again));
        assert_eq!(builds, 1);
        let later = cache.get(4, || {
            builds += 1;
            Record::new()
        });
        assert!(!Arc::ptr_eq(&first, &later));
        assert_eq!(builds, 2);
    }
}
