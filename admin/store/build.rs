// embed_migrations! does not notice new or edited migrations by itself. `cfg(tengen_pg)`: the
// schema test that needs PostgreSQL runs only when TENGEN_TEST_PG_URL names a database it may
// wipe (as the root package's build.rs switches the end-to-end tests); otherwise it is ignored
// with its reason.
fn main() {
    println!("cargo::rerun-if-changed=../../migrations");
    println!("cargo::rerun-if-changed=../migrations_postgres");
    println!("cargo::rustc-check-cfg=cfg(tengen_pg)");
    println!("cargo::rerun-if-env-changed=TENGEN_TEST_PG_URL");
    if std::env::var("TENGEN_TEST_PG_URL").is_ok_and(|u| !u.trim().is_empty()) {
        println!("cargo::rustc-cfg=tengen_pg");
    }
}
