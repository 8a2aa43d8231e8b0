//! The `tengen` command line: what an organizer, an arbiter and an operator run. Each
//! subcommand lives in its own module. Benchmarks and stress runs are the lab's
//! (`tengen-lab`, crate `admin/lab`), which drives this library from outside.

pub mod backup;
pub mod demo;
pub mod export;
mod files;
pub use files::{BadValue, CliError};
pub mod help;
pub mod migrate_db;
pub mod print;
pub mod purge;
pub mod serve;
pub mod sgf;
pub mod user;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(name = "tengen", version, about = "天元 Tengen: Go tournament office under the Chinese rules")]
pub struct Cli {
    /// The database: a SQLite file (created if missing), or a PostgreSQL database as
    /// postgres://USER@HOST/DB (a build with `--features postgres`).
    #[arg(long, global = true, env = "TENGEN_DATABASE_URL", default_value = "tengen.db")]
    pub db: PathBuf,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Serve the tournament office over HTTP.
    Serve(serve::ServeArgs),
    /// Manage accounts.
    #[command(subcommand)]
    User(user::UserCommand),
    /// Copy the database into FILE (safe while the server runs).
    Backup { file: PathBuf },
    /// Replace the database with the backup FILE once the copy passes SQLite's integrity
    /// check and holds Tengen's schema (the current data is backed up first).
    Restore {
        file: PathBuf,
        /// Language of what the command says: zh or en (default: the locale's, else zh).
        #[arg(long)]
        lang: Option<String>,
    },
    /// Move an office from its SQLite file into an empty PostgreSQL database: every row and
    /// the audit, checked row by row, in one transaction.
    MigrateDb {
        #[arg(long)]
        from: PathBuf,
        #[arg(long)]
        to: PathBuf,
    },
    /// Fill a fresh database with a realistic Chinese tournament.
    Demo(demo::DemoArgs),
    /// Game records (SGF): check a disputed record under a rule set.
    #[command(subcommand)]
    Sgf(sgf::Command),
    /// A round's PDFs: scoresheets, pairing list, game record sheets.
    #[command(subcommand)]
    Print(print::Command),
    /// Files for other programs: a round's pairings as CSV, the tournament as OpenGotha XML.
    #[command(subcommand)]
    Export(export::Command),
    /// Delete the registrations kept past their event's retention (an audit row per event).
    PurgeRegistrations,
}

/// Parse the command line and run it.
pub fn run() -> ExitCode {
    // The help is worded in the user's language (`help`); what is parsed is the same.
    let matches = help::localized(Cli::command(), crate::i18n::Lang::from_environment()).get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    crate::log::init();
    // Commands with their own exit codes (sgf check: 0 fine, 1 illegal/disagrees, 2 unreadable).
    let coded = |code: i32| ExitCode::from(u8::try_from(code).unwrap_or(2));
    let r: Result<(), files::CliError> = match cli.command {
        Command::Sgf(cmd) => return coded(sgf::run(cmd)),
        Command::Serve(a) => serve::run(&cli.db, a),
        Command::User(u) => user::run(&cli.db, u),
        Command::Backup { file } => backup::backup(&cli.db, &file),
        Command::Restore { file, lang } => backup::restore(&cli.db, &file, lang.as_deref()),
        Command::Demo(a) => demo::run(&cli.db, a),
        Command::MigrateDb { from, to } => migrate_db::run(&from, &to),
        Command::Print(cmd) => print::run(&cli.db, cmd),
        Command::Export(cmd) => export::run(&cli.db, cmd),
        Command::PurgeRegistrations => purge::run(&cli.db),
    };
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let lang = crate::i18n::Lang::from_environment();
            crate::log::complain(&crate::i18n::tr!(lang, "cli_err.failed", error = e.words(lang)));
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::CommandFactory;

    /// `tengen --help` lists what an organizer, an arbiter and an operator run; benchmarks and
    /// stress runs are `tengen-lab`'s and appear nowhere in it.
    #[test]
    fn help_lists_the_office_commands_and_nothing_of_the_lab() {
        Cli::command().debug_assert();
        let mut cli = Cli::command();
        let names: Vec<&str> = cli.get_subcommands().map(|c| c.get_name()).collect();
        let office = [
            "serve",
            "user",
            "backup",
            "restore",
            "migrate-db",
            "demo",
            "sgf",
            "print",
            "export",
            "purge-registrations",
        ];
        assert_eq!(names, office);
        let help = cli.render_long_help().to_string();
        for lab in ["bench", "stress", "Benchmark"] {
            assert!(!help.contains(lab), "{lab} in tengen --help:\n{help}");
        }
    }
}
