//! `tengen backup FILE` and `tengen restore FILE`: SQLite's online backup, safe while the
//! server runs. The database is named as [`crate::db::shown`] shows it (no password).

use crate::db::backup;
use std::path::Path;

pub fn backup(db: &Path, file: &Path) -> Result<(), String> {
    backup::backup(db, file).map_err(|e| e.to_string())?;
    println!("backed up {} to {}", crate::db::shown(db), file.display());
    Ok(())
}

pub fn restore(db: &Path, file: &Path) -> Result<(), String> {
    // Make sure the target exists and is migrated, so a restore into a new path works too.
    crate::db::open(db).map_err(|e| e.to_string())?;
    let safety = backup::restore(db, file).map_err(|e| e.to_string())?;
    println!(
        "restored {} from {} (previous contents saved to {})",
        crate::db::shown(db),
        file.display(),
        safety.display()
    );
    Ok(())
}
