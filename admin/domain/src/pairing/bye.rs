//! Byes (轮空), rules.md §14.5.
//!
//! A bye is a win (bye points per [`super::PointsScale`]). It goes to the lowest-ranked
//! eligible player who has not had one: fewest previous byes first (at most one bye per
//! player while anyone without one remains), then lowest score, then lowest rank, then
//! lowest rating (unrated lowest); equal candidates are ordered by a seeded lot.
//!
//! In the Swiss and McMahon engine the bye is a vertex of the matching whose weight
//! follows this order ([`super::weights::Criterion::Bye`], just below "no rematch"), so the
//! first candidate gets the bye unless that would force a rematch.

use super::{DrawRecord, PlayerId};
use crate::draw::lots::{Purpose, Stream};
use crate::draw::{self, derive_seed, tags, Ticket};

/// What the bye rule looks at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ByeCandidate {
    pub id: PlayerId,
    /// The pairing number (the lot names candidates by it).
    pub number: u32,
    pub previous_byes: u32,
    /// Pairing score, half points.
    pub score: i32,
    pub rank_value: i32,
    pub rating: Option<i32>,
}

impl ByeCandidate {
    fn key(&self) -> (u32, i32, i32, i32) {
        (self.previous_byes, self.score, self.rank_value, self.rating.unwrap_or(i32::MIN))
    }
}

/// The candidates in bye order (first = gets the bye), and the record of the lot that
/// orders candidates the rule holds equal, if any are (one shuffle of all candidates by
/// pairing number; its seed is the round's `seed` with the bye's tag).
pub fn order(candidates: &[ByeCandidate], seed: u64) -> (Vec<PlayerId>, Option<DrawRecord>) {
    let keyed: Vec<(Ticket, (u32, i32, i32, i32))> =
        candidates.iter().map(|c| (Ticket { id: c.id, number: c.number }, c.key())).collect();
    draw::order_by_key(&keyed, Purpose::Bye, derive_seed(seed, tags::BYE), Stream::Bye)
}

/// The player who gets the bye, by the rule alone (round 1 and simple systems).
pub fn choose(candidates: &[ByeCandidate], seed: u64) -> Option<(PlayerId, Option<DrawRecord>)> {
    let (order, rec) = order(candidates, seed);
    order.first().map(|&id| (id, rec))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(id: u32, byes: u32, score: i32, rank: i32, rating: Option<i32>) -> ByeCandidate {
        ByeCandidate { id, number: id, previous_byes: byes, score, rank_value: rank, rating }
    }

    #[test]
    fn lowest_score_then_rank_without_previous_bye() {
        let cs = [c(1, 0, 4, -5, None), c(2, 0, 0, 3, None), c(3, 0, 0, -2, None), c(4, 1, 0, -9, None)];
        assert_eq!(choose(&cs, 1).unwrap().0, 3);
        let (o, rec) = order(&cs, 1);
        assert_eq!(o, vec![3, 2, 1, 4]);
        assert!(rec.is_none());
    }

    #[test]
    fn rating_breaks_rank_ties_unrated_lowest() {
        let cs = [c(1, 0, 0, 0, Some(1500)), c(2, 0, 0, 0, None), c(3, 0, 0, 0, Some(1400))];
        assert_eq!(order(&cs, 0).0, vec![2, 3, 1]);
    }

    #[test]
    fn equal_candidates_by_recorded_lot() {
        let cs: Vec<ByeCandidate> = (1..=6).map(|i| c(i, 0, 0, -10, None)).collect();
        let mut firsts = std::collections::HashSet::new();
        for seed in 0..50 {
            let (id, rec) = choose(&cs, seed).unwrap();
            let rec = rec.unwrap();
            assert_eq!(rec.outcome[0], id);
            assert_eq!(rec.replays(), Some(true));
            assert_eq!(choose(&cs, seed).unwrap().0, id);
            firsts.insert(id);
        }
        assert!(firsts.len() >= 4, "the lot spreads the bye: {firsts:?}");
    }

    #[test]
    fn everyone_had_a_bye_then_fewest() {
        let cs = [c(1, 2, 0, 0, None), c(2, 1, 9, 5, None)];
        assert_eq!(choose(&cs, 0).unwrap().0, 2);
        assert!(choose(&[], 0).is_none());
    }
}
