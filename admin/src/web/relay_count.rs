//! The count from a relay game's position (seed 003 Arts. 16.4, 21.4): `/t/{id}/matches/{mid}/count`
//! shows the position the moves entered at the board make, with the dead stones (the rules
//! crate's proposal until the referee saves them), the count and the result the match would
//! record (its preview: komi, the draw at 184 of Art. 12, penalty stones in force);
//! `…/count/dead` saves the dead stones, `…/count/confirm` records an executing leader's press
//! on the tablet or, after both, the referee's confirmation that records the match's count
//! ([`office::relay_count`]). The page and its parts are the individual count's
//! (`templates/count.html`, `assets/count.js`, [`super::count`]).

use super::count::{board_view, count_line, dead_field, parse_points, refusal};
use super::ctx::Ctx;
use super::error::AppError;
use super::views::count::{CountPage, Counted, SideConfirm};
use super::views::relay_match::{person_names, result_text, title};
use super::write::{bad_form, Arbiter, Versioned, Write};
use crate::db::game_counts::CountError;
use crate::db::team_matches::MatchError;
use crate::db::team_matches::MatchRow;
use crate::db::teams::{self as tdb_teams, TeamRow};
use crate::db::tournaments::{self as tdb, TournamentRow};
use crate::db::users::Role;
use crate::db::{Actor, DbError};
use crate::domain::team::at_board::Gap;
use crate::domain::team::relay::{Phase, RelayMatch};
use crate::i18n::tr;
use crate::office::confirm_count::CountRefusal;
use crate::office::relay_count::{self as rc, RelayCount};
use crate::web::i18n::Lang;
use crate::web::refusals::{MatchNaming, Refusal as _};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use rules::board::Color;

struct Loaded {
    t: TournamentRow,
    teams: Vec<TeamRow>,
    rc: RelayCount,
    /// What recording the count would do: the match after it, or the match's refusal in words.
    preview: Option<Result<RelayMatch, String>>,
}

fn now() -> i64 {
    chrono::Utc::now().timestamp()
}

/// The match's refusal in words (the tournament's zone for the times it names).
fn match_words(
    lang: Lang,
    t: &TournamentRow,
    m: Option<&RelayMatch>,
    e: &MatchError,
) -> Result<(StatusCode, String), AppError> {
    let names = m.map(person_names).unwrap_or_default();
    let r = e.refused(lang, &MatchNaming { zone: t.zone(), kind: "count", names })?;
    Ok((r.status, r.message))
}

async fn load(ctx: &Ctx, actor: Actor, tid: i32, mid: i32) -> Result<Loaded, AppError> {
    let lang = ctx.lang;
    let (t, teams, rc, preview) = ctx
        .db(move |c| {
            let t = tdb::get(c, tid)?;
            let teams = tdb_teams::list(c, tid)?;
            let rc = rc::relay_count(c, tid, mid)?;
            let playing = rc.st.m.as_ref().is_some_and(|m| m.phase() == Phase::Playing);
            let preview = match &rc.count {
                Some(Ok(pc)) if playing => {
                    let halves = pc.area.black_halves;
                    match rc::preview(c, &actor, (tid, mid), rc.st.row.version, halves, now()) {
                        Ok((_, m)) => Some(Ok(m)),
                        Err(MatchError::Db(e)) => return Err(e),
                        Err(e) => Some(Err(e)),
                    }
                }
                _ => None,
            };
            Ok::<_, DbError>((t, teams, rc, preview))
        })
        .await?;
    let preview = match preview {
        Some(Err(e)) => Some(Err(match_words(lang, &t, rc.st.m.as_ref(), &e)?.1)),
        Some(Ok(m)) => Some(Ok(m)),
        None => None,
    };
    Ok(Loaded { t, teams, rc, preview })
}

/// The relay match of the path, or 404 (another kind of match, a bye, not a team event).
fn relay_row(ctx: &Ctx, l: &Loaded) -> Result<(), AppError> {
    let row: &MatchRow = &l.rc.st.row;
    if !row.is_relay() || row.is_bye() {
        return Err(ctx.not_found());
    }
    Ok(())
}

/// The confirmation of side `c`: its executing leader named on the button, or why nobody can.
fn side_confirm(lang: Lang, m: &RelayMatch, c: Color, done: bool) -> SideConfirm {
    let who = if c == Color::Black { "black" } else { "white" };
    match m.acting_leader(c) {
        Some(el) => {
            let name = m.side(c).team.name_of(el.person).unwrap_or_default();
            let key = if c == Color::Black { "rcnt.confirm_black" } else { "rcnt.confirm_white" };
            SideConfirm { who, label: tr!(lang, key, name = name), done, missing: false }
        }
        None => SideConfirm {
            who,
            label: tr!(lang, "rcnt.no_leader", side = lang.side_name(c)),
            done: false,
            missing: true,
        },
    }
}

fn page(ctx: &Ctx, l: Loaded, typed: Option<String>, banner: Option<String>) -> CountPage {
    let lang = ctx.lang;
    let row = &l.rc.st.row;
    let (tid, mid) = (l.t.id, row.id);
    let base = format!("/t/{tid}/matches/{mid}");
    let title = tr!(lang, "rcnt.title", match = title(lang, row, &l.teams));
    let c = ctx.chrome_t(&l.t, true, title);
    let notice = ctx.path.contains("saved=1").then(|| lang.t("cnt.saved").to_string());
    let mut elsewhere = None;
    let no_position = match &l.rc.count {
        None => lang.t("rcnt.not_started").to_string(),
        Some(Err(Gap::NotEntered { number })) => {
            elsewhere = Some((format!("{base}#form-count"), lang.t("rcnt.typed_count").to_string()));
            tr!(lang, "rcnt.gap_not_entered", number = *number)
        }
        Some(Err(Gap::Unreplayable { number })) => {
            elsewhere = Some((format!("{base}#form-count"), lang.t("rcnt.typed_count").to_string()));
            tr!(lang, "rcnt.gap_unreplayable", number = *number)
        }
        Some(Ok(_)) => String::new(),
    };
    let counted = match (&l.rc.count, &l.rc.st.m) {
        (Some(Ok(pc)), Some(m)) => {
            let a = &pc.area;
            let saved = pc.saved.as_ref();
            let sides = vec![
                side_confirm(lang, m, Color::Black, saved.is_some_and(|r| r.confirmed_black)),
                side_confirm(lang, m, Color::White, saved.is_some_and(|r| r.confirmed_white)),
            ];
            let finish_blocked =
                sides.iter().any(|s| s.missing).then(|| lang.t("rcnt.finish_blocked").to_string());
            let [pb, pw] = m.counts().penalty_stones;
            let facts = vec![(
                lang.t("relay.stones").to_string(),
                tr!(lang, "rcnt.penalty_line", black = pb, white = pw),
            )];
            let over = m.phase() != Phase::Playing;
            let confirmed = saved.and_then(|r| r.confirmed_by.clone());
            // The count confirmed here is the match's while the match stays over; a count
            // event withdrawn since, or a match ended otherwise, is said as such.
            let superseded = match (&confirmed, over) {
                (Some(by), false) => Some(tr!(lang, "rcnt.withdrawn", name = by.as_str())),
                (None, true) => Some(tr!(lang, "rcnt.over", result = result_text(lang, m))),
                _ => None,
            };
            let result = match &l.preview {
                Some(Ok(after)) => result_text(lang, after),
                Some(Err(words)) => words.clone(),
                None => result_text(lang, m),
            };
            Some(Counted {
                board: board_view(&pc.position.board, &pc.dead),
                dead_field: dead_field(pc),
                proposal: pc.proposal,
                source: lang.t("rcnt.source").to_string(),
                count_line: count_line(lang, a),
                result,
                facts,
                version: saved.map_or(0, |r| r.version),
                sheet_version: row.version,
                sides,
                finish_blocked,
                confirmed_by: confirmed.filter(|_| over),
                superseded,
                differs: None,
            })
        }
        _ => None,
    };
    let back = lang.t("rcnt.back").to_string();
    let proposal_note = lang.t("rcnt.proposal").to_string();
    CountPage { c, base, back, counted, proposal_note, no_position, elsewhere, typed, banner, notice }
}

/// GET /t/{id}/matches/{mid}/count
pub async fn count_page(ctx: Ctx, path: web::Path<(String, String)>) -> Result<HttpResponse, AppError> {
    let [tid, mid] = ctx.ids([&path.0, &path.1])?;
    let (user, _) = ctx.require_staff(tid, Role::Arbiter).await?;
    let l = load(&ctx, user.actor(), tid, mid).await?;
    relay_row(&ctx, &l)?;
    ctx.render(&page(&ctx, l, None, None))
}

type CountWrite = Write<Arbiter<[i32; 2]>, Versioned>;

/// The page again with a refusal's words and status, the typed field kept.
async fn refused(
    w: &CountWrite,
    status: StatusCode,
    message: String,
    typed: Option<String>,
) -> Result<HttpResponse, AppError> {
    let [tid, mid] = w.who.ids;
    let l = load(w, w.actor(), tid, mid).await?;
    w.render_status(status, &page(w, l, typed, Some(message)))
}

/// A refusal of the office in words, then the page again.
async fn refused_by(
    w: &CountWrite,
    e: CountRefusal,
    typed: Option<String>,
) -> Result<HttpResponse, AppError> {
    let tid = w.who.ids[0];
    let t = w.db(move |c| tdb::get(c, tid)).await?;
    let (status, msg) = match e {
        CountRefusal::Count(CountError::PlayersFirst) => {
            (StatusCode::CONFLICT, w.t("rcnt.err_leaders_first").to_string())
        }
        e => refusal(w.lang, t.zone(), e)?,
    };
    refused(w, status, msg, typed).await
}

/// POST /t/{id}/matches/{mid}/count/dead: the dead stones as the referee marked them.
pub async fn save_dead(w: CountWrite) -> Result<HttpResponse, AppError> {
    let [tid, mid] = w.who.ids;
    let typed = w.fields.get("dead").trim().to_string();
    let size = w
        .db(move |c| {
            let rc = rc::relay_count(c, tid, mid)?;
            Ok::<_, DbError>(rc.count.and_then(Result::ok).map(|pc| pc.position.board.size()))
        })
        .await?;
    let Some(size) = size else {
        return refused_by(&w, CountRefusal::NoPosition, Some(typed)).await;
    };
    let points = match parse_points(&typed, size) {
        Ok(p) => p,
        Err(bad) => {
            let msg = tr!(w.lang, "cnt.err_point", point = bad);
            return refused(&w, StatusCode::BAD_REQUEST, msg, Some(typed)).await;
        }
    };
    let (actor, version) = (w.actor(), w.form.version);
    match w.db_raw(move |c| rc::save_dead(c, &actor, (tid, mid), version, &points)).await? {
        Ok(_) => Ok(w.redirect(&format!("/t/{tid}/matches/{mid}/count?saved=1"))),
        Err(e) => refused_by(&w, e, Some(typed)).await,
    }
}

/// POST /t/{id}/matches/{mid}/count/confirm: `who` = black, white (that side's executing
/// leader's press on the tablet) or arbiter (the referee's, after both, with the match's
/// version `sv`).
pub async fn confirm(w: CountWrite) -> Result<HttpResponse, AppError> {
    let [tid, mid] = w.who.ids;
    let (actor, version) = (w.actor(), w.form.version);
    let side = match w.fields.get("who") {
        "black" => Some(Color::Black),
        "white" => Some(Color::White),
        "arbiter" => None,
        _ => return Err(bad_form(&w)),
    };
    let r = match side {
        Some(side) => w.db_raw(move |c| rc::confirm_leader(c, &actor, (tid, mid), version, side)).await?,
        None => {
            let sv = w.optional::<i32>("sv")?.ok_or_else(|| bad_form(&w))?;
            let r =
                w.db_raw(move |c| rc::confirm_referee(c, &actor, (tid, mid), (version, sv), now())).await?;
            match r {
                Ok(_) => return Ok(w.redirect(&format!("/t/{tid}/matches/{mid}?done=count#form-count"))),
                Err(e) => Err(e),
            }
        }
    };
    match r {
        Ok(_) => Ok(w.redirect(&format!("/t/{tid}/matches/{mid}/count?saved=1"))),
        Err(e) => refused_by(&w, e, None).await,
    }
}
