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
    /// The NATS server the nodes talk through: `tls://nats.example.org:4222`, or `nats://` on
    /// loopback (or anywhere, with `insecure_nats`).
    pub nats_url: String,
    /// This node's NATS user (a user of the NATS server's `authorization`, allowed shvedka's
    /// subjects alone), with `nats_password`.
    #[serde(default)]
    pub nats_user: String,
    /// The NATS user's password.
    #[serde(default)]
    pub nats_password: String,
    /// A PEM file of the certificate authority that signed the NATS server's certificate (for a
    /// private CA); empty trusts the usual public roots.
    #[serde(default)]
    pub nats_ca: String,
    /// Lets a node use NATS without credentials, or `nats://` across the network: for a private
    /// test network only. Whoever reaches an unprotected NATS server can move, resign and act as
    /// an arbiter for any player, and read relayed team chat.
    #[serde(default)]
    pub insecure_nats: bool,
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
        self.validate_nats()?;
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

    /// The NATS settings: a URL the client reads, credentials (unless `insecure_nats`), and TLS
    /// for a server off this machine (unless `insecure_nats`).
    fn validate_nats(&self) -> anyhow::Result<()> {
        let url = &self.nats_url;
        let (tls, rest) = match (url.strip_prefix("tls://"), url.strip_prefix("nats://")) {
            (Some(rest), _) => (true, rest),
            (None, Some(rest)) => (false, rest),
            (None, None) => {
                bail!("invalid configuration: [cluster] nats_url {url:?} must start with tls:// or nats://")
            }
        };
        if rest.is_empty() || rest.contains(char::is_whitespace) {
            bail!("invalid configuration: [cluster] nats_url {url:?} has no host");
        }
        if rest.contains('@') {
            bail!(
                "invalid configuration: [cluster] nats_url {url:?} carries credentials: give them as \
                 nats_user and nats_password"
            );
        }
        let password = !self.nats_user.is_empty() || !self.nats_password.is_empty();
        if password && (self.nats_user.is_empty() || self.nats_password.is_empty()) {
            bail!("invalid configuration: [cluster] nats_user and nats_password go together");
        }
        if !tls && !self.nats_ca.is_empty() {
            bail!("invalid configuration: [cluster] nats_ca is for a tls:// nats_url");
        }
        if self.insecure_nats {
            return Ok(());
        }
        if !password {
            bail!(
                "invalid configuration: [cluster] needs the node's NATS credentials (nats_user and \
                 nats_password): whoever reaches an open NATS server can move and \
                 resign for any player and act as an arbiter. On a private test network only, say \
                 insecure_nats = true"
            );
        }
        let host = rest.rsplit_once(':').map_or(rest, |(host, _)| host);
        let loopback = host == "localhost"
            || host.trim_matches(['[', ']']).parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback());
        if !tls && !loopback {
            bail!(
                "invalid configuration: [cluster] nats_url {url:?} is plain nats:// to another machine: its \
                 credentials and the relayed games and team chat would cross the network in clear. Use \
                 tls:// (or insecure_nats = true on a private test network)"
            );
        }
        Ok(())
    }

    /// How the node connects to NATS: its credentials and the CA it trusts.
    ///
    /// # Errors
    /// A CA file that cannot be read.
    pub(crate) fn nats_options(&self) -> anyhow::Result<async_nats::ConnectOptions> {
        let mut options = if !self.nats_user.is_empty() {
            async_nats::ConnectOptions::with_user_and_password(
                self.nats_user.clone(),
                self.nats_password.clone(),
            )
        } else {
            async_nats::ConnectOptions::new()
        };
        if !self.nats_ca.is_empty() {
            anyhow::ensure!(
                std::path::Path::new(&self.nats_ca).is_file(),
                "the NATS CA file {:?} cannot be read",
                self.nats_ca
            );
            options = options.add_root_certificates(self.nats_ca.clone().into());
        }
        Ok(options.require_tls(self.nats_url.starts_with("tls://")))
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
    const CREDENTIALS: &str = "nats_user = \"node\"\nnats_password = \"pw\"\n";

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
            "{PG}[cluster]\nnode = \"n1\"\nnats_url = \"nats://127.0.0.1:4222\"\n{CREDENTIALS}"
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
            error(&format!("{PG}[cluster]\nnode = \"{node}\"\nnats_url = \"{url}\"\n{CREDENTIALS}{extra}"))
        };
        let url = "nats://127.0.0.1:4222";
        assert!(base("", "Node 1", url).contains("node \"Node 1\" must be 1 to 32"));
        assert!(base("", "", url).contains("node \"\""));
        assert!(base("", &"n".repeat(33), url).contains("must be 1 to 32"));
        assert!(
            base("", "n1", "tcp://x:1").contains("nats_url \"tcp://x:1\" must start with tls:// or nats://")
        );
        assert!(base("lease_ms = 500\n", "n1", url).contains("lease_ms 500 must be 1000 to 60000"));
        assert!(base("lease_renew_ms = 2000\n", "n1", url).contains("at most a third of lease_ms 5000"));
        assert!(base("max_nodes = 0\n", "n1", url).contains("max_nodes 0 must be 1 to 1024"));
        assert!(base("colour = 1\n", "n1", url).contains("unknown key `colour` in [cluster]"));
    }

    #[test]
    fn nats_without_credentials_or_in_clear_across_the_network_is_refused_unless_insecure() {
        let cluster = |url: &str, extra: &str| {
            ServerConfig::from_overrides(&format!(
                "{PG}[cluster]\nnode = \"n1\"\nnats_url = \"{url}\"\n{extra}"
            ))
        };
        let refused = |url: &str, extra: &str| format!("{:#}", cluster(url, extra).expect_err("refused"));
        let local = "nats://127.0.0.1:4222";
        let e = refused(local, "");
        assert!(e.contains("needs the node's NATS credentials") && e.contains("insecure_nats = true"), "{e}");
        assert!(cluster(local, "insecure_nats = true\n").is_ok(), "a private test network");
        assert!(cluster(local, CREDENTIALS).is_ok(), "loopback with credentials");
        assert!(cluster("nats://[::1]:4222", CREDENTIALS).is_ok(), "IPv6 loopback");
        assert!(cluster("nats://localhost:4222", CREDENTIALS).is_ok());
        let e = refused("nats://10.0.0.5:4222", CREDENTIALS);
        assert!(e.contains("plain nats:// to another machine") && e.contains("Use tls://"), "{e}");
        assert!(cluster("nats://10.0.0.5:4222", &format!("{CREDENTIALS}insecure_nats = true\n")).is_ok());
        let tls = cluster("tls://nats.example.org:4222", &format!("{CREDENTIALS}nats_ca = \"ca.pem\"\n"));
        assert_eq!(tls.expect("tls with credentials").cluster.expect("a cluster").nats_ca, "ca.pem");
        assert!(refused("nats://u:p@127.0.0.1:4222", "").contains("carries credentials"));
        assert!(refused(local, "nats_user = \"node\"\n").contains("go together"));
        assert!(refused(local, "nats_password = \"pw\"\n").contains("go together"));
        assert!(
            refused(local, "nats_credentials = \"x\"\n")
                .contains("unknown key `nats_credentials` in [cluster]")
        );
        assert!(refused(local, &format!("{CREDENTIALS}nats_ca = \"ca.pem\"\n")).contains("for a tls://"));
    }

    #[test]
    fn a_missing_ca_file_is_named() {
        let config = |extra: &str| {
            ServerConfig::from_overrides(&format!(
                "{PG}[cluster]\nnode = \"n1\"\nnats_url = \"tls://127.0.0.1:4222\"\n{extra}"
            ))
            .unwrap()
            .cluster
            .unwrap()
        };
        let e = config(&format!("{CREDENTIALS}nats_ca = \"/nonexistent/ca.pem\"\n")).nats_options().err();
        assert!(
            format!("{:#}", e.unwrap()).contains("the NATS CA file \"/nonexistent/ca.pem\" cannot be read")
        );
        assert!(config(CREDENTIALS).nats_options().is_ok());
    }
}
