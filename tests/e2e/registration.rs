//! Online registration (网上报名) through the real forms: the organizer opens it for an event
//! of two groups (a cap of 2 in one), people register on the public form (the third for the
//! capped group refused as full, the entry kept), a duplicate of an entrant is flagged in the
//! queue, one registration is asked to change and sent again from its status link, the
//! accepted become entrants of their group, one is rejected, a passed deadline refuses, the
//! contact never reaches a public page or an export, and the form is throttled per address.

use crate::common;
use common::*;

fn count(s: &Server, sql: &str) -> i64 {
    count_rows(&s.db, sql)
}

/// The reference a successful registration was sent to (its status page's address).
fn reference_of(r: &Resp) -> String {
    assert_eq!(r.status, 303, "{}", r.body);
    let at = r.location();
    let tail = at.rsplit('/').next().unwrap_or_default();
    tail.trim_end_matches("?new=1").to_string()
}

fn version_of(s: &Server, reference: &str) -> String {
    count(s, &format!("SELECT version FROM registrations WHERE reference = '{reference}'")).to_string()
}

fn id_of(s: &Server, reference: &str) -> i64 {
    count(s, &format!("SELECT id FROM registrations WHERE reference = '{reference}'"))
}

/// Two groups of one event: `t1` (成人组) and `t2` (少儿组). The event's own page that adds a
/// group is another part of the office; here the second tournament is made a group of the
/// first one's event as that page would store it.
fn two_groups(s: &Server, org: &Client) -> (i32, i32, i32) {
    let t1 = create_tournament(org, "网上报名公开赛");
    let t2 = create_tournament(org, "网上报名公开赛少儿组");
    let event = count(s, &format!("SELECT event_id FROM event_groups WHERE tournament_id = {t1}")) as i32;
    exec_sql(
        &s.db,
        &format!("UPDATE event_groups SET group_name_zh = '成人组', group_name_latin = 'Open' WHERE tournament_id = {t1}"),
    );
    exec_sql(
        &s.db,
        &format!(
            "UPDATE event_groups SET event_id = {event}, group_order = 2, group_name_zh = '少儿组', \
             group_name_latin = 'Youth' WHERE tournament_id = {t2}"
        ),
    );
    (event, t1, t2)
}

/// The settings form's fields: open, the deadline, `t1` capped at 2, `t2` uncapped, sex
/// required, birth date and unit optional, contact required.
fn settings(version: &str, deadline: &str, t1: i32, t2: i32) -> Vec<(String, String)> {
    let mut f = registration_settings(
        version,
        &[(t1, "2"), (t2, "")],
        ["required", "optional", "optional", "required"],
    );
    set(&mut f, "deadline", deadline);
    f
}

/// A registration's fields: the Chinese name, the rank, sex, unit, phone and group (the pinyin
/// left empty).
fn person<'a>(
    family: &'a str,
    given: &'a str,
    unit: &'a str,
    phone: &'a str,
    group: &'a str,
) -> Vec<(&'a str, &'a str)> {
    vec![
        ("family_name_zh", family),
        ("given_name_zh", given),
        ("rank", "2d"),
        ("sex", "m"),
        ("unit", unit),
        ("phone", phone),
        ("group", group),
    ]
}

/// Decision D26 (网上报名): the organizer opens the form with a cap per group; the third
/// registration for a group of two is refused as full with the entry kept; a duplicate of an
/// entrant is flagged; a registration asked to change is sent again from its status link and
/// accepted; the accepted become entrants of their group; a rejection carries its reason; a
/// passed deadline refuses; stale decisions are refused; the contact appears on the
/// organizer's queue only, never on a public page or an export.
#[test]
fn registration_from_the_public_form_to_the_entrants_of_each_group() {
    let s = Server::start();
    let org = s.first_organizer().in_chinese();
    let (event, t1, t2) = two_groups(&s, &org);
    assert_eq!(add_entrant(&org, t2, "王", "小明", "3k").status, 303, "an entrant already in 少儿组");
    let queue = format!("/e/{event}/registrations");
    let form = format!("/e/{event}/register");

    // The group's overview links the queue for organizers; the form is closed until opened.
    let overview = org.get(&format!("/t/{t1}"));
    assert!(overview.body.contains(&format!("href=\"{queue}\"")), "{}", overview.body);
    let public = s.client().in_chinese();
    let closed = public.get(&form);
    assert_eq!(closed.status, 200, "{}", closed.body);
    assert!(text_of(&closed, "closed").is_some_and(|t| t.contains("报名未开放")), "{}", closed.body);
    assert!(!public.get(&format!("/t/{t2}")).body.contains("id=\"register-link\""));

    // Open it. The same form again (read at version 0) is stale: refused, nothing written.
    let fields = settings("0", "", t1, t2);
    assert_eq!(org.submit(&queue, &format!("{queue}/settings"), &as_refs(&fields)).status, 303);
    let stale = org.submit(&queue, &format!("{queue}/settings"), &as_refs(&settings("0", "", t1, t2)));
    assert_eq!(stale.status, 409, "{}", stale.body);
    assert_eq!(count(&s, &format!("SELECT version FROM registration_settings WHERE event_id = {event}")), 1);
    // A cap that is not a positive number: refused with the reason, nothing written.
    let mut zero = settings("1", "", t1, t2);
    zero.iter_mut().filter(|(k, _)| *k == format!("cap_{t1}")).for_each(|(_, v)| *v = "0".into());
    let r = org.submit(&queue, &format!("{queue}/settings"), &as_refs(&zero));
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(text_of(&r, "banner").is_some_and(|t| t.contains("正整数")), "{}", r.body);
    assert_eq!(count(&s, &format!("SELECT version FROM registration_settings WHERE event_id = {event}")), 1);
    let home = public.get(&format!("/t/{t2}"));
    assert!(home.body.contains(&format!("href=\"{form}\"")), "every group's public page links the form");

    // A required field left empty: 400 beside the field, the entry kept, nothing written.
    let g1 = t1.to_string();
    let mut no_phone = person("李", "雷", "", "", &g1);
    let r = public.submit(&form, &form, &no_phone);
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.field_error("phone").is_some_and(|e| e.contains("必填")), "{}", r.body);
    assert!(r.body.contains("value=\"李\"") && r.body.contains("value=\"雷\""), "the entry is kept");
    assert_eq!(count(&s, "SELECT count(*) FROM registrations"), 0);

    // Two register for 成人组 (cap 2); the confirmation gives the reference and the private
    // link; the pinyin is filled from the Chinese name.
    no_phone.retain(|(k, _)| *k != "phone");
    no_phone.push(("phone", "13800138001"));
    let r = public.submit(&form, &form, &no_phone);
    let li = reference_of(&r);
    assert_eq!(li.len(), 8, "{li}");
    let confirmation = public.get(&r.location());
    assert!(
        text_of(&confirmation, "confirmation").is_some_and(|t| t.contains("报名已提交")),
        "{}",
        confirmation.body
    );
    assert_eq!(text_of(&confirmation, "reference").as_deref(), Some(li.as_str()));
    assert!(confirmation.body.contains(&format!("href=\"/e/{event}/register/{li}\"")));
    assert_eq!(text_of(&confirmation, "state").as_deref(), Some("待审核"));
    let stored =
        query_text(&s.db, &format!("SELECT entrant FROM registrations WHERE reference = '{li}'")).unwrap();
    assert!(
        stored.contains("\"family_name_latin\":\"Li\"") && stored.contains("\"given_name_latin\":\"Lei\""),
        "{stored}"
    );
    let zhang =
        reference_of(&public.submit(&form, &form, &person("张", "伟", "上海棋社", "13800138002", &g1)));

    // The third for 成人组: full, refused with the reason beside the group, the entry kept.
    let r = public.submit(&form, &form, &person("赵", "云", "", "13800138003", &g1));
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(r.field_error("group").is_some_and(|e| e.contains("名额已满")), "{}", r.body);
    assert!(r.body.contains("value=\"赵\"") && r.body.contains("value=\"13800138003\""), "the entry is kept");
    assert_eq!(count(&s, "SELECT count(*) FROM registrations"), 2);

    // 少儿组 has no cap: 王小明 of 北京棋院 registers, and is flagged as the entrant already there.
    let g2 = t2.to_string();
    let wang =
        reference_of(&public.submit(&form, &form, &person("王", "小明", "北京棋院", "13800138004", &g2)));
    let page = org.get(&queue);
    assert_eq!(page.status, 200, "{}", page.body);
    let row = |body: &str, reference: &str| {
        let at =
            body.find(&format!("id=\"reg-{reference}\"")).unwrap_or_else(|| panic!("no row {reference}"));
        body[at..at + body[at..].find("</tr>").unwrap()].to_string()
    };
    assert!(row(&page.body, &wang).contains("class=\"err duplicates\""), "{}", row(&page.body, &wang));
    assert!(row(&page.body, &wang).contains("王小明"), "flagged against the entrant");
    assert!(!row(&page.body, &li).contains("duplicates"), "{}", row(&page.body, &li));
    assert!(row(&page.body, &li).contains("13800138001"), "the organizer sees the contact");
    // The filter by group and by state.
    let youth = org.get(&format!("{queue}?group={t2}"));
    assert!(youth.body.contains(&wang) && !youth.body.contains(&li));

    // Ask 李雷 to change; the same request again is stale.
    let ask = format!("{queue}/{}/change", id_of(&s, &li));
    let v = version_of(&s, &li);
    assert_eq!(org.submit(&queue, &ask, &[("version", &v), ("message", "请补充出生日期")]).status, 303);
    let stale = org.submit(&queue, &ask, &[("version", &v), ("message", "请补充出生日期")]);
    assert_eq!(stale.status, 409, "{}", stale.body);
    // An empty message is refused.
    let accept_zhang = format!("{queue}/{}/reject", id_of(&s, &zhang));
    let r = org.submit(&queue, &accept_zhang, &[("version", &version_of(&s, &zhang)), ("message", "")]);
    assert_eq!(r.status, 400, "{}", r.body);

    // 李雷 reads the request on the status link and sends the form again, with a birth date.
    let status = format!("/e/{event}/register/{li}");
    let page = public.get(&status);
    assert_eq!(text_of(&page, "state").as_deref(), Some("请修改"), "{}", page.body);
    assert_eq!(text_of(&page, "message").as_deref(), Some("请补充出生日期"));
    let (action, mut again) = page.form_as_shown("register-form");
    assert_eq!(action, status);
    again.retain(|(k, _)| k != "csrf" && k != "birth_date");
    again.push(("birth_date".into(), "2001-05-04".into()));
    let r = public.submit(&status, &status, &as_refs(&again));
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(text_of(&public.get(&status), "state").as_deref(), Some("待审核"));

    // Accept 李雷 and 张伟: entrants of 成人组, linked, audited.
    for reference in [&li, &zhang] {
        let accept = format!("{queue}/{}/accept", id_of(&s, reference));
        assert_eq!(org.submit(&queue, &accept, &[("version", &version_of(&s, reference))]).status, 303);
    }
    let in_t1 = format!("SELECT count(*) FROM entrants WHERE tournament_id = {t1}");
    assert_eq!(count(&s, &in_t1), 2);
    assert_eq!(
        count(&s, &format!("SELECT count(*) FROM entrants WHERE tournament_id = {t1} AND birth_date = '2001-05-04' AND family_name_latin = 'Li'")),
        1,
        "the entrant is the registration as sent again"
    );
    assert_eq!(
        count(&s, "SELECT count(*) FROM registrations WHERE entrant_id IS NOT NULL AND state = 'accepted'"),
        2
    );
    assert_eq!(
        count(&s, "SELECT count(*) FROM audit WHERE entity = 'registration' AND action = 'accept'"),
        2
    );
    assert_eq!(text_of(&public.get(&status), "state").as_deref(), Some("已接受"));
    // Accepting again is refused: decided already.
    let again = format!("{queue}/{}/accept", id_of(&s, &li));
    assert_eq!(org.submit(&queue, &again, &[("version", &version_of(&s, &li))]).status, 409);
    assert_eq!(count(&s, &in_t1), 2);

    // Reject 王小明 with a reason, which the status page shows.
    let reject = format!("{queue}/{}/reject", id_of(&s, &wang));
    let r =
        org.submit(&queue, &reject, &[("version", &version_of(&s, &wang)), ("message", "已在报名名单中")]);
    assert_eq!(r.status, 303, "{}", r.body);
    let page = public.get(&format!("/e/{event}/register/{wang}"));
    assert_eq!(text_of(&page, "state").as_deref(), Some("已拒绝"));
    assert_eq!(text_of(&page, "message").as_deref(), Some("已在报名名单中"));
    assert_eq!(count(&s, &format!("SELECT count(*) FROM entrants WHERE tournament_id = {t2}")), 1);

    // The contact appears on no public page and in no export.
    for t in [t1, t2] {
        for path in ["", "/players", "/standings", "/pairings", "/crosstable", "/entrants", "/audit"] {
            for c in [&public, &org] {
                let r = c.get(&format!("/t/{t}{path}"));
                assert!(!r.body.contains("1380013800"), "/t/{t}{path} shows a phone number");
            }
        }
        for path in ["/entrants.csv", "/export/opengotha.xml", "/standings.csv"] {
            let r = org.get(&format!("/t/{t}{path}"));
            assert_eq!(r.status, 200, "{path}: {}", r.body);
            assert!(!r.body.contains("1380013800"), "/t/{t}{path} carries a phone number");
        }
        let (_, pdf) = pdf(&org, &format!("/t/{t}/standings.pdf"));
        assert!(!pdf.all_text().contains("1380013800"), "the standings PDF carries a phone number");
    }
    let page = public.get(&status);
    assert!(!page.body.contains("1380013800"), "a decided registration's status page shows no contact");

    // The deadline passed: the form says so and a registration is refused, the entry kept.
    let v =
        count(&s, &format!("SELECT version FROM registration_settings WHERE event_id = {event}")).to_string();
    let late = settings(&v, "2020-01-01T09:00", t1, t2);
    assert_eq!(org.submit(&queue, &format!("{queue}/settings"), &as_refs(&late)).status, 303);
    let page = org.get(&queue);
    assert!(
        page.body.contains("value=\"2020-01-01T09:00:00\""),
        "the deadline as typed, in the event's zone"
    );
    let page = public.get(&form);
    assert!(text_of(&page, "closed").is_some_and(|t| t.contains("报名已截止")), "{}", page.body);
    let zone = query_text(&s.db, &format!("SELECT time_zone FROM tournaments WHERE id = {t1}")).unwrap();
    let shown = text_of(&page, "deadline").unwrap_or_default();
    assert!(shown.contains("2020-01-01 09:00") && shown.contains(&zone), "with the zone named: {shown}");
    // The page has no form to read a token from; the login page gives this client's.
    let token = public.get("/login").csrf();
    let mut late = vec![("csrf", token.as_str())];
    late.extend(person("钱", "多", "", "13800138005", &g2));
    let r = public.post_form(&form, &late);
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(text_of(&r, "banner").is_some_and(|t| t.contains("报名已截止")), "{}", r.body);
    assert!(r.body.contains("value=\"钱\""), "the entry is kept");
    assert_eq!(count(&s, "SELECT count(*) FROM registrations"), 3);
}

/// Decision D26 (网上报名): the public form is throttled per address as self check-in is:
/// ten registrations, then the eleventh is refused with 429 and nothing written.
#[test]
fn the_public_form_is_throttled_per_address() {
    let s = Server::start();
    let org = s.first_organizer();
    let t = create_tournament(&org, "报名限流测试赛");
    let event = count(&s, &format!("SELECT event_id FROM event_groups WHERE tournament_id = {t}"));
    let queue = format!("/e/{event}/registrations");
    let settings = registration_settings("0", &[(t, "")], ["off", "off", "off", "off"]);
    let refs = as_refs(&settings);
    assert_eq!(org.submit(&queue, &format!("{queue}/settings"), &refs).status, 303);
    let form = format!("/e/{event}/register");
    let phone = s.client();
    let group = t.to_string();
    for (n, given) in ["一", "二", "三", "四", "五", "六", "七", "八", "九", "十"].into_iter().enumerate()
    {
        let r = phone.submit(
            &form,
            &form,
            &[("family_name_zh", "孙"), ("given_name_zh", given), ("rank", "5k"), ("group", &group)],
        );
        assert_eq!(r.status, 303, "{n}: {}", r.body);
    }
    let r = phone.submit(
        &form,
        &form,
        &[("family_name_zh", "孙"), ("given_name_zh", "多"), ("rank", "5k"), ("group", &group)],
    );
    assert_eq!(r.status, 429, "{}", r.body);
    assert!(r.body.contains("value=\"多\""), "the entry is kept");
    assert_eq!(count(&s, "SELECT count(*) FROM registrations"), 10);
}
