//! CSV import (preview, bad rows, GBK), CSV export, OpenGotha XML import.

mod common;
use common::*;

const GOOD: &[u8] = include_bytes!("../admin/tests/fixtures/good_utf8.csv");
const GBK: &[u8] = include_bytes!("../admin/tests/fixtures/gbk.csv");
const BAD: &[u8] = include_bytes!("../admin/tests/fixtures/bad_rows.csv");

fn upload(c: &Client, tid: i32, kind: &str, name: &str, data: &[u8]) -> Resp {
    let token = c.get(&format!("/t/{tid}/import")).csrf();
    c.post_file(&format!("/t/{tid}/import/{kind}"), &[("csrf", &token)], "file", name, data)
}

fn confirm(c: &Client, tid: i32, kind: &str, preview: &Resp, extra: &[(&str, &str)]) -> Resp {
    let payload = preview.input("payload").expect("the preview carries the upload");
    let mut f = vec![("csrf", preview.csrf()), ("payload", payload)];
    for (k, v) in extra {
        f.push((k, v.to_string()));
    }
    let refs: Vec<(&str, &str)> = f.iter().map(|(k, v)| (*k, v.as_str())).collect();
    c.post_form(&format!("/t/{tid}/import/{kind}/confirm"), &refs)
}

#[test]
fn csv_import_previews_then_imports_good_files_utf8_and_gbk() {
    let s = Server::start();
    let c = s.first_organizer();
    let tid = create_tournament(&c, "导入测试赛");
    let p = upload(&c, tid, "csv", "good.csv", GOOD);
    assert_eq!(p.status, 200, "{}", p.body);
    assert!(p.body.contains("4 rows: 4 valid, 0 with errors"), "{}", p.body);
    assert!(p.body.contains("欧阳娜娜"));
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM entrants"), 0, "a preview writes nothing");
    let r = confirm(&c, tid, "csv", &p, &[]);
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM entrants"), 4);
    let list = c.get(&r.location());
    assert!(list.body.contains("4 entrants imported"));
    assert!(list.body.contains("王子涵") && list.body.contains("Vannier"));

    // The same people in GBK, into another tournament.
    let t2 = create_tournament(&c, "GBK测试赛");
    let p = upload(&c, t2, "csv", "gbk.csv", GBK);
    assert_eq!(p.status, 200);
    assert!(p.body.contains("王子涵"), "GBK is decoded: {}", p.body);
    assert_eq!(confirm(&c, t2, "csv", &p, &[]).status, 303);
    assert_eq!(count_rows(&s.db, &format!("SELECT count(*) FROM entrants WHERE tournament_id = {t2}")), 4);
    assert_eq!(
        count_rows(
            &s.db,
            &format!("SELECT count(*) FROM entrants WHERE tournament_id = {t2} AND family_name_zh = '欧阳'")
        ),
        1
    );
    // Every imported entrant has its audit row, plus one for the import.
    assert_eq!(
        count_rows(
            &s.db,
            &format!("SELECT count(*) FROM audit WHERE tournament_id = {t2} AND entity = 'entrant'")
        ),
        4
    );
    assert_eq!(
        count_rows(
            &s.db,
            &format!("SELECT count(*) FROM audit WHERE tournament_id = {t2} AND action = 'import'")
        ),
        1
    );

    // Export: UTF-8 with BOM, and it imports back to the same people.
    let csv = c.get(&format!("/t/{tid}/entrants.csv"));
    assert_eq!(csv.status, 200);
    assert!(csv.header("content-type").unwrap_or("").starts_with("text/csv"));
    assert!(csv.bytes.starts_with(&[0xef, 0xbb, 0xbf]), "BOM for Excel");
    let t3 = create_tournament(&c, "回读测试赛");
    let p = upload(&c, t3, "csv", "export.csv", &csv.bytes);
    assert!(p.body.contains("4 rows: 4 valid, 0 with errors"), "{}", p.body);
}

#[test]
fn bad_rows_are_listed_with_line_numbers_and_nothing_is_imported_unless_dropped() {
    let s = Server::start();
    let c = s.first_organizer();
    let tid = create_tournament(&c, "坏行测试赛");
    assert_eq!(add_entrant(&c, tid, "已", "有", "1d").status, 303);
    let p = upload(&c, tid, "csv", "bad.csv", BAD);
    assert_eq!(p.status, 200);
    let bad_rows = p.body.matches("class=\"bad-row\"").count();
    assert!(bad_rows >= 7, "{bad_rows} bad rows listed: {}", p.body);
    assert!(p.body.contains("<td>3</td>"), "line 3 (李强, rank 3x) is listed by its line number");
    assert!(p.body.contains("3x"));
    // Confirming without dropping the bad rows imports nothing.
    let r = confirm(&c, tid, "csv", &p, &[]);
    assert_eq!(r.status, 422);
    assert!(r.body.contains("Nothing was imported"));
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM entrants"), 1);
    // Dropping them explicitly imports the good ones; replacing backs up first.
    let r = confirm(&c, tid, "csv", &p, &[("drop_bad", "on"), ("replace", "on")]);
    assert_eq!(r.status, 303, "{}", r.body);
    let n = count_rows(&s.db, "SELECT count(*) FROM entrants");
    assert!((1..10).contains(&n), "{n}");
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM entrants WHERE given_name_zh = '有'"), 0, "replaced");
    let backups: Vec<_> = std::fs::read_dir(s.dir.path().join("backups")).unwrap().collect();
    assert_eq!(backups.len(), 1, "a backup before an import that replaces data");
    // A missing or unreadable file is a 4xx with a message.
    let token = c.get(&format!("/t/{tid}/import")).csrf();
    let r = c.post_file(&format!("/t/{tid}/import/csv"), &[("csrf", &token)], "file", "empty.csv", b"");
    assert_eq!(r.status, 400);
    let r = upload(&c, tid, "csv", "junk.csv", &[0x00, 0x01, 0xff, 0xfe, 0x00]);
    assert!((200..500).contains(&r.status), "{}", r.status);
    let r = c.post_form(&format!("/t/{tid}/import/csv/confirm"), &[("csrf", &token), ("payload", "zz")]);
    assert_eq!(r.status, 400);
}

const OG: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<Tournament dataVersion="201" fullVersionNumber="3.51">
<Players>
<Player club="北京棋院" country="CN" firstName="传德" name="高" participating="111" rank="1D" rating="2100" registeringStatus="FIN"/>
<Player club="上海" country="CN" firstName="盼盼" name="屈" participating="111" rank="12K" rating="800" registeringStatus="FIN"/>
<Player club="杭州" country="CN" firstName="雪艳" name="马" participating="111" rank="12K" rating="900" registeringStatus="FIN"/>
<Player club="35Re" country="FR" firstName="Remi" name="Vannier" participating="111" rank=" 2D" rating="2153" registeringStatus="FIN"/>
</Players>
<Games>
<Game blackPlayer="高传德" handicap="0" knownColor="true" result="RESULT_BLACKWINS" roundNumber="1" tableNumber="1" whitePlayer="VANNIERREMI"/>
<Game blackPlayer="屈盼盼" handicap="0" knownColor="true" result="RESULT_WHITEWINS" roundNumber="1" tableNumber="2" whitePlayer="马雪艳"/>
<Game blackPlayer="马雪艳" handicap="0" knownColor="true" result="RESULT_UNKNOWN" roundNumber="2" tableNumber="1" whitePlayer="高传德"/>
</Games>
<TournamentParameterSet>
<GeneralParameterSet name="中国赛 Tournoi chinois" shortName="chinois" numberOfRounds="3"/>
</TournamentParameterSet>
</Tournament>
"#;

#[test]
fn opengotha_import_brings_players_rounds_and_results() {
    let s = Server::start();
    let c = s.first_organizer();
    let tid = create_tournament(&c, "OpenGotha测试赛");
    let p = upload(&c, tid, "opengotha", "t.xml", OG.as_bytes());
    assert_eq!(p.status, 200, "{}", p.body);
    assert!(p.body.contains("中国赛 Tournoi chinois"), "{}", p.body);
    assert!(p.body.contains("4 rows: 4 valid, 0 with errors"), "{}", p.body);
    let r = confirm(&c, tid, "opengotha", &p, &[]);
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM entrants"), 4);
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM games"), 3);
    assert_eq!(
        count_rows(
            &s.db,
            "SELECT count(*) FROM games g JOIN entrants b ON b.id = g.black_id JOIN entrants w ON w.id = g.white_id \
             WHERE g.round_number = 1 AND g.board = 1 AND b.given_name_zh = '传德' AND w.family_name_latin = 'Vannier' \
             AND g.result = 'RESULT_BLACKWINS'"
        ),
        1
    );
    // Imported rounds were played: they count as published, so the settings freeze.
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM rounds WHERE published = 1"), 2);
    assert!(c.get(&format!("/t/{tid}/settings")).body.contains("2 round(s) published"));
    // Not an OpenGotha file: a message, nothing written.
    let r = upload(&c, tid, "opengotha", "x.xml", b"<html><body>no</body></html>");
    assert_eq!(r.status, 400);
    assert!(r.body.contains("cannot be read"), "{}", r.body);
}
