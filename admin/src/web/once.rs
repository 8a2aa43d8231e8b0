//! A secret address shown once: the write that made it (a display screen's, a team's research
//! room's) answers with a redirect and a short-lived cookie that carries the address to the one
//! page that shows it (post, redirect, get: a refresh of the page shows it no more and writes
//! nothing). The cookie is HttpOnly, SameSite=Strict, for that page's path only and two minutes
//! at most; the address is in no URL, and the database keeps only the token's hash
//! (`db::users::token_hash`). The page checks that the carried token is still current before it
//! shows it (a later new address or revocation ends it) and removes the cookie.

use super::ctx::Ctx;
use actix_web::{HttpRequest, HttpResponse};

/// The answer to a write that made a secret address: a 303 to `page`, carrying `value` in the
/// cookie `name` for `page` only.
pub fn carry(ctx: &Ctx, name: &'static str, page: &str, value: String) -> HttpResponse {
    let mut resp = ctx.redirect(page);
    let mut cookie = ctx.cookie(name, value);
    cookie.set_path(page.to_string());
    cookie.set_max_age(actix_web::cookie::time::Duration::minutes(2));
    let _ = resp.add_cookie(&cookie);
    resp
}

/// What the cookie `name` carries to this page, if anything.
pub fn carried(req: &HttpRequest, name: &str) -> Option<String> {
    req.cookie(name).map(|c| c.value().to_string())
}

/// Removes the cookie `name` of `page` on `resp` (after the page showed what it carried).
pub fn forget(ctx: &Ctx, resp: &mut HttpResponse, name: &'static str, page: &str) {
    let mut gone = ctx.cookie(name, String::new());
    gone.set_path(page.to_string());
    gone.make_removal();
    let _ = resp.add_cookie(&gone);
}

/// A token as issued (`db::users::random_token`: 64 hex digits); anything else is no address
/// and never reaches the database.
pub fn is_token(token: &str) -> bool {
    token.len() == 64 && token.bytes().all(|b| b.is_ascii_hexdigit())
}
