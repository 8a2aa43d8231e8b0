//! Teams and their rosters, and the team settings of an event (seed 003, the team rules).
//!
//! Storage (migration `2026-11-30-000300_teams`): `teams` holds the team; `team_members` every
//! person of it (leader, coach, players with position numbers, the captain flag on a player).
//! A member's row id is the person id the relay state machine knows, so ids stay stable when a
//! roster is edited: a saved roster keeps the rows of players it still names (matched by name,
//! then by position number). Matches copy the rosters they were set up with (see
//! [`super::team_matches`]), so an edit never changes a match in progress.
//!
//! Every write takes an [`Actor`], checks the team's (or the settings') version and writes its
//! audit row in the same `immediate_transaction`.

use std::collections::{BTreeMap, BTreeSet};

use super::Conn;
use diesel::prelude::*;
use serde::Serialize;

use super::audit::{self, AuditAction, Change};
use super::schema::{team_matches, team_members, team_rounds, team_settings, teams};
use super::{now, Actor, DbError};
use domain::team::event::{
    Colours, CycleRule, EqualCount, Format, KnockoutDrawRule, MatchPointCode, PlayoffTime, RoundRobinBye,
    TeamPairing, TeamSettings, TeamSettingsError, TieBreakSet,
};
use domain::team::roster::{RosterError, RosterPlayer, Staff, Team};
use domain::team::{PersonId, TeamId};

#[derive(Debug, Clone, Queryable, Selectable, Serialize)]
#[diesel(table_name = teams)]
pub struct TeamRow {
    pub id: i32,
    pub tournament_id: i32,
    pub name: String,
    pub unit: String,
    pub rating: Option<i32>,
    pub version: i32,
    pub created_at: String,
    pub updated_at: String,
}

#[derive(Debug, Clone, Queryable, Selectable, Serialize, PartialEq, Eq)]
#[diesel(table_name = team_members)]
pub struct MemberRow {
    pub id: i32,
    pub team_id: i32,
    pub role: String,
    pub name: String,
    pub position: Option<i32>,
    pub captain: bool,
}

/// A team's id as the domain knows it.
pub fn team_id(id: i32) -> TeamId {
    u32::try_from(id).unwrap_or(0)
}

/// A person's id as the domain knows it.
pub fn person_id(id: i32) -> PersonId {
    u32::try_from(id).unwrap_or(0)
}

/// The domain team of a row and its members.
pub fn domain_team(row: &TeamRow, members: &[MemberRow]) -> Team {
    let staff = |role: &str| {
        members.iter().find(|m| m.role == role).map(|m| Staff { id: person_id(m.id), name: m.name.clone() })
    };
    let mut players: Vec<RosterPlayer> = members
        .iter()
        .filter(|m| m.role == "player")
        .map(|m| RosterPlayer {
            id: person_id(m.id),
            name: m.name.clone(),
            position: m.position.and_then(|p| u32::try_from(p).ok()).unwrap_or(0),
        })
        .collect();
    players.sort_by_key(|p| p.position);
    Team {
        id: team_id(row.id),
        name: row.name.clone(),
        leader: staff("leader"),
        coach: staff("coach"),
        captain: members.iter().find(|m| m.captain).map(|m| person_id(m.id)),
        players,
    }
}

// ---------------------------------------------------------------------------------------------
// Team settings

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = team_settings)]
struct SettingsRow {
    tournament_id: i32,
    format: String,
    boards: i32,
    match_points: String,
    main_board: Option<i32>,
    pairing: String,
    equal_count: String,
    tiebreaks: String,
    version: i32,
    updated_at: String,
    playoff_clock: String,
    colours: String,
    rr_bye: String,
    cycle: String,
    knockout_draw: String,
}

impl SettingsRow {
    fn settings(&self) -> TeamSettings {
        let d = TeamSettings::default();
        TeamSettings {
            format: Format::from_code(&self.format).unwrap_or(d.format),
            boards: u32::try_from(self.boards).unwrap_or(d.boards),
            match_points: MatchPointCode::from_code(&self.match_points).unwrap_or(d.match_points),
            main_board: self.main_board.and_then(|b| u32::try_from(b).ok()),
            pairing: TeamPairing::from_code(&self.pairing).unwrap_or(d.pairing),
            equal_count: EqualCount::from_code(&self.equal_count).unwrap_or(d.equal_count),
            tiebreaks: TieBreakSet::from_code(&self.tiebreaks).unwrap_or(d.tiebreaks),
            playoff_clock: PlayoffTime::from_code(&self.playoff_clock).unwrap_or(d.playoff_clock),
            colours: Colours::from_code(&self.colours).unwrap_or(d.colours),
            rr_bye: RoundRobinBye::from_code(&self.rr_bye).unwrap_or(d.rr_bye),
            cycle: CycleRule::from_code(&self.cycle).unwrap_or(d.cycle),
            knockout_draw: KnockoutDrawRule::from_code(&self.knockout_draw).unwrap_or(d.knockout_draw),
        }
    }
}

/// The event's team settings and their version (0 while the defaults were never saved).
pub fn settings(conn: &mut Conn, tid: i32) -> Result<(TeamSettings, i32), DbError> {
    let row: Option<SettingsRow> =
        team_settings::table.find(tid).select(SettingsRow::as_select()).first(conn).optional()?;
    Ok(match row {
        Some(r) => {
            let _ = (&r.tournament_id, &r.updated_at);
            (r.settings(), r.version)
        }
        None => (TeamSettings::default(), 0),
    })
}

/// How many team rounds are paired.
pub fn rounds_paired(conn: &mut Conn, tid: i32) -> Result<i64, DbError> {
    Ok(team_rounds::table.filter(team_rounds::tournament_id.eq(tid)).count().get_result(conn)?)
}

/// Why a team write was refused.
#[derive(Debug)]
pub enum TeamError {
    /// Someone saved in between.
    Stale {
        current: i32,
    },
    /// Settings: a field in error.
    Settings(TeamSettingsError),
    /// Settings that change how matches already paired score (all but the tie-breaks).
    SettingsFrozen,
    /// Another team of the event has this name.
    NameTaken,
    Roster(RosterError),
    /// The captain's position number names no player.
    CaptainPosition(u32),
    /// The team is in a paired match.
    InMatches,
    Db(DbError),
}

db_variant!(TeamError);

/// Saves the team settings at `version` (0 for the first save). Once a team round is paired
/// only the tie-breaks may change: the rest decides how the stored matches scored.
pub fn save_settings(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    version: i32,
    s: &TeamSettings,
    reason: &str,
) -> Result<i32, TeamError> {
    s.validate().map_err(TeamError::Settings)?;
    crate::write_tx(&mut *conn, |conn| {
        super::tournaments::get(conn, tid)?;
        let (old, current) = settings(conn, tid)?;
        if current != version {
            return Err(TeamError::Stale { current });
        }
        if rounds_paired(conn, tid)? > 0 && (TeamSettings { tiebreaks: old.tiebreaks, ..*s }) != old {
            return Err(TeamError::SettingsFrozen);
        }
        let new_version = version + 1;
        let values = (
            team_settings::format.eq(s.format.code()),
            team_settings::boards.eq(i32::try_from(s.boards).unwrap_or(4)),
            team_settings::match_points.eq(s.match_points.code()),
            team_settings::main_board.eq(s.main_board.and_then(|b| i32::try_from(b).ok())),
            team_settings::pairing.eq(s.pairing.code()),
            team_settings::equal_count.eq(s.equal_count.code()),
            team_settings::tiebreaks.eq(s.tiebreaks.code()),
            team_settings::playoff_clock.eq(s.playoff_clock.code()),
            team_settings::colours.eq(s.colours.code()),
            team_settings::rr_bye.eq(s.rr_bye.code()),
            team_settings::cycle.eq(s.cycle.code()),
            team_settings::knockout_draw.eq(s.knockout_draw.code()),
            team_settings::version.eq(new_version),
            team_settings::updated_at.eq(now()),
        );
        if version == 0 {
            diesel::insert_into(team_settings::table)
                .values((team_settings::tournament_id.eq(tid), values))
                .execute(conn)?;
        } else {
            diesel::update(team_settings::table.find(tid)).set(values).execute(conn)?;
        }
        audit::record(
            conn,
            actor,
            Change {
                tournament_id: Some(tid),
                action: AuditAction::TeamSettingsUpdate,
                entity_id: Some(tid),
                before: Some(&old),
                after: Some(s),
                reason,
            },
        )?;
        Ok(new_version)
    })
}

// ---------------------------------------------------------------------------------------------
// Teams

/// The event's teams by name (code point order on both engines: sorted here, not by
/// PostgreSQL's collation), id breaking ties.
pub fn list(conn: &mut Conn, tid: i32) -> Result<Vec<TeamRow>, DbError> {
    let mut rows: Vec<TeamRow> = teams::table
        .filter(teams::tournament_id.eq(tid))
        .order(teams::id)
        .select(TeamRow::as_select())
        .load(conn)?;
    rows.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(rows)
}

/// A team's members in roster order: those without a position (leader, coach) first, then by
/// position, id breaking ties — sorted here, as the engines place NULL at opposite ends.
fn in_roster_order(rows: &mut [MemberRow]) {
    rows.sort_by_key(|m| (m.team_id, m.position, m.id));
}

/// Every member of the event's teams, by team.
pub fn members_by_team(conn: &mut Conn, tid: i32) -> Result<BTreeMap<i32, Vec<MemberRow>>, DbError> {
    let mut rows: Vec<MemberRow> = team_members::table
        .inner_join(teams::table)
        .filter(teams::tournament_id.eq(tid))
        .select(MemberRow::as_select())
        .load(conn)?;
    in_roster_order(&mut rows);
    let mut out: BTreeMap<i32, Vec<MemberRow>> = BTreeMap::new();
    for r in rows {
        out.entry(r.team_id).or_default().push(r);
    }
    Ok(out)
}

/// The event's teams as the domain knows them, by row id.
pub fn domain_teams(conn: &mut Conn, tid: i32) -> Result<BTreeMap<i32, (TeamRow, Team)>, DbError> {
    let rows = list(conn, tid)?;
    let mut members = members_by_team(conn, tid)?;
    Ok(rows
        .into_iter()
        .map(|r| {
            let m = members.remove(&r.id).unwrap_or_default();
            let t = domain_team(&r, &m);
            (r.id, (r, t))
        })
        .collect())
}

/// One team of the event with its members.
pub fn get(conn: &mut Conn, tid: i32, team: i32) -> Result<(TeamRow, Vec<MemberRow>), DbError> {
    let row: TeamRow = teams::table
        .find(team)
        .filter(teams::tournament_id.eq(tid))
        .select(TeamRow::as_select())
        .first(conn)
        .optional()?
        .ok_or(DbError::NotFound)?;
    let mut members: Vec<MemberRow> = team_members::table
        .filter(team_members::team_id.eq(team))
        .select(MemberRow::as_select())
        .load(conn)?;
    in_roster_order(&mut members);
    Ok((row, members))
}

/// A team as entered on the roster form.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct RosterInput {
    pub name: String,
    pub unit: String,
    pub rating: Option<i32>,
    /// Empty: none.
    pub leader: String,
    pub coach: String,
    /// The captain's position number.
    pub captain: Option<u32>,
    /// (position number, name), positions distinct.
    pub players: Vec<(u32, String)>,
}

impl RosterInput {
    /// Checks the roster through the domain's rules (ids are placeholders here).
    fn validate(&self) -> Result<(), TeamError> {
        let staff = |s: &str, id| (!s.trim().is_empty()).then(|| Staff { id, name: s.trim().to_string() });
        let players: Vec<RosterPlayer> = self
            .players
            .iter()
            .enumerate()
            .map(|(i, (pos, name))| RosterPlayer { id: 10 + i as u32, name: name.clone(), position: *pos })
            .collect();
        let captain = match self.captain {
            None => None,
            Some(c) => Some(
                players
                    .iter()
                    .find(|p| p.position == c)
                    .map(|p| p.id)
                    .ok_or(TeamError::CaptainPosition(c))?,
            ),
        };
        let t = Team {
            id: 1,
            name: self.name.clone(),
            leader: staff(&self.leader, 1),
            coach: staff(&self.coach, 2),
            captain,
            players,
        };
        t.validate().map_err(TeamError::Roster)
    }
}

fn name_taken(conn: &mut Conn, tid: i32, name: &str, except: Option<i32>) -> Result<bool, DbError> {
    let ids: Vec<i32> = teams::table
        .filter(teams::tournament_id.eq(tid))
        .filter(teams::name.eq(name))
        .select(teams::id)
        .load(conn)?;
    Ok(ids.iter().any(|&i| Some(i) != except))
}

/// Writes the members of `team` to match `r`, keeping the rows of persons still named.
fn write_members(conn: &mut Conn, team: i32, old: &[MemberRow], r: &RosterInput) -> Result<(), DbError> {
    for (role, name) in [("leader", r.leader.trim()), ("coach", r.coach.trim())] {
        match (old.iter().find(|m| m.role == role), name.is_empty()) {
            (Some(m), true) => {
                diesel::delete(team_members::table.find(m.id)).execute(conn)?;
            }
            (Some(m), false) => {
                diesel::update(team_members::table.find(m.id))
                    .set(team_members::name.eq(name))
                    .execute(conn)?;
            }
            (None, false) => {
                diesel::insert_into(team_members::table)
                    .values((
                        team_members::team_id.eq(team),
                        team_members::role.eq(role),
                        team_members::name.eq(name),
                    ))
                    .execute(conn)?;
            }
            (None, true) => {}
        }
    }
    // Players: the same name keeps its row; then the same position number; the rest are new.
    let old_players: Vec<&MemberRow> = old.iter().filter(|m| m.role == "player").collect();
    let mut used: BTreeSet<i32> = BTreeSet::new();
    let mut assigned: Vec<Option<i32>> = vec![None; r.players.len()];
    for (i, (_, name)) in r.players.iter().enumerate() {
        if let Some(m) = old_players.iter().find(|m| m.name == name.trim() && !used.contains(&m.id)) {
            used.insert(m.id);
            assigned[i] = Some(m.id);
        }
    }
    for (i, (pos, _)) in r.players.iter().enumerate() {
        if assigned[i].is_some() {
            continue;
        }
        let want = i32::try_from(*pos).ok();
        if let Some(m) = old_players.iter().find(|m| m.position == want && !used.contains(&m.id)) {
            used.insert(m.id);
            assigned[i] = Some(m.id);
        }
    }
    for m in old_players.iter().filter(|m| !used.contains(&m.id)) {
        diesel::delete(team_members::table.find(m.id)).execute(conn)?;
    }
    // Move the kept rows out of the way of the unique position index, then set everything.
    diesel::update(
        team_members::table.filter(team_members::team_id.eq(team)).filter(team_members::role.eq("player")),
    )
    .set((team_members::position.eq(team_members::position + 1_000_000), team_members::captain.eq(false)))
    .execute(conn)?;
    for (i, (pos, name)) in r.players.iter().enumerate() {
        let position = i32::try_from(*pos).unwrap_or(i32::MAX);
        let captain = r.captain == Some(*pos);
        match assigned[i] {
            Some(id) => {
                diesel::update(team_members::table.find(id))
                    .set((
                        team_members::name.eq(name.trim()),
                        team_members::position.eq(position),
                        team_members::captain.eq(captain),
                    ))
                    .execute(conn)?;
            }
            None => {
                diesel::insert_into(team_members::table)
                    .values((
                        team_members::team_id.eq(team),
                        team_members::role.eq("player"),
                        team_members::name.eq(name.trim()),
                        team_members::position.eq(position),
                        team_members::captain.eq(captain),
                    ))
                    .execute(conn)?;
            }
        }
    }
    Ok(())
}

/// The audit snapshot of a team.
fn snapshot(conn: &mut Conn, tid: i32, team: i32) -> Result<(TeamRow, Team), DbError> {
    let (row, members) = get(conn, tid, team)?;
    let t = domain_team(&row, &members);
    Ok((row, t))
}

/// Adds a team with its roster.
pub fn create(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    r: &RosterInput,
    reason: &str,
) -> Result<i32, TeamError> {
    r.validate()?;
    crate::write_tx(&mut *conn, |conn| {
        super::tournaments::get(conn, tid)?;
        if name_taken(conn, tid, r.name.trim(), None)? {
            return Err(TeamError::NameTaken);
        }
        let t = now();
        let id: i32 = diesel::insert_into(teams::table)
            .values((
                teams::tournament_id.eq(tid),
                teams::name.eq(r.name.trim()),
                teams::unit.eq(r.unit.trim()),
                teams::rating.eq(r.rating),
                teams::created_at.eq(&t),
                teams::updated_at.eq(&t),
            ))
            .returning(teams::id)
            .get_result(conn)?;
        write_members(conn, id, &[], r)?;
        let (_, after) = snapshot(conn, tid, id)?;
        audit::record::<(), _>(
            conn,
            actor,
            Change {
                tournament_id: Some(tid),
                action: AuditAction::TeamCreate,
                entity_id: Some(id),
                before: None,
                after: Some(&after),
                reason,
            },
        )?;
        Ok(id)
    })
}

/// Saves a team's roster at `version`.
pub fn update(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    team: i32,
    version: i32,
    r: &RosterInput,
    reason: &str,
) -> Result<i32, TeamError> {
    r.validate()?;
    crate::write_tx(&mut *conn, |conn| {
        let (row, old) = get(conn, tid, team)?;
        if row.version != version {
            return Err(TeamError::Stale { current: row.version });
        }
        if name_taken(conn, tid, r.name.trim(), Some(team))? {
            return Err(TeamError::NameTaken);
        }
        let before = domain_team(&row, &old);
        write_members(conn, team, &old, r)?;
        let new_version = version + 1;
        diesel::update(teams::table.find(team))
            .set((
                teams::name.eq(r.name.trim()),
                teams::unit.eq(r.unit.trim()),
                teams::rating.eq(r.rating),
                teams::version.eq(new_version),
                teams::updated_at.eq(now()),
            ))
            .execute(conn)?;
        let (_, after) = snapshot(conn, tid, team)?;
        audit::record(
            conn,
            actor,
            Change {
                tournament_id: Some(tid),
                action: AuditAction::TeamUpdate,
                entity_id: Some(team),
                before: Some(&before),
                after: Some(&after),
                reason,
            },
        )?;
        Ok(new_version)
    })
}

/// Deletes a team that is in no paired match.
pub fn delete(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    team: i32,
    version: i32,
    reason: &str,
) -> Result<(), TeamError> {
    crate::write_tx(&mut *conn, |conn| {
        let (row, members) = get(conn, tid, team)?;
        if row.version != version {
            return Err(TeamError::Stale { current: row.version });
        }
        let in_matches: i64 = team_matches::table
            .filter(team_matches::black_team_id.eq(team).or(team_matches::white_team_id.eq(team)))
            .count()
            .get_result(conn)?;
        if in_matches > 0 {
            return Err(TeamError::InMatches);
        }
        let before = domain_team(&row, &members);
        diesel::delete(teams::table.find(team)).execute(conn)?;
        audit::record::<_, ()>(
            conn,
            actor,
            Change {
                tournament_id: Some(tid),
                action: AuditAction::TeamDelete,
                entity_id: Some(team),
                before: Some(&before),
                after: None,
                reason,
            },
        )?;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn db() -> (tempfile::TempDir, super::super::DbPool) {
        let dir = tempfile::tempdir().unwrap();
        let pool = super::super::open(&dir.path().join("t.db")).unwrap();
        (dir, pool)
    }

    fn tournament(conn: &mut Conn) -> i32 {
        let mut s =
            domain::settings::TournamentSettings::defaults(chrono::NaiveDate::MIN, crate::server_zone());
        s.name_latin = "Teams".into();
        s.system = domain::settings::System::TeamRelay;
        super::super::tournaments::create(conn, &Actor::system("test"), &s).unwrap()
    }

    fn input(players: &[(u32, &str)]) -> RosterInput {
        RosterInput {
            name: "北京队".into(),
            unit: "北京".into(),
            rating: Some(2400),
            leader: "领队甲".into(),
            coach: "教练乙".into(),
            captain: Some(1),
            players: players.iter().map(|(p, n)| (*p, n.to_string())).collect(),
        }
    }

    /// Person ids follow the person through renumbering; removed players go, new ones come.
    #[test]
    fn roster_edits_keep_person_ids() {
        let (_d, pool) = db();
        let c = &mut pool.get().unwrap();
        let a = Actor::system("test");
        let tid = tournament(c);
        let team = create(c, &a, tid, &input(&[(1, "张一"), (2, "李二"), (3, "王三")]), "").unwrap();
        let (_, before) = get(c, tid, team).unwrap();
        let id_of = |ms: &[MemberRow], n: &str| ms.iter().find(|m| m.name == n).map(|m| m.id);
        // 李二 and 王三 swap positions, 张一 leaves, 赵四 joins at 1, the coach leaves.
        let mut r = input(&[(1, "赵四"), (2, "王三"), (3, "李二")]);
        r.coach = String::new();
        update(c, &a, tid, team, 1, &r, "swap").unwrap();
        let (row, after) = get(c, tid, team).unwrap();
        assert_eq!(row.version, 2);
        assert_eq!(id_of(&after, "李二"), id_of(&before, "李二"));
        assert_eq!(id_of(&after, "王三"), id_of(&before, "王三"));
        assert_eq!(id_of(&after, "张一"), None);
        let t = domain_team(&row, &after);
        assert!(t.coach.is_none());
        assert_eq!(t.players.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(), ["赵四", "王三", "李二"]);
        assert_eq!(t.captain, id_of(&after, "赵四").map(person_id));
        t.validate().unwrap();
        // Stale, duplicate names, bad captain.
        assert!(matches!(update(c, &a, tid, team, 1, &r, ""), Err(TeamError::Stale { current: 2 })));
        let mut bad = r.clone();
        bad.captain = Some(9);
        assert!(matches!(update(c, &a, tid, team, 2, &bad, ""), Err(TeamError::CaptainPosition(9))));
        assert!(matches!(create(c, &a, tid, &r, ""), Err(TeamError::NameTaken)));
        let mut dup = r.clone();
        dup.name = "上海队".into();
        dup.players.push((4, String::new()));
        assert!(matches!(create(c, &a, tid, &dup, ""), Err(TeamError::Roster(RosterError::EmptyName(_)))));
        delete(c, &a, tid, team, 2, "").unwrap();
        assert!(list(c, tid).unwrap().is_empty());
    }

    #[test]
    fn settings_freeze_once_paired() {
        let (_d, pool) = db();
        let c = &mut pool.get().unwrap();
        let a = Actor::system("test");
        let tid = tournament(c);
        assert_eq!(settings(c, tid).unwrap(), (TeamSettings::default(), 0));
        let s = TeamSettings { format: Format::Boards, boards: 3, ..TeamSettings::default() };
        assert_eq!(save_settings(c, &a, tid, 0, &s, "").unwrap(), 1);
        assert!(matches!(save_settings(c, &a, tid, 0, &s, ""), Err(TeamError::Stale { current: 1 })));
        let bad = TeamSettings { boards: 0, ..s };
        assert!(matches!(save_settings(c, &a, tid, 1, &bad, ""), Err(TeamError::Settings(_))));
        diesel::insert_into(team_rounds::table)
            .values((
                team_rounds::tournament_id.eq(tid),
                team_rounds::number.eq(1),
                team_rounds::pairing.eq("swiss"),
                team_rounds::seed.eq("1"),
                team_rounds::created_at.eq(now()),
            ))
            .execute(c)
            .unwrap();
        let more = TeamSettings { boards: 5, ..s };
        assert!(matches!(save_settings(c, &a, tid, 1, &more, ""), Err(TeamError::SettingsFrozen)));
        let tb = TeamSettings { tiebreaks: TieBreakSet::Weijia, ..s };
        assert_eq!(save_settings(c, &a, tid, 1, &tb, "").unwrap(), 2);
    }
}
