//! What the core tells the layers above it about a match's end. The match task rates a decided
//! rated match before it stores the result (so a decision found only in the log at start is rated
//! then), and its supervisor hands what the task returns to whoever keeps offers of decided
//! matches (rematches). Ratings and rematches are features: the core calls this trait and the
//! feature layer implements it (`features::outcomes`), so no file of the core imports a feature.

use bughouse_match::{PlayerId, TimeControl};
use shvedka_proto::{MatchId, PlayerKind, RatingChange, TeamId};
use shvedka_storage::StoreError;

/// A decided match, as rating it needs it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Decided<'a> {
    /// The match.
    pub(crate) match_id: u64,
    /// Its time control.
    pub(crate) time_control: TimeControl,
    /// Its players, by seat.
    pub(crate) names: &'a [Option<String>; 4],
    /// The winning team; `None` for a draw.
    pub(crate) winner: Option<TeamId>,
}

/// A match whose task ended decided or annulled, as a rematch needs it.
#[derive(Clone, Debug)]
pub(crate) struct Finished {
    pub(crate) id: MatchId,
    /// The rules preset's name.
    pub(crate) rules: String,
    pub(crate) time_control: String,
    pub(crate) listed: bool,
    pub(crate) chess960: bool,
    /// Rated (its rematch is too).
    pub(crate) rated: bool,
    /// The four players (player and name) by seat; a match decided with a seat empty (an
    /// arbiter's act on a forming match) has no rematch.
    pub(crate) players: [(PlayerId, String); 4],
    /// The players' kinds, by seat.
    pub(crate) kinds: [PlayerKind; 4],
    /// Whether it may have a rematch (a tournament game may not).
    pub(crate) rematch: bool,
}

/// What the core calls when a match is decided or its task ends.
#[async_trait::async_trait]
pub(crate) trait MatchHooks: Send + Sync {
    /// Rates a decided rated match (once: a match rated before reports the changes it made) and
    /// returns the changes as players see them. Called in the deciding match task, before its
    /// result is stored (the task retries while it fails), and for a match found decided in its
    /// log at start or at a take-over (where a failure fails the restore).
    async fn rate(&self, decided: Decided<'_>) -> Result<Vec<RatingChange>, StoreError>;

    /// The changes the decided rated match `match_id` made, as stored (none before it is rated).
    async fn rating_changes(
        &self,
        match_id: u64,
        time_control: &TimeControl,
        names: &[Option<String>; 4],
    ) -> Result<Vec<RatingChange>, StoreError>;

    /// Whether a bot may sit in a rated match.
    fn rates_bots(&self) -> bool;

    /// A match's task ended with the match decided or annulled.
    fn ended(&self, finished: Finished);
}

/// Hooks for the core's own tests: no match is rated, nothing is kept of ended matches.
#[cfg(test)]
pub(crate) struct Unrated;

#[cfg(test)]
#[async_trait::async_trait]
impl MatchHooks for Unrated {
    async fn rate(&self, _: Decided<'_>) -> Result<Vec<RatingChange>, StoreError> {
        Ok(Vec::new())
    }

    async fn rating_changes(
        &self,
        _: u64,
        _: &TimeControl,
        _: &[Option<String>; 4],
    ) -> Result<Vec<RatingChange>, StoreError> {
        Ok(Vec::new())
    }

    fn rates_bots(&self) -> bool {
        false
    }

    fn ended(&self, _: Finished) {}
}
