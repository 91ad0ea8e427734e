//! Group commit: the pending appends of every match are stored in one transaction — one disk
//! flush for all of them — and each is answered. While a transaction is being flushed, the next
//! appends gather in a queue, which a writer task takes whole once the flush is done; so under
//! load a flush carries many matches' events. When the server is quiet, an append that finds no
//! commit under way and nobody queued is committed at once by the match task itself: going
//! through the writer task would cost two task wake-ups per move (there and back) for nothing
//! to gather. Either way one commit is under way at a time (`writing`), and durability is
//! unchanged: each match task still waits for the commit of its own events before it tells
//! anyone.
//!
//! Under load, commits begin at least [`GATHER`] apart: an append that comes sooner after the
//! last commit began waits in the queue for the rest of that interval, and whatever else comes
//! meanwhile joins it (PostgreSQL's `commit_delay` is the same idea). Most of a commit's cost is
//! fixed (SQLite's log frames, its locks and the disk flush: 13 of the 21 % of the server's CPU
//! a profile at 2,000 matches found in storage), so carrying several matches a flush instead of
//! two is most of that saved, for at most [`GATHER`] more before a busy server replies. A quiet
//! server, whose commits are further apart, commits at once as before.
//!
//! A batch that fails is retried match by match, so each match gets its own answer: an outage
//! reaches every match (each pauses), a conflicting log only its own match.

use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use shvedka_storage::{Appending, EventRow, Store, StoreError};
use tokio::sync::{Mutex, mpsc, oneshot};
use tokio::time::Instant;

use crate::service::metrics::Metrics;

/// Appends waiting for the writer before match tasks wait to hand theirs over.
const QUEUE: usize = 4096;

/// The most matches one transaction carries.
pub(crate) const MAX_BATCH: usize = 512;

/// How far apart commits begin when appends come faster than that (see the module's docs).
pub(crate) const GATHER: Duration = Duration::from_millis(2);

struct Job {
    match_id: u64,
    fence: Option<u64>,
    rows: Vec<EventRow>,
    done: oneshot::Sender<Result<(), StoreError>>,
}

/// What the writer task and the match tasks committing in place share.
struct Writer {
    store: Arc<dyn Store>,
    metrics: Arc<Metrics>,
    /// Held for the whole of a commit: one at a time, in the order asked (tokio's lock is fair,
    /// so a match task finding it held queues its append behind the writer task's).
    writing: Mutex<()>,
    /// When the last commit began: the next waits until [`GATHER`] after it.
    began: std::sync::Mutex<Option<Instant>>,
}

/// The handle of the group commit: cloned by every match task.
#[derive(Clone)]
pub(crate) struct Committer {
    tx: mpsc::Sender<Job>,
    writer: Arc<Writer>,
}

impl Committer {
    /// Starts the writer task over `store`; it ends when the last handle is dropped.
    pub(crate) fn spawn(store: Arc<dyn Store>, metrics: Arc<Metrics>) -> Committer {
        let (committer, task) = Committer::new(store, metrics);
        tokio::spawn(task);
        committer
    }

    /// The handle and the writer task, not yet started.
    fn new(store: Arc<dyn Store>, metrics: Arc<Metrics>) -> (Committer, impl Future<Output = ()>) {
        let (tx, rx) = mpsc::channel(QUEUE);
        let writer =
            Arc::new(Writer { store, metrics, writing: Mutex::new(()), began: std::sync::Mutex::new(None) });
        (Committer { tx, writer: writer.clone() }, write(writer, rx))
    }

    /// Appends a match's events under the lease fence its task took it under (a node of a
    /// cluster; [`Appending::fence`]); returns once they are durable (or why not).
    pub(crate) async fn append(
        &self,
        match_id: u64,
        fence: Option<u64>,
        rows: Vec<EventRow>,
    ) -> Result<(), StoreError> {
        // Nothing under way, nothing queued, and the last commit long enough ago: nothing to
        // gather, commit here.
        if self.tx.capacity() == self.tx.max_capacity()
            && self.writer.due() <= Instant::now()
            && let Ok(writing) = self.writer.writing.try_lock()
        {
            let result = self.writer.commit(&[(match_id, fence, rows)]).await;
            drop(writing);
            return result.unwrap_or_else(|Panicked| Err(panicked()));
        }
        let (done, answer) = oneshot::channel();
        let gone = || StoreError::Range("the storage writer has stopped".into());
        self.tx.send(Job { match_id, fence, rows, done }).await.map_err(|_| gone())?;
        answer.await.map_err(|_| gone())?
    }
}

/// A store that panicked during a commit (a bug): caught, and answered as an error.
struct Panicked;

fn panicked() -> StoreError {
    StoreError::Range("the commit failed unexpectedly".into())
}

impl Writer {
    /// When the next commit may begin: [`GATHER`] after the last began.
    fn due(&self) -> Instant {
        let began = *self.began.lock().expect("began lock");
        began.map_or_else(Instant::now, |at| at + GATHER)
    }

    /// One commit of every match's rows in `jobs`, timed; a panic is caught in place (a task per
    /// commit to catch it would be a task hop, and a wake-up, per flush).
    async fn commit(
        &self,
        jobs: &[(u64, Option<u64>, Vec<EventRow>)],
    ) -> Result<Result<(), StoreError>, Panicked> {
        let started = Instant::now();
        *self.began.lock().expect("began lock") = Some(started);
        let refs: Vec<Appending<'_>> = jobs
            .iter()
            .map(|(id, fence, rows)| Appending { match_id: *id, fence: *fence, events: rows })
            .collect();
        let Ok(result) = CatchUnwind(self.store.append_batch(&refs)).await else {
            tracing::error!("a group commit panicked; its appends are answered with an error");
            self.metrics.storage_error();
            return Err(Panicked);
        };
        match &result {
            Ok(()) => {
                self.metrics.committed(jobs.len(), started.elapsed().as_secs_f64());
                self.metrics.set_storage_full(false);
            }
            Err(e) => {
                self.metrics.storage_error();
                self.metrics.set_storage_full(e.is_full());
            }
        }
        Ok(result)
    }
}

async fn write(writer: Arc<Writer>, mut rx: mpsc::Receiver<Job>) {
    let mut queued = Vec::with_capacity(MAX_BATCH);
    let (mut jobs, mut answers) = (Vec::with_capacity(MAX_BATCH), Vec::with_capacity(MAX_BATCH));
    while rx.recv_many(&mut queued, MAX_BATCH).await > 0 {
        // Gathering: what comes until the commit is due joins it.
        tokio::time::sleep_until(writer.due()).await;
        let writing = writer.writing.lock().await;
        // What came while a match task's own commit finished joins this one.
        while queued.len() < MAX_BATCH
            && let Ok(job) = rx.try_recv()
        {
            queued.push(job);
        }
        for Job { match_id, fence, rows, done } in queued.drain(..) {
            jobs.push((match_id, fence, rows));
            answers.push(done);
        }
        match writer.commit(&jobs).await {
            Err(Panicked) => {
                for done in answers.drain(..) {
                    let _ = done.send(Err(panicked()));
                }
            }
            Ok(Ok(())) => {
                for done in answers.drain(..) {
                    let _ = done.send(Ok(()));
                }
            }
            Ok(Err(e)) if jobs.len() == 1 => {
                let done = answers.pop().expect("one job");
                let _ = done.send(Err(e));
            }
            Ok(Err(e)) => {
                tracing::warn!(error = %e, matches = jobs.len(), "a group commit failed; committing match by match");
                for ((match_id, fence, rows), done) in jobs.iter().zip(answers.drain(..)) {
                    let one = Instant::now();
                    let alone = Appending { match_id: *match_id, fence: *fence, events: rows };
                    let result = writer.store.append_batch(&[alone]).await;
                    match &result {
                        Ok(()) => writer.metrics.committed(1, one.elapsed().as_secs_f64()),
                        Err(_) => writer.metrics.storage_error(),
                    }
                    let _ = done.send(result);
                }
            }
        }
        jobs.clear();
        drop(writing);
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

    /// The value of a metric line (`name value`) in the exposition text.
    fn value(text: &str, name: &str) -> f64 {
        let line = text.lines().find(|l| l.starts_with(&format!("{name} "))).expect(name);
        line.rsplit(' ').next().unwrap().parse().unwrap()
    }

    #[tokio::test(start_paused = true)]
    async fn appends_waiting_together_share_one_commit_and_each_gets_its_answer() {
        let store = Arc::new(MemStore::default());
        let metrics = Arc::new(Metrics::new());
        let committer = Committer::spawn(store.clone(), metrics.clone());
        // A commit is under way (held here): the appends of many matches gather behind it.
        let writing = committer.writer.writing.lock().await;
        let tasks: Vec<_> = (1..=50u64)
            .map(|m| {
                let c = committer.clone();
                tokio::spawn(async move { c.append(m, None, vec![row(0, "a"), row(1, "b")]).await })
            })
            .collect();
        tokio::time::sleep(std::time::Duration::from_millis(1)).await;
        assert!(store.log(1).is_empty(), "nothing is committed while another commit is under way");
        drop(writing);
        for t in tasks {
            t.await.unwrap().unwrap();
        }
        for m in 1..=50 {
            assert_eq!(store.log(m).len(), 2, "match {m} stored whole");
        }
        let text = metrics.encode(0, 0);
        assert_eq!(value(&text, "shvedka_commit_batch_matches_sum"), 50.0, "every append in some commit");
        assert_eq!(
            value(&text, "shvedka_commit_batch_matches_count"),
            1.0,
            "the 50 appends gathered in one commit"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn a_lone_append_to_an_idle_writer_is_committed_by_its_own_task() {
        let store = Arc::new(MemStore::default());
        let metrics = Arc::new(Metrics::new());
        // The writer task is never started: only the appending task itself can commit.
        let (committer, _writer_task) = Committer::new(store.clone(), metrics.clone());
        // Bounded: an append handed to the writer would wait for ever, and fail the test here.
        let alone = |seq, text| {
            tokio::time::timeout(Duration::from_secs(1), committer.append(7, None, vec![row(seq, text)]))
        };
        alone(0, "a").await.expect("committed by its own task").unwrap();
        tokio::time::sleep(GATHER).await;
        alone(1, "b").await.expect("committed by its own task").unwrap();
        assert_eq!(store.log(7).len(), 2);
        let text = metrics.encode(0, 0);
        assert_eq!(value(&text, "shvedka_commit_batch_matches_count"), 2.0, "a commit each, of one match");
    }

    #[tokio::test(start_paused = true)]
    async fn appends_coming_faster_than_commits_are_due_are_gathered_into_one() {
        let store = Arc::new(MemStore::default());
        let metrics = Arc::new(Metrics::new());
        let committer = Committer::spawn(store.clone(), metrics.clone());
        // A busy server: ten matches append at the same moment. A commit takes no time here, so
        // without gathering each would be committed alone by its own task, one after another.
        let started = Instant::now();
        let tasks: Vec<_> = (1..=10u64)
            .map(|m| {
                let c = committer.clone();
                tokio::spawn(
                    async move { c.append(m, None, vec![row(0, "a")]).await.map(|()| Instant::now()) },
                )
            })
            .collect();
        let mut answered = Vec::new();
        for t in tasks {
            answered.push(t.await.unwrap().unwrap());
        }
        for m in 1..=10 {
            assert_eq!(store.log(m).len(), 1, "match {m} stored");
        }
        let text = metrics.encode(0, 0);
        assert_eq!(
            value(&text, "shvedka_commit_batch_matches_count"),
            2.0,
            "the first commit at once, the nine that came within {GATHER:?} of it together in the next"
        );
        let latest = answered.iter().map(|at| *at - started).max().unwrap();
        assert!(
            latest <= GATHER + Duration::from_millis(1),
            "no append waits much past {GATHER:?}: {latest:?}"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn a_conflict_fails_only_its_own_match() {
        let store = Arc::new(MemStore::default());
        let committer = Committer::spawn(store.clone(), Arc::new(Metrics::new()));
        committer.append(1, None, vec![row(0, "a")]).await.unwrap();
        // Both wait behind a commit under way, so they meet in one batch, which then fails.
        let writing = committer.writer.writing.lock().await;
        let (c1, c2) = (committer.clone(), committer.clone());
        let forked = tokio::spawn(async move { c1.append(1, None, vec![row(0, "other")]).await });
        let fine = tokio::spawn(async move { c2.append(2, None, vec![row(0, "x")]).await });
        tokio::time::sleep(std::time::Duration::from_millis(1)).await;
        drop(writing);
        assert!(matches!(forked.await.unwrap(), Err(StoreError::Conflict { match_id: 1, seq: 0 })));
        fine.await.unwrap().unwrap();
        assert_eq!(store.log(2).len(), 1);
    }
}
