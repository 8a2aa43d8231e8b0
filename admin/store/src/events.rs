//! Events (赛事) and their groups (组别).
//!
//! A group is a `tournaments` row, as a tournament always was; the event ties groups that play
//! in one hall. What the groups share of the settings (name, venue, dates, the zone) is kept on
//! every group's row and written to all of them at once (`tournaments::set_settings`, called by every
//! settings write), so each group reads it as before. An event of one group is a tournament as
//! it always was: its group has no name, and its pages are the tournament's.

use super::audit::{self, AuditAction, Change};
use super::schema::{
    check_ins, entrants, event_groups, round_absences, rounds, tournament_staff, tournaments,
};
use super::tournaments::TournamentRow;
pub use super::tournaments::{copy_shared, event_of, sibling_ids};
use super::Conn;
use super::{now, Actor, DbError};
use diesel::prelude::*;
use domain::groups::{self, Band};
use domain::settings::TournamentSettings;
use serde::Serialize;

/// A group's own fields (the rest of its settings are its tournament's).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
pub struct GroupFields {
    pub group_name_zh: String,
    pub group_name_latin: String,
    /// Place in the hall, 1 the strongest (its tables come first).
    pub group_order: i32,
    /// The first hall number fixed for the group; `None`: after the groups before it.
    pub first_table: Option<i32>,
    pub band: Band,
}

/// A group of an event: its tournament and its own fields.
#[derive(Debug, Clone, Serialize)]
pub struct Group {
    pub event_id: i32,
    pub t: TournamentRow,
    pub fields: GroupFields,
}

impl Group {
    pub fn id(&self) -> i32 {
        self.t.id
    }
}

pub(crate) type MembershipCols = (
    event_groups::event_id,
    event_groups::group_name_zh,
    event_groups::group_name_latin,
    event_groups::group_order,
    event_groups::first_table,
    event_groups::band,
);
pub(crate) const MEMBERSHIP: MembershipCols = (
    event_groups::event_id,
    event_groups::group_name_zh,
    event_groups::group_name_latin,
    event_groups::group_order,
    event_groups::first_table,
    event_groups::band,
);
pub(crate) type MembershipRow = (i32, String, String, i32, Option<i32>, String);

pub(crate) fn group_of(
    t: TournamentRow,
    (event_id, zh, latin, order, first_table, band): MembershipRow,
) -> Group {
    Group {
        event_id,
        t,
        fields: GroupFields {
            group_name_zh: zh,
            group_name_latin: latin,
            group_order: order,
            first_table,
            band: band_of(&band),
        },
    }
}

/// `tid` as a group of its event.
pub fn group(conn: &mut Conn, tid: i32) -> Result<Group, DbError> {
    let (t, m) = tournaments::table
        .inner_join(event_groups::table)
        .filter(tournaments::id.eq(tid))
        .select((TournamentRow::as_select(), MEMBERSHIP))
        .first::<(TournamentRow, MembershipRow)>(conn)
        .optional()?
        .ok_or(DbError::NotFound)?;
    Ok(group_of(t, m))
}

/// A band as stored ('' for the catch-all).
pub fn band_code(b: &Band) -> String {
    if b.is_open() {
        String::new()
    } else {
        serde_json::to_string(b).unwrap_or_default()
    }
}

/// A stored band back; '' or text this program did not write is the catch-all.
pub fn band_of(s: &str) -> Band {
    serde_json::from_str(s).unwrap_or_default()
}

/// The groups of an event, in hall order (then by id).
pub fn groups(conn: &mut Conn, event_id: i32) -> Result<Vec<Group>, DbError> {
    let rows: Vec<(TournamentRow, MembershipRow)> = tournaments::table
        .inner_join(event_groups::table)
        .filter(event_groups::event_id.eq(event_id))
        .order((event_groups::group_order.asc(), tournaments::id.asc()))
        .select((TournamentRow::as_select(), MEMBERSHIP))
        .load(conn)?;
    if rows.is_empty() {
        return Err(DbError::NotFound);
    }
    Ok(rows.into_iter().map(|(t, m)| group_of(t, m)).collect())
}

/// The groups of the event `tid` belongs to (`tid`'s own among them).
pub fn siblings(conn: &mut Conn, tid: i32) -> Result<Vec<Group>, DbError> {
    let event_id = event_of(conn, tid)?;
    groups(conn, event_id)
}

#[derive(Serialize)]
struct GroupSnapshot<'a> {
    id: i32,
    event_id: i32,
    #[serde(flatten)]
    fields: &'a GroupFields,
}

/// Add a group to the event: a tournament with `s` for its own settings and the event's shared
/// ones (name, venue, dates, zone) from its first group, placed last in the hall, with the
/// first group's staff. Audited in the new group's trail.
pub fn add_group(
    conn: &mut Conn,
    actor: &Actor,
    event_id: i32,
    s: &TournamentSettings,
    fields: &GroupFields,
) -> Result<i32, DbError> {
    crate::write_tx(&mut *conn, |conn| {
        let existing = groups(conn, event_id)?;
        let first = &existing[0].t;
        let mut s = s.clone();
        let shared = first.settings();
        copy_shared(&shared, &mut s);
        let id = super::tournaments::insert_in_event(conn, actor, &s, event_id)?;
        let order = existing.iter().map(|g| g.fields.group_order).max().unwrap_or(0) + 1;
        let fields = GroupFields {
            group_order: if fields.group_order > 0 { fields.group_order } else { order },
            ..fields.clone()
        };
        write_fields(conn, id, &fields)?;
        let staff: Vec<(i32, String)> = tournament_staff::table
            .filter(tournament_staff::tournament_id.eq(first.id))
            .select((tournament_staff::user_id, tournament_staff::role))
            .load(conn)?;
        for (uid, role) in staff {
            if actor.user_id == Some(uid) {
                continue; // already on it as its creator
            }
            diesel::insert_into(tournament_staff::table)
                .values((
                    tournament_staff::tournament_id.eq(id),
                    tournament_staff::user_id.eq(uid),
                    tournament_staff::role.eq(role),
                ))
                .execute(conn)?;
        }
        record_created(conn, actor, id, event_id, &fields)?;
        touch_siblings(conn, id)?;
        Ok(id)
    })
}

/// The other groups' public pages changed too (they name the event's groups and link its
/// page): their change tags are bumped in the same transaction.
fn touch_siblings(conn: &mut Conn, tid: i32) -> Result<(), DbError> {
    for g in sibling_ids(conn, tid)? {
        if g != tid {
            audit::touch(conn, g)?;
        }
    }
    Ok(())
}

/// The audit row of a group made (inside the caller's transaction), in its own trail.
pub(crate) fn record_created(
    conn: &mut Conn,
    actor: &Actor,
    id: i32,
    event_id: i32,
    fields: &GroupFields,
) -> Result<(), DbError> {
    audit::record::<(), _>(
        conn,
        actor,
        Change {
            tournament_id: Some(id),
            action: AuditAction::GroupCreate,
            entity_id: Some(id),
            before: None,
            after: Some(&GroupSnapshot { id, event_id, fields }),
            reason: "",
        },
    )
}

pub(crate) fn write_fields(conn: &mut Conn, id: i32, f: &GroupFields) -> Result<(), DbError> {
    diesel::update(event_groups::table.find(id))
        .set((
            event_groups::group_name_zh.eq(f.group_name_zh.trim()),
            event_groups::group_name_latin.eq(f.group_name_latin.trim()),
            event_groups::group_order.eq(f.group_order),
            event_groups::first_table.eq(f.first_table),
            event_groups::band.eq(band_code(&f.band)),
        ))
        .execute(conn)?;
    Ok(())
}

/// Why a group's edit was refused.
#[derive(Debug)]
pub enum GroupError {
    /// Someone saved the group in between.
    Stale {
        current: i32,
    },
    Db(DbError),
}

db_variant!(GroupError);

/// Change a group's own fields if `version` (the group's tournament version) is current.
pub fn set_group(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    version: i32,
    fields: &GroupFields,
) -> Result<i32, GroupError> {
    crate::write_tx(&mut *conn, |conn| {
        let g = group(conn, tid)?;
        let row = &g.t;
        if row.version != version {
            return Err(GroupError::Stale { current: row.version });
        }
        let before = g.fields.clone();
        write_fields(conn, tid, fields)?;
        let v = row.version + 1;
        diesel::update(tournaments::table.find(tid))
            .set((tournaments::version.eq(v), tournaments::updated_at.eq(now())))
            .execute(conn)?;
        audit::record(
            conn,
            actor,
            Change {
                tournament_id: Some(tid),
                action: AuditAction::GroupUpdate,
                entity_id: Some(tid),
                before: Some(&GroupSnapshot { id: tid, event_id: g.event_id, fields: &before }),
                after: Some(&GroupSnapshot { id: tid, event_id: g.event_id, fields }),
                reason: "",
            },
        )?;
        touch_siblings(conn, tid)?;
        Ok(v)
    })
}

/// Why an entrant cannot move to another group.
#[derive(Debug)]
pub enum MoveError {
    /// Not a group of the same event.
    OtherEvent,
    /// A round of one of the two groups exists (drafts too): entrants move before round 1 only.
    Started {
        group: i32,
    },
    /// Someone changed the entrant in between.
    Stale {
        current: i32,
    },
    Db(DbError),
}

db_variant!(MoveError);

#[derive(Serialize)]
struct Moved {
    entrant_id: i32,
    version: i32,
    tournament_id: i32,
}

/// Move an entrant to group `to` of the same event, before either group has a round: the entrant
/// (and their check-ins and absences so far) change group, audited in both groups' trails.
pub fn move_entrant(
    conn: &mut Conn,
    actor: &Actor,
    from: i32,
    entrant_id: i32,
    version: i32,
    to: i32,
) -> Result<(), MoveError> {
    crate::write_tx(&mut *conn, |conn| {
        if event_of(conn, from)? != event_of(conn, to)? || from == to {
            return Err(MoveError::OtherEvent);
        }
        for g in [from, to] {
            if super::tournaments::count_rounds(conn, g)? > 0 {
                return Err(MoveError::Started { group: g });
            }
        }
        let current: i32 = entrants::table
            .filter(entrants::id.eq(entrant_id).and(entrants::tournament_id.eq(from)))
            .select(entrants::version)
            .first(conn)
            .optional()?
            .ok_or(DbError::NotFound)?;
        if current != version {
            return Err(MoveError::Stale { current });
        }
        diesel::update(entrants::table.find(entrant_id))
            .set((
                entrants::tournament_id.eq(to),
                entrants::version.eq(version + 1),
                entrants::updated_at.eq(now()),
            ))
            .execute(conn)?;
        diesel::update(check_ins::table.filter(check_ins::entrant_id.eq(entrant_id)))
            .set(check_ins::tournament_id.eq(to))
            .execute(conn)?;
        diesel::update(round_absences::table.filter(round_absences::entrant_id.eq(entrant_id)))
            .set(round_absences::tournament_id.eq(to))
            .execute(conn)?;
        for tid in [from, to] {
            audit::record(
                conn,
                actor,
                Change {
                    tournament_id: Some(tid),
                    action: AuditAction::EntrantMove,
                    entity_id: Some(entrant_id),
                    before: Some(&Moved { entrant_id, version, tournament_id: from }),
                    after: Some(&Moved { entrant_id, version: version + 1, tournament_id: to }),
                    reason: "",
                },
            )?;
        }
        Ok(())
    })
}

/// Where the bands of the event's groups would place each entrant who is not where their band
/// says: (entrant, the group they are in, the group proposed). Entrants no band claims, and
/// withdrawn ones, are left where they are.
pub fn band_proposals(
    conn: &mut Conn,
    event_id: i32,
) -> Result<Vec<(crate::rows::EntrantRow, i32, i32)>, DbError> {
    use crate::rows::EntrantRow;
    let gs = groups(conn, event_id)?;
    let ids: Vec<i32> = gs.iter().map(Group::id).collect();
    let bands: Vec<(i32, Band)> = gs.iter().map(|g| (g.id(), g.fields.band.clone())).collect();
    if bands.iter().all(|(_, b)| b.is_open()) {
        return Ok(Vec::new());
    }
    let mut rows: Vec<EntrantRow> = entrants::table
        .filter(entrants::tournament_id.eq_any(&ids))
        .select(EntrantRow::as_select())
        .load(conn)?;
    rows.sort_by_key(|e| e.id);
    let cands: Vec<groups::Candidate> = rows
        .iter()
        .map(|e| groups::Candidate {
            id: e.id,
            rank_value: e.rank_value,
            birth_date: e.birth_date.as_deref().and_then(|d| d.parse().ok()),
        })
        .collect();
    let proposed = groups::propose(&bands, &cands);
    Ok(rows
        .into_iter()
        .zip(proposed)
        .filter(|(e, _)| e.status != "withdrawn")
        .filter_map(|(e, (_, g))| {
            g.filter(|&g| g != e.tournament_id).map(|g| (e.clone(), e.tournament_id, g))
        })
        .collect())
}

/// The hall number of table 1 of each group's round `round` (1 when the round is not paired):
/// (group, first hall number).
pub fn hall_firsts(conn: &mut Conn, event_id: i32, round: i32) -> Result<Vec<(i32, i32)>, DbError> {
    let ids: Vec<i32> = groups(conn, event_id)?.iter().map(Group::id).collect();
    Ok(rounds::table
        .filter(rounds::tournament_id.eq_any(ids).and(rounds::number.eq(round)))
        .select((rounds::tournament_id, rounds::hall_first))
        .load(conn)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_round_trip_through_their_code() {
        let b = Band {
            rank_low: Some(-4),
            rank_high: Some(4),
            born_before: "1966-01-01".parse().ok(),
            ..Band::default()
        };
        assert_eq!(band_of(&band_code(&b)), b);
        assert_eq!(band_code(&Band::default()), "");
        assert_eq!(band_of(""), Band::default());
        assert_eq!(band_of("not json"), Band::default());
    }
}
