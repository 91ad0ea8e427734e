//! Failed log-ins, counted per name and per address, so guessing a password is slow and then
//! refused. Each key has a number of free failures (`login_failures_per_name`,
//! `login_failures_per_address`); the next failure locks the key out for `login_lockout_ms`, and
//! every failure beyond doubles it (at most 64 times). While either the name or the address is
//! locked out, every attempt is refused unchecked — a right password too, or the lock-out would
//! tell a guesser when he has found it. A success clears the name's count (not the address's:
//! one account of his own must not reset a guesser's address). A key whose last failure is older
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

/// Keys tracked at most; beyond, keys that are neither locked nor recent are forgotten first.
const MAX_TRACKED: usize = 100_000;

/// The limits of the configuration.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AttemptLimits {
    pub(crate) per_name: u32,
    pub(crate) per_address: u32,
    pub(crate) lockout: Duration,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Key {
    Name(String),
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
}

impl Attempts {
    pub(crate) fn new(limits: AttemptLimits) -> Attempts {
        Attempts { limits, map: Mutex::default() }
    }

    /// `Err(time left)` while the name (its lower-case key) or the address is locked out.
    pub(crate) fn check(&self, name_key: &str, addr: IpAddr) -> Result<(), Duration> {
        let now = Instant::now();
        let map = self.map.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let left = [Key::Name(name_key.to_owned()), Key::Address(prefix(addr))]
            .iter()
            .filter_map(|k| map.get(k)?.locked_until)
            .filter(|&until| until > now)
            .map(|until| until - now)
            .max();
        left.map_or(Ok(()), Err)
    }

    /// Counts a failure against the name and the address.
    pub(crate) fn fail(&self, name_key: &str, addr: IpAddr) {
        let now = Instant::now();
        let mut map = self.map.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if map.len() >= MAX_TRACKED {
            let horizon = self.limits.lockout * 64;
            map.retain(|_, r| r.locked_until.is_some_and(|u| u > now) || now - r.last < horizon);
        }
        for (key, free) in [
            (Key::Name(name_key.to_owned()), self.limits.per_name),
            (Key::Address(prefix(addr)), self.limits.per_address),
        ] {
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

    /// A right password: the name starts again from zero.
    pub(crate) fn succeed(&self, name_key: &str) {
        let mut map = self.map.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        map.remove(&Key::Name(name_key.to_owned()));
    }
}

/// The address as counted: IPv4 whole, IPv6 by its /64 prefix.
fn prefix(addr: IpAddr) -> IpAddr {
    match addr {
        IpAddr::V4(_) => addr,
        IpAddr::V6(v6) => {
            let bits = u128::from(v6) & !((1u128 << 64) - 1);
            IpAddr::V6(bits.into())
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
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: AttemptLimits =
        AttemptLimits { per_name: 3, per_address: 5, lockout: Duration::from_secs(60) };

    fn addr(last: u8) -> IpAddr {
        IpAddr::from([10, 0, 0, last])
    }

    #[tokio::test(start_paused = true)]
    async fn a_name_is_locked_out_after_its_free_failures_and_the_lockout_doubles() {
        let a = Attempts::new(LIMITS);
        for i in 0..3 {
            assert_eq!(a.check("alice", addr(i)), Ok(()));
            a.fail("alice", addr(i));
        }
        assert_eq!(a.check("alice", addr(9)), Ok(()), "three failures are free, from anywhere");
        a.fail("alice", addr(9));
        assert_eq!(a.check("alice", addr(10)), Err(Duration::from_secs(60)), "the fourth locks the name");
        assert_eq!(a.check("bob", addr(10)), Ok(()), "another name is not locked");
        tokio::time::advance(Duration::from_secs(61)).await;
        assert_eq!(a.check("alice", addr(10)), Ok(()), "the lockout passes");
        a.fail("alice", addr(11));
        assert_eq!(a.check("alice", addr(10)), Err(Duration::from_secs(120)), "the next one doubles it");
        tokio::time::advance(Duration::from_secs(121)).await;
        a.succeed("alice");
        a.fail("alice", addr(12));
        assert_eq!(a.check("alice", addr(12)), Ok(()), "a success starts the name from zero");
    }

    #[tokio::test(start_paused = true)]
    async fn an_address_guessing_many_names_is_locked_out_and_forgiven_later() {
        let a = Attempts::new(LIMITS);
        for i in 0..6 {
            a.fail(&format!("name{i}"), addr(1));
        }
        let left = a.check("someone-else", addr(1)).unwrap_err();
        assert_eq!(left, Duration::from_secs(60), "six failures from one address lock it out");
        assert_eq!(a.check("someone-else", addr(2)), Ok(()), "another address is not");
        let v6 = |last: u16| IpAddr::from([0x2001, 0xdb8, 0, 1, 0, 0, 0, last]);
        for i in 0..6 {
            a.fail(&format!("v6-{i}"), v6(i));
        }
        assert!(a.check("x", v6(99)).is_err(), "IPv6 counts by /64: a new address in it is locked too");
        tokio::time::advance(Duration::from_secs(61)).await;
        assert_eq!(a.check("someone-else", addr(1)), Ok(()), "the lockout passes");
        tokio::time::advance(Duration::from_secs(64 * 60)).await;
        a.fail("name0", addr(1));
        // The address's last failure was longer than 64 lockouts ago: it counts from one again.
        assert_eq!(a.check("someone-else", addr(1)), Ok(()));
    }
}
