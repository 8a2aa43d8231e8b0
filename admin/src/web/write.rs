//! One typed write path. Every POST that changes the office is extracted the same way, in the
//! same order, before its handler runs:
//!
//! 1. the body (its route's limits are `limits`'s, the fields kept for a fault page by
//!    `error::keep_typed`);
//! 2. the request context ([`Ctx`]: language, session, CSRF token, database);
//! 3. who may write here ([`Admit`]): the ids of the path (anything but an id is the 404
//!    page) and the role the route needs — 401 without a session, 403 with the wrong role or
//!    another tournament, 404 for a tournament that is not there. This comes before the form
//!    is read, so a stranger learns nothing from form errors;
//! 4. the form: same origin and this session's CSRF token (403), then the typed fields `F`
//!    (`#[derive(Deserialize)]`; a field that cannot be read is the 400 "bad form" page).
//!
//! A handler is then "extract, one use case, redirect or refuse": [`Write::actor`] names who
//! wrote in the audit row, [`Write::reason`] checks a reason by the rule of every typed text,
//! and a refusal becomes its page through `error::Refused`.

use super::ctx::Ctx;
use super::error::AppError;
use super::form::{text_error, Form, Lines, MAX_REASON};
use crate::db::users::{Role, User};
use crate::db::Actor;
use actix_web::dev::Payload;
use actix_web::{web, FromRequest, HttpRequest};
use futures_util::future::LocalBoxFuture;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};
use std::future::Future;

/// The ids of a write's path, typed. Anything that does not read is the 404 page.
pub trait PathIds: Sized {
    /// From the path's segments in order (`/t/{id}/rounds/{n}` → `["7", "3"]`).
    fn parse(segments: &[String]) -> Option<Self>;
    /// The id whose rights decide who may write: the tournament's (the first id of a staff
    /// write) or the account's (an account's write).
    fn key(&self) -> i32;
}

/// The first `N` segments, each a positive id.
impl<const N: usize> PathIds for [i32; N] {
    fn parse(segments: &[String]) -> Option<Self> {
        let mut out = [0; N];
        for (o, s) in out.iter_mut().zip(segments.get(..N)?) {
            *o = s.parse::<i32>().ok().filter(|v| *v > 0)?;
        }
        Some(out)
    }
    fn key(&self) -> i32 {
        self.first().copied().unwrap_or(0)
    }
}

/// Who may make a write, checked from the request context and the path before the form is
/// read: a refusal is the 401, 403 or 404 page.
pub trait Admit: Sized {
    fn admit(ctx: &Ctx, segments: &[String]) -> impl Future<Output = Result<Self, AppError>>;
}

/// A logged-in writer, named in the audit row.
pub trait Writer {
    fn user(&self) -> &User;
}

/// An organizer of the tournament in the path (a write only organizers make there).
pub struct Organizer<P = [i32; 1]> {
    pub user: User,
    pub ids: P,
}

/// Anyone on the tournament's staff: an arbiter, or an organizer.
pub struct Arbiter<P = [i32; 1]> {
    pub user: User,
    pub ids: P,
}

/// The tournament's ids from the path (404), then its staff with the role `need`.
async fn staff<P: PathIds>(ctx: &Ctx, segments: &[String], need: Role) -> Result<(User, P), AppError> {
    let ids = P::parse(segments).ok_or_else(|| ctx.not_found())?;
    let (user, _) = ctx.require_staff(ids.key(), need).await?;
    Ok((user, ids))
}

impl<P: PathIds> Admit for Organizer<P> {
    async fn admit(ctx: &Ctx, segments: &[String]) -> Result<Self, AppError> {
        let (user, ids) = staff(ctx, segments, Role::Organizer).await?;
        Ok(Organizer { user, ids })
    }
}

impl<P> Writer for Organizer<P> {
    fn user(&self) -> &User {
        &self.user
    }
}

impl<P: PathIds> Admit for Arbiter<P> {
    async fn admit(ctx: &Ctx, segments: &[String]) -> Result<Self, AppError> {
        let (user, ids) = staff(ctx, segments, Role::Arbiter).await?;
        Ok(Arbiter { user, ids })
    }
}

impl<P> Writer for Arbiter<P> {
    fn user(&self) -> &User {
        &self.user
    }
}

/// An organizer of the event in the path (`/e/{event}/…`): a write on what the event's groups
/// share (its groups, its hall, its registration).
pub struct EventOrganizer<P = [i32; 1]> {
    pub user: User,
    pub ids: P,
}

impl<P: PathIds> Admit for EventOrganizer<P> {
    async fn admit(ctx: &Ctx, segments: &[String]) -> Result<Self, AppError> {
        let ids = P::parse(segments).ok_or_else(|| ctx.not_found())?;
        let (user, _) = ctx.require_event_staff(ids.key(), Role::Organizer).await?;
        Ok(EventOrganizer { user, ids })
    }
}

impl<P> Writer for EventOrganizer<P> {
    fn user(&self) -> &User {
        &self.user
    }
}

/// An organizer of the office (the global role: new tournaments, accounts).
pub struct Office {
    pub user: User,
}

impl Admit for Office {
    async fn admit(ctx: &Ctx, _: &[String]) -> Result<Self, AppError> {
        Ok(Office { user: ctx.require_organizer()?.clone() })
    }
}

impl Writer for Office {
    fn user(&self) -> &User {
        &self.user
    }
}

/// Any logged-in user (their own account).
pub struct Member {
    pub user: User,
}

impl Admit for Member {
    async fn admit(ctx: &Ctx, _: &[String]) -> Result<Self, AppError> {
        Ok(Member { user: ctx.require_user()?.clone() })
    }
}

impl Writer for Member {
    fn user(&self) -> &User {
        &self.user
    }
}

/// Anyone, logged in or not (logging in and out, the first run): the CSRF token and the
/// origin are checked all the same.
pub struct Anyone;

impl Admit for Anyone {
    async fn admit(_: &Ctx, _: &[String]) -> Result<Self, AppError> {
        Ok(Anyone)
    }
}

/// A form with no typed fields (what it carries is read from [`Write::fields`], or nothing).
#[derive(Debug, Default, Deserialize)]
pub struct Plain {}

/// The form of most writes on something versioned: the version it was read at (a stale write
/// is refused, never merged; a missing or unreadable version is a bad form).
#[derive(Debug, Deserialize)]
pub struct Versioned {
    pub version: i32,
}

/// How a write's body is read: whole ([`Buffered`], a form) or streamed under its route's
/// limits ([`Streamed`], a file upload). The one difference between [`Write`] and [`Upload`].
pub struct Buffered;
/// See [`Buffered`].
pub struct Streamed;

/// A write, extracted: who makes it, its typed form, and the fields as typed (shown again on
/// the page that refuses it). Derefs to its [`Ctx`].
pub struct Write<A, F = Plain, B = Buffered> {
    pub ctx: Ctx,
    pub who: A,
    pub form: F,
    /// Every field as sent (the typed entry a refusal keeps).
    pub fields: Form,
    body: std::marker::PhantomData<B>,
}

/// A write that takes a file: the same path as [`Write`], but the body streamed under its
/// route's limits (`Ctx::upload`) after the writer is admitted, never buffered whole.
pub type Upload<A, F = Plain> = Write<A, F, Streamed>;

impl<A, F, B> std::ops::Deref for Write<A, F, B> {
    type Target = Ctx;
    fn deref(&self) -> &Ctx {
        &self.ctx
    }
}

impl<A: Writer, F, B> Write<A, F, B> {
    /// Who writes, for the audit row.
    pub fn actor(&self) -> Actor {
        self.who.user().actor()
    }
}

impl<A, F, B> Write<A, F, B> {
    /// The version the form was read at, where a handler reads it after the form's own fields
    /// (a form whose fields are wrong shows them first): the write is refused as stale against
    /// it, never merged; a missing or unreadable version is a bad form (400), not a guess.
    pub fn version(&self) -> Result<i32, AppError> {
        self.fields.get("version").parse::<i32>().map_err(|_| bad_form(&self.ctx))
    }

    /// A number a form may leave empty (`None`), where a handler reads it; a bad form when it
    /// is not one.
    pub fn optional<T: std::str::FromStr>(&self, field: &str) -> Result<Option<T>, AppError> {
        match self.fields.get(field) {
            "" => Ok(None),
            v => v.parse::<T>().map(Some).map_err(|_| bad_form(&self.ctx)),
        }
    }

    /// A free-text reason (a correction, an unpublish, a withdrawal) from `field`, for the audit
    /// row: the rule of every typed text (`domain::text`), at most 500 characters, lines
    /// allowed; a 400 page with its problem otherwise.
    pub fn reason(&self, field: &str) -> Result<String, AppError> {
        let r = self.fields.get(field);
        match text_error(self.lang, r, MAX_REASON, Lines::Many) {
            Some(e) => Err(AppError::bad_request(self.lang, e)),
            None => Ok(r.to_string()),
        }
    }
}

/// The path's segments, in order.
fn segments(req: &HttpRequest) -> Vec<String> {
    req.match_info().iter().map(|(_, v)| v.to_string()).collect()
}

impl<A: Admit + 'static, F: DeserializeOwned + 'static> FromRequest for Write<A, F, Buffered> {
    type Error = actix_web::Error;
    type Future = LocalBoxFuture<'static, Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let req = req.clone();
        let body = web::Bytes::from_request(&req, payload);
        Box::pin(async move {
            let body = body.await?;
            let ctx = Ctx::load(&req).await?;
            let who = A::admit(&ctx, &segments(&req)).await?;
            let fields = ctx.form(&body)?;
            let form = typed(&ctx, &fields)?;
            Ok(Write { ctx, who, form, fields, body: std::marker::PhantomData })
        })
    }
}

impl<A: Admit + 'static, F: DeserializeOwned + 'static> FromRequest for Write<A, F, Streamed> {
    type Error = actix_web::Error;
    type Future = LocalBoxFuture<'static, Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let req = req.clone();
        let body = web::Payload::from_request(&req, payload);
        Box::pin(async move {
            let body = body.await?;
            let ctx = Ctx::load(&req).await?;
            let who = A::admit(&ctx, &segments(&req)).await?;
            let fields = ctx.upload(body).await?;
            let form = typed(&ctx, &fields)?;
            Ok(Write { ctx, who, form, fields, body: std::marker::PhantomData })
        })
    }
}

/// The typed fields of a form as its handler reads them: each field's first value, trimmed
/// (as `Form::get`), through serde_urlencoded (which reads numbers and the like from text).
/// A field that cannot be read is the 400 "bad form" page.
fn typed<F: DeserializeOwned>(ctx: &Ctx, form: &Form) -> Result<F, AppError> {
    typed_fields(form).map_err(|e| {
        tracing::info!("unreadable form: {e}");
        bad_form(ctx)
    })
}

fn typed_fields<F: DeserializeOwned>(form: &Form) -> Result<F, String> {
    let mut firsts: Vec<(&str, &str)> = Vec::with_capacity(form.fields.len());
    for (k, v) in &form.fields {
        if !firsts.iter().any(|(seen, _)| *seen == k) {
            firsts.push((k, v.trim()));
        }
    }
    let text = serde_urlencoded::to_string(&firsts).map_err(|e| e.to_string())?;
    serde_urlencoded::from_str::<F>(&text).map_err(|e| e.to_string())
}

/// The 400 page of a form that cannot be read (a hand-made or broken request).
pub fn bad_form(ctx: &Ctx) -> AppError {
    AppError::bad_form(ctx.lang)
}

/// A tick box: checked when sent as `on`, `1`, `true` or `yes` (as `Form::checked`); absent
/// or anything else is unchecked. Use with `#[serde(default, deserialize_with = "checkbox")]`.
pub fn checkbox<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    let v = String::deserialize(d)?;
    Ok(matches!(v.as_str(), "on" | "1" | "true" | "yes"))
}

/// A number a form may leave empty: `None` when empty, a bad form when not a number. Use with
/// `#[serde(default, deserialize_with = "blank_none")]`.
pub fn blank_none<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: std::str::FromStr,
    T::Err: std::fmt::Display,
{
    let v = String::deserialize(d)?;
    match v.as_str() {
        "" => Ok(None),
        s => s.parse::<T>().map(Some).map_err(serde::de::Error::custom),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn segs(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn path_ids_are_positive_numbers_and_extra_segments_are_left() {
        assert_eq!(<[i32; 2]>::parse(&segs(&["7", "3"])), Some([7, 3]));
        assert_eq!(<[i32; 2]>::parse(&segs(&["7", "3", "withdraw"])), Some([7, 3]));
        assert_eq!(<[i32; 2]>::parse(&segs(&["7"])), None);
        assert_eq!(<[i32; 1]>::parse(&segs(&["0"])), None);
        assert_eq!(<[i32; 1]>::parse(&segs(&["-2"])), None);
        assert_eq!(<[i32; 1]>::parse(&segs(&["x"])), None);
        assert_eq!([7, 3].key(), 7);
    }

    #[derive(Debug, Deserialize, PartialEq)]
    struct Sample {
        version: i32,
        #[serde(default, deserialize_with = "checkbox")]
        confirm: bool,
        #[serde(default, deserialize_with = "blank_none")]
        pv: Option<i32>,
    }

    fn read(pairs: &[(&str, &str)]) -> Result<Sample, String> {
        let form = Form {
            fields: pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
            files: Vec::new(),
        };
        typed_fields(&form)
    }

    #[test]
    fn typed_fields_read_as_the_form_reads_them() {
        let s = read(&[("csrf", "t"), ("version", " 4 "), ("confirm", "on"), ("pv", "")]).unwrap();
        assert_eq!(s, Sample { version: 4, confirm: true, pv: None });
        // The first value counts, as `Form::get`.
        let s = read(&[("version", "4"), ("version", "x"), ("pv", "12")]).unwrap();
        assert_eq!(s, Sample { version: 4, confirm: false, pv: Some(12) });
        assert!(read(&[("version", "")]).is_err(), "an empty version is a bad form");
        assert!(read(&[("confirm", "on")]).is_err(), "a missing version is a bad form");
        assert!(read(&[("version", "1"), ("pv", "x")]).is_err());
        assert!(!read(&[("version", "1"), ("confirm", "no")]).unwrap().confirm);
    }
}
