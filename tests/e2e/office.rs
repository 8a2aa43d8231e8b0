//! Backup and restore while the server runs, the demo database, the language switch.

use crate::common;
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

/// Every file of the live database (the file, its -wal and -shm), as bytes.
fn live_bytes(db: &std::path::Path) -> Vec<(String, Option<Vec<u8>>)> {
    ["", "-wal", "-shm"]
        .iter()
        .map(|suffix| {
            let f = format!("{}{suffix}", db.display());
            (f.clone(), std::fs::read(&f).ok())
        })
        .collect()
}

/// A copy of `backup` with the second half of the page that holds `table`'s rows (its root
/// page) overwritten: the file's header and the table list are intact, the rows are not.
fn damage_table_page(backup: &std::path::Path, table: &str, out: &std::path::Path) {
    let c = rusqlite::Connection::open(backup).unwrap();
    let page_size: i64 = c.query_row("PRAGMA page_size", [], |r| r.get(0)).unwrap();
    let root: i64 =
        c.query_row("SELECT rootpage FROM sqlite_master WHERE name = ?1", [table], |r| r.get(0)).unwrap();
    let (page_size, root) = (page_size as usize, root as usize);
    drop(c);
    let mut bytes = std::fs::read(backup).unwrap();
    let start = (root - 1) * page_size;
    for (i, b) in bytes[start + page_size / 2..start + page_size].iter_mut().enumerate() {
        *b = (i % 251) as u8 ^ 0x5a;
    }
    std::fs::write(out, bytes).unwrap();
}

/// `tengen restore FILE` with the language of the environment (`LANG`), or `--lang` when given.
fn restore_in(s: &Server, file: &std::path::Path, env_lang: &str, lang: Option<&str>) -> (bool, String) {
    let mut cmd = std::process::Command::new(bin());
    cmd.arg("--db").arg(&s.db).arg("restore").arg(file).current_dir(s.dir.path());
    if let Some(l) = lang {
        cmd.args(["--lang", l]);
    }
    for v in ["LC_ALL", "LC_MESSAGES", "LANG", "TENGEN_DATABASE_URL"] {
        cmd.env_remove(v);
    }
    let out = cmd.env("LANG", env_lang).stdin(std::process::Stdio::null()).output().unwrap();
    (out.status.success(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// Office rule (restore): a backup brought on a stick must pass SQLite's integrity check and
/// be Tengen's own schema before anything is replaced. A damaged copy, a copy of a newer Tengen
/// and a copy whose table lacks a column are each refused, named in the user's language (the
/// environment's, or `--lang`), and the live database stays byte for byte as it was, with no
/// safety copy made. (A SQLite office on purpose, whichever engine the run tests.)
#[test]
fn a_damaged_or_foreign_backup_is_refused_and_the_live_database_is_untouched() {
    let home = tempfile::tempdir().unwrap();
    let db = home.path().join("office.db");
    let mut s = Server::start_on(db.to_str().unwrap());
    let c = s.first_organizer();
    let tid = create_tournament(&c, "损坏备份赛");
    for i in 0..12 {
        assert_eq!(add_entrant(&c, tid, "王", &format!("子涵{i}"), "3d").status, 303);
    }
    let copy = home.path().join("copy.sqlite");
    let out = s.cli(&["backup", copy.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let damaged = home.path().join("damaged.sqlite");
    damage_table_page(&copy, "entrants", &damaged);
    let check: String = rusqlite::Connection::open(&damaged)
        .unwrap()
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_ne!(check, "ok", "the copy is really damaged");
    // A copy made by a newer Tengen, and one whose entrants table lost a column.
    let newer = home.path().join("newer.sqlite");
    std::fs::copy(&copy, &newer).unwrap();
    rusqlite::Connection::open(&newer)
        .unwrap()
        .execute("INSERT INTO __diesel_schema_migrations (version) VALUES ('20990101000000')", [])
        .unwrap();
    let lacking = home.path().join("lacking.sqlite");
    std::fs::copy(&copy, &lacking).unwrap();
    rusqlite::Connection::open(&lacking)
        .unwrap()
        .execute("ALTER TABLE entrants DROP COLUMN notes", [])
        .unwrap();

    let entrants = format!("/t/{tid}/entrants.csv");
    let before_csv = c.get(&entrants).bytes;
    s.stop();
    let before = live_bytes(&db);
    for (file, env_lang, lang, said) in [
        (&damaged, "zh_CN.UTF-8", None, "已损坏"),
        (&damaged, "C.UTF-8", Some("en"), "is damaged"),
        (&damaged, "en_US.UTF-8", None, "is damaged"),
        (&newer, "C", None, "更新版本"),
        (&newer, "C", Some("en"), "newer version of Tengen"),
        (&lacking, "C", Some("en"), "tables and columns"),
        (&lacking, "C", Some("zh"), "表和列"),
    ] {
        let (ok, stderr) = restore_in(&s, file, env_lang, lang);
        assert!(!ok, "{}: refused", file.display());
        assert!(stderr.contains(said), "{} {env_lang} {lang:?}: {stderr}", file.display());
        assert!(live_bytes(&db) == before, "{}: the live database is byte-identical", file.display());
        assert!(!home.path().join("backups").exists(), "no safety copy for a refused restore");
    }
    // The server goes on with the data it had; the good copy still restores.
    let s = Server::start_on(db.to_str().unwrap());
    let mut c = c;
    c.rebase(&s);
    assert_eq!(c.get(&format!("/t/{tid}/entrants")).status, 200);
    assert_eq!(c.get(&entrants).bytes, before_csv);
    let (ok, stderr) = restore_in(&s, &copy, "C", Some("en"));
    assert!(ok, "{stderr}");
    assert_eq!(c.get(&entrants).bytes, before_csv);
    assert!(home.path().join("backups").is_dir(), "the safety copy goes beside the database");
}

#[test]
fn demo_fills_a_fresh_database_with_a_chinese_tournament() {
    let dir = tempfile::tempdir().unwrap();
    let db = fresh_database(dir.path());
    let out = cli(&db, &["demo"], None);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(count_rows(&db, "SELECT count(*) FROM entrants") >= 100);
    // One event of three groups (the demo open's groups are counted where the old demo's one
    // tournament was).
    assert_eq!(count_rows(&db, "SELECT count(*) FROM events"), 1);
    assert_eq!(count_rows(&db, "SELECT count(*) FROM tournaments"), 3);
    assert!(count_rows(&db, "SELECT count(DISTINCT unit) FROM entrants") > 5);
    // Not on a database that has tournaments already.
    let again = cli(&db, &["demo"], None);
    assert!(!again.status.success());
    let err = String::from_utf8_lossy(&again.stderr);
    assert_eq!(
        err.trim(),
        format!("tengen：{} 中已有赛事；demo 只填充新的数据库", db.display()),
        "in the locale's words"
    );
    assert_eq!(count_rows(&db, "SELECT count(*) FROM tournaments"), 3);
    // The demo organizer can log in with the printed password; the public list shows the field.
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let password = stdout
        .lines()
        .find_map(|l| l.strip_prefix("演示组织者账户：organizer / "))
        .unwrap()
        .trim()
        .to_string();
    let s = Server::start_on(&db.to_string_lossy());
    let c = s.client();
    assert_eq!(c.login("organizer", &password).status, 303);
    let mut rows = 0;
    for g in 1..=3 {
        let list = c.get(&format!("/t/{g}/players"));
        assert_eq!(list.status, 200);
        assert!(list.body.contains("name=\"viewport\""), "phone-friendly");
        rows += list.body.matches("<tr").count();
    }
    assert!(rows > 100, "the field over its groups: {rows}");
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
