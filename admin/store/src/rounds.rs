//! Rounds and their games: drafts, the pairing of the next round, manual edits, publish and
//! unpublish, nigiri outcomes, played colours, absences and fixed tables.
//!
//! Every write takes an [`Actor`] and writes its audit row in the same `immediate_transaction`;
//! an edit made on a page of an older `version` is refused ([`RoundError::Stale`]), never merged.
//! Pairing itself is pure ([`domain::rounds`]) and its use case is the office's
//! (`admin::office::pair_round`): this module reads its inputs ([`read_inputs`]) and writes
//! the draft with its audit rows ([`write_draft`]).
//!
//! Storage conventions (migration `2026-11-30-000100_rounds_pairing`):
//! - a round row with `published = 0` is a draft (`status` spells it out);
//! - `games.board` is the table number; `black_id`/`white_id` are the **assigned** colours;
//! - a bye is a game row with `white_id` NULL, `board` 0 and result [`BYE_RESULT`] (the
//!   convention of the OpenGotha import), so a knockout round may hold several;
//! - results are the `result` text as the OpenGotha import stores them today. Two functions
//!   know that format: [`result_entered`] (used by [`any_result_entered`]) and [`result_of`]
//!   (used by [`history`]). Switching to structured results means changing those two.

use std::collections::{HashMap, HashSet};

use super::Conn;
use diesel::prelude::*;
use serde::Serialize;

use super::audit::{self, AuditAction, Change};
use super::entrants::{self as edb, EntrantRow, Sort};
use super::schema::{entrants, games, results, round_absences, rounds, rulings};
use super::tournaments::{self as tdb, TournamentRow};
use super::{now, Actor, DbError};
use domain::draw::lots::DrawRecord;
use domain::draw::nigiri::{self, Guess, NigiriRecord, NigiriRoles};
use domain::pairing::review::Warning;
use domain::pairing::{self as p, ByeRecord, GameResult, History, PlayedGame, Player, PlayerId, Status};
use domain::rounds::{self as dr, ColourSource, EditError, NigiriState, Plan, PlanError, TableGame};
use domain::settings::{System, TournamentSettings};

/// The result text of a bye row.
pub const BYE_RESULT: &str = "BYE";
/// `rounds.system` of rounds read from a file.
pub const SYSTEM_IMPORT: &str = "import";

#[derive(Debug, Clone, Queryable, Selectable, Serialize)]
#[diesel(table_name = rounds)]
pub struct RoundRow {
    pub id: i32,
    pub tournament_id: i32,
    pub number: i32,
    pub published: bool,
    pub published_at: Option<String>,
    pub seed: Option<String>,
    pub draws: String,
    pub system: String,
    pub plan: String,
    pub version: i32,
    pub created_at: Option<String>,
    pub updated_at: Option<String>,
    /// The hall number of the group's table 1 in this round ([`crate::hall`]).
    pub hall_first: i32,
}

impl RoundRow {
    /// The hall number of this round's table `table` (0, a bye's, stays 0).
    pub fn hall_number(&self, table: u32) -> u32 {
        domain::hall::hall_number(self.hall_first, table)
    }
    pub fn seed(&self) -> Option<u64> {
        self.seed.as_deref().and_then(|s| s.parse().ok())
    }
    pub fn draws(&self) -> Vec<DrawRecord> {
        serde_json::from_str(&self.draws).unwrap_or_default()
    }
    pub fn plan(&self) -> Plan {
        serde_json::from_str(&self.plan).unwrap_or_default()
    }
    /// The system that paired it (`None` for imported rounds).
    pub fn system(&self) -> Option<System> {
        System::from_code(&self.system)
    }
}

#[derive(Debug, Clone, Queryable, Selectable, Serialize)]
#[diesel(table_name = games)]
pub struct RoundGame {
    pub id: i32,
    pub tournament_id: i32,
    pub round_number: i32,
    pub board: i32,
    pub black_id: Option<i32>,
    pub white_id: Option<i32>,
    pub handicap: i32,
    pub result: String,
    pub played_swapped: bool,
    pub colour_method: String,
    pub nigiri_holder_id: Option<i32>,
    pub nigiri_guesser_id: Option<i32>,
    pub nigiri: Option<String>,
    pub komi_q: Option<i32>,
    pub nominal_winner_id: Option<i32>,
    pub nominal_lot: Option<String>,
    pub pairing_version: i32,
    /// The game this one replays (重赛, rules.md §9); `None` for a game of the pairing.
    pub replay_of: Option<i32>,
}

#[derive(serde::Deserialize, Serialize)]
struct StoredNigiri {
    reason: nigiri::RoleReason,
    record: Option<NigiriRecord>,
}

impl RoundGame {
    pub fn is_bye(&self) -> bool {
        self.white_id.is_none()
    }
    /// A replay (重赛) is played at its table apart from the round's pairing: it is no pairing
    /// of its own (no review, no table numbering, no edit), and the pairing history counts it
    /// in place of the game it replays.
    pub fn is_replay(&self) -> bool {
        self.replay_of.is_some()
    }
    /// The players as they sat: (Black, White), the assigned ones swapped when the game was
    /// played with the colours swapped (rules.md §4.3). A result sheet is in these colours.
    pub fn played(&self) -> (Option<i32>, Option<i32>) {
        if self.played_swapped {
            (self.white_id, self.black_id)
        } else {
            (self.black_id, self.white_id)
        }
    }
    pub fn colours(&self) -> ColourSource {
        ColourSource::from_code(&self.colour_method)
    }
    pub fn nigiri_state(&self) -> Option<NigiriState> {
        let (holder, guesser) = (self.nigiri_holder_id?, self.nigiri_guesser_id?);
        let stored: StoredNigiri = serde_json::from_str(self.nigiri.as_deref()?).ok()?;
        Some(NigiriState {
            holder: pid(holder),
            guesser: pid(guesser),
            reason: stored.reason,
            record: stored.record,
        })
    }
    /// The board's nigiri, while it is still to be made (its colours only provisional).
    pub fn nigiri_pending(&self) -> Option<NigiriState> {
        self.nigiri_state().filter(|n| n.record.is_none())
    }
    pub fn nominal_lot(&self) -> Option<DrawRecord> {
        serde_json::from_str(self.nominal_lot.as_deref()?).ok()
    }
    /// The game as the workflow sees it (`None` for a bye and for a replay, which is not part
    /// of the round's pairing).
    pub fn table_game(&self, komi_q: i32) -> Option<TableGame> {
        if self.is_replay() {
            return None;
        }
        self.board_game(komi_q)
    }
    /// The game at its board, a replay included (`None` for a bye): what printed sheets show.
    pub fn board_game(&self, komi_q: i32) -> Option<TableGame> {
        Some(TableGame {
            table: u32::try_from(self.board).unwrap_or(0),
            black: pid(self.black_id?),
            white: pid(self.white_id?),
            handicap: u8::try_from(self.handicap).unwrap_or(0),
            colours: self.colours(),
            nigiri: self.nigiri_state(),
            komi_q: self.komi_q.unwrap_or(komi_q),
        })
    }
}

/// Entrant ids are positive `i32`s; pairing ids are their `u32` values.
pub fn pid(id: i32) -> PlayerId {
    u32::try_from(id).unwrap_or(0)
}

pub fn eid(id: PlayerId) -> i32 {
    i32::try_from(id).unwrap_or(i32::MAX)
}

// ---------------------------------------------------------------------------------------------
// Results: the only two functions that know how a result is stored.

/// Whether a game's stored result counts as entered: '' and RESULT_UNKNOWN do not, and a
/// bye's [`BYE_RESULT`] is not a result either. THE check the workflow uses (unpublish, nigiri
/// corrections); when results get their own columns, change this and [`result_of`].
pub fn result_entered(result: &str) -> bool {
    !matches!(result.trim(), "" | "RESULT_UNKNOWN" | BYE_RESULT)
}

/// Whether anything on game `g`'s sheet names a colour — a result entered (also one cleared
/// into a replay: the replay game exists), a ruling, a decided outcome on the sheet — so that
/// its colours (a nigiri correction, colours marked swapped) can no longer change under it.
fn sheet_started(conn: &mut Conn, g: &RoundGame) -> Result<bool, DbError> {
    if result_entered(&g.result) {
        return Ok(true);
    }
    let decided: i64 = results::table
        .filter(results::game_id.eq(g.id))
        .filter(results::outcome.is_not_null())
        .count()
        .get_result(conn)?;
    let ruled: i64 = rulings::table.filter(rulings::game_id.eq(g.id)).count().get_result(conn)?;
    let replayed: i64 = games::table.filter(games::replay_of.eq(g.id)).count().get_result(conn)?;
    Ok(decided + ruled + replayed > 0)
}

/// Has any result been entered in round `n`? (Byes do not count.)
pub fn any_result_entered(conn: &mut Conn, tid: i32, n: i32) -> Result<bool, DbError> {
    let results: Vec<String> = games::table
        .filter(games::tournament_id.eq(tid))
        .filter(games::round_number.eq(n))
        .filter(games::white_id.is_not_null())
        .select(games::result)
        .load(conn)?;
    Ok(results.iter().any(|r| result_entered(r)))
}

/// The pairing's reading of a stored result. Today the `result` column holds OpenGotha's codes
/// (as the OpenGotha import writes them) or '' for none. `_BYDEF` results were not played on
/// the board. OpenGotha's RESULT_BOTHWIN has no counterpart in the Chinese rules or the pairing
/// engine; it is read as a draw (both sides score), the nearest the engine can express.
pub fn result_of(code: &str) -> GameResult {
    match code.trim() {
        "RESULT_BLACKWINS" => GameResult::BlackWins,
        "RESULT_WHITEWINS" => GameResult::WhiteWins,
        "RESULT_EQUAL" | "RESULT_EQUAL_BYDEF" | "RESULT_BOTHWIN" | "RESULT_BOTHWIN_BYDEF" => GameResult::Draw,
        "RESULT_BOTHLOSE" => GameResult::DoubleLoss,
        "RESULT_BLACKWINS_BYDEF" => GameResult::BlackWinsByForfeit,
        "RESULT_WHITEWINS_BYDEF" => GameResult::WhiteWinsByForfeit,
        "RESULT_BOTHLOSE_BYDEF" => GameResult::DoubleForfeit,
        _ => GameResult::NoResult,
    }
}

/// The games of `rows` that were replayed (重赛): each is represented by its replay, which
/// holds the result; a list shows it marked as replayed.
pub fn replayed(rows: &[RoundGame]) -> HashSet<i32> {
    rows.iter().filter_map(|g| g.replay_of).collect()
}

/// THE adapter from the games table to the pairing's [`History`]: every game and bye of the
/// rounds before `round`, with the assigned colours, the played-swapped flag and a double-loss
/// nominal winner already drawn. Results are read by [`result_of`]. A game that was replayed
/// (重赛) is represented by its replay (the last of the chain): one game per table and round.
/// The groups the organizer listed as not to meet come with it ([`crate::forbidden`]).
pub fn history(conn: &mut Conn, tid: i32, round: i32) -> Result<History, DbError> {
    let rows: Vec<RoundGame> = games::table
        .filter(games::tournament_id.eq(tid))
        .filter(games::round_number.lt(round))
        .order((games::round_number, games::board, games::id))
        .select(RoundGame::as_select())
        .load(conn)?;
    let replayed = replayed(&rows);
    let avoid = crate::forbidden::list(conn, tid)?
        .into_iter()
        .map(|g| p::avoid::Avoidance {
            label: g.setup.label,
            members: g.setup.members.into_iter().map(pid).collect(),
            until_round: g.setup.until_round,
        })
        .collect();
    let mut h = History { avoid, ..History::default() };
    for g in rows.into_iter().filter(|g| !replayed.contains(&g.id)) {
        let r = u32::try_from(g.round_number).unwrap_or(0);
        match (g.black_id, g.white_id) {
            (Some(b), None) => h.byes.push(ByeRecord { round: r, player: pid(b) }),
            (Some(b), Some(w)) => h.games.push(PlayedGame {
                round: r,
                black: pid(b),
                white: pid(w),
                result: result_of(&g.result),
                played_swapped: g.played_swapped,
                nominal_winner: g.nominal_winner_id.map(pid),
                colours_unsettled: g.nigiri_pending().is_some(),
            }),
            _ => {}
        }
    }
    Ok(h)
}

// ---------------------------------------------------------------------------------------------
// Reading

pub fn list(conn: &mut Conn, tid: i32) -> Result<Vec<RoundRow>, DbError> {
    Ok(rounds::table
        .filter(rounds::tournament_id.eq(tid))
        .order(rounds::number)
        .select(RoundRow::as_select())
        .load(conn)?)
}

pub fn get(conn: &mut Conn, tid: i32, n: i32) -> Result<RoundRow, DbError> {
    rounds::table
        .filter(rounds::tournament_id.eq(tid))
        .filter(rounds::number.eq(n))
        .select(RoundRow::as_select())
        .first(conn)
        .optional()?
        .ok_or(DbError::NotFound)
}

/// A published round (a draft is not public: NotFound).
pub fn get_published(conn: &mut Conn, tid: i32, n: i32) -> Result<RoundRow, DbError> {
    let r = get(conn, tid, n)?;
    if r.published {
        Ok(r)
    } else {
        Err(DbError::NotFound)
    }
}

/// The games of round `n` by table; byes last.
pub fn games_of(conn: &mut Conn, tid: i32, n: i32) -> Result<Vec<RoundGame>, DbError> {
    let mut v: Vec<RoundGame> = games::table
        .filter(games::tournament_id.eq(tid))
        .filter(games::round_number.eq(n))
        .order((games::board, games::id))
        .select(RoundGame::as_select())
        .load(conn)?;
    v.sort_by_key(|g| (g.is_bye(), g.board, g.id));
    Ok(v)
}

/// The games of every published round, by round and table (byes last in each round).
pub fn published_games(conn: &mut Conn, tid: i32) -> Result<Vec<RoundGame>, DbError> {
    let published: HashSet<i32> = list(conn, tid)?.iter().filter(|r| r.published).map(|r| r.number).collect();
    let mut v: Vec<RoundGame> =
        games::table.filter(games::tournament_id.eq(tid)).select(RoundGame::as_select()).load(conn)?;
    v.retain(|g| published.contains(&g.round_number));
    v.sort_by_key(|g| (g.round_number, g.is_bye(), g.board, g.id));
    Ok(v)
}

/// Marks `eid` absent for round `n` (not paired, no bye), stamped `at`; the caller writes the
/// audit row. The attendance sheet and check-in's closing both write an absence this way.
pub(crate) fn insert_absence(conn: &mut Conn, tid: i32, n: i32, eid: i32, at: &str) -> Result<(), DbError> {
    diesel::insert_into(round_absences::table)
        .values((
            round_absences::tournament_id.eq(tid),
            round_absences::round_number.eq(n),
            round_absences::entrant_id.eq(eid),
            round_absences::created_at.eq(at),
        ))
        .execute(conn)?;
    Ok(())
}

/// Entrants absent in round `n`.
pub fn absences(conn: &mut Conn, tid: i32, n: i32) -> Result<HashSet<i32>, DbError> {
    Ok(round_absences::table
        .filter(round_absences::tournament_id.eq(tid))
        .filter(round_absences::round_number.eq(n))
        .select(round_absences::entrant_id)
        .load::<i32>(conn)?
        .into_iter()
        .collect())
}

/// Every absence of a tournament: (round, entrant).
pub fn all_absences(conn: &mut Conn, tid: i32) -> Result<Vec<(i32, i32)>, DbError> {
    Ok(round_absences::table
        .filter(round_absences::tournament_id.eq(tid))
        .select((round_absences::round_number, round_absences::entrant_id))
        .load(conn)?)
}

/// Per entrant: (fixed table, first round).
pub fn entrant_extras(conn: &mut Conn, tid: i32) -> Result<HashMap<i32, (Option<i32>, i32)>, DbError> {
    let rows: Vec<(i32, Option<i32>, i32)> = entrants::table
        .filter(entrants::tournament_id.eq(tid))
        .select((entrants::id, entrants::fixed_table, entrants::first_round))
        .load(conn)?;
    Ok(rows.into_iter().map(|(id, f, r)| (id, (f, r))).collect())
}

/// The pairing numbers (编号) of a tournament's entrants: 1, 2, 3… in order of entry (entrant
/// id), withdrawn entrants included. Every lot names its candidates by these numbers, and the
/// entrant lists and public pairings show them. Entrants are never deleted while rounds
/// exist (an import that replaces the field deletes its rounds too), and a new entrant gets
/// the next number, so a number never changes once a draw names it.
pub fn pairing_numbers(entrants: &[EntrantRow]) -> HashMap<i32, u32> {
    let mut ids: Vec<i32> = entrants.iter().map(|e| e.id).collect();
    ids.sort_unstable();
    ids.into_iter().zip(1u32..).collect()
}

/// [`pairing_numbers`] of tournament `tid`.
pub fn numbers_of(conn: &mut Conn, tid: i32) -> Result<HashMap<i32, u32>, DbError> {
    Ok(pairing_numbers(&edb::list(conn, tid, "", Sort::Id)?))
}

/// Everything the pairing of round `round` reads, loaded at once.
pub struct Context {
    pub t: TournamentRow,
    pub settings: TournamentSettings,
    pub psettings: p::Settings,
    pub entrants: Vec<EntrantRow>,
    /// Per entrant: (fixed table, first round).
    pub extras: HashMap<i32, (Option<i32>, i32)>,
    pub absent: HashSet<i32>,
    /// Every entrant as pairing sees them in this round (withdrawn and absent ones included).
    pub players: Vec<Player>,
    pub history: History,
    pub round: i32,
}

impl Context {
    pub fn system(&self) -> System {
        self.settings.system
    }
    pub fn entrant(&self, id: PlayerId) -> Option<&EntrantRow> {
        self.entrants.iter().find(|e| pid(e.id) == id)
    }
    pub fn fixed_tables(&self) -> HashMap<PlayerId, u32> {
        self.extras
            .iter()
            .filter_map(|(id, (f, _))| f.and_then(|t| u32::try_from(t).ok()).map(|t| (pid(*id), t)))
            .collect()
    }
    pub fn komi_q(&self) -> i32 {
        self.settings.ruleset.komi_q
    }
    /// Table numbers for the round's games: score, then rank, then the fixed tables
    /// ([`dr::number_tables`]).
    pub fn number_tables(
        &self,
        seed: u64,
        games: &mut [TableGame],
    ) -> Result<Vec<PlayerId>, p::PairingError> {
        let scores = self.scores(seed)?;
        let ranks: HashMap<PlayerId, i32> = self.players.iter().map(|pl| (pl.id, pl.rank_value)).collect();
        let score = |id: PlayerId| scores.get(&id).map(|s| s.score).unwrap_or(0);
        let rank = |id: PlayerId| ranks.get(&id).copied().unwrap_or(i32::MIN);
        Ok(dr::number_tables(games, &score, &rank, &self.fixed_tables()))
    }
    /// Scores before this round (official and for pairing).
    pub fn scores(&self, seed: u64) -> Result<HashMap<PlayerId, dr::Scores>, p::PairingError> {
        dr::scores(self.system(), &self.players, &self.history, &self.psettings, self.round as u32, seed)
    }
    pub fn review(
        &self,
        seed: u64,
        games: &[TableGame],
        byes: &[PlayerId],
    ) -> Result<Vec<Warning>, p::PairingError> {
        dr::review(
            self.system(),
            &self.players,
            &self.history,
            &self.psettings,
            self.round as u32,
            seed,
            games,
            byes,
        )
    }
}

pub fn context(conn: &mut Conn, tid: i32, round: i32) -> Result<Context, DbError> {
    let t = tdb::get(conn, tid)?;
    let settings = t.settings();
    let psettings = dr::pairing_settings(&settings);
    let entrants = edb::list(conn, tid, "", Sort::Id)?;
    let extras = entrant_extras(conn, tid)?;
    let absent = absences(conn, tid, round)?;
    let numbers = pairing_numbers(&entrants);
    let players = entrants
        .iter()
        .map(|e| {
            let (_, first) = extras.get(&e.id).copied().unwrap_or((None, 1));
            let status = if e.withdrawn() {
                Status::Withdrawn
            } else if absent.contains(&e.id) || first > round {
                Status::Absent
            } else {
                Status::Active
            };
            let birth = e
                .birth_date
                .as_deref()
                .and_then(|d| chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d").ok())
                .map(|d| chrono::Datelike::num_days_from_ce(&d));
            Player {
                id: pid(e.id),
                number: numbers.get(&e.id).copied().unwrap_or(0),
                rank_value: e.rank_value,
                rating: e.rating,
                unit: e.unit.clone(),
                birth_date: birth,
                status,
                entry_points: dr::entry_points(
                    u32::try_from(first).unwrap_or(1),
                    settings.late_entry,
                    &psettings.points,
                ),
            }
        })
        .collect();
    let history = history(conn, tid, round)?;
    Ok(Context { t, settings, psettings, entrants, extras, absent, players, history, round })
}

// ---------------------------------------------------------------------------------------------
// Errors

/// Why a round change was refused.
#[derive(Debug)]
pub enum RoundError {
    /// The page was of an older version of the round.
    Stale {
        current: i32,
    },
    /// The round is published: its pairing is locked.
    Published,
    /// The round is a draft (unpublish, played colours).
    NotPublished,
    /// A result has been entered in the round.
    HasResults,
    /// The game's sheet already names its colours (a result, a ruling, a replay ordered): its
    /// colours cannot change under it.
    SheetStarted,
    /// The event changed while the round was being paired, every time it was paired again
    /// (`admin::office::pair_round::PAIR_ATTEMPTS`): nothing was written.
    Changed,
    /// Round `number` exists and is a draft: publish (or delete) it first.
    PreviousDraft {
        number: i32,
    },
    /// Only the next round can be paired.
    NotNext {
        next: i32,
    },
    /// The tournament declares fewer rounds.
    BeyondRounds {
        rounds: i32,
    },
    /// A later round is published.
    LaterRound {
        number: i32,
    },
    /// The game has no nigiri, or it was already performed.
    NoNigiri,
    NigiriDone,
    /// A value the domain refuses (e.g. a nigiri grab of no stones).
    Invalid(String),
    /// Games of earlier rounds have no result: pairing needs the user's confirmation (the
    /// warnings say how many, per round). Nothing was written.
    OpenGames(Vec<Warning>),
    Plan(PlanError),
    Edit(EditError),
    Pairing(p::PairingError),
    Db(DbError),
}

db_variant!(RoundError);
impl From<dr::PairRefusal> for RoundError {
    fn from(e: dr::PairRefusal) -> Self {
        match e {
            dr::PairRefusal::Published => RoundError::Published,
            dr::PairRefusal::Stale { current } => RoundError::Stale { current },
            dr::PairRefusal::NotNext { next } => RoundError::NotNext { next },
            dr::PairRefusal::PreviousDraft { number } => RoundError::PreviousDraft { number },
            dr::PairRefusal::BeyondRounds { rounds } => RoundError::BeyondRounds { rounds },
        }
    }
}
impl From<p::PairingError> for RoundError {
    fn from(e: p::PairingError) -> Self {
        RoundError::Pairing(e)
    }
}

// ---------------------------------------------------------------------------------------------
// Writing

/// One game in an audit snapshot: (table, black, white, handicap, colour method).
type GameSnap<'a> = (i32, Option<i32>, Option<i32>, i32, &'a str);

/// What the audit trail keeps of a round.
#[derive(Serialize)]
struct Snapshot<'a> {
    round: i32,
    version: i32,
    published: bool,
    seed: Option<&'a str>,
    system: &'a str,
    games: Vec<GameSnap<'a>>,
    byes: Vec<i32>,
    /// The hall number of table 1 (left out at 1: a single group's round says nothing new).
    #[serde(skip_serializing_if = "is_one")]
    hall_first: i32,
}

fn is_one(v: &i32) -> bool {
    *v == 1
}

fn snapshot<'a>(r: &'a RoundRow, games: &'a [RoundGame]) -> Snapshot<'a> {
    Snapshot {
        round: r.number,
        version: r.version,
        published: r.published,
        seed: r.seed.as_deref(),
        system: &r.system,
        games: games
            .iter()
            .filter(|g| !g.is_bye())
            .map(|g| (g.board, g.black_id, g.white_id, g.handicap, g.colour_method.as_str()))
            .collect(),
        byes: games.iter().filter(|g| g.is_bye()).filter_map(|g| g.black_id).collect(),
        hall_first: r.hall_first,
    }
}

fn stored_nigiri(n: &Option<NigiriState>) -> (Option<i32>, Option<i32>, Option<String>) {
    match n {
        Some(n) => (
            Some(eid(n.holder)),
            Some(eid(n.guesser)),
            serde_json::to_string(&StoredNigiri { reason: n.reason, record: n.record }).ok(),
        ),
        None => (None, None, None),
    }
}

/// Rows of one multi-row `INSERT` of [`insert_games`].
const INSERT_CHUNK: usize = 500;

fn insert_games(
    conn: &mut Conn,
    tid: i32,
    n: i32,
    table_games: &[TableGame],
    byes: &[PlayerId],
) -> Result<(), DbError> {
    // Many rows per statement: the draft of a 10,000-player round is written inside the
    // write transaction, and one statement per game kept every other writer waiting for it.
    // 12 values a row stay far below SQLite's limit of bound values.
    for chunk in table_games.chunks(INSERT_CHUNK) {
        let rows: Vec<_> = chunk
            .iter()
            .map(|g| {
                let (holder, guesser, nig) = stored_nigiri(&g.nigiri);
                (
                    games::tournament_id.eq(tid),
                    games::round_number.eq(n),
                    games::board.eq(i32::try_from(g.table).unwrap_or(i32::MAX)),
                    games::black_id.eq(Some(eid(g.black))),
                    games::white_id.eq(Some(eid(g.white))),
                    games::handicap.eq(i32::from(g.handicap)),
                    games::result.eq(""),
                    games::colour_method.eq(g.colours.code()),
                    games::nigiri_holder_id.eq(holder),
                    games::nigiri_guesser_id.eq(guesser),
                    games::nigiri.eq(nig),
                    games::komi_q.eq(Some(g.komi_q)),
                )
            })
            .collect();
        // One multi-row INSERT: diesel's MultiBackend has no batch insert, so per engine.
        per_backend!(conn, |c| diesel::insert_into(games::table).values(rows).execute(c))?;
    }
    for chunk in byes.chunks(INSERT_CHUNK) {
        let rows: Vec<_> = chunk
            .iter()
            .map(|b| {
                (
                    games::tournament_id.eq(tid),
                    games::round_number.eq(n),
                    games::board.eq(0),
                    games::black_id.eq(Some(eid(*b))),
                    games::white_id.eq(None::<i32>),
                    games::handicap.eq(0),
                    games::result.eq(BYE_RESULT),
                )
            })
            .collect();
        // One multi-row INSERT: diesel's MultiBackend has no batch insert, so per engine.
        per_backend!(conn, |c| diesel::insert_into(games::table).values(rows).execute(c))?;
    }
    Ok(())
}

fn delete_games(conn: &mut Conn, tid: i32, n: i32) -> Result<(), DbError> {
    diesel::delete(games::table.filter(games::tournament_id.eq(tid)).filter(games::round_number.eq(n)))
        .execute(conn)?;
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn record<B: Serialize, A: Serialize>(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    action: AuditAction,
    entity_id: i32,
    before: Option<&B>,
    after: Option<&A>,
    reason: &str,
) -> Result<(), DbError> {
    audit::record(
        conn,
        actor,
        Change { tournament_id: Some(tid), action, entity_id: Some(entity_id), before, after, reason },
    )
}

/// How [`read_inputs`] treats earlier drafts.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The next round after published ones.
    Next,
    /// A round-robin schedule: later rounds may follow drafts.
    Schedule,
}

/// What pairing round `n` reads, checked: the round may be paired.
pub struct PairInputs {
    /// The tournament's change counter when these were read.
    pub changes: i32,
    /// The draft being paired again, if any.
    pub existing: Option<RoundRow>,
    /// Its games (for the audit row's "before").
    pub before_games: Vec<RoundGame>,
    pub ctx: Context,
    /// Round robin: round 1's plan; knockout: the previous round's bracket.
    pub previous_plan: Option<Plan>,
    /// Double-loss lots stored on the previous round's games.
    pub stored_lots: Vec<DrawRecord>,
    /// Games of earlier rounds without a result (none for a round-robin schedule, whose later
    /// rounds are drafted before the earlier are played).
    pub open: Vec<Warning>,
}

/// Reads what pairing round `n` needs, after [`dr::may_pair`] said the round may be paired
/// (the draft of `expected_version`, or the next round).
pub fn read_inputs(
    conn: &mut Conn,
    tid: i32,
    n: i32,
    expected_version: Option<i32>,
    mode: Mode,
) -> Result<PairInputs, RoundError> {
    let (changes, _) = tdb::change_stamp(conn, tid)?;
    let t = tdb::get(conn, tid)?;
    let all = list(conn, tid)?;
    let stored: Vec<dr::StoredRound> = all
        .iter()
        .map(|r| dr::StoredRound { number: r.number, published: r.published, version: r.version })
        .collect();
    dr::may_pair(&stored, n, t.rounds, expected_version, mode == Mode::Schedule)?;
    let existing = all.iter().find(|r| r.number == n).cloned();
    let ctx = context(conn, tid, n)?;
    let previous_plan = match ctx.system() {
        System::RoundRobin if n > 1 => all.iter().find(|r| r.number == 1).map(RoundRow::plan),
        System::Knockout if n > 1 => all.iter().find(|r| r.number == n - 1).map(RoundRow::plan),
        _ => None,
    };
    // A double-loss lot drawn by an earlier pairing of this round stands (the engine does
    // not draw it again): the round's draws show it all the same.
    let stored_lots = if ctx.psettings.double_loss_lot && n > 1 {
        games_of(conn, tid, n - 1)?.iter().filter_map(RoundGame::nominal_lot).collect()
    } else {
        Vec::new()
    };
    let before_games = games_of(conn, tid, n)?;
    let open = match mode {
        Mode::Next => domain::pairing::review::open_games(&ctx.history, u32::try_from(n).unwrap_or(0)),
        Mode::Schedule => Vec::new(),
    };
    Ok(PairInputs { changes, existing, before_games, ctx, previous_plan, stored_lots, open })
}

/// Writes the draft of round `n` (replacing the draft paired before, if any), the
/// double-loss lots it drew and the audit rows, in the caller's write transaction.
pub fn write_draft(
    conn: &mut Conn,
    actor: &Actor,
    inputs: &PairInputs,
    n: i32,
    seed: u64,
    draft: dr::Draft,
    reason: &str,
) -> Result<RoundRow, RoundError> {
    let ctx = &inputs.ctx;
    let tid = ctx.t.id;
    let system = ctx.system();
    let existing = &inputs.existing;
    delete_games(conn, tid, n)?;
    let t_now = now();
    let draws = serde_json::to_string(&draft.draws).unwrap_or_else(|_| "[]".into());
    let plan = serde_json::to_string(&draft.plan).unwrap_or_default();
    match &existing {
        Some(r) => {
            diesel::update(rounds::table.find(r.id))
                .set((
                    rounds::seed.eq(Some(seed.to_string())),
                    rounds::draws.eq(&draws),
                    rounds::system.eq(system.code()),
                    rounds::plan.eq(&plan),
                    rounds::version.eq(r.version + 1),
                    rounds::updated_at.eq(Some(&t_now)),
                ))
                .execute(conn)?;
        }
        None => {
            diesel::insert_into(rounds::table)
                .values((
                    rounds::tournament_id.eq(tid),
                    rounds::number.eq(n),
                    rounds::published.eq(false),
                    rounds::seed.eq(Some(seed.to_string())),
                    rounds::draws.eq(&draws),
                    rounds::system.eq(system.code()),
                    rounds::plan.eq(&plan),
                    rounds::version.eq(1),
                    rounds::created_at.eq(Some(&t_now)),
                    rounds::updated_at.eq(Some(&t_now)),
                ))
                .execute(conn)?;
        }
    }
    insert_games(conn, tid, n, &draft.games, &draft.byes)?;
    crate::hall::fix_first(conn, tid, n)?;

    // The double-loss lots (rules.md §12): stored on the game they decide, for this pairing.
    for (a, b, winner, rec) in dr::double_loss_lots(&draft.draws, &ctx.players) {
        let (a, b) = (eid(a), eid(b));
        let target = games::table
            .filter(games::tournament_id.eq(tid))
            .filter(games::round_number.eq(n - 1))
            .filter(
                (games::black_id.eq(a).and(games::white_id.eq(b)))
                    .or(games::black_id.eq(b).and(games::white_id.eq(a))),
            )
            .filter(games::nominal_winner_id.is_null());
        let gid: Option<i32> = target.select(games::id).first(conn).optional()?;
        let Some(gid) = gid else { continue };
        diesel::update(games::table.find(gid))
            .set((
                games::nominal_winner_id.eq(Some(eid(winner))),
                games::nominal_lot.eq(serde_json::to_string(&rec).ok()),
            ))
            .execute(conn)?;
        #[derive(Serialize)]
        struct Lot<'a> {
            round: i32,
            /// The two players (entrant ids), in pairing-number order.
            black: i32,
            white: i32,
            nominal_winner: i32,
            lot: &'a DrawRecord,
            note: &'static str,
        }
        let after = Lot {
            round: n - 1,
            black: a,
            white: b,
            nominal_winner: eid(winner),
            lot: &rec,
            note: "pairing of the next round only; the result stays a double loss",
        };
        record::<(), _>(conn, actor, tid, AuditAction::GameDoubleLossLot, gid, None, Some(&after), reason)?;
    }

    let row = get(conn, tid, n)?;
    let after_games = games_of(conn, tid, n)?;
    let (action, before) = match &existing {
        Some(r) => (AuditAction::RoundRepair, Some(snapshot(r, &inputs.before_games))),
        None => (AuditAction::RoundPair, None),
    };
    #[derive(Serialize)]
    struct After<'a> {
        #[serde(skip_serializing_if = "<[Warning]>::is_empty")]
        warnings_kept: &'a [Warning],
        #[serde(flatten)]
        round: Snapshot<'a>,
    }
    let after = After { warnings_kept: &inputs.open, round: snapshot(&row, &after_games) };
    record(conn, actor, tid, action, row.id, before.as_ref(), Some(&after), reason)?;
    Ok(row)
}

fn draft_for_edit(conn: &mut Conn, tid: i32, n: i32, version: i32) -> Result<RoundRow, RoundError> {
    let r = get(conn, tid, n)?;
    if r.published {
        return Err(RoundError::Published);
    }
    if r.version != version {
        return Err(RoundError::Stale { current: r.version });
    }
    Ok(r)
}

/// A manual change of a draft.
#[derive(Debug, Clone, Serialize)]
pub enum Edit {
    /// Exchange the places of two players.
    Swap { a: i32, b: i32 },
    /// Set the players and handicap of a table.
    Table { table: u32, black: i32, white: i32, handicap: u8 },
}

/// What became of an edit or a publish.
#[derive(Debug)]
pub enum Outcome {
    Saved {
        version: i32,
    },
    /// Nothing was written: these warnings (new ones, for an edit) need the user's
    /// confirmation.
    NeedsConfirmation {
        warnings: Vec<Warning>,
    },
}

/// Applies a manual edit to a draft, checked with the review warnings: a warning the draft
/// did not have before needs `confirm`; nothing is written without it.
#[allow(clippy::too_many_arguments)]
pub fn edit(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    n: i32,
    version: i32,
    edit: &Edit,
    confirm: bool,
    reason: &str,
) -> Result<Outcome, RoundError> {
    crate::write_tx(&mut *conn, |conn| {
        let r = draft_for_edit(conn, tid, n, version)?;
        let seed = r.seed().unwrap_or(0);
        let ctx = context(conn, tid, n)?;
        let rows = games_of(conn, tid, n)?;
        let komi = ctx.komi_q();
        let mut tg: Vec<TableGame> = rows.iter().filter_map(|g| g.table_game(komi)).collect();
        let mut byes: Vec<PlayerId> =
            rows.iter().filter(|g| g.is_bye()).filter_map(|g| g.black_id.map(pid)).collect();
        let before = ctx.review(seed, &tg, &byes)?;
        let touched = match edit {
            Edit::Swap { a, b } => {
                dr::swap_players(&mut tg, &mut byes, pid(*a), pid(*b)).map_err(RoundError::Edit)?
            }
            Edit::Table { table, black, white, handicap } => {
                dr::edit_table(&mut tg, &byes, *table, pid(*black), pid(*white), *handicap, komi)
                    .map_err(RoundError::Edit)?;
                vec![*table]
            }
        };
        // New pairs of an event with a handicap rule get the rule's handicap and komi.
        if matches!(edit, Edit::Swap { .. }) {
            let scores = ctx.scores(seed)?;
            let score = |id: PlayerId| scores.get(&id).map(|s| s.score).unwrap_or(0);
            dr::apply_handicap_rule(&mut tg, &touched, &ctx.players, &ctx.psettings, &score, komi);
        }
        // A nigiri event keeps nigiri: the new pairs get their roles (the event's rule).
        let mut draws = r.draws();
        if ctx.settings.colour_method == domain::settings::ColourMethod::Nigiri {
            let by_id: HashMap<PlayerId, &Player> = ctx.players.iter().map(|pl| (pl.id, pl)).collect();
            for g in
                tg.iter_mut().filter(|g| touched.contains(&g.table) && g.nigiri.is_none() && g.handicap == 0)
            {
                if let (Some(a), Some(b)) = (by_id.get(&g.black), by_id.get(&g.white)) {
                    dr::assign_nigiri(g, a, b, ctx.psettings.nigiri_rule(), seed, &mut draws);
                }
            }
        }
        let after = ctx.review(seed, &tg, &byes)?;
        if let Some(w) = after.iter().find(|w| dr::is_structural(w)) {
            let id = match w {
                Warning::PairedTwice { player } | Warning::UnknownPlayer { player } => *player,
                _ => 0,
            };
            return Err(RoundError::Edit(EditError::PairedTwice(id)));
        }
        let new: Vec<Warning> = after.iter().filter(|w| !before.contains(w)).cloned().collect();
        if !new.is_empty() && !confirm {
            return Ok(Outcome::NeedsConfirmation { warnings: new });
        }
        delete_games(conn, tid, n)?;
        insert_games(conn, tid, n, &tg, &byes)?;
        crate::hall::fix_first(conn, tid, n)?;
        let v = r.version + 1;
        diesel::update(rounds::table.find(r.id))
            .set((
                rounds::version.eq(v),
                rounds::draws.eq(serde_json::to_string(&draws).unwrap_or_else(|_| "[]".into())),
                rounds::updated_at.eq(Some(now())),
            ))
            .execute(conn)?;
        let row = get(conn, tid, n)?;
        let after_rows = games_of(conn, tid, n)?;
        #[derive(Serialize)]
        struct After<'a> {
            edit: &'a Edit,
            warnings_kept: &'a [Warning],
            #[serde(flatten)]
            round: Snapshot<'a>,
        }
        let action = match edit {
            Edit::Swap { .. } => AuditAction::RoundSwap,
            Edit::Table { .. } => AuditAction::RoundEdit,
        };
        record(
            conn,
            actor,
            tid,
            action,
            r.id,
            Some(&snapshot(&r, &rows)),
            Some(&After { edit, warnings_kept: &new, round: snapshot(&row, &after_rows) }),
            reason,
        )?;
        Ok(Outcome::Saved { version: v })
    })
}

/// Publishes a draft: tables numbered by score then rank with fixed tables, the round locked.
/// Review warnings need `confirm`. Earlier rounds must be published.
pub fn publish(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    n: i32,
    version: i32,
    confirm: bool,
    reason: &str,
) -> Result<Outcome, RoundError> {
    crate::write_tx(&mut *conn, |conn| {
        let r = draft_for_edit(conn, tid, n, version)?;
        if let Some(d) = list(conn, tid)?.iter().find(|x| x.number < n && !x.published) {
            return Err(RoundError::PreviousDraft { number: d.number });
        }
        let seed = r.seed().unwrap_or(0);
        let ctx = context(conn, tid, n)?;
        let rows = games_of(conn, tid, n)?;
        let komi = ctx.komi_q();
        let mut tg: Vec<TableGame> = rows.iter().filter_map(|g| g.table_game(komi)).collect();
        let byes: Vec<PlayerId> =
            rows.iter().filter(|g| g.is_bye()).filter_map(|g| g.black_id.map(pid)).collect();
        let warnings = ctx.review(seed, &tg, &byes)?;
        if !warnings.is_empty() && !confirm {
            return Ok(Outcome::NeedsConfirmation { warnings });
        }
        let by_pair: HashMap<(i32, i32), i32> =
            rows.iter().filter_map(|g| Some(((g.black_id?, g.white_id?), g.id))).collect();
        ctx.number_tables(seed, &mut tg)?;
        for g in &tg {
            if let Some(gid) = by_pair.get(&(eid(g.black), eid(g.white))) {
                diesel::update(games::table.find(*gid))
                    .set(games::board.eq(i32::try_from(g.table).unwrap_or(i32::MAX)))
                    .execute(conn)?;
            }
        }
        // The tables as numbered for good: the hall range is fixed with them, then never moves.
        crate::hall::fix_first(conn, tid, n)?;
        let v = r.version + 1;
        let t_now = now();
        diesel::update(rounds::table.find(r.id))
            .set((
                rounds::published.eq(true),
                rounds::published_at.eq(Some(&t_now)),
                rounds::version.eq(v),
                rounds::updated_at.eq(Some(&t_now)),
            ))
            .execute(conn)?;
        let row = get(conn, tid, n)?;
        let after_rows = games_of(conn, tid, n)?;
        #[derive(Serialize)]
        struct After<'a> {
            warnings_kept: &'a [Warning],
            #[serde(flatten)]
            round: Snapshot<'a>,
        }
        record(
            conn,
            actor,
            tid,
            AuditAction::RoundPublish,
            r.id,
            Some(&snapshot(&r, &rows)),
            Some(&After { warnings_kept: &warnings, round: snapshot(&row, &after_rows) }),
            reason,
        )?;
        Ok(Outcome::Saved { version: v })
    })
}

/// Back to draft, only while no result is entered ([`any_result_entered`]) and no later round
/// is published.
pub fn unpublish(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    n: i32,
    version: i32,
    reason: &str,
) -> Result<i32, RoundError> {
    crate::write_tx(&mut *conn, |conn| {
        let r = get(conn, tid, n)?;
        if !r.published {
            return Err(RoundError::NotPublished);
        }
        if r.version != version {
            return Err(RoundError::Stale { current: r.version });
        }
        if any_result_entered(conn, tid, n)? {
            return Err(RoundError::HasResults);
        }
        if let Some(later) = list(conn, tid)?.iter().find(|x| x.number > n && x.published) {
            return Err(RoundError::LaterRound { number: later.number });
        }
        let v = r.version + 1;
        diesel::update(rounds::table.find(r.id))
            .set((
                rounds::published.eq(false),
                rounds::published_at.eq(None::<String>),
                rounds::version.eq(v),
                rounds::updated_at.eq(Some(now())),
            ))
            .execute(conn)?;
        let rows = games_of(conn, tid, n)?;
        let row = get(conn, tid, n)?;
        record(
            conn,
            actor,
            tid,
            AuditAction::RoundUnpublish,
            r.id,
            Some(&snapshot(&r, &rows)),
            Some(&snapshot(&row, &rows)),
            reason,
        )?;
        Ok(v)
    })
}

/// Deletes a draft with its games.
pub fn delete_draft(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    n: i32,
    version: i32,
    reason: &str,
) -> Result<(), RoundError> {
    crate::write_tx(&mut *conn, |conn| {
        let r = draft_for_edit(conn, tid, n, version)?;
        let rows = games_of(conn, tid, n)?;
        delete_games(conn, tid, n)?;
        diesel::delete(rounds::table.find(r.id)).execute(conn)?;
        record::<_, ()>(
            conn,
            actor,
            tid,
            AuditAction::RoundDelete,
            r.id,
            Some(&snapshot(&r, &rows)),
            None,
            reason,
        )?;
        Ok(())
    })
}

fn game_in_round(conn: &mut Conn, tid: i32, n: i32, gid: i32) -> Result<RoundGame, DbError> {
    games::table
        .filter(games::tournament_id.eq(tid))
        .filter(games::round_number.eq(n))
        .filter(games::id.eq(gid))
        .select(RoundGame::as_select())
        .first(conn)
        .optional()?
        .ok_or(DbError::NotFound)
}

/// A nigiri outcome: entered by an arbiter from the board, or performed remotely.
#[derive(Debug, Clone, Copy)]
pub enum NigiriAction {
    Record {
        grab: u32,
        guess: Guess,
    },
    /// Drawn from the round's seed for this table (remote events).
    Remote,
}

/// Records a nigiri outcome of game `gid` (made on a page showing `pairing_version`): the
/// assigned colours follow it. A recorded outcome may be corrected until a result is entered;
/// a remote nigiri is performed once.
#[allow(clippy::too_many_arguments)]
pub fn nigiri(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    n: i32,
    gid: i32,
    pairing_version: i32,
    action: NigiriAction,
    reason: &str,
) -> Result<NigiriRecord, RoundError> {
    crate::write_tx(&mut *conn, |conn| {
        let r = get(conn, tid, n)?;
        let g = game_in_round(conn, tid, n, gid)?;
        if g.pairing_version != pairing_version {
            return Err(RoundError::Stale { current: g.pairing_version });
        }
        let Some(state) = g.nigiri_state() else { return Err(RoundError::NoNigiri) };
        if sheet_started(conn, &g)? {
            return Err(RoundError::SheetStarted);
        }
        let roles = NigiriRoles { holder: state.holder, guesser: state.guesser, reason: state.reason };
        let mut draws = r.draws();
        let rec = match action {
            NigiriAction::Record { grab, guess } => {
                nigiri::record_outcome(roles, grab, guess).map_err(RoundError::Invalid)?
            }
            NigiriAction::Remote => {
                if state.record.is_some() {
                    return Err(RoundError::NigiriDone);
                }
                let seed = dr::table_seed(r.seed().unwrap_or(0), u32::try_from(g.board).unwrap_or(0));
                // A random choice like every other: recorded with the round's lots.
                let numbers = numbers_of(conn, tid)?;
                let number = |id: PlayerId| numbers.get(&eid(id)).copied().unwrap_or(0);
                draws.push(nigiri::remote_record(number(roles.holder), number(roles.guesser), seed));
                nigiri::perform(roles, seed)
            }
        };
        let new_state = NigiriState { record: Some(rec), ..state };
        let (_, _, json) = stored_nigiri(&Some(new_state));
        diesel::update(games::table.find(gid))
            .set((
                games::black_id.eq(Some(eid(rec.black))),
                games::white_id.eq(Some(eid(rec.white))),
                games::nigiri.eq(json),
                games::pairing_version.eq(g.pairing_version + 1),
            ))
            .execute(conn)?;
        diesel::update(rounds::table.find(r.id))
            .set((
                rounds::version.eq(r.version + 1),
                rounds::draws.eq(serde_json::to_string(&draws).unwrap_or_else(|_| "[]".into())),
                rounds::updated_at.eq(Some(now())),
            ))
            .execute(conn)?;
        let after = game_in_round(conn, tid, n, gid)?;
        let what = match action {
            NigiriAction::Record { .. } => AuditAction::GameNigiri,
            NigiriAction::Remote => AuditAction::GameRemoteNigiri,
        };
        record(conn, actor, tid, what, gid, Some(&g), Some(&after), reason)?;
        Ok(rec)
    })
}

/// Marks that the players of a published game played the colours swapped (rules.md §4.3:
/// found after move 10, the game goes on; pairing keeps the assigned colours).
#[allow(clippy::too_many_arguments)]
pub fn set_played_swapped(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    n: i32,
    gid: i32,
    pairing_version: i32,
    swapped: bool,
    reason: &str,
) -> Result<(), RoundError> {
    crate::write_tx(&mut *conn, |conn| {
        let r = get(conn, tid, n)?;
        let g = game_in_round(conn, tid, n, gid)?;
        if !r.published {
            return Err(RoundError::NotPublished);
        }
        if g.pairing_version != pairing_version {
            return Err(RoundError::Stale { current: g.pairing_version });
        }
        if g.is_bye() {
            return Err(RoundError::NoNigiri);
        }
        // The result sheet is in the played colours and `games.result` credits the assigned
        // seats through this flag: once a result is entered it is cleared first (the same
        // rule as a nigiri correction).
        if sheet_started(conn, &g)? {
            return Err(RoundError::SheetStarted);
        }
        diesel::update(games::table.find(gid))
            .set((games::played_swapped.eq(swapped), games::pairing_version.eq(g.pairing_version + 1)))
            .execute(conn)?;
        let after = game_in_round(conn, tid, n, gid)?;
        record(conn, actor, tid, AuditAction::GamePlayedColours, gid, Some(&g), Some(&after), reason)?;
        Ok(())
    })
}

/// What an attendance form says for one round.
#[derive(Debug, Default)]
pub struct Attendance {
    /// Entrants marked absent.
    pub absent: HashSet<i32>,
    /// Fixed tables typed (`None`: cleared); entrants not in it keep theirs.
    pub fixed: HashMap<i32, Option<i32>>,
    /// The entrants the form showed (one page of them), `None` for all.
    pub scope: Option<HashSet<i32>>,
}

/// Absences for round `n` (entrants marked absent; the others present — of `scope` only,
/// when the form showed one page of entrants) and fixed tables, for a round not yet
/// published. One audit row per change. Returns the number of changes.
pub fn set_attendance(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    n: i32,
    change: &Attendance,
    reason: &str,
) -> Result<usize, RoundError> {
    let Attendance { absent, fixed, scope } = change;
    crate::write_tx(&mut *conn, |conn| {
        tdb::get(conn, tid)?;
        if let Ok(r) = get(conn, tid, n) {
            if r.published {
                return Err(RoundError::Published);
            }
        }
        let known: HashSet<i32> = edb::list(conn, tid, "", Sort::Id)?.iter().map(|e| e.id).collect();
        if absent.iter().chain(fixed.keys()).any(|id| !known.contains(id)) {
            return Err(RoundError::Db(DbError::NotFound));
        }
        let current = absences(conn, tid, n)?;
        let extras = entrant_extras(conn, tid)?;
        let mut changes = 0;
        #[derive(Serialize)]
        struct Absence {
            round: i32,
            absent: bool,
        }
        for id in absent.difference(&current) {
            insert_absence(conn, tid, n, *id, &now())?;
            let (b, a) = (Absence { round: n, absent: false }, Absence { round: n, absent: true });
            record(conn, actor, tid, AuditAction::EntrantAbsent, *id, Some(&b), Some(&a), reason)?;
            changes += 1;
        }
        // A paged form covers only its page's entrants (`scope`): absences of others stay.
        for id in current.difference(absent).filter(|id| scope.as_ref().is_none_or(|s| s.contains(id))) {
            diesel::delete(
                round_absences::table
                    .filter(round_absences::tournament_id.eq(tid))
                    .filter(round_absences::round_number.eq(n))
                    .filter(round_absences::entrant_id.eq(id)),
            )
            .execute(conn)?;
            let (b, a) = (Absence { round: n, absent: true }, Absence { round: n, absent: false });
            record(conn, actor, tid, AuditAction::EntrantPresent, *id, Some(&b), Some(&a), reason)?;
            changes += 1;
        }
        #[derive(Serialize)]
        struct Fixed {
            fixed_table: Option<i32>,
        }
        for (id, table) in fixed {
            let old = extras.get(id).and_then(|(f, _)| *f);
            if old == *table {
                continue;
            }
            diesel::update(entrants::table.find(id)).set(entrants::fixed_table.eq(table)).execute(conn)?;
            record(
                conn,
                actor,
                tid,
                AuditAction::EntrantFixedTable,
                *id,
                Some(&Fixed { fixed_table: old }),
                Some(&Fixed { fixed_table: *table }),
                reason,
            )?;
            changes += 1;
        }
        Ok(changes)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_codes_as_the_import_stores_them() {
        for (code, r) in [
            ("", GameResult::NoResult),
            ("RESULT_UNKNOWN", GameResult::NoResult),
            ("RESULT_BLACKWINS", GameResult::BlackWins),
            ("RESULT_WHITEWINS", GameResult::WhiteWins),
            ("RESULT_EQUAL", GameResult::Draw),
            ("RESULT_BOTHLOSE", GameResult::DoubleLoss),
            ("RESULT_BLACKWINS_BYDEF", GameResult::BlackWinsByForfeit),
            ("RESULT_WHITEWINS_BYDEF", GameResult::WhiteWinsByForfeit),
            ("RESULT_BOTHLOSE_BYDEF", GameResult::DoubleForfeit),
        ] {
            assert_eq!(result_of(code), r, "{code}");
        }
        assert!(!result_entered(""));
        assert!(!result_entered("RESULT_UNKNOWN"));
        assert!(!result_entered(BYE_RESULT));
        assert!(result_entered("RESULT_BOTHLOSE"));
    }
}
