//! Tournaments with their settings, staff and rounds.

use super::audit::{self, AuditAction, Change};
use super::schema::{entrants, event_groups, events, games, rounds, tournament_staff, tournaments, users};
use super::users::Role;
use super::Conn;
use super::{now, Actor, DbError};
use diesel::prelude::*;
use domain::event_time::{date_text, parse_date, EventZone};
use domain::settings::*;
use serde::Serialize;

#[derive(Debug, Clone, Queryable, Selectable, Serialize)]
#[diesel(table_name = tournaments)]
pub struct TournamentRow {
    pub id: i32,
    pub name_zh: String,
    pub name_latin: String,
    pub venue: String,
    pub start_date: String,
    pub end_date: String,
    pub system: String,
    pub rounds: i32,
    pub ruleset: String,
    pub points_scale: String,
    pub tiebreaks: String,
    pub colour_method: String,
    pub lateness: String,
    pub bye_value: String,
    pub bye_sos: String,
    pub same_unit: String,
    pub time_control: String,
    pub version: i32,
    pub created_at: String,
    pub updated_at: String,
    pub double_loss: String,
    pub late_entry: String,
    pub forfeit_sos: String,
    pub lots_seed: i64,
    pub pairing_rules: String,
    pub name_order: String,
    pub time_zone: String,
}

#[derive(Insertable, AsChangeset)]
#[diesel(table_name = tournaments)]
struct SettingsRow {
    name_zh: String,
    name_latin: String,
    venue: String,
    start_date: String,
    end_date: String,
    system: String,
    rounds: i32,
    ruleset: String,
    points_scale: String,
    tiebreaks: String,
    colour_method: String,
    lateness: String,
    bye_value: String,
    bye_sos: String,
    same_unit: String,
    time_control: String,
    double_loss: String,
    late_entry: String,
    forfeit_sos: String,
    pairing_rules: String,
    name_order: String,
    time_zone: String,
}

impl SettingsRow {
    fn from(s: &TournamentSettings) -> SettingsRow {
        SettingsRow {
            name_zh: s.name_zh.clone(),
            name_latin: s.name_latin.clone(),
            venue: s.venue.clone(),
            start_date: date_text(s.start_date),
            end_date: date_text(s.end_date),
            system: s.system.code().into(),
            rounds: i32::try_from(s.rounds).unwrap_or(i32::MAX),
            ruleset: json(&s.ruleset),
            points_scale: s.points_scale.code().into(),
            tiebreaks: s.tiebreak_codes(),
            colour_method: s.colour_method.code().into(),
            lateness: json(&s.lateness),
            bye_value: s.bye_value.code().into(),
            bye_sos: s.bye_sos.code().into(),
            same_unit: s.same_unit.code(),
            time_control: json(&s.time_control),
            double_loss: s.double_loss.code().into(),
            late_entry: s.late_entry.code().into(),
            forfeit_sos: s.forfeit_sos.code().into(),
            pairing_rules: json(&s.pairing),
            name_order: s.name_order.code().into(),
            time_zone: s.time_zone.name().into(),
        }
    }
}

/// A fresh seed for a lot, below 2^53 so that it survives a trip through JSON and JavaScript.
pub fn random_seed() -> i64 {
    let mut b = [0u8; 8];
    // getrandom fails only without an OS random source; then the clock is the seed.
    if getrandom::fill(&mut b).is_err() {
        b = chrono::Utc::now().timestamp_nanos_opt().unwrap_or(0).to_le_bytes();
    }
    (u64::from_le_bytes(b) >> 11) as i64
}

fn json<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

impl TournamentRow {
    /// The typed settings. Columns written by this program always parse; a hand-edited
    /// database with a bad value gets the default for that setting rather than a crash.
    pub fn settings(&self) -> TournamentSettings {
        let zone = self.zone();
        let d = TournamentSettings::defaults(chrono::Utc::now().date_naive(), zone);
        let date = |s: &str, dflt| parse_date(s).unwrap_or(dflt);
        TournamentSettings {
            name_zh: self.name_zh.clone(),
            name_latin: self.name_latin.clone(),
            venue: self.venue.clone(),
            start_date: date(&self.start_date, d.start_date),
            end_date: date(&self.end_date, d.end_date),
            system: System::from_code(&self.system).unwrap_or(d.system),
            rounds: u32::try_from(self.rounds).unwrap_or(d.rounds),
            ruleset: serde_json::from_str(&self.ruleset).unwrap_or(d.ruleset),
            points_scale: PointsScale::from_code(&self.points_scale).unwrap_or(d.points_scale),
            tiebreaks: TournamentSettings::parse_tiebreaks(&self.tiebreaks).unwrap_or(d.tiebreaks),
            colour_method: ColourMethod::from_code(&self.colour_method).unwrap_or(d.colour_method),
            lateness: serde_json::from_str(&self.lateness).unwrap_or(d.lateness),
            bye_value: ByeValue::from_code(&self.bye_value).unwrap_or(d.bye_value),
            bye_sos: ByeSos::from_code(&self.bye_sos).unwrap_or(d.bye_sos),
            same_unit: SameUnit::from_code(&self.same_unit).unwrap_or(d.same_unit),
            time_control: serde_json::from_str(&self.time_control).unwrap_or(d.time_control),
            double_loss: DoubleLoss::from_code(&self.double_loss).unwrap_or(d.double_loss),
            late_entry: LateEntry::from_code(&self.late_entry).unwrap_or(d.late_entry),
            forfeit_sos: ForfeitSos::from_code(&self.forfeit_sos).unwrap_or(d.forfeit_sos),
            pairing: serde_json::from_str(&self.pairing_rules).unwrap_or(d.pairing),
            name_order: NameOrder::from_code(&self.name_order).unwrap_or(d.name_order),
            time_zone: zone,
        }
    }

    /// The event's time zone; a row that lacks one the tz database knows (a hand-edited or
    /// empty name) reads as the server's zone ([`crate::server_zone`]), as settings stored
    /// before the setting existed always have.
    pub fn zone(&self) -> EventZone {
        self.zone_or(crate::server_zone())
    }

    /// The event's time zone, or `server` when the row lacks one.
    fn zone_or(&self, server: EventZone) -> EventZone {
        EventZone::parse(&self.time_zone).unwrap_or(server)
    }

    /// The name in the reader's script, falling back to the other one.
    pub fn name(&self, zh: bool) -> &str {
        match (zh, self.name_zh.is_empty(), self.name_latin.is_empty()) {
            (true, false, _) | (false, false, true) => &self.name_zh,
            _ => &self.name_latin,
        }
    }
}

/// Audit snapshot of a tournament: its id, version and typed settings.
#[derive(Serialize)]
struct Snapshot<'a> {
    id: i32,
    version: i32,
    #[serde(flatten)]
    settings: &'a TournamentSettings,
}

pub fn list(conn: &mut Conn) -> Result<Vec<TournamentRow>, DbError> {
    Ok(tournaments::table
        .order((tournaments::start_date.desc(), tournaments::id.desc()))
        .select(TournamentRow::as_select())
        .load(conn)?)
}

/// Every event's names, Chinese and Latin (the words a password must not be made of).
pub fn names(conn: &mut Conn) -> Result<Vec<String>, DbError> {
    let rows: Vec<(String, String)> =
        tournaments::table.select((tournaments::name_zh, tournaments::name_latin)).load(conn)?;
    Ok(rows.into_iter().flat_map(|(zh, latin)| [zh, latin]).filter(|n| !n.trim().is_empty()).collect())
}

pub fn get(conn: &mut Conn, id: i32) -> Result<TournamentRow, DbError> {
    tournaments::table
        .find(id)
        .select(TournamentRow::as_select())
        .first(conn)
        .optional()?
        .ok_or(DbError::NotFound)
}

/// Create a tournament; its creator becomes one of its organizers.
pub fn create(conn: &mut Conn, actor: &Actor, s: &TournamentSettings) -> Result<i32, DbError> {
    crate::write_tx(&mut *conn, |conn| insert_tournament(conn, actor, s))
}

/// [`create`] inside the caller's transaction (an import creates the event and fills it in one):
/// a new event of one group.
pub fn insert_tournament(conn: &mut Conn, actor: &Actor, s: &TournamentSettings) -> Result<i32, DbError> {
    let event_id = insert_event(conn)?;
    insert_in_event(conn, actor, s, event_id)
}

/// A new group of the event `event_id` (inside the caller's transaction), its creator one of its
/// organizers, audited as created.
pub(crate) fn insert_in_event(
    conn: &mut Conn,
    actor: &Actor,
    s: &TournamentSettings,
    event_id: i32,
) -> Result<i32, DbError> {
    let t = now();
    let id: i32 = diesel::insert_into(tournaments::table)
        .values((
            &SettingsRow::from(s),
            tournaments::created_at.eq(&t),
            tournaments::updated_at.eq(&t),
            tournaments::lots_seed.eq(random_seed()),
        ))
        .returning(tournaments::id)
        .get_result(conn)?;
    insert_membership(conn, id, event_id)?;
    if let Some(uid) = actor.user_id {
        diesel::insert_into(tournament_staff::table)
            .values((
                tournament_staff::tournament_id.eq(id),
                tournament_staff::user_id.eq(uid),
                tournament_staff::role.eq(Role::Organizer.code()),
            ))
            .execute(conn)?;
    }
    audit::record::<(), _>(
        conn,
        actor,
        Change {
            tournament_id: Some(id),
            action: AuditAction::TournamentCreate,
            entity_id: Some(id),
            before: None,
            after: Some(&Snapshot { id, version: 1, settings: s }),
            reason: "",
        },
    )?;
    Ok(id)
}

/// Overwrite the settings of `id` inside the caller's transaction, audited as an update with
/// the version bumped: the end of [`update`] once its checks passed, and an import that
/// replaces the event (its rounds are gone, so nothing is frozen). What the event's groups share
/// (name, venue, dates, zone) is written to the other groups too ([`share_settings`]).
pub fn set_settings(
    conn: &mut Conn,
    actor: &Actor,
    id: i32,
    s: &TournamentSettings,
    reason: &str,
) -> Result<i32, DbError> {
    let v = write_settings(conn, actor, id, s, reason, AuditAction::TournamentUpdate)?;
    share_settings(conn, actor, id, s)?;
    Ok(v)
}

/// [`set_settings`] of one group only, audited as `action` (a sibling's shared settings).
fn set_settings_only(
    conn: &mut Conn,
    actor: &Actor,
    id: i32,
    s: &TournamentSettings,
    action: AuditAction,
) -> Result<i32, DbError> {
    write_settings(conn, actor, id, s, "", action)
}

fn write_settings(
    conn: &mut Conn,
    actor: &Actor,
    id: i32,
    s: &TournamentSettings,
    reason: &str,
    action: AuditAction,
) -> Result<i32, DbError> {
    let row = get(conn, id)?;
    let old = row.settings();
    let version = row.version + 1;
    diesel::update(tournaments::table.find(id))
        .set((&SettingsRow::from(s), tournaments::version.eq(version), tournaments::updated_at.eq(now())))
        .execute(conn)?;
    audit::record(
        conn,
        actor,
        Change {
            tournament_id: Some(id),
            action,
            entity_id: Some(id),
            before: Some(&Snapshot { id, version: row.version, settings: &old }),
            after: Some(&Snapshot { id, version, settings: s }),
            reason,
        },
    )?;
    Ok(version)
}

/// Why an update was refused.
#[derive(Debug)]
pub enum UpdateError {
    /// Someone saved in between: the form's version is not the stored one.
    Stale {
        current: i32,
    },
    /// The change touches settings frozen by published rounds.
    Frozen {
        frozen: Vec<Frozen>,
        published: u32,
        last: u32,
    },
    Db(DbError),
}

db_variant!(UpdateError);

/// (number of published rounds, highest published round number).
pub fn published_rounds(conn: &mut Conn, tid: i32) -> Result<(u32, u32), DbError> {
    let nums: Vec<i32> = rounds::table
        .filter(rounds::tournament_id.eq(tid))
        .filter(rounds::published.eq(true))
        .select(rounds::number)
        .load(conn)?;
    let last = nums.iter().copied().max().unwrap_or(0);
    Ok((nums.len() as u32, u32::try_from(last).unwrap_or(0)))
}

/// Every round of `tid`, drafts included.
pub fn count_rounds(conn: &mut Conn, tid: i32) -> Result<i64, DbError> {
    Ok(rounds::table.filter(rounds::tournament_id.eq(tid)).count().get_result(conn)?)
}

/// Save new settings if `version` is current and no frozen setting changes.
pub fn update(
    conn: &mut Conn,
    actor: &Actor,
    id: i32,
    version: i32,
    s: &TournamentSettings,
    reason: &str,
) -> Result<i32, UpdateError> {
    crate::write_tx(&mut *conn, |conn| {
        let row = get(conn, id)?;
        if row.version != version {
            return Err(UpdateError::Stale { current: row.version });
        }
        let old = row.settings();
        let (published, last) = published_rounds(conn, id)?;
        let frozen = frozen_changes(&old, s, published, last);
        if !frozen.is_empty() {
            return Err(UpdateError::Frozen { frozen, published, last });
        }
        Ok(set_settings(conn, actor, id, s, reason)?)
    })
}

/// Delete a tournament with everything in it (the caller has made a backup).
pub fn delete(conn: &mut Conn, actor: &Actor, id: i32, reason: &str) -> Result<(), DbError> {
    crate::write_tx(&mut *conn, |conn| {
        let row = get(conn, id)?;
        let event_id = event_of(conn, id)?;
        let n_entrants: i64 =
            entrants::table.filter(entrants::tournament_id.eq(id)).count().get_result(conn)?;
        diesel::delete(tournaments::table.find(id)).execute(conn)?;
        delete_event_if_empty(conn, event_id)?;
        #[derive(Serialize)]
        struct Deleted<'a> {
            #[serde(flatten)]
            row: &'a TournamentRow,
            entrants: i64,
        }
        audit::record::<_, ()>(
            conn,
            actor,
            Change {
                tournament_id: Some(id),
                action: AuditAction::TournamentDelete,
                entity_id: Some(id),
                before: Some(&Deleted { row: &row, entrants: n_entrants }),
                after: None,
                reason,
            },
        )?;
        Ok(())
    })
}

/// The role of a user in a tournament, if they are on its staff.
pub fn staff_role(conn: &mut Conn, tid: i32, uid: i32) -> Result<Option<Role>, DbError> {
    let r: Option<String> = tournament_staff::table
        .filter(tournament_staff::tournament_id.eq(tid))
        .filter(tournament_staff::user_id.eq(uid))
        .select(tournament_staff::role)
        .first(conn)
        .optional()?;
    Ok(r.as_deref().and_then(Role::parse))
}

#[derive(Debug, Clone, Serialize)]
pub struct StaffMember {
    pub user_id: i32,
    pub username: String,
    pub display_name: String,
    pub role: String,
}

pub fn staff(conn: &mut Conn, tid: i32) -> Result<Vec<StaffMember>, DbError> {
    // By user name, sorted here (`users::username_order`, the same on both engines).
    let mut rows: Vec<(i32, String, String, String)> = tournament_staff::table
        .inner_join(users::table)
        .filter(tournament_staff::tournament_id.eq(tid))
        .select((users::id, users::username, users::display_name, tournament_staff::role))
        .load(conn)?;
    rows.sort_by(|a, b| super::users::username_order(&a.1, &b.1));
    Ok(rows
        .into_iter()
        .map(|(user_id, username, display_name, role)| StaffMember { user_id, username, display_name, role })
        .collect())
}

/// Put a user on the staff (or change their role), audited. An event's staff is one: the change
/// is written to every group of the event, each in its own trail.
pub fn set_staff(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    uid: i32,
    role: Option<Role>,
) -> Result<(), DbError> {
    crate::write_tx(&mut *conn, |conn| {
        for g in sibling_ids(conn, tid)? {
            set_staff_of(conn, actor, g, uid, role)?;
        }
        Ok(())
    })
}

fn set_staff_of(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    uid: i32,
    role: Option<Role>,
) -> Result<(), DbError> {
    let before = staff_role(conn, tid, uid)?;
    diesel::delete(
        tournament_staff::table
            .filter(tournament_staff::tournament_id.eq(tid))
            .filter(tournament_staff::user_id.eq(uid)),
    )
    .execute(conn)?;
    if let Some(r) = role {
        diesel::insert_into(tournament_staff::table)
            .values((
                tournament_staff::tournament_id.eq(tid),
                tournament_staff::user_id.eq(uid),
                tournament_staff::role.eq(r.code()),
            ))
            .execute(conn)?;
    }
    #[derive(Serialize)]
    struct S {
        user_id: i32,
        role: Option<Role>,
    }
    audit::record(
        conn,
        actor,
        Change {
            tournament_id: Some(tid),
            action: if role.is_some() { AuditAction::StaffSet } else { AuditAction::StaffRemove },
            entity_id: Some(uid),
            before: Some(&S { user_id: uid, role: before }),
            after: Some(&S { user_id: uid, role }),
            reason: "",
        },
    )?;
    Ok(())
}

/// Add a round (published or not). Pairing work will grow this; imports and tests use it now.
pub fn insert_round(conn: &mut Conn, tid: i32, number: i32, published: bool) -> Result<(), DbError> {
    per_backend!(conn, |c| diesel::insert_into(rounds::table)
        .values((
            rounds::tournament_id.eq(tid),
            rounds::number.eq(number),
            rounds::published.eq(published),
            rounds::published_at.eq(if published { Some(now()) } else { None }),
        ))
        .on_conflict((rounds::tournament_id, rounds::number))
        .do_update()
        .set(rounds::published.eq(published))
        .execute(c))?;
    Ok(())
}

#[derive(Debug, Clone, Queryable, Selectable, Serialize)]
#[diesel(table_name = games)]
pub struct GameRow {
    pub id: i32,
    pub tournament_id: i32,
    pub round_number: i32,
    pub board: i32,
    pub black_id: Option<i32>,
    pub white_id: Option<i32>,
    pub handicap: i32,
    pub result: String,
}

pub fn games(conn: &mut Conn, tid: i32) -> Result<Vec<GameRow>, DbError> {
    Ok(games::table
        .filter(games::tournament_id.eq(tid))
        .order((games::round_number, games::board))
        .select(GameRow::as_select())
        .load(conn)?)
}

pub fn count_games(conn: &mut Conn, tid: i32) -> Result<i64, DbError> {
    Ok(games::table.filter(games::tournament_id.eq(tid)).count().get_result(conn)?)
}

/// The change counter and tag of a tournament (bumped by every audited write).
pub fn change_stamp(conn: &mut Conn, tid: i32) -> Result<(i32, String), DbError> {
    tournaments::table
        .find(tid)
        .select((tournaments::changes, tournaments::change_tag))
        .first(conn)
        .optional()?
        .ok_or(DbError::NotFound)
}

// The event a tournament is a group of (`store::events` reads and edits the groups; what every
// tournament write needs of its event is here, so this module names no other of the store's).

/// The event `tid` is a group of.
pub fn event_of(conn: &mut Conn, tid: i32) -> Result<i32, DbError> {
    event_groups::table
        .find(tid)
        .select(event_groups::event_id)
        .first(conn)
        .optional()?
        .ok_or(DbError::NotFound)
}

/// The groups of `tid`'s event (`tid` among them), in hall order.
pub fn sibling_ids(conn: &mut Conn, tid: i32) -> Result<Vec<i32>, DbError> {
    let event_id = event_of(conn, tid)?;
    Ok(event_groups::table
        .filter(event_groups::event_id.eq(event_id))
        .order((event_groups::group_order.asc(), event_groups::tournament_id.asc()))
        .select(event_groups::tournament_id)
        .load(conn)?)
}

/// A new event row (inside the caller's transaction); its id.
fn insert_event(conn: &mut Conn) -> Result<i32, DbError> {
    let t = now();
    Ok(diesel::insert_into(events::table)
        .values((events::created_at.eq(&t), events::updated_at.eq(&t)))
        .returning(events::id)
        .get_result(conn)?)
}

/// Make `tid` a group of `event_id` (inside the caller's transaction).
fn insert_membership(conn: &mut Conn, tid: i32, event_id: i32) -> Result<(), DbError> {
    diesel::insert_into(event_groups::table)
        .values((event_groups::tournament_id.eq(tid), event_groups::event_id.eq(event_id)))
        .execute(conn)?;
    Ok(())
}

/// Delete the event once its last group is gone (inside the caller's transaction).
fn delete_event_if_empty(conn: &mut Conn, event_id: i32) -> Result<(), DbError> {
    let left: i64 =
        event_groups::table.filter(event_groups::event_id.eq(event_id)).count().get_result(conn)?;
    if left == 0 {
        diesel::delete(events::table.find(event_id)).execute(conn)?;
    }
    Ok(())
}

/// Copy what the event's groups share (name, venue, dates, zone) from `from` into `to`.
pub fn copy_shared(from: &TournamentSettings, to: &mut TournamentSettings) {
    to.name_zh = from.name_zh.clone();
    to.name_latin = from.name_latin.clone();
    to.venue = from.venue.clone();
    to.start_date = from.start_date;
    to.end_date = from.end_date;
    to.time_zone = from.time_zone;
}

/// After group `tid`'s settings became `s` (inside the caller's transaction): write what the
/// groups share to every other group of the event whose copy differs, bumping its version (a
/// form open on it is then stale, not silently overwriting) and auditing it in its trail.
fn share_settings(conn: &mut Conn, actor: &Actor, tid: i32, s: &TournamentSettings) -> Result<(), DbError> {
    for g in sibling_ids(conn, tid)? {
        if g == tid {
            continue;
        }
        let old = get(conn, g)?.settings();
        let mut new = old.clone();
        copy_shared(s, &mut new);
        if new != old {
            set_settings_only(conn, actor, g, &new, AuditAction::SharedSettings)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Times are shown in the event's zone: a stored event without a zone the tz database
    /// knows reads in the server's zone, and one with a zone keeps it.
    #[test]
    fn a_row_without_a_zone_reads_in_the_servers_zone() {
        let dir = tempfile::tempdir().unwrap();
        let pool = crate::open(&dir.path().join("t.db")).unwrap();
        let mut conn = pool.get().unwrap();
        let s = TournamentSettings::defaults(chrono::NaiveDate::MIN, EventZone::SHANGHAI);
        let tid = create(&mut conn, &Actor::system("test"), &s).unwrap();
        let london = EventZone::parse("Europe/London").unwrap();
        assert_eq!(get(&mut conn, tid).unwrap().zone_or(london), EventZone::SHANGHAI);
        for lacking in ["", "Mars/Olympus"] {
            diesel::update(tournaments::table.find(tid))
                .set(tournaments::time_zone.eq(lacking))
                .execute(&mut conn)
                .unwrap();
            let row = get(&mut conn, tid).unwrap();
            assert_eq!(row.zone_or(london), london, "{lacking:?}");
            assert_eq!(row.settings().time_zone, crate::server_zone(), "{lacking:?}");
        }
    }
}
