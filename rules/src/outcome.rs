//! From a count to a result: komi, handicap compensation, penalty stones and the jigo rule.
//!
//! All arithmetic is exact and in integers. Counts are in **half points** (a shared point gives
//! each side ½, Art. 9), komi and margins in **quarter stones** (komi 3¾ = 15 quarters). One stone
//! of area is two points in the Western sense, so a quarter stone is half a point.
//!
//! The margin of Black, in stones, is (rules.md §3.2–3.5, seed 000 Art. 9 and 11):
//!
//! `m = B_eff − par − komi − compensation`, with `B_eff = B − pen_B + pen_W` and `par = points/2`.
//!
//! In quarter stones: `m_q = 2·b_halves − 2·points − komi_q − comp_q + 4·(pen_W − pen_B)`.

use crate::board::Color;
use serde::{Deserialize, Serialize};
use std::fmt;

/// What an exactly equal count means (rules.md §3.3–3.4; seed 003 Art. 12 注).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum JigoRule {
    /// An equal count is a draw (和棋), as in the team relay rules (seed 003 Art. 12).
    #[default]
    Draw,
    /// "平目下和，直接判白胜": the event states in advance that an equal count is White's win.
    WhiteWins,
    /// Black wins an equal count (the second draw of a 节棋 play-off, seed 003 Art. 12).
    BlackWins,
}

/// How Black compensates White in a handicap game (rules.md §3.4 and the decisions table).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum HandicapCompensation {
    /// Chinese practice: for n ≥ 2 stones Black returns n/2 stones (= n points).
    #[default]
    HalfStonePerStone,
    /// AGA style: n − 1 points (= (n−1)/2 stones) for n ≥ 2.
    NMinusOnePoints,
    /// No compensation.
    None,
}

impl HandicapCompensation {
    /// Compensation in quarter stones for `handicap` stones. Handicap 0 and 1 (让先) give none.
    pub fn quarters(self, handicap: u8) -> i32 {
        let n = i32::from(handicap);
        if n < 2 {
            return 0;
        }
        match self {
            // n/2 stones = 2n quarter stones
            HandicapCompensation::HalfStonePerStone => 2 * n,
            // (n-1) points = (n-1)/2 stones = 2(n-1) quarter stones
            HandicapCompensation::NMinusOnePoints => 2 * (n - 1),
            HandicapCompensation::None => 0,
        }
    }
}

/// Everything needed to turn Black's count into a result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scoring {
    /// Number of points on the board (361 on 19×19).
    pub points: u32,
    /// Komi Black gives, in quarter stones (3¾ → 15; may be 0 or negative for reverse komi).
    pub komi_q: i32,
    /// Handicap stones (0 = even game, 1 = 让先 no-komi game).
    pub handicap: u8,
    /// Compensation rule for handicap games.
    pub compensation: HandicapCompensation,
    /// Penalty stones against Black and against White (seed 003 Arts. 17.7, 17.8, 22.1, 24).
    pub penalty_black: u32,
    pub penalty_white: u32,
    /// What an exactly equal result means.
    pub jigo: JigoRule,
}

impl Scoring {
    /// Individual 2002 defaults on a 19×19 board: komi 3¾, no handicap, no penalties.
    pub fn chinese_2002() -> Self {
        Scoring {
            points: 361,
            komi_q: 15,
            handicap: 0,
            compensation: HandicapCompensation::HalfStonePerStone,
            penalty_black: 0,
            penalty_white: 0,
            jigo: JigoRule::Draw,
        }
    }

    /// Black's margin in quarter stones for a count of `black_halves` half points.
    /// Positive: Black ahead; negative: White ahead.
    pub fn margin_quarters(&self, black_halves: u32) -> i64 {
        2 * i64::from(black_halves)
            - 2 * i64::from(self.points)
            - i64::from(self.komi_q)
            - i64::from(self.compensation.quarters(self.handicap))
            + 4 * (i64::from(self.penalty_white) - i64::from(self.penalty_black))
    }

    /// Black's margin at a count of 0, twice over: the count of an exact draw is half of it.
    fn par_twice(&self) -> i64 {
        2 * i64::from(self.points)
            + i64::from(self.komi_q)
            + i64::from(self.compensation.quarters(self.handicap))
            - 4 * (i64::from(self.penalty_white) - i64::from(self.penalty_black))
    }

    /// Black's count (half points) that is an exact draw, when the komi leaves one: komi 3½
    /// (seed 003 Art. 12) makes Black 184 (368 half points) a draw; komi 3¾ (Art. 11 of the
    /// 2002 rules) leaves none.
    pub fn drawing_count(&self) -> Option<u32> {
        let par = self.par_twice();
        (par >= 0 && par % 2 == 0).then(|| u32::try_from(par / 2).unwrap_or(u32::MAX))
    }

    /// Black's smallest winning count (half points): 184½ (369) at komi 3¾, 184½ at 3½.
    pub fn winning_count(&self) -> u32 {
        u32::try_from(self.par_twice().max(-1) / 2 + 1).unwrap_or(u32::MAX)
    }

    /// The result of a game in which Black's count (stones + surrounded points + half of the
    /// shared points, Art. 9) is `black_halves` half points.
    pub fn outcome(&self, black_halves: u32) -> Outcome {
        Outcome::from_margin(self.margin_quarters(black_halves), self.jigo)
    }
}

/// The result of a counted game: who won and by how much, exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Outcome {
    /// `None` is a draw (和棋).
    pub winner: Option<Color>,
    /// Margin in quarter stones (0 for a draw or for a jigo awarded by the jigo rule).
    pub margin_q: u32,
}

impl Outcome {
    /// Result from Black's signed margin in quarter stones.
    pub fn from_margin(margin_q: i64, jigo: JigoRule) -> Outcome {
        let m = u32::try_from(margin_q.unsigned_abs()).unwrap_or(u32::MAX);
        match margin_q.signum() {
            1 => Outcome { winner: Some(Color::Black), margin_q: m },
            -1 => Outcome { winner: Some(Color::White), margin_q: m },
            _ => Outcome {
                winner: match jigo {
                    JigoRule::Draw => None,
                    JigoRule::WhiteWins => Some(Color::White),
                    JigoRule::BlackWins => Some(Color::Black),
                },
                margin_q: 0,
            },
        }
    }

    /// Margin in half points (Western points): ¼ stone = ½ point.
    pub fn margin_half_points(&self) -> u32 {
        self.margin_q
    }

    /// Margin in stones as text with vulgar fractions: "¾", "1¼", "3".
    pub fn stones_text(&self) -> String {
        quarters_text(self.margin_q)
    }

    /// Margin in points as text: "1.5", "0.5", "3".
    pub fn points_text(&self) -> String {
        half_points_text(self.margin_q)
    }

    /// SGF RE value: "B+1.5", "W+0.5", "0" for a draw.
    pub fn sgf_result(&self) -> String {
        match self.winner {
            None => "0".to_string(),
            Some(c) => format!("{}+{}", c.letter(), self.points_text()),
        }
    }
}

impl fmt::Display for Outcome {
    /// "B+¾" (stones, the Chinese unit), "W+1¼", "Draw".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            None => write!(f, "Draw"),
            Some(c) if self.margin_q == 0 => write!(f, "{}+", c.letter()),
            Some(c) => write!(f, "{}+{}", c.letter(), self.stones_text()),
        }
    }
}

/// Quarter stones as text: 3 → "¾", 5 → "1¼", 8 → "2", 0 → "0".
pub fn quarters_text(q: u32) -> String {
    let whole = q / 4;
    let frac = match q % 4 {
        1 => "¼",
        2 => "½",
        3 => "¾",
        _ => "",
    };
    match (whole, frac) {
        (0, "") => "0".to_string(),
        (0, f) => f.to_string(),
        (w, f) => format!("{w}{f}"),
    }
}

/// Half points as text: 3 → "1.5", 4 → "2".
pub fn half_points_text(h: u32) -> String {
    if h.is_multiple_of(2) {
        format!("{}", h / 2)
    } else {
        format!("{}.5", h / 2)
    }
}

/// Signed quarter stones as text: -3 → "-¾".
pub fn signed_quarters_text(q: i32) -> String {
    if q < 0 {
        format!("-{}", quarters_text(q.unsigned_abs()))
    } else {
        quarters_text(q as u32)
    }
}

/// Quarter stones as a decimal number, as typed in a form: 15 → "3.75", -1 → "-0.25" (what
/// [`parse_quarters`] reads back).
pub fn quarters_decimal(q: i32) -> String {
    let sign = if q < 0 { "-" } else { "" };
    let a = q.unsigned_abs();
    let frac = match a % 4 {
        0 => "",
        1 => ".25",
        2 => ".5",
        _ => ".75",
    };
    format!("{sign}{}{frac}", a / 4)
}

/// Parse a number of stones written as "3.75", "3¾", "3 3/4", "3.5", "0", "-0.25" into quarter
/// stones. Refuses anything that is not a multiple of ¼.
pub fn parse_quarters(text: &str) -> Result<i32, String> {
    let t = text.trim();
    let (neg, t) = match t.strip_prefix('-') {
        Some(rest) => (true, rest.trim()),
        None => (false, t),
    };
    let q = if let Some(stripped) = t
        .strip_suffix('¼')
        .map(|w| (w, 1))
        .or_else(|| t.strip_suffix('½').map(|w| (w, 2)))
        .or_else(|| t.strip_suffix('¾').map(|w| (w, 3)))
    {
        let (w, f) = stripped;
        let w = w.trim();
        let whole: i32 = if w.is_empty() { 0 } else { w.parse().map_err(|_| bad(text))? };
        whole.checked_mul(4).and_then(|x| x.checked_add(f)).ok_or_else(|| bad(text))?
    } else if let Some((w, frac)) = t.split_once(' ') {
        let whole: i32 = w.parse().map_err(|_| bad(text))?;
        let f = match frac.trim() {
            "1/4" => 1,
            "1/2" | "2/4" => 2,
            "3/4" => 3,
            _ => return Err(bad(text)),
        };
        whole.checked_mul(4).and_then(|x| x.checked_add(f)).ok_or_else(|| bad(text))?
    } else if let Some((w, d)) = t.split_once('.') {
        let whole: i32 = if w.is_empty() { 0 } else { w.parse().map_err(|_| bad(text))? };
        let f = match d.trim_end_matches('0') {
            "" => 0,
            "25" => 1,
            "5" => 2,
            "75" => 3,
            _ => return Err(bad(text)),
        };
        whole.checked_mul(4).and_then(|x| x.checked_add(f)).ok_or_else(|| bad(text))?
    } else {
        let whole: i32 = t.parse().map_err(|_| bad(text))?;
        whole.checked_mul(4).ok_or_else(|| bad(text))?
    };
    Ok(if neg { -q } else { q })
}

/// The unit a komi was written in: stones (子, the unit of the Chinese rules: "黑棋贴还3又3/4子",
/// Art. 11), points (目: one point is half a stone, so 7.5 points = 3¾ stones), or none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KomiUnit {
    Stones,
    Points,
    /// A bare number: the reader decides (Tengen reads it as stones and has it confirmed).
    Bare,
}

/// Komi as typed: its value in quarter stones and the unit it was written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KomiInput {
    pub quarters: i32,
    pub unit: KomiUnit,
}

/// Parse a komi written in stones ("3¾子", "3.75子", "3又3/4子", "3 3/4 stones", "3.75") or in
/// points ("7.5目", "7目半", "7½目", "7.5 points", "7.5 pts"), optionally after "黑贴"/"贴",
/// into quarter stones exactly (¼ stone = ½ point). Points must be a multiple of ½, stones of
/// ¼. A negative komi (White gives) has a leading "-".
pub fn parse_komi(text: &str) -> Result<KomiInput, String> {
    let mut t = text.trim();
    for prefix in ["黑贴", "贴"] {
        if let Some(rest) = t.strip_prefix(prefix) {
            t = rest.trim();
        }
    }
    let lower = t.to_lowercase();
    let ends = |suffixes: &[&str]| {
        suffixes
            .iter()
            .find(|s| lower.ends_with(*s))
            .map(|s| lower[..lower.len() - s.len()].trim().to_string())
    };
    if let Some(n) = ends(&["目半"]) {
        // "7目半" = 7½ points.
        let whole = parse_half_points(n.trim_start_matches('-')).map_err(|_| bad(text))?;
        let halves = i32::try_from(whole + 1).map_err(|_| bad(text))?;
        let q = if n.starts_with('-') { -halves } else { halves };
        return Ok(KomiInput { quarters: q, unit: KomiUnit::Points });
    }
    if let Some(n) = ends(&["points", "point", "pts", "pt", "目"]) {
        let (neg, n) = match n.strip_prefix('-') {
            Some(rest) => (true, rest.trim()),
            None => (false, n.as_str()),
        };
        let halves = parse_half_points(n).map_err(|_| format!("{text:?} is not a multiple of ½ point"))?;
        let q = i32::try_from(halves).map_err(|_| bad(text))?;
        return Ok(KomiInput { quarters: if neg { -q } else { q }, unit: KomiUnit::Points });
    }
    let (n, unit) = match ends(&["stones", "stone", "子"]) {
        Some(n) => (n, KomiUnit::Stones),
        None => (lower.clone(), KomiUnit::Bare),
    };
    let n = n.replace('又', " ");
    Ok(KomiInput { quarters: parse_quarters(&n)?, unit })
}

/// Parse a count in points ("184.5", "184", "184½") into half points.
pub fn parse_half_points(text: &str) -> Result<u32, String> {
    let t = text.trim();
    let (w, half) = if let Some(w) = t.strip_suffix('½') {
        (w, 1)
    } else if let Some((w, d)) = t.split_once('.') {
        match d.trim_end_matches('0') {
            "" => (w, 0),
            "5" => (w, 1),
            _ => return Err(format!("{text:?} is not a multiple of ½")),
        }
    } else {
        (t, 0)
    };
    let whole: u32 = w.trim().parse().map_err(|_| format!("{text:?} is not a number"))?;
    whole.checked_mul(2).and_then(|x| x.checked_add(half)).ok_or_else(|| format!("{text:?} is too large"))
}

fn bad(text: &str) -> String {
    format!("{text:?} is not a multiple of ¼ stone")
}

/// Black's count as typed on a board of `points` points ("185", "184.5", "184½"), in half
/// points: `None` unless it is a multiple of ½ and at most every point of the board.
pub fn parse_count(text: &str, points: u32) -> Option<u32> {
    parse_half_points(text).ok().filter(|h| u64::from(*h) <= 2 * u64::from(points))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Seed 003 Art. 12: at komi 3½ Black 184 is a draw; 2002 Art. 11: at 3¾ no count draws
    /// and Black needs 184½.
    #[test]
    fn the_drawing_count_follows_the_komi() {
        let relay = Scoring { komi_q: 14, ..Scoring::chinese_2002() };
        assert_eq!(relay.drawing_count(), Some(368));
        assert_eq!(relay.outcome(368).winner, None);
        assert_eq!(relay.winning_count(), 369);
        let individual = Scoring::chinese_2002();
        assert_eq!(individual.drawing_count(), None);
        assert_eq!(individual.winning_count(), 369);
        assert_eq!(individual.outcome(369).winner, Some(Color::Black));
        assert_eq!(individual.outcome(368).winner, Some(Color::White));
        // Every komi: the winning count is the first with a Black win, the draw (if any) the one
        // before it with margin 0.
        for komi_q in -20..40 {
            let s = Scoring { komi_q, ..Scoring::chinese_2002() };
            let w = s.winning_count();
            assert!(s.margin_quarters(w) > 0 && s.margin_quarters(w - 1) <= 0, "{komi_q}");
            assert_eq!(s.drawing_count().is_some(), s.margin_quarters(w - 1) == 0, "{komi_q}");
        }
    }

    #[test]
    fn a_count_fits_the_board() {
        assert_eq!(parse_count("185", 361), Some(370));
        assert_eq!(parse_count("184.5", 361), Some(369));
        assert_eq!(parse_count("184½", 361), Some(369));
        assert_eq!(parse_count("361", 361), Some(722));
        assert_eq!(parse_count("361.5", 361), None);
        assert_eq!(parse_count("81", 81), Some(162));
        assert_eq!(parse_count("81.5", 81), None);
        assert_eq!(parse_count("184.25", 361), None);
        assert_eq!(parse_count("x", 361), None);
        assert_eq!(parse_count("99999999999", 361), None);
    }

    #[test]
    fn komi_in_stones_or_points_is_exact_quarter_stones() {
        let k = |t: &str| parse_komi(t).map(|k| (k.quarters, k.unit));
        for t in ["3¾子", "3.75子", "3又3/4子", "3 3/4 stones", "黑贴3¾子", "3.75 Stones"] {
            assert_eq!(k(t), Ok((15, KomiUnit::Stones)), "{t}");
        }
        for t in ["7.5目", "7目半", "7½目", "7.5 points", "7.5 pts", "贴7.5目", "7.5 point"] {
            assert_eq!(k(t), Ok((15, KomiUnit::Points)), "{t}");
        }
        assert_eq!(k("3.75"), Ok((15, KomiUnit::Bare)));
        assert_eq!(k("7.5"), Ok((30, KomiUnit::Bare)), "a bare number is a number of stones");
        assert_eq!(k("7目"), Ok((14, KomiUnit::Points)));
        assert_eq!(k("3½子"), Ok((14, KomiUnit::Stones)));
        assert_eq!(k("0目"), Ok((0, KomiUnit::Points)));
        assert_eq!(k("-0.5目"), Ok((-1, KomiUnit::Points)));
        assert_eq!(k("-¼子"), Ok((-1, KomiUnit::Stones)));
        for bad in ["7.25目", "3.3子", "abc", "目", "", "7.5 furlongs", "3¾目半"] {
            assert!(parse_komi(bad).is_err(), "{bad}");
        }
    }

    fn b(x: f64) -> u32 {
        (x * 2.0) as u32
    }

    fn ind() -> Scoring {
        Scoring::chinese_2002()
    }

    /// rules.md §3.2: every row of the komi 3¾ table.
    #[test]
    fn individual_komi_table() {
        let s = ind();
        let cases = [
            (186.0, "B+1¾", "B+3.5"),
            (185.0, "B+¾", "B+1.5"),
            (184.5, "B+¼", "B+0.5"),
            (184.0, "W+¼", "W+0.5"),
            (183.5, "W+¾", "W+1.5"),
            (183.0, "W+1¼", "W+2.5"),
        ];
        for (count, stones, points) in cases {
            let o = s.outcome(b(count));
            assert_eq!(o.to_string(), stones, "count {count}");
            assert_eq!(o.sgf_result(), points, "count {count}");
        }
    }

    /// No draw by count is possible with komi 3¾: B − 184.25 is never 0.
    #[test]
    fn no_draw_with_komi_three_and_three_quarters() {
        let s = ind();
        for h in 0..=722 {
            assert!(s.outcome(h).winner.is_some());
        }
    }

    /// rules.md §3.3: team komi 3½.
    #[test]
    fn team_komi_table() {
        let s = Scoring { komi_q: 14, ..ind() };
        assert_eq!(s.outcome(b(185.0)).to_string(), "B+1");
        assert_eq!(s.outcome(b(184.5)).to_string(), "B+½");
        assert_eq!(s.outcome(b(184.0)), Outcome { winner: None, margin_q: 0 });
        assert_eq!(s.outcome(b(183.5)).to_string(), "W+½");
        let white_flag = Scoring { jigo: JigoRule::WhiteWins, ..s };
        assert_eq!(white_flag.outcome(b(184.0)).winner, Some(Color::White));
    }

    /// rules.md §3.4: H4 at 183 → B+½; 182 → W+½; 让先 180.5 is a draw.
    #[test]
    fn handicap_and_no_komi() {
        let h4 = Scoring { komi_q: 0, handicap: 4, ..ind() };
        assert_eq!(h4.outcome(b(183.0)).to_string(), "B+½");
        assert_eq!(h4.outcome(b(182.0)).to_string(), "W+½");
        let h3 = Scoring { komi_q: 0, handicap: 3, ..ind() };
        assert_eq!(h3.outcome(b(182.0)).winner, None, "odd handicap allows a draw");
        let no_komi = Scoring { komi_q: 0, handicap: 1, ..ind() };
        assert_eq!(no_komi.outcome(b(180.5)).winner, None);
        assert_eq!(no_komi.outcome(b(181.0)).to_string(), "B+½");
        let aga =
            Scoring { komi_q: 1, handicap: 4, compensation: HandicapCompensation::NMinusOnePoints, ..ind() };
        // 3 points = 6 quarters, plus ½ point komi = 1 quarter: m = 2*366 - 722 - 1 - 6 = 3
        assert_eq!(aga.outcome(b(183.0)).to_string(), "B+¾");
    }

    /// rules.md §3.5: penalty examples with the team komi.
    #[test]
    fn penalty_stones() {
        let team = Scoring { komi_q: 14, ..ind() };
        let yellow_black = Scoring { penalty_black: 1, ..team };
        assert_eq!(yellow_black.outcome(b(185.0)).winner, None, "185 − 1 = 184: draw");
        let two_white = Scoring { penalty_white: 2, ..team };
        assert_eq!(two_white.outcome(b(185.0)).to_string(), "B+3");
        let both = Scoring { penalty_white: 2, penalty_black: 2, ..team };
        assert_eq!(both.outcome(b(185.0)).to_string(), "B+1");
    }

    #[test]
    fn texts_and_parsing() {
        assert_eq!(quarters_text(0), "0");
        assert_eq!(quarters_text(3), "¾");
        assert_eq!(quarters_text(9), "2¼");
        assert_eq!(parse_quarters("3.75"), Ok(15));
        assert_eq!(parse_quarters("3¾"), Ok(15));
        assert_eq!(parse_quarters("3 1/2"), Ok(14));
        assert_eq!(parse_quarters("-0.25"), Ok(-1));
        assert_eq!(parse_quarters("7"), Ok(28));
        assert!(parse_quarters("3.3").is_err());
        assert!(parse_quarters("abc").is_err());
        assert_eq!(parse_half_points("184.5"), Ok(369));
        assert_eq!(parse_half_points("184½"), Ok(369));
        assert!(parse_half_points("184.3").is_err());
        let o = Scoring::chinese_2002().outcome(b(185.0));
        assert_eq!((o.winner, o.stones_text().as_str()), (Some(Color::Black), "¾"));
        assert_eq!(o.points_text(), "1.5");
    }
}
