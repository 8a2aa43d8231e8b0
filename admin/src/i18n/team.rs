//! `domain::team`'s problems in the reader's language: a team list that cannot play
//! (`RosterError`) and a clock reading that does not fit the event's control
//! (`ClockInputError`). The domain returns the values; the words are the catalog's
//! (`roster_err.*`, `clock_input.*`).

use super::tr;
use super::Lang;
use crate::domain::team::clocks::ClockInputError;
use crate::domain::team::roster::RosterError;
use rules::clock::hms;

impl Lang {
    /// What is wrong with a team list (a person is named by number: the list is being made).
    pub fn roster_error(self, e: &RosterError) -> String {
        match e {
            RosterError::DuplicatePerson(p) => tr!(self, "roster_err.duplicate_person", person = p),
            RosterError::DuplicatePosition(n) => tr!(self, "roster_err.duplicate_position", position = n),
            RosterError::ZeroPosition(p) => tr!(self, "roster_err.zero_position", person = p),
            RosterError::EmptyName(p) => tr!(self, "roster_err.empty_name", person = p),
            RosterError::CaptainNotAPlayer(p) => tr!(self, "roster_err.captain_not_player", person = p),
            RosterError::TooFewPlayers { have, need } => tr!(self, "roster_err.too_few", need, have),
        }
    }

    /// Why a typed clock reading does not fit the event's time control.
    pub fn clock_input_error(self, e: &ClockInputError) -> String {
        match e {
            ClockInputError::MainTooLong { max_secs } => {
                tr!(self, "clock_input.main_too_long", max = hms(*max_secs))
            }
            ClockInputError::TooManyPeriods { max } => tr!(self, "clock_input.too_many_periods", max),
            ClockInputError::PeriodsNotExpected => self.t("clock_input.periods_not_expected").into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn team_problems_read_in_both_languages() {
        let roster = [
            RosterError::DuplicatePerson(101),
            RosterError::DuplicatePosition(2),
            RosterError::ZeroPosition(111),
            RosterError::EmptyName(7),
            RosterError::CaptainNotAPlayer(9),
            RosterError::TooFewPlayers { have: 5, need: 6 },
        ];
        let clock = [
            ClockInputError::MainTooLong { max_secs: 3600 },
            ClockInputError::TooManyPeriods { max: 5 },
            ClockInputError::PeriodsNotExpected,
        ];
        let cjk = |c: char| ('\u{4e00}'..='\u{9fff}').contains(&c);
        for l in [Lang::Zh, Lang::En] {
            let texts =
                roster.iter().map(|e| l.roster_error(e)).chain(clock.iter().map(|e| l.clock_input_error(e)));
            for t in texts {
                assert!(!t.is_empty() && !t.contains('{'), "{t}");
                assert_eq!(t.chars().any(cjk), l == Lang::Zh, "{t}");
            }
        }
        let few = RosterError::TooFewPlayers { have: 5, need: 6 };
        assert!(Lang::En.roster_error(&few).contains("at least 6"));
        assert!(Lang::Zh.roster_error(&few).contains("至少需要6名"));
        assert!(Lang::Zh.clock_input_error(&clock[0]).contains("1:00:00"));
    }
}
