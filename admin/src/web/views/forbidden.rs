//! The staff page of pairings that must not happen (回避, `templates/forbidden.html`): the
//! groups listed, the form that adds one or edits one.

use super::pages::{Chrome, FormView};
use askama::Template;

/// One entrant the form offers as a member.
pub struct MemberChoice {
    pub id: i32,
    pub label: String,
    pub on: bool,
}

/// One group as the page lists it.
pub struct GroupLine {
    pub id: i32,
    pub version: i32,
    pub label: String,
    pub members: String,
    /// "never", or "not before round k", in words.
    pub when: String,
    /// The organizer's reason (staff only).
    pub reason: String,
}

#[derive(Template)]
#[template(path = "forbidden.html")]
pub struct ForbiddenPage {
    pub c: Chrome,
    pub tid: i32,
    pub organizer: bool,
    pub groups: Vec<GroupLine>,
    /// The form: a new group's (`editing` None) or a group's being edited.
    pub editing: Option<i32>,
    pub version: i32,
    pub f: FormView,
    pub choices: Vec<MemberChoice>,
    /// The name search that narrowed the choices.
    pub find: String,
    pub banner: Option<String>,
}
