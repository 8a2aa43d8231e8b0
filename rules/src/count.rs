//! Counting a final position (seed 000 Art. 9; seed 003 Art. 9.4; rules.md §3.1).
//!
//! Dead stones are settled by agreement (Art. 8) and given to the count as points; each point
//! names its whole chain. After they are removed, an empty point belongs to a side when every
//! path through empty points reaches only that side's stones (Art. 9.1: "通过直线相连所达到的都是
//! 同一方棋子"); a region that reaches both colours (seki eyes, dame) is shared half and half.
//!
//! # Units
//!
//! Everything is exact integer arithmetic. Counts are in **half points** (a shared point gives
//! each side ½). A *margin* is always **Black minus White, in half points, before komi**; this is
//! numerically the margin in **quarter stones** of [`crate::outcome`] (¼ stone = ½ point), so a
//! margin becomes a result with [`FinalCount::outcome`] or [`territory_outcome`], which end in
//! [`Outcome::from_margin`].
//!
//! # The counting methods and why they agree
//!
//! Seed 003 Art. 9.4 allows any counting method "只要计数结果正确" (as long as the result is
//! right) and lists four; rules.md §3.1 says the method is fixed before the game. Each method has
//! its own function here and computes the margin its own way; they agree with area counting
//! under the conditions stated on each function. Notation, per colour X, after the game:
//!
//! | symbol | meaning |
//! |---|---|
//! | `P_X` | stones X placed on the board (plays that are not passes; Black's handicap stones count) |
//! | `C_X` | stones of X captured during play (prisoners held by the opponent) |
//! | `D_X` | stones of X declared dead and removed at the end (Art. 8) |
//! | `S_X` | stones of X left on the board (alive) |
//! | `T_X` | empty points that reach only X after the dead stones are removed (Art. 9.1) |
//! | `d`   | empty points that reach both colours (or none): shared ½ : ½ |
//!
//! A stone leaves the board only by capture or removal as dead (seed 003 Arts. 3, 4, 8), so when
//! the record of the game is consistent, **stones are conserved**: `P_X = S_X + C_X + D_X`.
//!
//! - Area (数子法, Art. 9.1): `A = (S_B + T_B) − (S_W + T_W)`; Black's count `S_B + T_B + d/2`.
//! - (1) Single side (单方计数法): `2·(count_B − N/2) = A`, since both counts add up to `N`.
//! - (2) Fill-in (填满计数): bowls of `k` stones; what is left after filling own territory is
//!   `k − P_X + C_X + D_X − T_X`, which is `k − S_X − T_X` by conservation, so
//!   `left_W − left_B = A`.
//! - (3)/(4) Equal stones (等子比空): every removed stone goes back into its owner's territory,
//!   then make-up stones: each side has `P_X + makeup_X` stones on the board and
//!   `T_X − C_X − D_X − makeup_X` empty points; when the stones are equal, the difference of
//!   empty points is `A`.
//! - Territory (数目法, Japanese/Korean): `J = (T_B + C_W + D_W) − (T_W + C_B + D_B)`, which by
//!   conservation is `A − (P_B − P_W)` [INF, from the definitions above]: territory counting
//!   ignores the difference in the number of stones played, which is what the make-up and pass
//!   stones of methods (3) and (4) put back.

use crate::board::{Board, Color, Point};
use crate::game::{Game, Move};
use crate::outcome::{JigoRule, Outcome, Scoring};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::fmt;

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

impl AreaCount {
    /// Black minus White in half points (= quarter stones), before komi. Because the two counts
    /// add up to the whole board, this is also `2·(B − par)` in half points, the "归本" margin.
    pub fn margin_halves(&self) -> i64 {
        i64::from(self.black_halves) - i64::from(self.white_halves)
    }
}

/// Index of a colour in the `[black, white]` arrays of this module.
#[inline]
fn ci(c: Color) -> usize {
    match c {
        Color::Black => 0,
        Color::White => 1,
    }
}

#[inline]
fn pidx(size: u8, p: Point) -> usize {
    usize::from(p.y) * usize::from(size) + usize::from(p.x)
}

// ---------------------------------------------------------------------------------------------
// Dead stones
// ---------------------------------------------------------------------------------------------

/// Why a list of dead stones (or seki stones) was refused. The message names the point in the
/// board's human coordinates, e.g. "no stone at Q16".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum DeadStoneError {
    /// The point is empty: it cannot name a dead chain.
    NoStone { point: Point, size: u8 },
    /// The point lies outside the board.
    OffBoard { point: Point, size: u8 },
    /// Stones given as one chain are not exactly one whole chain of the board.
    NotWholeChain { point: Point, size: u8 },
    /// A chain was marked both dead and in seki.
    DeadAndSeki { point: Point, size: u8 },
}

impl DeadStoneError {
    /// The point the error is about.
    pub fn point(&self) -> Point {
        match *self {
            DeadStoneError::NoStone { point, .. }
            | DeadStoneError::OffBoard { point, .. }
            | DeadStoneError::NotWholeChain { point, .. }
            | DeadStoneError::DeadAndSeki { point, .. } => point,
        }
    }
}

impl fmt::Display for DeadStoneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            DeadStoneError::NoStone { point, size } => write!(f, "no stone at {}", point.display(size)),
            // off-board points have no human name; SGF letters always exist
            DeadStoneError::OffBoard { point, size } => {
                write!(f, "point {} is off the {size}×{size} board", point.sgf())
            }
            DeadStoneError::NotWholeChain { point, size } => {
                write!(f, "the stones given as one chain at {} are not one whole chain", point.display(size))
            }
            DeadStoneError::DeadAndSeki { point, size } => {
                write!(f, "the stones at {} are marked both dead and in seki", point.display(size))
            }
        }
    }
}

impl std::error::Error for DeadStoneError {}

/// The dead stones of a final position, validated against the board: every stone of every dead
/// chain, sorted, with the count per colour. Art. 8: life and death are settled by agreement at
/// the end; the count then removes the dead stones (Art. 9).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct DeadStones {
    stones: Vec<Point>,
    black: u32,
    white: u32,
}

impl DeadStones {
    /// No dead stones.
    pub fn none() -> DeadStones {
        DeadStones::default()
    }

    /// Dead stones from points, each naming its whole chain (several points of one chain are
    /// fine). An empty or off-board point is an error, e.g. "no stone at Q16".
    pub fn new(board: &Board, points: &[Point]) -> Result<DeadStones, DeadStoneError> {
        let size = board.size();
        for &p in points {
            if !board.contains(p) {
                return Err(DeadStoneError::OffBoard { point: p, size });
            }
            if board.get(p).is_none() {
                return Err(DeadStoneError::NoStone { point: p, size });
            }
        }
        Ok(DeadStones::lenient(board, points))
    }

    /// Dead stones given as whole chains: each inner list must hold exactly the stones of one
    /// chain of the board (in any order). This is the form of a list in which every dead stone is
    /// named, chain by chain.
    pub fn from_chains(board: &Board, chains: &[Vec<Point>]) -> Result<DeadStones, DeadStoneError> {
        let size = board.size();
        let mut points = Vec::with_capacity(chains.len());
        for chain in chains {
            let Some(&first) = chain.first() else { continue };
            for &p in chain {
                if !board.contains(p) {
                    return Err(DeadStoneError::OffBoard { point: p, size });
                }
                if board.get(p).is_none() {
                    return Err(DeadStoneError::NoStone { point: p, size });
                }
            }
            let mut given: Vec<Point> = chain.clone();
            given.sort_unstable();
            given.dedup();
            let mut actual = board.chain(first);
            actual.sort_unstable();
            if given != actual {
                return Err(DeadStoneError::NotWholeChain { point: first, size });
            }
            points.push(first);
        }
        Ok(DeadStones::lenient(board, &points))
    }

    /// Dead stones from points without validation: empty and off-board points are skipped. This
    /// is what [`area`] and [`territory`] do with their `&[Point]` argument.
    pub fn lenient(board: &Board, points: &[Point]) -> DeadStones {
        let mut marked = HashSet::new();
        let (mut black, mut white) = (0, 0);
        for &p in points {
            let Some(c) = board.get(p) else { continue };
            for q in board.chain(p) {
                if marked.insert(q) {
                    match c {
                        Color::Black => black += 1,
                        Color::White => white += 1,
                    }
                }
            }
        }
        let mut stones: Vec<Point> = marked.into_iter().collect();
        stones.sort_unstable();
        DeadStones { stones, black, white }
    }

    /// Every dead stone, sorted.
    pub fn stones(&self) -> &[Point] {
        &self.stones
    }

    /// Number of dead stones of a colour.
    pub fn count(&self, c: Color) -> u32 {
        match c {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }

    /// Whether the stone on `p` is dead.
    pub fn contains(&self, p: Point) -> bool {
        self.stones.binary_search(&p).is_ok()
    }

    pub fn is_empty(&self) -> bool {
        self.stones.is_empty()
    }
}

// ---------------------------------------------------------------------------------------------
// Ownership and area counting (Art. 9.1)
// ---------------------------------------------------------------------------------------------

/// A maximal connected set of empty points and the colours it reaches.
struct Region {
    points: Vec<Point>,
    reach: [bool; 2],
}

/// The empty regions of a board, each with the colours its points reach through empty points.
fn empty_regions(b: &Board) -> Vec<Region> {
    let size = b.size();
    let mut seen = vec![false; usize::from(size) * usize::from(size)];
    let mut regions = Vec::new();
    let mut stack = Vec::new();
    for p in b.all_points() {
        if b.get(p).is_some() || seen[pidx(size, p)] {
            continue;
        }
        let mut region = Region { points: Vec::new(), reach: [false, false] };
        stack.push(p);
        seen[pidx(size, p)] = true;
        while let Some(q) = stack.pop() {
            region.points.push(q);
            for n in b.adjacent(q) {
                match b.get(n) {
                    Some(c) => region.reach[ci(c)] = true,
                    None if !seen[pidx(size, n)] => {
                        seen[pidx(size, n)] = true;
                        stack.push(n);
                    }
                    None => {}
                }
            }
        }
        regions.push(region);
    }
    regions
}

/// The board with the dead stones removed.
fn without_dead(board: &Board, dead: &DeadStones) -> Board {
    let mut b = board.clone();
    for &p in dead.stones() {
        b.remove_chain_at(p);
    }
    b
}

/// Ownership of every point after removing dead stones: `Some(colour)` for stones and
/// surrounded points, `None` for shared points. Returned with the cleaned board.
pub fn ownership(board: &Board, dead: &[Point]) -> (Board, Vec<Option<Color>>) {
    ownership_dead(board, &DeadStones::lenient(board, dead))
}

/// [`ownership`] with validated dead stones. Indexed row by row: `y · size + x`.
pub fn ownership_dead(board: &Board, dead: &DeadStones) -> (Board, Vec<Option<Color>>) {
    let b = without_dead(board, dead);
    let size = b.size();
    let mut owner: Vec<Option<Color>> = vec![None; usize::from(size) * usize::from(size)];
    for p in b.all_points() {
        if let Some(c) = b.get(p) {
            owner[pidx(size, p)] = Some(c);
        }
    }
    for r in empty_regions(&b) {
        // Art. 9.1: a region that reaches only one colour belongs to it; otherwise (both colours,
        // or no stone at all on an empty board) each side has half of every point.
        let o = match r.reach {
            [true, false] => Some(Color::Black),
            [false, true] => Some(Color::White),
            _ => None,
        };
        for q in r.points {
            owner[pidx(size, q)] = o;
        }
    }
    (b, owner)
}

/// Area count of a final position with the given dead stones (any point of a dead chain).
/// Empty points among `dead` are ignored; use [`DeadStones::new`] and [`area_dead`] to report
/// them instead.
pub fn area(board: &Board, dead: &[Point]) -> AreaCount {
    area_dead(board, &DeadStones::lenient(board, dead))
}

/// Area count (数子法, seed 000/003 Art. 9.1) with validated dead stones: Black's count is its
/// living stones, the empty points reaching only Black, and half of the shared points.
pub fn area_dead(board: &Board, dead: &DeadStones) -> AreaCount {
    let (b, owner) = ownership_dead(board, dead);
    let mut a = AreaCount {
        dead_black: dead.count(Color::Black),
        dead_white: dead.count(Color::White),
        ..AreaCount::default()
    };
    for p in b.all_points() {
        match (b.get(p), owner[pidx(b.size(), p)]) {
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

/// Black's signed margin after komi, handicap compensation and penalty stones, for a margin of
/// `margin_halves` before komi. For an area count this is exactly
/// [`Scoring::margin_quarters`]`(black_halves)`, because `2·B − 2·N = B − W` when `B + W = 2·N`.
fn scored_margin(margin_halves: i64, scoring: &Scoring) -> i64 {
    margin_halves - i64::from(scoring.komi_q) - i64::from(scoring.compensation.quarters(scoring.handicap))
        + 4 * (i64::from(scoring.penalty_white) - i64::from(scoring.penalty_black))
}

// ---------------------------------------------------------------------------------------------
// Record of play: what the 9.4 methods need besides the board
// ---------------------------------------------------------------------------------------------

/// What happened during play, as far as counting needs it. Arrays are `[black, white]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct PlayRecord {
    /// Stones each colour placed on the board: plays that are not passes, plus Black's handicap
    /// (set-up) stones.
    pub stones_played: [u32; 2],
    /// Prisoners taken during play by each colour: `[0]` = White stones Black captured, `[1]` =
    /// Black stones White captured (as [`Game::captures_by`]). Dead stones removed at the end are
    /// not included: they are given to the count separately.
    pub prisoners: [u32; 2],
    /// Passes (虚着, 弃着) each colour made, including the passes that ended the game.
    pub passes: [u32; 2],
}

impl PlayRecord {
    /// The record of a game: its plays and passes by colour and the prisoners each side took.
    /// Stones on the board before the first move (handicap, SGF AB/AW) are not moves: add them
    /// with [`PlayRecord::with_setup`].
    pub fn from_game(game: &Game) -> PlayRecord {
        let mut r = PlayRecord {
            prisoners: [game.captures_by(Color::Black), game.captures_by(Color::White)],
            ..PlayRecord::default()
        };
        for &(c, mv) in game.moves() {
            match mv {
                Move::Play(_) => r.stones_played[ci(c)] += 1,
                Move::Pass => r.passes[ci(c)] += 1,
            }
        }
        r
    }

    /// Add stones that were set up before play (Black's handicap stones count as stones played,
    /// rules.md §3.4).
    pub fn with_setup(mut self, black: u32, white: u32) -> PlayRecord {
        self.stones_played[0] += black;
        self.stones_played[1] += white;
        self
    }

    /// For each colour, stones placed minus stones on the board (living or dead) minus stones
    /// captured during play. Zero for both colours when the record is consistent with the board:
    /// a stone leaves the board only by capture (seed 003 Art. 4).
    pub fn conservation_gap(&self, board: &Board) -> [i64; 2] {
        let gap = |c: Color| {
            i64::from(self.stones_played[ci(c)])
                - i64::from(board.stone_count(c))
                - i64::from(self.prisoners[ci(c.opponent())])
        };
        [gap(Color::Black), gap(Color::White)]
    }

    /// Whether stones are conserved (see [`PlayRecord::conservation_gap`]).
    pub fn is_consistent_with(&self, board: &Board) -> bool {
        self.conservation_gap(board) == [0, 0]
    }

    fn any_pass(&self) -> bool {
        self.passes[0] + self.passes[1] > 0
    }
}

// ---------------------------------------------------------------------------------------------
// Seed 003 Art. 9.4 (1): single-side count against par
// ---------------------------------------------------------------------------------------------

/// A single-side count (单方计数法, seed 003 Art. 9.4 (1)): only one side's points are counted
/// and compared with half the board (归本数, par: 180.5 on 19×19). The unit is the stone (子);
/// the margin over par is half the difference of the two sides' points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SingleSideCount {
    /// The side that was counted.
    pub side: Color,
    /// Its stones + surrounded points + half the shared points, in half points.
    pub count_halves: u32,
    /// Half the number of points, in half points (361 for 180.5 on 19×19).
    pub par_halves: u32,
    /// `count − par` in half points: over par (positive) the counted side is ahead by this many
    /// half stones before komi (e.g. 185 → +9, i.e. 4½ stones).
    pub over_par_halves: i64,
}

impl SingleSideCount {
    /// Black's margin in half points (= quarter stones) before komi: twice the distance from
    /// par, with the sign of the counted side. Equal to [`AreaCount::margin_halves`].
    pub fn black_margin_halves(&self) -> i64 {
        let m = 2 * self.over_par_halves;
        match self.side {
            Color::Black => m,
            Color::White => -m,
        }
    }

    /// Black's count in half points, whichever side was counted (White's count is the rest of the
    /// board). Feed it to [`Scoring::outcome`].
    pub fn black_halves(&self) -> u32 {
        match self.side {
            Color::Black => self.count_halves,
            Color::White => 2 * self.par_halves - self.count_halves,
        }
    }
}

/// Single-side count (seed 003 Art. 9.4 (1); seed 002 第一小条): count `side`'s living stones
/// and the empty points that reach only `side`, plus half of each shared point, and compare with
/// par. The other side is never counted. Always equal to area counting (Art. 9.1): the two counts
/// add up to the whole board, so `2·(B − par) = B − W`.
pub fn single_side(board: &Board, dead: &DeadStones, side: Color) -> SingleSideCount {
    let (b, owner) = ownership_dead(board, dead);
    let mut count_halves = 0u32;
    for p in b.all_points() {
        match owner[pidx(b.size(), p)] {
            // a stone of `side` or a point surrounded by `side`
            Some(c) if c == side => count_halves += 2,
            Some(_) => {}
            None => count_halves += 1,
        }
    }
    let par_halves = b.points();
    SingleSideCount {
        side,
        count_halves,
        par_halves,
        over_par_halves: i64::from(count_halves) - i64::from(par_halves),
    }
}

// ---------------------------------------------------------------------------------------------
// Seed 003 Art. 9.4 (2): fill-in counting (Ing)
// ---------------------------------------------------------------------------------------------

/// The stones per bowl for fill-in counting: half the board rounded down, 180 on 19×19 (seed 003
/// Art. 1.2 "正式比赛以黑、白各180子为宜" and Art. 9.4 (2) "棋盒内棋子数为准确的180颗").
pub fn standard_bowl(board: &Board) -> u32 {
    board.points() / 2
}

/// A fill-in count (填满计数, Ing, seed 003 Art. 9.4 (2)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FillInCount {
    /// Stones each bowl held at the start (180 on 19×19).
    pub bowl: u32,
    /// Points each side filled with its own stones: its surrounded empty points, `[black, white]`.
    pub filled: [u32; 2],
    /// Stones left in each bowl after filling, `[black, white]`; negative when the side ran short
    /// and needed that many more stones than its bowl held.
    pub left: [i64; 2],
    /// Empty points left after filling (shared points: seki, and dame not filled in play).
    pub shared: u32,
    /// Black minus White in half points before komi, from the bowls alone:
    /// `2·(left_W − left_B)`.
    pub margin_halves: i64,
}

impl FillInCount {
    /// Black's count in half points as read from the bowls: the stones Black has on the board
    /// after filling (`bowl − left_B`) plus half of each shared point.
    pub fn black_count_halves(&self) -> i64 {
        2 * (i64::from(self.bowl) - self.left[0]) + i64::from(self.shared)
    }
}

/// Fill-in count (seed 003 Art. 9.4 (2), 应氏规则): after the game each side fills its own empty
/// points with stones from its bowl of exactly `bowl` stones; the surplus or shortfall (盈缺) of
/// the bowls gives the result at once. \[INF\] Every stone that left the board (captured in play or
/// removed as dead) goes back into its owner's bowl: only then does the fixed bowl size make the
/// bowls tell the result, as the article requires.
///
/// A bowl ends with `bowl − P_X + C_X + D_X − T_X` stones. The side with fewer stones left has
/// more on the board, and the difference of the bowls is the difference of the counts, so the
/// margin is `2·(left_W − left_B)` half points.
///
/// Equal to area counting exactly when stones are conserved
/// ([`PlayRecord::is_consistent_with`]); in general it differs from it by
/// `2·(gap_B − gap_W)` with the gaps of [`PlayRecord::conservation_gap`]. It does **not** need
/// equal numbers of stones played.
pub fn fill_in(board: &Board, dead: &DeadStones, record: &PlayRecord, bowl: u32) -> FillInCount {
    let (b, owner) = ownership_dead(board, dead);
    let mut filled = [0u32; 2];
    let mut shared = 0u32;
    for p in b.all_points() {
        if b.get(p).is_some() {
            continue;
        }
        match owner[pidx(b.size(), p)] {
            Some(c) => filled[ci(c)] += 1,
            None => shared += 1,
        }
    }
    let left_of = |c: Color| {
        let i = ci(c);
        i64::from(bowl) - i64::from(record.stones_played[i])
            // prisoners the opponent took, returned to this side's bowl
            + i64::from(record.prisoners[ci(c.opponent())])
            + i64::from(dead.count(c))
            - i64::from(filled[i])
    };
    let left = [left_of(Color::Black), left_of(Color::White)];
    FillInCount { bowl, filled, left, shared, margin_halves: 2 * (left[1] - left[0]) }
}

// ---------------------------------------------------------------------------------------------
// Seed 003 Art. 9.4 (3) and (4): equal stones, compare territory
// ---------------------------------------------------------------------------------------------

/// An equal-stones count (等子比空, seed 003 Art. 9.4 (3) and (4)). Arrays are `[black, white]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct EqualStonesCount {
    /// Stones each side filled back into its own territory: its prisoners lost in play and its
    /// dead stones.
    pub filled_back: [u32; 2],
    /// Make-up stones each side added to its own territory so that both played as many stones
    /// (AGA pass stones come to the same thing, see [`equal_stones`]).
    pub makeup: [u32; 2],
    /// Stones of each colour on the board after filling back and making up: living stones +
    /// filled back + make-up. Equal for both sides when the record is consistent (and, for
    /// method (4), a make-up was due).
    pub stones: [i64; 2],
    /// Empty points left in each side's territory; negative when a side had more stones to fill
    /// in than empty points (arithmetic only).
    pub empty: [i64; 2],
    /// Black minus White in half points before komi: `2·(empty_B − empty_W)`.
    pub margin_halves: i64,
}

fn equal_stones_with(
    board: &Board,
    dead: &DeadStones,
    record: &PlayRecord,
    make_up: bool,
) -> EqualStonesCount {
    let a = area_dead(board, dead);
    let living = [a.black_stones, a.white_stones];
    let territory = [a.black_territory, a.white_territory];
    let filled_back =
        [record.prisoners[1] + dead.count(Color::Black), record.prisoners[0] + dead.count(Color::White)];
    let (pb, pw) = (record.stones_played[0], record.stones_played[1]);
    let makeup = if make_up { [pw.saturating_sub(pb), pb.saturating_sub(pw)] } else { [0, 0] };
    let stones = [0, 1].map(|i| i64::from(living[i]) + i64::from(filled_back[i]) + i64::from(makeup[i]));
    let empty = [0, 1].map(|i| i64::from(territory[i]) - i64::from(filled_back[i]) - i64::from(makeup[i]));
    EqualStonesCount { filled_back, makeup, stones, empty, margin_halves: 2 * (empty[0] - empty[1]) }
}

/// Equal stones, compare territory, method one (等子比空法一, seed 003 Art. 9.4 (3); American,
/// British and French rules): the stones on the board are made equal, then the empty points are
/// compared. Equal stones come from filling every removed stone (prisoners and dead stones) back
/// into its owner's territory: if both played the same number of stones that is all; otherwise
/// the side that played fewer fills the difference into its own territory ("少的一方把其补足").
///
/// With AGA pass stones — each pass hands the opponent a prisoner, and White passes last so both
/// sides made as many moves — a side's pass stones end up in its own territory, which is the same
/// make-up.
///
/// Equal to area counting whenever stones are conserved ([`PlayRecord::is_consistent_with`]):
/// with equal stones on the board, comparing the empty points compares the areas.
pub fn equal_stones(board: &Board, dead: &DeadStones, record: &PlayRecord) -> EqualStonesCount {
    equal_stones_with(board, dead, record, true)
}

/// Equal stones, compare territory, method two (等子比空法二, seed 003 Art. 9.4 (4); the improved
/// Japanese rules): dead stones (and prisoners) are filled back into their owner's territory and
/// the empty points compared; "如对局中有弃着，则此弃着后，要求双方着子数相等" — once a pass (弃着)
/// was made, both sides must have played the same number of stones, the side with fewer making up
/// the difference.
///
/// \[INF\] Read here as: if any pass was made (including the passes that end the game, Art. 7.3),
/// the side that played fewer stones makes up the difference; if the game ended without a pass
/// (by agreement, Art. 7.1) there is no make-up.
///
/// Equal to area counting when stones are conserved and either a pass was made or both played the
/// same number of stones. Otherwise (Black played the last stone and nobody passed) it is the
/// territory result, one point (2 half points) per extra Black stone below the area result.
pub fn equal_stones_improved_japanese(
    board: &Board,
    dead: &DeadStones,
    record: &PlayRecord,
) -> EqualStonesCount {
    equal_stones_with(board, dead, record, record.any_pass())
}

// ---------------------------------------------------------------------------------------------
// Territory counting (数目法, Japanese/Korean)
// ---------------------------------------------------------------------------------------------

/// A territory count (数目法, Japanese/Korean rules; seed 002 第二小条: "采用数目法，黑棋终局要贴
/// 6目半").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct TerritoryCount {
    /// Empty points surrounded by Black only, after removing dead stones (the points where dead
    /// White stones stood included), not touching a chain marked as in seki.
    pub black_territory: u32,
    pub white_territory: u32,
    /// Prisoners held by Black: White stones captured in play plus dead White stones removed.
    pub black_prisoners: u32,
    /// Prisoners held by White: Black stones captured in play plus dead Black stones removed.
    pub white_prisoners: u32,
    /// Empty points that count for nobody: dame, shared seki points, and eyes of chains marked as
    /// in seki.
    pub neutral: u32,
    /// Black minus White in half points before komi:
    /// `2·((territory_B + prisoners_B) − (territory_W + prisoners_W))`.
    pub margin_halves: i64,
}

impl TerritoryCount {
    /// Black's score in points: territory + prisoners.
    pub fn black_points(&self) -> u32 {
        self.black_territory + self.black_prisoners
    }

    /// White's score in points: territory + prisoners.
    pub fn white_points(&self) -> u32 {
        self.white_territory + self.white_prisoners
    }
}

/// Territory count of a final position: territory + prisoners (数目法). `prisoners` are the
/// stones each side captured during play, `[by black, by white]` as [`Game::captures_by`]; the
/// dead stones are added to the opponent's prisoners here. Empty regions that reach both colours
/// (dame, shared seki points) count for nobody. Empty points among `dead` are ignored, as in
/// [`area`].
///
/// By conservation its margin is the area margin minus `2·(P_B − P_W)` half points: it differs
/// from area counting by the difference in stones played (see the module notes).
pub fn territory(board: &Board, dead: &[Point], prisoners: [u32; 2]) -> TerritoryCount {
    territory_count(board, &DeadStones::lenient(board, dead), &HashSet::new(), prisoners)
}

/// [`territory`] with validated dead stones and chains marked as in seki (any point of a chain
/// names the chain). \[UNVERIFIED\] Under Japanese practice the empty points surrounded by stones in
/// seki are not territory; the Japanese rule text is not in the seeds, so seki is only applied to
/// the chains the players (or the referee) mark, as they mark dead stones. Without marks, only
/// regions that reach both colours are neutral.
pub fn territory_with_seki(
    board: &Board,
    dead: &DeadStones,
    seki: &[Point],
    prisoners: [u32; 2],
) -> Result<TerritoryCount, DeadStoneError> {
    let size = board.size();
    let mut seki_stones = HashSet::new();
    for &p in seki {
        if !board.contains(p) {
            return Err(DeadStoneError::OffBoard { point: p, size });
        }
        if board.get(p).is_none() {
            return Err(DeadStoneError::NoStone { point: p, size });
        }
        if dead.contains(p) {
            return Err(DeadStoneError::DeadAndSeki { point: p, size });
        }
        seki_stones.extend(board.chain(p));
    }
    Ok(territory_count(board, dead, &seki_stones, prisoners))
}

fn territory_count(
    board: &Board,
    dead: &DeadStones,
    seki_stones: &HashSet<Point>,
    prisoners: [u32; 2],
) -> TerritoryCount {
    let b = without_dead(board, dead);
    let mut t = TerritoryCount {
        black_prisoners: prisoners[0] + dead.count(Color::White),
        white_prisoners: prisoners[1] + dead.count(Color::Black),
        ..TerritoryCount::default()
    };
    for r in empty_regions(&b) {
        let in_seki = || {
            r.points.iter().any(|&q| b.adjacent(q).any(|n| b.get(n).is_some() && seki_stones.contains(&n)))
        };
        let n = r.points.len() as u32;
        match r.reach {
            [true, false] if !in_seki() => t.black_territory += n,
            [false, true] if !in_seki() => t.white_territory += n,
            _ => t.neutral += n,
        }
    }
    t.margin_halves = 2 * (i64::from(t.black_points()) - i64::from(t.white_points()));
    t
}

/// The result of a territory count with komi in half points (Japanese 6.5 points = 13; ½ point =
/// ¼ stone, so this is also komi in quarter stones) and the jigo rule: `margin − komi` goes to
/// [`Outcome::from_margin`]. Its margin reads in points with [`Outcome::points_text`] ("W+6.5").
pub fn territory_outcome(count: &TerritoryCount, komi_halves: i32, jigo: JigoRule) -> Outcome {
    Outcome::from_margin(count.margin_halves - i64::from(komi_halves), jigo)
}

// ---------------------------------------------------------------------------------------------
// One entry point for callers
// ---------------------------------------------------------------------------------------------

/// The details of a [`FinalCount`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "method", rename_all = "snake_case")]
pub enum CountDetail {
    Area(AreaCount),
    Territory(TerritoryCount),
}

/// A final count under the event's counting method, with a margin comparable across methods.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FinalCount {
    pub method: CountingMethod,
    /// Black's score in half points: the area count (Art. 9.1), or twice territory + prisoners.
    pub black_halves: u32,
    /// White's score in half points.
    pub white_halves: u32,
    /// Black minus White in half points (= quarter stones) before komi.
    pub margin_halves: i64,
    pub detail: CountDetail,
}

impl FinalCount {
    /// The result under `scoring`: komi, handicap compensation and penalty stones (each penalty
    /// stone is 4 half points, rules.md §3.5) are taken off the margin, then the jigo rule
    /// decides an equal result. For an area count this equals
    /// [`Scoring::outcome`]`(black_halves)`. For a territory count set `scoring.komi_q` to the komi
    /// in half points (6.5 points → 13).
    pub fn outcome(&self, scoring: &Scoring) -> Outcome {
        Outcome::from_margin(scored_margin(self.margin_halves, scoring), scoring.jigo)
    }
}

/// Count a final position under `method`: what the SGF checker and the result entry page call.
/// `dead` names the dead chains (an empty or off-board point is an error: "no stone at Q16");
/// `prisoners` are the stones captured during play `[by black, by white]`, used by territory
/// counting only (area counting does not need them, Art. 9). Territory counting here marks no
/// chain as in seki; use [`territory_with_seki`] when the players agree on seki chains.
pub fn count_final(
    board: &Board,
    dead: &[Point],
    method: CountingMethod,
    prisoners: [u32; 2],
) -> Result<FinalCount, DeadStoneError> {
    let dead = DeadStones::new(board, dead)?;
    Ok(match method {
        CountingMethod::Area => {
            let a = area_dead(board, &dead);
            FinalCount {
                method,
                black_halves: a.black_halves,
                white_halves: a.white_halves,
                margin_halves: a.margin_halves(),
                detail: CountDetail::Area(a),
            }
        }
        CountingMethod::Territory => {
            let t = territory_count(board, &dead, &HashSet::new(), prisoners);
            FinalCount {
                method,
                black_halves: 2 * t.black_points(),
                white_halves: 2 * t.white_points(),
                margin_halves: t.margin_halves,
                detail: CountDetail::Territory(t),
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{random_game, KoRule, SuicideRule};
    use crate::outcome::HandicapCompensation;
    use proptest::prelude::*;

    fn scoring(points: u32, komi_q: i32) -> Scoring {
        Scoring {
            points,
            komi_q,
            handicap: 0,
            compensation: HandicapCompensation::HalfStonePerStone,
            penalty_black: 0,
            penalty_white: 0,
            jigo: JigoRule::Draw,
        }
    }

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
        // 数目法: dame count for nobody
        let t = territory(&b, &[], [0, 0]);
        assert_eq!((t.black_territory, t.white_territory, t.neutral), (5, 5, 5));
        assert_eq!(t.margin_halves, 0);
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

    #[test]
    fn dead_chain_named_by_any_point_and_by_whole_chain() {
        // a dead two-stone white chain inside Black's area
        let b = Board::from_ascii(
            ".X...
             .X...
             OX...
             OX...
             .X...",
        )
        .unwrap();
        let by_point = DeadStones::new(&b, &[Point::new(0, 3)]).unwrap();
        assert_eq!(by_point.count(Color::White), 2);
        assert!(by_point.contains(Point::new(0, 2)));
        let twice = DeadStones::new(&b, &[Point::new(0, 2), Point::new(0, 3)]).unwrap();
        assert_eq!(twice, by_point, "two points of one chain count it once");
        let whole = DeadStones::from_chains(&b, &[vec![Point::new(0, 3), Point::new(0, 2)]]).unwrap();
        assert_eq!(whole, by_point);
        assert_eq!(
            DeadStones::from_chains(&b, &[vec![Point::new(0, 3)]]),
            Err(DeadStoneError::NotWholeChain { point: Point::new(0, 3), size: 5 })
        );
        let a = area_dead(&b, &by_point);
        assert_eq!(a.black_territory, 20, "the right three columns and the whole left column");
        assert_eq!(a.black_halves, 50);
    }

    #[test]
    fn dead_point_that_is_empty_is_an_error() {
        let b = Board::standard();
        let q16 = Point::parse("Q16", 19).unwrap();
        let e = DeadStones::new(&b, &[q16]).unwrap_err();
        assert_eq!(e, DeadStoneError::NoStone { point: q16, size: 19 });
        assert_eq!(e.to_string(), "no stone at Q16");
        assert_eq!(e.point(), q16);
        let e = count_final(&b, &[q16], CountingMethod::Area, [0, 0]).unwrap_err();
        assert_eq!(e.to_string(), "no stone at Q16");
        let off = DeadStones::new(&b, &[Point::new(19, 3)]).unwrap_err();
        assert_eq!(off.to_string(), "point td is off the 19×19 board");
        // the lenient form used by area() skips the point
        assert!(DeadStones::lenient(&b, &[q16]).is_empty());
    }

    /// Art. 9.1: an empty board reaches no stone at all; every point is shared, each side has
    /// exactly par.
    #[test]
    fn empty_board() {
        let b = Board::standard();
        let a = area(&b, &[]);
        assert_eq!((a.black_halves, a.white_halves, a.shared), (361, 361, 361));
        assert_eq!(a.margin_halves(), 0);
        let s = single_side(&b, &DeadStones::none(), Color::Black);
        assert_eq!((s.count_halves, s.par_halves, s.over_par_halves), (361, 361, 0));
        let t = territory(&b, &[], [0, 0]);
        assert_eq!((t.black_territory, t.white_territory, t.neutral, t.margin_halves), (0, 0, 361, 0));
        // komi 3¾: White by 3¾ stones
        let f = count_final(&b, &[], CountingMethod::Area, [0, 0]).unwrap();
        assert_eq!(f.outcome(&Scoring::chinese_2002()).to_string(), "W+3¾");
        let bowl = fill_in(&b, &DeadStones::none(), &PlayRecord::default(), standard_bowl(&b));
        assert_eq!((bowl.left, bowl.shared, bowl.margin_halves), ([180, 180], 361, 0));
    }

    /// Seki with two shared liberties (双活): the liberties reach both colours, so under area
    /// counting each side gets half of each (Art. 9.1); under territory counting they are dame.
    #[test]
    fn seki_shared_liberties() {
        // Black's three stones on the top edge and White's row share the liberties a1 = (0,0)
        // and e1 = (4,0); whoever fills one puts himself in atari.
        let b = Board::from_ascii(
            ".XXX.
             OOOOO
             XXXXX
             .....
             .....",
        )
        .unwrap();
        let a = area(&b, &[]);
        assert_eq!(a.shared, 2);
        assert_eq!((a.black_stones, a.black_territory), (8, 10));
        assert_eq!((a.white_stones, a.white_territory), (5, 0));
        assert_eq!(a.black_halves, 2 * 18 + 2, "18 points and two halves");
        assert_eq!(a.white_halves, 2 * 5 + 2);
        let t = territory(&b, &[], [0, 0]);
        assert_eq!((t.black_territory, t.white_territory, t.neutral), (10, 0, 2));
    }

    /// Seki where each side has an eye and one liberty is shared. Area (Art. 9.1): each eye reaches
    /// only its owner, the shared point is split. Territory with the seki chains marked: eyes and
    /// the shared point count for nobody.
    #[test]
    fn seki_with_eyes() {
        let b = Board::from_ascii(
            ".XX.OO.
             XXXOOOO
             OOOXXXX
             ..OX...
             ..OX...
             ..OX...
             ..OX...",
        )
        .unwrap();
        let a = area(&b, &[]);
        // Black: 13 stones, eye (0,0) + 12 points bottom right, ½ of (3,0)
        assert_eq!((a.black_stones, a.black_territory, a.shared), (13, 13, 1));
        assert_eq!(a.black_halves, 53, "26.5");
        // White: 13 stones, eye (6,0) + 8 points bottom left, ½ of (3,0)
        assert_eq!((a.white_stones, a.white_territory), (13, 9));
        assert_eq!(a.white_halves, 45, "22.5");
        let plain = territory(&b, &[], [0, 0]);
        assert_eq!((plain.black_territory, plain.white_territory, plain.neutral), (13, 9, 1));
        let seki = [Point::new(1, 0), Point::new(4, 0)];
        let t = territory_with_seki(&b, &DeadStones::none(), &seki, [0, 0]).unwrap();
        assert_eq!((t.black_territory, t.white_territory, t.neutral), (12, 8, 3));
        assert_eq!(t.margin_halves, 8);
        let dead = DeadStones::new(&b, &[Point::new(1, 0)]).unwrap();
        assert_eq!(
            territory_with_seki(&b, &dead, &seki, [0, 0]),
            Err(DeadStoneError::DeadAndSeki { point: Point::new(1, 0), size: 7 })
        );
    }

    /// A 5×5 final position worked by hand, through every method.
    ///
    /// ```text
    ///   . X O . .      dead: the black stone at (4,1), the white stone at (0,4)
    ///   . X . O X      prisoners taken in play: Black 2, White 1
    ///   . X . O .      stones played: Black 7 = 5 + 1 dead + 1 captured,
    ///   . X . O .                     White 8 = 5 + 1 dead + 2 captured
    ///   O X . O .      passes: Black 2, White 1 (one in play, then the two final passes)
    /// ```
    ///
    /// Black: 5 stones + 5 points (column a, with the dead stone's point) + ½ · 4 dame = 12.
    /// White: 5 stones + 6 points + 2 = 13. Sum 25. Margin −1 point = −2 half points.
    #[test]
    fn five_by_five_by_hand() {
        let b = Board::from_ascii(
            ".XO..
             .X.OX
             .X.O.
             .X.O.
             OX.O.",
        )
        .unwrap();
        let dead = DeadStones::new(&b, &[Point::new(4, 1), Point::new(0, 4)]).unwrap();
        let rec = PlayRecord { stones_played: [7, 8], prisoners: [2, 1], passes: [2, 1] };
        assert!(rec.is_consistent_with(&b));
        let a = area_dead(&b, &dead);
        assert_eq!((a.black_stones, a.black_territory, a.shared), (5, 5, 4));
        assert_eq!((a.white_stones, a.white_territory), (5, 6));
        assert_eq!((a.black_halves, a.white_halves), (24, 26));
        assert_eq!(a.margin_halves(), -2);

        // (1) single side: Black 12 against par 12.5 → −½ stone; White 13 → +½ stone
        let sb = single_side(&b, &dead, Color::Black);
        assert_eq!((sb.count_halves, sb.par_halves, sb.over_par_halves), (24, 25, -1));
        assert_eq!(sb.black_margin_halves(), -2);
        let sw = single_side(&b, &dead, Color::White);
        assert_eq!((sw.count_halves, sw.over_par_halves, sw.black_margin_halves()), (26, 1, -2));
        assert_eq!(sw.black_halves(), 24);

        // (2) fill-in with bowls of 12: Black 12 − 7 + 1 + 1 − 5 = 2 left, White 12 − 8 + 2 + 1 − 6
        // = 1 left: White has one more stone on the board → W+1 point
        let f = fill_in(&b, &dead, &rec, standard_bowl(&b));
        assert_eq!((f.bowl, f.filled, f.left, f.shared), (12, [5, 6], [2, 1], 4));
        assert_eq!(f.margin_halves, -2);
        assert_eq!(f.black_count_halves(), 24);

        // (3) fill back: Black 1 captured + 1 dead into column a, White 2 + 1 into its 6 points;
        // Black played one stone fewer and makes it up: empties 5 − 2 − 1 = 2 and 6 − 3 = 3
        let e = equal_stones(&b, &dead, &rec);
        assert_eq!((e.filled_back, e.makeup, e.stones, e.empty), ([2, 3], [1, 0], [8, 8], [2, 3]));
        assert_eq!(e.margin_halves, -2);
        // (4) a pass was made, so the same make-up
        assert_eq!(equal_stones_improved_japanese(&b, &dead, &rec), e);
        // without any pass there is no make-up and (4) gives the territory margin
        let no_pass = PlayRecord { passes: [0, 0], ..rec };
        let e4 = equal_stones_improved_japanese(&b, &dead, &no_pass);
        assert_eq!((e4.makeup, e4.empty, e4.margin_halves), ([0, 0], [3, 3], 0));

        // 数目法: Black 5 + 2 + 1 = 8, White 6 + 1 + 1 = 8: equal, because White played one stone
        // more (area −2 = territory 0 + 2·(7 − 8))
        let t = territory(&b, &[Point::new(4, 1), Point::new(0, 4)], [2, 1]);
        assert_eq!(
            (t.black_territory, t.black_prisoners, t.white_territory, t.white_prisoners),
            (5, 3, 6, 2)
        );
        assert_eq!(t.margin_halves, 0);
        // Japanese komi 6.5 points = 13 half points
        let o = territory_outcome(&t, 13, JigoRule::Draw);
        assert_eq!(o.sgf_result(), "W+6.5");

        // count_final gives the same margins
        let dead_pts = [Point::new(4, 1), Point::new(0, 4)];
        let fa = count_final(&b, &dead_pts, CountingMethod::Area, [2, 1]).unwrap();
        assert_eq!((fa.black_halves, fa.white_halves, fa.margin_halves), (24, 26, -2));
        let s = scoring(25, 15);
        assert_eq!(fa.outcome(&s), s.outcome(24));
        assert_eq!(fa.outcome(&s).sgf_result(), "W+8.5");
        let ft = count_final(&b, &dead_pts, CountingMethod::Territory, [2, 1]).unwrap();
        assert_eq!((ft.black_halves, ft.white_halves, ft.margin_halves), (16, 16, 0));
        assert_eq!(ft.outcome(&scoring(25, 13)), o);
        assert_eq!(ft.detail, CountDetail::Territory(t));
    }

    /// A 19×19 final position worked by hand: Black 184.5, which wins by ¼ stone with komi 3¾
    /// (rules.md §3.2).
    ///
    /// Rows 1–5 from the top (y 0–4): Black wall at x = 8, White wall at x = 9.
    /// Rows 6–18 (y 5–17): Black wall at x = 9, White wall at x = 10.
    /// Bottom row (y 18): Black at x = 8, White at x = 10, dame at x = 9.
    /// Dead: a White stone at D16 in Black's area, a two-stone Black chain at Q4/Q3 in White's.
    ///
    /// Black: 19 stones; territory 8·5 + 9·13 + 8 = 165; ½ dame → 184.5 (369 half points).
    /// White: 19 stones; territory 9·5 + 8·13 + 8 = 157; ½ dame → 176.5.
    /// Prisoners in play: Black took 3, White took 5. Stones played: Black 19 + 2 + 5 = 26,
    /// White 19 + 1 + 3 = 23.
    #[test]
    fn nineteen_by_hand() {
        let mut rows = vec![vec!['.'; 19]; 19];
        for (y, row) in rows.iter_mut().enumerate() {
            let (bx, wx) = match y {
                0..=4 => (8, 9),
                5..=17 => (9, 10),
                _ => (8, 10),
            };
            row[bx] = 'X';
            row[wx] = 'O';
        }
        let d16 = Point::parse("D16", 19).unwrap();
        let q4 = Point::parse("Q4", 19).unwrap();
        let q3 = Point::parse("Q3", 19).unwrap();
        rows[usize::from(d16.y)][usize::from(d16.x)] = 'O';
        rows[usize::from(q4.y)][usize::from(q4.x)] = 'X';
        rows[usize::from(q3.y)][usize::from(q3.x)] = 'X';
        let text: String = rows.iter().map(|r| r.iter().collect::<String>() + "\n").collect();
        let b = Board::from_ascii(&text).unwrap();
        let dead_pts = [d16, q3];
        let dead = DeadStones::new(&b, &dead_pts).unwrap();
        assert_eq!((dead.count(Color::Black), dead.count(Color::White)), (2, 1));

        let a = area_dead(&b, &dead);
        assert_eq!((a.black_stones, a.black_territory, a.shared), (19, 165, 1));
        assert_eq!((a.white_stones, a.white_territory), (19, 157));
        assert_eq!((a.black_halves, a.white_halves), (369, 353));
        assert_eq!(a.margin_halves(), 16, "8 points");
        let f = count_final(&b, &dead_pts, CountingMethod::Area, [3, 5]).unwrap();
        let o = f.outcome(&Scoring::chinese_2002());
        assert_eq!(o.to_string(), "B+¼");
        assert_eq!(o, Scoring::chinese_2002().outcome(369));

        let rec = PlayRecord { stones_played: [26, 23], prisoners: [3, 5], passes: [1, 1] };
        assert!(rec.is_consistent_with(&b));
        // (1) Black 184.5 is 4 stones over par 180.5 = 8 half stones → 16 half points
        let s = single_side(&b, &dead, Color::Black);
        assert_eq!((s.count_halves, s.over_par_halves), (369, 8));
        assert_eq!(s.black_margin_halves(), 16);
        // (2) Black: 180 − 26 + 5 + 2 − 165 = −4 (four stones short: 184 on the board);
        // White: 180 − 23 + 3 + 1 − 157 = 4 left → Black ahead by 8 points
        let fi = fill_in(&b, &dead, &rec, 180);
        assert_eq!(fi.left, [-4, 4]);
        assert_eq!((fi.margin_halves, fi.black_count_halves()), (16, 369));
        // (3) Black 165 − 7 = 158 empty, White 157 − 4 − 3 make-up = 150: 8 points
        let e = equal_stones(&b, &dead, &rec);
        assert_eq!((e.makeup, e.stones, e.empty, e.margin_halves), ([0, 3], [26, 26], [158, 150], 16));
        assert_eq!(equal_stones_improved_japanese(&b, &dead, &rec), e);
        // 数目法: Black 165 + 3 + 1 = 169, White 157 + 5 + 2 = 164: 5 points = 8 − (26 − 23)
        let t = territory(&b, &dead_pts, [3, 5]);
        assert_eq!((t.black_points(), t.white_points(), t.neutral), (169, 164, 1));
        assert_eq!(t.margin_halves, 10);
        assert_eq!(territory_outcome(&t, 13, JigoRule::Draw).sgf_result(), "W+1.5");
    }

    /// Replay a random legal game (seeded) and return it.
    fn random_played(size: u8, seed: u64, max_moves: usize) -> Game {
        let mut g = Game::new(size, KoRule::Situational, SuicideRule::Forbidden).unwrap();
        for (c, m) in random_game(size, KoRule::Situational, seed, max_moves) {
            g.play_as(c, m).unwrap();
        }
        g
    }

    /// Some chains of the board picked by the bits of `mask`, as one point per chain.
    fn pick_chains(b: &Board, mask: u64) -> Vec<Point> {
        let mut seen = HashSet::new();
        let mut picked = Vec::new();
        let mut k = 0u32;
        for p in b.all_points() {
            if b.get(p).is_none() || seen.contains(&p) {
                continue;
            }
            seen.extend(b.chain(p));
            if (mask >> (k % 64)) & 1 == 1 {
                picked.push(p);
            }
            k += 1;
        }
        picked
    }

    #[test]
    fn nineteen_random_game_all_methods_agree() {
        let g = random_played(19, 2024, 2000);
        let b = g.board();
        let rec = PlayRecord::from_game(&g);
        assert!(rec.is_consistent_with(b));
        let dead = DeadStones::new(b, &pick_chains(b, 0x0101_0101)).unwrap();
        let a = area_dead(b, &dead);
        assert_eq!(a.black_halves + a.white_halves, 722);
        assert_eq!(fill_in(b, &dead, &rec, 180).margin_halves, a.margin_halves());
        assert_eq!(equal_stones(b, &dead, &rec).margin_halves, a.margin_halves());
        assert_eq!(single_side(b, &dead, Color::White).black_margin_halves(), a.margin_halves());
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

        /// Random legal games played to the end (or cut off), with random chains declared dead.
        #[test]
        fn counting_methods_agree(
            seed in any::<u64>(),
            size in prop::sample::select(vec![5u8, 7, 9, 13]),
            max_moves in prop_oneof![Just(5000usize), 0usize..300],
            mask in any::<u64>(),
        ) {
            let g = random_played(size, seed, max_moves);
            let b = g.board();
            let n = b.points();
            let rec = PlayRecord::from_game(&g);

            // (c) stones conserved: placed = on the board + captured by the opponent
            for c in [Color::Black, Color::White] {
                prop_assert_eq!(
                    rec.stones_played[ci(c)],
                    b.stone_count(c) + g.captures_by(c.opponent())
                );
            }
            prop_assert!(rec.is_consistent_with(b));

            let dead = DeadStones::new(b, &pick_chains(b, mask)).unwrap();
            let a = area_dead(b, &dead);
            let m = a.margin_halves();

            // (a) the two counts cover the board exactly
            prop_assert_eq!(a.black_halves + a.white_halves, 2 * n);
            prop_assert_eq!(
                a.black_stones + a.white_stones + a.black_territory + a.white_territory + a.shared,
                n
            );
            prop_assert_eq!(a.black_stones + a.dead_black, b.stone_count(Color::Black));
            prop_assert_eq!(a.white_stones + a.dead_white, b.stone_count(Color::White));
            prop_assert_eq!(area(b, dead.stones()), a);

            // (b) the four methods of seed 003 Art. 9.4 give the area margin
            let sb = single_side(b, &dead, Color::Black);
            let sw = single_side(b, &dead, Color::White);
            prop_assert_eq!(sb.count_halves + sw.count_halves, 2 * n);
            prop_assert_eq!(sb.count_halves, a.black_halves);
            prop_assert_eq!(sb.black_margin_halves(), m);
            prop_assert_eq!(sw.black_margin_halves(), m);

            let f = fill_in(b, &dead, &rec, standard_bowl(b));
            prop_assert_eq!(f.margin_halves, m);
            prop_assert_eq!(f.black_count_halves(), i64::from(a.black_halves));

            let e3 = equal_stones(b, &dead, &rec);
            prop_assert_eq!(e3.stones[0], e3.stones[1]);
            prop_assert_eq!(e3.margin_halves, m);

            let stone_diff = i64::from(rec.stones_played[0]) - i64::from(rec.stones_played[1]);
            let e4 = equal_stones_improved_japanese(b, &dead, &rec);
            if rec.passes != [0, 0] || stone_diff == 0 {
                prop_assert_eq!(e4.margin_halves, m);
            } else {
                prop_assert_eq!(e4.margin_halves, m - 2 * stone_diff);
            }

            // 数目法 differs from area by the difference in stones played
            let t = territory(b, dead.stones(), rec.prisoners);
            prop_assert_eq!(t.margin_halves + 2 * stone_diff, m);
            prop_assert_eq!(
                t.black_territory + t.white_territory + t.neutral,
                a.black_territory + a.white_territory + a.shared
            );

            // count_final and its outcome agree with Scoring
            let fc = count_final(b, dead.stones(), CountingMethod::Area, rec.prisoners).unwrap();
            prop_assert_eq!(fc.margin_halves, m);
            let s = Scoring { points: n, ..Scoring::chinese_2002() };
            prop_assert_eq!(fc.outcome(&s), s.outcome(a.black_halves));
            let ft = count_final(b, dead.stones(), CountingMethod::Territory, rec.prisoners).unwrap();
            prop_assert_eq!(ft.margin_halves, t.margin_halves);
        }

        /// With an inconsistent record the fill-in result is off by exactly the stones that are
        /// unaccounted for, so a wrong prisoner count cannot go unnoticed.
        #[test]
        fn fill_in_reveals_inconsistent_records(
            seed in any::<u64>(),
            extra in prop::array::uniform4(0u32..5),
        ) {
            let g = random_played(9, seed, 5000);
            let b = g.board();
            let mut rec = PlayRecord::from_game(&g);
            rec.stones_played[0] += extra[0];
            rec.stones_played[1] += extra[1];
            rec.prisoners[0] += extra[2];
            rec.prisoners[1] += extra[3];
            let gap = rec.conservation_gap(b);
            let dead = DeadStones::none();
            let a = area_dead(b, &dead);
            let f = fill_in(b, &dead, &rec, standard_bowl(b));
            prop_assert_eq!(f.margin_halves, a.margin_halves() + 2 * (gap[0] - gap[1]));
            prop_assert_eq!(rec.is_consistent_with(b), gap == [0, 0]);
        }
    }
}
