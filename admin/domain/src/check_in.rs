//! Check-in (签到) before a round: who is expected, who is set absent when the organizer
//! closes check-in, whether the deadline has come, and the short code self check-in asks for.
//! Check-in is the venue's practice, not an article of the rules: an entrant who is not there
//! is set absent for the round (not paired, no bye), as the attendance page does by hand. A
//! tournament that never opens check-in pairs as before: nothing here runs unless the
//! organizer closes a round's check-in.

use chrono::{DateTime, Utc};
use std::collections::HashSet;

/// An entrant as check-in sees them for round `n`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Expected {
    pub id: i32,
    /// The first round they play (a late entrant's is later than 1).
    pub first_round: i32,
    /// Withdrawn as of round `n` (退赛): not expected.
    pub withdrawn: bool,
}

impl Expected {
    /// Whether round `n` expects them: entered by then and not withdrawn.
    pub fn expected_in(&self, n: i32) -> bool {
        !self.withdrawn && self.first_round <= n
    }
}

/// Those closing round `n`'s check-in sets absent: expected in the round, not checked in and
/// not already absent; in the order given.
pub fn absent_at_closing(
    n: i32,
    entrants: &[Expected],
    checked_in: &HashSet<i32>,
    already_absent: &HashSet<i32>,
) -> Vec<i32> {
    entrants
        .iter()
        .filter(|e| e.expected_in(n) && !checked_in.contains(&e.id) && !already_absent.contains(&e.id))
        .map(|e| e.id)
        .collect()
}

/// Whether check-in may be closed at `now`: at or after the deadline. No deadline set: the
/// organizer closes when they choose.
pub fn may_close(deadline: Option<DateTime<Utc>>, now: DateTime<Utc>) -> bool {
    deadline.is_none_or(|d| now >= d)
}

/// The length of the self check-in code.
pub const CODE_LEN: usize = 4;

/// A code from a random number the caller draws: `CODE_LEN` digits (easy to read aloud and
/// to type on a phone's number pad).
pub fn code_of(random: u64) -> String {
    format!("{:0width$}", random % 10u64.pow(CODE_LEN as u32), width = CODE_LEN)
}

/// Whether `typed` is `code`: digits compared after dropping spaces, full-width digits read
/// as ASCII (a phone's Chinese keyboard types "１２３４"), in time independent of where they
/// differ.
pub fn code_matches(code: &str, typed: &str) -> bool {
    let typed: Vec<u8> = typed
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| match c {
            '０'..='９' => (b'0' + (c as u32 - '０' as u32) as u8) as char,
            c => c,
        })
        .collect::<String>()
        .into_bytes();
    let code = code.as_bytes();
    if code.is_empty() || typed.len() != code.len() {
        return false;
    }
    code.iter().zip(&typed).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::names::{Name, Query};

    fn e(id: i32, first_round: i32, withdrawn: bool) -> Expected {
        Expected { id, first_round, withdrawn }
    }

    /// Check-in (签到): closing round 1 sets absent exactly those expected and not checked in;
    /// the withdrawn (退赛), a late entrant who starts later and those already absent are left
    /// as they are.
    #[test]
    fn closing_sets_absent_only_the_expected_not_checked_in() {
        let field =
            [e(1, 1, false), e(2, 1, false), e(3, 1, true), e(4, 3, false), e(5, 1, false), e(6, 1, false)];
        let checked: HashSet<i32> = [1].into();
        let absent: HashSet<i32> = [5].into();
        assert_eq!(absent_at_closing(1, &field, &checked, &absent), vec![2, 6]);
        // In round 3 the late entrant is expected too.
        assert_eq!(absent_at_closing(3, &field, &checked, &absent), vec![2, 4, 6]);
        // Everyone checked in: nobody.
        let all: HashSet<i32> = (1..=6).collect();
        assert!(absent_at_closing(1, &field, &all, &HashSet::new()).is_empty());
    }

    /// Check-in (签到): the organizer closes at or after the deadline, never before.
    #[test]
    fn check_in_closes_at_or_after_the_deadline() {
        let at = |s: &str| crate::event_time::parse_stored(s).unwrap();
        let d = at("2026-12-05 01:00:00");
        assert!(!may_close(Some(d), at("2026-12-05 00:59:59")));
        assert!(may_close(Some(d), d));
        assert!(may_close(None, at("2026-12-05 00:00:00")));
    }

    /// Check-in (签到): the venue's code is four digits; typed with spaces or full-width
    /// digits it still matches, and anything else does not.
    #[test]
    fn the_code_is_four_digits_and_matches_as_typed() {
        assert_eq!(code_of(7), "0007");
        assert_eq!(code_of(123_456), "3456");
        assert!(
            code_matches("0427", "0427")
                && code_matches("0427", " 04 27 ")
                && code_matches("0427", "０４２７")
        );
        assert!(!code_matches("0427", "0428") && !code_matches("0427", "427") && !code_matches("", ""));
    }

    /// Check-in (签到): the desk finds an entrant by Chinese name, full pinyin or initials,
    /// with the names module's search (the same the public find-my-table uses).
    #[test]
    fn the_desk_finds_by_characters_pinyin_and_initials() {
        let name = Name { family_zh: "张", given_zh: "伟", family_latin: "", given_latin: "" };
        for typed in ["张伟", "张", "zhangwei", "Zhang Wei", "zw"] {
            assert!(Query::new(typed).matches(&name), "{typed}");
        }
        for typed in ["李", "lw", "wangwei"] {
            assert!(!Query::new(typed).matches(&name), "{typed}");
        }
    }
}
