//! Review warnings for a draft or a manually edited round.
//!
//! An arbiter may edit a pairing by hand; before publishing, [`review`] lists what the
//! engine would have avoided: rematches (rules.md §14.1 item 3), pairs that must not meet
//! ([`super::avoid`]: a listed group, or one unit in the rounds it is barred), same-unit pairs in rounds
//! with avoidance on (§14.4), a player given the same colour a third time in a row where the
//! pairing chooses the colours (§14.3, [INF] default; not under nigiri, lots, a handicap or a
//! table), large score gaps and large handicaps (thresholds in [`Settings`]), a
//! handicap other than the event's handicap rule gives the pair, and
//! structural errors (a player paired twice, an active player left out, an inactive or
//! unknown player paired, an odd or missing bye), and games of earlier rounds still without a
//! result ([`open_games`]: the pairing reads them as unplayed; seed 000 Art. 17.5's note has a
//! computer pairing need every result of the round before).

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};

use super::avoid::{barrier, Barrier};
use super::weights::{handicap_stones, HandicapSide};
use super::{
    meetings, ordered, records, Colour, ColourDecision, ColourMethod, GameResult, HandicapRule, History,
    PairingError, Player, PlayerId, RoundPairing, Settings, Status,
};

/// One review warning. `table` is the table number of the game concerned.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Warning {
    Rematch {
        table: u32,
        a: PlayerId,
        b: PlayerId,
        times: u8,
    },
    SameUnit {
        table: u32,
        a: PlayerId,
        b: PlayerId,
        unit: String,
    },
    /// A pair that must not meet this round meets: edited by hand, or no complete pairing
    /// without it existed ([`super::avoid`]).
    Forbidden {
        table: u32,
        a: PlayerId,
        b: PlayerId,
        why: Barrier,
    },
    ThirdSameColour {
        table: u32,
        player: PlayerId,
        colour: Colour,
    },
    LargeScoreGap {
        table: u32,
        a: PlayerId,
        b: PlayerId,
        gap: i32,
    },
    LargeHandicap {
        table: u32,
        handicap: u8,
    },
    /// The game's handicap is not what the event's handicap rule gives the pair (a manual
    /// edit, or players swapped by hand).
    HandicapNotRule {
        table: u32,
        handicap: u8,
        rule: u8,
    },
    PairedTwice {
        player: PlayerId,
    },
    NotPaired {
        player: PlayerId,
    },
    InactivePaired {
        player: PlayerId,
    },
    UnknownPlayer {
        player: PlayerId,
    },
    /// The bye is missing, superfluous, or goes to a player who already had one while
    /// others had none.
    ByeProblem {
        detail: String,
    },
    /// `games` games of an earlier `round` have no result yet: the pairing reads them as not
    /// played (no score, no meeting).
    OpenGames {
        round: u32,
        games: u32,
    },
}

/// The games of the rounds before `round` that have no result yet, one warning per round.
/// Seed 000 Art. 17.5's note: a computer pairing needs every result of the round before ("编排时
/// 成绩一项不可空缺"); a game replayed counts by its replay.
pub fn open_games(history: &History, round: u32) -> Vec<Warning> {
    let mut by_round: std::collections::BTreeMap<u32, u32> = std::collections::BTreeMap::new();
    for g in history.games.iter().filter(|g| g.round < round && g.result == GameResult::NoResult) {
        *by_round.entry(g.round).or_default() += 1;
    }
    by_round.into_iter().map(|(round, games)| Warning::OpenGames { round, games }).collect()
}

/// Reviews `rp`. `score_of(player, pairing_points)` is the pairing score (Swiss: the points;
/// McMahon: `mcmahon::initial_score + points`), as in the engine.
pub fn review(
    players: &[Player],
    history: &History,
    settings: &Settings,
    rp: &RoundPairing,
    score_of: &dyn Fn(&Player, i32) -> i32,
) -> Result<Vec<Warning>, PairingError> {
    let (recs, _) = records(players, history, settings, rp.round, rp.seed)?;
    let met = meetings(history, settings, rp.round);
    let by_id: HashMap<PlayerId, &Player> = players.iter().map(|p| (p.id, p)).collect();
    let mut out = open_games(history, rp.round);
    let mut seen = HashSet::new();
    let mut mark = |id: PlayerId, out: &mut Vec<Warning>| match by_id.get(&id) {
        None => out.push(Warning::UnknownPlayer { player: id }),
        Some(p) => {
            if !seen.insert(id) {
                out.push(Warning::PairedTwice { player: id });
            }
            if p.status != Status::Active {
                out.push(Warning::InactivePaired { player: id });
            }
        }
    };
    for g in &rp.games {
        mark(g.black, &mut out);
        mark(g.white, &mut out);
    }
    if let Some(b) = rp.bye {
        mark(b, &mut out);
    }
    for p in players.iter().filter(|p| p.status == Status::Active) {
        if !seen.contains(&p.id) {
            out.push(Warning::NotPaired { player: p.id });
        }
    }
    let active = players.iter().filter(|p| p.status == Status::Active).count();
    match rp.bye {
        None if active % 2 == 1 => out.push(Warning::ByeProblem { detail: "odd field without a bye".into() }),
        Some(_) if active % 2 == 0 => {
            out.push(Warning::ByeProblem { detail: "even field with a bye".into() })
        }
        Some(b) if recs.get(&b).is_some_and(|r| r.byes > 0) => {
            let someone_without = players.iter().any(|p| {
                p.status == Status::Active && p.id != b && recs.get(&p.id).is_some_and(|r| r.byes == 0)
            });
            if someone_without {
                out.push(Warning::ByeProblem { detail: format!("{b} already had a bye") });
            }
        }
        _ => {}
    }
    for g in &rp.games {
        let (Some(pb), Some(pw)) = (by_id.get(&g.black), by_id.get(&g.white)) else { continue };
        if let Some(&times) = met.get(&ordered(g.black, g.white)) {
            out.push(Warning::Rematch { table: g.table, a: g.black, b: g.white, times });
        }
        let forbidden = barrier(&history.avoid, settings, rp.round, pb, pw);
        let unit_barred = matches!(forbidden, Some(Barrier::SameUnit { .. }));
        if let Some(why) = forbidden {
            out.push(Warning::Forbidden { table: g.table, a: g.black, b: g.white, why });
        }
        let unit = super::swiss::unit_key(&pb.unit);
        if !unit_barred
            && settings.unit_avoidance_in(rp.round)
            && !unit.is_empty()
            && unit == super::swiss::unit_key(&pw.unit)
        {
            out.push(Warning::SameUnit { table: g.table, a: g.black, b: g.white, unit: unit.to_string() });
        }
        // A colour streak is what a pairing that chooses the colours avoids (§14.3): judged
        // where the event balances colours and the pairing (or a manual edit) chose this
        // game's. Colours by nigiri or lot are chance (§4.1, §14.3: no balancing with
        // nigiri), by handicap or table fixed by rule: no pairing would have avoided them.
        if settings.colours == ColourMethod::Balanced && g.colours == ColourDecision::Balanced {
            for (id, c) in [(g.black, Colour::Black), (g.white, Colour::White)] {
                let cs = &recs[&id].colours;
                if cs.len() >= 2 && cs[cs.len() - 1] == c && cs[cs.len() - 2] == c {
                    out.push(Warning::ThirdSameColour { table: g.table, player: id, colour: c });
                }
            }
        }
        let gap =
            (score_of(pb, recs[&g.black].pairing_points) - score_of(pw, recs[&g.white].pairing_points)).abs();
        if gap > settings.warn_score_gap {
            out.push(Warning::LargeScoreGap { table: g.table, a: g.black, b: g.white, gap });
        }
        if g.handicap > settings.warn_handicap {
            out.push(Warning::LargeHandicap { table: g.table, handicap: g.handicap });
        }
        if settings.handicap != HandicapRule::None {
            let side = |p: &Player, id: PlayerId| HandicapSide {
                rank_value: p.rank_value,
                score: score_of(p, recs[&id].pairing_points),
                above_bar: p.rank_value >= settings.mcmahon.bar,
            };
            let rule = handicap_stones(settings.handicap, side(pb, g.black), side(pw, g.white));
            if rule != g.handicap {
                out.push(Warning::HandicapNotRule { table: g.table, handicap: g.handicap, rule });
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pairing::{swiss, ByeRecord, GameResult, Pairing, PlayedGame};

    fn game(table: u32, black: PlayerId, white: PlayerId, handicap: u8) -> Pairing {
        Pairing { table, black, white, handicap, colours: ColourDecision::Balanced, explain: Vec::new() }
    }

    fn setup() -> (Vec<Player>, History) {
        let mut players: Vec<Player> = (1..=6).map(|i| Player::new(i, 0)).collect();
        players[0].unit = "A".into();
        players[1].unit = " A ".into();
        let mut h = History::default();
        h.games.push(PlayedGame::new(1, 1, 2, GameResult::BlackWins));
        h.games.push(PlayedGame::new(2, 1, 3, GameResult::BlackWins));
        h.games.push(PlayedGame::new(1, 3, 4, GameResult::BlackWins));
        h.games.push(PlayedGame::new(2, 5, 4, GameResult::BlackWins));
        h.games.push(PlayedGame::new(1, 6, 5, GameResult::BlackWins));
        h.games.push(PlayedGame::new(2, 6, 2, GameResult::BlackWins));
        (players, h)
    }

    #[test]
    fn a_clean_engine_round_has_no_warnings() {
        let (players, h) = setup();
        let rp = swiss::pair_round(&players, &h, &Settings::default(), 3, 1).unwrap();
        let w = review(&players, &h, &Settings::default(), &rp, &|_, p| p).unwrap();
        // Score before colour (§14.3): here 1 and 6 (both Black twice) lead alone, so one of
        // them may get a third Black; nothing else may be flagged.
        assert!(
            w.iter().all(|w| matches!(w, Warning::LargeScoreGap { .. } | Warning::ThirdSameColour { .. })),
            "{w:?}"
        );
    }

    #[test]
    fn manual_edit_warnings() {
        let (mut players, h) = setup();
        players.push(Player::new(7, 0));
        players[6].status = Status::Withdrawn;
        let settings = Settings { same_unit_rounds: u32::MAX, warn_score_gap: 4, ..Settings::default() };
        // 1 (4 pts, Black twice) vs 2 (again; same unit), 1 Black a third time.
        let rp = RoundPairing {
            round: 3,
            games: vec![game(1, 1, 2, 0), game(2, 3, 3, 0), game(3, 7, 6, 6)],
            bye: Some(4),
            seed: 0,
            draws: Vec::new(),
        };
        let w = review(&players, &h, &settings, &rp, &|_, p| p).unwrap();
        assert!(w.contains(&Warning::Rematch { table: 1, a: 1, b: 2, times: 1 }));
        assert!(w.contains(&Warning::SameUnit { table: 1, a: 1, b: 2, unit: "A".into() }));
        assert!(w.contains(&Warning::ThirdSameColour { table: 1, player: 1, colour: Colour::Black }));
        assert!(w.contains(&Warning::LargeScoreGap { table: 1, a: 1, b: 2, gap: 8 }));
        assert!(w.contains(&Warning::PairedTwice { player: 3 }));
        assert!(w.contains(&Warning::InactivePaired { player: 7 }));
        assert!(w.contains(&Warning::NotPaired { player: 5 }));
        assert!(w.contains(&Warning::LargeHandicap { table: 3, handicap: 6 }));
        assert!(w.contains(&Warning::ByeProblem { detail: "even field with a bye".into() }));
    }

    /// A third Black in a row is flagged only where the pairing chose it: not after a nigiri,
    /// a lot, or a handicap that gives the weaker player Black.
    #[test]
    fn a_colour_streak_is_flagged_only_where_the_pairing_chose_the_colours() {
        use crate::draw::nigiri::{self, NigiriRoles, RoleReason};
        let (players, h) = setup();
        // 1 and 6 had Black in rounds 1 and 2 and take it again in round 3; 4 had White twice.
        let rp = |c1: ColourDecision, c2: ColourDecision| RoundPairing {
            round: 3,
            games: vec![
                Pairing { colours: c1, ..game(1, 1, 4, 0) },
                Pairing { colours: c2, ..game(2, 6, 3, 0) },
                game(3, 2, 5, 0),
            ],
            bye: None,
            seed: 0,
            draws: Vec::new(),
        };
        let streaks = |settings: &Settings, rp: &RoundPairing| -> Vec<PlayerId> {
            review(&players, &h, settings, rp, &|_, p| p)
                .unwrap()
                .into_iter()
                .filter_map(|w| match w {
                    Warning::ThirdSameColour { player, .. } => Some(player),
                    _ => None,
                })
                .collect()
        };
        let balanced = Settings::default();
        assert_eq!(
            streaks(&balanced, &rp(ColourDecision::Balanced, ColourDecision::Balanced)),
            vec![1, 4, 6]
        );
        assert_eq!(
            streaks(&balanced, &rp(ColourDecision::Handicap, ColourDecision::Table)),
            Vec::<PlayerId>::new()
        );
        let lots = Settings { colours: ColourMethod::Lot, ..Settings::default() };
        assert!(streaks(&lots, &rp(ColourDecision::Lot, ColourDecision::Lot)).is_empty());
        let roles = |guesser, holder| NigiriRoles { holder, guesser, reason: RoleReason::Lot };
        let performed = |guesser, holder| ColourDecision::Nigiri {
            holder,
            guesser,
            outcome: nigiri::record_outcome(roles(guesser, holder), 17, nigiri::Guess::Odd).ok(),
        };
        let nigiri_event = Settings {
            colours: ColourMethod::Nigiri { remote: false, rule: nigiri::NigiriRule::Art10 },
            ..Settings::default()
        };
        let r = rp(performed(1, 4), performed(6, 3));
        assert!(r.games[..2].iter().all(
            |g| matches!(&g.colours, ColourDecision::Nigiri { outcome: Some(o), .. } if o.black == g.black)
        ));
        assert!(streaks(&nigiri_event, &r).is_empty(), "a nigiri's colours are chance");
    }

    #[test]
    fn a_handicap_other_than_the_rule_is_flagged() {
        use crate::pairing::McMahonSettings;
        let players = vec![Player::new(1, 3), Player::new(2, -1), Player::new(3, 0), Player::new(4, 0)];
        let settings = Settings {
            handicap: HandicapRule::RankDifference { reduction: 1, max: 9, below_bar_only: false },
            mcmahon: McMahonSettings { bar: 8, floor: -30 },
            warn_handicap: 9,
            ..Settings::default()
        };
        // 4d v 1k: the rule gives 4 − 1 = 3 stones, the edit says 2; table 2 is even, as it
        // should be.
        let rp = RoundPairing {
            round: 1,
            games: vec![game(1, 2, 1, 2), game(2, 3, 4, 0)],
            bye: None,
            seed: 0,
            draws: Vec::new(),
        };
        let w = review(&players, &History::default(), &settings, &rp, &|_, p| p).unwrap();
        assert_eq!(w, vec![Warning::HandicapNotRule { table: 1, handicap: 2, rule: 3 }]);
        let right = RoundPairing { games: vec![game(1, 2, 1, 3), game(2, 3, 4, 0)], ..rp };
        assert!(review(&players, &History::default(), &settings, &right, &|_, p| p).unwrap().is_empty());
    }

    /// Seed 000 Art. 17.5's note (a computer pairing needs the round before complete): games of
    /// earlier rounds without a result are a warning, counted per round; a replayed game counts
    /// by its replay only.
    #[test]
    fn earlier_games_without_a_result_are_flagged() {
        let (players, mut h) = setup();
        let rp = swiss::pair_round(&players, &h, &Settings::default(), 3, 1).unwrap();
        let open = |h: &History| -> Vec<Warning> {
            review(&players, h, &Settings::default(), &rp, &|_, p| p)
                .unwrap()
                .into_iter()
                .filter(|w| matches!(w, Warning::OpenGames { .. }))
                .collect()
        };
        assert!(open(&h).is_empty(), "every result is in");
        h.games[1].result = GameResult::NoResult;
        h.games[3].result = GameResult::NoResult;
        h.games[5].result = GameResult::NoResult;
        assert_eq!(open(&h), vec![Warning::OpenGames { round: 2, games: 3 }]);
        h.games[0].result = GameResult::NoResult;
        assert_eq!(
            open(&h),
            vec![Warning::OpenGames { round: 1, games: 1 }, Warning::OpenGames { round: 2, games: 3 }]
        );
        assert_eq!(
            open_games(&h, 2),
            vec![Warning::OpenGames { round: 1, games: 1 }],
            "later rounds not read"
        );
    }

    #[test]
    fn second_bye_is_flagged() {
        let players: Vec<Player> = (1..=3).map(|i| Player::new(i, 0)).collect();
        let mut h = History::default();
        h.byes.push(ByeRecord { round: 1, player: 3 });
        h.games.push(PlayedGame::new(1, 1, 2, GameResult::BlackWins));
        let rp = RoundPairing {
            round: 2,
            games: vec![game(1, 1, 2, 0)],
            bye: Some(3),
            seed: 0,
            draws: Vec::new(),
        };
        let w = review(&players, &h, &Settings::default(), &rp, &|_, p| p).unwrap();
        assert!(w.contains(&Warning::ByeProblem { detail: "3 already had a bye".into() }));
    }
}
