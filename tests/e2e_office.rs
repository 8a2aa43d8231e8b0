//! Backup and restore while the server runs, the demo database, the language switch.

mod common;
use common::*;

#[test]
fn backup_and_restore_round_trip_while_the_server_runs() {
    let s = Server::start();
    let c = s.first_organizer();
    let tid = create_tournament(&c, "备份测试赛");
    for (f, g, r) in [("王", "子涵", "3d"), ("李", "昊然", "1p"), ("欧阳", "娜娜", "5k")] {
        assert_eq!(add_entrant(&c, tid, f, g, r).status, 303);
    }
    let before = c.get(&format!("/t/{tid}/entrants.csv")).bytes;
    let audit_before = count_rows(&s.db, "SELECT count(*) FROM audit");
    let file = s.dir.path().join("copy.sqlite");
    let out = s.cli(&["backup", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(backup_count(&file, "SELECT count(*) FROM entrants"), 3);

    // Change things after the backup.
    assert_eq!(add_entrant(&c, tid, "赵", "磊", "2d").status, 303);
    let t2 = create_tournament(&c, "备份之后的赛事");
    assert_ne!(c.get(&format!("/t/{tid}/entrants.csv")).bytes, before);

    // Restore into the live database; the server keeps running and serves the old data.
    let out = s.cli(&["restore", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(c.get(&format!("/t/{tid}/entrants.csv")).bytes, before, "same data after restore");
    assert_eq!(c.get(&format!("/t/{t2}")).status, 404);
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM audit"), audit_before);
    // The session survived (it was in the backup), and the data before the restore was saved.
    assert_eq!(c.get("/users").status, 200);
    let saved: Vec<_> =
        std::fs::read_dir(s.dir.path().join("backups")).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(saved.len(), 1);
    assert_eq!(backup_count(&saved[0], "SELECT count(*) FROM tournaments"), 2);

    // A file that is not a Tengen database is refused and changes nothing.
    let junk = s.dir.path().join("junk.sqlite");
    std::fs::write(&junk, b"not a database").unwrap();
    let out = s.cli(&["restore", junk.to_str().unwrap()]);
    assert!(!out.status.success());
    assert_eq!(c.get(&format!("/t/{tid}/entrants.csv")).bytes, before);
}

#[test]
fn demo_fills_a_fresh_database_with_a_chinese_tournament() {
    let dir = tempfile::tempdir().unwrap();
    let db = fresh_database(dir.path());
    let out = cli(&db, &["demo"], None);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(count_rows(&db, "SELECT count(*) FROM entrants") >= 100);
    assert_eq!(count_rows(&db, "SELECT count(*) FROM tournaments"), 1);
    assert!(count_rows(&db, "SELECT count(DISTINCT unit) FROM entrants") > 5);
    // Not on a database that has tournaments already.
    assert!(!cli(&db, &["demo"], None).status.success());
    assert_eq!(count_rows(&db, "SELECT count(*) FROM tournaments"), 1);
    // The demo organizer can log in with the printed password; the public list shows the field.
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let password = stdout
        .lines()
        .find_map(|l| l.strip_prefix("demo organizer account: organizer / "))
        .unwrap()
        .trim()
        .to_string();
    let s = Server::start_on(&db.to_string_lossy());
    let c = s.client();
    assert_eq!(c.login("organizer", &password).status, 303);
    let list = c.get("/t/1/players");
    assert_eq!(list.status, 200);
    assert!(list.body.matches("<tr").count() > 100);
    assert!(list.body.contains("name=\"viewport\""), "phone-friendly");
}

#[test]
fn language_follows_accept_language_and_the_switch_sticks() {
    let s = Server::start();
    let c = s.client();
    c.get("/");
    let mut zh = s.client();
    zh.accept_language = "zh-CN,zh;q=0.9,en;q=0.5".into();
    let r = zh.get("/");
    assert!(r.body.contains("<html lang=\"zh-CN\">"));
    assert!(r.body.contains("赛事"));
    assert!(c.get("/").body.contains("<html lang=\"en\">"));
    // The switch sets a cookie and returns to the page.
    let r = c.get("/lang/zh?next=%2Flogin");
    assert_eq!(r.status, 303);
    assert_eq!(r.location(), "/login");
    let page = c.get("/login");
    assert!(page.body.contains("<html lang=\"zh-CN\">"), "the cookie wins over Accept-Language: en");
    assert!(page.body.contains("用户名"));
    // Error pages are translated too.
    assert!(c.get("/t/404").body.contains("找不到"));
    // An open redirect is not possible through the switch.
    assert_eq!(c.get("/lang/en?next=https://evil.example/").location(), "/");
    assert_eq!(c.get("/lang/en?next=//evil.example/").location(), "/");
    assert!(c.get("/").body.contains("<html lang=\"en\">"));
}
