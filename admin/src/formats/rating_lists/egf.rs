//! The EGF's rating list as the European Go Database publishes it for tournament programs
//! ("allworld_lp": one player a line, fixed-width columns). The columns, 0-based characters,
//! as OpenGotha's and pairgoth's readers take them: the EGD PIN at 1–8, "Family Given" at
//! 11–47, the country at 49–51, the club at 53–56, the grade at 60–62 and the GoR at 71–74.
//! A line whose characters 1–8 are digits is a player; other lines are the header, where the
//! list's date is found.

use super::{cols, find_date, number, split_family_first, LineProblem, ListError, ListRow, ParsedList};
use domain::entrant::Rank;

pub fn parse(text: &str) -> Result<ParsedList, ListError> {
    let mut rows = Vec::new();
    let mut date = None;
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        let chars: Vec<char> = line.trim_end().chars().collect();
        let pin = cols(&chars, 1, 9);
        if pin.is_empty() || !pin.chars().all(|c| c.is_ascii_digit()) {
            if rows.is_empty() && date.is_none() {
                date = find_date(line);
            }
            continue;
        }
        let bad = |problem| ListError::Line { line: line_no, problem };
        if chars.len() < 72 {
            return Err(bad(LineProblem::TooShort));
        }
        let (family, given) = split_family_first(&cols(&chars, 11, 48));
        if family.is_empty() {
            return Err(bad(LineProblem::NoName));
        }
        let grade = cols(&chars, 60, 63);
        if Rank::parse(&grade).is_err() {
            return Err(bad(LineProblem::BadRank { value: grade }));
        }
        let gor_text = cols(&chars, 71, 75);
        let gor = number(&gor_text).ok_or_else(|| bad(LineProblem::BadRating { value: gor_text }))?;
        rows.push(ListRow {
            line: line_no,
            key: pin,
            family,
            given,
            rank: grade,
            rating: Some(gor),
            club: cols(&chars, 53, 57),
            country: cols(&chars, 49, 52),
        });
    }
    Ok(ParsedList { rows, date })
}

/// A player's line of the list, its columns where the EGD writes them (for tests here and
/// elsewhere).
#[cfg(test)]
pub(crate) fn line(pin: &str, name: &str, country: &str, club: &str, grade: &str, gor: i32) -> String {
    format!(" {pin:<8}  {name:<37} {country:<3} {club:<4}   {grade:<3}{:8}{gor:>4}  T261201A", "")
}

#[cfg(test)]
mod tests {
    use super::super::{parse as parse_list, Source};
    use super::*;
    use chrono::NaiveDate;

    fn sample() -> String {
        [
            " (05.12.2026) European Go Database - rating list".to_string(),
            "  Pin_Player Name                           Co  Club   Gr          GoR  Tournament".to_string(),
            line("10000001", "Müller Hans Peter", "DE", "Berl", "3d", 2290),
            line("10000002", "Dupont Jean", "FR", "Pari", "15k", 640),
            line("10000003", "Novak Pavel", "CZ", "Brno", "2p", 2730),
            String::new(),
        ]
        .join("\n")
    }

    /// EGD "allworld" layout (as OpenGotha reads it): PIN, family and given name, country,
    /// club, grade and GoR from their columns, and the list's date from its header.
    #[test]
    fn reads_players_and_date() {
        let l = parse_list(Source::Egf, sample().as_bytes()).unwrap();
        assert_eq!(l.date, NaiveDate::from_ymd_opt(2026, 12, 5));
        assert_eq!(l.rows.len(), 3);
        let r = &l.rows[0];
        assert_eq!(
            (r.line, r.key.as_str(), r.family.as_str(), r.given.as_str()),
            (3, "10000001", "Müller", "Hans Peter")
        );
        assert_eq!(
            (r.country.as_str(), r.club.as_str(), r.rank.as_str(), r.rating),
            ("DE", "Berl", "3d", Some(2290))
        );
        assert_eq!((l.rows[1].rank.as_str(), l.rows[1].rating), ("15k", Some(640)));
        assert_eq!(l.rows[2].rank, "2p");
    }

    /// The EGF has published its list in ISO-8859-1: a name's accents survive.
    #[test]
    fn reads_latin1() {
        let text = sample();
        let (bytes, _, _) = encoding_rs::WINDOWS_1252.encode(&text);
        let l = parse_list(Source::Egf, &bytes).unwrap();
        assert_eq!(l.rows[0].family, "Müller");
    }

    /// A player's line that cannot be read refuses the list, naming the line.
    #[test]
    fn bad_lines_are_named() {
        let mut s = sample();
        s.push_str(&line("10000004", "Bad Grade", "NL", "Amst", "3x", 2000));
        let e = parse_list(Source::Egf, s.as_bytes()).unwrap_err();
        assert_eq!(e, ListError::Line { line: 6, problem: LineProblem::BadRank { value: "3x".into() } });
        let short = format!("{}\n 10000005  Short Line", sample());
        assert_eq!(
            parse_list(Source::Egf, short.as_bytes()).unwrap_err(),
            ListError::Line { line: 7, problem: LineProblem::TooShort }
        );
        let gor = sample().replace(" 2290  T", " 22x0  T");
        assert_eq!(
            parse_list(Source::Egf, gor.as_bytes()).unwrap_err(),
            ListError::Line { line: 3, problem: LineProblem::BadRating { value: "22x0".into() } }
        );
    }
}
