//! Errors as pages: every refusal is an HTML page in the reader's language with a 4xx status;
//! only a real fault of the program or the machine is a 5xx.
//!
//! Two faults of the machine are common at a venue and told apart (`Fault`): the database's
//! disk is full (507), and the database is locked by another program for longer than the busy
//! timeout (503, e.g. a backup tool or a second copy of Tengen). Their page says what happened
//! and keeps what the user typed: `views::pages::keep_typed` holds the body of every form
//! POST, and when the answer is such a fault it shows the fields again as a form that sends
//! them once more. The pages themselves are rendered in `views::pages`, so this module
//! is a leaf the request context, the body limits and the views all read.

use super::form::FieldErrors;
use super::i18n::Lang;
use crate::i18n::tr;
use actix_web::http::StatusCode;

use crate::db::backup::BackupFailure;
use crate::db::DbError;

/// A fault of the machine the user can do something about (`db::StorageFault`).
pub use crate::db::StorageFault as Fault;

pub fn fault_status(f: Fault) -> StatusCode {
    match f {
        Fault::Full => StatusCode::INSUFFICIENT_STORAGE,
        Fault::Locked | Fault::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
    }
}

fn fault_key(f: Fault) -> &'static str {
    match f {
        Fault::Full => "err.disk_full",
        Fault::Locked => "err.db_locked",
        Fault::Unavailable => "err.db_unavailable",
    }
}

/// Why a backup failed, as a clause of the reader's language (the error pages and the
/// organizers' page put it in their sentence).
pub fn backup_reason(lang: Lang, f: &BackupFailure) -> String {
    match f {
        BackupFailure::DiskFull(_) => lang.t("backup.why_full").to_string(),
        BackupFailure::Folder(dir, _) => tr!(lang, "backup.why_folder", folder = dir.display()),
        BackupFailure::ToolMissing(program) => tr!(lang, "backup.why_tool", program),
        BackupFailure::CheckFailed(_) => lang.t("backup.why_check").to_string(),
        BackupFailure::Other(detail) => tr!(lang, "backup.why_other", detail),
    }
}

#[derive(Debug)]
pub struct AppError {
    pub status: StatusCode,
    pub lang: Lang,
    /// Already translated.
    pub message: String,
    /// For "log in first": where to send the browser instead of showing a page.
    pub redirect: Option<String>,
    /// A full or locked database: [`keep_typed`] shows the form's fields again.
    pub fault: Option<Fault>,
}

impl std::fmt::Display for AppError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.status, self.message)
    }
}

impl AppError {
    pub fn new(status: StatusCode, lang: Lang, key: &str) -> AppError {
        AppError { status, lang, message: lang.t(key).to_string(), redirect: None, fault: None }
    }
    pub fn msg(status: StatusCode, lang: Lang, message: String) -> AppError {
        AppError { status, lang, message, redirect: None, fault: None }
    }
    /// The 400 page of a form that cannot be read (a hand-made or broken request).
    pub fn bad_form(lang: Lang) -> AppError {
        AppError::new(StatusCode::BAD_REQUEST, lang, "err.bad_form")
    }
    pub fn not_found(lang: Lang) -> AppError {
        AppError::new(StatusCode::NOT_FOUND, lang, "err.not_found")
    }
    pub fn forbidden(lang: Lang) -> AppError {
        AppError::new(StatusCode::FORBIDDEN, lang, "err.forbidden")
    }
    pub fn bad_request(lang: Lang, message: String) -> AppError {
        AppError::msg(StatusCode::BAD_REQUEST, lang, message)
    }
    /// A fault of the program or the machine; a full or locked database is told as such.
    pub fn internal(lang: Lang, detail: impl std::fmt::Display) -> AppError {
        let detail = detail.to_string();
        if let Some(f) = Fault::of(&detail) {
            tracing::error!("storage: {detail}");
            return AppError { fault: Some(f), ..AppError::new(fault_status(f), lang, fault_key(f)) };
        }
        tracing::error!("internal error: {detail}");
        AppError::new(StatusCode::INTERNAL_SERVER_ERROR, lang, "err.internal")
    }
    /// The backup an action makes first could not be made: nothing was changed, the page says
    /// why, and the typed form is kept (507 when the backup's disk is full, else 503).
    pub fn backup(lang: Lang, f: &BackupFailure) -> AppError {
        tracing::error!("backup before a change: {f}");
        let fault = match f {
            BackupFailure::DiskFull(_) => Fault::Full,
            _ => Fault::Unavailable,
        };
        let message = tr!(lang, "err.backup_first", backup_reason = backup_reason(lang, f));
        AppError { fault: Some(fault), ..AppError::msg(fault_status(fault), lang, message) }
    }
    pub fn login(lang: Lang, next: &str) -> AppError {
        let next = serde_urlencoded::to_string([("next", next)]).unwrap_or_default();
        AppError {
            status: StatusCode::SEE_OTHER,
            lang,
            message: lang.t("err.login_required").to_string(),
            redirect: Some(format!("/login?{next}")),
            fault: None,
        }
    }
}

impl AppError {
    /// A fault of the database under a write's typed refusal: a thing that is not there is the
    /// 404 page, anything else a fault of the program or the machine.
    pub fn db(lang: Lang, e: DbError) -> AppError {
        match e {
            DbError::NotFound => AppError::not_found(lang),
            e => AppError::internal(lang, e),
        }
    }

    /// A refusal with no form of its own: the error page with its status and words.
    pub fn refused(lang: Lang, r: Refused) -> AppError {
        AppError::msg(r.status, lang, r.message)
    }
}

/// A write the office refused by its rules (a stale page, a locked sheet, a step out of order,
/// a value the rules refuse): its status, its words in the reader's language, and the field
/// they belong beside. The page that refuses shows them beside the entry as typed, kept
/// ([`Refused::keep`]); a refusal without a form of its own is the error page
/// ([`AppError::refused`]). Each family's typed refusals are worded in `web::refusals`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    pub status: StatusCode,
    pub message: String,
    /// The form field the words go beside (none: the page's banner only).
    pub field: Option<&'static str>,
}

impl Refused {
    pub fn new(status: StatusCode, message: impl Into<String>) -> Refused {
        Refused { status, message: message.into(), field: None }
    }

    /// The refusal beside `field`.
    pub fn beside(self, field: &'static str) -> Refused {
        Refused { field: Some(field), ..self }
    }

    /// The words beside their field on the form as typed (`f`, kept): the banner and the status
    /// of the page that shows it again.
    pub fn keep(self, f: &mut impl FieldErrors) -> (String, StatusCode) {
        if let Some(field) = self.field {
            f.error(field, self.message.clone());
        }
        (self.message, self.status)
    }
}

#[cfg(test)]
mod tests {
    use super::{backup_reason, BackupFailure, Fault};
    use crate::i18n::Lang;

    #[test]
    fn a_backups_failure_is_named_in_the_readers_language() {
        let tool = BackupFailure::ToolMissing("pg_dump");
        assert!(backup_reason(Lang::Zh, &tool).starts_with("服务器上没有安装 pg_dump"));
        assert!(backup_reason(Lang::En, &tool).starts_with("pg_dump is not installed on the server"));
        let full = BackupFailure::DiskFull("database or disk is full".into());
        assert_eq!(backup_reason(Lang::Zh, &full), "备份所在磁盘已满");
        let check = BackupFailure::CheckFailed("x: integrity_check: *** in database main ***".into());
        assert!(!backup_reason(Lang::Zh, &check).contains("integrity"), "the detail stays in the log");
    }

    #[test]
    fn sqlite_faults_are_recognised_by_their_messages() {
        assert_eq!(Fault::of("database: database or disk is full"), Some(Fault::Full));
        assert_eq!(Fault::of("database: database is locked"), Some(Fault::Locked));
        assert_eq!(Fault::of("database: UNIQUE constraint failed"), None);
        let gone = "database: server closed the connection unexpectedly\n\tThis probably means the server terminated abnormally";
        assert_eq!(Fault::of(gone), Some(Fault::Unavailable));
        assert_eq!(Fault::of("connection pool: timed out waiting for connection"), Some(Fault::Unavailable));
    }
}
