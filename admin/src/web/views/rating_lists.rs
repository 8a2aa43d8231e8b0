//! The rating lists' pages: the tournament's lists with the upload form, and one list matched
//! to the entrants with the differences and a box each.

use super::pages::Chrome;
use askama::Template;

/// The upload form as typed: (code, label, chosen) of each source, the name, the date.
pub struct UploadForm {
    pub sources: Vec<(String, String, bool)>,
    pub name: String,
    pub date: String,
}

/// A stored list in the tournament's list.
pub struct ListLine {
    pub id: i32,
    pub name: String,
    pub source: String,
    pub date: String,
    pub imported: String,
    pub rows: i32,
}

#[derive(Template)]
#[template(path = "rating_lists.html")]
pub struct RatingListsPage {
    pub c: Chrome,
    pub tid: i32,
    pub rows: Vec<ListLine>,
    pub form: UploadForm,
    pub banner: Option<String>,
}

/// An entrant beside their row: each value as it is, or "from → to" when the row changes it.
pub struct MatchLine {
    pub entrant: i32,
    pub name: String,
    /// The row's id and name, or why none matched.
    pub row: String,
    /// Which rule matched.
    pub rule: String,
    pub rank: String,
    pub rank_changes: bool,
    pub rating: String,
    pub rating_changes: bool,
    pub unit: String,
    pub unit_changes: bool,
    /// The list's id the entrant takes (empty: no change).
    pub id: String,
    /// The box's value when the row changes something (`office::rating_lists::Pick`).
    pub pick: Option<String>,
}

impl MatchLine {
    /// An entrant no row matched: their values, and `why` in place of the row.
    pub fn unmatched(rank: String, rating: String, unit: String, why: String) -> MatchLine {
        MatchLine {
            entrant: 0,
            name: String::new(),
            row: why,
            rule: String::new(),
            rank,
            rank_changes: false,
            rating,
            rating_changes: false,
            unit,
            unit_changes: false,
            id: String::new(),
            pick: None,
        }
    }
}

#[derive(Template)]
#[template(path = "rating_list.html")]
pub struct RatingListPage {
    pub c: Chrome,
    pub tid: i32,
    pub lid: i32,
    pub summary: String,
    /// Why nothing may be applied (round 1 is published).
    pub locked: Option<String>,
    pub lines: Vec<MatchLine>,
    /// A note and whether it is good news.
    pub banner: Option<(String, bool)>,
}
