//! Entrants: the staff list with search and sort, add, edit (refused when stale), withdraw,
//! reinstate, and the public player list.

use crate::i18n::tr;
use std::collections::HashMap;

use super::ctx::{id, Ctx};
pub use super::entrant_form::{entrant_from_form, field_msg, sex_options};
use super::error::AppError;
use super::i18n::Lang;
use super::views::pages::Pager;
use super::views::pages::*;
use super::views::text::rank_text;
use super::write::{checkbox, Organizer, PathIds, Write};
use crate::db::entrants::{self as edb, CreateError, EditError, EntrantRow, Sort};
use crate::db::tournaments as tdb;
use crate::db::users::Role;
use crate::db::DbError;
use crate::domain::duplicates::Match;

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use serde::Deserialize;

/// A registered entrant someone is probably the same person as, and why: "No. 12 王伟 (3d,
/// 北京棋院): same name and birth date". The import preview and the entrant form say it alike.
pub fn duplicate_text(lang: Lang, e: &EntrantRow, m: Match) -> String {
    let name = if e.name_zh().is_empty() { e.name_latin() } else { e.name_zh() };
    let key = match m {
        Match::BirthDate => "e.dup_same_birth",
        Match::Unit => "e.dup_same_unit",
    };
    tr!(lang, key, number = e.id, name, rank = rank_text(lang, &e.rank), unit = e.unit)
}

/// An entrant row as form values.
pub fn entrant_form(e: &EntrantRow) -> FormView {
    let mut f = FormView::default();
    f.set("family_name_zh", &e.family_name_zh);
    f.set("given_name_zh", &e.given_name_zh);
    f.set("family_name_latin", &e.family_name_latin);
    f.set("given_name_latin", &e.given_name_latin);
    f.set("rank", &e.rank);
    f.set("rating", e.rating.map(|r| r.to_string()).unwrap_or_default());
    f.set("unit", &e.unit);
    f.set("region", &e.region);
    f.set("birth_date", e.birth_date.clone().unwrap_or_default());
    f.set("sex", e.sex.clone().unwrap_or_default());
    f.set("notes", &e.notes);
    f.set("egd_pin", &e.egd_pin);
    f.set("federation_id", &e.federation_id);
    f
}

fn sort_options(lang: Lang) -> Options {
    ["rank", "name", "unit", "rating", "id"]
        .iter()
        .map(|s| (s.to_string(), lang.t(&format!("e.sort_{s}")).to_string()))
        .collect()
}

/// Entrants on one page of the staff list (the list of 10,000 was 5.1 MB in one
/// page); the search (characters, pinyin or initials, unit, region) finds one in any page.
pub const ENTRANTS_PER_PAGE: usize = 200;

fn query(q: &[(String, String)], k: &str) -> String {
    q.iter().find(|(n, _)| n == k).map(|(_, v)| v.trim().to_string()).unwrap_or_default()
}

/// The notice after an import (`?imported=N&skipped=K`): how many entrants came in, and how
/// many rows were left out.
fn import_notice(lang: Lang, q: &[(String, String)]) -> Option<String> {
    let n = query(q, "imported").parse::<usize>().ok()?;
    let mut text = tr!(lang, "imp.done", count = n);
    if let Ok(k) = query(q, "skipped").parse::<usize>() {
        if k > 0 {
            text = format!("{text} {}", tr!(lang, "imp.done_skipped", count = k));
        }
    }
    // Which rows the registry knew (an EGD PIN, or Chinese name and birth date) and which
    // became new persons.
    if let (Ok(linked), Ok(created)) =
        (query(q, "linked").parse::<usize>(), query(q, "created").parse::<usize>())
    {
        text = format!("{text} {}", tr!(lang, "people.import_linked", linked, created));
    }
    Some(text)
}

/// The entrant list's rows, each with its pairing number (`numbers`, by entrant id).
fn entrant_items(lang: Lang, rows: &[EntrantRow], numbers: &HashMap<i32, u32>) -> Vec<EntrantItem> {
    rows.iter()
        .map(|e| EntrantItem {
            id: e.id,
            number: numbers.get(&e.id).copied().unwrap_or(0),
            name_zh: e.name_zh(),
            name_latin: e.name_latin(),
            rank: rank_text(lang, &e.rank),
            rating: e.rating.map(|r| r.to_string()).unwrap_or_default(),
            unit: e.unit.clone(),
            region: e.region.clone(),
            withdrawn: e.withdrawn(),
            withdrawal: withdrawal_status(lang, e),
        })
        .collect()
}

/// A withdrawn entrant's withdrawal as the staff list shows it (the round, the date, the
/// reason); empty for the others and for a status imported without them.
fn withdrawal_status(lang: Lang, e: &EntrantRow) -> String {
    match (e.withdrawn(), e.withdrawn_from_round, &e.withdrawn_on) {
        (true, Some(round), Some(date)) => {
            tr!(lang, "wd.status", round, date = date.as_str(), reason = e.withdrawal_reason.as_str())
        }
        _ => String::new(),
    }
}

pub async fn list(
    ctx: Ctx,
    path: web::Path<String>,
    q: web::Query<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    let tid = id(ctx.lang, &path)?;
    let (_, role) = ctx.require_staff(tid, Role::Arbiter).await?;
    let search: String = query(&q, "q").chars().take(100).collect();
    let sort = Sort::from_code(&query(&q, "sort"));
    let page_asked = Pager::parse(&query(&q, "page"))
        .ok_or_else(|| AppError::bad_request(ctx.lang, ctx.t("e.err_page").to_string()))?;
    let s2 = search.clone();
    let (t, rows, numbers) = ctx
        .db(move |c| {
            Ok::<_, DbError>((
                tdb::get(c, tid)?,
                edb::list(c, tid, &s2, sort)?,
                crate::db::rounds::numbers_of(c, tid)?,
            ))
        })
        .await?;
    let lang = ctx.lang;
    let notice = import_notice(lang, &q);
    let base = format!(
        "/t/{tid}/entrants?{}",
        serde_urlencoded::to_string([("q", search.as_str()), ("sort", sort.code())]).unwrap_or_default()
    );
    let pager = Pager::new(rows.len(), page_asked, ENTRANTS_PER_PAGE, &base);
    let total = rows.len();
    let rows = entrant_items(lang, &rows[pager.range()], &numbers);
    let page = EntrantsPage {
        c: ctx.chrome_t(&t, true, ctx.t("e.list_title")),
        tid,
        rows,
        total,
        pager,
        q: search,
        sort: sort.code().to_string(),
        sorts: sort_options(lang),
        can_edit: role == Role::Organizer,
        notice,
    };
    ctx.render(&page)
}

/// GET /t/{id}/players: the entrants as the public sees them (by rank, with their pairing
/// numbers). Served through the public cache (`public::Kind::Players`); `frame` makes the page
/// frame from the tournament and the title.
pub fn public_players_page(
    c: &mut crate::db::Conn,
    tid: i32,
    lang: Lang,
    frame: impl FnOnce(&crate::db::tournaments::TournamentRow, String) -> Chrome,
) -> Result<PlayersPage, DbError> {
    let t = tdb::get(c, tid)?;
    let rows = edb::list(c, tid, "", Sort::Rank)?;
    let numbers = crate::db::rounds::pairing_numbers(&rows);
    let zh = lang.is_zh();
    let n_active = rows.iter().filter(|e| !e.withdrawn()).count();
    let rows = rows
        .iter()
        .map(|e| {
            let (a, b) = (e.name_zh(), e.name_latin());
            let (name, other) = if zh || b.is_empty() { (a, b) } else { (b, a) };
            let (name, other) = if name.is_empty() { (other, String::new()) } else { (name, other) };
            PlayerItem {
                number: numbers.get(&e.id).copied().unwrap_or(0),
                name,
                other_name: other,
                rank: rank_text(lang, &e.rank),
                unit: e.unit.clone(),
                region: e.region.clone(),
                withdrawn: e.withdrawn(),
            }
        })
        .collect();
    Ok(PlayersPage { c: frame(&t, lang.t("public.players_title").to_string()), rows, n_active })
}

/// What the entrant form shows besides the entry: a banner, the registered entrants a new one
/// probably is (adding them needs the confirmation box), and the page's status.
struct Shown {
    f: FormView,
    banner: Option<String>,
    duplicates: Vec<String>,
    status: StatusCode,
    /// A new entrant's registry search: what was typed and the persons found.
    find: String,
    found: Vec<super::views::registry::PersonItem>,
}

impl Shown {
    fn entry(f: FormView) -> Shown {
        Shown {
            f,
            banner: None,
            duplicates: Vec::new(),
            status: StatusCode::OK,
            find: String::new(),
            found: Vec::new(),
        }
    }
    fn refused(f: FormView, banner: String, status: StatusCode) -> Shown {
        Shown { banner: Some(banner), status, ..Shown::entry(f) }
    }
}

/// The entrant form: a new entrant's (`eid` none) or an entrant's at `version`.
async fn form_page(
    ctx: &Ctx,
    tid: i32,
    eid: Option<i32>,
    version: i32,
    shown: Shown,
) -> Result<HttpResponse, AppError> {
    let lang = ctx.lang;
    let (t, move_to) = ctx
        .db(move |c| {
            let moves = match eid {
                Some(_) => crate::db::event_pages::move_targets(c, tid)?
                    .iter()
                    .map(|g| (g.id().to_string(), super::views::events::group_name(lang, &g.fields)))
                    .collect(),
                None => Vec::new(),
            };
            Ok::<_, DbError>((tdb::get(c, tid)?, moves))
        })
        .await?;
    let (title, action) = match eid {
        Some(e) => (ctx.t("e.edit_title"), format!("/t/{tid}/entrants/{e}/edit")),
        None => (ctx.t("e.new_title"), format!("/t/{tid}/entrants/new")),
    };
    let Shown { f, banner, duplicates, status, find, found } = shown;
    let page = EntrantFormPage {
        c: ctx.chrome_t(&t, true, title),
        tid,
        eid,
        action,
        version,
        f,
        sexes: sex_options(ctx.lang),
        banner,
        duplicates,
        move_to,
        find,
        found,
    };
    ctx.render_status(status, &page)
}

/// The entrant's edit page as stored, with a banner: a move to another group refused.
pub(super) async fn edit_refused(
    ctx: &Ctx,
    tid: i32,
    eid: i32,
    banner: String,
    status: StatusCode,
) -> Result<HttpResponse, AppError> {
    let e = ctx.db(move |c| edb::get(c, tid, eid)).await?;
    form_page(ctx, tid, Some(eid), e.version, Shown::refused(entrant_form(&e), banner, status)).await
}

/// Nothing written: the form comes back filled in, with whom it probably duplicates and the
/// box that confirms a different person (or the same one entered twice on purpose).
fn duplicates(lang: Lang, f: FormView, found: &[(EntrantRow, Match)]) -> Shown {
    let duplicates = found.iter().map(|(e, m)| duplicate_text(lang, e, *m)).collect();
    Shown { duplicates, ..Shown::refused(f, lang.t("e.dup_banner").to_string(), StatusCode::CONFLICT) }
}

/// GET /t/{id}/entrants/new: the form, with the registry search (`find`: characters,
/// pinyin, initials) and, once a person is picked (`person`), the form filled from them.
pub async fn new_page(
    ctx: Ctx,
    path: web::Path<String>,
    q: web::Query<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    let tid = id(ctx.lang, &path)?;
    let (user, _) = ctx.require_staff(tid, Role::Organizer).await?;
    let find: String = query(&q, "find").chars().take(100).collect();
    let pick = match query(&q, "person") {
        s if s.is_empty() => None,
        s => Some(id(ctx.lang, &s)?),
    };
    let (lang, find2) = (ctx.lang, find.clone());
    let (f, found) = ctx
        .db(move |c| {
            let f = match pick {
                Some(pid) => super::persons::form_of_person(c, &user, pid)?,
                None => FormView::default(),
            };
            let found =
                if find2.is_empty() { Vec::new() } else { super::persons::form_search(c, lang, &find2)? };
            Ok::<_, DbError>((f, found))
        })
        .await?;
    form_page(&ctx, tid, None, 0, Shown { find, found, ..Shown::entry(f) }).await
}

/// The entrant form's own tick box: add the entrant although they look like one registered.
#[derive(Deserialize)]
pub struct EntrantForm {
    #[serde(default, deserialize_with = "checkbox")]
    confirm_duplicate: bool,
}

/// POST /t/{id}/entrants/new.
pub async fn create(w: Write<Organizer, EntrantForm>) -> Result<HttpResponse, AppError> {
    let [tid] = w.who.ids;
    let (f, input) = entrant_from_form(w.lang, &w.fields);
    let Some(input) = input else {
        let shown = Shown::refused(f, w.t("form.has_errors").to_string(), StatusCode::BAD_REQUEST);
        return form_page(&w, tid, None, 0, shown).await;
    };
    let (actor, allow) = (w.actor(), w.form.confirm_duplicate);
    let person = super::persons::picked(w.lang, &w.fields)?;
    match w.db_raw(move |c| edb::create(c, &actor, tid, &input, allow, person)).await? {
        Ok(_) => Ok(w.redirect(&format!("/t/{tid}/entrants"))),
        Err(CreateError::Db(DbError::NotFound)) => {
            let banner = w.t("people.err_person").to_string();
            form_page(&w, tid, None, 0, Shown::refused(f, banner, StatusCode::BAD_REQUEST)).await
        }
        Err(CreateError::Duplicates(found)) => {
            form_page(&w, tid, None, 0, duplicates(w.lang, f, &found)).await
        }
        Err(CreateError::Db(e)) => Err(AppError::internal(w.lang, e)),
    }
}

pub async fn edit_page(ctx: Ctx, path: web::Path<(String, String)>) -> Result<HttpResponse, AppError> {
    let [tid, eid] = ctx.ids([&path.0, &path.1])?;
    ctx.require_staff(tid, Role::Organizer).await?;
    let e = ctx.db(move |c| edb::get(c, tid, eid)).await?;
    form_page(&ctx, tid, Some(eid), e.version, Shown::entry(entrant_form(&e))).await
}

/// POST /t/{id}/entrants/{eid}/edit: refused when stale, the refused entry kept.
pub async fn save(w: Write<Organizer<[i32; 2]>, EntrantForm>) -> Result<HttpResponse, AppError> {
    let [tid, eid] = w.who.ids;
    let current = w.db(move |c| edb::get(c, tid, eid)).await?;
    let version = w.version()?;
    let (f, input) = entrant_from_form(w.lang, &w.fields);
    let Some(input) = input else {
        let shown = Shown::refused(f, w.t("form.has_errors").to_string(), StatusCode::BAD_REQUEST);
        return form_page(&w, tid, Some(eid), version, shown).await;
    };
    let (actor, reason, allow) = (w.actor(), w.fields.get("reason").to_string(), w.form.confirm_duplicate);
    match w.db_raw(move |c| edb::update(c, &actor, tid, eid, version, &input, &reason, allow)).await? {
        Ok(_) => Ok(w.redirect(&format!("/t/{tid}/entrants"))),
        Err(EditError::Duplicates(found)) => {
            form_page(&w, tid, Some(eid), version, duplicates(w.lang, f, &found)).await
        }
        Err(EditError::Stale { current: v }) => {
            // Show what is stored now, with the refused edit's values kept in the form so the
            // user can redo it on top of the newer version.
            let banner =
                tr!(w.lang, "e.err_stale", name_zh = current.name_zh(), name_latin = current.name_latin());
            form_page(&w, tid, Some(eid), v, Shown::refused(f, banner, StatusCode::CONFLICT)).await
        }
        Err(EditError::Db(e)) => Err(AppError::db(w.lang, e)),
    }
}

/// The path of a withdrawal or a reinstatement: `/t/{id}/entrants/{eid}/withdraw|reinstate`.
pub struct StatusPath {
    tid: i32,
    eid: i32,
    withdrawn: bool,
}

impl PathIds for StatusPath {
    fn parse(segments: &[String]) -> Option<Self> {
        let [tid, eid] = <[i32; 2]>::parse(segments)?;
        let withdrawn = match segments.get(2)?.as_str() {
            "withdraw" => true,
            "reinstate" => false,
            _ => return None,
        };
        Some(StatusPath { tid, eid, withdrawn })
    }
    fn key(&self) -> i32 {
        self.tid
    }
}

/// The withdrawal form (退赛): reason (required), the venue's date (today there by default,
/// never later) and 公开原因; `f` holds what was typed and its errors.
async fn withdraw_form(
    ctx: &Ctx,
    tid: i32,
    e: &EntrantRow,
    version: i32,
    f: FormView,
    refused: Option<(StatusCode, String)>,
) -> Result<HttpResponse, AppError> {
    let t = ctx.db(move |c| tdb::get(c, tid)).await?;
    let today = crate::domain::event_time::date_text(crate::machine::today_in(t.zone()));
    let name = super::views::text::display_name(e, ctx.lang.is_zh());
    let page = WithdrawPage {
        c: ctx.chrome_t(&t, true, tr!(ctx.lang, "wd.title", name)),
        tid,
        eid: e.id,
        version,
        today,
        f,
        banner: refused.as_ref().map(|(_, b)| b.clone()),
    };
    ctx.render_status(refused.map_or(StatusCode::OK, |(s, _)| s), &page)
}

/// GET /t/{id}/entrants/{eid}/withdraw: the withdrawal form.
pub async fn withdraw_page(ctx: Ctx, path: web::Path<(String, String)>) -> Result<HttpResponse, AppError> {
    let [tid, eid] = ctx.ids([&path.0, &path.1])?;
    ctx.require_staff(tid, Role::Organizer).await?;
    let e = ctx.db(move |c| edb::get(c, tid, eid)).await?;
    withdraw_form(&ctx, tid, &e, e.version, FormView::default(), None).await
}

/// The withdrawal form's refusals in the reader's language.
fn withdrawal_refusal(lang: Lang, r: crate::domain::withdrawal::Refusal, today: &str) -> String {
    use crate::domain::withdrawal::Refusal;
    match r {
        Refusal::ReasonMissing => lang.t("wd.err_reason_missing").to_string(),
        Refusal::DateUnreadable => lang.t("wd.err_date").to_string(),
        Refusal::DateInFuture => tr!(lang, "wd.err_future", today),
    }
}

/// POST /t/{id}/entrants/{eid}/withdraw with the withdrawal's reason (`reason`), date
/// (`withdrawn_on`) and `reason_public`, at `version` when the form carries it; or
/// /reinstate with a reason for the audit. A refused withdrawal shows its form again with
/// what was typed (400), a stale one the current version (409).
pub async fn status(w: Write<Organizer<StatusPath>>) -> Result<HttpResponse, AppError> {
    let StatusPath { tid, eid, withdrawn } = w.who.ids;
    let e = w.db(move |c| edb::get(c, tid, eid)).await?;
    let version = w.optional::<i32>("version")?.unwrap_or(e.version);
    let actor = w.actor();
    if !withdrawn {
        let reason = w.reason("reason")?;
        return match w.db_raw(move |c| edb::reinstate(c, &actor, tid, eid, version, &reason)).await? {
            Ok(()) => Ok(w.redirect(&format!("/t/{tid}/entrants"))),
            Err(EditError::Stale { .. }) => {
                let banner = tr!(w.lang, "e.err_stale", name_zh = e.name_zh(), name_latin = e.name_latin());
                Err(AppError::msg(StatusCode::CONFLICT, w.lang, banner))
            }
            Err(EditError::Duplicates(_)) => {
                Err(AppError::bad_request(w.lang, w.t("form.has_errors").to_string()))
            }
            Err(EditError::Db(e)) => Err(AppError::db(w.lang, e)),
        };
    }
    let bad = |w: &Ctx| Some((StatusCode::BAD_REQUEST, w.t("form.has_errors").to_string()));
    let t = w.db(move |c| tdb::get(c, tid)).await?;
    let today_date = crate::machine::today_in(t.zone());
    let today = crate::domain::event_time::date_text(today_date);
    let mut f = FormView::from_form(&w.fields);
    super::form::check_reason(w.lang, &w.fields, &mut f);
    let public = w.fields.checked("reason_public");
    let checked = crate::domain::withdrawal::check(
        w.fields.get("reason"),
        w.fields.get("withdrawn_on"),
        public,
        today_date,
    );
    let withdrawal = match checked {
        Ok(wd) if !f.has_errors() => wd,
        Ok(_) => return withdraw_form(&w, tid, &e, version, f, bad(&w)).await,
        Err(refusals) => {
            for r in refusals {
                let field = match r.field() {
                    "withdrawal_reason" => "reason",
                    other => other,
                };
                f.error(field, withdrawal_refusal(w.lang, r, &today));
            }
            return withdraw_form(&w, tid, &e, version, f, bad(&w)).await;
        }
    };
    match w.db_raw(move |c| edb::withdraw(c, &actor, tid, eid, version, &withdrawal)).await? {
        Ok(()) => Ok(w.redirect(&format!("/t/{tid}/entrants"))),
        Err(EditError::Stale { current }) => {
            let now = w.db(move |c| edb::get(c, tid, eid)).await?;
            let banner = tr!(w.lang, "e.err_stale", name_zh = now.name_zh(), name_latin = now.name_latin());
            withdraw_form(&w, tid, &now, current, f, Some((StatusCode::CONFLICT, banner))).await
        }
        Err(EditError::Duplicates(_)) => {
            Err(AppError::bad_request(w.lang, w.t("form.has_errors").to_string()))
        }
        Err(EditError::Db(e)) => Err(AppError::db(w.lang, e)),
    }
}
