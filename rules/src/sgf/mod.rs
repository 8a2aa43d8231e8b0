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
//! One reader, one pass ([`read_tree`]): it checks the structure of every game tree, reporting a
//! malformed file with a line and column and a typed [`SgfErrorKind`], and hands the nodes of the first
//! game tree's main line, one at a time, to the record being built, so that a bad value (a size
//! out of range, a point that is not a point) is reported where it stands and a long record
//! costs a small multiple of its text (about 40 bytes a move; issue 14 item 8). A property
//! identifier must be letters (so `C[a [1k]] B[aa]` is refused rather than misread).
//!
//! Leniencies: text before the first `(` (a byte-order mark, mail headers) is skipped; text after
//! the last game tree is ignored with a warning; only the first game tree of a collection is read
//! (a warning says how many there were); a node that follows variations is accepted. Invalid
//! values of properties the record does not use are ignored.
//!
//! ## Encodings
//! [`parse_bytes`] decodes the file first ([`decode`], encoding_rs): in the encoding its CA\[\]
//! names (GB2312, GBK, GB18030, Big5, UTF-8, Latin-1…), else UTF-8 when the bytes are UTF-8,
//! else the encoding Mozilla's detector (chardetng) finds — old Chinese records in GBK or Big5
//! often have no CA\[\]. [`Record::encoding`] says which was read.
//!
//! ## Passes
//! An empty value (`B[]`) is a pass. `tt` is the point (19, 19); old (FF\[3\])
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
//! Replaying and writing live in their own modules: `replay` ([`replay`]: the main line under a
//! [`RuleSet`](crate::ruleset::RuleSet)) and `write` ([`write`]: FF\[4\] text).

mod replay;
mod write;

pub use replay::{
    dead_from_territory, replay, Agreement, DeadSource, IllegalAt, Incomparable, KomiSource, Note, Replay,
    ReplayOptions,
};
pub use write::write;

use crate::board::{Board, Color, Point};
use crate::game::Move;
use crate::outcome;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
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

/// A file that cannot be read as a Go record: where (line and column) and why, as a typed
/// [`SgfErrorKind`] that the caller words in its reader's language.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SgfError {
    pub pos: Pos,
    pub kind: SgfErrorKind,
}

/// Why a file cannot be read, with the data a message needs. Property values are as written
/// (`shown`: `AB[aa][zz]`), identifiers as in the file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum SgfErrorKind {
    /// Nothing but whitespace.
    Empty,
    /// Text without any `(`.
    NoGameTree,
    /// `((`: a game tree must start with a node.
    TreeWithoutNode,
    /// `)` without its `(`.
    UnmatchedClose,
    /// `()`.
    EmptyTree,
    /// The file ends right after a property identifier.
    EndAfterIdent { ident: String },
    /// Something other than `[` after an identifier.
    ExpectedValue { ident: String, found: char },
    /// A property before the first `;` of a tree.
    PropertyOutsideNode { ident: String },
    /// A `[` of `ident` never closed.
    UnclosedValue { ident: String },
    /// A `]` outside any value (an unescaped `]` inside one, most often).
    StrayBracket,
    /// A `[` without an identifier before it.
    ValueWithoutIdent,
    /// A character that has no place here; `after_value` when it follows a value's `]`.
    UnexpectedChar { found: char, after_value: bool },
    /// The file ends inside a game tree: the `(` at `open` is never closed.
    UnclosedTree { open: Pos },
    /// GM twice in the root.
    GameTwice,
    /// GM names another game than Go.
    NotGo { value: String },
    /// GM is not a number.
    BadGame { value: String },
    /// SZ\[w:h\] with w ≠ h.
    NonSquare { width: String, height: String },
    /// SZ is not a number.
    NotASize { value: String },
    /// SZ is a number outside `min..=max`.
    SizeOutOfRange { size: String, min: u8, max: u8 },
    /// KM cannot be read as komi.
    Komi(KomiError),
    /// KM with several values.
    KomiValues,
    /// HA above 255.
    HandicapOutOfRange { value: u64 },
    /// HA not a number.
    HandicapNotNumber { value: String },
    /// AB/AW/AE whose value is not a list of points.
    NotPoints { shown: String },
    /// AB/AW/AE naming a point off the board.
    SetupOffBoard { ident: String, point: String, size: u8 },
    /// PL other than B or W.
    BadPlayer { shown: String },
    /// B/W whose value is not a move.
    NotAMove { shown: String },
    /// B and W (or B twice) in one node.
    TwoMoves,
}

/// Why a KM value is not komi (see the module documentation's heuristic).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "problem")]
pub enum KomiError {
    NotANumber {
        text: String,
    },
    /// An integer of 100 or more (hundredths of a stone) that is not a multiple of 25.
    HundredthsNotQuarters {
        text: String,
    },
    /// Neither a multiple of ½ point nor of ¼ stone.
    NotAMultiple {
        text: String,
    },
    /// More than 50 stones either way.
    OutOfRange {
        text: String,
    },
}

/// Something in a record worth knowing that does not stop it from being read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Warning {
    pub pos: Option<Pos>,
    pub kind: WarningKind,
}

/// What a [`Warning`] is about, with its data.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum WarningKind {
    /// Text before the first `(` (not only whitespace or a byte-order mark) was skipped.
    TextBefore { bytes: usize },
    /// Text after the last game tree was ignored.
    TextAfter,
    /// Several game trees; only the first was read.
    SeveralTrees { count: usize },
    /// FF\[1\] or FF\[2\], read as FF\[4\].
    OldFormat { ff: u32 },
    /// A property with an invalid value that the record can do without (FF, TB, TW).
    Ignored { shown: String },
    /// RE that this reader does not understand (kept as text).
    UnknownResult { text: String },
    /// TB/TW naming points off the board (those points were left out).
    TerritoryOffBoard { ident: String },
    /// No HA: the handicap was taken from the black stones set up in the root.
    HandicapInferred { handicap: u8, stones: usize },
    /// HA does not match the number of black stones set up in the root.
    HandicapMismatch { handicap: u8, stones: usize },
    /// Bytes invalid in `encoding` were replaced.
    BytesReplaced { encoding: String },
    /// No CA\[\] and not UTF-8: the encoding was guessed.
    EncodingGuessed { encoding: String },
}

/// RE\[\] that is not a result this reader knows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownResult(pub String);

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

    fn error(&mut self, offset: usize, kind: SgfErrorKind) -> SgfError {
        SgfError { pos: self.pos(offset), kind }
    }
}

// ---------------------------------------------------------------------------------------------
// The reader: structure, positions and the main line in one pass
// ---------------------------------------------------------------------------------------------

/// A property of the main line as read: identifier, where it stands, its values.
#[derive(Debug, Clone, PartialEq, Eq)]
struct RawProp {
    /// The identifier, FF\[3\] lower-case letters dropped ("CoPyright" → "CP").
    ident: String,
    /// Byte offset of the identifier.
    at: usize,
    /// The values, unescaped (`\]` → `]`, soft line breaks removed), each with the byte offset
    /// of its `[`.
    values: Vec<(String, usize)>,
}

impl RawProp {
    /// The values as written between brackets, for messages: `a][b`.
    fn shown(&self) -> String {
        let v: Vec<&str> = self.values.iter().map(|(v, _)| v.as_str()).collect();
        format!("{}[{}]", self.ident, v.join("]["))
    }

    /// The only value, or `None` when there are several.
    fn single(&self) -> Option<&str> {
        match self.values.as_slice() {
            [(v, _)] => Some(v.as_str()),
            _ => None,
        }
    }
}

/// What reading the structure found besides the main line.
struct Structure {
    game_trees: usize,
    warnings: Vec<(Option<usize>, WarningKind)>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Prev {
    Nothing,
    Open,
    Close,
    Node,
}

/// Walk the text once: check the structure of every game tree (errors name the line and column
/// of the fault) and hand each node of the first game tree's main line (the nodes before its
/// first `)`) to `node`, with its index, the offset of its `;` and its properties, as soon as
/// the node ends. Only one node is held at a time, so a long record costs little beyond what
/// `node` keeps. Never panics.
fn read_tree(
    text: &str,
    loc: &mut Locator<'_>,
    mut node: impl FnMut(usize, usize, Vec<RawProp>, &mut Locator<'_>) -> Result<(), SgfError>,
) -> Result<Structure, SgfError> {
    let b = text.as_bytes();
    let n = b.len();
    let mut warnings = Vec::new();
    let Some(start) = b.iter().position(|&c| c == b'(') else {
        return Err(match text.char_indices().find(|(_, c)| !c.is_whitespace() && *c != '\u{feff}') {
            None => loc.error(0, SgfErrorKind::Empty),
            Some((i, _)) => loc.error(i, SgfErrorKind::NoGameTree),
        });
    };
    if text[..start].chars().any(|c| !c.is_whitespace() && c != '\u{feff}') {
        warnings.push((Some(0), WarningKind::TextBefore { bytes: start }));
    }
    let mut i = start;
    let mut depth = 0usize;
    let mut opens: Vec<usize> = Vec::new();
    let mut prev = Prev::Nothing;
    let mut game_trees = 0usize;
    let mut main_open = true;
    // The main-line node being read: its index, offset and properties.
    let mut current: Option<(usize, usize, Vec<RawProp>)> = None;
    let mut nodes = 0usize;
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
                    return Err(loc.error(i, SgfErrorKind::TreeWithoutNode));
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
                    return Err(loc.error(i, SgfErrorKind::UnmatchedClose));
                }
                if prev == Prev::Open {
                    return Err(loc.error(i, SgfErrorKind::EmptyTree));
                }
                depth -= 1;
                opens.pop();
                prev = Prev::Close;
                i += 1;
                if main_open {
                    main_open = false;
                    if let Some((k, at, props)) = current.take() {
                        node(k, at, props, loc)?;
                    }
                }
                if depth == 0 {
                    // Between game trees: another tree, the end, or trailing text to ignore.
                    let mut j = i;
                    while j < n && b[j].is_ascii_whitespace() {
                        j += 1;
                    }
                    if j < n && b[j] != b'(' && b[j] != b')' {
                        warnings.push((Some(j), WarningKind::TextAfter));
                        break;
                    }
                }
            }
            b';' => {
                prev = Prev::Node;
                if main_open {
                    if let Some((k, at, props)) = current.take() {
                        node(k, at, props, loc)?;
                    }
                    current = Some((nodes, i, Vec::new()));
                    nodes += 1;
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
                    let ident = ident_raw.to_string();
                    return Err(loc.error(id_start, SgfErrorKind::EndAfterIdent { ident }));
                }
                if b[i] != b'[' {
                    let ch = text[i..].chars().next().unwrap_or('?');
                    let ident = ident_raw.to_string();
                    return Err(loc.error(i, SgfErrorKind::ExpectedValue { ident, found: ch }));
                }
                if prev != Prev::Node {
                    let ident = ident_raw.to_string();
                    return Err(loc.error(id_start, SgfErrorKind::PropertyOutsideNode { ident }));
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
                    let (value, next) = read_value(b, i + 1, main_open);
                    let Some(next) = next else {
                        let ident = ident_raw.to_string();
                        return Err(loc.error(open, SgfErrorKind::UnclosedValue { ident }));
                    };
                    i = next;
                    if main_open {
                        values.push((String::from_utf8_lossy(&value).into_owned(), open));
                    }
                }
                if let (true, Some((_, _, props))) = (main_open, current.as_mut()) {
                    let ident = if ident_raw.bytes().all(|c| c.is_ascii_uppercase()) {
                        ident_raw.to_string()
                    } else {
                        ident_raw.chars().filter(|c| c.is_ascii_uppercase()).collect()
                    };
                    props.push(RawProp { ident, at: id_start, values });
                }
            }
            b']' => {
                return Err(loc.error(i, SgfErrorKind::StrayBracket));
            }
            b'[' => return Err(loc.error(i, SgfErrorKind::ValueWithoutIdent)),
            _ => {
                let ch = text[i..].chars().next().unwrap_or('?');
                let after_value = text[..i].trim_end().ends_with(']');
                return Err(loc.error(i, SgfErrorKind::UnexpectedChar { found: ch, after_value }));
            }
        }
    }
    if depth > 0 {
        let open = opens.last().copied().unwrap_or(start);
        let open = loc.pos(open);
        return Err(loc.error(n, SgfErrorKind::UnclosedTree { open }));
    }
    if game_trees > 1 {
        warnings.push((None, WarningKind::SeveralTrees { count: game_trees }));
    }
    Ok(Structure { game_trees, warnings })
}

/// Read a property value from just after its `[`: the unescaped bytes (kept only when `keep`)
/// and the offset just after its `]`, or `None` when it is never closed.
fn read_value(b: &[u8], mut i: usize, keep: bool) -> (Vec<u8>, Option<usize>) {
    let n = b.len();
    let mut value: Vec<u8> = Vec::new();
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
                if keep {
                    value.push(b[i + 1]);
                }
                i += 2;
            }
            b']' => return (value, Some(i + 1)),
            c => {
                if keep {
                    value.push(c);
                }
                i += 1;
            }
        }
    }
    (value, None)
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
    pub fn from_km(text: &str) -> Result<Komi, KomiError> {
        let t = || text.to_string();
        let h = parse_hundredths(text).ok_or_else(|| KomiError::NotANumber { text: t() })?;
        let (quarters, unit) = if h % 100 == 0 && h.abs() >= 100 * 100 {
            let v = h / 100;
            if v % 25 != 0 {
                return Err(KomiError::HundredthsNotQuarters { text: t() });
            }
            (v / 25, KomiUnit::HundredthsOfStones)
        } else if h % 50 == 0 {
            (h / 50, KomiUnit::Points)
        } else if h % 25 == 0 {
            (h / 25, KomiUnit::Stones)
        } else {
            return Err(KomiError::NotAMultiple { text: t() });
        };
        if quarters.abs() > 4 * 50 {
            return Err(KomiError::OutOfRange { text: t() });
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
    type Err = UnknownResult;

    /// Reads the SGF forms (B+R, B+Resign, W+T, W+Time, B+F, B+Forfeit, B+3.5, B+, 0, Draw, Jigo,
    /// Void, ?) case-insensitively, and the common Chinese forms (黑中盘胜, 白超时胜, 黑胜3又3/4子,
    /// 白胜7.5目, 黑胜, 和棋, 无胜负).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        let bad = || UnknownResult(s.to_string());
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
    /// Setup in a later node (AB/AW/AE), with PL if the node has one. Boxed: setups are rare
    /// and a step is one per move of a long record.
    Setup { setup: Box<Setup>, to_move: Option<Color> },
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
    /// The encoding the file was read in ([`decode`]): "UTF-8", "GBK", "gb18030", "Big5", …
    #[serde(default = "utf8_name")]
    pub encoding: String,
}

fn utf8_name() -> String {
    "UTF-8".to_string()
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
            encoding: utf8_name(),
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

/// A file's text and the encoding it was read in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded<'a> {
    pub text: Cow<'a, str>,
    /// The encoding's name as encoding_rs knows it ("UTF-8", "GBK", "gb18030", "Big5", …).
    pub encoding: &'static str,
    /// How it was chosen.
    pub source: EncodingSource,
    /// Bytes that are not valid in that encoding were replaced (U+FFFD).
    pub replaced: bool,
}

/// How the encoding of a record was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EncodingSource {
    /// The CA\[\] property of the root.
    Declared,
    /// Valid UTF-8 (no CA\[\], or one naming an encoding unknown to encoding_rs).
    Utf8,
    /// Guessed from the bytes (Mozilla's detector, chardetng): no usable CA\[\] and not UTF-8.
    Detected,
}

/// The label of a CA\[\] property before the first game tree's first `;`…`(` ends, read from the
/// raw bytes (CA's value is ASCII in every encoding).
fn declared_charset(bytes: &[u8]) -> Option<&str> {
    // CA belongs to the root node: look in the first 4 KB, where headers stand.
    let head = &bytes[..bytes.len().min(4096)];
    let mut i = 0;
    while let Some(k) = head[i..].windows(3).position(|w| w == b"CA[") {
        let at = i + k;
        // A whole identifier: not the tail of a longer one (e.g. "PCA[").
        if at == 0 || !head[at - 1].is_ascii_alphabetic() {
            let rest = &head[at + 3..];
            let end = rest.iter().position(|&c| c == b']')?;
            return std::str::from_utf8(&rest[..end]).ok().map(str::trim);
        }
        i = at + 3;
    }
    None
}

/// Decode a record's bytes: the encoding CA\[\] names (GB2312, GBK, GB18030, Big5, UTF-8,
/// Latin-1, … as encoding_rs reads their labels); without a usable CA\[\], UTF-8 when the bytes
/// are UTF-8, else the encoding Mozilla's detector (chardetng) finds — old Chinese records
/// from servers and programs in GBK or Big5 rarely say so. A byte-order mark wins over both.
pub fn decode(bytes: &[u8]) -> Decoded<'_> {
    use encoding_rs::{Encoding, UTF_8};
    let declared = declared_charset(bytes).and_then(|l| Encoding::for_label(l.as_bytes()));
    let (encoding, source) = match declared {
        Some(e) if e != UTF_8 || std::str::from_utf8(bytes).is_ok() => (e, EncodingSource::Declared),
        _ if std::str::from_utf8(bytes).is_ok() => (UTF_8, EncodingSource::Utf8),
        _ => {
            let mut d = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
            d.feed(bytes, true);
            // Not UTF-8 (checked above); a Chinese event's files are most often GBK, so a tie
            // between GBK and Big5 goes to GBK (the .cn hint).
            (d.guess(Some(b"cn"), chardetng::Utf8Detection::Deny), EncodingSource::Detected)
        }
    };
    let (text, used, replaced) = encoding.decode(bytes);
    Decoded { text, encoding: used.name(), source, replaced }
}

/// Read a file's bytes in its encoding ([`decode`]): UTF-8, or what CA\[\] says, or what the
/// bytes look like (GBK, Big5), with a warning when the encoding was guessed or bytes had to
/// be replaced. [`Record::encoding`] names the encoding read.
pub fn parse_bytes(bytes: &[u8]) -> Result<Record, SgfError> {
    let d = decode(bytes);
    let mut rec = parse(&d.text)?;
    let encoding = d.encoding.to_string();
    if d.replaced {
        let kind = WarningKind::BytesReplaced { encoding: encoding.clone() };
        rec.warnings.insert(0, Warning { pos: None, kind });
    }
    if d.source == EncodingSource::Detected {
        let kind = WarningKind::EncodingGuessed { encoding: encoding.clone() };
        rec.warnings.insert(0, Warning { pos: None, kind });
    }
    rec.encoding = d.encoding.to_string();
    Ok(rec)
}

/// Parse SGF text into a [`Record`] (the first game tree). Errors carry the line and column.
/// One pass over the text ([`read_tree`]) checks the structure and reads the main line node by
/// node, so the record costs a small multiple of the text (issue 14 item 8).
pub fn parse(text: &str) -> Result<Record, SgfError> {
    let mut loc = Locator::new(text);
    let mut b = Builder::new(text);
    let structure = read_tree(text, &mut loc, |k, at, props, loc| b.node(k, at, &props, loc))?;
    let mut warnings: Vec<Warning> = Vec::new();
    // The structure's warnings come first (their offsets are earlier or unknown).
    let mut loc = Locator::new(text);
    for (at, kind) in structure.warnings {
        warnings.push(Warning { pos: at.map(|o| loc.pos(o)), kind });
    }
    warnings.append(&mut b.warnings);
    let mut rec = b.finish(&mut loc, &mut warnings);
    rec.game_trees = structure.game_trees;
    rec.warnings = warnings;
    Ok(rec)
}

/// The record being built from the main line's nodes as [`read_tree`] hands them over.
struct Builder {
    rec: Record,
    handicap_given: bool,
    /// Offset of HA in the root, for the warning about set-up stones.
    ha_at: usize,
    territory_b: Option<Vec<Point>>,
    territory_w: Option<Vec<Point>>,
    warnings: Vec<Warning>,
}

/// Most warnings kept (a damaged file could hold one per node).
const MAX_WARNINGS: usize = 100;

impl Builder {
    fn new(text: &str) -> Builder {
        let mut rec = Record::new(19);
        // One step per main-line node at most: a node is at least `;B[]`, and there are no
        // more nodes than `;`. Reserved once, so the steps never grow by copying.
        let semicolons = text.bytes().filter(|&c| c == b';').count();
        rec.steps.reserve_exact(semicolons.min(text.len() / 4 + 1));
        Builder {
            rec,
            handicap_given: false,
            ha_at: 0,
            territory_b: None,
            territory_w: None,
            warnings: Vec::new(),
        }
    }

    fn warn(&mut self, pos: Option<Pos>, kind: WarningKind) {
        if self.warnings.len() < MAX_WARNINGS {
            self.warnings.push(Warning { pos, kind });
        }
    }

    /// The root's game information, size, komi and handicap.
    fn root(&mut self, props: &[RawProp], loc: &mut Locator<'_>) -> Result<(), SgfError> {
        let find = |ident: &str| props.iter().find(|p| p.ident == ident);
        let gms: Vec<&RawProp> = props.iter().filter(|p| p.ident == "GM").collect();
        if let Some(second) = gms.get(1) {
            return Err(loc.error(second.at, SgfErrorKind::GameTwice));
        }
        if let Some(gm) = gms.first() {
            let v: Vec<&str> = gm.values.iter().map(|(v, _)| v.as_str()).collect();
            match v.as_slice() {
                [one] if one.trim().parse::<i32>().is_ok() => {
                    if one.trim() != "1" {
                        let value = one.to_string();
                        return Err(loc.error(gm.at, SgfErrorKind::NotGo { value }));
                    }
                }
                _ => return Err(loc.error(gm.at, SgfErrorKind::BadGame { value: v.join("][") })),
            }
        }
        if let Some(sz) = find("SZ") {
            self.rec.size = board_size(sz).map_err(|m| loc.error(sz.at, m))?;
        }
        if let Some(km) = find("KM") {
            self.rec.komi = match km.values.as_slice() {
                [(one, _)] if one.trim().is_empty() => None,
                [(one, _)] => Some(Komi::from_km(one).map_err(|e| loc.error(km.at, SgfErrorKind::Komi(e)))?),
                _ => return Err(loc.error(km.at, SgfErrorKind::KomiValues)),
            };
        }
        if let Some(ha) = find("HA") {
            self.ha_at = ha.at;
            let t = ha.values.first().map(|(s, _)| s.trim().to_string()).unwrap_or_default();
            if !t.is_empty() {
                self.handicap_given = true;
                self.rec.handicap = match t.parse::<u64>() {
                    Ok(h) if h <= u64::from(u8::MAX) => h as u8,
                    Ok(h) => return Err(loc.error(ha.at, SgfErrorKind::HandicapOutOfRange { value: h })),
                    Err(_) => return Err(loc.error(ha.at, SgfErrorKind::HandicapNotNumber { value: t })),
                };
            }
        }
        if let Some(ff) = find("FF") {
            match ff.single().and_then(|v| v.trim().parse::<u32>().ok()) {
                Some(v) if v < 3 => self.warn(Some(loc.pos(ff.at)), WarningKind::OldFormat { ff: v }),
                Some(_) => {}
                None => self.warn(Some(loc.pos(ff.at)), WarningKind::Ignored { shown: ff.shown() }),
            }
        }
        let text_of = |ident: &str| -> Option<String> {
            let v = find(ident)?.values.first()?.0.as_str();
            let s: String = v.chars().map(|c| if c.is_whitespace() { ' ' } else { c }).collect();
            let s = s.trim();
            (!s.is_empty()).then(|| s.to_string())
        };
        self.rec.info = GameInfo {
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
        self.rec.result_text = text_of("RE");
        if let Some(t) = self.rec.result_text.clone() {
            match t.parse::<GameResult>() {
                Ok(r) => self.rec.result = Some(r),
                Err(UnknownResult(text)) => {
                    let at = find("RE").map_or(0, |p| p.at);
                    self.warn(Some(loc.pos(at)), WarningKind::UnknownResult { text });
                }
            }
        }
        Ok(())
    }

    /// One node of the main line: its setup, player to move, move and territory markup.
    fn node(
        &mut self,
        k: usize,
        _at: usize,
        props: &[RawProp],
        loc: &mut Locator<'_>,
    ) -> Result<(), SgfError> {
        if k == 0 {
            self.root(props, loc)?;
        }
        let size = self.rec.size;
        let mut setup = Setup::default();
        let mut setup_at: [Option<usize>; 3] = [None; 3];
        let mut to_move: Option<Color> = None;
        let mut mv: Option<(Color, Move, usize)> = None;
        for p in props {
            match p.ident.as_str() {
                id @ ("AB" | "AW" | "AE") => {
                    let pts = point_list(p)
                        .ok_or_else(|| loc.error(p.at, SgfErrorKind::NotPoints { shown: p.shown() }))?;
                    if let Some(off) = pts.iter().find(|q| !rec_contains(size, **q)) {
                        let (ident, point) = (id.to_string(), off.sgf());
                        return Err(loc.error(p.at, SgfErrorKind::SetupOffBoard { ident, point, size }));
                    }
                    let (target, slot) = match id {
                        "AB" => (&mut setup.black, 0),
                        "AW" => (&mut setup.white, 1),
                        _ => (&mut setup.empty, 2),
                    };
                    target.extend(pts);
                    setup_at[slot].get_or_insert(p.at);
                }
                "PL" => {
                    to_move = Some(match p.single().map(str::trim) {
                        Some("B" | "b") => Color::Black,
                        Some("W" | "w") => Color::White,
                        _ => return Err(loc.error(p.at, SgfErrorKind::BadPlayer { shown: p.shown() })),
                    })
                }
                id @ ("B" | "W") => {
                    let color = if id == "B" { Color::Black } else { Color::White };
                    let m = p
                        .single()
                        .and_then(|v| sgf_move(v, size))
                        .ok_or_else(|| loc.error(p.at, SgfErrorKind::NotAMove { shown: p.shown() }))?;
                    if mv.is_some() {
                        return Err(loc.error(p.at, SgfErrorKind::TwoMoves));
                    }
                    mv = Some((color, m, p.at));
                }
                id @ ("TB" | "TW") => {
                    let Some(pts) = point_list(p) else {
                        self.warn(Some(loc.pos(p.at)), WarningKind::Ignored { shown: p.shown() });
                        continue;
                    };
                    if pts.iter().any(|q| !rec_contains(size, *q)) {
                        let ident = id.to_string();
                        self.warn(Some(loc.pos(p.at)), WarningKind::TerritoryOffBoard { ident });
                    }
                    let mut pts: Vec<Point> = pts.into_iter().filter(|q| rec_contains(size, *q)).collect();
                    sort_points(&mut pts);
                    if id == "TB" {
                        self.territory_b = Some(pts);
                    } else {
                        self.territory_w = Some(pts);
                    }
                }
                _ => {}
            }
        }
        for v in [&mut setup.black, &mut setup.white, &mut setup.empty] {
            sort_points(v);
        }
        // Positions asked in increasing order, so that the locator only counts forward.
        let setup_off =
            (k > 0 && !setup.is_empty()).then(|| setup_at[0].or(setup_at[1]).or(setup_at[2]).unwrap_or(0));
        let mv_off = mv.map(|(_, _, at)| at);
        let (setup_pos, mv_pos) = match (setup_off, mv_off) {
            (Some(s), Some(m)) if m < s => {
                let mp = loc.pos(m);
                (Some(loc.pos(s)), Some(mp))
            }
            (s, m) => {
                let sp = s.map(|s| loc.pos(s));
                (sp, m.map(|m| loc.pos(m)))
            }
        };
        if k == 0 {
            self.rec.setup = setup;
            self.rec.to_move = to_move;
        } else if let Some(pos) = setup_pos {
            self.rec
                .steps
                .push(Step { action: Action::Setup { setup: Box::new(setup), to_move }, at: Some(pos) });
        }
        if let (Some((color, m, _)), Some(pos)) = (mv, mv_pos) {
            self.rec.steps.push(Step { action: Action::Move { color, mv: m }, at: Some(pos) });
        }
        Ok(())
    }

    /// The territory, and the handicap checked against the root's stones.
    fn finish(self, loc: &mut Locator<'_>, warnings: &mut Vec<Warning>) -> Record {
        let mut rec = self.rec;
        if self.territory_b.is_some() || self.territory_w.is_some() {
            rec.territory = Some(Territory {
                black: self.territory_b.unwrap_or_default(),
                white: self.territory_w.unwrap_or_default(),
            });
        }
        let ab = rec.setup.black.len();
        if !self.handicap_given && ab >= 2 && rec.setup.white.is_empty() {
            rec.handicap = u8::try_from(ab).unwrap_or(u8::MAX);
            let kind = WarningKind::HandicapInferred { handicap: rec.handicap, stones: ab };
            warnings.push(Warning { pos: None, kind });
        } else if self.handicap_given && rec.handicap >= 2 && ab != 0 && ab != usize::from(rec.handicap) {
            let kind = WarningKind::HandicapMismatch { handicap: rec.handicap, stones: ab };
            warnings.push(Warning { pos: Some(loc.pos(self.ha_at)), kind });
        }
        rec
    }
}

/// SZ\[n\] (square boards only; `n:n` accepted), 5 to 25.
fn board_size(sz: &RawProp) -> Result<u8, SgfErrorKind> {
    let v = sz.values.iter().map(|(v, _)| v.as_str()).collect::<Vec<_>>().join("][");
    let mut parts = v.split(':').map(str::trim);
    let first = parts.next().unwrap_or("").to_string();
    let second = parts.next();
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
    if let Some(h) = second {
        if digits(&first) && digits(h) && parts.next().is_none() && first != h {
            return Err(SgfErrorKind::NonSquare { width: first, height: h.to_string() });
        }
    }
    if !digits(&first) || second.is_some_and(|h| h != first) {
        return Err(SgfErrorKind::NotASize { value: v });
    }
    let (min, max) = (crate::board::MIN_SIZE, crate::board::MAX_SIZE);
    match first.parse::<u8>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(SgfErrorKind::SizeOutOfRange { size: first, min, max }),
    }
}

/// A move value: empty is a pass, `tt` too on boards up to 19×19; else a point (`a`–`z`,
/// `A`–`Z`), which may be off the board (the replay refuses it there).
fn sgf_move(v: &str, size: u8) -> Option<Move> {
    if v.is_empty() {
        return Some(Move::Pass);
    }
    let p = Point::from_sgf(v)?;
    Some(if size <= 19 && p.x == 19 && p.y == 19 { Move::Pass } else { Move::Play(p) })
}

/// A list of points (`aa`, and `aa:cc` for the rectangle between two corners); `None` when a
/// value is not one.
fn point_list(p: &RawProp) -> Option<Vec<Point>> {
    let mut out = Vec::new();
    for (v, _) in &p.values {
        match v.split_once(':') {
            None => out.push(Point::from_sgf(v)?),
            Some((a, b)) => {
                let (a, b) = (Point::from_sgf(a)?, Point::from_sgf(b)?);
                for y in a.y.min(b.y)..=a.y.max(b.y) {
                    for x in a.x.min(b.x)..=a.x.max(b.x) {
                        out.push(Point::new(x, y));
                    }
                }
            }
        }
    }
    (!out.is_empty()).then_some(out)
}

/// Points in board order (row by row), each once.
fn sort_points(v: &mut Vec<Point>) {
    v.sort_by_key(|p| (p.y, p.x));
    v.dedup();
}

fn rec_contains(size: u8, p: Point) -> bool {
    p.x < size && p.y < size
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn p(s: &str) -> Point {
        Point::from_sgf(s).unwrap()
    }

    fn err(text: &str) -> SgfError {
        parse(text).expect_err("should be refused")
    }

    /// A 9×9 game: two walls, an invasion captured, two passes. Black 36, White 36, 9 dame.
    pub(super) const SHORT: &str =
        "(;GM[1]FF[4]CA[UTF-8]SZ[9]KM[7]RU[Chinese]PB[Black Player]PW[White Player]RE[W+7]
        ;B[da];W[fa];B[db];W[fb];B[dc];W[fc];B[dd];W[fd];B[de];W[fe];B[df];W[ff]
        ;B[dg];W[fg];B[dh];W[fh];B[di];W[fi];B[bb];W[aa];B[ab];W[ha];B[ba];W[];B[])";

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
        use SgfErrorKind as K;
        let st = |x: &str| x.to_string();
        let start = Pos { offset: 0, line: 1, col: 1 };
        let size = |n: &str| K::SizeOutOfRange { size: st(n), min: 5, max: 25 };
        let cases: Vec<(&str, (u32, u32), SgfErrorKind)> = vec![
            ("", (1, 1), K::Empty),
            ("   \n  ", (1, 1), K::Empty),
            ("hello", (1, 1), K::NoGameTree),
            ("(;GM[1]SZ[19]\n;B[pd]\n;W[dd\n", (3, 3), K::UnclosedValue { ident: st("W") }),
            ("(;GM[1]\n;B[pd];W[dd]", (2, 13), K::UnclosedTree { open: start }),
            ("(;B[pd]))", (1, 9), K::UnmatchedClose),
            ("(B[pd])", (1, 2), K::PropertyOutsideNode { ident: st("B") }),
            ("(;C[user [12k]: hi];B[aa])", (1, 15), K::UnexpectedChar { found: ':', after_value: true }),
            ("(;B[aa]]", (1, 8), K::StrayBracket),
            ("(;GM[1]\n  SZ[30];B[aa])", (2, 3), size("30")),
            ("(;SZ[99999999999999999999])", (1, 3), size("99999999999999999999")),
            ("(;SZ[abc])", (1, 3), K::NotASize { value: st("abc") }),
            ("(;SZ[4])", (1, 3), size("4")),
            ("(;SZ[19:13])", (1, 3), K::NonSquare { width: st("19"), height: st("13") }),
            ("(;KM[abc])", (1, 3), K::Komi(KomiError::NotANumber { text: st("abc") })),
            ("(;KM[5.4])", (1, 3), K::Komi(KomiError::NotAMultiple { text: st("5.4") })),
            ("(;KM[1][2])", (1, 3), K::KomiValues),
            ("(;HA[x])", (1, 3), K::HandicapNotNumber { value: st("x") }),
            ("(;HA[300])", (1, 3), K::HandicapOutOfRange { value: 300 }),
            ("(;GM[2]SZ[8])", (1, 3), K::NotGo { value: st("2") }),
            ("(;GM[x])", (1, 3), K::BadGame { value: st("x") }),
            ("(;GM[1]GM[1])", (1, 8), K::GameTwice),
            ("(;FF[4]\n;B[pd]\n;W[z])", (3, 2), K::NotAMove { shown: st("W[z]") }),
            ("(;SZ[9];B[aa]W[bb])", (1, 14), K::TwoMoves),
            ("(;SZ[9]AB[aa][zz])", (1, 8), K::SetupOffBoard { ident: st("AB"), point: st("zz"), size: 9 }),
            ("(;PB[柯洁]\n;B[aa]\n;W[bb]", (3, 7), K::UnclosedTree { open: start }),
            ("(;PB[柯洁]C[x]];B[aa])", (1, 13), K::StrayBracket),
            ("((;B[aa]))", (1, 2), K::TreeWithoutNode),
            ("(;B[aa]())", (1, 9), K::EmptyTree),
            ("(;B[aa]B1[bb])", (1, 9), K::ExpectedValue { ident: st("B"), found: '1' }),
            ("(;B", (1, 3), K::EndAfterIdent { ident: st("B") }),
            ("(;B[aa] \u{0}", (1, 9), K::UnexpectedChar { found: '\0', after_value: true }),
            ("(;B[aa] ?", (1, 9), K::UnexpectedChar { found: '?', after_value: true }),
            ("(;[aa])", (1, 3), K::ValueWithoutIdent),
        ];
        for (text, (line, col), kind) in cases {
            let e = err(text);
            assert_eq!((e.pos.line, e.pos.col), (line, col), "{text:?}: {e:?}");
            assert_eq!(e.kind, kind, "{text:?}");
        }
    }

    #[test]
    fn lenient_about_surroundings() {
        let rec = parse("\u{feff}(;GM[1]SZ[9];B[ee])").unwrap();
        assert!(rec.warnings.is_empty(), "{:?}", rec.warnings);
        let rec = parse("From: someone\n\n(;SZ[9];B[ee])\n-- \nsignature").unwrap();
        assert_eq!(rec.move_count(), 1);
        let kinds: Vec<&WarningKind> = rec.warnings.iter().map(|w| &w.kind).collect();
        assert_eq!(kinds, [&WarningKind::TextBefore { bytes: 15 }, &WarningKind::TextAfter]);
        let rec = parse("(;SZ[9];B[ee])(;SZ[13];B[aa])").unwrap();
        assert_eq!((rec.size, rec.game_trees), (9, 2));
        assert_eq!(rec.warnings[0].kind, WarningKind::SeveralTrees { count: 2 });
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
        // not UTF-8 (and no CA[]): read in the encoding the bytes look like, with a warning
        let mut bytes = b"(;SZ[9]PB[".to_vec();
        bytes.extend([0xc0, 0xee, 0xb6, 0xfe]);
        bytes.extend(b"];B[ee])");
        let rec = parse_bytes(&bytes).unwrap();
        assert_eq!(rec.move_count(), 1);
        assert!(matches!(rec.warnings[0].kind, WarningKind::EncodingGuessed { .. }), "{:?}", rec.warnings);
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

    fn hex(s: &str) -> Vec<u8> {
        (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
    }

    /// `(;CA[..]PB[..]PW[..]C[..];B[pd];W[dp])` with the names and comment as raw bytes.
    fn record_bytes(ca: &str, black: &[u8], white: &[u8], comment: &[u8]) -> Vec<u8> {
        let mut b = b"(;GM[1]FF[4]".to_vec();
        if !ca.is_empty() {
            b.extend(format!("CA[{ca}]").bytes());
        }
        for (id, v) in [("PB", black), ("PW", white), ("C", comment)] {
            b.extend(id.bytes());
            b.push(b'[');
            b.extend(v);
            b.push(b']');
        }
        b.extend(b"SZ[19];B[pd];W[dp])");
        b
    }

    #[test]
    fn records_in_gb2312_gbk_gb18030_and_big5_are_decoded() {
        // 柯洁, 古力 in GBK (GB2312 characters); 中国围棋天元赛 as the comment.
        let (kejie, guli, comment) = (hex("bfc2bde0"), hex("b9c5c1a6"), hex("d6d0b9facea7c6e5ccecd4aac8fc"));
        for ca in ["GB2312", "GBK", "gb18030", "GB18030", "gbk"] {
            let rec = parse_bytes(&record_bytes(ca, &kejie, &guli, &comment)).unwrap();
            assert_eq!(
                (rec.info.black.as_deref(), rec.info.white.as_deref()),
                (Some("柯洁"), Some("古力")),
                "{ca}"
            );
            assert!(rec.warnings.is_empty(), "{ca}: {:?}", rec.warnings);
            assert_eq!(rec.move_count(), 2);
        }
        // Declared but missing: detected from the bytes, with a warning.
        let rec = parse_bytes(&record_bytes("", &kejie, &guli, &comment)).unwrap();
        assert_eq!(rec.info.black.as_deref(), Some("柯洁"));
        assert_eq!(rec.encoding, "GBK");
        assert_eq!(rec.warnings[0].kind, WarningKind::EncodingGuessed { encoding: "GBK".into() });
        // Big5: 柯潔, 聶衛平, and a comment 黑棋勝.
        let (b_kejie, b_nie) = (hex("ac5fbce4"), hex("c2bfbdc3a5ad"));
        let rec = parse_bytes(&record_bytes("Big5", &b_kejie, &b_nie, &hex("b6c2b4d1b3d3"))).unwrap();
        assert_eq!((rec.info.black.as_deref(), rec.info.white.as_deref()), (Some("柯潔"), Some("聶衛平")));
        assert_eq!(rec.encoding, "Big5");
        // A Big5 character whose second byte is a backslash (許 = B3 5C) or a bracket is one
        // character, not an escape: the file is read as its encoding, not byte by byte.
        let rec = parse_bytes(&record_bytes("Big5", &hex("b35ca55c"), &b_nie, b"")).unwrap();
        assert_eq!(rec.info.black.as_deref(), Some("許功"));
        assert_eq!(rec.move_count(), 2);
        // A CA[] that says UTF-8 of a file that is not: read by the bytes instead.
        let rec = parse_bytes(&record_bytes("UTF-8", &kejie, &guli, &comment)).unwrap();
        assert_eq!(rec.info.black.as_deref(), Some("柯洁"));
        // UTF-8 without CA[] stays UTF-8, quietly.
        let rec = parse_bytes(&record_bytes("", "柯洁".as_bytes(), "古力".as_bytes(), b"")).unwrap();
        assert_eq!((rec.info.black.as_deref(), rec.encoding.as_str()), (Some("柯洁"), "UTF-8"));
        assert!(rec.warnings.is_empty());
        // A declared encoding's invalid bytes are replaced, and said so.
        let rec = parse_bytes(&record_bytes("GBK", &[0xbf, b' '], &guli, b"")).unwrap();
        let replaced = WarningKind::BytesReplaced { encoding: "GBK".into() };
        assert!(rec.warnings.iter().any(|w| w.kind == replaced), "{:?}", rec.warnings);
        assert_eq!(rec.move_count(), 2);
    }

    #[test]
    fn ca_is_found_as_a_whole_identifier() {
        assert_eq!(declared_charset(b"(;GM[1]CA[GB2312]"), Some("GB2312"));
        assert_eq!(declared_charset(b"(;PCA[x]CA[Big5]"), Some("Big5"));
        assert_eq!(declared_charset(b"(;GM[1]"), None);
        assert_eq!(declared_charset(b"(;CA[GBK"), None);
    }

    #[test]
    fn point_lists_and_sizes_read_without_sgf_parse() {
        let rec = parse("(;SZ[9]AB[aa:bb][ee]AW[cc];B[])").unwrap();
        assert_eq!(rec.setup.black, vec![p("aa"), p("ba"), p("ab"), p("bb"), p("ee")]);
        assert_eq!(rec.setup.white, vec![p("cc")]);
        assert_eq!(rec.moves().next(), Some((Color::Black, Move::Pass)));
        assert_eq!(parse("(;SZ[13:13])").unwrap().size, 13);
        let rec = parse("(;SZ[19];B[tt];W[pd])").unwrap();
        assert_eq!(rec.moves().next(), Some((Color::Black, Move::Pass)));
        assert_eq!(err("(;SZ[9]AB[])").kind, SgfErrorKind::NotPoints { shown: "AB[]".into() });
        assert_eq!(err("(;SZ[9]PL[X])").kind, SgfErrorKind::BadPlayer { shown: "PL[X]".into() });
        assert_eq!(err("(;SZ[9];B[aa][bb])").kind, SgfErrorKind::NotAMove { shown: "B[aa][bb]".into() });
    }
}
