//! What only PostgreSQL has (feature `postgres`): the per-connection setup and reading it back,
//! and the migrations under one lock. The schema is in `admin/migrations_postgres/`; the
//! single-writer lock in [`super::backend::write_tx`]; libpq's own bounds in
//! [`super::backend::bounded`].

use super::{note_statement, wait, Conn, DbError};
use diesel::connection::{InstrumentationEvent, SimpleConnection};
use diesel::prelude::*;
use diesel::r2d2::CustomizeConnection;
use diesel_migrations::MigrationHarness;

/// How long a statement waits for a lock another connection holds (a writer for the writers'
/// lock, say) before its request gets the "database busy" page ([`super::StorageFault::Locked`]):
/// below [`wait::STATEMENT_WAIT`], after which a request stops waiting for any statement.
const LOCK_WAIT: &str = "3s";

/// The server's own bound on a statement (`statement_timeout`): a second above the request's
/// ([`wait::STATEMENT_WAIT`]), so that a request always gives up first. A COMMIT waiting for
/// the synchronous standby (`synchronous_commit = on`, the standby down or being replaced)
/// and cancelled by `statement_timeout` is reported by PostgreSQL as committed (only a warning
/// says it may not be on the standby): with the request's bound first, such a write was
/// already answered with the 503 page, never acknowledged on one machine only.
const SERVER_STATEMENT_WAIT: std::time::Duration =
    std::time::Duration::from_millis(wait::STATEMENT_WAIT.as_millis() as u64 + 1000);

/// Per-connection setup: the waits for a lock and for a statement bounded on the server
/// ([`LOCK_WAIT`], [`SERVER_STATEMENT_WAIT`]), and every statement noted: a failed one for
/// [`super::with_fault`], one out for [`wait`].
#[derive(Debug, Clone, Copy)]
pub(super) struct Setup;

impl CustomizeConnection<Conn, diesel::r2d2::Error> for Setup {
    fn on_acquire(&self, conn: &mut Conn) -> Result<(), diesel::r2d2::Error> {
        let Conn::Pg(c) = conn else { return Ok(()) };
        let statement_ms = SERVER_STATEMENT_WAIT.as_millis();
        c.batch_execute(&format!("SET lock_timeout = '{LOCK_WAIT}'; SET statement_timeout = {statement_ms}"))
            .map_err(diesel::r2d2::Error::QueryError)?;
        c.set_instrumentation(note_pg_statement);
        Ok(())
    }
}

fn note_pg_statement(event: InstrumentationEvent<'_>) {
    match event {
        InstrumentationEvent::StartQuery { .. } => wait::note(true),
        InstrumentationEvent::FinishQuery { .. } => wait::note(false),
        _ => {}
    }
    note_statement(event);
}

/// The key of the migrations' lock ("tengen-m" in ASCII), one for the whole database.
const MIGRATION_LOCK: i64 = 0x7465_6e67_656e_2d6d;

/// How long a server starting waits for another one's migrations.
const MIGRATION_WAIT: &str = "10min";

/// Run the pending migrations while holding the database's migration lock (a session-level
/// advisory lock on `conn`, a connection of their own): servers started together on one
/// empty database would otherwise create the same tables at once and all but one fail
/// ("duplicate key value violates unique constraint pg_type_typname_nsp_index"); the others
/// wait here, then find nothing pending.
pub(super) fn migrate(conn: &mut diesel::PgConnection) -> Result<(), DbError> {
    under_migration_lock(conn, |c| {
        c.run_pending_migrations(super::PG_MIGRATIONS).map(drop).map_err(|e| e.to_string())
    })
}

/// A release's schema step `sql` (one or more statements) under the same lock as
/// [`migrate`], so a rolling upgrade's first new server and any other starting server never
/// change the schema at once. The lab's rolling upgrade applies the next release's additive
/// step with it while the previous release keeps serving (docs/operating.md: the one-release
/// rule).
pub fn apply_under_migration_lock(conn: &mut diesel::PgConnection, sql: &str) -> Result<(), DbError> {
    under_migration_lock(conn, |c| c.batch_execute(sql).map_err(|e| e.to_string()))
}

fn under_migration_lock(
    conn: &mut diesel::PgConnection,
    f: impl FnOnce(&mut diesel::PgConnection) -> Result<(), String>,
) -> Result<(), DbError> {
    let lock = format!("SET lock_timeout = '{MIGRATION_WAIT}'; SELECT pg_advisory_lock({MIGRATION_LOCK})");
    conn.batch_execute(&lock).map_err(|e| DbError::Migration(format!("the migration lock: {e}")))?;
    let done = f(conn);
    let unlocked = conn.batch_execute(&format!("SELECT pg_advisory_unlock({MIGRATION_LOCK})"));
    done.map_err(DbError::Migration)?;
    unlocked.map_err(|e| DbError::Migration(format!("the migration lock: {e}")))
}

/// ("postgresql", 2 = FULL when `synchronous_commit` is on, 1 = NORMAL otherwise): an
/// acknowledged commit is on disk only with `synchronous_commit = on` (the default).
pub(super) fn durability(conn: &mut Conn) -> Result<(String, i32), DbError> {
    #[derive(QueryableByName)]
    struct Sync {
        #[diesel(sql_type = diesel::sql_types::Text)]
        synchronous_commit: String,
    }
    let s: Sync = diesel::sql_query("SHOW synchronous_commit").get_result(conn)?;
    let level = if s.synchronous_commit == "on" { 2 } else { 1 };
    Ok(("postgresql".into(), level))
}
