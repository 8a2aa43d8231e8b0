//! Backups through SQLite's online backup API (rusqlite), safe while the server runs: the copy
//! is a consistent snapshot even with writers in WAL mode. A PostgreSQL office is backed up by
//! Debian's `pg_dump` (custom format, one consistent snapshot) and restored
//! by `pg_restore` in one transaction ([`pg`]).

use super::DbError;
use domain::event_time::EventZone;
use rusqlite::{Connection, OpenFlags, MAIN_DB};
use std::path::{Path, PathBuf};

fn err(e: impl std::fmt::Display) -> DbError {
    DbError::Other(e.to_string())
}

/// Why a backup could not be made. A page names the cause in the reader's language (`web`);
/// the log and the command line keep the detail.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BackupFailure {
    /// The disk that takes the copy is full (or the copy reached its page limit).
    #[error("the backup's disk is full: {0}")]
    DiskFull(String),
    /// The folder for the copy cannot be made or written.
    #[error("the folder {} cannot be created or written: {}", .0.display(), .1)]
    Folder(PathBuf, String),
    /// PostgreSQL's own program is not installed beside Tengen.
    #[error(
        "{0} was not found: a PostgreSQL office is backed up and restored with PostgreSQL's own \
         programs (Debian: apt-get install postgresql-client)"
    )]
    ToolMissing(&'static str),
    /// The copy was made but failed its check, and was removed.
    #[error("the copy failed its check: {0}")]
    CheckFailed(String),
    /// Anything else (the database's own error, a program's message).
    #[error("{0}")]
    Other(String),
}

impl BackupFailure {
    /// The failure of a step that writes into `dir` (making it, a file in it, a rename).
    fn folder(dir: &Path, e: &std::io::Error) -> BackupFailure {
        match e.kind() {
            std::io::ErrorKind::StorageFull | std::io::ErrorKind::QuotaExceeded => {
                BackupFailure::DiskFull(e.to_string())
            }
            _ => BackupFailure::Folder(dir.to_path_buf(), e.to_string()),
        }
    }

    /// What a failed backup's error says: its own failure, or the database's error read as one.
    pub fn of_error(e: DbError) -> BackupFailure {
        match e {
            DbError::Backup(f) => f,
            e => BackupFailure::of(e),
        }
    }

    /// A database or program error: a full disk if it says so, else as it is.
    fn of(detail: impl std::fmt::Display) -> BackupFailure {
        let d = detail.to_string();
        match super::StorageFault::of(&d) {
            Some(super::StorageFault::Full) => BackupFailure::DiskFull(d),
            _ => BackupFailure::Other(d),
        }
    }
}

impl From<BackupFailure> for DbError {
    fn from(f: BackupFailure) -> DbError {
        DbError::Backup(f)
    }
}

/// Whether `file` begins with `magic` (a file format's signature).
fn starts_with(file: &Path, magic: &[u8]) -> bool {
    let mut head = vec![0u8; magic.len()];
    std::fs::File::open(file).and_then(|mut f| std::io::Read::read_exact(&mut f, &mut head)).is_ok()
        && head == magic
}

/// The folder that holds `file` (the current one for a bare name).
fn folder_of(file: &Path) -> &Path {
    file.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."))
}

/// Make the folder of `dest` if it is missing.
fn make_folder(dest: &Path) -> Result<(), BackupFailure> {
    let dir = folder_of(dest);
    std::fs::create_dir_all(dir).map_err(|e| BackupFailure::folder(dir, &e))
}

/// Copy the live database at `db` into `dest` (replaced if it exists). The copy is written
/// beside `dest` as `*.partial`, checked (`PRAGMA integrity_check`, or `pg_restore --list` for
/// PostgreSQL's archive), and only then renamed to
/// `dest`; a copy that fails (a full disk, a locked file, a failed check) leaves no file behind,
/// so a 0-byte or torn file is never taken for a backup.
pub fn backup(db: &Path, dest: &Path) -> Result<(), DbError> {
    backup_limited(db, dest, None)
}

/// [`backup`] with the copy limited to `max_pages` pages (as a full disk would limit it).
pub fn backup_limited(db: &Path, dest: &Path, max_pages: Option<u32>) -> Result<(), DbError> {
    if let super::Target::Postgres(url) = super::Target::of(db) {
        return pg::dump(&url, dest);
    }
    if !db.exists() {
        return Err(DbError::Other(format!("{} does not exist", db.display())));
    }
    make_folder(dest)?;
    let partial = with_suffix(dest, ".partial");
    let r = copy_checked(db, &partial, max_pages).and_then(|()| {
        std::fs::rename(&partial, dest).map_err(|e| BackupFailure::folder(folder_of(dest), &e).into())
    });
    if r.is_err() {
        for f in [partial.clone(), with_suffix(&partial, "-journal")] {
            let _ = std::fs::remove_file(f);
        }
    }
    r
}

fn with_suffix(p: &Path, suffix: &str) -> PathBuf {
    let mut s = p.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

fn copy_checked(db: &Path, out: &Path, max_pages: Option<u32>) -> Result<(), DbError> {
    let fail = BackupFailure::of;
    if out.exists() {
        std::fs::remove_file(out).map_err(|e| BackupFailure::folder(folder_of(out), &e))?;
    }
    let src = Connection::open_with_flags(db, OpenFlags::SQLITE_OPEN_READ_WRITE).map_err(fail)?;
    src.busy_timeout(std::time::Duration::from_secs(5)).map_err(fail)?;
    {
        let mut dst = Connection::open(out).map_err(fail)?;
        if let Some(n) = max_pages {
            dst.pragma_update(None, "max_page_count", n).map_err(fail)?;
        }
        let b = rusqlite::backup::Backup::new(&src, &mut dst).map_err(fail)?;
        b.run_to_completion(256, std::time::Duration::from_millis(0), None).map_err(fail)?;
    }
    // A backup file should stand alone: no -wal beside it.
    let out_c = Connection::open(out).map_err(fail)?;
    out_c.pragma_update(None, "journal_mode", "DELETE").map_err(fail)?;
    let check: String = out_c.query_row("PRAGMA integrity_check", [], |r| r.get(0)).map_err(fail)?;
    if check != "ok" {
        return Err(BackupFailure::CheckFailed(format!("{}: integrity_check: {check}", out.display())).into());
    }
    Ok(())
}

/// Why a copy was refused before anything was replaced. The command line words it in the
/// user's language (`i18n`); the detail (SQLite's own words) is shown as it is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RestoreRefusal {
    #[error("{} is not a file", .0.display())]
    NotAFile(PathBuf),
    /// Not a database at all, or one without Tengen's tables.
    #[error("{} is not a Tengen database: {}", .0.display(), .1)]
    NotTengen(PathBuf, String),
    #[error("{} is a SQLite file: a PostgreSQL office takes it with `tengen migrate-db`", .0.display())]
    SqliteIntoPostgres(PathBuf),
    #[error("{} is a PostgreSQL archive: it restores into PostgreSQL only", .0.display())]
    ArchiveIntoSqlite(PathBuf),
    /// `PRAGMA integrity_check` found damage: its first finding.
    #[error("{} is damaged: integrity_check: {}", .0.display(), .1)]
    Damaged(PathBuf, String),
    /// Migrations this build does not know: the copy was written by a newer Tengen.
    #[error("{} was written by a newer Tengen (migrations {} are unknown here)", .0.display(), .1)]
    Newer(PathBuf, String),
    /// The tables, columns, indexes or triggers differ from what its migrations make.
    #[error("{} does not have Tengen's tables and columns: {}", .0.display(), .1)]
    SchemaDiffers(PathBuf, String),
}

impl From<RestoreRefusal> for DbError {
    fn from(r: RestoreRefusal) -> DbError {
        DbError::Restore(r)
    }
}

/// Check that `file` may replace a Tengen database: a PostgreSQL archive that lists Tengen's
/// tables, or a SQLite file that passes `PRAGMA integrity_check` and holds Tengen's schema
/// ([`check_schema`]). Reads `file` only.
pub fn check_tengen_file(file: &Path) -> Result<(), DbError> {
    if !file.is_file() {
        return Err(RestoreRefusal::NotAFile(file.to_path_buf()).into());
    }
    if pg::is_dump(file) {
        return pg::check_dump(file);
    }
    let not_tengen = |e: &dyn std::fmt::Display| RestoreRefusal::NotTengen(file.to_path_buf(), e.to_string());
    let c =
        Connection::open_with_flags(file, OpenFlags::SQLITE_OPEN_READ_ONLY).map_err(|e| not_tengen(&e))?;
    // The first findings are enough to name the damage; a whole list can run to thousands.
    let findings = strings(&c, "PRAGMA integrity_check(5)").map_err(|e| not_tengen(&e))?;
    if findings != ["ok"] {
        return Err(RestoreRefusal::Damaged(file.to_path_buf(), findings.join("; ")).into());
    }
    check_schema(&c).map_err(|r| match r {
        SchemaProblem::NotTengen(e) => RestoreRefusal::NotTengen(file.to_path_buf(), e),
        SchemaProblem::Newer(v) => RestoreRefusal::Newer(file.to_path_buf(), v.join(", ")),
        SchemaProblem::Differs(d) => RestoreRefusal::SchemaDiffers(file.to_path_buf(), d),
    })?;
    Ok(())
}

/// The first column of every row of `sql`, as text.
fn strings(c: &Connection, sql: &str) -> rusqlite::Result<Vec<String>> {
    let mut st = c.prepare(sql)?;
    let rows = st.query_map([], |r| r.get::<_, String>(0))?.collect();
    rows
}

/// What [`check_schema`] found wrong.
enum SchemaProblem {
    NotTengen(String),
    Newer(Vec<String>),
    Differs(String),
}

/// The project's own check of a SQLite copy: every migration it has applied is one this build
/// has (none from a newer Tengen), and its tables with their columns, its indexes and its
/// triggers are exactly those that the same migrations make in an empty database.
fn check_schema(c: &Connection) -> Result<(), SchemaProblem> {
    use diesel::migration::MigrationSource;
    use diesel_migrations::MigrationHarness;
    let applied = strings(c, "SELECT version FROM __diesel_schema_migrations")
        .map_err(|e| SchemaProblem::NotTengen(e.to_string()))?;
    let known = MigrationSource::<diesel::sqlite::Sqlite>::migrations(&super::MIGRATIONS)
        .map_err(|e| SchemaProblem::NotTengen(e.to_string()))?;
    let mut unknown: Vec<String> = applied
        .iter()
        .filter(|v| !known.iter().any(|m| m.name().version().to_string() == **v))
        .cloned()
        .collect();
    if !unknown.is_empty() {
        unknown.sort();
        return Err(SchemaProblem::Newer(unknown));
    }
    // The same migrations in an empty database, in the order they run.
    let reference = tempfile::NamedTempFile::new().map_err(|e| SchemaProblem::NotTengen(e.to_string()))?;
    {
        let path = reference.path().to_string_lossy().into_owned();
        let mut conn = <diesel::SqliteConnection as diesel::Connection>::establish(&path)
            .map_err(|e| SchemaProblem::NotTengen(e.to_string()))?;
        conn.applied_migrations().map_err(|e| SchemaProblem::NotTengen(e.to_string()))?;
        let mut wanted: Vec<_> =
            known.iter().filter(|m| applied.contains(&m.name().version().to_string())).collect();
        wanted.sort_by_key(|m| m.name().version().to_string());
        for m in wanted {
            conn.run_migration(&**m).map_err(|e| SchemaProblem::NotTengen(e.to_string()))?;
        }
    }
    let expected = Connection::open_with_flags(reference.path(), OpenFlags::SQLITE_OPEN_READ_ONLY)
        .and_then(|r| schema_lines(&r))
        .map_err(|e| SchemaProblem::NotTengen(e.to_string()))?;
    let found = schema_lines(c).map_err(|e| SchemaProblem::NotTengen(e.to_string()))?;
    let missing = expected.iter().filter(|l| !found.contains(l)).map(|l| format!("missing {l}"));
    let extra = found.iter().filter(|l| !expected.contains(l)).map(|l| format!("unexpected {l}"));
    let differences: Vec<String> = missing.chain(extra).take(5).collect();
    if differences.is_empty() {
        Ok(())
    } else {
        Err(SchemaProblem::Differs(differences.join("; ")))
    }
}

/// A database's schema as comparable lines: one per column of each table (name, declared
/// type, NOT NULL, primary key position, default), one per index and trigger (name, table,
/// SQL). SQLite's own tables and automatic indexes are left out.
fn schema_lines(c: &Connection) -> rusqlite::Result<Vec<String>> {
    let mut lines: Vec<String> = c
        .prepare(
            "SELECT m.name, p.name, p.type, p.\"notnull\", p.pk, coalesce(p.dflt_value, '') \
             FROM sqlite_master m JOIN pragma_table_info(m.name) p \
             WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' ORDER BY m.name, p.cid",
        )?
        .query_map([], |r| {
            let (t, col, ty): (String, String, String) = (r.get(0)?, r.get(1)?, r.get(2)?);
            let (notnull, pk, default): (i64, i64, String) = (r.get(3)?, r.get(4)?, r.get(5)?);
            Ok(format!("column {t}.{col} {ty} notnull={notnull} pk={pk} default={default}"))
        })?
        .collect::<rusqlite::Result<_>>()?;
    let others: Vec<String> = c
        .prepare(
            "SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_master \
             WHERE type IN ('index', 'trigger') AND name NOT LIKE 'sqlite_%' ORDER BY type, name",
        )?
        .query_map([], |r| {
            let (kind, name, table, sql): (String, String, String, String) =
                (r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?);
            Ok(format!("{kind} {name} on {table}: {}", sql.split_whitespace().collect::<Vec<_>>().join(" ")))
        })?
        .collect::<rusqlite::Result<_>>()?;
    lines.extend(others);
    Ok(lines)
}

/// Replace the contents of the live database at `db` with the backup `file`. The copy is
/// checked first ([`check_tengen_file`]), reading it only: a refused copy leaves the live
/// database as it was, byte for byte, with no safety copy made. Then the target is opened
/// (created and migrated if new), its current contents saved into backups/ beside it, the copy
/// restored, and the migrations the copy lacks run. Returns the safety copy.
pub fn restore(db: &Path, file: &Path) -> Result<PathBuf, DbError> {
    let to_postgres = matches!(super::Target::of(db), super::Target::Postgres(_));
    if to_postgres && starts_with(file, b"SQLite format 3\0") {
        return Err(RestoreRefusal::SqliteIntoPostgres(file.to_path_buf()).into());
    }
    if !to_postgres && pg::is_dump(file) {
        return Err(RestoreRefusal::ArchiveIntoSqlite(file.to_path_buf()).into());
    }
    check_tengen_file(file)?;
    super::open(db)?;
    let safety = auto_backup(db, "before-restore")?;
    if let super::Target::Postgres(url) = super::Target::of(db) {
        return pg::restore(&url, file).map(|()| safety);
    }
    {
        let mut dst = Connection::open(db).map_err(err)?;
        dst.busy_timeout(std::time::Duration::from_secs(10)).map_err(err)?;
        dst.restore(MAIN_DB, file, None::<fn(rusqlite::backup::Progress)>).map_err(err)?;
    }
    // A copy of an earlier version of the schema is brought up to this one.
    super::open(db)?;
    Ok(safety)
}

/// Now, as backup file names carry it: in the server's zone, the zone new events take (a
/// backup holds every event), with its UTC offset, so that names from before and after a
/// change of daylight saving time still sort and read unambiguously.
fn file_stamp() -> String {
    crate::server_zone().file_stamp(chrono::Utc::now())
}

/// The instant of a backup name's stamp, for the order of pruning; names of earlier versions
/// carry UTC without an offset.
fn stamp_instant(stamp: &str) -> Option<chrono::DateTime<chrono::Utc>> {
    EventZone::instant_of_stamp(stamp).or_else(|| {
        chrono::NaiveDateTime::parse_from_str(stamp, "%Y%m%d-%H%M%S%.3f").ok().map(|t| t.and_utc())
    })
}

/// The folder for automatic backups: backups/ beside the database file.
pub fn backups_dir(db: &Path) -> PathBuf {
    if let super::Target::Postgres(_) = super::Target::of(db) {
        return PathBuf::from("backups"); // beside the server's working directory
    }
    db.parent().map(|p| p.to_path_buf()).unwrap_or_default().join("backups")
}

/// A backup file's name before its stamp, and its extension: the database file's stem and
/// `sqlite`, or a PostgreSQL database's name and `pgdump` (pg_dump's custom format).
fn stem_and_ext(db: &Path) -> (String, &'static str) {
    match super::Target::of(db) {
        super::Target::Postgres(url) => (pg::db_name(&url), "pgdump"),
        super::Target::Sqlite(_) => (
            db.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_else(|| "tengen".into()),
            "sqlite",
        ),
    }
}

/// Back up the database into backups/ before a destructive action; returns the file written.
pub fn auto_backup(db: &Path, why: &str) -> Result<PathBuf, DbError> {
    let (stem, ext) = stem_and_ext(db);
    let stamp = file_stamp();
    let why: String =
        why.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).collect();
    let dest = backups_dir(db).join(format!("{stem}-{stamp}-{why}.{ext}"));
    backup(db, &dest)?;
    Ok(dest)
}

/// What the automatic backups of `serve --backup-dir DIR --backup-every T` keep: the last
/// `keep` copies (`STEM-auto-STAMP.EXT`) and, never pruned, one per published round: the
/// first copy taken after round N of tournament T was published is also linked as
/// `STEM-round-tT-rN-STAMP.EXT`. EXT is `sqlite`, or `pgdump` on PostgreSQL.
#[derive(Debug, Clone)]
pub struct AutoBackup {
    pub dir: PathBuf,
    pub keep: usize,
    /// Limit each copy to this many pages (tests of a full backup disk).
    pub max_pages: Option<u32>,
}

/// One automatic backup that was taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Taken {
    pub file: PathBuf,
    pub bytes: u64,
    /// The (tournament, round) of the rounds this copy is the first after.
    pub rounds: Vec<(i32, i32)>,
}

impl AutoBackup {
    /// Take one backup of `db` now: copy, check, link the rounds published since the last
    /// round copy, prune old copies.
    pub fn run_once(&self, db: &Path) -> Result<Taken, DbError> {
        let (stem, ext) = stem_and_ext(db);
        let stamp = file_stamp();
        let file = self.dir.join(format!("{stem}-auto-{stamp}.{ext}"));
        backup_limited(db, &file, self.max_pages)?;
        let bytes = std::fs::metadata(&file).map(|m| m.len()).unwrap_or(0);
        let names = self.names()?;
        let mut rounds = Vec::new();
        for (t, n) in published_rounds(&file)? {
            let prefix = format!("{stem}-round-t{t}-r{n}-");
            if names.iter().any(|f| f.starts_with(&prefix)) {
                continue;
            }
            let link = self.dir.join(format!("{prefix}{stamp}.{ext}"));
            std::fs::hard_link(&file, &link)
                .or_else(|_| std::fs::copy(&file, &link).map(|_| ()))
                .map_err(|e| BackupFailure::folder(&self.dir, &e))?;
            rounds.push((t, n));
        }
        self.prune(&stem, ext)?;
        Ok(Taken { file, bytes, rounds })
    }

    fn names(&self) -> Result<Vec<String>, DbError> {
        let rd = std::fs::read_dir(&self.dir).map_err(|e| BackupFailure::folder(&self.dir, &e))?;
        Ok(rd.filter_map(|e| e.ok()).map(|e| e.file_name().to_string_lossy().to_string()).collect())
    }

    /// Remove all but the newest `keep` automatic copies (round copies stay), and what a copy
    /// cut short by a killed server left (`*.partial`, `*.partial-journal`): copies are taken
    /// one at a time, so none is being written now.
    fn prune(&self, stem: &str, ext: &str) -> Result<(), DbError> {
        let prefix = format!("{stem}-auto-");
        let (done, partial) = (format!(".{ext}"), format!(".{ext}.partial"));
        let names = self.names()?;
        for name in names.iter().filter(|n| n.starts_with(&prefix) && n.contains(&partial)) {
            std::fs::remove_file(self.dir.join(name)).map_err(|e| BackupFailure::folder(&self.dir, &e))?;
        }
        let mut autos: Vec<String> =
            names.into_iter().filter(|n| n.starts_with(&prefix) && n.ends_with(&done)).collect();
        autos.sort_by_key(|n| (stamp_instant(&n[prefix.len()..n.len() - done.len()]), n.clone()));
        let extra = autos.len().saturating_sub(self.keep.max(1));
        for name in &autos[..extra] {
            std::fs::remove_file(self.dir.join(name)).map_err(|e| BackupFailure::folder(&self.dir, &e))?;
        }
        Ok(())
    }
}

/// The published rounds in a backup file, as (tournament, round number): what the copy holds,
/// not what the live database holds a moment later.
fn published_rounds(file: &Path) -> Result<Vec<(i32, i32)>, DbError> {
    if pg::is_dump(file) {
        return pg::published_rounds(file);
    }
    let c = Connection::open_with_flags(file, OpenFlags::SQLITE_OPEN_READ_ONLY).map_err(err)?;
    let mut st = c
        .prepare("SELECT tournament_id, number FROM rounds WHERE published ORDER BY tournament_id, number")
        .map_err(err)?;
    let rows = st.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).map_err(err)?;
    rows.collect::<Result<Vec<_>, _>>().map_err(err)
}

/// PostgreSQL's backups through its own programs. The address goes to them in the environment
/// (`PGPASSWORD` apart), never with its password on a command line.
mod pg {
    use super::{BackupFailure, DbError};
    use std::path::Path;
    use std::process::{Command, Stdio};

    /// The database's name: the address's last path segment.
    pub fn db_name(url: &str) -> String {
        let tail = url.rsplit('/').next().unwrap_or("tengen");
        tail.split('?').next().filter(|s| !s.is_empty()).unwrap_or("tengen").to_string()
    }

    /// A program with the address split into `PGPASSWORD` and a password-free `--dbname`,
    /// which carries libpq's bounds on waiting for the server (`backend::bounded`).
    fn tool(program: &str, url: &str) -> (Command, String) {
        let mut c = Command::new(program);
        let mut bare = url.to_string();
        if let Some((colon, at)) = crate::backend::password_span(url) {
            c.env("PGPASSWORD", &url[colon + 1..at]);
            bare = format!("{}{}", &url[..colon], &url[at..]);
        }
        c.stdin(Stdio::null());
        (c, crate::backend::bounded(&bare))
    }

    pub fn run(mut c: Command, program: &'static str) -> Result<String, DbError> {
        let out = c.output().map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => BackupFailure::ToolMissing(program),
            _ => BackupFailure::of(format!("{program}: {e}")),
        })?;
        if !out.status.success() {
            let said = String::from_utf8_lossy(&out.stderr);
            return Err(BackupFailure::of(format!("{program}: {}", said.trim())).into());
        }
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    }

    /// `pg_dump -Fc` into `dest`, through `dest.partial`, checked readable before the rename.
    pub fn dump(url: &str, dest: &Path) -> Result<(), DbError> {
        super::make_folder(dest)?;
        let partial = super::with_suffix(dest, ".partial");
        let (mut c, bare) = tool("pg_dump", url);
        c.arg("--format=custom").arg("--no-owner").arg("--file").arg(&partial).arg("--dbname").arg(&bare);
        let r = run(c, "pg_dump").and_then(|_| check_dump(&partial)).and_then(|()| {
            std::fs::rename(&partial, dest)
                .map_err(|e| BackupFailure::folder(super::folder_of(dest), &e).into())
        });
        if r.is_err() {
            let _ = std::fs::remove_file(&partial);
        }
        r
    }

    /// Whether `file` is a pg_dump archive (custom format: it starts with "PGDMP").
    pub fn is_dump(file: &Path) -> bool {
        super::starts_with(file, b"PGDMP")
    }

    /// The archive lists Tengen's tables (`pg_restore --list`).
    pub fn check_dump(file: &Path) -> Result<(), DbError> {
        let mut c = Command::new("pg_restore");
        c.arg("--list").arg(file).stdin(Stdio::null());
        let list = run(c, "pg_restore")?;
        let has =
            |t: &str| list.lines().any(|l| l.contains(" TABLE ") && l.split_whitespace().any(|w| w == t));
        if ["tournaments", "entrants", "users", "__diesel_schema_migrations"].iter().all(|t| has(t)) {
            Ok(())
        } else {
            let why = "its table list lacks Tengen's tables".to_string();
            Err(super::RestoreRefusal::NotTengen(file.to_path_buf(), why).into())
        }
    }

    /// The published rounds in the archive, from its `rounds` data (`pg_restore --data-only`
    /// writes it as a COPY block: a header naming the columns, then one tab-separated line
    /// per row, booleans as t/f).
    pub fn published_rounds(file: &Path) -> Result<Vec<(i32, i32)>, DbError> {
        let mut c = Command::new("pg_restore");
        c.args(["--data-only", "--table=rounds", "--file=-"]).arg(file).stdin(Stdio::null());
        let sql = run(c, "pg_restore")?;
        Ok(copy_rows(&sql, "rounds")
            .filter(|r| r.get("published") == Some(&"t"))
            .filter_map(|r| Some((r.get("tournament_id")?.parse().ok()?, r.get("number")?.parse().ok()?)))
            .collect())
    }

    /// The rows of `table`'s COPY block in pg_restore's SQL, each as column → text.
    pub fn copy_rows<'a>(
        sql: &'a str,
        table: &str,
    ) -> impl Iterator<Item = std::collections::HashMap<&'a str, &'a str>> + 'a {
        let head = format!("COPY public.{table} (");
        let mut lines = sql.lines().skip_while(move |l| !l.starts_with(&head));
        let columns: Vec<&str> = lines
            .next()
            .and_then(|h| h.split_once('(')?.1.split_once(')'))
            .map(|(cols, _)| cols.split(", ").map(|c| c.trim_matches('"')).collect())
            .unwrap_or_default();
        lines.take_while(|l| *l != "\\.").map(move |l| columns.iter().copied().zip(l.split('\t')).collect())
    }

    /// Replace the database's contents with the archive's, in one transaction.
    pub fn restore(url: &str, file: &Path) -> Result<(), DbError> {
        let (mut c, bare) = tool("pg_restore", url);
        c.args(["--clean", "--if-exists", "--single-transaction", "--no-owner", "--exit-on-error"]);
        c.arg("--dbname").arg(&bare).arg(file);
        run(c, "pg_restore").map(drop)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn db_with_rows(dir: &Path, n: usize) -> PathBuf {
        let db = dir.join("tengen.db");
        let c = Connection::open(&db).unwrap();
        c.execute_batch(
            "CREATE TABLE rounds (tournament_id INTEGER, number INTEGER, published BOOLEAN); \
             CREATE TABLE filler (x TEXT);",
        )
        .unwrap();
        for _ in 0..n {
            c.execute("INSERT INTO filler VALUES (?1)", [&"x".repeat(2000)]).unwrap();
        }
        db
    }

    #[test]
    fn failures_are_told_apart_for_the_page_that_names_them() {
        let dir = tempfile::tempdir().unwrap();
        let db = db_with_rows(dir.path(), 1);
        std::fs::write(dir.path().join("file"), b"").unwrap();
        let under_a_file = dir.path().join("file").join("copy.sqlite");
        match backup(&db, &under_a_file) {
            Err(DbError::Backup(BackupFailure::Folder(d, _))) => assert_eq!(d, dir.path().join("file")),
            other => panic!("{other:?}"),
        }
        let full = backup_limited(&db, &dir.path().join("c.sqlite"), Some(1));
        assert!(matches!(full, Err(DbError::Backup(BackupFailure::DiskFull(_)))), "{full:?}");
        let missing = pg::run(std::process::Command::new("/nonexistent/pg_dump"), "pg_dump");
        assert!(
            matches!(missing, Err(DbError::Backup(BackupFailure::ToolMissing("pg_dump")))),
            "{missing:?}"
        );
        let e = BackupFailure::of_error(DbError::Other("pg_dump: error: connection refused".into()));
        assert_eq!(e, BackupFailure::Other("pg_dump: error: connection refused".into()));
    }

    #[test]
    fn a_backup_of_the_other_engine_is_refused_before_anything_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let db = db_with_rows(dir.path(), 3);
        let dump = dir.path().join("office.pgdump");
        std::fs::write(&dump, b"PGDMP\x01\x0e").unwrap();
        let e = restore(&db, &dump).unwrap_err().to_string();
        assert!(e.contains("PostgreSQL archive"), "{e}");
        assert!(!dir.path().join("backups").exists(), "no safety copy for a refused restore");
        let n: i64 = Connection::open(&db)
            .unwrap()
            .query_row("SELECT count(*) FROM filler", [], |r| r.get(0))
            .unwrap();
        assert_eq!(n, 3);
        assert_eq!(crate::backend::password_span("postgres://u:p@h/d"), Some((12, 14)));
        assert_eq!(crate::backend::password_span("postgres://u@h/d"), None);
        assert_eq!(crate::Target::of(Path::new("postgres://u:s3cr@t@h/d")).shown(), "postgres://u:***@h/d");
    }

    #[test]
    fn a_dumps_rounds_are_read_from_its_copy_block_by_column_name() {
        let sql = "--\n-- Data for Name: rounds\n--\n\n\
                   COPY public.rounds (id, tournament_id, \"number\", published, seed) FROM stdin;\n\
                   1\t1\t1\tt\t7\n2\t1\t2\tf\t\\N\n3\t2\t1\tt\t9\n\\.\n\n\
                   COPY public.other (published) FROM stdin;\nt\n\\.\n";
        let published: Vec<(&str, &str)> = pg::copy_rows(sql, "rounds")
            .filter(|r| r["published"] == "t")
            .map(|r| (r["tournament_id"], r["number"]))
            .collect();
        assert_eq!(published, [("1", "1"), ("2", "1")]);
        assert_eq!(pg::copy_rows("no copy here", "rounds").count(), 0);
    }

    /// A database with the first `n` of this build's migrations (all of them: `usize::MAX`).
    fn migrated(path: &Path, n: usize) {
        use diesel::migration::MigrationSource;
        use diesel_migrations::MigrationHarness;
        let mut all = MigrationSource::<diesel::sqlite::Sqlite>::migrations(&crate::MIGRATIONS).unwrap();
        all.sort_by_key(|m| m.name().version().to_string());
        let mut c =
            <diesel::SqliteConnection as diesel::Connection>::establish(&path.to_string_lossy()).unwrap();
        c.applied_migrations().unwrap();
        for m in all.iter().take(n) {
            c.run_migration(&**m).unwrap();
        }
    }

    /// Office rule (restore): a copy is taken only when SQLite finds no damage and its schema
    /// is Tengen's: migrations this build knows, and the tables, columns, indexes and triggers
    /// those make. A copy of an earlier version passes and is brought up to date.
    #[test]
    fn a_copy_must_be_whole_and_tengens_own_schema() {
        let dir = tempfile::tempdir().unwrap();
        let good = dir.path().join("good.db");
        migrated(&good, usize::MAX);
        check_tengen_file(&good).unwrap();
        let refused = |f: &Path| match check_tengen_file(f) {
            Err(DbError::Restore(r)) => r,
            other => panic!("{other:?}"),
        };
        // A trigger gone (relay events are append-only by one), a column gone, a table more.
        let trigger: String = Connection::open(&good)
            .unwrap()
            .query_row("SELECT name FROM sqlite_master WHERE type = 'trigger' LIMIT 1", [], |r| r.get(0))
            .unwrap();
        for (i, sql) in [
            format!("DROP TRIGGER {trigger}"),
            "ALTER TABLE entrants DROP COLUMN notes".into(),
            "CREATE TABLE extra (x INTEGER)".into(),
        ]
        .iter()
        .enumerate()
        {
            let f = dir.path().join(format!("changed{i}.db"));
            std::fs::copy(&good, &f).unwrap();
            Connection::open(&f).unwrap().execute_batch(sql).unwrap();
            assert!(matches!(refused(&f), RestoreRefusal::SchemaDiffers(..)), "{sql}");
        }
        let newer = dir.path().join("newer.db");
        std::fs::copy(&good, &newer).unwrap();
        Connection::open(&newer)
            .unwrap()
            .execute("INSERT INTO __diesel_schema_migrations (version) VALUES ('20990101000000')", [])
            .unwrap();
        assert_eq!(refused(&newer), RestoreRefusal::Newer(newer.clone(), "20990101000000".into()));
        let junk = dir.path().join("junk.db");
        std::fs::write(&junk, b"not a database at all, not even close to one").unwrap();
        assert!(matches!(refused(&junk), RestoreRefusal::NotTengen(..)));
        assert!(matches!(refused(dir.path()), RestoreRefusal::NotAFile(_)));
        // Damage in a table's rows (the file's header and the table list intact).
        let c = Connection::open(&good).unwrap();
        for i in 0..40 {
            c.execute(
                "INSERT INTO users (username, display_name, password_hash, role, created_at) \
                 VALUES (?1, 'x', 'x', 'arbiter', '2026-12-04 00:00:00')",
                [format!("user{i}")],
            )
            .unwrap();
        }
        let page: i64 = c.query_row("PRAGMA page_size", [], |r| r.get(0)).unwrap();
        let root: i64 =
            c.query_row("SELECT rootpage FROM sqlite_master WHERE name = 'users'", [], |r| r.get(0)).unwrap();
        drop(c);
        let mut bytes = std::fs::read(&good).unwrap();
        let start = ((root - 1) * page) as usize;
        for b in &mut bytes[start + page as usize / 2..start + page as usize] {
            *b = 0xA5;
        }
        let damaged = dir.path().join("damaged.db");
        std::fs::write(&damaged, bytes).unwrap();
        assert!(matches!(refused(&damaged), RestoreRefusal::Damaged(..)));
        // An earlier version's copy passes, and a restore brings it up to this version.
        let older = dir.path().join("older.db");
        migrated(&older, 3);
        check_tengen_file(&older).unwrap();
        let live = dir.path().join("live.db");
        restore(&live, &older).unwrap();
        let versions: i64 = Connection::open(&live)
            .unwrap()
            .query_row("SELECT count(*) FROM __diesel_schema_migrations", [], |r| r.get(0))
            .unwrap();
        let known =
            diesel::migration::MigrationSource::<diesel::sqlite::Sqlite>::migrations(&crate::MIGRATIONS)
                .unwrap()
                .len() as i64;
        assert_eq!(versions, known);
    }

    /// Office rule (backups' place): the safety copies of a restore, a deletion and an
    /// OpenGotha replace go into backups/ beside the database file, and from the repository
    /// root (where the README's commands run, with `--db tengen.db`, and where a PostgreSQL
    /// office's copies go) that folder is kept out of git.
    #[test]
    fn safety_copies_go_beside_the_database_and_stay_out_of_git() {
        assert_eq!(backups_dir(Path::new("/srv/go/office.db")), Path::new("/srv/go/backups"));
        assert_eq!(backups_dir(Path::new("tengen.db")), Path::new("backups"));
        let ignored = include_str!("../../../.gitignore");
        assert!(ignored.lines().any(|l| l.trim() == "/backups/"), "backups/ is ignored:\n{ignored}");
    }

    #[test]
    fn backup_stamps_sort_by_their_instant_old_and_new() {
        let old = stamp_instant("20261202-193000.123").unwrap();
        let new = stamp_instant("20261203-033000.200+0800").unwrap();
        assert!(old < new, "19:30:00.123 UTC, then 19:30:00.200 UTC");
        assert_eq!(stamp_instant("tengen"), None);
        assert!(file_stamp().len() == "20261203-033000.200+0800".len());
    }

    #[test]
    fn a_backup_that_fails_leaves_no_file() {
        let dir = tempfile::tempdir().unwrap();
        let db = db_with_rows(dir.path(), 200);
        let dest = dir.path().join("out").join("copy.sqlite");
        // A disk that holds 10 pages: the copy fails part-way.
        let e = backup_limited(&db, &dest, Some(10)).unwrap_err();
        assert!(e.to_string().contains("full"), "{e}");
        let left: Vec<_> = std::fs::read_dir(dest.parent().unwrap()).unwrap().collect();
        assert!(left.is_empty(), "{left:?}");
        backup(&db, &dest).unwrap();
        assert!(std::fs::metadata(&dest).unwrap().len() > 400_000);
    }

    #[test]
    fn automatic_backups_keep_the_last_k_and_one_per_published_round() {
        let dir = tempfile::tempdir().unwrap();
        let db = db_with_rows(dir.path(), 1);
        let auto = AutoBackup { dir: dir.path().join("b"), keep: 2, max_pages: None };
        let c = Connection::open(&db).unwrap();
        // What a server killed in the middle of a copy left: removed by the next copy.
        std::fs::create_dir_all(&auto.dir).unwrap();
        for f in [
            "tengen-auto-20261201-000000.000.sqlite.partial",
            "tengen-auto-20261201-000000.000.sqlite.partial-journal",
        ] {
            std::fs::write(auto.dir.join(f), b"torn").unwrap();
        }
        let first = auto.run_once(&db).unwrap();
        assert!(auto.names().unwrap().iter().all(|n| !n.contains("partial")), "{:?}", auto.names());
        assert!(first.rounds.is_empty());
        c.execute("INSERT INTO rounds VALUES (1, 1, 1)", []).unwrap();
        let second = auto.run_once(&db).unwrap();
        assert_eq!(second.rounds, vec![(1, 1)]);
        for _ in 0..3 {
            assert!(auto.run_once(&db).unwrap().rounds.is_empty(), "round 1 has its copy");
        }
        let mut names = auto.names().unwrap();
        names.sort();
        assert_eq!(names.iter().filter(|n| n.contains("-auto-")).count(), 2, "{names:?}");
        assert_eq!(names.iter().filter(|n| n.contains("-round-t1-r1-")).count(), 1, "{names:?}");
    }
}
