//! Prizes and certificates (录取名次、获奖证书), per tournament (a group of an event later).
//!
//! Staff (arbiters see, organizers change):
//! - `GET /t/{id}/prizes`: the rules, the prizes in precedence order with their winners after
//!   the last round with a result (a preview until every round is played), ties the tie-breaks
//!   left flagged, the forms; `POST …/prizes/settings`, `…/places`, `…/add`, `…/{pid}/up`,
//!   `…/{pid}/rename`,
//!   `…/{pid}/delete`, `…/publish`, `…/unpublish`: each versioned, audited, refused while the
//!   list is published (but taking it back).
//! - `GET /t/{id}/prizes/list.pdf`, `…/certificates.pdf` (every winner's), `…/{n}/certificate.pdf`
//!   (the winner of the n-th prize); `?lang=zh|en`, the reader's language without it.
//!
//! Anyone, once published: `GET /t/{id}/winners` and `GET /t/{id}/winners.pdf`.

use super::ctx::{id, Ctx};
use super::error::AppError;
use super::form::{text_error, Form, Lines};
use super::print::{doc_lang, send_tournament, Query};
use super::refusals::Refusal;
use super::views::pages::FormView;
use super::views::prizes as view;
use super::write::{Organizer, Versioned, Write};
use crate::db::prizes::{self as pdb, NewPrize, PrizeError, PrizeSettings, Template};
use crate::db::users::Role;
use crate::documents::{Doc, TournamentDoc};
use crate::domain::entrant::{parse_date, Rank};
use crate::domain::prizes::{Double, Kind, Rules};
use crate::i18n::Lang;
use crate::office::prizes::prize_list;
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};

/// The longest prize name, amount or organizer line.
const MAX_TEXT: usize = 100;

/// The staff page, with a refused form's entries and words when there are.
async fn page(
    ctx: &Ctx,
    tid: i32,
    f: Option<FormView>,
    banner: Option<String>,
    status: StatusCode,
) -> Result<HttpResponse, AppError> {
    let (_, role) = ctx.require_staff(tid, Role::Arbiter).await?;
    let lang = ctx.lang;
    let list = ctx.db(move |c| prize_list(c, tid, lang)).await?;
    let c = ctx.chrome_t(&list.t, true, ctx.t("prize.title"));
    let notice = ctx.path.contains("?done=").then(|| ctx.t("prize.saved").to_string());
    let p = view::staff(c, lang, &list, role == Role::Organizer, f, banner, notice);
    ctx.render_status(status, &p)
}

/// GET /t/{id}/prizes.
pub async fn staff_page(ctx: Ctx, path: web::Path<String>) -> Result<HttpResponse, AppError> {
    let tid = id(ctx.lang, &path)?;
    page(&ctx, tid, None, None, StatusCode::OK).await
}

/// Runs one prize write; on success back to the page, else the page again with the form as
/// typed and the refusal's words.
async fn write<A: super::write::Writer>(
    w: &Write<A, Versioned>,
    tid: i32,
    f: FormView,
    run: impl FnOnce(&mut crate::db::Conn, &crate::db::Actor, i32) -> Result<i32, PrizeError> + Send + 'static,
) -> Result<HttpResponse, AppError> {
    let (actor, version) = (w.actor(), w.form.version);
    match w.db_raw(move |c| run(c, &actor, version)).await? {
        Ok(_) => Ok(w.redirect(&format!("/t/{tid}/prizes?done=1"))),
        Err(e) => {
            let mut f = f;
            let (banner, status) = e.refused(w.lang, &())?.keep(&mut f);
            page(w, tid, Some(f), Some(banner), status).await
        }
    }
}

/// A text field of at most [`MAX_TEXT`] characters on one line, its problem beside it.
fn text(lang: Lang, form: &Form, f: &mut FormView, name: &str) -> String {
    let v = form.get(name);
    if let Some(e) = text_error(lang, v, MAX_TEXT, Lines::One) {
        f.error(name, e);
    }
    v.to_string()
}

/// POST /t/{id}/prizes/settings: the rules, the template and the organizer's line.
pub async fn save_settings(w: Write<Organizer, Versioned>) -> Result<HttpResponse, AppError> {
    let [tid] = w.who.ids;
    let mut f = FormView::from_form(&w.fields);
    let double = Double::from_code(w.fields.get("double"));
    let template = Template::from_code(w.fields.get("template"));
    for (name, ok) in [("double", double.is_some()), ("template", template.is_some())] {
        if !ok {
            f.error(name, w.t("err.choice"));
        }
    }
    let organizer = text(w.lang, &w.fields, &mut f, "organizer");
    let (Some(double), Some(template), false) = (double, template, f.has_errors()) else {
        return page(&w, tid, Some(f), Some(w.t("form.has_errors").into()), StatusCode::BAD_REQUEST).await;
    };
    let rules = Rules { double, award_withdrawn: w.fields.get("award_withdrawn") == "on" };
    let s = PrizeSettings { rules, template, organizer, published: false };
    write(&w, tid, f, move |c, a, v| pdb::save_settings(c, a, tid, v, &s)).await
}

/// POST /t/{id}/prizes/places: places 1..N (录取前N名).
pub async fn set_places(w: Write<Organizer, Versioned>) -> Result<HttpResponse, AppError> {
    let [tid] = w.who.ids;
    let mut f = FormView::from_form(&w.fields);
    let Some(n) = w.fields.get("places").parse::<u32>().ok().filter(|n| *n <= 100) else {
        f.error("places", crate::i18n::tr!(w.lang, "err.number_range", min = 0, max = 100));
        return page(&w, tid, Some(f), Some(w.t("form.has_errors").into()), StatusCode::BAD_REQUEST).await;
    };
    write(&w, tid, f, move |c, a, v| pdb::set_places(c, a, tid, v, n)).await
}

/// The special prize a form describes, its problems beside their fields.
fn special(lang: Lang, form: &Form, f: &mut FormView) -> Option<Kind> {
    let rank = |f: &mut FormView, name: &str| match Rank::parse(form.get(name)) {
        Ok(r) => Some(r.value()),
        Err(e) => {
            f.error(name, lang.entrant_error(&e));
            None
        }
    };
    match form.get("kind") {
        "woman" => Some(Kind::Woman),
        "junior" => match parse_date(form.get("born")) {
            Ok(d) => Some(Kind::Junior(d)),
            Err(e) => {
                f.error("born", lang.entrant_error(&e));
                None
            }
        },
        "band" => {
            let (low, high) = (rank(f, "rank_low")?, rank(f, "rank_high")?);
            if low > high {
                f.error("rank_low", lang.t("prize.err_band"));
                return None;
            }
            Some(Kind::RankBand { low, high })
        }
        "unit" => {
            let units: Vec<String> = form
                .get("units")
                .split(['、', ',', '，', ';', '；'])
                .map(|u| u.trim().to_string())
                .filter(|u| !u.is_empty())
                .collect();
            if units.is_empty() {
                f.error("units", lang.t("prize.err_units"));
                return None;
            }
            if let Some(e) = text_error(lang, form.get("units"), MAX_TEXT * 5, Lines::One) {
                f.error("units", e);
                return None;
            }
            Some(Kind::Unit(units))
        }
        _ => {
            f.error("kind", lang.t("err.choice"));
            None
        }
    }
}

/// POST /t/{id}/prizes/add: a special prize at the end of the precedence list.
pub async fn add(w: Write<Organizer, Versioned>) -> Result<HttpResponse, AppError> {
    let [tid] = w.who.ids;
    let mut f = FormView::from_form(&w.fields);
    let kind = special(w.lang, &w.fields, &mut f);
    let name = text(w.lang, &w.fields, &mut f, "name");
    let amount = text(w.lang, &w.fields, &mut f, "amount");
    let (Some(kind), false) = (kind, f.has_errors()) else {
        return page(&w, tid, Some(f), Some(w.t("form.has_errors").into()), StatusCode::BAD_REQUEST).await;
    };
    let p = NewPrize { kind, name, amount };
    write(&w, tid, f, move |c, a, v| pdb::add(c, a, tid, v, &p)).await
}

/// POST /t/{id}/prizes/{pid}/up: one step up the precedence list.
pub async fn move_up(w: Write<Organizer<[i32; 2]>, Versioned>) -> Result<HttpResponse, AppError> {
    let [tid, pid] = w.who.ids;
    write(&w, tid, FormView::default(), move |c, a, v| pdb::move_up(c, a, tid, v, pid)).await
}

/// POST /t/{id}/prizes/{pid}/rename: its name and amount.
pub async fn rename(w: Write<Organizer<[i32; 2]>, Versioned>) -> Result<HttpResponse, AppError> {
    let [tid, pid] = w.who.ids;
    let mut f = FormView::from_form(&w.fields);
    let name = text(w.lang, &w.fields, &mut f, "name");
    let amount = text(w.lang, &w.fields, &mut f, "amount");
    if f.has_errors() {
        return page(&w, tid, Some(f), Some(w.t("form.has_errors").into()), StatusCode::BAD_REQUEST).await;
    }
    write(&w, tid, f, move |c, a, v| pdb::rename(c, a, tid, v, pid, &name, &amount)).await
}

/// POST /t/{id}/prizes/{pid}/delete.
pub async fn delete(w: Write<Organizer<[i32; 2]>, Versioned>) -> Result<HttpResponse, AppError> {
    let [tid, pid] = w.who.ids;
    write(&w, tid, FormView::default(), move |c, a, v| pdb::delete(c, a, tid, v, pid)).await
}

/// POST /t/{id}/prizes/publish.
pub async fn publish(w: Write<Organizer, Versioned>) -> Result<HttpResponse, AppError> {
    let [tid] = w.who.ids;
    write(&w, tid, FormView::default(), move |c, a, v| pdb::set_published(c, a, tid, v, true)).await
}

/// POST /t/{id}/prizes/unpublish.
pub async fn unpublish(w: Write<Organizer, Versioned>) -> Result<HttpResponse, AppError> {
    let [tid] = w.who.ids;
    write(&w, tid, FormView::default(), move |c, a, v| pdb::set_published(c, a, tid, v, false)).await
}

/// A prize document for the staff, in the language of `lang=` (the reader's without it).
async fn staff_doc(ctx: Ctx, tid: i32, doc: Doc, q: Query) -> Result<HttpResponse, AppError> {
    ctx.require_staff(tid, Role::Arbiter).await?;
    let lang = doc_lang(&ctx, &q)?;
    send_tournament(&ctx, TournamentDoc { tid, doc, lang, round: None }).await
}

/// GET /t/{id}/prizes/list.pdf.
pub async fn list_pdf(ctx: Ctx, path: web::Path<String>, q: Query) -> Result<HttpResponse, AppError> {
    let tid = id(ctx.lang, &path)?;
    staff_doc(ctx, tid, Doc::PrizeList, q).await
}

/// GET /t/{id}/prizes/certificates.pdf.
pub async fn certificates_pdf(ctx: Ctx, path: web::Path<String>, q: Query) -> Result<HttpResponse, AppError> {
    let tid = id(ctx.lang, &path)?;
    staff_doc(ctx, tid, Doc::Certificates(0), q).await
}

/// GET /t/{id}/prizes/{n}/certificate.pdf: the winner of the n-th prize.
pub async fn certificate_pdf(
    ctx: Ctx,
    path: web::Path<(String, String)>,
    q: Query,
) -> Result<HttpResponse, AppError> {
    let tid = id(ctx.lang, &path.0)?;
    let n = id(ctx.lang, &path.1)?;
    staff_doc(ctx, tid, Doc::Certificates(u32::try_from(n).unwrap_or(0)), q).await
}

/// The published prize list of `tid`; the 404 page before it is published.
async fn published(ctx: &Ctx, tid: i32) -> Result<crate::office::prizes::PrizeList, AppError> {
    let lang = ctx.lang;
    let list = ctx.db(move |c| prize_list(c, tid, lang)).await?;
    if !list.settings.published {
        return Err(AppError::not_found(lang));
    }
    Ok(list)
}

/// GET /t/{id}/winners: the public prize list, once published.
pub async fn public_page(ctx: Ctx, path: web::Path<String>) -> Result<HttpResponse, AppError> {
    let tid = id(ctx.lang, &path)?;
    let list = published(&ctx, tid).await?;
    let staff = ctx.staff_role(tid).await?.is_some();
    let c = ctx.chrome_t(&list.t, staff, ctx.t("prize.list_title")).live(tid);
    ctx.render(&view::public(c, &list))
}

/// GET /t/{id}/winners.pdf: the public prize list as a PDF, once published.
pub async fn public_pdf(ctx: Ctx, path: web::Path<String>, q: Query) -> Result<HttpResponse, AppError> {
    let tid = id(ctx.lang, &path)?;
    published(&ctx, tid).await?;
    let lang = doc_lang(&ctx, &q)?;
    send_tournament(&ctx, TournamentDoc { tid, doc: Doc::PrizeList, lang, round: None }).await
}
