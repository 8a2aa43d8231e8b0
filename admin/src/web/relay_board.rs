//! A relay game entered at the board (seed 003): the recorder's page
//! `/t/{id}/matches/{mid}/board` (the tournament's staff; `assets/board.js` in its relay mode:
//! the recorder taps who placed the stone, then the point), its writes (`…/board/move`,
//! `…/board/undo`, `office::relay_board`; `…/board/claim`, the opponent's claim of an order
//! error the board detected, Art. 17.7), the public board `/t/{id}/matches/{mid}/live` (the
//! organizer's delay behind the game, all of it once the match is over; it follows the game by
//! the live stream), and the record as SGF (`…/board.sgf`).

use super::board::{refusal_text, sgf_download};
use super::ctx::Ctx;
use super::error::{AppError, Refused};
use super::i18n::Lang;
use super::refusals::{MatchNaming, Refusal as _};
use super::views::board::{self as vb, DelayRefused};
use super::views::relay_board::{self as vr, RelayBoardPage, RelayLivePage};
use super::views::relay_match::{person_names, title};
use super::write::{bad_form, Arbiter, Write};
use crate::db::game_moves as gm;
use crate::db::team_matches::{self as mdb, EventInput, MatchError, RelayState};
use crate::db::teams as tdb_teams;
use crate::db::tournaments::{self as tdb, TournamentRow};
use crate::db::users::Role;
use crate::db::DbError;
use crate::domain::team::at_board::{self, Gap, Refusal as AtBoard};
use crate::domain::team::relay::{Event, Placed, RelayMatch};
use crate::domain::team::PersonId;
use crate::i18n::tr;
use crate::office::relay_board::{self as office, BoardError, Entry};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use domain::moves::{self as dm, Position};
use rules::board::{Color, Point};
use serde::Deserialize;
use std::collections::{BTreeMap, HashMap};

/// The texts the script shows (keys without `mv.` or `rb.` in its JSON).
const TEXTS: [&str; 7] =
    ["mv.queued", "mv.saved", "mv.refused", "mv.retry", "mv.offline_undo", "mv.undone", "rb.choose"];

/// What the relay board pages read.
struct Loaded {
    t: TournamentRow,
    st: RelayState,
    title: String,
}

async fn load(ctx: &Ctx, tid: i32, mid: i32) -> Result<Loaded, AppError> {
    let lang = ctx.lang;
    let l = ctx
        .db(move |c| {
            let t = tdb::get(c, tid)?;
            let st = mdb::relay_state(c, tid, mid)?;
            let teams = tdb_teams::list(c, tid)?;
            let title = title(lang, &st.row, &teams);
            Ok::<_, DbError>(Loaded { t, st, title })
        })
        .await?;
    if !l.st.row.is_relay() {
        return Err(ctx.not_found());
    }
    Ok(l)
}

/// Why the moves make no position, in words.
fn gap_text(lang: Lang, g: Gap) -> String {
    match g {
        Gap::NotEntered { number } => tr!(lang, "rb.err_not_entered", number = number),
        Gap::Unreplayable { number } => tr!(lang, "mv.err_unreplayable", number = number),
    }
}

/// An empty board of the match's size (no position to show), with why.
fn empty(m: &RelayMatch) -> Position {
    let r = at_board::rules_of(m);
    let board = rules::board::Board::new(r.size).unwrap_or_else(|_| rules::board::Board::standard());
    let game = rules::game::Game::from_board(board, Color::Black, r.ko, r.suicide);
    Position { game, captures: [0, 0], moves: 0, last: None }
}

/// The match, its position (or an empty board and why), and the players' names.
fn shown(lang: Lang, st: &RelayState) -> Result<(RelayMatch, Position, Option<String>), Refused> {
    let m = match (&st.m, &st.setup) {
        (Some(m), _) => m.clone(),
        (None, _) => return Err(Refused::new(StatusCode::CONFLICT, lang.t("rb.err_not_ready"))),
    };
    let (pos, problem) = match at_board::position(&m) {
        Ok(p) => (p, None),
        Err(g) => (empty(&m), Some(gap_text(lang, g))),
    };
    Ok((m, pos, problem))
}

/// GET /t/{id}/matches/{mid}/board: the recorder's board.
pub async fn board_page(ctx: Ctx, path: web::Path<(String, String)>) -> Result<HttpResponse, AppError> {
    let [tid, mid] = ctx.ids([&path.0, &path.1])?;
    render_board(&ctx, tid, mid, None, None).await
}

/// The recorder's board, with a refused claim or undo (`banner`) or a refused delay form (the
/// number kept as typed).
pub(super) async fn render_board(
    ctx: &Ctx,
    tid: i32,
    mid: i32,
    banner: Option<Refused>,
    delay_refused: Option<DelayRefused>,
) -> Result<HttpResponse, AppError> {
    ctx.require_staff(tid, Role::Arbiter).await?;
    let l = load(ctx, tid, mid).await?;
    let lang = ctx.lang;
    let (m, pos, mut problem) = shown(lang, &l.st).map_err(|r| AppError::refused(lang, r))?;
    if problem.is_none() && m.phase() != crate::domain::team::relay::Phase::Playing {
        problem = Some(lang.t("rb.err_not_in_play").to_string());
    }
    let names = person_names(&m);
    let text: BTreeMap<&str, &str> =
        TEXTS.iter().map(|k| (k.trim_start_matches("mv.").trim_start_matches("rb."), ctx.t(k))).collect();
    let config = serde_json::json!({
        "key": format!("tengen.relay-board.t{tid}.m{mid}"),
        "relay": true,
        // The match clock's storage key (web::clock) with ".press": its press from here.
        "press": format!("tengen.clock.t{tid}.m{mid}.press"),
        "text": text,
    })
    .to_string();
    let status = banner.as_ref().map(|b| b.status).or(delay_refused.as_ref().map(|r| r.status));
    let delay = ctx.db(move |c| gm::delay(c, tid)).await?;
    let organizer = ctx.staff_role(tid).await? == Some(Role::Organizer);
    let page = RelayBoardPage {
        c: ctx.chrome_t(&l.t, true, tr!(lang, "rb.title_board", title = l.title)).live_by_itself(&[tid]),
        tid,
        mid,
        base: format!("/t/{tid}/matches/{mid}"),
        version: l.st.row.version,
        svg: vb::svg(&pos, problem.is_none()),
        status: vr::status(lang, l.t.zone(), &m, &pos, &names),
        seats: vr::seats(lang, &m, &names),
        offer: vr::order_offer(lang, &m, &names),
        config,
        problem,
        banner: banner.map(|b| b.message),
        delay: organizer.then(|| {
            let typed = delay_refused.as_ref().map_or_else(|| delay.0.to_string(), |r| r.typed.clone());
            (typed, delay.1)
        }),
        delay_error: delay_refused.map(|r| r.message),
        delay_text: tr!(lang, "mv.delay_now", moves = delay.0),
    };
    ctx.render_status(status.unwrap_or(StatusCode::OK), &page)
}

/// The public's part of the game: `delay` moves behind until the match is over.
fn delayed(m: &RelayMatch, delay: u32) -> Result<Position, Gap> {
    if m.result().is_some() {
        return at_board::position(m);
    }
    at_board::position_after(m, (m.moves() as usize).saturating_sub(delay as usize))
}

/// GET /t/{id}/matches/{mid}/live: the public board, the organizer's delay behind the game
/// until the match is over (a match page is public: so is its board).
pub async fn live_page(ctx: Ctx, path: web::Path<(String, String)>) -> Result<HttpResponse, AppError> {
    let [tid, mid] = ctx.ids([&path.0, &path.1])?;
    let staff = ctx.staff_role(tid).await?.is_some();
    let l = load(&ctx, tid, mid).await?;
    let delay = ctx.db(move |c| gm::delay(c, tid)).await?.0;
    let lang = ctx.lang;
    let Some(m) = l.st.m.clone() else { return Err(ctx.not_found()) };
    let (pos, problem) = match delayed(&m, delay) {
        Ok(p) => (p, None),
        Err(g) => (empty(&m), Some(gap_text(lang, g))),
    };
    let over = m.result().is_some();
    let behind = if !over && delay > 0 { tr!(lang, "mv.live_behind", moves = delay) } else { String::new() };
    let names = person_names(&m);
    let page = RelayLivePage {
        c: ctx.chrome_t(&l.t, staff, tr!(lang, "rb.title_live", title = l.title)).live(tid),
        tid,
        mid,
        svg: vb::svg(&pos, false),
        status: vr::status(lang, l.t.zone(), &m, &pos, &names),
        problem,
        behind,
        sgf: over && problem_free(&m),
        result: m.result().map(|r| lang.game_result(&r)).unwrap_or_default(),
    };
    ctx.render(&page)
}

/// Every move of the match was entered with its point (the record can be written).
fn problem_free(m: &RelayMatch) -> bool {
    m.moves() > 0 && at_board::position(m).is_ok()
}

/// GET /t/{id}/matches/{mid}/board.sgf: the record entered at the board (the teams as the
/// players, the relay's komi); for the staff at any time, for the public once the match is over.
pub async fn download(ctx: Ctx, path: web::Path<(String, String)>) -> Result<HttpResponse, AppError> {
    let [tid, mid] = ctx.ids([&path.0, &path.1])?;
    let staff = ctx.staff_role(tid).await?.is_some();
    let l = load(&ctx, tid, mid).await?;
    let Some(m) = l.st.m.as_ref() else { return Err(ctx.not_found()) };
    if !(staff || m.result().is_some()) || !problem_free(m) {
        return Err(ctx.not_found());
    }
    let moves = m.board_moves().map_err(|_| ctx.not_found())?;
    let lang = ctx.lang;
    let info = rules::sgf::GameInfo {
        black: Some(m.side(Color::Black).team.name.clone()),
        white: Some(m.side(Color::White).team.name.clone()),
        event: Some(l.t.name(lang.is_zh()).to_string()),
        round: Some(l.st.row.round_number.to_string()),
        name: Some(l.title.clone()),
        rules: Some("Chinese".into()),
        ..Default::default()
    };
    let rules = m.rules_in_force();
    let komi_q = rules.scoring(0, 0, 0).komi_q;
    let rec = dm::record(at_board::rules_of(m), komi_q, info, None, &moves);
    let name = format!("round{}-match{}.sgf", l.st.row.round_number, l.st.row.table_no);
    Ok(sgf_download(&ctx, &name, rules::sgf::write(&rec)))
}

/// A move as the relay board sends it.
#[derive(Deserialize)]
pub struct MoveForm {
    /// The move's number as the page counted it.
    pub seq: u32,
    /// Who placed the stone (one of the four at the board).
    pub player: PersonId,
    /// SGF coordinates ("pd") or `pass`.
    pub at: String,
    /// The page's id of the entry (the relay board finds a move sent again by its number,
    /// player and point).
    #[serde(default)]
    pub client: String,
}

/// The words of a refusal at the relay board.
async fn board_refused(ctx: &Ctx, tid: i32, mid: i32, e: BoardError) -> Result<Refused, AppError> {
    let lang = ctx.lang;
    Ok(match e {
        BoardError::Board(AtBoard::Board(r)) => {
            Refused::new(StatusCode::UNPROCESSABLE_ENTITY, refusal_text(lang, &r))
        }
        BoardError::Board(AtBoard::Gap(g)) => Refused::new(StatusCode::CONFLICT, gap_text(lang, g)),
        BoardError::Stale { wanted, have } => {
            Refused::new(StatusCode::CONFLICT, tr!(lang, "mv.err_stale", wanted = wanted, have = have))
        }
        BoardError::NothingToUndo => Refused::new(StatusCode::CONFLICT, lang.t("mv.err_nothing")),
        BoardError::NotYours => Refused::new(StatusCode::FORBIDDEN, lang.t("mv.err_not_yours")),
        BoardError::Match(e) => match_refused(ctx, tid, mid, e).await?,
    })
}

async fn match_refused(ctx: &Ctx, tid: i32, mid: i32, e: MatchError) -> Result<Refused, AppError> {
    let (zone, names) = ctx
        .db(move |c| {
            let zone = tdb::get(c, tid)?.zone();
            let names: HashMap<PersonId, String> =
                mdb::relay_state(c, tid, mid)?.m.as_ref().map(person_names).unwrap_or_default();
            Ok::<_, DbError>((zone, names))
        })
        .await?;
    e.refused(ctx.lang, &MatchNaming { zone, kind: "move", names })
}

/// POST /t/{id}/matches/{mid}/board/move: a move entered at the board; back to the board.
pub async fn enter(w: Write<Arbiter<[i32; 2]>, MoveForm>) -> Result<HttpResponse, AppError> {
    let [tid, mid] = w.who.ids;
    let at = match w.form.at.as_str() {
        "pass" => Placed::Pass,
        s => match Point::from_sgf(s) {
            Some(p) => Placed::Point(p),
            None => return Err(bad_form(&w)),
        },
    };
    let entry = Entry { number: w.form.seq, player: w.form.player, at, now: chrono::Utc::now().timestamp() };
    let actor = w.actor();
    match w.db_raw(move |c| office::enter(c, &actor, tid, mid, entry)).await? {
        Ok(_) => Ok(w.redirect(&format!("/t/{tid}/matches/{mid}/board"))),
        Err(e) => Err(AppError::refused(w.lang, board_refused(&w, tid, mid, e).await?)),
    }
}

#[derive(Deserialize)]
pub struct UndoForm {
    /// The number of the move to undo (the last, as the page showed it).
    pub seq: u32,
}

/// POST /t/{id}/matches/{mid}/board/undo: the last move taken back by the one who entered it.
pub async fn undo(w: Write<Arbiter<[i32; 2]>, UndoForm>) -> Result<HttpResponse, AppError> {
    let [tid, mid] = w.who.ids;
    let (actor, seq, reason) = (w.actor(), w.form.seq, w.t("rb.undo_reason").to_string());
    match w.db_raw(move |c| office::undo(c, &actor, tid, mid, seq, &reason)).await? {
        Ok(_) => Ok(w.redirect(&format!("/t/{tid}/matches/{mid}/board"))),
        Err(e) => Err(AppError::refused(w.lang, board_refused(&w, tid, mid, e).await?)),
    }
}

#[derive(Deserialize)]
pub struct ClaimForm {
    pub version: i32,
    /// `black` or `white`: the side that claims the order error.
    pub claimant: String,
}

/// POST /t/{id}/matches/{mid}/board/claim: the opponent claimed the order error the board
/// detected before placing a stone, and the referee confirms it (Art. 17.7); back to the board,
/// or the board with the refusal.
pub async fn claim(w: Write<Arbiter<[i32; 2]>, ClaimForm>) -> Result<HttpResponse, AppError> {
    let [tid, mid] = w.who.ids;
    let claimant = match w.form.claimant.as_str() {
        "black" => Color::Black,
        "white" => Color::White,
        _ => return Err(bad_form(&w)),
    };
    let (actor, version) = (w.actor(), w.form.version);
    let input = EventInput {
        at: chrono::Utc::now().timestamp(),
        at_move: None,
        event: Event::ClaimOrderError { claimant },
        also: vec![],
    };
    match w.db_raw(move |c| mdb::record_event(c, &actor, tid, mid, version, &input)).await? {
        Ok(_) => Ok(w.redirect(&format!("/t/{tid}/matches/{mid}/board"))),
        Err(e) => {
            let r = match_refused(&w, tid, mid, e).await?;
            render_board(&w, tid, mid, Some(r), None).await
        }
    }
}
