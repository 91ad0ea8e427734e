//! Write-ahead delivery and what happens when storage fails. Events are stored before anyone
//! hears of them. A write that fails is retried with back-off for as long as it takes; while it
//! fails, a running match is paused (the pause is logged with the events it waits behind, and
//! the outage is charged to nobody), every request to the match is answered "unavailable", and
//! once storage takes the writes again the clocks restart by themselves. Appends are idempotent
//! in the store, so a commit whose acknowledgement was lost is simply sent again.

use std::time::Duration;

use bughouse_match::{ArbiterAct, Event, EventKind, Phase, Ruling};
use shvedka_proto::{ErrorCode, ErrorMsg, MatchEvent, PauseReason, ServerMsg};
use shvedka_storage::{Ending, EventRow, StoreError};
use tokio::time::Instant;

use super::followers::deliver;
use super::{Closing, Room, RoomMsg};
use crate::service::convert::error;
use crate::service::hooks::Decided;
use crate::service::standing::Standing;
use crate::service::wall::unix_ms;

/// The first wait before a failed write is tried again; it doubles up to [`MAX_BACKOFF`].
const FIRST_BACKOFF: Duration = Duration::from_millis(50);
const MAX_BACKOFF: Duration = Duration::from_secs(2);

impl Room {
    /// Makes the events the machine produced durable, then delivers them in order, and refreshes
    /// the lobby summary. Nothing is delivered before it is stored (write-ahead). `false` when
    /// some were not stored (a shutdown while storage refused, or another writer's log): the
    /// request that caused them must then not be acknowledged.
    pub(super) async fn flush(&mut self) -> bool {
        loop {
            let mut batch = self.poll_batch();
            if batch.is_empty() {
                break;
            }
            if !self.persist(&mut batch).await {
                // Shutting down with storage refusing, or another writer's log: nothing of it
                // was told to anyone.
                return false;
            }
            for (e, view) in batch {
                // A decision is recorded (result row, BPGN file, the tournament's view) before
                // anyone hears of it, so whoever sees `Ended` finds the record already there.
                if let EventKind::Ended(adj) = &e.kind {
                    self.record_result(adj).await;
                    *self.decided.lock().expect("decided lock") = Some(*adj);
                }
                if matches!(e.kind, EventKind::Arbiter(Ruling { act: ArbiterAct::Annul { .. }, .. })) {
                    self.durably(Write::End(Ending::Annulled)).await;
                }
                let ended = matches!(e.kind, EventKind::Ended(_));
                self.recent.push(view.clone());
                let msg = crate::service::encoding::Shared::new(ServerMsg::Event(view));
                for f in self.followers.values_mut() {
                    deliver(f, &msg);
                }
                self.gallery.post(&msg);
                if ended && !self.rating_changes.is_empty() {
                    let changes = self.rating_changes.clone();
                    let msg = crate::service::encoding::Shared::new(ServerMsg::Rated {
                        match_id: self.id,
                        changes,
                    });
                    for f in self.followers.values_mut() {
                        deliver(f, &msg);
                    }
                    self.gallery.post(&msg);
                }
            }
            // Storage takes writes again: the clocks restart (that event is flushed next round).
            if self.storage_paused {
                self.storage_paused = false;
                if self.server_act(ArbiterAct::Resume, PauseReason::Storage) {
                    tracing::info!(match_id = %self.id, "storage takes writes again: the clocks restart");
                }
            }
        }
        let mut summary = self.summary.lock().expect("summary lock");
        // Compared first: names change a few times a match, flushes come with every move.
        if summary.seats != self.names {
            summary.seats = self.names.clone();
        }
        summary.kinds = self.kinds;
        summary.phase = crate::service::convert::phase(self.m.phase());
        true
    }

    /// `result`, unless the events it caused were not stored: then "unavailable", since what is
    /// not stored must not be acknowledged.
    pub(super) fn unless_unstored<T>(stored: bool, result: Result<T, ErrorMsg>) -> Result<T, ErrorMsg> {
        if stored {
            result
        } else {
            Err(error(
                ErrorCode::Unavailable,
                "this request could not be stored; the match is not run here now",
            ))
        }
    }

    /// Stores a batch in one transaction, retrying until the database takes it. On the first
    /// failure a running match is paused, and the pause joins the batch. `false` when a
    /// shutdown came first, or the stored log is another's (the batch is then not stored, and
    /// not delivered).
    async fn persist(&mut self, batch: &mut Vec<(Event, MatchEvent)>) -> bool {
        let mut wait = FIRST_BACKOFF;
        let mut failures = 0u32;
        loop {
            if self.standing.lost() {
                // Another node may run the match by now: nothing more is stored or told here.
                self.let_go();
                return false;
            }
            let appended =
                unless_lost(&mut self.standing, self.committer.append(self.id.0, self.fence, rows(batch)))
                    .await;
            let Some(appended) = appended else {
                // Whether it was stored is the fence's say; nobody is told here.
                self.let_go();
                return false;
            };
            let error = match appended {
                Ok(()) => {
                    if failures > 0 {
                        tracing::info!(match_id = %self.id, failures, "events stored after retries");
                    }
                    self.storage_full = false;
                    return true;
                }
                Err(e) => e,
            };
            failures += 1;
            self.storage_full = error.is_full();
            if self.storage_full {
                tracing::error!(
                    match_id = %self.id, error = %error, failures,
                    "the database cannot grow (its disk is full): the match is paused and its moves refused; \
                     it resumes by itself once space is freed"
                );
            } else {
                tracing::error!(match_id = %self.id, error = %error, failures, "cannot store events; retrying");
            }
            if matches!(error, StoreError::Fenced { .. }) {
                // Cluster mode: its lease was taken over (by another node, or by this one for
                // another task) since this task took it. Retrying cannot help, and nothing unstored
                // may be told: the task ends, and its followers are sent to whoever runs the match
                // now.
                self.let_go();
                return false;
            }
            if matches!(error, StoreError::Conflict { .. }) {
                // Another writer's log: retrying cannot help, and nothing may be told. The task
                // ends; the match stays as stored.
                tracing::error!(match_id = %self.id, "the stored log is another writer's; the task ends");
                self.closing = Some(Closing::Failed);
                return false;
            }
            if !self.storage_paused
                && matches!(self.m.phase(), Phase::Running)
                && self.server_act(ArbiterAct::Pause, PauseReason::Storage)
            {
                self.storage_paused = true;
                batch.extend(self.poll_batch());
            }
            if !self.wait_refusing(wait).await {
                return false;
            }
            wait = (wait * 2).min(MAX_BACKOFF);
        }
    }

    /// Stores how the match ended until the store takes it, with back-off, answering requests
    /// meanwhile. `false` when a shutdown came first.
    pub(super) async fn durably(&mut self, write: Write<'_>) -> bool {
        let mut wait = FIRST_BACKOFF;
        loop {
            let (id, now) = (self.id.0, unix_ms());
            let stored = match write {
                Write::Result(result) => {
                    unless_lost(&mut self.standing, self.store.finish(id, result, now)).await
                }
                Write::End(ending) => {
                    unless_lost(&mut self.standing, self.store.end_match(id, ending, now)).await
                }
            };
            match stored {
                None => {
                    self.let_go();
                    return false;
                }
                Some(Ok(())) => {
                    if self.storage_full {
                        self.metrics.set_storage_full(false);
                    }
                    self.storage_full = false;
                    return true;
                }
                Some(Err(e)) => {
                    self.storage_full = e.is_full();
                    // Results and endings are written beside the group commit: said the same.
                    self.metrics.set_storage_full(self.storage_full);
                    tracing::error!(match_id = %self.id, error = %e, full = self.storage_full, ?write, "cannot store how the match ended; retrying")
                }
            }
            if !self.wait_refusing(wait).await {
                return false;
            }
            wait = (wait * 2).min(MAX_BACKOFF);
        }
    }

    /// Waits `wait` while storage is failing, answering every request to the match with
    /// "unavailable" (a move cannot be accepted that cannot be stored). `false` when a
    /// shutdown is asked for (it is answered once the task ends), or when this node must let its
    /// matches go.
    async fn wait_refusing(&mut self, wait: Duration) -> bool {
        let until = Instant::now() + wait;
        loop {
            let msg = tokio::select! {
                () = tokio::time::sleep_until(until) => return true,
                () = self.standing.until_lost() => {
                    self.let_go();
                    return false;
                }
                msg = self.rx.recv() => msg,
            };
            let Some(msg) = msg else { return true };
            let why = if self.storage_full {
                (ErrorCode::StorageFull, STORAGE_FULL)
            } else {
                (ErrorCode::Unavailable, STORAGE_DOWN)
            };
            if let Some(reply) = refuse(msg, why) {
                self.shutdown = Some(reply);
                return false;
            }
        }
    }

    /// The decision: the ratings' changes of a rated match (first, so that a decided row always
    /// has them: a restart that finds the decision only in the log rates it then), its row,
    /// both retried until stored, and the BPGN file beside the database.
    async fn record_result(&mut self, adj: &bughouse::Adjudication) {
        if self.rated && !self.rate(adj).await {
            return;
        }
        let result = serde_json::to_string(adj).expect("results serialize");
        self.durably(Write::Result(&result)).await;
        // The BPGN file is a convenience beside the database, which stays the record of truth.
        if let Some(dir) = &self.records_dir {
            crate::service::record::write_file(dir, self.id.0, &self.bpgn());
        }
    }
}

impl Room {
    /// A decided rated match brought back (an arbiter's correction) shows the changes it made.
    pub(super) async fn load_rating_changes(&mut self) {
        if !self.rated || !matches!(self.m.phase(), Phase::Ended(_)) {
            return;
        }
        let time_control = self.m.config().time_control;
        match self.hooks.rating_changes(self.id.0, &time_control, &self.names).await {
            Ok(changes) => self.rating_changes = changes,
            Err(e) => {
                tracing::warn!(match_id = %self.id, error = %e, "cannot read the match's rating changes")
            }
        }
    }

    /// Rates the decided match, retrying with back-off while storage fails (answering requests
    /// meanwhile). `false` when a shutdown came first.
    async fn rate(&mut self, adj: &bughouse::Adjudication) -> bool {
        let mut wait = FIRST_BACKOFF;
        loop {
            let decided = Decided {
                match_id: self.id.0,
                time_control: self.m.config().time_control,
                names: &self.names,
                winner: crate::service::convert::result(adj).winner,
            };
            match self.hooks.rate(decided).await {
                Ok(changes) => {
                    self.rating_changes = changes;
                    return true;
                }
                Err(e) => {
                    tracing::error!(match_id = %self.id, error = %e, "cannot rate the match; retrying");
                }
            }
            if !self.wait_refusing(wait).await {
                return false;
            }
            wait = (wait * 2).min(MAX_BACKOFF);
        }
    }
}

/// How a match ended, to be stored.
#[derive(Clone, Copy, Debug)]
pub(super) enum Write<'a> {
    /// Decided: the result (JSON).
    Result(&'a str),
    /// Annulled or expired.
    End(Ending),
}

/// Why a request is refused while storage refuses writes.
const STORAGE_DOWN: &str = "the server's storage refuses writes; the match is paused until it recovers";

/// Why a request is refused while the database cannot grow.
const STORAGE_FULL: &str = "the server's disk is full: nothing more can be stored; the match is paused until its operator frees space";

/// Why a request is refused by a match this node let go.
pub(super) const LET_GO: &str =
    "this node lost touch with the cluster's database and let the match go; it resumes on another node";

/// Answers a request the task cannot serve now with `why` (`Unavailable`, `StorageFull`; the
/// legal moves: none). A shutdown is given back, to be answered when the task ends.
pub(super) fn refuse(
    msg: RoomMsg,
    (code, why): (ErrorCode, &'static str),
) -> Option<tokio::sync::oneshot::Sender<()>> {
    let unavailable = || error(code, why);
    match msg {
        RoomMsg::Shutdown { reply } => return Some(reply),
        RoomMsg::Follow { reply, .. } | RoomMsg::Unfollow { reply, .. } => {
            let _ = reply.send(Err(unavailable()));
        }
        RoomMsg::Command { reply, .. } | RoomMsg::Arbiter { reply, .. } | RoomMsg::BotSeat { reply, .. } => {
            let _ = reply.send(Err(unavailable()));
        }
        RoomMsg::Legal { reply, .. } => {
            let _ = reply.send(Vec::new());
        }
        // Not answered: the asker finds the match gone from here.
        RoomMsg::Seated { .. } => {}
    }
    None
}

/// `work`, unless this node must let its matches go first (`None`: it was dropped unfinished).
async fn unless_lost<T>(standing: &mut Standing, work: impl Future<Output = T>) -> Option<T> {
    tokio::select! {
        biased;
        done = work => Some(done),
        () = standing.until_lost() => None,
    }
}

fn rows(batch: &[(Event, MatchEvent)]) -> Vec<EventRow> {
    batch
        .iter()
        .map(|(e, view)| EventRow {
            seq: e.seq,
            at_us: e.at.as_micros() as u64,
            event: serde_json::to_string(e).expect("events serialize"),
            view: serde_json::to_string(view).expect("views serialize"),
        })
        .collect()
}
