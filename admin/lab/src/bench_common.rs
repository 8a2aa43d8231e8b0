//! What the pairing benches share: the system and colour choices of the command line, the
//! round's inputs and new games, the engine's pairing, the quality measures, OpenGotha's colour
//! count, the synthetic field and an OpenGotha file read as an event. `bench_pair` drives the
//! benches, `bench_simulate` and `bench_opengotha` pair with these; they live here so that
//! none of the three uses another in a circle.

use std::collections::HashMap;
use std::io::Read;
use std::path::Path;

use admin::domain::draw::lots::{Lot, Stream};
use admin::domain::draw::nigiri::NigiriRule;
use admin::domain::pairing::{
    mcmahon, meetings, ordered, records, swiss, Colour, ColourMethod, History, Player, PlayerId,
    RoundPairing, Settings,
};
use admin::domain::rounds as dr;
use admin::domain::settings::{self as ds, TournamentSettings};
use admin::formats::opengotha::read::OgTournament;

/// Which system to pair.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum System {
    Swiss,
    Mcmahon,
}

impl System {
    pub(super) fn event_system(self) -> ds::System {
        match self {
            System::Swiss => ds::System::Swiss,
            System::Mcmahon => ds::System::McMahon,
        }
    }

    pub(crate) fn of_event(system: ds::System) -> Option<System> {
        match system {
            ds::System::Swiss => Some(System::Swiss),
            ds::System::McMahon => Some(System::Mcmahon),
            _ => None,
        }
    }
}

/// How the colours are decided.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Colours {
    Balanced,
    Lots,
    Nigiri,
}

impl Colours {
    pub(crate) fn engine(self) -> ColourMethod {
        match self {
            Colours::Balanced => ColourMethod::Balanced,
            Colours::Lots => ColourMethod::Lot,
            Colours::Nigiri => ColourMethod::Nigiri { remote: false, rule: NigiriRule::Art10 },
        }
    }
    fn event(self) -> ds::ColourMethod {
        match self {
            Colours::Balanced => ds::ColourMethod::Balanced,
            Colours::Lots => ds::ColourMethod::Lots,
            Colours::Nigiri => ds::ColourMethod::Nigiri,
        }
    }
}

/// The inputs of one pairing, as the quality measures read them.
pub(super) struct Engine<'a> {
    pub players: &'a [Player],
    pub history: &'a History,
    pub settings: &'a Settings,
    pub round: u32,
    pub seed: u64,
}

/// One game of the new round: the assigned colours, the handicap, whether the colours are
/// known (a nigiri still to be done leaves them open).
pub(super) struct NewGame {
    pub black: PlayerId,
    pub white: PlayerId,
    pub(crate) handicap: u8,
    pub(crate) known: bool,
}

impl NewGame {
    pub(super) fn even(black: PlayerId, white: PlayerId, handicap: u8) -> NewGame {
        NewGame { black, white, handicap, known: true }
    }
    pub(crate) fn og(&self) -> OgCountGame {
        OgCountGame { black: self.black, white: self.white, counts: self.handicap == 0 && self.known }
    }
}

/// A game as OpenGotha's colour count sees it: `counts` is false for a handicap game or one
/// whose colours are not known.
pub struct OgCountGame {
    pub black: PlayerId,
    pub white: PlayerId,
    pub counts: bool,
}

/// Players more than one colour off by OpenGotha's count (its `Pairing.
/// unbalancedWBPlayersReport` with the threshold 1): over every game of the rounds so far,
/// the new one included, that is not a handicap game and whose colours are known —
/// forfeits too, which Tengen's own balance leaves out (rules.md §4.3) —, |Whites − Blacks|
/// above 1.
pub fn opengotha_unbalanced(games: impl Iterator<Item = OgCountGame>) -> usize {
    let mut balance: HashMap<PlayerId, i32> = HashMap::new();
    for g in games.filter(|g| g.counts) {
        *balance.entry(g.black).or_default() += 1;
        *balance.entry(g.white).or_default() -= 1;
    }
    balance.values().filter(|b| b.abs() > 1).count()
}

/// Reads an OpenGotha file, gunzipping it if it is gzipped.
fn read_input(path: &Path) -> Result<Vec<u8>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::with_capacity(bytes.len() * 8);
        flate2::read::GzDecoder::new(&bytes[..])
            .read_to_end(&mut out)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        return Ok(out);
    }
    Ok(bytes)
}

/// An OpenGotha file and the event settings its import gives, with the system (if given)
/// and colour method of the command line; refused unless the engine pairs that system.
pub(super) fn read_event(
    path: &Path,
    system: Option<System>,
    colours: Colours,
) -> Result<(OgTournament, TournamentSettings), String> {
    let og =
        admin::formats::opengotha::read::parse_opengotha(&read_input(path)?).map_err(|e| e.to_string())?;
    let today = chrono::Local::now().date_naive();
    let (mut settings, _) = admin::formats::opengotha::settings::event_settings(
        &og,
        &TournamentSettings::defaults(today, admin::machine::zone()),
    );
    if let Some(s) = system {
        settings.system = s.event_system();
    }
    if !matches!(settings.system, ds::System::Swiss | ds::System::McMahon) {
        return Err(format!("the file's system {:?} is not paired by the engine", settings.system));
    }
    settings.colour_method = colours.event();
    Ok((og, settings))
}

pub(super) fn pair(
    system: System,
    players: &[Player],
    history: &History,
    settings: &Settings,
    round: u32,
    seed: u64,
) -> Result<RoundPairing, admin::domain::pairing::PairingError> {
    match system {
        System::Swiss => swiss::pair_round(players, history, settings, round, seed),
        System::Mcmahon => mcmahon::pair_round(players, history, settings, round, seed),
    }
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
pub(super) fn stronger_wins_percent(gap: i32) -> u64 {
    (50 + 12 * gap.unsigned_abs() as u64).min(95)
}

/// What the benchmark reports about a pairing's quality.
pub(super) struct Quality {
    pub rematches: usize,
    pub score_gap_sum: i64,
    pub gapped_pairs: usize,
    pub colour_imbalance: usize,
    pub max_colour_imbalance: i32,
    pub three_in_a_row: usize,
    pub torn: usize,
    pub needless_third: usize,
}

pub(super) fn quality(e: &Engine<'_>, system: ds::System, games: &[NewGame]) -> Quality {
    let (recs, _) = records(e.players, e.history, e.settings, e.round, e.seed).expect("records");
    let met = meetings(e.history, e.settings, e.round);
    let by_id: HashMap<PlayerId, &Player> = e.players.iter().map(|p| (p.id, p)).collect();
    let score_of = dr::score_of(system, e.settings);
    let score = |id: PlayerId| i64::from(score_of(by_id[&id], recs[&id].pairing_points));
    let mut q = Quality {
        rematches: 0,
        score_gap_sum: 0,
        gapped_pairs: 0,
        colour_imbalance: 0,
        max_colour_imbalance: 0,
        three_in_a_row: 0,
        torn: 0,
        needless_third: 0,
    };
    for g in games {
        if met.contains_key(&ordered(g.black, g.white)) {
            q.rematches += 1;
        }
        let gap = (score(g.black) - score(g.white)).abs();
        q.score_gap_sum += gap;
        q.gapped_pairs += usize::from(gap > 0);
        if !g.known {
            continue;
        }
        for (id, c) in [(g.black, Colour::Black), (g.white, Colour::White)] {
            let r = &recs[&id];
            let bal = r.colour_balance + if c == Colour::Black { 1 } else { -1 };
            if bal.abs() >= 2 {
                q.colour_imbalance += 1;
            }
            q.max_colour_imbalance = q.max_colour_imbalance.max(bal.abs());
            let n = r.colours.len();
            let torn = torn(r.colour_balance, &r.colours);
            if n >= 2 && r.colours[n - 1] == c && r.colours[n - 2] == c {
                q.three_in_a_row += 1;
                q.needless_third += usize::from(!torn);
            }
            q.torn += usize::from(torn);
        }
    }
    q
}

/// Whether the one colour that keeps a player within one colour of level (balance ±1 or ±2)
/// is the colour of their last two games: such a player ends two off or takes a colour a
/// third time running, whatever the pairing.
pub(crate) fn torn(balance: i32, colours: &[Colour]) -> bool {
    let due = match balance {
        1 | 2 => Colour::White,
        -2 | -1 => Colour::Black,
        _ => return false,
    };
    colours.len() >= 2 && colours[colours.len() - 2..].iter().all(|&c| c == due)
}
