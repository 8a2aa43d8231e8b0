//! SGF records: reading FF\[4\] (and FF\[3\]) Go records, replaying them under a rule set, and
//! writing games back as FF\[4\].
//!
//! Reading is two layers, as sgfmill and sgf-parse split it: a grammar that knows no Go, and the
//! Go record built on it. The grammar checks the text's structure and hands the first game
//! tree's main line to the record node by node, so a long record costs a small multiple of its
//! text.
//!
//! - `grammar`: game trees, nodes and properties with their line and column, in one pass; no Go
//!   (an architecture invariant its tests enforce).
//! - `record`: [`parse`] → [`Record`] (size, komi, handicap, setup, the main line, the result,
//!   the territory markup), with typed [`SgfError`]s and [`Warning`]s; passes and `tt`.
//! - `values`: komi read exactly into quarter stones ([`Komi`]) and results ([`GameResult`]).
//! - `decode`: [`parse_bytes`] and [`decode`](decode()): the file's encoding (CA\[\], UTF-8, GBK, Big5…).
//! - `replay`: [`replay`](replay()) under a [`RuleSet`](crate::ruleset::RuleSet): illegal moves, captures,
//!   the count, and agreement with RE\[\].
//! - `write`: [`write`](write()): a record as FF\[4\] text that reads back as the same game.

mod decode;
mod grammar;
mod record;
mod replay;
mod values;
mod write;

pub use decode::{decode, parse_bytes, Decoded, EncodingSource};
pub use grammar::Pos;
pub use record::{
    parse, Action, GameInfo, Record, Setup, SgfError, SgfErrorKind, Step, Territory, Warning, WarningKind,
};
pub use replay::{
    dead_from_territory, replay, Agreement, DeadSource, IllegalAt, Incomparable, KomiSource, Note, Replay,
    ReplayOptions,
};
pub use values::{GameResult, Komi, KomiError, KomiUnit, UnknownResult, WinBy};
pub use write::write;

#[cfg(test)]
mod tests {
    use crate::board::Point;

    pub(super) fn p(s: &str) -> Point {
        Point::from_sgf(s).unwrap()
    }

    /// A 9×9 game: two walls, an invasion captured, two passes. Black 36, White 36, 9 dame.
    pub(super) const SHORT: &str =
        "(;GM[1]FF[4]CA[UTF-8]SZ[9]KM[7]RU[Chinese]PB[Black Player]PW[White Player]RE[W+7]
        ;B[da];W[fa];B[db];W[fb];B[dc];W[fc];B[dd];W[fd];B[de];W[fe];B[df];W[ff]
        ;B[dg];W[fg];B[dh];W[fh];B[di];W[fi];B[bb];W[aa];B[ab];W[ha];B[ba];W[];B[])";

    mod never_panics {
        use super::super::*;
        use proptest::prelude::*;

        fn check(text: &str) {
            if let Ok(rec) = parse(text) {
                let _ = replay(&rec, &ReplayOptions::default());
                let _ = write(&rec);
            }
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(400))]
            #[test]
            fn on_any_text(s in "\\PC{0,200}") {
                check(&s);
            }

            #[test]
            fn on_sgf_like_text(s in "[();\\[\\]\\\\ \nBWAEKMSZHLPRTGFabcdestz0-9.:+-]{0,120}") {
                check(&format!("(;{s}"));
                check(&s);
            }

            #[test]
            fn on_any_bytes(b in proptest::collection::vec(any::<u8>(), 0..200)) {
                let _ = parse_bytes(&b);
                let mut v = b"(;SZ[9]".to_vec();
                v.extend(&b);
                if let Ok(rec) = parse_bytes(&v) {
                    let _ = replay(&rec, &ReplayOptions::default());
                }
            }

            #[test]
            fn on_every_truncation_and_edit(cut in 0usize..400, ins in "[\\[\\]();\\\\x]") {
                let text = super::SHORT;
                let mut k = cut.min(text.len());
                while !text.is_char_boundary(k) { k -= 1; }
                check(&text[..k]);
                let mut edited = text.to_string();
                edited.insert_str(k, &ins);
                check(&edited);
            }
        }
    }
}
