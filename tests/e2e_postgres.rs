//! The office on PostgreSQL (issue 18): the real server on a `postgres://` database creates an
//! event, takes entrants, pairs and publishes round 1, and saves a result, read back both over
//! HTTP and from PostgreSQL itself.
//!
//! Skipped (passes with a note) unless `TENGEN_TEST_PG_URL` names a PostgreSQL database the test
//! may wipe, and the server is built with PostgreSQL:
//!
//! ```sh
//! TENGEN_TEST_PG_URL=postgres://tengen@127.0.0.1:5432/tengen_test \
//!     cargo test -p tengen-e2e --features postgres --test e2e_postgres
//! ```
//!
//! `psql` (Debian's postgresql-client) wipes the database first and reads rows back.

mod common;
use common::*;

/// Rows of `sql` on the test database, fields joined by `|`.
fn psql(url: &str, sql: &str) -> Vec<String> {
    psql_rows(url, sql).into_iter().map(|r| r.join("|")).collect()
}

#[test]
fn an_event_is_paired_and_a_result_saved_on_postgresql() {
    let Ok(url) = std::env::var("TENGEN_TEST_PG_URL") else {
        eprintln!("skipped: TENGEN_TEST_PG_URL is not set");
        return;
    };
    wipe_pg(&url);
    let s = Server::start_on(&url);
    let c = s.first_organizer();

    let mut f = tournament_fields("PostgreSQL 杯", "PostgreSQL Cup");
    set(&mut f, "colour_method", "balanced");
    let r = c.submit("/t/new", "/t/new", &as_refs(&f));
    assert_eq!(r.status, 303, "{}", r.body);
    let tid: i32 = r.location().trim_start_matches("/t/").parse().unwrap();
    for (family, given, rank) in
        [("柯", "洁", "9D"), ("申", "真谞", "9D"), ("朴", "廷桓", "8D"), ("芈", "昱廷", "8D")]
    {
        let r = add_entrant(&c, tid, family, given, rank);
        assert_eq!(r.status, 303, "{family}{given}: {}", r.body);
    }
    assert_eq!(psql(&url, &format!("SELECT count(*) FROM entrants WHERE tournament_id = {tid}")), ["4"]);

    pair_round(&c, tid, 1, "20261204");
    let games = psql(
        &url,
        &format!("SELECT id FROM games WHERE tournament_id = {tid} AND round_number = 1 ORDER BY board"),
    );
    assert_eq!(games.len(), 2, "two tables for four players");
    let version =
        psql(&url, &format!("SELECT version FROM rounds WHERE tournament_id = {tid} AND number = 1"));
    let token = c.get(&format!("/t/{tid}/rounds/1")).csrf();
    let r = c.post_form(
        &format!("/t/{tid}/rounds/1/publish"),
        &[("csrf", &token), ("version", &version[0]), ("confirm", "on")],
    );
    assert_eq!(r.status, 303, "{}", r.body);

    let gid: i32 = games[0].parse().unwrap();
    let page =
        enter(&c, tid, gid, &[("method", "count"), ("black_count", "184.5"), ("white_count", "176.5")]);
    assert_eq!(text_of(&page, "result").as_deref(), Some("B+¼"));
    assert_eq!(
        psql(&url, &format!("SELECT method, margin_q FROM results WHERE game_id = {gid}")),
        ["count|1"]
    );
    // The write and its audit row in one transaction, as on SQLite.
    let audited = psql(&url, &format!("SELECT count(*) FROM audit WHERE tournament_id = {tid}"));
    assert!(audited[0].parse::<i32>().unwrap() >= 7, "audit rows: {audited:?}");
    let standings = c.get(&format!("/t/{tid}/standings"));
    assert_eq!(standings.status, 200, "{}", standings.body);
}

/// Issue 18 item 3: `tengen demo`, `backup` (pg_dump) and `restore` (pg_restore) on
/// PostgreSQL. The demo event restored into an empty database serves the same public
/// standings as the original, with the same rows and audit; a file that is no dump is
/// refused and writes nothing.
#[test]
fn demo_backup_and_restore_on_postgresql() {
    let Ok(base) = std::env::var("TENGEN_TEST_PG_URL") else {
        eprintln!("skipped: TENGEN_TEST_PG_URL is not set");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (from, to) = (fresh_pg(&base), fresh_pg(&base));
    let (from_db, to_db) = (std::path::PathBuf::from(&from), std::path::PathBuf::from(&to));
    let out = cli(&from_db, &["demo"], None);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let dump = dir.path().join("office.pgdump");
    let out = cli(&from_db, &["backup", dump.to_str().unwrap()], None);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let bad = dir.path().join("bad.pgdump");
    std::fs::write(&bad, "not a dump").unwrap();
    let out = run_tengen(Some(dir.path()), &["--db", &to, "restore", bad.to_str().unwrap(), "--lang", "en"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a Tengen database"));
    // A SQLite office's backup is no PostgreSQL backup: refused, the way there named, and the
    // other way round; neither writes anything (no safety copy either).
    let sqlite = dir.path().join("office.db");
    assert!(cli(&sqlite, &["demo"], None).status.success());
    let out = run_tengen(Some(dir.path()), &["--db", &to, "restore", sqlite.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("migrate-db"), "{out:?}");
    let out = run_tengen(
        Some(dir.path()),
        &["--db", sqlite.to_str().unwrap(), "restore", dump.to_str().unwrap(), "--lang", "en"],
    );
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("restores into PostgreSQL only"), "{out:?}");
    assert!(!dir.path().join("backups").exists(), "a refused restore makes no safety copy");
    let out = run_tengen(Some(dir.path()), &["--db", &to, "restore", dump.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    for sql in ["SELECT count(*) FROM entrants", "SELECT count(*) FROM audit", "SELECT count(*) FROM games"] {
        assert_eq!(psql(&from, sql), psql(&to, sql), "{sql}");
    }
    let (a, b) = (Server::start_on(&from), Server::start_on(&to));
    let page = "/t/1/standings";
    let (pa, pb) = (a.client().get(page), b.client().get(page));
    assert_eq!(pa.status, 200);
    assert_eq!(pa.body, pb.body, "the restored office serves the same standings");
    // The restored office goes on: a new account gets a new id (the sequences came along).
    let before = psql(&to, "SELECT count(*) FROM users");
    let out = cli(&to_db, &["user", "add", "restored", "--role", "arbiter"], Some("restored-password-1"));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let after: i64 = psql(&to, "SELECT count(*) FROM users")[0].parse().unwrap();
    assert_eq!(after, before[0].parse::<i64>().unwrap() + 1);
}

/// Issue 18 item 5: an event under way on SQLite (entrants, a published round, results, their
/// audit) moves to PostgreSQL with `tengen migrate-db`; served from there it shows the same
/// public pages, holds the same rows, and goes on (a new result saves). A second copy into
/// the now filled database is refused and writes nothing.
#[test]
fn an_event_under_way_moves_from_sqlite_to_postgresql() {
    let Ok(base) = std::env::var("TENGEN_TEST_PG_URL") else {
        eprintln!("skipped: TENGEN_TEST_PG_URL is not set");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("office.db");
    let s = Server::start_on(file.to_str().unwrap());
    let c = s.first_organizer();
    let tid = tournament_with_players(&c, "搬家杯", "Moving Cup", &[("colour_method", "balanced")], 8);
    pair_round(&c, tid, 1, "20261203");
    publish_round(&s, &c, tid, 1);
    let games: Vec<i32> =
        query(&file, &format!("SELECT id FROM games WHERE tournament_id = {tid} ORDER BY board"))
            .iter()
            .map(|r| r[0].parse().unwrap())
            .collect();
    enter(&c, tid, games[0], &[("method", "count"), ("black_count", "184.5"), ("white_count", "176.5")]);
    enter(&c, tid, games[1], &[("method", "resignation"), ("winner", "white")]);
    let pages = [format!("/t/{tid}/standings"), format!("/t/{tid}/results"), format!("/t/{tid}/crosstable")];
    let before: Vec<String> = pages.iter().map(|p| s.client().get(p).body).collect();
    drop(s);

    let to = fresh_pg(&base);
    let out = run_tengen(None, &["migrate-db", "--from", file.to_str().unwrap(), "--to", &to]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{said}{}", String::from_utf8_lossy(&out.stderr));
    assert!(said.contains("audit: ") && said.contains("rows copied and checked"), "{said}");
    for t in ["entrants", "games", "results", "audit", "rounds", "users", "sessions"] {
        let sql = format!("SELECT count(*) FROM {t}");
        assert_eq!(query(&file, &sql)[0][0], psql(&to, &sql)[0], "{t}");
    }
    let p = Server::start_on(&to);
    let reader = p.client();
    for (page, old) in pages.iter().zip(&before) {
        let now = reader.get(page);
        assert_eq!(now.status, 200, "{page}");
        assert_eq!(&now.body, old, "{page}: the same page from PostgreSQL");
    }
    // The office goes on there: the organizer's session came along, and a new result saves.
    let moved = p.client();
    moved.cookies.replace(c.cookies.borrow().clone());
    let r = enter(&moved, tid, games[2], &[("method", "resignation"), ("winner", "black")]);
    assert_eq!(r.status, 200, "{}", r.body);
    let n: i64 = psql(&to, "SELECT count(*) FROM results")[0].parse().unwrap();
    assert_eq!(n, 3);

    let out = run_tengen(None, &["migrate-db", "--from", file.to_str().unwrap(), "--to", &to]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("not empty"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(psql(&to, "SELECT count(*) FROM results"), ["3"], "nothing written by the refused copy");
}
