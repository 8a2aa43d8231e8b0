//! The router's route table, read from the source of `admin/src/web/`, so that a test can
//! insist that every route of the running application is probed or crawled. A route added in
//! the router but not in a probe table fails those tests until it is added there.

use std::path::{Path, PathBuf};

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Route {
    /// Upper case: GET, POST, PUT, DELETE, PATCH.
    pub method: String,
    /// The pattern as registered, e.g. `/t/{id}/entrants/{eid}/edit`.
    pub path: String,
    /// The source file that registers it.
    pub file: String,
}

fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            rs_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Every `.route("PATH", web::METHOD()...)` under admin/src/web. Panics on route declarations
/// this reader does not understand (`web::resource`, `.service(`, `#[get(...)]` attributes), so
/// a new style of registration cannot slip past the probes unnoticed.
pub fn router_routes() -> Vec<Route> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("admin/src/web");
    let mut files = Vec::new();
    rs_files(&dir, &mut files);
    files.sort();
    assert!(!files.is_empty(), "no sources under {}", dir.display());
    let mut routes = Vec::new();
    for f in files {
        let src = std::fs::read_to_string(&f).expect("read router source");
        let name = f.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap_or(&f).display().to_string();
        routes.extend(routes_in(&name, &src));
    }
    routes.sort();
    routes.dedup();
    routes
}

/// The routes the source `src` of file `name` registers.
fn routes_in(name: &str, src: &str) -> Vec<Route> {
    for unknown in ["web::resource(", ".service(", "#[get(", "#[post(", "#[route(", "web::scope("] {
        assert!(
            !src.contains(unknown),
            "{name} registers routes with `{unknown}`: teach tests/e2e/common/routes.rs to read it"
        );
    }
    let mut routes = Vec::new();
    let mut rest = src;
    while let Some(i) = rest.find(".route(") {
        rest = &rest[i + ".route(".len()..];
        let Some(r) = rest.trim_start().strip_prefix('"') else {
            panic!("{name}: a .route( whose path is not a string literal: {}", &rest[..rest.len().min(80)]);
        };
        let end = r.find('"').expect("closing quote of the route path");
        let after = &r[end + 1..];
        let m = after.find("web::").expect("web::METHOD() after the route path");
        let method: String =
            after[m + 5..].chars().take_while(|c| c.is_ascii_alphabetic()).collect::<String>().to_uppercase();
        routes.push(Route { method, path: r[..end].to_string(), file: name.to_string() });
    }
    routes
}

/// Routes that change state: everything but GET and HEAD.
pub fn write_routes() -> Vec<Route> {
    router_routes().into_iter().filter(|r| r.method != "GET" && r.method != "HEAD").collect()
}

/// Routes that show something: GET.
pub fn read_routes() -> Vec<Route> {
    router_routes().into_iter().filter(|r| r.method == "GET").collect()
}
