//! The FFG's rating list, the échelle ("ech_ffg_V3.txt": one player a line, fixed-width
//! columns). The columns, 0-based characters, as OpenGotha reads them: "FAMILY Given" at 0–37,
//! the FFG rating at 38–42, the licence's status at 44, the licence at 46–52, the club at
//! 54–57 and the country at 59–60. A line starting with a letter is a player, except the title
//! "Echelle au {date}", which dates the list.

use super::{cols, find_date, number, split_family_first, LineProblem, ListError, ListRow, ParsedList};

pub fn parse(text: &str) -> Result<ParsedList, ListError> {
    let mut rows = Vec::new();
    let mut date = None;
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        if line.contains("Echelle") || line.contains("échelle") {
            date = date.or_else(|| find_date(line));
            continue;
        }
        if !line.chars().next().is_some_and(char::is_alphabetic) {
            continue;
        }
        let chars: Vec<char> = line.trim_end().chars().collect();
        let bad = |problem| ListError::Line { line: line_no, problem };
        if chars.len() < 47 {
            return Err(bad(LineProblem::TooShort));
        }
        let rating_text = cols(&chars, 38, 43);
        let rating =
            number(&rating_text).ok_or_else(|| bad(LineProblem::BadRating { value: rating_text }))?;
        let (family, given) = split_family_first(&cols(&chars, 0, 38));
        rows.push(ListRow {
            line: line_no,
            key: cols(&chars, 46, 53),
            family,
            given,
            rank: String::new(),
            rating: Some(rating),
            club: cols(&chars, 54, 58),
            country: cols(&chars, 59, 61),
        });
    }
    Ok(ParsedList { rows, date })
}

#[cfg(test)]
mod tests {
    use super::super::{parse as parse_list, Source};
    use super::*;
    use chrono::NaiveDate;

    fn line(name: &str, rating: i32, licence: &str, club: &str, country: &str) -> String {
        format!("{name:<38}{rating:>5} L {licence:<7} {club:<4} {country:<2}")
    }

    /// FFG échelle layout (as OpenGotha reads it): name, FFG rating, licence, club, country,
    /// and the date of "Echelle au …".
    #[test]
    fn reads_players_and_date() {
        let text = [
            "Echelle au 01/12/2026".to_string(),
            line("DUPONT Jean", 250, "1234567", "75Pa", "FR"),
            line("MARTIN Anne-Sophie", -1450, "7654321", "69Ly", "FR"),
        ]
        .join("\r\n");
        let l = parse_list(Source::Ffg, text.as_bytes()).unwrap();
        assert_eq!(l.date, NaiveDate::from_ymd_opt(2026, 12, 1));
        let r = &l.rows[1];
        assert_eq!((r.line, r.family.as_str(), r.given.as_str()), (3, "MARTIN", "Anne-Sophie"));
        assert_eq!(
            (r.key.as_str(), r.rating, r.club.as_str(), r.country.as_str()),
            ("7654321", Some(-1450), "69Ly", "FR")
        );
        assert_eq!(l.rows[0].rank, "");
    }

    /// A player's line whose rating is not a number refuses the list, naming the line.
    #[test]
    fn bad_rating_is_named() {
        let text = format!(
            "Echelle au 01/12/2026\n{}\n{}",
            line("A B", 0, "1", "x", "FR"),
            line("C D", 0, "2", "y", "FR").replace("    0 L", "   zz L")
        );
        assert_eq!(
            parse_list(Source::Ffg, text.as_bytes()).unwrap_err(),
            ListError::Line { line: 3, problem: LineProblem::BadRating { value: "zz".into() } }
        );
        assert_eq!(
            parse_list(Source::Ffg, b"DUPONT Jean  250").unwrap_err(),
            ListError::Line { line: 1, problem: LineProblem::TooShort }
        );
    }
}
