//! End-to-end tests of `tengen sgf check`: the real binary on files in a temporary folder,
//! checking stdout, stderr and the exit code.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn tengen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tengen")).args(args).output().expect("run tengen")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The rules crate's realistic records.
fn data(name: &str) -> String {
    format!("{}/../rules/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn write(dir: &Path, name: &str, content: &str) -> String {
    let p: PathBuf = dir.join(name);
    std::fs::write(&p, content).unwrap();
    p.display().to_string()
}

/// A 7×7 ko: Black takes, White threatens, Black answers, White retakes, Black retakes at once.
const KO: &str =
    "(;GM[1]FF[4]SZ[7]KM[0]AB[ba][ab][bc]AW[ca][bb][db][cc]PL[B]\n;B[cb];W[ge];B[gf];W[bb];B[cb];W[aa])";

#[test]
fn good_file_is_reported_and_exits_0() {
    let out = tengen(&["sgf", "check", "--lang", "en", &data("territory_markup.sgf")]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("moves: 44 of 44 played, ended by two passes"), "{stdout}");
    assert!(stdout.contains("illegal move: none"));
    assert!(stdout.contains("captures: Black took 0, White took 0"));
    assert!(stdout.contains("count: Black 190, White 171, shared 0"));
    assert!(stdout.contains("dead stones from TB/TW"));
    assert!(stdout.contains("result: B+11.5 (B+5¾ stones)"));
    assert!(stdout.contains("RE[B+11.5]: agrees"));
    assert!(stdout.contains("    A B C D E F G H J K L M N O P Q R S T"), "board with coordinates");
    assert!(stdout.contains(" 17 . . o . "), "dead stones in lower case:\n{stdout}");
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
}

#[test]
fn illegal_move_is_reported_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let ko = write(dir.path(), "ko.sgf", KO);
    let out = tengen(&["sgf", "check", "--lang", "en", &ko, "--ko", "simple"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("moves: 4 of 6 played"), "{stdout}");
    assert!(
        stdout.contains("ILLEGAL: move 5 Black C6 [cb]: ko: immediate recapture (file 2:26)"),
        "{stdout}"
    );
    assert!(stdout.contains("captures: Black took 1, White took 1"));
    assert!(stdout.contains("not comparable (the replay stopped at the illegal move 5)"));
}

#[test]
fn disagreement_with_re_exits_1() {
    let out = tengen(&["sgf", "check", "--lang", "en", &data("full_game_counted.sgf"), "--komi", "7"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("komi 7 points = 3½ stones (from --komi)"), "{stdout}");
    assert!(stdout.contains("RE[W+4.5]: DISAGREES (computed W+4)"), "{stdout}");
    // with the record's komi it agrees
    let out = tengen(&["sgf", "check", "--lang", "en", &data("full_game_counted.sgf")]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    // komi in stones
    let out = tengen(&["sgf", "check", "--lang", "en", &data("full_game_counted.sgf"), "--komi", "3.75s"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
}

#[test]
fn malformed_file_among_good_ones_exits_2_and_the_others_are_checked() {
    let dir = tempfile::tempdir().unwrap();
    let bad = write(dir.path(), "bad.sgf", "(;GM[1]FF[4]SZ[19]\n;B[pd]\n;W[dd\n");
    let too_big = write(dir.path(), "big.sgf", "(;GM[1]FF[4]\n  SZ[30];B[aa])");
    let ko = write(dir.path(), "ko.sgf", KO);
    let good = data("territory_markup.sgf");
    let missing = dir.path().join("missing.sgf").display().to_string();
    let out = tengen(&["sgf", "check", "--lang", "en", &good, &bad, &ko, &too_big, &missing]);
    let stdout = text(&out.stdout);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stdout}{stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 3, "one line per bad file:\n{stderr}");
    assert_eq!(
        lines[0],
        format!("{bad}:3:3: the value of W is never closed: no ']' before the end of the file")
    );
    assert_eq!(lines[1], format!("{too_big}:2:3: board size 30 is not supported (5 to 25)"));
    assert!(lines[2].starts_with(&format!("{missing}: cannot read")), "{stderr}");
    // the good files are still reported, in order
    let g = stdout.find(&format!("== {good}")).expect("good file reported");
    let k = stdout.find(&format!("== {ko}")).expect("ko file reported");
    assert!(g < k);
    assert!(stdout.contains("RE[B+11.5]: agrees"));
    assert!(!stdout.contains(&bad));
}

#[test]
fn json_output_parses() {
    let dir = tempfile::tempdir().unwrap();
    let bad = write(dir.path(), "bad.sgf", "(;GM[1]SZ[9];B[ee]))");
    let ko = write(dir.path(), "ko.sgf", KO);
    let good = data("territory_markup.sgf");
    let out = tengen(&["sgf", "check", "--lang", "en", "--json", &good, &bad, &ko]);
    assert_eq!(out.status.code(), Some(2));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    let a = v.as_array().expect("an array");
    assert_eq!(a.len(), 3, "one object per file");
    assert_eq!(a[0]["file"], good.as_str());
    assert_eq!(a[0]["error"], serde_json::Value::Null);
    assert_eq!(a[0]["moves_played"], 44);
    assert_eq!(a[0]["result"], "B+11.5");
    assert_eq!(a[0]["result_stones"], "B+5¾");
    assert_eq!(a[0]["count"]["black"], "190");
    assert_eq!(a[0]["count"]["shared"], 0);
    assert_eq!(a[0]["agreement"]["status"], "agrees");
    assert_eq!(a[0]["komi_points"], "7.5");
    assert_eq!(a[0]["info"]["black"], "柯洁");
    assert_eq!(a[0]["dead"], serde_json::json!(["C17", "C16", "R3"]));
    assert_eq!(a[0]["final_board"].as_array().unwrap().len(), 19);
    assert_eq!(a[1]["file"], bad.as_str());
    assert_eq!(a[1]["error"]["line"], 1);
    assert_eq!(a[1]["error"]["col"], 20);
    assert_eq!(a[2]["illegal"]["number"], 5);
    assert_eq!(a[2]["illegal"]["reason"], "ko");
    assert_eq!(a[2]["illegal"]["point"], "C6");
    assert_eq!(a[2]["illegal"]["sgf"], "cb");
    assert_eq!(a[2]["captures"]["by_black"], 1);
    assert_eq!(text(&out.stderr).trim(), format!("{bad}:1:20: ')' without a matching '('"));
}

#[test]
fn options_ko_suicide_dead_and_bad_values() {
    let dir = tempfile::tempdir().unwrap();
    // positional-only repetition: refused under positional superko, allowed otherwise
    let rep = write(
        dir.path(),
        "rep.sgf",
        "(;GM[1]FF[4]SZ[7]AB[ba][ab][bc][fe][ef][gf][fg]AW[ca][bb][db][cc][ee][df][eg]PL[B];B[cb];W[ff];B[];W[bb];B[ef])",
    );
    let out = tengen(&["sgf", "check", "--lang", "en", &rep, "--ko", "positional"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains("superko"));
    let out = tengen(&["sgf", "check", "--lang", "en", &rep, "--ko", "situational"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    // suicide
    let sui = write(dir.path(), "sui.sgf", "(;SZ[5]AB[ba][ab]PL[W];W[aa])");
    assert_eq!(tengen(&["sgf", "check", "--lang", "en", &sui]).status.code(), Some(1));
    let out = tengen(&["sgf", "check", "--lang", "en", &sui, "--suicide", "allowed"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).contains("Black took 1"));
    // --dead overrides TB/TW
    let good = data("territory_markup.sgf");
    let out = tengen(&["sgf", "check", "--lang", "en", &good, "--dead", "C17,qq", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v[0]["dead_source"], "given");
    assert_eq!(v[0]["count"]["dead_white"], 2);
    assert_eq!(v[0]["count"]["dead_black"], 1);
    let out = tengen(&["sgf", "check", "--lang", "en", &good, "--dead", "Z40"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("Z40"));
    // bad option values are usage errors (clap: exit 2)
    let out = tengen(&["sgf", "check", "--lang", "en", &good, "--komi", "3.3"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("0.5"), "in either language");
    let out = tengen(&["sgf", "check", "--lang", "en", &good, "--ko", "weird"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn garbage_and_binary_files_do_not_crash() {
    let dir = tempfile::tempdir().unwrap();
    let empty = write(dir.path(), "empty.sgf", "");
    let bin = dir.path().join("bin.sgf");
    std::fs::write(&bin, (0..=255u8).cycle().take(4096).collect::<Vec<u8>>()).unwrap();
    let bin = bin.display().to_string();
    let out = tengen(&["sgf", "check", "--lang", "en", &empty, &bin]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(stderr.starts_with(&format!("{empty}:1:1: the file is empty")), "{stderr}");
    assert_eq!(stderr.lines().count(), 2, "{stderr}");
}

/// Without `--lang` the report is in Chinese, as `tengen print`'s labels: every line, the
/// reader's errors included, from the catalog.
#[test]
fn the_report_is_in_chinese_by_default() {
    let dir = tempfile::tempdir().unwrap();
    let ko = write(dir.path(), "ko.sgf", KO);
    let bad = write(dir.path(), "bad.sgf", "(;GM[1]FF[4]SZ[19]\n;B[pd]\n;W[dd\n");
    let out = tengen(&["sgf", "check", &ko, &bad, "--ko", "simple"]);
    assert_eq!(out.status.code(), Some(2));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("违规：第5手 黑方 C6（cb）：打劫：不得立即提回（文件第2行第26列）"), "{stdout}");
    assert!(stdout.contains("提子：黑方提1子，白方提1子"), "{stdout}");
    assert!(stdout.contains("无法比较（复盘停在第5手违规着手）"), "{stdout}");
    let body: String = stdout.lines().filter(|l| !l.starts_with("== ")).collect();
    let english: Vec<&str> = body
        .split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| w.len() >= 3 && !["chinese", "UTF"].contains(w))
        .collect();
    assert!(english.is_empty(), "{english:?}\n{stdout}");
    assert_eq!(text(&out.stderr).trim(), format!("{bad}：第3行第3列：W的值没有结束：文件结束前没有“]”"));
}
