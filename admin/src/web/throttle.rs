//! The login throttle: failed logins cost credit, per account and per client address.
//!
//! Each key (an account name, or a client address) holds a theoretical arrival time (GCRA, the
//! algorithm `governor` implements): a failure pushes it `period` later; a key may try while it
//! is no more than `burst × period` ahead of now. `governor` itself does not fit, because its
//! only question spends a cell: a successful login would count, and nothing can be asked without
//! spending. Here [`Throttle::allows`] only looks and [`Throttle::failed`] spends, so a right
//! password never costs credit (an arbiter who logs in on three devices is never locked out).
//!
//! The arrival times are stored in the database (`db::throttle`), so every server of one office
//! counts the same failures (issue 18 item 2). Storage is bounded: at most `capacity` keys per
//! scope. When a new key finds the scope full, keys back at full credit are forgotten first
//! (they carry no information); if none is, the key with the least debt goes. Pushing a locked
//! account out therefore takes `capacity` keys with more failures than it, which the
//! per-address limit prevents from one address.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::db::Conn;

use crate::db::{self, DbError};

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
/// Keys kept per scope.
pub const CAPACITY: usize = 10_000;

/// Milliseconds since 1970 (the wall clock every server of an office shares).
pub fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

/// One throttled scope (`account` or `address`) with its quota.
#[derive(Debug, Clone, Copy)]
pub struct Throttle {
    scope: &'static str,
    quota: Quota,
    capacity: usize,
}

impl Throttle {
    pub fn new(scope: &'static str, quota: Quota, capacity: usize) -> Throttle {
        Throttle { scope, quota, capacity: capacity.max(1) }
    }

    fn period(&self) -> i64 {
        self.quota.period.as_millis() as i64
    }

    fn window(&self) -> i64 {
        self.period() * i64::from(self.quota.burst.max(1))
    }

    /// May `key` try at `now` (ms)? Spends nothing.
    pub fn allows(&self, conn: &mut Conn, key: &str, now: i64) -> Result<bool, DbError> {
        // The next failure would put the key `period` further ahead: allowed while that stays
        // within the window.
        Ok(db::throttle::tat(conn, self.scope, key)?
            .is_none_or(|tat| (tat - now).max(0) + self.period() <= self.window()))
    }

    /// A failed attempt of `key` at `now`: push its arrival time one period later.
    pub fn failed(&self, conn: &mut Conn, key: &str, now: i64) -> Result<(), DbError> {
        let period = self.period();
        let next = |old: Option<i64>| old.filter(|t| *t > now).unwrap_or(now) + period;
        db::throttle::push(conn, self.scope, key, (now, self.capacity as i64), next)
    }
}

/// The two throttles of the login form.
#[derive(Debug, Clone, Copy)]
pub struct LoginThrottle {
    pub accounts: Throttle,
    pub addresses: Throttle,
}

impl Default for LoginThrottle {
    fn default() -> Self {
        LoginThrottle {
            accounts: Throttle::new("account", PER_ACCOUNT, CAPACITY),
            addresses: Throttle::new("address", PER_ADDRESS, CAPACITY),
        }
    }
}

impl LoginThrottle {
    /// May this address try this account now? Account names are compared case-insensitively,
    /// as the database compares them.
    pub fn allows(&self, conn: &mut Conn, account: &str, address: &str, now: i64) -> Result<bool, DbError> {
        Ok(self.accounts.allows(conn, &account.trim().to_lowercase(), now)?
            && self.addresses.allows(conn, address, now)?)
    }

    /// A wrong password (or an unknown name): both keys pay.
    pub fn failed(&self, conn: &mut Conn, account: &str, address: &str, now: i64) -> Result<(), DbError> {
        self.accounts.failed(conn, &account.trim().to_lowercase(), now)?;
        self.addresses.failed(conn, address, now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const Q: Quota = Quota { burst: 5, period: Duration::from_secs(12) };
    const S: i64 = 1000;

    fn conn() -> (tempfile::TempDir, db::DbPool) {
        let dir = tempfile::tempdir().unwrap();
        let pool = db::open(&dir.path().join("t.db")).unwrap();
        (dir, pool)
    }

    #[test]
    fn a_burst_then_one_per_period_and_looking_costs_nothing() {
        let (_d, pool) = conn();
        let c = &mut pool.get().unwrap();
        let t = Throttle::new("account", Q, 100);
        let t0 = 1_800_000_000_000;
        for _ in 0..50 {
            assert!(t.allows(c, "a", t0).unwrap(), "looking spends nothing");
        }
        for i in 0..5 {
            assert!(t.allows(c, "a", t0).unwrap(), "failure {i}");
            t.failed(c, "a", t0).unwrap();
        }
        assert!(!t.allows(c, "a", t0).unwrap());
        assert!(t.allows(c, "b", t0).unwrap(), "other keys are free");
        assert!(!t.allows(c, "a", t0 + 11 * S).unwrap());
        assert!(t.allows(c, "a", t0 + 12 * S).unwrap(), "one more after a period");
        t.failed(c, "a", t0 + 12 * S).unwrap();
        assert!(!t.allows(c, "a", t0 + 12 * S).unwrap());
        assert!(t.allows(c, "a", t0 + 72 * S).unwrap(), "full credit after the window");
    }

    #[test]
    fn storage_is_bounded_and_the_most_indebted_key_stays() {
        let (_d, pool) = conn();
        let c = &mut pool.get().unwrap();
        let t = Throttle::new("account", Q, 10);
        let t0 = 1_800_000_000_000;
        for _ in 0..5 {
            t.failed(c, "victim", t0).unwrap();
        }
        for i in 0..200 {
            t.failed(c, &format!("noise{i}"), t0).unwrap();
            assert!(db::throttle::keys(c, "account").unwrap() <= 10);
        }
        assert!(!t.allows(c, "victim", t0).unwrap(), "the locked account stays locked");
    }

    #[test]
    fn account_names_ignore_case_and_both_keys_pay() {
        let (_d, pool) = conn();
        let c = &mut pool.get().unwrap();
        let l = LoginThrottle::default();
        let t0 = 1_800_000_000_000;
        for i in 0..5 {
            l.failed(c, "Org", &format!("10.0.0.{i}"), t0).unwrap();
        }
        assert!(!l.allows(c, "org", "10.0.0.99", t0).unwrap(), "rotating addresses does not help");
        assert!(
            l.allows(c, "other", "10.0.0.1", t0).unwrap(),
            "another account from those addresses may try"
        );
    }

    /// Two connections (two servers) on one database count the same failures.
    #[test]
    fn every_connection_sees_the_same_failures() {
        let (_d, pool) = conn();
        let (a, b) = (&mut pool.get().unwrap(), &mut pool.get().unwrap());
        let l = LoginThrottle::default();
        let t0 = 1_800_000_000_000;
        for i in 0..5 {
            l.failed(if i % 2 == 0 { &mut *a } else { &mut *b }, "org", "10.0.0.1", t0).unwrap();
        }
        assert!(!l.allows(a, "org", "10.0.0.2", t0).unwrap());
        assert!(!l.allows(b, "org", "10.0.0.2", t0).unwrap());
    }
}
