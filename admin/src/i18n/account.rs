//! Account problems in the reader's language: `domain::password::AccountProblem` and the
//! password's `Weakness` (zxcvbn's warning and suggestions, or the kinds of common pieces a
//! password is made of, each a catalog key). The web forms
//! and `tengen user` both word them here.

use super::tr;
use super::Lang;
use crate::domain::password::{self, AccountProblem, Common, Suggestion, Warning, Weakness};

impl Lang {
    /// One problem of a new account's fields (shown beside its field).
    pub fn account_problem(self, p: &AccountProblem) -> String {
        match p {
            AccountProblem::UsernameRequired => self.t("user.err_username_required").to_string(),
            AccountProblem::UsernameChars => self.t("user.err_username_chars").to_string(),
            AccountProblem::DisplayName => self.t("user.err_display_name").to_string(),
            AccountProblem::Password(w) => self.weakness(w),
        }
    }

    /// Why a password is refused.
    pub fn weakness(self, w: &Weakness) -> String {
        match w {
            Weakness::TooShort => tr!(self, "user.err_password_short", min = password::MIN_CHARS),
            Weakness::TooLong => self.t("user.err_password_long").to_string(),
            Weakness::Guessable { warning, suggestions } => {
                let mut parts = vec![self.t("pw.guessable").to_string()];
                parts.extend(warning.map(|w| self.t(warning_key(w)).to_string()));
                parts.extend(suggestions.iter().map(|s| self.t(suggestion_key(*s)).to_string()));
                parts.join(if self.is_zh() { "" } else { " " })
            }
            Weakness::Common(kinds) => {
                let named: Vec<&str> = kinds.iter().map(|k| self.t(common_key(*k))).collect();
                let made_of =
                    tr!(self, "pw.cn_made_of", parts = named.join(if self.is_zh() { "、" } else { ", " }));
                format!("{}{}{made_of}", self.t("pw.guessable"), if self.is_zh() { "" } else { " " })
            }
        }
    }
}

fn common_key(k: Common) -> &'static str {
    match k {
        Common::Surname => "pw.cn_surname",
        Common::GivenName => "pw.cn_given",
        Common::Phrase => "pw.cn_phrase",
        Common::NumberPhrase => "pw.cn_number",
        Common::YearOrDate => "pw.cn_date",
        Common::Digits => "pw.cn_digits",
        Common::Symbols => "pw.cn_symbols",
        Common::Event => "pw.cn_event",
        Common::OwnName => "pw.cn_own",
    }
}

fn warning_key(w: Warning) -> &'static str {
    match w {
        Warning::StraightRowsOfKeysAreEasyToGuess => "pw.w_rows",
        Warning::ShortKeyboardPatternsAreEasyToGuess => "pw.w_keyboard",
        Warning::RepeatsLikeAaaAreEasyToGuess => "pw.w_repeat",
        Warning::RepeatsLikeAbcAbcAreOnlySlightlyHarderToGuess => "pw.w_repeat_group",
        Warning::ThisIsATop10Password => "pw.w_top10",
        Warning::ThisIsATop100Password => "pw.w_top100",
        Warning::ThisIsACommonPassword => "pw.w_common",
        Warning::ThisIsSimilarToACommonlyUsedPassword => "pw.w_similar",
        Warning::SequencesLikeAbcAreEasyToGuess => "pw.w_sequence",
        Warning::RecentYearsAreEasyToGuess => "pw.w_years",
        Warning::AWordByItselfIsEasyToGuess => "pw.w_word",
        Warning::DatesAreOftenEasyToGuess => "pw.w_dates",
        Warning::NamesAndSurnamesByThemselvesAreEasyToGuess => "pw.w_names",
        Warning::CommonNamesAndSurnamesAreEasyToGuess => "pw.w_common_names",
    }
}

fn suggestion_key(s: Suggestion) -> &'static str {
    match s {
        Suggestion::UseAFewWordsAvoidCommonPhrases => "pw.s_words",
        Suggestion::NoNeedForSymbolsDigitsOrUppercaseLetters => "pw.s_no_symbols",
        Suggestion::AddAnotherWordOrTwo => "pw.s_another_word",
        Suggestion::CapitalizationDoesntHelpVeryMuch => "pw.s_capitals",
        Suggestion::AllUppercaseIsAlmostAsEasyToGuessAsAllLowercase => "pw.s_uppercase",
        Suggestion::ReversedWordsArentMuchHarderToGuess => "pw.s_reversed",
        Suggestion::PredictableSubstitutionsDontHelpVeryMuch => "pw.s_substitutions",
        Suggestion::UseALongerKeyboardPatternWithMoreTurns => "pw.s_keyboard",
        Suggestion::AvoidRepeatedWordsAndCharacters => "pw.s_repeats",
        Suggestion::AvoidSequences => "pw.s_sequences",
        Suggestion::AvoidRecentYears => "pw.s_recent_years",
        Suggestion::AvoidYearsThatAreAssociatedWithYou => "pw.s_your_years",
        Suggestion::AvoidDatesAndYearsThatAreAssociatedWithYou => "pw.s_your_dates",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_account_problem_has_words_in_both_languages() {
        let weak = Weakness::Guessable {
            warning: Some(Warning::ThisIsATop10Password),
            suggestions: vec![Suggestion::AddAnotherWordOrTwo],
        };
        for lang in [Lang::Zh, Lang::En] {
            for p in [
                AccountProblem::UsernameRequired,
                AccountProblem::UsernameChars,
                AccountProblem::DisplayName,
                AccountProblem::Password(Weakness::TooShort),
                AccountProblem::Password(Weakness::TooLong),
                AccountProblem::Password(weak.clone()),
                AccountProblem::Password(Weakness::Common(vec![
                    Common::Surname,
                    Common::GivenName,
                    Common::Phrase,
                    Common::NumberPhrase,
                    Common::YearOrDate,
                    Common::Digits,
                    Common::Symbols,
                    Common::Event,
                    Common::OwnName,
                ])),
            ] {
                let t = lang.account_problem(&p);
                assert!(
                    !t.is_empty() && !t.contains('{') && !t.contains("user.") && !t.contains("pw."),
                    "{t}"
                );
            }
        }
        assert!(Lang::Zh.account_problem(&AccountProblem::Password(Weakness::TooShort)).contains("10"));
    }
}
