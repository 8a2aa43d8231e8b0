//! Ratings after the event under the European Go Federation's GoR system, in the form the
//! EGF's rating page (europeangodatabase.eu, "EGF rating system") has published since the
//! whole database was recalculated with it in 2021.
//!
//! For one game of a player rated `r` against an opponent rated `r2`:
//!
//! - `β(r) = −7 · ln(3300 − r)`, and the expected result (Bradley–Terry)
//!   `Se = 1 / (1 + e^(β(r2) − β(r)))`;
//! - `con(r) = ((3300 − r) / 200)^1.6`, the volatility;
//! - `bonus(r) = ln(1 + e^((2300 − r) / 80)) / 5`, against deflation;
//! - the change `con · (Sa − Se) + bonus`, `Sa` 1 for a win, ½ for jigo, 0 for a loss.
//!
//! **Handicap.** For `Se` only, the rating of the player who takes `h ≥ 1` handicap stones
//! (Black) counts `100 · h − 50` points higher: a stone is worth a grade (100 points), less
//! the half stone of komi White no longer receives. An even game (`h = 0`) is not adjusted,
//! whatever the event's komi: the EGF's formula knows the stones, not the komi.
//! `con` and `bonus` are read at the player's own rating.
//!
//! **The event.** Every game is rated from the ratings both players had before the event
//! (the EGF rates a tournament at once, not game by game), and a player's changes are summed.
//! The EGF's tournament classes weigh the change: A 100 %, B 75 %, C 50 %, D 25 %.
//!
//! **Which games.** Only games played on the board: the caller passes those, having dropped
//! byes, absences, forfeits and double losses by the same decision the `.h9` file makes.
//!
//! **Before the first rating.** A player without a rating starts from their rank's rating on
//! the EGF's grade scale: 1 dan = 2100, 100 points a grade (20 kyu = 100, 30 kyu = −900,
//! 7 dan = 2700, 9 dan = 2900); professionals 30 points a rank above 2700 (1p = 2730, as the
//! GoR rank table set them).
//!
//! **Rounding.** The formula is transcendental, so it is computed in `f64`; the EGF keeps a
//! rating to three decimals, so each player's rating after the event is rounded once, to the
//! thousandth (half away from zero), in [`milli`]. Pages show whole points.

use crate::entrant::Rank;

/// The pole of the β mapping: ratings stay below it.
const POLE: f64 = 3300.0;

/// A result in half points for the first-named side: 2 a win, 1 jigo, 0 a loss.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    Win,
    Jigo,
    Loss,
}

impl Score {
    /// `Sa`: 1, ½ or 0.
    pub fn actual(self) -> f64 {
        match self {
            Score::Win => 1.0,
            Score::Jigo => 0.5,
            Score::Loss => 0.0,
        }
    }

    /// The same game from the other side.
    pub fn reversed(self) -> Score {
        match self {
            Score::Win => Score::Loss,
            Score::Jigo => Score::Jigo,
            Score::Loss => Score::Win,
        }
    }
}

/// The EGF's tournament class, which weighs the change (A 100 %, B 75 %, C 50 %, D 25 %).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Class {
    #[default]
    A,
    B,
    C,
    D,
}

impl Class {
    /// The weight in quarters (4, 3, 2, 1): exact.
    pub fn quarters(self) -> u8 {
        match self {
            Class::A => 4,
            Class::B => 3,
            Class::C => 2,
            Class::D => 1,
        }
    }
}

/// One game played on the board, between players named by their index in the ratings list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RatedGame {
    pub black: usize,
    pub white: usize,
    /// Handicap stones Black took (0: an even game).
    pub handicap: u8,
    /// Black's result.
    pub black_score: Score,
}

/// One player's rating change over the event.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Change {
    pub before: f64,
    pub after: f64,
    /// Games rated (played on the board).
    pub games: u32,
}

/// The rating a rank starts from (see the module's "Before the first rating").
pub fn rank_rating(rank: Rank) -> i32 {
    match rank {
        Rank::Kyu(k) => 2100 - 100 * i32::from(k),
        Rank::Dan(d) => 2000 + 100 * i32::from(d),
        Rank::Pro(p) => 2700 + 30 * i32::from(p),
    }
}

/// A player's rating before the event: their stored rating, else their rank's.
pub fn rating_before(rating: Option<i32>, rank: Rank) -> i32 {
    rating.unwrap_or_else(|| rank_rating(rank))
}

/// `β(r) = −7 · ln(3300 − r)`.
pub fn beta(r: f64) -> f64 {
    -7.0 * (POLE - r).ln()
}

/// `Se = 1 / (1 + e^(β(r2) − β(r1)))`: the chance that a player rated `r1` beats one rated `r2`.
pub fn expected(r1: f64, r2: f64) -> f64 {
    1.0 / (1.0 + (beta(r2) - beta(r1)).exp())
}

/// `con(r) = ((3300 − r) / 200)^1.6`.
pub fn con(r: f64) -> f64 {
    ((POLE - r) / 200.0).powf(1.6)
}

/// `bonus(r) = ln(1 + e^((2300 − r) / 80)) / 5`.
pub fn bonus(r: f64) -> f64 {
    (1.0 + ((2300.0 - r) / 80.0).exp()).ln() / 5.0
}

/// The points Black's rating counts for in `Se` with `h` handicap stones: `100 · h − 50` for
/// `h ≥ 1`, nothing for an even game.
pub fn handicap_points(h: u8) -> f64 {
    if h == 0 {
        0.0
    } else {
        100.0 * f64::from(h) - 50.0
    }
}

/// One game's change for a player rated `r` against `opponent`, each already adjusted for the
/// handicap in `Se` (`r_se`, `opponent_se`), at full weight (class A).
pub fn game_change(r: f64, r_se: f64, opponent_se: f64, score: Score) -> f64 {
    con(r) * (score.actual() - expected(r_se, opponent_se)) + bonus(r)
}

/// Every player's change over the event: `before[i]` is player i's rating before the event,
/// `games` the games played on the board. A player without games keeps their rating.
pub fn event_changes(before: &[f64], games: &[RatedGame], class: Class) -> Vec<Change> {
    let weight = f64::from(class.quarters()) / 4.0;
    let mut out: Vec<Change> = before.iter().map(|&r| Change { before: r, after: r, games: 0 }).collect();
    for g in games {
        let (rb, rw) = (before[g.black], before[g.white]);
        // The formula is undefined at its pole (3300): a handicap that would carry Black's
        // rating there is held just below it (no real game comes near).
        let rb_se = (rb + handicap_points(g.handicap)).min(POLE - 1.0);
        let black = game_change(rb, rb_se, rw, g.black_score);
        let white = game_change(rw, rw, rb_se, g.black_score.reversed());
        out[g.black].after += weight * black;
        out[g.black].games += 1;
        out[g.white].after += weight * white;
        out[g.white].games += 1;
    }
    out
}

/// A rating in thousandths of a point, rounded half away from zero: how a rating is kept.
pub fn milli(r: f64) -> i64 {
    (r * 1000.0).round() as i64
}

/// Whole points from thousandths, rounded half away from zero: how a rating is shown.
pub fn whole(milli: i64) -> i64 {
    let q = milli.abs() / 1000;
    let q = if milli.abs() % 1000 >= 500 { q + 1 } else { q };
    if milli < 0 {
        -q
    } else {
        q
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The published formula restated step by step, independently of the module, for the
    /// worked examples: β, Se, con and bonus written out with `f64::ln`, `exp` and `powf`.
    fn by_hand(r: f64, opp: f64, h_black_points: f64, sa: f64) -> f64 {
        let b_self = -7.0 * f64::ln(3300.0 - (r + h_black_points));
        let b_opp = -7.0 * f64::ln(3300.0 - opp);
        let se = 1.0 / (1.0 + f64::exp(b_opp - b_self));
        let con = f64::powf((3300.0 - r) / 200.0, 1.6);
        let bonus = f64::ln(1.0 + f64::exp((2300.0 - r) / 80.0)) / 5.0;
        con * (sa - se) + bonus
    }

    /// EGF rating system (2021): a player's starting rating is their grade's, 1 dan = 2100 and
    /// 100 points a grade; professionals 30 a rank above 2700.
    #[test]
    fn ranks_start_on_the_grade_scale() {
        assert_eq!(rank_rating(Rank::Dan(1)), 2100);
        assert_eq!(rank_rating(Rank::Kyu(1)), 2000);
        assert_eq!(rank_rating(Rank::Kyu(20)), 100);
        assert_eq!(rank_rating(Rank::Kyu(30)), -900);
        assert_eq!(rank_rating(Rank::Dan(7)), 2700);
        assert_eq!(rank_rating(Rank::Pro(1)), 2730);
        assert_eq!(rating_before(None, Rank::Kyu(5)), 1600);
        assert_eq!(rating_before(Some(1650), Rank::Kyu(5)), 1650);
    }

    /// EGF rating system (2021): r' = r + con·(Sa − Se) + bonus for an even game, worked
    /// example 2d (2200) beats 1d (2100) and the other way round, computed by hand.
    #[test]
    fn even_game_worked_example() {
        let games = [RatedGame { black: 0, white: 1, handicap: 0, black_score: Score::Win }];
        let c = event_changes(&[2200.0, 2100.0], &games, Class::A);
        let winner = 2200.0 + by_hand(2200.0, 2100.0, 0.0, 1.0);
        let loser = 2100.0 + by_hand(2100.0, 2200.0, 0.0, 0.0);
        assert!((c[0].after - winner).abs() < 1e-9, "{} vs {winner}", c[0].after);
        assert!((c[1].after - loser).abs() < 1e-9);
        assert_eq!((c[0].games, c[1].games), (1, 1));
        // The numbers themselves, so a change of the formula on both sides still fails:
        // Se(2200 vs 2100) = 1/(1+e^(7·ln(1100/1200))) ≈ 0.6478; con(2200) = 5.5^1.6 ≈ 15.29.
        let se = 1.0 / (1.0 + (7.0 * (1100.0f64 / 1200.0).ln()).exp());
        assert!((se - 0.6478).abs() < 1e-3, "{se}");
        assert!((con(2200.0) - 15.29).abs() < 0.01, "{}", con(2200.0));
        assert_eq!(milli(c[0].after), milli(winner));
    }

    /// EGF rating system (2021), handicap games: Black's rating counts 100·h − 50 more in Se;
    /// worked example 5k (1600) takes 3 stones from 2k (1900) and wins, by hand.
    #[test]
    fn handicap_game_worked_example() {
        let games = [RatedGame { black: 0, white: 1, handicap: 3, black_score: Score::Win }];
        let c = event_changes(&[1600.0, 1900.0], &games, Class::A);
        let black = 1600.0 + by_hand(1600.0, 1900.0, 250.0, 1.0);
        // White's Se is read against Black's adjusted rating (1850).
        let white = 1900.0 + by_hand(1900.0, 1850.0, 0.0, 0.0);
        assert!((c[0].after - black).abs() < 1e-9);
        assert!((c[1].after - white).abs() < 1e-9);
        // Three stones on a three-grade gap leave White the half stone of komi: Black's Se is
        // 1/(1+e^(7·ln(1450/1400))) ≈ 0.439, a little under ½.
        let se = expected(1600.0 + handicap_points(3), 1900.0);
        assert!((se - 0.439).abs() < 1e-3, "{se}");
    }

    /// EGF rating system (2021): a tournament is rated from the ratings before it, each
    /// game's change summed; the class weighs the change (B 75 %).
    #[test]
    fn event_sums_changes_from_ratings_before_and_weighs_the_class() {
        let r = [2100.0, 2000.0, 1900.0];
        let games = [
            RatedGame { black: 0, white: 1, handicap: 0, black_score: Score::Win },
            RatedGame { black: 2, white: 0, handicap: 0, black_score: Score::Jigo },
            RatedGame { black: 1, white: 2, handicap: 0, black_score: Score::Loss },
        ];
        let a = event_changes(&r, &games, Class::A);
        let p0 = by_hand(2100.0, 2000.0, 0.0, 1.0) + by_hand(2100.0, 1900.0, 0.0, 0.5);
        assert!((a[0].after - (2100.0 + p0)).abs() < 1e-9);
        assert_eq!(a[0].games, 2);
        let b = event_changes(&r, &games, Class::B);
        assert!((b[0].after - (2100.0 + 0.75 * p0)).abs() < 1e-9);
    }

    /// EGF rating system: the expected results of the two sides add up to 1 (Bradley–Terry).
    #[test]
    fn expected_results_add_to_one() {
        for (a, b) in [(100.0, 2700.0), (2100.0, 2100.0), (-900.0, 500.0)] {
            assert!((expected(a, b) + expected(b, a) - 1.0).abs() < 1e-12);
        }
        assert!((expected(2100.0, 2100.0) - 0.5).abs() < 1e-12);
    }

    /// Ratings are kept to the thousandth and shown whole, rounded half away from zero.
    #[test]
    fn rounding_keeps_thousandths_and_shows_whole_points() {
        assert_eq!(milli(2100.0005), 2_100_001);
        assert_eq!(milli(-0.0015), -2);
        assert_eq!(whole(2_100_500), 2101);
        assert_eq!(whole(2_100_499), 2100);
        assert_eq!(whole(-1500), -2);
    }

    proptest! {
        /// EGF rating system: a better result never gives a smaller change (monotone in Sa).
        #[test]
        fn monotone_in_the_result(r in -900.0f64..2900.0, o in -900.0f64..2900.0, h in 0u8..10) {
            let change = |s: Score| {
                let g = [RatedGame { black: 0, white: 1, handicap: h, black_score: s }];
                event_changes(&[r, o], &g, Class::A)[0].after
            };
            prop_assert!(change(Score::Loss) < change(Score::Jigo));
            prop_assert!(change(Score::Jigo) < change(Score::Win));
        }

        /// EGF rating system: between equal ratings the volatility and bonus are the same for
        /// both, so without the bonus the change is zero-sum; with it, each gains the bonus.
        #[test]
        fn zero_sum_but_the_bonus_between_equals(r in -900.0f64..2900.0, s in 0u8..3) {
            let score = [Score::Win, Score::Jigo, Score::Loss][usize::from(s)];
            let g = [RatedGame { black: 0, white: 1, handicap: 0, black_score: score }];
            let c = event_changes(&[r, r], &g, Class::A);
            let sum = (c[0].after - r) + (c[1].after - r);
            prop_assert!((sum - 2.0 * bonus(r)).abs() < 1e-9);
        }

        /// EGF rating system: a stronger opponent is expected to win more, so beating them
        /// gains more.
        #[test]
        fn beating_a_stronger_opponent_gains_more(r in 0.0f64..2800.0, d in 1.0f64..400.0) {
            let gain = |o: f64| game_change(r, r, o, Score::Win);
            prop_assert!(gain(r + d) > gain(r));
        }
    }
}
