//! `tengen backup FILE` and `tengen restore FILE`: SQLite's online backup, safe while the
//! server runs. A restore checks the copy before anything is replaced and says why it refuses
//! one in the user's language (`--lang`, else the locale's). The database is named as
//! [`crate::db::shown`] shows it (no password).

use super::files::CliError;
use crate::db::{backup, DbError};
use crate::i18n::tr;
use crate::i18n::Lang;
use std::path::Path;

pub fn backup(db: &Path, file: &Path) -> Result<(), CliError> {
    backup::backup(db, file)?;
    let (database, file) = (crate::db::shown(db), file.display().to_string());
    println!("{}", tr!(Lang::from_environment(), "cli_say.backed_up", database, file));
    Ok(())
}

/// `lang`: `--lang` as given (zh or en); without it, the locale's language.
pub fn restore(db: &Path, file: &Path, lang: Option<&str>) -> Result<(), CliError> {
    let lang = match lang {
        Some(l) => crate::documents::parse_lang(l)?,
        None => Lang::from_environment(),
    };
    let safety = backup::restore(db, file).map_err(|e| match e {
        DbError::Restore(r) => lang.restore_refusal(&r),
        e => e.to_string(),
    })?;
    println!(
        "{}",
        tr!(
            lang,
            "restore.done",
            database = crate::db::shown(db),
            file = file.display(),
            safety_copy = safety.display()
        )
    );
    Ok(())
}
