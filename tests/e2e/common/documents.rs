//! The documents as a reader gets them: PDFs read back to text, CSV downloads, and the
//! standings as the public page and the printed tables show them.

use super::{readback, row_cells, Client, Resp};

/// GET a PDF: 200, its type, read back.
pub fn pdf(c: &Client, path: &str) -> (Resp, readback::ReadBack) {
    let r = c.get(path);
    assert_eq!(r.status, 200, "GET {path}: {}", r.body);
    assert_eq!(r.header("content-type"), Some("application/pdf"), "{path}");
    let back = readback::read(&path.replace(['/', '?', '&', '='], "_"), &r.bytes);
    (r, back)
}

/// A CSV download's records (after its UTF-8 BOM), header first.
pub fn csv_records(bytes: &[u8]) -> Vec<Vec<String>> {
    assert!(bytes.starts_with(b"\xEF\xBB\xBF"), "UTF-8 BOM");
    let mut r = csv::ReaderBuilder::new().has_headers(false).from_reader(&bytes[3..]);
    r.records().map(|rec| rec.unwrap().iter().map(String::from).collect()).collect()
}

/// A row of the public standings page: (place, name, unit, score, tie-break values).
pub type PageRow = (String, String, String, String, Vec<String>);

/// The rows of the public standings page at `path` (`/t/{id}/standings?round=N`).
pub fn standings_page_at(c: &Client, path: &str) -> Vec<PageRow> {
    let r = c.get(path);
    assert_eq!(r.status, 200, "{path}");
    let table = &r.body[r.body.find("id=\"standings\"").unwrap()..];
    let body = &table[table.find("<tbody>").unwrap() + 7..table.find("</tbody>").unwrap()];
    body.split("<tr")
        .skip(1)
        .map(|row| {
            let cells = row_cells(row);
            // The name without the withdrawal mark beside it (`e.withdrawn_mark`).
            let name = cells[1].trim_end_matches("（退赛）").trim_end_matches("(withdrawn)").trim_end();
            (cells[0].clone(), name.to_string(), cells[3].clone(), cells[4].clone(), cells[5..].to_vec())
        })
        .collect()
}

/// Each name's row of a PDF page: its text without whitespace from the name to the next name
/// (cells follow each other without separators), `names` in the order the rows must come.
pub fn pdf_rows<'a>(text: &str, names: &[&'a str]) -> Vec<(&'a str, String)> {
    let text = readback::squash(text);
    let at: Vec<usize> =
        names.iter().map(|n| text.find(n).unwrap_or_else(|| panic!("{n} missing: {text}"))).collect();
    for w in at.windows(2) {
        assert!(w[0] < w[1], "rows in standings order: {names:?} at {at:?}: {text}");
    }
    at.iter()
        .enumerate()
        .map(|(i, &a)| {
            let end = at.get(i + 1).copied().unwrap_or(text.len());
            (names[i], text[a..end].to_string())
        })
        .collect()
}
