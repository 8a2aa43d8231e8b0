//! `tengen print` and `tengen export` as the real binary runs them, on a database prepared
//! through the db layer: a draft round prints (marked as a draft), the PDFs read back with the
//! players' Chinese names and one record sheet per table, `--out -` writes to stdout, and every
//! refusal is one line on stderr with a non-zero exit and no file.

#[path = "../src/print/readback.rs"]
mod readback;

use admin::db::{self, entrants, rounds, tournaments, Actor};
use admin::domain::demo::demo_entrants;
use admin::domain::settings::TournamentSettings;
use admin::office::pair_round::{pair_round, PairRound};
use readback::{read, squash};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A database with one tournament of `players` demo entrants and round 1 paired as a draft.
/// Returns the database path, the tournament id and the Chinese names by table.
fn prepared(dir: &Path, players: usize) -> (PathBuf, i32, Vec<(i32, String, String)>) {
    let path = dir.join("tengen.db");
    let pool = db::open(&path).unwrap();
    let mut conn = pool.get().unwrap();
    let actor = Actor::system("test");
    let mut s = TournamentSettings::defaults(
        chrono::NaiveDate::from_ymd_opt(2026, 12, 5).unwrap(),
        admin::machine::zone(),
    );
    s.name_zh = "命令行打印赛".into();
    s.rounds = 5;
    let tid = tournaments::create(&mut conn, &actor, &s).unwrap();
    let rows = demo_entrants(3, players).into_iter().map(entrants::ImportRow::trusted).collect();
    entrants::add_entrants(&mut conn, &actor, tid, rows, &entrants::ImportNote::new("test")).unwrap();
    let ask = PairRound { round: 1, seed: 42, expected_version: None, confirm: false, reason: "" };
    pair_round(&mut conn, &actor, tid, &ask).unwrap();
    let ids: std::collections::HashMap<i32, String> = entrants::list(&mut conn, tid, "", entrants::Sort::Id)
        .unwrap()
        .into_iter()
        .map(|e| (e.id, e.name_zh()))
        .collect();
    let boards = rounds::games_of(&mut conn, tid, 1)
        .unwrap()
        .into_iter()
        .filter_map(|g| Some((g.board, ids[&g.black_id?].clone(), ids[&g.white_id?].clone())))
        .collect();
    (path, tid, boards)
}

fn tengen(db: &Path, args: &[&str]) -> Output {
    tengen_in("en_US.UTF-8", db, args)
}

/// `tengen` run for a user of `locale` (the language of what it says on stderr).
fn tengen_in(locale: &str, db: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tengen"))
        .arg("--db")
        .arg(db)
        .args(args)
        .env("TENGEN_LOG", "warn")
        .env("LC_ALL", locale)
        .output()
        .expect("run tengen")
}

fn ok(out: &Output) {
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn a_draft_round_prints_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let (db, tid, boards) = prepared(dir.path(), 14);
    assert_eq!(boards.len(), 7);
    let t = tid.to_string();

    let out_pdf = dir.path().join("sheets.pdf");
    let out = tengen(
        &db,
        &["print", "scoresheets", "--tournament", &t, "--round", "1", "--out", out_pdf.to_str().unwrap()],
    );
    ok(&out);
    assert!(String::from_utf8_lossy(&out.stderr).contains("7 tables, draft"), "{:?}", out.stderr);
    // What it wrote is said in the command line's language (the locale), whatever `--lang`.
    let args =
        ["print", "scoresheets", "--tournament", &t, "--round", "1", "--out", out_pdf.to_str().unwrap()];
    let out = tengen_in("zh_CN.UTF-8", &db, &args);
    ok(&out);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("第1轮（草稿）：7台"), "{said}");
    let back = read("cli_draft_scoresheets", &std::fs::read(&out_pdf).unwrap());
    assert_eq!(back.pages.len(), 2, "7 tables at 4 per page");
    let all = squash(&back.all_text());
    assert!(all.contains("命令行打印赛") && all.contains("草稿"), "{all}");
    for (table, black, white) in &boards {
        assert!(all.contains(black) && all.contains(white), "table {table}");
    }
    assert!(squash(&back.pages[1]).contains("台号7"));

    // Record sheets, on stdout: one page per table.
    let out = tengen(
        &db,
        &["print", "record-sheets", "--tournament", &t, "--round", "1", "--lang", "en", "--out", "-"],
    );
    ok(&out);
    let back = read("cli_draft_records", &out.stdout);
    assert_eq!(back.pages.len(), boards.len());
    for ((_, black, _), page) in boards.iter().zip(&back.pages) {
        assert!(squash(page).contains(black));
    }

    // The pairings CSV: a header and a row per table.
    let out_csv = dir.path().join("pairings.csv");
    ok(&tengen(
        &db,
        &["export", "pairings", "--tournament", &t, "--round", "1", "--out", out_csv.to_str().unwrap()],
    ));
    let csv = String::from_utf8(std::fs::read(&out_csv).unwrap()).unwrap();
    assert_eq!(csv.lines().count(), 1 + boards.len());
    assert!(csv.lines().nth(1).unwrap().starts_with(&format!("1,{},", boards[0].1)), "{csv}");

    // OpenGotha has only published rounds: the players, no games yet.
    let out = tengen(&db, &["export", "opengotha", "--tournament", &t, "--out", "-"]);
    ok(&out);
    let xml = String::from_utf8_lossy(&out.stdout);
    assert!(xml.contains("<Players>") && !xml.contains("<Game "), "{xml}");
}

#[test]
fn refusals_are_one_line_and_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (db, tid, _) = prepared(dir.path(), 4);
    let t = tid.to_string();
    let target = dir.path().join("out.pdf");
    let o = target.to_str().unwrap();
    let nowhere = dir.path().join("no/such/dir/out.pdf");
    let missing_db = dir.path().join("missing.db");
    let cases: Vec<(&Path, Vec<&str>, &str)> = vec![
        (
            &missing_db,
            vec!["print", "scoresheets", "--tournament", "1", "--round", "1", "--out", o],
            "no such database file",
        ),
        (
            &db,
            vec!["print", "scoresheets", "--tournament", "77", "--round", "1", "--out", o],
            "no tournament with id 77",
        ),
        (&db, vec!["print", "pairings", "--tournament", &t, "--round", "2", "--out", o], "has no round 2"),
        (
            &db,
            vec!["print", "scoresheets", "--tournament", &t, "--round", "1", "--per-page", "1", "--out", o],
            "“--per-page” must be 2 or 4, not “1”",
        ),
        (
            &db,
            vec!["print", "pairings", "--tournament", &t, "--round", "1", "--order", "rank", "--out", o],
            "“--order” must be table or name",
        ),
        (
            &db,
            vec!["print", "record-sheets", "--tournament", &t, "--round", "1", "--paper", "a5", "--out", o],
            "“--paper” must be a4 or a3",
        ),
        (
            &db,
            vec!["export", "pairings", "--tournament", &t, "--round", "1", "--lang", "jp", "--out", o],
            "“--lang” must be zh or en",
        ),
        (&db, vec!["export", "opengotha", "--tournament", "78", "--out", o], "no tournament with id 78"),
        (
            &db,
            vec![
                "print",
                "scoresheets",
                "--tournament",
                &t,
                "--round",
                "1",
                "--out",
                nowhere.to_str().unwrap(),
            ],
            "cannot write",
        ),
    ];
    for (db, args, msg) in cases {
        let out = tengen(db, &args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("tengen: ") && err.contains(msg), "{args:?}: {err}");
        assert!(!target.exists() && !missing_db.exists(), "{args:?} wrote nothing");
    }
}
