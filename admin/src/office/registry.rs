//! A person's events across Tengen with their results: the registry's entrants of the person,
//! each event's standings from its published rounds only (`store::results::standings_data`
//! reads published rounds), their place and score. What the public person page shows.

use crate::db::persons::{self, PersonRow, RankRow};
use crate::db::results as rdb;
use crate::db::tournaments::{self as tdb, TournamentRow};
use crate::db::{Conn, DbError};

/// One event the person played in.
pub struct EventResult {
    pub t: TournamentRow,
    pub entrant_id: i32,
    /// The entrant's rank at the event (its own copy).
    pub rank: String,
    /// The score in half points and the place (`shared`: tied) after the last published round
    /// with a result; none before any.
    pub standing: Option<(i64, u32, bool)>,
    /// The EGF rating change computed after the event, if it was.
    pub rating: Option<crate::db::rating_changes::RatingChange>,
}

/// A person with their rank history and events, newest event first.
pub struct PersonRecord {
    pub person: PersonRow,
    pub ranks: Vec<(RankRow, Option<TournamentRow>)>,
    pub events: Vec<EventResult>,
}

pub fn record(conn: &mut Conn, pid: i32) -> Result<PersonRecord, DbError> {
    let person = persons::get(conn, pid)?;
    let mut events = Vec::new();
    for e in persons::entrants_of(conn, pid)? {
        let t = tdb::get(conn, e.tournament_id)?;
        let data = rdb::standings_data(conn, t.id)?;
        let st = rdb::latest_standings(&t, &data);
        let standing = (st.after_round > 0)
            .then(|| st.rows.iter().find(|r| i64::from(r.id) == i64::from(e.id)))
            .flatten()
            .map(|r| (r.score, r.place, r.shared));
        let rating = crate::db::rating_changes::of_entrant(conn, e.id)?;
        events.push(EventResult { t, entrant_id: e.id, rank: e.rank.clone(), standing, rating });
    }
    events.sort_by(|a, b| (&b.t.start_date, b.t.id).cmp(&(&a.t.start_date, a.t.id)));
    let mut ranks = Vec::new();
    for r in persons::ranks(conn, pid)? {
        // A rank's event is one of the person's events, read above; read again only if not.
        let known =
            r.tournament_id.and_then(|tid| events.iter().find(|e| e.t.id == tid)).map(|e| e.t.clone());
        let t = match (known, r.tournament_id) {
            (Some(t), _) => Some(t),
            (None, Some(tid)) => Some(tdb::get(conn, tid)?),
            (None, None) => None,
        };
        ranks.push((r, t));
    }
    Ok(PersonRecord { person, ranks, events })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::entrants as edb;
    use crate::db::Actor;
    use crate::domain::entrant::{EntrantInput, Rank};

    fn event(c: &mut Conn, name: &str, day: u32) -> i32 {
        let mut s = crate::domain::settings::TournamentSettings::defaults(
            chrono::NaiveDate::from_ymd_opt(2026, 3, day).unwrap(),
            crate::machine::zone(),
        );
        s.name_latin = name.into();
        tdb::create(c, &Actor::system("test"), &s).unwrap()
    }

    fn wang(rank: &str) -> EntrantInput {
        let mut i = EntrantInput::new(Rank::parse(rank).unwrap());
        i.family_name_zh = "王".into();
        i.given_name_zh = "小明".into();
        i.birth_date = chrono::NaiveDate::from_ymd_opt(2010, 4, 1);
        i.cleaned(chrono::NaiveDate::from_ymd_opt(2026, 1, 1).unwrap()).unwrap()
    }

    /// Registry practice (an ID card's name and birth date): the same player entered in two
    /// events is one person with the rank each event knew; a rank edited before round 1
    /// replaces that event's rank, not the other's.
    #[test]
    fn one_person_across_two_events_with_each_rank() {
        let dir = tempfile::tempdir().unwrap();
        let pool = crate::db::open(&dir.path().join("t.db")).unwrap();
        let c = &mut pool.get().unwrap();
        let a = Actor::system("test");
        let (t1, t2) = (event(c, "Spring", 1), event(c, "Summer", 20));
        let e1 = edb::create(c, &a, t1, &wang("2k"), false, None).unwrap();
        let e2 = edb::create(c, &a, t2, &wang("1k"), false, None).unwrap();
        let (p1, p2) = (edb::get(c, t1, e1).unwrap().person_id, edb::get(c, t2, e2).unwrap().person_id);
        assert!(p1.is_some());
        assert_eq!(p1, p2, "same Chinese name and birth date: one person");
        let r = record(c, p1.unwrap()).unwrap();
        assert_eq!(r.events.iter().map(|e| e.t.id).collect::<Vec<_>>(), vec![t2, t1]);
        let history: Vec<&str> = r.ranks.iter().map(|(r, _)| r.rank.as_str()).collect();
        assert_eq!(history, vec!["2k", "1k"]);
        let v = edb::get(c, t2, e2).unwrap().version;
        edb::update(c, &a, t2, e2, v, &wang("1d"), "", true).unwrap();
        let history: Vec<String> =
            record(c, p1.unwrap()).unwrap().ranks.into_iter().map(|(r, _)| r.rank).collect();
        assert_eq!(history, vec!["2k".to_string(), "1d".to_string()]);
    }
}
