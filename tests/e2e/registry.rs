//! The player registry through its pages: the same player entered in two events through the
//! entrant form's registry search, the public person page listing both with the result of
//! the published round, likely duplicates merged (a stale merge refused, other organizers
//! refused), and a person exported and deleted on request.

use crate::common;
use common::*;

fn one(db: &std::path::Path, sql: &str) -> i64 {
    query_opt(db, sql).unwrap_or_else(|| panic!("no row: {sql}"))
}

/// Add 张昊洋 to `tid` through the entrant form, with what a registration desk types.
fn add_zhang(c: &Client, tid: i32) {
    let page = format!("/t/{tid}/entrants/new");
    let r = c.submit(
        &page,
        &page,
        &[
            ("family_name_zh", "张"),
            ("given_name_zh", "昊洋"),
            ("rank", "1段"),
            ("unit", "北京棋院"),
            ("region", "北京"),
            ("birth_date", "2010-04-01"),
            ("sex", "m"),
            ("notes", "左撇子"),
        ],
    );
    assert_eq!(r.status, 303, "{}", r.body);
}

/// Registry practice (the EGF's and pairgoth's player lists; an ID card's name and birth
/// date): a player who comes back is found in the registry by initials, picked, entered with
/// this event's rank, and is one person whose public page lists both events and the result of
/// the published round only; contact and birth date are never public.
#[test]
fn a_returning_player_is_one_person_across_events() {
    let s = Server::start();
    let c = s.first_organizer();
    let lots = [("colour_method", "lots")];
    let spring = tournament_with_players(&c, "春季赛", "Spring Open", &lots, 3);
    add_zhang(&c, spring);
    let e1 = one(
        &s.db,
        &format!("SELECT id FROM entrants WHERE tournament_id = {spring} AND given_name_zh = '昊洋'"),
    );
    let pid = one(&s.db, &format!("SELECT person_id FROM entrants WHERE id = {e1}"));
    assert_eq!(
        one(&s.db, &format!("SELECT count(*) FROM persons WHERE id = {pid} AND birth_date = '2010-04-01'")),
        1
    );

    // The second event: the form's search finds him by initials, picking him fills the form.
    let summer = tournament_with_players(&c, "夏季赛", "Summer Open", &lots, 0);
    let found = c.get(&format!("/t/{summer}/entrants/new?find=zhy"));
    assert_eq!(found.status, 200, "{}", found.body);
    assert!(found.body.contains(&format!("/t/{summer}/entrants/new?person={pid}")), "{}", found.body);
    let none = c.get(&format!("/t/{summer}/entrants/new?find=qqq"));
    assert!(text_of(&none, "none").is_some(), "no one found: a new player");
    let form = format!("/t/{summer}/entrants/new?person={pid}");
    let picked = c.get(&form);
    assert_eq!(picked.input("family_name_zh").as_deref(), Some("张"));
    assert_eq!(picked.input("person").as_deref(), Some(pid.to_string().as_str()));
    let r = send_form(&c, &form, "entrant", &[("rank", "2段"), ("unit", "上海棋院")]);
    assert_eq!(r.status, 303, "{}", r.body);
    let e2 = one(
        &s.db,
        &format!("SELECT id FROM entrants WHERE tournament_id = {summer} AND given_name_zh = '昊洋'"),
    );
    assert_eq!(one(&s.db, &format!("SELECT person_id FROM entrants WHERE id = {e2}")), pid);
    assert_eq!(one(&s.db, "SELECT count(*) FROM persons WHERE given_name_zh = '昊洋'"), 1);
    // The event keeps what was true there; the person keeps the history.
    assert_eq!(
        query_text(&s.db, &format!("SELECT unit FROM entrants WHERE id = {e1}")).as_deref(),
        Some("北京棋院")
    );
    let ranks = query(
        &s.db,
        &format!(
            "SELECT rank, tournament_id FROM person_ranks WHERE person_id = {pid} ORDER BY tournament_id"
        ),
    );
    assert_eq!(
        ranks,
        vec![vec!["1d".to_string(), spring.to_string()], vec!["2d".to_string(), summer.to_string()]]
    );

    // An import links the rows the registry knows (the same Chinese name and birth date) and
    // its notice says how many it linked and how many are new.
    let autumn = tournament_with_players(&c, "秋季赛", "Autumn Open", &lots, 0);
    let r = import_file(&c, autumn, "csv", "players.csv", eight_players(4).as_bytes());
    assert!(r.location().ends_with("linked=3&created=1"), "{}", r.location());
    let notice = c.get(&r.location());
    assert!(notice.body.contains("matched players of the registry"), "{}", notice.body);
    assert_eq!(one(&s.db, "SELECT count(DISTINCT person_id) FROM entrants WHERE given_name_zh = '一'"), 1);

    // Round 1 of the spring event paired but not published: no result on the person page.
    pair_round(&c, spring, 1, "20261208");
    let public = s.client().in_chinese();
    let page = public.get(&format!("/p/{pid}"));
    assert_eq!(page.status, 200, "{}", page.body);
    for name in ["张昊洋", "春季赛", "夏季赛"] {
        assert!(page.body.contains(name), "{name}: {}", page.body);
    }
    assert!(!page.body.contains("<td>1</td>"), "no score or place before publication: {}", page.body);
    for private in ["2010-04-01", "左撇子"] {
        assert!(!page.body.contains(private), "{private} is not public");
    }
    publish_round(&s, &c, spring, 1);
    let gid = one(
        &s.db,
        &format!("SELECT id FROM games WHERE tournament_id = {spring} AND round_number = 1 AND (black_id = {e1} OR white_id = {e1})"),
    ) as i32;
    let colour = if one(&s.db, &format!("SELECT black_id FROM games WHERE id = {gid}")) == e1 {
        "black"
    } else {
        "white"
    };
    enter(&c, spring, gid, &[("method", "resignation"), ("winner", colour)]);
    let after = public.get(&format!("/p/{pid}"));
    assert!(after.body.contains("<td>1</td>"), "a win after the published round 1: {}", after.body);
    // The English page names him in pinyin first; the event's player page links to him.
    let en = s.client().get(&format!("/p/{pid}"));
    assert!(en.body.contains("<h1>Zhang Haoyang"), "{}", en.body);
    let player = public.get(&format!("/t/{spring}/players/{e1}"));
    assert!(player.body.contains(&format!("href=\"/p/{pid}\"")), "{}", player.body);
}

/// Registry practice: likely duplicates (same pinyin and unit) are merged by an organizer of
/// their events, never by one of other events; the merge is versioned (a stale one is
/// refused, nothing written) and audited; then the administrator exports the person and
/// deletes them on request (the GDPR's right to erasure): past results keep the name only.
#[test]
fn merge_export_and_delete_on_request() {
    let s = Server::start();
    let c = s.first_organizer();
    let spring = tournament_with_players(&c, "春季赛", "Spring Open", &[], 0);
    add_zhang(&c, spring);
    // 章昊洋 of the same unit, typed without a birth date: another person, a likely duplicate.
    let page = format!("/t/{spring}/entrants/new");
    let r = c.submit(
        &page,
        &page,
        &[("family_name_zh", "章"), ("given_name_zh", "昊洋"), ("rank", "1段"), ("unit", "北京棋院")],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let keep = one(&s.db, "SELECT person_id FROM entrants WHERE family_name_zh = '张'");
    let drop = one(&s.db, "SELECT person_id FROM entrants WHERE family_name_zh = '章'");
    assert_ne!(keep, drop);
    assert!(c.get("/").body.contains("href=\"/persons\""), "the registry is in the organizers' menu");
    let reg = c.get("/persons");
    assert_eq!(reg.status, 200, "{}", reg.body);
    assert!(reg.body.contains(&format!("href=\"/persons/{drop}\"")), "{}", reg.body);

    // Another organizer, of no event of theirs, neither finds nor merges them.
    let (other, _) = add_user(&s, &c, "org2", "organizer");
    assert!(!other.get("/persons?q=zhy").body.contains("昊洋"));
    let (k, d) = (keep.to_string(), drop.to_string());
    let merge = |kv: &'static str| {
        [("keep", k.clone()), ("drop", d.clone()), ("keep_version", kv.into()), ("drop_version", "1".into())]
    };
    let (right, old) = (merge("1"), merge("7"));
    let f: Vec<(&str, &str)> = right.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let stale: Vec<(&str, &str)> = old.iter().map(|(k, v)| (*k, v.as_str())).collect();
    assert_eq!(other.submit("/persons", "/persons/merge", &f).status, 403);
    // A stale form is refused and writes nothing.
    assert_eq!(c.submit("/persons", "/persons/merge", &stale).status, 409);
    assert_eq!(one(&s.db, &format!("SELECT count(*) FROM persons WHERE id = {drop}")), 1);
    let r = c.submit("/persons", "/persons/merge", &f);
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(one(&s.db, &format!("SELECT count(*) FROM persons WHERE id = {drop}")), 0);
    assert_eq!(one(&s.db, &format!("SELECT count(*) FROM entrants WHERE person_id = {keep}")), 2);
    assert_eq!(one(&s.db, &format!("SELECT count(*) FROM audit WHERE action = 'merge' AND entity = 'person' AND entity_id = {keep}")), 1);

    // Export: everything stored, for the administrator only.
    let (arbiter, _) = add_user(&s, &c, "arb", "arbiter");
    assert_eq!(arbiter.get(&format!("/persons/{keep}/export.json")).status, 403);
    let export = c.get(&format!("/persons/{keep}/export.json"));
    assert_eq!(export.status, 200);
    let json: serde_json::Value = serde_json::from_str(&export.body).unwrap();
    assert_eq!(json["person"]["birth_date"], "2010-04-01");
    assert_eq!(json["entrants"].as_array().unwrap().len(), 2);

    // Delete on request: the person goes, the entrants keep the name, rank and unit only.
    let r = send_form(&c, &format!("/persons/{keep}"), "erase", &[("reason", "本人要求删除")]);
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(one(&s.db, "SELECT count(*) FROM persons"), 0);
    assert_eq!(one(&s.db, "SELECT count(*) FROM person_ranks"), 0);
    let left = query(&s.db, "SELECT family_name_zh || given_name_zh, rank, unit, coalesce(birth_date, ''), coalesce(sex, ''), notes, region, coalesce(person_id, 0) FROM entrants WHERE given_name_zh = '昊洋' ORDER BY id");
    assert_eq!(left.len(), 2);
    for row in &left {
        assert!(row[0].ends_with("昊洋") && row[1] == "1d" && row[2] == "北京棋院", "{row:?}");
        assert_eq!(&row[3..], &["", "", "", "", "0"], "{row:?}");
    }
    for private in ["2010-04-01", "左撇子", "北京\""] {
        let n = one(&s.db, &format!("SELECT count(*) FROM audit WHERE coalesce(before, '') LIKE '%{private}%' OR coalesce(after, '') LIKE '%{private}%'"));
        assert_eq!(n, 0, "{private} left in the audit");
    }
    assert_eq!(one(&s.db, &format!("SELECT count(*) FROM audit WHERE action = 'erase' AND entity = 'person' AND entity_id = {keep}")), 1);
    assert_eq!(c.get(&format!("/p/{keep}")).status, 404);
    let players = s.client().in_chinese().get(&format!("/t/{spring}/players"));
    assert!(players.body.contains("张昊洋"), "the name stays in past results");
}

/// Registry practice (a federation's member record): an organizer of the player's event
/// corrects the person's own details on the person's page (EGD PIN, unit, contact) as the
/// form shows them; the entrant keeps what was entered at the event; the audit names the
/// person without the contact; a stale form is refused (409) with the typed entry kept; a bad
/// e-mail and a birth date in the future are refused beside their fields, nothing written;
/// the public page shows neither contact nor PIN; an organizer of none of the person's
/// events is refused (403).
#[test]
fn an_organizer_corrects_a_persons_details() {
    let s = Server::start();
    let c = s.first_organizer().in_chinese();
    let t = tournament_with_players(&c, "春季赛", "Spring Open", &[("colour_method", "lots")], 2);
    add_zhang(&c, t);
    let eid =
        one(&s.db, &format!("SELECT id FROM entrants WHERE tournament_id = {t} AND given_name_zh = '昊洋'"));
    let pid = one(&s.db, &format!("SELECT person_id FROM entrants WHERE id = {eid}"));
    let page = format!("/persons/{pid}");

    let bad = send_form(&c, &page, "person-edit", &[("email", "not-mail"), ("birth_date", "2999-01-01")]);
    assert_eq!(bad.status, 400, "{}", bad.body);
    assert!(
        text_of(&bad, "err-email").is_some() && text_of(&bad, "err-birth_date").is_some(),
        "{}",
        bad.body
    );
    assert!(bad.body.contains("value=\"not-mail\""), "the typed entry kept: {}", bad.body);
    assert_eq!(one(&s.db, &format!("SELECT version FROM persons WHERE id = {pid}")), 1);

    let ok = send_form(
        &c,
        &page,
        "person-edit",
        &[
            ("egd_pin", "12345678"),
            ("unit", "上海棋院"),
            ("email", "zhy@example.cn"),
            ("phone", "13800138000"),
        ],
    );
    assert_eq!(ok.status, 303, "{}", ok.body);
    let row =
        query(&s.db, &format!("SELECT egd_pin, unit, email, phone, version FROM persons WHERE id = {pid}"));
    assert_eq!(row[0], ["12345678", "上海棋院", "zhy@example.cn", "13800138000", "2"]);
    assert_eq!(query(&s.db, &format!("SELECT unit FROM entrants WHERE id = {eid}"))[0], ["北京棋院"]);
    let audit = query(
        &s.db,
        &format!("SELECT after FROM audit WHERE action = 'edit' AND entity = 'person' AND entity_id = {pid}"),
    );
    assert_eq!(audit.len(), 1);
    assert!(
        audit[0][0].contains("昊洋") && !audit[0][0].contains("zhy@") && !audit[0][0].contains("1380"),
        "{:?}",
        audit
    );

    // A form read before that save: refused, the typed entry kept, nothing written.
    let p = c.get(&page);
    let (action, mut fields) = p.form_as_shown("person-edit");
    fields.retain(|(k, _)| k != "version" && k != "unit");
    fields.push(("version".into(), "1".into()));
    fields.push(("unit".into(), "广州棋院".into()));
    let stale = c.post_form(&action, &as_refs(&fields));
    assert_eq!(stale.status, 409, "{}", stale.body);
    assert!(stale.body.contains("value=\"广州棋院\""), "{}", stale.body);
    assert_eq!(query(&s.db, &format!("SELECT unit FROM persons WHERE id = {pid}"))[0], ["上海棋院"]);

    let public = s.client().get(&format!("/p/{pid}"));
    assert_eq!(public.status, 200);
    assert!(
        !public.body.contains("zhy@example.cn") && !public.body.contains("13800138000"),
        "{}",
        public.body
    );
    assert!(!public.body.contains("12345678"), "{}", public.body);

    let (other, _) = add_user(&s, &c, "org2", "organizer");
    let csrf = other.get("/persons").csrf();
    let r = other.post_form(
        &format!("/persons/{pid}/edit"),
        &[("csrf", &csrf), ("version", "2"), ("family_name_zh", "李")],
    );
    assert_eq!(r.status, 403, "{}", r.body);
    assert_eq!(query(&s.db, &format!("SELECT family_name_zh FROM persons WHERE id = {pid}"))[0], ["张"]);
}
