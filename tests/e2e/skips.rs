//! A pass means a run: a test that needs a tool outside Cargo (PostgreSQL, Chromium) is
//! ignored with its reason when the tool is not switched on (`build.rs`), never passed after
//! a note on stderr that nobody sees.

use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let p = entry.path();
        if p.is_dir() && !p.ends_with("fuzz") {
            sources(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// Operations (no rule article): no test of the workspace returns early saying it was skipped,
/// and every ignored test says why (`#[ignore = "…"]`), so the summary counts what did not run.
#[test]
fn a_test_that_cannot_run_is_ignored_with_its_reason() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["tests", "admin/src", "admin/tests", "rules/src"] {
        if root.join(dir).is_dir() {
            sources(&root.join(dir), &mut files);
        }
    }
    assert!(files.len() > 50, "the workspace's sources: {}", files.len());
    let skip_note = ["eprintln!(\"skip", "eprintln!(\"SKIP"];
    let mut found = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for (n, line) in text.lines().enumerate() {
            let at = format!("{}:{}", f.strip_prefix(root).unwrap_or(f).display(), n + 1);
            let line = line.trim();
            let note = skip_note.iter().any(|s| line.contains(s))
                || line.starts_with("\"skip")
                || line.starts_with("\"SKIP");
            if note {
                found.push(format!("{at}: a test that passes without running: {line}"));
            }
            // (`cfg_attr(…, ignore)` spelt in two parts, so that this line is not one.)
            let bare_ignore = line.starts_with("#[ignore]") || line.contains(&[", ", "ignore)]"].concat());
            if bare_ignore {
                found.push(format!("{at}: ignored without a reason: {line}"));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}
