//! Tournaments: the list, creation, settings (locked by published rounds), staff, deletion
//! (after an automatic backup).

use super::ctx::{id, Ctx};
use super::error::AppError;
use super::form::Form;
use super::i18n::Lang;
use super::views::pages::*;
use super::views::text::{is_team_event, komi_conversion, quarters_text};
use super::views::tournament::tournament_page;
use super::write::{Office, Organizer, Write};
use crate::db::tournaments::{self as tdb, UpdateError};
use crate::db::users::Role;
use crate::db::{backup, entrants as edb, users, DbError};
use crate::domain::entrant::Rank;
use crate::domain::event_time::{date_text, parse_date, EventZone};
use crate::domain::settings::*;
use crate::i18n::tr;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use chrono::NaiveDate;
use rules::clock::{LatenessPolicy, TimeControl};
use rules::ruleset::{CycleOutcome, Preset};
use serde::Deserialize;

/// The offered values and their words; a code's `.` and `-` are `_` in its catalog key
/// (`points.1_0_5_0` for `1-0.5-0`: catalog keys hold neither).
fn options<T: Copy>(lang: Lang, all: &[T], code: impl Fn(T) -> &'static str, prefix: &str) -> Options {
    all.iter()
        .map(|v| {
            (
                code(*v).to_string(),
                lang.t(&format!("{prefix}.{}", code(*v).replace(['.', '-'], "_"))).to_string(),
            )
        })
        .collect()
}

pub fn settings_options(lang: Lang) -> SettingsOptions {
    let mut same_unit: Options = vec![("off".into(), lang.t("same_unit.off").into())];
    for k in 1..=5u32 {
        same_unit.push((k.to_string(), tr!(lang, "same_unit.rounds", rounds = k)));
    }
    same_unit.push(("all".into(), lang.t("same_unit.all").into()));
    SettingsOptions {
        system: options(lang, System::ALL, System::code, "system"),
        colour: options(lang, ColourMethod::ALL, ColourMethod::code, "colour"),
        same_unit,
        preset: Preset::ALL.iter().map(|p| (p.code().to_string(), lang.rule_set(*p).to_string())).collect(),
        points: options(lang, PointsScale::ALL, PointsScale::code, "points"),
        bye_value: options(lang, ByeValue::ALL, ByeValue::code, "bye_value"),
        bye_sos: options(lang, ByeSos::ALL, ByeSos::code, "bye_sos"),
        tiebreak: options(lang, TieBreak::ALL, TieBreak::code, "tb"),
        time_kind: options(lang, TimeKind::ALL, TimeKind::code, "time_kind"),
        regime: options(lang, VenueRegime::ALL, VenueRegime::code, "regime"),
        double_loss: options(lang, DoubleLoss::ALL, DoubleLoss::code, "double_loss"),
        late_entry: options(lang, LateEntry::ALL, LateEntry::code, "late_entry"),
        forfeit_sos: options(lang, ForfeitSos::ALL, ForfeitSos::code, "forfeit_sos"),
        name_order: options(lang, &NameOrder::ALL, NameOrder::code, "name_order"),
        handicap_basis: options(lang, HandicapBasis::ALL, HandicapBasis::code, "handicap_basis"),
        nigiri_holder: options(lang, NigiriHolder::ALL, NigiriHolder::code, "nigiri_holder"),
        round1_order: options(lang, Round1Order::ALL, Round1Order::code, "round1_order"),
        cycle: options(lang, CycleOutcome::ALL, CycleOutcome::code, "cycle"),
        // A draw cannot put both players out: that choice is for double losses only.
        ko_draw: options(
            lang,
            &[KnockoutResolution::Replay, KnockoutResolution::HigherSeed, KnockoutResolution::Lot],
            KnockoutResolution::code,
            "ko",
        ),
        ko_double_loss: options(lang, KnockoutResolution::ALL, KnockoutResolution::code, "ko"),
    }
}

/// Stored settings as form values.
pub fn settings_form(s: &TournamentSettings) -> FormView {
    let mut f = FormView::default();
    f.set("name_zh", &s.name_zh);
    f.set("name_latin", &s.name_latin);
    f.set("venue", &s.venue);
    f.set("start_date", date_text(s.start_date));
    f.set("end_date", date_text(s.end_date));
    f.set("time_zone", s.time_zone.name());
    f.set("system", s.system.code());
    f.set("rounds", s.rounds.to_string());
    f.set("preset", s.ruleset.preset.code());
    f.set("komi", quarters_text(s.ruleset.komi_q));
    // The stored komi was confirmed when it was saved: saving it again needs no confirmation.
    f.set("komi_confirm", s.ruleset.komi_q.to_string());
    set_follows(&mut f, s.system, &s.tiebreaks, s.ruleset.preset, s.ruleset.komi_q);
    f.set("warnings_to_loss", s.ruleset.warnings_to_loss.map(|w| w.to_string()).unwrap_or_default());
    f.set("cycle", s.ruleset.cycle.code());
    f.set("points_scale", s.points_scale.code());
    f.set("colour_method", s.colour_method.code());
    f.set("bye_value", s.bye_value.code());
    f.set("bye_sos", s.bye_sos.code());
    f.set("same_unit", s.same_unit.code());
    f.set("tiebreaks", s.tiebreak_codes());
    f.set("forfeit_sos", s.forfeit_sos.code());
    f.set("name_order", s.name_order.code());
    time_control_form(&mut f, &s.time_control);
    lateness_form(&mut f, &s.lateness);
    f.set("double_loss", s.double_loss.code());
    f.set("late_entry", s.late_entry.code());
    pairing_form(&mut f, &s.pairing);
    f
}

/// What the page shows as its driver's own value, for [`follow`] on the next save: the
/// tie-break order as the system's default (`tb_follows` = the system) and the komi as the
/// rule set's (`komi_follows` = the preset); empty when it shows the organizer's own choice,
/// which no other system or rule set replaces.
fn set_follows(f: &mut FormView, system: System, tiebreaks: &[TieBreak], preset: Preset, komi_q: i32) {
    f.set("tb_follows", if tiebreaks == system.default_tiebreaks() { system.code() } else { "" });
    f.set("komi_follows", if komi_q == preset.rules().komi_q { preset.code() } else { "" });
}

/// The pairing rules as form fields (ranks in the short form "3d", which both languages read).
fn pairing_form(f: &mut FormView, p: &PairingRules) {
    f.set("mm_bar", p.mcmahon.bar.notation());
    f.set("mm_floor", p.mcmahon.floor.notation());
    f.set("handicap_basis", p.handicap.basis.code());
    f.set("handicap_reduction", p.handicap.reduction.to_string());
    f.set("handicap_max", p.handicap.max.to_string());
    f.set("handicap_none_at_bar", if p.handicap.none_at_bar { "on" } else { "" });
    f.set("nigiri_holder", p.nigiri.code());
    f.set("round1_order", p.round1.code());
    f.set("ko_draw", p.knockout.on_draw.code());
    f.set("ko_double_loss", p.knockout.on_double_loss.code());
    f.set("unit_barred", p.unit_barred.to_string());
}

/// A rank field of the pairing rules ("3d"); a form without it keeps `dflt`.
fn rank_field(lang: Lang, form: &Form, f: &mut FormView, name: &str, dflt: Rank) -> Option<Rank> {
    if !form.has(name) {
        f.set(name, dflt.notation());
        return Some(dflt);
    }
    match Rank::parse(form.get(name)) {
        Ok(r) => Some(r),
        Err(e) => {
            f.error(name, lang.entrant_error(&e));
            None
        }
    }
}

/// A number of handicap stones (0 to `MAX_HANDICAP`); a form without it keeps `dflt`.
fn stones_field(lang: Lang, form: &Form, f: &mut FormView, name: &str, dflt: u8) -> Option<u8> {
    if !form.has(name) {
        f.set(name, dflt.to_string());
        return Some(dflt);
    }
    match form.get(name).trim().parse::<u8>() {
        Ok(n) if n <= MAX_HANDICAP => Some(n),
        _ => {
            f.error(name, tr!(lang, "err.number_range", min = 0, max = MAX_HANDICAP));
            None
        }
    }
}

/// One of the offered choices (`parse`, its `code` back); a form without it keeps `dflt`.
fn choice_field<T: Copy>(
    lang: Lang,
    form: &Form,
    f: &mut FormView,
    name: &str,
    parse: impl Fn(&str) -> Option<T>,
    code: impl Fn(T) -> &'static str,
    dflt: T,
) -> Option<T> {
    if !form.has(name) {
        f.set(name, code(dflt));
        return Some(dflt);
    }
    let v = parse(form.get(name));
    if v.is_none() {
        f.error(name, lang.t("err.choice"));
    }
    v
}

/// Read the pairing rules and check them against the system; messages beside the
/// fields. A form without a field (a page from before these settings) keeps its default.
fn pairing_from_form(
    lang: Lang,
    form: &Form,
    f: &mut FormView,
    system: Option<System>,
) -> Option<PairingRules> {
    let d = PairingRules::default();
    let bar = rank_field(lang, form, f, "mm_bar", d.mcmahon.bar);
    let floor = rank_field(lang, form, f, "mm_floor", d.mcmahon.floor);
    let basis = choice_field(
        lang,
        form,
        f,
        "handicap_basis",
        HandicapBasis::from_code,
        HandicapBasis::code,
        d.handicap.basis,
    );
    let reduction = stones_field(lang, form, f, "handicap_reduction", d.handicap.reduction);
    let max = stones_field(lang, form, f, "handicap_max", d.handicap.max);
    let nigiri =
        choice_field(lang, form, f, "nigiri_holder", NigiriHolder::from_code, NigiriHolder::code, d.nigiri);
    let round1 =
        choice_field(lang, form, f, "round1_order", Round1Order::from_code, Round1Order::code, d.round1);
    let (ko, ko_code) = (KnockoutResolution::from_code, KnockoutResolution::code);
    let on_draw = choice_field(lang, form, f, "ko_draw", ko, ko_code, d.knockout.on_draw);
    let on_double_loss =
        choice_field(lang, form, f, "ko_double_loss", ko, ko_code, d.knockout.on_double_loss);
    // Same-unit rounds (rules.md §14.4 made hard): a whole number; the range and the system
    // are the rules' problems below.
    let unit_barred = if form.has("unit_barred") {
        number_field(lang, form, f, "unit_barred", (0, MAX_ROUNDS))
    } else {
        f.set("unit_barred", d.unit_barred.to_string());
        Some(d.unit_barred)
    };
    let rules = PairingRules {
        mcmahon: McMahonBands { bar: bar?, floor: floor? },
        handicap: HandicapSettings {
            basis: basis?,
            reduction: reduction?,
            max: max?,
            none_at_bar: form.checked("handicap_none_at_bar"),
        },
        nigiri: nigiri?,
        round1: round1?,
        knockout: KnockoutSettings { on_draw: on_draw?, on_double_loss: on_double_loss? },
        unit_barred: unit_barred?,
    };
    let problems = rules.problems(system?);
    for p in &problems {
        f.error(p.field(), pairing_problem(lang, p));
    }
    problems.is_empty().then_some(rules)
}

/// What is wrong between the pairing rules and the system, beside the field it names.
fn pairing_problem(lang: Lang, p: &PairingProblem) -> String {
    match p {
        PairingProblem::FloorAboveBar => lang.t("t.err_floor_above_bar").to_string(),
        PairingProblem::HandicapSystem => lang.t("t.err_handicap_system").to_string(),
        PairingProblem::ScoreBasisNotMcMahon => lang.t("t.err_score_basis").to_string(),
        PairingProblem::HandicapRange => tr!(lang, "err.number_range", min = 0, max = MAX_HANDICAP),
        PairingProblem::DrawBothOut => lang.t("t.err_ko_draw").to_string(),
        PairingProblem::UnitBarredRange => tr!(lang, "err.number_range", min = 0, max = MAX_ROUNDS),
        PairingProblem::UnitBarredSystem => lang.t("t.err_unit_barred_system").to_string(),
    }
}

/// Minutes as typed in the form: whole minutes, or minutes and seconds ("7:30").
fn minutes_text(secs: u32) -> String {
    if secs.is_multiple_of(60) {
        (secs / 60).to_string()
    } else {
        format!("{}:{:02}", secs / 60, secs % 60)
    }
}

/// The time control as form fields. Fields of the other kinds keep sensible values so that
/// switching the kind in the form shows something reasonable.
fn time_control_form(f: &mut FormView, tc: &TimeControl) {
    f.set("time_kind", TimeKind::of(tc).code());
    f.set("main_minutes", minutes_text(tc.basic_secs()));
    let (mut reserved, mut periods, mut period_s, mut moves, mut canadian) = (5, 3, 60, 15, 600);
    match *tc {
        TimeControl::ChineseByoYomi { reserved_minutes, .. } => reserved = reserved_minutes,
        TimeControl::ByoYomi { periods: p, period_secs, .. } => (periods, period_s) = (p, period_secs),
        TimeControl::Canadian { moves_per_period, period_secs, .. } => {
            (moves, canadian) = (moves_per_period, period_secs)
        }
        TimeControl::Absolute { .. } => {}
    }
    f.set("reserved_minutes", reserved.to_string());
    f.set("periods", periods.to_string());
    f.set("period_seconds", period_s.to_string());
    f.set("canadian_moves", moves.to_string());
    f.set("canadian_minutes", minutes_text(canadian));
}

fn lateness_form(f: &mut FormView, p: &LatenessPolicy) {
    f.set("late_regime", VenueRegime::of(p).code());
    f.set("late_limit", p.limit_minutes.map(|m| m.to_string()).unwrap_or_default());
    f.set("late_inclusive", if p.inclusive { "on" } else { "" });
    f.set("late_double", if p.double_deduction { "on" } else { "" });
    f.set("late_protect_reserve", if p.protect_reserve { "on" } else { "" });
}

/// "120", "7:30" or "7.5" minutes → seconds (at most 48 hours).
fn parse_minutes(s: &str) -> Option<u32> {
    let s = s.trim();
    let secs = if let Some((m, sec)) = s.split_once(':') {
        let m: u32 = m.trim().parse().ok()?;
        let sec: u32 = sec.trim().parse().ok().filter(|v| *v < 60 && sec.trim().len() == 2)?;
        m.checked_mul(60)?.checked_add(sec)?
    } else if let Some((m, frac)) = s.split_once('.') {
        let m: u32 = m.trim().parse().ok()?;
        let half = match frac.trim_end_matches('0') {
            "" => 0,
            "5" => 30,
            _ => return None,
        };
        m.checked_mul(60)?.checked_add(half)?
    } else {
        s.parse::<u32>().ok()?.checked_mul(60)?
    };
    (secs <= rules::clock::MAX_DURATION_SECS).then_some(secs)
}

/// Minutes as typed ("120", "7:30", "7.5"); a message beside the field when unreadable.
fn minutes_field(lang: Lang, form: &Form, f: &mut FormView, name: &str) -> Option<u32> {
    let v = parse_minutes(form.get(name));
    if v.is_none() {
        f.error(name, lang.t("t.err_minutes"));
    }
    v
}

/// A whole number in `min..=max`; a message beside the field otherwise.
fn number_field(
    lang: Lang,
    form: &Form,
    f: &mut FormView,
    name: &str,
    (min, max): (u32, u32),
) -> Option<u32> {
    match form.get(name).parse::<u32>() {
        Ok(n) if (min..=max).contains(&n) => Some(n),
        _ => {
            f.error(name, tr!(lang, "err.number_range", min, max));
            None
        }
    }
}

/// Read the time control fields of `kind`; messages beside the fields. The rules crate's
/// validation is the last word (its typed problem is worded after ours).
fn time_control_from_form(
    lang: Lang,
    form: &Form,
    f: &mut FormView,
    ruleset: Option<&rules::RuleSet>,
) -> Option<TimeControl> {
    let Some(kind) = TimeKind::from_code(form.get("time_kind")) else {
        f.error("time_kind", lang.t("err.choice"));
        return None;
    };
    let tc = time_control_of(lang, form, f, kind);
    let fields = ["main_minutes", "reserved_minutes", "canadian_minutes"];
    if fields.iter().any(|k| f.err(k).is_some()) {
        return None;
    }
    let checked = match ruleset {
        Some(r) => tc?.validate_for(r),
        None => tc?.validate(),
    };
    match checked {
        Ok(()) => tc,
        Err(rules::clock::TimeControlProblem::AbsoluteInTeamRelay) => {
            f.error("time_kind", lang.t("t.err_absolute_team"));
            None
        }
        Err(e) => {
            let problem = lang.time_control_problem(&e);
            f.error("time_kind", format!("{}: {}", lang.t("t.err_time_control"), problem));
            None
        }
    }
}

/// The fields of one kind of time control (Art. 12's byo-yomi, 包干 with reserved minutes,
/// absolute, Canadian), each read with its message.
fn time_control_of(lang: Lang, form: &Form, f: &mut FormView, kind: TimeKind) -> Option<TimeControl> {
    let basic = minutes_field(lang, form, f, "main_minutes");
    Some(match kind {
        TimeKind::ChineseByoYomi => {
            let r = number_field(lang, form, f, "reserved_minutes", (1, 60));
            if let (Some(b), Some(r)) = (basic, r) {
                if r * 60 > b {
                    f.error("reserved_minutes", lang.t("t.err_reserve_inside"));
                }
            }
            TimeControl::ChineseByoYomi { basic_secs: basic?, reserved_minutes: r? }
        }
        TimeKind::ByoYomi => {
            let p = number_field(lang, form, f, "periods", (1, 1000));
            let ps = number_field(lang, form, f, "period_seconds", (1, 3600));
            TimeControl::ByoYomi { basic_secs: basic?, periods: p?, period_secs: ps? }
        }
        TimeKind::Absolute => {
            if basic == Some(0) {
                f.error("main_minutes", lang.t("t.err_no_time"));
            }
            TimeControl::Absolute { basic_secs: basic? }
        }
        TimeKind::Canadian => {
            let m = number_field(lang, form, f, "canadian_moves", (1, 1000));
            let p = minutes_field(lang, form, f, "canadian_minutes");
            if p == Some(0) {
                f.error("canadian_minutes", lang.t("t.err_no_time"));
            }
            TimeControl::Canadian { basic_secs: basic?, moves_per_period: m?, period_secs: p? }
        }
    })
}

fn lateness_from_form(lang: Lang, form: &Form, f: &mut FormView) -> Option<LatenessPolicy> {
    let Some(regime) = VenueRegime::from_code(form.get("late_regime")) else {
        f.error("late_regime", lang.t("err.choice"));
        return None;
    };
    let limit = match (regime, form.get("late_limit")) {
        (VenueRegime::Custom, "") => None,
        (VenueRegime::Custom, v) => match v.parse::<u32>() {
            Ok(n) if n <= 240 => Some(n),
            _ => {
                f.error("late_limit", tr!(lang, "err.number_range", min = 0, max = 240));
                return None;
            }
        },
        _ => None,
    };
    let p = regime.policy(
        limit,
        form.checked("late_inclusive"),
        form.checked("late_double"),
        form.checked("late_protect_reserve"),
    );
    match p.validate() {
        Ok(()) => Some(p),
        Err(rules::clock::LatenessProblem::ZeroLimitNotInclusive) => {
            f.error("late_inclusive", lang.t("t.err_late_zero"));
            None
        }
        Err(e) => {
            f.error("late_regime", format!("{}: {}", lang.t("t.err_lateness"), lang.lateness_problem(&e)));
            None
        }
    }
}

/// Read and check every setting; a message per bad field. `None` when anything is wrong.
pub fn settings_from_form(lang: Lang, form: &Form) -> (FormView, Option<TournamentSettings>) {
    let mut f = FormView::from_form(form);
    f.set(
        "tiebreaks",
        form.all("tiebreak").into_iter().filter(|s| !s.is_empty()).collect::<Vec<_>>().join(","),
    );
    for k in ["late_inclusive", "late_double", "late_protect_reserve", "handicap_none_at_bar"] {
        f.set(k, if form.checked(k) { "on" } else { "" });
    }
    // This reads each field; what must hold between fields (and for settings made any other
    // way) is `TournamentSettings::validate`, checked below.
    let mut r = Read::default();
    read_event(lang, form, &mut f, &mut r);
    read_scoring(lang, form, &mut f, &mut r);
    r.ruleset = read_ruleset(lang, form, &mut f);
    r.tiebreaks = read_tiebreaks(lang, form, &mut f);
    if let Some(system) = r.system {
        // The order the page showed as the old system's own follows the new system
        // (rules.md decisions, "McMahon standings"); one the organizer chose stays.
        let shown = System::from_code(form.get("tb_follows"));
        r.tiebreaks = follow(shown, system, r.tiebreaks.clone(), |s| s.default_tiebreaks().to_vec());
        f.set("tiebreaks", r.tiebreaks.iter().map(|t| t.code()).collect::<Vec<_>>().join(","));
        if let Some(rs) = &r.ruleset {
            set_follows(&mut f, system, &r.tiebreaks, rs.preset, rs.komi_q);
        }
    }
    read_clocks_and_pairing(lang, form, &mut f, &mut r);
    super::form::check_reason(lang, form, &mut f);
    check_invariants(lang, &r, &mut f);
    if f.has_errors() {
        return (f, None);
    }
    (f, r.settings())
}

/// The settings as read from the form, each `None` where its field could not be read.
#[derive(Default)]
struct Read {
    name_zh: String,
    name_latin: String,
    venue: String,
    start: Option<NaiveDate>,
    end: Option<NaiveDate>,
    system: Option<System>,
    rounds: Option<u32>,
    colour: Option<ColourMethod>,
    same_unit: Option<SameUnit>,
    double_loss: Option<DoubleLoss>,
    late_entry: Option<LateEntry>,
    points: Option<PointsScale>,
    bye_value: Option<ByeValue>,
    bye_sos: Option<ByeSos>,
    ruleset: Option<rules::RuleSet>,
    tiebreaks: Vec<TieBreak>,
    time_control: Option<TimeControl>,
    lateness: Option<LatenessPolicy>,
    pairing: Option<PairingRules>,
    forfeit_sos: Option<ForfeitSos>,
    name_order: Option<NameOrder>,
    time_zone: Option<EventZone>,
}

impl Read {
    /// The settings, once every field was read.
    fn settings(self) -> Option<TournamentSettings> {
        Some(TournamentSettings {
            name_zh: self.name_zh,
            name_latin: self.name_latin,
            venue: self.venue,
            start_date: self.start?,
            end_date: self.end?,
            system: self.system?,
            rounds: self.rounds?,
            ruleset: self.ruleset?,
            points_scale: self.points?,
            tiebreaks: self.tiebreaks,
            colour_method: self.colour?,
            lateness: self.lateness?,
            bye_value: self.bye_value?,
            bye_sos: self.bye_sos?,
            same_unit: self.same_unit?,
            time_control: self.time_control?,
            forfeit_sos: self.forfeit_sos?,
            double_loss: self.double_loss?,
            late_entry: self.late_entry?,
            pairing: self.pairing?,
            name_order: self.name_order?,
            time_zone: self.time_zone?,
        })
    }
}

/// One of the offered choices of field `name`; a message beside it when it is not.
fn pick<T>(
    f: &mut FormView,
    lang: Lang,
    form: &Form,
    name: &str,
    parse: impl Fn(&str) -> Option<T>,
) -> Option<T> {
    let v = parse(form.get(name));
    if v.is_none() {
        f.error(name, lang.t("err.choice"));
    }
    v
}

/// The event: its names, venue, dates, system and number of rounds.
fn read_event(lang: Lang, form: &Form, f: &mut FormView, r: &mut Read) {
    r.name_zh = form.get("name_zh").to_string();
    r.name_latin = form.get("name_latin").to_string();
    r.venue = form.get("venue").to_string();
    let date = |f: &mut FormView, name: &str| -> Option<NaiveDate> {
        let d = parse_date(form.get(name));
        if d.is_none() {
            f.error(name, lang.t("err.date"));
        }
        d
    };
    r.start = date(f, "start_date");
    r.end = date(f, "end_date");
    r.system = pick(f, lang, form, "system", System::from_code);
    r.rounds = match form.get("rounds").parse::<u32>() {
        Ok(n) => Some(n),
        Err(_) => {
            f.error("rounds", tr!(lang, "err.number_range", min = 1, max = MAX_ROUNDS));
            None
        }
    };
}

/// Colours, players of one unit, double losses, late entries, points and byes (rules.md's
/// decisions).
fn read_scoring(lang: Lang, form: &Form, f: &mut FormView, r: &mut Read) {
    r.colour = pick(f, lang, form, "colour_method", ColourMethod::from_code);
    r.same_unit = pick(f, lang, form, "same_unit", SameUnit::from_code);
    // Settings added with the pairing work: a form without them (an older page) keeps the
    // defaults; a value that is there must be one of the offered ones.
    let defaults = TournamentSettings::defaults(chrono::Utc::now().date_naive(), crate::machine::zone());
    for (name, dflt) in
        [("double_loss", defaults.double_loss.code()), ("late_entry", defaults.late_entry.code())]
    {
        if !form.has(name) {
            f.set(name, dflt);
        }
    }
    r.double_loss = match form.has("double_loss") {
        false => Some(defaults.double_loss),
        true => pick(f, lang, form, "double_loss", DoubleLoss::from_code),
    };
    r.late_entry = match form.has("late_entry") {
        false => Some(defaults.late_entry),
        true => pick(f, lang, form, "late_entry", LateEntry::from_code),
    };
    r.points = pick(f, lang, form, "points_scale", PointsScale::from_code);
    r.bye_value = pick(f, lang, form, "bye_value", ByeValue::from_code);
    r.bye_sos = pick(f, lang, form, "bye_sos", ByeSos::from_code);
}

/// The rule set: a preset, its komi as typed (confirmed when it is not the preset's own) and
/// the warnings that make a loss.
fn read_ruleset(lang: Lang, form: &Form, f: &mut FormView) -> Option<rules::RuleSet> {
    let preset = pick(f, lang, form, "preset", Preset::from_code);
    let mut ruleset = preset.map(Preset::rules);
    if let Some(r) = ruleset.as_mut() {
        let komi = form.get("komi");
        if !komi.is_empty() {
            match rules::outcome::parse_komi(komi) {
                Ok(k) => {
                    // The komi the page showed as the old rule set's own follows the new one
                    // (seed 003 Art. 12: 3½ for the relay); a komi the organizer typed stays.
                    let shown = Preset::from_code(form.get("komi_follows"));
                    r.komi_q = follow(shown, r.preset, k.quarters, |p| p.rules().komi_q);
                    if r.komi_q != k.quarters {
                        f.set("komi", quarters_text(r.komi_q));
                    }
                    komi_confirmation(lang, form, f, r);
                }
                Err(_) => f.error("komi", lang.t("t.err_komi")),
            }
        }
        match form.get("warnings_to_loss") {
            "" => r.warnings_to_loss = None,
            w => match w.parse::<u8>() {
                Ok(n) => r.warnings_to_loss = Some(n),
                _ => f.error("warnings_to_loss", lang.t("t.err_warnings")),
            },
        }
        // Seed 000 Art. 20: what a cycle is ruled. A form without it (an older page) keeps the
        // preset's (no result, the decisions table's default).
        if form.has("cycle") {
            if let Some(c) = pick(f, lang, form, "cycle", CycleOutcome::from_code) {
                r.cycle = c;
            }
        } else {
            f.set("cycle", r.cycle.code());
        }
    }
    ruleset
}

/// The tie-breaks in their order; an unknown one is refused.
fn read_tiebreaks(lang: Lang, form: &Form, f: &mut FormView) -> Vec<TieBreak> {
    let mut tiebreaks = Vec::new();
    for c in form.all("tiebreak").into_iter().filter(|s| !s.is_empty()) {
        match TieBreak::from_code(c) {
            Some(t) => tiebreaks.push(t),
            None => f.error("tiebreaks", lang.t("err.choice")),
        }
    }
    tiebreaks
}

/// The time control (against the rule set), lateness, pairing rules (against the system), SOS
/// of forfeits, name order and time zone. A field absent from an older form takes its default.
fn read_clocks_and_pairing(lang: Lang, form: &Form, f: &mut FormView, r: &mut Read) {
    r.time_control = time_control_from_form(lang, form, f, r.ruleset.as_ref());
    r.lateness = lateness_from_form(lang, form, f);
    r.pairing = pairing_from_form(lang, form, f, r.system);
    r.forfeit_sos = match form.has("forfeit_sos") {
        true => pick(f, lang, form, "forfeit_sos", ForfeitSos::from_code),
        false => Some(ForfeitSos::Opponent),
    };
    r.name_order = match form.has("name_order") {
        true => pick(f, lang, form, "name_order", NameOrder::from_code),
        false => Some(NameOrder::Pinyin),
    };
    r.time_zone = time_zone_from_form(lang, form, f);
}

/// The invariants, on what was read (a field that could not be read keeps its own message;
/// the others are checked against the defaults in its place, so every problem shows at once).
fn check_invariants(lang: Lang, r: &Read, f: &mut FormView) {
    let defaults = TournamentSettings::defaults(chrono::Utc::now().date_naive(), crate::machine::zone());
    let candidate = TournamentSettings {
        name_zh: r.name_zh.clone(),
        name_latin: r.name_latin.clone(),
        venue: r.venue.clone(),
        start_date: r.start.unwrap_or(defaults.start_date),
        end_date: r.end.or(r.start).unwrap_or(defaults.end_date),
        rounds: r.rounds.unwrap_or(defaults.rounds),
        ruleset: r.ruleset.clone().unwrap_or(defaults.ruleset.clone()),
        tiebreaks: r.tiebreaks.clone(),
        ..defaults
    };
    for p in candidate.validate() {
        let unread =
            f.err(p.field()).is_some() || (p == SettingsProblem::EndBeforeStart && r.start.is_none());
        if !unread {
            f.error(p.field(), lang.settings_problem(&p));
        }
    }
}

/// The event's time zone as typed: an IANA name ("Asia/Shanghai"), kept as typed with a
/// message beside it when the tz database has no such zone. A form without the field (an older
/// page) keeps the server's zone.
fn time_zone_from_form(lang: Lang, form: &Form, f: &mut FormView) -> Option<EventZone> {
    if !form.has("time_zone") {
        f.set("time_zone", crate::machine::zone().name());
        return Some(crate::machine::zone());
    }
    let z = EventZone::parse(form.get("time_zone"));
    if z.is_none() {
        f.error("time_zone", tr!(lang, "tz.err_unknown", zone = form.get("time_zone")));
    }
    z
}

/// The zones offered beside the time-zone field (any IANA name may be typed).
pub const SUGGESTED_ZONES: [&str; 10] = [
    "Asia/Shanghai",
    "Asia/Hong_Kong",
    "Asia/Taipei",
    "Asia/Tokyo",
    "Asia/Seoul",
    "Asia/Singapore",
    "Europe/London",
    "Europe/Berlin",
    "America/New_York",
    "UTC",
];

/// A komi that is not the rule set's own (rules.md: 3¾ stones for the 2002 rules, 3½ for the
/// relay, seed 003 Art. 12) is saved only once it is confirmed with its conversion and its
/// consequence shown (`komi_confirm` = its quarter stones): "7.5" read as stones is 15 points,
/// and 3¾ leaves no drawn count, so no relay match can be drawn. A stored komi carries its
/// confirmation in the form.
fn komi_confirmation(lang: Lang, form: &Form, f: &mut FormView, r: &rules::RuleSet) {
    let own = r.preset.rules();
    let q = r.komi_q;
    if own.komi_q == q || form.get("komi_confirm") == q.to_string() {
        return;
    }
    let consequence = komi_consequence(lang, r, &own);
    f.error(
        "komi",
        tr!(
            lang,
            "t.komi_confirm_needed",
            typed = komi_conversion(lang, q),
            own = komi_conversion(lang, own.komi_q),
            consequence,
        ),
    );
    f.set("komi_pending", q.to_string());
}

/// What a komi does to an even game's count, beside the rule set's own: which count of
/// Black's is a draw, or that none is (and, for the relay, that no match can then be drawn
/// and the 节棋 play-off never happens: seed 003 Art. 12).
fn komi_consequence(lang: Lang, typed: &rules::RuleSet, own: &rules::RuleSet) -> String {
    let outcome = |r: &rules::RuleSet| {
        let s = r.scoring(0, 0, 0);
        let count = |halves: u32| rules::outcome::quarters_text(2 * halves);
        match s.drawing_count() {
            Some(d) => tr!(lang, "t.komi_outcome_draw", black = count(d)),
            None => {
                tr!(
                    lang,
                    "t.komi_outcome_no_draw",
                    wins = count(s.winning_count()),
                    loses = count(s.winning_count() - 1)
                )
            }
        }
    };
    let text = tr!(lang, "t.komi_consequence", typed = outcome(typed), own = outcome(own));
    let draws = |r: &rules::RuleSet| r.scoring(0, 0, 0).drawing_count().is_some();
    if typed.preset == Preset::ChineseTeamRelay && draws(own) && !draws(typed) {
        tr!(lang, "t.komi_relay_no_draw", consequence = text)
    } else {
        text
    }
}

impl TournamentFormPage {
    /// The zones the time-zone field suggests.
    pub fn zones(&self) -> &'static [&'static str] {
        &SUGGESTED_ZONES
    }

    /// A McMahon event whose order does not start from the McMahon score (it ranks by games
    /// won: rules.md decisions, "McMahon standings").
    pub fn mcmahon_by_games(&self) -> bool {
        self.f.v("system") == System::McMahon.code()
            && self.f.v("tiebreaks").split(',').next() != Some(TieBreak::McMahon.code())
    }

    /// The typed komi with its conversion ("3¾子 = 7.5目"), or nothing while it cannot be read.
    pub fn komi_echo(&self) -> String {
        rules::outcome::parse_komi(self.f.v("komi"))
            .map(|k| komi_conversion(self.c.lang, k.quarters))
            .unwrap_or_default()
    }
}

fn tb_slots(f: &FormView) -> Vec<String> {
    let mut v: Vec<String> =
        f.v("tiebreaks").split(',').filter(|s| !s.is_empty()).map(String::from).collect();
    v.resize(TieBreak::ALL.len().max(v.len()), String::new());
    v
}

fn frozen_note(lang: Lang, published: u32) -> String {
    tr!(lang, "t.frozen_note", published)
}

pub async fn home(ctx: Ctx) -> Result<HttpResponse, AppError> {
    let uid = ctx.user().map(|u| u.id);
    let lang = ctx.lang;
    let zh = lang.is_zh();
    let rows = ctx
        .db(move |c| {
            let list = crate::db::event_pages::all_events(c)?;
            let mut out = Vec::new();
            for groups in list {
                let staff = match uid {
                    Some(u) => tdb::staff_role(c, groups[0].id(), u)?.is_some(),
                    None => false,
                };
                out.push((groups, staff));
            }
            Ok::<_, DbError>(out)
        })
        .await?;
    let items = rows
        .into_iter()
        .map(|(groups, staff)| {
            let t = &groups[0].t;
            let name = t.name(zh).to_string();
            let other = t.name(!zh).to_string();
            // An event of several groups is one entry with its groups beneath; one of one group
            // is its tournament, as it always was.
            let (id, link, group_links) = match groups.len() {
                1 => (t.id, format!("/t/{}", t.id), Vec::new()),
                _ => (
                    t.id,
                    format!("/e/{}", groups[0].event_id),
                    groups
                        .iter()
                        .map(|g| (g.id(), super::views::events::group_name(lang, &g.fields)))
                        .collect(),
                ),
            };
            HomeItem {
                id,
                link,
                groups: group_links,
                other_name: if other == name { String::new() } else { other },
                name,
                dates: super::views::events::dates(&t.start_date, &t.end_date),
                venue: t.venue.clone(),
                staff,
            }
        })
        .collect();
    let can_create = ctx.user().is_some_and(|u| u.is_organizer());
    ctx.render(&HomePage { c: ctx.chrome(ctx.t("home.title")), items, can_create })
}

pub async fn new_page(ctx: Ctx) -> Result<HttpResponse, AppError> {
    ctx.require_organizer()?;
    let zone = crate::machine::zone();
    let f = settings_form(&TournamentSettings::defaults(crate::machine::today_in(zone), zone));
    new_form_page(&ctx, f, None, StatusCode::OK)
}

/// The form of a new tournament: the defaults, or a refused creation's entry with its banner.
fn new_form_page(
    ctx: &Ctx,
    f: FormView,
    banner: Option<String>,
    status: StatusCode,
) -> Result<HttpResponse, AppError> {
    let page = TournamentFormPage {
        c: ctx.chrome(ctx.t("t.new_title")),
        is_new: true,
        action: "/t/new".into(),
        delete_action: String::new(),
        version: 0,
        tb_slots: tb_slots(&f),
        f,
        opt: settings_options(ctx.lang),
        banner,
        notice: None,
        published: 0,
        frozen_note: String::new(),
    };
    ctx.render_status(status, &page)
}

/// POST /t/new: an organizer of the office creates a tournament.
pub async fn create(w: Write<Office>) -> Result<HttpResponse, AppError> {
    let (f, settings) = settings_from_form(w.lang, &w.fields);
    let Some(s) = settings else {
        return new_form_page(&w, f, Some(w.t("form.has_errors").to_string()), StatusCode::BAD_REQUEST);
    };
    let actor = w.actor();
    let tid = w.db(move |c| tdb::create(c, &actor, &s)).await?;
    Ok(w.redirect(&format!("/t/{tid}")))
}

pub async fn overview(ctx: Ctx, req: HttpRequest, path: web::Path<String>) -> Result<HttpResponse, AppError> {
    let tid = id(ctx.lang, &path)?;
    if ctx.user().is_none() {
        // The public home of the tournament: cached like the other public pages.
        return super::public::home_page(req, tid).await;
    }
    let role = ctx.staff_role(tid).await?;
    let (t, n, (published, _), staff, all_users, chief) = ctx
        .db(move |c| {
            Ok::<_, DbError>((
                tdb::get(c, tid)?,
                edb::count(c, tid)?,
                tdb::published_rounds(c, tid)?,
                tdb::staff(c, tid)?,
                users::all(c)?,
                crate::db::results::named_chief(c, tid)?,
            ))
        })
        .await?;
    let is_organizer = role == Some(Role::Organizer);
    // `?find=`: the accounts to add narrowed by user name or display name, in characters,
    // pinyin or initials (`kj` → 柯洁), as the round page's player dropdowns.
    let find: String = web::Query::<Vec<(String, String)>>::from_query(req.query_string())
        .ok()
        .and_then(|q| {
            q.0.into_iter().find(|(k, _)| k == "find").map(|(_, v)| v.trim().chars().take(50).collect())
        })
        .unwrap_or_default();
    let candidates = staff_candidates(all_users, &staff, &find, t.settings().name_order);
    let title = ctx.t_name(&t);
    let c = ctx.chrome_t(&t, role.is_some(), title);
    let team = match is_team_event(&t) {
        true => Some(ctx.db(move |c| crate::db::teams::settings(c, tid)).await?.0),
        false => None,
    };
    let mut page = tournament_page(c, ctx.lang, t, n, published, team);
    page.prizes_published = ctx.db(move |c| crate::db::prizes::settings(c, tid)).await?.0.published;
    (page.event_id, page.registration_open) =
        ctx.db(move |c| crate::db::registrations::link_of(c, tid)).await?;
    if role.is_some() {
        page.staff = staff;
        page.candidates = candidates;
        page.staff_find = find;
        page.is_organizer = is_organizer;
        page.chief_id = chief.unwrap_or(0);
    }
    if is_organizer {
        page.ratings = ctx
            .db(move |c| {
                let finished = crate::office::print_data::rated_event(c, tid)?.finished;
                let version = crate::db::rating_changes::version(c, tid)?;
                let computed = crate::db::rating_changes::for_tournament(c, tid)?.len();
                Ok::<_, DbError>(finished.then_some((version, computed)))
            })
            .await?;
    }
    ctx.render(&page)
}

/// The accounts that may be added to the staff: active, not on it yet, narrowed by `find` (user
/// name or display name, in characters, pinyin or initials), in the event's name order.
fn staff_candidates(
    all_users: Vec<crate::db::users::User>,
    staff: &[tdb::StaffMember],
    find: &str,
    order: crate::domain::names::NameOrder,
) -> Vec<(i32, String)> {
    let query = Some(crate::domain::names::Query::new(find)).filter(|q| !q.is_empty());
    let found = |u: &crate::db::users::User| {
        query.as_ref().is_none_or(|q| {
            [&u.username, &u.display_name].iter().any(|n| q.matches(&crate::domain::names::Name::text(n)))
        })
    };
    let mut candidates: Vec<_> = all_users
        .into_iter()
        .filter(|u| u.active && !staff.iter().any(|m| m.user_id == u.id) && found(u))
        .map(|u| {
            let label = if u.display_name.trim().is_empty() || u.display_name == u.username {
                u.username
            } else {
                format!("{} ({})", u.username, u.display_name)
            };
            (u.id, label)
        })
        .collect();
    // In the event's name order (a Chinese user name by pinyin or strokes).
    crate::domain::names::sort_by_name(&mut candidates, order, |(_, n)| crate::domain::names::Name::text(n));
    candidates
}

async fn settings_form_page(
    ctx: &Ctx,
    tid: i32,
    f: Option<FormView>,
    banner: Option<String>,
    status: StatusCode,
) -> Result<HttpResponse, AppError> {
    let (t, (published, _)) =
        ctx.db(move |c| Ok::<_, DbError>((tdb::get(c, tid)?, tdb::published_rounds(c, tid)?))).await?;
    let mut notice = None;
    let f = f.unwrap_or_else(|| {
        let mut s = t.settings();
        // `?order=mcmahon`: the McMahon order filled in for a McMahon event that ranks by
        // games won; saving it (with the audit) is the organizer's decision.
        if ctx.path.contains("order=mcmahon") && s.mcmahon_ranked_by_games() {
            s.tiebreaks = MCMAHON_TIEBREAKS.to_vec();
            notice = Some(tr!(ctx.lang, "t.mcmahon_filled", published));
        }
        settings_form(&s)
    });
    let page = TournamentFormPage {
        c: ctx.chrome_t(&t, true, ctx.t("t.settings_title")),
        is_new: false,
        action: format!("/t/{tid}/settings"),
        delete_action: format!("/t/{tid}/delete"),
        version: t.version,
        tb_slots: tb_slots(&f),
        f,
        opt: settings_options(ctx.lang),
        banner,
        notice,
        published,
        frozen_note: frozen_note(ctx.lang, published),
    };
    ctx.render_status(status, &page)
}

pub async fn settings_page(ctx: Ctx, path: web::Path<String>) -> Result<HttpResponse, AppError> {
    let tid = id(ctx.lang, &path)?;
    ctx.require_staff(tid, Role::Organizer).await?;
    settings_form_page(&ctx, tid, None, None, StatusCode::OK).await
}

/// POST /t/{id}/settings: refused when stale, and for settings the published rounds froze.
pub async fn save_settings(w: Write<Organizer>) -> Result<HttpResponse, AppError> {
    let [tid] = w.who.ids;
    let (mut f, settings) = settings_from_form(w.lang, &w.fields);
    let Some(s) = settings else {
        let banner = Some(w.t("form.has_errors").to_string());
        return settings_form_page(&w, tid, Some(f), banner, StatusCode::BAD_REQUEST).await;
    };
    let version = w.version()?;
    let (actor, reason) = (w.actor(), w.fields.get("reason").to_string());
    match w.db_raw(move |c| tdb::update(c, &actor, tid, version, &s, &reason)).await? {
        Ok(_) => Ok(w.redirect(&format!("/t/{tid}"))),
        Err(UpdateError::Stale { .. }) => {
            let banner = Some(w.t("err.stale").to_string());
            settings_form_page(&w, tid, Some(f), banner, StatusCode::CONFLICT).await
        }
        Err(UpdateError::Frozen { frozen, published, last }) => {
            for fr in &frozen {
                f.error(fr.field(), tr!(w.lang, "t.err_frozen", round = last));
            }
            let banner = Some(tr!(w.lang, "t.err_frozen_banner", published, last));
            settings_form_page(&w, tid, Some(f), banner, StatusCode::CONFLICT).await
        }
        Err(UpdateError::Db(e)) => Err(AppError::db(w.lang, e)),
    }
}

/// POST /t/{id}/delete: the tournament's name (or number) typed to confirm; a backup first.
pub async fn delete(w: Write<Organizer>) -> Result<HttpResponse, AppError> {
    let [tid] = w.who.ids;
    let t = w.db(move |c| tdb::get(c, tid)).await?;
    let confirm = w.fields.get("confirm");
    if confirm.is_empty() || (confirm != t.name_zh && confirm != t.name_latin && confirm != t.id.to_string())
    {
        let banner = Some(w.t("t.err_delete_confirm").to_string());
        return settings_form_page(&w, tid, None, banner, StatusCode::BAD_REQUEST).await;
    }
    let (db_path, actor) = (w.state.db_path.clone(), w.actor());
    let file = w
        .db(move |c| {
            let file = backup::auto_backup(&db_path, &format!("before-delete-t{tid}"))?;
            tdb::delete(c, &actor, tid, &format!("backup: {}", file.display()))?;
            Ok(file)
        })
        .await?;
    tracing::info!(tournament = tid, backup = %file.display(), "tournament deleted after backup");
    Ok(w.redirect("/"))
}

/// The staff form: an account and its role (none: off the staff).
#[derive(Deserialize)]
pub struct StaffForm {
    #[serde(default)]
    user_id: String,
    #[serde(default)]
    role: String,
}

/// POST /t/{id}/staff: an account joins the staff, changes role or leaves; an organizer cannot
/// leave the staff or step down on their own.
pub async fn set_staff(w: Write<Organizer, StaffForm>) -> Result<HttpResponse, AppError> {
    let [tid] = w.who.ids;
    let uid = id(w.lang, &w.form.user_id)?;
    let role = match w.form.role.as_str() {
        "" => None,
        r => {
            Some(Role::parse(r).ok_or_else(|| AppError::bad_request(w.lang, w.t("err.choice").to_string()))?)
        }
    };
    if uid == w.who.user.id && role != Some(Role::Organizer) {
        return Err(AppError::bad_request(w.lang, w.t("staff.err_self").to_string()));
    }
    let actor = w.actor();
    w.db(move |c| {
        users::by_id(c, uid)?;
        tdb::set_staff(c, &actor, tid, uid, role)
    })
    .await?;
    Ok(w.redirect(&format!("/t/{tid}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn komi_text_round_trips_through_parse_quarters() {
        for q in [-7, 0, 1, 2, 3, 14, 15, 26] {
            assert_eq!(rules::outcome::parse_quarters(&quarters_text(q)), Ok(q), "{q}");
        }
        assert_eq!(quarters_text(15), "3.75");
    }

    #[test]
    fn komi_is_shown_in_both_units() {
        assert_eq!(komi_conversion(Lang::Zh, 15), "3¾子 = 7.5目");
        assert_eq!(komi_conversion(Lang::En, 30), "7½ stones = 15 points");
        assert_eq!(komi_conversion(Lang::En, 0), "0 stones = 0 points");
        assert_eq!(komi_conversion(Lang::Zh, -1), "-¼子 = -0.5目");
    }

    #[test]
    fn every_option_label_is_in_the_catalog() {
        for lang in [Lang::En, Lang::Zh] {
            let o = settings_options(lang);
            for list in [
                &o.system,
                &o.colour,
                &o.points,
                &o.bye_value,
                &o.bye_sos,
                &o.tiebreak,
                &o.time_kind,
                &o.regime,
                &o.double_loss,
                &o.late_entry,
                &o.forfeit_sos,
                &o.name_order,
                &o.handicap_basis,
                &o.nigiri_holder,
                &o.ko_draw,
                &o.ko_double_loss,
            ] {
                for (code, label) in list {
                    assert!(!label.contains('.'), "missing label for {code}: {label}");
                }
            }
        }
    }

    fn form_of(pairs: &[(&str, &str)]) -> Form {
        Form { fields: pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(), files: vec![] }
    }

    #[test]
    fn time_controls_from_the_form_with_messages_beside_the_fields() {
        let tc = |pairs: &[(&str, &str)]| {
            let mut f = FormView::default();
            let r = time_control_from_form(
                Lang::En,
                &form_of(pairs),
                &mut f,
                Some(&rules::RuleSet::chinese_2002()),
            );
            (r, f)
        };
        let (r, _) =
            tc(&[("time_kind", "chinese_byo_yomi"), ("main_minutes", "90"), ("reserved_minutes", "5")]);
        assert_eq!(r, Some(TimeControl::chinese(90, 5)));
        let (r, _) = tc(&[
            ("time_kind", "byo_yomi"),
            ("main_minutes", "45"),
            ("periods", "3"),
            ("period_seconds", "30"),
        ]);
        assert_eq!(r, Some(TimeControl::ByoYomi { basic_secs: 2700, periods: 3, period_secs: 30 }));
        let (r, _) = tc(&[
            ("time_kind", "canadian"),
            ("main_minutes", "60"),
            ("canadian_moves", "15"),
            ("canadian_minutes", "7:30"),
        ]);
        assert_eq!(
            r,
            Some(TimeControl::Canadian { basic_secs: 3600, moves_per_period: 15, period_secs: 450 })
        );
        let (r, f) =
            tc(&[("time_kind", "chinese_byo_yomi"), ("main_minutes", "3"), ("reserved_minutes", "5")]);
        assert!(r.is_none() && f.err("reserved_minutes").is_some());
        let (r, f) = tc(&[
            ("time_kind", "byo_yomi"),
            ("main_minutes", "abc"),
            ("periods", "0"),
            ("period_seconds", "30"),
        ]);
        assert!(r.is_none() && f.err("main_minutes").is_some() && f.err("periods").is_some());
        let (r, f) = tc(&[("time_kind", "absolute"), ("main_minutes", "0")]);
        assert!(r.is_none() && f.err("main_minutes").is_some());
        let (r, f) = tc(&[("time_kind", "fischer"), ("main_minutes", "10")]);
        assert!(r.is_none() && f.err("time_kind").is_some());
        let mut f = FormView::default();
        let team = rules::RuleSet::chinese_team_relay();
        let r = time_control_from_form(
            Lang::Zh,
            &form_of(&[("time_kind", "absolute"), ("main_minutes", "60")]),
            &mut f,
            Some(&team),
        );
        assert!(r.is_none() && f.err("time_kind").is_some_and(|e| e.contains("包干")), "{:?}", f.errs);
    }

    #[test]
    fn lateness_from_the_form() {
        let late = |pairs: &[(&str, &str)]| {
            let mut f = FormView::default();
            (lateness_from_form(Lang::En, &form_of(pairs), &mut f), f)
        };
        let (p, _) = late(&[("late_regime", "same"), ("late_limit", "99")]);
        assert_eq!(p, Some(LatenessPolicy::same_venue()), "a regime's own limit, whatever the field says");
        let (p, _) = late(&[("late_regime", "custom"), ("late_limit", "30"), ("late_double", "on")]);
        assert_eq!(
            p.map(|p| (p.limit_minutes, p.inclusive, p.double_deduction)),
            Some((Some(30), false, true))
        );
        let (p, _) = late(&[("late_regime", "custom"), ("late_limit", "")]);
        assert_eq!(p.and_then(|p| p.limit_minutes), None);
        let (p, f) = late(&[("late_regime", "custom"), ("late_limit", "0")]);
        assert!(p.is_none() && f.err("late_inclusive").is_some());
        let (p, f) = late(&[("late_regime", "custom"), ("late_limit", "-3")]);
        assert!(p.is_none() && f.err("late_limit").is_some());
    }

    #[test]
    fn pairing_rules_from_the_form_with_messages_beside_the_fields() {
        let read = |lang, system, pairs: &[(&str, &str)]| {
            let mut f = FormView::default();
            (pairing_from_form(lang, &form_of(pairs), &mut f, Some(system)), f)
        };
        // A form from before these settings: the defaults.
        let (r, f) = read(Lang::En, System::Swiss, &[]);
        assert_eq!(r, Some(PairingRules::default()));
        assert_eq!(f.v("mm_bar"), "3d");
        let full = [
            ("mm_bar", "2段"),
            ("mm_floor", "15k"),
            ("handicap_basis", "mcmahon_score"),
            ("handicap_reduction", "2"),
            ("handicap_max", "6"),
            ("handicap_none_at_bar", "on"),
            ("nigiri_holder", "larger_number"),
            ("ko_draw", "lot"),
            ("ko_double_loss", "higher_seed"),
        ];
        let (r, f) = read(Lang::En, System::McMahon, &full);
        assert!(!f.has_errors(), "{:?}", f.errs);
        let r = r.unwrap();
        assert_eq!(r.mcmahon, McMahonBands { bar: Rank::Dan(2), floor: Rank::Kyu(15) });
        assert_eq!(
            r.handicap,
            HandicapSettings { basis: HandicapBasis::McMahonScore, reduction: 2, max: 6, none_at_bar: true }
        );
        assert_eq!(r.nigiri, NigiriHolder::LargerNumber);
        assert_eq!(r.knockout.on_draw, KnockoutResolution::Lot);
        // The floor above the bar: refused, beside the floor, in both languages.
        let bad = [("mm_bar", "5k"), ("mm_floor", "1d")];
        let (r, f) = read(Lang::En, System::McMahon, &bad);
        assert!(r.is_none());
        assert!(f.err("mm_floor").is_some_and(|e| e.contains("floor is above the bar")), "{:?}", f.errs);
        let (_, f) = read(Lang::Zh, System::McMahon, &bad);
        assert!(f.err("mm_floor").is_some_and(|e| e.contains("下限高于上限")), "{:?}", f.errs);
        // A rank that is not one, a handicap out of range, a basis the system cannot use.
        let (r, f) = read(Lang::En, System::McMahon, &[("mm_bar", "5"), ("handicap_max", "12")]);
        assert!(r.is_none() && f.err("mm_bar").is_some() && f.err("handicap_max").is_some());
        let (r, f) = read(Lang::En, System::Swiss, &[("handicap_basis", "mcmahon_score")]);
        assert!(r.is_none() && f.err("handicap_basis").is_some());
        let (r, f) = read(Lang::Zh, System::RoundRobin, &[("handicap_basis", "rank")]);
        assert!(r.is_none() && f.err("handicap_basis").is_some_and(|e| e.contains("不让子")));
        let (r, f) = read(Lang::En, System::Knockout, &[("ko_draw", "both_out")]);
        assert!(r.is_none() && f.err("ko_draw").is_some());
    }

    #[test]
    fn the_default_form_parses_back_to_the_defaults() {
        let d = TournamentSettings::defaults(
            NaiveDate::from_ymd_opt(2026, 12, 5).unwrap_or_default(),
            crate::machine::zone(),
        );
        let mut d = d;
        d.name_zh = "测试赛".into();
        let f = settings_form(&d);
        let mut fields: Vec<(String, String)> = f
            .vals
            .iter()
            .filter(|(k, _)| k.as_str() != "tiebreaks")
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        for t in &d.tiebreaks {
            fields.push(("tiebreak".into(), t.code().into()));
        }
        let form = Form { fields, files: vec![] };
        let (view, parsed) = settings_from_form(Lang::En, &form);
        assert!(!view.has_errors(), "{:?}", view.errs);
        assert_eq!(parsed, Some(d.clone()));
        // Pairing rules other than the defaults survive the trip too.
        d.system = System::McMahon;
        d.pairing.mcmahon = McMahonBands { bar: Rank::Pro(1), floor: Rank::Kyu(30) };
        d.pairing.handicap =
            HandicapSettings { basis: HandicapBasis::Rank, reduction: 0, max: 4, none_at_bar: true };
        d.pairing.nigiri = NigiriHolder::LargerNumber;
        d.pairing.knockout.on_double_loss = KnockoutResolution::Lot;
        let f = settings_form(&d);
        let mut fields: Vec<(String, String)> = f
            .vals
            .iter()
            .filter(|(k, _)| k.as_str() != "tiebreaks")
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        fields.extend(d.tiebreaks.iter().map(|t| ("tiebreak".to_string(), t.code().to_string())));
        let (view, parsed) = settings_from_form(Lang::En, &Form { fields, files: vec![] });
        assert!(!view.has_errors(), "{:?}", view.errs);
        assert_eq!(parsed, Some(d));
    }
}
