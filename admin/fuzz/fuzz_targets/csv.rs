//! Entrant CSV import: any bytes are read without panicking, and the entrants it accepts are
//! written by the export and read back unchanged.
#![no_main]

use admin::formats::entrants_csv::{parse_entrants_on, write_entrants};
use chrono::NaiveDate;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // A fixed "today" keeps runs reproducible (birth dates are judged against it).
    let today = NaiveDate::from_ymd_opt(2026, 12, 1).expect("a date");
    let Ok(preview) = parse_entrants_on(data, today) else { return };
    let good: Vec<_> = preview.entrants().cloned().collect();
    if good.is_empty() {
        return;
    }
    let written = write_entrants(&good);
    let back = match parse_entrants_on(&written, today) {
        Ok(p) => p,
        Err(e) => panic!("the export of accepted rows does not read back: {e:?}"),
    };
    let again: Vec<_> = back.entrants().cloned().collect();
    assert_eq!(again, good, "export → import changed the entrants");
});
