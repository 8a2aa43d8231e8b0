//! The referee's voice clock (seed 000 Art. 22; seed 003 Art. 22): one side's clock face in exact
//! milliseconds, what the referee calls while a move runs, and what a press of the clock leaves.
//!
//! The page at the board runs the same logic in the browser (`assets/clock/clock.js`, it must
//! work offline); both are pinned by one fixture of expected call sequences,
//! `assets/clock/fixture.json`, which the unit tests below and the browser test
//! (`tests/browser_clock.rs`) read. The fixture is written by hand from the seed's text, not
//! generated from either implementation.
//!
//! Chinese byo-yomi (seed 000 计时 3, rules.md §6.2): within each 60-second reading the calls are
//! 30秒、40秒、50秒、55秒、58秒、一分钟、还剩 x 分钟; in the last minute 30秒、40秒、50秒 and then
//! each second 1 … 10; at "10" the minute is used (裁判員讀出「10」而棋手同時落子或尚未落子，均應判為
//! 已使用１分鐘), so a press at exactly 60 s is too late. A move under 60 s costs nothing; each
//! full 60 s uses one reserved minute (rules.md §1 item 6). Byo-yomi periods of L seconds follow
//! the same principle ("可根據上述原則，事先規定讀秒實施細則"): marks every 10 s in the period's
//! last 30 s, L−5 and L−2, then "x 次" left; the last period counts its last 10 seconds.
//! 包干 (Art. 12.4): no reading, the flag. 定时限步制 (Art. 12.5): N moves in each period, the
//! time saved carried over.

use rules::clock::{ClockReading, TimeControl, CHINESE_READING_SECS};
use serde::{Deserialize, Serialize};

/// Milliseconds of one Chinese reading (60 s, Art. 12.3).
pub const READING_MS: u64 = CHINESE_READING_SECS as u64 * 1000;

/// The break between relay sections, clock stopped (seed 003 Art. 10.2: "每节间休息时间为5分钟，
/// 期间计时暂停").
pub const SECTION_BREAK_MS: u64 = 5 * 60 * 1000;

/// The moves after which a relay section ends (seed 003 Art. 10.2: 1–72, 73–143, 144–).
pub const SECTION_ENDS: [u32; 2] = [72, 143];

/// One side's clock at the start of a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Face {
    /// Basic time left (Chinese byo-yomi: above the reserved minutes).
    pub main_ms: u64,
    /// Chinese byo-yomi: reserved minutes left; byo-yomi: periods left; otherwise 0.
    pub periods: u32,
    /// Canadian, in overtime: time left in the current period.
    pub period_ms: u64,
    /// Canadian, in overtime: moves still due in the current period.
    pub period_moves: u32,
    /// Reading / periods have started.
    pub overtime: bool,
}

impl Face {
    /// The face of a reading in whole seconds (the rules crate's, e.g. a lateness verdict's
    /// clock or a referee's recorded reading).
    pub fn from_reading(r: &ClockReading) -> Face {
        Face {
            main_ms: u64::from(r.main_secs) * 1000,
            periods: r.periods,
            period_ms: u64::from(r.period_secs) * 1000,
            period_moves: r.period_moves,
            overtime: r.overtime,
        }
    }

    /// The reading in whole seconds as the referee records it: time left is rounded *down*
    /// (a clock showing 4:59.6 reads 4:59).
    pub fn reading(&self) -> ClockReading {
        ClockReading {
            main_secs: (self.main_ms / 1000) as u32,
            periods: self.periods,
            period_secs: (self.period_ms / 1000) as u32,
            period_moves: self.period_moves,
            overtime: self.overtime,
        }
    }
}

/// What the referee calls (shown large and spoken).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "call", content = "n", rename_all = "snake_case")]
pub enum Call {
    /// "30秒", "40秒", … (seconds into the reading or period).
    Sec(u32),
    /// "一分钟": a full reading of 60 s is used.
    OneMinute,
    /// "还剩 x 分钟": reserved minutes left after one was used.
    MinutesLeft(u32),
    /// Byo-yomi: periods left after one was used ("还剩 x 次").
    PeriodsLeft(u32),
    /// The last minute's (period's) count, 1 … 10.
    Count(u32),
    /// Time has expired (超时).
    Timeout,
}

/// Length of one reading or period, if the control has them.
fn period_len_ms(tc: &TimeControl) -> Option<u64> {
    match *tc {
        TimeControl::ChineseByoYomi { .. } => Some(READING_MS),
        TimeControl::ByoYomi { period_secs, .. } | TimeControl::Canadian { period_secs, .. } => {
            Some(u64::from(period_secs) * 1000)
        }
        TimeControl::Absolute { .. } => None,
    }
}

/// The ms into the move at which this side's time expires (a press at or after it is late).
pub fn expiry_ms(tc: &TimeControl, start: &Face) -> u64 {
    let before = if start.overtime { 0 } else { start.main_ms };
    match *tc {
        TimeControl::Absolute { .. } => start.main_ms,
        TimeControl::ChineseByoYomi { .. } | TimeControl::ByoYomi { .. } => {
            before + u64::from(start.periods) * period_len_ms(tc).unwrap_or(0)
        }
        TimeControl::Canadian { .. } => {
            before + if start.overtime { start.period_ms } else { period_len_ms(tc).unwrap_or(0) }
        }
    }
}

/// The face `t_ms` into the move, the move not yet made; `None` once time has expired.
pub fn face_at(tc: &TimeControl, start: &Face, t_ms: u64) -> Option<Face> {
    settle(tc, start, t_ms, false)
}

/// The face after the move is made and the clock pressed `t_ms` into the move; `None` if the
/// press came at or after expiry (Art. 12.3: "同時落子" is too late).
pub fn press(tc: &TimeControl, start: &Face, t_ms: u64) -> Option<Face> {
    settle(tc, start, t_ms, true)
}

fn settle(tc: &TimeControl, start: &Face, t: u64, complete: bool) -> Option<Face> {
    if t >= expiry_ms(tc, start) {
        return None;
    }
    let mut f = *start;
    let over = if f.overtime {
        t
    } else if t < f.main_ms {
        f.main_ms -= t;
        return Some(f);
    } else {
        let over = t - f.main_ms;
        f.main_ms = 0;
        f.overtime = true;
        over
    };
    let len = period_len_ms(tc)?;
    match *tc {
        TimeControl::Absolute { .. } => None,
        TimeControl::ChineseByoYomi { .. } | TimeControl::ByoYomi { .. } => {
            // Only a full reading is used (rules.md §6.2); what is left of it is not kept.
            f.periods -= (over / len) as u32;
            Some(f)
        }
        TimeControl::Canadian { moves_per_period, .. } => {
            if !start.overtime {
                // The move in which the basic time runs out is the first of the period.
                f.period_ms = len;
                f.period_moves = moves_per_period;
            }
            f.period_ms -= over;
            if complete {
                f.period_moves -= 1;
                if f.period_moves == 0 {
                    // 節餘時間可延至下一節使用 (Art. 12.5).
                    f.period_ms += len;
                    f.period_moves = moves_per_period;
                }
            }
            Some(f)
        }
    }
}

/// Every call of a move that starts from `start`, with the ms into the move at which it is
/// made, in order, up to the timeout. Calls of one instant come in the order spoken.
pub fn calls(tc: &TimeControl, start: &Face) -> Vec<(u64, Call)> {
    let end = expiry_ms(tc, start);
    let (Some(len), true) =
        (period_len_ms(tc), matches!(tc, TimeControl::ChineseByoYomi { .. } | TimeControl::ByoYomi { .. }))
    else {
        return vec![(end, Call::Timeout)];
    };
    let chinese = matches!(tc, TimeControl::ChineseByoYomi { .. });
    let offset = if start.overtime { 0 } else { start.main_ms };
    let secs = len / 1000;
    let mut out = Vec::new();
    for k in 0..u64::from(start.periods) {
        let base = offset + k * len;
        let left = start.periods - 1 - k as u32;
        let at = |s: u64| base + s * 1000;
        let mut marks: Vec<u64> =
            (1..secs).map(|m| m * 10).filter(|m| *m < secs && *m + 30 >= secs).collect();
        if left > 0 {
            marks.extend([secs.saturating_sub(5), secs.saturating_sub(2)].into_iter().filter(|m| *m > 0));
        } else {
            // The last period's count takes its last 10 seconds (Art. 12.3: "此後隨即…逐秒報出").
            marks.retain(|m| *m + 10 <= secs);
        }
        marks.sort_unstable();
        marks.dedup();
        for m in marks {
            out.push((at(m), Call::Sec(m as u32)));
        }
        if left > 0 {
            if chinese {
                out.push((at(secs), Call::OneMinute));
                out.push((at(secs), Call::MinutesLeft(left)));
            } else {
                out.push((at(secs), Call::PeriodsLeft(left)));
            }
        } else {
            let counted = secs.min(10);
            for n in (11 - counted)..=10 {
                out.push((at(secs - 10 + n), Call::Count(n as u32)));
            }
            out.push((at(secs), Call::Timeout));
        }
    }
    out.retain(|(t, _)| *t <= end);
    out
}

/// The calls made after `from_ms` and up to `to_ms` (inclusive) into the move: what a clock
/// that last looked at `from_ms` must say now.
pub fn calls_between(tc: &TimeControl, start: &Face, from_ms: u64, to_ms: u64) -> Vec<(u64, Call)> {
    calls(tc, start).into_iter().filter(|(t, _)| *t > from_ms && *t <= to_ms).collect()
}

/// Whether a referee's stop (停钟) `t_ms` into the move puts the face back to its state after
/// the opponent's move: during reading, yes (seed 003 Art. 23.11: "读秒期间应将钟面恢复至对方着子后
/// 的状态"); otherwise the clock is stopped where it is.
pub fn stop_restores(tc: &TimeControl, start: &Face, t_ms: u64) -> bool {
    matches!(tc, TimeControl::ChineseByoYomi { .. } | TimeControl::ByoYomi { .. })
        && face_at(tc, start, t_ms).is_some_and(|f| f.overtime)
}

/// Whether the relay's section break follows the `moves`-th move of the game (Art. 10.2).
pub fn section_break_after(moves: u32) -> bool {
    SECTION_ENDS.contains(&moves)
}

/// Art. 22.3 (seed 003): a clock found faulty is replaced and both times set "in proportion to
/// the time each side has used" (参照双方已用时间按比例拨正时间). `used` is what the faulty clock
/// shows as used by each side, `actual_ms` the real time both have used together; the result is
/// each side's corrected used time (rounded down for the first, the rest to the second, so the
/// two add up exactly). With nothing shown as used, the time is split equally (as Art. 22.4
/// does when no record exists).
pub fn proportional(used: [u64; 2], actual_ms: u64) -> [u64; 2] {
    let total = u128::from(used[0]) + u128::from(used[1]);
    let first =
        (u128::from(used[0]) * u128::from(actual_ms)).checked_div(total).map_or(actual_ms / 2, |f| f as u64);
    [first, actual_ms - first]
}

/// The initial configuration of the clock page, handed to the browser as JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Setup {
    pub control: TimeControl,
    /// `[Black, White]` at the start (after a lateness deduction, or from a recorded reading).
    pub start: [Face; 2],
    /// Relay: the section breaks after moves 72 and 143.
    pub sections: bool,
    /// Moves already played when the clock starts (a relay match's recorded moves).
    pub moves: u32,
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[derive(Deserialize)]
    struct Fixture {
        cases: Vec<Case>,
    }

    #[derive(Deserialize)]
    struct Case {
        name: String,
        control: TimeControl,
        start: Face,
        /// Every call of the move, up to its timeout.
        calls: Vec<(u64, Call)>,
        /// Faces at times into the move (`null`: expired).
        #[serde(default)]
        faces: Vec<(u64, Option<Face>)>,
        /// Faces after a press at these times (`null`: too late).
        #[serde(default)]
        presses: Vec<(u64, Option<Face>)>,
    }

    fn fixture() -> Fixture {
        serde_json::from_str(include_str!("../../../assets/clock/fixture.json")).expect("fixture.json")
    }

    /// The shared fixture: the seed's call sequences and the faces, pinned for Rust (the
    /// browser test pins the JS module against the same file).
    #[test]
    fn fixture_sequences() {
        for c in fixture().cases {
            assert_eq!(calls(&c.control, &c.start), c.calls, "calls of {}", c.name);
            for (t, want) in &c.faces {
                assert_eq!(face_at(&c.control, &c.start, *t), *want, "face of {} at {t}", c.name);
            }
            for (t, want) in &c.presses {
                assert_eq!(press(&c.control, &c.start, *t), *want, "press of {} at {t}", c.name);
            }
        }
    }

    fn chinese(periods: u32) -> (TimeControl, Face) {
        let tc = TimeControl::ChineseByoYomi { basic_secs: 3600, reserved_minutes: 5 };
        (tc, Face { main_ms: 0, periods, period_ms: 0, period_moves: 0, overtime: true })
    }

    #[test]
    fn seed_minute_and_last_minute() {
        let (tc, f) = chinese(2);
        let names: Vec<Call> = calls(&tc, &f).into_iter().map(|(_, c)| c).collect();
        let mut want = vec![
            Call::Sec(30),
            Call::Sec(40),
            Call::Sec(50),
            Call::Sec(55),
            Call::Sec(58),
            Call::OneMinute,
            Call::MinutesLeft(1),
            Call::Sec(30),
            Call::Sec(40),
            Call::Sec(50),
        ];
        want.extend((1..=10).map(Call::Count));
        want.push(Call::Timeout);
        assert_eq!(names, want);
    }

    #[test]
    fn between_is_half_open() {
        let (tc, f) = chinese(1);
        assert_eq!(calls_between(&tc, &f, 30_000, 40_000), vec![(40_000, Call::Sec(40))]);
        assert!(calls_between(&tc, &f, 40_000, 40_999).is_empty());
    }

    #[test]
    fn referee_stop_restores_in_reading_only() {
        let tc = TimeControl::ChineseByoYomi { basic_secs: 3600, reserved_minutes: 5 };
        let f = Face { main_ms: 10_000, periods: 5, period_ms: 0, period_moves: 0, overtime: false };
        assert!(!stop_restores(&tc, &f, 9_999));
        assert!(stop_restores(&tc, &f, 10_000));
        assert!(!stop_restores(&TimeControl::Absolute { basic_secs: 60 }, &f, 20_000));
    }

    #[test]
    fn proportional_correction() {
        assert_eq!(proportional([3_000, 1_000], 2_000), [1_500, 500]);
        assert_eq!(proportional([0, 0], 1_001), [500, 501]);
        assert_eq!(proportional([1, 2], 10), [3, 7]);
    }

    #[test]
    fn relay_sections() {
        assert!(section_break_after(72) && section_break_after(143));
        assert!(!section_break_after(73) && !section_break_after(144));
    }

    fn control() -> impl Strategy<Value = TimeControl> {
        prop_oneof![
            (0u32..600, 1u32..6).prop_map(|(b, r)| TimeControl::ChineseByoYomi {
                basic_secs: b + r * 60,
                reserved_minutes: r
            }),
            (1u32..600).prop_map(|b| TimeControl::Absolute { basic_secs: b }),
            (0u32..600, 1u32..5, 10u32..61).prop_map(|(b, p, s)| TimeControl::ByoYomi {
                basic_secs: b,
                periods: p,
                period_secs: s
            }),
            (0u32..600, 1u32..20, 10u32..600).prop_map(|(b, m, s)| TimeControl::Canadian {
                basic_secs: b,
                moves_per_period: m,
                period_secs: s
            }),
        ]
    }

    fn start_of(tc: &TimeControl) -> Face {
        Face::from_reading(&rules::clock::ClockState::new(*tc).reading())
    }

    proptest! {
        /// The millisecond clock agrees with the rules crate's clock in whole seconds: the same
        /// periods used and the same expiry for a move of `s` seconds.
        #[test]
        fn agrees_with_rules_clock(tc in control(), s in 0u32..2000) {
            let mut rc = rules::clock::ClockState::new(tc);
            let f = start_of(&tc);
            let ours = press(&tc, &f, u64::from(s) * 1000);
            match rc.spend(s) {
                rules::clock::MoveClock::Expired => prop_assert!(ours.is_none()),
                rules::clock::MoveClock::InTime { .. } => {
                    prop_assert_eq!(ours.map(|f| f.reading()), Some(rc.reading()));
                }
            }
        }

        /// Calls come in time order, the last one is the timeout at expiry, and a face exists
        /// just before expiry and not at it.
        #[test]
        fn calls_end_in_timeout(tc in control()) {
            let f = start_of(&tc);
            let cs = calls(&tc, &f);
            let end = expiry_ms(&tc, &f);
            prop_assert!(cs.windows(2).all(|w| w[0].0 <= w[1].0));
            prop_assert_eq!(cs.last().copied(), Some((end, Call::Timeout)));
            prop_assert!(face_at(&tc, &f, end.saturating_sub(1)).is_some() || end == 0);
            prop_assert!(face_at(&tc, &f, end).is_none());
        }

        /// Looking at the clock at any instants says every call exactly once.
        #[test]
        fn polling_says_each_call_once(tc in control(), steps in proptest::collection::vec(1u64..5_000, 1..400)) {
            let f = start_of(&tc);
            let mut said = Vec::new();
            let mut last = 0;
            for s in steps {
                let now = last + s;
                said.extend(calls_between(&tc, &f, last, now));
                last = now;
            }
            let all: Vec<_> = calls(&tc, &f).into_iter().filter(|(t, _)| *t <= last && *t > 0).collect();
            prop_assert_eq!(said, all);
        }

        #[test]
        fn proportional_adds_up(a in 0u64..1u64 << 40, b in 0u64..1u64 << 40, t in 0u64..1u64 << 40) {
            let [x, y] = proportional([a, b], t);
            prop_assert_eq!(x + y, t);
            if a + b > 0 { prop_assert!(u128::from(x) * u128::from(a + b) <= u128::from(a) * u128::from(t)); }
        }
    }
}
