//! Entrants: add, validation beside the field, edit with stale refusal, withdraw, reinstate,
//! search and sort, public list, audit rows.

use crate::common;
use common::*;

fn entrant_id(db: &std::path::Path, given: &str) -> i64 {
    count_rows(db, &format!("SELECT id FROM entrants WHERE given_name_zh = '{given}'"))
}

#[test]
fn entrants_crud_with_audit() {
    let s = Server::start();
    let c = s.first_organizer();
    let tid = create_tournament(&c, "报名测试赛");
    assert_eq!(add_entrant(&c, tid, "王", "子涵", "3段").status, 303);
    assert_eq!(add_entrant(&c, tid, "欧阳", "娜娜", "5k").status, 303);
    assert_eq!(add_entrant(&c, tid, "李", "昊然", "1p").status, 303);
    let list = c.get(&format!("/t/{tid}/entrants"));
    assert_eq!(list.status, 200);
    for n in ["王子涵", "欧阳娜娜", "李昊然"] {
        assert!(list.body.contains(n), "{n}");
    }
    // Sorted by rank by default: the professional first, the kyu player last.
    let (p, d, k) = (
        list.body.find("李昊然").unwrap(),
        list.body.find("王子涵").unwrap(),
        list.body.find("欧阳娜娜").unwrap(),
    );
    assert!(p < d && d < k);
    let stored: i64 = count_rows(&s.db, "SELECT rank_value FROM entrants WHERE given_name_zh = '子涵'");
    let kyu: i64 = count_rows(&s.db, "SELECT rank_value FROM entrants WHERE given_name_zh = '娜娜'");
    assert!(stored > kyu);

    // Search.
    let found = c.get(&format!("/t/{tid}/entrants?q=%E6%AC%A7%E9%98%B3")); // 欧阳
    assert!(found.body.contains("欧阳娜娜") && !found.body.contains("王子涵"));
    let none = c.get(&format!("/t/{tid}/entrants?q=%25&sort=name"));
    assert_eq!(none.status, 200);
    assert!(!none.body.contains("王子涵"), "a typed % matches itself only");

    // Edit with the form's version; then a stale save is refused.
    let id = entrant_id(&s.db, "子涵");
    let edit = format!("/t/{tid}/entrants/{id}/edit");
    let page = c.get(&edit);
    assert_eq!(page.input("version").as_deref(), Some("1"));
    assert_eq!(page.input("rank").as_deref(), Some("3d"));
    let fields = [
        ("version", "1"),
        ("family_name_zh", "王"),
        ("given_name_zh", "子涵"),
        ("family_name_latin", "Wang"),
        ("given_name_latin", "Zihan"),
        ("rank", "4d"),
        ("rating", "2350"),
        ("unit", "北京棋院"),
        ("birth_date", "2012-03-04"),
        ("sex", "m"),
        ("reason", "升段"),
    ];
    assert_eq!(c.submit(&edit, &edit, &fields).status, 303);
    let r = c.submit(&edit, &edit, &fields);
    assert_eq!(r.status, 409);
    assert!(r.body.contains("changed by someone else"));
    assert_eq!(count_rows(&s.db, &format!("SELECT version FROM entrants WHERE id = {id}")), 2);
    assert!(c.get(&format!("/t/{tid}/entrants")).body.contains("Wang Zihan"));

    // Withdraw and reinstate.
    let token = c.get(&format!("/t/{tid}/entrants")).csrf();
    assert_eq!(
        c.post_form(&format!("/t/{tid}/entrants/{id}/withdraw"), &[("csrf", &token), ("reason", "因病")])
            .status,
        303
    );
    assert_eq!(
        count_rows(&s.db, &format!("SELECT count(*) FROM entrants WHERE id = {id} AND status = 'withdrawn'")),
        1
    );
    let public = s.client().get(&format!("/t/{tid}/players"));
    assert!(public.body.contains("withdrawn"));
    assert!(public.body.contains("2 players taking part"), "{}", public.body);
    assert_eq!(c.post_form(&format!("/t/{tid}/entrants/{id}/reinstate"), &[("csrf", &token)]).status, 303);
    assert_eq!(
        count_rows(&s.db, &format!("SELECT count(*) FROM entrants WHERE id = {id} AND status = 'active'")),
        1
    );

    // Audit: 3 creations, 1 update with reason, withdraw, reinstate.
    let q = |a: &str| {
        count_rows(&s.db, &format!("SELECT count(*) FROM audit WHERE entity = 'entrant' AND action = '{a}'"))
    };
    assert_eq!((q("create"), q("update"), q("withdraw"), q("reinstate")), (3, 1, 1, 1));
    assert_eq!(
        count_rows(
            &s.db,
            &format!(
                "SELECT count(*) FROM audit WHERE action = 'update' AND entity = 'entrant' AND reason = '升段' \
                 AND {} = '3d' AND {} = '4d'",
                json_text(&s.db, "before", "rank"),
                json_text(&s.db, "after", "rank")
            )
        ),
        1
    );
    let audit = c.get(&format!("/t/{tid}/audit"));
    assert!(audit.body.contains(" withdrew ") && audit.body.contains(" from the event"), "{}", audit.body);
}

#[test]
fn bad_entrant_input_is_refused_beside_each_field() {
    let s = Server::start();
    let c = s.first_organizer();
    let tid = create_tournament(&c, "校验测试赛");
    let page = format!("/t/{tid}/entrants/new");
    let r = c.submit(
        &page,
        &page,
        &[("rank", "99x"), ("rating", "abc"), ("birth_date", "2012-13-45"), ("sex", "X")],
    );
    assert_eq!(r.status, 400);
    for f in ["rank", "rating", "birth_date", "sex", "family_name_zh"] {
        assert!(r.field_error(f).is_some(), "no message beside {f}: {}", r.body);
    }
    assert_eq!(r.input("rating").as_deref(), Some("abc"), "typed values are kept");
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM entrants"), 0);
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM audit WHERE entity = 'entrant'"), 0);
    // Chinese messages for a Chinese reader.
    let mut zh = s.client();
    zh.cookies = c.cookies.clone();
    zh.accept_language = "zh-CN,zh;q=0.9".into();
    let r = zh.submit(&page, &page, &[("family_name_zh", "王"), ("given_name_zh", "伟"), ("rank", "99x")]);
    assert_eq!(r.status, 400);
    let msg = r.field_error("rank").unwrap();
    assert!(msg.chars().any(|ch| ('\u{4e00}'..='\u{9fff}').contains(&ch)), "{msg}");
}

#[test]
fn entrants_of_another_tournament_are_not_found() {
    let s = Server::start();
    let c = s.first_organizer();
    let a = create_tournament(&c, "甲赛");
    let b = create_tournament(&c, "乙赛");
    add_entrant(&c, a, "张", "三", "1d");
    let id = entrant_id(&s.db, "三");
    assert_eq!(c.get(&format!("/t/{a}/entrants/{id}/edit")).status, 200);
    assert_eq!(c.get(&format!("/t/{b}/entrants/{id}/edit")).status, 404);
}
