//! The login throttle: failed logins cost credit, per account and client address together,
//! per address, and per account under a looser ceiling.
//!
//! Each key holds a theoretical arrival time (GCRA, the algorithm `governor` implements): a
//! failure pushes it `period` later; a key may try while it is no more than `burst × period`
//! ahead of now. `governor` itself does not fit, because its only question spends a cell: a
//! successful login would count, and nothing can be asked without spending. Here
//! [`Throttle::allows`] only looks and [`Throttle::failed`] spends, so a right password never
//! costs credit (an arbiter who logs in on three devices is never locked out).
//!
//! Who is held back by whose failures: the pair (account, address) is the tight limit, so a
//! stranger guessing from one address is stopped there and nowhere else. The account's own
//! ceiling, looser, binds only addresses that have failed at this account lately (the pair's
//! memory, [`FORGET_PAIR`]): a guesser spread over many addresses is stopped by it once each
//! address has failed once, while the owner, typing from an address that has not failed, is
//! never shut out by a stranger's guesses. An address that fails at many accounts is held by
//! the per-address limit. So 10,000 guesses over 100 addresses are checked at most once per
//! address plus the ceiling's burst (and one a period after), and a stream of wrong guesses
//! from one address keeps out only that address.
//!
//! The arrival times are stored in the database (`db::throttle`), so every server of one office
//! counts the same failures (several servers behind one proxy). Storage is bounded: at most `capacity` keys per
//! scope. When a new key finds the scope full, keys that carry no information are forgotten
//! first (back at full credit, or for pairs past their memory); if none is, the key with the
//! least debt goes. Pushing a locked key out therefore takes `capacity` keys with more failures
//! than it, which the per-address limit prevents from one address.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::db::Conn;

use crate::db::{self, DbError};

/// One limit: a burst of `burst` failures, then one every `period`.
#[derive(Debug, Clone, Copy)]
pub struct Quota {
    pub burst: u32,
    pub period: Duration,
}

/// Failed logins per account from one address: 5, then one every 12 s.
pub const PER_PAIR: Quota = Quota { burst: 5, period: Duration::from_secs(12) };
/// Failed logins per account from addresses that have failed at it lately, all together: 20,
/// then one a minute (the ceiling a guesser spread over many addresses meets).
pub const PER_ACCOUNT: Quota = Quota { burst: 20, period: Duration::from_secs(60) };
/// Failed logins per client address: 30, then one every 20 s (an address trying many accounts;
/// a venue behind one address makes 30 typing mistakes before anyone waits).
pub const PER_ADDRESS: Quota = Quota { burst: 30, period: Duration::from_secs(20) };
/// How long a pair remembers that its address failed at its account, after its debt is paid:
/// within it the address meets the account's ceiling.
pub const FORGET_PAIR: Duration = Duration::from_secs(3600);
/// Keys kept per scope (pairs: one per account and address that failed).
pub const CAPACITY: usize = 10_000;
/// Pairs kept.
pub const PAIR_CAPACITY: usize = 50_000;

/// Milliseconds since 1970 (the wall clock every server of an office shares).
pub fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

/// One throttled scope (`pair`, `account` or `address`) with its quota.
#[derive(Debug, Clone, Copy)]
pub struct Throttle {
    scope: &'static str,
    quota: Quota,
    capacity: usize,
    /// How long a key is remembered after its debt is paid (0: not at all).
    memory: Duration,
}

impl Throttle {
    pub fn new(scope: &'static str, quota: Quota, capacity: usize) -> Throttle {
        Throttle { scope, quota, capacity: capacity.max(1), memory: Duration::ZERO }
    }

    /// This throttle, remembering a key `memory` after its debt is paid ([`Throttle::failed_lately`]).
    pub fn remembering(self, memory: Duration) -> Throttle {
        Throttle { memory, ..self }
    }

    fn memory(&self) -> i64 {
        self.memory.as_millis() as i64
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

    /// Has `key` failed within its memory: is its debt unpaid, or paid less than `memory` ago?
    pub fn failed_lately(&self, conn: &mut Conn, key: &str, now: i64) -> Result<bool, DbError> {
        Ok(db::throttle::tat(conn, self.scope, key)?.is_some_and(|tat| tat + self.memory() > now))
    }

    /// A failed attempt of `key` at `now`: push its arrival time one period later.
    pub fn failed(&self, conn: &mut Conn, key: &str, now: i64) -> Result<(), DbError> {
        let period = self.period();
        let next = |old: Option<i64>| old.filter(|t| *t > now).unwrap_or(now) + period;
        db::throttle::push(conn, self.scope, key, (now - self.memory(), self.capacity as i64), next)
    }
}

/// Wrong self check-in codes per event and client address: 5, then one every 30 s (a
/// four-digit code cannot be guessed in the minutes check-in is open).
pub const CHECK_IN_CODES: Quota = Quota { burst: 5, period: Duration::from_secs(30) };

/// The throttle of the self check-in form, keyed by event and address: only wrong codes spend
/// (as wrong passwords do at the login).
pub fn check_in() -> Throttle {
    Throttle::new("check_in", CHECK_IN_CODES, CAPACITY)
}

/// Registrations sent from one address to one event: 10, then one every 2 minutes (a family or
/// a club registering its members waits a little; a script filling the queue is held).
pub const REGISTRATIONS: Quota = Quota { burst: 10, period: Duration::from_secs(120) };

/// The throttle of the public registration form, keyed by event and address: every
/// registration sent spends.
pub fn registration() -> Throttle {
    Throttle::new("registration", REGISTRATIONS, CAPACITY)
}

/// The three throttles of the login form.
#[derive(Debug, Clone, Copy)]
pub struct LoginThrottle {
    pub pairs: Throttle,
    pub accounts: Throttle,
    pub addresses: Throttle,
}

impl Default for LoginThrottle {
    fn default() -> Self {
        LoginThrottle {
            pairs: Throttle::new("pair", PER_PAIR, PAIR_CAPACITY).remembering(FORGET_PAIR),
            accounts: Throttle::new("account", PER_ACCOUNT, CAPACITY),
            addresses: Throttle::new("address", PER_ADDRESS, CAPACITY),
        }
    }
}

/// An account's name as the database compares it (case-insensitively).
fn account_key(account: &str) -> String {
    account.trim().to_lowercase()
}

/// The key of an account tried from an address.
fn pair_key(account: &str, address: &str) -> String {
    format!("{}\n{address}", account_key(account))
}

impl LoginThrottle {
    /// May this address try this account now? The address and the pair within their limits,
    /// and the account within its ceiling unless this address has not failed at it lately.
    pub fn allows(&self, conn: &mut Conn, account: &str, address: &str, now: i64) -> Result<bool, DbError> {
        let pair = pair_key(account, address);
        Ok(self.addresses.allows(conn, address, now)?
            && self.pairs.allows(conn, &pair, now)?
            && (!self.pairs.failed_lately(conn, &pair, now)?
                || self.accounts.allows(conn, &account_key(account), now)?))
    }

    /// A wrong password (or an unknown name): all three keys pay.
    pub fn failed(&self, conn: &mut Conn, account: &str, address: &str, now: i64) -> Result<(), DbError> {
        self.pairs.failed(conn, &pair_key(account, address), now)?;
        self.accounts.failed(conn, &account_key(account), now)?;
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
    fn account_names_ignore_case_and_every_key_pays() {
        let (_d, pool) = conn();
        let c = &mut pool.get().unwrap();
        let l = LoginThrottle::default();
        let t0 = 1_800_000_000_000;
        for _ in 0..5 {
            l.failed(c, "Org", "10.0.0.1", t0).unwrap();
        }
        assert!(!l.allows(c, "org", "10.0.0.1", t0).unwrap(), "case does not escape the pair");
        assert!(l.allows(c, "other", "10.0.0.1", t0).unwrap(), "another account from that address may try");
        assert_eq!(db::throttle::keys(c, "pair").unwrap(), 1);
        assert_eq!(db::throttle::keys(c, "account").unwrap(), 1);
        assert_eq!(db::throttle::keys(c, "address").unwrap(), 1);
    }

    /// Office rule (login throttle): a stranger's failures hold back the stranger's address,
    /// not the owner at another; the account's ceiling binds the addresses that failed at it,
    /// so a guesser spread over addresses is checked once per address and the ceiling's burst,
    /// and an address that failed is remembered for [`FORGET_PAIR`] after its debt is paid.
    #[test]
    fn strangers_do_not_shut_out_the_owner_and_spreading_gains_one_try_per_address() {
        let (_d, pool) = conn();
        let c = &mut pool.get().unwrap();
        let l = LoginThrottle::default();
        let t0 = 1_800_000_000_000;
        let mut checked = 0;
        for g in 0..1000 {
            let from = format!("198.51.100.{}", g % 100);
            if l.allows(c, "arb", &from, t0 + g * 10).unwrap() {
                checked += 1;
                l.failed(c, "arb", &from, t0 + g * 10).unwrap();
            }
        }
        assert!(checked <= 100 + PER_ACCOUNT.burst as usize, "checked {checked}");
        let t1 = t0 + 10_000;
        assert!(l.allows(c, "arb", "192.0.2.10", t1).unwrap(), "the owner from a clean address");
        assert!(!l.allows(c, "arb", "198.51.100.7", t1).unwrap(), "a guessing address waits");
        // An hour after its last debt was paid, a guessing address is clean again: it may try
        // once more, though the account's ceiling is still spent.
        let later = t1 + PER_PAIR.period.as_millis() as i64 + FORGET_PAIR.as_millis() as i64;
        assert!(!l.accounts.allows(c, "arb", later).unwrap(), "the ceiling is spent");
        assert!(l.pairs.failed_lately(c, "arb\n198.51.100.7", later - 60 * S).unwrap());
        assert!(l.allows(c, "arb", "198.51.100.7", later).unwrap());
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
        assert!(!l.allows(a, "org", "10.0.0.1", t0).unwrap());
        assert!(!l.allows(b, "org", "10.0.0.1", t0).unwrap());
    }
}
