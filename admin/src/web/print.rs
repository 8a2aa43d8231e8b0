//! Printed sheets and CSV of a round, as downloads.
//!
//! Staff (arbiters and organizers of the tournament: printing is an arbiter right), drafts
//! included:
//! - `GET /t/{id}/rounds/{n}/scoresheets.pdf?per_page=2|4&lang=zh|en`
//! - `GET /t/{id}/rounds/{n}/pairings.pdf?order=table|name&paper=a4|a3&lang=zh|en`
//! - `GET /t/{id}/rounds/{n}/record-sheets.pdf?paper=a4|a3&lang=zh|en`
//! - `GET /t/{id}/rounds/{n}/pairings.csv?lang=zh|en`
//! - `GET /t/{id}/rounds/{n}/table-cards.pdf?format=tent|a6&lang=zh|en`: 台卡, each with a QR
//!   code to its table's public pairing under `--public-url` (none without it)
//!
//! Anyone, published rounds only (a draft is 404 here):
//! - `GET /t/{id}/pairings/{n}/pairings.pdf?order=…&paper=…&lang=…`
//! - `GET /t/{id}/pairings/{n}/pairings.csv?lang=…`
//! - `GET /t/{id}/pairings/{n}/results-notice.pdf?lang=…`: 成绩公告, the round's results and
//!   the standings after it (the staff pages link here too: a notice is of a published round)
//!
//! An event's hall-wide lists of round n (its staff: every group's round, drafts included;
//! anyone else: the groups whose round is published):
//! - `GET /e/{event}/rounds/{n}/pairings.pdf?order=…&paper=…&lang=…`: every group's tables by
//!   hall number, each naming its group
//! - `GET /e/{event}/rounds/{n}/table-cards.pdf?format=tent|a6&lang=…`: every group's cards
//!
//! An event's staff (arbiters and organizers):
//! - `GET /e/{event}/poster.pdf?paper=a4|a3&lang=…`: the hall poster (大厅海报), its QR codes
//!   under `--public-url` (none without it)
//!
//! Anyone, the tournament's standings over its published rounds (the public standings page's
//! own computation; staff get the same files, since drafts have no results):
//! - `GET /t/{id}/standings.pdf?paper=a4|a3&lang=zh|en&round=N`: the wall chart with the tie-breaks
//! - `GET /t/{id}/crosstable.pdf?paper=a4|a3&lang=zh|en&round=N`
//! - `GET /t/{id}/standings.csv?lang=zh|en&round=N`
//! - `GET /t/{id}/results.csv?lang=zh|en&round=N`: every game and bye (of rounds 1 to N)
//!
//! `round=N` gives the standings after round N, as `/t/{id}/standings?round=N` shows them;
//! without it, after the last round with a result. Without `lang` the documents are in the
//! reader's language. A value that is not one of the allowed ones (a `round` that is not a
//! published round's number) is a 400 naming them; an unknown tournament or round is a 404; data the format
//! cannot hold (the EGF file of `export.rs`: a player without a Latin name) is a 409 that says
//! which and why. The data is
//! loaded in the database's `web::block` and laid out in another, so no connection is held
//! while a large round is printed. What is printed is decided in [`crate::documents`], the
//! same code as `tengen print` and `tengen export`.

use super::ctx::{id, Ctx};
use super::error::AppError;
use crate::db::users::Role;
use crate::db::Conn;
use crate::db::DbError;
use crate::documents::{
    self as docs, BadOption, Doc, Download, EventDoc, EventRoundDoc, LoadError, Loaded, RoundDoc,
    TournamentDoc,
};
use crate::i18n::tr;
use crate::office::print_data::Audience;
use crate::print::{self, CardFormat, PairingOrder, Paper, PrintError, SheetsPerPage};
use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpResponse};

pub(super) type Query = web::Query<Vec<(String, String)>>;

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
        refuse(self.ctx, e)
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
    fn format(&self) -> Result<CardFormat, AppError> {
        self.parse(docs::Opt::Format, docs::parse_format, CardFormat::Tent)
    }
    fn paper(&self) -> Result<Paper, AppError> {
        self.parse(docs::Opt::Paper, docs::parse_paper, Paper::A4)
    }
    /// `round=N`; without it, the latest standings.
    fn round(&self) -> Result<Option<u32>, AppError> {
        self.get(docs::Opt::Round).map(|v| docs::parse_round(v).map_err(|e| self.refuse(e))).transpose()
    }
}

/// The `lang=zh|en` option of a document's query; the reader's language without it.
pub(super) fn doc_lang(ctx: &Ctx, q: &Query) -> Result<print::Lang, AppError> {
    Options { ctx, q }.lang()
}

/// A 400 naming the option and what it takes, in the reader's language.
fn refuse(ctx: &Ctx, e: BadOption) -> AppError {
    AppError::bad_request(ctx.lang, e.words(ctx.lang, e.opt.query_name()))
}

fn round_path(ctx: &Ctx, p: (String, String)) -> Result<(i32, i32), AppError> {
    Ok((id(ctx.lang, &p.0)?, id(ctx.lang, &p.1)?))
}

/// Loads (one `web::block` with a connection), renders (another, without), answers. Table
/// cards get their links under the server's `--public-url`.
async fn send(ctx: &Ctx, req: RoundDoc) -> Result<HttpResponse, AppError> {
    let base = ctx.state.net.public_url.clone();
    send_loaded(ctx, move |c| Ok(req.load(c)?.with_public_url(base.as_deref()))).await
}

/// A tournament's document, the same way; a `round` beyond the last published round is a 400.
pub(super) async fn send_tournament(ctx: &Ctx, req: TournamentDoc) -> Result<HttpResponse, AppError> {
    let loaded = ctx.db_raw(move |c| req.load(c)).await?.map_err(|e| match e {
        LoadError::Option(bad) => refuse(ctx, bad),
        LoadError::Db(DbError::NotFound) => AppError::not_found(ctx.lang),
        LoadError::Db(e) => AppError::internal(ctx.lang, e),
    })?;
    render_and_send(ctx, loaded).await
}

async fn send_loaded(
    ctx: &Ctx,
    load: impl FnOnce(&mut Conn) -> Result<Loaded, DbError> + Send + 'static,
) -> Result<HttpResponse, AppError> {
    let loaded = ctx.db(load).await?;
    render_and_send(ctx, loaded).await
}

pub(super) async fn render_and_send(ctx: &Ctx, loaded: Loaded) -> Result<HttpResponse, AppError> {
    let lang = ctx.lang;
    let out =
        web::block(move || loaded.render()).await.map_err(|e| AppError::internal(lang, e))?.map_err(|e| {
            match e {
                // The tournament's data does not fit the format: say what to correct.
                PrintError::Invalid(p) => {
                    let m = lang.data_problem(&p);
                    AppError::msg(StatusCode::CONFLICT, lang, tr!(lang, "print.err_data", problem = m))
                }
                e => AppError::internal(lang, e),
            }
        })?;
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

/// GET /t/{id}/rounds/{n}/table-cards.pdf
pub async fn table_cards(
    ctx: Ctx,
    path: web::Path<(String, String)>,
    q: Query,
) -> Result<HttpResponse, AppError> {
    staff_doc(ctx, path, q, |o| Ok(Doc::TableCards(o.format()?))).await
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

/// GET /t/{id}/pairings/{n}/results-notice.pdf (published rounds).
pub async fn results_notice(
    ctx: Ctx,
    path: web::Path<(String, String)>,
    q: Query,
) -> Result<HttpResponse, AppError> {
    public_doc(ctx, path, q, |_| Ok(Doc::ResultsNotice)).await
}

/// GET /t/{id}/pairings/{n}/pairings.csv (published rounds).
pub async fn public_pairings_csv(
    ctx: Ctx,
    path: web::Path<(String, String)>,
    q: Query,
) -> Result<HttpResponse, AppError> {
    public_doc(ctx, path, q, |_| Ok(Doc::PairingsCsv)).await
}

/// An event's hall-wide document of round `n` (`/e/{event}/rounds/{n}/…`): its staff get every
/// group's round, drafts included; anyone else the groups whose round is published, as each
/// group's own lists.
async fn event_doc(
    ctx: Ctx,
    path: web::Path<(String, String)>,
    q: Query,
    doc: impl FnOnce(&Options<'_>) -> Result<Doc, AppError>,
) -> Result<HttpResponse, AppError> {
    let (event, round) = round_path(&ctx, path.into_inner())?;
    let staff = ctx.require_event_staff(event, Role::Arbiter).await.is_ok();
    let audience = if staff { Audience::Staff } else { Audience::Public };
    let o = Options { ctx: &ctx, q: &q };
    let req = EventRoundDoc { event, round, doc: doc(&o)?, lang: o.lang()?, audience };
    let base = ctx.state.net.public_url.clone();
    send_loaded(&ctx, move |c| Ok(req.load(c)?.with_public_url(base.as_deref()))).await
}

/// GET /e/{event}/rounds/{n}/pairings.pdf: every group's tables in one list by hall number,
/// each naming its group, for the hall's notice board.
pub async fn event_pairings(
    ctx: Ctx,
    path: web::Path<(String, String)>,
    q: Query,
) -> Result<HttpResponse, AppError> {
    event_doc(ctx, path, q, |o| Ok(Doc::PairingList(o.order()?, o.paper()?))).await
}

/// GET /e/{event}/rounds/{n}/table-cards.pdf: every group's table cards, by hall number.
pub async fn event_table_cards(
    ctx: Ctx,
    path: web::Path<(String, String)>,
    q: Query,
) -> Result<HttpResponse, AppError> {
    event_doc(ctx, path, q, |o| Ok(Doc::TableCards(o.format()?))).await
}

async fn public_tournament_doc(
    ctx: Ctx,
    path: web::Path<String>,
    q: Query,
    doc: impl FnOnce(&Options<'_>) -> Result<Doc, AppError>,
) -> Result<HttpResponse, AppError> {
    let tid = id(ctx.lang, &path)?;
    let o = Options { ctx: &ctx, q: &q };
    let req = TournamentDoc { tid, doc: doc(&o)?, lang: o.lang()?, round: o.round()? };
    send_tournament(&ctx, req).await
}

/// GET /t/{id}/standings.pdf: the standings wall chart.
pub async fn standings_pdf(ctx: Ctx, path: web::Path<String>, q: Query) -> Result<HttpResponse, AppError> {
    public_tournament_doc(ctx, path, q, |o| Ok(Doc::Standings(o.paper()?))).await
}

/// GET /t/{id}/crosstable.pdf
pub async fn crosstable_pdf(ctx: Ctx, path: web::Path<String>, q: Query) -> Result<HttpResponse, AppError> {
    public_tournament_doc(ctx, path, q, |o| Ok(Doc::Crosstable(o.paper()?))).await
}

/// GET /t/{id}/standings.csv
pub async fn standings_csv(ctx: Ctx, path: web::Path<String>, q: Query) -> Result<HttpResponse, AppError> {
    public_tournament_doc(ctx, path, q, |_| Ok(Doc::StandingsCsv)).await
}

/// GET /t/{id}/results.csv
pub async fn results_csv(ctx: Ctx, path: web::Path<String>, q: Query) -> Result<HttpResponse, AppError> {
    public_tournament_doc(ctx, path, q, |_| Ok(Doc::ResultsCsv)).await
}

/// GET /e/{event}/poster.pdf: the hall poster (大厅海报), for the event's staff; its QR codes
/// open the event's public page and the phone check-in form under the server's `--public-url`.
pub async fn event_poster(ctx: Ctx, path: web::Path<String>, q: Query) -> Result<HttpResponse, AppError> {
    let event = id(ctx.lang, &path)?;
    ctx.require_event_staff(event, Role::Arbiter).await?;
    let o = Options { ctx: &ctx, q: &q };
    let req = EventDoc { event, doc: Doc::HallPoster(o.paper()?), lang: o.lang()? };
    let base = ctx.state.net.public_url.clone();
    send_loaded(&ctx, move |c| Ok(req.load(c)?.with_public_url(base.as_deref()))).await
}
