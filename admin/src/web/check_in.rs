//! Check-in (签到): the staff desk per round (search by characters, pinyin or initials; one
//! tap to check in or undo; the counts and who is still missing; refreshed by a small static
//! script), the round's deadline, the review of those closing would set absent and the closing
//! itself, the event's self check-in code, and the public self check-in form (the code shown at
//! the venue, wrong codes throttled per address like the login). Nothing here runs unless staff
//! use it: a tournament that never closes check-in pairs as before.

use super::ctx::{id, Ctx};
use super::error::AppError;
use super::views::check_in::*;
use super::views::pages::FormView;
use super::views::text::{display_name, rank_text};
use super::write::{Anyone, Arbiter, Organizer, PathIds, Write};
use crate::db::check_in::{self as cdb, CheckInError};
use crate::db::entrants as edb;
use crate::db::tournaments as tdb;
use crate::db::users::Role;
use crate::db::{Actor, DbError};
use crate::domain::check_in as dci;
use crate::domain::names::Query;
use crate::i18n::{tr, Lang};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};

/// The static script that refreshes the desk's live part (CSP `default-src 'self'`: no inline
/// script).
pub const SCRIPT: &str = include_str!("../../../assets/check_in.js");

/// GET /assets/check_in.js.
pub async fn script() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/javascript; charset=utf-8")
        .insert_header((actix_web::http::header::CACHE_CONTROL, "public, max-age=3600"))
        .body(SCRIPT)
}

fn query(q: &[(String, String)], k: &str) -> String {
    q.iter().find(|(n, _)| n == k).map(|(_, v)| v.trim().to_string()).unwrap_or_default()
}

/// A refusal in the reader's language, with its status (a database fault is the caller's
/// `AppError::db`, never worded here).
fn refusal(lang: Lang, e: &CheckInError) -> (StatusCode, String) {
    let (status, key) = match e {
        CheckInError::Closed => (StatusCode::CONFLICT, "ci.err_closed"),
        CheckInError::Paired => (StatusCode::CONFLICT, "ci.err_paired"),
        CheckInError::NotExpected => (StatusCode::BAD_REQUEST, "ci.err_not_expected"),
        CheckInError::BeforeDeadline => (StatusCode::CONFLICT, "ci.err_before_deadline"),
        CheckInError::Stale | CheckInError::Db(_) => (StatusCode::CONFLICT, "ci.err_stale"),
    };
    (status, lang.t(key).to_string())
}

/// The round asked for (`?round=N`), else the one check-in is for now.
async fn asked_round(ctx: &Ctx, tid: i32, q: &[(String, String)]) -> Result<i32, AppError> {
    match query(q, "round") {
        s if s.is_empty() => ctx.db(move |c| cdb::current_round(c, tid)).await,
        s => s.parse::<i32>().ok().filter(|r| (1..=999).contains(r)).ok_or_else(|| ctx.not_found()),
    }
}

/// The desk page of round `n`, with `f` (the deadline as typed) and a banner.
async fn desk_page(
    ctx: &Ctx,
    tid: i32,
    n: i32,
    search: String,
    f: FormView,
    refused: Option<(StatusCode, String)>,
) -> Result<HttpResponse, AppError> {
    let (_, role) = ctx.require_staff(tid, Role::Arbiter).await?;
    let s2 = search.clone();
    let (t, found, all) = ctx
        .db(move |c| {
            Ok::<_, DbError>((
                tdb::get(c, tid)?,
                cdb::hall_desk(c, tid, n, &s2)?,
                cdb::hall_desk(c, tid, n, "")?,
            ))
        })
        .await?;
    let lang = ctx.lang;
    let zone = t.zone();
    let zh = lang.is_zh();
    let several = all.len() > 1;
    let group_name = |g: &cdb::GroupDesk| match (several, zh || g.name_latin.is_empty()) {
        (false, _) => String::new(),
        (true, true) => g.name_zh.clone(),
        (true, false) => g.name_latin.clone(),
    };
    // The hall's desk: every group's entrants, by name across the groups.
    let order = t.settings().name_order;
    let mut rows: Vec<(crate::domain::names::SortKey, DeskRow)> = Vec::new();
    for g in &found {
        let d = &g.desk;
        for e in &d.expected {
            let row = DeskRow {
                id: e.id,
                tid: g.tid,
                group: group_name(g),
                name: display_name(e, zh),
                rank: rank_text(lang, &e.rank),
                unit: e.unit.clone(),
                checked: d.checked.contains_key(&e.id),
                by_self: d.checked.get(&e.id).copied().unwrap_or(false),
                absent: d.absent.contains(&e.id),
            };
            rows.push((crate::domain::names::sort_key(&e.name(), order), row));
        }
    }
    rows.sort_by(|a, b| a.0.cmp(&b.0));
    let rows: Vec<DeskRow> = rows.into_iter().map(|(_, r)| r).collect();
    let expected = all.iter().map(|g| g.desk.expected.len()).sum();
    let checked = all
        .iter()
        .map(|g| g.desk.expected.iter().filter(|e| g.desk.checked.contains_key(&e.id)).count())
        .sum();
    let not_yet = all
        .iter()
        .flat_map(|g| {
            let d = &g.desk;
            d.expected.iter().filter(|e| !d.checked.contains_key(&e.id) && !d.absent.contains(&e.id))
        })
        .map(|e| display_name(e, zh))
        .collect();
    let hall: Vec<i32> = all.iter().map(|g| g.tid).collect();
    let Some(desk) = all.into_iter().find(|g| g.tid == tid).map(|g| g.desk) else {
        return Err(ctx.not_found());
    };
    let deadline_input = desk.state.deadline_at().map(|d| zone.input_of(d.timestamp())).unwrap_or_default();
    let mut f = f;
    if f.v("deadline").is_empty() && !f.has_errors() {
        f.set("deadline", deadline_input);
    }
    let page = DeskPage {
        // A check-in on a phone, or at another group's desk, shows at once (assets/check_in.js
        // on `tengen:changed`).
        c: ctx.chrome_t(&t, true, tr!(lang, "ci.desk_title", round = n)).live_by_itself(&hall),
        tid,
        round: n,
        q: search,
        rows,
        expected,
        checked,
        not_yet,
        deadline: desk.state.deadline.as_deref().map(|d| zone.date_time(d)).unwrap_or_default(),
        closed: desk.state.closed_at.as_deref().map(|d| zone.date_time(d)),
        version: desk.state.version,
        code: desk.code.clone().unwrap_or_default(),
        self_link: self_link(ctx.state.net.public_url.as_deref(), tid),
        self_qr: ctx
            .state
            .net
            .public_url
            .as_deref()
            .and_then(|base| crate::print::table_cards::qr_grid(&self_link(Some(base), tid))),
        can_organize: role == Role::Organizer,
        several,
        f,
        banner: refused.as_ref().map(|(_, b)| b.clone()),
    };
    ctx.render_status(refused.map_or(StatusCode::OK, |(s, _)| s), &page)
}

/// GET /t/{id}/check-in?round=N&q=…: the desk.
pub async fn desk(
    ctx: Ctx,
    path: web::Path<String>,
    q: web::Query<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    let tid = id(ctx.lang, &path)?;
    ctx.require_staff(tid, Role::Arbiter).await?;
    let n = asked_round(&ctx, tid, &q).await?;
    let search: String = query(&q, "q").chars().take(100).collect();
    desk_page(&ctx, tid, n, search, FormView::default(), None).await
}

/// The path of one entrant's check-in: `/t/{id}/check-in/{n}/{eid}/in|undo`.
pub struct TapPath {
    tid: i32,
    round: i32,
    eid: i32,
    on: bool,
}

impl PathIds for TapPath {
    fn parse(segments: &[String]) -> Option<Self> {
        let [tid, round, eid] = <[i32; 3]>::parse(segments)?;
        let on = match segments.get(3)?.as_str() {
            "in" => true,
            "undo" => false,
            _ => return None,
        };
        Some(TapPath { tid, round, eid, on })
    }
    fn key(&self) -> i32 {
        self.tid
    }
}

/// The self check-in page of `tid`: under the server's public address when it has one (what a
/// phone at the venue opens), else its path.
fn self_link(public_url: Option<&str>, tid: i32) -> String {
    crate::office::print_data::check_in_link(public_url.unwrap_or(""), tid)
}

/// The desk's address for round `n` with the search kept.
fn desk_link(tid: i32, n: i32, q: &str) -> String {
    let query =
        serde_urlencoded::to_string([("round", n.to_string().as_str()), ("q", q)]).unwrap_or_default();
    format!("/t/{tid}/check-in?{query}")
}

/// POST /t/{id}/check-in/{n}/{eid}/in (or /undo): one tap at the desk.
pub async fn tap(w: Write<Arbiter<TapPath>>) -> Result<HttpResponse, AppError> {
    let TapPath { tid, round, eid, on } = w.who.ids;
    let actor = w.actor();
    // The hall's desk taps for any group of the event: back to the desk it was tapped at.
    let asked = w.fields.get("desk").parse::<i32>().ok().filter(|d| *d > 0 && *d != tid);
    let back = match asked {
        Some(d) => {
            let sibling = w.db(move |c| Ok(crate::db::events::sibling_ids(c, tid)?.contains(&d))).await?;
            if sibling {
                d
            } else {
                tid
            }
        }
        None => tid,
    };
    match w.db_raw(move |c| cdb::set_checked_in(c, &actor, tid, round, eid, on, false)).await? {
        Ok(()) => Ok(w.redirect(&desk_link(back, round, w.fields.get("q")))),
        Err(CheckInError::Db(e)) => Err(AppError::db(w.lang, e)),
        Err(e) => {
            let r = refusal(w.lang, &e);
            desk_page(&w, back, round, w.fields.get("q").to_string(), FormView::default(), Some(r)).await
        }
    }
}

/// POST /t/{id}/check-in/{n}/deadline: the round's deadline, typed in the event's zone (empty
/// clears it).
pub async fn deadline(w: Write<Organizer<[i32; 2]>>) -> Result<HttpResponse, AppError> {
    let [tid, round] = w.who.ids;
    let version = w.version()?;
    let t = w.db(move |c| tdb::get(c, tid)).await?;
    let mut f = FormView::from_form(&w.fields);
    let typed = w.fields.get("deadline");
    let stored = match typed {
        "" => None,
        s => match t.zone().typed_timestamp(s).ok().and_then(|ts| chrono::DateTime::from_timestamp(ts, 0)) {
            Some(at) => Some(crate::domain::event_time::stored(at)),
            None => {
                f.error("deadline", w.t("ci.err_deadline"));
                let bad = Some((StatusCode::BAD_REQUEST, w.t("form.has_errors").to_string()));
                return desk_page(&w, tid, round, String::new(), f, bad).await;
            }
        },
    };
    let actor = w.actor();
    match w.db_raw(move |c| cdb::set_deadline(c, &actor, tid, round, version, stored)).await? {
        Ok(()) => Ok(w.redirect(&desk_link(tid, round, ""))),
        Err(CheckInError::Db(e)) => Err(AppError::db(w.lang, e)),
        Err(e) => desk_page(&w, tid, round, String::new(), f, Some(refusal(w.lang, &e))).await,
    }
}

/// The review before closing: who closing would set absent now, with the form that does it.
async fn close_page(
    ctx: &Ctx,
    tid: i32,
    n: i32,
    refused: Option<(StatusCode, String)>,
) -> Result<HttpResponse, AppError> {
    ctx.require_staff(tid, Role::Organizer).await?;
    let (t, state, list) = ctx
        .db(move |c| {
            Ok::<_, DbError>((tdb::get(c, tid)?, cdb::round_state(c, tid, n)?, cdb::closing_list(c, tid, n)?))
        })
        .await?;
    let zh = ctx.lang.is_zh();
    let page = ClosePage {
        c: ctx.chrome_t(&t, true, tr!(ctx.lang, "ci.close_title", round = n)),
        tid,
        round: n,
        version: state.version,
        rows: list
            .iter()
            .map(|e| CloseRow { id: e.id, name: display_name(e, zh), unit: e.unit.clone() })
            .collect(),
        closed: state.closed(),
        early: !dci::may_close(state.deadline_at(), chrono::Utc::now()),
        banner: refused.as_ref().map(|(_, b)| b.clone()),
    };
    ctx.render_status(refused.map_or(StatusCode::OK, |(s, _)| s), &page)
}

/// GET /t/{id}/check-in/{n}/close: the list to review.
pub async fn close_review(ctx: Ctx, path: web::Path<(String, String)>) -> Result<HttpResponse, AppError> {
    let [tid, n] = ctx.ids([&path.0, &path.1])?;
    close_page(&ctx, tid, n, None).await
}

/// POST /t/{id}/check-in/{n}/close: set absent exactly the reviewed list (`absent`, one id
/// each), in one audited write; refused when the list changed meanwhile.
pub async fn close(w: Write<Organizer<[i32; 2]>>) -> Result<HttpResponse, AppError> {
    let [tid, round] = w.who.ids;
    let version = w.version()?;
    let reviewed: Option<Vec<i32>> =
        w.fields.all("absent").into_iter().map(|v| v.parse::<i32>().ok()).collect();
    let Some(reviewed) = reviewed else { return Err(super::write::bad_form(&w)) };
    let actor = w.actor();
    let now = chrono::Utc::now();
    match w.db_raw(move |c| cdb::close(c, &actor, tid, round, version, &reviewed, now)).await? {
        Ok(_) => Ok(w.redirect(&desk_link(tid, round, ""))),
        Err(CheckInError::Db(e)) => Err(AppError::db(w.lang, e)),
        Err(e) => close_page(&w, tid, round, Some(refusal(w.lang, &e))).await,
    }
}

/// POST /t/{id}/check-in/code: a new self check-in code (the old one stops working).
pub async fn new_code(w: Write<Arbiter>) -> Result<HttpResponse, AppError> {
    let [tid] = w.who.ids;
    let code = dci::code_of(super::rounds::new_seed());
    let actor = w.actor();
    w.db(move |c| cdb::set_code(c, &actor, tid, &code)).await?;
    let n = w.db(move |c| cdb::current_round(c, tid)).await?;
    Ok(w.redirect(&desk_link(tid, n, "")))
}

/// The self check-in page: the round, the entrants still to check in, the form.
async fn self_page(
    ctx: &Ctx,
    tid: i32,
    f: FormView,
    done: Option<String>,
    refused: Option<(StatusCode, String)>,
) -> Result<HttpResponse, AppError> {
    let (t, n) = ctx.db(move |c| Ok::<_, DbError>((tdb::get(c, tid)?, cdb::current_round(c, tid)?))).await?;
    let hall = ctx.db(move |c| cdb::hall_desk(c, tid, n, "")).await?;
    let zh = ctx.lang.is_zh();
    let Some(own) = hall.iter().find(|g| g.tid == tid) else { return Err(ctx.not_found()) };
    let open = own.desk.code.is_some() && !own.desk.state.closed();
    let closed = own.desk.state.closed();
    // Every group's entrants still to check in (one code for the event, one form for the hall).
    let choices = hall
        .iter()
        .flat_map(|g| {
            let d = &g.desk;
            d.expected.iter().filter(|e| !d.checked.contains_key(&e.id) && !d.absent.contains(&e.id))
        })
        .map(|e| {
            let name = display_name(e, zh);
            let shown = match e.unit.trim() {
                "" => name,
                unit => tr!(ctx.lang, "ci.choice", name, unit),
            };
            (e.id.to_string(), shown)
        })
        .collect();
    let page = SelfPage {
        c: ctx.chrome_t(&t, false, tr!(ctx.lang, "ci.self_title", round = n)),
        tid,
        round: n,
        open,
        closed,
        choices,
        f,
        done,
        banner: refused.as_ref().map(|(_, b)| b.clone()),
    };
    ctx.render_status(refused.map_or(StatusCode::OK, |(s, _)| s), &page)
}

/// GET /t/{id}/check-in/self: check in on one's own phone. `?code=…` (the hall poster's QR
/// code opens the form so) fills the venue's code in; it is checked when the form is sent, as
/// a typed one.
pub async fn self_form(
    ctx: Ctx,
    path: web::Path<String>,
    q: web::Query<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    let tid = id(ctx.lang, &path)?;
    let mut f = FormView::default();
    let code: String = query(&q, "code").chars().take(dci::CODE_LEN * 4).collect();
    if !code.is_empty() {
        f.set("code", code);
    }
    self_page(&ctx, tid, f, None, None).await
}

/// The entrant a self check-in names, with their group: the one picked (`eid`), else the one
/// expected entrant of any group whose name the typed `name` finds (characters, pinyin or
/// initials).
fn chosen(hall: &[cdb::GroupDesk], eid: &str, name: &str) -> Result<(i32, i32), &'static str> {
    let expected = || hall.iter().flat_map(|g| g.desk.expected.iter().map(move |e| (g.tid, e)));
    if let Ok(id) = eid.parse::<i32>() {
        return expected().find(|(_, e)| e.id == id).map(|(g, e)| (g, e.id)).ok_or("ci.err_not_expected");
    }
    let q = Query::new(name);
    if q.is_empty() {
        return Err("ci.err_pick");
    }
    let found: Vec<(i32, i32)> =
        expected().filter(|(_, e)| q.matches(&e.name())).map(|(g, e)| (g, e.id)).collect();
    match found[..] {
        [one] => Ok(one),
        [] => Err("ci.err_no_match"),
        _ => Err("ci.err_many_match"),
    }
}

/// POST /t/{id}/check-in/self: the entrant (picked or typed) and the venue's code. Wrong codes
/// spend the address's credit (as wrong passwords do at the login); a closed round or no code
/// yet is refused politely.
pub async fn self_check_in(path: web::Path<String>, w: Write<Anyone>) -> Result<HttpResponse, AppError> {
    let tid = id(w.lang, &path)?;
    let lang = w.lang;
    let mut f = FormView::from_form(&w.fields);
    let (eid, name, typed) =
        (w.fields.get("eid").to_string(), w.fields.get("name").to_string(), w.fields.get("code").to_string());
    let (peer, throttle, now) =
        (format!("{tid}\n{}", w.peer), super::throttle::check_in(), super::throttle::now_ms());
    enum Outcome {
        Done(String),
        Field(&'static str, &'static str),
        Refused(StatusCode, &'static str),
    }
    let outcome = w
        .db(move |c| {
            tdb::get(c, tid)?;
            let n = cdb::current_round(c, tid)?;
            let hall = cdb::hall_desk(c, tid, n, "")?;
            let Some(own) = hall.iter().find(|g| g.tid == tid) else { return Err(DbError::NotFound) };
            let Some(code) = own.desk.code.clone() else {
                return Ok(Outcome::Refused(StatusCode::CONFLICT, "ci.err_no_code"));
            };
            if own.desk.state.closed() {
                return Ok(Outcome::Refused(StatusCode::CONFLICT, "ci.err_closed"));
            }
            if !throttle.allows(c, &peer, now)? {
                return Ok(Outcome::Refused(StatusCode::TOO_MANY_REQUESTS, "ci.throttled"));
            }
            if !dci::code_matches(&code, &typed) {
                throttle.failed(c, &peer, now)?;
                return Ok(Outcome::Field("code", "ci.err_code"));
            }
            let (group, who) = match chosen(&hall, &eid, &name) {
                Ok(found) => found,
                Err(key) => return Ok(Outcome::Field("name", key)),
            };
            // The player's own group's round: groups of one event check in for their own next round.
            let n = if group == tid { n } else { cdb::current_round(c, group)? };
            let e = edb::get(c, group, who)?;
            let actor = Actor::system("self-check-in");
            match cdb::set_checked_in(c, &actor, group, n, who, true, true) {
                Ok(()) => Ok(Outcome::Done(display_name(&e, lang.is_zh()))),
                Err(CheckInError::Closed) => Ok(Outcome::Refused(StatusCode::CONFLICT, "ci.err_closed")),
                Err(CheckInError::Db(e)) => Err(e),
                Err(_) => Ok(Outcome::Field("name", "ci.err_not_expected")),
            }
        })
        .await?;
    match outcome {
        Outcome::Done(name) => {
            let done = Some(tr!(lang, "ci.self_done", name));
            self_page(&w, tid, FormView::default(), done, None).await
        }
        Outcome::Field(field, key) => {
            f.error(field, lang.t(key));
            let bad = Some((StatusCode::BAD_REQUEST, lang.t("form.has_errors").to_string()));
            self_page(&w, tid, f, None, bad).await
        }
        Outcome::Refused(status, key) => {
            self_page(&w, tid, f, None, Some((status, lang.t(key).to_string()))).await
        }
    }
}
