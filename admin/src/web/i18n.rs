//! The web's view of the one catalog: [`crate::i18n`] (one `Lang`, one catalog for web, print
//! and CLI). Re-exported here so handlers keep writing `super::i18n::Lang`.

pub use crate::i18n::*;

use actix_web::http::header;
use actix_web::HttpRequest;

/// The language of a request without touching the database (used by error handlers and the
/// body limits too): the language cookie, else the browser's Accept-Language.
pub fn lang_of(req: &HttpRequest) -> Lang {
    if let Some(l) = req.cookie(LANG_COOKIE).and_then(|c| Lang::from_code(c.value())) {
        return l;
    }
    req.headers()
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
        .map(Lang::from_accept)
        .unwrap_or(Lang::En)
}
