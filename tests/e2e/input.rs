//! Strict input against the real binary: input that used to be taken leniently is refused
//! with a 4xx and a message, and nothing is written.

use crate::common;
use common::*;

#[test]
fn a_signed_rank_is_refused_not_read_as_its_digits() {
    let s = Server::start();
    let org = s.first_organizer();
    let tid = create_tournament(&org, "段位赛");
    for rank in ["-5d", "+3k", "5d-"] {
        let r = add_entrant(&org, tid, "王", "伟", rank);
        assert_eq!(r.status, 400, "{rank}: {}", r.body);
        assert!(r.field_error("rank").is_some(), "{rank}");
        assert_eq!(r.input("rank").as_deref(), Some(rank), "the typed rank is kept");
    }
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM entrants"), 0);
    assert_eq!(add_entrant(&org, tid, "王", "伟", "5-d").status, 303, "a separator inside is fine");
}

#[test]
fn a_round_that_is_not_a_number_is_a_400() {
    let s = Server::start();
    let org = s.first_organizer();
    let tid = tournament_with_players(&org, "轮次参数赛", "Round Param Open", &[], 4);
    pair_round(&org, tid, 1, "3");
    publish_round(&s, &org, tid, 1);
    let anon = s.client();
    for page in ["standings", "results", "pairings"] {
        for bad in ["abc", "0", "-1", "1.5", ""] {
            let r = anon.get(&format!("/t/{tid}/{page}?round={bad}"));
            assert_eq!(r.status, 400, "{page}?round={bad}");
            assert!(r.body.contains("must be a round number from 1"), "{page}?round={bad}: {}", r.body);
        }
        assert_eq!(anon.get(&format!("/t/{tid}/{page}")).status, 200);
        assert_eq!(anon.get(&format!("/t/{tid}/{page}?round=1")).status, 200);
    }
    let mut zh = s.client();
    zh.accept_language = "zh-CN".into();
    assert!(zh.get(&format!("/t/{tid}/standings?round=abc")).body.contains("必须是从1开始的轮次编号"));
}

#[test]
fn deep_xml_and_an_unclosed_csv_quote_are_refused_by_name() {
    let s = Server::start();
    let org = s.first_organizer();
    let tid = create_tournament(&org, "导入边界赛");
    let token = org.get(&format!("/t/{tid}/import")).csrf();
    let deep = format!("<Tournament>{}{}</Tournament>", "<a>".repeat(200_000), "</a>".repeat(200_000));
    let r = org.post_file(
        &format!("/t/{tid}/import/opengotha"),
        &[("csrf", &token)],
        "file",
        "deep.xml",
        deep.as_bytes(),
    );
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body.contains("nested more than 32 deep"), "{}", r.body);
    let csv = "姓名,段位,单位\n王一,5段,北京\n李二,4段,\"上海棋院\n张三,3段,杭州\n赵四,2段,广州\n";
    let r =
        org.post_file(&format!("/t/{tid}/import/csv"), &[("csrf", &token)], "file", "q.csv", csv.as_bytes());
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body.contains("Line 3 opens a quoted cell"), "{}", r.body);
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM entrants"), 0);
}

#[test]
fn an_arrival_of_someone_not_in_the_round_is_refused() {
    let s = Server::start();
    let org = s.first_organizer();
    let tid = tournament_with_players(&org, "迟到赛", "Lateness Open", &[], 4);
    let other = tournament_with_players(&org, "别的赛", "Other Open", &[], 2);
    pair_round(&org, tid, 1, "5");
    publish_round(&s, &org, tid, 1);
    let foreign = count_rows(&s.db, &format!("SELECT min(id) FROM entrants WHERE tournament_id = {other}"));
    let own = count_rows(&s.db, &format!("SELECT min(id) FROM entrants WHERE tournament_id = {tid}"));
    let sheet = format!("/t/{tid}/results/rounds/1/lateness");
    let (kf, ko) = (format!("arr_{foreign}"), format!("arr_{own}"));
    for extra in [kf.as_str(), "arr_999999", "arr_x"] {
        let r = org.submit(
            &sheet,
            &sheet,
            &[("version", "0"), ("starts_at", "09:00"), (&ko, "09:10"), (extra, "09:20")],
        );
        assert_eq!(r.status, 400, "{extra}: {}", r.body);
        assert!(r.body.contains("plays no game of this round"), "{}", r.body);
    }
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM arrivals"), 0, "nothing written");
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM round_times"), 0, "nothing written");
    let r = org.submit(&sheet, &sheet, &[("version", "0"), ("starts_at", "09:00"), (&ko, "09:10")]);
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM arrivals"), 1);
}

/// An OpenGotha file of about `bytes` bytes: four players, padded with an XML comment.
fn og_of_size(bytes: usize) -> Vec<u8> {
    let players: [OgPlayer; 4] =
        [("王", "一", "5D"), ("李", "二", "4D"), ("张", "三", "3D"), ("赵", "四", "2D")];
    let xml = og_xml(&players, &[], &[], 5);
    let pad = bytes.saturating_sub(xml.len() + 9);
    let (head, tail) = xml.split_at(xml.find("<Tournament").unwrap());
    format!("{head}<!--{}-->\n{tail}", "x".repeat(pad)).into_bytes()
}

#[test]
fn each_upload_has_one_limit_stated_on_its_form_and_refused_with_a_page() {
    let s = Server::start();
    let org = s.first_organizer();
    let tid = create_tournament(&org, "上传限额赛");
    let page = org.get(&format!("/t/{tid}/import"));
    assert_eq!(text_of(&page, "limit-csv").as_deref(), Some("Files up to 5 MB."));
    assert_eq!(text_of(&page, "limit-opengotha").as_deref(), Some("Files up to 8 MB."));
    let token = page.csrf();
    // Just under the limit: previewed, and the confirmation (the file sent back hex-encoded,
    // twice its size) goes through too.
    let near = og_of_size(8 * 1024 * 1024 - 70 * 1024);
    let p =
        org.post_file(&format!("/t/{tid}/import/opengotha"), &[("csrf", &token)], "file", "near.xml", &near);
    assert_eq!(p.status, 200, "{}", &p.body[..p.body.len().min(2000)]);
    let payload = p.input("payload").expect("the preview carries the file");
    let r = org.post_form(
        &format!("/t/{tid}/import/opengotha/confirm"),
        &[("csrf", &p.csrf()), ("payload", &payload)],
    );
    assert_eq!(r.status, 303, "{}", &r.body[..r.body.len().min(2000)]);
    assert_eq!(count_rows(&s.db, &format!("SELECT count(*) FROM entrants WHERE tournament_id = {tid}")), 4);
    // Over it: refused at the preview, in the reader's language, naming the limit.
    let zh = org.in_chinese();
    let big = og_of_size(9 * 1024 * 1024);
    let r = zh.post_file(&format!("/t/{tid}/import/opengotha"), &[("csrf", &token)], "file", "big.xml", &big);
    assert_eq!(r.status, 413);
    assert!(r.header("content-type").unwrap_or("").starts_with("text/html"), "{:?}", r.headers);
    assert!(r.body.contains("内容过大") && r.body.contains("8 MB"), "{}", r.body);
    // A confirmation carrying a file over the limit is refused the same way.
    let hex: String = big.iter().map(|b| format!("{b:02x}")).collect();
    let r =
        org.post_form(&format!("/t/{tid}/import/opengotha/confirm"), &[("csrf", &token), ("payload", &hex)]);
    assert_eq!(r.status, 413);
    assert!(r.body.contains("Too large") && r.body.contains("8 MB"), "{}", &r.body[..r.body.len().min(2000)]);
    // A CSV over its own limit, and a game record over its own.
    let csv = vec![b'a'; 6 * 1024 * 1024];
    let r = org.post_file(&format!("/t/{tid}/import/csv"), &[("csrf", &token)], "file", "big.csv", &csv);
    assert_eq!(r.status, 413);
    assert!(r.body.contains("5 MB"), "{}", &r.body[..r.body.len().min(2000)]);
    assert_eq!(count_rows(&s.db, &format!("SELECT count(*) FROM entrants WHERE tournament_id = {tid}")), 4);
}

/// Texts with what the eye does not see: a right-to-left override, a zero-width space, an
/// isolate pair, a soft hyphen, a byte-order mark, a tag character, a line separator.
const INVISIBLE: [&str; 7] = [
    "北京\u{202E}moc.live",
    "天元\u{200B}杯",
    "\u{2066}Cup\u{2069}",
    "Go\u{00AD}Club",
    "棋\u{FEFF}院",
    "Tag\u{E0041}",
    "上\u{2028}海",
];

/// Office rule (typed text): one rule for every text a user types — no control characters
/// and no invisible format characters (Unicode's category Cf: bidi overrides and isolates such
/// as U+202E, zero-width characters, the byte-order mark, the soft hyphen, tags; nor line
/// separators) — in event names and venues, settings and withdrawal reasons, rulings, account
/// names, team names, leaders and rosters. Each form refuses them beside the field or with a
/// page, and nothing of them is stored.
#[test]
fn invisible_format_characters_are_refused_in_every_typed_text() {
    let s = Server::start();
    let org = s.first_organizer();
    // A new event: each name and the venue.
    for field in ["name_zh", "name_latin", "venue"] {
        for bad in INVISIBLE {
            let mut f = tournament_fields("格式字符赛", "Format Cup");
            set(&mut f, field, bad);
            let r = org.submit("/t/new", "/t/new", &as_refs(&f));
            assert_eq!(r.status, 400, "{field} {bad:?}: {}", r.body);
            assert!(r.field_error(field).is_some(), "{field} {bad:?}: {}", r.body);
        }
    }
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM tournaments"), 0);
    // The settings of an event: the venue, and the reason that goes into the audit.
    let tid = tournament_with_players(&org, "格式字符赛", "Format Cup", &[("colour_method", "lots")], 4);
    let settings = format!("/t/{tid}/settings");
    let version = org.get(&settings).input("version").unwrap();
    for (field, bad) in [("venue", INVISIBLE[0]), ("reason", INVISIBLE[1]), ("reason", INVISIBLE[6])] {
        let mut f = tournament_fields("格式字符赛", "Format Cup");
        set(&mut f, "colour_method", "lots");
        set(&mut f, "version", &version);
        set(&mut f, field, bad);
        let r = org.submit(&settings, &settings, &as_refs(&f));
        assert_eq!(r.status, 400, "{field} {bad:?}: {}", r.body);
    }
    // A withdrawal's reason.
    let eid =
        query(&s.db, &format!("SELECT id FROM entrants WHERE tournament_id = {tid} LIMIT 1"))[0][0].clone();
    let token = org.get(&format!("/t/{tid}/entrants")).csrf();
    let r = org.post_form(
        &format!("/t/{tid}/entrants/{eid}/withdraw"),
        &[("csrf", &token), ("reason", INVISIBLE[2])],
    );
    assert_eq!(r.status, 400, "{}", r.body);
    // A ruling's reason.
    pair_round(&org, tid, 1, "5");
    publish_round(&s, &org, tid, 1);
    let gid = game_id(&s.db, tid, 1, 1);
    let r = game_post(
        &org,
        tid,
        gid,
        "rulings",
        &[
            ("do", "save"),
            ("kind", "warning"),
            ("against", "black"),
            ("move_number", "50"),
            ("reason", INVISIBLE[3]),
        ],
    );
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.field_error("reason").is_some(), "{}", r.body);
    // An account's display name.
    for bad in INVISIBLE {
        let r = org.submit(
            "/users",
            "/users",
            &[
                ("username", "fmt1"),
                ("display_name", bad),
                ("role", "arbiter"),
                ("password", "plum blossom tea house"),
                ("password2", "plum blossom tea house"),
            ],
        );
        assert_eq!(r.status, 400, "{bad:?}: {}", r.body);
        assert!(r.field_error("display_name").is_some(), "{bad:?}");
    }
    // A team: its name, unit, leader and coach, and a player of its roster.
    let team_event = common::team::relay_tournament(&org, "格式接力赛", "Format Relay", "3", &[]);
    common::team::save_team_settings(&org, &s, team_event, &[]);
    let page = format!("/t/{team_event}/teams/new");
    let good = [
        ("name", "北京队"),
        ("unit", "北京棋院"),
        ("rating", "2400"),
        ("leader", "王领队"),
        ("coach", "李教练"),
        ("captain", "1"),
        ("players", "1 张一\n2 张二\n3 张三\n4 张四"),
    ];
    for (field, bad) in [
        ("name", INVISIBLE[0]),
        ("unit", INVISIBLE[4]),
        ("leader", INVISIBLE[5]),
        ("coach", INVISIBLE[3]),
        ("players", "1 张一\n2 张\u{202E}二\n3 张三\n4 张四"),
    ] {
        let fields: Vec<(&str, &str)> =
            good.iter().map(|(k, v)| (*k, if *k == field { bad } else { *v })).collect();
        let r = org.submit(&page, &page, &fields);
        assert_eq!(r.status, 400, "{field}: {}", r.body);
    }
    assert_eq!(org.submit(&page, &page, &good).status, 303, "the same team without them is taken");
    // Nothing invisible was stored anywhere.
    for (table, columns) in [
        ("tournaments", "name_zh || name_latin || venue"),
        ("audit", "coalesce(reason, '')"),
        ("entrants", "coalesce(notes, '')"),
        ("users", "display_name"),
        ("teams", "name || unit"),
        ("team_members", "name"),
    ] {
        for bad in ["\u{202E}", "\u{200B}", "\u{2066}", "\u{00AD}", "\u{FEFF}", "\u{2028}"] {
            let n =
                count_rows(&s.db, &format!("SELECT count(*) FROM {table} WHERE {columns} LIKE '%{bad}%'"));
            assert_eq!(n, 0, "{table} holds {bad:?}");
        }
    }
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM rulings"), 0);
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM users"), 1);
}
