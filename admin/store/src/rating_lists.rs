//! Rating lists imported into a tournament and their rows (`rating_lists`,
//! `rating_list_rows`), and an entrant's rank, rating, unit and id taken from a list's row.
//! Which row is whose, and what may change, is `domain::rating_lists`'; the use case that
//! applies the ticked changes is `admin::office::rating_lists`'.

use super::audit::{self, AuditAction, Change};
use super::rows::{rank_code, EntrantRow};
use super::schema::{entrants, rating_list_rows, rating_lists};
use super::{now, Actor, Conn, DbError};
use diesel::prelude::*;
use domain::rating_lists::{Changes, ListRow, Source};
use serde::Serialize;

/// A stored list, without its rows.
#[derive(Debug, Clone, Queryable, Selectable, Serialize)]
#[diesel(table_name = rating_lists)]
pub struct RatingList {
    pub id: i32,
    pub tournament_id: i32,
    pub source: String,
    pub name: String,
    /// The list's own date, YYYY-MM-DD.
    pub list_date: String,
    pub imported_at: String,
    pub imported_by: String,
    pub row_count: i32,
}

impl RatingList {
    pub fn source(&self) -> Source {
        Source::from_code(&self.source).unwrap_or(Source::Csv)
    }
}

#[derive(Insertable)]
#[diesel(table_name = rating_list_rows)]
struct NewRow<'a> {
    list_id: i32,
    line: i32,
    list_key: &'a str,
    family_name: &'a str,
    given_name: &'a str,
    rank: &'a str,
    rating: Option<i32>,
    club: &'a str,
    country: &'a str,
}

/// Rows written per statement (ten values each: under every engine's limit of parameters).
const CHUNK: usize = 500;

/// Store a list read from a file, with its rows, and its audit row; returns the list's id.
pub fn insert(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    source: Source,
    name: &str,
    list_date: chrono::NaiveDate,
    rows: &[ListRow],
) -> Result<i32, DbError> {
    crate::write_tx(&mut *conn, |conn| {
        let id: i32 = diesel::insert_into(rating_lists::table)
            .values((
                rating_lists::tournament_id.eq(tid),
                rating_lists::source.eq(source.code()),
                rating_lists::name.eq(name.trim()),
                rating_lists::list_date.eq(domain::event_time::date_text(list_date)),
                rating_lists::imported_at.eq(now()),
                rating_lists::imported_by.eq(&actor.name),
                rating_lists::row_count.eq(i32::try_from(rows.len()).unwrap_or(i32::MAX)),
            ))
            .returning(rating_lists::id)
            .get_result(conn)?;
        for chunk in rows.chunks(CHUNK) {
            let news: Vec<NewRow<'_>> = chunk
                .iter()
                .map(|r| NewRow {
                    list_id: id,
                    line: i32::try_from(r.line).unwrap_or(i32::MAX),
                    list_key: &r.key,
                    family_name: &r.family,
                    given_name: &r.given,
                    rank: &r.rank,
                    rating: r.rating,
                    club: &r.club,
                    country: &r.country,
                })
                .collect();
            // One multi-row INSERT: diesel's MultiBackend has no batch insert, so per engine.
            per_backend!(conn, |c| diesel::insert_into(rating_list_rows::table).values(&news).execute(c))?;
        }
        let after = get(conn, tid, id)?;
        audit::record::<(), _>(
            conn,
            actor,
            Change {
                tournament_id: Some(tid),
                action: AuditAction::RatingListImport,
                entity_id: Some(id),
                before: None,
                after: Some(&after),
                reason: "",
            },
        )?;
        Ok(id)
    })
}

/// The tournament's lists, newest first.
pub fn list(conn: &mut Conn, tid: i32) -> Result<Vec<RatingList>, DbError> {
    Ok(rating_lists::table
        .filter(rating_lists::tournament_id.eq(tid))
        .order(rating_lists::id.desc())
        .select(RatingList::as_select())
        .load(conn)?)
}

/// One list of the tournament.
pub fn get(conn: &mut Conn, tid: i32, list_id: i32) -> Result<RatingList, DbError> {
    rating_lists::table
        .filter(rating_lists::tournament_id.eq(tid))
        .filter(rating_lists::id.eq(list_id))
        .select(RatingList::as_select())
        .first(conn)
        .optional()?
        .ok_or(DbError::NotFound)
}

/// A list's rows in file order.
pub fn rows(conn: &mut Conn, list_id: i32) -> Result<Vec<ListRow>, DbError> {
    type Stored = (i32, String, String, String, String, Option<i32>, String, String);
    let stored: Vec<Stored> = rating_list_rows::table
        .filter(rating_list_rows::list_id.eq(list_id))
        .order((rating_list_rows::line, rating_list_rows::id))
        .select((
            rating_list_rows::line,
            rating_list_rows::list_key,
            rating_list_rows::family_name,
            rating_list_rows::given_name,
            rating_list_rows::rank,
            rating_list_rows::rating,
            rating_list_rows::club,
            rating_list_rows::country,
        ))
        .load(conn)?;
    Ok(stored
        .into_iter()
        .map(|(line, key, family, given, rank, rating, club, country)| ListRow {
            line: usize::try_from(line).unwrap_or(0),
            key,
            family,
            given,
            rank,
            rating,
            club,
            country,
        })
        .collect())
}

/// Write what a list's row changes of an entrant (`entrant` as read in this transaction,
/// its version already checked) with its audit row naming the list; returns the new version.
pub fn set_from_list(
    conn: &mut Conn,
    actor: &Actor,
    entrant: &EntrantRow,
    list: &RatingList,
    changes: &Changes,
) -> Result<i32, DbError> {
    let eid = entrant.id;
    let version = entrant.version + 1;
    let rank = changes.rank.map(|r| (rank_code(&r), r.value()));
    let (code, value) = rank.unwrap_or_else(|| (entrant.rank.clone(), entrant.rank_value));
    let rating = changes.rating.or(entrant.rating);
    let unit = changes.unit.clone().unwrap_or_else(|| entrant.unit.clone());
    let (mut pin, mut fed) = (entrant.egd_pin.clone(), entrant.federation_id.clone());
    if let Some(id) = &changes.id {
        if list.source().id_is_egd_pin() {
            pin = id.clone();
        } else {
            fed = id.clone();
        }
    }
    diesel::update(entrants::table.find(eid))
        .set((
            entrants::rank.eq(code),
            entrants::rank_value.eq(value),
            entrants::rating.eq(rating),
            entrants::unit.eq(unit),
            entrants::egd_pin.eq(pin),
            entrants::federation_id.eq(fed),
            entrants::version.eq(version),
            entrants::updated_at.eq(now()),
        ))
        .execute(conn)?;
    let after = super::entrants::get(conn, entrant.tournament_id, eid)?;
    let reason = format!("{} ({})", list.name, list.list_date);
    audit::record(
        conn,
        actor,
        Change {
            tournament_id: Some(entrant.tournament_id),
            action: AuditAction::EntrantFromList,
            entity_id: Some(eid),
            before: Some(entrant),
            after: Some(&after),
            reason: &reason,
        },
    )?;
    Ok(version)
}

#[cfg(test)]
mod tests {
    use super::*;
    use domain::entrant::{EntrantInput, Rank};

    /// EGF rating-list practice (OpenGotha's "Update ratings"): a list is kept with its
    /// date and rows; an entrant takes a row's rank, rating, club and PIN with an audit row.
    #[test]
    fn stores_a_list_and_updates_an_entrant() {
        let dir = tempfile::tempdir().unwrap();
        let pool = crate::open(&dir.path().join("t.db")).unwrap();
        let mut conn = pool.get().unwrap();
        let c = &mut conn;
        let a = Actor::system("test");
        let s = domain::settings::TournamentSettings::defaults(chrono::NaiveDate::MIN, crate::server_zone());
        let tid = crate::tournaments::create(c, &a, &s).unwrap();
        let mut e = EntrantInput::new(Rank::Dan(1));
        (e.family_name_latin, e.given_name_latin) = ("Müller".into(), "Hans".into());
        let eid = crate::entrants::create(c, &a, tid, &e, true, None).unwrap();
        let rows: Vec<ListRow> = (0..1200)
            .map(|i| ListRow {
                line: i + 1,
                key: format!("{}", 10_000_000 + i),
                family: format!("F{i}"),
                given: "G".into(),
                rank: "3d".into(),
                rating: Some(2290),
                club: "Berl".into(),
                country: "DE".into(),
            })
            .collect();
        let date = chrono::NaiveDate::from_ymd_opt(2026, 12, 5).unwrap();
        let lid = insert(c, &a, tid, Source::Egf, "EGF 2026-12", date, &rows).unwrap();
        let l = get(c, tid, lid).unwrap();
        assert_eq!((l.row_count, l.list_date.as_str(), l.source()), (1200, "2026-12-05", Source::Egf));
        assert_eq!(super::rows(c, lid).unwrap()[1199], rows[1199]);
        assert_eq!(list(c, tid).unwrap().len(), 1);
        let before = crate::entrants::get(c, tid, eid).unwrap();
        let ch = Changes {
            rank: Some(Rank::Dan(3)),
            rating: Some(2290),
            unit: Some("Berl".into()),
            id: Some("10000000".into()),
        };
        let v = crate::write_tx(c, |c| set_from_list(c, &a, &before, &l, &ch)).unwrap();
        let after = crate::entrants::get(c, tid, eid).unwrap();
        assert_eq!(v, before.version + 1);
        assert_eq!((after.rank.as_str(), after.rank_value, after.rating), ("3d", 2, Some(2290)));
        assert_eq!(
            (after.unit.as_str(), after.egd_pin.as_str(), after.federation_id.as_str()),
            ("Berl", "10000000", "")
        );
    }
}
