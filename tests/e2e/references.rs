//! The repository explains itself: no document, comment or test sends its reader to a tracker
//! issue by number or to a path outside the repository, which a clone does not have. A comment
//! says the reason itself, or cites a rule article ("seed 003 Art. 14"), a decision of
//! docs/rules.md ("D21") or a file of the repository.

use std::path::{Path, PathBuf};

/// Folders never walked: build output, Git's data, and fuzzing corpora (arbitrary bytes).
const NEVER: [&str; 5] = ["target", ".git", "corpus", "artifacts", "node_modules"];

/// The endings of the files read as text.
const TEXT: [&str; 17] = [
    "rs", "md", "toml", "sql", "html", "sh", "txt", "py", "js", "css", "ftl", "json", "yml", "yaml", "csv",
    "xml", "sgf",
];

/// The text files under `dir`: those with a [`TEXT`] ending, and scripts without one (`#!`).
fn text_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let p = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if NEVER.contains(&name.as_str()) {
            continue;
        }
        if p.is_dir() {
            text_files(&p, out);
        } else if match p.extension() {
            Some(e) => TEXT.contains(&e.to_string_lossy().as_ref()),
            None => std::fs::read(&p).is_ok_and(|b| b.starts_with(b"#!")),
        } {
            out.push(p);
        }
    }
}

/// What `line` refers to that a clone does not have: a tracker issue by number (the word, maybe
/// plural, then a number, maybe after a space or `#`), a path into the shared folder beside the
/// repository, or a path of the machine it was written on.
fn outside_reference(line: &str) -> Option<&'static str> {
    let lower = line.to_lowercase();
    for (at, _) in lower.match_indices("issue") {
        let rest = lower[at + "issue".len()..].strip_prefix('s').unwrap_or(&lower[at + "issue".len()..]);
        let rest = rest.strip_prefix(' ').unwrap_or(rest);
        let rest = rest.strip_prefix('#').unwrap_or(rest);
        let word_start = at == 0 || !lower[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_');
        if word_start && rest.starts_with(|c: char| c.is_ascii_digit()) {
            return Some("a tracker issue by number: say the reason itself or cite the rule");
        }
    }
    // (Both paths spelt in two parts, so that this file is not a finding of its own.)
    if lower.contains(&["../", "shared"].concat()) || lower.contains(&["shared/", "seeds"].concat()) {
        return Some("the shared folder beside the repository: cite docs/rules.md or copy the file in");
    }
    if lower.contains(&["/wo", "rk/"].concat()) {
        return Some("a path of the machine it was written on");
    }
    None
}

/// Operations (no rule article): no text file of the repository refers to a tracker issue by
/// number or to a path outside the repository; each finding is named by file and line.
#[test]
fn nothing_refers_outside_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    text_files(root, &mut files);
    assert!(files.len() > 200, "the repository's text files: {}", files.len());
    let mut found = Vec::new();
    for f in &files {
        let rel = f.strip_prefix(root).unwrap_or(f).to_string_lossy().replace('\\', "/");
        let Ok(text) = std::fs::read_to_string(f) else { continue };
        for (n, line) in text.lines().enumerate() {
            if let Some(what) = outside_reference(line) {
                found.push(format!("{rel}:{}: {what}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(found.is_empty(), "{} references outside the repository:\n{}", found.len(), found.join("\n"));
}

/// The check finds what it is for and leaves alone what only looks like it.
#[test]
fn outside_references_are_recognised() {
    let issue = |s: &str| ["see ", s, " for why"].concat();
    for hit in [
        issue(&["issue", " 13"].concat()),
        issue(&["Issue", " 15 item 4"].concat()),
        issue(&["issues", " 12"].concat()),
        issue(&["issue", " #7"].concat()),
        issue(&["(issue", "16)"].concat()),
        ["the digest in ..", "/shared/rules.md"].concat(),
        ["read ", "shared/", "seeds/000.txt"].concat(),
        ["/wo", "rk/shared/data/x.csv"].concat(),
    ] {
        assert!(outside_reference(&hit).is_some(), "not found: {hit}");
    }
    for fine in [
        "an issued token expires",
        "the issue of a new card",
        "tissue 12",
        "rules.md §14.1 item 3: no rematches",
        "seed 003 Art. 14",
        "a shared helper",
        "the homework/ folder",
    ] {
        assert_eq!(outside_reference(fine), None, "{fine}");
    }
}
