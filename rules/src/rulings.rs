//! The referee's rulings (裁判法则) and how they change a game's result.
//!
//! Sources: rules.md §3.5–3.6, §5, §8, §11, §12 and §13.1; the 2002 rules (seed 000) Arts. 17–20
//! and 22; the team relay rules (seed 003) Arts. 17.2–17.8, 18, 22, 23.9 and 24.
//!
//! - [`RulingKind`] / [`Ruling`]: the typed catalogue a referee enters, per side and per player.
//! - [`Offence`] and [`rulings_for`]: what happened at the board → the ruling(s) the rule set
//!   prescribes (rules.md §8 table; individual 2002 vs team relay).
//! - [`GameResult`]: the stored result (rules.md §3.6).
//! - [`apply_rulings`]: a game's base result plus its rulings → the final result, penalty stones,
//!   warnings, forced passes, players sent off, and an explanation of every effect in English and
//!   Chinese so a page can show it before saving.
//!
//! ## Readings of the rules chosen here (documented where applied)
//!
//! - Two warnings lose the game (rules.md §11.1, 1988 rules; configurable as
//!   `RuleSet::warnings_to_loss`). If both sides reach the threshold, the side that reaches it
//!   first in move order loses (at the same move number, the ruling entered first); the game
//!   ended at that moment \[INF\].
//! - A second yellow card for the same person: see [`SecondYellow`]; default 1 + 2 = 3 stones.
//! - Decisive rulings (loss, double loss, draw, replay, no result, and the automatic losses from
//!   warnings or a team's 5th order error) override the base result; when there are several, the
//!   first in move order stands \[INF\].
//! - Penalty stones only change a counted result (rules.md §3.5); they do not change a result by
//!   resignation, on time, or by any decisive ruling.

use crate::board::Color;
use crate::clock::{BothLateness, LatenessOutcome, LatenessVerdict};
use crate::outcome::{Outcome, Scoring};
use crate::ruleset::{CycleOutcome, DoubleMovePenalty, RuleSet, TimeoutPolicy};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Why a side was ruled to lose (判负).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LossReason {
    /// Evidence that a stone was moved on purpose (故意移子), Art. 17.5.
    IntentionalStoneMoving,
    /// The player scattered the board and it cannot be reconstructed (散乱棋局), Art. 17.6.
    ScatteredBoard,
    /// Fake game, "gentlemen's agreement" (下假棋、君子协定), Art. 23.1 (seed 003).
    Cheating,
    /// Two consecutive moves under the 1988 rules (连走二步者为负), rules.md §8.
    DoubleMove,
    /// Last byo-yomi period or absolute time exceeded (超时判负), Arts. 12.4, 22.5.
    Timeout,
    /// Beyond the lateness limit (迟到判负), Art. 22.1–22.4.
    Lateness,
    /// Forfeit, absence or withdrawal (弃权判负), Art. 15.2, seed 003 Art. 23.2.
    Forfeit,
    /// Warnings accumulated to `warnings_to_loss` (rules.md §11.1, 1988 rules).
    Warnings,
    /// The team's 5th move-order error in a game (seed 003 Art. 17.7).
    OrderErrors,
    /// Any other ruling by the referee in the spirit of the rules (rules.md §8 last row).
    Other,
}

impl LossReason {
    /// Every reason, in the order the ruling forms offer them.
    pub const ALL: [LossReason; 10] = [
        LossReason::IntentionalStoneMoving,
        LossReason::ScatteredBoard,
        LossReason::Cheating,
        LossReason::DoubleMove,
        LossReason::Timeout,
        LossReason::Lateness,
        LossReason::Forfeit,
        LossReason::Warnings,
        LossReason::OrderErrors,
        LossReason::Other,
    ];

    /// The article the reason comes from.
    pub fn article(self) -> &'static str {
        match self {
            LossReason::IntentionalStoneMoving => "Art. 17.5",
            LossReason::ScatteredBoard => "Art. 17.6",
            LossReason::Cheating => "Art. 23.1",
            LossReason::DoubleMove => "1988 rules",
            LossReason::Timeout => "Art. 22.5",
            LossReason::Lateness => "Art. 22.1",
            LossReason::Forfeit => "Art. 15.2",
            LossReason::Warnings => "rules.md §11.1",
            LossReason::OrderErrors => "team Art. 17.7",
            LossReason::Other => "rules.md §8",
        }
    }

    /// The stable code (as serialised): "intentional_stone_moving", "timeout"… The reader's
    /// words come from the admin's catalog (`Lang::loss_reason`).
    pub fn code(self) -> &'static str {
        match self {
            LossReason::IntentionalStoneMoving => "intentional_stone_moving",
            LossReason::ScatteredBoard => "scattered_board",
            LossReason::Cheating => "cheating",
            LossReason::DoubleMove => "double_move",
            LossReason::Timeout => "timeout",
            LossReason::Lateness => "lateness",
            LossReason::Forfeit => "forfeit",
            LossReason::Warnings => "warnings",
            LossReason::OrderErrors => "order_errors",
            LossReason::Other => "other",
        }
    }
}

/// Why both sides were ruled to lose (双方均负), rules.md §12.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DoubleLossReason {
    /// A moved stone, no agreement (Art. 17.5 (5)).
    StoneMoved,
    /// Board scattered by an outside cause (Art. 17.6 (3)).
    ScatteredBoard,
    /// Both players late beyond the limit (Art. 22.3).
    BothLate,
    /// Collusion (判双方负, Art. 23.1).
    Cheating,
    Other,
}

impl DoubleLossReason {
    /// Every reason, in the order the ruling forms offer them.
    pub const ALL: [DoubleLossReason; 5] = [
        DoubleLossReason::StoneMoved,
        DoubleLossReason::ScatteredBoard,
        DoubleLossReason::BothLate,
        DoubleLossReason::Cheating,
        DoubleLossReason::Other,
    ];

    /// The stable code (as serialised): "stone_moved", "both_late"…; the words are the
    /// catalog's (`Lang::double_loss_reason`).
    pub fn code(self) -> &'static str {
        match self {
            DoubleLossReason::StoneMoved => "stone_moved",
            DoubleLossReason::ScatteredBoard => "scattered_board",
            DoubleLossReason::BothLate => "both_late",
            DoubleLossReason::Cheating => "cheating",
            DoubleLossReason::Other => "other",
        }
    }

    /// The article the cause comes from (seed 000 Arts. 17.5 (5), 17.6 (3); Arts. 22.3 and
    /// 23.1 of the 2002 rules, which seed 000 does not reach); `None` for another cause.
    pub fn article(self) -> Option<&'static str> {
        match self {
            DoubleLossReason::StoneMoved => Some("Art. 17.5"),
            DoubleLossReason::ScatteredBoard => Some("Art. 17.6"),
            DoubleLossReason::BothLate => Some("Art. 22.3"),
            DoubleLossReason::Cheating => Some("Art. 23.1"),
            DoubleLossReason::Other => None,
        }
    }
}

/// A referee ruling (判罚). Stored as JSON with a `kind` tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RulingKind {
    /// 警告 (individual rules, Arts. 17–18). Counted toward `warnings_to_loss`.
    Warning,
    /// 劝告 (team rules, seed 003 Arts. 17.4, 22.5): no penalty.
    Advice,
    /// 黄牌 (team): 1 penalty stone; a second one for the same person → red (seed 003 Art. 24.2–24.3).
    YellowCard,
    /// 红牌 (team): 2 penalty stones, the person barred from this game and the next (Art. 24.3).
    RedCard,
    /// Penalty stones (罚子) against the side, each moving one stone of area (rules.md §3.5).
    PenaltyStones { stones: u32 },
    /// The move is void (着手无效) and is taken off the board. Under Arts. 18.3 and 19 it comes
    /// with a [`RulingKind::ForcedPass`], so the void turn counts as a pass; for a double move
    /// (Art. 17.2) the void second move is simply removed.
    VoidMove,
    /// One forced pass (弃权一次 / 停一着 / 虚着): the side loses one turn. Not a forfeit of the game.
    ForcedPass,
    /// The side loses the game (判负).
    Loss { reason: LossReason },
    /// Both sides lose (双方均负), rules.md §12.
    DoubleLoss { reason: DoubleLossReason },
    /// 和棋 (Arts. 17.5 (3), 17.6 (1), 20.3).
    Draw,
    /// 重赛 (Arts. 17.5 (4), 17.6 (2)).
    Replay,
    /// 无胜负 (Art. 20.3 supplement, seed 003 Art. 20.3): replayed with the remaining time.
    NoResult,
    /// A triple ko, eternal life or another cycle (循环劫、长生) stopped the game: nobody is at
    /// fault (seed 000 Art. 20: whole-board repetition is "in principle" banned, the event
    /// says what follows). The outcome is the event's `RuleSet::cycle`, resolved when applied:
    /// no result (replayed with the remaining time), a draw, or an extra game (a replay).
    Cycle,
    /// A move-order error in relay play (seed 003 Art. 17.7): the side's n-th error costs n
    /// stones; a player's 3rd error → red card; the side's 5th error loses the game.
    OrderError,
    /// Moves beyond a section's quota (seed 003 Art. 17.8): 1 stone per extra move.
    MoveQuotaExcess { extra_moves: u32 },
    /// The last byo-yomi period exceeded: by `RuleSet::timeout`, a loss (Art. 22.5), a forced
    /// pass (Art. 22.5 conversion), or a forced pass + 1 stone (seed 003 Art. 22.1).
    LastByoYomiTimeout,
}

impl RulingKind {
    /// Kinds that concern both sides (no `against`).
    pub fn is_both_sides(self) -> bool {
        matches!(
            self,
            RulingKind::DoubleLoss { .. }
                | RulingKind::Draw
                | RulingKind::Replay
                | RulingKind::NoResult
                | RulingKind::Cycle
        )
    }

    /// Whether only the chief arbiter (裁判长) may rule it: a draw, a replay or a double loss
    /// (seed 000 Arts. 17.5, 17.6: "裁判长可根据实际情况，判：和棋、重赛、双方均负"), also when a
    /// cycle's outcome under `rules` is a draw or an extra game. A double loss of two players
    /// both late beyond the limit is the clock's verdict (Art. 22.3), and a cycle's no result
    /// the event's fixed consequence (Art. 20): any arbiter records those.
    pub fn needs_chief(self, rules: &RuleSet) -> bool {
        match self {
            RulingKind::Draw | RulingKind::Replay => true,
            RulingKind::DoubleLoss { reason } => reason != DoubleLossReason::BothLate,
            RulingKind::Cycle => rules.cycle != CycleOutcome::NoResult,
            _ => false,
        }
    }

    /// The stable code of the kind (its serialised tag): "warning", "penalty_stones"…, for
    /// logs and the English `Display` of [`RulingError`]; readers get the catalog's words
    /// (`Lang::ruling_kind`).
    pub fn code(self) -> &'static str {
        match self {
            RulingKind::Warning => "warning",
            RulingKind::Advice => "advice",
            RulingKind::YellowCard => "yellow_card",
            RulingKind::RedCard => "red_card",
            RulingKind::PenaltyStones { .. } => "penalty_stones",
            RulingKind::VoidMove => "void_move",
            RulingKind::ForcedPass => "forced_pass",
            RulingKind::Loss { .. } => "loss",
            RulingKind::DoubleLoss { .. } => "double_loss",
            RulingKind::Draw => "draw",
            RulingKind::Replay => "replay",
            RulingKind::NoResult => "no_result",
            RulingKind::Cycle => "cycle",
            RulingKind::OrderError => "order_error",
            RulingKind::MoveQuotaExcess { .. } => "move_quota_excess",
            RulingKind::LastByoYomiTimeout => "last_byo_yomi_timeout",
        }
    }
}

/// One ruling in a game's log: what, against whom, when.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Ruling {
    #[serde(flatten)]
    pub kind: RulingKind,
    /// The side the ruling is against; `None` for rulings on both sides (double loss, draw,
    /// replay, no result).
    pub against: Option<Color>,
    /// The person (team events: cards accumulate per person, seed 003 Art. 24.2).
    #[serde(default)]
    pub player: Option<u32>,
    /// The move at which it happened (0: before the first move).
    pub move_number: u32,
    /// Minute of play, if recorded.
    #[serde(default)]
    pub minute: Option<u32>,
}

impl Ruling {
    /// A ruling against one side.
    pub fn against(kind: RulingKind, side: Color, move_number: u32) -> Ruling {
        Ruling { kind, against: Some(side), player: None, move_number, minute: None }
    }

    /// A ruling on both sides (double loss, draw, replay, no result).
    pub fn both(kind: RulingKind, move_number: u32) -> Ruling {
        Ruling { kind, against: None, player: None, move_number, minute: None }
    }

    pub fn by_player(self, player: u32) -> Ruling {
        Ruling { player: Some(player), ..self }
    }

    pub fn at_minute(self, minute: u32) -> Ruling {
        Ruling { minute: Some(minute), ..self }
    }
}

/// Why a set of rulings cannot be applied. `index` is the position in the slice given. The
/// `Display` is an English line for logs; readers get `Lang::ruling_error`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(tag = "error", rename_all = "snake_case")]
pub enum RulingError {
    #[error("ruling #{} ({}) must say which side it is against", .index + 1, .kind.code())]
    MissingSide { index: usize, kind: RulingKind },
    #[error("ruling #{} ({}) concerns both sides and must not name one", .index + 1, .kind.code())]
    UnexpectedSide { index: usize, kind: RulingKind },
    #[error("ruling #{} ({}): cards are not used under this rule set", .index + 1, .kind.code())]
    CardsNotInUse { index: usize, kind: RulingKind },
    #[error("ruling #{}: a penalty of 0 is not a penalty", .index + 1)]
    Zero { index: usize },
    #[error("ruling #{}: player {player} was already sent off with a red card", .index + 1)]
    AlreadySentOff { index: usize, player: u32 },
    #[error("player {player} cannot carry {yellows} yellow cards into this game: two make a red card")]
    TooManyPriorYellows { player: u32, yellows: u32 },
}

/// What a second yellow card for the same person in the same match costs.
///
/// Seed 003 Art. 24.2: "同场次相同人员累积2次黄牌应出示红牌"; Art. 24.3: "被出示黄牌一方每次罚1子。
/// 被出示红牌一方每次罚2子". Stones are charged *each time* a card is shown, and nothing in
/// Art. 24 takes back the stone of a yellow already shown. The card shown for the second
/// offence is the red one. Reading used by default: the first yellow costs 1 stone, the second
/// offence is sanctioned with the red card (2 stones) instead of a yellow, **3 stones in all**
/// ([`SecondYellow::RedReplacesSecondYellow`]). The other two readings are offered because the
/// text does not settle it \[UNVERIFIED\]: the red replaces both yellows (2 in all), or the second
/// yellow and the red are both charged (1 + 1 + 2 = 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum SecondYellow {
    /// 1 + 2 = 3 stones (default).
    #[default]
    RedReplacesSecondYellow,
    /// The red replaces both yellows of this game: 2 stones in all.
    RedReplacesBoth,
    /// Yellow, yellow and red all charged: 1 + 1 + 2 = 4 stones.
    RedAdded,
}

/// Yellow cards a person already received in earlier games of the same match (同场次).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PriorYellows {
    pub side: Color,
    pub player: u32,
    pub yellows: u32,
}

/// Inputs to [`apply_rulings`] besides the rule set, the base result and the rulings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct ApplyInputs {
    /// Handicap stones of the game (for the scoring of a count).
    pub handicap: u8,
    pub second_yellow: SecondYellow,
    #[serde(default)]
    pub prior_yellows: Vec<PriorYellows>,
}

/// What an offence at the board is (rules.md §8, §6.6, §11).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "offence", rename_all = "snake_case")]
pub enum Offence {
    /// Two consecutive moves (连下两着), Art. 17.2.
    DoubleMove,
    /// Take-back (悔棋), Art. 17.3.
    TakeBack,
    /// Clock pressed before or together with placing the stone, Art. 17.4.
    EarlyClockPress,
    /// Clock pressed wrongly (按错计时钟), team Art. 22.5: advice.
    WrongClockPress,
    /// Repeated wrong clock presses, team Art. 22.5: a malicious foul (恶意犯规) → yellow (Art. 24.2).
    RepeatedWrongClockPress,
    /// Clock pressed before all captured stones were removed, Art. 22.6 (\[E1\]), team Art. 22.2.
    PressBeforeCapturesRemoved,
    /// Stones with liberties removed (误提), Art. 18.1.
    MisCapture,
    /// Captured stones not removed (未提、漏提), Art. 18.2.
    MissedCapture,
    /// Ko retaken without a threat, Art. 18.3.
    KoWithoutThreat,
    /// Play on a forbidden point (禁着点), Art. 19.
    ForbiddenPoint,
    /// The last byo-yomi period exceeded, Art. 22.5, team Art. 22.1.
    LastByoYomiTimeout,
    /// Move-order error in relay play, team Art. 17.7.
    OrderError,
    /// Moves beyond a section's quota, team Art. 17.8.
    MoveQuotaExcess { extra_moves: u32 },
    /// Leaving the seat: team Art. 23.9 red card (+ one malicious foul on record); individual
    /// Art. 22.7 during byo-yomi: the reading simply continues.
    LeavingSeat,
    /// A malicious foul (恶意犯规), team Art. 24.2: yellow card.
    MaliciousFoul,
    /// Evidence of intentional stone moving, Art. 17.5.
    IntentionalStoneMoving,
    /// A player scattered the board and it cannot be reconstructed, Art. 17.6.
    ScatteredBoardByPlayer,
    /// Fake game / gentlemen's agreement, Art. 23.1 (loss; the referee may rule both lose).
    Cheating,
    /// Triple ko, eternal life or another cycle (Art. 20.3): `RuleSet::cycle`.
    Cycle,
}

/// The ruling(s) the rule set prescribes for an offence (rules.md §8 table).
///
/// Team rules are recognised by `rules.cards` (seed 003: warnings become yellow cards). The
/// double move follows `rules.double_move`, the last byo-yomi timeout `rules.timeout` (resolved
/// when applied), a cycle `rules.cycle`. An empty list means the rules fix no ruling: the
/// referee decides in the spirit of the rules (rules.md §8 last row), e.g. the team-only
/// offences under individual rules, or leaving the seat under Art. 22.7.
pub fn rulings_for(offence: Offence, rules: &RuleSet) -> Vec<RulingKind> {
    use RulingKind as K;
    let team = rules.cards;
    // Art. 17–18 "警告一次" becomes "黄牌警告一次" in the team rules.
    let warn = if team { K::YellowCard } else { K::Warning };
    match offence {
        Offence::DoubleMove => match rules.double_move {
            DoubleMovePenalty::VoidAndWarning => vec![K::VoidMove, K::Warning],
            DoubleMovePenalty::VoidAndYellowCard => vec![K::VoidMove, K::YellowCard],
            DoubleMovePenalty::Loss => vec![K::Loss { reason: LossReason::DoubleMove }],
        },
        // Art. 17.3: the stone goes back to its point + warning (team: yellow).
        Offence::TakeBack => vec![warn],
        // Art. 17.4: warning, clock unchanged; team Art. 17.4: advice.
        Offence::EarlyClockPress => vec![if team { K::Advice } else { K::Warning }],
        Offence::WrongClockPress if team => vec![K::Advice],
        Offence::RepeatedWrongClockPress | Offence::MaliciousFoul if team => vec![K::YellowCard],
        Offence::WrongClockPress | Offence::RepeatedWrongClockPress | Offence::MaliciousFoul => vec![],
        Offence::PressBeforeCapturesRemoved | Offence::MisCapture | Offence::MissedCapture => vec![warn],
        // Art. 18.3: void, one pass and a warning (team: yellow).
        Offence::KoWithoutThreat => vec![K::VoidMove, K::ForcedPass, warn],
        // Art. 19: void and one pass, no warning.
        Offence::ForbiddenPoint => vec![K::VoidMove, K::ForcedPass],
        Offence::LastByoYomiTimeout => vec![K::LastByoYomiTimeout],
        Offence::OrderError if team => vec![K::OrderError],
        Offence::MoveQuotaExcess { extra_moves } if team => vec![K::MoveQuotaExcess { extra_moves }],
        Offence::OrderError | Offence::MoveQuotaExcess { .. } => vec![],
        Offence::LeavingSeat if team => vec![K::RedCard],
        Offence::LeavingSeat => vec![],
        Offence::IntentionalStoneMoving => vec![K::Loss { reason: LossReason::IntentionalStoneMoving }],
        Offence::ScatteredBoardByPlayer => vec![K::Loss { reason: LossReason::ScatteredBoard }],
        Offence::Cheating => vec![K::Loss { reason: LossReason::Cheating }],
        // Art. 20: nobody is at fault; the event's setting says what follows.
        Offence::Cycle => vec![K::Cycle],
    }
}

/// [`rulings_for`] as [`Ruling`]s against `side` at `move_number`; rulings on both sides (a
/// cycle's) name no side, and need none: `None` when a ruling needs the side and none is given.
pub fn rule(offence: Offence, rules: &RuleSet, side: Option<Color>, move_number: u32) -> Option<Vec<Ruling>> {
    rulings_for(offence, rules)
        .into_iter()
        .map(|k| match (k.is_both_sides(), side) {
            (true, _) => Some(Ruling::both(k, move_number)),
            (false, Some(c)) => Some(Ruling::against(k, c, move_number)),
            (false, None) => None,
        })
        .collect()
}

/// The plain ruling a cycle comes to under the event's choice (Art. 20.3): no result (无胜负),
/// a draw, or an extra game (加赛, recorded as a replay). What `RulingKind::Cycle` decides when
/// it is applied, for callers that record the outcome itself (a relay match's ending).
pub fn cycle_kind(outcome: CycleOutcome) -> RulingKind {
    match outcome {
        CycleOutcome::NoResult => RulingKind::NoResult,
        CycleOutcome::Draw => RulingKind::Draw,
        CycleOutcome::ExtraGame => RulingKind::Replay,
    }
}

/// Whether the rulings of `offence` all concern both sides (a cycle: nobody is at fault,
/// Art. 20), so that naming a side is wrong.
pub fn sideless(offence: Offence, rules: &RuleSet) -> bool {
    let kinds = rulings_for(offence, rules);
    !kinds.is_empty() && kinds.iter().all(|k| k.is_both_sides())
}

/// The rulings that a lateness assessment implies (Art. 22.1–22.3): a loss by lateness (or on
/// time, after a resumption) for one side, or a double loss when both are beyond the limit.
pub fn lateness_rulings(both: &BothLateness) -> Vec<Ruling> {
    match both.outcome() {
        LatenessOutcome::Play => vec![],
        LatenessOutcome::Loses { loser } => {
            let reason = match both.verdict(loser) {
                LatenessVerdict::TimeExpired { .. } => LossReason::Timeout,
                _ => LossReason::Lateness,
            };
            vec![Ruling::against(RulingKind::Loss { reason }, loser, 0)]
        }
        LatenessOutcome::DoubleLoss => {
            vec![Ruling::both(RulingKind::DoubleLoss { reason: DoubleLossReason::BothLate }, 0)]
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Results
// ---------------------------------------------------------------------------------------------

/// How a game was decided (rules.md §3.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "method", rename_all = "snake_case")]
pub enum ResultMethod {
    /// By count (数子), with the outcome after komi, compensation and penalty stones.
    Count {
        outcome: Outcome,
        black_halves: u32,
        #[serde(default)]
        penalty_black: u32,
        #[serde(default)]
        penalty_white: u32,
    },
    /// 中盘胜.
    Resignation,
    /// 超时.
    Time,
    /// 弃权判负.
    Forfeit,
    /// 迟到判负.
    Lateness,
    /// 判负 by the referee for another reason.
    RefereeLoss { reason: LossReason },
    /// 和棋.
    Draw,
    /// 无胜负 (Art. 20.3): no points; the replay decides.
    NoResult,
    /// 重赛 ordered: no points; the replay decides.
    Replay,
    /// 双方均负: 0 : 0 (rules.md §12).
    DoubleLoss { reason: DoubleLossReason },
    /// 轮空: a win for the player (stored as `winner`; the colour is nominal).
    Bye,
}

/// A game's result (rules.md §3.6). Build it with the constructors; [`validate`](Self::validate)
/// checks a deserialised one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GameResult {
    pub winner: Option<Color>,
    #[serde(flatten)]
    pub method: ResultMethod,
}

/// One side's score in a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameScore {
    Win,
    Draw,
    Loss,
}

impl GameResult {
    /// A counted game: Black's count in half points under `scoring` (which carries the penalty
    /// stones).
    pub fn counted(scoring: &Scoring, black_halves: u32) -> GameResult {
        let outcome = scoring.outcome(black_halves);
        GameResult {
            winner: outcome.winner,
            method: ResultMethod::Count {
                outcome,
                black_halves,
                penalty_black: scoring.penalty_black,
                penalty_white: scoring.penalty_white,
            },
        }
    }

    pub fn resignation(winner: Color) -> GameResult {
        GameResult { winner: Some(winner), method: ResultMethod::Resignation }
    }

    pub fn time(winner: Color) -> GameResult {
        GameResult { winner: Some(winner), method: ResultMethod::Time }
    }

    pub fn forfeit(winner: Color) -> GameResult {
        GameResult { winner: Some(winner), method: ResultMethod::Forfeit }
    }

    pub fn lateness(winner: Color) -> GameResult {
        GameResult { winner: Some(winner), method: ResultMethod::Lateness }
    }

    /// `loser` is ruled to lose: on time, lateness and forfeit get their own methods, anything
    /// else is a referee-ruled loss.
    pub fn loss_of(loser: Color, reason: LossReason) -> GameResult {
        let winner = loser.opponent();
        match reason {
            LossReason::Timeout => GameResult::time(winner),
            LossReason::Lateness => GameResult::lateness(winner),
            LossReason::Forfeit => GameResult::forfeit(winner),
            reason => GameResult { winner: Some(winner), method: ResultMethod::RefereeLoss { reason } },
        }
    }

    pub fn draw() -> GameResult {
        GameResult { winner: None, method: ResultMethod::Draw }
    }

    pub fn no_result() -> GameResult {
        GameResult { winner: None, method: ResultMethod::NoResult }
    }

    pub fn replay() -> GameResult {
        GameResult { winner: None, method: ResultMethod::Replay }
    }

    pub fn double_loss(reason: DoubleLossReason) -> GameResult {
        GameResult { winner: None, method: ResultMethod::DoubleLoss { reason } }
    }

    pub fn bye(player: Color) -> GameResult {
        GameResult { winner: Some(player), method: ResultMethod::Bye }
    }

    /// The winner agrees with the method (a counted result's winner is its outcome's).
    pub fn validate(&self) -> Result<(), String> {
        let ok = match self.method {
            ResultMethod::Count { outcome, .. } => self.winner == outcome.winner,
            ResultMethod::Resignation
            | ResultMethod::Time
            | ResultMethod::Forfeit
            | ResultMethod::Lateness
            | ResultMethod::RefereeLoss { .. }
            | ResultMethod::Bye => self.winner.is_some(),
            ResultMethod::Draw
            | ResultMethod::NoResult
            | ResultMethod::Replay
            | ResultMethod::DoubleLoss { .. } => self.winner.is_none(),
        };
        if ok {
            Ok(())
        } else {
            Err(format!("the winner {:?} does not agree with the result {}", self.winner, self.code()))
        }
    }

    /// The game has to be replayed before anyone scores (no result, replay ordered).
    pub fn needs_replay(&self) -> bool {
        matches!(self.method, ResultMethod::NoResult | ResultMethod::Replay)
    }

    /// What `color` scored; `None` when nothing is scored (no result, replay ordered, the empty
    /// side of a bye).
    pub fn score_for(&self, color: Color) -> Option<GameScore> {
        match self.method {
            ResultMethod::NoResult | ResultMethod::Replay => None,
            ResultMethod::Bye => (self.winner == Some(color)).then_some(GameScore::Win),
            ResultMethod::DoubleLoss { .. } => Some(GameScore::Loss),
            _ => Some(match self.winner {
                None => GameScore::Draw,
                Some(w) if w == color => GameScore::Win,
                Some(_) => GameScore::Loss,
            }),
        }
    }

    /// Game points on the default scale (decisions table, rules.md §15.1): win 2, draw 1,
    /// loss 0; double loss 0 each; bye and forfeit win 2. `None` when nothing is scored.
    pub fn points_for(&self, color: Color) -> Option<u32> {
        self.points_on_scale(color, 2, 1, 0)
    }

    /// Game points on another scale (e.g. 3/1/0 for the team relay, seed 003 Art. 12).
    pub fn points_on_scale(&self, color: Color, win: u32, draw: u32, loss: u32) -> Option<u32> {
        self.score_for(color).map(|s| match s {
            GameScore::Win => win,
            GameScore::Draw => draw,
            GameScore::Loss => loss,
        })
    }

    /// SGF RE value, where SGF has one: "B+1.5", "W+R", "B+T", "B+F", "0", "Void".
    pub fn sgf_result(&self) -> Option<String> {
        let w = self.winner.map(|c| c.letter());
        match (self.method, w) {
            (ResultMethod::Count { outcome, .. }, _) => Some(outcome.sgf_result()),
            (ResultMethod::Resignation, Some(w)) => Some(format!("{w}+R")),
            (ResultMethod::Time, Some(w)) => Some(format!("{w}+T")),
            (ResultMethod::Forfeit | ResultMethod::Lateness | ResultMethod::RefereeLoss { .. }, Some(w)) => {
                Some(format!("{w}+F"))
            }
            (ResultMethod::Draw, _) => Some("0".into()),
            (ResultMethod::NoResult | ResultMethod::Replay, _) => Some("Void".into()),
            _ => None,
        }
    }

    /// The stable code of the result, as the audit stores it: "B+¾", "W+R", "B+T",
    /// "W+F (lateness)", "B+F (cheating)" (the reason's code), "Draw", "Double loss". Readers
    /// get the catalog's words (`Lang::game_result`).
    pub fn code(&self) -> String {
        let w = self.winner.map(|c| c.letter()).unwrap_or('?');
        match self.method {
            ResultMethod::Count { outcome, .. } => outcome.to_string(),
            ResultMethod::Resignation => format!("{w}+R"),
            ResultMethod::Time => format!("{w}+T"),
            ResultMethod::Forfeit => format!("{w}+F (forfeit)"),
            ResultMethod::Lateness => format!("{w}+F (lateness)"),
            ResultMethod::RefereeLoss { reason } => format!("{w}+F ({})", reason.code()),
            ResultMethod::Draw => "Draw".into(),
            ResultMethod::NoResult => "No result".into(),
            ResultMethod::Replay => "Replay ordered".into(),
            ResultMethod::DoubleLoss { .. } => "Double loss".into(),
            ResultMethod::Bye => "Bye".into(),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Applying rulings
// ---------------------------------------------------------------------------------------------

/// What the game produced at the board, before the referee's rulings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "base", rename_all = "snake_case")]
pub enum BaseResult {
    /// Counted: Black's count in half points (stones + surrounded points + half the shared
    /// points, Art. 9), before penalty stones.
    Count {
        black_halves: u32,
    },
    Resignation {
        winner: Color,
    },
    Time {
        winner: Color,
    },
    /// Not finished (yet): only a decisive ruling gives a result.
    Unfinished,
}

/// A player sent off with a red card: barred from this game and the next, counts as one
/// substitution (seed 003 Art. 24.3). If the side has no eligible player left, Art. 24.4 adds a
/// forced pass, which the referee enters as its own ruling.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SentOff {
    pub side: Color,
    pub player: Option<u32>,
    pub move_number: u32,
}

/// One effect. `ruling` is the index of the ruling in the slice given, `None` for the final
/// result line. What it says is a typed [`Said`]: the edge words it in the reader's language
/// (admin's `i18n`), naming the player from its own records.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Effect {
    pub ruling: Option<usize>,
    pub said: Said,
}

/// Whom a ruling is against: a side, or one of its players (the caller's id for the person).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Who {
    pub side: Color,
    pub player: Option<u32>,
}

/// How a second yellow card was costed (rules.md §11, seed 003 Art. 24.2–24.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SecondYellowCost {
    /// Shown as a red card: 2 stones.
    Red,
    /// A red replaces the yellows of this game: 2 stones in place of `charged`.
    ReplacesBoth { charged: u32 },
    /// The yellow (1) and a red card (2): 3 stones.
    Added,
}

/// What a ruling did, or the final result line (`at`: the move number of the ruling, `nth`:
/// which warning or error of the side, `stones`: penalty stones).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Said {
    /// A warning; `limit`: how many lose the game (`None`: warnings do not lose, §11.1).
    Warning {
        who: Who,
        at: u32,
        nth: u32,
        limit: Option<u8>,
    },
    /// The warning that reaches the limit: the side loses.
    WarningsLose {
        who: Who,
        at: u32,
        nth: u32,
        limit: u8,
    },
    Advice {
        who: Who,
        at: u32,
    },
    /// Red card: 2 stones, barred from this game and the next (team Art. 24.3).
    RedCard {
        who: Who,
        at: u32,
    },
    PenaltyStones {
        who: Who,
        at: u32,
        stones: u32,
    },
    VoidMove {
        who: Who,
        at: u32,
    },
    ForcedPass {
        who: Who,
        at: u32,
    },
    Loss {
        side: Color,
        reason: LossReason,
    },
    /// Quota exceeded by `extra` moves: as many stones (team Art. 17.8).
    QuotaExcess {
        who: Who,
        extra: u32,
    },
    /// Last byo-yomi period exceeded (Art. 22.5): loss, a forced pass, or a pass and a stone.
    ByoYomiLoss {
        who: Who,
        at: u32,
    },
    ByoYomiPass {
        who: Who,
        at: u32,
    },
    ByoYomiPassAndStone {
        who: Who,
        at: u32,
    },
    DoubleLoss {
        reason: DoubleLossReason,
    },
    Draw,
    Replay,
    NoResult,
    /// A cycle (triple ko, eternal life) ruled with no side at fault: the event's outcome
    /// (Art. 20).
    Cycle {
        outcome: CycleOutcome,
    },
    /// A yellow card to a side without a player: it counts toward no red card.
    YellowUnnamed {
        who: Who,
        at: u32,
    },
    Yellow {
        who: Who,
        at: u32,
    },
    /// A person's `nth` yellow of the match: a red card, costed by `cost`.
    SecondYellow {
        who: Who,
        at: u32,
        nth: u32,
        cost: SecondYellowCost,
    },
    /// The side's 5th move-order error: it loses (team Art. 17.7).
    OrderErrorLoss {
        who: Who,
        at: u32,
        nth: u32,
    },
    /// The side's `nth` move-order error: `nth` stones (team Art. 17.7).
    OrderError {
        side: Color,
        at: u32,
        nth: u32,
    },
    /// A player's 3rd move-order error: red card, 2 stones.
    OrderErrorRed {
        who: Who,
    },
    /// A deciding ruling after the game was already decided (`earlier`, at move `at`).
    NoEffect {
        said: Box<Said>,
        earlier: GameResult,
        at: u32,
    },
    /// The final line: a result decided by ruling; `penalties` `[Black, White]` when any.
    Decided {
        result: GameResult,
        penalties: Option<[u32; 2]>,
    },
    /// The final line of a count: Black's count, the penalty stones, the result.
    Counted {
        black_halves: u32,
        penalties: Option<[u32; 2]>,
        result: GameResult,
    },
    /// The final line of a resignation (`time`: false) or a loss on time (`time`: true).
    Stands {
        result: GameResult,
        time: bool,
        penalties: Option<[u32; 2]>,
    },
    /// The game is not finished: the penalty stones so far.
    Unfinished {
        penalties: [u32; 2],
    },
}

/// The result of [`apply_rulings`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Applied {
    /// The final result; `None` while an unfinished game has no decisive ruling.
    pub result: Option<GameResult>,
    pub penalty_black: u32,
    pub penalty_white: u32,
    pub warnings_black: u32,
    pub warnings_white: u32,
    /// Forced passes: (side, move number).
    pub forced_passes: Vec<(Color, u32)>,
    pub sent_off: Vec<SentOff>,
    /// Every effect in the order applied (move order), then the final result.
    pub effects: Vec<Effect>,
}

impl Applied {
    pub fn penalty(&self, side: Color) -> u32 {
        match side {
            Color::Black => self.penalty_black,
            Color::White => self.penalty_white,
        }
    }

    pub fn warnings(&self, side: Color) -> u32 {
        match side {
            Color::Black => self.warnings_black,
            Color::White => self.warnings_white,
        }
    }
}

fn ix(c: Color) -> usize {
    match c {
        Color::Black => 0,
        Color::White => 1,
    }
}

struct Tally<'a> {
    rules: &'a RuleSet,
    inputs: &'a ApplyInputs,
    pen: [u32; 2],
    warnings: [u32; 2],
    /// Yellow cards per person in this game, with the stones they were charged.
    yellows: BTreeMap<(Color, u32), (u32, u32)>,
    sent_off: BTreeSet<(Color, u32)>,
    sent_off_list: Vec<SentOff>,
    order_side: [u32; 2],
    order_player: BTreeMap<(Color, u32), u32>,
    forced_passes: Vec<(Color, u32)>,
    decided: Option<(GameResult, u32)>,
    effects: Vec<Effect>,
}

impl Tally<'_> {
    fn say(&mut self, i: usize, said: Said) {
        self.effects.push(Effect { ruling: Some(i), said });
    }

    fn prior_yellows(&self, side: Color, player: u32) -> u32 {
        self.inputs
            .prior_yellows
            .iter()
            .filter(|p| p.side == side && p.player == player)
            .map(|p| p.yellows)
            .sum()
    }

    /// Record a decisive result unless the game was already decided.
    fn decide(&mut self, i: usize, r: &Ruling, result: GameResult, said: Said) {
        match self.decided {
            None => {
                self.decided = Some((result, r.move_number));
                self.say(i, said);
            }
            Some((earlier, at)) => self.say(i, Said::NoEffect { said: Box::new(said), earlier, at }),
        }
    }

    fn add_stones(&mut self, side: Color, n: u32) {
        self.pen[ix(side)] = self.pen[ix(side)].saturating_add(n);
    }

    fn send_off(&mut self, side: Color, player: Option<u32>, move_number: u32) {
        if let Some(p) = player {
            self.sent_off.insert((side, p));
        }
        self.sent_off_list.push(SentOff { side, player, move_number });
    }

    fn check_not_sent_off(&self, i: usize, side: Color, player: Option<u32>) -> Result<(), RulingError> {
        match player {
            Some(p) if self.sent_off.contains(&(side, p)) => {
                Err(RulingError::AlreadySentOff { index: i, player: p })
            }
            _ => Ok(()),
        }
    }

    fn apply(&mut self, i: usize, r: &Ruling) -> Result<(), RulingError> {
        let side = match r.against {
            Some(s) => s,
            None => return self.apply_both(i, r),
        };
        let who = Who { side, player: r.player };
        let at = r.move_number;
        match r.kind {
            RulingKind::Warning => {
                let nth = {
                    let w = &mut self.warnings[ix(side)];
                    *w += 1;
                    *w
                };
                match self.rules.warnings_to_loss {
                    Some(limit) if nth >= u32::from(limit) => {
                        let said = Said::WarningsLose { who, at, nth, limit };
                        self.decide(i, r, GameResult::loss_of(side, LossReason::Warnings), said);
                    }
                    limit => self.say(i, Said::Warning { who, at, nth, limit }),
                }
            }
            RulingKind::Advice => self.say(i, Said::Advice { who, at }),
            RulingKind::YellowCard => self.yellow(i, r, side)?,
            RulingKind::RedCard => {
                self.check_not_sent_off(i, side, r.player)?;
                self.add_stones(side, 2);
                self.send_off(side, r.player, at);
                self.say(i, Said::RedCard { who, at });
            }
            RulingKind::PenaltyStones { stones } => {
                self.add_stones(side, stones);
                self.say(i, Said::PenaltyStones { who, at, stones });
            }
            RulingKind::VoidMove => self.say(i, Said::VoidMove { who, at }),
            RulingKind::ForcedPass => {
                self.forced_passes.push((side, at));
                self.say(i, Said::ForcedPass { who, at });
            }
            RulingKind::Loss { reason } => {
                self.decide(i, r, GameResult::loss_of(side, reason), Said::Loss { side, reason });
            }
            RulingKind::OrderError => self.order_error(i, r, side)?,
            RulingKind::MoveQuotaExcess { extra_moves } => {
                self.add_stones(side, extra_moves);
                self.say(i, Said::QuotaExcess { who, extra: extra_moves });
            }
            RulingKind::LastByoYomiTimeout => match self.rules.timeout {
                TimeoutPolicy::Loss => {
                    let said = Said::ByoYomiLoss { who, at };
                    self.decide(i, r, GameResult::loss_of(side, LossReason::Timeout), said);
                }
                TimeoutPolicy::Pass => {
                    self.forced_passes.push((side, at));
                    self.say(i, Said::ByoYomiPass { who, at });
                }
                TimeoutPolicy::PassAndStone => {
                    self.forced_passes.push((side, at));
                    self.add_stones(side, 1);
                    self.say(i, Said::ByoYomiPassAndStone { who, at });
                }
            },
            RulingKind::DoubleLoss { .. }
            | RulingKind::Draw
            | RulingKind::Replay
            | RulingKind::NoResult
            | RulingKind::Cycle => {
                unreachable!("validated: rulings on both sides have no `against`")
            }
        }
        Ok(())
    }

    fn apply_both(&mut self, i: usize, r: &Ruling) -> Result<(), RulingError> {
        let (result, said) = match r.kind {
            RulingKind::DoubleLoss { reason } => {
                (GameResult::double_loss(reason), Said::DoubleLoss { reason })
            }
            RulingKind::Draw => (GameResult::draw(), Said::Draw),
            RulingKind::Replay => (GameResult::replay(), Said::Replay),
            RulingKind::NoResult => (GameResult::no_result(), Said::NoResult),
            RulingKind::Cycle => {
                let outcome = self.rules.cycle;
                let result = match cycle_kind(outcome) {
                    RulingKind::Draw => GameResult::draw(),
                    RulingKind::Replay => GameResult::replay(),
                    _ => GameResult::no_result(),
                };
                (result, Said::Cycle { outcome })
            }
            _ => unreachable!("validated: one-side rulings have `against`"),
        };
        self.decide(i, r, result, said);
        Ok(())
    }

    /// Seed 003 Art. 24.2–24.3: a yellow costs 1 stone; a person's second yellow in the same
    /// match is a red card (see [`SecondYellow`]).
    fn yellow(&mut self, i: usize, r: &Ruling, side: Color) -> Result<(), RulingError> {
        self.check_not_sent_off(i, side, r.player)?;
        let who = Who { side, player: r.player };
        let at = r.move_number;
        let Some(p) = r.player else {
            self.add_stones(side, 1);
            self.say(i, Said::YellowUnnamed { who, at });
            return Ok(());
        };
        let prior = self.prior_yellows(side, p);
        let (count, charged) = self.yellows.get(&(side, p)).copied().unwrap_or((0, 0));
        let nth = prior + count + 1;
        if nth < 2 {
            self.yellows.insert((side, p), (count + 1, charged + 1));
            self.add_stones(side, 1);
            self.say(i, Said::Yellow { who, at });
            return Ok(());
        }
        // The second yellow in the same match: a red card (Art. 24.2).
        self.yellows.insert((side, p), (count + 1, charged));
        let (added, cost) = match self.inputs.second_yellow {
            SecondYellow::RedReplacesSecondYellow => (2i64, SecondYellowCost::Red),
            SecondYellow::RedReplacesBoth => {
                (2 - i64::from(charged), SecondYellowCost::ReplacesBoth { charged })
            }
            SecondYellow::RedAdded => (3, SecondYellowCost::Added),
        };
        self.pen[ix(side)] = (i64::from(self.pen[ix(side)]) + added).max(0) as u32;
        self.send_off(side, Some(p), at);
        self.say(i, Said::SecondYellow { who, at, nth, cost });
        Ok(())
    }

    /// Seed 003 Art. 17.7: the side's n-th error costs n stones, a player's 3rd error is a red
    /// card (on top of the error's own stones \[INF\]: the article names both), and the side's
    /// 5th error in a game loses it.
    fn order_error(&mut self, i: usize, r: &Ruling, side: Color) -> Result<(), RulingError> {
        self.check_not_sent_off(i, side, r.player)?;
        let who = Who { side, player: r.player };
        let at = r.move_number;
        let nth = {
            let o = &mut self.order_side[ix(side)];
            *o += 1;
            *o
        };
        if nth >= 5 {
            let said = Said::OrderErrorLoss { who, at, nth };
            self.decide(i, r, GameResult::loss_of(side, LossReason::OrderErrors), said);
            return Ok(());
        }
        self.add_stones(side, nth);
        self.say(i, Said::OrderError { side, at, nth });
        if let Some(p) = r.player {
            let k = {
                let e = self.order_player.entry((side, p)).or_insert(0);
                *e += 1;
                *e
            };
            if k >= 3 {
                self.add_stones(side, 2);
                self.send_off(side, Some(p), at);
                self.say(i, Said::OrderErrorRed { who });
            }
        }
        Ok(())
    }
}

fn validate_ruling(i: usize, r: &Ruling, rules: &RuleSet) -> Result<(), RulingError> {
    let kind = r.kind;
    match (r.kind.is_both_sides(), r.against) {
        (true, Some(_)) => return Err(RulingError::UnexpectedSide { index: i, kind }),
        (false, None) => return Err(RulingError::MissingSide { index: i, kind }),
        _ => {}
    }
    match r.kind {
        RulingKind::YellowCard | RulingKind::RedCard if !rules.cards => {
            Err(RulingError::CardsNotInUse { index: i, kind })
        }
        RulingKind::PenaltyStones { stones: 0 } | RulingKind::MoveQuotaExcess { extra_moves: 0 } => {
            Err(RulingError::Zero { index: i })
        }
        _ => Ok(()),
    }
}

/// Apply a game's rulings to its base result (rules.md §3.5, §8, §11, §12).
///
/// Rulings are taken in move order (stable: rulings at the same move in the order given).
/// - Decisive rulings (loss, double loss, draw, replay, no result) override the base result;
///   the first one in move order stands, later ones are reported as without effect.
/// - Warnings are counted per side; the side that first reaches `rules.warnings_to_loss` loses
///   (never when it is `None`).
/// - Cards (only when `rules.cards`): yellow 1 stone, red 2 stones; a person's second yellow in
///   the match is a red card, costed by `inputs.second_yellow`.
/// - Order errors 1, 2, 3, 4 stones cumulatively, a player's 3rd → red card, the side's 5th →
///   loss; quota excess 1 stone per move; last byo-yomi timeout per `rules.timeout`.
/// - Penalty stones are summed per side and applied through [`Scoring`]
///   (`penalty_black`/`penalty_white`) when the result is a count; they do not change a
///   resignation, a time result or a decisive ruling.
pub fn apply_rulings(
    rules: &RuleSet,
    base: BaseResult,
    rulings: &[Ruling],
    inputs: &ApplyInputs,
) -> Result<Applied, RulingError> {
    for (i, r) in rulings.iter().enumerate() {
        validate_ruling(i, r, rules)?;
    }
    for p in &inputs.prior_yellows {
        if p.yellows >= 2 {
            return Err(RulingError::TooManyPriorYellows { player: p.player, yellows: p.yellows });
        }
    }
    let mut order: Vec<usize> = (0..rulings.len()).collect();
    order.sort_by_key(|&i| rulings[i].move_number);

    let mut t = Tally {
        rules,
        inputs,
        pen: [0; 2],
        warnings: [0; 2],
        yellows: BTreeMap::new(),
        sent_off: BTreeSet::new(),
        sent_off_list: Vec::new(),
        order_side: [0; 2],
        order_player: BTreeMap::new(),
        forced_passes: Vec::new(),
        decided: None,
        effects: Vec::new(),
    };
    for &i in &order {
        t.apply(i, &rulings[i])?;
    }

    let (pb, pw) = (t.pen[0], t.pen[1]);
    let penalties = pb > 0 || pw > 0;
    let shown = penalties.then_some([pb, pw]);
    let (result, said) = match (t.decided, base) {
        (Some((r, _)), _) => (Some(r), Said::Decided { result: r, penalties: shown }),
        (None, BaseResult::Count { black_halves }) => {
            let scoring = rules.scoring(inputs.handicap, pb, pw);
            let r = GameResult::counted(&scoring, black_halves);
            (Some(r), Said::Counted { black_halves, penalties: shown, result: r })
        }
        (None, BaseResult::Resignation { winner } | BaseResult::Time { winner }) => {
            let (r, time) = match base {
                BaseResult::Resignation { .. } => (GameResult::resignation(winner), false),
                _ => (GameResult::time(winner), true),
            };
            (Some(r), Said::Stands { result: r, time, penalties: shown })
        }
        (None, BaseResult::Unfinished) => (None, Said::Unfinished { penalties: [pb, pw] }),
    };
    t.effects.push(Effect { ruling: None, said });

    Ok(Applied {
        result,
        penalty_black: pb,
        penalty_white: pw,
        warnings_black: t.warnings[0],
        warnings_white: t.warnings[1],
        forced_passes: t.forced_passes,
        sent_off: t.sent_off_list,
        effects: t.effects,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::{assess_both, LatenessPolicy, TimeControl};
    use Color::{Black, White};

    fn count(points: f64) -> BaseResult {
        BaseResult::Count { black_halves: (points * 2.0) as u32 }
    }

    fn ind() -> RuleSet {
        RuleSet::chinese_2002()
    }

    fn team() -> RuleSet {
        RuleSet::chinese_team_relay()
    }

    fn apply(rules: &RuleSet, base: BaseResult, rulings: &[Ruling]) -> Applied {
        apply_rulings(rules, base, rulings, &ApplyInputs::default()).unwrap()
    }

    fn at(kind: RulingKind, side: Color, m: u32) -> Ruling {
        Ruling::against(kind, side, m)
    }

    fn result(a: &Applied) -> GameResult {
        a.result.expect("a result")
    }

    #[test]
    fn no_rulings_count_as_usual() {
        let a = apply(&ind(), count(185.0), &[]);
        assert_eq!(result(&a).code(), "B+¾");
        assert_eq!(
            a.effects.last().unwrap().said,
            Said::Counted { black_halves: 370, penalties: None, result: result(&a) }
        );
        assert_eq!(apply(&ind(), BaseResult::Unfinished, &[]).result, None);
    }

    /// rules.md §11.1: the 2nd warning loses under the default rule set.
    #[test]
    fn second_warning_loses_by_default() {
        let one = apply(&ind(), count(190.0), &[at(RulingKind::Warning, Black, 40)]);
        assert_eq!(result(&one).code(), "B+5¾");
        assert_eq!(one.warnings_black, 1);
        let who = Who { side: Black, player: None };
        assert_eq!(one.effects[0].said, Said::Warning { who, at: 40, nth: 1, limit: Some(2) });
        let two = apply(
            &ind(),
            count(190.0),
            &[at(RulingKind::Warning, Black, 40), at(RulingKind::Warning, Black, 90)],
        );
        let r = result(&two);
        assert_eq!(r, GameResult::loss_of(Black, LossReason::Warnings));
        assert_eq!(r.winner, Some(White));
        assert_eq!(r.code(), "W+F (warnings)");
        let who = Who { side: Black, player: None };
        assert_eq!(two.effects[1].said, Said::WarningsLose { who, at: 90, nth: 2, limit: 2 });
    }

    #[test]
    fn warnings_never_lose_with_none() {
        let rules = RuleSet { warnings_to_loss: None, ..ind() };
        let w: Vec<Ruling> = (1..=5).map(|m| at(RulingKind::Warning, Black, m * 10)).collect();
        let a = apply(&rules, count(190.0), &w);
        assert_eq!(result(&a).code(), "B+5¾");
        assert_eq!(a.warnings_black, 5);
        let three = RuleSet { warnings_to_loss: Some(3), ..ind() };
        assert_eq!(result(&apply(&three, count(190.0), &w[..2])).code(), "B+5¾");
        assert_eq!(result(&apply(&three, count(190.0), &w[..3])).winner, Some(White));
    }

    /// Both sides reach the threshold: the first in move order loses, whatever the entry order.
    #[test]
    fn first_to_reach_the_warning_limit_loses() {
        let rulings = [
            at(RulingKind::Warning, White, 120),
            at(RulingKind::Warning, White, 30),
            at(RulingKind::Warning, Black, 50),
            at(RulingKind::Warning, Black, 100),
        ];
        let a = apply(&ind(), count(170.0), &rulings);
        assert_eq!(result(&a).winner, Some(White), "Black's 2nd at move 100 comes before White's at 120");
        assert!(a.effects.iter().any(|e| matches!(e.said, Said::NoEffect { at: 100, .. })));
    }

    /// rules.md §3.5 example: team komi 3½, B 185 with one Black yellow card → draw.
    #[test]
    fn team_yellow_is_one_stone() {
        let a = apply(&team(), count(185.0), &[at(RulingKind::YellowCard, Black, 60).by_player(2)]);
        assert_eq!(a.penalty_black, 1);
        assert_eq!(result(&a), GameResult::counted(&team().scoring(0, 1, 0), 370));
        assert_eq!(result(&a).winner, None, "184 effective = draw");
        assert_eq!(result(&a).points_on_scale(Black, 3, 1, 0), Some(1));
        assert_eq!(
            a.effects.last().unwrap().said,
            Said::Counted { black_halves: 370, penalties: Some([1, 0]), result: result(&a) }
        );
        assert_eq!(a.effects[0].said, Said::Yellow { who: Who { side: Black, player: Some(2) }, at: 60 });
    }

    /// rules.md §3.5 example: 2 stones against White → B+3.
    #[test]
    fn two_stones_against_white() {
        let a = apply(&team(), count(185.0), &[at(RulingKind::PenaltyStones { stones: 2 }, White, 100)]);
        assert_eq!(result(&a).code(), "B+3");
        let red = apply(&team(), count(185.0), &[at(RulingKind::RedCard, White, 100).by_player(4)]);
        assert_eq!(result(&red).code(), "B+3");
        assert_eq!(red.sent_off, vec![SentOff { side: White, player: Some(4), move_number: 100 }]);
    }

    /// Seed 003 Art. 24.2–24.3 and the reading documented on [`SecondYellow`].
    #[test]
    fn second_yellow_is_a_red_card() {
        let y = |m| at(RulingKind::YellowCard, White, m).by_player(7);
        let rulings = [y(30), y(80)];
        let a = apply(&team(), count(185.0), &rulings);
        assert_eq!(a.penalty_white, 3, "default reading: 1 + 2");
        assert_eq!(a.sent_off.len(), 1);
        assert_eq!(result(&a).code(), "B+4");
        let stones = |second_yellow| {
            let inputs = ApplyInputs { second_yellow, ..ApplyInputs::default() };
            apply_rulings(&team(), count(185.0), &rulings, &inputs).unwrap().penalty_white
        };
        assert_eq!(stones(SecondYellow::RedReplacesBoth), 2);
        assert_eq!(stones(SecondYellow::RedAdded), 4);
        // Yellows of different players do not combine.
        let two_players =
            apply(&team(), count(185.0), &[y(30), at(RulingKind::YellowCard, White, 31).by_player(8)]);
        assert_eq!(two_players.penalty_white, 2);
        assert!(two_players.sent_off.is_empty());
        // A yellow from an earlier game of the same match counts toward the red.
        let inputs = ApplyInputs {
            prior_yellows: vec![PriorYellows { side: White, player: 7, yellows: 1 }],
            ..ApplyInputs::default()
        };
        let carried = apply_rulings(&team(), count(185.0), &[y(30)], &inputs).unwrap();
        assert_eq!(carried.penalty_white, 2);
        assert_eq!(carried.sent_off.len(), 1);
        // A card for a player already sent off is refused.
        let err = apply_rulings(&team(), count(185.0), &[y(30), y(80), y(90)], &ApplyInputs::default());
        assert_eq!(err, Err(RulingError::AlreadySentOff { index: 2, player: 7 }));
        // Without a player the yellow costs its stone but cannot accumulate.
        let anon = apply(
            &team(),
            count(185.0),
            &[at(RulingKind::YellowCard, White, 1), at(RulingKind::YellowCard, White, 2)],
        );
        assert_eq!(anon.penalty_white, 2);
        assert!(anon.sent_off.is_empty());
    }

    /// Seed 003 Art. 17.7: 1 + 2 + 3 + 4 stones, the 5th loses; a player's 3rd is a red card.
    #[test]
    fn order_errors_are_cumulative() {
        let e = |m, p| at(RulingKind::OrderError, Black, m).by_player(p);
        let four = [e(10, 1), e(20, 2), e(80, 3), e(90, 4)];
        let a = apply(&team(), count(200.0), &four);
        assert_eq!(a.penalty_black, 1 + 2 + 3 + 4);
        assert_eq!(result(&a).code(), "B+6", "200 − 10 = 190 effective, komi 3½: 190 − 184 = 6");
        let five = [e(10, 1), e(20, 2), e(80, 3), e(90, 4), e(150, 5)];
        let a = apply(&team(), count(200.0), &five);
        assert_eq!(result(&a), GameResult::loss_of(Black, LossReason::OrderErrors));
        assert_eq!(result(&a).code(), "W+F (order_errors)");
        // One player's 3rd error: red card on top of the error's stones (1 + 2 + 3 + 2).
        let same = [e(10, 1), e(20, 1), e(30, 1)];
        let a = apply(&team(), count(200.0), &same);
        assert_eq!(a.penalty_black, 8);
        assert_eq!(a.sent_off, vec![SentOff { side: Black, player: Some(1), move_number: 30 }]);
        assert_eq!(
            a.effects[3].said,
            Said::OrderErrorRed { who: Who { side: Black, player: Some(1) } },
            "the 3rd error: its stones, then the red card"
        );
    }

    #[test]
    fn move_quota_excess() {
        let a =
            apply(&team(), count(186.0), &[at(RulingKind::MoveQuotaExcess { extra_moves: 2 }, Black, 74)]);
        assert_eq!(a.penalty_black, 2);
        assert_eq!(result(&a).winner, None, "186 − 2 = 184: draw");
    }

    /// rules.md §6.3: the last byo-yomi timeout under each TimeoutPolicy.
    #[test]
    fn last_byo_yomi_timeout_by_policy() {
        let t = [at(RulingKind::LastByoYomiTimeout, White, 201)];
        let loss = apply(&ind(), count(170.0), &t);
        assert_eq!(result(&loss), GameResult::time(Black));
        assert_eq!(result(&loss).code(), "B+T");
        let pass = apply(&RuleSet { timeout: TimeoutPolicy::Pass, ..ind() }, count(170.0), &t);
        assert_eq!(result(&pass).winner, Some(White));
        assert_eq!(pass.forced_passes, vec![(White, 201)]);
        assert_eq!(pass.penalty_white, 0);
        let team_t = apply(&team(), count(184.0), &t);
        assert_eq!(team_t.forced_passes, vec![(White, 201)]);
        assert_eq!(team_t.penalty_white, 1);
        assert_eq!(result(&team_t).code(), "B+1", "184 + 1 against White");
    }

    #[test]
    fn decisive_rulings_override_the_base() {
        let b = count(200.0);
        let cases = [
            (
                at(RulingKind::Loss { reason: LossReason::IntentionalStoneMoving }, Black, 77),
                "W+F (intentional_stone_moving)",
            ),
            (at(RulingKind::Loss { reason: LossReason::ScatteredBoard }, Black, 77), "W+F (scattered_board)"),
            (at(RulingKind::Loss { reason: LossReason::Cheating }, Black, 77), "W+F (cheating)"),
            (at(RulingKind::Loss { reason: LossReason::Forfeit }, Black, 0), "W+F (forfeit)"),
            (at(RulingKind::Loss { reason: LossReason::Lateness }, Black, 0), "W+F (lateness)"),
            (at(RulingKind::Loss { reason: LossReason::Timeout }, Black, 150), "W+T"),
            (
                Ruling::both(RulingKind::DoubleLoss { reason: DoubleLossReason::StoneMoved }, 77),
                "Double loss",
            ),
            (Ruling::both(RulingKind::Draw, 77), "Draw"),
            (Ruling::both(RulingKind::Replay, 77), "Replay ordered"),
            (Ruling::both(RulingKind::NoResult, 77), "No result"),
        ];
        for (r, text) in cases {
            let a = apply(&ind(), b, &[r]);
            assert_eq!(result(&a).code(), text);
            result(&a).validate().unwrap();
        }
        // The first decisive ruling in move order stands.
        let a = apply(
            &ind(),
            b,
            &[
                Ruling::both(RulingKind::Draw, 150),
                at(RulingKind::Loss { reason: LossReason::Cheating }, White, 20),
            ],
        );
        assert_eq!(result(&a), GameResult::loss_of(White, LossReason::Cheating));
        assert!(matches!(a.effects[1].said, Said::NoEffect { .. }));
        // A decisive ruling ends an unfinished game.
        let a = apply(
            &ind(),
            BaseResult::Unfinished,
            &[at(RulingKind::Loss { reason: LossReason::Forfeit }, White, 0)],
        );
        assert_eq!(result(&a), GameResult::forfeit(Black));
    }

    /// rules.md §3.5: penalties do not change a resignation or a time result.
    #[test]
    fn penalties_do_not_change_resignation_or_time() {
        let y = [
            at(RulingKind::YellowCard, White, 10).by_player(1),
            at(RulingKind::PenaltyStones { stones: 5 }, White, 20),
        ];
        let a = apply(&team(), BaseResult::Resignation { winner: White }, &y);
        assert_eq!(result(&a), GameResult::resignation(White));
        assert_eq!(a.penalty_white, 6);
        assert!(matches!(
            a.effects.last().unwrap().said,
            Said::Stands { time: false, penalties: Some([0, 6]), .. }
        ));
        let a = apply(&team(), BaseResult::Time { winner: White }, &y);
        assert_eq!(result(&a), GameResult::time(White));
    }

    #[test]
    fn void_moves_passes_and_advice_leave_the_count() {
        let rules = team();
        let r = [
            at(RulingKind::VoidMove, Black, 51),
            at(RulingKind::ForcedPass, Black, 51),
            at(RulingKind::Advice, Black, 60),
        ];
        let a = apply(&rules, count(185.0), &r);
        assert_eq!(result(&a).code(), "B+1");
        assert_eq!(a.forced_passes, vec![(Black, 51)]);
        let who = Who { side: Black, player: None };
        assert_eq!(a.effects[0].said, Said::VoidMove { who, at: 51 });
        assert_eq!(a.effects[2].said, Said::Advice { who, at: 60 });
    }

    #[test]
    fn invalid_rulings_are_refused() {
        let yellow = at(RulingKind::YellowCard, Black, 3);
        assert_eq!(
            apply_rulings(&ind(), count(185.0), &[yellow], &ApplyInputs::default()),
            Err(RulingError::CardsNotInUse { index: 0, kind: RulingKind::YellowCard })
        );
        let e = apply_rulings(
            &ind(),
            count(185.0),
            &[Ruling::both(RulingKind::Warning, 3)],
            &ApplyInputs::default(),
        )
        .unwrap_err();
        assert_eq!(e.to_string(), "ruling #1 (warning) must say which side it is against");
        let e =
            apply_rulings(&ind(), count(185.0), &[at(RulingKind::Draw, Black, 3)], &ApplyInputs::default());
        assert!(matches!(e, Err(RulingError::UnexpectedSide { .. })));
        let e = apply_rulings(
            &ind(),
            count(185.0),
            &[at(RulingKind::PenaltyStones { stones: 0 }, Black, 3)],
            &ApplyInputs::default(),
        );
        assert_eq!(e, Err(RulingError::Zero { index: 0 }));
    }

    /// rules.md §8 table: individual 2002 vs team relay.
    #[test]
    fn offence_table() {
        use RulingKind as K;
        let (i, t) = (ind(), team());
        let both = |o| (rulings_for(o, &i), rulings_for(o, &t));
        assert_eq!(
            both(Offence::DoubleMove),
            (vec![K::VoidMove, K::Warning], vec![K::VoidMove, K::YellowCard])
        );
        let old = RuleSet { double_move: DoubleMovePenalty::Loss, ..ind() };
        assert_eq!(rulings_for(Offence::DoubleMove, &old), vec![K::Loss { reason: LossReason::DoubleMove }]);
        assert_eq!(both(Offence::TakeBack), (vec![K::Warning], vec![K::YellowCard]));
        assert_eq!(both(Offence::EarlyClockPress), (vec![K::Warning], vec![K::Advice]));
        assert_eq!(both(Offence::WrongClockPress), (vec![], vec![K::Advice]));
        assert_eq!(both(Offence::RepeatedWrongClockPress), (vec![], vec![K::YellowCard]));
        assert_eq!(both(Offence::PressBeforeCapturesRemoved), (vec![K::Warning], vec![K::YellowCard]));
        assert_eq!(both(Offence::MisCapture), (vec![K::Warning], vec![K::YellowCard]));
        assert_eq!(both(Offence::MissedCapture), (vec![K::Warning], vec![K::YellowCard]));
        assert_eq!(
            both(Offence::KoWithoutThreat),
            (vec![K::VoidMove, K::ForcedPass, K::Warning], vec![K::VoidMove, K::ForcedPass, K::YellowCard])
        );
        assert_eq!(
            both(Offence::ForbiddenPoint),
            (vec![K::VoidMove, K::ForcedPass], vec![K::VoidMove, K::ForcedPass])
        );
        assert_eq!(
            both(Offence::LastByoYomiTimeout),
            (vec![K::LastByoYomiTimeout], vec![K::LastByoYomiTimeout])
        );
        assert_eq!(both(Offence::OrderError), (vec![], vec![K::OrderError]));
        assert_eq!(
            both(Offence::MoveQuotaExcess { extra_moves: 3 }),
            (vec![], vec![K::MoveQuotaExcess { extra_moves: 3 }])
        );
        assert_eq!(both(Offence::LeavingSeat), (vec![], vec![K::RedCard]));
        assert_eq!(both(Offence::MaliciousFoul), (vec![], vec![K::YellowCard]));
        let l = |reason| vec![K::Loss { reason }];
        assert_eq!(rulings_for(Offence::IntentionalStoneMoving, &t), l(LossReason::IntentionalStoneMoving));
        assert_eq!(rulings_for(Offence::ScatteredBoardByPlayer, &i), l(LossReason::ScatteredBoard));
        assert_eq!(rulings_for(Offence::Cheating, &i), l(LossReason::Cheating));
        assert_eq!(rulings_for(Offence::Cycle, &i), vec![K::Cycle]);
        // Ko without a threat under the individual rules: void + pass + warning, applied.
        let ko = rule(Offence::KoWithoutThreat, &i, Some(White), 99).unwrap();
        assert_eq!(rule(Offence::KoWithoutThreat, &i, None, 99), None, "the side is needed");
        let a = apply(&i, count(185.0), &ko);
        assert_eq!((a.warnings_white, a.forced_passes.clone()), (1, vec![(White, 99)]));
    }

    /// Seed 000 Art. 20: a triple ko or eternal life is ruled with no side at fault; what
    /// follows is the event's setting (no result by default, a draw, or an extra game).
    #[test]
    fn a_cycle_is_ruled_with_no_side_by_the_event_setting() {
        use RulingKind as K;
        for (outcome, result, said) in [
            (CycleOutcome::NoResult, GameResult::no_result(), CycleOutcome::NoResult),
            (CycleOutcome::Draw, GameResult::draw(), CycleOutcome::Draw),
            (CycleOutcome::ExtraGame, GameResult::replay(), CycleOutcome::ExtraGame),
        ] {
            let rules = RuleSet { cycle: outcome, ..ind() };
            assert!(sideless(Offence::Cycle, &rules));
            let rs = rule(Offence::Cycle, &rules, None, 250).expect("no side needed");
            assert_eq!(rs, vec![Ruling::both(K::Cycle, 250)]);
            assert_eq!(rule(Offence::Cycle, &rules, Some(Black), 250), Some(rs.clone()), "a side is dropped");
            let a = apply(&rules, count(190.0), &rs);
            assert_eq!(a.result, Some(result), "{outcome:?}");
            assert_eq!(a.effects[0].said, Said::Cycle { outcome: said });
            // Naming a side is refused: nobody is at fault.
            let guilty = Ruling::against(K::Cycle, White, 250);
            let e = apply_rulings(&rules, count(190.0), &[guilty], &ApplyInputs::default());
            assert_eq!(e.unwrap_err(), RulingError::UnexpectedSide { index: 0, kind: K::Cycle });
        }
        assert!(!sideless(Offence::KoWithoutThreat, &ind()));
        let team = RuleSet::chinese_team_relay();
        assert_eq!(rulings_for(Offence::Cycle, &team), vec![K::Cycle]);
    }

    /// Seed 000 Arts. 17.5, 17.6: a draw, a replay and a double loss are the chief arbiter's
    /// (裁判长) rulings; both players late (Art. 22.3) and a cycle's no result (Art. 20) are not.
    #[test]
    fn draws_replays_and_double_losses_are_the_chief_arbiters() {
        use DoubleLossReason as D;
        use RulingKind as K;
        let i = ind();
        for k in [K::Draw, K::Replay] {
            assert!(k.needs_chief(&i), "{k:?}");
        }
        for r in [D::StoneMoved, D::ScatteredBoard, D::Cheating, D::Other] {
            assert!(K::DoubleLoss { reason: r }.needs_chief(&i), "{r:?}");
        }
        assert!(!K::DoubleLoss { reason: D::BothLate }.needs_chief(&i));
        assert!(!K::Cycle.needs_chief(&i), "no result by default");
        assert!(K::Cycle.needs_chief(&RuleSet { cycle: CycleOutcome::Draw, ..ind() }));
        assert!(K::Cycle.needs_chief(&RuleSet { cycle: CycleOutcome::ExtraGame, ..ind() }));
        for k in [K::Warning, K::NoResult, K::Loss { reason: LossReason::Cheating }, K::ForcedPass] {
            assert!(!k.needs_chief(&i), "{k:?}");
        }
        let articles: Vec<_> = D::ALL.iter().map(|r| r.article()).collect();
        assert_eq!(
            articles,
            [Some("Art. 17.5"), Some("Art. 17.6"), Some("Art. 22.3"), Some("Art. 23.1"), None]
        );
    }

    #[test]
    fn game_result_points_and_codes() {
        let cases = [
            (GameResult::resignation(Black), Some(2), Some(0), "B+R", Some("B+R")),
            (GameResult::time(White), Some(0), Some(2), "W+T", Some("W+T")),
            (GameResult::forfeit(Black), Some(2), Some(0), "B+F (forfeit)", Some("B+F")),
            (GameResult::draw(), Some(1), Some(1), "Draw", Some("0")),
            (GameResult::double_loss(DoubleLossReason::BothLate), Some(0), Some(0), "Double loss", None),
            (GameResult::no_result(), None, None, "No result", Some("Void")),
            (GameResult::replay(), None, None, "Replay ordered", Some("Void")),
            (GameResult::bye(Black), Some(2), None, "Bye", None),
        ];
        for (r, pb, pw, en, sgf) in cases {
            r.validate().unwrap();
            assert_eq!((r.points_for(Black), r.points_for(White)), (pb, pw), "{en}");
            assert_eq!(r.code(), en);
            assert_eq!(r.sgf_result().as_deref(), sgf);
        }
        let counted = GameResult::counted(&ind().scoring(0, 0, 0), 370);
        assert_eq!(counted.sgf_result().as_deref(), Some("B+1.5"));
        assert_eq!(counted.points_for(Black), Some(2));
        assert!(GameResult { winner: None, method: ResultMethod::Resignation }.validate().is_err());
        assert!(GameResult { winner: Some(White), ..counted }.validate().is_err());
        assert!(GameResult::replay().needs_replay());
    }

    #[test]
    fn json_round_trip() {
        let r = at(RulingKind::PenaltyStones { stones: 2 }, White, 100).by_player(4).at_minute(95);
        let json = serde_json::to_string(&r).unwrap();
        assert_eq!(
            json,
            r#"{"kind":"penalty_stones","stones":2,"against":"white","player":4,"move_number":100,"minute":95}"#
        );
        assert_eq!(serde_json::from_str::<Ruling>(&json).unwrap(), r);
        let minimal: Ruling =
            serde_json::from_str(r#"{"kind":"warning","against":"black","move_number":3}"#).unwrap();
        assert_eq!(minimal, at(RulingKind::Warning, Black, 3));
        let g = GameResult::counted(&team().scoring(0, 1, 0), 370);
        let back: GameResult = serde_json::from_str(&serde_json::to_string(&g).unwrap()).unwrap();
        assert_eq!(back, g);
        let a = apply(&team(), count(185.0), &[r]);
        let back: Applied = serde_json::from_str(&serde_json::to_string(&a).unwrap()).unwrap();
        assert_eq!(back, a);
    }

    /// Art. 22.3: both late beyond the limit → double loss; one → that side loses.
    #[test]
    fn lateness_to_rulings() {
        let p = LatenessPolicy::separate_venue();
        let ctl = TimeControl::chinese(120, 5);
        let both = assess_both(&p, &ctl, 61 * 60, 90 * 60, false);
        let r = lateness_rulings(&both);
        assert_eq!(r, vec![Ruling::both(RulingKind::DoubleLoss { reason: DoubleLossReason::BothLate }, 0)]);
        assert_eq!(result(&apply(&ind(), BaseResult::Unfinished, &r)).points_for(Black), Some(0));
        let one = lateness_rulings(&assess_both(&p, &ctl, 0, 61 * 60, false));
        assert_eq!(result(&apply(&ind(), BaseResult::Unfinished, &one)), GameResult::lateness(Black));
        assert!(lateness_rulings(&assess_both(&p, &ctl, 10 * 60, 0, false)).is_empty());
    }
}
