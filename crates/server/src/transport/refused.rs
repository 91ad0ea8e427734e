//! A connection refused at a limit is told which one, and the operator reads it in the log.
//!
//! A QUIC (or WebTransport) connection refused at `max_connections` or
//! `max_connections_per_address` is accepted and closed at once with [`CLOSE_LIMIT`] and the
//! limit's key and value (PROTOCOL.md, Session), so the player reads "the server holds as many
//! connections as it may" rather than a timeout; at most [`TELLING`] such handshakes are in flight
//! (each costs one), and a connection refused for opening too fast is refused without one — a
//! flood is never answered with handshakes. The log says each limit's first refusal at once and
//! then at most one line per [`LOG_EVERY`] with how many came since, so the operator learns which
//! setting to raise without a flood filling the log.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use shvedka_proto::{CLOSE_LIMIT, Limit, limit_close_reason};
use tokio::sync::Semaphore;
use tokio::time::Instant;

use crate::service::metrics::Refusal;

/// Refused QUIC connections being told why at once.
pub(crate) const TELLING: usize = 64;

/// How long a refused connection's handshake may take before it is dropped untold.
const TELL_WAIT: Duration = Duration::from_secs(3);

/// At most one log line per limit this often (the first refusal is logged at once).
pub(crate) const LOG_EVERY: Duration = Duration::from_secs(10);

/// The configuration key of a limit that refuses connections.
pub(crate) fn key(limit: Refusal) -> &'static str {
    match limit {
        Refusal::ConnectionsPerAddress => "max_connections_per_address",
        Refusal::ConnectionRate => "new_connections_per_address_per_second",
        _ => "max_connections",
    }
}

/// The refusals of each limit since its last log line.
#[derive(Debug, Default)]
pub(crate) struct RefusalLog {
    limits: Mutex<HashMap<Refusal, Tally>>,
}

#[derive(Debug)]
struct Tally {
    logged: Instant,
    since: u64,
}

impl RefusalLog {
    /// Counts a refusal at `limit`; `Some(n)` when a line is due now, `n` being the refusals it
    /// speaks for (this one included).
    pub(crate) fn count(&self, limit: Refusal) -> Option<u64> {
        let now = Instant::now();
        let mut limits = self.limits.lock().expect("refusal log lock");
        match limits.get_mut(&limit) {
            None => {
                limits.insert(limit, Tally { logged: now, since: 0 });
                Some(1)
            }
            Some(t) => {
                t.since += 1;
                if now.duration_since(t.logged) < LOG_EVERY {
                    return None;
                }
                let n = std::mem::take(&mut t.since);
                t.logged = now;
                Some(n)
            }
        }
    }

    /// Counts a refused connection from `remote` over `transport` and logs it when a line is due.
    pub(crate) fn note(&self, limit: Refusal, value: u64, remote: impl std::fmt::Display, transport: &str) {
        if let Some(n) = self.count(limit) {
            tracing::warn!(
                %remote,
                transport,
                refused = n,
                "connection refused: {} = {value} reached ({n} refused since the last line, at most \
                 one line per {} s); raise it in the server's config if these are players",
                key(limit),
                LOG_EVERY.as_secs()
            );
        }
    }
}

/// What a refused HTTP or WebSocket connection is told (a `503`'s body): the limit and its value.
pub(crate) fn words(limit: Refusal, value: u64) -> String {
    let whose = if limit == Refusal::MaxConnections { "the server" } else { "this address" };
    format!("{whose} holds as many connections as it may ({} = {value})", key(limit))
}

/// The protocol's name of a connection limit, if the refused connection is told (a connection
/// refused for opening too fast is not).
fn told(limit: Refusal) -> Option<Limit> {
    match limit {
        Refusal::MaxConnections => Some(Limit::Connections),
        Refusal::ConnectionsPerAddress => Some(Limit::ConnectionsPerAddress),
        _ => None,
    }
}

/// Refuses a QUIC connection at `limit` (configured at `value`): accepted and closed with the
/// limit's name when it is one a client is told and a place among [`TELLING`] is free, else
/// refused without a handshake.
pub(crate) fn refuse_quic(incoming: quinn::Incoming, limit: Refusal, value: u64, telling: &Arc<Semaphore>) {
    let reason = told(limit).and_then(|l| limit_close_reason(l, value));
    let (Some(reason), Ok(place)) = (reason, telling.clone().try_acquire_owned()) else {
        incoming.refuse();
        return;
    };
    let Ok(connecting) = incoming.accept() else { return };
    tokio::spawn(async move {
        let _place = place;
        if let Ok(Ok(conn)) = tokio::time::timeout(TELL_WAIT, connecting).await {
            conn.close(CLOSE_LIMIT.into(), reason.as_bytes());
            // The close is sent by the endpoint's driver; the connection's state goes with it.
            let _ = tokio::time::timeout(TELL_WAIT, conn.closed()).await;
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A flood of refusals is one line at once and then one per `LOG_EVERY` with the count.
    #[tokio::test(start_paused = true)]
    async fn refusals_are_logged_at_once_and_then_once_per_period_with_their_count() {
        let log = RefusalLog::default();
        assert_eq!(log.count(Refusal::MaxConnections), Some(1), "the first at once");
        for _ in 0..99 {
            assert_eq!(log.count(Refusal::MaxConnections), None, "within the period");
        }
        assert_eq!(log.count(Refusal::ConnectionsPerAddress), Some(1), "each limit has its own line");
        tokio::time::advance(LOG_EVERY).await;
        assert_eq!(log.count(Refusal::MaxConnections), Some(100), "the 99 held back and this one");
        assert_eq!(log.count(Refusal::MaxConnections), None);
        tokio::time::advance(LOG_EVERY).await;
        assert_eq!(log.count(Refusal::MaxConnections), Some(2));
    }
}
