//! What this machine says: the server's time zone and today's date. The `domain` crate reads
//! no clock and no environment (its Architecture Invariant); the office reads them here and
//! hands the values in.

use crate::domain::event_time::EventZone;
use chrono::NaiveDate;

/// The zone new events take: `TENGEN_TZ` if it names a zone, else the system's zone (the `TZ`
/// variable or the system setting), else UTC. Read once per process.
pub fn zone() -> EventZone {
    static SERVER: std::sync::OnceLock<EventZone> = std::sync::OnceLock::new();
    *SERVER.get_or_init(read_zone)
}

fn read_zone() -> EventZone {
    let named = |v: Option<String>| v.as_deref().and_then(EventZone::parse);
    named(std::env::var("TENGEN_TZ").ok())
        .or_else(|| named(std::env::var("TZ").ok().map(|t| t.trim_start_matches(':').to_string())))
        .or_else(|| named(iana_time_zone::get_timezone().ok()))
        .unwrap_or_default()
}

/// Today's date on this machine's clock (its local time zone): the latest birth date an
/// entrant may have.
pub fn today() -> NaiveDate {
    chrono::Local::now().date_naive()
}

/// Today at the venue of an event in `zone`.
pub fn today_in(zone: EventZone) -> NaiveDate {
    zone.date_at(chrono::Utc::now())
}
