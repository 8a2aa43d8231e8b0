//! What this machine says: the server's time zone and today's date. The `domain` crate reads
//! no clock and no environment (its Architecture Invariant); the office reads them here and
//! hands the values in.

use crate::domain::event_time::EventZone;
use chrono::NaiveDate;

/// The zone new events take: `TENGEN_TZ` if it names a zone, else the system's zone (the `TZ`
/// variable or the system setting), else UTC. Read once per process, by the store, which also
/// reads it for an event whose stored settings name no zone.
pub use crate::db::server_zone as zone;

/// Today's date on this machine's clock (its local time zone): the latest birth date an
/// entrant may have.
pub fn today() -> NaiveDate {
    chrono::Local::now().date_naive()
}

/// Today at the venue of an event in `zone`.
pub fn today_in(zone: EventZone) -> NaiveDate {
    zone.date_at(chrono::Utc::now())
}
