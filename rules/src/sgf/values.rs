//! Typed values of a record's properties: komi (KM) read exactly into quarter stones, and
//! results (RE) as [`GameResult`].
//!
//! # Komi
//! KM is komi in points (FF\[4\]); [`Komi::quarters`] holds it in quarter stones, exactly: ¼ stone
//! = ½ point, so KM\[7.5\] is 15 quarters and KM\[6.5\] 13. Chinese servers sometimes write komi
//! in stones (KM\[3.75\]) or in hundredths of a stone (KM\[375\]). The heuristic, in this order:
//! 1. an integer of 100 or more is hundredths of a stone (KM\[375\] = 3¾ stones, KM\[350\] = 3½);
//! 2. a multiple of 0.5 is points (KM\[7.5\], KM\[7\], KM\[0.5\], KM\[-5\]);
//! 3. a multiple of 0.25 that is not one of 0.5 is stones (KM\[3.75\] = 3¾ stones = 7.5 points,
//!    KM\[2.75\] = the 1988 komi);
//! 4. anything else is an error.
//!
//! The heuristic cannot see a komi of 3½ stones written as KM\[3.5\]: that reads as 3.5 points.
//! [`Komi::unit`] says which reading was taken, so a report can show it. The same rule reads the
//! margins of RE (RE\[B+0.75\] is ¾ stone = 1.5 points).

use crate::board::Color;
use crate::outcome;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Why a KM value is not komi (see the module documentation's heuristic).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "problem")]
pub enum KomiError {
    NotANumber {
        text: String,
    },
    /// An integer of 100 or more (hundredths of a stone) that is not a multiple of 25.
    HundredthsNotQuarters {
        text: String,
    },
    /// Neither a multiple of ½ point nor of ¼ stone.
    NotAMultiple {
        text: String,
    },
    /// More than 50 stones either way.
    OutOfRange {
        text: String,
    },
}

/// RE\[\] that is not a result this reader knows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownResult(pub String);

/// Parse a decimal number ("7.5", "-0.25", "375", "6,5") exactly into hundredths. `None` when it
/// is not a number, has more than two significant decimals, or is out of range.
fn parse_hundredths(text: &str) -> Option<i64> {
    let t = text.trim();
    let (neg, t) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let (whole, frac) = match t.find(['.', ',']) {
        Some(k) => (&t[..k], &t[k + 1..]),
        None => (t, ""),
    };
    if whole.is_empty() && frac.is_empty() {
        return None;
    }
    if !whole.bytes().all(|c| c.is_ascii_digit()) || !frac.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let frac = frac.trim_end_matches('0');
    if frac.len() > 2 || whole.len() > 12 {
        return None;
    }
    let w: i64 = if whole.is_empty() { 0 } else { whole.parse().ok()? };
    let f: i64 = match frac.len() {
        0 => 0,
        1 => frac.parse::<i64>().ok()? * 10,
        _ => frac.parse().ok()?,
    };
    let v = w * 100 + f;
    Some(if neg { -v } else { v })
}

/// How a komi value was written in the record (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KomiUnit {
    /// Points, as FF\[4\] says (KM\[7.5\]).
    Points,
    /// Stones, as some Chinese servers write (KM\[3.75\]).
    Stones,
    /// Hundredths of a stone (KM\[375\]).
    HundredthsOfStones,
}

/// Komi as read from a record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Komi {
    /// Komi in quarter stones (= half points): 15 for 7.5 points.
    pub quarters: i32,
    pub unit: KomiUnit,
}

impl Komi {
    /// Read a KM value with the heuristic of the module documentation.
    pub fn from_km(text: &str) -> Result<Komi, KomiError> {
        let t = || text.to_string();
        let h = parse_hundredths(text).ok_or_else(|| KomiError::NotANumber { text: t() })?;
        let (quarters, unit) = if h % 100 == 0 && h.abs() >= 100 * 100 {
            let v = h / 100;
            if v % 25 != 0 {
                return Err(KomiError::HundredthsNotQuarters { text: t() });
            }
            (v / 25, KomiUnit::HundredthsOfStones)
        } else if h % 50 == 0 {
            (h / 50, KomiUnit::Points)
        } else if h % 25 == 0 {
            (h / 25, KomiUnit::Stones)
        } else {
            return Err(KomiError::NotAMultiple { text: t() });
        };
        if quarters.abs() > 4 * 50 {
            return Err(KomiError::OutOfRange { text: t() });
        }
        Ok(Komi { quarters: quarters as i32, unit })
    }

    /// Komi in points as SGF writes it: "7.5", "0", "-3".
    pub fn points_text(&self) -> String {
        signed_half_points(self.quarters)
    }
}

fn signed_half_points(h: i32) -> String {
    if h < 0 {
        format!("-{}", outcome::half_points_text(h.unsigned_abs()))
    } else {
        outcome::half_points_text(h as u32)
    }
}

/// Read a margin written in points (or, when it is not a multiple of ½ point but is one of ¼,
/// in stones) into half points.
fn margin_halves(text: &str) -> Option<u32> {
    let h = parse_hundredths(text)?;
    if h < 0 {
        return None;
    }
    let halves = if h % 50 == 0 {
        h / 50
    } else if h % 25 == 0 {
        h / 25
    } else {
        return None;
    };
    u32::try_from(halves).ok()
}

/// How a game was won, as RE\[\] says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "by")]
pub enum WinBy {
    /// By counting, with the margin in half points (= quarter stones): RE\[B+3.5\] is 7.
    Score { margin_halves: u32 },
    /// RE\[B+R\] (中盘胜).
    Resignation,
    /// RE\[B+T\] (超时胜).
    Time,
    /// RE\[B+F\] (forfeit).
    Forfeit,
    /// RE\[B+\]: a win with no reason or margin given.
    Unspecified,
}

/// The result of a game as recorded in RE\[\].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum GameResult {
    Win {
        winner: Color,
        by: WinBy,
    },
    /// RE\[0\], RE\[Draw\], RE\[Jigo\] (和棋).
    Draw,
    /// RE\[Void\]: no result (无胜负).
    Void,
    /// RE\[?\]: unknown.
    Unknown,
}

impl GameResult {
    /// True for a result decided by counting (a scored win or a draw).
    pub fn is_counted(&self) -> bool {
        matches!(
            self,
            GameResult::Draw | GameResult::Win { by: WinBy::Score { .. } | WinBy::Unspecified, .. }
        )
    }
}

impl fmt::Display for GameResult {
    /// The SGF RE value: "B+3.5", "W+R", "B+T", "B+F", "B+", "0", "Void", "?".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameResult::Win { winner, by } => {
                let c = winner.letter();
                match by {
                    WinBy::Score { margin_halves } => {
                        write!(f, "{c}+{}", outcome::half_points_text(*margin_halves))
                    }
                    WinBy::Resignation => write!(f, "{c}+R"),
                    WinBy::Time => write!(f, "{c}+T"),
                    WinBy::Forfeit => write!(f, "{c}+F"),
                    WinBy::Unspecified => write!(f, "{c}+"),
                }
            }
            GameResult::Draw => f.write_str("0"),
            GameResult::Void => f.write_str("Void"),
            GameResult::Unknown => f.write_str("?"),
        }
    }
}

impl FromStr for GameResult {
    type Err = UnknownResult;

    /// Reads the SGF forms (B+R, B+Resign, W+T, W+Time, B+F, B+Forfeit, B+3.5, B+, 0, Draw, Jigo,
    /// Void, ?) case-insensitively, and the common Chinese forms (黑中盘胜, 白超时胜, 黑胜3又3/4子,
    /// 白胜7.5目, 黑胜, 和棋, 无胜负).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        let bad = || UnknownResult(s.to_string());
        match t.to_ascii_lowercase().as_str() {
            "0" | "draw" | "jigo" | "和棋" | "和" => return Ok(GameResult::Draw),
            "void" | "无胜负" => return Ok(GameResult::Void),
            "?" | "unknown" => return Ok(GameResult::Unknown),
            _ => {}
        }
        if let Some((winner, rest)) = t
            .strip_prefix('黑')
            .map(|r| (Color::Black, r))
            .or_else(|| t.strip_prefix('白').map(|r| (Color::White, r)))
        {
            let rest = rest.trim();
            let by = match rest {
                "胜" => WinBy::Unspecified,
                "中盘胜" => WinBy::Resignation,
                "超时胜" => WinBy::Time,
                "不战胜" | "弃权胜" => WinBy::Forfeit,
                _ => {
                    let r = rest.strip_prefix('胜').ok_or_else(bad)?.trim();
                    if let Some(stones) = r.strip_suffix('子') {
                        let q = outcome::parse_quarters(&stones.replace('又', " ")).map_err(|_| bad())?;
                        WinBy::Score { margin_halves: u32::try_from(q).map_err(|_| bad())? }
                    } else if let Some(points) = r.strip_suffix('目').or_else(|| r.strip_suffix('点')) {
                        let h =
                            parse_hundredths(points).filter(|h| *h >= 0 && h % 50 == 0).ok_or_else(bad)?;
                        WinBy::Score { margin_halves: u32::try_from(h / 50).map_err(|_| bad())? }
                    } else {
                        return Err(bad());
                    }
                }
            };
            return Ok(GameResult::Win { winner, by });
        }
        let mut chars = t.chars();
        let winner = match chars.next().map(|c| c.to_ascii_uppercase()) {
            Some('B') => Color::Black,
            Some('W') => Color::White,
            _ => return Err(bad()),
        };
        let rest = chars.as_str().trim_start();
        let rest = rest.strip_prefix('+').ok_or_else(bad)?.trim();
        let by = match rest.to_ascii_lowercase().as_str() {
            "" => WinBy::Unspecified,
            "r" | "resign" | "resignation" => WinBy::Resignation,
            "t" | "time" => WinBy::Time,
            "f" | "forfeit" => WinBy::Forfeit,
            _ => WinBy::Score { margin_halves: margin_halves(rest).ok_or_else(bad)? },
        };
        Ok(GameResult::Win { winner, by })
    }
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::*;

    #[test]
    fn komi_heuristic() {
        let k = |t: &str| Komi::from_km(t).map(|k| (k.quarters, k.unit));
        assert_eq!(k("7.5"), Ok((15, KomiUnit::Points)));
        assert_eq!(k("6.5"), Ok((13, KomiUnit::Points)));
        assert_eq!(k("7"), Ok((14, KomiUnit::Points)));
        assert_eq!(k("0"), Ok((0, KomiUnit::Points)));
        assert_eq!(k("-5.5"), Ok((-11, KomiUnit::Points)));
        assert_eq!(k("7.50"), Ok((15, KomiUnit::Points)));
        assert_eq!(k("3.75"), Ok((15, KomiUnit::Stones)));
        assert_eq!(k("2.75"), Ok((11, KomiUnit::Stones)));
        assert_eq!(k("375"), Ok((15, KomiUnit::HundredthsOfStones)));
        assert_eq!(k("350"), Ok((14, KomiUnit::HundredthsOfStones)));
        assert!(k("5.4").is_err());
        assert!(k("abc").is_err());
        assert!(k("1e3").is_err());
        assert!(k("99999999999999999999999").is_err());
        assert!(k("333").is_err());
        assert!(k("NaN").is_err());
        assert_eq!(Komi { quarters: 15, unit: KomiUnit::Stones }.points_text(), "7.5");
        assert_eq!(Komi { quarters: -1, unit: KomiUnit::Points }.points_text(), "-0.5");
        let rec = parse("(;KM[3.75])").unwrap();
        assert_eq!(rec.komi, Some(Komi { quarters: 15, unit: KomiUnit::Stones }));
        assert_eq!(parse("(;KM[])").unwrap().komi, None);
    }

    #[test]
    fn result_parsing() {
        use GameResult::*;
        let w = |c, by| Win { winner: c, by };
        let r = |t: &str| t.parse::<GameResult>();
        assert_eq!(r("B+R"), Ok(w(Color::Black, WinBy::Resignation)));
        assert_eq!(r("W+Resign"), Ok(w(Color::White, WinBy::Resignation)));
        assert_eq!(r("w+t"), Ok(w(Color::White, WinBy::Time)));
        assert_eq!(r("W+Time"), Ok(w(Color::White, WinBy::Time)));
        assert_eq!(r("B+F"), Ok(w(Color::Black, WinBy::Forfeit)));
        assert_eq!(r("B+3.5"), Ok(w(Color::Black, WinBy::Score { margin_halves: 7 })));
        assert_eq!(r("W+0.5"), Ok(w(Color::White, WinBy::Score { margin_halves: 1 })));
        assert_eq!(r("B+12"), Ok(w(Color::Black, WinBy::Score { margin_halves: 24 })));
        assert_eq!(r("B+0.75"), Ok(w(Color::Black, WinBy::Score { margin_halves: 3 })), "¾ stone");
        assert_eq!(r("B+"), Ok(w(Color::Black, WinBy::Unspecified)));
        assert_eq!(r("0"), Ok(Draw));
        assert_eq!(r("Draw"), Ok(Draw));
        assert_eq!(r("Jigo"), Ok(Draw));
        assert_eq!(r("Void"), Ok(Void));
        assert_eq!(r("?"), Ok(Unknown));
        assert_eq!(r("黑中盘胜"), Ok(w(Color::Black, WinBy::Resignation)));
        assert_eq!(r("白超时胜"), Ok(w(Color::White, WinBy::Time)));
        assert_eq!(r("黑胜3又3/4子"), Ok(w(Color::Black, WinBy::Score { margin_halves: 15 })));
        assert_eq!(r("白胜1/4子").ok(), None, "'1/4' alone is not read");
        assert_eq!(r("白胜¼子"), Ok(w(Color::White, WinBy::Score { margin_halves: 1 })));
        assert_eq!(r("白胜7.5目"), Ok(w(Color::White, WinBy::Score { margin_halves: 15 })));
        assert_eq!(r("和棋"), Ok(Draw));
        assert_eq!(r("无胜负"), Ok(Void));
        for bad in ["", "X+1", "B+3.3", "B-1", "B+-1", "B+99999999999999999999", "黑负"] {
            assert!(r(bad).is_err(), "{bad:?}");
        }
        for t in ["B+R", "W+T", "B+F", "B+3.5", "W+", "0", "Void", "?"] {
            assert_eq!(r(t).unwrap().to_string(), t);
        }
        assert!(r("B+3.5").unwrap().is_counted());
        assert!(!r("B+R").unwrap().is_counted());
        // a result not understood is kept as text with a warning
        let rec = parse("(;RE[B wins by a lot])").unwrap();
        assert_eq!(rec.result, None);
        assert_eq!(rec.result_text.as_deref(), Some("B wins by a lot"));
        assert_eq!(rec.warnings.len(), 1);
    }
}
