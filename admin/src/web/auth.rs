//! Login, logout, the first-run account, and account management for organizers.

use super::ctx::{id, Ctx, SESSION_COOKIE};
use super::error::AppError;
use super::i18n::Lang;
use super::throttle;
use super::views::pages::{AccountPage, FormView, LoginPage, PasswordResetPage, SetupPage, UsersPage};
use super::write::{Admit, Anyone, Member, Office, PathIds, Write, Writer};
use crate::db::users::{self, NewAccount, Role, User};
use crate::db::{audit, DbError};
use crate::domain::password;
use crate::i18n::tr;
use actix_web::cookie::Cookie;
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};

/// Check a new account's form: (field, message in the reader's language) pairs
/// (`domain::password`'s check, with the office's events' names, worded by `i18n`).
async fn check_account(ctx: &Ctx, form: &super::form::Form) -> Result<Vec<(&'static str, String)>, AppError> {
    let events = event_names(ctx).await?;
    let problems = password::check_account(
        form.get("username"),
        form.get("display_name"),
        form.raw("password"),
        &events,
    );
    Ok(problems.iter().map(|p| (p.field(), ctx.lang.account_problem(p))).collect())
}

/// The office's events' names, which a password must not be made of.
async fn event_names(ctx: &Ctx) -> Result<Vec<String>, AppError> {
    ctx.db(crate::db::tournaments::names).await
}

fn session_cookie(ctx: &Ctx, token: &str) -> Cookie<'static> {
    ctx.cookie(SESSION_COOKIE, token.to_string())
}

fn safe_next(next: &str) -> String {
    if super::ctx::is_local_path(next) && !next.starts_with("/login") {
        next.to_string()
    } else {
        "/".to_string()
    }
}

pub async fn login_page(ctx: Ctx, q: web::Query<Vec<(String, String)>>) -> Result<HttpResponse, AppError> {
    let next = safe_next(q.iter().find(|(k, _)| k == "next").map(|(_, v)| v.as_str()).unwrap_or("/"));
    if ctx.user().is_some() {
        return Ok(ctx.redirect(&next));
    }
    ctx.render(&LoginPage { c: ctx.chrome(ctx.t("login.title")), username: String::new(), next, error: None })
}

/// POST /login: a session for a right name and password (throttled).
pub async fn login(w: Write<Anyone>) -> Result<HttpResponse, AppError> {
    let (ctx, form) = (&w.ctx, &w.fields);
    let username = form.get("username").to_string();
    let password = form.raw("password").to_string();
    let next = safe_next(form.get("next"));
    // Only failures spend credit, per account and address, per address and per account
    // (`throttle`: a stranger's failures do not shut out the owner at another address), counted in
    // the database that every server of the office shares.
    let (name, peer, throttle, now) =
        (username.clone(), ctx.peer.clone(), ctx.state.login, throttle::now_ms());
    let session = ctx
        .db(move |c| {
            if !throttle.allows(c, &name, &peer, now)? {
                return Ok(Err(Refused::Throttled));
            }
            let Some(row) = users::by_username(c, &name)? else {
                // Spend the same time as a real check so names cannot be probed by timing.
                users::dummy_verify(&password);
                throttle.failed(c, &name, &peer, now)?;
                return Ok(Err(Refused::Failed));
            };
            if !row.active || !users::verify_password(&password, &row.password_hash) {
                throttle.failed(c, &name, &peer, now)?;
                return Ok(Err(Refused::Failed));
            }
            let lang = crate::db::prefs::lang(c, row.id)?;
            Ok(Ok((users::create_session(c, row.id)?, lang)))
        })
        .await?;
    match session {
        Ok((s, lang)) => {
            tracing::info!(user = %s.user.username, "login");
            let mut resp = ctx.redirect(&next);
            let _ = resp.add_cookie(&session_cookie(ctx, &s.token));
            // The language the user chose before, on any device: it is stored with the account.
            if let Some(l) = lang.as_deref().and_then(super::i18n::Lang::from_code) {
                let _ = resp.add_cookie(&super::lang_cookie(ctx, l));
            }
            Ok(resp)
        }
        Err(refused) => {
            let (status, key) = match refused {
                Refused::Throttled => {
                    tracing::warn!(peer = %ctx.peer, "login throttled");
                    (StatusCode::TOO_MANY_REQUESTS, "login.throttled")
                }
                Refused::Failed => (StatusCode::UNAUTHORIZED, "login.failed"),
            };
            login_refused(ctx, username, next, key, status)
        }
    }
}

/// Why a login made no session.
enum Refused {
    /// Too many failures of this account or address lately (`throttle`); nothing was checked.
    Throttled,
    /// A wrong password, an unknown name or a deactivated account (told apart to nobody).
    Failed,
}

/// The login form again with the name typed and the message of `key`.
fn login_refused(
    ctx: &Ctx,
    username: String,
    next: String,
    key: &str,
    status: StatusCode,
) -> Result<HttpResponse, AppError> {
    let page = LoginPage {
        c: ctx.chrome(ctx.t("login.title")),
        username,
        next,
        error: Some(ctx.t(key).to_string()),
    };
    ctx.render_status(status, &page)
}

/// POST /logout: the session ends (without one, nothing to do).
pub async fn logout(w: Write<Anyone>) -> Result<HttpResponse, AppError> {
    if let Some(s) = &w.session {
        let token = s.token.clone();
        w.db(move |c| users::delete_session(c, &token)).await?;
    }
    let mut resp = w.redirect("/");
    let mut gone = session_cookie(&w, "");
    gone.make_removal();
    let _ = resp.add_cookie(&gone);
    Ok(resp)
}

fn setup_token_ok(ctx: &Ctx, token: &str) -> bool {
    match ctx.state.setup_token.lock() {
        Ok(g) => g.as_deref().is_some_and(|t| t.len() == token.len() && t == token),
        Err(_) => false,
    }
}

pub async fn setup_page(ctx: Ctx, path: web::Path<String>) -> Result<HttpResponse, AppError> {
    let token = path.into_inner();
    let n = ctx.db(users::count).await?;
    if n > 0 || !setup_token_ok(&ctx, &token) {
        return Err(ctx.not_found());
    }
    ctx.render(&SetupPage { c: ctx.chrome(ctx.t("setup.title")), token, f: FormView::default() })
}

/// POST /setup/{token}: the first organizer account, once, through the one-time link.
pub async fn setup(path: web::Path<String>, w: Write<Anyone>) -> Result<HttpResponse, AppError> {
    let token = path.into_inner();
    let (ctx, form) = (&w.ctx, &w.fields);
    if !setup_token_ok(ctx, &token) {
        return Err(ctx.not_found());
    }
    let mut f = FormView::from_form(form);
    for (field, msg) in check_account(ctx, form).await? {
        f.error(field, msg);
    }
    if form.raw("password") != form.raw("password2") {
        f.error("password2", ctx.t("user.err_password_mismatch"));
    }
    if f.has_errors() {
        return ctx.render_status(
            StatusCode::BAD_REQUEST,
            &SetupPage { c: ctx.chrome(ctx.t("setup.title")), token, f },
        );
    }
    let (u, d, p) = (
        form.get("username").to_string(),
        form.get("display_name").to_string(),
        form.raw("password").to_string(),
    );
    let created = ctx
        .db(move |c| {
            let Some(user) = users::create_first(
                c,
                &NewAccount { username: &u, display_name: &d, password: &p, role: Role::Organizer },
            )?
            else {
                return Ok(None);
            };
            users::create_session(c, user.id).map(Some)
        })
        .await?;
    let Some(s) = created else {
        return Err(ctx.not_found());
    };
    if let Ok(mut g) = ctx.state.setup_token.lock() {
        *g = None;
    }
    tracing::info!(user = %s.user.username, "first organizer account created");
    let mut resp = ctx.redirect("/");
    let _ = resp.add_cookie(&session_cookie(ctx, &s.token));
    Ok(resp)
}

/// The roles `me` may give a new account: the administrator any, an organizer arbiters.
fn role_options(lang: Lang, me: &User) -> Vec<(String, String)> {
    let mut o = vec![("arbiter".into(), lang.t("role.arbiter").into())];
    if me.admin {
        o.push(("organizer".into(), lang.t("role.organizer").into()));
    }
    o
}

async fn render_users(
    ctx: &Ctx,
    f: FormView,
    status: StatusCode,
    notice: Option<String>,
) -> Result<HttpResponse, AppError> {
    let me = ctx.require_organizer()?.clone();
    let viewer = me.clone();
    let (list, trail, subjects, durability) = ctx
        .db(move |c| {
            let list = users::visible_to(c, &viewer)?;
            let mut trail = audit::for_accounts(c, 200)?;
            if !viewer.admin {
                trail.retain(|a| a.entity_id.is_some_and(|id| list.iter().any(|(u, _)| u.id == id)));
            }
            // Accounts belong to no event: their times are in the server's zone.
            let zone = crate::machine::zone();
            for a in &mut trail {
                a.at = zone.date_time(&a.at);
            }
            let names = users::all(c)?.into_iter().map(|u| (u.id, u.display_name)).collect();
            let subjects = audit::Subjects { users: names, ..Default::default() };
            Ok::<_, DbError>((list, trail, subjects, crate::db::durability(c)?))
        })
        .await?;
    // The readable audit's sentences, as on an event's audit page.
    let trail = trail.iter().map(|row| super::views::audit::line(ctx.lang, row, &subjects)).collect();
    let page = UsersPage {
        c: ctx.chrome(ctx.t("users.title")),
        me: me.id,
        admin: me.admin,
        users: list,
        f,
        roles: role_options(ctx.lang, &me),
        audit: trail,
        notice,
        server: server_lines(ctx, durability),
    };
    ctx.render_status(status, &page)
}

/// The server's storage and backups as the organizers' page states them: (id, text, bad?).
fn server_lines(ctx: &Ctx, (journal, sync): (String, i32)) -> Vec<(&'static str, String, bool)> {
    let lang = ctx.lang;
    let mut out = Vec::new();
    let sync_name = match sync {
        0 => "OFF",
        1 => "NORMAL",
        2 => "FULL",
        _ => "EXTRA",
    };
    let shown = crate::db::shown(&ctx.state.db_path);
    // PostgreSQL has no journal mode to state: its commit level (`synchronous_commit`) is all.
    let storage = match journal.as_str() {
        "postgresql" => tr!(lang, "server.storage_pg", database = shown, sync = sync_name),
        _ => {
            tr!(lang, "server.storage", database = shown, journal = journal.to_uppercase(), sync = sync_name)
        }
    };
    out.push(("storage", storage, sync < 2));
    let b = ctx.state.backups.lock().map(|b| b.clone()).unwrap_or_default();
    match &b.schedule {
        None => out.push(("backup-schedule", lang.t("server.backups_off").to_string(), true)),
        Some((dir, every, keep)) => out.push((
            "backup-schedule",
            tr!(
                lang,
                "server.backups_on",
                folder = dir.display(),
                minutes = (every.as_secs() / 60).max(1),
                keep
            ),
            false,
        )),
    }
    // The server's backups belong to no event: at the server's time, its zone named.
    let zone = crate::machine::zone();
    if let Some((at, t)) = &b.last {
        let name = t.file.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
        let at = lang.in_zone(&zone, at);
        out.push((
            "backup-last",
            tr!(lang, "server.backup_last", at, name, size = human_size(t.bytes)),
            false,
        ));
    }
    if let Some((at, why)) = &b.failed {
        let why = super::error::backup_reason(lang, why);
        out.push((
            "backup-failed",
            tr!(lang, "server.backup_failed", at = lang.in_zone(&zone, at), why),
            true,
        ));
    }
    out
}

/// 1.2 MB, 340 KB, 512 B.
fn human_size(bytes: u64) -> String {
    match bytes {
        b if b >= 1_000_000 => format!("{}.{} MB", b / 1_000_000, (b % 1_000_000) / 100_000),
        b if b >= 1_000 => format!("{} KB", b / 1_000),
        b => format!("{b} B"),
    }
}

pub async fn users_page(ctx: Ctx) -> Result<HttpResponse, AppError> {
    ctx.require_organizer()?;
    let mut f = FormView::default();
    f.set("role", "arbiter");
    render_users(&ctx, f, StatusCode::OK, None).await
}

/// POST /users: a new account (the administrator gives any role, an organizer arbiters).
pub async fn add_user(w: Write<Office>) -> Result<HttpResponse, AppError> {
    let (me, form) = (&w.who.user, &w.fields);
    let mut f = FormView::from_form(form);
    for (field, msg) in check_account(&w, form).await? {
        f.error(field, msg);
    }
    let role = Role::parse(form.get("role")).filter(|r| me.admin || *r == Role::Arbiter);
    if role.is_none() {
        f.error("role", w.t(if me.admin { "user.err_role" } else { "user.err_role_arbiter" }));
    }
    let Some(role) = role.filter(|_| !f.has_errors()) else {
        return render_users(&w, f, StatusCode::BAD_REQUEST, None).await;
    };
    let (u, d, p) = (
        form.get("username").to_string(),
        form.get("display_name").to_string(),
        form.raw("password").to_string(),
    );
    let actor = w.actor();
    let created = w
        .db(move |c| {
            users::create(c, &actor, &NewAccount { username: &u, display_name: &d, password: &p, role })
        })
        .await?;
    match created {
        Some(user) => {
            let notice = tr!(w.lang, "users.created", username = user.username);
            let mut f = FormView::default();
            f.set("role", "arbiter");
            render_users(&w, f, StatusCode::OK, Some(notice)).await
        }
        None => {
            f.error("username", w.t("user.err_username_taken"));
            render_users(&w, f, StatusCode::CONFLICT, None).await
        }
    }
}

/// The account `uid` if the logged-in organizer manages it (`users::manages`), else 403 (404
/// for no such account).
async fn managed(ctx: &Ctx, uid: i32) -> Result<(User, User), AppError> {
    let me = ctx.require_organizer()?.clone();
    let viewer = me.clone();
    let (target, ok) = ctx
        .db(move |c| {
            let t = users::by_id(c, uid)?;
            let ok = users::manages(c, &viewer, &t)?;
            Ok((t, ok))
        })
        .await?;
    if !ok {
        let key = if target.id == me.id { "users.err_self" } else { "users.err_not_yours" };
        return Err(AppError::new(StatusCode::FORBIDDEN, ctx.lang, key));
    }
    Ok((me, target))
}

/// A write on an account the logged-in organizer manages, named by the path (`/users/{id}/…`):
/// 401 without a session, 404 for a path that names no account, 403 for one not theirs.
pub struct Managed<P = [i32; 1]> {
    pub me: User,
    pub target: User,
    pub ids: P,
}

impl<P: PathIds> Admit for Managed<P> {
    async fn admit(ctx: &Ctx, segments: &[String]) -> Result<Self, AppError> {
        ctx.require_organizer()?;
        let ids = P::parse(segments).ok_or_else(|| ctx.not_found())?;
        let (me, target) = managed(ctx, ids.key()).await?;
        Ok(Managed { me, target, ids })
    }
}

impl<P> Writer for Managed<P> {
    fn user(&self) -> &User {
        &self.me
    }
}

/// The path of `/users/{id}/activate` and `/users/{id}/deactivate`.
pub struct ActivePath {
    uid: i32,
    active: bool,
}

impl PathIds for ActivePath {
    fn parse(segments: &[String]) -> Option<Self> {
        let [uid] = <[i32; 1]>::parse(segments)?;
        let active = match segments.get(1)?.as_str() {
            "activate" => true,
            "deactivate" => false,
            _ => return None,
        };
        Some(ActivePath { uid, active })
    }
    fn key(&self) -> i32 {
        self.uid
    }
}

/// POST /users/{id}/activate (or /deactivate).
pub async fn user_action(w: Write<Managed<ActivePath>>) -> Result<HttpResponse, AppError> {
    let ActivePath { uid, active } = w.who.ids;
    let actor = w.actor();
    w.db(move |c| users::set_active(c, &actor, uid, active)).await?;
    Ok(w.redirect("/users"))
}

/// An organizer sets a new password for an account they manage (its sessions end).
pub async fn reset_page(ctx: Ctx, path: web::Path<String>) -> Result<HttpResponse, AppError> {
    let uid = id(ctx.lang, &path)?;
    let (_, target) = managed(&ctx, uid).await?;
    let page =
        PasswordResetPage { c: ctx.chrome(ctx.t("users.reset_title")), target, f: FormView::default() };
    ctx.render(&page)
}

/// POST /users/{id}/password: the account's sessions end.
pub async fn reset_password(w: Write<Managed>) -> Result<HttpResponse, AppError> {
    let [uid] = w.who.ids;
    let target = w.who.target.clone();
    let mut f = FormView::from_form(&w.fields);
    new_password_errors(&w, &w.fields, &target, &mut f).await?;
    if f.has_errors() {
        let page = PasswordResetPage { c: w.chrome(w.t("users.reset_title")), target, f };
        return w.render_status(StatusCode::BAD_REQUEST, &page);
    }
    let (actor, p) = (w.actor(), w.fields.raw("password").to_string());
    w.db(move |c| users::set_password(c, &actor, uid, &p, None)).await?;
    let notice = tr!(w.lang, "users.reset_done", username = target.username);
    let mut f = FormView::default();
    f.set("role", "arbiter");
    render_users(&w, f, StatusCode::OK, Some(notice)).await
}

/// The new password fields (`password`, `password2`) of a change or reset.
async fn new_password_errors(
    ctx: &Ctx,
    form: &super::form::Form,
    target: &User,
    f: &mut FormView,
) -> Result<(), AppError> {
    let events = event_names(ctx).await?;
    let known =
        password::Known { username: &target.username, display_name: &target.display_name, events: &events };
    if let Some(w) = password::check(form.raw("password"), &known) {
        f.error("password", ctx.lang.weakness(&w));
    }
    if form.raw("password") != form.raw("password2") {
        f.error("password2", ctx.t("user.err_password_mismatch"));
    }
    // Passwords are never shown again.
    f.set("password", "");
    f.set("password2", "");
    Ok(())
}

/// Every user's own account page: change the password.
pub async fn account_page(ctx: Ctx) -> Result<HttpResponse, AppError> {
    ctx.require_user()?;
    ctx.render(&AccountPage { c: ctx.chrome(ctx.t("account.title")), f: FormView::default(), notice: None })
}

/// Change one's own password: the old one is required; every other session of the account ends,
/// this one stays.
pub async fn change_password(w: Write<Member>) -> Result<HttpResponse, AppError> {
    let (ctx, form, me) = (&w.ctx, &w.fields, &w.who.user);
    let mut f = FormView::from_form(form);
    new_password_errors(ctx, form, me, &mut f).await?;
    f.set("old_password", "");
    // The old password is checked like a login: throttled, and a failure spends credit.
    let (uid, old) = (me.id, form.raw("old_password").to_string());
    let (name, peer, throttle, now) =
        (me.username.clone(), ctx.peer.clone(), ctx.state.login, throttle::now_ms());
    let checked = ctx
        .db(move |c| {
            if !throttle.allows(c, &name, &peer, now)? {
                return Ok(Err(Refused::Throttled));
            }
            if !users::password_ok(c, uid, &old)? {
                throttle.failed(c, &name, &peer, now)?;
                return Ok(Err(Refused::Failed));
            }
            Ok(Ok(()))
        })
        .await?;
    match checked {
        Err(Refused::Throttled) => {
            f.error("old_password", ctx.t("login.throttled"));
            let page = AccountPage { c: ctx.chrome(ctx.t("account.title")), f, notice: None };
            return ctx.render_status(StatusCode::TOO_MANY_REQUESTS, &page);
        }
        Err(Refused::Failed) => f.error("old_password", ctx.t("account.err_old_password")),
        Ok(()) => {}
    }
    if f.has_errors() {
        let page = AccountPage { c: ctx.chrome(ctx.t("account.title")), f, notice: None };
        return ctx.render_status(StatusCode::BAD_REQUEST, &page);
    }
    let keep = ctx.session.as_ref().map(|s| s.token.clone());
    let (actor, p) = (me.actor(), form.raw("password").to_string());
    ctx.db(move |c| users::set_password(c, &actor, uid, &p, keep.as_deref())).await?;
    let page = AccountPage {
        c: ctx.chrome(ctx.t("account.title")),
        f: FormView::default(),
        notice: Some(ctx.t("account.changed").to_string()),
    };
    ctx.render(&page)
}
