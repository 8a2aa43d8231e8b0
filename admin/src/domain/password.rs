//! The password rule: long enough, and hard to guess by zxcvbn's estimate (dictionaries of
//! common passwords, names and words, keyboard patterns, repeats, sequences, dates), with the
//! user's own name and display name counted as known words. The result is typed; the web and
//! the command line say it in the user's language (`i18n::account`).

pub use zxcvbn::feedback::{Suggestion, Warning};
use zxcvbn::Score;

/// At least this many characters.
pub const MIN_CHARS: usize = 10;
/// At most this many bytes (argon2 takes any length; a form field should not).
pub const MAX_BYTES: usize = 256;
/// zxcvbn's score 3: more than 10⁸ guesses. Behind argon2 and the login throttle that is out of
/// reach online and costly offline; score 2 includes `password12`-like choices.
const MIN_SCORE: Score = Score::Three;

/// Why a password is refused.
#[derive(Debug, Clone, PartialEq)]
pub enum Weakness {
    TooShort,
    TooLong,
    /// Guessable: zxcvbn's warning (what is wrong, when it knows) and suggestions.
    Guessable {
        warning: Option<Warning>,
        suggestions: Vec<Suggestion>,
    },
}

/// What is wrong with a new account's fields (the web's forms and `tengen user` check the same).
#[derive(Debug, Clone, PartialEq)]
pub enum AccountProblem {
    UsernameRequired,
    /// More than 32 characters, or other than letters, digits, `.`, `_` and `-`.
    UsernameChars,
    /// More than 60 characters, or control or invisible characters (`domain::text`).
    DisplayName,
    Password(Weakness),
}

impl AccountProblem {
    /// The form field the problem is shown beside.
    pub fn field(&self) -> &'static str {
        match self {
            AccountProblem::UsernameRequired | AccountProblem::UsernameChars => "username",
            AccountProblem::DisplayName => "display_name",
            AccountProblem::Password(_) => "password",
        }
    }
}

/// Check a new account's user name, display name and password.
pub fn check_account(username: &str, display_name: &str, password: &str) -> Vec<AccountProblem> {
    let mut problems = Vec::new();
    let u = username.trim();
    if u.is_empty() {
        problems.push(AccountProblem::UsernameRequired);
    } else if u.chars().count() > 32
        || !u.chars().all(|c| c.is_alphanumeric() || matches!(c, '.' | '_' | '-'))
    {
        problems.push(AccountProblem::UsernameChars);
    }
    if super::text::check(display_name, 60, super::text::Lines::One).is_some() {
        problems.push(AccountProblem::DisplayName);
    }
    if let Some(w) = check(password, username, display_name) {
        problems.push(AccountProblem::Password(w));
    }
    problems
}

/// Check a new password of the account `username` / `display_name`.
pub fn check(password: &str, username: &str, display_name: &str) -> Option<Weakness> {
    if password.chars().count() < MIN_CHARS {
        return Some(Weakness::TooShort);
    }
    if password.len() > MAX_BYTES {
        return Some(Weakness::TooLong);
    }
    let inputs: Vec<&str> =
        [username.trim(), display_name.trim()].into_iter().filter(|s| !s.is_empty()).collect();
    let e = zxcvbn::zxcvbn(password, &inputs);
    if e.score() >= MIN_SCORE {
        return None;
    }
    let (warning, suggestions) = match e.feedback() {
        Some(f) => (f.warning(), f.suggestions().to_vec()),
        None => (None, Vec::new()),
    };
    Some(Weakness::Guessable { warning, suggestions })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_passwords_of_the_issue_are_refused() {
        for weak in ["1234567890", "password12", "          ", "qwertyuiop", "aaaaaaaaaaaa", "iloveyou12"] {
            assert!(matches!(check(weak, "org", ""), Some(Weakness::Guessable { .. })), "{weak:?}");
        }
        assert_eq!(check("short", "org", ""), Some(Weakness::TooShort));
        assert_eq!(check(&"x".repeat(300), "org", ""), Some(Weakness::TooLong));
    }

    #[test]
    fn the_account_name_counts_as_known() {
        assert!(check("zhangwei2026", "zhangwei", "").is_some());
    }

    #[test]
    fn long_uncommon_passwords_pass() {
        for ok in
            ["organizer-secret-1", "correct horse battery staple", "天元围棋比赛2026年冬", "Tq7#vLp2!xWm"]
        {
            assert_eq!(check(ok, "org", ""), None, "{ok}");
        }
        // The browser test's arbiter (tests/browser.rs).
        assert_eq!(check("arbiter-secret-1", "arbiter", "Referee Li"), None);
        assert_eq!(check("arbiter-secret-1", "arbiter", "李裁判"), None);
    }
}
