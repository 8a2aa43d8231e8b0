//! Askama page types. Every page has a [`Chrome`] (`c`) for the frame: language, user,
//! CSRF token, tournament navigation. Askama's HTML escaping stays on everywhere.

use crate::db::tournaments::{StaffMember, TournamentRow};
use crate::db::users::User;
use crate::i18n::tr;
use crate::i18n::Lang;
use crate::web::error::{fault_status, AppError, Fault};
use crate::web::form::FieldErrors;
use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::{header, StatusCode};
use actix_web::middleware::Next;
use actix_web::{web, HttpResponse, ResponseError};
use askama::Template;
use std::collections::HashMap;

pub struct Chrome {
    pub lang: Lang,
    pub user: Option<User>,
    pub csrf: String,
    pub path: String,
    pub title: String,
    pub tid: Option<i32>,
    /// The tournament's name, or "{event} · {group}" for a group of an event of several.
    pub tname: String,
    /// The event of several groups the page's group belongs to (its overview linked).
    pub event: Option<i32>,
    /// The user is on this tournament's staff (shows the admin navigation).
    pub staff: bool,
    /// The tournament is a team event (shows the team navigation).
    pub team: bool,
    /// Seconds after which a browser without script reloads the page (0: never), while a round
    /// runs.
    pub refresh: u32,
    /// The tournaments whose changes the page follows, comma-separated (`data-live`,
    /// `assets/live.js`).
    pub live: Option<String>,
    /// The page's own script follows those changes (`data-live-mode="self"`): `live.js` only
    /// tells it, and swaps nothing.
    pub live_self: bool,
    /// The zone of every time the page shows (`domain::event_time`): the event's on its
    /// pages, the server's on pages of no event (accounts).
    pub zone: &'static str,
}

impl Chrome {
    /// The frame of a page outside any tournament, for `user` (none on an error page, which
    /// may be shown before the session is read) at `path`.
    pub fn outside(lang: Lang, user: Option<User>, csrf: String, path: String, title: String) -> Chrome {
        Chrome {
            lang,
            user,
            csrf,
            path,
            title,
            tid: None,
            tname: String::new(),
            event: None,
            staff: false,
            team: false,
            refresh: 0,
            live: None,
            live_self: false,
            zone: crate::machine::zone().name(),
        }
    }

    /// The same frame on a public page that follows tournament `tid`'s changes (`web::live`).
    pub fn live(self, tid: i32) -> Chrome {
        self.live_all(&[tid])
    }

    /// The same frame on a public page that follows the changes of every tournament of `ids`
    /// (an event's groups).
    pub fn live_all(self, ids: &[i32]) -> Chrome {
        let ids: Vec<String> = ids.iter().map(i32::to_string).collect();
        Chrome { live: Some(ids.join(",")), ..self }
    }

    /// A page whose own script follows the changes of `ids` (the check-in desk): `live.js`
    /// fires `tengen:changed` and leaves the page to it.
    pub fn live_by_itself(self, ids: &[i32]) -> Chrome {
        Chrome { live_self: true, ..self.live_all(ids) }
    }

    pub fn t(&self, key: &str) -> &'static str {
        self.lang.t(key)
    }
    /// A catalog message with its one argument by name: `c.tf("round.title", "round", n)`
    /// (a number stays a number for the plural selectors).
    pub fn tf<T: crate::i18n::Arg>(&self, key: &str, name: &str, arg: T) -> String {
        self.lang.tf(key, &[(name, &arg)])
    }
    /// The stated limit of an upload form (`csv`, `opengotha`, `rating_list`, `sgf`;
    /// `web::limits`).
    pub fn upload_limit(&self, kind: &str) -> String {
        crate::web::limits::text(match kind {
            "csv" => crate::web::limits::CSV,
            "opengotha" => crate::web::limits::OPENGOTHA,
            "rating_list" => crate::web::limits::RATING_LIST,
            _ => crate::web::limits::SGF,
        })
    }
    /// "Page 2 of 50 (201–400 of 10,000)" in the reader's language.
    pub fn pager_position(&self, p: &Pager) -> String {
        tr!(
            self.lang,
            "pager.position",
            page = p.page,
            pages = p.pages,
            first = p.first_item,
            last = p.last_item,
            total = p.total
        )
    }
    pub fn role_name(&self, code: &str) -> &'static str {
        match code {
            "organizer" => self.t("role.organizer"),
            _ => self.t("role.arbiter"),
        }
    }
    pub fn lang_link(&self, code: &str) -> String {
        let mut q = vec![("next", self.path.as_str())];
        if self.user.is_some() {
            q.push(("csrf", self.csrf.as_str()));
        }
        let q = serde_urlencoded::to_string(q).unwrap_or_default();
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
    pub fn from_form(form: &crate::web::form::Form) -> FormView {
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
            c: Chrome::outside(lang, None, String::new(), "/".into(), lang.t("err.title").to_string()),
            status: status.as_u16(),
            message: message.to_string(),
        }
    }
}

/// A full or locked database: the message, and the fields of the form as typed, to send again.
#[derive(Template)]
#[template(path = "resubmit.html")]
pub struct ResubmitPage {
    pub c: Chrome,
    pub status: u16,
    pub message: String,
    pub action: String,
    /// The CSRF token the form came with (sent again unchanged).
    pub token: String,
    /// Every other field, in order.
    pub fields: Vec<(String, String)>,
}

impl ResubmitPage {
    pub fn new(
        lang: Lang,
        status: StatusCode,
        message: &str,
        action: &str,
        fields: Vec<(String, String)>,
    ) -> ResubmitPage {
        let token = fields.iter().find(|(k, _)| k == "csrf").map(|(_, v)| v.clone()).unwrap_or_default();
        // Passwords are never written into a page: they are typed again.
        let fields = fields.into_iter().filter(|(k, _)| k != "csrf" && !k.contains("password")).collect();
        let action =
            if crate::web::net::is_local_path(action) { action.to_string() } else { "/".to_string() };
        ResubmitPage {
            c: ErrorPage::new(lang, status, message).c,
            status: status.as_u16(),
            message: message.to_string(),
            action,
            token,
            fields,
        }
    }
}

// ---- errors as pages: every `AppError` is answered with its page here, so `web::error` stays
// plain values the request context, the body limits and these views all read.

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
    /// The tournament (an event of several groups: its first group).
    pub id: i32,
    /// `/t/{id}`, or `/e/{event}` for an event of several groups.
    pub link: String,
    /// An event of several groups: each group's tournament and name, in hall order.
    pub groups: Vec<(i32, String)>,
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
    pub double_loss: Options,
    pub late_entry: Options,
    pub forfeit_sos: Options,
    pub name_order: Options,
    pub handicap_basis: Options,
    pub nigiri_holder: Options,
    pub round1_order: Options,
    /// What a cycle (triple ko, eternal life) is ruled: seed 000 Art. 20.
    pub cycle: Options,
    pub ko_draw: Options,
    pub ko_double_loss: Options,
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
    /// A note that is not an error (the McMahon order filled in on request).
    pub notice: Option<String>,
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
    /// What the organizer typed to narrow `candidates` (`?find=`).
    pub staff_find: String,
    pub is_organizer: bool,
    /// The user id of the chief arbiter named, 0 for none.
    pub chief_id: i32,
    pub time_control: String,
    pub lateness: String,
    /// McMahon events: bar and floor.
    pub mcmahon: Option<String>,
    /// The handicap rule, when the event gives handicaps.
    pub handicap: Option<String>,
    /// Staff: a relay team event whose tournament rule set is the individual one.
    pub rules_flag: Option<String>,
    /// The round whose self check-in (签到) is open (a code made, not closed): the public
    /// page links to the form.
    pub check_in: Option<i32>,
    /// The prize list is published: the page links it.
    pub prizes_published: bool,
    /// The event this group belongs to, and whether its registration form is open (the
    /// public page links the form then; the organizer's links the queue always).
    pub event_id: i32,
    pub registration_open: bool,
    /// Organizers, once every round is played with every result in: the tournament's change
    /// counter the ratings button sends, and how many players have ratings computed already.
    pub ratings: Option<(i32, usize)>,
}

pub struct PlayerItem {
    /// The pairing number (编号), which the lots name.
    pub number: u32,
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
    /// The pairing number (编号), which the lots name; the id stays in addresses.
    pub number: u32,
    pub name_zh: String,
    pub name_latin: String,
    pub rank: String,
    pub rating: String,
    pub unit: String,
    pub region: String,
    pub withdrawn: bool,
    /// The withdrawal's round, date and reason (staff only), empty when none is kept.
    pub withdrawal: String,
}

#[derive(Template)]
#[template(path = "entrants.html")]
pub struct EntrantsPage {
    pub c: Chrome,
    pub tid: i32,
    /// This page's entrants; `total` counts all that the search found.
    pub rows: Vec<EntrantItem>,
    pub total: usize,
    pub pager: Pager,
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
    /// Registered entrants the new one probably is (needs `confirm_duplicate`).
    pub duplicates: Vec<String>,
    /// The other groups of the event the entrant may move to (none once a round exists).
    pub move_to: Options,
    /// A new entrant's registry search: what was typed and the persons found.
    pub find: String,
    pub found: Vec<PersonItem>,
}

/// A person as a list shows them: the name in the reader's language first, the other form
/// beside it, the unit and the last rank known.
pub struct PersonItem {
    pub id: i32,
    pub version: i32,
    pub name: String,
    pub other_name: String,
    pub unit: String,
    pub rank: String,
}

/// The withdrawal form (退赛): reason, the venue's date (`today` by default), 公开原因.
#[derive(Template)]
#[template(path = "withdraw.html")]
pub struct WithdrawPage {
    pub c: Chrome,
    pub tid: i32,
    pub eid: i32,
    pub version: i32,
    /// Today at the venue, the date's default and latest value.
    pub today: String,
    pub f: FormView,
    pub banner: Option<String>,
}

/// One importable row of a preview, with the probable duplicates it is flagged for.
pub struct ImportRowView {
    pub line: usize,
    pub name: String,
    pub rank: String,
    pub unit: String,
    pub status: String,
    /// Empty: not flagged. Otherwise whom it probably repeats; added only when ticked.
    pub flags: Vec<String>,
    /// The group of the event the row goes to.
    pub group: String,
}

/// What an OpenGotha import may do with the event (a radio choice).
pub struct ImportMode {
    pub code: &'static str,
    pub label: String,
    pub hint: String,
    pub checked: bool,
}

pub struct Preview {
    /// "csv" or "opengotha".
    pub kind: &'static str,
    pub summary: String,
    /// (line, reasons)
    pub bad: Vec<(usize, String)>,
    pub good: Vec<ImportRowView>,
    /// How many good rows are flagged as probable duplicates.
    pub flagged: usize,
    pub payload: String,
    pub confirm_action: String,
    /// The event's change counter at the preview.
    pub changes: i32,
    /// OpenGotha: the settings the event gets, as (label, value).
    pub settings: Vec<(String, String)>,
    /// OpenGotha: what the file holds that Tengen does not take.
    pub not_imported: Vec<String>,
    /// OpenGotha: new event or replace this one.
    pub modes: Vec<ImportMode>,
    /// What replacing deletes (CSV's replace box says it too).
    pub replace_hint: String,
    /// The event has rounds: replacing needs the confirmation box.
    pub has_rounds: bool,
    pub confirm_replace_label: String,
    pub mode_error: Option<String>,
    pub confirm_error: Option<String>,
    /// An event of several groups (or a file of several categories): "group: count" lines.
    pub per_group: Vec<String>,
    /// What the import does with groups, when it says something.
    pub groups_note: String,
    /// CSV rows without a group go by the bands (carried to the confirmation).
    pub by_band: bool,
    /// The event has several groups: the rows show theirs.
    pub multi_group: bool,
}

#[derive(Template)]
#[template(path = "import.html")]
pub struct ImportPage {
    pub c: Chrome,
    pub tid: i32,
    pub preview: Option<Preview>,
    pub banner: Option<String>,
    /// The event has several groups: the CSV form offers placing by band.
    pub multi_group: bool,
}

/// One audit row as the page shows it.
pub struct Line {
    pub id: i32,
    pub at: String,
    /// "Who did what to whom", in the reader's language.
    pub sentence: String,
    pub reason: String,
    pub before: Option<String>,
    pub after: Option<String>,
    /// The round, game and entrant the row is about, for the links that narrow the page to them.
    pub round: Option<i32>,
    pub game: Option<i32>,
    pub entrant: Option<i32>,
}

#[derive(Template)]
#[template(path = "audit.html")]
pub struct AuditPage {
    pub c: Chrome,
    pub title: String,
    pub tid: i32,
    pub lines: Vec<Line>,
    /// The query string of the next (older) page, when there is one.
    pub older: Option<String>,
    /// The query string of the first page with the same filters, when this is a later page.
    pub newest: Option<String>,
    /// The filter's choices: (value, label, selected).
    pub rounds: Vec<(String, String, bool)>,
    pub entrants: Vec<(String, String, bool)>,
    pub actors: Vec<(String, String, bool)>,
    pub kinds: Vec<(String, String, bool)>,
    pub filter: crate::db::audit::Filter,
    /// Some filter (or a later page) is in force.
    pub filtered: bool,
}

#[derive(Template)]
#[template(path = "users.html")]
pub struct UsersPage {
    pub c: Chrome,
    pub me: i32,
    /// The viewer is the account administrator (sees every account).
    pub admin: bool,
    /// The accounts shown, each with whether the viewer manages it.
    pub users: Vec<(User, bool)>,
    pub f: FormView,
    pub roles: Options,
    pub audit: Vec<Line>,
    pub notice: Option<String>,
    /// The server's storage and backups: (element id, text, is it a problem?).
    pub server: Vec<(&'static str, String, bool)>,
}

/// One's own account: change the password.
#[derive(Template)]
#[template(path = "account.html")]
pub struct AccountPage {
    pub c: Chrome,
    pub f: FormView,
    pub notice: Option<String>,
}

/// An organizer sets a new password for an account they manage.
#[derive(Template)]
#[template(path = "password_reset.html")]
pub struct PasswordResetPage {
    pub c: Chrome,
    pub target: User,
    pub f: FormView,
}

// ---------------------------------------------------------------------------------------------
// Rounds (web::rounds)

pub struct RoundItem {
    pub number: i32,
    pub published: bool,
    pub system: String,
    pub seed: String,
    /// A result has been entered.
    pub results: bool,
    pub published_at: String,
}

#[derive(Template)]
#[template(path = "rounds.html")]
pub struct RoundsPage {
    pub c: Chrome,
    pub tid: i32,
    pub items: Vec<RoundItem>,
    pub next: i32,
    pub can_pair: bool,
    pub attendance_round: i32,
    pub is_organizer: bool,
    pub round_robin: bool,
    pub system: String,
    pub declared: i32,
    pub n_entrants: i64,
    pub f: FormView,
    pub banner: Option<String>,
    /// Pairing the next round needs a confirmation (games of earlier rounds without a result).
    pub confirm: Option<ConfirmView>,
}

pub struct PlayerView {
    pub id: u32,
    pub name: String,
    pub rank: String,
    /// Score before the round as standings count it (never a nominal win).
    pub score: String,
    /// The pairing score, when it includes a double-loss nominal win (shown marked as such).
    pub pairing: Option<String>,
}

pub struct NigiriView {
    pub holder: String,
    pub guesser: String,
    pub reason: String,
    pub outcome: Option<String>,
    /// The seed of a remote nigiri.
    pub seed: Option<String>,
}

pub struct GameView {
    pub id: i32,
    /// The group's own table number (the edit form's).
    pub table: u32,
    /// Its hall number (tournament practice: one numbering for the hall), shown and anchored.
    pub hall: u32,
    pub black: PlayerView,
    pub white: PlayerView,
    pub handicap: u8,
    pub komi: String,
    pub colours: String,
    pub nigiri: Option<NigiriView>,
    pub result: String,
    pub has_result: bool,
    pub played_swapped: bool,
    /// The game's pairing version (nigiri and played-colour forms carry it).
    pub pv: i32,
    /// The game this one replays (重赛): shown labelled at its table, outside the review.
    pub replay_of: Option<i32>,
    /// The game was replayed: its replay is listed at this table.
    pub replayed: bool,
}

pub struct DrawView {
    /// The lot's place in the round's list (from 0), and the first of its candidates this row
    /// shows (from 0; the staff page cuts a long lot over pages).
    pub lot: usize,
    pub from: usize,
    /// Which of the lot's candidates this row shows, when it does not show them all.
    pub part: Option<String>,
    pub stream: String,
    pub stream_no: u64,
    /// What the lot decided, in the reader's language, and its code.
    pub purpose: String,
    pub purpose_code: &'static str,
    /// The method in words, and its code (`shuffle`, `pick`, `nigiri`; empty for an old
    /// record) for a program replaying the page.
    pub method: String,
    pub method_code: &'static str,
    pub seed: String,
    /// Candidates as "number name", and the bare pairing numbers (space-separated).
    pub candidates: String,
    pub candidates_raw: String,
    pub outcome: String,
    pub outcome_raw: String,
    /// Replayed here: Some(true) when the lot gives the stored outcome again.
    pub replayed: Option<bool>,
}

pub struct DoubleLossView {
    pub table: i32,
    pub black: String,
    pub white: String,
    pub winner: String,
    pub seed: String,
    pub replayed: bool,
    pub result: String,
}

pub struct ScoreView {
    pub name: String,
    pub points: String,
    pub pairing: String,
    /// The pairing score includes a double-loss nominal win.
    pub nominal: bool,
}

/// A change that needs the user's confirmation: the warnings and the change again.
pub struct ConfirmView {
    pub action: String,
    pub fields: Vec<(String, String)>,
    pub warnings: Vec<String>,
    /// Where "cancel" goes back to.
    pub cancel: String,
}

#[derive(Template)]
#[template(path = "round.html")]
pub struct RoundPage {
    pub c: Chrome,
    pub title: String,
    pub tid: i32,
    pub n: i32,
    pub published: bool,
    pub version: i32,
    pub system: String,
    pub seed: String,
    pub is_organizer: bool,
    /// This page's games (`pager`: which of how many).
    pub games: Vec<GameView>,
    pub pager: Pager,
    pub byes: Vec<PlayerView>,
    pub warnings: Vec<String>,
    /// This page's lots, or parts of lots (`lots_pager`: which of how many candidates).
    pub draws: Vec<DrawView>,
    pub lots_pager: Pager,
    pub double_losses: Vec<DoubleLossView>,
    pub scores: Vec<ScoreView>,
    /// The player dropdowns: at most `rounds::MAX_CHOICES` players each (and the chosen ones).
    pub round_players: Options,
    pub all_players: Options,
    /// Said when the search found more players than a dropdown shows.
    pub choices_note: Option<String>,
    /// The text that narrowed the player dropdowns (empty: all players).
    pub find: String,
    pub last_table: u32,
    pub has_results: bool,
    /// The server knows its public address (`--public-url`): table cards carry QR codes.
    pub cards_qr: bool,
    /// The event, when its hall holds several groups: the hall-wide lists are linked.
    pub hall: Option<i32>,
    pub f: FormView,
    pub banner: Option<String>,
    pub notice: Option<String>,
    pub confirm: Option<ConfirmView>,
}

impl RoundPage {
    /// The message beside a game's nigiri form, if that form was refused.
    pub fn nigiri_error(&self, gid: &i32) -> Option<&str> {
        self.f.err(&format!("grab-{gid}")).or_else(|| self.f.err(&format!("guess-{gid}")))
    }
}

pub struct ExplainRow {
    pub criterion: String,
    pub penalty: String,
    pub weight: String,
}

pub struct ExplainSide {
    pub name: String,
    pub score: String,
    pub balance: i32,
    pub last: String,
    /// Place in the bye order, from 1.
    pub bye_place: u32,
    /// `score` includes a double-loss nominal win (pairing only).
    pub nominal: bool,
}

#[derive(Template)]
#[template(path = "explain.html")]
pub struct ExplainPage {
    pub c: Chrome,
    pub tid: i32,
    pub n: i32,
    pub a_name: String,
    pub b_name: String,
    pub a: String,
    pub b: String,
    pub rows: Vec<ExplainRow>,
    pub total: String,
    pub sides: Vec<ExplainSide>,
    pub note: Option<String>,
    pub met: u8,
    /// The pair must not meet this round (回避): why, and whether the round avoided it or
    /// had to pair them.
    pub forbidden: Option<String>,
    /// At most `rounds::MAX_CHOICES` players (and the two shown), narrowed by `find`.
    pub players: Options,
    pub choices_note: Option<String>,
    pub find: String,
}

pub struct AttendanceRow {
    pub id: i32,
    pub name: String,
    pub rank: String,
    pub unit: String,
    pub absent: bool,
    pub fixed: String,
    pub first_round: i32,
    pub withdrawn: bool,
    pub error: Option<String>,
}

#[derive(Template)]
#[template(path = "attendance.html")]
pub struct AttendancePage {
    pub c: Chrome,
    pub tid: i32,
    pub n: i32,
    pub rows: Vec<AttendanceRow>,
    /// Round n is published: attendance can no longer change it.
    pub locked: bool,
    /// Round n is a draft: pair it again after a change.
    pub draft: bool,
    pub banner: Option<String>,
    /// The page of entrants shown; a save covers only them.
    pub pager: Pager,
}

pub struct PublicGame {
    pub table: u32,
    /// Names with their pairing numbers (the numbers the lots name).
    pub black: String,
    pub black_no: u32,
    pub black_rank: String,
    pub white: String,
    pub white_no: u32,
    pub white_rank: String,
    pub handicap: u8,
    /// "X holds, Y guesses" while the nigiri is still to be done.
    pub nigiri: Option<String>,
    pub result: String,
    /// Played with the colours swapped: Black and White are the seats as played.
    pub swapped: bool,
    /// A replay (重赛) of the game at this table.
    pub replay: bool,
    /// The game was replayed: its replay is the next line at this table.
    pub replayed: bool,
}

#[derive(Template)]
#[template(path = "pairings_round.html")]
pub struct PublicRoundPage {
    pub c: Chrome,
    pub title: String,
    pub tid: i32,
    pub n: i32,
    pub games: Vec<PublicGame>,
    pub byes: Vec<String>,
    pub numbers: Vec<i32>,
    pub published_at: String,
    pub seed: String,
    pub draws: Vec<DrawView>,
}

#[derive(Template)]
#[template(path = "clock.html")]
pub struct ClockPage {
    pub c: Chrome,
    pub back: String,
    pub config: String,
    /// Each side's lateness (games), as the game page says it.
    pub lateness: Vec<(String, String)>,
    pub policy: String,
    pub timeout_action: String,
    pub version: i32,
    /// Relay: the clock-reading form's action (the match's event route); games have none.
    pub save_action: Option<String>,
    /// Relay: the players at the board, for the timeout's form (chosen by the arbiter).
    pub seated_opts: Options,
}

/// A round on the arbiters' results page: its games, those with a result, and lateness.
pub struct ResultRoundItem {
    pub number: i32,
    pub games: usize,
    pub done: usize,
    pub published: bool,
    /// Games whose lateness verdict is on the sheet but not recorded (seed 000 Arts. 22.1, 22.3).
    pub late_awaiting: usize,
}

#[derive(Template)]
#[template(path = "results_rounds.html")]
pub struct ResultRoundsPage {
    pub c: Chrome,
    pub tid: i32,
    pub rounds: Vec<ResultRoundItem>,
}

#[derive(Template)]
#[template(path = "team_form.html")]
pub struct TeamFormPage {
    pub c: Chrome,
    pub tid: i32,
    pub team: Option<i32>,
    pub action: String,
    pub version: i32,
    pub f: FormView,
    pub is_organizer: bool,
    /// Art. 10.1: who acts as executing leader when the leader is absent, in order.
    pub stand_ins: Vec<String>,
    pub banner: Option<String>,
    /// The research room's address (seed 003 Art. 10.1): organizers of a relay event.
    pub room: Option<RoomSection>,
}

/// The research room's section of the team's page (organizers of a relay event): whether the
/// address works, the forms that issue a new one or revoke it, and a new address shown once.
pub struct RoomSection {
    pub action: String,
    /// The room's version as read (0: no address was ever issued).
    pub version: i32,
    pub live: bool,
    /// An address was issued once (revoked since, when not `live`).
    pub ever: bool,
    /// The address just issued, shown this once.
    pub url: Option<String>,
}

pub struct StandingView {
    pub rank: u32,
    pub team: String,
    pub played: u32,
    pub won: u32,
    pub drawn: u32,
    pub lost: u32,
    pub byes: u32,
    pub match_points: u32,
    pub game_points: u32,
    pub main_board_wins: u32,
    pub board1_wins: u32,
}

#[derive(Template)]
#[template(path = "team_standings.html")]
pub struct TeamStandingsPage {
    pub c: Chrome,
    pub tid: i32,
    pub rows: Vec<StandingView>,
    pub boards: bool,
    pub main_board: bool,
    pub tiebreaks: String,
    pub decided: usize,
}

/// One page of a long list: which page, of how many, and the addresses of its neighbours
/// (the list's address with `page=N` added).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pager {
    /// 1-based.
    pub page: usize,
    pub pages: usize,
    pub first_item: usize,
    pub last_item: usize,
    pub total: usize,
    pub prev: Option<String>,
    pub next: Option<String>,
}

impl Pager {
    /// `?page=`: absent is the first page; anything but a page number from 1 is refused.
    pub fn parse(v: &str) -> Option<usize> {
        if v.is_empty() {
            return Some(1);
        }
        v.parse::<usize>().ok().filter(|p| *p >= 1)
    }

    /// Page `page` of `total` items, `per` a page; a page past the end shows the last one (the
    /// list may have shrunk since the link was made).
    pub fn new(total: usize, page: usize, per: usize, base: &str) -> Pager {
        Pager::keyed(total, page, per, base, "page")
    }

    /// As [`Pager::new`], the page number in `?key=` (a second list on the same page).
    pub fn keyed(total: usize, page: usize, per: usize, base: &str, key: &str) -> Pager {
        let per = per.max(1);
        let pages = total.div_ceil(per).max(1);
        let page = page.clamp(1, pages);
        let link = |p: usize| format!("{base}&{key}={p}");
        let first = (page - 1) * per;
        Pager {
            page,
            pages,
            first_item: if total == 0 { 0 } else { first + 1 },
            last_item: (first + per).min(total),
            total,
            prev: (page > 1).then(|| link(page - 1)),
            next: (page < pages).then(|| link(page + 1)),
        }
    }

    /// The items of this page, as an index range into the whole list.
    pub fn range(&self) -> std::ops::Range<usize> {
        self.first_item.saturating_sub(1)..self.last_item
    }
}

#[cfg(test)]
mod pager_tests {
    use super::Pager;

    #[test]
    fn pages_cover_the_list_once() {
        let p = Pager::new(450, 1, 200, "/x?q=");
        assert_eq!((p.page, p.pages, p.range()), (1, 3, 0..200));
        assert_eq!((p.prev, p.next.as_deref()), (None, Some("/x?q=&page=2")));
        let p = Pager::new(450, 3, 200, "/x?q=");
        assert_eq!((p.range(), p.next), (400..450, None));
        assert_eq!(p.prev.as_deref(), Some("/x?q=&page=2"));
        // Past the end: the last page; an empty list: one empty page.
        assert_eq!(Pager::new(450, 9, 200, "/x?").page, 3);
        let p = Pager::new(0, 1, 200, "/x?");
        assert_eq!((p.pages, p.range(), p.first_item), (1, 0..0, 0));
        assert_eq!(Pager::parse(""), Some(1));
        assert_eq!(Pager::parse("2"), Some(2));
        assert_eq!(Pager::parse("0"), None);
        assert_eq!(Pager::parse("abc"), None);
        assert_eq!(Pager::parse("-1"), None);
    }
}
