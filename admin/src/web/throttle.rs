//! The login throttle: failed logins cost credit, per account and per client address.
//!
//! Each key (an account name, or a client address) holds a theoretical arrival time (GCRA, the
//! algorithm `governor` implements): a failure pushes it `period` later; a key may try while it
//! is no more than `burst × period` ahead of now. `governor` itself does not fit, because its
//! only question spends a cell: a successful login would count, and nothing can be asked without
//! spending. Here [`Throttle::allows`] only looks and [`Throttle::failed`] spends, so a right
//! password never costs credit (an arbiter who logs in on three devices is never locked out).
//!
//! Memory is bounded: at most `capacity` keys. When a new key finds the table full, keys back
//! at full credit are forgotten first (they carry no information); if none is, the key with the
//! least debt goes. Pushing a locked account out therefore takes `capacity` keys with more
//! failures than it, which the per-address limit prevents from one address.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// One limit: a burst of `burst` failures, then one every `period`.
#[derive(Debug, Clone, Copy)]
pub struct Quota {
    pub burst: u32,
    pub period: Duration,
}

/// Failed logins per account: 5, then one every 12 s (about 5 a minute at one account, from
/// however many addresses).
pub const PER_ACCOUNT: Quota = Quota { burst: 5, period: Duration::from_secs(12) };
/// Failed logins per client address: 30, then one every 20 s (an address trying many accounts;
/// a venue behind one address makes 30 typing mistakes before anyone waits).
pub const PER_ADDRESS: Quota = Quota { burst: 30, period: Duration::from_secs(20) };
/// Keys kept per table.
pub const CAPACITY: usize = 10_000;

pub struct Throttle {
    quota: Quota,
    capacity: usize,
    keys: Mutex<HashMap<String, Instant>>,
}

impl Throttle {
    pub fn new(quota: Quota, capacity: usize) -> Throttle {
        Throttle { quota, capacity: capacity.max(1), keys: Mutex::new(HashMap::new()) }
    }

    fn window(&self) -> Duration {
        self.quota.period * self.quota.burst.max(1)
    }

    /// May `key` try now? Spends nothing.
    pub fn allows(&self, key: &str, now: Instant) -> bool {
        let Ok(keys) = self.keys.lock() else { return false };
        match keys.get(key) {
            // The next failure would put the key `period` further ahead: allowed while that
            // stays within the window.
            Some(tat) => tat.saturating_duration_since(now) + self.quota.period <= self.window(),
            None => true,
        }
    }

    /// A failed attempt of `key`: push its arrival time one period later.
    pub fn failed(&self, key: &str, now: Instant) {
        let Ok(mut keys) = self.keys.lock() else { return };
        if !keys.contains_key(key) && keys.len() >= self.capacity {
            keys.retain(|_, tat| *tat > now);
            if keys.len() >= self.capacity {
                if let Some(least) = keys.iter().min_by_key(|(_, tat)| **tat).map(|(k, _)| k.clone()) {
                    keys.remove(&least);
                }
            }
        }
        let tat = keys.get(key).copied().filter(|t| *t > now).unwrap_or(now);
        keys.insert(key.to_string(), tat + self.quota.period);
    }

    /// How many keys are remembered (for tests and the bound).
    pub fn len(&self) -> usize {
        self.keys.lock().map(|k| k.len()).unwrap_or(0)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The two throttles of the login form.
pub struct LoginThrottle {
    pub accounts: Throttle,
    pub addresses: Throttle,
}

impl Default for LoginThrottle {
    fn default() -> Self {
        LoginThrottle {
            accounts: Throttle::new(PER_ACCOUNT, CAPACITY),
            addresses: Throttle::new(PER_ADDRESS, CAPACITY),
        }
    }
}

impl LoginThrottle {
    /// May this address try this account now? Account names are compared case-insensitively,
    /// as the database compares them.
    pub fn allows(&self, account: &str, address: &str, now: Instant) -> bool {
        self.accounts.allows(&account.trim().to_lowercase(), now) && self.addresses.allows(address, now)
    }

    /// A wrong password (or an unknown name): both keys pay.
    pub fn failed(&self, account: &str, address: &str, now: Instant) {
        self.accounts.failed(&account.trim().to_lowercase(), now);
        self.addresses.failed(address, now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const Q: Quota = Quota { burst: 5, period: Duration::from_secs(12) };

    #[test]
    fn a_burst_then_one_per_period_and_looking_costs_nothing() {
        let t = Throttle::new(Q, 100);
        let t0 = Instant::now();
        for _ in 0..50 {
            assert!(t.allows("a", t0), "looking spends nothing");
        }
        for i in 0..5 {
            assert!(t.allows("a", t0), "failure {i}");
            t.failed("a", t0);
        }
        assert!(!t.allows("a", t0));
        assert!(t.allows("b", t0), "other keys are free");
        assert!(!t.allows("a", t0 + Duration::from_secs(11)));
        assert!(t.allows("a", t0 + Duration::from_secs(12)), "one more after a period");
        t.failed("a", t0 + Duration::from_secs(12));
        assert!(!t.allows("a", t0 + Duration::from_secs(12)));
        assert!(t.allows("a", t0 + Duration::from_secs(72)), "full credit after the window");
    }

    #[test]
    fn memory_is_bounded_and_the_most_indebted_key_stays() {
        let t = Throttle::new(Q, 10);
        let t0 = Instant::now();
        for _ in 0..5 {
            t.failed("victim", t0);
        }
        for i in 0..1_000 {
            t.failed(&format!("noise{i}"), t0);
            assert!(t.len() <= 10);
        }
        assert!(!t.allows("victim", t0), "the locked account stays locked");
    }

    #[test]
    fn account_names_ignore_case_and_both_keys_pay() {
        let l = LoginThrottle::default();
        let t0 = Instant::now();
        for i in 0..5 {
            l.failed("Org", &format!("10.0.0.{i}"), t0);
        }
        assert!(!l.allows("org", "10.0.0.99", t0), "rotating addresses does not help");
        assert!(l.allows("other", "10.0.0.1", t0), "another account from those addresses may try");
    }
}
