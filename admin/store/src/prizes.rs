//! A tournament's prizes (录取名次与单项奖) and their settings: what the organizer defines. Who
//! wins them is `domain::prizes`' decision, made by the office from the standings.
//!
//! Storage (migration `2026-12-05-300000_prizes`): `prize_settings` holds the rules (a double
//! qualification, withdrawn players), the certificate's template, the organizer's name line and
//! whether the list is published; `prizes` one row per prize, `position` its precedence. The
//! settings row's version guards every edit of either (the prizes are one aggregate), and every
//! write records its audit row in the same transaction.

use super::audit::{self, AuditAction, Change};
use super::schema::{prize_settings, prizes};
use super::{now, Actor, Conn, DbError};
use diesel::prelude::*;
use domain::prizes::{Double, Kind, Rules};
use serde::Serialize;

/// The certificate's template.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Template {
    /// A double border and the title in red.
    Classic,
    /// Text only, for pre-printed certificate paper.
    Plain,
}

impl Template {
    pub const ALL: [Template; 2] = [Template::Classic, Template::Plain];
    pub fn code(self) -> &'static str {
        match self {
            Template::Classic => "classic",
            Template::Plain => "plain",
        }
    }
    pub fn from_code(s: &str) -> Option<Template> {
        Template::ALL.into_iter().find(|t| t.code() == s)
    }
}

/// The prizes' settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PrizeSettings {
    pub rules: Rules,
    pub template: Template,
    /// The organizer's name line on the certificates.
    pub organizer: String,
    pub published: bool,
}

impl Default for PrizeSettings {
    fn default() -> PrizeSettings {
        PrizeSettings {
            rules: Rules::default(),
            template: Template::Classic,
            organizer: String::new(),
            published: false,
        }
    }
}

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = prize_settings)]
struct SettingsRow {
    double_rule: String,
    award_withdrawn: bool,
    template: String,
    organizer: String,
    published: bool,
    version: i32,
}

/// One prize as stored.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Serialize)]
#[diesel(table_name = prizes)]
pub struct PrizeRow {
    pub id: i32,
    pub position: i32,
    pub kind: String,
    /// The organizer's own name for it; empty: the catalog's (第一名, 最佳女棋手…).
    pub name: String,
    /// The amount or description (奖金、奖品), as typed.
    pub amount: String,
}

impl PrizeRow {
    /// The prize's kind (a row this version cannot read counts as nobody's prize: the 1000th
    /// place).
    pub fn kind(&self) -> Kind {
        serde_json::from_str(&self.kind).unwrap_or(Kind::Place(1000))
    }
}

/// A prize to add.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NewPrize {
    pub kind: Kind,
    pub name: String,
    pub amount: String,
}

/// Why a prize write was refused.
#[derive(Debug)]
pub enum PrizeError {
    /// Someone saved in between.
    Stale {
        current: i32,
    },
    /// Published prizes are not edited (unpublish first).
    Published,
    Db(DbError),
}

db_variant!(PrizeError);

/// The settings and their version (0 before the first save).
pub fn settings(conn: &mut Conn, tid: i32) -> Result<(PrizeSettings, i32), DbError> {
    let row: Option<SettingsRow> =
        prize_settings::table.find(tid).select(SettingsRow::as_select()).first(conn).optional()?;
    Ok(match row {
        Some(r) => (
            PrizeSettings {
                rules: Rules {
                    double: Double::from_code(&r.double_rule).unwrap_or(Double::HigherOnly),
                    award_withdrawn: r.award_withdrawn,
                },
                template: Template::from_code(&r.template).unwrap_or(Template::Classic),
                organizer: r.organizer,
                published: r.published,
            },
            r.version,
        ),
        None => (PrizeSettings::default(), 0),
    })
}

/// The prizes in precedence order.
pub fn list(conn: &mut Conn, tid: i32) -> Result<Vec<PrizeRow>, DbError> {
    Ok(prizes::table
        .filter(prizes::tournament_id.eq(tid))
        .order((prizes::position, prizes::id))
        .select(PrizeRow::as_select())
        .load(conn)?)
}

/// One edit of the prizes at `version`: checks the version (and, unless `publishing`, that
/// the list is not published), runs `change`, stores `new` settings with the next version and
/// the audit row. Returns the new version.
#[allow(clippy::too_many_arguments)]
fn edit<A: Serialize>(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    version: i32,
    action: AuditAction,
    after: &A,
    reason: &str,
    change: impl FnOnce(&mut Conn, &mut PrizeSettings) -> Result<(), PrizeError>,
) -> Result<i32, PrizeError> {
    crate::write_tx(&mut *conn, |conn| {
        super::tournaments::get(conn, tid)?;
        let (old, current) = settings(conn, tid)?;
        if current != version {
            return Err(PrizeError::Stale { current });
        }
        let mut s = old.clone();
        change(conn, &mut s)?;
        if old.published && s.published {
            return Err(PrizeError::Published);
        }
        let new_version = version + 1;
        let values = (
            prize_settings::double_rule.eq(s.rules.double.code()),
            prize_settings::award_withdrawn.eq(s.rules.award_withdrawn),
            prize_settings::template.eq(s.template.code()),
            prize_settings::organizer.eq(&s.organizer),
            prize_settings::published.eq(s.published),
            prize_settings::version.eq(new_version),
            prize_settings::updated_at.eq(now()),
        );
        if version == 0 {
            diesel::insert_into(prize_settings::table)
                .values((prize_settings::tournament_id.eq(tid), values))
                .execute(conn)?;
        } else {
            diesel::update(prize_settings::table.find(tid)).set(values).execute(conn)?;
        }
        let change = Change {
            tournament_id: Some(tid),
            action,
            entity_id: Some(tid),
            before: Some(&old),
            after: Some(after),
            reason,
        };
        audit::record(conn, actor, change)?;
        Ok(new_version)
    })
}

/// Saves the rules, the template and the organizer's line (the publication is
/// [`set_published`]'s).
pub fn save_settings(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    version: i32,
    new: &PrizeSettings,
) -> Result<i32, PrizeError> {
    edit(conn, actor, tid, version, AuditAction::PrizeSettingsUpdate, new, "", |_, s| {
        *s = PrizeSettings { published: s.published, ..new.clone() };
        Ok(())
    })
}

/// Publishes the prize list, or takes it back.
pub fn set_published(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    version: i32,
    published: bool,
) -> Result<i32, PrizeError> {
    let action = if published { AuditAction::PrizesPublish } else { AuditAction::PrizesUnpublish };
    edit(conn, actor, tid, version, action, &published, "", |_, s| {
        s.published = published;
        Ok(())
    })
}

/// Renumbers the prizes' positions 1, 2, … in the order of `ids`.
fn renumber(conn: &mut Conn, ids: &[i32]) -> Result<(), DbError> {
    for (i, id) in ids.iter().enumerate() {
        diesel::update(prizes::table.find(*id)).set(prizes::position.eq(i as i32 + 1)).execute(conn)?;
    }
    Ok(())
}

fn insert(conn: &mut Conn, tid: i32, position: i32, p: &NewPrize) -> Result<i32, DbError> {
    let kind = serde_json::to_string(&p.kind).unwrap_or_default();
    diesel::insert_into(prizes::table)
        .values((
            prizes::tournament_id.eq(tid),
            prizes::position.eq(position),
            prizes::kind.eq(kind),
            prizes::name.eq(&p.name),
            prizes::amount.eq(&p.amount),
            prizes::created_at.eq(now()),
        ))
        .execute(conn)?;
    Ok(prizes::table
        .filter(prizes::tournament_id.eq(tid))
        .select(diesel::dsl::max(prizes::id))
        .first::<Option<i32>>(conn)?
        .unwrap_or(0))
}

/// Adds a prize at the end of the precedence list.
pub fn add(conn: &mut Conn, actor: &Actor, tid: i32, version: i32, p: &NewPrize) -> Result<i32, PrizeError> {
    edit(conn, actor, tid, version, AuditAction::PrizeAdd, p, "", |conn, _| {
        let last = list(conn, tid)?.len() as i32;
        insert(conn, tid, last + 1, p)?;
        Ok(())
    })
}

/// Makes the places 1..=`places` exactly (录取前N名): places beyond are removed, missing ones
/// added after the last place (or first, when there is none), so places stay above the
/// special prizes unless the organizer moved one.
pub fn set_places(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    version: i32,
    places: u32,
) -> Result<i32, PrizeError> {
    edit(conn, actor, tid, version, AuditAction::PrizePlaces, &places, "", |conn, _| {
        let rows = list(conn, tid)?;
        let place = |r: &PrizeRow| match r.kind() {
            Kind::Place(k) => Some(k),
            _ => None,
        };
        let gone: Vec<i32> =
            rows.iter().filter(|r| place(r).is_some_and(|k| k > places)).map(|r| r.id).collect();
        diesel::delete(prizes::table.filter(prizes::id.eq_any(&gone))).execute(conn)?;
        let mut ids: Vec<i32> = rows.iter().filter(|r| !gone.contains(&r.id)).map(|r| r.id).collect();
        let have: Vec<u32> = rows.iter().filter_map(place).filter(|k| *k <= places).collect();
        let kept: Vec<&PrizeRow> = rows.iter().filter(|r| !gone.contains(&r.id)).collect();
        let at = kept.iter().rposition(|r| place(r).is_some()).map_or(0, |i| i + 1);
        let mut added = Vec::new();
        for k in (1..=places).filter(|k| !have.contains(k)) {
            let new = NewPrize { kind: Kind::Place(k), name: String::new(), amount: String::new() };
            added.push((insert(conn, tid, 0, &new)?, k));
        }
        ids.splice(at..at, added.iter().map(|(id, _)| *id));
        // The places keep their slots among the specials, in place order.
        let mut number: std::collections::HashMap<i32, u32> =
            kept.iter().filter_map(|r| Some((r.id, place(r)?))).collect();
        number.extend(added.iter().copied());
        let slots: Vec<usize> = (0..ids.len()).filter(|&i| number.contains_key(&ids[i])).collect();
        let mut in_order: Vec<i32> = slots.iter().map(|&i| ids[i]).collect();
        in_order.sort_by_key(|id| number[id]);
        for (slot, id) in slots.into_iter().zip(in_order) {
            ids[slot] = id;
        }
        renumber(conn, &ids)?;
        Ok(())
    })
}

/// Names a prize and its amount (an empty name: the usual one of its kind).
#[allow(clippy::too_many_arguments)]
pub fn rename(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    version: i32,
    pid: i32,
    name: &str,
    amount: &str,
) -> Result<i32, PrizeError> {
    #[derive(Serialize)]
    struct Named<'a> {
        prize: i32,
        name: &'a str,
        amount: &'a str,
    }
    let after = Named { prize: pid, name, amount };
    edit(conn, actor, tid, version, AuditAction::PrizeRename, &after, "", |conn, _| {
        let n =
            diesel::update(prizes::table.filter(prizes::id.eq(pid)).filter(prizes::tournament_id.eq(tid)))
                .set((prizes::name.eq(name), prizes::amount.eq(amount)))
                .execute(conn)?;
        if n == 0 {
            return Err(PrizeError::Db(DbError::NotFound));
        }
        Ok(())
    })
}

/// Removes a prize.
pub fn delete(conn: &mut Conn, actor: &Actor, tid: i32, version: i32, pid: i32) -> Result<i32, PrizeError> {
    edit(conn, actor, tid, version, AuditAction::PrizeDelete, &pid, "", |conn, _| {
        let rows = list(conn, tid)?;
        if !rows.iter().any(|r| r.id == pid) {
            return Err(PrizeError::Db(DbError::NotFound));
        }
        diesel::delete(prizes::table.find(pid)).execute(conn)?;
        renumber(conn, &rows.iter().map(|r| r.id).filter(|&id| id != pid).collect::<Vec<_>>())?;
        Ok(())
    })
}

/// Moves a prize one step up the precedence list.
pub fn move_up(conn: &mut Conn, actor: &Actor, tid: i32, version: i32, pid: i32) -> Result<i32, PrizeError> {
    edit(conn, actor, tid, version, AuditAction::PrizeMove, &pid, "", |conn, _| {
        let mut ids: Vec<i32> = list(conn, tid)?.iter().map(|r| r.id).collect();
        let at = ids.iter().position(|&id| id == pid).ok_or(PrizeError::Db(DbError::NotFound))?;
        if at > 0 {
            ids.swap(at - 1, at);
        }
        renumber(conn, &ids)?;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decision D24 (prizes): the places stay in place order in their slots among the special
    /// prizes whatever the organizer sets and moves; a published list is frozen but for taking
    /// it back; a stale version is refused.
    #[test]
    fn places_keep_their_order_and_a_published_list_is_frozen() {
        let dir = tempfile::tempdir().unwrap();
        let pool = crate::open(&dir.path().join("t.db")).unwrap();
        let mut conn = pool.get().unwrap();
        let c = &mut conn;
        let a = Actor::system("test");
        let s = domain::settings::TournamentSettings::defaults(chrono::NaiveDate::MIN, crate::server_zone());
        let tid = super::super::tournaments::create(c, &a, &s).unwrap();
        let kinds = |c: &mut Conn| list(c, tid).unwrap().iter().map(PrizeRow::kind).collect::<Vec<_>>();
        let mut v = set_places(c, &a, tid, 0, 2).unwrap();
        let woman = NewPrize { kind: Kind::Woman, name: String::new(), amount: "奖杯".into() };
        v = add(c, &a, tid, v, &woman).unwrap();
        assert_eq!(kinds(c), [Kind::Place(1), Kind::Place(2), Kind::Woman]);
        let w = list(c, tid).unwrap()[2].id;
        v = move_up(c, &a, tid, v, w).unwrap();
        v = set_places(c, &a, tid, v, 4).unwrap();
        assert_eq!(kinds(c), [Kind::Place(1), Kind::Woman, Kind::Place(2), Kind::Place(3), Kind::Place(4)]);
        let second = list(c, tid).unwrap()[2].id;
        v = delete(c, &a, tid, v, second).unwrap();
        v = set_places(c, &a, tid, v, 3).unwrap();
        assert_eq!(kinds(c), [Kind::Place(1), Kind::Woman, Kind::Place(2), Kind::Place(3)]);
        assert!(
            matches!(set_places(c, &a, tid, v - 1, 5), Err(PrizeError::Stale { current }) if current == v)
        );
        v = set_published(c, &a, tid, v, true).unwrap();
        assert!(matches!(add(c, &a, tid, v, &woman), Err(PrizeError::Published)));
        assert!(matches!(set_published(c, &a, tid, v, true), Err(PrizeError::Published)));
        v = set_published(c, &a, tid, v, false).unwrap();
        v = add(c, &a, tid, v, &woman).unwrap();
        v = rename(c, &a, tid, v, w, "巾帼奖", "奖金500元").unwrap();
        let row = list(c, tid).unwrap().into_iter().find(|r| r.id == w).unwrap();
        assert_eq!((row.name.as_str(), row.amount.as_str()), ("巾帼奖", "奖金500元"));
        assert!(matches!(rename(c, &a, tid, v, 0, "", ""), Err(PrizeError::Db(DbError::NotFound))));
        let audited: i64 = crate::schema::audit::table
            .filter(crate::schema::audit::tournament_id.eq(tid))
            .filter(crate::schema::audit::entity.eq_any(["prizes", "prize_settings"]))
            .count()
            .get_result(c)
            .unwrap();
        assert_eq!(audited, 10, "every accepted write, none of the refused");
    }
}
