//! `tengen-lab bench pair`: times the pairing of one round, on a synthetic event or on the next
//! round of an OpenGotha file.
//!
//! **Synthetic event** (the default): N players with an amateur rank spread (mostly kyu,
//! centred near 5k, a tail of dan players), about one unit per ten players, half of them
//! rated. R rounds are played before the timed one: round 1 by the Chinese procedure, later
//! rounds by a fast greedy score-order pairer (so building the history stays cheap), with
//! results drawn from the rank difference (the stronger player wins more often the bigger
//! the gap). Then the next round is paired by the real engine and timed.
//!
//! **`--simulate ROUNDS`**: every round of the synthetic event paired by the engine itself,
//! the whole event's colour figures printed ([`crate::bench_simulate`]). With `--from FILE`
//! too, the field is the file's entrants (its first `--players`), its games left out.
//!
//! **`--forfeits PER_MILLE`**: the synthetic history has that many games per thousand won
//! by forfeit (and a fifth as many double forfeits), as real OpenGotha files with absent
//! players do, so the two colour counts differ (OpenGotha's counts forfeits, Tengen's balance
//! does not).
//!
//! **`--opengotha`**: the same round is paired again by OpenGotha 3.51's criteria as
//! [`crate::bench_opengotha`] restates them, and measured the same way
//! (`opengotha_criteria`); with `--simulate`, each pairer plays out an event of its own.
//!
//! **`--from FILE`** (an OpenGotha XML, gzipped or not): the file is imported into a
//! temporary database through the import page's own calls (`office::imports::from_opengotha`,
//! `db::entrants::create_event`), with the event's settings as the import reads them and the
//! system and colour method of the command line; then the next round is paired twice: by the
//! engine alone on the loaded inputs (`milliseconds`), and by `office::pair_round`, what the
//! "pair round" request runs (`request_milliseconds`: read, pair, write the draft).
//!
//! Prints one JSON object: `milliseconds` (the engine only), `peak_memory_kb` (VmHWM of the
//! process), the matching solver's work (`solver`: dual-check rounds, edges, edges the check
//! added, pairs it scanned), `rematches`, `score_gap_sum` (Σ |score difference| over the
//! games, half points; McMahon scores for McMahon), `pairs_with_score_gap`,
//! `colour_imbalance` (players of the round whose |Blacks − Whites| over games played on the
//! board would be ≥ 2 after it: Tengen's count, rules.md §4.3), `opengotha_unbalanced`
//! (players more than one colour off by OpenGotha's count, [`opengotha_unbalanced`]),
//! `max_colour_imbalance`, `three_in_a_row` (players given the same colour a third time
//! running), `torn` (players whose due colour is the colour of their last two games: each of
//! them adds to `colour_imbalance` or to `three_in_a_row`, whatever the pairing),
//! `needless_third` (players given a colour a third time running who were not torn) and
//! `forced` (how many of `colour_imbalance` the pairing's score groups force,
//! [`crate::bench_simulate`]).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use admin::domain::draw::lots::{Lot, Stream};
use admin::domain::pairing::{
    mcmahon, meetings, ordered, records, swiss, ByeRecord, GameResult, History, PlayedGame, Player, PlayerId,
    Settings,
};
use admin::domain::rounds as dr;
use admin::domain::settings::{self as ds, TournamentSettings};
use admin::office::pair_round::{pair_round, PairRound};
use admin::office::save_result::{save_result, SaveResult};

pub use crate::bench_common::{opengotha_unbalanced, synthetic_players, Colours, OgCountGame, System};
pub(crate) use crate::bench_common::{pair, quality, read_event, stronger_wins_percent, Engine, NewGame};

/// Arguments of `tengen-lab bench pair`.
#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// The system (default Swiss; with --from, the file's own system).
    #[arg(long, value_enum)]
    pub system: Option<System>,
    /// Players of the synthetic field (default 1,000); with --from and --simulate, the
    /// file's first N entrants (default all).
    #[arg(long)]
    pub players: Option<usize>,
    #[arg(long = "rounds-played", default_value_t = 4)]
    pub rounds_played: u32,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// How colours are decided.
    #[arg(long, value_enum, default_value = "balanced")]
    pub colours: Colours,
    /// Pair the next round of this OpenGotha XML file (`.xml` or `.xml.gz`) instead of a
    /// synthetic event.
    #[arg(long)]
    pub from: Option<PathBuf>,
    /// With --from: arbiters of another tournament in the same database who save results
    /// while the round is paired (each write's wait is reported).
    #[arg(long, default_value_t = 2)]
    pub writers: usize,
    /// The plain maximum-weight solver with its greedy start instead of the perfect-matching
    /// mode (the engine's earlier solver), to compare; with --from, for the engine run only.
    #[arg(long = "plain-solver")]
    pub plain_solver: bool,
    /// Pause of each writer between two results, milliseconds.
    #[arg(long = "write-interval-ms", default_value_t = 50)]
    pub write_interval_ms: u64,
    /// Pair every round 1..ROUNDS of the synthetic event with the engine itself and print the
    /// whole event's colour figures, for Swiss and McMahon (or --system's alone);
    /// --rounds-played is then ignored (`bench_simulate`).
    #[arg(long, value_name = "ROUNDS")]
    pub simulate: Option<u32>,
    /// Synthetic history: games per thousand won by forfeit (one side absent, by lot), and a
    /// fifth as many double forfeits, as in real OpenGotha files (the 10,000-player one has 9
    /// and 1.7 per thousand). Their colours stand on the lists but were not played.
    #[arg(long, value_name = "PER_MILLE", default_value_t = 0)]
    pub forfeits: u64,
    /// Also pair the round by OpenGotha 3.51's criteria, restated ([`crate::bench_opengotha`]),
    /// and print its figures beside Tengen's (`opengotha_criteria`).
    #[arg(long)]
    pub opengotha: bool,
}

/// Runs the benchmark; returns the process exit code.
pub fn run(args: Args) -> i32 {
    if let (Some(path), Some(rounds)) = (&args.from, args.simulate) {
        return simulated_file(path, &args, rounds);
    }
    if let Some(path) = &args.from {
        return match from_file(path, &args) {
            Ok(out) => {
                println!("{out}");
                0
            }
            Err(e) => {
                eprintln!("bench pair: {e}");
                1
            }
        };
    }
    let n = args.players.unwrap_or(1000);
    if n < 2 {
        eprintln!("--players must be at least 2");
        return 2;
    }
    let mut settings = Settings { colours: args.colours.engine(), ..Settings::default() };
    settings.tuning.perfect = !args.plain_solver;
    if let Some(rounds) = args.simulate {
        return simulated(&args, n, rounds, &settings);
    }
    let system = args.system.unwrap_or(System::Swiss);
    let players = synthetic_players(n, args.seed);
    let history =
        synthetic_history_with(&players, &settings, args.rounds_played, args.seed, system, args.forfeits);
    let round = args.rounds_played + 1;
    let start = Instant::now();
    let result = pair(system, &players, &history, &settings, round, args.seed);
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    let rp = match result {
        Ok(rp) => rp,
        Err(e) => {
            eprintln!("pairing failed: {e}");
            return 1;
        }
    };
    let engine = Engine { players: &players, history: &history, settings: &settings, round, seed: args.seed };
    let games: Vec<NewGame> = rp.games.iter().map(|g| NewGame::even(g.black, g.white, g.handicap)).collect();
    let q = quality(&engine, system.event_system(), &games);
    let earlier =
        || history.games.iter().map(|g| OgCountGame { black: g.black, white: g.white, counts: true });
    let og = opengotha_unbalanced(earlier().chain(games.iter().map(NewGame::og)));
    let opengotha = args.opengotha.then(|| opengotha_figures(&engine, system, earlier()));
    let out = serde_json::json!({
        "system": format!("{:?}", system).to_lowercase(),
        "colours": format!("{:?}", args.colours).to_lowercase(),
        "players": n,
        "rounds_played": args.rounds_played,
        "seed": args.seed,
        "milliseconds": (ms * 10.0).round() / 10.0,
        "peak_memory_kb": peak_memory_kb(),
        "solver": solver_stats(&engine, system.event_system()),
        "games": rp.games.len(),
        "bye": rp.bye,
        "rematches": q.rematches,
        "score_gap_sum": q.score_gap_sum,
        "pairs_with_score_gap": q.gapped_pairs,
        "colour_imbalance": q.colour_imbalance,
        "opengotha_unbalanced": og,
        "max_colour_imbalance": q.max_colour_imbalance,
        "three_in_a_row": q.three_in_a_row,
        "torn": q.torn,
        "needless_third": q.needless_third,
        "forced": crate::bench_simulate::forced(&engine, system, &games),
        "opengotha_criteria": opengotha,
    });
    println!("{out}");
    0
}

/// `--opengotha`: the same round paired by OpenGotha's criteria ([`crate::bench_opengotha`])
/// and measured as Tengen's pairing is; `earlier` are the earlier games for OpenGotha's count.
fn opengotha_figures(
    e: &Engine<'_>,
    system: System,
    earlier: impl Iterator<Item = OgCountGame>,
) -> serde_json::Value {
    let t = Instant::now();
    let games = match crate::bench_opengotha::pair(e, system) {
        Ok(g) => g,
        Err(err) => return serde_json::json!({ "error": err }),
    };
    let ms = t.elapsed().as_secs_f64() * 1000.0;
    let q = quality(e, system.event_system(), &games);
    serde_json::json!({
        "milliseconds": (ms * 10.0).round() / 10.0,
        "games": games.len(),
        "rematches": q.rematches,
        "score_gap_sum": q.score_gap_sum,
        "pairs_with_score_gap": q.gapped_pairs,
        "colour_imbalance": q.colour_imbalance,
        "opengotha_unbalanced": opengotha_unbalanced(earlier.chain(games.iter().map(NewGame::og))),
        "max_colour_imbalance": q.max_colour_imbalance,
        "three_in_a_row": q.three_in_a_row,
        "forced": crate::bench_simulate::forced(e, system, &games),
    })
}

/// `--simulate ROUNDS`: one JSON object, the event's figures for each system.
fn simulated(args: &Args, n: usize, rounds: u32, settings: &Settings) -> i32 {
    let systems = args.system.map_or(vec![System::Swiss, System::Mcmahon], |s| vec![s]);
    let mut out = Vec::new();
    for system in systems {
        for pairer in pairers(args) {
            match crate::bench_simulate::simulate(n, rounds, args.seed, system, settings, pairer) {
                Ok(f) => out.push(f),
                Err(e) => {
                    eprintln!("pairing failed: {e}");
                    return 1;
                }
            }
        }
    }
    let colours = format!("{:?}", args.colours).to_lowercase();
    println!("{}", serde_json::json!({ "simulate": rounds, "colours": colours, "events": out }));
    0
}

/// Who pairs a simulated event: Tengen's engine, and with `--opengotha` OpenGotha's criteria
/// too, each on an event of its own from the same field and seed.
fn pairers(args: &Args) -> Vec<crate::bench_simulate::Pairer> {
    use crate::bench_simulate::Pairer;
    if args.opengotha {
        vec![Pairer::Tengen, Pairer::OpenGothaCriteria]
    } else {
        vec![Pairer::Tengen]
    }
}

/// `--from FILE --simulate ROUNDS`: the file's entrants (the first `--players`, if given)
/// paired from round 1 by the engine; one JSON object as for the synthetic field.
fn simulated_file(path: &Path, args: &Args, rounds: u32) -> i32 {
    let run = || -> Result<serde_json::Value, String> {
        let (players, mut settings, system) =
            crate::bench_simulate::file_field(path, args.players, args.system, args.colours, rounds)?;
        settings.tuning.perfect = !args.plain_solver;
        let events = pairers(args)
            .into_iter()
            .map(|pairer| {
                crate::bench_simulate::simulate_field(&players, rounds, args.seed, system, &settings, pairer)
            })
            .collect::<Result<Vec<_>, _>>()?;
        let colours = format!("{:?}", args.colours).to_lowercase();
        Ok(serde_json::json!({ "simulate": rounds, "from": path, "colours": colours, "events": events }))
    };
    match run() {
        Ok(out) => {
            println!("{out}");
            0
        }
        Err(e) => {
            eprintln!("bench pair: {e}");
            1
        }
    }
}

/// The matching solver's work on this round (a second, untimed solve of the same problem).
fn solver_stats(e: &Engine<'_>, system: ds::System) -> Option<serde_json::Value> {
    if e.round == 1 && system == ds::System::Swiss {
        return None;
    }
    let score = dr::score_of(system, e.settings);
    let (field, _) = swiss::build_field(e.players, e.history, e.settings, e.round, e.seed, &score).ok()?;
    let s = matching::solve(&field, e.settings.tuning).1;
    let w = s.work;
    Some(serde_json::json!({
        "dense": s.dense,
        "rounds": s.rounds,
        "edges": s.edges,
        "added_edges": s.added_edges,
        "scanned": s.scanned,
        "work": { "free_at_start": w.free_at_start, "stages": w.stages, "dual_steps": w.dual_steps },
    }))
}

/// `--from FILE` (module docs).
fn from_file(path: &Path, args: &Args) -> Result<serde_json::Value, String> {
    use admin::db::{self, entrants, rounds, Actor};
    let (og, mut settings) = read_event(path, args.system, args.colours)?;
    let played = og.games.iter().map(|g| g.round).chain(og.byes.iter().map(|b| b.round)).max().unwrap_or(0);
    let n = played + 1;
    settings.rounds = settings.rounds.max(n);

    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let pool = db::open(&dir.path().join("bench.db")).map_err(|e| e.to_string())?;
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    let actor = Actor::system("bench");
    let t = Instant::now();
    let data = admin::office::imports::from_opengotha(&og);
    let (tid, imported) =
        entrants::create_event(&mut conn, &actor, &settings, &data, &entrants::ImportNote::new("bench"))
            .map_err(|e| e.to_string())?;
    let import_s = t.elapsed().as_secs_f64();
    eprintln!("imported {} players, {} games in {import_s:.1} s", og.players.len(), og.games.len());

    let round = i32::try_from(n).map_err(|e| e.to_string())?;
    let t = Instant::now();
    let mut ctx = rounds::context(&mut conn, tid, round).map_err(|e| e.to_string())?;
    ctx.psettings.tuning.perfect = !args.plain_solver;
    let load_ms = t.elapsed().as_secs_f64() * 1000.0;
    let input = dr::RoundInput {
        system: ctx.system(),
        settings: &ctx.psettings,
        players: &ctx.players,
        history: &ctx.history,
        round: n,
        seed: args.seed,
        previous_plan: None,
        declared_rounds: settings.rounds,
        komi_q: ctx.komi_q(),
    };
    let t = Instant::now();
    let draft = dr::plan_round(&input).map_err(|e| e.to_string())?;
    let engine_ms = t.elapsed().as_secs_f64() * 1000.0;
    eprintln!("engine: {engine_ms:.0} ms");
    let other = other_event(&mut conn, args.seed)?;
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let writers: Vec<_> = (0..args.writers)
        .map(|w| {
            let (pool, stop, games) = (pool.clone(), stop.clone(), other.games.clone());
            let interval = std::time::Duration::from_millis(args.write_interval_ms);
            let (tid, of) = (other.tid, args.writers);
            std::thread::spawn(move || write_results(&pool, tid, &games, w, of, interval, &stop))
        })
        .collect();
    let t = Instant::now();
    let paired = pair_round(
        &mut conn,
        &actor,
        tid,
        &PairRound { round, seed: args.seed, expected_version: None, confirm: true, reason: "bench" },
    );
    let request_ms = t.elapsed().as_secs_f64() * 1000.0;
    stop.store(true, std::sync::atomic::Ordering::Release);
    let mut waits = Vec::new();
    let mut failures = Vec::new();
    for w in writers {
        let (ok, failed) = w.join().map_err(|_| "a writer panicked".to_string())?;
        waits.extend(ok);
        failures.extend(failed);
    }
    paired.map_err(|e| format!("{e:?}"))?;
    waits.sort_by(f64::total_cmp);
    let at =
        |q: f64| waits.get(((waits.len() as f64 * q) as usize).min(waits.len().saturating_sub(1))).copied();
    let round_ms = |x: Option<f64>| x.map(|x| (x * 10.0).round() / 10.0);
    let writes = serde_json::json!({
        "writers": args.writers,
        "interval_ms": args.write_interval_ms,
        "acknowledged": waits.len(),
        "failed": failures.len(),
        "failures": failures.iter().take(3).collect::<Vec<_>>(),
        "p50_ms": round_ms(at(0.5)),
        "p99_ms": round_ms(at(0.99)),
        "max_ms": round_ms(waits.last().copied()),
    });

    let engine = Engine {
        players: &ctx.players,
        history: &ctx.history,
        settings: &ctx.psettings,
        round: n,
        seed: args.seed,
    };
    let games: Vec<NewGame> = draft
        .games
        .iter()
        .map(|g| NewGame { black: g.black, white: g.white, handicap: g.handicap, known: g.colours_known() })
        .collect();
    let q = quality(&engine, ctx.system(), &games);
    let index = og.index();
    let key_id =
        |k: &str| index.get(k).and_then(|&i| imported.ids.get(i).copied().flatten()).map(rounds::pid);
    let earlier = || {
        og.games.iter().filter_map(|g| {
            Some(OgCountGame {
                black: key_id(&g.black_key)?,
                white: key_id(&g.white_key)?,
                counts: g.handicap == 0 && g.known_color,
            })
        })
    };
    let og_count = opengotha_unbalanced(earlier().chain(games.iter().map(NewGame::og)));
    let bench_system = System::of_event(ctx.system());
    let forced = bench_system.map(|s| crate::bench_simulate::forced(&engine, s, &games));
    let opengotha = bench_system.filter(|_| args.opengotha).map(|s| opengotha_figures(&engine, s, earlier()));
    Ok(serde_json::json!({
        "from": path.display().to_string(),
        "system": ctx.system().code(),
        "colours": format!("{:?}", args.colours).to_lowercase(),
        "players": ctx.players.iter().filter(|p| p.status == admin::domain::pairing::Status::Active).count(),
        "rounds_played": played,
        "seed": args.seed,
        "milliseconds": (engine_ms * 10.0).round() / 10.0,
        "request_milliseconds": (request_ms * 10.0).round() / 10.0,
        "load_milliseconds": (load_ms * 10.0).round() / 10.0,
        "import_seconds": (import_s * 10.0).round() / 10.0,
        "other_tournament_writes": writes,
        "peak_memory_kb": peak_memory_kb(),
        "solver": solver_stats(&engine, ctx.system()),
        "games": draft.games.len(),
        "byes": draft.byes.len(),
        "rematches": q.rematches,
        "score_gap_sum": q.score_gap_sum,
        "pairs_with_score_gap": q.gapped_pairs,
        "colour_imbalance": q.colour_imbalance,
        "opengotha_unbalanced": og_count,
        "max_colour_imbalance": q.max_colour_imbalance,
        "three_in_a_row": q.three_in_a_row,
        "torn": q.torn,
        "needless_third": q.needless_third,
        "forced": forced,
        "opengotha_criteria": opengotha,
    }))
}

/// The other tournament of `--from`'s writers: 40 demo entrants, round 1 paired and
/// published, its games open for results.
struct OtherEvent {
    tid: i32,
    games: Vec<i32>,
}

fn other_event(conn: &mut admin::db::Conn, seed: u64) -> Result<OtherEvent, String> {
    use admin::db::{entrants, rounds, tournaments, Actor};
    let actor = Actor::system("bench");
    let mut s = TournamentSettings::defaults(chrono::Local::now().date_naive(), admin::machine::zone());
    s.name_zh = "同场另一赛事".into();
    s.rounds = 3;
    // Colours by the pairing: a game is open for a result at once (no nigiri to record).
    s.colour_method = ds::ColourMethod::Balanced;
    let tid = tournaments::create(conn, &actor, &s).map_err(|e| e.to_string())?;
    let rows =
        admin::domain::demo::demo_entrants(seed, 40).into_iter().map(entrants::ImportRow::trusted).collect();
    entrants::add_entrants(conn, &actor, tid, rows, &entrants::ImportNote::new("bench"))
        .map_err(|e| e.to_string())?;
    let r = pair_round(
        conn,
        &actor,
        tid,
        &PairRound { round: 1, seed, expected_version: None, confirm: true, reason: "" },
    )
    .map_err(|e| format!("{e:?}"))?;
    rounds::publish(conn, &actor, tid, 1, r.version, true, "").map_err(|e| format!("{e:?}"))?;
    let games = rounds::games_of(conn, tid, 1)
        .map_err(|e| e.to_string())?
        .iter()
        .filter(|g| !g.is_bye())
        .map(|g| g.id)
        .collect();
    Ok(OtherEvent { tid, games })
}

/// One arbiter of the other tournament: saves results of its share of the games (every
/// `of`-th from `index`), alternating the winner, one every `interval`, until `stop`.
/// Returns each acknowledged write's duration (ms) and the failures' messages.
fn write_results(
    pool: &admin::db::DbPool,
    tid: i32,
    games: &[i32],
    index: usize,
    of: usize,
    interval: std::time::Duration,
    stop: &std::sync::atomic::AtomicBool,
) -> (Vec<f64>, Vec<String>) {
    use admin::domain::results::Entry;
    use rules::board::Color;
    let mine: Vec<i32> = games.iter().copied().skip(index).step_by(of.max(1)).collect();
    let (mut waits, mut failures) = (Vec::new(), Vec::new());
    let Ok(mut conn) = pool.get() else { return (waits, vec!["no connection".into()]) };
    let actor = admin::db::Actor::system("arbiter");
    let mut versions: HashMap<i32, i32> = HashMap::new();
    let mut k = 0usize;
    while !stop.load(std::sync::atomic::Ordering::Acquire) && !mine.is_empty() {
        let gid = mine[k % mine.len()];
        let winner = if (k / mine.len()).is_multiple_of(2) { Color::Black } else { Color::White };
        let version = *versions.get(&gid).unwrap_or(&0);
        let t = Instant::now();
        let entry = Some(Entry::Resignation { winner });
        let save = SaveResult { version, colours_version: None, entry, reason: "" };
        let saved = save_result(&mut conn, &actor, tid, gid, &save);
        match saved {
            Ok(v) => {
                waits.push(t.elapsed().as_secs_f64() * 1000.0);
                versions.insert(gid, v);
            }
            Err(e) => failures.push(format!("{e:?}")),
        }
        k += 1;
        std::thread::sleep(interval);
    }
    (waits, failures)
}

/// Peak resident memory (VmHWM) of this process in KiB, from /proc/self/status.
fn peak_memory_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// R rounds of synthetic history (module docs), every game played on the board.
pub fn synthetic_history(
    players: &[Player],
    settings: &Settings,
    rounds: u32,
    seed: u64,
    system: System,
) -> History {
    synthetic_history_with(players, settings, rounds, seed, system, 0)
}

/// R rounds of synthetic history with `forfeits` games per thousand won by forfeit (the
/// absent side by lot) and a fifth as many double forfeits (`--forfeits`). Their own lot
/// decides them, so the other games' results are those of the plain history as far as the
/// pairings allow; later rounds are paired on the scores the forfeits gave.
pub fn synthetic_history_with(
    players: &[Player],
    settings: &Settings,
    rounds: u32,
    seed: u64,
    system: System,
    forfeits: u64,
) -> History {
    let mut h = History::default();
    let mut lot = Lot::new(seed ^ 0x5eed, Stream::Synthetic);
    let mut absent = Lot::new(seed ^ 0xf0f1, Stream::Synthetic);
    let rank: HashMap<PlayerId, i32> = players.iter().map(|p| (p.id, p.rank_value)).collect();
    for r in 1..=rounds {
        let pairs: Vec<(PlayerId, PlayerId)>;
        let bye: Option<PlayerId>;
        if r == 1 && system == System::Swiss {
            let rp = swiss::round_one(players, settings, seed).expect("round 1");
            pairs = rp.games.iter().map(|g| (g.black, g.white)).collect();
            bye = rp.bye;
        } else {
            (pairs, bye) = greedy_round(players, &h, settings, r, system);
        }
        if let Some(b) = bye {
            h.byes.push(ByeRecord { round: r, player: b });
        }
        for (b, w) in pairs {
            let gap = rank[&b] - rank[&w];
            let stronger_black = gap >= 0;
            let stronger_wins = lot.below(100) < stronger_wins_percent(gap);
            let mut result =
                if stronger_black == stronger_wins { GameResult::BlackWins } else { GameResult::WhiteWins };
            let x = absent.below(5000);
            if x < forfeits {
                result = GameResult::DoubleForfeit;
            } else if x < 6 * forfeits {
                result = if absent.coin() {
                    GameResult::BlackWinsByForfeit
                } else {
                    GameResult::WhiteWinsByForfeit
                };
            }
            h.games.push(PlayedGame::new(r, b, w, result));
        }
    }
    h
}

/// A cheap pairer for building history: score order, each player takes the next one not
/// yet met; colours to the one with fewer Blacks.
fn greedy_round(
    players: &[Player],
    h: &History,
    settings: &Settings,
    round: u32,
    system: System,
) -> (Vec<(PlayerId, PlayerId)>, Option<PlayerId>) {
    let (recs, _) = records(players, h, settings, round, 0).expect("records");
    let met = meetings(h, settings, round);
    let score = |p: &Player| {
        let base = if system == System::Mcmahon {
            mcmahon::initial_score(p, &settings.mcmahon, settings.points.win)
        } else {
            0
        };
        base + recs[&p.id].pairing_points
    };
    let mut order: Vec<&Player> = players.iter().collect();
    order.sort_by_key(|p| (-score(p), -p.rank_value, p.id));
    let mut bye = None;
    if order.len() % 2 == 1 {
        let pos = order.iter().rposition(|p| recs[&p.id].byes == 0).unwrap_or(order.len() - 1);
        bye = Some(order.remove(pos).id);
    }
    let mut used = vec![false; order.len()];
    let mut pairs = Vec::new();
    for i in 0..order.len() {
        if used[i] {
            continue;
        }
        used[i] = true;
        let a = order[i].id;
        let j = (i + 1..order.len())
            .find(|&j| !used[j] && !met.contains_key(&ordered(a, order[j].id)))
            .or_else(|| (i + 1..order.len()).find(|&j| !used[j]));
        let Some(j) = j else { break };
        used[j] = true;
        let b = order[j].id;
        let a_black = recs[&a].colour_balance <= recs[&b].colour_balance;
        pairs.push(if a_black { (a, b) } else { (b, a) });
    }
    (pairs, bye)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench_common::torn;
    use admin::domain::pairing::{Colour, ColourMethod};

    #[test]
    fn a_torn_player_is_due_the_colour_of_their_last_two_games() {
        use Colour::{Black as B, White as W};
        assert!(torn(1, &[B, B, B, W, W]));
        assert!(!torn(1, &[B, W, B, W, B]));
        assert!(torn(-2, &[W, W, W, W, B, B]));
        assert!(!torn(0, &[B, W, W, B]));
        assert!(!torn(3, &[B, B, B, W, W, B, B, W, W]), "no colour keeps them within one");
    }

    fn args() -> Args {
        Args {
            system: None,
            players: None,
            rounds_played: 4,
            seed: 1,
            colours: Colours::Balanced,
            from: None,
            writers: 2,
            write_interval_ms: 5,
            plain_solver: false,
            simulate: None,
            forfeits: 0,
            opengotha: false,
        }
    }

    #[test]
    fn small_benchmark_runs_both_systems() {
        for system in [System::Swiss, System::Mcmahon] {
            for colours in [Colours::Balanced, Colours::Lots, Colours::Nigiri] {
                let args = Args {
                    system: Some(system),
                    players: Some(41),
                    rounds_played: 3,
                    seed: 5,
                    colours,
                    ..args()
                };
                assert_eq!(run(args), 0);
            }
        }
        let simulated = Args { players: Some(30), simulate: Some(3), ..args() };
        assert_eq!(run(simulated), 0);
        let both = Args { players: Some(30), simulate: Some(3), opengotha: true, ..args() };
        assert_eq!(run(both), 0);
        let one = Args { players: Some(1), rounds_played: 0, seed: 0, ..args() };
        assert_eq!(run(one), 2);
        assert!(peak_memory_kb().unwrap_or(1) > 0);
    }

    /// A small generated OpenGotha file: 61 demo entrants, 3 rounds by the history pairer
    /// with a forfeit and a bye each round, gzipped as the benchmark input is.
    fn generated_file(dir: &Path) -> PathBuf {
        use admin::formats::opengotha::read::{OgOutcome, OgResult};
        use admin::formats::opengotha::write::{
            write_opengotha, OgHandicap, OgInfo, OgOut, OgOutGame, OgOutPlayer, OgTime,
        };
        let field = admin::domain::demo::demo_entrants(3, 61);
        let players: Vec<Player> =
            field.iter().enumerate().map(|(i, e)| Player::new(i as u32 + 1, e.rank.value())).collect();
        let history = synthetic_history(&players, &Settings::default(), 3, 3, System::Swiss);
        let mut tables: HashMap<u32, u32> = HashMap::new();
        let games = history
            .games
            .iter()
            .map(|g| {
                let table = tables.entry(g.round).or_default();
                *table += 1;
                let outcome = if g.result == GameResult::BlackWins {
                    OgOutcome::BlackWins
                } else {
                    OgOutcome::WhiteWins
                };
                OgOutGame {
                    round: g.round,
                    table: *table,
                    black: g.black as usize - 1,
                    white: g.white as usize - 1,
                    handicap: 0,
                    known_color: true,
                    result: OgResult { outcome, by_default: *table == 2 },
                }
            })
            .collect();
        let day = chrono::NaiveDate::from_ymd_opt(2026, 12, 5).unwrap();
        let out = OgOut {
            name: "Generated".into(),
            short_name: "generated".into(),
            rounds: 5,
            players: field
                .into_iter()
                .map(|entrant| OgOutPlayer { entrant, participating: vec![true; 5] })
                .collect(),
            games,
            byes: history.byes.iter().map(|b| (b.round, b.player as usize - 1)).collect(),
            info: OgInfo {
                komi_q: 15,
                begin: day,
                end: day,
                location: "Beijing".into(),
                basic_minutes: 60,
                time: OgTime::ByoYomi { seconds: 30 },
                placement: vec!["NBW".into(), "SOSW".into(), "SOSOSW".into()],
                mm_bar: "3D".into(),
                mm_floor: "20K".into(),
                bye_value: 2,
                handicap: OgHandicap::default(),
                saved: day.and_hms_opt(10, 0, 0).unwrap(),
            },
        };
        let path = dir.join("generated.xml.gz");
        let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut z, &write_opengotha(&out)).unwrap();
        std::fs::write(&path, z.finish().unwrap()).unwrap();
        path
    }

    /// `--from` pairs the file's next round through the import and the pairing request's
    /// own calls, for both systems and every colour method, with writers of another event.
    #[test]
    fn pairs_the_next_round_of_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = generated_file(dir.path());
        for (system, colours) in
            [(None, Colours::Balanced), (Some(System::Mcmahon), Colours::Balanced), (None, Colours::Nigiri)]
        {
            let a = Args { system, colours, from: Some(path.clone()), seed: 9, ..args() };
            let out = from_file(&path, &a).unwrap();
            assert_eq!(out["rounds_played"], 3);
            assert_eq!(out["players"], 61);
            assert_eq!(out["games"], 30);
            assert_eq!(out["byes"], 1);
            assert_eq!(out["rematches"], 0, "{out}");
            assert_eq!(out["other_tournament_writes"]["failed"], 0, "{out}");
            assert!(out["request_milliseconds"].as_f64().unwrap() > 0.0);
            assert_eq!(out["system"], if system.is_some() { "mcmahon" } else { "swiss" });
        }
        let missing = Args { from: Some(dir.path().join("none.xml")), ..args() };
        assert_eq!(run(missing), 1);
    }

    /// `--from FILE --simulate R`: the file's first N entrants, without its games, paired from
    /// round 1 by the engine; the file's own system unless the command line names one.
    #[test]
    fn a_file_field_is_simulated_from_round_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = generated_file(dir.path());
        for (system, first, expect) in [(None, Some(40), 40), (Some(System::Mcmahon), None, 61)] {
            let (players, settings, sys) =
                crate::bench_simulate::file_field(&path, first, system, Colours::Balanced, 4).unwrap();
            assert_eq!(players.len(), expect);
            assert_eq!(sys, system.unwrap_or(System::Swiss));
            let f = crate::bench_simulate::simulate_field(
                &players,
                4,
                2,
                sys,
                &settings,
                crate::bench_simulate::Pairer::Tengen,
            )
            .unwrap();
            assert_eq!(f.per_round.len(), 4);
            assert_eq!(f.rematches, 0, "{f:?}");
            assert!(
                f.per_round.iter().all(|r| r.games == expect / 2),
                "{f:?}: the file's games are left out"
            );
        }
        let a = Args { from: Some(path), simulate: Some(2), players: Some(10), ..args() };
        assert_eq!(run(a), 0);
    }

    /// OpenGotha's count: even games with known colours, forfeits included, |W − B| > 1.
    #[test]
    fn opengotha_count_of_unbalanced_players() {
        let g = |black, white, counts| OgCountGame { black, white, counts };
        // 1 had Black three times, once in a handicap game: +2, unbalanced; 2 had White
        // twice (+ a game of unknown colours): −2; 3 and 4: one each way.
        let games =
            vec![g(1, 2, true), g(1, 3, true), g(1, 4, false), g(4, 2, true), g(3, 2, false), g(3, 4, true)];
        assert_eq!(opengotha_unbalanced(games.into_iter()), 1 + 1);
        assert_eq!(opengotha_unbalanced(vec![g(1, 2, true), g(2, 1, true)].into_iter()), 0);
    }

    /// On a field with balanced colours, the perfect mode with its
    /// lowered-dual start and the plain solver with its greedy start reach the same optimum
    /// on the same candidate graph, the perfect mode from no more free vertices.
    #[test]
    fn perfect_and_plain_solvers_agree_on_balanced_colours() {
        use matching::Problem;
        let settings = Settings { colours: ColourMethod::Balanced, ..Settings::default() };
        let players = synthetic_players(600, 4);
        let history = synthetic_history(&players, &settings, 4, 4, System::Swiss);
        let score = dr::score_of(ds::System::Swiss, &settings);
        let (field, _) = swiss::build_field(&players, &history, &settings, 5, 4, &score).unwrap();
        let n = field.len();
        let mut edges = Vec::new();
        for a in 0..n {
            for b in a + 1..(a + 11).min(n) {
                edges.push((a, b, field.weight(a, b)));
            }
        }
        let greedy = matching::max_weight_matching(n, &edges, true);
        let perfect = matching::max_weight_perfect_matching(n, &edges, None).unwrap();
        let total = |m: &[Option<usize>]| -> i128 {
            edges.iter().filter(|&&(a, b, _)| m[a] == Some(b)).map(|e| e.2).sum()
        };
        assert_eq!(total(&greedy.mate), total(&perfect.mate));
        assert!(perfect.work.free_at_start <= greedy.work.free_at_start);
    }

    #[test]
    fn synthetic_event_is_realistic() {
        let ps = synthetic_players(1000, 1);
        let dan = ps.iter().filter(|p| p.rank_value >= 0).count();
        let deep_kyu = ps.iter().filter(|p| p.rank_value <= -15).count();
        assert!(dan > 20 && dan < 300, "{dan}");
        assert!(deep_kyu > 5 && deep_kyu < 200, "{deep_kyu}");
        let h = synthetic_history(&ps, &Settings::default(), 3, 1, System::Swiss);
        assert_eq!(h.games.len(), 1500);
        assert!(h.games.iter().all(|g| g.result.played_on_board()), "no forfeit unless asked");
    }

    /// `--forfeits`: about the asked share of games are forfeits, a fifth of them double,
    /// and the history is otherwise paired as usual (same number of games, no rematch).
    #[test]
    fn forfeits_in_the_synthetic_history() {
        let ps = synthetic_players(1000, 2);
        let settings = Settings::default();
        let h = synthetic_history_with(&ps, &settings, 5, 2, System::Mcmahon, 50);
        assert_eq!(h.games.len(), 2500);
        let single = h
            .games
            .iter()
            .filter(|g| matches!(g.result, GameResult::BlackWinsByForfeit | GameResult::WhiteWinsByForfeit))
            .count();
        let double = h.games.iter().filter(|g| g.result == GameResult::DoubleForfeit).count();
        assert!((80..=170).contains(&single), "about 5% of 2,500: {single}");
        assert!((8..=50).contains(&double), "about 1%: {double}");
        assert!(meetings(&h, &settings, 6).values().all(|&n| n == 1), "no rematch");
        // Round 6 by Tengen and by OpenGotha's criteria on that history: both pair everyone
        // without a rematch, and OpenGotha's count (forfeits included) now differs from
        // Tengen's (games played on the board).
        let e = Engine { players: &ps, history: &h, settings: &settings, round: 6, seed: 2 };
        let earlier = || h.games.iter().map(|g| OgCountGame { black: g.black, white: g.white, counts: true });
        let og = opengotha_figures(&e, System::Mcmahon, earlier());
        assert_eq!((og["games"].as_u64(), og["rematches"].as_u64()), (Some(500), Some(0)), "{og}");
        let rp = pair(System::Mcmahon, &ps, &h, &settings, 6, 2).unwrap();
        let games: Vec<NewGame> =
            rp.games.iter().map(|g| NewGame::even(g.black, g.white, g.handicap)).collect();
        let q = quality(&e, ds::System::McMahon, &games);
        let listed = opengotha_unbalanced(earlier().chain(games.iter().map(NewGame::og)));
        assert_eq!(q.rematches, 0);
        assert_ne!(q.colour_imbalance, listed, "the forfeits' colours count on the lists only");
        let args = Args {
            system: Some(System::Mcmahon),
            players: Some(300),
            forfeits: 50,
            opengotha: true,
            ..args()
        };
        assert_eq!(run(args), 0);
    }
}
