//! The Go record built on the grammar: [`parse`] reads the first game tree of a file into a
//! [`Record`]: board size (SZ, default 19, 5 to 25), komi (KM), handicap (HA), setup stones
//! (AB/AW/AE, in the root and in later nodes), the player to move (PL), the moves of the main
//! line (the first child at every node), the result (RE, typed as [`GameResult`]), the game
//! information (PB/PW/BR/WR/DT/EV/RU…) and the territory markup (TB/TW) of the end, which
//! [`replay`](super::replay()) uses to infer dead stones.
//!
//! The record is a [`Sink`] of the grammar ([`grammar::read_tree`]): it is handed the main line
//! node by node, so a bad value (a size out of range, a point that is not a point) is reported
//! where it stands, with a line and column and a typed [`SgfErrorKind`], and a long record costs
//! a small multiple of its text (about 40 bytes a move, the steps reserved once). The grammar's
//! own errors and warnings become [`SgfErrorKind`]s and [`WarningKind`]s here. Invalid values of
//! properties the record does not use are ignored.
//!
//! # Passes
//! An empty value (`B[]`) is a pass. `tt` is the point (19, 19); old (FF\[3\]) records write a
//! pass as `tt`, so on boards up to 19×19, where that point does not exist, `tt` is read as a
//! pass; on larger boards it is the point T20 of a 20×20 or 21×21 board.

use super::grammar::{self, Node, Pos, Property, Sink, SyntaxError, SyntaxErrorKind, SyntaxWarning};
use super::values::{GameResult, Komi, KomiError, UnknownResult};
use crate::board::{Board, Color, Point};
use crate::game::Move;
use serde::{Deserialize, Serialize};

/// A file that cannot be read as a Go record: where (line and column) and why, as a typed
/// [`SgfErrorKind`] that the caller words in its reader's language.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SgfError {
    pub pos: Pos,
    pub kind: SgfErrorKind,
}

/// Why a file cannot be read, with the data a message needs. Property values are as written
/// (`shown`: `AB[aa][zz]`), identifiers as in the file. The kinds from `Empty` to `UnclosedTree`
/// are faults of the text's structure, found by the grammar; from `GameTwice` on, values the Go
/// record cannot take.
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

impl From<SyntaxError> for SgfError {
    /// The grammar's refusal, as the record's: the same place, the same kind.
    fn from(e: SyntaxError) -> SgfError {
        use SgfErrorKind as K;
        use SyntaxErrorKind as S;
        let kind = match e.kind {
            S::Empty => K::Empty,
            S::NoGameTree => K::NoGameTree,
            S::TreeWithoutNode => K::TreeWithoutNode,
            S::UnmatchedClose => K::UnmatchedClose,
            S::EmptyTree => K::EmptyTree,
            S::EndAfterIdent { ident } => K::EndAfterIdent { ident },
            S::ExpectedValue { ident, found } => K::ExpectedValue { ident, found },
            S::PropertyOutsideNode { ident } => K::PropertyOutsideNode { ident },
            S::UnclosedValue { ident } => K::UnclosedValue { ident },
            S::StrayBracket => K::StrayBracket,
            S::ValueWithoutIdent => K::ValueWithoutIdent,
            S::UnexpectedChar { found, after_value } => K::UnexpectedChar { found, after_value },
            S::UnclosedTree { open } => K::UnclosedTree { open },
        };
        SgfError { pos: e.pos, kind }
    }
}

impl From<SyntaxWarning> for WarningKind {
    fn from(w: SyntaxWarning) -> WarningKind {
        match w {
            SyntaxWarning::TextBefore { bytes } => WarningKind::TextBefore { bytes },
            SyntaxWarning::TextAfter => WarningKind::TextAfter,
            SyntaxWarning::SeveralTrees { count } => WarningKind::SeveralTrees { count },
        }
    }
}

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
    /// The encoding the file was read in ([`decode`](super::decode())): "UTF-8", "GBK",
    /// "gb18030", "Big5", …
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
/// One pass over the text (the grammar's `read_tree`) checks the structure and hands the main line
/// to the record node by node, so the record costs a small multiple of the text.
pub fn parse(text: &str) -> Result<Record, SgfError> {
    let mut b = Builder::new(text);
    let structure = grammar::read_tree(text, &mut b)?;
    // The structure's warnings come first (their positions are earlier or unknown).
    let mut warnings: Vec<Warning> =
        structure.warnings.into_iter().map(|(pos, w)| Warning { pos, kind: w.into() }).collect();
    warnings.append(&mut b.warnings);
    let mut rec = b.finish(&mut warnings);
    rec.game_trees = structure.game_trees;
    rec.warnings = warnings;
    Ok(rec)
}

/// The record being built from the main line's nodes as [`grammar::read_tree`] hands them over.
struct Builder {
    rec: Record,
    handicap_given: bool,
    /// Where HA stands in the root, for the warning about set-up stones.
    ha_at: Option<Pos>,
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
            ha_at: None,
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
    fn root(&mut self, props: &[Property]) -> Result<(), SgfError> {
        let find = |ident: &str| props.iter().find(|p| p.ident == ident);
        let gms: Vec<&Property> = props.iter().filter(|p| p.ident == "GM").collect();
        if let Some(second) = gms.get(1) {
            return Err(second.refused(SgfErrorKind::GameTwice));
        }
        if let Some(gm) = gms.first() {
            let v: Vec<&str> = gm.values.iter().map(String::as_str).collect();
            match v.as_slice() {
                [one] if one.trim().parse::<i32>().is_ok() => {
                    if one.trim() != "1" {
                        let value = one.to_string();
                        return Err(gm.refused(SgfErrorKind::NotGo { value }));
                    }
                }
                _ => return Err(gm.refused(SgfErrorKind::BadGame { value: v.join("][") })),
            }
        }
        if let Some(sz) = find("SZ") {
            self.rec.size = board_size(sz).map_err(|m| sz.refused(m))?;
        }
        if let Some(km) = find("KM") {
            self.rec.komi = match km.values.as_slice() {
                [one] if one.trim().is_empty() => None,
                [one] => Some(Komi::from_km(one).map_err(|e| km.refused(SgfErrorKind::Komi(e)))?),
                _ => return Err(km.refused(SgfErrorKind::KomiValues)),
            };
        }
        if let Some(ha) = find("HA") {
            self.ha_at = Some(ha.pos);
            let t = ha.values.first().map(|s| s.trim().to_string()).unwrap_or_default();
            if !t.is_empty() {
                self.handicap_given = true;
                self.rec.handicap = match t.parse::<u64>() {
                    Ok(h) if h <= u64::from(u8::MAX) => h as u8,
                    Ok(h) => return Err(ha.refused(SgfErrorKind::HandicapOutOfRange { value: h })),
                    Err(_) => return Err(ha.refused(SgfErrorKind::HandicapNotNumber { value: t })),
                };
            }
        }
        if let Some(ff) = find("FF") {
            match ff.single().and_then(|v| v.trim().parse::<u32>().ok()) {
                Some(v) if v < 3 => self.warn(Some(ff.pos), WarningKind::OldFormat { ff: v }),
                Some(_) => {}
                None => self.warn(Some(ff.pos), WarningKind::Ignored { shown: ff.shown() }),
            }
        }
        let text_of = |ident: &str| -> Option<String> {
            let v = find(ident)?.values.first()?.as_str();
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
                    self.warn(find("RE").map(|p| p.pos), WarningKind::UnknownResult { text });
                }
            }
        }
        Ok(())
    }

    /// One node of the main line: its setup, player to move, move and territory markup.
    fn read_node(&mut self, k: usize, props: &[Property]) -> Result<(), SgfError> {
        if k == 0 {
            self.root(props)?;
        }
        let size = self.rec.size;
        let mut setup = Setup::default();
        let mut setup_at: [Option<Pos>; 3] = [None; 3];
        let mut to_move: Option<Color> = None;
        let mut mv: Option<(Color, Move, Pos)> = None;
        for p in props {
            match p.ident.as_str() {
                id @ ("AB" | "AW" | "AE") => {
                    let pts = point_list(p)
                        .ok_or_else(|| p.refused(SgfErrorKind::NotPoints { shown: p.shown() }))?;
                    if let Some(off) = pts.iter().find(|q| !rec_contains(size, **q)) {
                        let (ident, point) = (id.to_string(), off.sgf());
                        return Err(p.refused(SgfErrorKind::SetupOffBoard { ident, point, size }));
                    }
                    let (target, slot) = match id {
                        "AB" => (&mut setup.black, 0),
                        "AW" => (&mut setup.white, 1),
                        _ => (&mut setup.empty, 2),
                    };
                    target.extend(pts);
                    setup_at[slot].get_or_insert(p.pos);
                }
                "PL" => {
                    to_move = Some(match p.single().map(str::trim) {
                        Some("B" | "b") => Color::Black,
                        Some("W" | "w") => Color::White,
                        _ => return Err(p.refused(SgfErrorKind::BadPlayer { shown: p.shown() })),
                    })
                }
                id @ ("B" | "W") => {
                    let color = if id == "B" { Color::Black } else { Color::White };
                    let m = p
                        .single()
                        .and_then(|v| sgf_move(v, size))
                        .ok_or_else(|| p.refused(SgfErrorKind::NotAMove { shown: p.shown() }))?;
                    if mv.is_some() {
                        return Err(p.refused(SgfErrorKind::TwoMoves));
                    }
                    mv = Some((color, m, p.pos));
                }
                id @ ("TB" | "TW") => {
                    let Some(pts) = point_list(p) else {
                        self.warn(Some(p.pos), WarningKind::Ignored { shown: p.shown() });
                        continue;
                    };
                    if pts.iter().any(|q| !rec_contains(size, *q)) {
                        let ident = id.to_string();
                        self.warn(Some(p.pos), WarningKind::TerritoryOffBoard { ident });
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
        if k == 0 {
            self.rec.setup = setup;
            self.rec.to_move = to_move;
        } else if !setup.is_empty() {
            // A later setup stands where its first AB (else AW, else AE) does.
            let at = setup_at[0].or(setup_at[1]).or(setup_at[2]);
            self.rec.steps.push(Step { action: Action::Setup { setup: Box::new(setup), to_move }, at });
        }
        if let Some((color, m, pos)) = mv {
            self.rec.steps.push(Step { action: Action::Move { color, mv: m }, at: Some(pos) });
        }
        Ok(())
    }

    /// The territory, and the handicap checked against the root's stones.
    fn finish(self, warnings: &mut Vec<Warning>) -> Record {
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
            warnings.push(Warning { pos: self.ha_at, kind });
        }
        rec
    }
}

impl Sink for Builder {
    type Error = SgfError;

    fn node(&mut self, node: Node<'_>) -> Result<(), SgfError> {
        self.read_node(node.index, node.props)
    }
}

impl Property {
    /// The record's refusal of this property, where it stands.
    fn refused(&self, kind: SgfErrorKind) -> SgfError {
        SgfError { pos: self.pos, kind }
    }
}

/// SZ\[n\] (square boards only; `n:n` accepted), 5 to 25.
fn board_size(sz: &Property) -> Result<u8, SgfErrorKind> {
    let v = sz.values.join("][");
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
fn point_list(p: &Property) -> Option<Vec<Point>> {
    let mut out = Vec::new();
    for v in &p.values {
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
    use super::super::tests::p;
    use super::super::{parse_bytes, replay, ReplayOptions};
    use super::*;

    fn err(text: &str) -> SgfError {
        parse(text).expect_err("should be refused")
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
