//! Group commit: one writer task takes the pending appends of every match and stores them in one
//! transaction — one disk flush for all of them — then answers each. While a transaction is being
//! flushed, the next appends gather; so under load a flush carries many matches' events, and when
//! the server is quiet it carries one, at once. Durability is unchanged: each match task still
//! waits for the commit of its own events before it tells anyone.
//!
//! A batch that fails is retried match by match, so each match gets its own answer: an outage
//! reaches every match (each pauses), a conflicting log only its own match.

use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use shvedka_storage::{EventRow, Store, StoreError};
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

use crate::metrics::Metrics;

/// Appends waiting for the writer before match tasks wait to hand theirs over.
const QUEUE: usize = 4096;

/// The most matches one transaction carries.
pub(crate) const MAX_BATCH: usize = 512;

struct Job {
    match_id: u64,
    rows: Vec<EventRow>,
    done: oneshot::Sender<Result<(), StoreError>>,
}

/// The handle of the writer task: cloned by every match task.
#[derive(Clone)]
pub(crate) struct Committer {
    tx: mpsc::Sender<Job>,
}

impl Committer {
    /// Starts the writer over `store`; it ends when the last handle is dropped.
    pub(crate) fn spawn(store: Arc<dyn Store>, metrics: Arc<Metrics>) -> Committer {
        let (tx, rx) = mpsc::channel(QUEUE);
        tokio::spawn(write(store, rx, metrics));
        Committer { tx }
    }

    /// Appends a match's events; returns once they are durable (or why not).
    pub(crate) async fn append(&self, match_id: u64, rows: Vec<EventRow>) -> Result<(), StoreError> {
        let (done, answer) = oneshot::channel();
        let gone = || StoreError::Range("the storage writer has stopped".into());
        self.tx.send(Job { match_id, rows, done }).await.map_err(|_| gone())?;
        answer.await.map_err(|_| gone())?
    }
}

async fn write(store: Arc<dyn Store>, mut rx: mpsc::Receiver<Job>, metrics: Arc<Metrics>) {
    let mut jobs = Vec::with_capacity(MAX_BATCH);
    while rx.recv_many(&mut jobs, MAX_BATCH).await > 0 {
        let started = Instant::now();
        // A store that panics fails this batch, not the writer. Caught in place rather than in a
        // task of its own: a spawn per commit was a task hop (and a wake-up) per flush.
        let refs: Vec<(u64, &[EventRow])> = jobs.iter().map(|j| (j.match_id, &j.rows[..])).collect();
        let caught = CatchUnwind(store.append_batch(&refs)).await;
        drop(refs);
        let Ok(result) = caught else {
            tracing::error!("a group commit panicked; its appends are answered with an error");
            metrics.storage_error();
            for job in jobs.drain(..) {
                let _ = job.done.send(Err(StoreError::Range("the commit failed unexpectedly".into())));
            }
            continue;
        };
        match result {
            Ok(()) => {
                metrics.committed(jobs.len(), started.elapsed().as_secs_f64());
                for job in jobs.drain(..) {
                    let _ = job.done.send(Ok(()));
                }
            }
            Err(e) if jobs.len() == 1 => {
                metrics.storage_error();
                let job = jobs.pop().expect("one job");
                let _ = job.done.send(Err(e));
            }
            Err(e) => {
                metrics.storage_error();
                tracing::warn!(error = %e, matches = jobs.len(), "a group commit failed; committing match by match");
                for job in jobs.drain(..) {
                    let one = Instant::now();
                    let result = store.append(job.match_id, &job.rows).await;
                    match &result {
                        Ok(()) => metrics.committed(1, one.elapsed().as_secs_f64()),
                        Err(_) => metrics.storage_error(),
                    }
                    let _ = job.done.send(result);
                }
            }
        }
    }
}

/// A future whose panic is returned as an error instead of unwinding through the writer.
struct CatchUnwind<F>(F);

impl<F: Future + Unpin> Future for CatchUnwind<F> {
    type Output = std::thread::Result<F::Output>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let inner = Pin::new(&mut self.get_mut().0);
        match std::panic::catch_unwind(AssertUnwindSafe(|| inner.poll(cx))) {
            Ok(Poll::Pending) => Poll::Pending,
            Ok(Poll::Ready(output)) => Poll::Ready(Ok(output)),
            Err(panic) => Poll::Ready(Err(panic)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_store::MemStore;

    fn row(seq: u64, event: &str) -> EventRow {
        EventRow { seq, at_us: seq, event: event.into(), view: "{}".into() }
    }

    #[tokio::test]
    async fn appends_waiting_together_share_one_commit_and_each_gets_its_answer() {
        let store = Arc::new(MemStore::default());
        let metrics = Arc::new(Metrics::new());
        let committer = Committer::spawn(store.clone(), metrics.clone());
        // Many matches append at once: they gather while the writer is busy.
        let tasks: Vec<_> = (1..=50u64)
            .map(|m| {
                let c = committer.clone();
                tokio::spawn(async move { c.append(m, vec![row(0, "a"), row(1, "b")]).await })
            })
            .collect();
        for t in tasks {
            t.await.unwrap().unwrap();
        }
        for m in 1..=50 {
            assert_eq!(store.log(m).len(), 2, "match {m} stored whole");
        }
        let text = metrics.encode(0, 0);
        let value = |name: &str| -> f64 {
            let line = text.lines().find(|l| l.starts_with(&format!("{name} "))).expect(name);
            line.rsplit(' ').next().unwrap().parse().unwrap()
        };
        let commits = value("shvedka_commit_batch_matches_count");
        assert_eq!(value("shvedka_commit_batch_matches_sum"), 50.0, "every append in some commit");
        assert!(commits < 50.0, "{commits} commits for 50 appends: they were grouped");
    }

    #[tokio::test]
    async fn a_conflict_fails_only_its_own_match() {
        let store = Arc::new(MemStore::default());
        let committer = Committer::spawn(store.clone(), Arc::new(Metrics::new()));
        committer.append(1, vec![row(0, "a")]).await.unwrap();
        let (c1, c2) = (committer.clone(), committer.clone());
        let forked = tokio::spawn(async move { c1.append(1, vec![row(0, "other")]).await });
        let fine = tokio::spawn(async move { c2.append(2, vec![row(0, "x")]).await });
        assert!(matches!(forked.await.unwrap(), Err(StoreError::Conflict { match_id: 1, seq: 0 })));
        fine.await.unwrap().unwrap();
        assert_eq!(store.log(2).len(), 1);
    }
}
