//! Tournament settings: the choices rules.md's decisions table leaves to the event, with its
//! defaults, and which of them are frozen once a round is published.

use super::entrant::Rank;
use super::event_time::EventZone;
pub use crate::names::NameOrder;
use chrono::NaiveDate;
use rules::clock::{LatenessPolicy, TimeControl};
use rules::RuleSet;
use serde::{Deserialize, Serialize};

macro_rules! code_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $variant:ident = $code:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum $name { $($(#[$vm])* #[serde(rename = $code)] $variant),+ }
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
        FewerWarnings = "fewer_warnings", SosMinus1 = "sos_minus1", Sosos = "sosos", Sb = "sb",
        McMahon = "mcmahon", Sosm = "sosm", Sososm = "sososm", Lots = "lots"
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
    /// How the lateness policy is chosen (Art. 22.1–22.4): the two regimes of the rules, the
    /// event's own limit, or the blitz countdown in absence.
    VenueRegime { Separate = "separate", Same = "same", Custom = "custom", Countdown = "countdown" }
);
code_enum!(
    /// Kind of time control: the four of `rules::clock::TimeControl`.
    TimeKind { ChineseByoYomi = "chinese_byo_yomi", ByoYomi = "byo_yomi", Absolute = "absolute", Canadian = "canadian" }
);
code_enum!(
    /// What a forfeited game (not played on the board: absence, lateness beyond the limit)
    /// contributes to the opponents' scores (对手分, SOS): the opponent's score like a played
    /// game, or the same as a bye (rules.md §15.2: "an event choice").
    ForfeitSos { Opponent = "opponent", AsBye = "as_bye" }
);

code_enum!(
    /// What a game's handicap is computed from (rules.md §3.4 for what it means in play):
    /// nothing (even games, the default), the rank difference, or the McMahon-score
    /// difference (OpenGotha's and pairgoth's "handicap based on MMS"; McMahon only).
    #[derive(Default)]
    HandicapBasis { #[default] None = "none", Rank = "rank", McMahonScore = "mcmahon_score" }
);
code_enum!(
    /// Who holds the stones in a nigiri (rules.md §4.2, Art. 10 of the 2002 rules): the
    /// higher rank, with equal ranks the older player (the default), the other guessing; or
    /// the event variant of §4.2 item 4, where the larger pairing number holds.
    #[derive(Default)]
    NigiriHolder { #[default] Art10 = "art10", LargerNumber = "larger_number" }
);
code_enum!(
    /// How Swiss round 1 orders the field before it is split into halves paired by lot
    /// (rules.md §14.2 and its decisions table): by rank, then rating, equal players by lot
    /// (the default: a Chinese field has ranks and few ratings); by rating, unrated players
    /// after the rated ones by rank; or a pure computer lot (电脑随机抽签), an option only.
    /// The round-1 bye of an odd field goes to the lowest in that order.
    #[derive(Default)]
    Round1Order { #[default] RankRating = "rank_rating", Rating = "rating", Lot = "lot" }
);
code_enum!(
    /// What a drawn game or a double loss does to a knockout match: it is replayed (the
    /// default for a draw), the higher seed advances, a seeded lot decides, or — a double
    /// loss only, the default — both are out and the next opponent advances unplayed.
    KnockoutResolution { Replay = "replay", HigherSeed = "higher_seed", Lot = "lot", BothOut = "both_out" }
);

/// McMahon bar and floor. The initial McMahon score is the rank clamped between them,
/// counted in ranks above the floor, one rank worth one win (`pairing::mcmahon`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct McMahonBands {
    /// Players at or above the bar start together at the top.
    pub bar: Rank,
    /// Players at or below the floor start together at the bottom.
    pub floor: Rank,
}

impl Default for McMahonBands {
    /// The engine's defaults: bar 3d, floor 20k.
    fn default() -> Self {
        McMahonBands { bar: Rank::Dan(3), floor: Rank::Kyu(20) }
    }
}

/// The handicap rule of the pairing (McMahon, or Swiss by rank): stones = the difference
/// minus `reduction`, at most `max` (1 = no-komi game 让先, n ≥ 2 = n stones); komi then
/// follows `rounds::komi_for`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct HandicapSettings {
    pub basis: HandicapBasis,
    pub reduction: u8,
    pub max: u8,
    /// No handicap in a game with a player at or above the McMahon bar.
    pub none_at_bar: bool,
}

impl Default for HandicapSettings {
    /// Even games; when switched on, difference − 1 up to 9 stones (OpenGotha's defaults).
    fn default() -> Self {
        HandicapSettings { basis: HandicapBasis::None, reduction: 1, max: 9, none_at_bar: false }
    }
}

/// Largest handicap reduction and maximum the form accepts.
pub const MAX_HANDICAP: u8 = 9;

/// What a draw and a double loss do in a knockout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct KnockoutSettings {
    pub on_draw: KnockoutResolution,
    pub on_double_loss: KnockoutResolution,
}

impl Default for KnockoutSettings {
    /// The engine's defaults: a draw is replayed, a double loss puts both out.
    fn default() -> Self {
        KnockoutSettings { on_draw: KnockoutResolution::Replay, on_double_loss: KnockoutResolution::BothOut }
    }
}

/// The pairing settings (McMahon bar and floor, handicap, nigiri holder, knockout draws and
/// double losses), stored together (the `pairing_rules` JSON column). Every
/// part has serde defaults, so a stored value from before a part existed still loads.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct PairingRules {
    /// Swiss round 1's order (a stored value from before it existed reads as the default).
    pub round1: Round1Order,
    pub mcmahon: McMahonBands,
    pub handicap: HandicapSettings,
    pub nigiri: NigiriHolder,
    pub knockout: KnockoutSettings,
    /// 同单位回避 as a constraint (rules.md §14.4 made hard): players of one unit do not meet
    /// in rounds 1..=k, weighed like a rematch (`pairing::avoid`); 0 = off. Beside the
    /// same-unit weight ([`SameUnit`]), which stays.
    pub unit_barred: u32,
}

/// Why pairing rules do not fit together (each beside its form field).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PairingProblem {
    /// The McMahon floor is above the bar.
    FloorAboveBar,
    /// Handicaps are given by the Swiss and McMahon pairings only.
    HandicapSystem,
    /// The McMahon-score basis needs the McMahon system.
    ScoreBasisNotMcMahon,
    /// A reduction or maximum above [`MAX_HANDICAP`].
    HandicapRange,
    /// A draw cannot put both players out.
    DrawBothOut,
    /// Same-unit rounds beyond [`MAX_ROUNDS`].
    UnitBarredRange,
    /// Same-unit rounds in a system whose games are not paired by score: a round robin's
    /// schedule and a knockout's bracket are fixed, so only the Swiss and McMahon pairings
    /// can keep a unit apart.
    UnitBarredSystem,
}

impl PairingProblem {
    /// The form field the message goes beside.
    pub fn field(self) -> &'static str {
        match self {
            PairingProblem::FloorAboveBar => "mm_floor",
            PairingProblem::HandicapSystem | PairingProblem::ScoreBasisNotMcMahon => "handicap_basis",
            PairingProblem::HandicapRange => "handicap_max",
            PairingProblem::DrawBothOut => "ko_draw",
            PairingProblem::UnitBarredRange | PairingProblem::UnitBarredSystem => "unit_barred",
        }
    }
}

impl PairingRules {
    /// What is wrong with these rules for an event of `system` (empty: nothing).
    pub fn problems(&self, system: System) -> Vec<PairingProblem> {
        let mut out = Vec::new();
        if self.mcmahon.floor > self.mcmahon.bar {
            out.push(PairingProblem::FloorAboveBar);
        }
        let h = &self.handicap;
        if h.reduction > MAX_HANDICAP || h.max > MAX_HANDICAP {
            out.push(PairingProblem::HandicapRange);
        }
        match (h.basis, system) {
            (HandicapBasis::None, _) | (_, System::McMahon) => {}
            (HandicapBasis::Rank, System::Swiss) => {}
            (HandicapBasis::McMahonScore, System::Swiss) => out.push(PairingProblem::ScoreBasisNotMcMahon),
            _ => out.push(PairingProblem::HandicapSystem),
        }
        if self.knockout.on_draw == KnockoutResolution::BothOut {
            out.push(PairingProblem::DrawBothOut);
        }
        if self.unit_barred > MAX_ROUNDS {
            out.push(PairingProblem::UnitBarredRange);
        } else if self.unit_barred > 0 && !matches!(system, System::Swiss | System::McMahon) {
            out.push(PairingProblem::UnitBarredSystem);
        }
        out
    }
}

impl VenueRegime {
    /// The regime a stored policy shows as: a preset when it is one (whatever its
    /// `protect_reserve`), else custom.
    pub fn of(p: &LatenessPolicy) -> VenueRegime {
        let plain = LatenessPolicy { protect_reserve: false, ..*p };
        if p.absence_countdown {
            VenueRegime::Countdown
        } else if plain == LatenessPolicy::separate_venue() {
            VenueRegime::Separate
        } else if plain == LatenessPolicy::same_venue() {
            VenueRegime::Same
        } else {
            VenueRegime::Custom
        }
    }

    /// The policy of this regime. The presets fix limit, boundary and deduction; a custom
    /// regime takes them from the form (`limit` None: no limit).
    pub fn policy(
        self,
        limit: Option<u32>,
        inclusive: bool,
        double: bool,
        protect_reserve: bool,
    ) -> LatenessPolicy {
        let p = match self {
            VenueRegime::Separate => LatenessPolicy::separate_venue(),
            VenueRegime::Same => LatenessPolicy::same_venue(),
            VenueRegime::Countdown => return LatenessPolicy::blitz_countdown(),
            VenueRegime::Custom => LatenessPolicy {
                limit_minutes: limit,
                inclusive,
                double_deduction: double,
                ..LatenessPolicy::separate_venue()
            },
        };
        LatenessPolicy { protect_reserve, ..p }
    }
}

impl TimeKind {
    pub fn of(tc: &TimeControl) -> TimeKind {
        match tc {
            TimeControl::ChineseByoYomi { .. } => TimeKind::ChineseByoYomi,
            TimeControl::ByoYomi { .. } => TimeKind::ByoYomi,
            TimeControl::Absolute { .. } => TimeKind::Absolute,
            TimeControl::Canadian { .. } => TimeKind::Canadian,
        }
    }
}

/// The default time control: Chinese byo-yomi as in Art. 12.3, 120 minutes of which the last
/// 5 are read (rules.md §6.2: "national events R = 5").
pub fn default_time_control() -> TimeControl {
    TimeControl::chinese(120, 5)
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

/// The tie-break order of rules.md's decisions table for every system but McMahon: 积分 →
/// 对手分 → 累进分 → 直胜 → 胜局数 → fewer warnings → lots.
pub const DEFAULT_TIEBREAKS: [TieBreak; 7] = [
    TieBreak::Score,
    TieBreak::Sos,
    TieBreak::Cumulative,
    TieBreak::Direct,
    TieBreak::Wins,
    TieBreak::FewerWarnings,
    TieBreak::Lots,
];

/// The McMahon order (rules.md's decisions table, "McMahon standings"; OpenGotha's McMahon
/// default): McMahon score → SOS on McMahon scores → SOSOS on McMahon scores → 直胜 → fewer
/// warnings → lots. Never games won first: a weaker player's wins start from a lower score.
pub const MCMAHON_TIEBREAKS: [TieBreak; 6] = [
    TieBreak::McMahon,
    TieBreak::Sosm,
    TieBreak::Sososm,
    TieBreak::Direct,
    TieBreak::FewerWarnings,
    TieBreak::Lots,
];

impl System {
    /// The tie-break order an event of this system starts with.
    pub fn default_tiebreaks(self) -> &'static [TieBreak] {
        match self {
            System::McMahon => &MCMAHON_TIEBREAKS,
            _ => &DEFAULT_TIEBREAKS,
        }
    }
}

/// A pre-filled field that follows another field of the same form (the tie-break order
/// follows the system, the komi the rule set), decided without script from what the page
/// showed: `shown_for` is the driver whose own value the page showed (`None` when it showed
/// the organizer's own value). When the organizer chose another driver and left the field as
/// shown, the new driver's own value; otherwise the value as typed, which is the organizer's.
pub fn follow<D: PartialEq + Copy, T: PartialEq>(
    shown_for: Option<D>,
    driver: D,
    typed: T,
    own: impl Fn(D) -> T,
) -> T {
    match shown_for {
        Some(shown) if shown != driver && typed == own(shown) => own(driver),
        _ => typed,
    }
}

/// Maximum number of rounds a tournament may declare.
pub const MAX_ROUNDS: u32 = 99;
/// Longest name or venue, in characters.
pub const MAX_TEXT: usize = 200;
/// Warnings that make a loss: at most this many (rules.md §3.5; none is "never").
pub const MAX_WARNINGS_TO_LOSS: u8 = 20;
/// Years an event's days may fall in.
pub const YEARS: std::ops::RangeInclusive<i32> = 2000..=2100;

/// What is wrong with a tournament's settings as a whole (the form's parser reads each field;
/// these hold between fields or for any way the settings are made).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SettingsProblem {
    /// Neither a Chinese nor a Latin name.
    NameRequired,
    /// A name or the venue: longer than [`MAX_TEXT`], or with control or invisible characters.
    TextTooLong {
        field: &'static str,
    },
    ControlCharacters {
        field: &'static str,
    },
    /// A day outside [`YEARS`].
    DateOutOfRange {
        field: &'static str,
    },
    EndBeforeStart,
    RoundsOutOfRange,
    NoTieBreak,
    TieBreakTwice,
    WarningsOutOfRange,
    /// The rule set's own check (komi range, board size).
    RuleSet,
}

impl SettingsProblem {
    /// The form field the problem is shown beside.
    pub fn field(&self) -> &'static str {
        match self {
            SettingsProblem::NameRequired => "name_zh",
            SettingsProblem::TextTooLong { field }
            | SettingsProblem::ControlCharacters { field }
            | SettingsProblem::DateOutOfRange { field } => field,
            SettingsProblem::EndBeforeStart => "end_date",
            SettingsProblem::RoundsOutOfRange => "rounds",
            SettingsProblem::NoTieBreak | SettingsProblem::TieBreakTwice => "tiebreaks",
            SettingsProblem::WarningsOutOfRange => "warnings_to_loss",
            SettingsProblem::RuleSet => "komi",
        }
    }
}

/// What is wrong with a name or the venue, if anything: too long, or control or invisible
/// format characters (`domain::text`, the rule of every typed text).
pub fn text_problem(field: &'static str, text: &str) -> Option<SettingsProblem> {
    match super::text::check(text, MAX_TEXT, super::text::Lines::One)? {
        super::text::TextProblem::TooLong { .. } => Some(SettingsProblem::TextTooLong { field }),
        super::text::TextProblem::Invisible => Some(SettingsProblem::ControlCharacters { field }),
    }
}

/// Whether an event's day falls in [`YEARS`].
pub fn in_years(d: NaiveDate) -> bool {
    YEARS.contains(&chrono::Datelike::year(&d))
}

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
    pub lateness: LatenessPolicy,
    pub bye_value: ByeValue,
    pub bye_sos: ByeSos,
    pub same_unit: SameUnit,
    pub time_control: TimeControl,
    /// Forfeited games in the opponents' scores (not frozen: a standings choice).
    pub forfeit_sos: ForfeitSos,
    /// The double-loss lot fallback (rules.md §12).
    pub double_loss: DoubleLoss,
    /// The score of each round a late entrant missed.
    pub late_entry: LateEntry,
    /// McMahon bar and floor, handicap rule, nigiri holder, knockout rules.
    #[serde(default)]
    pub pairing: PairingRules,
    /// How every list ordered by name is ordered: pinyin or stroke count (`domain::names`).
    #[serde(default)]
    pub name_order: NameOrder,
    /// The event's time zone: every time shown or typed is in it, stored in UTC
    /// (`domain::event_time`). New events take the server's zone, which the caller reads and
    /// passes to [`TournamentSettings::defaults`]. No serde default: a value without its zone
    /// would have to guess one; the store reads the column and fills the server's zone when a
    /// row lacks a zone (`db::tournaments::TournamentRow::zone`).
    pub time_zone: EventZone,
}

impl TournamentSettings {
    /// The invariants of a tournament's settings, each problem once (`TeamSettings::validate`
    /// is the same for a team event's own settings).
    pub fn validate(&self) -> Vec<SettingsProblem> {
        let mut problems = Vec::new();
        for (field, text) in
            [("name_zh", &self.name_zh), ("name_latin", &self.name_latin), ("venue", &self.venue)]
        {
            problems.extend(text_problem(field, text));
        }
        if self.name_zh.trim().is_empty() && self.name_latin.trim().is_empty() {
            problems.push(SettingsProblem::NameRequired);
        }
        for (field, d) in [("start_date", self.start_date), ("end_date", self.end_date)] {
            if !in_years(d) {
                problems.push(SettingsProblem::DateOutOfRange { field });
            }
        }
        if in_years(self.start_date) && in_years(self.end_date) && self.end_date < self.start_date {
            problems.push(SettingsProblem::EndBeforeStart);
        }
        if !(1..=MAX_ROUNDS).contains(&self.rounds) {
            problems.push(SettingsProblem::RoundsOutOfRange);
        }
        if self.tiebreaks.is_empty() {
            problems.push(SettingsProblem::NoTieBreak);
        }
        if self.tiebreaks.iter().enumerate().any(|(i, t)| self.tiebreaks[..i].contains(t)) {
            problems.push(SettingsProblem::TieBreakTwice);
        }
        if self.ruleset.warnings_to_loss.is_some_and(|n| !(1..=MAX_WARNINGS_TO_LOSS).contains(&n)) {
            problems.push(SettingsProblem::WarningsOutOfRange);
        }
        if self.ruleset.validate().is_err() {
            problems.push(SettingsProblem::RuleSet);
        }
        problems
    }

    /// The defaults of rules.md's decisions table, for an event on `date` in `time_zone` (a
    /// new event: the server's zone).
    pub fn defaults(date: NaiveDate, time_zone: EventZone) -> TournamentSettings {
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
            lateness: LatenessPolicy::separate_venue(),
            bye_value: ByeValue::Win,
            bye_sos: ByeSos::Zero,
            same_unit: SameUnit::Rounds(1),
            time_control: default_time_control(),
            forfeit_sos: ForfeitSos::Opponent,
            double_loss: DoubleLoss::Lot,
            late_entry: LateEntry::Loss,
            pairing: PairingRules::default(),
            name_order: NameOrder::Pinyin,
            time_zone,
        }
    }

    /// The event's game points in half points (rules.md §15.1 and the decisions table): the
    /// scale's win, draw and loss, a bye worth what `bye_value` says; forfeits score as wins
    /// and losses, a double loss 0 for each side. Pairing, standings and the results CSV all
    /// score from this one value (through [`crate::pairing::PointsScale::game`]).
    pub fn points(&self) -> crate::pairing::PointsScale {
        use crate::pairing::PointsScale as P;
        let mut p = match self.points_scale {
            PointsScale::TwoOneZero => P::TWO_ONE_ZERO,
            PointsScale::OneHalfZero => P::ONE_HALF_ZERO,
            PointsScale::ThreeOneZero => P::THREE_ONE_ZERO,
        };
        p.bye = match self.bye_value {
            ByeValue::Win => p.win,
            ByeValue::Draw => p.draw,
            ByeValue::Loss => p.loss,
        };
        p
    }

    /// A McMahon event whose standings do not start from the McMahon score (an event saved
    /// with the Swiss order before the McMahon order was the default): it ranks by games won,
    /// so a weaker player's wins can put them above a stronger player. The settings page says
    /// so and offers the McMahon order; nothing changes it unasked.
    pub fn mcmahon_ranked_by_games(&self) -> bool {
        self.system == System::McMahon && self.tiebreaks.first() != Some(&TieBreak::McMahon)
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
    /// McMahon bar and floor (they change every McMahon score).
    McMahon,
    /// The handicap rule (games already paired were given its stones).
    Handicap,
    /// Who holds the stones in a nigiri (the procedure the regulations state, Art. 10).
    Nigiri,
    /// The order of Swiss round 1 (the procedure round 1 was paired by, §14.2).
    Round1Order,
    /// Fewer rounds than are already published.
    Rounds,
    /// What a cycle (triple ko, eternal life) is ruled (seed 000 Art. 20): it changes the
    /// result of a game already ruled so.
    Cycle,
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
            Frozen::McMahon => "mm_bar",
            Frozen::Handicap => "handicap_basis",
            Frozen::Nigiri => "nigiri_holder",
            Frozen::Round1Order => "round1_order",
            Frozen::Rounds => "rounds",
            Frozen::Cycle => "cycle",
        }
    }
}

/// Which changes from `old` to `new` are refused when `published` rounds exist, the highest
/// published round being `last_published`. Names, venue, dates, tie-break order, the
/// double-loss fallback and the knockout rules for draws and double losses (they only change
/// the pairing of rounds to come) stay free.
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
    let cycle = |r: &rules::RuleSet| rules::RuleSet { cycle: Default::default(), ..r.clone() };
    if cycle(&old.ruleset) != cycle(&new.ruleset) {
        out.push(Frozen::RuleSet);
    }
    if old.ruleset.cycle != new.ruleset.cycle {
        out.push(Frozen::Cycle);
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
    if old.pairing.mcmahon != new.pairing.mcmahon {
        out.push(Frozen::McMahon);
    }
    if old.pairing.handicap != new.pairing.handicap {
        out.push(Frozen::Handicap);
    }
    if old.pairing.nigiri != new.pairing.nigiri {
        out.push(Frozen::Nigiri);
    }
    if old.pairing.round1 != new.pairing.round1 {
        out.push(Frozen::Round1Order);
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

    /// rules.md decisions, "McMahon standings": a McMahon event starts from MMS → SOSM →
    /// SOSOSM → … → lots, never from games won; every other system from the Swiss order.
    #[test]
    fn the_mcmahon_order_starts_from_the_mcmahon_score() {
        assert_eq!(
            System::McMahon.default_tiebreaks()[..3],
            [TieBreak::McMahon, TieBreak::Sosm, TieBreak::Sososm]
        );
        assert_eq!(System::McMahon.default_tiebreaks().last(), Some(&TieBreak::Lots));
        assert!(!System::McMahon.default_tiebreaks().contains(&TieBreak::Wins));
        for s in [System::Swiss, System::RoundRobin, System::Knockout, System::TeamRelay] {
            assert_eq!(s.default_tiebreaks(), &DEFAULT_TIEBREAKS[..], "{s:?}");
        }
        let mut t = TournamentSettings {
            system: System::McMahon,
            name_zh: "麦克马洪赛".into(),
            ..TournamentSettings::defaults(day(), EventZone::default())
        };
        assert!(t.mcmahon_ranked_by_games(), "the Swiss order in a McMahon event");
        t.tiebreaks = MCMAHON_TIEBREAKS.to_vec();
        assert!(!t.mcmahon_ranked_by_games());
        assert!(t.validate().is_empty(), "{:?}", t.validate());
    }

    /// rules.md decisions, "McMahon standings" and "team relay events": a list or komi the
    /// page showed as its driver's own follows a new driver; one the organizer typed stays.
    #[test]
    fn a_prefilled_value_follows_its_driver_unless_typed() {
        let own = |s: System| s.default_tiebreaks().to_vec();
        let swiss = DEFAULT_TIEBREAKS.to_vec();
        // Shown as Swiss's own, left as shown, McMahon chosen: McMahon's own.
        assert_eq!(
            follow(Some(System::Swiss), System::McMahon, swiss.clone(), own),
            MCMAHON_TIEBREAKS.to_vec()
        );
        // The same system: as typed.
        assert_eq!(follow(Some(System::Swiss), System::Swiss, swiss.clone(), own), swiss);
        // Changed by the organizer: as typed, whatever the system.
        let typed = vec![TieBreak::Score, TieBreak::Sb, TieBreak::Lots];
        assert_eq!(follow(Some(System::Swiss), System::McMahon, typed.clone(), own), typed);
        // The page showed the organizer's own list (`None`): never replaced.
        assert_eq!(follow(None, System::McMahon, swiss.clone(), own), swiss);
        // The komi follows the rule set the same way (seed 003 Art. 12: 3½ for the relay).
        let komi = |p: rules::ruleset::Preset| p.rules().komi_q;
        use rules::ruleset::Preset::{Chinese2002, ChineseTeamRelay};
        assert_eq!(follow(Some(Chinese2002), ChineseTeamRelay, 15, komi), 14);
        assert_eq!(follow(Some(Chinese2002), ChineseTeamRelay, 13, komi), 13, "typed");
        assert_eq!(follow(None, ChineseTeamRelay, 15, komi), 15, "a confirmed komi of the event's own");
    }

    #[test]
    fn defaults_follow_the_decisions_table() {
        let s = TournamentSettings::defaults(day(), EventZone::default());
        assert_eq!(s.ruleset.komi_q, 15);
        assert_eq!(s.ruleset.warnings_to_loss, Some(2));
        assert_eq!(s.points_scale, PointsScale::TwoOneZero);
        assert_eq!(s.bye_value, ByeValue::Win);
        assert_eq!(s.bye_sos, ByeSos::Zero);
        assert_eq!(s.same_unit, SameUnit::Rounds(1));
        assert_eq!(s.lateness, LatenessPolicy::separate_venue());
        assert_eq!(s.lateness.limit_minutes, Some(60));
        assert!(s.lateness.inclusive && s.lateness.double_deduction);
        assert_eq!(VenueRegime::of(&s.lateness), VenueRegime::Separate);
        assert_eq!(s.time_control, TimeControl::ChineseByoYomi { basic_secs: 7200, reserved_minutes: 5 });
        assert_eq!(s.forfeit_sos, ForfeitSos::Opponent);
        assert_eq!(s.tiebreak_codes(), "score,sos,cumulative,direct,wins,fewer_warnings,lots");
        assert_eq!(s.double_loss, DoubleLoss::Lot, "decisions table: the lot fallback");
        assert_eq!(s.late_entry, LateEntry::Loss);
        assert_eq!(s.pairing.round1, Round1Order::RankRating, "§14.2: rank, then rating, halves by lot");
    }

    #[test]
    fn regimes_round_trip_through_policies() {
        for r in VenueRegime::ALL {
            let p = r.policy(Some(30), false, true, false);
            assert_eq!(VenueRegime::of(&p), *r, "{r:?}");
            p.validate().unwrap();
        }
        let same = VenueRegime::Same.policy(None, false, false, true);
        assert_eq!(same.limit_minutes, Some(15), "a preset ignores the custom fields");
        assert!(same.protect_reserve);
        assert_eq!(VenueRegime::of(&same), VenueRegime::Same);
        assert_eq!(VenueRegime::Custom.policy(None, true, true, false).limit_minutes, None);
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
        let old = TournamentSettings::defaults(day(), EventZone::default());
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

    /// Seed 000 Art. 20: what a cycle is ruled changes results already ruled, so it is fixed
    /// once a round is published, beside its own field; before, it is free.
    #[test]
    fn the_cycle_outcome_freezes_with_a_published_round() {
        let old = TournamentSettings::defaults(day(), EventZone::default());
        assert_eq!(
            old.ruleset.cycle,
            rules::ruleset::CycleOutcome::NoResult,
            "the decisions table's default"
        );
        let mut new = old.clone();
        new.ruleset.cycle = rules::ruleset::CycleOutcome::Draw;
        assert_eq!(frozen_changes(&old, &new, 1, 1), vec![Frozen::Cycle]);
        assert_eq!(Frozen::Cycle.field(), "cycle");
        assert!(frozen_changes(&old, &new, 0, 0).is_empty());
    }

    #[test]
    fn published_rounds_freeze_bar_floor_handicap_and_nigiri_not_knockout_rules() {
        let old = TournamentSettings {
            system: System::McMahon,
            ..TournamentSettings::defaults(day(), EventZone::default())
        };
        let mut new = old.clone();
        new.pairing.knockout.on_draw = KnockoutResolution::Lot;
        assert!(frozen_changes(&old, &new, 1, 1).is_empty(), "knockout rules stay free");
        new.pairing.mcmahon.floor = Rank::Kyu(10);
        new.pairing.handicap.basis = HandicapBasis::Rank;
        new.pairing.nigiri = NigiriHolder::LargerNumber;
        new.pairing.round1 = Round1Order::Lot;
        assert_eq!(
            frozen_changes(&old, &new, 1, 1),
            vec![Frozen::McMahon, Frozen::Handicap, Frozen::Nigiri, Frozen::Round1Order]
        );
        assert!(frozen_changes(&old, &new, 0, 0).is_empty());
        let mut max = old.clone();
        max.pairing.handicap.max = 4;
        assert_eq!(frozen_changes(&old, &max, 2, 2), vec![Frozen::Handicap]);
    }

    #[test]
    fn pairing_rules_load_from_older_json_with_defaults() {
        let rules: PairingRules = serde_json::from_str("{}").unwrap();
        assert_eq!(rules, PairingRules::default());
        let partial: PairingRules =
            serde_json::from_str(r#"{"mcmahon":{"bar":"2d"},"handicap":{"basis":"rank"}}"#).unwrap();
        assert_eq!(partial.mcmahon, McMahonBands { bar: Rank::Dan(2), floor: Rank::Kyu(20) });
        assert_eq!(partial.handicap, HandicapSettings { basis: HandicapBasis::Rank, ..Default::default() });
        assert_eq!(partial.nigiri, NigiriHolder::Art10);
        assert_eq!(partial.round1, Round1Order::RankRating, "stored before the setting: the default");
        let lot: PairingRules = serde_json::from_str(r#"{"round1":"lot"}"#).unwrap();
        assert_eq!(lot.round1, Round1Order::Lot);
        // A whole settings value stored before the pairing rules existed still loads.
        let mut v = serde_json::to_value(TournamentSettings::defaults(day(), EventZone::default())).unwrap();
        v.as_object_mut().unwrap().remove("pairing");
        let back: TournamentSettings = serde_json::from_value(v).unwrap();
        assert_eq!(back, TournamentSettings::defaults(day(), EventZone::default()));
        let round_trip: PairingRules =
            serde_json::from_str(&serde_json::to_string(&partial).unwrap()).unwrap();
        assert_eq!(round_trip, partial);
    }

    /// Times are shown at the venue: the event's zone travels with its settings, and a value
    /// without one is refused rather than given a zone this crate would have to guess (the
    /// store fills the server's zone, `db::tournaments::TournamentRow::zone`).
    #[test]
    fn settings_json_carries_the_zone() {
        let s = TournamentSettings::defaults(day(), EventZone::SHANGHAI);
        let mut v = serde_json::to_value(&s).unwrap();
        assert_eq!(v["time_zone"], "Asia/Shanghai");
        assert_eq!(serde_json::from_value::<TournamentSettings>(v.clone()).unwrap(), s);
        v.as_object_mut().unwrap().remove("time_zone");
        assert!(serde_json::from_value::<TournamentSettings>(v).is_err());
    }

    #[test]
    fn pairing_rules_are_checked_against_the_system() {
        let ok = PairingRules::default();
        for sys in System::ALL {
            assert!(ok.problems(*sys).is_empty(), "the defaults fit {sys:?}");
        }
        let mut r = ok;
        r.mcmahon = McMahonBands { bar: Rank::Kyu(5), floor: Rank::Kyu(2) };
        assert_eq!(r.problems(System::McMahon), vec![PairingProblem::FloorAboveBar]);
        r.mcmahon = McMahonBands { bar: Rank::Kyu(5), floor: Rank::Kyu(5) };
        assert!(r.problems(System::McMahon).is_empty(), "floor = bar is allowed");
        r.handicap.basis = HandicapBasis::McMahonScore;
        assert!(r.problems(System::McMahon).is_empty());
        assert_eq!(r.problems(System::Swiss), vec![PairingProblem::ScoreBasisNotMcMahon]);
        r.handicap.basis = HandicapBasis::Rank;
        assert!(r.problems(System::Swiss).is_empty(), "Swiss may give handicaps by rank");
        assert_eq!(r.problems(System::RoundRobin), vec![PairingProblem::HandicapSystem]);
        r.handicap.max = 10;
        assert_eq!(r.problems(System::McMahon), vec![PairingProblem::HandicapRange]);
        let mut k = ok;
        k.knockout.on_draw = KnockoutResolution::BothOut;
        assert_eq!(k.problems(System::Knockout), vec![PairingProblem::DrawBothOut]);
        assert_eq!(PairingProblem::FloorAboveBar.field(), "mm_floor");
    }

    /// Rules.md §14.4 同单位回避 made hard for rounds 1..k: off by default, at most the
    /// rounds an event may have, and only where the pairing is by score (Swiss, McMahon; a
    /// round robin's schedule and a knockout's bracket are fixed).
    #[test]
    fn unit_barred_rounds_are_checked() {
        assert_eq!(PairingRules::default().unit_barred, 0);
        let r = PairingRules { unit_barred: 3, ..PairingRules::default() };
        assert!(r.problems(System::Swiss).is_empty() && r.problems(System::McMahon).is_empty());
        assert_eq!(r.problems(System::RoundRobin), vec![PairingProblem::UnitBarredSystem]);
        assert_eq!(r.problems(System::Knockout), vec![PairingProblem::UnitBarredSystem]);
        let far = PairingRules { unit_barred: MAX_ROUNDS + 1, ..PairingRules::default() };
        assert_eq!(far.problems(System::Swiss), vec![PairingProblem::UnitBarredRange]);
        assert_eq!(PairingProblem::UnitBarredSystem.field(), "unit_barred");
        // A value stored before the setting existed reads as off.
        let old: PairingRules =
            serde_json::from_str(r#"{"nigiri":"art10"}"#).or_else(|_| serde_json::from_str("{}")).unwrap();
        assert_eq!(old.unit_barred, 0);
    }
}
