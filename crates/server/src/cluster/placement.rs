//! The cluster as the server's [`Placement`] (matches run on one node each; requests about
//! another node's match are forwarded there and its messages relayed back) and its [`Remote`]
//! (the seeks, the tournaments and rematch offers served by one node for all).

use std::sync::Arc;

use shvedka_proto::{ClientMsg, ErrorMsg, MatchId, MatchSummary, Reply};

use super::Cluster;
use super::wire::Answer;
use crate::features::remote::{Remote, Seeking};
use crate::features::tournaments::TourAsk;
use crate::service::metrics::Metrics;
use crate::service::outbound::Outbound;
use crate::service::placement::{Ask, Forwarded, Placement};
use crate::service::session::Session;

#[async_trait::async_trait]
impl Placement for Cluster {
    async fn forward(
        &self,
        session: &Arc<Session>,
        out: &Outbound,
        id: MatchId,
        ask: Ask,
    ) -> Result<Forwarded, ErrorMsg> {
        Ok(match self.relays.forward(session, out, id, ask).await? {
            Answer::Legal(moves) => Forwarded::Legal(moves),
            // Nobody there: served from this node's gallery of the match.
            Answer::Spectator => {
                self.relays.spectate_here(session, out, id).await?;
                Forwarded::Done
            }
            _ => Forwarded::Done,
        })
    }

    async fn follow_again(
        &self,
        session: &Arc<Session>,
        out: &Outbound,
        id: MatchId,
        last_seq: Option<u64>,
    ) -> bool {
        self.relays.follow_again(session, out, id, last_seq).await
    }

    async fn let_go(&self, session: &Arc<Session>, id: MatchId) -> Result<(), ErrorMsg> {
        self.relays.let_go(session, id).await
    }

    fn connection_closed(&self, session: &Arc<Session>, out: &Outbound) {
        self.relays.connection_closed(session, out);
    }

    fn others(&self, unlisted_too: bool) -> Vec<MatchSummary> {
        self.listings.matches(unlisted_too, tokio::time::Instant::now())
    }

    async fn sessions_ended(&self) {
        Cluster::sessions_ended(self).await;
    }

    fn may_run_elsewhere(&self, _: MatchId) -> bool {
        true
    }

    fn set_metrics(&self, metrics: &Metrics) {
        let now = tokio::time::Instant::now();
        let alive = self.peers.alive(now);
        let other_wire = alive.len().saturating_sub(self.peers.reachable(now).len());
        let nodes: Vec<(String, u64, u64)> =
            alive.into_iter().map(|beat| (beat.node, beat.matches, beat.connections)).collect();
        let relayed = (self.owner.followers(), self.relays.followed(), self.owner.seekers());
        metrics.set_cluster(&nodes, other_wire, relayed);
        let nats = self.nats_state.snapshot();
        metrics.set_nats(nats.connected, nats.since_unix_s, nats.errors, nats.last_error.as_deref());
    }
}

#[async_trait::async_trait]
impl Remote for Cluster {
    fn seeking(&self) -> Seeking {
        self.relays.seeking()
    }

    async fn ask_seeks(
        &self,
        session: &Arc<Session>,
        out: &Outbound,
        node: &str,
        msg: ClientMsg,
    ) -> Result<Reply, ErrorMsg> {
        self.relays.ask_seeks(session, out, node, msg).await
    }

    fn rematch_kept_by(&self, id: MatchId) -> Option<String> {
        self.relays.ran_elsewhere(id)
    }

    async fn ask_rematch(
        &self,
        session: &Arc<Session>,
        out: &Outbound,
        node: &str,
        id: MatchId,
        accept: Option<bool>,
    ) -> Result<Reply, ErrorMsg> {
        self.relays.ask_rematch(session, out, node, id, accept).await
    }

    async fn ask_driver(&self, session: &Session, node: &str, ask: TourAsk) -> Result<Reply, ErrorMsg> {
        self.relays.ask_driver(session, node, ask).await
    }
}
