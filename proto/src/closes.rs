//! Why the server closed a connection, as its QUIC application close code says: a fact a client
//! reads without parsing words. A connection refused at a limit before any session (the server
//! holds `max_connections`, or its address holds `max_connections_per_address`) is closed with
//! [`CLOSE_LIMIT`] and a reason of the limit's configuration key and value, `max_connections 5000`,
//! from which the client says which limit, in its own language.

use crate::Limit;

/// The application close code of a connection refused at a limit (codes 0–4 are PROTOCOL.md's).
pub const CLOSE_LIMIT: u32 = 5;

/// The close reason naming `limit` and its configured `value`, or `None` for a limit that never
/// refuses a connection.
#[must_use]
pub fn limit_close_reason(limit: Limit, value: u64) -> Option<String> {
    let key = match limit {
        Limit::Connections => "max_connections",
        Limit::ConnectionsPerAddress => "max_connections_per_address",
        _ => return None,
    };
    Some(format!("{key} {value}"))
}

/// The limit and value a [`CLOSE_LIMIT`] reason names; `None` for any other reason.
#[must_use]
pub fn limit_of_close_reason(reason: &[u8]) -> Option<(Limit, u64)> {
    let text = std::str::from_utf8(reason).ok()?;
    let (key, value) = text.split_once(' ')?;
    let limit = match key {
        "max_connections" => Limit::Connections,
        "max_connections_per_address" => Limit::ConnectionsPerAddress,
        _ => return None,
    };
    Some((limit, value.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both limits a connection is refused at go there and back; nothing else is read as one.
    #[test]
    fn a_limit_close_reason_names_its_limit_and_value() {
        for limit in [Limit::Connections, Limit::ConnectionsPerAddress] {
            let reason = limit_close_reason(limit, 200).expect("a connection limit");
            assert_eq!(limit_of_close_reason(reason.as_bytes()), Some((limit, 200)), "{reason}");
        }
        assert_eq!(limit_close_reason(Limit::Matches, 1), None, "a match limit refuses requests only");
        for other in [&b"cannot keep up"[..], b"max_connections", b"max_connections x", b"\xff 1", b"bye"] {
            assert_eq!(limit_of_close_reason(other), None, "{:?}", String::from_utf8_lossy(other));
        }
    }
}
