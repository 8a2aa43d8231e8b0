//! Login, logout, the first-run account, and account management for organizers.

use super::ctx::{id, Ctx, SESSION_COOKIE};
use super::error::AppError;
use super::i18n::Lang;
use super::templates::{FormView, LoginPage, SetupPage, UsersPage};
use crate::db::users::{self, NewAccount, Role};
use crate::db::{audit, DbError};
use actix_web::cookie::{Cookie, SameSite};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};

pub const MIN_PASSWORD: usize = 10;

/// Check a new account's fields; returns (field, catalog key) pairs.
pub fn check_account(
    username: &str,
    display_name: &str,
    password: &str,
) -> Vec<(&'static str, &'static str)> {
    let mut errs = Vec::new();
    let u = username.trim();
    if u.is_empty() {
        errs.push(("username", "user.err_username_required"));
    } else if u.chars().count() > 32
        || !u.chars().all(|c| c.is_alphanumeric() || matches!(c, '.' | '_' | '-'))
    {
        errs.push(("username", "user.err_username_chars"));
    }
    if display_name.chars().count() > 60 || display_name.chars().any(char::is_control) {
        errs.push(("display_name", "user.err_display_name"));
    }
    if password.chars().count() < MIN_PASSWORD {
        errs.push(("password", "user.err_password_short"));
    } else if password.len() > 256 {
        errs.push(("password", "user.err_password_long"));
    }
    errs
}

fn session_cookie(token: &str) -> Cookie<'static> {
    Cookie::build(SESSION_COOKIE, token.to_string())
        .path("/")
        .http_only(true)
        .same_site(SameSite::Strict)
        .finish()
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

pub async fn login(ctx: Ctx, body: web::Bytes) -> Result<HttpResponse, AppError> {
    let form = ctx.form(&body)?;
    let username = form.get("username").to_string();
    let password = form.raw("password").to_string();
    let next = safe_next(form.get("next"));
    let key = format!("{}|{}", ctx.peer, username.to_lowercase());
    if ctx.state.login_limiter.check_key(&key).is_err() {
        tracing::warn!(peer = %ctx.peer, "login throttled");
        let page = LoginPage {
            c: ctx.chrome(ctx.t("login.title")),
            username,
            next,
            error: Some(ctx.t("login.throttled").to_string()),
        };
        return ctx.render_status(StatusCode::TOO_MANY_REQUESTS, &page);
    }
    let name = username.clone();
    let session = ctx
        .db(move |c| {
            let Some(row) = users::by_username(c, &name)? else {
                // Spend the same time as a real check so names cannot be probed by timing.
                users::dummy_verify(&password);
                return Ok(None);
            };
            if !row.active || !users::verify_password(&password, &row.password_hash) {
                return Ok(None);
            }
            let lang = crate::db::prefs::lang(c, row.id)?;
            Ok(Some((users::create_session(c, row.id)?, lang)))
        })
        .await?;
    match session {
        Some((s, lang)) => {
            tracing::info!(user = %s.user.username, "login");
            let mut resp = ctx.redirect(&next);
            let _ = resp.add_cookie(&session_cookie(&s.token));
            // The language the user chose before, on any device (issue 15 item 7).
            if let Some(l) = lang.as_deref().and_then(super::i18n::Lang::from_code) {
                let _ = resp.add_cookie(&super::lang_cookie(l));
            }
            Ok(resp)
        }
        None => {
            let page = LoginPage {
                c: ctx.chrome(ctx.t("login.title")),
                username,
                next,
                error: Some(ctx.t("login.failed").to_string()),
            };
            ctx.render_status(StatusCode::UNAUTHORIZED, &page)
        }
    }
}

pub async fn logout(ctx: Ctx, body: web::Bytes) -> Result<HttpResponse, AppError> {
    ctx.form(&body)?;
    if let Some(s) = &ctx.session {
        let token = s.token.clone();
        ctx.db(move |c| users::delete_session(c, &token)).await?;
    }
    let mut resp = ctx.redirect("/");
    let mut gone = session_cookie("");
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

pub async fn setup(ctx: Ctx, path: web::Path<String>, body: web::Bytes) -> Result<HttpResponse, AppError> {
    let token = path.into_inner();
    let form = ctx.form(&body)?;
    if !setup_token_ok(&ctx, &token) {
        return Err(ctx.not_found());
    }
    let mut f = FormView::from_form(&form);
    for (field, key) in check_account(form.get("username"), form.get("display_name"), form.raw("password")) {
        f.error(field, ctx.t(key));
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
    let _ = resp.add_cookie(&session_cookie(&s.token));
    Ok(resp)
}

fn role_options(lang: Lang) -> Vec<(String, String)> {
    vec![
        ("arbiter".into(), lang.t("role.arbiter").into()),
        ("organizer".into(), lang.t("role.organizer").into()),
    ]
}

async fn render_users(
    ctx: &Ctx,
    f: FormView,
    status: StatusCode,
    notice: Option<String>,
) -> Result<HttpResponse, AppError> {
    let me = ctx.require_organizer()?.id;
    let (list, trail) = ctx.db(|c| Ok::<_, DbError>((users::all(c)?, audit::for_accounts(c, 200)?))).await?;
    let page = UsersPage {
        c: ctx.chrome(ctx.t("users.title")),
        me,
        users: list,
        f,
        roles: role_options(ctx.lang),
        audit: trail,
        notice,
    };
    ctx.render_status(status, &page)
}

pub async fn users_page(ctx: Ctx) -> Result<HttpResponse, AppError> {
    ctx.require_organizer()?;
    let mut f = FormView::default();
    f.set("role", "arbiter");
    render_users(&ctx, f, StatusCode::OK, None).await
}

pub async fn add_user(ctx: Ctx, body: web::Bytes) -> Result<HttpResponse, AppError> {
    let actor = ctx.require_organizer()?.actor();
    let form = ctx.form(&body)?;
    let mut f = FormView::from_form(&form);
    for (field, key) in check_account(form.get("username"), form.get("display_name"), form.raw("password")) {
        f.error(field, ctx.t(key));
    }
    let role = Role::parse(form.get("role"));
    if role.is_none() {
        f.error("role", ctx.t("user.err_role"));
    }
    let Some(role) = role.filter(|_| !f.has_errors()) else {
        return render_users(&ctx, f, StatusCode::BAD_REQUEST, None).await;
    };
    let (u, d, p) = (
        form.get("username").to_string(),
        form.get("display_name").to_string(),
        form.raw("password").to_string(),
    );
    let created = ctx
        .db(move |c| {
            users::create(c, &actor, &NewAccount { username: &u, display_name: &d, password: &p, role })
        })
        .await?;
    match created {
        Some(user) => {
            let notice = ctx.lang.tf("users.created", &[&user.username]);
            let mut f = FormView::default();
            f.set("role", "arbiter");
            render_users(&ctx, f, StatusCode::OK, Some(notice)).await
        }
        None => {
            f.error("username", ctx.t("user.err_username_taken"));
            render_users(&ctx, f, StatusCode::CONFLICT, None).await
        }
    }
}

pub async fn user_action(
    ctx: Ctx,
    path: web::Path<(String, String)>,
    body: web::Bytes,
) -> Result<HttpResponse, AppError> {
    let me = ctx.require_organizer()?.clone();
    let (uid, action) = path.into_inner();
    let uid = id(ctx.lang, &uid)?;
    ctx.form(&body)?;
    let active = match action.as_str() {
        "activate" => true,
        "deactivate" => false,
        _ => return Err(ctx.not_found()),
    };
    if uid == me.id {
        return Err(AppError::bad_request(ctx.lang, ctx.t("users.err_self").to_string()));
    }
    let actor = me.actor();
    ctx.db(move |c| users::set_active(c, &actor, uid, active)).await?;
    Ok(ctx.redirect("/users"))
}
