//! Which of the end-to-end tests that need a tool outside Cargo run in this build. A test that
//! cannot run here is ignored with its reason (`#[cfg_attr(not(CFG), ignore = "needs …")]`), so
//! that the summary counts it as ignored and a pass always means it ran. The switches:
//!
//! - `TENGEN_TEST_PG_URL` (a PostgreSQL database the tests may wipe; `.ci/postgres-e2e` sets it)
//!   → `cfg(tengen_pg)`: the PostgreSQL end-to-end and stress tests (with `--features postgres`);
//! - `TENGEN_TEST_BROWSER=1` (`.ci/run` sets it and installs chromium and chromium-driver) →
//!   `cfg(tengen_browser)`: the tests in real Chromium;
//! - `TENGEN_TEST_FAILOVER=1` (`.ci/run` sets it and installs Debian's patroni and etcd-server)
//!   → `cfg(tengen_failover)`: the short failover chaos run (with `--features postgres`);
//! - `TENGEN_TEST_LIGHTHOUSE=1` (`.ci/run` sets it and installs Lighthouse into `.ci/node/`) →
//!   `cfg(tengen_lighthouse)`: Lighthouse's audit of the public pages.
//!
//! Run with the switch but without the tool, such a test fails and says what is missing.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(tengen_pg)");
    println!("cargo::rustc-check-cfg=cfg(tengen_browser)");
    println!("cargo::rustc-check-cfg=cfg(tengen_lighthouse)");
    println!("cargo::rustc-check-cfg=cfg(tengen_failover)");
    println!("cargo::rerun-if-env-changed=TENGEN_TEST_PG_URL");
    println!("cargo::rerun-if-env-changed=TENGEN_TEST_BROWSER");
    println!("cargo::rerun-if-env-changed=TENGEN_TEST_LIGHTHOUSE");
    println!("cargo::rerun-if-env-changed=TENGEN_TEST_FAILOVER");
    println!("cargo::rerun-if-changed=build.rs");
    if std::env::var("TENGEN_TEST_PG_URL").is_ok_and(|u| !u.trim().is_empty()) {
        println!("cargo::rustc-cfg=tengen_pg");
    }
    if std::env::var("TENGEN_TEST_BROWSER").is_ok_and(|v| v == "1") {
        println!("cargo::rustc-cfg=tengen_browser");
    }
    if std::env::var("TENGEN_TEST_FAILOVER").is_ok_and(|v| v == "1") {
        println!("cargo::rustc-cfg=tengen_failover");
    }
    if std::env::var("TENGEN_TEST_LIGHTHOUSE").is_ok_and(|v| v == "1") {
        println!("cargo::rustc-cfg=tengen_lighthouse");
    }
}
