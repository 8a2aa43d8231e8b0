//! Clock readings of a relay match (seed 003 Arts. 12, 13, 22.4).
//!
//! The referee reads both clocks and records them as a relay event
//! ([`Event::ClockReading`](super::relay::Event::ClockReading), or with a section end or the
//! count). Art. 22.4: "比赛暂停时，裁判员应将前半段双方用时记录在案并经对局双方确认" — at a pause
//! (the 5-minute breaks between sections stop the clock, Art. 10.2) the referee records both
//! sides' times. Art. 12: the 节棋 play-off is played "with the time each side has left
//! (byo-yomi included)" ("其中用时为双方所剩时间（包括读秒）", "使用之前剩余的时间（包括读秒）"), so
//! the play-off starts from a recorded reading ([`super::playoff`]).
//!
//! A reading is the rules crate's [`ClockReading`]; what the referee types is read here against
//! the event's [`TimeControl`] (seed 003 Art. 13: basic time plus a number of byo-yomi periods
//! of fixed length; 包干 is not permitted): the basic time left as a clock face ("1:05:00",
//! "45:00") and the byo-yomi periods left (Chinese byo-yomi: the reserved minutes left; a
//! Canadian period: the moves still due, the face then being the time left in the period).

use rules::clock::{ClockReading, TimeControl, CHINESE_READING_SECS, MAX_DURATION_SECS};

pub use super::values::ClockEntry;

/// A clock face as typed: "1:05:00", "45:00", "45" (minutes), "0".
pub fn parse_face(s: &str) -> Option<u32> {
    let s = s.trim();
    if s.is_empty() {
        return None;
    }
    let parts: Vec<&str> = s.split(':').collect();
    let num = |p: &str| -> Option<u32> {
        if p.is_empty() || p.len() > 4 || !p.bytes().all(|b| b.is_ascii_digit()) {
            None
        } else {
            p.parse().ok()
        }
    };
    let secs = match parts.as_slice() {
        [m] => num(m)?.checked_mul(60)?,
        [m, s] => {
            let (m, s) = (num(m)?, num(s)?);
            if s >= 60 {
                return None;
            }
            m.checked_mul(60)?.checked_add(s)?
        }
        [h, m, s] => {
            let (h, m, s) = (num(h)?, num(m)?, num(s)?);
            if m >= 60 || s >= 60 {
                return None;
            }
            h.checked_mul(3600)?.checked_add(m * 60 + s)?
        }
        _ => return None,
    };
    (secs <= MAX_DURATION_SECS).then_some(secs)
}

/// Why a typed reading does not fit the event's time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockInputError {
    /// More basic time left than the control gives.
    MainTooLong { max_secs: u32 },
    /// More periods (reserved minutes, moves due) left than the control has.
    TooManyPeriods { max: u32 },
    /// Periods entered while basic time is left (the periods start when it is used up), or
    /// for a control without periods.
    PeriodsNotExpected,
}

/// One side's reading from what the referee typed: `main_secs` the clock face, `periods` the
/// periods left (`None`: all of them while basic time is left).
pub fn reading(
    tc: &TimeControl,
    main_secs: u32,
    periods: Option<u32>,
) -> Result<ClockReading, ClockInputError> {
    let plain = |main_secs: u32, periods: u32| ClockReading {
        main_secs,
        periods,
        period_secs: 0,
        period_moves: 0,
        overtime: main_secs == 0,
    };
    match *tc {
        TimeControl::ChineseByoYomi { basic_secs, reserved_minutes } => {
            let max_secs = basic_secs.saturating_sub(reserved_minutes * CHINESE_READING_SECS);
            if main_secs > max_secs {
                return Err(ClockInputError::MainTooLong { max_secs });
            }
            let p = periods.unwrap_or(reserved_minutes);
            if p > reserved_minutes {
                return Err(ClockInputError::TooManyPeriods { max: reserved_minutes });
            }
            Ok(plain(main_secs, p))
        }
        TimeControl::ByoYomi { basic_secs, periods: max, .. } => {
            if main_secs > basic_secs {
                return Err(ClockInputError::MainTooLong { max_secs: basic_secs });
            }
            let p = periods.unwrap_or(max);
            if p > max {
                return Err(ClockInputError::TooManyPeriods { max });
            }
            Ok(plain(main_secs, p))
        }
        TimeControl::Absolute { basic_secs } => {
            if periods.is_some_and(|p| p > 0) {
                return Err(ClockInputError::PeriodsNotExpected);
            }
            if main_secs > basic_secs {
                return Err(ClockInputError::MainTooLong { max_secs: basic_secs });
            }
            Ok(ClockReading { overtime: false, ..plain(main_secs, 0) })
        }
        TimeControl::Canadian { basic_secs, moves_per_period, period_secs } => match periods {
            None => {
                if main_secs > basic_secs {
                    return Err(ClockInputError::MainTooLong { max_secs: basic_secs });
                }
                Ok(ClockReading { overtime: false, ..plain(main_secs, 0) })
            }
            Some(moves) => {
                if moves == 0 || moves > moves_per_period {
                    return Err(ClockInputError::TooManyPeriods { max: moves_per_period });
                }
                if main_secs > period_secs {
                    return Err(ClockInputError::MainTooLong { max_secs: period_secs });
                }
                Ok(ClockReading {
                    main_secs: 0,
                    periods: 0,
                    period_secs: main_secs,
                    period_moves: moves,
                    overtime: true,
                })
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faces() {
        assert_eq!(parse_face("1:05:00"), Some(3900));
        assert_eq!(parse_face("45:00"), Some(2700));
        assert_eq!(parse_face(" 45 "), Some(2700));
        assert_eq!(parse_face("0:30"), Some(30));
        assert_eq!(parse_face("0"), Some(0));
        for bad in ["", "1:60", "1:00:60", "a", "-5", "1:2:3:4", "1::0", "49:00:00"] {
            assert_eq!(parse_face(bad), None, "{bad}");
        }
    }

    #[test]
    fn readings_against_the_time_control() {
        let byo = TimeControl::ByoYomi { basic_secs: 3600, periods: 3, period_secs: 30 };
        let r = reading(&byo, 1800, None).unwrap();
        assert_eq!((r.main_secs, r.periods, r.overtime), (1800, 3, false));
        let r = reading(&byo, 0, Some(2)).unwrap();
        assert!(r.overtime);
        assert_eq!(reading(&byo, 3601, None), Err(ClockInputError::MainTooLong { max_secs: 3600 }));
        assert_eq!(reading(&byo, 0, Some(4)), Err(ClockInputError::TooManyPeriods { max: 3 }));
        // Chinese byo-yomi: the face is the basic time above the reserve.
        let cn = TimeControl::chinese(120, 5);
        assert_eq!(reading(&cn, 7200, None), Err(ClockInputError::MainTooLong { max_secs: 6900 }));
        let r = reading(&cn, 6900, None).unwrap();
        assert_eq!((r.main_secs, r.periods, r.overtime), (6900, 5, false));
        let can = TimeControl::Canadian { basic_secs: 3600, moves_per_period: 15, period_secs: 600 };
        let r = reading(&can, 270, Some(12)).unwrap();
        assert_eq!((r.period_secs, r.period_moves, r.overtime), (270, 12, true));
        assert_eq!(reading(&can, 270, Some(16)), Err(ClockInputError::TooManyPeriods { max: 15 }));
        let abs = TimeControl::Absolute { basic_secs: 3600 };
        assert_eq!(reading(&abs, 60, Some(1)), Err(ClockInputError::PeriodsNotExpected));
    }
}
