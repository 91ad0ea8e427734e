//! The rows the store keeps, as plain values.

/// A player: a session of the server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRow {
    /// The player id of the match machine.
    pub id: u64,
    /// The name the player gave.
    pub name: String,
    /// SHA-256 of the session token, lower-case hex.
    pub token_hash: String,
    /// When the session began, milliseconds since the Unix epoch.
    pub created_ms: u64,
}

/// A match as created.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewMatch {
    /// Its id.
    pub id: u64,
    /// Rule preset name.
    pub rules: String,
    /// Time control as written (`3+0`).
    pub time_control: String,
    /// Shown in the lobby list.
    pub listed: bool,
    /// The match machine's whole config, JSON (what replay needs).
    pub config: String,
    /// Milliseconds since the Unix epoch.
    pub created_ms: u64,
}

/// A stored match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchRow {
    /// How it was created.
    pub created: NewMatch,
    /// When it was decided (milliseconds since the Unix epoch), if it was.
    pub finished_ms: Option<u64>,
    /// Its result, JSON, if decided.
    pub result: Option<String>,
}

/// One event of a match's log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventRow {
    /// Its place in the log, from 0.
    pub seq: u64,
    /// Match time, microseconds.
    pub at_us: u64,
    /// The match machine's event, JSON.
    pub event: String,
    /// The event as the wire shows it, JSON.
    pub view: String,
}
