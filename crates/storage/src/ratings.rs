//! Ratings as rows: each account's and each partnership's Glicko-2 numbers per category, and the
//! changes each rated match made, which are a player's rating history. The mathematics and the
//! rules of which match is rated are elsewhere (`shvedka-ratings`, the server); the store keeps
//! one promise of its own: a match's changes are applied once — [`Ratings::apply_rated`] writes
//! them and the new ratings in one transaction, and a second application of the same match
//! changes nothing.

use crate::StoreError;

/// Glicko-2's numbers for one account or partnership in one category.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatingRow {
    /// The rating.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
    /// Its volatility.
    pub volatility: f64,
    /// Rated matches played in the category.
    pub games: u64,
    /// When it last changed, milliseconds since the Unix epoch.
    pub updated_ms: u64,
}

/// One player's change in a rated match.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayerChange {
    /// The account.
    pub account: u64,
    /// His rating before the match.
    pub before: f64,
    /// His numbers after it (`games` counts it).
    pub after: RatingRow,
}

/// A rated match's outcome for the ratings: the four players and the two partnerships.
#[derive(Clone, Debug, PartialEq)]
pub struct RatedMatch {
    /// The match.
    pub match_id: u64,
    /// Its category (`bullet`, `blitz`, `rapid`).
    pub category: String,
    /// The four players' changes.
    pub players: Vec<PlayerChange>,
    /// Each partnership (its two accounts, lower id first) and its numbers after the match.
    pub pairs: Vec<((u64, u64), RatingRow)>,
    /// When it was decided.
    pub at_ms: u64,
}

/// A line of a player's rating history.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HistoryRow {
    /// The match.
    pub match_id: u64,
    /// Before it.
    pub before: f64,
    /// After it.
    pub after: f64,
    /// The deviation after it.
    pub deviation: f64,
    /// When it was decided.
    pub at_ms: u64,
}

/// A line of a leaderboard.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardRow {
    /// The account.
    pub account: u64,
    /// Its name.
    pub name: String,
    /// Its numbers.
    pub rating: RatingRow,
}

/// What the server keeps of ratings. Part of every [`crate::Store`].
#[async_trait::async_trait]
pub trait Ratings: Send + Sync {
    /// An account's rating in a category, if it has played one there.
    async fn rating(&self, account: u64, category: &str) -> Result<Option<RatingRow>, StoreError>;
    /// Every category an account has a rating in, by name.
    async fn ratings_of(&self, account: u64) -> Result<Vec<(String, RatingRow)>, StoreError>;
    /// A partnership's rating (the two accounts in any order).
    async fn pair_rating(&self, a: u64, b: u64, category: &str) -> Result<Option<RatingRow>, StoreError>;
    /// An account's partnerships in a category, most games first, at most `limit`: (partner,
    /// numbers).
    async fn partners(
        &self,
        account: u64,
        category: &str,
        limit: u32,
    ) -> Result<Vec<(u64, RatingRow)>, StoreError>;
    /// Applies a rated match's changes and new ratings in one transaction; `false` when this
    /// match was applied already (nothing is written again).
    async fn apply_rated(&self, m: &RatedMatch) -> Result<bool, StoreError>;
    /// The changes a rated match made, by account (empty when it was not applied).
    async fn match_changes(&self, match_id: u64) -> Result<Vec<(u64, HistoryRow)>, StoreError>;
    /// An account's history in a category, newest first, at most `limit` lines.
    async fn history(&self, account: u64, category: &str, limit: u32) -> Result<Vec<HistoryRow>, StoreError>;
    /// The best ratings in a category whose deviation is at most `max_deviation` (provisional
    /// ratings are not ranked), best first, at most `limit`, from enabled accounts.
    async fn leaderboard(
        &self,
        category: &str,
        max_deviation: f64,
        limit: u32,
    ) -> Result<Vec<BoardRow>, StoreError>;
}

/// The SQL of [`Ratings`] for a store with a `pool`, as `sql_store!` does for `Store`.
macro_rules! sql_ratings {
    ($store:ident) => {
        #[async_trait::async_trait]
        impl Ratings for $store {
            async fn rating(&self, account: u64, category: &str) -> Result<Option<RatingRow>, StoreError> {
                let row = sqlx::query(
                    "SELECT rating, deviation, volatility, games, updated_ms FROM ratings \
                     WHERE account_id = $1 AND category = $2",
                )
                .bind(to_i64(account)?)
                .bind(category)
                .fetch_optional(self.db()?)
                .await?;
                row.map(|r| rating_row(&r, 0)).transpose()
            }

            async fn ratings_of(&self, account: u64) -> Result<Vec<(String, RatingRow)>, StoreError> {
                let rows = sqlx::query(
                    "SELECT category, rating, deviation, volatility, games, updated_ms FROM ratings \
                     WHERE account_id = $1 ORDER BY category",
                )
                .bind(to_i64(account)?)
                .fetch_all(self.db()?)
                .await?;
                rows.iter().map(|r| Ok((r.try_get(0)?, rating_row(r, 1)?))).collect()
            }

            async fn pair_rating(&self, a: u64, b: u64, category: &str) -> Result<Option<RatingRow>, StoreError> {
                let (first, second) = (a.min(b), a.max(b));
                let row = sqlx::query(
                    "SELECT rating, deviation, volatility, games, updated_ms FROM partnership_ratings \
                     WHERE first_id = $1 AND second_id = $2 AND category = $3",
                )
                .bind(to_i64(first)?)
                .bind(to_i64(second)?)
                .bind(category)
                .fetch_optional(self.db()?)
                .await?;
                row.map(|r| rating_row(&r, 0)).transpose()
            }

            async fn partners(
                &self,
                account: u64,
                category: &str,
                limit: u32,
            ) -> Result<Vec<(u64, RatingRow)>, StoreError> {
                let rows = sqlx::query(
                    "SELECT CASE WHEN first_id = $1 THEN second_id ELSE first_id END, \
                     rating, deviation, volatility, games, updated_ms FROM partnership_ratings \
                     WHERE (first_id = $1 OR second_id = $1) AND category = $2 \
                     ORDER BY games DESC, rating DESC LIMIT $3",
                )
                .bind(to_i64(account)?)
                .bind(category)
                .bind(i64::from(limit))
                .fetch_all(&self.reads)
                .await?;
                rows.iter().map(|r| Ok((to_u64(r.try_get(0)?)?, rating_row(r, 1)?))).collect()
            }

            async fn apply_rated(&self, m: &RatedMatch) -> Result<bool, StoreError> {
                let mut tx = self.db()?.begin().await?;
                for p in &m.players {
                    let inserted = sqlx::query(
                        "INSERT INTO rating_changes \
                         (match_id, account_id, category, rating_before, rating_after, deviation, at_ms) \
                         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (match_id, account_id) DO NOTHING",
                    )
                    .bind(to_i64(m.match_id)?)
                    .bind(to_i64(p.account)?)
                    .bind(&m.category)
                    .bind(p.before)
                    .bind(p.after.rating)
                    .bind(p.after.deviation)
                    .bind(to_i64(m.at_ms)?)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected();
                    if inserted == 0 {
                        // Applied already (a finish retried after a restart): nothing again.
                        tx.rollback().await?;
                        return Ok(false);
                    }
                    sqlx::query(
                        "INSERT INTO ratings (account_id, category, rating, deviation, volatility, games, updated_ms) \
                         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (account_id, category) DO UPDATE SET \
                         rating = excluded.rating, deviation = excluded.deviation, \
                         volatility = excluded.volatility, games = excluded.games, updated_ms = excluded.updated_ms",
                    )
                    .bind(to_i64(p.account)?)
                    .bind(&m.category)
                    .bind(p.after.rating)
                    .bind(p.after.deviation)
                    .bind(p.after.volatility)
                    .bind(to_i64(p.after.games)?)
                    .bind(to_i64(p.after.updated_ms)?)
                    .execute(&mut *tx)
                    .await?;
                }
                for &((a, b), r) in &m.pairs {
                    sqlx::query(
                        "INSERT INTO partnership_ratings \
                         (first_id, second_id, category, rating, deviation, volatility, games, updated_ms) \
                         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) \
                         ON CONFLICT (first_id, second_id, category) DO UPDATE SET \
                         rating = excluded.rating, deviation = excluded.deviation, \
                         volatility = excluded.volatility, games = excluded.games, updated_ms = excluded.updated_ms",
                    )
                    .bind(to_i64(a.min(b))?)
                    .bind(to_i64(a.max(b))?)
                    .bind(&m.category)
                    .bind(r.rating)
                    .bind(r.deviation)
                    .bind(r.volatility)
                    .bind(to_i64(r.games)?)
                    .bind(to_i64(r.updated_ms)?)
                    .execute(&mut *tx)
                    .await?;
                }
                tx.commit().await?;
                Ok(true)
            }

            async fn match_changes(&self, match_id: u64) -> Result<Vec<(u64, HistoryRow)>, StoreError> {
                let rows = sqlx::query(
                    "SELECT account_id, match_id, rating_before, rating_after, deviation, at_ms FROM rating_changes \
                     WHERE match_id = $1 ORDER BY account_id",
                )
                .bind(to_i64(match_id)?)
                .fetch_all(self.db()?)
                .await?;
                rows.iter().map(|r| Ok((to_u64(r.try_get(0)?)?, history_row(r, 1)?))).collect()
            }

            async fn history(&self, account: u64, category: &str, limit: u32) -> Result<Vec<HistoryRow>, StoreError> {
                let rows = sqlx::query(
                    "SELECT match_id, rating_before, rating_after, deviation, at_ms FROM rating_changes \
                     WHERE account_id = $1 AND category = $2 ORDER BY at_ms DESC, match_id DESC LIMIT $3",
                )
                .bind(to_i64(account)?)
                .bind(category)
                .bind(i64::from(limit))
                .fetch_all(&self.reads)
                .await?;
                rows.iter().map(|r| history_row(r, 0)).collect()
            }

            async fn leaderboard(
                &self,
                category: &str,
                max_deviation: f64,
                limit: u32,
            ) -> Result<Vec<BoardRow>, StoreError> {
                let rows = sqlx::query(
                    "SELECT r.account_id, a.name, r.rating, r.deviation, r.volatility, r.games, r.updated_ms \
                     FROM ratings r JOIN accounts a ON a.id = r.account_id \
                     WHERE r.category = $1 AND r.deviation <= $2 AND a.disabled = 0 \
                     ORDER BY r.rating DESC, r.account_id LIMIT $3",
                )
                .bind(category)
                .bind(max_deviation)
                .bind(i64::from(limit))
                .fetch_all(&self.reads)
                .await?;
                rows.iter()
                    .map(|r| {
                        Ok(BoardRow {
                            account: to_u64(r.try_get(0)?)?,
                            name: r.try_get(1)?,
                            rating: rating_row(r, 2)?,
                        })
                    })
                    .collect()
            }
        }
    };
}

pub(crate) use sql_ratings;

/// Reads a [`HistoryRow`] (match, before, after, deviation, at) from column `at` on.
pub(crate) fn history_row<R>(r: &R, at: usize) -> Result<HistoryRow, StoreError>
where
    R: sqlx::Row,
    usize: sqlx::ColumnIndex<R>,
    for<'a> f64: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
    for<'a> i64: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
{
    Ok(HistoryRow {
        match_id: crate::to_u64(r.try_get(at)?)?,
        before: r.try_get(at + 1)?,
        after: r.try_get(at + 2)?,
        deviation: r.try_get(at + 3)?,
        at_ms: crate::to_u64(r.try_get(at + 4)?)?,
    })
}

/// Reads the five numbers of a [`RatingRow`] from column `at` on.
pub(crate) fn rating_row<R>(r: &R, at: usize) -> Result<RatingRow, StoreError>
where
    R: sqlx::Row,
    usize: sqlx::ColumnIndex<R>,
    for<'a> f64: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
    for<'a> i64: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
{
    Ok(RatingRow {
        rating: r.try_get(at)?,
        deviation: r.try_get(at + 1)?,
        volatility: r.try_get(at + 2)?,
        games: crate::to_u64(r.try_get(at + 3)?)?,
        updated_ms: crate::to_u64(r.try_get(at + 4)?)?,
    })
}
