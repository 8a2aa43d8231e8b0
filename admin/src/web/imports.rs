//! Imports with a preview (CSV, OpenGotha XML) and the CSV export. Parsing is the import
//! module's; this file only carries bytes between the preview and the confirmation, and writes
//! everything in one transaction (after an automatic backup when the import replaces data).

use super::ctx::{id, Ctx};
use super::error::AppError;
use super::form::{hex_decode, hex_encode, Form};
use super::i18n::Lang;
use super::templates::{ImportPage, Preview};
use crate::db::entrants::{self as edb, ImportGame, Sort};
use crate::db::tournaments as tdb;
use crate::db::users::Role;
use crate::db::{backup, DbError};
use crate::domain::entrant::{EntrantInput, FieldError};
use crate::import::{csv as csv_import, opengotha};
use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpResponse};

/// What a parsed upload offers: valid entrants with their line, bad lines with reasons, games.
struct Parsed {
    good: Vec<(usize, EntrantInput)>,
    bad: Vec<(usize, String)>,
    games: Vec<ImportGame>,
    /// Extra summary text (e.g. the OpenGotha tournament's name and rounds).
    about: String,
}

fn row_errors(lang: Lang, errs: &[FieldError]) -> String {
    errs.iter()
        .map(|e| if lang.is_zh() { e.zh_with_label() } else { e.en_with_label() })
        .collect::<Vec<_>>()
        .join("; ")
}

fn parse_csv(lang: Lang, bytes: &[u8]) -> Result<Parsed, String> {
    let preview =
        csv_import::parse_entrants(bytes).map_err(|e| if lang.is_zh() { e.zh() } else { e.en() })?;
    let about = preview
        .warnings
        .iter()
        .map(|w| if lang.is_zh() { w.zh() } else { w.en() })
        .collect::<Vec<_>>()
        .join(" ");
    let mut good = Vec::new();
    let mut bad = Vec::new();
    for r in preview.rows {
        let msg = if lang.is_zh() { r.zh() } else { r.en() };
        match r.input {
            Some(i) if r.errors.is_empty() => good.push((r.line, i)),
            _ => bad.push((r.line, msg)),
        }
    }
    Ok(Parsed { good, bad, games: Vec::new(), about })
}

fn parse_og(lang: Lang, bytes: &[u8]) -> Result<Parsed, String> {
    let og = opengotha::parse_opengotha(bytes).map_err(|e| if lang.is_zh() { e.zh() } else { e.en() })?;
    let mut good = Vec::new();
    let mut bad = Vec::new();
    let mut keys = Vec::new();
    for (i, p) in og.players.into_iter().enumerate() {
        match p.entrant.clone().cleaned() {
            Ok(e) => {
                keys.push(p.key.clone());
                good.push((i + 1, e));
            }
            Err(errs) => bad.push((i + 1, format!("{}: {}", p.key, row_errors(lang, &errs)))),
        }
    }
    let index = |k: &str| keys.iter().position(|x| x == k);
    let mut games: Vec<ImportGame> = og
        .games
        .iter()
        .map(|g| ImportGame {
            round: i32::try_from(g.round).unwrap_or(0),
            board: i32::try_from(g.table).unwrap_or(0),
            black: index(&g.black_key),
            white: index(&g.white_key),
            handicap: i32::from(g.handicap),
            result: g.result.code(),
        })
        .collect();
    // A bye is stored as a game without a White player.
    games.extend(og.byes.iter().map(|b| ImportGame {
        round: i32::try_from(b.round).unwrap_or(0),
        board: 0,
        black: index(&b.player_key),
        white: None,
        handicap: 0,
        result: "BYE".into(),
    }));
    let rounds = og.rounds.unwrap_or_else(|| og.games.iter().map(|g| g.round).max().unwrap_or(0));
    let name = og.name.clone().or(og.short_name.clone()).unwrap_or_default();
    let about = lang.tf("imp.og_about", &[&name, &rounds, &og.games.len()]);
    Ok(Parsed { good, bad, games, about })
}

fn preview(lang: Lang, p: &Parsed, payload: &[u8], confirm_action: String) -> Preview {
    let mut summary = lang.tf("imp.summary", &[&(p.good.len() + p.bad.len()), &p.good.len(), &p.bad.len()]);
    if !p.about.is_empty() {
        summary = format!("{} {summary}", p.about);
    }
    Preview {
        summary,
        bad: p.bad.clone(),
        good: p
            .good
            .iter()
            .map(|(line, e)| {
                let name = if e.full_name_zh().is_empty() { e.full_name_latin() } else { e.full_name_zh() };
                (*line, name, if lang.is_zh() { e.rank.zh() } else { e.rank.en() }, e.unit.clone())
            })
            .collect(),
        payload: hex_encode(payload),
        confirm_action,
    }
}

async fn page_with(
    ctx: &Ctx,
    tid: i32,
    preview: Option<Preview>,
    banner: Option<String>,
    status: StatusCode,
) -> Result<HttpResponse, AppError> {
    let t = ctx.db(move |c| tdb::get(c, tid)).await?;
    ctx.render_status(
        status,
        &ImportPage { c: ctx.chrome_t(&t, true, ctx.t("imp.title")), tid, preview, banner },
    )
}

pub async fn page(ctx: Ctx, path: web::Path<String>) -> Result<HttpResponse, AppError> {
    let tid = id(ctx.lang, &path)?;
    ctx.require_staff(tid, Role::Organizer).await?;
    page_with(&ctx, tid, None, None, StatusCode::OK).await
}

type ParseFn = fn(Lang, &[u8]) -> Result<Parsed, String>;

fn kind(name: &str) -> (ParseFn, &'static str) {
    match name {
        "opengotha" => (parse_og, "opengotha"),
        _ => (parse_csv, "csv"),
    }
}

async fn do_preview(ctx: Ctx, tid: i32, body: web::Bytes, which: &str) -> Result<HttpResponse, AppError> {
    ctx.require_staff(tid, Role::Organizer).await?;
    let form: Form = ctx.form(&body)?;
    let (parse, slug) = kind(which);
    let Some(file) = form.file("file").filter(|f| !f.data.is_empty()) else {
        let banner = Some(ctx.t("imp.err_no_file").to_string());
        return page_with(&ctx, tid, None, banner, StatusCode::BAD_REQUEST).await;
    };
    match parse(ctx.lang, &file.data) {
        Ok(p) => {
            let pv = preview(ctx.lang, &p, &file.data, format!("/t/{tid}/import/{slug}/confirm"));
            page_with(&ctx, tid, Some(pv), None, StatusCode::OK).await
        }
        Err(e) => {
            let banner = Some(ctx.lang.tf("imp.err_unreadable", &[&e]));
            page_with(&ctx, tid, None, banner, StatusCode::BAD_REQUEST).await
        }
    }
}

async fn do_confirm(ctx: Ctx, tid: i32, body: web::Bytes, which: &str) -> Result<HttpResponse, AppError> {
    let (user, form) = ctx.staff_form(tid, Role::Organizer, &body).await?;
    let (parse, slug) = kind(which);
    let Some(bytes) = hex_decode(form.get("payload")).filter(|b| !b.is_empty()) else {
        let banner = Some(ctx.t("imp.err_no_file").to_string());
        return page_with(&ctx, tid, None, banner, StatusCode::BAD_REQUEST).await;
    };
    let p = match parse(ctx.lang, &bytes) {
        Ok(p) => p,
        Err(e) => {
            let banner = Some(ctx.lang.tf("imp.err_unreadable", &[&e]));
            return page_with(&ctx, tid, None, banner, StatusCode::BAD_REQUEST).await;
        }
    };
    let action = format!("/t/{tid}/import/{slug}/confirm");
    if !p.bad.is_empty() && !form.checked("drop_bad") {
        let banner = Some(ctx.lang.tf("imp.err_bad_rows", &[&p.bad.len()]));
        let pv = preview(ctx.lang, &p, &bytes, action);
        return page_with(&ctx, tid, Some(pv), banner, StatusCode::UNPROCESSABLE_ENTITY).await;
    }
    if p.good.is_empty() {
        let banner = Some(ctx.t("imp.err_nothing").to_string());
        return page_with(&ctx, tid, None, banner, StatusCode::UNPROCESSABLE_ENTITY).await;
    }
    let replace = form.checked("replace");
    let inputs: Vec<EntrantInput> = p.good.into_iter().map(|(_, e)| e).collect();
    let games = p.games;
    let n = inputs.len();
    let actor = user.actor();
    let db_path = ctx.state.db_path.clone();
    let source = if p.bad.is_empty() {
        format!("{slug} import")
    } else {
        format!("{slug} import, {} bad rows dropped", p.bad.len())
    };
    ctx.db(move |c| {
        let source = if replace && edb::count(c, tid)? > 0 {
            let file = backup::auto_backup(&db_path, &format!("before-import-t{tid}"))?;
            format!("{source}, replacing; backup {}", file.display())
        } else {
            source
        };
        edb::import(c, &actor, tid, &inputs, &games, replace, &source)
    })
    .await?;
    Ok(ctx.redirect(&format!("/t/{tid}/entrants?imported={n}")))
}

pub async fn csv_preview(
    ctx: Ctx,
    path: web::Path<String>,
    body: web::Bytes,
) -> Result<HttpResponse, AppError> {
    let tid = id(ctx.lang, &path)?;
    do_preview(ctx, tid, body, "csv").await
}

pub async fn csv_confirm(
    ctx: Ctx,
    path: web::Path<String>,
    body: web::Bytes,
) -> Result<HttpResponse, AppError> {
    let tid = id(ctx.lang, &path)?;
    do_confirm(ctx, tid, body, "csv").await
}

pub async fn og_preview(
    ctx: Ctx,
    path: web::Path<String>,
    body: web::Bytes,
) -> Result<HttpResponse, AppError> {
    let tid = id(ctx.lang, &path)?;
    do_preview(ctx, tid, body, "opengotha").await
}

pub async fn og_confirm(
    ctx: Ctx,
    path: web::Path<String>,
    body: web::Bytes,
) -> Result<HttpResponse, AppError> {
    let tid = id(ctx.lang, &path)?;
    do_confirm(ctx, tid, body, "opengotha").await
}

pub async fn export_csv(ctx: Ctx, path: web::Path<String>) -> Result<HttpResponse, AppError> {
    let tid = id(ctx.lang, &path)?;
    ctx.require_staff(tid, Role::Arbiter).await?;
    let rows =
        ctx.db(move |c| Ok::<_, DbError>((tdb::get(c, tid)?, edb::list(c, tid, "", Sort::Rank)?))).await?.1;
    let inputs: Vec<EntrantInput> = rows.iter().filter_map(|r| r.input()).collect();
    let bytes = csv_import::write_entrants(&inputs);
    Ok(HttpResponse::Ok()
        .content_type("text/csv; charset=utf-8")
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"tengen-t{tid}-entrants.csv\""),
        ))
        .body(bytes))
}
