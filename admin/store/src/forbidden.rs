//! Pairings that must not happen (回避): the groups an organizer lists for a tournament, each
//! with its members (entrants), "never" or "not before round k", the organizer's reason (never
//! public) and who listed it. Written whole and versioned (a stale version refused), audited
//! in the tournament's trail. The pairing reads them through `rounds::history` as
//! `domain::pairing::avoid::Avoidance`s; what a group may hold is `domain::pairing::avoid`'s.

use super::audit::{self, AuditAction, Change};
use super::schema::{entrants, forbidden_pair_members, forbidden_pairs};
use super::{now, Actor, Conn, DbError};
use diesel::prelude::*;
use domain::pairing::avoid::{check_group, GroupProblem};
use serde::Serialize;

/// A group as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Group {
    pub id: i32,
    pub tournament_id: i32,
    pub version: i32,
    /// The user who listed the group (none: a command, or a deleted account).
    pub created_by: Option<i32>,
    pub setup: Setup,
}

/// What the organizer writes of a group.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Setup {
    pub label: String,
    /// Entrant ids, ascending.
    pub members: Vec<i32>,
    /// The first round its members may meet; `None`: never.
    pub until_round: Option<u32>,
    /// The organizer's words, never public.
    pub reason: String,
}

#[derive(Queryable, Selectable)]
#[diesel(table_name = forbidden_pairs)]
struct Row {
    id: i32,
    tournament_id: i32,
    label: String,
    until_round: Option<i32>,
    reason: String,
    created_by: Option<i32>,
    version: i32,
}

fn members_of(conn: &mut Conn, ids: &[i32]) -> Result<Vec<(i32, i32)>, DbError> {
    Ok(forbidden_pair_members::table
        .filter(forbidden_pair_members::forbidden_pair_id.eq_any(ids))
        .select((forbidden_pair_members::forbidden_pair_id, forbidden_pair_members::entrant_id))
        .load(conn)?)
}

fn groups_of(conn: &mut Conn, rows: Vec<Row>) -> Result<Vec<Group>, DbError> {
    let ids: Vec<i32> = rows.iter().map(|r| r.id).collect();
    let members = members_of(conn, &ids)?;
    Ok(rows
        .into_iter()
        .map(|r| {
            let mut m: Vec<i32> = members.iter().filter(|(g, _)| *g == r.id).map(|(_, e)| *e).collect();
            m.sort_unstable();
            Group {
                id: r.id,
                tournament_id: r.tournament_id,
                version: r.version,
                created_by: r.created_by,
                setup: Setup {
                    label: r.label,
                    members: m,
                    until_round: r.until_round.and_then(|k| u32::try_from(k).ok()),
                    reason: r.reason,
                },
            }
        })
        .collect())
}

/// The groups of tournament `tid`, oldest first.
pub fn list(conn: &mut Conn, tid: i32) -> Result<Vec<Group>, DbError> {
    let rows: Vec<Row> = forbidden_pairs::table
        .filter(forbidden_pairs::tournament_id.eq(tid))
        .order(forbidden_pairs::id)
        .select(Row::as_select())
        .load(conn)?;
    groups_of(conn, rows)
}

/// Group `id` of tournament `tid` (NotFound for another tournament's).
pub fn get(conn: &mut Conn, tid: i32, id: i32) -> Result<Group, DbError> {
    let row: Row = forbidden_pairs::table
        .find(id)
        .filter(forbidden_pairs::tournament_id.eq(tid))
        .select(Row::as_select())
        .first(conn)
        .optional()?
        .ok_or(DbError::NotFound)?;
    groups_of(conn, vec![row])?.pop().ok_or(DbError::NotFound)
}

/// Why a group's write was refused.
#[derive(Debug)]
pub enum ForbiddenError {
    Invalid(Vec<GroupProblem>),
    /// Written meanwhile by someone else.
    Stale,
    Db(DbError),
}

db_variant!(ForbiddenError);

/// What a write does.
pub enum Write<'a> {
    Create(&'a Setup),
    /// New contents, read at `version`.
    Update {
        version: i32,
        setup: &'a Setup,
    },
    /// The group removed, read at `version`.
    Delete {
        version: i32,
    },
}

/// Write a group of tournament `tid` (`id` None for a new one), audited with who asked;
/// returns the group's id.
pub fn write(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    id: Option<i32>,
    w: Write<'_>,
) -> Result<i32, ForbiddenError> {
    crate::write_tx(&mut *conn, |conn| {
        if let Write::Create(setup) | Write::Update { setup, .. } = &w {
            let known: Vec<i32> =
                entrants::table.filter(entrants::tournament_id.eq(tid)).select(entrants::id).load(conn)?;
            let limits = (&known[..], domain::settings::MAX_ROUNDS);
            let problems =
                check_group(&setup.label, &setup.reason, &setup.members, setup.until_round, limits);
            if !problems.is_empty() {
                return Err(ForbiddenError::Invalid(problems));
            }
        }
        let before = match id {
            Some(id) => Some(get(conn, tid, id)?),
            None => None,
        };
        let stamp = now();
        let put_members = |conn: &mut Conn, gid: i32, s: &Setup| -> Result<(), DbError> {
            diesel::delete(
                forbidden_pair_members::table.filter(forbidden_pair_members::forbidden_pair_id.eq(gid)),
            )
            .execute(conn)?;
            let mut m = s.members.clone();
            m.sort_unstable();
            m.dedup();
            for e in m {
                diesel::insert_into(forbidden_pair_members::table)
                    .values((
                        forbidden_pair_members::forbidden_pair_id.eq(gid),
                        forbidden_pair_members::entrant_id.eq(e),
                    ))
                    .execute(conn)?;
            }
            Ok(())
        };
        let values = |s: &Setup| {
            (
                forbidden_pairs::label.eq(s.label.trim().to_string()),
                forbidden_pairs::until_round.eq(s.until_round.map(|k| k as i32)),
                forbidden_pairs::reason.eq(s.reason.trim().to_string()),
            )
        };
        let (gid, action) = match (&before, &w) {
            (None, Write::Create(setup)) => {
                diesel::insert_into(forbidden_pairs::table)
                    .values((
                        forbidden_pairs::tournament_id.eq(tid),
                        values(setup),
                        forbidden_pairs::created_by.eq(actor.user_id),
                        forbidden_pairs::created_at.eq(&stamp),
                        forbidden_pairs::updated_at.eq(&stamp),
                    ))
                    .execute(conn)?;
                let gid: i32 = forbidden_pairs::table
                    .filter(forbidden_pairs::tournament_id.eq(tid))
                    .select(diesel::dsl::max(forbidden_pairs::id))
                    .first::<Option<i32>>(conn)?
                    .ok_or(DbError::NotFound)?;
                put_members(conn, gid, setup)?;
                (gid, AuditAction::ForbiddenCreate)
            }
            (Some(b), Write::Update { version, setup }) => {
                if b.version != *version {
                    return Err(ForbiddenError::Stale);
                }
                diesel::update(forbidden_pairs::table.find(b.id))
                    .set((
                        values(setup),
                        forbidden_pairs::version.eq(version + 1),
                        forbidden_pairs::updated_at.eq(&stamp),
                    ))
                    .execute(conn)?;
                put_members(conn, b.id, setup)?;
                (b.id, AuditAction::ForbiddenUpdate)
            }
            (Some(b), Write::Delete { version }) => {
                if b.version != *version {
                    return Err(ForbiddenError::Stale);
                }
                diesel::delete(forbidden_pairs::table.find(b.id)).execute(conn)?;
                (b.id, AuditAction::ForbiddenDelete)
            }
            (Some(_), Write::Create(_)) => return Err(ForbiddenError::Stale),
            (None, _) => return Err(ForbiddenError::Db(DbError::NotFound)),
        };
        let after = match action {
            AuditAction::ForbiddenDelete => None,
            _ => Some(get(conn, tid, gid)?),
        };
        audit::record(
            conn,
            actor,
            Change {
                tournament_id: Some(tid),
                action,
                entity_id: Some(gid),
                before: before.as_ref(),
                after: after.as_ref(),
                reason: "",
            },
        )?;
        Ok(gid)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use domain::entrant::{EntrantInput, Rank};

    /// Tournament practice for forbidden pairings: a group is listed, read back by the
    /// pairing's history as an avoidance, edited at its version (a stale one refused),
    /// refused with a non-entrant member, deleted; each write is audited with who asked.
    #[test]
    fn groups_are_versioned_audited_and_read_by_the_pairing() {
        let dir = tempfile::tempdir().unwrap();
        let pool = crate::open(&dir.path().join("t.db")).unwrap();
        let mut conn = pool.get().unwrap();
        let c = &mut conn;
        let a = Actor::system("test");
        let s = domain::settings::TournamentSettings::defaults(chrono::NaiveDate::MIN, crate::server_zone());
        let tid = crate::tournaments::create(c, &a, &s).unwrap();
        let ids: Vec<i32> = (0..3)
            .map(|i| {
                let mut e = EntrantInput::new(Rank::Dan(1));
                (e.family_name_zh, e.given_name_zh) = ("王".into(), ["一", "二", "三"][i].into());
                crate::entrants::create(c, &a, tid, &e, true, None).unwrap()
            })
            .collect();
        let setup =
            Setup {
                label: "王家".into(), members: ids.clone(), until_round: None, reason: "兄弟".into()
            };
        let bad = Setup { members: vec![ids[0], 9999], ..setup.clone() };
        let refused = write(c, &a, tid, None, Write::Create(&bad));
        assert!(matches!(refused, Err(ForbiddenError::Invalid(p)) if p == vec![GroupProblem::NotAnEntrant]));
        let gid = write(c, &a, tid, None, Write::Create(&setup)).unwrap();
        let h = crate::rounds::history(c, tid, 1).unwrap();
        assert_eq!(h.avoid.len(), 1);
        assert_eq!(h.avoid[0].members.len(), 3);
        let two = Setup { members: ids[..2].to_vec(), until_round: Some(3), ..setup.clone() };
        let stale = write(c, &a, tid, Some(gid), Write::Update { version: 0, setup: &two });
        assert!(matches!(stale, Err(ForbiddenError::Stale)));
        write(c, &a, tid, Some(gid), Write::Update { version: 1, setup: &two }).unwrap();
        let g = get(c, tid, gid).unwrap();
        assert_eq!((g.version, g.setup.members.len(), g.setup.until_round), (2, 2, Some(3)));
        assert!(matches!(get(c, tid + 1, gid), Err(DbError::NotFound)));
        write(c, &a, tid, Some(gid), Write::Delete { version: 2 }).unwrap();
        assert!(list(c, tid).unwrap().is_empty());
        let audited: i64 = crate::schema::audit::table
            .filter(crate::schema::audit::entity.eq("forbidden_pair"))
            .count()
            .get_result(c)
            .unwrap();
        assert_eq!(audited, 3);
    }
}
