//! A relay game entered at the board (seed 003): the position its moves make, and a move
//! entered at the board checked against that position before it becomes an [`Event::Move`].
//!
//! The relay state machine ([`RelayMatch`]) knows who moved and in which order (Art. 10.3, the
//! order errors of Art. 17.7, the quota of Art. 17.8); it does not play Go. The board does,
//! through [`crate::moves`] and so the rules crate, under the event's ko and suicide rule. A
//! move is recorded with its point ([`Placed`]); a forced pass (Arts. 18.3, 19, 22.1, 24.4) is
//! a pass of the record. Colours alternate strictly, Black first: a relay game has no handicap
//! (Art. 11).
//!
//! \[INF\] Two passes in a row end the game (总则 Art. 7.3, which Art. 14 keeps for the relay);
//! when the four players then dispute life and death, play resumes (Art. 21.4, 重新开始对局,
//! settled by play at the board): a move entered after two passes resumes it, and the position
//! is rebuilt so (`crate::moves::play`). Who moves first on resuming (the side that says
//! "dead") is the referee's to see to: the board keeps the relay's alternation.

use super::relay::{Event, Placed, RelayMatch};
use super::PersonId;
use crate::moves::{self, BoardRules, Position, Refusal as BoardRefusal};

/// Why the match's moves make no position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gap {
    /// Move `number` was recorded on the match page with who played it only (or as part of
    /// "moves in order"): the board cannot know where it was played.
    NotEntered { number: u32 },
    /// The recorded moves no longer replay (the event's rules changed meanwhile).
    Unreplayable { number: u32 },
}

/// Why a move entered at the board is refused before the match sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The moves so far make no position.
    Gap(Gap),
    /// The rules crate refuses the point (occupied, suicide, ko, superko, off the board).
    Board(BoardRefusal),
}

/// The rules the match's moves are checked under (no handicap in a relay game).
pub fn rules_of(m: &RelayMatch) -> BoardRules {
    BoardRules::of(&m.config().rules, 0)
}

/// The position the match's moves make.
pub fn position(m: &RelayMatch) -> Result<Position, Gap> {
    position_after(m, usize::MAX)
}

/// The position after the first `shown` moves of the match (all of them when it has fewer):
/// what a board that stays behind the game shows. Every move of the match must have its point.
pub fn position_after(m: &RelayMatch, shown: usize) -> Result<Position, Gap> {
    let r = rules_of(m);
    let played = m.board_moves().map_err(|number| Gap::NotEntered { number })?;
    let mut pos = moves::replay(r, &[]).map_err(|_| Gap::Unreplayable { number: 0 })?;
    for (colour, mv) in played.into_iter().take(shown) {
        moves::play(&mut pos, r, colour, mv).map_err(|_| Gap::Unreplayable { number: pos.moves + 1 })?;
    }
    Ok(pos)
}

/// The event a move entered at the board makes: `player` placed `at`, checked against the
/// position (the order of the four players is the match's to judge when the event is applied).
pub fn entered(m: &RelayMatch, player: PersonId, at: Placed) -> Result<Event, Refusal> {
    let mut pos = position(m).map_err(Refusal::Gap)?;
    moves::play(&mut pos, rules_of(m), m.side_to_move(), at.as_move()).map_err(Refusal::Board)?;
    Ok(Event::Move { player, at: Some(at) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::team::lineup::Section;
    use crate::team::relay::{Effect, RelayConfig};
    use crate::team::roster::fixtures::team;
    use rules::board::{Color, Point};
    use rules::game::IllegalMove;

    const T0: i64 = 1_700_000_000;

    fn started() -> RelayMatch {
        let mut m = RelayMatch::new(RelayConfig::default(), team(1, 100, 10), team(2, 200, 10), T0, &[], &[])
            .unwrap();
        m.apply(
            T0 - 600,
            Event::SubmitLineup { side: Color::Black, section: Section::One, players: [111, 112] },
        )
        .unwrap();
        m.apply(
            T0 - 600,
            Event::SubmitLineup { side: Color::White, section: Section::One, players: [211, 212] },
        )
        .unwrap();
        m
    }

    fn at(s: &str) -> Placed {
        Placed::Point(Point::from_sgf(s).unwrap())
    }

    fn enter(m: &mut RelayMatch, player: PersonId, p: Placed) -> Vec<Effect> {
        let e = entered(m, player, p).unwrap();
        m.apply(T0 + 60, e).unwrap().effects
    }

    /// Art. 10.3: the four players in the clockwise order, each move with its point; the position
    /// is the rules crate's, captures included.
    #[test]
    fn moves_in_order_make_the_position() {
        let mut m = started();
        let order = m.clockwise().unwrap().map(|(c, p)| (c, p.unwrap()));
        assert_eq!(
            order,
            [(Color::Black, 111), (Color::White, 211), (Color::Black, 112), (Color::White, 212)]
        );
        for (i, p) in ["dd", "pp", "dp", "pd"].into_iter().enumerate() {
            enter(&mut m, order[i].1, at(p));
        }
        let pos = position(&m).unwrap();
        assert_eq!(pos.moves, 4);
        let behind = position_after(&m, 2).unwrap();
        assert_eq!(behind.moves, 2);
        assert_eq!(behind.board().get(Point::from_sgf("dp").unwrap()), None, "move 3 not shown");
        assert_eq!(pos.board().get(Point::from_sgf("pd").unwrap()), Some(Color::White));
        assert_eq!(m.move_log()[2].at, Some(at("dp")));
    }

    /// Seed 000 Art. 2 and Art. 6 through the board: an occupied point and a ko retaken at once
    /// are refused before the match records anything.
    #[test]
    fn an_occupied_point_or_a_ko_retaken_is_refused_with_its_reason() {
        let mut m = started();
        enter(&mut m, 111, at("cc"));
        assert_eq!(
            entered(&m, 211, at("cc")),
            Err(Refusal::Board(BoardRefusal::Illegal { number: 2, reason: IllegalMove::Occupied }))
        );
        let mut m = started();
        let ko = ["cd", "fd", "dc", "ec", "de", "ee", "aa", "dd", "ed"];
        let order = [111, 211, 112, 212];
        for (i, p) in ko.into_iter().enumerate() {
            enter(&mut m, order[i % 4], at(p));
        }
        let r = entered(&m, order[9 % 4], at("dd"));
        assert!(
            matches!(
                r,
                Err(Refusal::Board(BoardRefusal::Illegal {
                    reason: IllegalMove::Ko | IllegalMove::Superko,
                    ..
                }))
            ),
            "{r:?}"
        );
        assert_eq!(m.moves(), 9);
    }

    /// Art. 17.7 from the moves themselves: the point is valid whoever placed it; a player out of
    /// the clockwise order is an order error the opponent may claim.
    #[test]
    fn a_move_by_the_wrong_partner_is_an_order_error_to_claim() {
        let mut m = started();
        enter(&mut m, 111, at("dd"));
        enter(&mut m, 211, at("pp"));
        // 112 is due; 111 plays again.
        let fx = enter(&mut m, 111, at("dp"));
        assert!(fx.iter().any(|e| matches!(
            e,
            Effect::OrderErrorClaimable {
                number: 3,
                side: Color::Black,
                player: 111,
                claimant: Color::White
            }
        )));
        assert_eq!(m.pending_order_error().map(|p| p.number), Some(3));
        assert!(m.may_choose(Color::White));
        assert_eq!(position(&m).unwrap().moves, 3);
    }

    /// A move recorded on the match page without its point leaves the board without a position.
    #[test]
    fn a_move_without_its_point_leaves_a_gap() {
        let mut m = started();
        m.apply(T0 + 10, Event::Move { player: 111, at: None }).unwrap();
        assert_eq!(position(&m).unwrap_err(), Gap::NotEntered { number: 1 });
        assert_eq!(entered(&m, 211, at("dd")), Err(Refusal::Gap(Gap::NotEntered { number: 1 })));
    }

    /// Art. 21.4: two passes end the game; a stone entered after them (life and death disputed)
    /// resumes play.
    #[test]
    fn a_move_after_two_passes_resumes_play() {
        let mut m = started();
        enter(&mut m, 111, at("dd"));
        enter(&mut m, 211, Placed::Pass);
        enter(&mut m, 112, Placed::Pass);
        enter(&mut m, 212, at("pp"));
        assert_eq!(position(&m).unwrap().moves, 4);
    }
}
