//! The public pages' types: pairings and results (one template), standings, the crosstable
//! and a player's games, built by `web::public` from a snapshot of the event.

use super::pages::Chrome;
use askama::Template;

pub struct Seat {
    pub id: i32,
    pub name: String,
    pub rank: String,
    pub unit: String,
}

/// One game of a round as the public pages show it: the players as they sat (rules.md §4.3),
/// a replay (重赛) labelled and linked to the game it replays.
pub struct TableLine {
    pub gid: i32,
    pub board: i32,
    pub black: Option<Seat>,
    pub white: Option<Seat>,
    pub handicap: i32,
    pub result: String,
    pub found: bool,
    pub swapped: bool,
    pub replay_of: Option<i32>,
}

#[derive(Template)]
#[template(path = "public_pairings.html")]
pub struct PairingsPage {
    pub c: Chrome,
    pub tid: i32,
    pub round: Option<i32>,
    /// The round shown, 0 for none (for the round links).
    pub round_n: i32,
    pub rounds: Vec<i32>,
    pub q: String,
    pub lines: Vec<TableLine>,
    pub found: usize,
    pub results: bool,
    /// The round's start in the event's zone ("09:00"), empty while none is set.
    pub starts_at: String,
}

pub struct StandingLine {
    pub place: String,
    pub id: i32,
    pub name: String,
    pub rank: String,
    pub unit: String,
    pub score: String,
    pub values: Vec<String>,
    pub withdrawn: bool,
    /// The EGF rating after the event and its change, once computed (`text::gor_text`).
    pub gor: String,
}

#[derive(Template)]
#[template(path = "standings.html")]
pub struct StandingsPage {
    pub c: Chrome,
    pub tid: i32,
    pub after: u32,
    pub rounds: Vec<u32>,
    pub columns: Vec<String>,
    pub lines: Vec<StandingLine>,
    /// The withdrawals (退赛) as of this round, a line each, under the table.
    pub notes: Vec<String>,
    pub order: String,
    /// The download links' round: empty for the latest standings, else `&amp;round=N` after
    /// other options (written as it is: digits only) and `?round=N` alone (the documents after
    /// the round this page shows).
    pub and_round: String,
    pub only_round: String,
    /// The ratings after the event were computed and this is the final page: the GoR column.
    pub gor_shown: bool,
}

pub struct CrossLine {
    pub place: String,
    pub id: i32,
    pub name: String,
    pub rank: String,
    pub cells: Vec<String>,
    pub score: String,
}

#[derive(Template)]
#[template(path = "crosstable.html")]
pub struct CrosstablePage {
    pub c: Chrome,
    pub tid: i32,
    pub rounds: Vec<u32>,
    pub lines: Vec<CrossLine>,
}

pub struct PlayerGame {
    pub round: i32,
    pub board: i32,
    pub colour: String,
    pub opponent: Option<Seat>,
    pub result: String,
    /// "won", "lost", "drawn" or "" (for styling).
    pub outcome: &'static str,
    pub rulings: Vec<String>,
    pub gid: i32,
    pub has_sgf: bool,
    pub swapped: bool,
    /// The game this one replays (重赛) at this board.
    pub replay_of: Option<i32>,
}

#[derive(Template)]
#[template(path = "player.html")]
pub struct PlayerPage {
    pub c: Chrome,
    pub tid: i32,
    pub name: String,
    pub other_name: String,
    pub rank: String,
    pub unit: String,
    pub withdrawn: bool,
    pub place: String,
    pub score: String,
    pub games: Vec<PlayerGame>,
    /// The registry's person (`/p/{person}`: their events across Tengen).
    pub person: Option<i32>,
    /// The EGF rating before the event, and after with its change, once computed.
    pub gor: Option<(String, String)>,
}
