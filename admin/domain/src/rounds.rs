//! The round workflow's pure part: from the tournament's settings and the state of
//! the event to a draft round of any system, table numbers (score, then rank, fixed tables),
//! manual swaps and edits, review warnings and the per-pair explanation.
//!
//! No database and no HTTP: `db::rounds` loads the inputs and stores what this decides. The
//! pairing engines themselves are in [`super::pairing`] and the lots in [`super::draw`]; this
//! module only adapts them to one round's life:
//!
//! - [`pairing_settings`] turns [`TournamentSettings`] into the engine's
//!   [`p::Settings`] (points and bye value, same-unit rounds, colours, the double-loss lot);
//! - [`plan_round`] pairs a round with the tournament's system: Swiss and McMahon by their
//!   engines; round robin from Berger tables (numbers drawn by lot in round 1, kept in the
//!   round's [`Plan`]); knockout from the previous round's bracket and results;
//! - [`number_tables`]: higher score first, then the stronger player; players with a fixed
//!   table get it and the other games fill the numbers left;
//! - [`swap_players`] / [`edit_table`]: manual changes of a draft, checked afterwards by
//!   [`review`] with the same warnings as the engine's output;
//! - [`explain`]: every weight of one candidate pair (pairgoth's "explain" view).

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};

use super::draw::lots::{DrawRecord, Purpose, Stream};
use super::draw::nigiri::{self, NigiriRecord, NigiriRule, RoleReason};
use super::draw::{self, derive_seed, tags};
use super::pairing::knockout::{self, KnockoutError, KnockoutMatch, KnockoutRules, MatchOutcome, Seeded};
use super::pairing::review::{self, Warning};
use super::pairing::weights::Criterion;
use super::pairing::{
    self as p, mcmahon, round_robin, swiss, ColourDecision, GameResult, History, Pairing, PairingError,
    Player, PlayerId, RoundPairing, Status,
};
use super::settings::{
    ColourMethod, DoubleLoss, HandicapBasis, HandicapSettings, KnockoutResolution, KnockoutSettings,
    LateEntry, McMahonBands, NigiriHolder, Round1Order, SameUnit, System, TournamentSettings,
};

/// The engine's McMahon bar and floor (rank values) for the tournament's ranks.
pub fn mcmahon_settings(b: &McMahonBands) -> p::McMahonSettings {
    p::McMahonSettings { bar: b.bar.value(), floor: b.floor.value() }
}

/// The engine's handicap rule for the tournament's: none, rank difference, or (McMahon only)
/// the McMahon-score difference with one win per stone. A handicap in a system that does
/// not pair by these engines (or a score basis outside McMahon) is refused by
/// [`super::settings::PairingRules::problems`]; here it gives even games.
pub fn handicap_rule(h: &HandicapSettings, system: System, points: &p::PointsScale) -> p::HandicapRule {
    let (reduction, max, below_bar_only) = (i32::from(h.reduction), i32::from(h.max), h.none_at_bar);
    match (h.basis, system) {
        (HandicapBasis::Rank, System::Swiss | System::McMahon) => {
            p::HandicapRule::RankDifference { reduction, max, below_bar_only }
        }
        (HandicapBasis::McMahonScore, System::McMahon) => {
            p::HandicapRule::ScoreDifference { reduction, max, below_bar_only, per_stone: points.win }
        }
        _ => p::HandicapRule::None,
    }
}

/// The nigiri engine's rule for who holds the stones.
pub fn nigiri_rule(h: NigiriHolder) -> NigiriRule {
    match h {
        NigiriHolder::Art10 => NigiriRule::Art10,
        NigiriHolder::LargerNumber => NigiriRule::PairingNumber,
    }
}

/// The engine's round-1 order for the tournament's (rules.md §14.2).
pub fn round1_order(o: Round1Order) -> p::Round1Order {
    match o {
        Round1Order::RankRating => p::Round1Order::RankThenRating,
        Round1Order::Rating => p::Round1Order::Rating,
        Round1Order::Lot => p::Round1Order::Lot,
    }
}

/// The knockout engine's rules for draws and double losses. A draw that would put both out
/// (refused by the settings' check) is replayed.
pub fn knockout_rules(k: &KnockoutSettings) -> KnockoutRules {
    use knockout::Resolution as R;
    let r = |x: KnockoutResolution| match x {
        KnockoutResolution::Replay => R::Replay,
        KnockoutResolution::HigherSeed => R::HigherSeedAdvances,
        KnockoutResolution::Lot => R::Lot,
        KnockoutResolution::BothOut => R::BothEliminated,
    };
    let on_draw = match r(k.on_draw) {
        R::BothEliminated => R::Replay,
        other => other,
    };
    KnockoutRules { on_draw, on_double_loss: r(k.on_double_loss) }
}

/// The engine's settings for a tournament's settings.
pub fn pairing_settings(t: &TournamentSettings) -> p::Settings {
    let points = t.points();
    let same_unit_rounds = match t.same_unit {
        SameUnit::Off => 0,
        SameUnit::Rounds(k) => k,
        SameUnit::All => u32::MAX,
    };
    let colours = match t.colour_method {
        ColourMethod::Nigiri => {
            p::ColourMethod::Nigiri { remote: false, rule: nigiri_rule(t.pairing.nigiri) }
        }
        ColourMethod::Lots => p::ColourMethod::Lot,
        ColourMethod::Balanced => p::ColourMethod::Balanced,
    };
    let score_based = matches!(t.system, System::Swiss | System::McMahon);
    let handicap = handicap_rule(&t.pairing.handicap, t.system, &points);
    p::Settings {
        points,
        same_unit_rounds,
        same_unit_barred_rounds: t.pairing.unit_barred,
        colours,
        mcmahon: mcmahon_settings(&t.pairing.mcmahon),
        handicap,
        // With a handicap rule the engine never gives more than its maximum: more is a hand
        // edit worth a look. Without one, the old threshold.
        warn_handicap: match handicap {
            p::HandicapRule::None => p::Settings::default().warn_handicap,
            _ => t.pairing.handicap.max,
        },
        knockout: knockout_rules(&t.pairing.knockout),
        round1_order: round1_order(t.pairing.round1),
        // The nominal winner only matters where scores decide the pairing.
        double_loss_lot: score_based && t.double_loss == DoubleLoss::Lot,
        // A gap of more than one win is worth a look; in systems that do not pair by score
        // a gap says nothing.
        warn_score_gap: if score_based { points.win } else { i32::MAX },
        ..p::Settings::default()
    }
}

/// Points (half points) a late entrant starts with: the late-entry setting's value for each
/// round before `first_round`.
pub fn entry_points(first_round: u32, late: LateEntry, points: &p::PointsScale) -> i32 {
    let per = match late {
        LateEntry::Loss => points.loss,
        LateEntry::Draw => points.draw,
        LateEntry::Win => points.win,
    };
    per.saturating_mul(first_round.saturating_sub(1).min(1000) as i32)
}

/// Komi of a game in quarter stones: the rule set's for an even game, none for a handicap or
/// no-komi game (rules.md §3.4: compensation is counted separately).
pub fn komi_for(handicap: u8, ruleset_komi_q: i32) -> i32 {
    if handicap == 0 {
        ruleset_komi_q
    } else {
        0
    }
}

/// The pairing score of a player: Swiss points, or the McMahon score.
pub fn score_of(system: System, settings: &p::Settings) -> impl Fn(&Player, i32) -> i32 {
    let mm = settings.mcmahon;
    let win = settings.points.win;
    move |pl: &Player, points: i32| match system {
        System::McMahon => mcmahon::initial_score(pl, &mm, win) + points,
        _ => points,
    }
}

/// How the colours of one game were decided, as stored with the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ColourSource {
    Balanced,
    Lot,
    Handicap,
    Table,
    Nigiri,
    Manual,
    /// Read from a file (OpenGotha import).
    Imported,
}

impl ColourSource {
    pub const ALL: &'static [ColourSource] = &[
        ColourSource::Balanced,
        ColourSource::Lot,
        ColourSource::Handicap,
        ColourSource::Table,
        ColourSource::Nigiri,
        ColourSource::Manual,
        ColourSource::Imported,
    ];
    pub fn code(self) -> &'static str {
        match self {
            ColourSource::Balanced => "balanced",
            ColourSource::Lot => "lot",
            ColourSource::Handicap => "handicap",
            ColourSource::Table => "table",
            ColourSource::Nigiri => "nigiri",
            ColourSource::Manual => "manual",
            ColourSource::Imported => "",
        }
    }
    pub fn from_code(s: &str) -> ColourSource {
        ColourSource::ALL.iter().copied().find(|c| c.code() == s).unwrap_or(ColourSource::Imported)
    }
}

/// A nigiri as stored with its game: who holds the stones, who guesses, why, and the
/// outcome once known (recorded at the board or performed remotely from a seed).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NigiriState {
    pub holder: PlayerId,
    pub guesser: PlayerId,
    pub reason: RoleReason,
    pub record: Option<NigiriRecord>,
}

/// One game of a round as the workflow sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableGame {
    pub table: u32,
    /// The assigned Black (rules.md §4.3).
    pub black: PlayerId,
    pub white: PlayerId,
    pub handicap: u8,
    pub colours: ColourSource,
    pub nigiri: Option<NigiriState>,
    /// Komi in quarter stones.
    pub komi_q: i32,
}

impl TableGame {
    /// Whether the colours are known (a nigiri still to be done leaves them open).
    pub fn colours_known(&self) -> bool {
        !matches!(&self.nigiri, Some(n) if n.record.is_none())
    }
    /// The game as the pairing's review reads it, with where its colours came from (a manual
    /// edit or an imported game counts as chosen, like the pairing's balance).
    fn as_pairing(&self) -> Pairing {
        let colours = match (&self.nigiri, self.colours) {
            (Some(n), _) => {
                ColourDecision::Nigiri { holder: n.holder, guesser: n.guesser, outcome: n.record }
            }
            (None, ColourSource::Lot) => ColourDecision::Lot,
            (None, ColourSource::Handicap) => ColourDecision::Handicap,
            (None, ColourSource::Table) => ColourDecision::Table,
            (None, _) => ColourDecision::Balanced,
        };
        Pairing {
            table: self.table,
            black: self.black,
            white: self.white,
            handicap: self.handicap,
            colours,
            explain: Vec::new(),
        }
    }
}

/// What a system keeps for its later rounds.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Plan {
    #[default]
    None,
    /// Round robin: players in Berger-number order (drawn by lot in round 1).
    RoundRobin { order: Vec<PlayerId>, double: bool },
    /// Knockout: this round's bracket, in match order.
    Knockout { matches: Vec<KnockoutMatch> },
}

/// A paired round, before it is stored as a draft.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Draft {
    pub round: u32,
    pub seed: u64,
    pub games: Vec<TableGame>,
    /// Players with a bye (at most one, except in a knockout's first rounds).
    pub byes: Vec<PlayerId>,
    /// Every lot drawn for this round, in order.
    pub draws: Vec<DrawRecord>,
    pub plan: Plan,
}

/// Everything [`plan_round`] needs.
pub struct RoundInput<'a> {
    pub system: System,
    pub settings: &'a p::Settings,
    /// Every entrant (withdrawn and absent ones too, so the history resolves), with their
    /// status for this round.
    pub players: &'a [Player],
    /// Games and byes of earlier rounds.
    pub history: &'a History,
    pub round: u32,
    pub seed: u64,
    /// Round robin: round 1's plan (the Berger order); knockout: the previous round's bracket.
    pub previous_plan: Option<&'a Plan>,
    /// Rounds the event declares (a round robin is double when it has room for two cycles).
    pub declared_rounds: u32,
    /// Komi of an even game, quarter stones.
    pub komi_q: i32,
}

/// Why a round cannot be paired.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    #[error("{0}")]
    Pairing(#[from] PairingError),
    #[error("fewer than two players take part in this round")]
    TooFew,
    #[error("the round robin has only {rounds} rounds")]
    RoundRobinOver { rounds: u32 },
    #[error("knockout matches {0:?} of the previous round are not decided")]
    KnockoutUndecided(Vec<u32>),
    #[error("the knockout is over")]
    KnockoutOver,
    #[error("the plan of an earlier round is missing")]
    NoPlan,
    #[error("this system is paired elsewhere")]
    Unsupported,
}

fn active(players: &[Player]) -> Vec<&Player> {
    players.iter().filter(|pl| pl.status == Status::Active).collect()
}

/// A stored round as the pairing of a round checks it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StoredRound {
    pub number: i32,
    pub published: bool,
    pub version: i32,
}

/// Why round `n` may not be paired now. Rounds are paired and published in order, and a
/// published pairing is locked: the players have it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PairRefusal {
    /// The round is published.
    Published,
    /// The draft was paired or edited since the page showing version `current` was read.
    Stale { current: i32 },
    /// Only round `next` can be paired.
    NotNext { next: i32 },
    /// Round `number`, earlier, is a draft: it is published (or deleted) first.
    PreviousDraft { number: i32 },
    /// The event declares `rounds` rounds.
    BeyondRounds { rounds: i32 },
}

/// Whether round `n` may be paired over the stored `rounds`: a new round (the next one), or
/// the draft of `expected_version` paired again; never beyond the `declared` rounds. Earlier
/// drafts refuse it unless `after_drafts` (a round-robin schedule drafts its rounds together).
pub fn may_pair(
    rounds: &[StoredRound],
    n: i32,
    declared: i32,
    expected_version: Option<i32>,
    after_drafts: bool,
) -> Result<(), PairRefusal> {
    match rounds.iter().find(|r| r.number == n) {
        Some(r) if r.published => return Err(PairRefusal::Published),
        Some(r) if expected_version != Some(r.version) => {
            return Err(PairRefusal::Stale { current: r.version })
        }
        Some(_) => {}
        None => {
            let next = rounds.iter().map(|r| r.number).max().unwrap_or(0) + 1;
            if n != next {
                return Err(PairRefusal::NotNext { next });
            }
        }
    }
    if !after_drafts {
        if let Some(d) = rounds.iter().find(|r| r.number < n && !r.published) {
            return Err(PairRefusal::PreviousDraft { number: d.number });
        }
    }
    if n > declared {
        return Err(PairRefusal::BeyondRounds { rounds: declared });
    }
    Ok(())
}

/// Pairs one round with the tournament's system.
pub fn plan_round(inp: &RoundInput<'_>) -> Result<Draft, PlanError> {
    if active(inp.players).len() < 2 {
        return Err(PlanError::TooFew);
    }
    match inp.system {
        System::Swiss => {
            let rp = swiss::pair_round(inp.players, inp.history, inp.settings, inp.round, inp.seed)?;
            Ok(from_engine(rp, inp.komi_q, inp.players, inp.settings.nigiri_rule()))
        }
        System::McMahon => {
            let rp = mcmahon::pair_round(inp.players, inp.history, inp.settings, inp.round, inp.seed)?;
            Ok(from_engine(rp, inp.komi_q, inp.players, inp.settings.nigiri_rule()))
        }
        System::RoundRobin => round_robin_round(inp),
        System::Knockout => knockout_round(inp),
        System::TeamRelay => Err(PlanError::Unsupported),
    }
}

/// The engine's round as table games.
fn from_engine(rp: RoundPairing, komi_q: i32, players: &[Player], rule: NigiriRule) -> Draft {
    let by_id: HashMap<PlayerId, &Player> = players.iter().map(|pl| (pl.id, pl)).collect();
    let games = rp
        .games
        .into_iter()
        .map(|g| {
            let (colours, nigiri) = match g.colours {
                ColourDecision::Balanced => (ColourSource::Balanced, None),
                ColourDecision::Lot => (ColourSource::Lot, None),
                ColourDecision::Handicap => (ColourSource::Handicap, None),
                ColourDecision::Table => (ColourSource::Table, None),
                ColourDecision::Nigiri { holder, guesser, outcome } => {
                    // The engine returns the roles without their reason; the rule gives it
                    // again (a lot decided exactly when the rule could not).
                    let reason = match (by_id.get(&holder), by_id.get(&guesser)) {
                        (Some(a), Some(b)) => nigiri::roles(a, b, rule, 0).0.reason,
                        _ => RoleReason::Lot,
                    };
                    (ColourSource::Nigiri, Some(NigiriState { holder, guesser, reason, record: outcome }))
                }
            };
            TableGame {
                table: g.table,
                black: g.black,
                white: g.white,
                handicap: g.handicap,
                colours,
                nigiri,
                komi_q: komi_for(g.handicap, komi_q),
            }
        })
        .collect();
    Draft {
        round: rp.round,
        seed: rp.seed,
        games,
        byes: rp.bye.into_iter().collect(),
        draws: rp.draws,
        plan: Plan::None,
    }
}

/// The seed of one table's nigiri lots (the tag the Swiss engine uses too).
pub fn table_seed(round_seed: u64, table: u32) -> u64 {
    derive_seed(round_seed, tags::nigiri(table))
}

/// Nigiri roles for a game under the event's `rule` (Art. 10, or the larger pairing number);
/// colours provisional (guesser Black) until the outcome.
pub fn assign_nigiri(
    g: &mut TableGame,
    a: &Player,
    b: &Player,
    rule: NigiriRule,
    round_seed: u64,
    draws: &mut Vec<DrawRecord>,
) {
    let assigned = nigiri::assign(a, b, rule, table_seed(round_seed, g.table), false);
    (g.black, g.white) = assigned.colours();
    draws.extend(assigned.draws);
    let roles = assigned.roles;
    g.colours = ColourSource::Nigiri;
    g.nigiri = Some(NigiriState {
        holder: roles.holder,
        guesser: roles.guesser,
        reason: roles.reason,
        record: None,
    });
}

/// Colours of games the system leaves open: nigiri roles, or one lot per table.
fn open_colours(
    inp: &RoundInput<'_>,
    games: &mut [TableGame],
    draws: &mut Vec<DrawRecord>,
    fixed_by_table: bool,
) {
    let by_id: HashMap<PlayerId, &Player> = inp.players.iter().map(|pl| (pl.id, pl)).collect();
    match inp.settings.colours {
        p::ColourMethod::Nigiri { .. } => {
            for g in games.iter_mut() {
                let (a, b) = (by_id[&g.black], by_id[&g.white]);
                assign_nigiri(g, a, b, inp.settings.nigiri_rule(), inp.seed, draws);
            }
        }
        _ if fixed_by_table => {}
        _ => {
            for g in games.iter_mut() {
                let lot_seed = derive_seed(inp.seed, tags::colours(g.table));
                let (a, b) = (by_id[&g.black].ticket(), by_id[&g.white].ticket());
                let (black, white, rec) = draw::colours_by_lot(a, b, lot_seed);
                (g.black, g.white) = (black, white);
                g.colours = ColourSource::Lot;
                draws.push(rec);
            }
        }
    }
}

fn round_robin_round(inp: &RoundInput<'_>) -> Result<Draft, PlanError> {
    let act: HashSet<PlayerId> = active(inp.players).iter().map(|pl| pl.id).collect();
    let mut draws = Vec::new();
    let plan = if inp.round == 1 {
        let tickets: Vec<_> = active(inp.players).iter().map(|pl| pl.ticket()).collect();
        let (order, rec) = round_robin::draw_numbers(&tickets, inp.seed);
        draws.push(rec);
        let n_even = order.len() + order.len() % 2;
        let double = inp.declared_rounds as usize >= 2 * (n_even - 1);
        Plan::RoundRobin { order, double }
    } else {
        match inp.previous_plan {
            Some(pl @ Plan::RoundRobin { .. }) => pl.clone(),
            _ => return Err(PlanError::NoPlan),
        }
    };
    let Plan::RoundRobin { order, double } = &plan else { return Err(PlanError::NoPlan) };
    let schedule = round_robin::schedule(order, *double, inp.seed);
    let Some(rp) = schedule.get(inp.round as usize - 1) else {
        return Err(PlanError::RoundRobinOver { rounds: schedule.len() as u32 });
    };
    let mut games = Vec::new();
    let mut byes = Vec::new();
    for g in &rp.games {
        // A withdrawn or absent player's game is not played; the opponent sits out.
        if act.contains(&g.black) && act.contains(&g.white) {
            games.push(TableGame {
                table: games.len() as u32 + 1,
                black: g.black,
                white: g.white,
                handicap: 0,
                colours: ColourSource::Table,
                nigiri: None,
                komi_q: inp.komi_q,
            });
        }
    }
    if let Some(b) = rp.bye.filter(|b| act.contains(b)) {
        byes.push(b);
    }
    open_colours(inp, &mut games, &mut draws, true);
    Ok(Draft { round: inp.round, seed: inp.seed, games, byes, draws, plan })
}

/// The outcome of a knockout match from the previous round's games.
fn match_outcome(m: &KnockoutMatch, round: u32, history: &History, players: &[Player]) -> MatchOutcome {
    let (Some(a), Some(b)) = (m.a, m.b) else { return MatchOutcome::Pending };
    let game = history
        .games
        .iter()
        .find(|g| g.round == round && p::ordered(g.black, g.white) == p::ordered(a.id, b.id));
    let Some(g) = game else {
        // No game: a withdrawn side loses the match.
        let gone = |id| players.iter().any(|pl| pl.id == id && pl.status == Status::Withdrawn);
        return match (gone(a.id), gone(b.id)) {
            (false, true) => MatchOutcome::AWins,
            (true, false) => MatchOutcome::BWins,
            (true, true) => MatchOutcome::DoubleLoss,
            _ => MatchOutcome::Pending,
        };
    };
    let winner = match g.result {
        GameResult::BlackWins | GameResult::BlackWinsByForfeit => Some(g.black),
        GameResult::WhiteWins | GameResult::WhiteWinsByForfeit => Some(g.white),
        GameResult::Draw => return MatchOutcome::Draw,
        GameResult::DoubleLoss | GameResult::DoubleForfeit => return MatchOutcome::DoubleLoss,
        GameResult::NoResult => return MatchOutcome::Pending,
    };
    if winner == Some(a.id) {
        MatchOutcome::AWins
    } else {
        MatchOutcome::BWins
    }
}

fn knockout_round(inp: &RoundInput<'_>) -> Result<Draft, PlanError> {
    let mut draws = Vec::new();
    let matches = if inp.round == 1 {
        // Seeds by strength: rank, then rating; equal players ordered by a recorded lot.
        let keyed: Vec<_> = active(inp.players)
            .iter()
            .map(|pl| (pl.ticket(), p::strength_key(pl, p::Round1Order::RankThenRating)))
            .collect();
        let lot_seed = derive_seed(inp.seed, tags::KNOCKOUT_SEEDING);
        let (seeded, rec) = draw::order_by_key(&keyed, Purpose::KnockoutSeeding, lot_seed, Stream::Knockout);
        draws.extend(rec);
        knockout::first_round(&seeded)
    } else {
        let Some(Plan::Knockout { matches }) = inp.previous_plan else { return Err(PlanError::NoPlan) };
        let outcomes: Vec<MatchOutcome> =
            matches.iter().map(|m| match_outcome(m, inp.round - 1, inp.history, inp.players)).collect();
        let numbers: HashMap<PlayerId, u32> = inp.players.iter().map(|pl| (pl.id, pl.number)).collect();
        let number = |id: PlayerId| numbers.get(&id).copied().unwrap_or(id);
        match knockout::next_round(matches, &outcomes, inp.settings.knockout, inp.seed, &number) {
            Ok((next, lots)) => {
                draws.extend(lots);
                next
            }
            Err(KnockoutError::Undecided(ix)) => {
                return Err(PlanError::KnockoutUndecided(ix.iter().map(|i| *i as u32 + 1).collect()))
            }
            Err(KnockoutError::Finished) => return Err(PlanError::KnockoutOver),
            Err(e) => return Err(PlanError::Pairing(PairingError::Invalid(e.to_string()))),
        }
    };
    let mut games = Vec::new();
    let mut byes = Vec::new();
    for m in &matches {
        match (m.a, m.b) {
            (Some(a), Some(b)) => games.push(TableGame {
                table: games.len() as u32 + 1,
                black: a.id,
                white: b.id,
                handicap: 0,
                colours: ColourSource::Lot,
                nigiri: None,
                komi_q: inp.komi_q,
            }),
            (Some(x), None) | (None, Some(x)) => byes.push(x.id),
            (None, None) => {}
        }
    }
    if games.is_empty() && matches.len() < 2 {
        return Err(PlanError::KnockoutOver);
    }
    open_colours(inp, &mut games, &mut draws, false);
    Ok(Draft { round: inp.round, seed: inp.seed, games, byes, draws, plan: Plan::Knockout { matches } })
}

/// The bracket seeds of a knockout plan, for display (player → seed).
pub fn knockout_seeds(plan: &Plan) -> HashMap<PlayerId, u32> {
    match plan {
        Plan::Knockout { matches } => {
            matches.iter().flat_map(|m| [m.a, m.b]).flatten().map(|Seeded { id, seed }| (id, seed)).collect()
        }
        _ => HashMap::new(),
    }
}

/// Points, pairing points and pairing score of every player before `round` (half points).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scores {
    /// As standings count them: never includes a double-loss nominal win.
    pub points: i32,
    /// `points` plus a nominal win drawn for the previous round's double loss (rules.md §12).
    pub pairing_points: i32,
    /// What the pairing compares: pairing points, or the McMahon score.
    pub score: i32,
}

impl Scores {
    /// The score as standings count it (points, or the McMahon score of those points): what
    /// is shown beside a name. The lot's nominal win is for the next pairing only, never for
    /// standings (seed 000 Art. 17.5's lot fallback; rules.md §12).
    pub fn real_score(&self) -> i32 {
        self.score - (self.pairing_points - self.points)
    }

    /// The pairing score includes a nominal win drawn for a double loss.
    pub fn nominal(&self) -> bool {
        self.pairing_points != self.points
    }
}

pub fn scores(
    system: System,
    players: &[Player],
    history: &History,
    settings: &p::Settings,
    round: u32,
    seed: u64,
) -> Result<HashMap<PlayerId, Scores>, PairingError> {
    let (recs, _) = p::records(players, history, settings, round, seed)?;
    let score = score_of(system, settings);
    Ok(players
        .iter()
        .map(|pl| {
            let r = &recs[&pl.id];
            (
                pl.id,
                Scores {
                    points: r.points,
                    pairing_points: r.pairing_points,
                    score: score(pl, r.pairing_points),
                },
            )
        })
        .collect())
}

/// Numbers the tables: higher score first, then the stronger player, then the lower id.
/// A game with a player who has a fixed table gets that table (the first such game in this
/// order when two ask for the same one); the other games take the numbers left, in order.
/// Returns the players whose fixed table could not be given.
pub fn number_tables(
    games: &mut [TableGame],
    score: &dyn Fn(PlayerId) -> i32,
    rank: &dyn Fn(PlayerId) -> i32,
    fixed: &HashMap<PlayerId, u32>,
) -> Vec<PlayerId> {
    games.sort_by(|x, y| {
        let key = |g: &TableGame| {
            (
                score(g.black).max(score(g.white)),
                rank(g.black).max(rank(g.white)),
                std::cmp::Reverse(g.black.min(g.white)),
            )
        };
        key(y).cmp(&key(x))
    });
    let mut taken: HashSet<u32> = HashSet::new();
    let mut assigned: Vec<Option<u32>> = vec![None; games.len()];
    let mut refused = Vec::new();
    for (i, g) in games.iter().enumerate() {
        let wants: Vec<(PlayerId, u32)> =
            [g.black, g.white].iter().filter_map(|id| fixed.get(id).map(|t| (*id, *t))).collect();
        let Some(&(_, want)) = wants.iter().min_by_key(|(_, t)| *t) else { continue };
        if taken.insert(want) {
            assigned[i] = Some(want);
            refused.extend(wants.iter().filter(|(_, t)| *t != want).map(|(id, _)| *id));
        } else {
            refused.extend(wants.iter().map(|(id, _)| *id));
        }
    }
    let mut next = 1u32;
    for (i, g) in games.iter_mut().enumerate() {
        g.table = match assigned[i] {
            Some(t) => t,
            None => {
                while taken.contains(&next) {
                    next += 1;
                }
                taken.insert(next);
                next
            }
        };
    }
    games.sort_by_key(|g| g.table);
    refused
}

/// Why a manual change is refused outright (not a warning: the round would be impossible).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EditError {
    /// The player has no game and no bye in this round.
    NotInRound(PlayerId),
    /// The same player twice.
    SamePlayer,
    NoSuchTable(u32),
    /// The player already plays at another table or has the bye.
    PairedTwice(PlayerId),
    /// More than 9 stones.
    Handicap,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Seat {
    Black(usize),
    White(usize),
    Bye(usize),
}

fn seat_of(games: &[TableGame], byes: &[PlayerId], id: PlayerId) -> Option<Seat> {
    for (i, g) in games.iter().enumerate() {
        if g.black == id {
            return Some(Seat::Black(i));
        }
        if g.white == id {
            return Some(Seat::White(i));
        }
    }
    byes.iter().position(|b| *b == id).map(Seat::Bye)
}

fn put(games: &mut [TableGame], byes: &mut [PlayerId], seat: Seat, id: PlayerId) {
    match seat {
        Seat::Black(i) => games[i].black = id,
        Seat::White(i) => games[i].white = id,
        Seat::Bye(i) => byes[i] = id,
    }
}

/// Exchanges the places of two players (their seats at two tables, or a seat and the bye; at
/// one table: the colours). Returns the tables whose pair changed; their colours become
/// manual (the caller gives nigiri events new nigiri roles).
pub fn swap_players(
    games: &mut [TableGame],
    byes: &mut [PlayerId],
    a: PlayerId,
    b: PlayerId,
) -> Result<Vec<u32>, EditError> {
    if a == b {
        return Err(EditError::SamePlayer);
    }
    let sa = seat_of(games, byes, a).ok_or(EditError::NotInRound(a))?;
    let sb = seat_of(games, byes, b).ok_or(EditError::NotInRound(b))?;
    put(games, byes, sa, b);
    put(games, byes, sb, a);
    let mut touched = Vec::new();
    for s in [sa, sb] {
        if let Seat::Black(i) | Seat::White(i) = s {
            let g = &mut games[i];
            if !touched.contains(&g.table) {
                touched.push(g.table);
                g.colours = ColourSource::Manual;
                g.nigiri = None;
            }
        }
    }
    Ok(touched)
}

/// Gives the games at `tables` (new pairs, after a swap) the handicap the event's rule gives
/// their players: the stones, the weaker player Black (colours "handicap", no nigiri) and no
/// komi; a pair the rule gives no stones plays even with `komi_q`. `score` is the pairing
/// score (as [`scores`] gives it). Without a handicap rule nothing changes.
pub fn apply_handicap_rule(
    games: &mut [TableGame],
    tables: &[u32],
    players: &[Player],
    settings: &p::Settings,
    score: &dyn Fn(PlayerId) -> i32,
    komi_q: i32,
) {
    use super::pairing::weights::{a_takes_black, handicap_stones, HandicapSide};
    if settings.handicap == p::HandicapRule::None {
        return;
    }
    let by_id: HashMap<PlayerId, &Player> = players.iter().map(|pl| (pl.id, pl)).collect();
    let side = |id: PlayerId| {
        by_id.get(&id).map(|pl| HandicapSide {
            rank_value: pl.rank_value,
            score: score(id),
            above_bar: pl.rank_value >= settings.mcmahon.bar,
        })
    };
    for g in games.iter_mut().filter(|g| tables.contains(&g.table)) {
        let (Some(b), Some(w)) = (side(g.black), side(g.white)) else { continue };
        let h = handicap_stones(settings.handicap, b, w);
        if h > 0 {
            if !a_takes_black(settings.handicap, b, w) {
                (g.black, g.white) = (g.white, g.black);
            }
            g.colours = ColourSource::Handicap;
            g.nigiri = None;
        }
        g.handicap = h;
        g.komi_q = komi_for(h, komi_q);
    }
}

/// Sets the players and handicap of one table. Players displaced from it are left unpaired
/// (the review says so); a player who plays elsewhere or has the bye is refused.
pub fn edit_table(
    games: &mut [TableGame],
    byes: &[PlayerId],
    table: u32,
    black: PlayerId,
    white: PlayerId,
    handicap: u8,
    komi_q: i32,
) -> Result<(), EditError> {
    if black == white {
        return Err(EditError::SamePlayer);
    }
    if handicap > 9 {
        return Err(EditError::Handicap);
    }
    let i = games.iter().position(|g| g.table == table).ok_or(EditError::NoSuchTable(table))?;
    for id in [black, white] {
        match seat_of(games, byes, id) {
            Some(Seat::Black(j) | Seat::White(j)) if j != i => return Err(EditError::PairedTwice(id)),
            Some(Seat::Bye(_)) => return Err(EditError::PairedTwice(id)),
            _ => {}
        }
    }
    let g = &mut games[i];
    let same = (g.black, g.white, g.handicap) == (black, white, handicap);
    if !same {
        let same_pair = p::ordered(g.black, g.white) == p::ordered(black, white);
        g.black = black;
        g.white = white;
        g.handicap = handicap;
        g.komi_q = komi_for(handicap, komi_q);
        g.colours = ColourSource::Manual;
        if !same_pair {
            g.nigiri = None;
        } else if let Some(n) = &g.nigiri {
            // The same pair with colours set by hand: the nigiri no longer decides them.
            if n.record.is_none() {
                g.nigiri = None;
            }
        }
    }
    Ok(())
}

/// Review warnings of a round (the engine's or edited), as [`review::review`] lists them,
/// adapted to the system: a knockout round involves only the players of its bracket, and
/// more than one bye is normal there.
#[allow(clippy::too_many_arguments)]
pub fn review(
    system: System,
    players: &[Player],
    history: &History,
    settings: &p::Settings,
    round: u32,
    seed: u64,
    games: &[TableGame],
    byes: &[PlayerId],
) -> Result<Vec<Warning>, PairingError> {
    let mut players = players.to_vec();
    let mut bye = byes.first().copied();
    if system == System::Knockout {
        let in_round: HashSet<PlayerId> = games.iter().flat_map(|g| [g.black, g.white]).collect();
        for pl in players.iter_mut() {
            if !in_round.contains(&pl.id) && pl.status == Status::Active {
                pl.status = Status::Absent;
            }
        }
        bye = None;
    }
    let rp = RoundPairing {
        round,
        games: games.iter().map(TableGame::as_pairing).collect(),
        bye,
        seed,
        draws: Vec::new(),
    };
    let score = score_of(system, settings);
    review::review(&players, history, settings, &rp, &score)
}

/// A warning that would make the round impossible rather than merely unusual.
pub fn is_structural(w: &Warning) -> bool {
    matches!(w, Warning::PairedTwice { .. } | Warning::UnknownPlayer { .. })
}

/// One criterion of an explained pair.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Term {
    pub criterion: Criterion,
    /// Signed weight (the sum of all terms is the pair's weight).
    pub weight: i128,
    /// The penalty in the criterion's own units (weight ÷ multiplier), when it has one.
    pub penalty: Option<i128>,
}

/// What the engine saw of one side of a pair.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SideInfo {
    pub id: PlayerId,
    pub score: i32,
    pub colour_balance: i32,
    pub last_colours: Vec<p::Colour>,
    pub bye_place: u32,
    /// `score` includes a nominal win drawn for a double loss (pairing only).
    pub nominal: bool,
}

/// Why the engine weighs a pair as it does.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Explanation {
    pub a: SideInfo,
    /// `None`: the pair of `a` with the bye.
    pub b: Option<SideInfo>,
    pub terms: Vec<Term>,
    pub total: i128,
    /// Games `a` and `b` already played.
    pub met: u8,
}

/// The weights of pair (a, b) — or of `a` with the bye when `b` is `None` — in the weighted
/// engine for `round`. `None` when the round is not paired by weights (Swiss round 1, round
/// robin, knockout) or a player is not in the field.
#[allow(clippy::too_many_arguments)]
pub fn explain(
    system: System,
    players: &[Player],
    history: &History,
    settings: &p::Settings,
    round: u32,
    seed: u64,
    a: PlayerId,
    b: Option<PlayerId>,
) -> Result<Option<Explanation>, PairingError> {
    let weighted = match system {
        System::Swiss => round > 1,
        System::McMahon => true,
        _ => false,
    };
    if !weighted {
        return Ok(None);
    }
    let score = score_of(system, settings);
    let (field, _) = swiss::build_field(players, history, settings, round, seed, &score)?;
    let index = |id: Option<PlayerId>| field.vertices.iter().position(|v| v.id == id);
    let (Some(ia), Some(ib)) = (index(Some(a)), index(b)) else { return Ok(None) };
    let s = field.scale;
    let terms: Vec<Term> = field
        .explain(ia, ib)
        .into_iter()
        .map(|(criterion, weight)| {
            let mult = match criterion {
                Criterion::Base => None,
                Criterion::Rematch | Criterion::Forbidden => Some(s.rematch),
                Criterion::Bye => Some(s.bye),
                Criterion::SameUnitHard => Some(s.unit_hard),
                Criterion::ScoreGap => Some(s.score),
                Criterion::SameUnitSoft => Some(s.unit_soft),
                Criterion::Handicap => Some(s.handicap),
                Criterion::Colour => Some(s.colour),
            };
            Term { criterion, weight, penalty: mult.map(|m| -weight / m) }
        })
        .collect();
    let (recs, _) = p::records(players, history, settings, round, seed)?;
    let side = |i: usize| {
        let v = &field.vertices[i];
        let id = v.id.unwrap_or_default();
        let colours = recs.get(&id).map(|r| r.colours.clone()).unwrap_or_default();
        SideInfo {
            id,
            score: v.score,
            colour_balance: v.colour.balance,
            last_colours: colours.iter().rev().take(3).rev().copied().collect(),
            bye_place: v.bye_place,
            nominal: recs.get(&id).is_some_and(|r| r.pairing_points != r.points),
        }
    };
    let met = match b {
        Some(b) => *field.met.get(&p::ordered(a, b)).unwrap_or(&0),
        None => 0,
    };
    Ok(Some(Explanation {
        a: side(ia),
        b: b.map(|_| side(ib)),
        total: terms.iter().map(|t| t.weight).sum(),
        terms,
        met,
    }))
}

/// The double-loss lots among a round's draws: (one player, the other, nominal winner, the
/// record) of each double loss of the previous round, as players (the record names pairing
/// numbers; `players` maps them back).
pub fn double_loss_lots(
    draws: &[DrawRecord],
    players: &[Player],
) -> Vec<(PlayerId, PlayerId, PlayerId, DrawRecord)> {
    let by_number: HashMap<u32, PlayerId> = players.iter().map(|pl| (pl.number, pl.id)).collect();
    let id = |n: &u32| by_number.get(n).copied();
    draws
        .iter()
        .filter(|d| matches!(d.purpose, Purpose::DoubleLoss { .. }))
        .filter_map(|d| match (&d.candidates[..], &d.outcome[..]) {
            ([a, b], [w]) => Some((id(a)?, id(b)?, id(w)?, d.clone())),
            _ => None,
        })
        .collect()
}

/// Replays stored lots: for each record, `Some(true)` when its seed, stream and candidates
/// give its outcome again under its purpose's method ([`DrawRecord::replays`]; every kind:
/// round-1 order and halves, score groups, byes among equals, colours by lot, nigiri
/// holders and remote nigiri, Berger numbers, knockout seeding and lots, double-loss lots),
/// `Some(false)` when they do not, `None` for records stored before purposes were typed.
pub fn replay_all(draws: &[DrawRecord]) -> Vec<Option<bool>> {
    draws.iter().map(DrawRecord::replays).collect()
}

/// [`replay_all`] of one record.
pub fn replays(d: &DrawRecord) -> Option<bool> {
    d.replays()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pairing::PlayedGame;

    /// Rounds are paired and published in order, and a published pairing is locked (the
    /// round workflow's rule): the next round or the current draft of the page's version, no
    /// round after a draft (unless a round-robin schedule), none beyond the declared rounds.
    #[test]
    fn rounds_are_paired_in_order_and_a_published_pairing_is_locked() {
        let r = |number, published, version| StoredRound { number, published, version };
        let done = [r(1, true, 3), r(2, false, 2)];
        assert_eq!(may_pair(&done, 1, 5, Some(3), false), Err(PairRefusal::Published));
        assert_eq!(may_pair(&done, 2, 5, Some(1), false), Err(PairRefusal::Stale { current: 2 }));
        assert_eq!(may_pair(&done, 2, 5, None, false), Err(PairRefusal::Stale { current: 2 }));
        assert_eq!(may_pair(&done, 2, 5, Some(2), false), Ok(()));
        assert_eq!(may_pair(&done, 4, 5, None, false), Err(PairRefusal::NotNext { next: 3 }));
        assert_eq!(may_pair(&done, 3, 5, None, false), Err(PairRefusal::PreviousDraft { number: 2 }));
        assert_eq!(may_pair(&done, 3, 5, None, true), Ok(()));
        assert_eq!(may_pair(&done, 3, 2, None, true), Err(PairRefusal::BeyondRounds { rounds: 2 }));
        assert_eq!(may_pair(&[], 1, 5, None, false), Ok(()));
        assert_eq!(may_pair(&[], 1, 0, None, false), Err(PairRefusal::BeyondRounds { rounds: 0 }));
    }
    use crate::settings::{ByeValue, PointsScale};

    fn players(n: u32) -> Vec<Player> {
        (1..=n)
            .map(|i| {
                let mut pl = Player::new(i, 5 - i as i32);
                pl.birth_date = Some(1000 + i as i32);
                pl
            })
            .collect()
    }

    fn input<'a>(
        system: System,
        settings: &'a p::Settings,
        players: &'a [Player],
        history: &'a History,
        round: u32,
        plan: Option<&'a Plan>,
    ) -> RoundInput<'a> {
        RoundInput {
            system,
            settings,
            players,
            history,
            round,
            seed: 99,
            previous_plan: plan,
            declared_rounds: 7,
            komi_q: 15,
        }
    }

    fn defaults() -> TournamentSettings {
        TournamentSettings::defaults(
            chrono::NaiveDate::from_ymd_opt(2026, 12, 5).unwrap(),
            crate::event_time::EventZone::default(),
        )
    }

    #[test]
    fn settings_follow_the_tournament() {
        let mut t = defaults();
        let s = pairing_settings(&t);
        assert_eq!(s.points, p::PointsScale::TWO_ONE_ZERO);
        assert!(s.double_loss_lot, "decisions table: the lot fallback is the default");
        assert_eq!(s.same_unit_rounds, 1);
        assert!(matches!(s.colours, p::ColourMethod::Nigiri { remote: false, .. }));
        t.bye_value = ByeValue::Draw;
        t.points_scale = PointsScale::OneHalfZero;
        t.double_loss = DoubleLoss::Native;
        t.same_unit = SameUnit::All;
        t.colour_method = ColourMethod::Balanced;
        let s = pairing_settings(&t);
        assert_eq!((s.points.bye, s.points.win, s.warn_score_gap), (1, 2, 2));
        assert!(!s.double_loss_lot);
        assert_eq!(s.same_unit_rounds, u32::MAX);
        t.system = System::RoundRobin;
        t.double_loss = DoubleLoss::Lot;
        assert!(!pairing_settings(&t).double_loss_lot, "round robin does not pair by score");
    }

    #[test]
    fn pairing_rules_map_into_the_engines() {
        use crate::entrant::Rank;
        use crate::settings::{HandicapBasis, KnockoutResolution, NigiriHolder};
        let mut t = defaults();
        let s = pairing_settings(&t);
        // The defaults are the engine's own: nothing changes for stored tournaments.
        assert_eq!(s.mcmahon, p::McMahonSettings::default());
        assert_eq!(s.handicap, p::HandicapRule::None);
        assert_eq!(s.warn_handicap, p::Settings::default().warn_handicap);
        assert_eq!(s.knockout, KnockoutRules::default());
        assert_eq!(s.nigiri_rule(), NigiriRule::Art10);
        assert_eq!(s.same_unit_barred_rounds, 0, "同单位回避 as a constraint is off by default");
        t.pairing.unit_barred = 2;
        assert_eq!(pairing_settings(&t).same_unit_barred_rounds, 2);
        t.pairing.unit_barred = 0;

        t.system = System::McMahon;
        t.pairing.mcmahon.bar = Rank::Dan(2);
        t.pairing.mcmahon.floor = Rank::Kyu(10);
        t.pairing.handicap.basis = HandicapBasis::Rank;
        t.pairing.handicap.reduction = 2;
        t.pairing.handicap.max = 5;
        t.pairing.handicap.none_at_bar = true;
        t.pairing.nigiri = NigiriHolder::LargerNumber;
        t.pairing.knockout.on_draw = KnockoutResolution::HigherSeed;
        t.pairing.knockout.on_double_loss = KnockoutResolution::Lot;
        let s = pairing_settings(&t);
        assert_eq!(s.mcmahon, p::McMahonSettings { bar: 1, floor: -10 });
        assert_eq!(
            s.handicap,
            p::HandicapRule::RankDifference { reduction: 2, max: 5, below_bar_only: true }
        );
        assert_eq!(s.warn_handicap, 5, "the review warns above the rule's maximum");
        assert_eq!(s.nigiri_rule(), NigiriRule::PairingNumber);
        assert_eq!(
            s.knockout,
            KnockoutRules {
                on_draw: knockout::Resolution::HigherSeedAdvances,
                on_double_loss: knockout::Resolution::Lot
            }
        );
        t.pairing.handicap.basis = HandicapBasis::McMahonScore;
        t.points_scale = PointsScale::ThreeOneZero;
        assert_eq!(
            pairing_settings(&t).handicap,
            p::HandicapRule::ScoreDifference { reduction: 2, max: 5, below_bar_only: true, per_stone: 6 },
            "one win of McMahon score per stone"
        );
        // Handicaps only where Swiss or McMahon pair (the settings' check refuses the rest).
        t.system = System::Swiss;
        assert_eq!(pairing_settings(&t).handicap, p::HandicapRule::None);
        t.pairing.handicap.basis = HandicapBasis::Rank;
        assert!(matches!(pairing_settings(&t).handicap, p::HandicapRule::RankDifference { .. }));
        t.system = System::RoundRobin;
        assert_eq!(pairing_settings(&t).handicap, p::HandicapRule::None);
    }

    /// Ranks 3d, 1d, 1k, 3k, 5k, 7k (ids 1..=6), everyone born on a different day.
    fn handicap_field() -> Vec<Player> {
        [2, 0, -1, -3, -5, -7]
            .iter()
            .enumerate()
            .map(|(i, &r)| {
                let mut pl = Player::new(i as u32 + 1, r);
                pl.birth_date = Some(1000 + i as i32);
                pl
            })
            .collect()
    }

    #[test]
    fn mcmahon_games_get_the_rules_handicap_and_komi() {
        use crate::entrant::Rank;
        use crate::settings::HandicapBasis;
        let pl = handicap_field();
        let mut t = defaults();
        t.system = System::McMahon;
        t.pairing.mcmahon.bar = Rank::Dan(9);
        t.pairing.mcmahon.floor = Rank::Kyu(30);
        t.pairing.handicap.basis = HandicapBasis::Rank;
        t.pairing.handicap.reduction = 1;
        t.pairing.handicap.max = 2;
        let s = pairing_settings(&t);
        let h = History::default();
        let d = plan_round(&input(System::McMahon, &s, &pl, &h, 1, None)).unwrap();
        assert_eq!(d.games.len(), 3);
        let rank = |id: PlayerId| pl[id as usize - 1].rank_value;
        let mut stones = Vec::new();
        for g in &d.games {
            let want = ((rank(g.black) - rank(g.white)).abs() - 1).clamp(0, 2) as u8;
            assert_eq!(g.handicap, want, "difference − 1, at most 2: {g:?}");
            if want > 0 {
                assert!(rank(g.black) < rank(g.white), "the weaker takes Black: {g:?}");
                assert_eq!((g.colours, g.komi_q), (ColourSource::Handicap, 0), "no komi: {g:?}");
                assert!(g.nigiri.is_none());
            } else {
                assert_eq!((g.colours, g.komi_q), (ColourSource::Nigiri, 15), "{g:?}");
            }
            stones.push(g.handicap);
        }
        // Every rank is one McMahon group: pairs of neighbours, two ranks apart at most.
        stones.sort();
        assert!(stones.iter().any(|&x| x > 0), "{stones:?}");
        let w = review(System::McMahon, &pl, &h, &s, 1, 99, &d.games, &d.byes).unwrap();
        let about_handicaps =
            |w: &Warning| matches!(w, Warning::HandicapNotRule { .. } | Warning::LargeHandicap { .. });
        assert!(!w.iter().any(about_handicaps), "the engine's own handicaps raise no warning: {w:?}");
        // Swapping players makes new pairs: they get the rule's handicap too.
        let mut games = d.games.clone();
        let mut byes = d.byes.clone();
        let touched = swap_players(&mut games, &mut byes, 1, 6).unwrap();
        let scores = scores(System::McMahon, &pl, &h, &s, 1, 99).unwrap();
        let w = review(System::McMahon, &pl, &h, &s, 1, 99, &games, &byes).unwrap();
        assert!(w.iter().any(|w| matches!(w, Warning::HandicapNotRule { .. })), "{w:?}");
        apply_handicap_rule(&mut games, &touched, &pl, &s, &|id| scores[&id].score, 15);
        let g = games.iter().find(|g| [g.black, g.white].contains(&1)).unwrap();
        assert_eq!((g.handicap, g.komi_q, g.colours), (2, 0, ColourSource::Handicap), "capped at 2");
        assert_eq!(g.white, 1, "the 3d gives the stones");
        let w = review(System::McMahon, &pl, &h, &s, 1, 99, &games, &byes).unwrap();
        assert!(!w.iter().any(about_handicaps), "{w:?}");
    }

    #[test]
    fn nigiri_holder_follows_the_setting() {
        use crate::settings::NigiriHolder;
        // Swiss round 1 by rating: 1 (3d, oldest) … 6 (7k, youngest).
        let pl = handicap_field();
        let h = History::default();
        let mut t = defaults();
        let s = pairing_settings(&t);
        let d = plan_round(&input(System::Swiss, &s, &pl, &h, 1, None)).unwrap();
        for g in &d.games {
            let n = g.nigiri.as_ref().unwrap();
            assert_eq!(n.reason, RoleReason::HigherRank);
            assert!(pl[n.holder as usize - 1].rank_value > pl[n.guesser as usize - 1].rank_value);
            assert_eq!((g.black, g.white), (n.guesser, n.holder), "provisional: guesser Black");
        }
        t.pairing.nigiri = NigiriHolder::LargerNumber;
        let s = pairing_settings(&t);
        let d = plan_round(&input(System::Swiss, &s, &pl, &h, 1, None)).unwrap();
        for g in &d.games {
            let n = g.nigiri.as_ref().unwrap();
            assert_eq!(n.reason, RoleReason::LargerPairingNumber);
            assert!(n.holder > n.guesser, "the larger number holds: {n:?}");
            // A remote nigiri keeps those roles.
            let roles = nigiri::NigiriRoles { holder: n.holder, guesser: n.guesser, reason: n.reason };
            let rec = nigiri::perform(roles, table_seed(d.seed, g.table));
            assert_eq!((rec.holder, rec.guesser), (n.holder, n.guesser));
        }
        // Equal ranks: Art. 10 gives the stones to the older player; the variant ignores age.
        let mut twins = [Player::new(1, 0), Player::new(2, 0)];
        twins[0].birth_date = Some(9000);
        twins[1].birth_date = Some(7000);
        let mut g = TableGame {
            table: 1,
            black: 1,
            white: 2,
            handicap: 0,
            colours: ColourSource::Manual,
            nigiri: None,
            komi_q: 15,
        };
        let mut draws = Vec::new();
        assign_nigiri(&mut g, &twins[0], &twins[1], NigiriRule::Art10, 5, &mut draws);
        let n = g.nigiri.clone().unwrap();
        assert_eq!((n.holder, n.reason), (2, RoleReason::Older));
        assign_nigiri(&mut g, &twins[0], &twins[1], NigiriRule::PairingNumber, 5, &mut draws);
        let n = g.nigiri.unwrap();
        assert_eq!((n.holder, n.guesser, n.reason), (2, 1, RoleReason::LargerPairingNumber));
        assert!(draws.is_empty(), "no lot needed");
    }

    #[test]
    fn knockout_draw_and_double_loss_follow_the_setting() {
        use crate::settings::KnockoutResolution as K;
        let pl = players(4);
        let mut t = defaults();
        t.system = System::Knockout;
        t.colour_method = ColourMethod::Lots;
        let h0 = History::default();
        let plan1 = plan_round(&input(System::Knockout, &pairing_settings(&t), &pl, &h0, 1, None)).unwrap();
        // Seeds by rank: 1 v 4 and 2 v 3. The first is drawn, the second a double loss.
        let mut h = History::default();
        for g in &plan1.games {
            let result =
                if [g.black, g.white].contains(&1) { GameResult::Draw } else { GameResult::DoubleLoss };
            h.games.push(PlayedGame::new(1, g.black, g.white, result));
        }
        let next = |on_draw, on_double_loss| {
            let mut t = t.clone();
            t.pairing.knockout.on_draw = on_draw;
            t.pairing.knockout.on_double_loss = on_double_loss;
            let s = pairing_settings(&t);
            plan_round(&input(System::Knockout, &s, &pl, &h, 2, Some(&plan1.plan)))
        };
        // The defaults: the draw is replayed, so round 2 waits for it.
        assert_eq!(next(K::Replay, K::BothOut), Err(PlanError::KnockoutUndecided(vec![1])));
        // The higher seed advances from the draw; both out from the double loss: seed 1 wins
        // the final by walkover, and the knockout is over.
        assert_eq!(next(K::HigherSeed, K::BothOut), Err(PlanError::KnockoutOver));
        // The higher seed from both: the final is seeds 1 and 2.
        let d = next(K::HigherSeed, K::HigherSeed).unwrap();
        assert_eq!(d.games.len(), 1);
        let mut finalists = [d.games[0].black, d.games[0].white];
        finalists.sort();
        assert_eq!(finalists, [1, 2]);
        // A lot for the double loss: recorded and replayable.
        let d = next(K::HigherSeed, K::Lot).unwrap();
        let lot = d.draws.iter().find(|x| x.purpose == Purpose::KnockoutMatch { number: 2 });
        let lot = lot.expect("the lot is recorded");
        assert_eq!(replays(lot), Some(true));
        assert!([2, 3].contains(&lot.outcome[0]));
    }

    #[test]
    fn late_entrants_start_with_the_setting_per_missed_round() {
        let pts = p::PointsScale::TWO_ONE_ZERO;
        assert_eq!(entry_points(1, LateEntry::Win, &pts), 0);
        assert_eq!(entry_points(3, LateEntry::Loss, &pts), 0);
        assert_eq!(entry_points(3, LateEntry::Draw, &pts), 4);
        assert_eq!(entry_points(3, LateEntry::Win, &pts), 8);
    }

    fn g(table: u32, black: PlayerId, white: PlayerId) -> TableGame {
        TableGame { table, black, white, handicap: 0, colours: ColourSource::Lot, nigiri: None, komi_q: 15 }
    }

    #[test]
    fn tables_by_score_then_rank_with_fixed_tables() {
        // Scores: 1,2 → 4; 3,4 → 2; 5,6 → 2 (stronger); 7,8 → 0.
        let score = |id: PlayerId| match id {
            1 | 2 => 4,
            3..=6 => 2,
            _ => 0,
        };
        let rank = |id: PlayerId| if id == 5 { 3 } else { 0 };
        let mut games = vec![g(1, 7, 8), g(2, 3, 4), g(3, 5, 6), g(4, 1, 2)];
        let refused = number_tables(&mut games, &score, &rank, &HashMap::new());
        assert!(refused.is_empty());
        let order: Vec<PlayerId> = games.iter().map(|g| g.black).collect();
        assert_eq!(order, vec![1, 5, 3, 7]);
        assert_eq!(games.iter().map(|g| g.table).collect::<Vec<_>>(), vec![1, 2, 3, 4]);
        // Players 4 and 8 both ask for table 1: 4's game comes first in table order, so 8 is
        // refused; 6 wants table 10 (beyond the four games: numbers need not be contiguous).
        let fixed = HashMap::from([(8, 1), (4, 1), (6, 10)]);
        let refused = number_tables(&mut games, &score, &rank, &fixed);
        assert_eq!(refused, vec![8]);
        let at = |t: u32| games.iter().find(|g| g.table == t).map(|g| g.black);
        assert_eq!(at(1), Some(3));
        assert_eq!(at(10), Some(5));
        assert_eq!(at(2), Some(1));
        assert_eq!(at(3), Some(7));
        assert_eq!(games.iter().map(|g| g.table).collect::<Vec<_>>(), vec![1, 2, 3, 10]);
    }

    #[test]
    fn swaps_and_edits() {
        let mut games = vec![g(1, 1, 2), g(2, 3, 4)];
        let mut byes = vec![5];
        assert_eq!(swap_players(&mut games, &mut byes, 2, 3), Ok(vec![1, 2]));
        assert_eq!((games[0].black, games[0].white, games[1].black), (1, 3, 2));
        assert_eq!(games[0].colours, ColourSource::Manual);
        assert_eq!(swap_players(&mut games, &mut byes, 4, 5), Ok(vec![2]));
        assert_eq!((games[1].white, byes[0]), (5, 4));
        assert_eq!(swap_players(&mut games, &mut byes, 1, 3), Ok(vec![1]), "same table: colours");
        assert_eq!((games[0].black, games[0].white), (3, 1));
        assert_eq!(swap_players(&mut games, &mut byes, 1, 9), Err(EditError::NotInRound(9)));
        assert_eq!(swap_players(&mut games, &mut byes, 1, 1), Err(EditError::SamePlayer));
        assert_eq!(edit_table(&mut games, &byes, 1, 3, 2, 0, 15), Err(EditError::PairedTwice(2)));
        assert_eq!(edit_table(&mut games, &byes, 1, 3, 4, 0, 15), Err(EditError::PairedTwice(4)));
        assert_eq!(edit_table(&mut games, &byes, 7, 3, 1, 0, 15), Err(EditError::NoSuchTable(7)));
        assert_eq!(edit_table(&mut games, &byes, 1, 1, 3, 2, 15), Ok(()));
        assert_eq!((games[0].black, games[0].white, games[0].handicap, games[0].komi_q), (1, 3, 2, 0));
    }

    #[test]
    fn swiss_round_one_is_the_engines() {
        let pl = players(8);
        let s = pairing_settings(&defaults());
        let h = History::default();
        let d = plan_round(&input(System::Swiss, &s, &pl, &h, 1, None)).unwrap();
        let rp = swiss::pair_round(&pl, &h, &s, 1, 99).unwrap();
        assert_eq!(d.games.len(), 4);
        for (a, b) in d.games.iter().zip(&rp.games) {
            assert_eq!((a.black, a.white), (b.black, b.white));
            assert_eq!(a.colours, ColourSource::Nigiri, "the default colour method is nigiri");
            assert!(!a.colours_known());
        }
        assert_eq!(d.draws, rp.draws);
        let again = plan_round(&input(System::Swiss, &s, &pl, &h, 1, None)).unwrap();
        assert_eq!(d, again, "same seed, same draft");
        let mut one = pl.clone();
        for x in one.iter_mut().skip(1) {
            x.status = Status::Absent;
        }
        assert_eq!(plan_round(&input(System::Swiss, &s, &one, &h, 1, None)), Err(PlanError::TooFew));
    }

    #[test]
    fn round_robin_from_berger_tables() {
        let pl = players(5);
        let mut t = defaults();
        t.system = System::RoundRobin;
        t.colour_method = ColourMethod::Balanced;
        let s = pairing_settings(&t);
        let h = History::default();
        let d1 = plan_round(&input(System::RoundRobin, &s, &pl, &h, 1, None)).unwrap();
        let Plan::RoundRobin { order, double } = &d1.plan else { panic!("{:?}", d1.plan) };
        assert_eq!(order.len(), 5);
        assert!(!double, "7 rounds < 2 × 5");
        let mut met = HashSet::new();
        let mut byes = Vec::new();
        for r in 1..=5 {
            let d = plan_round(&input(System::RoundRobin, &s, &pl, &h, r, Some(&d1.plan))).unwrap();
            assert_eq!(d.games.len(), 2);
            byes.extend(d.byes.clone());
            for g in &d.games {
                assert!(met.insert(p::ordered(g.black, g.white)), "each pair once");
            }
        }
        byes.sort();
        assert_eq!(byes, vec![1, 2, 3, 4, 5], "everyone sits out once");
        assert_eq!(
            plan_round(&input(System::RoundRobin, &s, &pl, &h, 6, Some(&d1.plan))),
            Err(PlanError::RoundRobinOver { rounds: 5 })
        );
        // A withdrawn player's games are not played.
        let mut w = pl.clone();
        w[0].status = Status::Withdrawn;
        let d = plan_round(&input(System::RoundRobin, &s, &w, &h, 2, Some(&d1.plan))).unwrap();
        assert!(d.games.iter().all(|g| g.black != 1 && g.white != 1));
    }

    #[test]
    fn knockout_winners_advance() {
        let pl = players(6);
        let mut t = defaults();
        t.system = System::Knockout;
        t.colour_method = ColourMethod::Lots;
        let s = pairing_settings(&t);
        let mut h = History::default();
        let d1 = plan_round(&input(System::Knockout, &s, &pl, &h, 1, None)).unwrap();
        assert_eq!((d1.games.len(), d1.byes.len()), (2, 2), "byes to the two top seeds");
        assert_eq!(d1.byes, vec![1, 2]);
        let undecided = plan_round(&input(System::Knockout, &s, &pl, &h, 2, Some(&d1.plan)));
        assert_eq!(undecided, Err(PlanError::KnockoutUndecided(vec![2, 4])));
        for g in &d1.games {
            h.games.push(PlayedGame::new(1, g.black, g.white, GameResult::WhiteWins));
        }
        let d2 = plan_round(&input(System::Knockout, &s, &pl, &h, 2, Some(&d1.plan))).unwrap();
        assert_eq!(d2.games.len(), 2);
        let winners: HashSet<PlayerId> = d1.games.iter().map(|g| g.white).collect();
        for g in &d2.games {
            assert!([g.black, g.white].iter().any(|x| [1, 2].contains(x)));
            assert!([g.black, g.white].iter().any(|x| winners.contains(x)));
        }
    }

    #[test]
    fn review_and_explain_after_a_manual_rematch() {
        let pl = players(4);
        let mut t = defaults();
        t.colour_method = ColourMethod::Balanced;
        let s = pairing_settings(&t);
        let mut h = History::default();
        h.games.push(PlayedGame::new(1, 1, 2, GameResult::BlackWins));
        h.games.push(PlayedGame::new(1, 3, 4, GameResult::BlackWins));
        let d = plan_round(&input(System::Swiss, &s, &pl, &h, 2, None)).unwrap();
        let w = review(System::Swiss, &pl, &h, &s, 2, 99, &d.games, &d.byes).unwrap();
        assert!(w.iter().all(|w| !matches!(w, Warning::Rematch { .. })), "{w:?}");
        let mut games = d.games.clone();
        let mut byes = d.byes.clone();
        // Put 2 where 1's opponent sits: 1 meets 2 again.
        let opp = games.iter().find_map(|g| match (g.black, g.white) {
            (1, x) | (x, 1) => Some(x),
            _ => None,
        });
        swap_players(&mut games, &mut byes, opp.unwrap(), 2).unwrap();
        let w = review(System::Swiss, &pl, &h, &s, 2, 99, &games, &byes).unwrap();
        assert!(w.iter().any(|w| matches!(w, Warning::Rematch { times: 1, .. })), "{w:?}");
        let e = explain(System::Swiss, &pl, &h, &s, 2, 99, 1, Some(2)).unwrap().unwrap();
        let rematch = e.terms.iter().find(|t| t.criterion == Criterion::Rematch).unwrap();
        assert_eq!((rematch.penalty, e.met), (Some(1), 1));
        assert_eq!(e.total, e.terms.iter().map(|t| t.weight).sum::<i128>());
        assert!(explain(System::Swiss, &pl, &h, &s, 1, 99, 1, Some(2)).unwrap().is_none());
    }

    /// Every kind of lot the pairing draws, from events where each is needed; every record
    /// names pairing numbers and replays from itself.
    fn every_kind_of_lot() -> Vec<DrawRecord> {
        // Pairing numbers 101.. for ids 1..: records must name the numbers.
        let numbered = |mut pl: Vec<Player>| {
            for x in pl.iter_mut() {
                x.number = x.id + 100;
            }
            pl
        };
        // Round 1, equal ranks, no birth dates: order, halves, nigiri holders by lot.
        let mut pl = numbered((1..=9).map(|i| Player::new(i, 0)).collect());
        pl[0].rank_value = 3;
        let mut t = defaults();
        let s = pairing_settings(&t);
        let h = History::default();
        let mut all = plan_round(&input(System::Swiss, &s, &pl, &h, 1, None)).unwrap().draws;
        // Round 2 after draws and a double loss: score groups, the bye, the double-loss lot;
        // colours by lot.
        let mut h2 = History::default();
        for (b, w, r) in [
            (1, 2, GameResult::Draw),
            (3, 4, GameResult::Draw),
            (5, 6, GameResult::DoubleForfeit),
            (7, 8, GameResult::Draw),
        ] {
            h2.games.push(PlayedGame::new(1, b, w, r));
        }
        h2.byes.push(p::ByeRecord { round: 1, player: 9 });
        t.colour_method = ColourMethod::Lots;
        let s = pairing_settings(&t);
        all.extend(plan_round(&input(System::Swiss, &s, &pl, &h2, 2, None)).unwrap().draws);
        // Round robin: Berger numbers and colours by lot.
        t.system = System::RoundRobin;
        let s = pairing_settings(&t);
        all.extend(plan_round(&input(System::RoundRobin, &s, &pl, &h, 1, None)).unwrap().draws);
        // Knockout: seeding among equals, then a drawn match decided by lot.
        t.system = System::Knockout;
        t.pairing.knockout.on_draw = crate::settings::KnockoutResolution::Lot;
        let s = pairing_settings(&t);
        let four = &pl[1..5];
        let d1 = plan_round(&input(System::Knockout, &s, four, &h, 1, None)).unwrap();
        all.extend(d1.draws.clone());
        let mut hk = History::default();
        for g in &d1.games {
            hk.games.push(PlayedGame::new(1, g.black, g.white, GameResult::Draw));
        }
        all.extend(plan_round(&input(System::Knockout, &s, four, &hk, 2, Some(&d1.plan))).unwrap().draws);
        // A nigiri performed from a table's seed.
        all.push(nigiri::remote_record(105, 102, table_seed(99, 3)));
        all
    }

    #[test]
    fn every_kind_of_lot_is_recorded_by_pairing_number_and_replays() {
        let all = every_kind_of_lot();
        let kinds: HashSet<std::mem::Discriminant<Purpose>> =
            all.iter().map(|d| std::mem::discriminant(&d.purpose)).collect();
        for p in [
            Purpose::Round1Order,
            Purpose::Round1Upper,
            Purpose::Round1Lower,
            Purpose::ScoreGroup { score: 0 },
            Purpose::Bye,
            Purpose::Colours,
            Purpose::NigiriHolder,
            Purpose::RemoteNigiri,
            Purpose::BergerNumbers,
            Purpose::KnockoutSeeding,
            Purpose::KnockoutMatch { number: 1 },
            Purpose::DoubleLoss { round: 1 },
        ] {
            assert!(kinds.contains(&std::mem::discriminant(&p)), "no {p:?} among {all:#?}");
        }
        assert!(replay_all(&all).iter().all(|r| *r == Some(true)), "{all:#?}");
        for d in &all {
            assert!(d.candidates.iter().all(|n| *n > 100), "pairing numbers, not ids: {d:?}");
            if d.purpose.method() != Some(crate::draw::lots::Method::Nigiri) {
                assert!(d.candidates.windows(2).all(|w| w[0] < w[1]), "ascending: {d:?}");
            }
        }
        // A tampered outcome does not replay.
        let mut bad = all.clone();
        let i = bad.iter().position(|d| d.purpose == Purpose::Round1Upper).unwrap();
        bad[i].outcome.reverse();
        assert_eq!(replay_all(&bad)[i], Some(false));
    }

    #[test]
    fn double_loss_lot_is_drawn_for_pairing_only() {
        let pl = players(4);
        let s = pairing_settings(&defaults());
        // Every double loss takes the lot: ruled at the board, or both late beyond the limit
        // (Art. 22.3 → the principle of Art. 17.5, a double forfeit in the pairing's terms).
        for result in [GameResult::DoubleLoss, GameResult::DoubleForfeit] {
            let mut h = History::default();
            h.games.push(PlayedGame::new(1, 2, 1, result));
            h.games.push(PlayedGame::new(1, 3, 4, GameResult::BlackWins));
            let d = plan_round(&input(System::Swiss, &s, &pl, &h, 2, None)).unwrap();
            let lots = double_loss_lots(&d.draws, &pl);
            assert_eq!(lots.len(), 1, "{result:?}");
            let (a, b, winner, rec) = &lots[0];
            assert_eq!((*a, *b), (1, 2), "by pairing number");
            assert_eq!(rec.purpose, Purpose::DoubleLoss { round: 1 });
            assert_eq!(replays(rec), Some(true));
            let sc = scores(System::Swiss, &pl, &h, &s, 2, 99).unwrap();
            assert_eq!(sc[winner].points, 0, "standings never see the lot");
            assert_eq!(sc[winner].pairing_points, 4);
            // Pairing without the lot: nothing drawn.
            let mut t = defaults();
            t.double_loss = DoubleLoss::Native;
            let native = pairing_settings(&t);
            let d = plan_round(&input(System::Swiss, &native, &pl, &h, 2, None)).unwrap();
            assert!(double_loss_lots(&d.draws, &pl).is_empty());
        }
    }
}
