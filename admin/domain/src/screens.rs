//! Display screens (大屏) of an event: what a screen shows and how its lists are cut into the
//! pages it rotates through. Tournament practice: the hall reads the pairings from a projector
//! or a TV, a page at a time, each list in large type on several columns; a player looks for
//! their own name (by name, in pinyin order) or their table (by hall table).

use serde::Serialize;
use std::ops::Range;

/// One kind of list or panel a screen shows, in the order the organizer chose.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Content {
    /// The current round's pairings by hall table.
    Tables,
    /// The current round's pairings by name (pinyin order): each player once, with their
    /// table and colour.
    Names,
    /// The last round's results.
    Results,
    /// The standings after the last complete round.
    Standings,
    /// A countdown to the next round's start.
    Countdown,
}

impl Content {
    pub const ALL: [Content; 5] =
        [Content::Tables, Content::Names, Content::Results, Content::Standings, Content::Countdown];

    pub fn code(self) -> &'static str {
        match self {
            Content::Tables => "tables",
            Content::Names => "names",
            Content::Results => "results",
            Content::Standings => "standings",
            Content::Countdown => "countdown",
        }
    }

    pub fn parse(s: &str) -> Option<Content> {
        Content::ALL.into_iter().find(|c| c.code() == s.trim())
    }

    /// A stored list (codes separated by commas), unknown codes dropped, each once.
    pub fn parse_list(s: &str) -> Vec<Content> {
        let mut v: Vec<Content> = Vec::new();
        for c in s.split(',').filter_map(Content::parse) {
            if !v.contains(&c) {
                v.push(c);
            }
        }
        v
    }

    pub fn list_code(v: &[Content]) -> String {
        v.iter().map(|c| c.code()).collect::<Vec<_>>().join(",")
    }
}

/// The bounds of a screen's settings.
pub const PACE: Range<u32> = 3..601;
pub const COLUMNS: Range<u32> = 1..7;
pub const ROWS: Range<u32> = 4..41;
pub const MAX_NAME: usize = 60;
pub const MAX_ANNOUNCEMENT: usize = 200;

/// A screen's settings as the organizer sets them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Setup {
    pub name: String,
    pub contents: Vec<Content>,
    /// The groups shown (tournament ids); empty: every group of the event.
    pub groups: Vec<i32>,
    /// Seconds per page.
    pub pace: u32,
    pub columns: u32,
    pub rows: u32,
    pub announcement: String,
}

impl Default for Setup {
    fn default() -> Setup {
        Setup {
            name: String::new(),
            contents: vec![Content::Tables, Content::Names],
            groups: Vec::new(),
            pace: 12,
            columns: 3,
            rows: 16,
            announcement: String::new(),
        }
    }
}

/// What is wrong with a screen's settings: the field named.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Problem {
    NoName,
    NoContent,
    Pace,
    Columns,
    Rows,
    NotAGroup,
}

impl Problem {
    /// The form field the problem is beside.
    pub fn field(self) -> &'static str {
        match self {
            Problem::NoName => "name",
            Problem::NoContent => "contents",
            Problem::Pace => "pace",
            Problem::Columns => "columns",
            Problem::Rows => "rows",
            Problem::NotAGroup => "groups",
        }
    }
}

/// The problems of `s` for an event whose groups are `event_groups`.
pub fn check(s: &Setup, event_groups: &[i32]) -> Vec<Problem> {
    let mut v = Vec::new();
    if s.name.trim().is_empty() {
        v.push(Problem::NoName);
    }
    if s.contents.is_empty() {
        v.push(Problem::NoContent);
    }
    if !PACE.contains(&s.pace) {
        v.push(Problem::Pace);
    }
    if !COLUMNS.contains(&s.columns) {
        v.push(Problem::Columns);
    }
    if !ROWS.contains(&s.rows) {
        v.push(Problem::Rows);
    }
    if s.groups.iter().any(|g| !event_groups.contains(g)) {
        v.push(Problem::NotAGroup);
    }
    v
}

/// The groups a screen shows, in the event's order: those chosen, or all when none is.
pub fn shown_groups(chosen: &[i32], event_groups: &[i32]) -> Vec<i32> {
    event_groups.iter().copied().filter(|g| chosen.is_empty() || chosen.contains(g)).collect()
}

/// One page of a screen: the items `items` of list `list`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Page {
    pub list: usize,
    pub items: Range<usize>,
}

/// The pages of lists of `lens` items each, at `rows` × `columns` items a page: each list
/// starts a page of its own, every item is on exactly one page, no page holds more than fits,
/// and an empty list still has its page (which says it is empty).
pub fn pages(lens: &[usize], rows: u32, columns: u32) -> Vec<Page> {
    let per = (rows.max(1) * columns.max(1)) as usize;
    let mut v = Vec::new();
    for (list, &n) in lens.iter().enumerate() {
        if n == 0 {
            v.push(Page { list, items: 0..0 });
            continue;
        }
        let mut start = 0;
        while start < n {
            let end = (start + per).min(n);
            v.push(Page { list, items: start..end });
            start = end;
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Tournament practice (大屏): a round of 500 players by name on 3 columns of 16 rows is
    /// 11 pages (48 names each, the last 20), and an empty list still shows its page.
    #[test]
    fn five_hundred_names_make_eleven_pages() {
        let p = pages(&[500, 0], 16, 3);
        assert_eq!(p.len(), 12);
        assert_eq!(p[10], Page { list: 0, items: 480..500 });
        assert_eq!(p[11], Page { list: 1, items: 0..0 });
    }

    /// Tournament practice (大屏): the settings are checked field by field, and a group of
    /// another event is refused.
    #[test]
    fn settings_are_checked() {
        let ok = Setup { name: "大厅一号屏".into(), ..Setup::default() };
        assert!(check(&ok, &[1, 2]).is_empty());
        let bad =
            Setup { name: " ".into(), contents: vec![], pace: 1, columns: 9, rows: 2, groups: vec![7], ..ok };
        assert_eq!(
            check(&bad, &[1, 2]),
            vec![
                Problem::NoName,
                Problem::NoContent,
                Problem::Pace,
                Problem::Columns,
                Problem::Rows,
                Problem::NotAGroup
            ]
        );
        assert_eq!(Content::parse_list("names,x,tables,names"), vec![Content::Names, Content::Tables]);
        assert_eq!(shown_groups(&[], &[3, 4]), vec![3, 4]);
        assert_eq!(shown_groups(&[4], &[3, 4]), vec![4]);
    }

    proptest! {
        /// Tournament practice (大屏): every item of every list is on exactly one page, each page
        /// holds items of one list only and no more than rows × columns of them, and pages come
        /// in list order.
        #[test]
        fn every_item_on_exactly_one_page(
            lens in proptest::collection::vec(0usize..700, 0..6),
            rows in ROWS,
            columns in COLUMNS,
        ) {
            let p = pages(&lens, rows, columns);
            let per = (rows * columns) as usize;
            let mut seen: Vec<Vec<u32>> = lens.iter().map(|n| vec![0; *n]).collect();
            let mut last_list = 0;
            for page in &p {
                prop_assert!(page.list >= last_list);
                last_list = page.list;
                prop_assert!(page.items.len() <= per);
                prop_assert!(page.items.end <= lens[page.list]);
                prop_assert!(!page.items.is_empty() || lens[page.list] == 0);
                for i in page.items.clone() {
                    seen[page.list][i] += 1;
                }
            }
            for (list, s) in seen.iter().enumerate() {
                prop_assert!(s.iter().all(|c| *c == 1), "list {} not covered once", list);
                prop_assert!(p.iter().any(|page| page.list == list));
            }
        }
    }
}
