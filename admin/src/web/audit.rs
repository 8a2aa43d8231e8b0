//! The readable audit: each row of a tournament's audit trail told as a
//! sentence in the reader's language — who did what to whom, when — with the raw before/after
//! JSON behind a "details" toggle. Filters (round, game, entrant, actor, kind) are GET query
//! parameters; pages are cut by id (`?before=ID`, newest first), so an event with thousands of
//! rows reads page by page along the `audit_tournament(tournament_id, id)` index. The rows'
//! wording and the page's view model: `views::audit`.

use super::ctx::{id, Ctx};
use super::error::AppError;
use super::views::audit::{audit_page, Loaded};
use crate::db::audit::{self, AuditAction, Filter};
use crate::db::tournaments as tdb;
use crate::db::users::Role;
use crate::db::DbError;
use crate::i18n::tr;
use crate::i18n::Lang;
use actix_web::{web, HttpResponse};

/// Rows per page.
pub const PER_PAGE: i64 = 100;

/// A positive id of a query parameter; empty means "not set".
fn positive(lang: Lang, name: &str, v: &str) -> Result<Option<i32>, AppError> {
    if v.is_empty() {
        return Ok(None);
    }
    match v.parse::<i32>() {
        Ok(n) if n > 0 => Ok(Some(n)),
        _ => Err(AppError::bad_request(lang, tr!(lang, "audit.err_filter", name, value = v))),
    }
}

/// The filter of a query string; a value that is not a positive number or a known kind is
/// refused (unknown parameters are ignored, as on every page).
pub fn parse_filter(lang: Lang, q: &[(String, String)]) -> Result<Filter, AppError> {
    let mut f = Filter::default();
    for (k, v) in q {
        let v = v.trim();
        match k.as_str() {
            "before" => f.before = positive(lang, k, v)?,
            "round" => f.round = positive(lang, k, v)?,
            "game" => f.game = positive(lang, k, v)?,
            "entrant" => f.entrant = positive(lang, k, v)?,
            "actor" => f.actor = positive(lang, k, v)?,
            "kind" if v.is_empty() => f.kind = None,
            "kind" => {
                f.kind = Some(AuditAction::from_code(v).ok_or_else(|| {
                    AppError::bad_request(lang, tr!(lang, "audit.err_filter", name = k, value = v))
                })?)
            }
            _ => {}
        }
    }
    Ok(f)
}

/// GET /t/{id}/audit: one page of the tournament's audit trail.
pub async fn page(
    ctx: Ctx,
    path: web::Path<String>,
    q: web::Query<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    let tid = id(ctx.lang, &path)?;
    ctx.require_staff(tid, Role::Arbiter).await?;
    let filter = parse_filter(ctx.lang, &q)?;
    let f = filter.clone();
    let (t, pg, subjects, actors, rounds) = ctx
        .db(move |c| {
            let t = tdb::get(c, tid)?;
            let pg = audit::page(c, tid, &f, PER_PAGE)?;
            let subjects = audit::subjects(c, tid, &pg.rows)?;
            Ok::<_, DbError>((t, pg, subjects, audit::actors(c, tid)?, audit::round_numbers(c, tid)?))
        })
        .await?;
    let c = ctx.chrome_t(&t, true, ctx.t("audit.title"));
    let zone = t.zone();
    ctx.render(&audit_page(c, ctx.lang, zone, filter, Loaded { pg, subjects, actors, rounds }))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::web::views::audit::query_of;

    #[test]
    fn filters_parse_and_refuse_bad_values() {
        let q = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
            pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
        };
        let f = parse_filter(
            Lang::Zh,
            &q(&[("round", "2"), ("kind", "result_enter"), ("before", ""), ("x", "y")]),
        )
        .unwrap_or_else(|_| panic!("parses"));
        assert_eq!(f, Filter { round: Some(2), kind: Some(AuditAction::ResultEnter), ..Default::default() });
        assert_eq!(query_of(&Filter { before: Some(50), ..f }), "round=2&before=50&kind=result_enter");
        for bad in [("round", "x"), ("game", "-1"), ("entrant", "0"), ("before", "1e3"), ("kind", "nope")] {
            assert!(parse_filter(Lang::Zh, &q(&[bad])).is_err(), "{bad:?}");
        }
    }
}
