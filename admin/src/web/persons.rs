//! The player registry (`store::persons`): the registry page with its search and likely
//! duplicates, merging two persons, a person's staff page, export and deletion on request,
//! the public person page `/p/{person}`, and the entrant form's registry search.
//!
//! Who sees whom: a person spans events, so the account administrator sees and merges every
//! person, and an organizer (the global role) those who played in an event on whose staff they
//! are organizers. Exporting and deleting a person (a privacy request) is the administrator's.
//! Contact data and birth dates are shown to those only, never on the public page.

use super::ctx::{id, Ctx};
use super::error::AppError;
use super::i18n::Lang;
use super::views::pages::FormView;
use super::views::registry::*;
use super::views::text::rank_text;
use super::write::{Admit, Office, PathIds, Write, Writer};
use crate::db::persons::{self as pdb, PersonError, PersonRow};
use crate::db::users::User;
use crate::db::{Conn, DbError};
use crate::domain::registry::Likeness;
use crate::domain::standings::halves_text;
use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpResponse};
use serde::Deserialize;

/// At most this many persons answer a registry search.
pub const FOUND_MAX: usize = 30;

/// Whether `user` may see and merge the person `pid` (module documentation).
fn may_see(c: &mut Conn, user: &User, pid: i32) -> Result<bool, DbError> {
    Ok(user.admin || pdb::organizes_any(c, user.id, &[pid])?)
}

/// The person's names for the reader: Chinese first on Chinese pages, the pinyin (Latin) name
/// first on English ones; the other form beside it.
fn names(p: &PersonRow, zh: bool) -> (String, String) {
    let (a, b) = (p.name_zh(), p.name_latin());
    let chinese_first = if zh { !a.is_empty() } else { b.is_empty() };
    let (first, other) = if chinese_first { (a, b) } else { (b, a) };
    if first.is_empty() {
        (other, String::new())
    } else {
        (first, other)
    }
}

fn item(lang: Lang, p: &PersonRow, rank: Option<&str>) -> PersonItem {
    let (name, other_name) = names(p, lang.is_zh());
    PersonItem {
        id: p.id,
        version: p.version,
        name,
        other_name,
        unit: p.unit.clone(),
        rank: rank.map(|r| rank_text(lang, r)).unwrap_or_default(),
    }
}

fn last_rank(c: &mut Conn, pid: i32) -> Result<Option<String>, DbError> {
    Ok(pdb::ranks(c, pid)?.pop().map(|r| r.rank))
}

/// The persons a search finds that `user` may see, as list items.
fn found(c: &mut Conn, lang: Lang, user: &User, q: &str) -> Result<Vec<PersonItem>, DbError> {
    let mut out = Vec::new();
    for p in pdb::search(c, q, usize::MAX)? {
        if out.len() == FOUND_MAX {
            break;
        }
        if may_see(c, user, p.id)? {
            let rank = last_rank(c, p.id)?;
            out.push(item(lang, &p, rank.as_deref()));
        }
    }
    Ok(out)
}

fn likeness_text(lang: Lang, l: Likeness) -> String {
    lang.t(match l {
        Likeness::Pin => "people.why_pin",
        Likeness::NameAndBirth => "people.why_birth",
        Likeness::PinyinAndUnit => "people.why_unit",
    })
    .to_string()
}

fn query(q: &[(String, String)], k: &str) -> String {
    q.iter().find(|(n, _)| n == k).map(|(_, v)| v.trim().chars().take(100).collect()).unwrap_or_default()
}

async fn registry(
    ctx: &Ctx,
    q: String,
    banner: Option<(StatusCode, String)>,
) -> Result<HttpResponse, AppError> {
    let user = ctx.require_organizer()?.clone();
    let lang = ctx.lang;
    let q2 = q.clone();
    let (found, duplicates) = ctx
        .db(move |c| {
            let found = if q2.is_empty() { Vec::new() } else { found(c, lang, &user, &q2)? };
            let dups = pdb::duplicates(c, |c, pid| may_see(c, &user, pid))?
                .into_iter()
                .map(|d| DuplicateItem {
                    a: item(lang, &d.a, None),
                    b: item(lang, &d.b, None),
                    why: likeness_text(lang, d.why),
                })
                .collect();
            Ok::<_, DbError>((found, dups))
        })
        .await?;
    let status = banner.as_ref().map_or(StatusCode::OK, |(s, _)| *s);
    let page = PersonsPage {
        c: ctx.chrome(ctx.t("people.persons_title")),
        q,
        found,
        duplicates,
        banner: banner.map(|(_, b)| b),
    };
    ctx.render_status(status, &page)
}

/// GET /persons?q=…: the registry.
pub async fn registry_page(ctx: Ctx, q: web::Query<Vec<(String, String)>>) -> Result<HttpResponse, AppError> {
    registry(&ctx, query(&q, "q"), None).await
}

/// The events and rank history of a person as the pages show them.
fn history(lang: Lang, r: &crate::office::registry::PersonRecord) -> (Vec<RankItem>, Vec<EventItem>) {
    let t_name = |t: &crate::db::tournaments::TournamentRow| crate::office::events::title(lang, t, None);
    let ranks = r
        .ranks
        .iter()
        .map(|(k, t)| RankItem {
            date: k.recorded_on.clone(),
            rank: rank_text(lang, &k.rank),
            event: t.as_ref().map(t_name).unwrap_or_default(),
        })
        .collect();
    let events = r
        .events
        .iter()
        .map(|e| EventItem {
            tid: e.t.id,
            eid: e.entrant_id,
            name: t_name(&e.t),
            date: e.t.start_date.clone(),
            rank: rank_text(lang, &e.rank),
            place: e
                .standing
                .map(|(_, p, shared)| if shared { format!("{p}=") } else { p.to_string() })
                .unwrap_or_default(),
            score: e.standing.map(|(s, _, _)| halves_text(s)).unwrap_or_default(),
            gor: e.rating.as_ref().map(|c| super::views::text::gor_text(lang, c)).unwrap_or_default(),
        })
        .collect();
    (ranks, events)
}

/// GET /persons/{person}: the staff's page of a person.
pub async fn person_page(ctx: Ctx, path: web::Path<String>) -> Result<HttpResponse, AppError> {
    let pid = id(ctx.lang, &path)?;
    staff_page(&ctx, pid, None).await
}

/// The person's details as the edit form shows them.
fn edit_form(p: &PersonRow) -> FormView {
    let mut f = FormView::default();
    for (k, v) in [
        ("family_name_zh", &p.family_name_zh),
        ("given_name_zh", &p.given_name_zh),
        ("family_name_latin", &p.family_name_latin),
        ("given_name_latin", &p.given_name_latin),
        ("unit", &p.unit),
        ("egd_pin", &p.egd_pin),
        ("federation_id", &p.federation_id),
        ("email", &p.email),
        ("phone", &p.phone),
    ] {
        f.set(k, v);
    }
    f.set("birth_date", p.birth_date.clone().unwrap_or_default());
    f.set("sex", p.sex.clone().unwrap_or_default());
    f
}

async fn staff_page(
    ctx: &Ctx,
    pid: i32,
    banner: Option<(StatusCode, String)>,
) -> Result<HttpResponse, AppError> {
    staff_page_with(ctx, pid, banner, None).await
}

/// The staff page, with a refused edit's form as typed (`typed`) in place of the stored details.
async fn staff_page_with(
    ctx: &Ctx,
    pid: i32,
    banner: Option<(StatusCode, String)>,
    typed: Option<FormView>,
) -> Result<HttpResponse, AppError> {
    let user = ctx.require_organizer()?.clone();
    let lang = ctx.lang;
    let admin = user.admin;
    let (seen, record) = ctx
        .db(move |c| Ok::<_, DbError>((may_see(c, &user, pid)?, crate::office::registry::record(c, pid)?)))
        .await?;
    if !seen {
        return Err(AppError::forbidden(lang));
    }
    let p = &record.person;
    let sex = match p.sex.as_deref() {
        Some("m") => lang.t("e.sex_m").to_string(),
        Some("f") => lang.t("e.sex_f").to_string(),
        _ => String::new(),
    };
    let facts = vec![
        ("e.birth_date", p.birth_date.clone().unwrap_or_default()),
        ("e.sex", sex),
        ("e.unit", p.unit.clone()),
        ("people.egd_pin", p.egd_pin.clone()),
        ("people.federation_id", p.federation_id.clone()),
        ("people.email", p.email.clone()),
        ("people.phone", p.phone.clone()),
    ];
    let (ranks, events) = history(lang, &record);
    let last = record.ranks.last().map(|(r, _)| r.rank.clone());
    let page = PersonStaffPage {
        c: ctx.chrome(names(p, lang.is_zh()).0),
        p: item(lang, p, last.as_deref()),
        facts,
        ranks,
        events,
        admin,
        banner: banner.as_ref().map(|(_, b)| b.clone()),
        edit: typed.unwrap_or_else(|| edit_form(p)),
        version: p.version,
        sexes: super::entrant_form::sex_options(lang),
    };
    ctx.render_status(banner.map_or(StatusCode::OK, |(s, _)| s), &page)
}

/// GET /p/{person}: the public person page (no birth date, no contact).
pub async fn public_page(ctx: Ctx, path: web::Path<String>) -> Result<HttpResponse, AppError> {
    let pid = id(ctx.lang, &path)?;
    let lang = ctx.lang;
    let record = ctx.db(move |c| crate::office::registry::record(c, pid)).await?;
    let (ranks, events) = history(lang, &record);
    let last = record.ranks.last().map(|(r, _)| r.rank.clone());
    let p = item(lang, &record.person, last.as_deref());
    let page = PersonPublicPage { c: ctx.chrome(p.name.clone()), p, ranks, events };
    ctx.render(&page)
}

/// The account administrator, with the person's id from the path (`/persons/{person}/…`).
pub struct Admin {
    pub user: User,
    pub pid: i32,
}

impl Admit for Admin {
    async fn admit(ctx: &Ctx, segments: &[String]) -> Result<Self, AppError> {
        let user = ctx.require_user()?.clone();
        if !user.admin {
            return Err(AppError::forbidden(ctx.lang));
        }
        let [pid] = <[i32; 1]>::parse(segments).ok_or_else(|| ctx.not_found())?;
        Ok(Admin { user, pid })
    }
}

impl Writer for Admin {
    fn user(&self) -> &User {
        &self.user
    }
}

/// GET /persons/{person}/export.json: everything stored about the person (the administrator's,
/// on the person's request).
pub async fn export(ctx: Ctx, path: web::Path<String>) -> Result<HttpResponse, AppError> {
    let pid = id(ctx.lang, &path)?;
    if !ctx.require_user()?.admin {
        return Err(AppError::forbidden(ctx.lang));
    }
    let data = ctx.db(move |c| pdb::export(c, pid)).await?;
    let body = serde_json::to_string_pretty(&data).map_err(|e| AppError::internal(ctx.lang, e))?;
    Ok(HttpResponse::Ok()
        .content_type("application/json; charset=utf-8")
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"tengen-person-{pid}.json\""),
        ))
        .body(body))
}

/// The merge form: the person kept and the one merged into it, each at the version shown.
#[derive(Deserialize)]
pub struct MergeForm {
    keep: i32,
    drop: i32,
    keep_version: i32,
    drop_version: i32,
}

fn refusal(lang: Lang, e: PersonError) -> Result<(StatusCode, String), AppError> {
    match e {
        PersonError::Stale => Ok((StatusCode::CONFLICT, lang.t("people.err_stale").to_string())),
        PersonError::Same => Ok((StatusCode::BAD_REQUEST, lang.t("people.err_same").to_string())),
        PersonError::Db(DbError::NotFound) => Err(AppError::not_found(lang)),
        PersonError::Db(e) => Err(AppError::db(lang, e)),
    }
}

/// POST /persons/merge: two persons made one (entrants and rank history move to `keep`).
pub async fn merge(w: Write<Office, MergeForm>) -> Result<HttpResponse, AppError> {
    let MergeForm { keep, drop, keep_version, drop_version } = w.form;
    let user = w.who.user.clone();
    let seen = w.db(move |c| Ok::<_, DbError>(may_see(c, &user, keep)? && may_see(c, &user, drop)?)).await?;
    if !seen {
        return Err(AppError::forbidden(w.lang));
    }
    let actor = w.actor();
    let reason = w.fields.get("reason").to_string();
    match w.db_raw(move |c| pdb::merge(c, &actor, keep, drop, (keep_version, drop_version), &reason)).await? {
        Ok(()) => Ok(w.redirect(&format!("/persons/{keep}"))),
        Err(e) => {
            let banner = refusal(w.lang, e)?;
            registry(&w, String::new(), Some(banner)).await
        }
    }
}

/// An organizer with the person's id from the path (`/persons/{person}/…`); whether they may
/// see that person is the handler's question (`may_see`).
pub struct PersonOrganizer {
    pub user: User,
    pub pid: i32,
}

impl Admit for PersonOrganizer {
    async fn admit(ctx: &Ctx, segments: &[String]) -> Result<Self, AppError> {
        let user = ctx.require_organizer()?.clone();
        let [pid] = <[i32; 1]>::parse(segments).ok_or_else(|| ctx.not_found())?;
        Ok(PersonOrganizer { user, pid })
    }
}

impl Writer for PersonOrganizer {
    fn user(&self) -> &User {
        &self.user
    }
}

/// POST /persons/{person}/edit: the person's own details corrected (names, birth date, sex,
/// unit, ids, contact), checked by an entrant's rules, versioned and audited; each event's
/// entrant keeps what was entered there.
pub async fn edit(w: Write<PersonOrganizer>) -> Result<HttpResponse, AppError> {
    let pid = w.who.pid;
    let user = w.who.user.clone();
    if !w.db(move |c| may_see(c, &user, pid)).await? {
        return Err(AppError::forbidden(w.lang));
    }
    let version = w.version()?;
    let (mut f, input) = super::entrant_form::person_from_form(w.lang, &w.fields);
    let (email, phone) = (w.fields.get("email").to_string(), w.fields.get("phone").to_string());
    if !email.is_empty() && !crate::domain::registration::email_ok(&email) {
        f.error("email", w.t("reg.err_email"));
    }
    if !phone.is_empty() && !crate::domain::registration::phone_ok(&phone) {
        f.error("phone", w.t("reg.err_phone"));
    }
    let Some(i) = input.filter(|_| !f.has_errors()) else {
        let banner = (StatusCode::BAD_REQUEST, w.t("form.has_errors").to_string());
        return staff_page_with(&w, pid, Some(banner), Some(f)).await;
    };
    let edit = pdb::PersonEdit {
        family_name_zh: i.family_name_zh,
        given_name_zh: i.given_name_zh,
        family_name_latin: i.family_name_latin,
        given_name_latin: i.given_name_latin,
        birth_date: i.birth_date.map(|d| d.format("%Y-%m-%d").to_string()),
        sex: i.sex.map(|s| s.code().to_string()),
        unit: i.unit,
        egd_pin: i.egd_pin,
        federation_id: i.federation_id,
        email,
        phone,
    };
    let (actor, reason) = (w.actor(), w.fields.get("reason").to_string());
    match w.db_raw(move |c| pdb::edit(c, &actor, pid, version, &edit, &reason)).await? {
        Ok(()) => Ok(w.redirect(&format!("/persons/{pid}"))),
        Err(e) => {
            let banner = refusal(w.lang, e)?;
            staff_page_with(&w, pid, Some(banner), Some(f)).await
        }
    }
}

/// POST /persons/{person}/erase: the person deleted on request; past results keep the name.
pub async fn erase(w: Write<Admin>) -> Result<HttpResponse, AppError> {
    let pid = w.who.pid;
    let version = w.version()?;
    let mut f = FormView::from_form(&w.fields);
    super::form::check_reason(w.lang, &w.fields, &mut f);
    if f.has_errors() {
        return staff_page(&w, pid, Some((StatusCode::BAD_REQUEST, w.t("form.has_errors").to_string())))
            .await;
    }
    let (actor, reason) = (w.actor(), w.fields.get("reason").to_string());
    match w.db_raw(move |c| pdb::erase(c, &actor, pid, version, &reason)).await? {
        Ok(()) => Ok(w.redirect(&format!("/persons?erased={pid}"))),
        Err(e) => {
            let banner = refusal(w.lang, e)?;
            staff_page(&w, pid, Some(banner)).await
        }
    }
}

/// The entrant form's registry search: the persons `q` finds in the whole registry (how a
/// player who comes back from another organizer's event is found), each by name, unit and
/// last rank only.
pub(super) fn form_search(c: &mut Conn, lang: Lang, q: &str) -> Result<Vec<PersonItem>, DbError> {
    let mut out = Vec::new();
    for p in pdb::search(c, q, FOUND_MAX)? {
        let rank = last_rank(c, p.id)?;
        out.push(item(lang, &p, rank.as_deref()));
    }
    Ok(out)
}

/// The entrant form filled from the person `pid`: names, unit and the last rank known, and the
/// birth date and sex when `user` may see the person (module documentation); the organizer
/// checks and corrects them for this event.
pub(super) fn form_of_person(c: &mut Conn, user: &User, pid: i32) -> Result<FormView, DbError> {
    let p = pdb::get(c, pid)?;
    let private = may_see(c, user, pid)?;
    let mut f = FormView::default();
    f.set("family_name_zh", &p.family_name_zh);
    f.set("given_name_zh", &p.given_name_zh);
    f.set("family_name_latin", &p.family_name_latin);
    f.set("given_name_latin", &p.given_name_latin);
    f.set("unit", &p.unit);
    if private {
        f.set("birth_date", p.birth_date.clone().unwrap_or_default());
        f.set("sex", p.sex.clone().unwrap_or_default());
    }
    let rated = crate::db::rating_changes::latest_of_person(c, pid)?;
    if let Some(r) = pdb::ranks(c, pid)?.pop() {
        f.set("rank", &r.rank);
        f.set("rating", r.rating.map(|r| r.to_string()).unwrap_or_default());
    }
    // The EGF rating after the person's latest rated event (seed of this entry), over the
    // rating an entry told.
    if let Some(milli) = rated {
        f.set("rating", crate::domain::gor::whole(milli.into()).to_string());
    }
    f.set("person", pid.to_string());
    Ok(f)
}

/// The person picked on the entrant form (`person`), if any: an id that is not a number is a
/// bad form.
pub(super) fn picked(lang: Lang, form: &super::form::Form) -> Result<Option<i32>, AppError> {
    match form.get("person").trim() {
        "" => Ok(None),
        s => s
            .parse::<i32>()
            .map(Some)
            .map_err(|_| AppError::bad_request(lang, lang.t("people.err_person").to_string())),
    }
}
