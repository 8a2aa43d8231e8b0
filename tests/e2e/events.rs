//! Groups (组别) in one event, through the forms: an event made from /t/new, two groups added
//! (one by rank band, one by birth date), entrants proposed by the bands and confirmed, one
//! moved by hand and refused once round 1 exists, round 1 paired and published for every group
//! at once; the group pages name their group, the home page lists the event with its groups,
//! and an event of one group is the tournament as it always was.

use crate::common;
use common::*;

fn event_of(s: &Server, tid: i32) -> i32 {
    query_opt(&s.db, &format!("SELECT event_id FROM event_groups WHERE tournament_id = {tid}")).unwrap()
        as i32
}

fn group_of(s: &Server, entrant: i32) -> i32 {
    query_opt(&s.db, &format!("SELECT tournament_id FROM entrants WHERE id = {entrant}")).unwrap() as i32
}

/// An entrant through the form, with a birth date; its id.
fn entrant(s: &Server, c: &Client, tid: i32, family: &str, given: &str, rank: &str, born: &str) -> i32 {
    let page = format!("/t/{tid}/entrants/new");
    let r = c.submit(
        &page,
        &page,
        &[
            ("family_name_zh", family),
            ("given_name_zh", given),
            ("rank", rank),
            ("birth_date", born),
            ("unit", "北京棋院"),
        ],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    query_opt(&s.db, "SELECT max(id) FROM entrants").unwrap() as i32
}

fn groups_of(s: &Server, ev: i32) -> Vec<i32> {
    query(&s.db, &format!("SELECT tournament_id FROM event_groups WHERE event_id = {ev} ORDER BY group_order, tournament_id"))
        .into_iter()
        .map(|r| r[0].parse().unwrap())
        .collect()
}

/// The groups rule (组别; seed 000 leaves an event's fields to its 竞赛规程): 业余高段组 by rank
/// band ≥5段 and 少儿组 by birth date; entrants are proposed by the bands and confirmed by the
/// organizer, moved by hand only before round 1 (audited in both groups), and round 1 is
/// paired and published for every group at once.
#[test]
fn an_event_of_three_groups_is_run_through_its_forms() {
    let s = Server::start();
    let en = s.first_organizer();
    let zh = en.in_chinese();
    let open = create_tournament(&zh, "天元杯");
    let ev = event_of(&s, open);

    // A new tournament is an event of one group: its organizer sees how to add a group.
    let overview = zh.get(&format!("/t/{open}"));
    assert!(overview.body.contains(&format!("action=\"/e/{ev}/groups/new\"")), "{}", overview.body);

    // Entrants of the first group: two of 5段 and above, two children, two others.
    let dan6 = entrant(&s, &zh, open, "柯", "洁", "6d", "1997-08-02");
    let dan5 = entrant(&s, &zh, open, "王", "五段", "5d", "1990-01-01");
    let kid = entrant(&s, &zh, open, "李", "小", "3k", "2014-05-01");
    let kid2 = entrant(&s, &zh, open, "赵", "童", "1d", "2013-03-03");
    let plain = entrant(&s, &zh, open, "张", "三", "1d", "1980-02-02");
    let plain2 = entrant(&s, &zh, open, "孙", "四", "2k", "1975-02-02");
    let others = [plain, plain2];

    // The public standings, read (and cached) while the event has one group.
    let reader = s.client().in_chinese();
    let before = reader.get(&format!("/t/{open}/standings"));
    assert!(!before.body.contains(&format!("href=\"/e/{ev}\"")), "{}", before.body);
    // The first new group from the tournament's own page, by rank band (5段 and above).
    let r = send_form(
        &zh,
        &format!("/t/{open}"),
        "add-group",
        &[("group_name_zh", "业余高段组"), ("group_name_latin", "Amateur Dan"), ("rank_low", "5d")],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(r.location(), format!("/e/{ev}"));
    let high = *groups_of(&s, ev).last().unwrap();
    // A second group changes the first group's pages too (they now link the event): the
    // cached copy is not served again.
    let after = reader.get(&format!("/t/{open}/standings"));
    assert!(after.body.contains(&format!("href=\"/e/{ev}\"")), "{}", after.body);

    // A form that does not read: 400, the message beside the field, the entry kept, nothing written.
    let bad = send_form(
        &zh,
        &format!("/e/{ev}"),
        "add-group",
        &[("group_name_zh", "少儿组"), ("rank_low", "九段半")],
    );
    assert_eq!(bad.status, 400, "{}", bad.body);
    assert!(bad.field_error("rank_low-0").is_some(), "{}", bad.body);
    assert!(bad.body.contains("value=\"九段半\""), "the typed entry is kept");
    assert_eq!(groups_of(&s, ev).len(), 2);

    // The second, from the event's overview, by birth date.
    let r = send_form(
        &zh,
        &format!("/e/{ev}"),
        "add-group",
        &[
            ("group_name_zh", "少儿组"),
            ("group_name_latin", "Juniors"),
            ("born_on_or_after", "2012-01-01"),
            ("rounds", "5"),
        ],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let kids = *groups_of(&s, ev).last().unwrap();
    assert_eq!(query_opt(&s.db, &format!("SELECT rounds FROM tournaments WHERE id = {kids}")), Some(5));

    // The first group is named and put after the high-dan group in the hall.
    let r = send_form(
        &zh,
        &format!("/e/{ev}"),
        &format!("edit-{open}"),
        &[("group_name_zh", "公开组"), ("group_name_latin", "Open"), ("group_order", "5")],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    // A stale edit is refused, nothing written.
    let stale = zh.submit(
        &format!("/e/{ev}"),
        &format!("/e/{ev}/groups/{open}"),
        &[("group_name_zh", "旧名"), ("group_order", "5"), ("version", "1")],
    );
    assert_eq!(stale.status, 409, "{}", stale.body);
    assert_eq!(
        query_text(&s.db, &format!("SELECT group_name_zh FROM event_groups WHERE tournament_id = {open}"))
            .as_deref(),
        Some("公开组")
    );
    assert_eq!(groups_of(&s, ev), vec![high, kids, open], "hall order");

    // The bands propose the 5-dans for the high-dan group and the children for the juniors.
    let bands = zh.get(&format!("/e/{ev}/bands"));
    assert_eq!(bands.status, 200, "{}", bands.body);
    for e in [dan6, dan5, kid, kid2] {
        assert!(bands.body.contains(&format!("id=\"proposal-{e}\"")), "{e} proposed: {}", bands.body);
    }
    for e in others {
        assert!(!bands.body.contains(&format!("id=\"proposal-{e}\"")), "{e} stays");
    }
    // One proposed entrant is changed meanwhile: their move is refused as stale, the others move.
    let edit = format!("/t/{open}/entrants/{kid2}/edit");
    let r = send_form(&zh, &edit, "f-family_name_zh", &[("notes", "改过")]);
    assert_eq!(r.status, 303, "{}", r.body);
    let (action, fields) = bands.form_as_shown("bands");
    let r = zh.post_form(&action, &as_refs(&fields));
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(r.body.contains("该棋手的资料在您打开页面后已被修改"), "{}", r.body);
    assert_eq!((group_of(&s, dan6), group_of(&s, dan5), group_of(&s, kid)), (high, high, kids));
    assert_eq!(group_of(&s, kid2), open, "the stale one did not move");
    // Reviewed again: the one left is confirmed.
    let r = send_form(&zh, &format!("/e/{ev}/bands"), "bands", &[]);
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(group_of(&s, kid2), kids);
    assert!(zh.get(&format!("/e/{ev}/bands")).body.contains("id=\"no-proposals\""));

    // One entrant moved by hand from their edit page (调至组别).
    let edit = format!("/t/{open}/entrants/{plain2}/edit");
    let page = zh.get(&edit);
    assert!(page.body.contains("调至组别"), "{}", page.body);
    let r = send_form(&zh, &edit, "move", &[("to", &kids.to_string())]);
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(group_of(&s, plain2), kids);
    // The move is in both groups' audit trails.
    for g in [open, kids] {
        let audit = zh.get(&format!("/t/{g}/audit"));
        assert!(audit.body.contains("调至另一组别"), "group {g}: {}", audit.body);
    }
    // A group of another event is refused, nothing written.
    let elsewhere = create_tournament(&zh, "别的比赛");
    let edit = format!("/t/{kids}/entrants/{plain2}/edit");
    let r = send_form(&zh, &edit, "move", &[("to", &elsewhere.to_string())]);
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body.contains("只能调至本赛事的其他组别"), "{}", r.body);
    assert_eq!(group_of(&s, plain2), kids);
    // Another event's group in this event's path is not here.
    let v = query_opt(&s.db, &format!("SELECT version FROM tournaments WHERE id = {elsewhere}"))
        .unwrap()
        .to_string();
    let r = zh.submit(
        &format!("/e/{ev}"),
        &format!("/e/{ev}/groups/{elsewhere}"),
        &[("group_name_zh", "外组"), ("group_order", "1"), ("version", &v)],
    );
    assert_eq!(r.status, 404, "{}", r.body);
    assert_eq!(
        query_text(
            &s.db,
            &format!("SELECT group_name_zh FROM event_groups WHERE tournament_id = {elsewhere}")
        )
        .as_deref(),
        Some("")
    );
    // Give the open group enough players to pair.
    for (f, g) in [("周", "一"), ("吴", "二"), ("郑", "三")] {
        entrant(&s, &zh, open, f, g, "2k", "1985-01-01");
    }

    // Round 1 paired for every group at once, from the overview.
    let r = send_form(&zh, &format!("/e/{ev}"), "pair-all", &[]);
    assert_eq!(r.status, 303, "{}", r.body);
    for g in [high, kids, open] {
        let n = count_rows(
            &s.db,
            &format!("SELECT count(*) FROM rounds WHERE tournament_id = {g} AND number = 1"),
        );
        assert_eq!(n, 1, "group {g} paired");
    }
    // Now nobody moves: refused with its reason, the entrant where they were.
    let edit = format!("/t/{kids}/entrants/{plain2}/edit");
    assert!(!zh.get(&edit).body.contains("id=\"move\""), "no move form once a round exists");
    let version =
        query_opt(&s.db, &format!("SELECT version FROM entrants WHERE id = {plain2}")).unwrap().to_string();
    let r = zh.submit(
        &edit,
        &format!("/t/{kids}/entrants/{plain2}/move"),
        &[("to", &open.to_string()), ("version", &version)],
    );
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(r.body.contains("已有轮次编排"), "{}", r.body);
    assert_eq!(group_of(&s, plain2), kids);
    // Pairing round 1 again: each group refuses on its own line.
    let again = zh.submit(&format!("/e/{ev}"), &format!("/e/{ev}/rounds/1/pair"), &[]);
    assert_eq!(again.status, 409, "{}", again.body);
    assert_eq!(again.body.matches("class=\"err\" id=\"report-").count(), 3, "{}", again.body);

    // Published for every group at once.
    let r = send_form(&zh, &format!("/e/{ev}"), "publish-all", &[("confirm", "on")]);
    assert_eq!(r.status, 303, "{}", r.body);
    for g in [high, kids, open] {
        let published = query_opt(
            &s.db,
            &format!("SELECT published FROM rounds WHERE tournament_id = {g} AND number = 1"),
        );
        assert_eq!(published, Some(1), "group {g} published");
    }

    // Every group page names its group and links back to the event, for staff and public.
    let anon = s.client().in_chinese();
    for (c, path) in [
        (&zh, format!("/t/{high}/entrants")),
        (&anon, format!("/t/{high}/standings")),
        (&anon, format!("/t/{high}/pairings/1")),
    ] {
        let p = c.get(&path);
        assert_eq!(p.status, 200, "{path}");
        assert!(p.body.contains("天元杯 · 业余高段组"), "{path}: {}", p.body);
        assert!(p.body.contains(&format!("href=\"/e/{ev}\"")), "{path}");
    }
    assert!(en.get(&format!("/t/{kids}/players")).body.contains("Juniors"));
    // The public landing page: the groups with their public pages.
    let landing = anon.get(&format!("/e/{ev}"));
    assert_eq!(landing.status, 200, "{}", landing.body);
    for g in [high, kids, open] {
        assert!(landing.body.contains(&format!("href=\"/t/{g}/pairings/1\"")), "{}", landing.body);
    }
    assert!(!landing.body.contains("add-group"), "no forms for the public");
    // It follows every group live (assets/live.js): a round published in any shows.
    let ids: Vec<String> = groups_of(&s, ev).iter().map(i32::to_string).collect();
    assert!(landing.body.contains(&format!("data-live=\"{}\"", ids.join(","))), "{}", landing.body);
    // An arbiter of the event (the staff is the event's, one for every group) sees the groups
    // but no forms, and a write of theirs is refused.
    let (arb, uid) = add_user(&s, &en, "arbiter1", "arbiter");
    add_staff(&en, open, uid, "arbiter");
    let seen = arb.get(&format!("/e/{ev}"));
    assert_eq!(seen.status, 200, "{}", seen.body);
    assert!(seen.body.contains(&format!("id=\"group-{kids}\"")) && !seen.body.contains("id=\"add-group\""));
    let r = arb.submit(
        &format!("/e/{ev}"),
        &format!("/e/{ev}/groups/new"),
        &[("group_name_zh", "级位组"), ("system", "swiss"), ("rounds", "3")],
    );
    assert_eq!(r.status, 403, "{}", r.body);
    assert_eq!(groups_of(&s, ev).len(), 3);
    // The home page: one entry for the event, its groups beneath.
    let home = anon.get("/");
    assert!(home.body.contains(&format!("href=\"/e/{ev}\"")), "{}", home.body);
    assert!(home.body.contains("少儿组") && home.body.contains(&format!("href=\"/t/{kids}\"")));
}

/// The groups rule (组别): an event of one group is the tournament as it always was;
/// /e/{event} sends the reader to its tournament, and no page names a group or links an event.
#[test]
fn an_event_of_one_group_is_its_tournament() {
    let s = Server::start();
    let org = s.first_organizer();
    let tid = tournament_with_players(&org, "单组赛", "Single Open", &[], 4);
    let ev = event_of(&s, tid);
    let anon = s.client();
    for c in [&org, &anon] {
        let r = c.get(&format!("/e/{ev}"));
        assert_eq!(r.status, 303);
        assert_eq!(r.location(), format!("/t/{tid}"));
    }
    for (c, path) in [
        (&org, format!("/t/{tid}/entrants")),
        (&anon, format!("/t/{tid}/standings")),
        (&anon, format!("/t/{tid}")),
        (&anon, "/".to_string()),
    ] {
        let p = c.get(&path);
        assert_eq!(p.status, 200, "{path}");
        assert!(!p.body.contains("href=\"/e/"), "{path}: {}", p.body);
        if path != "/" {
            assert!(p.body.contains("<strong>Single Open</strong>"), "{path}: the tournament's name alone");
        }
    }
}

/// Security (no rule article): script and HTML typed into a group's names are text on every
/// page that shows them (the event's overview and landing page, the bands, the home page, the
/// group's own pages, an entrant's move select), in both languages, for staff and public.
#[test]
fn script_in_a_group_name_is_text_on_every_page() {
    let s = Server::start();
    let org = s.first_organizer();
    let open = create_tournament(&org, "脚本组测试");
    let ev = event_of(&s, open);
    let kid = entrant(&s, &org, open, "李", "小", "3k", "2014-05-01");
    let r = send_form(
        &org,
        &format!("/t/{open}"),
        "add-group",
        &[
            ("group_name_zh", "<script>alert(801)</script>"),
            ("group_name_latin", "<img src=x onerror=alert(802)>"),
            ("born_on_or_after", "2012-01-01"),
        ],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let g = *groups_of(&s, ev).last().unwrap();
    let anon = s.client();
    let pages = [
        (&org, format!("/e/{ev}")),
        (&org, format!("/e/{ev}/bands")),
        (&org, format!("/t/{g}/entrants")),
        (&org, format!("/t/{open}/entrants/{kid}/edit")),
        (&anon, format!("/e/{ev}")),
        (&anon, "/".to_string()),
        (&anon, format!("/t/{g}/players")),
        (&anon, format!("/t/{g}/standings")),
    ];
    for zh in [false, true] {
        for (c, path) in &pages {
            let chinese = c.in_chinese();
            let c: &Client = if zh { &chinese } else { c };
            let p = c.get(path);
            assert_eq!(p.status, 200, "{path}: {}", p.body);
            assert!(
                !p.body.contains("<script>alert(80") && !p.body.contains("<img src=x"),
                "{path}: {}",
                p.body
            );
            let shown = if zh { "alert(801)" } else { "alert(802)" };
            assert!(p.body.contains(shown), "{path} ({zh}) names the group: {}", p.body);
        }
    }
}
