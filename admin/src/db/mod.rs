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
pub mod sqlite;
pub mod team_matches;
pub mod teams;
pub mod tournaments;
pub mod users;

use diesel::r2d2::{ConnectionManager, Pool, PooledConnection};
use diesel_migrations::{embed_migrations, EmbeddedMigrations, MigrationHarness};
use std::path::Path;

pub const MIGRATIONS: EmbeddedMigrations = embed_migrations!("../migrations");

/// The one connection type every query is written for. In the default build it is SQLite's;
/// the rest of the crate names only `Conn`, so a second backend changes this line, not the
/// ~200 functions that take a connection. What is truly SQLite-only (WAL, PRAGMAs) lives in
/// [`sqlite`]; the online backup API in [`backup`].
pub type Conn = diesel::SqliteConnection;

pub type DbPool = Pool<ConnectionManager<Conn>>;
pub type DbConn = PooledConnection<ConnectionManager<Conn>>;

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

pub use sqlite::{durability, DbOptions, Synchronous, DURABILITY};

/// Run `f` in a write transaction: every write of the office goes through here, so writers
/// are serialised as one. On SQLite this is `BEGIN IMMEDIATE` (the write lock taken at the
/// start, so a transaction that read something never loses its write to another writer).
pub fn write_tx<T, E>(conn: &mut Conn, f: impl FnOnce(&mut Conn) -> Result<T, E>) -> Result<T, E>
where
    E: From<diesel::result::Error>,
{
    conn.immediate_transaction(f)
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
    conn: &mut Conn,
    f: impl FnOnce(&mut Conn) -> Result<T, E>,
) -> Result<T, E> {
    LAST_FAULT.with(|c| c.set(None));
    let r = f(conn);
    let fault = LAST_FAULT.with(|c| c.take());
    match (r, fault) {
        (Err(_), Some(fault)) => Err(E::from(DbError::Storage(fault))),
        (r, _) => r,
    }
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
    let manager = ConnectionManager::<Conn>::new(url);
    let pool = Pool::builder()
        .max_size(8)
        .connection_customizer(Box::new(sqlite::Setup(opts)))
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
