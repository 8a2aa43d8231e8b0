//! Entrants of a tournament: create, edit (with stale-edit refusal), withdraw, reinstate,
//! bulk import. Every write has its audit row in the same transaction.

use super::audit::{self, AuditAction, Change};
use super::schema::{entrants, games, round_absences, round_times, rounds, tournaments};
use super::Conn;
use super::{now, Actor, DbError};
use crate::persons::Attached;
use diesel::prelude::*;
use domain::duplicates::{Identity, Match};
use domain::entrant::{EntrantInput, EntrantStatus};
use domain::names;
use domain::settings::{System, TournamentSettings};
use domain::withdrawal::Withdrawal;
use serde::Serialize;

/// The stored entrant and its codes live in the leaf [`crate::rows`], which the audit's
/// subjects read too.
pub use crate::rows::{
    rank_code, rank_from_code, sex_code, sex_from_code, EntrantRow, STATUS_ACTIVE, STATUS_WITHDRAWN,
};

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
    egd_pin: String,
    federation_id: String,
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
            egd_pin: i.egd_pin.trim().to_string(),
            federation_id: i.federation_id.trim().to_string(),
        }
    }
}

/// The first round a new entrant plays: the one after the last published round.
pub fn next_first_round(conn: &mut Conn, tid: i32) -> Result<i32, DbError> {
    let (_, last) = super::tournaments::published_rounds(conn, tid)?;
    Ok(i32::try_from(last).unwrap_or(0) + 1)
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

/// The entrants of a tournament matching `search` (a name as `domain::names::Query` reads it:
/// characters, pinyin or its initials; or part of a unit or region), sorted. By name means in
/// the tournament's name order (pinyin or strokes, `domain::names`), id breaking ties.
///
/// Sorted here, not in SQL: the engines place NULL (an unrated entrant) at opposite ends and
/// PostgreSQL compares text by its database's collation, SQLite by code point. Unrated entrants
/// come after the rated ones of their rank; units by code point.
pub fn list(conn: &mut Conn, tid: i32, search: &str, sort: Sort) -> Result<Vec<EntrantRow>, DbError> {
    let mut rows: Vec<EntrantRow> = entrants::table
        .filter(entrants::tournament_id.eq(tid))
        .order(entrants::id)
        .select(EntrantRow::as_select())
        .load(conn)?;
    // Stable sorts over the id order: id breaks every tie.
    let rank = |a: &EntrantRow, b: &EntrantRow| b.rank_value.cmp(&a.rank_value);
    let rating = |a: &EntrantRow, b: &EntrantRow| b.rating.cmp(&a.rating); // None (unrated) last
    match sort {
        Sort::Rank | Sort::Name => rows.sort_by(|a, b| rank(a, b).then_with(|| rating(a, b))),
        Sort::Unit => rows.sort_by(|a, b| a.unit.cmp(&b.unit).then_with(|| rank(a, b))),
        Sort::Rating => rows.sort_by(|a, b| rating(a, b).then_with(|| rank(a, b))),
        Sort::Id => {}
    }
    let s = search.trim();
    if !s.is_empty() {
        let query = names::Query::new(s);
        let lower = s.to_lowercase();
        rows.retain(|e| {
            query.matches(&e.name())
                || e.unit.to_lowercase().contains(&lower)
                || e.region.to_lowercase().contains(&lower)
        });
    }
    if sort == Sort::Name {
        rows.sort_by_key(|e| e.id);
        names::sort_by_name(&mut rows, name_order(conn, tid)?, EntrantRow::name);
    }
    Ok(rows)
}

/// The tournament's order of names (a setting).
pub fn name_order(conn: &mut Conn, tid: i32) -> Result<names::NameOrder, DbError> {
    let code: String = tournaments::table.find(tid).select(tournaments::name_order).first(conn)?;
    Ok(names::NameOrder::from_code(&code).unwrap_or_default())
}

pub fn get(conn: &mut Conn, tid: i32, eid: i32) -> Result<EntrantRow, DbError> {
    entrants::table
        .filter(entrants::tournament_id.eq(tid))
        .filter(entrants::id.eq(eid))
        .select(EntrantRow::as_select())
        .first(conn)
        .optional()?
        .ok_or(DbError::NotFound)
}

pub fn count(conn: &mut Conn, tid: i32) -> Result<i64, DbError> {
    Ok(entrants::table.filter(entrants::tournament_id.eq(tid)).count().get_result(conn)?)
}

pub(crate) fn insert_one(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    input: &EntrantInput,
    status: EntrantStatus,
    reason: &str,
    person: Option<i32>,
) -> Result<(i32, Attached), DbError> {
    let t = now();
    // Entered after published rounds: a late entrant, from the next round on.
    let first_round = next_first_round(conn, tid)?;
    let id: i32 = diesel::insert_into(entrants::table)
        .values((
            InputRow::from(input),
            entrants::first_round.eq(first_round),
            entrants::tournament_id.eq(tid),
            entrants::status.eq(status.code()),
            entrants::version.eq(1),
            entrants::created_at.eq(&t),
            entrants::updated_at.eq(&t),
        ))
        .returning(entrants::id)
        .get_result(conn)?;
    // Every entrant is someone of the registry: the person picked, matched or made now.
    let (_, attached) = crate::persons::attach(conn, tid, id, person)?;
    let after = get(conn, tid, id)?;
    audit::record::<(), _>(
        conn,
        actor,
        Change {
            tournament_id: Some(tid),
            action: AuditAction::EntrantCreate,
            entity_id: Some(id),
            before: None,
            after: Some(&after),
            reason,
        },
    )?;
    Ok((id, attached))
}

/// Why adding an entrant was refused.
#[derive(Debug)]
pub enum CreateError {
    /// The entrant is probably someone already registered; adding them needs a confirmation.
    Duplicates(Vec<(EntrantRow, Match)>),
    Db(DbError),
}

db_variant!(CreateError);

/// Add one entrant. Unless `allow_duplicate` (the organizer confirmed it), an entrant who is
/// probably someone already registered is refused with the matches, checked in the same
/// transaction as the insert.
/// `person`: the registry's person the organizer picked (none: the one it matches exactly, else
/// a new one, `store::persons`).
pub fn create(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    input: &EntrantInput,
    allow_duplicate: bool,
    person: Option<i32>,
) -> Result<i32, CreateError> {
    crate::write_tx(&mut *conn, |conn| {
        if !allow_duplicate {
            let dups = probable_duplicates(conn, tid, input)?;
            if !dups.is_empty() {
                return Err(CreateError::Duplicates(dups));
            }
        }
        Ok(insert_one(conn, actor, tid, input, EntrantStatus::Active, "", person)?.0)
    })
}

/// Why an entrant edit was refused.
#[derive(Debug)]
pub enum EditError {
    Stale {
        current: i32,
    },
    /// The edit makes the entrant look like someone else already registered (a renaming, a
    /// birth date typed): saving it needs the same confirmation as adding them would.
    Duplicates(Vec<(EntrantRow, Match)>),
    Db(DbError),
}

db_variant!(EditError);

/// Save an edit made on the form of `version`; refused if someone saved in between, and —
/// unless `allow_duplicate` — if it makes the entrant probably the same person as another one
/// they were not already taken for ([`domain::duplicates`], the check that adding
/// makes), both in the transaction that writes.
#[allow(clippy::too_many_arguments)]
pub fn update(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    eid: i32,
    version: i32,
    input: &EntrantInput,
    reason: &str,
    allow_duplicate: bool,
) -> Result<i32, EditError> {
    crate::write_tx(&mut *conn, |conn| {
        let before = get(conn, tid, eid)?;
        if before.version != version {
            return Err(EditError::Stale { current: before.version });
        }
        if !allow_duplicate {
            let dups = new_duplicates(conn, tid, &before, input)?;
            if !dups.is_empty() {
                return Err(EditError::Duplicates(dups));
            }
        }
        diesel::update(entrants::table.find(eid))
            .set((InputRow::from(input), entrants::version.eq(version + 1), entrants::updated_at.eq(now())))
            .execute(conn)?;
        let after = get(conn, tid, eid)?;
        crate::persons::rank_changed(conn, &after)?;
        audit::record(
            conn,
            actor,
            Change {
                tournament_id: Some(tid),
                action: AuditAction::EntrantUpdate,
                entity_id: Some(eid),
                before: Some(&before),
                after: Some(&after),
                reason,
            },
        )?;
        Ok(after.version)
    })
}

/// Withdraw (status = withdrawn) or reinstate (active) an entrant, with `reason` in the audit
/// row only (a withdrawal without its reason and date: the program's own, and older callers).
pub fn set_status(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    eid: i32,
    withdrawn: bool,
    reason: &str,
) -> Result<(), DbError> {
    let w = withdrawn.then(|| (None, String::new(), false));
    change_status(conn, actor, tid, eid, None, w, reason).map_err(|e| match e {
        EditError::Db(e) => e,
        other => DbError::Other(format!("{other:?}")),
    })
}

/// Withdraw an entrant (退赛, seed 000 Art. 15.2) at `version` with the withdrawal's reason,
/// date and whether the reason is public; the reason is the audit row's too. A stale version
/// is refused; withdrawing one already withdrawn writes nothing.
pub fn withdraw(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    eid: i32,
    version: i32,
    w: &Withdrawal,
) -> Result<(), EditError> {
    let kept = (Some(domain::event_time::date_text(w.on)), w.reason.clone(), w.reason_public);
    change_status(conn, actor, tid, eid, Some(version), Some(kept), &w.reason)
}

/// Reinstate a withdrawn entrant at `version`: the withdrawal's round, date and reason are
/// cleared (the audit row keeps them in its "before").
pub fn reinstate(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    eid: i32,
    version: i32,
    reason: &str,
) -> Result<(), EditError> {
    change_status(conn, actor, tid, eid, Some(version), None, reason)
}

/// The one status write: `withdrawal` (date, reason, reason public) withdraws, `None`
/// reinstates; `version`, when given, must be the stored one.
fn change_status(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    eid: i32,
    version: Option<i32>,
    withdrawal: Option<(Option<String>, String, bool)>,
    reason: &str,
) -> Result<(), EditError> {
    crate::write_tx(&mut *conn, |conn| {
        let before = get(conn, tid, eid)?;
        if version.is_some_and(|v| v != before.version) {
            return Err(EditError::Stale { current: before.version });
        }
        let withdrawn = withdrawal.is_some();
        let status = if withdrawn { STATUS_WITHDRAWN } else { STATUS_ACTIVE };
        if before.status == status {
            return Ok(());
        }
        // They miss the rounds from the one after the last published round.
        let from = if withdrawn { Some(next_first_round(conn, tid)?) } else { None };
        let (on, why, public) = withdrawal.unwrap_or((None, String::new(), false));
        diesel::update(entrants::table.find(eid))
            .set((
                entrants::status.eq(status),
                entrants::withdrawn_from_round.eq(from),
                entrants::withdrawn_on.eq(on),
                entrants::withdrawal_reason.eq(why),
                entrants::withdrawal_reason_public.eq(public),
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
                action: if withdrawn { AuditAction::EntrantWithdraw } else { AuditAction::EntrantReinstate },
                entity_id: Some(eid),
                before: Some(&before),
                after: Some(&after),
                reason,
            },
        )?;
        Ok(())
    })
}

/// One imported game: indexes into the imported entrant list (`white` None: a bye).
pub struct ImportGame {
    pub round: i32,
    pub board: i32,
    pub black: Option<usize>,
    pub white: Option<usize>,
    pub handicap: i32,
    pub result: String,
}

/// One imported entrant: who, their status, and whether the organizer confirmed adding them
/// although they look like someone already registered ([`domain::duplicates`]).
#[derive(Debug, Clone)]
pub struct ImportRow {
    pub input: EntrantInput,
    pub status: EntrantStatus,
    pub allow_duplicate: bool,
}

impl ImportRow {
    /// An active entrant added without a duplicate check (a file whose players are distinct by
    /// construction, or generated data).
    pub fn trusted(input: EntrantInput) -> ImportRow {
        ImportRow { input, status: EntrantStatus::Active, allow_duplicate: true }
    }
}

/// What an import brings into an event.
#[derive(Default)]
pub struct ImportData {
    pub rows: Vec<ImportRow>,
    pub games: Vec<ImportGame>,
    /// (round, index into `rows`): the player does not take part in that round.
    pub absences: Vec<(i32, usize)>,
}

/// What the audit row of an import says, besides the counts.
#[derive(Debug, Clone, Serialize)]
pub struct ImportNote {
    /// "csv import", "opengotha import", "demo", …
    pub source: String,
    /// The automatic backup made before anything was deleted.
    pub backup: Option<String>,
    /// What the file held that the event did not take (as data, for the record).
    pub not_imported: Vec<String>,
}

impl ImportNote {
    pub fn new(source: &str) -> ImportNote {
        ImportNote { source: source.to_string(), backup: None, not_imported: Vec::new() }
    }
}

/// What an import did: the ids of the rows added (`None`: skipped as a probable duplicate the
/// organizer did not confirm), in row order.
#[derive(Debug, Clone, Default)]
pub struct Imported {
    pub ids: Vec<Option<i32>>,
    /// How each row added came to its registry person, in the order added.
    pub persons: Vec<Attached>,
}

impl Imported {
    pub fn added(&self) -> usize {
        self.ids.iter().filter(|i| i.is_some()).count()
    }
    pub fn skipped(&self) -> usize {
        self.ids.len() - self.added()
    }
}

/// Why a replacing import was refused.
#[derive(Debug)]
pub enum ReplaceError {
    /// The event changed since the preview (its change counter is now `current`).
    Stale {
        current: i32,
    },
    /// A team event: its teams and matches are not an OpenGotha event's to replace.
    TeamEvent,
    Db(DbError),
}

db_variant!(ReplaceError);

/// The entrants of `tid` with their identities, for the duplicate check.
pub fn identities(conn: &mut Conn, tid: i32) -> Result<Vec<(EntrantRow, Identity)>, DbError> {
    Ok(list(conn, tid, "", Sort::Id)?
        .into_iter()
        .filter_map(|e| e.input().map(|i| (Identity::of(&i), e)))
        .map(|(i, e)| (e, i))
        .collect())
}

/// The entrants of `tid` that `input` is probably the same person as.
pub fn probable_duplicates(
    conn: &mut Conn,
    tid: i32,
    input: &EntrantInput,
) -> Result<Vec<(EntrantRow, Match)>, DbError> {
    let known = identities(conn, tid)?;
    let me = Identity::of(input);
    Ok(known.into_iter().filter_map(|(e, i)| me.matches(&i).map(|m| (e, m))).collect())
}

/// The other entrants of `tid` that `input` would probably be the same person as, leaving out
/// those `before` (the entrant as stored) already matched: an edit of the rating of a
/// confirmed namesake asks nothing again.
fn new_duplicates(
    conn: &mut Conn,
    tid: i32,
    before: &EntrantRow,
    input: &EntrantInput,
) -> Result<Vec<(EntrantRow, Match)>, DbError> {
    let was = before.input().map(|i| Identity::of(&i));
    let me = Identity::of(input);
    Ok(identities(conn, tid)?
        .into_iter()
        .filter(|(e, i)| e.id != before.id && was.as_ref().is_none_or(|w| w.matches(i).is_none()))
        .filter_map(|(e, i)| me.matches(&i).map(|m| (e, m)))
        .collect())
}

/// Insert the rows, games and absences of an import into `tid`, checking each row against the
/// entrants registered at that moment (those of this import already added included): a
/// probable duplicate the organizer did not confirm is skipped. Call inside a transaction.
pub(crate) fn insert_data(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    data: &ImportData,
    reason: &str,
) -> Result<Imported, DbError> {
    let mut known: Vec<Identity> = identities(conn, tid)?.into_iter().map(|(_, i)| i).collect();
    let mut ids = Vec::with_capacity(data.rows.len());
    let mut persons = Vec::with_capacity(data.rows.len());
    for row in &data.rows {
        let me = Identity::of(&row.input);
        if !row.allow_duplicate && known.iter().any(|k| me.matches(k).is_some()) {
            ids.push(None);
            continue;
        }
        let (id, attached) = insert_one(conn, actor, tid, &row.input, row.status, reason, None)?;
        ids.push(Some(id));
        persons.push(attached);
        known.push(me);
    }
    let pick = |k: Option<usize>| k.and_then(|k| ids.get(k).copied().flatten());
    let mut max_round = 0;
    for g in &data.games {
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
    let t = now();
    for (round, i) in &data.absences {
        if let Some(id) = pick(Some(*i)) {
            per_backend!(conn, |c| diesel::insert_into(round_absences::table)
                .values((
                    round_absences::tournament_id.eq(tid),
                    round_absences::round_number.eq(round),
                    round_absences::entrant_id.eq(id),
                    round_absences::created_at.eq(&t),
                ))
                .on_conflict_do_nothing()
                .execute(c))?;
        }
    }
    Ok(Imported { ids, persons })
}

/// The import's own audit row: where it came from, what it did.
pub(crate) fn record_import(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    mode: &str,
    note: &ImportNote,
    data: &ImportData,
    done: &Imported,
) -> Result<(), DbError> {
    #[derive(Serialize)]
    struct Summary<'a> {
        mode: &'a str,
        #[serde(flatten)]
        note: &'a ImportNote,
        entrants: usize,
        skipped_as_duplicates: usize,
        games: usize,
        absences: usize,
    }
    let summary = Summary {
        mode,
        note,
        entrants: done.added(),
        skipped_as_duplicates: done.skipped(),
        games: data.games.len(),
        absences: data.absences.len(),
    };
    audit::record::<(), _>(
        conn,
        actor,
        Change {
            tournament_id: Some(tid),
            action: AuditAction::TournamentImport,
            entity_id: Some(tid),
            before: None,
            after: Some(&summary),
            reason: &note.source,
        },
    )
}

/// Add the rows of an import (a CSV list) to the entrants of `tid`; nothing is deleted or
/// merged. Games are not added this way: an imported event comes through
/// [`replace_event`] or [`super::tournaments::create_from_import`].
pub fn add_entrants(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    rows: Vec<ImportRow>,
    note: &ImportNote,
) -> Result<Imported, DbError> {
    crate::write_tx(&mut *conn, |conn| {
        let data = ImportData { rows, ..Default::default() };
        let done = insert_data(conn, actor, tid, &data, &note.source)?;
        record_import(conn, actor, tid, "add", note, &data, &done)?;
        Ok(done)
    })
}

/// Replace the event `tid` by an imported one: its games (with their result sheets and
/// rulings), rounds, absences, round start times and entrants are deleted (each entrant with
/// its audit row; the caller has made a backup), its settings become `settings` (audited as an
/// update), and the import goes in. `expected_changes` is the event's change counter the
/// preview was made at: any write since then refuses the replacement (what the preview said
/// would be deleted is no longer what would be). Returns what was imported.
pub fn replace_event(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    expected_changes: Option<i32>,
    settings: Option<&TournamentSettings>,
    data: &ImportData,
    note: &ImportNote,
) -> Result<Imported, ReplaceError> {
    crate::write_tx(&mut *conn, |conn| {
        let t = super::tournaments::get(conn, tid)?;
        if let Some(expected) = expected_changes {
            let (current, _) = super::tournaments::change_stamp(conn, tid)?;
            if current != expected {
                return Err(ReplaceError::Stale { current });
            }
        }
        if t.settings().system == System::TeamRelay {
            return Err(ReplaceError::TeamEvent);
        }
        let old = list(conn, tid, "", Sort::Id)?;
        diesel::delete(games::table.filter(games::tournament_id.eq(tid))).execute(conn)?;
        diesel::delete(rounds::table.filter(rounds::tournament_id.eq(tid))).execute(conn)?;
        diesel::delete(round_absences::table.filter(round_absences::tournament_id.eq(tid))).execute(conn)?;
        diesel::delete(round_times::table.filter(round_times::tournament_id.eq(tid))).execute(conn)?;
        diesel::delete(entrants::table.filter(entrants::tournament_id.eq(tid))).execute(conn)?;
        for e in &old {
            audit::record::<_, ()>(
                conn,
                actor,
                Change {
                    tournament_id: Some(tid),
                    action: AuditAction::EntrantDelete,
                    entity_id: Some(e.id),
                    before: Some(e),
                    after: None,
                    reason: &note.source,
                },
            )?;
        }
        if let Some(s) = settings {
            super::tournaments::set_settings(conn, actor, tid, s, &note.source)?;
        }
        let done = insert_data(conn, actor, tid, data, &note.source)?;
        record_import(conn, actor, tid, "replace", note, data, &done)?;
        Ok(done)
    })
}

/// Create a new event from an import: its settings, then the rows, games and absences, all in
/// one transaction (the creator becomes an organizer of it, as with [`super::tournaments::create`]).
pub fn create_event(
    conn: &mut Conn,
    actor: &Actor,
    settings: &TournamentSettings,
    data: &ImportData,
    note: &ImportNote,
) -> Result<(i32, Imported), DbError> {
    crate::write_tx(&mut *conn, |conn| {
        let tid = super::tournaments::insert_tournament(conn, actor, settings)?;
        let done = insert_data(conn, actor, tid, data, &note.source)?;
        record_import(conn, actor, tid, "new", note, data, &done)?;
        Ok((tid, done))
    })
}
