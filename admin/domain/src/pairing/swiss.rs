//! Swiss pairing (积分编排) as Chinese events run it (rules.md §14), and the weighted engine
//! shared with McMahon.
//!
//! - Round 1 ([`round_one`], rules.md §14.2): order by the event's [`Round1Order`] — by
//!   default rank, then rating (unrated after rated of the same rank), equal players by a
//!   recorded lot; or by rating; or a pure lot —; an odd field's last player has the bye;
//!   split into upper and lower halves; the upper half draws the odd lot numbers 1, 3, 5…,
//!   the lower half the even ones 2, 4, 6…; table t pairs lot numbers 2t−1 and 2t. Colours by lot: on odd tables the smaller number takes Black
//!   (moves first), on even tables the larger number ([E18] convention), or by nigiri; with
//!   a handicap rule ([`super::HandicapRule`]) a game it gives stones is a handicap game and
//!   the weaker player takes Black.
//!   Same-unit players (§14.4, round 1 by default) are separated by swapping lower-half
//!   partners with the nearest table that clears both.
//! - Later rounds ([`pair_by_weights`]): score groups from the top, same score against
//!   same score, floats to the nearest score, no rematches, colours balanced after score
//!   (§14.3), same-unit avoidance per setting (§14.4), byes (§14.5) — all as weights of one
//!   maximum-weight matching (see [`super::weights`]).

use std::collections::HashMap;

use matching::Problem;

use super::avoid::{self, Avoidance};
use super::bye::{self, ByeCandidate};
use super::weights::{a_takes_black, handicap_stones, ColourState, Field, HandicapSide, Vertex};
use super::{
    meetings, number_tables, records, ColourDecision, ColourMethod, DrawRecord, HandicapRule, History,
    Pairing, PairingError, Player, PlayerId, Round1Order, RoundPairing, Settings, Status,
};
use crate::draw::lots::{Purpose, Stream};
use crate::draw::{self, derive_seed, nigiri, tags};

/// Pairs round `round` (from 1) of a Swiss event: round 1 by the Chinese procedure, later
/// rounds by the weighted engine. `seed` feeds every lot of the round.
pub fn pair_round(
    players: &[Player],
    history: &History,
    settings: &Settings,
    round: u32,
    seed: u64,
) -> Result<RoundPairing, PairingError> {
    if round == 1 {
        round_one_avoiding(players, &history.avoid, settings, seed)
    } else {
        pair_by_weights(players, history, settings, round, seed, &|_, points| points)
    }
}

/// The Chinese round 1 (module docs; rules.md §14.2), with no listed pairs to keep apart.
pub fn round_one(players: &[Player], settings: &Settings, seed: u64) -> Result<RoundPairing, PairingError> {
    round_one_avoiding(players, &[], settings, seed)
}

/// The Chinese round 1 (rules.md §14.2), keeping apart the pairs that must not meet in it
/// ([`super::avoid`]: the listed groups, and units when barred in round 1) by the partner
/// swaps that keep units apart, before those; a pair no swap clears is left to the review.
pub fn round_one_avoiding(
    players: &[Player],
    avoid: &[Avoidance],
    settings: &Settings,
    seed: u64,
) -> Result<RoundPairing, PairingError> {
    let (_, mut draws) = records(players, &History::default(), settings, 1, seed)?;
    let active: Vec<&Player> = players.iter().filter(|p| p.status == Status::Active).collect();
    let (order, rec) = round_one_order(&active, settings.round1_order, seed);
    draws.extend(rec);
    // Odd field: the last of the order — the lowest in it — has the bye.
    let (order, bye) = if order.len() % 2 == 1 {
        let (rest, last) = order.split_at(order.len() - 1);
        (rest.to_vec(), Some(last[0]))
    } else {
        (order, None)
    };
    let by_pid: HashMap<PlayerId, &Player> = active.iter().map(|p| (p.id, *p)).collect();
    let half = order.len() / 2;
    let tickets = |ids: &[PlayerId]| ids.iter().map(|id| by_pid[id].ticket()).collect::<Vec<_>>();
    // Each half draws its lot numbers: the upper half 1, 3, 5…, the lower half 2, 4, 6….
    let mut halves = Vec::with_capacity(2);
    for (ids, purpose, tag) in [
        (&order[..half], Purpose::Round1Upper, tags::ROUND1_UPPER),
        (&order[half..], Purpose::Round1Lower, tags::ROUND1_LOWER),
    ] {
        let (drawn, rec) = draw::shuffle(purpose, derive_seed(seed, tag), Stream::Round1, &tickets(ids));
        if ids.len() > 1 {
            draws.push(rec);
        }
        halves.push(drawn);
    }
    let (upper, mut lower) = (halves.remove(0), halves.remove(0));
    let listed = avoid::listed_pairs(avoid, 1);
    let one_unit = |a: PlayerId, b: PlayerId| {
        let unit = unit_key(&by_pid[&a].unit);
        !unit.is_empty() && unit == unit_key(&by_pid[&b].unit)
    };
    let barred = |a: PlayerId, b: PlayerId| {
        listed.contains_key(&super::ordered(a, b)) || settings.unit_barred_in(1) && one_unit(a, b)
    };
    separate(&upper, &mut lower, &barred);
    if settings.unit_avoidance_in(1) {
        separate(&upper, &mut lower, &|a, b| barred(a, b) || one_unit(a, b));
    }
    let mut games = Vec::with_capacity(half);
    for t in 0..half {
        let table = t as u32 + 1;
        let (odd, even) = (upper[t], lower[t]);
        // [E18]: odd tables — smaller lot number first; even tables — larger number first.
        let (black, white) = if table % 2 == 1 { (odd, even) } else { (even, odd) };
        games.push(Pairing {
            table,
            black,
            white,
            handicap: 0,
            colours: ColourDecision::Lot,
            explain: Vec::new(),
        });
    }
    // An event with a handicap rule: a game the rule gives stones is a handicap game and the
    // weaker player takes Black (the same rule as later rounds, on the entry scores).
    if settings.handicap != HandicapRule::None {
        let side = |id: PlayerId| {
            let p = by_pid[&id];
            HandicapSide {
                rank_value: p.rank_value,
                score: p.entry_points,
                above_bar: p.rank_value >= settings.mcmahon.bar,
            }
        };
        for g in games.iter_mut() {
            let (b, w) = (side(g.black), side(g.white));
            let h = handicap_stones(settings.handicap, b, w);
            if h > 0 {
                if !a_takes_black(settings.handicap, b, w) {
                    (g.black, g.white) = (g.white, g.black);
                }
                g.handicap = h;
                g.colours = ColourDecision::Handicap;
            }
        }
    }
    if let ColourMethod::Nigiri { remote, rule } = settings.colours {
        for g in games.iter_mut().filter(|g| g.handicap == 0) {
            apply_nigiri(g, by_pid[&g.black], by_pid[&g.white], rule, remote, seed, &mut draws);
        }
    }
    Ok(RoundPairing { round: 1, games, bye, seed, draws })
}

/// The round-1 order of the active players (rules.md §14.2, the event's [`Round1Order`]):
/// by strength ([`super::strength_key`]), players it holds equal — all of them for a pure
/// lot — in the order of a recorded lot of the whole field.
pub fn round_one_order(
    active: &[&Player],
    order: Round1Order,
    seed: u64,
) -> (Vec<PlayerId>, Option<DrawRecord>) {
    let keyed: Vec<_> = active.iter().map(|p| (p.ticket(), super::strength_key(p, order))).collect();
    draw::order_by_key(&keyed, Purpose::Round1Order, derive_seed(seed, tags::ROUND1_ORDER), Stream::Round1)
}

/// Swaps lower-half partners so that no table pairs two players who `clash` (of the same unit,
/// or barred) where a swap with another table clears both (nearest later table first, then
/// earlier ones).
fn separate(upper: &[PlayerId], lower: &mut [PlayerId], clash: &dyn Fn(PlayerId, PlayerId) -> bool) {
    let n = upper.len();
    for t in 0..n {
        if !clash(upper[t], lower[t]) {
            continue;
        }
        let candidates = (t + 1..n).chain((0..t).rev());
        for s in candidates {
            if !clash(upper[t], lower[s]) && !clash(upper[s], lower[t]) {
                lower.swap(t, s);
                break;
            }
        }
    }
}

/// Nigiri roles for a game, and a remote nigiri if asked; colours follow when performed.
fn apply_nigiri(
    g: &mut Pairing,
    a: &Player,
    b: &Player,
    rule: nigiri::NigiriRule,
    remote: bool,
    seed: u64,
    draws: &mut Vec<DrawRecord>,
) {
    let assigned = nigiri::assign(a, b, rule, derive_seed(seed, tags::nigiri(g.table)), remote);
    (g.black, g.white) = assigned.colours();
    draws.extend(assigned.draws);
    let roles = assigned.roles;
    g.colours =
        ColourDecision::Nigiri { holder: roles.holder, guesser: roles.guesser, outcome: assigned.outcome };
}

/// Orders one score group: seeded lot order, then players leaning to Black and to White
/// interleaved in proportion (so any stretch of the order is colour-balanced).
fn interleave(group: Vec<(usize, i32)>) -> Vec<usize> {
    let mut lists: [Vec<usize>; 3] = [Vec::new(), Vec::new(), Vec::new()];
    for (v, leaning) in group {
        lists[(leaning + 1) as usize].push(v);
    }
    let total: usize = lists.iter().map(Vec::len).sum();
    let mut taken = [0usize; 3];
    let mut out = Vec::with_capacity(total);
    for _ in 0..total {
        // Bresenham-like merge: the list furthest behind its share goes next.
        let mut best = usize::MAX;
        for i in 0..3 {
            if taken[i] == lists[i].len() {
                continue;
            }
            if best == usize::MAX
                || (2 * taken[i] + 1) * lists[best].len() < (2 * taken[best] + 1) * lists[i].len()
            {
                best = i;
            }
        }
        out.push(lists[best][taken[best]]);
        taken[best] += 1;
    }
    out
}

/// The weighted engine shared by Swiss and McMahon. `score_of(player, pairing_points)`
/// gives the pairing score in half points (Swiss: the points; McMahon: the McMahon score).
pub fn pair_by_weights(
    players: &[Player],
    history: &History,
    settings: &Settings,
    round: u32,
    seed: u64,
    score_of: &dyn Fn(&Player, i32) -> i32,
) -> Result<RoundPairing, PairingError> {
    let (field, mut draws) = build_field(players, history, settings, round, seed, score_of)?;
    let (mate, _stats) = matching::solve(&field, settings.tuning);
    let active: Vec<&Player> = players.iter().filter(|p| p.status == Status::Active).collect();
    let score: HashMap<PlayerId, i32> =
        field.vertices.iter().filter_map(|v| v.id.map(|id| (id, v.score))).collect();

    let mut games = Vec::with_capacity(field.len() / 2);
    let mut bye = None;
    let mut undecided = Vec::new();
    for (a, m) in mate.iter().enumerate() {
        let Some(b) = *m else {
            return Err(PairingError::Invalid("the matching left a player unpaired".into()));
        };
        if b < a {
            continue;
        }
        let (va, vb) = (&field.vertices[a], &field.vertices[b]);
        match (va.id, vb.id) {
            (Some(x), None) | (None, Some(x)) => bye = Some(x),
            (Some(x), Some(y)) => {
                let handicap = super::weights::handicap_between(settings.handicap, va, vb);
                let (_, a_black) = field.colour_choice(a, b);
                let colours = if handicap > 0 { ColourDecision::Handicap } else { ColourDecision::Balanced };
                let (black, white) = match a_black {
                    Some(true) => (x, y),
                    Some(false) => (y, x),
                    None => (x, y),
                };
                if a_black.is_none() || settings.colours != ColourMethod::Balanced && handicap == 0 {
                    undecided.push(games.len());
                }
                games.push(Pairing {
                    table: 0,
                    black,
                    white,
                    handicap,
                    colours,
                    explain: field.explain(a, b),
                });
            }
            (None, None) => unreachable!("one bye vertex"),
        }
    }
    let rank: HashMap<PlayerId, i32> = active.iter().map(|p| (p.id, p.rank_value)).collect();
    let undecided_ids: Vec<(PlayerId, PlayerId)> =
        undecided.iter().map(|&g| (games[g].black, games[g].white)).collect();
    number_tables(&mut games, |g| (score[&g.black].max(score[&g.white]), rank[&g.black].max(rank[&g.white])));
    let by_pid: HashMap<PlayerId, &Player> = active.iter().map(|p| (p.id, *p)).collect();
    // Colours not fixed by balance or handicap: nigiri, or a lot per table (its own seed).
    for g in games.iter_mut() {
        if !undecided_ids.contains(&(g.black, g.white)) {
            continue;
        }
        let (a, b) = (by_pid[&g.black], by_pid[&g.white]);
        match settings.colours {
            ColourMethod::Nigiri { remote, rule } => apply_nigiri(g, a, b, rule, remote, seed, &mut draws),
            _ => {
                let lot_seed = derive_seed(seed, tags::colours(g.table));
                let (black, white, rec) = draw::colours_by_lot(a.ticket(), b.ticket(), lot_seed);
                (g.black, g.white) = (black, white);
                g.colours = ColourDecision::Lot;
                draws.push(rec);
            }
        }
    }
    Ok(RoundPairing { round, games, bye, seed, draws })
}

/// The weighted problem of a round: players in score order (plus the bye vertex) with the
/// criteria of [`super::weights`]. Also returns the draws made while building it.
pub fn build_field(
    players: &[Player],
    history: &History,
    settings: &Settings,
    round: u32,
    seed: u64,
    score_of: &dyn Fn(&Player, i32) -> i32,
) -> Result<(Field, Vec<DrawRecord>), PairingError> {
    let (recs, mut draws) = records(players, history, settings, round, seed)?;
    let met = meetings(history, settings, round);
    let active: Vec<&Player> = players.iter().filter(|p| p.status == Status::Active).collect();
    let score: HashMap<PlayerId, i32> =
        active.iter().map(|p| (p.id, score_of(p, recs[&p.id].pairing_points))).collect();

    // The bye order (rules.md §14.5), used as the bye vertex's weights.
    let mut bye_place: HashMap<PlayerId, u32> = HashMap::new();
    if active.len() % 2 == 1 {
        let cands: Vec<ByeCandidate> = active
            .iter()
            .map(|p| ByeCandidate {
                id: p.id,
                number: p.number,
                previous_byes: recs[&p.id].byes,
                score: score[&p.id],
                rank_value: p.rank_value,
                rating: p.rating,
            })
            .collect();
        let (order, rec) = bye::order(&cands, seed);
        draws.extend(rec);
        bye_place = order.iter().enumerate().map(|(i, &id)| (id, i as u32)).collect();
    }

    // Units interned to small integers.
    let mut unit_ids: HashMap<&str, u32> = HashMap::new();
    let mcmahon_bar = settings.mcmahon.bar;
    let mut all: Vec<Vertex> = Vec::with_capacity(active.len() + 1);
    for p in &active {
        let key = unit_key(&p.unit);
        let unit = if key.is_empty() {
            None
        } else {
            let next = unit_ids.len() as u32;
            Some(*unit_ids.entry(key).or_insert(next))
        };
        all.push(Vertex {
            id: Some(p.id),
            score: score[&p.id],
            rank_value: p.rank_value,
            unit,
            colour: ColourState::from_record(&recs[&p.id]),
            bye_place: bye_place.get(&p.id).copied().unwrap_or(0),
            above_bar: p.rank_value >= mcmahon_bar,
        });
    }

    // Score order: groups from the top; inside a group the order of a recorded lot (who
    // meets whom among equals), interleaved by colour leaning. Vertex index = place in this
    // order.
    let mut idx: Vec<usize> = (0..all.len()).collect();
    idx.sort_by_key(|&i| (-all[i].score, active[i].number));
    let mut ordered_idx = Vec::with_capacity(idx.len());
    let mut i = 0;
    let mut group_index = 0;
    while i < idx.len() {
        let mut j = i + 1;
        while j < idx.len() && all[idx[j]].score == all[idx[i]].score {
            j += 1;
        }
        let mut group: Vec<usize> = idx[i..j].to_vec();
        if group.len() > 1 {
            let purpose = Purpose::ScoreGroup { score: all[idx[i]].score };
            let tickets: Vec<_> = group.iter().map(|&v| active[v].ticket()).collect();
            let lot_seed = derive_seed(seed, tags::score_group(group_index));
            let (drawn, rec) = draw::shuffle(purpose, lot_seed, Stream::GroupOrder, &tickets);
            group = drawn
                .iter()
                .filter_map(|id| group.iter().copied().find(|&v| all[v].id == Some(*id)))
                .collect();
            draws.push(rec);
        }
        group_index += 1;
        let balance = settings.colours == ColourMethod::Balanced;
        let leaning: Vec<(usize, i32)> =
            group.into_iter().map(|v| (v, if balance { all[v].colour.leaning() } else { 0 })).collect();
        ordered_idx.extend(interleave(leaning));
        i = j;
    }
    let mut vertices: Vec<Vertex> = ordered_idx.iter().map(|&i| all[i].clone()).collect();
    if active.len() % 2 == 1 {
        vertices.push(Vertex {
            id: None,
            score: i32::MIN / 4,
            rank_value: 0,
            unit: None,
            colour: ColourState::default(),
            bye_place: 0,
            above_bar: false,
        });
    }
    let mut field = Field::new(
        vertices,
        met,
        settings.unit_avoidance_in(round),
        settings.unit_strength,
        settings.colours == ColourMethod::Balanced,
        settings.handicap,
    );
    field.barred = avoid::listed_pairs(&history.avoid, round).into_keys().collect();
    field.unit_barred = settings.unit_barred_in(round);
    Ok((field, draws))
}

pub(crate) use super::avoid::unit_key;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pairing::testutil::{self, assert_complete, min_rematches, rematches};
    use crate::pairing::{ByeRecord, Colour, GameResult, PlayedGame, SolverTuning, UnitStrength};
    use proptest::prelude::*;

    fn rated(id: u32, rating: Option<i32>, unit: &str) -> Player {
        let mut p = Player::new(id, 0);
        p.rating = rating;
        p.unit = unit.into();
        p
    }

    fn weight_of(field: &Field, mate: &[Option<usize>]) -> i128 {
        (0..field.len()).filter_map(|a| mate[a].filter(|&b| b > a).map(|b| field.weight(a, b))).sum()
    }

    fn dense_reference(field: &Field) -> i128 {
        let n = field.len();
        let mut m = vec![0i128; n * n];
        for a in 0..n {
            for b in a + 1..n {
                m[a * n + b] = field.weight(a, b);
            }
        }
        let mate = integer_blossom::max_weight_matching(&m, n);
        weight_of(field, &mate)
    }

    /// The active players of round 1 in the event's round-1 order.
    fn order_of(players: &[Player], settings: &Settings, seed: u64) -> Vec<PlayerId> {
        let active: Vec<&Player> = players.iter().filter(|p| p.status == Status::Active).collect();
        round_one_order(&active, settings.round1_order, seed).0
    }

    /// The upper half of a round 1 as its lot recorded it.
    fn upper_half(rp: &RoundPairing) -> Vec<PlayerId> {
        rp.draws.iter().find(|d| d.purpose == Purpose::Round1Upper).unwrap().candidates.clone()
    }

    #[test]
    fn round_one_halves_by_lot() {
        // Rated 1..=6 by rating (1 highest), unrated 7, 8 after them.
        let players: Vec<Player> =
            (1..=8).map(|i| rated(i, if i <= 6 { Some(2000 - 10 * i as i32) } else { None }, "")).collect();
        let settings = Settings { round1_order: Round1Order::Rating, ..Settings::default() };
        let rp = round_one(&players, &settings, 5).unwrap();
        assert_complete(&players, &rp);
        assert_eq!(rp.bye, None);
        let order = order_of(&players, &settings, 5);
        assert_eq!(&order[..6], &[1, 2, 3, 4, 5, 6]);
        let upper = upper_half(&rp);
        assert_eq!(upper, order[..4].to_vec());
        for g in &rp.games {
            // One player from each half; odd tables: the upper-half player takes Black.
            let (up, low) = if upper.contains(&g.black) { (g.black, g.white) } else { (g.white, g.black) };
            assert!(upper.contains(&up) && !upper.contains(&low), "{g:?}");
            assert_eq!(g.black == up, g.table % 2 == 1);
        }
        assert!(rp.draws.iter().all(|d| d.replays() == Some(true)), "{:?}", rp.draws);
        // Same seed, same draw; another seed draws differently (for some seed).
        assert_eq!(round_one(&players, &settings, 5).unwrap(), rp);
        assert!((6..40).any(|s| round_one(&players, &settings, s).unwrap().games != rp.games));
    }

    #[test]
    fn round_one_unrated_by_lot_and_bye_to_the_last() {
        // Equal ranks: the two rated first, the unrated in the recorded lot's order.
        let players: Vec<Player> =
            (1..=7).map(|i| rated(i, if i <= 2 { Some(1800) } else { None }, "")).collect();
        for order_rule in [Round1Order::Rating, Round1Order::RankThenRating] {
            let settings = Settings { round1_order: order_rule, ..Settings::default() };
            for seed in 0..20 {
                let rp = round_one(&players, &settings, seed).unwrap();
                assert_complete(&players, &rp);
                let order = order_of(&players, &settings, seed);
                assert!(order[..2].contains(&1) && order[..2].contains(&2));
                assert_eq!(rp.bye, Some(*order.last().unwrap()), "bye to the lowest of the order");
                let lot = rp.draws.iter().find(|d| d.purpose == Purpose::Round1Order).expect("ties by lot");
                let unrated: Vec<u32> = lot.outcome.iter().copied().filter(|n| *n > 2).collect();
                assert_eq!(order[2..].to_vec(), unrated, "the unrated in the lot's order");
            }
        }
    }

    #[test]
    fn round_one_rank_order_and_units_separated() {
        let mut players: Vec<Player> =
            (1..=8).map(|i| rated(i, None, if i % 2 == 0 { "X" } else { "Y" })).collect();
        for p in players.iter_mut() {
            p.rank_value = 10 - p.id as i32;
        }
        let settings = Settings::default();
        for seed in 0..30 {
            let rp = round_one(&players, &settings, seed).unwrap();
            assert_eq!(order_of(&players, &settings, seed), vec![1, 2, 3, 4, 5, 6, 7, 8]);
            assert!(
                rp.draws.iter().all(|d| d.purpose != Purpose::Round1Order),
                "no tie, no lot for the order"
            );
            for g in &rp.games {
                let (a, b) = (&players[g.black as usize - 1], &players[g.white as usize - 1]);
                assert_ne!(a.unit, b.unit, "seed {seed}: {g:?}");
            }
        }
    }

    /// An unrated field with ranks, as a Chinese open has (rules.md §14.2): 7段, 6段, 1段,
    /// 3级, 12级, 18级 and a 20级, entered in an order unrelated to strength.
    fn unrated_field() -> Vec<Player> {
        // (id, rank value): kyu k → −k, dan d → d − 1.
        [(1, -12), (2, 6), (3, -18), (4, 0), (5, 5), (6, -3), (7, -20)]
            .iter()
            .map(|&(id, rank)| Player::new(id, rank))
            .collect()
    }

    #[test]
    fn round_one_of_an_unrated_field_pairs_the_stronger_half_against_the_weaker() {
        let players = unrated_field();
        for seed in 0..40 {
            let rp = round_one(&players, &Settings::default(), seed).unwrap();
            assert_complete(&players, &rp);
            assert_eq!(rp.bye, Some(7), "the 20级, lowest in the order, has the bye");
            let mut upper = upper_half(&rp);
            upper.sort();
            assert_eq!(upper, vec![2, 4, 5], "7段, 6段 and 1段 form the upper half");
            for g in &rp.games {
                assert!(upper.contains(&g.black) != upper.contains(&g.white), "one of each half: {g:?}");
            }
        }
    }

    #[test]
    fn round_one_as_a_pure_lot_when_the_event_chooses_it() {
        let players = unrated_field();
        let settings = Settings { round1_order: Round1Order::Lot, ..Settings::default() };
        let mut weak_upper = false;
        let mut other_byes = false;
        for seed in 0..40 {
            let rp = round_one(&players, &settings, seed).unwrap();
            assert_complete(&players, &rp);
            let lot =
                rp.draws.iter().find(|d| d.purpose == Purpose::Round1Order).expect("the whole order by lot");
            assert_eq!(order_of(&players, &settings, seed), lot.outcome, "strength ignored");
            assert_eq!(rp.bye, lot.outcome.last().copied());
            weak_upper |= upper_half(&rp).iter().any(|id| [1, 3, 7].contains(id));
            other_byes |= rp.bye != Some(7);
        }
        assert!(weak_upper && other_byes);
    }

    #[test]
    fn round_one_nigiri_roles() {
        let players: Vec<Player> = (1..=4).map(|i| Player::new(i, i as i32)).collect();
        let settings = Settings {
            colours: ColourMethod::Nigiri { remote: false, rule: nigiri::NigiriRule::Art10 },
            ..Settings::default()
        };
        let rp = round_one(&players, &settings, 1).unwrap();
        for g in &rp.games {
            match &g.colours {
                ColourDecision::Nigiri { holder, guesser, outcome: None } => {
                    assert!(holder > guesser, "higher rank (here: higher id) grabs");
                    assert_eq!((g.black, g.white), (*guesser, *holder));
                }
                other => panic!("{other:?}"),
            }
        }
        let remote = Settings {
            colours: ColourMethod::Nigiri { remote: true, rule: nigiri::NigiriRule::Art10 },
            ..Settings::default()
        };
        let rp = round_one(&players, &remote, 1).unwrap();
        for g in &rp.games {
            let ColourDecision::Nigiri { outcome: Some(o), .. } = &g.colours else { panic!() };
            assert_eq!((g.black, g.white), (o.black, o.white));
        }
    }

    #[test]
    fn round_one_with_a_handicap_rule() {
        // Ranks 5d..4k by id; halves by rank: the upper half meets the lower half.
        let players: Vec<Player> = (1..=8).map(|i| Player::new(i, 5 - i as i32)).collect();
        let settings = Settings {
            round1_order: Round1Order::RankThenRating,
            handicap: HandicapRule::RankDifference { reduction: 2, max: 3, below_bar_only: false },
            mcmahon: crate::pairing::McMahonSettings { bar: 8, floor: -30 },
            colours: ColourMethod::Nigiri { remote: false, rule: nigiri::NigiriRule::Art10 },
            ..Settings::default()
        };
        for seed in 0..20 {
            let rp = round_one(&players, &settings, seed).unwrap();
            assert_complete(&players, &rp);
            for g in &rp.games {
                let rank = |id: PlayerId| players[id as usize - 1].rank_value;
                let diff = (rank(g.black) - rank(g.white)).abs();
                let want = (diff - 2).clamp(0, 3) as u8;
                assert_eq!(g.handicap, want, "seed {seed}: {g:?}");
                if want > 0 {
                    assert!(rank(g.black) < rank(g.white), "the weaker takes Black: {g:?}");
                    assert_eq!(g.colours, ColourDecision::Handicap);
                } else {
                    assert!(matches!(g.colours, ColourDecision::Nigiri { .. }), "{g:?}");
                }
            }
            assert!(rp.games.iter().any(|g| g.handicap > 0), "halves 4 ranks apart on average");
        }
    }

    /// Two rounds played: winners 1..4 (4 points), losers 5..8 (0 points).
    fn two_groups() -> (Vec<Player>, History) {
        let players: Vec<Player> = (1..=8).map(|i| Player::new(i, 0)).collect();
        let mut h = History::default();
        for (b, w) in [(1, 5), (6, 2), (3, 7), (8, 4)] {
            let result = if b <= 4 { GameResult::BlackWins } else { GameResult::WhiteWins };
            h.games.push(PlayedGame::new(1, b, w, result));
        }
        (players, h)
    }

    #[test]
    fn same_score_meets_same_score_and_colours_alternate() {
        let (players, h) = two_groups();
        let rp = pair_round(&players, &h, &Settings::default(), 2, 9).unwrap();
        assert_complete(&players, &rp);
        for g in &rp.games {
            assert_eq!(g.black <= 4, g.white <= 4, "score groups kept: {g:?}");
            // 1 and 3 had Black, 2 and 4 White: balance gives each the other colour.
            let had_black = [1, 3, 6, 8];
            assert!(!had_black.contains(&g.black) && had_black.contains(&g.white), "{g:?}");
            let e: i128 = g.explain.iter().map(|x| x.1).sum();
            assert!(e > 0);
        }
        // Top tables hold the top group.
        assert!(rp.games[0].black <= 4 && rp.games[1].black <= 4);
    }

    #[test]
    fn rematch_forces_a_float_rather_than_a_rematch() {
        let (players, mut h) = two_groups();
        // 1-2, 1-3, 1-4 already met: 1 must float to the 0-point group.
        for (r, x) in [(0, 2), (0, 3), (0, 4)] {
            h.games.push(PlayedGame::new(r, 1, x, GameResult::Draw));
        }
        // Draws in "round 0" count as met but points too; rebalance by re-reading points.
        let rp = pair_round(&players, &h, &Settings::default(), 2, 1).unwrap();
        let met = meetings(&h, &Settings::default(), 2);
        assert_eq!(rematches(&rp, &met), 0);
        assert_complete(&players, &rp);
    }

    #[test]
    fn rematch_outweighs_every_other_criterion_together() {
        // 1, 2 lead (8 points) and met; 3, 4 (0 points) met. Avoiding both rematches costs
        // two maximal floats, two same-unit pairs (hard) and bad colours: still chosen.
        let mut players: Vec<Player> = (1..=4).map(|i| Player::new(i, 0)).collect();
        for p in players.iter_mut() {
            p.unit = "same".into();
        }
        let mut h = History::default();
        h.games.push(PlayedGame::new(1, 1, 2, GameResult::Draw));
        h.games.push(PlayedGame::new(1, 3, 4, GameResult::Draw));
        h.games.push(PlayedGame::new(2, 1, 9, GameResult::BlackWins));
        h.games.push(PlayedGame::new(2, 2, 8, GameResult::BlackWins));
        h.games.push(PlayedGame::new(2, 7, 3, GameResult::BlackWins));
        h.games.push(PlayedGame::new(2, 6, 4, GameResult::BlackWins));
        let mut all = players.clone();
        for id in 6..=9 {
            let mut p = Player::new(id, 0);
            p.status = Status::Withdrawn;
            all.push(p);
        }
        let settings = Settings { same_unit_rounds: u32::MAX, ..Settings::default() };
        let rp = pair_round(&all, &h, &settings, 3, 0).unwrap();
        let met = meetings(&h, &settings, 3);
        assert_eq!(rematches(&rp, &met), 0);
        for g in &rp.games {
            assert!(g.black.min(g.white) <= 2 && g.black.max(g.white) >= 3, "{g:?}");
        }
    }

    #[test]
    fn tiny_fields() {
        let h = History::default();
        let s = Settings::default();
        for n in 0..3u32 {
            let players: Vec<Player> = (1..=n).map(|i| Player::new(i, 0)).collect();
            for round in 1..=2 {
                let rp = pair_round(&players, &h, &s, round, 0).unwrap();
                assert_complete(&players, &rp);
            }
        }
        assert_eq!(pair_round(&[], &h, &s, 0, 0), Err(PairingError::BadRound));
        let dup = vec![Player::new(1, 0), Player::new(1, 0)];
        assert_eq!(pair_round(&dup, &h, &s, 2, 0), Err(PairingError::DuplicatePlayer(1)));
        let mut bad = History::default();
        bad.games.push(PlayedGame::new(1, 1, 5, GameResult::Draw));
        assert_eq!(pair_round(&dup[..1], &bad, &s, 2, 0), Err(PairingError::UnknownPlayer(5)));
    }

    #[test]
    fn medium_field_sparse_equals_dense() {
        let players = testutil::players(240, 3);
        let h = testutil::history(&players, 5, 3);
        let settings = Settings { same_unit_rounds: 3, ..Settings::default() };
        let (field, _) = build_field(&players, &h, &settings, 6, 3, &|_, p| p).unwrap();
        let (mate, stats) = matching::solve(
            &field,
            SolverTuning { dense_limit: 0, candidates: 6, ..SolverTuning::default() },
        );
        assert!(!stats.dense);
        assert_eq!(weight_of(&field, &mate), dense_reference(&field));
    }

    /// McMahon scores (many score levels, floats between them) make big,
    /// deeply nested blossoms; the dual check's shared blossom duals must stay exact there.
    #[test]
    fn mcmahon_field_sparse_equals_dense() {
        let players = testutil::players(200, 11);
        let h = testutil::history(&players, 4, 11);
        let settings = Settings::default();
        let mm = settings.mcmahon;
        let win = settings.points.win;
        let score = |p: &Player, points: i32| super::super::mcmahon::initial_score(p, &mm, win) + points;
        let (field, _) = build_field(&players, &h, &settings, 5, 11, &score).unwrap();
        for k in [1, 3] {
            let (mate, stats) = matching::solve(
                &field,
                SolverTuning { dense_limit: 0, candidates: k, ..SolverTuning::default() },
            );
            assert!(!stats.dense && stats.rounds > 1, "{stats:?}");
            assert_eq!(weight_of(&field, &mate), dense_reference(&field), "k = {k}");
        }
    }

    #[test]
    fn bye_goes_to_the_lowest_without_a_bye() {
        let players: Vec<Player> = (1..=5).map(|i| Player::new(i, 5 - i as i32)).collect();
        let mut h = History::default();
        h.games.push(PlayedGame::new(1, 1, 2, GameResult::BlackWins));
        h.games.push(PlayedGame::new(1, 3, 4, GameResult::BlackWins));
        h.byes.push(ByeRecord { round: 1, player: 5 });
        let rp = pair_round(&players, &h, &Settings::default(), 2, 3).unwrap();
        assert_complete(&players, &rp);
        // Lowest score without a bye: 2 and 4 (0 points); 4 has the lower rank.
        assert_eq!(rp.bye, Some(4));
    }

    #[test]
    fn withdrawn_and_absent_are_not_paired_late_entrant_joins_with_points() {
        let (mut players, h) = two_groups();
        players[0].status = Status::Withdrawn;
        players[4].status = Status::Absent;
        let mut late = Player::new(9, 0);
        late.entry_points = 4;
        players.push(late);
        let rp = pair_round(&players, &h, &Settings::default(), 2, 4).unwrap();
        assert_complete(&players, &rp);
        // The late entrant (4 points) plays in the top group (2, 3, 4, 9).
        let g = rp.games.iter().find(|g| g.black == 9 || g.white == 9).unwrap();
        assert!([2, 3, 4].contains(&g.black.min(g.white)), "{g:?}");
    }

    #[test]
    fn double_loss_lot_names_a_nominal_winner_for_pairing_only() {
        let players: Vec<Player> = (1..=4).map(|i| Player::new(i, 0)).collect();
        let mut h = History::default();
        h.games.push(PlayedGame::new(1, 1, 2, GameResult::DoubleLoss));
        h.games.push(PlayedGame::new(1, 3, 4, GameResult::BlackWins));
        let on = Settings { double_loss_lot: true, ..Settings::default() };
        let (recs, draws) = records(&players, &h, &on, 2, 77).unwrap();
        assert_eq!(draws.len(), 1);
        let winner = draws[0].outcome[0];
        assert_eq!(recs[&winner].pairing_points, 4);
        assert_eq!(recs[&winner].points, 0, "standings keep 0 : 0");
        let rp = pair_round(&players, &h, &on, 2, 77).unwrap();
        let g = rp.games.iter().find(|g| g.black == 3 || g.white == 3).unwrap();
        let opponent = if g.black == 3 { g.white } else { g.black };
        assert_eq!(opponent, winner, "the nominal winner joins 3 in the 2-point group");
        // Next round only: in round 3 the lot no longer applies.
        let (recs3, d3) = records(&players, &h, &on, 3, 77).unwrap();
        assert!(d3.is_empty());
        assert_eq!(recs3[&winner].pairing_points, 0);
        // Off: no lot at all.
        let (_, d) = records(&players, &h, &Settings::default(), 2, 77).unwrap();
        assert!(d.is_empty());
    }

    #[test]
    fn three_times_same_colour_is_avoided() {
        let players: Vec<Player> = (1..=2).map(|i| Player::new(i, 0)).collect();
        let mut h = History::default();
        h.games.push(PlayedGame::new(1, 1, 9, GameResult::BlackWins));
        h.games.push(PlayedGame::new(2, 1, 8, GameResult::BlackWins));
        h.games.push(PlayedGame::new(1, 7, 2, GameResult::BlackWins));
        h.games.push(PlayedGame::new(2, 6, 2, GameResult::BlackWins));
        let mut all = players.clone();
        for id in 6..=9 {
            let mut p = Player::new(id, 0);
            p.status = Status::Withdrawn;
            all.push(p);
        }
        let rp = pair_round(&all, &h, &Settings::default(), 3, 0).unwrap();
        assert_eq!((rp.games[0].black, rp.games[0].white), (2, 1));
    }

    /// Colour balance first (rules.md §14.3). Player 1 played B B B W W: White keeps
    /// them level and is a third White running, Black puts them two Blacks up. Player 2 (B W)
    /// does not mind. Player 1 takes White.
    #[test]
    fn balance_comes_before_avoiding_a_third_colour() {
        let players: Vec<Player> = (1..=2).map(|i| Player::new(i, 0)).collect();
        let mut h = History::default();
        for (round, b, w) in [(1, 1, 9), (2, 1, 8), (3, 1, 7), (4, 6, 1), (5, 5, 1), (4, 2, 4), (5, 3, 2)] {
            h.games.push(PlayedGame::new(round, b, w, GameResult::Draw));
        }
        let mut all = players.clone();
        for id in 3..=9 {
            let mut p = Player::new(id, 0);
            p.status = Status::Withdrawn;
            all.push(p);
        }
        let rp = pair_round(&all, &h, &Settings::default(), 6, 0).unwrap();
        assert_eq!((rp.games[0].black, rp.games[0].white), (2, 1));
    }

    /// Colour balance (rules.md §14.3) as the lists show it: players 1 and 2 both played B then W
    /// on the board. In round 3 player 1 was given Black and the opponent did not come (a forfeit:
    /// no first move, so the board balance stays level, rules.md §4.3, but the list showed Black).
    /// Round 4 gives player 1 White, which evens the lists too; where round 3's board was a nigiri
    /// never made, nobody held a colour and the choice stays with the lot.
    #[test]
    fn a_forfeits_listed_colour_decides_where_the_board_leaves_the_choice() {
        // Player 2's round 3: White (a White up on the board), or none (level too).
        let history = |unsettled: bool, two_played_three: bool| {
            let mut h = History::default();
            for (round, b, w) in [(1, 1, 9), (2, 8, 1), (1, 2, 7), (2, 6, 2)] {
                h.games.push(PlayedGame::new(round, b, w, GameResult::Draw));
            }
            let forfeit = PlayedGame {
                colours_unsettled: unsettled,
                ..PlayedGame::new(3, 1, 5, GameResult::BlackWinsByForfeit)
            };
            h.games.push(forfeit);
            if two_played_three {
                h.games.push(PlayedGame::new(3, 3, 2, GameResult::BlackWins));
            }
            h
        };
        let mut all: Vec<Player> = (1..=2).map(|i| Player::new(i, 0)).collect();
        for id in 3..=9 {
            let mut p = Player::new(id, 0);
            p.status = Status::Withdrawn;
            all.push(p);
        }
        let settings = Settings::default();
        let (recs, _) = records(&all, &history(false, true), &settings, 4, 0).unwrap();
        assert_eq!((recs[&1].colour_balance, recs[&1].listed_balance), (0, 1));
        assert_eq!((recs[&2].colour_balance, recs[&2].listed_balance), (-1, -1));
        let (recs, _) = records(&all, &history(true, true), &settings, 4, 0).unwrap();
        assert_eq!(recs[&1].listed_balance, 0, "an unsettled nigiri lists no colour");
        for seed in 0..8 {
            // Player 2 a White up: due Black whatever the lists say.
            let rp = pair_round(&all, &history(false, true), &settings, 4, seed).unwrap();
            assert_eq!((rp.games[0].black, rp.games[0].white), (2, 1), "seed {seed}");
            // Both level on the board, both last White: only player 1's listed Black tells
            // the colours apart.
            let rp = pair_round(&all, &history(false, false), &settings, 4, seed).unwrap();
            assert_eq!((rp.games[0].black, rp.games[0].white), (2, 1), "seed {seed}");
        }
        // With the forfeit's nigiri never made it is a lot: both orders occur over the seeds.
        let blacks: std::collections::HashSet<PlayerId> = (0..8)
            .map(|seed| pair_round(&all, &history(true, false), &settings, 4, seed).unwrap().games[0].black)
            .collect();
        assert_eq!(blacks.len(), 2, "the lot decides");
    }

    #[test]
    fn hard_unit_avoidance_beats_score_soft_does_not() {
        // 1, 2 (unit A) lead with 4 points; 3, 4 (no unit) have 0.
        let mut players: Vec<Player> = (1..=4).map(|i| Player::new(i, 0)).collect();
        players[0].unit = "A".into();
        players[1].unit = "A".into();
        let mut h = History::default();
        h.games.push(PlayedGame::new(1, 1, 3, GameResult::BlackWins));
        h.games.push(PlayedGame::new(1, 4, 2, GameResult::WhiteWins));
        let hard = Settings { same_unit_rounds: u32::MAX, ..Settings::default() };
        let rp = pair_round(&players, &h, &hard, 2, 0).unwrap();
        assert!(rp.games.iter().all(|g| g.black.max(g.white) > 2), "1 and 2 separated");
        let soft = Settings { unit_strength: UnitStrength::Soft, ..hard };
        let rp = pair_round(&players, &h, &soft, 2, 0).unwrap();
        assert!(rp.games.iter().any(|g| g.black.max(g.white) == 2), "score first: 1 meets 2");
    }

    #[test]
    fn colours_by_lot_are_recorded() {
        let (players, h) = two_groups();
        let s = Settings { colours: ColourMethod::Lot, ..Settings::default() };
        let rp = pair_round(&players, &h, &s, 2, 12).unwrap();
        assert!(rp.games.iter().all(|g| g.colours == ColourDecision::Lot));
        let lots: Vec<&DrawRecord> = rp.draws.iter().filter(|d| d.purpose == Purpose::Colours).collect();
        assert_eq!(lots.len(), rp.games.len(), "one lot per table");
        for (g, rec) in rp.games.iter().zip(lots) {
            let mut pair = vec![g.black, g.white];
            pair.sort();
            assert_eq!(rec.candidates, pair);
            assert_eq!(rec.outcome, vec![g.black], "the one drawn takes Black");
            assert_eq!(rec.replays(), Some(true));
        }
        let _ = Colour::Black;
    }

    /// The property below on one random event: every active player paired once or with the
    /// bye, the fewest rematch games a brute force finds, the same pairing for the same seed.
    fn check_random_event(n: usize, rounds: u32, seed: u64, absent: usize) -> Result<(), TestCaseError> {
        let mut players = testutil::players(n, seed);
        let h = testutil::history(&players, rounds, seed);
        for p in players.iter_mut().take(absent) {
            p.status = if p.id % 2 == 0 { Status::Absent } else { Status::Withdrawn };
        }
        let settings = Settings::default();
        let round = rounds + 1;
        let rp = pair_round(&players, &h, &settings, round, seed).unwrap();
        assert_complete(&players, &rp);
        let met = meetings(&h, &settings, round);
        let ids: Vec<u32> = players.iter().filter(|p| p.status == Status::Active).map(|p| p.id).collect();
        prop_assert_eq!(rematches(&rp, &met), min_rematches(&ids, &met));
        prop_assert_eq!(pair_round(&players, &h, &settings, round, seed).unwrap(), rp);
        Ok(())
    }

    /// No avoidable rematch (rules.md §14.1), and the case proptest found: two rematches were
    /// paired where one would do, because the rematch weight counted earlier meetings (a
    /// third meeting of one pair weighed as much as second meetings of two pairs).
    #[test]
    fn no_avoidable_rematch_in_the_cases_found() {
        check_random_event(6, 4, 5649314999016682566, 2).unwrap();
        check_random_event(5, 4, 1703456408536242836, 1).unwrap();
    }

    #[test]
    fn one_rematch_game_beats_two_even_when_the_pair_met_more_often() {
        // 3, 4, 5, 6 on equal scores (all draws; 7 and 8 have withdrawn). 4-6 met three
        // times; 3-4, 5-6, 3-6 and 4-5 once; 3-5 never. Every pairing has a rematch, and
        // 3-5 with 4-6 is the only one with a single rematch game.
        let mut players: Vec<Player> = (3..=8).map(|i| Player::new(i, 0)).collect();
        for p in players.iter_mut().filter(|p| p.id >= 7) {
            p.status = Status::Withdrawn;
        }
        let rounds = [
            [(4, 6), (3, 7), (5, 8)],
            [(6, 4), (3, 8), (5, 7)],
            [(4, 6), (7, 3), (8, 5)],
            [(3, 4), (5, 6), (7, 8)],
            [(6, 3), (4, 5), (8, 7)],
        ];
        let mut h = History::default();
        for (r, games) in rounds.iter().enumerate() {
            for &(b, w) in games {
                h.games.push(PlayedGame::new(r as u32 + 1, b, w, GameResult::Draw));
            }
        }
        for seed in 0..20 {
            let rp = pair_round(&players, &h, &Settings::default(), 6, seed).unwrap();
            let met = meetings(&h, &Settings::default(), 6);
            assert_eq!(rematches(&rp, &met), 1, "seed {seed}: {:?}", rp.games);
            let mut pairs: Vec<(u32, u32)> =
                rp.games.iter().map(|g| crate::pairing::ordered(g.black, g.white)).collect();
            pairs.sort();
            assert_eq!(pairs, vec![(3, 5), (4, 6)]);
        }
    }

    proptest! {
        // CI's outcome must not depend on the seed a run happens to draw: a fixed RNG and a
        // documented number of cases, so every run tries the same 64 events. Every failing
        // case found so far is in proptest-regressions/pairing/swiss.txt (replayed
        // first) and in `no_avoidable_rematch_in_the_cases_found`. To search further, raise
        // `cases` or change the seed locally, and commit what it finds.
        #![proptest_config(ProptestConfig {
            cases: 64,
            rng_algorithm: proptest::test_runner::RngAlgorithm::ChaCha,
            rng_seed: proptest::test_runner::RngSeed::Fixed(20261201),
            ..ProptestConfig::default()
        })]

        /// Every active player is paired exactly once or has the bye; no avoidable rematch
        /// (brute force); same seed → same pairing.
        #[test]
        fn complete_no_avoidable_rematch_deterministic(n in 2usize..11, rounds in 1u32..5, seed in any::<u64>(), absent in 0usize..3) {
            check_random_event(n, rounds, seed, absent)?;
        }

        /// The sparse solver (few candidates, so the dual check must add edges) reaches the
        /// dense optimum's total weight.
        #[test]
        fn sparse_equals_dense_optimum(n in 4usize..26, rounds in 1u32..6, seed in any::<u64>(), k in 1usize..4) {
            let players = testutil::players(n, seed);
            let h = testutil::history(&players, rounds, seed);
            let settings = Settings { same_unit_rounds: u32::MAX, ..Settings::default() };
            let (field, _) = build_field(&players, &h, &settings, rounds + 1, seed, &|_, p| p).unwrap();
            let (mate, stats) = matching::solve(&field, SolverTuning { dense_limit: 0, candidates: k, ..SolverTuning::default() });
            prop_assert!(!stats.dense);
            prop_assert!(mate.iter().all(Option::is_some));
            prop_assert_eq!(weight_of(&field, &mate), dense_reference(&field));
        }
    }
}
