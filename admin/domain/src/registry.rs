//! The player registry's rules: when a new entrant *is* a person already registered (the
//! match that links without asking), which two persons look like one (the duplicates an
//! organizer may merge), and the registry search.
//!
//! **Linking** follows what federations key their lists by (the EGF's rating list by its EGD
//! PIN) and, without a PIN, what a Chinese organizer checks on an ID card: the same Chinese name
//! and the same birth date. Nothing weaker links: two 王伟 of one club without birth dates stay
//! two persons until an organizer merges them. When several persons match (duplicates not yet
//! merged), the oldest is taken.
//!
//! **Likely duplicates** are flags for an organizer, never merged by the program: the same
//! name and birth date (the entrant check of [`crate::duplicates`]), or the same pinyin and
//! unit (王伟 and 汪伟 of one club, typed once in characters and once in Latin letters), or the
//! same EGD PIN.
//!
//! **Search** is the one "find a player" of [`crate::names`]: characters, pinyin with or
//! without tones and spaces, initials.

use crate::duplicates::fold;
use crate::entrant::EntrantInput;
use crate::names::{pinyin_of_name, Name, Query, Searchable};
use chrono::NaiveDate;
use serde::Serialize;

/// What the rules read of a person or of an entrant about to become one.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Facts {
    pub family_zh: String,
    pub given_zh: String,
    pub family_latin: String,
    pub given_latin: String,
    pub unit: String,
    pub birth_date: Option<NaiveDate>,
    pub egd_pin: String,
}

impl Facts {
    /// An entrant's facts, its EGD PIN among them (typed, imported, or taken from a rating
    /// list): the first thing a person is matched by.
    pub fn of_entrant(e: &EntrantInput) -> Facts {
        Facts {
            family_zh: e.family_name_zh.trim().to_string(),
            given_zh: e.given_name_zh.trim().to_string(),
            family_latin: e.family_name_latin.trim().to_string(),
            given_latin: e.given_name_latin.trim().to_string(),
            unit: e.unit.trim().to_string(),
            birth_date: e.birth_date,
            egd_pin: e.egd_pin.trim().to_string(),
        }
    }

    pub fn name(&self) -> Name<'_> {
        Name {
            family_zh: &self.family_zh,
            given_zh: &self.given_zh,
            family_latin: &self.family_latin,
            given_latin: &self.given_latin,
        }
    }

    fn name_zh(&self) -> String {
        fold(&format!("{}{}", self.family_zh, self.given_zh))
    }

    /// The name in Latin letters: the pinyin of the Chinese name when there is one (derived as
    /// an entrant's is, [`pinyin_of_name`]), else the Latin name, folded.
    fn pinyin(&self) -> String {
        let (f, g) = pinyin_of_name(&self.family_zh, &self.given_zh);
        let text = if f.is_empty() && g.is_empty() {
            format!("{}{}", self.family_latin, self.given_latin)
        } else {
            format!("{f}{g}")
        };
        fold(&text)
    }

    fn pin(&self) -> Option<String> {
        let p = fold(&self.egd_pin);
        (!p.is_empty()).then_some(p)
    }
}

/// Why a new entrant was linked to a person without asking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Link {
    /// The same EGD PIN.
    Pin,
    /// The same Chinese name and birth date.
    NameAndBirth,
}

/// The person `new` is, if one of `persons` (id, facts) matches it exactly (module
/// documentation): a PIN first, then Chinese name and birth date; the lowest id of several.
pub fn exact_match<'a>(
    new: &Facts,
    persons: impl IntoIterator<Item = (i32, &'a Facts)>,
) -> Option<(i32, Link)> {
    let (pin, zh) = (new.pin(), new.name_zh());
    let mut best: Option<(i32, Link)> = None;
    for (id, p) in persons {
        let link = if pin.is_some() && p.pin() == pin {
            Link::Pin
        } else if !zh.is_empty()
            && new.birth_date.is_some()
            && p.birth_date == new.birth_date
            && p.name_zh() == zh
        {
            Link::NameAndBirth
        } else {
            continue;
        };
        best = match best {
            Some((bid, bl)) if (bl == Link::Pin && link != Link::Pin) || (bl == link && bid < id) => {
                Some((bid, bl))
            }
            _ => Some((id, link)),
        };
    }
    best
}

/// Why two persons look like one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Likeness {
    /// The same EGD PIN.
    Pin,
    /// The same name (Chinese when both have one, else Latin) and birth date.
    NameAndBirth,
    /// The same pinyin and unit.
    PinyinAndUnit,
}

/// Whether `a` and `b` look like the same person, and why.
pub fn likeness(a: &Facts, b: &Facts) -> Option<Likeness> {
    if a.pin().is_some() && a.pin() == b.pin() {
        return Some(Likeness::Pin);
    }
    let (za, zb) = (a.name_zh(), b.name_zh());
    let same_name = if !za.is_empty() && !zb.is_empty() {
        za == zb
    } else {
        !a.pinyin().is_empty() && a.pinyin() == b.pinyin()
    };
    if same_name && a.birth_date.is_some() && a.birth_date == b.birth_date {
        return Some(Likeness::NameAndBirth);
    }
    let unit = fold(&a.unit);
    if !unit.is_empty() && unit == fold(&b.unit) && !a.pinyin().is_empty() && a.pinyin() == b.pinyin() {
        return Some(Likeness::PinyinAndUnit);
    }
    None
}

/// Every pair of `persons` that looks like one person, lower id first in each pair, pairs by
/// their ids.
pub fn likely_duplicates(persons: &[(i32, Facts)]) -> Vec<(i32, i32, Likeness)> {
    let mut sorted: Vec<&(i32, Facts)> = persons.iter().collect();
    sorted.sort_by_key(|(id, _)| *id);
    let mut out = Vec::new();
    for (i, (a, fa)) in sorted.iter().enumerate() {
        for (b, fb) in &sorted[i + 1..] {
            if let Some(l) = likeness(fa, fb) {
                out.push((*a, *b, l));
            }
        }
    }
    out
}

/// The ids of `persons` whose names `text` finds (characters, pinyin, initials), in the
/// order given; nothing for an empty query.
pub fn search(text: &str, persons: &[(i32, Facts)]) -> Vec<i32> {
    let q = Query::new(text);
    if q.is_empty() {
        return Vec::new();
    }
    persons.iter().filter(|(_, f)| q.matches_read(&Searchable::new(&f.name()))).map(|(id, _)| *id).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn zh(family: &str, given: &str, birth: Option<&str>, unit: &str) -> Facts {
        Facts {
            family_zh: family.into(),
            given_zh: given.into(),
            unit: unit.into(),
            birth_date: birth.map(|b| NaiveDate::parse_from_str(b, "%Y-%m-%d").unwrap()),
            ..Facts::default()
        }
    }

    /// EGF rating list practice: the EGD PIN identifies a player; it links whatever the names.
    #[test]
    fn a_pin_links_first() {
        let mut new = zh("王", "伟", None, "");
        new.egd_pin = "12345678".into();
        let mut p = zh("Wang", "", None, "");
        p.egd_pin = "12345678".into();
        let other = zh("王", "伟", Some("2000-01-01"), "");
        assert_eq!(exact_match(&new, [(5, &other), (9, &p)]), Some((9, Link::Pin)));
    }

    /// EGF rating list practice: an entry's EGD PIN (typed, imported or taken from a list)
    /// is its facts' PIN, so an import row with the PIN links the person whatever its names.
    #[test]
    fn an_entrys_pin_is_its_facts_pin() {
        let mut input = crate::entrant::EntrantInput::new(crate::entrant::Rank::parse("3d").unwrap());
        input.family_name_latin = "Wang".into();
        input.egd_pin = " 12345678 ".into();
        let facts = Facts::of_entrant(&input);
        let mut p = zh("王", "伟", None, "");
        p.egd_pin = "12345678".into();
        assert_eq!(exact_match(&facts, [(4, &p)]), Some((4, Link::Pin)));
    }

    /// Registry practice (an ID card's name and birth date): same Chinese name and birth date
    /// link; same name with another or no birth date does not.
    #[test]
    fn name_and_birth_link_nothing_less() {
        let new = zh("王", "伟", Some("2001-05-06"), "北京棋院");
        let same = zh("王", " 伟", Some("2001-05-06"), "上海");
        let other_birth = zh("王", "伟", Some("2001-05-07"), "北京棋院");
        let no_birth = zh("王", "伟", None, "北京棋院");
        assert_eq!(exact_match(&new, [(3, &other_birth), (4, &no_birth)]), None);
        assert_eq!(exact_match(&new, [(7, &same), (2, &same)]), Some((2, Link::NameAndBirth)));
        let unborn = zh("王", "伟", None, "北京棋院");
        assert_eq!(exact_match(&unborn, [(4, &no_birth)]), None, "no birth date: never linked by name");
    }

    /// Registry practice: same name and birth date, or same pinyin and unit, flag a likely
    /// duplicate; a namesake of another club with another birth date is another person.
    #[test]
    fn likely_duplicates_are_flagged() {
        let a = zh("王", "伟", Some("2001-05-06"), "北京棋院");
        let b = zh("王", "伟", Some("2001-05-06"), "");
        let c = zh("汪", "伟", None, "北京棋院");
        let d = Facts {
            family_latin: "Wang".into(),
            given_latin: "Wei".into(),
            unit: "北京棋院 ".into(),
            ..Facts::default()
        };
        let e = zh("王", "伟", Some("1990-01-01"), "上海");
        let list = vec![(1, a), (2, b), (3, c), (4, d), (5, e)];
        let found = likely_duplicates(&list);
        assert!(found.contains(&(1, 2, Likeness::NameAndBirth)));
        assert!(found.contains(&(1, 3, Likeness::PinyinAndUnit)));
        assert!(found.contains(&(3, 4, Likeness::PinyinAndUnit)));
        assert!(!found.iter().any(|&(x, y, _)| x == 5 || y == 5), "{found:?}");
    }

    /// The registry search is the names' search: characters, pinyin with or without tones or
    /// spaces, and initials find 张昊洋; other names are not found.
    #[test]
    fn search_by_characters_pinyin_and_initials() {
        let list = vec![
            (1, zh("张", "昊洋", None, "")),
            (2, zh("周", "瑜", None, "")),
            (3, zh("柯", "洁", None, "")),
        ];
        for q in ["张昊洋", "zhanghaoyang", "zhāng hào yáng", "zhhy", "zhanghy", "Zhang Haoyang", "haoyang"]
        {
            assert_eq!(search(q, &list), vec![1], "{q}");
        }
        assert_eq!(search("z", &list), vec![1, 2]);
        assert_eq!(search("zy", &list), vec![2], "周瑜 by initials");
        assert!(search("  ", &list).is_empty());
    }
}
