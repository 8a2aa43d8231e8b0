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
use std::process::Command;

/// `psql -tA` on the test database: the rows, fields separated by `|`.
fn psql(url: &str, sql: &str) -> Vec<String> {
    let out = Command::new("psql")
        .args([url, "-v", "ON_ERROR_STOP=1", "-tAq", "-c", sql])
        .output()
        .expect("psql (Debian's postgresql-client) on PATH");
    assert!(out.status.success(), "psql {sql}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).lines().filter(|l| !l.is_empty()).map(str::to_string).collect()
}

#[test]
fn an_event_is_paired_and_a_result_saved_on_postgresql() {
    let Ok(url) = std::env::var("TENGEN_TEST_PG_URL") else {
        eprintln!("skipped: TENGEN_TEST_PG_URL is not set");
        return;
    };
    psql(&url, "DROP SCHEMA public CASCADE; CREATE SCHEMA public;");
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
