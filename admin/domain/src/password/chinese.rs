//! What Chinese users choose that zxcvbn's English dictionaries do not know: pinyin family and
//! given names, romanized phrases (woaini, wangwang), numbers chosen for their sound (520,
//! 1314, 8888), years and dates, Tengen's own names and the office's events, and the user's
//! own name. A password made only of such pieces is estimated as zxcvbn estimates one made of
//! dictionary words: the cheapest split into pieces, each costing its rank in its list (or the
//! guesses its digits take), multiplied, times the number of orders of the pieces (l!), times
//! the ways of capitalising. Below [`MIN_GUESSES`] it is refused, naming the kinds of pieces
//! (when one of them is a word: digits and symbols alone are zxcvbn's to judge).
//! The lists are data files (`words/`, their origin in README.md).

use std::collections::HashMap;

/// The guesses a password must be worth: zxcvbn's score 3 (`password::MIN_SCORE`) starts here.
pub const MIN_GUESSES: f64 = 1e8;

/// A kind of piece a guesser tries first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Common {
    Surname,
    GivenName,
    Phrase,
    NumberPhrase,
    YearOrDate,
    Digits,
    Symbols,
    /// Tengen's own names, the words of a Go event, the office's events' names.
    Event,
    /// The account's own name, user name or display name (and its pinyin).
    OwnName,
}

impl Common {
    /// A word of a list or a name (not digits, a date or symbols).
    pub fn is_word(self) -> bool {
        !matches!(self, Common::YearOrDate | Common::Digits | Common::Symbols)
    }
}

const SURNAMES: &str = include_str!("words/surnames.txt");
const GIVEN: &str = include_str!("words/given.txt");
const PHRASES: &str = include_str!("words/phrases.txt");
const NUMBERS: &str = include_str!("words/numbers.txt");
const TENGEN: &str = include_str!("words/tengen.txt");

/// The words of a list file, in order (the first word of each line that is not a comment).
fn words(list: &str) -> impl Iterator<Item = String> + '_ {
    list.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_lowercase)
}

/// Every known word with its kind and rank (its first guess is 1); the cheapest entry wins
/// where two lists hold a word.
struct Dictionary {
    words: HashMap<Vec<char>, (Common, f64)>,
    longest: usize,
}

impl Dictionary {
    fn new() -> Dictionary {
        Dictionary { words: HashMap::new(), longest: 0 }
    }

    fn add(&mut self, word: &str, kind: Common, rank: usize) {
        let chars: Vec<char> = word.to_lowercase().chars().collect();
        if chars.is_empty() {
            return;
        }
        let rank = rank.max(1) as f64;
        self.longest = self.longest.max(chars.len());
        let e = self.words.entry(chars).or_insert((kind, rank));
        if rank < e.1 {
            *e = (kind, rank);
        }
    }

    fn add_list(&mut self, list: &str, kind: Common) {
        for (i, w) in words(list).enumerate() {
            self.add(&w, kind, i + 1);
        }
    }
}

/// The pieces of a password that are the cheapest to guess and cover it whole, if it has such
/// a split: their kinds in order, and the estimated guesses.
pub fn estimate(password: &str, own: &[String], events: &[String]) -> Option<(Vec<Common>, f64)> {
    let mut dict = Dictionary::new();
    dict.add_list(SURNAMES, Common::Surname);
    dict.add_list(GIVEN, Common::GivenName);
    dict.add_list(PHRASES, Common::Phrase);
    dict.add_list(TENGEN, Common::Event);
    for (i, w) in events.iter().enumerate() {
        dict.add(w, Common::Event, i + 1);
    }
    for w in own {
        dict.add(w, Common::OwnName, 1);
    }
    let numbers: HashMap<String, usize> = words(NUMBERS).enumerate().map(|(i, w)| (w, i + 1)).collect();
    let chars: Vec<char> = password.to_lowercase().chars().collect();
    let n = chars.len();
    if n == 0 {
        return None;
    }
    // best[i][k]: the cheapest (log10 of the product of the guesses, kinds) covering the first
    // i characters with k pieces.
    type Cell = Option<(f64, Vec<Common>)>;
    let mut best: Vec<Vec<Cell>> = vec![vec![None; n + 1]; n + 1];
    best[0][0] = Some((0.0, Vec::new()));
    for i in 0..n {
        for k in 0..n {
            let Some((cost, kinds)) = best[i][k].clone() else { continue };
            let mut step = |j: usize, kind: Common, guesses: f64| {
                let c = cost + guesses.max(1.0).log10();
                if best[j][k + 1].as_ref().is_none_or(|(b, _)| c < *b) {
                    let mut ks = kinds.clone();
                    ks.push(kind);
                    best[j][k + 1] = Some((c, ks));
                }
            };
            for len in 1..=dict.longest.min(n - i) {
                if let Some(&(kind, rank)) = dict.words.get(&chars[i..i + len]) {
                    step(i + len, kind, rank);
                }
            }
            let digits = chars[i..].iter().take_while(|c| c.is_ascii_digit()).count();
            for len in 1..=digits {
                let d: String = chars[i..i + len].iter().collect();
                let (kind, guesses) = digit_guesses(&d, &numbers);
                step(i + len, kind, guesses);
            }
            if !chars[i].is_alphanumeric() {
                step(i + 1, Common::Symbols, 33.0);
            }
        }
    }
    let log_caps = capitalisations(password).log10();
    (1..=n)
        .filter_map(|k| best[n][k].as_ref().map(|(c, kinds)| (c + log_factorial(k) + log_caps, kinds)))
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(log, kinds)| {
            let mut seen = Vec::new();
            for k in kinds {
                if !seen.contains(k) {
                    seen.push(*k);
                }
            }
            (seen, 10f64.powf(log))
        })
}

fn log_factorial(k: usize) -> f64 {
    (2..=k).map(|i| (i as f64).log10()).sum()
}

/// The guesses of a run of digits: a number chosen for its sound, a year or a date, a run of
/// one digit or a counting sequence, else every number of its length.
fn digit_guesses(d: &str, numbers: &HashMap<String, usize>) -> (Common, f64) {
    if let Some(rank) = numbers.get(d) {
        return (Common::NumberPhrase, *rank as f64);
    }
    let b = d.as_bytes();
    let num = |r: std::ops::Range<usize>| d[r].parse::<u32>().unwrap_or(0);
    let year = |y: u32| (1900..=2099).contains(&y);
    let day = |m: u32, dd: u32| (1..=12).contains(&m) && (1..=31).contains(&dd);
    let date = match b.len() {
        4 if year(num(0..4)) => Some(200.0),
        4 if day(num(0..2), num(2..4)) || day(num(2..4), num(0..2)) => Some(366.0),
        6 if day(num(2..4), num(4..6)) || day(num(0..2), num(2..4)) || day(num(2..4), num(0..2)) => {
            Some(100.0 * 366.0)
        }
        8 if (year(num(0..4)) && day(num(4..6), num(6..8)))
            || (year(num(4..8)) && (day(num(0..2), num(2..4)) || day(num(2..4), num(0..2)))) =>
        {
            Some(200.0 * 366.0)
        }
        _ => None,
    };
    if let Some(g) = date {
        return (Common::YearOrDate, g);
    }
    let same = b.iter().all(|c| *c == b[0]);
    let step = |s: i16| b.windows(2).all(|w| i16::from(w[1]) - i16::from(w[0]) == s);
    if b.len() >= 3 && (same || step(1) || step(-1)) {
        return (Common::Digits, 20.0 * b.len() as f64);
    }
    (Common::Digits, 10f64.powi(b.len() as i32))
}

/// The ways of writing the password's letters in upper and lower case that a guesser tries
/// before this one (zxcvbn's count): 1 for all lower case, 2 for a capital first letter or all
/// capitals, else the choices of where the fewer kind of letter goes.
fn capitalisations(password: &str) -> f64 {
    let letters: Vec<char> = password.chars().filter(|c| c.is_alphabetic()).collect();
    let upper = letters.iter().filter(|c| c.is_uppercase()).count();
    let lower = letters.iter().filter(|c| c.is_lowercase()).count();
    if upper == 0 {
        return 1.0;
    }
    let first_only = upper == 1 && letters.first().is_some_and(|c| c.is_uppercase());
    if first_only || lower == 0 {
        return 2.0;
    }
    let n = upper + lower;
    let choose = |k: usize| (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64);
    (1..=upper.min(lower)).map(choose).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_list_reads_and_holds_what_it_should() {
        let all = |list: &str| words(list).collect::<Vec<_>>();
        assert_eq!(all(SURNAMES)[..4], ["wang", "li", "zhang", "liu"]);
        assert!(all(SURNAMES).contains(&"ouyang".to_string()));
        assert!(all(GIVEN).contains(&"wei".to_string()));
        assert!(all(PHRASES).contains(&"wangwang".to_string()));
        for n in ["520", "1314", "5201314", "8888", "666"] {
            assert!(all(NUMBERS).contains(&n.to_string()), "{n}");
        }
        assert_eq!(all(TENGEN)[..2], ["tengen", "tianyuan"]);
        for list in [SURNAMES, GIVEN, PHRASES, NUMBERS, TENGEN] {
            let w = all(list);
            assert!(w.iter().all(|w| w == &w.trim().to_lowercase() && !w.is_empty()), "{w:?}");
        }
    }

    #[test]
    fn digits_are_read_as_what_they_are_chosen_for() {
        let n: HashMap<String, usize> = words(NUMBERS).enumerate().map(|(i, w)| (w, i + 1)).collect();
        assert_eq!(digit_guesses("520", &n), (Common::NumberPhrase, 1.0));
        assert_eq!(digit_guesses("1990", &n).0, Common::YearOrDate);
        assert_eq!(digit_guesses("19880512", &n).0, Common::YearOrDate);
        assert_eq!(digit_guesses("0512", &n).0, Common::YearOrDate);
        assert_eq!(digit_guesses("999999", &n).0, Common::Digits);
        assert_eq!(digit_guesses("83920174", &n), (Common::Digits, 1e8));
        assert_eq!(capitalisations("tengen"), 1.0);
        assert_eq!(capitalisations("Tengen2026!"), 2.0);
        assert_eq!(capitalisations("TENGEN"), 2.0);
        assert_eq!(capitalisations("TenGen"), 6.0 + 15.0);
    }
}
