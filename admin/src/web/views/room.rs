//! The research room (研究室, seed 003 Art. 10.1, `templates/room.html`): a team's relay game as
//! it stands, with no delay (the room follows the game; the public board is the one behind), and
//! the section on the team's page where organizers issue or revoke the room's address.
//!
//! [`build`] makes the page from what `web::room` loaded: the match shown (the one in play, else
//! the latest, else none), its board drawn from `domain::team::at_board::position` when every
//! move was entered with its point, else the match's state and why there is no board; the team's
//! other matches linked. The page names people, never shows their ids or contact data, and shows
//! nothing of another team's room.

use super::super::i18n::Lang;
use super::board::{self as vb, Svg};
use super::pages::Chrome;
use super::relay_match::{expected, person_names, result_text, section_name, title};
use crate::db::team_matches::MatchRow;
use crate::db::teams::TeamRow;
use crate::db::tournaments::TournamentRow;
use crate::domain::team::at_board::{self, Gap};
use crate::domain::team::relay::{Phase, RelayMatch};
use crate::i18n::tr;
use askama::Template;
use rules::board::Color;

/// A match of the team, as the list links it.
pub struct MatchLink {
    pub href: String,
    pub title: String,
    pub state: String,
    /// The match the page shows.
    pub shown: bool,
}

/// The match the page shows.
pub struct MatchView {
    pub title: String,
    /// "本队执黑" (empty while the leaders' nigiri is still to decide the colours).
    pub colour: String,
    pub phase: String,
    pub started: bool,
    pub section: String,
    pub moves: String,
    pub seats: Vec<super::relay_board::Seat>,
    pub expected: String,
    pub clock: String,
    pub stones: String,
    pub errors: String,
    pub result: String,
    /// The record's address once the match is over and every move has its point.
    pub sgf: Option<String>,
    pub board: Option<(Svg, super::relay_board::RelayStatus)>,
    /// Why no board is drawn.
    pub no_board: String,
}

#[derive(Template)]
#[template(path = "room.html")]
pub struct RoomPage {
    pub c: Chrome,
    pub team: String,
    pub event: String,
    pub shown: Option<MatchView>,
    pub matches: Vec<MatchLink>,
}

/// A match of the team with its state after its events (`None`: it cannot start yet).
pub struct TeamMatch {
    pub row: MatchRow,
    pub m: Option<RelayMatch>,
}

impl TeamMatch {
    /// Started and not over.
    pub fn in_play(&self) -> bool {
        self.m.as_ref().is_some_and(|m| !m.events().is_empty() && m.phase() != Phase::Over)
    }
}

/// What `web::room` loaded for a room's page.
pub struct Loaded {
    pub t: TournamentRow,
    pub team: TeamRow,
    pub teams: Vec<TeamRow>,
    /// The team's relay matches, in round order.
    pub matches: Vec<TeamMatch>,
    /// The match asked for (`?match=`), known to be the team's.
    pub want: Option<i32>,
    /// The room's address as this page was asked for (`/room/{token}`).
    pub base: String,
}

/// The match the page shows: the one asked for, else the latest in play, else the latest.
pub fn chosen(matches: &[TeamMatch], want: Option<i32>) -> Option<usize> {
    match want {
        Some(id) => matches.iter().position(|m| m.row.id == id),
        None => matches.iter().rposition(TeamMatch::in_play).or(matches.len().checked_sub(1)),
    }
}

pub fn build(c: Chrome, lang: Lang, d: Loaded) -> RoomPage {
    let pick = chosen(&d.matches, d.want);
    let shown = pick.map(|i| match_view(lang, &d, &d.matches[i]));
    let matches = d
        .matches
        .iter()
        .enumerate()
        .map(|(i, tm)| MatchLink {
            href: format!("{}?match={}", d.base, tm.row.id),
            title: title(lang, &tm.row, &d.teams),
            state: state_text(lang, tm),
            shown: Some(i) == pick,
        })
        .collect();
    RoomPage { c, team: d.team.name.clone(), event: d.t.name(lang.is_zh()).to_string(), shown, matches }
}

fn state_text(lang: Lang, tm: &TeamMatch) -> String {
    match &tm.m {
        Some(m) if m.phase() == Phase::Over => {
            tr!(lang, "room.state_over", result = result_text(lang, m))
        }
        Some(m) if !m.events().is_empty() => tr!(lang, "room.state_playing", moves = m.moves()),
        _ => lang.t("room.state_not_started").to_string(),
    }
}

fn match_view(lang: Lang, d: &Loaded, tm: &TeamMatch) -> MatchView {
    let row = &tm.row;
    let colour = match (row.nigiri_pending(), row.black_team_id == d.team.id) {
        (true, _) => String::new(),
        (false, black) => {
            let c = if black { Color::Black } else { Color::White };
            tr!(lang, "room.colour", colour = lang.side_name(c))
        }
    };
    let mut v = MatchView {
        title: title(lang, row, &d.teams),
        colour,
        phase: lang.t("room.state_not_started").to_string(),
        started: false,
        section: String::new(),
        moves: String::new(),
        seats: Vec::new(),
        expected: String::new(),
        clock: String::new(),
        stones: String::new(),
        errors: String::new(),
        result: String::new(),
        sgf: None,
        board: None,
        no_board: String::new(),
    };
    let Some(m) = &tm.m else { return v };
    let names = person_names(m);
    let zone = d.t.zone();
    v.started = !m.events().is_empty();
    v.phase = match m.phase() {
        _ if !v.started => lang.t("room.state_not_started"),
        Phase::Playing => lang.t("relay.phase_playing"),
        Phase::PlayoffPending => lang.t("relay.phase_playoff_pending"),
        Phase::Over => lang.t("relay.phase_over"),
    }
    .to_string();
    v.section = section_name(lang, m.section()).to_string();
    v.moves = tr!(lang, "room.moves", moves = m.moves());
    v.seats = super::relay_board::seats(lang, m, &names);
    v.expected = expected(lang, m, &names);
    v.clock = super::relay_board::clock_text(lang, zone, m, m.moves());
    let counts = m.counts();
    let [sb, sw] = counts.penalty_stones;
    v.stones = tr!(lang, "room.stones", black = sb, white = sw);
    let [eb, ew] = counts.order_errors;
    v.errors = tr!(lang, "room.errors", black = eb, white = ew);
    v.result = result_text(lang, m);
    if m.result().is_some() && at_board::position(m).is_ok_and(|p| p.moves > 0) {
        v.sgf = Some(format!("/t/{}/matches/{}/board.sgf", d.t.id, row.id));
    }
    match at_board::position(m) {
        Ok(pos) => {
            v.board = Some((vb::svg(&pos, false), super::relay_board::status(lang, zone, m, &pos, &names)))
        }
        Err(Gap::NotEntered { number }) => v.no_board = tr!(lang, "room.not_entered", number = number),
        Err(Gap::Unreplayable { number }) => v.no_board = tr!(lang, "room.unreplayable", number = number),
    }
    v
}
