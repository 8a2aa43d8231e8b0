//! SGF records: reading FF\[4\] (and FF\[3\]) Go records, replaying them under a rule set, and
//! writing games back as FF\[4\].
//!
//! # Reading
//! [`parse`] reads the first game tree of a file into a [`Record`]: board size (SZ, default 19,
//! 5 to 25), komi (KM), handicap (HA), setup stones (AB/AW/AE, in the root and in later nodes),
//! the player to move (PL), the moves of the main line (the first child at every node), the result
//! (RE, typed as [`GameResult`]), the game information (PB/PW/BR/WR/DT/EV/RU…) and the territory
//! markup (TB/TW) of the end, which [`replay`] uses to infer dead stones.
//!
//! The tree and the property values (points, compressed point lists, moves, texts) are parsed by
//! the `sgf-parse` crate. Its errors carry no position, so a light scanner ([`scan`]) walks the
//! text first, mirroring sgf-parse's grammar: it reports malformed files with a line and column
//! (`LINE:COL: message`) and gives every main-line property its position, so that a bad value
//! later on (a size out of range, a point that is not a point) is reported where it stands. The
//! scanner is a little stricter than sgf-parse where sgf-parse would silently misread a damaged
//! file: a property identifier must be letters (sgf-parse keeps the capitals of whatever stands
//! before a `[`, so `C[a [1k]] B[aa]` would turn the comment's tail into a move).
//!
//! Leniencies: text before the first `(` (a byte-order mark, mail headers) is skipped; text after
//! the last game tree is ignored with a warning; only the first game tree of a collection is read
//! (a warning says how many there were); a node that follows variations is accepted as sgf-parse
//! does. Files that are not UTF-8 (old Chinese records in GB2312/GBK) are decoded lossily by
//! [`parse_bytes`], with a warning: the moves survive, names may not.
//!
//! ## Passes
//! An empty value (`B[]`) is a pass. sgf-parse reads `tt` as the point (19, 19); old (FF\[3\])
//! records write a pass as `tt`, so on boards up to 19×19, where that point does not exist, `tt`
//! is read as a pass; on larger boards it is the point T20 of a 20×20 or 21×21 board.
//!
//! ## Komi
//! KM is komi in points (FF\[4\]); [`Komi::quarters`] holds it in quarter stones, exactly: ¼ stone
//! = ½ point, so KM\[7.5\] is 15 quarters and KM\[6.5\] 13. Chinese servers sometimes write komi
//! in stones (KM\[3.75\]) or in hundredths of a stone (KM\[375\]). The heuristic, in this order:
//! 1. an integer of 100 or more is hundredths of a stone (KM\[375\] = 3¾ stones, KM\[350\] = 3½);
//! 2. a multiple of 0.5 is points (KM\[7.5\], KM\[7\], KM\[0.5\], KM\[-5\]);
//! 3. a multiple of 0.25 that is not one of 0.5 is stones (KM\[3.75\] = 3¾ stones = 7.5 points,
//!    KM\[2.75\] = the 1988 komi);
//! 4. anything else is an error.
//!
//! The heuristic cannot see a komi of 3½ stones written as KM\[3.5\]: that reads as 3.5 points.
//! [`Komi::unit`] says which reading was taken, so a report can show it. The same rule reads the
//! margins of RE (RE\[B+0.75\] is ¾ stone = 1.5 points).
//!
//! # Replaying
//! [`replay`] plays the main line under a [`RuleSet`] (ko rule, suicide rule) with an optional
//! komi override and dead stones, and reports the moves played, the first illegal move (the
//! replay stops there), captures, the final board, the area count, the result and whether it
//! agrees with RE\[\]. Moves are played with [`Game::play_as`], so a record in which one colour
//! moves twice is replayed as written (and noted). A move after two passes resumes the game
//! (Art. 21.1). Setup in a later node restarts the superko history from the set-up position.
//!
//! # Writing
//! [`write`] writes a [`Record`] as FF\[4\] text (KM in points, passes as `B[]`); reading it back
//! gives the same game.

use crate::board::{Board, Color, Point};
use crate::count::{self, AreaCount};
use crate::game::{Game, IllegalMove, Move};
use crate::outcome::{self, Outcome, Scoring};
use crate::ruleset::RuleSet;
use serde::{Deserialize, Serialize};
use sgf_parse::go::{self, Prop};
use sgf_parse::SgfNode;
use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;
use std::str::FromStr;

// ---------------------------------------------------------------------------------------------
// Positions and errors
// ---------------------------------------------------------------------------------------------

/// A position in the text of a file: byte offset, and line and column counted from 1 (the column
/// in characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pos {
    pub offset: usize,
    pub line: u32,
    pub col: u32,
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

/// A file that cannot be read as a Go record, with where and why. Displays as `LINE:COL: message`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("{pos}: {message}")]
pub struct SgfError {
    pub pos: Pos,
    pub message: String,
}

/// Something in a record worth knowing that does not stop it from being read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Warning {
    pub pos: Option<Pos>,
    pub message: String,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.pos {
            Some(p) => write!(f, "{p}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

/// Turns byte offsets into line and column. Queries in increasing order are cheap (the column
/// count continues from the previous query), so positions for every move of a long one-line file
/// cost linear time.
struct Locator<'a> {
    text: &'a str,
    last: Pos,
}

impl<'a> Locator<'a> {
    fn new(text: &'a str) -> Self {
        Locator { text, last: Pos { offset: 0, line: 1, col: 1 } }
    }

    fn pos(&mut self, offset: usize) -> Pos {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        if offset < self.last.offset {
            self.last = Pos { offset: 0, line: 1, col: 1 };
        }
        let mut p = self.last;
        for ch in self.text[p.offset..offset].chars() {
            if ch == '\n' {
                p.line += 1;
                p.col = 1;
            } else {
                p.col += 1;
            }
        }
        p.offset = offset;
        self.last = p;
        p
    }

    fn error(&mut self, offset: usize, message: impl Into<String>) -> SgfError {
        SgfError { pos: self.pos(offset), message: message.into() }
    }
}

// ---------------------------------------------------------------------------------------------
// The scanner: structure and positions
// ---------------------------------------------------------------------------------------------

/// A property as the scanner saw it (main line of the first game tree only).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawProp {
    /// The identifier as sgf-parse names it: FF\[3\] lower-case letters dropped ("CoPyright" → "CP").
    pub ident: String,
    /// Byte offset of the identifier.
    pub at: usize,
    /// The values, unescaped (`\]` → `]`), each with the byte offset of its `[`.
    pub values: Vec<(String, usize)>,
}

/// A node of the main line as the scanner saw it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RawNode {
    /// Byte offset of the node's `;`.
    pub at: usize,
    pub props: Vec<RawProp>,
}

impl RawNode {
    fn find(&self, ident: &str) -> Option<&RawProp> {
        self.props.iter().find(|p| p.ident == ident)
    }
}

/// What [`scan`] found: where the first game tree lies, its main line, how many game trees there
/// are, and warnings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scan {
    /// Byte range of the first game tree, from its `(` to just after its `)`.
    pub first_tree: std::ops::Range<usize>,
    /// The nodes of the first game tree's main line (the nodes before its first `)`).
    pub main_line: Vec<RawNode>,
    pub game_trees: usize,
    pub warnings: Vec<(Option<usize>, String)>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Prev {
    Nothing,
    Open,
    Close,
    Node,
}

/// Check the structure of an SGF text and find its main line, with positions. Errors name the
/// line and column of the fault. Never panics.
pub fn scan(text: &str) -> Result<Scan, SgfError> {
    let mut loc = Locator::new(text);
    let b = text.as_bytes();
    let n = b.len();
    let mut warnings = Vec::new();
    let Some(start) = b.iter().position(|&c| c == b'(') else {
        return Err(match text.char_indices().find(|(_, c)| !c.is_whitespace() && *c != '\u{feff}') {
            None => loc.error(0, "the file is empty: no SGF game tree"),
            Some((i, _)) => loc.error(i, "not an SGF file: no game tree '(;' found"),
        });
    };
    if text[..start].chars().any(|c| !c.is_whitespace() && c != '\u{feff}') {
        warnings.push((Some(0), format!("{start} bytes before the first '(' were ignored")));
    }
    let mut i = start;
    let mut depth = 0usize;
    let mut opens: Vec<usize> = Vec::new();
    let mut prev = Prev::Nothing;
    let mut game_trees = 0usize;
    let mut first_end: Option<usize> = None;
    let mut main_open = true;
    let mut main_line: Vec<RawNode> = Vec::new();
    loop {
        while i < n && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if i >= n {
            break;
        }
        match b[i] {
            b'(' => {
                if prev == Prev::Open {
                    return Err(
                        loc.error(i, "'(' directly after '(': a game tree must start with a node ';'")
                    );
                }
                if depth == 0 {
                    game_trees += 1;
                }
                depth += 1;
                opens.push(i);
                prev = Prev::Open;
                i += 1;
            }
            b')' => {
                if depth == 0 {
                    return Err(loc.error(i, "')' without a matching '('"));
                }
                if prev == Prev::Open {
                    return Err(loc.error(i, "empty game tree '()': a game tree needs at least one node"));
                }
                depth -= 1;
                opens.pop();
                prev = Prev::Close;
                i += 1;
                if first_end.is_none() {
                    main_open = false;
                    if depth == 0 {
                        first_end = Some(i);
                    }
                }
                if depth == 0 {
                    // Between game trees: another tree, the end, or trailing text to ignore.
                    let mut j = i;
                    while j < n && b[j].is_ascii_whitespace() {
                        j += 1;
                    }
                    if j < n && b[j] != b'(' && b[j] != b')' {
                        warnings.push((Some(j), "text after the last game tree was ignored".to_string()));
                        break;
                    }
                }
            }
            b';' => {
                prev = Prev::Node;
                if main_open {
                    main_line.push(RawNode { at: i, props: Vec::new() });
                }
                i += 1;
            }
            c if c.is_ascii_alphabetic() => {
                let id_start = i;
                while i < n && b[i].is_ascii_alphabetic() {
                    i += 1;
                }
                let ident_raw = &text[id_start..i];
                while i < n && b[i].is_ascii_whitespace() {
                    i += 1;
                }
                if i >= n {
                    return Err(
                        loc.error(id_start, format!("end of file after property {ident_raw}: no value"))
                    );
                }
                if b[i] != b'[' {
                    let ch = text[i..].chars().next().unwrap_or('?');
                    return Err(loc.error(
                        i,
                        format!("unexpected {ch:?} after property identifier {ident_raw} (expected '[')"),
                    ));
                }
                if prev != Prev::Node {
                    return Err(loc.error(
                        id_start,
                        format!("property {ident_raw} outside a node (a ';' is missing before it)"),
                    ));
                }
                let mut values = Vec::new();
                loop {
                    while i < n && b[i].is_ascii_whitespace() {
                        i += 1;
                    }
                    if i >= n || b[i] != b'[' {
                        break;
                    }
                    let open = i;
                    i += 1;
                    let mut value: Vec<u8> = Vec::new();
                    let mut closed = false;
                    while i < n {
                        match b[i] {
                            // a soft line break (backslash, newline) disappears
                            b'\\' if i + 1 < n && (b[i + 1] == b'\n' || b[i + 1] == b'\r') => {
                                i += 2;
                                if i < n && (b[i] == b'\n' || b[i] == b'\r') && b[i] != b[i - 1] {
                                    i += 1;
                                }
                            }
                            b'\\' if i + 1 < n => {
                                value.push(b[i + 1]);
                                i += 2;
                            }
                            b']' => {
                                closed = true;
                                i += 1;
                                break;
                            }
                            c => {
                                value.push(c);
                                i += 1;
                            }
                        }
                    }
                    if !closed {
                        return Err(loc.error(
                            open,
                            format!(
                                "the value of {ident_raw} is never closed: no ']' before the end of the file"
                            ),
                        ));
                    }
                    values.push((String::from_utf8_lossy(&value).into_owned(), open));
                }
                if main_open {
                    let ident = if ident_raw.bytes().all(|c| c.is_ascii_uppercase()) {
                        ident_raw.to_string()
                    } else {
                        ident_raw.chars().filter(|c| c.is_ascii_uppercase()).collect()
                    };
                    if let Some(node) = main_line.last_mut() {
                        node.props.push(RawProp { ident, at: id_start, values });
                    }
                }
            }
            b']' => {
                return Err(loc.error(i, "unexpected ']' (an unescaped ']' inside a property value?)"));
            }
            b'[' => return Err(loc.error(i, "property value without a property identifier")),
            _ => {
                let ch = text[i..].chars().next().unwrap_or('?');
                let after_value = text[..i].trim_end().ends_with(']');
                let hint = if after_value {
                    " after a property value (an unescaped ']' inside the value?)"
                } else {
                    ""
                };
                return Err(loc.error(i, format!("unexpected character {ch:?}{hint}")));
            }
        }
    }
    if depth > 0 {
        let open = opens.last().copied().unwrap_or(start);
        let p = loc.pos(open);
        return Err(loc.error(
            n,
            format!("end of file inside a game tree: the '(' at {p} is never closed (truncated file?)"),
        ));
    }
    let end = first_end.unwrap_or(n);
    if game_trees > 1 {
        warnings.push((None, format!("the file holds {game_trees} game trees; only the first was read")));
    }
    Ok(Scan { first_tree: start..end, main_line, game_trees, warnings })
}

// ---------------------------------------------------------------------------------------------
// Values: komi, results
// ---------------------------------------------------------------------------------------------

/// Parse a decimal number ("7.5", "-0.25", "375", "6,5") exactly into hundredths. `None` when it
/// is not a number, has more than two significant decimals, or is out of range.
fn parse_hundredths(text: &str) -> Option<i64> {
    let t = text.trim();
    let (neg, t) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let (whole, frac) = match t.find(['.', ',']) {
        Some(k) => (&t[..k], &t[k + 1..]),
        None => (t, ""),
    };
    if whole.is_empty() && frac.is_empty() {
        return None;
    }
    if !whole.bytes().all(|c| c.is_ascii_digit()) || !frac.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let frac = frac.trim_end_matches('0');
    if frac.len() > 2 || whole.len() > 12 {
        return None;
    }
    let w: i64 = if whole.is_empty() { 0 } else { whole.parse().ok()? };
    let f: i64 = match frac.len() {
        0 => 0,
        1 => frac.parse::<i64>().ok()? * 10,
        _ => frac.parse().ok()?,
    };
    let v = w * 100 + f;
    Some(if neg { -v } else { v })
}

/// How a komi value was written in the record (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KomiUnit {
    /// Points, as FF\[4\] says (KM\[7.5\]).
    Points,
    /// Stones, as some Chinese servers write (KM\[3.75\]).
    Stones,
    /// Hundredths of a stone (KM\[375\]).
    HundredthsOfStones,
}

/// Komi as read from a record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Komi {
    /// Komi in quarter stones (= half points): 15 for 7.5 points.
    pub quarters: i32,
    pub unit: KomiUnit,
}

impl Komi {
    /// Read a KM value with the heuristic of the module documentation.
    pub fn from_km(text: &str) -> Result<Komi, String> {
        let h = parse_hundredths(text).ok_or_else(|| format!("KM[{text}] is not a number"))?;
        let (quarters, unit) = if h % 100 == 0 && h.abs() >= 100 * 100 {
            let v = h / 100;
            if v % 25 != 0 {
                return Err(format!(
                    "KM[{text}] is out of range (read as hundredths of a stone, it is not a multiple of ¼)"
                ));
            }
            (v / 25, KomiUnit::HundredthsOfStones)
        } else if h % 50 == 0 {
            (h / 50, KomiUnit::Points)
        } else if h % 25 == 0 {
            (h / 25, KomiUnit::Stones)
        } else {
            return Err(format!("KM[{text}] is not a multiple of ½ point (nor of ¼ stone)"));
        };
        if quarters.abs() > 4 * 50 {
            return Err(format!("KM[{text}] is out of range (more than 50 stones)"));
        }
        Ok(Komi { quarters: quarters as i32, unit })
    }

    /// Komi in points as SGF writes it: "7.5", "0", "-3".
    pub fn points_text(&self) -> String {
        signed_half_points(self.quarters)
    }
}

fn signed_half_points(h: i32) -> String {
    if h < 0 {
        format!("-{}", outcome::half_points_text(h.unsigned_abs()))
    } else {
        outcome::half_points_text(h as u32)
    }
}

/// Read a margin written in points (or, when it is not a multiple of ½ point but is one of ¼,
/// in stones) into half points.
fn margin_halves(text: &str) -> Option<u32> {
    let h = parse_hundredths(text)?;
    if h < 0 {
        return None;
    }
    let halves = if h % 50 == 0 {
        h / 50
    } else if h % 25 == 0 {
        h / 25
    } else {
        return None;
    };
    u32::try_from(halves).ok()
}

/// How a game was won, as RE\[\] says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "by")]
pub enum WinBy {
    /// By counting, with the margin in half points (= quarter stones): RE\[B+3.5\] is 7.
    Score { margin_halves: u32 },
    /// RE\[B+R\] (中盘胜).
    Resignation,
    /// RE\[B+T\] (超时胜).
    Time,
    /// RE\[B+F\] (forfeit).
    Forfeit,
    /// RE\[B+\]: a win with no reason or margin given.
    Unspecified,
}

/// The result of a game as recorded in RE\[\].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum GameResult {
    Win {
        winner: Color,
        by: WinBy,
    },
    /// RE\[0\], RE\[Draw\], RE\[Jigo\] (和棋).
    Draw,
    /// RE\[Void\]: no result (无胜负).
    Void,
    /// RE\[?\]: unknown.
    Unknown,
}

impl GameResult {
    /// True for a result decided by counting (a scored win or a draw).
    pub fn is_counted(&self) -> bool {
        matches!(
            self,
            GameResult::Draw | GameResult::Win { by: WinBy::Score { .. } | WinBy::Unspecified, .. }
        )
    }
}

impl fmt::Display for GameResult {
    /// The SGF RE value: "B+3.5", "W+R", "B+T", "B+F", "B+", "0", "Void", "?".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameResult::Win { winner, by } => {
                let c = winner.letter();
                match by {
                    WinBy::Score { margin_halves } => {
                        write!(f, "{c}+{}", outcome::half_points_text(*margin_halves))
                    }
                    WinBy::Resignation => write!(f, "{c}+R"),
                    WinBy::Time => write!(f, "{c}+T"),
                    WinBy::Forfeit => write!(f, "{c}+F"),
                    WinBy::Unspecified => write!(f, "{c}+"),
                }
            }
            GameResult::Draw => f.write_str("0"),
            GameResult::Void => f.write_str("Void"),
            GameResult::Unknown => f.write_str("?"),
        }
    }
}

impl FromStr for GameResult {
    type Err = String;

    /// Reads the SGF forms (B+R, B+Resign, W+T, W+Time, B+F, B+Forfeit, B+3.5, B+, 0, Draw, Jigo,
    /// Void, ?) case-insensitively, and the common Chinese forms (黑中盘胜, 白超时胜, 黑胜3又3/4子,
    /// 白胜7.5目, 黑胜, 和棋, 无胜负).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        let bad = || format!("RE[{s}] is not a result this reader knows");
        match t.to_ascii_lowercase().as_str() {
            "0" | "draw" | "jigo" | "和棋" | "和" => return Ok(GameResult::Draw),
            "void" | "无胜负" => return Ok(GameResult::Void),
            "?" | "unknown" => return Ok(GameResult::Unknown),
            _ => {}
        }
        if let Some((winner, rest)) = t
            .strip_prefix('黑')
            .map(|r| (Color::Black, r))
            .or_else(|| t.strip_prefix('白').map(|r| (Color::White, r)))
        {
            let rest = rest.trim();
            let by = match rest {
                "胜" => WinBy::Unspecified,
                "中盘胜" => WinBy::Resignation,
                "超时胜" => WinBy::Time,
                "不战胜" | "弃权胜" => WinBy::Forfeit,
                _ => {
                    let r = rest.strip_prefix('胜').ok_or_else(bad)?.trim();
                    if let Some(stones) = r.strip_suffix('子') {
                        let q = outcome::parse_quarters(&stones.replace('又', " ")).map_err(|_| bad())?;
                        WinBy::Score { margin_halves: u32::try_from(q).map_err(|_| bad())? }
                    } else if let Some(points) = r.strip_suffix('目').or_else(|| r.strip_suffix('点')) {
                        let h =
                            parse_hundredths(points).filter(|h| *h >= 0 && h % 50 == 0).ok_or_else(bad)?;
                        WinBy::Score { margin_halves: u32::try_from(h / 50).map_err(|_| bad())? }
                    } else {
                        return Err(bad());
                    }
                }
            };
            return Ok(GameResult::Win { winner, by });
        }
        let mut chars = t.chars();
        let winner = match chars.next().map(|c| c.to_ascii_uppercase()) {
            Some('B') => Color::Black,
            Some('W') => Color::White,
            _ => return Err(bad()),
        };
        let rest = chars.as_str().trim_start();
        let rest = rest.strip_prefix('+').ok_or_else(bad)?.trim();
        let by = match rest.to_ascii_lowercase().as_str() {
            "" => WinBy::Unspecified,
            "r" | "resign" | "resignation" => WinBy::Resignation,
            "t" | "time" => WinBy::Time,
            "f" | "forfeit" => WinBy::Forfeit,
            _ => WinBy::Score { margin_halves: margin_halves(rest).ok_or_else(bad)? },
        };
        Ok(GameResult::Win { winner, by })
    }
}

// ---------------------------------------------------------------------------------------------
// The record
// ---------------------------------------------------------------------------------------------

/// Stones set up on the board (AB, AW) or removed from it (AE). Points are sorted.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Setup {
    pub black: Vec<Point>,
    pub white: Vec<Point>,
    pub empty: Vec<Point>,
}

impl Setup {
    pub fn is_empty(&self) -> bool {
        self.black.is_empty() && self.white.is_empty() && self.empty.is_empty()
    }

    /// Apply to a board: AE first, then AB and AW.
    pub fn apply(&self, board: &mut Board) {
        for &p in &self.empty {
            board.clear(p);
        }
        for &p in &self.black {
            board.setup(Color::Black, p);
        }
        for &p in &self.white {
            board.setup(Color::White, p);
        }
    }
}

/// One step of the main line after the root's setup.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Action {
    /// Setup in a later node (AB/AW/AE), with PL if the node has one.
    Setup { setup: Setup, to_move: Option<Color> },
    /// A move (B or W); `tt` on boards up to 19×19 and an empty value are passes.
    Move { color: Color, mv: Move },
}

/// A step with the position of its property in the file, when read from one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    pub action: Action,
    pub at: Option<Pos>,
}

/// Game information from the root node.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct GameInfo {
    /// PB, PW
    pub black: Option<String>,
    pub white: Option<String>,
    /// BR, WR
    pub black_rank: Option<String>,
    pub white_rank: Option<String>,
    /// DT
    pub date: Option<String>,
    /// EV
    pub event: Option<String>,
    /// RO
    pub round: Option<String>,
    /// PC
    pub place: Option<String>,
    /// RU (as written: "Chinese", "Japanese", …)
    pub rules: Option<String>,
    /// GN
    pub name: Option<String>,
    /// AP (application that wrote the file)
    pub application: Option<String>,
}

/// The territory markup of the end of a record (TB/TW).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Territory {
    pub black: Vec<Point>,
    pub white: Vec<Point>,
}

/// A Go record: the first game tree's root information and main line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    pub size: u8,
    /// KM; `None` when the record has none (or KM\[\]).
    pub komi: Option<Komi>,
    /// HA (0 when absent; inferred from the root's AB when HA is missing, with a warning).
    pub handicap: u8,
    pub info: GameInfo,
    /// RE, typed; `None` when absent or not understood (see `result_text`).
    pub result: Option<GameResult>,
    /// RE as written.
    pub result_text: Option<String>,
    /// Setup of the root node (handicap stones, problem positions).
    pub setup: Setup,
    /// PL of the root node.
    pub to_move: Option<Color>,
    /// The main line after the root's setup: moves and later setups.
    pub steps: Vec<Step>,
    /// The last TB/TW markup of the main line, if any.
    pub territory: Option<Territory>,
    /// Game trees in the file (only the first is read).
    pub game_trees: usize,
    pub warnings: Vec<Warning>,
}

impl Record {
    /// An empty record of an even game on a board of `size`.
    pub fn new(size: u8) -> Record {
        Record {
            size,
            komi: None,
            handicap: 0,
            info: GameInfo::default(),
            result: None,
            result_text: None,
            setup: Setup::default(),
            to_move: None,
            steps: Vec::new(),
            territory: None,
            game_trees: 1,
            warnings: Vec::new(),
        }
    }

    /// Append a move.
    pub fn push_move(&mut self, color: Color, mv: Move) {
        self.steps.push(Step { action: Action::Move { color, mv }, at: None });
    }

    /// The moves of the main line in order.
    pub fn moves(&self) -> impl Iterator<Item = (Color, Move)> + '_ {
        self.steps.iter().filter_map(|s| match s.action {
            Action::Move { color, mv } => Some((color, mv)),
            Action::Setup { .. } => None,
        })
    }

    /// Number of moves (passes included) on the main line.
    pub fn move_count(&self) -> usize {
        self.moves().count()
    }
}

/// Read a file's bytes: UTF-8, or, failing that, a lossy decoding with a warning (old records in
/// GB2312/GBK or Latin-1 keep their moves; their names come out garbled).
pub fn parse_bytes(bytes: &[u8]) -> Result<Record, SgfError> {
    match String::from_utf8_lossy(bytes) {
        Cow::Borrowed(text) => parse(text),
        Cow::Owned(text) => {
            let mut rec = parse(&text)?;
            rec.warnings.insert(
                0,
                Warning {
                    pos: None,
                    message: "the file is not UTF-8 (a GB2312/GBK record?): texts were decoded lossily"
                        .to_string(),
                },
            );
            Ok(rec)
        }
    }
}

/// Drop a parsed tree without recursion (a long main line is a deep chain of nodes, and the
/// derived drop would recurse once per node).
fn drop_tree(root: SgfNode<Prop>) {
    let mut stack = vec![root];
    while let Some(mut node) = stack.pop() {
        stack.append(&mut node.children);
    }
}

fn text_value(p: &Prop) -> Option<String> {
    let s = match p {
        Prop::PB(t) | Prop::PW(t) | Prop::BR(t) | Prop::WR(t) | Prop::DT(t) | Prop::EV(t) | Prop::RO(t) => {
            t.to_string()
        }
        Prop::PC(t) | Prop::RU(t) | Prop::GN(t) | Prop::RE(t) => t.to_string(),
        Prop::AP((name, version)) => {
            let (n, v) = (name.to_string(), version.to_string());
            if v.is_empty() {
                n
            } else {
                format!("{n}:{v}")
            }
        }
        _ => return None,
    };
    let s = s.trim().to_string();
    (!s.is_empty()).then_some(s)
}

fn to_point(p: &go::Point) -> Point {
    Point::new(p.x, p.y)
}

fn sorted_points(set: &HashSet<go::Point>) -> Vec<Point> {
    let mut v: Vec<Point> = set.iter().map(to_point).collect();
    v.sort_by_key(|p| (p.y, p.x));
    v
}

/// Parse SGF text into a [`Record`] (the first game tree). Errors carry the line and column.
pub fn parse(text: &str) -> Result<Record, SgfError> {
    let scanned = scan(text)?;
    let mut loc = Locator::new(text);
    let mut warnings: Vec<Warning> = scanned
        .warnings
        .iter()
        .map(|(at, m)| Warning { pos: at.map(|o| loc.pos(o)), message: m.clone() })
        .collect();
    let root_raw = scanned.main_line.first().cloned().unwrap_or_default();

    // The game type, checked here so that the error has a position.
    let gms: Vec<&RawProp> = root_raw.props.iter().filter(|p| p.ident == "GM").collect();
    if let Some(second) = gms.get(1) {
        return Err(loc.error(second.at, "GM appears twice in the root node"));
    }
    if let Some(gm) = gms.first() {
        let v: Vec<&str> = gm.values.iter().map(|(v, _)| v.as_str()).collect();
        match v.as_slice() {
            [one] if one.parse::<i32>().is_ok() => {
                if *one != "1" {
                    return Err(loc.error(gm.at, format!("not a Go record: GM[{one}] (Go is GM[1])")));
                }
            }
            _ => return Err(loc.error(gm.at, format!("GM[{}] is not a game number", v.join("][")))),
        }
    }

    let slice = &text[scanned.first_tree.clone()];
    let trees = sgf_parse::parse(slice)
        .map_err(|e| loc.error(scanned.first_tree.start, format!("cannot parse the game tree: {e}")))?;
    let Some(tree) = trees.into_iter().next() else {
        return Err(loc.error(scanned.first_tree.start, "no game tree"));
    };
    let root = tree
        .into_go_node()
        .map_err(|e| loc.error(scanned.first_tree.start, format!("not a Go record: {e}")))?;
    let result = build_record(&root, &scanned, &mut loc, &mut warnings);
    drop_tree(root);
    let mut rec = result?;
    rec.game_trees = scanned.game_trees;
    rec.warnings = warnings;
    Ok(rec)
}

fn build_record(
    root: &SgfNode<Prop>,
    scanned: &Scan,
    loc: &mut Locator<'_>,
    warnings: &mut Vec<Warning>,
) -> Result<Record, SgfError> {
    let nodes: Vec<&SgfNode<Prop>> = root.main_variation().collect();
    let raw = &scanned.main_line;
    let aligned = raw.len() == nodes.len();
    if !aligned {
        warnings.push(Warning {
            pos: None,
            message: "positions of properties are approximate (scanner and parser disagree)".to_string(),
        });
    }
    let fallback = scanned.first_tree.start;
    // Offset of a property in node k (or of the node, or of the tree).
    let at = |k: usize, ident: &str| -> usize {
        if !aligned {
            return fallback;
        }
        raw.get(k).map(|n| n.find(ident).map(|p| p.at).unwrap_or(n.at)).unwrap_or(fallback)
    };
    let raw_values = |k: usize, ident: &str| -> Option<Vec<String>> {
        if !aligned {
            return None;
        }
        raw.get(k)?.find(ident).map(|p| p.values.iter().map(|(v, _)| v.clone()).collect())
    };

    // --- Root: size, komi, handicap, information -----------------------------------------
    let root_node = nodes[0];
    let size: u8 = match root_node.get_property("SZ") {
        None => 19,
        Some(Prop::SZ((w, h))) => {
            if w != h {
                return Err(loc.error(at(0, "SZ"), format!("non-square board {w}×{h} is not supported")));
            }
            *w
        }
        Some(_) => {
            // sgf-parse could not read it: say why from the raw text.
            let v = raw_values(0, "SZ").unwrap_or_default().join("][");
            let first = v.split(':').next().unwrap_or("").trim().to_string();
            let msg = if !first.is_empty() && first.bytes().all(|c| c.is_ascii_digit()) {
                format!("board size {first} is not supported (5 to 25)")
            } else {
                format!("SZ[{v}] is not a board size")
            };
            return Err(loc.error(at(0, "SZ"), msg));
        }
    };
    if !(crate::board::MIN_SIZE..=crate::board::MAX_SIZE).contains(&size) {
        return Err(loc.error(at(0, "SZ"), format!("board size {size} is not supported (5 to 25)")));
    }

    let komi = match raw_values(0, "KM") {
        Some(v) => match v.as_slice() {
            [one] if one.trim().is_empty() => None,
            [one] => Some(Komi::from_km(one).map_err(|m| loc.error(at(0, "KM"), m))?),
            _ => return Err(loc.error(at(0, "KM"), "KM must have one value")),
        },
        None => match root_node.get_property("KM") {
            Some(Prop::KM(k)) if k.is_finite() && (k * 4.0).fract() == 0.0 => {
                Some(Komi::from_km(&format!("{k}")).map_err(|m| loc.error(fallback, m))?)
            }
            _ => None,
        },
    };

    let mut handicap_given = false;
    let mut handicap: u8 = match raw_values(0, "HA") {
        Some(v) => {
            let t = v.first().map(|s| s.trim().to_string()).unwrap_or_default();
            if t.is_empty() {
                0
            } else {
                handicap_given = true;
                match t.parse::<u64>() {
                    Ok(h) if h <= u64::from(u8::MAX) => h as u8,
                    Ok(h) => return Err(loc.error(at(0, "HA"), format!("handicap {h} is out of range"))),
                    Err(_) => return Err(loc.error(at(0, "HA"), format!("HA[{t}] is not a number"))),
                }
            }
        }
        None => match root_node.get_property("HA") {
            Some(Prop::HA(h)) => {
                handicap_given = true;
                u8::try_from(*h).unwrap_or(0)
            }
            _ => 0,
        },
    };

    // Texts come from the scanner (escapes done once, soft line breaks removed), or from
    // sgf-parse when the two disagree about the main line.
    let simple = |v: &str| -> Option<String> {
        let s: String = v.chars().map(|c| if c.is_whitespace() { ' ' } else { c }).collect();
        let s = s.trim();
        (!s.is_empty()).then(|| s.to_string())
    };
    let text_of = |ident: &str| -> Option<String> {
        if aligned {
            raw_values(0, ident).and_then(|v| v.first().and_then(|x| simple(x)))
        } else {
            root_node.get_property(ident).and_then(text_value)
        }
    };
    let info = GameInfo {
        black: text_of("PB"),
        white: text_of("PW"),
        black_rank: text_of("BR"),
        white_rank: text_of("WR"),
        date: text_of("DT"),
        event: text_of("EV"),
        round: text_of("RO"),
        place: text_of("PC"),
        rules: text_of("RU"),
        name: text_of("GN"),
        application: text_of("AP"),
    };
    let result_text = text_of("RE");
    if let Some(Prop::FF(ff)) = root_node.get_property("FF") {
        if *ff < 3 {
            warnings.push(Warning {
                pos: Some(loc.pos(at(0, "FF"))),
                message: format!("FF[{ff}] read as FF[4]"),
            });
        }
    }
    let result = match &result_text {
        None => None,
        Some(t) => match t.parse::<GameResult>() {
            Ok(r) => Some(r),
            Err(m) => {
                warnings.push(Warning { pos: Some(loc.pos(at(0, "RE"))), message: m });
                None
            }
        },
    };

    // --- The main line -----------------------------------------------------------------
    let mut rec = Record::new(size);
    let mut territory_b: Option<Vec<Point>> = None;
    let mut territory_w: Option<Vec<Point>> = None;
    let on_board = |p: &go::Point| p.x < size && p.y < size;
    for (k, node) in nodes.iter().enumerate() {
        let mut setup = Setup::default();
        let mut to_move: Option<Color> = None;
        let mut mv: Option<(Color, Move, &'static str)> = None;
        for p in node.properties() {
            match p {
                Prop::AB(set) | Prop::AW(set) | Prop::AE(set) => {
                    let ident = match p {
                        Prop::AB(_) => "AB",
                        Prop::AW(_) => "AW",
                        _ => "AE",
                    };
                    if let Some(off) = set.iter().find(|q| !on_board(q)) {
                        return Err(loc.error(
                            at(k, ident),
                            format!(
                                "{ident}: the point {}{} is off the {size}×{size} board",
                                (b'a'.wrapping_add(off.x)) as char,
                                (b'a'.wrapping_add(off.y)) as char
                            ),
                        ));
                    }
                    let target = match p {
                        Prop::AB(_) => &mut setup.black,
                        Prop::AW(_) => &mut setup.white,
                        _ => &mut setup.empty,
                    };
                    target.extend(sorted_points(set));
                }
                Prop::PL(c) => {
                    to_move = Some(match c {
                        sgf_parse::Color::Black => Color::Black,
                        sgf_parse::Color::White => Color::White,
                    })
                }
                Prop::B(m) | Prop::W(m) => {
                    let (color, ident) =
                        if matches!(p, Prop::B(_)) { (Color::Black, "B") } else { (Color::White, "W") };
                    if mv.is_some() {
                        return Err(loc.error(at(k, ident), "two moves in one node"));
                    }
                    let m = match m {
                        go::Move::Pass => Move::Pass,
                        go::Move::Move(q) if size <= 19 && q.x == 19 && q.y == 19 => Move::Pass,
                        go::Move::Move(q) => Move::Play(to_point(q)),
                    };
                    mv = Some((color, m, ident));
                }
                Prop::TB(set) | Prop::TW(set) => {
                    let black = matches!(p, Prop::TB(_));
                    let ident = if black { "TB" } else { "TW" };
                    if set.iter().any(|q| !on_board(q)) {
                        warnings.push(Warning {
                            pos: Some(loc.pos(at(k, ident))),
                            message: format!("{ident}: points off the board were ignored"),
                        });
                    }
                    let pts: Vec<Point> =
                        sorted_points(set).into_iter().filter(|q| rec_contains(size, *q)).collect();
                    if black {
                        territory_b = Some(pts);
                    } else {
                        territory_w = Some(pts);
                    }
                }
                Prop::Invalid(ident, values) => {
                    let ident = ident.as_str();
                    let shown = format!("{ident}[{}]", values.join("]["));
                    match ident {
                        "B" | "W" => {
                            return Err(loc.error(
                                at(k, ident),
                                format!("{shown}: not a move (two letters, or empty for a pass)"),
                            ))
                        }
                        "AB" | "AW" | "AE" => {
                            return Err(loc.error(at(k, ident), format!("{shown}: not a list of points")))
                        }
                        "PL" => {
                            return Err(loc.error(at(k, ident), format!("{shown}: the player must be B or W")))
                        }
                        "SZ" | "KM" | "HA" | "GM" if k == 0 => {} // handled above from the raw text
                        _ => warnings.push(Warning {
                            pos: Some(loc.pos(at(k, ident))),
                            message: format!("{shown} was ignored (invalid value)"),
                        }),
                    }
                }
                _ => {}
            }
        }
        if k == 0 {
            rec.setup = setup;
            rec.to_move = to_move;
        } else if !setup.is_empty() {
            let pos = loc.pos(at(
                k,
                if setup.black.is_empty() {
                    if setup.white.is_empty() {
                        "AE"
                    } else {
                        "AW"
                    }
                } else {
                    "AB"
                },
            ));
            rec.steps.push(Step { action: Action::Setup { setup, to_move }, at: Some(pos) });
        }
        if let Some((color, m, ident)) = mv {
            let pos = loc.pos(at(k, ident));
            rec.steps.push(Step { action: Action::Move { color, mv: m }, at: Some(pos) });
        }
    }
    if territory_b.is_some() || territory_w.is_some() {
        rec.territory = Some(Territory {
            black: territory_b.unwrap_or_default(),
            white: territory_w.unwrap_or_default(),
        });
    }

    // --- Handicap: HA against the root's stones -------------------------------------------
    let ab = rec.setup.black.len();
    if !handicap_given && ab >= 2 && rec.setup.white.is_empty() {
        handicap = u8::try_from(ab).unwrap_or(u8::MAX);
        warnings.push(Warning {
            pos: None,
            message: format!(
                "no HA[]: handicap {handicap} inferred from the {ab} black stones set up in the root"
            ),
        });
    } else if handicap_given && handicap >= 2 && ab != 0 && ab != usize::from(handicap) {
        warnings.push(Warning {
            pos: Some(loc.pos(at(0, "HA"))),
            message: format!("HA[{handicap}] but {ab} black stones are set up in the root"),
        });
    }

    rec.komi = komi;
    rec.handicap = handicap;
    rec.info = info;
    rec.result = result;
    rec.result_text = result_text;
    Ok(rec)
}

fn rec_contains(size: u8, p: Point) -> bool {
    p.x < size && p.y < size
}

// ---------------------------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------------------------

fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        if ch == ']' || ch == '\\' {
            out.push('\\');
        }
        out.push(ch);
    }
    out
}

fn push_points(out: &mut String, ident: &str, pts: &[Point]) {
    if pts.is_empty() {
        return;
    }
    out.push_str(ident);
    for p in pts {
        out.push('[');
        out.push_str(&p.sgf());
        out.push(']');
    }
}

fn push_setup(out: &mut String, setup: &Setup, to_move: Option<Color>) {
    push_points(out, "AB", &setup.black);
    push_points(out, "AW", &setup.white);
    push_points(out, "AE", &setup.empty);
    if let Some(c) = to_move {
        out.push_str(&format!("PL[{}]", c.letter()));
    }
}

/// Write a record as FF\[4\] text: GM/FF/CA/AP/SZ, KM in points, HA, RU, the players, DT/EV/RO/PC,
/// RE, the root's setup and PL, then one node per step (passes as `B[]`), and TB/TW in the last
/// node. Reading the text back gives the same game.
pub fn write(rec: &Record) -> String {
    let mut out = String::with_capacity(64 + 7 * rec.steps.len());
    out.push_str(&format!("(;GM[1]FF[4]CA[UTF-8]AP[Tengen:{}]SZ[{}]", env!("CARGO_PKG_VERSION"), rec.size));
    if let Some(k) = rec.komi {
        out.push_str(&format!("KM[{}]", k.points_text()));
    }
    if rec.handicap > 0 {
        out.push_str(&format!("HA[{}]", rec.handicap));
    }
    let i = &rec.info;
    for (ident, v) in [
        ("RU", &i.rules),
        ("GN", &i.name),
        ("PB", &i.black),
        ("BR", &i.black_rank),
        ("PW", &i.white),
        ("WR", &i.white_rank),
        ("DT", &i.date),
        ("EV", &i.event),
        ("RO", &i.round),
        ("PC", &i.place),
    ] {
        if let Some(v) = v {
            out.push_str(&format!("{ident}[{}]", escape(v)));
        }
    }
    match (&rec.result, &rec.result_text) {
        (Some(r), _) => out.push_str(&format!("RE[{r}]")),
        (None, Some(t)) => out.push_str(&format!("RE[{}]", escape(t))),
        (None, None) => {}
    }
    push_setup(&mut out, &rec.setup, rec.to_move);
    out.push('\n');
    for (k, step) in rec.steps.iter().enumerate() {
        out.push(';');
        match &step.action {
            Action::Setup { setup, to_move } => push_setup(&mut out, setup, *to_move),
            Action::Move { color, mv } => {
                out.push(color.letter());
                out.push('[');
                if let Move::Play(p) = mv {
                    out.push_str(&p.sgf());
                }
                out.push(']');
            }
        }
        if k % 12 == 11 {
            out.push('\n');
        }
    }
    if let Some(t) = &rec.territory {
        // TB/TW go into the last node (the root's, for a record without steps).
        push_points(&mut out, "TB", &t.black);
        push_points(&mut out, "TW", &t.white);
    }
    out.push_str(")\n");
    out
}

// ---------------------------------------------------------------------------------------------
// Replaying
// ---------------------------------------------------------------------------------------------

/// What to replay a record under (by default: the Chinese 2002 rule set, the record's komi, dead
/// stones from TB/TW).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ReplayOptions {
    /// Ko rule, suicide rule, komi, handicap komi and compensation, jigo rule.
    pub rules: RuleSet,
    /// Komi in quarter stones, overriding both the record's KM and the rule set.
    pub komi_q: Option<i32>,
    /// Dead stones (any point of each dead chain). `None`: inferred from TB/TW when present.
    pub dead: Option<Vec<Point>>,
}

/// Where the komi of a replay came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KomiSource {
    /// The caller's override (`--komi`).
    Given,
    /// KM of the record (even games).
    Record,
    /// The rule set's komi (even game without KM).
    RuleSet,
    /// The rule set's handicap komi (handicap games; KM is not used).
    RuleSetHandicap,
}

/// Where the dead stones of a replay came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeadSource {
    /// None were given and the record has no TB/TW.
    None,
    /// The caller's list (`--dead`).
    Given,
    /// Stones lying on points marked as the opponent's territory (TB/TW).
    Territory,
}

/// The first illegal move of a replay.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IllegalAt {
    /// Move number (1 = the first B or W of the main line; passes count).
    pub number: u32,
    pub color: Color,
    pub mv: Move,
    /// Human coordinates ("Q16"), or "pass", or "off the board".
    pub point: String,
    /// SGF letters ("pd"; empty for a pass).
    pub sgf: String,
    pub reason: IllegalMove,
    /// Where the move stands in the file.
    pub at: Option<Pos>,
}

impl fmt::Display for IllegalAt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let who = match self.color {
            Color::Black => "Black",
            Color::White => "White",
        };
        write!(
            f,
            "move {} {who} {} [{}]: {} ({})",
            self.number,
            self.point,
            self.sgf,
            self.reason,
            self.reason.code()
        )
    }
}

/// Whether the computed result agrees with RE\[\].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "status")]
pub enum Agreement {
    Agrees,
    Disagrees {
        record: String,
        computed: String,
    },
    /// RE is not a counted result (B+R, W+T, Void, ?), is missing, or the replay stopped early.
    NotComparable {
        reason: String,
    },
}

impl Agreement {
    pub fn is_disagreement(&self) -> bool {
        matches!(self, Agreement::Disagrees { .. })
    }
}

impl fmt::Display for Agreement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Agreement::Agrees => f.write_str("agrees with RE[]"),
            Agreement::Disagrees { record, computed } => {
                write!(f, "DISAGREES with RE[{record}] (computed {computed})")
            }
            Agreement::NotComparable { reason } => write!(f, "not comparable: {reason}"),
        }
    }
}

/// The report of a replay.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Replay {
    pub size: u8,
    /// Moves on the record's main line (passes included).
    pub moves_in_record: u32,
    /// Moves replayed legally (all of them unless `illegal` is set).
    pub moves_played: u32,
    /// The first illegal move; the replay stops there.
    pub illegal: Option<IllegalAt>,
    /// Stones captured by Black and by White (a suicided chain counts for the opponent).
    pub captures_by_black: u32,
    pub captures_by_white: u32,
    /// True when the replay ended with two consecutive passes.
    pub ended_by_passes: bool,
    /// The final position.
    #[serde(skip)]
    pub board: Board,
    /// The final position as rows, top row first: `X` Black, `O` White, `.` empty.
    pub final_board: Vec<String>,
    pub dead: Vec<Point>,
    pub dead_source: DeadSource,
    pub count: AreaCount,
    pub handicap: u8,
    pub komi_q: i32,
    pub komi_source: KomiSource,
    pub scoring: Scoring,
    pub outcome: Outcome,
    pub agreement: Agreement,
    /// Things worth knowing: a colour moving twice, play after two passes, setups, dead-stone
    /// points without a stone.
    pub notes: Vec<String>,
}

fn human(p: Point, size: u8) -> String {
    if p.x < size && p.y < size {
        p.display(size)
    } else {
        "off the board".to_string()
    }
}

fn sgf_letters(p: Point) -> String {
    p.sgf()
}

fn rows(board: &Board) -> Vec<String> {
    board.ascii().lines().map(str::to_string).collect()
}

/// Dead stones inferred from territory markup: a stone on a point marked as the opponent's
/// territory is dead.
pub fn dead_from_territory(board: &Board, t: &Territory) -> Vec<Point> {
    let mut dead: Vec<Point> =
        t.black.iter().copied().filter(|&p| board.get(p) == Some(Color::White)).collect();
    dead.extend(t.white.iter().copied().filter(|&p| board.get(p) == Some(Color::Black)));
    dead.sort_by_key(|p| (p.y, p.x));
    dead
}

/// Replay a record's main line under `opts` and count the final position. Fails only when the
/// record's size is not a supported board size.
pub fn replay(rec: &Record, opts: &ReplayOptions) -> Result<Replay, crate::board::BadSize> {
    let rules = &opts.rules;
    let mut board = Board::new(rec.size)?;
    rec.setup.apply(&mut board);
    let first_mover = rec.moves().next().map(|(c, _)| c);
    let to_move = rec.to_move.or(first_mover).unwrap_or(Color::Black);
    let mut game = Game::from_board(board, to_move, rules.ko, rules.suicide);
    let mut notes = Vec::new();
    let mut caps = [0u32; 2];
    let mut number = 0u32;
    let mut played = 0u32;
    let mut illegal = None;
    let mut last: Option<Color> = None;
    // Free placement written as moves: the handicap's first Black moves are not double moves.
    let placement = if rec.setup.black.is_empty() { u32::from(rec.handicap) } else { 0 };
    for step in &rec.steps {
        match &step.action {
            Action::Setup { setup, to_move } => {
                let mut b = game.board().clone();
                setup.apply(&mut b);
                let next = to_move.unwrap_or(game.to_move());
                game = Game::from_board(b, next, rules.ko, rules.suicide);
                notes.push(format!("setup after move {number}: the superko history restarts there"));
            }
            Action::Move { color, mv } => {
                number += 1;
                if game.is_over() {
                    game.resume();
                    notes.push(format!("move {number}: play continues after two passes"));
                }
                if last == Some(*color) && number > placement {
                    let who = if *color == Color::Black { "Black" } else { "White" };
                    notes.push(format!("move {number}: {who} moves twice in a row"));
                }
                last = Some(*color);
                match game.play_as(*color, *mv) {
                    Ok(p) => {
                        played += 1;
                        caps[*color as usize] += p.captures;
                        caps[color.opponent() as usize] += p.suicided;
                    }
                    Err(reason) => {
                        let (point, sgf) = match mv {
                            Move::Pass => ("pass".to_string(), String::new()),
                            Move::Play(p) => (human(*p, rec.size), sgf_letters(*p)),
                        };
                        illegal = Some(IllegalAt {
                            number,
                            color: *color,
                            mv: *mv,
                            point,
                            sgf,
                            reason,
                            at: step.at,
                        });
                        break;
                    }
                }
            }
        }
    }
    let moves_in_record = u32::try_from(rec.move_count()).unwrap_or(u32::MAX);
    let board = game.board().clone();
    let (dead, dead_source) = match (&opts.dead, &rec.territory) {
        (Some(d), _) => (d.clone(), DeadSource::Given),
        (None, Some(t)) => (dead_from_territory(&board, t), DeadSource::Territory),
        (None, None) => (Vec::new(), DeadSource::None),
    };
    for p in &dead {
        if board.get(*p).is_none() {
            notes.push(format!("dead stones: no stone on {}", human(*p, rec.size)));
        }
    }
    let dead: Vec<Point> = dead.into_iter().filter(|p| board.get(*p).is_some()).collect();
    let count = count::area(&board, &dead);
    let (komi_q, komi_source) = match (opts.komi_q, rec.handicap, rec.komi) {
        (Some(k), _, _) => (k, KomiSource::Given),
        (None, h, _) if h > 0 => (rules.handicap_komi_q, KomiSource::RuleSetHandicap),
        (None, _, Some(k)) => (k.quarters, KomiSource::Record),
        (None, _, None) => (rules.komi_q, KomiSource::RuleSet),
    };
    let mut scoring = rules.scoring(rec.handicap, 0, 0);
    scoring.points = board.points();
    scoring.komi_q = komi_q;
    let outcome = scoring.outcome(count.black_halves);
    let agreement = agreement(rec, &outcome, illegal.as_ref());
    Ok(Replay {
        size: rec.size,
        moves_in_record,
        moves_played: played,
        illegal,
        captures_by_black: caps[0],
        captures_by_white: caps[1],
        ended_by_passes: game.is_over(),
        final_board: rows(&board),
        board,
        dead,
        dead_source,
        count,
        handicap: rec.handicap,
        komi_q,
        komi_source,
        scoring,
        outcome,
        agreement,
        notes,
    })
}

fn agreement(rec: &Record, computed: &Outcome, illegal: Option<&IllegalAt>) -> Agreement {
    let not = |reason: String| Agreement::NotComparable { reason };
    if let Some(i) = illegal {
        return not(format!("the replay stopped at the illegal move {}", i.number));
    }
    let Some(result) = rec.result else {
        return not(match &rec.result_text {
            Some(t) => format!("RE[{t}] is not understood"),
            None => "the record has no RE[]".to_string(),
        });
    };
    let computed_text = computed.sgf_result();
    let disagree = || Agreement::Disagrees { record: result.to_string(), computed: computed_text.clone() };
    match result {
        GameResult::Draw => {
            if computed.winner.is_none() {
                Agreement::Agrees
            } else {
                disagree()
            }
        }
        GameResult::Win { winner, by: WinBy::Score { margin_halves } } => {
            if computed.winner == Some(winner) && computed.margin_q == margin_halves {
                Agreement::Agrees
            } else {
                disagree()
            }
        }
        GameResult::Win { winner, by: WinBy::Unspecified } => {
            if computed.winner == Some(winner) {
                Agreement::Agrees
            } else {
                disagree()
            }
        }
        GameResult::Win { by: WinBy::Resignation, .. } => not(format!("RE[{result}]: won by resignation")),
        GameResult::Win { by: WinBy::Time, .. } => not(format!("RE[{result}]: won on time")),
        GameResult::Win { by: WinBy::Forfeit, .. } => not(format!("RE[{result}]: won by forfeit")),
        GameResult::Void => not("RE[Void]: no result".to_string()),
        GameResult::Unknown => not("RE[?]: the result is unknown".to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::KoRule;

    fn p(s: &str) -> Point {
        Point::from_sgf(s).unwrap()
    }

    fn rules(ko: KoRule) -> ReplayOptions {
        ReplayOptions { rules: RuleSet { ko, ..RuleSet::chinese_2002() }, ..ReplayOptions::default() }
    }

    fn err(text: &str) -> SgfError {
        parse(text).expect_err("should be refused")
    }

    /// A 9×9 game: two walls, an invasion captured, two passes. Black 36, White 36, 9 dame.
    const SHORT: &str = "(;GM[1]FF[4]CA[UTF-8]SZ[9]KM[7]RU[Chinese]PB[Black Player]PW[White Player]RE[W+7]
        ;B[da];W[fa];B[db];W[fb];B[dc];W[fc];B[dd];W[fd];B[de];W[fe];B[df];W[ff]
        ;B[dg];W[fg];B[dh];W[fh];B[di];W[fi];B[bb];W[aa];B[ab];W[ha];B[ba];W[];B[])";

    #[test]
    fn short_game() {
        let rec = parse(SHORT).unwrap();
        assert_eq!(rec.size, 9);
        assert_eq!(rec.komi, Some(Komi { quarters: 14, unit: KomiUnit::Points }));
        assert_eq!(rec.info.black.as_deref(), Some("Black Player"));
        assert_eq!(rec.info.rules.as_deref(), Some("Chinese"));
        assert_eq!(rec.move_count(), 25);
        assert_eq!(
            rec.result,
            Some(GameResult::Win { winner: Color::White, by: WinBy::Score { margin_halves: 14 } })
        );
        let r = replay(&rec, &ReplayOptions::default()).unwrap();
        assert_eq!(r.moves_played, 25);
        assert!(r.illegal.is_none());
        assert_eq!((r.captures_by_black, r.captures_by_white), (1, 0));
        assert!(r.ended_by_passes);
        assert_eq!(r.board.get(p("aa")), None, "the invader was captured");
        assert_eq!(r.count.black_halves, 2 * 36 + 9);
        assert_eq!(r.count.white_halves, 2 * 36 + 9);
        assert_eq!(r.count.shared, 9);
        assert_eq!(r.komi_source, KomiSource::Record);
        assert_eq!(r.outcome.sgf_result(), "W+7");
        assert_eq!(r.agreement, Agreement::Agrees);
        assert_eq!(r.final_board[0], ".X.X.O.O.");
        // the same game with komi 6.5 (13 quarters) given by the caller
        let r = replay(&rec, &ReplayOptions { komi_q: Some(13), ..ReplayOptions::default() }).unwrap();
        assert_eq!(r.outcome.sgf_result(), "W+6.5");
        assert!(r.agreement.is_disagreement());
    }

    /// Ko at the top left of a 7×7 board: Black takes at cb, White retakes at bb.
    const KO_SETUP: &str = "AB[ba][ab][bc]AW[ca][bb][db][cc]";

    #[test]
    fn ko_second_retake_refused_under_simple_ko() {
        let text = format!("(;GM[1]FF[4]SZ[7]KM[0]{KO_SETUP}PL[B];B[cb];W[ge];B[gf];W[bb];B[cb];W[aa])");
        let rec = parse(&text).unwrap();
        for ko in [KoRule::Simple, KoRule::Situational] {
            let r = replay(&rec, &rules(ko)).unwrap();
            assert_eq!(r.moves_played, 4, "{ko:?}");
            let i = r.illegal.clone().expect("the immediate retake is illegal");
            assert_eq!((i.number, i.color, i.reason), (5, Color::Black, IllegalMove::Ko));
            assert_eq!((i.point.as_str(), i.sgf.as_str()), ("C6", "cb"));
            assert_eq!(i.at.map(|p| p.line), Some(1));
            assert_eq!((r.captures_by_black, r.captures_by_white), (1, 1));
            assert_eq!(r.moves_in_record, 6);
            assert!(matches!(r.agreement, Agreement::NotComparable { .. }));
        }
    }

    /// Two kos. B takes ko 1, W takes ko 2, B passes, W retakes ko 1, B retakes ko 2: the board is
    /// the starting one again, but with White to move instead of Black. Positional superko
    /// refuses the last move; situational superko and simple ko allow it.
    #[test]
    fn positional_but_not_situational_repetition() {
        let text = "(;GM[1]FF[4]SZ[7]AB[ba][ab][bc][fe][ef][gf][fg]AW[ca][bb][db][cc][ee][df][eg]PL[B]
                     ;B[cb];W[ff];B[];W[bb];B[ef])";
        let rec = parse(text).unwrap();
        let pos = replay(&rec, &rules(KoRule::Positional)).unwrap();
        let i = pos.illegal.expect("positional superko refuses the repetition");
        assert_eq!((i.number, i.reason), (5, IllegalMove::Superko));
        assert_eq!(i.at.map(|p| (p.line, p.col)), Some((2, 45)));
        for ko in [KoRule::Situational, KoRule::Simple] {
            let r = replay(&rec, &rules(ko)).unwrap();
            assert!(r.illegal.is_none(), "{ko:?}: {:?}", r.illegal);
            assert_eq!(r.moves_played, 5);
            // back to the starting position
            let mut start = Board::new(7).unwrap();
            rec.setup.apply(&mut start);
            assert_eq!(r.board, start);
        }
    }

    #[test]
    fn handicap_with_setup_stones() {
        let text = "(;GM[1]FF[4]SZ[19]HA[2]KM[0.5]AB[pd][dp]RE[0];W[dd];B[pp];W[];B[])";
        let rec = parse(text).unwrap();
        assert_eq!(rec.handicap, 2);
        assert_eq!(rec.setup.black, vec![p("pd"), p("dp")]);
        let r = replay(&rec, &ReplayOptions::default()).unwrap();
        assert_eq!(r.komi_source, KomiSource::RuleSetHandicap);
        assert_eq!(r.komi_q, 0, "Chinese handicap games have no komi");
        // Black 3 stones, White 1, 357 shared: 2·363 − 722 − 4 (2 stones → 1 stone back) = 0
        assert_eq!(r.count.black_halves, 363);
        assert_eq!(r.outcome.winner, None);
        assert_eq!(r.agreement, Agreement::Agrees);
        let r = replay(&rec, &ReplayOptions { komi_q: Some(15), ..ReplayOptions::default() }).unwrap();
        assert_eq!(r.komi_source, KomiSource::Given);
        assert_eq!(r.outcome.sgf_result(), "W+7.5");
        assert!(r.notes.is_empty(), "{:?}", r.notes);
    }

    #[test]
    fn handicap_inferred_and_free_placement() {
        let rec = parse("(;SZ[19]AB[dd][pp][dp];W[pd])").unwrap();
        assert_eq!(rec.handicap, 3);
        assert!(rec.warnings.iter().any(|w| w.message.contains("inferred")));
        // free placement written as moves: no double-move notes for the first HA black moves
        let rec = parse("(;SZ[19]HA[2];B[dd];B[pp];W[pd];W[dp])").unwrap();
        let r = replay(&rec, &ReplayOptions::default()).unwrap();
        assert_eq!(r.moves_played, 4);
        assert_eq!(r.notes, vec!["move 4: White moves twice in a row".to_string()]);
    }

    #[test]
    fn tt_is_a_pass_up_to_19_and_a_point_above() {
        let rec = parse("(;GM[1]FF[3]SZ[19];B[pd];W[tt];B[tt])").unwrap();
        let moves: Vec<_> = rec.moves().collect();
        assert_eq!(moves[1], (Color::White, Move::Pass));
        assert_eq!(moves[2], (Color::Black, Move::Pass));
        assert!(replay(&rec, &ReplayOptions::default()).unwrap().ended_by_passes);
        let rec = parse("(;SZ[13];B[tt])").unwrap();
        assert_eq!(rec.moves().next(), Some((Color::Black, Move::Pass)));
        let rec = parse("(;GM[1]FF[4]SZ[21];B[tt];W[aa])").unwrap();
        assert_eq!(rec.moves().next(), Some((Color::Black, Move::Play(Point::new(19, 19)))));
        let r = replay(&rec, &ReplayOptions::default()).unwrap();
        assert_eq!(r.board.get(Point::new(19, 19)), Some(Color::Black));
        assert_eq!(Point::new(19, 19).display(21), "U2");
    }

    #[test]
    fn setup_in_later_nodes_and_pl() {
        let text = "(;SZ[9]AB[cc]PL[W];W[gg];AE[cc]AW[ee]PL[W];W[ff];B[dd])";
        let rec = parse(text).unwrap();
        assert_eq!(rec.to_move, Some(Color::White));
        assert!(matches!(rec.steps[1].action, Action::Setup { to_move: Some(Color::White), .. }));
        let r = replay(&rec, &ReplayOptions::default()).unwrap();
        assert_eq!(r.board.get(p("cc")), None);
        assert_eq!(r.board.get(p("ee")), Some(Color::White));
        assert_eq!(r.moves_played, 3);
        assert!(r.notes.iter().any(|n| n.contains("setup")));
    }

    #[test]
    fn dead_stones_from_territory_markup() {
        // 5×5: Black owns the left, White the right; a white stone at aa lies in Black's area.
        let text = "(;SZ[5]KM[0]AB[bb][ba][bc][bd][be]AW[aa][db][da][dc][dd][de]RE[W+0.5]
                     ;B[];W[]TB[ab][ac][ad][ae][aa]TW[eb][ea][ec][ed][ee])";
        let rec = parse(text).unwrap();
        let t = rec.territory.clone().unwrap();
        assert_eq!(t.black.len(), 5);
        let r = replay(&rec, &ReplayOptions::default()).unwrap();
        assert_eq!(r.dead_source, DeadSource::Territory);
        assert_eq!(r.dead, vec![p("aa")]);
        assert_eq!(r.count.dead_white, 1);
        // Black 10, White 10, 5 shared; komi 0 → draw, which disagrees with RE[W+0.5]
        assert_eq!(r.count.black_halves, 25);
        assert_eq!(r.outcome.winner, None);
        assert_eq!(r.agreement, Agreement::Disagrees { record: "W+0.5".into(), computed: "0".into() });
        // given dead stones override the markup
        let r = replay(&rec, &ReplayOptions { dead: Some(vec![]), ..ReplayOptions::default() }).unwrap();
        assert_eq!(r.dead_source, DeadSource::Given);
        assert_eq!(r.count.dead_white, 0);
    }

    #[test]
    fn komi_heuristic() {
        let k = |t: &str| Komi::from_km(t).map(|k| (k.quarters, k.unit));
        assert_eq!(k("7.5"), Ok((15, KomiUnit::Points)));
        assert_eq!(k("6.5"), Ok((13, KomiUnit::Points)));
        assert_eq!(k("7"), Ok((14, KomiUnit::Points)));
        assert_eq!(k("0"), Ok((0, KomiUnit::Points)));
        assert_eq!(k("-5.5"), Ok((-11, KomiUnit::Points)));
        assert_eq!(k("7.50"), Ok((15, KomiUnit::Points)));
        assert_eq!(k("3.75"), Ok((15, KomiUnit::Stones)));
        assert_eq!(k("2.75"), Ok((11, KomiUnit::Stones)));
        assert_eq!(k("375"), Ok((15, KomiUnit::HundredthsOfStones)));
        assert_eq!(k("350"), Ok((14, KomiUnit::HundredthsOfStones)));
        assert!(k("5.4").is_err());
        assert!(k("abc").is_err());
        assert!(k("1e3").is_err());
        assert!(k("99999999999999999999999").is_err());
        assert!(k("333").is_err());
        assert!(k("NaN").is_err());
        assert_eq!(Komi { quarters: 15, unit: KomiUnit::Stones }.points_text(), "7.5");
        assert_eq!(Komi { quarters: -1, unit: KomiUnit::Points }.points_text(), "-0.5");
        let rec = parse("(;KM[3.75])").unwrap();
        assert_eq!(rec.komi, Some(Komi { quarters: 15, unit: KomiUnit::Stones }));
        assert_eq!(parse("(;KM[])").unwrap().komi, None);
    }

    #[test]
    fn result_parsing() {
        use GameResult::*;
        let w = |c, by| Win { winner: c, by };
        let r = |t: &str| t.parse::<GameResult>();
        assert_eq!(r("B+R"), Ok(w(Color::Black, WinBy::Resignation)));
        assert_eq!(r("W+Resign"), Ok(w(Color::White, WinBy::Resignation)));
        assert_eq!(r("w+t"), Ok(w(Color::White, WinBy::Time)));
        assert_eq!(r("W+Time"), Ok(w(Color::White, WinBy::Time)));
        assert_eq!(r("B+F"), Ok(w(Color::Black, WinBy::Forfeit)));
        assert_eq!(r("B+3.5"), Ok(w(Color::Black, WinBy::Score { margin_halves: 7 })));
        assert_eq!(r("W+0.5"), Ok(w(Color::White, WinBy::Score { margin_halves: 1 })));
        assert_eq!(r("B+12"), Ok(w(Color::Black, WinBy::Score { margin_halves: 24 })));
        assert_eq!(r("B+0.75"), Ok(w(Color::Black, WinBy::Score { margin_halves: 3 })), "¾ stone");
        assert_eq!(r("B+"), Ok(w(Color::Black, WinBy::Unspecified)));
        assert_eq!(r("0"), Ok(Draw));
        assert_eq!(r("Draw"), Ok(Draw));
        assert_eq!(r("Jigo"), Ok(Draw));
        assert_eq!(r("Void"), Ok(Void));
        assert_eq!(r("?"), Ok(Unknown));
        assert_eq!(r("黑中盘胜"), Ok(w(Color::Black, WinBy::Resignation)));
        assert_eq!(r("白超时胜"), Ok(w(Color::White, WinBy::Time)));
        assert_eq!(r("黑胜3又3/4子"), Ok(w(Color::Black, WinBy::Score { margin_halves: 15 })));
        assert_eq!(r("白胜1/4子").ok(), None, "'1/4' alone is not read");
        assert_eq!(r("白胜¼子"), Ok(w(Color::White, WinBy::Score { margin_halves: 1 })));
        assert_eq!(r("白胜7.5目"), Ok(w(Color::White, WinBy::Score { margin_halves: 15 })));
        assert_eq!(r("和棋"), Ok(Draw));
        assert_eq!(r("无胜负"), Ok(Void));
        for bad in ["", "X+1", "B+3.3", "B-1", "B+-1", "B+99999999999999999999", "黑负"] {
            assert!(r(bad).is_err(), "{bad:?}");
        }
        for t in ["B+R", "W+T", "B+F", "B+3.5", "W+", "0", "Void", "?"] {
            assert_eq!(r(t).unwrap().to_string(), t);
        }
        assert!(r("B+3.5").unwrap().is_counted());
        assert!(!r("B+R").unwrap().is_counted());
        // a result not understood is kept as text with a warning
        let rec = parse("(;RE[B wins by a lot])").unwrap();
        assert_eq!(rec.result, None);
        assert_eq!(rec.result_text.as_deref(), Some("B wins by a lot"));
        assert_eq!(rec.warnings.len(), 1);
    }

    #[test]
    fn malformed_files_have_positions() {
        let cases: &[(&str, (u32, u32), &str)] = &[
            ("", (1, 1), "empty"),
            ("   \n  ", (1, 1), "empty"),
            ("hello", (1, 1), "no game tree"),
            ("(;GM[1]SZ[19]\n;B[pd]\n;W[dd\n", (3, 3), "never closed"),
            ("(;GM[1]\n;B[pd];W[dd]", (2, 13), "'(' at 1:1 is never closed"),
            ("(;B[pd]))", (1, 9), "without a matching"),
            ("(B[pd])", (1, 2), "outside a node"),
            ("(;C[user [12k]: hi];B[aa])", (1, 15), "unexpected character ':' after a property value"),
            ("(;B[aa]]", (1, 8), "unescaped ']'"),
            ("(;GM[1]\n  SZ[30];B[aa])", (2, 3), "board size 30 is not supported"),
            ("(;SZ[99999999999999999999])", (1, 3), "board size 99999999999999999999"),
            ("(;SZ[abc])", (1, 3), "not a board size"),
            ("(;SZ[4])", (1, 3), "not supported (5 to 25)"),
            ("(;SZ[19:13])", (1, 3), "non-square"),
            ("(;KM[abc])", (1, 3), "not a number"),
            ("(;KM[5.4])", (1, 3), "multiple"),
            ("(;HA[x])", (1, 3), "not a number"),
            ("(;GM[2]SZ[8])", (1, 3), "not a Go record"),
            ("(;FF[4]\n;B[pd]\n;W[z])", (3, 2), "not a move"),
            ("(;SZ[9];B[aa]W[bb])", (1, 14), "two moves"),
            ("(;SZ[9]AB[aa][zz])", (1, 8), "off the 9×9 board"),
            ("(;PB[柯洁]\n;B[aa]\n;W[bb]", (3, 7), "never closed"),
            ("(;PB[柯洁]C[x]];B[aa])", (1, 13), "unescaped ']'"),
            ("((;B[aa]))", (1, 2), "directly after"),
            ("(;B[aa]())", (1, 9), "empty game tree"),
            ("(;B[aa]B1[bb])", (1, 9), "unexpected '1'"),
            ("(;B", (1, 3), "end of file after property B"),
            ("(;B[aa] \u{0}", (1, 9), "unexpected character"),
        ];
        for (text, (line, col), needle) in cases {
            let e = err(text);
            assert_eq!((e.pos.line, e.pos.col), (*line, *col), "{text:?}: {e}");
            assert!(e.message.contains(needle), "{text:?}: {e}");
            assert!(!e.message.contains('\n'), "one line: {e}");
        }
        let e = err("(;SZ[30])");
        assert_eq!(e.to_string(), "1:3: board size 30 is not supported (5 to 25)");
    }

    #[test]
    fn lenient_about_surroundings() {
        let rec = parse("\u{feff}(;GM[1]SZ[9];B[ee])").unwrap();
        assert!(rec.warnings.is_empty(), "{:?}", rec.warnings);
        let rec = parse("From: someone\n\n(;SZ[9];B[ee])\n-- \nsignature").unwrap();
        assert_eq!(rec.move_count(), 1);
        assert_eq!(rec.warnings.len(), 2);
        let rec = parse("(;SZ[9];B[ee])(;SZ[13];B[aa])").unwrap();
        assert_eq!((rec.size, rec.game_trees), (9, 2));
        // FF[3] mixed-case identifiers and whitespace
        let rec = parse("(;GaMe[1]SiZe[9]\r\n PlayerBlack [Old] ; B [ee]\n)").unwrap();
        assert_eq!(rec.info.black.as_deref(), Some("Old"));
        assert_eq!(rec.move_count(), 1);
        // variations: only the main line is read
        let rec = parse("(;SZ[9];B[ee](;W[cc];B[gg](;W[cg])(;W[gc]))(;W[gg]))").unwrap();
        let moves: Vec<_> = rec.moves().map(|(_, m)| m).collect();
        assert_eq!(
            moves,
            vec![Move::Play(p("ee")), Move::Play(p("cc")), Move::Play(p("gg")), Move::Play(p("cg"))]
        );
        // not UTF-8
        let mut bytes = b"(;SZ[9]PB[".to_vec();
        bytes.extend([0xc0, 0xee, 0xb2]);
        bytes.extend(b"];B[ee])");
        let rec = parse_bytes(&bytes).unwrap();
        assert_eq!(rec.move_count(), 1);
        assert!(rec.warnings[0].message.contains("not UTF-8"));
    }

    #[test]
    fn off_board_moves_are_written_back_as_read() {
        // Found by the sgf fuzz target: `lS` (y = 44) was written as 'l' and byte 0x8d.
        let rec = parse("(;SZ[19];B[pd];W[lS];B[Za])").unwrap();
        let again = parse(&write(&rec)).unwrap();
        assert_eq!(again.moves().collect::<Vec<_>>(), rec.moves().collect::<Vec<_>>());
        assert!(write(&rec).contains("W[lS]"), "{}", write(&rec));
    }

    #[test]
    fn off_board_move_is_an_illegal_move() {
        let rec = parse("(;SZ[9];B[ee];W[zz])").unwrap();
        let r = replay(&rec, &ReplayOptions::default()).unwrap();
        let i = r.illegal.unwrap();
        assert_eq!(
            (i.number, i.reason, i.point.as_str(), i.sgf.as_str()),
            (2, IllegalMove::OffBoard, "off the board", "zz")
        );
        let rec = parse("(;SZ[9];B[ee];W[ee])").unwrap();
        let i = replay(&rec, &ReplayOptions::default()).unwrap().illegal.unwrap();
        assert_eq!((i.reason, i.point.as_str()), (IllegalMove::Occupied, "E5"));
    }

    #[test]
    fn play_after_two_passes_resumes() {
        let rec = parse("(;SZ[9];B[ee];W[];B[];W[cc];B[])").unwrap();
        let r = replay(&rec, &ReplayOptions::default()).unwrap();
        assert_eq!(r.moves_played, 5);
        assert!(!r.ended_by_passes);
        assert!(r.notes[0].contains("continues after two passes"));
    }

    #[test]
    fn suicide_rule_applies() {
        // White playing aa is suicide of one stone.
        let rec = parse("(;SZ[5]AB[ba][ab]PL[W];W[aa])").unwrap();
        let r = replay(&rec, &ReplayOptions::default()).unwrap();
        assert_eq!(r.illegal.unwrap().reason, IllegalMove::Suicide);
        let mut opts = ReplayOptions::default();
        opts.rules.suicide = crate::game::SuicideRule::Allowed;
        let r = replay(&rec, &opts).unwrap();
        assert!(r.illegal.is_none());
        assert_eq!(r.captures_by_black, 1, "the suicided stone counts for Black");
    }

    #[test]
    fn write_then_read_round_trip() {
        let mut rec = Record::new(19);
        rec.komi = Some(Komi { quarters: 15, unit: KomiUnit::Points });
        rec.handicap = 2;
        rec.setup.black = vec![p("pd"), p("dp")];
        rec.info.black = Some("柯洁 [9p]".into());
        rec.info.white = Some("Back\\slash".into());
        rec.info.black_rank = Some("9p".into());
        rec.info.date = Some("2024-05-12".into());
        rec.info.event = Some("Tengen Cup".into());
        rec.info.rules = Some("Chinese".into());
        rec.result = Some(GameResult::Win { winner: Color::White, by: WinBy::Score { margin_halves: 5 } });
        rec.result_text = Some("W+2.5".into());
        for (c, m) in [
            (Color::White, Move::Play(p("dd"))),
            (Color::Black, Move::Play(p("pp"))),
            (Color::White, Move::Pass),
            (Color::Black, Move::Play(p("qq"))),
        ] {
            rec.push_move(c, m);
        }
        rec.steps.push(Step {
            action: Action::Setup {
                setup: Setup { empty: vec![p("qq")], ..Setup::default() },
                to_move: Some(Color::White),
            },
            at: None,
        });
        for k in 0..30u8 {
            rec.push_move(
                if k % 2 == 0 { Color::White } else { Color::Black },
                Move::Play(Point::new(k % 19, 10 + k / 19)),
            );
        }
        rec.territory = Some(Territory { black: vec![p("ss")], white: vec![p("aa"), p("ba")] });
        let text = write(&rec);
        assert!(text.starts_with("(;GM[1]FF[4]CA[UTF-8]AP[Tengen:"));
        assert!(text.contains("KM[7.5]HA[2]"));
        let back = parse(&text).unwrap();
        let strip = |r: &Record| {
            let mut r = r.clone();
            r.warnings.clear();
            r.info.application = None;
            for s in &mut r.steps {
                s.at = None;
            }
            r
        };
        assert_eq!(strip(&back), strip(&rec), "{text}");
        // and the written text is stable
        assert_eq!(write(&back), text);
        // a read record written and read again
        let short = parse(SHORT).unwrap();
        assert_eq!(strip(&parse(&write(&short)).unwrap()), strip(&short));
    }

    #[test]
    fn deep_trees_do_not_overflow_the_stack() {
        let mut text = String::from("(;SZ[19]");
        for _ in 0..100_000 {
            text.push_str(";B[]");
        }
        text.push(')');
        let rec = parse(&text).unwrap();
        assert_eq!(rec.move_count(), 100_000);
        let mut text = String::from("(;SZ[19]");
        for _ in 0..50_000 {
            text.push_str("(;W[]");
        }
        for _ in 0..50_000 {
            text.push(')');
        }
        text.push(')');
        assert_eq!(parse(&text).unwrap().move_count(), 50_000);
        let deep_open = "(".repeat(100_000);
        assert!(parse(&deep_open).is_err());
    }

    mod never_panics {
        use super::super::*;
        use proptest::prelude::*;

        fn check(text: &str) {
            if let Ok(rec) = parse(text) {
                let _ = replay(&rec, &ReplayOptions::default());
                let _ = write(&rec);
            }
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(400))]
            #[test]
            fn on_any_text(s in "\\PC{0,200}") {
                check(&s);
            }

            #[test]
            fn on_sgf_like_text(s in "[();\\[\\]\\\\ \nBWAEKMSZHLPRTGFabcdestz0-9.:+-]{0,120}") {
                check(&format!("(;{s}"));
                check(&s);
            }

            #[test]
            fn on_any_bytes(b in proptest::collection::vec(any::<u8>(), 0..200)) {
                let _ = parse_bytes(&b);
                let mut v = b"(;SZ[9]".to_vec();
                v.extend(&b);
                if let Ok(rec) = parse_bytes(&v) {
                    let _ = replay(&rec, &ReplayOptions::default());
                }
            }

            #[test]
            fn on_every_truncation_and_edit(cut in 0usize..400, ins in "[\\[\\]();\\\\x]") {
                let text = super::SHORT;
                let mut k = cut.min(text.len());
                while !text.is_char_boundary(k) { k -= 1; }
                check(&text[..k]);
                let mut edited = text.to_string();
                edited.insert_str(k, &ins);
                check(&edited);
            }
        }
    }
}
