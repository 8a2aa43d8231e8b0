//! What only PostgreSQL has (feature `postgres`): the per-connection setup and reading it back.
//! The schema is in `admin/migrations_postgres/`; the single-writer lock in
//! [`super::backend::write_tx`].

use super::{note_statement, Conn, DbError};
use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use diesel::r2d2::CustomizeConnection;

/// Per-connection setup: a writer waits at most 5 s for a lock (as SQLite's busy timeout; the
/// failure is a [`super::StorageFault::Locked`] page), and failed statements are noted for
/// [`super::with_fault`].
#[derive(Debug, Clone, Copy)]
pub(super) struct Setup;

impl CustomizeConnection<Conn, diesel::r2d2::Error> for Setup {
    fn on_acquire(&self, conn: &mut Conn) -> Result<(), diesel::r2d2::Error> {
        let Conn::Pg(c) = conn else { return Ok(()) };
        c.batch_execute("SET lock_timeout = '5s'").map_err(diesel::r2d2::Error::QueryError)?;
        c.set_instrumentation(note_statement);
        Ok(())
    }
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
