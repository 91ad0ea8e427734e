//! The end of a `shvedka load` run: a verdict against the targets it was given (`--target-p99-ms`,
//! `--target-served-percent`) and, when they are not met, the settings to change. An operator
//! sizing a server for a night reads one line that says whether it will do, and what to raise —
//! not a row of figures to interpret.

use std::collections::BTreeMap;
use std::io::Write;

use shvedka_client::ClientError;
use shvedka_proto::{ErrorCode, Limit, SessionRefusal};

/// What the run was to show.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Targets {
    /// A move sent until all four players have its event, 99th percentile, at most this.
    pub(crate) p99_ms: f64,
    /// Of the moves answered within the run (not refused by the rules), at least this share
    /// served, percent.
    pub(crate) served_percent: f64,
}

/// Why a match could not be set up: a limit of the server's (its configuration key), or anything
/// else, in the client's words.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum SetupFailure {
    /// The configuration key of the limit that refused it.
    Limit(&'static str),
    /// Another failure.
    Other(String),
}

impl std::fmt::Display for SetupFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SetupFailure::Limit(FULL) => f.write_str("connections refused before their handshake"),
            SetupFailure::Limit(key) => write!(f, "refused at {key}"),
            SetupFailure::Other(e) => f.write_str(e),
        }
    }
}

/// The keys behind a connection refused before its handshake (`ErrorCode::Full`).
const FULL: &str = "new_connections_per_address_per_second or max_connections";

impl SetupFailure {
    /// What a failed setup says, as a fact where the server gave one.
    pub(crate) fn of(e: &ClientError) -> SetupFailure {
        let code = match e {
            ClientError::Server(m) | ClientError::Refused(m) => Some(m.code),
            _ => None,
        };
        match code.and_then(limit_key) {
            Some(key) => SetupFailure::Limit(key),
            None => SetupFailure::Other(e.to_string()),
        }
    }
}

/// The configuration key behind a refusal a load run can meet.
pub(crate) fn limit_key(code: ErrorCode) -> Option<&'static str> {
    Some(match code {
        ErrorCode::Limit(Limit::Connections) => "max_connections",
        ErrorCode::Limit(Limit::ConnectionsPerAddress) => "max_connections_per_address",
        ErrorCode::Limit(Limit::Matches) => "max_matches",
        ErrorCode::Limit(Limit::OpenMatches) => "max_open_matches_per_session",
        ErrorCode::Session(SessionRefusal::TooManyGuests) => "guest_sessions_per_address_per_hour",
        ErrorCode::RateLimited => "rate_per_second",
        ErrorCode::Full => FULL,
        _ => return None,
    })
}

/// What the run saw.
#[derive(Debug, Default)]
pub(crate) struct Observed {
    pub(crate) matches_asked: usize,
    pub(crate) setup_failures: BTreeMap<SetupFailure, u64>,
    /// Connections the run needed (four a match, and the spectators).
    pub(crate) connections: usize,
    pub(crate) offered: u64,
    pub(crate) served: u64,
    /// Moves the rules refused (the position changed under them, the match ended).
    pub(crate) refused: u64,
    /// Moves still on their way when the run stopped.
    pub(crate) in_flight: u64,
    /// Moves refused for the connection's request rate.
    pub(crate) rate_limited: u64,
    pub(crate) errors: u64,
    pub(crate) disconnected: u64,
    pub(crate) p99_ms: f64,
    /// Matches the run could not end (left live on the server).
    pub(crate) left_live: u64,
}

impl Observed {
    /// Served, percent of the moves answered within the run (neither refused by the rules nor
    /// still on their way at its end); 100 when there were none.
    pub(crate) fn served_percent(&self) -> f64 {
        let answerable = self.offered.saturating_sub(self.refused + self.in_flight);
        if answerable == 0 { 100.0 } else { self.served as f64 * 100.0 / answerable as f64 }
    }
}

/// Whether the targets were met, with what fell short and what to change.
#[derive(Debug)]
pub(crate) struct Verdict {
    pub(crate) met: bool,
    /// What held (met) or fell short (not met), one clause each.
    pub(crate) findings: Vec<String>,
    /// The settings to change, one line each.
    pub(crate) changes: Vec<String>,
}

/// Weighs what was observed against the targets.
pub(crate) fn weigh(o: &Observed, t: Targets) -> Verdict {
    let (mut short, mut changes) = (Vec::new(), Vec::new());
    let set_up = o.matches_asked.saturating_sub(o.setup_failures.values().sum::<u64>() as usize);
    for (why, n) in &o.setup_failures {
        match why {
            SetupFailure::Limit(key) => {
                short.push(format!("{n} of {} matches could not be set up: {why}", o.matches_asked));
                changes.push(match *key {
                    "max_connections" => format!(
                        "raise max_connections to at least {} (this run's connections: four a match and \
                         the spectators)",
                        o.connections
                    ),
                    "max_matches" => format!("raise max_matches to at least {}", o.matches_asked),
                    "rate_per_second" => "raise rate_per_second and rate_burst".to_owned(),
                    FULL => "raise new_connections_per_address_per_second (every player of a load run comes \
                             from one address; see shvedka_refused_total{limit=\"ConnectionRate\"}), or \
                             max_connections (shvedka_refused_total{limit=\"MaxConnections\"})"
                        .to_owned(),
                    key => format!("raise {key} (every player of a load run comes from one address)"),
                });
            }
            SetupFailure::Other(e) => {
                short.push(format!("{n} of {} matches could not be set up: {e}", o.matches_asked));
            }
        }
    }
    if set_up == 0 {
        short.push("no match was set up".to_owned());
    }
    let p99_met = o.p99_ms <= t.p99_ms;
    if !p99_met {
        short.push(format!("p99 {:.1} ms is over the target's {} ms", o.p99_ms, t.p99_ms));
        changes.push(
            "the server is too slow at this size: fewer matches a node, a faster machine or more nodes \
             (/metrics: shvedka_move_seconds is the server's own time a move, shvedka_commit_seconds \
             its storage's)"
                .to_owned(),
        );
    }
    let served = o.served_percent();
    if served < t.served_percent {
        short.push(format!("{served:.1} % of the moves served, under the target's {} %", t.served_percent));
    }
    if o.rate_limited > 0 {
        short.push(format!("{} moves refused for the request rate", o.rate_limited));
        changes.push("raise rate_per_second and rate_burst, or play at a slower --pace-ms".to_owned());
    }
    if o.errors > 0 {
        short.push(format!("{} requests got no answer", o.errors));
        changes.push("read the server's log for the requests that failed (storage errors first)".to_owned());
    }
    if o.disconnected > 0 {
        short.push(format!("{} connections lost", o.disconnected));
        changes.push(
            "connections lost: raise udp_recv_buffer (and the kernel's net.core.rmem_max, which the \
             server's log names when it grants less), or fewer matches"
                .to_owned(),
        );
    }
    if o.left_live > 0 {
        short.push(format!("{} matches could not be ended and are left live", o.left_live));
    }
    if short.is_empty() {
        let findings = vec![
            format!("{set_up} matches played"),
            format!("p99 {:.1} ms (target ≤ {} ms)", o.p99_ms, t.p99_ms),
            format!("{served:.1} % of the moves served (target ≥ {} %)", t.served_percent),
            "no errors, no connections lost".to_owned(),
        ];
        return Verdict { met: true, findings, changes };
    }
    changes.dedup();
    Verdict { met: false, findings: short, changes }
}

impl Verdict {
    /// `verdict: met — …` or `verdict: NOT MET — …` and a `  change: …` line per setting.
    pub(crate) fn print(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let head = if self.met { "met" } else { "NOT MET" };
        writeln!(out, "verdict: {head} — {}", self.findings.join("; "))?;
        for change in &self.changes {
            writeln!(out, "  change: {change}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TARGETS: Targets = Targets { p99_ms: 50.0, served_percent: 99.0 };

    fn good() -> Observed {
        Observed {
            matches_asked: 10,
            connections: 40,
            offered: 1000,
            served: 950,
            refused: 40,
            in_flight: 10,
            p99_ms: 12.0,
            ..Observed::default()
        }
    }

    /// A run within its targets is met; the rules' refusals and the moves on their way at the
    /// end are not counted against it.
    #[test]
    fn a_run_within_its_targets_is_met_and_names_what_held() {
        let v = weigh(&good(), TARGETS);
        assert!(v.met, "{v:?}");
        assert!(v.changes.is_empty());
        assert!(v.findings.iter().any(|f| f == "100.0 % of the moves served (target ≥ 99 %)"), "{v:?}");
    }

    /// Each shortfall is named with the setting to change.
    #[test]
    fn each_shortfall_names_the_setting_to_change() {
        let mut o = good();
        o.setup_failures.insert(SetupFailure::Limit("max_connections"), 3);
        o.p99_ms = 80.0;
        o.disconnected = 2;
        o.rate_limited = 5;
        let v = weigh(&o, TARGETS);
        assert!(!v.met);
        let changes = v.changes.join("\n");
        assert!(changes.contains("raise max_connections to at least 40"), "{changes}");
        assert!(changes.contains("shvedka_move_seconds"), "{changes}");
        assert!(changes.contains("udp_recv_buffer"), "{changes}");
        assert!(changes.contains("rate_per_second"), "{changes}");
        let findings = v.findings.join("; ");
        assert!(
            findings.contains("3 of 10 matches could not be set up: refused at max_connections"),
            "{findings}"
        );
        assert!(findings.contains("p99 80.0 ms is over the target's 50 ms"), "{findings}");
        let mut o = good();
        o.served = 900;
        let v = weigh(&o, TARGETS);
        assert!(!v.met && v.findings[0].contains("94.7 % of the moves served"), "{v:?}");
    }

    /// A limit's refusal is read from its code, never from its words.
    #[test]
    fn a_setup_refused_at_a_limit_is_known_by_its_code() {
        let refused = |code| {
            ClientError::Refused(shvedka_proto::ErrorMsg { code, rule: None, message: "anything".into() })
        };
        assert_eq!(
            SetupFailure::of(&refused(ErrorCode::Limit(Limit::Connections))),
            SetupFailure::Limit("max_connections")
        );
        assert_eq!(
            SetupFailure::of(&refused(ErrorCode::Limit(Limit::Matches))),
            SetupFailure::Limit("max_matches")
        );
        assert_eq!(
            SetupFailure::of(&refused(ErrorCode::Full)).to_string(),
            "connections refused before their handshake",
            "said in words, not Debug"
        );
        let mut o = good();
        o.setup_failures.insert(SetupFailure::of(&refused(ErrorCode::Full)), 19);
        let v = weigh(&o, TARGETS);
        assert!(
            v.changes.iter().any(|c| c.starts_with("raise new_connections_per_address_per_second")),
            "{v:?}"
        );
        assert_eq!(
            SetupFailure::of(&ClientError::Connection("timed out".into())),
            SetupFailure::Other("connection: timed out".into())
        );
    }
}
