//! Issue 14 item 7 against the real binary: input that used to be taken leniently is refused
//! with a 4xx and a message, and nothing is written.

mod common;
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
