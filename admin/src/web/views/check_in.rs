//! The check-in pages (签到): the staff desk of a round, the review before closing, and the
//! public self check-in form.

use super::pages::{Chrome, FormView, Options};
use crate::print::table_cards::QrGrid;
use askama::Template;

/// One entrant at the desk.
pub struct DeskRow {
    pub id: i32,
    /// The entrant's group (the hall's desk checks in every group of the event).
    pub tid: i32,
    /// The group's name, empty while the event has one group.
    pub group: String,
    pub name: String,
    pub rank: String,
    pub unit: String,
    pub checked: bool,
    /// Checked in on their own phone.
    pub by_self: bool,
    /// Already absent for the round (closing, or the attendance page).
    pub absent: bool,
}

#[derive(Template)]
#[template(path = "check_in_desk.html")]
pub struct DeskPage {
    pub c: Chrome,
    pub tid: i32,
    pub round: i32,
    /// The search as typed (characters, pinyin or initials).
    pub q: String,
    /// The expected entrants the search finds, by name.
    pub rows: Vec<DeskRow>,
    /// Entrants the round expects, and how many of them checked in.
    pub expected: usize,
    pub checked: usize,
    /// Those not checked in and not absent, by name.
    pub not_yet: Vec<String>,
    /// The deadline in the event's zone, empty while none is set.
    pub deadline: String,
    /// When check-in was closed, in the event's zone.
    pub closed: Option<String>,
    pub version: i32,
    /// The self check-in code, empty while none was made.
    pub code: String,
    /// The self check-in page's address: absolute under `--public-url`, else the path.
    pub self_link: String,
    /// Its QR code for the venue's notice (only with `--public-url`: a phone needs the whole
    /// address), as a grid of modules.
    pub self_qr: Option<QrGrid>,
    pub can_organize: bool,
    /// The event has several groups: the desk names each entrant's group.
    pub several: bool,
    /// The deadline form as typed.
    pub f: FormView,
    pub banner: Option<String>,
}

/// One entrant closing would set absent.
pub struct CloseRow {
    pub id: i32,
    pub name: String,
    pub unit: String,
}

#[derive(Template)]
#[template(path = "check_in_close.html")]
pub struct ClosePage {
    pub c: Chrome,
    pub tid: i32,
    pub round: i32,
    pub version: i32,
    pub rows: Vec<CloseRow>,
    pub closed: bool,
    /// The deadline has not come yet.
    pub early: bool,
    pub banner: Option<String>,
}

#[derive(Template)]
#[template(path = "check_in_self.html")]
pub struct SelfPage {
    pub c: Chrome,
    pub tid: i32,
    pub round: i32,
    /// A code exists and the round's check-in is not closed.
    pub open: bool,
    pub closed: bool,
    /// The entrants still to check in: (id, name and unit).
    pub choices: Options,
    pub f: FormView,
    /// "张伟 checked in" after a success.
    pub done: Option<String>,
    pub banner: Option<String>,
}
