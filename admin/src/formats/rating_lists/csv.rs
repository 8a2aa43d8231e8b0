//! Any association's list as CSV (comma, semicolon or tab), its first line a header naming
//! the columns in English or Chinese: the id (id, PIN, licence, member; 编号, 会员号), the
//! name (one column, or family and given: name; 姓名, or family/surname and given/first; 姓,
//! 名), the rank or the rating (rank, grade; 段位, 级位 — rating, GoR; 等级分), the club (club,
//! unit; 单位, 俱乐部) and the country (country, region; 国家, 地区). A whole name in Chinese
//! characters is split as the entrant form splits it; a Latin one is "Family Given". The
//! rating is on Tengen's scale (the GoR's), a whole number.

use super::{LineProblem, ListError, ListRow, Needed, ParsedList};
use crate::formats::entrants_csv::{decode_text, detect_delimiter};
use domain::entrant::{is_cjk, split_chinese_name, Rank};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Col {
    Id,
    Name,
    Family,
    Given,
    Rank,
    Rating,
    Club,
    Country,
}

/// The header cells each column is known by (compared without case or spaces).
const HEADERS: &[(Col, &[&str])] = &[
    (Col::Id, &["id", "pin", "egdpin", "licence", "license", "member", "memberid", "编号", "会员号", "证号"]),
    (Col::Name, &["name", "player", "姓名", "棋手"]),
    (Col::Family, &["family", "familyname", "surname", "lastname", "姓"]),
    (Col::Given, &["given", "givenname", "firstname", "名"]),
    (Col::Rank, &["rank", "grade", "段位", "级位", "段级位"]),
    (Col::Rating, &["rating", "gor", "elo", "等级分"]),
    (Col::Club, &["club", "unit", "单位", "俱乐部"]),
    (Col::Country, &["country", "region", "国家", "地区"]),
];

fn column_of(header: &str) -> Option<Col> {
    let h: String =
        header.chars().filter(|c| !c.is_whitespace() && *c != '_').flat_map(char::to_lowercase).collect();
    HEADERS.iter().find(|(_, names)| names.contains(&h.as_str())).map(|(c, _)| *c)
}

pub fn parse(bytes: &[u8]) -> Result<ParsedList, ListError> {
    let (text, _) = decode_text(bytes).map_err(|_| ListError::NotText)?;
    let mut reader = ::csv::ReaderBuilder::new()
        .delimiter(detect_delimiter(&text))
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    let mut records = reader.records();
    let header = loop {
        match records.next() {
            Some(Ok(r)) if r.iter().all(|c| c.trim().is_empty()) => continue,
            Some(Ok(r)) => break r,
            Some(Err(e)) => return Err(csv_line(&e)),
            None => return Err(ListError::NoRows),
        }
    };
    let at: Vec<Option<Col>> = header.iter().map(column_of).collect();
    let find = |c: Col| at.iter().position(|x| *x == Some(c));
    let mut missing = Vec::new();
    if find(Col::Name).is_none() && (find(Col::Family).is_none() || find(Col::Given).is_none()) {
        missing.push(Needed::Name);
    }
    if find(Col::Rank).is_none() && find(Col::Rating).is_none() {
        missing.push(Needed::RankOrRating);
    }
    if !missing.is_empty() {
        return Err(ListError::MissingColumns(missing));
    }
    let mut rows = Vec::new();
    for rec in records {
        let rec = rec.map_err(|e| csv_line(&e))?;
        let line = rec.position().map_or(0, |p| p.line() as usize);
        if rec.iter().all(|c| c.trim().is_empty()) {
            continue;
        }
        let cell = |c: Col| find(c).and_then(|k| rec.get(k)).unwrap_or("").trim().to_string();
        let bad = |problem| ListError::Line { line, problem };
        let (family, given) = match find(Col::Name) {
            Some(_) if cell(Col::Family).is_empty() => {
                let whole = cell(Col::Name);
                if whole.chars().any(is_cjk) {
                    split_chinese_name(&whole)
                } else {
                    super::split_family_first(&whole)
                }
            }
            _ => (cell(Col::Family), cell(Col::Given)),
        };
        if family.is_empty() && given.is_empty() {
            return Err(bad(LineProblem::NoName));
        }
        let rank = cell(Col::Rank);
        if !rank.is_empty() && Rank::parse(&rank).is_err() {
            return Err(bad(LineProblem::BadRank { value: rank }));
        }
        let rating_text = cell(Col::Rating);
        let rating = match domain::entrant::parse_rating(&rating_text) {
            Ok(r) => r,
            Err(_) => return Err(bad(LineProblem::BadRating { value: rating_text })),
        };
        rows.push(ListRow {
            line,
            key: cell(Col::Id),
            family,
            given,
            rank,
            rating,
            club: cell(Col::Club),
            country: cell(Col::Country),
        });
    }
    Ok(ParsedList { rows, date: None })
}

/// A CSV reader's error as a problem of its line.
fn csv_line(e: &::csv::Error) -> ListError {
    let line = e.position().map_or(0, |p| p.line() as usize);
    ListError::Line { line, problem: LineProblem::TooShort }
}

#[cfg(test)]
mod tests {
    use super::super::{parse as parse_list, Source};
    use super::*;

    /// A Chinese association's list: Chinese headers, whole Chinese names split as the entrant
    /// form splits them, a rank or a rating.
    #[test]
    fn chinese_headers_and_names() {
        let text = "编号,姓名,段位,等级分,单位\nC001,欧阳修,3段,,北京棋院\nC002,李四,,2150,上海棋院\n";
        let l = parse_list(Source::Csv, text.as_bytes()).unwrap();
        let r = &l.rows[0];
        assert_eq!((r.line, r.key.as_str(), r.family.as_str(), r.given.as_str()), (2, "C001", "欧阳", "修"));
        assert_eq!((r.rank.as_str(), r.rating, r.club.as_str()), ("3段", None, "北京棋院"));
        assert_eq!((l.rows[1].rank.as_str(), l.rows[1].rating), ("", Some(2150)));
    }

    /// English headers with family and given names, semicolons.
    #[test]
    fn english_headers() {
        let text = "ID;Family name;Given name;Rank;Club;Country\nX1;Müller;Hans;2d;Berlin;DE\n";
        let l = parse_list(Source::Csv, text.as_bytes()).unwrap();
        let r = &l.rows[0];
        assert_eq!(
            (r.family.as_str(), r.given.as_str(), r.rank.as_str(), r.country.as_str()),
            ("Müller", "Hans", "2d", "DE")
        );
    }

    /// A header without a name or without a rank and rating is refused with what it lacks; a
    /// bad rank or rating names its line.
    #[test]
    fn refusals_name_columns_and_lines() {
        assert_eq!(
            parse_list(Source::Csv, b"id,club\n1,x\n").unwrap_err(),
            ListError::MissingColumns(vec![Needed::Name, Needed::RankOrRating])
        );
        assert_eq!(
            parse_list(Source::Csv, "name,rank\nA B,1d\nC D,3x\n".as_bytes()).unwrap_err(),
            ListError::Line { line: 3, problem: LineProblem::BadRank { value: "3x".into() } }
        );
        assert_eq!(
            parse_list(Source::Csv, "name,rating\nA B,abc\n".as_bytes()).unwrap_err(),
            ListError::Line { line: 2, problem: LineProblem::BadRating { value: "abc".into() } }
        );
    }
}
