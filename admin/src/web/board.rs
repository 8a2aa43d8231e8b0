//! Moves entered at the board: the recorder's page `/t/{id}/games/{gid}/board` (the
//! tournament's staff; `assets/board.js` for taps, pass, undo and the offline queue), its writes
//! (`…/board/move`, `…/board/undo`, checked by `store::game_moves` under the event's rules), the
//! public board `/t/{id}/games/{gid}/live` (no login; the position the organizer's delay
//! behind the game, all of it once the game has a result; it follows the game by the live
//! stream, `web::live`), the record as SGF (`…/board.sgf`), and the organizer's delay
//! (`/t/{id}/live-delay`).

use super::ctx::Ctx;
use super::error::{AppError, Refused};
use super::views::board::{self as vb, BoardPage, DelayRefused, LivePage};
use super::views::text::display_name;
use super::write::{Arbiter, Write};
use crate::db::game_moves::{self as gm, Appended, MoveError, StoredMove};
use crate::db::results::{self as rdb, Sheet};
use crate::db::tournaments::{self as tdb, TournamentRow};
use crate::db::users::Role;
use crate::db::DbError;
use crate::i18n::{tr, Lang};
use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpResponse};
use domain::moves::{self as dm, BoardRules, Position, Refusal};
use rules::board::{Color, Point};
use rules::game::{IllegalMove, Move};
use serde::Deserialize;
use std::collections::BTreeMap;

/// The board pages' script and style (CSP `default-src 'self'`: no inline script or style).
const SCRIPT: &str = include_str!("../../../assets/board.js");
const STYLE: &str = include_str!("../../../assets/board.css");

pub async fn script() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/javascript; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .body(SCRIPT)
}

pub async fn style() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/css; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .body(STYLE)
}

/// The texts the script shows (keys without `mv.` in its JSON).
const TEXTS: [&str; 6] = ["mv.queued", "mv.saved", "mv.refused", "mv.retry", "mv.offline_undo", "mv.undone"];

/// What a board page reads.
struct Loaded {
    t: TournamentRow,
    sheet: Sheet,
    rules: BoardRules,
    moves: Vec<StoredMove>,
    pos: Result<Position, Refusal>,
    delay: (u32, i32),
}

async fn load(ctx: &Ctx, tid: i32, gid: i32) -> Result<Loaded, AppError> {
    ctx.db(move |c| {
        let t = tdb::get(c, tid)?;
        let sheet = rdb::sheet(c, tid, gid)?;
        let gm::Replayed { rules, moves, pos } = gm::position(c, tid, gid)?;
        let delay = gm::delay(c, tid)?;
        Ok::<_, DbError>(Loaded { t, sheet, rules, moves, pos, delay })
    })
    .await
}

fn players(lang: Lang, s: &Sheet) -> String {
    let name = |e: &Option<crate::db::entrants::EntrantRow>| {
        e.as_ref().map(|e| display_name(e, lang.is_zh())).unwrap_or_default()
    };
    tr!(lang, "mv.players", black = name(&s.black), white = name(&s.white))
}

/// The position to show: the replayed game, or an empty board of the event's size with the
/// reason when the stored record no longer replays.
fn shown(lang: Lang, rules: BoardRules, pos: Result<Position, Refusal>) -> (Position, Option<String>) {
    match pos {
        Ok(p) => (p, None),
        Err(r) => {
            let board =
                rules::board::Board::new(rules.size).unwrap_or_else(|_| rules::board::Board::standard());
            let game = rules::game::Game::from_board(board, Color::Black, rules.ko, rules.suicide);
            (Position { game, captures: [0, 0], moves: 0, last: None }, Some(refusal_text(lang, &r)))
        }
    }
}

fn title(lang: Lang, key: &str, s: &Sheet) -> String {
    match key {
        "mv.title_live" => tr!(lang, "mv.title_live", round = s.game.round_number, table = s.game.board),
        _ => tr!(lang, "mv.title_board", round = s.game.round_number, table = s.game.board),
    }
}

/// GET /t/{id}/games/{gid}/board: the recorder's board.
pub async fn board_page(ctx: Ctx, path: web::Path<(String, String)>) -> Result<HttpResponse, AppError> {
    let [tid, gid] = ctx.ids([&path.0, &path.1])?;
    render_board(&ctx, tid, gid, None).await
}

/// The recorder's board of game `gid`, with a refused delay form (the number as typed).
pub(super) async fn render_board(
    ctx: &Ctx,
    tid: i32,
    gid: i32,
    refused: Option<DelayRefused>,
) -> Result<HttpResponse, AppError> {
    let (_, role) = ctx.require_staff(tid, Role::Arbiter).await?;
    let l = load(ctx, tid, gid).await?;
    let lang = ctx.lang;
    let (pos, problem) = shown(lang, l.rules, l.pos);
    let text: BTreeMap<&str, &str> = TEXTS.iter().map(|k| (k.trim_start_matches("mv."), ctx.t(k))).collect();
    let config = serde_json::json!({
        "key": format!("tengen.board.t{tid}.g{gid}"),
        // The clock page's own storage key (web::clock) with ".press": its press from here.
        "press": format!("tengen.clock.t{tid}.g{gid}.press"),
        "text": text,
    })
    .to_string();
    let organizer = role == Role::Organizer;
    let page = BoardPage {
        c: ctx.chrome_t(&l.t, true, title(lang, "mv.title_board", &l.sheet)).live_by_itself(&[tid]),
        tid,
        gid,
        base: format!("/t/{tid}/games/{gid}"),
        svg: vb::svg(&pos, true),
        status: vb::status(lang, &pos, l.rules.handicap),
        handicap: l.rules.handicap,
        config,
        problem,
        delay: organizer.then(|| {
            let typed = refused.as_ref().map_or_else(|| l.delay.0.to_string(), |r| r.typed.clone());
            (typed, l.delay.1)
        }),
        delay_error: refused.as_ref().map(|r| r.message.clone()),
        delay_text: tr!(lang, "mv.delay_now", moves = l.delay.0),
        players: players(lang, &l.sheet),
    };
    ctx.render_status(refused.map_or(StatusCode::OK, |r| r.status), &page)
}

/// GET /t/{id}/games/{gid}/live: the public board, once the round is published; `delay` moves
/// behind the game until it has a result.
pub async fn live_page(ctx: Ctx, path: web::Path<(String, String)>) -> Result<HttpResponse, AppError> {
    let [tid, gid] = ctx.ids([&path.0, &path.1])?;
    let staff = ctx.staff_role(tid).await?.is_some();
    let l = load(&ctx, tid, gid).await?;
    if !l.sheet.published && !staff {
        return Err(ctx.not_found());
    }
    let lang = ctx.lang;
    let outcome = l.sheet.outcome();
    let all = l.moves.len();
    let show = if outcome.is_some() { all } else { all.saturating_sub(l.delay.0 as usize) };
    let pos = dm::replay(l.rules, &gm::pairs(&l.moves[..show]));
    let (pos, _) = shown(lang, l.rules, pos);
    let behind = if outcome.is_none() && l.delay.0 > 0 {
        tr!(lang, "mv.live_behind", moves = l.delay.0)
    } else {
        String::new()
    };
    let page = LivePage {
        c: ctx.chrome_t(&l.t, staff, title(lang, "mv.title_live", &l.sheet)).live(tid),
        tid,
        gid,
        svg: vb::svg(&pos, false),
        status: vb::status(lang, &pos, l.rules.handicap),
        players: players(lang, &l.sheet),
        behind,
        sgf: outcome.is_some() && all > 0,
        result: outcome.map(|r| lang.game_result(&r)).unwrap_or_default(),
    };
    ctx.render(&page)
}

/// The record entered at the board as SGF text (players, event, komi and handicap of the game).
fn sgf_text(l: &Loaded, lang: Lang) -> String {
    let settings = l.t.settings();
    let name =
        |e: &Option<crate::db::entrants::EntrantRow>| e.as_ref().map(|e| display_name(e, lang.is_zh()));
    let info = rules::sgf::GameInfo {
        black: name(&l.sheet.black),
        white: name(&l.sheet.white),
        event: Some(l.t.name(lang.is_zh()).to_string()),
        round: Some(l.sheet.game.round_number.to_string()),
        rules: Some("Chinese".into()),
        ..Default::default()
    };
    let komi_q = settings.ruleset.scoring(l.rules.handicap, 0, 0).komi_q;
    let rec = dm::record(l.rules, komi_q, info, None, &gm::pairs(&l.moves));
    rules::sgf::write(&rec)
}

/// GET /t/{id}/games/{gid}/board.sgf: the record entered at the board; for the staff at any
/// time, for the public once the game has a result in a published round.
pub async fn download(ctx: Ctx, path: web::Path<(String, String)>) -> Result<HttpResponse, AppError> {
    let [tid, gid] = ctx.ids([&path.0, &path.1])?;
    let staff = ctx.staff_role(tid).await?.is_some();
    let l = load(&ctx, tid, gid).await?;
    let open = l.sheet.published && l.sheet.outcome().is_some();
    if !(staff || open) || l.moves.is_empty() {
        return Err(ctx.not_found());
    }
    let name = format!("round{}-table{}.sgf", l.sheet.game.round_number, l.sheet.game.board);
    Ok(sgf_download(&ctx, &name, sgf_text(&l, ctx.lang)))
}

/// A record entered at a board, downloaded as the file `name`.
pub fn sgf_download(ctx: &Ctx, name: &str, text: String) -> HttpResponse {
    ctx.finish(
        HttpResponse::Ok()
            .content_type("application/x-go-sgf; charset=utf-8")
            .insert_header((header::CONTENT_DISPOSITION, format!("attachment; filename=\"{name}\"")))
            .body(text),
    )
}

/// A move as the board page sends it.
#[derive(Deserialize)]
pub struct MoveForm {
    /// The page's id of the entry (an entry sent again is written once).
    pub client: String,
    /// The move's number as the page counted it.
    pub seq: u32,
    /// `B` or `W`.
    pub colour: String,
    /// SGF coordinates ("pd") or `pass`.
    pub at: String,
}

/// The words of a refusal at the board.
pub fn refusal_text(lang: Lang, r: &Refusal) -> String {
    match *r {
        Refusal::Illegal { number, reason } => {
            let why = lang.t(match reason {
                IllegalMove::Occupied => "mv.err_occupied",
                IllegalMove::Suicide => "mv.err_suicide",
                IllegalMove::Ko => "mv.err_ko",
                IllegalMove::Superko => "mv.err_superko",
                IllegalMove::OffBoard => "mv.err_off_board",
                IllegalMove::GameOver => "mv.err_game_over",
            });
            tr!(lang, "mv.err_illegal", number = number, reason = why)
        }
        Refusal::NotYourTurn { number, expected } => {
            tr!(lang, "mv.err_turn", number = number, colour = vb::colour_text(lang, expected))
        }
        Refusal::Unreplayable { number } => tr!(lang, "mv.err_unreplayable", number = number),
    }
}

fn move_refused(lang: Lang, e: MoveError) -> AppError {
    let r = match e {
        MoveError::Refused(r) => Refused::new(StatusCode::UNPROCESSABLE_ENTITY, refusal_text(lang, &r)),
        MoveError::Stale { wanted, have } => {
            Refused::new(StatusCode::CONFLICT, tr!(lang, "mv.err_stale", wanted = wanted, have = have))
        }
        MoveError::BadClient => Refused::new(StatusCode::BAD_REQUEST, lang.t("mv.err_client")),
        MoveError::NothingToUndo => Refused::new(StatusCode::CONFLICT, lang.t("mv.err_nothing")),
        MoveError::NotYours => Refused::new(StatusCode::FORBIDDEN, lang.t("mv.err_not_yours")),
        MoveError::Db(e) => return AppError::db(lang, e),
    };
    AppError::refused(lang, r)
}

/// POST /t/{id}/games/{gid}/board/move: one move (or pass) entered at the board; back to the
/// board, which shows it.
pub async fn enter(w: Write<Arbiter<[i32; 2]>, MoveForm>) -> Result<HttpResponse, AppError> {
    let [tid, gid] = w.who.ids;
    let colour = match w.form.colour.as_str() {
        "B" => Color::Black,
        "W" => Color::White,
        _ => return Err(super::write::bad_form(&w)),
    };
    let mv = match w.form.at.as_str() {
        "pass" => Move::Pass,
        s => match Point::from_sgf(s) {
            Some(p) => Move::Play(p),
            None => return Err(super::write::bad_form(&w)),
        },
    };
    let (actor, seq, client) = (w.actor(), w.form.seq, w.form.client.clone());
    match w
        .db_raw(move |c| gm::append(c, &actor, tid, gid, gm::Entry { seq, colour, mv, client_id: &client }))
        .await?
    {
        Ok(Appended::Written { .. } | Appended::Again { .. }) => {
            Ok(w.redirect(&format!("/t/{tid}/games/{gid}/board")))
        }
        Err(e) => Err(move_refused(w.lang, e)),
    }
}

#[derive(Deserialize)]
pub struct UndoForm {
    /// The number of the move to undo (the last, as the page showed it).
    pub seq: u32,
}

/// POST /t/{id}/games/{gid}/board/undo: the last move undone by the one who entered it.
pub async fn undo(w: Write<Arbiter<[i32; 2]>, UndoForm>) -> Result<HttpResponse, AppError> {
    let [tid, gid] = w.who.ids;
    let (actor, seq) = (w.actor(), w.form.seq);
    match w.db_raw(move |c| gm::undo(c, &actor, tid, gid, seq)).await? {
        Ok(()) => Ok(w.redirect(&format!("/t/{tid}/games/{gid}/board"))),
        Err(e) => Err(move_refused(w.lang, e)),
    }
}
