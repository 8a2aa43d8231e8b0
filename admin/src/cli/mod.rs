//! The `tengen` command line. Each subcommand lives in its own module so that other
//! subcommands (sgf, bench) can be added beside them.

pub mod backup;
pub mod bench;
pub mod bench_load;
pub mod bench_opengotha;
pub mod bench_pair;
pub mod bench_print;
pub mod bench_simulate;
pub mod bench_standings;
pub mod demo;
pub mod export;
pub mod migrate_db;
pub mod pg_cluster;
pub mod print;
pub mod serve;
pub mod sgf;
pub mod stress;
pub mod stress_db;
pub mod user;

use clap::{Parser, Subcommand};
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
    /// Benchmarks that print their numbers as JSON.
    #[command(subcommand)]
    Bench(bench::Command),
    /// A round's PDFs: scoresheets, pairing list, game record sheets.
    #[command(subcommand)]
    Print(print::Command),
    /// Files for other programs: a round's pairings as CSV, the tournament as OpenGotha XML.
    #[command(subcommand)]
    Export(export::Command),
    /// Stress tests of the whole server (crash safety), with a JSON report.
    #[command(subcommand)]
    Stress(stress::Command),
}

/// Parse the command line and run it.
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    crate::log::init();
    // Commands with their own exit codes (sgf check: 0 fine, 1 illegal/disagrees, 2 unreadable).
    let coded = |code: i32| ExitCode::from(u8::try_from(code).unwrap_or(2));
    let r = match cli.command {
        Command::Sgf(cmd) => return coded(sgf::run(cmd)),
        Command::Bench(cmd) => return coded(bench::run(cmd)),
        Command::Stress(cmd) => return coded(stress::run(cmd)),
        Command::Serve(a) => serve::run(&cli.db, a),
        Command::User(u) => user::run(&cli.db, u),
        Command::Backup { file } => backup::backup(&cli.db, &file),
        Command::Restore { file, lang } => backup::restore(&cli.db, &file, lang.as_deref()),
        Command::Demo(a) => demo::run(&cli.db, a),
        Command::MigrateDb { from, to } => migrate_db::run(&from, &to),
        Command::Print(cmd) => print::run(&cli.db, cmd),
        Command::Export(cmd) => export::run(&cli.db, cmd),
    };
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            crate::log::complain(&format!("tengen: {e}"));
            ExitCode::FAILURE
        }
    }
}
