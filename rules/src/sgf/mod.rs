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
//! ## Passes
//! An empty value (`B[]`) is a pass. `tt` is the point (19, 19); old (FF\[3\])
//! records write a pass as `tt`, so on boards up to 19×19, where that point does not exist, `tt`
//! is read as a pass; on larger boards it is the point T20 of a 20×20 or 21×21 board.
//!
//! Komi and results are read in `values`, encodings in `decode`; replaying and writing live in
//! their own modules: `replay` ([`replay`]: the main line under a
//! [`RuleSet`](crate::ruleset::RuleSet)) and `write` ([`write`]: FF\[4\] text).

mod decode;
mod replay;
mod values;
mod write;

pub use decode::{decode, parse_bytes, Decoded, EncodingSource};

pub use replay::{
    dead_from_territory, replay, Agreement, DeadSource, IllegalAt, Incomparable, KomiSource, Note, Replay,
    ReplayOptions,
};
pub use values::{GameResult, Komi, KomiError, KomiUnit, UnknownResult, WinBy};
pub use write::write;

use crate::board::{Board, Color, Point};
use crate::game::Move;
use serde::{Deserialize, Serialize};
use std::fmt;

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
