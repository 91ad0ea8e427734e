//! Failed log-ins, counted per name *from one address* and per address, so guessing a password
//! is slow and then refused. Each key has a number of free failures (`login_failures_per_name`,
//! `login_failures_per_address`); the next failure locks the key out for `login_lockout_ms`, and
//! every failure beyond doubles it (up to 64 times the lock-out). While the name is locked out
//! for the guessing address, or the address itself is, every attempt from it is refused
//! unchecked — a right password too, or the lock-out would tell a guesser when he has found it.
//! A name is never locked for everyone: the account's owner logs in from his own address while
//! another guesses (a lock per name alone would let anyone lock any account). A success clears
//! the name's count at that address (not the address's: one account of his own must not reset a
//! guesser's address). A failure with a name that no account can have counts against the
//! address alone, so the keys tracked are bounded names. A key whose last failure is older
//! than 64 lock-outs (the longest) starts again from zero. IPv6 addresses count by their /64 prefix (one
//! machine commonly holds a whole /64).
//!
//! Time is tokio's `Instant`, so tests run on the paused clock.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::Duration;

use tokio::time::Instant;

use crate::config::ServerConfig;
use crate::service::addresses::prefix;

/// Keys tracked at most; beyond, keys that are neither locked nor recent are forgotten first.
const MAX_TRACKED: usize = 100_000;

/// The limits of the configuration.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AttemptLimits {
    pub(crate) per_name: u32,
    pub(crate) per_address: u32,
    pub(crate) lockout: Duration,
    /// `registrations_per_address_per_hour`.
    pub(crate) registrations_per_hour: u32,
    /// `guest_sessions_per_address_per_hour`.
    pub(crate) guests_per_hour: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Key {
    /// A name (its lower-case key) tried from an address (its prefix).
    NameAt(String, IpAddr),
    Address(IpAddr),
}

#[derive(Debug)]
struct Record {
    failures: u32,
    last: Instant,
    locked_until: Option<Instant>,
}

/// The failures of every name and address.
pub(crate) struct Attempts {
    limits: AttemptLimits,
    map: Mutex<HashMap<Key, Record>>,
    /// Held across a start's check and count ([`Attempts::begin`]).
    begin: Mutex<()>,
}

impl Attempts {
    pub(crate) fn new(limits: AttemptLimits) -> Attempts {
        Attempts { limits, map: Mutex::default(), begin: Mutex::default() }
    }

    /// `Err(time left)` while the name (its lower-case key) is locked out for this address, or
    /// the address is.
    pub(crate) fn check(&self, name_key: &str, addr: IpAddr) -> Result<(), Duration> {
        let now = Instant::now();
        let map = self.map.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let left = [Key::NameAt(name_key.to_owned(), prefix(addr)), Key::Address(prefix(addr))]
            .iter()
            .filter_map(|k| map.get(k)?.locked_until)
            .filter(|&until| until > now)
            .map(|until| until - now)
            .max();
        left.map_or(Ok(()), Err)
    }

    /// `Err(time left)` while the address is locked out.
    pub(crate) fn check_address(&self, addr: IpAddr) -> Result<(), Duration> {
        let now = Instant::now();
        let map = self.map.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        match map.get(&Key::Address(prefix(addr))).and_then(|r| r.locked_until) {
            Some(until) if until > now => Err(until - now),
            _ => Ok(()),
        }
    }

    /// Counts a failure against the name at this address (when it is a name an account may
    /// have: a valid key) and against the address.
    pub(crate) fn fail(&self, name_key: Option<&str>, addr: IpAddr) {
        let now = Instant::now();
        let mut map = self.map.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if map.len() >= MAX_TRACKED {
            let horizon = self.limits.lockout * 64;
            map.retain(|_, r| r.locked_until.is_some_and(|u| u > now) || now - r.last < horizon);
        }
        let name = name_key.map(|n| (Key::NameAt(n.to_owned(), prefix(addr)), self.limits.per_name));
        for (key, free) in name.into_iter().chain([(Key::Address(prefix(addr)), self.limits.per_address)]) {
            let r = map.entry(key).or_insert(Record { failures: 0, last: now, locked_until: None });
            let locked = r.locked_until.is_some_and(|u| u > now);
            if !locked && now - r.last > self.limits.lockout * 64 {
                r.failures = 0;
            }
            r.failures += 1;
            r.last = now;
            if r.failures > free {
                let doublings = (r.failures - free - 1).min(6);
                r.locked_until = Some(now + self.limits.lockout * (1 << doublings));
            }
        }
    }

    /// Starts a log-in: refused while the name is locked out at this address or the address is
    /// ([`Attempts::check`]); else counted as a failure at once ([`Attempts::fail`]), under one
    /// lock, so that attempts in flight count before their passwords are checked. A success gives
    /// it back ([`Attempts::succeed`]).
    pub(crate) fn begin(&self, name_key: Option<&str>, addr: IpAddr) -> Result<(), Duration> {
        let _one_at_a_time = self.begin.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        self.check(name_key.unwrap_or(""), addr)?;
        self.fail(name_key, addr);
        Ok(())
    }

    /// A right password: the name starts again from zero at this address, and the address has
    /// back the failure its start counted (and is unlocked if that alone locked it).
    pub(crate) fn succeed(&self, name_key: &str, addr: IpAddr) {
        let mut map = self.map.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        map.remove(&Key::NameAt(name_key.to_owned(), prefix(addr)));
        if let Some(r) = map.get_mut(&Key::Address(prefix(addr))) {
            r.failures = r.failures.saturating_sub(1);
            if r.failures <= self.limits.per_address {
                r.locked_until = None;
            }
        }
    }
}

impl AttemptLimits {
    /// The log-in limits of `config`.
    pub(crate) fn of(config: &ServerConfig) -> AttemptLimits {
        AttemptLimits {
            per_name: config.login_failures_per_name,
            per_address: config.login_failures_per_address,
            lockout: Duration::from_millis(config.login_lockout_ms),
            registrations_per_hour: config.registrations_per_address_per_hour,
            guests_per_hour: config.guest_sessions_per_address_per_hour,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: AttemptLimits = AttemptLimits {
        per_name: 3,
        per_address: 5,
        lockout: Duration::from_secs(60),
        registrations_per_hour: 1,
        guests_per_hour: 1,
    };

    fn addr(last: u8) -> IpAddr {
        IpAddr::from([10, 0, 0, last])
    }

    #[tokio::test(start_paused = true)]
    async fn a_name_is_locked_out_for_the_guessing_address_after_its_free_failures_and_the_lockout_doubles() {
        let a = Attempts::new(AttemptLimits { per_address: 100, ..LIMITS });
        for _ in 0..3 {
            assert_eq!(a.check("alice", addr(1)), Ok(()));
            a.fail(Some("alice"), addr(1));
        }
        assert_eq!(a.check("alice", addr(1)), Ok(()), "three failures are free");
        a.fail(Some("alice"), addr(1));
        assert_eq!(
            a.check("alice", addr(1)),
            Err(Duration::from_secs(60)),
            "the fourth locks the name there"
        );
        assert_eq!(a.check("bob", addr(1)), Ok(()), "another name is not locked");
        assert_eq!(a.check("alice", addr(2)), Ok(()), "nor the name from another address: its owner logs in");
        tokio::time::advance(Duration::from_secs(61)).await;
        assert_eq!(a.check("alice", addr(1)), Ok(()), "the lockout passes");
        a.fail(Some("alice"), addr(1));
        assert_eq!(a.check("alice", addr(1)), Err(Duration::from_secs(120)), "the next one doubles it");
        tokio::time::advance(Duration::from_secs(121)).await;
        a.succeed("alice", addr(1));
        a.fail(Some("alice"), addr(1));
        assert_eq!(a.check("alice", addr(1)), Ok(()), "a success starts the name from zero there");
    }

    #[tokio::test(start_paused = true)]
    async fn many_addresses_failing_one_name_never_lock_it_for_another_address() {
        let a = Attempts::new(LIMITS);
        for i in 0..50 {
            a.fail(Some("alice"), addr(i));
        }
        assert_eq!(a.check("alice", addr(200)), Ok(()), "the owner's address was never refused");
    }

    #[tokio::test(start_paused = true)]
    async fn a_name_no_account_may_have_counts_against_the_address_alone() {
        let a = Attempts::new(LIMITS);
        for _ in 0..5 {
            a.fail(None, addr(1));
        }
        assert_eq!(a.map.lock().unwrap().len(), 1, "only the address is tracked");
        assert_eq!(a.check("alice", addr(1)), Ok(()), "five failures are the address's free ones");
        a.fail(None, addr(1));
        assert!(a.check("alice", addr(1)).is_err(), "the sixth locks the address out");
        assert_eq!(a.check("", addr(2)), Ok(()), "and nobody else");
    }

    #[tokio::test(start_paused = true)]
    async fn an_address_guessing_many_names_is_locked_out_and_forgiven_later() {
        let a = Attempts::new(LIMITS);
        for i in 0..6 {
            a.fail(Some(&format!("name{i}")), addr(1));
        }
        let left = a.check("someone-else", addr(1)).unwrap_err();
        assert_eq!(left, Duration::from_secs(60), "six failures from one address lock it out");
        assert_eq!(a.check("someone-else", addr(2)), Ok(()), "another address is not");
        let v6 = |last: u16| IpAddr::from([0x2001, 0xdb8, 0, 1, 0, 0, 0, last]);
        for i in 0..6 {
            a.fail(Some(&format!("v6-{i}")), v6(i));
        }
        assert!(a.check("x", v6(99)).is_err(), "IPv6 counts by /64: a new address in it is locked too");
        tokio::time::advance(Duration::from_secs(61)).await;
        assert_eq!(a.check("someone-else", addr(1)), Ok(()), "the lockout passes");
        tokio::time::advance(Duration::from_secs(64 * 60)).await;
        a.fail(Some("name0"), addr(1));
        // The address's last failure was longer than 64 lockouts ago: it counts from one again.
        assert_eq!(a.check("someone-else", addr(1)), Ok(()));
    }
}
