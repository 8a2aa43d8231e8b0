//! The downloadable documents, made the same way for the web routes and the command line
//! (`tengen print …`, `tengen export …`): the options are read from the same words (a query
//! string's `per_page=4`, the command line's `--per-page 4`), the data comes from
//! [`crate::db::print_data`], the bytes from [`crate::print`] (or the OpenGotha writer), and
//! the file is named here.
//!
//! Two steps, so that the web can load inside a database connection and render outside it:
//! [`RoundDoc::load`] or [`TournamentDoc::load`] (database) then [`Loaded::render`] (CPU only).
//!
//! A document belongs to a round (scoresheets, pairing lists, record sheets, pairings CSV:
//! asked for with a [`RoundDoc`]) or to the whole tournament (standings wall chart, crosstable,
//! standings and results CSV, EGF `.h9`: a [`TournamentDoc`], counting the published rounds).
//! Adding a document is one [`Doc`] variant, its loader in `print_data` (if it reads other data
//! than the existing ones) and one arm in [`Loaded::render`].

use diesel::SqliteConnection;

use crate::db::print_data::{self as pd, Audience};
use crate::db::tournaments::{self as tdb, TournamentRow};
use crate::db::DbError;
use crate::import::opengotha_write::write_opengotha;
use crate::print::{
    crosstable, egf_h9, pairing_list, pairings_csv, record_sheets, results_csv, scoresheets, standings,
    standings_csv, Lang, PairingOrder, PairingRow, Paper, PdfOptions, PrintError, SheetsPerPage,
};

/// A downloadable document: of one round (the first four) or of the tournament.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Doc {
    /// 记录单, 2 or 4 per A4 page.
    Scoresheets(SheetsPerPage),
    /// 对阵表, by table or by name, A4 or A3.
    PairingList(PairingOrder, Paper),
    /// 棋谱记录纸, one page per table, A4 or A3.
    RecordSheets(Paper),
    /// The pairings as CSV (byes as rows with table 0).
    PairingsCsv,
    /// 成绩排名表: the standings wall chart with the tie-break columns, A4 or A3 portrait.
    Standings(Paper),
    /// 成绩交叉表: every round's opponent, result and colour, A4 or A3 landscape.
    Crosstable(Paper),
    /// The standings as CSV, with the tie-break columns.
    StandingsCsv,
    /// Every game and bye of the published rounds as CSV, with each side's points.
    ResultsCsv,
    /// The results for the EGF rating list (`.h9`, ASCII).
    EgfH9,
}

impl Doc {
    /// Whether the document belongs to one round (asked for with a [`RoundDoc`]); the others
    /// belong to the tournament ([`TournamentDoc`]).
    pub fn of_round(self) -> bool {
        matches!(self, Doc::Scoresheets(_) | Doc::PairingList(..) | Doc::RecordSheets(_) | Doc::PairingsCsv)
    }

    pub fn content_type(self) -> &'static str {
        match self {
            Doc::PairingsCsv | Doc::StandingsCsv | Doc::ResultsCsv => "text/csv; charset=utf-8",
            Doc::EgfH9 => "text/plain; charset=us-ascii",
            _ => "application/pdf",
        }
    }

    fn extension(self) -> &'static str {
        match self {
            Doc::PairingsCsv | Doc::StandingsCsv | Doc::ResultsCsv => "csv",
            Doc::EgfH9 => "h9",
            _ => "pdf",
        }
    }

    /// The part of the file name after the tournament's: ASCII, and in the print language.
    /// `n` is the round of a round's document.
    fn file_labels(self, n: i32, lang: Lang) -> (String, String) {
        let a3 = |p: Paper| if p == Paper::A3 { "-a3" } else { "" };
        let a3_label = |p: Paper| if p == Paper::A3 { " A3" } else { "" };
        let (ascii, zh, en) = match self {
            Doc::Standings(p) => (
                format!("standings{}", a3(p)),
                format!("成绩排名表{}", a3_label(p)),
                format!("standings{}", a3_label(p)),
            ),
            Doc::Crosstable(p) => (
                format!("crosstable{}", a3(p)),
                format!("成绩交叉表{}", a3_label(p)),
                format!("crosstable{}", a3_label(p)),
            ),
            Doc::StandingsCsv => ("standings".into(), "成绩排名".into(), "standings".into()),
            Doc::ResultsCsv => ("results".into(), "对局结果".into(), "results".into()),
            Doc::EgfH9 => ("egf".into(), "EGF".into(), "EGF".into()),
            Doc::Scoresheets(pp) => (
                format!("round{n}-scoresheets-{}up", pp.count()),
                format!("第{n}轮记录单"),
                format!("round {n} scoresheets"),
            ),
            Doc::PairingList(PairingOrder::ByTable, p) => (
                format!("round{n}-pairings-by-table{}", a3(p)),
                format!("第{n}轮对阵表（按台号）{}", a3_label(p)),
                format!("round {n} pairings by table{}", a3_label(p)),
            ),
            Doc::PairingList(PairingOrder::ByName, p) => (
                format!("round{n}-pairings-by-name{}", a3(p)),
                format!("第{n}轮对阵表（按姓名）{}", a3_label(p)),
                format!("round {n} pairings by name{}", a3_label(p)),
            ),
            Doc::RecordSheets(p) => (
                format!("round{n}-record-sheets{}", a3(p)),
                format!("第{n}轮棋谱记录纸{}", a3_label(p)),
                format!("round {n} game records{}", a3_label(p)),
            ),
            Doc::PairingsCsv => {
                (format!("round{n}-pairings"), format!("第{n}轮对阵表"), format!("round {n} pairings"))
            }
        };
        (ascii, lang.pick(&zh, &en).to_string())
    }
}

/// A document of round `round` of tournament `tid`, for `audience`, labelled in `lang`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RoundDoc {
    pub tid: i32,
    pub round: i32,
    pub doc: Doc,
    pub lang: Lang,
    pub audience: Audience,
}

/// A document of the whole tournament, in `lang`. It counts the published rounds only, for
/// staff and public alike (standings are made of results, and a draft has none); who may have
/// it is the caller's decision (the EGF file is for staff).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TournamentDoc {
    pub tid: i32,
    pub doc: Doc,
    pub lang: Lang,
}

/// What [`RoundDoc::load`] or [`TournamentDoc::load`] read: ready to render.
#[derive(Debug, Clone)]
pub struct Loaded {
    doc: Doc,
    lang: Lang,
    /// The round of a round's document (0 for the tournament's).
    round: i32,
    data: Data,
}

#[derive(Debug, Clone)]
enum Data {
    Tables(pd::RoundTables),
    Pairings(pd::RoundPairings),
    Standings(pd::EventStandings),
    Crosstable(pd::EventCrosstable),
    Results(pd::EventResults),
    Egf(pd::EventEgf),
}

fn wrong_kind(doc: Doc) -> DbError {
    DbError::Other(format!("{doc:?} is not asked for this way"))
}

impl RoundDoc {
    /// Reads the document's data. Unknown tournament or round, or a draft for the public:
    /// [`DbError::NotFound`].
    pub fn load(&self, conn: &mut SqliteConnection) -> Result<Loaded, DbError> {
        let (tid, n, who, lang) = (self.tid, self.round, self.audience, self.lang);
        let data = match self.doc {
            Doc::Scoresheets(_) | Doc::RecordSheets(_) => {
                Data::Tables(pd::round_tables(conn, tid, n, who, lang)?)
            }
            Doc::PairingList(..) | Doc::PairingsCsv => {
                Data::Pairings(pd::round_pairings(conn, tid, n, who, lang)?)
            }
            doc => return Err(wrong_kind(doc)),
        };
        Ok(Loaded { doc: self.doc, lang, round: n, data })
    }
}

impl TournamentDoc {
    /// Reads the document's data. Unknown tournament: [`DbError::NotFound`].
    pub fn load(&self, conn: &mut SqliteConnection) -> Result<Loaded, DbError> {
        let (tid, lang) = (self.tid, self.lang);
        let data = match self.doc {
            Doc::Standings(_) | Doc::StandingsCsv => Data::Standings(pd::standings(conn, tid, lang)?),
            Doc::Crosstable(_) => Data::Crosstable(pd::crosstable(conn, tid, lang)?),
            Doc::ResultsCsv => Data::Results(pd::results(conn, tid, lang)?),
            Doc::EgfH9 => Data::Egf(pd::egf(conn, tid)?),
            doc => return Err(wrong_kind(doc)),
        };
        Ok(Loaded { doc: self.doc, lang, round: 0, data })
    }
}

/// A file to hand over: its bytes, type and names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Download {
    pub bytes: Vec<u8>,
    pub content_type: &'static str,
    /// ASCII only, safe in any header and file system: "Tengen-Cup-round1-scoresheets-4up.pdf".
    pub filename: String,
    /// The name to show: the tournament's name in the print language, "天元杯 第1轮记录单.pdf".
    pub filename_utf8: String,
}

impl Download {
    /// `attachment; filename="…"; filename*=UTF-8''…` (RFC 6266 / RFC 5987).
    pub fn content_disposition(&self) -> String {
        format!(
            "attachment; filename=\"{}\"; filename*=UTF-8''{}",
            self.filename,
            percent_encode(&self.filename_utf8)
        )
    }
}

impl Loaded {
    /// The number of lines the document has: boards of a round (byes not counted), players of
    /// the standings, crosstable or EGF file, games and byes of the results.
    pub fn tables(&self) -> usize {
        match &self.data {
            Data::Tables(t) => t.tables.len(),
            Data::Pairings(p) => p.rows.len(),
            Data::Standings(s) => s.rows.len(),
            Data::Crosstable(c) => c.rows.len(),
            Data::Results(r) => r.rows.len(),
            Data::Egf(e) => e.file.as_ref().map_or(0, |(_, p)| p.len()),
        }
    }

    /// Whether the round is published (a draft's sheets say "draft"); the tournament's
    /// documents count published rounds only.
    pub fn published(&self) -> bool {
        match &self.data {
            Data::Tables(t) => t.head.round.published,
            Data::Pairings(p) => p.head.round.published,
            _ => true,
        }
    }

    /// The last round the standings-based documents count (0 for a round's document).
    pub fn after_round(&self) -> u32 {
        match &self.data {
            Data::Standings(s) => s.sheet.round,
            Data::Crosstable(c) => c.sheet.round,
            _ => 0,
        }
    }

    /// Lays out and writes the document. Data the format cannot hold (an EGF file of players
    /// without Latin names) is [`PrintError::Invalid`], naming the player.
    pub fn render(&self) -> Result<Download, PrintError> {
        let lang = self.lang;
        let opts = |paper| PdfOptions { lang, paper, landscape: false, font: None };
        let (bytes, t) = match (&self.data, self.doc) {
            (Data::Tables(d), Doc::Scoresheets(per_page)) => {
                (scoresheets(&d.head.sheet, &d.tables, per_page, &opts(Paper::A4))?, &d.head.t)
            }
            (Data::Tables(d), Doc::RecordSheets(paper)) => {
                (record_sheets(&d.head.sheet, &d.tables, &opts(paper))?, &d.head.t)
            }
            (Data::Pairings(d), Doc::PairingList(order, paper)) => {
                (pairing_list(&d.head.sheet, &d.rows, &d.byes, order, &opts(paper))?, &d.head.t)
            }
            (Data::Pairings(d), Doc::PairingsCsv) => {
                let mut rows = d.rows.clone();
                rows.extend(d.byes.iter().map(|p| PairingRow {
                    table: 0,
                    black: p.clone(),
                    result: lang.pick("轮空", "Bye").to_string(),
                    ..PairingRow::default()
                }));
                (pairings_csv(&rows, lang), &d.head.t)
            }
            (Data::Standings(d), Doc::Standings(paper)) => {
                (standings(&d.sheet, &d.rows, &opts(paper))?, &d.t)
            }
            (Data::Standings(d), Doc::StandingsCsv) => (standings_csv(&d.rows, lang)?, &d.t),
            (Data::Crosstable(d), Doc::Crosstable(paper)) => {
                let o = PdfOptions { landscape: true, ..opts(paper) };
                (crosstable(&d.sheet, &d.rows, &o)?, &d.t)
            }
            (Data::Results(d), Doc::ResultsCsv) => (results_csv(&d.rows, lang), &d.t),
            (Data::Egf(d), Doc::EgfH9) => {
                let (t, players) = d.file.as_ref().map_err(|e| PrintError::Invalid(e.clone()))?;
                (egf_h9(t, players)?.into_bytes(), &d.t)
            }
            // `load` pairs each document with its data.
            _ => return Err(PrintError::Invalid("the loaded data does not fit the document".into())),
        };
        let (ascii, label) = self.doc.file_labels(self.round, lang);
        let ext = self.doc.extension();
        Ok(Download {
            bytes,
            content_type: self.doc.content_type(),
            filename: format!("{}-{ascii}.{ext}", ascii_stem(t)),
            filename_utf8: format!("{} {label}.{ext}", display_stem(t, lang)),
        })
    }
}

/// The tournament for OpenGotha (published rounds only), as a file.
pub fn opengotha(
    conn: &mut SqliteConnection,
    tid: i32,
    saved: chrono::NaiveDateTime,
) -> Result<Download, DbError> {
    let t = tdb::get(conn, tid)?;
    let out = pd::opengotha(conn, tid, saved)?;
    Ok(Download {
        bytes: write_opengotha(&out),
        content_type: "application/xml; charset=utf-8",
        filename: format!("{}-opengotha.xml", ascii_stem(&t)),
        filename_utf8: format!("{} OpenGotha.xml", display_stem(&t, Lang::Zh)),
    })
}

/// The tournament's Latin name with everything but ASCII letters and digits turned into
/// single hyphens, at most 60 characters; `tengen-t{id}` when nothing is left.
fn ascii_stem(t: &TournamentRow) -> String {
    let mut s = String::new();
    for c in t.name_latin.chars() {
        if c.is_ascii_alphanumeric() {
            s.push(c);
        } else if !s.ends_with('-') {
            s.push('-');
        }
    }
    let s: String = s.trim_matches('-').chars().take(60).collect();
    let s = s.trim_end_matches('-').to_string();
    if s.is_empty() {
        format!("tengen-t{}", t.id)
    } else {
        s
    }
}

/// The tournament's name in `lang` (or the other), without the characters file systems refuse.
fn display_stem(t: &TournamentRow, lang: Lang) -> String {
    let name = t.name(lang == Lang::Zh);
    let s: String = name
        .chars()
        .map(|c| if c.is_control() || "/\\:*?\"<>|".contains(c) { '_' } else { c })
        .take(80)
        .collect();
    let s = s.trim().to_string();
    if s.is_empty() {
        format!("tengen-t{}", t.id)
    } else {
        s
    }
}

/// RFC 5987 `value-chars`: attr-chars as they are, every other byte as %XX.
fn percent_encode(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"!#$&+-.^_`|~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Options: the same words in a query string and on the command line.

/// A document option.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opt {
    PerPage,
    Order,
    Paper,
    Lang,
}

impl Opt {
    /// Its name in a query string.
    pub fn query_name(self) -> &'static str {
        match self {
            Opt::PerPage => "per_page",
            Opt::Order => "order",
            Opt::Paper => "paper",
            Opt::Lang => "lang",
        }
    }
    /// Its name on the command line.
    pub fn flag(self) -> &'static str {
        match self {
            Opt::PerPage => "--per-page",
            Opt::Order => "--order",
            Opt::Paper => "--paper",
            Opt::Lang => "--lang",
        }
    }
    /// The values it takes.
    pub fn allowed(self) -> &'static [&'static str] {
        match self {
            Opt::PerPage => &["2", "4"],
            Opt::Order => &["table", "name"],
            Opt::Paper => &["a4", "a3"],
            Opt::Lang => &["zh", "en"],
        }
    }
}

/// An option value that is not one of [`Opt::allowed`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadOption {
    pub opt: Opt,
    /// What was given (at most 40 characters of it).
    pub got: String,
}

impl BadOption {
    fn new(opt: Opt, got: &str) -> BadOption {
        BadOption { opt, got: got.chars().take(40).collect() }
    }
    /// The allowed values as "2 or 4".
    pub fn allowed_text(&self) -> String {
        self.opt.allowed().join(" or ")
    }
}

impl std::fmt::Display for BadOption {
    /// The command line's message: `--per-page must be 2 or 4, not "3"`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} must be {}, not {:?}", self.opt.flag(), self.allowed_text(), self.got)
    }
}

fn pick<T: Copy>(opt: Opt, s: &str, values: [T; 2]) -> Result<T, BadOption> {
    let v = s.trim().to_ascii_lowercase();
    opt.allowed().iter().position(|a| *a == v).map(|i| values[i]).ok_or_else(|| BadOption::new(opt, s))
}

/// `2` or `4`.
pub fn parse_per_page(s: &str) -> Result<SheetsPerPage, BadOption> {
    pick(Opt::PerPage, s, [SheetsPerPage::Two, SheetsPerPage::Four])
}

/// `table` or `name`.
pub fn parse_order(s: &str) -> Result<PairingOrder, BadOption> {
    pick(Opt::Order, s, [PairingOrder::ByTable, PairingOrder::ByName])
}

/// `a4` or `a3` (any case).
pub fn parse_paper(s: &str) -> Result<Paper, BadOption> {
    pick(Opt::Paper, s, [Paper::A4, Paper::A3])
}

/// `zh` or `en`.
pub fn parse_lang(s: &str) -> Result<Lang, BadOption> {
    pick(Opt::Lang, s, [Lang::Zh, Lang::En])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(name_zh: &str, name_latin: &str) -> TournamentRow {
        TournamentRow {
            id: 7,
            name_zh: name_zh.into(),
            name_latin: name_latin.into(),
            venue: String::new(),
            start_date: "2026-12-05".into(),
            end_date: "2026-12-05".into(),
            system: "swiss".into(),
            rounds: 5,
            ruleset: String::new(),
            points_scale: String::new(),
            tiebreaks: String::new(),
            colour_method: String::new(),
            lateness: String::new(),
            bye_value: String::new(),
            bye_sos: String::new(),
            same_unit: String::new(),
            time_control: String::new(),
            version: 1,
            created_at: String::new(),
            updated_at: String::new(),
            double_loss: String::new(),
            late_entry: String::new(),
            forfeit_sos: String::new(),
            lots_seed: 0,
            pairing_rules: String::new(),
        }
    }

    #[test]
    fn file_names_are_ascii_with_a_utf8_twin() {
        let t = row("第一届“天元杯”/公开赛", "1st Tengen Cup: Open (Beijing)");
        assert_eq!(ascii_stem(&t), "1st-Tengen-Cup-Open-Beijing");
        assert_eq!(display_stem(&t, Lang::Zh), "第一届“天元杯”_公开赛");
        assert_eq!(display_stem(&t, Lang::En), "1st Tengen Cup_ Open (Beijing)");
        assert_eq!(ascii_stem(&row("天元杯", "")), "tengen-t7");
        assert_eq!(ascii_stem(&row("", "Ünïcode")), "n-code");
        let d = Download {
            bytes: vec![],
            content_type: "application/pdf",
            filename: "a-b.pdf".into(),
            filename_utf8: "天元 1.pdf".into(),
        };
        assert_eq!(
            d.content_disposition(),
            "attachment; filename=\"a-b.pdf\"; filename*=UTF-8''%E5%A4%A9%E5%85%83%201.pdf"
        );
        let (ascii, zh) = Doc::PairingList(PairingOrder::ByName, Paper::A3).file_labels(2, Lang::Zh);
        assert_eq!((ascii.as_str(), zh.as_str()), ("round2-pairings-by-name-a3", "第2轮对阵表（按姓名） A3"));
        // The tournament's documents name no round.
        let (ascii, zh) = Doc::Standings(Paper::A3).file_labels(0, Lang::Zh);
        assert_eq!((ascii.as_str(), zh.as_str()), ("standings-a3", "成绩排名表 A3"));
        let (ascii, en) = Doc::ResultsCsv.file_labels(0, Lang::En);
        assert_eq!((ascii.as_str(), en.as_str()), ("results", "results"));
        assert_eq!(
            (Doc::EgfH9.extension(), Doc::EgfH9.content_type()),
            ("h9", "text/plain; charset=us-ascii")
        );
        assert!(
            Doc::PairingsCsv.of_round()
                && !Doc::Crosstable(Paper::A4).of_round()
                && !Doc::StandingsCsv.of_round()
        );
    }

    #[test]
    fn options_take_their_words_and_name_them_when_refused() {
        assert_eq!(parse_per_page("2"), Ok(SheetsPerPage::Two));
        assert_eq!(parse_per_page(" 4 "), Ok(SheetsPerPage::Four));
        assert_eq!(parse_order("name"), Ok(PairingOrder::ByName));
        assert_eq!(parse_paper("A3"), Ok(Paper::A3));
        assert_eq!(parse_lang("en"), Ok(Lang::En));
        let e = parse_per_page("3").unwrap_err();
        assert_eq!(e.to_string(), "--per-page must be 2 or 4, not \"3\"");
        assert_eq!(e.opt.query_name(), "per_page");
        assert_eq!(parse_lang(&"x".repeat(100)).unwrap_err().got.len(), 40);
        assert!(parse_order("score").is_err() && parse_paper("a5").is_err() && parse_lang("fr").is_err());
    }
}
