//! The tournament's files for other programs, for its staff (arbiters and organizers):
//! - GET /t/{id}/export/opengotha.xml: players, published rounds with their games and byes,
//!   results. The stored rows are mapped by [`crate::office::print_data::opengotha`] and written by
//!   [`crate::formats::opengotha::write`], through [`crate::documents::opengotha`], as
//!   `tengen export opengotha` does.
//! - GET /t/{id}/export/egf.h9: the results for the EGF rating list (published rounds, players
//!   in standings order), as `tengen export egf` writes them. A player without a Latin name or
//!   a readable rank, a game without a result, or a time control below EGF class C is a 409
//!   that says which.

use super::ctx::{id, Ctx};
use super::error::AppError;
use super::print::{file_response, send_tournament};
use crate::db::users::Role;
use crate::documents::{self, Doc, TournamentDoc};
use crate::print::Lang;
use actix_web::{web, HttpResponse};

pub async fn opengotha(ctx: Ctx, path: web::Path<String>) -> Result<HttpResponse, AppError> {
    let tid = id(ctx.lang, &path)?;
    ctx.require_staff(tid, Role::Arbiter).await?;
    let saved = chrono::Utc::now();
    let file = ctx.db(move |c| documents::opengotha(c, tid, saved)).await?;
    Ok(ctx.finish(file_response(file)))
}

pub async fn egf(ctx: Ctx, path: web::Path<String>) -> Result<HttpResponse, AppError> {
    let tid = id(ctx.lang, &path)?;
    ctx.require_staff(tid, Role::Arbiter).await?;
    // The file is ASCII English whatever the reader's language.
    send_tournament(&ctx, TournamentDoc { tid, doc: Doc::EgfH9, lang: Lang::En, round: None }).await
}
