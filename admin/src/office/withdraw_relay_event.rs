//! Withdraw a relay event: the chief arbiter's take-back of a wrongly recorded event, as for
//! corrections of locked results (the log is append-only: corrected, never erased). The log
//! keeps the event; a withdrawal row names it, the match is replayed from the events that
//! stand ([`matches::withdraw`]), its record (standings) recomputed, a replay ordered by the
//! withdrawn ruling created or withdrawn with it, all in one transaction with the audit row.

use crate::db::audit::{self, AuditAction, Change};
use crate::db::results::is_chief;
use crate::db::team_matches::{self as mdb, MatchError};
use crate::db::{self, now, Actor, Conn};
use domain::team::matches::{self, MatchRefusal, ReplayChange};
use domain::team::relay::{Counts, Event, RelayMatch};
use domain::team::standings::TeamMatchRecord;
use domain::team::withdraw::WithdrawError;
use serde::Serialize;

/// Withdraws event `seq` of relay match `mid` of event `tid` (on the page of `version`) with
/// `reason`. Returns the match's new version.
pub fn withdraw_relay_event(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    mid: i32,
    version: i32,
    seq: u32,
    reason: &str,
) -> Result<i32, MatchError> {
    db::write_tx(&mut *conn, |conn| {
        let row = mdb::relay_at(conn, tid, mid, version)?;
        let chief = is_chief(conn, tid, actor.user_id)?;
        withdraw_in(conn, actor, tid, &row, seq, reason, chief)
    })
}

/// Withdraws event `seq` of the relay match `row` (read at the form's version inside the
/// caller's transaction) with `reason`, when `allowed`: the chief arbiter, or the one who
/// entered the last move at the board taking it back (`office::relay_board::undo`). Returns the
/// match's new version.
pub(super) fn withdraw_in(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    row: &mdb::MatchRow,
    seq: u32,
    reason: &str,
    allowed: bool,
) -> Result<i32, MatchError> {
    let (mid, version, chief) = (row.id, row.version, allowed);
    let (rows, _, log) = mdb::logged_events(conn, mid)?;
    let round = u32::try_from(row.round_number).unwrap_or(0);
    let w = matches::withdraw(row.setup().as_ref(), &log, seq, reason, chief, round)
        .map_err(|b| MatchError::blocked(mid, b))?;
    if w.changes_what_follows() {
        w.allowed_with(mdb::next_round_after(conn, tid, row.round_number)?)?;
    }
    let target = rows
        .iter()
        .find(|r| u32::try_from(r.seq).ok() == Some(seq))
        .ok_or(MatchRefusal::Withdraw(WithdrawError::UnknownEvent { seq }))?;
    let stamp = now();
    mdb::insert_withdrawal(conn, actor, mid, target.id, reason.trim(), &stamp)?;
    let new_version = version + 1;
    mdb::set_record(conn, mid, w.record_after.as_ref(), new_version, &stamp)?;
    // A replay ordered by the withdrawn ruling goes with it, while nothing was recorded in it.
    let replay = mdb::replay_of(conn, mid)?.map(|rp| (rp.id, rp.setup.is_some() || rp.record.is_some()));
    match w.replay_change(replay)? {
        ReplayChange::Delete(id) => mdb::delete_match(conn, id)?,
        ReplayChange::Create => {
            mdb::create_replay(conn, row, &stamp)?;
        }
        ReplayChange::Keep => {}
    }
    let event = log.iter().find(|e| e.seq == seq).map(|e| &e.event).expect("found above");
    let before = Withdrawn {
        seq,
        event,
        recorded_at: &target.recorded_at,
        state: State::of(&w.before, w.record_before),
    };
    audit::record(
        conn,
        actor,
        Change {
            tournament_id: Some(tid),
            action: AuditAction::RelayWithdraw,
            entity_id: Some(mid),
            before: Some(&before),
            after: Some(&State::of(&w.after, w.record_after)),
            reason: reason.trim(),
        },
    )?;
    Ok(new_version)
}

/// What the audit row keeps of a match: its counts, result and record.
#[derive(Serialize)]
struct State {
    counts: Counts,
    result: Option<String>,
    record: Option<TeamMatchRecord>,
}

impl State {
    fn of(m: &RelayMatch, record: Option<TeamMatchRecord>) -> State {
        State { counts: m.counts(), result: m.result().map(|r| r.code()), record }
    }
}

/// The withdrawn event as the audit row's "before".
#[derive(Serialize)]
struct Withdrawn<'a> {
    seq: u32,
    event: &'a Event,
    recorded_at: &'a str,
    state: State,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::office::fixtures::RelayFixture;

    /// The relay log is append-only: a wrongly recorded event is withdrawn, never deleted, and
    /// only by the chief arbiter (as a locked result is corrected). A plain arbiter's
    /// withdrawal writes nothing; the chief arbiter's names the event, bumps the match's
    /// version and writes its audit row.
    #[test]
    fn only_the_chief_arbiter_withdraws_a_relay_event() {
        let f = RelayFixture::with_lineups();
        let (c, tid, mid, chief, v) = (&mut f.conn(), f.tid, f.mid, &f.chief, f.version);
        let arbiter = Actor::system("arbiter");
        let r = withdraw_relay_event(c, &arbiter, tid, mid, v, 2, "typo");
        assert!(matches!(r, Err(MatchError::Refused(MatchRefusal::NotChief))), "{r:?}");
        assert!(mdb::withdrawals_of(c, mid).unwrap().is_empty());
        assert_eq!(mdb::get_match(c, tid, mid).unwrap().version, v);
        assert_eq!(withdraw_relay_event(c, chief, tid, mid, v, 2, "typo").unwrap(), v + 1);
        let withdrawn = mdb::withdrawals_of(c, mid).unwrap();
        assert_eq!(withdrawn.len(), 1);
        assert_eq!(withdrawn[0].reason, "typo");
        let audited = audit::for_tournament(c, tid, 100).unwrap();
        assert_eq!(audited.iter().filter(|a| a.action == "relay_withdraw").count(), 1);
        let stale = withdraw_relay_event(c, chief, tid, mid, v, 1, "typo");
        assert!(matches!(stale, Err(MatchError::Refused(MatchRefusal::Stale { .. }))), "{stale:?}");
    }
}
