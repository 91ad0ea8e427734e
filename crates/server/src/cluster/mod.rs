//! Cluster mode: several nodes serving one lobby, PostgreSQL holding everything durable (and each
//! match's lease, so exactly one node runs a match at a time), NATS carrying messages between the
//! nodes. Configured by `[cluster]` (`settings.rs`); without it the server is one node.

mod settings;

pub use settings::ClusterConfig;
