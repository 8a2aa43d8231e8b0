//! Imports into an event of several groups (组别): the entrants CSV's group column and the
//! groups' bands, an OpenGotha file's categories becoming groups, the export naming the group,
//! and `tengen demo` as an open of three groups. The groups themselves are made through the
//! store (`store::events`), as the events pages would.

use crate::common;
use admin::db::events::{self, GroupFields};
use admin::db::{self, tournaments, Actor};
use admin::domain::groups::Band;
use common::*;

const CATEGORIES: &[u8] = include_bytes!("../../admin/tests/fixtures/opengotha/categories.xml");

fn upload(c: &Client, tid: i32, kind: &str, data: &[u8], fields: &[(&str, &str)]) -> Resp {
    let token = c.get(&format!("/t/{tid}/import")).csrf();
    let mut all = vec![("csrf", token.as_str())];
    all.extend_from_slice(fields);
    c.post_file(&format!("/t/{tid}/import/{kind}"), &all, "file", "list", data)
}

/// The confirmation form as the preview shows it (payload, change counter, `by_band`, the
/// checked mode), with `extra` set instead.
fn confirm(c: &Client, tid: i32, kind: &str, preview: &Resp, extra: &[(&str, &str)]) -> Resp {
    let (action, mut f) = preview.form_as_shown("import-confirm");
    assert_eq!(action, format!("/t/{tid}/import/{kind}/confirm"));
    f.retain(|(k, _)| !extra.iter().any(|(e, _)| e == k));
    f.extend(extra.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    let refs: Vec<(&str, &str)> = f.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    c.post_form(&action, &refs)
}

/// The text between `from` and the next `to` on the page.
fn between<'a>(r: &'a Resp, from: &str, to: &str) -> &'a str {
    let i = r.body.find(from).unwrap_or_else(|| panic!("no {from}: {}", r.body)) + from.len();
    &r.body[i..i + r.body[i..].find(to).unwrap()]
}

/// The event of `tid` as an open of three groups in hall order: `tid` itself named
/// 业余高段组 (5段 and above), 公开组 (the catch-all) and 少儿组 (born on or after
/// 2014-06-01). Returns their ids in that order.
fn three_groups(s: &Server, tid: i32) -> [i32; 3] {
    let pool = db::open(&s.db).unwrap();
    let mut conn = pool.get().unwrap();
    let actor = Actor::system("test");
    let t = tournaments::get(&mut conn, tid).unwrap();
    let fields = |zh: &str, latin: &str, band: Band| GroupFields {
        group_name_zh: zh.into(),
        group_name_latin: latin.into(),
        band,
        ..GroupFields::default()
    };
    let high = Band { rank_low: Some(4), ..Band::default() };
    let kids = Band { born_on_or_after: "2014-06-01".parse().ok(), ..Band::default() };
    let mut first = fields("业余高段组", "High dan", high);
    first.group_order = 1;
    events::set_group(&mut conn, &actor, tid, t.version, &first).unwrap();
    let event = events::event_of(&mut conn, tid).unwrap();
    let open = events::add_group(
        &mut conn,
        &actor,
        event,
        &t.settings(),
        &fields("公开组", "Open", Band::default()),
    )
    .unwrap();
    let young =
        events::add_group(&mut conn, &actor, event, &t.settings(), &fields("少儿组", "Juniors", kids))
            .unwrap();
    [tid, open, young]
}

fn entrants_of(s: &Server, tid: i32) -> i64 {
    count_rows(&s.db, &format!("SELECT count(*) FROM entrants WHERE tournament_id = {tid}"))
}

fn names_in(s: &Server, tid: i32) -> Vec<String> {
    let sql = format!(
        "SELECT family_name_zh || given_name_zh FROM entrants WHERE tournament_id = {tid} ORDER BY family_name_zh, given_name_zh"
    );
    query(&s.db, &sql).into_iter().map(|r| r[0].clone()).collect()
}

/// The event's own groups (seed 000 has none; an open's groups are its own): a CSV imported on
/// one group's page sends each row to the group its 组别 cell names, in one write over the
/// event with an import row in each group's trail; the preview counts them per group; the
/// export of a group names it and imports back into the same group.
#[test]
fn a_csv_with_a_group_column_fills_every_group_of_the_event() {
    let s = Server::start();
    let c = s.first_organizer().in_chinese();
    let tid = create_tournament(&c, "分组公开赛");
    let [high, open, young] = three_groups(&s, tid);
    let csv = "姓名,段位,出生日期,组别\n王子涵,6段,1990-01-02,业余高段组\n李昊然,5段,1988-03-04,High dan\n\
               赵磊,3段,2015-05-06,少儿组\n陈伟,2级,1995-07-08,\n刘芳,1段,2016-01-01,公开组\n";
    let p = upload(&c, open, "csv", csv.as_bytes(), &[]);
    assert_eq!(p.status, 200, "{}", p.body);
    let per_group = between(&p, "<ul id=\"per-group\">", "</ul>");
    for line in ["业余高段组：2 人", "公开组：2 人", "少儿组：1 人"] {
        assert!(per_group.contains(line), "{line}: {per_group}");
    }
    assert!(p.body.contains("<td class=\"group\">少儿组</td>"), "each row shows its group");
    let r = confirm(&c, open, "csv", &p, &[]);
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(names_in(&s, high), ["李昊然", "王子涵"]);
    assert_eq!(names_in(&s, open), ["刘芳", "陈伟"], "an empty cell stays in the group imported into");
    assert_eq!(names_in(&s, young), ["赵磊"]);
    for g in [high, open, young] {
        let sql = format!(
            "SELECT count(*) FROM audit WHERE tournament_id = {g} AND action = 'import' AND entity = 'tournament'"
        );
        assert_eq!(count_rows(&s.db, &sql), 1, "an import row in group {g}'s trail");
    }
    // The export names the group, and imports back into it from another group's page.
    let export = c.get(&format!("/t/{young}/entrants.csv"));
    let text = String::from_utf8_lossy(&export.bytes).to_string();
    assert!(text.lines().next().unwrap().ends_with(",组别"), "{text}");
    assert!(text.lines().nth(1).unwrap().ends_with(",少儿组"), "{text}");
    let en = String::from_utf8_lossy(&c.get(&format!("/t/{young}/entrants.csv?lang=en")).bytes).to_string();
    assert!(en.lines().next().unwrap().ends_with(",group") && en.contains(",Juniors"), "{en}");
    exec_sql(&s.db, &format!("DELETE FROM entrants WHERE tournament_id = {young}"));
    let p = upload(&c, high, "csv", &export.bytes, &[]);
    assert_eq!(confirm(&c, high, "csv", &p, &[]).status, 303);
    assert_eq!(names_in(&s, young), ["赵磊"]);
    // A tournament of one group writes no group column.
    let single = create_tournament(&c, "单组赛");
    let one = String::from_utf8_lossy(&c.get(&format!("/t/{single}/entrants.csv")).bytes).to_string();
    assert!(!one.lines().next().unwrap().contains("组别"), "{one}");
}

/// A group name the event does not have is a problem line naming the row and the name: the
/// confirmation is refused and nothing is written in any group. In an event of one group the
/// column may only be empty or name it.
#[test]
fn an_unknown_group_is_a_problem_line_and_nothing_is_written() {
    let s = Server::start();
    let c = s.first_organizer().in_chinese();
    let tid = create_tournament(&c, "分组公开赛");
    let groups = three_groups(&s, tid);
    let csv = "姓名,段位,组别\n王子涵,6段,业余高段组\n李昊然,3级,老年组\n";
    let p = upload(&c, tid, "csv", csv.as_bytes(), &[]);
    assert_eq!(p.status, 200);
    let bad = between(&p, "<tbody>", "</tbody>");
    assert!(bad.contains("第3行（李昊然）：组别“老年组”不是本赛事的组别"), "{bad}");
    assert!(bad.contains("业余高段组、公开组、少儿组"), "the event's groups named: {bad}");
    let r = confirm(&c, tid, "csv", &p, &[]);
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(groups.iter().all(|&g| entrants_of(&s, g) == 0), "nothing written");
    // Replacing concerns the group imported into only: a list reaching other groups is refused.
    let other = "姓名,段位,组别\n赵磊,3段,少儿组\n";
    let p = upload(&c, tid, "csv", other.as_bytes(), &[]);
    let r = confirm(&c, tid, "csv", &p, &[("replace", "on")]);
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.body.contains("替换只针对本组别"), "{}", r.body);
    assert!(groups.iter().all(|&g| entrants_of(&s, g) == 0), "nothing written");
    // One group: another group's name is refused with the reason.
    let single = create_tournament(&c, "单组赛");
    let csv = "姓名,段位,组别\n王子涵,6段,\n李昊然,3级,少儿组\n";
    let p = upload(&c, single, "csv", csv.as_bytes(), &[]);
    assert!(p.body.contains("本赛事只有一个组别"), "{}", p.body);
    assert_eq!(confirm(&c, single, "csv", &p, &[]).status, 422);
    assert_eq!(entrants_of(&s, single), 0);
    // Naming the event itself, or nothing, is fine there.
    let ok = "姓名,段位,组别\n王子涵,6段,单组赛\n李昊然,3级,\n";
    let p = upload(&c, single, "csv", ok.as_bytes(), &[]);
    assert_eq!(confirm(&c, single, "csv", &p, &[]).status, 303);
    assert_eq!(entrants_of(&s, single), 2);
}

/// Bands (业余高段组: 5段 and above; 少儿组: born on or after a date; 公开组 the rest), as
/// `domain::groups::propose` places them: ticked "by band", a list without a group column
/// goes to the groups the bands give, the choice carried from the preview to the confirmation.
#[test]
fn by_band_a_list_without_a_group_column_is_placed_by_the_bands() {
    let s = Server::start();
    let c = s.first_organizer().in_chinese();
    let tid = create_tournament(&c, "分组公开赛");
    let [high, open, young] = three_groups(&s, tid);
    let csv = "姓名,段位,出生日期\n王子涵,6段,1990-01-02\n赵磊,3段,2015-05-06\n陈伟,2级,1995-07-08\n\
               刘芳,5段,2016-01-01\n";
    let p = upload(&c, open, "csv", csv.as_bytes(), &[("by_band", "on")]);
    assert_eq!(p.status, 200);
    assert_eq!(p.input("by_band").as_deref(), Some("on"), "carried to the confirmation");
    assert!(p.body.contains("未写组别的行按各组别的条件分组"), "{}", p.body);
    assert_eq!(confirm(&c, open, "csv", &p, &[]).status, 303);
    assert_eq!(names_in(&s, high), ["刘芳", "王子涵"], "a 5-dan child is in the first band that admits her");
    assert_eq!(names_in(&s, young), ["赵磊"]);
    assert_eq!(names_in(&s, open), ["陈伟"]);
    // Without a catch-all group, a row no band takes is a problem line naming it.
    exec_sql(
        &s.db,
        &format!("UPDATE event_groups SET band = '{{\"rank_high\":-10}}' WHERE tournament_id = {open}"),
    );
    let p = upload(
        &c,
        open,
        "csv",
        "姓名,段位,出生日期\n周杰,1段,1980-01-01\n吴琳,12级,1980-01-01\n".as_bytes(),
        &[("by_band", "on")],
    );
    let bad = between(&p, "<tbody>", "</tbody>");
    assert!(bad.contains("第2行（周杰）：按组别条件，没有哪个组别收这名选手"), "{bad}");
    assert!(!bad.contains("吴琳"), "12级 is in the changed band: {bad}");
    // Not ticked: the same list stays in the group imported into.
    let t2 = create_tournament(&c, "分组公开赛二");
    let [h2, o2, y2] = three_groups(&s, t2);
    let p = upload(&c, o2, "csv", csv.as_bytes(), &[]);
    assert_eq!(confirm(&c, o2, "csv", &p, &[]).status, 303);
    assert_eq!((entrants_of(&s, h2), entrants_of(&s, o2), entrants_of(&s, y2)), (0, 4, 0));
}

/// OpenGotha's categories (`Player.category`: the first category whose lower limit the rank
/// reaches) become the groups of a new event, the strongest first, each with its players,
/// games, byes and absences; imported into the existing event, they are not kept.
#[test]
fn an_opengotha_file_with_categories_becomes_an_event_of_groups() {
    let s = Server::start();
    let c = s.first_organizer().in_chinese();
    let tid = create_tournament(&c, "导入测试");
    let p = upload(&c, tid, "opengotha", CATEGORIES, &[]);
    assert_eq!(p.status, 200, "{}", p.body);
    assert!(between(&p, "<p id=\"groups-note\">", "</p>").contains("3 个组别"), "{}", p.body);
    let per_group = between(&p, "<ul id=\"per-group\">", "</ul>");
    assert!(per_group.contains("组 1（") && per_group.contains("：2 人"), "{per_group}");
    assert!(!p.body.contains("导入本赛事时不分组别；用此文件新建赛事"), "said once, above the list");
    let r = confirm(&c, tid, "opengotha", &p, &[("mode", "new")]);
    assert_eq!(r.status, 303, "{}", r.body);
    let new: i32 = r.location().trim_start_matches("/t/").split('/').next().unwrap().parse().unwrap();
    let sql = format!(
        "SELECT g.tournament_id, g.group_name_zh, g.group_name_latin, g.group_order, g.band FROM event_groups g \
         WHERE g.event_id = (SELECT event_id FROM event_groups WHERE tournament_id = {new}) ORDER BY g.group_order"
    );
    let rows = query(&s.db, &sql);
    assert_eq!(rows.len(), 3, "{rows:?}");
    let names: Vec<(&str, &str, &str)> =
        rows.iter().map(|r| (r[1].as_str(), r[2].as_str(), r[3].as_str())).collect();
    assert_eq!(names, [("组 1", "Group 1", "1"), ("组 2", "Group 2", "2"), ("组 3", "Group 3", "3")]);
    assert_eq!(rows[0][4], r#"{"rank_low":4}"#);
    assert_eq!(rows[1][4], r#"{"rank_low":-1,"rank_high":3}"#);
    let ids: Vec<i32> = rows.iter().map(|r| r[0].parse().unwrap()).collect();
    assert_eq!(ids[0], new, "the redirect goes to the strongest group");
    assert_eq!(names_in(&s, ids[0]), ["李昊然", "王子涵"]);
    assert_eq!(names_in(&s, ids[1]), ["欧阳娜娜", "赵磊"]);
    assert_eq!(names_in(&s, ids[2]), ["刘芳", "陈伟"]);
    for (g, games) in ids.iter().zip([1, 1, 1]) {
        let sql = format!("SELECT count(*) FROM games WHERE tournament_id = {g}");
        assert_eq!(count_rows(&s.db, &sql), games, "group {g}: a game or the bye");
    }
    let absent = format!("SELECT count(*) FROM round_absences WHERE tournament_id = {}", ids[2]);
    assert_eq!(count_rows(&s.db, &absent), 1);
    assert_eq!(entrants_of(&s, tid), 0, "the event imported from is untouched");
    // Into this (empty, one-group) event: one field, as before.
    let p = upload(&c, tid, "opengotha", CATEGORIES, &[]);
    assert_eq!(confirm(&c, tid, "opengotha", &p, &[("mode", "replace")]).status, 303);
    assert_eq!(entrants_of(&s, tid), 6);
    let sql = format!(
        "SELECT count(*) FROM event_groups WHERE event_id = (SELECT event_id FROM event_groups WHERE tournament_id = {tid})"
    );
    assert_eq!(count_rows(&s.db, &sql), 1);
}

/// `tengen demo` is a Chinese open of three groups in one event (业余高段组: 5段 and above;
/// 公开组: the rest; 少儿组: born on or after 12 years before the event), the field placed
/// by the bands, two rounds played and the third published in every group.
#[test]
fn the_demo_is_an_open_of_three_groups_with_rounds_played() {
    let dir = tempfile::tempdir().unwrap();
    let db = fresh_database(dir.path());
    let out = cli(&db, &["demo"], None);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let groups = query(
        &db,
        "SELECT g.tournament_id, g.group_name_zh, g.band FROM event_groups g ORDER BY g.group_order",
    );
    let names: Vec<&str> = groups.iter().map(|g| g[1].as_str()).collect();
    assert_eq!(names, ["业余高段组", "公开组", "少儿组"]);
    assert_eq!(count_rows(&db, "SELECT count(DISTINCT event_id) FROM event_groups"), 1, "one event");
    assert_eq!(groups[0][2], r#"{"rank_low":4}"#, "5段 and above");
    assert_eq!(groups[1][2], "", "the catch-all");
    assert!(groups[2][2].starts_with(r#"{"born_on_or_after":""#), "{}", groups[2][2]);
    for g in &groups {
        let tid = &g[0];
        let n = count_rows(&db, &format!("SELECT count(*) FROM entrants WHERE tournament_id = {tid}"));
        assert!(n >= 4, "{}: {n} entrants", g[1]);
        let published = count_rows(
            &db,
            &format!("SELECT count(*) FROM rounds WHERE tournament_id = {tid} AND published"),
        );
        assert_eq!(published, 3, "{}", g[1]);
        let played = count_rows(
            &db,
            &format!(
                "SELECT count(*) FROM games WHERE tournament_id = {tid} AND round_number <= 2 \
                 AND white_id IS NOT NULL AND result <> 'RESULT_UNKNOWN'"
            ),
        );
        assert!(played >= 2, "{}: {played} games played", g[1]);
    }
    // Every entrant is in the group their band gives.
    let high =
        format!("SELECT count(*) FROM entrants WHERE tournament_id = {} AND rank_value < 4", groups[0][0]);
    assert_eq!(count_rows(&db, &high), 0);
    let low =
        format!("SELECT count(*) FROM entrants WHERE tournament_id <> {} AND rank_value >= 4", groups[0][0]);
    assert_eq!(count_rows(&db, &low), 0);
}
