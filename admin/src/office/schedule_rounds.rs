//! Draft a round robin's schedule: every round from the next one to the end of the Berger
//! table (or of the declared rounds), in one write transaction, with one seed.

use super::pair_round::draft;
use crate::db::rounds::{self as rdb, Mode, RoundError};
use crate::db::{self, tournaments as tdb, Actor, Conn};
use domain::rounds::PlanError;
use domain::settings::System;

/// Round robin: pairs every round from the next one to the end of the schedule (or of the
/// declared rounds) as drafts, with one seed. Returns the round numbers paired.
pub fn schedule_rounds(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    seed: u64,
    reason: &str,
) -> Result<Vec<i32>, RoundError> {
    db::write_tx(&mut *conn, |conn| {
        let t = tdb::get(conn, tid)?;
        if t.settings().system != System::RoundRobin {
            return Err(RoundError::Plan(PlanError::Unsupported));
        }
        let all = rdb::list(conn, tid)?;
        if let Some(d) = all.iter().find(|r| !r.published) {
            return Err(RoundError::PreviousDraft { number: d.number });
        }
        let mut n = all.iter().map(|r| r.number).max().unwrap_or(0) + 1;
        let mut done = Vec::new();
        while n <= t.rounds {
            // Round `n` inside this write transaction.
            let paired = rdb::read_inputs(conn, tid, n, None, Mode::Schedule).and_then(|inputs| {
                let planned = draft(&inputs, n, seed)?;
                rdb::write_draft(conn, actor, &inputs, n, seed, planned, reason)
            });
            match paired {
                Ok(_) => done.push(n),
                Err(RoundError::Plan(PlanError::RoundRobinOver { .. })) if !done.is_empty() => break,
                Err(e) => return Err(e),
            }
            n += 1;
        }
        Ok(done)
    })
}
