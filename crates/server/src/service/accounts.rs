//! Accounts on the server: the rules of names and passwords, argon2id hashing, and log-in.
//!
//! A log-in costs the same whether or not its name is registered: an unknown name is checked
//! against a dummy hash made at start with the same parameters, so the answer's timing does not
//! tell which names exist, and both answers are the same `BadCredentials`. Hashing (tens of
//! milliseconds, 19 MiB) runs on tokio's blocking threads, never on the runtime's, at most
//! [`HASHES_AT_ONCE`] at a time. Failures are counted per name and per address (`attempts.rs`),
//! each attempt *before* its password is checked (a success gives it back), so guesses sent at
//! once over many connections are refused once the allowance is spent, unhashed; each failed
//! answer is also held back `login_failure_delay_ms`, so one connection guesses slowly even
//! before a lock-out.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use argon2::Argon2;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use shvedka_proto::{ErrorCode, ErrorMsg, Limit, OfficialRefusal};
use shvedka_storage::{AccountRow, NewAccount, Store};

use crate::service::addresses::Rate;
use crate::service::attempts::{AttemptLimits, Attempts};
use crate::service::convert::error;
use crate::service::wall::unix_ms;

/// Length of a name, in characters.
pub(crate) const NAME_LEN: std::ops::RangeInclusive<usize> = 2..=24;
/// Length of a password, in characters.
pub(crate) const PASSWORD_LEN: std::ops::RangeInclusive<usize> = 8..=128;
/// Names a generated guest name starts with; no account may take them.
pub(crate) const GUEST_PREFIX: &str = "guest";

/// The lower-case key of a name that may be registered: 2 to 24 ASCII letters, digits, `_` or
/// `-`, starting with a letter, not starting with `guest`. ASCII only, so no two names differ by
/// a look-alike letter and case-folding is exact.
///
/// # Errors
/// `BadRequest` naming the rule broken.
pub(crate) fn name_key(name: &str) -> Result<String, ErrorMsg> {
    let ok_chars = name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    let starts = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic());
    let key = name.to_ascii_lowercase();
    if !NAME_LEN.contains(&name.chars().count()) || !ok_chars || !starts || key.starts_with(GUEST_PREFIX) {
        return Err(error(
            ErrorCode::Invalid(shvedka_proto::Invalid::AccountName {
                min: *NAME_LEN.start() as u32,
                max: *NAME_LEN.end() as u32,
            }),
            format!(
                "an account name has {} to {} ASCII letters, digits, _ or -, starts with a letter, and does not start with \"{GUEST_PREFIX}\"",
                NAME_LEN.start(),
                NAME_LEN.end()
            ),
        ));
    }
    Ok(key)
}

/// Checks a new password's length.
///
/// # Errors
/// `BadRequest`.
pub(crate) fn check_password(password: &str) -> Result<(), ErrorMsg> {
    if PASSWORD_LEN.contains(&password.chars().count()) {
        Ok(())
    } else {
        Err(error(
            ErrorCode::Invalid(shvedka_proto::Invalid::Password {
                min: *PASSWORD_LEN.start() as u32,
                max: *PASSWORD_LEN.end() as u32,
            }),
            format!("a password has {} to {} characters", PASSWORD_LEN.start(), PASSWORD_LEN.end()),
        ))
    }
}

/// Password hashes (and checks) computed at once, at most: argon2id takes 19 MiB and a core's
/// time for each, so a crowd of log-ins waits its turn (first come first served) rather than
/// take the server's memory and threads.
pub(crate) const HASHES_AT_ONCE: usize = 2;

static HASHING: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(HASHES_AT_ONCE);

/// The argon2id PHC string of a password (default parameters: 19 MiB, 2 passes, 1 lane), on a
/// blocking thread, in its turn ([`HASHES_AT_ONCE`]).
pub(crate) async fn hash(password: &str) -> Result<String, ErrorMsg> {
    let password = password.to_owned();
    let _turn = HASHING.acquire().await.expect("never closed");
    tokio::task::spawn_blocking(move || hash_now(&password))
        .await
        .ok()
        .flatten()
        .ok_or_else(|| error(ErrorCode::Unavailable, "the password cannot be hashed now; try again"))
}

/// The argon2id PHC string of a password, on this thread.
pub(crate) fn hash_now(password: &str) -> Option<String> {
    Argon2::default().hash_password(password.as_bytes()).map(|h| h.to_string()).ok()
}

/// Whether `password` matches the PHC string `hash`, on a blocking thread, in its turn.
async fn verify(password: &str, hash: String) -> bool {
    let password = password.to_owned();
    let _turn = HASHING.acquire().await.expect("never closed");
    tokio::task::spawn_blocking(move || {
        Argon2::default().verify_password(password.as_bytes(), hash.as_str()).is_ok()
    })
    .await
    .unwrap_or(false)
}

/// The accounts of the server: the store's rows, the dummy hash and the failed attempts.
pub(crate) struct Accounts {
    store: Arc<dyn Store>,
    dummy: String,
    attempts: Attempts,
    /// Registrations per address and hour.
    registrations: Rate,
    /// New guest sessions per address and hour.
    guests: Rate,
    failure_delay: Duration,
}

impl Accounts {
    /// Over `store`; makes the dummy hash.
    pub(crate) async fn new(
        store: Arc<dyn Store>,
        limits: AttemptLimits,
        failure_delay: Duration,
    ) -> Accounts {
        let mut seed = [0u8; 16];
        getrandom::fill(&mut seed).expect("the system random source works");
        let dummy = hash(&format!("{seed:?}")).await.expect("a password hashes");
        let registrations = Rate::per_hour(limits.registrations_per_hour);
        let guests = Rate::per_hour(limits.guests_per_hour);
        Accounts { store, dummy, attempts: Attempts::new(limits), registrations, guests, failure_delay }
    }

    /// Takes one new guest session of `addr`'s hour (`guest_sessions_per_address_per_hour`):
    /// each is a row kept for good, so one address may not make them without end.
    ///
    /// # Errors
    /// The address made as many this hour as it may.
    pub(crate) fn new_guest(&self, addr: IpAddr) -> Result<(), String> {
        if self.guests.take(addr) {
            return Ok(());
        }
        Err("too many guest sessions opened from this address; resume yours (its token), log in, or try \
             again later (guest_sessions_per_address_per_hour)"
            .into())
    }

    /// The store's error as a refusal.
    fn unavailable(e: &shvedka_storage::StoreError) -> ErrorMsg {
        tracing::error!(error = %e, "accounts: the store failed");
        error(ErrorCode::Unavailable, "the server cannot read or write accounts now; try again")
    }

    fn locked(left: Duration) -> ErrorMsg {
        error(
            ErrorCode::Limit(Limit::LoginAttempts),
            format!("too many failed log-ins; try again in {} s", left.as_secs().max(1)),
        )
    }

    /// Whether a name (any case) is registered; a guest may not take it.
    pub(crate) async fn is_registered(&self, name: &str) -> Result<bool, ErrorMsg> {
        let key = name.to_lowercase();
        Ok(self.store.account_by_name(&key).await.map_err(|e| Self::unavailable(&e))?.is_some())
    }

    /// A tournament player: the account's name as registered, for a name in any case.
    ///
    /// # Errors
    /// `NoSuchAccount` (none, or disabled).
    pub(crate) async fn player(&self, name: &str) -> Result<String, ErrorMsg> {
        let row = self
            .store
            .account_by_name(&name.to_ascii_lowercase())
            .await
            .map_err(|e| Self::unavailable(&e))?;
        match row {
            Some(a) if !a.disabled => Ok(a.name),
            _ => Err(error(
                ErrorCode::NoSuchAccount,
                format!("no account {name}: a tournament player registers first"),
            )),
        }
    }

    /// One account by id.
    pub(crate) async fn account(&self, id: u64) -> Result<Option<AccountRow>, ErrorMsg> {
        self.store.account(id).await.map_err(|e| Self::unavailable(&e))
    }

    /// Registers a new account (at most `registrations_per_address_per_hour` from one address:
    /// each costs a password hash and a row).
    pub(crate) async fn register(
        &self,
        name: &str,
        password: &str,
        bot: bool,
        addr: IpAddr,
    ) -> Result<AccountRow, ErrorMsg> {
        let key = name_key(name)?;
        check_password(password)?;
        if !self.registrations.take(addr) {
            return Err(error(
                ErrorCode::Limit(Limit::Registrations),
                "too many accounts registered from this address; try again later (registrations_per_address_per_hour)",
            ));
        }
        let taken = || error(ErrorCode::NameTaken, format!("the name {name} is registered already"));
        // A taken name is refused before the (costly) hash; the store's unique key still decides
        // between two registrations racing for one name.
        if self.store.account_by_name(&key).await.map_err(|e| Self::unavailable(&e))?.is_some() {
            return Err(taken());
        }
        let password_hash = hash(password).await?;
        let new =
            NewAccount { name: name.to_owned(), name_key: key, password_hash, bot, created_ms: unix_ms() };
        let id = self.store.add_account(&new).await.map_err(|e| Self::unavailable(&e))?;
        let Some(id) = id else { return Err(taken()) };
        tracing::info!(name, id, bot, "account registered");
        self.account(id).await?.ok_or_else(|| error(ErrorCode::Unavailable, "the account is gone"))
    }

    /// Checks a name and password: the account, or a refusal that says nothing of whether the
    /// name exists.
    pub(crate) async fn login(
        &self,
        name: &str,
        password: &str,
        addr: IpAddr,
    ) -> Result<AccountRow, ErrorMsg> {
        // A name no account may have is refused as a wrong password, counted against the
        // address alone (the tracked keys stay bounded names).
        let key = name_key(name).ok();
        let lookup = key.as_deref().unwrap_or("");
        // Counted as a failure before the (costly) check and given back if it succeeds, so that
        // guesses sent at once over many connections count before any is hashed.
        self.attempts.begin(key.as_deref(), addr).map_err(Self::locked)?;
        let row = match &key {
            Some(key) => self.store.account_by_name(key).await.map_err(|e| Self::unavailable(&e))?,
            None => None,
        };
        let hash = row.as_ref().map_or_else(|| self.dummy.clone(), |r| r.password_hash.clone());
        let fits = password.len() <= PASSWORD_LEN.end() * 4;
        // Checked whatever the row: the same work for an unknown name.
        let right = verify(if fits { password } else { "" }, hash).await && fits;
        let Some(row) = row.filter(|_| right) else {
            tracing::info!(name = lookup, %addr, "log-in refused");
            tokio::time::sleep(self.failure_delay).await;
            return Err(error(ErrorCode::BadCredentials, "wrong name or password"));
        };
        self.attempts.succeed(lookup, addr);
        if row.disabled {
            return Err(error(ErrorCode::AccountDisabled, format!("the account {} is disabled", row.name)));
        }
        Ok(row)
    }

    /// Checks a secret (the arbiters' or directors') from `addr` with `check`, counting a wrong one
    /// (`Official(WrongSecret)`) as a failed log-in of the address: refused `Limit(LoginAttempts)` unchecked
    /// while the address is locked out.
    ///
    /// # Errors
    /// `Limit(LoginAttempts)`, or what `check` answers.
    pub(crate) fn guessing<T>(
        &self,
        addr: IpAddr,
        check: impl FnOnce() -> Result<T, ErrorMsg>,
    ) -> Result<T, ErrorMsg> {
        self.attempts.check_address(addr).map_err(Self::locked)?;
        let answer = check();
        if matches!(
            &answer,
            Err(ErrorMsg { code: ErrorCode::Official(OfficialRefusal::WrongSecret { .. }), .. })
        ) {
            self.attempts.fail(None, addr);
        }
        answer
    }

    /// Changes an account's password, checking the old one as a log-in does.
    pub(crate) async fn change_password(
        &self,
        id: u64,
        old: &str,
        new: &str,
        addr: IpAddr,
    ) -> Result<(), ErrorMsg> {
        check_password(new)?;
        let row =
            self.account(id).await?.ok_or_else(|| error(ErrorCode::LoginRequired, "no such account"))?;
        self.login(&row.name, old, addr).await?;
        let new_hash = hash(new).await?;
        self.store.set_password(id, &new_hash).await.map_err(|e| Self::unavailable(&e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_store::MemStore;
    use shvedka_storage::Accounts as _;

    #[test]
    fn names_follow_the_documented_rules() {
        for good in ["al", "Alice", "bob_2", "x-y-z", "Abcdefghijklmnopqrstuvwx"] {
            assert!(name_key(good).is_ok(), "{good}");
        }
        assert_eq!(name_key("AlIcE").unwrap(), "alice");
        for bad in [
            "a",
            "2pac",
            "_x",
            "al ice",
            "аlice",
            "alice!",
            "Guest7",
            "guestbook",
            "",
            "abcdefghijklmnopqrstuvwxy",
        ] {
            let e = name_key(bad).unwrap_err();
            assert_eq!(
                e.code,
                ErrorCode::Invalid(shvedka_proto::Invalid::AccountName { min: 2, max: 24 }),
                "{bad}"
            );
        }
        assert!(check_password("1234567").is_err() && check_password("12345678").is_ok());
        assert!(check_password(&"x".repeat(129)).is_err());
    }

    const LIMITS: AttemptLimits = AttemptLimits {
        per_name: 2,
        per_address: 100,
        lockout: Duration::from_secs(60),
        registrations_per_hour: 3,
        guests_per_hour: 2,
    };
    const OTHER: IpAddr = IpAddr::V4(std::net::Ipv4Addr::new(127, 0, 0, 2));
    const ADDR: IpAddr = IpAddr::V4(std::net::Ipv4Addr::LOCALHOST);

    #[tokio::test]
    async fn brute_force_is_slowed_then_refused_and_the_right_password_works_afterwards() {
        tokio::time::pause();
        let accounts = Accounts::new(Arc::new(MemStore::default()), LIMITS, Duration::from_secs(1)).await;
        let alice = accounts.register("Alice", "correct horse", false, ADDR).await.unwrap();
        assert_eq!(alice.name, "Alice");
        let taken = accounts.register("ALICE", "another one", false, ADDR).await.unwrap_err();
        assert_eq!(taken.code, ErrorCode::NameTaken);
        assert!(accounts.is_registered("aLiCe").await.unwrap());
        assert_eq!(accounts.login("alice", "correct horse", ADDR).await.unwrap().id, alice.id, "any case");

        for _ in 0..2 {
            let start = tokio::time::Instant::now();
            let e = accounts.login("alice", "wrong", ADDR).await.unwrap_err();
            assert_eq!(e.code, ErrorCode::BadCredentials);
            assert!(start.elapsed() >= Duration::from_secs(1), "a wrong password is answered late");
        }
        let unknown = accounts.login("nobody", "wrong", ADDR).await.unwrap_err();
        assert_eq!(
            (unknown.code, unknown.message.as_str()),
            (ErrorCode::BadCredentials, "wrong name or password")
        );
        let e = accounts.login("alice", "wrong", ADDR).await.unwrap_err();
        assert_eq!(e.code, ErrorCode::BadCredentials, "the third failure is checked, then locks");
        for password in ["wrong", "correct horse"] {
            let e = accounts.login("alice", password, ADDR).await.unwrap_err();
            assert_eq!(e.code, ErrorCode::Limit(Limit::LoginAttempts), "locked out, the right password too");
        }
        let owner = accounts.login("alice", "correct horse", OTHER).await;
        assert_eq!(owner.expect("meanwhile her owner logs in from his own address").id, alice.id);
        tokio::time::advance(Duration::from_secs(61)).await;
        let back = accounts.login("alice", "correct horse", ADDR).await.expect("after the lockout");
        assert_eq!(back.id, alice.id);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn guesses_sent_at_once_count_before_any_is_hashed_and_a_success_gives_its_count_back() {
        let limits = AttemptLimits { per_name: 3, per_address: 100, ..LIMITS };
        let accounts = Arc::new(Accounts::new(Arc::new(MemStore::default()), limits, Duration::ZERO).await);
        accounts.register("alice", "correct horse", false, ADDR).await.unwrap();
        // Forty guesses at once, as over forty connections: only the allowance (3, the 4th locks)
        // is ever checked; the rest are refused before their password is hashed.
        let guesses: Vec<_> = (0..40)
            .map(|_| {
                let accounts = accounts.clone();
                tokio::spawn(async move { accounts.login("alice", "wrong", ADDR).await.unwrap_err().code })
            })
            .collect();
        let mut checked = 0;
        for g in guesses {
            match g.await.unwrap() {
                ErrorCode::BadCredentials => checked += 1,
                code => assert_eq!(code, ErrorCode::Limit(Limit::LoginAttempts)),
            }
        }
        assert_eq!(checked, 4, "the allowance and the one that locks, no more");
        // A success gives back what its start counted: an honest user at his address's last
        // allowed attempt is not locked out by his own right password.
        let limits = AttemptLimits { per_name: 10, per_address: 2, ..LIMITS };
        let accounts = Accounts::new(Arc::new(MemStore::default()), limits, Duration::ZERO).await;
        accounts.register("bob", "correct horse", false, ADDR).await.unwrap();
        accounts.login("bob", "wrong", ADDR).await.unwrap_err();
        accounts.login("bob", "wrong", ADDR).await.unwrap_err();
        accounts
            .login("bob", "correct horse", ADDR)
            .await
            .expect("the third start locks, its success unlocks");
        accounts.login("bob", "correct horse", ADDR).await.expect("and the address is not locked after");
    }

    #[tokio::test]
    async fn failed_log_ins_with_names_no_account_may_have_lock_neither_registration_nor_others() {
        tokio::time::pause();
        let accounts = Accounts::new(Arc::new(MemStore::default()), LIMITS, Duration::ZERO).await;
        for name in ["", "", "", "x", "guest1", &"y".repeat(10_000)] {
            let e = accounts.login(name, "wrong", ADDR).await.unwrap_err();
            assert_eq!(e.code, ErrorCode::BadCredentials, "{:.10}", name);
        }
        let carol = accounts.register("carol", "correct horse", false, OTHER).await;
        assert!(carol.is_ok(), "registration is not locked by anyone's failures: {carol:?}");
        accounts.register("dave", "correct horse", false, ADDR).await.expect("nor from the failing address");
    }

    #[tokio::test]
    async fn registrations_from_one_address_are_limited_per_hour_and_others_are_not() {
        let accounts = Accounts::new(Arc::new(MemStore::default()), LIMITS, Duration::ZERO).await;
        for i in 0..3 {
            accounts.register(&format!("user{i}"), "correct horse", false, ADDR).await.unwrap();
        }
        let e = accounts.register("user3", "correct horse", false, ADDR).await.unwrap_err();
        assert_eq!(e.code, ErrorCode::Limit(Limit::Registrations));
        assert!(!accounts.is_registered("user3").await.unwrap(), "nothing was stored");
        accounts.register("user4", "correct horse", false, OTHER).await.expect("another address registers");
    }

    #[tokio::test]
    async fn a_password_change_needs_the_old_password_and_a_disabled_account_is_refused() {
        let store = Arc::new(MemStore::default());
        let accounts = Accounts::new(store.clone(), LIMITS, Duration::ZERO).await;
        let bob = accounts.register("bob", "old password", true, ADDR).await.unwrap();
        assert!(bob.bot);
        let wrong = accounts.change_password(bob.id, "not it", "new password", ADDR).await.unwrap_err();
        assert_eq!(wrong.code, ErrorCode::BadCredentials);
        let short = accounts.change_password(bob.id, "old password", "short", ADDR).await.unwrap_err();
        assert_eq!(short.code, ErrorCode::Invalid(shvedka_proto::Invalid::Password { min: 8, max: 128 }));
        accounts.change_password(bob.id, "old password", "new password", ADDR).await.unwrap();
        assert!(accounts.login("bob", "old password", ADDR).await.is_err());
        accounts.login("bob", "new password", ADDR).await.unwrap();
        store.set_disabled(bob.id, true).await.unwrap();
        let e = accounts.login("bob", "new password", ADDR).await.unwrap_err();
        assert_eq!(e.code, ErrorCode::AccountDisabled);
    }
}
