//! `POST /t/{id}/live-delay`: how many moves the public boards (an individual game's and a
//! relay match's) stay behind the games, set from the recorder's board it was on. A refusal
//! shows that board again with the number as typed.

use super::error::AppError;
use super::views::board::DelayRefused;
use super::write::{bad_form, Organizer, Write};
use crate::db::game_moves::{self as gm, DelayError};
use crate::i18n::tr;
use actix_web::http::StatusCode;
use actix_web::HttpResponse;
use serde::Deserialize;

#[derive(Deserialize)]
pub struct DelayForm {
    pub version: i32,
    /// As typed (a refusal shows it again).
    pub moves: String,
    /// The game whose board the form was on.
    #[serde(default)]
    pub back: Option<i32>,
    /// Or the relay match whose board the form was on.
    #[serde(default)]
    pub back_match: Option<i32>,
}

/// The board the form was on.
enum OnBoard {
    Game(i32),
    Match(i32),
}

/// POST /t/{id}/live-delay
pub async fn set_delay(w: Write<Organizer, DelayForm>) -> Result<HttpResponse, AppError> {
    let [tid] = w.who.ids;
    let (actor, version) = (w.actor(), w.form.version);
    let on = match (w.form.back, w.form.back_match) {
        (Some(gid), None) => OnBoard::Game(gid),
        (None, Some(mid)) => OnBoard::Match(mid),
        _ => return Err(bad_form(&w)),
    };
    let typed = w.form.moves.clone();
    let refuse = |status, message: String| DelayRefused { status, message, typed: typed.clone() };
    let max = gm::MAX_DELAY;
    let refused = match typed.parse::<u32>() {
        Err(_) => refuse(StatusCode::BAD_REQUEST, tr!(w.lang, "mv.err_delay", max = max)),
        Ok(moves) => match w.db_raw(move |c| gm::set_delay(c, &actor, tid, version, moves)).await? {
            Ok(()) => {
                return Ok(w.redirect(&match on {
                    OnBoard::Game(gid) => format!("/t/{tid}/games/{gid}/board"),
                    OnBoard::Match(mid) => format!("/t/{tid}/matches/{mid}/board"),
                }))
            }
            Err(DelayError::TooLong) => {
                refuse(StatusCode::BAD_REQUEST, tr!(w.lang, "mv.err_delay", max = max))
            }
            Err(DelayError::Stale) => refuse(StatusCode::CONFLICT, w.t("mv.err_delay_stale").to_string()),
            Err(DelayError::Db(e)) => return Err(AppError::db(w.lang, e)),
        },
    };
    match on {
        OnBoard::Game(gid) => super::board::render_board(&w, tid, gid, Some(refused)).await,
        OnBoard::Match(mid) => super::relay_board::render_board(&w, tid, mid, None, Some(refused)).await,
    }
}
