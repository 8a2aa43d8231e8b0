//! The standings as the tests compute them from the results they entered, without the crate's
//! standings code: rules.md §15.2 with the event's default order 积分 → 对手分 → 累进分 → 直胜
//! (only inside a group tied so far whose members all met) → 胜局数 → fewer warnings, in half
//! points of the 2/1/0 scale. The lot that decides what is left is the caller's.

use std::collections::HashMap;
use std::hash::Hash;

/// A game as it counts (a replay stands for the game it replays; a game without points is not
/// one): the players as they played Black and White, and each side's points in half points
/// (4 win, 2 draw, 0 loss; a double loss is 0 and 0).
#[derive(Debug, Clone)]
pub struct Game<K> {
    pub round: u32,
    pub black: K,
    pub white: K,
    pub black_pts: i64,
    pub white_pts: i64,
}

/// One line of the standings (half points).
#[derive(Debug, Clone, PartialEq)]
pub struct Line<K> {
    pub who: K,
    pub score: i64,
    pub sos: i64,
    pub cum: i64,
    pub direct: Option<i64>,
    pub wins: i64,
    pub warnings: i64,
}

impl<K> Line<K> {
    /// What the order compares before the lot, larger first.
    pub fn key(&self) -> (i64, i64, i64, i64, i64, i64) {
        (self.score, self.sos, self.cum, self.direct.unwrap_or(0), self.wins, -self.warnings)
    }

    /// The tie-break cells as the pages and documents write them, 积分 and the lot apart:
    /// 对手分, 累进分, 直胜 ("–" where it does not apply), 胜局数, warnings.
    pub fn cells(&self) -> Vec<String> {
        vec![
            halves(self.sos),
            halves(self.cum),
            self.direct.map(halves).unwrap_or_else(|| "–".into()),
            self.wins.to_string(),
            self.warnings.to_string(),
        ]
    }
}

/// Half points as the documents write points: 5 → "2.5", 4 → "2".
pub fn halves(v: i64) -> String {
    if v % 2 == 0 {
        (v / 2).to_string()
    } else {
        format!("{}.5", v / 2)
    }
}

/// The standings of `players` after round `after`, from the games, byes (a win: 4, adding 0 to
/// 对手分) and warnings (round, player) of rounds 1..=`after` only; a forfeit and a double loss
/// are games against that opponent (rules.md §12). Sorted by [`Line::key`], equal keys in the
/// order of `players`.
pub fn compute<K: Clone + Eq + Hash>(
    players: &[K],
    games: &[Game<K>],
    byes: &[(u32, K)],
    warnings: &[(u32, K)],
    after: u32,
) -> Vec<Line<K>> {
    let games: Vec<&Game<K>> = games.iter().filter(|g| g.round <= after).collect();
    let mut score: HashMap<K, i64> = players.iter().map(|p| (p.clone(), 0)).collect();
    let mut per_round: HashMap<K, Vec<i64>> =
        players.iter().map(|p| (p.clone(), vec![0; after as usize])).collect();
    let mut wins: HashMap<K, i64> = players.iter().map(|p| (p.clone(), 0)).collect();
    let mut opponents: HashMap<K, Vec<K>> = players.iter().map(|p| (p.clone(), vec![])).collect();
    let mut earn = |me: &K, round: u32, pts: i64| {
        *score.get_mut(me).unwrap() += pts;
        per_round.get_mut(me).unwrap()[round as usize - 1] += pts;
        if pts == 4 {
            *wins.get_mut(me).unwrap() += 1;
        }
    };
    for g in &games {
        earn(&g.black, g.round, g.black_pts);
        earn(&g.white, g.round, g.white_pts);
        opponents.get_mut(&g.black).unwrap().push(g.white.clone());
        opponents.get_mut(&g.white).unwrap().push(g.black.clone());
    }
    for (round, p) in byes.iter().filter(|b| b.0 <= after) {
        earn(p, *round, 4);
    }
    let mut lines: Vec<Line<K>> = players
        .iter()
        .map(|p| {
            let mut run = 0;
            Line {
                who: p.clone(),
                score: score[p],
                sos: opponents[p].iter().map(|o| score[o]).sum(),
                cum: per_round[p]
                    .iter()
                    .map(|x| {
                        run += x;
                        run
                    })
                    .sum(),
                direct: None,
                wins: wins[p],
                warnings: warnings.iter().filter(|(r, w)| *r <= after && w == p).count() as i64,
            }
        })
        .collect();
    // 直胜 inside each group tied on 积分, 对手分 and 累进分 whose members all met: the points
    // each scored against the others.
    let met = |a: &K, b: &K| {
        games.iter().any(|g| (&g.black == a && &g.white == b) || (&g.black == b && &g.white == a))
    };
    let mut keys: Vec<(i64, i64, i64)> = lines.iter().map(|e| (e.score, e.sos, e.cum)).collect();
    keys.sort_unstable();
    keys.dedup();
    for k in keys {
        let members: Vec<K> =
            lines.iter().filter(|e| (e.score, e.sos, e.cum) == k).map(|e| e.who.clone()).collect();
        let all_met = members.iter().enumerate().all(|(i, a)| members[i + 1..].iter().all(|b| met(a, b)));
        if members.len() < 2 || !all_met {
            continue;
        }
        for e in lines.iter_mut().filter(|e| members.contains(&e.who)) {
            let mut got = 0;
            for g in &games {
                if g.black == e.who && members.contains(&g.white) {
                    got += g.black_pts;
                }
                if g.white == e.who && members.contains(&g.black) {
                    got += g.white_pts;
                }
            }
            e.direct = Some(got);
        }
    }
    lines.sort_by_key(|e| std::cmp::Reverse(e.key()));
    lines
}
