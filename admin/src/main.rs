//! `tengen`: the Tengen binary. Each command lives in its own module under `cli/`, with a
//! `pub fn run(args) -> i32` that returns the process exit code; this file only dispatches.

mod cli;

use clap::Parser;

/// Tengen (天元): Go tournament administration under the Chinese rules.
#[derive(Parser)]
#[command(name = "tengen", version)]
enum Cli {
    /// Game records (SGF).
    #[command(subcommand)]
    Sgf(cli::sgf::Command),
    /// Benchmarks.
    #[command(subcommand)]
    Bench(cli::bench::Command),
}

fn main() {
    let code = match Cli::parse() {
        Cli::Sgf(cmd) => cli::sgf::run(cmd),
        Cli::Bench(cmd) => cli::bench::run(cmd),
    };
    std::process::exit(code);
}
