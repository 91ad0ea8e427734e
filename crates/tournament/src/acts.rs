//! The directors' acts, each with who made it: the tournament keeps them in its state (stored
//! whole by the server), so it can always say which director registered a team, paired a round
//! or entered a result — an account holding the director role, or a session that presented the
//! directors' shared secret (how the first director is bootstrapped).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::Tournament;

/// Who made a director's act.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Director {
    /// An account that holds the director role, by its registered name.
    Account(String),
    /// A session that presented the directors' shared secret, not an account holding the role.
    Secret,
}

impl fmt::Display for Director {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Director::Account(name) => f.write_str(name),
            Director::Secret => f.write_str("secret"),
        }
    }
}

/// One act of a director, as the tournament's log keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DirectorAct {
    /// When, Unix milliseconds (passed in, never read).
    pub at_ms: u64,
    /// Who made it.
    pub by: Director,
    /// What was done, in words (`registered team Rooks (alice, bob)`).
    pub what: String,
}

impl Tournament {
    /// Logs a director's act (the caller logs each act it carried out, refused ones not).
    pub fn note_act(&mut self, act: DirectorAct) {
        self.acts.push(act);
    }

    /// The directors' acts, oldest first.
    pub fn acts(&self) -> &[DirectorAct] {
        &self.acts
    }
}
