//! The web office: actix handlers that parse a request, call the database and domain code,
//! and render a page. Sessions live in the database (see [`ctx`]); every POST checks a CSRF
//! token and the Origin; security headers go on every response.

pub mod audit;
pub mod auth;
pub mod board;
pub mod check_in;
pub mod clock;
pub mod count;
pub mod ctx;
pub mod entrant_form;
pub mod entrants;
pub mod error;
pub mod events;
pub mod export;
pub mod forbidden;
pub mod form;
pub mod i18n;
pub mod imports;
pub mod limits;
pub mod live;
pub mod live_delay;
pub mod net;
pub mod once;
pub mod persons;
pub mod print;
pub mod prizes;
pub mod public;
pub mod rating_lists;
pub mod ratings;
pub mod refusals;
pub mod registration;
pub mod relay;
pub mod relay_board;
pub mod relay_count;
pub mod results;
pub mod room;
pub mod rounds;
pub mod screens;
pub mod teams;
pub mod throttle;
pub mod tournaments;
pub mod views;
pub mod write;

use crate::db::{self, DbPool};
use crate::log::say;
use actix_web::http::header;
use actix_web::middleware::DefaultHeaders;
use actix_web::{web, App, HttpRequest, HttpResponse, HttpServer};
use ctx::{lang_of, Ctx};
use error::AppError;
use std::net::{Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

pub struct AppState {
    pub pool: DbPool,
    pub db_path: PathBuf,
    /// Failed logins per account and address, per address, and per account (see [`throttle`]).
    pub login: throttle::LoginThrottle,
    /// Trusted proxies and the public URL's scheme (see [`net`]).
    pub net: net::NetConfig,
    /// A session unused this long ends.
    pub idle: Duration,
    /// The one-time first-run link's token while no account exists.
    pub setup_token: Mutex<Option<String>>,
    /// Rendered public pages and the tournaments' change tags (see [`public`]).
    pub public: public::PublicCache,
    /// The automatic backups and how the last one went (shown on the accounts page).
    pub backups: Mutex<BackupState>,
    /// Requests with a body in progress per client address (see [`limits`]).
    pub in_flight: std::sync::Arc<limits::InFlight>,
    /// The readers of the live pages' event streams (see [`live`]).
    pub live: live::Hub,
}

/// The automatic backups as the organizers' page shows them.
#[derive(Debug, Clone, Default)]
pub struct BackupState {
    /// `--backup-dir` and `--backup-every`, when set.
    pub schedule: Option<(PathBuf, Duration, usize)>,
    /// The last backup taken: when (UTC) and what.
    pub last: Option<(String, db::backup::Taken)>,
    /// The last failure, if it came after the last success: when and why.
    pub failed: Option<(String, db::backup::BackupFailure)>,
}

/// How `tengen serve` runs: `cli::serve` fills it from the command line, the benchmarks with
/// [`ServeOptions::new`].
#[derive(Debug, Clone)]
pub struct ServeOptions {
    pub db: PathBuf,
    pub bind: String,
    pub net: net::NetConfig,
    pub idle: Duration,
    pub db_opts: db::DbOptions,
    /// Automatic backups and their interval.
    pub backups: Option<(db::backup::AutoBackup, Duration)>,
    /// HTTP worker threads (1–512); None: one per core of the machine, as actix counts them.
    pub workers: Option<usize>,
}

/// Sessions unused for 4 hours end (an arbiter's laptop left open between two days).
pub const DEFAULT_IDLE: Duration = Duration::from_secs(4 * 3600);

impl ServeOptions {
    pub fn new(db: PathBuf, bind: String) -> ServeOptions {
        ServeOptions {
            db,
            bind,
            net: net::NetConfig::default(),
            idle: DEFAULT_IDLE,
            db_opts: db::DbOptions::default(),
            backups: None,
            workers: None,
        }
    }
}

/// HSTS for a site served over HTTPS: a year, as browsers' preload lists ask.
pub const HSTS: &str = "max-age=31536000; includeSubDomains";

const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
                   form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'";

pub const STYLE_CSS: &str = include_str!("../../../assets/style.css");

async fn style() -> HttpResponse {
    static_file("text/css; charset=utf-8", "public, max-age=3600", STYLE_CSS)
}

/// A file compiled into the program, with its type and how long it may be cached.
fn static_file(content_type: &'static str, cache: &'static str, body: &'static str) -> HttpResponse {
    HttpResponse::Ok().content_type(content_type).insert_header((header::CACHE_CONTROL, cache)).body(body)
}

/// The site's icon, hand-written SVG: a black stone on the board's central star point, which seed
/// 000 Art. 1 names 天元.
pub const FAVICON_SVG: &str = include_str!("../../../assets/favicon.svg");

/// GET /assets/favicon.svg, and GET /favicon.ico for the browsers and readers that ask for it
/// whatever the page links: the same SVG with its own type (browsers read the bytes, not the
/// name), cached a year as an icon that never changes under its address.
async fn favicon() -> HttpResponse {
    static_file("image/svg+xml", "public, max-age=31536000, immutable", FAVICON_SVG)
}

async fn not_found(req: HttpRequest) -> Result<HttpResponse, AppError> {
    Err(AppError::not_found(lang_of(&req)))
}

/// Set the language cookie and go back to where the switch was pressed. A logged-in user's
/// switch carries their CSRF token, and their choice is stored with the account
/// (`db::prefs`), so it applies again at every login.
async fn set_lang(
    ctx: Ctx,
    path: web::Path<String>,
    q: web::Query<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    let lang = i18n::Lang::from_code(&path).unwrap_or(ctx.lang);
    let arg = |name: &str| q.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
    let next = arg("next").unwrap_or("/");
    if let (Some(s), Some(token)) = (&ctx.session, arg("csrf")) {
        if ctx::constant_eq(token, &s.csrf) {
            let (actor, uid) = (s.user.actor(), s.user.id);
            ctx.db(move |c| crate::db::prefs::set_lang(c, &actor, uid, lang.code())).await?;
        }
    }
    let mut resp = ctx.redirect(next);
    let _ = resp.add_cookie(&lang_cookie(&ctx, lang));
    Ok(resp)
}

/// The cookie that holds the reader's language for a year.
pub fn lang_cookie(ctx: &Ctx, lang: i18n::Lang) -> actix_web::cookie::Cookie<'static> {
    let mut c = ctx.cookie(i18n::LANG_COOKIE, lang.code().to_string());
    c.set_max_age(actix_web::cookie::time::Duration::days(365));
    c
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    // The router tries resources in this order, matching each dynamic one with a regex: the
    // public pages that hundreds of phones refresh come first.
    cfg.route("/t/{id}/standings", web::get().to(public::standings_page))
        .route("/t/{id}/pairings", web::get().to(public::pairings_page))
        .route("/t/{id}/results", web::get().to(public::results_page))
        .route("/t/{id}/crosstable", web::get().to(public::crosstable_page))
        .route("/t/{id}/players/{eid}", web::get().to(public::player_page))
        .route("/p/{person}", web::get().to(persons::public_page))
        .route("/assets/style.css", web::get().to(style))
        .route("/assets/clock/{file}", web::get().to(clock::asset))
        .route("/assets/check_in.js", web::get().to(check_in::script))
        .route("/assets/screen.js", web::get().to(screens::script))
        .route("/assets/screen.css", web::get().to(screens::style))
        .route("/assets/live.js", web::get().to(live::script))
        .route("/assets/count.js", web::get().to(count::script))
        .route("/assets/board.js", web::get().to(board::script))
        .route("/assets/board.css", web::get().to(board::style))
        .route("/live", web::get().to(live::stream))
        .route("/assets/favicon.svg", web::get().to(favicon))
        .route("/favicon.ico", web::get().to(favicon))
        .route("/lang/{code}", web::get().to(set_lang))
        .route("/", web::get().to(tournaments::home))
        .route("/login", web::get().to(auth::login_page))
        .route("/login", web::post().to(auth::login))
        .route("/logout", web::post().to(auth::logout))
        .route("/setup/{token}", web::get().to(auth::setup_page))
        .route("/setup/{token}", web::post().to(auth::setup))
        .route("/users", web::get().to(auth::users_page))
        .route("/users", web::post().to(auth::add_user))
        .route("/users/{id}/password", web::get().to(auth::reset_page))
        .route("/users/{id}/password", web::post().to(auth::reset_password))
        .route("/users/{id}/{action}", web::post().to(auth::user_action))
        .route("/account", web::get().to(auth::account_page))
        .route("/account/password", web::post().to(auth::change_password))
        .route("/persons", web::get().to(persons::registry_page))
        .route("/persons/merge", web::post().to(persons::merge))
        .route("/persons/{person}", web::get().to(persons::person_page))
        .route("/persons/{person}/export.json", web::get().to(persons::export))
        .route("/persons/{person}/erase", web::post().to(persons::erase))
        .route("/persons/{person}/edit", web::post().to(persons::edit))
        .route("/t/new", web::get().to(tournaments::new_page))
        .route("/t/new", web::post().to(tournaments::create))
        .route("/t/{id}", web::get().to(tournaments::overview))
        .route("/e/{event}", web::get().to(events::overview))
        .route("/e/{event}/groups/new", web::post().to(events::add_group))
        .route("/e/{event}/groups/{group}", web::post().to(events::edit_group))
        .route("/e/{event}/bands", web::get().to(events::bands_page))
        .route("/e/{event}/bands", web::post().to(events::bands_confirm))
        .route("/e/{event}/rounds/{n}/pair", web::post().to(events::pair_all))
        .route("/e/{event}/rounds/{n}/publish", web::post().to(events::publish_all))
        .route("/t/{id}/settings", web::get().to(tournaments::settings_page))
        .route("/t/{id}/settings", web::post().to(tournaments::save_settings))
        .route("/t/{id}/delete", web::post().to(tournaments::delete))
        .route("/t/{id}/staff", web::post().to(tournaments::set_staff))
        .route("/t/{id}/audit", web::get().to(audit::page))
        .route("/t/{id}/players", web::get().to(public::players_page))
        .route("/t/{id}/chief", web::post().to(results::set_chief))
        .route("/t/{id}/results/rounds", web::get().to(results::rounds_page))
        .route("/t/{id}/results/rounds/{n}", web::get().to(results::round_page))
        .route("/t/{id}/results/rounds/{n}/lateness", web::get().to(results::lateness_page))
        .route("/t/{id}/results/rounds/{n}/lateness", web::post().to(results::save_lateness))
        .route("/t/{id}/results/rounds/{n}/lateness/record", web::post().to(results::record_lateness))
        .route("/t/{id}/games/{gid}", web::get().to(results::game_page))
        .route("/t/{id}/games/{gid}/result", web::post().to(results::save_result))
        .route("/t/{id}/games/{gid}/rulings", web::post().to(results::add_ruling))
        .route("/t/{id}/games/{gid}/rulings/{rid}/delete", web::post().to(results::delete_ruling))
        .route("/t/{id}/games/{gid}/rulings/{rid}/confirm", web::post().to(results::confirm_proposal))
        .route("/t/{id}/games/{gid}/rulings/{rid}/reject", web::post().to(results::reject_proposal))
        .route("/t/{id}/games/{gid}/confirm", web::post().to(results::confirm))
        .route("/t/{id}/games/{gid}/lateness", web::post().to(results::apply_lateness))
        .route("/t/{id}/games/{gid}/start", web::post().to(results::save_replay_start))
        .route("/t/{id}/games/{gid}/sgf", web::post().to(results::upload_sgf))
        .route("/t/{id}/games/{gid}/record.sgf", web::get().to(results::download_sgf))
        .route("/t/{id}/games/{gid}/count", web::get().to(count::count_page))
        .route("/t/{id}/games/{gid}/count/dead", web::post().to(count::save_dead))
        .route("/t/{id}/games/{gid}/count/confirm", web::post().to(count::confirm))
        .route("/t/{id}/games/{gid}/clock", web::get().to(clock::game_clock))
        .route("/t/{id}/games/{gid}/board", web::get().to(board::board_page))
        .route("/t/{id}/games/{gid}/board/move", web::post().to(board::enter))
        .route("/t/{id}/games/{gid}/board/undo", web::post().to(board::undo))
        .route("/t/{id}/games/{gid}/board.sgf", web::get().to(board::download))
        .route("/t/{id}/games/{gid}/live", web::get().to(board::live_page))
        .route("/t/{id}/live-delay", web::post().to(live_delay::set_delay))
        .route("/t/{id}/entrants", web::get().to(entrants::list))
        .route("/t/{id}/entrants.csv", web::get().to(imports::export_csv))
        .route("/t/{id}/entrants/new", web::get().to(entrants::new_page))
        .route("/t/{id}/entrants/new", web::post().to(entrants::create))
        .route("/t/{id}/entrants/{eid}/edit", web::get().to(entrants::edit_page))
        .route("/t/{id}/entrants/{eid}/edit", web::post().to(entrants::save))
        .route("/t/{id}/entrants/{eid}/withdraw", web::get().to(entrants::withdraw_page))
        .route("/t/{id}/entrants/{eid}/move", web::post().to(events::move_entrant))
        .route("/e/{event}/register", web::get().to(registration::form))
        .route("/e/{event}/register", web::post().to(registration::submit))
        .route("/e/{event}/register/{reference}", web::get().to(registration::status))
        .route("/e/{event}/register/{reference}", web::post().to(registration::resubmit))
        .route("/e/{event}/registrations", web::get().to(registration::queue))
        .route("/e/{event}/registrations/settings", web::post().to(registration::save_settings))
        .route("/e/{event}/registrations/{reg}/{action}", web::post().to(registration::decide))
        .route("/e/{event}/screens", web::get().to(screens::list))
        .route("/e/{event}/screens/new", web::post().to(screens::create))
        .route("/e/{event}/screens/{screen}/{action}", web::post().to(screens::change))
        .route("/screen/{token}", web::get().to(screens::screen))
        .route("/screen/{token}/data", web::get().to(screens::data))
        .route("/t/{id}/check-in", web::get().to(check_in::desk))
        .route("/t/{id}/check-in/self", web::get().to(check_in::self_form))
        .route("/t/{id}/check-in/self", web::post().to(check_in::self_check_in))
        .route("/t/{id}/check-in/code", web::post().to(check_in::new_code))
        .route("/t/{id}/check-in/{n}/deadline", web::post().to(check_in::deadline))
        .route("/t/{id}/check-in/{n}/close", web::get().to(check_in::close_review))
        .route("/t/{id}/check-in/{n}/close", web::post().to(check_in::close))
        .route("/t/{id}/check-in/{n}/{eid}/{action}", web::post().to(check_in::tap))
        .route("/t/{id}/entrants/{eid}/{action}", web::post().to(entrants::status))
        .route("/t/{id}/rounds", web::get().to(rounds::list))
        .route("/t/{id}/rounds/schedule", web::post().to(rounds::schedule))
        .route("/t/{id}/rounds/{n}", web::get().to(rounds::page))
        .route("/t/{id}/rounds/{n}/pair", web::post().to(rounds::pair))
        .route("/t/{id}/rounds/{n}/explain", web::get().to(rounds::explain))
        .route("/t/{id}/rounds/{n}/swap", web::post().to(rounds::swap))
        .route("/t/{id}/rounds/{n}/edit", web::post().to(rounds::edit))
        .route("/t/{id}/rounds/{n}/publish", web::post().to(rounds::publish))
        .route("/t/{id}/rounds/{n}/unpublish", web::post().to(rounds::unpublish))
        .route("/t/{id}/rounds/{n}/delete", web::post().to(rounds::delete))
        .route("/t/{id}/rounds/{n}/scoresheets.pdf", web::get().to(print::scoresheets))
        .route("/t/{id}/rounds/{n}/pairings.pdf", web::get().to(print::pairings))
        .route("/t/{id}/rounds/{n}/record-sheets.pdf", web::get().to(print::record_sheets))
        .route("/t/{id}/rounds/{n}/pairings.csv", web::get().to(print::pairings_csv))
        .route("/t/{id}/rounds/{n}/table-cards.pdf", web::get().to(print::table_cards))
        .route("/e/{event}/rounds/{n}/pairings.pdf", web::get().to(print::event_pairings))
        .route("/e/{event}/rounds/{n}/table-cards.pdf", web::get().to(print::event_table_cards))
        .route("/e/{event}/poster.pdf", web::get().to(print::event_poster))
        .route("/t/{id}/rounds/{n}/attendance", web::get().to(rounds::attendance))
        .route("/t/{id}/rounds/{n}/attendance", web::post().to(rounds::save_attendance))
        .route("/t/{id}/rounds/{n}/games/{gid}/nigiri", web::post().to(rounds::nigiri))
        .route("/t/{id}/rounds/{n}/games/{gid}/remote-nigiri", web::post().to(rounds::remote_nigiri))
        .route("/t/{id}/rounds/{n}/games/{gid}/played-colours", web::post().to(rounds::played_colours))
        .route("/t/{id}/pairings/{n}", web::get().to(public::round_page))
        .route("/t/{id}/pairings/{n}/pairings.pdf", web::get().to(print::public_pairings))
        .route("/t/{id}/pairings/{n}/pairings.csv", web::get().to(print::public_pairings_csv))
        .route("/t/{id}/pairings/{n}/results-notice.pdf", web::get().to(print::results_notice))
        .route("/t/{id}/standings.pdf", web::get().to(print::standings_pdf))
        .route("/t/{id}/crosstable.pdf", web::get().to(print::crosstable_pdf))
        .route("/t/{id}/standings.csv", web::get().to(print::standings_csv))
        .route("/t/{id}/results.csv", web::get().to(print::results_csv))
        .route("/t/{id}/export/opengotha.xml", web::get().to(export::opengotha))
        .route("/t/{id}/export/egf.h9", web::get().to(export::egf))
        .route("/t/{id}/forbidden", web::get().to(forbidden::list))
        .route("/t/{id}/forbidden/new", web::post().to(forbidden::create))
        .route("/t/{id}/forbidden/{fid}", web::get().to(forbidden::edit_page))
        .route("/t/{id}/forbidden/{fid}/edit", web::post().to(forbidden::edit))
        .route("/t/{id}/forbidden/{fid}/delete", web::post().to(forbidden::delete))
        .route("/t/{id}/prizes", web::get().to(prizes::staff_page))
        .route("/t/{id}/prizes/settings", web::post().to(prizes::save_settings))
        .route("/t/{id}/prizes/places", web::post().to(prizes::set_places))
        .route("/t/{id}/prizes/add", web::post().to(prizes::add))
        .route("/t/{id}/prizes/publish", web::post().to(prizes::publish))
        .route("/t/{id}/ratings", web::post().to(ratings::compute))
        .route("/t/{id}/prizes/unpublish", web::post().to(prizes::unpublish))
        .route("/t/{id}/prizes/list.pdf", web::get().to(prizes::list_pdf))
        .route("/t/{id}/prizes/certificates.pdf", web::get().to(prizes::certificates_pdf))
        .route("/t/{id}/prizes/{pid}/up", web::post().to(prizes::move_up))
        .route("/t/{id}/prizes/{pid}/rename", web::post().to(prizes::rename))
        .route("/t/{id}/prizes/{pid}/delete", web::post().to(prizes::delete))
        .route("/t/{id}/prizes/{n}/certificate.pdf", web::get().to(prizes::certificate_pdf))
        .route("/t/{id}/winners", web::get().to(prizes::public_page))
        .route("/t/{id}/winners.pdf", web::get().to(prizes::public_pdf))
        .route("/t/{id}/teams", web::get().to(teams::list))
        .route("/t/{id}/teams/settings", web::post().to(teams::save_settings))
        .route("/t/{id}/teams/new", web::get().to(teams::new_page))
        .route("/t/{id}/teams/new", web::post().to(teams::create))
        .route("/t/{id}/teams/{team}", web::get().to(teams::edit_page))
        .route("/t/{id}/teams/{team}", web::post().to(teams::save))
        .route("/t/{id}/teams/{team}/delete", web::post().to(teams::delete))
        // The research room (研究室, seed 003 Art. 10.1): its address issued and revoked on the
        // team's page, and the room itself (no login).
        .route("/t/{id}/teams/{team}/room/issue", web::post().to(teams::issue_room))
        .route("/t/{id}/teams/{team}/room/revoke", web::post().to(teams::revoke_room))
        .route("/room/{token}", web::get().to(room::page))
        .route("/t/{id}/team-rounds", web::get().to(teams::rounds))
        .route("/t/{id}/team-rounds/{n}/pair", web::post().to(teams::pair))
        .route("/t/{id}/team-rounds/{n}/delete", web::post().to(teams::delete_round))
        .route("/t/{id}/team-standings", web::get().to(teams::standings_page))
        .route("/t/{id}/matches/{mid}", web::get().to(relay::page))
        .route("/t/{id}/matches/{mid}/start", web::post().to(relay::set_start))
        .route("/t/{id}/matches/{mid}/event", web::post().to(relay::event))
        .route("/t/{id}/matches/{mid}/withdraw", web::post().to(relay::withdraw))
        .route("/t/{id}/matches/{mid}/nigiri", web::post().to(relay::nigiri))
        .route("/t/{id}/matches/{mid}/boards", web::post().to(relay::save_boards))
        .route("/t/{id}/matches/{mid}/sheets.pdf", web::get().to(relay::sheets))
        .route("/t/{id}/matches/{mid}/board", web::get().to(relay_board::board_page))
        .route("/t/{id}/matches/{mid}/board/move", web::post().to(relay_board::enter))
        .route("/t/{id}/matches/{mid}/board/undo", web::post().to(relay_board::undo))
        .route("/t/{id}/matches/{mid}/board/claim", web::post().to(relay_board::claim))
        .route("/t/{id}/matches/{mid}/board.sgf", web::get().to(relay_board::download))
        .route("/t/{id}/matches/{mid}/live", web::get().to(relay_board::live_page))
        .route("/t/{id}/matches/{mid}/count", web::get().to(relay_count::count_page))
        .route("/t/{id}/matches/{mid}/count/dead", web::post().to(relay_count::save_dead))
        .route("/t/{id}/matches/{mid}/count/confirm", web::post().to(relay_count::confirm))
        .route("/t/{id}/matches/{mid}/clock", web::get().to(clock::match_clock))
        .route("/t/{id}/import", web::get().to(imports::page))
        .route("/t/{id}/import/csv", web::post().to(imports::csv_preview))
        .route("/t/{id}/import/csv/confirm", web::post().to(imports::csv_confirm))
        .route("/t/{id}/import/opengotha", web::post().to(imports::og_preview))
        .route("/t/{id}/import/opengotha/confirm", web::post().to(imports::og_confirm))
        .route("/t/{id}/rating-lists", web::get().to(rating_lists::page))
        .route("/t/{id}/rating-lists", web::post().to(rating_lists::upload))
        .route("/t/{id}/rating-list/{list}", web::get().to(rating_lists::show))
        .route("/t/{id}/rating-list/{list}/apply", web::post().to(rating_lists::apply));
}

/// The whole application, for the server and for tests.
pub fn configure(state: web::Data<AppState>) -> impl Fn(&mut web::ServiceConfig) + Clone {
    move |cfg: &mut web::ServiceConfig| {
        cfg.app_data(state.clone())
            .app_data(web::PayloadConfig::new(limits::BODY))
            .app_data(web::QueryConfig::default().error_handler(|_, req| {
                AppError::bad_request(lang_of(req), lang_of(req).t("err.bad_query").to_string()).into()
            }))
            .app_data(
                web::PathConfig::default().error_handler(|_, req| AppError::not_found(lang_of(req)).into()),
            )
            .configure(routes);
    }
}

/// The headers every response carries (a response that sets one itself keeps its own).
const SECURITY_HEADERS: [(&str, &str); 5] = [
    ("content-security-policy", CSP),
    ("x-frame-options", "DENY"),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "same-origin"),
    ("permissions-policy", "camera=(), microphone=(), geolocation=()"),
];

fn security_headers() -> DefaultHeaders {
    SECURITY_HEADERS.iter().fold(DefaultHeaders::new(), |h, pair| h.add(*pair))
}

/// Whether the client reached us over HTTPS (through a trusted proxy's word, `net`).
fn over_https(req: &actix_web::dev::ServiceRequest) -> bool {
    req.app_data::<web::Data<AppState>>()
        .map(|s| s.net.client(req.peer_addr().map(|a| a.ip()), req.headers()).https)
        .unwrap_or(false)
}

/// A response answered before the middleware that sets them (`public::cached_first`) given the
/// security headers and, over HTTPS, `Strict-Transport-Security`: the same as every other
/// response.
pub(crate) fn secured(req: &actix_web::dev::ServiceRequest, mut resp: HttpResponse) -> HttpResponse {
    let https = over_https(req);
    let headers = resp.headers_mut();
    for (name, value) in SECURITY_HEADERS {
        let name = header::HeaderName::from_static(name);
        if !headers.contains_key(&name) {
            headers.insert(name, header::HeaderValue::from_static(value));
        }
    }
    if https {
        headers.insert(header::STRICT_TRANSPORT_SECURITY, header::HeaderValue::from_static(HSTS));
    }
    resp
}

/// `Strict-Transport-Security` on every response to a client that reached us over HTTPS.
async fn hsts(
    req: actix_web::dev::ServiceRequest,
    next: actix_web::middleware::Next<impl actix_web::body::MessageBody>,
) -> Result<actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>, actix_web::Error> {
    let https = over_https(&req);
    let mut res = next.call(req).await?;
    if https {
        res.headers_mut().insert(header::STRICT_TRANSPORT_SECURITY, header::HeaderValue::from_static(HSTS));
    }
    Ok(res)
}

/// Take an automatic backup now and then every `every`, on a thread of its own (the online
/// backup copies page by page and never blocks writers for long). Each outcome goes into
/// `AppState::backups` for the organizers' page, and a failure into the log.
fn start_backups(state: web::Data<AppState>, auto: db::backup::AutoBackup, every: Duration) {
    let spawned = std::thread::Builder::new().name("backups".into()).spawn(move || loop {
        let r = auto.run_once(&state.db_path);
        let at = db::now();
        if let Ok(mut b) = state.backups.lock() {
            match r {
                Ok(taken) => {
                    tracing::info!(file = %taken.file.display(), bytes = taken.bytes, "automatic backup");
                    b.last = Some((at, taken));
                    b.failed = None;
                }
                Err(e) => {
                    tracing::error!("automatic backup failed: {e}");
                    b.failed = Some((at, db::backup::BackupFailure::of_error(e)));
                }
            }
        }
        std::thread::sleep(every);
    });
    if let Err(e) = spawned {
        tracing::error!("cannot start the automatic backups: {e}");
    }
}

/// Delete the registrations kept past their event's retention now and then once a day, on a
/// thread of its own (`office::purge_registrations`, today read from the machine each time); a
/// failure goes into the log and the next day tries again.
fn start_purges(state: web::Data<AppState>) {
    const DAY: Duration = Duration::from_secs(24 * 60 * 60);
    let spawned = std::thread::Builder::new().name("purges".into()).spawn(move || loop {
        let r = state.pool.get().map_err(|e| e.to_string()).and_then(|mut c| {
            crate::office::purge_registrations::purge_now(&mut c).map_err(|e| e.to_string())
        });
        match r {
            Ok((0, _)) => {}
            Ok((count, events)) => {
                tracing::info!(count, events, "registrations past their retention deleted")
            }
            Err(e) => tracing::error!("purging registrations failed: {e}"),
        }
        std::thread::sleep(DAY);
    });
    if let Err(e) = spawned {
        tracing::error!("cannot start the daily purge of registrations: {e}");
    }
}

/// `tengen serve`: open the database, print the first-run link if no account exists, serve.
pub async fn serve(opts: ServeOptions) -> std::io::Result<()> {
    let ServeOptions { db: db_path, bind, net, idle, db_opts, backups, workers } = opts;
    let pool = db::open_with(&db_path, db_opts).map_err(|e| std::io::Error::other(e.to_string()))?;
    let setup_token = first_run_token(&pool)?;
    let state = web::Data::new(AppState {
        pool,
        db_path: db_path.clone(),
        login: throttle::LoginThrottle::default(),
        net,
        idle,
        setup_token: Mutex::new(setup_token.clone()),
        public: public::PublicCache::watching(&db_path),
        backups: Mutex::new(BackupState {
            schedule: backups.as_ref().map(|(a, every)| (a.dir.clone(), *every, a.keep)),
            ..BackupState::default()
        }),
        in_flight: Default::default(),
        live: live::Hub::default(),
    });
    live::start(state.clone());
    if let Some((auto, every)) = backups {
        start_backups(state.clone(), auto, every);
    }
    start_purges(state.clone());
    let app_state = state.clone();
    let server = HttpServer::new(move || {
        App::new()
            .wrap(actix_web::middleware::from_fn(views::pages::keep_typed))
            .wrap(actix_web::middleware::from_fn(limits::limit_bodies))
            .wrap(actix_web::middleware::from_fn(hsts))
            .wrap(security_headers())
            // Every response the client accepts gzipped (the staff list of 10,000
            // entrants was 5.1 MB), unless it is already encoded: the public pages keep their
            // gzipped copy in the cache and set Content-Encoding themselves.
            .wrap(actix_web::middleware::Compress::default())
            .wrap(tracing_actix_web::TracingLogger::default())
            // Outermost: a cached public page for a reader without a session is answered before
            // any other layer (the router's regex search, the log span, five wrappers were most
            // of what such a page cost); it carries the same security headers itself
            // (`secured`).
            .wrap(actix_web::middleware::from_fn(public::cached_first))
            .configure(configure(app_state.clone()))
            .default_service(web::to(not_found))
    })
    // The head of a request in time (a body's own deadline is `limits::limit_bodies`'s), an
    // idle kept-alive connection closed soon, a closing one not waited on for long.
    .client_request_timeout(limits::HEAD_TIMEOUT)
    .keep_alive(Duration::from_secs(5))
    .client_disconnect_timeout(Duration::from_secs(2));
    // Every core answers requests unless told otherwise (it was 2 whatever the machine).
    let server = match workers {
        Some(n) => server.workers(n),
        None => server,
    }
    .bind(&bind)?;
    let addr = server.addrs().first().copied().ok_or_else(|| std::io::Error::other("no address bound"))?;
    // A server bound to every address is reached at localhost on this machine.
    let local = SocketAddr::new(Ipv4Addr::LOCALHOST.into(), addr.port());
    let shown = if addr.ip().is_unspecified() { local } else { addr };
    tracing::info!(db = %db::shown(&db_path), "database ready");
    if let Some(t) = setup_token {
        say("First start: no account exists yet. Create the organizer account (one-time link):");
        say(&format!("  http://{shown}/setup/{t}"));
        say("  (or run: tengen user add --role organizer NAME)");
    }
    say(&format!("Tengen listening on http://{shown}"));
    server.run().await
}

/// The one-time link's token of the first start: only while no account exists.
fn first_run_token(pool: &db::DbPool) -> std::io::Result<Option<String>> {
    let mut conn = pool.get().map_err(|e| std::io::Error::other(e.to_string()))?;
    let n_users = db::users::count(&mut conn).map_err(|e| std::io::Error::other(e.to_string()))?;
    Ok((n_users == 0).then(db::users::random_token))
}
