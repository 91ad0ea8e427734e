//! Why a request forwarded to another node has no answer, and what the player is told then: the
//! node stopped (nothing was done), did not answer in time (it may have been done), was not heard
//! on NATS lately, or speaks another wire version (another build: nothing was sent). Each becomes
//! an `Unavailable` refusal that says which, so a client shows the player what to expect.

use std::time::Duration;

use shvedka_proto::{ErrorCode, ErrorMsg, MatchId};

use crate::service::convert::error;

/// Why a forwarded request has no answer.
#[derive(Debug)]
pub(crate) enum Unreached {
    /// Nobody heard it (the node is gone): nothing was done.
    Gone,
    /// It went unanswered in time: it may have been done.
    Unanswered,
    /// The node speaks this wire version, not this node's (another build): it was not sent.
    OtherWire(String),
}

/// Refused at once: node `node`, which `does` (runs match 7, the tournaments …), speaks another
/// wire version.
pub(crate) fn other_wire(node: &str, wire: &str, does: &str) -> ErrorMsg {
    let its = if wire.is_empty() {
        "an older build, of no wire version".to_owned()
    } else {
        format!("wire version {wire}")
    };
    error(
        ErrorCode::Unavailable,
        format!(
            "node {node}, which {does}, runs another build of shvedka ({its}; this node {}): the two cannot \
             ask each other anything until every node of the cluster runs the same build",
            crate::cluster::wire::version()
        ),
    )
}

pub(crate) fn moving(id: MatchId, node: &str) -> ErrorMsg {
    error(
        ErrorCode::Unavailable,
        format!(
            "node {node}, which ran match {id}, stopped; another node takes the match over within seconds: try again"
        ),
    )
}

pub(crate) fn unheard(id: MatchId, node: &str, quiet: Duration) -> ErrorMsg {
    error(
        ErrorCode::Unavailable,
        format!(
            "node {node}, which runs match {id}, has not been heard on NATS for {} ms (it or this node is cut \
             off); if it is, another node takes the match over within seconds: try again",
            quiet.as_millis()
        ),
    )
}

pub(crate) fn unanswered(id: MatchId, node: &str) -> ErrorMsg {
    error(
        ErrorCode::Unavailable,
        format!(
            "node {node}, which runs match {id}, did not answer in time; if it was a move, its event tells"
        ),
    )
}
