//! `tengen-lab bench print`: how fast and how small the scoresheets of a large round are.
//!
//! Makes `--players` deterministic demo entrants (`domain::demo`, Chinese and pinyin names,
//! ranks, units), pairs them by rank into tables (every tenth board a nigiri board, as on a
//! real first round), then times [`admin::print::scoresheets`] for the whole round: laying out
//! every slip, subsetting the font to the characters used and writing the PDF. The first run
//! includes parsing the embedded font (once per process); then the run is repeated and the
//! median is reported. Prints one JSON object; `--out FILE` also writes the PDF.

use admin::domain::demo::{demo_entrants, demo_tournament_name};
use admin::print::{scoresheets, Lang, PdfOptions, SheetPlayer, SheetTournament, SheetsPerPage, TableSheet};
use clap::Args;
use serde_json::json;
use std::path::PathBuf;
use std::time::Instant;

/// Targets for a 1,000-player round (500 scoresheets), release build.
pub const TARGET_MS: f64 = 1000.0;
pub const TARGET_BYTES: usize = 1024 * 1024;

#[derive(Args, Debug)]
pub struct PrintArgs {
    /// Players in the round (two per table).
    #[arg(long, default_value_t = 1000)]
    pub players: usize,
    /// Scoresheets per A4 page: 2 or 4.
    #[arg(long, default_value_t = 4)]
    pub per_page: u8,
    /// Seed of the demo entrants.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Timed runs after the first (the median is reported).
    #[arg(long, default_value_t = 5)]
    pub runs: usize,
    /// Label language: zh or en.
    #[arg(long, default_value = "zh")]
    pub lang: String,
    /// Also write the PDF here.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// The tables of a round of `players` demo entrants, paired strongest with next strongest.
pub fn demo_round(seed: u64, players: usize) -> (SheetTournament, Vec<TableSheet>) {
    let mut entrants = demo_entrants(seed, players);
    entrants.sort_by_key(|e| std::cmp::Reverse(e.rank.value()));
    let name = demo_tournament_name();
    let t = SheetTournament {
        name_zh: name.zh.into(),
        name_latin: name.en.into(),
        venue: "北京棋院 Beijing Weiqi Academy".into(),
        round: 1,
        date: "2026-12-05".into(),
        komi_text: "黑贴3¾子 (7.5目)".into(),
        time_control_text: "基本用时60分钟，读秒30秒3次".into(),
        rules_text: "中国围棋竞赛规则（2002年版）".into(),
        name_order: Default::default(),
        notes: Vec::new(),
    };
    let tables = entrants
        .chunks(2)
        .filter(|c| c.len() == 2)
        .enumerate()
        .map(|(i, pair)| TableSheet {
            table: i as u32 + 1,
            black: SheetPlayer::from_entrant(&pair[1]),
            white: SheetPlayer::from_entrant(&pair[0]),
            handicap: 0,
            nigiri: i % 10 == 0,
            komi_text: None,
            replay_of: None,
        })
        .collect();
    (t, tables)
}

pub fn run(args: PrintArgs) -> i32 {
    let per_page = match args.per_page {
        2 => SheetsPerPage::Two,
        4 => SheetsPerPage::Four,
        n => {
            eprintln!("--per-page must be 2 or 4, not {n}");
            return 2;
        }
    };
    let lang = match args.lang.as_str() {
        "zh" => Lang::Zh,
        "en" => Lang::En,
        other => {
            eprintln!("--lang must be zh or en, not {other}");
            return 2;
        }
    };
    let (t, tables) = demo_round(args.seed, args.players);
    let opts = PdfOptions::new(lang);
    let start = Instant::now();
    let first = match scoresheets(&t, &tables, per_page, &opts) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("printing failed: {e}");
            return 1;
        }
    };
    let first_ms = start.elapsed().as_secs_f64() * 1e3;
    let mut times = Vec::with_capacity(args.runs);
    let mut bytes = first.len();
    for _ in 0..args.runs {
        let start = Instant::now();
        match scoresheets(&t, &tables, per_page, &opts) {
            Ok(b) => bytes = std::hint::black_box(b).len(),
            Err(e) => {
                eprintln!("printing failed: {e}");
                return 1;
            }
        }
        times.push(start.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(f64::total_cmp);
    let ms = if times.is_empty() { first_ms } else { times[times.len() / 2] };
    if let Some(path) = &args.out {
        if let Err(e) = std::fs::write(path, &first) {
            eprintln!("{}: {e}", path.display());
            return 2;
        }
    }
    let report = json!({
        "players": args.players,
        "tables": tables.len(),
        "per_page": per_page.count(),
        "pages": tables.len().div_ceil(per_page.count()),
        "first_ms": first_ms,
        "ms": ms,
        "runs": times.len(),
        "bytes": bytes,
        "target_ms": TARGET_MS,
        "target_bytes": TARGET_BYTES,
        "meets_target": ms <= TARGET_MS && first_ms <= TARGET_MS && bytes <= TARGET_BYTES,
        "build": if cfg!(debug_assertions) { "debug" } else { "release" },
    });
    println!("{report}");
    0
}
