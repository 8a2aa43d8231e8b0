//! The database of `tengen-lab stress crash` and `tengen-lab bench load`: a SQLite file, or a
//! PostgreSQL server of the run's own ([`PgCluster`]) that a stress run can
//! kill like the app servers; and how a run reads it back behind the servers' backs
//! (integrity, the facts of acknowledged writes) with SQL both engines take.

use crate::pg_cluster::PgCluster;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Something that must hold in the database once a write is acknowledged: `sql` returns one
/// integer within `min..=max`.
#[derive(Debug, Clone, Serialize)]
pub struct Fact {
    pub what: String,
    pub sql: String,
    pub min: i64,
    pub max: Option<i64>,
}

/// The stress run's database.
pub enum Store {
    Sqlite(PathBuf),
    Postgres {
        cluster: PgCluster,
        url: String,
        name: String,
    },
    /// A PostgreSQL database the run reads through its address only (the high-availability
    /// cluster of `stress failover`, which checks its integrity itself).
    Remote {
        url: String,
    },
}

impl Store {
    /// A new SQLite file `name.db` in `dir`.
    pub fn sqlite(dir: &Path, name: &str) -> Store {
        Store::Sqlite(dir.join(format!("{name}.db")))
    }

    /// A new PostgreSQL cluster in `dir` (programs from `bin`) with an empty database `name`.
    pub fn postgres(bin: &Path, dir: &Path, name: &str) -> Result<Store, String> {
        if !cfg!(feature = "postgres") {
            return Err(admin::db::backend::NO_POSTGRES.into());
        }
        let cluster = PgCluster::create(bin, dir)?;
        cluster.create_db(name)?;
        let url = cluster.url(name);
        Ok(Store::Postgres { cluster, url, name: name.into() })
    }

    /// SQLite, or PostgreSQL with `pg_bin` (default `pg_config --bindir`) if `postgres`.
    pub fn new(postgres: bool, pg_bin: Option<&Path>, dir: &Path, name: &str) -> Result<Store, String> {
        if postgres {
            let bin = pg_bin.map(Path::to_path_buf).unwrap_or_else(crate::pg_cluster::default_bin);
            Store::postgres(&bin, dir, name)
        } else {
            Ok(Store::sqlite(dir, name))
        }
    }

    /// "sqlite" or "postgresql", for reports.
    pub fn engine(&self) -> &'static str {
        match self {
            Store::Sqlite(_) => "sqlite",
            Store::Postgres { .. } | Store::Remote { .. } => "postgresql",
        }
    }

    /// What the servers take as `--db`.
    pub fn address(&self) -> PathBuf {
        match self {
            Store::Sqlite(p) => p.clone(),
            Store::Postgres { url, .. } | Store::Remote { url } => PathBuf::from(url),
        }
    }

    /// The database server, if the run has one it may kill.
    pub fn cluster(&mut self) -> Option<&mut PgCluster> {
        match self {
            Store::Sqlite(_) | Store::Remote { .. } => None,
            Store::Postgres { cluster, .. } => Some(cluster),
        }
    }

    /// One integer: `sql` returns one row of one integer column.
    pub fn i64(&self, sql: &str) -> Result<i64, String> {
        Ok(self.each_i64(&[sql])?[0])
    }

    /// [`Store::i64`] of each query, on one connection (thousands of facts are checked).
    pub fn each_i64(&self, sqls: &[&str]) -> Result<Vec<i64>, String> {
        let wrapped: Vec<String> =
            sqls.iter().map(|q| format!("SELECT CAST(({q}) AS BIGINT) AS v")).collect();
        match self {
            Store::Sqlite(db) => {
                let c = open_ro(db)?;
                let one =
                    |q: &String| c.query_row(q, [], |r| r.get::<_, i64>(0)).map_err(|e| format!("{q}: {e}"));
                wrapped.iter().map(one).collect()
            }
            Store::Postgres { url, .. } | Store::Remote { url } => pg::each_i64(url, &wrapped),
        }
    }

    /// The integers of a query whose one column is named `v`.
    pub fn integers(&self, sql: &str) -> Result<Vec<i64>, String> {
        match self {
            Store::Sqlite(db) => {
                let c = open_ro(db)?;
                let mut st = c.prepare(sql).map_err(|e| format!("{sql}: {e}"))?;
                let rows = st.query_map([], |r| r.get::<_, i64>(0)).map_err(|e| format!("{sql}: {e}"))?;
                rows.collect::<Result<_, _>>().map_err(|e| format!("{sql}: {e}"))
            }
            Store::Postgres { url, .. } | Store::Remote { url } => pg::integers(url, sql),
        }
    }

    /// Rows of a query with an integer column `v` and a text column `s`.
    pub fn pairs(&self, sql: &str) -> Result<Vec<(i64, String)>, String> {
        match self {
            Store::Sqlite(db) => {
                let c = open_ro(db)?;
                let mut st = c.prepare(sql).map_err(|e| format!("{sql}: {e}"))?;
                let rows =
                    st.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).map_err(|e| format!("{sql}: {e}"))?;
                rows.collect::<Result<_, _>>().map_err(|e| format!("{sql}: {e}"))
            }
            Store::Postgres { url, .. } | Store::Remote { url } => pg::pairs(url, sql),
        }
    }

    /// Run a statement that writes; the rows it touched.
    pub fn execute(&self, sql: &str) -> Result<usize, String> {
        match self {
            Store::Sqlite(db) => {
                let c = rusqlite::Connection::open(db).map_err(|e| format!("{}: {e}", db.display()))?;
                c.busy_timeout(Duration::from_secs(10)).map_err(|e| e.to_string())?;
                c.execute(sql, []).map_err(|e| format!("{sql}: {e}"))
            }
            Store::Postgres { url, .. } | Store::Remote { url } => pg::execute(url, sql),
        }
    }

    /// A release's schema step on PostgreSQL, under the migrations' lock (as a server of the
    /// new release applies its migrations at start: `admin::db::postgres`).
    pub fn upgrade(&self, sql: &str) -> Result<(), String> {
        match self {
            Store::Sqlite(_) => Err("a rolling upgrade needs PostgreSQL".into()),
            Store::Postgres { url, .. } | Store::Remote { url } => pg::upgrade(url, sql),
        }
    }

    /// The database's own integrity check ("ok" when sound) and the facts that do not hold.
    pub fn verify(&self, facts: &BTreeMap<String, Fact>) -> Result<(String, Vec<String>), String> {
        let integrity = match self {
            Store::Sqlite(db) => sqlite_integrity(db)?,
            Store::Postgres { cluster, name, .. } => cluster.amcheck(name)?,
            Store::Remote { .. } => return Err("no integrity check through an address alone".into()),
        };
        Ok((integrity, self.lost(facts)?))
    }

    /// The facts that do not hold.
    pub fn lost(&self, facts: &BTreeMap<String, Fact>) -> Result<Vec<String>, String> {
        let sqls: Vec<&str> = facts.values().map(|f| f.sql.as_str()).collect();
        let values = self.each_i64(&sqls)?;
        let mut lost = Vec::new();
        for (f, v) in facts.values().zip(values) {
            if v < f.min || f.max.is_some_and(|m| v > m) {
                lost.push(format!(
                    "{}: got {v}, expected {}..={}",
                    f.what,
                    f.min,
                    f.max.map(|m| m.to_string()).unwrap_or_default()
                ));
            }
        }
        Ok(lost)
    }
}

fn open_ro(db: &Path) -> Result<rusqlite::Connection, String> {
    let c = rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
        .map_err(|e| format!("{}: {e}", db.display()))?;
    c.busy_timeout(Duration::from_secs(10)).map_err(|e| e.to_string())?;
    Ok(c)
}

fn sqlite_integrity(db: &Path) -> Result<String, String> {
    let c = open_ro(db)?;
    let mut st = c.prepare("PRAGMA integrity_check").map_err(|e| e.to_string())?;
    let it = st.query_map([], |r| r.get::<_, String>(0)).map_err(|e| e.to_string())?;
    let rows: Vec<String> = it.collect::<Result<_, _>>().map_err(|e| e.to_string())?;
    Ok(rows.join("; "))
}

#[cfg(feature = "postgres")]
mod pg {
    use diesel::{sql_types::BigInt, Connection, QueryableByName, RunQueryDsl};

    #[derive(QueryableByName)]
    struct V {
        #[diesel(sql_type = BigInt)]
        v: i64,
    }

    #[derive(QueryableByName)]
    struct Vs {
        #[diesel(sql_type = BigInt)]
        v: i64,
        #[diesel(sql_type = diesel::sql_types::Text)]
        s: String,
    }

    fn connect(url: &str) -> Result<diesel::PgConnection, String> {
        diesel::PgConnection::establish(url).map_err(|e| format!("{url}: {e}"))
    }

    /// A query's `v` column on PostgreSQL, on a connection of its own.
    pub fn integers(url: &str, sql: &str) -> Result<Vec<i64>, String> {
        let rows: Vec<V> =
            diesel::sql_query(sql).load(&mut connect(url)?).map_err(|e| format!("{sql}: {e}"))?;
        Ok(rows.into_iter().map(|r| r.v).collect())
    }

    /// The `v` of each query's one row, on one connection.
    pub fn each_i64(url: &str, sqls: &[String]) -> Result<Vec<i64>, String> {
        let mut c = connect(url)?;
        let one = |q: &String| -> Result<i64, String> {
            let rows: Vec<V> = diesel::sql_query(q).load(&mut c).map_err(|e| format!("{q}: {e}"))?;
            Ok(rows.first().map_or(0, |r| r.v))
        };
        sqls.iter().map(one).collect()
    }

    /// A query's `v` and `s` columns.
    pub fn pairs(url: &str, sql: &str) -> Result<Vec<(i64, String)>, String> {
        let rows: Vec<Vs> =
            diesel::sql_query(sql).load(&mut connect(url)?).map_err(|e| format!("{sql}: {e}"))?;
        Ok(rows.into_iter().map(|r| (r.v, r.s)).collect())
    }

    pub fn execute(url: &str, sql: &str) -> Result<usize, String> {
        diesel::sql_query(sql).execute(&mut connect(url)?).map_err(|e| format!("{sql}: {e}"))
    }

    pub fn upgrade(url: &str, sql: &str) -> Result<(), String> {
        admin::db::postgres::apply_under_migration_lock(&mut connect(url)?, sql)
            .map_err(|e| format!("{sql}: {e}"))
    }
}

#[cfg(not(feature = "postgres"))]
mod pg {
    pub fn integers(_url: &str, _sql: &str) -> Result<Vec<i64>, String> {
        Err(admin::db::backend::NO_POSTGRES.into())
    }
    pub fn pairs(_url: &str, _sql: &str) -> Result<Vec<(i64, String)>, String> {
        Err(admin::db::backend::NO_POSTGRES.into())
    }
    pub fn each_i64(_url: &str, _sqls: &[String]) -> Result<Vec<i64>, String> {
        Err(admin::db::backend::NO_POSTGRES.into())
    }
    pub fn execute(_url: &str, _sql: &str) -> Result<usize, String> {
        Err(admin::db::backend::NO_POSTGRES.into())
    }
    pub fn upgrade(_url: &str, _sql: &str) -> Result<(), String> {
        Err(admin::db::backend::NO_POSTGRES.into())
    }
}
