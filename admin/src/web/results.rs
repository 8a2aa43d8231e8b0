//! The arbiters' pages for results: the rounds, one round's games, a game's result sheet
//! (result entry with a preview, rulings with their effect shown before saving, lateness,
//! confirmations, the game record), the round's lateness sheet, and naming the chief arbiter.
//!
//! Parse → db/domain → page: what the forms say is read here; every result and every effect is
//! computed by `domain::results` (through the rules crate), every write is in `db::results`.

use super::ctx::{id, Ctx};
use super::error::AppError;
use super::form::Form;
use super::i18n::Lang;
use super::refusals::Refusal;
use super::views::pages::{FormView, Pager, ResultRoundItem, ResultRoundsPage};
/// The lateness verdict as the clock page words it too.
pub(super) use super::views::results::verdict_text;
use super::views::results::*;
use super::write::{bad_form, Arbiter, Organizer, PathIds, Upload, Versioned, Write};
use crate::db::results::{self as rdb, Confirmer, SheetError};
use crate::db::tournaments as tdb;
use crate::db::users::Role;
use crate::db::DbError;
use crate::domain::event_time::EventZone;
use crate::domain::results as dr;
use crate::i18n::tr;
use crate::office::{self, save_result::SaveResult};
use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpResponse};
use chrono::NaiveDate;
use serde::Deserialize;

pub(super) async fn load(ctx: &Ctx, tid: i32, gid: i32, uid: i32) -> Result<Loaded, AppError> {
    ctx.db(move |c| {
        let t = tdb::get(c, tid)?;
        let sheet = rdb::sheet(c, tid, gid)?;
        let (start, arrived) = rdb::round_lateness(c, tid, sheet.game.round_number)?;
        let is_chief = rdb::is_chief(c, tid, Some(uid))?;
        let settings = t.settings();
        let sgf_report = rdb::sgf_report(c, &sheet, &settings.ruleset)?;
        let hall_first = crate::db::hall::first_of(c, tid, sheet.game.round_number)?;
        let position_halves =
            crate::db::game_counts::get(c, tid, crate::db::game_counts::Counted::Game(gid))?
                .and_then(|r| u32::try_from(r.black_halves).ok());
        let l =
            Loaded { t, settings, sheet, start, arrived, is_chief, sgf_report, hall_first, position_halves };
        Ok::<_, DbError>(l)
    })
    .await
}

/// A game's sheet in the reader's language, in the page frame.
fn game_page_of(ctx: &Ctx, l: Loaded, st: PageState) -> GamePage {
    let c = ctx.chrome_t(&l.t, true, game_title(ctx.lang, &l.sheet, l.hall_first));
    build_page(ctx.lang, c, l, st)
}

pub async fn game_page(ctx: Ctx, path: web::Path<(String, String)>) -> Result<HttpResponse, AppError> {
    let [tid, gid] = ctx.ids([&path.0, &path.1])?;
    let (user, _) = ctx.require_staff(tid, Role::Arbiter).await?;
    let l = load(&ctx, tid, gid, user.id).await?;
    let mut st = PageState::empty();
    st.notice = match ctx.path.split_once("saved=").map(|(_, v)| v) {
        Some(v) if v.starts_with('1') => Some(ctx.t("r.saved").to_string()),
        Some(v) if v.starts_with("proposed") => Some(ctx.t("r.saved_proposal").to_string()),
        _ => None,
    };
    ctx.render(&game_page_of(&ctx, l, st))
}

/// The game a sheet write is about, and who writes (a chief arbiter's page shows more).
#[derive(Clone, Copy)]
struct At {
    tid: i32,
    gid: i32,
    uid: i32,
}

impl At {
    fn of(w: &Write<Arbiter<[i32; 2]>, impl Sized>) -> At {
        let [tid, gid] = w.who.ids;
        At { tid, gid, uid: w.who.user.id }
    }
}

/// Turn a refused write into the game page with the message, keeping what was typed (beside
/// the result form's field when `field_form`, else the rulings form's).
async fn refused(
    ctx: &Ctx,
    at: At,
    e: SheetError,
    mut st: PageState,
    field_form: bool,
) -> Result<HttpResponse, AppError> {
    let At { tid, gid, uid } = at;
    let r = e.refused(ctx.lang, &())?;
    match e {
        SheetError::Stale(s) => {
            let zone = ctx.db(move |c| crate::db::tournaments::get(c, tid)).await?.zone();
            st.conflict = Some(conflict_text(ctx.lang, zone, &s));
            st.banner = Some(r.message);
        }
        SheetError::Invalid(_) => {
            let f = if field_form { &mut st.f } else { &mut st.rf };
            let (msg, _) = r.clone().keep(f.get_or_insert_with(FormView::default));
            st.banner = Some(format!("{} {msg}", ctx.t("form.has_errors")));
        }
        SheetError::StaleRound { .. } | SheetError::Db(_) => {}
        _ => st.banner = Some(r.message),
    }
    // The form keeps what was typed, with the current version: saving it again after reading
    // the other's entry replaces it knowingly.
    let l = load(ctx, tid, gid, uid).await?;
    ctx.render_status(r.status, &game_page_of(ctx, l, st))
}

/// The game page with `st`: a 400 when it carries an error banner, else a 200 (a preview).
fn show(ctx: &Ctx, l: Loaded, st: PageState) -> Result<HttpResponse, AppError> {
    let status = if st.banner.is_some() { StatusCode::BAD_REQUEST } else { StatusCode::OK };
    ctx.render_status(status, &game_page_of(ctx, l, st))
}

fn saved(ctx: &Ctx, tid: i32, gid: i32) -> HttpResponse {
    ctx.redirect(&format!("/t/{tid}/games/{gid}?saved=1"))
}

/// A result's preview: the result the entry would give, with its effects (penalties,
/// rulings), or the entry's error beside its field; nothing is saved.
fn preview(lang: Lang, l: &Loaded, entry: Option<&dr::Entry>, mut f: FormView) -> PageState {
    let s = &l.sheet;
    match dr::compute_entry(&l.settings.ruleset, s.handicap(), s.seats(), entry, &s.rules_rulings()) {
        Ok(c) => {
            let mut lines = vec![match c.result {
                Some(r) => tr!(lang, "r.preview_result", result = lang.game_result(&r)),
                None => lang.t("r.no_result_yet").to_string(),
            }];
            lines.extend(effects(lang, &c));
            PageState { f: Some(f), preview: Some(lines), ..PageState::empty() }
        }
        Err(e) => {
            f.error(e.field(), result_message(lang, &e));
            PageState { f: Some(f), ..PageState::with_errors(lang) }
        }
    }
}

/// POST /t/{id}/games/{gid}/result: a result (or its preview, `do=preview`).
pub async fn save_result(w: Write<Arbiter<[i32; 2]>, Versioned>) -> Result<HttpResponse, AppError> {
    let at = At::of(&w);
    let (version, correction) = (w.form.version, w.reason("correction")?);
    // The colours the form's sides named (absent from older forms: not checked).
    let pv = w.optional::<i32>("pv")?;
    let l = load(&w, at.tid, at.gid, at.uid).await?;
    let mut f = FormView::from_form(&w.fields);
    let Some(entry) = entry_from_form(w.lang, &w.fields, &l.settings.ruleset, &mut f) else {
        return show(&w, l, PageState { f: Some(f), ..PageState::with_errors(w.lang) });
    };
    if w.fields.get("do") == "preview" {
        let st = preview(w.lang, &l, entry.as_ref(), f);
        return show(&w, l, st);
    }
    let (actor, At { tid, gid, .. }) = (w.actor(), at);
    let save = move |c: &mut crate::db::Conn| {
        let save = SaveResult { version, colours_version: pv, entry, reason: &correction };
        office::save_result::save_result(c, &actor, tid, gid, &save)
    };
    match w.db_raw(save).await? {
        Ok(_) => Ok(saved(&w, tid, gid)),
        Err(e) => refused(&w, at, e, PageState { f: Some(f), ..PageState::empty() }, true).await,
    }
}

/// POST /t/{id}/games/{gid}/rulings: one or more rulings (or their preview, `do=preview`); a
/// plain arbiter's draw, replay or double loss is a proposal to the chief arbiter.
pub async fn add_ruling(w: Write<Arbiter<[i32; 2]>, Versioned>) -> Result<HttpResponse, AppError> {
    let at = At::of(&w);
    let (lang, version, correction) = (w.lang, w.form.version, w.reason("correction")?);
    let l = load(&w, at.tid, at.gid, at.uid).await?;
    let mut rf = FormView::from_form(&w.fields);
    let round_start = l.start.as_ref().map(|r| r.starts_at.as_str());
    let zone = l.settings.time_zone;
    let day = sheet_day(zone, rdb::lateness_start(&l.sheet, round_start).as_deref());
    let Some(new) = rulings_from_form(lang, &w.fields, &l.settings.ruleset, &mut rf, (zone, day)) else {
        return show(&w, l, PageState { rf: Some(rf), ..PageState::with_errors(lang) });
    };
    let proposal = !l.is_chief && new.iter().any(|n| n.ruling.kind.needs_chief(&l.settings.ruleset));
    if w.fields.get("do") == "preview" {
        let s = &l.sheet;
        let mut all = s.rules_rulings();
        all.extend(new.iter().map(|n| n.ruling));
        let st = match dr::compute(&l.settings.ruleset, s.handicap(), s.seats(), s.entry().as_ref(), &all) {
            Ok(c) => {
                let mut lines: Vec<String> = new.iter().map(|n| ruling_text(lang, &n.ruling)).collect();
                if proposal {
                    lines.push(w.t("r.proposal_preview").to_string());
                }
                lines.extend(effects(lang, &c));
                PageState { rf: Some(rf), ruling_preview: Some(lines), ..PageState::empty() }
            }
            Err(e) => {
                rf.error("kind", result_message(lang, &e));
                PageState { rf: Some(rf), ..PageState::with_errors(lang) }
            }
        };
        return show(&w, l, st);
    }
    let (actor, At { tid, gid, .. }) = (w.actor(), at);
    match w.db_raw(move |c| rdb::add_rulings(c, &actor, tid, gid, version, &new, &correction)).await? {
        Ok(_) if proposal => Ok(w.redirect(&format!("/t/{tid}/games/{gid}?saved=proposed"))),
        Ok(_) => Ok(saved(&w, tid, gid)),
        Err(e) => refused(&w, at, e, PageState { rf: Some(rf), ..PageState::empty() }, false).await,
    }
}

/// A ruling's path: `/t/{id}/games/{gid}/rulings/{rid}/…`.
type RulingWrite = Write<Arbiter<[i32; 3]>, Versioned>;

/// POST /t/{id}/games/{gid}/rulings/{rid}/delete: a ruling undone (the audit keeps it).
pub async fn delete_ruling(w: RulingWrite) -> Result<HttpResponse, AppError> {
    let [tid, gid, rid] = w.who.ids;
    let (actor, version, correction) = (w.actor(), w.form.version, w.reason("correction")?);
    match w.db_raw(move |c| rdb::delete_ruling(c, &actor, tid, gid, rid, version, &correction)).await? {
        Ok(_) => Ok(saved(&w, tid, gid)),
        Err(e) => refused(&w, At { tid, gid, uid: w.who.user.id }, e, PageState::empty(), false).await,
    }
}

/// The chief arbiter decides a plain arbiter's proposal of a draw, a replay or a double loss
/// (seed 000 Arts. 17.5, 17.6): `confirm` it, or reject it.
async fn decide_proposal(w: RulingWrite, confirm: bool) -> Result<HttpResponse, AppError> {
    let [tid, gid, rid] = w.who.ids;
    let (actor, version, correction) = (w.actor(), w.form.version, w.reason("correction")?);
    let r = w
        .db_raw(move |c| rdb::decide_proposal(c, &actor, tid, gid, rid, version, confirm, &correction))
        .await?;
    match r {
        Ok(_) => Ok(saved(&w, tid, gid)),
        Err(e) => refused(&w, At { tid, gid, uid: w.who.user.id }, e, PageState::empty(), false).await,
    }
}

/// POST /t/{id}/games/{gid}/rulings/{rid}/confirm: the proposal stands.
pub async fn confirm_proposal(w: RulingWrite) -> Result<HttpResponse, AppError> {
    decide_proposal(w, true).await
}

/// POST /t/{id}/games/{gid}/rulings/{rid}/reject: the proposal is deleted (the audit keeps it).
pub async fn reject_proposal(w: RulingWrite) -> Result<HttpResponse, AppError> {
    decide_proposal(w, false).await
}

/// Who confirms a result: the players or the arbiter.
#[derive(Deserialize)]
pub struct ConfirmForm {
    version: i32,
    #[serde(default)]
    who: String,
}

/// POST /t/{id}/games/{gid}/confirm: a confirmation of the result (which locks it).
pub async fn confirm(w: Write<Arbiter<[i32; 2]>, ConfirmForm>) -> Result<HttpResponse, AppError> {
    let at = At::of(&w);
    let Some(who) = Confirmer::parse(&w.form.who) else {
        return Err(AppError::bad_request(w.lang, w.t("err.choice").to_string()));
    };
    let (actor, version, At { tid, gid, .. }) = (w.actor(), w.form.version, at);
    match w.db_raw(move |c| rdb::confirm(c, &actor, tid, gid, version, who)).await? {
        Ok(_) => Ok(saved(&w, tid, gid)),
        Err(e) => refused(&w, at, e, PageState::empty(), true).await,
    }
}

/// POST /t/{id}/games/{gid}/lateness: the lateness verdict recorded as the game's rulings.
pub async fn apply_lateness(w: Write<Arbiter<[i32; 2]>, Versioned>) -> Result<HttpResponse, AppError> {
    let at = At::of(&w);
    let (actor, version, correction) = (w.actor(), w.form.version, w.reason("correction")?);
    let At { tid, gid, .. } = at;
    match w.db_raw(move |c| rdb::apply_lateness(c, &actor, tid, gid, version, &correction)).await? {
        Ok(_) => Ok(saved(&w, tid, gid)),
        Err(e) => refused(&w, at, e, PageState::empty(), true).await,
    }
}

/// The venue's day the times of a lateness sheet are typed on: the day of the start already
/// stored (so saving the sheet again keeps its day), else today in the event's zone.
fn sheet_day(zone: EventZone, stored_start: Option<&str>) -> NaiveDate {
    stored_start.and_then(|s| zone.local_date(s)).unwrap_or_else(|| crate::machine::today_in(zone))
}

/// A lateness form's start (`starts_at`) and each of `players`' arrival (`arr_<entrant id>`;
/// empty clears it, a field not sent is left as it is), typed in the event's zone on `day` and
/// returned as stored UTC texts; a time that cannot be read is an error beside its field.
#[allow(clippy::type_complexity)]
fn start_and_arrivals(
    lang: Lang,
    form: &Form,
    f: &mut FormView,
    players: impl IntoIterator<Item = i32>,
    (zone, day): (EventZone, NaiveDate),
) -> Result<(Option<String>, Vec<(i32, Option<String>)>), AppError> {
    f.set("starts_at", form.get("starts_at"));
    let start = typed_time(lang, f, "starts_at", zone, day);
    let players: Vec<i32> = players.into_iter().collect();
    // An arrival of someone who plays no game here (another round's or tournament's entrant,
    // a typo in a hand-made request) is refused, not dropped: a write
    // that silently ignores part of its form would hide the mistake.
    for (k, _) in &form.fields {
        if let Some(rest) = k.strip_prefix("arr_") {
            if !rest.parse::<i32>().is_ok_and(|id| players.contains(&id)) {
                return Err(AppError::bad_request(lang, tr!(lang, "late.err_not_in_round", entrant = rest)));
            }
        }
    }
    let mut arrived = Vec::new();
    for p in players {
        let key = format!("arr_{p}");
        if !form.has(&key) {
            continue;
        }
        match form.get(&key) {
            "" => arrived.push((p, None)),
            v => {
                f.set(&key, v);
                if let Some(s) = typed_time(lang, f, &key, zone, day) {
                    arrived.push((p, Some(s)));
                }
            }
        }
    }
    Ok((start, arrived))
}

/// POST /t/{id}/games/{gid}/start: a replay's own start time and its players' arrivals.
pub async fn save_replay_start(w: Write<Arbiter<[i32; 2]>, Versioned>) -> Result<HttpResponse, AppError> {
    let at = At::of(&w);
    let l = load(&w, at.tid, at.gid, at.uid).await?;
    let mut lf = FormView::from_form(&w.fields);
    let players = [l.sheet.game.black_id, l.sheet.game.white_id].into_iter().flatten();
    let zone = l.settings.time_zone;
    let own = l.sheet.result.as_ref().and_then(|r| r.starts_at.as_deref());
    let day = sheet_day(zone, own.or(l.start.as_ref().map(|r| r.starts_at.as_str())));
    let (start, arrived) = start_and_arrivals(w.lang, &w.fields, &mut lf, players, (zone, day))?;
    let (Some(start), false) = (start, lf.has_errors()) else {
        return show(&w, l, PageState { lf: Some(lf), ..PageState::with_errors(w.lang) });
    };
    let (actor, version, At { tid, gid, .. }) = (w.actor(), w.form.version, at);
    match w.db_raw(move |c| rdb::save_replay_start(c, &actor, tid, gid, version, &start, &arrived)).await? {
        Ok(_) => Ok(saved(&w, tid, gid)),
        Err(e) => refused(&w, at, e, PageState { lf: Some(lf), ..PageState::empty() }, true).await,
    }
}

/// POST /t/{id}/games/{gid}/sgf: the game's record, checked against the game before it is kept.
pub async fn upload_sgf(w: Upload<Arbiter<[i32; 2]>, Versioned>) -> Result<HttpResponse, AppError> {
    let [tid, gid] = w.who.ids;
    let at = At { tid, gid, uid: w.who.user.id };
    let l = load(&w, tid, gid, at.uid).await?;
    let file = w.fields.file("file").filter(|f| !f.data.is_empty());
    let checked = match file {
        None => Err(w.t("r.err_sgf_missing").to_string()),
        // The text in its encoding (GBK, Big5…) for reading; the bytes kept as uploaded.
        Some(f) => dr::check_sgf(&l.settings.ruleset, l.sheet.handicap(), &f.data)
            .map(|rep| {
                (f.filename.clone(), rules::sgf::decode(&f.data).text.into_owned(), f.data.clone(), rep)
            })
            .map_err(|e| tr!(w.lang, "r.err_sgf", error = w.lang.sgf_check_error(&e))),
    };
    let (name, text, bytes, report) = match checked {
        Ok(x) => x,
        Err(msg) => {
            let st = PageState { banner: Some(msg), ..PageState::empty() };
            return w.render_status(StatusCode::BAD_REQUEST, &game_page_of(&w, l, st));
        }
    };
    let name: String =
        name.chars().filter(|c| !c.is_control() && !"/\\\"".contains(*c)).take(100).collect::<String>();
    let name = if name.is_empty() { format!("game-{gid}.sgf") } else { name };
    let (actor, version) = (w.actor(), w.form.version);
    let r = w
        .db_raw(move |c| rdb::attach_sgf(c, &actor, tid, gid, version, &name, &text, &bytes, &report))
        .await?;
    match r {
        Ok(_) => Ok(saved(&w, tid, gid)),
        Err(e) => refused(&w, at, e, PageState::empty(), true).await,
    }
}

/// The stored record: for staff always, for the public once the round is published.
pub async fn download_sgf(ctx: Ctx, path: web::Path<(String, String)>) -> Result<HttpResponse, AppError> {
    let [tid, gid] = ctx.ids([&path.0, &path.1])?;
    let staff = ctx.staff_role(tid).await?.is_some();
    let (published, rec) = ctx
        .db(move |c| {
            let s = rdb::sheet(c, tid, gid)?;
            Ok::<_, DbError>((s.published, rdb::sgf(c, tid, gid)?))
        })
        .await?;
    let Some(rec) = rec.filter(|_| staff || published) else { return Err(ctx.not_found()) };
    let ascii: String = rec
        .name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || ".-_".contains(c) { c } else { '_' })
        .collect();
    // The file as uploaded, in its own encoding (a GBK record stays GBK).
    let charset = rec.encoding.to_ascii_lowercase();
    Ok(ctx.finish(
        HttpResponse::Ok()
            .content_type(format!("application/x-go-sgf; charset={charset}"))
            .insert_header((header::CONTENT_DISPOSITION, format!("attachment; filename=\"{ascii}\"")))
            .body(rec.bytes),
    ))
}

// ---------------------------------------------------------------------------------------------
// Rounds and the lateness sheet
// ---------------------------------------------------------------------------------------------

pub async fn rounds_page(ctx: Ctx, path: web::Path<String>) -> Result<HttpResponse, AppError> {
    let tid = id(ctx.lang, &path)?;
    ctx.require_staff(tid, Role::Arbiter).await?;
    let (t, rounds) = ctx
        .db(move |c| {
            let mut rounds = Vec::new();
            for (number, games, done, published) in rdb::rounds_summary(c, tid)? {
                let late_awaiting = rdb::lateness_awaiting(c, tid, number)?.len();
                rounds.push(ResultRoundItem { number, games, done, published, late_awaiting });
            }
            Ok::<_, DbError>((tdb::get(c, tid)?, rounds))
        })
        .await?;
    ctx.render(&ResultRoundsPage { c: ctx.chrome_t(&t, true, ctx.t("r.rounds_title")), tid, rounds })
}

/// `?page=` of a round's list: absent is page 1, anything but a page number a 400.
fn asked_page(ctx: &Ctx) -> Result<usize, AppError> {
    let q = ctx.path.split_once('?').map_or("", |(_, q)| q);
    let q: Vec<(String, String)> = serde_urlencoded::from_str(q).unwrap_or_default();
    let v = q.iter().find(|(k, _)| k == "page").map_or("", |(_, v)| v.trim());
    Pager::parse(v).ok_or_else(|| AppError::bad_request(ctx.lang, ctx.t("e.err_page").to_string()))
}

/// The games of a round's list (or its lateness sheet) on `page`, with its pager; the page
/// with `f`'s first error if `f` has errors (a refused save shows the table it refuses).
async fn round_lines(
    ctx: &Ctx,
    (tid, round): (i32, i32),
    lateness: bool,
    page: usize,
    f: Option<&FormView>,
) -> Result<(Vec<rdb::GameLine>, Pager), AppError> {
    let base = format!("/t/{tid}/results/rounds/{round}{}?", if lateness { "/lateness" } else { "" });
    let all = ctx
        .db(move |c| {
            let lines = rdb::game_lines(c, tid, Some(round), false)?;
            if lines.is_empty() {
                return Err(DbError::NotFound);
            }
            Ok::<_, DbError>(listed(lines, lateness))
        })
        .await?;
    let pager =
        Pager::new(all.len(), page_of(&all, f.filter(|f| f.has_errors()), page), TABLES_PER_PAGE, &base);
    let lines = all.into_iter().skip(pager.range().start).take(pager.range().len()).collect();
    Ok((lines, pager))
}

/// What a round's list or lateness sheet shows besides its games: a refused save's entry
/// (its first error's table on the page), a banner, and the page's status.
struct Shown {
    f: Option<FormView>,
    banner: Option<String>,
    status: StatusCode,
}

impl Shown {
    const PLAIN: Shown = Shown { f: None, banner: None, status: StatusCode::OK };
}

/// A round's list (or its lateness sheet when `lateness`) on `page`.
async fn round_page_with(
    ctx: &Ctx,
    (tid, round): (i32, i32),
    lateness: bool,
    page: usize,
    shown: Shown,
) -> Result<HttpResponse, AppError> {
    let lang = ctx.lang;
    let Shown { f, banner, status } = shown;
    let (lines, pager) = round_lines(ctx, (tid, round), lateness, page, f.as_ref()).await?;
    let ids: Vec<i32> = lines.iter().map(|l| l.game.id).collect();
    let (t, names, start, arrived, sheets, hall_first) = ctx
        .db(move |c| {
            let t = tdb::get(c, tid)?;
            let hall_first = crate::db::hall::first_of(c, tid, round)?;
            let names = rdb::entrants_by_id(c, tid)?;
            let (start, arrived) = rdb::round_lateness(c, tid, round)?;
            // Only this page's sheets (a round of 5,000 tables is not read whole): the lateness
            // verdicts and what of them is not recorded yet, flagged on both pages.
            let mut sheets = Vec::new();
            for gid in &ids {
                sheets.push(rdb::sheet(c, tid, *gid)?);
            }
            Ok::<_, DbError>((t, names, start, arrived, sheets, hall_first))
        })
        .await?;
    let title = tr!(lang, if lateness { "late.title" } else { "r.round_title" }, round);
    let c = ctx.chrome_t(&t, true, title);
    let notice = ctx.path.contains("saved=1").then(|| ctx.t("r.saved").to_string());
    let l = RoundLoaded { t, lines, names, start, arrived, sheets, pager, hall_first };
    let page = round_sheet(lang, c, (round, lateness), l, (f, banner, notice));
    ctx.render_status(status, &page)
}

fn round_of(ctx: &Ctx, s: &str) -> Result<i32, AppError> {
    round_number(s).ok_or_else(|| ctx.not_found())
}

/// A round number in a path: 1 to 999.
fn round_number(s: &str) -> Option<i32> {
    s.parse::<i32>().ok().filter(|r| (1..=999).contains(r))
}

/// The path of a round's lateness sheet: `/t/{id}/results/rounds/{n}/lateness…`.
pub struct RoundPath {
    tid: i32,
    round: i32,
}

impl PathIds for RoundPath {
    fn parse(segments: &[String]) -> Option<Self> {
        let [tid] = <[i32; 1]>::parse(segments)?;
        Some(RoundPath { tid, round: round_number(segments.get(1)?)? })
    }
    fn key(&self) -> i32 {
        self.tid
    }
}

pub async fn round_page(ctx: Ctx, path: web::Path<(String, String)>) -> Result<HttpResponse, AppError> {
    let tid = id(ctx.lang, &path.0)?;
    let round = round_of(&ctx, &path.1)?;
    ctx.require_staff(tid, Role::Arbiter).await?;
    let page = asked_page(&ctx)?;
    round_page_with(&ctx, (tid, round), false, page, Shown::PLAIN).await
}

pub async fn lateness_page(ctx: Ctx, path: web::Path<(String, String)>) -> Result<HttpResponse, AppError> {
    let tid = id(ctx.lang, &path.0)?;
    let round = round_of(&ctx, &path.1)?;
    ctx.require_staff(tid, Role::Arbiter).await?;
    let page = asked_page(&ctx)?;
    round_page_with(&ctx, (tid, round), true, page, Shown::PLAIN).await
}

/// What a lateness save checks against: the round's players (a replay's arrive on its own
/// sheet), the event's zone and the round's stored start.
async fn lateness_players(
    ctx: &Ctx,
    tid: i32,
    round: i32,
) -> Result<(Vec<i32>, EventZone, Option<String>), AppError> {
    let loaded: (Vec<i32>, EventZone, Option<String>) = ctx
        .db(move |c| {
            let lines = rdb::game_lines(c, tid, Some(round), false)?;
            if lines.is_empty() {
                return Err(DbError::NotFound);
            }
            let zone = tdb::get(c, tid)?.zone();
            let (start, _) = rdb::round_lateness(c, tid, round)?;
            let players = lines
                .iter()
                .filter(|l| !l.game.is_replay())
                .flat_map(|l| [l.game.black_id, l.game.white_id])
                .flatten()
                .collect();
            Ok((players, zone, start.map(|r| r.starts_at)))
        })
        .await?;
    Ok(loaded)
}

/// The page a lateness form was on: a refusal shows it again, a save goes back to it.
fn form_page(w: &Write<Arbiter<RoundPath>, impl Sized>) -> Result<usize, AppError> {
    Pager::parse(w.fields.get("page").trim())
        .ok_or_else(|| AppError::bad_request(w.lang, w.t("e.err_page").to_string()))
}

/// POST /t/{id}/results/rounds/{n}/lateness: the round's start and the players' arrivals.
pub async fn save_lateness(w: Write<Arbiter<RoundPath>, Versioned>) -> Result<HttpResponse, AppError> {
    let RoundPath { tid, round } = w.who.ids;
    let page = form_page(&w)?;
    let mut f = FormView::from_form(&w.fields);
    let (players, zone, stored_start) = lateness_players(&w, tid, round).await?;
    let day = sheet_day(zone, stored_start.as_deref());
    let (start, arrived) = start_and_arrivals(w.lang, &w.fields, &mut f, players, (zone, day))?;
    let (Some(start), false) = (start, f.has_errors()) else {
        let shown = Shown {
            f: Some(f),
            banner: Some(w.t("form.has_errors").into()),
            status: StatusCode::BAD_REQUEST,
        };
        return round_page_with(&w, (tid, round), true, page, shown).await;
    };
    let (actor, version) = (w.actor(), w.form.version);
    match w.db_raw(move |c| rdb::save_arrivals(c, &actor, tid, round, version, &start, &arrived)).await? {
        Ok(_) => Ok(w.redirect(&format!("/t/{tid}/results/rounds/{round}/lateness?saved=1&page={page}"))),
        Err(SheetError::StaleRound { current }) => {
            let (start, saved) = current
                .map(|c| (zone.time(&c.starts_at), w.lang.in_zone(&zone, &c.updated_at)))
                .unwrap_or_default();
            let banner = Some(tr!(w.lang, "late.err_stale", start, saved));
            round_page_with(
                &w,
                (tid, round),
                true,
                page,
                Shown { f: Some(f), banner, status: StatusCode::CONFLICT },
            )
            .await
        }
        Err(SheetError::Db(e)) => Err(AppError::db(w.lang, e)),
        Err(_) => Err(bad_form(&w)),
    }
}

/// POST /t/{id}/results/rounds/{n}/lateness/record: record the lateness verdicts the sheet's
/// page shows and no game has recorded (seed 000 Art. 22.1: late beyond the limit loses; Art.
/// 22.3: both, both lose), once the arbiter ticked that they checked them. `g` fields name the
/// games with the sheet version shown ("id:version"); a game changed meanwhile refuses all.
pub async fn record_lateness(w: Write<Arbiter<RoundPath>>) -> Result<HttpResponse, AppError> {
    let RoundPath { tid, round } = w.who.ids;
    let page = form_page(&w)?;
    let mut games = Vec::new();
    for g in w.fields.all("g") {
        let (gid, v) = g.split_once(':').ok_or_else(|| bad_form(&w))?;
        let number = |s: &str| s.parse::<i32>().map_err(|_| bad_form(&w));
        games.push((number(gid)?, number(v)?));
    }
    let correction = w.reason("correction")?;
    if !w.fields.checked("confirm") {
        let mut f = FormView::default();
        f.error("confirm", w.t("late.err_confirm"));
        let shown = Shown {
            f: Some(f),
            banner: Some(w.t("form.has_errors").into()),
            status: StatusCode::BAD_REQUEST,
        };
        return round_page_with(&w, (tid, round), true, page, shown).await;
    }
    let actor = w.actor();
    match w.db_raw(move |c| rdb::record_lateness(c, &actor, tid, round, &games, &correction)).await? {
        Ok(_) => Ok(w.redirect(&format!("/t/{tid}/results/rounds/{round}/lateness?saved=1&page={page}"))),
        Err(e) => {
            let r = e.refused(w.lang, &())?;
            // A game changed since the page was shown: every other refusal in one sentence.
            let banner = match e {
                SheetError::Locked | SheetError::ReasonRequired | SheetError::NoLateness => r.message,
                _ => w.t("late.err_record_changed").to_string(),
            };
            let shown = Shown { f: None, banner: Some(banner), status: r.status };
            round_page_with(&w, (tid, round), true, page, shown).await
        }
    }
}

/// POST /t/{id}/chief: name the chief arbiter (organizers only; none: no chief).
pub async fn set_chief(w: Write<Organizer>) -> Result<HttpResponse, AppError> {
    let [tid] = w.who.ids;
    let uid = match w.fields.get("user_id") {
        "" => None,
        v => Some(id(w.lang, v)?),
    };
    let actor = w.actor();
    w.db(move |c| rdb::set_chief(c, &actor, tid, uid)).await?;
    Ok(w.redirect(&format!("/t/{tid}")))
}
