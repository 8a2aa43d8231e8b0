//! Crash safety, the short version CI runs: `tengen-lab stress crash` with a few
//! trials, every write kind (entrants, results, rulings). The full run (100 trials) is in
//! docs/testing.md; both use the same command.

use crate::common;
use common::*;

/// Run `tengen-lab stress crash` with `args` (and a report file); the report, after the checks
/// every run must pass: exit 0, ok, nothing lost, sound after every trial, every write kind
/// acknowledged.
fn crash_run(args: &[&str], trials: usize) -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("stress.json");
    let trials_s = trials.to_string();
    let mut all = vec!["stress", "crash", "--trials", &trials_s];
    all.extend_from_slice(args);
    all.extend(["--report", report.to_str().unwrap()]);
    let out = run_lab(&all);
    let text = std::fs::read_to_string(&report).unwrap_or_default();
    assert!(out.status.success(), "exit {:?}\n{}\n{text}", out.status, String::from_utf8_lossy(&out.stderr));
    let r: serde_json::Value = serde_json::from_str(&text).expect("JSON report");
    assert_eq!(r["ok"], true, "{text}");
    assert_eq!(r["trials"], trials);
    assert_eq!(r["lost"].as_array().map(Vec::len), Some(0), "{text}");
    assert_eq!(r["integrity_failures"], 0);
    assert_eq!(r["server_errors"], 0, "{text}");
    assert!(r["acked"].as_u64().unwrap_or(0) >= 20, "writes were made: {text}");
    let rows = r["per_trial"].as_array().expect("per-trial rows");
    assert_eq!(rows.len(), trials);
    for t in rows {
        assert_eq!(t["integrity"], "ok", "{t}");
        assert!(t["facts_checked"].as_u64().unwrap_or(0) > 0, "{t}");
    }
    // Every kind of write was made and acknowledged: entrants created and edited, results
    // entered and rulings added on the published round's games.
    for kind in ["entrant-create", "entrant-edit", "result-entry", "ruling-add"] {
        assert!(r["acked_by_kind"][kind].as_u64().unwrap_or(0) > 0, "no {kind} acknowledged: {text}");
    }
    r
}

/// What the trials of a report killed, in order.
fn victims(r: &serde_json::Value) -> Vec<String> {
    r["per_trial"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["victim"].as_str().unwrap_or("").to_string())
        .collect()
}

#[test]
fn acknowledged_writes_survive_sigkill_and_restart() {
    let r = crash_run(
        &["--clients", "3", "--seed", "8", "--min-kill-ms", "150", "--max-kill-ms", "700", "--games", "12"],
        5,
    );
    assert_eq!(r["database"], "sqlite");
}

/// Two servers on one SQLite file: either may die; what either acknowledged
/// is kept, and the other goes on serving.
#[test]
fn two_servers_on_one_file_lose_nothing_when_either_is_killed() {
    let args: Vec<&str> = "--servers 2 --clients 4 --seed 1 --min-kill-ms 150 --max-kill-ms 600 --games 12"
        .split(' ')
        .collect();
    let r = crash_run(&args, 4);
    let v = victims(&r);
    assert!(v.contains(&"server 0".into()) && v.contains(&"server 1".into()), "{v:?}");
}

/// The PostgreSQL runs need the e2e package built with the `postgres` feature and Debian's
/// PostgreSQL server programs (`.ci/postgres-e2e` has both); fails saying which is missing.
fn postgresql_here() {
    if !cfg!(feature = "postgres") {
        panic!("the e2e tests are built without the postgres feature (--features postgres)");
    }
    let bin_dir = std::process::Command::new("pg_config").arg("--bindir").output().ok();
    let bin_dir = bin_dir.map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string()).unwrap_or_default();
    assert!(
        std::path::Path::new(&bin_dir).join("initdb").is_file(),
        "PostgreSQL's server programs are not installed (apt-get install postgresql)"
    );
}

/// Two servers on one PostgreSQL, and the trials kill either server or the
/// PostgreSQL server itself (postmaster and every backend at once); every acknowledged write
/// is there after its restart (pg_amcheck sound), 503s while it is down, and both servers
/// serve again by themselves. Runs with the `postgres` feature where Debian's PostgreSQL
/// server programs are installed (`.ci/postgres-e2e`); ignored with that reason otherwise.
#[test]
#[cfg_attr(
    not(all(tengen_pg, feature = "postgres")),
    ignore = "needs PostgreSQL and --features postgres (.ci/postgres-e2e has both); TENGEN_TEST_PG_URL=postgres://… runs it"
)]
fn postgresql_or_either_server_killed_loses_nothing() {
    postgresql_here();
    let args: Vec<&str> =
        "--postgres --servers 2 --clients 4 --seed 1 --min-kill-ms 150 --max-kill-ms 700 --games 12"
            .split(' ')
            .collect();
    let r = crash_run(&args, 6);
    assert_eq!(r["database"], "postgresql");
    let v = victims(&r);
    for who in ["server 0", "server 1", "postgresql"] {
        assert!(v.contains(&who.to_string()), "{who} was never killed: {v:?}");
    }
    assert!(r["unavailable"].as_u64().unwrap_or(0) > 0, "a write met the database down: {r}");
}

/// The office survives the loss of any one machine, the short version of `tengen-lab stress
/// failover` (docs/testing.md): three etcd members, two PostgreSQL nodes under Patroni
/// (synchronous, strict), two Tengen servers on the multi-host address; four trials, one of
/// each fault: the primary SIGKILLed, the primary frozen (SIGSTOP), an etcd member killed, a
/// rolling upgrade (the next release's column added under the migrations' lock, then each
/// server replaced). Every acknowledged write and its audit rows are there
/// after each, pg_amcheck finds nothing, no 5xx but the 503, never two primaries, and never
/// more than 30 s without one. Runs where `.ci/run` installed Patroni and etcd
/// (TENGEN_TEST_FAILOVER=1) with the `postgres` feature; ignored with that reason otherwise.
#[test]
#[cfg_attr(
    not(all(tengen_failover, feature = "postgres")),
    ignore = "needs Debian's patroni, etcd-server and postgresql and --features postgres; TENGEN_TEST_FAILOVER=1 (.ci/run) runs it"
)]
fn the_office_survives_losing_the_primary_an_etcd_member_or_a_server() {
    postgresql_here();
    for program in ["patroni", "etcd"] {
        let found = std::process::Command::new(program).arg("--version").output().is_ok();
        assert!(found, "{program} is not installed (apt-get install patroni etcd-server)");
    }
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("failover.json");
    let out = run_lab(&[
        "stress",
        "failover",
        "--trials",
        "4",
        "--clients",
        "4",
        "--seed",
        "3",
        "--max-freeze-s",
        "12",
        "--report",
        report.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&report).unwrap_or_default();
    assert!(out.status.success(), "exit {:?}\n{}\n{text}", out.status, String::from_utf8_lossy(&out.stderr));
    let r: serde_json::Value = serde_json::from_str(&text).expect("JSON report");
    assert_eq!(r["ok"], true, "{text}");
    assert_eq!(r["lost"].as_array().map(Vec::len), Some(0), "{text}");
    assert_eq!(r["integrity_failures"], 0, "{text}");
    assert_eq!(r["server_errors"], 0, "{text}");
    assert_eq!(r["most_primaries"], 1, "{text}");
    assert!(r["longest_without_primary_ms"].as_u64().is_some_and(|ms| ms <= 30_000), "{text}");
    assert!(r["acked"].as_u64().unwrap_or(0) >= 20, "writes were made: {text}");
    let faults: Vec<&str> =
        r["per_trial"].as_array().unwrap().iter().map(|t| t["fault"].as_str().unwrap()).collect();
    for (t, want) in
        ["SIGKILL primary", "SIGSTOP primary", "SIGKILL etcd", "rolling upgrade"].iter().enumerate()
    {
        assert!(faults[t].starts_with(want), "trial {}: {faults:?}", t + 1);
    }
    // The primary's death was noticed: the standby took over, and writes met the 503 meanwhile.
    assert!(r["per_trial"][0]["without_primary_ms"].as_u64().unwrap_or(0) > 0, "{text}");
    assert!(r["unavailable"].as_u64().unwrap_or(0) > 0, "{text}");
    for t in r["per_trial"].as_array().unwrap() {
        assert_eq!(t["integrity"], "ok", "{t}");
        assert_eq!(t["lost"], 0, "{t}");
    }
}

#[test]
fn unknown_write_kinds_are_refused() {
    let out = run_lab(&["stress", "crash", "--trials", "1", "--writes", "entrant-create,teleport"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("teleport"));
}

/// `tengen-lab bench load` with `extra` arguments for a few seconds on a small event, and the
/// checks every such run must pass; its JSON report.
fn load_run(extra: &[&str]) -> serde_json::Value {
    let mut all =
        vec!["bench", "load", "--players", "80", "--rounds", "3", "--readers", "8", "--writers", "2"];
    all.extend_from_slice(extra);
    all.extend(["--duration", "3", "--write-interval-ms", "50"]);
    let out = run_lab(&all);
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
    r
}

/// Load, the short version CI runs: `tengen-lab bench load` for a few seconds on a
/// small event; the public pages answer without a 5xx while arbiters enter results, and every
/// acknowledged result is in the database afterwards. BENCHMARKS.md has the full run.
#[test]
fn public_pages_under_load_while_arbiters_write_results() {
    let r = load_run(&[]);
    assert_eq!((r["database"].as_str(), r["servers"].as_u64()), (Some("sqlite"), Some(1)));
}

/// The load with readers and arbiters spread over two servers (the lab's process and its
/// `serve`, which is `tengen serve`) on one PostgreSQL; no 5xx, every acknowledged result there.
#[test]
#[cfg_attr(
    not(all(tengen_pg, feature = "postgres")),
    ignore = "needs PostgreSQL and --features postgres (.ci/postgres-e2e has both); TENGEN_TEST_PG_URL=postgres://… runs it"
)]
fn public_pages_under_load_on_two_servers_and_postgresql() {
    postgresql_here();
    let r = load_run(&["--postgres", "--servers", "2"]);
    assert_eq!((r["database"].as_str(), r["servers"].as_u64()), (Some("postgresql"), Some(2)));
}

/// The live contract under a rush, the short version CI runs: `tengen-lab bench rush` with 300
/// open streams and 500 phones on a small event: every stream opens, the round's publishing
/// and then a saved result reach every open stream within 2 s, and no phone's fetch fails. (The memory and p99 goals are the
/// release run's, BENCHMARKS.md; this debug build only reports them.)
#[test]
fn a_rush_of_phones_with_live_streams_open() {
    let out = run_lab(&[
        "bench",
        "rush",
        "--players",
        "200",
        "--connections",
        "300",
        "--phones",
        "500",
        "--rush-seconds",
        "5",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(matches!(out.status.code(), Some(0 | 1)), "exit {:?}\n{stdout}\n{stderr}", out.status);
    let line = stdout.lines().last().unwrap_or_default();
    let r: serde_json::Value = serde_json::from_str(line).expect("JSON on the last line");
    assert_eq!(r["connections_open"], 300, "{line}");
    assert_eq!(r["stream_errors"], 0, "{line}");
    assert_eq!(r["errors"], 0, "{line}");
    assert_eq!(r["fetches"], 1000, "{line}");
    assert_eq!(r["told"], 300, "every open stream had the change: {line}");
    assert!(r["fanout_ms"].as_f64().unwrap_or(f64::MAX) <= 2000.0, "{line}");
    assert!(r["publish_fanout_ms"].as_f64().unwrap_or(f64::MAX) <= 2000.0, "the publish too: {line}");
    assert!(r["kb_per_connection"].as_f64().is_some() && r["p99_ms"].as_f64().is_some(), "{line}");
}
