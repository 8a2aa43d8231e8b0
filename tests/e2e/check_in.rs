//! Check-in (签到) through the real forms: the desk (search by characters, pinyin or
//! initials; check in and undo; the counts and who is missing), the deadline, the review and
//! the closing that sets absent those not checked in (round 1 is then paired without them),
//! and self check-in on a phone with the venue's code (a wrong code refused and throttled per
//! address, a closed round refused politely).

use crate::common;
use common::*;

fn id_of(s: &Server, tid: i32, family: &str) -> String {
    let sql = format!("SELECT id FROM entrants WHERE tournament_id = {tid} AND family_name_zh = '{family}'");
    query(&s.db, &sql)[0][0].clone()
}

/// The dark modules of the inline SVG QR code `id` as unit squares (x, −y, 1): upside down,
/// as the PDF readers' decoder expects rows running upwards.
fn svg_modules(body: &str, id: &str) -> Vec<(f32, f32, f32)> {
    let at = body.find(&format!("id=\"{id}\"")).unwrap_or_else(|| panic!("no #{id}"));
    let svg = &body[at..at + body[at..].find("</svg>").unwrap()];
    let attr = |r: &str, name: &str| -> Option<f32> {
        let v = r.split(&format!(" {name}=\"")).nth(1)?;
        v[..v.find('"')?].parse().ok()
    };
    svg.split("<rect").filter_map(|r| Some((attr(r, "x")?, -attr(r, "y")?, 1.0))).collect()
}

fn count(s: &Server, sql: &str) -> i64 {
    count_rows(&s.db, sql)
}

/// The check-in rule (签到): staff check entrants in and out at the desk, found by name,
/// pinyin or initials; closing check-in at the deadline sets absent exactly those not
/// checked in, after the organizer reviewed them, and round 1 is paired without them.
#[test]
fn desk_check_in_undo_and_closing_pair_round_one_without_the_absent() {
    let s = Server::start();
    let org = s.first_organizer().in_chinese();
    let tid = tournament_with_players(&org, "签到测试赛", "Check-in Open", &[("colour_method", "lots")], 6);
    let desk = format!("/t/{tid}/check-in?round=1");
    let page = org.get(&desk);
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("已签到：<strong>0</strong> / 6"), "{}", page.body);

    // Search: characters, full pinyin, initials (张三 and 赵四 share "zs").
    let found = |q: &str| {
        let b = org.get(&format!("/t/{tid}/check-in?round=1&q={q}")).body;
        ["王一", "李二", "张三", "赵四", "钱五", "孙六"]
            .iter()
            .filter(|n| b.contains(&format!("<td>{n}</td>")))
            .count()
    };
    assert_eq!(found("%E5%BC%A0%E4%B8%89"), 1, "张三");
    assert_eq!(found("zhangsan"), 1);
    assert_eq!(found("zs"), 2);

    // Four check in at the desk; one is undone.
    for family in ["王", "李", "张", "赵"] {
        let e = id_of(&s, tid, family);
        let r = org.submit(&desk, &format!("/t/{tid}/check-in/1/{e}/in"), &[("q", "")]);
        assert_eq!(r.status, 303, "{}", r.body);
    }
    let zhao = id_of(&s, tid, "赵");
    assert_eq!(org.submit(&desk, &format!("/t/{tid}/check-in/1/{zhao}/undo"), &[]).status, 303);
    let ins = format!("SELECT count(*) FROM check_ins WHERE tournament_id = {tid} AND round_number = 1");
    assert_eq!(count(&s, &ins), 3);
    assert_eq!(count(&s, "SELECT count(*) FROM audit WHERE action IN ('check_in', 'check_in_undo')"), 5);
    let page = org.get(&desk);
    assert!(page.body.contains("已签到：<strong>3</strong> / 6"), "{}", page.body);
    let missing = text_of(&page, "not-yet").unwrap_or_default();
    assert!(missing.contains("赵四") && missing.contains("钱五") && !missing.contains("王一"), "{missing}");
    assert!(page.body.contains("/assets/check_in.js"), "the desk refreshes itself");

    // A deadline in the future: the review says so and closing is refused, nothing written.
    let v = |s: &Server| {
        count(
            s,
            &format!("SELECT coalesce(max(version), 0) FROM check_in_rounds WHERE tournament_id = {tid}"),
        )
        .to_string()
    };
    let deadline = format!("/t/{tid}/check-in/1/deadline");
    let r = org.submit(&desk, &deadline, &[("version", &v(&s)), ("deadline", "2999-01-01T09:00")]);
    assert_eq!(r.status, 303, "{}", r.body);
    let review = format!("/t/{tid}/check-in/1/close");
    let page = org.get(&review);
    assert!(page.body.contains("id=\"early\""), "{}", page.body);
    let (_, fields) = page.form_inputs("close-form");
    let refs: Vec<(&str, &str)> =
        fields.iter().filter(|(k, _)| k != "csrf").map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let r = org.submit(&review, &review, &refs);
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(r.body.contains("签到截止时间尚未到"), "{}", r.body);
    let absences =
        format!("SELECT count(*) FROM round_absences WHERE tournament_id = {tid} AND round_number = 1");
    assert_eq!(count(&s, &absences), 0);

    // A bad deadline is refused beside its field, the typed text kept.
    let r = org.submit(&desk, &deadline, &[("version", &v(&s)), ("deadline", "明天早上")]);
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.field_error("deadline").is_some(), "{}", r.body);
    assert_eq!(r.input("deadline").as_deref(), Some("明天早上"));

    // The deadline passed: the review lists the three not checked in.
    let r = org.submit(&desk, &deadline, &[("version", &v(&s)), ("deadline", "2026-01-01T09:00")]);
    assert_eq!(r.status, 303, "{}", r.body);
    let page = org.get(&review);
    let (_, fields) = page.form_inputs("close-form");
    let listed: Vec<&String> = fields.iter().filter(|(k, _)| k == "absent").map(|(_, v)| v).collect();
    assert_eq!(listed.len(), 3, "{}", page.body);
    assert!(listed.contains(&&zhao));
    // A list that is not what closing would set absent (someone left out): refused.
    let short: Vec<(&str, &str)> = fields
        .iter()
        .filter(|(k, v)| k != "csrf" && !(k == "absent" && *v == zhao))
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    assert_eq!(org.submit(&review, &review, &short).status, 409);
    assert_eq!(count(&s, &absences), 0);
    // The reviewed list: one audited write.
    let refs: Vec<(&str, &str)> =
        fields.iter().filter(|(k, _)| k != "csrf").map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let r = org.submit(&review, &review, &refs);
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(count(&s, &absences), 3);
    assert_eq!(
        count(&s, "SELECT count(*) FROM audit WHERE action = 'close' AND entity = 'check_in_round'"),
        1
    );
    // Closed: the desk no longer checks in.
    let r = org.submit(&desk, &format!("/t/{tid}/check-in/1/{zhao}/in"), &[]);
    assert_eq!(r.status, 409, "{}", r.body);
    assert_eq!(count(&s, &ins), 3);

    // Round 1 is paired without the absent: three players, one game and a bye.
    pair_round(&org, tid, 1, "7");
    let games = query(
        &s.db,
        &format!("SELECT black_id, coalesce(white_id, 0) FROM games WHERE tournament_id = {tid} AND round_number = 1"),
    );
    let seated: Vec<String> = games.iter().flatten().filter(|v| *v != "0").cloned().collect();
    assert_eq!(seated.len(), 3, "{games:?}");
    for family in ["赵", "钱", "孙"] {
        assert!(!seated.contains(&id_of(&s, tid, family)), "{family} was absent");
    }
}

/// The check-in rule (签到): self check-in on a phone with the code shown at the venue; a
/// wrong code is refused beside its field with the entry kept, wrong codes are throttled per
/// address as wrong passwords are at the login, and a closed round is refused politely.
#[test]
fn self_check_in_with_the_venues_code_throttled_and_closed() {
    let s = Server::start_args(&["--public-url", "https://go.example.org/weiqi/"]);
    let org = s.first_organizer();
    let tid = tournament_with_players(
        &org,
        "自助签到测试赛",
        "Self Check-in Open",
        &[("colour_method", "lots")],
        6,
    );
    let phone = s.client().in_chinese();
    let me = format!("/t/{tid}/check-in/self");
    let page = phone.get(&me);
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("id=\"not-open\""), "no code yet: {}", page.body);

    // Staff make the code; the desk shows it.
    let desk = format!("/t/{tid}/check-in");
    assert_eq!(org.submit(&desk, &format!("/t/{tid}/check-in/code"), &[]).status, 303);
    let code =
        query_text(&s.db, &format!("SELECT code FROM check_in_codes WHERE tournament_id = {tid}")).unwrap();
    let desk_page = org.get(&desk);
    assert!(text_of(&desk_page, "code").unwrap_or_default().contains(&code));
    // The desk gives the whole address a phone opens, and its QR code for the venue's notice.
    let address = format!("https://go.example.org/weiqi/t/{tid}/check-in/self");
    assert!(desk_page.body.contains(&format!("href=\"{address}\"")), "{}", desk_page.body);
    assert_eq!(crate::cards::decode(&svg_modules(&desk_page.body, "self-qr")), address);
    let wrong = if code == "0000" { "1111" } else { "0000" };

    // The public tournament page links to the form while it is open.
    let home = s.client().in_chinese().get(&format!("/t/{tid}"));
    assert!(text_of(&home, "check-in").is_some_and(|t| t.contains("第1轮自助签到")), "{}", home.body);

    // The right code with the name typed in pinyin.
    let r = phone.submit(&me, &me, &[("name", "wang yi"), ("code", &code)]);
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.body.contains("王一，签到成功"), "{}", r.body);
    let wang = id_of(&s, tid, "王");
    let by_self = format!("SELECT count(*) FROM check_ins WHERE entrant_id = {wang} AND by_self");
    assert_eq!(count(&s, &by_self), 1);
    // Initials shared by two players: pick from the list.
    let r = phone.submit(&me, &me, &[("name", "zs"), ("code", &code)]);
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.field_error("name").is_some_and(|e| e.contains("多位选手")), "{}", r.body);

    // Wrong codes: refused beside the field, the name kept; the sixth try is throttled, even
    // with the right code.
    let li = id_of(&s, tid, "李");
    for _ in 0..5 {
        let r = phone.submit(&me, &me, &[("eid", &li), ("code", wrong)]);
        assert_eq!(r.status, 400, "{}", r.body);
        assert!(r.field_error("code").is_some_and(|e| e.contains("签到码不正确")), "{}", r.body);
        assert!(r.body.contains(&format!("<option value=\"{li}\" selected>")), "the pick is kept");
    }
    let r = phone.submit(&me, &me, &[("eid", &li), ("code", &code)]);
    assert_eq!(r.status, 429, "{}", r.body);
    assert!(r.body.contains("错误次数过多"), "{}", r.body);
    assert_eq!(count(&s, &format!("SELECT count(*) FROM check_ins WHERE entrant_id = {li}")), 0);

    // Closed (no deadline set: the organizer closes when they choose): refused politely.
    let review = format!("/t/{tid}/check-in/1/close");
    let (_, fields) = org.get(&review).form_inputs("close-form");
    let refs: Vec<(&str, &str)> =
        fields.iter().filter(|(k, _)| k != "csrf").map(|(k, v)| (k.as_str(), v.as_str())).collect();
    assert_eq!(org.submit(&review, &review, &refs).status, 303);
    let page = s.client().in_chinese().get(&me);
    assert!(page.body.contains("本轮签到已经截止"), "{}", page.body);
    assert!(!s.client().get(&format!("/t/{tid}")).body.contains("id=\"check-in\""), "no link once closed");
}
