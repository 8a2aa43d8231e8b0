//! Pairings that must not happen (回避), per tournament: `GET /t/{id}/forbidden` lists the
//! groups an organizer listed (a pair, a family, a club: no two members meet, never or not
//! before round k) and the form that adds one (members picked from the entrants, narrowed by
//! a name search `?find=`); `GET /t/{id}/forbidden/{gid}` the same page editing a group;
//! `POST …/forbidden/new`, `…/{gid}/edit`, `…/{gid}/delete`: organizers only, versioned,
//! audited with who asked. Arbiters see the list. The pairing reads the groups
//! (`domain::pairing::avoid`); the reason is the organizer's and is never public.

use super::ctx::{id, Ctx};
use super::error::AppError;
use super::views::forbidden::{ForbiddenPage, GroupLine, MemberChoice};
use super::views::pages::FormView;
use super::views::round::Find;
use super::views::text::Names;
use super::write::{Organizer, Write};
use crate::db::entrants::{self as edb, EntrantRow, Sort};
use crate::db::forbidden::{self as fdb, ForbiddenError, Group, Setup};
use crate::db::rounds as rdb;
use crate::db::tournaments as tdb;
use crate::db::users::Role;
use crate::db::DbError;
use crate::domain::names::sort_by_name;
use crate::domain::pairing::avoid::{GroupProblem, MAX_LABEL, MAX_REASON};
use crate::domain::settings::MAX_ROUNDS;
use crate::i18n::{tr, Lang};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};

/// A problem of a group as typed, in the reader's words.
fn problem_text(lang: Lang, p: GroupProblem) -> String {
    match p {
        GroupProblem::Label => tr!(lang, "forbid.err_label", max = MAX_LABEL),
        GroupProblem::Reason => tr!(lang, "forbid.err_reason", max = MAX_REASON),
        GroupProblem::TooFew => lang.t("forbid.err_too_few").to_string(),
        GroupProblem::NotAnEntrant => lang.t("forbid.err_not_entrant").to_string(),
        GroupProblem::Round => tr!(lang, "err.number_range", min = 2, max = MAX_ROUNDS),
    }
}

/// "never" or "not before round k".
fn when_text(lang: Lang, until: Option<u32>) -> String {
    match until {
        None => lang.t("forbid.never").to_string(),
        Some(k) => tr!(lang, "forbid.before_round", round = k),
    }
}

/// The form's fields of a group.
fn form_of(s: &Setup) -> FormView {
    let mut f = FormView::default();
    f.set("label", s.label.clone());
    f.set("until_round", s.until_round.map(|k| k.to_string()).unwrap_or_default());
    f.set("reason", s.reason.clone());
    f
}

/// What the page shows: the list, and the form (`editing`) with `setup`'s entries.
struct Shown {
    editing: Option<i32>,
    version: i32,
    setup: Setup,
    f: FormView,
    find: String,
    banner: Option<String>,
    status: StatusCode,
}

async fn page(ctx: &Ctx, tid: i32, shown: Shown) -> Result<HttpResponse, AppError> {
    let (_, role) = ctx.require_staff(tid, Role::Arbiter).await?;
    let (t, entrants, groups) = ctx
        .db(move |c| {
            Ok::<_, DbError>((tdb::get(c, tid)?, edb::list(c, tid, "", Sort::Id)?, fdb::list(c, tid)?))
        })
        .await?;
    let lang = ctx.lang;
    let names = Names::new(lang, &entrants);
    let order = t.settings().name_order;
    let sep = if lang.is_zh() { "、" } else { ", " };
    let lines = groups
        .iter()
        .map(|g: &Group| GroupLine {
            id: g.id,
            version: g.version,
            label: g.setup.label.clone(),
            members: g.setup.members.iter().map(|m| names.name(rdb::pid(*m))).collect::<Vec<_>>().join(sep),
            when: when_text(lang, g.setup.until_round),
            reason: g.setup.reason.clone(),
        })
        .collect();
    let find = Find::new(&shown.find);
    let mut offered: Vec<&EntrantRow> = entrants
        .iter()
        .filter(|e| {
            shown.setup.members.contains(&e.id)
                || match &find {
                    Find::All => true,
                    Find::Number(n) => names.number(rdb::pid(e.id)) == *n,
                    Find::Name(q) => q.matches(&e.name()),
                }
        })
        .collect();
    sort_by_name(&mut offered, order, |e| e.name());
    let choices = offered
        .into_iter()
        .map(|e| {
            let p = rdb::pid(e.id);
            MemberChoice {
                id: e.id,
                label: format!("{} {} ({})", names.number(p), names.name(p), names.rank(p)),
                on: shown.setup.members.contains(&e.id),
            }
        })
        .collect();
    let page = ForbiddenPage {
        c: ctx.chrome_t(&t, true, lang.t("forbid.title")),
        tid,
        organizer: role == Role::Organizer,
        groups: lines,
        editing: shown.editing,
        version: shown.version,
        f: shown.f,
        choices,
        find: shown.find,
        banner: shown.banner,
    };
    ctx.render_status(shown.status, &page)
}

fn query_find(q: &[(String, String)]) -> String {
    q.iter().find(|(k, _)| k == "find").map(|(_, v)| v.trim().chars().take(50).collect()).unwrap_or_default()
}

/// GET /t/{id}/forbidden.
pub async fn list(
    ctx: Ctx,
    path: web::Path<String>,
    q: web::Query<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    let tid = id(ctx.lang, &path)?;
    let setup = Setup::default();
    let shown = Shown {
        editing: None,
        version: 0,
        f: form_of(&setup),
        setup,
        find: query_find(&q),
        banner: None,
        status: StatusCode::OK,
    };
    page(&ctx, tid, shown).await
}

/// GET /t/{id}/forbidden/{gid}: the page with the group's form.
pub async fn edit_page(
    ctx: Ctx,
    path: web::Path<(String, String)>,
    q: web::Query<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    let [tid, gid] = ctx.ids([&path.0, &path.1])?;
    ctx.require_staff(tid, Role::Organizer).await?;
    let g = ctx.db(move |c| fdb::get(c, tid, gid)).await?;
    let shown = Shown {
        editing: Some(gid),
        version: g.version,
        f: form_of(&g.setup),
        setup: g.setup,
        find: query_find(&q),
        banner: None,
        status: StatusCode::OK,
    };
    page(&ctx, tid, shown).await
}

/// The group as the form typed it: the ticked members, "not before round" (empty: never).
/// An unreadable round is beside its field.
fn read(w: &Write<Organizer<impl Sized>>, f: &mut FormView) -> Setup {
    let members: Vec<i32> = w
        .fields
        .fields
        .iter()
        .filter_map(|(k, v)| k.strip_prefix("m_").filter(|_| v == "on").and_then(|id| id.parse().ok()))
        .collect();
    let until = w.fields.get("until_round").trim();
    let until_round = if until.is_empty() {
        None
    } else {
        match until.parse::<u32>() {
            Ok(k) => Some(k),
            Err(_) => {
                f.error("until_round", problem_text(w.lang, GroupProblem::Round));
                Some(0)
            }
        }
    };
    Setup {
        label: w.fields.get("label").trim().to_string(),
        members,
        until_round,
        reason: w.fields.get("reason").trim().to_string(),
    }
}

/// Runs one write; on success back to the list, else the page with the form as typed and
/// the refusal's words (400 beside the fields, 409 for a stale version).
async fn write(
    w: &Write<Organizer<impl Sized>>,
    tid: i32,
    editing: Option<i32>,
    version: i32,
    setup: Setup,
    mut f: FormView,
    run: impl FnOnce(&mut crate::db::Conn, &crate::db::Actor) -> Result<i32, ForbiddenError> + Send + 'static,
) -> Result<HttpResponse, AppError> {
    let refused = |f: FormView, banner: String, status: StatusCode| Shown {
        editing,
        version,
        setup: setup.clone(),
        f,
        find: String::new(),
        banner: Some(banner),
        status,
    };
    if f.has_errors() {
        let banner = w.t("form.has_errors").to_string();
        return page(w, tid, refused(f, banner, StatusCode::BAD_REQUEST)).await;
    }
    let actor = w.actor();
    match w.db_raw(move |c| run(c, &actor)).await? {
        Ok(_) => Ok(w.redirect(&format!("/t/{tid}/forbidden"))),
        Err(ForbiddenError::Invalid(problems)) => {
            for p in problems {
                f.error(p.field(), problem_text(w.lang, p));
            }
            let banner = w.t("form.has_errors").to_string();
            page(w, tid, refused(f, banner, StatusCode::BAD_REQUEST)).await
        }
        Err(ForbiddenError::Stale) => {
            let banner = w.t("forbid.err_stale").to_string();
            page(w, tid, refused(f, banner, StatusCode::CONFLICT)).await
        }
        Err(ForbiddenError::Db(DbError::NotFound)) => Err(w.not_found()),
        Err(ForbiddenError::Db(e)) => Err(AppError::db(w.lang, e)),
    }
}

/// POST /t/{id}/forbidden/new.
pub async fn create(w: Write<Organizer>) -> Result<HttpResponse, AppError> {
    let [tid] = w.who.ids;
    let mut f = FormView::from_form(&w.fields);
    let setup = read(&w, &mut f);
    let s2 = setup.clone();
    write(&w, tid, None, 0, setup, f, move |c, a| fdb::write(c, a, tid, None, fdb::Write::Create(&s2))).await
}

/// POST /t/{id}/forbidden/{gid}/edit.
pub async fn edit(w: Write<Organizer<[i32; 2]>>) -> Result<HttpResponse, AppError> {
    let [tid, gid] = w.who.ids;
    let mut f = FormView::from_form(&w.fields);
    let setup = read(&w, &mut f);
    let version = w.version()?;
    let s2 = setup.clone();
    write(&w, tid, Some(gid), version, setup, f, move |c, a| {
        fdb::write(c, a, tid, Some(gid), fdb::Write::Update { version, setup: &s2 })
    })
    .await
}

/// POST /t/{id}/forbidden/{gid}/delete.
pub async fn delete(w: Write<Organizer<[i32; 2]>>) -> Result<HttpResponse, AppError> {
    let [tid, gid] = w.who.ids;
    let version = w.version()?;
    let setup = Setup::default();
    let f = form_of(&setup);
    write(&w, tid, None, 0, setup, f, move |c, a| {
        fdb::write(c, a, tid, Some(gid), fdb::Write::Delete { version })
    })
    .await
}
