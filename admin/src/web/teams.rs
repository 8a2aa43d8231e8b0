//! Team events (seed 003, the 队际赛 relay rules): the team settings and the teams with their rosters (organizer), team
//! rounds paired by Berger round robin, Swiss or knockout (organizer; the list is public), and
//! the public team standings. The match pages are in [`super::relay`].
//!
//! Pages exist for tournaments whose system is the team system; for any other tournament they
//! say so (409) and point to the settings.

use super::ctx::{id, Ctx};
use super::error::AppError;
use super::error::Refused;
use super::form::Form;
use super::i18n::Lang;
use super::once;
use super::refusals::{settings_error, Refusal};
use super::views::pages::{FormView, StandingView, TeamFormPage, TeamStandingsPage};
use super::views::text::{is_team_event, team_names};
use super::views::{self, team_rounds};
use super::write::{Organizer, PathIds, Versioned, Write};
use crate::db::research_rooms::{self as rdb, RoomError};
use crate::db::team_matches as mdb;
use crate::db::teams::{self as tdb_teams, MemberRow, RosterInput, TeamRow};
use crate::db::tournaments as tdb;
use crate::db::users::Role;
use crate::db::DbError;
use crate::domain::team::event::{
    Colours, CycleRule, EqualCount, Format, KnockoutDrawRule, MatchPointCode, PlayoffTime, RoundRobinBye,
    TeamPairing, TeamSettings, TeamSettingsError, TieBreakSet,
};
use crate::domain::team::roster::LeaderBasis;
use crate::domain::team::standings::{standings, TeamTieBreak};
use crate::i18n::tr;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};

// ---------------------------------------------------------------------------------------------
// Shared helpers

/// The refusal of a team page on a tournament that is not a team event.
pub fn not_team_event(ctx: &Ctx) -> AppError {
    AppError::msg(StatusCode::CONFLICT, ctx.lang, ctx.t("team.err_not_team_event").to_string())
}

// ---------------------------------------------------------------------------------------------
// The teams page: settings and the team list

/// The teams page: the settings (a form for the organizer until a round is paired, else in
/// words) and the team list; `f` and `banner` are a refused save's.
async fn teams_page(
    ctx: &Ctx,
    tid: i32,
    f: Option<FormView>,
    banner: Option<String>,
    status: StatusCode,
) -> Result<HttpResponse, AppError> {
    let (_, role) = ctx.require_staff(tid, Role::Arbiter).await?;
    let (t, (s, version), teams, rounds) = ctx
        .db(move |c| {
            Ok::<_, DbError>((
                tdb::get(c, tid)?,
                tdb_teams::settings(c, tid)?,
                tdb_teams::domain_teams(c, tid)?,
                tdb_teams::rounds_paired(c, tid)?,
            ))
        })
        .await?;
    let c = ctx.chrome_t(&t, true, ctx.t("team.list_title"));
    let notice = ctx.path.contains("?done=").then(|| ctx.t("team.saved").to_string());
    let d =
        views::teams::Loaded { t, settings: s, version, teams, rounds, organizer: role == Role::Organizer };
    let page = views::teams::build(c, ctx.lang, d, f, banner, notice);
    ctx.render_status(status, &page)
}

/// GET /t/{id}/teams.
pub async fn list(ctx: Ctx, path: web::Path<String>) -> Result<HttpResponse, AppError> {
    let tid = id(ctx.lang, &path)?;
    teams_page(&ctx, tid, None, None, StatusCode::OK).await
}

/// POST /t/{id}/teams/settings.
pub async fn save_settings(w: Write<Organizer, Versioned>) -> Result<HttpResponse, AppError> {
    let [tid] = w.who.ids;
    let mut f = FormView::from_form(&w.fields);
    let settings = settings_from_form(w.lang, &w.fields, &mut f);
    let (version, reason) = (w.form.version, w.reason("reason")?);
    let Some(s) = settings else {
        let banner = Some(w.t("form.has_errors").to_string());
        return teams_page(&w, tid, Some(f), banner, StatusCode::BAD_REQUEST).await;
    };
    let actor = w.actor();
    match w.db_raw(move |c| tdb_teams::save_settings(c, &actor, tid, version, &s, &reason)).await? {
        Ok(_) => Ok(w.redirect(&format!("/t/{tid}/teams?done=settings"))),
        Err(e) => {
            let (banner, status) = kept(w.lang, e.refused(w.lang, &())?, &mut f);
            teams_page(&w, tid, Some(f), Some(banner), status).await
        }
    }
}

/// A refusal on a team form: beside its field with the form's banner, or as the banner.
fn kept(lang: Lang, r: Refused, f: &mut FormView) -> (String, StatusCode) {
    match r.field {
        Some(_) => (lang.t("form.has_errors").to_string(), r.keep(f).1),
        None => r.keep(f),
    }
}

/// One of the offered choices of field `name`; a message beside it when it is missing or not
/// one of them.
fn choice<T>(
    lang: Lang,
    form: &Form,
    f: &mut FormView,
    name: &str,
    parse: fn(&str) -> Option<T>,
) -> Option<T> {
    let v = match form.get(name) {
        "" => None,
        v => parse(v),
    };
    if v.is_none() {
        f.error(name, lang.t("err.choice"));
    }
    v
}

/// A choice that a form may leave out (a form made before the field existed): `default`
/// then, a message when the value is not one of the choices.
fn choice_or<T>(
    lang: Lang,
    form: &Form,
    f: &mut FormView,
    name: &str,
    parse: fn(&str) -> Option<T>,
    default: T,
) -> Option<T> {
    match form.get(name) {
        "" => Some(default),
        _ => choice(lang, form, f, name, parse),
    }
}

/// Read the team settings form (seed 003's choices); a message beside each bad field. The
/// rules between fields are `TeamSettings`'s own, checked when it is saved.
fn settings_from_form(lang: Lang, form: &Form, f: &mut FormView) -> Option<TeamSettings> {
    let format = choice(lang, form, f, "format", Format::from_code);
    let match_points = choice(lang, form, f, "match_points", MatchPointCode::from_code);
    let pairing = choice(lang, form, f, "pairing", TeamPairing::from_code);
    let equal_count = choice(lang, form, f, "equal_count", EqualCount::from_code);
    let tiebreaks = choice(lang, form, f, "tiebreaks", TieBreakSet::from_code);
    let playoff_clock = choice(lang, form, f, "playoff_clock", PlayoffTime::from_code);
    let colours = choice(lang, form, f, "colours", Colours::from_code);
    let rr_bye = choice(lang, form, f, "rr_bye", RoundRobinBye::from_code);
    let d = TeamSettings::default();
    let cycle = choice_or(lang, form, f, "cycle", CycleRule::from_code, d.cycle);
    let knockout_draw =
        choice_or(lang, form, f, "knockout_draw", KnockoutDrawRule::from_code, d.knockout_draw);
    let boards = form.get("boards").parse::<u32>().ok();
    if boards.is_none() {
        f.error("boards", settings_error(lang, TeamSettingsError::Boards));
    }
    let main_board = match form.get("main_board") {
        "" => Some(None),
        v => v.parse::<u32>().ok().map(Some),
    };
    if main_board.is_none() {
        f.error("main_board", settings_error(lang, TeamSettingsError::MainBoardOutOfRange));
    }
    Some(TeamSettings {
        format: format?,
        boards: boards?,
        match_points: match_points?,
        main_board: main_board?,
        pairing: pairing?,
        equal_count: equal_count?,
        tiebreaks: tiebreaks?,
        playoff_clock: playoff_clock?,
        colours: colours?,
        rr_bye: rr_bye?,
        cycle: cycle?,
        knockout_draw: knockout_draw?,
    })
}

// ---------------------------------------------------------------------------------------------
// One team: the roster form

fn roster_form(row: &TeamRow, members: &[MemberRow]) -> FormView {
    let mut f = FormView::default();
    f.set("name", &row.name);
    f.set("unit", &row.unit);
    f.set("rating", row.rating.map(|r| r.to_string()).unwrap_or_default());
    let staff =
        |role: &str| members.iter().find(|m| m.role == role).map(|m| m.name.clone()).unwrap_or_default();
    f.set("leader", staff("leader"));
    f.set("coach", staff("coach"));
    f.set(
        "captain",
        members
            .iter()
            .find(|m| m.captain)
            .and_then(|m| m.position)
            .map(|p| p.to_string())
            .unwrap_or_default(),
    );
    let players: Vec<String> = members
        .iter()
        .filter(|m| m.role == "player")
        .map(|m| format!("{} {}", m.position.unwrap_or(0), m.name))
        .collect();
    f.set("players", players.join("\n"));
    f
}

/// The Art. 10.1 order of stand-ins for an absent leader: coach, captain, then the players by
/// position number (at a match, the players of section 3, 2, 1 in that order).
fn stand_ins(lang: Lang, row: &TeamRow, members: &[MemberRow]) -> Vec<String> {
    let team = tdb_teams::domain_team(row, members);
    let mut absent = Vec::new();
    let mut out = Vec::new();
    if let Some(l) = &team.leader {
        absent.push(l.id);
    }
    let all: Vec<u32> = team.players.iter().map(|p| p.id).collect();
    loop {
        let a = absent.clone();
        let Some(el) = team.executing_leader(&move |p| !a.contains(&p), [&[][..], &[][..], &all[..]]) else {
            break;
        };
        let basis = match el.basis {
            LeaderBasis::Leader => lang.t("team.role_leader"),
            LeaderBasis::Coach => lang.t("team.role_coach"),
            LeaderBasis::Captain => lang.t("team.role_captain"),
            LeaderBasis::SectionPlayer(_) => lang.t("team.role_player"),
        };
        out.push(format!("{} ({basis})", team.name_of(el.person).unwrap_or_default()));
        absent.push(el.person);
        if out.len() > 3 {
            break;
        }
    }
    out
}

async fn team_form_page(
    ctx: &Ctx,
    tid: i32,
    team: Option<i32>,
    f: Option<FormView>,
    banner: Option<String>,
    status: StatusCode,
) -> Result<HttpResponse, AppError> {
    team_page_with_room(ctx, tid, team, f, banner, status, None).await
}

/// The team's page; `room_url` the research room's address just issued, shown this once
/// ([`shown_on_team_page`]).
async fn team_page_with_room(
    ctx: &Ctx,
    tid: i32,
    team: Option<i32>,
    f: Option<FormView>,
    banner: Option<String>,
    status: StatusCode,
    room_url: Option<String>,
) -> Result<HttpResponse, AppError> {
    let (_, role) = ctx.require_staff(tid, Role::Arbiter).await?;
    let organizer = role == Role::Organizer;
    let (t, existing, room) = ctx
        .db(move |c| {
            let t = tdb::get(c, tid)?;
            let e = match team {
                Some(id) => Some(tdb_teams::get(c, tid, id)?),
                None => None,
            };
            // Seed 003 Art. 10.1: a relay event's team has a research room.
            let room = match team {
                Some(id) if organizer && tdb_teams::settings(c, tid)?.0.format == Format::Relay => {
                    Some(crate::db::research_rooms::of_team(c, tid, id)?)
                }
                _ => None,
            };
            Ok::<_, DbError>((t, e, room))
        })
        .await?;
    if !is_team_event(&t) {
        return Err(not_team_event(ctx));
    }
    let title = match &existing {
        Some((row, _)) => row.name.clone(),
        None => ctx.t("team.new_title").to_string(),
    };
    let page = TeamFormPage {
        c: ctx.chrome_t(&t, true, title),
        tid,
        team,
        action: match team {
            Some(id) => format!("/t/{tid}/teams/{id}"),
            None => format!("/t/{tid}/teams/new"),
        },
        version: existing.as_ref().map(|(r, _)| r.version).unwrap_or(0),
        f: f.unwrap_or_else(|| existing.as_ref().map(|(r, m)| roster_form(r, m)).unwrap_or_default()),
        is_organizer: organizer,
        stand_ins: existing.as_ref().map(|(r, m)| stand_ins(ctx.lang, r, m)).unwrap_or_default(),
        banner,
        room: room.zip(team).map(|(r, id)| super::views::pages::RoomSection {
            action: format!("/t/{tid}/teams/{id}/room"),
            version: r.as_ref().map_or(0, |r| r.version),
            live: r.as_ref().is_some_and(|r| r.live),
            ever: r.is_some(),
            url: room_url.filter(|_| r.as_ref().is_some_and(|r| r.live)),
        }),
    };
    ctx.render_status(status, &page)
}

/// GET /t/{id}/teams/new.
pub async fn new_page(ctx: Ctx, path: web::Path<String>) -> Result<HttpResponse, AppError> {
    let tid = id(ctx.lang, &path)?;
    ctx.require_staff(tid, Role::Organizer).await?;
    team_form_page(&ctx, tid, None, None, None, StatusCode::OK).await
}

/// GET /t/{id}/teams/{team}; with the research room's address just issued, shown once
/// ([`shown_on_team_page`]).
pub async fn edit_page(
    ctx: Ctx,
    req: HttpRequest,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, AppError> {
    let [tid, team] = ctx.ids([&path.0, &path.1])?;
    let (url, carried) = shown_on_team_page(&ctx, &req, tid, team).await?;
    let mut resp = team_page_with_room(&ctx, tid, Some(team), None, None, StatusCode::OK, url).await?;
    if carried {
        forget_shown(&ctx, &mut resp, tid, team);
    }
    Ok(resp)
}

fn clean_text(lang: Lang, f: &mut FormView, form: &Form, name: &str, max: usize, required: bool) -> String {
    let v = form.get(name).to_string();
    if required && v.is_empty() {
        f.error(name, lang.t("team.err_required"));
    } else if let Some(e) = super::form::text_error(lang, &v, max, super::form::Lines::One) {
        f.error(name, e);
    }
    v
}

/// Parses the players box: one player a line, "position name" (the position may be left out:
/// the next number is taken).
pub fn parse_players(text: &str) -> Result<Vec<(u32, String)>, (usize, &'static str)> {
    let mut out: Vec<(u32, String)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let digits: String = line.chars().take_while(char::is_ascii_digit).collect();
        let (pos, name) = if digits.is_empty() {
            (out.iter().map(|p| p.0).max().unwrap_or(0) + 1, line)
        } else {
            let rest = line[digits.len()..]
                .trim_start_matches(|c: char| c.is_whitespace() || ".、,，:：".contains(c));
            match digits.parse::<u32>() {
                Ok(p) if (1..=99).contains(&p) => (p, rest.trim()),
                _ => return Err((i + 1, "team.err_line_position")),
            }
        };
        if name.is_empty() {
            return Err((i + 1, "team.err_line_name"));
        }
        if crate::domain::text::check(name, 60, crate::domain::text::Lines::One).is_some() {
            return Err((i + 1, "team.err_line_name"));
        }
        if out.iter().any(|p| p.0 == pos) {
            return Err((i + 1, "team.err_line_duplicate"));
        }
        out.push((pos, name.to_string()));
    }
    out.sort_by_key(|p| p.0);
    Ok(out)
}

fn roster_from_form(lang: Lang, form: &Form) -> (FormView, Option<RosterInput>) {
    let mut f = FormView::from_form(form);
    let name = clean_text(lang, &mut f, form, "name", 80, true);
    let unit = clean_text(lang, &mut f, form, "unit", 80, false);
    let leader = clean_text(lang, &mut f, form, "leader", 60, false);
    let coach = clean_text(lang, &mut f, form, "coach", 60, false);
    let rating = match form.get("rating") {
        "" => None,
        v => match v.parse::<i32>() {
            Ok(r) if (0..=4000).contains(&r) => Some(r),
            _ => {
                f.error("rating", tr!(lang, "err.number_range", min = 0, max = 4000));
                None
            }
        },
    };
    let captain = match form.get("captain") {
        "" => None,
        v => match v.parse::<u32>() {
            Ok(c) if (1..=99).contains(&c) => Some(c),
            _ => {
                f.error("captain", tr!(lang, "err.number_range", min = 1, max = 99));
                None
            }
        },
    };
    let players = match parse_players(form.raw("players")) {
        Ok(p) => p,
        Err((line, key)) => {
            f.error("players", tr!(lang, key, line));
            Vec::new()
        }
    };
    if f.has_errors() {
        return (f, None);
    }
    (f, Some(RosterInput { name, unit, rating, leader, coach, captain, players }))
}

/// A team's roster saved: a new team (`team` none) or the team at the form's version.
async fn save_team(
    w: &Write<Organizer<impl PathIds>>,
    tid: i32,
    team: Option<i32>,
) -> Result<HttpResponse, AppError> {
    let t = w.db(move |c| tdb::get(c, tid)).await?;
    if !is_team_event(&t) {
        return Err(not_team_event(w));
    }
    let (mut f, input) = roster_from_form(w.lang, &w.fields);
    let Some(input) = input else {
        let banner = Some(w.t("form.has_errors").to_string());
        return team_form_page(w, tid, team, Some(f), banner, StatusCode::BAD_REQUEST).await;
    };
    let (actor, reason) = (w.actor(), w.reason("reason")?);
    let result = match team {
        None => w.db_raw(move |c| tdb_teams::create(c, &actor, tid, &input, &reason)).await?,
        Some(team) => {
            let version = w.version()?;
            w.db_raw(move |c| tdb_teams::update(c, &actor, tid, team, version, &input, &reason).map(|_| team))
                .await?
        }
    };
    match result {
        Ok(_) => Ok(w.redirect(&format!("/t/{tid}/teams?done=team"))),
        Err(e) => {
            let (banner, status) = kept(w.lang, e.refused(w.lang, &())?, &mut f);
            team_form_page(w, tid, team, Some(f), Some(banner), status).await
        }
    }
}

/// POST /t/{id}/teams/new.
pub async fn create(w: Write<Organizer>) -> Result<HttpResponse, AppError> {
    let [tid] = w.who.ids;
    save_team(&w, tid, None).await
}

/// POST /t/{id}/teams/{team}.
pub async fn save(w: Write<Organizer<[i32; 2]>>) -> Result<HttpResponse, AppError> {
    let [tid, team] = w.who.ids;
    save_team(&w, tid, Some(team)).await
}

/// POST /t/{id}/teams/{team}/delete: not while the team plays in a paired match.
pub async fn delete(w: Write<Organizer<[i32; 2]>, Versioned>) -> Result<HttpResponse, AppError> {
    let [tid, team] = w.who.ids;
    let (actor, version, reason) = (w.actor(), w.form.version, w.reason("reason")?);
    match w.db_raw(move |c| tdb_teams::delete(c, &actor, tid, team, version, &reason)).await? {
        Ok(()) => Ok(w.redirect(&format!("/t/{tid}/teams"))),
        Err(e) => {
            let r = e.refused(w.lang, &())?;
            team_form_page(&w, tid, Some(team), None, Some(r.message), r.status).await
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The research room's address (研究室, seed 003 Art. 10.1): issued and revoked on the team's
// page, shown there once ([`super::once`]); the room itself is [`super::room`].

/// The cookie that carries a new address to the team's page, shown once there.
const SHOWN_COOKIE: &str = "tengen_room_shown";

fn team_path(tid: i32, team: i32) -> String {
    format!("/t/{tid}/teams/{team}")
}

/// The room's address as the team opens it.
fn room_url(ctx: &Ctx, token: &str) -> String {
    format!("{}/room/{token}", ctx.state.net.public_url.as_deref().unwrap_or(""))
}

/// The address a write just issued for `team`, if the cookie carries one that is still that
/// team's current address; and whether a cookie came (to be removed).
async fn shown_on_team_page(
    ctx: &Ctx,
    req: &HttpRequest,
    tid: i32,
    team: i32,
) -> Result<(Option<String>, bool), AppError> {
    let Some(token) = once::carried(req, SHOWN_COOKIE) else { return Ok((None, false)) };
    if !once::is_token(&token) {
        return Ok((None, true));
    }
    let t2 = token.clone();
    let room = ctx
        .db(move |c| {
            rdb::by_token(c, &t2).map(Some).or_else(|e| match e {
                DbError::NotFound => Ok(None),
                e => Err(e),
            })
        })
        .await?;
    let ours = room.filter(|r| r.tournament_id == tid && r.team_id == team);
    Ok((ours.map(|_| room_url(ctx, &token)), true))
}

/// Removes the cookie after the team's page showed the address.
fn forget_shown(ctx: &Ctx, resp: &mut HttpResponse, tid: i32, team: i32) {
    once::forget(ctx, resp, SHOWN_COOKIE, &team_path(tid, team));
}

/// A refused write: the team's page with the reason, 409.
async fn room_refused(
    w: &Write<Organizer<[i32; 2]>, Versioned>,
    e: RoomError,
) -> Result<HttpResponse, AppError> {
    let [tid, team] = w.who.ids;
    let key = match e {
        RoomError::Stale => "room.err_stale",
        RoomError::NotRelay => "room.err_not_relay",
        RoomError::Db(DbError::NotFound) => return Err(w.not_found()),
        RoomError::Db(e) => return Err(AppError::db(w.lang, e)),
    };
    let banner = Some(w.t(key).to_string());
    team_page_with_room(w, tid, Some(team), None, banner, StatusCode::CONFLICT, None).await
}

/// POST /t/{id}/teams/{team}/room/issue: a new address for the team's research room (the old
/// one, if any, stops working), shown once on the team's page.
pub async fn issue_room(w: Write<Organizer<[i32; 2]>, Versioned>) -> Result<HttpResponse, AppError> {
    let [tid, team] = w.who.ids;
    let (actor, version) = (w.actor(), w.form.version);
    let token = crate::db::users::random_token();
    let t2 = token.clone();
    let r = w
        .db_raw(move |c| rdb::write(c, &actor, tid, team, version, rdb::Write::Issue { token: &t2 }))
        .await?;
    match r {
        Ok(_) => Ok(once::carry(&w, SHOWN_COOKIE, &team_path(tid, team), token)),
        Err(e) => room_refused(&w, e).await,
    }
}

/// POST /t/{id}/teams/{team}/room/revoke: the address stops working at once (a 404).
pub async fn revoke_room(w: Write<Organizer<[i32; 2]>, Versioned>) -> Result<HttpResponse, AppError> {
    let [tid, team] = w.who.ids;
    let (actor, version) = (w.actor(), w.form.version);
    let r = w.db_raw(move |c| rdb::write(c, &actor, tid, team, version, rdb::Write::Revoke)).await?;
    match r {
        Ok(_) => Ok(w.redirect(&team_path(tid, team))),
        Err(e) => room_refused(&w, e).await,
    }
}

// ---------------------------------------------------------------------------------------------
// Team rounds (public list; organizer pairs)

/// The team rounds page with a form's messages or a refusal's `banner`.
async fn rounds_page(
    ctx: &Ctx,
    tid: i32,
    f: FormView,
    banner: Option<String>,
    status: StatusCode,
) -> Result<HttpResponse, AppError> {
    let role = ctx.staff_role(tid).await?;
    let d = ctx
        .db(move |c| {
            Ok::<_, DbError>(team_rounds::Loaded {
                t: tdb::get(c, tid)?,
                settings: tdb_teams::settings(c, tid)?.0,
                teams: tdb_teams::list(c, tid)?,
                rounds: mdb::rounds(c, tid)?,
                matches: mdb::all_matches(c, tid)?,
                rosters: tdb_teams::domain_teams(c, tid)?,
            })
        })
        .await?;
    if !is_team_event(&d.t) {
        return Err(not_team_event(ctx));
    }
    let c = ctx.chrome_t(&d.t, role.is_some(), ctx.t("team.rounds_title"));
    ctx.render_status(status, &team_rounds::build(c, ctx.lang, role, d, f, banner))
}

/// GET /t/{id}/team-rounds: every team round with its matches (public).
pub async fn rounds(ctx: Ctx, path: web::Path<String>) -> Result<HttpResponse, AppError> {
    let tid = id(ctx.lang, &path)?;
    rounds_page(&ctx, tid, FormView::default(), None, StatusCode::OK).await
}

/// POST /t/{id}/team-rounds/{n}/pair: the round paired with the typed seed or a fresh one.
pub async fn pair(w: Write<Organizer<[i32; 2]>>) -> Result<HttpResponse, AppError> {
    let [tid, n] = w.who.ids;
    let mut f = FormView::from_form(&w.fields);
    let seed = match w.fields.get("seed") {
        "" => super::rounds::new_seed(),
        s => match s.parse::<u64>() {
            Ok(v) => v,
            Err(_) => {
                f.error("seed", w.t("round.err_seed"));
                let banner = Some(w.t("form.has_errors").to_string());
                return rounds_page(&w, tid, f, banner, StatusCode::BAD_REQUEST).await;
            }
        },
    };
    let (actor, reason) = (w.actor(), w.reason("reason")?);
    match w.db_raw(move |c| mdb::pair(c, &actor, tid, n, seed, &reason)).await? {
        Ok(()) => Ok(w.redirect(&format!("/t/{tid}/team-rounds#round-{n}"))),
        Err(e) => {
            let r = e.refused(w.lang, &())?;
            rounds_page(&w, tid, f, Some(r.message), r.status).await
        }
    }
}

/// POST /t/{id}/team-rounds/{n}/delete: the last round, while none of its matches began.
pub async fn delete_round(w: Write<Organizer<[i32; 2]>>) -> Result<HttpResponse, AppError> {
    let [tid, n] = w.who.ids;
    let (actor, reason) = (w.actor(), w.reason("reason")?);
    match w.db_raw(move |c| mdb::delete_round(c, &actor, tid, n, &reason)).await? {
        Ok(()) => Ok(w.redirect(&format!("/t/{tid}/team-rounds"))),
        Err(e) => {
            let r = e.refused(w.lang, &())?;
            rounds_page(&w, tid, FormView::default(), Some(r.message), r.status).await
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Team standings (public)

fn tiebreak_name(lang: Lang, t: TeamTieBreak) -> String {
    match t {
        TeamTieBreak::GamePoints => lang.t("team.tb_game_points").to_string(),
        TeamTieBreak::HeadToHead => lang.t("team.tb_head_to_head").to_string(),
        TeamTieBreak::MainBoardWins => lang.t("team.tb_main_board").to_string(),
        TeamTieBreak::BoardWins { board } => tr!(lang, "team.tb_board_wins", board),
        TeamTieBreak::Wins => lang.t("team.tb_wins").to_string(),
    }
}

/// GET /t/{id}/team-standings.
pub async fn standings_page(ctx: Ctx, path: web::Path<String>) -> Result<HttpResponse, AppError> {
    let tid = id(ctx.lang, &path)?;
    let role = ctx.staff_role(tid).await?;
    let (t, (s, _), teams, matches) = ctx
        .db(move |c| {
            Ok::<_, DbError>((
                tdb::get(c, tid)?,
                tdb_teams::settings(c, tid)?,
                tdb_teams::list(c, tid)?,
                mdb::all_matches(c, tid)?,
            ))
        })
        .await?;
    if !is_team_event(&t) {
        return Err(not_team_event(&ctx));
    }
    let lang = ctx.lang;
    let names = team_names(&teams);
    let (recs, byes) = mdb::records_of(&matches, s.bye_points());
    let ids: Vec<u32> = teams.iter().map(|t| tdb_teams::team_id(t.id)).collect();
    let tbs = s.tiebreaks();
    let rows = standings(&ids, &recs, &byes, &tbs)
        .into_iter()
        .map(|r| StandingView {
            rank: r.rank,
            team: names.get(&(r.team as i32)).cloned().unwrap_or_default(),
            played: r.played,
            won: r.won,
            drawn: r.drawn,
            lost: r.lost,
            byes: r.byes,
            match_points: r.match_points,
            game_points: r.game_points,
            main_board_wins: r.main_board_wins,
            board1_wins: r.board_wins.first().copied().unwrap_or(0),
        })
        .collect();
    let page = TeamStandingsPage {
        c: ctx.chrome_t(&t, role.is_some(), ctx.t("team.standings_title")).live(tid),
        tid,
        rows,
        boards: s.format == Format::Boards,
        main_board: s.main_board.is_some() && s.format == Format::Boards,
        tiebreaks: tbs.iter().map(|t| tiebreak_name(lang, *t)).collect::<Vec<_>>().join(" → "),
        decided: recs.len(),
    };
    ctx.render(&page)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_box() {
        assert_eq!(
            parse_players("1 张三\n\n2、李四\n 3. Wang Wu \n赵六").unwrap(),
            vec![(1, "张三".into()), (2, "李四".into()), (3, "Wang Wu".into()), (4, "赵六".into())]
        );
        assert_eq!(parse_players("5 A\n2 B").unwrap(), vec![(2, "B".into()), (5, "A".into())]);
        assert_eq!(parse_players("1 A\n1 B"), Err((2, "team.err_line_duplicate")));
        assert_eq!(parse_players("0 A"), Err((1, "team.err_line_position")));
        assert_eq!(parse_players("3"), Err((1, "team.err_line_name")));
    }
}
