//! `tengen-lab bench pair --simulate ROUNDS`: a whole synthetic event paired by Tengen's own
//! engine, so the colour figures describe what Tengen does over an event, not what a
//! history made by another pairer left behind.
//!
//! The field is `bench pair`'s synthetic one ([`synthetic_players`]), or with `--from FILE`
//! the entrants of an OpenGotha file without its games ([`file_field`]), so that OpenGotha
//! can be given the same field (BENCHMARKS.md); every round 1..R is
//! paired by the engine (`swiss::pair_round` / `mcmahon::pair_round`, the calls `bench pair`
//! times), and its games get results drawn from the rank gap as the synthetic history draws
//! them, from a lot seeded by `--seed`: the same seed gives the same event, move for move.
//! After each round the pairing's quality is measured as `bench pair` measures one round;
//! after the last round the whole event's colour figures are printed:
//!
//! - `colour_imbalance`: players whose |Blacks − Whites| is 2 or more (Tengen's count, games
//!   played on the board) and `opengotha_unbalanced` (OpenGotha's count, even games, as
//!   `bench pair` prints it);
//! - `three_in_a_row`: colours given a third time running, over the whole event and in the
//!   last round, and `players_given_a_third`: how many players ever got one;
//! - `torn`: players whose only colour that keeps them within one was the colour of their
//!   last two games, in the last round and summed over the rounds;
//! - `forced_last_round`: how many of the last round's players more than one off its score
//!   groups force, whatever the colours (`forced`);
//! - `milliseconds`: the engine's time for each round (the rest of the loop is not timed).
//!
//! With `--opengotha` a second event is played out from the same field and seed, every round
//! paired by OpenGotha's criteria as [`crate::bench_opengotha`] restates them (`pairer`:
//! `opengotha_criteria`), so each program is measured on the history it made itself.

use std::collections::{HashMap, HashSet};
use std::time::Instant;

use serde::Serialize;

use crate::bench_common::{
    opengotha_unbalanced, pair, quality, read_event, stronger_wins_percent, synthetic_players, Colours,
    Engine, NewGame, OgCountGame, System,
};
use admin::domain::draw::lots::{Lot, Stream};
use admin::domain::pairing::{
    records, ByeRecord, Colour, GameResult, History, PlayedGame, Player, PlayerId, Settings,
};
use admin::domain::rounds as dr;
use admin::domain::settings as ds;

/// Who pairs the simulated event's rounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pairer {
    /// Tengen's engine (`swiss::pair_round` / `mcmahon::pair_round`).
    Tengen,
    /// OpenGotha 3.51's criteria as [`crate::bench_opengotha`] restates them
    /// (`bench pair --simulate R --opengotha`): each pairer plays out its own event.
    OpenGothaCriteria,
}

/// One round of the simulated event, as `bench pair` would report it.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct RoundFigures {
    pub round: u32,
    pub milliseconds: f64,
    pub games: usize,
    pub rematches: usize,
    pub score_gap_sum: i64,
    pub colour_imbalance: usize,
    pub three_in_a_row: usize,
    pub torn: usize,
    pub needless_third: usize,
    /// How many of this round's `colour_imbalance` its score groups force ([`forced`]).
    pub forced_by_score_groups: usize,
}

/// The event after its last round (module docs).
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct EventFigures {
    pub pairer: String,
    pub system: String,
    pub players: usize,
    pub rounds: u32,
    pub seed: u64,
    pub colour_imbalance: usize,
    pub opengotha_unbalanced: usize,
    pub max_colour_imbalance: i32,
    pub three_in_a_row_event: usize,
    pub three_in_a_row_last_round: usize,
    pub players_given_a_third: usize,
    pub torn_event: usize,
    pub torn_last_round: usize,
    pub forced_last_round: usize,
    pub needless_third_event: usize,
    pub rematches: usize,
    pub score_gap_sum: i64,
    pub max_milliseconds: f64,
    pub per_round: Vec<RoundFigures>,
}

impl EventFigures {
    /// The figures without the times (what a seed decides).
    pub fn untimed(&self) -> EventFigures {
        let mut f = self.clone();
        f.max_milliseconds = 0.0;
        f.per_round.iter_mut().for_each(|r| r.milliseconds = 0.0);
        f
    }
}

/// Pairs rounds 1..=`rounds` of a synthetic field of `n` players with the engine (module
/// docs). Errors name the round the engine could not pair.
pub fn simulate(
    n: usize,
    rounds: u32,
    seed: u64,
    system: System,
    settings: &Settings,
    pairer: Pairer,
) -> Result<EventFigures, String> {
    simulate_field(&synthetic_players(n, seed), rounds, seed, system, settings, pairer)
}

/// Pairs rounds 1..=`rounds` of the field `players` with the engine, results drawn from the
/// rank gap by a lot seeded with `seed` (module docs); the field of [`simulate`], or a file's
/// entrants (`bench pair --from FILE --simulate R`, [`file_field`]).
pub fn simulate_field(
    players: &[Player],
    rounds: u32,
    seed: u64,
    system: System,
    settings: &Settings,
    pairer: Pairer,
) -> Result<EventFigures, String> {
    let n = players.len();
    let rank: HashMap<PlayerId, i32> = players.iter().map(|p| (p.id, p.rank_value)).collect();
    let mut results = Lot::new(seed ^ 0x5eed, Stream::Synthetic);
    let mut history = History::default();
    let mut per_round = Vec::new();
    let mut given_third = HashSet::new();
    for round in 1..=rounds {
        let start = Instant::now();
        let engine = Engine { players, history: &history, settings, round, seed };
        let (games, bye) = pair_with(pairer, &engine, system).map_err(|e| format!("round {round}: {e}"))?;
        let ms = start.elapsed().as_secs_f64() * 1000.0;
        let q = quality(&engine, system.event_system(), &games);
        given_third.extend(thirds(&history, round, &games));
        let forced = forced(&engine, system, &games);
        per_round.push(RoundFigures {
            round,
            milliseconds: (ms * 10.0).round() / 10.0,
            games: games.len(),
            rematches: q.rematches,
            score_gap_sum: q.score_gap_sum,
            colour_imbalance: q.colour_imbalance,
            three_in_a_row: q.three_in_a_row,
            torn: q.torn,
            needless_third: q.needless_third,
            forced_by_score_groups: forced,
        });
        if let Some(b) = bye {
            history.byes.push(ByeRecord { round, player: b });
        }
        for g in &games {
            let gap = rank[&g.black] - rank[&g.white];
            let stronger_wins = results.below(100) < stronger_wins_percent(gap);
            let black_wins = (gap >= 0) == stronger_wins;
            let result = if black_wins { GameResult::BlackWins } else { GameResult::WhiteWins };
            history.games.push(PlayedGame::new(round, g.black, g.white, result));
        }
    }
    Ok(event_figures(pairer, system, n, seed, &history, per_round, given_third.len()))
}

/// One round's games (even games, colours known) and bye by `pairer`.
fn pair_with(
    pairer: Pairer,
    e: &Engine<'_>,
    system: System,
) -> Result<(Vec<NewGame>, Option<PlayerId>), String> {
    match pairer {
        Pairer::Tengen => {
            let rp =
                pair(system, e.players, e.history, e.settings, e.round, e.seed).map_err(|x| x.to_string())?;
            Ok((rp.games.iter().map(|g| NewGame::even(g.black, g.white, g.handicap)).collect(), rp.bye))
        }
        Pairer::OpenGothaCriteria => {
            let games = crate::bench_opengotha::pair(e, system)?;
            let paired: HashSet<PlayerId> = games.iter().flat_map(|g| [g.black, g.white]).collect();
            let active = e.players.iter().filter(|p| p.status == admin::domain::pairing::Status::Active);
            let bye = active.map(|p| p.id).find(|id| !paired.contains(id));
            Ok((games, bye))
        }
    }
}

/// The field of an OpenGotha file for `bench pair --from FILE --simulate R`: its first
/// `first` entrants (all of them if `None`), in the file's order, with the event's settings as
/// the import reads them (McMahon bar and floor among them) and the command line's system and
/// colour method. The file's games and byes are left out and everyone takes part in every
/// round, so the engine pairs the whole event from round 1, as OpenGotha does when it is
/// given the same entrants (BENCHMARKS.md).
pub fn file_field(
    path: &std::path::Path,
    first: Option<usize>,
    system: Option<System>,
    colours: Colours,
    rounds: u32,
) -> Result<(Vec<Player>, Settings, System), String> {
    use admin::db::{self, entrants, Actor};
    let (mut og, mut settings) = read_event(path, system, colours)?;
    if let Some(n) = first {
        og.players.truncate(n);
    }
    og.games.clear();
    og.byes.clear();
    og.players.iter_mut().for_each(|p| p.participating.clear());
    settings.rounds = settings.rounds.max(rounds);
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let pool = db::open(&dir.path().join("field.db")).map_err(|e| e.to_string())?;
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    let data = admin::office::imports::from_opengotha(&og);
    let note = entrants::ImportNote::new("bench");
    let (tid, _) = entrants::create_event(&mut conn, &Actor::system("bench"), &settings, &data, &note)
        .map_err(|e| e.to_string())?;
    let ctx = admin::db::rounds::context(&mut conn, tid, 1).map_err(|e| e.to_string())?;
    let system = if settings.system == ds::System::McMahon { System::Mcmahon } else { System::Swiss };
    Ok((ctx.players, ctx.psettings, system))
}

/// How many players of the round must end two colours off (or further) whatever the colours,
/// given who the pairing put at equal score: in each score group, the players leaning to
/// White (balance above 0) and to Black (below 0) pair off, a level player (balance 0) takes
/// whichever colour its opponent needs, and a player the pairing floated out of the group
/// leaves it; each two left over of the same leaning make one pair, one of whom ends two off.
/// The floats are this pairing's (the score criterion, above colour, fixes how many there
/// are), so this is what colour could still win without a larger score gap.
pub(super) fn forced(e: &Engine<'_>, system: System, games: &[NewGame]) -> usize {
    let Ok((recs, _)) = records(e.players, e.history, e.settings, e.round, e.seed) else { return 0 };
    let by_id: HashMap<PlayerId, &Player> = e.players.iter().map(|p| (p.id, p)).collect();
    let score_of = dr::score_of(system.event_system(), e.settings);
    let score = |id: PlayerId| score_of(by_id[&id], recs[&id].pairing_points);
    // Per score group: (leaning White − leaning Black, level, floated out).
    let mut groups: HashMap<i32, (i32, i32, i32)> = HashMap::new();
    for g in games {
        let floated = score(g.black) != score(g.white);
        for id in [g.black, g.white] {
            let entry = groups.entry(score(id)).or_default();
            match recs[&id].colour_balance.signum() {
                0 => entry.1 += 1,
                s => entry.0 += s,
            }
            entry.2 += i32::from(floated);
        }
    }
    let left = |&(surplus, level, out): &(i32, i32, i32)| (surplus.abs() - level - out).max(0) as usize;
    groups.values().map(|g| left(g).div_ceil(2)).sum()
}

/// The players of `games` given the colour of their last two games in `history` again.
fn thirds(history: &History, round: u32, games: &[NewGame]) -> Vec<PlayerId> {
    let last_two = |id: PlayerId| -> Vec<Colour> {
        let mut c: Vec<(u32, Colour)> = history
            .games
            .iter()
            .filter(|g| g.round < round && (g.black == id || g.white == id))
            .map(|g| (g.round, if g.black == id { Colour::Black } else { Colour::White }))
            .collect();
        c.sort_by_key(|x| x.0);
        c.iter().rev().take(2).map(|x| x.1).collect()
    };
    let mut out = Vec::new();
    for g in games {
        for (id, colour) in [(g.black, Colour::Black), (g.white, Colour::White)] {
            if last_two(id) == [colour, colour] {
                out.push(id);
            }
        }
    }
    out
}

/// The whole event's figures from its history and its rounds' figures.
fn event_figures(
    pairer: Pairer,
    system: System,
    n: usize,
    seed: u64,
    history: &History,
    per_round: Vec<RoundFigures>,
    players_given_a_third: usize,
) -> EventFigures {
    let mut balance: HashMap<PlayerId, i32> = HashMap::new();
    for g in &history.games {
        *balance.entry(g.black).or_default() += 1;
        *balance.entry(g.white).or_default() -= 1;
    }
    let og = history.games.iter().map(|g| OgCountGame { black: g.black, white: g.white, counts: true });
    let last = per_round.last();
    let sum = |f: fn(&RoundFigures) -> usize| per_round.iter().map(f).sum::<usize>();
    EventFigures {
        pairer: match pairer {
            Pairer::Tengen => "tengen",
            Pairer::OpenGothaCriteria => "opengotha_criteria",
        }
        .into(),
        system: format!("{system:?}").to_lowercase(),
        players: n,
        rounds: per_round.len() as u32,
        seed,
        colour_imbalance: balance.values().filter(|b| b.abs() >= 2).count(),
        opengotha_unbalanced: opengotha_unbalanced(og),
        max_colour_imbalance: balance.values().map(|b| b.abs()).max().unwrap_or(0),
        three_in_a_row_event: sum(|r| r.three_in_a_row),
        three_in_a_row_last_round: last.map_or(0, |r| r.three_in_a_row),
        players_given_a_third,
        torn_event: sum(|r| r.torn),
        torn_last_round: last.map_or(0, |r| r.torn),
        forced_last_round: last.map_or(0, |r| r.forced_by_score_groups),
        needless_third_event: sum(|r| r.needless_third),
        rematches: sum(|r| r.rematches),
        score_gap_sum: per_round.iter().map(|r| r.score_gap_sum).sum(),
        max_milliseconds: per_round.iter().map(|r| r.milliseconds).fold(0.0, f64::max),
        per_round,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use admin::domain::pairing::ColourMethod;

    /// A field of 40 over 5 rounds, both systems: the same seed gives the same event, no
    /// rematch, every player in every round, and the figures agree with each other.
    #[test]
    fn a_simulated_event_is_deterministic_and_consistent() {
        let settings = Settings { colours: ColourMethod::Balanced, ..Settings::default() };
        for system in [System::Swiss, System::Mcmahon] {
            let a = simulate(40, 5, 11, system, &settings, Pairer::Tengen).unwrap();
            let b = simulate(40, 5, 11, system, &settings, Pairer::Tengen).unwrap();
            assert_eq!(a.untimed(), b.untimed(), "{system:?}: the seed decides the event");
            assert_ne!(
                a.untimed(),
                simulate(40, 5, 12, system, &settings, Pairer::Tengen).unwrap().untimed()
            );
            assert_eq!(a.rounds, 5);
            assert_eq!(a.rematches, 0, "{a:?}");
            assert!(a.per_round.iter().all(|r| r.games == 20), "{a:?}");
            // No forfeit, no handicap: both counts see the same games.
            assert_eq!(a.colour_imbalance, a.opengotha_unbalanced);
            let last = a.per_round.last().unwrap();
            assert_eq!(a.colour_imbalance, last.colour_imbalance, "everyone plays the last round");
            assert_eq!(a.three_in_a_row_event, a.per_round.iter().map(|r| r.three_in_a_row).sum::<usize>());
            assert!(a.players_given_a_third <= a.three_in_a_row_event);
            assert!(a.needless_third_event <= a.three_in_a_row_event);
            assert_eq!(a.per_round[..2].iter().map(|r| r.three_in_a_row + r.torn).sum::<usize>(), 0);
            assert!(a.max_colour_imbalance <= 3, "{a:?}");
            for r in &a.per_round {
                assert!(r.forced_by_score_groups <= r.colour_imbalance, "a bound: {r:?}");
            }
        }
    }

    /// An odd field: one bye a round, the rest paired.
    #[test]
    fn an_odd_field_gives_one_bye_a_round() {
        let settings = Settings::default();
        for pairer in [Pairer::Tengen, Pairer::OpenGothaCriteria] {
            let a = simulate(41, 3, 2, System::Swiss, &settings, pairer).unwrap();
            assert!(a.per_round.iter().all(|r| r.games == 20), "{pairer:?}");
            assert_eq!(a.rematches, 0);
        }
    }
}
