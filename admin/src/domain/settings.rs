//! Tournament settings: the choices rules.md's decisions table leaves to the event, with its
//! defaults, and which of them are frozen once a round is published.

use chrono::NaiveDate;
use rules::RuleSet;
use serde::{Deserialize, Serialize};

macro_rules! code_enum {
    ($(#[$m:meta])* $name:ident { $($variant:ident = $code:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum $name { $(#[serde(rename = $code)] $variant),+ }
        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant),+];
            pub fn code(self) -> &'static str { match self { $($name::$variant => $code),+ } }
            pub fn from_code(s: &str) -> Option<$name> {
                match s.trim() { $($code => Some($name::$variant),)+ _ => None }
            }
        }
    };
}

code_enum!(
    /// Pairing system (编排制度).
    System { Swiss = "swiss", McMahon = "mcmahon", RoundRobin = "round_robin", Knockout = "knockout", TeamRelay = "team_relay" }
);
code_enum!(
    /// Game points for win / draw / loss.
    PointsScale { TwoOneZero = "2-1-0", OneHalfZero = "1-0.5-0", ThreeOneZero = "3-1-0" }
);
code_enum!(
    /// Tie-break criteria (名次区分).
    TieBreak {
        Score = "score", Sos = "sos", Cumulative = "cumulative", Direct = "direct", Wins = "wins",
        FewerWarnings = "fewer_warnings", SosMinus1 = "sos_minus1", Sosos = "sosos", Sb = "sb", Lots = "lots"
    }
);
code_enum!(
    /// Who plays Black (Art. 10): nigiri at the board, drawn lots, or balanced by the pairing.
    ColourMethod { Nigiri = "nigiri", Lots = "lots", Balanced = "balanced" }
);
code_enum!(
    /// What a bye scores.
    ByeValue { Win = "win", Draw = "draw", Loss = "loss" }
);
code_enum!(
    /// What a bye contributes to 对手分 (SOS).
    ByeSos { Zero = "zero", LowestScore = "lowest_score" }
);
code_enum!(
    /// What a double loss (双方均负) does to the next round's pairing (rules.md §12): a seeded
    /// lot names a nominal winner used by that pairing only (the decisions table's default),
    /// or the round is paired on the native 0 : 0.
    DoubleLoss { Lot = "lot", Native = "native" }
);
code_enum!(
    /// What each round missed before a late entry scores (the entrant joins with it).
    LateEntry { Loss = "loss", Draw = "draw", Win = "win" }
);
code_enum!(
    /// Venue regime for lateness (Art. 22.1 / 22.2).
    VenueRegime { Separate = "separate", Same = "same", Custom = "custom" }
);
code_enum!(
    /// Kind of time control.
    TimeKind { ByoYomi = "byo_yomi", Absolute = "absolute", Fischer = "fischer" }
);

/// Lateness policy (rules.md §7). Stored as JSON until the rules crate's clock types land.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LatenessSetting {
    pub regime: VenueRegime,
    /// Lateness beyond this many minutes loses the game.
    pub limit_min: u32,
    /// Whether exactly `limit_min` late may still play (2002: yes, "含").
    pub inclusive: bool,
    /// Deduct twice the lateness from the basic time.
    pub double_deduction: bool,
}

impl Default for LatenessSetting {
    fn default() -> Self {
        LatenessSetting {
            regime: VenueRegime::Separate,
            limit_min: 60,
            inclusive: true,
            double_deduction: true,
        }
    }
}

/// Time control. Stored as JSON until the rules crate's clock types land.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeControlSetting {
    pub kind: TimeKind,
    pub main_minutes: u32,
    /// Byo-yomi periods (读秒次数) and their length in seconds.
    pub periods: u32,
    pub period_seconds: u32,
    /// Fischer increment in seconds.
    pub increment_seconds: u32,
}

impl Default for TimeControlSetting {
    fn default() -> Self {
        TimeControlSetting {
            kind: TimeKind::ByoYomi,
            main_minutes: 120,
            periods: 3,
            period_seconds: 60,
            increment_seconds: 0,
        }
    }
}

/// Same-unit avoidance (同单位回避): off, the first k rounds, or every round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SameUnit {
    Off,
    Rounds(u32),
    All,
}

impl SameUnit {
    pub fn code(self) -> String {
        match self {
            SameUnit::Off => "off".into(),
            SameUnit::Rounds(k) => k.to_string(),
            SameUnit::All => "all".into(),
        }
    }
    pub fn from_code(s: &str) -> Option<SameUnit> {
        match s.trim() {
            "off" | "0" => Some(SameUnit::Off),
            "all" => Some(SameUnit::All),
            n => n.parse::<u32>().ok().filter(|k| (1..=99).contains(k)).map(SameUnit::Rounds),
        }
    }
}

pub const DEFAULT_TIEBREAKS: [TieBreak; 7] = [
    TieBreak::Score,
    TieBreak::Sos,
    TieBreak::Cumulative,
    TieBreak::Direct,
    TieBreak::Wins,
    TieBreak::FewerWarnings,
    TieBreak::Lots,
];

/// Maximum number of rounds a tournament may declare.
pub const MAX_ROUNDS: u32 = 99;

/// Every setting of a tournament.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentSettings {
    pub name_zh: String,
    pub name_latin: String,
    pub venue: String,
    pub start_date: NaiveDate,
    pub end_date: NaiveDate,
    pub system: System,
    pub rounds: u32,
    pub ruleset: RuleSet,
    pub points_scale: PointsScale,
    pub tiebreaks: Vec<TieBreak>,
    pub colour_method: ColourMethod,
    pub lateness: LatenessSetting,
    pub bye_value: ByeValue,
    pub bye_sos: ByeSos,
    pub same_unit: SameUnit,
    pub time_control: TimeControlSetting,
    /// The double-loss lot fallback (rules.md §12).
    pub double_loss: DoubleLoss,
    /// The score of each round a late entrant missed.
    pub late_entry: LateEntry,
}

impl TournamentSettings {
    /// The defaults of rules.md's decisions table, for an event on `date`.
    pub fn defaults(date: NaiveDate) -> TournamentSettings {
        TournamentSettings {
            name_zh: String::new(),
            name_latin: String::new(),
            venue: String::new(),
            start_date: date,
            end_date: date,
            system: System::Swiss,
            rounds: 7,
            ruleset: RuleSet::chinese_2002(),
            points_scale: PointsScale::TwoOneZero,
            tiebreaks: DEFAULT_TIEBREAKS.to_vec(),
            colour_method: ColourMethod::Nigiri,
            lateness: LatenessSetting::default(),
            bye_value: ByeValue::Win,
            bye_sos: ByeSos::Zero,
            same_unit: SameUnit::Rounds(1),
            time_control: TimeControlSetting::default(),
            double_loss: DoubleLoss::Lot,
            late_entry: LateEntry::Loss,
        }
    }

    pub fn tiebreak_codes(&self) -> String {
        self.tiebreaks.iter().map(|t| t.code()).collect::<Vec<_>>().join(",")
    }

    pub fn parse_tiebreaks(s: &str) -> Option<Vec<TieBreak>> {
        s.split(',').filter(|x| !x.trim().is_empty()).map(TieBreak::from_code).collect()
    }
}

/// A setting that may not change once a round is published, because it would change games
/// already played or their scores.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Frozen {
    System,
    RuleSet,
    PointsScale,
    ColourMethod,
    Lateness,
    ByeValue,
    SameUnit,
    TimeControl,
    /// What missed rounds score for late entrants (it changes scores already earned).
    LateEntry,
    /// Fewer rounds than are already published.
    Rounds,
}

impl Frozen {
    /// The form field that carries this setting.
    pub fn field(self) -> &'static str {
        match self {
            Frozen::System => "system",
            Frozen::RuleSet => "preset",
            Frozen::PointsScale => "points_scale",
            Frozen::ColourMethod => "colour_method",
            Frozen::Lateness => "late_limit",
            Frozen::ByeValue => "bye_value",
            Frozen::SameUnit => "same_unit",
            Frozen::TimeControl => "main_minutes",
            Frozen::LateEntry => "late_entry",
            Frozen::Rounds => "rounds",
        }
    }
}

/// Which changes from `old` to `new` are refused when `published` rounds exist, the highest
/// published round being `last_published`. Names, venue, dates, tie-break order and the
/// double-loss fallback (it only changes the pairing of rounds to come) stay free.
pub fn frozen_changes(
    old: &TournamentSettings,
    new: &TournamentSettings,
    published: u32,
    last_published: u32,
) -> Vec<Frozen> {
    let mut out = Vec::new();
    if published == 0 {
        return out;
    }
    if old.system != new.system {
        out.push(Frozen::System);
    }
    if old.ruleset != new.ruleset {
        out.push(Frozen::RuleSet);
    }
    if old.points_scale != new.points_scale {
        out.push(Frozen::PointsScale);
    }
    if old.colour_method != new.colour_method {
        out.push(Frozen::ColourMethod);
    }
    if old.lateness != new.lateness {
        out.push(Frozen::Lateness);
    }
    if old.bye_value != new.bye_value || old.bye_sos != new.bye_sos {
        out.push(Frozen::ByeValue);
    }
    if old.same_unit != new.same_unit {
        out.push(Frozen::SameUnit);
    }
    if old.time_control != new.time_control {
        out.push(Frozen::TimeControl);
    }
    if old.late_entry != new.late_entry {
        out.push(Frozen::LateEntry);
    }
    if new.rounds < last_published {
        out.push(Frozen::Rounds);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day() -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 12, 5).unwrap()
    }

    #[test]
    fn defaults_follow_the_decisions_table() {
        let s = TournamentSettings::defaults(day());
        assert_eq!(s.ruleset.komi_q, 15);
        assert_eq!(s.ruleset.warnings_to_loss, Some(2));
        assert_eq!(s.points_scale, PointsScale::TwoOneZero);
        assert_eq!(s.bye_value, ByeValue::Win);
        assert_eq!(s.bye_sos, ByeSos::Zero);
        assert_eq!(s.same_unit, SameUnit::Rounds(1));
        assert_eq!(s.lateness.limit_min, 60);
        assert!(s.lateness.inclusive && s.lateness.double_deduction);
        assert_eq!(s.tiebreak_codes(), "score,sos,cumulative,direct,wins,fewer_warnings,lots");
        assert_eq!(s.double_loss, DoubleLoss::Lot, "decisions table: the lot fallback");
        assert_eq!(s.late_entry, LateEntry::Loss);
    }

    #[test]
    fn codes_round_trip() {
        for t in TieBreak::ALL {
            assert_eq!(TieBreak::from_code(t.code()), Some(*t));
        }
        for s in ["off", "1", "3", "all"] {
            assert_eq!(SameUnit::from_code(s).map(|x| x.code()), Some(s.to_string()));
        }
        assert_eq!(SameUnit::from_code("x"), None);
        assert_eq!(TournamentSettings::parse_tiebreaks("score,bogus"), None);
    }

    #[test]
    fn published_rounds_freeze_what_changes_played_games() {
        let old = TournamentSettings::defaults(day());
        let mut new = old.clone();
        new.name_latin = "Renamed".into();
        new.tiebreaks.reverse();
        assert!(frozen_changes(&old, &new, 1, 1).is_empty());
        new.ruleset.komi_q = 14;
        new.system = System::McMahon;
        assert_eq!(frozen_changes(&old, &new, 1, 1), vec![Frozen::System, Frozen::RuleSet]);
        assert!(frozen_changes(&old, &new, 0, 0).is_empty());
        let mut fewer = old.clone();
        fewer.rounds = 2;
        assert_eq!(frozen_changes(&old, &fewer, 3, 3), vec![Frozen::Rounds]);
    }
}
