//! The board pages (`templates/board.html` for the recorder, `templates/board_live.html` for the
//! public): the position as an SVG drawn on the server (no script needed to see it; the
//! recorder's page adds `assets/board.js` for taps and the offline queue), with the move
//! number, whose turn it is, the captures and the last move marked.

use super::pages::Chrome;
use crate::i18n::{tr, Lang};
use askama::Template;
use domain::moves::Position;
use rules::board::{Color, Point};
use rules::game::Move;

/// Units between two lines of the drawn board.
const CELL: u32 = 30;

/// A stone as drawn.
pub struct Stone {
    pub x: u32,
    pub y: u32,
    /// `b` or `w`.
    pub class: &'static str,
}

/// A point the recorder may tap: its square and its SGF coordinate.
pub struct Hit {
    pub x: u32,
    pub y: u32,
    pub p: String,
}

/// The drawn board.
pub struct Svg {
    pub size: u8,
    /// The view box's side.
    pub side: u32,
    pub cell: u32,
    pub lines: Vec<(u32, u32, u32, u32)>,
    pub stars: Vec<(u32, u32)>,
    pub stones: Vec<Stone>,
    /// Every point, for taps (the recorder's page only).
    pub hits: Vec<Hit>,
    pub last: Option<(u32, u32)>,
    /// Column letters and row numbers at the edge: (x, y, text).
    pub labels: Vec<(u32, u32, String)>,
    /// The position as text, row by row from the top: `.` empty, `X` Black, `O` White (what a
    /// test reads, and the script's pending stones check against).
    pub position: String,
}

fn at(k: u8) -> u32 {
    CELL * (u32::from(k) + 1)
}

fn stars(size: u8) -> Vec<u8> {
    match size {
        s if s >= 13 && s % 2 == 1 => vec![3, s / 2, s - 4],
        s if s >= 13 => vec![3, s - 4],
        s if s >= 9 => vec![2, s / 2, s - 3],
        _ => Vec::new(),
    }
}

/// The board of `pos` drawn, with tap targets when `taps`.
pub fn svg(pos: &Position, taps: bool) -> Svg {
    let board = pos.board();
    let size = board.size();
    let n = u32::from(size);
    let (lo, hi) = (at(0), at(size - 1));
    let mut lines = Vec::new();
    for k in 0..size {
        lines.push((lo, at(k), hi, at(k)));
        lines.push((at(k), lo, at(k), hi));
    }
    let st = stars(size);
    let stars = st.iter().flat_map(|&a| st.iter().map(move |&b| (at(a), at(b)))).collect();
    let mut stones = Vec::new();
    let mut hits = Vec::new();
    let mut position = String::with_capacity((n * (n + 1)) as usize);
    for y in 0..size {
        for x in 0..size {
            let p = Point { x, y };
            let c = board.get(p);
            position.push(match c {
                Some(Color::Black) => 'X',
                Some(Color::White) => 'O',
                None => '.',
            });
            if let Some(c) = c {
                stones.push(Stone { x: at(x), y: at(y), class: if c == Color::Black { "b" } else { "w" } });
            }
            if taps {
                hits.push(Hit { x: at(x) - CELL / 2, y: at(y) - CELL / 2, p: p.sgf() });
            }
        }
        position.push('/');
    }
    position.pop();
    let last = match pos.last {
        Some((_, Move::Play(p))) => Some((at(p.x), at(p.y))),
        _ => None,
    };
    let mut labels = Vec::new();
    for k in 0..size {
        // Columns as players read them (A–T without I), rows counted from the bottom.
        let col = Point { x: k, y: 0 }.display(size);
        let col: String = col.chars().take_while(|c| c.is_ascii_alphabetic()).collect();
        labels.push((at(k), CELL / 2, col));
        labels.push((CELL / 3, at(k), (n - u32::from(k)).to_string()));
    }
    Svg { size, side: CELL * (n + 1), cell: CELL, lines, stars, stones, hits, last, labels, position }
}

/// What the page says of the game: move number, whose turn, captures, the last move.
pub struct Status {
    pub moves: u32,
    pub move_no: String,
    pub next: String,
    /// `B` or `W`: the colour of the next move (the script's).
    pub next_code: char,
    pub captures: String,
    pub last: String,
    pub ended: bool,
}

pub fn colour_text(lang: Lang, c: Color) -> &'static str {
    lang.t(if c == Color::Black { "mv.black" } else { "mv.white" })
}

pub fn status(lang: Lang, pos: &Position, handicap: u8) -> Status {
    let next = domain::moves::colour_of(pos.moves + 1, handicap);
    let size = pos.board().size();
    let last = match pos.last {
        None => lang.t("mv.no_moves").to_string(),
        Some((c, Move::Pass)) => tr!(lang, "mv.last_pass", colour = colour_text(lang, c)),
        Some((c, Move::Play(p))) => {
            tr!(lang, "mv.last", colour = colour_text(lang, c), point = p.display(size))
        }
    };
    Status {
        moves: pos.moves,
        move_no: tr!(lang, "mv.move_no", number = pos.moves),
        next: tr!(lang, "mv.next", colour = colour_text(lang, next)),
        next_code: next.letter(),
        captures: tr!(lang, "mv.captures", black = pos.captures[0], white = pos.captures[1]),
        last,
        ended: pos.ended(),
    }
}

/// The recorder's board: `/t/{id}/games/{gid}/board`.
#[derive(Template)]
#[template(path = "board.html")]
pub struct BoardPage {
    pub c: Chrome,
    pub tid: i32,
    pub gid: i32,
    /// `/t/{tid}/games/{gid}`: the board's forms post under it.
    pub base: String,
    pub svg: Svg,
    pub status: Status,
    pub handicap: u8,
    /// The script's settings as JSON (its storage key and texts).
    pub config: String,
    /// The stored record no longer replays under the event's rules: why.
    pub problem: Option<String>,
    /// The organizer's form of the public delay: (moves as shown or typed, version).
    pub delay: Option<(String, i32)>,
    /// The delay form's refusal, beside its field.
    pub delay_error: Option<String>,
    pub delay_text: String,
    pub players: String,
}

/// The organizer's delay form refused (`web::live_delay`): its words, its status, and the
/// number as typed, shown again on the board the form was on.
pub struct DelayRefused {
    pub status: actix_web::http::StatusCode,
    pub message: String,
    pub typed: String,
}

/// The public board: `/t/{id}/games/{gid}/live`.
#[derive(Template)]
#[template(path = "board_live.html")]
pub struct LivePage {
    pub c: Chrome,
    pub tid: i32,
    pub gid: i32,
    pub svg: Svg,
    pub status: Status,
    pub players: String,
    /// "N moves behind the game" while the game runs; empty once it has a result.
    pub behind: String,
    /// The record may be downloaded (the game has a result).
    pub sgf: bool,
    pub result: String,
}
