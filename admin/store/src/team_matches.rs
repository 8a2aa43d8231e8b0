//! Team rounds and matches (seed 003, the team rules): pairing teams, the event log of relay matches, the board
//! results of board matches, and the inputs of the team standings.
//!
//! The rules decide in `domain::team::matches` over the rows read here; this module reads,
//! calls them, and writes what they decide.
//!
//! - **Pairing** ([`pair`]): [`matches::plan_team_round`] pairs the teams with the individual
//!   engines. A team round is stored at once (no draft: the last round may be deleted and
//!   paired again while none of its matches has an event or a result, [`matches::deletable`]).
//! - **Relay matches** ([`record_event`]): an append-only log, one `relay_events` row per
//!   accepted [`Event`]; the match is the replay of its log on top of the setup stored with
//!   the first event ([`MatchSetup`]: config, both rosters, persons barred by the previous
//!   game's red cards). An event is applied to the replayed match inside the write
//!   transaction ([`matches::apply_input`]): a refusal writes nothing and comes back as
//!   [`MatchError::Refused`].
//! - **Withdrawals** (the use case is `admin::office::withdraw_relay_event`; here
//!   [`insert_withdrawal`], [`set_record`]): the chief arbiter takes back a wrongly recorded
//!   event with a reason; a `relay_withdrawals` row names it and the match becomes the replay
//!   of the events still standing ([`matches::withdraw`]). Refused when a later event would no
//!   longer apply, and when it would change a decided match or the persons barred from the
//!   next game once a later team round is paired.
//! - **Board matches** ([`save_boards`]): players and a result per board; the match is scored
//!   by [`matches::score_boards`] once every board has a result.
//! - A decided match stores its [`TeamMatchRecord`] as JSON (`record`), which standings and
//!   pairing read.
//!
//! Every write checks the match's `version`, and writes its audit row in the same
//! `immediate_transaction`.

use super::Conn;
use diesel::prelude::*;
use rules::board::Color;
use serde::Serialize;

use super::audit::{self, AuditAction, Change};
use super::rounds::NigiriAction;
use super::schema::{relay_events, relay_withdrawals, team_board_games, team_matches, team_rounds};
use super::teams::{self, person_id, team_id};
use super::tournaments as tdb;
use super::{now, Actor, DbError};
use domain::draw::lots::DrawRecord;
use domain::draw::nigiri::{self, NigiriRecord, NigiriRoles};
use domain::pairing::Status;
use domain::rounds::{self as dr, NigiriState, Plan};
use domain::team::board_match::first_team_colour;
use domain::team::clocks::ClockEntry;
use domain::team::event::TeamSettings;
use domain::team::matches::{
    self, Applied, Blocked, BoardMatch, LogDamaged, MatchRefusal, PairRefusal, TeamRound, TeamRoundInput,
};
// Moved to the domain with the decisions that use them; the web reads them here.
pub use domain::team::matches::{AtMove, BoardInput, BoardResult, EventInput, MatchSetup};
use domain::team::relay::{Accepted, Effect, Event, RelayConfig, RelayMatch, Stage};
use domain::team::roster::Team;
use domain::team::standings::{NominalWinner, TeamBye, TeamEntry, TeamMatchRecord, TeamOutcome};
use domain::team::withdraw::{self as wd, LoggedEvent};
use domain::team::{PersonId, Timestamp};

#[derive(Debug, Clone, Queryable, Selectable, Serialize)]
#[diesel(table_name = team_rounds)]
pub struct TeamRoundRow {
    pub id: i32,
    pub tournament_id: i32,
    pub number: i32,
    pub pairing: String,
    pub seed: String,
    pub draws: String,
    pub plan: String,
    pub created_at: String,
}

impl TeamRoundRow {
    pub fn plan(&self) -> Plan {
        serde_json::from_str(&self.plan).unwrap_or_default()
    }
    pub fn draws(&self) -> Vec<DrawRecord> {
        serde_json::from_str(&self.draws).unwrap_or_default()
    }
}

#[derive(Debug, Clone, Queryable, Selectable, Serialize)]
#[diesel(table_name = team_matches)]
pub struct MatchRow {
    pub id: i32,
    pub tournament_id: i32,
    pub round_number: i32,
    pub table_no: i32,
    pub black_team_id: i32,
    pub white_team_id: Option<i32>,
    pub stage: String,
    pub boards: i32,
    pub start_at: Option<i64>,
    pub setup: Option<String>,
    pub record: Option<String>,
    pub version: i32,
    pub created_at: String,
    pub updated_at: String,
    /// The leaders' nigiri (Art. 11), when the event's colours come from it.
    pub nigiri: Option<String>,
    /// The match this one replays (the chief arbiter's 重赛, Arts. 17.5 (4), 17.6 (2)).
    pub replay_of: Option<i32>,
    /// A double loss's nominal winner for the next round's pairing (rules.md §12 lot).
    pub nominal_winner_team_id: Option<i32>,
    pub nominal_lot: Option<String>,
}

impl MatchRow {
    /// The leaders' nigiri: who holds, who guesses (team ids), and the outcome once done.
    pub fn nigiri(&self) -> Option<NigiriState> {
        self.nigiri.as_deref().and_then(|n| serde_json::from_str(n).ok())
    }
    /// The leaders' nigiri is still to be done: the colours are provisional.
    pub fn nigiri_pending(&self) -> bool {
        self.nigiri().is_some_and(|n| n.record.is_none())
    }
    pub fn is_bye(&self) -> bool {
        self.white_team_id.is_none()
    }
    pub fn is_relay(&self) -> bool {
        self.boards == 0 && !self.is_bye()
    }
    pub fn stage(&self) -> Stage {
        if self.stage == "knockout" {
            Stage::Knockout
        } else {
            Stage::RoundRobin
        }
    }
    /// The decided match, as standings read it (with the nominal winner of a double loss
    /// once drawn).
    pub fn record(&self) -> Option<TeamMatchRecord> {
        let mut r: TeamMatchRecord = self.record.as_deref().and_then(|r| serde_json::from_str(r).ok())?;
        r.nominal_winner = self.nominal_winner_team_id.map(team_id);
        Some(r)
    }
    /// The lot that drew the nominal winner of a double loss.
    pub fn nominal_lot(&self) -> Option<DrawRecord> {
        serde_json::from_str(self.nominal_lot.as_deref()?).ok()
    }
    /// What the relay match was set up with at its first event.
    pub fn setup(&self) -> Option<MatchSetup> {
        self.setup.as_deref().and_then(|s| serde_json::from_str(s).ok())
    }
}

#[derive(Debug, Clone, Queryable, Selectable, Serialize)]
#[diesel(table_name = relay_events)]
pub struct EventRow {
    pub id: i32,
    pub match_id: i32,
    pub seq: i32,
    pub at: i64,
    pub event: String,
    pub user_id: Option<i32>,
    pub actor: String,
    pub recorded_at: String,
}

impl EventRow {
    pub fn event(&self) -> Option<Event> {
        serde_json::from_str(&self.event).ok()
    }
}

/// A withdrawn relay event: which one, why, and who withdrew it.
#[derive(Debug, Clone, Queryable, Selectable, Serialize)]
#[diesel(table_name = relay_withdrawals)]
pub struct WithdrawalRow {
    pub id: i32,
    pub match_id: i32,
    pub event_id: i32,
    pub reason: String,
    pub user_id: Option<i32>,
    pub actor: String,
    pub recorded_at: String,
}

#[derive(Debug, Clone, Queryable, Selectable, Serialize)]
#[diesel(table_name = team_board_games)]
pub struct BoardRow {
    pub id: i32,
    pub match_id: i32,
    pub board: i32,
    pub first_player_id: Option<i32>,
    pub second_player_id: Option<i32>,
    pub result: String,
    /// The board's win was a forfeit.
    pub forfeit: bool,
}

impl BoardRow {
    pub fn board_result(&self) -> BoardResult {
        BoardResult::from_stored(&self.result, self.forfeit)
    }
}

// ---------------------------------------------------------------------------------------------
// Reading

pub fn rounds(conn: &mut Conn, tid: i32) -> Result<Vec<TeamRoundRow>, DbError> {
    Ok(team_rounds::table
        .filter(team_rounds::tournament_id.eq(tid))
        .order(team_rounds::number)
        .select(TeamRoundRow::as_select())
        .load(conn)?)
}

pub fn all_matches(conn: &mut Conn, tid: i32) -> Result<Vec<MatchRow>, DbError> {
    Ok(team_matches::table
        .filter(team_matches::tournament_id.eq(tid))
        .order((team_matches::round_number, team_matches::table_no, team_matches::id))
        .select(MatchRow::as_select())
        .load(conn)?)
}

pub fn matches_of_round(conn: &mut Conn, tid: i32, n: i32) -> Result<Vec<MatchRow>, DbError> {
    Ok(team_matches::table
        .filter(team_matches::tournament_id.eq(tid))
        .filter(team_matches::round_number.eq(n))
        .order((team_matches::table_no, team_matches::id))
        .select(MatchRow::as_select())
        .load(conn)?)
}

pub fn get_match(conn: &mut Conn, tid: i32, mid: i32) -> Result<MatchRow, DbError> {
    team_matches::table
        .find(mid)
        .filter(team_matches::tournament_id.eq(tid))
        .select(MatchRow::as_select())
        .first(conn)
        .optional()?
        .ok_or(DbError::NotFound)
}

pub fn events_of(conn: &mut Conn, mid: i32) -> Result<Vec<EventRow>, DbError> {
    Ok(relay_events::table
        .filter(relay_events::match_id.eq(mid))
        .order(relay_events::seq)
        .select(EventRow::as_select())
        .load(conn)?)
}

pub fn withdrawals_of(conn: &mut Conn, mid: i32) -> Result<Vec<WithdrawalRow>, DbError> {
    Ok(relay_withdrawals::table
        .filter(relay_withdrawals::match_id.eq(mid))
        .order(relay_withdrawals::id)
        .select(WithdrawalRow::as_select())
        .load(conn)?)
}

pub fn boards_of(conn: &mut Conn, mid: i32) -> Result<Vec<BoardRow>, DbError> {
    Ok(team_board_games::table
        .filter(team_board_games::match_id.eq(mid))
        .order(team_board_games::board)
        .select(BoardRow::as_select())
        .load(conn)?)
}

/// The decided matches and the byes of an event, as standings and pairing read them.
pub fn records_of(matches: &[MatchRow], bye_points: u32) -> (Vec<TeamMatchRecord>, Vec<TeamBye>) {
    let mut recs = Vec::new();
    let mut byes = Vec::new();
    for m in matches {
        if m.is_bye() {
            byes.push(TeamBye {
                round: u32::try_from(m.round_number).unwrap_or(0),
                team: team_id(m.black_team_id),
                match_points: bye_points,
            });
        } else if let Some(r) = m.record().filter(TeamMatchRecord::counts) {
            recs.push(r);
        }
    }
    (recs, byes)
}

// ---------------------------------------------------------------------------------------------
// Pairing

/// Why a team round cannot be paired or deleted: the rules' refusal, or a fault of the store.
#[derive(Debug)]
pub enum PairError {
    Refused(PairRefusal),
    Db(DbError),
}

impl From<PairRefusal> for PairError {
    fn from(e: PairRefusal) -> Self {
        PairError::Refused(e)
    }
}
db_variant!(PairError);

/// Pairs team round `n` (the next one) with the event's method and `seed`.
pub fn pair(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    n: i32,
    seed: u64,
    reason: &str,
) -> Result<(), PairError> {
    crate::write_tx(&mut *conn, |conn| {
        let settings = tdb::get(conn, tid)?.settings();
        let (ts, _) = teams::settings(conn, tid)?;
        let paired: Vec<(i32, Plan)> = rounds(conn, tid)?.iter().map(|r| (r.number, r.plan())).collect();
        let matches = all_matches(conn, tid)?;
        let undecided = matches.iter().find(|m| !m.is_bye() && m.record.is_none()).map(|m| m.round_number);
        let entries: Vec<TeamEntry> = teams::list(conn, tid)?
            .iter()
            .map(|r| TeamEntry {
                team: team_id(r.id),
                rank_value: 0,
                rating: r.rating,
                unit: r.unit.clone(),
                status: Status::Active,
            })
            .collect();
        let rosters: Vec<Team> = teams::domain_teams(conn, tid)?.into_values().map(|(_, t)| t).collect();
        let (records, byes) = records_of(&matches, ts.bye_points());
        let TeamRound { draft, draws, lots, stage, boards } = matches::plan_team_round(&TeamRoundInput {
            settings: &settings,
            team: &ts,
            paired: &paired,
            undecided,
            entries: &entries,
            rosters: &rosters,
            records: &records,
            byes: &byes,
            round: n,
            seed,
        })?;
        let stamp = now();
        diesel::insert_into(team_rounds::table)
            .values((
                team_rounds::tournament_id.eq(tid),
                team_rounds::number.eq(n),
                team_rounds::pairing.eq(ts.pairing.code()),
                team_rounds::seed.eq(seed.to_string()),
                team_rounds::draws.eq(serde_json::to_string(&draws).unwrap_or_else(|_| "[]".into())),
                team_rounds::plan.eq(serde_json::to_string(&draft.plan).unwrap_or_default()),
                team_rounds::created_at.eq(&stamp),
            ))
            .execute(conn)?;
        let stage = match stage {
            Stage::Knockout => "knockout",
            Stage::RoundRobin => "round_robin",
        };
        #[derive(Serialize)]
        struct Paired {
            table: u32,
            black: u32,
            white: Option<u32>,
        }
        let mut paired = Vec::new();
        let games = draft.games.iter().map(|g| (g.table, g.black, Some(g.white), g.nigiri.as_ref()));
        let bye_rows = draft.byes.iter().map(|&b| (0, b, None, None));
        for (table, black, white, nigiri) in games.chain(bye_rows) {
            let nigiri = nigiri.map(|n| serde_json::to_string(n).unwrap_or_default());
            let mid: i32 = diesel::insert_into(team_matches::table)
                .values((
                    team_matches::tournament_id.eq(tid),
                    team_matches::round_number.eq(n),
                    team_matches::table_no.eq(i32::try_from(table).unwrap_or(0)),
                    team_matches::black_team_id.eq(i32::try_from(black).unwrap_or(0)),
                    team_matches::white_team_id.eq(white.and_then(|w| i32::try_from(w).ok())),
                    team_matches::stage.eq(stage),
                    team_matches::boards.eq(if white.is_some() { boards } else { 0 }),
                    team_matches::nigiri.eq(&nigiri),
                    team_matches::created_at.eq(&stamp),
                    team_matches::updated_at.eq(&stamp),
                ))
                .returning(team_matches::id)
                .get_result(conn)?;
            if white.is_some() {
                for b in 1..=boards {
                    diesel::insert_into(team_board_games::table)
                        .values((team_board_games::match_id.eq(mid), team_board_games::board.eq(b)))
                        .execute(conn)?;
                }
            }
            paired.push(Paired { table, black, white });
        }
        store_nominal_winners(conn, actor, tid, &lots, reason)?;
        #[derive(Serialize)]
        struct After<'a> {
            round: i32,
            pairing: &'a str,
            seed: String,
            matches: Vec<Paired>,
        }
        audit::record::<(), _>(
            conn,
            actor,
            Change {
                tournament_id: Some(tid),
                action: AuditAction::TeamRoundPair,
                entity_id: Some(n),
                before: None,
                after: Some(&After {
                    round: n,
                    pairing: ts.pairing.code(),
                    seed: seed.to_string(),
                    matches: paired,
                }),
                reason,
            },
        )?;
        Ok(())
    })
}

/// Stores the nominal winners drawn for this pairing on the double-loss matches they decide
/// (rules.md §12), each with its audit row.
fn store_nominal_winners(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    lots: &[NominalWinner],
    reason: &str,
) -> Result<(), DbError> {
    let team = |t: u32| i32::try_from(t).unwrap_or(0);
    for l in lots {
        let target: Option<i32> = team_matches::table
            .filter(team_matches::tournament_id.eq(tid))
            .filter(team_matches::round_number.eq(i32::try_from(l.round).unwrap_or(0)))
            .filter(team_matches::black_team_id.eq(team(l.teams[0])))
            .filter(team_matches::white_team_id.eq(team(l.teams[1])))
            .filter(team_matches::nominal_winner_team_id.is_null())
            .filter(team_matches::record.is_not_null())
            .order(team_matches::id.desc())
            .select(team_matches::id)
            .first(conn)
            .optional()?;
        let Some(mid) = target else { continue };
        diesel::update(team_matches::table.find(mid))
            .set((
                team_matches::nominal_winner_team_id.eq(Some(team(l.winner))),
                team_matches::nominal_lot.eq(serde_json::to_string(&l.record).ok()),
            ))
            .execute(conn)?;
        #[derive(Serialize)]
        struct Lot<'a> {
            round: u32,
            teams: [u32; 2],
            nominal_winner: u32,
            lot: &'a DrawRecord,
            note: &'static str,
        }
        audit::record::<(), _>(
            conn,
            actor,
            Change {
                tournament_id: Some(tid),
                action: AuditAction::DoubleLossLot,
                entity_id: Some(mid),
                before: None,
                after: Some(&Lot {
                    round: l.round,
                    teams: l.teams,
                    nominal_winner: l.winner,
                    lot: &l.record,
                    note: "pairing of the next round only; the result stays a double loss",
                }),
                reason,
            },
        )?;
    }
    Ok(())
}

/// Deletes the last team round while none of its matches has an event or a result.
pub fn delete_round(conn: &mut Conn, actor: &Actor, tid: i32, n: i32, reason: &str) -> Result<(), PairError> {
    crate::write_tx(&mut *conn, |conn| {
        let done = rounds(conn, tid)?;
        let row = done.iter().find(|r| r.number == n).ok_or(DbError::NotFound)?;
        let last = done.last().map(|r| r.number).unwrap_or(0);
        let matches = matches_of_round(conn, tid, n)?;
        let mut recorded = false;
        for m in &matches {
            let events: i64 =
                relay_events::table.filter(relay_events::match_id.eq(m.id)).count().get_result(conn)?;
            let results: i64 = team_board_games::table
                .filter(team_board_games::match_id.eq(m.id))
                .filter(team_board_games::result.ne(""))
                .count()
                .get_result(conn)?;
            recorded = events > 0 || results > 0 || m.record.is_some();
            if recorded {
                break;
            }
        }
        matches::deletable(n, last, recorded)?;
        for m in &matches {
            diesel::delete(team_matches::table.find(m.id)).execute(conn)?;
        }
        diesel::delete(team_rounds::table.find(row.id)).execute(conn)?;
        audit::record::<_, ()>(
            conn,
            actor,
            Change {
                tournament_id: Some(tid),
                action: AuditAction::TeamRoundDelete,
                entity_id: Some(n),
                before: Some(row),
                after: None,
                reason,
            },
        )?;
        Ok(())
    })
}

// ---------------------------------------------------------------------------------------------
// Relay matches

/// Why a match write was refused: by the rules or the match's state (the domain's
/// [`MatchRefusal`]), or by a fault of the store.
#[derive(Debug)]
pub enum MatchError {
    Refused(MatchRefusal),
    Db(DbError),
}

impl From<MatchRefusal> for MatchError {
    fn from(e: MatchRefusal) -> Self {
        MatchError::Refused(e)
    }
}
db_variant!(MatchError);

/// A stored event of match `mid` that no longer applies: a damaged log, a fault of the store.
fn damaged(mid: i32, d: LogDamaged) -> DbError {
    DbError::DamagedLog { match_id: mid, damaged: Box::new(d) }
}

impl MatchError {
    /// What an input or a withdrawal on match `mid` ran into.
    pub fn blocked(mid: i32, b: Blocked) -> MatchError {
        match b {
            Blocked::Refused(r) => MatchError::Refused(r),
            Blocked::Damaged(d) => MatchError::Db(damaged(mid, d)),
        }
    }
}

/// The persons a team's previous relay game barred from this one (Art. 24.3: a red card bars
/// "本局及下一局"), who are still on the roster.
fn barred_from_previous(
    conn: &mut Conn,
    tid: i32,
    row: &MatchRow,
    team: &Team,
) -> Result<Vec<PersonId>, DbError> {
    let team_row = i32::try_from(team.id).unwrap_or(0);
    // The team's game before this one: of an earlier round, or the match this one replays
    // (a red card in the annulled game bars the player from the replay, its next game \[INF\]).
    let previous = team_matches::table
        .filter(team_matches::tournament_id.eq(tid))
        .filter(
            team_matches::round_number
                .lt(row.round_number)
                .or(team_matches::round_number.eq(row.round_number).and(team_matches::id.lt(row.id))),
        )
        .filter(team_matches::black_team_id.eq(team_row).or(team_matches::white_team_id.eq(team_row)))
        .filter(team_matches::setup.is_not_null())
        .order((team_matches::round_number.desc(), team_matches::id.desc()))
        .select(MatchRow::as_select())
        .first(conn)
        .optional()?;
    let Some(prev) = previous else { return Ok(Vec::new()) };
    let Some(setup) = prev.setup() else { return Ok(Vec::new()) };
    let Ok(m) = setup.new_match() else { return Ok(Vec::new()) };
    let Ok(m) = wd::replay_standing(m, &logged_events(conn, prev.id)?.2) else { return Ok(Vec::new()) };
    let side = if prev.black_team_id == team_row { Color::Black } else { Color::White };
    Ok(m.barred_next_game(side).into_iter().filter(|&p| team.contains(p)).collect())
}

/// A match's log: the rows, the withdrawals, and the events as the state machine reads them.
pub type Log = (Vec<EventRow>, Vec<WithdrawalRow>, Vec<LoggedEvent>);

pub fn logged_events(conn: &mut Conn, mid: i32) -> Result<Log, DbError> {
    let rows = events_of(conn, mid)?;
    let withdrawals = withdrawals_of(conn, mid)?;
    let log = rows
        .iter()
        .map(|r| {
            let event =
                r.event().ok_or_else(|| DbError::Other(format!("relay event #{} is unreadable", r.id)))?;
            Ok(LoggedEvent {
                seq: u32::try_from(r.seq).unwrap_or(0),
                at: r.at,
                event,
                withdrawn: withdrawals.iter().any(|w| w.event_id == r.id),
            })
        })
        .collect::<Result<Vec<_>, DbError>>()?;
    Ok((rows, withdrawals, log))
}

/// The setup a relay match would start with now: the live rosters, the event's relay config.
pub fn fresh_setup(conn: &mut Conn, tid: i32, row: &MatchRow) -> Result<MatchSetup, MatchError> {
    let white = row.white_team_id.ok_or(MatchRefusal::WrongKind)?;
    let start_at = row.start_at.ok_or(MatchRefusal::NoStart)?;
    let t = tdb::get(conn, tid)?;
    let (ts, _) = teams::settings(conn, tid)?;
    let config = RelayConfig { stage: row.stage(), ..ts.relay_config(&t.settings().ruleset) };
    let (b_row, b_members) = teams::get(conn, tid, row.black_team_id)?;
    let (w_row, w_members) = teams::get(conn, tid, white)?;
    let black = teams::domain_team(&b_row, &b_members);
    let white = teams::domain_team(&w_row, &w_members);
    let barred =
        [barred_from_previous(conn, tid, row, &black)?, barred_from_previous(conn, tid, row, &white)?];
    let time_left = replay_time_left(conn, tid, row)?;
    Ok(MatchSetup { config, black, white, barred, start_at, time_left }.playable()?)
}

/// The time each side had left in the match `row` replays, when that match ended with it (Art.
/// 20.3 no result, a knockout draw replayed): the replay starts from that reading.
fn replay_time_left(conn: &mut Conn, tid: i32, row: &MatchRow) -> Result<Option<ClockEntry>, DbError> {
    Ok(match row.replay_of {
        Some(orig) => relay_state(conn, tid, orig)?.m.and_then(|m| m.replay_time_left()),
        None => None,
    })
}

/// One row of a relay match's log as its page shows it.
pub struct LogItem {
    pub row: EventRow,
    pub event: Event,
    /// The effects of a standing event; `None` once withdrawn.
    pub accepted: Option<Accepted>,
    pub withdrawal: Option<WithdrawalRow>,
}

/// A relay match as its page shows it.
pub struct RelayState {
    pub row: MatchRow,
    /// The stored setup, or the one it would start with now (or why it cannot start).
    pub setup: Result<MatchSetup, MatchRefusal>,
    /// Every stored event in order, withdrawn ones included.
    pub log: Vec<LogItem>,
    /// The match after its events.
    pub m: Option<RelayMatch>,
    pub settings: TeamSettings,
    /// The time each side had left in the match this one replays, when played with it.
    pub time_left: Option<ClockEntry>,
}

pub fn relay_state(conn: &mut Conn, tid: i32, mid: i32) -> Result<RelayState, DbError> {
    let row = get_match(conn, tid, mid)?;
    let (settings, _) = teams::settings(conn, tid)?;
    let setup = match row.setup() {
        Some(s) => Ok(s),
        None => match fresh_setup(conn, tid, &row) {
            Err(MatchError::Db(e)) => return Err(e),
            Err(MatchError::Refused(r)) => Err(r),
            Ok(s) => Ok(s),
        },
    };
    let time_left = match &setup {
        Ok(s) => s.time_left,
        Err(_) => replay_time_left(conn, tid, &row)?,
    };
    let (rows, withdrawals, events) = logged_events(conn, mid)?;
    let mut log = Vec::with_capacity(rows.len());
    let mut m = None;
    if let Ok(s) = &setup {
        if let Ok(mut x) = s.new_match() {
            for (r, e) in rows.into_iter().zip(events) {
                let accepted = if e.withdrawn {
                    None
                } else {
                    Some(x.apply(e.at, e.event.clone()).map_err(|refusal| {
                        damaged(mid, LogDamaged { seq: u32::try_from(r.seq).unwrap_or(0), refusal })
                    })?)
                };
                let withdrawal = withdrawals.iter().find(|w| w.event_id == r.id).cloned();
                log.push(LogItem { row: r, event: e.event, accepted, withdrawal });
            }
            m = Some(x);
        }
    }
    Ok(RelayState { row, setup, log, m, settings, time_left })
}

/// The relay match `mid` of tournament `tid` as the form saw it: another kind of match is
/// refused, and so is a stale version (the write would overwrite what someone else recorded).
pub fn relay_at(conn: &mut Conn, tid: i32, mid: i32, version: i32) -> Result<MatchRow, MatchError> {
    let row = get_match(conn, tid, mid)?;
    if !row.is_relay() {
        return Err(MatchRefusal::WrongKind.into());
    }
    matches::unchanged_since(version, row.version)?;
    Ok(row)
}

/// Sets (or moves) the start of a relay match's section 1, before its first event.
pub fn set_start(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    mid: i32,
    version: i32,
    start_at: Timestamp,
    reason: &str,
) -> Result<i32, MatchError> {
    crate::write_tx(&mut *conn, |conn| {
        let row = relay_at(conn, tid, mid, version)?;
        if row.setup.is_some() {
            return Err(MatchRefusal::Started.into());
        }
        let new_version = version + 1;
        diesel::update(team_matches::table.find(mid))
            .set((
                team_matches::start_at.eq(start_at),
                team_matches::version.eq(new_version),
                team_matches::updated_at.eq(now()),
            ))
            .execute(conn)?;
        audit::record(
            conn,
            actor,
            Change {
                tournament_id: Some(tid),
                action: AuditAction::RelayStart,
                entity_id: Some(mid),
                before: Some(&row.start_at),
                after: Some(&start_at),
                reason,
            },
        )?;
        Ok(new_version)
    })
}

/// An input applied to the replayed match `mid`, not yet stored.
struct Input {
    row: MatchRow,
    setup: MatchSetup,
    fresh: bool,
    /// The last stored seq.
    seq: i32,
    applied: Applied,
}

/// Reads match `mid` and applies `input` to it in memory ([`matches::apply_input`]); the first
/// refusal is returned.
fn apply_input(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    mid: i32,
    version: i32,
    input: &EventInput,
) -> Result<Input, MatchError> {
    let row = relay_at(conn, tid, mid, version)?;
    let chief = !input.needs_chief() || super::results::is_chief(conn, tid, actor.user_id)?;
    matches::admit(input, row.nigiri_pending(), chief)?;
    let (setup, fresh) = match row.setup() {
        Some(s) => (s, false),
        None => (fresh_setup(conn, tid, &row)?, true),
    };
    let (_, _, stored) = logged_events(conn, mid)?;
    let applied = matches::apply_input(&setup, &stored, input).map_err(|b| MatchError::blocked(mid, b))?;
    let seq = stored.last().map(|e| i32::try_from(e.seq).unwrap_or(i32::MAX)).unwrap_or(0);
    Ok(Input { row, setup, fresh, seq, applied })
}

/// What `input` would do to relay match `mid`, without writing anything: the confirm step of
/// an event that decides the match (the arbiter sees the outcome before it is recorded).
pub fn preview_event(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    mid: i32,
    version: i32,
    input: &EventInput,
) -> Result<(Vec<Accepted>, RelayMatch), MatchError> {
    let a = apply_input(conn, actor, tid, mid, version, input)?.applied;
    Ok((a.accepted, a.m))
}

/// Applies `input` to relay match `mid` as the arbiter recorded it on the page of `version`,
/// after the moves in order up to its move ([`Event::MovesInOrder`], its own row). Everything
/// is stored, one row per event, or nothing (the first refusal is returned). A replay ordered
/// by the chief arbiter creates the replay match in the same transaction.
pub fn record_event(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    mid: i32,
    version: i32,
    input: &EventInput,
) -> Result<Vec<Accepted>, MatchError> {
    crate::write_tx(&mut *conn, |conn| record_event_in(conn, actor, tid, mid, version, input))
}

/// [`record_event`] inside the caller's write transaction (a write that records the event
/// with writes of its own, all or nothing: the count from the position confirmed by the
/// referee, `admin::office::relay_count`).
pub fn record_event_in(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    mid: i32,
    version: i32,
    input: &EventInput,
) -> Result<Vec<Accepted>, MatchError> {
    let Input { row, setup, fresh, mut seq, applied: Applied { events, accepted, m } } =
        apply_input(conn, actor, tid, mid, version, input)?;
    let stamp = now();
    for e in &events {
        seq += 1;
        diesel::insert_into(relay_events::table)
            .values((
                relay_events::match_id.eq(mid),
                relay_events::seq.eq(seq),
                relay_events::at.eq(input.at),
                relay_events::event.eq(serde_json::to_string(e).map_err(|x| DbError::Other(x.to_string()))?),
                relay_events::user_id.eq(actor.user_id),
                relay_events::actor.eq(&actor.name),
                relay_events::recorded_at.eq(&stamp),
            ))
            .execute(conn)?;
    }
    let round = u32::try_from(row.round_number).unwrap_or(0);
    let record = TeamMatchRecord::from_relay(round, &m);
    let new_version = version + 1;
    let setup_json = if fresh {
        Some(serde_json::to_string(&setup).map_err(|x| DbError::Other(x.to_string()))?)
    } else {
        row.setup.clone()
    };
    diesel::update(team_matches::table.find(mid))
        .set((
            team_matches::setup.eq(setup_json),
            team_matches::record.eq(record.as_ref().map(|r| serde_json::to_string(r).unwrap_or_default())),
            team_matches::version.eq(new_version),
            team_matches::updated_at.eq(&stamp),
        ))
        .execute(conn)?;
    let replay = match record.as_ref().map(|r| r.outcome) {
        Some(TeamOutcome::NoResult) => Some(create_replay(conn, &row, &stamp)?),
        _ => None,
    };
    #[derive(Serialize)]
    struct Logged<'a> {
        at: Timestamp,
        events: &'a [Event],
        effects: Vec<Effect>,
        record: Option<TeamMatchRecord>,
        replay_match: Option<i32>,
    }
    let effects = accepted.iter().flat_map(|a| a.effects.iter().cloned()).collect();
    audit::record::<(), _>(
        conn,
        actor,
        Change {
            tournament_id: Some(tid),
            action: AuditAction::RelayEvent,
            entity_id: Some(mid),
            before: None,
            after: Some(&Logged { at: input.at, events: &events, effects, record, replay_match: replay }),
            reason: "",
        },
    )?;
    Ok(accepted)
}

/// The replay of relay match `row` (重赛): the same round, table and teams with their colours,
/// a new log; its start is set on its own page.
pub fn create_replay(conn: &mut Conn, row: &MatchRow, stamp: &str) -> Result<i32, DbError> {
    let existing: Option<i32> = team_matches::table
        .filter(team_matches::replay_of.eq(row.id))
        .select(team_matches::id)
        .first(conn)
        .optional()?;
    if let Some(id) = existing {
        return Ok(id);
    }
    Ok(diesel::insert_into(team_matches::table)
        .values((
            team_matches::tournament_id.eq(row.tournament_id),
            team_matches::round_number.eq(row.round_number),
            team_matches::table_no.eq(row.table_no),
            team_matches::black_team_id.eq(row.black_team_id),
            team_matches::white_team_id.eq(row.white_team_id),
            team_matches::stage.eq(&row.stage),
            team_matches::boards.eq(0),
            team_matches::replay_of.eq(Some(row.id)),
            team_matches::created_at.eq(stamp),
            team_matches::updated_at.eq(stamp),
        ))
        .returning(team_matches::id)
        .get_result(conn)?)
}

/// The replay match of `mid`, if the chief arbiter ordered one.
pub fn replay_of(conn: &mut Conn, mid: i32) -> Result<Option<MatchRow>, DbError> {
    Ok(team_matches::table
        .filter(team_matches::replay_of.eq(mid))
        .select(MatchRow::as_select())
        .first(conn)
        .optional()?)
}

/// The first team round of event `tid` after round `n`, if one is paired.
pub fn next_round_after(conn: &mut Conn, tid: i32, n: i32) -> Result<Option<i32>, DbError> {
    Ok(team_rounds::table
        .filter(team_rounds::tournament_id.eq(tid))
        .filter(team_rounds::number.gt(n))
        .select(diesel::dsl::min(team_rounds::number))
        .first(conn)?)
}

/// Writes the withdrawal of relay event row `event_id` of match `mid` (append-only: the log
/// keeps the event).
pub fn insert_withdrawal(
    conn: &mut Conn,
    actor: &Actor,
    mid: i32,
    event_id: i32,
    reason: &str,
    stamp: &str,
) -> Result<(), DbError> {
    diesel::insert_into(relay_withdrawals::table)
        .values((
            relay_withdrawals::match_id.eq(mid),
            relay_withdrawals::event_id.eq(event_id),
            relay_withdrawals::reason.eq(reason),
            relay_withdrawals::user_id.eq(actor.user_id),
            relay_withdrawals::actor.eq(&actor.name),
            relay_withdrawals::recorded_at.eq(stamp),
        ))
        .execute(conn)?;
    Ok(())
}

/// Stores match `mid`'s record (what standings and pairing read) at `version`.
pub fn set_record(
    conn: &mut Conn,
    mid: i32,
    record: Option<&TeamMatchRecord>,
    version: i32,
    stamp: &str,
) -> Result<(), DbError> {
    let record = record.map(|r| serde_json::to_string(r).unwrap_or_default());
    diesel::update(team_matches::table.find(mid))
        .set((
            team_matches::record.eq(&record),
            team_matches::version.eq(version),
            team_matches::updated_at.eq(stamp),
        ))
        .execute(conn)?;
    Ok(())
}

/// Deletes match `mid` (a replay nothing was recorded in).
pub fn delete_match(conn: &mut Conn, mid: i32) -> Result<(), DbError> {
    diesel::delete(team_matches::table.find(mid)).execute(conn)?;
    Ok(())
}

/// The seed of match `row`'s leaders' nigiri: the table's seed from its team round's seed
/// (`domain::rounds::table_seed`, the one the role lot was drawn from at pairing).
pub fn nigiri_seed(conn: &mut Conn, row: &MatchRow) -> Result<u64, DbError> {
    let seed: String = team_rounds::table
        .filter(team_rounds::tournament_id.eq(row.tournament_id))
        .filter(team_rounds::number.eq(row.round_number))
        .select(team_rounds::seed)
        .first(conn)?;
    let seed = seed.parse::<u64>().unwrap_or(0);
    Ok(dr::table_seed(seed, u32::try_from(row.table_no).unwrap_or(0)))
}

/// Records the leaders' nigiri of relay match `mid` (Art. 11) on the page of `version`: the
/// outcome at the board, or performed remotely from the table's seed. The colours follow it
/// (`black_team_id`, `white_team_id`). A board outcome may be corrected until the first event
/// is recorded; a nigiri performed from the seed is final.
#[allow(clippy::too_many_arguments)]
pub fn leaders_nigiri(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    mid: i32,
    version: i32,
    action: NigiriAction,
    reason: &str,
) -> Result<NigiriRecord, MatchError> {
    crate::write_tx(&mut *conn, |conn| {
        let row = relay_at(conn, tid, mid, version)?;
        let state = row.nigiri().ok_or(MatchRefusal::NoNigiri)?;
        if row.setup.is_some() || state.record.is_some_and(|r| r.seed.is_some()) {
            return Err(MatchRefusal::NigiriClosed.into());
        }
        let roles = NigiriRoles { holder: state.holder, guesser: state.guesser, reason: state.reason };
        let rec = match action {
            NigiriAction::Record { grab, guess } => {
                nigiri::record_outcome(roles, grab, guess).map_err(MatchRefusal::Invalid)?
            }
            NigiriAction::Remote => nigiri::perform(roles, nigiri_seed(conn, &row)?),
        };
        let team = |t: u32| i32::try_from(t).unwrap_or(0);
        let after = NigiriState { record: Some(rec), ..state.clone() };
        let new_version = version + 1;
        diesel::update(team_matches::table.find(mid))
            .set((
                team_matches::black_team_id.eq(team(rec.black)),
                team_matches::white_team_id.eq(Some(team(rec.white))),
                team_matches::nigiri.eq(serde_json::to_string(&after).ok()),
                team_matches::version.eq(new_version),
                team_matches::updated_at.eq(now()),
            ))
            .execute(conn)?;
        #[derive(Serialize)]
        struct Colours<'a> {
            black_team_id: i32,
            white_team_id: Option<i32>,
            nigiri: &'a NigiriState,
        }
        audit::record(
            conn,
            actor,
            Change {
                tournament_id: Some(tid),
                action: match action {
                    NigiriAction::Record { .. } => AuditAction::LeadersNigiri,
                    NigiriAction::Remote => AuditAction::RemoteLeadersNigiri,
                },
                entity_id: Some(mid),
                before: Some(&Colours {
                    black_team_id: row.black_team_id,
                    white_team_id: row.white_team_id,
                    nigiri: &state,
                }),
                after: Some(&Colours {
                    black_team_id: team(rec.black),
                    white_team_id: Some(team(rec.white)),
                    nigiri: &after,
                }),
                reason,
            },
        )?;
        Ok(rec)
    })
}

// ---------------------------------------------------------------------------------------------
// Board matches

/// Saves the boards of a board match at `version` and scores it once every board has a
/// result (the record goes away again if a result is cleared).
pub fn save_boards(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    mid: i32,
    version: i32,
    input: &[BoardInput],
    reason: &str,
) -> Result<i32, MatchError> {
    crate::write_tx(&mut *conn, |conn| {
        let row = get_match(conn, tid, mid)?;
        let members = teams::members_by_team(conn, tid)?;
        let players = |team: Option<i32>| -> Vec<(i32, Option<u32>)> {
            team.and_then(|t| members.get(&t))
                .map(|ms| {
                    ms.iter()
                        .filter(|m| m.role == "player")
                        .map(|m| (m.id, m.position.and_then(|x| u32::try_from(x).ok())))
                        .collect()
                })
                .unwrap_or_default()
        };
        let (first, second) = (players(Some(row.black_team_id)), players(row.white_team_id));
        let (ts, _) = teams::settings(conn, tid)?;
        let board_match = BoardMatch {
            boards: row.boards,
            round: row.round_number,
            version: row.version,
            first: team_id(row.black_team_id),
            second: row.white_team_id.map(team_id),
            players: [&first, &second],
            config: ts.board_config(),
        };
        let record = matches::score_boards(&board_match, version, input)?;
        let before = boards_of(conn, mid)?;
        for (i, b) in input.iter().enumerate() {
            diesel::update(
                team_board_games::table
                    .filter(team_board_games::match_id.eq(mid))
                    .filter(team_board_games::board.eq(i as i32 + 1)),
            )
            .set((
                team_board_games::first_player_id.eq(b.first),
                team_board_games::second_player_id.eq(b.second),
                team_board_games::result.eq(b.result.stored().0),
                team_board_games::forfeit.eq(b.result.stored().1),
            ))
            .execute(conn)?;
        }
        let new_version = version + 1;
        diesel::update(team_matches::table.find(mid))
            .set((
                team_matches::record
                    .eq(record.as_ref().map(|r| serde_json::to_string(r).unwrap_or_default())),
                team_matches::version.eq(new_version),
                team_matches::updated_at.eq(now()),
            ))
            .execute(conn)?;
        #[derive(Serialize)]
        struct After<'a> {
            boards: &'a [BoardInput],
            record: Option<TeamMatchRecord>,
        }
        audit::record(
            conn,
            actor,
            Change {
                tournament_id: Some(tid),
                action: AuditAction::BoardResults,
                entity_id: Some(mid),
                before: Some(&before),
                after: Some(&After { boards: input, record }),
                reason,
            },
        )?;
        Ok(new_version)
    })
}

/// The colour of the team listed first on `board` (from 1).
pub fn first_colour(board: i32) -> Color {
    first_team_colour(u32::try_from(board).unwrap_or(1))
}

/// A person's name across both rosters of a setup.
pub fn setup_name(setup: &MatchSetup, p: PersonId) -> Option<String> {
    setup.black.name_of(p).or_else(|| setup.white.name_of(p)).map(str::to_string)
}

/// The person id of a member row id (re-exported for the web layer).
pub fn pid(id: i32) -> PersonId {
    person_id(id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::teams::RosterInput;
    use domain::settings::System;
    use domain::team::event::{Format, TeamPairing};
    use domain::team::lineup::Section;
    use domain::team::relay::Refusal;

    #[allow(clippy::too_many_arguments)]
    fn rec(
        c: &mut Conn,
        a: &Actor,
        tid: i32,
        mid: i32,
        version: i32,
        at: Timestamp,
        at_move: Option<AtMove>,
        event: Event,
    ) -> Result<Vec<Accepted>, MatchError> {
        record_event(c, a, tid, mid, version, &EventInput { at, at_move, event, also: vec![] })
    }

    fn setup_db(
        format: Format,
        pairing: TeamPairing,
        n: u32,
    ) -> (tempfile::TempDir, super::super::DbPool, i32) {
        let dir = tempfile::tempdir().unwrap();
        let pool = super::super::open(&dir.path().join("t.db")).unwrap();
        let c = &mut pool.get().unwrap();
        let a = Actor::system("test");
        let mut s =
            domain::settings::TournamentSettings::defaults(chrono::NaiveDate::MIN, crate::server_zone());
        s.name_latin = "Teams".into();
        s.system = System::TeamRelay;
        s.rounds = 3;
        let tid = tdb::create(c, &a, &s).unwrap();
        let ts = TeamSettings { format, pairing, boards: 2, ..TeamSettings::default() };
        teams::save_settings(c, &a, tid, 0, &ts, "").unwrap();
        for k in 0..n {
            let r = RosterInput {
                name: format!("Team {k}"),
                rating: Some(2000 + k as i32),
                leader: format!("L{k}"),
                players: (1..=8).map(|p| (p, format!("P{k}-{p}"))).collect(),
                ..RosterInput::default()
            };
            teams::create(c, &a, tid, &r, "").unwrap();
        }
        (dir, pool, tid)
    }

    #[test]
    fn relay_round_robin_events_and_refusals() {
        let (_d, pool, tid) = setup_db(Format::Relay, TeamPairing::RoundRobin, 3);
        let c = &mut pool.get().unwrap();
        let a = Actor::system("test");
        pair(c, &a, tid, 1, 7, "").unwrap();
        assert!(matches!(
            pair(c, &a, tid, 3, 7, ""),
            Err(PairError::Refused(PairRefusal::NotNext { next: 2 }))
        ));
        let ms = matches_of_round(c, tid, 1).unwrap();
        assert_eq!(ms.len(), 2, "three teams: one match and a bye");
        let bye = ms.iter().find(|m| m.is_bye()).unwrap();
        let m = ms.iter().find(|m| m.is_relay()).unwrap();
        assert!(matches!(
            rec(c, &a, tid, m.id, 1, 100, None, Event::RequestTimeout { side: Color::Black }),
            Err(MatchError::Refused(MatchRefusal::NoStart))
        ));
        assert!(matches!(
            set_start(c, &a, tid, bye.id, 1, 1000, ""),
            Err(MatchError::Refused(MatchRefusal::WrongKind))
        ));
        let v = set_start(c, &a, tid, m.id, 1, 1000, "").unwrap();
        let st = relay_state(c, tid, m.id).unwrap();
        let setup = st.setup.unwrap();
        let (b, w) = (&setup.black.players, &setup.white.players);
        let lineup = |side, ps: &[domain::team::roster::RosterPlayer]| Event::SubmitLineup {
            side,
            section: Section::One,
            players: [ps[0].id, ps[1].id],
        };
        rec(c, &a, tid, m.id, v, 600, None, lineup(Color::Black, b)).unwrap();
        assert!(matches!(
            set_start(c, &a, tid, m.id, v + 1, 2000, ""),
            Err(MatchError::Refused(MatchRefusal::Started))
        ));
        // A line-up in changed after its deadline: refused, nothing written.
        let r = rec(c, &a, tid, m.id, v + 1, 800, None, lineup(Color::Black, &b[2..]));
        assert!(
            matches!(r, Err(MatchError::Refused(MatchRefusal::Relay(Refusal::LineupLate { .. })))),
            "{r:?}"
        );
        assert_eq!(events_of(c, m.id).unwrap().len(), 1);
        assert!(matches!(
            rec(c, &a, tid, m.id, v, 650, None, lineup(Color::White, w)),
            Err(MatchError::Refused(MatchRefusal::Stale { .. }))
        ));
        rec(c, &a, tid, m.id, v + 1, 650, None, lineup(Color::White, w)).unwrap();
        // "Move 5 by the player due at 5" = moves 1–4 in order, then the move: two rows.
        let out = rec(
            c,
            &a,
            tid,
            m.id,
            v + 2,
            1010,
            Some(AtMove::Is(5)),
            Event::Move { player: b[0].id, at: None },
        )
        .unwrap();
        assert_eq!(out.len(), 2);
        assert_eq!(events_of(c, m.id).unwrap().len(), 4);
        let r = rec(
            c,
            &a,
            tid,
            m.id,
            v + 3,
            1020,
            Some(AtMove::Is(3)),
            Event::Move { player: w[0].id, at: None },
        );
        assert!(matches!(r, Err(MatchError::Refused(MatchRefusal::Behind { asked: 3, moves: 5 }))), "{r:?}");
        // Resignation decides the match and stores its record.
        rec(
            c,
            &a,
            tid,
            m.id,
            v + 3,
            1030,
            Some(AtMove::After(20)),
            Event::Resign { side: Color::White, by: None },
        )
        .unwrap();
        let row = get_match(c, tid, m.id).unwrap();
        let rec = row.record().unwrap();
        assert_eq!(rec.match_points, [3, 0]);
        let st = relay_state(c, tid, m.id).unwrap();
        assert_eq!(st.log.iter().filter(|l| l.accepted.is_some()).count(), 6);
        assert_eq!(st.m.unwrap().moves(), 20);
        // The round cannot be deleted any more; round 2 pairs the next Berger round.
        assert!(matches!(delete_round(c, &a, tid, 1, ""), Err(PairError::Refused(PairRefusal::HasResults))));
        pair(c, &a, tid, 2, 7, "").unwrap();
        delete_round(c, &a, tid, 2, "").unwrap();
        assert_eq!(rounds(c, tid).unwrap().len(), 1);
        // The log is append-only; deleting the whole tournament still takes everything.
        let e = diesel::sql_query("UPDATE relay_events SET at = 0").execute(c);
        assert!(e.is_err(), "the trigger refuses changes to the log");
        // Withdrawals are append-only too (who may withdraw: `admin::office::withdraw_relay_event`).
        let first = events_of(c, m.id).unwrap()[0].id;
        diesel::sql_query(format!(
            "INSERT INTO relay_withdrawals (match_id, event_id, reason, actor, recorded_at) \
             VALUES ({}, {first}, 'test', 'test', '')",
            m.id
        ))
        .execute(c)
        .unwrap();
        assert_eq!(withdrawals_of(c, m.id).unwrap().len(), 1);
        assert!(diesel::sql_query("UPDATE relay_withdrawals SET reason = 'x'").execute(c).is_err());
        let blank = diesel::sql_query(format!(
            "INSERT INTO relay_withdrawals (match_id, event_id, reason, actor, recorded_at) \
             VALUES ({}, {}, ' ', 'test', '')",
            m.id,
            first + 1
        ))
        .execute(c);
        assert!(blank.is_err(), "a withdrawal has a reason");
        tdb::delete(c, &a, tid, "").unwrap();
        assert_eq!(relay_events::table.count().get_result::<i64>(c).unwrap(), 0);
        assert_eq!(team_matches::table.count().get_result::<i64>(c).unwrap(), 0);
    }

    #[test]
    fn board_match_scoring_and_swiss() {
        let (_d, pool, tid) = setup_db(Format::Boards, TeamPairing::Swiss, 4);
        let c = &mut pool.get().unwrap();
        let a = Actor::system("test");
        pair(c, &a, tid, 1, 3, "").unwrap();
        let ms = matches_of_round(c, tid, 1).unwrap();
        assert_eq!(ms.len(), 2);
        assert!(matches!(
            pair(c, &a, tid, 2, 3, ""),
            Err(PairError::Refused(PairRefusal::Undecided { round: 1 }))
        ));
        let members = teams::members_by_team(c, tid).unwrap();
        let player =
            |team: i32, k: usize| members[&team].iter().filter(|m| m.role == "player").nth(k).unwrap().id;
        for m in &ms {
            assert_eq!(boards_of(c, m.id).unwrap().len(), 2);
            let w = m.white_team_id.unwrap();
            let bad = [
                BoardInput { first: Some(player(w, 0)), second: None, result: BoardResult::None },
                BoardInput { first: None, second: None, result: BoardResult::None },
            ];
            assert!(matches!(
                save_boards(c, &a, tid, m.id, 1, &bad, ""),
                Err(MatchError::Refused(MatchRefusal::BoardPlayer { board: 1 }))
            ));
            // First team wins board 1 with Black, draws board 2: 3 : 1 game points, 3 : 0.
            let input = [
                BoardInput {
                    first: Some(player(m.black_team_id, 0)),
                    second: Some(player(w, 0)),
                    result: BoardResult::Black,
                },
                BoardInput {
                    first: Some(player(m.black_team_id, 1)),
                    second: Some(player(w, 1)),
                    result: BoardResult::Draw,
                },
            ];
            save_boards(c, &a, tid, m.id, 1, &input, "").unwrap();
            let rec = get_match(c, tid, m.id).unwrap().record().unwrap();
            assert_eq!((rec.game_points, rec.match_points), ([3, 1], [3, 0]));
        }
        pair(c, &a, tid, 2, 3, "").unwrap();
        let r2 = matches_of_round(c, tid, 2).unwrap();
        let winners: Vec<i32> = ms.iter().map(|m| m.black_team_id).collect();
        let top = &r2[0];
        assert!(winners.contains(&top.black_team_id) && winners.contains(&top.white_team_id.unwrap()));
    }
}
