//! McMahon pairing: the Swiss engine with scores that start from rank.
//!
//! McMahon score (MMS) = initial score + game points, where the initial score is the rank
//! clamped between the floor and the bar, counted in rank steps above the floor, one step
//! being worth one win (so a player one rank stronger starts one win ahead):
//! `initial = (clamp(rank_value, floor, bar) − floor) × win`, in half points like all
//! scores here. Players at or above the bar start together at the top group; players at or
//! below the floor start together at the bottom.
//!
//! Pairing is the weighted engine of [`super::swiss::pair_by_weights`] on MMS (same
//! criteria: no rematch, byes, units, MMS gap, colours), plus the handicap criterion when
//! the event gives handicaps ([`super::HandicapRule`]): handicap = rank difference (or the
//! McMahon-score difference in wins, which follows bar, floor and results) minus the
//! reduction, capped; optionally none when a player is at or above the bar. In a handicap
//! game the weaker player takes Black (rules.md §3.4 for the compensation).
//! Round 1 is paired by the same engine: players meet within their MMS groups by lot.

use super::{History, McMahonSettings, PairingError, Player, RoundPairing, Settings};

/// The initial McMahon score of a player, half points (module docs).
pub fn initial_score(p: &Player, mm: &McMahonSettings, win: i32) -> i32 {
    let floor = mm.floor.min(mm.bar);
    (p.rank_value.clamp(floor, mm.bar) - floor) * win
}

/// Pairs round `round` (from 1) of a McMahon event.
pub fn pair_round(
    players: &[Player],
    history: &History,
    settings: &Settings,
    round: u32,
    seed: u64,
) -> Result<RoundPairing, PairingError> {
    let mm = settings.mcmahon;
    let win = settings.points.win;
    super::swiss::pair_by_weights(players, history, settings, round, seed, &|p, points| {
        initial_score(p, &mm, win) + points
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pairing::testutil::{self, assert_complete, min_rematches, rematches};
    use crate::pairing::{meetings, ColourDecision, HandicapRule, Status};
    use proptest::prelude::*;

    #[test]
    fn initial_scores_with_bar_and_floor() {
        let mm = McMahonSettings { bar: 2, floor: -20 };
        let at = |r| initial_score(&Player::new(1, r), &mm, 4);
        assert_eq!(at(5), 22 * 4, "above the bar = at the bar");
        assert_eq!(at(2), 22 * 4);
        assert_eq!(at(1), 21 * 4);
        assert_eq!(at(-20), 0);
        assert_eq!(at(-30), 0, "below the floor = at the floor");
    }

    #[test]
    fn round_one_pairs_within_rank_groups_with_handicap() {
        // Two 5k, two 1k, two 3d (bar 3d = rank value 2).
        let ranks = [-5, -5, -1, -1, 2, 2];
        let players: Vec<Player> =
            ranks.iter().enumerate().map(|(i, &r)| Player::new(i as u32 + 1, r)).collect();
        let settings = Settings {
            handicap: HandicapRule::RankDifference { reduction: 0, max: 9, below_bar_only: false },
            ..Settings::default()
        };
        let rp = pair_round(&players, &History::default(), &settings, 1, 3).unwrap();
        assert_complete(&players, &rp);
        for g in &rp.games {
            assert_eq!(ranks[g.black as usize - 1], ranks[g.white as usize - 1], "{g:?}");
            assert_eq!(g.handicap, 0);
        }
        assert_eq!(rp.games[0].black.min(rp.games[0].white), 5, "top table: the bar group");
    }

    #[test]
    fn handicap_games_give_black_to_the_weaker() {
        let players = vec![Player::new(1, 3), Player::new(2, -1)];
        let settings = Settings {
            handicap: HandicapRule::RankDifference { reduction: 1, max: 9, below_bar_only: false },
            mcmahon: McMahonSettings { bar: 8, floor: -30 },
            ..Settings::default()
        };
        let rp = pair_round(&players, &History::default(), &settings, 1, 0).unwrap();
        let g = &rp.games[0];
        assert_eq!((g.black, g.white, g.handicap), (2, 1, 3));
        assert_eq!(g.colours, ColourDecision::Handicap);
    }

    #[test]
    fn handicap_from_mcmahon_scores_follows_bar_and_floor() {
        let settings = |floor| Settings {
            handicap: HandicapRule::ScoreDifference {
                reduction: 1,
                max: 9,
                below_bar_only: false,
                per_stone: 4,
            },
            mcmahon: McMahonSettings { bar: 8, floor },
            ..Settings::default()
        };
        // 4d v 1k: four ranks, four wins of McMahon score apart → 3 stones, as by rank.
        let players = vec![Player::new(1, 3), Player::new(2, -1)];
        let g = pair_round(&players, &History::default(), &settings(-30), 1, 0).unwrap().games[0].clone();
        assert_eq!((g.black, g.white, g.handicap), (2, 1, 3));
        // 5k v 10k below a 4k floor: equal McMahon scores, an even game (by rank: 4 stones).
        let players = vec![Player::new(1, -5), Player::new(2, -10)];
        let g = pair_round(&players, &History::default(), &settings(-4), 1, 0).unwrap().games[0].clone();
        assert_eq!(g.handicap, 0);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        #[test]
        fn complete_and_no_avoidable_rematch(n in 2usize..11, rounds in 0u32..4, seed in any::<u64>()) {
            let mut players = testutil::players(n, seed);
            if n > 3 {
                players[0].status = Status::Absent;
            }
            let h = testutil::history(&players, rounds, seed);
            let settings = Settings {
                handicap: HandicapRule::RankDifference { reduction: 2, max: 9, below_bar_only: true },
                ..Settings::default()
            };
            let rp = pair_round(&players, &h, &settings, rounds + 1, seed).unwrap();
            assert_complete(&players, &rp);
            let met = meetings(&h, &settings, rounds + 1);
            let ids: Vec<u32> = players.iter().filter(|p| p.status == Status::Active).map(|p| p.id).collect();
            prop_assert_eq!(rematches(&rp, &met), min_rematches(&ids, &met));
            prop_assert_eq!(pair_round(&players, &h, &settings, rounds + 1, seed).unwrap(), rp);
        }
    }
}
