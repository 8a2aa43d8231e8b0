//! The database as a test reads it, on either engine: SQLite's file directly (read-only; WAL
//! readers do not block the server), PostgreSQL through `psql` ([`super::pg`]).

use super::{fresh_pg, psql_cells, psql_rows};
use rusqlite::{types::Value, Connection, OpenFlags};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// A database for a fresh server: `dir`/tengen.db, or with `TENGEN_E2E_PG` a new PostgreSQL
/// database of its own.
pub fn fresh_database(dir: &Path) -> PathBuf {
    match std::env::var("TENGEN_E2E_PG") {
        Ok(url) => PathBuf::from(fresh_pg(&url)),
        Err(_) => dir.join("tengen.db"),
    }
}

/// The SQLite file `db` opened with `flags`, waiting up to 5 s for the server's writers.
fn sqlite(db: &Path, flags: OpenFlags) -> Connection {
    let c = Connection::open_with_flags(db, flags).expect("open db");
    c.busy_timeout(Duration::from_secs(5)).expect("busy timeout");
    c
}

/// An SQLite value as text, as psql prints it (NULL as "").
fn as_text(v: Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::Integer(x) => x.to_string(),
        Value::Real(x) => x.to_string(),
        Value::Text(s) => s,
        Value::Blob(b) => format!("{b:?}"),
    }
}

/// Whether the server's database is PostgreSQL (`TENGEN_E2E_PG=postgres://…` runs the e2e
/// tests there, with a server built `--features postgres`; each server then gets a database
/// of its own, [`fresh_pg`](super::fresh_pg)). The helpers below then read it through `psql`.
pub fn is_pg(db: &Path) -> bool {
    db.to_string_lossy().starts_with("postgres")
}

/// The SQL for the text at `path` (dotted, e.g. `ruleset.komi_q`) in the JSON text column
/// `column`, the same on both engines: a string without its quotes, a number as written,
/// NULL when absent. Compare it with a text literal (`= '15'`).
pub fn json_text(db: &Path, column: &str, path: &str) -> String {
    if is_pg(db) {
        format!("({column}::jsonb #>> '{{{}}}')", path.replace('.', ","))
    } else {
        format!("CAST(json_extract({column}, '$.{path}') AS TEXT)")
    }
}

/// A UTC time `minutes` from now as the app stores it (`YYYY-MM-DD HH:MM:SS`), for SQL that
/// moves a stored time (both engines keep these as text).
pub fn utc_text_in_minutes(minutes: i64) -> String {
    (chrono::Utc::now() + chrono::Duration::minutes(minutes)).format("%Y-%m-%d %H:%M:%S").to_string()
}

/// Count rows of a table in the database file directly (read-only; WAL readers do not block).
pub fn count_rows(db: &Path, sql: &str) -> i64 {
    if is_pg(db) {
        return query_opt(db, sql).expect("count");
    }
    let c = sqlite(db, OpenFlags::SQLITE_OPEN_READ_ONLY);
    c.query_row(sql, [], |r| r.get(0)).expect("count")
}

/// Count rows in a backup file: an SQLite copy is read as it is; a PostgreSQL dump (pg_dump's
/// custom format, "PGDMP") is restored with pg_restore into a database of its own first, so
/// the test reads what a restore would bring back.
pub fn backup_count(file: &Path, sql: &str) -> i64 {
    let bytes = std::fs::read(file).expect("read the backup");
    if !bytes.starts_with(b"PGDMP") {
        return count_rows(file, sql);
    }
    let base = std::env::var("TENGEN_E2E_PG").expect("a PostgreSQL dump outside a PostgreSQL run");
    let url = fresh_pg(&base);
    let out = Command::new("pg_restore")
        .args(["--no-owner", "--exit-on-error", "-d", &url])
        .arg(file)
        .output()
        .expect("pg_restore (Debian's postgresql-client)");
    assert!(out.status.success(), "pg_restore: {}", String::from_utf8_lossy(&out.stderr));
    count_rows(Path::new(&url), sql)
}

/// Run SQL that writes (a test standing in for a feature another branch provides, e.g.
/// results). Waits for the server's writers.
pub fn exec_sql(db: &Path, sql: &str) -> usize {
    if is_pg(db) {
        let q = format!("WITH done AS ({sql} RETURNING 1) SELECT count(*) FROM done");
        return psql_rows(&db.to_string_lossy(), &q)[0][0].parse().expect("count");
    }
    let c = sqlite(db, OpenFlags::default());
    c.execute(sql, []).expect("exec")
}

/// Rows of a query, every column as text (NULL as "").
pub fn query(db: &Path, sql: &str) -> Vec<Vec<String>> {
    if is_pg(db) {
        return psql_rows(&db.to_string_lossy(), sql);
    }
    let c = sqlite(db, OpenFlags::SQLITE_OPEN_READ_ONLY);
    let mut st = c.prepare(sql).expect("prepare");
    let n = st.column_count();
    let rows = st
        .query_map([], |r| (0..n).map(|i| r.get(i).map(as_text)).collect::<Result<Vec<String>, _>>())
        .expect("query");
    rows.map(|r| r.expect("row")).collect()
}

/// Read one integer (or NULL as None) from the database.
pub fn query_opt(db: &Path, sql: &str) -> Option<i64> {
    if is_pg(db) {
        // psql shows booleans as t/f where SQLite has 1/0.
        return query_text(db, sql).and_then(|v| match v.as_str() {
            "t" => Some(1),
            "f" => Some(0),
            _ => v.parse().ok(),
        });
    }
    let c = sqlite(db, OpenFlags::SQLITE_OPEN_READ_ONLY);
    c.query_row(sql, [], |r| r.get::<_, Option<i64>>(0)).ok().flatten()
}

/// Read one text value from the database.
pub fn query_text(db: &Path, sql: &str) -> Option<String> {
    if is_pg(db) {
        let rows = psql_cells(&db.to_string_lossy(), sql);
        return rows.into_iter().next().and_then(|r| r.into_iter().next()).flatten();
    }
    let c = sqlite(db, OpenFlags::SQLITE_OPEN_READ_ONLY);
    c.query_row(sql, [], |r| r.get::<_, Option<String>>(0)).ok().flatten()
}

/// The id of the game on `board` in `round` (the first one; a replay comes later).
pub fn game_id(db: &Path, tid: i32, round: u32, board: u32) -> i32 {
    query_opt(
        db,
        &format!(
            "SELECT min(id) FROM games WHERE tournament_id = {tid} AND round_number = {round} AND board = {board}"
        ),
    )
    .expect("a game") as i32
}

/// The event tournament `tid` is a group of.
pub fn event_of(db: &Path, tid: i32) -> i32 {
    let sql = format!("SELECT event_id FROM event_groups WHERE tournament_id = {tid}");
    query_opt(db, &sql).expect("a group of an event") as i32
}
