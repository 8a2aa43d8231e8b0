//! Team match pages (seed 003, the 队际赛 relay rules): the relay match page (state, counts, penalty log, line-ups,
//! event log; for arbiters the event forms), the board match page (players and results per
//! board), and the printed team sheets of a relay match.
//!
//! Everyone may read a match page; arbiters and organizers of the tournament record events.
//! Every event form carries the match's `version` (a page that is out of date is refused), an
//! optional time (`at`, the venue's wall clock; empty = now), and for events that happen at a
//! point of the game an optional move number: the moves before it are recorded as played in
//! the clockwise order ([`Event::MovesInOrder`]). A refused event writes nothing; the page
//! comes back with the refusal beside the form (422). Clock readings are typed against the
//! event's time control. The chief arbiter withdraws a wrongly recorded event with a reason
//! (`/withdraw`): the log shows it struck through, and the match is recomputed.

use crate::i18n::tr;
use crate::office;
use std::collections::HashMap;

use super::ctx::Ctx;
use super::error::AppError;
use super::form::Form;
use super::i18n::Lang;
use super::refusals::{MatchNaming, Refusal as _};
use super::teams::not_team_event;
use super::views::board_match;
use super::views::pages::FormView;
use super::views::relay_match::{self, person_names, ConfirmView};
use super::views::text::is_team_event;
use super::write::{bad_form, Arbiter, Versioned, Write};
use crate::db::results as rdb;
use crate::db::rounds::NigiriAction;
use crate::db::team_matches::{self as mdb, AtMove, BoardInput, BoardResult, MatchError, RelayState};
use crate::db::teams as tdb_teams;
use crate::db::tournaments as tdb;
use crate::db::users::Role;
use crate::db::DbError;
use crate::domain::draw::nigiri::Guess;
use crate::domain::event_time::{EventZone, NoSuchTime};
use crate::domain::team::cards::CardOffence;
use crate::domain::team::clocks::{self, ClockInputError};
use crate::domain::team::ending::Ending;
use crate::domain::team::lineup::Section;
use crate::domain::team::matches::MatchRefusal;
use crate::domain::team::relay::{Card, Event, Refusal, VoidOffence};
use crate::domain::team::{PersonId, Timestamp};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use rules::board::Color;
use rules::clock::{ClockReading, TimeControl};
use serde::Deserialize;

// ---------------------------------------------------------------------------------------------
// Times, names, texts

/// A wall-clock time as entered ("2026-12-05T09:30:00", seconds optional) in the event's
/// time zone; empty = now.
pub fn parse_at(zone: EventZone, s: &str) -> Result<Timestamp, NoSuchTime> {
    match s.trim() {
        "" => Ok(chrono::Utc::now().timestamp()),
        s => zone.typed_timestamp(s),
    }
}

/// The message for a time that cannot be recorded: unreadable, or skipped by daylight saving.
fn time_refusal(lang: Lang, e: NoSuchTime) -> String {
    match e {
        NoSuchTime::Unreadable => lang.t("relay.err_time").to_string(),
        NoSuchTime::Skipped => lang.t("tz.err_skipped").to_string(),
    }
}

/// Black's count as entered ("185", "184.5", "184½") in half points, on the relay's 19×19 board
/// (seed 003): the rules crate's reading, the same as the individual result sheet's.
pub fn parse_count(s: &str) -> Option<u32> {
    let points = u32::from(rules::ruleset::RuleSet::chinese_team_relay().board_size).pow(2);
    rules::outcome::parse_count(s, points)
}

// ---------------------------------------------------------------------------------------------
// The relay match page

struct Opts {
    f: FormView,
    banner: Option<String>,
    notice: Option<String>,
    status: StatusCode,
    confirm: Option<ConfirmView>,
}

impl Default for Opts {
    fn default() -> Self {
        Opts { f: FormView::default(), banner: None, notice: None, status: StatusCode::OK, confirm: None }
    }
}

impl Opts {
    /// A form that could not be read: its messages beside the fields, the banner, 400.
    fn bad_request(ctx: &Ctx, f: FormView) -> Opts {
        let banner = Some(ctx.t("form.has_errors").to_string());
        Opts { f, banner, status: StatusCode::BAD_REQUEST, ..Opts::default() }
    }
}

/// The match page with what `opts` adds (a refusal, a notice, a confirm step): a board
/// match's, or the relay match's as its events left it.
async fn match_page(ctx: &Ctx, tid: i32, mid: i32, opts: Opts) -> Result<HttpResponse, AppError> {
    let role = ctx.staff_role(tid).await?;
    let (t, row, teams, nigiri_seed) = ctx
        .db(move |c| {
            let row = mdb::get_match(c, tid, mid)?;
            let seed = if row.nigiri.is_some() { Some(mdb::nigiri_seed(c, &row)?) } else { None };
            Ok::<_, DbError>((tdb::get(c, tid)?, row, tdb_teams::list(c, tid)?, seed))
        })
        .await?;
    if !is_team_event(&t) {
        return Err(not_team_event(ctx));
    }
    if row.is_bye() {
        return Err(ctx.not_found());
    }
    if row.boards > 0 {
        return board_page(ctx, tid, mid, role.is_some(), opts).await;
    }
    let uid = ctx.user().map(|u| u.id);
    let (st, is_chief, replay) = ctx
        .db(move |c| {
            let st: RelayState = mdb::relay_state(c, tid, mid)?;
            let chief = role.is_some() && rdb::is_chief(c, tid, uid)?;
            let replay = mdb::replay_of(c, mid)?.map(|r| r.id);
            Ok::<_, DbError>((st, chief, replay))
        })
        .await?;
    let c = ctx.chrome_t(&t, role.is_some(), relay_match::title(ctx.lang, &row, &teams));
    let Opts { f, banner, notice, status, confirm } = opts;
    let d = relay_match::Loaded { t, row, teams, nigiri_seed, st, is_chief, replay };
    let page = relay_match::build(c, ctx.lang, d, relay_match::Shown { f, banner, notice, confirm });
    ctx.render_status(status, &page)
}

/// GET /t/{id}/matches/{mid}: the match page (public; staff see the forms).
pub async fn page(ctx: Ctx, path: web::Path<(String, String)>) -> Result<HttpResponse, AppError> {
    let [tid, mid] = ctx.ids([&path.0, &path.1])?;
    let notice = if ctx.path.contains("?done=withdraw") {
        Some(ctx.t("relay.withdrawn").to_string())
    } else {
        ctx.path.contains("?done=").then(|| ctx.t("relay.recorded").to_string())
    };
    match_page(&ctx, tid, mid, Opts { notice, ..Opts::default() }).await
}

/// A match write: by the tournament's staff, on the match in the path, at the version shown.
type MatchWrite<F = Versioned> = Write<Arbiter<[i32; 2]>, F>;

/// POST /t/{id}/matches/{mid}/start: when section 1 starts.
pub async fn set_start(w: MatchWrite) -> Result<HttpResponse, AppError> {
    let [tid, mid] = w.who.ids;
    let mut f = FormView::from_form(&w.fields);
    let t = w.db(move |c| tdb::get(c, tid)).await?;
    let zone = t.zone();
    let start = match w.fields.get("start") {
        "" => Err(NoSuchTime::Unreadable),
        s => parse_at(zone, s),
    };
    // The match is played during the event (a start dated 1969 is a typo).
    let on_event_days = |ts: Timestamp| {
        let day = zone.date_of(ts);
        day.as_str() >= t.start_date.as_str() && day.as_str() <= t.end_date.as_str()
    };
    if start.is_ok_and(|s| !on_event_days(s)) {
        f.error("start", tr!(w.lang, "relay.err_start_date", start = t.start_date, end = t.end_date));
        return match_page(&w, tid, mid, Opts::bad_request(&w, f)).await;
    }
    let start = match start {
        Ok(s) => s,
        Err(e) => {
            f.error("start", time_refusal(w.lang, e));
            return match_page(&w, tid, mid, Opts::bad_request(&w, f)).await;
        }
    };
    let (actor, version, reason) = (w.actor(), w.form.version, w.reason("reason")?);
    match w.db_raw(move |c| mdb::set_start(c, &actor, tid, mid, version, start, &reason)).await? {
        Ok(_) => Ok(w.redirect(&format!("/t/{tid}/matches/{mid}?done=start"))),
        Err(e) => refused(&w, "start", f, e).await,
    }
}

/// A refused match write: the page with the message beside the form of `kind`.
async fn refused(
    w: &Write<Arbiter<[i32; 2]>, impl Sized>,
    kind: &'static str,
    mut f: FormView,
    e: MatchError,
) -> Result<HttpResponse, AppError> {
    let [tid, mid] = w.who.ids;
    let zone = w.db(move |c| tdb::get(c, tid)).await?.zone();
    let names = match &e {
        MatchError::Refused(MatchRefusal::Relay(Refusal::CardNotForOffence { .. })) => HashMap::new(),
        MatchError::Refused(MatchRefusal::Withdraw(_) | MatchRefusal::Relay(_)) => {
            w.db(move |c| {
                let st = mdb::relay_state(c, tid, mid)?;
                Ok::<_, DbError>(st.m.as_ref().map(person_names).unwrap_or_default())
            })
            .await?
        }
        _ => HashMap::new(),
    };
    let (msg, status) = e.refused(w.lang, &MatchNaming { zone, kind, names })?.keep(&mut f);
    let opts = Opts { f, banner: Some(msg), status, ..Opts::default() };
    match_page(w, tid, mid, opts).await
}

/// What is wrong with a relay form: the field, and for a clock reading why it does not fit the
/// event's time control.
enum BadField {
    Field(&'static str),
    Clock(ClockInputError),
}

impl BadField {
    /// The message beside the form.
    fn message(self, lang: Lang) -> String {
        match self {
            BadField::Field("black_count") => lang.t("relay.err_count").to_string(),
            BadField::Field("b_main" | "w_main") => lang.t("relay.err_clock_face").to_string(),
            BadField::Field("why") => lang.t("relay.err_end_reason").to_string(),
            BadField::Field("side" | "by" | "ending" | "card" | "offence" | "section" | "remedy") => {
                lang.t("err.choice").to_string()
            }
            BadField::Field("b1" | "b2" | "w1" | "w2") => lang.t("relay.err_lineups").to_string(),
            BadField::Clock(e) => lang.clock_input_error(&e),
            BadField::Field(_) => lang.t("relay.err_field").to_string(),
        }
    }
}

impl From<&'static str> for BadField {
    fn from(f: &'static str) -> Self {
        BadField::Field(f)
    }
}

/// One side's clock from the clock form: the face (`{p}_main`) and the periods left
/// (`{p}_periods`, empty: all while basic time is left).
fn clock_of(form: &Form, tc: &TimeControl, p: &str) -> Result<ClockReading, BadField> {
    let (main, periods) = match p {
        "b" => ("b_main", "b_periods"),
        _ => ("w_main", "w_periods"),
    };
    let secs = clocks::parse_face(form.get(main)).ok_or(BadField::Field(main))?;
    let left = match form.get(periods).trim() {
        "" => None,
        v => Some(v.parse::<u32>().map_err(|_| BadField::Field(periods))?),
    };
    clocks::reading(tc, secs, left).map_err(BadField::Clock)
}

/// Both teams' line-ups for a section in one form (one submit for a section, not one per
/// player): either side may be left
/// empty; the first listed of each side is `b1` / `w1`.
fn lineups_of(form: &Form) -> Result<Vec<Event>, BadField> {
    let section = section_of(form.get("section")).ok_or("section")?;
    let mut out = Vec::new();
    for (side, a, b) in [(Color::Black, "b1", "b2"), (Color::White, "w1", "w2")] {
        match (form.get(a), form.get(b)) {
            ("", "") => {}
            (x, y) => {
                let p =
                    |v: &str, name: &'static str| v.parse::<PersonId>().map_err(|_| BadField::Field(name));
                out.push(Event::SubmitLineup { side, section, players: [p(x, a)?, p(y, b)?] });
            }
        }
    }
    if out.is_empty() {
        return Err("b1".into());
    }
    Ok(out)
}

fn section_of(v: &str) -> Option<Section> {
    match v {
        "1" => Some(Section::One),
        "2" => Some(Section::Two),
        "3" => Some(Section::Three),
        "playoff" => Some(Section::Playoff),
        _ => None,
    }
}

/// A side field ("black" / "white").
fn side_field(form: &Form, name: &'static str) -> Result<Color, &'static str> {
    match form.get(name) {
        "black" => Ok(Color::Black),
        "white" => Ok(Color::White),
        _ => Err(name),
    }
}

/// A person field: the person's id on the rosters.
fn person_field(form: &Form, name: &'static str) -> Result<PersonId, &'static str> {
    form.get(name).parse::<PersonId>().map_err(|_| name)
}

/// An optional number field (a move number; empty: none).
fn number_field(form: &Form, name: &'static str) -> Result<Option<u32>, &'static str> {
    match form.get(name) {
        "" => Ok(None),
        v => v.parse::<u32>().map(Some).map_err(|_| name),
    }
}

/// The event of a relay form, and where in the game it goes; `Err` names the bad field.
/// `ruled_by`: the name of the arbiter recording a ruling that ends the match.
fn event_of(form: &Form, tc: &TimeControl, ruled_by: &str) -> Result<(Event, Option<AtMove>), BadField> {
    let side = |name: &'static str| side_field(form, name);
    let person = |name: &'static str| person_field(form, name);
    let number = |name: &'static str| number_field(form, name);
    let after = number("after")?.map(AtMove::After);
    Ok(match form.get("kind") {
        "lineup" => {
            let section = section_of(form.get("section")).ok_or("section")?;
            (
                Event::SubmitLineup { side: side("side")?, section, players: [person("p1")?, person("p2")?] },
                None,
            )
        }
        "moves" => match number("through")? {
            Some(through) => (Event::MovesInOrder { through }, None),
            None => return Err("through".into()),
        },
        "move" => (Event::Move { player: person("player")?, at: None }, number("number")?.map(AtMove::Is)),
        "claim" => (Event::ClaimOrderError { claimant: side("side")? }, after),
        "sub_request" => {
            (Event::RequestSubstitution { out: person("out")?, incoming: person("incoming")? }, after)
        }
        "timeout" => (Event::RequestTimeout { side: side("side")? }, after),
        "confirm" => (Event::ConfirmRequest { side: side("side")? }, None),
        "cancel" => (Event::CancelRequest { side: side("side")? }, None),
        "seated" => (Event::SubstituteSeated { side: side("side")? }, None),
        "annul" => (Event::AnnulSubstitution { side: side("side")? }, None),
        "timeout_end" => (Event::TimeoutEnd { side: side("side")? }, None),
        "replace" => (Event::ReplaceSentOff { side: side("side")?, incoming: person("incoming")? }, None),
        "card" => (card_of(form)?, after),
        "byoyomi" => (Event::ByoYomiTimeout { player: person("player")? }, number("number")?.map(AtMove::Is)),
        "section_end" => (Event::SectionEnd { clocks: None }, after),
        "clock" => {
            let clocks = [clock_of(form, tc, "b")?, clock_of(form, tc, "w")?];
            (Event::Clocks { move_number: number("move")?, clocks }, None)
        }
        "count" => match parse_count(form.get("black_count")) {
            Some(black_halves) => (Event::Count { black_halves, clocks: None }, after),
            None => return Err("black_count".into()),
        },
        "resign" => (Event::Resign { side: side("side")?, by: Some(person("by")?) }, after),
        "end" => (end_of(form, ruled_by)?, after),
        "restore" => (Event::RestoreForPlayoff, None),
        "present" => (attendance_of(form)?, None),
        "void" => {
            let offence = VoidOffence::from_code(form.get("offence")).ok_or("offence")?;
            (Event::VoidMove { player: person("player")?, offence }, number("number")?.map(AtMove::Is))
        }
        "timeout_delay" => (delay_of(form)?, after),
        _ => return Err("kind".into()),
    })
}

/// Who of the leader, coach and captain is present (Art. 10.1): the form lists each of them
/// (`staff`) and ticks those present (`present`).
fn attendance_of(form: &Form) -> Result<Event, &'static str> {
    let ids = |name: &'static str| -> Result<Vec<PersonId>, &'static str> {
        form.all(name).into_iter().map(|v| v.parse::<PersonId>().map_err(|_| name)).collect()
    };
    let present = ids("present")?;
    let absent = ids("staff")?.into_iter().filter(|p| !present.contains(p)).collect();
    Ok(Event::Attendance { present, absent })
}

/// A deliberate delay in returning from a timeout (Art. 10.5 暂停 (2) "视情节严重程度给予劝告，
/// 黄牌警告乃至停着的追加处罚"): advice, a yellow card, or an added forced pass, nothing else.
fn delay_of(form: &Form) -> Result<Event, &'static str> {
    let person = person_field(form, "person")?;
    let card = |card| Event::Card { person, card, offence: Some(CardOffence::TimeoutDelay) };
    Ok(match form.get("remedy") {
        "advice" => card(Card::Advice),
        "yellow" => card(Card::Yellow),
        "pass" => Event::AddedPass { person },
        _ => return Err("remedy"),
    })
}

/// A card to a person (seed 003's advice, yellow and red cards) for an offence of the list.
fn card_of(form: &Form) -> Result<Event, &'static str> {
    let card = match form.get("card") {
        "advice" => Card::Advice,
        "yellow" => Card::Yellow,
        "red" => Card::Red,
        _ => return Err("card"),
    };
    let offence = Some(CardOffence::from_code(form.get("offence")).ok_or("offence")?);
    Ok(Event::Card { person: person_field(form, "person")?, card, offence })
}

/// A ruling that ends the match (seed 003's endings): the ending, the side it concerns when it concerns
/// one, and the arbiter's reason (required, at most 500 characters).
fn end_of(form: &Form, ruled_by: &str) -> Result<Event, &'static str> {
    let ending = Ending::from_code(form.get("ending")).ok_or("ending")?;
    let side = match form.get("side") {
        "" if !ending.one_side() => None,
        _ if !ending.one_side() => return Err("side"),
        _ => Some(side_field(form, "side")?),
    };
    let reason = form.get("why").trim();
    let lines = crate::domain::text::Lines::Many;
    if reason.is_empty()
        || crate::domain::text::check(reason, crate::domain::text::MAX_REASON, lines).is_some()
    {
        return Err("why");
    }
    Ok(Event::End { ending, side, reason: reason.to_string(), ruled_by: ruled_by.to_string() })
}

/// The event of a form of `kind`, where in the game it goes, and the events recorded with it
/// (`lineups`: both teams' line-ups in one form). A ruling names the arbiter who records it.
fn event_of_kind(
    form: &Form,
    kind: &str,
    tc: &TimeControl,
    user: &crate::db::users::User,
) -> Result<(Event, Option<AtMove>, Vec<Event>), BadField> {
    let ruled_by = if user.display_name.trim().is_empty() { &user.username } else { &user.display_name };
    match kind {
        "lineups" => lineups_of(form).map(|mut v| (v.remove(0), None, v)),
        _ => event_of(form, tc, ruled_by).map(|(e, m)| (e, m, Vec::new())),
    }
}

/// The events that decide the match: recorded only after a confirm step: a
/// mistaken click must not end a match.
const DECIDING: [&str; 3] = ["resign", "count", "end"];

const KINDS: [&str; 25] = [
    "lineup",
    "lineups",
    "moves",
    "move",
    "claim",
    "sub_request",
    "timeout",
    "confirm",
    "cancel",
    "seated",
    "annul",
    "timeout_end",
    "replace",
    "card",
    "byoyomi",
    "section_end",
    "clock",
    "count",
    "resign",
    "end",
    "restore",
    "start",
    "present",
    "void",
    "timeout_delay",
];

/// POST /t/{id}/matches/{mid}/event: one event of a relay match.
pub async fn event(w: MatchWrite) -> Result<HttpResponse, AppError> {
    let [tid, mid] = w.who.ids;
    let form = &w.fields;
    let kind = KINDS.iter().copied().find(|k| *k == form.get("kind")).ok_or_else(|| bad_form(&w))?;
    let mut f = FormView::from_form(form);
    let t = w.db(move |c| tdb::get(c, tid)).await?;
    let zone = t.zone();
    let at = match parse_at(zone, form.get("at")) {
        Ok(at) => at,
        Err(e) => {
            f.error(kind, time_refusal(w.lang, e));
            return match_page(&w, tid, mid, Opts::bad_request(&w, f)).await;
        }
    };
    let (event, at_move, also) = match event_of_kind(form, kind, &t.settings().time_control, &w.who.user) {
        Ok(x) => x,
        Err(bad) => {
            f.error(kind, bad.message(w.lang));
            return match_page(&w, tid, mid, Opts::bad_request(&w, f)).await;
        }
    };
    let (actor, version) = (w.actor(), w.form.version);
    let input = mdb::EventInput { at, at_move, event, also };
    if DECIDING.contains(&kind) && form.get("confirm") != "1" {
        // Nothing that decides the match is recorded in one tap: show what it would do.
        let preview = input.clone();
        return match w.db_raw(move |c| mdb::preview_event(c, &actor, tid, mid, version, &preview)).await? {
            Ok((accepted, m)) => {
                let confirm =
                    relay_match::confirm_view(w.lang, zone, kind, &form.fields, &input, &accepted, &m);
                match_page(&w, tid, mid, Opts { f, confirm: Some(confirm), ..Opts::default() }).await
            }
            Err(e) => refused(&w, kind, f, e).await,
        };
    }
    match w.db_raw(move |c| mdb::record_event(c, &actor, tid, mid, version, &input)).await? {
        Ok(_) => Ok(w.redirect(&format!("/t/{tid}/matches/{mid}?done={kind}#form-{kind}"))),
        Err(e) => refused(&w, kind, f, e).await,
    }
}

/// POST /t/{id}/matches/{mid}/nigiri: the leaders' nigiri (Art. 11), `mode=board` with the
/// grab and the guess as done at the board, or `mode=seed` performed from the table's seed.
pub async fn nigiri(w: MatchWrite) -> Result<HttpResponse, AppError> {
    let [tid, mid] = w.who.ids;
    let (version, reason) = (w.form.version, w.reason("reason")?);
    let mut f = FormView::from_form(&w.fields);
    let action = match w.fields.get("mode") {
        "seed" => NigiriAction::Remote,
        "board" => {
            let grab = w.fields.get("grab").trim().parse::<u32>().ok().filter(|g| (1..=200).contains(g));
            let guess = match w.fields.get("guess") {
                "odd" => Some(Guess::Odd),
                "even" => Some(Guess::Even),
                _ => None,
            };
            match (grab, guess) {
                (Some(grab), Some(guess)) => NigiriAction::Record { grab, guess },
                (None, _) => {
                    f.error("nigiri", tr!(w.lang, "err.number_range", min = 1, max = 200));
                    return match_page(&w, tid, mid, Opts::bad_request(&w, f)).await;
                }
                (_, None) => {
                    f.error("nigiri", w.t("err.choice"));
                    return match_page(&w, tid, mid, Opts::bad_request(&w, f)).await;
                }
            }
        }
        _ => return Err(bad_form(&w)),
    };
    let actor = w.actor();
    match w.db_raw(move |c| mdb::leaders_nigiri(c, &actor, tid, mid, version, action, &reason)).await? {
        Ok(_) => Ok(w.redirect(&format!("/t/{tid}/matches/{mid}?done=nigiri"))),
        Err(e) => refused(&w, "nigiri", f, e).await,
    }
}

/// The withdrawal form: the event (`seq`) and the version of the match shown.
#[derive(Deserialize)]
pub struct WithdrawForm {
    version: i32,
    seq: u32,
}

/// POST /t/{id}/matches/{mid}/withdraw: the chief arbiter withdraws a wrongly recorded event
/// (`seq`) with a reason. The log keeps it; the match is replayed from the events that stand.
pub async fn withdraw(w: MatchWrite<WithdrawForm>) -> Result<HttpResponse, AppError> {
    let [tid, mid] = w.who.ids;
    let WithdrawForm { version, seq } = w.form;
    let (actor, reason) = (w.actor(), w.reason("reason")?);
    match w
        .db_raw(move |c| {
            office::withdraw_relay_event::withdraw_relay_event(c, &actor, tid, mid, version, seq, &reason)
        })
        .await?
    {
        Ok(_) => Ok(w.redirect(&format!("/t/{tid}/matches/{mid}?done=withdraw"))),
        Err(e) => refused(&w, "withdraw", FormView::from_form(&w.fields), e).await,
    }
}

// ---------------------------------------------------------------------------------------------
// Board matches

/// A board match's page (§13.2–13.3), with what `opts` adds.
async fn board_page(
    ctx: &Ctx,
    tid: i32,
    mid: i32,
    staff: bool,
    opts: Opts,
) -> Result<HttpResponse, AppError> {
    let (t, d) = ctx
        .db(move |c| {
            let t = tdb::get(c, tid)?;
            Ok::<_, DbError>((
                t,
                board_match::Loaded {
                    row: mdb::get_match(c, tid, mid)?,
                    teams: tdb_teams::list(c, tid)?,
                    boards: mdb::boards_of(c, mid)?,
                    members: tdb_teams::members_by_team(c, tid)?,
                },
            ))
        })
        .await?;
    let c = ctx.chrome_t(&t, staff, board_match::title(ctx.lang, &d.row, &d.teams));
    let page = board_match::build(c, ctx.lang, d, opts.f, opts.banner, opts.notice);
    ctx.render_status(opts.status, &page)
}

/// POST /t/{id}/matches/{mid}/boards: players and results of a board match.
pub async fn save_boards(w: MatchWrite) -> Result<HttpResponse, AppError> {
    let [tid, mid] = w.who.ids;
    let row = w.db(move |c| mdb::get_match(c, tid, mid)).await?;
    let mut input = Vec::new();
    for k in 1..=row.boards {
        let who = |name: String| w.optional::<i32>(&name);
        let first = who(format!("first-{k}"))?;
        let second = who(format!("second-{k}"))?;
        let result =
            BoardResult::from_code(w.fields.get(&format!("result-{k}"))).ok_or_else(|| bad_form(&w))?;
        input.push(BoardInput { first, second, result });
    }
    let (actor, version, reason) = (w.actor(), w.form.version, w.reason("reason")?);
    match w.db_raw(move |c| mdb::save_boards(c, &actor, tid, mid, version, &input, &reason)).await? {
        Ok(_) => Ok(w.redirect(&format!("/t/{tid}/matches/{mid}?done=boards"))),
        Err(e) => refused(&w, "boards", FormView::from_form(&w.fields), e).await,
    }
}

// ---------------------------------------------------------------------------------------------
// Printed sheets

/// GET /t/{id}/matches/{mid}/sheets.pdf?lang=zh|en: the line-up forms and the match record
/// sheet of a relay match (staff), a [`crate::documents::MatchDoc`] like `tengen print
/// team-sheets`, laid out off the async workers.
pub async fn sheets(
    ctx: Ctx,
    path: web::Path<(String, String)>,
    q: web::Query<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    use crate::office::print_data::MatchSheetsError;
    let [tid, mid] = ctx.ids([&path.0, &path.1])?;
    ctx.require_staff(tid, Role::Arbiter).await?;
    let lang = match q.iter().find(|(k, _)| k == "lang").map(|(_, v)| v.as_str()) {
        Some("en") => Lang::En,
        Some("zh") => Lang::Zh,
        _ => ctx.lang,
    };
    let req = crate::documents::MatchDoc { tid, mid, lang };
    let loaded = ctx.db_raw(move |c| req.load(c)).await?.map_err(|e| match e {
        MatchSheetsError::NotTeamEvent => not_team_event(&ctx),
        MatchSheetsError::NotReady(e) => {
            AppError::msg(StatusCode::CONFLICT, ctx.lang, ctx.lang.match_not_ready(&e))
        }
        MatchSheetsError::Db(DbError::NotFound) => ctx.not_found(),
        MatchSheetsError::Db(e) => AppError::internal(ctx.lang, e),
    })?;
    super::print::render_and_send(&ctx, loaded).await
}

#[cfg(test)]
mod tests {
    use super::relay_match::{person_of, show_at};
    use super::*;
    use crate::i18n::relay::ending_key;
    use std::collections::HashMap;

    #[test]
    fn counts_times_and_names() {
        assert_eq!(parse_count("185"), Some(370));
        assert_eq!(parse_count("184.5"), Some(369));
        assert_eq!(parse_count("184½"), Some(369));
        assert_eq!(parse_count("362"), None);
        assert_eq!(parse_count("x"), None);
        let z = EventZone::SHANGHAI;
        let t = parse_at(z, "2026-12-05T09:30:00").unwrap();
        assert_eq!(parse_at(z, "2026-12-05 09:30").unwrap(), t);
        assert_eq!(show_at(z, t), "2026-12-05 09:30:00");
        assert_eq!(show_at(EventZone::default(), t), "2026-12-05 01:30:00");
        assert!(parse_at(z, "yesterday").is_err());
        let names: HashMap<PersonId, String> = [(112, "王一".to_string())].into();
        // People are named from the rosters, never parsed back out of a sentence.
        let e = Event::Move { player: 112, at: None };
        assert_eq!(Lang::Zh.relay_event(&e, &person_of(Lang::Zh, &names)), "王一落子");
        let e = Event::Move { player: 9, at: None };
        assert_eq!(Lang::Zh.relay_event(&e, &person_of(Lang::Zh, &names)), "9号队员落子");
        assert_eq!(Lang::En.relay_event(&e, &person_of(Lang::En, &names)), "Move by #9");
    }

    /// Every ending has its label (with the article) in the catalog, in both languages.
    #[test]
    fn every_ending_is_in_the_catalog() {
        for e in Ending::ALL {
            assert!(super::super::i18n::has_key(ending_key(e)), "{e:?}");
            assert_ne!(Lang::Zh.t(ending_key(e)), Lang::En.t(ending_key(e)));
        }
    }
}
