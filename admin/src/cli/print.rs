//! `tengen print scoresheets|pairings|record-sheets --tournament ID --round N … --out FILE`:
//! a round's PDFs from the machine itself, the same documents as the round page's downloads
//! (both go through [`crate::documents`]). Drafts print too (marked as drafts), as for staff.
//!
//! Errors are one line on stderr and exit code 1: an unknown tournament or round, a value not
//! allowed for an option, a file that cannot be written. `--out -` writes to stdout.

use super::export::{open_existing, write_out, RoundArgs};
use crate::db::print_data::Audience;
use crate::documents::{self as docs, Doc, RoundDoc};
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

pub fn run(db: &Path, cmd: Command) -> Result<(), String> {
    let bad = |e: docs::BadOption| e.to_string();
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
    };
    round_doc(db, args, doc)
}

/// Loads, renders and writes one document of a round; says what it wrote on stderr.
pub(super) fn round_doc(db: &Path, args: &RoundArgs, doc: Doc) -> Result<(), String> {
    let lang = docs::parse_lang(&args.lang).map_err(|e| e.to_string())?;
    let pool = open_existing(db)?;
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    args.check_round(&mut conn)?;
    let req = RoundDoc { tid: args.tournament, round: args.round, doc, lang, audience: Audience::Staff };
    let loaded = req.load(&mut conn).map_err(|e| e.to_string())?;
    let file = loaded.render().map_err(|e| format!("printing failed: {e}"))?;
    write_out(&args.out, &file.bytes)?;
    eprintln!(
        "round {} of tournament {}: {} table(s){} → {} ({} bytes)",
        args.round,
        args.tournament,
        loaded.tables(),
        if loaded.published() { "" } else { ", draft" },
        args.out.display(),
        file.bytes.len()
    );
    Ok(())
}
