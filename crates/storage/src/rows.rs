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
    /// When the session was last seen (opened, resumed or closed), milliseconds since the Unix
    /// epoch: its token expires a configured time after this.
    pub last_seen_ms: u64,
    /// The account the session logged in as; `None` for a guest.
    pub account: Option<u64>,
    /// Logged out (or ended by a password change): it never resumes.
    pub revoked: bool,
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
    /// A private match's invitation code, as its SHA-256 (lower-case hex); `None` for a match
    /// reached by its id.
    pub invite_hash: Option<String>,
    /// Rated: deciding it changes its four players' ratings (issue 18); casual otherwise.
    pub rated: bool,
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
    /// How it ended, if it did.
    pub ending: Option<Ending>,
}

/// How a match ended. A match that has ended is never restored at start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Decided: it has a result.
    Decided,
    /// Annulled by the arbiter (to be replayed as a new match).
    Annulled,
    /// Expired while forming (nobody played it).
    Expired,
}

impl Ending {
    /// The stored word.
    pub fn as_str(self) -> &'static str {
        match self {
            Ending::Decided => "decided",
            Ending::Annulled => "annulled",
            Ending::Expired => "expired",
        }
    }

    /// Reads a stored word.
    pub fn parse(text: &str) -> Option<Ending> {
        [Ending::Decided, Ending::Annulled, Ending::Expired].into_iter().find(|e| e.as_str() == text)
    }
}

/// One match's events in an append ([`Store::append_batch`](crate::Store::append_batch)).
#[derive(Clone, Copy, Debug)]
pub struct Appending<'a> {
    /// The match.
    pub match_id: u64,
    /// The lease fence its appender took the match under (a node of a cluster), `None` if it
    /// holds none. A node refuses the append unless this is still the match's current fence and
    /// the lease its own: a match task that was let go is refused even when its node has taken
    /// the match back since, under a newer fence, for a new task that read the log without the
    /// old one's last events. Other stores have no fences and ignore it.
    pub fence: Option<u64>,
    /// Its events, in order.
    pub events: &'a [EventRow],
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
