//! The conformance table of `docs/rules.md` (its Part 4) against the repository's tests.
//!
//! - Every article of both rule texts (seed 000, the 2002 rules; seed 003, the 队际赛 relay
//!   rules) and every row of the project's decisions has exactly one row; the expected rows are
//!   listed below, so an article dropped from the table (or a row nobody expects) fails.
//! - Every row names at least one test, or says why none does.
//! - Every test named exists: a `#[test]` function of that name in the workspace's Rust files,
//!   read from disk (nothing is compiled or run).
//! - Every test whose doc comment names an article ("Art. 17.5", "Arts. 15.2, 23.2") is named
//!   in some row, so a new test of an article cannot be left out of the table unnoticed.
//!
//! Test names are written as Cargo prints them, prefixed by the target that holds them:
//! `rules::rulings::tests::offence_table` (a unit test in the `rules` crate's src/),
//! `domain::team::tests::chief_arbiter_endings` (the `domain` crate's src/, in admin/domain;
//! `admin::…` for the `admin` crate's, `store::…` for admin/store's), and
//! `e2e::team::relay_match_through_every_rule_over_http` (the module `tests/e2e/team.rs` of the
//! end-to-end test binary `tests/e2e/`; a test file directly in `tests/`, `rules/tests/` or
//! `admin/tests/` is named by its file name). `docs/rules.md` says the same at its top.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The rows of seed 000 (the 2002 rules), in the table's order. Articles the seed lacks
/// (6, 17.5's list, 20.3, 22.2–22.9, 23, 24) have rows too: the table says where the project
/// takes them from.
const SEED_000: &[&str] = &[
    "000 Art. 1",
    "000 Art. 2",
    "000 Art. 3",
    "000 Art. 4",
    "000 Art. 5",
    "000 Art. 6",
    "000 Art. 7",
    "000 Art. 8",
    "000 Art. 9",
    "000 Art. 10",
    "000 Art. 11",
    "000 Art. 12.1",
    "000 Art. 12.2",
    "000 Art. 12.3",
    "000 Art. 12.4",
    "000 Art. 12.5",
    "000 Art. 13.1",
    "000 Art. 13.2",
    "000 Art. 14",
    "000 Art. 15.1",
    "000 Art. 15.2",
    "000 Art. 15.3–15.8",
    "000 Art. 16.1",
    "000 Art. 16.2",
    "000 Art. 16.3",
    "000 Art. 16.4",
    "000 Art. 16.5",
    "000 Art. 16.6–16.7",
    "000 Art. 17.1",
    "000 Art. 17.2",
    "000 Art. 17.3",
    "000 Art. 17.4",
    "000 Art. 17.5",
    "000 Art. 17.6",
    "000 Art. 18.1",
    "000 Art. 18.2",
    "000 Art. 18.3",
    "000 Art. 19",
    "000 Art. 20.1",
    "000 Art. 20.2",
    "000 Art. 20.3",
    "000 Art. 21.1",
    "000 Art. 21.2",
    "000 Art. 21.3",
    "000 Art. 22.1",
    "000 Art. 22.2",
    "000 Art. 22.3",
    "000 Art. 22.4",
    "000 Art. 22.5",
    "000 Art. 22.6",
    "000 Art. 22.7",
    "000 Art. 22.8",
    "000 Art. 22.9",
    "000 Art. 23",
    "000 Art. 24",
];

/// The rows of seed 003 (the relay rules), in the table's order, with its gaps (10.5 暂停 (1),
/// 16.2, 24.1) named.
const SEED_003: &[&str] = &[
    "003 Art. 1",
    "003 Art. 2",
    "003 Art. 3",
    "003 Art. 4",
    "003 Art. 5",
    "003 Art. 6",
    "003 Art. 7",
    "003 Art. 8",
    "003 Art. 9.1",
    "003 Art. 9.2",
    "003 Art. 9.3",
    "003 Art. 9.4",
    "003 Art. 10.1",
    "003 Art. 10.2",
    "003 Art. 10.3",
    "003 Art. 10.4",
    "003 Art. 10.5",
    "003 Art. 10.5 换人 (1)–(2)",
    "003 Art. 10.5 换人 (3)",
    "003 Art. 10.5 暂停 (1)",
    "003 Art. 10.5 暂停 (2)",
    "003 Art. 11",
    "003 Art. 12",
    "003 Art. 12 注",
    "003 Art. 12 节棋",
    "003 Art. 13",
    "003 Art. 14",
    "003 Art. 15.1",
    "003 Art. 15.2",
    "003 Art. 15.3",
    "003 Art. 15.4",
    "003 Art. 15.5–15.8",
    "003 Art. 16.1",
    "003 Art. 16.2",
    "003 Art. 16.3",
    "003 Art. 16.4",
    "003 Art. 16.5–16.6",
    "003 Art. 17.1",
    "003 Art. 17.2",
    "003 Art. 17.3",
    "003 Art. 17.4",
    "003 Art. 17.5",
    "003 Art. 17.6",
    "003 Art. 17.7",
    "003 Art. 17.8",
    "003 Art. 18.1",
    "003 Art. 18.2",
    "003 Art. 18.3",
    "003 Art. 19",
    "003 Art. 20.1",
    "003 Art. 20.2",
    "003 Art. 20.3",
    "003 Art. 21.1",
    "003 Art. 21.2",
    "003 Art. 21.3",
    "003 Art. 21.4",
    "003 Art. 22.1",
    "003 Art. 22.2",
    "003 Art. 22.3",
    "003 Art. 22.4",
    "003 Art. 22.5",
    "003 Art. 23.1",
    "003 Art. 23.2",
    "003 Art. 23.3–23.8",
    "003 Art. 23.9",
    "003 Art. 23.10",
    "003 Art. 23.11",
    "003 Art. 24.1",
    "003 Art. 24.2",
    "003 Art. 24.3",
    "003 Art. 24.4",
];

/// The project's decisions (Part 3's table): rows D1 … D`DECISIONS`.
const DECISIONS: usize = 28;

/// The heading that starts the conformance table; it ends at the next `## ` heading.
const TABLE_HEADING: &str = "## Part 4";

/// What a row's "Tests" cell holds when no test checks the article.
const NO_TEST: &str = "—";

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("rules/ has a parent").to_path_buf()
}

/// One row of the conformance table.
#[derive(Debug)]
struct Row {
    line: usize,
    id: String,
    tests: Vec<String>,
    note: String,
}

/// The cells of a Markdown table line (`| a | b |` → ["a", "b"]), `None` for other lines.
fn cells(line: &str) -> Option<Vec<String>> {
    let t = line.trim();
    let inner = t.strip_prefix('|')?.strip_suffix('|')?;
    Some(inner.split('|').map(|c| c.trim().to_string()).collect())
}

fn is_row_id(id: &str) -> bool {
    id.starts_with("000 Art. ")
        || id.starts_with("003 Art. ")
        || (id.len() > 1 && id.starts_with('D') && id[1..].bytes().all(|b| b.is_ascii_digit()))
}

/// The table's rows, or the problems found reading it.
fn parse_table(text: &str) -> Result<Vec<Row>, Vec<String>> {
    let mut rows = Vec::new();
    let mut problems = Vec::new();
    let Some(start) = text.lines().position(|l| l.starts_with(TABLE_HEADING)) else {
        return Err(vec![format!("no heading starting with {TABLE_HEADING:?}")]);
    };
    for (i, line) in text.lines().enumerate().skip(start + 1) {
        if line.starts_with("## ") {
            break;
        }
        let Some(c) = cells(line) else { continue };
        let n = i + 1;
        if c[0] == "Row" || c[0].chars().all(|ch| ch == '-' || ch == ':') {
            continue; // a header or its separator
        }
        if !is_row_id(&c[0]) {
            problems.push(format!("line {n}: {:?} is not a row name (000 Art. …, 003 Art. …, D…)", c[0]));
            continue;
        }
        if c.len() != 4 {
            problems.push(format!(
                "line {n} ({}): {} cells, expected 4 (Row | Subject | Tests | Note)",
                c[0],
                c.len()
            ));
            continue;
        }
        match parse_tests(&c[2]) {
            Ok(tests) => rows.push(Row { line: n, id: c[0].clone(), tests, note: c[3].clone() }),
            Err(e) => problems.push(format!("line {n} ({}): {e}", c[0])),
        }
    }
    if problems.is_empty() {
        Ok(rows)
    } else {
        Err(problems)
    }
}

/// A "Tests" cell: `—`, or test names in backticks separated by commas.
fn parse_tests(cell: &str) -> Result<Vec<String>, String> {
    if cell == NO_TEST {
        return Ok(Vec::new());
    }
    let mut tests = Vec::new();
    for part in cell.split(',') {
        let p = part.trim();
        let name = p
            .strip_prefix('`')
            .and_then(|p| p.strip_suffix('`'))
            .filter(|n| !n.is_empty() && !n.contains('`'))
            .ok_or_else(|| format!("{p:?} is not a test name in backticks (or write {NO_TEST} alone)"))?;
        tests.push(name.to_string());
    }
    Ok(tests)
}

// ---- the tests in the repository ------------------------------------------------------------

/// Rust source reduced to the tokens this check needs: words (identifiers, keywords, numbers),
/// single punctuation characters, and outer doc comments (`/// text` as one token starting with
/// `///`). Other comments, strings and character literals are dropped, so braces inside them do
/// not count.
fn tokens(src: &str) -> Vec<String> {
    let s: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let word = |c: char| c.is_alphanumeric() || c == '_';
    while i < s.len() {
        let c = s[i];
        if c.is_whitespace() {
            i += 1;
        } else if c == '/' && s.get(i + 1) == Some(&'/') {
            let start = i;
            while i < s.len() && s[i] != '\n' {
                i += 1;
            }
            let line: String = s[start..i].iter().collect();
            if line.starts_with("///") && !line.starts_with("////") {
                out.push(line);
            }
        } else if c == '/' && s.get(i + 1) == Some(&'*') {
            let mut depth = 0;
            while i < s.len() {
                if s[i] == '/' && s.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if s[i] == '*' && s.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if c == '"' {
            i = skip_string(&s, i + 1);
        } else if c == '\'' {
            if s.get(i + 1) == Some(&'\\') {
                // An escaped character: '\n', '\'', '\u{7b}'.
                i += 3;
                while i < s.len() && s[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if s.get(i + 2) == Some(&'\'') {
                i += 3; // a character: '{'
            } else {
                i += 1; // a lifetime or a label: the name follows as a word
            }
        } else if word(c) {
            let start = i;
            while i < s.len() && word(s[i]) {
                i += 1;
            }
            let w: String = s[start..i].iter().collect();
            let next = s.get(i).copied();
            if matches!(w.as_str(), "r" | "br" | "cr") && matches!(next, Some('"') | Some('#')) {
                let mut hashes = 0;
                while s.get(i) == Some(&'#') {
                    hashes += 1;
                    i += 1;
                }
                if s.get(i) == Some(&'"') {
                    i = skip_raw_string(&s, i + 1, hashes);
                } else {
                    // A raw identifier (r#type): the name follows as a word.
                }
            } else if matches!(w.as_str(), "b" | "c") && next == Some('"') {
                i = skip_string(&s, i + 1);
            } else if w == "b" && next == Some('\'') {
                i += 1;
                if s.get(i + 1) == Some(&'\\') {
                    i += 3;
                    while i < s.len() && s[i] != '\'' {
                        i += 1;
                    }
                    i += 1;
                } else {
                    i += 3;
                }
            } else {
                out.push(w);
            }
        } else {
            out.push(c.to_string());
            i += 1;
        }
    }
    out
}

/// The index just after a string's closing quote; `i` is just after the opening one.
fn skip_string(s: &[char], mut i: usize) -> usize {
    while i < s.len() {
        match s[i] {
            '\\' => i += 2,
            '"' => return i + 1,
            _ => i += 1,
        }
    }
    i
}

/// The index just after a raw string's closing `"###`; `i` is just after the opening quote.
fn skip_raw_string(s: &[char], mut i: usize, hashes: usize) -> usize {
    while i < s.len() {
        if s[i] == '"' && (0..hashes).all(|k| s.get(i + 1 + k) == Some(&'#')) {
            return i + 1 + hashes;
        }
        i += 1;
    }
    i
}

/// A test function found in a file: its module path inside the file, its name and its doc
/// comment.
#[derive(Debug)]
struct Found {
    path: Vec<String>,
    name: String,
    doc: String,
}

/// The `#[test]` functions of one file (also `#[tokio::test]` and the like, and those inside
/// `proptest!`), each with the inline modules (`mod tests { … }`) around it.
fn tests_in(src: &str) -> Vec<Found> {
    let t = tokens(src);
    let mut found = Vec::new();
    let mut depth = 0usize;
    // Inline modules: (name, the depth inside its braces).
    let mut modules: Vec<(String, usize)> = Vec::new();
    let mut pending_test = false;
    // The doc comment lines since the last item: what the next `fn` carries.
    let mut doc: Vec<&str> = Vec::new();
    let mut i = 0;
    while i < t.len() {
        if let Some(line) = t[i].strip_prefix("///") {
            doc.push(line.trim());
            i += 1;
            continue;
        }
        match t[i].as_str() {
            "{" | ";" if !pending_test => {
                doc.clear();
                if t[i] == "{" {
                    depth += 1;
                }
            }
            "{" => depth += 1,
            "}" => {
                doc.clear();
                if modules.last().is_some_and(|(_, d)| *d == depth) {
                    modules.pop();
                }
                depth = depth.saturating_sub(1);
            }
            "mod" if t.get(i + 2).map(String::as_str) == Some("{") => {
                doc.clear();
                modules.push((t[i + 1].clone(), depth + 1));
                depth += 1;
                i += 3;
                continue;
            }
            "#" if t.get(i + 1).map(String::as_str) == Some("[") => {
                // An attribute: a test attribute is a bare path ending in `test`.
                let mut j = i + 2;
                let mut bare_path = true;
                let mut last = "";
                while j < t.len() && t[j] != "]" {
                    let tok = t[j].as_str();
                    if tok == ":" {
                    } else if tok.chars().all(|c| c.is_alphanumeric() || c == '_') {
                        last = tok;
                    } else {
                        bare_path = false;
                    }
                    j += 1;
                }
                if bare_path && last == "test" {
                    pending_test = true;
                }
                i = j + 1;
                continue;
            }
            "fn" if pending_test => {
                if let Some(name) = t.get(i + 1) {
                    found.push(Found {
                        path: modules.iter().map(|(m, _)| m.clone()).collect(),
                        name: name.clone(),
                        doc: doc.join(" "),
                    });
                }
                pending_test = false;
                doc.clear();
            }
            _ => {}
        }
        i += 1;
    }
    found
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = fs::read_dir(&d) else { continue };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The module path of a file of a target whose root file is `root` in `dir` (`lib.rs` in a
/// crate's `src/`, `main.rs` in a test folder): `domain/team/tests.rs` → domain::team::tests.
fn module_of(dir: &Path, file: &Path, root: &str) -> Option<Vec<String>> {
    let rel = file.strip_prefix(dir).ok()?;
    let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    let last = parts.pop()?;
    match last.as_str() {
        r if r == root && parts.is_empty() => {}
        "lib.rs" | "main.rs" if parts.is_empty() => return None, // another target
        "mod.rs" => {}
        other => parts.push(other.strip_suffix(".rs")?.to_string()),
    }
    Some(parts)
}

/// Every test of the workspace under its full name: the files that hold a test of that name
/// (more than one: the name is ambiguous) and whether its doc comment names an article.
fn index() -> BTreeMap<String, (Vec<PathBuf>, bool)> {
    let root = workspace_root();
    let mut ix: BTreeMap<String, (Vec<PathBuf>, bool)> = BTreeMap::new();
    let mut add = |target: &str, file_path: Vec<String>, file: &Path, src: &str| {
        for f in tests_in(src) {
            let mut full = vec![target.to_string()];
            full.extend(file_path.iter().cloned());
            full.extend(f.path);
            full.push(f.name);
            let entry = ix.entry(full.join("::")).or_default();
            entry.0.push(file.to_path_buf());
            entry.1 |= names_an_article(&f.doc);
        }
    };
    // Unit tests of the library crates: the crate's name and its folder.
    for (krate, dir) in
        [("rules", "rules"), ("admin", "admin"), ("domain", "admin/domain"), ("store", "admin/store")]
    {
        let src_dir = root.join(dir).join("src");
        for file in rust_files(&src_dir) {
            let Some(path) = module_of(&src_dir, &file, "lib.rs") else { continue };
            let src = fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            add(krate, path, &file, &src);
        }
    }
    // Integration tests: each file directly in a tests/ folder is a target of its own name, and
    // each folder there with a main.rs is one target of the folder's name, its files the
    // target's modules (tests/e2e/team.rs → e2e::team).
    for dir in ["tests", "rules/tests", "admin/tests", "admin/store/tests"] {
        let Ok(entries) = fs::read_dir(root.join(dir)) else { continue };
        let mut targets: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        targets.sort();
        for target in targets {
            let name = target.file_stem().unwrap().to_string_lossy().into_owned();
            let files = if target.is_dir() && target.join("main.rs").is_file() {
                rust_files(&target)
            } else if target.is_file() && target.extension().is_some_and(|x| x == "rs") {
                vec![target.clone()]
            } else {
                continue;
            };
            for file in files {
                let path =
                    if file == target { Some(Vec::new()) } else { module_of(&target, &file, "main.rs") };
                let Some(path) = path else { continue };
                let src = fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
                add(&name, path, &file, &src);
            }
        }
    }
    ix
}

/// Whether a text names an article: "Art." or "Arts." followed by a number.
fn names_an_article(doc: &str) -> bool {
    ["Art. ", "Arts. "].iter().any(|a| {
        doc.match_indices(a).any(|(i, _)| doc[i + a.len()..].starts_with(|c: char| c.is_ascii_digit()))
    })
}

fn table() -> Vec<Row> {
    let path = workspace_root().join("docs/rules.md");
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parse_table(&text).unwrap_or_else(|p| panic!("docs/rules.md, Part 4:\n{}", p.join("\n")))
}

fn expected_rows() -> Vec<String> {
    let mut all: Vec<String> = SEED_000.iter().chain(SEED_003).map(|s| s.to_string()).collect();
    all.extend((1..=DECISIONS).map(|n| format!("D{n}")));
    all
}

// ---- the checks -------------------------------------------------------------------------------

/// Seed 000 (every article, the ones the seed lacks included), seed 003 (every article, its
/// gaps included) and the decisions: each has exactly one row of the table, and no other row is there.
#[test]
fn every_article_of_both_texts_has_its_row() {
    let rows = table();
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    let mut problems = Vec::new();
    for r in &rows {
        if let Some(first) = seen.insert(&r.id, r.line) {
            problems.push(format!("{} twice (lines {first} and {})", r.id, r.line));
        }
    }
    let expected = expected_rows();
    for id in &expected {
        if !seen.contains_key(id.as_str()) {
            problems.push(format!("no row for {id}"));
        }
    }
    for r in &rows {
        if !expected.contains(&r.id) {
            problems
                .push(format!("line {}: {} is not an article of either text nor a decision", r.line, r.id));
        }
    }
    assert!(problems.is_empty(), "docs/rules.md, Part 4:\n{}", problems.join("\n"));
}

/// Every row names a test that exists, or gives the reason no test checks it.
#[test]
fn every_row_names_an_existing_test_or_a_reason() {
    let ix = index();
    let mut problems = Vec::new();
    for r in table() {
        if r.tests.is_empty() && r.note.is_empty() {
            problems.push(format!("line {} ({}): no test and no reason", r.line, r.id));
        }
        for t in &r.tests {
            match ix.get(t).map(|(files, _)| files.len()) {
                None => problems.push(format!("line {} ({}): no test named {t}", r.line, r.id)),
                Some(1) => {}
                Some(_) => problems.push(format!("line {} ({}): {t} names several tests", r.line, r.id)),
            }
        }
    }
    assert!(problems.is_empty(), "docs/rules.md, Part 4:\n{}", problems.join("\n"));
}

/// A test that names an article in its doc comment is listed in the table.
#[test]
fn every_test_naming_an_article_is_in_the_table() {
    let listed: BTreeSet<String> = table().into_iter().flat_map(|r| r.tests).collect();
    let missing: Vec<String> = index()
        .into_iter()
        .filter(|(name, (_, art))| *art && !listed.contains(name))
        .map(|(name, _)| name)
        .collect();
    assert!(
        missing.is_empty(),
        "tests naming an article in their doc comment but in no row of docs/rules.md's Part 4 \
         (add each to the row of its article):\n{}",
        missing.join("\n")
    );
}

// ---- the check itself can fail ----------------------------------------------------------------

/// The table reader refuses what the table must not hold, and the index finds tests where
/// Cargo would name them.
#[test]
fn the_checks_catch_bad_tables_and_find_tests_by_their_cargo_names() {
    let head = "## Part 4. Conformance\n| Row | Subject | Tests | Note |\n|---|---|---|---|\n";
    let ok = format!(
        "{head}| 000 Art. 1 | board | — | equipment |\n| D3 | ko | `rules::x::t` | |\n## Next\n| junk |\n"
    );
    let rows = parse_table(&ok).unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!((rows[1].id.as_str(), rows[1].tests.as_slice()), ("D3", &["rules::x::t".to_string()][..]));
    for bad in [
        "| 000 Art. 1 | board | rules::x::t | |", // no backticks
        "| 000 Art. 1 | board | `a`; `b` | |",    // not separated by commas
        "| 000 Art. 1 | board | — |",             // a cell missing
        "| Art. 1 | board | — | equipment |",     // not a row name
        "| 000 Art. 1 | board | `` | |",          // an empty name
    ] {
        assert!(parse_table(&format!("{head}{bad}\n")).is_err(), "{bad}");
    }
    assert!(parse_table("no table").is_err());

    let src = r####"
        const S: &str = "mod fake { #[test] fn not_a_test() {} }";
        const R: &str = r#"}"#;
        const C: char = '}';
        fn outer<'a>(x: &'a str) -> &'a str { x }
        /* mod commented { #[test] fn commented_out() {} } */
        #[cfg(test)]
        mod tests {
            /// Art. 17.5: named.
            #[test]
            fn first() { let _ = '{'; let _ = "{"; }
            mod deeper {
                #[tokio::test]
                async fn second() {}
            }
            proptest! {
                #[test]
                fn third(x in 0u8..3) { let _ = x; }
            }
            #[cfg(test)]
            fn helper() {}
        }
        #[test]
        fn top() {}
    "####;
    let found = tests_in(src);
    let names: Vec<String> =
        found.iter().map(|f| [f.path.clone(), vec![f.name.clone()]].concat().join("::")).collect();
    assert_eq!(names, ["tests::first", "tests::deeper::second", "tests::third", "top"]);
    assert_eq!(found[0].doc, "Art. 17.5: named.");
    assert!(found[1..].iter().all(|f| f.doc.is_empty()), "{found:?}");
    assert!(names_an_article("Arts. 15.2, 23.2") && !names_an_article("Art. of war"));

    let ix = index();
    for name in [
        "rules::rulings::tests::offence_table",
        "rules::game::tests::props::invariants_hold_along_random_games",
        "domain::team::tests::chief_arbiter_endings",
        "e2e::team::relay_match_through_every_rule_over_http",
        "conformance::the_checks_catch_bad_tables_and_find_tests_by_their_cargo_names",
    ] {
        assert_eq!(ix.get(name).map(|(files, _)| files.len()), Some(1), "{name}");
    }
    assert!(!ix.contains_key("rules::rulings::offence_table"), "the module path is part of the name");
    assert!(!ix.contains_key("e2e::team::no_such_test"));
    assert!(
        !ix.contains_key("team::relay_match_through_every_rule_over_http"),
        "the target is part of the name"
    );
    assert_eq!(ix.get("domain::team::tests::chief_arbiter_endings").map(|e| e.1), Some(true));
    assert_eq!(ix.get("rules::board::tests::sizes").map(|e| e.1), Some(false));
}
