//! The plan of the house, read from the sources: the arrows ARCHITECTURE.md draws are the ones
//! the code has. Cargo refuses a circle between crates; inside a crate it does not, so this
//! module builds each crate's module graph from the `crate::…` (and `super::…`) paths its code
//! names and fails on every circle between sibling modules (`draw` uses `pairing` and
//! `pairing` uses `draw`). A folder counts as one module with its `mod.rs`; comments (`//`,
//! `///`, `//!`, `/* */`), string literals and `#[cfg(test)]` items do not count. Beside Cargo,
//! it also reads the dependency lists the crates promise (`domain` names no database, web or
//! catalog crate), so a broken promise fails with its reason in words.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The workspace's crates whose modules must not form circles: (crate, its `src/`).
const CRATES: [(&str, &str); 6] = [
    ("rules", "rules/src"),
    ("matching", "admin/matching/src"),
    ("domain", "admin/domain/src"),
    ("store", "admin/store/src"),
    ("admin", "admin/src"),
    ("lab", "admin/lab/src"),
];

/// The arrows each crate's Cargo.toml must not draw: (its folder, the dependencies it may not
/// name, why). A name matches itself and its family (`diesel` also `diesel_migrations`,
/// `actix` also `actix-web`).
const FORBIDDEN: [(&str, &[&str], &str); 5] = [
    (
        "rules",
        &["matching", "domain", "store", "admin", "lab", "diesel", "actix", "askama", "fluent"],
        "the game of Go and the rule texts: pure, knows nothing of tournaments",
    ),
    (
        "admin/matching",
        &["rules", "domain", "store", "admin", "lab"],
        "the matching engine knows no Go: weights in, a matching out",
    ),
    (
        "admin/domain",
        &[
            "store", "admin", "lab", "diesel", "rusqlite", "actix", "askama", "fluent", "printpdf", "quick-xml", "csv",
        ],
        "the tournament logic is pure: no database, web, templates, catalog, file format or PDF",
    ),
    (
        "admin/store",
        &["admin", "lab", "actix", "askama", "fluent", "printpdf", "quick-xml", "csv"],
        "the database layer serves the office, never the reverse: it words nothing and reads or writes no file format or PDF",
    ),
    ("admin", &["lab"], "the lab drives the product; nothing in the product depends on it"),
];

/// `src` with comments, string and character literals blanked to spaces (line breaks kept),
/// so only code is left to read.
fn blank_comments_and_literals(src: &str) -> String {
    let c: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let blank = |ch: char| if ch == '\n' { '\n' } else { ' ' };
    let mut i = 0;
    while i < c.len() {
        let next = c.get(i + 1).copied();
        if c[i] == '/' && next == Some('/') {
            while i < c.len() && c[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c[i] == '/' && next == Some('*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(c[i]));
                    i += 1;
                }
            }
        } else if c[i] == 'r'
            && (next == Some('"') || next == Some('#'))
            && !ident_char(i.checked_sub(1).map(|p| c[p]))
        {
            // A raw string r"…" or r#"…"#: ends at the quote followed by as many hashes.
            let mut j = i + 1;
            while c.get(j) == Some(&'#') {
                j += 1;
            }
            if c.get(j) != Some(&'"') {
                out.push(c[i]);
                i += 1;
                continue;
            }
            let hashes = j - i - 1;
            j += 1;
            while j < c.len() && !(c[j] == '"' && (1..=hashes).all(|h| c.get(j + h) == Some(&'#'))) {
                j += 1;
            }
            let end = (j + 1 + hashes).min(c.len());
            out.extend(c[i..end].iter().map(|&ch| blank(ch)));
            i = end;
        } else if c[i] == '"' {
            let mut j = i + 1;
            while j < c.len() && c[j] != '"' {
                j += if c[j] == '\\' { 2 } else { 1 };
            }
            let end = (j + 1).min(c.len());
            out.extend(c[i..end].iter().map(|&ch| blank(ch)));
            i = end;
        } else if c[i] == '\'' && next == Some('\\') {
            let mut j = i + 2;
            while j < c.len() && c[j] != '\'' {
                j += 1;
            }
            let end = (j + 1).min(c.len());
            out.extend(c[i..end].iter().map(|&ch| blank(ch)));
            i = end;
        } else if c[i] == '\'' && c.get(i + 2) == Some(&'\'') {
            out.push_str("   ");
            i += 3;
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

fn ident_char(c: Option<char>) -> bool {
    c.is_some_and(|c| c.is_alphanumeric() || c == '_')
}

/// The index just past the item that starts at or after `from` in blanked code: its first `;`
/// at bracket depth 0, or its first `{ … }` block.
fn item_end(code: &[char], from: usize) -> usize {
    let mut i = from;
    let mut depth = 0i32;
    while i < code.len() {
        match code[i] {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ';' if depth == 0 => return i + 1,
            '{' if depth == 0 => {
                let mut braces = 0;
                while i < code.len() {
                    match code[i] {
                        '{' => braces += 1,
                        '}' => {
                            braces -= 1;
                            if braces == 0 {
                                return i + 1;
                            }
                        }
                        _ => {}
                    }
                    i += 1;
                }
                return code.len();
            }
            _ => {}
        }
        i += 1;
    }
    code.len()
}

/// Blanked code with every `#[cfg(test)]` item blanked too, and the names of the file modules
/// it declares test-only (`#[cfg(test)] mod testutil;`), whose files are test code as well.
fn without_tests(code: &str) -> (String, Vec<String>) {
    let mut c: Vec<char> = code.chars().collect();
    let mut test_files = Vec::new();
    let marker: Vec<char> = "#[cfg(test)]".chars().collect();
    let mut i = 0;
    while i + marker.len() <= c.len() {
        if c[i..i + marker.len()] != marker[..] {
            i += 1;
            continue;
        }
        let end = item_end(&c, i + marker.len());
        let item: String = c[i + marker.len()..end].iter().collect();
        let words: Vec<&str> =
            item.split(|ch: char| !ident_char(Some(ch))).filter(|w| !w.is_empty()).collect();
        if let Some(at) = words.iter().position(|w| *w == "mod") {
            if item.trim_end().ends_with(';') {
                test_files.extend(words.get(at + 1).map(|w| w.to_string()));
            }
        }
        for ch in &mut c[i..end] {
            if *ch != '\n' {
                *ch = ' ';
            }
        }
        i = end;
    }
    (c.into_iter().collect(), test_files)
}

/// The paths a use tree names, each as its segments: `{a::{B, c}, d}` gives `a::B`, `a::c`, `d`.
/// `at` is just past a `::`; returns the paths and where the tree ends.
fn use_tree(c: &[char], mut at: usize, prefix: &[String], out: &mut Vec<Vec<String>>) -> usize {
    let skip_ws = |mut i: usize| {
        while i < c.len() && c[i].is_whitespace() {
            i += 1;
        }
        i
    };
    at = skip_ws(at);
    if c.get(at) == Some(&'{') {
        at += 1;
        loop {
            at = skip_ws(at);
            match c.get(at) {
                None => return at,
                Some('}') => return at + 1,
                Some(',') => at += 1,
                _ => {
                    let before = at;
                    at = use_tree(c, at, prefix, out);
                    if at == before {
                        at += 1;
                    }
                }
            }
        }
    }
    let start = at;
    while at < c.len() && ident_char(Some(c[at])) {
        at += 1;
    }
    if at == start {
        out.push(prefix.to_vec());
        return at;
    }
    let mut path = prefix.to_vec();
    let word: String = c[start..at].iter().collect();
    if word != "self" {
        path.push(word);
    }
    let after = skip_ws(at);
    if c.get(after) == Some(&':') && c.get(after + 1) == Some(&':') {
        let next = skip_ws(after + 2);
        if c.get(next).is_some_and(|&ch| ch == '{' || ident_char(Some(ch))) {
            return use_tree(c, next, &path, out);
        }
    }
    out.push(path);
    // `… as name`: the rename is no module.
    let word_at = |i: usize, w: &str| {
        let end = i + w.len();
        c.get(i..end).is_some_and(|s| s.iter().copied().eq(w.chars())) && !ident_char(c.get(end).copied())
    };
    if word_at(after, "as") {
        let mut i = skip_ws(after + 2);
        while i < c.len() && ident_char(Some(c[i])) {
            i += 1;
        }
        return i;
    }
    at
}

/// The module paths (from the crate root) that code in the module `here` names: every
/// `crate::…` path, `super::…` resolved from `here`, with use trees unfolded.
fn named_paths(code: &str, here: &[String]) -> Vec<Vec<String>> {
    let c: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        if ident_char(Some(c[i])) && !ident_char(i.checked_sub(1).map(|p| c[p])) {
            let start = i;
            while i < c.len() && ident_char(Some(c[i])) {
                i += 1;
            }
            let word: String = c[start..i].iter().collect();
            let mut base: Vec<String> = match word.as_str() {
                "crate" => Vec::new(),
                "super" => here[..here.len().saturating_sub(1)].to_vec(),
                _ => continue,
            };
            let mut at = i;
            // `super::super::…`
            while c.get(at) == Some(&':')
                && c.get(at + 1) == Some(&':')
                && c[at + 2..].starts_with(&['s', 'u', 'p', 'e', 'r'])
            {
                if ident_char(c.get(at + 7).copied()) {
                    break;
                }
                base.pop();
                at += 7;
            }
            if c.get(at) == Some(&':') && c.get(at + 1) == Some(&':') {
                i = use_tree(&c, at + 2, &base, &mut out);
            }
        } else {
            i += 1;
        }
    }
    out
}

/// The module path of a source file under `src/`: `lib.rs` is the root, `draw/mod.rs` and
/// `draw.rs` are `draw`, `draw/lots.rs` is `draw::lots`.
fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    let last = parts.pop().unwrap_or_default();
    let stem = last.trim_end_matches(".rs");
    if !matches!(stem, "mod" | "lib" | "main") || !parts.is_empty() && stem == "main" {
        parts.push(stem.to_string());
    }
    parts
}

/// One arrow between modules: `from`'s file names `to` (the path as written, for the message).
#[derive(Debug, Clone)]
struct Use {
    file: String,
    path: String,
}

/// A crate's arrows between sibling modules: (from, to) → the uses that draw it. A use of
/// a module's own child or ancestor is no arrow between siblings: `pairing::bye` naming
/// `pairing` is a module using its own folder.
type Graph = BTreeMap<(String, String), Vec<Use>>;

/// The graph of the sources given as (path under `src/`, text).
fn graph(sources: &[(PathBuf, String)]) -> Graph {
    let mut code = Vec::new();
    let mut test_only: Vec<Vec<String>> = Vec::new();
    for (rel, text) in sources {
        let module = module_of(rel);
        let (c, tests) = without_tests(&blank_comments_and_literals(text));
        test_only.extend(tests.into_iter().map(|t| [module.clone(), vec![t]].concat()));
        code.push((rel, module, c));
    }
    let modules: BTreeSet<Vec<String>> = code.iter().map(|(_, m, _)| m.clone()).collect();
    let mut g = Graph::new();
    for (rel, from, c) in &code {
        if test_only.iter().any(|t| from.starts_with(t)) {
            continue;
        }
        for path in named_paths(c, from) {
            // The module a path names: its longest prefix that is a module of the crate.
            let Some(to) = (0..=path.len()).rev().map(|n| path[..n].to_vec()).find(|p| modules.contains(p))
            else {
                continue;
            };
            let shared = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
            if shared == from.len() || shared == to.len() {
                continue;
            }
            let key = (from[..=shared].join("::"), to[..=shared].join("::"));
            let file = rel.display().to_string();
            let uses = g.entry(key).or_default();
            let path = format!("crate::{}", path.join("::"));
            if !uses.iter().any(|u| u.file == file && u.path == path) {
                uses.push(Use { file, path });
            }
        }
    }
    g
}

/// The circles of a graph: each set of two or more modules that reach one another, with the
/// arrows between them, in words.
fn circles(g: &Graph) -> Vec<String> {
    let nodes: BTreeSet<&String> = g.keys().flat_map(|(a, b)| [a, b]).collect();
    let reach = |from: &String| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from];
        while let Some(n) = todo.pop() {
            for (a, b) in g.keys() {
                if a == n && seen.insert(b) {
                    todo.push(b);
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&String, BTreeSet<&String>> = nodes.iter().map(|&n| (n, reach(n))).collect();
    let mut done = BTreeSet::new();
    let mut out = Vec::new();
    for &n in &nodes {
        if done.contains(n) || !reaches[n].contains(n) {
            continue;
        }
        let ring: BTreeSet<&String> =
            nodes.iter().copied().filter(|m| reaches[n].contains(m) && reaches[m].contains(n)).collect();
        done.extend(ring.iter().copied());
        let mut words = vec![ring.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(" ↔ ")];
        for ((a, b), uses) in g {
            if ring.contains(a) && ring.contains(b) {
                let by: Vec<String> = uses.iter().map(|u| format!("{} ({})", u.file, u.path)).collect();
                words.push(format!("  {a} → {b}: {}", by.join(", ")));
            }
        }
        out.push(words.join("\n"));
    }
    out
}

/// Every `.rs` file under `dir`, as (path under `src`, text).
fn read_sources(src: &Path, dir: &Path, out: &mut Vec<(PathBuf, String)>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            read_sources(src, &p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push((p.strip_prefix(src).unwrap().to_path_buf(), std::fs::read_to_string(&p).unwrap()));
        }
    }
}

/// The circles still open, each as the test words its modules: a list that only shrinks. A
/// circle not listed fails the test, and so does a listed one that is gone (strike it here).
const STILL_OPEN: &[&str] = &[];

/// Architecture (no rule article): inside each crate the modules form no circle; a shared
/// type lives in a leaf both sides use (the player values and the lot's ticket in
/// `domain::player`, the solver's result in `matching::result`, the stress run's facts with
/// the database that checks them in `lab::stress_db`), so each module can be read, tested and
/// moved on its own. The circles in [`STILL_OPEN`] are known and may only go.
#[test]
fn no_module_circles_inside_a_crate() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    for (name, dir) in CRATES {
        let src = root.join(dir);
        let mut sources = Vec::new();
        read_sources(&src, &src, &mut sources);
        assert!(!sources.is_empty(), "{name}: no sources in {dir}");
        let g = graph(&sources);
        assert!(!g.is_empty() || name == "rules" || name == "matching", "{name}: no arrows read from {dir}");
        found.extend(circles(&g).into_iter().map(|c| format!("{name}: {c}")));
    }
    let heading = |c: &String| c.lines().next().unwrap_or_default().to_string();
    let new: Vec<&String> = found.iter().filter(|c| !STILL_OPEN.contains(&heading(c).as_str())).collect();
    let gone: Vec<&&str> = STILL_OPEN.iter().filter(|o| !found.iter().any(|c| heading(c) == **o)).collect();
    assert!(
        new.is_empty(),
        "import circles between modules (move what both sides use to a leaf):\n{}",
        new.iter().map(|c| c.as_str()).collect::<Vec<_>>().join("\n")
    );
    assert!(gone.is_empty(), "circles opened or changed: strike them from STILL_OPEN: {gone:?}");
}

/// Architecture (no rule article): the reader finds a circle through a folder's `mod.rs` and a
/// `super::super` path, and does not count comments, strings or a `#[cfg(test)]` module.
#[test]
fn the_reader_finds_a_made_up_circle() {
    let src = |p: &str, t: &str| (PathBuf::from(p), t.to_string());
    let ring = [
        src("lib.rs", "pub mod draw;\npub mod pairing;\n"),
        src("draw/mod.rs", "use crate::pairing::{Player, bye::{self, Bye}};\n"),
        src("pairing/mod.rs", "pub struct Player;\npub mod bye;\n"),
        src("pairing/bye.rs", "pub struct Bye;\nfn f() { super::super::draw::lots(); }\n"),
    ];
    let found = circles(&graph(&ring));
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with("draw ↔ pairing\n"), "{}", found[0]);
    assert!(found[0].contains("pairing/bye.rs (crate::draw::lots)"), "{}", found[0]);

    let quiet = [
        src("lib.rs", "pub mod draw;\npub mod pairing;\n"),
        src("draw/mod.rs", "use crate::pairing::Player;\n"),
        src(
            "pairing/mod.rs",
            "/// See [`crate::draw`].\n// crate::draw::x\n/* crate::draw */ \
             const S: &str = \"crate::draw::y\";\nconst R: &str = r#\"crate::draw\"#;\nconst C: char = '\"';\n\
             pub struct Player;\n#[cfg(test)]\nmod tests {\n    use crate::draw::lots;\n}\n\
             #[cfg(test)]\nmod testutil;\n",
        ),
        src("pairing/testutil.rs", "use crate::draw;\n"),
    ];
    let g = graph(&quiet);
    assert!(circles(&g).is_empty(), "{g:?}");
    assert_eq!(g.keys().collect::<Vec<_>>(), [&("draw".to_string(), "pairing".to_string())]);
}

/// The dependency names of a Cargo.toml: the keys of every `[…dependencies]` table
/// (`[dependencies]`, `[dev-dependencies]`, `[target.'…'.dependencies]`).
fn dependency_names(toml: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut in_deps = false;
    for line in toml.lines().map(str::trim) {
        if line.starts_with('[') {
            in_deps = line.trim_end_matches(']').ends_with("dependencies");
        } else if in_deps && !line.is_empty() && !line.starts_with('#') {
            let key = line.split(['=', '.', ' ']).next().unwrap_or("").trim_matches('"');
            names.push(key.to_string());
        }
    }
    names
}

/// Architecture (no rule article): the crates' dependency lists keep the arrows ARCHITECTURE.md
/// draws: `rules` and `matching` name no crate of the office, `domain` no database, web,
/// template or catalog crate, `store` nothing above it, and nothing in the product the lab.
#[test]
fn crates_name_only_the_crates_below_them() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    for (dir, forbidden, why) in FORBIDDEN {
        let toml = std::fs::read_to_string(root.join(dir).join("Cargo.toml")).unwrap();
        let names = dependency_names(&toml);
        assert!(dir == "admin/matching" || !names.is_empty(), "{dir}: no dependencies read");
        for name in names {
            let family = |f: &str| {
                name == f || name.starts_with(&format!("{f}-")) || name.starts_with(&format!("{f}_"))
            };
            if let Some(f) = forbidden.iter().find(|f| family(f)) {
                found.push(format!("{dir}/Cargo.toml names `{name}` ({f}): {why}"));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// The Cargo.toml reader sees each table's keys, dotted or not, and nothing else.
#[test]
fn dependency_names_reads_every_table() {
    let toml = "[package]\nname = \"x\"\n[dependencies]\n# store\nrules.workspace = true\n\
                diesel = { workspace = true }\n[features]\npg = [\"diesel/postgres\"]\n\
                [target.'cfg(unix)'.dev-dependencies]\n\"fluent-bundle\" = \"1\"\n";
    assert_eq!(dependency_names(toml), ["rules", "diesel", "fluent-bundle"]);
}
