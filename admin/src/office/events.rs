//! The event's actions over its groups, and the title a group's pages and documents show.
//!
//! A round of the event is paired or published for every group at once: each group in hall
//! order exactly as its own round page would do it (`pair_round`, `rounds::publish`), each
//! group's refusal its own, none skipped without saying so. Groups are paired in hall order so
//! that each group's hall numbers follow those of the groups before it.

use super::pair_round::{pair_round, PairRound};
use crate::db::event_pages::{self, GroupTitle};
use crate::db::events::{self, Group, GroupFields};
use crate::db::rounds::{self as rdb, Outcome, RoundError};
use crate::db::tournaments::TournamentRow;
use crate::db::{Actor, Conn, DbError};
use crate::i18n::{tr, Lang};
use domain::pairing::review::Warning;

/// A name in the reader's script: the Chinese one for a Chinese reader, the Latin one for
/// others, each falling back on the other when it is empty.
pub fn in_script(zh: bool, name_zh: &str, name_latin: &str) -> String {
    match (zh, name_zh.is_empty(), name_latin.is_empty()) {
        (true, false, _) | (false, false, true) => name_zh.to_string(),
        _ => name_latin.to_string(),
    }
}

/// A group's name in the reader's language.
pub fn group_name(lang: Lang, g: &GroupFields) -> String {
    in_script(lang.is_zh(), &g.group_name_zh, &g.group_name_latin)
}

/// "{event} · {group}" ("天元杯 · 业余高段组"): the title of a group of an event of several
/// groups, in the reader's language; the event's name alone for a group not yet named (the
/// first group, before its organizer named it).
pub fn group_title(lang: Lang, t: &TournamentRow, g: &GroupTitle) -> String {
    let event = t.name(lang.is_zh()).to_string();
    match in_script(lang.is_zh(), &g.group_zh, &g.group_latin) {
        group if group.is_empty() => event,
        group => tr!(lang, "group.title", event, group),
    }
}

/// The title of a tournament's pages and documents: its name alone when its event has this one
/// group (`group` none, as it always was), "{event} · {group}" otherwise.
pub fn title(lang: Lang, t: &TournamentRow, group: Option<&GroupTitle>) -> String {
    match group {
        Some(g) => group_title(lang, t, g),
        None => t.name(lang.is_zh()).to_string(),
    }
}

/// [`title`], read: the title of tournament `t`'s pages and documents.
pub fn title_of(conn: &mut Conn, lang: Lang, t: &TournamentRow) -> Result<String, DbError> {
    Ok(title(lang, t, event_pages::group_title(conn, t.id)?.as_ref()))
}

/// What became of one group's round in an action on the whole event.
#[derive(Debug)]
pub enum Step {
    /// Paired (a draft) or published.
    Done,
    /// Nothing written for this group: its round's review warnings need the confirmation box.
    Warnings(Vec<Warning>),
    /// Nothing written for this group: the round is not paired (publishing only).
    NotPaired,
    /// The group's own refusal, as its round page would give it.
    Refused(RoundError),
}

/// Pair round `n` of every group of the event, in hall order, each with a seed of its own from
/// `seed` (a new draw every time, as a round page pairing without a typed seed), `confirm`
/// confirming games of earlier rounds without a result.
pub fn pair_all(
    conn: &mut Conn,
    actor: &Actor,
    event_id: i32,
    n: i32,
    confirm: bool,
    seed: &mut dyn FnMut() -> u64,
) -> Result<Vec<(Group, Step)>, DbError> {
    let mut out = Vec::new();
    for g in events::groups(conn, event_id)? {
        let ask = PairRound { round: n, seed: seed(), expected_version: None, confirm, reason: "" };
        let step = match pair_round(conn, actor, g.id(), &ask) {
            Ok(_) => Step::Done,
            Err(RoundError::OpenGames(w)) => Step::Warnings(w),
            Err(RoundError::Db(e)) => return Err(e),
            Err(e) => Step::Refused(e),
        };
        out.push((g, step));
    }
    Ok(out)
}

/// Publish round `n` of every group of the event, in hall order: each group's draft at the
/// version the page showed (`version_of(group)`; none shown is a stale page), `confirm`
/// confirming the review warnings.
pub fn publish_all(
    conn: &mut Conn,
    actor: &Actor,
    event_id: i32,
    n: i32,
    version_of: &dyn Fn(i32) -> Option<i32>,
    confirm: bool,
) -> Result<Vec<(Group, Step)>, DbError> {
    let mut out = Vec::new();
    for g in events::groups(conn, event_id)? {
        let current = match rdb::get(conn, g.id(), n) {
            Ok(r) => r.version,
            Err(DbError::NotFound) => {
                out.push((g, Step::NotPaired));
                continue;
            }
            Err(e) => return Err(e),
        };
        let step = match version_of(g.id()) {
            None => Step::Refused(RoundError::Stale { current }),
            Some(v) => match rdb::publish(conn, actor, g.id(), n, v, confirm, "") {
                Ok(Outcome::Saved { .. }) => Step::Done,
                Ok(Outcome::NeedsConfirmation { warnings }) => Step::Warnings(warnings),
                Err(RoundError::Db(e)) => return Err(e),
                Err(e) => Step::Refused(e),
            },
        };
        out.push((g, step));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::entrants::{self as edb};
    use crate::db::tournaments as tdb;
    use domain::demo::demo_entrants;
    use domain::settings::{ColourMethod, TournamentSettings};

    fn settings(name: &str) -> TournamentSettings {
        let mut s = TournamentSettings::defaults(
            chrono::NaiveDate::from_ymd_opt(2026, 12, 5).unwrap(),
            crate::db::server_zone(),
        );
        s.name_zh = name.into();
        s.name_latin = "Tengen Cup".into();
        s.rounds = 5;
        s.colour_method = ColourMethod::Balanced;
        s
    }

    /// The groups rule (组别): an event's round is paired for every group in hall order, a group
    /// too small to pair refused on its own while the others are paired, and publishing all
    /// names the group whose round does not exist.
    #[test]
    fn every_group_is_paired_and_published_on_its_own() {
        let dir = tempfile::tempdir().unwrap();
        let pool = crate::db::open(&dir.path().join("t.db")).unwrap();
        let mut conn = pool.get().unwrap();
        let actor = Actor::system("test");
        let first = tdb::create(&mut conn, &actor, &settings("天元杯")).unwrap();
        let event = events::event_of(&mut conn, first).unwrap();
        let fields = |zh: &str| GroupFields { group_name_zh: zh.into(), ..GroupFields::default() };
        let second = events::add_group(&mut conn, &actor, event, &settings("x"), &fields("少儿组")).unwrap();
        let empty = events::add_group(&mut conn, &actor, event, &settings("x"), &fields("级位组")).unwrap();
        for (tid, seed) in [(first, 1), (second, 2)] {
            let rows = demo_entrants(seed, 10).into_iter().map(edb::ImportRow::trusted).collect();
            edb::add_entrants(&mut conn, &actor, tid, rows, &edb::ImportNote::new("test")).unwrap();
        }
        let mut k = 0;
        let paired = pair_all(&mut conn, &actor, event, 1, false, &mut || {
            k += 1;
            k
        })
        .unwrap();
        let ids: Vec<i32> = paired.iter().map(|(g, _)| g.id()).collect();
        assert_eq!(ids, vec![first, second, empty], "hall order");
        assert!(matches!(paired[0].1, Step::Done) && matches!(paired[1].1, Step::Done));
        assert!(matches!(paired[2].1, Step::Refused(RoundError::Plan(_))), "{:?}", paired[2].1);
        let versions = |tid: i32| rdb::get(&mut pool.get().unwrap(), tid, 1).ok().map(|r| r.version);
        let published = publish_all(&mut conn, &actor, event, 1, &versions, true).unwrap();
        assert!(matches!(published[0].1, Step::Done) && matches!(published[1].1, Step::Done));
        assert!(matches!(published[2].1, Step::NotPaired));
        assert!(rdb::get(&mut conn, first, 1).unwrap().published);
        assert!(rdb::get(&mut conn, second, 1).unwrap().published);
        // The same again: each group refuses on its own (round 1 is published).
        let again = publish_all(&mut conn, &actor, event, 1, &versions, true).unwrap();
        assert!(matches!(again[0].1, Step::Refused(_)), "{:?}", again[0].1);
    }

    /// The groups rule (组别): a group alone in its event names no group; one of several is
    /// "{event} · {group}".
    #[test]
    fn a_group_is_named_only_beside_others() {
        let dir = tempfile::tempdir().unwrap();
        let pool = crate::db::open(&dir.path().join("t.db")).unwrap();
        let mut conn = pool.get().unwrap();
        let actor = Actor::system("test");
        let first = tdb::create(&mut conn, &actor, &settings("天元杯")).unwrap();
        let t = tdb::get(&mut conn, first).unwrap();
        assert_eq!(title_of(&mut conn, Lang::Zh, &t).unwrap(), "天元杯");
        let event = events::event_of(&mut conn, first).unwrap();
        let fields = GroupFields {
            group_name_zh: "业余高段组".into(),
            group_name_latin: "Amateur dan".into(),
            ..GroupFields::default()
        };
        let high = events::add_group(&mut conn, &actor, event, &settings("x"), &fields).unwrap();
        let h = tdb::get(&mut conn, high).unwrap();
        assert_eq!(title_of(&mut conn, Lang::Zh, &h).unwrap(), "天元杯 · 业余高段组");
        assert_eq!(title_of(&mut conn, Lang::En, &h).unwrap(), "Tengen Cup · Amateur dan");
    }
}
