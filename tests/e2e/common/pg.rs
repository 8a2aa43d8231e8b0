//! PostgreSQL for the e2e tests (`TENGEN_E2E_PG=postgres://…`, as `.ci/postgres-e2e` runs
//! them): a database of its own for each server, and SQL through `psql` (Debian's
//! postgresql-client), so the tests need no PostgreSQL driver of their own.

use std::process::Command;

/// Empty the PostgreSQL database `url` (its `public` schema) for a fresh server.
pub fn wipe_pg(url: &str) {
    psql_rows(url, "DROP SCHEMA public CASCADE; CREATE SCHEMA public;");
}

/// A new, empty database of its own on the server of `base` (`…/DB`): its address. The tests
/// run in parallel as on SQLite, each server on its own database (`e2e_PID_N`); the CI
/// cluster is thrown away with them.
pub fn fresh_pg(base: &str) -> String {
    fresh_pg_with(base, "")
}

/// [`fresh_pg`] sorting text by ICU's collation for `locale` (e.g. `zh`: pinyin), as a
/// database made for an office in that language may.
pub fn fresh_pg_collated(base: &str, locale: &str) -> String {
    fresh_pg_with(base, &format!("TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE '{locale}'"))
}

/// [`fresh_pg`] made with `options` after `CREATE DATABASE name`.
fn fresh_pg_with(base: &str, options: &str) -> String {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let name = format!("e2e_{}_{n}", std::process::id());
    psql_rows(base, &format!("DROP DATABASE IF EXISTS {name}"));
    psql_rows(base, &format!("CREATE DATABASE {name} {options}"));
    let root = base.rsplit_once('/').map_or(base, |(r, _)| r);
    format!("{root}/{name}")
}

/// Rows of `sql` on PostgreSQL through `psql`, every column as text (NULL as "").
pub fn psql_rows(url: &str, sql: &str) -> Vec<Vec<String>> {
    psql_cells(url, sql).into_iter().map(|r| r.into_iter().map(Option::unwrap_or_default).collect()).collect()
}

/// Rows of `sql` on PostgreSQL through `psql`, NULL as None and an empty text as Some("")
/// (psql prints NULL as the unit separator's neighbour \x1d, which no test value holds).
pub fn psql_cells(url: &str, sql: &str) -> Vec<Vec<Option<String>>> {
    let out = Command::new("psql")
        .args([url, "-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", "-F", "\x1f", "-R", "\x1e"])
        .args(["-P", "null=\x1d", "-c", sql])
        .output()
        .expect("psql (Debian's postgresql-client)");
    assert!(out.status.success(), "psql {sql}: {}", String::from_utf8_lossy(&out.stderr));
    // Rows joined by \x1e and one newline at the end; no output at all is no row.
    let text = String::from_utf8_lossy(&out.stdout);
    let Some(text) = text.strip_suffix('\n') else { return Vec::new() };
    text.split('\x1e')
        .map(|r| r.split('\x1f').map(|v| (v != "\x1d").then(|| v.to_string())).collect())
        .collect()
}
