//! Prizes (录取名次与单项奖): who wins each prize an organizer defines, from the final
//! standings.
//!
//! Pure: the prizes in the organizer's order of precedence, the event's rule for a player who
//! qualifies for two, and the contenders in standings order (rules.md §15: the tournament's
//! own tie-breaks, players still equal listed in the event's name order) in; one [`Award`] per
//! prize out. Neither rule text speaks of prizes; the decisions are the project's (docs/rules.md,
//! decisions D24 and D25):
//!
//! - **Places** (第一名 … 第N名, "录取前N名") go down the standings; **special prizes** (best
//!   woman 最佳女棋手, best junior born on or after a date 最佳少年, best of a rank band, best of
//!   a unit or city) go to the highest-placed contender who meets their condition.
//! - **Higher only** (the default, D24): a player who qualifies for two takes the one earlier in
//!   the organizer's precedence (places above specials unless the organizer moves one up);
//!   the next in line takes the other. **Both**: each prize is decided on its own, place k going
//!   to the k-th contender.
//! - **Withdrawn players** (退赛) are not awarded (D25), unless the event says they are.
//! - **Ties**: a place the standings still share after every tie-break goes to the first of
//!   the tied players in the standings' order, and the award says whom it was tied with, so the
//!   page can warn.

use crate::entrant::Sex;
use crate::player::PlayerId;
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

/// What a prize is for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Kind {
    /// The k-th place (1-based).
    Place(u32),
    /// The best woman (最佳女棋手).
    Woman,
    /// The best junior: born on or after the date (最佳少年).
    Junior(NaiveDate),
    /// The best of a rank band, both ends included, in rank values (`Rank::value`).
    RankBand { low: i32, high: i32 },
    /// The best of a unit or city: the entrant's unit or region is one of these names.
    Unit(Vec<String>),
}

/// What a player who qualifies for two prizes takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Double {
    /// The higher prize only; the next in line takes the other (the default, D24).
    HigherOnly,
    /// Both.
    Both,
}

impl Double {
    pub fn code(self) -> &'static str {
        match self {
            Double::HigherOnly => "higher",
            Double::Both => "both",
        }
    }
    pub fn from_code(s: &str) -> Option<Double> {
        match s {
            "higher" => Some(Double::HigherOnly),
            "both" => Some(Double::Both),
            _ => None,
        }
    }
}

/// The event's rules for its prizes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rules {
    pub double: Double,
    /// Withdrawn players may be awarded (off by default, D25).
    pub award_withdrawn: bool,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules { double: Double::HigherOnly, award_withdrawn: false }
    }
}

/// A player as the prizes see one, given in standings order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Contender {
    pub id: PlayerId,
    /// The standings place (players tied on every criterion share it).
    pub place: u32,
    pub sex: Option<Sex>,
    pub birth_date: Option<NaiveDate>,
    pub rank_value: i32,
    pub unit: String,
    pub region: String,
    pub withdrawn: bool,
}

/// Whether `c` meets the condition of a prize of kind `k` (places: everyone).
pub fn meets(k: &Kind, c: &Contender) -> bool {
    match k {
        Kind::Place(_) => true,
        Kind::Woman => c.sex == Some(Sex::F),
        Kind::Junior(d) => c.birth_date.is_some_and(|b| b >= *d),
        Kind::RankBand { low, high } => (*low..=*high).contains(&c.rank_value),
        Kind::Unit(names) => names.iter().any(|n| {
            let n = n.trim();
            !n.is_empty() && (c.unit.trim() == n || c.region.trim() == n)
        }),
    }
}

/// Who wins one prize (the prizes' order is the order given).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Award {
    /// None: nobody qualifies (or, under "higher only", everyone who does has a higher prize).
    pub winner: Option<PlayerId>,
    /// The contenders in line for this prize who share the winner's standings place but did
    /// not get it: the standings did not separate them.
    pub tied_with: Vec<PlayerId>,
}

/// The winner of every prize of `prizes` (in precedence order, highest first) among
/// `contenders` (in standings order). See the module docs.
pub fn award(prizes: &[Kind], contenders: &[Contender], rules: Rules) -> Vec<Award> {
    let eligible: Vec<&Contender> =
        contenders.iter().filter(|c| rules.award_withdrawn || !c.withdrawn).collect();
    let mut taken = vec![false; eligible.len()];
    prizes
        .iter()
        .map(|k| {
            let line: Vec<usize> = (0..eligible.len())
                .filter(|&i| meets(k, eligible[i]))
                .filter(|&i| rules.double == Double::Both || !taken[i])
                .collect();
            let pick = match (rules.double, k) {
                (Double::Both, Kind::Place(n)) => n.checked_sub(1).map(|n| n as usize),
                _ => Some(0),
            };
            let Some(at) = pick.filter(|&at| at < line.len()) else {
                return Award { winner: None, tied_with: Vec::new() };
            };
            let w = line[at];
            taken[w] = true;
            let place = eligible[w].place;
            let tied_with = line[at + 1..]
                .iter()
                .filter(|&&i| eligible[i].place == place)
                .map(|&i| eligible[i].id)
                .collect();
            Award { winner: Some(eligible[w].id), tied_with }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashSet;

    fn c(id: PlayerId, place: u32) -> Contender {
        Contender {
            id,
            place,
            sex: Some(Sex::M),
            birth_date: NaiveDate::from_ymd_opt(1990, 1, 1),
            rank_value: 0,
            unit: String::new(),
            region: String::new(),
            withdrawn: false,
        }
    }

    fn winners(a: &[Award]) -> Vec<Option<PlayerId>> {
        a.iter().map(|a| a.winner).collect()
    }

    /// Decision D24 (prizes): the 2nd-placed woman qualifies for 第二名 and 最佳女棋手; under
    /// "higher only" she takes the place and the next woman in line the special prize; under
    /// "both" she takes both.
    #[test]
    fn a_double_qualification_goes_to_the_next_in_line() {
        let mut field: Vec<Contender> = (1..=6).map(|i| c(i, i)).collect();
        field[1].sex = Some(Sex::F);
        field[4].sex = Some(Sex::F);
        let prizes = [Kind::Place(1), Kind::Place(2), Kind::Place(3), Kind::Woman];
        let higher = award(&prizes, &field, Rules::default());
        assert_eq!(winners(&higher), [Some(1), Some(2), Some(3), Some(5)]);
        let both = award(&prizes, &field, Rules { double: Double::Both, award_withdrawn: false });
        assert_eq!(winners(&both), [Some(1), Some(2), Some(3), Some(2)]);
        // The organizer puts the special prize first: she takes it and the places move down.
        let first = [Kind::Woman, Kind::Place(1), Kind::Place(2), Kind::Place(3)];
        assert_eq!(winners(&award(&first, &field, Rules::default())), [Some(2), Some(1), Some(3), Some(4)]);
    }

    /// Decision D25 (prizes): a withdrawn player is not awarded unless the event says so; the
    /// next in line takes the prize.
    #[test]
    fn a_withdrawn_player_is_passed_over_unless_the_event_awards_them() {
        let mut field: Vec<Contender> = (1..=4).map(|i| c(i, i)).collect();
        field[0].withdrawn = true;
        let prizes = [Kind::Place(1), Kind::Place(2)];
        assert_eq!(winners(&award(&prizes, &field, Rules::default())), [Some(2), Some(3)]);
        let keep = Rules { award_withdrawn: true, ..Rules::default() };
        assert_eq!(winners(&award(&prizes, &field, keep)), [Some(1), Some(2)]);
    }

    /// Decision D24 (prizes), rules.md §15: a place still shared after every tie-break goes to
    /// the first of the tied in the standings' order, and the award names the other.
    #[test]
    fn a_tie_left_by_the_tie_breaks_is_named() {
        let field = [c(1, 1), c(2, 2), c(3, 2), c(4, 4)];
        let a = award(&[Kind::Place(1), Kind::Place(2)], &field, Rules::default());
        assert_eq!(a[1], Award { winner: Some(2), tied_with: vec![3] });
        assert!(a[0].tied_with.is_empty());
        let a = award(&[Kind::Place(1), Kind::Place(2), Kind::Place(3)], &field, Rules::default());
        assert_eq!(a[1].tied_with, vec![3], "the next place still goes to the tied player");
        assert_eq!(a[2], Award { winner: Some(3), tied_with: vec![] });
    }

    /// Decision D24 (prizes): each special prize's condition — woman, born on or after the
    /// date, rank band with both ends, unit or city by name; nobody qualifying leaves it open.
    #[test]
    fn each_special_prize_reads_its_condition() {
        let d = |y, m, dd| NaiveDate::from_ymd_opt(y, m, dd).unwrap();
        let mut field: Vec<Contender> = (1..=5).map(|i| c(i, i)).collect();
        field[2].birth_date = Some(d(2012, 5, 1));
        field[3].birth_date = Some(d(2012, 4, 30));
        field[1].rank_value = 2; // 3段
        field[4].unit = " 杭州棋院 ".into();
        field[3].region = "宁波".into();
        let prizes = [
            Kind::Junior(d(2012, 4, 30)),
            Kind::RankBand { low: 0, high: 2 },
            Kind::Unit(vec!["杭州棋院".into()]),
            Kind::Unit(vec!["绍兴".into(), "宁波".into()]),
            Kind::Woman,
        ];
        let a = award(&prizes, &field, Rules { double: Double::Both, award_withdrawn: false });
        assert_eq!(winners(&a), [Some(3), Some(1), Some(5), Some(4), None]);
        let a = award(&prizes, &field, Rules::default());
        assert_eq!(winners(&a), [Some(3), Some(1), Some(5), Some(4), None]);
        assert!(!meets(&Kind::Unit(vec![String::new()]), &field[0]), "an empty name matches nobody");
    }

    fn kind() -> impl Strategy<Value = Kind> {
        prop_oneof![
            (1u32..6).prop_map(Kind::Place),
            Just(Kind::Woman),
            (2000i32..2015).prop_map(|y| Kind::Junior(NaiveDate::from_ymd_opt(y, 1, 1).unwrap())),
            (-5i32..5, 0i32..4).prop_map(|(l, w)| Kind::RankBand { low: l, high: l + w }),
            prop::sample::subsequence(vec!["甲".to_string(), "乙".to_string(), "丙".to_string()], 1..3)
                .prop_map(Kind::Unit),
        ]
    }

    fn field() -> impl Strategy<Value = Vec<Contender>> {
        prop::collection::vec(
            (any::<bool>(), 1995i32..2016, -6i32..6, 0usize..4, any::<bool>(), 0u32..3),
            0..14,
        )
        .prop_map(|v| {
            let units = ["甲", "乙", "丙", "丁"];
            let mut place = 0;
            v.into_iter()
                .enumerate()
                .map(|(i, (f, y, r, u, w, step))| {
                    // Places ascend along the standings; a step of 0 shares the place above.
                    if i == 0 || step > 0 {
                        place = i as u32 + 1;
                    }
                    Contender {
                        id: i as u32 + 1,
                        place,
                        sex: Some(if f { Sex::F } else { Sex::M }),
                        birth_date: NaiveDate::from_ymd_opt(y, 6, 1),
                        rank_value: r,
                        unit: units[u].to_string(),
                        region: String::new(),
                        withdrawn: w && i % 3 == 0,
                    }
                })
                .collect()
        })
    }

    proptest! {
        /// Decisions D24 and D25 (prizes): under "higher only" no player holds two prizes, every
        /// winner meets the prize's condition and is not withdrawn, and nobody who meets it and
        /// stands above the winner (or anyone at all, when it stays open) is left without a
        /// higher prize; under "both" every special goes to the first who meets it.
        #[test]
        fn awards_follow_the_rule(
            prizes in prop::collection::vec(kind(), 0..8),
            field in field(),
            both in any::<bool>(),
            award_withdrawn in any::<bool>(),
        ) {
            let rules = Rules { double: if both { Double::Both } else { Double::HigherOnly }, award_withdrawn };
            let a = award(&prizes, &field, rules);
            prop_assert_eq!(a.len(), prizes.len());
            let pos = |id: PlayerId| field.iter().position(|c| c.id == id).unwrap();
            let ok = |c: &Contender| award_withdrawn || !c.withdrawn;
            let mut held = HashSet::new();
            for (i, (k, aw)) in prizes.iter().zip(&a).enumerate() {
                // The prizes of higher precedence held by each player.
                let higher: HashSet<PlayerId> = a[..i].iter().filter_map(|x| x.winner).collect();
                if let Some(w) = aw.winner {
                    let wc = &field[pos(w)];
                    prop_assert!(meets(k, wc) && ok(wc), "the winner qualifies");
                    if !both {
                        prop_assert!(held.insert(w), "one prize per player");
                    }
                }
                let limit = aw.winner.map(pos).unwrap_or(field.len());
                for c in &field[..limit] {
                    if meets(k, c) && ok(c) {
                        match (both, k) {
                            (false, _) => prop_assert!(higher.contains(&c.id), "{} passed over", c.id),
                            (true, Kind::Place(_)) => {}
                            (true, _) => prop_assert!(false, "{} passed over", c.id),
                        }
                    }
                }
                if let (true, Kind::Place(n)) = (both, k) {
                    let line: Vec<PlayerId> = field.iter().filter(|c| ok(c)).map(|c| c.id).collect();
                    prop_assert_eq!(aw.winner, line.get(*n as usize - 1).copied());
                }
                for t in &aw.tied_with {
                    prop_assert_eq!(Some(field[pos(*t)].place), aw.winner.map(|w| field[pos(w)].place));
                }
            }
        }
    }
}
