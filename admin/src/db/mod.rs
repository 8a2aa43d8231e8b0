//! The database: one SQLite file, diesel for queries, migrations embedded in the binary.
//!
//! Each aggregate has its module (users and sessions, tournaments with settings and staff,
//! rounds with their games, entrants, audit). Writes that change state take an [`Actor`] and write their audit row in
//! the same transaction.

pub mod audit;
pub mod backup;
pub mod entrants;
pub mod prefs;
pub mod print_data;
pub mod results;
pub mod rounds;
pub mod schema;
pub mod team_matches;
pub mod teams;
pub mod throttle;
pub mod tournaments;
pub mod users;

use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use diesel::r2d2::{ConnectionManager, CustomizeConnection, Pool, PooledConnection};
use diesel_migrations::{embed_migrations, EmbeddedMigrations, MigrationHarness};
use std::path::Path;

pub const MIGRATIONS: EmbeddedMigrations = embed_migrations!("../migrations");

pub type DbPool = Pool<ConnectionManager<SqliteConnection>>;
pub type DbConn = PooledConnection<ConnectionManager<SqliteConnection>>;

/// Errors of the database layer. `Conflict` and `Invalid` carry messages for the user.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("not found")]
    NotFound,
    #[error("database: {0}")]
    Diesel(#[from] diesel::result::Error),
    #[error("connection pool: {0}")]
    Pool(#[from] diesel::r2d2::PoolError),
    #[error("migrations: {0}")]
    Migration(String),
    /// The disk is full or the database locked (see [`StorageFault`]).
    #[error("{0}")]
    Storage(StorageFault),
    #[error("{0}")]
    Other(String),
}

/// A fault of the storage rather than of the program: the disk (or the database's size limit)
/// is full, or another connection held the write lock past the busy timeout. Told apart so the
/// user gets a page saying so (`web::error`), not "something went wrong".
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum StorageFault {
    #[error("database or disk is full")]
    Full,
    #[error("database is locked")]
    Locked,
}

impl StorageFault {
    /// Recognise a fault in an error's text: SQLite's own messages (sqlite3_errstr), which
    /// diesel and rusqlite pass on unchanged.
    pub fn of(detail: &str) -> Option<StorageFault> {
        let d = detail.to_ascii_lowercase();
        if d.contains("database or disk is full") || d.contains("no space left on device") {
            Some(StorageFault::Full)
        } else if d.contains("database is locked") || d.contains("database table is locked") {
            Some(StorageFault::Locked)
        } else {
            None
        }
    }
}

thread_local! {
    /// The storage fault of the last failed statement on this thread's connection. SQLite rolls
    /// a transaction back by itself on SQLITE_FULL, and diesel then reports its own failed
    /// ROLLBACK ("no transaction is active") instead of the cause, so the cause is noted here
    /// as the statement fails (the connections' instrumentation) and read by [`with_fault`].
    static LAST_FAULT: std::cell::Cell<Option<StorageFault>> = const { std::cell::Cell::new(None) };
}

fn note_statement(event: diesel::connection::InstrumentationEvent<'_>) {
    if let diesel::connection::InstrumentationEvent::FinishQuery { error: Some(e), .. } = event {
        if let Some(f) = StorageFault::of(&e.to_string()) {
            LAST_FAULT.with(|c| c.set(Some(f)));
        }
    }
}

/// Run `f` on `conn`; if it fails after a statement hit a storage fault, the error is that
/// fault (whatever error the failure surfaced as).
pub fn with_fault<T, E: From<DbError>>(
    conn: &mut SqliteConnection,
    f: impl FnOnce(&mut SqliteConnection) -> Result<T, E>,
) -> Result<T, E> {
    LAST_FAULT.with(|c| c.set(None));
    let r = f(conn);
    let fault = LAST_FAULT.with(|c| c.take());
    match (r, fault) {
        (Err(_), Some(fault)) => Err(E::from(DbError::Storage(fault))),
        (r, _) => r,
    }
}

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
struct SqliteSetup(DbOptions);

/// The journal and sync settings every connection gets (shown on the accounts page).
pub const DURABILITY: &str = "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;";

impl CustomizeConnection<SqliteConnection, diesel::r2d2::Error> for SqliteSetup {
    fn on_acquire(&self, conn: &mut SqliteConnection) -> Result<(), diesel::r2d2::Error> {
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

/// What a connection of the pool runs with: (journal mode, synchronous level 0–3).
pub fn durability(conn: &mut SqliteConnection) -> Result<(String, i32), DbError> {
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

/// Open (creating if needed) the database file, run pending migrations, return a pool.
pub fn open(path: &Path) -> Result<DbPool, DbError> {
    open_with(path, DbOptions::default())
}

/// [`open`] with options.
pub fn open_with(path: &Path, opts: DbOptions) -> Result<DbPool, DbError> {
    if let Some(dir) = path.parent() {
        if !dir.as_os_str().is_empty() {
            std::fs::create_dir_all(dir).map_err(|e| DbError::Other(format!("{}: {e}", dir.display())))?;
        }
    }
    let url = path.to_string_lossy().to_string();
    let manager = ConnectionManager::<SqliteConnection>::new(url);
    let pool = Pool::builder()
        .max_size(8)
        .connection_customizer(Box::new(SqliteSetup(opts)))
        .build(manager)
        .map_err(|e| DbError::Other(format!("cannot open {}: {e}", path.display())))?;
    let mut conn = pool.get()?;
    conn.run_pending_migrations(MIGRATIONS).map_err(|e| DbError::Migration(e.to_string()))?;
    Ok(pool)
}

/// The current time as stored: UTC, `YYYY-MM-DD HH:MM:SS`.
pub fn now() -> String {
    crate::domain::event_time::stored(chrono::Utc::now())
}

/// Who makes a change, for the audit trail.
#[derive(Debug, Clone)]
pub struct Actor {
    pub user_id: Option<i32>,
    pub name: String,
}

impl Actor {
    pub fn system(name: &str) -> Actor {
        Actor { user_id: None, name: name.to_string() }
    }
}
