//! Askama page types. Every page has a [`Chrome`] (`c`) for the frame: language, user,
//! CSRF token, tournament navigation. Askama's HTML escaping stays on everywhere.

use super::i18n::Lang;
use crate::db::audit::AuditRow;
use crate::db::tournaments::{StaffMember, TournamentRow};
use crate::db::users::User;
use actix_web::http::StatusCode;
use askama::Template;
use std::collections::HashMap;

pub struct Chrome {
    pub lang: Lang,
    pub user: Option<User>,
    pub csrf: String,
    pub path: String,
    pub title: String,
    pub tid: Option<i32>,
    pub tname: String,
    /// The user is on this tournament's staff (shows the admin navigation).
    pub staff: bool,
    /// Seconds after which the page reloads itself (0: never), while a round runs.
    pub refresh: u32,
}

impl Chrome {
    pub fn t(&self, key: &str) -> &'static str {
        self.lang.t(key)
    }
    pub fn role_name(&self, code: &str) -> &'static str {
        match code {
            "organizer" => self.t("role.organizer"),
            _ => self.t("role.arbiter"),
        }
    }
    pub fn lang_link(&self, code: &str) -> String {
        let q = serde_urlencoded::to_string([("next", self.path.as_str())]).unwrap_or_default();
        format!("/lang/{code}?{q}")
    }
}

/// Submitted (or stored) values of a form, as strings, with a message per bad field.
#[derive(Default)]
pub struct FormView {
    pub vals: HashMap<String, String>,
    pub errs: HashMap<String, String>,
}

impl FormView {
    pub fn v(&self, name: &str) -> &str {
        self.vals.get(name).map(String::as_str).unwrap_or("")
    }
    pub fn err(&self, name: &str) -> Option<&str> {
        self.errs.get(name).map(String::as_str)
    }
    pub fn set(&mut self, name: &str, v: impl Into<String>) {
        self.vals.insert(name.to_string(), v.into());
    }
    pub fn error(&mut self, name: &str, msg: impl Into<String>) {
        self.errs.entry(name.to_string()).or_insert_with(|| msg.into());
    }
    pub fn has_errors(&self) -> bool {
        !self.errs.is_empty()
    }
    /// The submitted fields become the values shown again.
    pub fn from_form(form: &super::form::Form) -> FormView {
        let mut f = FormView::default();
        for (k, v) in &form.fields {
            if k != "csrf" && k != "password" && k != "password2" {
                f.vals.entry(k.clone()).or_insert_with(|| v.clone());
            }
        }
        f
    }
}

pub type Options = Vec<(String, String)>;

#[derive(Template)]
#[template(path = "error.html")]
pub struct ErrorPage {
    pub c: Chrome,
    pub status: u16,
    pub message: String,
}

impl ErrorPage {
    pub fn new(lang: Lang, status: StatusCode, message: &str) -> ErrorPage {
        ErrorPage {
            c: Chrome {
                lang,
                user: None,
                csrf: String::new(),
                path: "/".into(),
                title: lang.t("err.title").to_string(),
                tid: None,
                tname: String::new(),
                staff: false,
                refresh: 0,
            },
            status: status.as_u16(),
            message: message.to_string(),
        }
    }
}

#[derive(Template)]
#[template(path = "login.html")]
pub struct LoginPage {
    pub c: Chrome,
    pub username: String,
    pub next: String,
    pub error: Option<String>,
}

#[derive(Template)]
#[template(path = "setup.html")]
pub struct SetupPage {
    pub c: Chrome,
    pub token: String,
    pub f: FormView,
}

pub struct HomeItem {
    pub id: i32,
    pub name: String,
    pub other_name: String,
    pub dates: String,
    pub venue: String,
    pub staff: bool,
}

#[derive(Template)]
#[template(path = "home.html")]
pub struct HomePage {
    pub c: Chrome,
    pub items: Vec<HomeItem>,
    pub can_create: bool,
}

pub struct SettingsOptions {
    pub system: Options,
    pub colour: Options,
    pub same_unit: Options,
    pub preset: Options,
    pub points: Options,
    pub bye_value: Options,
    pub bye_sos: Options,
    pub tiebreak: Options,
    pub time_kind: Options,
    pub regime: Options,
    pub forfeit_sos: Options,
}

#[derive(Template)]
#[template(path = "tournament_form.html")]
pub struct TournamentFormPage {
    pub c: Chrome,
    pub is_new: bool,
    pub action: String,
    pub delete_action: String,
    pub version: i32,
    pub f: FormView,
    pub opt: SettingsOptions,
    pub tb_slots: Vec<String>,
    pub banner: Option<String>,
    pub published: u32,
    pub frozen_note: String,
}

#[derive(Template)]
#[template(path = "tournament.html")]
pub struct TournamentPage {
    pub c: Chrome,
    pub t: TournamentRow,
    pub system: String,
    pub ruleset: String,
    pub komi: String,
    pub n_entrants: i64,
    pub published: u32,
    pub staff: Vec<StaffMember>,
    pub candidates: Vec<(i32, String)>,
    pub is_organizer: bool,
    /// The user id of the chief arbiter named, 0 for none.
    pub chief_id: i32,
    pub time_control: String,
    pub lateness: String,
}

pub struct PlayerItem {
    pub name: String,
    pub other_name: String,
    pub rank: String,
    pub unit: String,
    pub region: String,
    pub withdrawn: bool,
}

#[derive(Template)]
#[template(path = "players.html")]
pub struct PlayersPage {
    pub c: Chrome,
    pub rows: Vec<PlayerItem>,
    pub n_active: usize,
}

pub struct EntrantItem {
    pub id: i32,
    pub name_zh: String,
    pub name_latin: String,
    pub rank: String,
    pub rating: String,
    pub unit: String,
    pub region: String,
    pub withdrawn: bool,
}

#[derive(Template)]
#[template(path = "entrants.html")]
pub struct EntrantsPage {
    pub c: Chrome,
    pub tid: i32,
    pub rows: Vec<EntrantItem>,
    pub q: String,
    pub sort: String,
    pub sorts: Options,
    pub can_edit: bool,
    pub notice: Option<String>,
}

#[derive(Template)]
#[template(path = "entrant_form.html")]
pub struct EntrantFormPage {
    pub c: Chrome,
    pub tid: i32,
    pub eid: Option<i32>,
    pub action: String,
    pub version: i32,
    pub f: FormView,
    pub sexes: Options,
    pub banner: Option<String>,
}

pub struct Preview {
    pub summary: String,
    /// (line, reasons)
    pub bad: Vec<(usize, String)>,
    /// (line, name, rank, unit)
    pub good: Vec<(usize, String, String, String)>,
    pub payload: String,
    pub confirm_action: String,
}

#[derive(Template)]
#[template(path = "import.html")]
pub struct ImportPage {
    pub c: Chrome,
    pub tid: i32,
    pub preview: Option<Preview>,
    pub banner: Option<String>,
}

#[derive(Template)]
#[template(path = "audit.html")]
pub struct AuditPage {
    pub c: Chrome,
    pub title: String,
    pub rows: Vec<AuditRow>,
}

#[derive(Template)]
#[template(path = "users.html")]
pub struct UsersPage {
    pub c: Chrome,
    pub me: i32,
    pub users: Vec<User>,
    pub f: FormView,
    pub roles: Options,
    pub audit: Vec<AuditRow>,
    pub notice: Option<String>,
}
