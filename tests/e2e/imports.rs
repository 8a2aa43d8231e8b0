//! CSV import (preview, bad rows, GBK), CSV export, OpenGotha XML import.

use crate::common;
use common::*;

const GOOD: &[u8] = include_bytes!("../../admin/tests/fixtures/good_utf8.csv");
const GBK: &[u8] = include_bytes!("../../admin/tests/fixtures/gbk.csv");
const BAD: &[u8] = include_bytes!("../../admin/tests/fixtures/bad_rows.csv");

fn upload(c: &Client, tid: i32, kind: &str, name: &str, data: &[u8]) -> Resp {
    let token = c.get(&format!("/t/{tid}/import")).csrf();
    c.post_file(&format!("/t/{tid}/import/{kind}"), &[("csrf", &token)], "file", name, data)
}

fn confirm(c: &Client, tid: i32, kind: &str, preview: &Resp, extra: &[(&str, &str)]) -> Resp {
    let payload = preview.input("payload").expect("the preview carries the upload");
    let mut f = vec![("csrf", preview.csrf()), ("payload", payload)];
    if let Some(changes) = preview.input("changes") {
        f.push(("changes", changes));
    }
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
    assert_eq!(bad_rows, 6, "{bad_rows} bad rows listed: {}", p.body);
    // Line 9 repeats line 2: not an error but a flag, with the box that adds it anyway.
    assert!(p.body.contains("id=\"flag-9\""), "{}", p.body);
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
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM rounds WHERE published"), 2);
    assert!(c.get(&format!("/t/{tid}/settings")).body.contains("2 rounds published"));
    // Not an OpenGotha file: a message, nothing written.
    let r = upload(&c, tid, "opengotha", "x.xml", b"<html><body>no</body></html>");
    assert_eq!(r.status, 400);
    assert!(r.body.contains("cannot be read"), "{}", r.body);
}

// ---------------------------------------------------------------------------------------------
// Imports: an import never merges an event, brings the event's own data, and never
// doubles the field without a confirmation.

const SIMPLE_MM: &[u8] = include_bytes!("../../admin/tests/fixtures/opengotha/simplemm.xml");
const CHINOIS: &[u8] = include_bytes!("../../admin/tests/fixtures/opengotha/TournoiChinois.xml");

/// What a refused write must leave alone: entrants, games, rounds, absences, audit rows and the
/// files in backups/.
fn state(s: &Server, tid: i32) -> Vec<i64> {
    let mut v: Vec<i64> = ["entrants", "games", "rounds", "round_absences", "audit"]
        .iter()
        .map(|t| count_rows(&s.db, &format!("SELECT count(*) FROM {t} WHERE tournament_id = {tid}")))
        .collect();
    v.push(count_rows(&s.db, "SELECT count(*) FROM tournaments"));
    v.push(std::fs::read_dir(s.dir.path().join("backups")).map(|d| d.count() as i64).unwrap_or(0));
    v
}

fn round_version(s: &Server, tid: i32, n: i32) -> String {
    count_rows(&s.db, &format!("SELECT version FROM rounds WHERE tournament_id = {tid} AND number = {n}"))
        .to_string()
}

/// Round 1 paired and published, round 2 paired as a draft, over the rounds pages.
fn play_two_rounds(c: &Client, s: &Server, tid: i32) {
    let rounds = format!("/t/{tid}/rounds");
    let r = c.submit(&rounds, &format!("{rounds}/1/pair"), &[("seed", "1")]);
    assert_eq!(r.status, 303, "pair: {}", r.body);
    let v = round_version(s, tid, 1);
    let r = c.submit(&rounds, &format!("{rounds}/1/publish"), &[("version", &v), ("confirm", "on")]);
    assert_eq!(r.status, 303, "publish: {}", r.body);
    let r = c.submit(&rounds, &format!("{rounds}/2/pair"), &[("seed", "2"), ("confirm", "on")]);
    assert_eq!(r.status, 303, "pair 2: {}", r.body);
}

/// An OpenGotha file into an event with a published round and a draft: the preview
/// says what each choice does; no choice, no confirmation, or a write since the preview is
/// refused with nothing written; replacing makes a backup the restore command can use, gives
/// the file's rounds exactly (no table twice, the draft gone) and is audited; a new event
/// leaves this one alone.
#[test]
fn opengotha_import_replaces_or_creates_and_never_merges() {
    let s = Server::start();
    let c = s.first_organizer();
    let tid = tournament_with_players(&c, "合并测试赛", "Merge Open", &[], 8);
    play_two_rounds(&c, &s, tid);
    assert_eq!(
        count_rows(
            &s.db,
            &format!("SELECT count(*) FROM rounds WHERE tournament_id = {tid} AND NOT published")
        ),
        1
    );

    let p = upload(&c, tid, "opengotha", "simplemm.xml", SIMPLE_MM);
    assert_eq!(p.status, 200, "{}", p.body);
    assert!(p.body.contains("value=\"new\"") && p.body.contains("value=\"replace\""), "{}", p.body);
    assert!(!p.body.contains(" checked>"), "nothing is preselected for an event with data: {}", p.body);
    assert!(p.body.contains("Deletes its 8 entrants and 2 rounds (1 published)"), "{}", p.body);
    assert!(p.body.contains("name=\"confirm_replace\""), "{}", p.body);

    let before = state(&s, tid);
    // No choice: refused beside the field, nothing written.
    let r = confirm(&c, tid, "opengotha", &p, &[]);
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.field_error("mode").is_some(), "{}", r.body);
    // Replacing an event with rounds without the confirmation box: refused.
    let r = confirm(&c, tid, "opengotha", &p, &[("mode", "replace")]);
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.field_error("confirm_replace").unwrap().contains("tick the box"), "{}", r.body);
    assert_eq!(state(&s, tid), before, "refusals write nothing, back up nothing");

    // A write since the preview: the preview no longer says what would be deleted.
    assert_eq!(add_entrant(&c, tid, "迟", "到", "2k").status, 303);
    let before = state(&s, tid);
    let r = confirm(&c, tid, "opengotha", &p, &[("mode", "replace"), ("confirm_replace", "on")]);
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(r.body.contains("the event changed since the preview"), "{}", r.body);
    assert!(r.body.contains("Deletes its 9 entrants"), "the preview shown again is current: {}", r.body);
    assert_eq!(state(&s, tid), before);

    // Confirmed on a fresh preview, but the backup that comes first cannot be made (backups/
    // is a file): nothing replaced, the reason on the page, the upload kept in the form.
    let p = upload(&c, tid, "opengotha", "simplemm.xml", SIMPLE_MM);
    let in_the_way = s.dir.path().join("backups");
    std::fs::write(&in_the_way, b"").unwrap();
    let r = confirm(&c, tid, "opengotha", &p, &[("mode", "replace"), ("confirm_replace", "on")]);
    assert_eq!(r.status, 503, "{}", r.body);
    assert!(r.body.contains("the backup that comes before this change could not be made"), "{}", r.body);
    assert_eq!(r.input("payload"), p.input("payload"), "the upload survives the refusal");
    assert_eq!(state(&s, tid), before, "nothing replaced");
    // The folder can be made: the kept form, sent again, replaces after a backup.
    std::fs::remove_file(&in_the_way).unwrap();
    let (action, fields) = r.form_inputs("resubmit");
    let r = c.post_form(&action, &as_refs(&fields));
    assert_eq!(r.status, 303, "{}", r.body);
    let n = |sql: &str| count_rows(&s.db, &sql.replace("{t}", &tid.to_string()));
    assert_eq!(n("SELECT count(*) FROM entrants WHERE tournament_id = {t}"), 16, "the file's players only");
    assert_eq!(n("SELECT count(*) FROM games WHERE tournament_id = {t}"), 40, "the file's games only");
    assert_eq!(
        n("SELECT count(*) FROM (SELECT 1 FROM games WHERE tournament_id = {t} GROUP BY round_number, board HAVING count(*) > 1) AS d"),
        0,
        "no table number twice"
    );
    assert_eq!(n("SELECT count(*) FROM rounds WHERE tournament_id = {t}"), 5);
    assert_eq!(
        n("SELECT count(*) FROM rounds WHERE tournament_id = {t} AND published"),
        5,
        "played in OpenGotha"
    );
    assert_eq!(n("SELECT count(*) FROM entrants WHERE tournament_id = {t} AND given_name_zh = '到'"), 0);
    let backups: Vec<_> =
        std::fs::read_dir(s.dir.path().join("backups")).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(backups.len(), 1, "{backups:?}");
    // The backup holds the event as it was, and is a file the restore command takes.
    assert_eq!(
        backup_count(&backups[0], &format!("SELECT count(*) FROM entrants WHERE tournament_id = {tid}")),
        9
    );
    let audit = query(
        &s.db,
        &format!("SELECT after FROM audit WHERE tournament_id = {tid} AND action = 'import' ORDER BY id DESC LIMIT 1"),
    );
    let after = &audit[0][0];
    assert!(after.contains("\"mode\":\"replace\"") && after.contains("before-import-t"), "{after}");
    assert!(after.contains("\"entrants\":16"), "{after}");
    assert_eq!(n("SELECT count(*) FROM audit WHERE tournament_id = {t} AND action = 'delete' AND entity = 'entrant'"), 9);

    // A new event from the same file: this one stays as it is.
    let before = state(&s, tid);
    let p = upload(&c, tid, "opengotha", "simplemm.xml", SIMPLE_MM);
    let r = confirm(&c, tid, "opengotha", &p, &[("mode", "new")]);
    assert_eq!(r.status, 303, "{}", r.body);
    let new_tid: i32 = r.location().trim_start_matches("/t/").split('/').next().unwrap().parse().unwrap();
    assert_ne!(new_tid, tid);
    let mut expect = before.clone();
    expect[5] += 1; // one more tournament
    assert_eq!(state(&s, tid), expect);
    assert_eq!(count_rows(&s.db, &format!("SELECT count(*) FROM games WHERE tournament_id = {new_tid}")), 40);
    let list = c.get(&r.location());
    assert!(list.body.contains("16 entrants imported"), "{}", list.body);
    assert_eq!(c.get(&format!("/t/{new_tid}/settings")).status, 200, "its creator organizes it");
}

/// The event's own data comes across into the settings (checked on the pages the
/// organizer reads), what has no home is listed in the preview, and a player who does not take
/// part in a round is not paired in it.
#[test]
fn opengotha_import_brings_the_events_own_data_and_absences() {
    let s = Server::start();
    let c = s.first_organizer();
    let tid = create_tournament(&c, "参数测试赛");
    let p = upload(&c, tid, "opengotha", "TournoiChinois.xml", CHINOIS);
    assert_eq!(p.status, 200, "{}", p.body);
    assert!(p.body.contains(" checked>"), "an empty event is simply filled: {}", p.body);
    for shown in [
        "Tournoi chinois",
        "Location name",
        "2020-09-15",
        "3¾ stones = 7.5 points",
        "4d",
        "20k",
        // rules.md decisions, "McMahon standings": OpenGotha's MMS, SOSM, SOSOSM come across.
        "McMahon score → Opponents",
        "(SOSM) → Opponents",
        "(SOSOSM) → Lots",
    ] {
        assert!(p.body.contains(shown), "the preview shows {shown}: {}", p.body);
    }
    let not = text_of(&p, "not-imported").unwrap_or_default();
    for listed in ["Director name", "Ranks above 1d count as 1d", "pairing weights"] {
        assert!(not.contains(listed), "{listed} listed as not imported: {not}");
    }
    let r = confirm(&c, tid, "opengotha", &p, &[]);
    assert_eq!(r.status, 303, "{}", r.body);
    let row = query(
        &s.db,
        &format!(
            "SELECT name_latin, name_zh, venue, start_date, end_date, rounds, system, {}, time_control, {} \
             FROM tournaments WHERE id = {tid}",
            json_text(&s.db, "ruleset", "komi_q"),
            ["mcmahon.bar", "mcmahon.floor", "handicap.basis", "handicap.reduction", "handicap.max"]
                .map(|p| json_text(&s.db, "pairing_rules", p))
                .join(", ")
        ),
    );
    let r = &row[0];
    assert_eq!(
        &r[..8],
        ["Tournoi chinois", "", "Location name", "2020-09-15", "2020-09-15", "5", "mcmahon", "15"]
    );
    assert!(
        r[8].contains("\"byo_yomi\"") && r[8].contains("3600") && r[8].contains("\"period_secs\":30"),
        "{}",
        r[8]
    );
    assert_eq!(&r[9..], ["4d", "20k", "mcmahon_score", "1", "9"]);
    let overview = c.get(&format!("/t/{tid}"));
    assert!(
        overview.body.contains("Tournoi chinois") && overview.body.contains("McMahon"),
        "{}",
        overview.body
    );

    // Participation: a player absent from round 2 in the file is not paired in round 2.
    let players: [OgPlayer; 4] =
        [("Li", "Lei", "3D"), ("Wang", "Wei", "2D"), ("Zhao", "Qiang", "1D"), ("Sun", "Yu", "1K")];
    let xml = og_xml(&players, &[(1, 1, 0, 1), (1, 2, 2, 3)], &[], 3).replacen(
        "firstName=\"Yu\" name=\"Sun\" participating=\"111\"",
        "firstName=\"Yu\" name=\"Sun\" participating=\"101\"",
        1,
    );
    assert!(xml.contains("participating=\"101\""), "{xml}");
    let t2 = create_tournament(&c, "请假测试赛");
    let p = upload(&c, t2, "opengotha", "absent.xml", xml.as_bytes());
    assert!(p.body.contains("1 absence from rounds"), "{}", p.body);
    assert_eq!(confirm(&c, t2, "opengotha", &p, &[]).status, 303);
    let sun = count_rows(
        &s.db,
        &format!("SELECT id FROM entrants WHERE tournament_id = {t2} AND family_name_latin = 'Sun'"),
    );
    assert_eq!(
        count_rows(&s.db, &format!("SELECT count(*) FROM round_absences WHERE tournament_id = {t2} AND round_number = 2 AND entrant_id = {sun}")),
        1
    );
    let rounds = format!("/t/{t2}/rounds");
    let r = c.submit(&rounds, &format!("{rounds}/2/pair"), &[("seed", "7"), ("confirm", "on")]);
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(
        count_rows(
            &s.db,
            &format!("SELECT count(*) FROM games WHERE tournament_id = {t2} AND round_number = 2 AND (black_id = {sun} OR white_id = {sun})")
        ),
        0,
        "a player who stopped is not paired again"
    );
    assert!(
        count_rows(
            &s.db,
            &format!("SELECT count(*) FROM games WHERE tournament_id = {t2} AND round_number = 2")
        ) >= 1
    );
}

/// Seventeen entrants with units and some birth dates, as an organizer's list.
fn seventeen() -> String {
    let mut csv = String::from("姓名,段位,单位,出生日期\n");
    for i in 0..17 {
        let family = ["王", "李", "张", "刘", "陈", "杨", "赵", "黄", "周"][i % 9];
        let given = [
            "伟", "强", "磊", "洋", "静", "帆", "军", "勇", "杰", "敏", "丽", "超", "鹏", "华", "飞", "斌",
            "涛",
        ][i];
        let birth =
            if i % 2 == 0 { format!("20{:02}-0{}-1{}", 5 + i % 5, 1 + i % 9, i % 10) } else { String::new() };
        csv.push_str(&format!(
            "{family}{given},{}k,{}棋院,{birth}\n",
            1 + i % 10,
            ["北京", "上海", "杭州"][i % 3]
        ));
    }
    csv
}

/// The same list twice does not double the field; each probable duplicate is flagged
/// (against the event and within the file, whitespace and full-width forms folded) and added
/// only when ticked; a manual add is checked the same way; the CSV export carries the statuses
/// and round-trips.
#[test]
fn importing_the_same_entrants_twice_needs_a_confirmation_per_duplicate() {
    let s = Server::start();
    let c = s.first_organizer();
    let tid = create_tournament(&c, "重复测试赛");
    let csv = seventeen();
    let r = import_file(&c, tid, "csv", "list.csv", csv.as_bytes());
    assert_eq!(r.status, 303, "{}", r.body);
    let field = || count_rows(&s.db, &format!("SELECT count(*) FROM entrants WHERE tournament_id = {tid}"));
    assert_eq!(field(), 17);

    // The same file again: every row flagged, none added unless ticked.
    let p = upload(&c, tid, "csv", "list.csv", csv.as_bytes());
    assert_eq!(p.body.matches("class=\"flagged\"").count(), 17, "{}", p.body);
    assert!(p.body.contains("17 rows look like someone already registered"), "{}", p.body);
    assert!(p.body.contains("same name and birth date") && p.body.contains("same name and unit"));
    let r = confirm(&c, tid, "csv", &p, &[]);
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(field(), 17, "17 → 17, not 34");
    assert!(c.get(&r.location()).body.contains("17 probable duplicates skipped"));
    // Ticked: that one row is added (the organizer says it is a second person).
    let r = confirm(&c, tid, "csv", &p, &[("add_line", "3")]);
    assert_eq!(r.status, 303);
    assert_eq!(field(), 18);

    // Within one file, and written with full-width letters and spaces: flagged too.
    let again = "姓名,段位,单位\n新 人,3k,某 棋院\n新人,3k,某棋院\nＷａｎｇ Ｘｉ,2d,Ｘ Club\n";
    let p = upload(&c, tid, "csv", "dup.csv", again.as_bytes());
    assert!(
        p.body.contains("id=\"flag-3\"") && p.body.contains("the row on line 2 of this file"),
        "{}",
        p.body
    );
    assert!(!p.body.contains("id=\"flag-2\""));
    assert_eq!(confirm(&c, tid, "csv", &p, &[]).status, 303);
    assert_eq!(field(), 20, "新人 once, Wang Xi once");
    let p = upload(
        &c,
        tid,
        "csv",
        "dup2.csv",
        "family_name,given_name,rank,unit\nwang,xi,2d,x club\n".as_bytes(),
    );
    assert!(p.body.contains("id=\"flag-2\""), "folded Latin names and units match: {}", p.body);

    // A manual add of someone registered: refused with whom it matches, the form filled in.
    let page = format!("/t/{tid}/entrants/new");
    let fields = [
        ("family_name_zh", "王"),
        ("given_name_zh", "伟"),
        ("rank", "1k"),
        ("unit", "北京棋院"),
        ("birth_date", "2005-01-10"),
    ];
    let before = field();
    let r = c.submit(&page, &page, &fields);
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(text_of(&r, "duplicates").unwrap_or_default().contains("王伟"), "{}", r.body);
    assert_eq!(r.input("unit").as_deref(), Some("北京棋院"), "the typed entry survives");
    assert_eq!(field(), before);
    let mut confirmed = fields.to_vec();
    confirmed.push(("confirm_duplicate", "on"));
    assert_eq!(c.submit(&page, &page, &confirmed).status, 303);
    assert_eq!(field(), before + 1);

    // The export carries each status and imports back to the same field.
    let ids =
        query(&s.db, &format!("SELECT id FROM entrants WHERE tournament_id = {tid} ORDER BY id LIMIT 2"));
    for id in &ids {
        let r = c.submit(
            &format!("/t/{tid}/entrants"),
            &format!("/t/{tid}/entrants/{}/withdraw", id[0]),
            &[("reason", "退赛")],
        );
        assert_eq!(r.status, 303, "{}", r.body);
    }
    let export = c.get(&format!("/t/{tid}/entrants.csv?lang=zh"));
    let text = String::from_utf8_lossy(&export.bytes).to_string();
    assert!(text.contains(",状态\r\n") && text.matches(",退赛\r\n").count() == 2, "{text}");
    let n = field();
    let t2 = create_tournament(&c, "回读状态赛");
    let p = upload(&c, t2, "csv", "export.csv", &export.bytes);
    // The field holds two pairs added on purpose above: the export flags them within the file,
    // and they need their boxes again.
    let flagged: Vec<String> = p
        .body
        .match_indices("id=\"flag-")
        .map(|(i, _)| p.body[i + 9..].split('"').next().unwrap().to_string())
        .collect();
    assert_eq!(flagged.len(), 2, "{}", p.body);
    let ticks: Vec<(&str, &str)> = flagged.iter().map(|l| ("add_line", l.as_str())).collect();
    let r = confirm(&c, t2, "csv", &p, &ticks);
    assert_eq!(r.status, 303, "{}", r.body);
    let summary = |t: i32| {
        query(
            &s.db,
            &format!(
                "SELECT family_name_zh || given_name_zh || family_name_latin || given_name_latin, rank, unit, \
                 coalesce(birth_date, ''), status FROM entrants WHERE tournament_id = {t} ORDER BY 1, 2, 3, 4, 5"
            ),
        )
    };
    assert_eq!(summary(t2).len() as i64, n);
    assert_eq!(summary(t2), summary(tid), "same field, statuses kept");
    // Into the same event: nothing is added without a confirmation.
    let p = upload(&c, tid, "csv", "export.csv", &export.bytes);
    assert_eq!(confirm(&c, tid, "csv", &p, &[]).status, 303);
    assert_eq!(field(), n);
}

/// An edit that makes an entrant look like someone registered (a renaming, a birth date typed)
/// asks the confirmation adding them would; once confirmed, a later edit of the same entrant
/// (a new rank) asks nothing again.
#[test]
fn an_edit_into_a_registered_person_needs_the_duplicate_confirmation() {
    let s = Server::start();
    let c = s.first_organizer();
    let tid = create_tournament(&c, "改名查重赛");
    let page = format!("/t/{tid}/entrants/new");
    let wang = [
        ("family_name_zh", "王"),
        ("given_name_zh", "伟"),
        ("rank", "1k"),
        ("unit", "北京棋院"),
        ("birth_date", "2005-01-10"),
    ];
    let li = [("family_name_zh", "李"), ("given_name_zh", "明"), ("rank", "2k"), ("unit", "北京棋院")];
    for f in [&wang[..], &li[..]] {
        assert_eq!(c.submit(&page, &page, f).status, 303);
    }
    let row = query(
        &s.db,
        &format!("SELECT id, version FROM entrants WHERE tournament_id = {tid} AND given_name_zh = '明'"),
    );
    let (id, version) = (row[0][0].clone(), row[0][1].clone());
    let edit = format!("/t/{tid}/entrants/{id}/edit");
    let name = || query_text(&s.db, &format!("SELECT given_name_zh FROM entrants WHERE id = {id}"));

    let mut renamed = wang.to_vec();
    renamed.push(("version", &version));
    let r = c.submit(&edit, &edit, &renamed);
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(text_of(&r, "duplicates").unwrap_or_default().contains("王伟"), "{}", r.body);
    assert_eq!(r.input("given_name_zh").as_deref(), Some("伟"), "the typed entry survives");
    assert_eq!(name().as_deref(), Some("明"), "nothing written");

    renamed.push(("confirm_duplicate", "on"));
    assert_eq!(c.submit(&edit, &edit, &renamed).status, 303);
    assert_eq!(name().as_deref(), Some("伟"));
    let v = query(&s.db, &format!("SELECT version FROM entrants WHERE id = {id}"));
    let mut promoted: Vec<(&str, &str)> =
        wang.iter().map(|&(k, x)| if k == "rank" { (k, "1d") } else { (k, x) }).collect();
    promoted.push(("version", &v[0][0]));
    assert_eq!(c.submit(&edit, &edit, &promoted).status, 303, "a confirmed namesake is not asked again");
}
