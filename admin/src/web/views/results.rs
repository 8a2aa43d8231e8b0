//! The arbiters' result views: a game's sheet (`templates/game.html`: its forms' options, the
//! entry and rulings read from and written back into the forms, lateness, the game record) and a
//! round's results list and lateness sheet (`templates/results_round.html`, 200 tables a page).
//! Pure: no database, no request; `web::results` loads, calls these, and renders.

use super::text::hall_table;
use super::text::{display_name, imported_text, komi_conversion, rank_text};
pub(in crate::web) use super::text::{kind_label_full, ruling_text};
use crate::db::entrants::EntrantRow;
use crate::db::results::{self as rdb, NewRuling, RoundTime, Sheet};
use crate::db::tournaments::TournamentRow;
use crate::domain::event_time::{EventZone, NoSuchTime};
use crate::domain::results::{self as dr, Clocks, Entry, ResultError, SideLateness};
use crate::domain::settings::TournamentSettings;
use crate::i18n::tr;
use crate::web::form::Form;
use crate::web::i18n::Lang;
use crate::web::views::pages::{Chrome, FormView, Options, Pager};
use askama::Template;
use chrono::NaiveDate;
use rules::board::Color;
use rules::clock::{hms, LatenessVerdict};
use rules::rulings::{self as rr, DoubleLossReason, LossReason, Offence, Ruling, RulingKind};
use std::collections::HashMap;

/// Everything a game page is made from (the clock page reads it too).
pub(in crate::web) struct Loaded {
    pub(in crate::web) t: TournamentRow,
    pub(in crate::web) settings: TournamentSettings,
    pub(in crate::web) sheet: Sheet,
    pub(in crate::web) start: Option<RoundTime>,
    pub(in crate::web) arrived: HashMap<i32, String>,
    pub(in crate::web) is_chief: bool,
    /// The report of the game's record, typed (old reports checked again from the bytes).
    pub(in crate::web) sgf_report: Option<dr::SgfReport>,
    /// The hall number of the round's table 1 (tournament practice: one hall, one numbering).
    pub(in crate::web) hall_first: i32,
    /// Black's count from the final position with the dead stones a referee saved
    /// (`web::count`), if any.
    pub(in crate::web) position_halves: Option<u32>,
}

pub(in crate::web) fn snake<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_value(v).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}

pub(in crate::web) const LOSS_REASONS: [LossReason; 10] = LossReason::ALL;

pub(in crate::web) const DOUBLE_LOSS_REASONS: [DoubleLossReason; 5] = DoubleLossReason::ALL;

/// What happened at the board (rules.md §8): the rules crate prescribes the rulings.
pub(in crate::web) const OFFENCES: [(&str, Offence); 19] = [
    ("double_move", Offence::DoubleMove),
    ("take_back", Offence::TakeBack),
    ("early_clock_press", Offence::EarlyClockPress),
    ("wrong_clock_press", Offence::WrongClockPress),
    ("repeated_wrong_clock_press", Offence::RepeatedWrongClockPress),
    ("press_before_captures_removed", Offence::PressBeforeCapturesRemoved),
    ("mis_capture", Offence::MisCapture),
    ("missed_capture", Offence::MissedCapture),
    ("ko_without_threat", Offence::KoWithoutThreat),
    ("forbidden_point", Offence::ForbiddenPoint),
    ("last_byo_yomi_timeout", Offence::LastByoYomiTimeout),
    ("order_error", Offence::OrderError),
    ("move_quota_excess", Offence::MoveQuotaExcess { extra_moves: 1 }),
    ("leaving_seat", Offence::LeavingSeat),
    ("malicious_foul", Offence::MaliciousFoul),
    ("intentional_stone_moving", Offence::IntentionalStoneMoving),
    ("scattered_board_by_player", Offence::ScatteredBoardByPlayer),
    ("cheating", Offence::Cheating),
    ("cycle", Offence::Cycle),
];

/// The code of a ruling kind in the form: "warning", "loss.lateness", "penalty_stones"…
pub(in crate::web) fn kind_code(k: &RulingKind) -> String {
    match k {
        RulingKind::Loss { reason } => format!("loss.{}", snake(reason)),
        RulingKind::DoubleLoss { reason } => format!("double_loss.{}", snake(reason)),
        RulingKind::PenaltyStones { .. } => "penalty_stones".into(),
        RulingKind::MoveQuotaExcess { .. } => "move_quota_excess".into(),
        other => serde_json::to_value(other)
            .ok()
            .and_then(|v| v.get("kind").and_then(|k| k.as_str()).map(str::to_string))
            .unwrap_or_default(),
    }
}

/// Every kind of the catalogue, with a representative value.
pub(in crate::web) fn catalogue() -> Vec<RulingKind> {
    let mut v = vec![
        RulingKind::Warning,
        RulingKind::Advice,
        RulingKind::YellowCard,
        RulingKind::RedCard,
        RulingKind::PenaltyStones { stones: 1 },
        RulingKind::VoidMove,
        RulingKind::ForcedPass,
    ];
    v.extend(LOSS_REASONS.iter().map(|r| RulingKind::Loss { reason: *r }));
    v.extend(DOUBLE_LOSS_REASONS.iter().map(|r| RulingKind::DoubleLoss { reason: *r }));
    v.extend([
        RulingKind::Draw,
        RulingKind::Replay,
        RulingKind::NoResult,
        RulingKind::Cycle,
        RulingKind::OrderError,
        RulingKind::MoveQuotaExcess { extra_moves: 1 },
        RulingKind::LastByoYomiTimeout,
    ]);
    v
}

pub(in crate::web) fn kind_from_code(code: &str, stones: u32) -> Option<RulingKind> {
    let k = catalogue().into_iter().find(|k| kind_code(k) == code)?;
    Some(match k {
        RulingKind::PenaltyStones { .. } => RulingKind::PenaltyStones { stones },
        RulingKind::MoveQuotaExcess { .. } => RulingKind::MoveQuotaExcess { extra_moves: stones },
        k => k,
    })
}

pub(in crate::web) fn kind_label(lang: Lang, k: &RulingKind) -> String {
    match k {
        RulingKind::PenaltyStones { .. } => lang.t("r.kind_penalty_stones").to_string(),
        RulingKind::MoveQuotaExcess { .. } => lang.t("r.kind_move_quota").to_string(),
        k => lang.ruling_kind(*k),
    }
}

pub struct ResultOptions {
    pub methods: Options,
    pub winners: Options,
    pub dl_reasons: Options,
    pub kinds: Options,
    pub offences: Options,
    pub sides: Options,
}

/// The options of the sheet's forms. Nothing that decides a game is preselected: the method,
/// the winner, the reason of a double loss and the ruling start on an empty choice (a missing
/// one is an error beside the field). The winner is named by player (`black`, `white`:
/// `players` are the seats' labels and names as the sheet shows them: "Black: 王一", or
/// "Guesser: 王一" while the nigiri is to be done).
pub(in crate::web) fn result_options(lang: Lang, players: Option<[(&str, &str); 2]>) -> ResultOptions {
    let mut methods: Options = vec![(String::new(), lang.t("r.method_choose").to_string())];
    methods.extend(dr::METHODS.iter().map(|m| (m.to_string(), lang.t(&format!("r.method.{m}")).to_string())));
    methods.push(("clear".into(), lang.t("r.method_clear").to_string()));
    let mut offences: Options = vec![(String::new(), lang.t("r.offence_none").to_string())];
    offences
        .extend(OFFENCES.iter().map(|(c, _)| (c.to_string(), lang.t(&format!("offence.{c}")).to_string())));
    let choose = || (String::new(), lang.t("r.choose").to_string());
    let (black, white) = (lang.t("r.black"), lang.t("r.white"));
    let mut winners: Options = vec![choose()];
    for (i, (code, colour)) in [("black", black), ("white", white)].into_iter().enumerate() {
        let label = match players {
            Some(p) => tr!(lang, "r.winner_option", seat = p[i].0, name = p[i].1),
            None => colour.to_string(),
        };
        winners.push((code.to_string(), label));
    }
    let mut dl_reasons: Options = vec![choose()];
    dl_reasons
        .extend(DOUBLE_LOSS_REASONS.iter().map(|r| (snake(r), lang.double_loss_reason(*r).to_string())));
    let mut kinds: Options = vec![(String::new(), lang.t("r.kind_choose").to_string())];
    kinds.extend(catalogue().iter().map(|k| (kind_code(k), kind_label(lang, k))));
    ResultOptions {
        methods,
        winners,
        dl_reasons,
        kinds,
        offences,
        sides: vec![
            (String::new(), lang.t("r.side_none").to_string()),
            ("black".into(), black.to_string()),
            ("white".into(), white.to_string()),
        ],
    }
}

pub struct PlayerBox {
    pub id: i32,
    pub name: String,
    pub rank: String,
}

pub struct RulingLine {
    pub id: i32,
    pub move_number: i32,
    pub at_time: String,
    pub side: String,
    pub text: String,
    pub reason: String,
    pub arbiter: String,
    /// A proposal waiting for the chief arbiter (seed 000 Arts. 17.5, 17.6).
    pub pending: bool,
    /// "Confirmed by the chief arbiter 李四", for a confirmed proposal.
    pub confirmed: String,
}

/// A replay's own start and arrivals, on its sheet (the form's field names and values).
pub struct ReplayStart {
    pub black_key: String,
    pub white_key: String,
    pub resumed: bool,
}

pub struct LatenessView {
    pub start: String,
    pub black: String,
    pub white: String,
    /// What applying lateness would do (empty: nothing to apply).
    pub pending: Vec<String>,
}

/// A game's record and its report, worded in the reader's language.
pub struct SgfView {
    pub name: String,
    pub report: Option<SgfReportView>,
    /// The record's count differs from the entered one.
    pub count_differs: bool,
    /// The count entered differs from the count of the final position the referee marked:
    /// both numbers (`web::count`).
    pub position_differs: Option<String>,
}

/// The typed report ([`dr::SgfReport`]) rendered from the catalog.
pub struct SgfReportView {
    pub black_name: Option<String>,
    pub white_name: Option<String>,
    pub encoding: String,
    pub moves: u32,
    pub illegal: Option<String>,
    pub result: String,
    pub agreement: String,
    /// The reader's warnings, then the replay's notes.
    pub warnings: Vec<String>,
}

impl SgfReportView {
    fn new(lang: Lang, r: &dr::SgfReport) -> SgfReportView {
        let warnings = r.warnings.iter().map(|w| lang.sgf_warning(w));
        SgfReportView {
            black_name: r.black_name.clone(),
            white_name: r.white_name.clone(),
            encoding: r.encoding.clone(),
            moves: r.moves,
            illegal: r.illegal.as_ref().map(|i| lang.sgf_illegal(i)),
            result: lang.game_result(&r.result),
            agreement: lang.sgf_agreement(&r.agreement),
            warnings: warnings.chain(r.notes.iter().map(|n| lang.sgf_note(n))).collect(),
        }
    }
}

#[derive(Template)]
#[template(path = "game.html")]
pub struct GamePage {
    pub c: Chrome,
    pub tid: i32,
    pub gid: i32,
    pub round: i32,
    pub board: i32,
    /// The players as they sat (the played colours, rules.md §4.3).
    pub black: Option<PlayerBox>,
    pub white: Option<PlayerBox>,
    /// "Black"/"White", or while the nigiri is to be done "Guesser"/"Holder".
    pub black_label: String,
    pub white_label: String,
    /// Who plays Black and how it was decided, when by nigiri.
    pub colours: Option<String>,
    /// The nigiri is still to be done (the message), or the colours were swapped (the note).
    pub nigiri_note: Option<String>,
    pub swapped_note: Option<String>,
    pub handicap: i32,
    pub komi: String,
    pub version: i32,
    /// The game's pairing version: the colours the form's sides name.
    pub pv: i32,
    pub result: Option<String>,
    pub entered: String,
    pub locked: bool,
    pub confirmed: [bool; 3],
    pub is_chief: bool,
    pub replay_of: Option<i32>,
    pub replay_game: Option<i32>,
    /// A replay's own start and arrivals form (the values are in `lf`).
    pub replay_start: Option<ReplayStart>,
    pub lf: FormView,
    pub clocks: String,
    pub f: FormView,
    pub rf: FormView,
    pub opt: ResultOptions,
    pub preview: Option<Vec<String>>,
    pub ruling_preview: Option<Vec<String>>,
    pub rulings: Vec<RulingLine>,
    pub effects: Vec<String>,
    pub banner: Option<String>,
    pub notice: Option<String>,
    pub conflict: Option<String>,
    pub lateness: Option<LatenessView>,
    pub sgf: Option<SgfView>,
    pub penalties: String,
    pub published: bool,
    /// Proposals waiting for the chief arbiter: none of them counts yet.
    pub proposals: usize,
}

pub(in crate::web) fn player_box(lang: Lang, e: &Option<EntrantRow>) -> Option<PlayerBox> {
    e.as_ref().map(|e| PlayerBox {
        id: e.id,
        name: display_name(e, lang.is_zh()),
        rank: rank_text(lang, &e.rank),
    })
}

pub(in crate::web) fn verdict_text(lang: Lang, v: &SideLateness) -> String {
    match v {
        SideLateness::Waiting { deadline: Some(d) } => {
            tr!(lang, "late.waiting_until", time = dr::time_of_day_text(*d % 86_400))
        }
        SideLateness::Waiting { deadline: None } => lang.t("late.waiting").to_string(),
        SideLateness::Judged(v @ LatenessVerdict::Plays { remaining_basic_secs, clock, .. }) => {
            let set = tr!(lang, "late.set_clock", time = hms(*remaining_basic_secs));
            format!("{} — {set} ({})", lang.lateness_verdict(v), lang.clock_state(clock))
        }
        SideLateness::Judged(v) => lang.lateness_verdict(v),
    }
}

pub(in crate::web) fn effects(lang: Lang, c: &dr::Computed) -> Vec<String> {
    c.applied.effects.iter().map(|e| lang.effect(&e.said, &|_| None)).collect()
}

/// A refused entry or ruling in the reader's language.
pub(in crate::web) fn result_message(lang: Lang, e: &ResultError) -> String {
    match e {
        ResultError::CountAbovePoints { points } => tr!(lang, "r.err_count_above", points),
        ResultError::CountsDisagree { points } => tr!(lang, "r.err_counts_disagree", points),
        ResultError::ByeNeedsOnePlayer => lang.t("r.err_bye_one").to_string(),
        ResultError::OnlyByeForOnePlayer => lang.t("r.err_only_bye").to_string(),
        ResultError::Ruling(e) => tr!(lang, "r.err_rulings", error = lang.ruling_error(e)),
        ResultError::RulingDecides { ruling, decided } => {
            let which = match ruling {
                Some(r) => ruling_text(lang, r),
                None => lang.t("r.err_ruling_decides_any").to_string(),
            };
            tr!(lang, "r.err_ruling_decides", ruling = which, result = lang.game_result(decided))
        }
        ResultError::NigiriPending { entry: true } => lang.t("r.err_nigiri_entry").to_string(),
        ResultError::NigiriPending { entry: false } => lang.t("r.err_nigiri_ruling").to_string(),
    }
}

/// The stored entry as form values.
pub(in crate::web) fn entry_form(e: Option<Entry>) -> FormView {
    let mut f = FormView::default();
    let Some(e) = e else { return f };
    f.set("method", e.code());
    let clocks = |f: &mut FormView, c: Option<Clocks>| {
        if let Some(c) = c {
            f.set("clock_black", hms(c.black_secs));
            f.set("clock_white", hms(c.white_secs));
        }
    };
    match e {
        Entry::Count { black_halves, white_halves } => {
            f.set("black_count", rules::outcome::half_points_text(black_halves));
            if let Some(w) = white_halves {
                f.set("white_count", rules::outcome::half_points_text(w));
            }
        }
        Entry::Resignation { winner }
        | Entry::Time { winner }
        | Entry::Forfeit { winner }
        | Entry::Lateness { winner } => {
            f.set("winner", rdb::color_code(winner));
        }
        Entry::DoubleLoss { reason } => f.set("dl_reason", snake(&reason)),
        Entry::NoResult { clocks: c } | Entry::Replay { clocks: c } => clocks(&mut f, c),
        Entry::Draw | Entry::Bye => {}
    }
    f
}

/// The result form's winner; `None` with its error on `f` when no side is chosen.
fn winner_of(lang: Lang, form: &Form, f: &mut FormView) -> Option<Color> {
    let c = rdb::color_from(form.get("winner"));
    if c.is_none() {
        f.error("winner", lang.t("r.err_winner"));
    }
    c
}

/// The clocks of an interrupted game (both empty: none); `None` with the errors on `f`.
fn clocks_of(lang: Lang, form: &Form, f: &mut FormView) -> Option<Option<Clocks>> {
    let (b, w) = (form.get("clock_black"), form.get("clock_white"));
    if b.is_empty() && w.is_empty() {
        return Some(None);
    }
    let (pb, pw) = (dr::parse_clock(b), dr::parse_clock(w));
    if pb.is_none() {
        f.error("clock_black", lang.t("r.err_clock"));
    }
    if pw.is_none() {
        f.error("clock_white", lang.t("r.err_clock"));
    }
    Some(Some(Clocks { black_secs: pb?, white_secs: pw? }))
}

/// A counted result from Black's and White's counts (either may be left empty); `None` with
/// the error on `f`.
fn count_of(lang: Lang, form: &Form, rules: &rules::RuleSet, f: &mut FormView) -> Option<Entry> {
    let half = |f: &mut FormView, name: &str| -> Option<Option<u32>> {
        match form.get(name) {
            "" => Some(None),
            v => match rules::outcome::parse_half_points(v) {
                Ok(h) => Some(Some(h)),
                Err(_) => {
                    f.error(name, lang.t("r.err_count"));
                    None
                }
            },
        }
    };
    let (b, w) = (half(f, "black_count"), half(f, "white_count"));
    match dr::count_entry(rules, b?, w?) {
        None => {
            f.error("black_count", lang.t("r.err_count_missing"));
            None
        }
        Some(Err(e)) => {
            f.error(e.field(), result_message(lang, &e));
            None
        }
        Some(Ok(e)) => Some(e),
    }
}

/// Read the result form. `None` when a field is wrong (the messages are in `f`); `Some(None)`
/// clears the result.
pub(in crate::web) fn entry_from_form(
    lang: Lang,
    form: &Form,
    rules: &rules::RuleSet,
    f: &mut FormView,
) -> Option<Option<Entry>> {
    let method = form.get("method");
    let e = match method {
        "" => {
            f.error("method", lang.t("r.err_method"));
            return None;
        }
        "clear" => return Some(None),
        "count" => count_of(lang, form, rules, f)?,
        "resignation" => Entry::Resignation { winner: winner_of(lang, form, f)? },
        "time" => Entry::Time { winner: winner_of(lang, form, f)? },
        "forfeit" => Entry::Forfeit { winner: winner_of(lang, form, f)? },
        "lateness" => Entry::Lateness { winner: winner_of(lang, form, f)? },
        "double_loss" => {
            let r = DOUBLE_LOSS_REASONS.iter().find(|r| snake(*r) == form.get("dl_reason")).copied();
            match r {
                Some(reason) => Entry::DoubleLoss { reason },
                None => {
                    f.error("dl_reason", lang.t("r.err_dl_reason"));
                    return None;
                }
            }
        }
        "draw" => Entry::Draw,
        "no_result" => Entry::NoResult { clocks: clocks_of(lang, form, f)? },
        "replay" => Entry::Replay { clocks: clocks_of(lang, form, f)? },
        "bye" => Entry::Bye,
        _ => {
            f.error("method", lang.t("err.choice"));
            return None;
        }
    };
    Some(Some(e))
}

/// Read the ruling form: the rulings to add, or messages in `rf`.
pub(in crate::web) fn rulings_from_form(
    lang: Lang,
    form: &Form,
    rules: &rules::RuleSet,
    rf: &mut FormView,
    (zone, day): (EventZone, NaiveDate),
) -> Option<Vec<NewRuling>> {
    let side = side_of(lang, form, rf);
    let move_number = match form.get("move_number").parse::<u32>() {
        Ok(m) if m <= 2000 => Some(m),
        _ => {
            rf.error("move_number", tr!(lang, "err.number_range", min = 0, max = 2000));
            None
        }
    };
    // The wall-clock time, typed in the event's zone on the game's day, stored in UTC.
    let at_time = match form.get("at_time") {
        "" => Some(String::new()),
        t => {
            rf.set("at_time", t);
            typed_time(lang, rf, "at_time", zone, day)
        }
    };
    let stones = stones_of(lang, form, rf);
    let reason = form.get("reason").to_string();
    crate::web::form::check_reason(lang, form, rf);
    let (side, move_number, at_time, stones) = (side?, move_number?, at_time?, stones?);
    if rf.has_errors() {
        return None;
    }
    let rulings = match form.get("offence") {
        "" => kind_ruling(lang, form, rf, side, (move_number, stones))?,
        code => offence_rulings(lang, code, rules, rf, side, (move_number, stones))?,
    };
    Some(
        rulings
            .into_iter()
            .map(|ruling| NewRuling {
                ruling,
                at_time: at_time.clone(),
                reason: reason.clone(),
                pending: false,
            })
            .collect(),
    )
}

/// The side a ruling is against ("" for none), or a message in `rf`.
fn side_of(lang: Lang, form: &Form, rf: &mut FormView) -> Option<Option<Color>> {
    match form.get("against") {
        "" => Some(None),
        s => match rdb::color_from(s) {
            Some(c) => Some(Some(c)),
            None => {
                rf.error("against", lang.t("err.choice"));
                None
            }
        },
    }
}

/// The stones of a penalty or the extra moves of a quota excess (1 when empty), 1–100.
fn stones_of(lang: Lang, form: &Form, rf: &mut FormView) -> Option<u32> {
    match form.get("stones") {
        "" => Some(1),
        s => match s.parse::<u32>() {
            Ok(n) if (1..=100).contains(&n) => Some(n),
            _ => {
                rf.error("stones", tr!(lang, "err.number_range", min = 1, max = 100));
                None
            }
        },
    }
}

/// A ruling chosen by its kind (no offence named): against a side, or both sides.
fn kind_ruling(
    lang: Lang,
    form: &Form,
    rf: &mut FormView,
    side: Option<Color>,
    (move_number, stones): (u32, u32),
) -> Option<Vec<Ruling>> {
    let Some(kind) = kind_from_code(form.get("kind"), stones) else {
        let key = if form.get("kind").is_empty() { "r.err_kind" } else { "err.choice" };
        rf.error("kind", lang.t(key));
        return None;
    };
    match (kind.is_both_sides(), side) {
        // A cycle has nobody at fault (seed 000 Art. 20): naming a side is refused.
        (true, Some(_)) if kind == RulingKind::Cycle => {
            rf.error("against", lang.t("r.err_sideless"));
            None
        }
        (true, _) => Some(vec![Ruling::both(kind, move_number)]),
        (false, Some(c)) => Some(vec![Ruling::against(kind, c, move_number)]),
        (false, None) => {
            rf.error("against", lang.t("r.err_side"));
            None
        }
    }
}

/// The rulings the rule set gives for the offence `code` by `side`.
fn offence_rulings(
    lang: Lang,
    code: &str,
    rules: &rules::RuleSet,
    rf: &mut FormView,
    side: Option<Color>,
    (move_number, stones): (u32, u32),
) -> Option<Vec<Ruling>> {
    let Some(off) = OFFENCES.iter().find(|(c, _)| *c == code).map(|(_, o)| *o) else {
        rf.error("offence", lang.t("err.choice"));
        return None;
    };
    let off = match off {
        Offence::MoveQuotaExcess { .. } => Offence::MoveQuotaExcess { extra_moves: stones },
        o => o,
    };
    // A cycle (seed 000 Art. 20) has nobody at fault: naming a side is refused.
    if side.is_some() && rr::sideless(off, rules) {
        rf.error("against", lang.t("r.err_sideless"));
        return None;
    }
    match rr::rule(off, rules, side, move_number) {
        Some(v) if v.is_empty() => {
            rf.error("offence", lang.t("r.err_no_ruling"));
            None
        }
        Some(v) => Some(v),
        None => {
            rf.error("against", lang.t("r.err_side"));
            None
        }
    }
}

pub(in crate::web) struct PageState {
    pub f: Option<FormView>,
    pub rf: Option<FormView>,
    /// The replay's start form, as typed.
    pub lf: Option<FormView>,
    pub preview: Option<Vec<String>>,
    pub ruling_preview: Option<Vec<String>>,
    pub banner: Option<String>,
    pub notice: Option<String>,
    pub conflict: Option<String>,
}

impl PageState {
    pub fn empty() -> PageState {
        PageState {
            f: None,
            rf: None,
            lf: None,
            preview: None,
            ruling_preview: None,
            banner: None,
            notice: None,
            conflict: None,
        }
    }

    /// The page's state for a form with errors next to its fields.
    pub fn with_errors(lang: Lang) -> PageState {
        PageState { banner: Some(lang.t("form.has_errors").to_string()), ..PageState::empty() }
    }
}

/// What the sheet says about the colours: the seats' labels, who plays Black when a nigiri
/// decided it, the note of a nigiri still to be done or of swapped colours.
pub(in crate::web) struct ColoursView {
    black_label: String,
    white_label: String,
    colours: Option<String>,
    nigiri_note: Option<String>,
    swapped_note: Option<String>,
}

pub(in crate::web) fn colours_view(lang: Lang, s: &Sheet) -> ColoursView {
    let name = |e: &Option<EntrantRow>| e.as_ref().map(|e| display_name(e, lang.is_zh())).unwrap_or_default();
    let (black, white) = (name(&s.black), name(&s.white));
    let pending = s.nigiri_pending();
    let (black_label, white_label) = match pending {
        Some(_) => (lang.t("r.guesser"), lang.t("r.holder")),
        None => (lang.t("r.black"), lang.t("r.white")),
    };
    let decided_by_nigiri = s.game.nigiri_state().is_some_and(|n| n.record.is_some());
    ColoursView {
        black_label: black_label.to_string(),
        white_label: white_label.to_string(),
        colours: decided_by_nigiri.then(|| tr!(lang, "r.colours_nigiri", black)),
        nigiri_note: pending.map(|_| tr!(lang, "r.nigiri_pending", holder = white, guesser = black)),
        swapped_note: s.game.played_swapped.then(|| tr!(lang, "r.swapped_note", black, white)),
    }
}

/// The replay's start form: its own start and the players' arrivals (`starts_at`,
/// `arr_<entrant id>`), filled from the sheet unless typed values are given.
pub(in crate::web) fn replay_start_form(
    s: &Sheet,
    zone: EventZone,
    typed: Option<FormView>,
) -> Option<(ReplayStart, FormView)> {
    if !s.game.is_replay() {
        return None;
    }
    let key = |id: Option<i32>| format!("arr_{}", id.unwrap_or(0));
    let (b, w) = (s.black.as_ref().map(|e| e.id), s.white.as_ref().map(|e| e.id));
    let mut lf = FormView::default();
    lf.set(
        "starts_at",
        s.result.as_ref().and_then(|r| r.starts_at.as_deref()).map(|t| zone.time(t)).unwrap_or_default(),
    );
    for id in [b, w].into_iter().flatten() {
        lf.set(&key(Some(id)), s.own_arrivals.get(&id).map(|t| zone.time(t)).unwrap_or_default());
    }
    let lf = match typed {
        Some(mut t) => {
            for (k, v) in lf.vals {
                t.vals.entry(k).or_insert(v);
            }
            t
        }
        None => lf,
    };
    let resumed = s.result.as_ref().is_some_and(|r| r.resumed);
    Some((ReplayStart { black_key: key(b), white_key: key(w), resumed }, lf))
}

/// The title of a game's sheet: "Round 3, table 12" (the table's hall number).
pub(in crate::web) fn game_title(lang: Lang, s: &Sheet, hall_first: i32) -> String {
    tr!(lang, "r.game_title", round = s.game.round_number, board = hall_table(hall_first, s.game.board))
}

/// A game's sheet (`templates/game.html`) from what [`load`](crate::web::results::load) read
/// and the state of the forms.
/// The lateness of both players against the round's start, with the rulings it calls for
/// that are not entered yet (Art. on lateness: ≤ 60 min plays with twice the time deducted).
fn lateness_view(lang: Lang, l: &Loaded) -> Option<LatenessView> {
    let s = &l.sheet;
    let round_start = l.start.as_ref().map(|r| r.starts_at.as_str());
    let g = rdb::game_lateness(&l.settings, s, round_start, &l.arrived)?;
    Some(LatenessView {
        start: rdb::lateness_start(s, round_start).map(|t| l.settings.time_zone.time(&t)).unwrap_or_default(),
        black: verdict_text(lang, &g.black),
        white: verdict_text(lang, &g.white),
        pending: rdb::lateness_unrecorded(&l.settings, s, round_start, &l.arrived)
            .iter()
            .map(|x| ruling_text(lang, x))
            .collect(),
    })
}

/// The attached game record: its name, check report, and whether its count differs from the
/// count entered.
fn sgf_view(lang: Lang, l: &Loaded) -> Option<SgfView> {
    let s = &l.sheet;
    let name = s.result.as_ref()?.sgf_name.clone()?;
    let report = l.sgf_report.as_ref();
    let entered = s.entry().and_then(|e| match e {
        Entry::Count { black_halves, .. } => Some(black_halves),
        _ => None,
    });
    Some(SgfView {
        name,
        count_differs: matches!((report, entered), (Some(p), Some(b)) if p.black_halves != b),
        position_differs: l.position_halves.and_then(|h| super::count::typed_differs(lang, s, h)),
        report: report.map(|p| SgfReportView::new(lang, p)),
    })
}

/// The clocks a resumed game was stopped at.
fn clocks_text(lang: Lang, r: &rdb::ResultRow) -> String {
    let c = |v: Option<i32>| v.and_then(|v| u32::try_from(v).ok()).map(hms).unwrap_or_else(|| "—".into());
    tr!(lang, "r.clocks", black = c(r.clock_black_secs), white = c(r.clock_white_secs))
}

/// The penalty stones and warnings of both sides, when there are any.
fn penalties_text(lang: Lang, r: &rdb::ResultRow) -> String {
    if r.penalty_black + r.penalty_white + r.warnings_black + r.warnings_white == 0 {
        return String::new();
    }
    tr!(
        lang,
        "r.penalties",
        penalty_black = r.penalty_black,
        penalty_white = r.penalty_white,
        warnings_black = r.warnings_black,
        warnings_white = r.warnings_white
    )
}

/// The game's rulings as lines of the page, times in the event's zone.
fn ruling_lines(lang: Lang, l: &Loaded) -> Vec<RulingLine> {
    let side = |against: Option<&str>| match against {
        Some("black") => lang.t("r.black").to_string(),
        Some("white") => lang.t("r.white").to_string(),
        _ => lang.t("r.both_sides").to_string(),
    };
    l.sheet
        .rulings
        .iter()
        .map(|x| RulingLine {
            id: x.id,
            move_number: x.move_number,
            at_time: l.settings.time_zone.time(&x.at_time),
            side: side(x.against.as_deref()),
            text: x.kind().map(|k| kind_label_full(lang, &k)).unwrap_or_default(),
            reason: x.reason.clone(),
            arbiter: x.arbiter.clone(),
            pending: x.pending,
            confirmed: x
                .confirmed_by
                .as_ref()
                .map(|c| tr!(lang, "r.confirmed_by_chief", chief = c))
                .unwrap_or_default(),
        })
        .collect()
}

pub(in crate::web) fn build_page(lang: Lang, c: Chrome, l: Loaded, st: PageState) -> GamePage {
    let s = &l.sheet;
    let r = s.result.as_ref();
    let computed = s.compute(&l.settings).ok();
    let f = st.f.unwrap_or_else(|| entry_form(s.entry()));
    let mut rf = st.rf.unwrap_or_default();
    if rf.v("move_number").is_empty() {
        rf.set("move_number", "0");
    }
    let lateness = lateness_view(lang, &l);
    let (replay_start, lf) = match replay_start_form(s, l.settings.time_zone, st.lf) {
        Some((rs, lf)) => (Some(rs), lf),
        None => (None, FormView::default()),
    };
    let sgf = sgf_view(lang, &l);
    let clocks = r.filter(|r| r.resumed).map(|r| clocks_text(lang, r)).unwrap_or_default();
    let komi_q = l.settings.ruleset.scoring(s.handicap(), 0, 0).komi_q;
    let cv = colours_view(lang, s);
    let names = |e: &Option<EntrantRow>| e.as_ref().map(|e| display_name(e, lang.is_zh()));
    let (bn, wn) = (names(&s.black), names(&s.white));
    let opt = result_options(
        lang,
        bn.as_deref()
            .zip(wn.as_deref())
            .map(|(b, w)| [(cv.black_label.as_str(), b), (cv.white_label.as_str(), w)]),
    );
    GamePage {
        c,
        tid: l.t.id,
        gid: s.game.id,
        round: s.game.round_number,
        board: hall_table(l.hall_first, s.game.board),
        black: player_box(lang, &s.black),
        white: player_box(lang, &s.white),
        black_label: cv.black_label,
        white_label: cv.white_label,
        colours: cv.colours,
        nigiri_note: cv.nigiri_note,
        swapped_note: cv.swapped_note,
        handicap: s.game.handicap,
        komi: komi_conversion(lang, komi_q),
        version: s.version(),
        pv: s.game.pairing_version,
        result: s.outcome().map(|o| lang.game_result(&o)),
        entered: r
            .and_then(|r| {
                let at = lang.in_zone(&l.settings.time_zone, r.entered_at.as_ref()?);
                Some(tr!(lang, "r.entered_by", user = r.entered_by.as_ref()?, at))
            })
            .unwrap_or_default(),
        locked: s.locked(),
        confirmed: r.map_or([false; 3], |r| [r.confirmed_black, r.confirmed_white, r.confirmed_arbiter]),
        is_chief: l.is_chief,
        replay_of: s.game.replay_of,
        replay_game: s.replay_game,
        replay_start,
        lf,
        clocks,
        f,
        rf,
        opt,
        preview: st.preview,
        ruling_preview: st.ruling_preview,
        rulings: ruling_lines(lang, &l),
        effects: computed.as_ref().map(|c| effects(lang, c)).unwrap_or_default(),
        banner: st.banner,
        notice: st.notice,
        conflict: st.conflict,
        lateness,
        sgf,
        penalties: r.map(|r| penalties_text(lang, r)).unwrap_or_default(),
        published: s.published,
        proposals: s.proposals().count(),
    }
}

/// The other's entry, for a refused stale save.
pub(in crate::web) fn conflict_text(lang: Lang, zone: EventZone, s: &Sheet) -> String {
    let r = s.result.as_ref();
    let who = r.and_then(|r| r.entered_by.clone()).unwrap_or_else(|| "?".into());
    let when = r.map(|r| lang.in_zone(&zone, &r.updated_at)).unwrap_or_default();
    let what =
        s.outcome().map(|o| lang.game_result(&o)).unwrap_or_else(|| lang.t("r.no_result_yet").to_string());
    tr!(lang, "r.conflict", user = who, when, what, count = s.rulings.len())
}

/// A time of day typed at the venue on `day`, as stored UTC text; a time that cannot be read
/// or that the day skips (daylight saving) is an error beside its field.
pub(in crate::web) fn typed_time(
    lang: Lang,
    f: &mut FormView,
    key: &str,
    zone: EventZone,
    day: NaiveDate,
) -> Option<String> {
    let v = f.v(key).to_string();
    match zone.store_time_of_day(day, &v) {
        Ok(s) => Some(s),
        Err(NoSuchTime::Unreadable) => {
            f.error(key, lang.t("r.err_time_of_day"));
            None
        }
        Err(NoSuchTime::Skipped) => {
            f.error(key, lang.t("tz.err_skipped"));
            None
        }
    }
}

pub struct GameItem {
    pub id: i32,
    pub board: i32,
    pub black: String,
    pub white: String,
    pub result: String,
    pub locked: bool,
    /// The game this one replays (重赛): labelled, linked, and without the round's lateness.
    pub replay_of: Option<i32>,
    /// The lateness sheet's line for a replay (its own start is on its sheet).
    pub replay_note: String,
    /// Played with the colours swapped: `black`/`white` are the players as they sat.
    pub swapped: bool,
    /// Lateness on this round's sheet: the arrival inputs' values and verdicts.
    pub black_id: i32,
    pub white_id: i32,
    /// The arrival fields' names ("arr_<entrant id>").
    pub black_key: String,
    pub white_key: String,
    pub black_arrival: String,
    pub white_arrival: String,
    pub black_verdict: String,
    pub white_verdict: String,
    /// The lateness verdict the sheet shows and the game has not recorded (seed 000 Arts.
    /// 22.1, 22.3): flagged on the results list, recorded from the lateness sheet.
    pub pending: bool,
    /// Rulings proposed by a plain arbiter and waiting for the chief arbiter (seed 000 Arts.
    /// 17.5, 17.6): counted in no result yet.
    pub proposals: usize,
    /// The sheet's line of what recording it adds: "Table 3, 甲 – 乙: Black: loss (lateness)…".
    pub pending_text: String,
    pub version: i32,
}

#[derive(Template)]
#[template(path = "results_round.html")]
pub struct RoundPage {
    pub c: Chrome,
    pub tid: i32,
    pub round: i32,
    pub games: Vec<GameItem>,
    pub lateness: bool,
    pub start: String,
    pub late_version: i32,
    pub policy: String,
    pub control: String,
    pub f: FormView,
    pub banner: Option<String>,
    pub notice: Option<String>,
    /// This page's games (`pager`: which of how many; the lateness form saves only these).
    pub pager: Pager,
    /// Games of this page whose lateness verdict is not recorded (the sheet records them).
    pub awaiting: usize,
}

/// Tables a page of a round's results list and lateness sheet lists (a round
/// of 5,000 tables was one form of 10,000 arrival fields).
pub const TABLES_PER_PAGE: usize = 200;

/// The lines a round's page lists: every game, or on the lateness sheet the games with two
/// players (byes have no lateness).
pub(in crate::web) fn listed(lines: Vec<rdb::GameLine>, lateness: bool) -> Vec<rdb::GameLine> {
    lines
        .into_iter()
        .filter(|l| !lateness || (l.game.black_id.is_some() && l.game.white_id.is_some()))
        .collect()
}

/// The page of a round's list to show: the one asked for, or, when a posted arrival was
/// refused, the page of the first game with a refused field (its typed entry and message must be
/// in view).
pub(in crate::web) fn page_of(lines: &[rdb::GameLine], f: Option<&FormView>, asked: usize) -> usize {
    let refused = f.and_then(|f| {
        lines.iter().position(|l| {
            [l.game.black_id, l.game.white_id]
                .into_iter()
                .flatten()
                .any(|i| f.err(&format!("arr_{i}")).is_some())
        })
    });
    refused.map_or(asked, |i| i / TABLES_PER_PAGE + 1)
}

/// What a round's results list or lateness sheet is made from: this page's lines (`pager`), the
/// event's entrants, the round's start and arrivals, and on the lateness sheet each line's sheet.
pub(in crate::web) struct RoundLoaded {
    pub t: TournamentRow,
    pub lines: Vec<rdb::GameLine>,
    pub names: HashMap<i32, EntrantRow>,
    pub start: Option<RoundTime>,
    pub arrived: HashMap<i32, String>,
    pub sheets: Vec<Sheet>,
    pub pager: Pager,
    /// The hall number of the round's table 1.
    pub hall_first: i32,
}

/// What every row of a round's sheet reads.
struct SheetContext<'a> {
    lang: Lang,
    settings: &'a crate::domain::settings::TournamentSettings,
    start: &'a Option<RoundTime>,
    arrived: &'a HashMap<i32, String>,
    names: &'a HashMap<i32, EntrantRow>,
    hall_first: i32,
}

impl SheetContext<'_> {
    fn name(&self, id: Option<i32>) -> String {
        id.and_then(|i| self.names.get(&i))
            .map(|e| display_name(e, self.lang.is_zh()))
            .unwrap_or_else(|| self.lang.t("r.bye").to_string())
    }

    fn arrival(&self, id: Option<i32>) -> String {
        id.and_then(|i| self.arrived.get(&i)).map(|a| self.settings.time_zone.time(a)).unwrap_or_default()
    }

    /// One game's row: players as they sat, result, arrivals (also put in `fv`, the form's
    /// stored values) and lateness verdicts; a replay has no inputs (its arrivals are its own).
    fn game_item(&self, l: &rdb::GameLine, sheet: Option<&Sheet>, fv: &mut FormView) -> GameItem {
        let (lang, g, zone) = (self.lang, &l.game, self.settings.time_zone);
        let replay = g.is_replay();
        let start = self.start.as_ref().map(|r| r.starts_at.as_str());
        let lat = sheet.and_then(|s| rdb::game_lateness(self.settings, s, start, self.arrived));
        let (black, white) = l.played();
        if !replay {
            for i in [black, white].into_iter().flatten() {
                fv.set(&format!("arr_{i}"), self.arrival(Some(i)));
            }
        }
        let unrecorded = sheet
            .map(|s| rdb::lateness_unrecorded(self.settings, s, start, self.arrived))
            .unwrap_or_default();
        let replay_note = match (replay, sheet.and_then(|s| rdb::lateness_start(s, None))) {
            (false, _) => String::new(),
            (true, Some(at)) => tr!(lang, "late.replay_row", time = zone.time(&at)),
            (true, None) => lang.t("late.replay_row_unset").to_string(),
        };
        let shown = |id: Option<i32>| if replay { String::new() } else { self.arrival(id) };
        let board = hall_table(self.hall_first, g.board);
        GameItem {
            id: g.id,
            board,
            black: self.name(black),
            white: self.name(white),
            result: l
                .outcome()
                .map(|o| lang.game_result(&o))
                .or_else(|| imported_text(lang, &g.result))
                .unwrap_or_default(),
            locked: l.result.as_ref().is_some_and(|r| r.locked),
            replay_of: g.replay_of,
            replay_note,
            swapped: g.played_swapped,
            black_id: if replay { 0 } else { black.unwrap_or(0) },
            white_id: if replay { 0 } else { white.unwrap_or(0) },
            black_key: format!("arr_{}", black.unwrap_or(0)),
            white_key: format!("arr_{}", white.unwrap_or(0)),
            black_arrival: shown(black),
            white_arrival: shown(white),
            black_verdict: lat.as_ref().map(|x| verdict_text(lang, &x.black)).unwrap_or_default(),
            white_verdict: lat.as_ref().map(|x| verdict_text(lang, &x.white)).unwrap_or_default(),
            pending: !unrecorded.is_empty(),
            proposals: sheet.map_or(0, |s| s.proposals().count()),
            pending_text: tr!(
                lang,
                "late.record_line",
                board,
                black = self.name(black),
                white = self.name(white),
                rulings = unrecorded
                    .iter()
                    .map(|r| ruling_text(lang, r))
                    .collect::<Vec<_>>()
                    .join(lang.t("audit.list_sep")),
            ),
            version: l.result.as_ref().map_or(0, |r| r.version),
        }
    }
}

/// A round's results list or (`lateness`) lateness sheet (`templates/results_round.html`): the
/// page's games with results, arrivals and verdicts; the form keeps `f`'s typed values over the
/// stored ones.
pub(in crate::web) fn round_sheet(
    lang: Lang,
    c: Chrome,
    (round, lateness): (i32, bool),
    l: RoundLoaded,
    (f, banner, notice): (Option<FormView>, Option<String>, Option<String>),
) -> RoundPage {
    let RoundLoaded { t, lines, names, start, arrived, sheets, pager, hall_first } = l;
    let settings = t.settings();
    let sheet_of: HashMap<i32, &Sheet> = sheets.iter().map(|s| (s.game.id, s)).collect();
    let zone = settings.time_zone;
    let start_text = start.as_ref().map(|r| zone.time(&r.starts_at)).unwrap_or_default();
    let mut fv = FormView::default();
    fv.set("starts_at", &start_text);
    let cx = SheetContext {
        lang,
        settings: &settings,
        start: &start,
        arrived: &arrived,
        names: &names,
        hall_first,
    };
    let games: Vec<GameItem> =
        lines.iter().map(|l| cx.game_item(l, sheet_of.get(&l.game.id).copied(), &mut fv)).collect();
    let awaiting = games.iter().filter(|g| g.pending).count();
    let f = match f {
        Some(mut posted) => {
            for (k, v) in fv.vals {
                posted.vals.entry(k).or_insert(v);
            }
            posted
        }
        None => fv,
    };
    let page = RoundPage {
        c,
        tid: t.id,
        round,
        games,
        lateness,
        start: start_text,
        late_version: start.as_ref().map_or(0, |r| r.version),
        policy: lang.lateness_policy(&settings.lateness),
        control: lang.time_control(&settings.time_control),
        f,
        banner,
        notice,
        pager,
        awaiting,
    };
    page
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Labels built from codes (methods, offences, imported results) are in the catalog.
    #[test]
    fn every_built_label_is_in_the_catalog() {
        for lang in [Lang::En, Lang::Zh] {
            let o = result_options(lang, Some([("黑方", "甲"), ("白方", "乙")]));
            for (code, label) in o.methods.iter().chain(&o.offences).chain(&o.kinds).chain(&o.dl_reasons) {
                assert!(!label.starts_with("r.") && !label.starts_with("offence."), "{code}: {label}");
            }
            for code in ["RESULT_BLACKWINS", "RESULT_WHITEWINS_BYDEF", "RESULT_EQUAL", "RESULT_BOTHLOSE"] {
                let t = imported_text(lang, code).unwrap_or_default();
                assert!(!t.is_empty() && !t.starts_with("r.og"), "{code}: {t}");
            }
        }
        assert!(crate::web::i18n::has_key("late.title") && crate::web::i18n::has_key("r.round_title"));
    }

    /// Nothing that decides a game is preselected: each deciding select starts on "".
    #[test]
    fn deciding_selects_start_on_an_empty_choice() {
        for lang in [Lang::En, Lang::Zh] {
            let o = result_options(lang, None);
            for (name, opts) in
                [("method", &o.methods), ("winner", &o.winners), ("dl", &o.dl_reasons), ("kind", &o.kinds)]
            {
                assert_eq!(opts[0].0, "", "{name}");
                assert_eq!(opts.iter().filter(|x| x.0.is_empty()).count(), 1, "{name}");
            }
            assert!(o.methods.iter().any(|m| m.0 == "clear"), "clearing is its own choice");
        }
    }

    #[test]
    fn every_refusal_has_words_in_both_languages() {
        let w = Ruling::against(RulingKind::Warning, Color::Black, 120);
        let decided = rr::GameResult::loss_of(Color::Black, LossReason::Warnings);
        let all = [
            ResultError::CountAbovePoints { points: 361 },
            ResultError::CountsDisagree { points: 361 },
            ResultError::ByeNeedsOnePlayer,
            ResultError::OnlyByeForOnePlayer,
            ResultError::Ruling(rr::RulingError::Zero { index: 0 }),
            ResultError::RulingDecides { ruling: Some(w), decided },
            ResultError::RulingDecides { ruling: None, decided },
            ResultError::NigiriPending { entry: true },
            ResultError::NigiriPending { entry: false },
        ];
        for lang in [Lang::En, Lang::Zh] {
            for e in &all {
                let m = result_message(lang, e);
                assert!(!m.is_empty() && !m.contains("r.err") && !m.contains('{'), "{e:?}: {m}");
            }
        }
        let zh = result_message(Lang::Zh, &all[5]);
        assert!(zh.contains("第120手 黑方：警告") && zh.contains("白胜"), "{zh}");
    }

    #[test]
    fn ruling_kinds_round_trip_through_their_codes() {
        for k in catalogue() {
            let code = kind_code(&k);
            assert!(!code.is_empty(), "{k:?}");
            assert_eq!(kind_from_code(&code, 1), Some(k), "{code}");
        }
        assert_eq!(kind_from_code("penalty_stones", 3), Some(RulingKind::PenaltyStones { stones: 3 }));
        assert_eq!(
            kind_from_code("loss.lateness", 1),
            Some(RulingKind::Loss { reason: LossReason::Lateness })
        );
        assert_eq!(kind_from_code("nonsense", 1), None);
        let codes: std::collections::HashSet<String> = catalogue().iter().map(kind_code).collect();
        assert_eq!(codes.len(), catalogue().len(), "codes are unique");
    }
}
