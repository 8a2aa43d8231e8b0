//! Command-line subcommands that live outside the domain (one module per command).

pub mod bench_pair;
