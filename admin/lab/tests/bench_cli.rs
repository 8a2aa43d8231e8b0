//! End-to-end tests of `tengen-lab bench rules` and `tengen-lab bench print`: the real binary,
//! its JSON, and the PDF it writes.

use std::process::{Command, Output};

fn lab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tengen-lab")).args(args).output().expect("run tengen-lab")
}

#[test]
fn bench_rules_prints_json() {
    let out = lab(&["bench", "rules", "--games", "3", "--moves", "260", "--min-ms", "10"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["games"], 3);
    assert!(v["moves"].as_u64().unwrap() >= 3 * 250);
    assert!(v["us_per_move"].as_f64().unwrap() > 0.0);
    assert!(v["moves_per_second"].as_f64().unwrap() > 0.0);
}

#[test]
fn bench_print_reports_json_and_writes_the_pdf() {
    let dir = tempfile::tempdir().unwrap();
    let out_pdf = dir.path().join("round.pdf");
    let out_arg = out_pdf.to_str().unwrap();
    let out = lab(&["bench", "print", "--players", "40", "--runs", "1", "--out", out_arg]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_str(stdout.trim()).expect("one JSON object");
    assert_eq!(v["tables"], 20);
    assert_eq!(v["pages"], 5);
    assert_eq!(v["per_page"], 4);
    let bytes = v["bytes"].as_u64().unwrap();
    let pdf = std::fs::read(&out_pdf).unwrap();
    assert!(pdf.starts_with(b"%PDF-"));
    assert_eq!(pdf.len() as u64, bytes);
    assert!(v["ms"].as_f64().unwrap() > 0.0);
}

#[test]
fn bench_print_refuses_three_per_page() {
    let out = lab(&["bench", "print", "--players", "8", "--per-page", "3"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--per-page"));
}
