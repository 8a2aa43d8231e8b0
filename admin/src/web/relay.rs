//! Team match pages (issue 7): the relay match page (state, counts, penalty log, line-ups,
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

use std::collections::HashMap;

use super::ctx::Ctx;
use super::error::AppError;
use super::form::Form;
use super::i18n::Lang;
use super::teams::{is_team_event, not_team_event, record_text, team_names};
use super::templates::{Chrome, FormView, Options};
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
use crate::domain::team::ending::{EndRecord, Ending};
use crate::domain::team::lineup::Section;
use crate::domain::team::relay::{Card, Effect, Event, Phase, Refusal, RelayMatch, RequestKind};
use crate::domain::team::roster::LeaderBasis;
use crate::domain::team::sheets::{lineup_forms, record_sheet, SheetClockRow, SheetPenaltyRow};
use crate::domain::team::{PersonId, Timestamp};
use crate::i18n::relay::ending_key;
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;
use rules::board::Color;
use rules::clock::{ClockReading, TimeControl};

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

/// A timestamp as the venue reads it: "2026-12-05 09:30:00" in the event's zone.
pub fn show_at(zone: EventZone, ts: Timestamp) -> String {
    zone.date_time_of(ts)
}

/// A timestamp as a datetime-local value in the event's zone.
fn input_at(zone: EventZone, ts: Timestamp) -> String {
    zone.input_of(ts)
}

/// Black's count as entered ("185", "184.5", "184½") in half points, on the relay's 19×19 board
/// (seed 003): the rules crate's reading, the same as the individual result sheet's.
pub fn parse_count(s: &str) -> Option<u32> {
    let points = u32::from(rules::ruleset::RuleSet::chinese_team_relay().board_size).pow(2);
    rules::outcome::parse_count(s, points)
}

/// Names a person of the match by the rosters' names (a person the rosters do not know reads
/// "#112" / "112号队员"): the renderers of `crate::i18n` take it instead of ids in a sentence.
fn person_of(lang: Lang, names: &HashMap<PersonId, String>) -> impl Fn(PersonId) -> String + '_ {
    move |p| names.get(&p).cloned().unwrap_or_else(|| lang.tf("who.player_no", &[&p]))
}

fn section_name(lang: Lang, s: Section) -> &'static str {
    lang.section(s)
}

// ---------------------------------------------------------------------------------------------
// The relay match page

pub struct SideView {
    pub colour: String,
    pub team: String,
    pub stones: u32,
    pub order_errors: u32,
    pub subs_left: u32,
    pub any_subs: u32,
    pub timeouts_left: u32,
    pub owed_passes: u32,
    pub malicious_fouls: u32,
    pub seated: String,
    pub pending: String,
    pub executing: String,
    pub barred: String,
}

pub struct PenaltyView {
    pub at: String,
    pub section: String,
    pub move_no: u32,
    pub side: String,
    pub person: String,
    pub what: String,
    pub stones: u32,
    pub total_b: u32,
    pub total_w: u32,
    pub explain: String,
}

pub struct LogView {
    pub seq: i32,
    pub at: String,
    pub actor: String,
    /// What was recorded.
    pub what: String,
    pub lines: Vec<String>,
    /// "Withdrawn by … at …: reason", once withdrawn.
    pub withdrawn: Option<String>,
}

/// Which event forms apply to the match as it stands (issue 13 item 10: the page shows only
/// those, so the arbiter at the table does not scroll past a dozen that cannot be used).
#[derive(Default)]
pub struct FormsShown {
    pub lineups: bool,
    pub play: bool,
    pub claim: bool,
    pub request: bool,
    pub seated: bool,
    pub annul: bool,
    pub timeout_end: bool,
    pub replace: bool,
    pub section_end: bool,
    pub decide: bool,
    pub restore: bool,
    pub clock: bool,
}

impl FormsShown {
    fn of(m: &RelayMatch) -> FormsShown {
        let playing = m.phase() == Phase::Playing;
        let sides = [m.side(Color::Black), m.side(Color::White)];
        let last_sub = |s: &crate::domain::team::relay::SideState| s.substitutions.last().copied();
        FormsShown {
            lineups: playing,
            play: m.in_play(),
            claim: m.claimant().is_some(),
            request: sides.iter().any(|s| s.pending.is_some()),
            seated: sides.iter().any(|s| last_sub(s).is_some_and(|r| r.seated_at.is_none() && !r.annulled)),
            annul: sides.iter().any(|s| {
                last_sub(s).is_some_and(|r| {
                    !r.annulled
                        && r.section == m.section()
                        && r.move_number == m.moves()
                        && r.kind != crate::domain::team::relay::SubstitutionKind::RedCardReplacement
                })
            }),
            timeout_end: sides.iter().any(|s| s.timeouts.last().is_some_and(|t| t.ended_at.is_none())),
            replace: sides.iter().any(|s| s.vacated.is_some()),
            section_end: m.in_play() && m.section().last_move().is_some(),
            decide: playing,
            restore: m.phase() == Phase::PlayoffPending,
            clock: m.phase() != Phase::Over,
        }
    }
}

/// The leaders' nigiri of a match (Art. 11).
pub struct NigiriView {
    /// "X's leader holds …, Y's leader guesses …".
    pub roles: String,
    /// The table's seed: the role lot was drawn from it, a remote nigiri is performed from it.
    pub seed: u64,
    pub outcome: Option<String>,
    /// Performed from the seed (final).
    pub remote: bool,
    /// Still to be done, or a board outcome that may be corrected (no event yet).
    pub open: bool,
}

pub struct ClockView {
    pub move_no: u32,
    pub section: String,
    pub at: String,
    pub black: String,
    pub white: String,
}

pub struct LineupRowView {
    pub order: u8,
    pub position: String,
    pub name: String,
    pub clock: bool,
}

pub struct LineupView {
    /// Handed in, but not shown yet: the other side's is still due (Art. 10.1).
    pub hidden: bool,
    pub section: String,
    pub side: String,
    pub team: String,
    pub deadline: String,
    pub submitted: String,
    pub rows: Vec<LineupRowView>,
}

#[derive(Template)]
#[template(path = "relay_match.html")]
pub struct RelayPage {
    pub c: Chrome,
    pub tid: i32,
    pub mid: i32,
    pub title: String,
    pub staff: bool,
    pub version: i32,
    pub start: String,
    pub start_value: String,
    pub started: bool,
    pub setup_error: Option<String>,
    pub nigiri: Option<NigiriView>,
    pub phase: String,
    pub over: bool,
    pub playoff_pending: bool,
    pub section: String,
    /// The break before the next section, or the play-off's preparation.
    pub interval: Option<String>,
    pub moves: u32,
    pub next_move: u32,
    pub to_move: String,
    pub expected: String,
    pub sides: Vec<SideView>,
    pub penalties: Vec<PenaltyView>,
    pub playoff_penalties: Vec<PenaltyView>,
    pub log: Vec<LogView>,
    pub lineups: Vec<LineupView>,
    pub clocks: Vec<ClockView>,
    /// The play-off's remaining time (Art. 12): `(black, white, note)` once known, or the
    /// reading still missing (`note` only).
    pub playoff_clocks: Option<(String, String, String)>,
    pub playoff_clocks_missing: bool,
    pub time_control: String,
    pub result: String,
    pub drawn: String,
    pub match_points: String,
    pub side_opts: Options,
    pub section_opts: Options,
    pub player_opts: Options,
    pub seated_opts: Options,
    pub person_opts: Options,
    /// The chief arbiter (or, while none is named, an organizer) may withdraw events.
    pub is_chief: bool,
    /// The events that stand, latest first, for the withdrawal form.
    pub withdraw_opts: Options,
    /// The endings of issue 13 (label with its article).
    pub end_opts: Options,
    /// The forms that apply now.
    pub show: FormsShown,
    /// Each side's players, for the one line-up form of both teams.
    pub black_players: Options,
    pub white_players: Options,
    /// The section whose line-ups are due next, preselected in the line-up form (it decides
    /// nothing); and the last move of the section in play, for "section ended at move N".
    pub lineup_section: String,
    pub section_last: String,
    pub card_opts: Options,
    /// Offences with their articles (issue 13 item 4).
    pub offence_opts: Options,
    /// Who may confirm a resignation (Art. 14: the executing leader; Art. 10.1 order first).
    pub resigner_opts: Options,
    /// A side that cannot field the line-up due (fewer than two eligible players).
    pub short_of_players: Option<String>,
    /// The replay ordered by the chief arbiter (match id), or the match this one replays.
    pub replay: Option<i32>,
    pub replay_of: Option<i32>,
    /// The confirm step of an event that decides the match.
    pub confirm: Option<ConfirmView>,
    pub f: FormView,
    pub banner: Option<String>,
    pub notice: Option<String>,
}

impl RelayPage {
    /// The refusal shown beside the form of `kind`.
    pub fn error_of(&self, kind: &str) -> Option<&str> {
        self.f.err(kind)
    }
}

fn penalty_views(
    lang: Lang,
    zone: EventZone,
    rows: &[SheetPenaltyRow],
    names: &HashMap<PersonId, String>,
) -> Vec<PenaltyView> {
    rows.iter()
        .map(|r| {
            let p = &r.row;
            PenaltyView {
                at: show_at(zone, p.at),
                section: section_name(lang, p.section).to_string(),
                move_no: p.move_number,
                side: p.side.map(|c| lang.side_name(c).to_string()).unwrap_or_default(),
                person: r.name.clone().unwrap_or_default(),
                what: lang.penalty_what(p),
                stones: p.stones,
                total_b: p.total[0],
                total_w: p.total[1],
                explain: p
                    .effects
                    .iter()
                    .map(|s| lang.effect(s, &|id| names.get(&id).cloned()))
                    .collect::<Vec<_>>()
                    .join(lang.t("team.list_sep")),
            }
        })
        .collect()
}

/// Who may confirm side `c`'s resignation (Art. 14): its executing leader first (Art. 10.1
/// order: leader, coach, captain, players), then everyone else of the team who is not at the
/// board and not barred.
fn resigners(lang: Lang, m: &RelayMatch, c: Color) -> Options {
    let s = m.side(c);
    let tag = lang.side_name(c);
    let first = m.executing_leader(c, &|_| true).map(|el| el.person);
    let mut people: Vec<PersonId> = first.into_iter().collect();
    people.extend(s.team.people().filter(|p| Some(*p) != first));
    people
        .into_iter()
        .filter(|p| !s.barred.contains(p) && !s.seats.is_some_and(|seats| seats.contains(&Some(*p))))
        .map(|p| {
            let role = match s.team.role_of(p) {
                Some(crate::domain::team::roster::Role::Leader) => lang.t("team.role_leader"),
                Some(crate::domain::team::roster::Role::Coach) => lang.t("team.role_coach"),
                Some(crate::domain::team::roster::Role::Player { captain: true }) => {
                    lang.t("team.role_captain")
                }
                _ => lang.t("team.role_player"),
            };
            let mut label = format!("{tag} · {} ({role})", s.team.name_of(p).unwrap_or_default());
            if Some(p) == first {
                label = format!("{label} — {}", lang.t("relay.executing_short"));
            }
            (p.to_string(), label)
        })
        .collect()
}

pub(super) fn person_names(m: &RelayMatch) -> HashMap<PersonId, String> {
    let mut names = HashMap::new();
    for c in [Color::Black, Color::White] {
        let t = &m.side(c).team;
        for p in t.people() {
            names.insert(p, t.name_of(p).unwrap_or_default().to_string());
        }
    }
    names
}

/// `hidden`: sections whose line-ups this reader may not see yet (Art. 10.1).
fn side_view(
    lang: Lang,
    m: &RelayMatch,
    c: Color,
    names: &HashMap<PersonId, String>,
    hidden: &dyn Fn(Section) -> bool,
) -> SideView {
    let s = m.side(c);
    let counts = m.counts();
    let k = match c {
        Color::Black => 0,
        Color::White => 1,
    };
    let name = |p: PersonId| names.get(&p).cloned().unwrap_or_else(|| format!("#{p}"));
    let seated = match s.seats {
        None => String::new(),
        Some(seats) => seats
            .iter()
            .map(|x| x.map(name).unwrap_or_else(|| lang.t("relay.vacant").to_string()))
            .collect::<Vec<_>>()
            .join(" / "),
    };
    let pending = match s.pending.map(|p| p.kind) {
        None => String::new(),
        Some(RequestKind::Timeout) => lang.t("relay.pending_timeout").to_string(),
        Some(RequestKind::Substitution { out, incoming }) => {
            lang.tf("relay.pending_substitution", &[&name(incoming), &name(out)])
        }
    };
    let leader = s.team.leader.as_ref().map(|l| l.id);
    let executing = m
        .executing_leader(c, &|p| Some(p) != leader)
        .filter(|el| !matches!(el.basis, LeaderBasis::SectionPlayer(sec) if hidden(sec)))
        .map(|el| {
            let basis = match el.basis {
                LeaderBasis::Leader => lang.t("team.role_leader").to_string(),
                LeaderBasis::Coach => lang.t("team.role_coach").to_string(),
                LeaderBasis::Captain => lang.t("team.role_captain").to_string(),
                LeaderBasis::SectionPlayer(sec) => section_name(lang, sec).to_string(),
            };
            format!("{} ({basis})", name(el.person))
        })
        .unwrap_or_default();
    SideView {
        colour: lang.side_name(c).to_string(),
        team: s.team.name.clone(),
        stones: counts.penalty_stones[k],
        order_errors: counts.order_errors[k],
        subs_left: counts.substitutions_left[k],
        any_subs: counts.any_substitutions[k],
        timeouts_left: counts.timeouts_left[k],
        owed_passes: counts.owed_passes[k],
        malicious_fouls: counts.malicious_fouls[k],
        seated,
        pending,
        executing,
        barred: s.barred.iter().map(|&p| name(p)).collect::<Vec<_>>().join(", "),
    }
}

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

/// What an event recorded, as the log and the confirm step show it.
fn event_text(lang: Lang, e: &Event, names: &HashMap<PersonId, String>) -> String {
    let name = |p: &PersonId| names.get(p).cloned().unwrap_or_else(|| format!("#{p}"));
    match e {
        Event::End { ending, side, reason, ruled_by } => lang.ending_text(&EndRecord {
            ending: *ending,
            side: *side,
            reason: reason.clone(),
            ruled_by: ruled_by.clone(),
            section: Section::One,
            move_number: 0,
            at: 0,
        }),
        Event::Resign { side, by: Some(p) } => {
            lang.tf("relay.resign_what", &[&lang.side_name(*side), &name(p)])
        }
        _ => lang.relay_event(e, &person_of(lang, names)),
    }
}

/// The match's result as the page states it: the rules crate's result, then how it ended.
fn result_text(lang: Lang, m: &RelayMatch) -> String {
    let Some(r) = m.result() else { return String::new() };
    let text = lang.game_result(&r);
    match lang.ending_note(m) {
        Some(note) => format!("{text} · {note}"),
        None => text,
    }
}

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
    let lang = ctx.lang;
    let zone = t.zone();
    let tnames = team_names(&teams);
    let tname = |id: i32| tnames.get(&id).cloned().unwrap_or_default();
    let title = lang.tf("relay.title", &[&row.round_number, &row.table_no]);
    let title = format!(
        "{title}: {} — {}",
        tname(row.black_team_id),
        row.white_team_id.map(tname).unwrap_or_default()
    );
    let setup_error = st.setup.as_ref().err().map(|e| lang.match_not_ready(e));
    let team_of = |t: u32| tname(i32::try_from(t).unwrap_or(0));
    let nigiri_view = row.nigiri().map(|n| NigiriView {
        roles: lang.tf("relay.nigiri_roles", &[&team_of(n.holder), &team_of(n.guesser)]),
        seed: n.record.and_then(|r| r.seed).or(nigiri_seed).unwrap_or(0),
        outcome: n.record.map(|rec| {
            lang.tf(
                "nigiri.outcome",
                &[
                    &rec.grab,
                    &match rec.guess {
                        Guess::Odd => lang.t("nigiri.guess_odd"),
                        Guess::Even => lang.t("nigiri.guess_even"),
                    },
                    &if rec.correct { lang.t("nigiri.correct") } else { lang.t("nigiri.wrong") },
                    &team_of(rec.black),
                ],
            )
        }),
        remote: n.record.is_some_and(|r| r.seed.is_some()),
        open: row.setup.is_none() && n.record.is_none_or(|r| r.seed.is_none()),
    });
    let mut page = RelayPage {
        c: ctx.chrome_t(&t, role.is_some(), title.clone()),
        tid,
        mid,
        title,
        staff: role.is_some(),
        version: row.version,
        start: row.start_at.map(|x| show_at(zone, x)).unwrap_or_default(),
        start_value: row.start_at.map(|x| input_at(zone, x)).unwrap_or_default(),
        started: row.setup.is_some(),
        setup_error,
        nigiri: nigiri_view,
        phase: String::new(),
        over: false,
        playoff_pending: false,
        section: String::new(),
        interval: None,
        moves: 0,
        next_move: 1,
        to_move: String::new(),
        expected: String::new(),
        sides: Vec::new(),
        penalties: Vec::new(),
        playoff_penalties: Vec::new(),
        log: Vec::new(),
        lineups: Vec::new(),
        clocks: Vec::new(),
        playoff_clocks: None,
        playoff_clocks_missing: false,
        time_control: lang.time_control(&t.settings().time_control),
        result: String::new(),
        drawn: String::new(),
        match_points: String::new(),
        side_opts: vec![
            ("black".into(), lang.side_name(Color::Black).into()),
            ("white".into(), lang.side_name(Color::White).into()),
        ],
        section_opts: [
            ("1", Section::One),
            ("2", Section::Two),
            ("3", Section::Three),
            ("playoff", Section::Playoff),
        ]
        .iter()
        .map(|(v, s)| (v.to_string(), section_name(lang, *s).to_string()))
        .collect(),
        player_opts: Vec::new(),
        seated_opts: Vec::new(),
        person_opts: Vec::new(),
        is_chief,
        withdraw_opts: Vec::new(),
        end_opts: Ending::ALL
            .iter()
            .map(|e| (e.code().to_string(), lang.t(ending_key(*e)).to_string()))
            .collect(),
        resigner_opts: Vec::new(),
        show: FormsShown::default(),
        black_players: Vec::new(),
        white_players: Vec::new(),
        lineup_section: String::new(),
        section_last: String::new(),
        card_opts: vec![
            ("advice".into(), lang.t("relay.advice").into()),
            ("yellow".into(), lang.t("relay.yellow").into()),
            ("red".into(), lang.t("relay.red").into()),
        ],
        offence_opts: CardOffence::ALL
            .iter()
            .map(|o| (o.code().to_string(), lang.offence(*o).to_string()))
            .collect(),
        short_of_players: None,
        replay,
        replay_of: row.replay_of,
        confirm: opts.confirm,
        f: opts.f,
        banner: opts.banner,
        notice: opts.notice,
    };
    if let Some(m) = &st.m {
        let names = person_names(m);
        page.phase = match m.phase() {
            Phase::Playing => lang.t("relay.phase_playing"),
            Phase::PlayoffPending => lang.t("relay.phase_playoff_pending"),
            Phase::Over => lang.t("relay.phase_over"),
        }
        .to_string();
        page.over = m.phase() == Phase::Over;
        page.playoff_pending = m.phase() == Phase::PlayoffPending;
        page.section = section_name(lang, m.section()).to_string();
        page.show = FormsShown::of(m);
        page.section_last = m.section().last_move().map(|n| n.to_string()).unwrap_or_default();
        // The next section whose line-ups are not both in.
        let due = Section::ALL.into_iter().filter(|&s| s >= m.section()).find(|s| {
            (*s != Section::Playoff || m.section() == Section::Playoff)
                && [Color::Black, Color::White].iter().any(|&c| m.side(c).lineups[s.index()].is_none())
        });
        page.lineup_section = match due {
            Some(Section::One) => "1",
            Some(Section::Two) => "2",
            Some(Section::Three) => "3",
            Some(Section::Playoff) => "playoff",
            None => "",
        }
        .to_string();
        // The 5-minute break between sections (Art. 10.2) and the 3-minute preparation of the
        // play-off (Art. 12), with the time the next part starts.
        page.interval = m.waiting_for_section().map(|(sec, starts)| match sec {
            Section::Playoff => {
                lang.tf("relay.preparation", &[&show_at(zone, starts), &(m.config().playoff_prep_secs / 60)])
            }
            _ => lang.tf(
                "relay.break",
                &[&section_name(lang, sec), &show_at(zone, starts), &(m.config().break_secs / 60)],
            ),
        });
        page.moves = m.moves();
        page.next_move = m.moves() + 1;
        page.to_move = lang.side_name(m.side_to_move()).to_string();
        let in_play = m.side(Color::Black).seats.is_some() && m.side(Color::White).seats.is_some();
        page.expected = match (m.phase(), in_play, m.expected_player()) {
            (Phase::Playing, true, Some(p)) => names.get(&p).cloned().unwrap_or_default(),
            (Phase::Playing, true, None) => {
                lang.tf("relay.free_choice", &[&lang.side_name(m.side_to_move())])
            }
            _ => "—".into(),
        };
        let staff = page.staff;
        let hidden = |s: Section| !staff && !m.lineups_public(s);
        page.sides =
            [Color::Black, Color::White].iter().map(|&c| side_view(lang, m, c, &names, &hidden)).collect();
        let sheet = record_sheet(m);
        page.penalties = penalty_views(lang, zone, &sheet.penalties, &names);
        page.playoff_penalties = penalty_views(lang, zone, &sheet.playoff_penalties, &names);
        page.result = result_text(lang, m);
        page.short_of_players = m.short_of_players().map(|(c, sec, n)| {
            lang.tf("relay.short_of_players", &[&lang.side_name(c), &n, &section_name(lang, sec)])
        });
        page.drawn = m.first_result().map(|r| lang.game_result(&r)).unwrap_or_default();
        page.match_points = m
            .match_points()
            .map(|mp| {
                format!(
                    "{} {} : {} {}",
                    m.side(Color::Black).team.name,
                    mp[0],
                    mp[1],
                    m.side(Color::White).team.name
                )
            })
            .unwrap_or_default();
        // The clock readings and the play-off's time as the printed record sheet has them.
        let clock_pair = |r: &SheetClockRow| -> (String, String) {
            (lang.clock_reading(&r.clocks[0]), lang.clock_reading(&r.clocks[1]))
        };
        page.clocks = sheet
            .clocks
            .iter()
            .map(|r| {
                let (black, white) = clock_pair(r);
                ClockView {
                    move_no: r.move_number,
                    section: section_name(lang, r.section).to_string(),
                    at: show_at(zone, r.at),
                    black,
                    white,
                }
            })
            .collect();
        if let Some(pc) = &sheet.playoff_clocks {
            match &pc.reading {
                Some(r) => {
                    let (black, white) = clock_pair(r);
                    page.playoff_clocks =
                        Some((black, white, lang.tf("relay.playoff_clocks_from", &[&pc.after_move])));
                }
                None => {
                    page.playoff_clocks_missing = true;
                    page.playoff_clocks = Some((
                        String::new(),
                        String::new(),
                        lang.tf("relay.playoff_clocks_missing", &[&pc.after_move]),
                    ));
                }
            }
        }
        // Art. 10.1: a side's line-up goes to the referee group; others see it once both are in.
        page.lineups = lineup_forms(m)
            .into_iter()
            .map(|f| LineupView {
                hidden: hidden(f.section) && f.submitted_at.is_some(),
                section: section_name(lang, f.section).to_string(),
                side: lang.side_name(f.side).to_string(),
                team: f.team.clone(),
                deadline: f.deadline.map(|x| show_at(zone, x)).unwrap_or_default(),
                submitted: f.submitted_at.map(|x| show_at(zone, x)).unwrap_or_default(),
                rows: f
                    .rows
                    .iter()
                    .filter(|_| !hidden(f.section))
                    .map(|r| LineupRowView {
                        order: r.order,
                        position: r.position.map(|p| p.to_string()).unwrap_or_default(),
                        name: r.name.clone(),
                        clock: r.presses_clock,
                    })
                    .collect(),
            })
            .collect();
        page.log = st
            .log
            .iter()
            .rev()
            .map(|l| {
                let secret = match &l.event {
                    Event::SubmitLineup { side, section, .. } if hidden(*section) => Some(lang.tf(
                        "relay.lineup_handed_in",
                        &[&lang.side_name(*side), &section_name(lang, *section)],
                    )),
                    _ => None,
                };
                (l, secret)
            })
            .map(|(l, secret)| LogView {
                seq: l.row.seq,
                at: show_at(zone, l.row.at),
                actor: l.row.actor.clone(),
                lines: l
                    .accepted
                    .iter()
                    .flat_map(|a| &a.effects)
                    .filter(|_| secret.is_none())
                    .map(|x| lang.relay_effect(x, &person_of(lang, &names)))
                    .collect(),
                what: secret.unwrap_or_else(|| event_text(lang, &l.event, &names)),
                withdrawn: l
                    .withdrawal
                    .as_ref()
                    .map(|w| lang.tf("relay.withdrawn_by", &[&w.actor, &w.recorded_at, &w.reason])),
            })
            .collect();
        page.withdraw_opts = st
            .log
            .iter()
            .rev()
            .filter(|l| l.withdrawal.is_none())
            .map(|l| {
                let what = event_text(lang, &l.event, &names);
                (l.row.seq.to_string(), format!("{} · {what}", l.row.seq))
            })
            .collect();
        for c in [Color::Black, Color::White] {
            let team = &m.side(c).team;
            let tag = lang.side_name(c);
            for p in &team.players {
                page.player_opts.push((p.id.to_string(), format!("{tag} · {}. {}", p.position, p.name)));
                let own = (p.id.to_string(), format!("{}. {}", p.position, p.name));
                match c {
                    Color::Black => page.black_players.push(own),
                    Color::White => page.white_players.push(own),
                }
            }
            for p in team.people() {
                let role = match team.role_of(p) {
                    Some(crate::domain::team::roster::Role::Leader) => lang.t("team.role_leader"),
                    Some(crate::domain::team::roster::Role::Coach) => lang.t("team.role_coach"),
                    _ => lang.t("team.role_player"),
                };
                page.person_opts.push((
                    p.to_string(),
                    format!("{tag} · {} ({role})", team.name_of(p).unwrap_or_default()),
                ));
            }
            page.resigner_opts.extend(resigners(lang, m, c));
            if let Some(seats) = m.side(c).seats {
                for p in seats.into_iter().flatten() {
                    page.seated_opts.push((
                        p.to_string(),
                        format!("{tag} · {}", names.get(&p).cloned().unwrap_or_default()),
                    ));
                }
            }
        }
    }
    ctx.render_status(opts.status, &page)
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

/// POST /t/{id}/matches/{mid}/start: when section 1 starts.
pub async fn set_start(
    ctx: Ctx,
    path: web::Path<(String, String)>,
    body: web::Bytes,
) -> Result<HttpResponse, AppError> {
    let [tid, mid] = ctx.ids([&path.0, &path.1])?;
    let (user, form) = ctx.staff_form(tid, Role::Arbiter, &body).await?;
    let version = ctx.version(&form)?;
    let mut f = FormView::from_form(&form);
    let t = ctx.db(move |c| tdb::get(c, tid)).await?;
    let zone = t.zone();
    let start = match form.get("start") {
        "" => Err(NoSuchTime::Unreadable),
        s => parse_at(zone, s),
    };
    // The match is played during the event (issue 13 item 8: a start dated 1969 is a typo).
    let on_event_days = |ts: Timestamp| {
        let day = zone.date_of(ts);
        day.as_str() >= t.start_date.as_str() && day.as_str() <= t.end_date.as_str()
    };
    if start.is_ok_and(|s| !on_event_days(s)) {
        f.error("start", ctx.lang.tf("relay.err_start_date", &[&t.start_date, &t.end_date]));
        let opts = Opts {
            f,
            banner: Some(ctx.t("form.has_errors").into()),
            status: StatusCode::BAD_REQUEST,
            ..Opts::default()
        };
        return match_page(&ctx, tid, mid, opts).await;
    }
    let start = match start {
        Ok(s) => s,
        Err(e) => {
            f.error("start", time_refusal(ctx.lang, e));
            let opts = Opts {
                f,
                banner: Some(ctx.t("form.has_errors").into()),
                status: StatusCode::BAD_REQUEST,
                ..Opts::default()
            };
            return match_page(&ctx, tid, mid, opts).await;
        }
    };
    let reason = ctx.reason(&form, "reason")?;
    let actor = user.actor();
    match ctx.db_raw(move |c| mdb::set_start(c, &actor, tid, mid, version, start, &reason)).await? {
        Ok(_) => Ok(ctx.redirect(&format!("/t/{tid}/matches/{mid}?done=start"))),
        Err(e) => refused(&ctx, tid, mid, "start", f, e).await,
    }
}

/// A refused match write: the page with the message beside the form of `kind`.
async fn refused(
    ctx: &Ctx,
    tid: i32,
    mid: i32,
    kind: &str,
    mut f: FormView,
    e: MatchError,
) -> Result<HttpResponse, AppError> {
    let lang = ctx.lang;
    let zone = ctx.db(move |c| tdb::get(c, tid)).await?.zone();
    let (status, msg) = match e {
        MatchError::Db(DbError::NotFound) => return Err(ctx.not_found()),
        MatchError::Db(e) => return Err(AppError::internal(lang, e)),
        MatchError::Stale { .. } => (StatusCode::CONFLICT, lang.t("relay.err_stale").to_string()),
        MatchError::WrongKind => (StatusCode::BAD_REQUEST, lang.t("relay.err_wrong_kind").to_string()),
        MatchError::NoStart => (StatusCode::CONFLICT, lang.t("relay.no_start").to_string()),
        MatchError::Started => (StatusCode::CONFLICT, lang.t("relay.err_started").to_string()),
        MatchError::Setup(_) => (StatusCode::CONFLICT, lang.match_not_ready(&e)),
        MatchError::Behind { asked, moves } => {
            (StatusCode::UNPROCESSABLE_ENTITY, lang.tf("relay.err_behind", &[&asked, &moves]))
        }
        MatchError::BoardPlayer { board } => {
            (StatusCode::UNPROCESSABLE_ENTITY, lang.tf("relay.err_board_player", &[&board]))
        }
        MatchError::BoardOrder { board } => {
            (StatusCode::UNPROCESSABLE_ENTITY, lang.tf("relay.err_board_order", &[&board]))
        }
        MatchError::NotChief if kind == "end" => {
            (StatusCode::FORBIDDEN, lang.t("relay.err_not_chief_ruling").to_string())
        }
        MatchError::NotChief => (StatusCode::FORBIDDEN, lang.t("relay.err_not_chief").to_string()),
        MatchError::TimeBackwards { last } => {
            (StatusCode::UNPROCESSABLE_ENTITY, lang.tf("relay.err_time_backwards", &[&show_at(zone, last)]))
        }
        MatchError::TimeOutsideMatch { start } => {
            (StatusCode::UNPROCESSABLE_ENTITY, lang.tf("relay.err_time_outside", &[&show_at(zone, start)]))
        }
        MatchError::ReplayStarted { replay } => {
            (StatusCode::CONFLICT, lang.tf("relay.err_replay_started", &[&replay]))
        }
        MatchError::NigiriPending => (StatusCode::CONFLICT, lang.t("relay.err_nigiri_pending").to_string()),
        MatchError::NoNigiri => (StatusCode::CONFLICT, lang.t("relay.err_no_nigiri").to_string()),
        MatchError::NigiriClosed => (StatusCode::CONFLICT, lang.t("relay.err_nigiri_closed").to_string()),
        MatchError::Invalid(_) => (StatusCode::BAD_REQUEST, lang.tf("err.number_range", &[&1, &200])),
        MatchError::ReasonRequired => {
            (StatusCode::BAD_REQUEST, lang.t("relay.err_reason_required").to_string())
        }
        MatchError::LaterRound { round } => {
            (StatusCode::CONFLICT, lang.tf("relay.err_later_round", &[&round]))
        }
        MatchError::Withdraw(w) => {
            let names = ctx
                .db(move |c| {
                    let st = mdb::relay_state(c, tid, mid)?;
                    Ok::<_, DbError>(st.m.as_ref().map(person_names).unwrap_or_default())
                })
                .await?;
            {
                let msg = lang.withdraw_error(&w, &person_of(lang, &names));
                (StatusCode::UNPROCESSABLE_ENTITY, msg)
            }
        }
        MatchError::Refused(Refusal::CardNotForOffence { offence, card, allowed }) => {
            let name = |c: Card| match c {
                Card::Advice => lang.t("relay.advice"),
                Card::Yellow => lang.t("relay.yellow"),
                Card::Red => lang.t("relay.red"),
            };
            let allowed = allowed.iter().map(|c| name(*c)).collect::<Vec<_>>().join(" / ");
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                lang.tf("relay.err_card_offence", &[&name(card), &lang.offence(offence), &allowed]),
            )
        }
        MatchError::Refused(r) => {
            let names = ctx
                .db(move |c| {
                    let st = mdb::relay_state(c, tid, mid)?;
                    Ok::<_, DbError>(st.m.as_ref().map(person_names).unwrap_or_default())
                })
                .await?;
            {
                let msg = lang.relay_refusal(&r, &person_of(lang, &names));
                (StatusCode::UNPROCESSABLE_ENTITY, msg)
            }
        }
    };
    f.error(kind, msg.clone());
    let opts = Opts { f, banner: Some(msg), status, ..Opts::default() };
    match_page(ctx, tid, mid, opts).await
}

/// What is wrong with a relay form: the field, and for a clock reading why it does not fit the
/// event's time control.
enum BadField {
    Field(&'static str),
    Clock(ClockInputError),
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

/// Both teams' line-ups for a section in one form (issue 13 item 10): either side may be left
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

/// The event of a relay form, and where in the game it goes; `Err` names the bad field.
/// `ruled_by`: the name of the arbiter recording a ruling that ends the match.
fn event_of(form: &Form, tc: &TimeControl, ruled_by: &str) -> Result<(Event, Option<AtMove>), BadField> {
    let side = |name: &'static str| match form.get(name) {
        "black" => Ok(Color::Black),
        "white" => Ok(Color::White),
        _ => Err(name),
    };
    let person = |name: &'static str| form.get(name).parse::<PersonId>().map_err(|_| name);
    let number = |name: &'static str| -> Result<Option<u32>, &'static str> {
        match form.get(name) {
            "" => Ok(None),
            v => v.parse::<u32>().map(Some).map_err(|_| name),
        }
    };
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
        "move" => (Event::Move { player: person("player")? }, number("number")?.map(AtMove::Is)),
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
        "card" => {
            let card = match form.get("card") {
                "advice" => Card::Advice,
                "yellow" => Card::Yellow,
                "red" => Card::Red,
                _ => return Err("card".into()),
            };
            let offence = Some(CardOffence::from_code(form.get("offence")).ok_or("offence")?);
            (Event::Card { person: person("person")?, card, offence }, after)
        }
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
        "end" => {
            let ending = Ending::from_code(form.get("ending")).ok_or("ending")?;
            let side = match form.get("side") {
                "" if !ending.one_side() => None,
                _ if !ending.one_side() => return Err("side".into()),
                _ => Some(side("side")?),
            };
            let reason = form.get("why").trim();
            if reason.is_empty() || reason.chars().count() > 500 || reason.chars().any(char::is_control) {
                return Err("why".into());
            }
            let event =
                Event::End { ending, side, reason: reason.to_string(), ruled_by: ruled_by.to_string() };
            (event, after)
        }
        "restore" => (Event::RestoreForPlayoff, None),
        _ => return Err("kind".into()),
    })
}

/// The events that decide the match: recorded only after a confirm step (issue 13 item 3).
const DECIDING: [&str; 3] = ["resign", "count", "end"];

const KINDS: [&str; 22] = [
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
];

/// POST /t/{id}/matches/{mid}/event: one event of a relay match.
pub async fn event(
    ctx: Ctx,
    path: web::Path<(String, String)>,
    body: web::Bytes,
) -> Result<HttpResponse, AppError> {
    let [tid, mid] = ctx.ids([&path.0, &path.1])?;
    let (user, form) = ctx.staff_form(tid, Role::Arbiter, &body).await?;
    let kind = KINDS
        .iter()
        .copied()
        .find(|k| *k == form.get("kind"))
        .ok_or_else(|| AppError::bad_request(ctx.lang, ctx.t("err.bad_form").to_string()))?;
    let version = ctx.version(&form)?;
    let mut f = FormView::from_form(&form);
    let t = ctx.db(move |c| tdb::get(c, tid)).await?;
    let zone = t.zone();
    let at = match parse_at(zone, form.get("at")) {
        Ok(at) => at,
        Err(e) => {
            f.error(kind, time_refusal(ctx.lang, e));
            let opts = Opts {
                f,
                banner: Some(ctx.t("form.has_errors").into()),
                status: StatusCode::BAD_REQUEST,
                ..Opts::default()
            };
            return match_page(&ctx, tid, mid, opts).await;
        }
    };
    let tc = t.settings().time_control;
    let ruled_by = if user.display_name.trim().is_empty() { &user.username } else { &user.display_name };
    let parsed = match kind {
        "lineups" => lineups_of(&form).map(|mut v| (v.remove(0), None, v)),
        _ => event_of(&form, &tc, ruled_by).map(|(e, m)| (e, m, Vec::new())),
    };
    let (event, at_move, also) = match parsed {
        Ok(x) => x,
        Err(bad) => {
            let msg = match bad {
                BadField::Field("black_count") => ctx.t("relay.err_count").to_string(),
                BadField::Field("b_main" | "w_main") => ctx.t("relay.err_clock_face").to_string(),
                BadField::Field("why") => ctx.t("relay.err_end_reason").to_string(),
                BadField::Field("side" | "by" | "ending" | "card" | "offence" | "section") => {
                    ctx.t("err.choice").to_string()
                }
                BadField::Field("b1" | "b2" | "w1" | "w2") => ctx.t("relay.err_lineups").to_string(),
                BadField::Clock(e) => ctx.lang.clock_input_error(&e),
                BadField::Field(_) => ctx.t("relay.err_field").to_string(),
            };
            f.error(kind, msg);
            let opts = Opts {
                f,
                banner: Some(ctx.t("form.has_errors").into()),
                status: StatusCode::BAD_REQUEST,
                ..Opts::default()
            };
            return match_page(&ctx, tid, mid, opts).await;
        }
    };
    let actor = user.actor();
    let input = mdb::EventInput { at, at_move, event, also };
    if DECIDING.contains(&kind) && form.get("confirm") != "1" {
        // Nothing that decides the match is recorded in one tap: show what it would do.
        let preview = input.clone();
        return match ctx.db_raw(move |c| mdb::preview_event(c, &actor, tid, mid, version, &preview)).await? {
            Ok((accepted, m)) => {
                let confirm = confirm_view(ctx.lang, zone, kind, &form, at, &input.event, &accepted, &m);
                match_page(&ctx, tid, mid, Opts { f, confirm: Some(confirm), ..Opts::default() }).await
            }
            Err(e) => refused(&ctx, tid, mid, kind, f, e).await,
        };
    }
    match ctx.db_raw(move |c| mdb::record_event(c, &actor, tid, mid, version, &input)).await? {
        Ok(_) => Ok(ctx.redirect(&format!("/t/{tid}/matches/{mid}?done={kind}#form-{kind}"))),
        Err(e) => refused(&ctx, tid, mid, kind, f, e).await,
    }
}

/// The confirm step of an event that decides the match: what it records and what follows.
pub struct ConfirmView {
    pub kind: String,
    pub what: String,
    pub lines: Vec<String>,
    pub result: String,
    /// The form as entered (the time resolved), sent again with `confirm=1`.
    pub fields: Vec<(String, String)>,
}

#[allow(clippy::too_many_arguments)]
fn confirm_view(
    lang: Lang,
    zone: EventZone,
    kind: &str,
    form: &Form,
    at: Timestamp,
    event: &Event,
    accepted: &[crate::domain::team::relay::Accepted],
    m: &RelayMatch,
) -> ConfirmView {
    let names = person_names(m);
    let mut fields: Vec<(String, String)> = form
        .fields
        .iter()
        .filter(|(k, _)| !matches!(k.as_str(), "csrf" | "confirm" | "at"))
        .cloned()
        .collect();
    fields.push(("at".into(), input_at(zone, at)));
    ConfirmView {
        kind: kind.to_string(),
        what: event_text(lang, event, &names),
        lines: accepted
            .iter()
            .flat_map(|a| &a.effects)
            .filter(|e| !matches!(e, Effect::MovesPlayed { .. }))
            .map(|x| lang.relay_effect(x, &person_of(lang, &names)))
            .collect(),
        result: result_text(lang, m),
        fields,
    }
}

/// POST /t/{id}/matches/{mid}/nigiri: the leaders' nigiri (Art. 11), `mode=board` with the
/// grab and the guess as done at the board, or `mode=seed` performed from the table's seed.
pub async fn nigiri(
    ctx: Ctx,
    path: web::Path<(String, String)>,
    body: web::Bytes,
) -> Result<HttpResponse, AppError> {
    let [tid, mid] = ctx.ids([&path.0, &path.1])?;
    let (user, form) = ctx.staff_form(tid, Role::Arbiter, &body).await?;
    let version = ctx.version(&form)?;
    let reason = ctx.reason(&form, "reason")?;
    let mut f = FormView::from_form(&form);
    let action = match form.get("mode") {
        "seed" => NigiriAction::Remote,
        "board" => {
            let grab = form.get("grab").trim().parse::<u32>().ok().filter(|g| (1..=200).contains(g));
            let guess = match form.get("guess") {
                "odd" => Some(Guess::Odd),
                "even" => Some(Guess::Even),
                _ => None,
            };
            match (grab, guess) {
                (Some(grab), Some(guess)) => NigiriAction::Record { grab, guess },
                (None, _) => {
                    f.error("nigiri", ctx.lang.tf("err.number_range", &[&1, &200]));
                    let banner = Some(ctx.t("form.has_errors").to_string());
                    let opts = Opts { f, banner, status: StatusCode::BAD_REQUEST, ..Opts::default() };
                    return match_page(&ctx, tid, mid, opts).await;
                }
                (_, None) => {
                    f.error("nigiri", ctx.t("err.choice"));
                    let banner = Some(ctx.t("form.has_errors").to_string());
                    let opts = Opts { f, banner, status: StatusCode::BAD_REQUEST, ..Opts::default() };
                    return match_page(&ctx, tid, mid, opts).await;
                }
            }
        }
        _ => return Err(AppError::bad_request(ctx.lang, ctx.t("err.bad_form").to_string())),
    };
    let actor = user.actor();
    match ctx.db_raw(move |c| mdb::leaders_nigiri(c, &actor, tid, mid, version, action, &reason)).await? {
        Ok(_) => Ok(ctx.redirect(&format!("/t/{tid}/matches/{mid}?done=nigiri"))),
        Err(e) => refused(&ctx, tid, mid, "nigiri", f, e).await,
    }
}

/// POST /t/{id}/matches/{mid}/withdraw: the chief arbiter withdraws a wrongly recorded event
/// (`seq`) with a reason. The log keeps it; the match is replayed from the events that stand.
pub async fn withdraw(
    ctx: Ctx,
    path: web::Path<(String, String)>,
    body: web::Bytes,
) -> Result<HttpResponse, AppError> {
    let [tid, mid] = ctx.ids([&path.0, &path.1])?;
    let (user, form) = ctx.staff_form(tid, Role::Arbiter, &body).await?;
    let version = ctx.version(&form)?;
    let seq = form
        .get("seq")
        .parse::<u32>()
        .map_err(|_| AppError::bad_request(ctx.lang, ctx.t("err.bad_form").to_string()))?;
    let reason = ctx.reason(&form, "reason")?;
    if reason.chars().any(char::is_control) {
        return Err(AppError::bad_request(ctx.lang, ctx.t("err.control_chars").to_string()));
    }
    let f = FormView::from_form(&form);
    let actor = user.actor();
    match ctx.db_raw(move |c| mdb::withdraw_event(c, &actor, tid, mid, version, seq, &reason)).await? {
        Ok(_) => Ok(ctx.redirect(&format!("/t/{tid}/matches/{mid}?done=withdraw"))),
        Err(e) => refused(&ctx, tid, mid, "withdraw", f, e).await,
    }
}

// ---------------------------------------------------------------------------------------------
// Board matches

pub struct BoardView {
    pub board: i32,
    pub first_colour: String,
    pub first: String,
    pub second: String,
    pub first_name: String,
    pub second_name: String,
    pub result: String,
    pub result_text: String,
}

#[derive(Template)]
#[template(path = "board_match.html")]
pub struct BoardPage {
    pub c: Chrome,
    pub tid: i32,
    pub mid: i32,
    pub title: String,
    pub staff: bool,
    pub version: i32,
    pub first_team: String,
    pub second_team: String,
    pub boards: Vec<BoardView>,
    pub first_players: Options,
    pub second_players: Options,
    pub result_opts: Options,
    pub record: String,
    pub f: FormView,
    pub banner: Option<String>,
    pub notice: Option<String>,
}

fn board_result_text(lang: Lang, r: BoardResult) -> &'static str {
    match r {
        BoardResult::None => "",
        BoardResult::Black => lang.t("res.black_wins"),
        BoardResult::White => lang.t("res.white_wins"),
        BoardResult::BlackForfeit => lang.t("res.black_forfeit"),
        BoardResult::WhiteForfeit => lang.t("res.white_forfeit"),
        BoardResult::Draw => lang.t("res.draw"),
        BoardResult::DoubleLoss => lang.t("res.double_loss"),
    }
}

async fn board_page(
    ctx: &Ctx,
    tid: i32,
    mid: i32,
    staff: bool,
    opts: Opts,
) -> Result<HttpResponse, AppError> {
    let (t, row, teams, boards, members) = ctx
        .db(move |c| {
            Ok::<_, DbError>((
                tdb::get(c, tid)?,
                mdb::get_match(c, tid, mid)?,
                tdb_teams::list(c, tid)?,
                mdb::boards_of(c, mid)?,
                tdb_teams::members_by_team(c, tid)?,
            ))
        })
        .await?;
    let lang = ctx.lang;
    let tnames = team_names(&teams);
    let second = row.white_team_id.unwrap_or(0);
    let players = |team: i32| -> Options {
        let mut v: Options = vec![(String::new(), "—".into())];
        if let Some(ms) = members.get(&team) {
            v.extend(
                ms.iter()
                    .filter(|m| m.role == "player")
                    .map(|m| (m.id.to_string(), format!("{}. {}", m.position.unwrap_or(0), m.name))),
            );
        }
        v
    };
    let name_of = |id: Option<i32>| -> String {
        id.and_then(|id| members.values().flatten().find(|m| m.id == id))
            .map(|m| m.name.clone())
            .unwrap_or_default()
    };
    let mut f = opts.f;
    let views = boards
        .iter()
        .map(|b| {
            let k = b.board;
            let r = b.board_result();
            if !f.vals.contains_key(&format!("first-{k}")) {
                f.set(&format!("first-{k}"), b.first_player_id.map(|p| p.to_string()).unwrap_or_default());
                f.set(&format!("second-{k}"), b.second_player_id.map(|p| p.to_string()).unwrap_or_default());
                f.set(&format!("result-{k}"), r.code());
            }
            BoardView {
                board: k,
                first_colour: lang.side_name(mdb::first_colour(k)).to_string(),
                first: f.v(&format!("first-{k}")).to_string(),
                second: f.v(&format!("second-{k}")).to_string(),
                first_name: name_of(b.first_player_id),
                second_name: name_of(b.second_player_id),
                result: f.v(&format!("result-{k}")).to_string(),
                result_text: board_result_text(lang, r).to_string(),
            }
        })
        .collect();
    let title = lang.tf("relay.title", &[&row.round_number, &row.table_no]);
    let first_team = tnames.get(&row.black_team_id).cloned().unwrap_or_default();
    let second_team = tnames.get(&second).cloned().unwrap_or_default();
    let title = format!("{title}: {first_team} — {second_team}");
    let page = BoardPage {
        c: ctx.chrome_t(&t, staff, title.clone()),
        tid,
        mid,
        title,
        staff,
        version: row.version,
        first_team,
        second_team,
        boards: views,
        first_players: players(row.black_team_id),
        second_players: players(second),
        result_opts: BoardResult::ALL
            .iter()
            .map(|r| {
                let label = if *r == BoardResult::None { "—" } else { board_result_text(lang, *r) };
                (r.code().to_string(), label.to_string())
            })
            .collect(),
        record: record_text(lang, &row),
        f,
        banner: opts.banner,
        notice: opts.notice,
    };
    ctx.render_status(opts.status, &page)
}

/// POST /t/{id}/matches/{mid}/boards: players and results of a board match.
pub async fn save_boards(
    ctx: Ctx,
    path: web::Path<(String, String)>,
    body: web::Bytes,
) -> Result<HttpResponse, AppError> {
    let [tid, mid] = ctx.ids([&path.0, &path.1])?;
    let (user, form) = ctx.staff_form(tid, Role::Arbiter, &body).await?;
    let version = ctx.version(&form)?;
    let f = FormView::from_form(&form);
    let row = ctx.db(move |c| mdb::get_match(c, tid, mid)).await?;
    let bad = || AppError::bad_request(ctx.lang, ctx.t("err.bad_form").to_string());
    let mut input = Vec::new();
    for k in 1..=row.boards {
        let who = |name: String| -> Result<Option<i32>, AppError> {
            match form.get(&name) {
                "" => Ok(None),
                v => v.parse::<i32>().map(Some).map_err(|_| bad()),
            }
        };
        let first = who(format!("first-{k}"))?;
        let second = who(format!("second-{k}"))?;
        let result = BoardResult::from_code(form.get(&format!("result-{k}"))).ok_or_else(bad)?;
        input.push(BoardInput { first, second, result });
    }
    let reason = ctx.reason(&form, "reason")?;
    let actor = user.actor();
    match ctx.db_raw(move |c| mdb::save_boards(c, &actor, tid, mid, version, &input, &reason)).await? {
        Ok(_) => Ok(ctx.redirect(&format!("/t/{tid}/matches/{mid}?done=boards"))),
        Err(e) => refused(&ctx, tid, mid, "boards", f, e).await,
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
    use crate::db::print_data::MatchSheetsError;
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
    use super::*;

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
        let e = Event::Move { player: 112 };
        assert_eq!(Lang::Zh.relay_event(&e, &person_of(Lang::Zh, &names)), "王一落子");
        let e = Event::Move { player: 9 };
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
