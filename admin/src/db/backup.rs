//! Backups through SQLite's online backup API (rusqlite), safe while the server runs: the copy
//! is a consistent snapshot even with writers in WAL mode.

use super::DbError;
use rusqlite::{Connection, OpenFlags, MAIN_DB};
use std::path::{Path, PathBuf};

fn err(e: impl std::fmt::Display) -> DbError {
    DbError::Other(e.to_string())
}

/// Copy the live database at `db` into `dest` (overwritten if it exists).
pub fn backup(db: &Path, dest: &Path) -> Result<(), DbError> {
    if !db.exists() {
        return Err(DbError::Other(format!("{} does not exist", db.display())));
    }
    if let Some(dir) = dest.parent() {
        if !dir.as_os_str().is_empty() {
            std::fs::create_dir_all(dir).map_err(|e| err(format!("{}: {e}", dir.display())))?;
        }
    }
    if dest.exists() {
        std::fs::remove_file(dest).map_err(|e| err(format!("{}: {e}", dest.display())))?;
    }
    let src = Connection::open_with_flags(db, OpenFlags::SQLITE_OPEN_READ_WRITE).map_err(err)?;
    src.busy_timeout(std::time::Duration::from_secs(5)).map_err(err)?;
    src.backup(MAIN_DB, dest, None).map_err(err)?;
    // A backup file should stand alone: no -wal beside it.
    let out = Connection::open(dest).map_err(err)?;
    out.pragma_update(None, "journal_mode", "DELETE").map_err(err)?;
    Ok(())
}

/// Check that `file` is a Tengen database (it has the migrations table and tournaments).
pub fn check_tengen_file(file: &Path) -> Result<(), DbError> {
    if !file.is_file() {
        return Err(DbError::Other(format!("{} is not a file", file.display())));
    }
    let c = Connection::open_with_flags(file, OpenFlags::SQLITE_OPEN_READ_ONLY).map_err(err)?;
    let n: i64 = c
        .query_row(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' \
             AND name IN ('__diesel_schema_migrations', 'tournaments', 'entrants', 'users')",
            [],
            |r| r.get(0),
        )
        .map_err(|e| err(format!("{} is not a Tengen database: {e}", file.display())))?;
    if n != 4 {
        return Err(DbError::Other(format!("{} is not a Tengen database", file.display())));
    }
    Ok(())
}

/// Replace the contents of the live database at `db` with the backup `file`. The current
/// contents are saved first into backups/ beside the database; returns that safety copy.
pub fn restore(db: &Path, file: &Path) -> Result<PathBuf, DbError> {
    check_tengen_file(file)?;
    let safety = auto_backup(db, "before-restore")?;
    let mut dst = Connection::open(db).map_err(err)?;
    dst.busy_timeout(std::time::Duration::from_secs(10)).map_err(err)?;
    dst.restore(MAIN_DB, file, None::<fn(rusqlite::backup::Progress)>).map_err(err)?;
    Ok(safety)
}

/// The folder for automatic backups: backups/ beside the database file.
pub fn backups_dir(db: &Path) -> PathBuf {
    db.parent().map(|p| p.to_path_buf()).unwrap_or_default().join("backups")
}

/// Back up the database into backups/ before a destructive action; returns the file written.
pub fn auto_backup(db: &Path, why: &str) -> Result<PathBuf, DbError> {
    let stem = db.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_else(|| "tengen".into());
    let stamp = chrono::Utc::now().format("%Y%m%d-%H%M%S%.3f");
    let why: String =
        why.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).collect();
    let dest = backups_dir(db).join(format!("{stem}-{stamp}-{why}.sqlite"));
    backup(db, &dest)?;
    Ok(dest)
}
