//! Ratings after the event (EGF GoR): `POST /t/{id}/ratings`, the organizer's button on the
//! tournament's page once every round is played with every result in. Computing again replaces
//! the ratings computed before (audited). The ratings show on the standings (public and
//! staff), each player's page and the standings CSV (`office::ratings`, `domain::gor`).

use super::error::AppError;
use super::refusals::Refusal;
use super::write::{Organizer, Versioned, Write};
use actix_web::HttpResponse;

/// POST /t/{id}/ratings: compute the ratings after the event, read at the tournament's change
/// counter `version` (a page read before a later write is refused as stale).
pub async fn compute(w: Write<Organizer, Versioned>) -> Result<HttpResponse, AppError> {
    let [tid] = w.who.ids;
    let (actor, version) = (w.actor(), w.form.version);
    match w.db_raw(move |c| crate::office::ratings::compute(c, &actor, tid, version)).await? {
        Ok(_) => Ok(w.redirect(&format!("/t/{tid}/standings"))),
        Err(e) => Err(AppError::refused(w.lang, e.refused(w.lang, &())?)),
    }
}
