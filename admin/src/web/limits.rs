//! Request bodies: how large, how fast, how many at once, and in what coding (the security
//! decisions of ARCHITECTURE.md).
//!
//! **Size.** One limit per kind of upload, the same at every step (the form states it, the
//! request is refused by its Content-Length before anything is read, every body is counted as
//! it arrives whatever its framing — chunked too — and stopped when it passes its route's
//! limit, an upload stops being read when a part passes it, the preview and the confirmation
//! check it). An import's preview sends the file back hex-encoded in its confirmation form, so
//! the confirmation's body may be twice the file's limit; [`BODY`] is sized for that, and the
//! payload extractor's own limit is the same number.
//!
//! **Time.** The request's head must arrive within [`HEAD_TIMEOUT`] (the server's own 408), and
//! a body must keep coming: [`BODY_GRACE`] for its first bytes, then [`BODY_MIN_RATE`] bytes a
//! second on average, or the request ends with the 408 page. A connection that trickles its
//! body a byte at a time is cut within seconds instead of holding a socket and a file.
//!
//! **Number.** One client address (`net`: the socket's peer, or behind a trusted proxy the
//! forwarded client) has at most [`IN_FLIGHT_PER_ADDRESS`] requests with a body in progress;
//! more are answered at once with the 429 page and their connection closed, so many slow
//! senders from one place cannot take every socket the server may open.
//!
//! **Coding.** Forms come as they are: a body with a `Content-Encoding` other than `identity`
//! is refused with the 415 page, never decoded (no decompression bomb, no framework's English
//! error). Every refusal here is a page in the reader's language, and any plain-text refusal
//! the framework makes of a body becomes one too.

use super::error::AppError;
use super::i18n::lang_of;
use crate::i18n::tr;
use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::error::PayloadError;
use actix_web::http::{header, Method, StatusCode};
use actix_web::middleware::Next;
use actix_web::rt::time::{sleep_until, Instant, Sleep};
use actix_web::web::Bytes;
use actix_web::{HttpMessage, HttpResponse, ResponseError};
use futures_util::Stream;
use std::cell::Cell;
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::sync::Mutex;
use std::task::{Context, Poll};
use std::time::Duration;

/// An entrant CSV file.
pub const CSV: usize = crate::formats::entrants_csv::MAX_FILE_BYTES;
/// An OpenGotha XML file.
pub const OPENGOTHA: usize = crate::formats::opengotha::read::MAX_XML_BYTES;
/// A federation's rating list (the EGF's whole list is about 10 MB).
pub const RATING_LIST: usize = crate::formats::rating_lists::MAX_FILE_BYTES;
/// A game record.
pub const SGF: usize = crate::domain::results::MAX_SGF_BYTES;
/// Room for a form's other fields beside a file.
const FIELDS: usize = 64 * 1024;
/// Any other form.
pub const FORM: usize = 1024 * 1024;
/// The largest request body: an import's confirmation carrying the largest file hex-encoded,
/// or a rating list (uploaded once, never sent back).
pub const BODY: usize = max(2 * max(max(CSV, OPENGOTHA), SGF), RATING_LIST) + FIELDS;

const fn max(a: usize, b: usize) -> usize {
    if a > b {
        a
    } else {
        b
    }
}

/// The limit of a POST to `path`: (body bytes, the file limit to state).
pub fn for_path(path: &str) -> (usize, usize) {
    let file = |limit: usize| (limit + FIELDS, limit);
    let confirm = |limit: usize| (2 * limit + FIELDS, limit);
    if path.ends_with("/import/csv") {
        file(CSV)
    } else if path.ends_with("/import/csv/confirm") {
        confirm(CSV)
    } else if path.ends_with("/import/opengotha") {
        file(OPENGOTHA)
    } else if path.ends_with("/import/opengotha/confirm") {
        confirm(OPENGOTHA)
    } else if path.starts_with("/t/") && path.ends_with("/rating-lists") {
        file(RATING_LIST)
    } else if path.starts_with("/t/") && path.ends_with("/sgf") {
        file(SGF)
    } else {
        (FORM, FORM)
    }
}

/// "5 MB", "512 KB" (binary units, as the constants are written).
pub fn text(bytes: usize) -> String {
    if bytes >= 1024 * 1024 && bytes.is_multiple_of(1024 * 1024) {
        format!("{} MB", bytes / (1024 * 1024))
    } else {
        format!("{} KB", bytes.div_ceil(1024))
    }
}

/// The request's head (line and headers) must arrive within this (`HttpServer`'s
/// `client_request_timeout`).
pub const HEAD_TIMEOUT: Duration = Duration::from_secs(5);
/// A body's first bytes must arrive within this after its head.
pub const BODY_GRACE: Duration = Duration::from_secs(10);
/// After the grace, a body must arrive at this many bytes a second on average (a phone on a
/// crowded venue Wi-Fi sends far more; a trickler far less).
pub const BODY_MIN_RATE: u64 = 4 * 1024;
/// Requests with a body in progress from one client address.
pub const IN_FLIGHT_PER_ADDRESS: usize = 32;

/// The 413 page for a file over `limit`.
pub fn too_large(lang: super::i18n::Lang, limit: usize) -> AppError {
    AppError::msg(StatusCode::PAYLOAD_TOO_LARGE, lang, tr!(lang, "err.too_large", limit = text(limit)))
}

/// Why a body was stopped as it arrived.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stop {
    Reading,
    TooLarge,
    TooSlow,
}

/// A body counted as it arrives: past `limit` bytes, or behind its deadline (the grace, then
/// the minimum rate), it ends with an error and says why in `stop`.
struct Watched {
    inner: Payload,
    received: u64,
    limit: u64,
    started: Instant,
    deadline: Pin<Box<Sleep>>,
    stop: Rc<Cell<Stop>>,
}

impl Watched {
    fn new(inner: Payload, limit: usize, stop: Rc<Cell<Stop>>) -> Watched {
        let started = Instant::now();
        let deadline = Box::pin(sleep_until(started + BODY_GRACE));
        Watched { inner, received: 0, limit: limit as u64, started, deadline, stop }
    }

    /// The time by which the body must have gone further than `received` bytes.
    fn due(&self) -> Instant {
        self.started + BODY_GRACE + Duration::from_millis(self.received * 1000 / BODY_MIN_RATE)
    }

    fn stopped(&mut self, why: Stop, e: PayloadError) -> Poll<Option<Result<Bytes, PayloadError>>> {
        self.stop.set(why);
        Poll::Ready(Some(Err(e)))
    }
}

impl Stream for Watched {
    type Item = Result<Bytes, PayloadError>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        if this.stop.get() != Stop::Reading {
            return Poll::Ready(None);
        }
        match Pin::new(&mut this.inner).poll_next(cx) {
            Poll::Ready(Some(Ok(chunk))) => {
                this.received += chunk.len() as u64;
                if this.received > this.limit {
                    return this.stopped(Stop::TooLarge, PayloadError::Overflow);
                }
                let due = this.due();
                this.deadline.as_mut().reset(due);
                Poll::Ready(Some(Ok(chunk)))
            }
            Poll::Pending => match this.deadline.as_mut().poll(cx) {
                Poll::Ready(()) => {
                    let e = std::io::Error::new(std::io::ErrorKind::TimedOut, "the body arrived too slowly");
                    this.stopped(Stop::TooSlow, PayloadError::Io(e))
                }
                Poll::Pending => Poll::Pending,
            },
            done => done,
        }
    }
}

/// Requests with a body in progress, per client address.
#[derive(Debug, Default)]
pub struct InFlight(Mutex<HashMap<String, usize>>);

impl InFlight {
    /// Count one more request from `address`, unless it has [`IN_FLIGHT_PER_ADDRESS`] already.
    fn enter(self: &std::sync::Arc<Self>, address: String) -> Option<InFlightGuard> {
        let mut m = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let n = m.entry(address.clone()).or_insert(0);
        if *n >= IN_FLIGHT_PER_ADDRESS {
            return None;
        }
        *n += 1;
        Some(InFlightGuard { of: self.clone(), address })
    }
}

/// One counted request; uncounted when dropped.
struct InFlightGuard {
    of: std::sync::Arc<InFlight>,
    address: String,
}

impl Drop for InFlightGuard {
    fn drop(&mut self) {
        let mut m = self.of.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = m.get_mut(&self.address) {
            *n -= 1;
            if *n == 0 {
                m.remove(&self.address);
            }
        }
    }
}

/// Whether a request carries a body: a Content-Length above 0, or a Transfer-Encoding.
fn has_body(req: &ServiceRequest) -> bool {
    let h = req.headers();
    h.contains_key(header::TRANSFER_ENCODING)
        || h.get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.trim().parse::<u64>().map_or(true, |n| n > 0))
}

/// A `Content-Encoding` other than `identity`.
fn coded(req: &ServiceRequest) -> bool {
    req.headers()
        .get_all(header::CONTENT_ENCODING)
        .flat_map(|v| v.to_str().unwrap_or("?").split(','))
        .any(|c| !c.trim().eq_ignore_ascii_case("identity"))
}

/// A refusal of a body: its page, and the connection closed (what is left of the body is not
/// read).
fn refusal(e: AppError) -> HttpResponse {
    let mut r = e.error_response();
    r.head_mut().set_connection_type(actix_web::http::ConnectionType::Close);
    r
}

/// Watch every request body: refuse a coded one (415), one over its route's limit by its
/// Content-Length (413), one from an address with too many in progress (429); count the rest
/// as they arrive and stop them past the limit (413) or behind their deadline (408); and turn
/// any plain-text refusal the framework makes of a body into the page in the reader's language.
pub async fn limit_bodies(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    if req.method() == Method::GET || req.method() == Method::HEAD || !has_body(&req) {
        return Ok(next.call(req).await?.map_into_boxed_body());
    }
    let lang = lang_of(req.request());
    let (body, file) = for_path(req.path());
    if coded(&req) {
        let page = AppError::new(StatusCode::UNSUPPORTED_MEDIA_TYPE, lang, "err.coded_body");
        return Ok(req.into_response(refusal(page)));
    }
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    if declared.is_some_and(|n| n > body) {
        return Ok(req.into_response(refusal(too_large(lang, file))));
    }
    let state = req.app_data::<actix_web::web::Data<super::AppState>>().cloned();
    let _counted = match &state {
        Some(s) => {
            let address = s.net.client(req.peer_addr().map(|a| a.ip()), req.headers()).address;
            match s.in_flight.enter(address) {
                Some(g) => Some(g),
                None => {
                    tracing::warn!(peer = ?req.peer_addr(), "too many bodies in progress from one address");
                    let mut page =
                        refusal(AppError::new(StatusCode::TOO_MANY_REQUESTS, lang, "err.busy_address"));
                    page.headers_mut().insert(header::RETRY_AFTER, header::HeaderValue::from_static("10"));
                    return Ok(req.into_response(page));
                }
            }
        }
        None => None,
    };
    let stop = Rc::new(Cell::new(Stop::Reading));
    let watched = Watched::new(req.take_payload(), body, stop.clone());
    req.set_payload(Payload::Stream { payload: Box::pin(watched) });
    // No clone of the request may live across the call (actix reuses it afterwards).
    let res = next.call(req).await?;
    let page = match stop.get() {
        Stop::TooLarge => Some(too_large(lang, file)),
        Stop::TooSlow => {
            tracing::warn!("a request body arrived too slowly");
            Some(AppError::new(StatusCode::REQUEST_TIMEOUT, lang, "err.body_timeout"))
        }
        Stop::Reading => framework_refusal(&res, lang, file),
    };
    Ok(match page {
        Some(e) => res.into_response(refusal(e)),
        None => res.map_into_boxed_body(),
    })
}

/// A refusal the framework made itself (an extractor's plain text), as our page: a 413 as
/// [`too_large`], any other 4xx of a body as "the form could not be read".
fn framework_refusal<B>(res: &ServiceResponse<B>, lang: super::i18n::Lang, file: usize) -> Option<AppError> {
    let ours = res.response().error().is_none_or(|e| e.as_error::<AppError>().is_some());
    match res.status() {
        _ if ours => None,
        StatusCode::PAYLOAD_TOO_LARGE => Some(too_large(lang, file)),
        s if s.is_client_error() => Some(AppError::new(s, lang, "err.bad_form")),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_limit_per_upload_and_room_for_the_confirmation() {
        assert_eq!(text(CSV), "5 MB");
        assert_eq!(text(OPENGOTHA), "8 MB");
        assert_eq!(text(SGF), "512 KB");
        assert_eq!(for_path("/t/3/import/opengotha/confirm"), (2 * OPENGOTHA + FIELDS, OPENGOTHA));
        assert_eq!(for_path("/t/3/games/9/sgf"), (SGF + FIELDS, SGF));
        const { assert!(BODY >= 2 * OPENGOTHA + FIELDS) };
    }

    /// A federation's rating list (the EGF's whole list) is uploaded once: its route's limit,
    /// within the largest body.
    #[test]
    fn a_rating_list_has_its_own_limit() {
        assert_eq!(text(RATING_LIST), "16 MB");
        assert_eq!(for_path("/t/3/rating-lists"), (RATING_LIST + FIELDS, RATING_LIST));
        assert_eq!(for_path("/t/3/rating-list/4/apply"), (FORM, FORM));
        const { assert!(BODY >= RATING_LIST + FIELDS) };
    }
}
