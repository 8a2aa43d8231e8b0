//! The teams page (`templates/teams.html`): the team settings, as a form or in words, and the
//! list of teams with their rosters' counts.

use crate::i18n::tr;
use std::collections::BTreeMap;

use super::super::i18n::Lang;
use super::pages::{Chrome, FormView, Options};
use super::text::{is_team_event, rules_flag, short_warning};
use crate::db::teams::TeamRow;
use crate::db::tournaments::TournamentRow;
use crate::domain::team::event::{Format, TeamSettings};
use crate::domain::team::roster::Team;
use askama::Template;

pub struct SettingsOptions {
    pub format: Options,
    pub match_points: Options,
    pub pairing: Options,
    pub equal_count: Options,
    pub playoff_clock: Options,
    pub colours: Options,
    pub tiebreaks: Options,
    pub rr_bye: Options,
    pub cycle: Options,
    pub knockout_draw: Options,
}

pub struct TeamItem {
    pub id: i32,
    pub name: String,
    pub unit: String,
    pub rating: String,
    pub leader: String,
    pub coach: String,
    pub captain: String,
    pub players: usize,
    /// Fewer players than the event's matches need: the warning shown beside the count.
    pub short: Option<String>,
}

#[derive(Template)]
#[template(path = "teams.html")]
pub struct TeamsPage {
    pub c: Chrome,
    pub tid: i32,
    pub is_team: bool,
    pub is_organizer: bool,
    pub version: i32,
    pub f: FormView,
    pub opt: SettingsOptions,
    pub frozen: bool,
    /// The settings in words (read-only list; the frozen settings once a round is paired).
    pub summary: Vec<(String, String)>,
    pub items: Vec<TeamItem>,
    /// Teams that cannot play the event's matches yet (too few players for the boards).
    pub short_warning: Option<String>,
    /// A relay event whose tournament rule set is the individual one.
    pub rules_flag: Option<String>,
    pub banner: Option<String>,
    pub notice: Option<String>,
}

/// What the handler loaded for the teams page.
pub struct Loaded {
    pub t: TournamentRow,
    pub settings: TeamSettings,
    /// The settings' version, for stale saves.
    pub version: i32,
    pub teams: BTreeMap<i32, (TeamRow, Team)>,
    /// Rounds paired so far: from the first, the settings are frozen.
    pub rounds: i64,
    pub organizer: bool,
}

/// The teams page of `d`; `f` and `banner` are a refused save's (else the stored settings).
pub fn build(
    c: Chrome,
    lang: Lang,
    d: Loaded,
    f: Option<FormView>,
    banner: Option<String>,
    notice: Option<String>,
) -> TeamsPage {
    let s = &d.settings;
    TeamsPage {
        c,
        tid: d.t.id,
        is_team: is_team_event(&d.t),
        is_organizer: d.organizer,
        version: d.version,
        f: f.unwrap_or_else(|| settings_form(s)),
        opt: settings_options(lang),
        frozen: d.rounds > 0,
        summary: settings_summary(lang, s),
        short_warning: short_warning(lang, s, d.teams.values().map(|(r, t)| (r, t))),
        rules_flag: rules_flag(lang, s, &d.t),
        items: team_items(lang, s.players_needed(), &d.teams),
        banner,
        notice,
    }
}

/// The team list: each team with its officials and how many players it has (flagged when
/// fewer than a match needs).
fn team_items(lang: Lang, need: usize, teams: &BTreeMap<i32, (TeamRow, Team)>) -> Vec<TeamItem> {
    teams
        .values()
        .map(|(row, team)| TeamItem {
            short: (team.players.len() < need).then(|| tr!(lang, "team.short_cell", need)),
            id: row.id,
            name: row.name.clone(),
            unit: row.unit.clone(),
            rating: row.rating.map(|r| r.to_string()).unwrap_or_default(),
            leader: team.leader.as_ref().map(|s| s.name.clone()).unwrap_or_default(),
            coach: team.coach.as_ref().map(|s| s.name.clone()).unwrap_or_default(),
            captain: team.captain.and_then(|p| team.name_of(p)).unwrap_or_default().to_string(),
            players: team.players.len(),
        })
        .collect()
}

fn opts(lang: Lang, items: &[(&str, &str)]) -> Options {
    items.iter().map(|(v, k)| (v.to_string(), lang.t(k).to_string())).collect()
}

fn settings_options(lang: Lang) -> SettingsOptions {
    SettingsOptions {
        format: opts(lang, &[("relay", "team.format_relay"), ("boards", "team.format_boards")]),
        match_points: opts(
            lang,
            &[("3-1-0", "team.mp_310"), ("2-1-0", "team.mp_210"), ("main_board", "team.mp_main_board")],
        ),
        pairing: opts(
            lang,
            &[
                ("round_robin", "team.pairing_rr"),
                ("swiss", "team.pairing_swiss"),
                ("knockout", "team.pairing_ko"),
            ],
        ),
        equal_count: opts(lang, &[("draw", "team.equal_draw"), ("white", "team.equal_white")]),
        tiebreaks: opts(lang, &[("generic", "team.tb_generic"), ("weijia", "team.tb_weijia")]),
        colours: opts(lang, &[("draw", "team.colours_draw"), ("leaders_nigiri", "team.colours_nigiri")]),
        rr_bye: opts(lang, &[("none", "team.rr_bye_none"), ("win", "team.rr_bye_win")]),
        playoff_clock: opts(
            lang,
            &[
                ("game_end", "team.playoff_clock_game_end"),
                ("section_two_end", "team.playoff_clock_section_two"),
            ],
        ),
        cycle: opts(
            lang,
            &[
                ("no_result", "team.cycle_no_result"),
                ("draw", "team.cycle_draw"),
                ("extra_game", "team.cycle_extra_game"),
            ],
        ),
        knockout_draw: opts(
            lang,
            &[("by_move", "team.knockout_draw_by_move"), ("replay", "team.knockout_draw_replay")],
        ),
    }
}

/// The team settings as words (label, value), for readers without the form and for the list
/// of settings a paired round freezes: never the stored codes, which no reader can read.
fn settings_summary(lang: Lang, s: &TeamSettings) -> Vec<(String, String)> {
    let o = settings_options(lang);
    let word = |opts: &Options, code: &str| {
        opts.iter().find(|(v, _)| v == code).map(|(_, l)| l.clone()).unwrap_or_else(|| code.to_string())
    };
    let mut out = vec![(lang.t("team.format").to_string(), word(&o.format, s.format.code()))];
    if s.format == Format::Boards {
        out.push((lang.t("team.boards").to_string(), s.boards.to_string()));
        if let Some(b) = s.main_board {
            out.push((lang.t("team.main_board").to_string(), b.to_string()));
        }
    }
    out.extend([
        (lang.t("team.match_points").to_string(), word(&o.match_points, s.match_points.code())),
        (lang.t("team.pairing").to_string(), word(&o.pairing, s.pairing.code())),
        (lang.t("team.rr_bye").to_string(), word(&o.rr_bye, s.rr_bye.code())),
    ]);
    if s.format == Format::Relay {
        out.extend([
            (lang.t("team.equal_count").to_string(), word(&o.equal_count, s.equal_count.code())),
            (lang.t("team.playoff_clock").to_string(), word(&o.playoff_clock, s.playoff_clock.code())),
            (lang.t("team.knockout_draw").to_string(), word(&o.knockout_draw, s.knockout_draw.code())),
            (lang.t("team.cycle").to_string(), word(&o.cycle, s.cycle.code())),
            (lang.t("team.colours").to_string(), word(&o.colours, s.colours.code())),
        ]);
    }
    out.push((lang.t("team.tiebreaks").to_string(), word(&o.tiebreaks, s.tiebreaks.code())));
    out
}

fn settings_form(s: &TeamSettings) -> FormView {
    let mut f = FormView::default();
    f.set("format", s.format.code());
    f.set("boards", s.boards.to_string());
    f.set("match_points", s.match_points.code());
    f.set("main_board", s.main_board.map(|b| b.to_string()).unwrap_or_default());
    f.set("pairing", s.pairing.code());
    f.set("equal_count", s.equal_count.code());
    f.set("tiebreaks", s.tiebreaks.code());
    f.set("playoff_clock", s.playoff_clock.code());
    f.set("colours", s.colours.code());
    f.set("rr_bye", s.rr_bye.code());
    f.set("cycle", s.cycle.code());
    f.set("knockout_draw", s.knockout_draw.code());
    f
}
