//! Test helpers shared by the pairing tests: small random events and brute-force oracles.

use std::collections::{HashMap, HashSet};

use super::{ordered, ByeRecord, GameResult, History, PlayedGame, Player, PlayerId, RoundPairing, Status};
use crate::draw::lots::{Lot, Stream};

/// `n` players with ranks in 10k..5d, a few units, some ratings and birth dates.
pub fn players(n: usize, seed: u64) -> Vec<Player> {
    let mut lot = Lot::new(seed, Stream::Synthetic);
    (1..=n as u32)
        .map(|id| {
            let mut p = Player::new(id, lot.range_inclusive(0, 14) as i32 - 10);
            p.unit = ["", "A", "B", "C"][lot.pick(4)].to_string();
            if lot.coin() {
                p.rating = Some(1500 + lot.range_inclusive(0, 800) as i32);
            }
            p.birth_date = Some(lot.range_inclusive(0, 20_000) as i32);
            p
        })
        .collect()
}

/// A random history of `rounds` rounds: random pairs (rematches allowed), random results,
/// a bye for the odd one out.
pub fn history(players: &[Player], rounds: u32, seed: u64) -> History {
    let mut lot = Lot::new(seed ^ 0xabcdef, Stream::Synthetic);
    let mut h = History::default();
    for r in 1..=rounds {
        let mut ids: Vec<PlayerId> = players.iter().map(|p| p.id).collect();
        lot.shuffle(&mut ids);
        if ids.len() % 2 == 1 {
            h.byes.push(ByeRecord { round: r, player: ids.pop().unwrap() });
        }
        for pair in ids.chunks(2) {
            let result = match lot.pick(10) {
                0 => GameResult::Draw,
                1 => GameResult::DoubleLoss,
                2..=5 => GameResult::BlackWins,
                _ => GameResult::WhiteWins,
            };
            h.games.push(PlayedGame::new(r, pair[0], pair[1], result));
        }
    }
    h
}

/// Asserts that every active player is paired exactly once or has the bye, and nobody else
/// appears.
pub fn assert_complete(players: &[Player], rp: &RoundPairing) {
    let active: HashSet<PlayerId> =
        players.iter().filter(|p| p.status == Status::Active).map(|p| p.id).collect();
    let mut seen = HashSet::new();
    for g in &rp.games {
        assert_ne!(g.black, g.white);
        assert!(seen.insert(g.black), "{} twice", g.black);
        assert!(seen.insert(g.white), "{} twice", g.white);
    }
    if let Some(b) = rp.bye {
        assert!(seen.insert(b), "bye {b} also paired");
    }
    assert_eq!(seen, active);
    assert_eq!(rp.bye.is_some(), active.len() % 2 == 1);
    let tables: Vec<u32> = rp.games.iter().map(|g| g.table).collect();
    assert_eq!(tables, (1..=rp.games.len() as u32).collect::<Vec<_>>());
}

/// Rematches in a round.
pub fn rematches(rp: &RoundPairing, met: &HashMap<(PlayerId, PlayerId), u8>) -> usize {
    rp.games.iter().filter(|g| met.contains_key(&ordered(g.black, g.white))).count()
}

/// Brute force: the fewest rematches of any pairing of `ids` (one may sit out when odd).
pub fn min_rematches(ids: &[PlayerId], met: &HashMap<(PlayerId, PlayerId), u8>) -> usize {
    min_cost(ids, &|a, b| usize::from(met.contains_key(&ordered(a, b))))
}

/// Brute force: the least total `cost` of any pairing of `ids` (one may sit out when odd).
pub fn min_cost(ids: &[PlayerId], cost: &dyn Fn(PlayerId, PlayerId) -> usize) -> usize {
    fn rec(rest: &mut Vec<PlayerId>, cost: &dyn Fn(PlayerId, PlayerId) -> usize, bye_left: bool) -> usize {
        if rest.is_empty() {
            return 0;
        }
        let a = rest.remove(0);
        let mut best = usize::MAX;
        if bye_left {
            best = rec(rest, cost, false);
        }
        for i in 0..rest.len() {
            let b = rest.remove(i);
            let c = cost(a, b);
            if c < best {
                let sub = rec(rest, cost, bye_left);
                if sub != usize::MAX {
                    best = best.min(c + sub);
                }
            }
            rest.insert(i, b);
        }
        rest.insert(0, a);
        best
    }
    let mut v = ids.to_vec();
    rec(&mut v, cost, ids.len() % 2 == 1)
}
