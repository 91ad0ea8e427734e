//! Leases on matches, for cluster mode (PostgreSQL only): exactly one node runs a match at a time.
//!
//! A node is alive while its row in `cluster_nodes` has not expired; it renews that one row
//! ([`Leases::heartbeat`]), by the database's clock, so the nodes' own clocks never need to agree.
//! A node takes a match ([`Leases::take_lease`]) when nobody holds it, when its holder's row has
//! expired, or when it held it itself (a restarted node); each take raises the match's fencing
//! number. Every append of events by a node that has joined a cluster carries the fence it took,
//! and the store checks it in the append's own transaction, locking the lease row (`FOR SHARE`)
//! until the commit: a take-over either waits for the append and then replays it, or comes first
//! and the append is refused ([`StoreError::Fenced`](crate::StoreError::Fenced)). So two nodes
//! can never both write one match, however slow or partitioned the old one is.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use crate::StoreError;

/// The answer to [`Leases::take_lease`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Take {
    /// This node runs the match now, under this fence.
    Taken {
        /// The fencing number every append of this node's carries.
        fence: u64,
    },
    /// Another live node runs it.
    Held {
        /// Which.
        node: String,
    },
}

/// Which ids [`Leases::next_id`] hands out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdKind {
    /// Match ids.
    Match,
    /// Player (session) ids.
    Player,
}

/// A node of the cluster, as the database sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeRow {
    /// Its name.
    pub node: String,
    /// Its lease has not run out.
    pub alive: bool,
    /// The matches it holds leases on (finished ones included until released).
    pub matches: u64,
}

/// What a node of a cluster needs of the store beyond [`Store`](crate::Store).
#[async_trait::async_trait]
pub trait Leases: Send + Sync {
    /// This node's name.
    fn node(&self) -> &str;
    /// Marks this node alive for another lease period (registering it the first time).
    async fn heartbeat(&self) -> Result<(), StoreError>;
    /// Marks this node gone now, so others may take its matches at once (a graceful stop).
    async fn leave(&self) -> Result<(), StoreError>;
    /// Takes the lease on a match (see the module's documentation for when it can be taken).
    async fn take_lease(&self, match_id: u64) -> Result<Take, StoreError>;
    /// Takes a role of the cluster (work one node does for all, such as driving tournaments) by
    /// the same rule as a match's lease.
    async fn take_role(&self, role: &str) -> Result<Take, StoreError>;
    /// Gives up the lease on a match this node holds (it ended); nothing when it is not held.
    async fn release_lease(&self, match_id: u64) -> Result<(), StoreError>;
    /// Gives up the lease a match task took under `fence`, and only that one: a task that ends
    /// after its node took the match again (a later fence) leaves the later lease alone.
    async fn release_lease_taken(&self, match_id: u64, fence: u64) -> Result<(), StoreError>;
    /// The fence this node took a match with, if it did.
    fn fence(&self, match_id: u64) -> Option<u64>;
    /// The undecided matches nobody alive runs: without a lease, with an expired holder, or held
    /// in this node's name by an earlier process of it (this process never took them).
    async fn orphans(&self) -> Result<Vec<u64>, StoreError>;
    /// The nodes, by name.
    async fn nodes(&self) -> Result<Vec<NodeRow>, StoreError>;
    /// Who holds the lease on a match now, and whether that node is alive (`None`: nobody).
    async fn holder(&self, match_id: u64) -> Result<Option<NodeRow>, StoreError>;
    /// The node that held the lease on a match last, once nobody holds it (a decided match: the
    /// node that ran it to its end, which kept its watchers), and whether it is alive.
    async fn last_holder(&self, match_id: u64) -> Result<Option<NodeRow>, StoreError>;
    /// A new id no node has had, above every stored one.
    async fn next_id(&self, kind: IdKind) -> Result<u64, StoreError>;
}

/// A [`PgStore`]'s identity as a node, and the fences it took.
pub(crate) struct Node {
    pub(crate) name: String,
    pub(crate) lease_ms: i64,
    pub(crate) fences: Mutex<HashMap<u64, u64>>,
    /// The roles this node took, with their fences.
    pub(crate) roles: Mutex<HashMap<String, u64>>,
}

/// The role whose holder alone saves the tournaments.
pub(crate) const TOURNAMENTS: &str = "tournaments";

impl Node {
    pub(crate) fn new(name: &str, lease: Duration) -> Result<Node, StoreError> {
        let lease_ms = i64::try_from(lease.as_millis())
            .map_err(|_| StoreError::Range(format!("a lease of {lease:?} is too long")))?;
        Ok(Node {
            name: name.to_owned(),
            lease_ms,
            fences: Mutex::new(HashMap::new()),
            roles: Mutex::new(HashMap::new()),
        })
    }

    /// How long its leases last, ms.
    pub(crate) fn lease_ms(&self) -> i64 {
        self.lease_ms
    }

    pub(crate) fn fence(&self, match_id: u64) -> Option<u64> {
        self.fences.lock().expect("fences lock").get(&match_id).copied()
    }
}
