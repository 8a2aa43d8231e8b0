//! The board: points, colours, chains with liberty tracking and Zobrist hashes.
//!
//! Seed 000 Arts. 1–5: a square grid (19×19 by default; 5×5 to 25×25 here), Black and White stones,
//! a stone or a chain of stones is captured when it has no liberty (气). Art. 19: a point where a
//! new stone would have no liberty and captures nothing is a forbidden point (禁着点).
//!
//! Representation, chosen for speed (the game module replays hundreds of thousands of moves a
//! second): a padded one-dimensional array of `(size+2)²` cells with an off-board border, so a
//! neighbour never needs a bounds check. Every chain is a circular linked list through `next`;
//! `head[p]` names the chain of the stone on `p`; the head holds the chain's stone count, its
//! pseudo-liberty count (empty neighbours counted once per adjacent stone, which is zero exactly
//! when the chain has no liberty) and the XOR of its stones' Zobrist keys.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Largest supported board.
pub const MAX_SIZE: u8 = 25;
/// Smallest supported board.
pub const MIN_SIZE: u8 = 5;
const STRIDE_MAX: usize = MAX_SIZE as usize + 2;
const CELLS_MAX: usize = STRIDE_MAX * STRIDE_MAX;

/// A player's colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum Color {
    Black,
    White,
}

impl Color {
    /// The other colour.
    #[inline]
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
    /// "B" or "W" (SGF).
    pub fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }
    #[inline]
    fn index(self) -> usize {
        self as usize
    }
}

/// A point of the board: column `x` from the left and row `y` from the top, both from 0
/// (the SGF convention: "aa" is x = 0, y = 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
pub struct Point {
    pub x: u8,
    pub y: u8,
}

impl Point {
    pub const fn new(x: u8, y: u8) -> Point {
        Point { x, y }
    }

    /// SGF coordinates, e.g. "pd"; "a".."z", then "A".."Z" for 26..=51, as [`Point::from_sgf`]
    /// reads them (so an off-board move read from a record is written back as it was). A
    /// coordinate past 51 has no SGF letter and is written as '?'.
    pub fn sgf(self) -> String {
        let c = |v: u8| match v {
            0..=25 => (b'a' + v) as char,
            26..=51 => (b'A' + v - 26) as char,
            _ => '?',
        };
        format!("{}{}", c(self.x), c(self.y))
    }

    /// Parse two SGF letters ("a".."z", then "A".."Z" for x ≥ 26).
    pub fn from_sgf(s: &str) -> Option<Point> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let c = |ch: u8| match ch {
            b'a'..=b'z' => Some(ch - b'a'),
            b'A'..=b'Z' => Some(ch - b'A' + 26),
            _ => None,
        };
        Some(Point { x: c(b[0])?, y: c(b[1])? })
    }

    /// Human coordinates as on a printed board and in Go programs: letters A–Z without I for the
    /// column, the row counted from the bottom, e.g. "Q16" on 19×19.
    pub fn display(self, size: u8) -> String {
        let letters = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";
        let col = letters.get(usize::from(self.x)).map(|&c| c as char).unwrap_or('?');
        match u32::from(size).checked_sub(u32::from(self.y)) {
            Some(row) if row > 0 => format!("{col}{row}"),
            _ => format!("{col}?"),
        }
    }

    /// Parse either human coordinates ("Q16", "q16") or SGF letters ("pd") on a board of `size`.
    pub fn parse(s: &str, size: u8) -> Option<Point> {
        let t = s.trim();
        if !t.is_ascii() {
            return None;
        }
        let first = t.chars().next()?;
        if t.len() >= 2 && t[1..].chars().all(|c| c.is_ascii_digit()) && first.is_ascii_alphabetic() {
            let letters = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
            let x = letters.find(first.to_ascii_uppercase())? as u8;
            let row: u8 = t[1..].parse().ok()?;
            if row == 0 || row > size || x >= size {
                return None;
            }
            return Some(Point { x, y: size - row });
        }
        let p = Point::from_sgf(t)?;
        (p.x < size && p.y < size).then_some(p)
    }
}

/// What occupies a cell of the padded array.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
enum Cell {
    Black = 0,
    White = 1,
    Empty = 2,
    Off = 3,
}

impl Cell {
    #[inline]
    fn of(c: Color) -> Cell {
        match c {
            Color::Black => Cell::Black,
            Color::White => Cell::White,
        }
    }
}

/// SplitMix64, used at compile time to fill the Zobrist table.
const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn zobrist_table() -> [[u64; CELLS_MAX]; 2] {
    let mut t = [[0u64; CELLS_MAX]; 2];
    let mut state = 0x7465_6E67_656E_u64; // "tengen"
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < CELLS_MAX {
            let (s, v) = splitmix(state);
            state = s;
            t[c][i] = v;
            i += 1;
        }
        c += 1;
    }
    t
}

/// Zobrist keys per colour and padded cell. Fixed at compile time, so hashes are stable across
/// runs and machines.
static ZOBRIST: [[u64; CELLS_MAX]; 2] = zobrist_table();
/// XORed into a hash to mark "White to move" (situational superko).
pub const ZOBRIST_WHITE_TO_MOVE: u64 = 0x5A5A_1F2E_3D4C_6B7A;

/// Per-chain data, valid at the chain's head.
#[derive(Debug, Clone, Copy, Default)]
struct ChainData {
    stones: u16,
    pseudo_libs: u16,
    hash: u64,
}

/// What a placement would do, computed without changing the board.
#[derive(Debug, Clone, Copy, Default)]
pub struct Placement {
    /// Heads of the opponent chains that would be captured (at most four).
    captured_heads: [u16; 4],
    n_captured_chains: u8,
    /// Number of opponent stones captured.
    pub captures: u32,
    /// The new stone's chain would have no liberty after captures (suicide).
    pub suicide: bool,
    /// Board hash after the placement (and after removing a suicided chain, if any).
    pub hash_after: u64,
    /// For simple ko: the single captured stone's point, when the move captured exactly one stone
    /// with a lone stone that is left in atari.
    pub ko_point: Option<u16>,
}

/// A Go board of `size`×`size` points.
#[derive(Clone)]
pub struct Board {
    size: u8,
    stride: usize,
    cells: Vec<Cell>,
    next: Vec<u16>,
    head: Vec<u16>,
    chains: Vec<ChainData>,
    hash: u64,
    stones: [u32; 2],
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Board {}x{} hash {:016x}", self.size, self.size, self.hash)?;
        write!(f, "{}", self.ascii())
    }
}

impl PartialEq for Board {
    fn eq(&self, other: &Self) -> bool {
        self.size == other.size && self.cells == other.cells
    }
}
impl Eq for Board {}

/// Error for an unsupported board size.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("board size {0} is not supported (5 to 25)")]
pub struct BadSize(pub u32);

impl Board {
    /// An empty board. Sizes from 5 to 25.
    pub fn new(size: u8) -> Result<Board, BadSize> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(BadSize(u32::from(size)));
        }
        let stride = usize::from(size) + 2;
        let n = stride * stride;
        let mut cells = vec![Cell::Off; n];
        for y in 0..size {
            for x in 0..size {
                cells[(usize::from(y) + 1) * stride + usize::from(x) + 1] = Cell::Empty;
            }
        }
        Ok(Board {
            size,
            stride,
            cells,
            next: vec![0; n],
            head: vec![0; n],
            chains: vec![ChainData::default(); n],
            hash: 0,
            stones: [0, 0],
        })
    }

    /// The standard 19×19 board.
    pub fn standard() -> Board {
        Board::new(19).expect("19 is a supported size")
    }

    pub fn size(&self) -> u8 {
        self.size
    }

    /// Number of points (size²).
    pub fn points(&self) -> u32 {
        u32::from(self.size) * u32::from(self.size)
    }

    /// Zobrist hash of the stones on the board (no side to move).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Stones of a colour on the board.
    pub fn stone_count(&self, c: Color) -> u32 {
        self.stones[c.index()]
    }

    /// True when the point lies on the board.
    pub fn contains(&self, p: Point) -> bool {
        p.x < self.size && p.y < self.size
    }

    #[inline]
    fn idx(&self, p: Point) -> usize {
        (usize::from(p.y) + 1) * self.stride + usize::from(p.x) + 1
    }

    #[inline]
    fn point(&self, i: usize) -> Point {
        Point { x: (i % self.stride - 1) as u8, y: (i / self.stride - 1) as u8 }
    }

    #[inline]
    fn neighbours(&self, i: usize) -> [usize; 4] {
        [i - self.stride, i - 1, i + 1, i + self.stride]
    }

    /// The stone on a point, if any. Points off the board read as empty.
    pub fn get(&self, p: Point) -> Option<Color> {
        if !self.contains(p) {
            return None;
        }
        match self.cells[self.idx(p)] {
            Cell::Black => Some(Color::Black),
            Cell::White => Some(Color::White),
            _ => None,
        }
    }

    /// All points of the board, row by row.
    pub fn all_points(&self) -> impl Iterator<Item = Point> + '_ {
        let s = self.size;
        (0..s).flat_map(move |y| (0..s).map(move |x| Point { x, y }))
    }

    /// The on-board neighbours of a point.
    pub fn adjacent(&self, p: Point) -> impl Iterator<Item = Point> + '_ {
        let i = self.idx(p);
        self.neighbours(i)
            .into_iter()
            .filter(move |&n| self.cells[n] != Cell::Off)
            .map(move |n| self.point(n))
    }

    /// The stones of the chain through `p` (empty if `p` is empty).
    pub fn chain(&self, p: Point) -> Vec<Point> {
        if self.get(p).is_none() {
            return Vec::new();
        }
        let start = self.idx(p);
        let mut out = Vec::new();
        let mut i = start;
        loop {
            out.push(self.point(i));
            i = usize::from(self.next[i]);
            if i == start {
                break;
            }
        }
        out
    }

    /// The real liberties of the chain through `p` (computed, not cached).
    pub fn liberties(&self, p: Point) -> usize {
        let mut seen = vec![false; self.cells.len()];
        let mut n = 0;
        for s in self.chain(p) {
            for nb in self.neighbours(self.idx(s)) {
                if self.cells[nb] == Cell::Empty && !seen[nb] {
                    seen[nb] = true;
                    n += 1;
                }
            }
        }
        n
    }

    /// Zobrist hash recomputed from scratch (for tests of the incremental hash).
    pub fn recompute_hash(&self) -> u64 {
        let mut h = 0;
        for (i, c) in self.cells.iter().enumerate() {
            match c {
                Cell::Black => h ^= ZOBRIST[0][i],
                Cell::White => h ^= ZOBRIST[1][i],
                _ => {}
            }
        }
        h
    }

    /// Work out what placing a stone of colour `c` on the empty point `p` would do, without
    /// changing anything. `p` must be on the board and empty.
    pub fn prepare(&self, c: Color, p: Point) -> Placement {
        let i = self.idx(p);
        self.prepare_idx(c, i)
    }

    #[inline]
    fn prepare_idx(&self, c: Color, i: usize) -> Placement {
        let own = Cell::of(c);
        let opp = Cell::of(c.opponent());
        let mut pl = Placement { hash_after: self.hash ^ ZOBRIST[c.index()][i], ..Placement::default() };
        let nbs = self.neighbours(i);
        let mut has_liberty = false;
        // Heads of adjacent chains with how many of our neighbours they own.
        let mut heads = [0usize; 4];
        let mut counts = [0u16; 4];
        let mut nh = 0;
        for &n in &nbs {
            match self.cells[n] {
                Cell::Empty => has_liberty = true,
                Cell::Black | Cell::White => {
                    let h = usize::from(self.head[n]);
                    if let Some(k) = heads[..nh].iter().position(|&x| x == h) {
                        counts[k] += 1;
                    } else {
                        heads[nh] = h;
                        counts[nh] = 1;
                        nh += 1;
                    }
                }
                Cell::Off => {}
            }
        }
        let mut friendly_survives = false;
        let mut captured_single: Option<usize> = None;
        for k in 0..nh {
            let h = heads[k];
            let d = self.chains[h];
            let only_liberty_here = d.pseudo_libs == counts[k];
            if self.cells[h] == opp {
                if only_liberty_here {
                    pl.captured_heads[usize::from(pl.n_captured_chains)] = h as u16;
                    pl.n_captured_chains += 1;
                    pl.captures += u32::from(d.stones);
                    pl.hash_after ^= d.hash;
                    if d.stones == 1 {
                        captured_single = Some(h);
                    }
                }
            } else if self.cells[h] == own && !only_liberty_here {
                friendly_survives = true;
            }
        }
        let captured_any = pl.n_captured_chains > 0;
        pl.suicide = !has_liberty && !captured_any && !friendly_survives;
        if pl.suicide {
            // The new stone and every friendly chain touching it would be removed.
            pl.hash_after ^= ZOBRIST[c.index()][i];
            for &h in heads.iter().take(nh) {
                if self.cells[h] == own {
                    pl.hash_after ^= self.chains[h].hash;
                }
            }
        }
        // Simple ko: a lone stone captures exactly one stone and is left with one liberty (the
        // captured point). The stone is lone when it has no friendly neighbour.
        if pl.captures == 1 && !has_liberty {
            let lone = nbs.iter().all(|&n| self.cells[n] != own);
            if lone {
                pl.ko_point = captured_single.map(|h| h as u16);
            }
        }
        pl
    }

    /// Place a stone whose effect was computed by [`Board::prepare`] (on this same board state).
    /// Returns the number of stones removed: captured opponent stones, or (suicide) own stones as
    /// a negative number.
    pub fn commit(&mut self, c: Color, p: Point, pl: &Placement) -> i32 {
        let i = self.idx(p);
        self.place_idx(c, i);
        let mut removed = 0i32;
        for k in 0..usize::from(pl.n_captured_chains) {
            let h = usize::from(pl.captured_heads[k]);
            removed += self.remove_chain(h) as i32;
        }
        if pl.suicide {
            let h = usize::from(self.head[i]);
            removed -= self.remove_chain(h) as i32;
        }
        removed
    }

    /// Put a stone on the point and merge chains; does not capture.
    fn place_idx(&mut self, c: Color, i: usize) {
        let own = Cell::of(c);
        self.cells[i] = own;
        self.stones[c.index()] += 1;
        self.hash ^= ZOBRIST[c.index()][i];
        self.next[i] = i as u16;
        self.head[i] = i as u16;
        let mut libs = 0u16;
        let nbs = self.neighbours(i);
        for &n in &nbs {
            match self.cells[n] {
                Cell::Empty => libs += 1,
                Cell::Black | Cell::White => {
                    let h = usize::from(self.head[n]);
                    self.chains[h].pseudo_libs -= 1;
                }
                Cell::Off => {}
            }
        }
        self.chains[i] = ChainData { stones: 1, pseudo_libs: libs, hash: ZOBRIST[c.index()][i] };
        for &n in &nbs {
            if self.cells[n] == own {
                let hn = usize::from(self.head[n]);
                let hi = usize::from(self.head[i]);
                if hn != hi {
                    self.merge(hi, hn);
                }
            }
        }
    }

    /// Merge two chains (given by their heads); the smaller one is relabelled.
    fn merge(&mut self, a: usize, b: usize) {
        let (big, small) = if self.chains[a].stones >= self.chains[b].stones { (a, b) } else { (b, a) };
        let mut j = small;
        loop {
            self.head[j] = big as u16;
            j = usize::from(self.next[j]);
            if j == small {
                break;
            }
        }
        self.next.swap(big, small);
        let s = self.chains[small];
        let d = &mut self.chains[big];
        d.stones += s.stones;
        d.pseudo_libs += s.pseudo_libs;
        d.hash ^= s.hash;
    }

    /// Remove the chain with head `h`; neighbours gain liberties. Returns the stones removed.
    fn remove_chain(&mut self, h: usize) -> u32 {
        let color = match self.cells[h] {
            Cell::Black => 0,
            Cell::White => 1,
            _ => return 0,
        };
        let mut j = h;
        let mut n = 0;
        loop {
            let nx = usize::from(self.next[j]);
            self.cells[j] = Cell::Empty;
            self.hash ^= ZOBRIST[color][j];
            n += 1;
            j = nx;
            if j == h {
                break;
            }
        }
        // Second pass: now that every stone is gone, credit the liberties to the neighbours.
        let mut j = h;
        loop {
            for nb in self.neighbours(j) {
                if matches!(self.cells[nb], Cell::Black | Cell::White) {
                    let hn = usize::from(self.head[nb]);
                    self.chains[hn].pseudo_libs += 1;
                }
            }
            let nx = usize::from(self.next[j]);
            self.next[j] = j as u16;
            j = nx;
            if j == h {
                break;
            }
        }
        self.stones[color] -= n;
        n
    }

    /// Play a stone of `c` on the empty point `p` with captures (and, if it has no liberty and
    /// captures nothing, removal of its own chain). No ko or legality checks: see [`crate::game`].
    /// Returns the placement summary.
    pub fn play_unchecked(&mut self, c: Color, p: Point) -> Placement {
        let pl = self.prepare(c, p);
        self.commit(c, p, &pl);
        pl
    }

    /// Set up a stone (SGF AB/AW): placed without captures checks; if the position is
    /// inconsistent (a chain without liberty), the chain stays as it is, as setup allows.
    pub fn setup(&mut self, c: Color, p: Point) {
        if !self.contains(p) {
            return;
        }
        let i = self.idx(p);
        if self.cells[i] != Cell::Empty {
            self.clear(p);
        }
        self.place_idx(c, i);
    }

    /// Remove the single stone on `p` (SGF AE, dead-stone removal). The rest of its chain stays.
    pub fn clear(&mut self, p: Point) {
        if self.get(p).is_none() {
            return;
        }
        // Rebuild: simplest correct way for a rare operation.
        let stones: Vec<(Point, Color)> =
            self.all_points().filter(|&q| q != p).filter_map(|q| self.get(q).map(|c| (q, c))).collect();
        let mut b = Board::new(self.size).expect("same size");
        for (q, c) in stones {
            let i = b.idx(q);
            b.place_idx(c, i);
        }
        *self = b;
    }

    /// Remove the whole chain through `p`; returns how many stones were removed.
    pub fn remove_chain_at(&mut self, p: Point) -> u32 {
        if self.get(p).is_none() {
            return 0;
        }
        let h = usize::from(self.head[self.idx(p)]);
        self.remove_chain(h)
    }

    /// Check the internal invariants (for tests): heads, chain lists, pseudo-liberties, hash.
    pub fn check_invariants(&self) -> Result<(), String> {
        if self.hash != self.recompute_hash() {
            return Err("hash differs from recomputed".into());
        }
        let mut counts = [0u32; 2];
        for p in self.all_points() {
            if let Some(c) = self.get(p) {
                counts[c.index()] += 1;
                let i = self.idx(p);
                let h = usize::from(self.head[i]);
                let chain = self.chain(p);
                if chain.iter().any(|&q| usize::from(self.head[self.idx(q)]) != h) {
                    return Err(format!("chain at {p:?} has mixed heads"));
                }
                let d = self.chains[h];
                if usize::from(d.stones) != chain.len() {
                    return Err(format!(
                        "chain at {p:?}: {} stones recorded, {} found",
                        d.stones,
                        chain.len()
                    ));
                }
                let pseudo: usize = chain
                    .iter()
                    .map(|&q| {
                        self.neighbours(self.idx(q)).iter().filter(|&&n| self.cells[n] == Cell::Empty).count()
                    })
                    .sum();
                if usize::from(d.pseudo_libs) != pseudo {
                    return Err(format!(
                        "chain at {p:?}: pseudo-liberties {} recorded, {pseudo} found",
                        d.pseudo_libs
                    ));
                }
                let mut hh = 0;
                for &q in &chain {
                    hh ^= ZOBRIST[c.index()][self.idx(q)];
                }
                if hh != d.hash {
                    return Err(format!("chain at {p:?}: chain hash differs"));
                }
            }
        }
        if counts != self.stones {
            return Err("stone counts differ".into());
        }
        Ok(())
    }

    /// A text picture: `X` Black, `O` White, `.` empty; one row per line, top row first.
    pub fn ascii(&self) -> String {
        let mut s = String::with_capacity(self.points() as usize + usize::from(self.size));
        for y in 0..self.size {
            for x in 0..self.size {
                s.push(match self.get(Point { x, y }) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                });
            }
            s.push('\n');
        }
        s
    }

    /// Build a board from a picture as written by [`Board::ascii`] (`X`/`B` Black, `O`/`W` White,
    /// anything else empty). Used in tests. Stones are set up without captures.
    pub fn from_ascii(rows: &str) -> Result<Board, BadSize> {
        let lines: Vec<&str> = rows.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
        let size = u8::try_from(lines.len()).map_err(|_| BadSize(lines.len() as u32))?;
        let mut b = Board::new(size)?;
        for (y, line) in lines.iter().enumerate() {
            for (x, ch) in line.chars().filter(|c| !c.is_whitespace()).enumerate().take(usize::from(size)) {
                let c = match ch {
                    'X' | 'x' | 'B' | '#' => Color::Black,
                    'O' | 'o' | 'W' => Color::White,
                    _ => continue,
                };
                b.setup(c, Point::new(x as u8, y as u8));
            }
        }
        Ok(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sgf_letters_round_trip_for_every_coordinate_sgf_can_name() {
        // Found by the sgf fuzz target: coordinates 26..=51 were written as non-letters (and
        // 159 and up overflowed).
        for x in 0..52u8 {
            for y in [0u8, 25, 26, 51] {
                let p = Point::new(x, y);
                assert_eq!(Point::from_sgf(&p.sgf()), Some(p), "{}", p.sgf());
            }
        }
        assert_eq!(Point::new(26, 51).sgf(), "AZ");
        assert_eq!(Point::new(200, 0).sgf(), "?a");
    }

    #[test]
    fn sizes() {
        assert!(Board::new(4).is_err());
        assert!(Board::new(26).is_err());
        for s in 5..=25 {
            let b = Board::new(s).unwrap();
            assert_eq!(b.points(), u32::from(s) * u32::from(s));
        }
    }

    #[test]
    fn coordinates() {
        assert_eq!(Point::new(15, 3).sgf(), "pd");
        assert_eq!(Point::from_sgf("pd"), Some(Point::new(15, 3)));
        assert_eq!(Point::new(15, 3).display(19), "Q16");
        assert_eq!(Point::parse("Q16", 19), Some(Point::new(15, 3)));
        assert_eq!(Point::parse("pd", 19), Some(Point::new(15, 3)));
        assert_eq!(Point::parse("A1", 19), Some(Point::new(0, 18)));
        assert_eq!(Point::parse("I5", 19), None, "no I column");
        assert_eq!(Point::parse("T20", 19), None);
        assert_eq!(Point::parse("é5", 19), None, "non-ASCII input is refused, not a panic");
        assert_eq!(Point::new(0, 30).display(19), "A?", "off-board rows do not underflow");
    }

    #[test]
    fn capture_single_and_chain() {
        let mut b = Board::from_ascii(
            ".X...
             XO...
             .X...
             .....
             .....",
        )
        .unwrap();
        let pl = b.play_unchecked(Color::Black, Point::new(2, 1));
        assert_eq!(pl.captures, 1);
        assert_eq!(b.get(Point::new(1, 1)), None);
        b.check_invariants().unwrap();
    }

    #[test]
    fn liberties_counted() {
        let b = Board::from_ascii(
            "XX...
             .....
             .....
             .....
             .....",
        )
        .unwrap();
        assert_eq!(b.liberties(Point::new(0, 0)), 3);
        assert_eq!(b.chain(Point::new(1, 0)).len(), 2);
    }
}
