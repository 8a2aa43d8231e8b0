//! The request context every handler takes: language, the logged-in user and their session,
//! the CSRF token to put in forms, and database access that runs in `web::block`, its waits
//! for the database server bounded ([`on_db`]).

use super::error::AppError;
use super::form::{Form, UploadError};
use super::i18n::Lang;
use super::AppState;
use crate::db::users::{self, Role, Session, User};
use crate::db::Conn;
use crate::db::{DbError, DbPool};
use actix_web::cookie::{Cookie, SameSite};
use actix_web::dev::Payload;
use actix_web::http::{header, StatusCode};
use actix_web::{web, FromRequest, HttpRequest, HttpResponse};
use std::future::Future;
use std::pin::Pin;

pub const SESSION_COOKIE: &str = "tengen_session";
/// Before login, forms (login, first-run) are protected by a token in this cookie.
pub const ANON_CSRF_COOKIE: &str = "tengen_csrf";

pub struct Ctx {
    pub lang: Lang,
    pub session: Option<Session>,
    /// The token forms must carry back.
    pub csrf: String,
    /// A fresh anonymous token to set as a cookie with the response.
    new_anon_csrf: bool,
    /// Path and query of this request (for the language switch and login redirects).
    pub path: String,
    origin_ok: bool,
    pub content_type: String,
    /// The client's address: the socket's peer, or behind a trusted proxy the last untrusted
    /// hop it names (`net`).
    pub peer: String,
    /// The browser reached the site over HTTPS: cookies are `Secure`.
    pub https: bool,
    /// GET or HEAD: a request that only reads. A read without login is sent to the login page;
    /// a write without login is refused with 401 (a redirect would look like success to a
    /// client that counts 303 as "saved", and the form's data is lost either way).
    safe_method: bool,
    pool: DbPool,
    pub state: web::Data<AppState>,
    /// On a group's page (`/t/{id}/…`) of an event of several groups: the group and how it is
    /// named (`chrome_t` titles the page "{event} · {group}").
    group: Option<(i32, crate::db::event_pages::GroupTitle)>,
}

/// The group of a `/t/{id}/…` path.
fn group_in_path(path: &str) -> Option<i32> {
    let rest = path.strip_prefix("/t/")?;
    let id = rest.split(['/', '?']).next()?;
    id.parse::<i32>().ok().filter(|v| *v > 0)
}

/// The language of a request (in the leaf `web::i18n`, which the body limits read too).
pub use super::i18n::lang_of;

/// Does the Origin (or, failing that, Referer) of a request name this server? This server is
/// the Host the request was sent to, the host of `--public-url`, or behind a trusted proxy the
/// host it forwards (`X-Forwarded-Host`).
fn same_origin(req: &HttpRequest, net: &super::net::NetConfig, proxied: bool) -> bool {
    let header_of =
        |name: &str| req.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_ascii_lowercase);
    let mut hosts: Vec<String> = Vec::new();
    hosts.extend(header_of("host"));
    hosts.extend(net.public_host.clone());
    if proxied {
        hosts.extend(header_of("x-forwarded-host"));
    }
    let check = |v: &str| {
        let rest = v.split_once("://").map(|(_, r)| r).unwrap_or("");
        let h = rest.split('/').next().unwrap_or("").to_ascii_lowercase();
        !h.is_empty() && hosts.contains(&h)
    };
    if let Some(o) = req.headers().get(header::ORIGIN).and_then(|v| v.to_str().ok()) {
        return o != "null" && check(o);
    }
    if let Some(r) = req.headers().get(header::REFERER).and_then(|v| v.to_str().ok()) {
        return check(r);
    }
    // No Origin and no Referer: not a browser form post from another site; the token decides.
    true
}

impl FromRequest for Ctx {
    type Error = AppError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move { Ctx::load(&req).await })
    }
}

impl Ctx {
    pub(super) async fn load(req: &HttpRequest) -> Result<Ctx, AppError> {
        let lang = lang_of(req);
        let state = req
            .app_data::<web::Data<AppState>>()
            .cloned()
            .ok_or_else(|| AppError::internal(lang, "no app state"))?;
        let pool = state.pool.clone();
        let idle = state.idle;
        let token = match req.cookie(SESSION_COOKIE) {
            Some(c) if !c.value().is_empty() && c.value().len() <= 128 => Some(c.value().to_string()),
            _ => None,
        };
        let tid = group_in_path(req.path());
        let (session, group) = if token.is_some() || tid.is_some() {
            let p = pool.clone();
            on_db(move || -> Result<_, DbError> {
                let mut conn = p.get()?;
                let session = match token {
                    Some(t) => users::session(&mut conn, &t, idle)?,
                    None => None,
                };
                let group = match tid {
                    Some(tid) => crate::db::event_pages::group_title(&mut conn, tid)?.map(|g| (tid, g)),
                    None => None,
                };
                Ok((session, group))
            })
            .await
            .and_then(|r| r)
            .map_err(|e| AppError::internal(lang, e))?
        } else {
            (None, None)
        };
        let anon = req.cookie(ANON_CSRF_COOKIE).map(|c| c.value().to_string()).filter(|v| v.len() == 64);
        let (csrf, new_anon_csrf) = match (&session, anon) {
            (Some(s), _) => (s.csrf.clone(), false),
            (None, Some(t)) => (t, false),
            (None, None) => (users::random_token(), true),
        };
        let path = req.uri().path_and_query().map(|p| p.as_str().to_string()).unwrap_or_else(|| "/".into());
        let content_type =
            req.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
        let client = state.net.client(req.peer_addr().map(|a| a.ip()), req.headers());
        let safe_method =
            matches!(*req.method(), actix_web::http::Method::GET | actix_web::http::Method::HEAD);
        Ok(Ctx {
            lang,
            session,
            csrf,
            new_anon_csrf,
            path,
            origin_ok: same_origin(req, &state.net, client.proxied),
            content_type,
            peer: client.address,
            https: client.https,
            safe_method,
            pool,
            state,
            group,
        })
    }

    pub fn user(&self) -> Option<&User> {
        self.session.as_ref().map(|s| &s.user)
    }

    /// The logged-in user; otherwise a redirect to the login page (reads) or a 401 (writes).
    pub fn require_user(&self) -> Result<&User, AppError> {
        self.user().ok_or_else(|| {
            if self.safe_method {
                AppError::login(self.lang, &self.path)
            } else {
                AppError::new(StatusCode::UNAUTHORIZED, self.lang, "err.login_required")
            }
        })
    }

    /// A logged-in organizer (the global role), or a refusal.
    pub fn require_organizer(&self) -> Result<&User, AppError> {
        let u = self.require_user()?;
        if u.role == Role::Organizer {
            Ok(u)
        } else {
            Err(AppError::forbidden(self.lang))
        }
    }

    /// The user's role in tournament `tid`: must be on its staff, and an organizer there if
    /// `need` is Organizer. Unknown tournament → 404.
    pub async fn require_staff(&self, tid: i32, need: Role) -> Result<(User, Role), AppError> {
        let u = self.require_user()?.clone();
        let uid = u.id;
        let role = self
            .db(move |c| {
                crate::db::tournaments::get(c, tid)?;
                crate::db::tournaments::staff_role(c, tid, uid)
            })
            .await?;
        match (role, need) {
            (Some(Role::Organizer), _) => Ok((u, Role::Organizer)),
            (Some(Role::Arbiter), Role::Arbiter) => Ok((u, Role::Arbiter)),
            _ => Err(AppError::forbidden(self.lang)),
        }
    }

    /// The logged-in user with role `need` on the event `event_id` (404 when there is no such
    /// event). An event's staff is its groups' staff, kept the same on every group
    /// (`db::tournaments::set_staff`), so the first group in hall order answers for the event.
    pub async fn require_event_staff(&self, event_id: i32, need: Role) -> Result<(User, Role), AppError> {
        self.require_user()?;
        let first = self.db(move |c| Ok(crate::db::events::groups(c, event_id)?[0].id())).await?;
        self.require_staff(first, need).await
    }

    /// Run database work on the blocking pool. NotFound becomes the 404 page.
    pub async fn db<F, T>(&self, f: F) -> Result<T, AppError>
    where
        F: FnOnce(&mut Conn) -> Result<T, DbError> + Send + 'static,
        T: Send + 'static,
    {
        let pool = self.pool.clone();
        let lang = self.lang;
        let writes = crate::db::audit::writes();
        let r = on_db(move || {
            let mut conn = pool.get()?;
            crate::db::with_fault(&mut conn, f)
        })
        .await
        .and_then(|r| r);
        after_writes(writes);
        r.map_err(|e| match e {
            DbError::NotFound => AppError::not_found(lang),
            DbError::Backup(f) => AppError::backup(lang, &f),
            e => AppError::internal(lang, e),
        })
    }

    /// Like `db` but hands back the raw result for handlers that map their own errors.
    pub async fn db_raw<F, T, E>(&self, f: F) -> Result<Result<T, E>, AppError>
    where
        F: FnOnce(&mut Conn) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: From<DbError> + Send + 'static,
    {
        let pool = self.pool.clone();
        let lang = self.lang;
        let writes = crate::db::audit::writes();
        let r = on_db(move || {
            let mut conn = pool.get().map_err(|e| E::from(DbError::from(e)))?;
            crate::db::with_fault(&mut conn, f)
        })
        .await
        .map_err(|e| AppError::internal(lang, e));
        after_writes(writes);
        r
    }

    /// Parse a POSTed urlencoded form and check it: same origin and the right CSRF token. Every
    /// write is read so, by `write::Write` (the routes that take files: [`Ctx::upload`]).
    pub(super) fn form(&self, body: &[u8]) -> Result<Form, AppError> {
        let form = Form::parse(&self.content_type, body).map_err(|e| {
            tracing::info!("unreadable form: {e}");
            AppError::bad_form(self.lang)
        })?;
        self.check_csrf(&form)?;
        Ok(form)
    }

    /// Same origin and this session's CSRF token.
    fn check_csrf(&self, form: &Form) -> Result<(), AppError> {
        let token = form.get("csrf");
        if !self.origin_ok || self.new_anon_csrf || token.is_empty() || !constant_eq(token, &self.csrf) {
            return Err(AppError::new(StatusCode::FORBIDDEN, self.lang, "err.csrf"));
        }
        Ok(())
    }

    /// The body of a write that takes a file: streamed (actix-multipart) under the route's
    /// limits (`limits::for_path`) instead of buffered, an unreadable or oversized upload a 4xx
    /// page in the reader's language; then the same origin and this session's CSRF token.
    pub(super) async fn upload(&self, payload: web::Payload) -> Result<Form, AppError> {
        let route = self.path.split('?').next().unwrap_or("");
        let (body, file) = super::limits::for_path(route);
        let form =
            super::form::read_upload(&self.content_type, payload, file, body - file).await.map_err(|e| {
                match e {
                    UploadError::TooLarge => super::limits::too_large(self.lang, file),
                    UploadError::NotMultipart => {
                        AppError::new(StatusCode::UNSUPPORTED_MEDIA_TYPE, self.lang, e.key())
                    }
                    e => AppError::new(StatusCode::BAD_REQUEST, self.lang, e.key()),
                }
            })?;
        self.check_csrf(&form)?;
        Ok(form)
    }

    /// Numeric ids from path segments, in order; anything else is the 404 page.
    pub fn ids<const N: usize>(&self, parts: [&str; N]) -> Result<[i32; N], AppError> {
        let mut out = [0; N];
        for (o, p) in out.iter_mut().zip(parts) {
            *o = id(self.lang, p)?;
        }
        Ok(out)
    }

    /// A cookie of this site: HttpOnly, SameSite=Strict, Path=/, and Secure when the browser
    /// reached us over HTTPS (so it is never sent in clear).
    pub fn cookie(&self, name: &'static str, value: String) -> Cookie<'static> {
        Cookie::build(name, value)
            .path("/")
            .http_only(true)
            .same_site(SameSite::Strict)
            .secure(self.https)
            .finish()
    }

    /// Finish a response: the anonymous CSRF cookie if it is new.
    pub fn finish(&self, mut resp: HttpResponse) -> HttpResponse {
        if self.new_anon_csrf {
            let _ = resp.add_cookie(&self.cookie(ANON_CSRF_COOKIE, self.csrf.clone()));
        }
        resp
    }

    pub fn html(&self, body: String) -> HttpResponse {
        self.finish(HttpResponse::Ok().content_type("text/html; charset=utf-8").body(body))
    }

    pub fn html_status(&self, status: StatusCode, body: String) -> HttpResponse {
        self.finish(HttpResponse::build(status).content_type("text/html; charset=utf-8").body(body))
    }

    /// 303 See Other to a local path (after a successful POST); anything else goes home.
    pub fn redirect(&self, to: &str) -> HttpResponse {
        let to = if is_local_path(to) { to } else { "/" };
        self.finish(HttpResponse::SeeOther().insert_header((header::LOCATION, to)).finish())
    }

    pub fn t(&self, key: &str) -> &'static str {
        self.lang.t(key)
    }

    pub fn not_found(&self) -> AppError {
        AppError::not_found(self.lang)
    }
}

/// After database work that wrote (the audit counter moved), count once more now that the
/// transaction is over, so that caches reading the counter look at the committed state.
/// How often a request looks whether its database work waits on a statement too long.
const WAIT_TICK: std::time::Duration = std::time::Duration::from_millis(100);

/// Run blocking database work on actix's blocking pool, waiting for the database server at
/// most [`crate::db::wait::STATEMENT_WAIT`] per statement: a statement out longer (a server
/// that hangs) makes this a [`StorageFault::Unavailable`](crate::db::StorageFault) error at
/// once — the "database unavailable" page, what was typed kept — and the work, left to finish
/// on its thread, may no longer commit a write. No lock is held while waiting.
pub async fn on_db<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Result<T, DbError> {
    use crate::db::wait::{watched, Probe};
    let probe = std::sync::Arc::new(Probe::default());
    let p = probe.clone();
    let mut work = std::pin::pin!(web::block(move || watched(p, f)));
    loop {
        match actix_web::rt::time::timeout(WAIT_TICK, work.as_mut()).await {
            Ok(done) => return done.map_err(|e| DbError::Other(format!("blocking pool: {e}"))),
            Err(_) if probe.stuck() => {
                probe.abandon();
                tracing::warn!("the database server did not answer a statement in time");
                return Err(DbError::Storage(crate::db::StorageFault::Unavailable));
            }
            Err(_) => {}
        }
    }
}

fn after_writes(before: u64) {
    if crate::db::audit::writes() != before {
        crate::db::audit::note_write();
    }
}

/// Is `to` a path on this site (in the leaf `web::net`, which the views read too)?
pub use super::net::is_local_path;

pub(crate) fn constant_eq(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Parse a numeric id from a path segment; anything else is the 404 page.
pub fn id(lang: Lang, s: &str) -> Result<i32, AppError> {
    s.parse::<i32>().ok().filter(|v| *v > 0).ok_or_else(|| AppError::not_found(lang))
}

impl Ctx {
    /// The page frame for a page outside any tournament.
    pub fn chrome(&self, title: impl Into<String>) -> super::views::pages::Chrome {
        super::views::pages::Chrome::outside(
            self.lang,
            self.user().cloned(),
            self.csrf.clone(),
            self.path.clone(),
            title.into(),
        )
    }

    /// The tournament's name in the reader's language; on a page of a group of an event of
    /// several groups, "{event} · {group}".
    pub fn t_name(&self, t: &crate::db::tournaments::TournamentRow) -> String {
        let group = self.group.as_ref().filter(|(tid, _)| *tid == t.id).map(|(_, g)| g);
        crate::office::events::title(self.lang, t, group)
    }

    /// The page frame inside a tournament.
    pub fn chrome_t(
        &self,
        t: &crate::db::tournaments::TournamentRow,
        staff: bool,
        title: impl Into<String>,
    ) -> super::views::pages::Chrome {
        let mut c = self.chrome(title);
        c.tid = Some(t.id);
        c.tname = self.t_name(t);
        c.event = self.group.as_ref().filter(|(tid, _)| *tid == t.id).map(|(_, g)| g.event_id);
        c.staff = staff;
        c.team = t.system == crate::domain::settings::System::TeamRelay.code();
        c.zone = t.zone().name();
        c
    }

    /// Render a page with status 200.
    pub fn render(&self, page: &impl askama::Template) -> Result<HttpResponse, AppError> {
        self.render_status(StatusCode::OK, page)
    }

    /// Render a page with a status (a form with errors is a 400 or 409).
    pub fn render_status(
        &self,
        status: StatusCode,
        page: &impl askama::Template,
    ) -> Result<HttpResponse, AppError> {
        let body = page.render().map_err(|e| AppError::internal(self.lang, e))?;
        Ok(self.html_status(status, body))
    }

    /// Is the logged-in user on the staff of `tid` (any role)? Public pages use this to show
    /// the admin navigation.
    pub async fn staff_role(&self, tid: i32) -> Result<Option<Role>, AppError> {
        match self.user() {
            None => Ok(None),
            Some(u) => {
                let uid = u.id;
                self.db(move |c| crate::db::tournaments::staff_role(c, tid, uid)).await
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::is_local_path;

    #[test]
    fn only_plain_local_paths_are_redirect_targets() {
        for ok in ["/", "/t/1/entrants?q=%E7%8E%8B&sort=rank", "/users"] {
            assert!(is_local_path(ok), "{ok}");
        }
        for bad in [
            "",
            "t/1",
            "//evil.example",
            "/\\evil.example",
            "/\t/evil.example",
            "/\n/evil.example",
            "/ /evil.example",
            "https://evil.example/",
            "javascript:alert(1)",
            "/t/1?q=王",
        ] {
            assert!(!is_local_path(bad), "{bad:?}");
        }
    }
}
