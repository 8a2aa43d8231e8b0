//! The research room (研究室, seed 003 Art. 10.1: "研究室同步直播比赛对局，研究室人员由领队，队长，
//! 教练员和不上场队员构成"): a page per team of a relay event, `/room/{token}`, opened with no
//! login, that follows the team's relay game as it is (no delay: the public board is the one
//! behind). Organizers issue its address on the team's page (`/t/{id}/teams/{team}/room/issue`;
//! a new address revokes the old) and revoke it (`…/room/revoke`); the address is shown once,
//! carried to the team's page by [`super::once`], and only its hash is kept
//! (`db::research_rooms`). An unknown or revoked token, and a match that is not the team's
//! (`?match=`), are the plain 404 page. The page follows the live stream of the tournament
//! (`Chrome::live`), so it is fetched again on every change.

use super::ctx::Ctx;
use super::error::AppError;
use super::once;
use super::views::room::{self as vr, Loaded, TeamMatch};
use super::write::{Organizer, Versioned, Write};
use crate::db::research_rooms::{self as rdb, RoomError};
use crate::db::team_matches as mdb;
use crate::db::teams as tdb_teams;
use crate::db::tournaments as tdb;
use crate::db::DbError;
use crate::i18n::tr;
use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;

/// The cookie that carries a new address to the team's page, shown once there.
const SHOWN_COOKIE: &str = "tengen_room_shown";

fn team_page(tid: i32, team: i32) -> String {
    format!("/t/{tid}/teams/{team}")
}

/// The room's address as the team opens it.
fn url_of(ctx: &Ctx, token: &str) -> String {
    format!("{}/room/{token}", ctx.state.net.public_url.as_deref().unwrap_or(""))
}

/// The address a write just issued for `team`, if the cookie carries one that is still that
/// team's current address; and whether a cookie came (to be removed).
pub async fn shown_on_team_page(
    ctx: &Ctx,
    req: &HttpRequest,
    tid: i32,
    team: i32,
) -> Result<(Option<String>, bool), AppError> {
    let Some(token) = once::carried(req, SHOWN_COOKIE) else { return Ok((None, false)) };
    if !well_formed(&token) {
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
    Ok((ours.map(|_| url_of(ctx, &token)), true))
}

/// Removes the cookie after the team's page showed the address.
pub fn forget_shown(ctx: &Ctx, resp: &mut HttpResponse, tid: i32, team: i32) {
    once::forget(ctx, resp, SHOWN_COOKIE, &team_page(tid, team));
}

/// A refused write: the team's page with the reason, 409.
async fn refused(w: &Write<Organizer<[i32; 2]>, Versioned>, e: RoomError) -> Result<HttpResponse, AppError> {
    let [tid, team] = w.who.ids;
    let key = match e {
        RoomError::Stale => "room.err_stale",
        RoomError::NotRelay => "room.err_not_relay",
        RoomError::Db(DbError::NotFound) => return Err(w.not_found()),
        RoomError::Db(e) => return Err(AppError::db(w.lang, e)),
    };
    let banner = Some(w.t(key).to_string());
    super::teams::team_page_with_room(w, tid, Some(team), None, banner, StatusCode::CONFLICT, None).await
}

/// POST /t/{id}/teams/{team}/room/issue: a new address for the team's research room (the old
/// one, if any, stops working), shown once on the team's page.
pub async fn issue(w: Write<Organizer<[i32; 2]>, Versioned>) -> Result<HttpResponse, AppError> {
    let [tid, team] = w.who.ids;
    let (actor, version) = (w.actor(), w.form.version);
    let token = crate::db::users::random_token();
    let t2 = token.clone();
    let r = w.db_raw(move |c| rdb::write(c, &actor, tid, team, version, rdb::Write::Issue { token: &t2 })).await?;
    match r {
        Ok(_) => Ok(once::carry(&w, SHOWN_COOKIE, &team_page(tid, team), token)),
        Err(e) => refused(&w, e).await,
    }
}

/// POST /t/{id}/teams/{team}/room/revoke: the address stops working at once (a 404).
pub async fn revoke(w: Write<Organizer<[i32; 2]>, Versioned>) -> Result<HttpResponse, AppError> {
    let [tid, team] = w.who.ids;
    let (actor, version) = (w.actor(), w.form.version);
    let r = w.db_raw(move |c| rdb::write(c, &actor, tid, team, version, rdb::Write::Revoke)).await?;
    match r {
        Ok(_) => Ok(w.redirect(&team_page(tid, team))),
        Err(e) => refused(&w, e).await,
    }
}

/// A token as issued: 64 hex digits; anything else is no room and never reaches the database.
fn well_formed(token: &str) -> bool {
    token.len() == 64 && token.bytes().all(|b| b.is_ascii_hexdigit())
}

#[derive(Deserialize)]
pub struct RoomQuery {
    #[serde(rename = "match")]
    pub match_id: Option<String>,
}

/// Everything the page shows, read in one go: the room, its team and event, and the team's
/// relay matches after their events. `NotFound` for an unknown or revoked token and for a
/// match that is not the team's.
fn load(c: &mut crate::db::Conn, token: &str, want: Option<i32>, base: String) -> Result<Loaded, DbError> {
    let room = rdb::by_token(c, token)?;
    let (tid, team) = (room.tournament_id, room.team_id);
    let t = tdb::get(c, tid)?;
    let (team_row, _) = tdb_teams::get(c, tid, team)?;
    let teams = tdb_teams::list(c, tid)?;
    let mut matches = Vec::new();
    for row in mdb::all_matches(c, tid)? {
        if !row.is_relay() || !(row.black_team_id == team || row.white_team_id == Some(team)) {
            continue;
        }
        let m = mdb::relay_state(c, tid, row.id)?.m;
        matches.push(TeamMatch { row, m });
    }
    if want.is_some_and(|id| !matches.iter().any(|m| m.row.id == id)) {
        return Err(DbError::NotFound);
    }
    Ok(Loaded { t, team: team_row, teams, matches, want, base })
}

/// GET /room/{token} (`?match={mid}`: another of the team's matches): the research room.
pub async fn page(
    ctx: Ctx,
    path: web::Path<String>,
    q: web::Query<RoomQuery>,
) -> Result<HttpResponse, AppError> {
    let token = path.into_inner();
    let want = match q.match_id.as_deref() {
        None => None,
        Some(m) => Some(m.parse::<i32>().map_err(|_| ctx.not_found())?),
    };
    if !well_formed(&token) {
        return Err(ctx.not_found());
    }
    let base = format!("/room/{token}");
    let loaded = ctx.db_raw(move |c| load(c, &token, want, base)).await?;
    let d = match loaded {
        Ok(d) => d,
        Err(DbError::NotFound) => return Err(ctx.not_found()),
        Err(e) => return Err(AppError::db(ctx.lang, e)),
    };
    let title = tr!(ctx.lang, "room.page_title", team = d.team.name.clone());
    let c = ctx.chrome_t(&d.t, false, title).live(d.t.id);
    let page = vr::build(c, ctx.lang, d);
    let mut resp = ctx.render(&page)?;
    // The address is the key: it goes to no other site, and no cache keeps the page.
    resp.headers_mut().insert(header::REFERRER_POLICY, header::HeaderValue::from_static("no-referrer"));
    resp.headers_mut().insert(header::CACHE_CONTROL, header::HeaderValue::from_static("private, no-cache"));
    Ok(resp)
}
