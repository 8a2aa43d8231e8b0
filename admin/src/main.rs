use clap::{Parser, Subcommand};

mod cli;

/// Tengen (天元): Go tournament administration under the Chinese rules.
#[derive(Parser)]
#[command(name = "tengen", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Benchmarks.
    #[command(subcommand)]
    Bench(Bench),
}

#[derive(Subcommand)]
enum Bench {
    /// Pair one round of a synthetic event and report time, memory and quality as JSON.
    Pair(cli::bench_pair::Args),
}

fn main() {
    let code = match Cli::parse().command {
        Command::Bench(Bench::Pair(args)) => cli::bench_pair::run(args),
    };
    std::process::exit(code);
}
