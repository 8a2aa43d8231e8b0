//! The player registry's pages: the registry with its search and likely duplicates, a
//! person's staff page (export, deletion on request), and the public person page.

pub use super::pages::PersonItem;
use super::pages::{Chrome, FormView};
use askama::Template;

/// Two persons who look like one, with the merge form's values.
pub struct DuplicateItem {
    pub a: PersonItem,
    pub b: PersonItem,
    pub why: String,
}

/// GET /persons: the registry (search and likely duplicates), for the administrator and the
/// organizers (each sees the persons of the events they organize).
#[derive(Template)]
#[template(path = "persons.html")]
pub struct PersonsPage {
    pub c: Chrome,
    pub q: String,
    pub found: Vec<PersonItem>,
    pub duplicates: Vec<DuplicateItem>,
    pub banner: Option<String>,
}

/// One event of a person: the event's name, date, the rank there and the result.
pub struct EventItem {
    pub tid: i32,
    pub eid: i32,
    pub name: String,
    pub date: String,
    pub rank: String,
    pub place: String,
    pub score: String,
    /// The rating after the event with its change ("2316（+16）"); empty when not computed.
    pub gor: String,
}

/// A rank of the history: the date, the rank, the event it was recorded at.
pub struct RankItem {
    pub date: String,
    pub rank: String,
    pub event: String,
}

/// GET /persons/{person}: what the staff see of a person (birth date and contact too), with
/// the administrator's export and deletion.
#[derive(Template)]
#[template(path = "person.html")]
pub struct PersonStaffPage {
    pub c: Chrome,
    pub p: PersonItem,
    /// (label key, value) of the private facts.
    pub facts: Vec<(&'static str, String)>,
    pub ranks: Vec<RankItem>,
    pub events: Vec<EventItem>,
    pub admin: bool,
    pub banner: Option<String>,
    /// The edit form: the stored details, or a refused edit as typed.
    pub edit: FormView,
    pub version: i32,
    pub sexes: Vec<(String, String)>,
}

/// GET /p/{person}: the public person page: name, rank history and results; no birth date,
/// no contact.
#[derive(Template)]
#[template(path = "person_public.html")]
pub struct PersonPublicPage {
    pub c: Chrome,
    pub p: PersonItem,
    pub ranks: Vec<RankItem>,
    pub events: Vec<EventItem>,
}
