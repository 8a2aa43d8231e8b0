//! The relay game at the board (`templates/relay_board.html` for the recorder,
//! `templates/relay_live.html` for the public): the position drawn as the individual board
//! draws it (`views::board::svg`), and what a relay adds (seed 003): the section, the four
//! players in the clockwise order with the one due (Art. 10.3), the side that may choose its
//! next player after an order error, the order error its opponent may claim (Art. 17.7), and
//! the penalty stones and order errors so far.

use super::board::{colour_text, Svg};
use super::pages::Chrome;
use super::relay_match::show_at;
use crate::domain::event_time::EventZone;
use crate::domain::team::relay::{Placed, RelayMatch};
use crate::domain::team::PersonId;
use crate::i18n::{tr, Lang};
use askama::Template;
use domain::moves::Position;
use rules::board::Color;
use std::collections::HashMap;

/// A player at the board, as the recorder picks who placed the stone.
pub struct Seat {
    /// 1–4: the clockwise order of the section (Art. 10.3).
    pub order: usize,
    pub player: Option<PersonId>,
    pub name: String,
    /// `b` or `w`.
    pub side: &'static str,
    pub side_text: &'static str,
    /// The player due next in the clockwise order (the match in play).
    pub due: bool,
    /// A player of the side to move (any of them may be picked: the board records who did).
    pub to_move: bool,
}

/// The status line and what the recorder needs to know before the next tap.
pub struct RelayStatus {
    /// Moves played (the board script's count).
    pub moves: u32,
    pub move_no: String,
    pub section: String,
    pub next: String,
    pub captures: String,
    pub last: String,
    /// "Black: 1 stone, 1 order error; White: …".
    pub penalties: String,
    /// The last clock reading recorded at or before the move shown (Art. 22.4).
    pub clock: String,
}

/// The last clock reading of `m` recorded at or before move `upto` (Art. 22.4), in words.
pub fn clock_text(lang: Lang, zone: EventZone, m: &RelayMatch, upto: u32) -> String {
    m.clock_log()
        .iter()
        .rev()
        .find(|e| e.move_number <= upto)
        .map(|e| {
            let [b, w] = e.clocks.map(|r| lang.clock_reading(&r));
            tr!(lang, "room.clock", move = e.move_number, at = show_at(zone, e.at), black = b, white = w)
        })
        .unwrap_or_else(|| lang.t("room.no_clock").to_string())
}

/// The out-of-order move the opponent may claim now (Art. 17.7), with the claimant's colour code.
pub struct OrderOffer {
    pub text: String,
    /// `black` or `white`: the claimant, as the claim form sends it.
    pub claimant: &'static str,
    pub button: String,
}

fn name_of(names: &HashMap<PersonId, String>, p: PersonId) -> String {
    names.get(&p).cloned().unwrap_or_else(|| format!("#{p}"))
}

/// The four players at the board in the section's clockwise order; empty before they are seated.
pub fn seats(lang: Lang, m: &RelayMatch, names: &HashMap<PersonId, String>) -> Vec<Seat> {
    let Some(order) = m.clockwise() else { return Vec::new() };
    let due =
        (m.phase() == crate::domain::team::relay::Phase::Playing).then(|| m.expected_player()).flatten();
    let to_move = m.side_to_move();
    order
        .iter()
        .enumerate()
        .map(|(i, &(side, player))| Seat {
            order: i + 1,
            player,
            name: player.map(|p| name_of(names, p)).unwrap_or_else(|| lang.t("relay.vacant").to_string()),
            side: if side == Color::Black { "b" } else { "w" },
            side_text: lang.side_name(side),
            due: player.is_some() && player == due,
            to_move: side == to_move && player.is_some(),
        })
        .collect()
}

/// The status of the match at the board after `pos` (the whole game, or the public's delayed
/// part of it).
pub fn status(
    lang: Lang,
    zone: EventZone,
    m: &RelayMatch,
    pos: &Position,
    names: &HashMap<PersonId, String>,
) -> RelayStatus {
    let shown = pos.moves as usize;
    let record = &m.move_log()[..shown.min(m.move_log().len())];
    let section = record.last().map(|r| r.section).unwrap_or_else(|| m.section());
    let last = match record.last() {
        None => lang.t("mv.no_moves").to_string(),
        Some(r) => {
            let who = name_of(names, r.player);
            match r.at {
                Some(Placed::Point(p)) => {
                    tr!(
                        lang,
                        "rb.last",
                        number = r.number,
                        person = who,
                        point = p.display(pos.board().size())
                    )
                }
                _ => tr!(lang, "rb.last_pass", number = r.number, person = who),
            }
        }
    };
    // The player due, or the side that chooses after an order error (the match page's words);
    // nothing on the public board while it shows an earlier move.
    let next = if shown < m.moves() as usize {
        String::new()
    } else {
        tr!(lang, "rb.next", player = super::relay_match::expected(lang, m, names))
    };
    let c = m.counts();
    RelayStatus {
        moves: pos.moves,
        move_no: tr!(lang, "mv.move_no", number = pos.moves),
        section: lang.section(section).to_string(),
        next,
        captures: tr!(lang, "mv.captures", black = pos.captures[0], white = pos.captures[1]),
        last,
        penalties: tr!(
            lang,
            "rb.penalties",
            black_stones = c.penalty_stones[0],
            black_errors = c.order_errors[0],
            white_stones = c.penalty_stones[1],
            white_errors = c.order_errors[1]
        ),
        clock: clock_text(lang, zone, m, pos.moves),
    }
}

/// The order error the opponent may claim before placing a stone (Art. 17.7), if any.
pub fn order_offer(lang: Lang, m: &RelayMatch, names: &HashMap<PersonId, String>) -> Option<OrderOffer> {
    let pe = m.pending_order_error()?;
    let claimant = pe.side.opponent();
    Some(OrderOffer {
        text: tr!(
            lang,
            "rb.order_error",
            number = pe.number,
            person = name_of(names, pe.player),
            side = colour_text(lang, pe.side),
            claimant = colour_text(lang, claimant)
        ),
        claimant: if claimant == Color::Black { "black" } else { "white" },
        button: tr!(lang, "rb.claim", claimant = colour_text(lang, claimant)),
    })
}

/// The recorder's board of a relay match: `/t/{id}/matches/{mid}/board`.
#[derive(Template)]
#[template(path = "relay_board.html")]
pub struct RelayBoardPage {
    pub c: Chrome,
    pub tid: i32,
    pub mid: i32,
    /// `/t/{tid}/matches/{mid}`: the board's forms post under it.
    pub base: String,
    pub version: i32,
    pub svg: Svg,
    pub status: RelayStatus,
    pub seats: Vec<Seat>,
    pub offer: Option<OrderOffer>,
    /// The script's settings as JSON.
    pub config: String,
    /// Why the board cannot be used (moves without their points, the match not in play).
    pub problem: Option<String>,
    /// A refused claim or undo: its words.
    pub banner: Option<String>,
    /// The organizer's form of the public delay (the event's, as on the individual boards):
    /// (moves, version).
    pub delay: Option<(String, i32)>,
    /// The delay form refused: why.
    pub delay_error: Option<String>,
    pub delay_text: String,
}

/// The public board of a relay match: `/t/{id}/matches/{mid}/live`.
#[derive(Template)]
#[template(path = "relay_live.html")]
pub struct RelayLivePage {
    pub c: Chrome,
    pub tid: i32,
    pub mid: i32,
    pub svg: Svg,
    pub status: RelayStatus,
    pub problem: Option<String>,
    pub behind: String,
    pub sgf: bool,
    pub result: String,
}
