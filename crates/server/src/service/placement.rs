//! Where a match runs, and how a request reaches it. One process serving alone runs every live
//! match itself: a match that is not in its [`Rooms`](crate::service::rooms::Rooms) does not run
//! anywhere ([`Local`]). The nodes of a cluster run each match on one node: a request about a
//! match another node runs is forwarded there, and what that match sends is relayed back
//! (`cluster/`, which implements this trait). Dispatch asks the same questions of both, so the
//! single-node path is the same code with the local answers, not a branch of its own.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use shvedka_proto::{ArbiterRequest, Board, ClientMsg, ErrorCode, ErrorMsg, MatchId, MatchSummary};

use crate::service::convert::error;
use crate::service::metrics::Metrics;
use crate::service::outbound::Outbound;
use crate::service::session::Session;

/// What a session asks of a match this process does not run.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) enum Ask {
    /// Follow the match (its whole state, or the events after `last_seq`), relayed back.
    Follow { last_seq: Option<u64> },
    /// A match command (a seat, a move, a claim, chat ...).
    Command(ClientMsg),
    /// Stop following.
    Unfollow,
    /// The session's connection here closed: the match's process stops relaying to it, so the
    /// match counts the player gone (a forming match expires, a restored one waits for him)
    /// until he follows again.
    Away,
    /// The legal moves on a board.
    Legal(Board),
    /// An arbiter's act (the asking process checked the role, and the match's process checks
    /// it again).
    Arbiter(ArbiterRequest),
    /// Seat the match's process's own bots at this level in the empty seats.
    FillWithBots(u8),
    /// Watch the match: a player of it follows it (as `Follow`); anyone else is answered that
    /// he is a spectator, not followed, and his own process serves him, with its other
    /// spectators of the match, from one follower of its own (one copy of each event per
    /// process, however many watch there).
    Watch { last_seq: Option<u64> },
}

/// What a forwarded request gave back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Forwarded {
    /// Done (the events it caused are stored where the match runs).
    Done,
    /// The legal moves asked for.
    Legal(Vec<String>),
}

/// Where matches run, as this process sees them, and how to reach the ones it does not run.
#[async_trait::async_trait]
pub(crate) trait Placement: Send + Sync {
    /// Sends `ask` about match `id`, which this process does not run, to the one that does, for
    /// `session` (whose messages from the match go to `out`).
    ///
    /// # Errors
    /// `NoSuchMatch` when no process runs it; what the match answers; `Unavailable` when its
    /// process cannot be reached.
    async fn forward(
        &self,
        session: &Arc<Session>,
        out: &Outbound,
        id: MatchId,
        ask: Ask,
    ) -> Result<Forwarded, ErrorMsg>;

    /// A resumed session follows match `id`, which this process does not run, again from
    /// `last_seq`. `false` when no process runs it or will.
    async fn follow_again(
        &self,
        session: &Arc<Session>,
        out: &Outbound,
        id: MatchId,
        last_seq: Option<u64>,
    ) -> bool;

    /// `session` stops following match `id`, which this process does not run.
    ///
    /// # Errors
    /// What the match answers (a seated player of a match in play may not leave it).
    async fn let_go(&self, session: &Arc<Session>, id: MatchId) -> Result<(), ErrorMsg>;

    /// A connection of `session` closed: what other processes relay to it stops.
    fn connection_closed(&self, session: &Arc<Session>, out: &Outbound);

    /// The live matches other processes run (the listed ones, or all), for the lobby's list.
    fn others(&self, unlisted_too: bool) -> Vec<MatchSummary>;

    /// Sessions were ended in the database (a log-out, a password change): every process looks
    /// for its connections of them now.
    async fn sessions_ended(&self);

    /// Whether match `id`, which this process does not run, may run in another one (then a
    /// request about it is forwarded, and a resuming client may name it).
    fn may_run_elsewhere(&self, id: MatchId) -> bool;

    /// Sets the metrics of the processes serving together (nodes heard, followers relayed).
    fn set_metrics(&self, metrics: &Metrics);
}

/// One process serving alone: every live match runs here.
pub(crate) struct Local;

#[async_trait::async_trait]
impl Placement for Local {
    async fn forward(
        &self,
        _: &Arc<Session>,
        _: &Outbound,
        id: MatchId,
        _: Ask,
    ) -> Result<Forwarded, ErrorMsg> {
        Err(error(ErrorCode::NoSuchMatch, format!("no live match {id}")))
    }

    async fn follow_again(&self, _: &Arc<Session>, _: &Outbound, _: MatchId, _: Option<u64>) -> bool {
        false
    }

    async fn let_go(&self, _: &Arc<Session>, _: MatchId) -> Result<(), ErrorMsg> {
        Ok(())
    }

    fn connection_closed(&self, _: &Arc<Session>, _: &Outbound) {}

    fn others(&self, _: bool) -> Vec<MatchSummary> {
        Vec::new()
    }

    async fn sessions_ended(&self) {}

    fn may_run_elsewhere(&self, _: MatchId) -> bool {
        false
    }

    fn set_metrics(&self, metrics: &Metrics) {
        metrics.set_cluster(&[], 0, (0, 0, 0));
    }
}
