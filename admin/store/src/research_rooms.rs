//! The research room (研究室) of a team in a relay event (seed 003 Art. 10.1: "研究室同步直播比赛
//! 对局，研究室人员由领队，队长，教练员和不上场队员构成"): one row per team, versioned, its address
//! `/room/{token}` opened with no login. The token is random and stored only as its SHA-256 (the
//! helpers of [`super::users`], as sessions and display screens use them): `by_token` finds the
//! room, a revoked one (no token) is found by none, and a new address replaces the old one.
//! Every write is audited in the tournament's trail as a change of the team (`entity_id` the
//! team's), in the same transaction.

use super::audit::{self, AuditAction, Change};
use super::schema::research_rooms;
use super::users::token_hash;
use super::{now, teams, Actor, Conn, DbError};
use diesel::prelude::*;
use domain::team::event::Format;
use serde::Serialize;

/// A team's research room as stored (its token never read back).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Room {
    pub id: i32,
    pub tournament_id: i32,
    pub team_id: i32,
    pub version: i32,
    /// The address works (a token is current, not revoked).
    pub live: bool,
}

#[derive(Queryable, Selectable)]
#[diesel(table_name = research_rooms)]
struct Row {
    id: i32,
    tournament_id: i32,
    team_id: i32,
    token_hash: Option<String>,
    version: i32,
}

fn of_row(r: Row) -> Room {
    Room {
        id: r.id,
        tournament_id: r.tournament_id,
        team_id: r.team_id,
        version: r.version,
        live: r.token_hash.is_some(),
    }
}

/// The room of `team` of tournament `tid`, if an address was ever issued for it.
pub fn of_team(conn: &mut Conn, tid: i32, team: i32) -> Result<Option<Room>, DbError> {
    let row: Option<Row> = research_rooms::table
        .filter(research_rooms::tournament_id.eq(tid))
        .filter(research_rooms::team_id.eq(team))
        .select(Row::as_select())
        .first(conn)
        .optional()?;
    Ok(row.map(of_row))
}

/// The room whose address carries `token` (NotFound for none, or a revoked one).
pub fn by_token(conn: &mut Conn, token: &str) -> Result<Room, DbError> {
    let row: Row = research_rooms::table
        .filter(research_rooms::token_hash.eq(token_hash(token)))
        .select(Row::as_select())
        .first(conn)
        .optional()?
        .ok_or(DbError::NotFound)?;
    Ok(of_row(row))
}

/// Why a room's write was refused.
#[derive(Debug)]
pub enum RoomError {
    /// The event is not a relay event (a research room follows a relay game, Art. 10.1).
    NotRelay,
    /// Written meanwhile by someone else (or revoked already).
    Stale,
    Db(DbError),
}

db_variant!(RoomError);

/// What a write does.
#[derive(Debug, Clone, Copy)]
pub enum Write<'a> {
    /// A new address (the old one, if any, no longer works).
    Issue { token: &'a str },
    /// The address no longer works.
    Revoke,
}

/// Writes the room of `team` of `tid` as read at `version` (0: no address was ever issued),
/// audited; returns the room as written.
pub fn write(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    team: i32,
    version: i32,
    w: Write<'_>,
) -> Result<Room, RoomError> {
    crate::write_tx(&mut *conn, |conn| {
        teams::get(conn, tid, team)?;
        if teams::settings(conn, tid)?.0.format != Format::Relay {
            return Err(RoomError::NotRelay);
        }
        let before = of_team(conn, tid, team)?;
        let stamp = now();
        let action = match (&before, w) {
            (None, Write::Issue { token }) if version == 0 => {
                diesel::insert_into(research_rooms::table)
                    .values((
                        research_rooms::tournament_id.eq(tid),
                        research_rooms::team_id.eq(team),
                        research_rooms::token_hash.eq(Some(token_hash(token))),
                        research_rooms::created_at.eq(&stamp),
                        research_rooms::updated_at.eq(&stamp),
                    ))
                    .execute(conn)?;
                AuditAction::RoomIssue
            }
            (Some(b), w) if b.version == version && (b.live || matches!(w, Write::Issue { .. })) => {
                let hash = match w {
                    Write::Issue { token } => Some(token_hash(token)),
                    Write::Revoke => None,
                };
                diesel::update(research_rooms::table.find(b.id))
                    .set((
                        research_rooms::token_hash.eq(hash),
                        research_rooms::version.eq(version + 1),
                        research_rooms::updated_at.eq(&stamp),
                    ))
                    .execute(conn)?;
                match w {
                    Write::Issue { .. } => AuditAction::RoomIssue,
                    Write::Revoke => AuditAction::RoomRevoke,
                }
            }
            _ => return Err(RoomError::Stale),
        };
        let after = of_team(conn, tid, team)?.ok_or(DbError::NotFound)?;
        audit::record(
            conn,
            actor,
            Change {
                tournament_id: Some(tid),
                action,
                entity_id: Some(team),
                before: before.as_ref(),
                after: Some(&after),
                reason: "",
            },
        )?;
        Ok(after)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::teams::RosterInput;
    use domain::settings::System;

    fn roster(name: &str) -> RosterInput {
        RosterInput {
            name: name.into(),
            unit: String::new(),
            rating: None,
            leader: format!("{name}领队"),
            coach: String::new(),
            captain: Some(1),
            players: (1..=6).map(|k| (k, format!("{name}{k}"))).collect(),
        }
    }

    /// Seed 003 Art. 10.1 (研究室): a team's room is found by its token only while the token is
    /// current; revoking makes it unknown at once; a new address replaces the old one; a stale
    /// version is refused and writes nothing; each write is audited in the same transaction;
    /// another team's room is another row, gone with its team.
    #[test]
    fn issue_revoke_reissue_and_versions() {
        let dir = tempfile::tempdir().unwrap();
        let pool = crate::open(&dir.path().join("t.db")).unwrap();
        let mut conn = pool.get().unwrap();
        let c = &mut conn;
        let a = Actor::system("test");
        let mut s =
            domain::settings::TournamentSettings::defaults(chrono::NaiveDate::MIN, crate::server_zone());
        s.system = System::TeamRelay;
        let tid = crate::tournaments::create(c, &a, &s).unwrap();
        let one = teams::create(c, &a, tid, &roster("甲"), "").unwrap();
        let two = teams::create(c, &a, tid, &roster("乙"), "").unwrap();
        let audits = |c: &mut Conn| -> i64 {
            crate::schema::audit::table
                .filter(crate::schema::audit::action.eq_any(["room_issue", "room_revoke"]))
                .count()
                .get_result(c)
                .unwrap()
        };
        assert!(of_team(c, tid, one).unwrap().is_none());
        let r = write(c, &a, tid, one, 0, Write::Issue { token: "first" }).unwrap();
        assert_eq!((r.version, r.live, r.team_id), (1, true, one));
        assert_eq!(by_token(c, "first").unwrap(), r);
        assert!(matches!(by_token(c, "other"), Err(DbError::NotFound)));
        // Issued twice from two pages: the second is stale.
        let stale = write(c, &a, tid, one, 0, Write::Issue { token: "again" });
        assert!(matches!(stale, Err(RoomError::Stale)));
        assert!(matches!(by_token(c, "again"), Err(DbError::NotFound)));
        assert_eq!(audits(c), 1);
        // A new address: the old one is gone.
        let r = write(c, &a, tid, one, 1, Write::Issue { token: "second" }).unwrap();
        assert_eq!(r.version, 2);
        assert!(matches!(by_token(c, "first"), Err(DbError::NotFound)));
        assert_eq!(by_token(c, "second").unwrap().team_id, one);
        // Revoked: no address; revoking again is stale.
        let r = write(c, &a, tid, one, 2, Write::Revoke).unwrap();
        assert_eq!((r.version, r.live), (3, false));
        assert!(matches!(by_token(c, "second"), Err(DbError::NotFound)));
        assert!(matches!(write(c, &a, tid, one, 3, Write::Revoke), Err(RoomError::Stale)));
        // The other team's room is its own.
        let other = write(c, &a, tid, two, 0, Write::Issue { token: "theirs" }).unwrap();
        assert_eq!(by_token(c, "theirs").unwrap().team_id, two);
        assert_ne!(other.id, r.id);
        assert_eq!(audits(c), 4);
        // A team deleted takes its room with it (and its address is unknown).
        teams::delete(c, &a, tid, two, 1, "").unwrap();
        assert!(of_team(c, tid, two).unwrap().is_none());
        assert!(matches!(by_token(c, "theirs"), Err(DbError::NotFound)));
        // A team of another tournament is not found.
        let err = write(c, &a, tid + 1, one, 0, Write::Issue { token: "x" });
        assert!(matches!(err, Err(RoomError::Db(DbError::NotFound))));
    }

    /// Seed 003 Art. 10.1: a board-match event has no relay game to follow, so no room.
    #[test]
    fn only_relay_events_have_rooms() {
        let dir = tempfile::tempdir().unwrap();
        let pool = crate::open(&dir.path().join("t.db")).unwrap();
        let mut conn = pool.get().unwrap();
        let c = &mut conn;
        let a = Actor::system("test");
        let mut s =
            domain::settings::TournamentSettings::defaults(chrono::NaiveDate::MIN, crate::server_zone());
        s.system = System::TeamRelay;
        let tid = crate::tournaments::create(c, &a, &s).unwrap();
        let one = teams::create(c, &a, tid, &roster("甲"), "").unwrap();
        let board = domain::team::event::TeamSettings {
            format: Format::Boards,
            boards: 4,
            ..domain::team::event::TeamSettings::default()
        };
        teams::save_settings(c, &a, tid, 0, &board, "").unwrap();
        let err = write(c, &a, tid, one, 0, Write::Issue { token: "x" });
        assert!(matches!(err, Err(RoomError::NotRelay)));
        assert!(of_team(c, tid, one).unwrap().is_none());
    }
}
