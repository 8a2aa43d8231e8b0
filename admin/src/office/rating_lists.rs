//! A rating list against a tournament's entrants: each entrant's row and what it would change
//! ([`proposals`], for the page), and the changes the organizer ticked applied in one
//! transaction ([`apply`]), each with its audit row, refused once round 1 is published.

use crate::db::entrants::{self as edb, EntrantRow, Sort};
use crate::db::rating_lists::{self as rdb, RatingList};
use crate::db::{self, tournaments as tdb, Actor, Conn, DbError};
use domain::rating_lists::{self as rl, Changes, Current, ListRow, MatchedBy, Refusal};

/// An entrant and, when a row matched, the row, the rule that matched and the changes.
#[derive(Debug, Clone)]
pub struct Proposal {
    pub entrant: EntrantRow,
    pub row: Option<(ListRow, MatchedBy, Changes)>,
}

/// What the entrant has now, of the kind the list reads.
fn current<'a>(list: &RatingList, e: &'a EntrantRow) -> Current<'a> {
    Current {
        rank: e.rank_parsed(),
        rating: e.rating,
        unit: &e.unit,
        id: if list.source().id_is_egd_pin() { &e.egd_pin } else { &e.federation_id },
    }
}

/// The list, and every entrant (strongest first) with their row and its changes.
pub fn proposals(conn: &mut Conn, tid: i32, list_id: i32) -> Result<(RatingList, Vec<Proposal>), DbError> {
    let list = rdb::get(conn, tid, list_id)?;
    let rows = rdb::rows(conn, list_id)?;
    let entrants = edb::list(conn, tid, "", Sort::Rank)?;
    let who: Vec<rl::Entrant<'_>> = entrants
        .iter()
        .map(|e| rl::Entrant {
            egd_pin: &e.egd_pin,
            federation_id: &e.federation_id,
            family_zh: &e.family_name_zh,
            given_zh: &e.given_name_zh,
            family_latin: &e.family_name_latin,
            given_latin: &e.given_name_latin,
        })
        .collect();
    let source = list.source();
    let matched = rl::match_entrants(source, &who, &rows);
    let out = entrants
        .iter()
        .zip(matched)
        .map(|(e, m)| Proposal {
            entrant: e.clone(),
            row: m.map(|(r, by)| {
                let row = rows[r].clone();
                let ch = rl::changes(source, current(&list, e), &row);
                (row, by, ch)
            }),
        })
        .collect();
    Ok((list, out))
}

/// A ticked entrant: their id, the version the page showed, and the list's line shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pick {
    pub entrant: i32,
    pub version: i32,
    pub line: usize,
}

impl Pick {
    /// "{entrant}:{version}:{line}", the checkbox's value.
    pub fn parse(s: &str) -> Option<Pick> {
        let mut it = s.split(':').map(str::trim);
        let p = Pick {
            entrant: it.next()?.parse().ok()?,
            version: it.next()?.parse().ok()?,
            line: it.next()?.parse().ok()?,
        };
        it.next().is_none().then_some(p)
    }
    pub fn value(&self) -> String {
        format!("{}:{}:{}", self.entrant, self.version, self.line)
    }
}

/// Why applying was refused; nothing was written.
#[derive(Debug)]
pub enum ApplyError {
    Refused(Refusal),
    /// Nothing ticked.
    NothingTicked,
    /// The entrant changed since the page was shown, or matches another row now.
    Stale {
        entrant: i32,
    },
    Db(DbError),
}

impl From<DbError> for ApplyError {
    fn from(e: DbError) -> Self {
        ApplyError::Db(e)
    }
}

impl From<diesel::result::Error> for ApplyError {
    fn from(e: diesel::result::Error) -> Self {
        ApplyError::Db(e.into())
    }
}

impl From<Refusal> for ApplyError {
    fn from(r: Refusal) -> Self {
        ApplyError::Refused(r)
    }
}

/// Apply the ticked entrants' changes from list `list_id`, all or nothing: before round 1 is
/// published only (`domain::rating_lists::may_update`), each entrant at the version shown and
/// still matched to the line shown; one audit row per entrant. Returns how many changed.
pub fn apply(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    list_id: i32,
    picks: &[Pick],
) -> Result<usize, ApplyError> {
    db::write_tx(&mut *conn, |conn| {
        let (list, props) = proposals(conn, tid, list_id)?;
        let (published, _) = tdb::published_rounds(conn, tid)?;
        rl::may_update(published)?;
        if picks.is_empty() {
            return Err(ApplyError::NothingTicked);
        }
        let mut changed = 0;
        for pick in picks {
            let stale = ApplyError::Stale { entrant: pick.entrant };
            let p = props.iter().find(|p| p.entrant.id == pick.entrant).ok_or(DbError::NotFound)?;
            let Some((row, _, ch)) = &p.row else { return Err(stale) };
            if p.entrant.version != pick.version || row.line != pick.line {
                return Err(stale);
            }
            if !ch.is_empty() {
                rdb::set_from_list(conn, actor, &p.entrant, &list, ch)?;
                changed += 1;
            }
        }
        Ok(changed)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use domain::entrant::{EntrantInput, Rank};
    use domain::rating_lists::Source;

    fn setup() -> (tempfile::TempDir, crate::db::DbPool) {
        let dir = tempfile::tempdir().unwrap();
        let pool = crate::db::open(&dir.path().join("t.db")).unwrap();
        (dir, pool)
    }

    /// Practice of tournament programs (OpenGotha's "Update ratings"): only the ticked
    /// entrants change, all at once, at the version shown; a stale tick writes nothing.
    #[test]
    fn applies_ticked_and_refuses_stale() {
        let (_d, pool) = setup();
        let c = &mut pool.get().unwrap();
        let a = Actor::system("test");
        let s =
            domain::settings::TournamentSettings::defaults(chrono::NaiveDate::MIN, crate::db::server_zone());
        let tid = tdb::create(c, &a, &s).unwrap();
        let mut ids = Vec::new();
        for (f, g) in [("Müller", "Hans"), ("Dupont", "Jean"), ("Novak", "Pavel")] {
            let mut e = EntrantInput::new(Rank::Kyu(2));
            (e.family_name_latin, e.given_name_latin) = (f.into(), g.into());
            ids.push(edb::create(c, &a, tid, &e, true, None).unwrap());
        }
        let row = |line: usize, key: &str, f: &str, g: &str, rank: &str| ListRow {
            line,
            key: key.into(),
            family: f.into(),
            given: g.into(),
            rank: rank.into(),
            rating: Some(2000),
            club: "Club".into(),
            country: "DE".into(),
        };
        let rows = vec![
            row(1, "1", "MULLER", "hans", "3d"),
            row(2, "2", "Dupont", "Jean", "1d"),
            row(3, "3", "Novak", "Pavel", "5d"),
        ];
        let lid = rdb::insert(c, &a, tid, Source::Egf, "EGF", chrono::NaiveDate::MIN, &rows).unwrap();
        let (_, props) = proposals(c, tid, lid).unwrap();
        assert!(props.iter().all(|p| matches!(p.row, Some((_, MatchedBy::LatinName, _)))));
        let mut pick = |i: usize, line: usize| {
            let e = edb::get(c, tid, ids[i]).unwrap();
            Pick { entrant: e.id, version: e.version, line }
        };
        let (p0, p1) = (pick(0, 1), pick(1, 2));
        // A stale tick (wrong line) refuses everything.
        let bad = Pick { line: 3, ..p1 };
        assert!(matches!(apply(c, &a, tid, lid, &[p0, bad]), Err(ApplyError::Stale { .. })));
        assert_eq!(edb::get(c, tid, ids[0]).unwrap().rank, "2k");
        assert_eq!(apply(c, &a, tid, lid, &[p0, p1]).unwrap(), 2);
        assert_eq!(edb::get(c, tid, ids[0]).unwrap().rank, "3d");
        assert_eq!(edb::get(c, tid, ids[1]).unwrap().egd_pin, "2");
        assert_eq!(edb::get(c, tid, ids[2]).unwrap().rank, "2k");
        // The same ticks again: their versions moved on.
        assert!(matches!(apply(c, &a, tid, lid, &[p0]), Err(ApplyError::Stale { .. })));
        assert!(matches!(apply(c, &a, tid, lid, &[]), Err(ApplyError::NothingTicked)));
    }

    /// The checkbox's value reads back, and nothing else does.
    #[test]
    fn pick_values() {
        let p = Pick { entrant: 5, version: 3, line: 12 };
        assert_eq!(Pick::parse(&p.value()), Some(p));
        assert_eq!(Pick::parse("5:3"), None);
        assert_eq!(Pick::parse("5:3:12:1"), None);
        assert_eq!(Pick::parse("a:3:12"), None);
    }
}
