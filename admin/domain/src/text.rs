//! One rule for every text a user types — event names and venues, entrants, teams and their
//! rosters, account names, reasons and notes: no control characters (Unicode's general
//! category Cc) and no invisible format characters (Cf: the bidirectional embeddings,
//! overrides and isolates such as U+202E RIGHT-TO-LEFT OVERRIDE, zero-width spaces and
//! joiners, the byte-order mark, the soft hyphen, tag characters), nor the line and paragraph
//! separators (Zl, Zp). What they do is invisible: a name that reads one way on a page and sorts,
//! searches or prints another, or an audit reason whose words appear reversed. Fields of several
//! lines (reasons, notes, a roster) take line breaks and tabs.

use unicode_general_category::{get_general_category, GeneralCategory};

/// Whether a field holds one line or several.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lines {
    One,
    /// Line breaks (LF, CR) and tabs are allowed.
    Many,
}

/// The longest reason that goes into an audit row, in characters.
pub const MAX_REASON: usize = 500;

/// What is wrong with a typed text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextProblem {
    /// Longer than `max` characters.
    TooLong { max: usize },
    /// A control or invisible format character (see the module's documentation).
    Invisible,
}

/// Whether `c` may not stand in a typed text.
pub fn forbidden(c: char, lines: Lines) -> bool {
    if lines == Lines::Many && matches!(c, '\n' | '\r' | '\t') {
        return false;
    }
    matches!(
        get_general_category(c),
        GeneralCategory::Control
            | GeneralCategory::Format
            | GeneralCategory::LineSeparator
            | GeneralCategory::ParagraphSeparator
    )
}

/// Whether `text` holds a character no typed text may hold.
pub fn has_invisible(text: &str, lines: Lines) -> bool {
    text.chars().any(|c| forbidden(c, lines))
}

/// THE check of a typed text: invisible characters first (they also make a text look shorter
/// than it is), then the length in characters.
pub fn check(text: &str, max: usize, lines: Lines) -> Option<TextProblem> {
    if has_invisible(text, lines) {
        Some(TextProblem::Invisible)
    } else if text.chars().count() > max {
        Some(TextProblem::TooLong { max })
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Office rule (typed text): control characters, Unicode's invisible format characters
    /// and the line separators are refused; letters of every script, punctuation, spaces,
    /// emoji and their variation selectors pass; line breaks and tabs only where a field has
    /// several lines.
    #[test]
    fn invisible_and_control_characters_are_refused_everywhere() {
        for c in [
            '\u{0}',
            '\u{7}',
            '\u{1B}',
            '\u{7F}',
            '\u{85}', // controls
            '\u{AD}',
            '\u{61C}',
            '\u{180E}',
            '\u{200B}',
            '\u{200C}',
            '\u{200D}',
            '\u{200E}',
            '\u{200F}',
            '\u{202A}',
            '\u{202B}',
            '\u{202C}',
            '\u{202D}',
            '\u{202E}',
            '\u{2060}',
            '\u{2066}',
            '\u{2067}',
            '\u{2068}',
            '\u{2069}',
            '\u{FEFF}',
            '\u{FFF9}',
            '\u{E0001}',
            '\u{E0041}', // format (Cf)
            '\u{2028}',
            '\u{2029}', // line and paragraph separators
        ] {
            assert!(forbidden(c, Lines::One) && forbidden(c, Lines::Many), "U+{:04X}", c as u32);
        }
        for text in
            ["王子涵", "欧阳·娜娜", "Lee Sedol", "中国棋院（北京）", "Ölçer", "🀄️ 棋社", "第1轮：换人", "  "]
        {
            assert_eq!(check(text, 60, Lines::One), None, "{text}");
        }
        assert_eq!(check("第一行\r\n\t第二行", 60, Lines::Many), None);
        assert_eq!(check("第一行\n第二行", 60, Lines::One), Some(TextProblem::Invisible));
        assert_eq!(check("北京\u{202E}", 60, Lines::Many), Some(TextProblem::Invisible));
        assert_eq!(check(&"棋".repeat(61), 60, Lines::One), Some(TextProblem::TooLong { max: 60 }));
        assert_eq!(check(&"棋".repeat(60), 60, Lines::One), None);
    }
}
