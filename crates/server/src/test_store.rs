//! An in-memory `Store` for the server's unit tests, with faults on command: tests of match tasks
//! and sessions run on tokio's paused clock, which a store doing real IO would defeat.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use shvedka_storage::{
    AccountRow, Accounts, Ending, EventRow, MatchRow, NewAccount, NewMatch, PlayerRow, Revoke, Role, Store,
    StoreError,
};

/// What the in-memory store does with the next writes.
#[derive(Default)]
pub(crate) struct Faults {
    /// Refuse every write.
    pub(crate) refuse: AtomicBool,
    /// Store the next append, then report a failure (its acknowledgement is lost).
    pub(crate) lose_ack: AtomicBool,
    /// Panic in the next append (a bug in the task).
    pub(crate) panic: AtomicBool,
    /// Panic in the next `finish`, which a match task calls itself (a bug in the task).
    pub(crate) panic_finish: AtomicBool,
    /// Appends tried.
    pub(crate) appends: AtomicUsize,
}

#[derive(Default)]
pub(crate) struct MemStore {
    players: Mutex<HashMap<u64, PlayerRow>>,
    matches: Mutex<HashMap<u64, MatchRow>>,
    events: Mutex<HashMap<u64, Vec<EventRow>>>,
    accounts: Mutex<Vec<(String, AccountRow)>>,
    pub(crate) faults: Faults,
}

fn injected() -> StoreError {
    StoreError::Range("injected storage fault".into())
}

impl MemStore {
    fn write(&self) -> Result<(), StoreError> {
        if self.faults.refuse.load(Ordering::SeqCst) { Err(injected()) } else { Ok(()) }
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
        self.write()?;
        self.players.lock().unwrap().insert(p.id, p.clone());
        Ok(())
    }
    async fn player_by_token(&self, hash: &str) -> Result<Option<PlayerRow>, StoreError> {
        Ok(self.players.lock().unwrap().values().find(|p| p.token_hash == hash).cloned())
    }
    async fn player(&self, id: u64) -> Result<Option<PlayerRow>, StoreError> {
        Ok(self.players.lock().unwrap().get(&id).cloned())
    }
    async fn touch_player(&self, id: u64, ms: u64) -> Result<(), StoreError> {
        if let Some(p) = self.players.lock().unwrap().get_mut(&id) {
            p.last_seen_ms = ms;
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
        Ok(self.matches.lock().unwrap().get(&id).cloned())
    }
    async fn events(&self, id: u64) -> Result<Vec<EventRow>, StoreError> {
        Ok(self.log(id))
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
