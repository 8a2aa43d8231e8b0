//! Who is probably the same person: the check an import row or a new entrant goes through before it
//! is added next to the entrants already registered, so the same list imported twice does not
//! double the field.
//!
//! Two entrants match when their names are the same — the Chinese names when both have one,
//! else the Latin names — and either their birth dates are the same, or (when a birth date is
//! missing on either side) their units are. Two entrants with the same name and *different*
//! known birth dates are two people, even in the same unit (王伟 is the most common name in
//! China). Names and units are compared after [`fold`]: full-width forms as typed with a
//! Chinese input method become ASCII, whitespace (also the ideographic space) is dropped, and
//! letters are compared without case. A match is only a flag: the organizer confirms each one.

use super::entrant::{fullwidth_to_ascii, EntrantInput};
use chrono::NaiveDate;
use serde::Serialize;

/// Why two entrants look like the same person.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Match {
    /// Same name and birth date.
    BirthDate,
    /// Same name and unit (a birth date is missing on at least one side).
    Unit,
}

/// What the comparison reads of an entrant, folded once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    name_zh: String,
    name_latin: String,
    unit: String,
    birth: Option<NaiveDate>,
}

/// Full-width → ASCII, no whitespace, lower case: "Ｗａｎｇ　Wei" and "wangwei" fold alike.
pub fn fold(s: &str) -> String {
    s.chars().map(fullwidth_to_ascii).filter(|c| !c.is_whitespace()).flat_map(char::to_lowercase).collect()
}

impl Identity {
    pub fn of(e: &EntrantInput) -> Identity {
        Identity {
            name_zh: fold(&e.full_name_zh()),
            name_latin: fold(&e.full_name_latin()),
            unit: fold(&e.unit),
            birth: e.birth_date,
        }
    }

    fn same_name(&self, other: &Identity) -> bool {
        if !self.name_zh.is_empty() && !other.name_zh.is_empty() {
            self.name_zh == other.name_zh
        } else {
            !self.name_latin.is_empty() && self.name_latin == other.name_latin
        }
    }

    /// Whether `other` is probably the same person, and why.
    pub fn matches(&self, other: &Identity) -> Option<Match> {
        if !self.same_name(other) {
            return None;
        }
        match (self.birth, other.birth) {
            (Some(a), Some(b)) if a == b => Some(Match::BirthDate),
            (Some(_), Some(_)) => None,
            _ => (self.unit == other.unit).then_some(Match::Unit),
        }
    }
}

/// Every entry of `existing` (with its key, e.g. an entrant id) that `e` matches.
pub fn matches_among<'a, K: Copy>(
    e: &EntrantInput,
    existing: impl IntoIterator<Item = (K, &'a Identity)>,
) -> Vec<(K, Match)> {
    let me = Identity::of(e);
    existing.into_iter().filter_map(|(k, other)| me.matches(other).map(|m| (k, m))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entrant::Rank;

    fn person(
        zh: (&str, &str),
        latin: (&str, &str),
        unit: &str,
        birth: Option<(i32, u32, u32)>,
    ) -> EntrantInput {
        let mut e = EntrantInput::new(Rank::Dan(1));
        (e.family_name_zh, e.given_name_zh) = (zh.0.into(), zh.1.into());
        (e.family_name_latin, e.given_name_latin) = (latin.0.into(), latin.1.into());
        e.unit = unit.into();
        e.birth_date = birth.and_then(|(y, m, d)| NaiveDate::from_ymd_opt(y, m, d));
        e
    }

    fn m(a: &EntrantInput, b: &EntrantInput) -> Option<Match> {
        Identity::of(a).matches(&Identity::of(b))
    }

    #[test]
    fn same_name_and_birth_date_or_same_name_and_unit() {
        let a = person(("王", "伟"), ("", ""), "北京棋院", Some((2010, 1, 2)));
        assert_eq!(
            m(&a, &person(("王", "伟"), ("Wang", "Wei"), "上海", Some((2010, 1, 2)))),
            Some(Match::BirthDate)
        );
        assert_eq!(m(&a, &person(("王", "伟"), ("", ""), "北京棋院", None)), Some(Match::Unit));
        assert_eq!(
            m(&a, &person(("王", "伟"), ("", ""), "北京棋院", Some((2011, 1, 2)))),
            None,
            "two people"
        );
        assert_eq!(m(&a, &person(("王", "伟"), ("", ""), "上海", None)), None);
        assert_eq!(m(&a, &person(("汪", "伟"), ("", ""), "北京棋院", Some((2010, 1, 2)))), None);
        // Neither has a birth date nor a unit: same name and (empty) unit.
        let b = person(("李", "强"), ("", ""), "", None);
        assert_eq!(m(&b, &b.clone()), Some(Match::Unit));
    }

    #[test]
    fn whitespace_full_width_and_case_are_folded() {
        let a = person(("", ""), ("Ｗａｎｇ", "Wei"), "Beijing　Qiyuan", None);
        let b = person(("", ""), ("wang", "WEI"), "beijing qiyuan", None);
        assert_eq!(m(&a, &b), Some(Match::Unit));
        assert_eq!(fold(" 北京 棋院\u{3000}"), "北京棋院");
        assert_eq!(fold("ＡＢＣ１２３"), "abc123");
    }

    #[test]
    fn chinese_names_decide_when_both_have_one() {
        let a = person(("王", "伟"), ("Wang", "Wei"), "x", None);
        assert_eq!(m(&a, &person(("汪", "伟"), ("Wang", "Wei"), "x", None)), None, "different characters");
        assert_eq!(m(&a, &person(("", ""), ("Wang", "Wei"), "x", None)), Some(Match::Unit), "Latin only");
        let ids = [(7, Identity::of(&a)), (8, Identity::of(&person(("李", "强"), ("", ""), "x", None)))];
        assert_eq!(matches_among(&a, ids.iter().map(|(k, i)| (*k, i))), vec![(7, Match::Unit)]);
    }
}
