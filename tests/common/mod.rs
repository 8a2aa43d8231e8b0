//! The e2e harness: start the real server binary on a free port with a temporary SQLite file,
//! and drive it over HTTP with a small client that keeps cookies and reads CSRF tokens.
//!
//! The binary: Cargo sets `CARGO_BIN_EXE_<name>` only for binaries of the package under test,
//! so the root package has its own thin binary `tengen-e2e-server` (tests/bin/server.rs) that
//! calls the same `admin::cli::run` as `tengen`. A plain `cargo test --workspace` builds it
//! with the tests; no nested cargo call, no build lock. `TENGEN_BIN` overrides it (e.g. to
//! test a release build of `tengen` itself).
#![allow(dead_code)]

pub mod routes;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

pub const ORG_USER: &str = "org";
pub const ORG_PASS: &str = "organizer-secret-1";

pub fn bin() -> PathBuf {
    match std::env::var_os("TENGEN_BIN") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_BIN_EXE_tengen-e2e-server")),
    }
}

/// Run a `tengen` subcommand against `db`.
pub fn cli(db: &Path, args: &[&str], stdin_env_password: Option<&str>) -> Output {
    let mut cmd = Command::new(bin());
    cmd.arg("--db").arg(db).args(args).stdin(Stdio::null());
    if let Some(p) = stdin_env_password {
        cmd.env("TENGEN_PASSWORD", p);
    }
    cmd.output().expect("run tengen")
}

pub struct Server {
    child: Option<Child>,
    pub base: String,
    pub setup_url: Option<String>,
    pub dir: tempfile::TempDir,
    pub db: PathBuf,
    pub stdout: Vec<String>,
}

impl Server {
    /// A fresh server on a fresh database.
    pub fn start() -> Server {
        let dir = tempfile::tempdir().expect("tempdir");
        Server::start_in(dir)
    }

    /// A server on the database in `dir` (tengen.db).
    pub fn start_in(dir: tempfile::TempDir) -> Server {
        let db = dir.path().join("tengen.db");
        let mut child = Command::new(bin())
            .arg("serve")
            .arg("--db")
            .arg(&db)
            .arg("--bind")
            .arg("127.0.0.1:0")
            .env("TENGEN_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start the server binary");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut lines = Vec::new();
        let mut base = None;
        let deadline = std::time::Instant::now() + Duration::from_secs(60);
        while base.is_none() {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            let line = match rx.recv_timeout(left) {
                Ok(l) => l,
                Err(_) => {
                    let _ = child.kill();
                    panic!("server did not start; output so far: {lines:?}");
                }
            };
            if let Some(rest) = line.split("listening on ").nth(1) {
                base = Some(rest.trim().to_string());
            }
            lines.push(line);
        }
        let setup_url =
            lines.iter().find_map(|l| l.trim().strip_prefix("http://").map(|_| l.trim().to_string()));
        Server { child: Some(child), base: base.unwrap_or_default(), setup_url, dir, db, stdout: lines }
    }

    pub fn client(&self) -> Client {
        Client::new(&self.base)
    }

    pub fn cli(&self, args: &[&str]) -> Output {
        cli(&self.db, args, None)
    }

    /// Create the first organizer through the one-time link; returns the logged-in client.
    pub fn first_organizer(&self) -> Client {
        let url = self.setup_url.clone().expect("first-run link printed");
        let path = url.trim_start_matches(&self.base).to_string();
        let c = self.client();
        let page = c.get(&path);
        assert_eq!(page.status, 200, "{}", page.body);
        let r = c.post_form(
            &path,
            &[
                ("csrf", &page.csrf()),
                ("username", ORG_USER),
                ("display_name", "赛事组织者"),
                ("password", ORG_PASS),
                ("password2", ORG_PASS),
            ],
        );
        assert_eq!(r.status, 303, "{}", r.body);
        c
    }

    /// Stop the server (and wait for it), keeping the directory.
    pub fn stop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop();
    }
}

pub struct Resp {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub bytes: Vec<u8>,
    pub body: String,
}

impl Resp {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
    pub fn location(&self) -> String {
        self.header("location").unwrap_or("").to_string()
    }
    /// The first CSRF token in a form on this page.
    pub fn csrf(&self) -> String {
        attr_after(&self.body, "name=\"csrf\" value=\"").expect("a csrf field on the page")
    }
    /// The value of the first input named `name`.
    pub fn input(&self, name: &str) -> Option<String> {
        let needle = format!("name=\"{name}\"");
        let i = self.body.find(&needle)?;
        let tag_start = self.body[..i].rfind('<')?;
        let tag_end = i + self.body[i..].find('>')?;
        let tag = &self.body[tag_start..tag_end];
        attr_after(tag, "value=\"").map(|v| unescape(&v))
    }
    /// The message beside field `name` (id="err-NAME"), if any.
    pub fn field_error(&self, name: &str) -> Option<String> {
        let needle = format!("id=\"err-{name}\">");
        let i = self.body.find(&needle)? + needle.len();
        let end = i + self.body[i..].find('<')?;
        Some(unescape(&self.body[i..end]))
    }
}

fn attr_after(s: &str, prefix: &str) -> Option<String> {
    let i = s.find(prefix)? + prefix.len();
    let end = i + s[i..].find('"')?;
    Some(s[i..end].to_string())
}

pub fn unescape(s: &str) -> String {
    s.replace("&quot;", "\"")
        .replace("&#34;", "\"")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&#60;", "<")
        .replace("&#62;", ">")
        .replace("&amp;", "&")
        .replace("&#38;", "&")
}

pub struct Client {
    agent: ureq::Agent,
    pub base: String,
    pub cookies: std::cell::RefCell<BTreeMap<String, String>>,
    pub accept_language: String,
    /// The Origin header sent with POSTs (None: send none).
    pub origin: Option<String>,
    /// A Referer header sent with POSTs (None: send none).
    pub referer: Option<String>,
}

impl Client {
    pub fn new(base: &str) -> Client {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .max_redirects(0)
            .timeout_global(Some(Duration::from_secs(60)))
            .build()
            .into();
        Client {
            agent,
            base: base.to_string(),
            cookies: Default::default(),
            accept_language: "en".into(),
            origin: Some(base.to_string()),
            referer: None,
        }
    }

    fn cookie_header(&self) -> String {
        self.cookies.borrow().iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("; ")
    }

    fn finish(&self, resp: Result<ureq::http::Response<ureq::Body>, ureq::Error>) -> Resp {
        let mut resp = resp.expect("HTTP request");
        let status = resp.status().as_u16();
        let headers: Vec<(String, String)> = resp
            .headers()
            .iter()
            .map(|(k, v)| (k.as_str().to_string(), v.to_str().unwrap_or("").to_string()))
            .collect();
        for (k, v) in &headers {
            if k.eq_ignore_ascii_case("set-cookie") {
                let pair = v.split(';').next().unwrap_or("");
                if let Some((name, value)) = pair.split_once('=') {
                    let removal = v.to_ascii_lowercase().contains("max-age=0") || value.is_empty();
                    if removal {
                        self.cookies.borrow_mut().remove(name.trim());
                    } else {
                        self.cookies.borrow_mut().insert(name.trim().to_string(), value.trim().to_string());
                    }
                }
            }
        }
        let mut bytes = Vec::new();
        resp.body_mut().as_reader().read_to_end(&mut bytes).expect("read body");
        let body = String::from_utf8_lossy(&bytes).to_string();
        Resp { status, headers, bytes, body }
    }

    pub fn get(&self, path: &str) -> Resp {
        let r = self
            .agent
            .get(format!("{}{path}", self.base))
            .header("Cookie", self.cookie_header())
            .header("Accept-Language", &self.accept_language)
            .call();
        self.finish(r)
    }

    pub fn post_raw(&self, path: &str, content_type: &str, body: Vec<u8>) -> Resp {
        let mut req = self
            .agent
            .post(format!("{}{path}", self.base))
            .header("Cookie", self.cookie_header())
            .header("Accept-Language", &self.accept_language)
            .header("Content-Type", content_type);
        if let Some(o) = &self.origin {
            req = req.header("Origin", o);
        }
        if let Some(r) = &self.referer {
            req = req.header("Referer", r);
        }
        let r = req.send(&body[..]);
        self.finish(r)
    }

    pub fn post_form(&self, path: &str, fields: &[(&str, &str)]) -> Resp {
        let body = form_urlencode(fields);
        self.post_raw(path, "application/x-www-form-urlencoded", body.into_bytes())
    }

    /// GET `page` for its CSRF token, then POST `fields` (plus the token) to `action`.
    pub fn submit(&self, page: &str, action: &str, fields: &[(&str, &str)]) -> Resp {
        let p = self.get(page);
        assert_eq!(p.status, 200, "GET {page}: {}", p.body);
        let token = p.csrf();
        let mut all: Vec<(&str, &str)> = vec![("csrf", &token)];
        all.extend_from_slice(fields);
        self.post_form(action, &all)
    }

    /// POST a multipart form with one file.
    pub fn post_file(
        &self,
        path: &str,
        fields: &[(&str, &str)],
        file_field: &str,
        filename: &str,
        data: &[u8],
    ) -> Resp {
        let boundary = "----tengen-e2e-boundary-7d1f";
        let mut body = Vec::new();
        for (k, v) in fields {
            body.extend_from_slice(
                format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{k}\"\r\n\r\n{v}\r\n")
                    .as_bytes(),
            );
        }
        body.extend_from_slice(
            format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{file_field}\"; filename=\"{filename}\"\r\nContent-Type: application/octet-stream\r\n\r\n")
                .as_bytes(),
        );
        body.extend_from_slice(data);
        body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
        self.post_raw(path, &format!("multipart/form-data; boundary={boundary}"), body)
    }

    pub fn login(&self, user: &str, pass: &str) -> Resp {
        self.submit("/login", "/login", &[("username", user), ("password", pass)])
    }
}

pub fn form_urlencode(fields: &[(&str, &str)]) -> String {
    fn enc(s: &str) -> String {
        let mut o = String::new();
        for b in s.bytes() {
            match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => o.push(b as char),
                b' ' => o.push('+'),
                _ => o.push_str(&format!("%{b:02X}")),
            }
        }
        o
    }
    fields.iter().map(|(k, v)| format!("{}={}", enc(k), enc(v))).collect::<Vec<_>>().join("&")
}

/// Every field of the tournament form with the defaults of rules.md, and the given names.
pub fn tournament_fields(name_zh: &str, name_latin: &str) -> Vec<(String, String)> {
    let mut f: Vec<(String, String)> = [
        ("name_zh", name_zh),
        ("name_latin", name_latin),
        ("venue", "中国棋院"),
        ("start_date", "2026-12-05"),
        ("end_date", "2026-12-07"),
        ("system", "swiss"),
        ("rounds", "7"),
        ("colour_method", "nigiri"),
        ("same_unit", "1"),
        ("preset", "chinese_2002"),
        ("komi", "3.75"),
        ("warnings_to_loss", "2"),
        ("points_scale", "2-1-0"),
        ("bye_value", "win"),
        ("bye_sos", "zero"),
        ("time_kind", "byo_yomi"),
        ("main_minutes", "120"),
        ("periods", "3"),
        ("period_seconds", "60"),
        ("increment_seconds", "0"),
        ("late_regime", "separate"),
        ("late_limit", "60"),
        ("late_inclusive", "on"),
        ("late_double", "on"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    for t in ["score", "sos", "cumulative", "direct", "wins", "fewer_warnings", "lots"] {
        f.push(("tiebreak".into(), t.into()));
    }
    f
}

pub fn set(fields: &mut Vec<(String, String)>, k: &str, v: &str) {
    fields.retain(|(n, _)| n != k);
    fields.push((k.to_string(), v.to_string()));
}

pub fn as_refs(fields: &[(String, String)]) -> Vec<(&str, &str)> {
    fields.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect()
}

/// Create a tournament through the form; returns its id.
pub fn create_tournament(c: &Client, name_zh: &str) -> i32 {
    let fields = tournament_fields(name_zh, "Test Open");
    let r = c.submit("/t/new", "/t/new", &as_refs(&fields));
    assert_eq!(r.status, 303, "{}", r.body);
    r.location().trim_start_matches("/t/").parse().expect("tournament id in Location")
}

/// Add an entrant through the form.
pub fn add_entrant(c: &Client, tid: i32, family: &str, given: &str, rank: &str) -> Resp {
    let page = format!("/t/{tid}/entrants/new");
    c.submit(
        &page,
        &page,
        &[
            ("family_name_zh", family),
            ("given_name_zh", given),
            ("rank", rank),
            ("unit", "北京棋院"),
            ("region", "北京"),
        ],
    )
}

/// Count rows of a table in the database file directly (read-only; WAL readers do not block).
pub fn count_rows(db: &Path, sql: &str) -> i64 {
    let c = rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
        .expect("open db");
    c.busy_timeout(Duration::from_secs(5)).expect("busy timeout");
    c.query_row(sql, [], |r| r.get(0)).expect("count")
}
