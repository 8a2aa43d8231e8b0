//! The password rule: long enough, not made of what Chinese users choose ([`chinese`]: pinyin
//! names, romanized phrases, numbers chosen for their sound, Tengen's and the office's event
//! names, one's own name, with years and dates), and hard to guess by zxcvbn's estimate
//! (dictionaries of common passwords, names and words, keyboard patterns, repeats, sequences,
//! dates), the user's names and the events' counted as known words there too. The result is
//! typed; the web and the command line say it in the user's language (`i18n::account`).

mod chinese;

pub use chinese::Common;
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
    /// Made only of what guessers of Chinese users' passwords try first: the kinds of its
    /// pieces, in order.
    Common(Vec<Common>),
}

/// What a password is checked against beside the general dictionaries: the account's names
/// and the names of the office's events (Chinese or Latin, as they were typed).
#[derive(Debug, Clone, Copy, Default)]
pub struct Known<'a> {
    pub username: &'a str,
    pub display_name: &'a str,
    pub events: &'a [String],
}

impl Known<'_> {
    /// The account's own names as a guesser types them: the user name and its parts, the
    /// display name and its words, and a Chinese name's pinyin (whole, and every run of two
    /// syllables or more, so the given name alone too).
    fn own_words(&self) -> Vec<String> {
        let mut out = Vec::new();
        let u = self.username.trim().to_lowercase();
        out.extend(u.split(['.', '_', '-']).filter(|p| p.chars().count() >= 2).map(str::to_string));
        out.push(u);
        out.extend(name_words(self.display_name));
        out.retain(|w| !w.is_empty());
        out
    }

    /// The events' names as words: each name whole (without spaces), its Latin words, and a
    /// Chinese name's pinyin as for [`Known::own_words`].
    fn event_words(&self) -> Vec<String> {
        self.events.iter().flat_map(|e| name_words(e)).collect()
    }
}

/// A name typed as one text, as the words a guesser makes of it: whole and without spaces, its
/// words of three letters or more, and the pinyin of its Chinese characters (every run of two
/// syllables or more, and whole).
fn name_words(name: &str) -> Vec<String> {
    let name = name.trim().to_lowercase();
    let mut out = vec![name.split_whitespace().collect::<String>()];
    out.extend(
        name.split(|c: char| !c.is_alphanumeric()).filter(|w| w.chars().count() >= 3).map(str::to_string),
    );
    if !name.is_ascii() {
        let syllables = super::names::plain_readings(&name);
        for i in 0..syllables.len() {
            for j in i + 2..=syllables.len() {
                out.push(syllables[i..j].concat());
            }
        }
    }
    out.retain(|w| !w.is_empty());
    out
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

/// Check a new account's user name, display name and password (`events`: the office's events'
/// names, words a password must not be made of).
pub fn check_account(
    username: &str,
    display_name: &str,
    password: &str,
    events: &[String],
) -> Vec<AccountProblem> {
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
    if let Some(w) = check(password, &Known { username, display_name, events }) {
        problems.push(AccountProblem::Password(w));
    }
    problems
}

/// Check a new password of an account: its length, the estimate over Chinese users' choices,
/// then zxcvbn's (the account's and the events' words among its dictionaries).
pub fn check(password: &str, known: &Known<'_>) -> Option<Weakness> {
    if password.chars().count() < MIN_CHARS {
        return Some(Weakness::TooShort);
    }
    if password.len() > MAX_BYTES {
        return Some(Weakness::TooLong);
    }
    let (own, events) = (known.own_words(), known.event_words());
    // Named by the words a Chinese user chose when it is made of them; digits, dates and
    // symbols alone are zxcvbn's to name.
    if let Some((kinds, guesses)) = chinese::estimate(password, &own, &events) {
        if guesses < chinese::MIN_GUESSES && kinds.iter().any(|k| k.is_word()) {
            return Some(Weakness::Common(kinds));
        }
    }
    let inputs: Vec<&str> = own.iter().chain(&events).map(String::as_str).collect();
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

    fn named<'a>(username: &'a str, display_name: &'a str) -> Known<'a> {
        Known { username, display_name, events: &[] }
    }

    #[test]
    fn the_passwords_of_the_issue_are_refused() {
        let org = named("org", "");
        for weak in ["1234567890", "password12", "          ", "qwertyuiop", "aaaaaaaaaaaa", "iloveyou12"] {
            assert!(matches!(check(weak, &org), Some(Weakness::Guessable { .. })), "{weak:?}");
        }
        assert_eq!(check("short", &org), Some(Weakness::TooShort));
        assert_eq!(check(&"x".repeat(300), &org), Some(Weakness::TooLong));
    }

    #[test]
    fn the_account_name_counts_as_known() {
        assert!(check("zhangwei2026", &named("zhangwei", "")).is_some());
    }

    /// Office rule (passwords): what Chinese users choose first is refused, each with the
    /// kinds of its pieces: pinyin names with a year or a date, romanized phrases with numbers
    /// chosen for their sound, Tengen's names, the events' names, the account's own name.
    #[test]
    fn usual_chinese_passwords_are_refused_with_their_kinds() {
        let org = named("org", "");
        let kinds = |pw: &str, k: &Known<'_>| match check(pw, k) {
            Some(Weakness::Common(kinds)) => kinds,
            other => panic!("{pw}: {other:?}"),
        };
        use Common::*;
        assert_eq!(kinds("woaini1314520", &org), [Phrase, NumberPhrase]);
        assert_eq!(kinds("zhangwei1990", &org), [Surname, GivenName, YearOrDate]);
        assert_eq!(kinds("tianyuan2026", &org), [Event, YearOrDate]);
        assert_eq!(kinds("Tengen2026!", &org), [Event, YearOrDate, Symbols]);
        assert_eq!(kinds("wangfang520520", &org), [Surname, GivenName, NumberPhrase]);
        assert!(kinds("liuyang19880512", &org).contains(&YearOrDate));
        assert!(kinds("ouyangnana2001", &org).contains(&Surname));
        assert!(kinds("zhang wei 1990", &org).contains(&Symbols));
        assert!(kinds("Woaini5201314", &org).contains(&NumberPhrase));
        // 18 of 20 pinyin-name-plus-year passwords passed before: all 20 are refused now.
        for name in [
            "zhangwei",
            "wangwei",
            "wangfang",
            "liwei",
            "lina",
            "zhangmin",
            "lijing",
            "wangjing",
            "liuwei",
            "wangxiuying",
            "zhangli",
            "lixiuying",
            "wangli",
            "zhangjing",
            "zhangxiuying",
            "liqiang",
            "wangmin",
            "limin",
            "wanglei",
            "liuyang",
        ] {
            for year in ["1985", "1990", "2001", "2026"] {
                assert!(check(&format!("{name}{year}"), &org).is_some(), "{name}{year}");
            }
        }
        // The account's own name and the office's events.
        assert_eq!(kinds("ouyangxiuyuan2001", &named("xiuyuan", "欧阳修远")), [OwnName, YearOrDate]);
        assert_eq!(kinds("xiuyuan19900101", &named("oy", "欧阳修远")), [OwnName, YearOrDate]);
        let events = ["春兰杯围棋赛".to_string(), "Chunlan Cup".to_string()];
        let k = Known { username: "org", display_name: "", events: &events };
        assert_eq!(kinds("chunlancup2026", &k), [Event, YearOrDate]);
        assert_eq!(kinds("chunlanbei2026", &k), [Event, YearOrDate]);
    }

    #[test]
    fn long_uncommon_passwords_pass() {
        let org = named("org", "");
        for ok in [
            "organizer-secret-1",
            "correct horse battery staple",
            "天元围棋比赛2026年冬",
            "Tq7#vLp2!xWm",
            "plum blossom tea house",
            "lanzhou noodles at dawn",
            "xiaohuanglongfeixiangtiankong",
            "zhangwei83920174615",
        ] {
            assert_eq!(check(ok, &org), None, "{ok}");
        }
        // The browser test's arbiter (tests/browser.rs).
        assert_eq!(check("arbiter-secret-1", &named("arbiter", "Referee Li")), None);
        assert_eq!(check("arbiter-secret-1", &named("arbiter", "李裁判")), None);
    }
}
