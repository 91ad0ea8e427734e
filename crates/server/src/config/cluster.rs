//! The `[cluster]` section of the configuration: which node this is, where the nodes' NATS
//! server is, and how long a node's lease on a match lasts. Absent, the server is one node on its
//! own (SQLite or PostgreSQL, no other service); present, it needs PostgreSQL (`database_url`),
//! which holds everything the nodes share, leases included.

use std::time::Duration;

use anyhow::bail;
use serde::Deserialize;

/// The longest node name: it is part of NATS subjects and of every lease row.
pub(crate) const MAX_NODE_NAME: usize = 32;

/// `[cluster]`: this node of several serving one lobby.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ClusterConfig {
    /// This node's name, unique in the cluster: 1 to 32 of `a-z`, `0-9`, `-`.
    pub node: String,
    /// The NATS server the nodes talk through (`nats://127.0.0.1:4222`).
    pub nats_url: String,
    /// How long a lease on a match lasts after its last renewal, ms: a match of a node that
    /// stopped is taken over this long after its last renewal at the latest.
    #[serde(default = "default_lease_ms")]
    pub lease_ms: u64,
    /// How often a node renews its leases, ms; at most a third of `lease_ms`, so two renewals
    /// can fail before a lease runs out.
    #[serde(default = "default_lease_renew_ms")]
    pub lease_renew_ms: u64,
    /// The most nodes a node keeps track of (the heartbeats it hears on NATS); more are not
    /// shown. 1 to 1024.
    #[serde(default = "default_max_nodes")]
    pub max_nodes: usize,
}

const fn default_lease_ms() -> u64 {
    5000
}

const fn default_lease_renew_ms() -> u64 {
    1000
}

const fn default_max_nodes() -> usize {
    16
}

/// The bounds of `lease_ms`, ms: long enough to ride out a slow commit, short enough that a
/// dead node's matches are soon taken over.
const LEASE_MS: std::ops::RangeInclusive<u64> = 1000..=60_000;

impl ClusterConfig {
    /// Checks the section against the rest of the configuration.
    ///
    /// # Errors
    /// No `database_url`, a bad node name or NATS URL, or lease times out of bounds.
    pub(crate) fn validate(&self, database_url: &str) -> anyhow::Result<()> {
        if database_url.is_empty() {
            bail!(
                "invalid configuration: [cluster] needs database_url (a PostgreSQL URL): the nodes share \
                 everything durable, their leases included, through PostgreSQL"
            );
        }
        if !database_url.starts_with("postgres://") && !database_url.starts_with("postgresql://") {
            bail!("invalid configuration: [cluster] needs database_url to be a postgres:// URL");
        }
        let name_ok = !self.node.is_empty()
            && self.node.len() <= MAX_NODE_NAME
            && self.node.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
        if !name_ok {
            bail!(
                "invalid configuration: [cluster] node {:?} must be 1 to {MAX_NODE_NAME} of a-z, 0-9 and -",
                self.node
            );
        }
        let Some(rest) = self.nats_url.strip_prefix("nats://") else {
            bail!("invalid configuration: [cluster] nats_url {:?} must start with nats://", self.nats_url);
        };
        if rest.is_empty() || rest.contains(char::is_whitespace) {
            bail!("invalid configuration: [cluster] nats_url {:?} has no host", self.nats_url);
        }
        if !LEASE_MS.contains(&self.lease_ms) {
            bail!(
                "invalid configuration: [cluster] lease_ms {} must be {} to {}",
                self.lease_ms,
                LEASE_MS.start(),
                LEASE_MS.end()
            );
        }
        if self.lease_renew_ms == 0 || self.lease_renew_ms * 3 > self.lease_ms {
            bail!(
                "invalid configuration: [cluster] lease_renew_ms {} must be positive and at most a third of \
                 lease_ms {}",
                self.lease_renew_ms,
                self.lease_ms
            );
        }
        if !(1..=1024).contains(&self.max_nodes) {
            bail!("invalid configuration: [cluster] max_nodes {} must be 1 to 1024", self.max_nodes);
        }
        Ok(())
    }

    /// How long a lease lasts after its last renewal.
    pub fn lease(&self) -> Duration {
        Duration::from_millis(self.lease_ms)
    }

    /// How often leases are renewed.
    pub fn lease_renew(&self) -> Duration {
        Duration::from_millis(self.lease_renew_ms)
    }
}

#[cfg(test)]
mod tests {
    use crate::config::ServerConfig;

    const PG: &str = "database_url = \"postgres://shvedka@127.0.0.1/shvedka\"\n";

    fn error(text: &str) -> String {
        format!("{:#}", ServerConfig::from_overrides(text).expect_err("refused"))
    }

    #[test]
    fn without_a_cluster_section_the_server_is_one_node() {
        assert_eq!(ServerConfig::builtin().cluster, None);
    }

    #[test]
    fn a_cluster_section_is_read_with_lease_defaults() {
        let config = ServerConfig::from_overrides(&format!(
            "{PG}[cluster]\nnode = \"n1\"\nnats_url = \"nats://127.0.0.1:4222\"\n"
        ))
        .unwrap();
        let cluster = config.cluster.expect("a cluster");
        assert_eq!(cluster.node, "n1");
        assert_eq!(cluster.nats_url, "nats://127.0.0.1:4222");
        assert_eq!((cluster.lease_ms, cluster.lease_renew_ms, cluster.max_nodes), (5000, 1000, 16));
    }

    #[test]
    fn a_cluster_without_postgresql_is_refused_saying_why() {
        let e = error("[cluster]\nnode = \"n1\"\nnats_url = \"nats://127.0.0.1:4222\"\n");
        assert!(e.contains("[cluster] needs database_url"), "{e}");
    }

    #[test]
    fn bad_cluster_values_are_refused_by_name() {
        let base = |extra: &str, node: &str, url: &str| {
            error(&format!("{PG}[cluster]\nnode = \"{node}\"\nnats_url = \"{url}\"\n{extra}"))
        };
        let url = "nats://127.0.0.1:4222";
        assert!(base("", "Node 1", url).contains("node \"Node 1\" must be 1 to 32"));
        assert!(base("", "", url).contains("node \"\""));
        assert!(base("", &"n".repeat(33), url).contains("must be 1 to 32"));
        assert!(base("", "n1", "tcp://x:1").contains("nats_url \"tcp://x:1\" must start with nats://"));
        assert!(base("lease_ms = 500\n", "n1", url).contains("lease_ms 500 must be 1000 to 60000"));
        assert!(base("lease_renew_ms = 2000\n", "n1", url).contains("at most a third of lease_ms 5000"));
        assert!(base("max_nodes = 0\n", "n1", url).contains("max_nodes 0 must be 1 to 1024"));
        assert!(base("colour = 1\n", "n1", url).contains("unknown field `colour`"));
    }
}
