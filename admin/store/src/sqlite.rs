//! What only SQLite has: the per-connection setup (WAL, `synchronous`, foreign keys, busy
//! timeout, a page limit for tests) and reading it back for the accounts page. Everything else
//! in `db` is written against [`super::Conn`]; the online backup API is in [`super::backup`].

use super::{note_statement, Conn, DbError};
use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use diesel::r2d2::CustomizeConnection;

/// `PRAGMA synchronous` of the server's connections.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Synchronous {
    /// Every commit syncs the WAL: an acknowledged write survives a power cut.
    #[default]
    Full,
    /// The WAL is synced at checkpoints only (`bench load --synchronous normal`, to measure).
    Normal,
}

/// How the database is opened beyond the defaults.
#[derive(Debug, Clone, Copy, Default)]
pub struct DbOptions {
    pub synchronous: Synchronous,
    /// `PRAGMA max_page_count` on every connection: the database cannot grow past this many
    /// pages, and a write that needs more fails as on a full disk (SQLITE_FULL). For tests of
    /// the full-disk page (`serve --max-db-pages`, hidden).
    pub max_pages: Option<u32>,
}

/// Per-connection setup: WAL, foreign keys, a busy timeout so concurrent writers wait, and
/// `synchronous = FULL`: in WAL mode NORMAL syncs only at checkpoints, so a commit acknowledged
/// to an arbiter could roll back after a power cut or an OS crash (SQLite's documentation of
/// PRAGMA synchronous); FULL syncs the WAL at every commit. The cost is in BENCHMARKS.md.
#[derive(Debug, Clone, Copy)]
pub(super) struct Setup(pub(super) DbOptions);

/// The journal and sync settings every connection gets (shown on the accounts page).
pub const DURABILITY: &str = "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;";

impl CustomizeConnection<Conn, diesel::r2d2::Error> for Setup {
    fn on_acquire(&self, conn: &mut Conn) -> Result<(), diesel::r2d2::Error> {
        let Some(conn) = super::backend::as_sqlite(conn) else { return Ok(()) };
        let durability = match self.0.synchronous {
            Synchronous::Full => DURABILITY,
            Synchronous::Normal => "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;",
        };
        conn.batch_execute(&format!("PRAGMA busy_timeout = 5000; {durability} PRAGMA foreign_keys = ON;"))
            .map_err(diesel::r2d2::Error::QueryError)?;
        conn.set_instrumentation(note_statement);
        if let Some(n) = self.0.max_pages {
            conn.batch_execute(&format!("PRAGMA max_page_count = {n};"))
                .map_err(diesel::r2d2::Error::QueryError)?;
        }
        Ok(())
    }
}

/// What a connection of the pool runs with: (journal mode, synchronous level 0–3); on
/// PostgreSQL ("postgresql", FULL when `synchronous_commit` is on, else NORMAL).
pub fn durability(conn: &mut Conn) -> Result<(String, i32), DbError> {
    match super::backend::as_sqlite(conn) {
        Some(c) => pragmas(c),
        #[cfg(feature = "postgres")]
        None => super::postgres::durability(conn),
        #[cfg(not(feature = "postgres"))]
        None => unreachable!("the default build has only SQLite connections"),
    }
}

fn pragmas(conn: &mut diesel::SqliteConnection) -> Result<(String, i32), DbError> {
    #[derive(QueryableByName)]
    struct Mode {
        #[diesel(sql_type = diesel::sql_types::Text)]
        journal_mode: String,
    }
    #[derive(QueryableByName)]
    struct Sync {
        #[diesel(sql_type = diesel::sql_types::Integer)]
        synchronous: i32,
    }
    let m: Mode = diesel::sql_query("PRAGMA journal_mode").get_result(conn)?;
    let s: Sync = diesel::sql_query("PRAGMA synchronous").get_result(conn)?;
    Ok((m.journal_mode, s.synchronous))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bundled SQLite is built in multi-thread mode (`.cargo/config.toml`): a connection
    /// takes no mutex of its own, which is sound because each is used by one thread at a time.
    /// A build that lost the flag (the serialized default, 1) or turned threads off (0) fails.
    #[test]
    fn sqlite_is_built_multi_threaded() {
        #[derive(QueryableByName)]
        struct Opt {
            #[diesel(sql_type = diesel::sql_types::Text)]
            compile_options: String,
        }
        let mut c = diesel::SqliteConnection::establish(":memory:").expect("an in-memory database");
        let opts: Vec<Opt> = diesel::sql_query("PRAGMA compile_options").load(&mut c).expect("its options");
        let threads: Vec<&str> = opts
            .iter()
            .map(|o| o.compile_options.as_str())
            .filter(|o| o.starts_with("THREADSAFE="))
            .collect();
        assert_eq!(threads, ["THREADSAFE=2"]);
    }
}
