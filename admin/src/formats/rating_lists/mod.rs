//! The federations' rating lists, bytes in and [`ListRow`]s out, one file per format: the
//! EGF's "allworld" list ([`egf`]), the FFG's échelle ([`ffg`]), the AGA's TDList ([`aga`]) and
//! any association's list as CSV with a header row ([`csv`]). Each reader also finds the list's
//! own date when the file carries one. A line that looks like a player but cannot be read
//! refuses the whole file, naming the line ([`ListError::Line`]); nothing is half-imported.
//! Matching and ranks are `domain::rating_lists`'.

pub mod aga;
pub mod csv;
pub mod egf;
pub mod ffg;

use chrono::NaiveDate;
pub use domain::rating_lists::{ListRow, Source};

/// The largest list file: the EGF's whole list (every player the European Go Database has
/// rated) is about 10 MB.
pub const MAX_FILE_BYTES: usize = 16 * 1024 * 1024;
/// The most rows a list may have.
pub const MAX_ROWS: usize = 300_000;

/// A list read: its rows in file order and its date when the file says it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedList {
    pub rows: Vec<ListRow>,
    pub date: Option<NaiveDate>,
}

/// Why a list cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ListError {
    Empty,
    TooLarge {
        max: usize,
    },
    TooManyRows {
        max: usize,
    },
    /// Binary data, or text in an encoding that could not be read.
    NotText,
    /// Not one player's line.
    NoRows,
    /// A CSV list's header lacks a column it needs.
    MissingColumns(Vec<Needed>),
    /// A player's line that cannot be read.
    Line {
        line: usize,
        problem: LineProblem,
    },
}

/// A column a CSV list needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Needed {
    /// A name: one column, or family and given.
    Name,
    /// A rank or a rating.
    RankOrRating,
}

/// What is wrong with one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineProblem {
    /// Shorter than the format's columns.
    TooShort,
    /// A rating that is not a number.
    BadRating { value: String },
    /// A rank Tengen cannot read.
    BadRank { value: String },
    /// No name.
    NoName,
}

/// Reads `bytes` as a list of `source`.
pub fn parse(source: Source, bytes: &[u8]) -> Result<ParsedList, ListError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(ListError::Empty);
    }
    if bytes.len() > MAX_FILE_BYTES {
        return Err(ListError::TooLarge { max: MAX_FILE_BYTES });
    }
    let list = match source {
        Source::Egf => egf::parse(&latin_text(bytes)?)?,
        Source::Ffg => ffg::parse(&latin_text(bytes)?)?,
        Source::Aga => aga::parse(&latin_text(bytes)?)?,
        Source::Csv => csv::parse(bytes)?,
    };
    if list.rows.is_empty() {
        return Err(ListError::NoRows);
    }
    if list.rows.len() > MAX_ROWS {
        return Err(ListError::TooManyRows { max: MAX_ROWS });
    }
    Ok(list)
}

/// The federations' text lists: UTF-8 when they are, else ISO-8859-1 as the EGF and the FFG
/// have long published them (read as Windows-1252, its superset).
fn latin_text(bytes: &[u8]) -> Result<String, ListError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let text = match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => encoding_rs::WINDOWS_1252.decode_without_bom_handling(bytes).0.into_owned(),
    };
    if text.chars().any(|c| c.is_control() && !matches!(c, '\t' | '\r' | '\n' | '\u{c}')) {
        return Err(ListError::NotText);
    }
    Ok(text)
}

/// Characters `from..to` of a line (fewer when it is shorter), trimmed.
pub(crate) fn cols(chars: &[char], from: usize, to: usize) -> String {
    let to = to.min(chars.len());
    if from >= to {
        return String::new();
    }
    chars[from..to].iter().collect::<String>().trim().to_string()
}

/// The first date a line writes: 2026-12-05, 05.12.2026, 05/12/2026, 05-12-2026 (day first,
/// as the EGF and the FFG write them), or 5-Dec-2026 / 5 Dec 2026.
pub(crate) fn find_date(line: &str) -> Option<NaiveDate> {
    let words: Vec<&str> = line
        .split(|c: char| c.is_whitespace() || matches!(c, '(' | ')' | ',' | ':'))
        .filter(|w| !w.is_empty())
        .collect();
    for (i, w) in words.iter().enumerate() {
        for f in ["%Y-%m-%d", "%d.%m.%Y", "%d/%m/%Y", "%d-%m-%Y", "%d-%b-%Y"] {
            if let Ok(d) = NaiveDate::parse_from_str(w, f) {
                return Some(d);
            }
        }
        if let (Some(m), Some(y)) = (words.get(i + 1), words.get(i + 2)) {
            if let Ok(d) = NaiveDate::parse_from_str(&format!("{w} {m} {y}"), "%d %b %Y") {
                return Some(d);
            }
        }
    }
    None
}

/// A whole number as a list writes it ("2290", "-900", "+15"); `None` for anything else.
pub(crate) fn number(s: &str) -> Option<i32> {
    let s = s.trim();
    s.strip_prefix('+').unwrap_or(s).parse::<i32>().ok()
}

/// Splits "Family Given Names" at its first space (the EGF's and the FFG's order).
pub(crate) fn split_family_first(name: &str) -> (String, String) {
    let name = name.trim();
    match name.split_once(' ') {
        Some((f, g)) => (f.trim().to_string(), g.trim().to_string()),
        None => (name.to_string(), String::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The EGF's and the FFG's list headers carry their date in several spellings.
    #[test]
    fn dates_in_headers() {
        let d = NaiveDate::from_ymd_opt(2026, 12, 5);
        assert_eq!(find_date("(05.12.2026) EGD rating list"), d);
        assert_eq!(find_date("Echelle au 05/12/2026"), d);
        assert_eq!(find_date("as of 2026-12-05"), d);
        assert_eq!(find_date("Last update: 5-Dec-2026"), d);
        assert_eq!(find_date("updated 5 Dec 2026 at noon"), d);
        assert_eq!(find_date("no date here 12345"), None);
    }

    /// Bytes the lists cannot be: empty, binary, or over the limit.
    #[test]
    fn refuses_empty_binary_and_large() {
        assert_eq!(parse(Source::Egf, b"  \n"), Err(ListError::Empty));
        assert_eq!(parse(Source::Ffg, b"\x00\x01\x02abc"), Err(ListError::NotText));
        assert_eq!(parse(Source::Aga, b"just a title\n"), Err(ListError::NoRows));
        let big = vec![b'a'; MAX_FILE_BYTES + 1];
        assert_eq!(parse(Source::Csv, &big), Err(ListError::TooLarge { max: MAX_FILE_BYTES }));
    }
}
