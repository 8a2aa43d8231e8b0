//! The error pages: an [`AppError`] rendered as its page in the reader's language, and the page
//! of a full or locked database that keeps what the user typed ([`keep_typed`]). The errors
//! themselves are plain values in `web::error`.

use super::pages::{ErrorPage, FormView, ResubmitPage};
use crate::web::error::{fault_status, AppError, Fault};
use crate::web::form::FieldErrors;
use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::{header, StatusCode};
use actix_web::middleware::Next;
use actix_web::{web, HttpResponse, ResponseError};
use askama::Template;

impl FieldErrors for FormView {
    fn error(&mut self, field: &str, message: String) {
        FormView::error(self, field, message);
    }
}

impl ResponseError for AppError {
    fn status_code(&self) -> StatusCode {
        self.status
    }

    fn error_response(&self) -> HttpResponse {
        if let Some(to) = &self.redirect {
            return HttpResponse::SeeOther().insert_header((header::LOCATION, to.as_str())).finish();
        }
        let page = ErrorPage::new(self.lang, self.status, &self.message);
        let body = page.render().unwrap_or_else(|_| self.message.clone());
        let mut r = HttpResponse::build(self.status);
        if matches!(self.fault, Some(Fault::Locked | Fault::Unavailable)) {
            r.insert_header((header::RETRY_AFTER, "10"));
        }
        r.content_type("text/html; charset=utf-8").body(body)
    }
}

/// Keep the fields of a form POST (urlencoded, the only kind whose fields can be sent again;
/// a file must be chosen again), and if the answer is a full or locked database, answer with
/// them in a form that sends them again to the same address, with the same CSRF token.
pub async fn keep_typed(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<actix_web::body::BoxBody>, actix_web::Error> {
    let form_post = req.method() == actix_web::http::Method::POST
        && req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"));
    if !form_post {
        return Ok(next.call(req).await?.map_into_boxed_body());
    }
    // A body that cannot be read (stopped by `limits::limit_bodies`, cut off) is answered here,
    // not passed up as an error: the middleware around turns the answer into its page.
    let body = match req.extract::<web::Bytes>().await {
        Ok(b) => b,
        Err(e) => return Ok(req.error_response(e)),
    };
    req.set_payload(actix_web::dev::Payload::from(body.clone()));
    let path = req.path().to_string();
    let res = next.call(req).await?;
    let fault = res
        .response()
        .error()
        .and_then(|e| e.as_error::<AppError>())
        .and_then(|e| e.fault.map(|f| (f, e.lang, e.message.clone())));
    let Some((fault, lang, message)) = fault else {
        return Ok(res.map_into_boxed_body());
    };
    let fields: Vec<(String, String)> = serde_urlencoded::from_bytes(&body).unwrap_or_default();
    let page = ResubmitPage::new(lang, fault_status(fault), &message, &path, fields);
    let html = page.render().unwrap_or(message);
    let mut out = HttpResponse::build(fault_status(fault));
    if matches!(fault, Fault::Locked | Fault::Unavailable) {
        out.insert_header((header::RETRY_AFTER, "10"));
    }
    let out = out.content_type("text/html; charset=utf-8").body(html);
    Ok(res.into_response(out).map_into_boxed_body())
}
