//! The board match page (`templates/board_match.html`, §13.2–13.3): each board's players and
//! result, as stored or as the refused form typed them, and the match's record.

use crate::i18n::tr;
use std::collections::BTreeMap;

use super::super::i18n::Lang;
use super::pages::{Chrome, FormView, Options};
use super::text::{record_text, team_names};
use crate::db::team_matches::{self as mdb, BoardResult, BoardRow, MatchRow};
use crate::db::teams::{MemberRow, TeamRow};
use askama::Template;

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

/// What the page is built from, as the handler loaded it.
pub struct Loaded {
    pub row: MatchRow,
    pub teams: Vec<TeamRow>,
    pub boards: Vec<BoardRow>,
    pub members: BTreeMap<i32, Vec<MemberRow>>,
}

/// A board's result in the reader's language ("" while none is entered).
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

/// The two teams' names: the first team (Black on board 1) and the second.
fn team_pair(row: &MatchRow, teams: &[TeamRow]) -> (String, String) {
    let tnames = team_names(teams);
    let name = |id: i32| tnames.get(&id).cloned().unwrap_or_default();
    (name(row.black_team_id), name(row.white_team_id.unwrap_or(0)))
}

/// The page's title: "Round 2, table 1: Team A — Team B".
pub fn title(lang: Lang, row: &MatchRow, teams: &[TeamRow]) -> String {
    let (first, second) = team_pair(row, teams);
    let title = tr!(lang, "relay.title", round = row.round_number, match = row.table_no);
    format!("{title}: {first} — {second}")
}

/// The whole page; `f` keeps what a refused form typed, else each board shows what is stored.
pub fn build(
    c: Chrome,
    lang: Lang,
    d: Loaded,
    mut f: FormView,
    banner: Option<String>,
    notice: Option<String>,
) -> BoardPage {
    let (first_team, second_team) = team_pair(&d.row, &d.teams);
    let boards = d.boards.iter().map(|b| board_view(lang, b, &d.members, &mut f)).collect();
    BoardPage {
        title: c.title.clone(),
        staff: c.staff,
        c,
        tid: d.row.tournament_id,
        mid: d.row.id,
        version: d.row.version,
        first_team,
        second_team,
        boards,
        first_players: players(&d.members, d.row.black_team_id),
        second_players: players(&d.members, d.row.white_team_id.unwrap_or(0)),
        result_opts: BoardResult::ALL
            .iter()
            .map(|r| {
                let label = if *r == BoardResult::None { "—" } else { board_result_text(lang, *r) };
                (r.code().to_string(), label.to_string())
            })
            .collect(),
        record: record_text(lang, &d.row),
        f,
        banner,
        notice,
    }
}

/// One board: its colours (§13.2: the first team takes Black on odd boards), its players and
/// result. The form's values are the stored ones unless the form came back refused.
fn board_view(
    lang: Lang,
    b: &BoardRow,
    members: &BTreeMap<i32, Vec<MemberRow>>,
    f: &mut FormView,
) -> BoardView {
    let k = b.board;
    let r = b.board_result();
    if !f.vals.contains_key(&format!("first-{k}")) {
        f.set(&format!("first-{k}"), b.first_player_id.map(|p| p.to_string()).unwrap_or_default());
        f.set(&format!("second-{k}"), b.second_player_id.map(|p| p.to_string()).unwrap_or_default());
        f.set(&format!("result-{k}"), r.code());
    }
    let name_of = |id: Option<i32>| -> String {
        id.and_then(|id| members.values().flatten().find(|m| m.id == id))
            .map(|m| m.name.clone())
            .unwrap_or_default()
    };
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
}

/// A team's players for a board's choice ("3. Name"), after the empty choice.
fn players(members: &BTreeMap<i32, Vec<MemberRow>>, team: i32) -> Options {
    let mut v: Options = vec![(String::new(), "—".into())];
    if let Some(ms) = members.get(&team) {
        v.extend(
            ms.iter()
                .filter(|m| m.role == "player")
                .map(|m| (m.id.to_string(), format!("{}. {}", m.position.unwrap_or(0), m.name))),
        );
    }
    v
}
