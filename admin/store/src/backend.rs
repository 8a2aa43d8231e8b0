//! Which database engine holds the office, and the few places where that matters to code.
//!
//! The rest of `db` is written once against [`Conn`]. In the default build `Conn` is
//! `SqliteConnection`; with the cargo feature `postgres` it is a `#[derive(MultiConnection)]`
//! enum of SQLite and PostgreSQL, chosen per database address by [`Target::of`]. What the
//! common DSL cannot say (upserts: diesel's `MultiBackend` has no `ON CONFLICT`) runs through
//! [`per_backend!`], which compiles the same expression once per engine.

use diesel::prelude::*;
use std::path::{Path, PathBuf};

/// The one connection type every query is written for (default build: SQLite only).
#[cfg(not(feature = "postgres"))]
pub type Conn = diesel::SqliteConnection;

/// The one connection type every query is written for: SQLite or PostgreSQL.
#[cfg(feature = "postgres")]
#[derive(diesel::MultiConnection)]
pub enum Conn {
    Sqlite(diesel::SqliteConnection),
    Pg(diesel::PgConnection),
}

/// The backend of [`Conn`], for boxed expressions (`BoxableExpression<_, Db, _>`).
pub type Db = <Conn as Connection>::Backend;

/// Run `$body` with `$c` bound to the engine's own connection inside `$conn` (a `&mut Conn`):
/// the body is compiled once per engine, so a statement the two spell alike but
/// `MultiConnection` cannot express (`on_conflict`, multi-row inserts) is written once.
#[cfg(not(feature = "postgres"))]
macro_rules! per_backend {
    ($conn:expr, |$c:ident| $body:expr) => {{
        let $c: &mut diesel::SqliteConnection = $conn;
        $body
    }};
}

/// Run `$body` with `$c` bound to the engine's own connection inside `$conn` (a `&mut Conn`):
/// the body is compiled once per engine, so a statement the two spell alike but
/// `MultiConnection` cannot express (`on_conflict`, multi-row inserts) is written once.
#[cfg(feature = "postgres")]
macro_rules! per_backend {
    ($conn:expr, |$c:ident| $body:expr) => {
        match $conn {
            $crate::Conn::Sqlite($c) => $body,
            $crate::Conn::Pg($c) => $body,
        }
    };
}

/// Where the office's data lives, from `--db` / `TENGEN_DATABASE_URL`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A SQLite file (anything that is not a `postgres://` address).
    Sqlite(PathBuf),
    /// A PostgreSQL database, as a libpq connection address (`postgres://USER@HOST/DB`).
    Postgres(String),
}

impl Target {
    /// A `postgres://` or `postgresql://` address is PostgreSQL; anything else a SQLite path.
    pub fn of(db: &Path) -> Target {
        let s = db.to_string_lossy();
        if s.starts_with("postgres://") || s.starts_with("postgresql://") {
            Target::Postgres(s.into_owned())
        } else {
            Target::Sqlite(db.to_path_buf())
        }
    }

    /// The address without a password, for logs and the accounts page.
    pub fn shown(&self) -> String {
        match self {
            Target::Sqlite(p) => p.display().to_string(),
            Target::Postgres(url) => match password_span(url) {
                Some((colon, at)) => format!("{}:***{}", &url[..colon], &url[at..]),
                None => url.clone(),
            },
        }
    }
}

/// The database `--db` names as every message and log line shows it: a PostgreSQL address
/// with `***` for its password ([`Target::shown`]).
pub fn shown(db: &Path) -> String {
    Target::of(db).shown()
}

/// Where the password of `postgres://user:password@host/db` is: the byte positions of the
/// `:` before it and of the `@` after it (None: the address has no password).
pub fn password_span(url: &str) -> Option<(usize, usize)> {
    let start = url.find("://")? + 3;
    let at = url.rfind('@').filter(|&at| at > start)?;
    url[start..at].find(':').map(|colon| (start + colon, at))
}

/// libpq's own bounds on waiting for the server, each added to a `postgres://` address that
/// does not set it: connecting at most 4 s; TCP keepalives on an idle socket (a peer gone
/// without a word is noticed within about 9 s); sent data unacknowledged for 4 s ends the
/// connection (a machine paused or cut off). A server whose machine still acknowledges but
/// does not answer is bounded from outside ([`super::wait`]).
const LIBPQ_BOUNDS: &[(&str, &str)] = &[
    ("connect_timeout", "4"),
    ("keepalives", "1"),
    ("keepalives_idle", "5"),
    ("keepalives_interval", "2"),
    ("keepalives_count", "2"),
    ("tcp_user_timeout", "4000"),
];

/// `url` with [`LIBPQ_BOUNDS`] for the parameters it does not set itself.
pub fn bounded(url: &str) -> String {
    let query = url.split_once('?').map_or("", |(_, q)| q);
    let set = |k: &str| query.split('&').any(|p| p.split('=').next() == Some(k));
    let mut out = url.to_string();
    for (k, v) in LIBPQ_BOUNDS.iter().filter(|(k, _)| !set(k)) {
        out.push(if out.contains('?') { '&' } else { '?' });
        out.push_str(&format!("{k}={v}"));
    }
    out
}

/// The pool's connection factory: opens the engine the [`Target`] names, never guessing
/// (diesel's own `MultiConnection::establish` tries each engine in turn, and SQLite accepts
/// any string as a file name).
#[derive(Debug)]
pub struct Manager(pub Target);

impl diesel::r2d2::ManageConnection for Manager {
    type Connection = Conn;
    type Error = diesel::r2d2::Error;

    fn connect(&self) -> Result<Conn, Self::Error> {
        let conn = match &self.0 {
            Target::Sqlite(p) => open_sqlite(p),
            Target::Postgres(url) => open_postgres(url),
        };
        conn.map_err(diesel::r2d2::Error::ConnectionError)
    }

    fn is_valid(&self, conn: &mut Conn) -> Result<(), Self::Error> {
        diesel::r2d2::R2D2Connection::ping(conn).map_err(diesel::r2d2::Error::QueryError)
    }

    fn has_broken(&self, conn: &mut Conn) -> bool {
        std::thread::panicking() || diesel::r2d2::R2D2Connection::is_broken(conn)
    }
}

fn open_sqlite(p: &Path) -> ConnectionResult<Conn> {
    let c = diesel::SqliteConnection::establish(&p.to_string_lossy())?;
    #[cfg(feature = "postgres")]
    let c = Conn::Sqlite(c);
    Ok(c)
}

#[cfg(feature = "postgres")]
fn open_postgres(url: &str) -> ConnectionResult<Conn> {
    diesel::PgConnection::establish(&bounded(url)).map(Conn::Pg)
}

#[cfg(not(feature = "postgres"))]
fn open_postgres(_url: &str) -> ConnectionResult<Conn> {
    Err(ConnectionError::BadConnection(NO_POSTGRES.into()))
}

/// What a default build says when given a PostgreSQL address.
pub const NO_POSTGRES: &str =
    "this tengen was built without PostgreSQL support (cargo build --features postgres)";

/// The engine's own SQLite connection, if `conn` is one (always, in the default build).
#[cfg(not(feature = "postgres"))]
pub fn as_sqlite(conn: &mut Conn) -> Option<&mut diesel::SqliteConnection> {
    Some(conn)
}

/// The engine's own SQLite connection, if `conn` is one.
#[cfg(feature = "postgres")]
pub fn as_sqlite(conn: &mut Conn) -> Option<&mut diesel::SqliteConnection> {
    match conn {
        Conn::Sqlite(c) => Some(c),
        Conn::Pg(_) => None,
    }
}

/// Run `f` in a write transaction: every write of the office goes through here, so writers
/// are serialised as one. SQLite: `BEGIN IMMEDIATE` (the write lock taken at the start, so a
/// transaction that read something never loses its write to another writer). PostgreSQL: the
/// same single-writer rule by a transaction-scoped advisory lock taken first, so the
/// read-check-write transactions (versions, change counters) behave as on SQLite, across
/// several servers too. Commit and rollback as diesel's own `transaction`.
pub fn write_tx<T, E>(conn: &mut Conn, f: impl FnOnce(&mut Conn) -> Result<T, E>) -> Result<T, E>
where
    E: From<diesel::result::Error>,
{
    use diesel::connection::TransactionManager;
    type Tm = <Conn as Connection>::TransactionManager;
    begin_write(conn)?;
    // A request that gave up on its database work (`wait`) was told nothing was saved.
    let r = f(conn).and_then(|v| if super::wait::abandoned() { Err(abandoned().into()) } else { Ok(v) });
    match r {
        Ok(v) => {
            Tm::commit_transaction(conn)?;
            Ok(v)
        }
        Err(e) => match Tm::rollback_transaction(conn) {
            Ok(()) | Err(diesel::result::Error::BrokenTransactionManager) => Err(e),
            Err(r) => Err(r.into()),
        },
    }
}

/// The error of a write whose request gave up waiting: read as the database unavailable.
fn abandoned() -> diesel::result::Error {
    let why = super::StorageFault::Unavailable.to_string();
    diesel::result::Error::DatabaseError(diesel::result::DatabaseErrorKind::Unknown, Box::new(why))
}

#[cfg(not(feature = "postgres"))]
fn begin_write(conn: &mut Conn) -> QueryResult<()> {
    diesel::connection::AnsiTransactionManager::begin_transaction_sql(conn, "BEGIN IMMEDIATE")
}

#[cfg(feature = "postgres")]
fn begin_write(conn: &mut Conn) -> QueryResult<()> {
    use diesel::connection::{AnsiTransactionManager, TransactionManager};
    match conn {
        Conn::Sqlite(c) => AnsiTransactionManager::begin_transaction_sql(c, "BEGIN IMMEDIATE"),
        Conn::Pg(c) => {
            AnsiTransactionManager::begin_transaction_sql(&mut *c, "BEGIN")?;
            diesel::sql_query(WRITER_LOCK).execute(&mut *c).map(drop).inspect_err(|_| {
                let _ = AnsiTransactionManager::rollback_transaction(c);
            })
        }
    }
}

/// The PostgreSQL writers' lock (key: "tengen" in ASCII), released at commit or rollback.
#[cfg(feature = "postgres")]
const WRITER_LOCK: &str = "SELECT pg_advisory_xact_lock(127978992788846)";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_postgres_address_is_postgres_and_anything_else_a_file() {
        assert_eq!(Target::of(Path::new("tengen.db")), Target::Sqlite("tengen.db".into()));
        assert_eq!(Target::of(Path::new("/tmp/postgres/x.db")), Target::Sqlite("/tmp/postgres/x.db".into()));
        assert_eq!(Target::of(Path::new("postgres://u@h/db")), Target::Postgres("postgres://u@h/db".into()));
        assert_eq!(Target::of(Path::new("postgresql://h/db")), Target::Postgres("postgresql://h/db".into()));
    }

    #[test]
    fn an_address_gets_libpq_bounds_it_does_not_set() {
        let b = bounded("postgres://u@h/db");
        assert!(b.starts_with("postgres://u@h/db?connect_timeout=4&keepalives=1&"), "{b}");
        assert!(b.ends_with("&tcp_user_timeout=4000"), "{b}");
        let own = bounded("postgres://u@h/db?sslmode=disable&connect_timeout=30");
        assert!(
            own.starts_with("postgres://u@h/db?sslmode=disable&connect_timeout=30&keepalives=1&"),
            "{own}"
        );
        assert_eq!(own.matches("connect_timeout").count(), 1, "{own}");
    }

    /// The address of a failover topology (docs/operating.md): both hosts, libpq choosing the
    /// read-write one; the bounds are added after its own parameter, and the password hidden.
    #[test]
    fn a_multi_host_address_is_postgres_and_keeps_its_hosts() {
        let url = "postgres://tengen:pw@db-a:5432,db-b:5432/tengen?target_session_attrs=read-write";
        let t = Target::of(Path::new(url));
        assert_eq!(t, Target::Postgres(url.into()));
        assert_eq!(
            t.shown(),
            "postgres://tengen:***@db-a:5432,db-b:5432/tengen?target_session_attrs=read-write"
        );
        let b = bounded(url);
        assert!(b.starts_with(&format!("{url}&connect_timeout=4&")), "{b}");
    }

    #[test]
    fn the_shown_address_hides_the_password() {
        let t = Target::of(Path::new("postgres://tengen:secret@db.example:5432/office"));
        assert_eq!(t.shown(), "postgres://tengen:***@db.example:5432/office");
        assert_eq!(Target::of(Path::new("postgres://tengen@h/db")).shown(), "postgres://tengen@h/db");
    }
}
