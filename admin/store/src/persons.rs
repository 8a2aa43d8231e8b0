//! The player registry: persons across events, their rank history, the entrants linked to
//! them, merging two persons, and a person's export and deletion on request. The rules (who
//! links to whom, which persons look alike, the search) are `domain::registry`'s.
//!
//! An entrant keeps its own name, rank and unit (what was true at its event); the person keeps
//! the history. A rank is recorded when an entrant is linked (added, accepted or imported) and
//! again when its rank is edited: one `person_ranks` row per person and event, so the row says
//! the rank the event knew last (before round 1, the only time a rank changes).

use super::audit::{self, AuditAction, Change};
use super::schema::{audit as audit_t, entrants, person_ranks, persons, registrations, tournaments};
use super::Conn;
use super::{now, Actor, DbError};
use crate::rows::EntrantRow;
use diesel::prelude::*;
use domain::registry::{self, Facts, Likeness, Link};
use serde::Serialize;

/// One person of the registry.
#[derive(Debug, Clone, Queryable, Selectable, Serialize, PartialEq, Eq)]
#[diesel(table_name = persons)]
pub struct PersonRow {
    pub id: i32,
    pub family_name_zh: String,
    pub given_name_zh: String,
    pub family_name_latin: String,
    pub given_name_latin: String,
    pub birth_date: Option<String>,
    pub sex: Option<String>,
    pub unit: String,
    pub egd_pin: String,
    pub federation_id: String,
    pub email: String,
    pub phone: String,
    pub version: i32,
    pub created_at: String,
    pub updated_at: String,
}

impl PersonRow {
    pub fn name(&self) -> domain::names::Name<'_> {
        domain::names::Name {
            family_zh: &self.family_name_zh,
            given_zh: &self.given_name_zh,
            family_latin: &self.family_name_latin,
            given_latin: &self.given_name_latin,
        }
    }
    pub fn name_zh(&self) -> String {
        format!("{}{}", self.family_name_zh, self.given_name_zh)
    }
    pub fn name_latin(&self) -> String {
        format!("{} {}", self.family_name_latin, self.given_name_latin).trim().to_string()
    }
    pub fn facts(&self) -> Facts {
        Facts {
            family_zh: self.family_name_zh.clone(),
            given_zh: self.given_name_zh.clone(),
            family_latin: self.family_name_latin.clone(),
            given_latin: self.given_name_latin.clone(),
            unit: self.unit.clone(),
            birth_date: self
                .birth_date
                .as_deref()
                .and_then(|d| chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d").ok()),
            egd_pin: self.egd_pin.clone(),
        }
    }
}

/// A rank the person held at an event (or told outside one: `tournament_id` none).
#[derive(Debug, Clone, Queryable, Selectable, Serialize, PartialEq, Eq)]
#[diesel(table_name = person_ranks)]
pub struct RankRow {
    pub id: i32,
    pub person_id: i32,
    pub rank: String,
    pub rank_value: i32,
    pub rating: Option<i32>,
    pub recorded_on: String,
    pub tournament_id: Option<i32>,
}

/// How a new entrant came to its person.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Attached {
    /// The organizer picked the person in the registry search.
    Picked,
    /// An exact match linked it ([`domain::registry::exact_match`]).
    Matched(Link),
    /// No one matched: a new person was made from the entrant.
    Created,
}

pub fn get(conn: &mut Conn, pid: i32) -> Result<PersonRow, DbError> {
    persons::table.find(pid).select(PersonRow::as_select()).first(conn).optional()?.ok_or(DbError::NotFound)
}

fn all(conn: &mut Conn) -> Result<Vec<PersonRow>, DbError> {
    Ok(persons::table.order(persons::id).select(PersonRow::as_select()).load(conn)?)
}

/// The persons `text` finds (characters, pinyin, initials; `domain::registry::search`), at
/// most `limit`, in id order.
pub fn search(conn: &mut Conn, text: &str, limit: usize) -> Result<Vec<PersonRow>, DbError> {
    let rows = all(conn)?;
    let facts: Vec<(i32, Facts)> = rows.iter().map(|p| (p.id, p.facts())).collect();
    let found = registry::search(text, &facts);
    Ok(rows.into_iter().filter(|p| found.contains(&p.id)).take(limit).collect())
}

/// The person's rank history, oldest first.
pub fn ranks(conn: &mut Conn, pid: i32) -> Result<Vec<RankRow>, DbError> {
    let mut rows: Vec<RankRow> = person_ranks::table
        .filter(person_ranks::person_id.eq(pid))
        .select(RankRow::as_select())
        .load(conn)?;
    rows.sort_by(|a, b| (&a.recorded_on, a.id).cmp(&(&b.recorded_on, b.id)));
    Ok(rows)
}

/// The entrants linked to the person, in entrant id order.
pub fn entrants_of(conn: &mut Conn, pid: i32) -> Result<Vec<EntrantRow>, DbError> {
    Ok(entrants::table
        .filter(entrants::person_id.eq(pid))
        .order(entrants::id)
        .select(EntrantRow::as_select())
        .load(conn)?)
}

/// Whether `uid` is an organizer of an event one of `pids` played in (who may see and merge
/// them besides the administrator: a person spans events).
pub fn organizes_any(conn: &mut Conn, uid: i32, pids: &[i32]) -> Result<bool, DbError> {
    use super::schema::tournament_staff as ts;
    let n: i64 = entrants::table
        .inner_join(ts::table.on(ts::tournament_id.eq(entrants::tournament_id)))
        .filter(entrants::person_id.eq_any(pids))
        .filter(ts::user_id.eq(uid))
        .filter(ts::role.eq("organizer"))
        .count()
        .get_result(conn)?;
    Ok(n > 0)
}

/// Link the entrant `eid` of `tid`, just written, to its person inside the caller's
/// transaction: the person `pick` names, else the one it matches exactly, else a new person
/// made from it; then its rank at the event is recorded.
pub(crate) fn attach(
    conn: &mut Conn,
    tid: i32,
    eid: i32,
    pick: Option<i32>,
) -> Result<(i32, Attached), DbError> {
    let e: EntrantRow = entrants::table.find(eid).select(EntrantRow::as_select()).first(conn)?;
    let (pid, how) = match pick {
        Some(pid) => (get(conn, pid)?.id, Attached::Picked),
        None => {
            let facts = e.input().map(|i| Facts::of_entrant(&i)).unwrap_or_default();
            let known: Vec<(i32, Facts)> = all(conn)?.iter().map(|p| (p.id, p.facts())).collect();
            match registry::exact_match(&facts, known.iter().map(|(id, f)| (*id, f))) {
                Some((pid, link)) => (pid, Attached::Matched(link)),
                None => (create_from(conn, &e)?, Attached::Created),
            }
        }
    };
    diesel::update(entrants::table.find(eid)).set(entrants::person_id.eq(pid)).execute(conn)?;
    record_rank(conn, pid, tid, &e)?;
    Ok((pid, how))
}

/// A new person from an entrant: its names (the pinyin derived from the Chinese name when no
/// Latin name was typed, as a registration's is), birth date, sex, unit and ids.
fn create_from(conn: &mut Conn, e: &EntrantRow) -> Result<i32, DbError> {
    let t = now();
    let (family_latin, given_latin) = match (e.family_name_latin.is_empty(), e.given_name_latin.is_empty()) {
        (true, true) => domain::names::pinyin_of_name(&e.family_name_zh, &e.given_name_zh),
        _ => (e.family_name_latin.clone(), e.given_name_latin.clone()),
    };
    Ok(diesel::insert_into(persons::table)
        .values((
            persons::family_name_zh.eq(&e.family_name_zh),
            persons::given_name_zh.eq(&e.given_name_zh),
            persons::family_name_latin.eq(family_latin),
            persons::given_name_latin.eq(given_latin),
            persons::birth_date.eq(&e.birth_date),
            persons::sex.eq(&e.sex),
            persons::unit.eq(&e.unit),
            persons::egd_pin.eq(&e.egd_pin),
            persons::federation_id.eq(&e.federation_id),
            persons::version.eq(1),
            persons::created_at.eq(&t),
            persons::updated_at.eq(&t),
        ))
        .returning(persons::id)
        .get_result(conn)?)
}

/// The entrant's rank at its event in its person's history (one row per person and event,
/// replaced when the rank is edited). Call inside the transaction that wrote the entrant.
fn record_rank(conn: &mut Conn, pid: i32, tid: i32, e: &EntrantRow) -> Result<(), DbError> {
    let on: String = tournaments::table.find(tid).select(tournaments::start_date).first(conn)?;
    diesel::delete(
        person_ranks::table
            .filter(person_ranks::person_id.eq(pid))
            .filter(person_ranks::tournament_id.eq(tid)),
    )
    .execute(conn)?;
    diesel::insert_into(person_ranks::table)
        .values((
            person_ranks::person_id.eq(pid),
            person_ranks::rank.eq(&e.rank),
            person_ranks::rank_value.eq(e.rank_value),
            person_ranks::rating.eq(e.rating),
            person_ranks::recorded_on.eq(on),
            person_ranks::tournament_id.eq(tid),
        ))
        .execute(conn)?;
    Ok(())
}

/// After an entrant's edit: its linked person's rank at the event follows it.
pub(crate) fn rank_changed(conn: &mut Conn, e: &EntrantRow) -> Result<(), DbError> {
    match e.person_id {
        Some(pid) => record_rank(conn, pid, e.tournament_id, e),
        None => Ok(()),
    }
}

/// Keep the contact a registration gave on its person, when the person has none yet (shown to
/// organizers only, never public).
pub(crate) fn keep_contact(conn: &mut Conn, pid: i32, email: &str, phone: &str) -> Result<(), DbError> {
    let p = get(conn, pid)?;
    let email = if p.email.is_empty() { email } else { &p.email };
    let phone = if p.phone.is_empty() { phone } else { &p.phone };
    diesel::update(persons::table.find(pid))
        .set((persons::email.eq(email), persons::phone.eq(phone)))
        .execute(conn)?;
    Ok(())
}

/// A pair of persons who look like one, and why.
pub struct Duplicate {
    pub a: PersonRow,
    pub b: PersonRow,
    pub why: Likeness,
}

/// The likely duplicates among the persons, the older person first in each pair; `visible`
/// chooses the persons the reader may see.
pub fn duplicates(
    conn: &mut Conn,
    visible: impl Fn(&mut Conn, i32) -> Result<bool, DbError>,
) -> Result<Vec<Duplicate>, DbError> {
    let rows = all(conn)?;
    let facts: Vec<(i32, Facts)> = rows.iter().map(|p| (p.id, p.facts())).collect();
    let mut out = Vec::new();
    for (a, b, why) in registry::likely_duplicates(&facts) {
        if !(visible(conn, a)? && visible(conn, b)?) {
            continue;
        }
        let find = |id| rows.iter().find(|p| p.id == id).cloned().ok_or(DbError::NotFound);
        out.push(Duplicate { a: find(a)?, b: find(b)?, why });
    }
    Ok(out)
}

/// Why a merge or a deletion was refused.
#[derive(Debug)]
pub enum PersonError {
    /// A person changed since the form was read.
    Stale,
    /// A person merged into themself.
    Same,
    Db(DbError),
}

db_variant!(PersonError);

/// Merge `drop` into `keep`: `drop`'s entrants and rank history move to `keep`, what `keep`
/// lacks (birth date, sex, unit, ids, contact) is taken from `drop`, and `drop` is deleted;
/// refused when either changed since the form (`versions`). Audited.
pub fn merge(
    conn: &mut Conn,
    actor: &Actor,
    keep: i32,
    drop: i32,
    versions: (i32, i32),
    reason: &str,
) -> Result<(), PersonError> {
    if keep == drop {
        return Err(PersonError::Same);
    }
    crate::write_tx(&mut *conn, |conn| {
        let (k, d) = (get(conn, keep)?, get(conn, drop)?);
        if (k.version, d.version) != versions {
            return Err(PersonError::Stale);
        }
        let or = |a: &str, b: &str| if a.trim().is_empty() { b.to_string() } else { a.to_string() };
        diesel::update(persons::table.find(keep))
            .set((
                persons::birth_date.eq(k.birth_date.clone().or(d.birth_date.clone())),
                persons::sex.eq(k.sex.clone().or(d.sex.clone())),
                persons::unit.eq(or(&k.unit, &d.unit)),
                persons::egd_pin.eq(or(&k.egd_pin, &d.egd_pin)),
                persons::federation_id.eq(or(&k.federation_id, &d.federation_id)),
                persons::email.eq(or(&k.email, &d.email)),
                persons::phone.eq(or(&k.phone, &d.phone)),
                persons::version.eq(k.version + 1),
                persons::updated_at.eq(now()),
            ))
            .execute(conn)?;
        diesel::update(entrants::table.filter(entrants::person_id.eq(drop)))
            .set(entrants::person_id.eq(keep))
            .execute(conn)?;
        diesel::update(person_ranks::table.filter(person_ranks::person_id.eq(drop)))
            .set(person_ranks::person_id.eq(keep))
            .execute(conn)?;
        diesel::delete(persons::table.find(drop)).execute(conn)?;
        let after = get(conn, keep)?;
        audit::record(
            conn,
            actor,
            Change {
                tournament_id: None,
                action: AuditAction::PersonMerge,
                entity_id: Some(keep),
                before: Some(&Audited::of(&d)),
                after: Some(&Audited::of(&after)),
                reason,
            },
        )?;
        Ok(())
    })
}

/// A person's own details as an organizer corrects them (checked by the caller: names, dates
/// and ids by the entrant's rules, `domain::entrant`).
#[derive(Debug, Clone, Default)]
pub struct PersonEdit {
    pub family_name_zh: String,
    pub given_name_zh: String,
    pub family_name_latin: String,
    pub given_name_latin: String,
    pub birth_date: Option<String>,
    pub sex: Option<String>,
    pub unit: String,
    pub egd_pin: String,
    pub federation_id: String,
    pub email: String,
    pub phone: String,
}

/// Correct person `pid`'s details, refused when it changed since the form (`version`).
/// Audited (names only). Each event's entrant keeps what was entered there.
pub fn edit(
    conn: &mut Conn,
    actor: &Actor,
    pid: i32,
    version: i32,
    e: &PersonEdit,
    reason: &str,
) -> Result<(), PersonError> {
    crate::write_tx(&mut *conn, |conn| {
        let before = get(conn, pid)?;
        if before.version != version {
            return Err(PersonError::Stale);
        }
        diesel::update(persons::table.find(pid))
            .set((
                persons::family_name_zh.eq(&e.family_name_zh),
                persons::given_name_zh.eq(&e.given_name_zh),
                persons::family_name_latin.eq(&e.family_name_latin),
                persons::given_name_latin.eq(&e.given_name_latin),
                persons::birth_date.eq(&e.birth_date),
                persons::sex.eq(&e.sex),
                persons::unit.eq(&e.unit),
                persons::egd_pin.eq(&e.egd_pin),
                persons::federation_id.eq(&e.federation_id),
                persons::email.eq(&e.email),
                persons::phone.eq(&e.phone),
                persons::version.eq(version + 1),
                persons::updated_at.eq(now()),
            ))
            .execute(conn)?;
        let after = get(conn, pid)?;
        audit::record(
            conn,
            actor,
            Change {
                tournament_id: None,
                action: AuditAction::PersonEdit,
                entity_id: Some(pid),
                before: Some(&Audited::of(&before)),
                after: Some(&Audited::of(&after)),
                reason,
            },
        )?;
        Ok(())
    })
}

/// What the audit keeps of a person: the id and the name, never the birth date or contact.
#[derive(Serialize)]
struct Audited {
    id: i32,
    name_zh: String,
    name_latin: String,
}

impl Audited {
    fn of(p: &PersonRow) -> Audited {
        Audited { id: p.id, name_zh: p.name_zh(), name_latin: p.name_latin() }
    }
}

/// One registration of the person's, as stored (its entrant as typed, its contact).
#[derive(Debug, Clone, Queryable, Serialize)]
pub struct RegistrationRecord {
    pub id: i32,
    pub tournament_id: i32,
    pub reference: String,
    pub state: String,
    pub entrant: String,
    pub phone: String,
    pub email: String,
    pub message: String,
    pub created_at: String,
}

/// Everything stored about a person: the person, the rank history, their entrants and the
/// registrations that became those entrants.
#[derive(Debug, Clone, Serialize)]
pub struct Export {
    pub person: PersonRow,
    pub ranks: Vec<RankRow>,
    pub entrants: Vec<EntrantRow>,
    pub registrations: Vec<RegistrationRecord>,
}

fn registrations_of(conn: &mut Conn, eids: &[i32]) -> Result<Vec<RegistrationRecord>, DbError> {
    Ok(registrations::table
        .filter(registrations::entrant_id.eq_any(eids))
        .order(registrations::id)
        .select((
            registrations::id,
            registrations::tournament_id,
            registrations::reference,
            registrations::state,
            registrations::entrant,
            registrations::phone,
            registrations::email,
            registrations::message,
            registrations::created_at,
        ))
        .load(conn)?)
}

pub fn export(conn: &mut Conn, pid: i32) -> Result<Export, DbError> {
    let person = get(conn, pid)?;
    let entrants = entrants_of(conn, pid)?;
    let eids: Vec<i32> = entrants.iter().map(|e| e.id).collect();
    Ok(Export { person, ranks: ranks(conn, pid)?, registrations: registrations_of(conn, &eids)?, entrants })
}

/// What an entrant's record says about a person besides the name, rank and unit the results
/// need: cleared from entrants, their registrations and the audit rows that copied them.
const PERSONAL: &[&str] =
    &["birth_date", "sex", "notes", "region", "email", "phone", "contact", "input", "entrant"];

/// Delete a person on request (the GDPR's right to erasure): the person row, its rank history and contact
/// go; past events keep each entrant with its name, rank and unit only (birth date, sex,
/// region, notes cleared), their registrations lose the entrant as typed and the contact, and
/// the audit rows that copied those values lose them too. Refused when stale. Audited (the
/// audit keeps the id only).
pub fn erase(
    conn: &mut Conn,
    actor: &Actor,
    pid: i32,
    version: i32,
    reason: &str,
) -> Result<(), PersonError> {
    crate::write_tx(&mut *conn, |conn| {
        let p = get(conn, pid)?;
        if p.version != version {
            return Err(PersonError::Stale);
        }
        let es = entrants_of(conn, pid)?;
        let eids: Vec<i32> = es.iter().map(|e| e.id).collect();
        let rids: Vec<i32> = registrations_of(conn, &eids)?.iter().map(|r| r.id).collect();
        diesel::update(entrants::table.filter(entrants::id.eq_any(&eids)))
            .set((
                entrants::birth_date.eq(None::<String>),
                entrants::sex.eq(None::<String>),
                entrants::notes.eq(""),
                entrants::region.eq(""),
                entrants::person_id.eq(None::<i32>),
                entrants::version.eq(entrants::version + 1),
                entrants::updated_at.eq(now()),
            ))
            .execute(conn)?;
        diesel::update(registrations::table.filter(registrations::id.eq_any(&rids)))
            .set((registrations::entrant.eq("{}"), registrations::phone.eq(""), registrations::email.eq("")))
            .execute(conn)?;
        scrub_audit(conn, "entrant", &eids)?;
        scrub_audit(conn, "registration", &rids)?;
        diesel::delete(persons::table.find(pid)).execute(conn)?;
        #[derive(Serialize)]
        struct Erased {
            id: i32,
        }
        audit::record::<(), _>(
            conn,
            actor,
            Change {
                tournament_id: None,
                action: AuditAction::PersonErase,
                entity_id: Some(pid),
                before: None,
                after: Some(&Erased { id: pid }),
                reason,
            },
        )?;
        // Every event the person played in shows changed pages.
        let mut tids: Vec<i32> = es.iter().map(|e| e.tournament_id).collect();
        tids.sort_unstable();
        tids.dedup();
        for tid in tids {
            audit::touch(conn, tid)?;
        }
        Ok(())
    })
}

/// Remove [`PERSONAL`] values from the audit rows about `ids` of `entity`.
fn scrub_audit(conn: &mut Conn, entity: &str, ids: &[i32]) -> Result<(), DbError> {
    let rows: Vec<(i32, Option<String>, Option<String>)> = audit_t::table
        .filter(audit_t::entity.eq(entity))
        .filter(audit_t::entity_id.eq_any(ids))
        .select((audit_t::id, audit_t::before, audit_t::after))
        .load(conn)?;
    for (id, before, after) in rows {
        diesel::update(audit_t::table.find(id))
            .set((audit_t::before.eq(before.map(|b| scrub(&b))), audit_t::after.eq(after.map(|a| scrub(&a)))))
            .execute(conn)?;
    }
    Ok(())
}

fn scrub(json: &str) -> String {
    fn walk(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(m) => {
                m.retain(|k, _| !PERSONAL.contains(&k.as_str()));
                m.values_mut().for_each(walk);
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(walk),
            _ => {}
        }
    }
    match serde_json::from_str::<serde_json::Value>(json) {
        Ok(mut v) => {
            walk(&mut v);
            v.to_string()
        }
        Err(_) => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The GDPR's right to erasure as the registry applies it: the audit's copy of an entrant keeps
    /// the name, rank and unit, and loses the birth date, sex, notes and contact.
    #[test]
    fn scrub_keeps_the_name_only() {
        let j = r#"{"id":3,"family_name_zh":"王","birth_date":"2001-05-06","sex":"m","notes":"x","rank":"3d","unit":"U","contact":{"phone":"1"}}"#;
        let v: serde_json::Value = serde_json::from_str(&scrub(j)).unwrap();
        assert_eq!(v["family_name_zh"], "王");
        assert_eq!(v["rank"], "3d");
        for k in ["birth_date", "sex", "notes", "contact"] {
            assert!(v.get(k).is_none(), "{k}");
        }
    }
}
