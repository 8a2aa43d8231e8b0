//! The downloadable documents, made the same way for the web routes and the command line
//! (`tengen print …`, `tengen export …`): the options are read from the same words (a query
//! string's `per_page=4`, the command line's `--per-page 4`), the data comes from
//! [`crate::office::print_data`], the bytes from [`crate::print`] (or the OpenGotha writer), and
//! the file is named here.
//!
//! Two steps, so that the web can load inside a database connection and render outside it:
//! [`RoundDoc::load`] or [`TournamentDoc::load`] (database) then [`Loaded::render`] (CPU only).
//!
//! A document belongs to a round (scoresheets, pairing lists, record sheets, pairings CSV, table
//! cards, the results notice:
//! asked for with a [`RoundDoc`]) or to the whole tournament (standings wall chart, crosstable,
//! standings and results CSV, EGF `.h9`: a [`TournamentDoc`], counting the published rounds,
//! or with `round=N` only rounds 1 to N: the standings after round N as the public standings
//! page shows them with `?round=N`).
//! Adding a document is one [`Doc`] variant, its loader in `office::print_data` (if it reads other data
//! than the existing ones) and one arm in [`Loaded::render`].

use crate::db::Conn;
use crate::i18n::tr;

use crate::db::prizes::Template;
use crate::db::tournaments::{self as tdb, TournamentRow};
use crate::db::DbError;
use crate::formats::csv_export::{pairings_csv, results_csv, standings_csv};
use crate::formats::egf::egf_h9;
use crate::formats::opengotha::write::write_opengotha;
use crate::office::print_data::{self as pd, Audience};
use crate::office::prizes::{prize_list, PrizeList};
use crate::print::{
    certificates, crosstable, hall_poster, pairing_list, prize_list as prize_list_pdf, record_sheets,
    results_notice, scoresheets, standings, table_cards, team_sheets, CardFormat, Certificate,
    CertificateStyle, DataProblem, Lang, PairingOrder, PairingRow, Paper, PdfOptions, PrintError,
    PrizeListRow, SheetsPerPage,
};
use chrono::Datelike;

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
    /// 台卡: one per board, an A4 folded tent or four A6 per page, with a QR code to the
    /// table's public pairing when the public address is known ([`Loaded::with_public_url`]).
    TableCards(CardFormat),
    /// 成绩公告: a published round's results by table and the standings after it.
    ResultsNotice,
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
    /// 团体赛记录表: the line-up forms and the record sheet of one relay match (a [`MatchDoc`]).
    TeamSheets,
    /// 获奖名单: each prize with its winner, for the ceremony.
    PrizeList,
    /// 获奖证书: one A4 landscape page per winner, in the organizer's template; the prize of
    /// that position in the precedence list only, or every winner (0).
    Certificates(u32),
    /// 大厅海报: the event's name, venue and dates, a QR code of its public page and one of the
    /// phone check-in form with the code filled in, the code large; A4 or A3 (an [`EventDoc`]).
    HallPoster(Paper),
}

impl Doc {
    /// Whether the document belongs to one round (asked for with a [`RoundDoc`]); the others
    /// belong to the tournament ([`TournamentDoc`]).
    pub fn of_round(self) -> bool {
        matches!(
            self,
            Doc::Scoresheets(_)
                | Doc::PairingList(..)
                | Doc::RecordSheets(_)
                | Doc::PairingsCsv
                | Doc::TableCards(_)
                | Doc::ResultsNotice
        )
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
    /// `n` is the round of a round's document; of the tournament's, the round asked for with
    /// `round=N` (0 when none was: the latest standings name no round).
    fn file_labels(self, n: i32, table: u32, lang: Lang) -> (String, String) {
        let a3 = |p: Paper| if p == Paper::A3 { "-a3" } else { "" };
        let a3_label = |p: Paper| if p == Paper::A3 { " A3" } else { "" };
        // "standings-after-round2" / "第2轮后成绩排名表" / "standings after round 2".
        let after = if n > 0 { format!("-after-round{n}") } else { String::new() };
        let whole = |key: &str, p: Paper| {
            let label =
                if n > 0 { tr!(lang, &format!("{key}_after"), round = n) } else { lang.t(key).to_string() };
            format!("{label}{}", a3_label(p))
        };
        let of_round = |key: &str, p: Paper| format!("{}{}", tr!(lang, key, round = n), a3_label(p));
        match self {
            Doc::Standings(p) => (format!("standings{after}{}", a3(p)), whole("file.standings", p)),
            Doc::Crosstable(p) => (format!("crosstable{after}{}", a3(p)), whole("file.crosstable", p)),
            Doc::StandingsCsv => (format!("standings{after}"), whole("file.standings_csv", Paper::A4)),
            Doc::ResultsCsv if n > 0 => {
                (format!("results-to-round{n}"), of_round("file.results_to", Paper::A4))
            }
            Doc::ResultsCsv => ("results".into(), lang.t("file.results").into()),
            Doc::EgfH9 => ("egf".into(), "EGF".into()),
            Doc::Scoresheets(pp) => {
                (format!("round{n}-scoresheets-{}up", pp.count()), of_round("file.scoresheets", Paper::A4))
            }
            Doc::PairingList(PairingOrder::ByTable, p) => {
                (format!("round{n}-pairings-by-table{}", a3(p)), of_round("file.pairings_by_table", p))
            }
            Doc::PairingList(PairingOrder::ByName, p) => {
                (format!("round{n}-pairings-by-name{}", a3(p)), of_round("file.pairings_by_name", p))
            }
            Doc::RecordSheets(p) => {
                (format!("round{n}-record-sheets{}", a3(p)), of_round("file.record_sheets", p))
            }
            Doc::PairingsCsv => (format!("round{n}-pairings"), of_round("file.pairings", Paper::A4)),
            Doc::TableCards(CardFormat::Tent) => {
                (format!("round{n}-table-cards-tent"), of_round("file.table_cards_tent", Paper::A4))
            }
            Doc::TableCards(CardFormat::A6) => {
                (format!("round{n}-table-cards-a6"), of_round("file.table_cards_a6", Paper::A4))
            }
            Doc::ResultsNotice => {
                (format!("round{n}-results-notice"), of_round("file.results_notice", Paper::A4))
            }
            Doc::TeamSheets => {
                (format!("round{n}-match{table}-sheets"), tr!(lang, "file.team_sheets", round = n, table))
            }
            Doc::PrizeList => ("prizes".into(), lang.t("prize.list_title").into()),
            Doc::Certificates(0) => ("certificates".into(), lang.t("cert.title").into()),
            Doc::Certificates(k) => (format!("certificate-{k}"), format!("{} {k}", lang.t("cert.title"))),
            Doc::HallPoster(p) => {
                (format!("hall-poster{}", a3(p)), format!("{}{}", lang.t("file.poster"), a3_label(p)))
            }
        }
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

/// A document of round `round` of every group of event `event` (the hall's: the pairing list
/// by table, the table cards), for `audience`, labelled in `lang`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EventRoundDoc {
    pub event: i32,
    pub round: i32,
    pub doc: Doc,
    pub lang: Lang,
    pub audience: Audience,
}

impl EventRoundDoc {
    /// Reads the groups' data, in hall order. No group with the round (for the public: with it
    /// published): [`DbError::NotFound`].
    pub fn load(&self, conn: &mut Conn) -> Result<Loaded, DbError> {
        let (event, n, who, lang) = (self.event, self.round, self.audience, self.lang);
        let data = match self.doc {
            Doc::PairingList(..) => Data::Pairings(pd::hall_pairings(conn, event, n, who, lang)?),
            Doc::TableCards(_) => Data::Cards(pd::hall_cards(conn, event, n, who, lang)?),
            doc => return Err(wrong_kind(doc)),
        };
        Ok(Loaded { doc: self.doc, lang, round: n, data })
    }
}

/// A document of a whole event (the hall poster), in `lang`, for its staff.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EventDoc {
    pub event: i32,
    pub doc: Doc,
    pub lang: Lang,
}

impl EventDoc {
    /// Reads the event's data. Unknown event: [`DbError::NotFound`].
    pub fn load(&self, conn: &mut Conn) -> Result<Loaded, DbError> {
        let data = match self.doc {
            Doc::HallPoster(_) => Data::Poster(Box::new(pd::hall_poster(conn, self.event, self.lang)?)),
            doc => return Err(wrong_kind(doc)),
        };
        Ok(Loaded { doc: self.doc, lang: self.lang, round: 0, data })
    }
}

/// A document of the whole tournament, in `lang`. It counts the published rounds only, for
/// staff and public alike (standings are made of results, and a draft has none); who may have
/// it is the caller's decision (the EGF file is for staff).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TournamentDoc {
    pub tid: i32,
    pub doc: Doc,
    pub lang: Lang,
    /// `round=N` ([`parse_round`]): the standings and crosstable after round N, the results of
    /// rounds 1 to N. `None`: every published round (the latest standings). The EGF file
    /// ignores it (the rating list takes the whole event).
    pub round: Option<u32>,
}

/// The printed sheets of relay match `mid` of team event `tid`, labelled in `lang` (staff).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatchDoc {
    pub tid: i32,
    pub mid: i32,
    pub lang: Lang,
}

impl MatchDoc {
    /// Reads the match and lays its sheets' texts out; renders with [`Loaded::render`].
    pub fn load(&self, conn: &mut Conn) -> Result<Loaded, pd::MatchSheetsError> {
        let sheets = pd::match_sheets(conn, self.tid, self.mid, self.lang)?;
        let round = i32::try_from(sheets.header.tournament.round).unwrap_or(0);
        Ok(Loaded { doc: Doc::TeamSheets, lang: self.lang, round, data: Data::TeamSheets(Box::new(sheets)) })
    }
}

/// Why a tournament's document cannot be made: the database's reason, or a `round` beyond the
/// last published round (the caller answers it like any other bad option: 400, exit code 1).
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error(transparent)]
    Db(#[from] DbError),
    #[error("{0}")]
    Option(BadOption),
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
    TeamSheets(Box<pd::MatchSheets>),
    Cards(pd::RoundCards),
    Notice(Box<pd::RoundNotice>),
    Prizes(Box<PrizeList>),
    Poster(Box<pd::EventPoster>),
}

fn wrong_kind(doc: Doc) -> DbError {
    DbError::Other(format!("{doc:?} is not asked for this way"))
}

impl RoundDoc {
    /// Reads the document's data. Unknown tournament or round, or a draft for the public:
    /// [`DbError::NotFound`].
    pub fn load(&self, conn: &mut Conn) -> Result<Loaded, DbError> {
        let (tid, n, who, lang) = (self.tid, self.round, self.audience, self.lang);
        let data = match self.doc {
            Doc::Scoresheets(_) | Doc::RecordSheets(_) => {
                Data::Tables(pd::round_tables(conn, tid, n, who, lang)?)
            }
            Doc::PairingList(..) | Doc::PairingsCsv => {
                Data::Pairings(pd::round_pairings(conn, tid, n, who, lang)?)
            }
            Doc::TableCards(_) => Data::Cards(pd::round_cards(conn, tid, n, who, lang)?),
            // Published rounds only, for staff as for the public: a notice is of results.
            Doc::ResultsNotice => Data::Notice(Box::new(pd::results_notice(conn, tid, n, lang)?)),
            doc => return Err(wrong_kind(doc)),
        };
        Ok(Loaded { doc: self.doc, lang, round: n, data })
    }
}

impl TournamentDoc {
    /// Reads the document's data. Unknown tournament: [`DbError::NotFound`]; a `round` beyond
    /// the last published round: [`LoadError::Option`].
    pub fn load(&self, conn: &mut Conn) -> Result<Loaded, LoadError> {
        let (tid, lang) = (self.tid, self.lang);
        let round = match self.doc {
            Doc::EgfH9 => None,
            _ => self.round,
        };
        if let Some(n) = round {
            tdb::get(conn, tid)?;
            let (_, last) = tdb::published_rounds(conn, tid)?;
            check_round(n, last).map_err(LoadError::Option)?;
        }
        let data = match self.doc {
            Doc::Standings(_) | Doc::StandingsCsv => Data::Standings(pd::standings(conn, tid, round, lang)?),
            Doc::Crosstable(_) => Data::Crosstable(pd::crosstable(conn, tid, round, lang)?),
            Doc::ResultsCsv => Data::Results(pd::results(conn, tid, round, lang)?),
            Doc::EgfH9 => Data::Egf(pd::egf(conn, tid)?),
            Doc::PrizeList | Doc::Certificates(_) => Data::Prizes(Box::new(prize_list(conn, tid, lang)?)),
            doc => return Err(wrong_kind(doc).into()),
        };
        let mut loaded = Loaded { doc: self.doc, lang, round: 0, data };
        // The file names the round the document is after: the one asked for, or the last
        // round with a result when fewer have one (as the standings page does).
        if let Some(n) = round {
            let after = match loaded.after_round() {
                0 => n,
                a => a.min(n),
            };
            loaded.round = i32::try_from(after).unwrap_or(0);
        }
        Ok(loaded)
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
            Data::TeamSheets(m) => m.forms.len(),
            Data::Cards(c) => c.cards.len(),
            Data::Notice(n) => n.results.len(),
            Data::Prizes(p) => match self.doc {
                Doc::Certificates(k) => certified(p, k).count(),
                _ => p.lines.len(),
            },
            Data::Poster(_) => 1,
        }
    }

    /// Gives each table card the address of its table's public pairing under `base` (the
    /// server's `--public-url`), and the hall poster its event's and check-in form's; without
    /// one they have no QR code rather than a wrong one. Other documents are left as they are.
    pub fn with_public_url(mut self, base: Option<&str>) -> Loaded {
        if let (Data::Poster(p), Some(base)) = (&mut self.data, base) {
            pd::poster_links(p, base);
        }
        if let (Data::Cards(c), Some(base)) = (&mut self.data, base) {
            let (tid, n) = (c.head.t.id, c.head.round.number);
            for (i, card) in c.cards.iter_mut().enumerate() {
                let tid = c.groups.get(i).copied().unwrap_or(tid);
                card.link = Some(pd::table_link(base, tid, n, card.sheet.table));
            }
        }
        self
    }

    /// The certificates in `style` rather than the organizer's stored template (the command
    /// line's `--style`, to print on other paper). Other documents are left as they are.
    pub fn with_style(mut self, style: Option<Template>) -> Loaded {
        if let (Data::Prizes(p), Some(style)) = (&mut self.data, style) {
            p.settings.template = style;
        }
        self
    }

    /// Whether the round is published (a draft's sheets say "draft"); the tournament's
    /// documents count published rounds only.
    pub fn published(&self) -> bool {
        match &self.data {
            Data::Tables(t) => t.head.round.published,
            Data::Pairings(p) => p.head.round.published,
            Data::Cards(c) => c.head.round.published,
            _ => true,
        }
    }

    /// The last round the standings-based documents count (0 for a round's document).
    pub fn after_round(&self) -> u32 {
        match &self.data {
            Data::Standings(s) => s.sheet.round,
            Data::Crosstable(c) => c.sheet.round,
            Data::Prizes(p) => p.after_round,
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
                rows.extend(d.byes.iter().map(|b| PairingRow {
                    table: 0,
                    group: b.group.clone(),
                    black: b.player.clone(),
                    result: lang.t("r.bye_result").to_string(),
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
                // Typed: the caller words it in its reader's language, not the file's.
                let (t, players) = d.file.as_ref().map_err(|e| DataProblem::EgfRefused(e.clone()))?;
                (egf_h9(t, players)?.into_bytes(), &d.t)
            }
            (Data::Cards(d), Doc::TableCards(format)) => {
                (table_cards(&d.head.sheet, &d.cards, format, &opts(Paper::A4))?, &d.head.t)
            }
            (Data::Notice(d), Doc::ResultsNotice) => {
                (results_notice(&d.sheet, &d.results, &d.standings.rows, &opts(Paper::A4))?, &d.t)
            }
            (Data::TeamSheets(d), Doc::TeamSheets) => {
                (team_sheets(&d.header, &d.forms, &d.sheet, &opts(Paper::A4))?, &d.t)
            }
            (Data::Prizes(p), Doc::PrizeList) => {
                let details = tr!(lang, "prize.after_round", round = p.after_round);
                (prize_list_pdf(&event_name(&p.t, lang), &details, &prize_rows(p), &opts(Paper::A4))?, &p.t)
            }
            (Data::Prizes(p), Doc::Certificates(k)) => {
                let style = match p.settings.template {
                    Template::Classic => CertificateStyle::Classic,
                    Template::Plain => CertificateStyle::Plain,
                };
                (certificates(&certificate_data(p, k, lang), style, &opts(Paper::A4))?, &p.t)
            }
            (Data::Poster(d), Doc::HallPoster(paper)) => (hall_poster(&d.poster, &opts(paper))?, &d.t),
            // `load` pairs each document with its data.
            _ => return Err(DataProblem::WrongData.into()),
        };
        let table = match &self.data {
            Data::TeamSheets(d) => d.header.table,
            _ => 0,
        };
        let (ascii, label) = self.doc.file_labels(self.round, table, lang);
        let ext = self.doc.extension();
        Ok(Download {
            bytes,
            content_type: self.doc.content_type(),
            filename: format!("{}-{ascii}.{ext}", ascii_stem(t)),
            filename_utf8: format!("{} {label}.{ext}", display_stem(t, lang)),
        })
    }
}

/// The event's name in `lang` (the other language's when it has none).
fn event_name(t: &TournamentRow, lang: Lang) -> String {
    t.name(lang == Lang::Zh).to_string()
}

/// The prize list's lines: each prize, its amount and its winner (a shared place as "3=").
fn prize_rows(p: &PrizeList) -> Vec<PrizeListRow> {
    p.lines
        .iter()
        .map(|l| {
            let mut row =
                PrizeListRow { prize: l.name.clone(), amount: l.prize.amount.clone(), ..Default::default() };
            if let Some(w) = &l.winner {
                row.name = w.name.clone();
                row.rank = w.rank.clone();
                row.unit = w.unit.clone();
                row.place = w.place.clone();
                row.score = w.score.clone();
            }
            row
        })
        .collect()
}

/// The certificates of the prize at position `k` of the precedence list (every winner's for
/// 0), dated the event's last day (a date at the venue: the event's own calendar).
fn certificate_data(p: &PrizeList, k: u32, lang: Lang) -> Vec<Certificate> {
    let end = p.t.settings().end_date;
    let date = tr!(
        lang,
        "cert.date",
        year = end.year().to_string(),
        month = end.month().to_string(),
        day = end.day().to_string()
    );
    certified(p, k)
        .map(|(l, w)| Certificate {
            name: w.primary_name.clone(),
            unit: w.unit.clone(),
            event: event_name(&p.t, lang),
            prize: l.name.clone(),
            organizer: p.settings.organizer.clone(),
            date: date.clone(),
        })
        .collect()
}

/// The winners of the prize at position `k` of the precedence list (every winner for 0).
fn certified(
    p: &PrizeList,
    k: u32,
) -> impl Iterator<Item = (&crate::office::prizes::Line, &crate::office::prizes::Winner)> {
    p.awarded().filter(move |(l, _)| k == 0 || i64::from(l.prize.position) == i64::from(k))
}

/// The tournament for OpenGotha (published rounds only), as a file.
pub fn opengotha(
    conn: &mut Conn,
    tid: i32,
    saved: chrono::DateTime<chrono::Utc>,
) -> Result<Download, DbError> {
    let t = pd::titled(conn, tid)?;
    // The file's save stamp, as OpenGotha writes it: the event's wall clock, not UTC.
    let out = pd::opengotha(conn, tid, t.settings().time_zone.wall_clock(saved))?;
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
    /// The tournament's documents after round N: a number from 1 to the last published round.
    Round,
    /// The table cards' format.
    Format,
    /// The certificates' template (the command line's `--style`; the pages use the stored one).
    Style,
}

impl Opt {
    /// Its name in a query string.
    pub fn query_name(self) -> &'static str {
        match self {
            Opt::PerPage => "per_page",
            Opt::Order => "order",
            Opt::Paper => "paper",
            Opt::Lang => "lang",
            Opt::Round => "round",
            Opt::Format => "format",
            Opt::Style => "style",
        }
    }
    /// Its name on the command line.
    pub fn flag(self) -> &'static str {
        match self {
            Opt::PerPage => "--per-page",
            Opt::Order => "--order",
            Opt::Paper => "--paper",
            Opt::Lang => "--lang",
            Opt::Round => "--round",
            Opt::Format => "--format",
            Opt::Style => "--style",
        }
    }
    /// The words it takes (none for `round`, a number).
    pub fn allowed(self) -> &'static [&'static str] {
        match self {
            Opt::PerPage => &["2", "4"],
            Opt::Order => &["table", "name"],
            Opt::Paper => &["a4", "a3"],
            Opt::Lang => &["zh", "en"],
            Opt::Round => &[],
            Opt::Format => &["tent", "a6"],
            Opt::Style => &["classic", "plain"],
        }
    }
}

/// An option value that is not one of [`Opt::allowed`], or a `round` that is not a round
/// number or not a published round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadOption {
    pub opt: Opt,
    /// What was given (at most 40 characters of it).
    pub got: String,
    /// For `round`: the tournament's last published round (0: none yet) when the number was
    /// beyond it; `None` when it was not a round number at all.
    pub last_round: Option<u32>,
}

impl BadOption {
    fn new(opt: Opt, got: &str) -> BadOption {
        BadOption { opt, got: got.chars().take(40).collect(), last_round: None }
    }
    /// The allowed values as "2 or 4"; for `round`, "a round number from 1" or "1 to 3".
    pub fn allowed_text(&self) -> String {
        match (self.opt, self.last_round) {
            (Opt::Round, None) => "a round number from 1".into(),
            (Opt::Round, Some(0)) => "a published round (none is published yet)".into(),
            (Opt::Round, Some(1)) => "1 (the only published round)".into(),
            (Opt::Round, Some(n)) => format!("1 to {n} (the published rounds)"),
            (opt, _) => opt.allowed().join(" or "),
        }
    }
}

impl BadOption {
    /// The refusal in `lang`, naming the option as its reader wrote it: `name` is the query's
    /// `per_page` on a page, the flag `--per-page` on the command line.
    pub fn words(&self, lang: Lang, name: &str) -> String {
        let got = &self.got;
        match (self.opt, self.last_round) {
            (Opt::Round, None) => tr!(lang, "print.err_round", option = name, got),
            (Opt::Round, Some(0)) => tr!(lang, "print.err_round_none", option = name, got),
            (Opt::Round, Some(last)) => tr!(lang, "print.err_round_last", option = name, last, got),
            (opt, _) => {
                let allowed = opt.allowed().join(lang.t("print.or"));
                tr!(lang, "print.err_option", option = name, allowed, got)
            }
        }
    }
}

impl std::fmt::Display for BadOption {
    /// The command line's message: `--per-page must be 2 or 4, not "3"`,
    /// `--round must be 1 to 3 (the published rounds), not "7"`.
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

/// `tent` or `a6` (any case).
pub fn parse_format(s: &str) -> Result<CardFormat, BadOption> {
    pick(Opt::Format, s, [CardFormat::Tent, CardFormat::A6])
}

/// `classic` or `plain`: the certificates' template.
pub fn parse_style(s: &str) -> Result<Template, BadOption> {
    pick(Opt::Style, s, [Template::Classic, Template::Plain])
}

/// `zh` or `en`.
pub fn parse_lang(s: &str) -> Result<Lang, BadOption> {
    pick(Opt::Lang, s, [Lang::Zh, Lang::En])
}

/// A round number from 1 (digits only; whether the round is published is [`check_round`]'s
/// question, asked when the document is loaded).
pub fn parse_round(s: &str) -> Result<u32, BadOption> {
    let v = s.trim();
    let n = if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) { v.parse::<u32>().ok() } else { None };
    n.filter(|n| *n >= 1).ok_or_else(|| BadOption::new(Opt::Round, s))
}

/// Round `n` against the tournament's last published round `last`: standings after a round
/// not yet published would be the latest ones under another name, so it is refused.
pub fn check_round(n: u32, last: u32) -> Result<u32, BadOption> {
    if n >= 1 && n <= last {
        Ok(n)
    } else {
        Err(BadOption { last_round: Some(last), ..BadOption::new(Opt::Round, &n.to_string()) })
    }
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
            name_order: String::new(),
            time_zone: String::new(),
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
        let (ascii, zh) = Doc::PairingList(PairingOrder::ByName, Paper::A3).file_labels(2, 0, Lang::Zh);
        assert_eq!((ascii.as_str(), zh.as_str()), ("round2-pairings-by-name-a3", "第2轮对阵表（按姓名） A3"));
        // The tournament's documents name no round.
        let (ascii, zh) = Doc::Standings(Paper::A3).file_labels(0, 0, Lang::Zh);
        assert_eq!((ascii.as_str(), zh.as_str()), ("standings-a3", "成绩排名表 A3"));
        let (ascii, en) = Doc::ResultsCsv.file_labels(0, 0, Lang::En);
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
        assert_eq!((parse_format("A6"), parse_format(" tent")), (Ok(CardFormat::A6), Ok(CardFormat::Tent)));
        assert_eq!(parse_format("a5").unwrap_err().to_string(), "--format must be tent or a6, not \"a5\"");
        let (ascii, zh) = Doc::TableCards(CardFormat::Tent).file_labels(2, 0, Lang::Zh);
        assert_eq!((ascii.as_str(), zh.as_str()), ("round2-table-cards-tent", "第2轮台卡（对折）"));
        let (ascii, en) = Doc::ResultsNotice.file_labels(3, 0, Lang::En);
        assert_eq!((ascii.as_str(), en.as_str()), ("round3-results-notice", "round 3 results notice"));
        assert!(Doc::ResultsNotice.of_round() && Doc::TableCards(CardFormat::A6).of_round());
    }

    #[test]
    fn a_round_is_a_number_from_1_up_to_the_last_published_round() {
        assert_eq!(parse_round("2"), Ok(2));
        assert_eq!(parse_round(" 12 "), Ok(12));
        for bad in ["0", "00", "", " ", "-1", "+2", "2.0", "two", "二", "1e3", "99999999999999999999"] {
            let e = parse_round(bad).unwrap_err();
            assert_eq!((e.opt, e.last_round), (Opt::Round, None), "{bad:?}");
        }
        assert_eq!(
            parse_round("x").unwrap_err().to_string(),
            "--round must be a round number from 1, not \"x\""
        );
        assert_eq!(parse_round("0").unwrap_err().opt.query_name(), "round");
        assert_eq!(check_round(3, 3), Ok(3));
        assert_eq!(check_round(1, 3), Ok(1));
        let e = check_round(4, 3).unwrap_err();
        assert_eq!((e.got.as_str(), e.last_round), ("4", Some(3)));
        assert_eq!(e.to_string(), "--round must be 1 to 3 (the published rounds), not \"4\"");
        assert_eq!(check_round(2, 1).unwrap_err().allowed_text(), "1 (the only published round)");
        assert!(check_round(1, 0).unwrap_err().to_string().contains("none is published yet"));
        // The file names the round after which the document is.
        let (ascii, zh) = Doc::Standings(Paper::A3).file_labels(2, 0, Lang::Zh);
        assert_eq!((ascii.as_str(), zh.as_str()), ("standings-after-round2-a3", "第2轮后成绩排名表 A3"));
        let (ascii, en) = Doc::Crosstable(Paper::A4).file_labels(1, 0, Lang::En);
        assert_eq!((ascii.as_str(), en.as_str()), ("crosstable-after-round1", "crosstable after round 1"));
        let (ascii, zh) = Doc::ResultsCsv.file_labels(2, 0, Lang::Zh);
        assert_eq!((ascii.as_str(), zh.as_str()), ("results-to-round2", "截至第2轮对局结果"));
        let (ascii, _) = Doc::StandingsCsv.file_labels(3, 0, Lang::En);
        assert_eq!(ascii, "standings-after-round3");
    }
}
