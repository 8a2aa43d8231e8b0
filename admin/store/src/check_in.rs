//! Check-in (签到) before a round: who checked in (at the desk or on their own phone), the
//! round's deadline and its closing, and the event's self check-in code. Every write takes its
//! audit row in the same transaction; the decisions (who is expected, who closing sets absent,
//! whether the deadline has come, whether a typed code is right) are `domain::check_in`'s.
//! Closing writes `round_absences`, which pairing reads: a tournament that never closes a
//! round's check-in pairs as before.

use super::audit::{self, AuditAction, Change};
use super::entrants::{self as edb, Sort};
use super::rows::EntrantRow;
use super::schema::{check_in_codes, check_in_rounds, check_ins, rounds};
use super::{now, Actor, Conn, DbError};
use chrono::{DateTime, Utc};
use diesel::prelude::*;
use domain::check_in::{self as dci, Expected};
use serde::Serialize;
use std::collections::{HashMap, HashSet};

/// A round's check-in as stored: its deadline (UTC text) and when it was closed; version 0
/// while nothing was stored for it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct RoundState {
    pub round: i32,
    pub deadline: Option<String>,
    pub closed_at: Option<String>,
    pub version: i32,
}

impl RoundState {
    pub fn closed(&self) -> bool {
        self.closed_at.is_some()
    }
    /// The deadline as an instant.
    pub fn deadline_at(&self) -> Option<DateTime<Utc>> {
        self.deadline.as_deref().and_then(domain::event_time::parse_stored)
    }
}

/// What the desk shows for round `n`: the round's state, the entrants it expects (in the
/// order asked for), who checked in (and whether on their own phone), and who is absent.
#[derive(Debug, Clone)]
pub struct Desk {
    pub state: RoundState,
    pub expected: Vec<EntrantRow>,
    pub checked: HashMap<i32, bool>,
    pub absent: HashSet<i32>,
    pub code: Option<String>,
}

/// Why a check-in write is refused.
#[derive(Debug)]
pub enum CheckInError {
    /// The round's check-in is closed.
    Closed,
    /// The round is already paired (closing must come before pairing).
    Paired,
    /// The entrant is not expected in the round (withdrawn, or entered for a later round).
    NotExpected,
    /// Closing before the deadline.
    BeforeDeadline,
    /// The state changed since the page was read (a check-in meanwhile, another deadline).
    Stale,
    Db(DbError),
}

db_variant!(CheckInError);

/// The round that check-in is for now: the one after the last published round.
pub fn current_round(conn: &mut Conn, tid: i32) -> Result<i32, DbError> {
    edb::next_first_round(conn, tid)
}

pub fn round_state(conn: &mut Conn, tid: i32, n: i32) -> Result<RoundState, DbError> {
    let row: Option<(Option<String>, Option<String>, i32)> = check_in_rounds::table
        .filter(check_in_rounds::tournament_id.eq(tid))
        .filter(check_in_rounds::round_number.eq(n))
        .select((check_in_rounds::deadline, check_in_rounds::closed_at, check_in_rounds::version))
        .first(conn)
        .optional()?;
    Ok(match row {
        Some((deadline, closed_at, version)) => RoundState { round: n, deadline, closed_at, version },
        None => RoundState { round: n, ..RoundState::default() },
    })
}

/// Who checked in for round `n`: entrant → on their own phone.
pub fn checked_in(conn: &mut Conn, tid: i32, n: i32) -> Result<HashMap<i32, bool>, DbError> {
    Ok(check_ins::table
        .filter(check_ins::tournament_id.eq(tid))
        .filter(check_ins::round_number.eq(n))
        .select((check_ins::entrant_id, check_ins::by_self))
        .load::<(i32, bool)>(conn)?
        .into_iter()
        .collect())
}

/// The event's self check-in code, once staff have made one.
pub fn code(conn: &mut Conn, tid: i32) -> Result<Option<String>, DbError> {
    Ok(check_in_codes::table
        .filter(check_in_codes::tournament_id.eq(tid))
        .select(check_in_codes::code)
        .first(conn)
        .optional()?)
}

/// Entrant `e` as check-in for round `n` sees them; `first` holds the entrants' first rounds.
fn expected_of(e: &EntrantRow, n: i32, first: &HashMap<i32, (Option<i32>, i32)>) -> Expected {
    let first_round = first.get(&e.id).map_or(1, |x| x.1);
    Expected { id: e.id, first_round, withdrawn: e.withdrawn_as_of(u32::try_from(n).unwrap_or(0)) }
}

/// The desk for round `n`: entrants expected in it matching `search` (Chinese, pinyin or
/// initials, as the entrant list searches), by name.
pub fn desk(conn: &mut Conn, tid: i32, n: i32, search: &str) -> Result<Desk, DbError> {
    let state = round_state(conn, tid, n)?;
    let first = super::rounds::entrant_extras(conn, tid)?;
    let expected: Vec<EntrantRow> = edb::list(conn, tid, search, Sort::Name)?
        .into_iter()
        .filter(|e| expected_of(e, n, &first).expected_in(n))
        .collect();
    Ok(Desk {
        state,
        expected,
        checked: checked_in(conn, tid, n)?,
        absent: super::rounds::absences(conn, tid, n)?,
        code: code(conn, tid)?,
    })
}

/// One group's desk at the hall's desk.
#[derive(Debug, Clone)]
pub struct GroupDesk {
    pub tid: i32,
    /// The group's name ('' while the event has one group).
    pub name_zh: String,
    pub name_latin: String,
    pub desk: Desk,
}

/// The desk of the whole hall for round `n`: every group of `tid`'s event (in hall order), so
/// one desk checks in a player of any group. An event of one group: `tid`'s desk alone.
pub fn hall_desk(conn: &mut Conn, tid: i32, n: i32, search: &str) -> Result<Vec<GroupDesk>, DbError> {
    super::events::siblings(conn, tid)?
        .into_iter()
        .map(|g| {
            Ok(GroupDesk {
                tid: g.id(),
                desk: desk(conn, g.id(), n, search)?,
                name_zh: g.fields.group_name_zh,
                name_latin: g.fields.group_name_latin,
            })
        })
        .collect()
}

/// Those closing round `n` would set absent now (the list the organizer reviews), by name.
pub fn closing_list(conn: &mut Conn, tid: i32, n: i32) -> Result<Vec<EntrantRow>, DbError> {
    let all = edb::list(conn, tid, "", Sort::Name)?;
    let first = super::rounds::entrant_extras(conn, tid)?;
    let field: Vec<Expected> = all.iter().map(|e| expected_of(e, n, &first)).collect();
    let checked: HashSet<i32> = checked_in(conn, tid, n)?.into_keys().collect();
    let absent = super::rounds::absences(conn, tid, n)?;
    let ids: HashSet<i32> = dci::absent_at_closing(n, &field, &checked, &absent).into_iter().collect();
    Ok(all.into_iter().filter(|e| ids.contains(&e.id)).collect())
}

#[derive(Serialize)]
struct CheckInAudit {
    round: i32,
    checked_in: bool,
    by_self: bool,
}

/// Check entrant `eid` in for round `n` (`on`), or undo it; `by_self` when they did it on
/// their own phone. Refused once the round's check-in is closed or for an entrant the round
/// does not expect; checking in twice writes nothing.
pub fn set_checked_in(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    n: i32,
    eid: i32,
    on: bool,
    by_self: bool,
) -> Result<(), CheckInError> {
    crate::write_tx(&mut *conn, |conn| {
        let e = edb::get(conn, tid, eid)?;
        if round_state(conn, tid, n)?.closed() {
            return Err(CheckInError::Closed);
        }
        if !expected_of(&e, n, &super::rounds::entrant_extras(conn, tid)?).expected_in(n) {
            return Err(CheckInError::NotExpected);
        }
        let was = checked_in(conn, tid, n)?.contains_key(&eid);
        if was == on {
            return Ok(());
        }
        let this = check_ins::table
            .filter(check_ins::tournament_id.eq(tid))
            .filter(check_ins::round_number.eq(n))
            .filter(check_ins::entrant_id.eq(eid));
        if on {
            diesel::insert_into(check_ins::table)
                .values((
                    check_ins::tournament_id.eq(tid),
                    check_ins::round_number.eq(n),
                    check_ins::entrant_id.eq(eid),
                    check_ins::by_self.eq(by_self),
                    check_ins::checked_in_at.eq(now()),
                ))
                .execute(conn)?;
        } else {
            diesel::delete(this).execute(conn)?;
        }
        let before = CheckInAudit { round: n, checked_in: was, by_self: false };
        let after = CheckInAudit { round: n, checked_in: on, by_self };
        let action = if on { AuditAction::EntrantCheckIn } else { AuditAction::EntrantCheckInUndo };
        audit::record(
            conn,
            actor,
            Change {
                tournament_id: Some(tid),
                action,
                entity_id: Some(eid),
                before: Some(&before),
                after: Some(&after),
                reason: "",
            },
        )?;
        Ok(())
    })
}

/// Write round `n`'s state (`state.version` is the next one).
fn put_state(conn: &mut Conn, tid: i32, state: &RoundState) -> Result<(), DbError> {
    let row = (
        check_in_rounds::deadline.eq(&state.deadline),
        check_in_rounds::closed_at.eq(&state.closed_at),
        check_in_rounds::version.eq(state.version),
    );
    if state.version == 1 {
        diesel::insert_into(check_in_rounds::table)
            .values((
                check_in_rounds::tournament_id.eq(tid),
                check_in_rounds::round_number.eq(state.round),
                row,
            ))
            .execute(conn)?;
    } else {
        diesel::update(
            check_in_rounds::table
                .filter(check_in_rounds::tournament_id.eq(tid))
                .filter(check_in_rounds::round_number.eq(state.round)),
        )
        .set(row)
        .execute(conn)?;
    }
    Ok(())
}

/// Set (or clear) round `n`'s deadline (UTC text) at `version`; refused once closed.
pub fn set_deadline(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    n: i32,
    version: i32,
    deadline: Option<String>,
) -> Result<(), CheckInError> {
    crate::write_tx(&mut *conn, |conn| {
        let before = round_state(conn, tid, n)?;
        if before.version != version {
            return Err(CheckInError::Stale);
        }
        if before.closed() {
            return Err(CheckInError::Closed);
        }
        let after = RoundState { deadline, version: version + 1, ..before.clone() };
        put_state(conn, tid, &after)?;
        let change = Change {
            tournament_id: Some(tid),
            action: AuditAction::CheckInDeadline,
            entity_id: Some(n),
            before: Some(&before),
            after: Some(&after),
            reason: "",
        };
        audit::record(conn, actor, change)?;
        Ok(())
    })
}

#[derive(Serialize)]
struct Closing<'a> {
    round: i32,
    state: &'a RoundState,
    absent: &'a [i32],
}

/// Close round `n`'s check-in at `now`, at `version`, setting absent exactly `reviewed` (the
/// list the organizer saw): refused before the deadline, once the round is paired, or when
/// the list is no longer what closing would set absent (someone checked in meanwhile).
/// One transaction: the absences, the closing, one audit row naming them. Returns how many.
pub fn close(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    n: i32,
    version: i32,
    reviewed: &[i32],
    now_at: DateTime<Utc>,
) -> Result<usize, CheckInError> {
    crate::write_tx(&mut *conn, |conn| {
        let before = round_state(conn, tid, n)?;
        if before.closed() {
            return Err(CheckInError::Closed);
        }
        if before.version != version {
            return Err(CheckInError::Stale);
        }
        if !dci::may_close(before.deadline_at(), now_at) {
            return Err(CheckInError::BeforeDeadline);
        }
        let paired: i64 = rounds::table
            .filter(rounds::tournament_id.eq(tid))
            .filter(rounds::number.eq(n))
            .count()
            .get_result(conn)?;
        if paired > 0 {
            return Err(CheckInError::Paired);
        }
        let mut ids: Vec<i32> = closing_list(conn, tid, n)?.iter().map(|e| e.id).collect();
        let mut asked = reviewed.to_vec();
        ids.sort_unstable();
        asked.sort_unstable();
        if ids != asked {
            return Err(CheckInError::Stale);
        }
        let stamp = now();
        for id in &ids {
            crate::rounds::insert_absence(conn, tid, n, *id, &stamp)?;
        }
        let after = RoundState { closed_at: Some(stamp.clone()), version: version + 1, ..before.clone() };
        put_state(conn, tid, &after)?;
        let change = Change {
            tournament_id: Some(tid),
            action: AuditAction::CheckInClose,
            entity_id: Some(n),
            before: Some(&Closing { round: n, state: &before, absent: &[] }),
            after: Some(&Closing { round: n, state: &after, absent: &ids }),
            reason: "",
        };
        audit::record(conn, actor, change)?;
        Ok(ids.len())
    })
}

/// Store `code` as the event's self check-in code (a new one replaces the old), audited
/// without the code itself. The code is the event's: every group of it gets the same one.
pub fn set_code(conn: &mut Conn, actor: &Actor, tid: i32, code: &str) -> Result<(), DbError> {
    crate::write_tx(&mut *conn, |conn| {
        for g in super::events::siblings(conn, tid)? {
            set_code_of(conn, actor, g.id(), code)?;
        }
        Ok(())
    })
}

fn set_code_of(conn: &mut Conn, actor: &Actor, tid: i32, code: &str) -> Result<(), DbError> {
    {
        let had = self::code(conn, tid)?.is_some();
        diesel::delete(check_in_codes::table.filter(check_in_codes::tournament_id.eq(tid))).execute(conn)?;
        diesel::insert_into(check_in_codes::table)
            .values((
                check_in_codes::tournament_id.eq(tid),
                check_in_codes::code.eq(code),
                check_in_codes::updated_at.eq(now()),
            ))
            .execute(conn)?;
        #[derive(Serialize)]
        struct Code {
            code_set: bool,
        }
        let change = Change {
            tournament_id: Some(tid),
            action: AuditAction::CheckInCode,
            entity_id: Some(tid),
            before: Some(&Code { code_set: had }),
            after: Some(&Code { code_set: true }),
            reason: "",
        };
        audit::record(conn, actor, change)?;
        Ok(())
    }
}
