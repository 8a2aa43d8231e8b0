//! The event's time zone: the one place where times are converted.
//!
//! Every instant is stored in UTC — as the text of [`stored`] ("2026-12-03 01:00:00", what
//! `db::now` writes) or as Unix seconds (the relay's events). Every time shown or typed is in
//! the event's zone, an IANA name kept in the tournament's `time_zone` setting. This module
//! turns stored UTC into the venue's date, time of day or both, and the venue's typed time
//! into stored UTC; no other module formats or parses a clock time.
//!
//! Typed local times that do not exist (a daylight-saving gap: 01:30 on the night Europe moves
//! its clocks forward) are refused ([`NoSuchTime`]); a time that exists twice (the hour the
//! clocks go back) is the earlier instant.

use chrono::{DateTime, LocalResult, NaiveDate, NaiveDateTime, NaiveTime, TimeZone, Timelike, Utc};
use chrono_tz::Tz;
use std::fmt;

/// How every instant is stored as text: UTC, to the second.
const STORED: &str = "%Y-%m-%d %H:%M:%S";
/// A date as shown and typed.
const DATE: &str = "%Y-%m-%d";
/// The two forms of a typed date and time ("2026-12-05T09:30", seconds optional; a space
/// works as well as the `T` of a datetime-local input).
const TYPED: [&str; 2] = ["%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M"];

/// An instant as stored: UTC text to the second.
pub fn stored(t: DateTime<Utc>) -> String {
    t.format(STORED).to_string()
}

/// Stored text back to the instant (`None` for text this program did not write).
pub fn parse_stored(s: &str) -> Option<DateTime<Utc>> {
    NaiveDateTime::parse_from_str(s.trim(), STORED).ok().map(|n| n.and_utc())
}

/// A typed local time that does not exist in the event's zone (skipped by a daylight-saving
/// change), or that cannot be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoSuchTime {
    /// Not a time of day, date or date-time of the expected form.
    Unreadable,
    /// In the gap of a daylight-saving change: the clocks skip it.
    Skipped,
}

/// The format of [`EventZone::file_stamp`].
const FILE_STAMP: &str = "%Y%m%d-%H%M%S%.3f%z";

/// The event's time zone: an IANA zone of the tz database.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EventZone(Tz);

impl Default for EventZone {
    /// UTC: only for values with no event around them (a hand-edited row's fallback).
    fn default() -> Self {
        EventZone(Tz::UTC)
    }
}

impl fmt::Display for EventZone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl serde::Serialize for EventZone {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for EventZone {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        EventZone::parse(&name).ok_or_else(|| serde::de::Error::custom("unknown time zone"))
    }
}

impl EventZone {
    /// The demo event's zone, and the zone of events in China.
    pub const SHANGHAI: EventZone = EventZone(Tz::Asia__Shanghai);

    /// A zone by its IANA name ("Asia/Shanghai", "Europe/London", "UTC"); exact spelling.
    pub fn parse(name: &str) -> Option<EventZone> {
        name.trim().parse::<Tz>().ok().map(EventZone)
    }

    /// The IANA name, as stored and typed.
    pub fn name(&self) -> &'static str {
        self.0.name()
    }

    /// A file name's stamp in the zone with its UTC offset, "20261203-093000.123+0800"
    /// (file names in the reader's time, not UTC); [`EventZone::
    /// instant_of_stamp`] reads it back, so files sort by the instant even across a
    /// daylight-saving change.
    pub fn file_stamp(&self, t: DateTime<Utc>) -> String {
        self.local(t).format(FILE_STAMP).to_string()
    }

    /// The instant of a stamp written by [`EventZone::file_stamp`] (any zone's).
    pub fn instant_of_stamp(stamp: &str) -> Option<DateTime<Utc>> {
        DateTime::parse_from_str(stamp, FILE_STAMP).ok().map(|t| t.with_timezone(&Utc))
    }

    /// An instant as the zone's wall-clock date and time (for formats that carry no zone,
    /// such as OpenGotha's save stamp).
    pub fn wall_clock(&self, t: DateTime<Utc>) -> NaiveDateTime {
        self.local(t).naive_local()
    }

    fn local(&self, t: DateTime<Utc>) -> DateTime<Tz> {
        t.with_timezone(&self.0)
    }

    /// A Unix time in the zone (`None` out of chrono's range).
    fn at(&self, ts: i64) -> Option<DateTime<Tz>> {
        DateTime::from_timestamp(ts, 0).map(|t| self.local(t))
    }

    /// Stored text as the venue's date and time, "2026-12-03 09:00:00"; text this program did
    /// not write is shown as it is.
    pub fn date_time(&self, stored: &str) -> String {
        match parse_stored(stored) {
            Some(t) => self.local(t).format(STORED).to_string(),
            None => stored.to_string(),
        }
    }

    /// Stored text as the venue's time of day: "09:00", or "09:00:05" with seconds.
    pub fn time(&self, stored: &str) -> String {
        match parse_stored(stored) {
            Some(t) => time_of_day(self.local(t).time()),
            None => stored.to_string(),
        }
    }

    /// A Unix time as the venue's date and time ("2026-12-05 09:30:00").
    pub fn date_time_of(&self, ts: i64) -> String {
        self.at(ts).map(|d| d.format(STORED).to_string()).unwrap_or_default()
    }

    /// A Unix time as the venue's time of day with seconds ("09:30:05").
    pub fn clock_of(&self, ts: i64) -> String {
        self.at(ts).map(|d| d.format("%H:%M:%S").to_string()).unwrap_or_default()
    }

    /// A Unix time as the venue's date ("2026-12-05").
    pub fn date_of(&self, ts: i64) -> String {
        self.at(ts).map(|d| d.format(DATE).to_string()).unwrap_or_default()
    }

    /// A Unix time as a datetime-local input's value ("2026-12-05T09:30:00").
    pub fn input_of(&self, ts: i64) -> String {
        self.at(ts).map(|d| d.format(TYPED[0]).to_string()).unwrap_or_default()
    }

    /// The venue's date of a stored instant.
    pub fn local_date(&self, stored: &str) -> Option<NaiveDate> {
        parse_stored(stored).map(|t| self.local(t).date_naive())
    }

    /// The venue's date at instant `now` (the caller reads the clock: this crate reads none).
    pub fn date_at(&self, now: DateTime<Utc>) -> NaiveDate {
        self.local(now).date_naive()
    }

    /// The instant of a venue's local date and time; a skipped time is refused, a repeated one
    /// is the earlier instant.
    fn instant(&self, local: NaiveDateTime) -> Result<DateTime<Utc>, NoSuchTime> {
        match self.0.from_local_datetime(&local) {
            LocalResult::Single(t) => Ok(t.with_timezone(&Utc)),
            LocalResult::Ambiguous(earlier, _) => Ok(earlier.with_timezone(&Utc)),
            LocalResult::None => Err(NoSuchTime::Skipped),
        }
    }

    /// A time of day typed at the venue ("9:05", "09:05:30") on the venue's `day`, as stored
    /// UTC text.
    pub fn store_time_of_day(&self, day: NaiveDate, typed: &str) -> Result<String, NoSuchTime> {
        let t = parse_time_of_day(typed).ok_or(NoSuchTime::Unreadable)?;
        self.instant(day.and_time(t)).map(stored)
    }

    /// A date and time typed at the venue ("2026-12-05T09:30", seconds optional) as a Unix time.
    pub fn typed_timestamp(&self, typed: &str) -> Result<i64, NoSuchTime> {
        let s = typed.trim().replace(' ', "T");
        let local = TYPED
            .iter()
            .find_map(|f| NaiveDateTime::parse_from_str(&s, f).ok())
            .ok_or(NoSuchTime::Unreadable)?;
        self.instant(local).map(|t| t.timestamp())
    }

    /// Seconds from the venue's midnight starting `day` to a stored instant (more than a day's
    /// worth after midnight, negative before `day`): what lateness compares, so that a round
    /// starting 07:50 in Shanghai (23:50 UTC) and an arrival at 08:05 stay 15 minutes apart.
    pub fn seconds_into(&self, day: NaiveDate, stored: &str) -> Option<i64> {
        let midnight = self.instant(day.and_time(NaiveTime::MIN)).ok()?;
        parse_stored(stored).map(|t| (t - midnight).num_seconds())
    }

    /// The zone's offset from UTC at a Unix time, in seconds (east positive).
    pub fn offset_at(&self, ts: i64) -> i32 {
        use chrono::Offset;
        self.at(ts).map_or(0, |d| d.offset().fix().local_minus_utc())
    }
}

/// A date as shown and typed ("2026-12-05").
pub fn date_text(d: NaiveDate) -> String {
    d.format(DATE).to_string()
}

/// A typed date ("2026-12-05").
pub fn parse_date(s: &str) -> Option<NaiveDate> {
    NaiveDate::parse_from_str(s.trim(), DATE).ok()
}

/// A typed time of day: "9:05", "09:05" or "09:05:30".
fn parse_time_of_day(s: &str) -> Option<NaiveTime> {
    let secs = crate::results::parse_time_of_day(s)?;
    NaiveTime::from_num_seconds_from_midnight_opt(secs, 0)
}

/// A time of day as shown: "09:05", or "09:05:30" when there are seconds.
fn time_of_day(t: NaiveTime) -> String {
    crate::results::time_of_day_text(t.num_seconds_from_midnight())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap()
    }

    #[test]
    fn shanghai_is_eight_hours_ahead_of_the_stored_utc() {
        let z = EventZone::SHANGHAI;
        let s = z.store_time_of_day(day(2026, 12, 3), "09:00").unwrap();
        assert_eq!(s, "2026-12-03 01:00:00");
        assert_eq!(z.time(&s), "09:00");
        assert_eq!(z.date_time(&s), "2026-12-03 09:00:00");
        assert_eq!(z.local_date(&s), Some(day(2026, 12, 3)));
        // Before 08:00 the stored UTC is the day before.
        let early = z.store_time_of_day(day(2026, 12, 3), "7:50").unwrap();
        assert_eq!(early, "2026-12-02 23:50:00");
        assert_eq!(z.time(&early), "07:50");
        assert_eq!(z.offset_at(0), 8 * 3600);
    }

    #[test]
    fn lateness_seconds_do_not_wrap_at_utc_midnight() {
        let z = EventZone::SHANGHAI;
        let d = day(2026, 12, 3);
        let start = z.store_time_of_day(d, "07:50").unwrap();
        let arrival = z.store_time_of_day(d, "08:05").unwrap();
        let (s, a) = (z.seconds_into(d, &start).unwrap(), z.seconds_into(d, &arrival).unwrap());
        assert_eq!((s, a - s), (7 * 3600 + 50 * 60, 15 * 60));
    }

    #[test]
    fn london_moves_with_daylight_saving() {
        let z = EventZone::parse("Europe/London").unwrap();
        // Winter: GMT; summer: BST, an hour ahead.
        assert_eq!(z.store_time_of_day(day(2026, 12, 3), "09:00").unwrap(), "2026-12-03 09:00:00");
        assert_eq!(z.store_time_of_day(day(2026, 7, 1), "09:00").unwrap(), "2026-07-01 08:00:00");
        // 29 March 2026: 01:00 → 02:00, so 01:30 does not exist.
        assert_eq!(z.store_time_of_day(day(2026, 3, 29), "01:30"), Err(NoSuchTime::Skipped));
        assert_eq!(z.typed_timestamp("2026-03-29T01:30"), Err(NoSuchTime::Skipped));
        // 25 October 2026: 02:00 → 01:00, so 01:30 happens twice: the earlier (BST) one.
        assert_eq!(z.store_time_of_day(day(2026, 10, 25), "01:30").unwrap(), "2026-10-25 00:30:00");
        // The day of the change has 25 hours: 03:00 local is 4 hours after midnight.
        let three = z.store_time_of_day(day(2026, 10, 25), "03:00").unwrap();
        assert_eq!(z.seconds_into(day(2026, 10, 25), &three), Some(4 * 3600));
    }

    #[test]
    fn typed_times_round_trip() {
        for name in ["Asia/Shanghai", "Europe/London", "America/New_York", "UTC"] {
            let z = EventZone::parse(name).unwrap();
            for typed in ["00:00", "07:59", "09:05:30", "23:59"] {
                let s = z.store_time_of_day(day(2026, 12, 3), typed).unwrap();
                assert_eq!(z.time(&s), typed, "{name} {typed}");
                assert_eq!(z.local_date(&s), Some(day(2026, 12, 3)));
            }
            let ts = z.typed_timestamp("2026-12-05T09:30").unwrap();
            assert_eq!(z.input_of(ts), "2026-12-05T09:30:00");
            assert_eq!(z.date_time_of(ts), "2026-12-05 09:30:00");
            assert_eq!(z.date_of(ts), "2026-12-05");
            assert_eq!(z.clock_of(ts), "09:30:00");
        }
        let ts = EventZone::SHANGHAI.typed_timestamp("2026-12-05 09:30:15").unwrap();
        assert_eq!(DateTime::from_timestamp(ts, 0).map(stored).unwrap(), "2026-12-05 01:30:15");
    }

    #[test]
    fn names_and_unreadable_text() {
        assert_eq!(EventZone::parse("Asia/Shanghai"), Some(EventZone::SHANGHAI));
        assert_eq!(EventZone::SHANGHAI.name(), "Asia/Shanghai");
        for bad in ["", "Mars/Olympus", "asia/shanghai", "+08:00"] {
            assert_eq!(EventZone::parse(bad), None, "{bad}");
        }
        let z = EventZone::SHANGHAI;
        assert_eq!(z.store_time_of_day(day(2026, 12, 3), "25:00"), Err(NoSuchTime::Unreadable));
        assert_eq!(z.typed_timestamp("tomorrow"), Err(NoSuchTime::Unreadable));
        // Text this program did not write is shown as it is, never a panic.
        assert_eq!(z.time("09:00"), "09:00");
        assert_eq!(z.date_time("soon"), "soon");
        assert_eq!(parse_date("2026-12-05").map(date_text).as_deref(), Some("2026-12-05"));
    }

    #[test]
    fn file_stamps_are_local_and_sort_by_instant() {
        let t = DateTime::parse_from_rfc3339("2026-12-03T01:30:00.250Z").unwrap().with_timezone(&Utc);
        let stamp = EventZone::SHANGHAI.file_stamp(t);
        assert_eq!(stamp, "20261203-093000.250+0800");
        assert_eq!(EventZone::instant_of_stamp(&stamp), Some(t));
        // London's autumn change: 01:30 BST comes before 01:10 GMT.
        let london = EventZone::parse("Europe/London").unwrap();
        let a = DateTime::parse_from_rfc3339("2026-10-25T00:30:00Z").unwrap().with_timezone(&Utc);
        let b = DateTime::parse_from_rfc3339("2026-10-25T01:10:00Z").unwrap().with_timezone(&Utc);
        let (sa, sb) = (london.file_stamp(a), london.file_stamp(b));
        assert_eq!((sa.as_str(), sb.as_str()), ("20261025-013000.000+0100", "20261025-011000.000+0000"));
        assert!(EventZone::instant_of_stamp(&sa) < EventZone::instant_of_stamp(&sb));
        assert_eq!(EventZone::instant_of_stamp("20261203-093000"), None);
    }
}
