//! Limits per client address. An address counts by its prefix: IPv4 whole, IPv6 by its /64 (one
//! machine commonly holds a whole /64, so counting single IPv6 addresses would limit nothing).
//! Rates per address (registrations, guests, new connections) are GCRA limiters of `governor`,
//! keyed by that prefix; the
//! keys of addresses quiet for a whole period are dropped as new ones come, so what is tracked
//! stays bounded by the addresses active within it.

use std::collections::HashMap;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};

use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

/// Addresses tracked before the quiet ones are dropped.
const PRUNE_ABOVE: usize = 10_000;

/// The address as counted: IPv4 whole, IPv6 by its /64 prefix.
pub(crate) fn prefix(addr: IpAddr) -> IpAddr {
    match addr {
        IpAddr::V4(_) => addr,
        IpAddr::V6(v6) => {
            let bits = u128::from(v6) & !((1u128 << 64) - 1);
            IpAddr::V6(bits.into())
        }
    }
}

/// So many events per period from one address: a burst, then evenly replenished.
pub(crate) struct Rate {
    limiter: DefaultKeyedRateLimiter<IpAddr>,
}

impl Rate {
    /// `per_hour` events per hour per address, all at once if they come so (at least one).
    pub(crate) fn per_hour(per_hour: u32) -> Rate {
        let n = NonZeroU32::new(per_hour.max(1)).expect("at least one");
        Rate { limiter: RateLimiter::keyed(Quota::per_hour(n)) }
    }

    /// `per_second` events a second per address, with a burst of `burst` (each at least one).
    pub(crate) fn per_second(per_second: u32, burst: u32) -> Rate {
        let n = NonZeroU32::new(per_second.max(1)).expect("at least one");
        let burst = NonZeroU32::new(burst.max(1)).expect("at least one");
        Rate { limiter: RateLimiter::keyed(Quota::per_second(n).allow_burst(burst)) }
    }

    /// Takes one event for `addr`: `false` when its address has none left now.
    pub(crate) fn take(&self, addr: IpAddr) -> bool {
        if self.limiter.len() > PRUNE_ABOVE {
            self.limiter.retain_recent();
        }
        self.limiter.check_key(&prefix(addr)).is_ok()
    }
}

/// At most so many things at once per address (connections), each counted while its
/// [`Held`] lives; an address holding none is not tracked.
#[derive(Debug)]
pub(crate) struct AtOnce {
    max: usize,
    counts: Mutex<HashMap<IpAddr, usize>>,
}

/// One thing an address holds; dropping it frees its place.
#[derive(Debug)]
pub(crate) struct Held {
    of: Arc<AtOnce>,
    addr: IpAddr,
}

impl AtOnce {
    /// At most `max` at once per address.
    pub(crate) fn new(max: usize) -> Arc<AtOnce> {
        Arc::new(AtOnce { max, counts: Mutex::default() })
    }

    /// A place for `addr`, unless its address holds `max` already.
    pub(crate) fn take(self: &Arc<Self>, addr: IpAddr) -> Option<Held> {
        let addr = prefix(addr);
        let mut counts = self.counts.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let n = counts.entry(addr).or_insert(0);
        if *n >= self.max {
            return None;
        }
        *n += 1;
        Some(Held { of: self.clone(), addr })
    }

    /// Addresses holding something now.
    #[cfg(test)]
    pub(crate) fn addresses(&self) -> usize {
        self.counts.lock().unwrap_or_else(std::sync::PoisonError::into_inner).len()
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut counts = self.of.counts.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(n) = counts.get_mut(&self.addr) {
            *n -= 1;
            if *n == 0 {
                counts.remove(&self.addr);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_has_its_hourly_allowance_and_others_keep_theirs() {
        let limit = Rate::per_hour(3);
        let a = IpAddr::from([10, 0, 0, 1]);
        assert!((0..3).all(|_| limit.take(a)), "three at once");
        assert!(!limit.take(a), "the fourth is refused");
        assert!(limit.take(IpAddr::from([10, 0, 0, 2])), "another address is not");
        let v6 = |last: u16| IpAddr::from([0x2001, 0xdb8, 0, 1, 0, 0, 0, last]);
        assert!((0..3).all(|i| limit.take(v6(i))));
        assert!(!limit.take(v6(77)), "a /64 counts as one address");
        assert!(limit.take(IpAddr::from([0x2001, 0xdb8, 0, 2, 0, 0, 0, 1])), "the next /64 does not");
    }

    #[test]
    fn new_connections_of_an_address_come_in_a_burst_then_at_the_rate() {
        let limit = Rate::per_second(1, 5);
        let a = IpAddr::from([10, 0, 0, 1]);
        assert!((0..5).all(|_| limit.take(a)), "the burst");
        assert!(!limit.take(a), "then no faster than the rate");
        assert!(limit.take(IpAddr::from([10, 0, 0, 2])), "another address has its own");
        std::thread::sleep(std::time::Duration::from_millis(1100));
        assert!(limit.take(a), "a second later, one more");
    }

    #[test]
    fn an_address_holds_at_most_its_share_and_a_freed_place_is_taken_again() {
        let at_once = AtOnce::new(2);
        let a = IpAddr::from([127, 0, 0, 1]);
        let (first, second) = (at_once.take(a).unwrap(), at_once.take(a).unwrap());
        assert!(at_once.take(a).is_none(), "a third is refused");
        assert!(at_once.take(IpAddr::from([127, 0, 0, 2])).is_some(), "another address is not");
        drop(first);
        let third = at_once.take(a).expect("a freed place");
        drop((second, third));
        assert_eq!(at_once.addresses(), 0, "an address holding nothing is forgotten");
    }
}
