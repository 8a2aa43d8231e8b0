//! The display screens' pages (大屏): the organizers' list with its forms, the screen's shell
//! and its fragment (`/screen/{token}/data`).

use super::pages::Chrome;
use crate::i18n::Lang;
use askama::Template;

/// A tick box of a form: its value, label and state.
pub struct Choice {
    pub value: String,
    pub label: String,
    pub on: bool,
}

/// A screen's settings form, as stored or as typed.
pub struct ScreenForm {
    /// The form's element id: `screen-new`, or `screen-form-{id}`.
    pub id: String,
    pub action: String,
    pub version: i32,
    pub name: String,
    pub contents: Vec<Choice>,
    pub groups: Vec<Choice>,
    pub pace: String,
    pub columns: String,
    pub rows: String,
    pub announcement: String,
    /// (field, words) of each problem.
    pub errors: Vec<(&'static str, String)>,
}

impl ScreenForm {
    pub fn err(&self, field: &str) -> Option<&str> {
        self.errors.iter().find(|(f, _)| *f == field).map(|(_, e)| e.as_str())
    }
}

/// One screen in the organizers' list.
pub struct ScreenLine {
    pub id: i32,
    pub version: i32,
    pub name: String,
    /// Its address works (not revoked).
    pub live: bool,
    pub summary: String,
    /// The address, shown once after it was made.
    pub url: Option<String>,
    /// `/e/{event}/screens/{id}` (the revoke and reissue forms add their word).
    pub action: String,
    pub form: ScreenForm,
}

#[derive(Template)]
#[template(path = "screens.html")]
pub struct ScreensPage {
    pub c: Chrome,
    pub eid: i32,
    pub rows: Vec<ScreenLine>,
    pub new: ScreenForm,
    pub banner: Option<String>,
    /// The banner is about a new address shown below (not a refusal).
    pub url_shown: bool,
}

/// One line of a screen's list: the table (or place), the player (or Black), the colour
/// (result, score), the opponent (White, unit).
#[derive(Clone)]
pub struct Item {
    /// The entrant the line is about (by-name list and standings), else 0.
    pub player: i32,
    pub no: String,
    pub main: String,
    pub mid: String,
    pub other: String,
}

/// A list before it is cut into pages.
pub struct List {
    pub kind: &'static str,
    pub title: String,
    pub items: Vec<Item>,
    /// The countdown's end (Unix ms), 0 for none.
    pub at: i64,
}

/// One page of a screen.
pub struct ScreenPage {
    pub kind: &'static str,
    pub title: String,
    /// "2/11" when its list has several pages.
    pub nth: String,
    pub items: Vec<Item>,
    pub at: i64,
}

/// The screen's fragment: header, pages, announcement.
#[derive(Template)]
#[template(path = "screen_data.html")]
pub struct ScreenData {
    pub lang: Lang,
    pub title: String,
    pub round: String,
    pub zone: String,
    /// The zone's offset from UTC now, in seconds (the clock's).
    pub offset: i32,
    pub pace: u32,
    pub rows: u32,
    pub columns: u32,
    /// The groups' ids, for `assets/live.js`.
    pub live: String,
    pub announcement: String,
    pub pages: Vec<ScreenPage>,
}

impl ScreenData {
    pub fn t(&self, key: &str) -> &'static str {
        self.lang.t(key)
    }
}

/// The screen's page around its fragment.
#[derive(Template)]
#[template(path = "screen.html")]
pub struct ScreenShell {
    pub data_url: String,
    pub d: ScreenData,
}
