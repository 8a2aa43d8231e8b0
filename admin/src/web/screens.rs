//! Display screens (大屏): the organizers' page `/e/{event}/screens` (create, edit, revoke a
//! screen, issue a new address) and the screen itself, `/screen/{token}`, opened full-screen on
//! a projector's browser with no login. The screen's lists come from its own endpoint
//! `/screen/{token}/data` (an HTML fragment with an ETag), built from the public pages'
//! snapshots and lines (`web::public`), cut into pages by `domain::screens::pages`;
//! `assets/screen.js` rotates the pages at the screen's pace and fetches the fragment again on
//! every change (`tengen:changed` from `assets/live.js`) and, as a fallback, every 15 s.
//! A token is shown once, in the answer to the write that made it; only its hash is kept.

use super::ctx::{id, lang_of, Ctx};
use super::error::AppError;
use super::i18n::Lang;
use super::once;
use super::public::{self, Snapshot};
use super::registration::group_name;
use super::views::screens::*;
use super::write::{EventOrganizer, Write};
use super::AppState;
use crate::db::events::{self as evdb, Group};
use crate::db::screens::{self as sdb, Screen, ScreenError};
use crate::db::tournaments as tdb;
use crate::db::users::Role;
use crate::db::DbError;
use crate::domain::event_time;
use crate::domain::names::{sort_by_name, NameOrder};
use crate::domain::screens::{self as ds, Content, Problem, Setup};
use crate::i18n::tr;
use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use std::sync::Arc;

const SCRIPT: &str = include_str!("../../../assets/screen.js");
const STYLE: &str = include_str!("../../../assets/screen.css");

/// GET /assets/screen.js
pub async fn script() -> HttpResponse {
    asset("text/javascript; charset=utf-8", SCRIPT)
}

/// GET /assets/screen.css
pub async fn style() -> HttpResponse {
    asset("text/css; charset=utf-8", STYLE)
}

fn asset(content_type: &str, body: &'static str) -> HttpResponse {
    HttpResponse::Ok()
        .content_type(content_type.to_string())
        .insert_header((header::CACHE_CONTROL, "public, max-age=3600"))
        .body(body)
}

fn content_label(lang: Lang, c: Content) -> String {
    lang.t(&format!("screen.content_{}", c.code())).to_string()
}

fn problem_text(lang: Lang, p: Problem) -> String {
    let key = match p {
        Problem::NoName => "screen.err_name",
        Problem::NoContent => "screen.err_contents",
        Problem::Pace => "screen.err_pace",
        Problem::Columns => "screen.err_columns",
        Problem::Rows => "screen.err_rows",
        Problem::NotAGroup => "screen.err_groups",
    };
    match p {
        Problem::Pace => tr!(lang, key, min = ds::PACE.start, max = ds::PACE.end - 1),
        Problem::Columns => tr!(lang, key, min = ds::COLUMNS.start, max = ds::COLUMNS.end - 1),
        Problem::Rows => tr!(lang, key, min = ds::ROWS.start, max = ds::ROWS.end - 1),
        _ => lang.t(key).to_string(),
    }
}

// ---------------------------------------------------------------------------------------------
// The organizers' page

/// A form's values: a screen's (to edit) or as typed (refused), with its errors.
fn form_of(lang: Lang, groups: &[Group], action: String, version: i32, s: &Setup) -> ScreenForm {
    let id = match action.rsplit('/').nth(1) {
        Some(n) if n.parse::<i32>().is_ok() => format!("screen-form-{n}"),
        _ => "screen-new".to_string(),
    };
    ScreenForm {
        id,
        action,
        version,
        name: s.name.clone(),
        contents: Content::ALL
            .iter()
            .map(|c| Choice {
                value: c.code().to_string(),
                label: content_label(lang, *c),
                on: s.contents.contains(c),
            })
            .collect(),
        groups: groups
            .iter()
            .map(|g| Choice {
                value: g.id().to_string(),
                label: group_name(lang, g),
                on: s.groups.contains(&g.id()),
            })
            .collect(),
        pace: s.pace.to_string(),
        columns: s.columns.to_string(),
        rows: s.rows.to_string(),
        announcement: s.announcement.clone(),
        errors: Vec::new(),
    }
}

/// The organizers' page: the screens, each with its form; `shown` a new address to show once
/// (the screen's id and its URL), `refused` the form that was refused (None: new) as typed.
async fn list_page(
    ctx: &Ctx,
    eid: i32,
    shown: Option<(i32, String)>,
    refused: Option<(Option<i32>, ScreenForm, StatusCode, String)>,
) -> Result<HttpResponse, AppError> {
    ctx.require_event_staff(eid, Role::Organizer).await?;
    let (groups, screens) =
        ctx.db(move |c| Ok::<_, DbError>((evdb::groups(c, eid)?, sdb::list(c, eid)?))).await?;
    let lang = ctx.lang;
    let (status, banner) = match &refused {
        Some((_, _, status, banner)) => (*status, Some(banner.clone())),
        None => (StatusCode::OK, shown.as_ref().map(|_| ctx.t("screen.url_once").to_string())),
    };
    let mut refused = refused;
    let mut take = |id: Option<i32>| match &refused {
        Some((rid, _, _, _)) if *rid == id => refused.take().map(|r| r.1),
        _ => None,
    };
    let rows = screens
        .iter()
        .map(|s| {
            let action = format!("/e/{eid}/screens/{}", s.id);
            let form = take(Some(s.id))
                .unwrap_or_else(|| form_of(lang, &groups, format!("{action}/edit"), s.version, &s.setup));
            ScreenLine {
                id: s.id,
                version: s.version,
                name: s.setup.name.clone(),
                live: s.live,
                summary: summary(lang, &groups, s),
                url: shown.as_ref().filter(|(id, _)| *id == s.id).map(|(_, u)| u.clone()),
                action,
                form,
            }
        })
        .collect();
    let new = take(None)
        .unwrap_or_else(|| form_of(lang, &groups, format!("/e/{eid}/screens/new"), 0, &Setup::default()));
    let page = ScreensPage {
        c: ctx.chrome_t(
            &groups[0].t,
            true,
            tr!(lang, "screen.list_title", event = groups[0].t.name(lang.is_zh())),
        ),
        eid,
        url_shown: status == StatusCode::OK && shown.is_some(),
        rows,
        new,
        banner,
    };
    ctx.render_status(status, &page)
}

/// A screen's settings in a line: its contents, groups, pace and page.
fn summary(lang: Lang, groups: &[Group], s: &Screen) -> String {
    let contents: Vec<String> = s.setup.contents.iter().map(|c| content_label(lang, *c)).collect();
    let shown: Vec<String> = if s.setup.groups.is_empty() {
        vec![lang.t("screen.all_groups").to_string()]
    } else {
        groups.iter().filter(|g| s.setup.groups.contains(&g.id())).map(|g| group_name(lang, g)).collect()
    };
    let sep = if lang.is_zh() { "、" } else { ", " };
    tr!(
        lang,
        "screen.summary",
        contents = contents.join(sep),
        groups = shown.join(sep),
        pace = s.setup.pace,
        columns = s.setup.columns,
        rows = s.setup.rows
    )
}

/// The cookie that carries a new address to this event's screens page, shown once there
/// ([`super::once`]).
const SHOWN_COOKIE: &str = "tengen_screen_shown";

/// The answer to a write that made a screen's address: to the screens page, which shows it.
fn show_once(ctx: &Ctx, eid: i32, sid: i32, token: &str) -> HttpResponse {
    once::carry(ctx, SHOWN_COOKIE, &format!("/e/{eid}/screens"), format!("{sid}.{token}"))
}

/// GET /e/{event}/screens; with the cookie of a write that just made an address, that address
/// shown (if it is still that screen's: a later re-issue or revocation ends it) and the
/// cookie removed.
pub async fn list(ctx: Ctx, req: HttpRequest, path: web::Path<String>) -> Result<HttpResponse, AppError> {
    let eid = id(ctx.lang, &path)?;
    let carried = once::carried(&req, SHOWN_COOKIE);
    let mut shown = None;
    if let Some((sid, token)) = carried.as_deref().and_then(|v| v.split_once('.')) {
        let (sid, token) = (sid.parse::<i32>().ok(), token.to_string());
        let t2 = token.clone();
        let screen = ctx.db(move |c| {
            sdb::by_token(c, &t2).map(Some).or_else(|e| match e {
                DbError::NotFound => Ok(None),
                e => Err(e),
            })
        });
        if let Some(s) = screen.await?.filter(|s| Some(s.id) == sid && s.event_id == eid) {
            shown = Some((s.id, url_of(&ctx, &token)));
        }
    }
    let mut resp = list_page(&ctx, eid, shown, None).await?;
    if carried.is_some() {
        once::forget(&ctx, &mut resp, SHOWN_COOKIE, &format!("/e/{eid}/screens"));
    }
    Ok(resp)
}

/// The settings as the form sends them; a number that is not one is out of range.
fn read(w: &Write<EventOrganizer<[i32; 2]>>, groups: &[Group]) -> Setup {
    read_fields(&w.fields, groups)
}

fn read_fields(f: &super::form::Form, groups: &[Group]) -> Setup {
    let n = |k: &str| f.get(k).trim().parse::<u32>().unwrap_or(0);
    Setup {
        name: f.get("name").trim().to_string(),
        contents: Content::ALL.into_iter().filter(|c| f.checked(&format!("c_{}", c.code()))).collect(),
        groups: groups.iter().map(|g| g.id()).filter(|g| f.checked(&format!("g_{g}"))).collect(),
        pace: n("pace"),
        columns: n("columns"),
        rows: n("rows"),
        announcement: f.get("announcement").trim().to_string(),
    }
}

/// The address of a screen with `token`, as the projector opens it.
fn url_of(ctx: &Ctx, token: &str) -> String {
    format!("{}/screen/{token}", ctx.state.net.public_url.as_deref().unwrap_or(""))
}

/// A refused write: its form as typed, beside the field's errors.
async fn refused(
    ctx: &Ctx,
    eid: i32,
    sid: Option<i32>,
    version: i32,
    setup: &Setup,
    e: ScreenError,
) -> Result<HttpResponse, AppError> {
    let groups = ctx.db(move |c| evdb::groups(c, eid)).await?;
    let action = match sid {
        Some(s) => format!("/e/{eid}/screens/{s}/edit"),
        None => format!("/e/{eid}/screens/new"),
    };
    let mut form = form_of(ctx.lang, &groups, action, version, setup);
    let (status, banner) = match e {
        ScreenError::Invalid(problems) => {
            form.errors = problems.iter().map(|p| (p.field(), problem_text(ctx.lang, *p))).collect();
            (StatusCode::BAD_REQUEST, ctx.t("form.has_errors").to_string())
        }
        ScreenError::Stale => (StatusCode::CONFLICT, ctx.t("screen.err_stale").to_string()),
        ScreenError::Db(DbError::NotFound) => return Err(ctx.not_found()),
        ScreenError::Db(e) => return Err(AppError::db(ctx.lang, e)),
    };
    list_page(ctx, eid, None, Some((sid, form, status, banner))).await
}

/// The announcement's own check (length, one line), before the store's.
fn announcement_error(lang: Lang, s: &Setup) -> Option<String> {
    super::form::text_error(lang, &s.announcement, ds::MAX_ANNOUNCEMENT, super::form::Lines::One)
        .or_else(|| super::form::text_error(lang, &s.name, ds::MAX_NAME, super::form::Lines::One))
}

/// POST /e/{event}/screens/new: a new screen; its address is shown once, on the page this
/// answer sends the browser to.
pub async fn create(w: Write<EventOrganizer>) -> Result<HttpResponse, AppError> {
    let [eid] = w.who.ids;
    let groups = w.db(move |c| evdb::groups(c, eid)).await?;
    let setup = read_fields(&w.fields, &groups);
    if let Some(e) = announcement_error(w.lang, &setup) {
        let mut form = form_of(w.lang, &groups, format!("/e/{eid}/screens/new"), 0, &setup);
        form.errors.push(("announcement", e.clone()));
        return list_page(&w, eid, None, Some((None, form, StatusCode::BAD_REQUEST, e))).await;
    }
    let token = crate::db::users::random_token();
    let (actor, s2, t2) = (w.actor(), setup.clone(), token.clone());
    let r = w
        .db_raw(move |c| sdb::write(c, &actor, eid, None, sdb::Write::Create { setup: &s2, token: &t2 }))
        .await?;
    match r {
        Ok(sid) => Ok(show_once(&w, eid, sid, &token)),
        Err(e) => refused(&w, eid, None, 0, &setup, e).await,
    }
}

/// POST /e/{event}/screens/{screen}/{edit|revoke|reissue}: new settings, the address revoked
/// (a 404 at once), or a new address (shown once), each read at its version.
pub async fn change(
    path: web::Path<(String, String, String)>,
    w: Write<EventOrganizer<[i32; 2]>>,
) -> Result<HttpResponse, AppError> {
    let [eid, sid] = w.who.ids;
    let version = w.version()?;
    let actor = w.actor();
    match path.2.as_str() {
        "edit" => {
            let groups = w.db(move |c| evdb::groups(c, eid)).await?;
            let setup = read(&w, &groups);
            if let Some(e) = announcement_error(w.lang, &setup) {
                let action = format!("/e/{eid}/screens/{sid}/edit");
                let mut form = form_of(w.lang, &groups, action, version, &setup);
                form.errors.push(("announcement", e.clone()));
                return list_page(&w, eid, None, Some((Some(sid), form, StatusCode::BAD_REQUEST, e))).await;
            }
            let s2 = setup.clone();
            let r = w
                .db_raw(move |c| {
                    sdb::write(c, &actor, eid, Some(sid), sdb::Write::Update { version, setup: &s2 })
                })
                .await?;
            match r {
                Ok(_) => Ok(w.redirect(&format!("/e/{eid}/screens"))),
                Err(e) => refused(&w, eid, Some(sid), version, &setup, e).await,
            }
        }
        "revoke" | "reissue" => {
            let token = crate::db::users::random_token();
            let (t2, revoke) = (token.clone(), path.2 == "revoke");
            let r = w
                .db_raw(move |c| {
                    let how = match revoke {
                        true => sdb::Write::Revoke { version },
                        false => sdb::Write::Reissue { version, token: &t2 },
                    };
                    sdb::write(c, &actor, eid, Some(sid), how)
                })
                .await?;
            match r {
                Ok(_) if revoke => Ok(w.redirect(&format!("/e/{eid}/screens"))),
                Ok(_) => Ok(show_once(&w, eid, sid, &token)),
                Err(ScreenError::Stale) => {
                    let why = w.t("screen.err_stale").to_string();
                    let groups = w.db(move |c| evdb::groups(c, eid)).await?;
                    let current = w.db(move |c| sdb::get(c, eid, sid)).await?;
                    let form = form_of(
                        w.lang,
                        &groups,
                        format!("/e/{eid}/screens/{sid}/edit"),
                        current.version,
                        &current.setup,
                    );
                    list_page(&w, eid, None, Some((Some(sid), form, StatusCode::CONFLICT, why))).await
                }
                Err(ScreenError::Db(DbError::NotFound)) => Err(w.not_found()),
                Err(ScreenError::Db(e)) => Err(AppError::db(w.lang, e)),
                Err(ScreenError::Invalid(_)) => Err(super::write::bad_form(&w)),
            }
        }
        _ => Err(w.not_found()),
    }
}

// ---------------------------------------------------------------------------------------------
// The screen

/// A group a screen shows: its snapshot, and its name in Chinese and in English.
type Shown = (Arc<Snapshot>, String, String);

/// The screen of `token` and the snapshots of the groups it shows, each with its group's name.
fn load(state: &AppState, c: &mut crate::db::Conn, token: &str) -> Result<(Screen, Vec<Shown>), DbError> {
    let screen = sdb::by_token(c, token)?;
    let groups = evdb::groups(c, screen.event_id)?;
    let ids: Vec<i32> = groups.iter().map(|g| g.id()).collect();
    let mut snaps = Vec::new();
    for tid in ds::shown_groups(&screen.setup.groups, &ids) {
        let (_, tag) = tdb::change_stamp(c, tid)?;
        let g = groups.iter().find(|g| g.id() == tid).ok_or(DbError::NotFound)?;
        let snap = state.public.snapshot(&state.pool, c, tid, &tag)?;
        snaps.push((snap, group_name(Lang::Zh, g), group_name(Lang::En, g)));
    }
    Ok((screen, snaps))
}

/// The screen's fragment: its header (title, round, the zone's offset for the clock), its
/// pages, and the announcement.
fn fragment(lang: Lang, screen: &Screen, snaps: &[Shown]) -> ScreenData {
    let now = chrono::Utc::now();
    let first = &snaps[0].0;
    let zone = first.t.zone();
    let gname = |s: &Shown| if lang.is_zh() { s.1.clone() } else { s.2.clone() };
    let title = if snaps.len() == 1 {
        crate::office::events::title(lang, &first.t, first.group.as_ref())
    } else {
        let sep = if lang.is_zh() { "、" } else { ", " };
        let names: Vec<String> = snaps.iter().map(gname).collect();
        format!("{} · {}", first.t.name(lang.is_zh()), names.join(sep))
    };
    let current = snaps.iter().filter_map(|s| s.0.current).max();
    let mut lists: Vec<List> = Vec::new();
    for c in &screen.setup.contents {
        match c {
            Content::Tables | Content::Names | Content::Results => {
                let mut lines = Vec::new();
                let mut players = Vec::new();
                for (snap, ..) in snaps {
                    let page = public::pairings(snap, lang, snap.current, "", "");
                    for l in page.lines {
                        for (me, other, colour) in
                            [(&l.black, &l.white, "screen.black"), (&l.white, &l.black, "screen.white")]
                        {
                            if let Some(me) = me {
                                let name = snap.names.get(&me.id).cloned();
                                players.push((
                                    name,
                                    Item {
                                        player: me.id,
                                        no: if other.is_some() { l.board.to_string() } else { String::new() },
                                        main: format!("{} {}", me.name, me.rank),
                                        mid: lang
                                            .t(if other.is_some() { colour } else { "screen.bye" })
                                            .to_string(),
                                        // Table and colour are what a player looks for; the line stays
                                        // short enough for the name in large type.
                                        other: String::new(),
                                    },
                                ));
                            }
                        }
                        lines.push(l);
                    }
                }
                let round = current.unwrap_or(0);
                match c {
                    Content::Names => {
                        sort_by_name(&mut players, NameOrder::Pinyin, |(e, _)| {
                            e.as_ref().map(|e| e.name()).unwrap_or_default()
                        });
                        lists.push(List {
                            kind: c.code(),
                            title: tr!(lang, "screen.title_names", round = round),
                            items: players.into_iter().map(|(_, i)| i).collect(),
                            at: 0,
                        });
                    }
                    _ => {
                        let results = *c == Content::Results;
                        lines.sort_by_key(|l| (l.black.is_none() || l.white.is_none(), l.board));
                        let items = lines
                            .iter()
                            .filter(|l| !results || !l.result.is_empty())
                            .map(|l| {
                                let seat = |s: &Option<super::views::public::Seat>| {
                                    s.as_ref().map(|s| format!("{} {}", s.name, s.rank)).unwrap_or_default()
                                };
                                let bye = l.black.is_none() || l.white.is_none();
                                Item {
                                    player: 0,
                                    no: if bye { String::new() } else { l.board.to_string() },
                                    main: seat(&l.black),
                                    mid: if results {
                                        l.result.clone()
                                    } else if bye {
                                        lang.t("screen.bye").to_string()
                                    } else {
                                        "–".into()
                                    },
                                    other: seat(&l.white),
                                }
                            })
                            .collect();
                        let key = if results { "screen.title_results" } else { "screen.title_tables" };
                        lists.push(List {
                            kind: c.code(),
                            title: tr!(lang, key, round = round),
                            items,
                            at: 0,
                        });
                    }
                }
            }
            Content::Standings => {
                for s in snaps {
                    let snap = &s.0;
                    let done = snap.current.unwrap_or(0) - i32::from(snap.running);
                    let after = u32::try_from(done.max(0)).unwrap_or(0);
                    let items = if after == 0 {
                        Vec::new()
                    } else {
                        public::standings(snap, lang, Some(after), "")
                            .lines
                            .into_iter()
                            .map(|l| Item {
                                player: l.id,
                                no: l.place,
                                main: format!("{} {}", l.name, l.rank),
                                mid: l.score,
                                other: l.unit,
                            })
                            .collect()
                    };
                    let title = match snaps.len() {
                        1 => tr!(lang, "screen.title_standings", round = after),
                        _ => tr!(lang, "screen.title_group_standings", group = gname(s), round = after),
                    };
                    lists.push(List { kind: c.code(), title, items, at: 0 });
                }
            }
            Content::Countdown => {
                let next = snaps
                    .iter()
                    .flat_map(|s| s.0.starts.iter())
                    .filter_map(|(r, at)| event_time::parse_stored(at).map(|t| (t, *r, at)))
                    .filter(|(t, _, _)| *t > now)
                    .min();
                let (title, at) = match next {
                    Some((t, r, stored)) => (
                        tr!(
                            lang,
                            "screen.title_countdown",
                            round = r,
                            time = zone.time(stored),
                            zone = zone.name()
                        ),
                        t.timestamp_millis(),
                    ),
                    None => (lang.t("screen.no_next_round").to_string(), 0),
                };
                lists.push(List { kind: c.code(), title, items: Vec::new(), at });
            }
        }
    }
    let lens: Vec<usize> =
        lists.iter().map(|l| if l.kind == "countdown" { 0 } else { l.items.len() }).collect();
    let cut = ds::pages(&lens, screen.setup.rows, screen.setup.columns);
    let mut pages = Vec::new();
    for (n, p) in cut.iter().enumerate() {
        let l = &lists[p.list];
        let of = cut.iter().filter(|q| q.list == p.list).count();
        let nth = cut[..n].iter().filter(|q| q.list == p.list).count() + 1;
        pages.push(ScreenPage {
            kind: l.kind,
            title: l.title.clone(),
            nth: if of > 1 { format!("{nth}/{of}") } else { String::new() },
            items: l.items[p.items.clone()].to_vec(),
            at: l.at,
        });
    }
    ScreenData {
        lang,
        title,
        round: current.map(|r| tr!(lang, "screen.round", round = r)).unwrap_or_default(),
        zone: zone.name().to_string(),
        offset: zone.offset_at(now.timestamp()),
        pace: screen.setup.pace,
        rows: screen.setup.rows,
        columns: screen.setup.columns,
        live: snaps.iter().map(|s| s.0.t.id.to_string()).collect::<Vec<_>>().join(","),
        announcement: screen.setup.announcement.clone(),
        pages,
    }
}

/// The screen's fragment now (404 for an unknown or revoked token).
async fn data_of(req: &HttpRequest, token: String) -> Result<ScreenData, AppError> {
    let lang = lang_of(req);
    let state = req
        .app_data::<web::Data<AppState>>()
        .cloned()
        .ok_or_else(|| AppError::internal(lang, "no app state"))?;
    // A token is hex; anything else is no screen (and never reaches the database).
    if !once::is_token(&token) {
        return Err(AppError::not_found(lang));
    }
    let loaded = super::ctx::on_db(move || {
        let mut c = state.pool.get()?;
        load(&state, &mut c, &token)
    })
    .await
    .and_then(|r| r);
    match loaded {
        Ok((screen, snaps)) if !snaps.is_empty() => Ok(fragment(lang, &screen, &snaps)),
        Ok(_) | Err(DbError::NotFound) => Err(AppError::not_found(lang)),
        Err(e) => Err(AppError::db(lang, e)),
    }
}

/// GET /screen/{token}: the screen, full-screen, no login.
pub async fn screen(req: HttpRequest, path: web::Path<String>) -> Result<HttpResponse, AppError> {
    let data = data_of(&req, path.into_inner()).await?;
    let token_path = req.path().to_string();
    let html = ScreenShell { data_url: format!("{token_path}/data"), d: data }
        .render()
        .map_err(|e| AppError::internal(lang_of(&req), e))?;
    Ok(HttpResponse::Ok()
        .content_type("text/html; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "private, no-cache"))
        .body(html))
}

/// GET /screen/{token}/data: the fragment, with an ETag of its bytes (304 when unchanged).
pub async fn data(req: HttpRequest, path: web::Path<String>) -> Result<HttpResponse, AppError> {
    let data = data_of(&req, path.into_inner()).await?;
    let html = data.render().map_err(|e| AppError::internal(lang_of(&req), e))?;
    let etag = {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        html.hash(&mut h);
        format!("W/\"s{:016x}\"", h.finish())
    };
    let unchanged = req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag));
    let mut resp = if unchanged { HttpResponse::NotModified() } else { HttpResponse::Ok() };
    resp.insert_header((header::ETAG, etag)).insert_header((header::CACHE_CONTROL, "private, no-cache"));
    if unchanged {
        return Ok(resp.finish());
    }
    Ok(resp.content_type("text/html; charset=utf-8").body(html))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::web::form::Form;

    /// Tournament practice (大屏): the form's settings are read as sent; a group not of the
    /// event and a number that is not one are not taken as given.
    #[test]
    fn the_form_is_read() {
        let f = Form::of(&[
            ("name", " 一号屏 "),
            ("c_names", "on"),
            ("c_countdown", "on"),
            ("pace", "15"),
            ("columns", "x"),
            ("rows", "20"),
        ]);
        let s = read_fields(&f, &[]);
        assert_eq!(s.name, "一号屏");
        assert_eq!(s.contents, vec![Content::Names, Content::Countdown]);
        assert_eq!((s.pace, s.columns, s.rows), (15, 0, 20));
        assert_eq!(ds::check(&s, &[]), vec![Problem::Columns]);
    }
}
