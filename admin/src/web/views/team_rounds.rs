//! The team rounds page (`templates/team_rounds.html`): every team round with its matches,
//! how each was paired and decided, and for the organizer the form that pairs the next round.

use crate::i18n::tr;
use std::collections::{BTreeMap, HashMap};

use super::super::i18n::Lang;
use super::pages::{Chrome, FormView};
use super::text::{record_text, short_warning, team_names};
use crate::db::team_matches::{MatchRow, TeamRoundRow};
use crate::db::teams::TeamRow;
use crate::db::tournaments::TournamentRow;
use crate::db::users::Role;
use crate::domain::team::event::{TeamPairing, TeamSettings};
use crate::domain::team::roster::Team;
use crate::domain::team::standings::TeamOutcome;
use askama::Template;

pub struct MatchItem {
    pub id: i32,
    pub table: i32,
    pub black: String,
    pub white: String,
    pub bye: bool,
    pub stage: String,
    pub kind: String,
    pub result: String,
    pub winner: String,
}

pub struct RoundBlock {
    pub number: i32,
    pub pairing: String,
    pub seed: String,
    pub matches: Vec<MatchItem>,
}

#[derive(Template)]
#[template(path = "team_rounds.html")]
pub struct TeamRoundsPage {
    pub c: Chrome,
    pub tid: i32,
    pub rounds: Vec<RoundBlock>,
    pub is_organizer: bool,
    pub next: i32,
    pub can_pair: bool,
    pub last: i32,
    pub pairing: String,
    pub declared: i32,
    pub n_teams: usize,
    /// Teams that cannot play yet: pairing is refused until they can (too few
    /// players for the boards).
    pub short_warning: Option<String>,
    pub f: FormView,
    pub banner: Option<String>,
}

/// What the page is built from, as the handler loaded it.
pub struct Loaded {
    pub t: TournamentRow,
    pub settings: TeamSettings,
    pub teams: Vec<TeamRow>,
    pub rounds: Vec<TeamRoundRow>,
    pub matches: Vec<MatchRow>,
    pub rosters: BTreeMap<i32, (TeamRow, Team)>,
}

/// A pairing method's name (an unknown code reads as round robin, the default).
pub fn pairing_name(lang: Lang, code: &str) -> &'static str {
    match TeamPairing::from_code(code) {
        Some(TeamPairing::RoundRobin) => lang.t("team.pairing_rr"),
        Some(TeamPairing::Swiss) => lang.t("team.pairing_swiss"),
        Some(TeamPairing::Knockout) => lang.t("team.pairing_ko"),
        None => lang.t("team.pairing_rr"),
    }
}

/// The whole page for a reader of `role` (staff see the short-team warning, the organizer
/// the pairing form).
pub fn build(
    c: Chrome,
    lang: Lang,
    role: Option<Role>,
    d: Loaded,
    f: FormView,
    banner: Option<String>,
) -> TeamRoundsPage {
    let names = team_names(&d.teams);
    let mut by_round: BTreeMap<i32, Vec<&MatchRow>> = BTreeMap::new();
    for m in &d.matches {
        by_round.entry(m.round_number).or_default().push(m);
    }
    let rounds = d
        .rounds
        .iter()
        .map(|r| RoundBlock {
            number: r.number,
            pairing: pairing_name(lang, &r.pairing).to_string(),
            seed: r.seed.clone(),
            matches: by_round
                .get(&r.number)
                .map(|ms| match_items(lang, &d.settings, r, ms, &names))
                .unwrap_or_default(),
        })
        .collect();
    let last = d.rounds.last().map(|r| r.number).unwrap_or(0);
    let rosters = &d.rosters;
    TeamRoundsPage {
        c,
        tid: d.t.id,
        rounds,
        is_organizer: role == Some(Role::Organizer),
        next: last + 1,
        can_pair: last < d.t.rounds,
        last,
        pairing: pairing_name(lang, d.settings.pairing.code()).to_string(),
        declared: d.t.rounds,
        n_teams: d.teams.len(),
        short_warning: role
            .is_some()
            .then(|| short_warning(lang, &d.settings, rosters.values().map(|(r, t)| (r, t))))
            .flatten(),
        f,
        banner,
    }
}

/// The matches of round `r` as the list shows them.
fn match_items(
    lang: Lang,
    s: &TeamSettings,
    r: &TeamRoundRow,
    ms: &[&MatchRow],
    names: &HashMap<i32, String>,
) -> Vec<MatchItem> {
    let name = |id: i32| names.get(&id).cloned().unwrap_or_else(|| format!("#{id}"));
    ms.iter()
        .map(|m| MatchItem {
            id: m.id,
            table: m.table_no,
            black: name(m.black_team_id),
            white: m.white_team_id.map(name).unwrap_or_default(),
            bye: m.is_bye(),
            stage: stage(lang, &r.pairing).to_string(),
            kind: kind(lang, m),
            result: if m.is_bye() {
                tr!(lang, "team.bye_points", points = s.bye_points())
            } else {
                record_text(lang, m)
            },
            winner: winner(lang, m, &name),
        })
        .collect()
}

/// How the round was paired (a Swiss round is no round robin).
fn stage(lang: Lang, pairing: &str) -> &'static str {
    match TeamPairing::from_code(pairing) {
        Some(TeamPairing::Knockout) => lang.t("team.stage_ko"),
        Some(TeamPairing::Swiss) => lang.t("team.stage_swiss"),
        _ => lang.t("team.stage_rr"),
    }
}

/// What kind of match: boards (§13.2), or relay with its leaders' nigiri pending (Art. 11) or
/// as the replay of another.
fn kind(lang: Lang, m: &MatchRow) -> String {
    if m.boards > 0 {
        tr!(lang, "team.kind_boards", boards = m.boards)
    } else if m.nigiri_pending() {
        format!("{} · {}", lang.t("team.kind_relay"), lang.t("team.nigiri_pending"))
    } else if m.replay_of.is_some() {
        format!("{} · {}", lang.t("team.kind_relay"), lang.t("team.replay_match"))
    } else {
        lang.t("team.kind_relay").to_string()
    }
}

/// Who won the match, or how it ended without a winner; nothing while undecided.
fn winner(lang: Lang, m: &MatchRow, name: &dyn Fn(i32) -> String) -> String {
    match m.record().map(|r| r.outcome) {
        Some(TeamOutcome::FirstWins) => name(m.black_team_id),
        Some(TeamOutcome::SecondWins) => m.white_team_id.map(name).unwrap_or_default(),
        Some(TeamOutcome::Draw) => lang.t("team.draw").to_string(),
        Some(TeamOutcome::DoubleLoss) => lang.t("team.both_lose").to_string(),
        Some(TeamOutcome::NoResult) => lang.t("team.replayed").to_string(),
        None => String::new(),
    }
}
