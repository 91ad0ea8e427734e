//! What the registry brings back from the store: an undecided match rebuilt from its log (at
//! start, and at a cluster node's take-over), a finished match revived for an arbiter's act, and
//! the results and records of matches that are not live.

use super::TourSeats;
use bughouse_match::Phase;
use shvedka_proto::{ErrorCode, ErrorMsg, MatchId};
use shvedka_storage::Take;

use super::{Rooms, gone};
use crate::service::convert::error;
use crate::service::hooks::Decided;
use crate::service::restore;
use crate::service::room::{Reserved, Restored, RoomMsg};
use crate::service::wall::unix_ms;

/// How long, and how often, an act on a match whose task is ending waits for the registry to
/// forget it before reviving it from its log (the task ends within milliseconds).
const ENDING_WAIT: std::time::Duration = std::time::Duration::from_millis(10);
const ENDING_WAITS: usize = 200;

impl Rooms {
    /// Rebuilds an undecided match from its log and runs it, paused until its players are back.
    /// A node of a cluster first takes the match's lease, and leaves a match another live node
    /// runs alone. `false` when the match is not run here.
    pub(super) async fn restore(
        &self,
        row: &shvedka_storage::MatchRow,
        reserved: Option<TourSeats>,
    ) -> anyhow::Result<bool> {
        let id = MatchId(row.created.id);
        if let Some(leases) = self.store.leases() {
            match leases.take_lease(id.0).await? {
                Take::Taken { fence } => tracing::info!(match_id = %id, fence, "lease taken"),
                Take::Held { node } => {
                    tracing::debug!(match_id = %id, node, "the match runs on another node");
                    return Ok(false);
                }
            }
        }
        let rebuilt = match restore::rebuild(&*self.store, row).await {
            Ok(rebuilt) => rebuilt,
            Err(e) => {
                // A node of a cluster keeps its lease: another node could not replay this log
                // either, and would only try again and again.
                tracing::error!(match_id = %id, error = %e, "cannot restore the match; left as stored");
                return Ok(false);
            }
        };
        // Its log ends the match, but the row does not say so (its task died recording it):
        // rate it (once) and record it now; it is not live.
        let ended = match rebuilt.m.phase() {
            Phase::Ended(adj) => {
                if row.created.rated {
                    let (names, _) = restore::names(&rebuilt.views);
                    let winner = crate::service::convert::result(adj).winner;
                    self.rate(id, &rebuilt.m.config().time_control, &names, winner).await?;
                }
                let result = serde_json::to_string(adj).expect("results serialize");
                self.store.finish(id.0, &result, unix_ms()).await?;
                true
            }
            Phase::Annulled => {
                self.store.end_match(id.0, shvedka_storage::Ending::Annulled, unix_ms()).await?;
                true
            }
            _ => false,
        };
        if ended {
            tracing::info!(match_id = %id, events = rebuilt.views.len(), "the match's log ends it: recorded as over, not run");
            // Its task died before writing the BPGN file too (a decided match's, as it would have).
            if let (Phase::Ended(_), Some(dir)) = (rebuilt.m.phase(), &self.records_dir) {
                let (names, kinds) = restore::names(&rebuilt.views);
                let date = crate::service::wall::date_of(row.created.created_ms);
                let bpgn = crate::service::record::record(id.0, &rebuilt.m, &names, &kinds, &date).to_bpgn();
                crate::service::record::write_file(dir, id.0, &bpgn);
            }
            if let Some(leases) = self.store.leases() {
                leases.release_lease(id.0).await?;
            }
            return Ok(false);
        }
        let mut seated = Vec::new();
        for player in rebuilt.m.seats().into_iter().flatten() {
            if let Some(s) = self.sessions.restore(player, id).await? {
                seated.push(s);
            }
        }
        let (names, kinds) = restore::names(&rebuilt.views);
        tracing::info!(match_id = %id, events = rebuilt.views.len(), "match restored from its log");
        let bots = shvedka_proto::SeatId::ALL.into_iter().filter_map(|seat| {
            let name = names[seat.index()].clone()?;
            let level = crate::service::bot_names::level(&name, kinds[seat.index()])?;
            Some(super::BotSeat { match_id: id, seat, name, level })
        });
        self.restored_bots.lock().expect("restored bots lock").extend(bots);
        let restored = Restored { views: rebuilt.views, names, kinds, seated, lingering: Vec::new() };
        if let Some(hash) = &row.created.invite_hash {
            self.private.insert(id, hash.clone());
        }
        let setup = self.setup(
            row.created.listed,
            row.created.rated,
            None,
            reserved.map(|(names, game)| Reserved::Names(names, Some(Box::new(game)))),
            Some(restored),
        );
        self.spawn(id, rebuilt.m, setup, None);
        Ok(true)
    }

    /// Cluster mode: runs a match no live node runs (its node stopped, and its lease ran out),
    /// rebuilt from its log and paused as after a restart, so the outage is charged to nobody.
    /// `false` when it is live here already, decided, or another node was quicker, or when this
    /// node holds `max_matches` already.
    pub(crate) async fn take_over(&self, id: MatchId, reserved: Option<TourSeats>) -> anyhow::Result<bool> {
        if self.map.contains_key(&id) || self.standing.lost() {
            return Ok(false);
        }
        if self.map.len() >= self.limits.max_matches {
            // Full (max_matches): another node may take it.
            return Ok(false);
        }
        let Some(row) = self.store.find_match(id.0).await? else { return Ok(false) };
        if row.finished_ms.is_some() {
            return Ok(false);
        }
        self.restore(&row, reserved).await
    }

    /// Rates a decided rated match found decided in its log at start (once: a match rated before
    /// is not rated again).
    async fn rate(
        &self,
        id: MatchId,
        tc: &bughouse_match::TimeControl,
        names: &[Option<String>; 4],
        winner: Option<shvedka_proto::TeamId>,
    ) -> anyhow::Result<()> {
        self.hooks.rate(Decided { match_id: id.0, time_control: *tc, names, winner }).await?;
        Ok(())
    }

    /// Asks a match task, bringing a finished match back from its log first (also one whose task
    /// is ending as it is asked) (an arbiter may
    /// still correct or annul it): the task handles `msg` and ends again.
    pub(crate) async fn revive_with(&self, id: MatchId, msg: RoomMsg) -> Result<(), ErrorMsg> {
        let unavailable = |e: String| {
            tracing::error!(match_id = %id, error = %e, "cannot read a stored match");
            error(ErrorCode::Unavailable, "the stored match cannot be read now")
        };
        let mut msg = msg;
        for _ in 0..ENDING_WAITS {
            let Ok(room) = self.room(id) else { break };
            match room.tx.send(msg).await {
                Ok(()) => return Ok(()),
                // Its task is ending (decided just now) and takes nothing more: once the registry
                // has forgotten it, the match comes back from its log below.
                Err(tokio::sync::mpsc::error::SendError(back)) => {
                    msg = back;
                    tokio::time::sleep(ENDING_WAIT).await;
                }
            }
        }
        if self.room(id).is_ok() {
            return Err(gone());
        }
        let row = self.store.find_match(id.0).await.map_err(|e| unavailable(e.to_string()))?;
        let row = row.ok_or_else(|| error(ErrorCode::NoSuchMatch, format!("no match {id}")))?;
        let rebuilt = restore::rebuild(&*self.store, &row).await.map_err(|e| unavailable(e.to_string()))?;
        let mut taken = None;
        if let Some(leases) = self.store.leases() {
            // An arbiter's act on a finished match is appended to its log: by its lease holder.
            match leases.take_lease(id.0).await.map_err(|e| unavailable(e.to_string()))? {
                Take::Taken { fence } => taken = Some(fence),
                Take::Held { node } => {
                    return Err(error(
                        ErrorCode::Unavailable,
                        format!("match {id} is run by node {node} now"),
                    ));
                }
            }
        }
        if !matches!(rebuilt.m.phase(), Phase::Ended(_) | Phase::Annulled) {
            // Not run here: the lease just taken is given back, or no other node could take the
            // match over while this one lives (and this one runs it only after a restart).
            if let (Some(leases), Some(fence)) = (self.store.leases(), taken)
                && let Err(e) = leases.release_lease_taken(id.0, fence).await
            {
                tracing::warn!(match_id = %id, error = %e, "cannot give back a lease taken in vain; it runs out");
            }
            // Undecided but not live (its task failed): it comes back on the next start.
            return Err(error(
                ErrorCode::Unavailable,
                format!("match {id} is not live; it is restored at restart"),
            ));
        }
        let (names, kinds) = restore::names(&rebuilt.views);
        // Whoever watched it when it was decided is told what the act changes (a corrected result).
        let lingering = self.lingering.take(id);
        let restored = Restored { views: rebuilt.views, names, kinds, seated: Vec::new(), lingering };
        if let Some(hash) = &row.created.invite_hash {
            self.private.insert(id, hash.clone());
        }
        self.spawn(
            id,
            rebuilt.m,
            self.setup(row.created.listed, row.created.rated, None, None, Some(restored)),
            Some(msg),
        );
        Ok(())
    }

    /// A match's decision and the id of the rule that decided it (a code every reader's
    /// language says alike, never the server's English): from its live task, or the database.
    pub(crate) async fn result_of(
        &self,
        id: MatchId,
    ) -> Result<Option<(bughouse::MatchResult, String)>, ErrorMsg> {
        if let Ok(room) = self.room(id) {
            let decided = *room.decided.lock().expect("decided lock");
            if let Some(a) = decided {
                return Ok(Some((a.result, a.reason.rule().to_owned())));
            }
            return Ok(None);
        }
        let row =
            self.store.find_match(id.0).await.map_err(|e| error(ErrorCode::Unavailable, e.to_string()))?;
        Ok(row
            .and_then(|r| r.result)
            .and_then(|json| serde_json::from_str::<bughouse::Adjudication>(&json).ok())
            .map(|a| (a.result, a.reason.rule().to_owned())))
    }

    /// A match's BPGN, rebuilt from the database — a match in play too, as far as it is stored
    /// (write-ahead: everything delivered), so that no crowd asking for records takes a match's
    /// task from its players. A decided match's is rendered once and kept (`Reads::record`).
    /// `None` when no such match is stored.
    pub(crate) async fn record_of(&self, id: MatchId) -> Result<Option<String>, ErrorMsg> {
        let unavailable = |e: String| {
            tracing::error!(match_id = %id, error = %e, "cannot read a stored match");
            error(ErrorCode::Unavailable, "the stored match cannot be read now")
        };
        let Some(row) = self.store.find_match(id.0).await.map_err(|e| unavailable(e.to_string()))? else {
            return Ok(None);
        };
        let stamp = (row.finished_ms, row.result.clone(), row.ending.map(shvedka_storage::Ending::as_str));
        let decided = row.finished_ms.is_some();
        if decided && let Some(kept) = self.reads.record(id, &stamp) {
            return Ok(Some(kept.to_string()));
        }
        let rebuilt = restore::rebuild(&*self.store, &row).await.map_err(|e| unavailable(e.to_string()))?;
        let (names, kinds) = restore::names(&rebuilt.views);
        let date = crate::service::wall::date_of(row.created.created_ms);
        let bpgn = crate::service::record::record(id.0, &rebuilt.m, &names, &kinds, &date).to_bpgn();
        if decided {
            self.reads.keep(id, stamp, bpgn.as_str().into());
        }
        Ok(Some(bpgn))
    }
}
