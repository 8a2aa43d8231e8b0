//! The e2e harness: start the real server binary on a free port with a temporary SQLite file,
//! and drive it over HTTP with a small client that keeps cookies and reads CSRF tokens.
//!
//! The binary: Cargo sets `CARGO_BIN_EXE_<name>` only for binaries of the package under test,
//! so the root package has its own thin binary `tengen-e2e-server` (tests/bin/server.rs) that
//! calls the same `admin::cli::run` as `tengen`. A plain `cargo test --workspace` builds it
//! with the tests; no nested cargo call, no build lock. `TENGEN_BIN` overrides it (e.g. to
//! test a release build of `tengen` itself). The lab's crash and load runs likewise run
//! `tengen-e2e-lab` (tests/bin/lab.rs, `lab::run` as `tengen-lab`), or `TENGEN_LAB_BIN`.
#![allow(dead_code)]

pub mod outsider;
pub mod routes;
pub mod standings;
pub mod team;
pub mod webdriver;

use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// Reading PDFs back (text per page, page sizes): the print module's own test helper, shared.
#[path = "../../../admin/src/print/readback.rs"]
pub mod readback;

pub const ORG_USER: &str = "org";
pub const ORG_PASS: &str = "organizer-secret-1";

pub fn bin() -> PathBuf {
    match std::env::var_os("TENGEN_BIN") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_BIN_EXE_tengen-e2e-server")),
    }
}

/// The lab's binary: `stress crash`, `bench load` and the other runs of `tengen-lab`.
pub fn lab_bin() -> PathBuf {
    match std::env::var_os("TENGEN_LAB_BIN") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_BIN_EXE_tengen-e2e-lab")),
    }
}

/// Run `tengen` with `args` as they are (no `--db` added: `migrate-db`, or a `--db` of the
/// caller's), in `dir` when given; quiet logs, no stdin.
pub fn run_tengen(dir: Option<&Path>, args: &[&str]) -> Output {
    run_quietly(&bin(), dir, args)
}

/// Run `tengen-lab` with `args` (`stress crash …`, `bench load …`); quiet logs, no stdin.
pub fn run_lab(args: &[&str]) -> Output {
    run_quietly(&lab_bin(), None, args)
}

fn run_quietly(program: &Path, dir: Option<&Path>, args: &[&str]) -> Output {
    let mut cmd = Command::new(program);
    if let Some(d) = dir {
        cmd.current_dir(d);
    }
    let out = cmd.args(args).env("TENGEN_LOG", "warn").stdin(Stdio::null()).output();
    out.unwrap_or_else(|e| panic!("run {}: {e}", program.display()))
}

/// Run a `tengen` subcommand against `db`.
pub fn cli(db: &Path, args: &[&str], stdin_env_password: Option<&str>) -> Output {
    cli_command(db, args, stdin_env_password).output().expect("run tengen")
}

fn cli_command(db: &Path, args: &[&str], stdin_env_password: Option<&str>) -> Command {
    let mut cmd = Command::new(bin());
    cmd.arg("--db").arg(db).args(args).stdin(Stdio::null());
    if let Some(p) = stdin_env_password {
        cmd.env("TENGEN_PASSWORD", p);
    }
    cmd
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
        Server::start_with(dir, &[], Stdio::inherit(), "warn")
    }

    /// A fresh server with more `serve` options (e.g. `--trusted-proxy 127.0.0.1`).
    pub fn start_args(args: &[&str]) -> Server {
        Server::start_with(tempfile::tempdir().expect("tempdir"), args, Stdio::inherit(), "warn")
    }

    /// A server on the database in `dir` with more `serve` options, its stderr sent to
    /// `stderr` (e.g. /dev/full: a log that cannot be written) and `TENGEN_LOG=log`.
    pub fn start_with(dir: tempfile::TempDir, args: &[&str], stderr: Stdio, log: &str) -> Server {
        Server::start_full(dir, args, stderr, log, &[])
    }

    /// A fresh server with more environment variables (e.g. `TENGEN_PAIR_HOLD_MS`).
    pub fn start_env(envs: &[(&str, &str)]) -> Server {
        Server::start_full(tempfile::tempdir().expect("tempdir"), &[], Stdio::inherit(), "warn", envs)
    }

    pub fn start_full(
        dir: tempfile::TempDir,
        args: &[&str],
        stderr: Stdio,
        log: &str,
        envs: &[(&str, &str)],
    ) -> Server {
        let db = fresh_database(dir.path());
        Server::spawn(dir, db, args, stderr, log, envs)
    }

    /// A second server on this server's database (several `tengen serve`, one office; issue 18
    /// item 2). Its own directory is empty; the database stays this server's.
    pub fn beside(&self) -> Server {
        let dir = tempfile::tempdir().expect("tempdir");
        Server::spawn(dir, self.db.clone(), &[], Stdio::inherit(), "warn", &[])
    }

    /// A server on the database `db` (a file, or a `postgres://` address), not a temporary file.
    pub fn start_on(db: &str) -> Server {
        let dir = tempfile::tempdir().expect("tempdir");
        Server::spawn(dir, PathBuf::from(db), &[], Stdio::inherit(), "warn", &[])
    }

    fn spawn(
        dir: tempfile::TempDir,
        db: PathBuf,
        args: &[&str],
        stderr: Stdio,
        log: &str,
        envs: &[(&str, &str)],
    ) -> Server {
        // In its own directory: on PostgreSQL the automatic backups go to ./backups.
        let mut child = Command::new(bin())
            .current_dir(dir.path())
            .envs(envs.iter().copied())
            .arg("serve")
            .arg("--db")
            .arg(&db)
            .arg("--bind")
            .arg("127.0.0.1:0")
            .args(args)
            .env("TENGEN_LOG", log)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(stderr)
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

    /// Run a `tengen` subcommand against this server's database, in its directory (where a
    /// PostgreSQL server's automatic backups go, as SQLite's go beside the file).
    pub fn cli(&self, args: &[&str]) -> Output {
        cli_command(&self.db, args, None).current_dir(self.dir.path()).output().expect("run tengen")
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

    /// The server's process id (to limit its open files, say).
    pub fn pid(&self) -> u32 {
        self.child.as_ref().map(Child::id).expect("a running server")
    }

    /// Is the server process still running?
    pub fn alive(&mut self) -> bool {
        self.child.as_mut().is_some_and(|c| matches!(c.try_wait(), Ok(None)))
    }

    /// Stop the server and start it again on the same directory with `args`.
    pub fn restart(mut self, args: &[&str]) -> Server {
        self.stop();
        let dir = std::mem::replace(&mut self.dir, tempfile::tempdir().expect("tempdir"));
        if is_pg(&self.db) {
            return Server::spawn(dir, self.db.clone(), args, Stdio::inherit(), "warn", &[]);
        }
        Server::start_with(dir, args, Stdio::inherit(), "warn")
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
        keep_database(&self.db);
    }
}

/// With `TENGEN_E2E_KEEP=DIR`, a test's SQLite database is copied to `DIR/<test name>.db` when
/// its server stops: the events the e2e tests build (the rehearsal's, the crawl's) can then be
/// served again by another build and their pages compared (docs/testing.md, "Same pages before
/// and after").
fn keep_database(db: &Path) {
    let Some(dir) = std::env::var_os("TENGEN_E2E_KEEP") else { return };
    let name = std::thread::current().name().unwrap_or("server").replace("::", "-");
    let _ = std::fs::create_dir_all(&dir);
    // The server was killed: what it committed may still be in the write-ahead log.
    for suffix in ["", "-wal"] {
        let from = PathBuf::from(format!("{}{suffix}", db.display()));
        if from.exists() {
            let _ = std::fs::copy(&from, Path::new(&dir).join(format!("{name}.db{suffix}")));
        }
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
    /// The referee's clock page's configuration (its `data-config` JSON, issue 17).
    #[allow(dead_code)]
    pub fn clock_config(&self) -> serde_json::Value {
        let raw = attr_after(&self.body, "data-config=\"").expect("a clock page");
        serde_json::from_str(&unescape(&raw)).expect("the clock's configuration is JSON")
    }
    /// The named inputs of the form with `id` (hidden ones included) and its action, as the
    /// page's script sends them.
    #[allow(dead_code)]
    pub fn form_inputs(&self, id: &str) -> (String, Vec<(String, String)>) {
        let start = self.body.find(&format!("id=\"{id}\"")).unwrap_or_else(|| panic!("no form {id}"));
        let open = self.body[..start].rfind("<form").expect("a form tag");
        let form = &self.body[open..start + self.body[start..].find("</form>").expect("</form>")];
        let action = attr_after(form, "action=\"").map(|a| unescape(&a)).unwrap_or_default();
        let mut fields = Vec::new();
        for piece in form.split("<input").skip(1) {
            let tag = &piece[..piece.find('>').unwrap_or(piece.len())];
            if let Some(name) = attr_after(tag, "name=\"") {
                fields.push((name, attr_after(tag, "value=\"").map(|v| unescape(&v)).unwrap_or_default()));
            }
        }
        (action, fields)
    }
    /// What a browser sends for the form with `id` as the page shows it, untouched: its
    /// inputs (hidden ones included; a checkbox only when checked), each select's selected
    /// option (else its first) and its action.
    #[allow(dead_code)]
    pub fn form_as_shown(&self, id: &str) -> (String, Vec<(String, String)>) {
        let start = self.body.find(&format!("id=\"{id}\"")).unwrap_or_else(|| panic!("no form {id}"));
        let open = self.body[..start].rfind("<form").expect("a form tag");
        let form = &self.body[open..start + self.body[start..].find("</form>").expect("</form>")];
        let action = attr_after(form, "action=\"").map(|a| unescape(&a)).unwrap_or_default();
        let mut fields = Vec::new();
        let mut rest = form;
        while let Some(i) = ["<input", "<select"].iter().filter_map(|t| rest.find(t)).min() {
            rest = &rest[i..];
            let tag = &rest[..rest.find('>').unwrap_or(rest.len())];
            let name = attr_after(tag, "name=\"");
            if rest.starts_with("<select") {
                let end = rest.find("</select>").expect("</select>");
                let options: Vec<&str> = rest[..end].split("<option").skip(1).collect();
                let chosen = options.iter().find(|o| o[..o.find('>').unwrap_or(0)].contains(" selected"));
                if let (Some(name), Some(o)) = (name, chosen.or(options.first())) {
                    fields.push((name, attr_after(o, "value=\"").map(|v| unescape(&v)).unwrap_or_default()));
                }
                rest = &rest[end..];
                continue;
            }
            let unchecked = (tag.contains("type=\"checkbox\"") || tag.contains("type=\"radio\""))
                && !tag.contains(" checked");
            if let Some(name) = name.filter(|_| !unchecked) {
                fields.push((name, attr_after(tag, "value=\"").map(|v| unescape(&v)).unwrap_or_default()));
            }
            rest = &rest[tag.len()..];
        }
        (action, fields)
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
    /// More headers sent with every request (e.g. X-Forwarded-For, as a proxy would).
    pub extra_headers: std::cell::RefCell<Vec<(String, String)>>,
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
            extra_headers: Default::default(),
        }
    }

    /// The same session read in Chinese: a client on the same server with this one's cookies
    /// (as of now) and Accept-Language zh-CN.
    pub fn in_chinese(&self) -> Client {
        let zh = Client::new(&self.base);
        zh.cookies.replace(self.cookies.borrow().clone());
        Client { accept_language: "zh-CN".into(), ..zh }
    }

    /// Point this client (cookies kept) at a restarted server.
    pub fn rebase(&mut self, s: &Server) {
        self.base = s.base.clone();
        self.origin = Some(s.base.clone());
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
        self.get_with(path, &[])
    }

    /// Set (or with None, remove) a header sent with every request.
    pub fn set_header(&self, name: &str, value: Option<&str>) {
        let mut h = self.extra_headers.borrow_mut();
        h.retain(|(k, _)| !k.eq_ignore_ascii_case(name));
        if let Some(v) = value {
            h.push((name.to_string(), v.to_string()));
        }
    }

    /// GET with extra headers (e.g. If-None-Match).
    pub fn get_with(&self, path: &str, headers: &[(&str, &str)]) -> Resp {
        let mut req = self
            .agent
            .get(format!("{}{path}", self.base))
            .header("Cookie", self.cookie_header())
            .header("Accept-Language", &self.accept_language);
        for (k, v) in self.extra_headers.borrow().iter() {
            req = req.header(k.as_str(), v.as_str());
        }
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        self.finish(req.call())
    }

    pub fn post_raw(&self, path: &str, content_type: &str, body: Vec<u8>) -> Resp {
        let mut req = self
            .agent
            .post(format!("{}{path}", self.base))
            .header("Cookie", self.cookie_header())
            .header("Accept-Language", &self.accept_language)
            .header("Content-Type", content_type);
        for (k, v) in self.extra_headers.borrow().iter() {
            req = req.header(k.as_str(), v.as_str());
        }
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
        ("forfeit_sos", "opponent"),
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

/// A database for a fresh server: `dir`/tengen.db, or with `TENGEN_E2E_PG` a new PostgreSQL
/// database of its own.
pub fn fresh_database(dir: &Path) -> PathBuf {
    match std::env::var("TENGEN_E2E_PG") {
        Ok(url) => PathBuf::from(fresh_pg(&url)),
        Err(_) => dir.join("tengen.db"),
    }
}

/// Whether the server's database is PostgreSQL (`TENGEN_E2E_PG=postgres://…` runs the e2e
/// tests there, with a server built `--features postgres`; each server then gets a database
/// of its own, [`fresh_pg`]). The helpers below then read it through `psql`.
pub fn is_pg(db: &Path) -> bool {
    db.to_string_lossy().starts_with("postgres")
}

/// Empty the PostgreSQL database `url` (its `public` schema) for a fresh server.
pub fn wipe_pg(url: &str) {
    psql_rows(url, "DROP SCHEMA public CASCADE; CREATE SCHEMA public;");
}

/// A new, empty database of its own on the server of `base` (`…/DB`): its address. The tests
/// run in parallel as on SQLite, each server on its own database (`e2e_PID_N`); the CI
/// cluster is thrown away with them.
pub fn fresh_pg(base: &str) -> String {
    fresh_pg_with(base, "")
}

/// [`fresh_pg`] sorting text by ICU's collation for `locale` (e.g. `zh`: pinyin), as a
/// database made for an office in that language may.
pub fn fresh_pg_collated(base: &str, locale: &str) -> String {
    fresh_pg_with(base, &format!("TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE '{locale}'"))
}

/// [`fresh_pg`] made with `options` after `CREATE DATABASE name`.
fn fresh_pg_with(base: &str, options: &str) -> String {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let name = format!("e2e_{}_{n}", std::process::id());
    psql_rows(base, &format!("DROP DATABASE IF EXISTS {name}"));
    psql_rows(base, &format!("CREATE DATABASE {name} {options}"));
    let root = base.rsplit_once('/').map_or(base, |(r, _)| r);
    format!("{root}/{name}")
}

/// Rows of `sql` on PostgreSQL through `psql`, every column as text (NULL as "").
pub fn psql_rows(url: &str, sql: &str) -> Vec<Vec<String>> {
    psql_cells(url, sql).into_iter().map(|r| r.into_iter().map(Option::unwrap_or_default).collect()).collect()
}

/// Rows of `sql` on PostgreSQL through `psql`, NULL as None and an empty text as Some("")
/// (psql prints NULL as the unit separator's neighbour \x1d, which no test value holds).
pub fn psql_cells(url: &str, sql: &str) -> Vec<Vec<Option<String>>> {
    let out = Command::new("psql")
        .args([url, "-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", "-F", "\x1f", "-R", "\x1e"])
        .args(["-P", "null=\x1d", "-c", sql])
        .output()
        .expect("psql (Debian's postgresql-client)");
    assert!(out.status.success(), "psql {sql}: {}", String::from_utf8_lossy(&out.stderr));
    // Rows joined by \x1e and one newline at the end; no output at all is no row.
    let text = String::from_utf8_lossy(&out.stdout);
    let Some(text) = text.strip_suffix('\n') else { return Vec::new() };
    text.split('\x1e')
        .map(|r| r.split('\x1f').map(|v| (v != "\x1d").then(|| v.to_string())).collect())
        .collect()
}

/// The SQL for the text at `path` (dotted, e.g. `ruleset.komi_q`) in the JSON text column
/// `column`, the same on both engines: a string without its quotes, a number as written,
/// NULL when absent. Compare it with a text literal (`= '15'`).
pub fn json_text(db: &Path, column: &str, path: &str) -> String {
    if is_pg(db) {
        format!("({column}::jsonb #>> '{{{}}}')", path.replace('.', ","))
    } else {
        format!("CAST(json_extract({column}, '$.{path}') AS TEXT)")
    }
}

/// A UTC time `minutes` from now as the app stores it (`YYYY-MM-DD HH:MM:SS`), for SQL that
/// moves a stored time (both engines keep these as text).
pub fn utc_text_in_minutes(minutes: i64) -> String {
    (chrono::Utc::now() + chrono::Duration::minutes(minutes)).format("%Y-%m-%d %H:%M:%S").to_string()
}

/// Count rows of a table in the database file directly (read-only; WAL readers do not block).
pub fn count_rows(db: &Path, sql: &str) -> i64 {
    if is_pg(db) {
        return query_opt(db, sql).expect("count");
    }
    let c = rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
        .expect("open db");
    c.busy_timeout(Duration::from_secs(5)).expect("busy timeout");
    c.query_row(sql, [], |r| r.get(0)).expect("count")
}

/// Count rows in a backup file: an SQLite copy is read as it is; a PostgreSQL dump (pg_dump's
/// custom format, "PGDMP") is restored with pg_restore into a database of its own first, so
/// the test reads what a restore would bring back.
pub fn backup_count(file: &Path, sql: &str) -> i64 {
    let bytes = std::fs::read(file).expect("read the backup");
    if !bytes.starts_with(b"PGDMP") {
        return count_rows(file, sql);
    }
    let base = std::env::var("TENGEN_E2E_PG").expect("a PostgreSQL dump outside a PostgreSQL run");
    let url = fresh_pg(&base);
    let out = Command::new("pg_restore")
        .args(["--no-owner", "--exit-on-error", "-d", &url])
        .arg(file)
        .output()
        .expect("pg_restore (Debian's postgresql-client)");
    assert!(out.status.success(), "pg_restore: {}", String::from_utf8_lossy(&out.stderr));
    count_rows(Path::new(&url), sql)
}

/// Run SQL that writes (a test standing in for a feature another branch provides, e.g.
/// results). Waits for the server's writers.
pub fn exec_sql(db: &Path, sql: &str) -> usize {
    if is_pg(db) {
        let q = format!("WITH done AS ({sql} RETURNING 1) SELECT count(*) FROM done");
        return psql_rows(&db.to_string_lossy(), &q)[0][0].parse().expect("count");
    }
    let c = rusqlite::Connection::open(db).expect("open db");
    c.busy_timeout(Duration::from_secs(5)).expect("busy timeout");
    c.execute(sql, []).expect("exec")
}

/// Rows of a query, every column as text (NULL as "").
pub fn query(db: &Path, sql: &str) -> Vec<Vec<String>> {
    if is_pg(db) {
        return psql_rows(&db.to_string_lossy(), sql);
    }
    let c = rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
        .expect("open db");
    c.busy_timeout(Duration::from_secs(5)).expect("busy timeout");
    let mut st = c.prepare(sql).expect("prepare");
    let n = st.column_count();
    let rows = st
        .query_map([], |r| {
            (0..n)
                .map(|i| {
                    let v: rusqlite::types::Value = r.get(i)?;
                    Ok(match v {
                        rusqlite::types::Value::Null => String::new(),
                        rusqlite::types::Value::Integer(x) => x.to_string(),
                        rusqlite::types::Value::Real(x) => x.to_string(),
                        rusqlite::types::Value::Text(s) => s,
                        rusqlite::types::Value::Blob(b) => format!("{b:?}"),
                    })
                })
                .collect::<Result<Vec<String>, rusqlite::Error>>()
        })
        .expect("query");
    rows.map(|r| r.expect("row")).collect()
}

/// Upload a file to an import form and confirm the preview; returns the confirmation.
pub fn import_file(c: &Client, tid: i32, kind: &str, name: &str, data: &[u8]) -> Resp {
    let token = c.get(&format!("/t/{tid}/import")).csrf();
    let p = c.post_file(&format!("/t/{tid}/import/{kind}"), &[("csrf", &token)], "file", name, data);
    assert_eq!(p.status, 200, "{}", p.body);
    let payload = p.input("payload").unwrap_or_else(|| panic!("the preview carries the upload: {}", p.body));
    c.post_form(&format!("/t/{tid}/import/{kind}/confirm"), &[("csrf", &p.csrf()), ("payload", &payload)])
}

// -------------------------------------------------------------------------------------------
// Rounds and games for the results tests. Until pairing storage lands, games come from an
// OpenGotha file with unknown results, imported through the import page like an organizer
// would. This is the one place to replace by real pairing after the merge.
// -------------------------------------------------------------------------------------------

/// A player of a generated OpenGotha file: (family name, given name, rank like "3D" / "5K").
pub type OgPlayer<'a> = (&'a str, &'a str, &'a str);

/// An OpenGotha file: the players, games (round, table, black index, white index) with unknown
/// results, and byes (round, player index).
pub fn og_xml(
    players: &[OgPlayer<'_>],
    games: &[(u32, u32, usize, usize)],
    byes: &[(u32, usize)],
    rounds: u32,
) -> String {
    let key = |i: usize| format!("{}{}", players[i].0, players[i].1).replace(' ', "").to_uppercase();
    let mut x = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n<Tournament dataVersion=\"201\" fullVersionNumber=\"3.51\">\n<Players>\n",
    );
    for (n, g, r) in players {
        x.push_str(&format!(
            "<Player club=\"北京棋院\" country=\"CN\" firstName=\"{g}\" name=\"{n}\" participating=\"{}\" rank=\"{r}\" registeringStatus=\"FIN\"/>\n",
            "1".repeat(rounds as usize)
        ));
    }
    x.push_str("</Players>\n<Games>\n");
    for (round, table, b, w) in games {
        x.push_str(&format!(
            "<Game blackPlayer=\"{}\" handicap=\"0\" knownColor=\"true\" result=\"RESULT_UNKNOWN\" roundNumber=\"{round}\" tableNumber=\"{table}\" whitePlayer=\"{}\"/>\n",
            key(*b),
            key(*w)
        ));
    }
    x.push_str("</Games>\n<ByePlayers>\n");
    for (round, p) in byes {
        x.push_str(&format!("<ByePlayer player=\"{}\" roundNumber=\"{round}\"/>\n", key(*p)));
    }
    x.push_str(&format!(
        "</ByePlayers>\n<TournamentParameterSet>\n<GeneralParameterSet numberOfRounds=\"{rounds}\"/>\n</TournamentParameterSet>\n</Tournament>\n"
    ));
    x
}

/// Import an OpenGotha file through the import page (preview, then confirm). The event must be
/// empty: the file fills it (an import never merges into an event with data). The file of
/// [`og_xml`] names no tournament, so the event keeps its name; its number of rounds is the file's.
pub fn import_og(c: &Client, tid: i32, xml: &str) {
    let token = c.get(&format!("/t/{tid}/import")).csrf();
    let p = c.post_file(
        &format!("/t/{tid}/import/opengotha"),
        &[("csrf", &token)],
        "file",
        "t.xml",
        xml.as_bytes(),
    );
    assert_eq!(p.status, 200, "{}", p.body);
    let payload = p.input("payload").expect("the preview carries the upload");
    let r = c.post_form(
        &format!("/t/{tid}/import/opengotha/confirm"),
        &[("csrf", &p.csrf()), ("payload", &payload)],
    );
    assert_eq!(r.status, 303, "{}", r.body);
}

/// Read one integer (or NULL as None) from the database.
pub fn query_opt(db: &Path, sql: &str) -> Option<i64> {
    if is_pg(db) {
        // psql shows booleans as t/f where SQLite has 1/0.
        return query_text(db, sql).and_then(|v| match v.as_str() {
            "t" => Some(1),
            "f" => Some(0),
            _ => v.parse().ok(),
        });
    }
    let c = rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
        .expect("open db");
    c.busy_timeout(Duration::from_secs(5)).expect("busy timeout");
    c.query_row(sql, [], |r| r.get::<_, Option<i64>>(0)).ok().flatten()
}

/// Read one text value from the database.
pub fn query_text(db: &Path, sql: &str) -> Option<String> {
    if is_pg(db) {
        let rows = psql_cells(&db.to_string_lossy(), sql);
        return rows.into_iter().next().and_then(|r| r.into_iter().next()).flatten();
    }
    let c = rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
        .expect("open db");
    c.busy_timeout(Duration::from_secs(5)).expect("busy timeout");
    c.query_row(sql, [], |r| r.get::<_, Option<String>>(0)).ok().flatten()
}

/// The id of the game on `board` in `round` (the first one; a replay comes later).
pub fn game_id(db: &Path, tid: i32, round: u32, board: u32) -> i32 {
    query_opt(
        db,
        &format!(
            "SELECT min(id) FROM games WHERE tournament_id = {tid} AND round_number = {round} AND board = {board}"
        ),
    )
    .expect("a game") as i32
}

/// Add an account (organizer only) and return a client logged in as it.
pub fn add_user(s: &Server, org: &Client, name: &str, role: &str) -> (Client, i32) {
    let pass = format!("{name}-secret-pass-1");
    let r = org.submit(
        "/users",
        "/users",
        &[
            ("username", name),
            ("display_name", name),
            ("role", role),
            ("password", &pass),
            ("password2", &pass),
        ],
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let uid = count_rows(&s.db, &format!("SELECT id FROM users WHERE username = '{name}'")) as i32;
    let c = s.client();
    assert_eq!(c.login(name, &pass).status, 303);
    (c, uid)
}

/// Put a user on a tournament's staff.
pub fn add_staff(org: &Client, tid: i32, uid: i32, role: &str) {
    let r = org.submit(
        &format!("/t/{tid}"),
        &format!("/t/{tid}/staff"),
        &[("user_id", &uid.to_string()), ("role", role)],
    );
    assert_eq!(r.status, 303, "{}", r.body);
}

/// The current version of a game's result sheet, read from its page.
pub fn sheet_version(c: &Client, tid: i32, gid: i32) -> String {
    let p = c.get(&format!("/t/{tid}/games/{gid}"));
    assert_eq!(p.status, 200, "{}", p.body);
    p.input("version").expect("a version field")
}

/// POST a form of a game's page with its CSRF token and current version.
pub fn game_post(c: &Client, tid: i32, gid: i32, action: &str, fields: &[(&str, &str)]) -> Resp {
    let page = c.get(&format!("/t/{tid}/games/{gid}"));
    assert_eq!(page.status, 200, "{}", page.body);
    let version = page.input("version").expect("version");
    let csrf = page.csrf();
    let mut all: Vec<(&str, &str)> = vec![("csrf", &csrf), ("version", &version)];
    all.extend_from_slice(fields);
    c.post_form(&format!("/t/{tid}/games/{gid}/{action}"), &all)
}

/// Enter a result (do=save) and expect it saved.
pub fn enter(c: &Client, tid: i32, gid: i32, fields: &[(&str, &str)]) -> Resp {
    let mut f = vec![("do", "save")];
    f.extend_from_slice(fields);
    let r = game_post(c, tid, gid, "result", &f);
    assert_eq!(r.status, 303, "{}", r.body);
    c.get(&format!("/t/{tid}/games/{gid}"))
}

/// The text inside the element with `id` (tags removed; up to the first closing tag of the
/// element's own kind).
pub fn text_of(r: &Resp, id: &str) -> Option<String> {
    let needle = format!("id=\"{id}\"");
    let i = r.body.find(&needle)?;
    let open = r.body[..i].rfind('<')?;
    let tag: String = r.body[open + 1..].chars().take_while(|c| c.is_ascii_alphanumeric()).collect();
    let start = i + r.body[i..].find('>')? + 1;
    let rest = &r.body[start..];
    let end = rest.find(&format!("</{tag}>"))?;
    Some(plain_text(&rest[..end]))
}

/// An HTML fragment's text: tags removed, entities unescaped, trimmed.
pub fn plain_text(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for ch in html.chars() {
        match ch {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    unescape(out.trim())
}

/// The text of each cell of a table row's HTML (`<td` by `<td`, the optional end tags left out).
pub fn row_cells(row: &str) -> Vec<String> {
    row.split("<td").skip(1).map(|cell| plain_text(&cell[cell.find('>').unwrap() + 1..])).collect()
}

/// Eight entrants, ranks 5d, 4d, 3d, 2d, 1d, 1k, 2k, 3k (entrant ids in this order), as the
/// Chinese CSV an organizer imports.
pub const EIGHT: &str = "姓名,拼音,段位,等级分,单位,地区,出生日期,性别,备注
王一,Wang Yi,5段,2500,北京棋院,北京,1990-01-01,男,
李二,Li Er,4段,2400,上海棋院,上海,1991-01-01,男,
张三,Zhang San,3段,2300,杭州棋院,浙江,1992-01-01,男,
赵四,Zhao Si,2段,2200,广州棋院,广东,1993-01-01,男,
钱五,Qian Wu,1段,2100,成都棋院,四川,1994-01-01,男,
孙六,Sun Liu,1级,2000,武汉棋院,湖北,1995-01-01,女,
周七,Zhou Qi,2级,1900,南京棋院,江苏,1996-01-01,女,
吴八,Wu Ba,3级,1800,西安棋院,陕西,1997-01-01,女,
";

/// The first `n` players of [`EIGHT`] as a CSV.
#[allow(dead_code)]
pub fn eight_players(n: usize) -> String {
    EIGHT.lines().take(n + 1).map(|l| format!("{l}\n")).collect()
}

/// A tournament made through the form with the default fields changed by `changes`, and the
/// first `n` players of [`EIGHT`] imported.
#[allow(dead_code)]
pub fn tournament_with_players(
    c: &Client,
    name: &str,
    latin: &str,
    changes: &[(&str, &str)],
    n: usize,
) -> i32 {
    let mut f = tournament_fields(name, latin);
    for (k, v) in changes {
        set(&mut f, k, v);
    }
    let r = c.submit("/t/new", "/t/new", &as_refs(&f));
    assert_eq!(r.status, 303, "{}", r.body);
    let tid: i32 = r.location().trim_start_matches("/t/").parse().unwrap();
    if n > 0 {
        let r = import_file(c, tid, "csv", "players.csv", eight_players(n).as_bytes());
        assert_eq!(r.status, 303, "{}", r.body);
    }
    tid
}

// -------------------------------------------------------------------------------------------
// Rounds paired and published through the forms, and the standings as the documents show them.
// -------------------------------------------------------------------------------------------

/// Pair round `n` as a draft through the rounds page, with a typed seed (the same seed gives
/// the same pairing).
pub fn pair_round(c: &Client, tid: i32, n: u32, seed: &str) {
    let token = c.get(&format!("/t/{tid}/rounds")).csrf();
    let r = c.post_form(
        &format!("/t/{tid}/rounds/{n}/pair"),
        &[("csrf", &token), ("seed", seed), ("confirm", "on")],
    );
    assert_eq!(r.status, 303, "{}", r.body);
}

/// Publish round `n`, confirming its review warnings.
pub fn publish_round(s: &Server, c: &Client, tid: i32, n: u32) {
    let token = c.get(&format!("/t/{tid}/rounds/{n}")).csrf();
    let v = query(&s.db, &format!("SELECT version FROM rounds WHERE tournament_id = {tid} AND number = {n}"));
    let r = c.post_form(
        &format!("/t/{tid}/rounds/{n}/publish"),
        &[("csrf", &token), ("version", &v[0][0]), ("confirm", "on")],
    );
    assert_eq!(r.status, 303, "{}", r.body);
}

/// GET a PDF: 200, its type, read back.
pub fn pdf(c: &Client, path: &str) -> (Resp, readback::ReadBack) {
    let r = c.get(path);
    assert_eq!(r.status, 200, "GET {path}: {}", r.body);
    assert_eq!(r.header("content-type"), Some("application/pdf"), "{path}");
    let back = readback::read(&path.replace(['/', '?', '&', '='], "_"), &r.bytes);
    (r, back)
}

/// A CSV download's records (after its UTF-8 BOM), header first.
pub fn csv_records(bytes: &[u8]) -> Vec<Vec<String>> {
    assert!(bytes.starts_with(b"\xEF\xBB\xBF"), "UTF-8 BOM");
    let mut r = csv::ReaderBuilder::new().has_headers(false).from_reader(&bytes[3..]);
    r.records().map(|rec| rec.unwrap().iter().map(String::from).collect()).collect()
}

/// A row of the public standings page: (place, name, unit, score, tie-break values).
pub type PageRow = (String, String, String, String, Vec<String>);

/// The rows of the public standings page at `path` (`/t/{id}/standings?round=N`).
pub fn standings_page_at(c: &Client, path: &str) -> Vec<PageRow> {
    let r = c.get(path);
    assert_eq!(r.status, 200, "{path}");
    let table = &r.body[r.body.find("id=\"standings\"").unwrap()..];
    let body = &table[table.find("<tbody>").unwrap() + 7..table.find("</tbody>").unwrap()];
    body.split("<tr")
        .skip(1)
        .map(|row| {
            let cells = row_cells(row);
            // The name without the withdrawal mark beside it (`e.withdrawn_mark`).
            let name = cells[1].trim_end_matches("（退赛）").trim_end_matches("(withdrawn)").trim_end();
            (cells[0].clone(), name.to_string(), cells[3].clone(), cells[4].clone(), cells[5..].to_vec())
        })
        .collect()
}

/// Each name's row of a PDF page: its text without whitespace from the name to the next name
/// (cells follow each other without separators), `names` in the order the rows must come.
pub fn pdf_rows<'a>(text: &str, names: &[&'a str]) -> Vec<(&'a str, String)> {
    let text = readback::squash(text);
    let at: Vec<usize> =
        names.iter().map(|n| text.find(n).unwrap_or_else(|| panic!("{n} missing: {text}"))).collect();
    for w in at.windows(2) {
        assert!(w[0] < w[1], "rows in standings order: {names:?} at {at:?}: {text}");
    }
    at.iter()
        .enumerate()
        .map(|(i, &a)| {
            let end = at.get(i + 1).copied().unwrap_or(text.len());
            (names[i], text[a..end].to_string())
        })
        .collect()
}

/// Perform the nigiri of every board of round `n` whose nigiri is still to be done (remote
/// nigiri from the round's seed, as an arbiter does on the round page): a result of a game
/// played on the board needs the colours first.
#[allow(dead_code)]
pub fn nigiri_all(c: &Client, db: &Path, tid: i32, n: u32) {
    let record = json_text(db, "nigiri", "record");
    let pending = query(
        db,
        &format!(
            "SELECT id, pairing_version FROM games WHERE tournament_id = {tid} AND round_number = {n} \
             AND nigiri_holder_id IS NOT NULL AND {record} IS NULL ORDER BY board"
        ),
    );
    for row in pending {
        let token = c.get(&format!("/t/{tid}/rounds/{n}")).csrf();
        let r = c.post_form(
            &format!("/t/{tid}/rounds/{n}/games/{}/remote-nigiri", row[0]),
            &[("csrf", &token), ("pv", &row[1])],
        );
        assert_eq!(r.status, 303, "{}", r.body);
    }
}

// -------------------------------------------------------------------------------------------
// Lots as the pages show them (issue 12 item 3): what an outsider reads to replay a round.
// -------------------------------------------------------------------------------------------

/// One row of a page's table of lots, as its data attributes give it.
#[derive(Debug, Clone)]
pub struct Lot {
    /// The lot's place in the round's list, and the first of its candidates the row shows (a
    /// long lot is cut over the staff page's pages; a public row is the whole lot).
    pub lot: usize,
    pub from: usize,
    pub purpose: String,
    pub method: String,
    pub seed: u64,
    pub stream: u64,
    pub candidates: Vec<u32>,
    pub outcome: Vec<u32>,
    /// The row's text.
    pub text: String,
}

impl Lot {
    /// The outcome this lot's method, seed, stream and candidates give with the crate's public
    /// draw function (what an outsider runs): `None` if the page names an unknown method or
    /// stream.
    pub fn redrawn(&self) -> Option<Vec<u32>> {
        use admin::domain::draw::lots::{Method, Stream};
        let method = Method::from_code(&self.method)?;
        let stream = Stream::from_number(self.stream)?;
        Some(admin::domain::draw::draw(method, self.seed, stream, &self.candidates))
    }
}

fn data_attr(tag: &str, name: &str) -> String {
    let key = format!("{name}=\"");
    let at = tag.find(&key).unwrap_or_else(|| panic!("no {name} in {tag}")) + key.len();
    tag[at..at + tag[at..].find('"').unwrap()].to_string()
}

fn number_list(s: &str) -> Vec<u32> {
    s.split_whitespace().map(|n| n.parse().unwrap()).collect()
}

/// Every lot shown on a page.
pub fn lots(page: &Resp) -> Vec<Lot> {
    page.body
        .match_indices("<tr class=\"draw\"")
        .map(|(at, _)| {
            let row = &page.body[at..at + page.body[at..].find("</tr>").unwrap()];
            let tag = &row[..row.find('>').unwrap()];
            Lot {
                lot: data_attr(tag, "data-lot").parse().unwrap(),
                from: data_attr(tag, "data-from").parse().unwrap(),
                purpose: data_attr(tag, "data-purpose"),
                method: data_attr(tag, "data-method"),
                seed: data_attr(tag, "data-seed").parse().unwrap(),
                stream: data_attr(tag, "data-stream").parse().unwrap(),
                candidates: number_list(&data_attr(tag, "data-candidates")),
                outcome: number_list(&data_attr(tag, "data-outcome")),
                text: unescape(row),
            }
        })
        .collect()
}

/// The pairing numbers of the entrants (the entrant list's "#" column: order of entry).
pub fn numbers_of(s: &Server, tid: i32) -> HashMap<i64, u32> {
    query(&s.db, &format!("SELECT id FROM entrants WHERE tournament_id = {tid} ORDER BY id"))
        .iter()
        .zip(1u32..)
        .map(|(r, n)| (r[0].parse().unwrap(), n))
        .collect()
}

/// Every lot on a public pairings page, each replayed twice from what the page shows — with the
/// crate's draw function and as an outsider does from the page's description
/// ([`outsider::replay`]; on an English page the description itself is checked too) — and
/// naming players the page shows by their numbers (a double-loss lot names players of the
/// round before). The page marks each as replayed.
pub fn replayed_lots(page: &Resp) -> Vec<Lot> {
    let shown = lots(page);
    assert!(!shown.is_empty(), "the page shows its lots");
    if page.body.contains("<html lang=\"en\"") {
        outsider::check_description(&page.body);
    }
    let on_page: Vec<u32> = page
        .body
        .match_indices("<span class=\"no\">")
        .map(|(at, m)| page.body[at + m.len()..].split('<').next().unwrap().parse().unwrap())
        .collect();
    let byes = text_of(page, "byes").unwrap_or_default();
    for l in &shown {
        assert_eq!(l.redrawn().as_ref(), Some(&l.outcome), "the crate replays {l:?}");
        let replayed = outsider::replay(&l.method, l.seed, l.stream, &l.candidates);
        assert_eq!(replayed.as_ref(), Some(&l.outcome), "the page's description replays {l:?}");
        assert!(l.text.contains('✓'), "the page says it replays: {}", l.text);
        assert!(!l.text.contains("drawp.") && !l.text.contains("method."), "{}", l.text);
        for c in &l.candidates {
            assert!(
                on_page.contains(c) || byes.contains(&format!("{c} ")) || l.purpose == "double_loss",
                "candidate {c} is not on the page: {l:?}"
            );
        }
    }
    shown
}
