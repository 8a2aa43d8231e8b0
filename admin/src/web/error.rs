//! Errors as pages: every refusal is an HTML page in the reader's language with a 4xx status;
//! only a real fault of the program or the machine is a 500.

use super::i18n::Lang;
use super::templates::ErrorPage;
use actix_web::http::{header, StatusCode};
use actix_web::{HttpResponse, ResponseError};
use askama::Template;

#[derive(Debug)]
pub struct AppError {
    pub status: StatusCode,
    pub lang: Lang,
    /// Already translated.
    pub message: String,
    /// For "log in first": where to send the browser instead of showing a page.
    pub redirect: Option<String>,
}

impl std::fmt::Display for AppError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.status, self.message)
    }
}

impl AppError {
    pub fn new(status: StatusCode, lang: Lang, key: &str) -> AppError {
        AppError { status, lang, message: lang.t(key).to_string(), redirect: None }
    }
    pub fn msg(status: StatusCode, lang: Lang, message: String) -> AppError {
        AppError { status, lang, message, redirect: None }
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
    pub fn internal(lang: Lang, detail: impl std::fmt::Display) -> AppError {
        tracing::error!("internal error: {detail}");
        AppError::new(StatusCode::INTERNAL_SERVER_ERROR, lang, "err.internal")
    }
    pub fn login(lang: Lang, next: &str) -> AppError {
        let next = serde_urlencoded::to_string([("next", next)]).unwrap_or_default();
        AppError {
            status: StatusCode::SEE_OTHER,
            lang,
            message: lang.t("err.login_required").to_string(),
            redirect: Some(format!("/login?{next}")),
        }
    }
}

impl ResponseError for AppError {
    fn status_code(&self) -> StatusCode {
        self.status
    }

    fn error_response(&self) -> HttpResponse {
        if let Some(to) = &self.redirect {
            return HttpResponse::SeeOther().insert_header((header::LOCATION, to.as_str())).finish();
        }
        let page = ErrorPage::new(self.lang, self.status, &self.message);
        let body = page.render().unwrap_or_else(|_| self.message.clone());
        HttpResponse::build(self.status).content_type("text/html; charset=utf-8").body(body)
    }
}
