//! The OpenGotha XML export of a tournament (GET /t/{id}/export/opengotha.xml): players,
//! published rounds with their games and byes, results. The stored rows are mapped by
//! [`crate::db::print_data::opengotha`] and written by [`crate::import::opengotha_write`],
//! through [`crate::documents::opengotha`], as `tengen export opengotha` does.

use super::ctx::{id, Ctx};
use super::error::AppError;
use super::print::file_response;
use crate::db::users::Role;
use crate::documents;
use actix_web::{web, HttpResponse};

pub async fn opengotha(ctx: Ctx, path: web::Path<String>) -> Result<HttpResponse, AppError> {
    let tid = id(ctx.lang, &path)?;
    ctx.require_staff(tid, Role::Arbiter).await?;
    let saved = chrono::Utc::now().naive_utc();
    let file = ctx.db(move |c| documents::opengotha(c, tid, saved)).await?;
    Ok(ctx.finish(file_response(file)))
}
