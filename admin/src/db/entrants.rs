//! Entrants of a tournament: create, edit (with stale-edit refusal), withdraw, reinstate,
//! bulk import. Every write has its audit row in the same transaction.

use super::audit::{self, Change};
use super::schema::{entrants, games, rounds};
use super::{now, Actor, DbError};
use crate::domain::entrant::{EntrantInput, Rank, Sex};
use diesel::prelude::*;
use serde::Serialize;

#[derive(Debug, Clone, Queryable, Selectable, Serialize)]
#[diesel(table_name = entrants)]
pub struct EntrantRow {
    pub id: i32,
    pub tournament_id: i32,
    pub family_name_zh: String,
    pub given_name_zh: String,
    pub family_name_latin: String,
    pub given_name_latin: String,
    pub rank: String,
    pub rank_value: i32,
    pub rating: Option<i32>,
    pub unit: String,
    pub region: String,
    pub birth_date: Option<String>,
    pub sex: Option<String>,
    pub notes: String,
    pub status: String,
    pub version: i32,
    pub created_at: String,
    pub updated_at: String,
}

impl EntrantRow {
    pub fn name_zh(&self) -> String {
        format!("{}{}", self.family_name_zh, self.given_name_zh)
    }
    pub fn name_latin(&self) -> String {
        match (self.family_name_latin.is_empty(), self.given_name_latin.is_empty()) {
            (false, false) => format!("{} {}", self.family_name_latin, self.given_name_latin),
            _ => format!("{}{}", self.family_name_latin, self.given_name_latin),
        }
    }
    pub fn withdrawn(&self) -> bool {
        self.status == STATUS_WITHDRAWN
    }
    pub fn rank_parsed(&self) -> Option<Rank> {
        rank_from_code(&self.rank)
    }
    /// Back to the domain type (for edit forms and exports).
    pub fn input(&self) -> Option<EntrantInput> {
        Some(EntrantInput {
            family_name_zh: self.family_name_zh.clone(),
            given_name_zh: self.given_name_zh.clone(),
            family_name_latin: self.family_name_latin.clone(),
            given_name_latin: self.given_name_latin.clone(),
            rank: self.rank_parsed()?,
            rating: self.rating,
            unit: self.unit.clone(),
            region: self.region.clone(),
            birth_date: self
                .birth_date
                .as_deref()
                .and_then(|d| chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d").ok()),
            sex: self.sex.as_deref().and_then(sex_from_code),
            notes: self.notes.clone(),
        })
    }
}

pub const STATUS_ACTIVE: &str = "active";
pub const STATUS_WITHDRAWN: &str = "withdrawn";

pub fn sex_code(s: Sex) -> &'static str {
    match s {
        Sex::M => "m",
        Sex::F => "f",
    }
}

pub fn sex_from_code(s: &str) -> Option<Sex> {
    match s {
        "m" => Some(Sex::M),
        "f" => Some(Sex::F),
        _ => None,
    }
}

pub fn rank_code(r: &Rank) -> String {
    r.en()
}

pub fn rank_from_code(s: &str) -> Option<Rank> {
    Rank::parse(s).ok()
}

#[derive(Insertable, AsChangeset)]
#[diesel(table_name = entrants)]
#[diesel(treat_none_as_null = true)]
struct InputRow {
    family_name_zh: String,
    given_name_zh: String,
    family_name_latin: String,
    given_name_latin: String,
    rank: String,
    rank_value: i32,
    rating: Option<i32>,
    unit: String,
    region: String,
    birth_date: Option<String>,
    sex: Option<String>,
    notes: String,
}

impl InputRow {
    fn from(i: &EntrantInput) -> InputRow {
        InputRow {
            family_name_zh: i.family_name_zh.trim().to_string(),
            given_name_zh: i.given_name_zh.trim().to_string(),
            family_name_latin: i.family_name_latin.trim().to_string(),
            given_name_latin: i.given_name_latin.trim().to_string(),
            rank: rank_code(&i.rank),
            rank_value: i.rank.value(),
            rating: i.rating,
            unit: i.unit.trim().to_string(),
            region: i.region.trim().to_string(),
            birth_date: i.birth_date.map(|d| d.format("%Y-%m-%d").to_string()),
            sex: i.sex.map(|s| sex_code(s).to_string()),
            notes: i.notes.trim().to_string(),
        }
    }
}

/// How the entrant list is sorted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sort {
    /// Strongest first (rank, then rating), the usual seeding order.
    Rank,
    Name,
    Unit,
    Rating,
    Id,
}

impl Sort {
    pub fn from_code(s: &str) -> Sort {
        match s {
            "name" => Sort::Name,
            "unit" => Sort::Unit,
            "rating" => Sort::Rating,
            "id" => Sort::Id,
            _ => Sort::Rank,
        }
    }
    pub fn code(self) -> &'static str {
        match self {
            Sort::Rank => "rank",
            Sort::Name => "name",
            Sort::Unit => "unit",
            Sort::Rating => "rating",
            Sort::Id => "id",
        }
    }
}

/// The entrants of a tournament matching `search` (any name, unit or region), sorted.
pub fn list(
    conn: &mut SqliteConnection,
    tid: i32,
    search: &str,
    sort: Sort,
) -> Result<Vec<EntrantRow>, DbError> {
    let mut q = entrants::table.filter(entrants::tournament_id.eq(tid)).into_boxed();
    let s = search.trim();
    if !s.is_empty() {
        // Escape LIKE wildcards so a typed % or _ matches itself.
        let esc = s.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_");
        let pat = format!("%{esc}%");
        q = q.filter(
            entrants::family_name_zh
                .concat(entrants::given_name_zh)
                .like(pat.clone())
                .escape('\\')
                .or(entrants::family_name_latin.like(pat.clone()).escape('\\'))
                .or(entrants::given_name_latin.like(pat.clone()).escape('\\'))
                .or(entrants::family_name_latin
                    .concat(" ")
                    .concat(entrants::given_name_latin)
                    .like(pat.clone())
                    .escape('\\'))
                .or(entrants::unit.like(pat.clone()).escape('\\'))
                .or(entrants::region.like(pat).escape('\\')),
        );
    }
    q = match sort {
        Sort::Rank => q.order((entrants::rank_value.desc(), entrants::rating.desc(), entrants::id)),
        Sort::Name => q.order((entrants::family_name_latin, entrants::given_name_latin, entrants::id)),
        Sort::Unit => q.order((entrants::unit, entrants::rank_value.desc(), entrants::id)),
        Sort::Rating => q.order((entrants::rating.desc(), entrants::rank_value.desc(), entrants::id)),
        Sort::Id => q.order(entrants::id),
    };
    Ok(q.select(EntrantRow::as_select()).load(conn)?)
}

pub fn get(conn: &mut SqliteConnection, tid: i32, eid: i32) -> Result<EntrantRow, DbError> {
    entrants::table
        .filter(entrants::tournament_id.eq(tid))
        .filter(entrants::id.eq(eid))
        .select(EntrantRow::as_select())
        .first(conn)
        .optional()?
        .ok_or(DbError::NotFound)
}

pub fn count(conn: &mut SqliteConnection, tid: i32) -> Result<i64, DbError> {
    Ok(entrants::table.filter(entrants::tournament_id.eq(tid)).count().get_result(conn)?)
}

fn insert_one(
    conn: &mut SqliteConnection,
    actor: &Actor,
    tid: i32,
    input: &EntrantInput,
    reason: &str,
) -> Result<i32, DbError> {
    let t = now();
    // Entered after published rounds: a late entrant, from the next round on.
    let first_round = super::rounds::next_first_round(conn, tid)?;
    let id: i32 = diesel::insert_into(entrants::table)
        .values((
            InputRow::from(input),
            entrants::first_round.eq(first_round),
            entrants::tournament_id.eq(tid),
            entrants::status.eq(STATUS_ACTIVE),
            entrants::version.eq(1),
            entrants::created_at.eq(&t),
            entrants::updated_at.eq(&t),
        ))
        .returning(entrants::id)
        .get_result(conn)?;
    let after = get(conn, tid, id)?;
    audit::record::<(), _>(
        conn,
        actor,
        Change {
            tournament_id: Some(tid),
            action: "create",
            entity: "entrant",
            entity_id: Some(id),
            before: None,
            after: Some(&after),
            reason,
        },
    )?;
    Ok(id)
}

pub fn create(
    conn: &mut SqliteConnection,
    actor: &Actor,
    tid: i32,
    input: &EntrantInput,
) -> Result<i32, DbError> {
    conn.immediate_transaction(|conn| insert_one(conn, actor, tid, input, ""))
}

/// Why an entrant edit was refused.
#[derive(Debug)]
pub enum EditError {
    Stale { current: i32 },
    Db(DbError),
}

impl From<diesel::result::Error> for EditError {
    fn from(e: diesel::result::Error) -> Self {
        EditError::Db(e.into())
    }
}
impl From<DbError> for EditError {
    fn from(e: DbError) -> Self {
        EditError::Db(e)
    }
}

/// Save an edit made on the form of `version`; refused if someone saved in between.
pub fn update(
    conn: &mut SqliteConnection,
    actor: &Actor,
    tid: i32,
    eid: i32,
    version: i32,
    input: &EntrantInput,
    reason: &str,
) -> Result<i32, EditError> {
    conn.immediate_transaction(|conn| {
        let before = get(conn, tid, eid)?;
        if before.version != version {
            return Err(EditError::Stale { current: before.version });
        }
        diesel::update(entrants::table.find(eid))
            .set((InputRow::from(input), entrants::version.eq(version + 1), entrants::updated_at.eq(now())))
            .execute(conn)?;
        let after = get(conn, tid, eid)?;
        audit::record(
            conn,
            actor,
            Change {
                tournament_id: Some(tid),
                action: "update",
                entity: "entrant",
                entity_id: Some(eid),
                before: Some(&before),
                after: Some(&after),
                reason,
            },
        )?;
        Ok(after.version)
    })
}

/// Withdraw (status = withdrawn) or reinstate (active) an entrant.
pub fn set_status(
    conn: &mut SqliteConnection,
    actor: &Actor,
    tid: i32,
    eid: i32,
    withdrawn: bool,
    reason: &str,
) -> Result<(), DbError> {
    conn.immediate_transaction(|conn| {
        let before = get(conn, tid, eid)?;
        let status = if withdrawn { STATUS_WITHDRAWN } else { STATUS_ACTIVE };
        if before.status == status {
            return Ok(());
        }
        diesel::update(entrants::table.find(eid))
            .set((
                entrants::status.eq(status),
                entrants::version.eq(before.version + 1),
                entrants::updated_at.eq(now()),
            ))
            .execute(conn)?;
        let after = get(conn, tid, eid)?;
        audit::record(
            conn,
            actor,
            Change {
                tournament_id: Some(tid),
                action: if withdrawn { "withdraw" } else { "reinstate" },
                entity: "entrant",
                entity_id: Some(eid),
                before: Some(&before),
                after: Some(&after),
                reason,
            },
        )?;
        Ok(())
    })
}

/// One imported game: indexes into the imported entrant list.
pub struct ImportGame {
    pub round: i32,
    pub board: i32,
    pub black: Option<usize>,
    pub white: Option<usize>,
    pub handicap: i32,
    pub result: String,
}

/// Import entrants (and games) in one transaction. With `replace`, the tournament's entrants,
/// games and rounds go first (the caller has made a backup). Returns the new entrant ids.
pub fn import(
    conn: &mut SqliteConnection,
    actor: &Actor,
    tid: i32,
    inputs: &[EntrantInput],
    games_in: &[ImportGame],
    replace: bool,
    source: &str,
) -> Result<Vec<i32>, DbError> {
    conn.immediate_transaction(|conn| {
        if replace {
            let old = list(conn, tid, "", Sort::Id)?;
            diesel::delete(games::table.filter(games::tournament_id.eq(tid))).execute(conn)?;
            diesel::delete(rounds::table.filter(rounds::tournament_id.eq(tid))).execute(conn)?;
            diesel::delete(entrants::table.filter(entrants::tournament_id.eq(tid))).execute(conn)?;
            for e in &old {
                audit::record::<_, ()>(
                    conn,
                    actor,
                    Change {
                        tournament_id: Some(tid),
                        action: "delete",
                        entity: "entrant",
                        entity_id: Some(e.id),
                        before: Some(e),
                        after: None,
                        reason: source,
                    },
                )?;
            }
        }
        let mut ids = Vec::with_capacity(inputs.len());
        for i in inputs {
            ids.push(insert_one(conn, actor, tid, i, source)?);
        }
        let mut max_round = 0;
        for g in games_in {
            let pick = |k: Option<usize>| k.and_then(|k| ids.get(k).copied());
            diesel::insert_into(games::table)
                .values((
                    games::tournament_id.eq(tid),
                    games::round_number.eq(g.round),
                    games::board.eq(g.board),
                    games::black_id.eq(pick(g.black)),
                    games::white_id.eq(pick(g.white)),
                    games::handicap.eq(g.handicap),
                    games::result.eq(&g.result),
                ))
                .execute(conn)?;
            max_round = max_round.max(g.round);
        }
        // Imported rounds were played elsewhere: they count as published.
        for r in 1..=max_round {
            super::tournaments::insert_round(conn, tid, r, true)?;
        }
        #[derive(Serialize)]
        struct Summary<'a> {
            source: &'a str,
            replace: bool,
            entrants: usize,
            games: usize,
        }
        audit::record::<(), _>(
            conn,
            actor,
            Change {
                tournament_id: Some(tid),
                action: "import",
                entity: "tournament",
                entity_id: Some(tid),
                before: None,
                after: Some(&Summary { source, replace, entrants: inputs.len(), games: games_in.len() }),
                reason: source,
            },
        )?;
        Ok(ids)
    })
}
