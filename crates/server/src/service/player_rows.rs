//! Sessions' rows written together. Every new session is a row (recorded before it is
//! answered, so its token survives a restart) and every connection that ends notes when its
//! session was last seen. Written one by one, a crowd of guests arriving to watch a final, or
//! leaving it, was a disk flush each through the pool's connection, each holding SQLite's one
//! write lock while the match tasks' group commit waited behind it (the attack suite's crowd:
//! the honest players' p99 went past 50 ms on these writes alone, docs/benchmarks.md).
//!
//! Here one writer task takes every row that waits and writes them in one transaction
//! ([`Store::write_players`]), one flush for all; while it flushes, the next gather. Each caller
//! still waits for its own row to be durable before its session is answered: nothing is
//! deferred, only shared. A batch that fails is written again row by row, so each caller gets
//! its own answer (a store that is down answers every one with its error; a row that clashes
//! fails only its own session).

use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use futures_util::FutureExt;
use shvedka_storage::{PlayerRow, Store, StoreError};
use tokio::sync::{mpsc, oneshot};

/// Writes waiting for the writer task before callers wait to hand theirs over (a bound on what
/// the writer holds; callers are connections, themselves bounded by `max_connections`).
const QUEUE: usize = 4096;

/// The most writes one transaction carries.
const MAX_BATCH: usize = 1024;

/// One write of a session's row.
#[derive(Debug)]
enum Write {
    /// A new session's row.
    Add(PlayerRow),
    /// A session seen at `ms` (Unix milliseconds).
    Seen { id: u64, ms: u64 },
}

struct Job {
    write: Write,
    done: oneshot::Sender<Result<(), StoreError>>,
}

/// The handle of the writer task; it ends when the last handle is dropped.
#[derive(Clone)]
pub(crate) struct PlayerRows {
    tx: mpsc::Sender<Job>,
}

impl PlayerRows {
    /// Starts the writer task over `store`.
    pub(crate) fn spawn(store: Arc<dyn Store>) -> PlayerRows {
        let (tx, rx) = mpsc::channel(QUEUE);
        tokio::spawn(write(store, rx));
        PlayerRows { tx }
    }

    /// Records a new session's row; returns once it is durable (or why not).
    pub(crate) async fn add(&self, row: PlayerRow) -> Result<(), StoreError> {
        self.ask(Write::Add(row)).await
    }

    /// Notes that session `id` was seen at `ms`; returns once it is durable (or why not).
    pub(crate) async fn seen(&self, id: u64, ms: u64) -> Result<(), StoreError> {
        self.ask(Write::Seen { id, ms }).await
    }

    async fn ask(&self, write: Write) -> Result<(), StoreError> {
        let gone = || StoreError::Range("the sessions' writer has stopped".into());
        let (done, answer) = oneshot::channel();
        self.tx.send(Job { write, done }).await.map_err(|_| gone())?;
        answer.await.map_err(|_| gone())?
    }
}

/// The writer task: every write waiting, in one transaction, until the handles are gone.
async fn write(store: Arc<dyn Store>, mut rx: mpsc::Receiver<Job>) {
    let mut jobs = Vec::new();
    while rx.recv_many(&mut jobs, MAX_BATCH).await > 0 {
        let batch = std::mem::take(&mut jobs);
        if batch.len() == 1 || together(store.as_ref(), &batch).await.is_err() {
            // Alone, or again one by one after the batch failed: each its own answer.
            for job in batch {
                let result = together(store.as_ref(), std::slice::from_ref(&job)).await;
                let _ = job.done.send(result);
            }
            continue;
        }
        for job in batch {
            let _ = job.done.send(Ok(()));
        }
    }
}

/// Every write of `batch` in one transaction.
async fn together(store: &dyn Store, batch: &[Job]) -> Result<(), StoreError> {
    let mut added = Vec::new();
    let mut seen = Vec::new();
    for job in batch {
        match &job.write {
            Write::Add(row) => added.push(row.clone()),
            Write::Seen { id, ms } => seen.push((*id, *ms)),
        }
    }
    guarded(store.write_players(&added, &seen)).await
}

/// A store's write whose panic (a bug) is an error for its callers, not the writer task's end.
async fn guarded(write: impl Future<Output = Result<(), StoreError>>) -> Result<(), StoreError> {
    match AssertUnwindSafe(write).catch_unwind().await {
        Ok(result) => result,
        Err(_) => {
            tracing::error!("writing sessions' rows panicked; each is answered with an error");
            Err(StoreError::Range("writing the session failed unexpectedly".into()))
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::Ordering;

    use super::*;
    use crate::test_store::MemStore;

    fn row(id: u64) -> PlayerRow {
        PlayerRow {
            id,
            name: format!("guest-{id}"),
            token_hash: format!("{id:064x}"),
            created_ms: 1,
            last_seen_ms: 1,
            account: None,
            revoked: false,
        }
    }

    /// A crowd arriving at once is written in a few transactions, not one each, and every row is
    /// durable when its caller is answered.
    #[tokio::test]
    async fn a_crowd_of_sessions_shares_its_transactions_and_each_is_stored_when_answered() {
        let store = Arc::new(MemStore::default());
        let rows = PlayerRows::spawn(store.clone());
        let arrivals = (1..=200).map(|id| {
            let rows = rows.clone();
            let store = store.clone();
            async move {
                rows.add(row(id)).await.unwrap();
                assert!(store.players.lock().unwrap().contains_key(&id), "stored before answered");
            }
        });
        futures_util::future::join_all(arrivals).await;
        let transactions = store.faults.player_writes.load(Ordering::SeqCst);
        assert!(transactions < 20, "200 arrivals took {transactions} transactions");
        let leaving = (1..=200).map(|id| rows.seen(id, 500 + id));
        for seen in futures_util::future::join_all(leaving).await {
            seen.unwrap();
        }
        assert_eq!(store.players.lock().unwrap()[&77].last_seen_ms, 577);
        assert!(store.faults.player_writes.load(Ordering::SeqCst) < transactions + 20);
    }

    /// A batch that fails is answered write by write: a row that clashes fails its own session
    /// only, and a store that refuses every write answers every caller with its error.
    #[tokio::test]
    async fn a_failed_batch_answers_each_session_on_its_own() {
        let store = Arc::new(MemStore::default());
        store.players.lock().unwrap().insert(5, row(5));
        let rows = PlayerRows::spawn(store.clone());
        let answers = futures_util::future::join_all((1..=10).map(|id| rows.add(row(id)))).await;
        for (id, answer) in (1..=10).zip(answers) {
            assert_eq!(answer.is_ok(), id != 5, "session {id}: {answer:?}");
        }
        store.faults.refuse.store(true, Ordering::SeqCst);
        let answers = futures_util::future::join_all((11..=20).map(|id| rows.add(row(id)))).await;
        assert!(answers.iter().all(Result::is_err), "a refusing store refuses every one");
        assert!(!store.players.lock().unwrap().contains_key(&11));
        store.faults.refuse.store(false, Ordering::SeqCst);
        rows.add(row(11)).await.expect("written once the store takes writes again");
    }

    /// A store that panics while writing (a bug) answers its callers with an error and the writer
    /// goes on.
    #[tokio::test]
    async fn a_panicking_store_is_an_error_and_the_writer_lives_on() {
        let store = Arc::new(MemStore::default());
        let rows = PlayerRows::spawn(store.clone());
        store.faults.panic_players.store(true, Ordering::SeqCst);
        assert!(rows.add(row(1)).await.is_err());
        rows.add(row(2)).await.expect("the next write is served");
    }
}
