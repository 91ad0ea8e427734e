//! An in-memory `Store` for the server's unit tests, with faults on command: tests of match tasks
//! and sessions run on tokio's paused clock, which a store doing real IO would defeat.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use shvedka_storage::{
    AccountRow, Accounts, BoardRow, Ending, EventRow, HistoryRow, MatchRow, NewAccount, NewMatch, PlayerRow,
    RatedMatch, RatingRow, Ratings, Revoke, Role, Store, StoreError,
};

/// What the in-memory store does with the next writes.
#[derive(Default)]
pub(crate) struct Faults {
    /// Refuse every write.
    pub(crate) refuse: AtomicBool,
    /// Refuse every write as a full disk does (`StoreError::is_full`).
    pub(crate) full: AtomicBool,
    /// Refuse every read of a match's row.
    pub(crate) refuse_match_reads: AtomicBool,
    /// Refuse every read of a match's events.
    pub(crate) refuse_event_reads: AtomicBool,
    /// Store the next append, then report a failure (its acknowledgement is lost).
    pub(crate) lose_ack: AtomicBool,
    /// Panic in the next append (a bug in the task).
    pub(crate) panic: AtomicBool,
    /// Panic in the next `finish`, which a match task calls itself (a bug in the task).
    pub(crate) panic_finish: AtomicBool,
    /// Refuse every append as a node whose lease was taken over would be.
    pub(crate) fenced: AtomicBool,
    /// Appends tried.
    pub(crate) appends: AtomicUsize,
    /// Panic in the next write of players' rows.
    pub(crate) panic_players: AtomicBool,
    /// Writes of players' rows tried (each one transaction).
    pub(crate) player_writes: AtomicUsize,
}

#[derive(Default)]
pub(crate) struct MemStore {
    pub(crate) players: Mutex<HashMap<u64, PlayerRow>>,
    matches: Mutex<HashMap<u64, MatchRow>>,
    events: Mutex<HashMap<u64, Vec<EventRow>>>,
    match_players: Mutex<HashMap<u64, [String; 4]>>,
    accounts: Mutex<Vec<(String, AccountRow)>>,
    ratings: Mutex<MemRatings>,
    pub(crate) faults: Faults,
}

/// Ratings kept in memory: by (account, category), by (lower id, higher id, category), and each
/// applied match's changes.
#[derive(Default)]
struct MemRatings {
    players: HashMap<(u64, String), RatingRow>,
    pairs: HashMap<(u64, u64, String), RatingRow>,
    changes: Vec<(RatedMatch, u64)>,
}

fn injected() -> StoreError {
    StoreError::Range("injected storage fault".into())
}

impl MemStore {
    fn write(&self) -> Result<(), StoreError> {
        if self.faults.full.load(Ordering::SeqCst) {
            // What SQLite says when its file cannot grow.
            let full = std::io::Error::from_raw_os_error(28);
            return Err(StoreError::Database(sqlx::Error::Io(full)));
        }
        if self.faults.refuse.load(Ordering::SeqCst) { Err(injected()) } else { Ok(()) }
    }

    fn readable(&self, refused: &AtomicBool) -> Result<(), StoreError> {
        if refused.load(Ordering::SeqCst) { Err(injected()) } else { Ok(()) }
    }

    pub(crate) fn ending(&self, id: u64) -> Option<Ending> {
        self.matches.lock().unwrap().get(&id).and_then(|m| m.ending)
    }

    pub(crate) fn log(&self, id: u64) -> Vec<EventRow> {
        self.events.lock().unwrap().get(&id).cloned().unwrap_or_default()
    }
}

#[async_trait::async_trait]
impl Store for MemStore {
    fn kind(&self) -> &'static str {
        "memory"
    }
    async fn add_player(&self, p: &PlayerRow) -> Result<(), StoreError> {
        self.write_players(std::slice::from_ref(p), &[]).await
    }
    async fn player_by_token(&self, hash: &str) -> Result<Option<PlayerRow>, StoreError> {
        Ok(self.players.lock().unwrap().values().find(|p| p.token_hash == hash).cloned())
    }
    async fn player(&self, id: u64) -> Result<Option<PlayerRow>, StoreError> {
        Ok(self.players.lock().unwrap().get(&id).cloned())
    }
    async fn touch_player(&self, id: u64, ms: u64) -> Result<(), StoreError> {
        self.write_players(&[], &[(id, ms)]).await
    }
    async fn write_players(&self, added: &[PlayerRow], seen: &[(u64, u64)]) -> Result<(), StoreError> {
        self.faults.player_writes.fetch_add(1, Ordering::SeqCst);
        assert!(!self.faults.panic_players.swap(false, Ordering::SeqCst), "injected panic in write_players");
        self.write()?;
        let mut players = self.players.lock().unwrap();
        if let Some(p) = added.iter().find(|p| players.contains_key(&p.id)) {
            return Err(StoreError::Range(format!("player {} is stored already", p.id)));
        }
        for p in added {
            players.insert(p.id, p.clone());
        }
        for &(id, ms) in seen {
            if let Some(p) = players.get_mut(&id) {
                p.last_seen_ms = ms;
            }
        }
        Ok(())
    }
    async fn add_match(&self, m: &NewMatch) -> Result<(), StoreError> {
        self.write()?;
        let row = MatchRow { created: m.clone(), finished_ms: None, result: None, ending: None };
        self.matches.lock().unwrap().insert(m.id, row);
        Ok(())
    }
    async fn append(&self, match_id: u64, events: &[EventRow]) -> Result<(), StoreError> {
        self.faults.appends.fetch_add(1, Ordering::SeqCst);
        assert!(!self.faults.panic.swap(false, Ordering::SeqCst), "injected panic in append");
        self.write()?;
        if self.faults.fenced.load(Ordering::SeqCst) {
            return Err(StoreError::Fenced { match_id, fence: Some(1), current: Some(2) });
        }
        let mut all = self.events.lock().unwrap();
        let log = all.entry(match_id).or_default();
        for e in events {
            match log.get(e.seq as usize) {
                Some(stored) if stored.event == e.event => {}
                Some(_) => return Err(StoreError::Conflict { match_id, seq: e.seq }),
                None => log.push(e.clone()),
            }
        }
        if self.faults.lose_ack.swap(false, Ordering::SeqCst) {
            return Err(injected());
        }
        Ok(())
    }
    async fn finish(&self, match_id: u64, result: &str, ms: u64) -> Result<(), StoreError> {
        assert!(!self.faults.panic_finish.swap(false, Ordering::SeqCst), "injected panic in finish");
        self.write()?;
        if let Some(m) = self.matches.lock().unwrap().get_mut(&match_id) {
            (m.result, m.finished_ms, m.ending) = (Some(result.to_owned()), Some(ms), Some(Ending::Decided));
        }
        Ok(())
    }
    async fn end_match(&self, match_id: u64, ending: Ending, ms: u64) -> Result<(), StoreError> {
        self.write()?;
        if let Some(m) = self.matches.lock().unwrap().get_mut(&match_id) {
            (m.result, m.finished_ms, m.ending) = (None, Some(ms), Some(ending));
        }
        Ok(())
    }
    async fn matches(&self, unfinished_only: bool) -> Result<Vec<MatchRow>, StoreError> {
        let all = self.matches.lock().unwrap();
        Ok(all.values().filter(|m| !unfinished_only || m.finished_ms.is_none()).cloned().collect())
    }
    async fn find_match(&self, id: u64) -> Result<Option<MatchRow>, StoreError> {
        self.readable(&self.faults.refuse_match_reads)?;
        Ok(self.matches.lock().unwrap().get(&id).cloned())
    }
    async fn events(&self, id: u64) -> Result<Vec<EventRow>, StoreError> {
        self.readable(&self.faults.refuse_event_reads)?;
        Ok(self.log(id))
    }
    async fn add_match_players(&self, id: u64, names: &[String; 4]) -> Result<(), StoreError> {
        self.match_players.lock().unwrap().entry(id).or_insert_with(|| names.clone());
        Ok(())
    }
    async fn player_matches(&self, name: &str, limit: u32) -> Result<Vec<u64>, StoreError> {
        let all = self.match_players.lock().unwrap();
        let mut ids: Vec<u64> = all
            .iter()
            .filter(|(_, n)| n.iter().any(|x| x.eq_ignore_ascii_case(name)))
            .map(|(id, _)| *id)
            .collect();
        ids.sort_unstable_by(|a, b| b.cmp(a));
        ids.truncate(limit as usize);
        Ok(ids)
    }
    async fn match_players(&self, id: u64) -> Result<Vec<(u8, String)>, StoreError> {
        let all = self.match_players.lock().unwrap();
        Ok(all
            .get(&id)
            .map(|n| n.iter().cloned().enumerate().map(|(i, x)| (i as u8, x)).collect())
            .unwrap_or_default())
    }
    async fn max_ids(&self) -> Result<(u64, u64), StoreError> {
        let m = self.matches.lock().unwrap().keys().copied().max().unwrap_or(0);
        let p = self.players.lock().unwrap().keys().copied().max().unwrap_or(0);
        Ok((m, p))
    }
    async fn save_tournament(&self, _: u64, _: &str) -> Result<(), StoreError> {
        self.write()
    }
    async fn tournaments(&self) -> Result<Vec<(u64, String)>, StoreError> {
        Ok(Vec::new())
    }
}

#[async_trait::async_trait]
impl Accounts for MemStore {
    async fn add_account(&self, a: &NewAccount) -> Result<Option<u64>, StoreError> {
        self.write()?;
        let mut all = self.accounts.lock().unwrap();
        if all.iter().any(|(key, _)| *key == a.name_key) {
            return Ok(None);
        }
        let id = all.len() as u64 + 1;
        let row = AccountRow {
            id,
            name: a.name.clone(),
            password_hash: a.password_hash.clone(),
            bot: a.bot,
            disabled: false,
            roles: Vec::new(),
            created_ms: a.created_ms,
        };
        all.push((a.name_key.clone(), row));
        Ok(Some(id))
    }
    async fn account_by_name(&self, name_key: &str) -> Result<Option<AccountRow>, StoreError> {
        let all = self.accounts.lock().unwrap();
        Ok(all.iter().find(|(key, _)| key == name_key).map(|(_, a)| a.clone()))
    }
    async fn account(&self, id: u64) -> Result<Option<AccountRow>, StoreError> {
        Ok(self.accounts.lock().unwrap().iter().find(|(_, a)| a.id == id).map(|(_, a)| a.clone()))
    }
    async fn accounts(&self) -> Result<Vec<AccountRow>, StoreError> {
        Ok(self.accounts.lock().unwrap().iter().map(|(_, a)| a.clone()).collect())
    }
    async fn set_password(&self, id: u64, hash: &str) -> Result<(), StoreError> {
        self.change(id, |a| a.password_hash = hash.to_owned())
    }
    async fn set_disabled(&self, id: u64, disabled: bool) -> Result<(), StoreError> {
        self.change(id, |a| a.disabled = disabled)
    }
    async fn set_role(&self, id: u64, role: Role, granted: bool) -> Result<(), StoreError> {
        self.change(id, |a| {
            a.roles.retain(|r| *r != role);
            if granted {
                a.roles.push(role);
                a.roles.sort();
            }
        })
    }
    async fn revoke_sessions(&self, which: Revoke<'_>) -> Result<(), StoreError> {
        self.write()?;
        for p in self.players.lock().unwrap().values_mut() {
            let hit = match which {
                Revoke::Token(hash) => p.token_hash == hash,
                Revoke::Account { id, keep } => p.account == Some(id) && Some(p.token_hash.as_str()) != keep,
            };
            p.revoked |= hit;
        }
        Ok(())
    }
}

impl MemStore {
    fn change(&self, id: u64, f: impl FnOnce(&mut AccountRow)) -> Result<(), StoreError> {
        self.write()?;
        if let Some((_, a)) = self.accounts.lock().unwrap().iter_mut().find(|(_, a)| a.id == id) {
            f(a);
        }
        Ok(())
    }
}

#[async_trait::async_trait]
impl Ratings for MemStore {
    async fn rating(&self, account: u64, category: &str) -> Result<Option<RatingRow>, StoreError> {
        Ok(self.ratings.lock().unwrap().players.get(&(account, category.to_owned())).copied())
    }
    async fn ratings_of(&self, account: u64) -> Result<Vec<(String, RatingRow)>, StoreError> {
        let all = self.ratings.lock().unwrap();
        let mut mine: Vec<_> = all
            .players
            .iter()
            .filter(|((a, _), _)| *a == account)
            .map(|((_, c), r)| (c.clone(), *r))
            .collect();
        mine.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(mine)
    }
    async fn pair_rating(&self, a: u64, b: u64, category: &str) -> Result<Option<RatingRow>, StoreError> {
        Ok(self.ratings.lock().unwrap().pairs.get(&(a.min(b), a.max(b), category.to_owned())).copied())
    }
    async fn partners(
        &self,
        account: u64,
        category: &str,
        limit: u32,
    ) -> Result<Vec<(u64, RatingRow)>, StoreError> {
        let all = self.ratings.lock().unwrap();
        let mut mine: Vec<(u64, RatingRow)> = all
            .pairs
            .iter()
            .filter(|((a, b, c), _)| c == category && (*a == account || *b == account))
            .map(|((a, b, _), r)| (if *a == account { *b } else { *a }, *r))
            .collect();
        mine.sort_by_key(|p| std::cmp::Reverse(p.1.games));
        mine.truncate(limit as usize);
        Ok(mine)
    }
    async fn apply_rated(&self, m: &RatedMatch) -> Result<bool, StoreError> {
        self.write()?;
        let mut all = self.ratings.lock().unwrap();
        if all.changes.iter().any(|(done, _)| done.match_id == m.match_id) {
            return Ok(false);
        }
        for p in &m.players {
            all.players.insert((p.account, m.category.clone()), p.after);
        }
        for &((a, b), r) in &m.pairs {
            all.pairs.insert((a.min(b), a.max(b), m.category.clone()), r);
        }
        all.changes.push((m.clone(), m.at_ms));
        Ok(true)
    }
    async fn match_changes(&self, match_id: u64) -> Result<Vec<(u64, HistoryRow)>, StoreError> {
        let all = self.ratings.lock().unwrap();
        let Some((m, at)) = all.changes.iter().find(|(m, _)| m.match_id == match_id) else {
            return Ok(Vec::new());
        };
        let mut changes: Vec<(u64, HistoryRow)> = m
            .players
            .iter()
            .map(|p| {
                let line = HistoryRow {
                    match_id,
                    before: p.before,
                    after: p.after.rating,
                    deviation: p.after.deviation,
                    at_ms: *at,
                };
                (p.account, line)
            })
            .collect();
        changes.sort_by_key(|c| c.0);
        Ok(changes)
    }
    async fn history(&self, account: u64, category: &str, limit: u32) -> Result<Vec<HistoryRow>, StoreError> {
        let all = self.ratings.lock().unwrap();
        let mut lines: Vec<HistoryRow> = all
            .changes
            .iter()
            .filter(|(m, _)| m.category == category)
            .flat_map(|(m, at)| {
                m.players.iter().filter(|p| p.account == account).map(|p| HistoryRow {
                    match_id: m.match_id,
                    before: p.before,
                    after: p.after.rating,
                    deviation: p.after.deviation,
                    at_ms: *at,
                })
            })
            .collect();
        lines.reverse();
        lines.truncate(limit as usize);
        Ok(lines)
    }
    async fn leaderboard(
        &self,
        category: &str,
        max_deviation: f64,
        limit: u32,
    ) -> Result<Vec<BoardRow>, StoreError> {
        let all = self.ratings.lock().unwrap();
        let accounts = self.accounts.lock().unwrap();
        let mut board: Vec<BoardRow> = all
            .players
            .iter()
            .filter(|((_, c), r)| c == category && r.deviation <= max_deviation)
            .filter_map(|((a, _), r)| {
                let (_, row) = accounts.iter().find(|(_, row)| row.id == *a && !row.disabled)?;
                Some(BoardRow { account: *a, name: row.name.clone(), rating: *r })
            })
            .collect();
        board.sort_by(|x, y| y.rating.rating.total_cmp(&x.rating.rating));
        board.truncate(limit as usize);
        Ok(board)
    }
}
