//! Knockout (淘汰赛): seeded brackets, byes to the top seeds, winners advance.
//!
//! The bracket has P = the next power of two ≥ N slots. Seeds are placed by the standard
//! recursive order (1 and 2 can meet only in the final, 1–4 only in the semi-finals, …):
//! for P = 8 the slots hold seeds 1, 8, 4, 5, 2, 7, 3, 6, and match k pairs slots 2k and
//! 2k+1. Seeds above N are byes, so the byes go to the top seeds.
//!
//! What a drawn game or a double loss (rules.md §12) does is an event setting
//! ([`KnockoutRules`]): the higher seed advances, a seeded lot decides (recorded), the
//! match is replayed, or — for a double loss — both are eliminated and the next opponent
//! advances without playing. (Team relay events break draws by the 节棋 play-off of
//! rules.md §13.1, which the replay option stands for here.)

use serde::{Deserialize, Serialize};

use super::{DrawRecord, PlayerId};
use crate::draw::lots::{Purpose, Stream};
use crate::draw::{self, derive_seed, tags, Ticket};

/// A player in the bracket with its seed (1 = top seed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seeded {
    pub id: PlayerId,
    pub seed: u32,
}

/// One match. `None` on a side is a bye (or an eliminated slot): the other side advances.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KnockoutMatch {
    pub a: Option<Seeded>,
    pub b: Option<Seeded>,
}

/// The result of a match, for its two sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MatchOutcome {
    AWins,
    BWins,
    Draw,
    DoubleLoss,
    /// Not played yet (also what a bye match needs: nothing).
    Pending,
}

/// What a draw or a double loss does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Resolution {
    HigherSeedAdvances,
    Lot,
    Replay,
    /// Double loss only: nobody advances; the next opponent gets a walkover.
    BothEliminated,
}

/// Event settings of a knockout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KnockoutRules {
    pub on_draw: Resolution,
    pub on_double_loss: Resolution,
}

impl Default for KnockoutRules {
    fn default() -> Self {
        KnockoutRules { on_draw: Resolution::Replay, on_double_loss: Resolution::BothEliminated }
    }
}

/// Why the next round cannot be made yet.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KnockoutError {
    #[error("{0} outcomes for {1} matches")]
    WrongCount(usize, usize),
    #[error("matches {0:?} are not decided yet (pending or to be replayed)")]
    Undecided(Vec<usize>),
    #[error("a draw cannot eliminate both players")]
    BadRule,
    #[error("the tournament is over")]
    Finished,
}

/// The seed order of the slots of a bracket of `size` (a power of two).
pub fn slot_seeds(size: usize) -> Vec<u32> {
    assert!(size.is_power_of_two());
    let mut seeds = vec![1u32];
    while seeds.len() < size {
        let m = seeds.len() as u32 * 2 + 1;
        seeds = seeds.iter().flat_map(|&s| [s, m - s]).collect();
    }
    seeds
}

/// The first round for players listed by seed (index 0 = seed 1). Byes to the top seeds.
pub fn first_round(by_seed: &[PlayerId]) -> Vec<KnockoutMatch> {
    if by_seed.len() < 2 {
        return Vec::new();
    }
    let size = by_seed.len().next_power_of_two();
    let slot = |s: u32| by_seed.get(s as usize - 1).map(|&id| Seeded { id, seed: s });
    slot_seeds(size).chunks(2).map(|p| KnockoutMatch { a: slot(p[0]), b: slot(p[1]) }).collect()
}

/// Who advances from each match (`None`: nobody), with the lots drawn (one of the two by
/// pairing number, `number` giving a player's).
pub fn advancing(
    matches: &[KnockoutMatch],
    outcomes: &[MatchOutcome],
    rules: KnockoutRules,
    seed: u64,
    number: &dyn Fn(PlayerId) -> u32,
) -> Result<(Vec<Option<Seeded>>, Vec<DrawRecord>), KnockoutError> {
    if rules.on_draw == Resolution::BothEliminated {
        return Err(KnockoutError::BadRule);
    }
    if matches.len() != outcomes.len() {
        return Err(KnockoutError::WrongCount(outcomes.len(), matches.len()));
    }
    let mut out = Vec::with_capacity(matches.len());
    let mut draws = Vec::new();
    let mut undecided = Vec::new();
    for (i, (m, &o)) in matches.iter().zip(outcomes).enumerate() {
        let (a, b) = match (m.a, m.b) {
            (Some(a), Some(b)) => (a, b),
            (x, None) | (None, x) => {
                out.push(x);
                continue;
            }
        };
        let rule = match o {
            MatchOutcome::AWins => {
                out.push(Some(a));
                continue;
            }
            MatchOutcome::BWins => {
                out.push(Some(b));
                continue;
            }
            MatchOutcome::Pending => {
                undecided.push(i);
                out.push(None);
                continue;
            }
            MatchOutcome::Draw => rules.on_draw,
            MatchOutcome::DoubleLoss => rules.on_double_loss,
        };
        match rule {
            Resolution::HigherSeedAdvances => out.push(Some(if a.seed < b.seed { a } else { b })),
            Resolution::BothEliminated => out.push(None),
            Resolution::Replay => {
                undecided.push(i);
                out.push(None);
            }
            Resolution::Lot => {
                let s = derive_seed(seed, tags::knockout_match(i));
                let sides = [a, b].map(|x| Ticket { id: x.id, number: number(x.id) });
                let purpose = Purpose::KnockoutMatch { number: i as u32 + 1 };
                let (w, rec) = draw::pick(purpose, s, Stream::Knockout, &sides);
                draws.push(rec);
                out.push(Some(if w == a.id { a } else { b }));
            }
        }
    }
    if !undecided.is_empty() {
        return Err(KnockoutError::Undecided(undecided));
    }
    Ok((out, draws))
}

/// The next round: winners of matches 2k and 2k+1 meet. Errors while a match is
/// undecided, or when only a champion (or nobody) is left.
pub fn next_round(
    matches: &[KnockoutMatch],
    outcomes: &[MatchOutcome],
    rules: KnockoutRules,
    seed: u64,
    number: &dyn Fn(PlayerId) -> u32,
) -> Result<(Vec<KnockoutMatch>, Vec<DrawRecord>), KnockoutError> {
    let (adv, draws) = advancing(matches, outcomes, rules, seed, number)?;
    if adv.len() < 2 {
        return Err(KnockoutError::Finished);
    }
    Ok((adv.chunks(2).map(|p| KnockoutMatch { a: p[0], b: p[1] }).collect(), draws))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn standard_seed_order() {
        assert_eq!(slot_seeds(1), vec![1]);
        assert_eq!(slot_seeds(2), vec![1, 2]);
        assert_eq!(slot_seeds(4), vec![1, 4, 2, 3]);
        assert_eq!(slot_seeds(8), vec![1, 8, 4, 5, 2, 7, 3, 6]);
    }

    #[test]
    fn byes_go_to_top_seeds() {
        let players: Vec<u32> = (101..=106).collect();
        let r1 = first_round(&players);
        assert_eq!(r1.len(), 4);
        let byes: Vec<u32> = r1.iter().filter(|m| m.b.is_none()).map(|m| m.a.unwrap().seed).collect();
        assert_eq!(byes, vec![1, 2]);
    }

    #[test]
    fn draw_and_double_loss_rules() {
        let m = [KnockoutMatch { a: Some(Seeded { id: 1, seed: 3 }), b: Some(Seeded { id: 2, seed: 6 }) }];
        let higher =
            KnockoutRules { on_draw: Resolution::HigherSeedAdvances, on_double_loss: Resolution::Lot };
        assert_eq!(advancing(&m, &[MatchOutcome::Draw], higher, 0, &|id| id).unwrap().0[0].unwrap().id, 1);
        let (w, d) = advancing(&m, &[MatchOutcome::DoubleLoss], higher, 5, &|id| id).unwrap();
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].outcome[0], w[0].unwrap().id);
        assert_eq!(d[0].purpose, Purpose::KnockoutMatch { number: 1 });
        assert_eq!(d[0].replays(), Some(true));
        let replay = KnockoutRules::default();
        assert_eq!(
            advancing(&m, &[MatchOutcome::Draw], replay, 0, &|id| id),
            Err(KnockoutError::Undecided(vec![0]))
        );
        assert_eq!(advancing(&m, &[MatchOutcome::DoubleLoss], replay, 0, &|id| id).unwrap().0, vec![None]);
        let bad = KnockoutRules { on_draw: Resolution::BothEliminated, ..replay };
        assert_eq!(advancing(&m, &[MatchOutcome::Draw], bad, 0, &|id| id), Err(KnockoutError::BadRule));
    }

    #[test]
    fn both_eliminated_gives_a_walkover() {
        let r1 = first_round(&[1, 2, 3, 4]);
        // 1 v 4 double loss, 2 v 3: 3 wins.
        let (r2, _) = next_round(
            &r1,
            &[MatchOutcome::DoubleLoss, MatchOutcome::BWins],
            KnockoutRules::default(),
            0,
            &|id| id,
        )
        .unwrap();
        assert_eq!(r2, vec![KnockoutMatch { a: None, b: Some(Seeded { id: 3, seed: 3 }) }]);
        let champion =
            advancing(&r2, &[MatchOutcome::Pending], KnockoutRules::default(), 0, &|id| id).unwrap().0;
        assert_eq!(champion[0].unwrap().id, 3);
    }

    proptest! {
        /// The bracket is valid: every player once, byes only for the top seeds, higher seeds
        /// win through to the final between seeds 1 and 2, and the tournament ends with one
        /// champion after log2(P) rounds whatever the results.
        #[test]
        fn bracket_valid(n in 2usize..70, results in proptest::collection::vec(any::<bool>(), 128), seed in any::<u64>()) {
            let players: Vec<u32> = (1..=n as u32).map(|i| i * 10).collect();
            let r1 = first_round(&players);
            let size = n.next_power_of_two();
            prop_assert_eq!(r1.len(), size / 2);
            let mut ids: Vec<u32> = r1.iter().flat_map(|m| [m.a, m.b]).flatten().map(|s| s.id).collect();
            ids.sort();
            prop_assert_eq!(&ids, &players);
            for m in &r1 {
                prop_assert!(m.a.is_some(), "byes only on the b side");
                if m.b.is_none() {
                    prop_assert!(m.a.unwrap().seed as usize <= size - n);
                }
            }
            // Higher seeds always win: the final is 1 v 2.
            let mut round = r1.clone();
            let rules = KnockoutRules { on_draw: Resolution::Lot, on_double_loss: Resolution::Lot };
            while round.len() > 1 {
                let outcomes: Vec<MatchOutcome> = round.iter().map(|m| match (m.a, m.b) {
                    (Some(a), Some(b)) if a.seed < b.seed => MatchOutcome::AWins,
                    (Some(_), Some(_)) => MatchOutcome::BWins,
                    _ => MatchOutcome::Pending,
                }).collect();
                round = next_round(&round, &outcomes, rules, seed, &|id| id).unwrap().0;
            }
            prop_assert_eq!((round[0].a.unwrap().seed, round[0].b.unwrap().seed), (1, 2));
            // Random results: still one champion after log2(size) rounds.
            let mut round = r1;
            let mut k = 0;
            let mut rounds = 0;
            loop {
                let outcomes: Vec<MatchOutcome> = round.iter().map(|_| {
                    k += 1;
                    match (results[k % 128], results[(k * 7) % 128]) {
                        (true, true) => MatchOutcome::AWins,
                        (true, false) => MatchOutcome::BWins,
                        (false, true) => MatchOutcome::Draw,
                        (false, false) => MatchOutcome::DoubleLoss,
                    }
                }).collect();
                rounds += 1;
                match next_round(&round, &outcomes, rules, seed, &|id| id) {
                    Ok((r, _)) => round = r,
                    Err(KnockoutError::Finished) => break,
                    Err(e) => prop_assert!(false, "{}", e),
                }
            }
            prop_assert_eq!(1usize << rounds, size);
        }
    }
}
