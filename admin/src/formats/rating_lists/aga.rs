//! The AGA's membership and rating list, the TDList: one member a line, "Family, Given", the
//! AGA number, the membership type, the rating (a decimal grade: 3.5, −12.3), the expiry, the
//! club and the state. TDListA is tab-separated (as OpenGotha reads it); TDListN aligns the
//! same columns with spaces, where the first whole number after the name is the AGA number.
//! The rating is kept in hundredths, truncated (the grade is its whole part).

use super::{LineProblem, ListError, ListRow, ParsedList};

pub fn parse(text: &str) -> Result<ParsedList, ListError> {
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        if line.trim().is_empty() {
            continue;
        }
        let cells: Vec<String> = if line.contains('\t') {
            line.split('\t').map(|c| c.trim().to_string()).collect()
        } else {
            match spaced(line) {
                Some(c) => c,
                // A title or header line: no member number.
                None => continue,
            }
        };
        let cell = |k: usize| cells.get(k).cloned().unwrap_or_default();
        let id = cell(1);
        if id.is_empty() || !id.chars().all(|c| c.is_ascii_digit()) {
            continue;
        }
        let bad = |problem| ListError::Line { line: line_no, problem };
        let name = cell(0);
        let (family, given) = match name.split_once(',') {
            Some((f, g)) => (f.trim().to_string(), g.trim().to_string()),
            None => super::split_family_first(&name),
        };
        if family.is_empty() {
            return Err(bad(LineProblem::NoName));
        }
        let rating_text = cell(3);
        let rating = if rating_text.is_empty() {
            None
        } else {
            Some(hundredths(&rating_text).ok_or_else(|| bad(LineProblem::BadRating { value: rating_text }))?)
        };
        rows.push(ListRow {
            line: line_no,
            key: id,
            family,
            given,
            rank: String::new(),
            rating,
            club: cell(5),
            country: if cell(2) == "Forgn" { String::new() } else { "US".into() },
        });
    }
    Ok(ParsedList { rows, date: None })
}

/// TDListN's space-aligned line as TDListA's cells: the name is what comes before the first
/// whole number (the AGA number); then membership, rating, expiry, the club's words, the state.
fn spaced(line: &str) -> Option<Vec<String>> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|w| w.chars().all(|c| c.is_ascii_digit()))?;
    let mut cells = vec![words[..at].join(" "), words[at].to_string()];
    let rest = &words[at + 1..];
    cells.extend(rest.iter().take(3).map(|w| w.to_string()));
    if rest.len() > 3 {
        let tail = &rest[3..];
        let (club, state) = tail.split_at(tail.len() - 1);
        cells.push(club.join(" "));
        cells.extend(state.iter().map(|w| w.to_string()));
    }
    Some(cells)
}

/// "3.5" → 350, "-12.34567" → −1234, "7" → 700: hundredths, truncated toward zero, exact.
fn hundredths(s: &str) -> Option<i32> {
    let (neg, s) = match s.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let (whole, frac) = s.split_once('.').unwrap_or((s, ""));
    if whole.is_empty() || !whole.chars().chain(frac.chars()).all(|c| c.is_ascii_digit()) {
        return None;
    }
    let frac2: String = frac.chars().chain("00".chars()).take(2).collect();
    let v = whole.parse::<i32>().ok()?.checked_mul(100)?.checked_add(frac2.parse::<i32>().ok()?)?;
    Some(if neg { -v } else { v })
}

#[cfg(test)]
mod tests {
    use super::super::{parse as parse_list, Source};
    use super::*;

    /// AGA TDList (tab-separated, as OpenGotha reads it): "Family, Given", AGA number,
    /// membership, rating as a decimal grade, expiry, club; foreign members have no country.
    #[test]
    fn reads_tab_separated() {
        let text = "Name\tAGAID\tMType\tRating\tExpires\tClub\tState\n\
                    Smith, John\t12345\tFull\t3.5\t12/31/2027\tNYGC\tNY\n\
                    Tanaka, Yuki\t23456\tForgn\t-12.34567\t06/30/2027\t\t\n";
        let l = parse_list(Source::Aga, text.as_bytes()).unwrap();
        assert_eq!(l.rows.len(), 2);
        let r = &l.rows[0];
        assert_eq!(
            (r.line, r.key.as_str(), r.family.as_str(), r.given.as_str()),
            (2, "12345", "Smith", "John")
        );
        assert_eq!((r.rating, r.club.as_str(), r.country.as_str()), (Some(350), "NYGC", "US"));
        assert_eq!((l.rows[1].rating, l.rows[1].country.as_str()), (Some(-1234), ""));
    }

    /// TDListN: the same columns aligned with spaces.
    #[test]
    fn reads_space_aligned() {
        let text = "Abe, Shin                        34567 Full    -5.5  12/31/2027 Seattle Go Center WA\n";
        let l = parse_list(Source::Aga, text.as_bytes()).unwrap();
        let r = &l.rows[0];
        assert_eq!(
            (r.key.as_str(), r.family.as_str(), r.given.as_str(), r.rating),
            ("34567", "Abe", "Shin", Some(-550))
        );
        assert_eq!(r.club, "Seattle Go Center");
    }

    /// A rating that is not a decimal number refuses the list, naming the line.
    #[test]
    fn bad_rating_is_named() {
        let text = "Smith, John\t12345\tFull\t3,5x\t12/31/2027\tNYGC\tNY\n";
        assert_eq!(
            parse_list(Source::Aga, text.as_bytes()).unwrap_err(),
            ListError::Line { line: 1, problem: LineProblem::BadRating { value: "3,5x".into() } }
        );
        assert_eq!(hundredths("7"), Some(700));
        assert_eq!(hundredths("-0.5"), Some(-50));
        assert_eq!(hundredths("."), None);
    }
}
