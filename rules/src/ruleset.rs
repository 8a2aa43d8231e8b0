//! Rule sets: one serialisable type that a tournament stores and passes around, with presets.
//!
//! The presets follow the decisions table of rules.md: the 2002 Chinese rules for individual
//! events (komi 3¾, situational superko, suicide forbidden, area counting, n/2 stones handicap
//! compensation, 2 warnings lose), the team relay rules of seed 003 (komi 3½, Black 184 = draw,
//! yellow/red cards as penalty stones, last byo-yomi timeout = pass + 1 stone), and Japanese and
//! AGA-style sets for events imported from elsewhere.

use crate::count::CountingMethod;
use crate::game::{KoRule, SuicideRule};
use crate::outcome::{HandicapCompensation, JigoRule, Scoring};
use serde::{Deserialize, Serialize};

/// Which preset a rule set started from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Preset {
    /// 中国围棋竞赛规则 (2002), individual events.
    Chinese2002,
    /// 围棋队际赛规则 (seed 003), the pair-relay team format.
    ChineseTeamRelay,
    /// Japanese 1989 rules (territory counting, simple ko).
    Japanese,
    /// AGA concise rules (area counting with pass stones, situational superko).
    Aga,
}

impl Preset {
    pub const ALL: [Preset; 4] =
        [Preset::Chinese2002, Preset::ChineseTeamRelay, Preset::Japanese, Preset::Aga];

    pub fn code(self) -> &'static str {
        match self {
            Preset::Chinese2002 => "chinese_2002",
            Preset::ChineseTeamRelay => "chinese_team_relay",
            Preset::Japanese => "japanese",
            Preset::Aga => "aga",
        }
    }

    pub fn from_code(s: &str) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.code() == s)
    }

    /// The full rule set of this preset.
    pub fn rules(self) -> RuleSet {
        match self {
            Preset::Chinese2002 => RuleSet::chinese_2002(),
            Preset::ChineseTeamRelay => RuleSet::chinese_team_relay(),
            Preset::Japanese => RuleSet::japanese(),
            Preset::Aga => RuleSet::aga(),
        }
    }
}

/// What the referee rules when a cycle (triple ko, eternal life) stops the game (Art. 20.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum CycleOutcome {
    /// 无胜负, replayed with the remaining time (project default).
    #[default]
    NoResult,
    Draw,
    ExtraGame,
}

impl CycleOutcome {
    /// Every outcome, in the order the event's form offers them.
    pub const ALL: &'static [CycleOutcome] =
        &[CycleOutcome::NoResult, CycleOutcome::Draw, CycleOutcome::ExtraGame];

    /// The stable code (as serialised).
    pub fn code(self) -> &'static str {
        match self {
            CycleOutcome::NoResult => "no_result",
            CycleOutcome::Draw => "draw",
            CycleOutcome::ExtraGame => "extra_game",
        }
    }

    pub fn from_code(s: &str) -> Option<CycleOutcome> {
        CycleOutcome::ALL.iter().copied().find(|o| o.code() == s)
    }
}

/// What happens when the last byo-yomi period runs out (rules.md §6.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum TimeoutPolicy {
    /// 超时判负 (individual default).
    #[default]
    Loss,
    /// Art. 22.5: converted into one forced pass, play continues.
    Pass,
    /// Team relay (seed 003 Art. 22.1): forced pass plus one penalty stone.
    PassAndStone,
}

/// What two consecutive moves by one side cost (rules.md §8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum DoubleMovePenalty {
    /// 2002 Art. 17.2: second move void + warning.
    #[default]
    VoidAndWarning,
    /// Team relay Art. 17.2: second move void + yellow card (1 stone).
    VoidAndYellowCard,
    /// 1988 rules: the double mover loses.
    Loss,
}

/// A complete rule set. Serialised as JSON in the tournament's settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleSet {
    pub preset: Preset,
    pub board_size: u8,
    pub ko: KoRule,
    pub suicide: SuicideRule,
    pub counting: CountingMethod,
    /// Komi of an even game in quarter stones (15 = 3¾ stones = 7.5 points).
    pub komi_q: i32,
    /// Komi of a handicap game (handicap ≥ 1) in quarter stones; 0 under Chinese practice.
    pub handicap_komi_q: i32,
    pub handicap_compensation: HandicapCompensation,
    pub jigo: JigoRule,
    /// Warnings in one game that lose it (None = never). 2 by default (rules.md §11.1).
    pub warnings_to_loss: Option<u8>,
    /// Team rules: yellow and red cards are penalty stones (seed 003 Art. 24).
    pub cards: bool,
    pub timeout: TimeoutPolicy,
    pub double_move: DoubleMovePenalty,
    pub cycle: CycleOutcome,
}

impl Default for RuleSet {
    fn default() -> Self {
        RuleSet::chinese_2002()
    }
}

impl RuleSet {
    /// 中国围棋竞赛规则 2002, individual events (rules.md decisions table).
    pub fn chinese_2002() -> RuleSet {
        RuleSet {
            preset: Preset::Chinese2002,
            board_size: 19,
            ko: KoRule::Situational,
            suicide: SuicideRule::Forbidden,
            counting: CountingMethod::Area,
            komi_q: 15,
            handicap_komi_q: 0,
            handicap_compensation: HandicapCompensation::HalfStonePerStone,
            jigo: JigoRule::Draw,
            warnings_to_loss: Some(2),
            cards: false,
            timeout: TimeoutPolicy::Loss,
            double_move: DoubleMovePenalty::VoidAndWarning,
            cycle: CycleOutcome::NoResult,
        }
    }

    /// 围棋队际赛规则 (seed 003): komi 3½ (Art. 12), Black 184 = draw, cards as stones (Art. 24),
    /// last byo-yomi timeout = pass + 1 stone (Art. 22.1), double move = void + yellow (Art. 17.2).
    pub fn chinese_team_relay() -> RuleSet {
        RuleSet {
            preset: Preset::ChineseTeamRelay,
            komi_q: 14,
            warnings_to_loss: None,
            cards: true,
            timeout: TimeoutPolicy::PassAndStone,
            double_move: DoubleMovePenalty::VoidAndYellowCard,
            ..RuleSet::chinese_2002()
        }
    }

    /// Japanese rules: territory counting with prisoners, komi 6.5 points, simple ko.
    pub fn japanese() -> RuleSet {
        RuleSet {
            preset: Preset::Japanese,
            ko: KoRule::Simple,
            counting: CountingMethod::Territory,
            komi_q: 13,
            handicap_komi_q: 1,
            handicap_compensation: HandicapCompensation::None,
            warnings_to_loss: None,
            ..RuleSet::chinese_2002()
        }
    }

    /// AGA rules: area counting (equivalent to territory with pass stones), komi 7.5 points,
    /// situational superko, handicap compensation n − 1 points, ½ point komi in handicap games.
    pub fn aga() -> RuleSet {
        RuleSet {
            preset: Preset::Aga,
            komi_q: 15,
            handicap_komi_q: 1,
            handicap_compensation: HandicapCompensation::NMinusOnePoints,
            warnings_to_loss: None,
            ..RuleSet::chinese_2002()
        }
    }

    /// The scoring parameters for a game with `handicap` stones and the given penalty stones.
    pub fn scoring(&self, handicap: u8, penalty_black: u32, penalty_white: u32) -> Scoring {
        Scoring {
            points: u32::from(self.board_size) * u32::from(self.board_size),
            komi_q: if handicap == 0 { self.komi_q } else { self.handicap_komi_q },
            handicap,
            compensation: self.handicap_compensation,
            penalty_black,
            penalty_white,
            jigo: self.jigo,
        }
    }

    /// Check the values a user may have edited: board size, komi a multiple of ¼ within reason.
    pub fn validate(&self) -> Result<(), String> {
        if !(crate::board::MIN_SIZE..=crate::board::MAX_SIZE).contains(&self.board_size) {
            return Err(format!("board size {} is not supported (5 to 25)", self.board_size));
        }
        for k in [self.komi_q, self.handicap_komi_q] {
            if k.abs() > 4 * 50 {
                return Err(format!(
                    "komi {} stones is out of range",
                    crate::outcome::signed_quarters_text(k)
                ));
            }
        }
        if self.warnings_to_loss == Some(0) {
            return Err("warnings to loss must be at least 1 (or never)".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_round_trip_as_json() {
        for p in Preset::ALL {
            let r = p.rules();
            assert_eq!(r.preset, p);
            r.validate().unwrap();
            let json = serde_json::to_string(&r).unwrap();
            let back: RuleSet = serde_json::from_str(&json).unwrap();
            assert_eq!(back, r);
            assert_eq!(Preset::from_code(p.code()), Some(p));
        }
    }

    #[test]
    fn preset_values_follow_rules_md() {
        let c = RuleSet::chinese_2002();
        assert_eq!(c.komi_q, 15);
        assert_eq!(c.ko, KoRule::Situational);
        assert_eq!(c.warnings_to_loss, Some(2));
        let t = RuleSet::chinese_team_relay();
        assert_eq!(t.komi_q, 14);
        assert!(t.cards);
        assert_eq!(t.scoring(0, 0, 0).outcome(368).winner, None, "team: Black 184 is a draw");
        assert_eq!(c.scoring(4, 0, 0).outcome(366).to_string(), "B+½", "H4 at 183");
    }

    #[test]
    fn validate_refuses_bad_values() {
        let mut r = RuleSet::chinese_2002();
        r.board_size = 30;
        assert!(r.validate().is_err());
        let mut r = RuleSet::chinese_2002();
        r.warnings_to_loss = Some(0);
        assert!(r.validate().is_err());
    }
}
