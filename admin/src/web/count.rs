//! The count from the position (数子, seed 000 Arts. 8, 9): `/t/{id}/games/{gid}/count` shows the
//! game's final position ([`office::count_position::final_position`]) with the dead stones — the
//! rules crate's proposal until a referee saves them — and the count as the result sheet would
//! show it; `…/count/dead` saves the dead stones, `…/count/confirm` records a player's press on
//! the tablet or, after both, the referee's confirmation that makes it the game's result
//! ([`office::confirm_count`]).

use super::ctx::Ctx;
use super::error::AppError;
use super::refusals::{MatchNaming, Refusal as _};
use super::views::count::{typed_differs, BoardView, CountPage, Counted, SideConfirm, StoneView};
use super::views::results::game_title;
use super::views::text::display_name;
use super::write::{Arbiter, Versioned, Write};
use crate::db::game_counts::CountError;
use crate::db::results::{self as rdb, Sheet};
use crate::db::tournaments::{self as tdb, TournamentRow};
use crate::db::users::Role;
use crate::db::DbError;
use crate::domain::event_time::EventZone;
use crate::domain::results::{self as dr, Entry};
use crate::domain::settings::TournamentSettings;
use crate::i18n::tr;
use crate::office::confirm_count::{self as cc, CountRefusal};
use crate::office::count_position::{self as cp, PositionCount};
use crate::web::i18n::Lang;
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use rules::board::{Board, Color, Point};
use rules::count::DeadStoneError;
use rules::outcome::half_points_text;
use std::collections::HashMap;

struct Loaded {
    t: TournamentRow,
    settings: TournamentSettings,
    sheet: Sheet,
    hall_first: i32,
    pc: Option<PositionCount>,
}

async fn load(ctx: &Ctx, tid: i32, gid: i32) -> Result<Loaded, AppError> {
    ctx.db(move |c| {
        let t = tdb::get(c, tid)?;
        let sheet = rdb::sheet(c, tid, gid)?;
        let hall_first = crate::db::hall::first_of(c, tid, sheet.game.round_number)?;
        let pc = cp::position_count(c, tid, gid)?;
        Ok::<_, DbError>(Loaded { settings: t.settings(), t, sheet, hall_first, pc })
    })
    .await
}

/// The marked dead stones as the form's field names them: one point per chain.
pub(super) fn dead_field(pc: &PositionCount) -> String {
    let size = pc.position.board.size();
    cp::chain_heads(&pc.position.board, &pc.dead)
        .iter()
        .map(|p| p.display(size))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The area count's line: each side's points, shared points counted half.
pub(super) fn count_line(lang: Lang, a: &rules::count::AreaCount) -> String {
    tr!(
        lang,
        "cnt.count_line",
        black = half_points_text(a.black_halves),
        white = half_points_text(a.white_halves)
    )
}

/// The position as SVG: stones numbered by chain, the dead ones marked.
pub(super) fn board_view(b: &Board, dead: &rules::count::DeadStones) -> BoardView {
    let size = u32::from(b.size());
    let mut chain_of: HashMap<Point, usize> = HashMap::new();
    let mut stones = Vec::new();
    for p in b.all_points() {
        let Some(c) = b.get(p) else { continue };
        if !chain_of.contains_key(&p) {
            let k = chain_of.len();
            for q in b.chain(p) {
                chain_of.insert(q, k);
            }
        }
        stones.push(StoneView {
            cx: u32::from(p.x) + 1,
            cy: u32::from(p.y) + 1,
            colour: if c == Color::Black { "b" } else { "w" },
            chain: chain_of[&p],
            point: p.display(b.size()),
            dead: dead.contains(p),
        });
    }
    let stars = match size {
        19 => vec![4, 10, 16],
        13 => vec![4, 7, 10],
        9 => vec![3, 5, 7],
        _ => vec![],
    };
    BoardView {
        size,
        extent: size + 1,
        lines: (1..=size).collect(),
        stars: stars.iter().flat_map(|&x| stars.iter().map(move |&y| (x, y))).collect(),
        stones,
    }
}

/// The result a count of Black's `halves` gives on this sheet, as the result sheet words it.
fn result_text(lang: Lang, l: &Loaded, halves: u32) -> String {
    let s = &l.sheet;
    let entry = Entry::Count { black_halves: halves, white_halves: None };
    match dr::compute_entry(&l.settings.ruleset, s.handicap(), s.seats(), Some(&entry), &s.rules_rulings()) {
        Ok(c) => c.result.map(|r| lang.game_result(&r)).unwrap_or_default(),
        Err(e) => super::views::results::result_message(lang, &e),
    }
}

fn page(ctx: &Ctx, l: Loaded, typed: Option<String>, banner: Option<String>) -> CountPage {
    let lang = ctx.lang;
    let title = tr!(lang, "cnt.title", game = game_title(lang, &l.sheet, l.hall_first));
    let c = ctx.chrome_t(&l.t, true, title);
    let (tid, gid) = (l.t.id, l.sheet.game.id);
    let notice = ctx.path.contains("saved=1").then(|| lang.t("cnt.saved").to_string());
    let counted = l.pc.as_ref().map(|pc| {
        let a = &pc.area;
        let saved = pc.saved.as_ref();
        let name = |e: Option<&crate::db::entrants::EntrantRow>| {
            e.map(|e| display_name(e, lang.is_zh())).unwrap_or_default()
        };
        let sides = vec![
            SideConfirm {
                who: "black",
                label: tr!(lang, "cnt.confirm_black", name = name(l.sheet.black.as_ref())),
                done: saved.is_some_and(|r| r.confirmed_black),
                missing: false,
            },
            SideConfirm {
                who: "white",
                label: tr!(lang, "cnt.confirm_white", name = name(l.sheet.white.as_ref())),
                done: saved.is_some_and(|r| r.confirmed_white),
                missing: false,
            },
        ];
        // A confirmed count is the game's result only while the sheet still holds that count.
        let confirmed = saved.and_then(|r| r.confirmed_by.as_ref());
        let standing = matches!(
            l.sheet.entry(),
            Some(Entry::Count { black_halves, .. }) if black_halves == a.black_halves
        );
        Counted {
            board: board_view(&pc.position.board, &pc.dead),
            dead_field: dead_field(pc),
            proposal: pc.proposal,
            source: lang
                .t(match pc.position.source {
                    cp::Source::Board | cp::Source::RelayBoard => "cnt.source_board",
                    cp::Source::Record => "cnt.source_record",
                })
                .to_string(),
            count_line: count_line(lang, a),
            result: result_text(lang, &l, a.black_halves),
            facts: Vec::new(),
            version: saved.map_or(0, |r| r.version),
            sheet_version: l.sheet.version(),
            sides,
            finish_blocked: None,
            confirmed_by: confirmed.filter(|_| standing).cloned(),
            superseded: confirmed
                .filter(|_| !standing)
                .map(|by| tr!(lang, "cnt.superseded", name = by.as_str())),
            differs: typed_differs(lang, &l.sheet, a.black_halves),
        }
    });
    let base = format!("/t/{tid}/games/{gid}");
    let (back, no_position) = (lang.t("cnt.back").to_string(), lang.t("cnt.no_position").to_string());
    let proposal_note = lang.t("cnt.proposal").to_string();
    CountPage { c, base, back, counted, proposal_note, no_position, elsewhere: None, typed, banner, notice }
}

/// GET /assets/count.js: the board's taps.
pub async fn script() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/javascript; charset=utf-8")
        .insert_header((actix_web::http::header::CACHE_CONTROL, "public, max-age=3600"))
        .body(SCRIPT)
}

const SCRIPT: &str = include_str!("../../../assets/count.js");

/// GET /t/{id}/games/{gid}/count
pub async fn count_page(ctx: Ctx, path: web::Path<(String, String)>) -> Result<HttpResponse, AppError> {
    let [tid, gid] = ctx.ids([&path.0, &path.1])?;
    ctx.require_staff(tid, Role::Arbiter).await?;
    let l = load(&ctx, tid, gid).await?;
    ctx.render(&page(&ctx, l, None, None))
}

/// The page again with a refusal's words and status, the typed field kept.
async fn refused(
    ctx: &Ctx,
    (tid, gid): (i32, i32),
    status: StatusCode,
    message: String,
    typed: Option<String>,
) -> Result<HttpResponse, AppError> {
    let l = load(ctx, tid, gid).await?;
    ctx.render_status(status, &page(ctx, l, typed, Some(message)))
}

/// A refusal's status and words (`zone`: the event's, for a relay match's refusal that names
/// a time).
pub(super) fn refusal(
    lang: Lang,
    zone: EventZone,
    e: CountRefusal,
) -> Result<(StatusCode, String), AppError> {
    let r = |status: StatusCode, key: &str| Ok((status, lang.t(key).to_string()));
    match e {
        CountRefusal::NoPosition => r(StatusCode::BAD_REQUEST, "cnt.no_position"),
        CountRefusal::BadDead(
            DeadStoneError::NoStone { point, size } | DeadStoneError::NotWholeChain { point, size },
        ) => Ok((StatusCode::BAD_REQUEST, tr!(lang, "cnt.err_no_stone", point = point.display(size)))),
        CountRefusal::BadDead(_) => r(StatusCode::BAD_REQUEST, "cnt.err_point_off"),
        CountRefusal::Count(CountError::Stale(_)) => r(StatusCode::CONFLICT, "cnt.err_stale"),
        CountRefusal::Count(CountError::Confirmed) => r(StatusCode::CONFLICT, "cnt.err_confirmed"),
        CountRefusal::Count(CountError::PlayersFirst) => r(StatusCode::CONFLICT, "cnt.err_players_first"),
        CountRefusal::Count(CountError::NoCount) => r(StatusCode::CONFLICT, "cnt.err_no_count"),
        CountRefusal::Count(CountError::Db(DbError::NotFound)) => Err(AppError::not_found(lang)),
        CountRefusal::Count(CountError::Db(e)) => Err(AppError::db(lang, e)),
        CountRefusal::Sheet(e) => e.refused(lang, &()).map(|r| (r.status, r.message)),
        CountRefusal::NoLeader(side) => {
            Ok((StatusCode::CONFLICT, tr!(lang, "rcnt.no_leader", side = lang.side_name(side))))
        }
        CountRefusal::Match(e) => {
            let n = MatchNaming { zone, kind: "count", names: HashMap::new() };
            e.refused(lang, &n).map(|r| (r.status, r.message))
        }
    }
}

/// The dead-stone field: points ("D16" or SGF letters) separated by spaces or commas.
pub(super) fn parse_points(text: &str, size: u8) -> Result<Vec<Point>, String> {
    text.split(|c: char| c.is_whitespace() || ",，、;；".contains(c))
        .filter(|t| !t.is_empty())
        .map(|t| Point::parse(t, size).ok_or_else(|| t.to_string()))
        .collect()
}

/// POST /t/{id}/games/{gid}/count/dead: the dead stones as the referee marked them.
pub async fn save_dead(w: Write<Arbiter<[i32; 2]>, Versioned>) -> Result<HttpResponse, AppError> {
    let [tid, gid] = w.who.ids;
    let typed = w.fields.get("dead").trim().to_string();
    let size =
        w.db(move |c| Ok::<_, DbError>(cp::final_position(c, tid, gid)?.map(|p| p.board.size()))).await?;
    let Some(size) = size else {
        let msg = w.t("cnt.no_position").to_string();
        return refused(&w, (tid, gid), StatusCode::BAD_REQUEST, msg, Some(typed)).await;
    };
    let points = match parse_points(&typed, size) {
        Ok(p) => p,
        Err(bad) => {
            let msg = tr!(w.lang, "cnt.err_point", point = bad);
            return refused(&w, (tid, gid), StatusCode::BAD_REQUEST, msg, Some(typed)).await;
        }
    };
    let (actor, version) = (w.actor(), w.form.version);
    match w.db_raw(move |c| cc::save_dead(c, &actor, (tid, gid), version, &points)).await? {
        Ok(_) => Ok(w.redirect(&format!("/t/{tid}/games/{gid}/count?saved=1"))),
        Err(e) => {
            let (status, msg) = refusal(w.lang, EventZone::default(), e)?;
            refused(&w, (tid, gid), status, msg, Some(typed)).await
        }
    }
}

/// POST /t/{id}/games/{gid}/count/confirm: `who` = black, white (the player's press on the
/// tablet) or arbiter (the referee's, after both, with the sheet's version `sv`).
pub async fn confirm(w: Write<Arbiter<[i32; 2]>, Versioned>) -> Result<HttpResponse, AppError> {
    let [tid, gid] = w.who.ids;
    let (actor, version) = (w.actor(), w.form.version);
    let r = match w.fields.get("who") {
        "black" => {
            w.db_raw(move |c| cc::confirm_player(c, &actor, (tid, gid), version, Color::Black)).await?
        }
        "white" => {
            w.db_raw(move |c| cc::confirm_player(c, &actor, (tid, gid), version, Color::White)).await?
        }
        "arbiter" => {
            let sv = w.optional::<i32>("sv")?.ok_or_else(|| super::write::bad_form(&w))?;
            let r = w.db_raw(move |c| cc::confirm_referee(c, &actor, (tid, gid), version, sv)).await?;
            if r.is_ok() {
                return Ok(w.redirect(&format!("/t/{tid}/games/{gid}?saved=1")));
            }
            r
        }
        _ => return Err(super::write::bad_form(&w)),
    };
    match r {
        Ok(_) => Ok(w.redirect(&format!("/t/{tid}/games/{gid}/count?saved=1"))),
        Err(e) => {
            let (status, msg) = refusal(w.lang, EventZone::default(), e)?;
            refused(&w, (tid, gid), status, msg, None).await
        }
    }
}
