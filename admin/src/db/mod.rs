//! The database: one SQLite file by default, or (feature `postgres`) a PostgreSQL database;
//! diesel for queries, written once for both ([`backend`]); migrations embedded in the binary.
//!
//! Each aggregate has its module (users and sessions, tournaments with settings and staff,
//! rounds with their games, entrants, audit). Writes that change state take an [`Actor`] and write their audit row in
//! the same transaction.

#[macro_use]
pub mod backend;
pub mod audit;
pub mod backup;
pub mod entrants;
#[cfg(feature = "postgres")]
pub mod postgres;
pub mod prefs;
pub mod print_data;
pub mod results;
pub mod rounds;
pub mod schema;
pub mod sqlite;
pub mod team_matches;
pub mod teams;
pub mod throttle;
pub mod tournaments;
pub mod users;
pub mod wait;

use diesel::r2d2::{Pool, PooledConnection};
use diesel_migrations::{embed_migrations, EmbeddedMigrations, MigrationHarness};
use std::path::Path;

/// The SQLite schema's history (top-level `migrations/`).
pub const MIGRATIONS: EmbeddedMigrations = embed_migrations!("../migrations");

/// The PostgreSQL schema (`admin/migrations_postgres/`, see its README).
#[cfg(feature = "postgres")]
pub const PG_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations_postgres");

/// THE connection type: the rest of the crate names only `Conn`, never an engine's own type.
/// What is truly SQLite-only (WAL, PRAGMAs) lives in [`sqlite`]; the online backup API in
/// [`backup`].
pub use backend::{shown, write_tx, Conn, Target};

pub type DbPool = Pool<backend::Manager>;
pub type DbConn = PooledConnection<backend::Manager>;

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
    /// A backup (the one an action makes first, or a scheduled one) could not be made.
    #[error("backup: {0}")]
    Backup(backup::BackupFailure),
    /// A copy offered to `tengen restore` was refused before anything was replaced.
    #[error("{0}")]
    Restore(backup::RestoreRefusal),
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
    /// The database server cannot be reached (PostgreSQL down, restarting or recovering).
    #[error("database server unavailable")]
    Unavailable,
}

impl StorageFault {
    /// Recognise a fault in an error's text: SQLite's own messages (sqlite3_errstr), which
    /// diesel and rusqlite pass on unchanged, and PostgreSQL's (a full disk names ENOSPC; a
    /// lock wait past `lock_timeout` is "canceling statement due to lock timeout"; a server
    /// that is down, restarting or recovering is one of [`UNAVAILABLE`]'s texts).
    pub fn of(detail: &str) -> Option<StorageFault> {
        let d = detail.to_ascii_lowercase();
        if d.contains("database or disk is full") || d.contains("no space left on device") {
            Some(StorageFault::Full)
        } else if d.contains("database is locked")
            || d.contains("database table is locked")
            || d.contains("due to lock timeout")
        {
            Some(StorageFault::Locked)
        } else if UNAVAILABLE.iter().any(|u| d.contains(u)) {
            Some(StorageFault::Unavailable)
        } else {
            None
        }
    }
}

/// What libpq, PostgreSQL and the pool say when the database server is out of reach: killed
/// (the connection closed under a statement), refusing connections while it starts or
/// recovers, or none to be had within the pool's timeout.
const UNAVAILABLE: &[&str] = &[
    "database server unavailable", // this fault's own text, as it travels up
    "server closed the connection unexpectedly",
    "connection refused",
    "no connection to the server",
    "terminating connection",
    "the database system is starting up",
    "the database system is in recovery mode",
    "the database system is shutting down",
    "timed out waiting for connection",
    // Bounds on the wait (`backend::bounded`, `postgres::Setup`): libpq's connect_timeout,
    // tcp_user_timeout or keepalives, and a statement cancelled by `statement_timeout`.
    "timeout expired",
    "connection timed out",
    "due to statement timeout",
];

pub use sqlite::{durability, DbOptions, Synchronous, DURABILITY};

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

/// Open (creating if needed) the database, run pending migrations, return a pool.
pub fn open(path: &Path) -> Result<DbPool, DbError> {
    open_with(path, DbOptions::default())
}

/// [`open`] with options: a SQLite file, or a PostgreSQL database for a `postgres://` address.
pub fn open_with(path: &Path, opts: DbOptions) -> Result<DbPool, DbError> {
    let target = Target::of(path);
    let builder = Pool::builder().max_size(8);
    let builder = match &target {
        Target::Sqlite(p) => {
            if let Some(dir) = p.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir)
                    .map_err(|e| DbError::Other(format!("{}: {e}", dir.display())))?;
            }
            builder.connection_customizer(Box::new(sqlite::Setup(opts)))
        }
        Target::Postgres(_) => postgres_setup(builder)?,
    };
    let shown = target.shown();
    let pool = builder
        .build(backend::Manager(target.clone()))
        .map_err(|e| DbError::Other(format!("cannot open {shown}: {e}")))?;
    match target {
        // On a connection of their own, without the pool's bounds on a statement (a
        // migration may take long), and under the database's migration lock.
        Target::Postgres(_) => {
            use diesel::r2d2::ManageConnection;
            let mut conn = backend::Manager(target)
                .connect()
                .map_err(|e| DbError::Other(format!("cannot open {shown}: {e}")))?;
            migrate(&mut conn)?
        }
        Target::Sqlite(_) => migrate(&mut *pool.get()?)?,
    }
    Ok(pool)
}

/// A request waits at most this long for a connection to a PostgreSQL server that is down,
/// restarting or not answering, then gets its "database unavailable" page (503, what was typed
/// kept) instead of hanging for r2d2's default 30 s: as long as for a statement.
#[cfg(feature = "postgres")]
const PG_CONNECT_WAIT: std::time::Duration = wait::STATEMENT_WAIT;

#[cfg(feature = "postgres")]
fn postgres_setup(
    b: diesel::r2d2::Builder<backend::Manager>,
) -> Result<diesel::r2d2::Builder<backend::Manager>, DbError> {
    Ok(b.connection_timeout(PG_CONNECT_WAIT).connection_customizer(Box::new(postgres::Setup)))
}

#[cfg(not(feature = "postgres"))]
fn postgres_setup(
    _: diesel::r2d2::Builder<backend::Manager>,
) -> Result<diesel::r2d2::Builder<backend::Manager>, DbError> {
    Err(DbError::Other(backend::NO_POSTGRES.into()))
}

/// Run the pending migrations of the connection's engine.
fn migrate(conn: &mut Conn) -> Result<(), DbError> {
    #[cfg(feature = "postgres")]
    let done = match conn {
        Conn::Sqlite(c) => c.run_pending_migrations(MIGRATIONS).map(drop),
        Conn::Pg(c) => return postgres::migrate(c),
    };
    #[cfg(not(feature = "postgres"))]
    let done = conn.run_pending_migrations(MIGRATIONS).map(drop);
    done.map_err(|e| DbError::Migration(e.to_string()))
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
