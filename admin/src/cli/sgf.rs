//! `tengen sgf check`: replay game records under a rule set and report what an arbiter needs.
//!
//! For each file: the moves played, the first illegal move (number, point, reason), captures by
//! each side, the final board, the area count (Black, White, shared), the result under the komi
//! and whether it agrees with RE\[\]. `--json` prints a JSON array with one object per file.
//!
//! Exit codes: 0 every record is fine; 1 a record has an illegal move or a result that disagrees
//! with its RE\[\]; 2 a file could not be read or parsed, or `--dead` names no point of its board
//! (2 wins over 1). A malformed file gets one line `FILE:LINE:COL: message` on stderr, and the
//! other files are still checked.
//!
//! The report is worded from the catalog (`i18n/sgf.rs` for the reader's errors, warnings,
//! notes and agreement) in the language of `--lang` (zh by default, as `tengen print`).

use crate::domain::results::SgfCheckError;
use crate::i18n::tr;
use crate::i18n::Lang;
use clap::{Args, Subcommand, ValueEnum};
use rules::board::{Board, Color, Point};
use rules::game::{KoRule, SuicideRule};
use rules::outcome::{half_points_text, parse_half_points, parse_quarters, quarters_text};
use rules::ruleset::{Preset, RuleSet};
use rules::sgf::{
    self, Agreement, DeadSource, KomiSource, KomiUnit, Record, Replay, ReplayOptions, SgfError,
};
use serde_json::{json, Value};
use std::path::PathBuf;

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Replay SGF records under a rule set: illegal moves, captures, final board, area count,
    /// result under the komi, and agreement with RE[].
    ///
    /// Exit codes: 0 all records fine; 1 an illegal move or a result that disagrees with RE[];
    /// 2 a file could not be read or parsed (reported as FILE:LINE:COL: message on stderr; the
    /// other files are still checked).
    Check(CheckArgs),
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum KoArg {
    Simple,
    Positional,
    Situational,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum SuicideArg {
    Forbidden,
    Allowed,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
#[allow(clippy::enum_variant_names)]
pub enum PresetArg {
    /// 中国围棋竞赛规则 2002: komi 3¾ (7.5 points), situational superko, handicap n/2 stones
    #[value(name = "chinese_2002")]
    Chinese2002,
    /// 围棋队际赛规则: komi 3½ (7 points), Black 184 is a draw
    #[value(name = "chinese_team_relay")]
    ChineseTeamRelay,
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// SGF files to check.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// Rule set the records are replayed and scored under (the count is area counting).
    #[arg(long, value_enum, default_value = "chinese_2002", value_name = "PRESET")]
    pub rules: PresetArg,

    /// Ko rule [default: the rule set's, situational superko for both presets].
    #[arg(long, value_enum, value_name = "RULE")]
    pub ko: Option<KoArg>,

    /// Suicide rule [default: the rule set's, forbidden].
    #[arg(long, value_enum, value_name = "RULE")]
    pub suicide: Option<SuicideArg>,

    /// Komi, in POINTS like SGF KM: 7.5, 6.5, 7, 0, -5 (a multiple of 0.5). Stones with a suffix
    /// or a fraction: 3.75s, 3¾, 3¾子, "3 3/4s". Overrides KM[] and the rule set's komi, also in
    /// handicap games. Without it: KM[] for even games (else the rule set's komi, 7.5), the rule
    /// set's handicap komi (0) for handicap games.
    #[arg(long, value_name = "K", allow_hyphen_values = true, value_parser = parse_komi)]
    pub komi: Option<i32>,

    /// Dead stones: comma-separated points in human (Q16) or SGF (pd) coordinates; each names its
    /// whole chain. Without it, dead stones are inferred from TB/TW markup (a stone on a point
    /// marked as the opponent's territory is dead). --dead "" means none.
    #[arg(long, value_name = "POINTS")]
    pub dead: Option<String>,

    /// Print a JSON array with one object per file instead of the text report.
    #[arg(long)]
    pub json: bool,

    /// Language of the report and the messages: zh or en.
    #[arg(long, default_value = "zh", value_parser = parse_lang)]
    pub lang: Lang,
}

/// `--lang` as `tengen print` reads it.
fn parse_lang(s: &str) -> Result<Lang, String> {
    crate::documents::parse_lang(s).map_err(|e| e.to_string())
}

/// Parse `--komi` into quarter stones: points by default, stones with a suffix `s`, `stones`
/// or `子`, or with a vulgar fraction (¼ ½ ¾).
pub fn parse_komi(text: &str) -> Result<i32, String> {
    // Clap reads it before `--lang`: the refusal is in the locale's language.
    komi_quarters(text).map_err(|r| r.words(Lang::from_environment(), text))
}

/// Why a `--komi` is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum KomiRefusal {
    /// Stones that are not a multiple of ¼.
    NotQuarters,
    /// Points that are not a multiple of ½.
    NotHalfPoints,
    /// More than 50 stones either way.
    OutOfRange,
}

impl KomiRefusal {
    fn words(self, lang: Lang, komi: &str) -> String {
        let key = match self {
            KomiRefusal::NotQuarters => "cli_err.komi_not_quarters",
            KomiRefusal::NotHalfPoints => "cli_err.komi_not_half_points",
            KomiRefusal::OutOfRange => "cli_err.komi_out_of_range",
        };
        tr!(lang, key, komi = komi.trim())
    }
}

/// [`parse_komi`] in quarter stones, the refusal typed.
fn komi_quarters(text: &str) -> Result<i32, KomiRefusal> {
    let t = text.trim();
    let stones_suffix = ["stones", "stone", "s", "子"].iter().find_map(|s| t.strip_suffix(s));
    let q = if let Some(stones) = stones_suffix {
        parse_quarters(stones.trim()).map_err(|_| KomiRefusal::NotQuarters)?
    } else if t.contains(['¼', '½', '¾']) {
        parse_quarters(t).map_err(|_| KomiRefusal::NotQuarters)?
    } else {
        let t = ["points", "pts", "pt", "p"].iter().find_map(|s| t.strip_suffix(s)).unwrap_or(t).trim();
        let (neg, digits) = match t.strip_prefix('-') {
            Some(rest) => (true, rest.trim()),
            None => (false, t.strip_prefix('+').unwrap_or(t)),
        };
        // ¼ stone = ½ point, so a komi in half points is the same number in quarter stones.
        let halves = parse_half_points(digits).map_err(|_| KomiRefusal::NotHalfPoints)?;
        let q = i32::try_from(halves).map_err(|_| KomiRefusal::OutOfRange)?;
        if neg {
            -q
        } else {
            q
        }
    };
    if q.abs() > 4 * 50 {
        return Err(KomiRefusal::OutOfRange);
    }
    Ok(q)
}

/// Parse a `--dead` list for a board of `size`; the error is the word that is not a point.
pub fn parse_points(list: &str, size: u8) -> Result<Vec<Point>, String> {
    let mut out = Vec::new();
    for tok in list.split([',', ' ', ';']).map(str::trim).filter(|t| !t.is_empty()) {
        let p = if tok.is_ascii() { Point::parse(tok, size) } else { None };
        match p {
            Some(p) => out.push(p),
            None => return Err(tok.to_string()),
        }
    }
    Ok(out)
}

/// The outcome of checking one file.
enum FileReport {
    /// Could not be read or parsed, or the options do not fit it: exit code 2.
    Failed {
        line: String,
        json: Value,
    },
    Checked {
        record: Box<Record>,
        replay: Box<Replay>,
        rules: RuleSet,
    },
}

pub fn run(cmd: Command) -> i32 {
    match cmd {
        Command::Check(args) => check(&args),
    }
}

fn rule_set(args: &CheckArgs) -> RuleSet {
    let mut rules = match args.rules {
        PresetArg::Chinese2002 => Preset::Chinese2002.rules(),
        PresetArg::ChineseTeamRelay => Preset::ChineseTeamRelay.rules(),
    };
    if let Some(ko) = args.ko {
        rules.ko = match ko {
            KoArg::Simple => KoRule::Simple,
            KoArg::Positional => KoRule::Positional,
            KoArg::Situational => KoRule::Situational,
        };
    }
    if let Some(s) = args.suicide {
        rules.suicide = match s {
            SuicideArg::Forbidden => SuicideRule::Forbidden,
            SuicideArg::Allowed => SuicideRule::Allowed,
        };
    }
    rules
}

fn check_file(path: &PathBuf, args: &CheckArgs, rules: &RuleSet) -> FileReport {
    let (name, lang) = (path.display().to_string(), args.lang);
    let fail = |m: String| FileReport::Failed {
        line: format!("{name}: {m}"),
        json: json!({ "file": name, "error": { "message": m } }),
    };
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => return fail(tr!(lang, "sgf_cli.cannot_read", error = e.to_string())),
    };
    let record = match sgf::parse_bytes(&bytes) {
        Ok(r) => r,
        Err(e) => return unreadable(&name, lang, &e),
    };
    let dead = match &args.dead {
        None => None,
        Some(list) => match parse_points(list, record.size) {
            Ok(v) => Some(v),
            Err(tok) => {
                return fail(tr!(lang, "sgf_cli.bad_dead", point = format!("{tok:?}"), size = record.size))
            }
        },
    };
    let opts = ReplayOptions { rules: rules.clone(), komi_q: args.komi, dead };
    match sgf::replay(&record, &opts) {
        Ok(replay) => {
            FileReport::Checked { record: Box::new(record), replay: Box::new(replay), rules: rules.clone() }
        }
        Err(e) => fail(lang.sgf_check_error(&SgfCheckError::BoardSize { size: e.0 })),
    }
}

/// A file the reader refuses: `FILE:LINE:COL: message`, and the typed error in the JSON.
fn unreadable(name: &str, lang: Lang, e: &SgfError) -> FileReport {
    let message = lang.sgf_error_kind(&e.kind);
    FileReport::Failed {
        line: tr!(lang, "sgf_cli.file_at", name, line = e.pos.line, col = e.pos.col, message),
        json: json!({ "file": name, "error": {
            "line": e.pos.line, "col": e.pos.col, "offset": e.pos.offset, "kind": e.kind, "message": message,
        } }),
    }
}

fn check(args: &CheckArgs) -> i32 {
    let rules = rule_set(args);
    let mut code = 0;
    let mut json_out = Vec::new();
    for (k, path) in args.files.iter().enumerate() {
        let report = check_file(path, args, &rules);
        match report {
            FileReport::Failed { line, json } => {
                eprintln!("{line}");
                code = 2;
                json_out.push(json);
            }
            FileReport::Checked { record, replay, rules } => {
                if code == 0 && (replay.illegal.is_some() || replay.agreement.is_disagreement()) {
                    code = 1;
                }
                let name = path.display().to_string();
                if args.json {
                    json_out.push(to_json(&name, &record, &replay, &rules));
                } else {
                    if k > 0 {
                        println!();
                    }
                    print!("{}", text_report(args.lang, &name, &record, &replay, &rules));
                }
            }
        }
    }
    if args.json {
        match serde_json::to_string_pretty(&json_out) {
            Ok(s) => println!("{s}"),
            Err(e) => {
                eprintln!("{}", tr!(args.lang, "cli_err.json", error = e.to_string()));
                return 2;
            }
        }
    }
    code
}

fn ko_name(lang: Lang, k: KoRule) -> &'static str {
    lang.t(match k {
        KoRule::Simple => "sgf_cli.ko_simple",
        KoRule::Positional => "sgf_cli.ko_positional",
        KoRule::Situational => "sgf_cli.ko_situational",
    })
}

fn komi_text(lang: Lang, q: i32) -> String {
    let (sign, a) = if q < 0 { ("-", q.unsigned_abs()) } else { ("", q as u32) };
    let (points, stones) = (format!("{sign}{}", half_points_text(a)), format!("{sign}{}", quarters_text(a)));
    tr!(lang, "sgf_cli.komi", points, stones)
}

fn komi_source_text(lang: Lang, replay: &Replay, record: &Record) -> &'static str {
    lang.t(match replay.komi_source {
        KomiSource::Given => "sgf_cli.komi_given",
        KomiSource::Record => match record.komi.map(|k| k.unit) {
            Some(KomiUnit::Points) | None => "sgf_cli.komi_record",
            Some(KomiUnit::Stones) => "sgf_cli.komi_record_stones",
            Some(KomiUnit::HundredthsOfStones) => "sgf_cli.komi_record_hundredths",
        },
        KomiSource::RuleSet => "sgf_cli.komi_rule_set",
        KomiSource::RuleSetHandicap => "sgf_cli.komi_handicap",
    })
}

fn player(name: &Option<String>, rank: &Option<String>) -> String {
    match (name, rank) {
        (Some(n), Some(r)) => format!("{n} {r}"),
        (Some(n), None) => n.clone(),
        (None, Some(r)) => format!("? {r}"),
        (None, None) => "?".to_string(),
    }
}

/// The final board with coordinates; dead stones in lower case.
pub fn board_picture(board: &Board, dead: &[Point]) -> String {
    let size = board.size();
    let letters: Vec<char> = "ABCDEFGHJKLMNOPQRSTUVWXYZ".chars().take(usize::from(size)).collect();
    let header: String = letters.iter().map(|c| format!(" {c}")).collect();
    let mut dead_points = std::collections::HashSet::new();
    for &p in dead {
        dead_points.extend(board.chain(p));
    }
    let mut s = format!("   {header}\n");
    for y in 0..size {
        let row = size - y;
        s.push_str(&format!("{row:>3}"));
        for x in 0..size {
            let p = Point::new(x, y);
            let d = dead_points.contains(&p);
            let ch = match (board.get(p), d) {
                (Some(Color::Black), false) => 'X',
                (Some(Color::Black), true) => 'x',
                (Some(Color::White), false) => 'O',
                (Some(Color::White), true) => 'o',
                (None, _) => '.',
            };
            s.push(' ');
            s.push(ch);
        }
        s.push_str(&format!(" {row}\n"));
    }
    s.push_str(&format!("   {header}\n"));
    s
}

/// The text report of one file, every line from the catalog in `lang`.
fn text_report(lang: Lang, name: &str, record: &Record, r: &Replay, rules: &RuleSet) -> String {
    let mut s = format!("== {name}\n");
    s.push_str(&header(lang, record, r, rules));
    s.push_str(&play_lines(lang, r));
    s.push_str(lang.t("sgf_cli.final_board"));
    s.push('\n');
    s.push_str(&board_picture(&r.board, &r.dead));
    s.push_str(&count_lines(lang, record, r));
    for n in &r.notes {
        s.push_str(&format!("{}\n", tr!(lang, "sgf_cli.note", note = lang.sgf_note(n))));
    }
    for w in &record.warnings {
        s.push_str(&format!("{}\n", tr!(lang, "sgf_cli.warning", warning = lang.sgf_warning(w))));
    }
    s
}

/// Players and game information, board, komi, rules.
fn header(lang: Lang, record: &Record, r: &Replay, rules: &RuleSet) -> String {
    let i = &record.info;
    let (b, w) = (player(&i.black, &i.black_rank), player(&i.white, &i.white_rank));
    let mut s = tr!(lang, "sgf_cli.players", black = b, white = w);
    for v in [&i.date, &i.event, &i.round].into_iter().flatten() {
        s.push_str(&format!("   {v}"));
    }
    s.push('\n');
    let komi = komi_text(lang, r.komi_q);
    let from = komi_source_text(lang, r, record);
    s.push_str(&tr!(lang, "sgf_cli.board", size = r.size, handicap = r.handicap, komi, from));
    let suicide = lang.t(match rules.suicide {
        SuicideRule::Forbidden => "sgf_cli.suicide_forbidden",
        SuicideRule::Allowed => "sgf_cli.suicide_allowed",
    });
    let ko = ko_name(lang, rules.ko);
    s.push_str(&format!("\n{}\n", tr!(lang, "sgf_cli.rules", code = rules.preset.code(), ko, suicide)));
    s
}

/// Moves played, the first illegal move, captures.
fn play_lines(lang: Lang, r: &Replay) -> String {
    let end = if r.ended_by_passes { lang.t("sgf_cli.ended") } else { "" };
    let mut s = format!(
        "{}{end}\n",
        tr!(lang, "sgf_cli.moves", moves_played = r.moves_played, moves_in_record = r.moves_in_record)
    );
    match &r.illegal {
        None => s.push_str(lang.t("sgf_cli.no_illegal")),
        Some(il) => {
            let at =
                il.at.map(|p| tr!(lang, "sgf_cli.at_file", line = p.line, col = p.col)).unwrap_or_default();
            s.push_str(&tr!(lang, "sgf_cli.illegal", illegal = lang.sgf_illegal(il), at));
        }
    }
    s.push('\n');
    s.push_str(&tr!(lang, "sgf_cli.captures", black = r.captures_by_black, white = r.captures_by_white));
    s.push('\n');
    s
}

/// The count, the result and RE[]'s verdict.
fn count_lines(lang: Lang, record: &Record, r: &Replay) -> String {
    let dead_from = lang.t(match r.dead_source {
        DeadSource::None => "sgf_cli.dead_none",
        DeadSource::Given => "sgf_cli.dead_given",
        DeadSource::Territory => "sgf_cli.dead_territory",
    });
    let c = &r.count;
    let (b, w) = (half_points_text(c.black_halves), half_points_text(c.white_halves));
    let mut s = tr!(
        lang,
        "sgf_cli.count",
        black = b,
        white = w,
        shared = c.shared,
        dead_black = c.dead_black,
        dead_white = c.dead_white,
        dead_from
    );
    s.push('\n');
    s.push_str(&tr!(lang, "sgf_cli.result", result = r.outcome.sgf_result(), stones = r.outcome.to_string()));
    s.push('\n');
    let re = format!("RE[{}]", record.result_text.as_deref().unwrap_or(""));
    let verdict = match &r.agreement {
        Agreement::Agrees => lang.t("sgf_cli.agrees").to_string(),
        Agreement::Disagrees { computed, .. } => tr!(lang, "sgf_cli.disagrees", computed),
        Agreement::NotComparable { reason } => {
            tr!(lang, "sgf_cli.not_comparable", reason = lang.sgf_incomparable(reason))
        }
    };
    s.push_str(&format!("{re}: {verdict}\n"));
    s
}

fn to_json(name: &str, record: &Record, r: &Replay, rules: &RuleSet) -> Value {
    json!({
        "file": name,
        "error": Value::Null,
        "size": record.size,
        "handicap": record.handicap,
        "info": record.info,
        "record_komi": record.komi,
        "record_result": record.result_text,
        "record_result_parsed": record.result,
        "rules": {
            "preset": rules.preset,
            "ko": rules.ko,
            "suicide": rules.suicide,
        },
        "komi_q": r.komi_q,
        "komi_points": komi_points(r.komi_q),
        "komi_source": r.komi_source,
        "moves_in_record": r.moves_in_record,
        "moves_played": r.moves_played,
        "illegal": r.illegal,
        "captures": { "by_black": r.captures_by_black, "by_white": r.captures_by_white },
        "ended_by_passes": r.ended_by_passes,
        "final_board": r.final_board,
        "dead": r.dead.iter().map(|p| p.display(r.size)).collect::<Vec<_>>(),
        "dead_source": r.dead_source,
        "count": {
            "black": half_points_text(r.count.black_halves),
            "white": half_points_text(r.count.white_halves),
            "black_halves": r.count.black_halves,
            "white_halves": r.count.white_halves,
            "shared": r.count.shared,
            "dead_black": r.count.dead_black,
            "dead_white": r.count.dead_white,
        },
        "result": r.outcome.sgf_result(),
        "result_stones": r.outcome.to_string(),
        "outcome": r.outcome,
        "agreement": r.agreement,
        "notes": r.notes,
        "warnings": record.warnings,
    })
}

fn komi_points(q: i32) -> String {
    if q < 0 {
        format!("-{}", half_points_text(q.unsigned_abs()))
    } else {
        half_points_text(q as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn komi_option() {
        assert_eq!(parse_komi("7.5"), Ok(15));
        assert_eq!(parse_komi("6.5"), Ok(13));
        assert_eq!(parse_komi("7"), Ok(14));
        assert_eq!(parse_komi("0"), Ok(0));
        assert_eq!(parse_komi("-5.5"), Ok(-11));
        assert_eq!(parse_komi("7.5pt"), Ok(15));
        assert_eq!(parse_komi("3.75s"), Ok(15));
        assert_eq!(parse_komi("3¾"), Ok(15));
        assert_eq!(parse_komi("3¾子"), Ok(15));
        assert_eq!(parse_komi("3 1/2s"), Ok(14));
        assert_eq!(parse_komi("3.5 stones"), Ok(14));
        assert!(parse_komi("3.75").unwrap_err().contains("3.75s"));
        assert!(parse_komi("abc").is_err());
        assert!(parse_komi("999").is_err());
        assert!(parse_komi("").is_err());
    }

    /// Seed 000 (黑棋貼還3又3/4子: komi in quarter stones, ¼ stone = ½ point): a komi the count cannot use is
    /// refused in the user's language, with the way to write stones.
    #[test]
    fn komi_refusals_in_both_languages() {
        assert_eq!(komi_quarters("3.75"), Err(KomiRefusal::NotHalfPoints));
        assert_eq!(komi_quarters("3.3s"), Err(KomiRefusal::NotQuarters));
        assert_eq!(komi_quarters("51子"), Err(KomiRefusal::OutOfRange));
        assert_eq!(komi_quarters("999"), Err(KomiRefusal::OutOfRange));
        let words = |r: KomiRefusal, lang| r.words(lang, " 3.75 ");
        assert_eq!(
            words(KomiRefusal::NotHalfPoints, Lang::Zh),
            "贴目“3.75”不是 0.5 目的倍数（按子书写如 3.75s 或 3¾）"
        );
        assert_eq!(
            words(KomiRefusal::NotHalfPoints, Lang::En),
            "komi “3.75” is not a multiple of 0.5 points (for stones write e.g. 3.75s or 3¾)"
        );
        assert_eq!(words(KomiRefusal::OutOfRange, Lang::Zh), "贴目“3.75”超出范围（最多 50 子）");
        assert_eq!(words(KomiRefusal::NotQuarters, Lang::En), "komi “3.75” is not a multiple of ¼ stone");
    }

    #[test]
    fn dead_option() {
        let p = |s: &str| Point::from_sgf(s).unwrap();
        assert_eq!(parse_points("Q16, pd,D4", 19), Ok(vec![p("pd"), p("pd"), p("dp")]));
        assert_eq!(parse_points("", 19), Ok(vec![]));
        assert!(parse_points("Z99", 19).is_err());
        assert!(parse_points("é5", 19).is_err());
        assert!(parse_points("T19", 9).is_err());
    }

    #[test]
    fn board_picture_has_coordinates() {
        let b = Board::from_ascii("X....\n.O...\n.....\n.....\n.....").unwrap();
        let pic = board_picture(&b, &[Point::new(1, 1)]);
        let lines: Vec<&str> = pic.lines().collect();
        assert_eq!(lines[0], "    A B C D E");
        assert_eq!(lines[1], "  5 X . . . . 5");
        assert_eq!(lines[2], "  4 . o . . . 4");
    }
}
