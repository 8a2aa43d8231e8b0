//! The referee's voice clock (the spoken byo-yomi count): `/t/{id}/games/{gid}/clock` for a game and
//! `/t/{id}/matches/{mid}/clock` for a relay match, for the tournament's staff.
//!
//! The page runs by itself in the browser (`assets/clock/clock.js` for the arithmetic, the same
//! as [`crate::domain::clock`]; `assets/clock/page.js` for the faces, the calls and the state in
//! the browser's storage). The server gives it the start: the event's time control, each side's
//! face (after the lateness sheet's deduction, Art. 22.1, or from the relay match's last
//! recorded reading), and the forms that put what the clock saw on the record. Those forms post
//! to the existing audited routes (the game's rulings, the relay events) with the CSRF token of
//! the page; nothing is written without the arbiter pressing them, and the ruling for a timeout
//! is the one `rules::rulings` derives from the event's own timeout policy (Art. 22.5; seed 003
//! Art. 22.1).

use super::ctx::Ctx;
use super::error::AppError;
use super::i18n::Lang;
use super::results::{load, verdict_text};
use super::teams::not_team_event;
use super::views::pages::ClockPage;
use super::views::relay_match::person_names;
use super::views::text::{display_name, is_team_event, team_names};
use crate::db::results as rdb;
use crate::db::team_matches as mdb;
use crate::db::teams as tdb_teams;
use crate::db::tournaments as tdb;
use crate::db::users::Role;
use crate::db::DbError;
use crate::domain::clock::{Face, Setup};
use crate::domain::event_time::EventZone;
use crate::domain::results::SideLateness;
use crate::domain::team::clocks::ClockEntry;
use crate::domain::team::lineup::Section;
use crate::domain::team::relay::RelayMatch;
use crate::i18n::tr;
use actix_web::http::header;
use actix_web::{web, HttpResponse};
use rules::board::Color;
use rules::clock::{ClockState, LatenessVerdict, TimeControl};
use rules::ruleset::TimeoutPolicy;
use serde::Serialize;
use std::collections::BTreeMap;

/// The page's files, compiled in (the clock must work with no network once loaded).
const ASSETS: [(&str, &str, &[u8]); 6] = [
    ("clock.js", "text/javascript; charset=utf-8", include_bytes!("../../../assets/clock/clock.js")),
    ("page.js", "text/javascript; charset=utf-8", include_bytes!("../../../assets/clock/page.js")),
    ("clock.css", "text/css; charset=utf-8", include_bytes!("../../../assets/clock/clock.css")),
    ("voice-zh.wav", "audio/wav", include_bytes!("../../../assets/clock/voice-zh.wav")),
    ("voice-en.wav", "audio/wav", include_bytes!("../../../assets/clock/voice-en.wav")),
    ("sw.js", "text/javascript; charset=utf-8", include_bytes!("../../../assets/clock/sw.js")),
];

const VOICE_ZH: &str = include_str!("../../../assets/clock/voice-zh.json");
const VOICE_EN: &str = include_str!("../../../assets/clock/voice-en.json");

/// The catalog texts the page shows (keys without the `clock.` prefix in the page's JSON).
const TEXTS: [&str; 30] = [
    "clock.call_sec",
    "clock.call_one_minute",
    "clock.call_minutes_left",
    "clock.call_periods_left",
    "clock.call_count",
    "clock.call_timeout",
    "clock.basic",
    "clock.reading",
    "clock.reserved_left",
    "clock.periods_left",
    "clock.moves_due",
    "clock.move_no",
    "clock.tap_to_start",
    "clock.running",
    "clock.waiting",
    "clock.paused_referee",
    "clock.paused_adjourn",
    "clock.paused_break",
    "clock.expired",
    "clock.left_query",
    "clock.saved",
    "clock.save_queued",
    "clock.save_refused",
    "clock.corrected",
    "clock.bad_face",
    "clock.prop_needs_basic",
    "clock.restored",
    "clock.timeout_offer",
    "clock.continue_pass",
    "clock.absolute_no_reading",
];

/// GET /assets/clock/{file}
pub async fn asset(path: web::Path<String>) -> HttpResponse {
    match ASSETS.iter().find(|(name, _, _)| *name == path.as_str()) {
        // The service worker (the clock's offline reload) lives under /assets/clock/ but
        // answers for the clock pages under /t/: its scope is allowed to be /t/. It is looked
        // at afresh on every load, so a new version of the server replaces the old worker.
        Some(("sw.js", mime, bytes)) => HttpResponse::Ok()
            .content_type(*mime)
            .insert_header((header::CACHE_CONTROL, "no-cache"))
            .insert_header(("Service-Worker-Allowed", "/t/"))
            .body(*bytes),
        Some((_, mime, bytes)) => HttpResponse::Ok()
            .content_type(*mime)
            .insert_header((header::CACHE_CONTROL, "public, max-age=3600"))
            .body(*bytes),
        None => HttpResponse::NotFound().finish(),
    }
}

/// What the browser gets (as JSON in a data attribute, so askama escapes it).
#[derive(Serialize)]
struct Config {
    /// The browser storage key of this clock's state.
    key: String,
    lang: &'static str,
    setup: Setup,
    /// `[Black, White]` as the halves show them.
    names: [String; 2],
    text: BTreeMap<&'static str, &'static str>,
    /// The texts of a count by its plural category (`one`, `other`, as the browser's
    /// `Intl.PluralRules` names them), each with the count as `{name}`: "1 period left".
    plural: BTreeMap<&'static str, BTreeMap<&'static str, String>>,
    /// The voice clips' index: name → [start ms, length ms] in `voice-{lang}.wav`.
    voice: serde_json::Value,
    /// What the event's rules prescribe for a last byo-yomi timeout: `loss`, `pass`,
    /// `pass_and_stone` (the offer's wording; the ruling itself is the server's).
    timeout: &'static str,
    /// The event's time zone (IANA): the times the page fills in (a timeout's, a saved
    /// reading's) are the venue's wall clock, whatever zone the device is set to.
    zone: &'static str,
}

fn config(
    ctx: &Ctx,
    key: String,
    setup: Setup,
    names: [String; 2],
    timeout: TimeoutPolicy,
    zone: EventZone,
) -> String {
    let (lang, voice) = match ctx.lang {
        Lang::Zh => ("zh", VOICE_ZH),
        Lang::En => ("en", VOICE_EN),
    };
    let text = TEXTS.iter().map(|k| (k.trim_start_matches("clock."), ctx.t(k))).collect();
    let plural = TEXTS
        .iter()
        .filter_map(|k| Some((k.trim_start_matches("clock."), ctx.lang.plural_forms(k)?)))
        .collect();
    let c = Config {
        key,
        lang,
        setup,
        names,
        text,
        plural,
        voice: serde_json::from_str(voice).unwrap_or_default(),
        timeout: policy_code(timeout),
        zone: zone.name(),
    };
    serde_json::to_string(&c).unwrap_or_default()
}

fn policy_code(p: TimeoutPolicy) -> &'static str {
    match p {
        TimeoutPolicy::Loss => "loss",
        TimeoutPolicy::Pass => "pass",
        TimeoutPolicy::PassAndStone => "pass_and_stone",
    }
}

fn policy_text(lang: Lang, p: TimeoutPolicy) -> String {
    lang.t(match p {
        TimeoutPolicy::Loss => "clock.policy_loss",
        TimeoutPolicy::Pass => "clock.policy_pass",
        TimeoutPolicy::PassAndStone => "clock.policy_pass_stone",
    })
    .to_string()
}

/// A side's face at the start: after the lateness deduction if the side arrived late and plays
/// (Art. 22.1: twice the lateness off the basic time), else the full time.
fn start_face(tc: &TimeControl, side: Option<&SideLateness>) -> Face {
    let clock = match side {
        Some(SideLateness::Judged(LatenessVerdict::Plays { clock, .. })) => clock.clone(),
        _ => ClockState::new(*tc),
    };
    Face::from_reading(&clock.reading())
}

/// GET /t/{id}/games/{gid}/clock: the clock of one game.
pub async fn game_clock(ctx: Ctx, path: web::Path<(String, String)>) -> Result<HttpResponse, AppError> {
    let [tid, gid] = ctx.ids([&path.0, &path.1])?;
    let (user, _) = ctx.require_staff(tid, Role::Arbiter).await?;
    let l = load(&ctx, tid, gid, user.id).await?;
    let s = &l.sheet;
    if s.game.white_id.is_none() {
        return Err(ctx.not_found()); // a bye has no clock
    }
    let tc = l.settings.time_control;
    let round_start = l.start.as_ref().map(|r| r.starts_at.as_str());
    let late = rdb::game_lateness(&l.settings, s, round_start, &l.arrived);
    let start =
        [start_face(&tc, late.as_ref().map(|g| &g.black)), start_face(&tc, late.as_ref().map(|g| &g.white))];
    let name = |e: &Option<crate::db::entrants::EntrantRow>| {
        e.as_ref().map(|e| display_name(e, ctx.lang.is_zh())).unwrap_or_default()
    };
    let names = [name(&s.black), name(&s.white)];
    let lateness = late
        .map(|g| {
            vec![
                (names[0].clone(), verdict_text(ctx.lang, &g.black)),
                (names[1].clone(), verdict_text(ctx.lang, &g.white)),
            ]
        })
        .unwrap_or_default();
    let setup = Setup { control: tc, start, sections: false, moves: 0 };
    let timeout = l.settings.ruleset.timeout;
    let title = tr!(ctx.lang, "clock.title_game", round = s.game.round_number, table = s.game.board);
    let page = ClockPage {
        c: ctx.chrome_t(&l.t, true, title),
        back: format!("/t/{tid}/games/{gid}"),
        config: config(
            &ctx,
            format!("tengen.clock.t{tid}.g{gid}"),
            setup,
            names,
            timeout,
            l.settings.time_zone,
        ),
        lateness,
        policy: policy_text(ctx.lang, timeout),
        timeout_action: format!("/t/{tid}/games/{gid}/rulings"),
        version: s.version(),
        save_action: None,
        seated_opts: Vec::new(),
    };
    ctx.render(&page)
}

/// The reading a relay match's clock starts from: the last one recorded; in the 节棋 play-off,
/// before any reading of the play-off itself, the one the play-off started from (seed 003
/// Art. 12: "使用之前剩余的时间（包括读秒）"), which the event's `playoff_clock` setting chose.
fn start_reading(m: &RelayMatch) -> Option<&ClockEntry> {
    let last = m.clock_log().last();
    match (m.section(), m.playoff_clocks()) {
        (Section::Playoff, Some(p)) if last.is_none_or(|e| e.section != Section::Playoff) => Some(p),
        _ => last,
    }
}

/// The faces a relay match's clock starts from, and the moves played: the last recorded
/// reading, else fresh clocks at the match's moves (none before it starts).
fn start_faces(m: Option<&RelayMatch>, tc: TimeControl) -> ([Face; 2], u32) {
    let fresh = Face::from_reading(&ClockState::new(tc).reading());
    match m {
        Some(m) => match start_reading(m) {
            Some(e) => ([Face::from_reading(&e.clocks[0]), Face::from_reading(&e.clocks[1])], e.move_number),
            None => ([fresh, fresh], m.moves()),
        },
        None => ([fresh, fresh], 0),
    }
}

/// The players at the board, Black's first, for the clock's "who" choice: (person, "Black · name").
fn seated_options(lang: Lang, m: &RelayMatch) -> Vec<(String, String)> {
    let pn = person_names(m);
    let mut out = Vec::new();
    for (c, label) in [(Color::Black, lang.t("r.black")), (Color::White, lang.t("r.white"))] {
        for p in m.side(c).seats.into_iter().flatten().flatten() {
            out.push((p.to_string(), format!("{label} · {}", pn.get(&p).cloned().unwrap_or_default())));
        }
    }
    out
}

/// GET /t/{id}/matches/{mid}/clock: the clock of a relay match, from its last recorded reading
/// (the play-off's too, seed 003 Art. 12) and its moves so far; the section breaks after moves
/// 72 and 143 stop it for 5 minutes (Art. 10.2).
pub async fn match_clock(ctx: Ctx, path: web::Path<(String, String)>) -> Result<HttpResponse, AppError> {
    let [tid, mid] = ctx.ids([&path.0, &path.1])?;
    ctx.require_staff(tid, Role::Arbiter).await?;
    let (t, st, teams) = ctx
        .db(move |c| {
            Ok::<_, DbError>((tdb::get(c, tid)?, mdb::relay_state(c, tid, mid)?, tdb_teams::list(c, tid)?))
        })
        .await?;
    if !is_team_event(&t) {
        return Err(not_team_event(&ctx));
    }
    if st.row.is_bye() || st.row.boards > 0 {
        return Err(ctx.not_found()); // a bye or a board match has no relay clock
    }
    let settings = t.settings();
    let tc = settings.time_control;
    let (start, moves) = start_faces(st.m.as_ref(), tc);
    let tnames = team_names(&teams);
    let tname = |id: Option<i32>| id.and_then(|i| tnames.get(&i).cloned()).unwrap_or_default();
    let names = [tname(Some(st.row.black_team_id)), tname(st.row.white_team_id)];
    let seated_opts = st.m.as_ref().map(|m| seated_options(ctx.lang, m)).unwrap_or_default();
    let timeout = settings.ruleset.timeout;
    let setup = Setup { control: tc, start, sections: true, moves };
    let title = tr!(ctx.lang, "clock.title_match", round = st.row.round_number, match = st.row.table_no);
    let page = ClockPage {
        c: ctx.chrome_t(&t, true, title),
        back: format!("/t/{tid}/matches/{mid}"),
        config: config(
            &ctx,
            format!("tengen.clock.t{tid}.m{mid}"),
            setup,
            names,
            timeout,
            settings.time_zone,
        ),
        lateness: Vec::new(),
        policy: policy_text(ctx.lang, timeout),
        timeout_action: format!("/t/{tid}/matches/{mid}/event"),
        version: st.row.version,
        save_action: Some(format!("/t/{tid}/matches/{mid}/event")),
        seated_opts,
    };
    ctx.render(&page)
}
