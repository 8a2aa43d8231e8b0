//! What a spreadsheet does with a CSV cell, shared by the entrant list and the exports: both
//! files start with a UTF-8 BOM (so Excel shows Chinese), and a text cell that a spreadsheet
//! would run as a formula gets a `'` in front.

/// The UTF-8 byte order mark every CSV written starts with.
pub(crate) const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// Whether a spreadsheet would run the cell as a formula, even behind leading `'`s.
pub(crate) fn looks_like_formula(cell: &str) -> bool {
    cell.trim_start_matches('\'').starts_with(['=', '+', '-', '@', '\t', '\r'])
}

/// Puts a `'` before a cell that looks like a formula (also before one that already starts
/// with `'=`, so the entrant import's `unguard` gives back exactly the original).
pub(crate) fn guard(cell: &str) -> String {
    if looks_like_formula(cell) {
        format!("'{cell}")
    } else {
        cell.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cell a spreadsheet would evaluate is guarded once more each time, so one `'` comes
    /// off on the way back; plain text and numbers stay as they are.
    #[test]
    fn formula_cells_are_guarded() {
        assert_eq!(guard("=SUM(A1)"), "'=SUM(A1)");
        assert_eq!(guard("'=SUM(A1)"), "''=SUM(A1)");
        assert_eq!(guard("+R"), "'+R");
        assert_eq!(guard("@x"), "'@x");
        assert_eq!(guard("王伟"), "王伟");
        assert_eq!(guard("12"), "12");
        assert!(!looks_like_formula("'plain"));
    }
}
