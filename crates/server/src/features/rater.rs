//! Rated matches change ratings, applied one match at a time: a player's new
//! rating is computed from his stored one, so two of his matches decided at once must not both
//! start from the same old value. The mathematics is `shvedka-ratings`'; the store applies each
//! match once (`Ratings::apply_rated`), so a finish retried after a restart reports the changes
//! made the first time and changes nothing again.

use std::sync::Arc;

use bughouse_match::{Bonus, TimeControl};
use shvedka_proto::{RatingChange, RatingView, SeatId, TeamId};
use shvedka_ratings::{Categories, Outcome, PROVISIONAL_ABOVE, Rating, rate_match, rate_pairs};
use shvedka_storage::{HistoryRow, PlayerChange, RatedMatch, RatingRow, Store, StoreError};
use tokio::sync::Mutex;

use crate::config::ServerConfig;
use crate::service::hooks::Decided;

/// How this server keeps ratings (config/default.toml).
#[derive(Clone, Copy, Debug)]
pub(crate) struct RatingRules {
    /// Where bullet, blitz and rapid part.
    pub(crate) categories: Categories,
    /// Whether bots may sit in rated matches.
    pub(crate) rated_bots: bool,
    /// The most lines of a leaderboard.
    pub(crate) leaderboard_size: u32,
}

impl Default for RatingRules {
    fn default() -> RatingRules {
        RatingRules { categories: Categories::default(), rated_bots: false, leaderboard_size: 100 }
    }
}

/// A decided rated match, as the rater needs it.
#[derive(Clone, Debug)]
pub(crate) struct ToRate {
    /// The match.
    pub(crate) match_id: u64,
    /// Its time control (the category).
    pub(crate) time_control: TimeControl,
    /// The four accounts in the protocol's seat order: White A, Black A, White B, Black B.
    pub(crate) seats: [u64; 4],
    /// How it ended for team 1 (White A and Black B).
    pub(crate) outcome: Outcome,
    /// When it was decided, ms since the Unix epoch.
    pub(crate) at_ms: u64,
}

/// Each player's change, by account: what the match made of his rating.
pub(crate) type Changes = Vec<(u64, HistoryRow)>;

/// Rates decided matches one at a time, each in the task of the match that asks (a fair lock,
/// not a task of its own: no hop, and a rating that panics takes its match task down with it —
/// the defined outcome of a dead match task — rather than a shared task every later match would
/// wait on forever).
#[derive(Clone)]
pub(crate) struct Rater {
    store: Arc<dyn Store>,
    categories: Categories,
    one_at_a_time: Arc<Mutex<()>>,
}

impl Rater {
    /// A rater over `store`.
    pub(crate) fn new(store: Arc<dyn Store>, categories: Categories) -> Rater {
        Rater { store, categories, one_at_a_time: Arc::new(Mutex::new(())) }
    }

    /// The store the ratings are kept in.
    pub(crate) fn store(&self) -> &dyn Store {
        self.store.as_ref()
    }

    /// Rates a decided match; returns once its changes are stored (or why not).
    pub(crate) async fn rate(&self, m: ToRate) -> Result<Changes, StoreError> {
        let _turn = self.one_at_a_time.lock().await;
        rate(self.store.as_ref(), &self.categories, &m).await
    }
}

/// Computes and applies one match's changes; the stored ones when it was applied before.
pub(crate) async fn rate(
    store: &dyn Store,
    categories: &Categories,
    m: &ToRate,
) -> Result<Changes, StoreError> {
    let applied = store.match_changes(m.match_id).await?;
    if !applied.is_empty() {
        return Ok(applied);
    }
    let category = category_of(categories, &m.time_control);
    let mut stored = [None; 4];
    for (slot, &account) in stored.iter_mut().zip(&m.seats) {
        *slot = store.rating(account, category).await?;
    }
    let rating = |row: Option<RatingRow>| {
        row.map_or_else(Rating::default, |r| Rating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        })
    };
    // Team 1 is White A and Black B (seats 0 and 3), team 2 Black A and White B (1 and 2).
    let teams = [[0, 3], [1, 2]];
    let before = teams.map(|t| t.map(|seat| rating(stored[seat])));
    let after = rate_match(before, m.outcome);
    let mut players = Vec::with_capacity(4);
    for (t, team) in teams.iter().enumerate() {
        for (i, &seat) in team.iter().enumerate() {
            let games = stored[seat].map_or(0, |r| r.games) + 1;
            players.push(PlayerChange {
                account: m.seats[seat],
                before: before[t][i].rating,
                after: row(after[t][i], games, m.at_ms),
            });
        }
    }
    let mut pair_before = [(0, 0, None); 2];
    for (slot, team) in pair_before.iter_mut().zip(&teams) {
        let (a, b) = (m.seats[team[0]], m.seats[team[1]]);
        *slot = (a.min(b), a.max(b), store.pair_rating(a, b, category).await?);
    }
    let pairs_after = rate_pairs(pair_before.map(|(_, _, r)| rating(r)), m.outcome);
    let pairs = pair_before
        .iter()
        .zip(pairs_after)
        .map(|(&(a, b, stored), new)| ((a, b), row(new, stored.map_or(0, |r| r.games) + 1, m.at_ms)))
        .collect();
    let rated =
        RatedMatch { match_id: m.match_id, category: category.to_owned(), players, pairs, at_ms: m.at_ms };
    store.apply_rated(&rated).await?;
    store.match_changes(m.match_id).await
}

/// Rates a decided match by its players' names (each an account's: only accounts sit in rated
/// matches) and returns the changes as players see them; none when a seat is empty or not an
/// account's (said in the log: nothing can be rated then).
pub(crate) async fn rate_decided(rater: &Rater, m: Decided<'_>) -> Result<Vec<RatingChange>, StoreError> {
    let Some((accounts, names)) = accounts_of(rater.store.as_ref(), m.names).await? else {
        tracing::warn!(match_id = m.match_id, "a rated match's seat is empty or not an account's; not rated");
        return Ok(Vec::new());
    };
    let to_rate = ToRate {
        match_id: m.match_id,
        time_control: m.time_control,
        seats: accounts,
        outcome: outcome(m.winner),
        at_ms: crate::service::wall::unix_ms(),
    };
    let changes = rater.rate(to_rate).await?;
    Ok(change_views(&changes, &accounts, &names, category_of(&rater.categories, &m.time_control)))
}

/// The stored changes of a rated match, as players see them (empty before it is rated).
pub(crate) async fn stored_changes(
    store: &dyn Store,
    match_id: u64,
    names: &[Option<String>; 4],
    category: &str,
) -> Result<Vec<RatingChange>, StoreError> {
    let changes = store.match_changes(match_id).await?;
    if changes.is_empty() {
        return Ok(Vec::new());
    }
    let Some((accounts, shown)) = accounts_of(store, names).await? else { return Ok(Vec::new()) };
    Ok(change_views(&changes, &accounts, &shown, category))
}

/// The accounts (ids and names as registered) of four players by name; `None` when a seat is
/// empty or its name is no account's.
async fn accounts_of(
    store: &dyn Store,
    names: &[Option<String>; 4],
) -> Result<Option<([u64; 4], [String; 4])>, StoreError> {
    let mut ids = [0; 4];
    let mut registered: [String; 4] = Default::default();
    for i in 0..4 {
        let Some(key) = names[i].as_deref().and_then(|n| crate::service::accounts::name_key(n).ok()) else {
            return Ok(None);
        };
        let Some(account) = store.account_by_name(&key).await? else { return Ok(None) };
        ids[i] = account.id;
        registered[i] = account.name;
    }
    Ok(Some((ids, registered)))
}

/// How a decided match ended for team 1 (White A and Black B).
pub(crate) fn outcome(winner: Option<TeamId>) -> Outcome {
    match winner {
        Some(TeamId::One) => Outcome::FirstWins,
        Some(TeamId::Two) => Outcome::SecondWins,
        None => Outcome::Draw,
    }
}

/// The category of a time control under `categories`, by name.
pub(crate) fn category_of(categories: &Categories, tc: &TimeControl) -> &'static str {
    let bonus = match tc.bonus {
        Bonus::Increment(d) | Bonus::Delay(d) => d,
    };
    categories.of(millis(tc.base), millis(bonus)).as_str()
}

/// The wire form of a match's changes, in seat order: `accounts` and `names` by seat.
pub(crate) fn change_views(
    changes: &Changes,
    accounts: &[u64; 4],
    names: &[String; 4],
    category: &str,
) -> Vec<RatingChange> {
    let mut views = Vec::with_capacity(4);
    for (i, seat) in SeatId::ALL.into_iter().enumerate() {
        if let Some((_, h)) = changes.iter().find(|(a, _)| *a == accounts[i]) {
            views.push(RatingChange {
                seat,
                name: names[i].clone(),
                category: category.to_owned(),
                before: shown(h.before),
                after: shown(h.after),
                deviation: shown_deviation(h.deviation),
                provisional: h.deviation > PROVISIONAL_ABOVE,
            });
        }
    }
    views
}

/// A stored rating as players see it.
pub(crate) fn view(category: &str, r: &RatingRow) -> RatingView {
    RatingView {
        category: category.to_owned(),
        rating: shown(r.rating),
        deviation: shown_deviation(r.deviation),
        games: r.games,
        provisional: r.deviation > PROVISIONAL_ABOVE,
    }
}

/// A rating rounded to a whole point.
pub(crate) fn shown(r: f64) -> i32 {
    r.round() as i32
}

fn shown_deviation(d: f64) -> u32 {
    d.round().max(0.0) as u32
}

fn row(r: Rating, games: u64, at_ms: u64) -> RatingRow {
    RatingRow { rating: r.rating, deviation: r.deviation, volatility: r.volatility, games, updated_ms: at_ms }
}

fn millis(d: std::time::Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

impl RatingRules {
    /// How ratings are kept: the categories' bounds and whether bots are rated.
    pub(crate) fn of(config: &ServerConfig) -> RatingRules {
        RatingRules {
            categories: shvedka_ratings::Categories {
                bullet_below_s: config.rating_bullet_below_s,
                blitz_below_s: config.rating_blitz_below_s,
            },
            rated_bots: config.rated_bots,
            leaderboard_size: config.leaderboard_size,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_store::MemStore;
    use shvedka_storage::{Accounts, NewAccount, Ratings};

    async fn four(store: &MemStore) -> [u64; 4] {
        let mut ids = [0; 4];
        for (slot, name) in ids.iter_mut().zip(["alice", "bob", "carol", "dave"]) {
            let account = NewAccount {
                name: name.into(),
                name_key: name.into(),
                password_hash: String::new(),
                bot: false,
                created_ms: 0,
            };
            *slot = store.add_account(&account).await.unwrap().unwrap();
        }
        ids
    }

    fn blitz() -> TimeControl {
        "3+2".parse().unwrap()
    }

    #[tokio::test]
    async fn a_rated_match_moves_the_winners_up_and_the_losers_down_once() {
        let store = Arc::new(MemStore::default());
        let seats = four(&store).await;
        let rater = Rater::new(store.clone(), Categories::default());
        let m = ToRate { match_id: 7, time_control: blitz(), seats, outcome: Outcome::FirstWins, at_ms: 5 };
        let changes = rater.rate(m.clone()).await.unwrap();
        assert_eq!(changes.len(), 4);
        let of = |account: u64| changes.iter().find(|c| c.0 == account).unwrap().1;
        // Four newcomers (1500, deviation 350): Glicko-2 by hand for one of them, as the crate's
        // model says (half of him, rating 1500 and deviation 175, against an opponent at 1500
        // whose deviation is √(3 · 350²)/2 ≈ 303.1, a win; the change counted double).
        let winner = of(seats[0]);
        assert_eq!(winner.before, 1500.0);
        let (phi, phi_j) = (175.0 / 173.7178, 303.1089 / 173.7178);
        let g = 1.0 / (1.0 + 3.0 * phi_j * phi_j / std::f64::consts::PI.powi(2)).sqrt();
        let v = 1.0 / (g * g * 0.25);
        let phi_star = (phi * phi + (0.03f64).powi(2)).sqrt();
        let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let by_hand = 1500.0 + 2.0 * 173.7178 * phi_new * phi_new * g * 0.5;
        assert!((winner.after - by_hand).abs() < 0.5, "{} against {by_hand} by hand", winner.after);
        for (seat, up) in [(0, true), (3, true), (1, false), (2, false)] {
            let c = of(seats[seat]);
            assert_eq!(c.after > 1500.0, up, "seat {seat}: {c:?}");
        }
        assert_eq!(store.rating(seats[0], "blitz").await.unwrap().unwrap().games, 1);
        assert_eq!(store.pair_rating(seats[0], seats[3], "blitz").await.unwrap().unwrap().games, 1);
        // Rated again (a finish retried): the same changes, nothing applied twice.
        assert_eq!(rater.rate(m).await.unwrap(), changes);
        assert_eq!(store.rating(seats[0], "blitz").await.unwrap().unwrap().games, 1);
    }

    #[tokio::test]
    async fn the_time_control_picks_the_category() {
        let store = Arc::new(MemStore::default());
        let seats = four(&store).await;
        let m = ToRate {
            match_id: 1,
            time_control: "1+0".parse().unwrap(),
            seats,
            outcome: Outcome::Draw,
            at_ms: 1,
        };
        rate(store.as_ref(), &Categories::default(), &m).await.unwrap();
        assert!(store.rating(seats[0], "bullet").await.unwrap().is_some());
        assert!(store.rating(seats[0], "blitz").await.unwrap().is_none());
    }
}
