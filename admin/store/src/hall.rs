//! The hall numbers of a round (tournament practice: the groups of one event play in one hall,
//! and every table number in the hall is unique in a round).
//!
//! A group's round stores the hall number of its table 1 (`rounds.hall_first`), fixed when the
//! round's draft is written ([`fix_first`], inside that write) and never moved once the round is
//! published; its table `t` is hall number [`domain::hall::hall_number`]`(hall_first, t)`. The
//! plan is [`domain::hall::first_for`] over the event's groups in hall order: the groups whose
//! round is paired at their stored first number and their tables, the others reserving half
//! their active entrants (rounded up), at their fixed first number or after the groups before
//! them. A single-group event's tables are their own hall numbers (its first is 1).

use super::events::{self, Group};
use super::schema::{entrants, games, rounds};
use super::{Conn, DbError};
use crate::rows::STATUS_WITHDRAWN;
use diesel::prelude::*;
use domain::hall::{first_for, Slot};

/// The highest table number of group `tid`'s round `n` (0: no game, or not paired).
fn tables_of(conn: &mut Conn, tid: i32, n: i32) -> Result<u32, DbError> {
    let max: Option<i32> = games::table
        .filter(games::tournament_id.eq(tid).and(games::round_number.eq(n)))
        .select(diesel::dsl::max(games::board))
        .first(conn)?;
    Ok(u32::try_from(max.unwrap_or(0)).unwrap_or(0))
}

/// What group `g` is expected to need in a round it has not paired: a table per two active
/// entrants, rounded up.
fn expected_tables(conn: &mut Conn, g: &Group) -> Result<u32, DbError> {
    let active: i64 = entrants::table
        .filter(entrants::tournament_id.eq(g.id()).and(entrants::status.ne(STATUS_WITHDRAWN)))
        .count()
        .get_result(conn)?;
    Ok(u32::try_from(active).unwrap_or(0).div_ceil(2))
}

/// The hall's view of round `n` while group `tid`'s games are (re)written: one slot per group
/// of the event in hall order, and `tid`'s place among them.
fn slots(conn: &mut Conn, tid: i32, n: i32) -> Result<(Vec<Slot>, usize), DbError> {
    let event = events::event_of(conn, tid)?;
    let groups = events::groups(conn, event)?;
    let stored = events::hall_firsts(conn, event, n)?;
    let mut out = Vec::with_capacity(groups.len());
    let mut me = 0;
    for (i, g) in groups.iter().enumerate() {
        let fixed = g.fields.first_table.and_then(|f| u32::try_from(f).ok()).filter(|&f| f > 0);
        let paired = stored.iter().find(|(id, _)| *id == g.id()).map(|&(_, first)| first);
        let slot = if g.id() == tid {
            me = i;
            Slot { tables: tables_of(conn, tid, n)?, fixed, paired_first: None }
        } else if let Some(first) = paired {
            let first = u32::try_from(first).ok().filter(|&f| f > 0);
            Slot { tables: tables_of(conn, g.id(), n)?, fixed, paired_first: first }
        } else {
            Slot { tables: expected_tables(conn, g)?, fixed, paired_first: None }
        };
        out.push(slot);
    }
    Ok((out, me))
}

/// Fix the first hall number of group `tid`'s round `n` from the games just written (inside the
/// caller's write transaction, before its audit row reads the round back). A published round is
/// left as it is: its numbers were given out.
pub fn fix_first(conn: &mut Conn, tid: i32, n: i32) -> Result<i32, DbError> {
    let (published, current): (bool, i32) = rounds::table
        .filter(rounds::tournament_id.eq(tid).and(rounds::number.eq(n)))
        .select((rounds::published, rounds::hall_first))
        .first(conn)?;
    if published {
        return Ok(current);
    }
    let (slots, me) = slots(conn, tid, n)?;
    let first = i32::try_from(first_for(&slots, me)).unwrap_or(1);
    if first != current {
        diesel::update(rounds::table.filter(rounds::tournament_id.eq(tid).and(rounds::number.eq(n))))
            .set(rounds::hall_first.eq(first))
            .execute(conn)?;
    }
    Ok(first)
}

/// The first hall number of group `tid`'s round `n` (1 when the round is not stored).
pub fn first_of(conn: &mut Conn, tid: i32, n: i32) -> Result<i32, DbError> {
    Ok(rounds::table
        .filter(rounds::tournament_id.eq(tid).and(rounds::number.eq(n)))
        .select(rounds::hall_first)
        .first(conn)
        .optional()?
        .unwrap_or(1))
}
