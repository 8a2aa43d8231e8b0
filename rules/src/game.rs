//! A game in progress: moves, passes, ko rules as data, the end by two passes.
//!
//! Seed 000 Art. 5 (captures; when after a move both sides are without liberties, the opponent's
//! stones are removed), Art. 6 (全局同形再现: after a play the opponent must not face again a
//! position that occurred before, which reads as *situational* superko — the project default, see
//! rules.md §9), Art. 7 (two consecutive passes end the game), Art. 19 (forbidden points).
//!
//! Every illegal move is refused with its reason and leaves the game unchanged: legality is
//! decided by [`Board::prepare`] before anything is written.

use crate::board::{Board, Color, Placement, Point, ZOBRIST_WHITE_TO_MOVE};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};

/// Which repetitions are forbidden (rules.md §9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum KoRule {
    /// Only the immediate recapture of a single ko (Art. 20.1 referee rule; Japanese rules).
    Simple,
    /// No whole-board position may repeat, whoever is to move.
    Positional,
    /// The opponent must not face a position (stones and side to move) seen before (Art. 6).
    #[default]
    Situational,
}

impl std::str::FromStr for KoRule {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "simple" => Ok(KoRule::Simple),
            "positional" | "psk" => Ok(KoRule::Positional),
            "situational" | "ssk" => Ok(KoRule::Situational),
            other => Err(format!("unknown ko rule {other:?} (simple, positional, situational)")),
        }
    }
}

/// Whether a move that leaves its own chain without liberty is allowed (rules.md §3.1, Art. 19).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum SuicideRule {
    /// 禁着点: forbidden (Chinese, Japanese, AGA).
    #[default]
    Forbidden,
    /// Allowed, single- and multi-stone (New Zealand, Tromp–Taylor); the chain is removed.
    Allowed,
}

/// A move: a stone on a point, or a pass (虚着).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Move {
    Play(Point),
    Pass,
}

/// Why a move was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, thiserror::Error)]
#[serde(rename_all = "snake_case")]
pub enum IllegalMove {
    #[error("the game is over")]
    GameOver,
    #[error("the point is off the board")]
    OffBoard,
    #[error("the point is occupied")]
    Occupied,
    #[error("suicide (forbidden point, Art. 19)")]
    Suicide,
    #[error("ko: immediate recapture")]
    Ko,
    #[error("superko: the position repeats (Art. 6)")]
    Superko,
}

impl IllegalMove {
    /// Short reason code: occupied, suicide, ko, superko, off_board, game_over.
    pub fn code(self) -> &'static str {
        match self {
            IllegalMove::GameOver => "game_over",
            IllegalMove::OffBoard => "off_board",
            IllegalMove::Occupied => "occupied",
            IllegalMove::Suicide => "suicide",
            IllegalMove::Ko => "ko",
            IllegalMove::Superko => "superko",
        }
    }
}

/// Zobrist hashes are already uniformly random: hash them by identity.
#[derive(Default, Clone, Copy)]
pub struct IdentityHasher(u64);

impl Hasher for IdentityHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

type HashHistory = HashSet<u64, BuildHasherDefault<IdentityHasher>>;

/// What a legal move did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Played {
    /// Opponent stones captured.
    pub captures: u32,
    /// Own stones removed by a suicide (only where suicide is allowed).
    pub suicided: u32,
    /// The game ended (second consecutive pass).
    pub ended: bool,
}

/// A game: the board, whose turn it is, the history needed by the ko rule, captures.
#[derive(Clone)]
pub struct Game {
    board: Board,
    ko_rule: KoRule,
    suicide: SuicideRule,
    to_move: Color,
    /// Simple ko: the point the given colour may not play on now.
    ko: Option<(Point, Color)>,
    history: HashHistory,
    moves: Vec<(Color, Move)>,
    /// Stones captured *by* Black and *by* White (prisoners taken).
    captures: [u32; 2],
    consecutive_passes: u32,
    over: bool,
}

impl fmt::Debug for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Game")
            .field("to_move", &self.to_move)
            .field("moves", &self.moves.len())
            .field("captures", &self.captures)
            .field("over", &self.over)
            .field("board", &self.board)
            .finish()
    }
}

impl Game {
    /// A new game on an empty board of `size`, Black to move.
    pub fn new(size: u8, ko_rule: KoRule, suicide: SuicideRule) -> Result<Game, crate::board::BadSize> {
        Ok(Game::from_board(Board::new(size)?, Color::Black, ko_rule, suicide))
    }

    /// A game starting from a set-up position (handicap stones, SGF AB/AW).
    pub fn from_board(board: Board, to_move: Color, ko_rule: KoRule, suicide: SuicideRule) -> Game {
        let mut g = Game {
            board,
            ko_rule,
            suicide,
            to_move,
            ko: None,
            history: HashHistory::with_capacity_and_hasher(512, Default::default()),
            moves: Vec::with_capacity(400),
            captures: [0, 0],
            consecutive_passes: 0,
            over: false,
        };
        g.history.insert(g.key(g.board.hash(), to_move));
        g
    }

    pub fn board(&self) -> &Board {
        &self.board
    }
    pub fn to_move(&self) -> Color {
        self.to_move
    }
    pub fn ko_rule(&self) -> KoRule {
        self.ko_rule
    }
    pub fn suicide_rule(&self) -> SuicideRule {
        self.suicide
    }
    pub fn moves(&self) -> &[(Color, Move)] {
        &self.moves
    }
    /// Stones captured by a colour (prisoners it holds).
    pub fn captures_by(&self, c: Color) -> u32 {
        self.captures[c as usize]
    }
    /// True after two consecutive passes (Art. 7).
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// The history key of a position: stones only (positional) or stones and side to move.
    #[inline]
    fn key(&self, board_hash: u64, to_move: Color) -> u64 {
        match (self.ko_rule, to_move) {
            (KoRule::Situational, Color::White) => board_hash ^ ZOBRIST_WHITE_TO_MOVE,
            _ => board_hash,
        }
    }

    /// Check a move for `c` without playing it.
    pub fn check(&self, c: Color, mv: Move) -> Result<(), IllegalMove> {
        match mv {
            Move::Pass => {
                if self.over {
                    Err(IllegalMove::GameOver)
                } else {
                    Ok(())
                }
            }
            Move::Play(p) => self.check_play(c, p).map(|_| ()),
        }
    }

    fn check_play(&self, c: Color, p: Point) -> Result<Placement, IllegalMove> {
        if self.over {
            return Err(IllegalMove::GameOver);
        }
        if !self.board.contains(p) {
            return Err(IllegalMove::OffBoard);
        }
        if self.board.get(p).is_some() {
            return Err(IllegalMove::Occupied);
        }
        if self.ko == Some((p, c)) {
            return Err(IllegalMove::Ko);
        }
        let pl = self.board.prepare(c, p);
        if pl.suicide && self.suicide == SuicideRule::Forbidden {
            return Err(IllegalMove::Suicide);
        }
        if self.ko_rule != KoRule::Simple && self.history.contains(&self.key(pl.hash_after, c.opponent())) {
            return Err(IllegalMove::Superko);
        }
        Ok(pl)
    }

    /// Play a move for the side to move.
    pub fn play(&mut self, mv: Move) -> Result<Played, IllegalMove> {
        self.play_as(self.to_move, mv)
    }

    /// Play a move for a given colour (SGF records may have one side move twice; the turn then
    /// passes to the other colour as usual).
    pub fn play_as(&mut self, c: Color, mv: Move) -> Result<Played, IllegalMove> {
        match mv {
            Move::Pass => {
                if self.over {
                    return Err(IllegalMove::GameOver);
                }
                self.moves.push((c, mv));
                self.ko = None;
                self.to_move = c.opponent();
                self.consecutive_passes += 1;
                if self.consecutive_passes >= 2 {
                    self.over = true;
                }
                if self.ko_rule != KoRule::Simple {
                    self.history.insert(self.key(self.board.hash(), self.to_move));
                }
                Ok(Played { captures: 0, suicided: 0, ended: self.over })
            }
            Move::Play(p) => {
                let pl = self.check_play(c, p)?;
                let removed = self.board.commit(c, p, &pl);
                let (captures, suicided) =
                    if removed >= 0 { (removed as u32, 0) } else { (0, removed.unsigned_abs()) };
                self.captures[c as usize] += captures;
                // a suicided chain counts as prisoners for the opponent
                self.captures[c.opponent() as usize] += suicided;
                self.ko = pl.ko_point.map(|_| {
                    // the captured single stone's point; it is barred to the opponent
                    let q = self.captured_single_point(&pl);
                    (q, c.opponent())
                });
                self.moves.push((c, mv));
                self.to_move = c.opponent();
                self.consecutive_passes = 0;
                if self.ko_rule != KoRule::Simple {
                    self.history.insert(self.key(self.board.hash(), self.to_move));
                }
                Ok(Played { captures, suicided, ended: false })
            }
        }
    }

    fn captured_single_point(&self, pl: &Placement) -> Point {
        let i = usize::from(pl.ko_point.expect("called only with a ko point"));
        let stride = usize::from(self.board.size()) + 2;
        Point { x: (i % stride - 1) as u8, y: (i / stride - 1) as u8 }
    }

    /// Resume play after two passes (Art. 21.1: the opponent disagrees with the end and plays on).
    pub fn resume(&mut self) {
        self.over = false;
        self.consecutive_passes = 0;
    }

    /// All legal moves for the side to move (points, then pass).
    pub fn legal_moves(&self) -> Vec<Move> {
        let c = self.to_move;
        let mut v: Vec<Move> =
            self.board.all_points().filter(|&p| self.check_play(c, p).is_ok()).map(Move::Play).collect();
        if !self.over {
            v.push(Move::Pass);
        }
        v
    }

    /// Whether placing `c` on `p` fills one of its own true single-point eyes (used by random
    /// playouts to reach a natural end).
    pub fn is_own_eye(&self, c: Color, p: Point) -> bool {
        if self.board.get(p).is_some() {
            return false;
        }
        self.board.adjacent(p).all(|q| self.board.get(q) == Some(c))
    }
}

/// A small deterministic generator (xorshift64*) for playouts and benchmarks; not for draws.
#[derive(Debug, Clone)]
pub struct Playout(u64);

impl Playout {
    pub fn new(seed: u64) -> Playout {
        // SplitMix64 of the seed: distinct seeds give distinct (and never zero) states.
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        Playout((z ^ (z >> 31)).max(1))
    }
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() >> 32) as usize * n) >> 32
    }
}

/// A random legal game: each side plays a random legal point that does not fill its own eye,
/// passing when none is left, until two passes or `max_moves`. Deterministic for a seed.
pub fn random_game(size: u8, ko_rule: KoRule, seed: u64, max_moves: usize) -> Vec<(Color, Move)> {
    let mut g = Game::new(size, ko_rule, SuicideRule::Forbidden).expect("valid size");
    let mut rng = Playout::new(seed);
    let mut empties: Vec<Point> = g.board().all_points().collect();
    while !g.is_over() && g.moves().len() < max_moves {
        let c = g.to_move();
        let mut played = false;
        // try random empty points until one is legal and not an own eye
        empties.retain(|&p| g.board().get(p).is_none());
        let mut candidates = empties.clone();
        while !candidates.is_empty() {
            let k = rng.below(candidates.len());
            let p = candidates.swap_remove(k);
            if g.is_own_eye(c, p) {
                continue;
            }
            if g.play(Move::Play(p)).is_ok() {
                played = true;
                break;
            }
        }
        if !played {
            g.play(Move::Pass).expect("pass is legal while the game runs");
        }
        if g.moves().len().is_multiple_of(16) {
            empties = g.board().all_points().filter(|&p| g.board().get(p).is_none()).collect();
        }
    }
    g.moves().to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Point {
        Point::from_sgf(s).unwrap()
    }

    fn game(rows: &str, to_move: Color, ko: KoRule) -> Game {
        Game::from_board(Board::from_ascii(rows).unwrap(), to_move, ko, SuicideRule::Forbidden)
    }

    #[test]
    fn occupied_and_off_board_refused_unchanged() {
        let mut g = Game::new(9, KoRule::Situational, SuicideRule::Forbidden).unwrap();
        g.play(Move::Play(p("cc"))).unwrap();
        let before = g.board().clone();
        assert_eq!(g.play(Move::Play(p("cc"))), Err(IllegalMove::Occupied));
        assert_eq!(g.play(Move::Play(Point::new(9, 0))), Err(IllegalMove::OffBoard));
        assert_eq!(g.board(), &before);
        assert_eq!(g.to_move(), Color::White);
        assert_eq!(g.moves().len(), 1);
    }

    #[test]
    fn single_stone_suicide_forbidden_and_allowed() {
        let rows = ".X...
                    X....
                    .....
                    .....
                    .....";
        let mut g = game(rows, Color::White, KoRule::Situational);
        assert_eq!(g.play(Move::Play(p("aa"))), Err(IllegalMove::Suicide));
        let mut g = Game::from_board(
            Board::from_ascii(rows).unwrap(),
            Color::White,
            KoRule::Situational,
            SuicideRule::Allowed,
        );
        let r = g.play(Move::Play(p("aa"))).unwrap();
        assert_eq!(r.suicided, 1);
        assert_eq!(g.board().get(p("aa")), None);
        assert_eq!(g.captures_by(Color::Black), 1);
    }

    #[test]
    fn multi_stone_suicide() {
        // White's two stones at ba, ca have one liberty at aa... White playing aa fills it.
        let rows = ".OOX.
                    XXXX.
                    .....
                    .....
                    .....";
        let mut g = game(rows, Color::White, KoRule::Situational);
        assert_eq!(g.play(Move::Play(p("aa"))), Err(IllegalMove::Suicide));
        let mut g = Game::from_board(
            Board::from_ascii(rows).unwrap(),
            Color::White,
            KoRule::Situational,
            SuicideRule::Allowed,
        );
        let r = g.play(Move::Play(p("aa"))).unwrap();
        assert_eq!(r.suicided, 3);
        assert_eq!(g.board().stone_count(Color::White), 0);
        g.board().check_invariants().unwrap();
    }

    /// Art. 5: after a move both sides are without liberties: the opponent's stones are removed.
    #[test]
    fn both_without_liberties_captures_opponent() {
        let rows = ".OX..
                    OX...
                    X....
                    .....
                    .....";
        let mut g = game(rows, Color::Black, KoRule::Situational);
        let r = g.play(Move::Play(p("aa"))).unwrap();
        assert_eq!(r.captures, 2, "both white stones are captured");
        assert_eq!(g.board().get(p("aa")), Some(Color::Black));
        g.board().check_invariants().unwrap();
    }

    #[test]
    fn simple_ko_and_retake_after_threat() {
        let rows = ".XO..
                    X.XO.
                    .XO..
                    .....
                    .....";
        for rule in [KoRule::Simple, KoRule::Positional, KoRule::Situational] {
            let mut g = game(rows, Color::White, rule);
            let r = g.play(Move::Play(p("bb"))).unwrap();
            assert_eq!(r.captures, 1);
            let before = g.board().clone();
            assert_eq!(g.play(Move::Play(p("cb"))), Err(IllegalMove::Ko), "{rule:?}");
            assert_eq!(g.board(), &before);
            // threat and answer, then the retake is legal
            g.play(Move::Play(p("ee"))).unwrap();
            g.play(Move::Play(p("ed"))).unwrap();
            g.play(Move::Play(p("cb"))).unwrap();
        }
    }

    /// Snapback (倒扑): Black throws in, White captures one stone, Black retakes the same point
    /// and captures the whole white group. Neither retake is a ko.
    #[test]
    fn snapback_is_legal() {
        let rows = ".OXO.OO
                    OOXOO.O
                    OXXXXOO
                    XXXXXXO
                    OOX.XXO
                    .OXX.XO
                    .OXX..X";
        for rule in [KoRule::Simple, KoRule::Positional, KoRule::Situational] {
            let mut g = game(rows, Color::Black, rule);
            assert_eq!(g.play(Move::Play(p("af"))).unwrap().captures, 0, "throw-in");
            assert_eq!(g.play(Move::Play(p("ag"))).unwrap().captures, 1, "White takes one");
            let r = g.play(Move::Play(p("af"))).unwrap();
            assert!(r.captures >= 2, "Black snaps back: {} stones", r.captures);
            g.board().check_invariants().unwrap();
        }
    }

    /// A repetition that positional superko forbids and situational superko allows: the board
    /// after White's last move occurred before, but with White (not Black) to move. Found by a
    /// search over random 5×5 games; checked here under all three rules.
    #[test]
    fn positional_but_not_situational_repetition() {
        let seq = "B[eb] W[] B[ac] W[] B[db] W[cb] B[ed] W[ba] B[be] W[aa] B[bc] W[] B[dc] W[bd] \
                   B[ee] W[da] B[bb] W[ea] B[ca]";
        let moves: Vec<(Color, Move)> = seq
            .split_whitespace()
            .map(|t| {
                let c = if t.starts_with('B') { Color::Black } else { Color::White };
                let v = &t[2..t.len() - 1];
                (c, if v.is_empty() { Move::Pass } else { Move::Play(p(v)) })
            })
            .collect();
        let last = Move::Play(p("da"));
        for (rule, expected) in [
            (KoRule::Situational, Ok(())),
            (KoRule::Simple, Ok(())),
            (KoRule::Positional, Err(IllegalMove::Superko)),
        ] {
            let mut g = Game::new(5, rule, SuicideRule::Forbidden).unwrap();
            for &(c, m) in &moves {
                g.play_as(c, m).unwrap();
            }
            let before = g.board().clone();
            assert_eq!(g.play_as(Color::White, last).map(|_| ()), expected, "{rule:?}");
            if expected.is_err() {
                assert_eq!(g.board(), &before, "a refused move changes nothing");
                assert_eq!(g.to_move(), Color::White);
            }
        }
    }

    /// Situational superko refuses a move that is not the simple-ko retake but recreates a
    /// position the opponent faced before (Art. 6): found by a search over random 5×5 games.
    /// Positional superko refuses it too; simple ko allows it.
    #[test]
    fn superko_refuses_a_repetition_that_simple_ko_allows() {
        let seq = "B[bc] W[ac] B[ae] W[be] B[de] W[dc] B[bd] W[cb] B[ab] W[aa] B[] W[ad] B[ae]";
        let moves: Vec<(Color, Move)> = seq
            .split_whitespace()
            .map(|t| {
                let c = if t.starts_with('B') { Color::Black } else { Color::White };
                let v = &t[2..t.len() - 1];
                (c, if v.is_empty() { Move::Pass } else { Move::Play(p(v)) })
            })
            .collect();
        for (rule, expected) in [
            (KoRule::Situational, Err(IllegalMove::Superko)),
            (KoRule::Positional, Err(IllegalMove::Superko)),
            (KoRule::Simple, Ok(())),
        ] {
            let mut g = Game::new(5, rule, SuicideRule::Forbidden).unwrap();
            for &(c, m) in &moves {
                g.play_as(c, m).unwrap();
            }
            let before = g.board().clone();
            assert_eq!(g.play_as(Color::White, Move::Play(p("ac"))).map(|_| ()), expected, "{rule:?}");
            if expected.is_err() {
                assert_eq!(g.board(), &before, "a refused move changes nothing");
            }
        }
    }

    /// A pass clears the simple-ko point: after a pass and a move elsewhere the ko may be
    /// retaken (the position is new), and then the other side's immediate retake is the ko.
    #[test]
    fn ko_retake_after_a_pass_and_the_next_immediate_retake() {
        let rows = ".XO..
                    X.XO.
                    .XO..
                    .....
                    .....";
        let mut g = game(rows, Color::White, KoRule::Situational);
        g.play(Move::Play(p("bb"))).unwrap(); // White takes the ko
        g.play(Move::Pass).unwrap(); // Black passes
        g.play(Move::Play(p("ee"))).unwrap(); // White plays elsewhere
                                              // Black retakes: the position is new (White's stone at ee), so it is legal
        g.play(Move::Play(p("cb"))).unwrap();
        // White retakes at once: simple-ko point
        assert_eq!(g.play(Move::Play(p("bb"))), Err(IllegalMove::Ko));
        let mut s = game(rows, Color::White, KoRule::Simple);
        s.play(Move::Play(p("bb"))).unwrap();
        s.play(Move::Pass).unwrap();
        s.play(Move::Pass).unwrap_or_else(|e| panic!("{e}"));
        assert!(s.is_over());
    }

    #[test]
    fn two_passes_end_the_game() {
        let mut g = Game::new(9, KoRule::Situational, SuicideRule::Forbidden).unwrap();
        g.play(Move::Pass).unwrap();
        let r = g.play(Move::Pass).unwrap();
        assert!(r.ended);
        assert!(g.is_over());
        assert_eq!(g.play(Move::Play(p("ee"))), Err(IllegalMove::GameOver));
        g.resume();
        g.play(Move::Play(p("ee"))).unwrap();
    }

    #[test]
    fn random_games_keep_invariants() {
        for seed in 0..20 {
            let moves = random_game(9, KoRule::Situational, seed, 400);
            let mut g = Game::new(9, KoRule::Situational, SuicideRule::Forbidden).unwrap();
            for (c, m) in moves {
                g.play_as(c, m).unwrap();
            }
            g.board().check_invariants().unwrap();
        }
    }

    mod props {
        use super::super::*;
        use proptest::prelude::*;

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(48))]

            /// The incremental Zobrist hash equals a full recompute; stones are conserved
            /// (placed = on board + captured); no chain is left without liberties after a legal
            /// move (suicide forbidden).
            #[test]
            fn invariants_hold_along_random_games(seed in any::<u64>(), size in 5u8..=19, rule in 0u8..3) {
                let ko = [KoRule::Simple, KoRule::Positional, KoRule::Situational][usize::from(rule)];
                let moves = random_game(size, ko, seed, 600);
                let mut g = Game::new(size, ko, SuicideRule::Forbidden).unwrap();
                let mut placed = [0u32; 2];
                for (c, m) in moves {
                    g.play_as(c, m).unwrap();
                    if let Move::Play(q) = m {
                        placed[c as usize] += 1;
                        prop_assert!(g.board().liberties(q) > 0);
                    }
                    prop_assert_eq!(g.board().hash(), g.board().recompute_hash());
                    for col in [Color::Black, Color::White] {
                        prop_assert_eq!(
                            placed[col as usize],
                            g.board().stone_count(col) + g.captures_by(col.opponent())
                        );
                    }
                }
                g.board().check_invariants().map_err(TestCaseError::fail)?;
                for q in g.board().all_points() {
                    if g.board().get(q).is_some() {
                        prop_assert!(g.board().liberties(q) > 0, "chain at {:?} without liberty", q);
                    }
                }
            }

            /// A refused move leaves the game exactly as it was.
            #[test]
            fn refused_moves_change_nothing(seed in any::<u64>()) {
                let moves = random_game(9, KoRule::Situational, seed, 120);
                let mut g = Game::new(9, KoRule::Situational, SuicideRule::Forbidden).unwrap();
                for (c, m) in moves {
                    g.play_as(c, m).unwrap();
                }
                let c = g.to_move();
                for q in g.board().all_points().collect::<Vec<_>>() {
                    let before = (g.board().clone(), g.moves().len(), g.captures_by(c), g.to_move());
                    if g.play_as(c, Move::Play(q)).is_err() {
                        prop_assert!(before.0 == *g.board());
                        prop_assert_eq!(before.1, g.moves().len());
                        prop_assert_eq!(before.2, g.captures_by(c));
                        prop_assert_eq!(before.3, g.to_move());
                    } else {
                        break;
                    }
                }
            }

            /// Allowed suicide: stones are still conserved, with the suicided chain counted as
            /// the opponent's prisoners.
            #[test]
            fn suicide_allowed_conserves_stones(seed in any::<u64>()) {
                let mut g = Game::new(7, KoRule::Situational, SuicideRule::Allowed).unwrap();
                let mut rng = Playout::new(seed);
                let mut placed = [0u32; 2];
                for _ in 0..200 {
                    let c = g.to_move();
                    let q = Point::new(rng.below(7) as u8, rng.below(7) as u8);
                    if g.play_as(c, Move::Play(q)).is_ok() {
                        placed[c as usize] += 1;
                    } else {
                        g.play_as(c, Move::Pass).ok();
                        g.resume();
                    }
                    for col in [Color::Black, Color::White] {
                        prop_assert_eq!(placed[col as usize], g.board().stone_count(col) + g.captures_by(col.opponent()));
                    }
                }
                g.board().check_invariants().map_err(TestCaseError::fail)?;
            }
        }
    }
}
