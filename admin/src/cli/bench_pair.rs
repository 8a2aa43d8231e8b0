//! `tengen bench pair`: times the pairing of one round on a synthetic event.
//!
//! The event: N players with an amateur rank spread (mostly kyu, centred near 5k, a tail of
//! dan players), about one unit per ten players, half of them rated. R rounds are played
//! before the timed one: round 1 by the Chinese procedure, later rounds by a fast greedy
//! score-order pairer (so building the history stays cheap), with results drawn from the
//! rank difference (the stronger player wins more often the bigger the gap). Then the next
//! round is paired by the real engine and timed. Prints one JSON object:
//! `milliseconds` (the timed pairing only), `peak_memory_kb` (VmHWM of the process),
//! `rematches`, `score_gap_sum` (Σ |score difference| over the games, half points; McMahon
//! scores for McMahon), `pairs_with_score_gap`, `colour_imbalance` (players whose
//! |Blacks − Whites| would be ≥ 2 after the round), `max_colour_imbalance`,
//! `three_in_a_row` (players given the same colour a third time running).

use std::collections::HashMap;
use std::time::Instant;

use crate::domain::draw::lots::{Lot, Stream};
use crate::domain::pairing::{
    mcmahon, meetings, ordered, records, swiss, ByeRecord, Colour, GameResult, History, PlayedGame, Player,
    PlayerId, RoundPairing, Settings,
};

/// Which system to pair.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum System {
    Swiss,
    Mcmahon,
}

/// Arguments of `tengen bench pair`.
#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    #[arg(long, value_enum, default_value = "swiss")]
    pub system: System,
    #[arg(long, default_value_t = 1000)]
    pub players: usize,
    #[arg(long = "rounds-played", default_value_t = 4)]
    pub rounds_played: u32,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Runs the benchmark; returns the process exit code.
pub fn run(args: Args) -> i32 {
    if args.players < 2 {
        eprintln!("--players must be at least 2");
        return 2;
    }
    let settings = Settings::default();
    let players = synthetic_players(args.players, args.seed);
    let history = synthetic_history(&players, &settings, args.rounds_played, args.seed, args.system);
    let round = args.rounds_played + 1;
    let start = Instant::now();
    let result = pair(args.system, &players, &history, &settings, round, args.seed);
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    let rp = match result {
        Ok(rp) => rp,
        Err(e) => {
            eprintln!("pairing failed: {e}");
            return 1;
        }
    };
    let q = quality(&players, &history, &settings, &rp, args.system);
    let out = serde_json::json!({
        "system": format!("{:?}", args.system).to_lowercase(),
        "players": args.players,
        "rounds_played": args.rounds_played,
        "seed": args.seed,
        "milliseconds": (ms * 10.0).round() / 10.0,
        "peak_memory_kb": peak_memory_kb(),
        "games": rp.games.len(),
        "bye": rp.bye,
        "rematches": q.rematches,
        "score_gap_sum": q.score_gap_sum,
        "pairs_with_score_gap": q.gapped_pairs,
        "colour_imbalance": q.colour_imbalance,
        "max_colour_imbalance": q.max_colour_imbalance,
        "three_in_a_row": q.three_in_a_row,
    });
    println!("{out}");
    0
}

fn pair(
    system: System,
    players: &[Player],
    history: &History,
    settings: &Settings,
    round: u32,
    seed: u64,
) -> Result<RoundPairing, crate::domain::pairing::PairingError> {
    match system {
        System::Swiss => swiss::pair_round(players, history, settings, round, seed),
        System::Mcmahon => mcmahon::pair_round(players, history, settings, round, seed),
    }
}

/// Peak resident memory (VmHWM) of this process in KiB, from /proc/self/status.
fn peak_memory_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Players with a realistic amateur spread: rank ≈ 5k ± 6 (sum of three uniforms), clamped
/// to 25k..7d; units of varied size; half rated.
pub fn synthetic_players(n: usize, seed: u64) -> Vec<Player> {
    let mut lot = Lot::new(seed, Stream::Synthetic);
    let units = (n / 10).max(1) as u32;
    (1..=n as u32)
        .map(|id| {
            let spread: i32 = (0..3).map(|_| lot.range_inclusive(0, 8) as i32).sum::<i32>() - 12;
            let rank = (-5 + spread).clamp(-25, 6);
            let mut p = Player::new(id, rank);
            // Squared draw: a few big clubs, many small ones.
            let u = lot.below(u64::from(units)) * lot.below(u64::from(units)) / u64::from(units);
            p.unit = format!("club{u}");
            if lot.coin() {
                p.rating = Some(1200 + 60 * rank + lot.range_inclusive(0, 100) as i32);
            }
            p.birth_date = Some(lot.range_inclusive(0, 25_000) as i32);
            p
        })
        .collect()
}

/// The stronger side's chance to win, in percent, from the rank gap.
fn stronger_wins_percent(gap: i32) -> u64 {
    (50 + 12 * gap.unsigned_abs() as u64).min(95)
}

/// R rounds of synthetic history (module docs).
pub fn synthetic_history(
    players: &[Player],
    settings: &Settings,
    rounds: u32,
    seed: u64,
    system: System,
) -> History {
    let mut h = History::default();
    let mut lot = Lot::new(seed ^ 0x5eed, Stream::Synthetic);
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
            let result =
                if stronger_black == stronger_wins { GameResult::BlackWins } else { GameResult::WhiteWins };
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

/// What the benchmark reports about a pairing's quality.
struct Quality {
    rematches: usize,
    score_gap_sum: i64,
    gapped_pairs: usize,
    colour_imbalance: usize,
    max_colour_imbalance: i32,
    three_in_a_row: usize,
}

fn quality(
    players: &[Player],
    h: &History,
    settings: &Settings,
    rp: &RoundPairing,
    system: System,
) -> Quality {
    let round = rp.round;
    let (recs, _) = records(players, h, settings, round, rp.seed).expect("records");
    let met = meetings(h, settings, round);
    let by_id: HashMap<PlayerId, &Player> = players.iter().map(|p| (p.id, p)).collect();
    let score = |id: PlayerId| {
        let base = if system == System::Mcmahon {
            mcmahon::initial_score(by_id[&id], &settings.mcmahon, settings.points.win)
        } else {
            0
        };
        i64::from(base + recs[&id].pairing_points)
    };
    let mut q = Quality {
        rematches: 0,
        score_gap_sum: 0,
        gapped_pairs: 0,
        colour_imbalance: 0,
        max_colour_imbalance: 0,
        three_in_a_row: 0,
    };
    for g in &rp.games {
        if met.contains_key(&ordered(g.black, g.white)) {
            q.rematches += 1;
        }
        let gap = (score(g.black) - score(g.white)).abs();
        q.score_gap_sum += gap;
        q.gapped_pairs += usize::from(gap > 0);
        for (id, c) in [(g.black, Colour::Black), (g.white, Colour::White)] {
            let r = &recs[&id];
            let bal = r.colour_balance + if c == Colour::Black { 1 } else { -1 };
            if bal.abs() >= 2 {
                q.colour_imbalance += 1;
            }
            q.max_colour_imbalance = q.max_colour_imbalance.max(bal.abs());
            let n = r.colours.len();
            if n >= 2 && r.colours[n - 1] == c && r.colours[n - 2] == c {
                q.three_in_a_row += 1;
            }
        }
    }
    q
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_benchmark_runs_both_systems() {
        for system in [System::Swiss, System::Mcmahon] {
            let args = Args { system, players: 41, rounds_played: 3, seed: 5 };
            assert_eq!(run(args), 0);
        }
        assert_eq!(run(Args { system: System::Swiss, players: 1, rounds_played: 0, seed: 0 }), 2);
        assert!(peak_memory_kb().unwrap_or(1) > 0);
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
    }
}
