//! Lots as the pages show them: what an outsider reads to replay a round's draws, replayed
//! both with the crate's draw function and from the page's own description
//! ([`outsider`](super::outsider)).

use super::{attr_after, outsider, query, text_of, unescape, Resp, Server};
use std::collections::HashMap;

/// One row of a page's table of lots, as its data attributes give it.
#[derive(Debug, Clone)]
pub struct Lot {
    /// The lot's place in the round's list, and the first of its candidates the row shows (a
    /// long lot is cut over the staff page's pages; a public row is the whole lot).
    pub lot: usize,
    pub from: usize,
    pub purpose: String,
    pub method: String,
    pub seed: u64,
    pub stream: u64,
    pub candidates: Vec<u32>,
    pub outcome: Vec<u32>,
    /// The row's text.
    pub text: String,
}

impl Lot {
    /// The outcome this lot's method, seed, stream and candidates give with the crate's public
    /// draw function (what an outsider runs): `None` if the page names an unknown method or
    /// stream.
    pub fn redrawn(&self) -> Option<Vec<u32>> {
        use admin::domain::draw::lots::{Method, Stream};
        let method = Method::from_code(&self.method)?;
        let stream = Stream::from_number(self.stream)?;
        Some(admin::domain::draw::draw(method, self.seed, stream, &self.candidates))
    }
}

/// The attribute `name` of a lot's row, which it must have.
fn data_attr(tag: &str, name: &str) -> String {
    attr_after(tag, &format!("{name}=\"")).unwrap_or_else(|| panic!("no {name} in {tag}"))
}

/// Numbers separated by spaces.
fn number_list(s: &str) -> Vec<u32> {
    s.split_whitespace().map(|n| n.parse().unwrap()).collect()
}

/// Every lot shown on a page.
pub fn lots(page: &Resp) -> Vec<Lot> {
    page.body
        .match_indices("<tr class=\"draw\"")
        .map(|(at, _)| {
            let row = &page.body[at..at + page.body[at..].find("</tr>").unwrap()];
            let tag = &row[..row.find('>').unwrap()];
            Lot {
                lot: data_attr(tag, "data-lot").parse().unwrap(),
                from: data_attr(tag, "data-from").parse().unwrap(),
                purpose: data_attr(tag, "data-purpose"),
                method: data_attr(tag, "data-method"),
                seed: data_attr(tag, "data-seed").parse().unwrap(),
                stream: data_attr(tag, "data-stream").parse().unwrap(),
                candidates: number_list(&data_attr(tag, "data-candidates")),
                outcome: number_list(&data_attr(tag, "data-outcome")),
                text: unescape(row),
            }
        })
        .collect()
}

/// The pairing numbers of the entrants (the entrant list's "#" column: order of entry).
pub fn numbers_of(s: &Server, tid: i32) -> HashMap<i64, u32> {
    query(&s.db, &format!("SELECT id FROM entrants WHERE tournament_id = {tid} ORDER BY id"))
        .iter()
        .zip(1u32..)
        .map(|(r, n)| (r[0].parse().unwrap(), n))
        .collect()
}

/// Every lot on a public pairings page, each replayed twice from what the page shows — with the
/// crate's draw function and as an outsider does from the page's description
/// ([`outsider::replay`]; on an English page the description itself is checked too) — and
/// naming players the page shows by their numbers (a double-loss lot names players of the
/// round before). The page marks each as replayed.
pub fn replayed_lots(page: &Resp) -> Vec<Lot> {
    let shown = lots(page);
    assert!(!shown.is_empty(), "the page shows its lots");
    if page.body.contains("<html lang=\"en\"") {
        outsider::check_description(&page.body);
    }
    let on_page: Vec<u32> = page
        .body
        .match_indices("<span class=\"no\">")
        .map(|(at, m)| page.body[at + m.len()..].split('<').next().unwrap().parse().unwrap())
        .collect();
    let byes = text_of(page, "byes").unwrap_or_default();
    for l in &shown {
        assert_eq!(l.redrawn().as_ref(), Some(&l.outcome), "the crate replays {l:?}");
        let replayed = outsider::replay(&l.method, l.seed, l.stream, &l.candidates);
        assert_eq!(replayed.as_ref(), Some(&l.outcome), "the page's description replays {l:?}");
        assert!(l.text.contains('✓'), "the page says it replays: {}", l.text);
        assert!(!l.text.contains("drawp.") && !l.text.contains("method."), "{}", l.text);
        for c in &l.candidates {
            assert!(
                on_page.contains(c) || byes.contains(&format!("{c} ")) || l.purpose == "double_loss",
                "candidate {c} is not on the page: {l:?}"
            );
        }
    }
    shown
}
