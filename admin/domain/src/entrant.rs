//! Entrants: the values a registration form or an import produces, how they are parsed from
//! text, normalised and validated. Problems are typed values ([`ErrorCode`], [`FieldError`])
//! carrying their data; `i18n::problems` words them from the catalog.
//!
//! # Names
//! An entrant needs at least one *complete* name: a Chinese name (`family_name_zh` +
//! `given_name_zh`) or a Latin name (`family_name_latin` + `given_name_latin`, e.g. pinyin
//! "Wang" + "Zihan"). Both may be given. A half-filled name (family without given or the
//! reverse) is an error on the missing part, even when the other script is complete.
//!
//! A Chinese name written whole in `family_name_zh` with an empty given name ("欧阳修",
//! "王 小明") is **split** by [`EntrantInput::normalize`] (a space splits it; otherwise
//! [`split_chinese_name`] recognises the common two-character compound surnames), so stored
//! names are always split and can be sorted and printed by surname. The one exception is a
//! name with a middle dot ("买买提·艾力", a transliterated or minority name), which has no
//! surname/given split in Chinese usage: it stays whole in `family_name_zh` and counts as
//! complete.
//!
//! # Ranks
//! [`Rank::value`] orders ranks with one integer that is stored in the database and must never
//! change: kyu *k* → −*k* (30k = −30 … 1k = −1), amateur dan *d* → *d* − 1 (1d = 0 … 9d = 8),
//! professional dan *p* → 8 + *p* (1p = 9 … 9p = 17). Kyu and dan match OpenGotha's internal
//! rank numbers (which stop at 9d = 8); the scale has no gaps, so [`Rank::from_value`] is the
//! exact inverse.

use super::text::{self, Lines, TextProblem};
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

/// Longest name part, in characters.
pub const MAX_NAME_CHARS: usize = 40;
/// Longest unit (club, school, team), in characters.
pub const MAX_UNIT_CHARS: usize = 100;
/// Longest region, in characters.
pub const MAX_REGION_CHARS: usize = 60;
/// Longest notes, in characters.
pub const MAX_NOTES_CHARS: usize = 200;
/// Lowest accepted rating (EGF and OpenGotha use −900 for 30k).
pub const MIN_RATING: i32 = -900;
/// Highest accepted rating (leaves room above top professionals on the Chinese scale).
pub const MAX_RATING: i32 = 4000;
/// Longest federation id (an EGD PIN has 8 digits; licences and member numbers are shorter).
pub const MAX_ID_CHARS: usize = 20;
/// Earliest accepted birth date.
pub const EARLIEST_BIRTH_DATE: NaiveDate = match NaiveDate::from_ymd_opt(1900, 1, 1) {
    Some(d) => d,
    None => panic!("1900-01-01 is a date"),
};

/// Field names used in [`FieldError::field`]; they equal the struct field names and the
/// English CSV headers.
pub mod field {
    pub const FAMILY_NAME_ZH: &str = "family_name_zh";
    pub const GIVEN_NAME_ZH: &str = "given_name_zh";
    pub const FAMILY_NAME_LATIN: &str = "family_name_latin";
    pub const GIVEN_NAME_LATIN: &str = "given_name_latin";
    pub const RANK: &str = "rank";
    pub const RATING: &str = "rating";
    pub const UNIT: &str = "unit";
    pub const REGION: &str = "region";
    pub const BIRTH_DATE: &str = "birth_date";
    pub const SEX: &str = "sex";
    pub const NOTES: &str = "notes";
    /// The EGD PIN (European Go Database), and the id in the event's own federation's list.
    pub const EGD_PIN: &str = "egd_pin";
    pub const FEDERATION_ID: &str = "federation_id";
    /// Every form field in display order (also the English CSV header row).
    pub const ALL: [&str; 11] = [
        FAMILY_NAME_ZH,
        GIVEN_NAME_ZH,
        FAMILY_NAME_LATIN,
        GIVEN_NAME_LATIN,
        RANK,
        RATING,
        UNIT,
        REGION,
        BIRTH_DATE,
        SEX,
        NOTES,
    ];
    /// Not a form field: the entrant's status (active or withdrawn), a column of the CSV.
    pub const STATUS: &str = "status";
    /// Not a form field: a problem with the whole row of an import.
    pub const ROW: &str = "row";
}

// ---------------------------------------------------------------------------------------------
// Rank

/// A Go rank: amateur kyu 30..1, amateur dan 1..9, professional dan 1..9.
///
/// The payload is public, so an out-of-range value such as `Kyu(31)` can be built; it is
/// rejected by [`Rank::is_valid`] and [`EntrantInput::validate`]. The parsers only produce
/// valid ranks. Ordering follows [`Rank::value`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(into = "String")]
pub enum Rank {
    /// Amateur kyu (级), 1..=30; 30k is the weakest.
    Kyu(u8),
    /// Amateur dan (业余段), 1..=9.
    Dan(u8),
    /// Professional dan (职业段), 1..=9.
    Pro(u8),
}

impl Rank {
    pub const LOWEST: Rank = Rank::Kyu(30);
    pub const HIGHEST: Rank = Rank::Pro(9);

    /// Whether the number is in range for its kind.
    pub fn is_valid(self) -> bool {
        match self {
            Rank::Kyu(k) => (1..=30).contains(&k),
            Rank::Dan(d) | Rank::Pro(d) => (1..=9).contains(&d),
        }
    }

    /// The stable ordering integer stored in the database: kyu k → −k, dan d → d − 1,
    /// pro p → 8 + p. So 30k = −30, 1k = −1, 1d = 0, 9d = 8, 1p = 9, 9p = 17.
    pub fn value(self) -> i32 {
        match self {
            Rank::Kyu(k) => -i32::from(k),
            Rank::Dan(d) => i32::from(d) - 1,
            Rank::Pro(p) => 8 + i32::from(p),
        }
    }

    /// The inverse of [`Rank::value`]; `None` outside −30..=17.
    pub fn from_value(v: i32) -> Option<Rank> {
        match v {
            -30..=-1 => Some(Rank::Kyu((-v) as u8)),
            0..=8 => Some(Rank::Dan((v + 1) as u8)),
            9..=17 => Some(Rank::Pro((v - 8) as u8)),
            _ => None,
        }
    }

    /// The rank's notation as stored and as files write it (CSV, OpenGotha, EGF): "3k", "5d",
    /// "1p". Readers see `Lang::rank`.
    pub fn notation(self) -> String {
        match self {
            Rank::Kyu(k) => format!("{k}k"),
            Rank::Dan(d) => format!("{d}d"),
            Rank::Pro(p) => format!("{p}p"),
        }
    }

    /// Parses every common way of writing a rank (case-insensitive, spaces ignored, full-width
    /// digits accepted):
    /// "3k", "3K", "3 kyu", "3级", "三级", "二十五级", "5d", "5 dan", "3段", "业余5段", "初段",
    /// "二段", "1p", "9P", "职业九段", "职业3段", "pro 3", OpenGotha's " 2D" and "12K".
    /// A bare number is refused: "5" could be 5k or 5d.
    pub fn parse(input: &str) -> Result<Rank, ErrorCode> {
        // Separators may stand between the parts ("5-dan", "3 k"), not before or after them:
        // "-5d" is a negative number, not 5 dan, and is refused rather than read leniently.
        let bare: Vec<char> = input.trim().chars().map(fullwidth_to_ascii).collect();
        let edge = |c: Option<&char>| c.is_some_and(|c| matches!(c, '-' | '+' | '_' | '.'));
        if edge(bare.first()) || edge(bare.last()) {
            return Err(ErrorCode::RankInvalid { input: clip(input) });
        }
        let s: String = input
            .chars()
            .map(fullwidth_to_ascii)
            .filter(|c| !c.is_whitespace() && !matches!(c, '-' | '_' | '.'))
            .flat_map(char::to_lowercase)
            .collect();
        if s.is_empty() {
            return Err(ErrorCode::Required);
        }
        let invalid = || ErrorCode::RankInvalid { input: clip(input) };

        #[derive(PartialEq)]
        enum Class {
            Any,
            Amateur,
            Pro,
        }
        let mut rest = s.as_str();
        let mut class = Class::Any;
        for (prefix, c) in [
            ("业余", Class::Amateur),
            ("業餘", Class::Amateur),
            ("amateur", Class::Amateur),
            ("职业", Class::Pro),
            ("職業", Class::Pro),
            ("pro", Class::Pro),
        ] {
            if let Some(r) = rest.strip_prefix(prefix) {
                rest = r;
                class = c;
                break;
            }
        }

        // "初段" is 1 dan.
        let (number, unit) = if let Some(u) = rest.strip_prefix('初') {
            (Some(1u32), u)
        } else {
            let digits_end = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
            if digits_end > 0 {
                let n = rest[..digits_end].parse::<u32>().ok();
                (n, &rest[digits_end..])
            } else {
                let numeral_end =
                    rest.find(|c: char| chinese_digit(c).is_none() && c != '十').unwrap_or(rest.len());
                (parse_chinese_number(&rest[..numeral_end]), &rest[numeral_end..])
            }
        };
        let n = number.ok_or_else(invalid)?;

        #[derive(PartialEq)]
        enum Unit {
            Kyu,
            Dan,
            Pro,
        }
        let unit = match unit {
            "k" | "kyu" | "级" | "級" => Unit::Kyu,
            "d" | "dan" | "段" => Unit::Dan,
            "p" | "pro" | "pdan" => Unit::Pro,
            // "职业3" / "pro 3": the prefix already says professional.
            "" if class == Class::Pro => Unit::Pro,
            _ => return Err(invalid()),
        };
        let rank = match (class, unit) {
            (Class::Pro, Unit::Kyu) | (Class::Amateur, Unit::Pro) => return Err(invalid()),
            (Class::Pro, _) | (_, Unit::Pro) => Rank::Pro(n.min(255) as u8),
            (_, Unit::Dan) => Rank::Dan(n.min(255) as u8),
            (_, Unit::Kyu) => Rank::Kyu(n.min(255) as u8),
        };
        if rank.is_valid() {
            Ok(rank)
        } else {
            Err(ErrorCode::RankOutOfRange { input: clip(input) })
        }
    }
}

impl Ord for Rank {
    fn cmp(&self, other: &Self) -> Ordering {
        self.value().cmp(&other.value())
    }
}

impl PartialOrd for Rank {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Rank {
    /// The notation, as [`Rank::notation`] (logs and the command line's plain output).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.notation())
    }
}

impl FromStr for Rank {
    type Err = ErrorCode;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Rank::parse(s)
    }
}

impl TryFrom<String> for Rank {
    type Error = ErrorCode;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        Rank::parse(&s)
    }
}

impl<'de> Deserialize<'de> for Rank {
    /// A stored rank in any notation [`Rank::parse`] reads; anything else is serde's own
    /// "invalid value" (forms get the typed refusal from [`Rank::parse`]).
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Rank::parse(&s).map_err(|_| {
            serde::de::Error::invalid_value(serde::de::Unexpected::Str(&s), &"a rank such as 3k, 5d or 1p")
        })
    }
}

impl From<Rank> for String {
    fn from(r: Rank) -> String {
        r.notation()
    }
}

fn chinese_digit(c: char) -> Option<u32> {
    Some(match c {
        '一' => 1,
        '二' | '两' | '兩' => 2,
        '三' => 3,
        '四' => 4,
        '五' => 5,
        '六' => 6,
        '七' => 7,
        '八' => 8,
        '九' => 9,
        _ => return None,
    })
}

/// "一" … "九", "十", "十一" … "十九", "二十" … "九十九".
fn parse_chinese_number(s: &str) -> Option<u32> {
    let chars: Vec<char> = s.chars().collect();
    match chars.as_slice() {
        [d] => chinese_digit(*d).or(if *d == '十' { Some(10) } else { None }),
        ['十', d] => Some(10 + chinese_digit(*d)?),
        [t, '十'] => Some(10 * chinese_digit(*t)?),
        [t, '十', d] => Some(10 * chinese_digit(*t)? + chinese_digit(*d)?),
        _ => None,
    }
}

/// A number as Chinese lists write it, the inverse of `parse_chinese_number`: 5 → "五",
/// 12 → "十二", 25 → "二十五"; outside 1–99 in figures.
pub fn chinese_number(n: u32) -> String {
    const DIGITS: [char; 10] = ['〇', '一', '二', '三', '四', '五', '六', '七', '八', '九'];
    let digit = |d: u32| DIGITS[d as usize];
    match n {
        1..=9 => digit(n).to_string(),
        10..=19 => std::iter::once('十').chain((n > 10).then(|| digit(n % 10))).collect(),
        20..=99 => {
            [digit(n / 10), '十'].into_iter().chain((!n.is_multiple_of(10)).then(|| digit(n % 10))).collect()
        }
        _ => n.to_string(),
    }
}

/// A dan grade's number as Chinese lists write it: 1 is 初 (业余初段, 职业初段), then 二 … 九.
pub fn chinese_dan_number(n: u8) -> String {
    match n {
        1 => "初".to_string(),
        n => chinese_number(u32::from(n)),
    }
}

/// Full-width ASCII (Ｆ, ３, ．) as typed with a Chinese input method → ASCII.
pub(crate) fn fullwidth_to_ascii(c: char) -> char {
    match c {
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFF01 + 0x21).unwrap_or(c),
        '\u{3000}' => ' ',
        _ => c,
    }
}

// ---------------------------------------------------------------------------------------------
// Status

/// Whether an entrant still plays (stored as `entrants.status`, written in the CSV export).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EntrantStatus {
    /// 参赛: registered and playing.
    #[default]
    Active,
    /// 退赛: withdrawn; never paired again.
    Withdrawn,
}

impl EntrantStatus {
    /// The stored code: "active" / "withdrawn".
    pub fn code(self) -> &'static str {
        match self {
            EntrantStatus::Active => "active",
            EntrantStatus::Withdrawn => "withdrawn",
        }
    }
    /// The codes and the words a spreadsheet may hold; an empty cell is active.
    pub fn parse(input: &str) -> Result<EntrantStatus, ErrorCode> {
        let s: String = input.trim().chars().map(fullwidth_to_ascii).flat_map(char::to_lowercase).collect();
        match s.as_str() {
            "" | "active" | "参赛" | "正常" | "在赛" | "registered" => Ok(EntrantStatus::Active),
            "withdrawn" | "退赛" | "已退赛" | "退出" | "withdrew" => Ok(EntrantStatus::Withdrawn),
            _ => Err(ErrorCode::StatusInvalid { input: input.trim().chars().take(40).collect() }),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Sex

/// Sex as recorded on the entry form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Sex {
    M,
    F,
}

impl Sex {
    /// Accepts 男/女, 男性/女性, M/F, male/female, man/woman (case-insensitive).
    pub fn parse(input: &str) -> Result<Sex, ErrorCode> {
        let s: String = input.trim().chars().map(fullwidth_to_ascii).flat_map(char::to_lowercase).collect();
        match s.as_str() {
            "" => Err(ErrorCode::Required),
            "m" | "male" | "man" | "男" | "男性" => Ok(Sex::M),
            "f" | "female" | "woman" | "女" | "女性" => Ok(Sex::F),
            _ => Err(ErrorCode::SexInvalid { input: clip(input) }),
        }
    }

    /// "M" or "F": the database code, also what the English CSV writes. Readers see
    /// `Lang::sex`.
    pub fn code(self) -> &'static str {
        match self {
            Sex::M => "M",
            Sex::F => "F",
        }
    }
}

impl FromStr for Sex {
    type Err = ErrorCode;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Sex::parse(s)
    }
}

// ---------------------------------------------------------------------------------------------
// Dates and ratings

/// Parses a date written as 2001-03-04, 2001/3/4, 2001.3.4, 20010304 or 2001年3月4日; a time
/// after the date ("2001/3/4 0:00", as spreadsheets write it) is ignored. Day-first and
/// month-first forms (04/03/2001) are refused because they are ambiguous.
pub fn parse_date(input: &str) -> Result<NaiveDate, ErrorCode> {
    let trimmed = input.trim();
    if trimmed.is_empty() {
        return Err(ErrorCode::Required);
    }
    let invalid = || ErrorCode::DateInvalid { input: clip(input) };
    let s: String = trimmed.chars().map(fullwidth_to_ascii).collect();
    // Drop a time part: "2001-03-04T00:00:00", "2001/3/4 0:00".
    let date_part = s.split([' ', 'T']).next().unwrap_or("");
    let date_part = date_part.replace(['年', '月'], "-").replace('日', "");
    let parts: Vec<&str> = if date_part.len() == 8 && date_part.bytes().all(|b| b.is_ascii_digit()) {
        vec![&date_part[0..4], &date_part[4..6], &date_part[6..8]]
    } else {
        let sep = date_part.chars().find(|c| matches!(c, '-' | '/' | '.')).ok_or_else(invalid)?;
        date_part.split(sep).collect()
    };
    let [y, m, d] = parts.as_slice() else {
        return Err(invalid());
    };
    let all_digits = |p: &str, min: usize, max: usize| {
        (min..=max).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit())
    };
    if !(all_digits(y, 4, 4) && all_digits(m, 1, 2) && all_digits(d, 1, 2)) {
        return Err(invalid());
    }
    let (y, m, d) = (
        y.parse::<i32>().map_err(|_| invalid())?,
        m.parse::<u32>().map_err(|_| invalid())?,
        d.parse::<u32>().map_err(|_| invalid())?,
    );
    NaiveDate::from_ymd_opt(y, m, d).ok_or_else(invalid)
}

/// Parses an optional whole-number rating; empty → `None`. The range is checked by
/// [`EntrantInput::validate`].
pub fn parse_rating(input: &str) -> Result<Option<i32>, ErrorCode> {
    let s: String = input.trim().chars().map(fullwidth_to_ascii).collect();
    if s.is_empty() {
        return Ok(None);
    }
    s.strip_prefix('+')
        .unwrap_or(&s)
        .parse::<i32>()
        .map(Some)
        .map_err(|_| ErrorCode::RatingInvalid { input: clip(input) })
}

// ---------------------------------------------------------------------------------------------
// Errors

/// What is wrong with a field, with the values its message needs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum ErrorCode {
    /// The field must be filled in.
    Required,
    /// Neither a complete Chinese nor a complete Latin name.
    NameMissing,
    /// Only one part (family or given) of a name was filled in; this is the other part.
    NamePartMissing,
    /// Longer than allowed.
    TooLong {
        max: usize,
    },
    /// Contains control or invisible formatting characters.
    ControlCharacters,
    /// A Chinese name field holds no Chinese characters.
    NotChinese,
    /// A Latin name field holds Chinese characters.
    NotLatin,
    RankInvalid {
        input: String,
    },
    RankOutOfRange {
        input: String,
    },
    RatingInvalid {
        input: String,
    },
    RatingOutOfRange {
        min: i32,
        max: i32,
    },
    DateInvalid {
        input: String,
    },
    DateInFuture,
    DateTooEarly,
    SexInvalid {
        input: String,
    },
    /// Two columns of an import give different values for this field.
    Conflict {
        first: String,
        second: String,
    },
    /// Not a status (参赛 / 退赛, active / withdrawn).
    StatusInvalid {
        input: String,
    },
}

/// One problem with one field. The server shows it (`Lang::entrant_error` of `code`) beside
/// the field named by `field` (one of the [`field`] constants).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldError {
    pub field: &'static str,
    pub code: ErrorCode,
}

impl FieldError {
    pub fn new(field: &'static str, code: ErrorCode) -> Self {
        FieldError { field, code }
    }
}

/// Echo at most 30 characters of user input in a message.
fn clip(input: &str) -> String {
    let t = input.trim();
    if t.chars().count() > 30 {
        let mut s: String = t.chars().take(29).collect();
        s.push('…');
        s
    } else {
        t.to_string()
    }
}

// ---------------------------------------------------------------------------------------------
// Names

/// Two-character surnames, checked before single-character ones when splitting a whole name.
pub const COMPOUND_SURNAMES: &[&str] = &[
    "欧阳", "司马", "诸葛", "上官", "东方", "皇甫", "令狐", "夏侯", "尉迟", "公孙", "慕容", "长孙", "宇文",
    "司徒", "轩辕", "端木", "南宫", "独孤", "西门", "呼延", "百里", "东郭", "万俟", "闻人", "赫连", "澹台",
    "公冶", "宗政", "濮阳", "太叔", "申屠", "钟离", "拓跋", "完颜", "鲜于", "闾丘", "司空", "亓官", "司寇",
    "子车", "颛孙", "壤驷", "公良", "漆雕", "宰父", "谷梁", "公西", "巫马", "公羊", "梁丘", "左丘", "东门",
    "羊舌", "微生", "歐陽", "司馬", "諸葛", "東方", "尉遲", "公孫", "長孫", "軒轅", "鍾離", "聞人", "獨孤",
];

/// Whether `c` is a CJK ideograph (Han character).
pub fn is_cjk(c: char) -> bool {
    matches!(c,
        '\u{4E00}'..='\u{9FFF}'
        | '\u{3400}'..='\u{4DBF}'
        | '\u{F900}'..='\u{FAFF}'
        | '\u{20000}'..='\u{3134F}'
        | '\u{3007}')
}

/// Whether the text contains at least one CJK ideograph.
pub fn has_cjk(s: &str) -> bool {
    s.chars().any(is_cjk)
}

/// Splits a whole Chinese name into (family, given): a known compound surname takes two
/// characters ("欧阳娜娜" → 欧阳 + 娜娜), otherwise the surname is the first character
/// ("王小明" → 王 + 小明). Whitespace is ignored. A single character, a compound surname alone
/// or a name with a middle dot ("买买提·艾力") is returned whole as the family part.
pub fn split_chinese_name(name: &str) -> (String, String) {
    let chars: Vec<char> = name.chars().filter(|c| !c.is_whitespace()).collect();
    let whole: String = chars.iter().collect();
    if chars.len() < 2 || whole.contains('·') {
        return (whole, String::new());
    }
    let first_two: String = chars[..2].iter().collect();
    if COMPOUND_SURNAMES.contains(&first_two.as_str()) {
        let given: String = chars[2..].iter().collect();
        return (first_two, given);
    }
    (chars[0].to_string(), chars[1..].iter().collect())
}

/// Splits a whole Latin name into (family, given): "Wang Zihan" → Wang + Zihan (family first,
/// as pinyin and OpenGotha write it), "Smith, John" → Smith + John. One word → family only.
pub fn split_latin_name(name: &str) -> (String, String) {
    let name = collapse_whitespace(name);
    if let Some((family, given)) = name.split_once(',') {
        return (family.trim().to_string(), given.trim().to_string());
    }
    match name.split_once(' ') {
        Some((family, given)) => (family.to_string(), given.to_string()),
        None => (name, String::new()),
    }
}

/// Trims and turns every run of whitespace (including the ideographic space) into one space.
fn collapse_whitespace(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Chinese name parts: no spaces at all, one kind of middle dot.
fn normalize_zh_part(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| match c {
            '•' | '・' | '‧' | '∙' | '．' | '⋅' => '·',
            c => c,
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// EntrantInput

/// An entrant as entered or imported, before it gets an id and a pairing number.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntrantInput {
    pub family_name_zh: String,
    pub given_name_zh: String,
    pub family_name_latin: String,
    pub given_name_latin: String,
    pub rank: Rank,
    /// 等级分; `None` when unrated.
    pub rating: Option<i32>,
    /// Unit, club, school or team (单位).
    pub unit: String,
    /// Province, city or country (地区).
    pub region: String,
    pub birth_date: Option<NaiveDate>,
    pub sex: Option<Sex>,
    pub notes: String,
    /// EGD PIN (European Go Database); empty when unknown. Not a form field of every file:
    /// older stored entries read it as empty.
    #[serde(default)]
    pub egd_pin: String,
    /// The id in the event's own federation's list (an FFG licence, an AGA number, an
    /// association's member id); empty when unknown.
    #[serde(default)]
    pub federation_id: String,
}

impl EntrantInput {
    /// An entrant with only a rank: every text empty, every option `None`.
    pub fn new(rank: Rank) -> Self {
        EntrantInput {
            family_name_zh: String::new(),
            given_name_zh: String::new(),
            family_name_latin: String::new(),
            given_name_latin: String::new(),
            rank,
            rating: None,
            unit: String::new(),
            region: String::new(),
            birth_date: None,
            sex: None,
            notes: String::new(),
            egd_pin: String::new(),
            federation_id: String::new(),
        }
    }

    /// Trims every text, collapses inner whitespace, removes spaces from Chinese names, unifies
    /// middle dots, turns CR LF into LF in the notes, and splits a whole Chinese name written in
    /// `family_name_zh` (see the module docs). Idempotent.
    pub fn normalize(&mut self) {
        if self.given_name_zh.trim().is_empty() {
            let whole = self.family_name_zh.trim().to_string();
            let splittable = whole.chars().all(|c| is_cjk(c) || c.is_whitespace());
            if splittable {
                if let Some((family, given)) = whole.split_once(char::is_whitespace) {
                    // "王 小明": the space says where the surname ends.
                    self.family_name_zh = family.to_string();
                    self.given_name_zh = given.to_string();
                } else {
                    let (family, given) = split_chinese_name(&whole);
                    self.family_name_zh = family;
                    self.given_name_zh = given;
                }
            }
        }
        self.family_name_zh = normalize_zh_part(&self.family_name_zh);
        self.given_name_zh = normalize_zh_part(&self.given_name_zh);
        self.family_name_latin = collapse_whitespace(&self.family_name_latin);
        self.given_name_latin = collapse_whitespace(&self.given_name_latin);
        self.unit = collapse_whitespace(&self.unit);
        self.region = collapse_whitespace(&self.region);
        self.notes = self.notes.replace("\r\n", "\n").replace('\r', "\n").trim().to_string();
        self.egd_pin = self.egd_pin.trim().to_string();
        self.federation_id = self.federation_id.trim().to_string();
    }

    /// [`EntrantInput::normalize`] then [`EntrantInput::validate_on`] `today` (the caller's
    /// reading of the clock: this crate reads none): the usual way in.
    pub fn cleaned(mut self, today: NaiveDate) -> Result<EntrantInput, Vec<FieldError>> {
        self.normalize();
        self.validate_on(today).map(|()| self)
    }

    /// Checks every field and returns all problems at once, in form order; a birth date after
    /// `today` is refused. Texts are judged as they are; call [`EntrantInput::normalize`] first
    /// so stray spaces are not counted.
    pub fn validate_on(&self, today: NaiveDate) -> Result<(), Vec<FieldError>> {
        let mut errors = Vec::new();
        // The one rule of typed text (`domain::text`): no control or invisible format characters.
        let mut text = |field: &'static str, value: &str, max: usize, lines: Lines| {
            let code = match text::check(value, max, lines) {
                None => return true,
                Some(TextProblem::Invisible) => ErrorCode::ControlCharacters,
                Some(TextProblem::TooLong { max }) => ErrorCode::TooLong { max },
            };
            errors.push(FieldError::new(field, code));
            false
        };
        let zh_ok = [
            text(field::FAMILY_NAME_ZH, &self.family_name_zh, MAX_NAME_CHARS, Lines::One),
            text(field::GIVEN_NAME_ZH, &self.given_name_zh, MAX_NAME_CHARS, Lines::One),
        ];
        let latin_ok = [
            text(field::FAMILY_NAME_LATIN, &self.family_name_latin, MAX_NAME_CHARS, Lines::One),
            text(field::GIVEN_NAME_LATIN, &self.given_name_latin, MAX_NAME_CHARS, Lines::One),
        ];
        text(field::UNIT, &self.unit, MAX_UNIT_CHARS, Lines::One);
        text(field::REGION, &self.region, MAX_REGION_CHARS, Lines::One);
        text(field::NOTES, &self.notes, MAX_NOTES_CHARS, Lines::Many);
        text(field::EGD_PIN, &self.egd_pin, MAX_ID_CHARS, Lines::One);
        text(field::FEDERATION_ID, &self.federation_id, MAX_ID_CHARS, Lines::One);
        // Put the name errors first, in field order.
        let mut name_errors = Vec::new();
        for (i, (field, value)) in
            [(field::FAMILY_NAME_ZH, &self.family_name_zh), (field::GIVEN_NAME_ZH, &self.given_name_zh)]
                .into_iter()
                .enumerate()
        {
            if zh_ok[i] && !value.trim().is_empty() && !has_cjk(value) {
                name_errors.push(FieldError::new(field, ErrorCode::NotChinese));
            }
        }
        for (i, (field, value)) in [
            (field::FAMILY_NAME_LATIN, &self.family_name_latin),
            (field::GIVEN_NAME_LATIN, &self.given_name_latin),
        ]
        .into_iter()
        .enumerate()
        {
            if latin_ok[i] && has_cjk(value) {
                name_errors.push(FieldError::new(field, ErrorCode::NotLatin));
            }
        }
        let fz = !self.family_name_zh.trim().is_empty();
        let gz = !self.given_name_zh.trim().is_empty();
        let fl = !self.family_name_latin.trim().is_empty();
        let gl = !self.given_name_latin.trim().is_empty();
        let zh_whole_dotted = fz && !gz && self.family_name_zh.contains('·');
        if !zh_whole_dotted {
            if fz && !gz {
                name_errors.push(FieldError::new(field::GIVEN_NAME_ZH, ErrorCode::NamePartMissing));
            } else if gz && !fz {
                name_errors.push(FieldError::new(field::FAMILY_NAME_ZH, ErrorCode::NamePartMissing));
            }
        }
        if fl && !gl {
            name_errors.push(FieldError::new(field::GIVEN_NAME_LATIN, ErrorCode::NamePartMissing));
        } else if gl && !fl {
            name_errors.push(FieldError::new(field::FAMILY_NAME_LATIN, ErrorCode::NamePartMissing));
        }
        if !(fz || gz || fl || gl) {
            name_errors.push(FieldError::new(field::FAMILY_NAME_ZH, ErrorCode::NameMissing));
        }
        if !self.rank.is_valid() {
            errors.push(FieldError::new(
                field::RANK,
                ErrorCode::RankOutOfRange { input: self.rank.notation() },
            ));
        }
        if let Some(r) = self.rating {
            if !(MIN_RATING..=MAX_RATING).contains(&r) {
                errors.push(FieldError::new(
                    field::RATING,
                    ErrorCode::RatingOutOfRange { min: MIN_RATING, max: MAX_RATING },
                ));
            }
        }
        if let Some(d) = self.birth_date {
            if d < EARLIEST_BIRTH_DATE {
                errors.push(FieldError::new(field::BIRTH_DATE, ErrorCode::DateTooEarly));
            } else if d > today {
                errors.push(FieldError::new(field::BIRTH_DATE, ErrorCode::DateInFuture));
            }
        }
        name_errors.extend(errors);
        let mut errors = name_errors;
        errors.sort_by_key(|e| field_order(e.field));
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }

    /// Whether the Chinese name is complete (both parts, or a whole dotted name).
    pub fn has_chinese_name(&self) -> bool {
        !self.family_name_zh.is_empty()
            && (!self.given_name_zh.is_empty() || self.family_name_zh.contains('·'))
    }

    /// Whether the Latin name is complete.
    pub fn has_latin_name(&self) -> bool {
        !self.family_name_latin.is_empty() && !self.given_name_latin.is_empty()
    }

    /// "王子涵" (family and given joined, no space); empty when there is no Chinese name.
    pub fn full_name_zh(&self) -> String {
        format!("{}{}", self.family_name_zh, self.given_name_zh)
    }

    /// "Wang Zihan" (family first); empty when there is no Latin name.
    pub fn full_name_latin(&self) -> String {
        match (self.family_name_latin.is_empty(), self.given_name_latin.is_empty()) {
            (false, false) => format!("{} {}", self.family_name_latin, self.given_name_latin),
            (false, true) => self.family_name_latin.clone(),
            (true, _) => self.given_name_latin.clone(),
        }
    }

    /// The Chinese name when there is one, else the Latin name.
    pub fn display_name(&self) -> String {
        let zh = self.full_name_zh();
        if zh.is_empty() {
            self.full_name_latin()
        } else {
            zh
        }
    }

    /// Who grabs the stones at nigiri (rules §4.2): the higher rank; at equal rank the older
    /// entrant (earlier birth date). `Some(true)` when `self` grabs, `Some(false)` when `other`
    /// does, `None` when ranks are equal and the ages cannot decide (unknown or equal birth
    /// dates) — then a lot decides.
    pub fn grabs_at_nigiri(&self, other: &EntrantInput) -> Option<bool> {
        match self.rank.cmp(&other.rank) {
            Ordering::Greater => Some(true),
            Ordering::Less => Some(false),
            Ordering::Equal => match (self.birth_date, other.birth_date) {
                (Some(a), Some(b)) if a != b => Some(a < b),
                _ => None,
            },
        }
    }
}

fn field_order(field: &str) -> usize {
    field::ALL.iter().position(|f| *f == field).unwrap_or(usize::MAX)
}

// ---------------------------------------------------------------------------------------------
// EntrantForm

/// The entrant as text, the way an HTML form or a CSV row delivers it. [`EntrantForm::parse`]
/// turns it into a normalised, validated [`EntrantInput`] or the list of every problem.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct EntrantForm {
    pub family_name_zh: String,
    pub given_name_zh: String,
    pub family_name_latin: String,
    pub given_name_latin: String,
    pub rank: String,
    pub rating: String,
    pub unit: String,
    pub region: String,
    pub birth_date: String,
    pub sex: String,
    pub notes: String,
    pub egd_pin: String,
    pub federation_id: String,
}

impl EntrantForm {
    /// The form pre-filled from an entrant (ranks and sexes in their notation, "3d" / "F", which
    /// the parsers read back; dates as YYYY-MM-DD).
    pub fn from_input(e: &EntrantInput) -> Self {
        EntrantForm {
            family_name_zh: e.family_name_zh.clone(),
            given_name_zh: e.given_name_zh.clone(),
            family_name_latin: e.family_name_latin.clone(),
            given_name_latin: e.given_name_latin.clone(),
            rank: e.rank.notation(),
            rating: e.rating.map(|r| r.to_string()).unwrap_or_default(),
            unit: e.unit.clone(),
            region: e.region.clone(),
            birth_date: e.birth_date.map(|d| d.format("%Y-%m-%d").to_string()).unwrap_or_default(),
            sex: e.sex.map(|s| s.code().to_string()).unwrap_or_default(),
            notes: e.notes.clone(),
            egd_pin: e.egd_pin.clone(),
            federation_id: e.federation_id.clone(),
        }
    }

    /// Parses every field, normalises and validates; all problems are returned together, in
    /// form order. Rank is required; rating, birth date and sex may be empty.
    pub fn parse_on(&self, today: NaiveDate) -> Result<EntrantInput, Vec<FieldError>> {
        let mut errors = Vec::new();
        let rank = Rank::parse(&self.rank).map_err(|c| errors.push(FieldError::new(field::RANK, c))).ok();
        let rating = parse_rating(&self.rating)
            .map_err(|c| errors.push(FieldError::new(field::RATING, c)))
            .ok()
            .flatten();
        let birth_date = if self.birth_date.trim().is_empty() {
            None
        } else {
            parse_date(&self.birth_date).map_err(|c| errors.push(FieldError::new(field::BIRTH_DATE, c))).ok()
        };
        let sex = if self.sex.trim().is_empty() {
            None
        } else {
            Sex::parse(&self.sex).map_err(|c| errors.push(FieldError::new(field::SEX, c))).ok()
        };
        let mut input = EntrantInput {
            family_name_zh: self.family_name_zh.clone(),
            given_name_zh: self.given_name_zh.clone(),
            family_name_latin: self.family_name_latin.clone(),
            given_name_latin: self.given_name_latin.clone(),
            // A stand-in so the other fields are still checked when the rank is bad.
            rank: rank.unwrap_or(Rank::LOWEST),
            rating,
            unit: self.unit.clone(),
            region: self.region.clone(),
            birth_date,
            sex,
            notes: self.notes.clone(),
            egd_pin: self.egd_pin.clone(),
            federation_id: self.federation_id.clone(),
        };
        input.normalize();
        if let Err(more) = input.validate_on(today) {
            errors.extend(more);
        }
        if errors.is_empty() {
            Ok(input)
        } else {
            errors.sort_by_key(|e| field_order(e.field));
            Err(errors)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }

    const TODAY: NaiveDate = match NaiveDate::from_ymd_opt(2026, 6, 1) {
        Some(d) => d,
        None => panic!(),
    };

    fn wang() -> EntrantInput {
        let mut e = EntrantInput::new(Rank::Dan(3));
        e.family_name_zh = "王".into();
        e.given_name_zh = "子涵".into();
        e
    }

    fn codes(r: Result<(), Vec<FieldError>>) -> Vec<(&'static str, ErrorCode)> {
        r.unwrap_err().into_iter().map(|e| (e.field, e.code)).collect()
    }

    #[test]
    fn rank_parses_every_listed_form() {
        let cases: &[(&str, Rank)] = &[
            ("3k", Rank::Kyu(3)),
            ("3K", Rank::Kyu(3)),
            ("3 kyu", Rank::Kyu(3)),
            ("3级", Rank::Kyu(3)),
            ("3級", Rank::Kyu(3)),
            ("3段", Rank::Dan(3)),
            ("5d", Rank::Dan(5)),
            ("5 dan", Rank::Dan(5)),
            ("5-dan", Rank::Dan(5)),
            ("1p", Rank::Pro(1)),
            ("9P", Rank::Pro(9)),
            ("职业九段", Rank::Pro(9)),
            ("职业3段", Rank::Pro(3)),
            ("職業3段", Rank::Pro(3)),
            ("职业初段", Rank::Pro(1)),
            ("pro 3", Rank::Pro(3)),
            ("业余5段", Rank::Dan(5)),
            ("業餘5段", Rank::Dan(5)),
            ("业余初段", Rank::Dan(1)),
            ("初段", Rank::Dan(1)),
            ("二段", Rank::Dan(2)),
            ("两段", Rank::Dan(2)),
            ("九段", Rank::Dan(9)),
            ("一级", Rank::Kyu(1)),
            ("九级", Rank::Kyu(9)),
            ("十级", Rank::Kyu(10)),
            ("十五级", Rank::Kyu(15)),
            ("二十级", Rank::Kyu(20)),
            ("二十五级", Rank::Kyu(25)),
            ("三十级", Rank::Kyu(30)),
            ("业余3级", Rank::Kyu(3)),
            (" 2D", Rank::Dan(2)),
            ("12K", Rank::Kyu(12)),
            ("30k", Rank::Kyu(30)),
            ("３段", Rank::Dan(3)),
            ("５Ｄ", Rank::Dan(5)),
            ("\t7d ", Rank::Dan(7)),
        ];
        for (s, want) in cases {
            assert_eq!(Rank::parse(s), Ok(*want), "{s:?}");
            assert_eq!(s.parse::<Rank>(), Ok(*want), "{s:?}");
        }
    }

    /// Chinese numerals both ways: what the lists write reads back as the same number.
    #[test]
    fn chinese_numbers_round_trip() {
        for n in 1..=99 {
            assert_eq!(parse_chinese_number(&chinese_number(n)), Some(n), "{n}");
        }
        assert_eq!(
            (chinese_number(5), chinese_number(12), chinese_number(20)),
            ("五".into(), "十二".into(), "二十".into())
        );
        assert_eq!((chinese_dan_number(1), chinese_dan_number(5)), ("初".into(), "五".into()));
    }

    #[test]
    fn rank_refuses_junk_and_out_of_range() {
        for s in [
            "5",
            "dan",
            "3x",
            "k3",
            "3kd",
            "三十一",
            "职业3级",
            "业余2p",
            "十十级",
            "〇段",
            "3段段",
            "one dan",
            "-5d",
            "+5d",
            "5d-",
            "－3k",
            ".1p",
        ] {
            assert!(
                matches!(Rank::parse(s), Err(ErrorCode::RankInvalid { .. })),
                "{s:?}: {:?}",
                Rank::parse(s)
            );
        }
        for s in ["31k", "0k", "0d", "10d", "10p", "三十一级", "十段", "99999999999k"] {
            let r = Rank::parse(s);
            assert!(
                matches!(r, Err(ErrorCode::RankOutOfRange { .. }) | Err(ErrorCode::RankInvalid { .. })),
                "{s:?}: {r:?}"
            );
        }
        assert!(matches!(Rank::parse("31k"), Err(ErrorCode::RankOutOfRange { .. })));
        assert!(matches!(Rank::parse("10d"), Err(ErrorCode::RankOutOfRange { .. })));
        assert_eq!(Rank::parse("   "), Err(ErrorCode::Required));
        assert_eq!(Rank::parse("3x"), Err(ErrorCode::RankInvalid { input: "3x".into() }));
    }

    #[test]
    fn rank_notation_round_trips() {
        assert_eq!(Rank::Kyu(3).notation(), "3k");
        assert_eq!(Rank::Dan(5).notation(), "5d");
        assert_eq!(Rank::Pro(1).notation(), "1p");
        assert_eq!(Rank::Dan(5).to_string(), "5d");
        // The notation parses back to the same rank (the readers' wording: `i18n::render`).
        for v in -30..=17 {
            let r = Rank::from_value(v).unwrap();
            assert_eq!(Rank::parse(&r.notation()), Ok(r));
        }
    }

    #[test]
    fn rank_value_is_stable_and_ordered() {
        // Stored in the database: these numbers must never change.
        assert_eq!(Rank::Kyu(30).value(), -30);
        assert_eq!(Rank::Kyu(1).value(), -1);
        assert_eq!(Rank::Dan(1).value(), 0);
        assert_eq!(Rank::Dan(9).value(), 8);
        assert_eq!(Rank::Pro(1).value(), 9);
        assert_eq!(Rank::Pro(9).value(), 17);
        let mut all: Vec<Rank> =
            (1..=30).map(Rank::Kyu).chain((1..=9).map(Rank::Dan)).chain((1..=9).map(Rank::Pro)).collect();
        all.sort();
        assert_eq!(all.first(), Some(&Rank::LOWEST));
        assert_eq!(all.last(), Some(&Rank::HIGHEST));
        let values: Vec<i32> = all.iter().map(|r| r.value()).collect();
        assert_eq!(values, (-30..=17).collect::<Vec<_>>());
        assert!(Rank::Kyu(30) < Rank::Kyu(1));
        assert!(Rank::Kyu(1) < Rank::Dan(1));
        assert!(Rank::Dan(9) < Rank::Pro(1));
        assert_eq!(Rank::from_value(-31), None);
        assert_eq!(Rank::from_value(18), None);
        for r in all {
            assert_eq!(Rank::from_value(r.value()), Some(r));
        }
    }

    #[test]
    fn rank_serde_uses_the_short_form() {
        assert_eq!(serde_json::to_string(&Rank::Dan(5)).unwrap(), "\"5d\"");
        assert_eq!(serde_json::from_str::<Rank>("\"业余5段\"").unwrap(), Rank::Dan(5));
        assert!(serde_json::from_str::<Rank>("\"11d\"").is_err());
    }

    #[test]
    fn sex_parses() {
        for s in ["男", "M", "m", "male", "Male", "男性", " man "] {
            assert_eq!(Sex::parse(s), Ok(Sex::M), "{s}");
        }
        for s in ["女", "F", "f", "female", "FEMALE", "女性", "woman", "Ｆ"] {
            assert_eq!(Sex::parse(s), Ok(Sex::F), "{s}");
        }
        assert!(matches!(Sex::parse("x"), Err(ErrorCode::SexInvalid { .. })));
        assert_eq!(Sex::parse(""), Err(ErrorCode::Required));
        assert_eq!((Sex::M.code(), Sex::F.code()), ("M", "F"));
        assert_eq!((Sex::parse("M"), Sex::parse("F")), (Ok(Sex::M), Ok(Sex::F)));
    }

    #[test]
    fn dates_parse_in_the_listed_forms() {
        for s in [
            "2001-03-04",
            "2001/3/4",
            "2001.3.4",
            "20010304",
            "2001-3-4",
            "2001年3月4日",
            "2001/3/4 0:00",
            "2001-03-04T00:00:00",
            " 2001/03/04 ",
            "２００１/３/４",
        ] {
            assert_eq!(parse_date(s), Ok(d(2001, 3, 4)), "{s}");
        }
        for s in [
            "04/03/2001",
            "2001-02-30",
            "2001-13-01",
            "2001",
            "yesterday",
            "2001-03",
            "01-03-04",
            "2001-03-04-05",
        ] {
            assert!(matches!(parse_date(s), Err(ErrorCode::DateInvalid { .. })), "{s}");
        }
        assert_eq!(parse_date(""), Err(ErrorCode::Required));
    }

    #[test]
    fn ratings_parse() {
        assert_eq!(parse_rating(""), Ok(None));
        assert_eq!(parse_rating(" 2100 "), Ok(Some(2100)));
        assert_eq!(parse_rating("+50"), Ok(Some(50)));
        assert_eq!(parse_rating("-900"), Ok(Some(-900)));
        assert!(matches!(parse_rating("2100.5"), Err(ErrorCode::RatingInvalid { .. })));
        assert!(matches!(parse_rating("abc"), Err(ErrorCode::RatingInvalid { .. })));
    }

    #[test]
    fn a_complete_chinese_or_latin_name_is_enough() {
        assert_eq!(wang().validate_on(TODAY), Ok(()));
        let mut latin = EntrantInput::new(Rank::Kyu(5));
        latin.family_name_latin = "Vannier".into();
        latin.given_name_latin = "Rémi".into();
        assert_eq!(latin.validate_on(TODAY), Ok(()));
        let mut both = wang();
        both.family_name_latin = "Wang".into();
        both.given_name_latin = "Zihan".into();
        assert_eq!(both.validate_on(TODAY), Ok(()));
    }

    #[test]
    fn missing_or_half_names_are_reported_on_the_right_field() {
        let none = EntrantInput::new(Rank::Dan(1));
        assert_eq!(codes(none.validate_on(TODAY)), vec![(field::FAMILY_NAME_ZH, ErrorCode::NameMissing)]);
        let mut half = wang();
        half.given_name_zh.clear();
        assert_eq!(codes(half.validate_on(TODAY)), vec![(field::GIVEN_NAME_ZH, ErrorCode::NamePartMissing)]);
        let mut half_latin = wang();
        half_latin.given_name_latin = "Zihan".into();
        assert_eq!(
            codes(half_latin.validate_on(TODAY)),
            vec![(field::FAMILY_NAME_LATIN, ErrorCode::NamePartMissing)]
        );
        // A dotted whole name is complete by itself.
        let mut dotted = EntrantInput::new(Rank::Kyu(2));
        dotted.family_name_zh = "买买提•艾力".into();
        dotted.normalize();
        assert_eq!(dotted.family_name_zh, "买买提·艾力");
        assert_eq!(dotted.given_name_zh, "");
        assert_eq!(dotted.validate_on(TODAY), Ok(()));
        assert!(dotted.has_chinese_name());
    }

    #[test]
    fn scripts_must_match_their_fields() {
        let mut e = wang();
        e.family_name_zh = "Wang".into();
        e.given_name_latin = "子涵".into();
        e.family_name_latin = "Wang".into();
        assert_eq!(
            codes(e.validate_on(TODAY)),
            vec![
                (field::FAMILY_NAME_ZH, ErrorCode::NotChinese),
                (field::GIVEN_NAME_LATIN, ErrorCode::NotLatin)
            ]
        );
    }

    #[test]
    fn lengths_and_control_characters_are_limited() {
        let mut e = wang();
        e.given_name_zh = "涵".repeat(MAX_NAME_CHARS + 1);
        e.notes = "x".repeat(MAX_NOTES_CHARS + 1);
        e.unit = "a\u{0007}b".into();
        e.region = "北京\u{202E}".into();
        assert_eq!(
            codes(e.validate_on(TODAY)),
            vec![
                (field::GIVEN_NAME_ZH, ErrorCode::TooLong { max: MAX_NAME_CHARS }),
                (field::UNIT, ErrorCode::ControlCharacters),
                (field::REGION, ErrorCode::ControlCharacters),
                (field::NOTES, ErrorCode::TooLong { max: MAX_NOTES_CHARS }),
            ]
        );
        let mut ok = wang();
        ok.given_name_zh = "涵".repeat(MAX_NAME_CHARS);
        ok.notes = "第一行\n第二行".into();
        assert_eq!(ok.validate_on(TODAY), Ok(()));
        let mut tab = wang();
        tab.given_name_zh = "子\t涵".into();
        assert_eq!(codes(tab.validate_on(TODAY)), vec![(field::GIVEN_NAME_ZH, ErrorCode::ControlCharacters)]);
    }

    #[test]
    fn rank_rating_and_birth_date_ranges() {
        let mut e = wang();
        e.rank = Rank::Kyu(31);
        e.rating = Some(MAX_RATING + 1);
        e.birth_date = Some(d(1899, 12, 31));
        assert_eq!(
            codes(e.validate_on(TODAY)),
            vec![
                (field::RANK, ErrorCode::RankOutOfRange { input: "31k".into() }),
                (field::RATING, ErrorCode::RatingOutOfRange { min: MIN_RATING, max: MAX_RATING }),
                (field::BIRTH_DATE, ErrorCode::DateTooEarly),
            ]
        );
        let mut future = wang();
        future.birth_date = Some(TODAY.succ_opt().unwrap());
        assert_eq!(codes(future.validate_on(TODAY)), vec![(field::BIRTH_DATE, ErrorCode::DateInFuture)]);
        let mut edges = wang();
        edges.rating = Some(MIN_RATING);
        edges.birth_date = Some(EARLIEST_BIRTH_DATE);
        assert_eq!(edges.validate_on(TODAY), Ok(()));
        edges.birth_date = Some(TODAY);
        assert_eq!(edges.validate_on(TODAY), Ok(()));
    }

    #[test]
    fn normalize_trims_and_splits_whole_chinese_names() {
        let mut e = EntrantInput::new(Rank::Dan(1));
        e.family_name_zh = "  欧阳娜娜 ".into();
        e.family_name_latin = "  Ouyang\u{3000} ".into();
        e.given_name_latin = " Na   na ".into();
        e.unit = " 北京 棋院  ".into();
        e.notes = " a\r\nb ".into();
        e.normalize();
        assert_eq!((e.family_name_zh.as_str(), e.given_name_zh.as_str()), ("欧阳", "娜娜"));
        assert_eq!((e.family_name_latin.as_str(), e.given_name_latin.as_str()), ("Ouyang", "Na na"));
        assert_eq!(e.unit, "北京 棋院");
        assert_eq!(e.notes, "a\nb");
        let again = e.clone();
        e.normalize();
        assert_eq!(e, again, "normalize is idempotent");

        let mut spaced = EntrantInput::new(Rank::Dan(1));
        spaced.family_name_zh = "王 小 明".into();
        spaced.normalize();
        assert_eq!((spaced.family_name_zh.as_str(), spaced.given_name_zh.as_str()), ("王", "小明"));

        let mut given_spaces = wang();
        given_spaces.given_name_zh = " 子 涵 ".into();
        given_spaces.normalize();
        assert_eq!(given_spaces.given_name_zh, "子涵");
    }

    #[test]
    fn chinese_names_split_with_compound_surnames() {
        let s = |n: &str| {
            let (a, b) = split_chinese_name(n);
            (a, b)
        };
        assert_eq!(s("王小明"), ("王".into(), "小明".into()));
        assert_eq!(s("王伟"), ("王".into(), "伟".into()));
        assert_eq!(s("欧阳修"), ("欧阳".into(), "修".into()));
        assert_eq!(s("司马光"), ("司马".into(), "光".into()));
        assert_eq!(s("诸葛亮"), ("诸葛".into(), "亮".into()));
        assert_eq!(s("上官婉儿"), ("上官".into(), "婉儿".into()));
        assert_eq!(s("东方不败"), ("东方".into(), "不败".into()));
        assert_eq!(s("令狐冲"), ("令狐".into(), "冲".into()));
        assert_eq!(s("夏侯惇"), ("夏侯".into(), "惇".into()));
        assert_eq!(s("尉迟恭"), ("尉迟".into(), "恭".into()));
        assert_eq!(s("公孙胜"), ("公孙".into(), "胜".into()));
        assert_eq!(s("慕容复"), ("慕容".into(), "复".into()));
        assert_eq!(s("长孙无忌"), ("长孙".into(), "无忌".into()));
        assert_eq!(s("宇文泰"), ("宇文".into(), "泰".into()));
        assert_eq!(s("司徒雷"), ("司徒".into(), "雷".into()));
        assert_eq!(s("轩辕剑"), ("轩辕".into(), "剑".into()));
        assert_eq!(s("皇甫嵩"), ("皇甫".into(), "嵩".into()));
        assert_eq!(s("歐陽修"), ("歐陽".into(), "修".into()));
        assert_eq!(s("欧阳"), ("欧阳".into(), "".into()));
        assert_eq!(s("王"), ("王".into(), "".into()));
        assert_eq!(s("买买提·艾力"), ("买买提·艾力".into(), "".into()));
        assert_eq!(split_latin_name(" Wang  Zihan "), ("Wang".into(), "Zihan".into()));
        assert_eq!(split_latin_name("Smith, John Paul"), ("Smith".into(), "John Paul".into()));
        assert_eq!(split_latin_name("Madonna"), ("Madonna".into(), "".into()));
    }

    #[test]
    fn form_parse_collects_every_error() {
        let form = EntrantForm {
            family_name_zh: "王".into(),
            rank: "3x".into(),
            rating: "abc".into(),
            birth_date: "31/12/2001".into(),
            sex: "?".into(),
            ..Default::default()
        };
        let errs = form.parse_on(TODAY).unwrap_err();
        let fields: Vec<&str> = errs.iter().map(|e| e.field).collect();
        assert_eq!(
            fields,
            vec![field::GIVEN_NAME_ZH, field::RANK, field::RATING, field::BIRTH_DATE, field::SEX],
            "{errs:?}"
        );
    }

    #[test]
    fn form_parse_round_trips_an_entrant() {
        let mut e = wang();
        e.family_name_latin = "Wang".into();
        e.given_name_latin = "Zihan".into();
        e.rating = Some(2310);
        e.birth_date = Some(d(2012, 2, 29));
        e.sex = Some(Sex::F);
        e.unit = "杭州棋院".into();
        e.region = "浙江省".into();
        e.notes = "素食".into();
        let form = EntrantForm::from_input(&e);
        assert_eq!((form.rank.as_str(), form.sex.as_str()), ("3d", "F"));
        assert_eq!(form.parse_on(TODAY), Ok(e));
        let missing_rank = EntrantForm { family_name_zh: "王子涵".into(), ..Default::default() };
        assert_eq!(
            missing_rank.parse_on(TODAY).unwrap_err(),
            vec![FieldError::new(field::RANK, ErrorCode::Required)]
        );
    }

    #[test]
    fn nigiri_grabber_is_higher_rank_then_older() {
        let mut a = wang();
        let mut b = wang();
        a.rank = Rank::Dan(4);
        b.rank = Rank::Dan(3);
        assert_eq!(a.grabs_at_nigiri(&b), Some(true));
        assert_eq!(b.grabs_at_nigiri(&a), Some(false));
        b.rank = Rank::Dan(4);
        assert_eq!(a.grabs_at_nigiri(&b), None);
        a.birth_date = Some(d(1980, 1, 1));
        b.birth_date = Some(d(1990, 1, 1));
        assert_eq!(a.grabs_at_nigiri(&b), Some(true), "older grabs");
        assert_eq!(b.grabs_at_nigiri(&a), Some(false));
    }

    proptest::proptest! {
        #[test]
        fn parsers_never_panic(s in "\\PC{0,12}") {
            let _ = Rank::parse(&s);
            let _ = parse_date(&s);
            let _ = parse_rating(&s);
            let _ = Sex::parse(&s);
            let _ = split_chinese_name(&s);
            let _ = split_latin_name(&s);
        }

        #[test]
        fn rank_like_text_never_panics(s in "[0-9一二三四五六七八九十两初kdpKDP级段業业余职 ]{0,6}") {
            if let Ok(r) = Rank::parse(&s) {
                proptest::prop_assert!(r.is_valid());
            }
        }

        #[test]
        fn normalize_is_idempotent(family in "\\PC{0,6}", given in "\\PC{0,4}", notes in "\\PC{0,10}") {
            let mut e = EntrantInput::new(Rank::Dan(1));
            e.family_name_zh = family;
            e.given_name_zh = given;
            e.notes = notes;
            e.normalize();
            let once = e.clone();
            e.normalize();
            proptest::prop_assert_eq!(e, once);
        }
    }

    /// A refusal echoes at most 30 characters of what was typed (its message quotes it).
    #[test]
    fn refusals_clip_long_input() {
        let long = "x".repeat(100);
        let Err(ErrorCode::RankInvalid { input }) = Rank::parse(&long) else { panic!("a rank refusal") };
        assert_eq!(input.chars().count(), 30, "{input}");
        assert!(input.ends_with('…'));
    }
}
