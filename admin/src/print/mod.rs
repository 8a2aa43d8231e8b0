//! Printed sheets (PDF), from plain data.
//!
//! Pure: values in, bytes out. No database, no HTTP, no clock; callers (the web handlers, the
//! CLI) fetch the data, fill these structs and send the bytes on.
//!
//! | what | function | module |
//! |---|---|---|
//! | scoresheets (记录单), 2 or 4 per A4 page | [`scoresheets`] | [`scoresheet`] |
//! | pairing list by table, or by name | [`pairing_list`] | [`pairing_list`](mod@pairing_list) |
//! | standings wall chart with tie-break columns | [`standings`] | [`wall_chart`] |
//! | crosstable (per-round opponent, result and colour) | [`crosstable`] | [`wall_chart`] |
//! | game record sheet (棋谱记录纸), a 19×19 grid per table | [`record_sheets`] | [`record_sheet`] |
//! | table cards (台卡): A4 folded tent or four A6 per page, with a QR code | [`table_cards`] | [`table_cards`](mod@table_cards) |
//! | results notice (成绩公告): a round's results and the standings after it | [`results_notice`] | [`results_notice`](mod@results_notice) |
//! | prize list (获奖名单) and certificates (获奖证书), A4 landscape | [`prize_list`], [`certificates`] | [`prizes`](mod@prizes) |
//! | hall poster (大厅海报): the event's QR code and the check-in code, A4 or A3 | [`hall_poster`](fn@hall_poster) | [`hall_poster`](mod@hall_poster) |
//! | relay match: line-up forms per section and the match record sheet with the penalty log | [`team_sheets`] | [`team_sheets`](mod@team_sheets) |
//!
//! Every PDF uses one font ([`font::FontFace`]: WenQuanYi Micro Hei compiled in, or
//! `TENGEN_PDF_FONT`), subset per document to the characters it prints, with a `/ToUnicode`
//! map so the text can be searched and copied. Labels come in Chinese or English ([`Lang`]);
//! names are printed in both scripts where both are known.

pub mod font;
pub mod hall_poster;
pub mod pairing_list;
mod pdf;
pub mod prizes;
#[cfg(test)]
pub(crate) mod readback;
pub mod record_sheet;
pub mod results_notice;
pub mod scoresheet;
pub(crate) mod sfnt;
pub mod table_cards;
pub mod team_sheets;
#[cfg(test)]
pub(crate) mod testutil;
pub mod wall_chart;

pub use font::FontFace;
pub use hall_poster::{hall_poster, HallPoster};
pub use pairing_list::{pairing_list, PairingOrder};
pub use prizes::{certificates, prize_list, Certificate, CertificateStyle, PrizeListRow};
pub use record_sheet::record_sheets;
pub use results_notice::{results_notice, NoticeRow};
pub use scoresheet::{scoresheets, SheetsPerPage};
pub use table_cards::{table_cards, CardFormat, TableCard};
pub use team_sheets::{team_sheets, TeamSheetHeader};
pub use wall_chart::{crosstable, standings};

use crate::i18n::tr;
pub(crate) use crate::sheets::tiebreak_labels;
pub use crate::sheets::{
    Bye, Colour, DataProblem, Outcome, PairingRow, PrintError, RoundResult, SheetPlayer, StandingRow,
};

/// Language of the labels: the one `Lang` of the catalog every label comes from.
pub use crate::i18n::Lang;

/// Paper size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Paper {
    /// 210 × 297 mm.
    #[default]
    A4,
    /// 297 × 420 mm: the same layout scaled up by √2, for wall charts read from a distance.
    A3,
}

impl Paper {
    /// How much larger than A4 everything is drawn.
    pub fn scale(self) -> f32 {
        match self {
            Paper::A4 => 1.0,
            Paper::A3 => std::f32::consts::SQRT_2,
        }
    }
}

/// Options shared by the PDF documents.
#[derive(Debug, Clone, Copy, Default)]
pub struct PdfOptions<'a> {
    pub lang: Lang,
    /// Ignored by scoresheets (always A4) and record sheets (A4, or A3 for a larger grid).
    pub paper: Paper,
    /// Lists and wall charts only.
    pub landscape: bool,
    /// `None`: [`FontFace::default_face`] (the embedded font unless `TENGEN_PDF_FONT` is set).
    pub font: Option<&'a FontFace>,
}

impl<'a> PdfOptions<'a> {
    pub fn new(lang: Lang) -> PdfOptions<'a> {
        PdfOptions { lang, ..Default::default() }
    }

    pub(crate) fn font(&self) -> Result<&'a FontFace, PrintError> {
        match self.font {
            Some(f) => Ok(f),
            None => FontFace::default_face(),
        }
    }
}

/// The tournament and round a sheet belongs to. Texts are printed as given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SheetTournament {
    pub name_zh: String,
    pub name_latin: String,
    pub venue: String,
    /// Round number, from 1.
    pub round: u32,
    /// Date of the round as it should be printed, e.g. "2026-12-05".
    pub date: String,
    /// e.g. "黑贴3¾子" / "Black gives 3¾ stones (7.5 points)".
    pub komi_text: String,
    /// e.g. "基本用时60分钟，读秒30秒3次" / "60 min + 3×30 s byo-yomi".
    pub time_control_text: String,
    /// e.g. "中国围棋竞赛规则（2002）" / "Chinese rules (2002)".
    pub rules_text: String,
    /// How lists by name are ordered (the event's setting: pinyin or strokes).
    pub name_order: crate::domain::names::NameOrder,
    /// Footnotes under a wall chart's table: the standings' withdrawals (退赛), a line each.
    pub notes: Vec<String>,
}

impl SheetTournament {
    /// The name in `lang`, or the other one when that is empty.
    pub fn name(&self, lang: Lang) -> &str {
        let (a, b) = match lang {
            Lang::Zh => (&self.name_zh, &self.name_latin),
            Lang::En => (&self.name_latin, &self.name_zh),
        };
        if a.trim().is_empty() {
            b
        } else {
            a
        }
    }

    /// "第 3 轮" / "Round 3".
    pub fn round_label(&self, lang: Lang) -> String {
        tr!(lang, "doc.round_n", round = self.round)
    }

    /// Venue and date on one line.
    pub(crate) fn details(&self) -> String {
        [self.venue.trim(), self.date.trim()]
            .iter()
            .filter(|s| !s.is_empty())
            .cloned()
            .collect::<Vec<_>>()
            .join("  ·  ")
    }
}

/// One board of a round, for its scoresheet and its record sheet.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TableSheet {
    /// Table (board) number.
    pub table: u32,
    /// With `nigiri`, the first player: the one who guesses (the colours are decided at the
    /// board).
    pub black: SheetPlayer,
    /// With `nigiri`, the second player: the one who holds the stones.
    pub white: SheetPlayer,
    /// Handicap stones; 0 for an even game.
    pub handicap: u8,
    /// Colours are decided at the board by nigiri (猜先): the sheet then names no colours and has
    /// lines for the holder and the guesser and for who took Black.
    pub nigiri: bool,
    /// Komi for this game when it differs from the tournament's (handicap games).
    pub komi_text: Option<String>,
    /// A replay (重赛): the game it replays at this table.
    pub replay_of: Option<i32>,
}

/// A name as a sheet prints it: with the withdrawal mark (退赛) when the player has withdrawn.
pub(crate) fn name_cell(lang: Lang, name: &str, withdrawn: bool) -> String {
    match withdrawn {
        true => tr!(lang, "e.name_withdrawn", name),
        false => name.to_string(),
    }
}

/// One line of the crosstable.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CrosstableRow {
    /// This row's place; `RoundResult::opponent` refers to these numbers.
    pub place: u32,
    pub name: String,
    pub rank: String,
    pub unit: String,
    /// One entry per round, in order.
    pub results: Vec<RoundResult>,
    pub score: String,
    /// Tie-break columns, as in [`StandingRow::tiebreaks`].
    pub tiebreaks: Vec<(String, String)>,
    /// As in [`StandingRow::withdrawn`].
    pub withdrawn: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_matches_the_egf_examples() {
        let r = RoundResult::game;
        assert_eq!(r(35, Outcome::Jigo, None, 0).notation(), "35=");
        assert_eq!(r(23, Outcome::Win, Some(Colour::White), 0).notation(), "23+/w");
        assert_eq!(r(11, Outcome::Loss, Some(Colour::Black), 5).notation(), "11-/b5");
        assert_eq!(RoundResult::no_game(Outcome::Win).notation(), "0+");
        assert_eq!(RoundResult::no_game(Outcome::Loss).notation(), "0-");
        assert_eq!(RoundResult::no_game(Outcome::Jigo).notation(), "0=");
        assert_eq!(r(4, Outcome::Unknown, Some(Colour::Black), 0).notation(), "4?/b");
        let forfeit = RoundResult { forfeit: true, ..r(6, Outcome::Win, Some(Colour::White), 0) };
        assert_eq!(forfeit.notation(), "6+!/w");
        let double = RoundResult { double_loss: true, ..r(3, Outcome::Loss, Some(Colour::Black), 0) };
        assert_eq!(double.notation(), "3×/b");
    }

    #[test]
    fn names_fall_back_to_the_other_script() {
        let p =
            SheetPlayer { name_zh: "张伟".into(), name_latin: "Zhang Wei".into(), ..Default::default() };
        assert_eq!(p.display_name(Lang::Zh), "张伟 Zhang Wei");
        assert_eq!(p.display_name(Lang::En), "Zhang Wei 张伟");
        assert_eq!(p.secondary_name(Lang::Zh), "Zhang Wei");
        let rank = Some(crate::domain::entrant::Rank::Kyu(2));
        let q = SheetPlayer { name_latin: "Anna Müller".into(), rank, ..Default::default() };
        assert_eq!(q.display_name(Lang::Zh), "Anna Müller");
        assert_eq!(q.primary_name(Lang::Zh), "Anna Müller");
        assert_eq!(q.secondary_name(Lang::Zh), "");
        assert_eq!((q.rank(Lang::Zh), q.rank(Lang::En)), ("2级".into(), "2k".into()));
        let odd = SheetPlayer { rank_stored: " 2 kyu? ".into(), ..Default::default() };
        assert_eq!(odd.rank(Lang::Zh), "2 kyu?", "an unreadable rank prints as stored");
    }

    #[test]
    fn tiebreak_labels_must_agree() {
        let a = [("SOS".to_string(), "12".to_string())];
        let b = [("SODOS".to_string(), "3".to_string())];
        assert_eq!(tiebreak_labels([(1, &a[..]), (2, &a[..])].into_iter()).unwrap(), vec!["SOS"]);
        assert!(tiebreak_labels([(1, &a[..]), (2, &b[..])].into_iter()).is_err());
    }
}
