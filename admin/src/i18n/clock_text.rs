//! `rules::clock`'s typed values in the reader's language: what a clock shows a player, a
//! lateness policy, a lateness verdict. The rules crate computes them; the words are the
//! catalog's (`clock_say.*`, `late_policy.*`, `late_verdict.*`).

use super::tr;
use super::Lang;
use rules::clock::{
    hms, ClockState, LatenessPolicy, LatenessProblem, LatenessVerdict, TimeControl, TimeControlProblem,
    TimePart, MAX_PER_PERIOD,
};

impl Lang {
    /// Why a time control cannot be played, beside the form's time fields.
    pub fn time_control_problem(self, p: &TimeControlProblem) -> String {
        use TimeControlProblem as P;
        match *p {
            P::TooLong { part: TimePart::Basic, secs } => {
                tr!(self, "tc_problem.too_long_basic", duration = self.duration(secs))
            }
            P::TooLong { part: TimePart::Period, secs } => {
                tr!(self, "tc_problem.too_long_period", duration = self.duration(secs))
            }
            P::NoReservedMinutes => self.t("tc_problem.no_reserved").into(),
            P::ReservedAboveBasic { reserved_minutes, basic_secs } => {
                tr!(
                    self,
                    "tc_problem.reserved_above_basic",
                    reserved_minutes,
                    basic = self.duration(basic_secs)
                )
            }
            P::NoBasicTime => self.t("tc_problem.no_basic").into(),
            P::PeriodMoves => tr!(self, "tc_problem.period_moves", max = MAX_PER_PERIOD),
            P::Periods => tr!(self, "tc_problem.periods", max = MAX_PER_PERIOD),
            P::NoPeriodTime => self.t("tc_problem.no_period_time").into(),
            P::AbsoluteInTeamRelay => self.t("t.err_absolute_team").into(),
        }
    }

    /// Why a lateness policy cannot be applied.
    pub fn lateness_problem(self, p: &LatenessProblem) -> String {
        match *p {
            LatenessProblem::LimitTooLong { minutes } => tr!(self, "late_problem.limit_too_long", minutes),
            LatenessProblem::ZeroLimitNotInclusive => self.t("t.err_late_zero").into(),
            LatenessProblem::DoubleWithCountdown => self.t("late_problem.double_with_countdown").into(),
        }
    }

    /// What a referee would tell the player: "1:55:00 left" / "还剩1:55:00", "reading: 3
    /// reserved minutes left" / "读秒：还剩3分钟", "time expired" / "超时".
    pub fn clock_state(self, c: &ClockState) -> String {
        if c.is_expired() {
            return self.t("clock_say.expired").into();
        }
        let r = c.reading();
        let (main, period) = (hms(r.main_secs), hms(r.period_secs));
        match *c.control() {
            TimeControl::ChineseByoYomi { .. } if !r.overtime => {
                tr!(self, "clock_say.chinese_main", main, periods = r.periods)
            }
            TimeControl::ChineseByoYomi { .. } if r.periods == 1 => self.t("clock_say.chinese_last").into(),
            TimeControl::ChineseByoYomi { .. } => tr!(self, "clock_say.chinese_reading", periods = r.periods),
            TimeControl::Absolute { .. } => tr!(self, "clock_say.absolute", main),
            TimeControl::Canadian { .. } if !r.overtime => tr!(self, "clock_say.canadian_main", main),
            TimeControl::Canadian { .. } => {
                tr!(self, "clock_say.canadian_period", moves = r.period_moves, period)
            }
            TimeControl::ByoYomi { period_secs, .. } if !r.overtime => {
                tr!(
                    self,
                    "clock_say.byo_main",
                    main,
                    periods = r.periods,
                    period = self.duration(period_secs)
                )
            }
            TimeControl::ByoYomi { period_secs, .. } => {
                tr!(self, "clock_say.byo_period", periods = r.periods, period = self.duration(period_secs))
            }
        }
    }

    /// A lateness policy: "late more than 60 min loses; otherwise the lateness is deducted
    /// from the basic time" / "迟到超过60分钟判负（60分钟含）；未超过时限的，…".
    pub fn lateness_policy(self, p: &LatenessPolicy) -> String {
        let limit = match p.limit_minutes {
            None => self.t("late_policy.no_limit").to_string(),
            Some(m) if p.inclusive => tr!(self, "late_policy.limit_inclusive", minutes = m),
            Some(m) => tr!(self, "late_policy.limit", minutes = m),
        };
        let how = self.t(if p.absence_countdown {
            "late_policy.countdown"
        } else if p.double_deduction {
            "late_policy.double"
        } else {
            "late_policy.deduct"
        });
        tr!(self, "late_policy.both", limit, how)
    }

    /// A lateness verdict: "plays with 80 min left (20 min late, 40 min deducted)" /
    /// "迟到20分钟，扣除40分钟，剩余基本用时80分钟".
    pub fn lateness_verdict(self, v: &LatenessVerdict) -> String {
        let d = |s: u32| self.duration(s);
        match *v {
            LatenessVerdict::Plays { late_secs: 0, remaining_basic_secs, .. } => {
                tr!(self, "late_verdict.on_time", left = d(remaining_basic_secs))
            }
            LatenessVerdict::Plays { late_secs, deducted_secs, remaining_basic_secs, .. } => {
                tr!(
                    self,
                    "late_verdict.plays",
                    left = d(remaining_basic_secs),
                    late = d(late_secs),
                    deducted = d(deducted_secs)
                )
            }
            LatenessVerdict::LosesByLateness { late_secs, limit_secs: Some(l) } => {
                tr!(self, "late_verdict.beyond", late = d(late_secs), limit = d(l))
            }
            LatenessVerdict::LosesByLateness { late_secs, limit_secs: None } => {
                tr!(self, "late_verdict.countdown_ended", late = d(late_secs))
            }
            LatenessVerdict::TimeExpired { late_secs } => {
                tr!(self, "late_verdict.time_expired", late = d(late_secs))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn controls() -> Vec<TimeControl> {
        vec![
            TimeControl::ChineseByoYomi { basic_secs: 7200, reserved_minutes: 5 },
            TimeControl::ChineseByoYomi { basic_secs: 60, reserved_minutes: 1 },
            TimeControl::Absolute { basic_secs: 90 },
            TimeControl::Canadian { basic_secs: 3600, moves_per_period: 15, period_secs: 600 },
            TimeControl::Canadian { basic_secs: 0, moves_per_period: 15, period_secs: 600 },
            TimeControl::ByoYomi { basic_secs: 2700, periods: 3, period_secs: 20 },
            TimeControl::ByoYomi { basic_secs: 0, periods: 3, period_secs: 30 },
        ]
    }

    /// Clocks in every state: fresh, in the reading, expired.
    fn clocks() -> Vec<ClockState> {
        let mut out = Vec::new();
        for tc in controls() {
            let fresh = ClockState::new(tc);
            let mut reading = fresh.clone();
            reading.spend(tc.basic_secs() + 1);
            let mut expired = fresh.clone();
            expired.spend(100_000);
            out.extend([fresh, reading, expired]);
        }
        out
    }

    fn verdicts() -> Vec<LatenessVerdict> {
        let clock = ClockState::new(controls()[0]);
        vec![
            LatenessVerdict::Plays {
                late_secs: 0,
                deducted_secs: 0,
                remaining_basic_secs: 7200,
                clock: clock.clone(),
            },
            LatenessVerdict::Plays {
                late_secs: 1200,
                deducted_secs: 2400,
                remaining_basic_secs: 4800,
                clock,
            },
            LatenessVerdict::LosesByLateness { late_secs: 3660, limit_secs: Some(3600) },
            LatenessVerdict::LosesByLateness { late_secs: 90, limit_secs: None },
            LatenessVerdict::TimeExpired { late_secs: 600 },
        ]
    }

    fn policies() -> Vec<LatenessPolicy> {
        let base = LatenessPolicy::default();
        vec![
            LatenessPolicy { limit_minutes: None, ..base },
            LatenessPolicy { limit_minutes: Some(60), inclusive: true, ..base },
            LatenessPolicy { limit_minutes: Some(30), inclusive: false, double_deduction: true, ..base },
            LatenessPolicy {
                limit_minutes: Some(30),
                double_deduction: false,
                absence_countdown: false,
                ..base
            },
            LatenessPolicy { absence_countdown: true, double_deduction: false, ..base },
        ]
    }

    /// Not blank, no placeholder left, no catalog key shown in place of its text.
    fn whole(s: &str) {
        assert!(!s.trim().is_empty(), "blank");
        assert!(!s.contains('{') && !s.contains("clock_say.") && !s.contains("late_"), "{s}");
    }

    #[test]
    fn every_clock_state_policy_and_verdict_renders_in_both_languages() {
        for l in [Lang::En, Lang::Zh] {
            clocks().iter().for_each(|c| whole(&l.clock_state(c)));
            policies().iter().for_each(|p| whole(&l.lateness_policy(p)));
            verdicts().iter().for_each(|v| whole(&l.lateness_verdict(v)));
        }
    }

    /// The words read as the rules crate's own descriptions did before they moved here.
    #[test]
    fn descriptions_read_as_before() {
        let c = &clocks();
        assert_eq!(Lang::En.clock_state(&c[0]), "1:55:00 left before reading (5 reserved min)");
        assert_eq!(Lang::Zh.clock_state(&c[0]), "基本用时还剩1:55:00（另保留5分钟读秒）");
        assert_eq!(
            (Lang::En.clock_state(&c[2]), Lang::Zh.clock_state(&c[2])),
            ("time expired".into(), "超时".into())
        );
        assert_eq!(Lang::Zh.clock_state(&c[10]), "本节还需14手，剩余9:59");
        assert_eq!(Lang::En.clock_state(&c[15]), "45:00 left + 3 × 20 s");
        assert_eq!(Lang::Zh.clock_state(&c[16]), "读秒：还剩3次20秒");
        let p = &policies()[1];
        assert_eq!(
            Lang::En.lateness_policy(p),
            "late more than 60 min loses; otherwise twice the lateness is deducted from the basic time"
        );
        assert_eq!(
            Lang::Zh.lateness_policy(p),
            "迟到超过60分钟判负（60分钟含）；未超过时限的，在其基本时限内加倍扣除"
        );
        let v = &verdicts()[1];
        assert_eq!(Lang::En.lateness_verdict(v), "plays with 80 min left (20 min late, 40 min deducted)");
        assert_eq!(Lang::Zh.lateness_verdict(v), "迟到20分钟，扣除40分钟，剩余基本用时80分钟");
        assert_eq!(Lang::Zh.lateness_verdict(&verdicts()[2]), "迟到61分钟，超过60分钟时限，判负");
        assert_eq!(
            Lang::En.lateness_policy(&LatenessPolicy::custom(10, false)),
            "late 10 min or more loses; otherwise twice the lateness is deducted from the basic time"
        );
        assert_eq!(
            Lang::Zh.lateness_policy(&LatenessPolicy::separate_venue()),
            "迟到超过60分钟判负（60分钟含）；未超过时限的，在其基本时限内加倍扣除"
        );
        assert_eq!(
            Lang::En.time_control(&controls()[0]),
            "Basic time 120 min, the last 5 min read as byo-yomi (60 s per move)"
        );
    }
}

#[cfg(test)]
mod problem_tests {
    use super::*;

    /// Every time-control and lateness problem reads in both languages: no placeholder left,
    /// and no Latin word in the Chinese sentence (the form shows them beside its fields).
    #[test]
    fn every_problem_is_worded_in_both_languages() {
        use TimeControlProblem as P;
        let time = [
            P::TooLong { part: TimePart::Basic, secs: 50 * 3600 },
            P::TooLong { part: TimePart::Period, secs: 49 * 3600 },
            P::NoReservedMinutes,
            P::ReservedAboveBasic { reserved_minutes: 5, basic_secs: 180 },
            P::NoBasicTime,
            P::PeriodMoves,
            P::Periods,
            P::NoPeriodTime,
            P::AbsoluteInTeamRelay,
        ];
        let late = [
            LatenessProblem::LimitTooLong { minutes: 3000 },
            LatenessProblem::ZeroLimitNotInclusive,
            LatenessProblem::DoubleWithCountdown,
        ];
        let texts = |l: Lang| {
            time.iter()
                .map(move |p| l.time_control_problem(p))
                .chain(late.iter().map(move |p| l.lateness_problem(p)))
        };
        for t in texts(Lang::Zh) {
            assert!(!t.contains('{') && !t.chars().any(|c| c.is_ascii_alphabetic()), "{t}");
        }
        for t in texts(Lang::En) {
            assert!(!t.contains('{') && !t.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)), "{t}");
        }
        assert_eq!(
            Lang::Zh.time_control_problem(&P::ReservedAboveBasic { reserved_minutes: 5, basic_secs: 180 }),
            "保留的5分钟读秒必须在基本用时3分钟之内"
        );
    }
}
