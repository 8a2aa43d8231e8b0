//! The registration pages (网上报名): the public form, its confirmation and status page, and
//! the organizer's settings and queue.

use super::pages::{Chrome, FormView, Options};
use askama::Template;

/// The public form (new, or sent again after a request to change).
#[derive(Template)]
#[template(path = "register.html")]
pub struct RegisterPage {
    pub c: Chrome,
    pub eid: i32,
    /// Where the form posts: `/e/{eid}/register`, or the status page's address.
    pub action: String,
    /// The form takes registrations now; else `closed` says why.
    pub open: bool,
    pub closed: Option<String>,
    /// The deadline in the event's zone, with the zone named; empty for none.
    pub deadline: String,
    /// The groups that take registrations (id, name and what is left); one: no choice shown.
    pub groups: Options,
    /// The fields asked: (form name, label key, input kind, required).
    pub asked: Vec<Asked>,
    pub contact: Option<bool>,
    pub sexes: Options,
    pub f: FormView,
    pub banner: Option<String>,
}

/// A field the organizer asks.
pub struct Asked {
    pub name: &'static str,
    pub label: &'static str,
    pub required: bool,
}

/// A registration's status page: its confirmation after sending, its state, the organizer's
/// message, and (asked to change) the form again.
#[derive(Template)]
#[template(path = "register_status.html")]
pub struct StatusPage {
    pub c: Chrome,
    pub reference: String,
    /// The page's own address (the private link).
    pub link: String,
    /// Just sent: the confirmation.
    pub new: bool,
    pub state_code: &'static str,
    pub state: String,
    pub message: String,
    pub name: String,
    pub group: String,
    /// Asked to change: the form, filled with what was sent.
    pub form: Option<RegisterPage>,
}

/// One group's part in the settings form.
pub struct GroupSetting {
    pub id: i32,
    pub name: String,
    pub takes: bool,
    pub cap: String,
    /// Entrants and waiting registrations.
    pub taken: u32,
}

/// One field's ask in the settings form.
pub struct FieldSetting {
    pub name: &'static str,
    pub label: &'static str,
    pub ask: &'static str,
}

/// One registration in the queue.
pub struct QueueRow {
    pub id: i32,
    pub reference: String,
    pub version: i32,
    pub name_zh: String,
    pub name_latin: String,
    pub group: String,
    pub rank: String,
    pub sex: String,
    pub birth_date: String,
    pub unit: String,
    pub phone: String,
    pub email: String,
    pub state_code: &'static str,
    pub state: String,
    pub message: String,
    /// Whom it probably duplicates, worded.
    pub duplicates: Vec<String>,
    pub waiting: bool,
    pub entrant: Option<(i32, i32)>,
}

#[derive(Template)]
#[template(path = "registrations.html")]
pub struct QueuePage {
    pub c: Chrome,
    pub eid: i32,
    pub version: i32,
    pub open: bool,
    /// The settings form as typed (the deadline).
    pub f: FormView,
    pub zone: String,
    pub groups: Vec<GroupSetting>,
    pub fields: Vec<FieldSetting>,
    pub asks: Options,
    pub rows: Vec<QueueRow>,
    /// The filter: state code and group id ('' all).
    pub state_filter: String,
    pub group_filter: String,
    pub states: Options,
    pub group_choices: Options,
    pub public_link: String,
    pub banner: Option<String>,
}
