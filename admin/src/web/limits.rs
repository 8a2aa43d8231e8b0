//! Upload limits: one per kind of upload, the same at every step (the form states it, the
//! request is refused by its Content-Length before anything is read, an upload stops being
//! read when a part passes it, the preview and the confirmation check it), and every refusal a page in the reader's language (issue 14).
//!
//! An import's preview sends the file back hex-encoded in its confirmation form, so the
//! confirmation's body may be twice the file's limit; [`BODY`] is sized for that, and the
//! payload extractor's own limit (which answers a body without Content-Length) is the same
//! number, its plain-text 413 turned into the page too.

use super::ctx::lang_of;
use super::error::AppError;
use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::{header, StatusCode};
use actix_web::middleware::Next;
use actix_web::ResponseError;

/// An entrant CSV file.
pub const CSV: usize = crate::import::csv::MAX_FILE_BYTES;
/// An OpenGotha XML file.
pub const OPENGOTHA: usize = crate::import::opengotha::MAX_XML_BYTES;
/// A game record.
pub const SGF: usize = crate::domain::results::MAX_SGF_BYTES;
/// Room for a form's other fields beside a file.
const FIELDS: usize = 64 * 1024;
/// Any other form.
pub const FORM: usize = 1024 * 1024;
/// The largest request body: an import's confirmation carrying the largest file hex-encoded.
pub const BODY: usize = 2 * max(max(CSV, OPENGOTHA), SGF) + FIELDS;

const fn max(a: usize, b: usize) -> usize {
    if a > b {
        a
    } else {
        b
    }
}

/// The limit of a POST to `path`: (body bytes, the file limit to state).
pub fn for_path(path: &str) -> (usize, usize) {
    let file = |limit: usize| (limit + FIELDS, limit);
    let confirm = |limit: usize| (2 * limit + FIELDS, limit);
    if path.ends_with("/import/csv") {
        file(CSV)
    } else if path.ends_with("/import/csv/confirm") {
        confirm(CSV)
    } else if path.ends_with("/import/opengotha") {
        file(OPENGOTHA)
    } else if path.ends_with("/import/opengotha/confirm") {
        confirm(OPENGOTHA)
    } else if path.starts_with("/t/") && path.ends_with("/sgf") {
        file(SGF)
    } else {
        (FORM, FORM)
    }
}

/// "5 MB", "512 KB" (binary units, as the constants are written).
pub fn text(bytes: usize) -> String {
    if bytes >= 1024 * 1024 && bytes.is_multiple_of(1024 * 1024) {
        format!("{} MB", bytes / (1024 * 1024))
    } else {
        format!("{} KB", bytes.div_ceil(1024))
    }
}

/// The 413 page for a file over `limit`.
pub fn too_large(lang: super::i18n::Lang, limit: usize) -> AppError {
    AppError::msg(StatusCode::PAYLOAD_TOO_LARGE, lang, lang.tf("err.too_large", &[&text(limit)]))
}

/// Refuse a POST whose Content-Length is over its route's limit before the body is read, and
/// turn the payload extractor's plain-text 413 into the same page.
pub async fn limit_bodies(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let (body, file) = for_path(req.path());
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    if req.method() == actix_web::http::Method::POST && declared.is_some_and(|n| n > body) {
        let page = too_large(lang_of(req.request()), file).error_response();
        return Ok(req.into_response(page));
    }
    // No clone of the request may live across the call (actix reuses it afterwards).
    let lang = lang_of(req.request());
    let res = next.call(req).await?;
    let ours = res.response().error().is_some_and(|e| e.as_error::<AppError>().is_some());
    if res.status() == StatusCode::PAYLOAD_TOO_LARGE && !ours {
        let page = too_large(lang, file).error_response();
        return Ok(res.into_response(page));
    }
    Ok(res.map_into_boxed_body())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_limit_per_upload_and_room_for_the_confirmation() {
        assert_eq!(text(CSV), "5 MB");
        assert_eq!(text(OPENGOTHA), "8 MB");
        assert_eq!(text(SGF), "512 KB");
        assert_eq!(for_path("/t/3/import/opengotha/confirm"), (2 * OPENGOTHA + FIELDS, OPENGOTHA));
        assert_eq!(for_path("/t/3/games/9/sgf"), (SGF + FIELDS, SGF));
        const { assert!(BODY >= 2 * OPENGOTHA + FIELDS) };
    }
}
