//! The relay match page (`templates/relay_match.html`, seed 003): the match's state, counts,
//! penalty log, line-ups and event log, and for arbiters the event forms that apply now.
//!
//! [`build`] makes the page from what `web::relay` loaded ([`Loaded`]); everything shown of a
//! match in play is one [`StateView`] ([`state_view`]), empty before the first event. The
//! reader decides what is hidden: line-ups handed in stay with the referee group until both
//! are in (Art. 10.1).

use crate::i18n::tr;
use std::collections::HashMap;

use super::super::i18n::Lang;
use super::pages::{Chrome, FormView, Options};
use super::text::team_names;
use crate::db::team_matches::{EventInput, LogItem, MatchRow, RelayState};
use crate::db::teams::TeamRow;
use crate::db::tournaments::TournamentRow;
use crate::domain::draw::nigiri::Guess;
use crate::domain::event_time::EventZone;
use crate::domain::team::cards::CardOffence;
use crate::domain::team::ending::{EndRecord, Ending};
use crate::domain::team::lineup::Section;
use crate::domain::team::relay::{Accepted, Effect, Event, Phase, RelayMatch, RequestKind, VoidOffence};
use crate::domain::team::roster::{LeaderBasis, Role};
use crate::domain::team::sheets::{
    lineup_forms, record_sheet, MatchRecordSheet, SheetClockRow, SheetPenaltyRow,
};
use crate::domain::team::{PersonId, Timestamp};
use crate::i18n::relay::ending_key;
use askama::Template;
use rules::board::Color;

// ---------------------------------------------------------------------------------------------
// Names and times

/// A timestamp as the venue reads it: "2026-12-05 09:30:00" in the event's zone.
pub fn show_at(zone: EventZone, ts: Timestamp) -> String {
    zone.date_time_of(ts)
}

/// A timestamp as a datetime-local value in the event's zone.
pub fn input_at(zone: EventZone, ts: Timestamp) -> String {
    zone.input_of(ts)
}

/// Names a person of the match by the rosters' names (a person the rosters do not know reads
/// "#112" / "112号队员"): the renderers of `crate::i18n` take it instead of ids in a sentence.
pub fn person_of(lang: Lang, names: &HashMap<PersonId, String>) -> impl Fn(PersonId) -> String + '_ {
    move |p| names.get(&p).cloned().unwrap_or_else(|| tr!(lang, "who.player_no", number = p))
}

/// A section's name in the reader's language (section 1–3, the play-off).
pub fn section_name(lang: Lang, s: Section) -> &'static str {
    lang.section(s)
}

/// Everyone on both rosters by person id: the page names people, never shows their ids.
pub fn person_names(m: &RelayMatch) -> HashMap<PersonId, String> {
    let mut names = HashMap::new();
    for c in [Color::Black, Color::White] {
        let t = &m.side(c).team;
        for p in t.people() {
            names.insert(p, t.name_of(p).unwrap_or_default().to_string());
        }
    }
    names
}

/// What an event recorded, as the log and the confirm step show it.
pub fn event_text(lang: Lang, e: &Event, names: &HashMap<PersonId, String>) -> String {
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
            time_left: None,
        }),
        Event::Resign { side, by: Some(p) } => {
            tr!(lang, "relay.resign_what", side = lang.side_name(*side), person = name(p))
        }
        _ => lang.relay_event(e, &person_of(lang, names)),
    }
}

/// The match's result as the page states it: the rules crate's result, then how it ended.
pub fn result_text(lang: Lang, m: &RelayMatch) -> String {
    let Some(r) = m.result() else { return String::new() };
    let text = lang.game_result(&r);
    match lang.ending_note(m) {
        Some(note) => format!("{text} · {note}"),
        None => text,
    }
}

// ---------------------------------------------------------------------------------------------
// The page

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

/// Which event forms apply to the match as it stands (the page shows only
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
    /// Who of the leader, coach and captain is present (Art. 10.1).
    pub attendance: bool,
    /// A delay in returning from a timeout (Art. 10.5 暂停 (2)): some side has taken one.
    pub delay: bool,
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
            attendance: m.phase() != Phase::Over,
            delay: m.in_play() && sides.iter().any(|s| !s.timeouts.is_empty()),
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

/// The confirm step of an event that decides the match: what it records and what follows.
pub struct ConfirmView {
    pub kind: String,
    pub what: String,
    pub lines: Vec<String>,
    pub result: String,
    /// The form as entered (the time resolved), sent again with `confirm=1`.
    pub fields: Vec<(String, String)>,
}

/// The match as its events left it; empty (`next_move` 1) before the match has a setup.
#[derive(Default)]
pub struct StateView {
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
    pub result: String,
    pub drawn: String,
    pub match_points: String,
    /// The forms that apply now.
    pub show: FormsShown,
    /// The section whose line-ups are due next, preselected in the line-up form (it decides
    /// nothing); and the last move of the section in play, for "section ended at move N".
    pub lineup_section: String,
    pub section_last: String,
    /// A side that cannot field the line-up due (fewer than two eligible players).
    pub short_of_players: Option<String>,
    /// The count from the position is offered (`/count`): in play, every move entered at the
    /// board with its point.
    pub count_link: bool,
    pub player_opts: Options,
    pub seated_opts: Options,
    pub person_opts: Options,
    /// The events that stand, latest first, for the withdrawal form.
    pub withdraw_opts: Options,
    /// Who may confirm a resignation (Art. 14: the executing leader; Art. 10.1 order first).
    pub resigner_opts: Options,
    /// Each side's players, for the one line-up form of both teams.
    pub black_players: Options,
    pub white_players: Options,
    /// Each team's leader, coach and captain for the attendance form: (id, label, present).
    pub staff: Vec<(String, String, bool)>,
    /// Persons barred from this game by a red card (Art. 24.3), named at the line-ups.
    pub barred_note: Option<String>,
    /// The time each side had left in the match this one replays (its first reading).
    pub time_left: Option<String>,
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
    pub time_control: String,
    pub side_opts: Options,
    pub section_opts: Options,
    /// The chief arbiter (or, while none is named, an organizer) may withdraw events.
    pub is_chief: bool,
    /// The endings a ruling may give the match (label with its article of seed 003).
    pub end_opts: Options,
    pub card_opts: Options,
    /// Offences with their articles; a timeout delay has its own form (Art. 10.5).
    pub offence_opts: Options,
    /// The stones the rules make void (Arts. 18.3, 19).
    pub void_opts: Options,
    /// What a delay in returning from a timeout costs (Art. 10.5 暂停 (2)).
    pub remedy_opts: Options,
    /// The replay ordered by the chief arbiter (match id), or the match this one replays.
    pub replay: Option<i32>,
    pub replay_of: Option<i32>,
    /// The confirm step of an event that decides the match.
    pub confirm: Option<ConfirmView>,
    pub f: FormView,
    pub banner: Option<String>,
    pub notice: Option<String>,
    /// The match in play.
    pub state: StateView,
}

impl RelayPage {
    /// The refusal shown beside the form of `kind`.
    pub fn error_of(&self, kind: &str) -> Option<&str> {
        self.f.err(kind)
    }
}

/// What the page is built from, as the handler loaded it.
pub struct Loaded {
    pub t: TournamentRow,
    pub row: MatchRow,
    pub teams: Vec<TeamRow>,
    /// The table's seed, for a match with a leaders' nigiri.
    pub nigiri_seed: Option<u64>,
    pub st: RelayState,
    pub is_chief: bool,
    /// The replay ordered for this match, if any.
    pub replay: Option<i32>,
}

/// What the request adds to the page: the form as typed with its messages, a banner or notice,
/// and the confirm step of a deciding event.
pub struct Shown {
    pub f: FormView,
    pub banner: Option<String>,
    pub notice: Option<String>,
    pub confirm: Option<ConfirmView>,
}

/// The page's title: "Round 2, table 1: Team A — Team B".
pub fn title(lang: Lang, row: &MatchRow, teams: &[TeamRow]) -> String {
    let tnames = team_names(teams);
    let tname = |id: i32| tnames.get(&id).cloned().unwrap_or_default();
    let title = tr!(lang, "relay.title", round = row.round_number, match = row.table_no);
    format!("{title}: {} — {}", tname(row.black_team_id), row.white_team_id.map(tname).unwrap_or_default())
}

/// The whole page. `c.staff` (the reader is on the tournament's staff) shows the forms and
/// the line-ups not yet public.
pub fn build(c: Chrome, lang: Lang, d: Loaded, shown: Shown) -> RelayPage {
    let zone = d.t.zone();
    let staff = c.staff;
    let row = &d.row;
    let mut state = match &d.st.m {
        Some(m) => state_view(lang, zone, staff, m, &d.st.log),
        None => StateView { next_move: 1, ..StateView::default() },
    };
    state.time_left = d.st.time_left.map(|e| {
        let [b, w] = e.clocks.map(|r| lang.clock_reading(&r));
        tr!(lang, "relay.time_left", black = b, white = w, move = e.move_number)
    });
    RelayPage {
        title: c.title.clone(),
        c,
        tid: d.t.id,
        mid: row.id,
        staff,
        version: row.version,
        start: row.start_at.map(|x| show_at(zone, x)).unwrap_or_default(),
        start_value: row.start_at.map(|x| input_at(zone, x)).unwrap_or_default(),
        started: row.setup.is_some(),
        setup_error: d.st.setup.as_ref().err().map(|e| lang.match_not_ready(e)),
        nigiri: nigiri_view(lang, row, &d.teams, d.nigiri_seed),
        time_control: lang.time_control(&d.t.settings().time_control),
        side_opts: side_opts(lang),
        section_opts: section_opts(lang),
        is_chief: d.is_chief,
        end_opts: Ending::ALL
            .iter()
            .map(|e| (e.code().to_string(), lang.t(ending_key(*e)).to_string()))
            .collect(),
        card_opts: card_opts(lang),
        offence_opts: CardOffence::ALL
            .iter()
            .filter(|o| **o != CardOffence::TimeoutDelay)
            .map(|o| (o.code().to_string(), lang.offence(*o).to_string()))
            .collect(),
        void_opts: VoidOffence::ALL
            .iter()
            .map(|o| (o.code().to_string(), lang.void_offence(*o).to_string()))
            .collect(),
        remedy_opts: vec![
            ("advice".into(), lang.t("relay.advice").into()),
            ("yellow".into(), lang.t("relay.yellow").into()),
            ("pass".into(), lang.t("relay.added_pass").into()),
        ],
        replay: d.replay,
        replay_of: row.replay_of,
        confirm: shown.confirm,
        f: shown.f,
        banner: shown.banner,
        notice: shown.notice,
        state,
    }
}

/// The sides as the forms offer them.
fn side_opts(lang: Lang) -> Options {
    vec![
        ("black".into(), lang.side_name(Color::Black).into()),
        ("white".into(), lang.side_name(Color::White).into()),
    ]
}

/// The sections as the forms offer them (the values `web::relay` reads back).
fn section_opts(lang: Lang) -> Options {
    [("1", Section::One), ("2", Section::Two), ("3", Section::Three), ("playoff", Section::Playoff)]
        .iter()
        .map(|(v, s)| (v.to_string(), section_name(lang, *s).to_string()))
        .collect()
}

/// The cards an arbiter gives: advice, yellow, red (seed 003's penalty scale).
fn card_opts(lang: Lang) -> Options {
    vec![
        ("advice".into(), lang.t("relay.advice").into()),
        ("yellow".into(), lang.t("relay.yellow").into()),
        ("red".into(), lang.t("relay.red").into()),
    ]
}

/// The leaders' nigiri (Art. 11): who holds and who guesses, the table's seed, the outcome
/// once done; `None` for a match without one.
fn nigiri_view(lang: Lang, row: &MatchRow, teams: &[TeamRow], seed: Option<u64>) -> Option<NigiriView> {
    let tnames = team_names(teams);
    let team_of = |t: u32| tnames.get(&i32::try_from(t).unwrap_or(0)).cloned().unwrap_or_default();
    row.nigiri().map(|n| NigiriView {
        roles: tr!(lang, "relay.nigiri_roles", holder = team_of(n.holder), guesser = team_of(n.guesser)),
        seed: n.record.and_then(|r| r.seed).or(seed).unwrap_or(0),
        outcome: n.record.map(|rec| {
            let guess = match rec.guess {
                Guess::Odd => lang.t("nigiri.guess_odd"),
                Guess::Even => lang.t("nigiri.guess_even"),
            };
            let correct = if rec.correct { lang.t("nigiri.correct") } else { lang.t("nigiri.wrong") };
            tr!(lang, "nigiri.outcome", grab = rec.grab, guess, correct, black = team_of(rec.black))
        }),
        remote: n.record.is_some_and(|r| r.seed.is_some()),
        open: row.setup.is_none() && n.record.is_none_or(|r| r.seed.is_none()),
    })
}

// ---------------------------------------------------------------------------------------------
// The match in play

/// Everything shown of the match as its standing events left it. `staff`: the reader sees the
/// line-ups handed in before they are public (Art. 10.1).
fn state_view(lang: Lang, zone: EventZone, staff: bool, m: &RelayMatch, log: &[LogItem]) -> StateView {
    let names = person_names(m);
    let hidden = |s: Section| !staff && !m.lineups_public(s);
    let sheet = record_sheet(m);
    let (clocks, playoff_clocks) = clock_views(lang, zone, &sheet);
    StateView {
        phase: phase_text(lang, m.phase()).to_string(),
        over: m.phase() == Phase::Over,
        playoff_pending: m.phase() == Phase::PlayoffPending,
        section: section_name(lang, m.section()).to_string(),
        interval: interval(lang, zone, m),
        moves: m.moves(),
        next_move: m.moves() + 1,
        to_move: lang.side_name(m.side_to_move()).to_string(),
        expected: expected(lang, m, &names),
        sides: [Color::Black, Color::White].iter().map(|&c| side_view(lang, m, c, &names, &hidden)).collect(),
        penalties: penalty_views(lang, zone, &sheet.penalties, &names),
        playoff_penalties: penalty_views(lang, zone, &sheet.playoff_penalties, &names),
        log: log_views(lang, zone, log, &names, &hidden),
        lineups: lineup_views(lang, zone, m, &hidden),
        clocks,
        playoff_clocks_missing: playoff_clocks.as_ref().is_some_and(|(_, missing)| *missing),
        playoff_clocks: playoff_clocks.map(|(p, _)| p),
        result: result_text(lang, m),
        drawn: m.first_result().map(|r| lang.game_result(&r)).unwrap_or_default(),
        match_points: match_points(m),
        show: FormsShown::of(m),
        lineup_section: lineup_due(m).to_string(),
        // Art. 17.8: moves beyond the quota are valid, so the section ends where play reached.
        section_last: m.section().last_move().map(|n| n.max(m.moves()).to_string()).unwrap_or_default(),
        count_link: m.phase() == Phase::Playing && m.moves() > 0 && m.board_moves().is_ok(),
        short_of_players: m.short_of_players().map(|(c, sec, n)| {
            tr!(
                lang,
                "relay.short_of_players",
                side = lang.side_name(c),
                count = n,
                section = section_name(lang, sec)
            )
        }),
        player_opts: both_sides(|c| player_opts(lang, m, c, true)),
        seated_opts: both_sides(|c| seated_opts(lang, m, c, &names)),
        person_opts: both_sides(|c| person_opts(lang, m, c)),
        withdraw_opts: withdraw_opts(lang, log, &names),
        resigner_opts: both_sides(|c| resigners(lang, m, c)),
        black_players: player_opts(lang, m, Color::Black, false),
        white_players: player_opts(lang, m, Color::White, false),
        staff: both_staff(lang, m),
        barred_note: barred_note(lang, m, &names),
        time_left: None,
    }
}

/// Each team's leader, coach and captain with whether they are present (Art. 10.1).
fn both_staff(lang: Lang, m: &RelayMatch) -> Vec<(String, String, bool)> {
    let mut out = Vec::new();
    for c in [Color::Black, Color::White] {
        let s = m.side(c);
        let t = &s.team;
        let staff = [
            (t.leader.as_ref().map(|x| x.id), "team.role_leader"),
            (t.coach.as_ref().map(|x| x.id), "team.role_coach"),
            (t.captain, "team.role_captain"),
        ];
        for (id, role) in staff {
            let Some(p) = id else { continue };
            let label =
                format!("{} · {} ({})", lang.side_name(c), t.name_of(p).unwrap_or_default(), lang.t(role));
            out.push((p.to_string(), label, !s.absent.contains(&p)));
        }
    }
    out
}

/// Who may not play this game for a red card (Art. 24.3 "禁止被罚人员在本局及下一局参与比赛"):
/// of the team's previous game, and of this one (a player who stayed on under Art. 24.4
/// finishes this game but not the next).
fn barred_note(lang: Lang, m: &RelayMatch, names: &HashMap<PersonId, String>) -> Option<String> {
    let barred: Vec<String> = [Color::Black, Color::White]
        .iter()
        .flat_map(|&c| m.side(c).barred.iter().map(move |p| (c, *p)))
        .map(|(c, p)| format!("{} · {}", lang.side_name(c), names.get(&p).cloned().unwrap_or_default()))
        .collect();
    (!barred.is_empty())
        .then(|| tr!(lang, "relay.barred_note", players = barred.join(lang.t("team.list_sep"))))
}

fn phase_text(lang: Lang, p: Phase) -> &'static str {
    match p {
        Phase::Playing => lang.t("relay.phase_playing"),
        Phase::PlayoffPending => lang.t("relay.phase_playoff_pending"),
        Phase::Over => lang.t("relay.phase_over"),
    }
}

/// The next section whose line-ups are not both in, as the line-up form's value.
fn lineup_due(m: &RelayMatch) -> &'static str {
    let due = Section::ALL.into_iter().filter(|&s| s >= m.section()).find(|s| {
        (*s != Section::Playoff || m.section() == Section::Playoff)
            && [Color::Black, Color::White].iter().any(|&c| m.side(c).lineups[s.index()].is_none())
    });
    match due {
        Some(Section::One) => "1",
        Some(Section::Two) => "2",
        Some(Section::Three) => "3",
        Some(Section::Playoff) => "playoff",
        None => "",
    }
}

/// The 5-minute break between sections (Art. 10.2) and the 3-minute preparation of the
/// play-off (Art. 12), with the time the next part starts.
fn interval(lang: Lang, zone: EventZone, m: &RelayMatch) -> Option<String> {
    m.waiting_for_section().map(|(sec, starts)| match sec {
        Section::Playoff => {
            tr!(
                lang,
                "relay.preparation",
                at = show_at(zone, starts),
                minutes = m.config().playoff_prep_secs / 60
            )
        }
        _ => tr!(
            lang,
            "relay.break",
            section = section_name(lang, sec),
            at = show_at(zone, starts),
            minutes = m.config().break_secs / 60,
        ),
    })
}

/// Who plays the next move (Art. 10.3's clockwise order), "free choice" when the order leaves
/// it open, "—" while nobody is seated or the match is not being played.
pub fn expected(lang: Lang, m: &RelayMatch, names: &HashMap<PersonId, String>) -> String {
    let in_play = m.side(Color::Black).seats.is_some() && m.side(Color::White).seats.is_some();
    match (m.phase(), in_play, m.expected_player()) {
        (Phase::Playing, true, Some(p)) => names.get(&p).cloned().unwrap_or_default(),
        (Phase::Playing, true, None) => {
            tr!(lang, "relay.free_choice", side = lang.side_name(m.side_to_move()))
        }
        _ => "—".into(),
    }
}

/// "Team A 3 : 0 Team B" once the match has its match points.
fn match_points(m: &RelayMatch) -> String {
    m.match_points()
        .map(|mp| {
            format!(
                "{} {} : {} {}",
                m.side(Color::Black).team.name,
                mp[0],
                mp[1],
                m.side(Color::White).team.name
            )
        })
        .unwrap_or_default()
}

/// One side's counts and people: penalty stones, order errors, substitutions and timeouts
/// left, who is seated, a pending request, the executing leader (Art. 10.1 order), who is
/// barred. `hidden`: sections whose line-ups this reader may not see yet (Art. 10.1).
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
            tr!(lang, "relay.pending_substitution", incoming = name(incoming), out = name(out))
        }
    };
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
        executing: executing(lang, m, c, &name, hidden),
        barred: s.barred.iter().map(|&p| name(p)).collect::<Vec<_>>().join(", "),
    }
}

/// Side `c`'s executing leader now, with the basis of the role (Art. 10.1 among those recorded
/// present: leader, coach, captain, then a section's player); nothing while that basis is a
/// line-up this reader may not see yet.
fn executing(
    lang: Lang,
    m: &RelayMatch,
    c: Color,
    name: &dyn Fn(PersonId) -> String,
    hidden: &dyn Fn(Section) -> bool,
) -> String {
    m.acting_leader(c)
        .filter(|el| !matches!(el.basis, LeaderBasis::SectionPlayer(sec) if hidden(sec)))
        .map(|el| lang.executing_leader(&el, name))
        .unwrap_or_default()
}

/// The penalty log's rows (seed 003's penalty stones, with their running totals and what each
/// ruling did).
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

/// The clock readings and the play-off's time (Art. 12) as the printed record sheet has them:
/// the rows, and the play-off's `(black, white, note)` with whether its reading is missing.
#[allow(clippy::type_complexity)]
fn clock_views(
    lang: Lang,
    zone: EventZone,
    sheet: &MatchRecordSheet,
) -> (Vec<ClockView>, Option<((String, String, String), bool)>) {
    let clock_pair = |r: &SheetClockRow| -> (String, String) {
        (lang.clock_reading(&r.clocks[0]), lang.clock_reading(&r.clocks[1]))
    };
    let rows = sheet
        .clocks
        .iter()
        .map(|r| {
            let (black, white) = clock_pair(r);
            let section = section_name(lang, r.section).to_string();
            ClockView { move_no: r.move_number, section, at: show_at(zone, r.at), black, white }
        })
        .collect();
    let playoff = sheet.playoff_clocks.as_ref().map(|pc| match &pc.reading {
        Some(r) => {
            let (black, white) = clock_pair(r);
            ((black, white, tr!(lang, "relay.playoff_clocks_from", move = pc.after_move)), false)
        }
        None => {
            let note = tr!(lang, "relay.playoff_clocks_missing", move = pc.after_move);
            ((String::new(), String::new(), note), true)
        }
    });
    (rows, playoff)
}

/// The line-up forms of every section. Art. 10.1: a side's line-up goes to the referee group;
/// others see it once both are in (until then only that it was handed in).
fn lineup_views(
    lang: Lang,
    zone: EventZone,
    m: &RelayMatch,
    hidden: &dyn Fn(Section) -> bool,
) -> Vec<LineupView> {
    lineup_forms(m)
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
        .collect()
}

/// The event log, latest first: what each event recorded and did, and its withdrawal. A
/// line-up not yet public reads only "handed in" (Art. 10.1).
fn log_views(
    lang: Lang,
    zone: EventZone,
    log: &[LogItem],
    names: &HashMap<PersonId, String>,
    hidden: &dyn Fn(Section) -> bool,
) -> Vec<LogView> {
    log.iter()
        .rev()
        .map(|l| {
            let secret = match &l.event {
                Event::SubmitLineup { side, section, .. } if hidden(*section) => Some(tr!(
                    lang,
                    "relay.lineup_handed_in",
                    side = lang.side_name(*side),
                    section = section_name(lang, *section),
                )),
                _ => None,
            };
            LogView {
                seq: l.row.seq,
                at: show_at(zone, l.row.at),
                actor: l.row.actor.clone(),
                lines: l
                    .accepted
                    .iter()
                    .flat_map(|a| &a.effects)
                    .filter(|_| secret.is_none())
                    .map(|x| lang.relay_effect(x, &person_of(lang, names)))
                    .collect(),
                what: secret.unwrap_or_else(|| event_text(lang, &l.event, names)),
                withdrawn: l.withdrawal.as_ref().map(|w| {
                    tr!(lang, "relay.withdrawn_by", actor = w.actor, at = w.recorded_at, reason = w.reason)
                }),
            }
        })
        .collect()
}

/// The events that stand, latest first: what the chief arbiter may withdraw.
fn withdraw_opts(lang: Lang, log: &[LogItem], names: &HashMap<PersonId, String>) -> Options {
    log.iter()
        .rev()
        .filter(|l| l.withdrawal.is_none())
        .map(|l| {
            let what = event_text(lang, &l.event, names);
            (l.row.seq.to_string(), format!("{} · {what}", l.row.seq))
        })
        .collect()
}

/// Black's options, then White's.
fn both_sides(opts: impl Fn(Color) -> Options) -> Options {
    let mut v = opts(Color::Black);
    v.extend(opts(Color::White));
    v
}

/// Side `c`'s players as "3. Name", `tagged` with the side's colour for a form of both sides.
fn player_opts(lang: Lang, m: &RelayMatch, c: Color, tagged: bool) -> Options {
    let tag = lang.side_name(c);
    m.side(c)
        .team
        .players
        .iter()
        .map(|p| match tagged {
            true => (p.id.to_string(), format!("{tag} · {}. {}", p.position, p.name)),
            false => (p.id.to_string(), format!("{}. {}", p.position, p.name)),
        })
        .collect()
}

/// Everyone on side `c`'s roster with their role (a card may go to any of them).
fn person_opts(lang: Lang, m: &RelayMatch, c: Color) -> Options {
    let team = &m.side(c).team;
    let tag = lang.side_name(c);
    team.people()
        .map(|p| {
            let role = match team.role_of(p) {
                Some(Role::Leader) => lang.t("team.role_leader"),
                Some(Role::Coach) => lang.t("team.role_coach"),
                _ => lang.t("team.role_player"),
            };
            (p.to_string(), format!("{tag} · {} ({role})", team.name_of(p).unwrap_or_default()))
        })
        .collect()
}

/// Side `c`'s players at the board now.
fn seated_opts(lang: Lang, m: &RelayMatch, c: Color, names: &HashMap<PersonId, String>) -> Options {
    let tag = lang.side_name(c);
    let seats = m.side(c).seats.into_iter().flat_map(|s| s.into_iter().flatten());
    seats
        .map(|p| (p.to_string(), format!("{tag} · {}", names.get(&p).cloned().unwrap_or_default())))
        .collect()
}

/// Who the resignation form offers for side `c` (Art. 14): its executing leader first, marked
/// (Art. 10.1 among those present), then everyone else of the team who is not at the board
/// and not barred (the form refuses them naming the executing leader).
fn resigners(lang: Lang, m: &RelayMatch, c: Color) -> Options {
    let s = m.side(c);
    let tag = lang.side_name(c);
    let first = m.acting_leader(c).map(|el| el.person);
    let mut people: Vec<PersonId> = first.into_iter().collect();
    people.extend(s.team.people().filter(|p| Some(*p) != first));
    people
        .into_iter()
        .filter(|p| !s.barred.contains(p) && !s.seats.is_some_and(|seats| seats.contains(&Some(*p))))
        .map(|p| {
            let role = match s.team.role_of(p) {
                Some(Role::Leader) => lang.t("team.role_leader"),
                Some(Role::Coach) => lang.t("team.role_coach"),
                Some(Role::Player { captain: true }) => lang.t("team.role_captain"),
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

// ---------------------------------------------------------------------------------------------
// The confirm step

/// The confirm step of a deciding event (a resignation, a count or a ruling ends the match,
/// so it is shown once more before it is recorded): what it records, what follows
/// (moves played in order aside), the result it gives, and the form again with its time
/// resolved (`fields`: the form as typed, without its token).
pub fn confirm_view(
    lang: Lang,
    zone: EventZone,
    kind: &str,
    fields: &[(String, String)],
    input: &EventInput,
    accepted: &[Accepted],
    m: &RelayMatch,
) -> ConfirmView {
    let names = person_names(m);
    let mut fields: Vec<(String, String)> =
        fields.iter().filter(|(k, _)| !matches!(k.as_str(), "csrf" | "confirm" | "at")).cloned().collect();
    fields.push(("at".into(), input_at(zone, input.at)));
    ConfirmView {
        kind: kind.to_string(),
        what: event_text(lang, &input.event, &names),
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
