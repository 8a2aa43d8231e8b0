//! Rating lists (等级分名单) of a tournament: `/t/{id}/rating-lists` lists them and takes a
//! new one (EGF, FFG, AGA or CSV, with its date: the file's when it says one, else typed);
//! `/t/{id}/rating-list/{list}` shows every entrant beside the row that matched (by id, then
//! by name) with the differences and a box each, none ticked; applying writes the ticked
//! entrants' rank, rating, unit and id (`office::rating_lists::apply`), before round 1 only.

use super::ctx::{id, Ctx};
use super::error::AppError;
use super::views::rating_lists::*;
use super::write::{Organizer, Upload, Write};
use crate::db::rating_lists as rdb;
use crate::db::tournaments as tdb;
use crate::db::users::Role;
use crate::domain::entrant::Rank;
use crate::domain::event_time;
use crate::domain::rating_lists::{MatchedBy, Refusal, Source};
use crate::formats::rating_lists as lists;
use crate::i18n::{tr, Lang};
use crate::office::rating_lists::{self as office, ApplyError, Pick};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};

fn source_label(lang: Lang, s: Source) -> String {
    lang.t(&format!("rl.source_{}", s.code())).to_string()
}

/// The upload form as typed (kept when refused).
fn upload_form(lang: Lang, f: Option<&super::form::Form>) -> UploadForm {
    let get = |k: &str| f.map(|f| f.get(k).to_string()).unwrap_or_default();
    let chosen = Source::from_code(&get("source")).unwrap_or(Source::Egf);
    UploadForm {
        sources: Source::ALL
            .iter()
            .map(|s| (s.code().to_string(), source_label(lang, *s), *s == chosen))
            .collect(),
        name: get("name"),
        date: get("list_date"),
    }
}

async fn lists_page(
    ctx: &Ctx,
    tid: i32,
    form: UploadForm,
    banner: Option<String>,
    status: StatusCode,
) -> Result<HttpResponse, AppError> {
    let (t, stored) = ctx.db(move |c| Ok((tdb::get(c, tid)?, rdb::list(c, tid)?))).await?;
    let lang = ctx.lang;
    let rows = stored
        .iter()
        .map(|l| ListLine {
            id: l.id,
            name: l.name.clone(),
            source: source_label(lang, l.source()),
            date: l.list_date.clone(),
            imported: tr!(
                lang,
                "rl.imported",
                by = l.imported_by.clone(),
                at = t.zone().date_time(&l.imported_at)
            ),
            rows: l.row_count,
        })
        .collect();
    let page = RatingListsPage { c: ctx.chrome_t(&t, true, ctx.t("rl.title")), tid, rows, form, banner };
    ctx.render_status(status, &page)
}

/// GET /t/{id}/rating-lists
pub async fn page(ctx: Ctx, path: web::Path<String>) -> Result<HttpResponse, AppError> {
    let tid = id(ctx.lang, &path)?;
    ctx.require_staff(tid, Role::Organizer).await?;
    lists_page(&ctx, tid, upload_form(ctx.lang, None), None, StatusCode::OK).await
}

/// POST /t/{id}/rating-lists: a list file read whole and stored with its rows, or refused
/// (400, the line named) with nothing written.
pub async fn upload(w: Upload<Organizer>) -> Result<HttpResponse, AppError> {
    let [tid] = w.who.ids;
    let refuse = |banner: String| {
        lists_page(&w, tid, upload_form(w.lang, Some(&w.fields)), Some(banner), StatusCode::BAD_REQUEST)
    };
    let Some(source) = Source::from_code(w.fields.get("source")) else {
        return Err(AppError::bad_form(w.lang));
    };
    let Some(file) = w.fields.file("file").filter(|f| !f.data.is_empty()) else {
        return refuse(w.t("imp.err_no_file").to_string()).await;
    };
    let name = w.fields.get("name").trim().to_string();
    if let Some(e) = super::form::text_error(w.lang, &name, MAX_NAME, super::form::Lines::One) {
        return refuse(e).await;
    }
    let parsed = match lists::parse(source, &file.data) {
        Ok(p) => p,
        Err(e) => {
            return refuse(tr!(w.lang, "rl.err_unreadable", error = w.lang.rating_list_error(&e))).await
        }
    };
    let typed = w.fields.get("list_date").trim();
    let date = match (parsed.date, typed) {
        (Some(d), _) => d,
        (None, "") => return refuse(w.t("rl.err_no_date").to_string()).await,
        (None, s) => match crate::domain::entrant::parse_date(s) {
            Ok(d) => d,
            Err(_) => return refuse(tr!(w.lang, "rl.err_bad_date", value = s.to_string())).await,
        },
    };
    let name = if name.is_empty() {
        format!("{} {}", source_label(w.lang, source), event_time::date_text(date))
    } else {
        name
    };
    let actor = w.actor();
    let lid = w.db(move |c| rdb::insert(c, &actor, tid, source, &name, date, &parsed.rows)).await?;
    Ok(w.redirect(&format!("/t/{tid}/rating-list/{lid}")))
}

/// The longest name of a list.
const MAX_NAME: usize = 100;

fn rule_text(lang: Lang, by: MatchedBy) -> String {
    lang.t(match by {
        MatchedBy::Id => "rl.by_id",
        MatchedBy::LatinName => "rl.by_latin",
        MatchedBy::ChineseName => "rl.by_chinese",
    })
    .to_string()
}

/// "2k → 3d", or the value alone when it does not change.
fn change(from: String, to: Option<String>) -> (String, bool) {
    match to {
        Some(to) => (format!("{from} → {to}"), true),
        None => (from, false),
    }
}

async fn match_page(
    ctx: &Ctx,
    tid: i32,
    lid: i32,
    banner: Option<(String, bool)>,
    status: StatusCode,
) -> Result<HttpResponse, AppError> {
    let (t, (list, props), published) = ctx
        .db(move |c| {
            Ok((tdb::get(c, tid)?, office::proposals(c, tid, lid)?, tdb::published_rounds(c, tid)?.0))
        })
        .await?;
    let lang = ctx.lang;
    let rank = |r: Option<Rank>| r.map(|r| lang.rank(r)).unwrap_or_default();
    let rating = |r: Option<i32>| r.map(|r| r.to_string()).unwrap_or_default();
    let lines: Vec<MatchLine> = props
        .iter()
        .map(|p| {
            let e = &p.entrant;
            let name = if lang.is_zh() && !e.name_zh().is_empty() { e.name_zh() } else { e.name_latin() };
            let name = if name.is_empty() { e.name_zh() } else { name };
            match &p.row {
                None => MatchLine {
                    entrant: e.id,
                    name,
                    pick: None,
                    ..MatchLine::unmatched(
                        rank(e.rank_parsed()),
                        rating(e.rating),
                        e.unit.clone(),
                        lang.t("rl.no_match").to_string(),
                    )
                },
                Some((row, by, ch)) => {
                    let (rank_text, rank_changes) =
                        change(rank(e.rank_parsed()), ch.rank.map(|r| lang.rank(r)));
                    let (rating_text, rating_changes) =
                        change(rating(e.rating), ch.rating.map(|r| r.to_string()));
                    let (unit_text, unit_changes) = change(e.unit.clone(), ch.unit.clone());
                    let row_name = format!("{} {}", row.family, row.given).trim().to_string();
                    MatchLine {
                        entrant: e.id,
                        name,
                        row: format!("{} · {}", row.key, row_name),
                        rule: rule_text(lang, *by),
                        rank: rank_text,
                        rank_changes,
                        rating: rating_text,
                        rating_changes,
                        unit: unit_text,
                        unit_changes,
                        id: ch.id.clone().unwrap_or_default(),
                        pick: (!ch.is_empty())
                            .then(|| Pick { entrant: e.id, version: e.version, line: row.line }.value()),
                    }
                }
            }
        })
        .collect();
    let matched = props.iter().filter(|p| p.row.is_some()).count();
    let page = RatingListPage {
        c: ctx.chrome_t(&t, true, tr!(lang, "rl.match_title", name = list.name.clone())),
        tid,
        lid,
        summary: tr!(
            lang,
            "rl.match_summary",
            source = source_label(lang, list.source()),
            date = list.list_date.clone(),
            rows = list.row_count,
            matched,
            entrants = props.len()
        ),
        locked: (published > 0).then(|| lang.t("rl.err_published").to_string()),
        lines,
        banner,
    };
    ctx.render_status(status, &page)
}

/// GET /t/{id}/rating-list/{list}
pub async fn show(
    ctx: Ctx,
    path: web::Path<(String, String)>,
    q: web::Query<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    let [tid, lid] = ctx.ids([&path.0, &path.1])?;
    ctx.require_staff(tid, Role::Organizer).await?;
    let done = q.iter().find(|(k, _)| k == "applied").and_then(|(_, n)| n.parse::<usize>().ok());
    let banner = done.map(|n| (tr!(ctx.lang, "rl.applied", count = n), true));
    match_page(&ctx, tid, lid, banner, StatusCode::OK).await
}

/// POST /t/{id}/rating-list/{list}/apply: the ticked entrants' changes, all or none.
pub async fn apply(w: Write<Organizer<[i32; 2]>>) -> Result<HttpResponse, AppError> {
    let [tid, lid] = w.who.ids;
    let mut picks = Vec::new();
    for v in w.fields.all("pick") {
        picks.push(Pick::parse(v).ok_or_else(|| AppError::bad_form(w.lang))?);
    }
    let actor = w.actor();
    let refused = |key: &str, status| (Some((w.t(key).to_string(), false)), status);
    let (banner, status) = match w.db_raw(move |c| office::apply(c, &actor, tid, lid, &picks)).await? {
        Ok(n) => return Ok(w.redirect(&format!("/t/{tid}/rating-list/{lid}?applied={n}"))),
        Err(ApplyError::Refused(Refusal::RoundPublished)) => {
            refused("rl.err_published", StatusCode::CONFLICT)
        }
        Err(ApplyError::NothingTicked) => refused("rl.err_nothing", StatusCode::BAD_REQUEST),
        Err(ApplyError::Stale { .. }) => refused("rl.err_stale", StatusCode::CONFLICT),
        Err(ApplyError::Db(e)) => return Err(AppError::db(w.lang, e)),
    };
    match_page(&w, tid, lid, banner, status).await
}
