//! Printed sheets and CSV of a round, as downloads (issue 6).
//!
//! Staff (arbiters and organizers of the tournament: printing is an arbiter right), drafts
//! included:
//! - `GET /t/{id}/rounds/{n}/scoresheets.pdf?per_page=2|4&lang=zh|en`
//! - `GET /t/{id}/rounds/{n}/pairings.pdf?order=table|name&paper=a4|a3&lang=zh|en`
//! - `GET /t/{id}/rounds/{n}/record-sheets.pdf?paper=a4|a3&lang=zh|en`
//! - `GET /t/{id}/rounds/{n}/pairings.csv?lang=zh|en`
//!
//! Anyone, published rounds only (a draft is 404 here):
//! - `GET /t/{id}/pairings/{n}/pairings.pdf?order=…&paper=…&lang=…`
//! - `GET /t/{id}/pairings/{n}/pairings.csv?lang=…`
//!
//! Without `lang` the documents are in the reader's language. A value that is not one of the
//! allowed ones is a 400 naming them; an unknown tournament or round is a 404. The data is
//! loaded in the database's `web::block` and laid out in another, so no connection is held
//! while a large round is printed. What is printed is decided in [`crate::documents`], the
//! same code as `tengen print` and `tengen export`.

use super::ctx::{id, Ctx};
use super::error::AppError;
use crate::db::print_data::Audience;
use crate::db::users::Role;
use crate::documents::{self as docs, BadOption, Doc, Download, RoundDoc};
use crate::print::{self, PairingOrder, Paper, SheetsPerPage};
use actix_web::http::header;
use actix_web::{web, HttpResponse};

type Query = web::Query<Vec<(String, String)>>;

/// The query's options; the first value of each counts.
struct Options<'a> {
    ctx: &'a Ctx,
    q: &'a [(String, String)],
}

impl Options<'_> {
    fn get(&self, opt: docs::Opt) -> Option<&str> {
        self.q.iter().find(|(k, _)| k == opt.query_name()).map(|(_, v)| v.as_str())
    }

    fn refuse(&self, e: BadOption) -> AppError {
        let allowed = e.allowed_text().replace(" or ", self.ctx.t("print.or"));
        AppError::bad_request(
            self.ctx.lang,
            self.ctx.lang.tf("print.err_option", &[&e.opt.query_name(), &allowed, &e.got]),
        )
    }

    fn parse<T>(
        &self,
        opt: docs::Opt,
        parse: fn(&str) -> Result<T, BadOption>,
        default: T,
    ) -> Result<T, AppError> {
        match self.get(opt) {
            None => Ok(default),
            Some(v) => parse(v).map_err(|e| self.refuse(e)),
        }
    }

    fn lang(&self) -> Result<print::Lang, AppError> {
        let reader = if self.ctx.lang.is_zh() { print::Lang::Zh } else { print::Lang::En };
        self.parse(docs::Opt::Lang, docs::parse_lang, reader)
    }
    fn per_page(&self) -> Result<SheetsPerPage, AppError> {
        self.parse(docs::Opt::PerPage, docs::parse_per_page, SheetsPerPage::Four)
    }
    fn order(&self) -> Result<PairingOrder, AppError> {
        self.parse(docs::Opt::Order, docs::parse_order, PairingOrder::ByTable)
    }
    fn paper(&self) -> Result<Paper, AppError> {
        self.parse(docs::Opt::Paper, docs::parse_paper, Paper::A4)
    }
}

fn round_path(ctx: &Ctx, p: (String, String)) -> Result<(i32, i32), AppError> {
    Ok((id(ctx.lang, &p.0)?, id(ctx.lang, &p.1)?))
}

/// Loads (one `web::block` with a connection), renders (another, without), answers.
async fn send(ctx: &Ctx, req: RoundDoc) -> Result<HttpResponse, AppError> {
    let loaded = ctx.db(move |c| req.load(c)).await?;
    let lang = ctx.lang;
    let out = web::block(move || loaded.render())
        .await
        .map_err(|e| AppError::internal(lang, e))?
        .map_err(|e| AppError::internal(lang, e))?;
    Ok(ctx.finish(file_response(out)))
}

/// A download: its type, its names, and no caching (a draft changes).
pub fn file_response(d: Download) -> HttpResponse {
    HttpResponse::Ok()
        .content_type(d.content_type)
        .insert_header((header::CONTENT_DISPOSITION, d.content_disposition()))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .body(d.bytes)
}

async fn staff_doc(
    ctx: Ctx,
    path: web::Path<(String, String)>,
    q: Query,
    doc: impl FnOnce(&Options<'_>) -> Result<Doc, AppError>,
) -> Result<HttpResponse, AppError> {
    let (tid, round) = round_path(&ctx, path.into_inner())?;
    ctx.require_staff(tid, Role::Arbiter).await?;
    let o = Options { ctx: &ctx, q: &q };
    let req = RoundDoc { tid, round, doc: doc(&o)?, lang: o.lang()?, audience: Audience::Staff };
    send(&ctx, req).await
}

/// GET /t/{id}/rounds/{n}/scoresheets.pdf
pub async fn scoresheets(
    ctx: Ctx,
    path: web::Path<(String, String)>,
    q: Query,
) -> Result<HttpResponse, AppError> {
    staff_doc(ctx, path, q, |o| Ok(Doc::Scoresheets(o.per_page()?))).await
}

/// GET /t/{id}/rounds/{n}/pairings.pdf
pub async fn pairings(
    ctx: Ctx,
    path: web::Path<(String, String)>,
    q: Query,
) -> Result<HttpResponse, AppError> {
    staff_doc(ctx, path, q, |o| Ok(Doc::PairingList(o.order()?, o.paper()?))).await
}

/// GET /t/{id}/rounds/{n}/record-sheets.pdf
pub async fn record_sheets(
    ctx: Ctx,
    path: web::Path<(String, String)>,
    q: Query,
) -> Result<HttpResponse, AppError> {
    staff_doc(ctx, path, q, |o| Ok(Doc::RecordSheets(o.paper()?))).await
}

/// GET /t/{id}/rounds/{n}/pairings.csv
pub async fn pairings_csv(
    ctx: Ctx,
    path: web::Path<(String, String)>,
    q: Query,
) -> Result<HttpResponse, AppError> {
    staff_doc(ctx, path, q, |_| Ok(Doc::PairingsCsv)).await
}

async fn public_doc(
    ctx: Ctx,
    path: web::Path<(String, String)>,
    q: Query,
    doc: impl FnOnce(&Options<'_>) -> Result<Doc, AppError>,
) -> Result<HttpResponse, AppError> {
    let (tid, round) = round_path(&ctx, path.into_inner())?;
    let o = Options { ctx: &ctx, q: &q };
    let req = RoundDoc { tid, round, doc: doc(&o)?, lang: o.lang()?, audience: Audience::Public };
    send(&ctx, req).await
}

/// GET /t/{id}/pairings/{n}/pairings.pdf (published rounds).
pub async fn public_pairings(
    ctx: Ctx,
    path: web::Path<(String, String)>,
    q: Query,
) -> Result<HttpResponse, AppError> {
    public_doc(ctx, path, q, |o| Ok(Doc::PairingList(o.order()?, o.paper()?))).await
}

/// GET /t/{id}/pairings/{n}/pairings.csv (published rounds).
pub async fn public_pairings_csv(
    ctx: Ctx,
    path: web::Path<(String, String)>,
    q: Query,
) -> Result<HttpResponse, AppError> {
    public_doc(ctx, path, q, |_| Ok(Doc::PairingsCsv)).await
}
