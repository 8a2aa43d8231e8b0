//! Crash safety (issue 8.2), the short version CI runs: `tengen stress crash` with a few
//! trials, every write kind (entrants, results, rulings). The full run (100 trials) is in the
//! README; both use the same command.

mod common;
use common::*;

#[test]
fn acknowledged_writes_survive_sigkill_and_restart() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("stress.json");
    let out = std::process::Command::new(bin())
        .args(["stress", "crash", "--trials", "5", "--clients", "3", "--seed", "8", "--max-kill-ms", "700"])
        .args(["--games", "12"])
        .arg("--report")
        .arg(&report)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run tengen stress crash");
    let text = std::fs::read_to_string(&report).unwrap_or_default();
    assert!(out.status.success(), "exit {:?}\n{}\n{text}", out.status, String::from_utf8_lossy(&out.stderr));
    let r: serde_json::Value = serde_json::from_str(&text).expect("JSON report");
    assert_eq!(r["ok"], true, "{text}");
    assert_eq!(r["trials"], 5);
    assert_eq!(r["lost"].as_array().map(Vec::len), Some(0), "{text}");
    assert_eq!(r["integrity_failures"], 0);
    assert_eq!(r["server_errors"], 0, "{text}");
    assert!(r["acked"].as_u64().unwrap_or(0) >= 20, "writes were made: {text}");
    let trials = r["per_trial"].as_array().expect("per-trial rows");
    assert_eq!(trials.len(), 5);
    for t in trials {
        assert_eq!(t["integrity"], "ok", "{t}");
        assert!(t["facts_checked"].as_u64().unwrap_or(0) > 0, "{t}");
    }
    // Every kind of write was made and acknowledged: entrants created and edited, results
    // entered and rulings added on the published round's games.
    for kind in ["entrant-create", "entrant-edit", "result-entry", "ruling-add"] {
        assert!(r["acked_by_kind"][kind].as_u64().unwrap_or(0) > 0, "no {kind} acknowledged: {text}");
    }
}

#[test]
fn unknown_write_kinds_are_refused() {
    let out = std::process::Command::new(bin())
        .args(["stress", "crash", "--trials", "1", "--writes", "entrant-create,teleport"])
        .output()
        .expect("run tengen stress crash");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("teleport"));
}

/// Load (issue 8.5), the short version CI runs: `tengen bench load` for a few seconds on a
/// small event; the public pages answer without a 5xx while arbiters enter results, and every
/// acknowledged result is in the database afterwards. BENCHMARKS.md has the full run.
#[test]
fn public_pages_under_load_while_arbiters_write_results() {
    let out = std::process::Command::new(bin())
        .args(["bench", "load", "--players", "80", "--rounds", "3", "--readers", "8", "--writers", "2"])
        .args(["--duration", "3", "--write-interval-ms", "50"])
        .env("TENGEN_LOG", "warn")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run tengen bench load");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "exit {:?}\n{stdout}\n{stderr}", out.status);
    let line = stdout.lines().last().unwrap_or_default();
    let r: serde_json::Value = serde_json::from_str(line).expect("JSON on the last line");
    assert_eq!(r["ok"], true, "{line}");
    assert_eq!(r["server_errors"], 0, "{line}");
    assert_eq!(r["connection_errors"], 0, "{line}");
    assert_eq!(r["writes_lost"], 0, "{line}");
    assert!(r["writes_acknowledged"].as_u64().unwrap_or(0) >= 5, "{line}");
    assert_eq!(r["writes_verified"], r["writes_acknowledged"], "{line}");
    assert!(r["requests"].as_u64().unwrap_or(0) >= 100, "{line}");
    for page in ["pairings", "results", "standings", "crosstable", "player"] {
        assert!(r["pages"][page]["requests"].as_u64().unwrap_or(0) > 0, "{page} was read: {line}");
    }
    let statuses: Vec<&String> = r["status"].as_object().expect("status counts").keys().collect();
    assert_eq!(statuses, ["200"], "{line}");
}
