//! The typed values of `rules` and `domain` in the reader's language: results, outcomes,
//! rulings' reasons, relay sections, clock readings. One renderer per type, each a match over
//! its variants (so a new variant does not compile until it is worded) naming catalog keys,
//! used alike by the web pages, the printed documents and the command line.

use super::Lang;
use crate::domain::entrant::{chinese_dan_number, EntrantStatus, Rank, Sex};
use crate::domain::event_time::EventZone;
use crate::domain::team::cards::{CardOffence, RedCause};
use crate::domain::team::lineup::Section;
use crate::domain::team::penalties::PenaltyRow;
use crate::domain::team::relay::SubstitutionKind;
use rules::board::Color;
use rules::clock::{hms, ClockReading, TimeControl};
use rules::outcome::{half_points_text, quarters_text, Outcome};
use rules::ruleset::{CycleOutcome, Preset};
use rules::rulings::{
    DoubleLossReason, GameResult, LossReason, ResultMethod, RulingKind, Said, SecondYellowCost, Who,
};

impl Lang {
    /// "Black" / "黑方".
    pub fn side(self, c: Color) -> &'static str {
        match c {
            Color::Black => self.t("colour.black"),
            Color::White => self.t("colour.white"),
        }
    }

    /// The short colour of a result: "B" / "黑".
    fn side_short(self, c: Color) -> &'static str {
        match c {
            Color::Black => self.t("colour.black_short"),
            Color::White => self.t("colour.white_short"),
        }
    }

    /// A relay section with its moves: "section 1 (moves 1–72)" / "第1节（第1至72手）".
    pub fn section(self, s: Section) -> &'static str {
        self.t(match s {
            Section::One => "section.one",
            Section::Two => "section.two",
            Section::Three => "section.three",
            Section::Playoff => "section.playoff",
        })
    }

    /// A substitution's kind, as the record sheet lists it.
    pub fn substitution_kind(self, k: SubstitutionKind) -> &'static str {
        self.t(match k {
            SubstitutionKind::Regular => "subst.regular",
            SubstitutionKind::Any => "subst.any",
            SubstitutionKind::RedCardReplacement => "subst.red_card",
        })
    }

    /// An outcome of a count: "B+¾" / "黑胜¾子", "Draw" / "和棋".
    pub fn outcome(self, o: &Outcome) -> String {
        match o.winner {
            None => self.t("outcome.draw").to_string(),
            Some(c) if o.margin_q == 0 => self.tf("outcome.win", &[&self.side_short(c)]),
            Some(c) => self.tf("outcome.win_by", &[&self.side_short(c), &quarters_text(o.margin_q)]),
        }
    }

    /// Why a side lost by a ruling.
    pub fn loss_reason(self, r: LossReason) -> &'static str {
        self.t(match r {
            LossReason::IntentionalStoneMoving => "loss_reason.stone_moving",
            LossReason::ScatteredBoard => "loss_reason.scattered_board",
            LossReason::Cheating => "loss_reason.cheating",
            LossReason::DoubleMove => "loss_reason.double_move",
            LossReason::Timeout => "loss_reason.timeout",
            LossReason::Lateness => "loss_reason.lateness",
            LossReason::Forfeit => "loss_reason.forfeit",
            LossReason::Warnings => "loss_reason.warnings",
            LossReason::OrderErrors => "loss_reason.order_errors",
            LossReason::Other => "loss_reason.other",
        })
    }

    /// Why both sides lost.
    pub fn double_loss_reason(self, r: DoubleLossReason) -> &'static str {
        self.t(match r {
            DoubleLossReason::StoneMoved => "dl_reason.stone_moved",
            DoubleLossReason::ScatteredBoard => "dl_reason.scattered_board",
            DoubleLossReason::BothLate => "dl_reason.both_late",
            DoubleLossReason::Cheating => "dl_reason.cheating",
            DoubleLossReason::Other => "dl_reason.other",
        })
    }

    /// What an event rules when a cycle stops a game (seed 000 Art. 20).
    pub fn cycle_outcome(self, o: CycleOutcome) -> &'static str {
        self.t(match o {
            CycleOutcome::NoResult => "cycle.no_result",
            CycleOutcome::Draw => "cycle.draw",
            CycleOutcome::ExtraGame => "cycle.extra_game",
        })
    }

    /// A ruling's short name: "yellow card" / "黄牌", "loss (cheating)" / "判负（作弊）".
    pub fn ruling_kind(self, k: RulingKind) -> String {
        let key = match k {
            RulingKind::Warning => "ruling.warning",
            RulingKind::Advice => "ruling.advice",
            RulingKind::YellowCard => "ruling.yellow_card",
            RulingKind::RedCard => "ruling.red_card",
            RulingKind::PenaltyStones { stones } => {
                return self.tf("ruling.penalty_stones", &[&stones, &self.plural(stones)]);
            }
            RulingKind::VoidMove => "ruling.void_move",
            RulingKind::ForcedPass => "ruling.forced_pass",
            RulingKind::Loss { reason } => return self.tf("ruling.loss", &[&self.loss_reason(reason)]),
            RulingKind::DoubleLoss { reason } => {
                return self.tf("ruling.double_loss", &[&self.double_loss_reason(reason)]);
            }
            RulingKind::Draw => "ruling.draw",
            RulingKind::Replay => "ruling.replay",
            RulingKind::NoResult => "ruling.no_result",
            RulingKind::Cycle => "ruling.cycle",
            RulingKind::OrderError => "ruling.order_error",
            RulingKind::MoveQuotaExcess { extra_moves } => {
                return self.tf("ruling.move_quota_excess", &[&extra_moves, &self.plural(extra_moves)]);
            }
            RulingKind::LastByoYomiTimeout => "ruling.last_byo_yomi_timeout",
        };
        self.t(key).to_string()
    }

    /// A card's offence, with its article.
    pub fn offence(self, o: CardOffence) -> &'static str {
        self.t(match o {
            CardOffence::DoubleMove => "relay.off_double_move",
            CardOffence::TakeBack => "relay.off_take_back",
            CardOffence::EarlyClockPress => "relay.off_early_clock_press",
            CardOffence::MisCapture => "relay.off_mis_capture",
            CardOffence::MissedCapture => "relay.off_missed_capture",
            CardOffence::PressBeforeCapturesRemoved => "relay.off_press_before_captures_removed",
            CardOffence::WrongClockPress => "relay.off_wrong_clock_press",
            CardOffence::RepeatedWrongClockPress => "relay.off_repeated_wrong_clock_press",
            CardOffence::MaliciousFoul => "relay.off_malicious_foul",
            CardOffence::LeavingSeat => "relay.off_leaving_seat",
            CardOffence::SubstitutionDelay => "relay.off_substitution_delay",
            CardOffence::TimeoutDelay => "relay.off_timeout_delay",
            CardOffence::LateLineup => "relay.off_late_lineup",
            CardOffence::Other => "relay.off_other",
        })
    }

    /// A penalty-log row's ruling as the match page and the record sheet print it: the ruling,
    /// a red card with its cause (a second yellow, Art. 24.2; a third order error, Art. 17.7),
    /// and the card's offence with its article.
    pub fn penalty_what(self, p: &PenaltyRow) -> String {
        let base = self.ruling_kind(p.kind);
        let mut what = match p.red {
            Some(RedCause::SecondYellow) => self.t("relay.red_second_yellow").to_string(),
            Some(RedCause::ThirdOrderError) => format!("{base} · {}", self.t("relay.red_third_error")),
            Some(RedCause::Direct) | None => base,
        };
        if let Some(o) = p.offence {
            what = format!("{what} · {}", self.offence(o));
        }
        what
    }

    /// A game's result: "B+¾" / "黑胜¾子", "W+R" / "白中盘胜", "B+F (lateness)" /
    /// "黑胜（白迟到判负）", "Double loss" / "双方均负".
    pub fn game_result(self, r: &GameResult) -> String {
        let w = r.winner.map(|c| self.side_short(c)).unwrap_or("?");
        let l = r.winner.map(|c| self.side_short(c.opponent())).unwrap_or("?");
        match r.method {
            ResultMethod::Count { outcome, .. } => self.outcome(&outcome),
            ResultMethod::Resignation => self.tf("result.resignation", &[&w, &l]),
            ResultMethod::Time => self.tf("result.time", &[&w, &l]),
            ResultMethod::Forfeit => self.tf("result.forfeit", &[&w, &l]),
            ResultMethod::Lateness => self.tf("result.lateness", &[&w, &l]),
            ResultMethod::RefereeLoss { reason } => {
                self.tf("result.referee_loss", &[&w, &l, &self.loss_reason(reason)])
            }
            ResultMethod::Draw => self.t("result.draw").to_string(),
            ResultMethod::NoResult => self.t("result.no_result").to_string(),
            ResultMethod::Replay => self.t("result.replay").to_string(),
            ResultMethod::DoubleLoss { reason } => {
                self.tf("result.double_loss", &[&self.double_loss_reason(reason)])
            }
            ResultMethod::Bye => self.t("result.bye").to_string(),
        }
    }

    /// An English ordinal ("1st", "22nd") or the plain number in Chinese (the sentence says 第…次).
    fn ordinal(self, n: u32) -> String {
        if self.is_zh() {
            return n.to_string();
        }
        let suffix = match (n % 10, n % 100) {
            (_, 11..=13) => "th",
            (1, _) => "st",
            (2, _) => "nd",
            (3, _) => "rd",
            _ => "th",
        };
        format!("{n}{suffix}")
    }

    /// The English plural ending of a count ("" or "s"); nothing in Chinese.
    fn plural(self, n: u32) -> &'static str {
        if self.is_zh() || n == 1 {
            ""
        } else {
            "s"
        }
    }

    /// Whom a ruling is against: "Black" / "黑方", "Black player 王一" / "黑方王一"; a player the
    /// caller cannot name reads "Black player #3" / "黑方3号队员".
    pub fn who(self, w: Who, name: &dyn Fn(u32) -> Option<String>) -> String {
        let side = self.side(w.side);
        match w.player {
            None => side.to_string(),
            Some(p) => {
                let n = name(p).unwrap_or_else(|| self.tf("who.player_no", &[&p]));
                self.tf("who.player", &[&side, &n])
            }
        }
    }

    /// What a ruling did (or the final line of `apply_rulings`), naming players by `name`.
    pub fn effect(self, s: &Said, name: &dyn Fn(u32) -> Option<String>) -> String {
        let who = |w: &Who| self.who(*w, name);
        let pens = |p: [u32; 2]| self.tf("effect.penalties", &[&p[0], &p[1]]);
        match s {
            Said::Warning { who: w, at, nth, limit: Some(l) } => {
                self.tf("effect.warning_limit", &[&who(w), at, &self.ordinal(*nth), l])
            }
            Said::Warning { who: w, at, nth, limit: None } => {
                self.tf("effect.warning_free", &[&who(w), at, &self.ordinal(*nth)])
            }
            Said::WarningsLose { who: w, at, nth, limit } => self
                .tf("effect.warnings_lose", &[&who(w), at, &self.ordinal(*nth), limit, &self.side(w.side)]),
            Said::Advice { who: w, at } => self.tf("effect.advice", &[&who(w), at]),
            Said::RedCard { who: w, at } => self.tf("effect.red_card", &[&who(w), at]),
            Said::PenaltyStones { who: w, at, stones } => {
                self.tf("effect.penalty_stones", &[&who(w), at, stones, &self.plural(*stones)])
            }
            Said::VoidMove { who: w, at } => self.tf("effect.void_move", &[&who(w), at]),
            Said::ForcedPass { who: w, at } => self.tf("effect.forced_pass", &[&who(w), at]),
            Said::Loss { side, reason } => {
                self.tf("effect.loss", &[&self.side(*side), &self.loss_reason(*reason), &reason.article()])
            }
            Said::QuotaExcess { who: w, extra } => {
                self.tf("effect.quota_excess", &[&who(w), extra, &self.plural(*extra)])
            }
            Said::ByoYomiLoss { who: w, at } => self.tf("effect.byo_loss", &[&who(w), at]),
            Said::ByoYomiPass { who: w, at } => self.tf("effect.byo_pass", &[&who(w), at]),
            Said::ByoYomiPassAndStone { who: w, at } => self.tf("effect.byo_pass_stone", &[&who(w), at]),
            Said::DoubleLoss { reason } => {
                self.tf("effect.double_loss", &[&self.double_loss_reason(*reason)])
            }
            Said::Draw => self.t("effect.draw").to_string(),
            Said::Replay => self.t("effect.replay").to_string(),
            Said::NoResult => self.t("effect.no_result").to_string(),
            Said::Cycle { outcome } => self.tf("effect.cycle", &[&self.cycle_outcome(*outcome)]),
            Said::YellowUnnamed { who: w, at } => self.tf("effect.yellow_unnamed", &[&who(w), at]),
            Said::Yellow { who: w, at } => self.tf("effect.yellow", &[&who(w), at]),
            Said::SecondYellow { who: w, at, nth, cost } => {
                let how = match cost {
                    SecondYellowCost::Red => self.t("effect.sy_red").to_string(),
                    SecondYellowCost::ReplacesBoth { charged } => self.tf("effect.sy_both", &[charged]),
                    SecondYellowCost::Added => self.t("effect.sy_added").to_string(),
                };
                self.tf("effect.second_yellow", &[&who(w), at, &self.ordinal(*nth), &how])
            }
            Said::OrderErrorLoss { who: w, at, nth } => {
                self.tf("effect.order_loss", &[&who(w), at, &self.ordinal(*nth), &self.side(w.side)])
            }
            Said::OrderError { side, at, nth } => self.tf(
                "effect.order_error",
                &[&self.side(*side), at, &self.ordinal(*nth), nth, &self.plural(*nth)],
            ),
            Said::OrderErrorRed { who: w } => self.tf("effect.order_red", &[&who(w)]),
            Said::NoEffect { said, earlier, at } => {
                self.tf("effect.no_effect", &[&self.effect(said, name), &self.game_result(earlier), at])
            }
            Said::Decided { result, penalties: None } | Said::Stands { result, penalties: None, .. } => {
                self.tf("effect.result", &[&self.game_result(result)])
            }
            Said::Decided { result, penalties: Some(p) } => {
                self.tf("effect.decided_pen", &[&self.game_result(result), &pens(*p)])
            }
            Said::Stands { result, time, penalties: Some(p) } => {
                let how = self.t(if *time { "effect.by_time" } else { "effect.by_resignation" });
                self.tf("effect.stands_pen", &[&self.game_result(result), &pens(*p), &how])
            }
            Said::Counted { black_halves, penalties: None, result } => {
                self.tf("effect.counted", &[&half_points_text(*black_halves), &self.game_result(result)])
            }
            Said::Counted { black_halves, penalties: Some(p), result } => self.tf(
                "effect.counted_pen",
                &[&half_points_text(*black_halves), &self.game_result(result), &pens(*p)],
            ),
            Said::Unfinished { penalties } => self.tf("effect.unfinished", &[&pens(*penalties)]),
        }
    }

    /// A rule set's name: "Chinese rules 2002 (individual)" / "中国围棋竞赛规则（2002）".
    pub fn rule_set(self, p: Preset) -> &'static str {
        self.t(match p {
            Preset::Chinese2002 => "ruleset.chinese2002",
            Preset::ChineseTeamRelay => "ruleset.team_relay",
            Preset::Japanese => "ruleset.japanese",
            Preset::Aga => "ruleset.aga",
        })
    }

    /// A rank as the reader writes it: "3k" / "3级", "5d" / "业余五段", "1p" / "职业初段" (files
    /// write `Rank::notation`). Chinese lists write dan grades in Chinese numerals, 1 as 初
    /// (业余初段, 职业五段), and kyu grades in figures (10级).
    pub fn rank(self, r: Rank) -> String {
        let dan = |n: u8| if self.is_zh() { chinese_dan_number(n) } else { n.to_string() };
        match r {
            Rank::Kyu(n) => self.tf("rank.kyu", &[&n]),
            Rank::Dan(n) => self.tf("rank.dan", &[&dan(n)]),
            Rank::Pro(n) => self.tf("rank.pro", &[&dan(n)]),
        }
    }

    /// A stored instant as the zone shows it, the zone named: "2026-12-03 09:00:00（Asia/Shanghai）"
    /// (`domain::event_time` converts; this only words it).
    pub fn in_zone(self, zone: &EventZone, stored: &str) -> String {
        self.tf("time.in_zone", &[&zone.date_time(stored), &zone.name()])
    }

    /// "M" / "男".
    pub fn sex(self, s: Sex) -> &'static str {
        self.t(match s {
            Sex::M => "sex.m",
            Sex::F => "sex.f",
        })
    }

    /// Whether an entrant plays: "active" / "参赛", "withdrawn" / "退赛".
    pub fn entrant_status(self, s: EntrantStatus) -> &'static str {
        self.t(match s {
            EntrantStatus::Active => "entrant_status.active",
            EntrantStatus::Withdrawn => "entrant_status.withdrawn",
        })
    }

    /// A duration: 7200 → "120 min" / "120分钟", 90 → "1 min 30 s" / "1分30秒".
    pub fn duration(self, secs: u32) -> String {
        match (secs / 60, secs % 60) {
            (0, s) => self.tf("dur.s", &[&s]),
            (m, 0) => self.tf("dur.min", &[&m]),
            (m, s) => self.tf("dur.min_s", &[&m, &s]),
        }
    }

    /// A time control (Art. 12): "Basic time 120 min, the last 5 min read as byo-yomi (60 s
    /// per move)" / "基本用时120分钟，保留5分钟读秒".
    pub fn time_control(self, tc: &TimeControl) -> String {
        let d = |s| self.duration(s);
        match *tc {
            TimeControl::ChineseByoYomi { basic_secs, reserved_minutes } => {
                self.tf("tc.chinese", &[&d(basic_secs), &reserved_minutes])
            }
            TimeControl::Absolute { basic_secs } => self.tf("tc.absolute", &[&d(basic_secs)]),
            TimeControl::Canadian { basic_secs, moves_per_period, period_secs } => {
                self.tf("tc.canadian", &[&d(basic_secs), &moves_per_period, &d(period_secs)])
            }
            TimeControl::ByoYomi { basic_secs, periods, period_secs } => {
                self.tf("tc.byo_yomi", &[&d(basic_secs), &periods, &d(period_secs)])
            }
        }
    }

    /// The label of a replay (重赛, rules.md §9) on sheets, lists and CSV: "重赛（原对局 #17）" /
    /// "replay of game #17" (`of`: the game it replays, the number its result sheet has).
    pub fn replay_label(self, of: i32) -> String {
        self.tf("doc.replay_of", &[&of])
    }

    /// A clock as the referee reads it back: "1:05:00, 3 byo-yomi left" / "基本时间1:05:00，读秒3次".
    pub fn clock_reading(self, r: &ClockReading) -> String {
        if r.overtime && r.period_moves > 0 {
            self.tf("clock.period", &[&hms(r.period_secs), &r.period_moves])
        } else if r.overtime {
            self.tf("clock.overtime", &[&r.periods])
        } else if r.periods > 0 {
            self.tf("clock.main_periods", &[&hms(r.main_secs), &r.periods])
        } else {
            self.tf("clock.main", &[&hms(r.main_secs)])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_in_both_languages() {
        let o = Outcome { winner: Some(Color::Black), margin_q: 3 };
        assert_eq!(Lang::En.outcome(&o), "B+¾");
        assert_eq!(Lang::Zh.outcome(&o), "黑胜¾子");
        let late = GameResult { winner: Some(Color::White), method: ResultMethod::Lateness };
        assert_eq!(Lang::En.game_result(&late), "W+F (lateness)");
        assert_eq!(Lang::Zh.game_result(&late), "白胜（黑迟到判负）");
        let r = GameResult {
            winner: Some(Color::Black),
            method: ResultMethod::RefereeLoss { reason: LossReason::Cheating },
        };
        assert_eq!(Lang::Zh.game_result(&r), "黑胜（白作弊判负）");
        assert_eq!(Lang::En.game_result(&r), "B+F (cheating)");
    }

    /// Seed 003 Art. 9 with penalty stones (Arts. 17.7, 24): a relay count reads as the margin
    /// in stones on the match record sheet; a 节棋 play-off's equal count (Art. 12: "再次和棋，
    /// 则判黑方获胜") as Black's win, the regular game's as a draw.
    #[test]
    fn relay_counts_read_as_their_margin() {
        use rules::outcome::{JigoRule, Scoring};
        let relay = rules::ruleset::RuleSet::chinese_team_relay();
        // 196 for Black, 18 penalty stones against Black and 4 against White: White by 2.
        let r = GameResult::counted(&relay.scoring(0, 18, 4), 392);
        assert_eq!((Lang::Zh.game_result(&r), Lang::En.game_result(&r)), ("白胜2子".into(), "W+2".into()));
        // 185 with one penalty stone against Black: 184, the drawing count.
        let r = GameResult::counted(&relay.scoring(0, 1, 0), 370);
        assert_eq!((Lang::En.game_result(&r), Lang::Zh.game_result(&r)), ("Draw".into(), "和棋".into()));
        let playoff = Scoring { jigo: JigoRule::BlackWins, ..relay.scoring(0, 1, 0) };
        let r = GameResult::counted(&playoff, 370);
        assert_eq!((Lang::En.game_result(&r), Lang::Zh.game_result(&r)), ("B+".into(), "黑胜".into()));
    }

    /// The readers' spellings of entrants' values, as they were before they moved here; every
    /// rank's wording parses back (forms and CSV files hold them).
    #[test]
    fn entrant_values_in_both_languages() {
        use crate::i18n::render_check::both;
        assert_eq!(both(|l| l.rank(Rank::Kyu(3))), ("3k".into(), "3级".into()));
        assert_eq!(both(|l| l.rank(Rank::Dan(5))), ("5d".into(), "业余五段".into()));
        assert_eq!(both(|l| l.rank(Rank::Pro(1))), ("1p".into(), "职业初段".into()));
        assert_eq!(both(|l| l.rank(Rank::Dan(1))), ("1d".into(), "业余初段".into()));
        assert_eq!(both(|l| l.rank(Rank::Pro(9))), ("9p".into(), "职业九段".into()));
        assert_eq!(both(|l| l.rank(Rank::Kyu(10))), ("10k".into(), "10级".into()));
        for v in -30..=17 {
            let r = Rank::from_value(v).unwrap();
            assert_eq!(Lang::En.rank(r), r.notation());
            assert_eq!(Rank::parse(&Lang::Zh.rank(r)), Ok(r));
        }
        assert_eq!(both(|l| l.sex(Sex::M).into()), ("M".into(), "男".into()));
        assert_eq!(both(|l| l.sex(Sex::F).into()), ("F".into(), "女".into()));
        for s in [Sex::M, Sex::F] {
            assert_eq!(Sex::parse(Lang::Zh.sex(s)), Ok(s));
        }
        let st = |s| both(|l| l.entrant_status(s).into());
        assert_eq!(st(EntrantStatus::Active), ("active".into(), "参赛".into()));
        assert_eq!(st(EntrantStatus::Withdrawn), ("withdrawn".into(), "退赛".into()));
        for s in [EntrantStatus::Active, EntrantStatus::Withdrawn] {
            assert_eq!(EntrantStatus::parse(Lang::Zh.entrant_status(s)), Ok(s));
            assert_eq!(Lang::En.entrant_status(s), s.code());
        }
    }

    #[test]
    fn time_controls_in_both_languages() {
        let tc = TimeControl::ChineseByoYomi { basic_secs: 7200, reserved_minutes: 5 };
        assert_eq!(Lang::Zh.time_control(&tc), "基本用时120分钟，保留5分钟读秒");
        let byo = TimeControl::ByoYomi { basic_secs: 2700, periods: 3, period_secs: 20 };
        assert_eq!(Lang::En.time_control(&byo), "Basic time 45 min + 3 × 20 s byo-yomi");
        assert_eq!(Lang::Zh.time_control(&byo), "基本用时45分钟，3次20秒读秒");
        let can = TimeControl::Canadian { basic_secs: 3600, moves_per_period: 15, period_secs: 600 };
        assert_eq!(Lang::Zh.time_control(&can), "基本用时60分钟，之后每10分钟限着15手（节余时间延至下一节）");
        assert_eq!(
            Lang::En.time_control(&TimeControl::Absolute { basic_secs: 90 }),
            "Absolute time: 1 min 30 s each"
        );
        assert_eq!(Lang::Zh.duration(90), "1分30秒");
    }

    #[test]
    fn clock_readings_in_both_languages() {
        let r =
            ClockReading { main_secs: 3900, periods: 3, period_secs: 0, period_moves: 0, overtime: false };
        assert_eq!(Lang::En.clock_reading(&r), "1:05:00, 3 byo-yomi left");
        assert_eq!(Lang::Zh.clock_reading(&r), "基本时间1:05:00，读秒3次");
        let c = ClockReading { main_secs: 0, periods: 0, period_secs: 270, period_moves: 1, overtime: true };
        assert_eq!(Lang::En.clock_reading(&c), "period 4:30 for 1 move(s)");
    }

    /// The effects of rulings as the rules crate's tests had them worded, now rendered here.
    #[test]
    fn ruling_effects_in_both_languages() {
        use rules::board::Color::{Black, White};
        use rules::ruleset::RuleSet;
        use rules::rulings::{apply_rulings, ApplyInputs, BaseResult, Ruling};
        let none = |_: u32| None;
        let named = |p: u32| (p == 2).then(|| "王一".to_string());
        let at = |k, side, m| Ruling::against(k, side, m);
        let team = RuleSet::chinese_team_relay();
        let mut yellow = at(RulingKind::YellowCard, Black, 60);
        yellow.player = Some(2);
        let a =
            apply_rulings(&team, BaseResult::Count { black_halves: 370 }, &[yellow], &ApplyInputs::default())
                .unwrap();
        assert_eq!(Lang::Zh.effect(&a.effects[0].said, &none), "黑方2号队员第60手被出示黄牌：罚1子");
        assert_eq!(Lang::Zh.effect(&a.effects[0].said, &named), "黑方王一第60手被出示黄牌：罚1子");
        assert_eq!(
            Lang::En.effect(&a.effects[0].said, &named),
            "Yellow card to Black player 王一 at move 60: 1 penalty stone (team Art. 24.3)"
        );
        assert_eq!(Lang::Zh.effect(&a.effects[1].said, &none), "黑方185子，罚子：黑1子、白0子 → 和棋");
        let ind = RuleSet::chinese_2002();
        let two = [at(RulingKind::Warning, Black, 40), at(RulingKind::Warning, Black, 90)];
        let a = apply_rulings(&ind, BaseResult::Count { black_halves: 380 }, &two, &ApplyInputs::default())
            .unwrap();
        assert_eq!(Lang::Zh.effect(&a.effects[0].said, &none), "黑方第40手被警告一次（第1次，满2次判负）");
        assert_eq!(
            Lang::En.effect(&a.effects[0].said, &none),
            "Warning to Black at move 40 (1st of 2 that lose the game)"
        );
        assert_eq!(Lang::Zh.effect(&a.effects[1].said, &none), "黑方第90手第2次警告，满2次判负");
        assert_eq!(Lang::En.effect(&a.effects[2].said, &none), "Result: W+F (accumulated warnings)");
        let a = apply_rulings(&ind, BaseResult::Count { black_halves: 370 }, &[], &ApplyInputs::default())
            .unwrap();
        assert_eq!(Lang::En.effect(&a.effects[0].said, &none), "Black counted 185 → B+¾");
        assert_eq!(Lang::Zh.effect(&a.effects[0].said, &none), "黑方185子 → 黑胜¾子");
        let late = [
            at(RulingKind::Loss { reason: LossReason::Cheating }, White, 50),
            at(RulingKind::Loss { reason: LossReason::Cheating }, Black, 80),
        ];
        let a = apply_rulings(&ind, BaseResult::Unfinished, &late, &ApplyInputs::default()).unwrap();
        assert!(Lang::Zh
            .effect(&a.effects[1].said, &none)
            .ends_with("——无效：本局已于第50手判定（黑胜（白作弊判负））"));
        assert!(Lang::En
            .effect(&a.effects[1].said, &none)
            .contains("no effect: the game was already decided (B+F (cheating)) at move 50"));
    }
}
