//! A store that fails on command, around a real one: the server's defined outcome for each
//! storage fault is tested end to end with it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use shvedka_storage::{
    AccountRow, Accounts, BoardRow, Ending, EventRow, HistoryRow, MatchRow, NewAccount, NewMatch, PlayerRow,
    RatedMatch, RatingRow, Ratings, Revoke, Role, Store, StoreError,
};

/// A real store whose writes can be refused, and whose next append can panic.
pub struct FaultyStore {
    inner: Arc<dyn Store>,
    /// Refuse every write while set.
    pub refuse: AtomicBool,
    /// Panic in the next `finish` (called by a match task: a bug in that task).
    pub panic: AtomicBool,
    /// Appends tried.
    pub appends: AtomicUsize,
    /// Panic in the next `apply_rated` (the match task dies rating its match).
    pub panic_rating: AtomicBool,
    /// Refuse to read sessions by their token while set (the database unreachable).
    pub refuse_sessions: AtomicBool,
}

impl FaultyStore {
    /// Around `inner`, failing nothing yet.
    pub fn new(inner: Arc<dyn Store>) -> Arc<FaultyStore> {
        Arc::new(FaultyStore {
            inner,
            refuse: AtomicBool::new(false),
            panic: AtomicBool::new(false),
            appends: AtomicUsize::new(0),
            panic_rating: AtomicBool::new(false),
            refuse_sessions: AtomicBool::new(false),
        })
    }

    fn write(&self) -> Result<(), StoreError> {
        if self.refuse.load(Ordering::SeqCst) {
            return Err(StoreError::Range("injected: the disk is full".into()));
        }
        Ok(())
    }
}

#[async_trait::async_trait]
impl Store for FaultyStore {
    fn kind(&self) -> &'static str {
        self.inner.kind()
    }
    async fn add_player(&self, p: &PlayerRow) -> Result<(), StoreError> {
        self.write()?;
        self.inner.add_player(p).await
    }
    async fn player_by_token(&self, hash: &str) -> Result<Option<PlayerRow>, StoreError> {
        if self.refuse_sessions.load(Ordering::SeqCst) {
            return Err(StoreError::Range("injected: the database does not answer".into()));
        }
        self.inner.player_by_token(hash).await
    }
    async fn player(&self, id: u64) -> Result<Option<PlayerRow>, StoreError> {
        self.inner.player(id).await
    }
    async fn touch_player(&self, id: u64, ms: u64) -> Result<(), StoreError> {
        self.write()?;
        self.inner.touch_player(id, ms).await
    }
    async fn add_match(&self, m: &NewMatch) -> Result<(), StoreError> {
        self.write()?;
        self.inner.add_match(m).await
    }
    async fn append(&self, match_id: u64, events: &[EventRow]) -> Result<(), StoreError> {
        self.appends.fetch_add(1, Ordering::SeqCst);
        self.write()?;
        self.inner.append(match_id, events).await
    }
    async fn finish(&self, match_id: u64, result: &str, ms: u64) -> Result<(), StoreError> {
        assert!(!self.panic.swap(false, Ordering::SeqCst), "injected panic in finish");
        self.write()?;
        self.inner.finish(match_id, result, ms).await
    }
    async fn end_match(&self, match_id: u64, ending: Ending, ms: u64) -> Result<(), StoreError> {
        self.write()?;
        self.inner.end_match(match_id, ending, ms).await
    }
    async fn matches(&self, unfinished_only: bool) -> Result<Vec<MatchRow>, StoreError> {
        self.inner.matches(unfinished_only).await
    }
    async fn find_match(&self, id: u64) -> Result<Option<MatchRow>, StoreError> {
        self.inner.find_match(id).await
    }
    async fn events(&self, id: u64) -> Result<Vec<EventRow>, StoreError> {
        self.inner.events(id).await
    }
    async fn add_match_players(&self, id: u64, names: &[String; 4]) -> Result<(), StoreError> {
        self.write()?;
        self.inner.add_match_players(id, names).await
    }
    async fn player_matches(&self, name: &str, limit: u32) -> Result<Vec<u64>, StoreError> {
        self.inner.player_matches(name, limit).await
    }
    async fn match_players(&self, id: u64) -> Result<Vec<(u8, String)>, StoreError> {
        self.inner.match_players(id).await
    }
    async fn max_ids(&self) -> Result<(u64, u64), StoreError> {
        self.inner.max_ids().await
    }
    async fn save_tournament(&self, id: u64, state: &str) -> Result<(), StoreError> {
        self.write()?;
        self.inner.save_tournament(id, state).await
    }
    async fn tournaments(&self) -> Result<Vec<(u64, String)>, StoreError> {
        self.inner.tournaments().await
    }
}

/// Accounts pass through; writes fail on command like the rest.
#[async_trait::async_trait]
impl Accounts for FaultyStore {
    async fn add_account(&self, a: &NewAccount) -> Result<Option<u64>, StoreError> {
        self.write()?;
        self.inner.add_account(a).await
    }
    async fn account_by_name(&self, name_key: &str) -> Result<Option<AccountRow>, StoreError> {
        self.inner.account_by_name(name_key).await
    }
    async fn account(&self, id: u64) -> Result<Option<AccountRow>, StoreError> {
        self.inner.account(id).await
    }
    async fn accounts(&self) -> Result<Vec<AccountRow>, StoreError> {
        self.inner.accounts().await
    }
    async fn set_password(&self, id: u64, hash: &str) -> Result<(), StoreError> {
        self.write()?;
        self.inner.set_password(id, hash).await
    }
    async fn set_disabled(&self, id: u64, disabled: bool) -> Result<(), StoreError> {
        self.write()?;
        self.inner.set_disabled(id, disabled).await
    }
    async fn set_role(&self, id: u64, role: Role, granted: bool) -> Result<(), StoreError> {
        self.write()?;
        self.inner.set_role(id, role, granted).await
    }
    async fn revoke_sessions(&self, which: Revoke<'_>) -> Result<(), StoreError> {
        self.write()?;
        self.inner.revoke_sessions(which).await
    }
}

/// Ratings pass through; applying a rated match fails on command like the other writes.
#[async_trait::async_trait]
impl Ratings for FaultyStore {
    async fn rating(&self, account: u64, category: &str) -> Result<Option<RatingRow>, StoreError> {
        self.inner.rating(account, category).await
    }
    async fn ratings_of(&self, account: u64) -> Result<Vec<(String, RatingRow)>, StoreError> {
        self.inner.ratings_of(account).await
    }
    async fn pair_rating(&self, a: u64, b: u64, category: &str) -> Result<Option<RatingRow>, StoreError> {
        self.inner.pair_rating(a, b, category).await
    }
    async fn partners(
        &self,
        account: u64,
        category: &str,
        limit: u32,
    ) -> Result<Vec<(u64, RatingRow)>, StoreError> {
        self.inner.partners(account, category, limit).await
    }
    async fn apply_rated(&self, m: &RatedMatch) -> Result<bool, StoreError> {
        assert!(!self.panic_rating.swap(false, Ordering::SeqCst), "injected panic in apply_rated");
        self.write()?;
        self.inner.apply_rated(m).await
    }
    async fn match_changes(&self, match_id: u64) -> Result<Vec<(u64, HistoryRow)>, StoreError> {
        self.inner.match_changes(match_id).await
    }
    async fn history(&self, account: u64, category: &str, limit: u32) -> Result<Vec<HistoryRow>, StoreError> {
        self.inner.history(account, category, limit).await
    }
    async fn leaderboard(
        &self,
        category: &str,
        max_deviation: f64,
        limit: u32,
    ) -> Result<Vec<BoardRow>, StoreError> {
        self.inner.leaderboard(category, max_deviation, limit).await
    }
}
