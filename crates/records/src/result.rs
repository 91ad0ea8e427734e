//! The team result of a record and how BPGN writes it.
//!
//! BPGN inherits PGN's `1-0` / `0-1` / `1/2-1/2` / `*`. In bughousedb and FICS exports `1-0` means
//! the team with White on board A won: that is team 1 (White-A and Black-B, RULES.md S1); `0-1`
//! means team 2 (Black-A and White-B) won. A match result is never the result of one board.

use bughouse::{MatchResult, Team};

/// How a match ended.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RecordResult {
    /// The winning team, or a draw.
    pub outcome: MatchResult,
    /// Why, in words (tag `Termination`, or the comment before the result token).
    pub reason: Option<String>,
    /// The RULES.md id of the ending rule, e.g. `E1` (tag `TerminationRule`).
    pub rule: Option<String>,
}

impl RecordResult {
    /// A result without reason.
    pub fn new(outcome: MatchResult) -> RecordResult {
        RecordResult { outcome, reason: None, rule: None }
    }

    /// The BPGN result token: `1-0` team 1 won, `0-1` team 2 won, `1/2-1/2` drawn.
    pub fn token(&self) -> &'static str {
        outcome_token(self.outcome)
    }
}

pub(crate) fn outcome_token(outcome: MatchResult) -> &'static str {
    match outcome {
        MatchResult::Win(Team::One) => "1-0",
        MatchResult::Win(Team::Two) => "0-1",
        MatchResult::Draw => "1/2-1/2",
    }
}

/// Reads a result token: `Some(Some(_))` decided, `Some(None)` for `*`, `None` if not a token.
pub(crate) fn parse_token(text: &str) -> Option<Option<MatchResult>> {
    match text {
        "1-0" => Some(Some(MatchResult::Win(Team::One))),
        "0-1" => Some(Some(MatchResult::Win(Team::Two))),
        "1/2-1/2" => Some(Some(MatchResult::Draw)),
        "*" => Some(None),
        _ => None,
    }
}

/// The result token for a record result (`*` for none).
pub(crate) fn token_of(result: Option<&RecordResult>) -> &'static str {
    result.map_or("*", RecordResult::token)
}
