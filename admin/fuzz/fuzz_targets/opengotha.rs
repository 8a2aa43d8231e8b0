//! OpenGotha XML import: any bytes are read without panicking; what it reads is consistent
//! (every game and bye names a player of the file).
#![no_main]

use admin::formats::opengotha::read::parse_opengotha_on;
use chrono::NaiveDate;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let today = NaiveDate::from_ymd_opt(2026, 12, 1).expect("a date");
    let Ok(t) = parse_opengotha_on(data, today) else { return };
    let known = |k: &str| t.players.iter().any(|p| p.key == k);
    for g in &t.games {
        assert!(known(&g.black_key) && known(&g.white_key), "a game names an unknown player: {g:?}");
    }
    for b in &t.byes {
        assert!(known(&b.player_key), "a bye names an unknown player: {b:?}");
    }
});
