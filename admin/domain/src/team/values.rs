//! The small values the relay's modules share: the section (节) and its bounds, a card, a
//! clock reading, how a match ended, match points and a team match's outcome. Each module
//! re-exports its own (`lineup::Section`, `relay::Card`, `clocks::ClockEntry`,
//! `ending::Ending`, `standings::MatchPoints`, …); they live here so that the match
//! (`relay`) and the modules that read or extend it use this leaf instead of each other.

use rules::board::Color;
use rules::clock::ClockReading;
use rules::ruleset::RuleSet;
use rules::rulings::{DoubleLossReason, GameResult, LossReason, ResultMethod, Ruling, RulingKind};
use serde::{Deserialize, Serialize};

use super::Timestamp;

/// Last move of section 1 (seed 003 Art. 10.2).
pub const SECTION_ONE_LAST: u32 = 72;
/// Last move of section 2 (seed 003 Art. 10.2); the play-off restores the game to here
/// (Art. 12).
pub const SECTION_TWO_LAST: u32 = 143;

/// A section of a relay game, or the play-off (which replays section 3, Art. 12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Section {
    One,
    Two,
    Three,
    Playoff,
}

impl Section {
    pub const ALL: [Section; 4] = [Section::One, Section::Two, Section::Three, Section::Playoff];

    pub fn index(self) -> usize {
        match self {
            Section::One => 0,
            Section::Two => 1,
            Section::Three => 2,
            Section::Playoff => 3,
        }
    }

    /// The first move of the section by the rules (Art. 10.2; the play-off starts at 144).
    pub fn first_move(self) -> u32 {
        match self {
            Section::One => 1,
            Section::Two => SECTION_ONE_LAST + 1,
            Section::Three | Section::Playoff => SECTION_TWO_LAST + 1,
        }
    }

    /// The last move of the section's quota (Art. 10.2, 17.8); `None` for section 3 and the
    /// play-off, which run to the end of the game.
    pub fn last_move(self) -> Option<u32> {
        match self {
            Section::One => Some(SECTION_ONE_LAST),
            Section::Two => Some(SECTION_TWO_LAST),
            Section::Three | Section::Playoff => None,
        }
    }

    /// The section after this one in the original game.
    pub fn next(self) -> Option<Section> {
        match self {
            Section::One => Some(Section::Two),
            Section::Two => Some(Section::Three),
            Section::Three | Section::Playoff => None,
        }
    }
}

/// A card shown by the referee (Art. 24), or advice (劝告: no stone, Arts. 17.4, 22.5, 10.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Card {
    Advice,
    Yellow,
    Red,
}

/// One recorded reading of both clocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockEntry {
    /// Taken after this move (0: before the first move).
    pub move_number: u32,
    /// The section in play when it was recorded; [`Section::Playoff`] for readings of the
    /// play-off (its move numbers repeat those of the original section 3).
    pub section: Section,
    pub at: Timestamp,
    /// `[Black, White]`.
    pub clocks: [ClockReading; 2],
}

/// How a match ended, when not by count or resignation. The code is what forms and the stored
/// event carry; the page and the sheets render each with its article from the web catalog.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    Forfeit,
    Withdrawal,
    LossStoneMoved,
    LossScattered,
    LossCheating,
    DoubleLossStoneMoved,
    DoubleLossScattered,
    DoubleLossCheating,
    DrawStoneMoved,
    DrawScattered,
    ReplayStoneMoved,
    ReplayScattered,
    NoEligiblePlayer,
    /// Triple ko, eternal life or another cycle (Art. 20.3): the event's choice.
    Cycle,
}

impl Ending {
    pub const ALL: [Ending; 14] = [
        Ending::Forfeit,
        Ending::Withdrawal,
        Ending::LossStoneMoved,
        Ending::LossScattered,
        Ending::LossCheating,
        Ending::NoEligiblePlayer,
        Ending::DoubleLossStoneMoved,
        Ending::DoubleLossScattered,
        Ending::DoubleLossCheating,
        Ending::DrawStoneMoved,
        Ending::DrawScattered,
        Ending::ReplayStoneMoved,
        Ending::ReplayScattered,
        Ending::Cycle,
    ];

    pub fn code(self) -> &'static str {
        match self {
            Ending::Forfeit => "forfeit",
            Ending::Withdrawal => "withdrawal",
            Ending::LossStoneMoved => "loss_stone_moved",
            Ending::LossScattered => "loss_scattered",
            Ending::LossCheating => "loss_cheating",
            Ending::DoubleLossStoneMoved => "double_loss_stone_moved",
            Ending::DoubleLossScattered => "double_loss_scattered",
            Ending::DoubleLossCheating => "double_loss_cheating",
            Ending::DrawStoneMoved => "draw_stone_moved",
            Ending::DrawScattered => "draw_scattered",
            Ending::ReplayStoneMoved => "replay_stone_moved",
            Ending::ReplayScattered => "replay_scattered",
            Ending::NoEligiblePlayer => "no_eligible_player",
            Ending::Cycle => "cycle",
        }
    }

    pub fn from_code(s: &str) -> Option<Ending> {
        Ending::ALL.into_iter().find(|e| e.code() == s.trim())
    }

    /// Whether the ending is against one side (else it concerns both).
    pub fn one_side(self) -> bool {
        matches!(
            self,
            Ending::Forfeit
                | Ending::Withdrawal
                | Ending::LossStoneMoved
                | Ending::LossScattered
                | Ending::LossCheating
                | Ending::NoEligiblePlayer
        )
    }

    /// Rulings the chief arbiter (裁判长) gives (Arts. 17.5, 17.6; a double loss for cheating
    /// \[INF\]). A cycle applies the event's rule (Art. 20.3): any arbiter records it.
    pub fn chief_only(self) -> bool {
        !self.one_side() && self != Ending::Cycle
    }

    /// The rules crate's ruling for this ending against `side` at `move_number`, under `rules`
    /// (a cycle's outcome is `rules.cycle`).
    pub fn ruling(self, side: Option<Color>, move_number: u32, rules: &RuleSet) -> Option<Ruling> {
        let loss = |reason| side.map(|c| Ruling::against(RulingKind::Loss { reason }, c, move_number));
        let both = |kind| Some(Ruling::both(kind, move_number));
        match self {
            Ending::Forfeit | Ending::Withdrawal => loss(LossReason::Forfeit),
            Ending::LossStoneMoved => loss(LossReason::IntentionalStoneMoving),
            Ending::LossScattered => loss(LossReason::ScatteredBoard),
            Ending::LossCheating => loss(LossReason::Cheating),
            Ending::NoEligiblePlayer => loss(LossReason::Other),
            Ending::DoubleLossStoneMoved => {
                both(RulingKind::DoubleLoss { reason: DoubleLossReason::StoneMoved })
            }
            Ending::DoubleLossScattered => {
                both(RulingKind::DoubleLoss { reason: DoubleLossReason::ScatteredBoard })
            }
            Ending::DoubleLossCheating => both(RulingKind::DoubleLoss { reason: DoubleLossReason::Cheating }),
            Ending::DrawStoneMoved | Ending::DrawScattered => both(RulingKind::Draw),
            Ending::ReplayStoneMoved | Ending::ReplayScattered => both(RulingKind::Replay),
            Ending::Cycle => both(rules::rulings::cycle_kind(rules.cycle)),
        }
    }
}

/// The ending as recorded: what, against whom, why, who ruled, and where in the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EndRecord {
    pub ending: Ending,
    /// The side it is against (`None` for a double loss, a draw or a replay).
    pub side: Option<Color>,
    pub reason: String,
    pub ruled_by: String,
    pub section: Section,
    pub move_number: u32,
    pub at: Timestamp,
    /// A replay played with the time each side had left: the reading it starts from.
    #[serde(default)]
    pub time_left: Option<ClockEntry>,
}

/// Match points for a win, a draw and a loss.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchPoints {
    pub win: u32,
    pub draw: u32,
    pub loss: u32,
}

impl MatchPoints {
    /// Seed 003 Art. 12 (relay) and the 3/1/0 variant of rules.md §13.3.
    pub const THREE_ONE_ZERO: MatchPoints = MatchPoints { win: 3, draw: 1, loss: 0 };
    /// rules.md §13.3: more game points 2, equal 1, fewer 0. Also the per-board game points.
    pub const TWO_ONE_ZERO: MatchPoints = MatchPoints { win: 2, draw: 1, loss: 0 };

    /// Points of `side` when `winner` won (`None`: a draw).
    pub fn for_result(&self, winner: Option<Color>, side: Color) -> u32 {
        match winner {
            None => self.draw,
            Some(w) if w == side => self.win,
            Some(_) => self.loss,
        }
    }

    /// Points `[first, second]` of a match with `outcome`: a double loss is a loss for both
    /// (rules.md §12), a match to be replayed scores nothing (its replay does).
    pub fn of(&self, outcome: TeamOutcome) -> [u32; 2] {
        match outcome {
            TeamOutcome::FirstWins => [self.win, self.loss],
            TeamOutcome::SecondWins => [self.loss, self.win],
            TeamOutcome::Draw => [self.draw, self.draw],
            TeamOutcome::DoubleLoss => [self.loss, self.loss],
            TeamOutcome::NoResult => [0, 0],
        }
    }
}

/// The outcome of a team match for the team listed first (relay: Black; board match: Black on
/// the odd boards) and the second.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TeamOutcome {
    FirstWins,
    SecondWins,
    Draw,
    /// Both teams lose (双方均负: seed 003 Arts. 17.5 (5), 17.6 (3), 23.1; rules.md §12).
    DoubleLoss,
    /// No result: the chief arbiter ordered a replay (重赛, Arts. 17.5 (4), 17.6 (2)). The
    /// match counts nowhere; its replay is a match of its own.
    NoResult,
}

impl TeamOutcome {
    /// The outcome of a game result for the side listed first (Black).
    pub fn of_result(r: &GameResult) -> TeamOutcome {
        match (r.winner, r.method) {
            (Some(Color::Black), _) => TeamOutcome::FirstWins,
            (Some(Color::White), _) => TeamOutcome::SecondWins,
            (None, ResultMethod::DoubleLoss { .. }) => TeamOutcome::DoubleLoss,
            (None, ResultMethod::Replay | ResultMethod::NoResult) => TeamOutcome::NoResult,
            (None, _) => TeamOutcome::Draw,
        }
    }

    /// The team that won, by index into the record's `teams`.
    pub fn winner(self) -> Option<usize> {
        match self {
            TeamOutcome::FirstWins => Some(0),
            TeamOutcome::SecondWins => Some(1),
            _ => None,
        }
    }
}
