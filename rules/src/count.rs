//! Counting a final position (seed 000 Art. 9; seed 003 Art. 9.4; rules.md §3.1).
//!
//! Dead stones are settled by agreement (Art. 8) and given to the count as points; each point
//! names its whole chain. After they are removed, an empty point belongs to a side when every
//! path through empty points reaches only that side's stones (Art. 9.1: "通过直线相连所达到的都是
//! 同一方棋子"); a region that reaches both colours (seki eyes, dame) is shared half and half.

use crate::board::{Board, Color, Point};
use serde::{Deserialize, Serialize};

/// How a final position is counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum CountingMethod {
    /// 数子法: area counting (Chinese, Art. 9; AGA).
    #[default]
    Area,
    /// 数目法: territory plus prisoners (Japanese/Korean).
    Territory,
}

/// The result of an area count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct AreaCount {
    /// Black's count in half points: living stones + surrounded points + half the shared points.
    pub black_halves: u32,
    /// White's count in half points.
    pub white_halves: u32,
    /// Empty points shared between the colours (dame and seki points), each split ½ : ½.
    pub shared: u32,
    pub black_stones: u32,
    pub white_stones: u32,
    pub black_territory: u32,
    pub white_territory: u32,
    /// Dead stones removed before counting.
    pub dead_black: u32,
    pub dead_white: u32,
}

/// Ownership of every point after removing dead stones: `Some(colour)` for stones and
/// surrounded points, `None` for shared points. Returned with the cleaned board.
pub fn ownership(board: &Board, dead: &[Point]) -> (Board, Vec<Option<Color>>) {
    let mut b = board.clone();
    for &p in dead {
        b.remove_chain_at(p);
    }
    let size = usize::from(b.size());
    let idx = |p: Point| usize::from(p.y) * size + usize::from(p.x);
    let mut owner: Vec<Option<Color>> = vec![None; size * size];
    let mut seen = vec![false; size * size];
    let mut stack = Vec::new();
    let mut region = Vec::new();
    for p in b.all_points() {
        if let Some(c) = b.get(p) {
            owner[idx(p)] = Some(c);
            continue;
        }
        if seen[idx(p)] {
            continue;
        }
        // flood fill the empty region and note which colours it reaches
        let (mut reach_b, mut reach_w) = (false, false);
        region.clear();
        stack.push(p);
        seen[idx(p)] = true;
        while let Some(q) = stack.pop() {
            region.push(q);
            for n in b.adjacent(q) {
                match b.get(n) {
                    Some(Color::Black) => reach_b = true,
                    Some(Color::White) => reach_w = true,
                    None if !seen[idx(n)] => {
                        seen[idx(n)] = true;
                        stack.push(n);
                    }
                    None => {}
                }
            }
        }
        let o = match (reach_b, reach_w) {
            (true, false) => Some(Color::Black),
            (false, true) => Some(Color::White),
            _ => None,
        };
        for &q in &region {
            owner[idx(q)] = o;
        }
    }
    (b, owner)
}

/// Area count of a final position with the given dead stones (any point of a dead chain).
pub fn area(board: &Board, dead: &[Point]) -> AreaCount {
    let mut dead_black = 0;
    let mut dead_white = 0;
    let mut marked = std::collections::HashSet::new();
    for &p in dead {
        if let Some(c) = board.get(p) {
            for q in board.chain(p) {
                if marked.insert(q) {
                    match c {
                        Color::Black => dead_black += 1,
                        Color::White => dead_white += 1,
                    }
                }
            }
        }
    }
    let (b, owner) = ownership(board, dead);
    let mut a = AreaCount { dead_black, dead_white, ..AreaCount::default() };
    for p in b.all_points() {
        let o = owner[usize::from(p.y) * usize::from(b.size()) + usize::from(p.x)];
        match (b.get(p), o) {
            (Some(Color::Black), _) => a.black_stones += 1,
            (Some(Color::White), _) => a.white_stones += 1,
            (None, Some(Color::Black)) => a.black_territory += 1,
            (None, Some(Color::White)) => a.white_territory += 1,
            (None, None) => a.shared += 1,
        }
    }
    a.black_halves = 2 * (a.black_stones + a.black_territory) + a.shared;
    a.white_halves = 2 * (a.white_stones + a.white_territory) + a.shared;
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn area_with_dame_split() {
        // Black owns the left two columns, White the right two, the middle column is dame.
        let b = Board::from_ascii(
            ".X.O.
             .X.O.
             .X.O.
             .X.O.
             .X.O.",
        )
        .unwrap();
        let a = area(&b, &[]);
        assert_eq!(a.black_halves, 2 * 10 + 5);
        assert_eq!(a.white_halves, 2 * 10 + 5);
        assert_eq!(a.shared, 5);
        assert_eq!(a.black_halves + a.white_halves, 2 * 25);
    }

    #[test]
    fn dead_stones_removed_by_chain() {
        let b = Board::from_ascii(
            ".X.O.
             .XOO.
             .X.O.
             OX.O.
             .X.O.",
        )
        .unwrap();
        // the lone white stone at (0,3) is dead inside Black's area
        let a = area(&b, &[Point::new(0, 3)]);
        assert_eq!(a.dead_white, 1);
        assert_eq!(a.black_territory, 5);
    }
}
