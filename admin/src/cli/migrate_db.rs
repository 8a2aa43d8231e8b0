//! `tengen migrate-db --from tengen.db --to postgres://…` : an office that
//! outgrows its SQLite file moves to PostgreSQL with every row and its audit.
//!
//! The destination is migrated (PostgreSQL's schema, `admin/migrations_postgres/`) and must be
//! empty. Its own catalog says which tables and columns there are, so a table added later is
//! copied without a list to keep here; a table one side has and the other lacks stops the
//! copy. Tables are copied parents first (foreign keys), rows in primary-key order with their
//! ids; the sequences are then set past the copied ids. Before the one transaction commits,
//! every row is read back from PostgreSQL (each column as text) and compared with the SQLite
//! row written the same way: any difference rolls everything back and names table and row.

use super::files::CliError;
use std::path::Path;

/// Copy `from` (SQLite) into `to` (PostgreSQL), printing a line per table.
pub fn run(from: &Path, to: &Path) -> Result<(), CliError> {
    let (crate::db::Target::Sqlite(src), crate::db::Target::Postgres(url)) =
        (crate::db::Target::of(from), crate::db::Target::of(to))
    else {
        return Err(CliError::MigrateTargets);
    };
    crate::db::backup::check_tengen_file(&src).map_err(|e| e.to_string())?;
    // Both schemas at their last migration (the file's own pending ones applied first).
    crate::db::open(&src).map_err(|e| format!("{}: {e}", src.display()))?;
    crate::db::open(to).map_err(|e| format!("{}: {e}", crate::db::shown(to)))?;
    for line in pg::copy(&src, &url)? {
        println!("{line}");
    }
    Ok(())
}

/// A value as PostgreSQL's text output shows it for a column of `pg_type`, and as an SQL
/// literal of that type; None is NULL.
#[cfg_attr(not(feature = "postgres"), allow(dead_code))]
fn as_text(v: &rusqlite::types::Value, pg_type: &str) -> Option<String> {
    use rusqlite::types::Value;
    Some(match (v, pg_type) {
        (Value::Null, _) => return None,
        (Value::Integer(i), "boolean") => (if *i != 0 { "true" } else { "false" }).to_string(),
        (Value::Integer(i), _) => i.to_string(),
        (Value::Real(f), _) => f.to_string(),
        (Value::Text(s), _) => s.clone(),
        (Value::Blob(b), _) => format!("\\x{}", b.iter().map(|x| format!("{x:02x}")).collect::<String>()),
    })
}

/// An SQL literal of `text` (PostgreSQL's standard strings: only `'` is doubled).
#[cfg_attr(not(feature = "postgres"), allow(dead_code))]
fn literal(text: Option<&str>, pg_type: &str) -> Result<String, String> {
    match text {
        None => Ok("NULL".into()),
        Some(t) if t.contains('\0') => {
            Err(crate::i18n::Lang::from_environment().t("cli_err.migrate_nul").into())
        }
        Some(t) => Ok(format!("CAST('{}' AS {pg_type})", t.replace('\'', "''"))),
    }
}

#[cfg(feature = "postgres")]
mod pg {
    use super::{as_text, literal};
    use crate::i18n::{tr, Lang};
    use diesel::connection::SimpleConnection;
    use diesel::{sql_types::Text, Connection, PgConnection, QueryableByName, RunQueryDsl};
    use std::path::Path;

    #[derive(QueryableByName)]
    struct S {
        #[diesel(sql_type = Text)]
        s: String,
    }

    #[derive(QueryableByName)]
    struct Pair {
        #[diesel(sql_type = Text)]
        a: String,
        #[diesel(sql_type = Text)]
        b: String,
    }

    /// One table as the destination's catalog describes it.
    struct Table {
        name: String,
        /// (name, type) in column order.
        columns: Vec<(String, String)>,
        /// Columns PostgreSQL computes itself (`GENERATED ALWAYS`): checked, never written.
        generated: Vec<String>,
        key: Vec<String>,
    }

    fn texts(c: &mut PgConnection, sql: &str) -> Result<Vec<String>, String> {
        let rows: Vec<S> = diesel::sql_query(sql).load(c).map_err(|e| format!("{sql}: {e}"))?;
        Ok(rows.into_iter().map(|r| r.s).collect())
    }

    fn pairs(c: &mut PgConnection, sql: &str) -> Result<Vec<(String, String)>, String> {
        let rows: Vec<Pair> = diesel::sql_query(sql).load(c).map_err(|e| format!("{sql}: {e}"))?;
        Ok(rows.into_iter().map(|r| (r.a, r.b)).collect())
    }

    /// The destination's tables, parents before children.
    fn tables(c: &mut PgConnection) -> Result<Vec<Table>, String> {
        let names = texts(
            c,
            "SELECT table_name::text AS s FROM information_schema.tables WHERE table_schema = 'public' \
             AND table_type = 'BASE TABLE' AND table_name <> '__diesel_schema_migrations' ORDER BY table_name",
        )?;
        let edges = pairs(
            c,
            "SELECT conrelid::regclass::text AS a, confrelid::regclass::text AS b FROM pg_constraint \
             WHERE contype = 'f' AND conrelid <> confrelid",
        )?;
        let mut order: Vec<String> = Vec::new();
        while order.len() < names.len() {
            let before = order.len();
            for n in &names {
                let ready = edges
                    .iter()
                    .filter(|(a, _)| a == n)
                    .all(|(_, b)| order.contains(b) || !names.contains(b));
                if !order.contains(n) && ready {
                    order.push(n.clone());
                }
            }
            if order.len() == before {
                return Err("the destination's foreign keys form a cycle".into());
            }
        }
        order.into_iter().map(|name| describe(c, name)).collect()
    }

    fn describe(c: &mut PgConnection, name: String) -> Result<Table, String> {
        let columns = pairs(
            c,
            &format!(
                "SELECT column_name::text AS a, data_type::text AS b FROM information_schema.columns \
                 WHERE table_schema = 'public' AND table_name = '{name}' ORDER BY ordinal_position"
            ),
        )?;
        let generated = texts(
            c,
            &format!(
                "SELECT column_name::text AS s FROM information_schema.columns \
                 WHERE table_schema = 'public' AND table_name = '{name}' AND is_generated = 'ALWAYS'"
            ),
        )?;
        let key = texts(
            c,
            &format!(
                "SELECT a.attname::text AS s FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid \
                 AND a.attnum = ANY(i.indkey) WHERE i.indrelid = '{name}'::regclass AND i.indisprimary ORDER BY a.attnum"
            ),
        )?;
        let key = if key.is_empty() { columns.iter().map(|(n, _)| n.clone()).collect() } else { key };
        Ok(Table { name, columns, generated, key })
    }

    /// The source's rows of `t`, each column as PostgreSQL would show it, in key order.
    fn source_rows(src: &rusqlite::Connection, t: &Table) -> Result<Vec<Vec<Option<String>>>, String> {
        let cols: Vec<String> = t.columns.iter().map(|(n, _)| format!("\"{n}\"")).collect();
        let keys: Vec<String> = t.key.iter().map(|n| format!("\"{n}\"")).collect();
        let sql = format!("SELECT {} FROM \"{}\" ORDER BY {}", cols.join(", "), t.name, keys.join(", "));
        let mut st = src.prepare(&sql).map_err(|e| format!("{}: {e} (a column the file lacks?)", t.name))?;
        let n = t.columns.len();
        let rows = st
            .query_map([], |r| {
                (0..n)
                    .map(|i| r.get::<_, rusqlite::types::Value>(i).map(|v| as_text(&v, &t.columns[i].1)))
                    .collect::<Result<Vec<_>, _>>()
            })
            .map_err(|e| format!("{}: {e}", t.name))?;
        rows.collect::<Result<_, _>>().map_err(|e| format!("{}: {e}", t.name))
    }

    /// The destination's rows of `t`, each column as text (NULL apart), in key order.
    fn copied_rows(c: &mut PgConnection, t: &Table) -> Result<Vec<Vec<Option<String>>>, String> {
        // Unit separators between columns; a record separator stands for NULL.
        let cols: Vec<String> =
            t.columns.iter().map(|(n, _)| format!("coalesce(\"{n}\"::text, chr(30))")).collect();
        let keys: Vec<String> = t.key.iter().map(|n| format!("\"{n}\"")).collect();
        let sql = format!(
            "SELECT concat_ws(chr(31), {}) AS s FROM \"{}\" ORDER BY {}",
            cols.join(", "),
            t.name,
            keys.join(", ")
        );
        let rows = texts(c, &sql)?;
        Ok(rows
            .iter()
            .map(|r| r.split('\u{1f}').map(|v| (v != "\u{1e}").then(|| v.to_string())).collect())
            .collect())
    }

    fn insert(c: &mut PgConnection, t: &Table, rows: &[Vec<Option<String>>]) -> Result<(), String> {
        let written: Vec<bool> = t.columns.iter().map(|(n, _)| !t.generated.contains(n)).collect();
        let cols: Vec<String> = t
            .columns
            .iter()
            .zip(&written)
            .filter(|(_, w)| **w)
            .map(|((n, _), _)| format!("\"{n}\""))
            .collect();
        for chunk in rows.chunks(200) {
            let values = chunk
                .iter()
                .map(|r| {
                    let v = r
                        .iter()
                        .zip(&t.columns)
                        .zip(&written)
                        .filter(|(_, w)| **w)
                        .map(|((x, (_, ty)), _)| literal(x.as_deref(), ty));
                    Ok(format!("({})", v.collect::<Result<Vec<_>, String>>()?.join(", ")))
                })
                .collect::<Result<Vec<_>, String>>()
                .map_err(|e| format!("{}: {e}", t.name))?;
            let sql =
                format!("INSERT INTO \"{}\" ({}) VALUES {}", t.name, cols.join(", "), values.join(", "));
            c.batch_execute(&sql).map_err(|e| format!("{}: {e}", t.name))?;
        }
        Ok(())
    }

    /// Set every serial column's sequence past the copied ids.
    fn set_sequences(c: &mut PgConnection, t: &Table) -> Result<(), String> {
        for (col, _) in &t.columns {
            let seq = texts(
                c,
                &format!("SELECT coalesce(pg_get_serial_sequence('\"{}\"', '{col}'), '') AS s", t.name),
            )?;
            if let Some(seq) = seq.first().filter(|s| !s.is_empty()) {
                c.batch_execute(&format!(
                    "SELECT setval('{seq}', coalesce((SELECT max(\"{col}\") FROM \"{}\"), 0) + 1, false)",
                    t.name
                ))
                .map_err(|e| format!("{seq}: {e}"))?;
            }
        }
        Ok(())
    }

    /// Why the transaction rolled back (diesel's errors or the copy's own).
    struct Failure(String);

    impl From<diesel::result::Error> for Failure {
        fn from(e: diesel::result::Error) -> Self {
            Failure(e.to_string())
        }
    }

    impl From<String> for Failure {
        fn from(e: String) -> Self {
            Failure(e)
        }
    }

    /// Copy, set the sequences, check row by row, all in one transaction.
    pub fn copy(src: &Path, url: &str) -> Result<Vec<String>, String> {
        let say = Lang::from_environment();
        let file = rusqlite::Connection::open_with_flags(src, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .map_err(|e| format!("{}: {e}", src.display()))?;
        let mut c = PgConnection::establish(url).map_err(|e| e.to_string())?;
        let tables = tables(&mut c)?;
        check_same_tables(&file, &tables, say)?;
        c.transaction::<_, Failure, _>(|c| {
            for t in &tables {
                let count = texts(c, &format!("SELECT count(*)::text AS s FROM \"{}\"", t.name))?;
                if count.first().map(String::as_str) != Some("0") {
                    return Err(Failure(tr!(say, "cli_err.migrate_not_empty", table = t.name.clone())));
                }
            }
            let mut report = Vec::new();
            for t in &tables {
                let rows = source_rows(&file, t)?;
                insert(c, t, &rows)?;
                set_sequences(c, t)?;
                let back = copied_rows(c, t)?;
                if let Some(i) = (0..rows.len().max(back.len())).find(|&i| rows.get(i) != back.get(i)) {
                    let (table, row) = (t.name.clone(), i + 1);
                    let (was, became) = (format!("{:?}", rows.get(i)), format!("{:?}", back.get(i)));
                    return Err(Failure(tr!(say, "cli_err.migrate_row_differs", table, row, was, became)));
                }
                report.push(tr!(say, "cli_say.migrated", table = t.name.clone(), rows = rows.len()));
            }
            Ok(report)
        })
        .map_err(|f| f.0)
    }

    /// The file holds exactly the destination's tables.
    fn check_same_tables(file: &rusqlite::Connection, tables: &[Table], say: Lang) -> Result<(), String> {
        let mut st = file
            .prepare(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' \
                 AND name <> '__diesel_schema_migrations'",
            )
            .map_err(|e| e.to_string())?;
        let names: Vec<String> = st
            .query_map([], |r| r.get(0))
            .map_err(|e| e.to_string())?
            .collect::<Result<_, _>>()
            .map_err(|e| e.to_string())?;
        let missing: Vec<&String> = names.iter().filter(|n| !tables.iter().any(|t| &t.name == *n)).collect();
        let extra: Vec<&String> = tables.iter().map(|t| &t.name).filter(|n| !names.contains(n)).collect();
        if missing.is_empty() && extra.is_empty() {
            Ok(())
        } else {
            let (file, postgres) = (format!("{missing:?}"), format!("{extra:?}"));
            Err(tr!(say, "cli_err.migrate_schemas_differ", file, postgres))
        }
    }
}

#[cfg(not(feature = "postgres"))]
mod pg {
    pub fn copy(_src: &std::path::Path, _url: &str) -> Result<Vec<String>, String> {
        Err(crate::db::backend::NO_POSTGRES.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rusqlite::types::Value;

    #[test]
    fn values_are_written_as_postgresql_shows_them() {
        assert_eq!(as_text(&Value::Integer(1), "boolean").as_deref(), Some("true"));
        assert_eq!(as_text(&Value::Integer(0), "boolean").as_deref(), Some("false"));
        assert_eq!(as_text(&Value::Integer(42), "integer").as_deref(), Some("42"));
        assert_eq!(as_text(&Value::Blob(vec![0, 255]), "bytea").as_deref(), Some("\\x00ff"));
        assert_eq!(as_text(&Value::Null, "text"), None);
        assert_eq!(literal(Some("柯洁's"), "text").unwrap(), "CAST('柯洁''s' AS text)");
        assert_eq!(literal(None, "integer").unwrap(), "NULL");
        assert!(literal(Some("a\0b"), "text").is_err());
    }
}
