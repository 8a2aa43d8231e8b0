//! Pairing criteria as integer weights (Swiss and McMahon share them).
//!
//! The weight of a candidate pair is `BASE − Σ penalty(criterion) × multiplier(criterion)`,
//! always positive; the round is the maximum-weight matching. The multipliers are
//! **lexicographic over the whole round**: each criterion's multiplier exceeds the largest
//! total that all lower criteria can add up to over a round of this size, so no amount of
//! lower-level gain can pay for one unit of a higher criterion. Highest first:
//!
//! | criterion | penalty per pair | source |
//! |---|---|---|
//! | [`Criterion::Rematch`] | 1 if the pair has already played (however often) | rules.md §14.1 item 3: no rematches |
//! | [`Criterion::Forbidden`] | 1 if the pair must not meet this round ([`super::avoid`]) | the organizer's list, 同单位回避 in rounds 1..k: as hard as no rematch |
//! | [`Criterion::Bye`] | bye pair only: the player's place in the bye order | §14.5: lowest-ranked without a bye |
//! | [`Criterion::SameUnitHard`] | 1 if same unit (hard setting) | §14.4, below no-rematch |
//! | [`Criterion::ScoreGap`] | Δ² (Δ = score gap in half points, capped at 127) | §14.3: same score, else the nearest score |
//! | [`Criterion::SameUnitSoft`] | 1 if same unit (soft setting) | §14.4 |
//! | [`Criterion::Handicap`] | stones given (McMahon with handicaps) | decisions: handicap per setting |
//! | [`Criterion::Colour`] | colour cost of the better orientation | §14.3: balance, never at the cost of score |
//!
//! Because the rematch multiplier exceeds everything below it summed over the round, a pairing with
//! a rematch never wins against one without, and the round has the fewest rematch games possible
//! (tests below and in `swiss`). The penalty counts rematch *games*, not earlier meetings: weighing
//! a pair by how often it met made one third meeting cost as much as two second meetings, so the
//! engine could pair two rematches where one would do (rules.md §14.1: no rematches, so as few as
//! possible). Where rematches cannot be avoided, who meets again is decided by the criteria below.
//! The score penalty is convex (Δ²): two floats of one step beat one float of two steps, i.e.
//! floats go to the nearest score. Who meets whom among otherwise equal pairs is decided by the
//! seeded order of players inside each score group (pairing by lot).
//!
//! Colour cost of giving colour c to a player with balance b (assigned Blacks − Whites over
//! games played on the board, rules.md §4.3), lists' balance l (the same over every game the
//! pairing lists gave colours to, forfeits included) and last colours: with b' = b ± 1 and
//! l' = l ± 1, [`TWO_OFF`] if |b'| = 2 and [`THREE_OFF`] if |b'| ≥ 3, plus [`LISTS_OFF`]
//! if |l'| ≥ 2, plus [`STREAK`] if the last two colours were both c (three in a row), plus
//! [`ALTERNATE`] if the last colour was c (prefer alternation).
//!
//! The lists' term is there because a forfeited game has no first move, so §14.3's balance
//! leaves it out, but its colour was printed on the pairing list, and OpenGotha (and issue
//! 16's count) counts it: where the board leaves the choice open, the colour and the
//! opponent that also even the lists are taken. Its weight sets the trade-offs: in one game,
//! evening both players' lists (2 × 60) never pays for putting one of them two off on the
//! board (128 + 60, the lists then off too unless a forfeit evens them), while it may pay
//! for a third colour in a row (96); one player's lists never do. Over a round the matching
//! could still trade lists for board balance; measured on big Swiss and McMahon fields it lowered
//! both counts (BENCHMARKS.md). Two other weightings were tried and not kept: 2 against 16
//! and 13, and the lists only where the board stays within one: both let the matching put
//! players two off on the board for lists evened elsewhere. Without forfeits l = b and the
//! lists' term only adds to a two-off: who of a pair takes Black is decided as before it
//! (`without_forfeits_the_lists_change_no_colour`, every history of up to five games), and
//! the forfeit-free events of BENCHMARKS.md were paired the same. [`THREE_OFF`] keeps one
//! player three off dearer than two players two off (384 + 60 > 2 × (128 + 60)). The colour
//! cost of a pair must stay below 2¹¹ ([`COLOUR_MAX`]) for the scale to fit the largest
//! field.
//!
//! Balance comes first: §14.3 balances each player's first- and
//! second-move counts, while avoiding a third colour in a row is a FIDE-like default [INF].
//! So a player whose due colour is the colour of their last two games (Blacks B B B W W:
//! White keeps them level, Black puts them two off) takes it a third time (STREAK < TWO_OFF)
//! rather than ending two colours off. One of the two must happen to such a player, whatever
//! the pairing; `tengen-lab bench pair` prints how many there are (`torn`).

use std::collections::{HashMap, HashSet};

use matching::Problem;
use serde::{Deserialize, Serialize};

use super::{Colour, PlayerId};

/// A pairing criterion (see the module table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Criterion {
    /// The constant every pair starts from.
    Base,
    Rematch,
    /// A pair that must not meet this round ([`super::avoid`]): weighed like a rematch.
    Forbidden,
    Bye,
    SameUnitHard,
    ScoreGap,
    SameUnitSoft,
    Handicap,
    Colour,
}

/// A player two colours off on the board after the game (module docs).
pub const TWO_OFF: i128 = 128;
/// A player three or more colours off on the board.
pub const THREE_OFF: i128 = 384;
/// The same colour a third time running.
pub const STREAK: i128 = 96;
/// The lists' balance (forfeits included) two or more off: below half a two-off on the
/// board, above half a third colour in a row (module docs).
pub const LISTS_OFF: i128 = 60;
/// The same colour as last time.
pub const ALTERNATE: i128 = 1;

/// Largest colour penalty of one pair: two players, THREE_OFF + STREAK + LISTS_OFF +
/// ALTERNATE = 541 each at most.
pub const COLOUR_MAX: i128 = 2047;

// The spacing the module docs promise, checked when the crate compiles: both lists of a
// game (and alternation) stay below one player two off on the board and below the step from
// two off to three off; one player's lists stay below a third colour, two are above it; one
// player three off costs more than two players two off; a pair's cost fits COLOUR_MAX.
const _: () = {
    assert!(2 * (LISTS_OFF + ALTERNATE) < TWO_OFF && 2 * (LISTS_OFF + ALTERNATE) < THREE_OFF - TWO_OFF);
    assert!(LISTS_OFF + ALTERNATE < STREAK && 2 * LISTS_OFF > STREAK);
    assert!(THREE_OFF + LISTS_OFF > 2 * (TWO_OFF + LISTS_OFF));
    assert!(2 * (THREE_OFF + STREAK + LISTS_OFF + ALTERNATE) <= COLOUR_MAX);
};
/// Largest handicap penalty of one pair.
pub const HANDICAP_MAX: i128 = 15;
/// Largest score-gap penalty of one pair (127²).
pub const SCORE_MAX: i128 = 127 * 127;
/// Largest rematch penalty of one pair: a rematch game counts once, however often the pair met.
pub const REMATCH_MAX: i128 = 1;
/// Largest forbidden-pair penalty of one pair, on the rematch multiplier: a pair that must not
/// meet counts as one more rematch game ([`super::avoid`]).
pub const FORBIDDEN_MAX: i128 = 1;

/// The multipliers for a field of a given size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scale {
    pub colour: i128,
    pub handicap: i128,
    pub unit_soft: i128,
    pub score: i128,
    pub unit_hard: i128,
    pub bye: i128,
    pub rematch: i128,
    pub base: i128,
}

fn bits(x: u64) -> u32 {
    64 - x.leading_zeros()
}

impl Scale {
    /// Multipliers for `vertices` vertices (players plus the bye vertex). With `pb` the bits
    /// of the number of pairs, each multiplier is the one below times 2^(bits of the lower
    /// penalty + pb), so lower criteria summed over all pairs stay below one unit.
    pub fn for_field(vertices: usize) -> Scale {
        let pb = bits(vertices as u64 / 2 + 1);
        let nb = bits(vertices as u64 + 1);
        let colour = 1i128;
        let handicap = colour << (bits(COLOUR_MAX as u64) + pb);
        let unit_soft = handicap << (bits(HANDICAP_MAX as u64) + pb);
        let score = unit_soft << (1 + pb);
        let unit_hard = score << (bits(SCORE_MAX as u64) + pb);
        let bye = unit_hard << (1 + pb);
        // Only one bye pair per round: its penalty (a place < 2^nb) needs no pb.
        let rematch = bye << nb;
        let base = rematch * (REMATCH_MAX + FORBIDDEN_MAX + 1);
        Scale { colour, handicap, unit_soft, score, unit_hard, bye, rematch, base }
    }
}

/// A player's colour history as the colour criterion sees it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ColourState {
    /// Assigned Blacks − Whites over games played on the board.
    pub balance: i32,
    pub last: Option<Colour>,
    /// The colour before the last.
    pub before_last: Option<Colour>,
    /// Assigned Blacks − Whites over every game the lists gave colours to, forfeits included
    /// ([`super::PlayerRecord::listed_balance`]).
    pub listed: i32,
}

impl ColourState {
    pub fn from_colours(colours: &[Colour]) -> ColourState {
        let balance = colours.iter().map(|&c| if c == Colour::Black { 1 } else { -1 }).sum();
        let last = colours.last().copied();
        let before_last = colours.len().checked_sub(2).map(|i| colours[i]);
        ColourState { balance, last, before_last, listed: balance }
    }

    /// A player's state from the history's record: the colours played on the board and the
    /// balance of the lists.
    pub fn from_record(rec: &super::PlayerRecord) -> ColourState {
        ColourState { listed: rec.listed_balance, ..ColourState::from_colours(&rec.colours) }
    }

    /// The penalty of giving this player colour `c` (module docs).
    pub fn cost(&self, c: Colour) -> i128 {
        let after = self.balance + if c == Colour::Black { 1 } else { -1 };
        let mut cost = match after.unsigned_abs() {
            0 | 1 => 0,
            2 => TWO_OFF,
            _ => THREE_OFF,
        };
        if self.lists_off(c) {
            cost += LISTS_OFF;
        }
        if self.last == Some(c) {
            cost += ALTERNATE;
            if self.before_last == Some(c) {
                cost += STREAK;
            }
        }
        cost
    }

    /// Whether colour `c` leaves the lists' balance two or more off.
    pub fn lists_off(&self, c: Colour) -> bool {
        (self.listed + if c == Colour::Black { 1 } else { -1 }).unsigned_abs() >= 2
    }

    /// A representative with the same costs, for classing (balances beyond ±5 and ±3 cost
    /// the same as those).
    pub fn canonical(&self) -> ColourState {
        let before_last = if self.last.is_some() && self.before_last == self.last { self.last } else { None };
        let (balance, listed) = (self.balance.clamp(-5, 5), self.listed.clamp(-3, 3));
        ColourState { balance, last: self.last, before_last, listed }
    }

    /// Whether this player would rather have Black (−1), White (+1) or does not mind (0).
    pub fn leaning(&self) -> i32 {
        (self.cost(Colour::Black) - self.cost(Colour::White)).signum() as i32
    }
}

/// The colour cost of a pair when `black` takes Black: both players' costs.
pub fn orientation_cost(black: &ColourState, white: &ColourState) -> i128 {
    black.cost(Colour::Black) + white.cost(Colour::White)
}

/// One vertex of a weighted pairing problem: a player, or the bye.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vertex {
    /// `None` for the bye vertex.
    pub id: Option<PlayerId>,
    /// Pairing score in half points (Swiss points or McMahon score).
    pub score: i32,
    pub rank_value: i32,
    /// Interned unit; `None` when the player has no unit.
    pub unit: Option<u32>,
    pub colour: ColourState,
    /// Place in the bye order (0 = first to get the bye).
    pub bye_place: u32,
    /// Whether the player is at or above the McMahon bar (for `below_bar_only`).
    pub above_bar: bool,
}

/// One player as a handicap rule sees them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandicapSide {
    pub rank_value: i32,
    /// Pairing score in half points (Swiss points or McMahon score).
    pub score: i32,
    /// At or above the McMahon bar (for `below_bar_only`).
    pub above_bar: bool,
}

impl From<&Vertex> for HandicapSide {
    fn from(v: &Vertex) -> HandicapSide {
        HandicapSide { rank_value: v.rank_value, score: v.score, above_bar: v.above_bar }
    }
}

/// Stones a game between `a` and `b` gets under `rule` (0 = even game with komi, 1 = no-komi
/// game 让先, n ≥ 2 = n stones): the difference (ranks, or pairing scores in wins rounded
/// down) minus the reduction, never below 0, capped at the rule's maximum and at 9; even when
/// the rule says so for a player at or above the bar.
pub fn handicap_stones(rule: super::HandicapRule, a: HandicapSide, b: HandicapSide) -> u8 {
    use super::HandicapRule as H;
    let (diff, reduction, max, below_bar_only) = match rule {
        H::None => return 0,
        H::RankDifference { reduction, max, below_bar_only } => {
            ((a.rank_value - b.rank_value).abs(), reduction, max, below_bar_only)
        }
        H::ScoreDifference { reduction, max, below_bar_only, per_stone } => {
            let gap = (i64::from(a.score) - i64::from(b.score)).abs();
            let stones = gap / i64::from(per_stone.max(1));
            (stones.min(1000) as i32, reduction, max, below_bar_only)
        }
    };
    if below_bar_only && (a.above_bar || b.above_bar) {
        return 0;
    }
    diff.saturating_sub(reduction).clamp(0, max.clamp(0, 9)) as u8
}

/// Whether `a` is the weaker player of a handicap game, who takes Black: the lower pairing
/// score under a score rule (then the lower rank), otherwise the lower rank (then the lower
/// score). Only meaningful when [`handicap_stones`] is above 0.
pub fn a_takes_black(rule: super::HandicapRule, a: HandicapSide, b: HandicapSide) -> bool {
    let by_rank = (a.rank_value, a.score) < (b.rank_value, b.score);
    match rule {
        super::HandicapRule::ScoreDifference { .. } => (a.score, a.rank_value) < (b.score, b.rank_value),
        _ => by_rank,
    }
}

/// Handicap between two vertices (stones; 0 = even): [`handicap_stones`].
pub fn handicap_between(rule: super::HandicapRule, a: &Vertex, b: &Vertex) -> u8 {
    handicap_stones(rule, a.into(), b.into())
}

/// A field ready for matching: vertices in score order (the bye vertex last, if any).
#[derive(Clone, Debug)]
pub struct Field {
    pub vertices: Vec<Vertex>,
    pub met: HashMap<(PlayerId, PlayerId), u8>,
    pub scale: Scale,
    pub unit_avoidance: bool,
    pub unit_strength: super::UnitStrength,
    /// Whether the colour criterion weighs (colour method "balanced").
    pub balance_colours: bool,
    pub handicap: super::HandicapRule,
    /// The listed pairs that must not meet this round ([`super::avoid::listed_pairs`]).
    pub barred: HashSet<(PlayerId, PlayerId)>,
    /// Whether two players of one unit must not meet this round (同单位回避 in rounds 1..k).
    pub unit_barred: bool,
    // Classes for the dual check: (score, canonical colour state) → class.
    class_of: Vec<usize>,
    class_rep: Vec<(i32, ColourState)>,
}

impl Field {
    pub fn new(
        vertices: Vec<Vertex>,
        met: HashMap<(PlayerId, PlayerId), u8>,
        unit_avoidance: bool,
        unit_strength: super::UnitStrength,
        balance_colours: bool,
        handicap: super::HandicapRule,
    ) -> Field {
        let scale = Scale::for_field(vertices.len());
        let mut ids: HashMap<(i32, ColourState), usize> = HashMap::new();
        let mut class_rep = Vec::new();
        let class_of = vertices
            .iter()
            .map(|v| {
                let c = if balance_colours { v.colour.canonical() } else { ColourState::default() };
                *ids.entry((v.score, c)).or_insert_with(|| {
                    class_rep.push((v.score, c));
                    class_rep.len() - 1
                })
            })
            .collect();
        Field {
            vertices,
            met,
            scale,
            unit_avoidance,
            unit_strength,
            balance_colours,
            handicap,
            barred: HashSet::new(),
            unit_barred: false,
            class_of,
            class_rep,
        }
    }

    fn score_penalty(a: i32, b: i32) -> i128 {
        let d = i128::from((a - b).unsigned_abs().min(127));
        d * d
    }

    /// The best colour cost of the pair and whether `a` takes Black in it (`None`: either, a
    /// lot decides). In a handicap game the weaker player takes Black, so the orientation is
    /// forced.
    pub fn colour_choice(&self, a: usize, b: usize) -> (i128, Option<bool>) {
        let (va, vb) = (&self.vertices[a], &self.vertices[b]);
        let h = handicap_between(self.handicap, va, vb);
        let ab = orientation_cost(&va.colour, &vb.colour);
        let ba = orientation_cost(&vb.colour, &va.colour);
        if h > 0 {
            let a_black = a_takes_black(self.handicap, va.into(), vb.into());
            return (if a_black { ab } else { ba }, Some(a_black));
        }
        if !self.balance_colours {
            return (0, None);
        }
        match ab.cmp(&ba) {
            std::cmp::Ordering::Less => (ab, Some(true)),
            std::cmp::Ordering::Greater => (ba, Some(false)),
            std::cmp::Ordering::Equal => (ab, None),
        }
    }

    /// Every criterion of pair (a, b) with its signed weight; the sum is the pair's weight.
    pub fn explain(&self, a: usize, b: usize) -> Vec<(Criterion, i128)> {
        let mut out = Vec::with_capacity(8);
        self.terms(a, b, &mut |c, w| out.push((c, w)));
        out
    }

    /// Visits every criterion of pair (a, b) with its signed weight (no allocation).
    fn terms(&self, a: usize, b: usize, visit: &mut impl FnMut(Criterion, i128)) {
        let s = &self.scale;
        let (va, vb) = (&self.vertices[a], &self.vertices[b]);
        visit(Criterion::Base, s.base);
        let (ia, ib) = match (va.id, vb.id) {
            (Some(ia), Some(ib)) => (ia, ib),
            _ => {
                let p = if va.id.is_none() { vb } else { va };
                visit(Criterion::Bye, -s.bye * i128::from(p.bye_place));
                return;
            }
        };
        let met = i128::from(*self.met.get(&super::ordered(ia, ib)).unwrap_or(&0)).min(REMATCH_MAX);
        visit(Criterion::Rematch, -s.rematch * met);
        let one_unit = va.unit.is_some() && va.unit == vb.unit;
        let barred = self.barred.contains(&super::ordered(ia, ib)) || self.unit_barred && one_unit;
        visit(Criterion::Forbidden, -s.rematch * i128::from(barred));
        let same_unit = self.unit_avoidance && one_unit;
        let unit = i128::from(same_unit);
        match self.unit_strength {
            super::UnitStrength::Hard => visit(Criterion::SameUnitHard, -s.unit_hard * unit),
            super::UnitStrength::Soft => visit(Criterion::SameUnitSoft, -s.unit_soft * unit),
        }
        visit(Criterion::ScoreGap, -s.score * Self::score_penalty(va.score, vb.score));
        if self.handicap != super::HandicapRule::None {
            let h = handicap_between(self.handicap, va, vb);
            visit(Criterion::Handicap, -s.handicap * i128::from(h));
        }
        if self.balance_colours {
            visit(Criterion::Colour, -s.colour * self.colour_choice(a, b).0);
        }
    }
}

impl Problem for Field {
    fn len(&self) -> usize {
        self.vertices.len()
    }

    fn weight(&self, a: usize, b: usize) -> i128 {
        let mut w = 0;
        self.terms(a, b, &mut |_, x| w += x);
        w
    }

    fn class(&self, v: usize) -> usize {
        self.class_of[v]
    }

    fn class_count(&self) -> usize {
        self.class_rep.len()
    }

    fn class_bound(&self, ca: usize, cb: usize) -> i128 {
        let (sa, ref ca_col) = self.class_rep[ca];
        let (sb, ref cb_col) = self.class_rep[cb];
        let mut w = self.scale.base - self.scale.score * Self::score_penalty(sa, sb);
        if self.balance_colours && self.handicap == super::HandicapRule::None {
            w -= orientation_cost(ca_col, cb_col).min(orientation_cost(cb_col, ca_col));
        }
        w
    }

    fn is_hub(&self, v: usize) -> bool {
        self.vertices[v].id.is_none()
    }

    fn leaning(&self, v: usize) -> i32 {
        if self.balance_colours && self.handicap == super::HandicapRule::None {
            self.vertices[v].colour.leaning()
        } else {
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pairing::{HandicapRule, UnitStrength};

    fn v(id: u32, score: i32) -> Vertex {
        Vertex {
            id: Some(id),
            score,
            rank_value: 0,
            unit: None,
            colour: ColourState::default(),
            bye_place: 0,
            above_bar: false,
        }
    }

    fn field(vs: Vec<Vertex>, met: &[(u32, u32)]) -> Field {
        let met = met.iter().map(|&(a, b)| (crate::pairing::ordered(a, b), 1)).collect();
        Field::new(vs, met, true, UnitStrength::Hard, true, HandicapRule::None)
    }

    fn get(e: &[(Criterion, i128)], c: Criterion) -> i128 {
        e.iter().find(|x| x.0 == c).map(|x| x.1).unwrap_or(0)
    }

    #[test]
    fn scale_is_lexicographic_and_fits() {
        for n in [2usize, 3, 10, 101, 1000, 10_000, crate::pairing::MAX_PLAYERS + 1] {
            let s = Scale::for_field(n);
            let pairs = (n / 2 + 1) as i128;
            assert!(s.handicap > pairs * COLOUR_MAX);
            assert!(s.unit_soft > pairs * (HANDICAP_MAX * s.handicap + COLOUR_MAX));
            assert!(s.score > pairs * (s.unit_soft + HANDICAP_MAX * s.handicap + COLOUR_MAX));
            assert!(
                s.unit_hard
                    > pairs * (SCORE_MAX * s.score + s.unit_soft + HANDICAP_MAX * s.handicap + COLOUR_MAX)
            );
            assert!(s.bye > pairs * (s.unit_hard + SCORE_MAX * s.score + s.score));
            assert!(s.rematch > n as i128 * s.bye, "bye places are below n");
            // Doubled duals and sums stay far from i128 overflow.
            assert!(s.base < 1i128 << 124, "n = {n}");
        }
    }

    #[test]
    fn rematch_term() {
        let f = field(vec![v(1, 0), v(2, 0), v(3, 0)], &[(1, 2)]);
        assert_eq!(get(&f.explain(0, 1), Criterion::Rematch), -f.scale.rematch);
        assert_eq!(get(&f.explain(0, 2), Criterion::Rematch), 0);
        assert!(f.weight(0, 1) > 0);
        // A rematch game counts once however often the pair met: the round then has the
        // fewest rematch games (rules.md §14.1), not the fewest earlier meetings.
        let mut often = f.clone();
        often.met.insert((1, 2), 3);
        assert_eq!(get(&often.explain(0, 1), Criterion::Rematch), -f.scale.rematch);
    }

    #[test]
    fn score_term_is_convex_in_the_gap() {
        let f = field(vec![v(1, 8), v(2, 8), v(3, 4), v(4, 0)], &[]);
        assert_eq!(get(&f.explain(0, 1), Criterion::ScoreGap), 0);
        assert_eq!(get(&f.explain(0, 2), Criterion::ScoreGap), -16 * f.scale.score);
        assert_eq!(get(&f.explain(0, 3), Criterion::ScoreGap), -64 * f.scale.score);
        // Two one-step floats cost less than one two-step float.
        let one_step = get(&f.explain(1, 2), Criterion::ScoreGap);
        assert!(2 * one_step > get(&f.explain(0, 3), Criterion::ScoreGap));
    }

    #[test]
    fn unit_term_hard_and_soft_and_off() {
        let mut a = v(1, 0);
        let mut b = v(2, 0);
        a.unit = Some(7);
        b.unit = Some(7);
        let c = v(3, 0);
        let f = field(vec![a.clone(), b.clone(), c.clone()], &[]);
        assert_eq!(get(&f.explain(0, 1), Criterion::SameUnitHard), -f.scale.unit_hard);
        assert_eq!(get(&f.explain(0, 2), Criterion::SameUnitHard), 0);
        let soft = Field::new(
            vec![a.clone(), b.clone()],
            HashMap::new(),
            true,
            UnitStrength::Soft,
            true,
            HandicapRule::None,
        );
        assert_eq!(get(&soft.explain(0, 1), Criterion::SameUnitSoft), -soft.scale.unit_soft);
        let off = Field::new(vec![a, b], HashMap::new(), false, UnitStrength::Hard, true, HandicapRule::None);
        assert_eq!(get(&off.explain(0, 1), Criterion::SameUnitHard), 0);
    }

    #[test]
    fn colour_term() {
        let black_twice = ColourState::from_colours(&[Colour::Black, Colour::Black]);
        let white_once = ColourState::from_colours(&[Colour::White]);
        // Black again: balance 3 (on the lists too), plus a streak and alternation.
        assert_eq!(black_twice.cost(Colour::Black), THREE_OFF + LISTS_OFF + STREAK + ALTERNATE);
        assert_eq!(black_twice.cost(Colour::White), 0);
        assert_eq!(white_once.cost(Colour::Black), 0);
        assert_eq!(white_once.cost(Colour::White), TWO_OFF + LISTS_OFF + ALTERNATE);
        // Balance first: B B B W W is due White; a third White costs less than two off.
        let torn = ColourState::from_colours(&[
            Colour::Black,
            Colour::Black,
            Colour::Black,
            Colour::White,
            Colour::White,
        ]);
        assert_eq!(torn.cost(Colour::White), STREAK + ALTERNATE);
        assert_eq!(torn.cost(Colour::Black), TWO_OFF + LISTS_OFF);
        assert_eq!(torn.leaning(), 1, "leans to White, the third in a row");
        let mut a = v(1, 0);
        a.colour = black_twice;
        let mut b = v(2, 0);
        b.colour = white_once;
        let f = field(vec![a, b], &[]);
        assert_eq!(f.colour_choice(0, 1), (0, Some(false)));
        assert_eq!(get(&f.explain(0, 1), Criterion::Colour), 0);
        assert_eq!(f.colour_choice(1, 0), (0, Some(true)));
        // Max per pair stays under COLOUR_MAX.
        let worst = ColourState {
            balance: 40,
            last: Some(Colour::Black),
            before_last: Some(Colour::Black),
            listed: 40,
        };
        assert!(2 * worst.cost(Colour::Black) <= COLOUR_MAX);
        assert_eq!(worst.canonical().cost(Colour::Black), worst.cost(Colour::Black));
    }

    fn pair_of(a: ColourState, b: ColourState) -> Field {
        let (mut x, mut y) = (v(1, 0), v(2, 0));
        x.colour = a;
        y.colour = b;
        field(vec![x, y], &[])
    }

    #[test]
    fn the_lists_decide_only_where_the_board_and_the_streak_leave_the_choice() {
        use Colour::{Black as B, White as W};
        // Player 1 played B W, then a forfeit was listed as his Black: level on the board,
        // one Black up on the lists. Player 2 played B W too. Alternation alone would leave
        // it to a lot; the lists give player 1 White.
        let one = ColourState { listed: 1, ..ColourState::from_colours(&[B, W]) };
        let two = ColourState::from_colours(&[B, W]);
        assert!(one.lists_off(B) && !one.lists_off(W));
        assert_eq!(pair_of(one, two).colour_choice(0, 1), (ALTERNATE, Some(false)));
        assert_eq!(pair_of(two, one).colour_choice(0, 1), (ALTERNATE, Some(true)));
        assert_eq!(pair_of(two, two).colour_choice(0, 1), (ALTERNATE, None), "a lot without the forfeit");
        // The board's balance comes first: one Black up on the board takes White even if
        // the lists then end two Whites up.
        let board = ColourState { listed: -1, ..ColourState::from_colours(&[B]) };
        let fresh = ColourState::default();
        assert_eq!(pair_of(board, fresh).colour_choice(0, 1), (LISTS_OFF, Some(false)));
        // So does avoiding a third colour in a row: B B W W with a forfeit listed as Black
        // takes Black, and the lists end two Blacks up.
        let streak = ColourState { listed: 1, ..ColourState::from_colours(&[B, B, W, W]) };
        assert_eq!(pair_of(streak, fresh).colour_choice(0, 1), (LISTS_OFF, Some(true)));
        let far = ColourState { listed: 5, ..ColourState::from_colours(&[B, W]) };
        for c in [B, W] {
            assert_eq!(far.canonical().cost(c), far.cost(c), "clamping keeps the costs");
        }
    }

    /// Every pair of histories of up to 5 colours each, all played on the board: the lists'
    /// balance is the board's, and who takes Black is what the weights before the lists
    /// (two off 16, three off 36, a third colour 12, alternation 1) made it.
    #[test]
    fn without_forfeits_the_lists_change_no_colour() {
        use Colour::{Black as B, White as W};
        let before = |s: &ColourState, c: Colour| -> i32 {
            let after = s.balance + if c == B { 1 } else { -1 };
            let board = match after.abs() {
                0 | 1 => 0,
                2 => 16,
                _ => 36,
            };
            let streak = match (s.last == Some(c), s.before_last == Some(c)) {
                (true, true) => 13,
                (true, false) => 1,
                _ => 0,
            };
            board + streak
        };
        let mut histories = Vec::new();
        for len in 0..=5u32 {
            for bits in 0..(1u32 << len) {
                let cs: Vec<Colour> = (0..len).map(|i| if bits >> i & 1 == 1 { B } else { W }).collect();
                histories.push(ColourState::from_colours(&cs));
            }
        }
        for &a in &histories {
            assert_eq!(a.listed, a.balance);
            assert_eq!(a.leaning(), (before(&a, B) - before(&a, W)).signum(), "{a:?}");
            for &b in &histories {
                let (ab, ba) = (before(&a, B) + before(&b, W), before(&b, B) + before(&a, W));
                let by_before = match ab.cmp(&ba) {
                    std::cmp::Ordering::Less => Some(true),
                    std::cmp::Ordering::Greater => Some(false),
                    std::cmp::Ordering::Equal => None,
                };
                assert_eq!(pair_of(a, b).colour_choice(0, 1).1, by_before, "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn handicap_term_and_forced_colours() {
        let rule = HandicapRule::RankDifference { reduction: 1, max: 9, below_bar_only: false };
        let mut a = v(1, 0);
        a.rank_value = 3;
        let mut b = v(2, 0);
        b.rank_value = -1;
        assert_eq!(handicap_between(rule, &a, &b), 3);
        let f = Field::new(vec![a.clone(), b.clone()], HashMap::new(), false, UnitStrength::Hard, true, rule);
        assert_eq!(get(&f.explain(0, 1), Criterion::Handicap), -3 * f.scale.handicap);
        assert_eq!(f.colour_choice(0, 1).1, Some(false), "the weaker player takes Black");
        let mut a2 = a.clone();
        a2.above_bar = true;
        let bar = HandicapRule::RankDifference { reduction: 0, max: 9, below_bar_only: true };
        assert_eq!(handicap_between(bar, &a2, &b), 0);
        let capped = HandicapRule::RankDifference { reduction: 0, max: 2, below_bar_only: false };
        assert_eq!(handicap_between(capped, &a, &b), 2);
    }

    #[test]
    fn handicap_from_the_score_difference() {
        // 2/1/0 in half points: a win is 4. The 1k has won three more games than the 4d.
        let rule =
            HandicapRule::ScoreDifference { reduction: 1, max: 9, below_bar_only: false, per_stone: 4 };
        let strong = HandicapSide { rank_value: 3, score: 4, above_bar: false };
        let weak = HandicapSide { rank_value: -1, score: 16, above_bar: false };
        assert_eq!(handicap_stones(rule, strong, weak), 2, "3 wins apart − 1");
        assert!(a_takes_black(rule, strong, weak), "the lower McMahon score takes Black");
        let by_rank = HandicapRule::RankDifference { reduction: 1, max: 9, below_bar_only: false };
        assert_eq!(handicap_stones(by_rank, strong, weak), 3);
        assert!(!a_takes_black(by_rank, strong, weak), "by rank the 1k takes Black");
        // A draw's half win rounds down; the cap and the reduction never go below 0.
        let half = HandicapSide { score: 14, ..weak };
        assert_eq!(handicap_stones(rule, strong, half), 1);
        let big =
            HandicapRule::ScoreDifference { reduction: 0, max: 20, below_bar_only: false, per_stone: 4 };
        let far = HandicapSide { score: 4 + 4 * 15, ..weak };
        assert_eq!(handicap_stones(big, strong, far), 9, "never more than 9 stones");
        let generous =
            HandicapRule::ScoreDifference { reduction: 5, max: 9, below_bar_only: false, per_stone: 4 };
        assert_eq!(handicap_stones(generous, strong, weak), 0);
        let bar = HandicapRule::ScoreDifference { reduction: 0, max: 9, below_bar_only: true, per_stone: 4 };
        assert_eq!(handicap_stones(bar, HandicapSide { above_bar: true, ..strong }, weak), 0);
    }

    #[test]
    fn bye_term_orders_candidates() {
        let mut p = v(1, 0);
        p.bye_place = 3;
        let bye = Vertex { id: None, ..v(0, 0) };
        let f = field(vec![p, bye], &[]);
        assert_eq!(
            f.explain(0, 1),
            vec![(Criterion::Base, f.scale.base), (Criterion::Bye, -3 * f.scale.bye)]
        );
    }

    #[test]
    fn class_bound_bounds_every_weight() {
        let mut vs = Vec::new();
        let hist = [
            vec![],
            vec![Colour::Black],
            vec![Colour::White, Colour::White],
            vec![Colour::Black, Colour::White],
        ];
        for i in 0..16u32 {
            let mut x = v(i + 1, (i % 3) as i32 * 2);
            x.colour = ColourState::from_colours(&hist[(i % 4) as usize]);
            x.unit = Some(i % 2);
            vs.push(x);
        }
        let f = field(vs, &[(1, 2), (3, 4)]);
        for a in 0..16 {
            for b in 0..16 {
                if a != b {
                    assert!(f.weight(a, b) <= f.class_bound(f.class(a), f.class(b)));
                    assert!(f.weight(a, b) > 0);
                }
            }
        }
    }
}
