//! The words the pages are made of: names, ranks, results, scores, komi, warnings, team
//! records, in the reader's language. A leaf: it imports no handler, so that handlers and views
//! both take their words from here.

use crate::db::entrants::{self as edb, EntrantRow};
use crate::db::rounds as rdb;
use crate::db::team_matches::MatchRow;
use crate::db::teams::TeamRow;
use crate::db::tournaments::TournamentRow;
use crate::domain::entrant::Rank;
use crate::domain::pairing::avoid::Barrier;
use crate::domain::pairing::review::Warning;
use crate::domain::pairing::{Colour, PlayerId};
use crate::domain::settings::{HandicapBasis, System, TieBreak, TournamentSettings};
use crate::domain::team::event::{Format, TeamSettings};
use crate::domain::team::roster::Team;
use crate::i18n::tr;
use crate::i18n::Lang;
use rules::board::Color;
use rules::rulings::{Ruling, RulingKind};
use std::collections::HashMap;

/// An entrant's name in the reader's script (`zh`), the other one when it is missing.
pub fn display_name(e: &EntrantRow, zh: bool) -> String {
    let (zh_name, latin) = (e.name_zh(), e.name_latin());
    match (zh, zh_name.is_empty(), latin.is_empty()) {
        (true, false, _) | (false, false, true) => zh_name,
        _ => latin,
    }
}

/// Rank as shown to a reader.
pub fn rank_text(lang: Lang, code: &str) -> String {
    match edb::rank_from_code(code) {
        Some(r) => lang.rank(r),
        None => code.to_string(),
    }
}

/// Names, ranks and pairing numbers of a tournament's entrants (all of them, so the numbers
/// are [`rdb::pairing_numbers`]) by pairing id.
pub struct Names {
    map: HashMap<PlayerId, (String, String)>,
    numbers: HashMap<PlayerId, u32>,
    by_number: HashMap<u32, PlayerId>,
}

impl Names {
    pub fn new(lang: Lang, entrants: &[EntrantRow]) -> Names {
        let numbers: HashMap<PlayerId, u32> =
            rdb::pairing_numbers(entrants).into_iter().map(|(id, n)| (rdb::pid(id), n)).collect();
        Names {
            map: entrants
                .iter()
                .map(|e| (rdb::pid(e.id), (display_name(e, lang.is_zh()), rank_text(lang, &e.rank))))
                .collect(),
            by_number: numbers.iter().map(|(id, n)| (*n, *id)).collect(),
            numbers,
        }
    }
    pub fn name(&self, id: PlayerId) -> String {
        self.map.get(&id).map(|x| x.0.clone()).unwrap_or_else(|| format!("#{id}"))
    }
    pub fn rank(&self, id: PlayerId) -> String {
        self.map.get(&id).map(|x| x.1.clone()).unwrap_or_default()
    }
    pub fn number(&self, id: PlayerId) -> u32 {
        self.numbers.get(&id).copied().unwrap_or(0)
    }
    /// "12 张伟": the player with pairing number `n`, as a lot's candidates are shown.
    pub fn numbered(&self, n: u32) -> String {
        match self.by_number.get(&n) {
            Some(id) => format!("{n} {}", self.name(*id)),
            None => n.to_string(),
        }
    }
}

/// Half points as shown: 4 → "2", 3 → "1.5".
pub fn half_points(p: i32) -> String {
    let sign = if p < 0 { "-" } else { "" };
    let a = p.unsigned_abs();
    if a.is_multiple_of(2) {
        format!("{sign}{}", a / 2)
    } else {
        format!("{sign}{}.5", a / 2)
    }
}

/// A round's system in the reader's language (an imported round's own words).
pub fn system_name(lang: Lang, code: &str) -> String {
    match System::from_code(code) {
        Some(s) => lang.t(&format!("system.{}", s.code())).to_string(),
        None => lang.t("round.system_import").to_string(),
    }
}

pub fn colour_name(lang: Lang, c: Colour) -> &'static str {
    match c {
        Colour::Black => lang.t("colour.black"),
        Colour::White => lang.t("colour.white"),
    }
}

/// A stored result code (OpenGotha's, as the import stores them) as shown; a bye, a forfeit.
pub fn result_text(lang: Lang, code: &str) -> String {
    let code = code.trim();
    let (base, forfeit) = match code.strip_suffix("_BYDEF") {
        Some(b) => (b, true),
        None => (code, false),
    };
    let text = match base {
        "" | "RESULT_UNKNOWN" => return String::new(),
        rdb::BYE_RESULT => lang.t("res.bye"),
        "RESULT_BLACKWINS" => lang.t("res.black_wins"),
        "RESULT_WHITEWINS" => lang.t("res.white_wins"),
        "RESULT_EQUAL" => lang.t("res.draw"),
        "RESULT_BOTHLOSE" => lang.t("res.double_loss"),
        "RESULT_BOTHWIN" => lang.t("res.both_win"),
        other => return other.to_string(),
    };
    if forfeit {
        format!("{text} ({})", lang.t("res.forfeit"))
    } else {
        text.to_string()
    }
}

/// A review warning in the reader's language.
pub fn warning_text(lang: Lang, w: &Warning, names: &Names) -> String {
    let n = |id: PlayerId| names.name(id);
    match w {
        Warning::Rematch { table, a, b, times } => {
            tr!(lang, "warn.rematch", table, player = n(*a), opponent = n(*b), times)
        }
        Warning::SameUnit { table, a, b, unit } => {
            tr!(lang, "warn.same_unit", table, player = n(*a), opponent = n(*b), unit)
        }
        Warning::Forbidden { table, a, b, why } => match why {
            Barrier::Listed { label } => {
                tr!(lang, "warn.forbidden", table, player = n(*a), opponent = n(*b), label = label.as_str())
            }
            Barrier::SameUnit { unit } => {
                tr!(
                    lang,
                    "warn.forbidden_unit",
                    table,
                    player = n(*a),
                    opponent = n(*b),
                    unit = unit.as_str()
                )
            }
        },
        Warning::ThirdSameColour { table, player, colour } => {
            tr!(lang, "warn.third_colour", table, player = n(*player), colour = colour_name(lang, *colour))
        }
        Warning::LargeScoreGap { table, a, b, gap } => {
            tr!(lang, "warn.score_gap", table, player = n(*a), opponent = n(*b), gap = half_points(*gap))
        }
        Warning::LargeHandicap { table, handicap } => tr!(lang, "warn.handicap", table, handicap),
        Warning::HandicapNotRule { table, handicap, rule } => {
            tr!(lang, "warn.handicap_rule", table, handicap, rule)
        }
        Warning::PairedTwice { player } => tr!(lang, "warn.paired_twice", player = n(*player)),
        Warning::NotPaired { player } => tr!(lang, "warn.not_paired", player = n(*player)),
        Warning::InactivePaired { player } => tr!(lang, "warn.inactive", player = n(*player)),
        Warning::UnknownPlayer { player } => tr!(lang, "warn.unknown", number = player),
        Warning::OpenGames { round, games } => tr!(lang, "warn.open_games", games, round),
        Warning::ByeProblem { detail } => {
            if detail.starts_with("odd") {
                lang.t("warn.bye_missing").to_string()
            } else if detail.starts_with("even") {
                lang.t("warn.bye_extra").to_string()
            } else {
                let who = detail.split_whitespace().next().and_then(|x| x.parse::<u32>().ok());
                tr!(lang, "warn.bye_again", player = who.map(n).unwrap_or_default())
            }
        }
    }
}

/// The text of an imported OpenGotha result: the documents' own words.
pub use crate::office::print_data::imported_text;

/// Komi in quarter stones as typed in the form: 15 → "3.75" (the inverse of `parse_quarters`).
pub use rules::outcome::quarters_decimal as quarters_text;

/// Komi in both units, as the form echoes it: "3¾子 = 7.5目" / "3¾ stones = 7.5 points".
pub fn komi_conversion(lang: Lang, q: i32) -> String {
    use rules::outcome::{half_points_text, quarters_text as stones};
    let sign = if q < 0 { "-" } else { "" };
    let a = q.unsigned_abs();
    tr!(
        lang,
        "t.komi_conversion",
        stones = format!("{sign}{}", stones(a)),
        points = format!("{sign}{}", half_points_text(a)),
    )
}

/// The tournament is a team event (its pages are the team pages).
pub fn is_team_event(t: &TournamentRow) -> bool {
    t.system == System::TeamRelay.code()
}

/// A match outcome as a line: "3 : 0", with game points for board matches.
pub fn record_text(lang: Lang, m: &MatchRow) -> String {
    if m.is_bye() {
        return lang.t("team.bye").to_string();
    }
    match m.record() {
        None => String::new(),
        Some(r) if m.boards > 0 => tr!(
            lang,
            "team.record_boards",
            game_black = r.game_points[0],
            game_white = r.game_points[1],
            match_black = r.match_points[0],
            match_white = r.match_points[1],
        ),
        Some(r) => tr!(lang, "team.record_relay", black = r.match_points[0], white = r.match_points[1]),
    }
}

/// The warning about teams too short to play the event's matches, if any.
pub fn short_warning<'a>(
    lang: Lang,
    s: &TeamSettings,
    teams: impl IntoIterator<Item = (&'a TeamRow, &'a Team)>,
) -> Option<String> {
    let teams: Vec<(&TeamRow, &Team)> = teams.into_iter().collect();
    let short = s.short_teams(teams.iter().map(|(_, t)| *t));
    if short.is_empty() {
        return None;
    }
    let list = short
        .iter()
        .filter_map(|(id, n)| {
            teams
                .iter()
                .find(|(_, t)| t.id == *id)
                .map(|(r, _)| tr!(lang, "team.short_item", team = r.name, count = n))
        })
        .collect::<Vec<_>>()
        .join(lang.t("team.list_sep"));
    let need = match s.format {
        Format::Relay => tr!(lang, "team.need_relay", players = s.players_needed()),
        Format::Boards => tr!(lang, "team.need_boards", players = s.players_needed()),
    };
    Some(tr!(lang, "team.short_warning", teams = list, need))
}

/// The flag of a relay event that keeps the individual rules (its matches use seed 003's).
pub fn rules_flag(lang: Lang, s: &TeamSettings, t: &TournamentRow) -> Option<String> {
    let rules = t.settings().ruleset;
    s.keeps_individual_rules(&rules).then(|| {
        let name = lang.rule_set(rules.preset);
        let komi = |q| quarters_text(q);
        tr!(
            lang,
            "team.rules_flag",
            preset = name,
            komi = komi(rules.komi_q),
            relay_komi = komi(s.game_rules(&rules).komi_q)
        )
    })
}

/// Team names by row id.
pub fn team_names(teams: &[TeamRow]) -> HashMap<i32, String> {
    teams.iter().map(|t| (t.id, t.name.clone())).collect()
}

/// The settings an overview states, as text in the reader's language (the overview page and
/// the OpenGotha import preview show the same lines).
pub struct SettingsText {
    pub system: String,
    pub ruleset: String,
    pub komi: String,
    pub time_control: String,
    pub lateness: String,
    /// McMahon events: bar and floor.
    pub mcmahon: Option<String>,
    /// The handicap rule, when the event gives handicaps.
    pub handicap: Option<String>,
    /// The tie-break order in words.
    pub tiebreaks: String,
}

/// A tie-break order in words: "积分 → 对手分 → …" / "McMahon score → …".
pub fn tiebreak_order(lang: Lang, tiebreaks: &[TieBreak]) -> String {
    tiebreaks.iter().map(|tb| lang.t(&format!("tb.{}", tb.code()))).collect::<Vec<_>>().join(" → ")
}

pub fn settings_text(lang: Lang, s: &TournamentSettings) -> SettingsText {
    let rank = |r: Rank| lang.rank(r);
    let mm = &s.pairing.mcmahon;
    let mcmahon = (s.system == System::McMahon)
        .then(|| tr!(lang, "t.mcmahon_bands", bar = rank(mm.bar), floor = rank(mm.floor)));
    let h = &s.pairing.handicap;
    let handicap = (h.basis != HandicapBasis::None).then(|| {
        let basis = lang.t(&format!("handicap_basis.{}", h.basis.code())).to_string();
        let mut text = tr!(lang, "t.handicap_rule", basis, reduction = h.reduction, max = h.max);
        if h.none_at_bar {
            text.push_str(lang.t("t.handicap_rule_bar"));
        }
        text
    });
    SettingsText {
        system: lang.t(&format!("system.{}", s.system.code())).to_string(),
        ruleset: lang.rule_set(s.ruleset.preset).to_string(),
        komi: komi_conversion(lang, s.ruleset.komi_q),
        time_control: lang.time_control(&s.time_control),
        lateness: lang.lateness_policy(&s.lateness),
        mcmahon,
        handicap,
        tiebreaks: tiebreak_order(lang, &s.tiebreaks),
    }
}

/// A ruling as a line: its kind, the side it is against and the move (the game page, the
/// audit page).
pub(in crate::web) fn ruling_text(lang: Lang, r: &Ruling) -> String {
    let kind = lang.ruling_kind(r.kind);
    let side = match r.against {
        Some(c) => lang.t(if c == Color::Black { "r.black" } else { "r.white" }).to_string(),
        None => lang.t("r.both_sides").to_string(),
    };
    tr!(lang, "r.ruling_line", kind, side, move = r.move_number)
}

/// A ruling's kind in full words.
pub(in crate::web) fn kind_label_full(lang: Lang, k: &RulingKind) -> String {
    lang.ruling_kind(*k)
}

/// A stored table number (`games.board`; 0 for a bye) as the pages show it: its hall number,
/// its round's table 1 being `hall_first` ([`crate::domain::hall::hall_number`]).
pub fn hall_table(hall_first: i32, board: i32) -> i32 {
    i32::try_from(crate::domain::hall::hall_number(hall_first, u32::try_from(board).unwrap_or(0)))
        .unwrap_or(board)
}

/// A rating after the event as pages show it (EGF GoR, whole points, `domain::gor::whole`):
/// the rating after and the change signed, "2134（+12）" / "2134 (+12)".
pub fn gor_text(lang: Lang, c: &crate::db::rating_changes::RatingChange) -> String {
    use crate::domain::gor::whole;
    let change = whole(i64::from(c.rating_after) - i64::from(c.rating_before));
    let change = if change > 0 { format!("+{change}") } else { change.to_string().replace('-', "−") };
    tr!(lang, "gor.after_change", after = whole(c.rating_after.into()).to_string(), change)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_warning_and_result_has_words() {
        let names = Names { map: HashMap::new(), numbers: HashMap::new(), by_number: HashMap::new() };
        for lang in [Lang::En, Lang::Zh] {
            for w in [
                Warning::Rematch { table: 1, a: 1, b: 2, times: 1 },
                Warning::SameUnit { table: 1, a: 1, b: 2, unit: "A".into() },
                Warning::ThirdSameColour { table: 1, player: 1, colour: Colour::Black },
                Warning::LargeScoreGap { table: 1, a: 1, b: 2, gap: 8 },
                Warning::LargeHandicap { table: 1, handicap: 6 },
                Warning::PairedTwice { player: 1 },
                Warning::NotPaired { player: 1 },
                Warning::InactivePaired { player: 1 },
                Warning::UnknownPlayer { player: 1 },
                Warning::ByeProblem { detail: "odd field without a bye".into() },
                Warning::ByeProblem { detail: "even field with a bye".into() },
                Warning::ByeProblem { detail: "3 already had a bye".into() },
            ] {
                let t = warning_text(lang, &w, &names);
                assert!(!t.contains("warn.") && !t.contains('{'), "{t}");
            }
            assert_eq!(result_text(lang, ""), "");
            assert!(!result_text(lang, "RESULT_WHITEWINS_BYDEF").contains("res."));
        }
    }
}
