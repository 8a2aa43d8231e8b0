//! Pairs that must not meet (回避): groups the organizer lists — two brothers, a father and
//! son, a family or a club of any size, no two of whom meet — never, or not before round k;
//! and, as a tournament setting, every two players of one unit in rounds 1..k (同单位回避,
//! rules.md §14.4, made as hard as the list).
//!
//! The engines weigh such a pair like a rematch (rules.md §14.1 item 3: a constraint, not a
//! preference; [`super::weights::Criterion::Forbidden`] on the rematch multiplier): a round
//! pairs as few of them as any complete pairing can, so none where a legal pairing exists.
//! Where none exists the round is paired anyway and [`super::review`] names every pair that
//! had to meet. Swiss round 1 (the halves by lot) swaps partners to clear them, as it does
//! for units; a round robin's schedule is fixed by its Berger table (everyone meets everyone,
//! so "never" cannot be honoured and the review names the pair in the round it meets); a
//! knockout bracket is fixed by its seeding, and the review names a listed pair it brings
//! together.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};

use super::{ordered, Player, PlayerId, Settings};

/// One group the organizer listed: no two members meet before round `until_round` (`None`:
/// never). A pair is a group of two.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Avoidance {
    /// The organizer's label for the group (a family's name, a club).
    pub label: String,
    pub members: Vec<PlayerId>,
    /// The first round its members may meet; `None`: never.
    pub until_round: Option<u32>,
}

impl Avoidance {
    /// Whether the group binds when pairing `round`: always, or before `until_round`.
    pub fn applies_in(&self, round: u32) -> bool {
        self.until_round.is_none_or(|k| round < k)
    }
}

/// Why a pair must not meet in a round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Barrier {
    /// A group the organizer listed, by its label.
    Listed { label: String },
    /// Both players are of this unit and the round is within the same-unit rounds.
    SameUnit { unit: String },
}

/// The pairs of the listed groups that bind in `round` (each unordered pair once, as
/// [`ordered`]), with the index of the first group that names it.
pub fn listed_pairs(groups: &[Avoidance], round: u32) -> HashMap<(PlayerId, PlayerId), usize> {
    let mut out = HashMap::new();
    for (i, g) in groups.iter().enumerate().filter(|(_, g)| g.applies_in(round)) {
        let members: Vec<PlayerId> = g.members.iter().copied().collect::<HashSet<_>>().into_iter().collect();
        for (k, &a) in members.iter().enumerate() {
            for &b in &members[k + 1..] {
                out.entry(ordered(a, b)).or_insert(i);
            }
        }
    }
    out
}

/// Why `a` and `b` must not meet in `round`, if they must not: a listed group first, then the
/// same-unit rounds of `settings`.
pub fn barrier(
    groups: &[Avoidance],
    settings: &Settings,
    round: u32,
    a: &Player,
    b: &Player,
) -> Option<Barrier> {
    if let Some(g) =
        groups.iter().find(|g| g.applies_in(round) && g.members.contains(&a.id) && g.members.contains(&b.id))
    {
        if a.id != b.id {
            return Some(Barrier::Listed { label: g.label.clone() });
        }
    }
    let unit = unit_key(&a.unit);
    if settings.unit_barred_in(round) && !unit.is_empty() && unit == unit_key(&b.unit) {
        return Some(Barrier::SameUnit { unit: unit.to_string() });
    }
    None
}

/// Units compare after trimming surrounding spaces.
pub(crate) fn unit_key(u: &str) -> &str {
    u.trim()
}

/// The longest label of a group, in characters.
pub const MAX_LABEL: usize = 60;
/// The longest reason (the organizer's words, never public), in characters.
pub const MAX_REASON: usize = 500;

/// Why a group cannot be listed as the organizer typed it (each beside its form field).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GroupProblem {
    /// No label, or one longer than [`MAX_LABEL`].
    Label,
    /// A reason longer than [`MAX_REASON`].
    Reason,
    /// Fewer than two distinct members: nobody to keep apart.
    TooFew,
    /// A member who is not an entrant of the event.
    NotAnEntrant,
    /// "Not before round k" with k below 2 (round 1 is the first any pair may meet: nothing
    /// to forbid) or beyond the event's possible rounds.
    Round,
}

impl GroupProblem {
    /// The form field the problem goes beside.
    pub fn field(self) -> &'static str {
        match self {
            GroupProblem::Label => "label",
            GroupProblem::Reason => "reason",
            GroupProblem::TooFew | GroupProblem::NotAnEntrant => "members",
            GroupProblem::Round => "until_round",
        }
    }
}

/// What is wrong with a group as typed: `members` (entrant ids) among the event's `entrants`,
/// not before round `until_round` (`None`: never), of at most `max_round` (the most rounds an
/// event may have).
pub fn check_group(
    label: &str,
    reason: &str,
    members: &[i32],
    until_round: Option<u32>,
    (entrants, max_round): (&[i32], u32),
) -> Vec<GroupProblem> {
    let mut out = Vec::new();
    let label_len = label.trim().chars().count();
    if label_len == 0 || label_len > MAX_LABEL {
        out.push(GroupProblem::Label);
    }
    if reason.chars().count() > MAX_REASON {
        out.push(GroupProblem::Reason);
    }
    if members.iter().any(|m| !entrants.contains(m)) {
        out.push(GroupProblem::NotAnEntrant);
    } else if members.iter().collect::<HashSet<_>>().len() < 2 {
        out.push(GroupProblem::TooFew);
    }
    if until_round.is_some_and(|k| !(2..=max_round).contains(&k)) {
        out.push(GroupProblem::Round);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group(members: &[PlayerId], until_round: Option<u32>) -> Avoidance {
        Avoidance { label: "王家".into(), members: members.to_vec(), until_round }
    }

    /// Tournament practice for forbidden pairings (a pair is a group of two; "not before round
    /// k" from round 2 on): what an organizer may list, each problem beside its field.
    #[test]
    fn a_group_is_checked_as_typed() {
        let entrants = [10, 11, 12];
        assert!(check_group("王家", "", &[10, 11], None, (&entrants, 99)).is_empty());
        assert!(check_group("王家", "", &[10, 11, 12], Some(3), (&entrants, 99)).is_empty());
        assert_eq!(check_group(" ", "", &[10, 11], None, (&entrants, 99)), vec![GroupProblem::Label]);
        assert_eq!(check_group("王家", "", &[10, 10], None, (&entrants, 99)), vec![GroupProblem::TooFew]);
        assert_eq!(
            check_group("王家", "", &[10, 99], None, (&entrants, 99)),
            vec![GroupProblem::NotAnEntrant]
        );
        assert_eq!(check_group("王家", "", &[10, 11], Some(1), (&entrants, 99)), vec![GroupProblem::Round]);
        assert_eq!(check_group("王家", "", &[10, 11], Some(100), (&entrants, 99)), vec![GroupProblem::Round]);
        let long = "字".repeat(MAX_REASON + 1);
        assert_eq!(check_group("王家", &long, &[10, 11], None, (&entrants, 99)), vec![GroupProblem::Reason]);
        assert_eq!(GroupProblem::TooFew.field(), "members");
    }

    /// The organizer's list (never, or not before round k): a group of three binds its three
    /// pairs; "not before round 3" binds rounds 1 and 2 only.
    #[test]
    fn groups_bind_their_pairs_until_their_round() {
        let g = [group(&[3, 1, 2], None), group(&[4, 5], Some(3))];
        let r2 = listed_pairs(&g, 2);
        assert_eq!(r2.len(), 4);
        assert!(r2.contains_key(&(1, 3)) && r2.contains_key(&(2, 3)) && r2.contains_key(&(4, 5)));
        let r3 = listed_pairs(&g, 3);
        assert_eq!(r3.len(), 3);
        assert!(!r3.contains_key(&(4, 5)));
    }

    /// rules.md §14.4 同单位回避 made hard for rounds 1..k: the barrier names the unit within
    /// those rounds and nothing after; a listed group is named first.
    #[test]
    fn barrier_names_the_group_or_the_unit() {
        let mut a = Player::new(1, 0);
        let mut b = Player::new(2, 0);
        a.unit = "棋院".into();
        b.unit = " 棋院 ".into();
        let settings = Settings { same_unit_barred_rounds: 2, ..Settings::default() };
        assert_eq!(barrier(&[], &settings, 2, &a, &b), Some(Barrier::SameUnit { unit: "棋院".into() }));
        assert_eq!(barrier(&[], &settings, 3, &a, &b), None);
        let g = [group(&[1, 2], None)];
        assert_eq!(barrier(&g, &settings, 1, &a, &b), Some(Barrier::Listed { label: "王家".into() }));
        assert_eq!(
            barrier(&g, &Settings::default(), 9, &a, &b),
            Some(Barrier::Listed { label: "王家".into() })
        );
    }

    use crate::pairing::review::{review, Warning};
    use crate::pairing::testutil::{self, assert_complete, min_cost};
    use crate::pairing::{mcmahon, meetings, swiss, History, RoundPairing};
    use proptest::prelude::*;

    /// Random groups of two to four of `ids`, some never, some until a round.
    fn random_groups(ids: &[PlayerId], seed: u64) -> Vec<Avoidance> {
        let mut lot = crate::draw::lots::Lot::new(seed ^ 0x5eed, crate::draw::lots::Stream::Synthetic);
        let mut out = Vec::new();
        for i in 0..(1 + lot.pick(3)) {
            let size = 2 + lot.pick(3);
            let mut pool = ids.to_vec();
            lot.shuffle(&mut pool);
            let until_round = if lot.coin() { None } else { Some(2 + lot.pick(4) as u32) };
            out.push(Avoidance {
                label: format!("g{i}"),
                members: pool.into_iter().take(size).collect(),
                until_round,
            });
        }
        out
    }

    /// The games of `rp` whose pair must not meet in its round.
    fn forbidden_games(rp: &RoundPairing, listed: &HashMap<(PlayerId, PlayerId), usize>) -> usize {
        rp.games.iter().filter(|g| listed.contains_key(&ordered(g.black, g.white))).count()
    }

    proptest! {
        // A fixed RNG and number of cases, as the rematch properties in `swiss`.
        #![proptest_config(ProptestConfig {
            cases: 48,
            rng_algorithm: proptest::test_runner::RngAlgorithm::ChaCha,
            rng_seed: proptest::test_runner::RngSeed::Fixed(20261208),
            ..ProptestConfig::default()
        })]

        /// Rules.md §14.1 item 3 (no rematches) extended to the organizer's list: a forbidden
        /// pair weighs like a rematch, so Swiss and McMahon pair the fewest rematch and forbidden
        /// games any complete pairing can (brute force), hence none where a legal pairing
        /// exists; the review names every forbidden pair that had to meet.
        #[test]
        fn forbidden_pairs_meet_only_when_no_legal_pairing_exists(
            n in 2usize..10, rounds in 1u32..4, seed in any::<u64>(), mcm in any::<bool>()
        ) {
            let players = testutil::players(n, seed);
            let ids: Vec<PlayerId> = players.iter().map(|p| p.id).collect();
            let mut h = testutil::history(&players, rounds, seed);
            h.avoid = random_groups(&ids, seed);
            let settings = Settings::default();
            let round = rounds + 1;
            let rp = if mcm {
                mcmahon::pair_round(&players, &h, &settings, round, seed).unwrap()
            } else {
                swiss::pair_round(&players, &h, &settings, round, seed).unwrap()
            };
            assert_complete(&players, &rp);
            let met = meetings(&h, &settings, round);
            let listed = listed_pairs(&h.avoid, round);
            let cost = |a: PlayerId, b: PlayerId| {
                usize::from(met.contains_key(&ordered(a, b))) + usize::from(listed.contains_key(&ordered(a, b)))
            };
            let got: usize = rp.games.iter().map(|g| cost(g.black, g.white)).sum();
            let best = min_cost(&ids, &cost);
            prop_assert_eq!(got, best);
            let without_rematch = min_cost(&ids, &|a, b| if met.contains_key(&ordered(a, b)) { 99 } else { cost(a, b) });
            if without_rematch == 0 {
                prop_assert_eq!(forbidden_games(&rp, &listed), 0);
            }
            let w = review(&players, &h, &settings, &rp, &|_, p| p).unwrap();
            let named = w.iter().filter(|w| matches!(w, Warning::Forbidden { why: Barrier::Listed { .. }, .. })).count();
            prop_assert_eq!(named, forbidden_games(&rp, &listed));
        }

        /// Rules.md §14.2 with the list: Swiss round 1 swaps lower-half partners to keep a
        /// family of three apart; in a field of eight or more a swap always exists.
        #[test]
        fn round_one_keeps_a_family_apart(n in 8usize..30, seed in any::<u64>()) {
            let players = testutil::players(n, seed);
            let h = History { avoid: vec![Avoidance { label: "李家".into(), members: vec![1, 2, 3], until_round: None }], ..History::default() };
            let rp = swiss::pair_round(&players, &h, &Settings::default(), 1, seed).unwrap();
            assert_complete(&players, &rp);
            prop_assert_eq!(forbidden_games(&rp, &listed_pairs(&h.avoid, 1)), 0);
        }

        /// Rules.md §14.4 同单位回避 made hard for rounds 1..k: players of one unit never meet
        /// in those rounds where a pairing without it exists, later rounds weigh units as before.
        #[test]
        fn one_unit_does_not_meet_in_the_first_k_rounds(n in 4usize..10, rounds in 1u32..3, seed in any::<u64>()) {
            let players = testutil::players(n, seed);
            let ids: Vec<PlayerId> = players.iter().map(|p| p.id).collect();
            let h = testutil::history(&players, rounds, seed);
            let settings = Settings { same_unit_rounds: 0, same_unit_barred_rounds: 3, ..Settings::default() };
            let round = rounds + 1;
            let rp = swiss::pair_round(&players, &h, &settings, round, seed).unwrap();
            let unit = |id: PlayerId| unit_key(&players[id as usize - 1].unit).to_string();
            let one_unit = |a: PlayerId, b: PlayerId| !unit(a).is_empty() && unit(a) == unit(b);
            let met = meetings(&h, &settings, round);
            let cost = |a: PlayerId, b: PlayerId| usize::from(met.contains_key(&ordered(a, b))) + usize::from(one_unit(a, b));
            let got: usize = rp.games.iter().map(|g| cost(g.black, g.white)).sum();
            prop_assert_eq!(got, min_cost(&ids, &cost));
            let w = review(&players, &h, &settings, &rp, &|_, p| p).unwrap();
            let named = w.iter().filter(|w| matches!(w, Warning::Forbidden { why: Barrier::SameUnit { .. }, .. })).count();
            prop_assert_eq!(named, rp.games.iter().filter(|g| one_unit(g.black, g.white)).count());
        }
    }

    /// Rules.md §14.1 item 3's "unless no legal pairing exists": four players, all of one
    /// listed group — a pairing must bring two pairs of them together; the engine pairs all
    /// four and the review names both forced pairs with the group's label.
    #[test]
    fn with_no_legal_pairing_the_review_names_the_pair() {
        let players: Vec<Player> = (1..=4).map(|i| Player::new(i, 0)).collect();
        let mut h = History::default();
        h.games.push(crate::pairing::PlayedGame::new(1, 1, 2, crate::pairing::GameResult::BlackWins));
        h.games.push(crate::pairing::PlayedGame::new(1, 3, 4, crate::pairing::GameResult::BlackWins));
        h.avoid = vec![Avoidance { label: "张家".into(), members: vec![1, 2, 3, 4], until_round: None }];
        let settings = Settings::default();
        let rp = swiss::pair_round(&players, &h, &settings, 2, 7).unwrap();
        assert_complete(&players, &rp);
        // No rematch, so the two games are the group's: forced.
        assert_eq!(forbidden_games(&rp, &listed_pairs(&h.avoid, 2)), 2);
        let w = review(&players, &h, &settings, &rp, &|_, p| p).unwrap();
        let named: Vec<_> = w
            .iter()
            .filter_map(|w| match w {
                Warning::Forbidden { why: Barrier::Listed { label }, .. } => Some(label.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(named, ["张家", "张家"]);
        // The per-pair "why" carries the forced term on the rematch multiplier.
        for g in &rp.games {
            assert!(
                g.explain.iter().any(|(c, w)| *c == crate::pairing::Criterion::Forbidden && *w < 0),
                "{g:?}"
            );
        }
    }
}
