//! SGF reading and replay: any bytes are read without panicking; a record that reads is
//! replayed under every ko and suicide rule without panicking, and what `write` makes of it
//! reads back with the same moves.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rules::game::{KoRule, SuicideRule};
use rules::ruleset::RuleSet;
use rules::sgf::{self, ReplayOptions};

fuzz_target!(|data: &[u8]| {
    // The first byte picks the rules; the rest is the file.
    let Some((&pick, bytes)) = data.split_first() else { return };
    let Ok(rec) = sgf::parse_bytes(bytes) else { return };
    let mut rules = RuleSet::chinese_2002();
    rules.ko = match pick % 3 {
        0 => KoRule::Simple,
        1 => KoRule::Positional,
        _ => KoRule::Situational,
    };
    rules.suicide = if pick & 4 == 0 { SuicideRule::Forbidden } else { SuicideRule::Allowed };
    let komi_q = (pick & 8 != 0).then_some(i32::from(pick) - 128);
    let _ = sgf::replay(&rec, &ReplayOptions { rules, komi_q, dead: None });
    let written = sgf::write(&rec);
    let again = match sgf::parse(&written) {
        Ok(r) => r,
        Err(e) => panic!("write() made a record that does not read: {e:?}\n{written}"),
    };
    assert_eq!(again.moves().collect::<Vec<_>>(), rec.moves().collect::<Vec<_>>(), "{written}");
    assert_eq!(again.size, rec.size);
});
