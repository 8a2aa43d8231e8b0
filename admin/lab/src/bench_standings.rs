//! `tengen-lab bench standings`: the public pages of a big event under load, beside nginx.
//!
//! Builds a tournament in a temporary database: N demo entrants (default 1,000), R Swiss rounds
//! (default 7) paired by the real pairing engine, every result entered through the same
//! database calls as the result page (counts, resignations, time, forfeits, a few warnings), so
//! the standings are computed from stored results with every tie-break of the default order.
//! Then it starts the server in this process and, for each public page of `--pages` (the last
//! round's page, the players list, the standings, the crosstable, a player's page; default all
//! five), runs `wrk` against it (`-c` connections, `-t` threads, `-d` seconds) and the same
//! against a static file server serving the same bytes (nginx, if found), twice: as plain HTML
//! (wrk's default request) and gzipped (`Accept-Encoding: gzip`, as every phone asks; nginx then
//! serves the same gzipped bytes with `gzip_static`). Prints each page's requests/s, nginx's
//! and the ratio as it goes, and one JSON object at the end with requests/s and latency
//! percentiles of each run, the page sizes and the machine's load (`/proc/loadavg`) before and
//! after.
//!
//! The numbers mean something only for a release build: `cargo build --release -p lab`,
//! then `target/release/tengen-lab bench standings`.

use admin::db::{self, entrants, results as rdb, tournaments, users, Actor};
use admin::domain::demo::demo_entrants;
use admin::domain::draw::lots::{Lot, Stream};
use admin::domain::pairing::{swiss, ByeRecord, GameResult, History, PlayedGame, Player, Settings};
use admin::domain::results::Entry;
use admin::domain::settings::TournamentSettings;
use admin::office::save_result::{save_result as save, SaveResult};
use rules::board::Color;
use rules::rulings::{Ruling, RulingKind};
use serde_json::json;
use std::io::Write;
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Arguments of `tengen-lab bench standings`.
#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    #[arg(long, default_value_t = 1000)]
    pub players: usize,
    #[arg(long, default_value_t = 7)]
    pub rounds: u32,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// wrk connections.
    #[arg(long, short = 'c', default_value_t = 256)]
    pub connections: u32,
    /// wrk threads.
    #[arg(long, short = 't', default_value_t = 2)]
    pub threads: u32,
    /// Seconds of load per run.
    #[arg(long, short = 'd', default_value_t = 15)]
    pub duration: u32,
    /// The wrk binary.
    #[arg(long, default_value = "wrk")]
    pub wrk: String,
    /// The static file server to compare with (nginx); "none" to skip.
    #[arg(long, default_value = "nginx")]
    pub nginx: String,
    /// Keep the temporary directory (database, page, nginx files) and print its path.
    #[arg(long)]
    pub keep: bool,
    /// The public pages to load, in this order (comma-separated).
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "round,players,standings,crosstable,player"
    )]
    pub pages: Vec<Page>,
}

/// A public page of the event, as `--pages` names it.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Page {
    /// The last round's page (`/t/{id}/pairings/{n}`).
    Round,
    /// The list of entrants.
    Players,
    Standings,
    Crosstable,
    /// The page of the strongest entrant (every round played).
    Player,
}

impl Page {
    fn name(self) -> &'static str {
        match self {
            Page::Round => "round",
            Page::Players => "players",
            Page::Standings => "standings",
            Page::Crosstable => "crosstable",
            Page::Player => "player",
        }
    }

    /// The page's address in tournament `tid` of `rounds` rounds; `player` an entrant's id.
    fn path(self, tid: i32, rounds: u32, player: i32) -> String {
        match self {
            Page::Round => format!("/t/{tid}/pairings/{rounds}"),
            Page::Players => format!("/t/{tid}/players"),
            Page::Standings => format!("/t/{tid}/standings"),
            Page::Crosstable => format!("/t/{tid}/crosstable"),
            Page::Player => format!("/t/{tid}/players/{player}"),
        }
    }
}

/// One wrk run.
#[derive(Debug, Default, Clone, serde::Serialize)]
pub struct Load {
    pub requests_per_sec: f64,
    pub p50_ms: f64,
    pub p90_ms: f64,
    pub p99_ms: f64,
    pub non_2xx: u64,
    pub errors: String,
}

pub fn run(args: Args) -> i32 {
    match bench(&args) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("bench standings: {e}");
            1
        }
    }
}

fn temp_dir() -> Result<PathBuf, String> {
    let dir = std::env::temp_dir().join(format!(
        "tengen-bench-{}-{}",
        std::process::id(),
        admin::db::users::random_token()[..8].to_owned()
    ));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    Ok(dir)
}

fn bench(args: &Args) -> Result<(), String> {
    if args.players < 2 || args.rounds == 0 {
        return Err("need at least 2 players and 1 round".into());
    }
    let dir = temp_dir()?;
    let db_path = dir.join("bench.db");
    let t0 = Instant::now();
    let tid = build(&db_path, args.players, args.rounds, args.seed, false)?;
    let build_secs = t0.elapsed().as_secs_f64();
    eprintln!("built the event in {build_secs:.1} s");

    let port = free_port()?;
    let bind = format!("127.0.0.1:{port}");
    let server_db = db_path.clone();
    let server_bind = bind.clone();
    std::thread::spawn(move || {
        let r = actix_web::rt::System::new()
            .block_on(admin::web::serve(admin::web::ServeOptions::new(server_db, server_bind)));
        if let Err(e) = r {
            eprintln!("server: {e}");
        }
    });
    wait_for(port)?;
    let player = strongest(&db_path, tid)?;
    let load_before = loadavg();
    let mut pages = Vec::new();
    let mut done = Vec::new();
    for page in args.pages.iter().copied() {
        if !done.contains(&page) {
            done.push(page);
            pages.push(bench_page(args, &dir, port, page, page.path(tid, args.rounds, player))?);
        }
    }
    let load_after = loadavg();
    eprintln!("\npage          plain: tengen / nginx = ratio     gzip: tengen / nginx = ratio");
    for p in &pages {
        let cell = |i: usize| {
            let s = &p["scenarios"][i];
            format!(
                "{:>7.0} / {:>7.0} = {:>4}",
                s["tengen"]["requests_per_sec"].as_f64().unwrap_or(0.0),
                s["static_nginx"]["requests_per_sec"].as_f64().unwrap_or(0.0),
                s["throughput_ratio"].as_f64().map(|r| format!("{r:.2}")).unwrap_or_else(|| "–".into()),
            )
        };
        eprintln!("{:<12} {}   {}", p["page"].as_str().unwrap_or(""), cell(0), cell(1));
    }
    eprintln!("load average before {load_before}, after {load_after}");
    let out = json!({
        "players": args.players,
        "rounds": args.rounds,
        "games": query_games(&db_path, tid)?,
        "build_seconds": (build_secs * 10.0).round() / 10.0,
        "connections": args.connections,
        "threads": args.threads,
        "duration_s": args.duration,
        "target_p99_ms": 50,
        "loadavg_before": load_before,
        "loadavg_after": load_after,
        "pages": pages,
    });
    println!("{out}");
    if args.keep {
        eprintln!("kept {}", dir.display());
    } else {
        let _ = std::fs::remove_dir_all(&dir);
    }
    Ok(())
}

/// One page under load: its sizes, first and cached fetch, and wrk's runs on it and on nginx
/// serving the same bytes, plain and gzipped.
fn bench_page(
    args: &Args,
    dir: &Path,
    port: u16,
    page: Page,
    path: String,
) -> Result<serde_json::Value, String> {
    let name = page.name();
    let t1 = Instant::now();
    let plain = fetch(port, &path)?;
    let first_ms = t1.elapsed().as_secs_f64() * 1000.0;
    let t2 = Instant::now();
    fetch(port, &path)?;
    let cached_ms = t2.elapsed().as_secs_f64() * 1000.0;
    let gz = fetch_with(port, &path, "Accept-Encoding: gzip\r\n")?;
    eprintln!(
        "{name} page {path}: {} bytes, {} gzipped; first fetch {first_ms:.1} ms, cached {cached_ms:.2} ms",
        plain.len(),
        gz.len()
    );
    let url = format!("http://127.0.0.1:{port}{path}");
    let mut scenarios = Vec::new();
    for (encoding, header) in [("identity", None), ("gzip", Some("Accept-Encoding: gzip"))] {
        let ours = wrk(args, &url, header)?;
        let static_load = if args.nginx == "none" {
            None
        } else {
            match nginx(args, dir, name, &plain, &gz, header) {
                Ok(l) => Some(l),
                Err(e) => {
                    eprintln!("static server skipped: {e}");
                    None
                }
            }
        };
        let ratio = static_load.as_ref().map(|s| ours.requests_per_sec / s.requests_per_sec.max(1.0));
        eprintln!(
            "{name} ({encoding}): tengen {:.0} requests/s, p99 {:.2} ms; nginx {}; ratio {}",
            ours.requests_per_sec,
            ours.p99_ms,
            static_load.as_ref().map(|s| format!("{:.0} requests/s", s.requests_per_sec)).unwrap_or_default(),
            ratio.map(|r| format!("{r:.2}")).unwrap_or_default(),
        );
        scenarios.push(json!({
            "encoding": encoding,
            "page_bytes": if encoding == "gzip" { gz.len() } else { plain.len() },
            "tengen": ours,
            "static_nginx": static_load,
            "throughput_ratio": ratio.map(|r| (r * 100.0).round() / 100.0),
            "p99_ok": ours.p99_ms < 50.0,
            "ratio_ok": ratio.map(|r| r >= 0.5),
        }));
    }
    Ok(json!({
        "page": name,
        "path": path,
        "bytes": plain.len(),
        "gzip_bytes": gz.len(),
        "first_fetch_ms": (first_ms * 10.0).round() / 10.0,
        "cached_fetch_ms": (cached_ms * 100.0).round() / 100.0,
        "scenarios": scenarios,
    }))
}

/// The machine's load averages (1, 5, 15 minutes) as `/proc/loadavg` gives them.
fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

/// The strongest entrant's id (who plays every round: a full player's page).
fn strongest(db_path: &Path, tid: i32) -> Result<i32, String> {
    let pool = db::open(db_path).map_err(|e| e.to_string())?;
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    let list = entrants::list(&mut conn, tid, "", entrants::Sort::Rank).map_err(|e| e.to_string())?;
    list.first().map(|e| e.id).ok_or_else(|| "no entrant".to_string())
}

fn query_games(db_path: &Path, tid: i32) -> Result<i64, String> {
    let pool = db::open(db_path).map_err(|e| e.to_string())?;
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    tournaments::count_games(&mut conn, tid).map_err(|e| e.to_string())
}

/// (round, table, Black's index, White's index or None for a bye, the drawn result).
type BenchGame = (u32, u32, usize, Option<usize>, Option<GameResult>);

/// The event: demo entrants, Swiss rounds by the pairing engine, results through db::results;
/// with `last_open` the last round's games stay without results (for `bench load`'s writers).
pub(crate) fn build(
    db_path: &Path,
    players: usize,
    rounds: u32,
    seed: u64,
    last_open: bool,
) -> Result<i32, String> {
    let pool = db::open(db_path).map_err(|e| e.to_string())?;
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    let actor = Actor::system("bench");
    let password = users::random_token();
    let acc = users::NewAccount {
        username: "organizer",
        display_name: "bench",
        password: &password,
        role: users::Role::Organizer,
    };
    let org = users::create(&mut conn, &actor, &acc).map_err(|e| e.to_string())?.ok_or("no account")?;
    let owner = org.actor();
    let mut s = TournamentSettings::defaults(chrono::Local::now().date_naive(), admin::machine::zone());
    s.name_zh = "千人公开赛".into();
    s.name_latin = "Thousand-Player Open".into();
    s.rounds = rounds;
    let tid = tournaments::create(&mut conn, &owner, &s).map_err(|e| e.to_string())?;
    let field = demo_entrants(seed, players);

    // Pair every round with the real engine; results drawn from the rank difference.
    let players: Vec<Player> = field
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let mut p = Player::new(i as u32 + 1, e.rank.value());
            p.rating = e.rating;
            p.unit = e.unit.clone();
            p
        })
        .collect();
    let settings = Settings::default();
    let mut history = History::default();
    let mut lot = Lot::new(seed, Stream::Synthetic);
    let mut games: Vec<BenchGame> = Vec::new();
    for r in 1..=rounds {
        let t = Instant::now();
        let rp = swiss::pair_round(&players, &history, &settings, r, seed ^ u64::from(r))
            .map_err(|e| format!("round {r}: {e}"))?;
        for g in &rp.games {
            let (b, w) = (&players[g.black as usize - 1], &players[g.white as usize - 1]);
            let edge = (b.rank_value - w.rank_value).clamp(-6, 6);
            let roll = lot.below(100) as i32;
            let result = if roll < 2 {
                GameResult::BlackWinsByForfeit
            } else if roll < 4 {
                GameResult::WhiteWinsByForfeit
            } else if (lot.below(100) as i32) < 50 + 7 * edge {
                GameResult::BlackWins
            } else {
                GameResult::WhiteWins
            };
            history.games.push(PlayedGame::new(r, g.black, g.white, result));
            games.push((r, g.table, g.black as usize - 1, Some(g.white as usize - 1), Some(result)));
        }
        if let Some(b) = rp.bye {
            history.byes.push(ByeRecord { round: r, player: b });
            games.push((r, 0, b as usize - 1, None, None));
        }
        eprintln!("paired round {r} in {} ms", t.elapsed().as_millis());
    }
    // Entrants and games go in like an OpenGotha import (rounds published, results unknown);
    // the pairing branch will store its own rounds.
    let import: Vec<entrants::ImportGame> = games
        .iter()
        .map(|(r, table, b, w, _)| entrants::ImportGame {
            round: *r as i32,
            board: *table as i32,
            black: Some(*b),
            white: *w,
            handicap: 0,
            result: if w.is_some() { "RESULT_UNKNOWN".into() } else { "BYE".into() },
        })
        .collect();
    let data = entrants::ImportData {
        rows: field.iter().cloned().map(entrants::ImportRow::trusted).collect(),
        games: import,
        absences: Vec::new(),
    };
    let ids: Vec<i32> = entrants::replace_event(
        &mut conn,
        &owner,
        tid,
        None,
        None,
        &data,
        &entrants::ImportNote::new("bench"),
    )
    .map_err(|e| format!("{e:?}"))?
    .ids
    .into_iter()
    .flatten()
    .collect();

    // Every result through the result sheet's write path.
    let lines = rdb::game_lines(&mut conn, tid, None, false).map_err(|e| e.to_string())?;
    let t = Instant::now();
    let mut by_key = std::collections::HashMap::new();
    for l in &lines {
        by_key.insert((l.game.round_number, l.game.board, l.game.black_id), l.game.id);
    }
    for (n, (r, table, b, w, result)) in games.iter().enumerate() {
        if last_open && *r == rounds {
            continue;
        }
        let gid = by_key[&(*r as i32, *table as i32, Some(ids[*b]))];
        let entry = match (w, result) {
            (None, _) => Entry::Bye,
            (Some(_), Some(GameResult::BlackWinsByForfeit)) => Entry::Forfeit { winner: Color::Black },
            (Some(_), Some(GameResult::WhiteWinsByForfeit)) => Entry::Forfeit { winner: Color::White },
            (Some(_), Some(res)) => {
                let black_won = *res == GameResult::BlackWins;
                match lot.below(10) {
                    0..=5 => {
                        let margin = lot.range_inclusive(0, 30);
                        let b = if black_won { 369 + margin } else { 368 - margin };
                        Entry::Count { black_halves: b, white_halves: None }
                    }
                    6..=8 => {
                        Entry::Resignation { winner: if black_won { Color::Black } else { Color::White } }
                    }
                    _ => Entry::Time { winner: if black_won { Color::Black } else { Color::White } },
                }
            }
            (Some(_), None) => continue,
        };
        // A sheet with a ruling is at version 1.
        let ruled = w.is_some() && lot.below(50) == 0;
        if ruled {
            let side = if lot.coin() { Color::Black } else { Color::White };
            let warning = rdb::NewRuling {
                ruling: Ruling::against(RulingKind::Warning, side, lot.range_inclusive(1, 200)),
                at_time: String::new(),
                reason: "bench".into(),
                pending: false,
            };
            rdb::add_rulings(&mut conn, &owner, tid, gid, 0, &[warning], "").map_err(|e| format!("{e:?}"))?;
        }
        let entered =
            SaveResult { version: i32::from(ruled), colours_version: None, entry: Some(entry), reason: "" };
        save(&mut conn, &owner, tid, gid, &entered).map_err(|e| format!("{e:?}"))?;
        if n % 1000 == 999 {
            eprintln!("entered {} results", n + 1);
        }
    }
    eprintln!("entered {} results in {:.1} s", games.len(), t.elapsed().as_secs_f64());
    Ok(tid)
}

fn free_port() -> Result<u16, String> {
    let l = std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    Ok(l.local_addr().map_err(|e| e.to_string())?.port())
}

fn wait_for(port: u16) -> Result<(), String> {
    let deadline = Instant::now() + Duration::from_secs(30);
    while Instant::now() < deadline {
        if TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Err(format!("nothing listens on port {port}"))
}

/// GET a page with a bare HTTP/1.0 request; the body.
fn fetch(port: u16, path: &str) -> Result<Vec<u8>, String> {
    fetch_with(port, path, "")
}

/// GET with extra header lines (each ending in CRLF).
fn fetch_with(port: u16, path: &str, headers: &str) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let mut s = TcpStream::connect(("127.0.0.1", port)).map_err(|e| e.to_string())?;
    write!(s, "GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n{headers}\r\n").map_err(|e| e.to_string())?;
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).map_err(|e| e.to_string())?;
    let split = buf.windows(4).position(|w| w == b"\r\n\r\n").ok_or("no HTTP response")?;
    let head = String::from_utf8_lossy(&buf[..split]).to_string();
    if !head.starts_with("HTTP/1.1 200") && !head.starts_with("HTTP/1.0 200") {
        return Err(format!("GET {path}: {}", head.lines().next().unwrap_or("")));
    }
    Ok(buf[split + 4..].to_vec())
}

fn wrk(args: &Args, url: &str, header: Option<&str>) -> Result<Load, String> {
    let mut cmd = Command::new(&args.wrk);
    cmd.arg(format!("-t{}", args.threads))
        .arg(format!("-c{}", args.connections))
        .arg(format!("-d{}s", args.duration))
        .arg("--latency");
    if let Some(h) = header {
        cmd.arg("-H").arg(h);
    }
    let out = cmd.arg(url).output().map_err(|e| format!("{}: {e} (install wrk)", args.wrk))?;
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    eprintln!("{text}");
    parse_wrk(&text).ok_or_else(|| format!("cannot read wrk's output: {text}"))
}

fn ms(v: &str) -> Option<f64> {
    let v = v.trim();
    let (num, factor) = if let Some(n) = v.strip_suffix("us") {
        (n, 0.001)
    } else if let Some(n) = v.strip_suffix("ms") {
        (n, 1.0)
    } else if let Some(n) = v.strip_suffix('s') {
        (n, 1000.0)
    } else {
        (v, 1.0)
    };
    num.trim().parse::<f64>().ok().map(|x| (x * factor * 1000.0).round() / 1000.0)
}

/// Requests/s and the 50/90/99 % latencies of `wrk --latency`.
pub fn parse_wrk(text: &str) -> Option<Load> {
    let mut l = Load::default();
    let mut have_rps = false;
    for line in text.lines() {
        let t = line.trim();
        if let Some(v) = t.strip_prefix("Requests/sec:") {
            l.requests_per_sec = v.trim().parse().ok()?;
            have_rps = true;
        } else if let Some(v) = t.strip_prefix("50%") {
            l.p50_ms = ms(v)?;
        } else if let Some(v) = t.strip_prefix("90%") {
            l.p90_ms = ms(v)?;
        } else if let Some(v) = t.strip_prefix("99%") {
            l.p99_ms = ms(v)?;
        } else if let Some(v) = t.strip_prefix("Non-2xx or 3xx responses:") {
            l.non_2xx = v.trim().parse().unwrap_or(0);
        } else if t.starts_with("Socket errors:") {
            l.errors = t.to_string();
        }
    }
    have_rps.then_some(l)
}

/// Serve the same page with nginx (two workers, sendfile, the gzipped bytes with gzip_static)
/// and load it the same way.
fn nginx(
    args: &Args,
    dir: &Path,
    name: &str,
    page: &[u8],
    gz: &[u8],
    header: Option<&str>,
) -> Result<Load, String> {
    let www = dir.join("www");
    std::fs::create_dir_all(&www).map_err(|e| e.to_string())?;
    std::fs::write(www.join(format!("{name}.html")), page).map_err(|e| e.to_string())?;
    std::fs::write(www.join(format!("{name}.html.gz")), gz).map_err(|e| e.to_string())?;
    let port = free_port()?;
    let conf = dir.join("nginx.conf");
    std::fs::write(
        &conf,
        format!(
            "worker_processes 2;\ndaemon off;\npid {dir}/nginx.pid;\nerror_log {dir}/nginx-error.log;\n\
             events {{ worker_connections 4096; }}\n\
             http {{\n  access_log off;\n  sendfile on;\n  tcp_nopush on;\n  keepalive_requests 1000000;\n\
               types {{ text/html html; }}\n  gzip_static on;\n  client_body_temp_path {dir}/tmp;\n  proxy_temp_path {dir}/tmp;\n\
               fastcgi_temp_path {dir}/tmp;\n  uwsgi_temp_path {dir}/tmp;\n  scgi_temp_path {dir}/tmp;\n\
               server {{ listen 127.0.0.1:{port}; root {www}; }}\n}}\n",
            dir = dir.display(),
            www = www.display()
        ),
    )
    .map_err(|e| e.to_string())?;
    let mut child: Child = Command::new(&args.nginx)
        .arg("-c")
        .arg(&conf)
        .arg("-p")
        .arg(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("{}: {e}", args.nginx))?;
    let r = wait_for(port).and_then(|()| wrk(args, &format!("http://127.0.0.1:{port}/{name}.html"), header));
    stop_nginx(&mut child);
    let l = r?;
    eprintln!("nginx: {:.0} requests/s, p99 {:.2} ms", l.requests_per_sec, l.p99_ms);
    Ok(l)
}

/// Stop nginx as it expects (SIGTERM to the master, which stops its workers): a SIGKILL to the
/// master would leave the workers running.
fn stop_nginx(child: &mut Child) {
    let term = Command::new("kill").arg("-TERM").arg(child.id().to_string()).status();
    if !term.is_ok_and(|s| s.success()) {
        let _ = child.kill();
    }
    let _ = child.wait();
    // The workers leave after the master; give them a moment so the next run starts clean.
    std::thread::sleep(Duration::from_millis(300));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_wrk_output() {
        let text = "Running 10s test @ http://127.0.0.1:8080/\n  2 threads and 256 connections\n  Thread Stats   Avg      Stdev     Max   +/- Stdev\n    Latency     5.10ms    2.00ms  40.00ms   80.00%\n  Latency Distribution\n     50%    4.90ms\n     75%    6.00ms\n     90%  800.00us\n     99%    1.20s\n  100000 requests in 10.00s, 2.00GB read\nRequests/sec:  10000.50\nTransfer/sec:    200.00MB\n";
        let l = parse_wrk(text).unwrap();
        assert_eq!(l.requests_per_sec, 10000.5);
        assert_eq!(l.p50_ms, 4.9);
        assert_eq!(l.p90_ms, 0.8);
        assert_eq!(l.p99_ms, 1200.0);
        assert!(parse_wrk("nothing").is_none());
    }
}
