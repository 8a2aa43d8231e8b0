//! `domain::prizes`' values in the reader's language: a prize's usual name (第一名, 最佳女棋手…)
//! and its condition, for the prize pages, the prize list and the certificates.

use super::tr;
use super::Lang;
use crate::domain::entrant::{chinese_number, Rank};
use crate::domain::prizes::Kind;

impl Lang {
    /// A prize's name: the organizer's own when given, else the usual one of its kind.
    pub fn prize_name(self, kind: &Kind, own: &str) -> String {
        if !own.trim().is_empty() {
            return own.trim().to_string();
        }
        match kind {
            Kind::Place(k) => tr!(self, "prize.place", place = self.place_number(*k)),
            Kind::Woman => self.t("prize.woman").into(),
            Kind::Junior(_) => self.t("prize.junior").into(),
            Kind::RankBand { low, high } => tr!(self, "prize.band", band = self.band(*low, *high)),
            Kind::Unit(units) => tr!(self, "prize.unit", units = self.units(units)),
        }
    }

    /// What a prize asks of its winner, in words.
    pub fn prize_condition(self, kind: &Kind) -> String {
        match kind {
            Kind::Place(_) => self.t("prize.cond_place").into(),
            Kind::Woman => self.t("prize.cond_woman").into(),
            Kind::Junior(d) => tr!(self, "prize.cond_junior", date = d.format("%Y-%m-%d").to_string()),
            Kind::RankBand { low, high } => tr!(self, "prize.cond_band", band = self.band(*low, *high)),
            Kind::Unit(units) => tr!(self, "prize.cond_unit", units = self.units(units)),
        }
    }

    /// 1 → 一 (第一名), in English 1 (Place 1).
    fn place_number(self, k: u32) -> String {
        if self.is_zh() {
            chinese_number(k)
        } else {
            k.to_string()
        }
    }

    /// "业余初段–3段" / "1 dan–3 dan": a rank band by its ends.
    fn band(self, low: i32, high: i32) -> String {
        let r = |v: i32| Rank::from_value(v).map(|r| self.rank(r)).unwrap_or_else(|| v.to_string());
        if low == high {
            r(low)
        } else {
            format!("{}–{}", r(low), r(high))
        }
    }

    /// The units of a prize, joined as the language lists them (、 in Chinese).
    fn units(self, units: &[String]) -> String {
        let sep = if self.is_zh() { "、" } else { ", " };
        units.iter().map(|u| u.trim()).filter(|u| !u.is_empty()).collect::<Vec<_>>().join(sep)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::NaiveDate;

    /// Chinese conventions for prize names: 第一名 in Chinese numerals, 、 between units, the
    /// organizer's own name kept.
    #[test]
    fn prize_names_follow_chinese_conventions() {
        assert_eq!(Lang::Zh.prize_name(&Kind::Place(1), ""), "第一名");
        assert_eq!(Lang::Zh.prize_name(&Kind::Place(12), ""), "第十二名");
        assert_eq!(Lang::En.prize_name(&Kind::Place(3), ""), "Place 3");
        assert_eq!(Lang::Zh.prize_name(&Kind::Woman, ""), "最佳女棋手");
        assert_eq!(Lang::Zh.prize_name(&Kind::Woman, " 巾帼奖 "), "巾帼奖");
        let units = Kind::Unit(vec!["杭州".into(), "宁波".into()]);
        assert_eq!(Lang::Zh.prize_condition(&units), "单位或地区：杭州、宁波");
        let d = NaiveDate::from_ymd_opt(2012, 1, 1).unwrap();
        assert_eq!(Lang::Zh.prize_condition(&Kind::Junior(d)), "2012-01-01及以后出生");
        assert_eq!(Lang::Zh.prize_name(&Kind::RankBand { low: 0, high: 2 }, ""), "最佳业余初段–业余三段棋手");
    }
}
