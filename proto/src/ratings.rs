//! Ratings on the wire (version 5): what a rated match changed, a category's leaderboard, and a
//! player's profile. Numbers travel as the players see them — a rating rounded to a whole point,
//! its deviation likewise — with the provisional mark the server decides, so clients never redo
//! the mathematics.

use serde::{Deserialize, Serialize};

use crate::{MatchId, PlayerKind, RecentMatch, SeatId};

/// A player's rating in one category (`bullet`, `blitz`, `rapid`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RatingView {
    /// The category.
    pub category: String,
    /// The rating, rounded.
    pub rating: i32,
    /// Its uncertainty (Glicko-2 rating deviation), rounded.
    pub deviation: u32,
    /// Rated matches played in the category.
    pub games: u64,
    /// Still uncertain: shown with a mark, and not ranked on the leaderboard.
    pub provisional: bool,
}

/// What a rated match made of one player's rating.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RatingChange {
    /// The player's seat in the match.
    pub seat: SeatId,
    /// The player's name.
    pub name: String,
    /// The category the match was rated in.
    pub category: String,
    /// The rating before, rounded.
    pub before: i32,
    /// The rating after, rounded.
    pub after: i32,
    /// The deviation after, rounded.
    pub deviation: u32,
    /// Provisional after the match.
    pub provisional: bool,
}

/// One line of a leaderboard.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeaderRow {
    /// Place, from 1.
    pub rank: u32,
    /// The player.
    pub name: String,
    /// The numbers.
    pub rating: RatingView,
}

/// One point of a rating's history: the rating after a rated match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HistoryPoint {
    /// The match.
    pub match_id: MatchId,
    /// When it was decided, ms since the Unix epoch.
    pub at_ms: u64,
    /// The rating before it, rounded.
    pub before: i32,
    /// The rating after it, rounded.
    pub after: i32,
}

/// A partnership: the partner, and the pair's own rating in one category.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartnerView {
    /// The partner's name.
    pub name: String,
    /// The partnership's rating (the pair rated as one player), with its games together.
    pub rating: RatingView,
}

/// A category of a profile: the rating, its recent history (newest first), and the favourite
/// partners there (most games together first).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CategoryProfile {
    /// The player's rating.
    pub rating: RatingView,
    /// The latest rated matches, newest first.
    pub history: Vec<HistoryPoint>,
    /// The partnerships, most games together first.
    pub partners: Vec<PartnerView>,
}

/// A player's profile (`ClientMsg::Profile`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProfileView {
    /// The name as registered.
    pub name: String,
    /// Account or bot account.
    pub kind: PlayerKind,
    /// Since when, ms since the Unix epoch.
    pub created_ms: u64,
    /// Every category the player has a rating in.
    pub categories: Vec<CategoryProfile>,
    /// The recent matches, newest first (as `ClientMsg::RecentMatches` answers).
    pub recent: Vec<RecentMatch>,
}
