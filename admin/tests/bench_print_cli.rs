//! End-to-end test of `tengen bench print`: the real binary, a small round, its JSON and PDF.

use std::process::Command;

#[test]
fn bench_print_reports_json_and_writes_the_pdf() {
    let dir = tempfile::tempdir().unwrap();
    let out_pdf = dir.path().join("round.pdf");
    let out = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["bench", "print", "--players", "40", "--runs", "1", "--out"])
        .arg(&out_pdf)
        .output()
        .expect("run tengen");
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
    let out = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["bench", "print", "--players", "8", "--per-page", "3"])
        .output()
        .expect("run tengen");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--per-page"));
}
