//! Teams and the names people give things.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::TournamentError;

/// The longest tournament or team name, in characters.
pub const MAX_NAME: usize = 64;
/// The longest player name, in characters.
pub const MAX_PLAYER_NAME: usize = 32;

/// A team's number: 1 for the first team registered, 2 for the next, and so on. Numbers are never
/// reused, not even for a team that withdrew before the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct TeamNo(pub u32);

impl fmt::Display for TeamNo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// A team of two players (RULES.md S1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Team {
    /// Its number.
    pub id: TeamNo,
    /// Its name, unique in the tournament ignoring case.
    pub name: String,
    /// Its players, in the order registered: "first player" and "second player" in the seating
    /// choice ([`crate::SeatingChoice`]) mean these.
    pub players: [String; 2],
    /// Whether it has withdrawn. Before the start this takes it out of the draw; after, it is not
    /// paired in later rounds and its unplayed games are forfeited.
    pub withdrawn: bool,
}

/// Checks a name: 1 to `max` characters, not only spaces, no control characters (which would
/// break the aligned text exports and the pairing sheets).
pub(crate) fn check_name(field: &'static str, value: &str, max: usize) -> Result<(), TournamentError> {
    let len = value.chars().count();
    if len == 0 || len > max || value.trim().is_empty() || value.chars().any(char::is_control) {
        return Err(TournamentError::InvalidName { field, value: value.to_owned(), max });
    }
    Ok(())
}

/// The form of a name two names are compared in: trimmed, lower case.
pub(crate) fn name_key(name: &str) -> String {
    name.trim().to_lowercase()
}
