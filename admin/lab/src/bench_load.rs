//! `tengen-lab bench load`: the public pages of a big event under load while arbiters write
//! results.
//!
//! Builds the event of `bench standings` (N demo entrants, R Swiss rounds, results of every
//! round but the last entered through the result sheet's write path; the last round is
//! published and waiting for its results), serves it in this process, and for `--duration`
//! seconds:
//! - `--readers` clients, each on its own keep-alive connection and without a session (as the
//!   public is), fetch the public pages in turn: pairings, results, standings, crosstable and
//!   a random player's page, asking for gzip as phones do;
//! - `--writers` arbiters, each logged in with its own account, enter results of the last
//!   round's games through the game page's form (read the page for its version and CSRF token,
//!   post the count), one every `--write-interval-ms`, each on its own share of the tables.
//!
//! Every write changes the tournament's change tag, so the cached public pages are rendered
//! again while the readers read: this is the cost of a live event, not of a frozen page.
//! Afterwards every acknowledged write is looked up in the database (its version and count,
//! or a later version). Prints one JSON object: requests, requests/s, p50/p90/p99/max per page,
//! status counts, 5xx, connection errors, writes acknowledged, verified and lost. The exit code
//! is 0 only with no 5xx, no connection error and no lost write.
//!
//! Everything stays on 127.0.0.1 and stops by itself after `--duration` seconds.

use crate::bench_standings::build;
use crate::stress::{Http, Server, Session};
use crate::stress_db::Store;
use admin::db::{self, tournaments, users, Actor};
use serde_json::json;
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Arguments of `tengen-lab bench load`.
#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    #[arg(long, default_value_t = 1000)]
    pub players: usize,
    /// Rounds; all but the last have their results, the last is being entered.
    #[arg(long, default_value_t = 5)]
    pub rounds: u32,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Concurrent public readers (one keep-alive connection each).
    #[arg(long, default_value_t = 64)]
    pub readers: usize,
    /// Concurrent arbiters entering results.
    #[arg(long, default_value_t = 4)]
    pub writers: usize,
    /// Seconds of load.
    #[arg(long, short = 'd', default_value_t = 20)]
    pub duration: u64,
    /// Pause of each arbiter between two results, in milliseconds (4 arbiters at 1,000 ms
    /// enter about 14,000 results an hour, far more than a round of 500 games needs).
    #[arg(long, default_value_t = 1000)]
    pub write_interval_ms: u64,
    /// The server's `PRAGMA synchronous`: `full` (what `serve` uses: every acknowledged result
    /// is on disk) or `normal` (the WAL is synced at checkpoints only), to measure the cost.
    #[arg(long, default_value = "full", value_parser = ["full", "normal"])]
    pub synchronous: String,
    /// Keep the temporary directory (the database) and print its path.
    #[arg(long)]
    pub keep: bool,
    /// App servers on the one database: the first in this process, the others `serve`
    /// processes of this binary (`tengen serve` itself); readers and arbiters are spread over
    /// them.
    #[arg(long, default_value_t = 1)]
    pub servers: usize,
    /// The event on a PostgreSQL server of the run's own (a build with `--features
    /// postgres`) instead of a SQLite file.
    #[arg(long)]
    pub postgres: bool,
    /// PostgreSQL's server programs; by default `pg_config --bindir`.
    #[arg(long)]
    pub pg_bin: Option<std::path::PathBuf>,
    /// The event of an earlier run kept with `--keep` (its `load.db`), copied and used instead
    /// of building one (building 10,000 players takes minutes): SQLite only, `--writers 0`.
    #[arg(long)]
    pub event: Option<std::path::PathBuf>,
}

pub fn run(args: Args) -> i32 {
    match bench(&args) {
        Ok(ok) => {
            if ok {
                0
            } else {
                1
            }
        }
        Err(e) => {
            eprintln!("bench load: {e}");
            2
        }
    }
}

/// Every public page, by name, as the readers fetch them; `{p}` is a random entrant, `{q}` a
/// random entrant's name (the "find my table" search), `{r}` the round being played.
const PAGES: [(&str, &str); 9] = [
    ("home", "/t/{t}"),
    ("pairings", "/t/{t}/pairings"),
    ("round", "/t/{t}/pairings/{r}"),
    ("find_table", "/t/{t}/pairings?q={q}"),
    ("results", "/t/{t}/results"),
    ("standings", "/t/{t}/standings"),
    ("crosstable", "/t/{t}/crosstable"),
    ("players", "/t/{t}/players"),
    ("player", "/t/{t}/players/{p}"),
];

/// An entrant's id and Chinese name.
pub(crate) type Named = (i32, String);

/// Times each page's first render after a change is measured (the median is reported).
const FIRST_RENDERS: usize = 5;

/// The address of a public page for entrant `i` of the event.
fn page_path(pattern: &str, tid: i32, round: u32, entrants: &[Named], i: u64) -> String {
    let (id, name) = &entrants[(i % entrants.len() as u64) as usize];
    let q = serde_urlencoded::to_string([("q", name.as_str())]).unwrap_or_default();
    pattern
        .replace("{t}", &tid.to_string())
        .replace("{r}", &round.to_string())
        .replace("{p}", &id.to_string())
        .replace("q={q}", &q)
}

/// What one reader saw.
#[derive(Default)]
struct ReaderLog {
    /// Latencies in microseconds, by page.
    latency: BTreeMap<&'static str, Vec<u64>>,
    status: BTreeMap<u16, u64>,
    /// Connections that failed or answers that could not be read.
    errors: u64,
    first_error: Option<String>,
}

/// An acknowledged result: game, the version it created, Black's count in half points.
type Acked = (i32, i64, u64);

#[derive(Default)]
struct WriterLog {
    acked: Vec<Acked>,
    /// Microseconds from sending a result to its 303.
    write_latency: Vec<u64>,
    refused: BTreeMap<u16, u64>,
    server_errors: u64,
    no_answer: u64,
    first_error: Option<String>,
}

pub(crate) fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    (sorted[i.min(sorted.len() - 1)] as f64 / 10.0).round() / 100.0
}

fn bench(args: &Args) -> Result<bool, String> {
    if args.players < 4 || args.rounds == 0 || args.readers + args.writers == 0 || args.servers == 0 {
        return Err("need at least 4 players, 1 round, one client and one server".into());
    }
    let dir = tempfile::Builder::new().prefix("tengen-load-").tempdir().map_err(|e| e.to_string())?;
    let store = Store::new(args.postgres, args.pg_bin.as_deref(), dir.path(), "load")?;
    let db_path = store.address();
    let t0 = Instant::now();
    let tid = match &args.event {
        Some(kept) => reuse(&store, kept, args)?,
        None => build(&db_path, args.players, args.rounds, args.seed, true)?,
    };
    let build_secs = t0.elapsed().as_secs_f64();
    let password = users::random_token();
    let (entrants, games) = arbiters(&store, tid, args.writers, &password)?;
    eprintln!(
        "built the event in {build_secs:.1} s: {} entrants, {} games of round {} open",
        entrants.len(),
        games.len(),
        args.rounds
    );

    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
        l.local_addr().map_err(|e| e.to_string())?.port()
    };
    let bind = format!("127.0.0.1:{port}");
    let (server_db, server_bind) = (db_path.clone(), bind.clone());
    let sync = if args.synchronous == "normal" {
        admin::db::Synchronous::Normal
    } else {
        admin::db::Synchronous::Full
    };
    std::thread::spawn(move || {
        let mut opts = admin::web::ServeOptions::new(server_db, server_bind);
        opts.db_opts.synchronous = sync;
        let r = actix_web::rt::System::new().block_on(admin::web::serve(opts));
        if let Err(e) = r {
            eprintln!("server: {e}");
        }
    });
    let deadline = Instant::now() + Duration::from_secs(30);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        if Instant::now() > deadline {
            return Err(format!("nothing listens on port {port}"));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    // The other servers, processes of their own on the same database.
    let others: Vec<Server> = (1..args.servers)
        .map(|_| Server::start(&db_path, &dir.path().join("servers.log")))
        .collect::<Result<_, _>>()?;
    let binds: Vec<String> =
        std::iter::once(bind.clone()).chain(others.iter().map(|s| s.addr.clone())).collect();
    let http = Http { addr: bind.clone() };
    let sessions: Vec<Session> = (0..args.writers)
        .map(|i| crate::stress::login(&http, &format!("arbiter{i}"), &password))
        .collect::<Result<_, _>>()?;
    // Warm the server once, as the first visitors after publishing would.
    for (_, p) in PAGES {
        let path = page_path(p, tid, args.rounds, &entrants, 0);
        let r = http.get(&path, "")?;
        if r.status != 200 {
            return Err(format!("GET {path}: HTTP {}", r.status));
        }
    }
    let first_renders = first_renders(&store, &bind, tid, args.rounds, &entrants)?;

    let stop = AtomicBool::new(false);
    let readers: Mutex<Vec<ReaderLog>> = Mutex::new(Vec::new());
    let writers: Mutex<Vec<WriterLog>> = Mutex::new(Vec::new());
    let started = Instant::now();
    std::thread::scope(|scope| {
        for r in 0..args.readers {
            let (stop, readers, entrants, bind) = (&stop, &readers, &entrants, &binds[r % binds.len()]);
            scope.spawn(move || {
                let log = read_loop(bind, tid, args.rounds, entrants, args.seed ^ (r as u64 + 1), stop);
                readers.lock().unwrap_or_else(|e| e.into_inner()).push(log);
            });
        }
        for (w, session) in sessions.iter().enumerate() {
            // Arbiters start on the second server, so that with two the writes of one are
            // read on the other.
            let http = Http { addr: binds[(w + 1) % binds.len()].clone() };
            let (stop, writers, games) = (&stop, &writers, &games);
            let mine: Vec<i32> =
                games.iter().enumerate().filter(|(i, _)| i % args.writers == w).map(|(_, g)| *g).collect();
            scope.spawn(move || {
                let log = write_loop(
                    &http,
                    session,
                    tid,
                    &mine,
                    args.write_interval_ms,
                    args.seed ^ (w as u64),
                    stop,
                );
                writers.lock().unwrap_or_else(|e| e.into_inner()).push(log);
            });
        }
        std::thread::sleep(Duration::from_secs(args.duration));
        stop.store(true, Ordering::Relaxed);
    });
    let seconds = started.elapsed().as_secs_f64();

    // Every acknowledged write, looked up after the run.
    let writers = writers.into_inner().unwrap_or_default();
    let acked: Vec<Acked> = writers.iter().flat_map(|w| w.acked.iter().copied()).collect();
    drop(others);
    let lost = verify(&store, &acked)?;

    let readers = readers.into_inner().unwrap_or_default();
    let mut latency: BTreeMap<&str, Vec<u64>> = BTreeMap::new();
    let mut status: BTreeMap<u16, u64> = BTreeMap::new();
    let mut read_errors = 0;
    let mut errors: Vec<String> = Vec::new();
    for r in &readers {
        for (k, v) in &r.latency {
            latency.entry(k).or_default().extend(v);
        }
        for (k, n) in &r.status {
            *status.entry(*k).or_insert(0) += n;
        }
        read_errors += r.errors;
        errors.extend(r.first_error.clone());
    }
    let requests: u64 = status.values().sum();
    let mut all: Vec<u64> = latency.values().flatten().copied().collect();
    all.sort_unstable();
    let mut pages = serde_json::Map::new();
    for (k, mut v) in latency {
        v.sort_unstable();
        pages.insert(
            k.to_string(),
            json!({
                "requests": v.len(),
                "p50_ms": percentile(&v, 0.5),
                "p90_ms": percentile(&v, 0.9),
                "p99_ms": percentile(&v, 0.99),
                "max_ms": percentile(&v, 1.0),
            }),
        );
    }
    let mut writes: Vec<u64> = writers.iter().flat_map(|w| w.write_latency.iter().copied()).collect();
    writes.sort_unstable();
    let server_errors: u64 = status.iter().filter(|(s, _)| **s >= 500).map(|(_, n)| n).sum();
    let write_5xx: u64 = writers.iter().map(|w| w.server_errors).sum();
    let write_no_answer: u64 = writers.iter().map(|w| w.no_answer).sum();
    let mut refused: BTreeMap<u16, u64> = BTreeMap::new();
    for w in &writers {
        for (k, n) in &w.refused {
            *refused.entry(*k).or_insert(0) += n;
        }
        errors.extend(w.first_error.clone());
    }
    let ok = server_errors == 0
        && write_5xx == 0
        && read_errors == 0
        && write_no_answer == 0
        && lost.is_empty()
        && (args.writers == 0 || !acked.is_empty())
        && requests > 0;
    let out = json!({
        "command": "bench load",
        "ok": ok,
        "players": args.players,
        "servers": args.servers,
        "database": store.engine(),
        "rounds": args.rounds,
        "open_games": games.len(),
        "build_seconds": (build_secs * 10.0).round() / 10.0,
        "readers": args.readers,
        "writers": args.writers,
        "write_interval_ms": args.write_interval_ms,
        "synchronous": args.synchronous,
        "write_p50_ms": percentile(&writes, 0.5),
        "write_p99_ms": percentile(&writes, 0.99),
        "seconds": (seconds * 10.0).round() / 10.0,
        "requests": requests,
        "requests_per_sec": (requests as f64 / seconds).round(),
        "p50_ms": percentile(&all, 0.5),
        "p99_ms": percentile(&all, 0.99),
        "pages": pages,
        "first_render_ms": first_renders,
        "status": status.iter().map(|(k, v)| (k.to_string(), json!(v))).collect::<serde_json::Map<_, _>>(),
        "server_errors": server_errors + write_5xx,
        "connection_errors": read_errors + write_no_answer,
        "writes_acknowledged": acked.len(),
        "writes_verified": acked.len() - lost.len(),
        "writes_lost": lost.len(),
        "writes_refused": refused.iter().map(|(k, v)| (k.to_string(), json!(v))).collect::<serde_json::Map<_, _>>(),
        "lost": lost,
        "errors": errors.into_iter().take(10).collect::<Vec<_>>(),
        "dir": if args.keep { Some(dir.path().display().to_string()) } else { None },
    });
    println!("{out}");
    if args.keep {
        let kept = dir.keep();
        eprintln!("kept {}", kept.display());
    }
    Ok(ok)
}

/// The kept event `kept` copied to the run's database (with its write-ahead log, if any); its
/// tournament's id.
fn reuse(store: &Store, kept: &std::path::Path, args: &Args) -> Result<i32, String> {
    if args.postgres || args.writers > 0 {
        return Err("--event takes a SQLite file and --writers 0".into());
    }
    let to = store.address();
    std::fs::copy(kept, &to).map_err(|e| format!("{}: {e}", kept.display()))?;
    let wal = |p: &std::path::Path| std::path::PathBuf::from(format!("{}-wal", p.display()));
    if wal(kept).exists() {
        std::fs::copy(wal(kept), wal(&to)).map_err(|e| e.to_string())?;
    }
    let ids = store.integers("SELECT CAST(min(id) AS BIGINT) AS v FROM tournaments")?;
    ids.first().map(|t| *t as i32).ok_or_else(|| "no tournament in the kept event".into())
}

/// How long each public page takes to render the first time after the event changed (a new
/// change tag, as a result entered makes; the server is warm, the page not yet in the cache):
/// median and slowest of [`FIRST_RENDERS`] changes, in milliseconds, gzipped as phones ask.
fn first_renders(
    store: &Store,
    bind: &str,
    tid: i32,
    round: u32,
    entrants: &[Named],
) -> Result<serde_json::Map<String, serde_json::Value>, String> {
    let mut out = serde_json::Map::new();
    for (name, pattern) in PAGES {
        let mut times = Vec::with_capacity(FIRST_RENDERS);
        for i in 0..FIRST_RENDERS {
            // A new state of the event, as a result written by another process makes it; this
            // process's server is told at once (its write counter), as after its own writes.
            // A tag never used before (the counter only grows), in SQL both engines take.
            store.execute(&format!(
                "UPDATE tournaments SET changes = changes + 1, change_tag = 'bench' || CAST(changes + 1 AS TEXT) \
                 WHERE id = {tid}"
            ))?;
            admin::db::audit::note_write();
            let path = page_path(pattern, tid, round, entrants, i as u64 + 1);
            let stream = TcpStream::connect(bind).map_err(|e| e.to_string())?;
            let t = Instant::now();
            let (status, _, _) = get_keep_alive(stream, bind, &path)?;
            times.push(t.elapsed().as_micros() as u64);
            if status != 200 {
                return Err(format!("GET {path}: HTTP {status}"));
            }
        }
        times.sort_unstable();
        out.insert(
            name.to_string(),
            json!({ "median_ms": percentile(&times, 0.5), "max_ms": percentile(&times, 1.0) }),
        );
    }
    Ok(out)
}

/// Arbiter accounts `arbiter0…` on the tournament's staff; the entrants (id and name, for the
/// pages that name one), and the open games (the last round's, without a result yet) by table.
pub(crate) fn arbiters(
    store: &Store,
    tid: i32,
    n: usize,
    password: &str,
) -> Result<(Vec<Named>, Vec<i32>), String> {
    let pool = db::open(&store.address()).map_err(|e| e.to_string())?;
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    let actor = Actor::system("bench");
    for i in 0..n {
        let name = format!("arbiter{i}");
        let acc =
            users::NewAccount { username: &name, display_name: &name, password, role: users::Role::Arbiter };
        let u = users::create(&mut conn, &actor, &acc).map_err(|e| e.to_string())?.ok_or("account exists")?;
        tournaments::set_staff(&mut conn, &actor, tid, u.id, Some(users::Role::Arbiter))
            .map_err(|e| e.to_string())?;
    }
    drop(conn);
    let entrants = store
        .pairs(&format!(
            "SELECT CAST(id AS BIGINT) AS v, family_name_zh || given_name_zh AS s FROM entrants \
             WHERE tournament_id = {tid} ORDER BY id"
        ))?
        .into_iter()
        .map(|(id, name)| (id as i32, name))
        .collect();
    let games: Vec<i32> = store
        .integers(&format!(
            "SELECT CAST(g.id AS BIGINT) AS v FROM games g LEFT JOIN results r ON r.game_id = g.id \
             WHERE g.tournament_id = {tid} AND g.white_id IS NOT NULL AND r.game_id IS NULL AND g.round_number = \
             (SELECT max(round_number) FROM games WHERE tournament_id = {tid}) ORDER BY g.board"
        ))?
        .into_iter()
        .map(|g| g as i32)
        .collect();
    if games.is_empty() {
        return Err("no open game in the last round".into());
    }
    Ok((entrants, games))
}

/// A small xorshift for the readers' choices (no need for the seeded ChaCha here).
fn next(x: &mut u64) -> u64 {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    *x
}

/// One public reader: a keep-alive connection, the pages in turn, until `stop`.
fn read_loop(
    bind: &str,
    tid: i32,
    round: u32,
    entrants: &[Named],
    seed: u64,
    stop: &AtomicBool,
) -> ReaderLog {
    let mut log = ReaderLog::default();
    let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut conn: Option<TcpStream> = None;
    let mut k = (next(&mut rng) % PAGES.len() as u64) as usize;
    while !stop.load(Ordering::Relaxed) {
        let (name, pattern) = PAGES[k % PAGES.len()];
        k += 1;
        let path = page_path(pattern, tid, round, entrants, next(&mut rng));
        let t = Instant::now();
        let stream = match conn.take() {
            Some(s) => s,
            None => match TcpStream::connect(bind) {
                Ok(s) => {
                    let _ = s.set_read_timeout(Some(Duration::from_secs(30)));
                    let _ = s.set_nodelay(true);
                    s
                }
                Err(e) => {
                    log.errors += 1;
                    log.first_error.get_or_insert(format!("connect: {e}"));
                    std::thread::sleep(Duration::from_millis(10));
                    continue;
                }
            },
        };
        match get_keep_alive(stream, bind, &path) {
            Ok((status, s, reuse)) => {
                log.latency.entry(name).or_default().push(t.elapsed().as_micros() as u64);
                *log.status.entry(status).or_insert(0) += 1;
                if reuse {
                    conn = Some(s);
                }
            }
            Err(e) => {
                // A keep-alive connection the server closed between two requests is not an
                // error of the server; anything else is.
                if !e.starts_with("closed") {
                    log.errors += 1;
                    log.first_error.get_or_insert(format!("GET {path}: {e}"));
                }
            }
        }
    }
    log
}

/// One GET on a keep-alive connection: (status, the connection, whether it may be reused).
fn get_keep_alive(mut s: TcpStream, host: &str, path: &str) -> Result<(u16, TcpStream, bool), String> {
    write!(s, "GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept-Encoding: gzip\r\n\r\n")
        .map_err(|e| format!("closed: {e}"))?;
    let mut buf: Vec<u8> = Vec::with_capacity(32 * 1024);
    let mut chunk = [0u8; 16 * 1024];
    let head_end = loop {
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i;
        }
        let n = s.read(&mut chunk).map_err(|e| e.to_string())?;
        if n == 0 {
            return Err(if buf.is_empty() {
                "closed before the answer".into()
            } else {
                "cut in the head".into()
            });
        }
        buf.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).to_string();
    let status = head
        .lines()
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse::<u16>().ok())
        .ok_or_else(|| format!("no status line: {head}"))?;
    let header = |name: &str| {
        head.lines().skip(1).find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.trim().eq_ignore_ascii_case(name).then(|| v.trim().to_ascii_lowercase())
        })
    };
    let close = header("connection").is_some_and(|v| v == "close");
    let mut body = buf.split_off(head_end + 4);
    if let Some(len) = header("content-length").and_then(|v| v.parse::<usize>().ok()) {
        while body.len() < len {
            let n = s.read(&mut chunk).map_err(|e| e.to_string())?;
            if n == 0 {
                return Err("cut in the body".into());
            }
            body.extend_from_slice(&chunk[..n]);
        }
    } else if header("transfer-encoding").is_some_and(|v| v.contains("chunked")) {
        // Read to the last chunk (0 CRLF CRLF); the body itself is not needed.
        while !body.ends_with(b"0\r\n\r\n") {
            let n = s.read(&mut chunk).map_err(|e| e.to_string())?;
            if n == 0 {
                return Err("cut in a chunk".into());
            }
            body.extend_from_slice(&chunk[..n]);
        }
    } else {
        // No length: the body runs to the end of the connection.
        let _ = s.read_to_end(&mut body);
        return Ok((status, s, false));
    }
    Ok((status, s, !close))
}

/// The version a game page's result form carries.
pub(crate) fn form_version(body: &str) -> Option<i64> {
    body.split("name=\"version\" value=\"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .and_then(|v| v.parse().ok())
}

/// Save a count of `halves` half points for Black as game `gid`'s result through the game
/// page's form, at the form's `version`.
pub(crate) fn post_count(
    http: &Http,
    s: &Session,
    tid: i32,
    gid: i32,
    version: i64,
    halves: u64,
) -> Result<crate::stress::Response, String> {
    http.post(
        &format!("/t/{tid}/games/{gid}/result"),
        &s.cookie,
        &[
            ("csrf", &s.csrf),
            ("version", &version.to_string()),
            ("do", "save"),
            ("method", "count"),
            ("black_count", &format!("{}.5", halves / 2)),
        ],
    )
}

/// One arbiter: results of its games, one every `interval_ms`, until `stop`.
fn write_loop(
    http: &Http,
    s: &Session,
    tid: i32,
    games: &[i32],
    interval_ms: u64,
    seed: u64,
    stop: &AtomicBool,
) -> WriterLog {
    let mut log = WriterLog::default();
    let mut rng = seed.wrapping_mul(0x2545_F491_4F6C_DD1D) | 1;
    if games.is_empty() {
        return log;
    }
    let mut k = 0;
    while !stop.load(Ordering::Relaxed) {
        let gid = games[k % games.len()];
        k += 1;
        let page = match http.get(&format!("/t/{tid}/games/{gid}"), &s.cookie) {
            Ok(p) if p.status == 200 => p,
            Ok(p) => {
                note(&mut log, p.status, &p.body, "game page");
                continue;
            }
            Err(e) => {
                log.no_answer += 1;
                log.first_error.get_or_insert(format!("game page: {e}"));
                continue;
            }
        };
        let Some(version) = form_version(&page.body) else {
            log.server_errors += 1;
            log.first_error.get_or_insert(format!("no version on the page of game {gid}"));
            continue;
        };
        let halves = 2 * (150 + next(&mut rng) % 70) + 1;
        let sent = Instant::now();
        let r = post_count(http, s, tid, gid, version, halves);
        match r {
            Ok(r) if r.status == 303 => {
                log.write_latency.push(sent.elapsed().as_micros() as u64);
                log.acked.push((gid, version + 1, halves))
            }
            Ok(r) => note(&mut log, r.status, &r.body, "result"),
            Err(e) => {
                log.no_answer += 1;
                log.first_error.get_or_insert(format!("result: {e}"));
            }
        }
        let pause = Instant::now() + Duration::from_millis(interval_ms);
        while Instant::now() < pause && !stop.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(10));
        }
    }
    log
}

fn note(log: &mut WriterLog, status: u16, body: &str, what: &str) {
    if status >= 500 {
        log.server_errors += 1;
        log.first_error
            .get_or_insert(format!("{what}: HTTP {status}: {}", body.chars().take(200).collect::<String>()));
    } else {
        *log.refused.entry(status).or_insert(0) += 1;
    }
}

/// The acknowledged writes not found: a write is there if its game's sheet is at its version
/// with its count, or at a later version.
fn verify(store: &Store, acked: &[Acked]) -> Result<Vec<String>, String> {
    let sheets: BTreeMap<i64, String> = store
        .pairs(
            "SELECT CAST(game_id AS BIGINT) AS v, \
             CAST(version AS TEXT) || ' ' || CAST(coalesce(black_halves, -1) AS TEXT) AS s FROM results",
        )?
        .into_iter()
        .collect();
    let mut lost = Vec::new();
    for (gid, v, halves) in acked {
        let row: Option<(i64, i64)> = sheets.get(&i64::from(*gid)).and_then(|s| {
            let (version, h) = s.split_once(' ')?;
            Some((version.parse().ok()?, h.parse().ok()?))
        });
        let there = match row {
            Some((version, h)) => version > *v || (version == *v && h == *halves as i64),
            None => false,
        };
        if !there {
            lost.push(format!("game {gid}: version {v} with Black's count {}.5 ({row:?})", halves / 2));
        }
    }
    Ok(lost)
}
