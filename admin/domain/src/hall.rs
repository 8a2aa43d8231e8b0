//! The hall plan: the table numbers of one round across the groups (组别) that play in one hall.
//!
//! Each group numbers its own tables 1..k, as a tournament always has. In the hall they take a
//! range of numbers: by default consecutive in the hall's order (the strongest group first, so
//! the top boards keep the low numbers), or from a first number the organizer fixed for the
//! group (the stage tables, a separate room from 101). Every table number in the hall is then
//! unique in the round, and the pairing lists, scoresheets, table cards and the public "find my
//! table" all show the hall number.
//!
//! Pure: the caller passes, per group in hall order, how many tables it uses in the round and
//! the first number fixed for it, if any.

use serde::Serialize;

/// One group's need in a round, in the hall's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GroupTables {
    /// Tables the group uses in the round (its highest table number; a bye takes none).
    pub tables: u32,
    /// The first hall number the organizer fixed for the group; `None`: right after the
    /// groups before it.
    pub first: Option<u32>,
}

/// Where one group's tables stand in the hall: its table `t` (from 1) is hall number
/// `first + t − 1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct HallRange {
    pub first: u32,
    /// Tables in the range (0 for a group that plays no game in the round).
    pub tables: u32,
}

impl HallRange {
    /// The hall number of the group's table `table` (from 1); `None` outside the range.
    pub fn number(self, table: u32) -> Option<u32> {
        (1..=self.tables).contains(&table).then(|| self.first + table - 1)
    }

    /// The last hall number of the range (`first − 1` when empty).
    pub fn last(self) -> u32 {
        self.first + self.tables - 1
    }
}

/// The hall number of table `table` (from 1) of a group's round whose table 1 is hall number
/// `hall_first` (stored with the round when it is paired): `hall_first + table − 1`. Table 0
/// (a bye's, which has no table) stays 0. THE one place a hall number is computed: every page,
/// sheet and export that shows a table number shows this.
pub fn hall_number(hall_first: i32, table: u32) -> u32 {
    if table == 0 {
        return 0;
    }
    u32::try_from(hall_first).unwrap_or(1).max(1) + table - 1
}

/// Why a hall plan cannot stand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum HallError {
    /// Two groups' ranges share table numbers: the groups at these positions (from 0, in hall
    /// order) and the first number they share.
    Overlap { a: usize, b: usize, number: u32 },
    /// A fixed first number of 0 (hall numbers start at 1).
    Zero { group: usize },
}

/// The ranges of a round's groups, in the order given. A group without a fixed first number
/// starts right after the highest number taken by the groups before it (1 for the first);
/// fixed first numbers are kept as set, and a plan whose ranges overlap is refused, naming the
/// two groups, so no two games of the round share a table number.
pub fn plan(groups: &[GroupTables]) -> Result<Vec<HallRange>, HallError> {
    let mut out: Vec<HallRange> = Vec::with_capacity(groups.len());
    for (i, g) in groups.iter().enumerate() {
        let first = match g.first {
            Some(0) => return Err(HallError::Zero { group: i }),
            Some(f) => f,
            None => out.iter().filter(|r| r.tables > 0).map(|r| r.last() + 1).max().unwrap_or(1),
        };
        out.push(HallRange { first, tables: g.tables });
    }
    for (a, ra) in out.iter().enumerate() {
        for (b, rb) in out.iter().enumerate().skip(a + 1) {
            if ra.tables > 0 && rb.tables > 0 && ra.first <= rb.last() && rb.first <= ra.last() {
                return Err(HallError::Overlap { a, b, number: ra.first.max(rb.first) });
            }
        }
    }
    Ok(out)
}

/// One group of the event as the hall sees it while one group's round is paired.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slot {
    /// Tables the group uses in the round: its games if paired (or being paired), else what
    /// it is expected to need (half its active entrants, rounded up).
    pub tables: u32,
    /// The first hall number the organizer fixed for the group.
    pub fixed: Option<u32>,
    /// The first hall number stored with the group's round, once it is paired.
    pub paired_first: Option<u32>,
}

/// The first hall number of group `me`'s round, fixed when it is paired and never moved after:
/// the plan of [`plan`] over the event's groups in hall order, with the groups already paired
/// at their stored numbers and the others reserving what they are expected to need. When that
/// plan cannot stand (a paired group grew past its reservation, or fixed numbers overlap), the
/// group takes the numbers after every range taken or reserved, so no number is ever given twice
/// in the round.
pub fn first_for(groups: &[Slot], me: usize) -> u32 {
    let tables: Vec<GroupTables> = groups
        .iter()
        .enumerate()
        .map(|(i, g)| GroupTables {
            tables: g.tables,
            first: if i == me { g.fixed } else { g.paired_first.or(g.fixed) },
        })
        .collect();
    if let Ok(ranges) = plan(&tables) {
        return ranges[me].first;
    }
    let taken = groups
        .iter()
        .enumerate()
        .filter(|(i, g)| *i != me && g.tables > 0)
        .map(|(_, g)| g.paired_first.or(g.fixed).unwrap_or(1) + g.tables - 1);
    let reserved: u32 = groups.iter().enumerate().filter(|(i, _)| *i != me).map(|(_, g)| g.tables).sum();
    taken.max().unwrap_or(0).max(reserved) + 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashSet;

    fn auto(tables: u32) -> GroupTables {
        GroupTables { tables, first: None }
    }

    /// A three-group open: the strongest group first takes 1–12, the next 13–40, the last
    /// 41–55; a group's table 1 is its first hall number.
    #[test]
    fn consecutive_by_default_strongest_first() {
        let r = plan(&[auto(12), auto(28), auto(15)]).unwrap();
        assert_eq!(
            r.iter().map(|r| (r.first, r.last())).collect::<Vec<_>>(),
            vec![(1, 12), (13, 40), (41, 55)]
        );
        assert_eq!(r[1].number(1), Some(13));
        assert_eq!(r[1].number(28), Some(40));
        assert_eq!(r[1].number(29), None);
        assert_eq!(r[1].number(0), None);
    }

    /// A fixed range (the juniors' room from 101) is kept; the next automatic group follows it.
    #[test]
    fn fixed_first_numbers_are_kept() {
        let r = plan(&[auto(10), GroupTables { tables: 30, first: Some(101) }, auto(5)]).unwrap();
        assert_eq!(r.iter().map(|r| r.first).collect::<Vec<_>>(), vec![1, 101, 131]);
        let r = plan(&[GroupTables { tables: 4, first: Some(50) }, auto(3)]).unwrap();
        assert_eq!(r[1].first, 54);
    }

    /// A group with no game in the round takes no numbers.
    #[test]
    fn an_empty_group_takes_no_numbers() {
        let r = plan(&[auto(3), auto(0), auto(2)]).unwrap();
        assert_eq!(r.iter().map(|r| r.first).collect::<Vec<_>>(), vec![1, 4, 4]);
        assert_eq!(r[1].number(1), None);
    }

    /// Two fixed ranges that share a number are refused, naming both groups and the number.
    #[test]
    fn overlaps_are_refused() {
        let e =
            plan(&[GroupTables { tables: 20, first: Some(1) }, GroupTables { tables: 5, first: Some(15) }]);
        assert_eq!(e, Err(HallError::Overlap { a: 0, b: 1, number: 15 }));
        let e = plan(&[auto(10), GroupTables { tables: 5, first: Some(8) }]);
        assert_eq!(e, Err(HallError::Overlap { a: 0, b: 1, number: 8 }));
        assert_eq!(plan(&[GroupTables { tables: 1, first: Some(0) }]), Err(HallError::Zero { group: 0 }));
    }

    /// A group's table 1 is its first hall number; a single group's tables are their own hall
    /// numbers, and a bye keeps no table.
    #[test]
    fn hall_numbers_follow_the_first() {
        assert_eq!(hall_number(1, 7), 7);
        assert_eq!(hall_number(13, 1), 13);
        assert_eq!(hall_number(13, 28), 40);
        assert_eq!(hall_number(101, 0), 0);
    }

    fn arb_groups() -> impl Strategy<Value = Vec<GroupTables>> {
        prop::collection::vec(
            (0u32..60, prop::option::weighted(0.3, 1u32..300))
                .prop_map(|(tables, first)| GroupTables { tables, first }),
            1..7,
        )
    }

    proptest! {
        /// Whenever a plan stands, every table of every group has a hall number, and no number
        /// is given twice in the round.
        #[test]
        fn hall_numbers_are_unique(groups in arb_groups()) {
            if let Ok(ranges) = plan(&groups) {
                prop_assert_eq!(ranges.len(), groups.len());
                let mut seen = HashSet::new();
                for (g, r) in groups.iter().zip(&ranges) {
                    prop_assert_eq!(r.tables, g.tables);
                    if let Some(f) = g.first { prop_assert_eq!(r.first, f); }
                    for t in 1..=g.tables {
                        let n = r.number(t).unwrap();
                        prop_assert!(n >= 1);
                        prop_assert!(seen.insert(n), "hall number {} given twice", n);
                    }
                }
            }
        }

        /// With no fixed numbers the plan always stands and fills 1..total with no gap.
        #[test]
        fn automatic_plans_are_contiguous(tables in prop::collection::vec(0u32..60, 1..7)) {
            let groups: Vec<_> = tables.iter().map(|&t| auto(t)).collect();
            let ranges = plan(&groups).unwrap();
            let mut all: Vec<u32> = groups.iter().zip(&ranges)
                .flat_map(|(g, r)| (1..=g.tables).filter_map(move |t| r.number(t))).collect();
            all.sort_unstable();
            let total: u32 = tables.iter().sum();
            prop_assert_eq!(all, (1..=total).collect::<Vec<_>>());
        }

        /// Groups paired one at a time, in any order, with fewer or more games than they
        /// reserved: the numbers fixed at each pairing never meet another group's.
        #[test]
        fn pairing_group_by_group_never_shares_a_number(
            groups in prop::collection::vec((0u32..40, 0u32..45, prop::option::weighted(0.2, 1u32..200)), 1..6),
            order in prop::collection::vec(0usize..6, 6),
        ) {
            let mut slots: Vec<Slot> = groups.iter().map(|&(expected, _, fixed)| Slot { tables: expected, fixed, paired_first: None }).collect();
            let mut seq: Vec<usize> = order.iter().map(|&i| i % groups.len()).collect();
            seq.extend(0..groups.len());
            let mut done = vec![false; groups.len()];
            for me in seq {
                if done[me] { continue; }
                done[me] = true;
                slots[me].tables = groups[me].1;
                let first = first_for(&slots, me);
                prop_assert!(first >= 1);
                slots[me].paired_first = Some(first);
            }
            let mut seen = HashSet::new();
            for s in &slots {
                for t in 0..s.tables {
                    prop_assert!(seen.insert(s.paired_first.unwrap() + t));
                }
            }
        }
    }
}
