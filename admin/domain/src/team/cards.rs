//! What a card is for (seed 003 Arts. 17, 22, 23, 24): the offence and its article of seed 003, the
//! card or advice the article gives, and why a red card is red.
//!
//! The card an offence carries comes from the rules crate ([`rules::rulings::rulings_for`] under
//! the team relay rule set: a double move, a take-back, a mis-capture, a missed capture and a
//! clock pressed before the captures are cleared are yellow, Arts. 17.2, 17.3, 18.1, 18.2,
//! 22.2; an early or a wrong clock press is advice, Arts. 17.4, 22.5; repeated wrong presses
//! are a malicious foul and a malicious foul is yellow, Arts. 22.5, 24.2; leaving the seat is
//! red and one malicious foul, Art. 23.9). A delay in seating a substitute or in returning from
//! a timeout is the referee's advice or yellow card (Art. 10.5); other conduct (Arts.
//! 23.3–23.8) is the referee's judgement, any card.
//!
//! A red card is red directly, from a second yellow to the same person (Art. 24.2), or from a
//! player's third move-order error (Art. 17.7): [`RedCause`], which the penalty log prints.

use rules::ruleset::RuleSet;
use rules::rulings::{rulings_for, Offence, RulingKind};
use serde::{Deserialize, Serialize};

use super::values::Card;

/// The offence a card (or advice) is shown for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CardOffence {
    DoubleMove,
    TakeBack,
    EarlyClockPress,
    MisCapture,
    MissedCapture,
    PressBeforeCapturesRemoved,
    WrongClockPress,
    RepeatedWrongClockPress,
    MaliciousFoul,
    LeavingSeat,
    SubstitutionDelay,
    TimeoutDelay,
    /// A line-up handed in after its deadline (Art. 10.1) \[INF: advice or yellow\].
    LateLineup,
    Other,
}

impl CardOffence {
    pub const ALL: [CardOffence; 14] = [
        CardOffence::DoubleMove,
        CardOffence::TakeBack,
        CardOffence::EarlyClockPress,
        CardOffence::MisCapture,
        CardOffence::MissedCapture,
        CardOffence::PressBeforeCapturesRemoved,
        CardOffence::WrongClockPress,
        CardOffence::RepeatedWrongClockPress,
        CardOffence::MaliciousFoul,
        CardOffence::LeavingSeat,
        CardOffence::SubstitutionDelay,
        CardOffence::TimeoutDelay,
        CardOffence::LateLineup,
        CardOffence::Other,
    ];

    pub fn code(self) -> &'static str {
        match self {
            CardOffence::DoubleMove => "double_move",
            CardOffence::TakeBack => "take_back",
            CardOffence::EarlyClockPress => "early_clock_press",
            CardOffence::MisCapture => "mis_capture",
            CardOffence::MissedCapture => "missed_capture",
            CardOffence::PressBeforeCapturesRemoved => "press_before_captures_removed",
            CardOffence::WrongClockPress => "wrong_clock_press",
            CardOffence::RepeatedWrongClockPress => "repeated_wrong_clock_press",
            CardOffence::MaliciousFoul => "malicious_foul",
            CardOffence::LeavingSeat => "leaving_seat",
            CardOffence::SubstitutionDelay => "substitution_delay",
            CardOffence::TimeoutDelay => "timeout_delay",
            CardOffence::LateLineup => "late_lineup",
            CardOffence::Other => "other",
        }
    }

    pub fn from_code(s: &str) -> Option<CardOffence> {
        CardOffence::ALL.into_iter().find(|o| o.code() == s.trim())
    }

    /// The rules crate's offence, where the rules fix the card.
    fn rules_offence(self) -> Option<Offence> {
        Some(match self {
            CardOffence::DoubleMove => Offence::DoubleMove,
            CardOffence::TakeBack => Offence::TakeBack,
            CardOffence::EarlyClockPress => Offence::EarlyClockPress,
            CardOffence::MisCapture => Offence::MisCapture,
            CardOffence::MissedCapture => Offence::MissedCapture,
            CardOffence::PressBeforeCapturesRemoved => Offence::PressBeforeCapturesRemoved,
            CardOffence::WrongClockPress => Offence::WrongClockPress,
            CardOffence::RepeatedWrongClockPress => Offence::RepeatedWrongClockPress,
            CardOffence::MaliciousFoul => Offence::MaliciousFoul,
            CardOffence::LeavingSeat => Offence::LeavingSeat,
            CardOffence::SubstitutionDelay
            | CardOffence::TimeoutDelay
            | CardOffence::LateLineup
            | CardOffence::Other => return None,
        })
    }

    /// The cards the rules give for the offence under `rules` (the team relay rule set).
    pub fn cards(self, rules: &RuleSet) -> Vec<Card> {
        match self.rules_offence() {
            Some(o) => rulings_for(o, rules)
                .into_iter()
                .filter_map(|k| match k {
                    RulingKind::Advice => Some(Card::Advice),
                    RulingKind::YellowCard => Some(Card::Yellow),
                    RulingKind::RedCard => Some(Card::Red),
                    _ => None,
                })
                .collect(),
            None if self == CardOffence::Other => vec![Card::Advice, Card::Yellow, Card::Red],
            None => vec![Card::Advice, Card::Yellow],
        }
    }

    /// Whether the offence is a malicious foul on the team's record (恶意犯规: Arts. 22.5, 24.2;
    /// leaving the seat counts one, Art. 23.9).
    pub fn malicious_foul(self) -> bool {
        matches!(
            self,
            CardOffence::RepeatedWrongClockPress | CardOffence::MaliciousFoul | CardOffence::LeavingSeat
        )
    }
}

/// Why a red card was shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RedCause {
    /// A red card shown for the offence (Art. 24.3).
    Direct,
    /// A second yellow card to the same person in the match (Art. 24.2).
    SecondYellow,
    /// The player's third move-order error (Art. 17.7).
    ThirdOrderError,
}

impl RedCause {
    /// The cause of a red card given by a ruling of `kind`.
    pub fn of(kind: RulingKind) -> RedCause {
        match kind {
            RulingKind::YellowCard => RedCause::SecondYellow,
            RulingKind::OrderError => RedCause::ThirdOrderError,
            _ => RedCause::Direct,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cards of seed 003, as the rules crate gives them.
    #[test]
    fn each_offence_carries_the_card_of_its_article() {
        let r = RuleSet::chinese_team_relay();
        let yellow = vec![Card::Yellow];
        for o in [
            CardOffence::DoubleMove,
            CardOffence::TakeBack,
            CardOffence::MisCapture,
            CardOffence::MissedCapture,
            CardOffence::PressBeforeCapturesRemoved,
            CardOffence::RepeatedWrongClockPress,
            CardOffence::MaliciousFoul,
        ] {
            assert_eq!(o.cards(&r), yellow, "{o:?}");
        }
        assert_eq!(CardOffence::EarlyClockPress.cards(&r), vec![Card::Advice], "Art. 17.4");
        assert_eq!(CardOffence::WrongClockPress.cards(&r), vec![Card::Advice], "Art. 22.5");
        assert_eq!(CardOffence::LeavingSeat.cards(&r), vec![Card::Red], "Art. 23.9");
        assert_eq!(CardOffence::SubstitutionDelay.cards(&r), vec![Card::Advice, Card::Yellow], "Art. 10.5");
        assert_eq!(CardOffence::Other.cards(&r).len(), 3);
        assert!(CardOffence::LeavingSeat.malicious_foul() && !CardOffence::TakeBack.malicious_foul());
        for o in CardOffence::ALL {
            assert_eq!(CardOffence::from_code(o.code()), Some(o));
        }
        assert_eq!(RedCause::of(RulingKind::YellowCard), RedCause::SecondYellow);
        assert_eq!(RedCause::of(RulingKind::OrderError), RedCause::ThirdOrderError);
        assert_eq!(RedCause::of(RulingKind::RedCard), RedCause::Direct);
    }
}
