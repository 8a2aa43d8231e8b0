//! What an OpenGotha file says about the event itself, brought into Tengen's settings, and
//! what has no home in Tengen (listed in the import preview as not imported).
//!
//! [`event_settings`] starts from the settings the event would have without the file (a new
//! event's defaults, or the replaced event's own settings) and overwrites what the file
//! states: names, venue, dates, number of rounds, system (McMahon when the main placement
//! criterion is MMS, else Swiss: OpenGotha's `mainCriterion`), komi (points × 2 = quarter
//! stones), time control, McMahon bar and floor, what a bye scores, and the handicap rule.
//! Every value goes through the same checks as the settings form (`RuleSet::validate`,
//! `TimeControl::validate`, `PairingRules::problems`, the form's text and date limits); one that
//! fails them is not imported and listed. Pure: values in, values out.

use super::read::{OgHandicapParams, OgMainCriterion, OgRegistration, OgTimeSystem, OgTournament};
use crate::domain::entrant::{has_cjk, Rank};
use crate::domain::settings::{
    self, ByeValue, HandicapBasis, HandicapSettings, PairingProblem, System, TieBreak, TournamentSettings,
    MAX_HANDICAP, MAX_ROUNDS,
};
use chrono::NaiveDate;
use rules::clock::TimeControl;

/// Something in the file that Tengen does not take over, with what it said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotImported {
    /// An attribute whose value cannot be read: (element.attribute, value).
    Unreadable {
        attribute: String,
        value: String,
    },
    /// A name or venue longer than the form allows, or with control characters.
    Text {
        attribute: &'static str,
    },
    /// Dates outside 2000–2100, or an end before the beginning.
    Dates {
        begin: NaiveDate,
        end: NaiveDate,
    },
    Director(String),
    /// Tengen plays on 19×19.
    BoardSize(u32),
    /// OpenGotha's categories (groups by rank) have no counterpart.
    Categories(u32),
    /// Komi (quarter stones) outside what the rule set allows.
    Komi(i32),
    /// Fischer increment: Tengen's time controls have none.
    Fischer {
        basic_minutes: u32,
        seconds: u32,
    },
    /// OpenGotha's standard byo-yomi states one period's length only: neither how many
    /// periods there are nor a Chinese reserve (保留N分钟读秒, Art. 12.3 of the 2002 rules) can
    /// be in the file, so it is read as one period of `seconds`.
    ByoYomiPeriods {
        seconds: u32,
    },
    /// A time control that Tengen's checks refuse (e.g. a basic time of 0 with sudden death).
    TimeControl {
        basic_minutes: u32,
    },
    /// A McMahon floor above the bar.
    McMahonBands {
        bar: Rank,
        floor: Rank,
    },
    /// A bye worth more than a win (in half points).
    ByeValue(u8),
    /// A round a player is absent from scores this many half points in OpenGotha; in Tengen
    /// an absent player scores nothing for that round.
    AbsentScore(u8),
    /// OpenGotha counts a not played game as half a point in SOS.
    NotPlayedAsHalf,
    /// Handicaps by McMahon score in a Swiss event.
    HandicapBasis,
    /// OpenGotha's "handicap increased by 1" (a negative correction).
    HandicapIncrease,
    /// A ceiling above 9 stones.
    HandicapCeiling(u8),
    /// Ranks above the threshold count as the threshold for handicaps: Tengen has no such cap.
    HandicapThreshold(Rank),
    /// Placement criteria with no Tengen tie-break (SOSW-2, CUSSM, categories, ratings…).
    Placement(Vec<String>),
    /// OpenGotha's pairing weights: Tengen pairs by its own rules.
    PairingWeights,
    /// Players with a hand-corrected starting McMahon score.
    SmmsCorrections(usize),
    /// Players only pre-registered in OpenGotha; imported as registered.
    Preregistered(usize),
}

/// The settings an import gives the event, and what the file says that they do not hold.
pub fn event_settings(t: &OgTournament, base: &TournamentSettings) -> (TournamentSettings, Vec<NotImported>) {
    let p = &t.params;
    let mut s = base.clone();
    let mut out: Vec<NotImported> = p
        .unreadable
        .iter()
        .map(|(attribute, value)| NotImported::Unreadable {
            attribute: attribute.clone(),
            value: value.clone(),
        })
        .collect();
    if let Some(name) = t.name.clone().or_else(|| t.short_name.clone()) {
        if fits_form(&name) {
            (s.name_zh, s.name_latin) =
                if has_cjk(&name) { (name, String::new()) } else { (String::new(), name) };
        } else {
            out.push(NotImported::Text { attribute: "name" });
        }
    }
    if let Some(venue) = p.location.clone() {
        if fits_form(&venue) {
            s.venue = venue;
        } else {
            out.push(NotImported::Text { attribute: "location" });
        }
    }
    dates(p.begin, p.end, &mut s, &mut out);
    if let Some(r) = t.rounds.filter(|r| (1..=MAX_ROUNDS).contains(r)) {
        s.rounds = r;
    }
    s.system = match p.main_criterion() {
        Some(OgMainCriterion::McMahonScore) => System::McMahon,
        Some(OgMainCriterion::Wins) => System::Swiss,
        // No placement criteria: an OpenGotha event is Swiss or McMahon, nothing else.
        None if matches!(base.system, System::Swiss | System::McMahon) => base.system,
        None => System::Swiss,
    };
    if let Some(q) = p.komi_q {
        let mut ruleset = s.ruleset.clone();
        ruleset.komi_q = q;
        if ruleset.validate().is_ok() {
            s.ruleset = ruleset;
        } else {
            out.push(NotImported::Komi(q));
        }
    }
    time_control(p.basic_minutes, p.time, &mut s, &mut out);
    mcmahon(t, &mut s, &mut out);
    bye_and_absence(t, &mut s, &mut out);
    if let Some(h) = p.handicap {
        handicap(h, &mut s, &mut out);
    }
    if let Some(d) = p.director.clone() {
        out.push(NotImported::Director(d));
    }
    if let Some(size) = p.size.filter(|n| *n != 19) {
        out.push(NotImported::BoardSize(size));
    }
    if let Some(n) = p.categories.filter(|n| *n > 1) {
        out.push(NotImported::Categories(n));
    }
    if p.count_not_played_as_half == Some(true) {
        out.push(NotImported::NotPlayedAsHalf);
    }
    placement(&p.placement, base, &mut s, &mut out);
    if p.pairing_weights {
        out.push(NotImported::PairingWeights);
    }
    if p.smms_corrected > 0 {
        out.push(NotImported::SmmsCorrections(p.smms_corrected));
    }
    let pre = t.players.iter().filter(|pl| pl.registration == OgRegistration::Preliminary).count();
    if pre > 0 {
        out.push(NotImported::Preregistered(pre));
    }
    (s, out)
}

/// OpenGotha's placement criteria (`PlacementCriterion name`, its long names) that are
/// Tengen tie-breaks, both ways: the import reads them, the export writes them.
pub const OG_CRITERIA: [(&str, TieBreak); 10] = [
    ("NBW", TieBreak::Score),
    ("MMS", TieBreak::McMahon),
    ("SOSW", TieBreak::Sos),
    ("SOSW-1", TieBreak::SosMinus1),
    ("SOSOSW", TieBreak::Sosos),
    ("CUSSW", TieBreak::Cumulative),
    ("SODOSW", TieBreak::Sb),
    ("SOSM", TieBreak::Sosm),
    ("SOSOSM", TieBreak::Sososm),
    ("DC", TieBreak::Direct),
];

/// OpenGotha's name of a tie-break, if it has one.
pub fn og_criterion(t: TieBreak) -> Option<&'static str> {
    OG_CRITERIA.iter().find(|(_, tb)| *tb == t).map(|(name, _)| *name)
}

/// The placement criteria an export writes for an event's order: its tie-breaks that
/// OpenGotha has, at most its six, with the system's main criterion (MMS for McMahon, NBW
/// otherwise) put first when the order would make OpenGotha take the other system.
pub fn og_placement(system: System, tiebreaks: &[TieBreak]) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = tiebreaks.iter().filter_map(|t| og_criterion(*t)).collect();
    let main = if system == System::McMahon { "MMS" } else { "NBW" };
    if names.iter().find(|n| ["MMS", "NBW"].contains(n)) != Some(&main) {
        names.retain(|n| *n != main);
        names.insert(0, main);
    }
    names.truncate(6);
    names
}

/// The event's tie-break order from the file's placement criteria (MMS, SOSM, SOSOSM for
/// OpenGotha's McMahon events: rules.md decisions, "McMahon standings"), then lots; the
/// criteria Tengen has no counterpart for are listed. A file without criteria leaves the
/// order as it was, following the system when it was the old system's own.
fn placement(
    criteria: &[String],
    base: &TournamentSettings,
    s: &mut TournamentSettings,
    out: &mut Vec<NotImported>,
) {
    let mut order: Vec<TieBreak> = Vec::new();
    let mut unmapped = Vec::new();
    for c in criteria {
        match OG_CRITERIA.iter().find(|(name, _)| name == c) {
            Some((_, t)) if !order.contains(t) => order.push(*t),
            Some(_) => {}
            None => unmapped.push(c.clone()),
        }
    }
    if order.is_empty() {
        let own = |sys: System| sys.default_tiebreaks().to_vec();
        s.tiebreaks = settings::follow(Some(base.system), s.system, base.tiebreaks.clone(), own);
    } else {
        order.push(TieBreak::Lots);
        order.dedup();
        s.tiebreaks = order;
    }
    if !unmapped.is_empty() {
        out.push(NotImported::Placement(unmapped));
    }
}

/// What the settings accept as a name or venue (`TournamentSettings::validate`).
fn fits_form(text: &str) -> bool {
    settings::text_problem("name_zh", text).is_none()
}

/// The dates, when both fit the form's range (2000–2100) and the end is not before the start;
/// a file with only one date gives it to both.
fn dates(
    begin: Option<NaiveDate>,
    end: Option<NaiveDate>,
    s: &mut TournamentSettings,
    out: &mut Vec<NotImported>,
) {
    let (begin, end) = match (begin, end) {
        (Some(b), Some(e)) => (b, e),
        (Some(d), None) | (None, Some(d)) => (d, d),
        (None, None) => return,
    };
    if settings::in_years(begin) && settings::in_years(end) && begin <= end {
        s.start_date = begin;
        s.end_date = end;
    } else {
        out.push(NotImported::Dates { begin, end });
    }
}

/// OpenGotha's time systems in the rules crate's terms: sudden death is absolute time
/// (包干, Art. 12.4), standard byo-yomi one period of its seconds (listed: the file cannot say
/// more), Canadian its moves per period.
fn time_control(
    basic_minutes: Option<u32>,
    system: Option<OgTimeSystem>,
    s: &mut TournamentSettings,
    out: &mut Vec<NotImported>,
) {
    let (Some(minutes), Some(system)) = (basic_minutes, system) else { return };
    let basic_secs = minutes.saturating_mul(60);
    let tc = match system {
        OgTimeSystem::SuddenDeath => TimeControl::Absolute { basic_secs },
        OgTimeSystem::StdByoYomi { seconds } => {
            out.push(NotImported::ByoYomiPeriods { seconds });
            TimeControl::ByoYomi { basic_secs, periods: 1, period_secs: seconds }
        }
        OgTimeSystem::Canadian { moves, seconds } => {
            TimeControl::Canadian { basic_secs, moves_per_period: moves, period_secs: seconds }
        }
        OgTimeSystem::Fischer { seconds } => {
            out.push(NotImported::Fischer { basic_minutes: minutes, seconds });
            return;
        }
    };
    if tc.validate().is_ok() {
        s.time_control = tc;
    } else {
        out.push(NotImported::TimeControl { basic_minutes: minutes });
    }
}

/// Bar and floor of a McMahon event (a Swiss file's are "not relevant", OpenGotha says).
fn mcmahon(t: &OgTournament, s: &mut TournamentSettings, out: &mut Vec<NotImported>) {
    if s.system != System::McMahon {
        return;
    }
    let p = &t.params;
    let mut bands = s.pairing.mcmahon;
    if let Some(bar) = p.mm_bar {
        bands.bar = bar;
    }
    if let Some(floor) = p.mm_floor {
        bands.floor = floor;
    }
    if bands.floor > bands.bar {
        out.push(NotImported::McMahonBands { bar: bands.bar, floor: bands.floor });
    } else {
        s.pairing.mcmahon = bands;
    }
}

/// The bye value and the absence score of the main system, in half points (2 = a win).
fn bye_and_absence(t: &OgTournament, s: &mut TournamentSettings, out: &mut Vec<NotImported>) {
    let p = &t.params;
    let (bye, absent) = match s.system {
        System::McMahon => (p.mms_bye, p.mms_absent),
        _ => (p.nbw_bye, p.nbw_absent),
    };
    match bye {
        Some(2) => s.bye_value = ByeValue::Win,
        Some(1) => s.bye_value = ByeValue::Draw,
        Some(0) => s.bye_value = ByeValue::Loss,
        Some(h) => out.push(NotImported::ByeValue(h)),
        None => {}
    }
    if let Some(h) = absent.filter(|h| *h != 0) {
        out.push(NotImported::AbsentScore(h));
    }
}

/// OpenGotha's handicap rule as Tengen's: a ceiling of 0 is even games; otherwise by rank or
/// (McMahon only) by McMahon score, the correction as the reduction, the ceiling as the
/// maximum. A threshold below 9d caps ranks, which Tengen's rule cannot say.
fn handicap(h: OgHandicapParams, s: &mut TournamentSettings, out: &mut Vec<NotImported>) {
    if h.ceiling == 0 {
        s.pairing.handicap = HandicapSettings { basis: HandicapBasis::None, ..s.pairing.handicap };
        return;
    }
    let basis = match (h.based_on_mms, s.system) {
        (true, System::McMahon) => HandicapBasis::McMahonScore,
        (false, _) => HandicapBasis::Rank,
        (true, _) => {
            out.push(NotImported::HandicapBasis);
            return;
        }
    };
    if h.ceiling > MAX_HANDICAP {
        out.push(NotImported::HandicapCeiling(h.ceiling));
        return;
    }
    let reduction = match u8::try_from(h.correction) {
        Ok(r) if r <= MAX_HANDICAP => r,
        _ => {
            out.push(NotImported::HandicapIncrease);
            0
        }
    };
    let rule = HandicapSettings { basis, reduction, max: h.ceiling, none_at_bar: false };
    let mut pairing = s.pairing;
    pairing.handicap = rule;
    if pairing.problems(s.system).iter().any(|p| *p != PairingProblem::FloorAboveBar) {
        out.push(NotImported::HandicapBasis);
        return;
    }
    s.pairing = pairing;
    if h.threshold < Rank::Dan(9) {
        out.push(NotImported::HandicapThreshold(h.threshold));
    }
}

#[cfg(test)]
mod tests {
    use super::super::read::parse_opengotha_on;
    use super::super::read::tests::sample;
    use super::*;
    use crate::domain::settings::{McMahonBands, DEFAULT_TIEBREAKS};

    const TODAY: NaiveDate = match NaiveDate::from_ymd_opt(2026, 6, 1) {
        Some(d) => d,
        None => panic!(),
    };

    fn base() -> TournamentSettings {
        TournamentSettings::defaults(TODAY, crate::machine::zone())
    }

    fn from(file: &str) -> (TournamentSettings, Vec<NotImported>) {
        let t = parse_opengotha_on(&sample(file), TODAY).unwrap();
        event_settings(&t, &base())
    }

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }

    /// TournoiChinois.xml: McMahon (MMS first), bar 4D, floor 20K, komi 7.5 points, 60 minutes
    /// and 30 s standard byo-yomi, handicap by MMS − 1 up to 9 with a 1D threshold.
    #[test]
    fn tournoi_chinois_brings_its_parameters() {
        let (s, not) = from("TournoiChinois.xml");
        assert_eq!((s.name_zh.as_str(), s.name_latin.as_str()), ("", "Tournoi chinois"));
        assert_eq!(s.venue, "Location name");
        assert_eq!((s.start_date, s.end_date), (d(2020, 9, 15), d(2020, 9, 15)));
        assert_eq!(s.rounds, 5);
        assert_eq!(s.system, System::McMahon);
        assert_eq!(s.ruleset.komi_q, 15, "7.5 points = 3¾ stones");
        assert_eq!(s.time_control, TimeControl::ByoYomi { basic_secs: 3600, periods: 1, period_secs: 30 });
        assert!(not.contains(&NotImported::ByoYomiPeriods { seconds: 30 }), "{not:?}");
        assert_eq!(s.pairing.mcmahon, McMahonBands { bar: Rank::Dan(4), floor: Rank::Kyu(20) });
        assert_eq!(s.bye_value, ByeValue::Win, "genMMS2ValueBye = 2");
        assert_eq!(
            s.pairing.handicap,
            HandicapSettings { basis: HandicapBasis::McMahonScore, reduction: 1, max: 9, none_at_bar: false }
        );
        assert!(not.contains(&NotImported::Director("Director name".into())), "{not:?}");
        assert!(not.contains(&NotImported::HandicapThreshold(Rank::Dan(1))), "{not:?}");
        assert!(not.contains(&NotImported::AbsentScore(1)), "genMMS2ValueAbsent = 1: {not:?}");
        // rules.md decisions, "McMahon standings": OpenGotha's MMS, SOSM, SOSOSM come across.
        assert_eq!(s.tiebreaks, [TieBreak::McMahon, TieBreak::Sosm, TieBreak::Sososm, TieBreak::Lots]);
        assert!(!not.iter().any(|n| matches!(n, NotImported::Placement(_))), "{not:?}");
        assert!(not.contains(&NotImported::PairingWeights));
        // What Tengen has no say in stays as it was.
        assert_eq!(s.lateness, base().lateness);
        assert_eq!(s.points_scale, base().points_scale);
    }

    #[test]
    fn simple_swiss_is_swiss_with_even_games_over_two_dates() {
        let (s, not) = from("simpleswiss.xml");
        assert_eq!(s.system, System::Swiss);
        assert_eq!(s.rounds, 7);
        assert_eq!(s.name_latin, "Championnat des Vieux Dragons");
        assert_eq!(s.venue, "Internet");
        assert_eq!((s.start_date, s.end_date), (d(2020, 12, 22), d(2021, 1, 7)));
        assert_eq!(s.pairing.handicap.basis, HandicapBasis::None, "hdCeiling 0");
        assert_eq!(s.pairing.mcmahon, base().pairing.mcmahon, "a Swiss file's bar is not relevant");
        assert!(!not.iter().any(|n| matches!(n, NotImported::HandicapThreshold(_))), "{not:?}");
        assert!(not.contains(&NotImported::Director("François Mizessyn".into())));
    }

    /// rules.md decisions, "McMahon standings": a McMahon file ranks by MMS → SOSM → SOSOSM →
    /// lots, never by games won; a Swiss file by its own NBW order.
    #[test]
    fn simple_mcmahon_and_veterans() {
        let (s, _) = from("simplemm.xml");
        assert_eq!((s.system, s.rounds, s.ruleset.komi_q), (System::McMahon, 5, 15));
        assert_eq!(s.tiebreaks, [TieBreak::McMahon, TieBreak::Sosm, TieBreak::Sososm, TieBreak::Lots]);
        assert!(!s.mcmahon_ranked_by_games());
        assert_eq!(s.start_date, d(2023, 10, 31));
        let (s, not) = from("veterans-2021.xml");
        assert_eq!(s.system, System::Swiss, "NBW first");
        assert_eq!(s.rounds, 5);
        assert_eq!(s.pairing.handicap.basis, HandicapBasis::None);
        assert!(!not.iter().any(|n| matches!(n, NotImported::AbsentScore(_))), "NBW absent = 0: {not:?}");
    }

    /// rules.md decisions, "McMahon standings": without placement criteria the event's order
    /// stays, following the system when it was the old system's own; every criterion Tengen
    /// has written itself reads back as the same tie-break.
    #[test]
    fn placement_criteria_map_both_ways() {
        for (name, t) in OG_CRITERIA {
            assert_eq!(og_criterion(t), Some(name));
        }
        assert_eq!(og_criterion(TieBreak::Lots), None);
        assert_eq!(
            og_placement(System::McMahon, &settings::MCMAHON_TIEBREAKS),
            ["MMS", "SOSM", "SOSOSM", "DC"]
        );
        assert_eq!(og_placement(System::Swiss, &DEFAULT_TIEBREAKS), ["NBW", "SOSW", "CUSSW", "DC"]);
        // A McMahon event still on the Swiss order stays McMahon in OpenGotha.
        assert_eq!(og_placement(System::McMahon, &DEFAULT_TIEBREAKS), ["MMS", "NBW", "SOSW", "CUSSW", "DC"]);
        assert_eq!(og_placement(System::Swiss, &[TieBreak::Lots]), ["NBW"]);
        let mut s = base();
        let mut out = Vec::new();
        let mm = TournamentSettings { system: System::McMahon, ..base() };
        placement(&[], &base(), &mut s, &mut out);
        assert_eq!(s.tiebreaks, DEFAULT_TIEBREAKS);
        let mut t = mm.clone();
        placement(&[], &base(), &mut t, &mut out);
        assert_eq!(t.tiebreaks, settings::MCMAHON_TIEBREAKS, "the Swiss default follows to McMahon's");
        let own = TournamentSettings { tiebreaks: vec![TieBreak::Score, TieBreak::Sb], ..base() };
        let mut t = mm;
        placement(&[], &own, &mut t, &mut out);
        assert_eq!(t.tiebreaks, own.tiebreaks, "the organizer's own order stays");
        assert!(out.is_empty());
    }

    fn with_general(attrs: &str, handicap: &str, placement: &str) -> OgTournament {
        let xml = format!(
            r#"<Tournament dataVersion="201"><Players>
<Player name="Wang" firstName="Wei" rank="3D" registeringStatus="PRE" smmsCorrection="1"/>
</Players><TournamentParameterSet><GeneralParameterSet {attrs}/>{handicap}
<PlacementParameterSet><PlacementCriteria>{placement}</PlacementCriteria></PlacementParameterSet>
</TournamentParameterSet>
<TeamTournamentParameterSet><TeamPlacementParameterSet><PlacementCriteria><PlacementCriterion name="TEAMP" number="1"/></PlacementCriteria></TeamPlacementParameterSet></TeamTournamentParameterSet></Tournament>"#
        );
        parse_opengotha_on(xml.as_bytes(), TODAY).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn what_has_no_home_is_listed_and_the_rest_stays() {
        let t = with_general(
            r#"name="天元杯" basicTime="90" complementaryTimeSystem="FISCHER" fischerTime="20" komi="6.25"
               size="13" numberOfCategories="3" beginDate="2026-05-03" endDate="2026-05-01" numberOfRounds="6"
               genCountNotPlayedGamesAsHalfPoint="true" genNBW2ValueBye="1""#,
            r#"<HandicapParameterSet hdBasedOnMMS="true" hdCeiling="9" hdCorrection="-1" hdNoHdRankThreshold="9D"/>"#,
            r#"<PlacementCriterion name="NBW" number="1"/><PlacementCriterion name="SOSW-2" number="2"/><PlacementCriterion name="NULL" number="3"/>"#,
        );
        let (s, not) = event_settings(&t, &base());
        assert_eq!(s.tiebreaks, [TieBreak::Score, TieBreak::Lots], "NBW is the score; SOSW-2 has no home");
        assert_eq!((s.name_zh.as_str(), s.name_latin.as_str()), ("天元杯", ""));
        assert_eq!(s.rounds, 6);
        assert_eq!(s.system, System::Swiss);
        assert_eq!(s.bye_value, ByeValue::Draw);
        assert_eq!(s.time_control, base().time_control, "Fischer has no home");
        assert_eq!(s.ruleset.komi_q, base().ruleset.komi_q, "6.25 points is not a number of half points");
        assert_eq!((s.start_date, s.end_date), (TODAY, TODAY), "the end before the start");
        assert_eq!(s.pairing.handicap.basis, HandicapBasis::None, "MMS handicaps in a Swiss event");
        for n in [
            NotImported::Fischer { basic_minutes: 90, seconds: 20 },
            NotImported::Unreadable { attribute: "GeneralParameterSet.komi".into(), value: "6.25".into() },
            NotImported::BoardSize(13),
            NotImported::Categories(3),
            NotImported::Dates { begin: d(2026, 5, 3), end: d(2026, 5, 1) },
            NotImported::NotPlayedAsHalf,
            NotImported::HandicapBasis,
            NotImported::Placement(vec!["SOSW-2".into()]),
            NotImported::SmmsCorrections(1),
            NotImported::Preregistered(1),
        ] {
            assert!(not.contains(&n), "{n:?} in {not:?}");
        }
        assert!(!not.contains(&NotImported::PairingWeights), "no PairingParameterSet in this file");
    }

    #[test]
    fn handicap_rules_by_rank_and_the_increase() {
        let t = with_general(
            r#"name="x" genMMBar="2D" genMMFloor="15K" komi="0.5" basicTime="45" complementaryTimeSystem="CANBYOYOMI" nbMovesCanTime="15" canByoYomiTime="300""#,
            r#"<HandicapParameterSet hdBasedOnMMS="false" hdCeiling="4" hdCorrection="-1" hdNoHdRankThreshold="9D"/>"#,
            r#"<PlacementCriterion name="MMS" number="1"/>"#,
        );
        let (s, not) = event_settings(&t, &base());
        assert_eq!(s.system, System::McMahon);
        assert_eq!(s.pairing.mcmahon, McMahonBands { bar: Rank::Dan(2), floor: Rank::Kyu(15) });
        assert_eq!(s.ruleset.komi_q, 1);
        assert_eq!(
            s.time_control,
            TimeControl::Canadian { basic_secs: 2700, moves_per_period: 15, period_secs: 300 }
        );
        assert_eq!(
            s.pairing.handicap,
            HandicapSettings { basis: HandicapBasis::Rank, reduction: 0, max: 4, none_at_bar: false }
        );
        assert!(not.contains(&NotImported::HandicapIncrease));
        assert!(!not.iter().any(|n| matches!(n, NotImported::HandicapThreshold(_))), "9D caps nothing");
        // A floor above the bar keeps the event's bands.
        let t = with_general(
            r#"name="x" genMMBar="10K" genMMFloor="5K""#,
            "",
            r#"<PlacementCriterion name="MMS" number="1"/>"#,
        );
        let (s, not) = event_settings(&t, &base());
        assert_eq!(s.pairing.mcmahon, base().pairing.mcmahon);
        assert!(not.contains(&NotImported::McMahonBands { bar: Rank::Kyu(10), floor: Rank::Kyu(5) }));
    }

    #[test]
    fn a_file_without_parameters_keeps_the_base() {
        let t = parse_opengotha_on(
            br#"<Tournament><Players><Player name="Li" firstName="Lei" rank="1K"/></Players></Tournament>"#,
            TODAY,
        )
        .unwrap();
        let mut b = base();
        b.name_zh = "原名".into();
        b.system = System::McMahon;
        let (s, not) = event_settings(&t, &b);
        assert_eq!(s, b);
        assert!(not.is_empty(), "{not:?}");
        b.system = System::RoundRobin;
        assert_eq!(event_settings(&t, &b).0.system, System::Swiss, "an OpenGotha event is Swiss or McMahon");
    }
}
