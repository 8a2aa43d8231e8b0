//! What `tengen export` and `tengen print` share: the round arguments, opening an existing
//! database (a mistyped `--db` is an error, not a new empty file) and writing the output (`-`
//! is stdout). A leaf of `cli`, so the two commands use it without using each other.

use crate::db::Conn;
use crate::db::{self, tournaments as tdb, DbError, DbPool};
use clap::Args;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Which round, the label language and where to write.
#[derive(Args, Debug)]
pub struct RoundArgs {
    /// Tournament id (as in the address /t/ID).
    #[arg(long)]
    pub tournament: i32,
    /// Round number, from 1.
    #[arg(long)]
    pub round: i32,
    /// Language of the labels: zh or en.
    #[arg(long, default_value = "zh")]
    pub lang: String,
    /// Output file (`-` for stdout).
    #[arg(long)]
    pub out: PathBuf,
}

impl RoundArgs {
    /// A one-line refusal for an unknown tournament or round.
    pub(super) fn check_round(&self, conn: &mut Conn) -> Result<(), String> {
        check_tournament(conn, self.tournament)?;
        match crate::db::rounds::get(conn, self.tournament, self.round) {
            Ok(_) => Ok(()),
            Err(DbError::NotFound) => {
                Err(format!("tournament {} has no round {}", self.tournament, self.round))
            }
            Err(e) => Err(e.to_string()),
        }
    }
}

pub(super) fn check_tournament(conn: &mut Conn, tid: i32) -> Result<(), String> {
    match tdb::get(conn, tid) {
        Ok(_) => Ok(()),
        Err(DbError::NotFound) => Err(format!("no tournament with id {tid}")),
        Err(e) => Err(e.to_string()),
    }
}

/// Opens the database file, which must exist.
pub(super) fn open_existing(path: &Path) -> Result<DbPool, String> {
    if !path.is_file() && matches!(db::Target::of(path), db::Target::Sqlite(_)) {
        return Err(format!("{}: no such database file (use --db PATH)", path.display()));
    }
    db::open(path).map_err(|e| e.to_string())
}

/// Writes the file, or stdout for `-`.
pub(super) fn write_out(out: &Path, bytes: &[u8]) -> Result<(), String> {
    if out.as_os_str() == "-" {
        let mut stdout = std::io::stdout().lock();
        return stdout.write_all(bytes).and_then(|_| stdout.flush()).map_err(|e| format!("stdout: {e}"));
    }
    std::fs::write(out, bytes).map_err(|e| format!("cannot write {}: {e}", out.display()))
}
