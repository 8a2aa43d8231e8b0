//! Rounds: the list, "pair next round" (a draft with a fresh seed), the draft page with its
//! review warnings, per-pair explanation, manual swaps and edits (the same warnings; a new
//! one needs the user's confirmation), publish and unpublish, nigiri at the board or remote,
//! played colours, attendance (absences, fixed tables), and the public pairings pages.
//!
//! Rights: pairing and every change of a pairing is an organizer action; arbiters see the
//! staff pages and record nigiri outcomes and swapped colours; the public sees published
//! rounds only.

use super::ctx::{id, Ctx};
use super::error::AppError;
use super::form::Form;
use super::i18n::Lang;
use super::refusals::Refusal;
use super::views::pages::*;
use super::views::round::{self as view, draw_views, player_options, Find, Opts, MAX_CHOICES};
use super::views::text::{
    colour_name, display_name, half_points, rank_text, result_text, system_name, warning_text, Names,
};
use super::write::{bad_form, checkbox, Arbiter, Organizer, Versioned, Write};
use crate::db::entrants::EntrantRow;
use crate::db::rounds::{self as rdb, Edit, NigiriAction, Outcome, RoundError, RoundGame};
use crate::db::tournaments as tdb;
use crate::db::users::Role;
use crate::db::DbError;
use crate::domain::draw::nigiri::Guess;
use crate::domain::event_time::EventZone;
use crate::domain::pairing::review::Warning;
use crate::domain::pairing::weights::Criterion;
use crate::domain::rounds as dr;
use crate::domain::settings::System;
use crate::i18n::tr;
use crate::office::{self, pair_round::PairRound};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use serde::Deserialize;
use std::collections::{HashMap, HashSet};

// ---------------------------------------------------------------------------------------------
// Helpers

/// A fresh seed from the operating system.
pub fn new_seed() -> u64 {
    let mut b = [0u8; 8];
    if getrandom::fill(&mut b).is_err() {
        panic!("the operating system gave no random bytes");
    }
    u64::from_le_bytes(b)
}

/// A typed seed: empty = none; otherwise a decimal u64.
fn parse_seed(s: &str) -> Result<Option<u64>, ()> {
    match s.trim() {
        "" => Ok(None),
        t => t.parse::<u64>().map(Some).map_err(|_| ()),
    }
}

fn criterion_name(lang: Lang, c: Criterion) -> &'static str {
    match c {
        Criterion::Base => lang.t("crit.base"),
        Criterion::Rematch => lang.t("crit.rematch"),
        Criterion::Forbidden => lang.t("crit.forbidden"),
        Criterion::Bye => lang.t("crit.bye"),
        Criterion::SameUnitHard => lang.t("crit.same_unit_hard"),
        Criterion::ScoreGap => lang.t("crit.score_gap"),
        Criterion::SameUnitSoft => lang.t("crit.same_unit_soft"),
        Criterion::Handicap => lang.t("crit.handicap"),
        Criterion::Colour => lang.t("crit.colour"),
    }
}

/// A stored result as shown (OpenGotha codes as the import stores them).
/// An OpenGotha result code (stored for the assigned seats) for the seats as played: a game
/// played with the colours swapped turns a Black win into a White win and back.
fn as_played(code: &str, swapped: bool) -> String {
    if !swapped {
        return code.to_string();
    }
    let (b, w) = ("RESULT_BLACKWINS", "RESULT_WHITEWINS");
    match code.trim() {
        c if c.starts_with(b) => c.replacen(b, w, 1),
        c if c.starts_with(w) => c.replacen(w, b, 1),
        c => c.to_string(),
    }
}

// ---------------------------------------------------------------------------------------------
// The round list

/// The round list's rows: each round with its system, seed, publication and whether any
/// result is in (`results`, by round number).
fn round_items(
    lang: Lang,
    zone: EventZone,
    rounds: &[rdb::RoundRow],
    results: &HashMap<i32, bool>,
) -> Vec<RoundItem> {
    rounds
        .iter()
        .map(|r| RoundItem {
            number: r.number,
            published: r.published,
            system: system_name(lang, &r.system),
            seed: r.seed.clone().unwrap_or_default(),
            results: results.get(&r.number).copied().unwrap_or(false),
            published_at: r.published_at.as_deref().map(|at| lang.in_zone(&zone, at)).unwrap_or_default(),
        })
        .collect()
}

async fn list_page(
    ctx: &Ctx,
    tid: i32,
    f: FormView,
    banner: Option<String>,
    status: StatusCode,
) -> Result<HttpResponse, AppError> {
    list_page_with(ctx, tid, (f, banner, None), status).await
}

async fn list_page_with(
    ctx: &Ctx,
    tid: i32,
    (f, banner, confirm): (FormView, Option<String>, Option<ConfirmView>),
    status: StatusCode,
) -> Result<HttpResponse, AppError> {
    let (_, role) = ctx.require_staff(tid, Role::Arbiter).await?;
    let (t, rounds, results, n_entrants) = ctx
        .db(move |c| {
            let t = tdb::get(c, tid)?;
            let rounds = rdb::list(c, tid)?;
            let mut results = HashMap::new();
            for r in &rounds {
                results.insert(r.number, rdb::any_result_entered(c, tid, r.number)?);
            }
            let n = crate::db::entrants::count(c, tid)?;
            Ok::<_, DbError>((t, rounds, results, n))
        })
        .await?;
    let lang = ctx.lang;
    let settings = t.settings();
    let last = rounds.iter().map(|r| r.number).max().unwrap_or(0);
    let all_published = rounds.iter().all(|r| r.published);
    let next = last + 1;
    let can_pair = all_published && next <= t.rounds;
    let page = RoundsPage {
        c: ctx.chrome_t(&t, true, lang.t("round.list_title")),
        tid,
        items: round_items(lang, t.zone(), &rounds, &results),
        next,
        can_pair,
        attendance_round: if all_published { next } else { last },
        is_organizer: role == Role::Organizer,
        round_robin: settings.system == System::RoundRobin,
        system: lang.t(&format!("system.{}", settings.system.code())).to_string(),
        declared: t.rounds,
        n_entrants,
        f,
        banner,
        confirm,
    };
    ctx.render_status(status, &page)
}

pub async fn list(ctx: Ctx, path: web::Path<String>) -> Result<HttpResponse, AppError> {
    let tid = id(ctx.lang, &path)?;
    list_page(&ctx, tid, FormView::default(), None, StatusCode::OK).await
}

// ---------------------------------------------------------------------------------------------
// The round page

async fn round_page(ctx: &Ctx, tid: i32, n: i32, opts: Opts) -> Result<HttpResponse, AppError> {
    let (_, role) = ctx.require_staff(tid, Role::Arbiter).await?;
    let l = ctx
        .db(move |c| {
            let r = rdb::get(c, tid, n)?;
            let cx = rdb::context(c, tid, n)?;
            let rows = rdb::games_of(c, tid, n)?;
            let prev = if n > 1 { rdb::games_of(c, tid, n - 1)? } else { Vec::new() };
            let has_results = rdb::any_result_entered(c, tid, n)?;
            let prev_first = crate::db::hall::first_of(c, tid, n - 1)?;
            // The event's hall-wide lists, when the hall holds several groups.
            let hall = match crate::office::print_data::several_groups(c, tid)? {
                true => Some(crate::db::events::event_of(c, tid)?),
                false => None,
            };
            Ok::<_, DbError>((view::Loaded { r, cx, rows, prev, prev_first, has_results }, hall))
        })
        .await?;
    let (l, hall) = l;
    let title = tr!(ctx.lang, "round.title", round = n);
    let c = ctx.chrome_t(&l.cx.t, true, title.clone());
    let (mut page, status) = view::build(ctx.lang, (c, title), (tid, n), role == Role::Organizer, l, opts);
    page.cards_qr = ctx.state.net.public_url.is_some();
    page.hall = hall;
    ctx.render_status(status, &page)
}

pub async fn page(ctx: Ctx, path: web::Path<(String, String)>) -> Result<HttpResponse, AppError> {
    let [tid, n] = ctx.ids([&path.0, &path.1])?;
    let notice = match ctx.path.split_once("?done=") {
        Some((_, what)) => match what {
            "pair" => Some(ctx.t("round.done_pair").to_string()),
            "edit" => Some(ctx.t("round.done_edit").to_string()),
            "publish" => Some(ctx.t("round.done_publish").to_string()),
            "unpublish" => Some(ctx.t("round.done_unpublish").to_string()),
            "nigiri" => Some(ctx.t("round.done_nigiri").to_string()),
            _ => None,
        },
        None => None,
    };
    let q = web::Query::<Vec<(String, String)>>::from_query(ctx.path.split_once('?').map_or("", |(_, q)| q))
        .map(|q| q.0)
        .unwrap_or_default();
    let value =
        |key: &str| q.iter().find(|(k, _)| k == key).map(|(_, v)| v.trim().to_string()).unwrap_or_default();
    let find = value("find").chars().take(50).collect();
    let page = asked_page(&ctx)?;
    let lots_page = asked(&ctx, "lots")?;
    round_page(&ctx, tid, n, Opts { notice, find, page, lots_page, ..Opts::default() }).await
}

/// Renders the refusal of a change on the round page (or the list, when the round is gone).
async fn refused(
    ctx: &Ctx,
    tid: i32,
    n: i32,
    e: RoundError,
    mut f: FormView,
) -> Result<HttpResponse, AppError> {
    let entrants =
        ctx.db(move |c| crate::db::entrants::list(c, tid, "", crate::db::entrants::Sort::Id)).await?;
    let (msg, status) = e.refused(ctx.lang, &Names::new(ctx.lang, &entrants))?.keep(&mut f);
    on_round_or_list(ctx, tid, n, f, msg, status).await
}

/// The round page with `f` and its `banner` (`status`), or the round list when the round is
/// not there (a first draft refused).
async fn on_round_or_list(
    ctx: &Ctx,
    tid: i32,
    n: i32,
    f: FormView,
    banner: String,
    status: StatusCode,
) -> Result<HttpResponse, AppError> {
    let exists = ctx.db(move |c| Ok::<_, DbError>(rdb::get(c, tid, n).is_ok())).await?;
    if exists {
        round_page(ctx, tid, n, Opts { f, banner: Some(banner), status: Some(status), ..Opts::default() })
            .await
    } else {
        list_page(ctx, tid, f, Some(banner), status).await
    }
}

/// The round page with a form's messages beside its fields (400).
async fn form_errors(ctx: &Ctx, tid: i32, n: i32, f: FormView) -> Result<HttpResponse, AppError> {
    let banner = Some(ctx.t("form.has_errors").to_string());
    round_page(ctx, tid, n, Opts { f, banner, status: Some(StatusCode::BAD_REQUEST), ..Opts::default() })
        .await
}

// ---------------------------------------------------------------------------------------------
// Pairing

/// POST /t/{id}/rounds/{n}/pair: a new draft of round n (the next round), or a new pairing of
/// the draft of `version`, with the typed seed or a fresh one.
pub async fn pair(w: Write<Organizer<[i32; 2]>>) -> Result<HttpResponse, AppError> {
    let [tid, n] = w.who.ids;
    let mut f = FormView::from_form(&w.fields);
    let Ok(seed) = parse_seed(w.fields.get("seed")) else {
        f.error("seed", w.t("round.err_seed"));
        return on_round_or_list(&w, tid, n, f, w.t("form.has_errors").into(), StatusCode::BAD_REQUEST).await;
    };
    let seed = seed.unwrap_or_else(new_seed);
    let version = w.optional::<i32>("version")?;
    let (actor, reason, confirm) = (w.actor(), w.reason("reason")?, w.fields.checked("confirm"));
    let pair = move |c: &mut crate::db::Conn| {
        let ask = PairRound { round: n, seed, expected_version: version, confirm, reason: &reason };
        office::pair_round::pair_round(c, &actor, tid, &ask)
    };
    match w.db_raw(pair).await? {
        Ok(_) => Ok(w.redirect(&format!("/t/{tid}/rounds/{n}?done=pair"))),
        // Games of earlier rounds without a result: the same pairing again, once confirmed
        // (a typed seed is kept; a fresh one is drawn again).
        Err(RoundError::OpenGames(warnings)) => {
            let action = format!("/t/{tid}/rounds/{n}/pair");
            let exists = w.db(move |c| Ok::<_, DbError>(rdb::get(c, tid, n).is_ok())).await?;
            if exists {
                return needs_confirmation(&w, tid, n, action, &w.fields, warnings).await;
            }
            let cf = confirm_view(&w, tid, action, &w.fields, &warnings, format!("/t/{tid}/rounds")).await?;
            let banner = Some(w.t("round.confirm_banner").to_string());
            list_page_with(&w, tid, (f, banner, Some(cf)), StatusCode::UNPROCESSABLE_ENTITY).await
        }
        Err(e) => refused(&w, tid, n, e, f).await,
    }
}

/// POST /t/{id}/rounds/schedule: round robin, every remaining round as drafts.
pub async fn schedule(w: Write<Organizer>) -> Result<HttpResponse, AppError> {
    let [tid] = w.who.ids;
    let mut f = FormView::from_form(&w.fields);
    let Ok(seed) = parse_seed(w.fields.get("seed")) else {
        f.error("seed", w.t("round.err_seed"));
        let banner = Some(w.t("form.has_errors").to_string());
        return list_page(&w, tid, f, banner, StatusCode::BAD_REQUEST).await;
    };
    let seed = seed.unwrap_or_else(new_seed);
    let (actor, reason) = (w.actor(), w.reason("reason")?);
    match w.db_raw(move |c| office::schedule_rounds::schedule_rounds(c, &actor, tid, seed, &reason)).await? {
        Ok(_) => Ok(w.redirect(&format!("/t/{tid}/rounds"))),
        Err(e) => {
            let entrants =
                w.db(move |c| crate::db::entrants::list(c, tid, "", crate::db::entrants::Sort::Id)).await?;
            let r = e.refused(w.lang, &Names::new(w.lang, &entrants))?;
            list_page(&w, tid, f, Some(r.message), r.status).await
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Manual changes, publish, unpublish, delete

/// The confirmation of a change: its warnings in the reader's language and a form that repeats
/// the change (`form`'s fields) with `confirm` ticked.
async fn confirm_view(
    ctx: &Ctx,
    tid: i32,
    action: String,
    form: &Form,
    warnings: &[Warning],
    cancel: String,
) -> Result<ConfirmView, AppError> {
    let entrants =
        ctx.db(move |c| crate::db::entrants::list(c, tid, "", crate::db::entrants::Sort::Id)).await?;
    let names = Names::new(ctx.lang, &entrants);
    let fields = form
        .fields
        .iter()
        .filter(|(k, _)| k != "csrf" && k != "confirm")
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let warnings = warnings.iter().map(|w| warning_text(ctx.lang, w, &names)).collect();
    Ok(ConfirmView { action, fields, warnings, cancel })
}

/// A change that needs confirmation: the page again, the warnings, and a form that repeats
/// the change with `confirm` ticked.
async fn needs_confirmation(
    ctx: &Ctx,
    tid: i32,
    n: i32,
    action: String,
    form: &Form,
    warnings: Vec<Warning>,
) -> Result<HttpResponse, AppError> {
    let confirm = confirm_view(ctx, tid, action, form, &warnings, format!("/t/{tid}/rounds/{n}")).await?;
    let banner = Some(ctx.t("round.confirm_banner").to_string());
    let opts = Opts {
        f: FormView::from_form(form),
        banner,
        confirm: Some(confirm),
        status: Some(StatusCode::UNPROCESSABLE_ENTITY),
        ..Opts::default()
    };
    round_page(ctx, tid, n, opts).await
}

fn player_field(ctx: &Ctx, form: &Form, f: &mut FormView, name: &str) -> Option<i32> {
    match form.get(name).parse::<i32>() {
        Ok(v) if v > 0 => Some(v),
        _ => {
            f.error(name, ctx.t("round.err_choose_player"));
            None
        }
    }
}

/// A swap or an edit of the draft `version` (with `confirm` once its warnings were shown).
async fn apply_edit(
    w: &Write<Organizer<[i32; 2]>>,
    edit: Edit,
    action: &str,
) -> Result<HttpResponse, AppError> {
    let [tid, n] = w.who.ids;
    let (version, reason) = (w.version()?, w.reason("reason")?);
    let (actor, confirm) = (w.actor(), w.fields.checked("confirm"));
    match w.db_raw(move |c| rdb::edit(c, &actor, tid, n, version, &edit, confirm, &reason)).await? {
        Ok(Outcome::Saved { .. }) => Ok(w.redirect(&format!("/t/{tid}/rounds/{n}?done=edit"))),
        Ok(Outcome::NeedsConfirmation { warnings }) => {
            needs_confirmation(w, tid, n, format!("/t/{tid}/rounds/{n}/{action}"), &w.fields, warnings).await
        }
        Err(e) => refused(w, tid, n, e, FormView::from_form(&w.fields)).await,
    }
}

/// POST /t/{id}/rounds/{n}/swap: exchange two players' places.
pub async fn swap(w: Write<Organizer<[i32; 2]>>) -> Result<HttpResponse, AppError> {
    let [tid, n] = w.who.ids;
    let mut f = FormView::from_form(&w.fields);
    let a = player_field(&w, &w.fields, &mut f, "swap_a");
    let b = player_field(&w, &w.fields, &mut f, "swap_b");
    let (Some(a), Some(b)) = (a, b) else {
        return form_errors(&w, tid, n, f).await;
    };
    apply_edit(&w, Edit::Swap { a, b }, "swap").await
}

/// POST /t/{id}/rounds/{n}/edit: set the players and handicap of one table.
pub async fn edit(w: Write<Organizer<[i32; 2]>>) -> Result<HttpResponse, AppError> {
    let [tid, n] = w.who.ids;
    let form = &w.fields;
    let mut f = FormView::from_form(form);
    let table = match form.get("edit_table").parse::<u32>() {
        Ok(t) if t > 0 => Some(t),
        _ => {
            f.error("edit_table", w.t("err.choice"));
            None
        }
    };
    let black = player_field(&w, form, &mut f, "edit_black");
    let white = player_field(&w, form, &mut f, "edit_white");
    let handicap = match form.get("edit_handicap") {
        "" => Some(0),
        h => match h.parse::<u8>() {
            Ok(v) if v <= 9 => Some(v),
            _ => {
                f.error("edit_handicap", tr!(w.lang, "err.number_range", min = 0, max = 9));
                None
            }
        },
    };
    let (Some(table), Some(black), Some(white), Some(handicap)) = (table, black, white, handicap) else {
        return form_errors(&w, tid, n, f).await;
    };
    apply_edit(&w, Edit::Table { table, black, white, handicap }, "edit").await
}

/// The publish form: the draft's version, and the confirmation of its warnings.
#[derive(Deserialize)]
pub struct PublishForm {
    version: i32,
    #[serde(default, deserialize_with = "checkbox")]
    confirm: bool,
}

/// POST /t/{id}/rounds/{n}/publish.
pub async fn publish(w: Write<Organizer<[i32; 2]>, PublishForm>) -> Result<HttpResponse, AppError> {
    let [tid, n] = w.who.ids;
    let PublishForm { version, confirm } = w.form;
    let (actor, reason) = (w.actor(), w.reason("reason")?);
    match w.db_raw(move |c| rdb::publish(c, &actor, tid, n, version, confirm, &reason)).await? {
        Ok(Outcome::Saved { .. }) => Ok(w.redirect(&format!("/t/{tid}/rounds/{n}?done=publish"))),
        Ok(Outcome::NeedsConfirmation { warnings }) => {
            needs_confirmation(&w, tid, n, format!("/t/{tid}/rounds/{n}/publish"), &w.fields, warnings).await
        }
        Err(e) => refused(&w, tid, n, e, FormView::from_form(&w.fields)).await,
    }
}

/// POST /t/{id}/rounds/{n}/unpublish: only while no result is entered.
pub async fn unpublish(w: Write<Organizer<[i32; 2]>, Versioned>) -> Result<HttpResponse, AppError> {
    let [tid, n] = w.who.ids;
    let (actor, version, reason) = (w.actor(), w.form.version, w.reason("reason")?);
    match w.db_raw(move |c| rdb::unpublish(c, &actor, tid, n, version, &reason)).await? {
        Ok(_) => Ok(w.redirect(&format!("/t/{tid}/rounds/{n}?done=unpublish"))),
        Err(e) => refused(&w, tid, n, e, FormView::from_form(&w.fields)).await,
    }
}

/// POST /t/{id}/rounds/{n}/delete: a draft.
pub async fn delete(w: Write<Organizer<[i32; 2]>, Versioned>) -> Result<HttpResponse, AppError> {
    let [tid, n] = w.who.ids;
    let (actor, version, reason) = (w.actor(), w.form.version, w.reason("reason")?);
    match w.db_raw(move |c| rdb::delete_draft(c, &actor, tid, n, version, &reason)).await? {
        Ok(_) => Ok(w.redirect(&format!("/t/{tid}/rounds"))),
        Err(e) => refused(&w, tid, n, e, FormView::from_form(&w.fields)).await,
    }
}

// ---------------------------------------------------------------------------------------------
// Nigiri and played colours (arbiters too)

/// The game forms' version: the colours the page showed (`pv`), refused when they changed.
#[derive(Deserialize)]
pub struct GameForm {
    pv: i32,
}

/// POST /t/{id}/rounds/{n}/games/{gid}/nigiri: the outcome of a nigiri at the board.
pub async fn nigiri(w: Write<Arbiter<[i32; 3]>, GameForm>) -> Result<HttpResponse, AppError> {
    let [tid, n, gid] = w.who.ids;
    let mut f = FormView::from_form(&w.fields);
    let grab = match w.fields.get("grab").parse::<u32>() {
        Ok(g) if (1..=200).contains(&g) => Some(g),
        _ => {
            f.error(&format!("grab-{gid}"), tr!(w.lang, "err.number_range", min = 1, max = 200));
            None
        }
    };
    let guess = match w.fields.get("guess") {
        "odd" => Some(Guess::Odd),
        "even" => Some(Guess::Even),
        _ => {
            f.error(&format!("guess-{gid}"), w.t("err.choice"));
            None
        }
    };
    let (Some(grab), Some(guess)) = (grab, guess) else {
        return form_errors(&w, tid, n, f).await;
    };
    let (actor, pv, reason) = (w.actor(), w.form.pv, w.reason("reason")?);
    let action = NigiriAction::Record { grab, guess };
    match w.db_raw(move |c| rdb::nigiri(c, &actor, tid, n, gid, pv, action, &reason)).await? {
        Ok(_) => Ok(w.redirect(&format!("/t/{tid}/rounds/{n}?done=nigiri"))),
        Err(e) => refused(&w, tid, n, e, f).await,
    }
}

/// POST /t/{id}/rounds/{n}/games/{gid}/remote-nigiri: performed from the round's seed.
pub async fn remote_nigiri(w: Write<Arbiter<[i32; 3]>, GameForm>) -> Result<HttpResponse, AppError> {
    let [tid, n, gid] = w.who.ids;
    let (actor, pv, reason) = (w.actor(), w.form.pv, w.reason("reason")?);
    match w.db_raw(move |c| rdb::nigiri(c, &actor, tid, n, gid, pv, NigiriAction::Remote, &reason)).await? {
        Ok(_) => Ok(w.redirect(&format!("/t/{tid}/rounds/{n}?done=nigiri"))),
        Err(e) => refused(&w, tid, n, e, FormView::from_form(&w.fields)).await,
    }
}

/// POST /t/{id}/rounds/{n}/games/{gid}/played-colours: the players swapped the colours.
pub async fn played_colours(w: Write<Arbiter<[i32; 3]>, GameForm>) -> Result<HttpResponse, AppError> {
    let [tid, n, gid] = w.who.ids;
    let (pv, swapped) = (w.form.pv, w.fields.checked("swapped"));
    let (actor, reason) = (w.actor(), w.reason("reason")?);
    match w.db_raw(move |c| rdb::set_played_swapped(c, &actor, tid, n, gid, pv, swapped, &reason)).await? {
        Ok(_) => Ok(w.redirect(&format!("/t/{tid}/rounds/{n}"))),
        Err(e) => refused(&w, tid, n, e, FormView::from_form(&w.fields)).await,
    }
}

// ---------------------------------------------------------------------------------------------
// Explain

/// What the explain page shows of a pair's weight: its terms, total and sides, or a note
/// why there is none (a round not paired by weights, a pairing error).
struct Explained {
    rows: Vec<ExplainRow>,
    total: String,
    sides: Vec<ExplainSide>,
    note: Option<String>,
    met: u8,
}

impl Explained {
    fn note(note: String) -> Explained {
        Explained { rows: Vec::new(), total: String::new(), sides: Vec::new(), note: Some(note), met: 0 }
    }
}

/// A pair's explanation (`dr::explain`) as the page's rows and sides.
fn explained(
    lang: Lang,
    names: &Names,
    ex: Result<Option<dr::Explanation>, crate::domain::pairing::PairingError>,
) -> Explained {
    match ex {
        Ok(Some(e)) => {
            let rows = e
                .terms
                .iter()
                .map(|t| ExplainRow {
                    criterion: criterion_name(lang, t.criterion).to_string(),
                    penalty: t.penalty.map(|p| p.to_string()).unwrap_or_default(),
                    weight: t.weight.to_string(),
                })
                .collect();
            let side = |s: &dr::SideInfo| ExplainSide {
                name: names.name(s.id),
                score: half_points(s.score),
                balance: s.colour_balance,
                last: s.last_colours.iter().map(|c| colour_name(lang, *c)).collect::<Vec<_>>().join(" "),
                bye_place: s.bye_place + 1,
                nominal: s.nominal,
            };
            let mut sides = vec![side(&e.a)];
            sides.extend(e.b.as_ref().map(side));
            Explained { rows, total: e.total.to_string(), sides, note: None, met: e.met }
        }
        Ok(None) => Explained::note(lang.t("explain.not_weighted").to_string()),
        Err(e) => Explained::note(tr!(lang, "round.err_pairing", error = e.to_string())),
    }
}

/// The explain page's player dropdowns: the active players found by `find`, the pair asked
/// (`a`, `b`) kept whatever the search.
fn explain_choices(
    names: &Names,
    cx: &rdb::Context,
    find: &str,
    (a, b): (i32, Option<i32>),
) -> (Options, usize) {
    let active =
        cx.players.iter().filter(|pl| pl.status == crate::domain::pairing::Status::Active).map(|pl| pl.id);
    let (a_s, b_s) = (a.to_string(), b.map(|b| b.to_string()).unwrap_or_default());
    player_options(
        names,
        &cx.entrants,
        cx.t.settings().name_order,
        &Find::new(find),
        active,
        &[a_s.as_str(), b_s.as_str()],
    )
}

/// Whether `a` and `b` must not meet in round `n` (回避: a listed group, or one unit in the
/// rounds it is barred), and if so whether the round kept them apart or had to pair them
/// because no legal pairing existed (the review names the latter too).
fn forbidden_note(
    lang: Lang,
    cx: &rdb::Context,
    n: u32,
    a: i32,
    b: Option<i32>,
    paired: bool,
) -> Option<String> {
    use crate::domain::pairing::avoid::{barrier, Barrier};
    let player = |id: i32| cx.players.iter().find(|p| p.id == rdb::pid(id));
    let why = barrier(&cx.history.avoid, &cx.psettings, n, player(a)?, player(b?)?)?;
    let why = match why {
        Barrier::Listed { label } => tr!(lang, "explain.forbidden_listed", label),
        Barrier::SameUnit { unit } => tr!(lang, "explain.forbidden_unit", unit),
    };
    Some(if paired {
        tr!(lang, "explain.forbidden_forced", why)
    } else {
        tr!(lang, "explain.forbidden_avoided", why)
    })
}

/// GET /t/{id}/rounds/{n}/explain?a=ID&b=ID (b empty: the bye).
pub async fn explain(
    ctx: Ctx,
    path: web::Path<(String, String)>,
    q: web::Query<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    let [tid, n] = ctx.ids([&path.0, &path.1])?;
    ctx.require_staff(tid, Role::Arbiter).await?;
    let get = |k: &str| q.iter().find(|(x, _)| x == k).map(|(_, v)| v.trim().to_string()).unwrap_or_default();
    let a = id(ctx.lang, &get("a"))?;
    let b = match get("b").as_str() {
        "" | "bye" => None,
        s => Some(id(ctx.lang, s)?),
    };
    let (r, cx, games) = ctx
        .db(move |c| {
            Ok::<_, DbError>((rdb::get(c, tid, n)?, rdb::context(c, tid, n)?, rdb::games_of(c, tid, n)?))
        })
        .await?;
    let lang = ctx.lang;
    let names = Names::new(lang, &cx.entrants);
    if cx.entrant(rdb::pid(a)).is_none() || b.is_some_and(|b| cx.entrant(rdb::pid(b)).is_none()) {
        return Err(ctx.not_found());
    }
    let paired = b.is_some_and(|b| {
        games.iter().any(|g| matches!((g.black_id, g.white_id), (Some(x), Some(y)) if (x, y) == (a, b) || (y, x) == (a, b)))
    });
    let forbidden = forbidden_note(lang, &cx, n as u32, a, b, paired);
    let seed = r.seed().unwrap_or(0);
    let (pa, pb) = (rdb::pid(a), b.map(rdb::pid));
    let ex = dr::explain(cx.system(), &cx.players, &cx.history, &cx.psettings, n as u32, seed, pa, pb);
    let Explained { rows, total, sides, note, met } = explained(lang, &names, ex);
    let find = get("find").chars().take(50).collect::<String>();
    let (players, found) = explain_choices(&names, &cx, &find, (a, b));
    let page = ExplainPage {
        c: ctx.chrome_t(&cx.t, true, lang.t("explain.title")),
        tid,
        n,
        a_name: names.name(rdb::pid(a)),
        b_name: b.map(|b| names.name(rdb::pid(b))).unwrap_or_else(|| lang.t("round.bye").to_string()),
        a: a.to_string(),
        b: b.map(|b| b.to_string()).unwrap_or_default(),
        rows,
        total,
        sides,
        note,
        met,
        forbidden,
        players,
        choices_note: (found > MAX_CHOICES).then(|| tr!(lang, "round.find_more", shown = MAX_CHOICES, found)),
        find,
    };
    ctx.render(&page)
}

// ---------------------------------------------------------------------------------------------
// Attendance

/// The attendance form's rows: each entrant with its absence, its fixed table (as typed in a
/// refused form `f`, else as stored) and the first round it plays.
fn attendance_rows(
    lang: Lang,
    entrants: &[EntrantRow],
    extras: &HashMap<i32, (Option<i32>, i32)>,
    absent: &HashSet<i32>,
    f: &FormView,
) -> Vec<AttendanceRow> {
    entrants
        .iter()
        .map(|e| {
            let (fixed, first) = extras.get(&e.id).copied().unwrap_or((None, 1));
            let key = format!("fixed-{}", e.id);
            AttendanceRow {
                id: e.id,
                name: display_name(e, lang.is_zh()),
                rank: rank_text(lang, &e.rank),
                unit: e.unit.clone(),
                absent: absent.contains(&e.id),
                fixed: f
                    .vals
                    .get(&key)
                    .cloned()
                    .unwrap_or_else(|| fixed.map(|x| x.to_string()).unwrap_or_default()),
                first_round: first,
                withdrawn: e.withdrawn(),
                error: f.err(&key).map(str::to_string),
            }
        })
        .collect()
}

async fn attendance_page(
    ctx: &Ctx,
    tid: i32,
    n: i32,
    page: usize,
    f: Option<FormView>,
    banner: Option<String>,
    status: StatusCode,
) -> Result<HttpResponse, AppError> {
    ctx.require_staff(tid, Role::Organizer).await?;
    let (t, entrants, extras, absent, round) = ctx
        .db(move |c| {
            Ok::<_, DbError>((
                tdb::get(c, tid)?,
                crate::db::entrants::list(c, tid, "", crate::db::entrants::Sort::Rank)?,
                rdb::entrant_extras(c, tid)?,
                rdb::absences(c, tid, n)?,
                rdb::get(c, tid, n).ok(),
            ))
        })
        .await?;
    if n > t.rounds {
        return Err(ctx.not_found());
    }
    let f = f.unwrap_or_default();
    let pager =
        Pager::new(entrants.len(), page, ATTENDANCE_PER_PAGE, &format!("/t/{tid}/rounds/{n}/attendance?"));
    let rows = attendance_rows(ctx.lang, &entrants[pager.range()], &extras, &absent, &f);
    let page = AttendancePage {
        c: ctx.chrome_t(&t, true, tr!(ctx.lang, "att.title", round = n)),
        tid,
        n,
        rows,
        locked: round.as_ref().is_some_and(|r| r.published),
        draft: round.as_ref().is_some_and(|r| !r.published),
        banner,
        pager,
    };
    ctx.render_status(status, &page)
}

/// Entrants on one page of the attendance form (10,000 rows in one form were too large to
/// load and to send).
pub const ATTENDANCE_PER_PAGE: usize = 200;

/// `?page=` of the address asked for: 1 when absent, a 400 for anything but a page number.
fn asked_page(ctx: &Ctx) -> Result<usize, AppError> {
    asked(ctx, "page")
}

/// The page number in `?key=` (absent: 1); anything else is a 400.
fn asked(ctx: &Ctx, key: &str) -> Result<usize, AppError> {
    let q = web::Query::<Vec<(String, String)>>::from_query(ctx.path.split_once('?').map_or("", |(_, q)| q))
        .map(|q| q.0)
        .unwrap_or_default();
    let v = q.iter().find(|(k, _)| k == key).map_or("", |(_, v)| v.trim());
    Pager::parse(v).ok_or_else(|| AppError::bad_request(ctx.lang, ctx.t("e.err_page").to_string()))
}

pub async fn attendance(ctx: Ctx, path: web::Path<(String, String)>) -> Result<HttpResponse, AppError> {
    let [tid, n] = ctx.ids([&path.0, &path.1])?;
    let page = asked_page(&ctx)?;
    attendance_page(&ctx, tid, n, page, None, None, StatusCode::OK).await
}

/// The entrants a paged form showed (its hidden `shown` fields), `None` for a form without
/// them (everyone); a value that is no entrant id is a bad form.
fn shown_ids(form: &Form) -> Option<Result<HashSet<i32>, ()>> {
    form.has("shown").then(|| form.all("shown").iter().map(|v| v.parse::<i32>().map_err(|_| ())).collect())
}

/// The entrants ticked absent; `None` if a value is no entrant id (a bad form).
fn absent_ids(form: &Form) -> Option<HashSet<i32>> {
    form.all("absent").iter().map(|v| v.parse::<i32>().ok().filter(|x| *x > 0)).collect()
}

/// The fixed tables typed (`fixed-ID`: empty for none), a number out of range marked on `f`;
/// `None` if a field names no entrant id (a bad form).
fn fixed_tables(lang: Lang, form: &Form, f: &mut FormView) -> Option<HashMap<i32, Option<i32>>> {
    let mut fixed = HashMap::new();
    for (k, v) in &form.fields {
        let Some(eid) = k.strip_prefix("fixed-") else { continue };
        let eid = eid.parse::<i32>().ok()?;
        match v.trim() {
            "" => {
                fixed.insert(eid, None);
            }
            t => match t.parse::<i32>() {
                Ok(x) if (1..=10_000).contains(&x) => {
                    fixed.insert(eid, Some(x));
                }
                _ => f.error(k, tr!(lang, "err.number_range", min = 1, max = 10_000)),
            },
        }
    }
    Some(fixed)
}

/// POST /t/{id}/rounds/{n}/attendance: the absences and fixed tables of the entrants its page
/// showed.
pub async fn save_attendance(w: Write<Organizer<[i32; 2]>>) -> Result<HttpResponse, AppError> {
    let [tid, n] = w.who.ids;
    let form = &w.fields;
    let mut f = FormView::from_form(form);
    let page = Pager::parse(form.get("page")).ok_or_else(|| bad_form(&w))?;
    let shown = shown_ids(form).transpose().map_err(|_| bad_form(&w))?;
    let absent = absent_ids(form).ok_or_else(|| bad_form(&w))?;
    let fixed = fixed_tables(w.lang, form, &mut f).ok_or_else(|| bad_form(&w))?;
    if let Some(sh) = &shown {
        if absent.iter().chain(fixed.keys()).any(|id| !sh.contains(id)) {
            return Err(bad_form(&w));
        }
    }
    if f.has_errors() {
        let banner = Some(w.t("form.has_errors").to_string());
        return attendance_page(&w, tid, n, page, Some(f), banner, StatusCode::BAD_REQUEST).await;
    }
    let (actor, reason) = (w.actor(), w.reason("reason")?);
    let saved = w
        .db_raw(move |c| {
            let change = rdb::Attendance { absent, fixed, scope: shown };
            rdb::set_attendance(c, &actor, tid, n, &change, &reason)
        })
        .await?;
    match saved {
        Ok(_) => Ok(w.redirect(&format!("/t/{tid}/rounds"))),
        Err(RoundError::Published) => {
            let banner = Some(w.t("round.err_published").to_string());
            attendance_page(&w, tid, n, page, Some(f), banner, StatusCode::CONFLICT).await
        }
        Err(RoundError::Db(DbError::NotFound)) => Err(w.not_found()),
        Err(e) => Err(AppError::internal(w.lang, format!("{e:?}"))),
    }
}

// ---------------------------------------------------------------------------------------------
// Public pages

/// GET /t/{id}/pairings/{n}: a published round's public page (a draft is not public: 404), read from the database: the tables as played, byes, the
/// draws with their seeds (so anyone can replay them) and the publication time. Served through
/// the public cache (`public::Kind::Round`); `frame` makes the page frame from the tournament and
/// the title (a reader's or a staff member's).
pub fn public_round_page(
    c: &mut crate::db::Conn,
    tid: i32,
    n: i32,
    lang: Lang,
    frame: impl FnOnce(&tdb::TournamentRow, String) -> Chrome,
) -> Result<PublicRoundPage, DbError> {
    let t = tdb::get(c, tid)?;
    let r = rdb::get_published(c, tid, n)?;
    let rows = rdb::games_of(c, tid, n)?;
    let entrants = crate::db::entrants::list(c, tid, "", crate::db::entrants::Sort::Id)?;
    let numbers = rdb::list(c, tid)?.iter().filter(|r| r.published).map(|r| r.number).collect();
    let names = Names::new(lang, &entrants);
    let komi = t.settings().ruleset.komi_q;
    let replayed = rdb::replayed(&rows);
    let games = rows
        .iter()
        .filter_map(|g| public_game(lang, &names, komi, g, replayed.contains(&g.id)))
        .map(|g| PublicGame { table: r.hall_number(g.table), ..g })
        .collect();
    let byes = rows
        .iter()
        .filter(|g| g.is_bye())
        .filter_map(|g| g.black_id)
        .map(|b| names.numbered(names.number(rdb::pid(b))))
        .collect();
    let title = tr!(lang, "round.title", round = r.number);
    Ok(PublicRoundPage {
        c: frame(&t, title.clone()),
        title,
        tid,
        n,
        seed: r.seed.clone().unwrap_or_default(),
        draws: draw_views(lang, &names, &r.draws()),
        games,
        byes,
        numbers,
        published_at: r.published_at.as_deref().map(|at| lang.in_zone(&t.zone(), at)).unwrap_or_default(),
    })
}

/// One table of the public round page. Played with the colours swapped (rules.md §4.3): the
/// players as they sat and the result for those seats, marked, as the results page shows it.
fn public_game(lang: Lang, names: &Names, komi: i32, g: &RoundGame, replayed: bool) -> Option<PublicGame> {
    let tg = g.board_game(komi)?;
    let (black, white) = if g.played_swapped { (tg.white, tg.black) } else { (tg.black, tg.white) };
    Some(PublicGame {
        table: tg.table,
        black: names.name(black),
        black_no: names.number(black),
        black_rank: names.rank(black),
        white: names.name(white),
        white_no: names.number(white),
        white_rank: names.rank(white),
        handicap: tg.handicap,
        nigiri: tg.nigiri.as_ref().filter(|ns| ns.record.is_none()).map(|ns| {
            tr!(lang, "pub.nigiri", holder = names.name(ns.holder), guesser = names.name(ns.guesser))
        }),
        result: result_text(lang, &as_played(&g.result, g.played_swapped)),
        swapped: g.played_swapped,
        replay: g.is_replay(),
        replayed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_read_for_the_seats_as_played() {
        assert_eq!(as_played("RESULT_WHITEWINS", true), "RESULT_BLACKWINS");
        assert_eq!(as_played("RESULT_BLACKWINS_BYDEF", true), "RESULT_WHITEWINS_BYDEF");
        assert_eq!(as_played("RESULT_BOTHLOSE", true), "RESULT_BOTHLOSE");
        assert_eq!(as_played("RESULT_WHITEWINS", false), "RESULT_WHITEWINS");
    }

    #[test]
    fn half_points_and_seeds() {
        assert_eq!(half_points(4), "2");
        assert_eq!(half_points(3), "1.5");
        assert_eq!(half_points(-1), "-0.5");
        assert_eq!(parse_seed(""), Ok(None));
        assert_eq!(parse_seed(" 18446744073709551615 "), Ok(Some(u64::MAX)));
        assert!(parse_seed("-1").is_err() && parse_seed("0x10").is_err());
    }
}
