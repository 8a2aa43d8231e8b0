//! Rating lists (等级分名单): an EGF excerpt and a Chinese association's CSV uploaded with their
//! dates, each entrant shown beside the row that matched with the differences, two ticked and
//! applied (the ranks change, the audit names them), nothing applied once round 1 is published,
//! a broken file refused with its line named.

use crate::common;
use common::*;

/// A player's line of the EGF's list, its columns where the European Go Database writes them
/// (PIN 1–8, name 11–47, country 49–51, club 53–56, grade 60–62, GoR 71–74).
fn egf_line(pin: &str, name: &str, country: &str, club: &str, grade: &str, gor: i32) -> String {
    format!(" {pin:<8}  {name:<37} {country:<3} {club:<4}   {grade:<3}{:8}{gor:>4}  T261201A\n", "")
}

/// An EGF list excerpt, dated in its header, naming three of the players of [`EIGHT`].
fn egf_excerpt() -> String {
    let mut s = String::from(" (01.12.2026) European Go Database rating list\n");
    s.push_str("  Pin_Player Name                           Co  Club   Gr          GoR  Tournament\n");
    s.push_str(&egf_line("10000001", "Wang Yi", "CN", "Beij", "6d", 2640));
    s.push_str(&egf_line("10000002", "Li Er", "CN", "Shan", "4d", 2420));
    s.push_str(&egf_line("10000003", "Zhang San", "CN", "Hang", "2d", 2190));
    s.push_str(&egf_line("10000009", "Nobody Here", "DE", "Berl", "1k", 2000));
    s
}

fn upload(c: &Client, tid: i32, source: &str, date: &str, name: &str, data: &[u8]) -> Resp {
    let token = c.get(&format!("/t/{tid}/rating-lists")).csrf();
    c.post_file(
        &format!("/t/{tid}/rating-lists"),
        &[("csrf", &token), ("source", source), ("list_date", date), ("name", name)],
        "file",
        "list.txt",
        data,
    )
}

/// The boxes' values of the match page, by entrant id.
fn picks(page: &Resp) -> Vec<(i64, String)> {
    let mut out = Vec::new();
    for part in page.body.split("name=\"pick\" value=\"").skip(1) {
        let v = &part[..part.find('"').unwrap()];
        out.push((v.split(':').next().unwrap().parse().unwrap(), v.to_string()));
    }
    out
}

fn rank_of(s: &Server, eid: i64) -> (String, String, String) {
    let r = query(&s.db, &format!("SELECT rank, rating, egd_pin FROM entrants WHERE id = {eid}"));
    (r[0][0].clone(), r[0][1].clone(), r[0][2].clone())
}

/// OpenGotha's "Update ratings" practice: a list is matched by id, then by name, its changes
/// shown with none ticked; only the ticked entrants change, each with an audit row.
#[test]
fn egf_and_csv_lists_show_differences_and_apply_the_ticked() {
    let s = Server::start();
    let c = s.first_organizer();
    let tid = tournament_with_players(&c, "等级分名单赛", "Rating Open", &[], 4);
    let ids: Vec<i64> =
        query(&s.db, &format!("SELECT id FROM entrants WHERE tournament_id = {tid} ORDER BY id"))
            .iter()
            .map(|r| r[0].parse().unwrap())
            .collect();

    // The EGF list dates itself; no date typed.
    let r = upload(&c, tid, "egf", "", "", egf_excerpt().as_bytes());
    assert_eq!(r.status, 303, "{}", r.body);
    let page = c.get(&r.location());
    assert_eq!(page.status, 200);
    assert!(page.body.contains("dated 2026-12-01, 4 players; 3 of 4 entrants matched"), "{}", page.body);
    assert!(page.body.contains("5d → 6d") && page.body.contains("2500 → 2640"), "{}", page.body);
    assert!(page.body.contains("Latin name"), "{}", page.body);
    assert!(!page.body.contains(" checked"), "nothing is ticked by default");
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM rating_list_rows"), 4);
    let boxes = picks(&page);
    assert_eq!(boxes.len(), 3, "one box per matched entrant with changes: {boxes:?}");

    // Tick Wang Yi and Zhang San; Li Er stays as he is.
    let chosen: Vec<&str> =
        boxes.iter().filter(|(e, _)| *e == ids[0] || *e == ids[2]).map(|(_, v)| v.as_str()).collect();
    assert_eq!(chosen.len(), 2);
    let action = r.location() + "/apply";
    let fields: Vec<(&str, &str)> = chosen.iter().map(|v| ("pick", *v)).collect();
    let done = c.submit(&r.location(), &action, &fields);
    assert_eq!(done.status, 303, "{}", done.body);
    assert!(c.get(&done.location()).body.contains("2 entrants were updated."));
    assert_eq!(rank_of(&s, ids[0]), ("6d".into(), "2640".into(), "10000001".into()));
    assert_eq!(rank_of(&s, ids[2]), ("2d".into(), "2190".into(), "10000003".into()));
    assert_eq!(rank_of(&s, ids[1]), ("4d".into(), "2400".into(), String::new()), "not ticked, not changed");
    assert_eq!(
        count_rows(
            &s.db,
            &format!("SELECT count(*) FROM audit WHERE tournament_id = {tid} AND action = 'from_list'")
        ),
        2
    );
    let audit = c.get(&format!("/t/{tid}/audit"));
    assert!(audit.body.contains("from a rating list"), "{}", audit.body);
    assert!(audit.body.contains("imported the rating list"), "{}", audit.body);

    // The same ticks again are stale: nothing written.
    let again = c.submit(&r.location(), &action, &fields);
    assert_eq!(again.status, 409, "{}", again.body);

    // A Chinese association's list: matched by the Chinese name, the date typed.
    let csv = "编号,姓名,段位,单位\nC7,李二,5段,上海棋社\nC8,不在场,1段,\n";
    let r = upload(&c, tid, "csv", "2026-11-30", "省协会", csv.as_bytes());
    assert_eq!(r.status, 303, "{}", r.body);
    let page = c.get(&r.location());
    assert!(page.body.contains("Chinese name") && page.body.contains("4d → 5d"), "{}", page.body);
    let lists = c.get(&format!("/t/{tid}/rating-lists"));
    assert!(lists.body.contains("省协会") && lists.body.contains("2026-11-30"), "{}", lists.body);
}

/// A published pairing is locked: once round 1 is published a list changes no rank.
#[test]
fn refused_after_round_one_is_published() {
    let s = Server::start();
    let c = s.first_organizer();
    let tid = tournament_with_players(&c, "已开赛", "Started Open", &[], 4);
    let r = upload(&c, tid, "egf", "", "", egf_excerpt().as_bytes());
    assert_eq!(r.status, 303, "{}", r.body);
    let list = r.location();
    let shown = c.get(&list);
    let boxes = picks(&shown);
    pair_round(&c, tid, 1, "7");
    publish_round(&s, &c, tid, 1);
    let page = c.get(&list);
    assert!(page.body.contains("Round 1 is published"), "{}", page.body);
    let before = query(&s.db, &format!("SELECT rank FROM entrants WHERE tournament_id = {tid} ORDER BY id"));
    let r = c.post_form(&format!("{list}/apply"), &[("csrf", &page.csrf()), ("pick", &boxes[0].1)]);
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(r.body.contains("Round 1 is published"));
    assert_eq!(
        query(&s.db, &format!("SELECT rank FROM entrants WHERE tournament_id = {tid} ORDER BY id")),
        before
    );
}

/// A broken list is a 400 naming its line; nothing is stored, the form keeps what was typed.
#[test]
fn a_broken_file_is_refused_with_its_line() {
    let s = Server::start();
    let c = s.first_organizer();
    let tid = create_tournament(&c, "坏文件");
    let mut bad = egf_excerpt();
    bad.push_str(&egf_line("10000010", "Bad Grade", "NL", "Amst", "3x", 2000));
    let r = upload(&c, tid, "egf", "", "my list", bad.as_bytes());
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body.contains("Line 7: “3x” is not a rank."), "{}", r.body);
    assert!(r.body.contains("value=\"my list\""), "the typed name is kept");
    // A CSV list has no date of its own: one must be typed.
    let r = upload(&c, tid, "csv", "", "", "name,rank\nA B,1d\n".as_bytes());
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body.contains("type the list"), "{}", r.body);
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM rating_lists"), 0);
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM rating_list_rows"), 0);
}

/// The entrant form keeps an EGD PIN and a federation id (the ids a list matches first).
#[test]
fn the_entrant_form_keeps_the_ids() {
    let s = Server::start();
    let c = s.first_organizer();
    let tid = create_tournament(&c, "编号");
    let page = format!("/t/{tid}/entrants/new");
    let r = c.submit(
        &page,
        &page,
        &[
            ("family_name_latin", "Müller"),
            ("given_name_latin", "Hans"),
            ("rank", "2d"),
            ("egd_pin", "10000001"),
            ("federation_id", "F-77"),
        ],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let row =
        query(&s.db, &format!("SELECT egd_pin, federation_id FROM entrants WHERE tournament_id = {tid}"));
    assert_eq!(row[0], vec!["10000001".to_string(), "F-77".to_string()]);
    let eid = query(&s.db, &format!("SELECT id FROM entrants WHERE tournament_id = {tid}"))[0][0].clone();
    let edit = c.get(&format!("/t/{tid}/entrants/{eid}/edit"));
    assert!(
        edit.body.contains("value=\"10000001\"") && edit.body.contains("value=\"F-77\""),
        "{}",
        edit.body
    );
}
