//! Results: each game's result sheet (what the arbiter entered, the final result the rules
//! crate computed with the game's rulings, confirmations and lock, the replay game, the
//! record), each round's lateness sheet (start time, arrivals), and what the standings and the
//! public pages read.
//!
//! Every write runs in one `immediate_transaction`, checks the sheet's version (a stale form is
//! refused with the current sheet, never merged), checks the lock (only the chief arbiter
//! corrects a locked result, with a reason), recomputes the final result through
//! [`domain::results::compute`], and writes its audit row.

use super::audit::{self, AuditAction, Change};
use super::entrants::EntrantRow;
use super::rounds::RoundGame;
use super::schema::{
    arrivals, entrants, game_arrivals, games, results, round_times, rounds, rulings, tournament_staff,
};
use super::tournaments as tdb;
use super::users::Role;
use super::Conn;
use super::{now, Actor, DbError};
use diesel::prelude::*;
use domain::pairing::{self, ByeRecord, History, PlayedGame};
/// An imported OpenGotha result code as the pairing reads it: the stored `games.result` column's
/// vocabulary, which the domain owns.
pub use domain::results::imported;
use domain::results::{self as dr, Computed, Entry, GameLateness, ResultError, Seats, SgfReport};
use domain::settings::TournamentSettings;
use domain::standings as ds;
use rules::board::Color;
use rules::rulings::{GameResult, ResultMethod, Ruling, RulingKind};
use serde::Serialize;
use std::collections::HashMap;

#[derive(Debug, Clone, Queryable, Selectable, Serialize)]
#[diesel(table_name = results)]
pub struct ResultRow {
    pub game_id: i32,
    pub tournament_id: i32,
    pub version: i32,
    pub entry: Option<String>,
    pub outcome: Option<String>,
    pub method: Option<String>,
    pub winner: Option<String>,
    pub black_halves: Option<i32>,
    pub white_halves: Option<i32>,
    pub margin_q: Option<i32>,
    pub penalty_black: i32,
    pub penalty_white: i32,
    pub warnings_black: i32,
    pub warnings_white: i32,
    pub confirmed_black: bool,
    pub confirmed_white: bool,
    pub confirmed_arbiter: bool,
    pub locked: bool,
    pub clock_black_secs: Option<i32>,
    pub clock_white_secs: Option<i32>,
    pub resumed: bool,
    pub starts_at: Option<String>,
    #[serde(skip)]
    pub sgf: Option<String>,
    pub sgf_name: Option<String>,
    pub sgf_report: Option<String>,
    pub entered_by: Option<String>,
    pub entered_at: Option<String>,
    pub updated_at: String,
}

impl ResultRow {
    pub fn entry(&self) -> Option<Entry> {
        self.entry.as_deref().and_then(|e| serde_json::from_str(e).ok())
    }
    pub fn outcome(&self) -> Option<GameResult> {
        self.outcome.as_deref().and_then(ResultBrief::read_outcome)
    }
    pub fn sgf_report(&self) -> Option<SgfReport> {
        self.sgf_report.as_deref().and_then(|e| serde_json::from_str(e).ok())
    }
    /// The clocks a resumed game starts from (None: not resumed).
    pub fn resumed_clocks(&self) -> Option<dr::Resumed> {
        let secs = |v: Option<i32>| v.and_then(|s| u32::try_from(s).ok());
        self.resumed.then(|| (secs(self.clock_black_secs), secs(self.clock_white_secs)))
    }
}

/// The part of a result sheet lists need (no record text).
#[derive(Debug, Clone, Queryable, Selectable, Serialize)]
#[diesel(table_name = results)]
pub struct ResultBrief {
    pub game_id: i32,
    pub version: i32,
    pub outcome: Option<String>,
    pub warnings_black: i32,
    pub warnings_white: i32,
    pub locked: bool,
}

impl ResultBrief {
    pub fn outcome(&self) -> Option<GameResult> {
        self.outcome.as_deref().and_then(ResultBrief::read_outcome)
    }

    /// An outcome from its stored form.
    fn read_outcome(stored: &str) -> Option<GameResult> {
        serde_json::from_str(stored).ok()
    }
}

#[derive(Debug, Clone, Queryable, Selectable, Serialize)]
#[diesel(table_name = rulings)]
pub struct RulingRow {
    pub id: i32,
    pub game_id: i32,
    pub tournament_id: i32,
    pub kind: String,
    pub against: Option<String>,
    pub move_number: i32,
    pub at_time: String,
    pub reason: String,
    pub arbiter_id: Option<i32>,
    pub arbiter: String,
    pub created_at: String,
    /// A plain arbiter's draw, replay or double loss, waiting for the chief arbiter (seed 000
    /// Arts. 17.5, 17.6): counted nowhere until confirmed.
    pub pending: bool,
    /// The chief arbiter who confirmed the proposal (None: ruled by the chief, or a ruling any
    /// arbiter makes).
    pub confirmed_by: Option<String>,
    pub confirmed_by_id: Option<i32>,
    pub confirmed_at: Option<String>,
}

impl RulingRow {
    pub fn kind(&self) -> Option<RulingKind> {
        serde_json::from_str(&self.kind).ok()
    }
    /// The ruling as the rules crate takes it.
    pub fn ruling(&self) -> Option<Ruling> {
        Some(Ruling {
            kind: self.kind()?,
            against: self.against.as_deref().and_then(color_from),
            player: None,
            move_number: u32::try_from(self.move_number).ok()?,
            minute: None,
        })
    }
}

pub fn color_code(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

pub fn color_from(s: &str) -> Option<Color> {
    match s {
        "black" => Some(Color::Black),
        "white" => Some(Color::White),
        _ => None,
    }
}

/// Everything about one game: the game, its sheet (if any), its rulings and players.
///
/// A sheet is in the colours the game was *played* with (rules.md §4.3): `black` and `white`
/// are the players who sat as Black and White, and the entry, the rulings' sides, the
/// penalties, warnings and confirmations all name those colours. Only `games.result` (the
/// OpenGotha code the pairing reads) credits the assigned seats.
#[derive(Debug, Clone)]
pub struct Sheet {
    pub game: RoundGame,
    pub result: Option<ResultRow>,
    pub rulings: Vec<RulingRow>,
    /// The player who played Black (the assigned White when the colours were swapped).
    pub black: Option<EntrantRow>,
    pub white: Option<EntrantRow>,
    /// The game that replays this one, if a replay was ordered.
    pub replay_game: Option<i32>,
    /// A replay's own arrivals by entrant (a replay starts apart from its round).
    pub own_arrivals: HashMap<i32, String>,
    pub published: bool,
}

impl Sheet {
    /// The version a form must carry back: 0 before anything was recorded.
    pub fn version(&self) -> i32 {
        self.result.as_ref().map_or(0, |r| r.version)
    }
    pub fn entry(&self) -> Option<Entry> {
        self.result.as_ref().and_then(ResultRow::entry)
    }
    pub fn outcome(&self) -> Option<GameResult> {
        self.result.as_ref().and_then(ResultRow::outcome)
    }
    pub fn locked(&self) -> bool {
        self.result.as_ref().is_some_and(|r| r.locked)
    }
    /// The nigiri of this board, while it is still to be recorded.
    pub fn nigiri_pending(&self) -> Option<domain::rounds::NigiriState> {
        self.game.nigiri_pending()
    }
    pub fn seats(&self) -> Seats {
        Seats {
            black: self.game.black_id.is_some(),
            white: self.game.white_id.is_some(),
            colours: self.nigiri_pending().is_none(),
        }
    }
    pub fn handicap(&self) -> u8 {
        u8::try_from(self.game.handicap).unwrap_or(0)
    }
    /// The rulings that stand, as the rules crate takes them (unreadable rows are skipped): a
    /// proposal waiting for the chief arbiter counts in no result (seed 000 Arts. 17.5, 17.6).
    pub fn rules_rulings(&self) -> Vec<Ruling> {
        self.rulings.iter().filter(|r| !r.pending).filter_map(RulingRow::ruling).collect()
    }
    /// The proposals waiting for the chief arbiter.
    pub fn proposals(&self) -> impl Iterator<Item = &RulingRow> {
        self.rulings.iter().filter(|r| r.pending)
    }
    /// The final result computed again from the stored entry and rulings.
    pub fn compute(&self, settings: &TournamentSettings) -> Result<Computed, ResultError> {
        dr::compute(
            &settings.ruleset,
            self.handicap(),
            self.seats(),
            self.entry().as_ref(),
            &self.rules_rulings(),
        )
    }
}

/// Why a write to a sheet was refused. Nothing was written.
#[derive(Debug)]
pub enum SheetError {
    /// Someone saved in between: the sheet as it is now, to show the other's entry.
    Stale(Box<Sheet>),
    /// Someone saved the round's lateness sheet in between (as it is now).
    StaleRound {
        current: Option<RoundTime>,
    },
    /// The result is locked by the confirmations; only the chief arbiter corrects it.
    Locked,
    /// A correction of a locked result needs a reason.
    ReasonRequired,
    Invalid(ResultError),
    /// There is no result to confirm yet.
    NothingToConfirm,
    /// The replay game already has a result or rulings: the replay cannot be withdrawn.
    ReplayHasResult {
        replay_game: i32,
    },
    /// Lateness: no start time, or nothing that calls for a ruling.
    NoLateness,
    /// The colours of the game changed since the form was shown (a nigiri recorded, the colours
    /// marked swapped): the entry named a side of the old colours. The sheet as it is now.
    ColoursChanged(Box<Sheet>),
    /// Only a replay has a start and arrivals of its own.
    NotAReplay,
    /// A draw, a replay or a double loss is the chief arbiter's (seed 000 Arts. 17.5, 17.6): a
    /// plain arbiter proposes it as a ruling, and cannot confirm, reject or undo one.
    NotChief,
    /// The proposal was confirmed, rejected or withdrawn in between.
    NoProposal,
    Db(DbError),
}

db_variant!(SheetError);

fn load_game(conn: &mut Conn, tid: i32, gid: i32) -> Result<RoundGame, DbError> {
    games::table
        .filter(games::tournament_id.eq(tid))
        .filter(games::id.eq(gid))
        .select(RoundGame::as_select())
        .first::<RoundGame>(conn)
        .optional()?
        .ok_or(DbError::NotFound)
}

fn entrant(conn: &mut Conn, id: Option<i32>) -> Result<Option<EntrantRow>, DbError> {
    let Some(id) = id else { return Ok(None) };
    Ok(entrants::table.find(id).select(EntrantRow::as_select()).first(conn).optional()?)
}

fn published_numbers(conn: &mut Conn, tid: i32) -> Result<Vec<i32>, DbError> {
    Ok(rounds::table
        .filter(rounds::tournament_id.eq(tid))
        .filter(rounds::published.eq(true))
        .select(rounds::number)
        .order(rounds::number)
        .load(conn)?)
}

/// The result sheet of game `gid` of tournament `tid` (NotFound if it is not that
/// tournament's).
pub fn sheet(conn: &mut Conn, tid: i32, gid: i32) -> Result<Sheet, DbError> {
    let game = load_game(conn, tid, gid)?;
    let result =
        results::table.find(gid).select(ResultRow::as_select()).first::<ResultRow>(conn).optional()?;
    let rulings = rulings::table
        .filter(rulings::game_id.eq(gid))
        .order(rulings::id)
        .select(RulingRow::as_select())
        .load(conn)?;
    let (black_id, white_id) = game.played();
    let black = entrant(conn, black_id)?;
    let white = entrant(conn, white_id)?;
    let replay_game =
        games::table.filter(games::replay_of.eq(gid)).select(games::id).first(conn).optional()?;
    let own_arrivals = own_arrivals(conn, gid)?;
    let published = rounds::table
        .filter(rounds::tournament_id.eq(tid))
        .filter(rounds::number.eq(game.round_number))
        .select(rounds::published)
        .first::<bool>(conn)
        .optional()?
        .unwrap_or(false);
    Ok(Sheet { game, result, rulings, black, white, replay_game, own_arrivals, published })
}

/// Whether user `uid` is the chief arbiter of `tid`: the staff member named so, or, while
/// nobody is named, any organizer of the tournament.
pub fn is_chief(conn: &mut Conn, tid: i32, uid: Option<i32>) -> Result<bool, DbError> {
    let Some(uid) = uid else { return Ok(false) };
    let named: Option<i32> = tournament_staff::table
        .filter(tournament_staff::tournament_id.eq(tid))
        .filter(tournament_staff::chief_arbiter.eq(true))
        .select(tournament_staff::user_id)
        .first(conn)
        .optional()?;
    Ok(match named {
        Some(c) => c == uid,
        None => tdb::staff_role(conn, tid, uid)? == Some(Role::Organizer),
    })
}

/// The chief arbiter named for a tournament, if any.
pub fn named_chief(conn: &mut Conn, tid: i32) -> Result<Option<i32>, DbError> {
    Ok(tournament_staff::table
        .filter(tournament_staff::tournament_id.eq(tid))
        .filter(tournament_staff::chief_arbiter.eq(true))
        .select(tournament_staff::user_id)
        .first(conn)
        .optional()?)
}

/// Name `uid` (a staff member) chief arbiter of `tid`, or nobody; audited.
pub fn set_chief(conn: &mut Conn, actor: &Actor, tid: i32, uid: Option<i32>) -> Result<(), DbError> {
    crate::write_tx(&mut *conn, |conn| {
        let before = named_chief(conn, tid)?;
        if let Some(u) = uid {
            if tdb::staff_role(conn, tid, u)?.is_none() {
                return Err(DbError::NotFound);
            }
        }
        diesel::update(tournament_staff::table.filter(tournament_staff::tournament_id.eq(tid)))
            .set(tournament_staff::chief_arbiter.eq(false))
            .execute(conn)?;
        if let Some(u) = uid {
            diesel::update(
                tournament_staff::table
                    .filter(tournament_staff::tournament_id.eq(tid))
                    .filter(tournament_staff::user_id.eq(u)),
            )
            .set(tournament_staff::chief_arbiter.eq(true))
            .execute(conn)?;
        }
        #[derive(Serialize)]
        struct Chief {
            chief_arbiter: Option<i32>,
        }
        audit::record(
            conn,
            actor,
            Change {
                tournament_id: Some(tid),
                action: AuditAction::ChiefArbiter,
                entity_id: uid.or(before),
                before: Some(&Chief { chief_arbiter: before }),
                after: Some(&Chief { chief_arbiter: uid }),
                reason: "",
            },
        )?;
        Ok(())
    })
}

/// Audit snapshot of a sheet.
#[derive(Serialize)]
struct Snapshot {
    game: i32,
    round: i32,
    board: i32,
    version: i32,
    entry: Option<Entry>,
    result: Option<String>,
    outcome: Option<GameResult>,
    penalty_black: i32,
    penalty_white: i32,
    warnings_black: i32,
    warnings_white: i32,
    confirmed: [bool; 3],
    locked: bool,
    rulings: usize,
    replay_game: Option<i32>,
    replay_of: Option<i32>,
    played_swapped: bool,
}

fn snapshot(s: &Sheet) -> Snapshot {
    let r = s.result.as_ref();
    let outcome = s.outcome();
    Snapshot {
        game: s.game.id,
        round: s.game.round_number,
        board: s.game.board,
        version: s.version(),
        entry: s.entry(),
        result: outcome.map(|o| o.code()),
        outcome,
        penalty_black: r.map_or(0, |r| r.penalty_black),
        penalty_white: r.map_or(0, |r| r.penalty_white),
        warnings_black: r.map_or(0, |r| r.warnings_black),
        warnings_white: r.map_or(0, |r| r.warnings_white),
        confirmed: r.map_or([false; 3], |r| [r.confirmed_black, r.confirmed_white, r.confirmed_arbiter]),
        locked: s.locked(),
        rulings: s.rulings.len(),
        replay_game: s.replay_game,
        replay_of: s.game.replay_of,
        played_swapped: s.game.played_swapped,
    }
}

/// The result columns of a computed result.
#[derive(AsChangeset, Insertable, PartialEq, Eq, Debug)]
#[diesel(table_name = results)]
#[diesel(treat_none_as_null = true)]
struct OutcomeFields {
    entry: Option<String>,
    outcome: Option<String>,
    method: Option<String>,
    winner: Option<String>,
    black_halves: Option<i32>,
    white_halves: Option<i32>,
    margin_q: Option<i32>,
    penalty_black: i32,
    penalty_white: i32,
    warnings_black: i32,
    warnings_white: i32,
}

fn to_i32(v: u32) -> i32 {
    i32::try_from(v).unwrap_or(i32::MAX)
}

fn outcome_fields(entry: Option<&Entry>, c: &Computed) -> OutcomeFields {
    let r = c.result;
    let (black_halves, margin_q) = match r.map(|r| r.method) {
        Some(ResultMethod::Count { outcome, black_halves, .. }) => {
            (Some(to_i32(black_halves)), Some(to_i32(outcome.margin_q)))
        }
        _ => (None, None),
    };
    let white_halves = match entry {
        Some(Entry::Count { white_halves: Some(w), .. }) => Some(to_i32(*w)),
        _ => None,
    };
    OutcomeFields {
        entry: entry.map(|e| serde_json::to_string(e).unwrap_or_default()),
        outcome: r.map(|r| serde_json::to_string(&r).unwrap_or_default()),
        method: r.map(|r| dr::method_code(&r.method).to_string()),
        winner: r.and_then(|r| r.winner).map(|c| color_code(c).to_string()),
        black_halves,
        white_halves,
        margin_q,
        penalty_black: to_i32(c.applied.penalty_black),
        penalty_white: to_i32(c.applied.penalty_white),
        warnings_black: to_i32(c.applied.warnings_black),
        warnings_white: to_i32(c.applied.warnings_white),
    }
}

/// Refuse a stale form; refuse a locked sheet unless the actor is the chief arbiter and gives
/// a reason (seed 000 Art. 16.4: a confirmed result is final). Returns whether this write
/// corrects a locked result.
pub fn guard(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    s: &Sheet,
    version: i32,
    reason: &str,
) -> Result<bool, SheetError> {
    if s.version() != version {
        return Err(SheetError::Stale(Box::new(s.clone())));
    }
    if !s.locked() {
        return Ok(false);
    }
    if !is_chief(conn, tid, actor.user_id)? {
        return Err(SheetError::Locked);
    }
    if reason.trim().is_empty() {
        return Err(SheetError::ReasonRequired);
    }
    Ok(true)
}

/// Write the computed result of a sheet (creating the row if needed), bump its version, keep
/// `games.result` in step, and create or withdraw the replay game. `entered`: the entry is
/// new (who entered it, and when, are kept). Returns the new version.
pub fn write_result(
    conn: &mut Conn,
    actor: &Actor,
    s: &Sheet,
    entry: Option<&Entry>,
    computed: &Computed,
    entered: bool,
) -> Result<i32, SheetError> {
    let gid = s.game.id;
    let fields = outcome_fields(entry, computed);
    let t = now();
    let changed = s.result.as_ref().map(|r| r.outcome.as_deref()) != Some(fields.outcome.as_deref());
    let version = s.version() + 1;
    match &s.result {
        None => {
            diesel::insert_into(results::table)
                .values((
                    results::game_id.eq(gid),
                    results::tournament_id.eq(s.game.tournament_id),
                    results::version.eq(version),
                    &fields,
                    results::updated_at.eq(&t),
                ))
                .execute(conn)?;
        }
        Some(r) => {
            // A changed result needs confirming again, unless the chief arbiter corrects a
            // locked one (the correction stays locked).
            let clear = changed && !r.locked;
            diesel::update(results::table.find(gid))
                .set((
                    &fields,
                    results::version.eq(version),
                    results::updated_at.eq(&t),
                    results::confirmed_black.eq(r.confirmed_black && !clear),
                    results::confirmed_white.eq(r.confirmed_white && !clear),
                    results::confirmed_arbiter.eq(r.confirmed_arbiter && !clear),
                ))
                .execute(conn)?;
        }
    }
    if entered {
        diesel::update(results::table.find(gid))
            .set((results::entered_by.eq(&actor.name), results::entered_at.eq(&t)))
            .execute(conn)?;
    }
    diesel::update(games::table.find(gid))
        .set(games::result.eq(dr::opengotha_code(computed.result.as_ref(), s.game.played_swapped)))
        .execute(conn)?;
    replay(conn, s, entry, computed)?;
    Ok(version)
}

/// Create, update or withdraw the replay game of a sheet. The replay is a game of its own
/// (`games.replay_of`): the same round, table, players, colours (assigned and as played),
/// handicap and komi, its own start and arrivals (none yet). With the clocks noted it resumes
/// from them (rules.md §9: "replay immediately using each side's remaining time"; lateness then
/// has no limit, the clock just runs, Art. 22.1); without, it is a new game on a full clock.
fn replay(conn: &mut Conn, s: &Sheet, entry: Option<&Entry>, c: &Computed) -> Result<(), SheetError> {
    let wants = c.result.is_some_and(|r| r.needs_replay());
    let clocks = entry.and_then(Entry::replay_clocks).flatten();
    let (cb, cw) = (clocks.map(|c| to_i32(c.black_secs)), clocks.map(|c| to_i32(c.white_secs)));
    match (wants, s.replay_game) {
        (true, None) => {
            let g = &s.game;
            let rid: i32 = diesel::insert_into(games::table)
                .values((
                    games::tournament_id.eq(g.tournament_id),
                    games::round_number.eq(g.round_number),
                    games::board.eq(g.board),
                    games::black_id.eq(g.black_id),
                    games::white_id.eq(g.white_id),
                    games::handicap.eq(g.handicap),
                    games::result.eq("RESULT_UNKNOWN"),
                    games::played_swapped.eq(g.played_swapped),
                    games::colour_method.eq(&g.colour_method),
                    games::komi_q.eq(g.komi_q),
                    games::replay_of.eq(Some(g.id)),
                ))
                .returning(games::id)
                .get_result(conn)?;
            diesel::insert_into(results::table)
                .values((
                    results::game_id.eq(rid),
                    results::tournament_id.eq(g.tournament_id),
                    results::version.eq(1),
                    results::clock_black_secs.eq(cb),
                    results::clock_white_secs.eq(cw),
                    results::resumed.eq(clocks.is_some()),
                    results::updated_at.eq(now()),
                ))
                .execute(conn)?;
        }
        (true, Some(rid)) => {
            diesel::update(results::table.find(rid))
                .set((
                    results::clock_black_secs.eq(cb),
                    results::clock_white_secs.eq(cw),
                    results::resumed.eq(clocks.is_some()),
                    results::version.eq(results::version + 1),
                ))
                .execute(conn)?;
        }
        (false, Some(rid)) => {
            let has_entry: Option<Option<String>> =
                results::table.find(rid).select(results::outcome).first(conn).optional()?;
            let n_rulings: i64 = rulings::table.filter(rulings::game_id.eq(rid)).count().get_result(conn)?;
            if has_entry.flatten().is_some() || n_rulings > 0 {
                return Err(SheetError::ReplayHasResult { replay_game: rid });
            }
            diesel::delete(games::table.find(rid)).execute(conn)?;
        }
        (false, None) => {}
    }
    Ok(())
}

pub fn settings_of(conn: &mut Conn, tid: i32) -> Result<TournamentSettings, DbError> {
    Ok(tdb::get(conn, tid)?.settings())
}

/// The audit row of a change to sheet `before` (in the caller's transaction): the sheet before
/// and as it is now.
pub fn record_sheet(
    conn: &mut Conn,
    actor: &Actor,
    action: AuditAction,
    before: &Sheet,
    reason: &str,
) -> Result<(), DbError> {
    let (tid, gid) = (before.game.tournament_id, before.game.id);
    let after = sheet(conn, tid, gid)?;
    audit::record(
        conn,
        actor,
        Change {
            tournament_id: Some(tid),
            action,
            entity_id: Some(gid),
            before: Some(&snapshot(before)),
            after: Some(&snapshot(&after)),
            reason,
        },
    )
}

/// A ruling to add, with what the rules crate does not keep: the wall-clock time and the
/// arbiter's reason.
#[derive(Debug, Clone, Serialize)]
pub struct NewRuling {
    pub ruling: Ruling,
    pub at_time: String,
    pub reason: String,
    /// Stored as a proposal for the chief arbiter (set when it is written, from the kind and
    /// who rules it).
    pub pending: bool,
}

fn insert_rulings(conn: &mut Conn, actor: &Actor, s: &Sheet, new: &[NewRuling]) -> Result<(), DbError> {
    let t = now();
    for n in new {
        diesel::insert_into(rulings::table)
            .values((
                rulings::game_id.eq(s.game.id),
                rulings::tournament_id.eq(s.game.tournament_id),
                rulings::kind.eq(serde_json::to_string(&n.ruling.kind).unwrap_or_default()),
                rulings::against.eq(n.ruling.against.map(color_code)),
                rulings::move_number.eq(to_i32(n.ruling.move_number)),
                rulings::at_time.eq(&n.at_time),
                rulings::reason.eq(&n.reason),
                rulings::arbiter_id.eq(actor.user_id),
                rulings::arbiter.eq(&actor.name),
                rulings::created_at.eq(&t),
                rulings::pending.eq(n.pending),
            ))
            .execute(conn)?;
    }
    Ok(())
}

/// The effects of a sheet's rulings, for the audit trail.
#[derive(Serialize)]
struct RulingsAudit<'a> {
    added: &'a [NewRuling],
    effects: Vec<rules::rulings::Said>,
    result: Option<String>,
}

/// Add `new` to a sheet: a draw, a replay or a double loss ruled by a plain arbiter is stored
/// as a proposal (seed 000 Arts. 17.5, 17.6), checked as if it stood but counted in nothing
/// (the audit row is then a proposal's); the rest is applied to the result.
fn add_checked(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    s: &Sheet,
    new: &[NewRuling],
    reason: &str,
    action: AuditAction,
) -> Result<i32, SheetError> {
    let settings = settings_of(conn, tid)?;
    let chief = is_chief(conn, tid, actor.user_id)?;
    let new: Vec<NewRuling> = new
        .iter()
        .map(|n| NewRuling { pending: !chief && n.ruling.kind.needs_chief(&settings.ruleset), ..n.clone() })
        .collect();
    let mut all = s.rules_rulings();
    let entry = s.entry();
    // A proposal must be one the chief arbiter could confirm as the sheet is now.
    let mut proposed = all.clone();
    proposed.extend(new.iter().map(|n| n.ruling));
    dr::compute(&settings.ruleset, s.handicap(), s.seats(), entry.as_ref(), &proposed)
        .map_err(SheetError::Invalid)?;
    all.extend(new.iter().filter(|n| !n.pending).map(|n| n.ruling));
    let computed = dr::compute(&settings.ruleset, s.handicap(), s.seats(), entry.as_ref(), &all)
        .map_err(SheetError::Invalid)?;
    insert_rulings(conn, actor, s, &new)?;
    let v = write_result(conn, actor, s, entry.as_ref(), &computed, false)?;
    let action = if new.iter().any(|n| n.pending) { AuditAction::RulingPropose } else { action };
    let new = new.as_slice();
    audit::record(
        conn,
        actor,
        Change {
            tournament_id: Some(tid),
            action,
            entity_id: Some(s.game.id),
            before: Some(&snapshot(s)),
            after: Some(&RulingsAudit {
                added: new,
                effects: computed.applied.effects.iter().map(|e| e.said.clone()).collect(),
                result: computed.result.map(|r| r.code()),
            }),
            reason,
        },
    )?;
    Ok(v)
}

/// Add rulings to a game; their effect is applied to its result. Returns the new version.
pub fn add_rulings(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    gid: i32,
    version: i32,
    new: &[NewRuling],
    reason: &str,
) -> Result<i32, SheetError> {
    crate::write_tx(&mut *conn, |conn| {
        let s = sheet(conn, tid, gid)?;
        guard(conn, actor, tid, &s, version, reason)?;
        add_checked(conn, actor, tid, &s, new, reason, AuditAction::RulingAdd)
    })
}

/// Ruling `rid` of sheet `s` (NotFound when it is not one of this game's).
fn ruling_of(s: &Sheet, rid: i32) -> Result<RulingRow, SheetError> {
    s.rulings.iter().find(|r| r.id == rid).cloned().ok_or(SheetError::Db(DbError::NotFound))
}

/// Delete one ruling of a game; the result is computed again. Returns the new version.
pub fn delete_ruling(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    gid: i32,
    rid: i32,
    version: i32,
    reason: &str,
) -> Result<i32, SheetError> {
    crate::write_tx(&mut *conn, |conn| {
        let s = sheet(conn, tid, gid)?;
        let gone = ruling_of(&s, rid)?;
        guard(conn, actor, tid, &s, version, reason)?;
        let settings = settings_of(conn, tid)?;
        // A proposal may be withdrawn by any arbiter; a standing draw, replay or double loss is
        // the chief arbiter's to undo (seed 000 Arts. 17.5, 17.6).
        let chiefs = gone.kind().is_some_and(|k| k.needs_chief(&settings.ruleset));
        if !gone.pending && chiefs && !is_chief(conn, tid, actor.user_id)? {
            return Err(SheetError::NotChief);
        }
        let rest: Vec<Ruling> =
            s.rulings.iter().filter(|r| r.id != rid && !r.pending).filter_map(RulingRow::ruling).collect();
        let entry = s.entry();
        let computed = dr::compute(&settings.ruleset, s.handicap(), s.seats(), entry.as_ref(), &rest)
            .map_err(SheetError::Invalid)?;
        diesel::delete(rulings::table.find(rid)).execute(conn)?;
        let v = write_result(conn, actor, &s, entry.as_ref(), &computed, false)?;
        let after = snapshot(&sheet(conn, tid, gid)?);
        audit::record(
            conn,
            actor,
            Change {
                tournament_id: Some(tid),
                action: AuditAction::RulingDelete,
                entity_id: Some(gid),
                before: Some(&gone),
                after: Some(&after),
                reason,
            },
        )?;
        Ok(v)
    })
}

/// What the audit keeps of a proposal the chief arbiter decided: the ruling, who proposed it,
/// who decided, and (confirmed) its effects and the result.
#[derive(Serialize)]
struct ProposalAudit<'a> {
    id: i32,
    ruling: Option<Ruling>,
    proposed_by: &'a str,
    proposed_at: &'a str,
    decided_by: &'a str,
    confirmed: bool,
    effects: Vec<rules::rulings::Said>,
    result: Option<String>,
}

/// The chief arbiter confirms (`confirm`) or rejects a plain arbiter's proposal `rid` of a
/// draw, a replay or a double loss (seed 000 Arts. 17.5, 17.6). Confirmed, it stands and the
/// result is computed again with it (a replay ordered creates its game); rejected, it is
/// deleted. Either way the audit row names the proposer and the chief arbiter. Returns the new
/// version.
#[allow(clippy::too_many_arguments)]
pub fn decide_proposal(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    gid: i32,
    rid: i32,
    version: i32,
    confirm: bool,
    reason: &str,
) -> Result<i32, SheetError> {
    crate::write_tx(&mut *conn, |conn| {
        let s = sheet(conn, tid, gid)?;
        // Not a ruling of this game: 404; one that is no longer a proposal: a conflict.
        let p = ruling_of(&s, rid)?;
        guard(conn, actor, tid, &s, version, reason)?;
        if !is_chief(conn, tid, actor.user_id)? {
            return Err(SheetError::NotChief);
        }
        if !p.pending {
            return Err(SheetError::NoProposal);
        }
        let settings = settings_of(conn, tid)?;
        let mut all = s.rules_rulings();
        if confirm {
            all.extend(p.ruling());
        }
        let entry = s.entry();
        let computed = dr::compute(&settings.ruleset, s.handicap(), s.seats(), entry.as_ref(), &all)
            .map_err(SheetError::Invalid)?;
        if confirm {
            diesel::update(rulings::table.find(rid))
                .set((
                    rulings::pending.eq(false),
                    rulings::confirmed_by.eq(Some(&actor.name)),
                    rulings::confirmed_by_id.eq(actor.user_id),
                    rulings::confirmed_at.eq(Some(now())),
                ))
                .execute(conn)?;
        } else {
            diesel::delete(rulings::table.find(rid)).execute(conn)?;
        }
        let v = write_result(conn, actor, &s, entry.as_ref(), &computed, false)?;
        audit::record(
            conn,
            actor,
            Change {
                tournament_id: Some(tid),
                action: if confirm { AuditAction::RulingConfirm } else { AuditAction::RulingReject },
                entity_id: Some(gid),
                before: Some(&snapshot(&s)),
                after: Some(&ProposalAudit {
                    id: rid,
                    ruling: p.ruling(),
                    proposed_by: &p.arbiter,
                    proposed_at: &p.created_at,
                    decided_by: &actor.name,
                    confirmed: confirm,
                    effects: match confirm {
                        true => computed.applied.effects.iter().map(|e| e.said.clone()).collect(),
                        false => Vec::new(),
                    },
                    result: computed.result.map(|r| r.code()),
                }),
                reason,
            },
        )?;
        Ok(v)
    })
}

/// Who confirms a result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Confirmer {
    Black,
    White,
    Arbiter,
}

impl Confirmer {
    pub fn parse(s: &str) -> Option<Confirmer> {
        match s {
            "black" => Some(Confirmer::Black),
            "white" => Some(Confirmer::White),
            "arbiter" => Some(Confirmer::Arbiter),
            _ => None,
        }
    }
}

/// Record a confirmation (the players' signatures are recorded by the arbiter). With all
/// three, the result is locked. Returns the new version.
pub fn confirm(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    gid: i32,
    version: i32,
    who: Confirmer,
) -> Result<i32, SheetError> {
    crate::write_tx(&mut *conn, |conn| {
        let s = sheet(conn, tid, gid)?;
        if s.version() != version {
            return Err(SheetError::Stale(Box::new(s)));
        }
        let Some(r) = s.result.as_ref().filter(|r| r.outcome.is_some()) else {
            return Err(SheetError::NothingToConfirm);
        };
        let mut flags = [r.confirmed_black, r.confirmed_white, r.confirmed_arbiter];
        match who {
            Confirmer::Black => flags[0] = true,
            Confirmer::White => flags[1] = true,
            Confirmer::Arbiter => flags[2] = true,
        }
        // Every seated player and the arbiter (a bye has no opponent to sign).
        let seats = s.seats();
        let locked = r.locked || (flags[2] && (!seats.black || flags[0]) && (!seats.white || flags[1]));
        let v = r.version + 1;
        diesel::update(results::table.find(gid))
            .set((
                results::confirmed_black.eq(flags[0]),
                results::confirmed_white.eq(flags[1]),
                results::confirmed_arbiter.eq(flags[2]),
                results::locked.eq(locked),
                results::version.eq(v),
                results::updated_at.eq(now()),
            ))
            .execute(conn)?;
        let action = if locked && !r.locked { AuditAction::ResultLock } else { AuditAction::ResultConfirm };
        let reason = match who {
            Confirmer::Black => "black",
            Confirmer::White => "white",
            Confirmer::Arbiter => "arbiter",
        };
        record_sheet(conn, actor, action, &s, reason)?;
        Ok(v)
    })
}

/// Keep a game record with the game, with the rules crate's report. Returns the new version.
#[allow(clippy::too_many_arguments)]
pub fn attach_sgf(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    gid: i32,
    version: i32,
    name: &str,
    text: &str,
    bytes: &[u8],
    report: &SgfReport,
) -> Result<i32, SheetError> {
    crate::write_tx(&mut *conn, |conn| {
        let s = sheet(conn, tid, gid)?;
        if s.version() != version {
            return Err(SheetError::Stale(Box::new(s)));
        }
        let report_json = serde_json::to_string(report).unwrap_or_default();
        let t = now();
        let v = s.version() + 1;
        if s.result.is_none() {
            diesel::insert_into(results::table)
                .values((
                    results::game_id.eq(gid),
                    results::tournament_id.eq(tid),
                    results::version.eq(v),
                    results::updated_at.eq(&t),
                ))
                .execute(conn)?;
        }
        // The text is kept only beside the bytes (the record as uploaded, what downloads
        // serve); NUL, which a record may carry but PostgreSQL's text cannot, is kept as U+FFFD.
        let (text_len, text) = (text.len(), text.replace('\0', "\u{FFFD}"));
        diesel::update(results::table.find(gid))
            .set((
                results::sgf.eq(&text),
                results::sgf_bytes.eq(bytes),
                results::sgf_name.eq(name),
                results::sgf_report.eq(&report_json),
                results::version.eq(v),
                results::updated_at.eq(&t),
            ))
            .execute(conn)?;
        #[derive(Serialize)]
        struct Record<'a> {
            name: &'a str,
            bytes: usize,
            report: &'a SgfReport,
        }
        audit::record::<(), _>(
            conn,
            actor,
            Change {
                tournament_id: Some(tid),
                action: AuditAction::SgfAttach,
                entity_id: Some(gid),
                before: None,
                after: Some(&Record { name, bytes: text_len, report }),
                reason: "",
            },
        )?;
        Ok(v)
    })
}

// ---------------------------------------------------------------------------------------------
// Lateness
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone, Queryable, Selectable, Serialize)]
#[diesel(table_name = round_times)]
pub struct RoundTime {
    pub tournament_id: i32,
    pub round_number: i32,
    pub starts_at: String,
    pub version: i32,
    pub updated_at: String,
}

/// A round's start time (if set) and its arrivals by entrant.
pub fn round_lateness(
    conn: &mut Conn,
    tid: i32,
    round: i32,
) -> Result<(Option<RoundTime>, HashMap<i32, String>), DbError> {
    let start =
        round_times::table.find((tid, round)).select(RoundTime::as_select()).first(conn).optional()?;
    let arr: Vec<(i32, Option<String>)> = arrivals::table
        .filter(arrivals::tournament_id.eq(tid))
        .filter(arrivals::round_number.eq(round))
        .select((arrivals::entrant_id, arrivals::arrived_at))
        .load(conn)?;
    Ok((start, arr.into_iter().filter_map(|(e, a)| a.map(|a| (e, a))).collect()))
}

/// Each round's start as stored (UTC), by round number: what the public pairings show.
pub fn round_starts(conn: &mut Conn, tid: i32) -> Result<HashMap<i32, String>, DbError> {
    Ok(round_times::table
        .filter(round_times::tournament_id.eq(tid))
        .select((round_times::round_number, round_times::starts_at))
        .load::<(i32, String)>(conn)?
        .into_iter()
        .collect())
}

/// Arrivals by entrant in entrant order, for the audit trail.
fn by_entrant(m: &HashMap<i32, String>) -> Vec<(i32, &str)> {
    let mut v: Vec<(i32, &str)> = m.iter().map(|(k, v)| (*k, v.as_str())).collect();
    v.sort();
    v
}

/// Save a round's start time and arrivals (entrant, time or None to clear), version-checked
/// on the round's lateness sheet (0 before it exists). Returns the new version.
pub fn save_arrivals(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    round: i32,
    version: i32,
    starts_at: &str,
    arrived: &[(i32, Option<String>)],
) -> Result<i32, SheetError> {
    crate::write_tx(&mut *conn, |conn| {
        let (before, old) = round_lateness(conn, tid, round)?;
        let current = before.as_ref().map_or(0, |r| r.version);
        if current != version {
            return Err(SheetError::StaleRound { current: before });
        }
        let t = now();
        let v = current + 1;
        write_start(conn, tid, round, starts_at, v, &t)?;
        for (eid, at) in arrived {
            let key = arrivals::table
                .filter(arrivals::tournament_id.eq(tid))
                .filter(arrivals::round_number.eq(round))
                .filter(arrivals::entrant_id.eq(eid));
            match at {
                None => {
                    diesel::delete(key).execute(conn)?;
                }
                Some(a) => {
                    per_backend!(conn, |c| diesel::insert_into(arrivals::table)
                        .values((
                            arrivals::tournament_id.eq(tid),
                            arrivals::round_number.eq(round),
                            arrivals::entrant_id.eq(eid),
                            arrivals::arrived_at.eq(a),
                            arrivals::recorded_by.eq(&actor.name),
                            arrivals::recorded_at.eq(&t),
                        ))
                        .on_conflict((arrivals::tournament_id, arrivals::round_number, arrivals::entrant_id))
                        .do_update()
                        .set((
                            arrivals::arrived_at.eq(a),
                            arrivals::recorded_by.eq(&actor.name),
                            arrivals::recorded_at.eq(&t),
                        ))
                        .execute(c))?;
                }
            }
        }
        // The round's start is the event's: one hall starts together, so every other group's
        // round takes the same start (its arrivals are its own).
        if !starts_at.is_empty() {
            for g in super::tournaments::sibling_ids(conn, tid)? {
                if g != tid {
                    share_start(conn, actor, g, round, starts_at)?;
                }
            }
        }
        let (after, new) = round_lateness(conn, tid, round)?;
        audit::record(
            conn,
            actor,
            Change {
                tournament_id: Some(tid),
                action: AuditAction::ArrivalsRecord,
                entity_id: Some(round),
                before: Some(&Arrivals {
                    round,
                    starts_at: before.as_ref().map(|b| b.starts_at.as_str()),
                    arrivals: by_entrant(&old),
                }),
                after: Some(&Arrivals {
                    round,
                    starts_at: after.as_ref().map(|b| b.starts_at.as_str()),
                    arrivals: by_entrant(&new),
                }),
                reason: "",
            },
        )?;
        Ok(v)
    })
}

#[derive(Serialize)]
struct Arrivals<'a> {
    round: i32,
    starts_at: Option<&'a str>,
    arrivals: Vec<(i32, &'a str)>,
}

/// Store round `round`'s start at version `v` (inside the caller's transaction).
fn write_start(
    conn: &mut Conn,
    tid: i32,
    round: i32,
    starts_at: &str,
    v: i32,
    t: &str,
) -> Result<(), DbError> {
    per_backend!(conn, |c| diesel::insert_into(round_times::table)
        .values((
            round_times::tournament_id.eq(tid),
            round_times::round_number.eq(round),
            round_times::starts_at.eq(starts_at),
            round_times::version.eq(v),
            round_times::updated_at.eq(t),
        ))
        .on_conflict((round_times::tournament_id, round_times::round_number))
        .do_update()
        .set((
            round_times::starts_at.eq(starts_at),
            round_times::version.eq(v),
            round_times::updated_at.eq(t)
        ))
        .execute(c))?;
    Ok(())
}

/// Give group `tid`'s round `round` the start `starts_at` another group of its event saved
/// (inside the caller's transaction), its version bumped so a sheet open on it is stale, audited
/// in its trail; nothing when it already starts then.
fn share_start(conn: &mut Conn, actor: &Actor, tid: i32, round: i32, starts_at: &str) -> Result<(), DbError> {
    let (before, arrived) = round_lateness(conn, tid, round)?;
    if before.as_ref().is_some_and(|b| b.starts_at == starts_at) {
        return Ok(());
    }
    let v = before.as_ref().map_or(0, |b| b.version) + 1;
    write_start(conn, tid, round, starts_at, v, &now())?;
    let arrivals = by_entrant(&arrived);
    audit::record(
        conn,
        actor,
        Change {
            tournament_id: Some(tid),
            action: AuditAction::ArrivalsRecord,
            entity_id: Some(round),
            before: Some(&Arrivals {
                round,
                starts_at: before.as_ref().map(|b| b.starts_at.as_str()),
                arrivals: arrivals.clone(),
            }),
            after: Some(&Arrivals { round, starts_at: Some(starts_at), arrivals }),
            reason: "",
        },
    )
}

/// A game's own arrivals (a replay's), by entrant.
fn own_arrivals(conn: &mut Conn, gid: i32) -> Result<HashMap<i32, String>, DbError> {
    let v: Vec<(i32, String)> = game_arrivals::table
        .filter(game_arrivals::game_id.eq(gid))
        .select((game_arrivals::entrant_id, game_arrivals::arrived_at))
        .load(conn)?;
    Ok(v.into_iter().collect())
}

/// The lateness of one game (None: no start time). A game of the round's pairing starts with
/// its round (or at its own time, if one is set) and is judged from the round's sheet; a replay
/// starts apart from its round, so only its own start and its own arrivals count (lateness to
/// the original game never decides the replay). Sides are the played colours, as on the sheet.
pub fn game_lateness(
    settings: &TournamentSettings,
    s: &Sheet,
    round_start: Option<&str>,
    round_arrivals: &HashMap<i32, String>,
) -> Option<GameLateness> {
    let own = s.result.as_ref().and_then(|r| r.starts_at.as_deref());
    let (start_text, arrived) = match s.game.is_replay() {
        true => (own?, &s.own_arrivals),
        false => (own.or(round_start)?, round_arrivals),
    };
    // Stored in UTC; judged in seconds from the venue's midnight of the start's day, so that
    // times either side of UTC midnight stay apart by what the venue's clock says.
    let zone = settings.time_zone;
    let day = zone.local_date(start_text)?;
    let secs = |t: &str| zone.seconds_into(day, t).map(|x| u32::try_from(x.max(0)).unwrap_or(u32::MAX));
    let start = secs(start_text)?;
    let at = |id: Option<i32>| id.and_then(|i| arrived.get(&i)).and_then(|a| secs(a));
    let (black, white) = s.game.played();
    Some(dr::game_lateness(
        &settings.lateness,
        &settings.time_control,
        start,
        at(black),
        at(white),
        s.result.as_ref().and_then(ResultRow::resumed_clocks),
    ))
}

/// The rulings a game's lateness calls for that are not recorded on its sheet yet (seed 000
/// Art. 22.1: beyond the limit loses; Art. 22.3: both beyond it, both lose): empty when there
/// is no start, nothing to rule, or all of it is recorded.
pub fn lateness_unrecorded(
    settings: &TournamentSettings,
    s: &Sheet,
    round_start: Option<&str>,
    round_arrivals: &HashMap<i32, String>,
) -> Vec<Ruling> {
    let have = s.rules_rulings();
    let called = game_lateness(settings, s, round_start, round_arrivals).and_then(|g| g.rulings);
    called.unwrap_or_default().into_iter().filter(|r| !have.contains(r)).collect()
}

/// The start a game's lateness is judged from, as stored (UTC), if any: a replay's own, or
/// the round's.
pub fn lateness_start(s: &Sheet, round_start: Option<&str>) -> Option<String> {
    let own = s.result.as_ref().and_then(|r| r.starts_at.clone());
    match s.game.is_replay() {
        true => own,
        false => own.or_else(|| round_start.map(str::to_string)),
    }
}

/// Save a replay's own start time and its players' arrivals (entrant, time or None to clear),
/// version-checked on the replay's sheet. Returns the new version.
#[allow(clippy::too_many_arguments)]
pub fn save_replay_start(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    gid: i32,
    version: i32,
    starts_at: &str,
    arrived: &[(i32, Option<String>)],
) -> Result<i32, SheetError> {
    crate::write_tx(&mut *conn, |conn| {
        let s = sheet(conn, tid, gid)?;
        if s.version() != version {
            return Err(SheetError::Stale(Box::new(s)));
        }
        if !s.game.is_replay() {
            return Err(SheetError::NotAReplay);
        }
        let players = [s.game.black_id, s.game.white_id];
        if arrived.iter().any(|(e, _)| !players.contains(&Some(*e))) {
            return Err(SheetError::Db(DbError::NotFound));
        }
        let t = now();
        let v = version + 1;
        diesel::update(results::table.find(gid))
            .set((results::starts_at.eq(starts_at), results::version.eq(v), results::updated_at.eq(&t)))
            .execute(conn)?;
        for (eid, at) in arrived {
            let key = game_arrivals::table
                .filter(game_arrivals::game_id.eq(gid))
                .filter(game_arrivals::entrant_id.eq(eid));
            diesel::delete(key).execute(conn)?;
            if let Some(a) = at {
                diesel::insert_into(game_arrivals::table)
                    .values((
                        game_arrivals::game_id.eq(gid),
                        game_arrivals::entrant_id.eq(eid),
                        game_arrivals::arrived_at.eq(a),
                        game_arrivals::recorded_by.eq(&actor.name),
                        game_arrivals::recorded_at.eq(&t),
                    ))
                    .execute(conn)?;
            }
        }
        #[derive(Serialize)]
        struct Start<'a> {
            game: i32,
            replay_of: Option<i32>,
            starts_at: Option<&'a str>,
            arrivals: Vec<(i32, &'a str)>,
        }
        let after = own_arrivals(conn, gid)?;
        audit::record(
            conn,
            actor,
            Change {
                tournament_id: Some(tid),
                action: AuditAction::ReplayStart,
                entity_id: Some(gid),
                before: Some(&Start {
                    game: gid,
                    replay_of: s.game.replay_of,
                    starts_at: s.result.as_ref().and_then(|r| r.starts_at.as_deref()),
                    arrivals: by_entrant(&s.own_arrivals),
                }),
                after: Some(&Start {
                    game: gid,
                    replay_of: s.game.replay_of,
                    starts_at: Some(starts_at),
                    arrivals: by_entrant(&after),
                }),
                reason: "",
            },
        )?;
        Ok(v)
    })
}

/// Apply what lateness calls for to a game (a loss by lateness, or a double loss): the rules
/// crate's rulings are added at move 0. Returns the new version.
pub fn apply_lateness(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    gid: i32,
    version: i32,
    reason: &str,
) -> Result<i32, SheetError> {
    crate::write_tx(&mut *conn, |conn| {
        let s = sheet(conn, tid, gid)?;
        guard(conn, actor, tid, &s, version, reason)?;
        record_lateness_of(conn, actor, tid, &s, reason)
    })
}
/// Add to sheet `s` what its lateness calls for and is not recorded yet, audited as a
/// lateness ruling; `NoLateness` when there is nothing to add.
fn record_lateness_of(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    s: &Sheet,
    reason: &str,
) -> Result<i32, SheetError> {
    let settings = settings_of(conn, tid)?;
    let (start, arrived) = round_lateness(conn, tid, s.game.round_number)?;
    let round_start = start.as_ref().map(|r| r.starts_at.as_str());
    let missing = lateness_unrecorded(&settings, s, round_start, &arrived);
    if missing.is_empty() {
        return Err(SheetError::NoLateness);
    }
    let at_time = lateness_start(s, round_start).unwrap_or_default();
    let new: Vec<NewRuling> = missing
        .into_iter()
        .map(|ruling| NewRuling {
            ruling,
            at_time: at_time.clone(),
            reason: reason.to_string(),
            pending: false,
        })
        .collect();
    add_checked(conn, actor, tid, s, &new, reason, AuditAction::RulingLateness)
}

/// Record from the round's lateness sheet the verdicts it shows and no game has recorded yet
/// (seed 000 Art. 22.1: late beyond the limit loses; Art. 22.3: both, both lose): for each
/// game of round `round` in `games` (game id, the sheet version the page showed), its missing
/// lateness rulings, one audit row per game, all in one transaction. A game changed since the
/// page was shown (another save, the verdict recorded on its own page) refuses the whole
/// (nothing written); a locked result is the chief arbiter's, with a reason. Returns how many
/// games were recorded.
pub fn record_lateness(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    round: i32,
    games: &[(i32, i32)],
    reason: &str,
) -> Result<usize, SheetError> {
    crate::write_tx(&mut *conn, |conn| {
        if games.is_empty() {
            return Err(SheetError::NoLateness);
        }
        for (gid, version) in games {
            let s = sheet(conn, tid, *gid)?;
            if s.game.round_number != round {
                return Err(SheetError::Db(DbError::NotFound));
            }
            guard(conn, actor, tid, &s, *version, reason)?;
            record_lateness_of(conn, actor, tid, &s, reason)?;
        }
        Ok(games.len())
    })
}

/// The games of round `round` whose lateness verdict is shown on the sheet but not recorded
/// (seed 000 Arts. 22.1, 22.3): what the results-entry list flags. Only games with an arrival
/// typed can have one (the sheet takes the latecomers' times), so only their sheets are read.
pub fn lateness_awaiting(conn: &mut Conn, tid: i32, round: i32) -> Result<Vec<i32>, DbError> {
    let (start, arrived) = round_lateness(conn, tid, round)?;
    let settings = settings_of(conn, tid)?;
    let round_start = start.as_ref().map(|r| r.starts_at.as_str());
    let mut out = Vec::new();
    for l in game_lines(conn, tid, Some(round), false)? {
        let g = &l.game;
        let typed = match g.is_replay() {
            true => !own_arrivals(conn, g.id)?.is_empty(),
            false => {
                round_start.is_some()
                    && [g.black_id, g.white_id].iter().flatten().any(|p| arrived.contains_key(p))
            }
        };
        if typed && g.white_id.is_some() {
            let s = sheet(conn, tid, g.id)?;
            if !lateness_unrecorded(&settings, &s, round_start, &arrived).is_empty() {
                out.push(g.id);
            }
        }
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// Reads for lists, standings and the public pages
// ---------------------------------------------------------------------------------------------

/// A game with the brief of its sheet.
#[derive(Debug, Clone)]
pub struct GameLine {
    pub game: RoundGame,
    pub result: Option<ResultBrief>,
    /// The sheet's outcome, read from its stored form once ([`ResultBrief::outcome`]): the
    /// standings, the public pages and the lists ask for it several times per line, and
    /// reading it was a fifth of a 10,000-player event's public snapshot.
    outcome: Option<GameResult>,
}

impl GameLine {
    pub fn new(game: RoundGame, result: Option<ResultBrief>) -> GameLine {
        let outcome = result.as_ref().and_then(ResultBrief::outcome);
        GameLine { game, result, outcome }
    }

    /// The sheet's outcome, if one is entered (as the sheet's seats have it).
    pub fn outcome(&self) -> Option<GameResult> {
        self.outcome
    }

    /// Whether the game has its result: on the sheet, as an imported OpenGotha code, or (a game
    /// with one player) as an imported bye.
    pub fn has_result(&self) -> bool {
        let bye = (self.game.black_id.is_none() || self.game.white_id.is_none()) && self.game.result == "BYE";
        self.result.as_ref().is_some_and(|r| r.outcome.is_some())
            || imported(&self.game.result).is_some()
            || bye
    }

    /// The player of a line with one player (a bye's line).
    pub fn bye_player(&self) -> Option<i32> {
        match (self.game.black_id, self.game.white_id) {
            (Some(p), None) | (None, Some(p)) => Some(p),
            _ => None,
        }
    }

    /// Whether a line with one player is a bye that scores: entered as one on its sheet, or
    /// imported as one.
    pub fn is_bye(&self) -> bool {
        let outcome = self.outcome;
        self.bye_player().is_some()
            && (outcome.is_some_and(|o| o.method == ResultMethod::Bye)
                || (outcome.is_none() && self.game.result == "BYE"))
    }

    /// The round this line gives a result to, if it has one: a bye, or a game whose result
    /// is not "no result" (a replay pending).
    pub fn result_round(&self) -> Option<u32> {
        let counts = if self.bye_player().is_some() {
            self.is_bye()
        } else {
            self.pairing_result().is_some_and(|r| r != pairing::GameResult::NoResult)
        };
        counts.then(|| u32::try_from(self.game.round_number).ok()).flatten()
    }

    /// The game's result as pairing and standings read it, for the *assigned* seats (a game
    /// played with the colours swapped credits the Black who played to the assigned White):
    /// the sheet's outcome, else an imported OpenGotha code; `None` while nothing is entered
    /// (and for a bye's line).
    pub fn pairing_result(&self) -> Option<pairing::GameResult> {
        match self.outcome {
            Some(o) => dr::for_assigned(&o, self.game.played_swapped),
            None => imported(&self.game.result),
        }
    }

    /// The players as they sat: (Black, White) of the sheet (rules.md §4.3).
    pub fn played(&self) -> (Option<i32>, Option<i32>) {
        self.game.played()
    }
}

/// The games of a tournament (one round, or all), by round and board, with their sheets;
/// with `published_only`, only rounds that are published.
pub fn game_lines(
    conn: &mut Conn,
    tid: i32,
    round: Option<i32>,
    published_only: bool,
) -> Result<Vec<GameLine>, DbError> {
    let published = match published_only {
        true => Some(published_numbers(conn, tid)?),
        false => None,
    };
    lines_of(conn, tid, round, published.as_deref())
}

/// The lines of tournament `tid` by round and board: of round `round` if given, of the rounds
/// `among` if given.
fn lines_of(
    conn: &mut Conn,
    tid: i32,
    round: Option<i32>,
    among: Option<&[i32]>,
) -> Result<Vec<GameLine>, DbError> {
    let mut q = games::table
        .left_join(results::table)
        .filter(games::tournament_id.eq(tid))
        .select((RoundGame::as_select(), Option::<ResultBrief>::as_select()))
        .order((games::round_number, games::board, games::id))
        .into_boxed();
    if let Some(r) = round {
        q = q.filter(games::round_number.eq(r));
    }
    if let Some(nums) = among {
        q = q.filter(games::round_number.eq_any(nums.to_vec()));
    }
    let rows: Vec<(RoundGame, Option<ResultBrief>)> = q.load(conn)?;
    // An event's sheets hold few distinct outcomes (a win by resignation, by a count of so
    // many points): each stored form is read once, not once per game (50,000 readings were a
    // tenth of a 10,000-player event's first public render).
    let mut read: HashMap<String, Option<GameResult>> = HashMap::new();
    Ok(rows
        .into_iter()
        .map(|(game, result)| {
            let stored = result.as_ref().and_then(|r| r.outcome.as_deref());
            let outcome = stored.and_then(|s| match read.get(s) {
                Some(o) => *o,
                None => *read.entry(s.to_owned()).or_insert_with(|| ResultBrief::read_outcome(s)),
            });
            GameLine { game, result, outcome }
        })
        .collect())
}

/// Round numbers that have games, with (games, games with a result, published).
pub fn rounds_summary(conn: &mut Conn, tid: i32) -> Result<Vec<(i32, usize, usize, bool)>, DbError> {
    let lines = game_lines(conn, tid, None, false)?;
    let published = published_numbers(conn, tid)?;
    let mut out: Vec<(i32, usize, usize, bool)> = Vec::new();
    for l in &lines {
        let r = l.game.round_number;
        if out.last().is_none_or(|x| x.0 != r) {
            out.push((r, 0, 0, published.contains(&r)));
        }
        if let Some(x) = out.last_mut() {
            x.1 += 1;
            if l.has_result() {
                x.2 += 1;
            }
        }
    }
    Ok(out)
}

/// What standings read: every entrant (with the round they were entered for), the games and
/// byes of the published rounds with their sheets, and the last round with a result. Standings
/// are computed from a cut of it, [`StandingsData::as_of`].
pub struct StandingsData {
    pub entrants: Vec<EntrantRow>,
    /// Entrant id → the first round they were entered for (a late entry joins later).
    first_round: HashMap<i32, u32>,
    /// By round and board.
    pub lines: Vec<GameLine>,
    /// The last round with a result (a bye counts as one): what "the latest standings" are
    /// after.
    pub last_round: u32,
}

/// The standings' data as of one round: the lines of rounds 1 to the round asked for, and
/// the [`ds::Record`] of rounds 1 to `after_round` built from those lines only. Every "as of
/// round N" reader (the public standings page with `?round=N`, the wall chart, the standings
/// and results CSV, the crosstable, the EGF file) reads this, so none can see a later round.
pub struct AsOf {
    /// The last round counted: the round asked for, or the last round with a result if that
    /// is earlier.
    pub after_round: u32,
    /// The games and byes of rounds 1 to the round asked for (all published rounds without
    /// one), by round and board.
    pub lines: Vec<GameLine>,
    record: ds::Record,
    /// Every entrant, for the order of players who share a place (by name).
    entrants: Vec<EntrantRow>,
}

impl AsOf {
    /// The standings' input: the players entered by `after_round`, and the games, byes and
    /// warnings of rounds 1..=`after_round`.
    pub fn record(&self) -> &ds::Record {
        &self.record
    }
}

pub fn standings_data(conn: &mut Conn, tid: i32) -> Result<StandingsData, DbError> {
    standings_data_on(conn, None, tid)
}

/// [`standings_data`], read on two connections at once when a `spare` one is given: the
/// entrants and the later half of the published rounds' games on `spare` in a thread of its
/// own, the earlier half on `conn` meanwhile (a 10,000-player event's first public render
/// waited on one core for a read the machine's second core could halve). Each part shows the
/// state of its own read, as the reads one after another on one connection do; a caller that
/// needs a single state reads in a transaction, without a spare.
pub fn standings_data_on(
    conn: &mut Conn,
    spare: Option<&mut Conn>,
    tid: i32,
) -> Result<StandingsData, DbError> {
    let rounds = published_numbers(conn, tid)?;
    let (entrants, first_round, lines) = match spare {
        None => {
            let (entrants, first_round) = entrants_with_first_round(conn, tid)?;
            (entrants, first_round, lines_of(conn, tid, None, Some(&rounds))?)
        }
        Some(spare) => {
            // The spare also reads the entrants (a fifth of the games' rows): the earlier
            // half is the larger one.
            let (early, late) = rounds.split_at(rounds.len().div_ceil(2));
            std::thread::scope(|s| {
                let other = s.spawn(|| -> Result<_, DbError> {
                    Ok((entrants_with_first_round(spare, tid)?, lines_of(spare, tid, None, Some(late))?))
                });
                let first = lines_of(conn, tid, None, Some(early));
                let ((entrants, first_round), later) =
                    other.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))?;
                let mut lines = first?;
                lines.extend(later);
                Ok::<_, DbError>((entrants, first_round, lines))
            })?
        }
    };
    let last_round = lines.iter().filter_map(GameLine::result_round).max().unwrap_or(0);
    Ok(StandingsData { entrants, first_round, lines, last_round })
}

/// Every entrant of `tid` by id, and the first round each was entered for.
#[allow(clippy::type_complexity)]
fn entrants_with_first_round(
    conn: &mut Conn,
    tid: i32,
) -> Result<(Vec<EntrantRow>, HashMap<i32, u32>), DbError> {
    let entrants: Vec<EntrantRow> = entrants::table
        .filter(entrants::tournament_id.eq(tid))
        .order(entrants::id)
        .select(EntrantRow::as_select())
        .load(conn)?;
    let first_round: HashMap<i32, u32> = entrants::table
        .filter(entrants::tournament_id.eq(tid))
        .select((entrants::id, entrants::first_round))
        .load::<(i32, i32)>(conn)?
        .into_iter()
        .map(|(id, r)| (id, u32::try_from(r).unwrap_or(1)))
        .collect();
    Ok((entrants, first_round))
}

impl StandingsData {
    /// The data as of round `round` (default: the latest, the last round with a result): the
    /// one place where later rounds are cut off. The lines are those of rounds 1..=`round`;
    /// the standings count rounds 1..=`after_round` of them (`round`, or the last round with a
    /// result when that is earlier; at least round 1 when a round is asked for).
    pub fn as_of(&self, round: Option<u32>) -> AsOf {
        let after_round = round.unwrap_or(self.last_round).min(self.last_round.max(1));
        let lines: Vec<GameLine> = self
            .lines
            .iter()
            .filter(|l| round.is_none_or(|n| u32::try_from(l.game.round_number).is_ok_and(|r| r <= n)))
            .cloned()
            .collect();
        let record = self.record(&lines, after_round);
        AsOf { after_round, lines, record, entrants: self.entrants.clone() }
    }

    /// The standings' record of `lines` as of `after_round` (cut again by
    /// [`ds::Record::as_of`], which keeps rounds 1..=`after_round` only).
    fn record(&self, lines: &[GameLine], after_round: u32) -> ds::Record {
        let id = |v: i32| u32::try_from(v).unwrap_or(0);
        let mut history = History::default();
        let mut warnings = Vec::new();
        for l in lines {
            let g = &l.game;
            let round = id(g.round_number);
            if let Some(r) = &l.result {
                // The sheet's warnings are of the played colours.
                let (black, white) = l.played();
                for (p, w) in [(black, r.warnings_black), (white, r.warnings_white)] {
                    if let (Some(p), Ok(count @ 1..)) = (p, u32::try_from(w)) {
                        warnings.push(ds::Warning { round, player: id(p), count });
                    }
                }
            }
            if let Some(p) = l.bye_player() {
                if l.is_bye() {
                    history.byes.push(ByeRecord { round, player: id(p) });
                }
                continue;
            }
            let (Some(b), Some(w)) = (g.black_id, g.white_id) else { continue };
            if let Some(result) = l.pairing_result() {
                let played_swapped = g.played_swapped;
                let colours_unsettled = g.nigiri_pending().is_some();
                history.games.push(PlayedGame {
                    played_swapped,
                    colours_unsettled,
                    ..PlayedGame::new(round, id(b), id(w), result)
                });
            }
        }
        let players: Vec<ds::Entrant> = self
            .entrants
            .iter()
            .map(|e| ds::Entrant {
                id: id(e.id),
                rank_value: e.rank_value,
                first_round: self.first_round.get(&e.id).copied().unwrap_or(1),
            })
            .collect();
        ds::Record::as_of(after_round, &players, &history, &warnings)
    }
}

/// The standings of `data` (as the public pages and the printed standings, crosstable and
/// EGF file show them): the one computation of [`domain::standings`], over the data as
/// of one round.
/// Players who share a place are listed in the event's name order (pinyin or strokes).
pub fn standings_of(t: &tdb::TournamentRow, data: &AsOf) -> ds::Standings {
    rank(t, data.record(), &data.entrants)
}

/// The latest standings of `data`: the same as `standings_of(t, &data.as_of(None))`, without
/// copying every game line (the public snapshot of a 10,000-player event builds it after every
/// write).
pub fn latest_standings(t: &tdb::TournamentRow, data: &StandingsData) -> ds::Standings {
    rank(t, &data.record(&data.lines, data.last_round), &data.entrants)
}

/// The standings of `record`; players who share a place in the event's name order. Only
/// those names are read for their sort key (pinyin of 10,000 names was a third of the work).
fn rank(t: &tdb::TournamentRow, record: &ds::Record, entrants: &[EntrantRow]) -> ds::Standings {
    let s = t.settings();
    let settings = ds::Settings::of(&s, u64::try_from(t.lots_seed).unwrap_or(0));
    let mut st = ds::compute(record, &settings);
    let by_id: HashMap<u32, &EntrantRow> =
        entrants.iter().filter_map(|e| Some((u32::try_from(e.id).ok()?, e))).collect();
    st.order_equals_by(|id| by_id.get(&id).map(|e| domain::names::sort_key(&e.name(), s.name_order)));
    st
}

/// All entrants of a tournament by id (for names on lists).
pub fn entrants_by_id(conn: &mut Conn, tid: i32) -> Result<HashMap<i32, EntrantRow>, DbError> {
    let v: Vec<EntrantRow> =
        entrants::table.filter(entrants::tournament_id.eq(tid)).select(EntrantRow::as_select()).load(conn)?;
    Ok(v.into_iter().map(|e| (e.id, e)).collect())
}

/// The rulings that stand of a tournament's games, by game (proposals waiting for the chief
/// arbiter are no one's business outside the office).
pub fn rulings_by_game(conn: &mut Conn, tid: i32) -> Result<HashMap<i32, Vec<RulingRow>>, DbError> {
    let v: Vec<RulingRow> = rulings::table
        .filter(rulings::tournament_id.eq(tid))
        .filter(rulings::pending.eq(false))
        .order(rulings::id)
        .select(RulingRow::as_select())
        .load(conn)?;
    let mut m: HashMap<i32, Vec<RulingRow>> = HashMap::new();
    for r in v {
        m.entry(r.game_id).or_default().push(r);
    }
    Ok(m)
}

/// The highest published round that has games.
pub fn current_round(conn: &mut Conn, tid: i32) -> Result<Option<i32>, DbError> {
    let nums = published_numbers(conn, tid)?;
    Ok(games::table
        .filter(games::tournament_id.eq(tid))
        .filter(games::round_number.eq_any(nums))
        .select(diesel::dsl::max(games::round_number))
        .first::<Option<i32>>(conn)?)
}

/// The stored record of a game, if any: (file name, text).
/// A stored record: its file name and its bytes as uploaded (records stored before the bytes
/// were kept: their UTF-8 text), with the encoding they are in.
pub struct StoredSgf {
    pub name: String,
    pub bytes: Vec<u8>,
    pub encoding: String,
}

pub fn sgf(conn: &mut Conn, tid: i32, gid: i32) -> Result<Option<StoredSgf>, DbError> {
    load_game(conn, tid, gid)?;
    type Row = (Option<String>, Option<String>, Option<Vec<u8>>, Option<String>);
    let r: Option<Row> = results::table
        .find(gid)
        .select((results::sgf_name, results::sgf, results::sgf_bytes, results::sgf_report))
        .first(conn)
        .optional()?;
    Ok(r.and_then(|(n, text, bytes, report)| {
        let name = n.unwrap_or_else(|| format!("game-{gid}.sgf"));
        // Only the encoding, which reports of every shape hold (empty in the oldest).
        #[derive(serde::Deserialize)]
        struct Encoding {
            #[serde(default)]
            encoding: String,
        }
        let encoding = report
            .and_then(|r| serde_json::from_str::<Encoding>(&r).ok())
            .map(|r| r.encoding)
            .filter(|e| !e.is_empty() && bytes.is_some())
            .unwrap_or_else(|| "UTF-8".to_string());
        let bytes = bytes.or_else(|| text.map(String::into_bytes))?;
        Some(StoredSgf { name, bytes, encoding })
    }))
}

/// A sheet's report of its record, typed, when it has a record. A report stored before the
/// reports were typed (English sentences) does not parse as [`SgfReport`]; the stored bytes
/// (kept as uploaded) are then checked again under the event's rules, so an old record's
/// report reads in the reader's language like a new one.
pub fn sgf_report(conn: &mut Conn, s: &Sheet, rules: &rules::RuleSet) -> Result<Option<SgfReport>, DbError> {
    let Some(row) = s.result.as_ref().filter(|r| r.sgf_name.is_some()) else { return Ok(None) };
    if let Some(report) = row.sgf_report() {
        return Ok(Some(report));
    }
    let stored = sgf(conn, s.game.tournament_id, row.game_id)?;
    Ok(stored.and_then(|rec| dr::check_sgf(rules, s.handicap(), &rec.bytes).ok()))
}

/// The games of a tournament that have a record attached.
pub fn games_with_sgf(conn: &mut Conn, tid: i32) -> Result<Vec<i32>, DbError> {
    Ok(results::table
        .filter(results::tournament_id.eq(tid))
        .filter(results::sgf.is_not_null())
        .select(results::game_id)
        .load(conn)?)
}
