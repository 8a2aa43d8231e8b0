//! Online registration (网上报名) of an event: its settings (one versioned row per event), the
//! registrations sent through the public form, the organizer's decisions on them (accept makes
//! the entrant in its group, reject with a reason, ask for a change with a message), and the
//! duplicates flagged against the event's entrants and its other registrations. Every decision
//! is `domain::registration`'s; every write carries its audit row, in the group's trail.

use super::audit::{self, AuditAction, Change};
use super::entrants::{self, EntrantRow};
use super::schema::{entrants as entrants_t, registration_settings, registrations};
use super::{events, now, Actor, Conn, DbError};
use chrono::{DateTime, Utc};
use diesel::prelude::*;
use domain::duplicates::{Identity, Match};
use domain::entrant::{EntrantInput, EntrantStatus};
use domain::event_time;
use domain::registration::{self as reg, Fields, GroupRule, Refusal, State};
use serde::Serialize;
use std::collections::BTreeMap;

/// An event's registration settings. `version` 0: never written (closed, nothing asked, the
/// default retention).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Settings {
    pub version: i32,
    pub open: bool,
    /// The deadline as stored (UTC, `event_time::stored`); `None`: none.
    pub deadline: Option<String>,
    pub fields: Fields,
    /// Each group's part, by the group's tournament id; a group not named takes none.
    pub groups: BTreeMap<i32, GroupRule>,
    /// Days the registrations are kept after the event's last day (`reg::purge_due`).
    pub retention_days: u32,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            version: 0,
            open: false,
            deadline: None,
            fields: Fields::default(),
            groups: BTreeMap::new(),
            retention_days: reg::DEFAULT_RETENTION_DAYS,
        }
    }
}

impl Settings {
    pub fn rule(&self, tid: i32) -> GroupRule {
        self.groups.get(&tid).copied().unwrap_or_default()
    }

    pub fn deadline_at(&self) -> Option<DateTime<Utc>> {
        self.deadline.as_deref().and_then(event_time::parse_stored)
    }

    /// Whether the form takes registrations at `now` (open and before the deadline).
    pub fn accepting(&self, now: DateTime<Utc>) -> Result<(), Refusal> {
        reg::admit(self.open, self.deadline_at(), now, GroupRule { takes: true, cap: None }, 0)
    }
}

/// The settings of `event_id` (the defaults when never written).
pub fn settings(conn: &mut Conn, event_id: i32) -> Result<Settings, DbError> {
    let row: Option<(i32, bool, Option<String>, String, String, i32)> = registration_settings::table
        .find(event_id)
        .select((
            registration_settings::version,
            registration_settings::is_open,
            registration_settings::deadline,
            registration_settings::fields,
            registration_settings::group_rules,
            registration_settings::retention_days,
        ))
        .first(conn)
        .optional()?;
    Ok(match row {
        None => Settings::default(),
        Some((version, open, deadline, fields, groups, retention)) => Settings {
            version,
            open,
            deadline,
            fields: serde_json::from_str(&fields).unwrap_or_default(),
            groups: serde_json::from_str(&groups).unwrap_or_default(),
            retention_days: u32::try_from(retention).unwrap_or(reg::DEFAULT_RETENTION_DAYS),
        },
    })
}

/// The event of group `tid`, and whether its registration form is open (the group's pages
/// link it).
pub fn link_of(conn: &mut Conn, tid: i32) -> Result<(i32, bool), DbError> {
    let event_id = events::event_of(conn, tid)?;
    Ok((event_id, settings(conn, event_id)?.open))
}

/// Why a registration write was refused.
#[derive(Debug)]
pub enum RegError {
    Refused(Refusal),
    /// Written meanwhile by someone else (the version read is not the current one).
    Stale,
    /// The registration is no longer waiting (decided already), or may not be sent again.
    NotWaiting,
    /// The group named is not a group of the event.
    NoGroup,
    Db(DbError),
}

db_variant!(RegError);

/// Write the settings read at `version` (stale refused), audited in every group's trail.
pub fn set_settings(
    conn: &mut Conn,
    actor: &Actor,
    event_id: i32,
    version: i32,
    new: &Settings,
) -> Result<(), RegError> {
    crate::write_tx(&mut *conn, |conn| {
        let before = settings(conn, event_id)?;
        if before.version != version {
            return Err(RegError::Stale);
        }
        let group_ids: Vec<i32> = events::groups(conn, event_id)?.iter().map(|g| g.id()).collect();
        let groups: BTreeMap<i32, GroupRule> =
            new.groups.iter().filter(|(t, _)| group_ids.contains(t)).map(|(t, r)| (*t, *r)).collect();
        let fields = serde_json::to_string(&new.fields).unwrap_or_default();
        let rules = serde_json::to_string(&groups).unwrap_or_default();
        let values = (
            registration_settings::version.eq(version + 1),
            registration_settings::is_open.eq(new.open),
            registration_settings::deadline.eq(new.deadline.clone()),
            registration_settings::fields.eq(&fields),
            registration_settings::group_rules.eq(&rules),
            registration_settings::retention_days.eq(i32::try_from(new.retention_days).unwrap_or(i32::MAX)),
            registration_settings::updated_at.eq(now()),
        );
        if version == 0 {
            diesel::insert_into(registration_settings::table)
                .values((registration_settings::event_id.eq(event_id), values))
                .execute(conn)?;
        } else {
            diesel::update(registration_settings::table.find(event_id)).set(values).execute(conn)?;
        }
        let after = Settings { version: version + 1, groups, ..new.clone() };
        // In every group's trail: each group's public page links the form while it is open.
        let change = Change {
            tournament_id: None,
            action: AuditAction::RegistrationSettings,
            entity_id: Some(event_id),
            before: Some(&before),
            after: Some(&after),
            reason: "",
        };
        audit::record_each(conn, actor, &group_ids, change)?;
        Ok(())
    })
}

/// A phone number and an e-mail address, shown to the event's organizers only.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Contact {
    pub phone: String,
    pub email: String,
}

/// One registration.
#[derive(Debug, Clone, Serialize)]
pub struct Registration {
    pub id: i32,
    pub event_id: i32,
    pub tournament_id: i32,
    pub reference: String,
    pub state: State,
    pub version: i32,
    pub input: EntrantInput,
    pub contact: Contact,
    /// The organizer's reason (rejected) or the change asked for.
    pub message: String,
    pub entrant_id: Option<i32>,
    pub created_at: String,
}

/// What the audit keeps of a registration: never its contact.
#[derive(Serialize)]
struct Audited<'a> {
    reference: &'a str,
    group: i32,
    state: &'static str,
    entrant: &'a EntrantInput,
    message: &'a str,
}

impl Registration {
    fn audited(&self) -> Audited<'_> {
        Audited {
            reference: &self.reference,
            group: self.tournament_id,
            state: self.state.code(),
            entrant: &self.input,
            message: &self.message,
        }
    }
}

type Row = (i32, i32, i32, String, String, i32, String, String, String, String, Option<i32>, String);

fn row_cols() -> (
    registrations::id,
    registrations::event_id,
    registrations::tournament_id,
    registrations::reference,
    registrations::state,
    registrations::version,
    registrations::entrant,
    registrations::phone,
    registrations::email,
    registrations::message,
    registrations::entrant_id,
    registrations::created_at,
) {
    (
        registrations::id,
        registrations::event_id,
        registrations::tournament_id,
        registrations::reference,
        registrations::state,
        registrations::version,
        registrations::entrant,
        registrations::phone,
        registrations::email,
        registrations::message,
        registrations::entrant_id,
        registrations::created_at,
    )
}

fn of_row(r: Row) -> Result<Registration, DbError> {
    let (
        id,
        event_id,
        tournament_id,
        reference,
        state,
        version,
        entrant,
        phone,
        email,
        message,
        entrant_id,
        at,
    ) = r;
    Ok(Registration {
        id,
        event_id,
        tournament_id,
        reference,
        state: State::parse(&state).ok_or_else(|| DbError::Other(format!("registration state {state:?}")))?,
        version,
        input: serde_json::from_str(&entrant)
            .map_err(|e| DbError::Other(format!("registration {id}: {e}")))?,
        contact: Contact { phone, email },
        message,
        entrant_id,
        created_at: at,
    })
}

/// The registrations of `event_id`, oldest first.
pub fn list(conn: &mut Conn, event_id: i32) -> Result<Vec<Registration>, DbError> {
    let rows: Vec<Row> = registrations::table
        .filter(registrations::event_id.eq(event_id))
        .order(registrations::id.asc())
        .select(row_cols())
        .load(conn)?;
    rows.into_iter().map(of_row).collect()
}

/// One registration of `event_id` by id.
pub fn get(conn: &mut Conn, event_id: i32, rid: i32) -> Result<Registration, DbError> {
    let row: Row = registrations::table
        .filter(registrations::event_id.eq(event_id).and(registrations::id.eq(rid)))
        .select(row_cols())
        .first(conn)
        .optional()?
        .ok_or(DbError::NotFound)?;
    of_row(row)
}

/// One registration of `event_id` by its reference.
pub fn by_reference(conn: &mut Conn, event_id: i32, reference: &str) -> Result<Registration, DbError> {
    let row: Row = registrations::table
        .filter(registrations::event_id.eq(event_id).and(registrations::reference.eq(reference)))
        .select(row_cols())
        .first(conn)
        .optional()?
        .ok_or(DbError::NotFound)?;
    of_row(row)
}

/// The places `tid` holds under its cap: its entrants and its waiting registrations (but
/// `except`, a registration sent again, which holds its own place).
pub fn taken(conn: &mut Conn, tid: i32, except: Option<i32>) -> Result<u32, DbError> {
    let entrants: i64 =
        entrants_t::table.filter(entrants_t::tournament_id.eq(tid)).count().get_result(conn)?;
    let waiting: i64 = registrations::table
        .filter(registrations::tournament_id.eq(tid))
        .filter(registrations::state.eq_any([State::Pending.code(), State::Change.code()]))
        .filter(registrations::id.ne(except.unwrap_or(0)))
        .count()
        .get_result(conn)?;
    Ok(u32::try_from(entrants + waiting).unwrap_or(u32::MAX))
}

/// The registrant of the public form (the audit's actor).
fn registrant() -> Actor {
    Actor::system("registration")
}

/// Check a registration for group `tid` of `event_id` at `now` (inside the write).
fn admit(
    conn: &mut Conn,
    event_id: i32,
    tid: i32,
    now: DateTime<Utc>,
    except: Option<i32>,
) -> Result<(), RegError> {
    if events::event_of(conn, tid).ok() != Some(event_id) {
        return Err(RegError::NoGroup);
    }
    let s = settings(conn, event_id)?;
    let taken = taken(conn, tid, except)?;
    reg::admit(s.open, s.deadline_at(), now, s.rule(tid), taken).map_err(RegError::Refused)
}

/// Record a registration from the public form for group `tid`: refused when closed, late, the
/// group takes none or is full (checked in the same transaction as the insert). `reference`
/// draws a new reference (drawn again while one is taken).
pub fn submit(
    conn: &mut Conn,
    event_id: i32,
    tid: i32,
    input: &EntrantInput,
    contact: &Contact,
    now: DateTime<Utc>,
    mut reference: impl FnMut() -> String,
) -> Result<Registration, RegError> {
    crate::write_tx(&mut *conn, |conn| {
        admit(conn, event_id, tid, now, None)?;
        let code = loop {
            let r = reference();
            let used: i64 =
                registrations::table.filter(registrations::reference.eq(&r)).count().get_result(conn)?;
            if used == 0 {
                break r;
            }
        };
        let t = super::now();
        let rid: i32 = diesel::insert_into(registrations::table)
            .values((
                registrations::event_id.eq(event_id),
                registrations::tournament_id.eq(tid),
                registrations::reference.eq(&code),
                registrations::state.eq(State::Pending.code()),
                registrations::entrant.eq(serde_json::to_string(input).unwrap_or_default()),
                registrations::phone.eq(&contact.phone),
                registrations::email.eq(&contact.email),
                registrations::created_at.eq(&t),
                registrations::updated_at.eq(&t),
            ))
            .returning(registrations::id)
            .get_result(conn)?;
        let after = get(conn, event_id, rid)?;
        audit::record::<(), _>(
            conn,
            &registrant(),
            Change {
                tournament_id: Some(tid),
                action: AuditAction::RegistrationSubmit,
                entity_id: Some(rid),
                before: None,
                after: Some(&after.audited()),
                reason: "",
            },
        )?;
        Ok(after)
    })
}

/// Send a registration asked to change again (from its status page), for group `tid`: back to
/// pending, its message cleared; refused unless a change was asked, or when the form no longer
/// takes registrations or the group (another than before) is full.
pub fn resubmit(
    conn: &mut Conn,
    event_id: i32,
    reference: &str,
    tid: i32,
    input: &EntrantInput,
    contact: &Contact,
    now: DateTime<Utc>,
) -> Result<(), RegError> {
    crate::write_tx(&mut *conn, |conn| {
        let before = by_reference(conn, event_id, reference)?;
        if !before.state.may_resubmit() {
            return Err(RegError::NotWaiting);
        }
        admit(conn, event_id, tid, now, Some(before.id))?;
        diesel::update(registrations::table.find(before.id))
            .set((
                registrations::tournament_id.eq(tid),
                registrations::state.eq(State::Pending.code()),
                registrations::version.eq(before.version + 1),
                registrations::entrant.eq(serde_json::to_string(input).unwrap_or_default()),
                registrations::phone.eq(&contact.phone),
                registrations::email.eq(&contact.email),
                registrations::message.eq(""),
                registrations::updated_at.eq(super::now()),
            ))
            .execute(conn)?;
        let after = get(conn, event_id, before.id)?;
        audit::record(
            conn,
            &registrant(),
            Change {
                tournament_id: Some(tid),
                action: AuditAction::RegistrationResubmit,
                entity_id: Some(before.id),
                before: Some(&before.audited()),
                after: Some(&after.audited()),
                reason: "",
            },
        )?;
        Ok(())
    })
}

/// The organizer's decision on a waiting registration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// Make the entrant in the registration's group.
    Accept,
    /// Refuse it, with the reason the registrant reads.
    Reject(String),
    /// Ask for a change, with the message the registrant reads.
    Change(String),
}

/// Decide the registration `rid` of `event_id` read at `version` (stale refused; one decided
/// already refused). Accepting creates the entrant in its group (its own audit row there),
/// links it, and returns its id.
pub fn decide(
    conn: &mut Conn,
    actor: &Actor,
    event_id: i32,
    rid: i32,
    version: i32,
    decision: &Decision,
) -> Result<Option<i32>, RegError> {
    crate::write_tx(&mut *conn, |conn| {
        let before = get(conn, event_id, rid)?;
        if before.version != version {
            return Err(RegError::Stale);
        }
        if !before.state.waiting() {
            return Err(RegError::NotWaiting);
        }
        let tid = before.tournament_id;
        let (state, message, action, entrant) = match decision {
            Decision::Accept => {
                let (eid, _) = entrants::insert_one(
                    conn,
                    actor,
                    tid,
                    &before.input,
                    EntrantStatus::Active,
                    &before.reference,
                    None,
                )?;
                // The registry's person keeps the contact the registration gave (never public).
                if let Some(pid) = entrants::get(conn, tid, eid)?.person_id {
                    crate::persons::keep_contact(conn, pid, &before.contact.email, &before.contact.phone)?;
                }
                (State::Accepted, String::new(), AuditAction::RegistrationAccept, Some(eid))
            }
            Decision::Reject(why) => (State::Rejected, why.clone(), AuditAction::RegistrationReject, None),
            Decision::Change(what) => (State::Change, what.clone(), AuditAction::RegistrationChange, None),
        };
        diesel::update(registrations::table.find(rid))
            .set((
                registrations::state.eq(state.code()),
                registrations::version.eq(version + 1),
                registrations::message.eq(&message),
                registrations::entrant_id.eq(entrant),
                registrations::updated_at.eq(now()),
            ))
            .execute(conn)?;
        let after = get(conn, event_id, rid)?;
        audit::record(
            conn,
            actor,
            Change {
                tournament_id: Some(tid),
                action,
                entity_id: Some(rid),
                before: Some(&before.audited()),
                after: Some(&after.audited()),
                reason: &message,
            },
        )?;
        Ok(entrant)
    })
}

/// Whom a registration probably duplicates.
#[derive(Debug, Clone)]
pub enum Duplicate {
    /// An entrant of a group of the event.
    Entrant(Box<EntrantRow>, Match),
    /// Another registration of the event (waiting, or asked to change), by its id.
    Registration(i32, Match),
}

/// For every waiting registration of `regs`, the entrants of the event's groups and the other
/// waiting registrations it probably duplicates (`domain::duplicates`), by registration id.
pub fn duplicates(
    conn: &mut Conn,
    event_id: i32,
    regs: &[Registration],
) -> Result<BTreeMap<i32, Vec<Duplicate>>, DbError> {
    let mut known: Vec<(EntrantRow, Identity)> = Vec::new();
    for g in events::groups(conn, event_id)? {
        known.extend(entrants::identities(conn, g.id())?);
    }
    let waiting: Vec<(i32, Identity)> =
        regs.iter().filter(|r| r.state.waiting()).map(|r| (r.id, Identity::of(&r.input))).collect();
    let mut out = BTreeMap::new();
    for r in regs.iter().filter(|r| r.state.waiting()) {
        let me = Identity::of(&r.input);
        let mut found: Vec<Duplicate> = known
            .iter()
            .filter_map(|(e, i)| me.matches(i).map(|m| Duplicate::Entrant(Box::new(e.clone()), m)))
            .collect();
        found.extend(
            waiting
                .iter()
                .filter(|(id, _)| *id != r.id)
                .filter_map(|(id, i)| me.matches(i).map(|m| Duplicate::Registration(*id, m))),
        );
        if !found.is_empty() {
            out.insert(r.id, found);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use domain::entrant::Rank;
    use domain::registration::Ask;

    fn person(family: &str, given: &str, unit: &str) -> EntrantInput {
        let mut e = EntrantInput::new(Rank::Dan(2));
        (e.family_name_zh, e.given_name_zh, e.unit) = (family.into(), given.into(), unit.into());
        e
    }

    /// Decision D26 (网上报名): the cap counts entrants and waiting registrations; a
    /// registration asked to change is sent again and holds its own place; accepting makes the
    /// entrant in the group and links it; a stale or second decision is refused; a closed or
    /// late form refuses; the audit keeps no contact.
    #[test]
    fn caps_changes_and_decisions() {
        let dir = tempfile::tempdir().unwrap();
        let pool = crate::open(&dir.path().join("t.db")).unwrap();
        let mut conn = pool.get().unwrap();
        let c = &mut conn;
        let a = Actor::system("test");
        let s = domain::settings::TournamentSettings::defaults(chrono::NaiveDate::MIN, crate::server_zone());
        let tid = super::super::tournaments::create(c, &a, &s).unwrap();
        let event = events::event_of(c, tid).unwrap();
        let now = Utc::now();
        let mut n = 0u64;
        let mut next = || {
            n += 1;
            reg::reference_of(n)
        };
        let contact = Contact { phone: "13800138000".into(), email: String::new() };
        let closed = submit(c, event, tid, &person("李", "雷", ""), &contact, now, &mut next);
        assert!(matches!(closed, Err(RegError::Refused(Refusal::Closed))));

        let mut st = Settings { open: true, ..Settings::default() };
        st.fields.contact = Ask::Required;
        st.groups.insert(tid, GroupRule { takes: true, cap: Some(2) });
        set_settings(c, &a, event, 0, &st).unwrap();
        assert!(matches!(set_settings(c, &a, event, 0, &st), Err(RegError::Stale)));
        entrants::create(c, &a, tid, &person("王", "伟", "北京棋院"), false, None).unwrap();
        let li = submit(c, event, tid, &person("李", "雷", ""), &contact, now, &mut next).unwrap();
        let full = submit(c, event, tid, &person("张", "伟", ""), &contact, now, &mut next);
        assert!(matches!(full, Err(RegError::Refused(Refusal::Full))), "one entrant and one waiting");
        assert_eq!(taken(c, tid, None).unwrap(), 2);

        decide(c, &a, event, li.id, 1, &Decision::Change("请补充单位".into())).unwrap();
        assert!(matches!(decide(c, &a, event, li.id, 1, &Decision::Accept), Err(RegError::Stale)));
        resubmit(c, event, &li.reference, tid, &person("李", "雷", "上海棋社"), &contact, now).unwrap();
        let again = by_reference(c, event, &li.reference).unwrap();
        assert_eq!(
            (again.state, again.input.unit.as_str(), again.message.as_str()),
            (State::Pending, "上海棋社", "")
        );
        let not_asked = resubmit(c, event, &li.reference, tid, &person("李", "雷", ""), &contact, now);
        assert!(matches!(not_asked, Err(RegError::NotWaiting)));

        let eid = decide(c, &a, event, li.id, again.version, &Decision::Accept).unwrap().unwrap();
        let e = entrants::get(c, tid, eid).unwrap();
        assert_eq!((e.family_name_zh.as_str(), e.unit.as_str()), ("李", "上海棋社"));
        assert_eq!(get(c, event, li.id).unwrap().entrant_id, Some(eid));
        let twice = decide(c, &a, event, li.id, again.version + 1, &Decision::Accept);
        assert!(matches!(twice, Err(RegError::NotWaiting)));
        assert_eq!(taken(c, tid, None).unwrap(), 2, "the accepted is counted once, as an entrant");

        st.deadline = Some(event_time::stored(now - chrono::Duration::hours(1)));
        st.groups.insert(tid, GroupRule { takes: true, cap: None });
        set_settings(c, &a, event, 1, &st).unwrap();
        let late = submit(c, event, tid, &person("赵", "云", ""), &contact, now, &mut next);
        assert!(matches!(late, Err(RegError::Refused(Refusal::Late))));

        let trail: Vec<String> = audit::for_tournament(c, tid, 100)
            .unwrap()
            .into_iter()
            .flat_map(|r| [r.before.unwrap_or_default(), r.after.unwrap_or_default()])
            .collect();
        assert!(trail.iter().any(|t| t.contains(&li.reference)));
        assert!(!trail.iter().any(|t| t.contains("13800138000")), "the audit keeps no contact");
    }

    /// Decision D26 (网上报名): a waiting registration is flagged against the event's
    /// entrants and its other waiting registrations (`domain::duplicates`).
    #[test]
    fn duplicates_are_flagged_against_entrants_and_registrations() {
        let dir = tempfile::tempdir().unwrap();
        let pool = crate::open(&dir.path().join("t.db")).unwrap();
        let mut conn = pool.get().unwrap();
        let c = &mut conn;
        let a = Actor::system("test");
        let s = domain::settings::TournamentSettings::defaults(chrono::NaiveDate::MIN, crate::server_zone());
        let tid = super::super::tournaments::create(c, &a, &s).unwrap();
        let event = events::event_of(c, tid).unwrap();
        let mut st = Settings { open: true, ..Settings::default() };
        st.groups.insert(tid, GroupRule { takes: true, cap: None });
        set_settings(c, &a, event, 0, &st).unwrap();
        entrants::create(c, &a, tid, &person("王", "伟", "北京棋院"), false, None).unwrap();
        let mut n = 0u64;
        let mut next = || {
            n += 1;
            reg::reference_of(n)
        };
        let none = Contact::default();
        let now = Utc::now();
        let w = submit(c, event, tid, &person("王", "伟", "北京棋院"), &none, now, &mut next).unwrap();
        let z1 = submit(c, event, tid, &person("赵", "云", "常山"), &none, now, &mut next).unwrap();
        let z2 = submit(c, event, tid, &person("赵", "云", "常山"), &none, now, &mut next).unwrap();
        let other = submit(c, event, tid, &person("赵", "云", "成都"), &none, now, &mut next).unwrap();
        let regs = list(c, event).unwrap();
        let d = duplicates(c, event, &regs).unwrap();
        assert!(matches!(d[&w.id][..], [Duplicate::Entrant(_, Match::Unit)]));
        assert!(matches!(d[&z1.id][..], [Duplicate::Registration(id, Match::Unit)] if id == z2.id));
        assert!(!d.contains_key(&other.id), "another unit, no birth date: another person");
    }
}

/// What a purge deleted in one event (the audit row's `after`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Purged {
    pub event_id: i32,
    pub registrations: usize,
}

/// Delete the registrations of every event kept past its retention on `today` (the caller
/// reads the clock; `reg::purge_due` decides): the registrations and their contact data go,
/// an accepted registration's entrant stays in its group. One transaction per event, with an
/// audit row counting them in each group's trail. Events with nothing to delete are left
/// untouched.
pub fn purge_expired(
    conn: &mut Conn,
    actor: &Actor,
    today: chrono::NaiveDate,
) -> Result<Vec<Purged>, DbError> {
    let mut events: Vec<i32> = registrations::table.select(registrations::event_id).distinct().load(conn)?;
    events.sort_unstable();
    let mut out = Vec::new();
    for event_id in events {
        let done = crate::write_tx(&mut *conn, |conn| {
            let groups = events::groups(conn, event_id)?;
            let Some(end) = groups.iter().map(|g| g.t.settings().end_date).max() else {
                return Ok::<_, DbError>(None);
            };
            if !reg::purge_due(end, settings(conn, event_id)?.retention_days, today) {
                return Ok(None);
            }
            let n = diesel::delete(registrations::table.filter(registrations::event_id.eq(event_id)))
                .execute(conn)?;
            let purged = Purged { event_id, registrations: n };
            let ids: Vec<i32> = groups.iter().map(|g| g.id()).collect();
            let change: Change<'_, (), Purged> = Change {
                tournament_id: None,
                action: AuditAction::RegistrationsPurge,
                entity_id: Some(event_id),
                before: None,
                after: Some(&purged),
                reason: "",
            };
            audit::record_each(conn, actor, &ids, change)?;
            Ok(Some(purged))
        })?;
        out.extend(done.filter(|p| p.registrations > 0));
    }
    Ok(out)
}
