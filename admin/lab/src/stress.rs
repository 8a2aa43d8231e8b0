//! `tengen-lab stress crash`: proof that an acknowledged write survives a crash.
//!
//! The command starts the server (this very binary, `serve --db TMP --bind 127.0.0.1:0`) on a
//! fresh database, sets up a tournament and one account per write client, then runs trials:
//! the clients write concurrently over HTTP (forms with CSRF tokens, as a browser does), the
//! server is killed with SIGKILL at a seeded random moment, restarted, and the database is
//! checked: `PRAGMA integrity_check` is `ok` and every write the server acknowledged (a 303 or
//! 200 received) is there, with its audit row. The report is JSON.
//!
//! What a write is, is pluggable: a [`WriteKind`] makes one write and says what must hold in
//! the database once it is acknowledged ([`Fact`]s: an SQL query returning one integer and its
//! allowed range). The kinds: entrant creation and edits, result entry and rulings on the
//! games of a published round (each client writes to its own share of the games, so that the
//! version it read is the one it writes over, as one arbiter per table does).

use clap::{Args, Subcommand};
use rand_chacha::rand_core::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command as Process, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::stress_db::{Fact, Store};

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Kill the server with SIGKILL during concurrent writes, restart it, check every
    /// acknowledged write and the database's integrity; N trials, a JSON report.
    Crash(CrashArgs),
}

#[derive(Args, Debug, Clone)]
pub struct CrashArgs {
    /// Number of kill-and-restart trials.
    #[arg(long, default_value_t = 100)]
    pub trials: u32,
    /// Concurrent write clients, each with its own account and session.
    #[arg(long, default_value_t = 4)]
    pub clients: usize,
    /// Seed of every random choice (kill moments, writes).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Earliest kill, in milliseconds after the writers start.
    #[arg(long, default_value_t = 20)]
    pub min_kill_ms: u64,
    /// Latest kill, in milliseconds after the writers start.
    #[arg(long, default_value_t = 1200)]
    pub max_kill_ms: u64,
    /// Write kinds, comma separated (entrant-create, entrant-edit, result-entry, ruling-add).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "entrant-create,entrant-edit,result-entry,ruling-add"
    )]
    pub writes: Vec<String>,
    /// Games in the published round the result and ruling writers share (twice as many
    /// entrants are registered and paired before the trials).
    #[arg(long, default_value_t = 32)]
    pub games: usize,
    /// Write the JSON report to this file (standard output when absent).
    #[arg(long)]
    pub report: Option<PathBuf>,
    /// Keep the temporary directory with the database and server logs (its path is reported).
    #[arg(long)]
    pub keep: bool,
    /// App servers on the one database, the clients spread over them; each trial kills one
    /// of them (or the database server, with `--postgres`) while all write.
    #[arg(long, default_value_t = 1)]
    pub servers: usize,
    /// Run on a PostgreSQL server of the run's own (a build with `--features postgres`): the
    /// trials kill it as well as the app servers, and the servers must serve again once it
    /// is back.
    #[arg(long)]
    pub postgres: bool,
    /// PostgreSQL's server programs (initdb, postgres, pg_isready, createdb, pg_amcheck);
    /// by default `pg_config --bindir`.
    #[arg(long)]
    pub pg_bin: Option<PathBuf>,
}

pub fn run(cmd: Command) -> i32 {
    match cmd {
        Command::Crash(a) => match crash(&a) {
            Ok(report) => {
                let json = serde_json::to_string_pretty(&report).unwrap_or_default();
                match &a.report {
                    Some(p) => {
                        if let Err(e) = std::fs::write(p, &json) {
                            eprintln!("tengen-lab stress: cannot write {}: {e}", p.display());
                            return 2;
                        }
                        eprintln!(
                            "stress crash: {} trials, {} acknowledged writes, {} lost, integrity {}; report in {}",
                            report.trials,
                            report.acked,
                            report.lost.len(),
                            if report.integrity_failures == 0 { "ok" } else { "FAILED" },
                            p.display()
                        );
                    }
                    None => println!("{json}"),
                }
                if report.ok {
                    0
                } else {
                    1
                }
            }
            Err(e) => {
                eprintln!("tengen-lab stress: {e}");
                2
            }
        },
    }
}

// ---------------------------------------------------------------------------------------------
// A small HTTP/1.1 client: one request per connection, so "acknowledged" means exactly that
// the status line of the answer arrived.

pub struct Http {
    pub addr: String,
}

pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Response {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
    /// The first hidden CSRF token on the page.
    pub fn csrf(&self) -> Option<String> {
        attr_after(&self.body, "name=\"csrf\" value=\"")
    }
}

fn attr_after(s: &str, prefix: &str) -> Option<String> {
    let i = s.find(prefix)? + prefix.len();
    let end = i + s[i..].find('"')?;
    Some(s[i..end].to_string())
}

pub fn urlencode(fields: &[(&str, &str)]) -> String {
    let enc = |s: &str| {
        let mut o = String::new();
        for b in s.bytes() {
            match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => o.push(b as char),
                b' ' => o.push('+'),
                _ => o.push_str(&format!("%{b:02X}")),
            }
        }
        o
    };
    fields.iter().map(|(k, v)| format!("{}={}", enc(k), enc(v))).collect::<Vec<_>>().join("&")
}

impl Http {
    /// Send one request; `Err` when no status line came back (refused, reset, timed out).
    pub fn send(
        &self,
        method: &str,
        path: &str,
        cookie: &str,
        form: Option<&str>,
    ) -> Result<Response, String> {
        let addr: std::net::SocketAddr = self.addr.parse().map_err(|e| format!("{}: {e}", self.addr))?;
        let mut tcp = TcpStream::connect_timeout(&addr, Duration::from_secs(5)).map_err(|e| e.to_string())?;
        tcp.set_read_timeout(Some(Duration::from_secs(30))).map_err(|e| e.to_string())?;
        let mut req = format!("{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n", self.addr);
        if !cookie.is_empty() {
            req.push_str(&format!("Cookie: {cookie}\r\n"));
        }
        match form {
            Some(body) => {
                req.push_str(&format!(
                    "Origin: http://{}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n{body}",
                    self.addr,
                    body.len()
                ));
            }
            None => req.push_str("\r\n"),
        }
        tcp.write_all(req.as_bytes()).map_err(|e| e.to_string())?;
        let mut buf = Vec::new();
        // A connection cut after the status line still carries the answer.
        let _ = tcp.read_to_end(&mut buf);
        let text = String::from_utf8_lossy(&buf);
        let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
        let mut lines = head.lines();
        let status = lines
            .next()
            .filter(|l| l.starts_with("HTTP/1."))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|s| s.parse::<u16>().ok())
            .ok_or_else(|| "no answer".to_string())?;
        let headers = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
            .collect();
        Ok(Response { status, headers, body: body.to_string() })
    }

    pub fn get(&self, path: &str, cookie: &str) -> Result<Response, String> {
        self.send("GET", path, cookie, None)
    }

    pub fn post(&self, path: &str, cookie: &str, fields: &[(&str, &str)]) -> Result<Response, String> {
        self.send("POST", path, cookie, Some(&urlencode(fields)))
    }
}

/// A logged-in client: its cookies and CSRF token.
#[derive(Clone, Debug)]
pub struct Session {
    pub cookie: String,
    pub csrf: String,
}

fn cookie_value(r: &Response, name: &str) -> Option<String> {
    r.headers
        .iter()
        .filter(|(k, _)| k.eq_ignore_ascii_case("set-cookie"))
        .filter_map(|(_, v)| v.split(';').next()?.split_once('='))
        .find(|(k, _)| k.trim() == name)
        .map(|(_, v)| v.trim().to_string())
}

pub(crate) fn login(http: &Http, user: &str, password: &str) -> Result<Session, String> {
    let page = http.get("/login", "")?;
    let anon = cookie_value(&page, admin::web::ctx::ANON_CSRF_COOKIE).ok_or("no anonymous CSRF cookie")?;
    let token = page.csrf().ok_or("no CSRF token on the login page")?;
    let cookie = format!("{}={anon}", admin::web::ctx::ANON_CSRF_COOKIE);
    let r = http.post("/login", &cookie, &[("csrf", &token), ("username", user), ("password", password)])?;
    if r.status != 303 {
        return Err(format!("login as {user}: HTTP {}", r.status));
    }
    let session = cookie_value(&r, admin::web::ctx::SESSION_COOKIE).ok_or("no session cookie")?;
    session_from_cookie(http, &format!("{}={session}", admin::web::ctx::SESSION_COOKIE))
}

fn session_from_cookie(http: &Http, cookie: &str) -> Result<Session, String> {
    let home = http.get("/", cookie)?;
    let csrf = home.csrf().ok_or("no CSRF token on the home page after login")?;
    Ok(Session { cookie: cookie.to_string(), csrf })
}

// ---------------------------------------------------------------------------------------------
// Write kinds

/// How one attempted write ended.
pub enum Attempt {
    /// Acknowledged; these facts hold from now on.
    Acked(Vec<Fact>),
    /// Refused with a 4xx (not a loss; counted).
    Refused(u16),
    /// A 5xx: the server failed (counted as a failure of the run).
    ServerError(u16, String),
    /// No answer: the server died around it. It may or may not have been written.
    NoAnswer,
    /// Nothing to do for this kind yet (an edit before any entrant of this client exists).
    Skipped,
}

/// What the run set up, shared by every client.
pub struct Shared {
    pub tid: i32,
    /// The games of round 1 (published), by table; client `i` writes to every `clients`-th.
    pub games: Vec<i32>,
    pub clients: usize,
}

/// An entrant this client created and saw acknowledged.
pub struct Own {
    pub key: String,
    pub id: Option<i32>,
    pub edits_acked: i64,
}

/// One client's memory across trials.
pub struct ClientState {
    pub client: usize,
    pub seq: u64,
    pub own: Vec<Own>,
    /// Acknowledged result entries and rulings per game of this client.
    pub results_acked: BTreeMap<i32, i64>,
    pub rulings_acked: BTreeMap<i32, i64>,
}

impl ClientState {
    pub fn new(client: usize) -> ClientState {
        ClientState {
            client,
            seq: 0,
            own: Vec::new(),
            results_acked: BTreeMap::new(),
            rulings_acked: BTreeMap::new(),
        }
    }
}

/// One kind of write the stress clients make.
pub trait WriteKind: Send + Sync {
    fn name(&self) -> &'static str;
    fn write(
        &self,
        http: &Http,
        s: &Session,
        shared: &Shared,
        st: &mut ClientState,
        rng: &mut ChaCha8Rng,
    ) -> Attempt;
}

fn answer(r: Result<Response, String>, ok: &[u16]) -> Result<Response, Attempt> {
    match r {
        Err(_) => Err(Attempt::NoAnswer),
        Ok(r) if ok.contains(&r.status) => Ok(r),
        Ok(r) if r.status >= 500 => Err(Attempt::ServerError(r.status, r.body.chars().take(300).collect())),
        Ok(r) => Err(Attempt::Refused(r.status)),
    }
}

/// Add an entrant through the form.
pub struct EntrantCreate;

impl WriteKind for EntrantCreate {
    fn name(&self) -> &'static str {
        "entrant-create"
    }
    fn write(
        &self,
        http: &Http,
        s: &Session,
        sh: &Shared,
        st: &mut ClientState,
        rng: &mut ChaCha8Rng,
    ) -> Attempt {
        st.seq += 1;
        // The Z ends the key, so that no key is a prefix of another in a search.
        let key = format!("C{}N{}Z", st.client, st.seq);
        let rank = format!("{}d", 1 + rng.next_u64() % 9);
        let path = format!("/t/{}/entrants/new", sh.tid);
        let r = http.post(
            &path,
            &s.cookie,
            &[
                ("csrf", &s.csrf),
                ("family_name_latin", "Stress"),
                ("given_name_latin", &key),
                ("rank", &rank),
                ("unit", "Crash Club"),
            ],
        );
        if let Err(a) = answer(r, &[303]) {
            return a;
        }
        let facts = vec![
            Fact {
                what: format!("entrant {key} exists once"),
                sql: format!(
                    "SELECT count(*) FROM entrants WHERE tournament_id = {} AND given_name_latin = '{key}'",
                    sh.tid
                ),
                min: 1,
                max: Some(1),
            },
            Fact {
                what: format!("entrant {key} has its creation audited"),
                sql: format!(
                    "SELECT count(*) FROM audit a JOIN entrants e ON e.id = a.entity_id WHERE a.entity = 'entrant' \
                     AND a.action = 'create' AND e.given_name_latin = '{key}'"
                ),
                min: 1,
                max: Some(1),
            },
        ];
        st.own.push(Own { key, id: None, edits_acked: 0 });
        Attempt::Acked(facts)
    }
}

/// Edit one of this client's entrants (read the form for its version first, as a browser does).
pub struct EntrantEdit;

impl WriteKind for EntrantEdit {
    fn name(&self) -> &'static str {
        "entrant-edit"
    }
    fn write(
        &self,
        http: &Http,
        s: &Session,
        sh: &Shared,
        st: &mut ClientState,
        rng: &mut ChaCha8Rng,
    ) -> Attempt {
        if st.own.is_empty() {
            return Attempt::Skipped;
        }
        let i = (rng.next_u64() % st.own.len() as u64) as usize;
        let tid = sh.tid;
        if st.own[i].id.is_none() {
            let list = match answer(
                http.get(&format!("/t/{tid}/entrants?q={}", st.own[i].key), &s.cookie),
                &[200],
            ) {
                Ok(r) => r,
                Err(a) => return a,
            };
            let key = &st.own[i].key;
            st.own[i].id = list.body.find(&format!(">Stress {key}<")).and_then(|at| {
                let row = list.body[..at].rfind("id=\"entrant-")?;
                attr_after(&list.body[row..], "id=\"entrant-")?.parse().ok()
            });
        }
        let Some(eid) = st.own[i].id else {
            return Attempt::ServerError(
                200,
                format!("acknowledged entrant {} not in the list", st.own[i].key),
            );
        };
        let path = format!("/t/{tid}/entrants/{eid}/edit");
        let form = match answer(http.get(&path, &s.cookie), &[200]) {
            Ok(r) => r,
            Err(a) => return a,
        };
        let Some(version) =
            attr_after(&form.body, "name=\"version\" value=\"").and_then(|v| v.parse::<i64>().ok())
        else {
            return Attempt::ServerError(200, "no version on the edit form".into());
        };
        st.seq += 1;
        let notes = format!("edit {}", st.seq);
        let key = st.own[i].key.clone();
        let rank = format!("{}d", 1 + rng.next_u64() % 9);
        let r = http.post(
            &path,
            &s.cookie,
            &[
                ("csrf", &s.csrf),
                ("family_name_latin", "Stress"),
                ("given_name_latin", &key),
                ("rank", &rank),
                ("unit", "Crash Club"),
                ("notes", &notes),
                ("version", &version.to_string()),
            ],
        );
        if let Err(a) = answer(r, &[303]) {
            return a;
        }
        st.own[i].edits_acked += 1;
        Attempt::Acked(vec![
            Fact {
                what: format!("entrant {key} (#{eid}) is at version {} or later", version + 1),
                sql: format!("SELECT version FROM entrants WHERE id = {eid}"),
                min: version + 1,
                max: None,
            },
            Fact {
                what: format!("entrant {key} (#{eid}) has its acknowledged edits audited"),
                sql: format!(
                    "SELECT count(*) FROM audit WHERE entity = 'entrant' AND entity_id = {eid} AND action = 'update'"
                ),
                min: st.own[i].edits_acked,
                max: None,
            },
        ])
    }
}

/// One of this client's games, and its result sheet's version as the game page shows it.
fn own_game(
    http: &Http,
    s: &Session,
    sh: &Shared,
    st: &ClientState,
    rng: &mut ChaCha8Rng,
) -> Result<(i32, i64), Attempt> {
    let mine: Vec<i32> =
        sh.games.iter().enumerate().filter(|(i, _)| i % sh.clients == st.client).map(|(_, g)| *g).collect();
    if mine.is_empty() {
        return Err(Attempt::Skipped);
    }
    let gid = mine[(rng.next_u64() % mine.len() as u64) as usize];
    let page = answer(http.get(&format!("/t/{}/games/{gid}", sh.tid), &s.cookie), &[200])?;
    let version = attr_after(&page.body, "name=\"version\" value=\"")
        .and_then(|v| v.parse::<i64>().ok())
        .ok_or_else(|| Attempt::ServerError(200, format!("no version on the page of game {gid}")))?;
    Ok((gid, version))
}

/// Enter a result by count on one of this client's games, through the game page's form.
pub struct ResultEntry;

impl WriteKind for ResultEntry {
    fn name(&self) -> &'static str {
        "result-entry"
    }
    fn write(
        &self,
        http: &Http,
        s: &Session,
        sh: &Shared,
        st: &mut ClientState,
        rng: &mut ChaCha8Rng,
    ) -> Attempt {
        let (gid, version) = match own_game(http, s, sh, st, rng) {
            Ok(g) => g,
            Err(a) => return a,
        };
        // Black's count in half points: 150½ … 219½ (komi 3¾: either side may win).
        let halves = 2 * (150 + rng.next_u64() % 70) + 1;
        let count = format!("{}.5", halves / 2);
        let r = http.post(
            &format!("/t/{}/games/{gid}/result", sh.tid),
            &s.cookie,
            &[
                ("csrf", &s.csrf),
                ("version", &version.to_string()),
                ("do", "save"),
                ("method", "count"),
                ("black_count", &count),
            ],
        );
        if let Err(a) = answer(r, &[303]) {
            return a;
        }
        let n = st.results_acked.entry(gid).or_insert(0);
        *n += 1;
        let v = version + 1;
        Attempt::Acked(vec![
            Fact {
                what: format!("game {gid}: the result of version {v} (Black's count {count}) or a later one"),
                sql: format!(
                    "SELECT count(*) FROM results WHERE game_id = {gid} \
                     AND (version > {v} OR (version = {v} AND method = 'count' AND black_halves = {halves}))"
                ),
                min: 1,
                max: Some(1),
            },
            Fact {
                what: format!("game {gid}: its OpenGotha result code is in step"),
                sql: format!(
                    "SELECT count(*) FROM games WHERE id = {gid} AND result IN ('RESULT_BLACKWINS', 'RESULT_WHITEWINS')"
                ),
                min: 1,
                max: Some(1),
            },
            Fact {
                what: format!("game {gid}: its acknowledged result entries are audited"),
                sql: format!(
                    "SELECT count(*) FROM audit WHERE entity = 'result' AND action = 'enter' AND entity_id = {gid}"
                ),
                min: *n,
                max: None,
            },
        ])
    }
}

/// Add a ruling (an advice, which decides nothing) to one of this client's games.
pub struct RulingAdd;

impl WriteKind for RulingAdd {
    fn name(&self) -> &'static str {
        "ruling-add"
    }
    fn write(
        &self,
        http: &Http,
        s: &Session,
        sh: &Shared,
        st: &mut ClientState,
        rng: &mut ChaCha8Rng,
    ) -> Attempt {
        let (gid, version) = match own_game(http, s, sh, st, rng) {
            Ok(g) => g,
            Err(a) => return a,
        };
        let against = if rng.next_u64().is_multiple_of(2) { "black" } else { "white" };
        let move_number = (1 + rng.next_u64() % 250).to_string();
        let r = http.post(
            &format!("/t/{}/games/{gid}/rulings", sh.tid),
            &s.cookie,
            &[
                ("csrf", &s.csrf),
                ("version", &version.to_string()),
                ("do", "save"),
                ("kind", "advice"),
                ("against", against),
                ("move_number", &move_number),
                ("at_time", "10:00"),
                ("reason", "stress"),
            ],
        );
        if let Err(a) = answer(r, &[303]) {
            return a;
        }
        let n = st.rulings_acked.entry(gid).or_insert(0);
        *n += 1;
        Attempt::Acked(vec![
            Fact {
                what: format!("game {gid}: its acknowledged rulings are there"),
                sql: format!("SELECT count(*) FROM rulings WHERE game_id = {gid}"),
                min: *n,
                max: None,
            },
            Fact {
                what: format!("game {gid}: its acknowledged rulings are audited"),
                sql: format!("SELECT count(*) FROM audit WHERE entity = 'ruling' AND action = 'add' AND entity_id = {gid}"),
                min: *n,
                max: None,
            },
            Fact {
                what: format!("game {gid}: its result sheet is at version {} or later", version + 1),
                sql: format!("SELECT coalesce((SELECT version FROM results WHERE game_id = {gid}), 0)"),
                min: version + 1,
                max: None,
            },
        ])
    }
}

/// The write kinds by name.
pub fn kind(name: &str) -> Option<Box<dyn WriteKind>> {
    match name.trim() {
        "entrant-create" => Some(Box::new(EntrantCreate)),
        "entrant-edit" => Some(Box::new(EntrantEdit)),
        "result-entry" => Some(Box::new(ResultEntry)),
        "ruling-add" => Some(Box::new(RulingAdd)),
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------------
// The server under test

pub(crate) struct Server {
    child: Child,
    pub(crate) addr: String,
    setup_path: Option<String>,
}

impl Server {
    pub(crate) fn start(db: &Path, log: &Path) -> Result<Server, String> {
        // This very binary. On Linux /proc/self/exe still names it after a rebuild has
        // replaced the file on disk (a long run outlives a `cargo build`).
        let proc_exe = Path::new("/proc/self/exe");
        let exe = if proc_exe.exists() {
            proc_exe.to_path_buf()
        } else {
            std::env::current_exe().map_err(|e| format!("own executable: {e}"))?
        };
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log)
            .map_err(|e| format!("{}: {e}", log.display()))?;
        let mut child = Process::new(exe)
            .arg("serve")
            .arg("--db")
            .arg(db)
            .arg("--bind")
            .arg("127.0.0.1:0")
            .env("TENGEN_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::from(log))
            .spawn()
            .map_err(|e| format!("start the server: {e}"))?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let _ = tx.send(line);
            }
        });
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut setup_path = None;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match rx.recv_timeout(left) {
                Ok(l) => l,
                Err(_) => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err("the server did not start".into());
                }
            };
            if let Some(i) = line.find("/setup/") {
                setup_path = Some(line[i..].trim().to_string());
            }
            if let Some(rest) = line.split("listening on http://").nth(1) {
                return Ok(Server { child, addr: rest.trim().to_string(), setup_path });
            }
        }
    }

    /// The server's process id (its memory is read from /proc).
    pub(crate) fn pid(&self) -> u32 {
        self.child.id()
    }

    pub(crate) fn kill(&mut self) {
        let _ = self.child.kill(); // SIGKILL on Unix
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

// ---------------------------------------------------------------------------------------------
// The run

#[derive(Debug, Default, Serialize, Clone)]
pub struct Counts {
    pub acked: u64,
    /// Acknowledged writes by kind.
    pub acked_by_kind: BTreeMap<String, u64>,
    pub no_answer: u64,
    pub refused: u64,
    /// 503s while the database server was down (its outage, told as such; not failures).
    pub unavailable: u64,
    pub server_errors: u64,
    pub skipped: u64,
}

impl Counts {
    pub(crate) fn add(&mut self, o: &Counts) {
        self.acked += o.acked;
        for (k, n) in &o.acked_by_kind {
            *self.acked_by_kind.entry(k.clone()).or_insert(0) += n;
        }
        self.no_answer += o.no_answer;
        self.refused += o.refused;
        self.unavailable += o.unavailable;
        self.server_errors += o.server_errors;
        self.skipped += o.skipped;
    }
}

#[derive(Debug, Serialize)]
pub struct Trial {
    pub trial: u32,
    /// What was killed: "server N" or "postgresql".
    pub victim: String,
    pub kill_after_ms: u64,
    #[serde(flatten)]
    pub counts: Counts,
    pub restart_ms: u64,
    pub facts_checked: usize,
    /// Whether every fact so far was checked (else only this trial's).
    pub full_check: bool,
    pub lost: usize,
    pub integrity: String,
}

#[derive(Debug, Serialize)]
pub struct Report {
    pub command: &'static str,
    pub ok: bool,
    pub seed: u64,
    pub trials: u32,
    pub clients: usize,
    pub servers: usize,
    pub database: &'static str,
    pub writes: Vec<String>,
    pub kill_window_ms: (u64, u64),
    pub acked: u64,
    pub acked_by_kind: BTreeMap<String, u64>,
    pub no_answer: u64,
    pub refused: u64,
    pub unavailable: u64,
    pub server_errors: u64,
    pub integrity_failures: u32,
    /// Acknowledged writes not found after a restart (each a failed fact).
    pub lost: Vec<String>,
    /// The first few 5xx answers, for diagnosis.
    pub errors: Vec<String>,
    pub seconds: f64,
    pub dir: Option<String>,
    pub per_trial: Vec<Trial>,
}

/// Every field the tournament form needs, with the defaults.
fn tournament_form(csrf: &str) -> Vec<(String, String)> {
    let mut f: Vec<(String, String)> = [
        ("csrf", csrf),
        ("name_zh", "断电测试赛"),
        ("name_latin", "Crash Test Open"),
        ("venue", "127.0.0.1"),
        ("start_date", "2026-12-05"),
        ("end_date", "2026-12-07"),
        ("system", "swiss"),
        ("rounds", "7"),
        // Colours by lot: results by count need known colours, and a nigiri at every board
        // would only slow the set-up down.
        ("colour_method", "lots"),
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
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    for t in ["score", "sos", "cumulative", "direct", "wins", "fewer_warnings", "lots"] {
        f.push(("tiebreak".into(), t.into()));
    }
    f
}

fn refs(f: &[(String, String)]) -> Vec<(&str, &str)> {
    f.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect()
}

const PASSWORD: &str = "stress-password-1";

/// First organizer through the one-time link, a tournament, one organizer account per client
/// on its staff, and round 1 of `2 × games` entrants paired and published through the forms;
/// returns what the clients share and each client's session.
pub(crate) fn set_up(
    http: &Http,
    server: &Server,
    db: &Store,
    clients: usize,
    games: usize,
) -> Result<(Shared, Vec<Session>), String> {
    let setup = server.setup_path.clone().ok_or("no first-run link (the database is not new)")?;
    let page = http.get(&setup, "")?;
    let anon = cookie_value(&page, admin::web::ctx::ANON_CSRF_COOKIE).ok_or("no anonymous cookie")?;
    let token = page.csrf().ok_or("no token on the first-run page")?;
    let r = http.post(
        &setup,
        &format!("{}={anon}", admin::web::ctx::ANON_CSRF_COOKIE),
        &[("csrf", &token), ("username", "boss"), ("password", PASSWORD), ("password2", PASSWORD)],
    )?;
    let session =
        cookie_value(&r, admin::web::ctx::SESSION_COOKIE).ok_or(format!("first run: HTTP {}", r.status))?;
    let boss = session_from_cookie(http, &format!("{}={session}", admin::web::ctx::SESSION_COOKIE))?;
    let r = http.post("/t/new", &boss.cookie, &refs(&tournament_form(&boss.csrf)))?;
    let tid: i32 = r
        .header("location")
        .and_then(|l| l.strip_prefix("/t/"))
        .and_then(|v| v.parse().ok())
        .ok_or(format!("creating the tournament: HTTP {}", r.status))?;
    let mut sessions = Vec::new();
    for i in 0..clients {
        let name = format!("writer{i}");
        let r = http.post(
            "/users",
            &boss.cookie,
            &[("csrf", &boss.csrf), ("username", &name), ("role", "organizer"), ("password", PASSWORD)],
        )?;
        if r.status != 200 {
            return Err(format!("account {name}: HTTP {}", r.status));
        }
        let uid = db.i64(&format!("SELECT id FROM users WHERE username = '{name}'"))?;
        let r = http.post(
            &format!("/t/{tid}/staff"),
            &boss.cookie,
            &[("csrf", &boss.csrf), ("user_id", &uid.to_string()), ("role", "organizer")],
        )?;
        if r.status != 303 {
            return Err(format!("staff {name}: HTTP {}", r.status));
        }
        sessions.push(login(http, &name, PASSWORD)?);
    }
    let mut game_ids = Vec::new();
    if games > 0 {
        for k in 0..2 * games {
            let r = http.post(
                &format!("/t/{tid}/entrants/new"),
                &boss.cookie,
                &[
                    ("csrf", &boss.csrf),
                    ("family_name_latin", "Seeded"),
                    ("given_name_latin", &format!("Player{k}")),
                    ("rank", &format!("{}d", 1 + k % 9)),
                    ("unit", &format!("Club {}", k % 7)),
                ],
            )?;
            if r.status != 303 {
                return Err(format!("entrant {k}: HTTP {}", r.status));
            }
        }
        let r = http.post(
            &format!("/t/{tid}/rounds/1/pair"),
            &boss.cookie,
            &[("csrf", &boss.csrf), ("seed", "1")],
        )?;
        if r.status != 303 {
            return Err(format!("pairing round 1: HTTP {}", r.status));
        }
        let v = db.i64(&format!("SELECT version FROM rounds WHERE tournament_id = {tid} AND number = 1"))?;
        let r = http.post(
            &format!("/t/{tid}/rounds/1/publish"),
            &boss.cookie,
            &[("csrf", &boss.csrf), ("version", &v.to_string()), ("confirm", "on")],
        )?;
        if r.status != 303 {
            return Err(format!("publishing round 1: HTTP {}", r.status));
        }
        game_ids = db
            .integers(&format!(
                "SELECT CAST(id AS BIGINT) AS v FROM games WHERE tournament_id = {tid} AND round_number = 1 \
                 AND white_id IS NOT NULL ORDER BY board"
            ))?
            .into_iter()
            .map(|id| id as i32)
            .collect();
        if game_ids.len() != games {
            return Err(format!("round 1 has {} games, not {games}", game_ids.len()));
        }
    }
    Ok((Shared { tid, games: game_ids, clients }, sessions))
}

pub(crate) fn pick(rng: &mut ChaCha8Rng, lo: u64, hi: u64) -> u64 {
    lo + rng.next_u64() % (hi.saturating_sub(lo) + 1)
}

/// What one trial kills.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Victim {
    Server(usize),
    Database,
}

impl Victim {
    fn pick(rng: &mut ChaCha8Rng, servers: usize, database: bool) -> Victim {
        let n = servers + usize::from(database);
        match (rng.next_u64() % n as u64) as usize {
            i if i < servers => Victim::Server(i),
            _ => Victim::Database,
        }
    }

    fn name(self) -> String {
        match self {
            Victim::Server(i) => format!("server {i}"),
            Victim::Database => "postgresql".into(),
        }
    }
}

/// The run's servers and database, and what every trial needs of them.
struct Office {
    store: Store,
    servers: Vec<Server>,
    log: PathBuf,
    /// Set while the database server is down: a 503 then is its outage, not a failure.
    db_down: std::sync::Arc<AtomicBool>,
}

impl Office {
    fn open(a: &CrashArgs, dir: &Path) -> Result<Office, String> {
        let store = Store::new(a.postgres, a.pg_bin.as_deref(), dir, "stress")?;
        let log = dir.join("server.log");
        let servers = vec![Server::start(&store.address(), &log)?];
        Ok(Office { store, servers, log, db_down: Default::default() })
    }

    fn http(&self, i: usize) -> Http {
        Http { addr: self.servers[i % self.servers.len()].addr.clone() }
    }

    fn kill(&mut self, v: Victim) {
        match v {
            Victim::Server(i) => self.servers[i].kill(),
            Victim::Database => {
                self.db_down.store(true, Ordering::SeqCst);
                if let Some(c) = self.store.cluster() {
                    c.kill();
                }
            }
        }
    }

    /// Start again what was killed; returns when every server answers `probe` with a 200.
    fn bring_back(&mut self, v: Victim, probe: &str, cookie: &str) -> Result<(), String> {
        match v {
            Victim::Server(i) => self.servers[i] = Server::start(&self.store.address(), &self.log)?,
            Victim::Database => {
                if let Some(c) = self.store.cluster() {
                    c.start()?;
                }
                self.db_down.store(false, Ordering::SeqCst);
            }
        }
        let deadline = Instant::now() + Duration::from_secs(20);
        for i in 0..self.servers.len() {
            loop {
                match self.http(i).get(probe, cookie) {
                    Ok(r) if r.status == 200 => break,
                    r if Instant::now() > deadline => {
                        let got = r.map(|r| format!("HTTP {}", r.status)).unwrap_or_else(|e| e);
                        return Err(format!("server {i} does not serve again after {}: {got}", v.name()));
                    }
                    _ => std::thread::sleep(Duration::from_millis(50)),
                }
            }
        }
        Ok(())
    }
}

/// What the clients of one trial did until the kill.
pub(crate) type ClientRun = (Counts, Vec<Fact>, Vec<String>);

/// One client writing until `stop`: its kinds in seeded random order, every answer counted.
pub(crate) fn client_loop(
    http: &Http,
    sess: &Session,
    shared: &Shared,
    st: &mut ClientState,
    kinds: &[Box<dyn WriteKind>],
    (stop, db_down): (&AtomicBool, &AtomicBool),
    seed: u64,
) -> ClientRun {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut c, mut facts, mut errs) = (Counts::default(), Vec::new(), Vec::new());
    while !stop.load(Ordering::Relaxed) {
        let k = &kinds[(rng.next_u64() % kinds.len() as u64) as usize];
        match k.write(http, sess, shared, st, &mut rng) {
            Attempt::Acked(f) => {
                c.acked += 1;
                *c.acked_by_kind.entry(k.name().to_string()).or_insert(0) += 1;
                facts.extend(f);
            }
            Attempt::Refused(_) => c.refused += 1,
            Attempt::ServerError(503, _) if db_down.load(Ordering::SeqCst) => c.unavailable += 1,
            Attempt::ServerError(s, body) => {
                c.server_errors += 1;
                errs.push(format!("{}: HTTP {s}: {body}", k.name()));
            }
            Attempt::Skipped => c.skipped += 1,
            Attempt::NoAnswer => {
                c.no_answer += 1;
                break; // its server is gone
            }
        }
    }
    (c, facts, errs)
}

/// Every client writes through its server until `victim` is killed `kill_after` ms in.
fn write_until_killed(
    office: &mut Office,
    run: &mut Run,
    trial: u32,
    victim: Victim,
    kill_after: u64,
) -> Vec<ClientRun> {
    let stop = AtomicBool::new(false);
    let db_down = office.db_down.clone();
    let https: Vec<Http> = (0..run.states.len()).map(|i| office.http(i)).collect();
    let Run { states, sessions, shared, kinds, seed, .. } = run;
    std::thread::scope(|scope| {
        let handles: Vec<_> = states
            .iter_mut()
            .zip(sessions.iter())
            .zip(&https)
            .map(|((st, sess), http)| {
                let flags = (&stop, &*db_down);
                let (shared, kinds) = (&*shared, &kinds[..]);
                let seed = *seed ^ (u64::from(trial) << 32) ^ (st.client as u64 + 1);
                scope.spawn(move || client_loop(http, sess, shared, st, kinds, flags, seed))
            })
            .collect();
        std::thread::sleep(Duration::from_millis(kill_after));
        office.kill(victim);
        stop.store(true, Ordering::Relaxed);
        handles.into_iter().map(|h| h.join().unwrap_or_default()).collect()
    })
}

/// What lasts across trials.
struct Run {
    kinds: Vec<Box<dyn WriteKind>>,
    shared: Shared,
    sessions: Vec<Session>,
    states: Vec<ClientState>,
    seed: u64,
    /// Every fact ever acknowledged, by query (the strongest kept).
    facts: BTreeMap<String, Fact>,
    total: Counts,
    lost: Vec<String>,
    errors: Vec<String>,
    integrity_failures: u32,
}

/// Keep the stronger of two facts on the same query.
pub(crate) fn note_fact(map: &mut BTreeMap<String, Fact>, fact: &Fact) {
    match map.get(&fact.sql) {
        Some(old) if old.min > fact.min => {}
        _ => {
            map.insert(fact.sql.clone(), fact.clone());
        }
    }
}

/// One trial: write, kill, bring back, check. Every trial checks what it acknowledged; every
/// tenth and the last check all that was ever acknowledged (older writes can only go missing
/// through damage, which the integrity check sees every time).
fn trial(
    office: &mut Office,
    run: &mut Run,
    trial: u32,
    last: bool,
    rng: &mut ChaCha8Rng,
    a: &CrashArgs,
) -> Result<Trial, String> {
    let kill_after = pick(rng, a.min_kill_ms, a.max_kill_ms);
    let victim = Victim::pick(rng, office.servers.len(), a.postgres);
    let results = write_until_killed(office, run, trial, victim, kill_after);
    let mut counts = Counts::default();
    let mut fresh = BTreeMap::new();
    for (c, f, e) in results {
        counts.add(&c);
        for fact in &f {
            note_fact(&mut run.facts, fact);
            note_fact(&mut fresh, fact);
        }
        run.errors.extend(e);
    }
    let t0 = Instant::now();
    let probe = format!("/t/{}/entrants", run.shared.tid);
    if let Err(e) = office.bring_back(victim, &probe, &run.sessions[0].cookie) {
        run.errors.push(format!("trial {trial}: {e}"));
        counts.server_errors += 1;
    }
    let restart_ms = t0.elapsed().as_millis() as u64;
    let full = trial.is_multiple_of(10) || last;
    let checked = if full { &run.facts } else { &fresh };
    let (integrity, lost) = office.store.verify(checked)?;
    if integrity != "ok" {
        run.integrity_failures += 1;
    }
    let t = Trial {
        trial,
        victim: victim.name(),
        kill_after_ms: kill_after,
        counts: counts.clone(),
        restart_ms,
        facts_checked: checked.len(),
        full_check: full,
        lost: lost.len(),
        integrity,
    };
    run.total.add(&counts);
    run.lost.extend(lost.into_iter().map(|l| format!("trial {trial}: {l}")));
    Ok(t)
}

pub fn crash(a: &CrashArgs) -> Result<Report, String> {
    let started = Instant::now();
    let kinds: Vec<Box<dyn WriteKind>> = a
        .writes
        .iter()
        .map(|w| kind(w).ok_or(format!("unknown write kind {w:?}")))
        .collect::<Result<_, _>>()?;
    if kinds.is_empty() || a.clients == 0 || a.servers == 0 || a.max_kill_ms < a.min_kill_ms {
        return Err(
            "need at least one write kind, one client, one server and --min-kill-ms <= --max-kill-ms".into(),
        );
    }
    let dir = tempfile::Builder::new().prefix("tengen-stress-").tempdir().map_err(|e| e.to_string())?;
    let mut office = Office::open(a, dir.path())?;
    let needs_games = a.writes.iter().any(|w| matches!(w.trim(), "result-entry" | "ruling-add"));
    let games = if needs_games { a.games } else { 0 };
    let (shared, sessions) = set_up(&office.http(0), &office.servers[0], &office.store, a.clients, games)?;
    for _ in 1..a.servers {
        office.servers.push(Server::start(&office.store.address(), &office.log)?);
    }
    let mut run = Run {
        kinds,
        shared,
        sessions,
        states: (0..a.clients).map(ClientState::new).collect(),
        seed: a.seed,
        facts: BTreeMap::new(),
        total: Counts::default(),
        lost: Vec::new(),
        errors: Vec::new(),
        integrity_failures: 0,
    };
    let mut rng = ChaCha8Rng::seed_from_u64(a.seed);
    let mut per_trial = Vec::new();
    for t in 1..=a.trials {
        match trial(&mut office, &mut run, t, t == a.trials, &mut rng, a) {
            Ok(row) => per_trial.push(row),
            Err(e) if a.keep => {
                drop(office);
                return Err(format!("trial {t}: {e} (logs kept in {})", dir.keep().display()));
            }
            Err(e) => return Err(format!("trial {t}: {e}")),
        }
    }
    drop(office);
    Ok(report(a, run, per_trial, started, a.keep.then(|| dir.keep().display().to_string())))
}

fn report(
    a: &CrashArgs,
    mut run: Run,
    per_trial: Vec<Trial>,
    started: Instant,
    dir: Option<String>,
) -> Report {
    run.errors.truncate(20);
    let t = &run.total;
    let ok = run.lost.is_empty() && run.integrity_failures == 0 && t.server_errors == 0 && t.acked > 0;
    Report {
        command: "stress crash",
        ok,
        seed: a.seed,
        trials: a.trials,
        clients: a.clients,
        servers: a.servers,
        database: if a.postgres { "postgresql" } else { "sqlite" },
        writes: run.kinds.iter().map(|k| k.name().to_string()).collect(),
        kill_window_ms: (a.min_kill_ms, a.max_kill_ms),
        acked: t.acked,
        acked_by_kind: t.acked_by_kind.clone(),
        no_answer: t.no_answer,
        refused: t.refused,
        unavailable: t.unavailable,
        server_errors: t.server_errors,
        integrity_failures: run.integrity_failures,
        lost: run.lost,
        errors: run.errors,
        seconds: started.elapsed().as_secs_f64(),
        dir,
        per_trial,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The checker itself: a fact that does not hold is reported as lost.
    #[test]
    fn verify_reports_a_missing_write_and_a_sound_database() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("t.db");
        let c = rusqlite::Connection::open(&db).unwrap();
        c.execute_batch("CREATE TABLE entrants (id INTEGER PRIMARY KEY, given_name_latin TEXT); INSERT INTO entrants VALUES (1, 'C0N1Z');")
            .unwrap();
        drop(c);
        let fact = |key: &str| Fact {
            what: format!("entrant {key} exists once"),
            sql: format!("SELECT count(*) FROM entrants WHERE given_name_latin = '{key}'"),
            min: 1,
            max: Some(1),
        };
        let facts: BTreeMap<String, Fact> =
            [fact("C0N1Z"), fact("C0N2Z")].into_iter().map(|f| (f.sql.clone(), f)).collect();
        let (integrity, lost) = crate::stress_db::Store::Sqlite(db).verify(&facts).unwrap();
        assert_eq!(integrity, "ok");
        assert_eq!(lost.len(), 1, "{lost:?}");
        assert!(lost[0].contains("C0N2Z"));
    }

    #[test]
    fn urlencode_and_tokens() {
        assert_eq!(urlencode(&[("a b", "中"), ("x", "1&2")]), "a+b=%E4%B8%AD&x=1%262");
        let r = Response { status: 200, headers: vec![], body: r#"<input name="csrf" value="abc">"#.into() };
        assert_eq!(r.csrf().as_deref(), Some("abc"));
    }
}
