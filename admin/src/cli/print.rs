//! `tengen print scoresheets|pairings|record-sheets --tournament ID --round N … --out FILE`:
//! a round's PDFs from the machine itself, the same documents as the round page's downloads
//! (both go through [`crate::documents`]). Drafts print too (marked as drafts), as for staff.
//!
//! `tengen print standings|crosstable --tournament ID [--paper a4|a3] [--lang zh|en] [--round N]
//! --out FILE`: the wall chart and the crosstable over the published rounds (with `--round N`,
//! after round N), as the standings pages' downloads.
//!
//! `tengen print table-cards --tournament ID --round N [--format tent|a6] [--public-url URL]
//! [--lang zh|en] --out FILE`: the table cards (台卡) of a round, each with a QR code to its
//! table's public pairing under `URL` (the server's `--public-url`; without it, no QR code).
//!
//! `tengen print results-notice --tournament ID --round N [--lang zh|en] --out FILE`: the
//! results notice (成绩公告) of a published round, as the public download.
//!
//! `tengen print poster --tournament ID [--paper a4|a3] [--public-url URL] [--lang zh|en] --out
//! FILE`: the hall poster (大厅海报) of the tournament's event, as its staff's download.
//!
//! `tengen print team-sheets --tournament ID --match MID [--lang zh|en] --out FILE`: the
//! line-up forms and record sheet of one relay match, as the match page's download.
//!
//! `tengen print prizes --tournament ID [--lang zh|en] --out FILE`: the prize list (获奖名单);
//! `tengen print certificates --tournament ID [--prize N] [--style classic|plain] [--lang zh|en]
//! --out FILE`: every winner's certificate (获奖证书), or the N-th prize's, in the organizer's
//! template unless `--style` names another: the staff pages' downloads.
//!
//! Errors are one line on stderr and exit code 1: an unknown tournament or round, a value not
//! allowed for an option (a `--round` that is not a published round), a file that cannot be
//! written. `--out -` writes to stdout.

use super::files::{check_tournament, open_existing, write_out, CliError, RoundArgs};
use crate::db::prizes::Template;
use crate::documents::{self as docs, Doc, RoundDoc, TournamentDoc};
use crate::i18n::{tr, Lang};
use crate::office::print_data::Audience;
use clap::{Args, Subcommand};
use std::path::Path;

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Scoresheets (记录单): 2 or 4 per A4 page, one per table.
    Scoresheets(ScoresheetArgs),
    /// Pairing list (对阵表) by table or by name, A4 or A3.
    Pairings(PairingArgs),
    /// Game record sheets (棋谱记录纸): a 19×19 grid, one page per table.
    RecordSheets(RecordArgs),
    /// Standings wall chart (成绩排名表) with the tie-break columns, published rounds.
    Standings(WallArgs),
    /// Crosstable (成绩交叉表): each round's opponent, result and colour, published rounds.
    Crosstable(WallArgs),
    /// Team sheets (团体赛记录表) of one relay match: line-up forms and the match record sheet.
    TeamSheets(MatchArgs),
    /// Table cards (台卡): an A4 folded tent or four A6 per page, one per table.
    TableCards(CardArgs),
    /// Results notice (成绩公告) of a published round: its results and the standings after it.
    ResultsNotice(NoticeArgs),
    /// Prize list (获奖名单): each prize with its winner, for the ceremony.
    Prizes(PrizeListArgs),
    /// Certificates (获奖证书): one A4 landscape page per winner.
    Certificates(CertificateArgs),
    /// Hall poster (大厅海报): the event's QR code and the check-in code, A4 or A3.
    Poster(PosterArgs),
}

/// The hall poster of a tournament's event.
#[derive(Args, Debug)]
pub struct PosterArgs {
    #[command(flatten)]
    pub of: PrizeListArgs,
    /// a4 or a3.
    #[arg(long, default_value = "a4")]
    pub paper: String,
    /// The server's public address (as `tengen serve --public-url`), for the QR codes; without
    /// it the poster has none.
    #[arg(long, value_name = "URL")]
    pub public_url: Option<String>,
}

/// Which tournament, the label language and where to write (the prize list, the poster).
#[derive(Args, Debug)]
pub struct PrizeListArgs {
    /// Tournament id (as in the address /t/ID).
    #[arg(long)]
    pub tournament: i32,
    /// Language of the labels: zh or en.
    #[arg(long, default_value = "zh")]
    pub lang: String,
    /// Output file (`-` for stdout).
    #[arg(long)]
    pub out: std::path::PathBuf,
}

#[derive(Args, Debug)]
pub struct CertificateArgs {
    #[command(flatten)]
    pub list: PrizeListArgs,
    /// Only the winner of the N-th prize (its place in the prize list, from 1).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub prize: Option<u32>,
    /// classic or plain (for pre-printed paper); default: the template set on the prizes page.
    #[arg(long)]
    pub style: Option<String>,
}

#[derive(Args, Debug)]
pub struct CardArgs {
    #[command(flatten)]
    pub round: RoundArgs,
    /// tent (A4, folded, one per table) or a6 (four per A4 sheet).
    #[arg(long, default_value = "tent")]
    pub format: String,
    /// The server's public address (as `tengen serve --public-url`), for the QR codes; without
    /// it the cards have none.
    #[arg(long, value_name = "URL")]
    pub public_url: Option<String>,
}

#[derive(Args, Debug)]
pub struct NoticeArgs {
    #[command(flatten)]
    pub round: RoundArgs,
}

/// Which relay match, the label language and where to write.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// Tournament id (as in the address /t/ID).
    #[arg(long)]
    pub tournament: i32,
    /// Match id (as in the address /t/ID/matches/MID).
    #[arg(long = "match", value_name = "MID")]
    pub match_id: i32,
    /// Language of the labels: zh or en.
    #[arg(long, default_value = "zh")]
    pub lang: String,
    /// Output file (`-` for stdout).
    #[arg(long)]
    pub out: std::path::PathBuf,
}

/// Which tournament, the paper, the label language and where to write.
#[derive(Args, Debug)]
pub struct WallArgs {
    /// Tournament id (as in the address /t/ID).
    #[arg(long)]
    pub tournament: i32,
    /// a4 or a3 (the same layout √2 larger, for a wall).
    #[arg(long, default_value = "a4")]
    pub paper: String,
    /// Language of the labels: zh or en.
    #[arg(long, default_value = "zh")]
    pub lang: String,
    /// The standings after round N (a published round); default: after the last round with a
    /// result.
    #[arg(long, value_name = "N")]
    pub round: Option<String>,
    /// Output file (`-` for stdout).
    #[arg(long)]
    pub out: std::path::PathBuf,
}

#[derive(Args, Debug)]
pub struct ScoresheetArgs {
    #[command(flatten)]
    pub round: RoundArgs,
    /// Scoresheets per A4 page: 2 or 4.
    #[arg(long, default_value = "4")]
    pub per_page: String,
}

#[derive(Args, Debug)]
pub struct PairingArgs {
    #[command(flatten)]
    pub round: RoundArgs,
    /// table (by table number) or name (by player, to find one's table).
    #[arg(long, default_value = "table")]
    pub order: String,
    /// a4 or a3.
    #[arg(long, default_value = "a4")]
    pub paper: String,
}

#[derive(Args, Debug)]
pub struct RecordArgs {
    #[command(flatten)]
    pub round: RoundArgs,
    /// a4 or a3 (a larger grid).
    #[arg(long, default_value = "a4")]
    pub paper: String,
}

pub fn run(db: &Path, cmd: Command) -> Result<(), CliError> {
    let bad = CliError::BadOption;
    let (args, doc) = match &cmd {
        Command::Scoresheets(a) => {
            (&a.round, Doc::Scoresheets(docs::parse_per_page(&a.per_page).map_err(bad)?))
        }
        Command::Pairings(a) => (
            &a.round,
            Doc::PairingList(
                docs::parse_order(&a.order).map_err(bad)?,
                docs::parse_paper(&a.paper).map_err(bad)?,
            ),
        ),
        Command::RecordSheets(a) => (&a.round, Doc::RecordSheets(docs::parse_paper(&a.paper).map_err(bad)?)),
        Command::Standings(a) | Command::Crosstable(a) => {
            let paper = docs::parse_paper(&a.paper).map_err(bad)?;
            let doc = match cmd {
                Command::Standings(_) => Doc::Standings(paper),
                _ => Doc::Crosstable(paper),
            };
            let lang = docs::parse_lang(&a.lang).map_err(bad)?;
            let round = parse_round(a.round.as_deref())?;
            return tournament_doc(db, TournamentDoc { tid: a.tournament, doc, lang, round }, &a.out, lang);
        }
        Command::Prizes(a) => return prize_doc(db, a, Doc::PrizeList, None),
        Command::Certificates(a) => {
            let style = a.style.as_deref().map(docs::parse_style).transpose()?;
            return prize_doc(db, &a.list, Doc::Certificates(a.prize.unwrap_or(0)), style);
        }
        Command::TeamSheets(a) => return match_doc(db, a),
        Command::TableCards(a) => {
            let doc = Doc::TableCards(docs::parse_format(&a.format).map_err(bad)?);
            let base = a.public_url.as_deref().map(super::serve::public_url_base).transpose()?;
            return round_doc_linked(db, &a.round, doc, base.as_deref());
        }
        Command::ResultsNotice(a) => (&a.round, Doc::ResultsNotice),
        Command::Poster(a) => return poster_doc(db, a),
    };
    round_doc(db, args, doc)
}

/// `--round N`, when given: a round number (whether it is published is checked on loading).
pub(super) fn parse_round(round: Option<&str>) -> Result<Option<u32>, CliError> {
    Ok(round.map(docs::parse_round).transpose()?)
}

/// The prize list or the certificates (`style`: another template than the stored one).
fn prize_doc(db: &Path, a: &PrizeListArgs, doc: Doc, style: Option<Template>) -> Result<(), CliError> {
    let lang = docs::parse_lang(&a.lang)?;
    let req = TournamentDoc { tid: a.tournament, doc, lang, round: None };
    tournament_doc_styled(db, req, &a.out, lang, style)
}

/// Loads, renders and writes one document of the tournament; says what it wrote on stderr.
/// `words`: the language of a refusal (data the document cannot hold), the `--lang` asked for.
pub(super) fn tournament_doc(db: &Path, req: TournamentDoc, out: &Path, words: Lang) -> Result<(), CliError> {
    tournament_doc_styled(db, req, out, words, None)
}

/// [`tournament_doc`], the certificates in `style` when given.
fn tournament_doc_styled(
    db: &Path,
    req: TournamentDoc,
    out: &Path,
    words: Lang,
    style: Option<Template>,
) -> Result<(), CliError> {
    let tid = req.tid;
    let pool = open_existing(db)?;
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    check_tournament(&mut conn, tid)?;
    let loaded = req.load(&mut conn).map_err(|e| match e {
        docs::LoadError::Option(e) => CliError::BadOption(e),
        e => CliError::Said(e.to_string()),
    })?;
    let loaded = loaded.with_style(style);
    let file = loaded.render().map_err(|e| match e {
        crate::print::PrintError::Invalid(p) => {
            CliError::Said(tr!(words, "print.err_data", problem = words.data_problem(&p)))
        }
        e => CliError::PrintingFailed(e.to_string()),
    })?;
    write_out(out, &file.bytes)?;
    let (say, lines, file, bytes) =
        (Lang::from_environment(), loaded.tables(), out.display().to_string(), file.bytes.len());
    let said = match loaded.after_round() {
        _ if matches!(req.doc, Doc::Certificates(_)) => {
            tr!(say, "cli_print.certificates", tournament = tid, certificates = lines, file, bytes)
        }
        0 => tr!(say, "cli_print.tournament", tournament = tid, lines, file, bytes),
        round => tr!(say, "cli_print.tournament_after", tournament = tid, lines, round, file, bytes),
    };
    eprintln!("{said}");
    Ok(())
}

/// Loads, renders and writes the hall poster of the tournament's event; says what it wrote.
fn poster_doc(db: &Path, p: &PosterArgs) -> Result<(), CliError> {
    let a = &p.of;
    let (lang, paper) = (docs::parse_lang(&a.lang)?, docs::parse_paper(&p.paper)?);
    let base = p.public_url.as_deref().map(super::serve::public_url_base).transpose()?;
    let pool = open_existing(db)?;
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    check_tournament(&mut conn, a.tournament)?;
    let event = crate::db::events::event_of(&mut conn, a.tournament)?;
    let req = docs::EventDoc { event, doc: Doc::HallPoster(paper), lang };
    let loaded = req.load(&mut conn)?.with_public_url(base.as_deref());
    let file = loaded.render().map_err(|e| CliError::PrintingFailed(e.to_string()))?;
    write_out(&a.out, &file.bytes)?;
    let (say, tournament, bytes) = (Lang::from_environment(), a.tournament, file.bytes.len());
    eprintln!("{}", tr!(say, "cli_print.file", tournament, file = a.out.display().to_string(), bytes));
    Ok(())
}

/// Loads, renders and writes the sheets of one relay match; says what it wrote on stderr.
fn match_doc(db: &Path, a: &MatchArgs) -> Result<(), CliError> {
    use crate::office::print_data::MatchSheetsError;
    let lang = docs::parse_lang(&a.lang)?;
    let pool = open_existing(db)?;
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    check_tournament(&mut conn, a.tournament)?;
    let req = docs::MatchDoc { tid: a.tournament, mid: a.match_id, lang };
    let loaded = req.load(&mut conn).map_err(|e| match e {
        MatchSheetsError::NotTeamEvent => CliError::NotTeamEvent(a.tournament),
        MatchSheetsError::NotReady(why) => CliError::MatchNotReady { match_id: a.match_id, why },
        MatchSheetsError::Db(crate::db::DbError::NotFound) => {
            CliError::NoMatch { tournament: a.tournament, match_id: a.match_id }
        }
        MatchSheetsError::Db(e) => e.into(),
    })?;
    let file = loaded.render().map_err(|e| CliError::PrintingFailed(e.to_string()))?;
    write_out(&a.out, &file.bytes)?;
    let (say, forms, bytes) = (Lang::from_environment(), loaded.tables(), file.bytes.len());
    let (tournament, file) = (a.tournament, a.out.display().to_string());
    eprintln!("{}", tr!(say, "cli_print.match", match_id = a.match_id, tournament, forms, file, bytes));
    Ok(())
}

/// Loads, renders and writes one document of a round; says what it wrote on stderr.
pub(super) fn round_doc(db: &Path, args: &RoundArgs, doc: Doc) -> Result<(), CliError> {
    round_doc_linked(db, args, doc, None)
}

/// [`round_doc`], the table cards linked under `public_url`. A round the document needs
/// published (the results notice) and is not: a one-line refusal.
fn round_doc_linked(db: &Path, args: &RoundArgs, doc: Doc, public_url: Option<&str>) -> Result<(), CliError> {
    let lang = docs::parse_lang(&args.lang)?;
    let pool = open_existing(db)?;
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    args.check_round(&mut conn)?;
    let req = RoundDoc { tid: args.tournament, round: args.round, doc, lang, audience: Audience::Staff };
    let loaded = req.load(&mut conn).map_err(|e| match e {
        crate::db::DbError::NotFound if doc == Doc::ResultsNotice => {
            CliError::NotPublished { tournament: args.tournament, round: args.round }
        }
        e => e.into(),
    })?;
    let loaded = loaded.with_public_url(public_url);
    let file = loaded.render().map_err(|e| CliError::PrintingFailed(e.to_string()))?;
    write_out(&args.out, &file.bytes)?;
    let (say, tables, bytes) = (Lang::from_environment(), loaded.tables(), file.bytes.len());
    let (round, tournament, file) = (args.round, args.tournament, args.out.display().to_string());
    let key = if loaded.published() { "cli_print.round" } else { "cli_print.round_draft" };
    eprintln!("{}", tr!(say, key, round, tournament, tables, file, bytes));
    Ok(())
}
