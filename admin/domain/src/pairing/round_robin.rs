//! Round robin (循环赛) by Berger tables, single and double.
//!
//! With N players (N even; an odd field gets a dummy N+1 whose opponent has the bye) and
//! m = N − 1, round r (1..=m) pairs Berger numbers i and j < N when i + j ≡ r + 1 (mod m),
//! and the number i with 2i ≡ r + 1 (mod m) plays N. These are the FIDE Berger tables; the
//! first-named player moves first, i.e. takes **Black** in Go: for i, j < N the smaller
//! number is first when i + j is odd and the larger when it is even; N is first in even
//! rounds. Table 1 is N's game, then (o+k, o−k) for k = 1, 2, … where o is N's opponent.
//! Each player's first-move count differs from half the games by at most one.
//! A double round robin repeats the cycle with colours swapped. Berger numbers may be
//! assigned by a seeded lot ([`draw_numbers`]).

use super::{ColourDecision, DrawRecord, Pairing, PlayerId, RoundPairing};
use crate::draw::lots::{Purpose, Stream};
use crate::draw::{self, derive_seed, tags, Ticket};

/// One Berger round: (first-named, second-named) Berger numbers from 1, in table order.
pub fn berger_round(n_even: usize, round: usize) -> Vec<(usize, usize)> {
    assert!(n_even >= 2 && n_even.is_multiple_of(2), "Berger tables need an even count");
    let m = n_even - 1;
    assert!((1..=m).contains(&round), "round {round} of {m}");
    // Work with numbers 1..=m modulo m (m ≡ 0 written as m).
    let norm = |x: i64| -> usize {
        let r = x.rem_euclid(m as i64);
        if r == 0 {
            m
        } else {
            r as usize
        }
    };
    let target = round as i64 + 1;
    // N's opponent o: 2o ≡ r + 1 (mod m); m is odd, so 2 has an inverse (m + 1) / 2.
    let o = norm(target * ((m as i64 + 1) / 2));
    let mut out = Vec::with_capacity(n_even / 2);
    out.push(if round.is_multiple_of(2) { (n_even, o) } else { (o, n_even) });
    for k in 1..=m / 2 {
        let (i, j) = (norm(o as i64 + k as i64), norm(o as i64 - k as i64));
        let (lo, hi) = (i.min(j), i.max(j));
        out.push(if (i + j) % 2 == 1 { (lo, hi) } else { (hi, lo) });
    }
    out
}

/// Assigns Berger numbers by lot: returns the players in Berger-number order (Berger
/// number = index + 1) and the record (a shuffle of their pairing numbers; its seed is the
/// round's `seed` with the Berger tag).
pub fn draw_numbers(players: &[Ticket], seed: u64) -> (Vec<PlayerId>, DrawRecord) {
    draw::shuffle(Purpose::BergerNumbers, derive_seed(seed, tags::BERGER), Stream::Round1, players)
}

/// The whole schedule for `players` in Berger-number order (number = index + 1). `double`
/// repeats the cycle with colours swapped. `seed` is recorded in each round (the lot, if
/// any, was drawn with [`draw_numbers`]).
pub fn schedule(players: &[PlayerId], double: bool, seed: u64) -> Vec<RoundPairing> {
    let n = players.len();
    if n < 2 {
        return Vec::new();
    }
    let n_even = n + n % 2;
    let cycle = n_even - 1;
    let cycles = if double { 2 } else { 1 };
    let mut out = Vec::with_capacity(cycle * cycles);
    for c in 0..cycles {
        for r in 1..=cycle {
            let mut games = Vec::new();
            let mut bye = None;
            for (first, second) in berger_round(n_even, r) {
                let (black, white) = if c == 0 { (first, second) } else { (second, first) };
                match (players.get(black - 1), players.get(white - 1)) {
                    (Some(&b), Some(&w)) => games.push(Pairing {
                        table: games.len() as u32 + 1,
                        black: b,
                        white: w,
                        handicap: 0,
                        colours: ColourDecision::Table,
                        explain: Vec::new(),
                    }),
                    (Some(&p), None) | (None, Some(&p)) => bye = Some(p),
                    (None, None) => unreachable!("one dummy"),
                }
            }
            out.push(RoundPairing { round: (c * cycle + r) as u32, games, bye, seed, draws: Vec::new() });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;

    #[test]
    fn fide_berger_table_for_six() {
        let rounds: Vec<Vec<(usize, usize)>> = (1..=5).map(|r| berger_round(6, r)).collect();
        assert_eq!(rounds[0], vec![(1, 6), (2, 5), (3, 4)]);
        assert_eq!(rounds[1], vec![(6, 4), (5, 3), (1, 2)]);
        assert_eq!(rounds[2], vec![(2, 6), (3, 1), (4, 5)]);
        assert_eq!(rounds[3], vec![(6, 5), (1, 4), (2, 3)]);
        assert_eq!(rounds[4], vec![(3, 6), (4, 2), (5, 1)]);
    }

    #[test]
    fn fide_berger_table_for_four() {
        let rounds: Vec<Vec<(usize, usize)>> = (1..=3).map(|r| berger_round(4, r)).collect();
        assert_eq!(rounds, vec![vec![(1, 4), (2, 3)], vec![(4, 3), (1, 2)], vec![(2, 4), (3, 1)]]);
    }

    #[test]
    fn odd_field_has_one_bye_per_round_each_player_once() {
        let players: Vec<u32> = (1..=5).collect();
        let s = schedule(&players, false, 0);
        assert_eq!(s.len(), 5);
        let mut byes: Vec<u32> = s.iter().map(|r| r.bye.unwrap()).collect();
        byes.sort();
        assert_eq!(byes, players);
    }

    #[test]
    fn numbers_by_lot_replay() {
        // Ids 10..20 with pairing numbers 1..10.
        let players: Vec<Ticket> = (10..20).map(|id| Ticket { id, number: id - 9 }).collect();
        let (a, rec) = draw_numbers(&players, 9);
        assert_eq!(draw_numbers(&players, 9).0, a);
        assert_eq!(rec.candidates, (1..=10).collect::<Vec<u32>>());
        assert_eq!(rec.outcome, a.iter().map(|id| id - 9).collect::<Vec<u32>>());
        assert_eq!(rec.replays(), Some(true));
        let mut sorted = a.clone();
        sorted.sort();
        assert_eq!(sorted, (10..20).collect::<Vec<u32>>());
    }

    proptest! {
        /// Every pair meets exactly once (twice in a double round robin, colours swapped);
        /// nobody plays twice in a round; first moves balanced within one.
        #[test]
        fn every_pair_meets_exactly_once(n in 2usize..22, double in any::<bool>()) {
            let players: Vec<u32> = (1..=n as u32).collect();
            let s = schedule(&players, double, 0);
            let cycle = n + n % 2 - 1;
            prop_assert_eq!(s.len(), cycle * if double { 2 } else { 1 });
            let mut met: HashMap<(u32, u32), Vec<(u32, u32)>> = HashMap::new();
            let mut blacks: HashMap<u32, i32> = HashMap::new();
            for (ri, r) in s.iter().enumerate() {
                let mut seen = std::collections::HashSet::new();
                for g in &r.games {
                    prop_assert!(seen.insert(g.black) && seen.insert(g.white));
                    met.entry((g.black.min(g.white), g.black.max(g.white))).or_default().push((g.black, g.white));
                    if ri < cycle {
                        *blacks.entry(g.black).or_default() += 1;
                    }
                }
                if let Some(b) = r.bye {
                    prop_assert!(seen.insert(b));
                }
                prop_assert_eq!(seen.len(), n);
            }
            prop_assert_eq!(met.len(), n * (n - 1) / 2);
            for games in met.values() {
                if double {
                    prop_assert_eq!(games.len(), 2);
                    prop_assert_eq!(games[0], (games[1].1, games[1].0));
                } else {
                    prop_assert_eq!(games.len(), 1);
                }
            }
            for p in &players {
                let played = (n - 1) as i32;
                let b = *blacks.get(p).unwrap_or(&0);
                prop_assert!((2 * b - played).abs() <= 1, "player {} has {} blacks of {}", p, b, played);
            }
        }
    }
}
