//! What an operator watches: the server's metrics in the Prometheus (OpenMetrics) text
//! exposition, served at `/metrics` on the HTTP side. One registry per server; every count is
//! updated where the thing happens, and the live counts are read when the page is scraped.

use std::sync::Arc;

use prometheus_client::encoding::{EncodeLabelSet, EncodeLabelValue};
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

/// A connection's transport.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq, EncodeLabelValue)]
pub(crate) enum Transport {
    /// Native clients, QUIC with ALPN `shvedka/1`.
    Quic,
    /// Browsers, WebTransport over HTTP/3.
    Webtransport,
    /// Browsers, the WebSocket fallback.
    Websocket,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct TransportLabels {
    transport: Transport,
}

/// A move's fate.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq, EncodeLabelValue)]
pub(crate) enum Outcome {
    /// Played.
    Accepted,
    /// Refused (not the mover's turn, illegal, unavailable …).
    Refused,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct OutcomeLabels {
    outcome: Outcome,
}

/// A limit that refused something.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq, EncodeLabelValue)]
pub(crate) enum Refusal {
    /// The per-connection request rate.
    RateLimited,
    /// `max_connections`.
    MaxConnections,
    /// `max_matches`.
    MaxMatches,
    /// `max_open_matches_per_session`.
    OpenMatches,
    /// `max_bots`.
    MaxBots,
    /// `max_connections_per_address`.
    ConnectionsPerAddress,
    /// `registrations_per_address_per_hour`.
    Registrations,
    /// `guest_sessions_per_address_per_hour`.
    Guests,
    /// `new_connections_per_address_per_second`.
    ConnectionRate,
    /// The log-in lock-out (`login_failures_per_name`, `login_failures_per_address`).
    LoginAttempts,
    /// `max_analyses_queued`, `analyses_per_address`.
    Analyses,
    /// A password or official's secret over plain HTTP (`plain_http_logins`).
    Unencrypted,
}

impl Refusal {
    /// Every limit, for the series shown at 0 from the start.
    const ALL: [Refusal; 12] = [
        Refusal::RateLimited,
        Refusal::MaxConnections,
        Refusal::MaxMatches,
        Refusal::OpenMatches,
        Refusal::MaxBots,
        Refusal::ConnectionsPerAddress,
        Refusal::Registrations,
        Refusal::Guests,
        Refusal::ConnectionRate,
        Refusal::LoginAttempts,
        Refusal::Analyses,
        Refusal::Unencrypted,
    ];
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct NodeLabels {
    node: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ErrorLabels {
    error: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RefusalLabels {
    limit: Refusal,
}

/// A position asked of the engine and not answered yet ([`Metrics::analysis_pending`]).
pub(crate) struct Pending(Arc<Metrics>);

impl Drop for Pending {
    fn drop(&mut self) {
        self.0.analyses_pending.dec();
    }
}

/// Every metric of one server.
pub(crate) struct Metrics {
    registry: Registry,
    live_matches: Gauge,
    sessions: Gauge,
    connections: Family<TransportLabels, Gauge>,
    moves: Family<OutcomeLabels, Counter>,
    move_seconds: Histogram,
    commit_seconds: Histogram,
    commit_batch: Histogram,
    storage_errors: Counter,
    refused: Family<RefusalLabels, Counter>,
    behind: Counter,
    retries: Counter,
    cluster_nodes: Gauge,
    cluster_nodes_other_wire: Gauge,
    lease_lost: Gauge,
    nats_connected: Gauge,
    nats_since: Gauge,
    nats_errors: Counter,
    nats_last_error: Family<ErrorLabels, Gauge>,
    node_matches: Family<NodeLabels, Gauge>,
    node_connections: Family<NodeLabels, Gauge>,
    relayed_out: Gauge,
    relayed_in: Gauge,
    relayed_seekers: Gauge,
    analyses: Counter,
    analysis_failures: Counter,
    certificate_expiry: Gauge,
    storage_full: Gauge,
    analyses_pending: Gauge,
    acme_failures: Counter,
}

impl Metrics {
    pub(crate) fn new() -> Metrics {
        let mut registry = Registry::with_prefix("shvedka");
        let m = Metrics {
            live_matches: Gauge::default(),
            sessions: Gauge::default(),
            connections: Family::default(),
            moves: Family::default(),
            // 100 µs to ~3 s.
            move_seconds: Histogram::new(exponential_buckets(0.0001, 2.0, 16)),
            commit_seconds: Histogram::new(exponential_buckets(0.0001, 2.0, 16)),
            // 1 to 512 matches a transaction.
            commit_batch: Histogram::new(exponential_buckets(1.0, 2.0, 10)),
            storage_errors: Counter::default(),
            refused: Family::default(),
            behind: Counter::default(),
            retries: Counter::default(),
            cluster_nodes: Gauge::default(),
            cluster_nodes_other_wire: Gauge::default(),
            lease_lost: Gauge::default(),
            nats_connected: Gauge::default(),
            nats_since: Gauge::default(),
            nats_errors: Counter::default(),
            nats_last_error: Family::default(),
            node_matches: Family::default(),
            node_connections: Family::default(),
            relayed_out: Gauge::default(),
            relayed_in: Gauge::default(),
            relayed_seekers: Gauge::default(),
            analyses: Counter::default(),
            certificate_expiry: Gauge::default(),
            storage_full: Gauge::default(),
            analyses_pending: Gauge::default(),
            acme_failures: Counter::default(),
            analysis_failures: Counter::default(),
            registry: Registry::default(),
        };
        // Every label is shown from the start at 0, so a scrape (and a rate() over it) sees a
        // series before its first event: a refusal counted once is never a series appearing.
        for transport in [Transport::Quic, Transport::Webtransport, Transport::Websocket] {
            let _ = m.connections.get_or_create(&TransportLabels { transport });
        }
        for outcome in [Outcome::Accepted, Outcome::Refused] {
            let _ = m.moves.get_or_create(&OutcomeLabels { outcome });
        }
        for limit in Refusal::ALL {
            let _ = m.refused.get_or_create(&RefusalLabels { limit });
        }
        registry.register(
            "live_matches",
            "Matches held now (forming, countdown, running, paused)",
            m.live_matches.clone(),
        );
        registry.register(
            "sessions",
            "Sessions in memory now (connected, or following a live match)",
            m.sessions.clone(),
        );
        registry.register("connections", "Connections open now, by transport", m.connections.clone());
        registry.register(
            "handshake_retries",
            "QUIC handshakes asked to prove their address first (a Retry), handshakes in flight being above retry_handshakes_above",
            m.retries.clone(),
        );
        registry.register("moves", "Moves asked for, by outcome", m.moves.clone());
        registry.register(
            "move_seconds",
            "From a move's request reaching its match to its reply, its events stored and sent",
            m.move_seconds.clone(),
        );
        registry.register(
            "commit_seconds",
            "One group commit of events to the database",
            m.commit_seconds.clone(),
        );
        registry.register(
            "commit_batch_matches",
            "Matches whose events one commit carried",
            m.commit_batch.clone(),
        );
        registry.register(
            "storage_errors",
            "Failed writes to the database (each is retried)",
            m.storage_errors.clone(),
        );
        registry.register(
            "refused",
            "Requests and connections refused by a limit, by limit",
            m.refused.clone(),
        );
        registry.register(
            "followers_behind",
            "Connections closed because they could not keep up with what they were sent",
            m.behind.clone(),
        );
        registry.register(
            "cluster_nodes",
            "Nodes of the cluster heard on NATS lately, this one included (0 outside cluster mode)",
            m.cluster_nodes.clone(),
        );
        registry.register(
            "cluster_nodes_other_wire",
            "Of those, nodes of another build (another cluster wire version): nothing is asked of them \
             (0 outside cluster mode)",
            m.cluster_nodes_other_wire.clone(),
        );
        registry.register(
            "cluster_lease_lost",
            "1 while this node cannot renew its leases in the cluster's database and runs no match (0 otherwise)",
            m.lease_lost.clone(),
        );
        registry.register(
            "storage_full",
            "1 while the database cannot grow (its disk is full: moves are refused and matches paused), 0 otherwise",
            m.storage_full.clone(),
        );
        registry.register(
            "certificate_expiry_timestamp_seconds",
            "Unix time at which the certificate obtained from the ACME CA ends (0 before the first, and without ACME)",
            m.certificate_expiry.clone(),
        );
        registry.register(
            "acme_failures",
            "Attempts to obtain or renew the certificate from the ACME CA that failed since the server started",
            m.acme_failures.clone(),
        );
        registry.register(
            "cluster_nats_connected",
            "1 while this node is connected to NATS (0 while it is not, and outside cluster mode)",
            m.nats_connected.clone(),
        );
        registry.register(
            "cluster_nats_since_seconds",
            "Unix time of the last change of cluster_nats_connected (0 before the first)",
            m.nats_since.clone(),
        );
        registry.register(
            "cluster_nats_errors",
            "Errors the NATS client or server reported to this node since it started",
            m.nats_errors.clone(),
        );
        registry.register(
            "cluster_nats_last_error",
            "The last of them, as its label (1; no series before the first)",
            m.nats_last_error.clone(),
        );
        registry.register(
            "cluster_node_matches",
            "Live matches of each node of the cluster",
            m.node_matches.clone(),
        );
        registry.register(
            "cluster_node_connections",
            "Open connections of each node of the cluster",
            m.node_connections.clone(),
        );
        registry.register(
            "cluster_relayed_followers",
            "Sessions of other nodes following this node's matches (their events relayed over NATS)",
            m.relayed_out.clone(),
        );
        registry.register(
            "cluster_forwarded_followers",
            "Sessions of this node following other nodes' matches (their requests forwarded)",
            m.relayed_in.clone(),
        );
        registry.register(
            "cluster_relayed_seekers",
            "Sessions of other nodes seeking, or answering a rematch offer, through this node",
            m.relayed_seekers.clone(),
        );
        registry.register(
            "analyses",
            "Positions the engine began to analyse for review (ClientMsg::Analyse; answers from the cache not counted)",
            m.analyses.clone(),
        );
        registry.register(
            "analyses_pending",
            "Positions asked of the engine and not answered yet: searched now or waiting (at most max_analyses_queued + 1)",
            m.analyses_pending.clone(),
        );
        registry.register(
            "analysis_failures",
            "Positions on which the engine failed (panicked); the analysis thread goes on with a fresh engine",
            m.analysis_failures.clone(),
        );
        Metrics { registry, ..m }
    }

    /// Whether this node has lost its leases (it runs no match until it renews them).
    pub(crate) fn set_lease_lost(&self, lost: bool) {
        self.lease_lost.set(i64::from(lost));
    }

    /// The nodes of the cluster as last heard, each `(node, live matches, open connections)`
    /// (replacing what was shown before), and how many of them speak another wire.
    pub(crate) fn set_cluster(
        &self,
        nodes: &[(String, u64, u64)],
        other_wire: usize,
        relayed: (usize, usize, usize),
    ) {
        self.cluster_nodes_other_wire.set(i64::try_from(other_wire).unwrap_or(i64::MAX));
        self.relayed_out.set(i64::try_from(relayed.0).unwrap_or(i64::MAX));
        self.relayed_in.set(i64::try_from(relayed.1).unwrap_or(i64::MAX));
        self.relayed_seekers.set(i64::try_from(relayed.2).unwrap_or(i64::MAX));
        self.cluster_nodes.set(i64::try_from(nodes.len()).unwrap_or(i64::MAX));
        self.node_matches.clear();
        self.node_connections.clear();
        for (node, matches, connections) in nodes {
            let labels = NodeLabels { node: node.clone() };
            self.node_matches.get_or_create(&labels).set(i64::try_from(*matches).unwrap_or(i64::MAX));
            self.node_connections.get_or_create(&labels).set(i64::try_from(*connections).unwrap_or(i64::MAX));
        }
    }

    /// This node's NATS connection: connected now, since (Unix seconds), the errors reported and
    /// the last of them.
    pub(crate) fn set_nats(&self, connected: bool, since_unix_s: u64, errors: u64, last_error: Option<&str>) {
        self.nats_connected.set(i64::from(connected));
        self.nats_since.set(i64::try_from(since_unix_s).unwrap_or(i64::MAX));
        // A count: it only grows, by what was reported since the last scrape.
        let seen = self.nats_errors.get();
        if errors > seen {
            self.nats_errors.inc_by(errors - seen);
        }
        self.nats_last_error.clear();
        if let Some(error) = last_error {
            self.nats_last_error.get_or_create(&ErrorLabels { error: error.to_owned() }).set(1);
        }
    }

    /// The end of the certificate served from the ACME CA (`None`: none yet).
    pub(crate) fn set_certificate_expiry(&self, end: Option<std::time::SystemTime>) {
        let secs = end.and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map_or(0, |d| d.as_secs());
        self.certificate_expiry.set(i64::try_from(secs).unwrap_or(i64::MAX));
    }

    /// An attempt to obtain a certificate from the ACME CA failed.
    pub(crate) fn acme_failed(&self) {
        self.acme_failures.inc();
    }

    /// Connections open now, over every transport.
    pub(crate) fn open_connections(&self) -> u64 {
        [Transport::Quic, Transport::Webtransport, Transport::Websocket]
            .into_iter()
            .map(|transport| {
                self.connections.get_or_create(&TransportLabels { transport }).get().max(0) as u64
            })
            .sum()
    }

    /// The exposition, with the live counts as of now.
    pub(crate) fn encode(&self, live_matches: usize, sessions: usize) -> String {
        self.live_matches.set(i64::try_from(live_matches).unwrap_or(i64::MAX));
        self.sessions.set(i64::try_from(sessions).unwrap_or(i64::MAX));
        let mut text = String::new();
        prometheus_client::encoding::text::encode(&mut text, &self.registry)
            .expect("writing to a String cannot fail");
        text
    }

    /// A connection opens; it counts until the guard is dropped.
    pub(crate) fn connection(&self, transport: Transport) -> ConnectionGuard {
        let gauge = self.connections.get_or_create(&TransportLabels { transport }).clone();
        gauge.inc();
        ConnectionGuard(gauge)
    }

    pub(crate) fn moved(&self, outcome: Outcome, seconds: f64) {
        self.moves.get_or_create(&OutcomeLabels { outcome }).inc();
        self.move_seconds.observe(seconds);
    }

    pub(crate) fn committed(&self, matches: usize, seconds: f64) {
        self.commit_batch.observe(matches as f64);
        self.commit_seconds.observe(seconds);
    }

    pub(crate) fn storage_error(&self) {
        self.storage_errors.inc();
    }

    /// Whether the last group commit failed for want of space (cleared by the next that succeeds).
    pub(crate) fn set_storage_full(&self, full: bool) {
        self.storage_full.set(i64::from(full));
    }

    pub(crate) fn refused(&self, limit: Refusal) {
        self.refused.get_or_create(&RefusalLabels { limit }).inc();
    }

    /// The analysis thread took a position.
    pub(crate) fn analysing(&self) {
        self.analyses.inc();
    }

    /// A position asked of the engine until the guard is dropped (answered, or its asker gone).
    pub(crate) fn analysis_pending(self: &Arc<Self>) -> Pending {
        self.analyses_pending.inc();
        Pending(self.clone())
    }

    /// The engine failed on a position.
    pub(crate) fn analysis_failed(&self) {
        self.analysis_failures.inc();
    }

    /// Positions the engine failed on.
    #[cfg(test)]
    pub(crate) fn analysis_failures(&self) -> u64 {
        self.analysis_failures.get()
    }

    /// Positions the analysis thread has taken.
    #[cfg(test)]
    pub(crate) fn analyses(&self) -> u64 {
        self.analyses.get()
    }

    pub(crate) fn fell_behind(&self) {
        self.behind.inc();
    }

    /// A QUIC handshake was answered with a Retry.
    pub(crate) fn retried(&self) {
        self.retries.inc();
    }
}

/// Counts one open connection while it lives.
pub(crate) struct ConnectionGuard(Gauge);

impl Drop for ConnectionGuard {
    fn drop(&mut self) {
        self.0.dec();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_exposition_names_every_metric_and_follows_what_happens() {
        let m = Metrics::new();
        let guard = m.connection(Transport::Websocket);
        m.moved(Outcome::Accepted, 0.002);
        m.committed(3, 0.001);
        m.refused(Refusal::RateLimited);
        let text = m.encode(7, 9);
        for line in [
            "shvedka_live_matches 7",
            "shvedka_sessions 9",
            "shvedka_connections{transport=\"Websocket\"} 1",
            "shvedka_moves_total{outcome=\"Accepted\"} 1",
            "shvedka_move_seconds_count 1",
            "shvedka_commit_batch_matches_sum 3.0",
            "shvedka_refused_total{limit=\"RateLimited\"} 1",
            "shvedka_storage_errors_total 0",
            "shvedka_followers_behind_total 0",
        ] {
            assert!(text.lines().any(|l| l == line), "no `{line}` in\n{text}");
        }
        drop(guard);
        assert!(m.encode(0, 0).lines().any(|l| l == "shvedka_connections{transport=\"Websocket\"} 0"));
    }

    /// Issue 61: a labelled series is there at 0 before its first event (an operator's alert on
    /// `shvedka_refused_total{limit="MaxConnections"}` has something to read from the start).
    #[test]
    fn every_labelled_series_is_shown_at_zero_before_its_first_event() {
        let text = Metrics::new().encode(0, 0);
        let mut expected: Vec<String> = Refusal::ALL
            .iter()
            .map(|limit| format!("shvedka_refused_total{{limit=\"{limit:?}\"}} 0"))
            .collect();
        expected.extend(
            ["Quic", "Webtransport", "Websocket"]
                .map(|t| format!("shvedka_connections{{transport=\"{t}\"}} 0")),
        );
        expected.extend(["Accepted", "Refused"].map(|o| format!("shvedka_moves_total{{outcome=\"{o}\"}} 0")));
        for line in &expected {
            assert!(text.lines().any(|l| l == line), "no `{line}` in\n{text}");
        }
    }
}
