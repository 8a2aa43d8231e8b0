//! Team events: pure logic, no database, no HTTP.
//!
//! Two formats:
//!
//! - **Pair-relay matches (围棋队际赛, seed 003; rules.md §13.1)**: one game in three sections
//!   (moves 1–72, 73–143, 144–end, seed 003 Art. 10.2), two players per side per section moving
//!   in clockwise order (Art. 10.3). [`relay::RelayMatch`] is a state machine: events are
//!   applied in order and each is either accepted, with its effects (penalty stones, cards,
//!   forced passes, counts left), or refused with a typed reason in English and Chinese,
//!   leaving the state unchanged. Scoring goes through the rules crate
//!   (`rules::rulings::apply_rulings` → `rules::outcome::Scoring`, komi 3½ of
//!   `RuleSet::chinese_team_relay`). A knockout draw leads to the 节棋 play-off
//!   ([`playoff`], Art. 12).
//! - **Board matches (rules.md §13.2–13.3)**: N boards per match, colours alternating by
//!   board; board points and match points (2/1/0, 3/1/0 or the main-board rule) in
//!   [`board_match`].
//!
//! Team standings and knockout outcomes for both formats are in [`standings`], and pairing of
//! teams with the individual engine in [`standings::pair_team_round`].
//!
//! [`roster`] holds teams (leader, coach, captain, players with position numbers 位置号,
//! executing leader by Art. 10.1), [`lineup`] the sections and line-ups, [`penalties`] the
//! penalty log, [`sheets`] the data of the printed team sheets.
//!
//! ## Readings of seed 003 chosen here
//!
//! Every reading that the text leaves open is tagged \[INF\] (inference) or \[UNVERIFIED\]
//! where it is applied; the list is in [`relay`]'s module documentation.

pub mod at_board;
pub mod board_match;
pub mod cards;
pub mod clocks;
pub mod ending;
pub mod event;
pub mod lineup;
pub mod matches;
pub mod penalties;
pub mod playoff;
pub mod relay;
pub mod roster;
pub mod sheets;
pub mod standings;
pub mod values;
pub mod withdraw;

#[cfg(test)]
mod tests;

use rules::board::Color;

/// A person (player, leader, coach) as the DB layer knows them. Unique within a match.
pub type PersonId = u32;

/// A team as the DB layer knows it.
pub type TeamId = u32;

/// A moment in seconds on any fixed scale (the DB layer uses Unix seconds).
pub type Timestamp = i64;

/// Index of a side in `[Black, White]` arrays.
pub(crate) fn ix(c: Color) -> usize {
    match c {
        Color::Black => 0,
        Color::White => 1,
    }
}
