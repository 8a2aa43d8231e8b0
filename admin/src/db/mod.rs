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
    #[error("{0}")]
    Other(String),
}

/// Per-connection setup: WAL, foreign keys, a busy timeout so concurrent writers wait.
#[derive(Debug, Clone, Copy)]
struct SqliteSetup;

impl CustomizeConnection<SqliteConnection, diesel::r2d2::Error> for SqliteSetup {
    fn on_acquire(&self, conn: &mut SqliteConnection) -> Result<(), diesel::r2d2::Error> {
        conn.batch_execute(
            "PRAGMA busy_timeout = 5000; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; \
             PRAGMA foreign_keys = ON;",
        )
        .map_err(diesel::r2d2::Error::QueryError)
    }
}

/// Open (creating if needed) the database file, run pending migrations, return a pool.
pub fn open(path: &Path) -> Result<DbPool, DbError> {
    if let Some(dir) = path.parent() {
        if !dir.as_os_str().is_empty() {
            std::fs::create_dir_all(dir).map_err(|e| DbError::Other(format!("{}: {e}", dir.display())))?;
        }
    }
    let url = path.to_string_lossy().to_string();
    let manager = ConnectionManager::<SqliteConnection>::new(url);
    let pool = Pool::builder()
        .max_size(8)
        .connection_customizer(Box::new(SqliteSetup))
        .build(manager)
        .map_err(|e| DbError::Other(format!("cannot open {}: {e}", path.display())))?;
    let mut conn = pool.get()?;
    conn.run_pending_migrations(MIGRATIONS).map_err(|e| DbError::Migration(e.to_string()))?;
    Ok(pool)
}

/// The current time as stored: UTC, `YYYY-MM-DD HH:MM:SS`.
pub fn now() -> String {
    chrono::Utc::now().format("%Y-%m-%d %H:%M:%S").to_string()
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
