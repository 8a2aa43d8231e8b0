//! Time controls (计时, 2002 Art. 12), a clock simulator, and lateness (迟到, Art. 22.1–22.4).
//!
//! All times are integer seconds. The sources are rules.md §6 and §7, seed 000 Art. 12 and
//! Art. 22.1, seed 003 Arts. 13 and 22.
//!
//! ## Expiry at the boundary
//!
//! Art. 12.3 (seed 000): in the last minute the referee calls 1 … 10 after "50 s"; "if the player
//! places the stone when '10' is called, or has not placed it, the minute counts as used"
//! (裁判員讀出「10」而棋手同時落子或尚未落子，均應判為已使用１分鐘). A move made at exactly
//! 60 s therefore uses the minute. This module applies the same principle to every control: a
//! move must be *completed in strictly less* than the time available; a move that takes exactly
//! the remaining time of a period (or of absolute time) has used it up \[INF for the controls
//! other than Chinese byo-yomi\].

use crate::board::Color;
use crate::ruleset::{Preset, RuleSet};
use serde::{Deserialize, Serialize};

/// Length of one reading in Chinese byo-yomi: "此類慢棋比賽的讀秒每手棋限時為60秒" (Art. 12.3).
pub const CHINESE_READING_SECS: u32 = 60;

/// Upper bound on any configured duration (48 hours), to keep the arithmetic far from overflow.
pub const MAX_DURATION_SECS: u32 = 48 * 3600;

/// Seconds into the last minute at which the referee calls `count` (1 … 10) after "50 秒"
/// (Art. 12.3): the call "10" is at 60 s, and a stone placed then is too late.
pub const fn last_minute_call_secs(count: u32) -> u32 {
    50 + count
}

/// A time control, stored by tournaments as JSON (`{"kind": "chinese_byo_yomi", ...}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TimeControl {
    /// 读秒 with reserved minutes (保留时间), Art. 12.3 and rules.md §6.2: basic time `T` of
    /// which the last `R` minutes are reserved. When the clock reaches R minutes the referee
    /// starts reading; a move completed in under 60 s costs nothing, each full 60 s spent on a
    /// move consumes one reserved minute; when the last minute is used, time has expired.
    /// The reserve is *inside* the basic time (在规定时限内保留几分钟开始读秒).
    ChineseByoYomi { basic_secs: u32, reserved_minutes: u32 },
    /// 包干用时制, Art. 12.4: the game must end within the basic time; flag fall loses.
    /// Not permitted in the team relay format (seed 003 Art. 13).
    Absolute { basic_secs: u32 },
    /// 定时限步制, Art. 12.5 (Canadian): after the basic time, `moves_per_period` moves must be
    /// made within each `period_secs`; time saved in a period carries into the next one
    /// (節餘時間可延至下一節使用).
    Canadian { basic_secs: u32, moves_per_period: u32, period_secs: u32 },
    /// Basic time plus `periods` byo-yomi periods of `period_secs` each (rules.md §6.2 "modern
    /// equivalent", seed 003 Art. 13 "基本时限加读秒次数"): a move made within a period keeps
    /// it; each full period spent on a move is used up.
    ByoYomi { basic_secs: u32, periods: u32, period_secs: u32 },
}

impl TimeControl {
    /// 1988/2002 national-event style: `basic_min` minutes with the last 5 read (rules.md §6.2).
    pub fn chinese(basic_min: u32, reserved_minutes: u32) -> TimeControl {
        TimeControl::ChineseByoYomi { basic_secs: basic_min * 60, reserved_minutes }
    }

    /// The basic time (基本时限) in seconds. For Chinese byo-yomi it includes the reserve.
    pub fn basic_secs(&self) -> u32 {
        match *self {
            TimeControl::ChineseByoYomi { basic_secs, .. }
            | TimeControl::Absolute { basic_secs }
            | TimeControl::Canadian { basic_secs, .. }
            | TimeControl::ByoYomi { basic_secs, .. } => basic_secs,
        }
    }

    /// The part of the basic time that lateness may not deduct when the reserve is protected
    /// ([`LatenessPolicy::protect_reserve`]): the reserved minutes of Chinese byo-yomi, else 0.
    pub fn reserve_secs(&self) -> u32 {
        match *self {
            TimeControl::ChineseByoYomi { reserved_minutes, .. } => reserved_minutes * CHINESE_READING_SECS,
            _ => 0,
        }
    }

    /// Check the values a user entered. Errors are plain English sentences.
    pub fn validate(&self) -> Result<(), TimeControlProblem> {
        use TimeControlProblem as P;
        let too_long = |part: TimePart, secs: u32| -> Result<(), TimeControlProblem> {
            if secs > MAX_DURATION_SECS {
                Err(P::TooLong { part, secs })
            } else {
                Ok(())
            }
        };
        match *self {
            TimeControl::ChineseByoYomi { basic_secs, reserved_minutes } => {
                too_long(TimePart::Basic, basic_secs)?;
                if reserved_minutes == 0 {
                    return Err(P::NoReservedMinutes);
                }
                if u64::from(reserved_minutes) * 60 > u64::from(basic_secs) {
                    return Err(P::ReservedAboveBasic { reserved_minutes, basic_secs });
                }
            }
            TimeControl::Absolute { basic_secs } => {
                too_long(TimePart::Basic, basic_secs)?;
                if basic_secs == 0 {
                    return Err(P::NoBasicTime);
                }
            }
            TimeControl::Canadian { basic_secs, moves_per_period, period_secs } => {
                too_long(TimePart::Basic, basic_secs)?;
                too_long(TimePart::Period, period_secs)?;
                if moves_per_period == 0 || moves_per_period > MAX_PER_PERIOD {
                    return Err(P::PeriodMoves);
                }
                if period_secs == 0 {
                    return Err(P::NoPeriodTime);
                }
            }
            TimeControl::ByoYomi { basic_secs, periods, period_secs } => {
                too_long(TimePart::Basic, basic_secs)?;
                too_long(TimePart::Period, period_secs)?;
                if periods == 0 || periods > MAX_PER_PERIOD {
                    return Err(P::Periods);
                }
                if period_secs == 0 {
                    return Err(P::NoPeriodTime);
                }
            }
        }
        Ok(())
    }

    /// [`validate`](Self::validate) plus the rule set's restrictions: the team relay rules do not
    /// permit absolute time (包干用时不适用于围棋队际赛, seed 003 Art. 13).
    pub fn validate_for(&self, rules: &RuleSet) -> Result<(), TimeControlProblem> {
        self.validate()?;
        if rules.preset == Preset::ChineseTeamRelay && matches!(self, TimeControl::Absolute { .. }) {
            return Err(TimeControlProblem::AbsoluteInTeamRelay);
        }
        Ok(())
    }
}

/// Most moves of a Canadian period, and most byo-yomi periods, that a time control may have.
pub const MAX_PER_PERIOD: u32 = 1000;

/// Which duration of a time control.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimePart {
    Basic,
    Period,
}

/// Why a time control cannot be played ([`TimeControl::validate`]): a value, worded by the
/// application's catalog.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeControlProblem {
    /// A duration above [`MAX_DURATION_SECS`] (48 hours).
    TooLong { part: TimePart, secs: u32 },
    /// Chinese byo-yomi with no reserved minutes (absolute time is the form for none).
    NoReservedMinutes,
    /// The reserved minutes do not fit inside the basic time (Art. 12.3).
    ReservedAboveBasic { reserved_minutes: u32, basic_secs: u32 },
    /// Absolute time of 0.
    NoBasicTime,
    /// A Canadian period of 0 moves or more than [`MAX_PER_PERIOD`].
    PeriodMoves,
    /// Byo-yomi with 0 periods or more than [`MAX_PER_PERIOD`].
    Periods,
    /// A period lasting 0 seconds.
    NoPeriodTime,
    /// Absolute time under the team relay rules (seed 003 Art. 13).
    AbsoluteInTeamRelay,
}

/// Why a lateness policy cannot be applied ([`LatenessPolicy::validate`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LatenessProblem {
    /// A limit above 48 hours.
    LimitTooLong { minutes: u32 },
    /// A limit of 0 minutes that is not inclusive.
    ZeroLimitNotInclusive,
    /// Double deduction with the clock counting down in absence (it runs by itself).
    DoubleWithCountdown,
}

/// A clock face: 6900 → "1:55:00", 150 → "2:30".
pub fn hms(secs: u32) -> String {
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    }
}

/// What the clock of one player holds between moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ClockReading {
    /// Basic time left before reading/periods start (Chinese byo-yomi: the basic time above the
    /// reserve).
    pub main_secs: u32,
    /// Chinese byo-yomi: reserved minutes left; byo-yomi: periods left; otherwise 0.
    pub periods: u32,
    /// Canadian, in overtime: seconds left in the current period.
    pub period_secs: u32,
    /// Canadian, in overtime: moves still due in the current period.
    pub period_moves: u32,
    /// Reading / periods have started.
    pub overtime: bool,
}

/// One player's clock under a [`TimeControl`]: feed it the seconds spent on each move.
///
/// The clock can also run without a move being completed ([`elapse`](Self::elapse)), e.g. while
/// a player is absent (Art. 22.1 "自然计时", Art. 22.4 countdown in absence); the time keeps
/// counting in the current move until [`end_move`](Self::end_move).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockState {
    control: TimeControl,
    /// The state at the start of the current move.
    at_move_start: ClockReading,
    /// Seconds already spent on the current move.
    move_secs: u32,
    expired: bool,
    moves: u32,
}

/// What happened to the clock on a move (or while time elapsed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum MoveClock {
    /// In time. `periods_used`: reserved minutes / byo-yomi periods consumed by this move (the
    /// referee announced "还剩X分钟" that many times).
    InTime { periods_used: u32 },
    /// Time has expired (超时).
    Expired,
}

impl ClockState {
    /// A fresh clock with the full basic time.
    pub fn new(control: TimeControl) -> ClockState {
        ClockState::with_basic_left(control, control.basic_secs())
    }

    /// A clock whose basic time (including, for Chinese byo-yomi, the reserve) is reduced to
    /// `basic_left_secs`, e.g. after a lateness deduction. For Chinese byo-yomi the reserve
    /// becomes `min(R, ⌊left/60⌋)` minutes and the rest is ordinary basic time \[INF\]: with 4:30
    /// left and R = 5, the clock runs 30 s and then 4 minutes are read.
    pub fn with_basic_left(control: TimeControl, basic_left_secs: u32) -> ClockState {
        let b = basic_left_secs.min(control.basic_secs());
        let mut r =
            ClockReading { main_secs: b, periods: 0, period_secs: 0, period_moves: 0, overtime: false };
        let mut expired = false;
        match control {
            TimeControl::ChineseByoYomi { reserved_minutes, .. } => {
                r.periods = reserved_minutes.min(b / CHINESE_READING_SECS);
                r.main_secs = b - r.periods * CHINESE_READING_SECS;
                r.overtime = r.main_secs == 0;
                expired = r.main_secs == 0 && r.periods == 0;
            }
            TimeControl::Absolute { .. } => expired = b == 0,
            TimeControl::Canadian { moves_per_period, period_secs, .. } => {
                if b == 0 {
                    r.overtime = true;
                    r.period_secs = period_secs;
                    r.period_moves = moves_per_period;
                }
            }
            TimeControl::ByoYomi { periods, .. } => {
                r.periods = periods;
                r.overtime = b == 0;
            }
        }
        ClockState { control, at_move_start: r, move_secs: 0, expired, moves: 0 }
    }

    pub fn control(&self) -> &TimeControl {
        &self.control
    }

    /// Moves completed on this clock.
    pub fn moves(&self) -> u32 {
        self.moves
    }

    /// Seconds already counted on the current (unfinished) move.
    pub fn move_secs(&self) -> u32 {
        self.move_secs
    }

    pub fn is_expired(&self) -> bool {
        self.expired
    }

    /// The clock now: the time already spent on the current move is deducted, but the move is
    /// not counted (a Canadian period still owes it). Between moves, the state after the last
    /// move. After expiry: everything at 0.
    pub fn reading(&self) -> ClockReading {
        if self.expired {
            return ClockReading {
                main_secs: 0,
                periods: 0,
                period_secs: 0,
                period_moves: 0,
                overtime: !matches!(self.control, TimeControl::Absolute { .. }),
            };
        }
        self.settle(self.move_secs, false).map(|(r, _)| r).unwrap_or(self.at_move_start)
    }

    /// Basic time left (Chinese byo-yomi: including the reserved minutes), as a lateness verdict
    /// reports it.
    pub fn basic_left_secs(&self) -> u32 {
        let r = self.reading();
        match self.control {
            TimeControl::ChineseByoYomi { .. } => r.main_secs + r.periods * CHINESE_READING_SECS,
            _ => r.main_secs,
        }
    }

    /// Let `secs` pass on the current move without completing it. Reports expiry as soon as
    /// the time available for this move is used up (Art. 12.3: "尚未落子" also expires).
    pub fn elapse(&mut self, secs: u32) -> MoveClock {
        if self.expired {
            return MoveClock::Expired;
        }
        self.move_secs = self.move_secs.saturating_add(secs);
        match self.settle(self.move_secs, false) {
            Some((_, used)) => MoveClock::InTime { periods_used: used },
            None => {
                self.expired = true;
                MoveClock::Expired
            }
        }
    }

    /// Complete the current move (the stone is placed and the clock pressed).
    pub fn end_move(&mut self) -> MoveClock {
        if self.expired {
            return MoveClock::Expired;
        }
        match self.settle(self.move_secs, true) {
            Some((r, used)) => {
                self.at_move_start = r;
                self.move_secs = 0;
                self.moves += 1;
                MoveClock::InTime { periods_used: used }
            }
            None => {
                self.expired = true;
                MoveClock::Expired
            }
        }
    }

    /// A move that took `secs` seconds (on top of any time already elapsed on it).
    pub fn spend(&mut self, secs: u32) -> MoveClock {
        match self.elapse(secs) {
            MoveClock::Expired => MoveClock::Expired,
            MoveClock::InTime { .. } => self.end_move(),
        }
    }

    /// After a last-period timeout that the rules turn into a forced pass (Art. 22.5, seed 003
    /// Art. 22.1 "然后继续对局，并继续实施原先读秒方式"): play continues with the same reading.
    /// Chinese byo-yomi and byo-yomi get one period (the last minute) again; Canadian gets a
    /// fresh period. Absolute time cannot continue: its flag fall loses (Art. 12.4).
    pub fn resume_after_timeout(&mut self) -> Result<(), String> {
        if !self.expired {
            return Err("the clock has not expired".into());
        }
        let mut r =
            ClockReading { main_secs: 0, periods: 0, period_secs: 0, period_moves: 0, overtime: true };
        match self.control {
            TimeControl::Absolute { .. } => {
                return Err("under absolute time (包干) the flag fall loses the game (Art. 12.4)".into())
            }
            TimeControl::ChineseByoYomi { .. } | TimeControl::ByoYomi { .. } => r.periods = 1,
            TimeControl::Canadian { moves_per_period, period_secs, .. } => {
                r.period_secs = period_secs;
                r.period_moves = moves_per_period;
            }
        }
        self.at_move_start = r;
        self.move_secs = 0;
        self.expired = false;
        self.moves += 1; // the forced pass is the player's turn
        Ok(())
    }

    /// The state after `t` seconds from the start of the current move, with the number of
    /// periods consumed; `None` if time expired. `complete`: the move is made (a Canadian
    /// period counts it); otherwise only the time is counted.
    fn settle(&self, t: u32, complete: bool) -> Option<(ClockReading, u32)> {
        let mut r = self.at_move_start;
        let over = if r.overtime {
            t
        } else if t < r.main_secs {
            r.main_secs -= t;
            return Some((r, 0));
        } else {
            let over = t - r.main_secs;
            r.main_secs = 0;
            r.overtime = true;
            over
        };
        match self.control {
            TimeControl::Absolute { .. } => None,
            TimeControl::ChineseByoYomi { .. } | TimeControl::ByoYomi { .. } => {
                let len = match self.control {
                    TimeControl::ByoYomi { period_secs, .. } => period_secs,
                    _ => CHINESE_READING_SECS,
                };
                let used = over / len;
                if used >= r.periods {
                    return None;
                }
                r.periods -= used;
                Some((r, used))
            }
            TimeControl::Canadian { moves_per_period, period_secs, .. } => {
                if !self.at_move_start.overtime {
                    // The move in which the basic time runs out is the first move of the period.
                    r.period_secs = period_secs;
                    r.period_moves = moves_per_period;
                }
                if over >= r.period_secs {
                    return None;
                }
                r.period_secs -= over;
                if !complete {
                    return Some((r, 0));
                }
                r.period_moves -= 1;
                if r.period_moves == 0 {
                    // 節餘時間可延至下一節使用 (Art. 12.5).
                    r.period_secs += period_secs;
                    r.period_moves = moves_per_period;
                }
                Some((r, 0))
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Lateness (迟到)
// ---------------------------------------------------------------------------------------------

/// How lateness at the start of a game is treated (Art. 22.1–22.4, rules.md §7 and the
/// decisions table). The event's 竞赛规程 may override the presets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct LatenessPolicy {
    /// Lateness beyond this many minutes loses the game. `None`: no limit.
    pub limit_minutes: Option<u32>,
    /// Whether lateness of exactly the limit still plays (Art. 22.1: "不得超過一小時（含）").
    pub inclusive: bool,
    /// Deduct twice the lateness from the basic time (在其规定时限内加倍扣除, Art. 22.1); else
    /// once (the clock just ran while the player was away).
    pub double_deduction: bool,
    /// Chinese byo-yomi: the deduction stops at the reserved minutes, so the latecomer always
    /// keeps the reading. The rules do not say (rules.md §17 item 4, \[UNVERIFIED\]); the default
    /// (`false`) follows the decisions table literally: deducted from the basic time, which
    /// contains the reserve, never below 0.
    pub protect_reserve: bool,
    /// Blitz with no or very short basic time (Art. 22.4, rules.md §7): the absent player's
    /// clock runs (按时缺席读秒) and the player loses when it has expired before they are
    /// seated; no deduction. A `limit_minutes` still applies if set.
    pub absence_countdown: bool,
}

impl Default for LatenessPolicy {
    fn default() -> Self {
        LatenessPolicy::separate_venue()
    }
}

impl LatenessPolicy {
    /// Venue apart from lodging (赛场和住地分离, Art. 22.1), the project default: late ≤ 60 min
    /// (inclusive) plays with twice the lateness deducted from the basic time; > 60 min loses.
    pub fn separate_venue() -> LatenessPolicy {
        LatenessPolicy {
            limit_minutes: Some(60),
            inclusive: true,
            double_deduction: true,
            protect_reserve: false,
            absence_countdown: false,
        }
    }

    /// Venue and lodging essentially together (基本同在一处, Art. 22.2): late > 15 min loses;
    /// otherwise as in 22.1 (double deduction).
    pub fn same_venue() -> LatenessPolicy {
        LatenessPolicy { limit_minutes: Some(15), ..LatenessPolicy::separate_venue() }
    }

    /// An event's own limit (e.g. 10, 15, 30 min in rules.md §7), with double deduction.
    pub fn custom(limit_minutes: u32, inclusive: bool) -> LatenessPolicy {
        LatenessPolicy { limit_minutes: Some(limit_minutes), inclusive, ..LatenessPolicy::separate_venue() }
    }

    /// Blitz countdown in absence (Art. 22.4): no limit, no deduction, the clock just runs.
    pub fn blitz_countdown() -> LatenessPolicy {
        LatenessPolicy {
            limit_minutes: None,
            inclusive: true,
            double_deduction: false,
            protect_reserve: false,
            absence_countdown: true,
        }
    }

    pub fn validate(&self) -> Result<(), LatenessProblem> {
        if let Some(m) = self.limit_minutes {
            if u64::from(m) * 60 > u64::from(MAX_DURATION_SECS) {
                return Err(LatenessProblem::LimitTooLong { minutes: m });
            }
            if m == 0 && !self.inclusive {
                return Err(LatenessProblem::ZeroLimitNotInclusive);
            }
        }
        if self.absence_countdown && self.double_deduction {
            return Err(LatenessProblem::DoubleWithCountdown);
        }
        Ok(())
    }

    /// The limit in seconds, if any.
    pub fn limit_secs(&self) -> Option<u32> {
        self.limit_minutes.map(|m| m.saturating_mul(60))
    }

    /// Whether `late_secs` is beyond the limit.
    pub fn beyond_limit(&self, late_secs: u32) -> bool {
        match self.limit_secs() {
            None => false,
            Some(l) if self.inclusive => late_secs > l,
            Some(l) => late_secs >= l && late_secs > 0,
        }
    }
}

/// The verdict on one player's lateness.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum LatenessVerdict {
    /// The player plays. `deducted_secs` is the time taken from the clock (2× lateness, capped
    /// so that nothing goes below 0; or the time the clock ran), `remaining_basic_secs` the
    /// basic time left on arrival (Chinese byo-yomi: including the reserve), `clock` the clock
    /// ready for play.
    Plays { late_secs: u32, deducted_secs: u32, remaining_basic_secs: u32, clock: ClockState },
    /// 迟到判负: beyond the limit (Art. 22.1/22.2), or the countdown in absence ended (22.4).
    LosesByLateness { late_secs: u32, limit_secs: Option<u32> },
    /// Resumed game: the clock, running naturally while the player was away, expired: a loss
    /// on time, not by lateness (Art. 22.1 "不設遲到判負時限").
    TimeExpired { late_secs: u32 },
}

impl LatenessVerdict {
    /// The player loses the game (by lateness or on time).
    pub fn loses(&self) -> bool {
        !matches!(self, LatenessVerdict::Plays { .. })
    }
}

/// Judge one player's lateness at the start of a game (`resumed = false`) or at the resumption
/// after a pause (`resumed = true`, with the clock as it stood at the start; use
/// [`assess_resumed`] to pass the clock recorded at the pause).
///
/// - Art. 22.1/22.2: beyond the limit → [`LatenessVerdict::LosesByLateness`]; otherwise the
///   lateness is deducted (twice with `double_deduction`) from the basic time, never below 0
///   (nor below the reserve with `protect_reserve`). Example: basic 120 min, 20 min late →
///   80 min left.
/// - Art. 22.1 (resumption): the clock just runs (自然计时), no lateness limit.
/// - Art. 22.4 (`absence_countdown`): the clock runs while the player is absent; if it expires
///   first, the player loses.
pub fn assess(
    policy: &LatenessPolicy,
    control: &TimeControl,
    late_secs: u32,
    resumed: bool,
) -> LatenessVerdict {
    let clock = ClockState::new(*control);
    if resumed {
        return assess_resumed(&clock, late_secs);
    }
    if late_secs > 0 && policy.beyond_limit(late_secs) {
        return LatenessVerdict::LosesByLateness { late_secs, limit_secs: policy.limit_secs() };
    }
    if policy.absence_countdown {
        let mut c = clock;
        let before = c.basic_left_secs();
        return match c.elapse(late_secs) {
            MoveClock::Expired => LatenessVerdict::LosesByLateness { late_secs, limit_secs: None },
            MoveClock::InTime { .. } => {
                let remaining = c.basic_left_secs();
                LatenessVerdict::Plays {
                    late_secs,
                    deducted_secs: before - remaining,
                    remaining_basic_secs: remaining,
                    clock: c,
                }
            }
        };
    }
    let basic = control.basic_secs();
    let factor = if policy.double_deduction { 2 } else { 1 };
    let floor = if policy.protect_reserve { control.reserve_secs() } else { 0 };
    let wanted = u64::from(late_secs) * factor;
    let deducted = wanted.min(u64::from(basic.saturating_sub(floor))) as u32;
    let remaining = basic - deducted;
    LatenessVerdict::Plays {
        late_secs,
        deducted_secs: deducted,
        remaining_basic_secs: remaining,
        clock: ClockState::with_basic_left(*control, remaining),
    }
}

/// Lateness at the resumption after a pause or adjournment (Art. 22.1 "暫停後續弈時遲到，一律打開
/// 計時器進入自然計時狀態，但不設遲到判負時限"): the clock recorded at the pause runs for the
/// time the player is absent; there is no lateness limit, but the clock may expire.
pub fn assess_resumed(clock_at_resumption: &ClockState, late_secs: u32) -> LatenessVerdict {
    let mut c = clock_at_resumption.clone();
    let before = c.basic_left_secs();
    match c.elapse(late_secs) {
        MoveClock::Expired => LatenessVerdict::TimeExpired { late_secs },
        MoveClock::InTime { .. } => {
            let remaining = c.basic_left_secs();
            LatenessVerdict::Plays {
                late_secs,
                deducted_secs: before - remaining,
                remaining_basic_secs: remaining,
                clock: c,
            }
        }
    }
}

/// Both players' lateness, each judged separately (Art. 22.3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BothLateness {
    pub black: LatenessVerdict,
    pub white: LatenessVerdict,
}

/// What the two lateness verdicts mean for the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum LatenessOutcome {
    /// The game is played.
    Play,
    /// This side loses (by lateness or on time); the other wins.
    Loses { loser: Color },
    /// Both beyond the limit: 双方均负 (Art. 22.3).
    DoubleLoss,
}

impl BothLateness {
    pub fn verdict(&self, color: Color) -> &LatenessVerdict {
        match color {
            Color::Black => &self.black,
            Color::White => &self.white,
        }
    }

    pub fn outcome(&self) -> LatenessOutcome {
        match (self.black.loses(), self.white.loses()) {
            (false, false) => LatenessOutcome::Play,
            (true, false) => LatenessOutcome::Loses { loser: Color::Black },
            (false, true) => LatenessOutcome::Loses { loser: Color::White },
            (true, true) => LatenessOutcome::DoubleLoss,
        }
    }
}

/// Judge both players (Art. 22.3: "each handled separately, possibly up to both losing").
pub fn assess_both(
    policy: &LatenessPolicy,
    control: &TimeControl,
    black_late_secs: u32,
    white_late_secs: u32,
    resumed: bool,
) -> BothLateness {
    BothLateness {
        black: assess(policy, control, black_late_secs, resumed),
        white: assess(policy, control, white_late_secs, resumed),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIN: u32 = 60;

    fn chinese_120_5() -> TimeControl {
        TimeControl::chinese(120, 5)
    }

    /// rules.md §6.2 worked example: R = 5 with 5:00 left; a move of 150 s leaves 3 minutes.
    #[test]
    fn worked_example_reserved_minutes() {
        let mut c = ClockState::with_basic_left(chinese_120_5(), 5 * MIN);
        assert!(c.reading().overtime, "reading starts at R minutes");
        assert_eq!(c.reading().periods, 5);
        assert_eq!(c.spend(150), MoveClock::InTime { periods_used: 2 });
        assert_eq!(c.reading().periods, 3);
        // A move under 60 s costs nothing.
        assert_eq!(c.spend(59), MoveClock::InTime { periods_used: 0 });
        assert_eq!(c.reading().periods, 3);
        // Exactly 60 s in a minute that is not the last: the minute is used, time remains.
        assert_eq!(c.spend(60), MoveClock::InTime { periods_used: 1 });
        assert_eq!(c.reading().periods, 2);
        assert_eq!(c.spend(119), MoveClock::InTime { periods_used: 1 });
        assert_eq!((c.reading().overtime, c.reading().periods), (true, 1), "reading: the last minute");
        // Last minute: a stone at the count of 9 is in time.
        assert_eq!(c.spend(last_minute_call_secs(9)), MoveClock::InTime { periods_used: 0 });
        // A stone placed on the count of 10 (= 60 s) is too late (Art. 12.3).
        assert_eq!(last_minute_call_secs(10), 60);
        assert_eq!(c.spend(last_minute_call_secs(10)), MoveClock::Expired);
        assert!(c.is_expired());
        assert_eq!(c.spend(1), MoveClock::Expired, "stays expired");
    }

    /// From a fresh clock: basic time runs down to the reserve, then the same move is read.
    #[test]
    fn basic_time_flows_into_the_reading() {
        let mut c = ClockState::new(chinese_120_5());
        assert_eq!(c.reading().main_secs, 115 * MIN);
        assert!(!c.reading().overtime);
        assert_eq!(c.spend(100 * MIN), MoveClock::InTime { periods_used: 0 });
        assert_eq!((c.reading().main_secs, c.reading().periods), (15 * MIN, 5));
        // 15 min of basic time, then 150 s of reading in the same move.
        assert_eq!(c.spend(15 * MIN + 150), MoveClock::InTime { periods_used: 2 });
        assert_eq!(
            c.reading(),
            ClockReading { main_secs: 0, periods: 3, period_secs: 0, period_moves: 0, overtime: true }
        );
        assert_eq!(c.moves(), 2);
    }

    /// Not placing the stone when "10" is called also expires (elapse without a move).
    #[test]
    fn expiry_while_thinking() {
        let mut c = ClockState::with_basic_left(chinese_120_5(), MIN);
        assert_eq!(c.elapse(59), MoveClock::InTime { periods_used: 0 });
        assert_eq!(c.elapse(1), MoveClock::Expired);
        // A forced pass (Art. 22.5 / seed 003 Art. 22.1) continues with the last minute.
        c.resume_after_timeout().unwrap();
        assert_eq!(c.reading().periods, 1);
        assert_eq!(c.spend(30), MoveClock::InTime { periods_used: 0 });
    }

    #[test]
    fn absolute_time() {
        let mut c = ClockState::new(TimeControl::Absolute { basic_secs: 60 * MIN });
        assert_eq!(c.spend(59 * MIN), MoveClock::InTime { periods_used: 0 });
        assert_eq!(c.reading().main_secs, 60);
        assert_eq!(c.spend(59), MoveClock::InTime { periods_used: 0 });
        assert_eq!(c.spend(1), MoveClock::Expired, "the last second used up: flag fall");
        assert!(c.resume_after_timeout().is_err(), "包干: flag fall loses");
    }

    /// Art. 12.5: 15 moves per 10 minutes, saved time carries over.
    #[test]
    fn canadian_periods_carry_over() {
        let ctl = TimeControl::Canadian { basic_secs: 60, moves_per_period: 2, period_secs: 100 };
        let mut c = ClockState::new(ctl);
        assert_eq!(c.spend(50), MoveClock::InTime { periods_used: 0 });
        // 10 s of basic, 20 s of the period: first move of the period.
        assert_eq!(c.spend(30), MoveClock::InTime { periods_used: 0 });
        assert_eq!((c.reading().period_secs, c.reading().period_moves), (80, 1));
        // Second move completes the period: 40 s saved + 100 s.
        assert_eq!(c.spend(40), MoveClock::InTime { periods_used: 0 });
        assert_eq!((c.reading().period_secs, c.reading().period_moves), (140, 2));
        assert_eq!(c.spend(139), MoveClock::InTime { periods_used: 0 });
        assert_eq!(c.spend(1), MoveClock::Expired);
        c.resume_after_timeout().unwrap();
        assert_eq!((c.reading().period_secs, c.reading().period_moves), (100, 2));
    }

    /// 45 min + 3 × 20 s (rules.md §6.2, \[E13\]).
    #[test]
    fn byo_yomi_periods() {
        let ctl = TimeControl::ByoYomi { basic_secs: 45 * MIN, periods: 3, period_secs: 20 };
        let mut c = ClockState::new(ctl);
        assert_eq!(c.spend(45 * MIN - 5), MoveClock::InTime { periods_used: 0 });
        // 5 s of basic time, then 19 s of the first period: kept.
        assert_eq!(c.spend(24), MoveClock::InTime { periods_used: 0 });
        assert_eq!(c.reading().periods, 3);
        assert_eq!(c.spend(20), MoveClock::InTime { periods_used: 1 });
        assert_eq!((c.reading().overtime, c.reading().periods), (true, 2));
        assert_eq!(c.spend(39), MoveClock::InTime { periods_used: 1 });
        assert_eq!(c.spend(20), MoveClock::Expired);
    }

    #[test]
    fn validation() {
        let byo = TimeControl::ByoYomi { basic_secs: 45 * MIN, periods: 3, period_secs: 20 };
        let can = TimeControl::Canadian { basic_secs: 60 * MIN, moves_per_period: 15, period_secs: 10 * MIN };
        for ok in [chinese_120_5(), byo, can, TimeControl::Absolute { basic_secs: 1 }] {
            ok.validate().unwrap();
        }
        use TimeControlProblem as P;
        let bad = [
            (TimeControl::chinese(3, 5), P::ReservedAboveBasic { reserved_minutes: 5, basic_secs: 3 * MIN }),
            (TimeControl::chinese(60, 0), P::NoReservedMinutes),
            (TimeControl::Absolute { basic_secs: 0 }, P::NoBasicTime),
            (TimeControl::Canadian { basic_secs: 0, moves_per_period: 0, period_secs: 60 }, P::PeriodMoves),
            (
                TimeControl::Canadian { basic_secs: 0, moves_per_period: 1001, period_secs: 60 },
                P::PeriodMoves,
            ),
            (TimeControl::ByoYomi { basic_secs: 0, periods: 3, period_secs: 0 }, P::NoPeriodTime),
            (TimeControl::ByoYomi { basic_secs: 0, periods: 0, period_secs: 30 }, P::Periods),
            (
                TimeControl::Absolute { basic_secs: MAX_DURATION_SECS + 1 },
                P::TooLong { part: TimePart::Basic, secs: MAX_DURATION_SECS + 1 },
            ),
        ];
        for (c, problem) in bad {
            assert_eq!(c.validate(), Err(problem), "{c:?}");
        }
        let team = RuleSet::chinese_team_relay();
        assert_eq!(
            TimeControl::Absolute { basic_secs: 3600 }.validate_for(&team),
            Err(TimeControlProblem::AbsoluteInTeamRelay)
        );
        assert!(TimeControl::Absolute { basic_secs: 3600 }.validate_for(&RuleSet::chinese_2002()).is_ok());
        assert!(byo.validate_for(&team).is_ok());
    }

    #[test]
    fn json_round_trip() {
        let ctl = chinese_120_5();
        let json = serde_json::to_string(&ctl).unwrap();
        assert_eq!(json, r#"{"kind":"chinese_byo_yomi","basic_secs":7200,"reserved_minutes":5}"#);
        assert_eq!(serde_json::from_str::<TimeControl>(&json).unwrap(), ctl);
        let mut c = ClockState::new(ctl);
        let _ = c.spend(100);
        let back: ClockState = serde_json::from_str(&serde_json::to_string(&c).unwrap()).unwrap();
        assert_eq!(back, c);
        let p = LatenessPolicy::same_venue();
        assert_eq!(serde_json::from_str::<LatenessPolicy>(&serde_json::to_string(&p).unwrap()).unwrap(), p);
    }

    fn plays(v: &LatenessVerdict) -> (u32, u32) {
        match v {
            LatenessVerdict::Plays { deducted_secs, remaining_basic_secs, .. } => {
                (*deducted_secs, *remaining_basic_secs)
            }
            other => panic!("expected to play: {other:?}"),
        }
    }

    fn abs(min: u32) -> TimeControl {
        TimeControl::Absolute { basic_secs: min * MIN }
    }

    /// Art. 22.1: ≤ 60 min inclusive plays, > 60 min loses.
    #[test]
    fn sixty_minute_regime_boundaries() {
        let p = LatenessPolicy::separate_venue();
        let basic = abs(180);
        assert_eq!(plays(&assess(&p, &basic, 59 * MIN, false)), (118 * MIN, 62 * MIN));
        assert_eq!(plays(&assess(&p, &basic, 60 * MIN, false)), (120 * MIN, 60 * MIN));
        assert!(assess(&p, &basic, 60 * MIN + 1, false).loses(), "60 min 1 s is beyond the hour");
        assert!(assess(&p, &basic, 61 * MIN, false).loses());
        let exclusive = LatenessPolicy { inclusive: false, ..p };
        assert!(!assess(&exclusive, &basic, 59 * MIN, false).loses());
        assert!(assess(&exclusive, &basic, 60 * MIN, false).loses());
        assert!(assess(&exclusive, &basic, 61 * MIN, false).loses());
    }

    /// Art. 22.2: 15 minutes.
    #[test]
    fn fifteen_minute_regime_boundaries() {
        let p = LatenessPolicy::same_venue();
        let basic = abs(60);
        assert_eq!(plays(&assess(&p, &basic, 14 * MIN, false)), (28 * MIN, 32 * MIN));
        assert_eq!(plays(&assess(&p, &basic, 15 * MIN, false)), (30 * MIN, 30 * MIN));
        let v = assess(&p, &basic, 16 * MIN, false);
        assert_eq!(v, LatenessVerdict::LosesByLateness { late_secs: 16 * MIN, limit_secs: Some(15 * MIN) });
        let exclusive = LatenessPolicy::custom(15, false);
        assert!(!assess(&exclusive, &basic, 14 * MIN, false).loses());
        assert!(assess(&exclusive, &basic, 15 * MIN, false).loses());
        assert!(assess(&exclusive, &basic, 16 * MIN, false).loses());
        assert!(!assess(&exclusive, &basic, 0, false).loses(), "on time is never late");
    }

    #[test]
    fn double_deduction_arithmetic() {
        let p = LatenessPolicy::separate_venue();
        // basic 120 min, 20 min late → 80 min left.
        let v = assess(&p, &chinese_120_5(), 20 * MIN, false);
        assert_eq!(plays(&v), (40 * MIN, 80 * MIN));
        // 2 × lateness larger than the basic time → 0 left, never negative.
        let v = assess(&p, &abs(60), 45 * MIN, false);
        assert_eq!(plays(&v), (60 * MIN, 0));
        if let LatenessVerdict::Plays { clock, .. } = &v {
            assert!(clock.is_expired(), "absolute time with 0 left has expired");
        }
        // Byo-yomi periods are outside the basic time and stay.
        let byo = TimeControl::ByoYomi { basic_secs: 30 * MIN, periods: 3, period_secs: 30 };
        let v = assess(&p, &byo, 20 * MIN, false);
        assert_eq!(plays(&v), (30 * MIN, 0));
        if let LatenessVerdict::Plays { clock, .. } = &v {
            assert_eq!(clock.reading().periods, 3);
        }
        // Chinese reserve inside the basic time: eaten by default, kept with protect_reserve.
        let c = TimeControl::chinese(60, 5);
        let v = assess(&p, &c, 28 * MIN, false);
        assert_eq!(plays(&v), (56 * MIN, 4 * MIN));
        if let LatenessVerdict::Plays { clock, .. } = &v {
            assert_eq!(clock.reading().periods, 4);
        }
        let keep = LatenessPolicy { protect_reserve: true, ..p };
        assert_eq!(plays(&assess(&keep, &c, 28 * MIN, false)), (55 * MIN, 5 * MIN));
        // Single deduction.
        let single = LatenessPolicy { double_deduction: false, ..p };
        assert_eq!(plays(&assess(&single, &abs(120), 20 * MIN, false)), (20 * MIN, 100 * MIN));
    }

    /// Art. 22.1: after an adjournment the clock just runs; no limit.
    #[test]
    fn resumed_game_clock_just_runs() {
        let p = LatenessPolicy::separate_venue();
        assert_eq!(plays(&assess(&p, &abs(120), 90 * MIN, true)), (90 * MIN, 30 * MIN));
        // Chinese byo-yomi: 115 min of basic time, then 3 full minutes of the reserve.
        let v = assess(&p, &chinese_120_5(), 118 * MIN, true);
        assert_eq!(plays(&v), (118 * MIN, 2 * MIN));
        let v = assess(&p, &chinese_120_5(), 120 * MIN, true);
        assert_eq!(v, LatenessVerdict::TimeExpired { late_secs: 120 * MIN });
        // From a clock recorded at the pause.
        let mut at_pause = ClockState::new(abs(60));
        let _ = at_pause.spend(50 * MIN);
        assert_eq!(plays(&assess_resumed(&at_pause, 5 * MIN)), (5 * MIN, 5 * MIN));
        assert!(assess_resumed(&at_pause, 10 * MIN).loses());
    }

    /// Art. 22.4: countdown in absence.
    #[test]
    fn blitz_countdown_in_absence() {
        let p = LatenessPolicy::blitz_countdown();
        p.validate().unwrap();
        let ctl = TimeControl::ByoYomi { basic_secs: 0, periods: 3, period_secs: 30 };
        let v = assess(&p, &ctl, 80, false);
        match &v {
            LatenessVerdict::Plays { clock, .. } => {
                assert_eq!(clock.reading().periods, 1);
                assert_eq!(clock.move_secs(), 80, "the count continues into the first move");
                let mut clock = clock.clone();
                assert_eq!(clock.spend(9), MoveClock::InTime { periods_used: 2 });
                assert_eq!(clock.spend(30), MoveClock::Expired);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            assess(&p, &ctl, 90, false),
            LatenessVerdict::LosesByLateness { late_secs: 90, limit_secs: None }
        );
        assert!(LatenessPolicy { double_deduction: true, ..p }.validate().is_err());
    }

    /// Art. 22.3: each judged separately; both beyond the limit → double loss.
    #[test]
    fn both_players_late() {
        let p = LatenessPolicy::separate_venue();
        let ctl = chinese_120_5();
        let both = assess_both(&p, &ctl, 61 * MIN, 70 * MIN, false);
        assert_eq!(both.outcome(), LatenessOutcome::DoubleLoss);
        let one = assess_both(&p, &ctl, 10 * MIN, 61 * MIN, false);
        assert_eq!(one.outcome(), LatenessOutcome::Loses { loser: Color::White });
        assert_eq!(plays(one.verdict(Color::Black)), (20 * MIN, 100 * MIN));
        let fine = assess_both(&p, &ctl, 0, 30 * MIN, false);
        assert_eq!(fine.outcome(), LatenessOutcome::Play);
        assert_eq!(plays(&fine.white), (60 * MIN, 60 * MIN));
        assert_eq!(assess_both(&p, &ctl, 200 * MIN, 200 * MIN, true).outcome(), LatenessOutcome::DoubleLoss);
    }

    #[test]
    fn policy_validation_and_clock_faces() {
        assert_eq!(LatenessPolicy::custom(0, false).validate(), Err(LatenessProblem::ZeroLimitNotInclusive));
        assert!(LatenessPolicy::custom(0, true).beyond_limit(1));
        assert_eq!(hms(6900), "1:55:00");
    }
}
