//! Command-line commands, one module each; every module has `pub fn run(args) -> i32`.

pub mod bench;
pub mod bench_print;
pub mod sgf;
