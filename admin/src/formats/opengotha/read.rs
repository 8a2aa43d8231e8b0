//! OpenGotha tournament files (`.xml`, as written by OpenGotha 3.x): players, games, byes, and
//! the event's own parameters ([`OgParams`]).
//!
//! What is read, and how:
//! - `<Tournament dataVersion>`: the root must be `Tournament`. Files that declare a
//!   `dataVersion` below 201 store ratings 2050 lower; they are shifted as OpenGotha does.
//! - `<TournamentParameterSet><GeneralParameterSet name shortName numberOfRounds>`.
//! - `<Players><Player name firstName rank grade rating club country participating
//!   registeringStatus>`: `rank` (falling back to `grade`) is parsed with [`Rank::parse`]
//!   (" 2D", "12K"); a name or first name with Chinese characters goes to the Chinese name
//!   fields, otherwise to the Latin ones; `club` becomes the unit and `country` the region;
//!   ratings are clamped to OpenGotha's −900..=2949 as OpenGotha does on import. The player key
//!   is OpenGotha's: name and first name joined, spaces removed, upper-cased ("VANNIERREMI",
//!   "马超"). `participating` has one `0`/`1` per round (OpenGotha always writes 20); it is cut
//!   or padded (with "participating") to the number of rounds.
//! - `<Games><Game roundNumber tableNumber blackPlayer whitePlayer handicap knownColor result>`:
//!   player keys must name players of the file (matched exactly, else after removing spaces
//!   and upper-casing); `handicap`, `knownColor` and `result` default to 0, true and
//!   `RESULT_UNKNOWN` as in OpenGotha. `tableNumber` is kept as written (1 = first table).
//! - `<ByePlayers><ByePlayer player roundNumber>`.
//! - `numberOfCategories` and the `<Category number lowerLimit>` elements (anywhere in the
//!   parameter set, as OpenGotha's own reader finds them): the categories by rank,
//!   [`OgParams::category_list`].
//! - The number of rounds is `numberOfRounds`, raised to the highest round that has a game or a
//!   bye (OpenGotha does the same on import).
//!
//! - The event's parameters ([`OgParams`], attribute names and units as OpenGotha's
//!   `GeneralParameterSet`/`HandicapParameterSet` write them): `location`, `director`,
//!   `beginDate`/`endDate` (YYYY-MM-DD), `komi` (points, "7.5"), `size`, `basicTime` (minutes),
//!   `complementaryTimeSystem` with `stdByoYomiTime`, `nbMovesCanTime`/`canByoYomiTime`,
//!   `fischerTime` (seconds), `genMMBar`/`genMMFloor` (ranks), the bye and absence values (half
//!   points), `hdBasedOnMMS`, `hdCeiling`, `hdCorrection`, `hdNoHdRankThreshold`, the placement
//!   criteria (whose main one, MMS or NBW, tells a McMahon event from a Swiss one, as
//!   OpenGotha's `PlacementParameterSet.mainCriterion` does), and per player
//!   `smmsCorrection`. These are read leniently: a value that cannot be read is kept in
//!   [`OgParams::unreadable`] and the import goes on ([`super::settings`] lists it
//!   as not imported).
//!
//! Teams and pairing weights are ignored. Any problem with players, games or byes stops the
//! import with an [`OgError`] that says where (line and column) and what, in English and
//! Chinese; malformed input never panics.

use crate::domain::entrant::{has_cjk, EntrantInput, FieldError, Rank, MIN_RATING};
use chrono::NaiveDate;
use quick_xml::events::{BytesStart, Event};
use quick_xml::{Reader, XmlVersion};
use std::collections::{HashMap, HashSet};
use std::fmt;

/// Largest accepted file (an OpenGotha file of 1000 players and 10 rounds is about 1 MB).
pub const MAX_XML_BYTES: usize = 8 * 1024 * 1024;
/// Highest accepted round number.
pub const MAX_ROUNDS: u32 = 99;
/// OpenGotha's highest rating; higher ratings are clamped on import, as OpenGotha does.
pub const OPENGOTHA_MAX_RATING: i32 = 2949;

/// A tournament read from an OpenGotha file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OgTournament {
    /// `GeneralParameterSet name`, if present and not empty.
    pub name: Option<String>,
    /// `GeneralParameterSet shortName`, if present and not empty.
    pub short_name: Option<String>,
    /// Number of rounds (see the module docs); `None` when the file has no parameters, games or
    /// byes to tell.
    pub rounds: Option<u32>,
    pub players: Vec<OgPlayer>,
    pub games: Vec<OgGame>,
    pub byes: Vec<OgBye>,
    /// The event's own parameters.
    pub params: OgParams,
}

impl OgTournament {
    /// The position of each player key in `players`.
    pub fn index(&self) -> HashMap<&str, usize> {
        self.players.iter().enumerate().map(|(i, p)| (p.key.as_str(), i)).collect()
    }

    /// (round, player index) for every round a player does not take part in (`participating`
    /// is 0) and has neither a game nor a bye in: the rounds pairing must leave them out of.
    pub fn absences(&self) -> Vec<(u32, usize)> {
        let index = self.index();
        let mut playing: HashSet<(u32, usize)> = HashSet::new();
        for g in &self.games {
            for k in [&g.black_key, &g.white_key] {
                if let Some(&i) = index.get(k.as_str()) {
                    playing.insert((g.round, i));
                }
            }
        }
        for b in &self.byes {
            if let Some(&i) = index.get(b.player_key.as_str()) {
                playing.insert((b.round, i));
            }
        }
        let mut out = Vec::new();
        for (i, p) in self.players.iter().enumerate() {
            for (r, &takes_part) in p.participating.iter().enumerate() {
                let round = r as u32 + 1;
                if !takes_part && !playing.contains(&(round, i)) {
                    out.push((round, i));
                }
            }
        }
        out
    }
}

/// OpenGotha's time system after the basic time (`complementaryTimeSystem`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OgTimeSystem {
    /// SUDDENDEATH: the basic time only.
    SuddenDeath,
    /// STDBYOYOMI: one byo-yomi period of `seconds` (`stdByoYomiTime`).
    StdByoYomi { seconds: u32 },
    /// CANBYOYOMI: `moves` (`nbMovesCanTime`) in each period of `seconds` (`canByoYomiTime`).
    Canadian { moves: u32, seconds: u32 },
    /// FISCHER: `seconds` (`fischerTime`) added after each move.
    Fischer { seconds: u32 },
}

/// OpenGotha's handicap parameters (`HandicapParameterSet`): handicap = difference of ranks
/// (or of McMahon scores) − `correction`, at most `ceiling`; ranks above `threshold` count as
/// `threshold` (OpenGotha's `Tournament.gameBetween`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OgHandicapParams {
    pub based_on_mms: bool,
    /// 0: even games.
    pub ceiling: u8,
    /// 0..=3, or −1 (OpenGotha's "increased by 1").
    pub correction: i8,
    pub threshold: Rank,
}

/// The main placement criterion: what OpenGotha ranks and pairs by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OgMainCriterion {
    /// NBW, number of wins: a Swiss event.
    Wins,
    /// MMS, McMahon score: a McMahon event.
    McMahonScore,
}

/// The event's parameters as the file states them; `None` where the file says nothing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OgParams {
    pub location: Option<String>,
    pub director: Option<String>,
    pub begin: Option<NaiveDate>,
    pub end: Option<NaiveDate>,
    /// Komi in quarter stones (= half points: 7.5 points is 15).
    pub komi_q: Option<i32>,
    pub size: Option<u32>,
    pub basic_minutes: Option<u32>,
    pub time: Option<OgTimeSystem>,
    pub mm_bar: Option<Rank>,
    pub mm_floor: Option<Rank>,
    /// What a bye scores, in half points, for Swiss (NBW) and McMahon (MMS) placement.
    pub nbw_bye: Option<u8>,
    pub mms_bye: Option<u8>,
    /// What a round a player is absent from scores, in half points.
    pub nbw_absent: Option<u8>,
    pub mms_absent: Option<u8>,
    /// `genCountNotPlayedGamesAsHalfPoint`: SOS counts a not played game as half a point.
    pub count_not_played_as_half: Option<bool>,
    pub categories: Option<u32>,
    /// `<Category number lowerLimit>`: the weakest rank of category `number` (1 = the
    /// strongest), for every category but the last, as OpenGotha writes them.
    pub category_limits: Vec<(u32, Rank)>,
    pub handicap: Option<OgHandicapParams>,
    /// The placement criteria as written, without the empty ones ("NULL").
    pub placement: Vec<String>,
    /// Whether the file has OpenGotha's pairing weights (`PairingParameterSet`).
    pub pairing_weights: bool,
    /// Players whose starting McMahon score is corrected by hand (`smmsCorrection` ≠ 0).
    pub smms_corrected: usize,
    /// Attributes whose value could not be read: (element.attribute, value).
    pub unreadable: Vec<(String, String)>,
}

impl OgParams {
    /// The main criterion as OpenGotha finds it: the first NBW or MMS among the placement
    /// criteria (NBW when there is neither); `None` when the file has no placement criteria.
    pub fn main_criterion(&self) -> Option<OgMainCriterion> {
        if self.placement.is_empty() {
            return None;
        }
        let main = self.placement.iter().find_map(|c| match c.as_str() {
            "NBW" => Some(OgMainCriterion::Wins),
            "MMS" => Some(OgMainCriterion::McMahonScore),
            _ => None,
        });
        Some(main.unwrap_or(OgMainCriterion::Wins))
    }
}

/// One of OpenGotha's categories: the ranks it takes, both ends included (`None`: no bound).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OgCategory {
    pub lowest: Option<Rank>,
    pub highest: Option<Rank>,
}

impl OgParams {
    /// The file's categories, the strongest first, when it has more than one and states every
    /// lower limit (strictly falling); empty otherwise (one field). A player is in the first
    /// category whose lower limit their rank reaches, else in the last (OpenGotha's
    /// `Player.category`).
    pub fn category_list(&self) -> Vec<OgCategory> {
        let n = self.categories.unwrap_or(1);
        if n < 2 {
            return Vec::new();
        }
        let mut limits = Vec::new();
        for number in 1..n {
            match self.category_limits.iter().find(|(k, _)| *k == number) {
                Some((_, r)) => limits.push(*r),
                None => return Vec::new(),
            }
        }
        if limits.windows(2).any(|w| w[1].value() >= w[0].value()) {
            return Vec::new();
        }
        (0..n as usize)
            .map(|c| OgCategory {
                lowest: limits.get(c).copied(),
                highest: c.checked_sub(1).and_then(|p| Rank::from_value(limits[p].value() - 1)),
            })
            .collect()
    }
}

impl OgCategory {
    /// Whether a player of rank `r` is in this category.
    pub fn admits(&self, r: Rank) -> bool {
        self.lowest.is_none_or(|l| r.value() >= l.value())
            && self.highest.is_none_or(|h| r.value() <= h.value())
    }
}

/// One player, with the key games and byes use to refer to them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OgPlayer {
    /// Normalised and validated.
    pub entrant: EntrantInput,
    /// OpenGotha's player key, e.g. "VANNIERREMI".
    pub key: String,
    /// One entry per round (round 1 first): whether the player takes part in that round.
    pub participating: Vec<bool>,
    pub registration: OgRegistration,
}

/// OpenGotha's `registeringStatus`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OgRegistration {
    /// "FIN": finally registered (also the default).
    Final,
    /// "PRE": pre-registered, not yet confirmed.
    Preliminary,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OgGame {
    /// 1-based round.
    pub round: u32,
    /// Table (board) number as written in the file; OpenGotha's first table is 1.
    pub table: u32,
    pub black_key: String,
    pub white_key: String,
    /// Handicap stones, 0..=9 (0 = even game).
    pub handicap: u8,
    /// Whether the colours are known (false when the game was entered without colours).
    pub known_color: bool,
    pub result: OgResult,
}

/// A player who has a bye in a round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OgBye {
    pub round: u32,
    pub player_key: String,
}

/// A game's result code, the store's and OpenGotha's vocabulary (the `games.result` column):
/// the domain's, so that the store reads its own column without this module.
pub use crate::domain::results::{OgOutcome, OgResult};

/// OpenGotha's komi text ("7.5", "-0.5", "6,5") in quarter stones: points × 2, which must be a
/// whole number of half points.
pub fn komi_from_points(text: &str) -> Option<i32> {
    let t = text.trim().replace(',', ".");
    let (neg, t) = match t.strip_prefix('-') {
        Some(rest) => (true, rest.to_string()),
        None => (false, t),
    };
    let halves = i32::try_from(rules::outcome::parse_half_points(&t).ok()?).ok()?;
    Some(if neg { -halves } else { halves })
}

/// OpenGotha's player key: name and first name joined, spaces removed, upper-cased.
pub fn player_key(name: &str, first_name: &str) -> String {
    format!("{name}{first_name}").replace(' ', "").to_uppercase()
}

// ---------------------------------------------------------------------------------------------
// Errors

/// Where in the file: 1-based line and column (in characters), and the byte offset in the
/// decoded (UTF-8) text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextPosition {
    pub line: usize,
    pub column: usize,
    pub byte_offset: usize,
}

impl TextPosition {
    fn in_text(text: &str, offset: usize) -> TextPosition {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let before = &text[..offset];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = before[line_start..].chars().count() + 1;
        TextPosition { line, column, byte_offset: offset }
    }
}

/// Which side of a game, or a bye, refers to a player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OgRole {
    Black,
    White,
    Bye,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OgErrorKind {
    Empty,
    TooLarge {
        max: usize,
    },
    /// The bytes are not valid in the file's encoding.
    Encoding {
        encoding: String,
    },
    /// Not well-formed XML; `detail` is the XML parser's message (English).
    Xml {
        detail: String,
    },
    /// Elements nested deeper than `max` (OpenGotha nests four deep; deeper nesting is refused
    /// rather than followed, so a hostile file cannot exhaust the stack).
    TooDeep {
        max: usize,
    },
    /// The file ends while `open` is still open.
    Truncated {
        open: String,
    },
    WrongRoot {
        found: String,
    },
    NoRoot,
    MissingAttribute {
        element: String,
        attribute: &'static str,
    },
    BadAttribute {
        element: String,
        attribute: &'static str,
        value: String,
    },
    BadRank {
        player: String,
        value: String,
    },
    InvalidPlayer {
        player: String,
        errors: Vec<FieldError>,
    },
    DuplicatePlayer {
        key: String,
    },
    UnknownPlayer {
        key: String,
        role: OgRole,
    },
    SamePlayer {
        key: String,
    },
    PlayerTwiceInRound {
        key: String,
        round: u32,
    },
}

/// Why an OpenGotha file cannot be imported, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OgError {
    pub kind: OgErrorKind,
    pub position: Option<TextPosition>,
}

impl OgError {
    fn new(kind: OgErrorKind) -> Self {
        OgError { kind, position: None }
    }
    fn at(text: &str, offset: usize, kind: OgErrorKind) -> Self {
        OgError { kind, position: Some(TextPosition::in_text(text, offset)) }
    }
}

impl fmt::Display for OgError {
    /// In English from the catalog (`Lang::og_error`), for logs and the command line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::i18n::Lang::En.og_error(self))
    }
}

impl std::error::Error for OgError {}

// ---------------------------------------------------------------------------------------------
// Decoding

/// The encoding named in `<?xml … encoding="…"?>`, if any.
fn declared_encoding(bytes: &[u8]) -> Option<&'static encoding_rs::Encoding> {
    let head = &bytes[..bytes.len().min(256)];
    if !head.starts_with(b"<?xml") {
        return None;
    }
    let end = head.windows(2).position(|w| w == b"?>")?;
    let decl = std::str::from_utf8(&head[..end]).ok()?;
    let rest = &decl[decl.find("encoding")? + "encoding".len()..];
    let rest = rest.trim_start().strip_prefix('=')?.trim_start();
    let quote = rest.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let label = rest[1..].split(quote).next()?;
    encoding_rs::Encoding::for_label(label.trim().as_bytes())
}

fn decode(bytes: &[u8]) -> Result<String, OgError> {
    if bytes.len() > MAX_XML_BYTES {
        return Err(OgError::new(OgErrorKind::TooLarge { max: MAX_XML_BYTES }));
    }
    let with = |enc: &'static encoding_rs::Encoding, b: &[u8]| {
        enc.decode_without_bom_handling_and_without_replacement(b)
            .map(|s| s.into_owned())
            .ok_or_else(|| OgError::new(OgErrorKind::Encoding { encoding: enc.name().to_string() }))
    };
    let text = if let Some(rest) = bytes.strip_prefix(b"\xFF\xFE") {
        with(encoding_rs::UTF_16LE, rest)?
    } else if let Some(rest) = bytes.strip_prefix(b"\xFE\xFF") {
        with(encoding_rs::UTF_16BE, rest)?
    } else {
        let b = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        match declared_encoding(b) {
            Some(enc)
                if enc != encoding_rs::UTF_8
                    && enc != encoding_rs::UTF_16LE
                    && enc != encoding_rs::UTF_16BE =>
            {
                with(enc, b)?
            }
            _ => match std::str::from_utf8(b) {
                Ok(s) => s.to_string(),
                Err(e) => {
                    // Report where: the valid prefix tells the line and column.
                    let valid = std::str::from_utf8(&b[..e.valid_up_to()]).unwrap_or("");
                    return Err(OgError::at(
                        valid,
                        valid.len(),
                        OgErrorKind::Encoding { encoding: "UTF-8".into() },
                    ));
                }
            },
        }
    };
    if text.trim().is_empty() {
        return Err(OgError::new(OgErrorKind::Empty));
    }
    Ok(text)
}

// ---------------------------------------------------------------------------------------------
// Parsing

struct Element<'t> {
    name: String,
    offset: usize,
    attrs: Vec<(String, String)>,
    text: &'t str,
}

impl Element<'_> {
    fn get(&self, attribute: &str) -> Option<&str> {
        self.attrs.iter().find(|(k, _)| k == attribute).map(|(_, v)| v.as_str())
    }
    fn error(&self, kind: OgErrorKind) -> OgError {
        OgError::at(self.text, self.offset, kind)
    }
    fn required(&self, attribute: &'static str) -> Result<&str, OgError> {
        self.get(attribute).ok_or_else(|| {
            self.error(OgErrorKind::MissingAttribute { element: self.name.clone(), attribute })
        })
    }
    fn bad(&self, attribute: &'static str, value: &str) -> OgError {
        self.error(OgErrorKind::BadAttribute {
            element: self.name.clone(),
            attribute,
            value: value.chars().take(40).collect(),
        })
    }
    fn number<T: std::str::FromStr>(&self, attribute: &'static str, value: &str) -> Result<T, OgError> {
        value.trim().parse::<T>().map_err(|_| self.bad(attribute, value))
    }
    fn round(&self, attribute: &'static str) -> Result<u32, OgError> {
        let v = self.required(attribute)?;
        let round: u32 = self.number(attribute, v)?;
        if (1..=MAX_ROUNDS).contains(&round) {
            Ok(round)
        } else {
            Err(self.bad(attribute, v))
        }
    }
}

fn element<'t>(text: &'t str, offset: usize, e: &BytesStart<'_>) -> Result<Element<'t>, OgError> {
    let name = e.name().as_ref().to_string();
    let mut attrs = Vec::new();
    for a in e.attributes() {
        let a = a.map_err(|err| OgError::at(text, offset, OgErrorKind::Xml { detail: err.to_string() }))?;
        let key = a.key.as_ref().to_string();
        let value = a
            .normalized_value(XmlVersion::Implicit1_0)
            .map_err(|err| OgError::at(text, offset, OgErrorKind::Xml { detail: err.to_string() }))?;
        attrs.push((key, value.into_owned()));
    }
    Ok(Element { name, offset, attrs, text })
}

struct RawPlayer {
    player: OgPlayer,
    offset: usize,
}

struct RawGame {
    game: OgGame,
    offset: usize,
}

struct RawBye {
    bye: OgBye,
    offset: usize,
}

fn read_player(el: &Element<'_>, legacy_ratings: bool, today: NaiveDate) -> Result<RawPlayer, OgError> {
    let name = el.required("name")?.trim().to_string();
    let first_name = el.get("firstName").unwrap_or("").trim().to_string();
    let key = player_key(&name, &first_name);
    let shown = format!("{name} {first_name}").trim().to_string();
    let rank_text = el.get("rank").filter(|r| !r.trim().is_empty()).or_else(|| el.get("grade"));
    let rank_text = rank_text.ok_or_else(|| {
        el.error(OgErrorKind::MissingAttribute { element: el.name.clone(), attribute: "rank" })
    })?;
    let rank = Rank::parse(rank_text).map_err(|_| {
        el.error(OgErrorKind::BadRank { player: shown.clone(), value: rank_text.chars().take(40).collect() })
    })?;
    let rating = match el.get("rating").map(str::trim).filter(|r| !r.is_empty()) {
        None => None,
        Some(r) => {
            let mut v: i32 = el.number("rating", r)?;
            if legacy_ratings {
                v = v.saturating_add(2050);
            }
            Some(v.clamp(MIN_RATING, OPENGOTHA_MAX_RATING))
        }
    };
    let participating_text = el.get("participating").unwrap_or("");
    let participating = participating_text
        .trim()
        .chars()
        .map(|c| match c {
            '0' => Ok(false),
            '1' => Ok(true),
            _ => Err(el.bad("participating", participating_text)),
        })
        .collect::<Result<Vec<bool>, OgError>>()?;
    let registration = match el.get("registeringStatus").map(str::trim) {
        None | Some("FIN") | Some("") => OgRegistration::Final,
        Some("PRE") => OgRegistration::Preliminary,
        Some(other) => return Err(el.bad("registeringStatus", other)),
    };

    let mut entrant = EntrantInput::new(rank);
    if has_cjk(&name) || has_cjk(&first_name) {
        entrant.family_name_zh = name;
        entrant.given_name_zh = first_name;
    } else {
        entrant.family_name_latin = name;
        entrant.given_name_latin = first_name;
    }
    entrant.rating = rating;
    entrant.unit = el.get("club").unwrap_or("").to_string();
    entrant.region = el.get("country").unwrap_or("").to_string();
    // The players' ids in the rating lists OpenGotha reads: the EGD PIN, and the FFG licence
    // or else the AGA number as the federation id.
    let attr = |k: &str| el.get(k).map(str::trim).unwrap_or("").to_string();
    entrant.egd_pin = attr("egfPin");
    entrant.federation_id =
        Some(attr("ffgLicence")).filter(|l| !l.is_empty()).unwrap_or_else(|| attr("agaId"));
    entrant.normalize();
    entrant
        .validate_on(today)
        .map_err(|errors| el.error(OgErrorKind::InvalidPlayer { player: shown, errors }))?;
    Ok(RawPlayer { player: OgPlayer { entrant, key, participating, registration }, offset: el.offset })
}

fn read_game(el: &Element<'_>) -> Result<RawGame, OgError> {
    let round = el.round("roundNumber")?;
    let table_text = el.required("tableNumber")?;
    let table: u32 = el.number("tableNumber", table_text)?;
    let black_key = el.required("blackPlayer")?.to_string();
    let white_key = el.required("whitePlayer")?.to_string();
    let handicap = match el.get("handicap") {
        None => 0,
        Some(h) => {
            let v: u8 = el.number("handicap", h)?;
            if v > 9 {
                return Err(el.bad("handicap", h));
            }
            v
        }
    };
    let known_color = match el.get("knownColor").map(str::trim) {
        None | Some("true") => true,
        Some("false") => false,
        Some(other) => return Err(el.bad("knownColor", other)),
    };
    let result = match el.get("result") {
        None => OgResult::UNKNOWN,
        Some(r) => OgResult::parse(r).ok_or_else(|| el.bad("result", r))?,
    };
    Ok(RawGame {
        game: OgGame { round, table, black_key, white_key, handicap, known_color, result },
        offset: el.offset,
    })
}

/// The lenient readers of the parameter sets: a value that cannot be read is noted, not fatal.
impl OgParams {
    fn text(&mut self, el: &Element<'_>, attribute: &str) -> Option<String> {
        el.get(attribute).map(str::trim).filter(|v| !v.is_empty()).map(str::to_string)
    }
    fn note(&mut self, el: &Element<'_>, attribute: &str, value: &str) {
        self.unreadable.push((format!("{}.{attribute}", el.name), value.chars().take(40).collect()));
    }
    fn parsed<T>(
        &mut self,
        el: &Element<'_>,
        attribute: &str,
        parse: impl Fn(&str) -> Option<T>,
    ) -> Option<T> {
        let v = self.text(el, attribute)?;
        let out = parse(&v);
        if out.is_none() {
            self.note(el, attribute, &v);
        }
        out
    }
    fn number<T: std::str::FromStr>(&mut self, el: &Element<'_>, attribute: &str) -> Option<T> {
        self.parsed(el, attribute, |v| v.parse::<T>().ok())
    }
    fn flag(&mut self, el: &Element<'_>, attribute: &str) -> Option<bool> {
        self.parsed(el, attribute, |v| match v {
            "true" => Some(true),
            "false" => Some(false),
            _ => None,
        })
    }
    fn rank(&mut self, el: &Element<'_>, attribute: &str) -> Option<Rank> {
        self.parsed(el, attribute, |v| Rank::parse(v).ok())
    }
    fn date(&mut self, el: &Element<'_>, attribute: &str) -> Option<NaiveDate> {
        self.parsed(el, attribute, |v| NaiveDate::parse_from_str(v, "%Y-%m-%d").ok())
    }

    /// `<GeneralParameterSet>` (name, short name and number of rounds are read strictly by
    /// the caller).
    fn read_general(&mut self, el: &Element<'_>) {
        self.location = self.text(el, "location");
        self.director = self.text(el, "director");
        self.begin = self.date(el, "beginDate");
        self.end = self.date(el, "endDate");
        self.komi_q = self.parsed(el, "komi", komi_from_points);
        self.size = self.number(el, "size");
        self.basic_minutes = self.number(el, "basicTime");
        let std: Option<u32> = self.number(el, "stdByoYomiTime");
        let can_moves: Option<u32> = self.number(el, "nbMovesCanTime");
        let can_secs: Option<u32> = self.number(el, "canByoYomiTime");
        let fischer: Option<u32> = self.number(el, "fischerTime");
        self.time = match self.text(el, "complementaryTimeSystem").as_deref() {
            None => None,
            Some("SUDDENDEATH") => Some(OgTimeSystem::SuddenDeath),
            Some("STDBYOYOMI") => std.map(|seconds| OgTimeSystem::StdByoYomi { seconds }),
            Some("CANBYOYOMI") => {
                can_moves.zip(can_secs).map(|(moves, seconds)| OgTimeSystem::Canadian { moves, seconds })
            }
            Some("FISCHER") => fischer.map(|seconds| OgTimeSystem::Fischer { seconds }),
            Some(other) => {
                self.note(el, "complementaryTimeSystem", other);
                None
            }
        };
        self.mm_bar = self.rank(el, "genMMBar");
        self.mm_floor = self.rank(el, "genMMFloor");
        self.nbw_bye = self.number(el, "genNBW2ValueBye");
        self.mms_bye = self.number(el, "genMMS2ValueBye");
        self.nbw_absent = self.number(el, "genNBW2ValueAbsent");
        self.mms_absent = self.number(el, "genMMS2ValueAbsent");
        self.count_not_played_as_half = self.flag(el, "genCountNotPlayedGamesAsHalfPoint");
        self.categories = self.number(el, "numberOfCategories");
    }

    /// `<HandicapParameterSet>`: read only when it is complete.
    fn read_handicap(&mut self, el: &Element<'_>) {
        let based_on_mms = self.flag(el, "hdBasedOnMMS");
        let ceiling: Option<u8> = self.number(el, "hdCeiling");
        let correction: Option<i8> = self.number(el, "hdCorrection");
        let threshold = self.rank(el, "hdNoHdRankThreshold");
        if let (Some(based_on_mms), Some(ceiling), Some(correction), Some(threshold)) =
            (based_on_mms, ceiling, correction, threshold)
        {
            self.handicap = Some(OgHandicapParams { based_on_mms, ceiling, correction, threshold });
        }
    }
}

fn read_bye(el: &Element<'_>) -> Result<RawBye, OgError> {
    let round = el.round("roundNumber")?;
    let player_key = el.required("player")?.to_string();
    Ok(RawBye { bye: OgBye { round, player_key }, offset: el.offset })
}

/// Reads an OpenGotha tournament file, validating players against today's date.
pub fn parse_opengotha(bytes: &[u8]) -> Result<OgTournament, OgError> {
    parse_opengotha_on(bytes, crate::machine::today())
}

/// Deeper nesting is refused: an OpenGotha file nests a few levels, and a file of 200,000
/// nested elements would otherwise be walked to the end and previewed as an empty tournament.
pub const MAX_DEPTH: usize = 32;

/// [`parse_opengotha`] with an explicit "today" for the entrant validation.
pub fn parse_opengotha_on(bytes: &[u8], today: NaiveDate) -> Result<OgTournament, OgError> {
    let text = decode(bytes)?;
    let text = text.as_str();
    let mut reader = Reader::from_str(text);
    reader.config_mut().check_end_names = true;

    let mut stack: Vec<String> = Vec::new();
    let mut root_closed = false;
    let mut legacy_ratings = false;
    let mut name = None;
    let mut short_name = None;
    let mut declared_rounds: Option<u32> = None;
    let mut players: Vec<RawPlayer> = Vec::new();
    let mut games: Vec<RawGame> = Vec::new();
    let mut byes: Vec<RawBye> = Vec::new();
    let mut params = OgParams::default();

    loop {
        let offset = reader.buffer_position() as usize;
        let event = reader.read_event().map_err(|e| {
            OgError::at(text, reader.error_position() as usize, OgErrorKind::Xml { detail: e.to_string() })
        })?;
        let (start, is_empty) = match &event {
            Event::Start(e) => (Some(e), false),
            Event::Empty(e) => (Some(e), true),
            Event::End(_) => {
                stack.pop();
                root_closed = stack.is_empty();
                (None, false)
            }
            Event::Text(t) if stack.is_empty() && !t.as_ref().trim().is_empty() => {
                return Err(OgError::at(
                    text,
                    offset,
                    OgErrorKind::Xml { detail: "text outside the root element".into() },
                ));
            }
            Event::Eof => break,
            _ => (None, false),
        };
        let Some(start) = start else { continue };
        let el = element(text, offset, start)?;
        if stack.is_empty() {
            if root_closed {
                return Err(el.error(OgErrorKind::Xml { detail: "a second root element".into() }));
            }
            if el.name != "Tournament" {
                return Err(el.error(OgErrorKind::WrongRoot { found: el.name.clone() }));
            }
            if let Some(v) = el.get("dataVersion") {
                let v: u64 = el.number("dataVersion", v)?;
                legacy_ratings = v < 201;
            }
        }
        let grandparent = stack.len().checked_sub(2).and_then(|i| stack.get(i)).map(String::as_str);
        match (stack.last().map(String::as_str), el.name.as_str()) {
            (Some("Players"), "Player") => {
                players.push(read_player(&el, legacy_ratings, today)?);
                let correction: Option<i32> = params.number(&el, "smmsCorrection");
                if correction.is_some_and(|c| c != 0) {
                    params.smms_corrected += 1;
                }
            }
            (Some("TournamentParameterSet"), "HandicapParameterSet") => params.read_handicap(&el),
            (Some("TournamentParameterSet"), "PairingParameterSet") => params.pairing_weights = true,
            (Some("PlacementCriteria"), "PlacementCriterion")
                if grandparent == Some("PlacementParameterSet") =>
            {
                if let Some(c) = el.get("name").map(str::trim).filter(|c| !c.is_empty() && *c != "NULL") {
                    params.placement.push(c.to_string());
                }
            }
            (_, "Category") if stack.iter().any(|e| e == "TournamentParameterSet") => {
                let number: Option<u32> = params.number(&el, "number");
                if let Some(limit) = number.zip(params.rank(&el, "lowerLimit")) {
                    params.category_limits.push(limit);
                }
            }
            (Some("Games"), "Game") => games.push(read_game(&el)?),
            (Some("ByePlayers"), "ByePlayer") => byes.push(read_bye(&el)?),
            (Some("TournamentParameterSet"), "GeneralParameterSet") => {
                params.read_general(&el);
                name = el.get("name").map(str::trim).filter(|s| !s.is_empty()).map(str::to_string);
                short_name = el.get("shortName").map(str::trim).filter(|s| !s.is_empty()).map(str::to_string);
                if let Some(r) = el.get("numberOfRounds") {
                    let r: u32 = el.number("numberOfRounds", r)?;
                    if r > MAX_ROUNDS {
                        return Err(el.bad("numberOfRounds", &r.to_string()));
                    }
                    declared_rounds = Some(r);
                }
            }
            _ => {}
        }
        if is_empty {
            root_closed = stack.is_empty();
        } else {
            if stack.len() >= MAX_DEPTH {
                return Err(el.error(OgErrorKind::TooDeep { max: MAX_DEPTH }));
            }
            stack.push(el.name);
        }
    }
    if let Some(open) = stack.last() {
        return Err(OgError::at(text, text.len(), OgErrorKind::Truncated { open: open.clone() }));
    }
    if !root_closed {
        return Err(OgError::new(OgErrorKind::NoRoot));
    }

    // Players: unique keys; a lookup that also accepts keys written with spaces or lower case.
    let mut by_key: HashMap<String, usize> = HashMap::new();
    for (i, p) in players.iter().enumerate() {
        if by_key.insert(p.player.key.clone(), i).is_some() {
            return Err(OgError::at(
                text,
                p.offset,
                OgErrorKind::DuplicatePlayer { key: p.player.key.clone() },
            ));
        }
    }
    let resolve = |key: &str| -> Option<String> {
        if by_key.contains_key(key) {
            return Some(key.to_string());
        }
        let k = key.replace(' ', "").to_uppercase();
        by_key.contains_key(&k).then_some(k)
    };

    let mut paired: HashSet<(String, u32)> = HashSet::new();
    let mut twice = |key: &str, round: u32, offset: usize| -> Result<(), OgError> {
        if paired.insert((key.to_string(), round)) {
            Ok(())
        } else {
            Err(OgError::at(text, offset, OgErrorKind::PlayerTwiceInRound { key: key.to_string(), round }))
        }
    };
    let mut out_games = Vec::with_capacity(games.len());
    for RawGame { mut game, offset } in games {
        let unknown =
            |key: &str, role| OgError::at(text, offset, OgErrorKind::UnknownPlayer { key: key.into(), role });
        game.black_key = resolve(&game.black_key).ok_or_else(|| unknown(&game.black_key, OgRole::Black))?;
        game.white_key = resolve(&game.white_key).ok_or_else(|| unknown(&game.white_key, OgRole::White))?;
        if game.black_key == game.white_key {
            return Err(OgError::at(text, offset, OgErrorKind::SamePlayer { key: game.black_key }));
        }
        twice(&game.black_key, game.round, offset)?;
        twice(&game.white_key, game.round, offset)?;
        out_games.push(game);
    }
    let mut out_byes = Vec::with_capacity(byes.len());
    for RawBye { mut bye, offset } in byes {
        bye.player_key = resolve(&bye.player_key).ok_or_else(|| {
            OgError::at(
                text,
                offset,
                OgErrorKind::UnknownPlayer { key: bye.player_key.clone(), role: OgRole::Bye },
            )
        })?;
        twice(&bye.player_key, bye.round, offset)?;
        out_byes.push(bye);
    }

    let highest_played = out_games.iter().map(|g| g.round).chain(out_byes.iter().map(|b| b.round)).max();
    let rounds = match (declared_rounds, highest_played) {
        (Some(d), Some(h)) => Some(d.max(h)),
        (d, h) => d.or(h),
    };
    let players = players
        .into_iter()
        .map(|p| {
            let mut player = p.player;
            if let Some(n) = rounds {
                player.participating.resize(n as usize, true);
            }
            player
        })
        .collect();
    Ok(OgTournament { name, short_name, rounds, players, games: out_games, byes: out_byes, params })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::domain::entrant::ErrorCode;
    use crate::i18n::Lang;

    const TODAY: NaiveDate = match NaiveDate::from_ymd_opt(2026, 6, 1) {
        Some(d) => d,
        None => panic!(),
    };

    /// The OpenGotha sample files committed with the tests (origins and licences in their README).
    pub(crate) fn sample_path(name: &str) -> String {
        format!("{}/tests/fixtures/opengotha/{name}", env!("CARGO_MANIFEST_DIR"))
    }

    pub(crate) fn sample(name: &str) -> Vec<u8> {
        let path = sample_path(name);
        std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    fn parse(bytes: &[u8]) -> OgTournament {
        parse_opengotha_on(bytes, TODAY).unwrap_or_else(|e| panic!("{e}"))
    }

    fn parse_err(text: &str) -> OgError {
        parse_opengotha_on(text.as_bytes(), TODAY).expect_err(text)
    }

    fn count(t: &OgTournament, outcome: OgOutcome) -> usize {
        t.games.iter().filter(|g| g.result.outcome == outcome).count()
    }

    /// Invariants every import must satisfy.
    fn check_consistent(t: &OgTournament) {
        let keys: HashSet<&str> = t.players.iter().map(|p| p.key.as_str()).collect();
        assert_eq!(keys.len(), t.players.len(), "unique keys");
        let rounds = t.rounds.unwrap();
        let mut seen = HashSet::new();
        for g in &t.games {
            assert!(keys.contains(g.black_key.as_str()) && keys.contains(g.white_key.as_str()));
            assert!((1..=rounds).contains(&g.round));
            assert!(
                seen.insert((g.black_key.clone(), g.round)) && seen.insert((g.white_key.clone(), g.round))
            );
        }
        for p in &t.players {
            assert_eq!(p.participating.len(), rounds as usize);
            assert_eq!(p.entrant.validate_on(TODAY), Ok(()));
        }
    }

    #[test]
    fn samples_folder_exists() {
        let dir = sample_path("");
        assert!(
            std::path::Path::new(&dir).is_dir(),
            "{dir} must exist (the samples are committed with the tests)"
        );
    }

    #[test]
    fn tournoi_chinois() {
        let t = parse(&sample("TournoiChinois.xml"));
        check_consistent(&t);
        assert_eq!(t.name.as_deref(), Some("Tournoi chinois"));
        assert_eq!(t.short_name.as_deref(), Some("TournoiChinois"));
        assert_eq!(t.rounds, Some(5));
        assert_eq!(t.players.len(), 24);
        assert_eq!(t.games.len(), 12);
        assert!(t.byes.is_empty());

        let gao = &t.players[0];
        assert_eq!(gao.key, "高传德");
        assert_eq!((gao.entrant.family_name_zh.as_str(), gao.entrant.given_name_zh.as_str()), ("高", "传德"));
        assert_eq!(gao.entrant.family_name_latin, "");
        assert_eq!(gao.entrant.rank, Rank::Dan(1));
        assert_eq!(gao.entrant.rating, Some(2100));
        assert_eq!(gao.participating, vec![true; 5]);
        assert_eq!(gao.registration, OgRegistration::Final);

        let remi = t.players.iter().find(|p| p.key == "VANNIERREMI").unwrap();
        assert_eq!(
            (remi.entrant.family_name_latin.as_str(), remi.entrant.given_name_latin.as_str()),
            ("Vannier", "Remi")
        );
        assert_eq!(remi.entrant.family_name_zh, "");
        assert_eq!(remi.entrant.rank, Rank::Dan(2));
        assert_eq!(remi.entrant.rating, Some(2153));
        assert_eq!((remi.entrant.unit.as_str(), remi.entrant.region.as_str()), ("35Re", "FR"));
        // rank="4K" wins over grade=" 3K".
        let luc = t.players.iter().find(|p| p.key == "VANNIERLUC").unwrap();
        assert_eq!(luc.entrant.rank, Rank::Kyu(4));
        let chinese = t.players.iter().filter(|p| !p.entrant.family_name_zh.is_empty()).count();
        assert_eq!(chinese, 22);

        let g = &t.games[0];
        assert_eq!((g.round, g.table), (1, 1));
        assert_eq!((g.black_key.as_str(), g.white_key.as_str()), ("马超", "VANNIERREMI"));
        assert_eq!(g.result, OgResult { outcome: OgOutcome::WhiteWins, by_default: false });
        assert!(g.known_color);
        let last = &t.games[11];
        assert_eq!((last.table, last.handicap, last.black_key.as_str()), (12, 3, "VANNIERLUC"));
        assert_eq!(count(&t, OgOutcome::BlackWins), 3);
        assert_eq!(count(&t, OgOutcome::WhiteWins), 7);
        assert_eq!(count(&t, OgOutcome::Unknown), 1);
        assert_eq!(count(&t, OgOutcome::BothWin), 1);
    }

    #[test]
    fn simple_mcmahon() {
        let t = parse(&sample("simplemm.xml"));
        check_consistent(&t);
        assert_eq!(t.name.as_deref(), Some("SimpleMM"));
        assert_eq!(t.rounds, Some(5));
        assert_eq!((t.players.len(), t.games.len()), (16, 40));
        assert_eq!((count(&t, OgOutcome::BlackWins), count(&t, OgOutcome::WhiteWins)), (15, 25));
        assert_eq!(t.games.iter().filter(|g| g.handicap > 0).count(), 11);
        assert!(t.players.iter().any(|p| p.key == "LEFEBVRELOÏC"));
        assert!(t.games.iter().all(|g| g.round >= 1 && g.round <= 5));
        for r in 1..=5 {
            assert_eq!(t.games.iter().filter(|g| g.round == r).count(), 8, "round {r}");
        }
        let noguchi = t.players.iter().find(|p| p.key == "NOGUCHIMOTOKI").unwrap();
        assert_eq!(noguchi.entrant.rank, Rank::Dan(7));
        assert_eq!(noguchi.entrant.rating, Some(2666));
    }

    #[test]
    fn simple_swiss() {
        let t = parse(&sample("simpleswiss.xml"));
        check_consistent(&t);
        assert_eq!(t.name.as_deref(), Some("Championnat des Vieux Dragons"));
        assert_eq!(t.rounds, Some(7));
        assert_eq!((t.players.len(), t.games.len()), (32, 112));
        assert_eq!(count(&t, OgOutcome::BlackWins), 112);
        assert_eq!(t.players.iter().filter(|p| p.entrant.rank == Rank::Kyu(30)).count(), 2);
    }

    #[test]
    fn veterans_with_a_bye_and_absences() {
        let t = parse(&sample("veterans-2021.xml"));
        check_consistent(&t);
        assert_eq!(t.rounds, Some(5));
        assert_eq!((t.players.len(), t.games.len()), (43, 101));
        assert_eq!(t.byes, vec![OgBye { round: 2, player_key: "GAJDOSCHANTAL".into() }]);
        assert_eq!((count(&t, OgOutcome::BlackWins), count(&t, OgOutcome::WhiteWins)), (49, 52));
        let pattern =
            |p: &OgPlayer| p.participating.iter().map(|&b| if b { '1' } else { '0' }).collect::<String>();
        let patterns: Vec<String> = t.players.iter().map(pattern).filter(|s| s != "11111").collect();
        assert!(!patterns.is_empty(), "some players skipped rounds");
        assert_eq!(t.players.iter().filter(|p| p.entrant.rating == Some(-900)).count(), 2);
    }

    /// OpenGotha's categories (`Player.category`): a player is in the first category whose
    /// lower limit their rank reaches, else the last; a file without every limit is one field.
    #[test]
    fn categories_are_read_with_their_rank_ranges() {
        let t = parse(&sample("categories.xml"));
        let cats = t.params.category_list();
        let r = |s: &str| Rank::parse(s).unwrap();
        assert_eq!(
            cats,
            [
                OgCategory { lowest: Some(r("5d")), highest: None },
                OgCategory { lowest: Some(r("1k")), highest: Some(r("4d")) },
                OgCategory { lowest: None, highest: Some(r("2k")) },
            ]
        );
        let placed: Vec<usize> =
            t.players.iter().map(|p| cats.iter().position(|c| c.admits(p.entrant.rank)).unwrap()).collect();
        assert_eq!(placed, [0, 0, 1, 1, 2, 2]);
        let mut missing = t.params.clone();
        missing.category_limits.retain(|(n, _)| *n != 2);
        assert!(missing.category_list().is_empty(), "a limit missing: one field");
        let mut one = t.params.clone();
        one.categories = Some(1);
        assert!(one.category_list().is_empty());
    }

    #[test]
    fn every_sample_has_as_many_players_and_games_as_the_file_says() {
        for (file, players, games) in [
            ("TournoiChinois.xml", 24, 12),
            ("simplemm.xml", 16, 40),
            ("simpleswiss.xml", 32, 112),
            ("veterans-2021.xml", 43, 101),
        ] {
            let bytes = sample(file);
            let text = String::from_utf8(bytes.clone()).unwrap();
            assert_eq!(text.matches("<Player ").count(), players, "{file}");
            assert_eq!(text.matches("<Game ").count(), games, "{file}");
            let t = parse(&bytes);
            assert_eq!((t.players.len(), t.games.len()), (players, games), "{file}");
        }
    }

    #[test]
    fn result_codes() {
        use OgOutcome::*;
        for (code, outcome, by_default) in [
            ("RESULT_UNKNOWN", Unknown, false),
            ("RESULT_BLACKWINS", BlackWins, false),
            ("RESULT_WHITEWINS", WhiteWins, false),
            ("RESULT_EQUAL", Jigo, false),
            ("RESULT_BOTHLOSE", BothLose, false),
            ("RESULT_BOTHWIN", BothWin, false),
            ("RESULT_BLACKWINS_BYDEF", BlackWins, true),
            ("RESULT_WHITEWINS_BYDEF", WhiteWins, true),
            ("RESULT_EQUAL_BYDEF", Jigo, true),
            ("RESULT_BOTHLOSE_BYDEF", BothLose, true),
            ("RESULT_BOTHWIN_BYDEF", BothWin, true),
        ] {
            let r = OgResult::parse(code).unwrap();
            assert_eq!(r, OgResult { outcome, by_default }, "{code}");
            assert_eq!(r.code(), code);
        }
        for bad in ["", "RESULT_UNKNOWN_BYDEF", "BLACKWINS", "result_blackwins", "RESULT_BYDEF"] {
            assert_eq!(OgResult::parse(bad), None, "{bad}");
        }
    }

    const HEAD: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<Tournament dataVersion="201">
<Players>
<Player name="Wang" firstName="Wei" rank="3D" rating="2300" participating="11111111111111111111"/>
<Player name="Li" firstName="Qiang" rank="1K" rating="2000"/>
<Player name="Zhao" firstName="Lei" rank="5K"/>
</Players>
"#;

    /// The players of HEAD with one replacement, as a complete file.
    fn head_with(from: &str, to: &str) -> String {
        assert!(HEAD.contains(from), "{from}");
        format!("{}</Tournament>", HEAD.replacen(from, to, 1))
    }

    fn doc(games: &str) -> String {
        format!("{HEAD}<Games>\n{games}\n</Games>\n</Tournament>\n")
    }

    /// OpenGotha's player ids: the EGD PIN (egfPin) and the federation's (ffgLicence, else
    /// agaId), as its rating lists match players by them.
    #[test]
    fn player_ids_are_read() {
        let xml = head_with(
            r#"name="Li" firstName="Qiang""#,
            r#"name="Li" firstName="Qiang" egfPin="10000002" ffgLicence="" agaId="12345""#,
        );
        let xml = xml.replacen(
            r#"name="Wang" firstName="Wei""#,
            r#"name="Wang" firstName="Wei" egfPin=" 10000001 " ffgLicence="7654321""#,
            1,
        );
        let t = parse(xml.as_bytes());
        let ids: Vec<(&str, &str)> = t
            .players
            .iter()
            .map(|p| (p.entrant.egd_pin.as_str(), p.entrant.federation_id.as_str()))
            .collect();
        assert_eq!(ids, vec![("10000001", "7654321"), ("10000002", "12345"), ("", "")]);
    }

    #[test]
    fn a_minimal_file_with_defaults() {
        let t = parse(
            doc(r#"<Game roundNumber="2" tableNumber="1" blackPlayer="LIQIANG" whitePlayer="wang wei"/>"#)
                .as_bytes(),
        );
        assert_eq!((t.name.clone(), t.rounds), (None, Some(2)));
        let g = &t.games[0];
        assert_eq!((g.handicap, g.known_color, g.result), (0, true, OgResult::UNKNOWN));
        assert_eq!(g.white_key, "WANGWEI", "keys written with spaces or lower case are resolved");
        assert_eq!(t.players[1].participating, vec![true, true], "missing participating = every round");
        assert_eq!(t.players[2].entrant.rating, None);
        let t = parse(format!("{HEAD}</Tournament>").as_bytes());
        assert_eq!((t.rounds, t.games.len()), (None, 0));
        assert_eq!(t.players[0].participating.len(), 20, "no rounds known: kept as written");
    }

    #[test]
    fn by_default_results_and_byes_are_read() {
        let xml = format!(
            "{HEAD}<Games>\n<Game roundNumber=\"1\" tableNumber=\"1\" blackPlayer=\"WANGWEI\" whitePlayer=\"LIQIANG\" \
             handicap=\"2\" knownColor=\"false\" result=\"RESULT_WHITEWINS_BYDEF\"/>\n</Games>\n\
             <ByePlayers><ByePlayer player=\"ZHAOLEI\" roundNumber=\"1\"/></ByePlayers>\n\
             <TournamentParameterSet><GeneralParameterSet name=\"  \" numberOfRounds=\"3\"/></TournamentParameterSet>\n\
             </Tournament>"
        );
        let t = parse(xml.as_bytes());
        assert_eq!(t.rounds, Some(3));
        assert_eq!(t.name, None);
        assert_eq!(t.games[0].result, OgResult { outcome: OgOutcome::WhiteWins, by_default: true });
        assert_eq!((t.games[0].handicap, t.games[0].known_color), (2, false));
        assert_eq!(t.byes, vec![OgBye { round: 1, player_key: "ZHAOLEI".into() }]);
    }

    #[test]
    fn unknown_player_keys_are_reported_with_their_line() {
        let text = String::from_utf8(sample("TournoiChinois.xml")).unwrap();
        let bad = text.replacen("whitePlayer=\"VANNIERREMI\"", "whitePlayer=\"NOBODY\"", 1);
        let e = parse_opengotha_on(bad.as_bytes(), TODAY).unwrap_err();
        assert_eq!(e.kind, OgErrorKind::UnknownPlayer { key: "NOBODY".into(), role: OgRole::White });
        assert_eq!(e.position.map(|p| (p.line, p.column)), Some((30, 1)));
        assert_eq!(e.to_string(), "Line 30, column 1: A game names an unknown white player NOBODY.");
        assert_eq!(Lang::Zh.og_error(&e), "第30行第1列：对局中的白方NOBODY不在选手名单中。");
        let e = parse_err(&doc(
            r#"<Game roundNumber="1" tableNumber="1" blackPlayer="X" whitePlayer="WANGWEI"/>"#,
        ));
        assert!(matches!(e.kind, OgErrorKind::UnknownPlayer { role: OgRole::Black, .. }));
        let e = parse_err(&format!(
            "{HEAD}<ByePlayers><ByePlayer player=\"GHOST\" roundNumber=\"1\"/></ByePlayers></Tournament>"
        ));
        assert!(matches!(e.kind, OgErrorKind::UnknownPlayer { role: OgRole::Bye, .. }));
    }

    #[test]
    fn bad_ranks_are_reported_with_the_player() {
        let text = String::from_utf8(sample("TournoiChinois.xml")).unwrap();
        let bad = text.replacen("rank=\"12K\"", "rank=\"12X\"", 1);
        let e = parse_opengotha_on(bad.as_bytes(), TODAY).unwrap_err();
        assert_eq!(e.kind, OgErrorKind::BadRank { player: "屈 盼盼".into(), value: "12X".into() });
        assert_eq!(e.position.unwrap().line, 5);
        assert!(Lang::Zh.og_error(&e).contains("无法识别段位“12X”"));
        let e = parse_err(&head_with("rank=\"5K\"", "rank=\"45K\""));
        assert!(matches!(e.kind, OgErrorKind::BadRank { .. }), "{e:?}");
        let e = parse_err(&head_with(" rank=\"5K\"", ""));
        assert!(matches!(e.kind, OgErrorKind::MissingAttribute { attribute: "rank", .. }), "{e:?}");
    }

    #[test]
    fn bad_attributes_are_reported() {
        for (game, attribute) in [
            (
                r#"<Game roundNumber="x" tableNumber="1" blackPlayer="WANGWEI" whitePlayer="LIQIANG"/>"#,
                "roundNumber",
            ),
            (
                r#"<Game roundNumber="0" tableNumber="1" blackPlayer="WANGWEI" whitePlayer="LIQIANG"/>"#,
                "roundNumber",
            ),
            (
                r#"<Game roundNumber="1" tableNumber="-1" blackPlayer="WANGWEI" whitePlayer="LIQIANG"/>"#,
                "tableNumber",
            ),
            (
                r#"<Game roundNumber="1" tableNumber="1" blackPlayer="WANGWEI" whitePlayer="LIQIANG" handicap="12"/>"#,
                "handicap",
            ),
            (
                r#"<Game roundNumber="1" tableNumber="1" blackPlayer="WANGWEI" whitePlayer="LIQIANG" knownColor="yes"/>"#,
                "knownColor",
            ),
            (
                r#"<Game roundNumber="1" tableNumber="1" blackPlayer="WANGWEI" whitePlayer="LIQIANG" result="RESULT_MAYBE"/>"#,
                "result",
            ),
        ] {
            let e = parse_err(&doc(game));
            assert!(
                matches!(&e.kind, OgErrorKind::BadAttribute { attribute: a, .. } if *a == attribute),
                "{game}: {e:?}"
            );
            assert_eq!(e.position.unwrap().line, 9, "{game}");
        }
        let e = parse_err(&doc(r#"<Game roundNumber="1" blackPlayer="WANGWEI" whitePlayer="LIQIANG"/>"#));
        assert_eq!(
            e.kind,
            OgErrorKind::MissingAttribute { element: "Game".into(), attribute: "tableNumber" }
        );
        let e = parse_err(&head_with("rating=\"2000\"", "rating=\"strong\""));
        assert!(matches!(e.kind, OgErrorKind::BadAttribute { attribute: "rating", .. }));
        let e = parse_err(&head_with("participating=\"1111", "participating=\"11x1"));
        assert!(matches!(e.kind, OgErrorKind::BadAttribute { attribute: "participating", .. }));
    }

    #[test]
    fn inconsistent_pairings_are_refused() {
        let e = parse_err(&doc(
            r#"<Game roundNumber="1" tableNumber="1" blackPlayer="WANGWEI" whitePlayer="WANGWEI"/>"#,
        ));
        assert_eq!(e.kind, OgErrorKind::SamePlayer { key: "WANGWEI".into() });
        let e = parse_err(&doc(
            "<Game roundNumber=\"1\" tableNumber=\"1\" blackPlayer=\"WANGWEI\" whitePlayer=\"LIQIANG\"/>\n\
             <Game roundNumber=\"1\" tableNumber=\"2\" blackPlayer=\"ZHAOLEI\" whitePlayer=\"WANGWEI\"/>",
        ));
        assert_eq!(e.kind, OgErrorKind::PlayerTwiceInRound { key: "WANGWEI".into(), round: 1 });
        assert_eq!(e.position.unwrap().line, 10);
        let e = parse_err(&head_with("name=\"Li\" firstName=\"Qiang\"", "name=\"wang \" firstName=\"Wei\""));
        assert_eq!(e.kind, OgErrorKind::DuplicatePlayer { key: "WANGWEI".into() });
        assert_eq!(e.position.unwrap().line, 5);
    }

    #[test]
    fn invalid_players_are_refused() {
        let e = parse_err(&head_with("name=\"Zhao\" firstName=\"Lei\"", "name=\"Zhao\" firstName=\"\""));
        match e.kind {
            OgErrorKind::InvalidPlayer { player, errors } => {
                assert_eq!(player, "Zhao");
                assert_eq!(errors[0].code, ErrorCode::NamePartMissing);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn wrong_root_empty_and_non_xml() {
        let e = parse_err("<?xml version=\"1.0\"?>\n<Tourney><Players/></Tourney>");
        assert_eq!(e.kind, OgErrorKind::WrongRoot { found: "Tourney".into() });
        assert_eq!(e.position.map(|p| (p.line, p.column)), Some((2, 1)));
        assert!(Lang::Zh.og_error(&e).contains("根元素是<Tourney>"));
        assert_eq!(parse_err("").kind, OgErrorKind::Empty);
        assert_eq!(parse_err("  \n").kind, OgErrorKind::Empty);
        assert_eq!(parse_err("<?xml version=\"1.0\"?>\n").kind, OgErrorKind::NoRoot);
        assert!(matches!(parse_err("just some text").kind, OgErrorKind::Xml { .. }));
        let deep = format!("<Tournament>{}{}</Tournament>", "<a>".repeat(200_000), "</a>".repeat(200_000));
        assert_eq!(parse_err(&deep).kind, OgErrorKind::TooDeep { max: MAX_DEPTH });
        assert!(matches!(parse_err("姓名,段位\n王伟,3d\n").kind, OgErrorKind::Xml { .. }));
        assert!(matches!(parse_err("<html><body>hi</body></html>").kind, OgErrorKind::WrongRoot { .. }));
        assert!(matches!(parse_err("<Tournament></Tournament><Tournament/>").kind, OgErrorKind::Xml { .. }));
        let e = parse_err("<Tournament><Players></Games></Tournament>");
        assert!(matches!(e.kind, OgErrorKind::Xml { .. }), "{e:?}");
        assert!(e.position.is_some());
    }

    #[test]
    fn bad_encoding_is_reported_with_its_position() {
        let mut bytes =
            b"<?xml version=\"1.0\"?>\n<Tournament>\n<Players>\xff\xfe</Players></Tournament>".to_vec();
        let e = parse_opengotha_on(&bytes, TODAY).unwrap_err();
        assert_eq!(e.kind, OgErrorKind::Encoding { encoding: "UTF-8".into() });
        assert_eq!(e.position.map(|p| (p.line, p.column)), Some((3, 10)));
        // Binary noise.
        bytes = (0..2000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
        assert!(parse_opengotha_on(&bytes, TODAY).is_err());
    }

    #[test]
    fn declared_latin1_and_utf16_files_are_decoded() {
        let xml = "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<Tournament><Players>\
                   <Player name=\"Lefebvre\" firstName=\"Loïc\" rank=\"2K\"/></Players></Tournament>";
        let (latin1, _, _) = encoding_rs::WINDOWS_1252.encode(xml);
        assert!(std::str::from_utf8(&latin1).is_err());
        let t = parse(&latin1);
        assert_eq!(t.players[0].entrant.given_name_latin, "Loïc");
        assert_eq!(t.players[0].key, "LEFEBVRELOÏC");
        let mut utf16 = vec![0xFF, 0xFE];
        for u in doc("").encode_utf16() {
            utf16.extend(u.to_le_bytes());
        }
        assert_eq!(parse(&utf16).players.len(), 3);
        let mut bom = b"\xEF\xBB\xBF".to_vec();
        bom.extend(doc("").as_bytes());
        assert_eq!(parse(&bom).players.len(), 3);
    }

    #[test]
    fn legacy_ratings_are_shifted_and_clamped_like_opengotha() {
        let t = parse(head_with("dataVersion=\"201\"", "dataVersion=\"200\"").as_bytes());
        assert_eq!(t.players[0].entrant.rating, Some(OPENGOTHA_MAX_RATING), "2300 + 2050 clamped");
        assert_eq!(t.players[1].entrant.rating, Some(OPENGOTHA_MAX_RATING));
        let t = parse(head_with("rating=\"2000\"", "rating=\"-2000\"").as_bytes());
        assert_eq!(t.players[1].entrant.rating, Some(MIN_RATING));
    }

    #[test]
    fn truncated_files_never_panic_and_always_fail() {
        for file in ["TournoiChinois.xml", "veterans-2021.xml"] {
            let bytes = sample(file);
            let end = String::from_utf8_lossy(&bytes).rfind("</Tournament>").unwrap();
            for cut in (0..end).step_by(97).chain([end - 1, 1, 2, 50]) {
                let r = parse_opengotha_on(&bytes[..cut], TODAY);
                let e = r.expect_err(&format!("{file} cut at {cut}"));
                assert!(!e.to_string().is_empty() && !Lang::Zh.og_error(&e).is_empty());
            }
        }
        let text = String::from_utf8(sample("simplemm.xml")).unwrap();
        let cut = &text[..text.find("</Games>").unwrap()];
        let e = parse_err(cut);
        assert_eq!(e.kind, OgErrorKind::Truncated { open: "Games".into() });
        assert!(e.to_string().contains("ends inside <Games>"), "{}", e.to_string());
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(100))]

        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..400)) {
            let _ = parse_opengotha_on(&bytes, TODAY);
        }

        #[test]
        fn xml_like_text_never_panics(text in "(<Tournament>|</Tournament>|<Players>|</Players>|<Games>|</Games>|<Player name=\"a\" firstName=\"b\" rank=\"3d\"/>|<Game roundNumber=\"1\" tableNumber=\"1\" blackPlayer=\"AB\" whitePlayer=\"AB\"/>|[<>/=\" a-z&;])*") {
            let _ = parse_opengotha_on(text.as_bytes(), TODAY);
        }

        #[test]
        fn a_corrupted_byte_in_a_sample_never_panics(at in 0usize..14707, byte in proptest::num::u8::ANY) {
            let mut bytes = sample("simplemm.xml");
            let at = at % bytes.len();
            bytes[at] = byte;
            let _ = parse_opengotha_on(&bytes, TODAY);
        }
    }

    #[test]
    fn parameters_are_read_with_their_units() {
        let t = parse(&sample("TournoiChinois.xml"));
        let p = &t.params;
        assert_eq!(p.location.as_deref(), Some("Location name"));
        assert_eq!(p.director.as_deref(), Some("Director name"));
        assert_eq!(
            (p.begin, p.end),
            (NaiveDate::from_ymd_opt(2020, 9, 15), NaiveDate::from_ymd_opt(2020, 9, 15))
        );
        assert_eq!(p.komi_q, Some(15), "komi=\"7.5\" points");
        assert_eq!((p.size, p.basic_minutes), (Some(19), Some(60)));
        assert_eq!(p.time, Some(OgTimeSystem::StdByoYomi { seconds: 30 }));
        assert_eq!((p.mm_bar, p.mm_floor), (Some(Rank::Dan(4)), Some(Rank::Kyu(20))));
        assert_eq!((p.nbw_bye, p.mms_bye, p.nbw_absent, p.mms_absent), (Some(2), Some(2), Some(0), Some(1)));
        assert_eq!(
            p.handicap,
            Some(OgHandicapParams { based_on_mms: true, ceiling: 9, correction: 1, threshold: Rank::Dan(1) })
        );
        assert_eq!(p.placement, vec!["MMS", "SOSM", "SOSOSM"], "the team criteria are not the event's");
        assert_eq!(p.main_criterion(), Some(OgMainCriterion::McMahonScore));
        assert!(p.pairing_weights && p.unreadable.is_empty() && p.smms_corrected == 0);
        let t = parse(&sample("simpleswiss.xml"));
        assert_eq!(t.params.main_criterion(), Some(OgMainCriterion::Wins));
        // Unreadable values are noted, not fatal.
        let t = parse(
            head_with("<Tournament dataVersion=\"201\">", "<Tournament dataVersion=\"201\"><TournamentParameterSet><GeneralParameterSet komi=\"lots\" basicTime=\"-5\" complementaryTimeSystem=\"HOURGLASS\"/></TournamentParameterSet>")
                .as_bytes(),
        );
        let attrs: Vec<&str> = t.params.unreadable.iter().map(|(a, _)| a.as_str()).collect();
        assert_eq!(
            attrs,
            [
                "GeneralParameterSet.komi",
                "GeneralParameterSet.basicTime",
                "GeneralParameterSet.complementaryTimeSystem"
            ]
        );
    }

    #[test]
    fn absences_are_the_rounds_not_participated_in_and_not_played() {
        let t = parse(&sample("veterans-2021.xml"));
        let absences = t.absences();
        assert!(!absences.is_empty());
        for (round, i) in &absences {
            assert!(!t.players[*i].participating[*round as usize - 1]);
        }
        let expected: usize = t.players.iter().map(|p| p.participating.iter().filter(|b| !**b).count()).sum();
        let played_anyway = expected - absences.len();
        assert_eq!(played_anyway, 0, "in this file no player marked absent has a game");
        // A player marked absent who has a game in that round is not absent from it.
        let t = parse(
            doc(r#"<Game roundNumber="1" tableNumber="1" blackPlayer="LIQIANG" whitePlayer="WANGWEI"/>"#)
                .replacen(
                    "participating=\"11111111111111111111\"",
                    "participating=\"00111111111111111111\"",
                    1,
                )
                .as_bytes(),
        );
        assert_eq!(t.absences(), vec![]);
        let t = parse(head_with("participating=\"11111111111111111111\"", "participating=\"10\"").as_bytes());
        assert_eq!(t.absences(), vec![(2, 0)], "no rounds known: as written");
    }

    #[test]
    fn komi_is_read_in_points() {
        for (text, q) in
            [("7.5", Some(15)), ("6,5", Some(13)), ("0", Some(0)), ("-0.5", Some(-1)), ("7.50", Some(15))]
        {
            assert_eq!(komi_from_points(text), q, "{text}");
        }
        for bad in ["", "3.75", "x", "7.3"] {
            assert_eq!(komi_from_points(bad), None, "{bad}");
        }
    }

    #[test]
    fn player_keys_follow_opengotha() {
        assert_eq!(player_key("Vannier", "Remi"), "VANNIERREMI");
        assert_eq!(player_key("Guerre-Genton", "Philippe"), "GUERRE-GENTONPHILIPPE");
        assert_eq!(player_key("Van der Berg", "Jan Piet"), "VANDERBERGJANPIET");
        assert_eq!(player_key("马", "超"), "马超");
        assert_eq!(player_key("Lefebvre", "Loïc"), "LEFEBVRELOÏC");
    }
}
