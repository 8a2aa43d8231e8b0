//! Ratings after the event (EGF GoR) and the registrations' retention, through the pages and
//! the command line: a small Swiss played to the end, the organizer's button, the ratings
//! checked against the test's own computation of the EGF's published formula, shown on the
//! standings, the player's page, the standings CSV and the `.h9`; registrations kept past
//! the organizer's retention purged by `tengen purge-registrations`.

use crate::common::*;
use std::collections::HashMap;

/// The players: (family, given, Latin family, Latin given, rank, starting rating on the EGF's
/// grade scale: 1d = 2100, 100 a grade).
const FIELD: [(&str, &str, &str, &str, &str, f64); 4] = [
    ("柯", "一", "Ke", "Yi", "3d", 2300.0),
    ("柯", "二", "Ke", "Er", "1d", 2100.0),
    ("柯", "三", "Ke", "San", "2k", 1900.0),
    ("柯", "四", "Ke", "Si", "5k", 1600.0),
];

/// The EGF rating system (2021) restated: one game's change for a player rated `r` against
/// `o` with result `sa` (even games: no handicap adjustment).
fn egf_change(r: f64, o: f64, sa: f64) -> f64 {
    let beta = |x: f64| -7.0 * (3300.0 - x).ln();
    let se = 1.0 / (1.0 + (beta(o) - beta(r)).exp());
    let con = ((3300.0 - r) / 200.0).powf(1.6);
    let bonus = (1.0 + ((2300.0 - r) / 80.0).exp()).ln() / 5.0;
    con * (sa - se) + bonus
}

fn int(s: &Server, sql: &str) -> i64 {
    count_rows(&s.db, sql)
}

/// Pairs, publishes and plays round `n`: the stronger rank wins by resignation. Returns
/// (Black, White, Black won) per game.
fn play_round(
    s: &Server,
    c: &Client,
    tid: i32,
    n: u32,
    rank_of: &HashMap<i32, i64>,
) -> Vec<(i32, i32, bool)> {
    pair_round(c, tid, n, &format!("{}", 40 + n));
    publish_round(s, c, tid, n);
    nigiri_all(c, &s.db, tid, n);
    let games = query(
        &s.db,
        &format!(
            "SELECT id, black_id, white_id FROM games WHERE tournament_id = {tid} AND round_number = {n} \
             AND white_id IS NOT NULL ORDER BY board"
        ),
    );
    let mut out = Vec::new();
    for g in games {
        let (gid, b, w): (i32, i32, i32) =
            (g[0].parse().unwrap(), g[1].parse().unwrap(), g[2].parse().unwrap());
        let black_wins = rank_of[&b] > rank_of[&w];
        let r = enter(
            c,
            tid,
            gid,
            &[("method", "resignation"), ("winner", if black_wins { "black" } else { "white" })],
        );
        assert!(r.status == 303 || r.status == 200, "{}", r.body);
        out.push((b, w, black_wins));
    }
    out
}

/// EGF rating system (2021), r' = r + con·(Sa − Se) + bonus summed over the event's games from
/// the ratings before it: an organizer computes the ratings once every round is over (the
/// button appears only then; a stale page is refused, nothing written), and each player's
/// rating after agrees with the test's own computation to the thousandth; the standings
/// (public), the player's page, the standings CSV and the `.h9` (the ratings before, in a GoR
/// column) show them; computing again replaces them, audited.
#[test]
fn ratings_after_the_event_through_the_pages() {
    let s = Server::start();
    let c = s.first_organizer().in_chinese();
    let mut f = tournament_fields("等级分测试赛", "Rating Open");
    set(&mut f, "rounds", "2");
    let tid = new_tournament(&c, &f);
    let page = format!("/t/{tid}/entrants/new");
    for (family, given, lf, lg, rank, _) in FIELD {
        let r = c.submit(
            &page,
            &page,
            &[
                ("family_name_zh", family),
                ("given_name_zh", given),
                ("family_name_latin", lf),
                ("given_name_latin", lg),
                ("rank", rank),
                ("unit", "北京棋院"),
                ("region", "北京"),
            ],
        );
        assert_eq!(r.status, 303, "{}", r.body);
    }
    let rows = query(
        &s.db,
        &format!("SELECT id, given_name_latin, rank_value FROM entrants WHERE tournament_id = {tid}"),
    );
    let rank_of: HashMap<i32, i64> =
        rows.iter().map(|r| (r[0].parse().unwrap(), r[2].parse().unwrap())).collect();
    let before: HashMap<i32, f64> =
        rows.iter().map(|r| (r[0].parse().unwrap(), FIELD.iter().find(|p| p.3 == r[1]).unwrap().5)).collect();

    let mut games = play_round(&s, &c, tid, 1, &rank_of);
    // One round of two: no button yet, and a hand-made request is refused, nothing written.
    let overview = c.get(&format!("/t/{tid}"));
    assert!(!overview.body.contains("id=\"ratings-form\""), "{}", overview.body);
    let v = int(&s, &format!("SELECT changes FROM tournaments WHERE id = {tid}")).to_string();
    let early = c.submit(&format!("/t/{tid}"), &format!("/t/{tid}/ratings"), &[("version", &v)]);
    assert_eq!(early.status, 409, "{}", early.body);
    assert!(early.body.contains("全部结束后才能计算"), "{}", early.body);
    assert_eq!(int(&s, "SELECT count(*) FROM rating_changes"), 0);

    games.extend(play_round(&s, &c, tid, 2, &rank_of));
    let overview = c.get(&format!("/t/{tid}"));
    assert!(overview.body.contains("id=\"ratings-form\""), "{}", overview.body);
    let stale_version = int(&s, &format!("SELECT changes FROM tournaments WHERE id = {tid}")) - 1;
    let stale = c.submit(
        &format!("/t/{tid}"),
        &format!("/t/{tid}/ratings"),
        &[("version", &stale_version.to_string())],
    );
    assert_eq!(stale.status, 409, "{}", stale.body);
    assert_eq!(int(&s, "SELECT count(*) FROM rating_changes"), 0);
    let r = send_form(&c, &format!("/t/{tid}"), "ratings-form", &[]);
    assert_eq!(r.status, 303, "{}", r.body);

    // The test's own computation from the games played.
    let mut expected: HashMap<i32, (f64, i64)> = before.iter().map(|(id, r)| (*id, (*r, 0))).collect();
    for (b, w, black_won) in &games {
        let (rb, rw) = (before[b], before[w]);
        let sb = if *black_won { 1.0 } else { 0.0 };
        let e = expected.get_mut(b).unwrap();
        e.0 += egf_change(rb, rw, sb);
        e.1 += 1;
        let e = expected.get_mut(w).unwrap();
        e.0 += egf_change(rw, rb, 1.0 - sb);
        e.1 += 1;
    }
    let stored = query(&s.db, &format!("SELECT entrant_id, rating_before, rating_after, games FROM rating_changes WHERE tournament_id = {tid}"));
    assert_eq!(stored.len(), 4);
    for row in &stored {
        let id: i32 = row[0].parse().unwrap();
        let (after, n) = expected[&id];
        assert_eq!(row[1].parse::<f64>().unwrap(), before[&id] * 1000.0, "{row:?}");
        let got: f64 = row[2].parse().unwrap();
        assert!((got - after * 1000.0).abs() <= 1.0, "{row:?}: expected {after}");
        assert_eq!(row[3], n.to_string());
    }
    assert_eq!(
        int(&s, &format!("SELECT count(*) FROM audit WHERE tournament_id = {tid} AND action = 'ratings'")),
        1
    );

    // Shown to the public: the standings' column and the player's page.
    let ke_yi = rows.iter().find(|r| r[1] == "Yi").unwrap()[0].parse::<i32>().unwrap();
    let (after, _) = expected[&ke_yi];
    let change = (after - before[&ke_yi]).round() as i64;
    let shown = format!("{}（{}{}）", after.round() as i64, if change > 0 { "+" } else { "" }, change)
        .replace('-', "−");
    let public = s.client().in_chinese();
    let st = public.get(&format!("/t/{tid}/standings"));
    assert!(st.body.contains("id=\"gor-head\""), "{}", st.body);
    assert!(st.body.contains(&shown), "{shown} in {}", st.body);
    let player = public.get(&format!("/t/{tid}/players/{ke_yi}"));
    assert_eq!(text_of(&player, "gor-after").as_deref(), Some(shown.as_str()), "{}", player.body);
    assert_eq!(text_of(&player, "gor-before").as_deref(), Some("2300"));

    // The registry keeps it: the player's person page lists the event with the rating after,
    // and the person's next entry (another event's form, the person picked) starts from it.
    let pid = int(&s, &format!("SELECT person_id FROM entrants WHERE id = {ke_yi}"));
    let person = public.get(&format!("/p/{pid}"));
    assert_eq!(person.status, 200, "{}", person.body);
    assert!(person.body.contains(&format!("<td class=\"gor\">{shown}</td>")), "{shown} in {}", person.body);
    let next = new_tournament(&c, &tournament_fields("下一站", "Next stop"));
    let form = c.get(&format!("/t/{next}/entrants/new?person={pid}"));
    assert_eq!(form.status, 200, "{}", form.body);
    assert!(
        form.body.contains(&format!("name=\"rating\" type=\"number\" value=\"{}\"", after.round() as i64)),
        "{}",
        form.body
    );

    // The standings CSV: the ratings before and after as whole points.
    let csv = c.get(&format!("/t/{tid}/standings.csv"));
    assert!(csv.body.contains("赛前等级分") && csv.body.contains("赛后等级分"), "{}", csv.body);
    assert!(csv.body.contains(&format!("2300,{}", after.round() as i64)), "{}", csv.body);
    // The .h9 carries the ratings before in its GoR column.
    let h9 = c.get(&format!("/t/{tid}/export/egf.h9"));
    assert_eq!(h9.status, 200, "{}", h9.body);
    assert!(h9.body.contains("GoR"), "{}", h9.body);
    let line = h9.body.lines().find(|l| l.contains("Ke Yi")).unwrap();
    assert!(line.contains(" 2300 "), "{line}");

    // Computing again replaces the rows (the same numbers), with its own audit row.
    let r = send_form(&c, &format!("/t/{tid}"), "ratings-form", &[]);
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(int(&s, "SELECT count(*) FROM rating_changes"), 4);
    assert_eq!(
        int(&s, &format!("SELECT count(*) FROM audit WHERE tournament_id = {tid} AND action = 'ratings'")),
        2
    );
}

/// PIPL (个人信息保护法 第十九条: personal data kept no longer than its purpose needs): the organizer sets the
/// retention in the registration settings (pre-filled with 180 days; 0 refused beside the
/// field, nothing written); `tengen purge-registrations` deletes the registrations of an event
/// whose end plus its retention has passed, contact data with them, keeps the accepted
/// registration's entrant, leaves an event still within its retention alone, and writes an
/// audit row counting them.
#[test]
fn registrations_past_their_retention_are_purged_by_the_command_line() {
    let s = Server::start();
    let org = s.first_organizer().in_chinese();
    let mut old = tournament_fields("去年的比赛", "Last Year Open");
    set(&mut old, "start_date", "2025-01-10");
    set(&mut old, "end_date", "2025-01-11");
    let t_old = new_tournament(&org, &old);
    let t_new = create_tournament(&org, "今年的比赛");
    let event_of = |t: i32| int(&s, &format!("SELECT event_id FROM event_groups WHERE tournament_id = {t}"));
    let (e_old, e_new) = (event_of(t_old), event_of(t_new));

    // The form is pre-filled with the default; a retention of 0 days is refused.
    let queue = format!("/e/{e_old}/registrations");
    let p = org.get(&queue);
    assert!(p.body.contains("name=\"retention_days\" type=\"number\" value=\"180\""), "{}", p.body);
    let mut bad = registration_settings("0", &[(t_old, "")], ["off", "off", "off", "off"]);
    bad.push(("retention_days".into(), "0".into()));
    let r = org.submit(&queue, &format!("{queue}/settings"), &as_refs(&bad));
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body.contains("id=\"err-retention_days\""), "{}", r.body);
    assert_eq!(int(&s, "SELECT count(*) FROM registration_settings"), 0);

    for (e, t) in [(e_old, t_old), (e_new, t_new)] {
        let queue = format!("/e/{e}/registrations");
        let mut f = registration_settings("0", &[(t, "")], ["off", "off", "off", "optional"]);
        f.push(("retention_days".into(), "30".into()));
        assert_eq!(org.submit(&queue, &format!("{queue}/settings"), &as_refs(&f)).status, 303);
        let form = format!("/e/{e}/register");
        let public = s.client().in_chinese();
        for given in ["甲", "乙"] {
            let r = public.submit(
                &form,
                &form,
                &[
                    ("family_name_zh", "周"),
                    ("given_name_zh", given),
                    ("rank", "3k"),
                    ("phone", "13800138000"),
                    ("group", &t.to_string()),
                ],
            );
            assert_eq!(r.status, 303, "{}", r.body);
        }
    }
    assert_eq!(
        int(&s, &format!("SELECT retention_days FROM registration_settings WHERE event_id = {e_old}")),
        30
    );
    // One registration of the old event accepted: it is an entrant now.
    let first = int(&s, &format!("SELECT min(id) FROM registrations WHERE event_id = {e_old}"));
    let v = int(&s, &format!("SELECT version FROM registrations WHERE id = {first}")).to_string();
    let r = org.submit(&queue, &format!("{queue}/{first}/accept"), &[("version", &v)]);
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(int(&s, &format!("SELECT count(*) FROM entrants WHERE tournament_id = {t_old}")), 1);

    let run = s.cli(&["purge-registrations"]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let said = String::from_utf8_lossy(&run.stdout);
    assert!(said.contains("已清除 2 条过期报名（1 个比赛）"), "{said}");
    assert_eq!(int(&s, &format!("SELECT count(*) FROM registrations WHERE event_id = {e_old}")), 0);
    assert_eq!(
        int(&s, "SELECT count(*) FROM registrations WHERE phone = '13800138000'"),
        2,
        "the new event's stay"
    );
    assert_eq!(int(&s, &format!("SELECT count(*) FROM entrants WHERE tournament_id = {t_old}")), 1);
    assert_eq!(
        int(&s, &format!("SELECT count(*) FROM audit WHERE tournament_id = {t_old} AND action = 'purge'")),
        1
    );
    // Nothing more to purge: a second run deletes nothing and writes no audit row.
    let again = s.cli(&["purge-registrations"]);
    assert!(String::from_utf8_lossy(&again.stdout).contains("已清除 0 条"));
    assert_eq!(int(&s, "SELECT count(*) FROM audit WHERE action = 'purge'"), 1);
}
