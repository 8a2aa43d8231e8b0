//! The count page of a game (`/t/{id}/games/{gid}/count`) and of a relay match
//! (`/t/{id}/matches/{mid}/count`): the final position with the dead stones marked (the rules
//! crate's proposal until a referee saves them), the count and the result it gives, and the
//! sides' (players' or executing leaders') and the referee's confirmations.

use super::pages::Chrome;
use crate::db::results::Sheet;
use crate::domain::results::Entry;
use crate::i18n::tr;
use crate::web::i18n::Lang;
use askama::Template;
use rules::outcome::half_points_text;

/// One stone of the board drawn as SVG.
pub struct StoneView {
    /// Centre in board units (1 = the first line).
    pub cx: u32,
    pub cy: u32,
    /// "b" or "w".
    pub colour: &'static str,
    /// The chain's number (stones of one chain toggle together).
    pub chain: usize,
    /// The point in human coordinates ("D16"), as the dead-stone field names it.
    pub point: String,
    pub dead: bool,
}

/// The position drawn: lines, star points, stones.
pub struct BoardView {
    pub size: u32,
    /// `size + 1`: the SVG's view box.
    pub extent: u32,
    pub lines: Vec<u32>,
    pub stars: Vec<(u32, u32)>,
    pub stones: Vec<StoneView>,
}

/// A confirmation of one side.
pub struct SideConfirm {
    /// "black" or "white".
    pub who: &'static str,
    /// The button's words; when `missing`, why nobody can confirm for the side.
    pub label: String,
    pub done: bool,
    /// Nobody may confirm for the side now (a relay side without an executing leader).
    pub missing: bool,
}

/// What is shown when the game has a final position.
pub struct Counted {
    pub board: BoardView,
    /// The dead stones in the form's field: one point per chain.
    pub dead_field: String,
    /// The dead stones are the rules crate's proposal, to be reviewed and saved.
    pub proposal: bool,
    /// Where the position comes from: the moves entered at the board, or the attached record.
    pub source: String,
    /// "黑 184.5 子，白 176.5 子".
    pub count_line: String,
    /// The result the count gives, as the result sheet words it ("黑胜¼子").
    pub result: String,
    /// More facts the sides confirm with the count (a relay match's penalty stones).
    pub facts: Vec<(String, String)>,
    /// The count's version (0: nothing saved) and the version of what the referee's
    /// confirmation writes (the result sheet's, or the relay match's).
    pub version: i32,
    pub sheet_version: i32,
    pub sides: Vec<SideConfirm>,
    /// Why the referee cannot confirm (a side that nobody may confirm for).
    pub finish_blocked: Option<String>,
    /// The referee who confirmed it, while the count is the game's result.
    pub confirmed_by: Option<String>,
    /// A confirmed count whose result sheet was changed since (a correction on the game page):
    /// the sheet's result stands, and this says so instead of "confirmed".
    pub superseded: Option<String>,
    /// A result entered on the sheet that differs from this count: both numbers.
    pub differs: Option<String>,
}

#[derive(Template)]
#[template(path = "count.html")]
pub struct CountPage {
    pub c: Chrome,
    /// The page of what is counted ("/t/1/games/5", "/t/1/matches/3"): the back link, and the
    /// forms post to `{base}/count/…`.
    pub base: String,
    /// The back link's words.
    pub back: String,
    pub counted: Option<Counted>,
    /// What the proposal's mark says (who confirms after the referee saves).
    pub proposal_note: String,
    /// Why there is no position to count, and where else the count may be entered.
    pub no_position: String,
    pub elsewhere: Option<(String, String)>,
    /// The dead-stone field as typed, when a save was refused.
    pub typed: Option<String>,
    pub banner: Option<String>,
    pub notice: Option<String>,
}

/// A count typed on the result sheet that differs from the count of the position (both named).
pub(in crate::web) fn typed_differs(lang: Lang, sheet: &Sheet, position_halves: u32) -> Option<String> {
    match sheet.entry() {
        Some(Entry::Count { black_halves, .. }) if black_halves != position_halves => Some(tr!(
            lang,
            "cnt.typed_differs",
            typed = half_points_text(black_halves),
            position = half_points_text(position_halves)
        )),
        _ => None,
    }
}
