//! Features one process serves for several: the seeks are paired by one node of a cluster, the
//! tournaments driven by one, and a decided match's rematch offer is kept by the node that ran
//! it. A request about them from another node goes there. One process serving alone serves
//! them all itself ([`Alone`]); the cluster implements this trait for its nodes.

use std::sync::Arc;

use shvedka_proto::{ClientMsg, ErrorCode, ErrorMsg, MatchId, Reply};

use crate::features::tournaments::TourAsk;
use crate::service::convert::error;
use crate::service::outbound::Outbound;
use crate::service::session::Session;

/// Which process pairs the seeks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Seeking {
    /// This one.
    Here,
    /// Another.
    There(String),
    /// Not known yet.
    Unknown,
}

/// How this process reaches the features another process serves.
#[async_trait::async_trait]
pub(crate) trait Remote: Send + Sync {
    /// Which process pairs the seeks.
    fn seeking(&self) -> Seeking;

    /// A seek request of `session`, sent to `node`, which pairs the seeks.
    ///
    /// # Errors
    /// What the seeks answer; `Unavailable` when `node` cannot be reached.
    async fn ask_seeks(
        &self,
        session: &Arc<Session>,
        out: &Outbound,
        node: &str,
        msg: ClientMsg,
    ) -> Result<Reply, ErrorMsg>;

    /// The process that ran the decided match `id` and keeps its rematch offer, when another.
    fn rematch_kept_by(&self, id: MatchId) -> Option<String>;

    /// An answer to the rematch offer `node` keeps.
    ///
    /// # Errors
    /// What the offer answers; `Unavailable` when `node` cannot be reached.
    async fn ask_rematch(
        &self,
        session: &Arc<Session>,
        out: &Outbound,
        node: &str,
        id: MatchId,
        accept: Option<bool>,
    ) -> Result<Reply, ErrorMsg>;

    /// A tournament request, sent to `node`, which drives the tournaments.
    ///
    /// # Errors
    /// What the tournaments answer; `Unavailable` when `node` cannot be reached.
    async fn ask_driver(&self, session: &Session, node: &str, ask: TourAsk) -> Result<Reply, ErrorMsg>;
}

/// One process serving alone: it pairs the seeks, drives the tournaments and keeps every offer.
pub(crate) struct Alone;

fn nobody(node: &str) -> ErrorMsg {
    error(ErrorCode::Unavailable, format!("no other node serves this server ({node} is not one)"))
}

#[async_trait::async_trait]
impl Remote for Alone {
    fn seeking(&self) -> Seeking {
        Seeking::Here
    }

    async fn ask_seeks(
        &self,
        _: &Arc<Session>,
        _: &Outbound,
        node: &str,
        _: ClientMsg,
    ) -> Result<Reply, ErrorMsg> {
        Err(nobody(node))
    }

    fn rematch_kept_by(&self, _: MatchId) -> Option<String> {
        None
    }

    async fn ask_rematch(
        &self,
        _: &Arc<Session>,
        _: &Outbound,
        node: &str,
        _: MatchId,
        _: Option<bool>,
    ) -> Result<Reply, ErrorMsg> {
        Err(nobody(node))
    }

    async fn ask_driver(&self, _: &Session, node: &str, _: TourAsk) -> Result<Reply, ErrorMsg> {
        // A store shared with other nodes though this one has no [cluster]: as the tournaments
        // themselves refuse a request their node does not run.
        Err(error(
            ErrorCode::Unavailable,
            format!("the tournaments are run by node {node} of this cluster; connect to it"),
        ))
    }
}
