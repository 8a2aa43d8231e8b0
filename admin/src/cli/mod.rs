//! Command-line commands, one module each; every module has `pub fn run(args) -> i32`.

pub mod bench;
pub mod sgf;
