//! `tengen-lab bench rush`: the round-start rush of a big open.
//!
//! Builds the event of `bench standings` (N demo entrants; the last round published, its games
//! waiting for results), starts `tengen serve` on it as a process of its own (this binary's
//! `serve`, so the server's memory is its own: VmRSS from /proc), and then:
//! 1. opens `--connections` live streams (`GET /live?t=ID`, as every phone's open page does),
//!    on a tokio runtime of this process, and reads the server's memory before and after:
//!    the cost of one open stream;
//! 2. the round, put back to a draft before the server started, is published (by this
//!    process on the database, as another server's write would be) and the time until every
//!    stream has its `changed` event is the publish's fan-out; then within `--rush-seconds`,
//!    `--phones` simulated phones arrive (spread evenly) and each
//!    fetches "find my table" (the pairings page with `?q=` a player's name) and the round's
//!    pairings, on a connection of its own, asking for gzip as phones do: p50/p99, errors;
//! 3. an arbiter saves a result through the game page's form; the time from the server's
//!    answer until every open stream has had its `changed` event is the fan-out.
//!
//! Prints one JSON line; the exit code is 0 only if every goal holds (p99 ≤ 1 s, no error,
//! fan-out ≤ 2 s, ≤ 20 KB per connection, every stream told). The soft limit of open files is
//! raised to the hard one first (the server inherits it).

use crate::bench_load::{arbiters, form_version, percentile, post_count, Named};
use crate::bench_standings::build;
use crate::stress::{Http, Server};
use crate::stress_db::Store;
use admin::db::rounds;
use serde_json::json;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Arguments of `tengen-lab bench rush`.
#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    #[arg(long, default_value_t = 10_000)]
    pub players: usize,
    /// Rounds of the event; the last is published and waiting for its results.
    #[arg(long, default_value_t = 1)]
    pub rounds: u32,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Live streams kept open.
    #[arg(long, default_value_t = 10_000)]
    pub connections: usize,
    /// Phones that fetch "find my table" and the pairings.
    #[arg(long, default_value_t = 10_000)]
    pub phones: usize,
    /// The phones arrive within this many seconds.
    #[arg(long, default_value_t = 60)]
    pub rush_seconds: u64,
}

/// The goals (issue of the hall and the phones; BENCHMARKS.md).
const GOAL_P99_MS: f64 = 1000.0;
const GOAL_FANOUT_MS: f64 = 2000.0;
const GOAL_KB_PER_CONNECTION: f64 = 20.0;

pub fn run(args: Args) -> i32 {
    match bench(&args) {
        Ok(true) => 0,
        Ok(false) => 1,
        Err(e) => {
            eprintln!("bench rush: {e}");
            2
        }
    }
}

/// Raise this process's soft limit of open files to the hard limit (children inherit it).
fn raise_open_files() -> u64 {
    let mut l = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit/setrlimit read and write the struct passed, nothing else.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut l) == 0 {
            l.rlim_cur = l.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &l);
            libc::getrlimit(libc::RLIMIT_NOFILE, &mut l);
        }
    }
    l.rlim_cur
}

/// The resident memory of process `pid`, in KB.
fn rss_kb(pid: u32) -> Result<u64, String> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).map_err(|e| e.to_string())?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .ok_or_else(|| "no VmRSS".into())
}

/// What the streams have seen: how many are open, and when each had its `changed` event.
#[derive(Default)]
struct Streams {
    open: AtomicUsize,
    failed: AtomicUsize,
    told: Mutex<Vec<Instant>>,
    first_error: Mutex<Option<String>>,
}

/// One live stream: open it, count it open once its `retry:` field arrived, and note when its
/// `changed` event came; then keep it open until the runtime ends.
async fn stream(addr: String, tid: i32, seen: Arc<Streams>) {
    let fail = |e: String| {
        seen.failed.fetch_add(1, Ordering::Relaxed);
        seen.first_error.lock().unwrap_or_else(|p| p.into_inner()).get_or_insert(e);
    };
    let mut tcp = match TcpStream::connect(&addr).await {
        Ok(t) => t,
        Err(e) => return fail(format!("connect: {e}")),
    };
    let req = format!("GET /live?t={tid} HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n");
    if let Err(e) = tcp.write_all(req.as_bytes()).await {
        return fail(format!("send: {e}"));
    }
    let mut buf = [0u8; 512];
    let mut text = String::new();
    let mut counted = false;
    loop {
        match tcp.read(&mut buf).await {
            Ok(0) => return fail(format!("closed after {text:?}")),
            Ok(n) => text.push_str(&String::from_utf8_lossy(&buf[..n])),
            Err(e) => return fail(format!("read: {e}")),
        }
        if !counted && text.contains("retry:") {
            if !text.starts_with("HTTP/1.1 200") {
                return fail(text.lines().next().unwrap_or_default().to_string());
            }
            counted = true;
            seen.open.fetch_add(1, Ordering::Relaxed);
        }
        if text.contains("event: changed") {
            seen.told.lock().unwrap_or_else(|p| p.into_inner()).push(Instant::now());
            text.clear();
        }
        if text.len() > 4096 {
            text.clear();
        }
    }
}

/// One GET on a connection of its own, asking for gzip; the status, after reading the whole
/// answer (`Connection: close`).
async fn fetch(addr: &str, path: &str) -> Result<u16, String> {
    let mut tcp = TcpStream::connect(addr).await.map_err(|e| format!("connect: {e}"))?;
    let req = format!(
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nAccept-Encoding: gzip\r\nAccept-Language: zh-CN\r\nConnection: close\r\n\r\n"
    );
    tcp.write_all(req.as_bytes()).await.map_err(|e| format!("send: {e}"))?;
    let mut all = Vec::new();
    tcp.read_to_end(&mut all).await.map_err(|e| format!("read: {e}"))?;
    let head = String::from_utf8_lossy(&all[..all.len().min(32)]).to_string();
    head.split(' ').nth(1).and_then(|s| s.parse().ok()).ok_or_else(|| format!("no status line: {head:?}"))
}

/// The phones: `n` arriving evenly over `within`, each fetching its "find my table" and the
/// pairings. Latencies in µs, errors and the first of them.
fn phones(
    addr: &str,
    tid: i32,
    entrants: &[Named],
    n: usize,
    within: Duration,
) -> (Vec<u64>, u64, Option<String>) {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a tokio runtime");
    let lat = Arc::new(Mutex::new(Vec::with_capacity(2 * n)));
    let errors = Arc::new(AtomicU64::new(0));
    let first = Arc::new(Mutex::new(None::<String>));
    let local = tokio::task::LocalSet::new();
    local.block_on(&rt, async {
        let start = tokio::time::Instant::now();
        let mut tasks = Vec::with_capacity(n);
        for i in 0..n {
            let at = start + within.mul_f64(i as f64 / n.max(1) as f64);
            let (_, name) = &entrants[(i * 7919) % entrants.len()];
            let q = serde_urlencoded::to_string([("q", name.as_str())]).unwrap_or_default();
            let paths = [format!("/t/{tid}/pairings?{q}"), format!("/t/{tid}/pairings")];
            let (addr, lat, errors, first) = (addr.to_string(), lat.clone(), errors.clone(), first.clone());
            tasks.push(tokio::task::spawn_local(async move {
                tokio::time::sleep_until(at).await;
                for p in &paths {
                    let t = Instant::now();
                    let r = fetch(&addr, p).await;
                    let us = t.elapsed().as_micros() as u64;
                    match r {
                        Ok(200) => lat.lock().unwrap_or_else(|e| e.into_inner()).push(us),
                        other => {
                            errors.fetch_add(1, Ordering::Relaxed);
                            let e = format!("GET {p}: {other:?}");
                            first.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(e);
                        }
                    }
                }
            }));
        }
        for t in tasks {
            let _ = t.await;
        }
    });
    let lat = std::mem::take(&mut *lat.lock().unwrap_or_else(|e| e.into_inner()));
    let first = first.lock().unwrap_or_else(|e| e.into_inner()).take();
    (lat, errors.load(Ordering::Relaxed), first)
}

/// Wait (10 s at most) until `opened` streams have been told of a change made at `at`; the
/// time from `at` to the last of them, in ms.
fn fanout(seen: &Streams, opened: usize, at: Instant) -> f64 {
    let deadline = Instant::now() + Duration::from_secs(10);
    let told = || seen.told.lock().unwrap_or_else(|e| e.into_inner()).len();
    while told() < opened && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
    let arrivals = seen.told.lock().unwrap_or_else(|e| e.into_inner());
    let last = arrivals.iter().map(|t| t.saturating_duration_since(at)).max().unwrap_or_default();
    (last.as_secs_f64() * 1e4).round() / 10.0
}

fn bench(args: &Args) -> Result<bool, String> {
    if args.players < 4 || args.rounds == 0 || args.connections == 0 {
        return Err("need at least 4 players, 1 round and 1 connection".into());
    }
    let nofile = raise_open_files();
    if nofile < args.connections as u64 + 512 {
        return Err(format!("open files limited to {nofile}: too few for {} connections", args.connections));
    }
    let dir = tempfile::Builder::new().prefix("tengen-rush-").tempdir().map_err(|e| e.to_string())?;
    let store = Store::new(false, None, dir.path(), "rush")?;
    let db_path = store.address();
    let t0 = Instant::now();
    let tid = build(&db_path, args.players, args.rounds, args.seed, true)?;
    let password = admin::db::users::random_token();
    let (entrants, games) = arbiters(&store, tid, 1, &password)?;
    eprintln!("built the event in {:.1} s: {} entrants", t0.elapsed().as_secs_f64(), entrants.len());

    // The round goes back to a draft: it is published during the run, with the streams open.
    let pool = admin::db::open(&db_path).map_err(|e| e.to_string())?;
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    let actor = admin::db::Actor::system("bench");
    let n = args.rounds as i32;
    let version =
        |conn: &mut admin::db::Conn| rounds::get(conn, tid, n).map(|r| r.version).map_err(|e| e.to_string());
    let v = version(&mut conn)?;
    rounds::unpublish(&mut conn, &actor, tid, n, v, "bench").map_err(|e| format!("{e:?}"))?;

    let server = Server::start(&db_path, &dir.path().join("server.log"))?;
    let addr = server.addr.clone();
    let http = Http { addr: addr.clone() };
    let r = http.get(&format!("/t/{tid}/pairings"), "")?;
    if r.status != 200 {
        return Err(format!("GET /t/{tid}/pairings: HTTP {}", r.status));
    }
    std::thread::sleep(Duration::from_millis(500));
    let rss_before = rss_kb(server.pid())?;

    // 1. The streams, on a runtime of their own thread, kept open until the end.
    let seen = Arc::new(Streams::default());
    let (stop_tx, stop_rx) = std::sync::mpsc::channel::<()>();
    let streams = {
        let (seen, addr, n) = (seen.clone(), addr.clone(), args.connections);
        std::thread::spawn(move || {
            let rt =
                tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a tokio runtime");
            let local = tokio::task::LocalSet::new();
            local.block_on(&rt, async move {
                // In batches, so the server's accept queue is never overrun.
                for chunk in (0..n).collect::<Vec<_>>().chunks(250) {
                    let target = seen.open.load(Ordering::Relaxed) + chunk.len();
                    for _ in chunk {
                        tokio::task::spawn_local(stream(addr.clone(), tid, seen.clone()));
                    }
                    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
                    while seen.open.load(Ordering::Relaxed) + seen.failed.load(Ordering::Relaxed) < target
                        && tokio::time::Instant::now() < deadline
                    {
                        tokio::time::sleep(Duration::from_millis(10)).await;
                    }
                }
                // Keep reading until told to stop.
                while stop_rx.try_recv().is_err() {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            });
        })
    };
    let deadline = Instant::now() + Duration::from_secs(120);
    while seen.open.load(Ordering::Relaxed) + seen.failed.load(Ordering::Relaxed) < args.connections
        && Instant::now() < deadline
    {
        std::thread::sleep(Duration::from_millis(50));
    }
    let opened = seen.open.load(Ordering::Relaxed);
    std::thread::sleep(Duration::from_millis(500));
    let rss_open = rss_kb(server.pid())?;
    let per_connection_kb = (rss_open.saturating_sub(rss_before)) as f64 / opened.max(1) as f64;
    eprintln!("{opened} streams open; server RSS {rss_before} → {rss_open} KB");

    // 2. The round published (by another process on the database, as a second server's or
    //    the command line's write would be): every stream told; then the rush.
    let v = version(&mut conn)?;
    rounds::publish(&mut conn, &actor, tid, n, v, true, "bench").map_err(|e| format!("{e:?}"))?;
    let published = Instant::now();
    let publish_fanout_ms = fanout(&seen, opened, published);
    seen.told.lock().unwrap_or_else(|e| e.into_inner()).clear();
    let rush_start = Instant::now();
    let (mut lat, phone_errors, phone_error) =
        phones(&addr, tid, &entrants, args.phones, Duration::from_secs(args.rush_seconds));
    let rush_secs = rush_start.elapsed().as_secs_f64();
    lat.sort_unstable();

    // 3. A result saved; every stream told.
    let session = crate::stress::login(&http, "arbiter0", &password)?;
    let gid = games[0];
    let page = http.get(&format!("/t/{tid}/games/{gid}"), &session.cookie)?;
    let version = form_version(&page.body).ok_or("no version on the game page")?;
    let r = post_count(&http, &session, tid, gid, version, 369)?;
    let saved = Instant::now();
    if r.status != 303 {
        return Err(format!("the result was not saved: HTTP {}", r.status));
    }
    let fanout_ms = fanout(&seen, opened, saved);
    let arrivals = seen.told.lock().unwrap_or_else(|e| e.into_inner()).clone();
    let rss_after = rss_kb(server.pid())?;
    let _ = stop_tx.send(());
    let _ = streams.join();
    drop(server);

    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let p99 = percentile(&lat, 0.99);
    let stream_errors = seen.failed.load(Ordering::Relaxed);
    let ok = p99 <= GOAL_P99_MS
        && phone_errors == 0
        && stream_errors == 0
        && arrivals.len() == opened
        && opened == args.connections
        && fanout_ms <= GOAL_FANOUT_MS
        && publish_fanout_ms <= GOAL_FANOUT_MS
        && per_connection_kb <= GOAL_KB_PER_CONNECTION;
    let first_stream_error = seen.first_error.lock().unwrap_or_else(|e| e.into_inner()).take();
    println!(
        "{}",
        json!({
            "command": "bench rush",
            "ok": ok,
            "players": args.players,
            "connections": args.connections,
            "connections_open": opened,
            "stream_errors": stream_errors,
            "phones": args.phones,
            "rush_seconds": (rush_secs * 10.0).round() / 10.0,
            "fetches": lat.len() as u64 + phone_errors,
            "p50_ms": percentile(&lat, 0.5),
            "p99_ms": p99,
            "max_ms": percentile(&lat, 1.0),
            "errors": phone_errors,
            "rss_kb_before": rss_before,
            "rss_kb_open": rss_open,
            "rss_kb_after": rss_after,
            "kb_per_connection": (per_connection_kb * 100.0).round() / 100.0,
            "told": arrivals.len(),
            "fanout_ms": fanout_ms,
            "publish_fanout_ms": publish_fanout_ms,
            "open_files": nofile,
            "loadavg": load.split_whitespace().take(3).collect::<Vec<_>>().join(" "),
            "first_errors": [phone_error, first_stream_error],
        })
    );
    Ok(ok)
}
