//! `tengen-lab bench rules`: how fast the rules engine replays games.
//!
//! Generates random legal 19×19 games (`rules::game::random_game`, situational superko, suicide
//! forbidden), keeps those of at least 250 moves (or `--moves`, if smaller), then times replaying
//! them move by move with `Game::play_as`, the way `sgf check` replays a record: a new game per
//! record, every move checked for legality and superko. Only the replay is timed (with
//! `std::time::Instant`), repeated until at least a second has passed. Prints one JSON object.

use clap::{Args, Subcommand};
use rules::board::Color;
use rules::game::{random_game, Game, KoRule, Move, SuicideRule};
use serde_json::json;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// The target for the replay speed (µs per move, release build).
pub const TARGET_US_PER_MOVE: f64 = 0.5;

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Time replaying random legal 19×19 games under situational superko; prints JSON
    /// (games, moves, µs per move, moves per second).
    Rules(RulesArgs),
    /// Pair one round of a synthetic event (Swiss or McMahon) and print time, peak memory and
    /// quality (rematches, score gaps, colour imbalance) as JSON.
    Pair(crate::bench_pair::Args),
    /// Time printing the scoresheets of a large round (500 tables by default); prints JSON
    /// (milliseconds, bytes, pages).
    Print(crate::bench_print::PrintArgs),
    /// Build a 1,000-player, 7-round event in a temporary database, serve it, and load the
    /// public pages (`--pages`: round, players, standings, crosstable, player) with wrk, and the
    /// same bytes from nginx; prints each page's ratio, then JSON.
    Standings(crate::bench_standings::Args),
    /// Build a 1,000-player event with its last round open, serve it, and load its public
    /// pages with concurrent readers while arbiters enter results over HTTP; prints JSON
    /// (requests/s, latency per page, status counts, writes acknowledged and verified).
    Load(crate::bench_load::Args),
    /// The round-start rush: a 10,000-player event, 10,000 live streams open, 10,000 phones
    /// fetching "find my table" and the pairings within a minute, then a result saved; prints
    /// JSON (p50/p99, errors, the server's memory per stream, the fan-out time).
    Rush(crate::bench_rush::Args),
}

#[derive(Args, Debug)]
pub struct RulesArgs {
    /// Number of games to generate.
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Most moves per game; by default the games run to their end by two passes (about 400 to
    /// 550 moves on 19×19). Games shorter than min(250, MOVES) are replaced by others.
    #[arg(long, default_value_t = 1000)]
    pub moves: usize,
    /// Seed of the game generator (the same seed gives the same games).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Least time to spend replaying, in milliseconds (the games are replayed in a loop).
    #[arg(long, default_value_t = 1000)]
    pub min_ms: u64,
}

pub fn run(cmd: Command) -> i32 {
    match cmd {
        Command::Rules(args) => rules_bench(&args),
        Command::Pair(args) => crate::bench_pair::run(args),
        Command::Print(args) => crate::bench_print::run(args),
        Command::Standings(args) => crate::bench_standings::run(args),
        Command::Load(args) => crate::bench_load::run(args),
        Command::Rush(args) => crate::bench_rush::run(args),
    }
}

/// One seed per game, spread out so that nearby seeds do not give the same playout.
fn game_seed(seed: u64, i: u64) -> u64 {
    seed.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(i.wrapping_add(1).wrapping_mul(0xD1B5_4A32_D192_ED03))
}

/// Replay every game once; returns the moves played.
fn replay_all(games: &[Vec<(Color, Move)>]) -> usize {
    let mut n = 0;
    for moves in games {
        let mut g = Game::new(19, KoRule::Situational, SuicideRule::Forbidden).expect("19 is a board size");
        for &(c, m) in moves {
            if g.play_as(c, m).is_ok() {
                n += 1;
            }
        }
        black_box(&g);
    }
    n
}

fn rules_bench(args: &RulesArgs) -> i32 {
    if args.games == 0 || args.moves == 0 {
        eprintln!("--games and --moves must be at least 1");
        return 2;
    }
    let min_len = args.moves.min(250);
    let gen_start = Instant::now();
    let mut games = Vec::with_capacity(args.games);
    let mut i = 0u64;
    while games.len() < args.games {
        let g = random_game(19, KoRule::Situational, game_seed(args.seed, i), args.moves);
        i += 1;
        if g.len() >= min_len {
            games.push(g);
        } else if i > 20 * args.games as u64 + 100 {
            eprintln!("could not generate games of {min_len}+ moves");
            return 2;
        }
    }
    let generation = gen_start.elapsed();
    let moves: usize = games.iter().map(Vec::len).sum();
    // Check once that every move replays legally (the games are legal by construction).
    let legal = replay_all(&games);
    if legal != moves {
        eprintln!("replay refused {} of {moves} moves", moves - legal);
        return 1;
    }
    let min = Duration::from_millis(args.min_ms);
    let start = Instant::now();
    let mut reps = 0u64;
    let mut replayed = 0usize;
    while reps < 3 || start.elapsed() < min {
        replayed += black_box(replay_all(black_box(&games)));
        reps += 1;
    }
    let elapsed = start.elapsed().as_secs_f64();
    let us_per_move = elapsed * 1e6 / replayed as f64;
    let report = json!({
        "games": games.len(),
        "moves": moves,
        "moves_per_game_min": games.iter().map(Vec::len).min(),
        "moves_per_game_max": games.iter().map(Vec::len).max(),
        "board": 19,
        "ko_rule": "situational",
        "seed": args.seed,
        "generation_seconds": generation.as_secs_f64(),
        "repetitions": reps,
        "moves_replayed": replayed,
        "replay_seconds": elapsed,
        "us_per_move": us_per_move,
        "moves_per_second": replayed as f64 / elapsed,
        "target_us_per_move": TARGET_US_PER_MOVE,
        "meets_target": us_per_move <= TARGET_US_PER_MOVE,
        "build": if cfg!(debug_assertions) { "debug" } else { "release" },
    });
    println!("{report}");
    0
}
