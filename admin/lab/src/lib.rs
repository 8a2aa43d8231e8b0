//! # lab — Tengen's benchmarks and stress runs (binary `tengen-lab`)
//!
//! **Architecture Invariant:** the lab depends on the product (`admin`, `rules`, `matching`),
//! never the other way round: nothing in `admin` may name `lab`, and Cargo refuses the cycle
//! a dependency back would make. What the lab needs from `admin` is `admin`'s public API; the
//! `tengen` binary that organizers, arbiters and operators run ships none of this.
//!
//! - [`bench`]: `bench rules` and the list of benchmarks; [`bench_pair`] (one round paired:
//!   time, memory, quality), [`bench_simulate`] (whole events paired round after round),
//!   [`bench_opengotha`] (OpenGotha 3.51's pairing criteria restated, to compare on the same
//!   input), [`bench_common`] (what those three pair and measure with), [`bench_print`],
//!   [`bench_standings`] (the public page under wrk, against nginx),
//!   [`bench_load`] (public pages read while arbiters write results).
//! - [`stress`]: `stress crash`, SIGKILL during concurrent writes and a check of every
//!   acknowledged write; [`stress_db`] (the database of a run, read back with SQL both engines
//!   take) and [`pg_cluster`] (a throwaway PostgreSQL server a run starts, kills and restarts).
//!
//! The servers a run kills are this very binary's hidden `serve`, which is `tengen serve`
//! ([`admin::cli::serve`]) unchanged, so a run needs no other executable beside it.

pub mod bench;
pub mod bench_common;
pub mod bench_load;
pub mod bench_opengotha;
pub mod bench_pair;
pub mod bench_print;
pub mod bench_rush;
pub mod bench_simulate;
pub mod bench_standings;
pub mod ha_cluster;
pub mod pg_cluster;
pub mod stress;
pub mod stress_db;
pub mod stress_failover;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "tengen-lab",
    version,
    about = "天元 Tengen's lab: benchmarks and stress runs of the tournament office, with JSON reports"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Benchmarks that print their numbers as JSON.
    #[command(subcommand)]
    Bench(bench::Command),
    /// Stress tests of the whole server (crash safety), with a JSON report.
    #[command(subcommand)]
    Stress(StressCommand),
    /// `tengen serve` itself: the server the stress and load runs start and kill.
    #[command(hide = true)]
    Serve {
        /// The database, as `tengen --db` takes it.
        #[arg(long)]
        db: PathBuf,
        #[command(flatten)]
        args: admin::cli::serve::ServeArgs,
    },
}

/// The stress runs (a leaf of both: `stress_failover` reuses `stress`'s clients and server).
#[derive(Subcommand, Debug)]
pub enum StressCommand {
    /// Kill the server with SIGKILL during concurrent writes, restart it, check every
    /// acknowledged write and the database's integrity; N trials, a JSON report.
    Crash(stress::CrashArgs),
    /// Two Tengen servers on PostgreSQL under Patroni (two nodes, synchronous) and etcd (three
    /// members): kill or freeze the primary, kill an etcd member, restart the Tengen servers in
    /// turn, during concurrent writes; check every acknowledged write after each; a JSON report.
    Failover(stress_failover::FailoverArgs),
}

/// Parse the command line and run it.
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    admin::log::init();
    let coded = |code: i32| ExitCode::from(u8::try_from(code).unwrap_or(2));
    match cli.command {
        Command::Bench(cmd) => coded(bench::run(cmd)),
        Command::Stress(StressCommand::Crash(a)) => coded(stress::run(stress::Command::Crash(a))),
        Command::Stress(StressCommand::Failover(a)) => coded(stress_failover::run(&a)),
        Command::Serve { db, args } => match admin::cli::serve::run(&db, args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                admin::log::complain(&format!(
                    "tengen-lab serve: {}",
                    e.words(admin::i18n::Lang::from_environment())
                ));
                ExitCode::FAILURE
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::CommandFactory;

    /// `tengen-lab --help` lists the benchmarks and the stress runs; the `serve` its runs start
    /// and kill is there but hidden, since nobody runs it by hand.
    #[test]
    fn help_lists_bench_and_stress_and_hides_the_server() {
        Cli::command().debug_assert();
        let cli = Cli::command();
        let shown: Vec<&str> =
            cli.get_subcommands().filter(|c| !c.is_hide_set()).map(|c| c.get_name()).collect();
        assert_eq!(shown, ["bench", "stress"]);
        let serve = cli.find_subcommand("serve").expect("the runs' server");
        assert!(serve.get_arguments().any(|a| a.get_id() == "db"));
        assert!(serve.get_arguments().any(|a| a.get_id() == "bind"));
    }
}
