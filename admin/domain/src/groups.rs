//! Groups (组别) of one event: the band that proposes a group's entrants (少儿组: born on or
//! after a date; 业余高段组: 5段 and above), and where each entrant would go.
//!
//! A band only proposes: the organizer confirms every move (an entrant moves between groups
//! before round 1 only, with its audit). The conditions are the prizes' own (`prizes::Kind`'s
//! `Junior` and `RankBand`), so a band and a prize of the same words select the same players.
//! Pure: no IO, nothing worded.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

/// The entrants a group proposes for itself. Every condition given must hold; a band with no
/// condition is the catch-all (公开组), taken by those no other band claims.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Band {
    /// Rank values (`Rank::value`), both ends included.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rank_low: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rank_high: Option<i32>,
    /// Born on or after (少儿组, 少年组).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub born_on_or_after: Option<NaiveDate>,
    /// Born before (老年组).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub born_before: Option<NaiveDate>,
}

impl Band {
    /// No condition: the catch-all.
    pub fn is_open(&self) -> bool {
        *self == Band::default()
    }

    /// Whether a player of this rank value and birth date is in the band. A birth date the
    /// band needs and the entrant lacks does not qualify (the organizer places them by hand).
    pub fn admits(&self, rank_value: i32, birth_date: Option<NaiveDate>) -> bool {
        self.rank_low.is_none_or(|l| rank_value >= l)
            && self.rank_high.is_none_or(|h| rank_value <= h)
            && self.born_on_or_after.is_none_or(|d| birth_date.is_some_and(|b| b >= d))
            && self.born_before.is_none_or(|d| birth_date.is_some_and(|b| b < d))
    }
}

/// One entrant as a band sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Candidate {
    pub id: i32,
    pub rank_value: i32,
    pub birth_date: Option<NaiveDate>,
}

/// The group each candidate is proposed for: the first of `groups` (in the order given, the
/// event's hall order) whose band has a condition and admits them, else the first catch-all
/// group; `None` when no group takes them. Ages are by birth date against the band's dates,
/// which the organizer sets from the event date (seed 000 gives no age rule; the bands are the
/// event's own).
pub fn propose(groups: &[(i32, Band)], candidates: &[Candidate]) -> Vec<(i32, Option<i32>)> {
    candidates
        .iter()
        .map(|c| {
            let banded = groups.iter().find(|(_, b)| !b.is_open() && b.admits(c.rank_value, c.birth_date));
            let open = || groups.iter().find(|(_, b)| b.is_open());
            (c.id, banded.or_else(open).map(|(g, _)| *g))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> NaiveDate {
        s.parse().unwrap()
    }

    fn cand(id: i32, rank_value: i32, born: Option<&str>) -> Candidate {
        Candidate { id, rank_value, birth_date: born.map(d) }
    }

    /// 业余高段组 (5段 and above, rank value 5 and up), 少儿组 (born on or after 2012-01-01), 公开组
    /// the rest: a 6-dan child goes to the first band in hall order that admits them.
    #[test]
    fn the_first_band_that_admits_wins_and_the_open_group_takes_the_rest() {
        let high = Band { rank_low: Some(5), ..Band::default() };
        let kids = Band { born_on_or_after: Some(d("2012-01-01")), ..Band::default() };
        let groups = vec![(10, high), (11, Band::default()), (12, kids)];
        let p = propose(
            &groups,
            &[
                cand(1, 6, Some("2013-05-01")),
                cand(2, 2, Some("2014-02-02")),
                cand(3, 2, Some("1990-01-01")),
                cand(4, 2, None),
                cand(5, 5, None),
            ],
        );
        assert_eq!(p, vec![(1, Some(10)), (2, Some(12)), (3, Some(11)), (4, Some(11)), (5, Some(10))]);
    }

    #[test]
    fn without_an_open_group_some_have_no_place() {
        let kids = Band { born_on_or_after: Some(d("2012-01-01")), ..Band::default() };
        assert_eq!(propose(&[(1, kids)], &[cand(7, 0, Some("2000-01-01"))]), vec![(7, None)]);
    }

    #[test]
    fn both_ends_of_a_band_are_inclusive_but_born_before() {
        let b = Band {
            rank_low: Some(-4),
            rank_high: Some(4),
            born_before: Some(d("1966-01-01")),
            ..Band::default()
        };
        assert!(b.admits(4, Some(d("1965-12-31"))));
        assert!(!b.admits(4, Some(d("1966-01-01"))));
        assert!(!b.admits(5, Some(d("1950-01-01"))));
    }
}
