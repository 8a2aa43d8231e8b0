//! `tengen export pairings --tournament ID --round N --out FILE` (CSV),
//! `tengen export results|standings --tournament ID [--lang zh|en] [--round N] --out FILE` (CSV
//! of every game and bye, of the standings; with `--round N` of rounds 1 to N, after round N),
//! `tengen export egf --tournament ID [--lang zh|en] --out FILE` (EGF `.h9`; `--lang`: the
//! language of a refusal, the file being ASCII)
//! and `tengen export opengotha --tournament ID --out FILE` (OpenGotha XML), all over the
//! published rounds: the same files as the web downloads, through [`crate::documents`].
//!
//! Shared with `tengen print` through [`super::files`]: the round arguments, opening an
//! existing database and writing the output.

pub use super::files::RoundArgs;
use super::files::{check_tournament, open_existing, write_out, CliError};
use crate::documents::{self, Doc, TournamentDoc};
use crate::i18n::tr;
use crate::print::Lang;
use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};

#[derive(Subcommand, Debug)]
pub enum Command {
    /// The pairings of a round as CSV (UTF-8 with BOM; byes as table 0).
    Pairings(RoundArgs),
    /// The tournament as OpenGotha XML (players, published rounds, results).
    Opengotha(OpengothaArgs),
    /// Every game and bye of the published rounds as CSV, with each side's points.
    Results(EventCsvArgs),
    /// The standings as CSV, with the tie-break columns.
    Standings(EventCsvArgs),
    /// The results for the EGF rating list (.h9); players need Latin names.
    Egf(EgfArgs),
}

/// Which tournament, the label language and where to write.
#[derive(Args, Debug)]
pub struct EventCsvArgs {
    /// Tournament id (as in the address /t/ID).
    #[arg(long)]
    pub tournament: i32,
    /// Language of the headings: zh or en.
    #[arg(long, default_value = "zh")]
    pub lang: String,
    /// Only rounds 1 to N (a published round): the standings after round N, its results and
    /// the earlier ones. Default: every published round.
    #[arg(long, value_name = "N")]
    pub round: Option<String>,
    /// Output file (`-` for stdout).
    #[arg(long)]
    pub out: PathBuf,
}

#[derive(Args, Debug)]
pub struct OpengothaArgs {
    /// Tournament id.
    #[arg(long)]
    pub tournament: i32,
    /// Output file (`-` for stdout).
    #[arg(long)]
    pub out: PathBuf,
}

/// Which tournament, the language of the refusal, and where to write (the file is ASCII).
#[derive(Args, Debug)]
pub struct EgfArgs {
    /// Tournament id.
    #[arg(long)]
    pub tournament: i32,
    /// Language of what the command says when the data cannot go into the file: zh or en.
    #[arg(long, default_value = "zh")]
    pub lang: String,
    /// Output file (`-` for stdout).
    #[arg(long)]
    pub out: PathBuf,
}

pub fn run(db: &Path, cmd: Command) -> Result<(), CliError> {
    match cmd {
        Command::Pairings(a) => super::print::round_doc(db, &a, Doc::PairingsCsv),
        Command::Opengotha(a) => {
            let pool = open_existing(db)?;
            let mut conn = pool.get().map_err(|e| e.to_string())?;
            check_tournament(&mut conn, a.tournament)?;
            let saved = chrono::Utc::now();
            let file = documents::opengotha(&mut conn, a.tournament, saved)?;
            write_out(&a.out, &file.bytes)?;
            let (tournament, bytes) = (a.tournament, file.bytes.len());
            let said = tr!(
                Lang::from_environment(),
                "cli_print.file",
                tournament,
                file = a.out.display().to_string(),
                bytes
            );
            eprintln!("{said}");
            Ok(())
        }
        Command::Results(a) => event_csv(db, &a, Doc::ResultsCsv),
        Command::Standings(a) => event_csv(db, &a, Doc::StandingsCsv),
        Command::Egf(a) => {
            let words = documents::parse_lang(&a.lang)?;
            // The file is ASCII English; a refusal is in the reader's language.
            let req = TournamentDoc { tid: a.tournament, doc: Doc::EgfH9, lang: Lang::En, round: None };
            super::print::tournament_doc(db, req, &a.out, words)
        }
    }
}

fn event_csv(db: &Path, a: &EventCsvArgs, doc: Doc) -> Result<(), CliError> {
    let lang = documents::parse_lang(&a.lang)?;
    let round = super::print::parse_round(a.round.as_deref())?;
    super::print::tournament_doc(db, TournamentDoc { tid: a.tournament, doc, lang, round }, &a.out, lang)
}
