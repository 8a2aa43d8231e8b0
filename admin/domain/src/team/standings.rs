//! Match points, team standings, knockout and Swiss pairing of teams.
//!
//! - Relay matches: win 3, draw 1 each, loss 0 (seed 003 Art. 12 "循环赛中胜方3分，负方0分；和棋
//!   双方各得1分"); knockout draws are settled by the 节棋 play-off.
//! - Board matches (rules.md §13.2–13.3): match points 2/1/0, 3/1/0 or the main-board rule, and
//!   game points (局分); see [`super::board_match`].
//! - Standings: match points first, then the event's tie-breaks ([`TeamTieBreak`]): rules.md
//!   §13.2 (围甲: 场分 → 局分 → 主将胜率 → 第一台胜率) and §13.3 (场分 → 局分 → 直胜 → first board).
//! - Pairing: teams go through the individual Swiss engine
//!   ([`crate::pairing::swiss::pair_round`]) with their match points as the pairing
//!   score and their earlier matches as the history (no rematch, colour balance of the team
//!   listed first).

use std::collections::{BTreeMap, BTreeSet};

use rules::board::Color;
use rules::rulings::ResultMethod;
use serde::{Deserialize, Serialize};

use super::relay::RelayMatch;
pub use super::values::{MatchPoints, TeamOutcome};
use super::TeamId;
use crate::draw::double_loss::nominal_winner;
use crate::draw::lots::DrawRecord;
use crate::pairing::knockout::MatchOutcome;
use crate::pairing::{
    swiss, ByeRecord, GameResult as PairingResult, History, PairingError, PlayedGame, Player, PointsScale,
    RoundPairing, Settings, Status,
};

/// A finished team match, as standings and pairing read it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamMatchRecord {
    pub round: u32,
    /// `[first, second]`.
    pub teams: [TeamId; 2],
    pub outcome: TeamOutcome,
    pub match_points: [u32; 2],
    /// 局分 (board matches); `[0, 0]` for a relay match.
    pub game_points: [u32; 2],
    /// Board matches: who won each board (index into `teams`; `None` for a draw or a double
    /// loss). Empty for a relay match.
    pub board_winners: Vec<Option<usize>>,
    /// Index of the main board (主将) in `board_winners`, if the event has one.
    pub main_board: Option<usize>,
    /// Won by forfeit (弃权, Arts. 15.2, 23.2): not played at the board, so it gives no colour
    /// to the pairing's colour balance.
    #[serde(default)]
    pub forfeit: bool,
    /// A double loss's nominal winner for the next round's pairing only (rules.md §12 lot),
    /// once drawn; never read by standings.
    #[serde(default)]
    pub nominal_winner: Option<TeamId>,
}

impl TeamMatchRecord {
    /// The record of a finished relay match (`None` while it is not over).
    pub fn from_relay(round: u32, m: &RelayMatch) -> Option<TeamMatchRecord> {
        let result = m.result()?;
        Some(TeamMatchRecord {
            round,
            teams: [m.side(Color::Black).team.id, m.side(Color::White).team.id],
            outcome: TeamOutcome::of_result(&result),
            match_points: m.match_points()?,
            game_points: [0, 0],
            board_winners: Vec::new(),
            main_board: None,
            forfeit: result.method == ResultMethod::Forfeit,
            nominal_winner: None,
        })
    }

    /// Whether the match counts (a match to be replayed counts nowhere).
    pub fn counts(&self) -> bool {
        self.outcome != TeamOutcome::NoResult
    }

    fn index_of(&self, t: TeamId) -> Option<usize> {
        self.teams.iter().position(|&x| x == t)
    }
}

/// A team's bye (轮空) in a Swiss round, with the match points the event gives for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamBye {
    pub round: u32,
    pub team: TeamId,
    pub match_points: u32,
}

/// Tie-breaks after match points (rules.md §13.2–13.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TeamTieBreak {
    /// 局分: total game points.
    GamePoints,
    /// 直胜: match points in the matches among the tied teams.
    HeadToHead,
    /// Main-board (主将) wins. rules.md §13.2 says win *rate*; with every team playing the same
    /// number of matches the count orders the same \[INF\].
    MainBoardWins,
    /// Wins on board `n` (from 1): 第一台胜率 and lower boards.
    BoardWins { board: u32 },
    /// Matches won.
    Wins,
}

impl TeamTieBreak {
    /// rules.md §13.2 (围甲): 场分 → 局分 → 主将胜率 → 第一台胜率.
    pub const WEIJIA: [TeamTieBreak; 3] =
        [TeamTieBreak::GamePoints, TeamTieBreak::MainBoardWins, TeamTieBreak::BoardWins { board: 1 }];
    /// rules.md §13.3: 场分 → 局分 → 直胜 → first-board wins.
    pub const GENERIC: [TeamTieBreak; 3] =
        [TeamTieBreak::GamePoints, TeamTieBreak::HeadToHead, TeamTieBreak::BoardWins { board: 1 }];
}

/// One row of the team standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamStandingRow {
    /// From 1; teams tied on every criterion share a rank.
    pub rank: u32,
    pub team: TeamId,
    pub played: u32,
    pub won: u32,
    pub drawn: u32,
    pub lost: u32,
    pub byes: u32,
    pub match_points: u32,
    pub game_points: u32,
    pub main_board_wins: u32,
    /// Wins per board (index 0 = board 1).
    pub board_wins: Vec<u32>,
}

/// The standings of `teams` after `matches` and `byes`: match points, then `tiebreaks` in
/// order; full ties share a rank and are listed by team id.
pub fn standings(
    teams: &[TeamId],
    matches: &[TeamMatchRecord],
    byes: &[TeamBye],
    tiebreaks: &[TeamTieBreak],
) -> Vec<TeamStandingRow> {
    let mut rows: BTreeMap<TeamId, TeamStandingRow> = teams
        .iter()
        .map(|&t| {
            (
                t,
                TeamStandingRow {
                    rank: 0,
                    team: t,
                    played: 0,
                    won: 0,
                    drawn: 0,
                    lost: 0,
                    byes: 0,
                    match_points: 0,
                    game_points: 0,
                    main_board_wins: 0,
                    board_wins: Vec::new(),
                },
            )
        })
        .collect();
    for m in matches.iter().filter(|m| m.counts()) {
        for (i, &t) in m.teams.iter().enumerate() {
            let Some(r) = rows.get_mut(&t) else { continue };
            r.played += 1;
            r.match_points += m.match_points[i];
            r.game_points += m.game_points[i];
            match m.outcome {
                TeamOutcome::Draw => r.drawn += 1,
                o if o.winner() == Some(i) => r.won += 1,
                _ => r.lost += 1,
            }
            if r.board_wins.len() < m.board_winners.len() {
                r.board_wins.resize(m.board_winners.len(), 0);
            }
            for (b, w) in m.board_winners.iter().enumerate() {
                if *w == Some(i) {
                    r.board_wins[b] += 1;
                    if m.main_board == Some(b) {
                        r.main_board_wins += 1;
                    }
                }
            }
        }
    }
    for b in byes {
        if let Some(r) = rows.get_mut(&b.team) {
            r.byes += 1;
            r.match_points += b.match_points;
        }
    }
    let value = |t: TeamId, crit: Option<TeamTieBreak>, group: &BTreeSet<TeamId>| -> i64 {
        let r = &rows[&t];
        let v = match crit {
            None => r.match_points,
            Some(TeamTieBreak::GamePoints) => r.game_points,
            Some(TeamTieBreak::MainBoardWins) => r.main_board_wins,
            Some(TeamTieBreak::BoardWins { board }) => {
                r.board_wins.get(board.saturating_sub(1) as usize).copied().unwrap_or(0)
            }
            Some(TeamTieBreak::Wins) => r.won,
            Some(TeamTieBreak::HeadToHead) => matches
                .iter()
                .filter(|m| m.counts() && m.teams.iter().all(|x| group.contains(x)))
                .filter_map(|m| m.index_of(t).map(|i| m.match_points[i]))
                .sum(),
        };
        i64::from(v)
    };
    let mut criteria: Vec<Option<TeamTieBreak>> = vec![None];
    criteria.extend(tiebreaks.iter().copied().map(Some));
    let mut classes: Vec<Vec<TeamId>> = vec![rows.keys().copied().collect()];
    for crit in criteria {
        let mut next = Vec::new();
        for class in classes {
            if class.len() < 2 {
                next.push(class);
                continue;
            }
            let group: BTreeSet<TeamId> = class.iter().copied().collect();
            let mut vals: Vec<(i64, TeamId)> = class.iter().map(|&t| (value(t, crit, &group), t)).collect();
            vals.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
            let mut cur: Vec<TeamId> = Vec::new();
            let mut cur_v = None;
            for (v, t) in vals {
                if cur_v.is_some_and(|c| c != v) {
                    next.push(std::mem::take(&mut cur));
                }
                cur_v = Some(v);
                cur.push(t);
            }
            next.push(cur);
        }
        classes = next;
    }
    let mut out = Vec::with_capacity(rows.len());
    let mut rank = 1;
    for class in classes {
        let n = class.len() as u32;
        for t in class {
            let mut r = rows.remove(&t).expect("each team once");
            r.rank = rank;
            out.push(r);
        }
        rank += n;
    }
    out
}

/// A team match as a knockout bracket's outcome, for the bracket's side `a` (seed 003
/// Art. 12: relay draws are settled by the 节棋 play-off, so a finished relay match has a
/// winner).
pub fn knockout_outcome(rec: &TeamMatchRecord, a: TeamId) -> MatchOutcome {
    let a_first = rec.teams[0] == a;
    match (rec.outcome, a_first) {
        (TeamOutcome::Draw, _) => MatchOutcome::Draw,
        (TeamOutcome::DoubleLoss, _) => MatchOutcome::DoubleLoss,
        (TeamOutcome::NoResult, _) => MatchOutcome::Pending,
        (TeamOutcome::FirstWins, true) | (TeamOutcome::SecondWins, false) => MatchOutcome::AWins,
        _ => MatchOutcome::BWins,
    }
}

/// A team as the pairing engine sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamEntry {
    pub team: TeamId,
    /// Strength for round 1, e.g. the mean rank value of the players (pairing's `rank_value`).
    pub rank_value: i32,
    /// E.g. the mean rating of the players (rules.md §14.2: "team: average rating").
    pub rating: Option<i32>,
    /// Unit for same-unit avoidance (several teams of one club or province).
    pub unit: String,
    pub status: Status,
}

#[cfg(test)]
impl TeamEntry {
    /// An active team with no strength, rating or unit (the tests' fields).
    pub(crate) fn plain(team: TeamId) -> TeamEntry {
        TeamEntry { team, rank_value: 0, rating: None, unit: String::new(), status: Status::Active }
    }
}

/// The double-loss lot of rules.md §12 for a team event (the event's `double_loss` setting is
/// the lot, and the rounds are paired by score): the nominal winner of a double-loss match is
/// drawn with the individual games' lot ([`crate::draw::double_loss::nominal_winner`],
/// from the seed of the round being paired) and paired as if it had won `win` match points,
/// for the next round only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DoubleLossLot {
    pub seed: u64,
    pub win: u32,
}

/// A nominal winner drawn for a double-loss match of the previous round (to be stored with the
/// match, so that pairing the round again keeps it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NominalWinner {
    pub round: u32,
    /// `[first, second]` of the match.
    pub teams: [TeamId; 2],
    pub winner: TeamId,
    pub record: DrawRecord,
}

/// What the team engine reads: the teams as players, the history, and the double-loss lots
/// drawn for this pairing.
pub struct PairingInputs {
    pub players: Vec<Player>,
    pub history: History,
    pub lots: Vec<NominalWinner>,
}

/// Adapts teams to the individual engine: each team is a [`Player`] whose entry points are its
/// match points (in half points, the engine's unit) from rounds before `round`; each match is a
/// [`PlayedGame`] with the first-listed team as Black, so "already met" and the colour balance
/// come from the history (a forfeit is not played at the board; a match to be replayed is
/// left out, its replay counts). Game results carry no points here (see
/// [`team_pairing_settings`]), so every scale, the main-board rule included, pairs by the match
/// points actually earned; with `lot`, a double loss of the previous round adds a win to its
/// nominal winner for this pairing only.
pub fn pairing_inputs(
    entries: &[TeamEntry],
    matches: &[TeamMatchRecord],
    byes: &[TeamBye],
    round: u32,
    lot: Option<DoubleLossLot>,
) -> PairingInputs {
    let mut points: BTreeMap<TeamId, u32> = BTreeMap::new();
    let mut history = History::default();
    let mut lots = Vec::new();
    for m in matches.iter().filter(|m| m.round < round && m.counts()) {
        for (i, &t) in m.teams.iter().enumerate() {
            *points.entry(t).or_default() += m.match_points[i];
        }
        let result = match (m.outcome, m.forfeit) {
            (TeamOutcome::FirstWins, false) => PairingResult::BlackWins,
            (TeamOutcome::FirstWins, true) => PairingResult::BlackWinsByForfeit,
            (TeamOutcome::SecondWins, false) => PairingResult::WhiteWins,
            (TeamOutcome::SecondWins, true) => PairingResult::WhiteWinsByForfeit,
            (TeamOutcome::Draw, _) => PairingResult::Draw,
            (TeamOutcome::DoubleLoss, _) | (TeamOutcome::NoResult, _) => PairingResult::DoubleLoss,
        };
        let mut game = PlayedGame::new(m.round, m.teams[0], m.teams[1], result);
        game.nominal_winner = m.nominal_winner;
        if let Some(lot) = lot.filter(|_| result == PairingResult::DoubleLoss && m.round + 1 == round) {
            // Teams are named by their number as in the pairing (`Player::number` below).
            let (winner, record) = nominal_winner(lot.seed, &game, &|t| t);
            *points.entry(winner).or_default() += lot.win;
            if m.nominal_winner.is_none() {
                lots.push(NominalWinner { round: m.round, teams: m.teams, winner, record });
            }
        }
        history.games.push(game);
    }
    for b in byes.iter().filter(|b| b.round < round) {
        *points.entry(b.team).or_default() += b.match_points;
        history.byes.push(ByeRecord { round: b.round, player: b.team });
    }
    let players = entries
        .iter()
        .map(|e| Player {
            id: e.team,
            number: e.team,
            rank_value: e.rank_value,
            rating: e.rating,
            unit: e.unit.clone(),
            birth_date: None,
            status: e.status,
            entry_points: 2 * points.get(&e.team).copied().unwrap_or(0) as i32,
        })
        .collect();
    PairingInputs { players, history, lots }
}

/// The event's pairing settings with every game result worth 0, because [`pairing_inputs`]
/// carries the match points as entry points.
pub fn team_pairing_settings(base: &Settings) -> Settings {
    let zero =
        PointsScale { win: 0, draw: 0, loss: 0, bye: 0, forfeit_win: 0, forfeit_loss: 0, double_loss: 0 };
    Settings { points: zero, double_loss_lot: false, ..base.clone() }
}

/// Pairs round `round` of a Swiss team event with the individual engine. In the result,
/// `black` is the team listed first (Black in a relay match, Black on odd boards).
pub fn pair_team_round(
    entries: &[TeamEntry],
    matches: &[TeamMatchRecord],
    byes: &[TeamBye],
    settings: &Settings,
    round: u32,
    seed: u64,
) -> Result<RoundPairing, PairingError> {
    let inp = pairing_inputs(entries, matches, byes, round, None);
    swiss::pair_round(&inp.players, &inp.history, &team_pairing_settings(settings), round, seed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pairing::ordered;

    fn rec(round: u32, a: TeamId, b: TeamId, outcome: TeamOutcome, mp: [u32; 2]) -> TeamMatchRecord {
        TeamMatchRecord {
            round,
            teams: [a, b],
            outcome,
            match_points: mp,
            game_points: [0, 0],
            board_winners: vec![],
            main_board: None,
            forfeit: false,
            nominal_winner: None,
        }
    }

    #[test]
    fn match_points_scales() {
        let p = MatchPoints::THREE_ONE_ZERO;
        assert_eq!(p.for_result(Some(Color::Black), Color::Black), 3);
        assert_eq!(p.for_result(Some(Color::Black), Color::White), 0);
        assert_eq!(p.for_result(None, Color::White), 1);
        assert_eq!(MatchPoints::TWO_ONE_ZERO.for_result(None, Color::Black), 1);
    }

    #[test]
    fn relay_round_robin_standings_with_head_to_head() {
        use TeamOutcome::*;
        let three = [3, 0];
        let matches = [
            rec(1, 1, 2, FirstWins, three),
            rec(1, 3, 4, Draw, [1, 1]),
            rec(2, 1, 3, SecondWins, [0, 3]),
            rec(2, 2, 4, FirstWins, three),
            rec(3, 4, 1, SecondWins, [0, 3]),
            rec(3, 2, 3, FirstWins, three),
        ];
        let rows = standings(&[1, 2, 3, 4], &matches, &[], &[TeamTieBreak::HeadToHead]);
        let order: Vec<(TeamId, u32, u32)> = rows.iter().map(|r| (r.team, r.match_points, r.rank)).collect();
        // 1: 6, 2: 6, 3: 4, 4: 1. 1 beat 2 head to head.
        assert_eq!(order, vec![(1, 6, 1), (2, 6, 2), (3, 4, 3), (4, 1, 4)]);
        assert_eq!((rows[0].won, rows[0].lost, rows[2].drawn), (2, 1, 1));
        // Without a tie-break the two teams on 6 share rank 1.
        let rows = standings(&[1, 2, 3, 4], &matches, &[], &[]);
        assert_eq!((rows[0].rank, rows[1].rank, rows[2].rank), (1, 1, 3));
    }

    #[test]
    fn knockout_outcomes_follow_the_bracket_side() {
        let r = rec(1, 7, 9, TeamOutcome::SecondWins, [0, 3]);
        assert_eq!(knockout_outcome(&r, 7), MatchOutcome::BWins);
        assert_eq!(knockout_outcome(&r, 9), MatchOutcome::AWins);
    }

    /// Teams are paired by match points with no rematch, through the individual engine.
    #[test]
    fn teams_pair_by_match_points_without_rematch() {
        use TeamOutcome::*;
        let entries: Vec<TeamEntry> =
            (1..=6).map(|t| TeamEntry { rank_value: 10 - t as i32, ..TeamEntry::plain(t) }).collect();
        let settings = Settings::default();
        let r1 = pair_team_round(&entries, &[], &[], &settings, 1, 11).unwrap();
        assert_eq!(r1.games.len(), 3);
        // Round 1 results: the first-listed team wins table 1, draws table 2, loses table 3.
        let outcomes = [FirstWins, Draw, SecondWins];
        let mut matches: Vec<TeamMatchRecord> = r1
            .games
            .iter()
            .zip(outcomes)
            .map(|(g, o)| {
                let mp = MatchPoints::THREE_ONE_ZERO.of(o);
                rec(1, g.black, g.white, o, mp)
            })
            .collect();
        let players = pairing_inputs(&entries, &matches, &[], 2, None).players;
        let pts: BTreeMap<TeamId, i32> = players.iter().map(|p| (p.id, p.entry_points)).collect();
        assert_eq!(pts.values().filter(|&&p| p == 6).count(), 2, "two winners with 3 match points");
        let r2 = pair_team_round(&entries, &matches, &[], &settings, 2, 12).unwrap();
        let met: BTreeSet<(TeamId, TeamId)> =
            matches.iter().map(|m| ordered(m.teams[0], m.teams[1])).collect();
        for g in &r2.games {
            assert!(!met.contains(&ordered(g.black, g.white)), "no rematch: {} v {}", g.black, g.white);
        }
        // The two winners meet on table 1.
        let winners: BTreeSet<TeamId> = pts.iter().filter(|(_, &p)| p == 6).map(|(&t, _)| t).collect();
        let top: BTreeSet<TeamId> = [r2.games[0].black, r2.games[0].white].into();
        assert_eq!(top, winners);
        // Main-board scale: 2 : 1 results pair by what was earned.
        matches.push(rec(2, r2.games[0].black, r2.games[0].white, FirstWins, [2, 1]));
        let PairingInputs { players, history, .. } = pairing_inputs(&entries, &matches, &[], 3, None);
        assert_eq!(history.games.len(), 4);
        let p = players.iter().find(|p| p.id == r2.games[0].black).unwrap();
        assert_eq!(p.entry_points, 2 * (3 + 2));
    }

    /// A double loss is a loss for both in the standings (rules.md §12); a match to be
    /// replayed counts nowhere; under the lot the nominal winner pairs as a winner in the next
    /// round only, drawn with the individual games' lot and kept once stored.
    #[test]
    fn double_loss_and_replay_in_standings_and_pairing() {
        use TeamOutcome::*;
        let p = MatchPoints::THREE_ONE_ZERO;
        let matches = vec![
            rec(1, 1, 2, DoubleLoss, p.of(DoubleLoss)),
            rec(1, 3, 4, NoResult, p.of(NoResult)),
            rec(1, 3, 4, FirstWins, p.of(FirstWins)),
        ];
        let rows = standings(&[1, 2, 3, 4], &matches, &[], &[TeamTieBreak::HeadToHead]);
        let r = |t| rows.iter().find(|r| r.team == t).unwrap();
        assert_eq!((r(1).played, r(1).lost, r(1).match_points), (1, 1, 0));
        assert_eq!((r(2).played, r(2).lost, r(2).match_points), (1, 1, 0));
        assert_eq!((r(3).played, r(3).won, r(3).match_points), (1, 1, 3), "the replay counts, once");
        let entries: Vec<TeamEntry> = (1..=4).map(TeamEntry::plain).collect();
        let lot = Some(DoubleLossLot { seed: 99, win: 3 });
        let inp = pairing_inputs(&entries, &matches, &[], 2, lot);
        assert_eq!(inp.history.games.len(), 2, "the match replayed is not in the history");
        assert_eq!(inp.lots.len(), 1);
        let winner = inp.lots[0].winner;
        assert!(winner == 1 || winner == 2);
        assert_eq!(inp.lots[0].record.stream, crate::draw::lots::Stream::DoubleLoss);
        let pts = |inp: &PairingInputs, t| inp.players.iter().find(|p| p.id == t).unwrap().entry_points;
        assert_eq!(pts(&inp, winner), 6, "a win's 3 match points, for pairing only");
        assert_eq!(pts(&inp, 3 - winner), 0);
        // Stored: the same winner, no new lot; without the lot, nobody scores.
        let mut stored = matches.clone();
        stored[0].nominal_winner = Some(3 - winner);
        let again = pairing_inputs(&entries, &stored, &[], 2, lot);
        assert!(again.lots.is_empty());
        assert_eq!(pts(&again, 3 - winner), 6);
        assert_eq!(pts(&pairing_inputs(&entries, &matches, &[], 2, None), winner), 0);
        // Round 3 no longer reads the lot.
        assert_eq!(pts(&pairing_inputs(&entries, &matches, &[], 3, lot), winner), 0);
    }
}
