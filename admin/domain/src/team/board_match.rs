//! Board-match team tournaments (rules.md §13.2–13.3): N boards per match, each an individual
//! game under the event's rule set; colours alternate by board; board points (局分) per game,
//! match points (场分) per match.
//!
//! - Colours (rules.md §13.3, Xiangqi 13.2/13.3 and "Black on odd boards is customary" \[INF\]):
//!   the team listed first takes Black on odd boards, White on even boards.
//! - Game points per board: the individual scale, win 2, draw 1, loss 0 (rules.md §13.3);
//!   a double loss is 0 : 0 (rules.md §12), read by the rules crate's `GameResult`.
//! - Match points: [`MatchPointRule::Scale`] 2/1/0 or 3/1/0 by comparing game points
//!   (rules.md §13.3), or [`MatchPointRule::MainBoard`] (rules.md §13.2, 围甲): more game points
//!   3 : 0; equal game points: the main-board winner 2, the other 1.
//!
//! \[INF\] Under the main-board rule, equal game points with the main board drawn or lost by
//! both (double loss) give 1 : 1: the source covers only a decided main board.

use rules::board::Color;
use rules::rulings::GameResult;
use serde::{Deserialize, Serialize};

use super::standings::{MatchPoints, TeamMatchRecord, TeamOutcome};
use super::TeamId;

/// How game points become match points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum MatchPointRule {
    /// More game points → `win`, equal → `draw`, fewer → `loss` (2/1/0 or 3/1/0).
    Scale { points: MatchPoints },
    /// rules.md §13.2: more game points 3 : 0; equal → main-board winner 2 : 1.
    MainBoard,
}

/// Settings of a board-match event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardMatchConfig {
    pub boards: u32,
    /// Game points per board (rules.md §13.3: 2/1/0).
    pub board_points: MatchPoints,
    pub rule: MatchPointRule,
    /// The main board (主将台), from 1, if the event has one. Required by the main-board rule.
    pub main_board: Option<u32>,
}

impl BoardMatchConfig {
    /// 2/1/0 board points and 2/1/0 match points (rules.md §13.3).
    pub fn generic(boards: u32) -> BoardMatchConfig {
        BoardMatchConfig {
            boards,
            board_points: MatchPoints::TWO_ONE_ZERO,
            rule: MatchPointRule::Scale { points: MatchPoints::TWO_ONE_ZERO },
            main_board: None,
        }
    }

    /// 围甲 style (rules.md §13.2): main board 1, 3 : 0 or 2 : 1.
    pub fn weijia(boards: u32) -> BoardMatchConfig {
        BoardMatchConfig {
            boards,
            board_points: MatchPoints::TWO_ONE_ZERO,
            rule: MatchPointRule::MainBoard,
            main_board: Some(1),
        }
    }

    pub fn validate(&self) -> Result<(), BoardMatchError> {
        if self.boards == 0 {
            return Err(BoardMatchError::NoBoards);
        }
        match self.main_board {
            Some(b) if b == 0 || b > self.boards => Err(BoardMatchError::MainBoardOutOfRange { board: b }),
            None if self.rule == MatchPointRule::MainBoard => Err(BoardMatchError::NoMainBoard),
            _ => Ok(()),
        }
    }
}

/// The colour of the team listed first on `board` (from 1): Black on odd boards.
pub fn first_team_colour(board: u32) -> Color {
    if board % 2 == 1 {
        Color::Black
    } else {
        Color::White
    }
}

/// Why a board match cannot be scored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "error", rename_all = "snake_case")]
pub enum BoardMatchError {
    NoBoards,
    NoMainBoard,
    MainBoardOutOfRange {
        board: u32,
    },
    WrongBoards {
        expected: u32,
        got: usize,
    },
    /// No result or a replay pending on this board (from 1).
    Unscored {
        board: u32,
    },
}

/// A scored board match; arrays are `[first team, second team]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardMatchScore {
    pub game_points: [u32; 2],
    pub match_points: [u32; 2],
    pub outcome: TeamOutcome,
    /// Per board, which team won it (`None`: draw or double loss).
    pub board_winners: Vec<Option<usize>>,
    /// Index of the main board, if any.
    pub main_board: Option<usize>,
}

impl BoardMatchScore {
    /// The record that standings and pairing read.
    pub fn record(&self, round: u32, teams: [TeamId; 2]) -> TeamMatchRecord {
        TeamMatchRecord {
            round,
            teams,
            outcome: self.outcome,
            match_points: self.match_points,
            game_points: self.game_points,
            board_winners: self.board_winners.clone(),
            main_board: self.main_board,
            forfeit: false,
            nominal_winner: None,
        }
    }
}

/// Checks a team's board order against its players' position numbers (位置号): down the
/// boards the numbers must rise, so that a team cannot put its strongest player on a lower
/// board than the order it declared \[INF: the line-up follows the team list's order, as 台次
/// are drawn from it\]. `positions[i]`: the position number of the team's player on board
/// `i + 1` (`None`: no player entered, e.g. a forfeited board). The first board out of order.
pub fn board_order_error(positions: &[Option<u32>]) -> Option<u32> {
    let mut last: Option<u32> = None;
    for (i, p) in positions.iter().enumerate() {
        let Some(p) = *p else { continue };
        if last.is_some_and(|l| p <= l) {
            return Some(i as u32 + 1);
        }
        last = Some(p);
    }
    None
}

/// Scores a match from its board results (index 0 = board 1), each in the board's colours:
/// the first-listed team is [`first_team_colour`] on that board.
pub fn score_board_match(
    config: &BoardMatchConfig,
    results: &[GameResult],
) -> Result<BoardMatchScore, BoardMatchError> {
    config.validate()?;
    if results.len() != config.boards as usize {
        return Err(BoardMatchError::WrongBoards { expected: config.boards, got: results.len() });
    }
    let bp = config.board_points;
    let mut game_points = [0u32; 2];
    let mut board_winners = Vec::with_capacity(results.len());
    for (i, r) in results.iter().enumerate() {
        let board = i as u32 + 1;
        if r.needs_replay() {
            return Err(BoardMatchError::Unscored { board });
        }
        let first = first_team_colour(board);
        let colours = [first, first.opponent()];
        for (t, &c) in colours.iter().enumerate() {
            game_points[t] += r.points_on_scale(c, bp.win, bp.draw, bp.loss).unwrap_or(bp.loss);
        }
        board_winners.push(r.winner.and_then(|w| colours.iter().position(|&c| c == w)));
    }
    let main_board = config.main_board.map(|b| b as usize - 1);
    let by_game_points = game_points[0].cmp(&game_points[1]);
    let match_points = match config.rule {
        MatchPointRule::Scale { points } => match by_game_points {
            std::cmp::Ordering::Greater => [points.win, points.loss],
            std::cmp::Ordering::Less => [points.loss, points.win],
            std::cmp::Ordering::Equal => [points.draw, points.draw],
        },
        MatchPointRule::MainBoard => match by_game_points {
            std::cmp::Ordering::Greater => [3, 0],
            std::cmp::Ordering::Less => [0, 3],
            std::cmp::Ordering::Equal => match main_board.and_then(|m| board_winners[m]) {
                Some(0) => [2, 1],
                Some(_) => [1, 2],
                None => [1, 1],
            },
        },
    };
    let outcome = match match_points[0].cmp(&match_points[1]) {
        std::cmp::Ordering::Greater => TeamOutcome::FirstWins,
        std::cmp::Ordering::Less => TeamOutcome::SecondWins,
        std::cmp::Ordering::Equal => TeamOutcome::Draw,
    };
    Ok(BoardMatchScore { game_points, match_points, outcome, board_winners, main_board })
}

#[cfg(test)]
mod order_tests {
    use super::board_order_error;

    #[test]
    fn boards_follow_the_position_numbers() {
        assert_eq!(board_order_error(&[Some(1), Some(3), Some(4)]), None);
        assert_eq!(board_order_error(&[Some(1), None, Some(4)]), None, "a forfeited board has no player");
        assert_eq!(board_order_error(&[Some(2), Some(1), Some(4)]), Some(2));
        assert_eq!(board_order_error(&[Some(1), Some(5), Some(5)]), Some(3));
    }
}

#[cfg(test)]
mod tests {
    use super::super::standings::{standings, TeamTieBreak};
    use super::*;
    use rules::rulings::{DoubleLossReason, GameResult};
    use Color::{Black, White};

    fn won_by(c: Color) -> GameResult {
        GameResult::resignation(c)
    }

    #[test]
    fn colours_alternate_by_board() {
        let c: Vec<Color> = (1..=4).map(first_team_colour).collect();
        assert_eq!(c, vec![Black, White, Black, White]);
    }

    /// First team wins boards 1 and 2 (Black on 1, White on 2), loses 3, draws 4.
    #[test]
    fn generic_two_one_zero() {
        let results = [won_by(Black), won_by(White), won_by(White), GameResult::draw()];
        let s = score_board_match(&BoardMatchConfig::generic(4), &results).unwrap();
        assert_eq!(s.game_points, [2 + 2 + 1, 2 + 1]);
        assert_eq!(s.match_points, [2, 0]);
        assert_eq!(s.outcome, TeamOutcome::FirstWins);
        assert_eq!(s.board_winners, vec![Some(0), Some(0), Some(1), None]);
        let equal = [won_by(Black), won_by(Black)];
        let s = score_board_match(&BoardMatchConfig::generic(2), &equal).unwrap();
        assert_eq!((s.game_points, s.match_points, s.outcome), ([2, 2], [1, 1], TeamOutcome::Draw));
        let three = BoardMatchConfig {
            rule: MatchPointRule::Scale { points: MatchPoints::THREE_ONE_ZERO },
            ..BoardMatchConfig::generic(2)
        };
        let s = score_board_match(&three, &[won_by(White), won_by(Black)]).unwrap();
        assert_eq!(s.match_points, [0, 3]);
        // A double loss gives no game points to either team.
        let dl = GameResult::double_loss(DoubleLossReason::BothLate);
        let s = score_board_match(&BoardMatchConfig::generic(2), &[dl, won_by(White)]).unwrap();
        assert_eq!(s.game_points, [2, 0]);
    }

    /// rules.md §13.2: 3 : 0 on game points; equal → main-board winner 2, other 1.
    #[test]
    fn main_board_rule() {
        let cfg = BoardMatchConfig::weijia(4);
        // Second team wins board 1 (main, White there), first team boards 2 and 3, second board 4.
        let results = [won_by(White), won_by(White), won_by(Black), won_by(Black)];
        let s = score_board_match(&cfg, &results).unwrap();
        assert_eq!(s.game_points, [4, 4]);
        assert_eq!(s.match_points, [1, 2], "equal game points: the main-board winner gets 2");
        assert_eq!(s.outcome, TeamOutcome::SecondWins);
        let results = [won_by(Black), won_by(White), won_by(Black), won_by(Black)];
        let s = score_board_match(&cfg, &results).unwrap();
        assert_eq!((s.game_points, s.match_points), ([6, 2], [3, 0]));
        let drawn_main = [GameResult::draw(), won_by(White), won_by(White), GameResult::draw()];
        let s = score_board_match(&BoardMatchConfig::weijia(4), &drawn_main).unwrap();
        assert_eq!((s.game_points, s.match_points), ([4, 4], [1, 1]));
    }

    #[test]
    fn refusals() {
        let cfg = BoardMatchConfig::generic(2);
        assert_eq!(
            score_board_match(&cfg, &[won_by(Black)]),
            Err(BoardMatchError::WrongBoards { expected: 2, got: 1 })
        );
        assert_eq!(
            score_board_match(&cfg, &[won_by(Black), GameResult::replay()]),
            Err(BoardMatchError::Unscored { board: 2 })
        );
        let bad = BoardMatchConfig { main_board: None, ..BoardMatchConfig::weijia(4) };
        assert_eq!(bad.validate(), Err(BoardMatchError::NoMainBoard));
        let bad = BoardMatchConfig { main_board: Some(5), ..BoardMatchConfig::weijia(4) };
        assert_eq!(bad.validate(), Err(BoardMatchError::MainBoardOutOfRange { board: 5 }));
    }

    /// 围甲 standings: 场分 → 局分 → 主将 wins → board 1 wins.
    #[test]
    fn board_match_standings() {
        let cfg = BoardMatchConfig::weijia(2);
        // Round 1: 1 v 2 — 1 wins both boards (Black on 1, White on 2). 3 v 4 — 1 : 1, 4 wins main.
        let m1 = score_board_match(&cfg, &[won_by(Black), won_by(White)]).unwrap().record(1, [1, 2]);
        let m2 = score_board_match(&cfg, &[won_by(White), won_by(White)]).unwrap().record(1, [3, 4]);
        // Round 2: 1 v 4 — 4 wins both. 2 v 3 — 2 wins main and 3 board 2.
        let m3 = score_board_match(&cfg, &[won_by(White), won_by(Black)]).unwrap().record(2, [1, 4]);
        let m4 = score_board_match(&cfg, &[won_by(Black), won_by(Black)]).unwrap().record(2, [2, 3]);
        let rows = standings(&[1, 2, 3, 4], &[m1, m2, m3, m4], &[], &TeamTieBreak::WEIJIA);
        let got: Vec<(TeamId, u32, u32, u32)> =
            rows.iter().map(|r| (r.team, r.match_points, r.game_points, r.main_board_wins)).collect();
        // 2 and 3 tie on match points; 3 has more game points.
        assert_eq!(got, vec![(4, 5, 6, 2), (1, 3, 4, 1), (3, 2, 4, 0), (2, 2, 2, 1)]);
        assert_eq!(rows[3].rank, 4);
        // Equal match and game points: main-board wins decide (team 6 won board 2 only).
        let r = |teams, board_winners| TeamMatchRecord {
            round: 1,
            teams,
            outcome: TeamOutcome::FirstWins,
            match_points: [3, 0],
            game_points: [3, 1],
            board_winners,
            main_board: Some(0),
            forfeit: false,
            nominal_winner: None,
        };
        let rows = standings(
            &[5, 6, 7, 8],
            &[r([6, 8], vec![None, Some(0)]), r([5, 7], vec![Some(0), None])],
            &[],
            &TeamTieBreak::WEIJIA,
        );
        assert_eq!((rows[0].team, rows[0].main_board_wins, rows[1].team), (5, 1, 6));
    }
}
