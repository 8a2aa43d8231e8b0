//! The SGF grammar: game trees, nodes and properties with the line and column of each, read in
//! one pass. It knows the text's structure (`(`, `;`, identifiers, bracketed values, escapes)
//! and nothing of the game written in it.
//!
//! # Architecture Invariant
//! This module knows no Go. It names nothing else of the crate: no board, point, colour, move,
//! komi or result, and not the record built on top of it. What a property means (GM\[1\], SZ,
//! `B[pd]`) is decided above it: `record` implements [`Sink`] and turns the nodes it is handed
//! into a Go record. So the grammar can be read, tested and fuzzed on its own, and a change to
//! the Go record cannot change what counts as well-formed SGF. The test `knows_no_go` reads
//! this file and fails when its code names another module of the crate or a Go type.
//!
//! # One pass
//! [`read_tree`] walks the text once. It checks the structure of every game tree, reporting a
//! malformed file with a line and column and a typed [`SyntaxErrorKind`], and hands the nodes of
//! the first game tree's main line (the first child at every node) to a [`Sink`], one at a time,
//! as soon as each ends. Only one node is held at a time, so reading costs little beyond what the
//! sink keeps: a long record is a small multiple of its text, which admin/tests/sgf_memory.rs
//! measures. It never recurses (a deep tree cannot overflow the stack) and never panics.
//!
//! A property identifier must be letters (so `C[a [1k]] B[aa]` is refused rather than misread);
//! FF\[3\] lower-case letters are dropped ("CoPyright" → "CP"). Values are unescaped (`\]` → `]`)
//! and soft line breaks (a backslash before a newline) removed.
//!
//! # Leniencies
//! Text before the first `(` (a byte-order mark, mail headers) is skipped; text after the last
//! game tree is ignored with a warning; only the first game tree of a collection is handed over
//! (a warning says how many there were); a node that follows variations is accepted.

use serde::{Deserialize, Serialize};
use std::fmt;

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

/// A fault in the structure of the text: where and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct SyntaxError {
    pub(super) pos: Pos,
    pub(super) kind: SyntaxErrorKind,
}

/// What is wrong with the structure of the text, with the data a message needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum SyntaxErrorKind {
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
}

/// Something about the text around the first game tree that does not stop it from being read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum SyntaxWarning {
    /// Text before the first `(` (not only whitespace or a byte-order mark) was skipped.
    TextBefore { bytes: usize },
    /// Text after the last game tree was ignored.
    TextAfter,
    /// Several game trees; only the first was handed over.
    SeveralTrees { count: usize },
}

/// A property of the main line as read: identifier, where it stands, its values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Property {
    /// The identifier, FF\[3\] lower-case letters dropped ("CoPyright" → "CP").
    pub(super) ident: String,
    /// Where the identifier stands.
    pub(super) pos: Pos,
    /// The values, unescaped (`\]` → `]`, soft line breaks removed).
    pub(super) values: Vec<String>,
}

impl Property {
    /// The property as written between brackets, for messages: `AB[a][b]`.
    pub(super) fn shown(&self) -> String {
        format!("{}[{}]", self.ident, self.values.join("]["))
    }

    /// The only value, or `None` when there are several.
    pub(super) fn single(&self) -> Option<&str> {
        match self.values.as_slice() {
            [v] => Some(v.as_str()),
            _ => None,
        }
    }
}

/// A node of the first game tree's main line, as [`read_tree`] hands it to a [`Sink`].
#[derive(Debug, Clone, Copy)]
pub(super) struct Node<'a> {
    /// 0 for the root, then 1, 2, … along the main line.
    pub(super) index: usize,
    /// Its properties in the order written.
    pub(super) props: &'a [Property],
}

/// What the nodes of the main line are handed to, one at a time.
pub(super) trait Sink {
    /// The sink's own errors, which the grammar's errors become, so that reading stops with
    /// one error of one type.
    type Error: From<SyntaxError>;

    /// One node of the main line, as soon as it ends. An error stops the reading there.
    fn node(&mut self, node: Node<'_>) -> Result<(), Self::Error>;
}

/// What reading the structure found besides the main line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Structure {
    /// Game trees in the file.
    pub(super) game_trees: usize,
    /// In the order found, with where they stand when it is one place.
    pub(super) warnings: Vec<(Option<Pos>, SyntaxWarning)>,
}

/// Turns byte offsets into line and column. Queries in increasing order are cheap (the column
/// count continues from the previous query), so positions for every property of a long one-line
/// file cost linear time.
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

    fn error(&mut self, offset: usize, kind: SyntaxErrorKind) -> SyntaxError {
        SyntaxError { pos: self.pos(offset), kind }
    }
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
/// first `)`) to `sink` as soon as the node ends. Only one node is held at a time, so a long
/// record costs little beyond what the sink keeps. Never panics.
pub(super) fn read_tree<S: Sink>(text: &str, sink: &mut S) -> Result<Structure, S::Error> {
    let mut loc = Locator::new(text);
    let b = text.as_bytes();
    let n = b.len();
    let mut warnings = Vec::new();
    let Some(start) = b.iter().position(|&c| c == b'(') else {
        let e = match text.char_indices().find(|(_, c)| !c.is_whitespace() && *c != '\u{feff}') {
            None => loc.error(0, SyntaxErrorKind::Empty),
            Some((i, _)) => loc.error(i, SyntaxErrorKind::NoGameTree),
        };
        return Err(e.into());
    };
    if text[..start].chars().any(|c| !c.is_whitespace() && c != '\u{feff}') {
        warnings.push((Some(loc.pos(0)), SyntaxWarning::TextBefore { bytes: start }));
    }
    let mut i = start;
    let mut depth = 0usize;
    let mut opens: Vec<usize> = Vec::new();
    let mut prev = Prev::Nothing;
    let mut game_trees = 0usize;
    let mut main_open = true;
    // The main-line node being read: its index and properties.
    let mut current: Option<(usize, Vec<Property>)> = None;
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
                    return Err(loc.error(i, SyntaxErrorKind::TreeWithoutNode).into());
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
                    return Err(loc.error(i, SyntaxErrorKind::UnmatchedClose).into());
                }
                if prev == Prev::Open {
                    return Err(loc.error(i, SyntaxErrorKind::EmptyTree).into());
                }
                depth -= 1;
                opens.pop();
                prev = Prev::Close;
                i += 1;
                if main_open {
                    main_open = false;
                    if let Some((index, props)) = current.take() {
                        sink.node(Node { index, props: &props })?;
                    }
                }
                if depth == 0 {
                    // Between game trees: another tree, the end, or trailing text to ignore.
                    let mut j = i;
                    while j < n && b[j].is_ascii_whitespace() {
                        j += 1;
                    }
                    if j < n && b[j] != b'(' && b[j] != b')' {
                        warnings.push((Some(loc.pos(j)), SyntaxWarning::TextAfter));
                        break;
                    }
                }
            }
            b';' => {
                prev = Prev::Node;
                if main_open {
                    if let Some((index, props)) = current.take() {
                        sink.node(Node { index, props: &props })?;
                    }
                    current = Some((nodes, Vec::new()));
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
                    return Err(loc.error(id_start, SyntaxErrorKind::EndAfterIdent { ident }).into());
                }
                if b[i] != b'[' {
                    let ch = text[i..].chars().next().unwrap_or('?');
                    let ident = ident_raw.to_string();
                    return Err(loc.error(i, SyntaxErrorKind::ExpectedValue { ident, found: ch }).into());
                }
                if prev != Prev::Node {
                    let ident = ident_raw.to_string();
                    return Err(loc.error(id_start, SyntaxErrorKind::PropertyOutsideNode { ident }).into());
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
                        return Err(loc.error(open, SyntaxErrorKind::UnclosedValue { ident }).into());
                    };
                    i = next;
                    if main_open {
                        values.push(String::from_utf8_lossy(&value).into_owned());
                    }
                }
                if let (true, Some((_, props))) = (main_open, current.as_mut()) {
                    let ident = if ident_raw.bytes().all(|c| c.is_ascii_uppercase()) {
                        ident_raw.to_string()
                    } else {
                        ident_raw.chars().filter(|c| c.is_ascii_uppercase()).collect()
                    };
                    props.push(Property { ident, pos: loc.pos(id_start), values });
                }
            }
            b']' => {
                return Err(loc.error(i, SyntaxErrorKind::StrayBracket).into());
            }
            b'[' => return Err(loc.error(i, SyntaxErrorKind::ValueWithoutIdent).into()),
            _ => {
                let ch = text[i..].chars().next().unwrap_or('?');
                let after_value = text[..i].trim_end().ends_with(']');
                return Err(loc.error(i, SyntaxErrorKind::UnexpectedChar { found: ch, after_value }).into());
            }
        }
    }
    if depth > 0 {
        let open = opens.last().copied().unwrap_or(start);
        let open = loc.pos(open);
        return Err(loc.error(n, SyntaxErrorKind::UnclosedTree { open }).into());
    }
    if game_trees > 1 {
        warnings.push((None, SyntaxWarning::SeveralTrees { count: game_trees }));
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A property as a test sink saw it: identifier, line:column, values.
    type SeenProp = (String, String, Vec<String>);

    /// What a test sink was handed: each node's index and its properties.
    #[derive(Default)]
    struct Seen {
        nodes: Vec<(usize, Vec<SeenProp>)>,
        /// Refuse the node of this index, to see the sink's error stop the reading.
        refuse: Option<usize>,
    }

    #[derive(Debug, PartialEq)]
    enum Stop {
        Syntax(SyntaxError),
        Refused(usize),
    }

    impl From<SyntaxError> for Stop {
        fn from(e: SyntaxError) -> Stop {
            Stop::Syntax(e)
        }
    }

    impl Sink for Seen {
        type Error = Stop;

        fn node(&mut self, node: Node<'_>) -> Result<(), Stop> {
            if self.refuse == Some(node.index) {
                return Err(Stop::Refused(node.index));
            }
            let props = node.props.iter().map(|p| (p.ident.clone(), p.pos.to_string(), p.values.clone()));
            self.nodes.push((node.index, props.collect()));
            Ok(())
        }
    }

    fn read(text: &str, refuse: Option<usize>) -> (Result<Structure, Stop>, Seen) {
        let mut seen = Seen { refuse, ..Seen::default() };
        let r = read_tree(text, &mut seen);
        (r, seen)
    }

    fn prop(ident: &str, at: &str, values: &[&str]) -> SeenProp {
        (ident.to_string(), at.to_string(), values.iter().map(|v| v.to_string()).collect())
    }

    /// SGF FF\[4\] grammar: only the first game tree's main line (the first child at every
    /// node) is handed over, node by node, each property with its line and column and its values
    /// unescaped (`\]`, `\\`, a soft line break); FF\[3\] identifiers lose their lower-case letters.
    #[test]
    fn hands_over_the_main_line_node_by_node() {
        let text = "(;GaMe[1]C[a\\]b\\\\c]\n;B[aa](;W[bb]C[soft\\\nbreak])(;W[cc]))(;B[dd])";
        let (r, seen) = read(text, None);
        let s = r.unwrap();
        assert_eq!(s.game_trees, 2);
        assert_eq!(s.warnings, [(None, SyntaxWarning::SeveralTrees { count: 2 })]);
        assert_eq!(
            seen.nodes,
            [
                (0, vec![prop("GM", "1:3", &["1"]), prop("C", "1:10", &["a]b\\c"])]),
                (1, vec![prop("B", "2:2", &["aa"])]),
                (2, vec![prop("W", "2:9", &["bb"]), prop("C", "2:14", &["softbreak"])]),
            ]
        );
    }

    /// SGF FF\[4\] grammar: the sink's refusal of a node stops the reading there, before a
    /// fault further on; without it, the fault (a tree never closed) is reported at the end of
    /// the text, naming where the tree opened.
    #[test]
    fn the_sink_can_stop_the_reading() {
        let text = "(;SZ[9];B[aa];W[bb]";
        let (r, seen) = read(text, Some(1));
        assert_eq!(r, Err(Stop::Refused(1)));
        assert_eq!(seen.nodes.len(), 1);
        let (r, seen) = read(text, None);
        let start = Pos { offset: 0, line: 1, col: 1 };
        let end = Pos { offset: 19, line: 1, col: 20 };
        let kind = SyntaxErrorKind::UnclosedTree { open: start };
        assert_eq!(r, Err(Stop::Syntax(SyntaxError { pos: end, kind })));
        assert_eq!(seen.nodes.len(), 2, "the nodes before the fault were handed over");
    }

    /// SGF FF\[4\] grammar: text around the game trees (a mail header before, a signature after)
    /// is skipped, with warnings that say where it stands.
    #[test]
    fn text_around_the_trees_is_skipped_with_warnings() {
        let (r, seen) = read("From: x\n(;B[aa])\n-- sig", None);
        let s = r.unwrap();
        let after = Pos { offset: 17, line: 3, col: 1 };
        assert_eq!(
            s.warnings,
            [
                (Some(Pos { offset: 0, line: 1, col: 1 }), SyntaxWarning::TextBefore { bytes: 8 }),
                (Some(after), SyntaxWarning::TextAfter),
            ]
        );
        assert_eq!(seen.nodes, [(0, vec![prop("B", "2:3", &["aa"])])]);
    }

    /// Architecture invariant (module documentation): the grammar knows no Go. Its code names
    /// no other module of the crate (no path from the crate root, no sibling reached from the
    /// parent) and no Go type.
    #[test]
    fn knows_no_go() {
        let source = include_str!("grammar.rs");
        // The code without its comments (the documentation may name what the code must not).
        let code: Vec<&str> = source.lines().map(|l| l.split("//").next().unwrap_or("")).collect();
        let code = code.join("\n");
        // The needles are put together here, so that this test's own text does not match them.
        let (root, parent) = (["crate", "::"].concat(), ["super", "::"].concat());
        assert!(!code.contains(&root), "grammar.rs names a path from the crate root");
        for (i, _) in code.match_indices(&parent) {
            let rest = &code[i + parent.len()..];
            assert!(rest.starts_with('*'), "grammar.rs reaches past itself: {}", &rest[..rest.len().min(30)]);
        }
        // The code before its tests names no type of the game.
        let module = code.split(&["#[cfg", "(test)]"].concat()).next().unwrap_or("");
        let words: Vec<&str> = module.split(|c: char| !c.is_alphanumeric() && c != '_').collect();
        for go in
            ["Board", "Point", "Color", "Move", "Game", "Komi", "GameResult", "RuleSet", "Record", "Setup"]
        {
            assert!(!words.contains(&go), "grammar.rs names `{go}`");
        }
    }
}
