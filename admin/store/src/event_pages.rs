//! What the event's pages read of its groups: how a group names itself on its pages, and each
//! group's figures for the event's overview (entrants, rounds paired and published).
//!
//! A group alone in its event names no group anywhere: its pages are the tournament's as they
//! always were ([`group_title`] is `None`).

use super::events::{self, Group, MembershipRow, MEMBERSHIP};
use super::schema::{entrants, event_groups, rounds, tournaments};
use super::tournaments::TournamentRow;
use super::Conn;
use super::DbError;
use diesel::prelude::*;

/// How a group of an event of several groups names itself: the event it belongs to and its
/// group name in both scripts (the event's name is its tournament row's, shared by every group).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupTitle {
    pub event_id: i32,
    pub group_zh: String,
    pub group_latin: String,
}

/// `tid`'s group title; `None` when the event has this one group (or `tid` is no group).
pub fn group_title(conn: &mut Conn, tid: i32) -> Result<Option<GroupTitle>, DbError> {
    let row: Option<(i32, String, String)> = event_groups::table
        .find(tid)
        .select((event_groups::event_id, event_groups::group_name_zh, event_groups::group_name_latin))
        .first(conn)
        .optional()?;
    let Some((event_id, group_zh, group_latin)) = row else { return Ok(None) };
    let n: i64 = event_groups::table.filter(event_groups::event_id.eq(event_id)).count().get_result(conn)?;
    Ok((n > 1).then_some(GroupTitle { event_id, group_zh, group_latin }))
}

/// One group of the event's overview: the group and its figures.
#[derive(Debug, Clone)]
pub struct GroupLine {
    pub group: Group,
    pub entrants: i64,
    /// Round numbers that exist (drafts and published), ascending.
    pub rounds: Vec<i32>,
    /// Published round numbers, ascending.
    pub published: Vec<i32>,
    /// Each existing round's number and version (the event's publish form carries them).
    pub versions: Vec<(i32, i32)>,
}

/// The groups of the event in hall order with their figures.
pub fn group_lines(conn: &mut Conn, event_id: i32) -> Result<Vec<GroupLine>, DbError> {
    let gs = events::groups(conn, event_id)?;
    let ids: Vec<i32> = gs.iter().map(Group::id).collect();
    let counts: Vec<(i32, i64)> = entrants::table
        .filter(entrants::tournament_id.eq_any(&ids))
        .group_by(entrants::tournament_id)
        .select((entrants::tournament_id, diesel::dsl::count_star()))
        .load(conn)?;
    let rs: Vec<(i32, i32, bool, i32)> = rounds::table
        .filter(rounds::tournament_id.eq_any(&ids))
        .select((rounds::tournament_id, rounds::number, rounds::published, rounds::version))
        .load(conn)?;
    Ok(gs
        .into_iter()
        .map(|g| {
            let id = g.id();
            let mut mine: Vec<&(i32, i32, bool, i32)> = rs.iter().filter(|r| r.0 == id).collect();
            mine.sort_by_key(|r| r.1);
            GroupLine {
                entrants: counts.iter().find(|c| c.0 == id).map_or(0, |c| c.1),
                rounds: mine.iter().map(|r| r.1).collect(),
                published: mine.iter().filter(|r| r.2).map(|r| r.1).collect(),
                versions: mine.iter().map(|r| (r.1, r.3)).collect(),
                group: g,
            }
        })
        .collect())
}

/// Every event with its groups in hall order, the events newest first (by their start date,
/// then the newest event): the home page's list.
pub fn all_events(conn: &mut Conn) -> Result<Vec<Vec<Group>>, DbError> {
    let rows: Vec<(TournamentRow, MembershipRow)> = tournaments::table
        .inner_join(event_groups::table)
        .select((TournamentRow::as_select(), MEMBERSHIP))
        .load(conn)?;
    let mut by_event: std::collections::BTreeMap<i32, Vec<Group>> = std::collections::BTreeMap::new();
    for g in rows.into_iter().map(|(t, m)| events::group_of(t, m)) {
        by_event.entry(g.event_id).or_default().push(g);
    }
    let mut out: Vec<Vec<Group>> = by_event.into_values().collect();
    for e in &mut out {
        e.sort_by_key(|g| (g.fields.group_order, g.id()));
    }
    out.sort_by(|a, b| (&b[0].t.start_date, b[0].event_id).cmp(&(&a[0].t.start_date, a[0].event_id)));
    Ok(out)
}

/// The groups an entrant of `tid` may move to: the event's others in hall order that have no
/// round yet, while `tid` has none either (`events::move_entrant`'s own rule: an entrant moves
/// before round 1 of both groups); none for a group alone.
pub fn move_targets(conn: &mut Conn, tid: i32) -> Result<Vec<Group>, DbError> {
    let groups = events::siblings(conn, tid)?;
    let ids: Vec<i32> = groups.iter().map(Group::id).collect();
    let started: Vec<i32> =
        rounds::table.filter(rounds::tournament_id.eq_any(&ids)).select(rounds::tournament_id).load(conn)?;
    if started.contains(&tid) {
        return Ok(Vec::new());
    }
    Ok(groups.into_iter().filter(|g| g.id() != tid && !started.contains(&g.id())).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entrants::{self as edb, ImportNote, ImportRow};
    use crate::events::GroupFields;
    use crate::{tournaments as tdb, Actor};
    use domain::settings::TournamentSettings;

    /// The groups rule (组别): a group names itself only beside others; the home page's list
    /// holds an event once with its groups in hall order; the overview counts each group's
    /// entrants; entrants may move while no group of the event has a round.
    #[test]
    fn an_event_reads_as_its_groups() {
        let dir = tempfile::tempdir().unwrap();
        let pool = crate::open(&dir.path().join("t.db")).unwrap();
        let mut conn = pool.get().unwrap();
        let actor = Actor::system("test");
        let mut s = TournamentSettings::defaults(
            chrono::NaiveDate::from_ymd_opt(2026, 12, 5).unwrap(),
            crate::server_zone(),
        );
        s.name_zh = "天元杯".into();
        let first = tdb::create(&mut conn, &actor, &s).unwrap();
        let alone = tdb::create(&mut conn, &actor, &s).unwrap();
        assert_eq!(group_title(&mut conn, first).unwrap(), None, "alone in its event");
        assert!(move_targets(&mut conn, first).unwrap().is_empty());
        let event = events::event_of(&mut conn, first).unwrap();
        let fields =
            GroupFields { group_name_zh: "少儿组".into(), group_order: 1, ..GroupFields::default() };
        let kids = events::add_group(&mut conn, &actor, event, &s, &fields).unwrap();
        let title = group_title(&mut conn, kids).unwrap().unwrap();
        assert_eq!((title.event_id, title.group_zh.as_str()), (event, "少儿组"));
        assert!(group_title(&mut conn, first).unwrap().is_some(), "a group beside another");
        let rows = domain::demo::demo_entrants(3, 4).into_iter().map(ImportRow::trusted).collect();
        edb::add_entrants(&mut conn, &actor, kids, rows, &ImportNote::new("test")).unwrap();
        let lines = group_lines(&mut conn, event).unwrap();
        let counts: Vec<(i32, i64)> = lines.iter().map(|l| (l.group.id(), l.entrants)).collect();
        assert_eq!(counts, vec![(first, 0), (kids, 4)], "hall order, then by id");
        assert!(lines.iter().all(|l| l.rounds.is_empty() && l.published.is_empty()));
        let all = all_events(&mut conn).unwrap();
        let ids: Vec<Vec<i32>> = all.iter().map(|e| e.iter().map(Group::id).collect()).collect();
        assert_eq!(ids, vec![vec![alone], vec![first, kids]], "newest event first, each once, in hall order");
        let targets: Vec<i32> = move_targets(&mut conn, first).unwrap().iter().map(Group::id).collect();
        assert_eq!(targets, vec![kids]);
    }
}
