//! Names as Chinese readers find them: the one order of every list by name and the one search
//! of every "find a player" box (pinyin, initials and stroke order).
//!
//! **Order.** [`NameOrder::Pinyin`] (the default, 按拼音) orders Chinese names by the pinyin of
//! their characters, syllable by syllable — letters first (ü as u), then the tone (ā á ǎ à,
//! then the neutral tone), then ü after u, then the character itself — so 柯洁 comes before
//! 孔杰 and 王 before 王伟. The family name is read as a surname ([`surnames::SURNAMES`]: 曾 is
//! zēng, 单 shàn, 解 xiè, 仇 qiú, 区 ōu, 朴 piáo, 查 zhā, 覃 qín, 尉迟 yùchí), every other character
//! by the `pinyin` crate's most frequent reading. A name without Chinese characters sorts by
//! its Latin words among them (Smith under S). [`NameOrder::Strokes`] (按姓氏笔画) orders by the
//! stroke count of each character in turn, surname first (Unihan's `kTotalStrokes`, the data
//! in `strokes.bin`, see README.md); characters of equal count by their pinyin; names without
//! Chinese characters after all the others. The official rule would order equal counts by the
//! shape of the first strokes (横竖撇点折); no data of stroke shapes is available here, so
//! that tie is broken by pinyin.
//!
//! **Search.** [`Query`] reads what a player or an arbiter types: Chinese characters,
//! full pinyin, pinyin initials or a mix (`kj`, `kejie`, `kjie`, `ke jie`, `柯j`, `kē jié` all
//! find 柯洁), without tones or with them (ü typed as v, u or ü), a Latin name, in either
//! order of family and given name. Each syllable may be typed in full or by any prefix; the
//! typed syllables must follow each other in the name, family name first or given name first
//! (`jie`, `kjie` and `jk` find 柯洁, `kx` does not). Every reading of a character counts (乐 is lè or yuè), so a reader who does not know
//! which one a name uses still finds it.

mod surnames;

use pinyin::{ToPinyin, ToPinyinMulti};
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

/// How a list ordered by name is ordered (a tournament setting).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NameOrder {
    /// By pinyin (按拼音), the default.
    #[default]
    Pinyin,
    /// By the stroke count of the characters, surname first (按姓氏笔画).
    Strokes,
}

impl NameOrder {
    pub const ALL: [NameOrder; 2] = [NameOrder::Pinyin, NameOrder::Strokes];

    pub fn code(self) -> &'static str {
        match self {
            NameOrder::Pinyin => "pinyin",
            NameOrder::Strokes => "strokes",
        }
    }

    pub fn from_code(s: &str) -> Option<NameOrder> {
        NameOrder::ALL.into_iter().find(|o| o.code() == s.trim())
    }
}

/// A person's name in the parts an entrant keeps. Any part may be empty.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Name<'a> {
    pub family_zh: &'a str,
    pub given_zh: &'a str,
    pub family_latin: &'a str,
    pub given_latin: &'a str,
}

impl<'a> Name<'a> {
    /// A name known only as one text (a team, a user name): read as a Chinese name when it has
    /// Chinese characters (the first characters then read as a surname), else as Latin words.
    pub fn text(s: &'a str) -> Name<'a> {
        if s.chars().any(is_han) {
            Name { family_zh: s, ..Name::default() }
        } else {
            Name { family_latin: s, ..Name::default() }
        }
    }

    fn has_chinese(&self) -> bool {
        self.family_zh.chars().chain(self.given_zh.chars()).any(is_han)
    }
}

/// A CJK ideograph (the blocks the reading tables cover, and the extensions).
fn is_han(c: char) -> bool {
    matches!(u32::from(c), 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0x20000..=0x3134F)
}

// ---------------------------------------------------------------------------------------------
// Readings
// ---------------------------------------------------------------------------------------------

/// A syllable: plain letters (ü kept), tone 1–4, 5 for the neutral tone, 0 for a Latin word.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Syllable {
    letters: String,
    tone: u8,
}

impl Syllable {
    /// From the `pinyin` crate's "tone number at the end" form (`zeng1`, `lü3`, `de`).
    fn from_numbered(s: &str) -> Syllable {
        match s.chars().last().and_then(|c| c.to_digit(10)) {
            Some(t) => Syllable { letters: s[..s.len() - 1].to_string(), tone: t as u8 },
            None => Syllable { letters: s.to_string(), tone: 5 },
        }
    }
}

/// One character of a Chinese name, or one Latin word, with its readings (the first is the one
/// it sorts by).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Unit {
    ch: Option<char>,
    readings: Vec<Syllable>,
}

fn readings_of(c: char) -> Vec<Syllable> {
    let mut v: Vec<Syllable> = Vec::new();
    if let Some(p) = c.to_pinyin() {
        v.push(Syllable::from_numbered(p.with_tone_num_end()));
    }
    if let Some(m) = c.to_pinyin_multi() {
        for k in 0..m.count() {
            let s = Syllable::from_numbered(m.get(k).with_tone_num_end());
            if !v.contains(&s) {
                v.push(s);
            }
        }
    }
    v
}

/// The units of a text: Chinese characters one by one (`surname` readings first for the
/// first characters), Latin letters and digits as words, everything else dropped.
fn text_units(text: &str, surname: Option<&[&str]>, out: &mut Vec<Unit>) {
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut Vec<Unit>| {
        if !word.is_empty() {
            out.push(Unit { ch: None, readings: vec![Syllable { letters: std::mem::take(word), tone: 0 }] });
        }
    };
    let mut han_index = 0usize;
    for c in text.chars() {
        if is_han(c) {
            flush(&mut word, out);
            let mut readings = readings_of(c);
            if let Some(r) = surname.and_then(|s| s.get(han_index)) {
                let s = Syllable::from_numbered(r);
                readings.retain(|x| *x != s);
                readings.insert(0, s);
            }
            han_index += 1;
            out.push(Unit { ch: Some(c), readings });
        } else if let Some(l) = fold_letter(c) {
            word.push_str(&l);
        } else {
            flush(&mut word, out);
        }
    }
    flush(&mut word, out);
}

/// A text as a guesser types it (the password check's own names): each Chinese character's
/// reading without its tone (the first characters read as a surname, ü typed v), each Latin
/// word in lower case.
pub fn plain_readings(text: &str) -> Vec<String> {
    let text = text.trim();
    let mut units = Vec::new();
    text_units(text, surname_readings(text), &mut units);
    units.iter().filter_map(|u| u.readings.first()).map(|r| r.letters.replace('ü', "v")).collect()
}

/// The pinyin of a Chinese name as a Latin name (姓 → "Wang", 名 → "Xiaoming"): each
/// character's first reading without its tone (the surname read as a surname, ü written "ü"),
/// each part's syllables joined and capitalised; a part without Chinese characters is empty.
pub fn pinyin_of_name(family_zh: &str, given_zh: &str) -> (String, String) {
    let part = |text: &str, surname: Option<&'static [&'static str]>| {
        let mut units = Vec::new();
        text_units(text.trim(), surname, &mut units);
        let joined: String = units
            .iter()
            .filter(|u| u.ch.is_some())
            .filter_map(|u| u.readings.first())
            .map(|r| r.letters.as_str())
            .collect();
        let mut cs = joined.chars();
        cs.next().map(|c| c.to_uppercase().chain(cs).collect()).unwrap_or_default()
    };
    (part(family_zh, surname_readings(family_zh.trim())), part(given_zh, None))
}

/// The surname reading of a family name: the longest entry of the table it starts with.
fn surname_readings(family: &str) -> Option<&'static [&'static str]> {
    surnames::SURNAMES
        .iter()
        .filter(|(s, _)| family.starts_with(s))
        .max_by_key(|(s, _)| s.chars().count())
        .map(|(_, r)| *r)
}

/// Family name then given name: the Chinese characters when the name has any, else the
/// Latin words.
fn units(name: &Name<'_>) -> Vec<Unit> {
    let mut out = Vec::new();
    if name.has_chinese() {
        let family = name.family_zh.trim();
        text_units(family, surname_readings(family), &mut out);
        text_units(name.given_zh, None, &mut out);
    } else {
        text_units(name.family_latin, None, &mut out);
        text_units(name.given_latin, None, &mut out);
    }
    out
}

/// A letter or digit folded for comparison: lower case, full-width to ASCII, tone marks
/// dropped (ǖ → ü, é → e); `None` for anything else.
pub(crate) fn fold_letter(c: char) -> Option<String> {
    let c = match u32::from(c) {
        0xFF01..=0xFF5E => char::from_u32(u32::from(c) - 0xFEE0).unwrap_or(c),
        _ => c,
    };
    let base = match c {
        'ā' | 'á' | 'ǎ' | 'à' | 'â' | 'ä' | 'Ā' | 'Á' | 'Ǎ' | 'À' => 'a',
        'ē' | 'é' | 'ě' | 'è' | 'ê' | 'ë' | 'Ē' | 'É' | 'Ě' | 'È' => 'e',
        'ī' | 'í' | 'ǐ' | 'ì' | 'î' | 'ï' | 'Ī' | 'Í' | 'Ǐ' | 'Ì' => 'i',
        'ō' | 'ó' | 'ǒ' | 'ò' | 'ô' | 'ö' | 'Ō' | 'Ó' | 'Ǒ' | 'Ò' => 'o',
        'ū' | 'ú' | 'ǔ' | 'ù' | 'û' | 'Ū' | 'Ú' | 'Ǔ' | 'Ù' => 'u',
        'ǖ' | 'ǘ' | 'ǚ' | 'ǜ' | 'ü' | 'Ǖ' | 'Ǘ' | 'Ǚ' | 'Ǜ' | 'Ü' => 'ü',
        c if c.is_alphanumeric() && !is_han(c) => c,
        _ => return None,
    };
    Some(base.to_lowercase().collect())
}

// ---------------------------------------------------------------------------------------------
// Order
// ---------------------------------------------------------------------------------------------

/// Stroke count of a character (0 when unknown), from `strokes.bin`.
pub fn strokes(c: char) -> u8 {
    static TABLE: &[u8] = include_bytes!("strokes.bin");
    let cp = u32::from(c) as usize;
    let index = match cp {
        0x3400..=0x4DBF => cp - 0x3400,
        0x4E00..=0x9FFF => 0x4DC0 - 0x3400 + (cp - 0x4E00),
        _ => return 0,
    };
    TABLE.get(index).copied().unwrap_or(0)
}

/// What one unit of a name sorts by, field by field.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Element {
    /// Strokes (stroke order; 0 in pinyin order), so the count decides first.
    major: u32,
    /// Letters with ü as u.
    letters: String,
    tone: u8,
    umlaut: bool,
    /// The character, so different characters of one reading never compare equal.
    ch: u32,
}

/// The key a name sorts by in one [`NameOrder`]; equal keys are the same name.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct SortKey(Vec<Element>);

/// The sort key of `name`.
pub fn sort_key(name: &Name<'_>, order: NameOrder) -> SortKey {
    let chinese = name.has_chinese();
    SortKey(
        units(name)
            .into_iter()
            .map(|u| {
                let first = u.readings.first();
                let letters = first.map(|s| s.letters.replace('ü', "u")).unwrap_or_default();
                let major = match (order, u.ch) {
                    (NameOrder::Pinyin, _) => 0,
                    (NameOrder::Strokes, Some(c)) => u32::from(strokes(c)),
                    // Latin words after every character (and Latin-only names after all).
                    (NameOrder::Strokes, None) => 1000 + u32::from(!chinese),
                };
                Element {
                    major,
                    letters,
                    tone: first.map_or(0, |s| s.tone),
                    umlaut: first.is_some_and(|s| s.letters.contains('ü')),
                    ch: u.ch.map_or(0, u32::from),
                }
            })
            .collect(),
    )
}

/// Compare two names in `order`.
pub fn compare(a: &Name<'_>, b: &Name<'_>, order: NameOrder) -> Ordering {
    sort_key(a, order).cmp(&sort_key(b, order))
}

/// Sort `items` by the name `name_of` gives each, stably (equal names keep their order, so a
/// caller sorting by id first gets id as the last tie-break).
pub fn sort_by_name<T>(items: &mut [T], order: NameOrder, name_of: impl Fn(&T) -> Name<'_>) {
    items.sort_by_cached_key(|t| sort_key(&name_of(t), order));
}

// ---------------------------------------------------------------------------------------------
// Search
// ---------------------------------------------------------------------------------------------

/// A name read once for searching: its written forms and its readings in both orders (family
/// name first and given name first), what [`Query::matches_read`] compares with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Searchable {
    written: [String; 3],
    orders: Vec<Vec<Unit>>,
}

impl Searchable {
    pub fn new(name: &Name<'_>) -> Searchable {
        let written = [
            format!("{}{}", name.family_zh.trim(), name.given_zh.trim()),
            format!("{} {}", name.family_latin.trim(), name.given_latin.trim()).to_lowercase(),
            format!("{}{}", name.family_latin.trim(), name.given_latin.trim()).to_lowercase(),
        ];
        let mut orders: Vec<Vec<Unit>> = Vec::new();
        let mut zh = Vec::new();
        let family = name.family_zh.trim();
        text_units(family, surname_readings(family), &mut zh);
        let split = zh.len();
        text_units(name.given_zh, None, &mut zh);
        let mut la = Vec::new();
        text_units(name.family_latin, None, &mut la);
        let la_split = la.len();
        text_units(name.given_latin, None, &mut la);
        for (v, k) in [(zh, split), (la, la_split)] {
            if v.is_empty() {
                continue;
            }
            // Given name first too ("Jie Ke", "jieke").
            let mut swapped = v[k..].to_vec();
            swapped.extend_from_slice(&v[..k]);
            orders.push(v);
            if k > 0 {
                orders.push(swapped);
            }
        }
        Searchable { written, orders }
    }
}

/// What a reader typed into a "find" box, read once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Query {
    /// Chinese characters and folded letters; spaces, apostrophes and punctuation dropped.
    items: Vec<Item>,
    /// The text as typed, lower case (for a plain substring of the name as written).
    raw: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Item {
    Han(char),
    Letter(char),
}

impl Query {
    pub fn new(text: &str) -> Query {
        let mut items = Vec::new();
        for c in text.chars() {
            if is_han(c) {
                items.push(Item::Han(c));
            } else if let Some(l) = fold_letter(c) {
                items.extend(l.chars().map(Item::Letter));
            }
        }
        Query { items, raw: text.trim().to_lowercase() }
    }

    /// Nothing to search for.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty() && self.raw.is_empty()
    }

    /// Whether `name` is what the reader looks for (module documentation).
    pub fn matches(&self, name: &Name<'_>) -> bool {
        !self.is_empty() && self.matches_read(&Searchable::new(name))
    }

    /// [`Query::matches`] against a name read beforehand (a list searched many times reads
    /// its names once: the public find-my-table of 10,000 players).
    pub fn matches_read(&self, name: &Searchable) -> bool {
        if self.is_empty() {
            return false;
        }
        if !self.raw.is_empty() && name.written.iter().any(|w| !w.trim().is_empty() && w.contains(&self.raw))
        {
            return true;
        }
        if self.items.is_empty() {
            return false;
        }
        name.orders.iter().any(|units| (0..units.len()).any(|start| self.follows(&units[start..], 0)))
    }

    /// Whether the items from `at` on are matched by `units` in turn, each unit by its
    /// character or by a prefix of one of its readings (ü typed as ü, v or u).
    fn follows(&self, units: &[Unit], at: usize) -> bool {
        if at == self.items.len() {
            return true;
        }
        let Some((unit, rest)) = units.split_first() else { return false };
        match self.items[at] {
            Item::Han(c) => unit.ch == Some(c) && self.follows(rest, at + 1),
            Item::Letter(_) => unit.readings.iter().any(|r| {
                let mut spellings = vec![r.letters.clone()];
                if r.letters.contains('ü') {
                    spellings.push(r.letters.replace('ü', "v"));
                    spellings.push(r.letters.replace('ü', "u"));
                }
                spellings.iter().any(|s| {
                    let typed =
                        self.items[at..].iter().zip(s.chars()).take_while(|(i, c)| **i == Item::Letter(*c));
                    let n = typed.count();
                    (1..=n).rev().any(|k| self.follows(rest, at + k))
                })
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn zh<'a>(family: &'a str, given: &'a str) -> Name<'a> {
        Name { family_zh: family, given_zh: given, ..Name::default() }
    }

    fn sorted(names: &[(&str, &str)], order: NameOrder) -> Vec<String> {
        let mut v: Vec<(&str, &str)> = names.to_vec();
        sort_by_name(&mut v, order, |(f, g)| zh(f, g));
        v.iter().map(|(f, g)| format!("{f}{g}")).collect()
    }

    #[test]
    fn surnames_are_read_as_surnames() {
        let first = |f: &str| {
            let k = sort_key(&zh(f, ""), NameOrder::Pinyin);
            k.0.iter().map(|e| format!("{}{}", e.letters, e.tone)).collect::<Vec<_>>().join(" ")
        };
        assert_eq!(first("曾"), "zeng1");
        assert_eq!(first("单"), "shan4");
        assert_eq!(first("解"), "xie4");
        assert_eq!(first("仇"), "qiu2");
        assert_eq!(first("区"), "ou1");
        assert_eq!(first("朴"), "piao2");
        assert_eq!(first("查"), "zha1");
        assert_eq!(first("覃"), "qin2");
        assert_eq!(first("尉迟"), "yu4 chi2");
        assert_eq!(first("尉"), "wei4");
        assert_eq!(first("柯"), "ke1");
        // Only the family name: 曾 in a given name keeps its usual reading.
        let k = sort_key(&zh("王", "曾"), NameOrder::Pinyin);
        assert_eq!(k.0[1].letters, "ceng");
    }

    /// Decision D26 (网上报名): the pinyin filled from a Chinese name reads the surname as
    /// a surname (单 Shan, 曾 Zeng) and joins the given name's syllables.
    #[test]
    fn pinyin_of_a_name_reads_the_surname_as_a_surname() {
        assert_eq!(pinyin_of_name("王", "小明"), ("Wang".to_string(), "Xiaoming".to_string()));
        assert_eq!(pinyin_of_name("单", "雄"), ("Shan".to_string(), "Xiong".to_string()));
        assert_eq!(pinyin_of_name("曾", "乐"), ("Zeng".to_string(), "Le".to_string()));
        assert_eq!(pinyin_of_name("欧阳", "修").0, "Ouyang");
        assert_eq!(pinyin_of_name("", ""), (String::new(), String::new()));
    }

    #[test]
    fn pinyin_order_is_syllable_by_syllable_then_tone() {
        let names = [
            ("曾", "庆红"),
            ("柯", "洁"),
            ("孔", "杰"),
            ("王", "伟"),
            ("王", ""),
            ("陈", "耀烨"),
            ("吕", "立"),
            ("卢", "立"),
            ("罗", "洗河"),
            ("单", "霖"),
            ("査", "x"),
        ];
        let v = sorted(&names[..10], NameOrder::Pinyin);
        assert_eq!(v, ["陈耀烨", "柯洁", "孔杰", "卢立", "吕立", "罗洗河", "单霖", "王", "王伟", "曾庆红"]);
        // Tone decides between the same letters: 马 mǎ after 麻 má.
        assert_eq!(sorted(&[("马", "力"), ("麻", "力")], NameOrder::Pinyin), ["麻力", "马力"]);
    }

    #[test]
    fn latin_names_sort_among_chinese_ones() {
        let mut v = vec![
            Name { family_latin: "Smith", given_latin: "John", ..Name::default() },
            zh("孙", "腾宇"),
            zh("李", "喆"),
            Name { family_latin: "Andersson", given_latin: "Eva", ..Name::default() },
        ];
        sort_by_name(&mut v, NameOrder::Pinyin, |n| *n);
        let shown: Vec<String> =
            v.iter().map(|n| format!("{}{}{}", n.family_zh, n.given_zh, n.family_latin)).collect();
        assert_eq!(shown, ["Andersson", "李喆", "Smith", "孙腾宇"]);
        // In stroke order Latin names come last.
        sort_by_name(&mut v, NameOrder::Strokes, |n| *n);
        assert_eq!((v[0].family_zh, v[1].family_zh), ("孙", "李"), "孙 6 strokes, 李 7");
        assert_eq!(v[2].family_latin, "Andersson");
    }

    #[test]
    fn stroke_order_counts_the_surname_first() {
        assert_eq!(
            (strokes('一'), strokes('王'), strokes('张'), strokes('曾'), strokes('龘')),
            (1, 4, 7, 12, 48)
        );
        assert_eq!(strokes('a'), 0);
        // 丁 2, 王 4, 古 5, 张 7, 柯 9, 曾 12; same surname: the given name's count.
        let v = sorted(
            &[
                ("曾", "一"),
                ("柯", "洁"),
                ("王", "磊"),
                ("王", "一"),
                ("丁", "伟"),
                ("张", "三"),
                ("古", "力"),
            ],
            NameOrder::Strokes,
        );
        assert_eq!(v, ["丁伟", "王一", "王磊", "古力", "张三", "柯洁", "曾一"]);
    }

    #[test]
    fn order_codes() {
        for o in NameOrder::ALL {
            assert_eq!(NameOrder::from_code(o.code()), Some(o));
        }
        assert_eq!(NameOrder::from_code("x"), None);
        assert_eq!(NameOrder::default(), NameOrder::Pinyin);
    }

    #[test]
    fn find_by_pinyin_initials_full_pinyin_and_characters() {
        let kejie = Name { family_zh: "柯", given_zh: "洁", family_latin: "Ke", given_latin: "Jie" };
        let kejie_zh = zh("柯", "洁");
        for q in [
            "kj", "kejie", "KeJie", "ke jie", "kē jié", "ke", "jie", "kjie", "kej", "柯", "柯洁", "柯j",
            "ｋｊ", "jieke", "jk", "洁",
        ] {
            assert!(Query::new(q).matches(&kejie_zh), "{q}");
            assert!(Query::new(q).matches(&kejie), "{q}");
        }
        for q in ["kx", "ki", "王", "kejiex", "", "  "] {
            assert!(!Query::new(q).matches(&kejie_zh), "{q}");
        }
        // jk: "Jie Ke" order of the name's syllables, given name first.
        assert!(Query::new("jk").matches(&kejie_zh));
    }

    #[test]
    fn find_uses_surname_readings_and_every_reading() {
        assert!(Query::new("zengqh").matches(&zh("曾", "庆红")));
        assert!(Query::new("piao").matches(&zh("朴", "廷桓")));
        assert!(Query::new("yuchi").matches(&zh("尉迟", "恭")));
        assert!(Query::new("ycg").matches(&zh("尉迟", "恭")));
        // 乐 read lè or yuè in a given name: both find it.
        assert!(Query::new("wangle").matches(&zh("王", "乐")));
        assert!(Query::new("wangyue").matches(&zh("王", "乐")));
        // ü typed as v, u or ü.
        for q in ["lvli", "luli", "lüli", "lǚ lì", "ll"] {
            assert!(Query::new(q).matches(&zh("吕", "立")), "{q}");
        }
    }

    #[test]
    fn find_latin_names_and_mixed_input() {
        let smith = Name { family_latin: "Smith", given_latin: "John", ..Name::default() };
        for q in ["smith", "Smith John", "john smith", "js", "sj", "smi", "johns"] {
            assert!(Query::new(q).matches(&smith), "{q}");
        }
        assert!(!Query::new("kj").matches(&smith));
        assert!(!Query::new("smith").matches(&zh("柯", "洁")));
        // A Chinese name written in a single text field.
        assert!(Query::new("zy").matches(&Name::text("张宇")));
    }
}
