//! How long a request waits for the database server, whatever the server does.
//!
//! A PostgreSQL server that stops answering (a paused machine, a storage stall, a partition
//! behind which the peer's kernel still acknowledges) leaves a statement waiting in libpq with
//! no deadline of its own: `statement_timeout` needs a server that runs, TCP keepalives and
//! `tcp_user_timeout` a peer that stops acknowledging. So the waits are watched from outside:
//! the work of one request runs [`watched`] by a [`Probe`], which the connections'
//! instrumentation ([`note`], PostgreSQL only) marks while a statement is out; the request
//! (`web::ctx::on_db`) gives up on a statement out for longer than [`STATEMENT_WAIT`] and
//! [`Probe::abandon`]s the work, whose write transaction then rolls back instead of
//! committing once the server answers again ([`abandoned`], read by `backend::write_tx`).
//! SQLite's waits are local and bounded by its busy timeout; they are not watched.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// The longest a statement may be out before the request gives up on it: below the 5 s in
/// which a request that meets an unreachable database gets its page (`web::error`), above
/// PostgreSQL's `lock_timeout` (`postgres::LOCK_WAIT`), so a lock held too long is told as a
/// busy database, not as an unreachable one.
pub const STATEMENT_WAIT: Duration = Duration::from_secs(4);

/// What one request's database work is waiting for.
#[derive(Debug, Default)]
pub struct Probe {
    /// When the statement now out was sent, in ms after [`epoch`] plus one (0: none is out).
    since: AtomicU64,
    /// The request gave up: no write of this work may commit any more.
    abandoned: AtomicBool,
}

fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

fn now_ms() -> u64 {
    epoch().elapsed().as_millis() as u64 + 1
}

impl Probe {
    /// How long the statement now out has been waiting (None: none is out).
    pub fn waiting(&self) -> Option<Duration> {
        match self.since.load(Ordering::SeqCst) {
            0 => None,
            since => Some(Duration::from_millis(now_ms().saturating_sub(since))),
        }
    }

    /// Whether a statement has been out longer than [`STATEMENT_WAIT`].
    pub fn stuck(&self) -> bool {
        self.waiting().is_some_and(|w| w > STATEMENT_WAIT)
    }

    /// The request no longer waits for this work: its writes must not commit.
    pub fn abandon(&self) {
        self.abandoned.store(true, Ordering::SeqCst);
    }
}

thread_local! {
    static CURRENT: std::cell::RefCell<Option<Arc<Probe>>> = const { std::cell::RefCell::new(None) };
}

/// Run `f` on this thread with its statements marked on `probe`.
pub fn watched<T>(probe: Arc<Probe>, f: impl FnOnce() -> T) -> T {
    struct Reset;
    impl Drop for Reset {
        fn drop(&mut self) {
            CURRENT.with(|c| c.borrow_mut().take());
        }
    }
    CURRENT.with(|c| *c.borrow_mut() = Some(probe));
    let _reset = Reset;
    f()
}

/// Whether the work running on this thread was given up by its request.
pub fn abandoned() -> bool {
    CURRENT.with(|c| c.borrow().as_ref().is_some_and(|p| p.abandoned.load(Ordering::SeqCst)))
}

/// A statement was sent (`true`) or answered (`false`) on this thread's connection.
#[cfg_attr(not(feature = "postgres"), allow(dead_code))]
pub(super) fn note(out: bool) {
    CURRENT.with(|c| {
        if let Some(p) = c.borrow().as_ref() {
            p.since.store(if out { now_ms() } else { 0 }, Ordering::SeqCst);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_probe_tells_a_statement_out_and_an_abandoned_work() {
        let probe = Arc::new(Probe::default());
        assert_eq!(probe.waiting(), None);
        watched(probe.clone(), || {
            note(true);
            std::thread::sleep(Duration::from_millis(20));
            assert!(probe.waiting().is_some_and(|w| w >= Duration::from_millis(20)) && !probe.stuck());
            note(false);
            assert_eq!(probe.waiting(), None);
            assert!(!abandoned());
            probe.abandon();
            assert!(abandoned());
        });
        assert!(!abandoned(), "outside the work, nothing is abandoned");
        note(true);
        assert_eq!(probe.waiting(), None, "statements outside the work are not marked");
    }
}
