//! Ratings after the event (EGF GoR, `domain::gor`): one row per entrant of a tournament,
//! ratings in thousandths of a point. Computing again replaces the tournament's rows whole,
//! in one transaction with its audit row; the write is checked against the tournament's change
//! counter, so ratings computed from results that changed meanwhile are refused.

use super::audit::{self, AuditAction, Change};
use super::schema::{rating_changes, tournaments};
use super::{now, Actor, Conn, DbError};
use diesel::prelude::*;
use serde::Serialize;

/// One entrant's stored change.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Serialize)]
#[diesel(table_name = rating_changes)]
pub struct RatingChange {
    pub entrant_id: i32,
    /// Thousandths of a GoR point.
    pub rating_before: i32,
    pub rating_after: i32,
    pub games: i32,
    pub computed_at: String,
}

/// A change to store (the entrant and thousandths of a point).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct NewRatingChange {
    pub entrant_id: i32,
    pub rating_before: i32,
    pub rating_after: i32,
    pub games: i32,
}

#[derive(Debug)]
pub enum RatingError {
    /// The tournament changed since the page was read (its change counter moved).
    Stale {
        current: i32,
    },
    /// A round is still to be played or has a game without a result.
    Unfinished,
    Db(DbError),
}

db_variant!(RatingError);

/// The tournament's change counter: the version a computation is checked against.
pub fn version(conn: &mut Conn, tid: i32) -> Result<i32, DbError> {
    Ok(tournaments::table.find(tid).select(tournaments::changes).first(conn)?)
}

/// The tournament's stored changes, by entrant id order.
pub fn for_tournament(conn: &mut Conn, tid: i32) -> Result<Vec<RatingChange>, DbError> {
    Ok(rating_changes::table
        .filter(rating_changes::tournament_id.eq(tid))
        .order(rating_changes::entrant_id)
        .select(RatingChange::as_select())
        .load(conn)?)
}

/// The stored change of entrant `eid`, if its tournament's ratings were computed.
pub fn of_entrant(conn: &mut Conn, eid: i32) -> Result<Option<RatingChange>, DbError> {
    Ok(rating_changes::table
        .filter(rating_changes::entrant_id.eq(eid))
        .select(RatingChange::as_select())
        .first(conn)
        .optional()?)
}

/// The rating after the latest event of person `pid` whose ratings were computed (by the
/// event's start date), in thousandths: what the person's next entry starts from.
pub fn latest_of_person(conn: &mut Conn, pid: i32) -> Result<Option<i32>, DbError> {
    use super::schema::entrants;
    Ok(rating_changes::table
        .inner_join(entrants::table.on(entrants::id.eq(rating_changes::entrant_id)))
        .inner_join(tournaments::table.on(tournaments::id.eq(rating_changes::tournament_id)))
        .filter(entrants::person_id.eq(pid))
        .order((tournaments::start_date.desc(), tournaments::id.desc()))
        .select(rating_changes::rating_after)
        .first(conn)
        .optional()?)
}

/// What the audit row says of a computation.
#[derive(Serialize)]
struct Computed {
    players: usize,
    games: i32,
}

/// Replace the tournament's changes with `rows`, if its change counter is still `version`.
pub fn replace(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    version: i32,
    rows: &[NewRatingChange],
) -> Result<usize, RatingError> {
    crate::write_tx(&mut *conn, |conn| {
        let current = self::version(conn, tid)?;
        if current != version {
            return Err(RatingError::Stale { current });
        }
        let before = for_tournament(conn, tid)?.len();
        diesel::delete(rating_changes::table.filter(rating_changes::tournament_id.eq(tid))).execute(conn)?;
        let at = now();
        for r in rows {
            diesel::insert_into(rating_changes::table)
                .values((
                    rating_changes::tournament_id.eq(tid),
                    rating_changes::entrant_id.eq(r.entrant_id),
                    rating_changes::rating_before.eq(r.rating_before),
                    rating_changes::rating_after.eq(r.rating_after),
                    rating_changes::games.eq(r.games),
                    rating_changes::computed_at.eq(&at),
                ))
                .execute(conn)?;
        }
        // Each game counts for both players.
        let games = rows.iter().map(|r| r.games).sum::<i32>() / 2;
        let after = Computed { players: rows.len(), games };
        let was = (before > 0).then_some(before);
        audit::record(
            conn,
            actor,
            Change {
                tournament_id: Some(tid),
                action: AuditAction::RatingsCompute,
                entity_id: Some(tid),
                before: was.as_ref(),
                after: Some(&after),
                reason: "",
            },
        )?;
        Ok(rows.len())
    })
}
