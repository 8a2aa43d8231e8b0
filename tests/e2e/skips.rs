//! A pass means a run: a test that needs a tool outside Cargo (PostgreSQL, Chromium) is
//! ignored with its reason when the tool is not switched on (`build.rs`), never passed after
//! a note on stderr that nobody sees; and every test file of the suite is compiled into it.

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
    for dir in ["tests", "admin/src", "admin/tests", "admin/store", "rules/src"] {
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

/// Whether the module file `src` declares the module `name` (`mod name;`, `pub mod name;`).
fn declares(src: &str, name: &str) -> bool {
    src.lines().map(str::trim).any(|l| l == format!("mod {name};") || l == format!("pub mod {name};"))
}

/// The files and folders under `dir` that its module file `root` (main.rs or mod.rs) does not
/// declare: a file Cargo never compiles, whose tests never run.
fn undeclared(dir: &Path, root: &Path, out: &mut Vec<String>) {
    let src = std::fs::read_to_string(root).unwrap_or_default();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let p = entry.path();
        let name = p.file_stem().unwrap_or_default().to_string_lossy().into_owned();
        let module = if p.is_dir() {
            undeclared(&p, &p.join("mod.rs"), out);
            true
        } else {
            p.extension().is_some_and(|e| e == "rs") && p != root
        };
        if module && !declares(&src, &name) {
            out.push(format!("{} (declare it in {})", p.display(), root.display()));
        }
    }
}

/// Operations (no rule article): the end-to-end tests are one binary, `tests/e2e/`, and every
/// file in it is a module of it. A test file directly in `tests/` would be a binary of its own
/// that builds the helpers again; a file in `tests/e2e/` that no `mod` declares is never
/// compiled, so its tests would pass by never running.
#[test]
fn every_end_to_end_test_file_is_a_module_of_the_one_binary() {
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut found: Vec<String> = std::fs::read_dir(&tests)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .map(|p| format!("{}: a test binary of its own (move it to tests/e2e/)", p.display()))
        .collect();
    undeclared(&tests.join("e2e"), &tests.join("e2e/main.rs"), &mut found);
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/");
    assert!(found.is_empty(), "{}", found.join("\n").replace(root, ""));
    assert!(declares("mod a;\n    pub mod b;", "b") && !declares("// mod c;", "c"));
}
