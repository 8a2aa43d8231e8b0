//! Pairing (编排): pure functions from players, history and settings to a round's pairing.
//!
//! No database, no HTTP: the input types below are plain data that the DB layer fills.
//! Systems:
//! - [`swiss`]: Swiss 积分编排 as Chinese events run it (rules.md §14), with the Chinese
//!   round 1 (§14.2: rank/rating order, halves, pairing by lot);
//! - [`mcmahon`]: the same engine with McMahon scores (rank-based start, bar and floor) and
//!   handicaps;
//! - [`round_robin`]: Berger tables, single and double;
//! - [`knockout`]: seeded brackets.
//!
//! Swiss and McMahon share one engine: every criterion is an integer weight of a candidate
//! pair ([`weights`]) and the round is a maximum-weight matching ([`matching`]). Byes are in
//! [`bye`], review warnings for drafts and manual edits in [`review`]. Every random choice
//! comes from a seeded lot ([`crate::draw::lots`]) and is returned as a
//! [`DrawRecord`] with the pairing.

pub mod avoid;
pub mod bye;
pub mod knockout;
pub mod mcmahon;
pub mod review;
pub mod round_robin;
pub mod swiss;
pub mod weights;

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

pub use crate::draw::lots::DrawRecord;
use crate::draw::nigiri::{NigiriRecord, NigiriRule};
pub use crate::player::{Colour, GameResult, PlayedGame, Player, PlayerId, Status};
pub use weights::Criterion;

/// A bye (轮空) given in an earlier round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ByeRecord {
    pub round: u32,
    pub player: PlayerId,
}

/// What happened before the round being paired, and the groups the organizer listed that
/// must not meet ([`avoid`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct History {
    pub games: Vec<PlayedGame>,
    pub byes: Vec<ByeRecord>,
    #[serde(default)]
    pub avoid: Vec<avoid::Avoidance>,
}

/// Game points in **half points** (rules.md §15.1). Default: win 2, draw 1, loss 0, bye = win,
/// forfeit win = win (the decisions table), i.e. 4/2/0 half points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PointsScale {
    pub win: i32,
    pub draw: i32,
    pub loss: i32,
    pub bye: i32,
    pub forfeit_win: i32,
    pub forfeit_loss: i32,
    /// Each side of a double loss (rules.md §12: 0).
    pub double_loss: i32,
}

impl PointsScale {
    /// 2/1/0 (Chinese default, §15.1), bye 2, forfeit win 2.
    pub const TWO_ONE_ZERO: PointsScale =
        PointsScale { win: 4, draw: 2, loss: 0, bye: 4, forfeit_win: 4, forfeit_loss: 0, double_loss: 0 };
    /// 1/½/0.
    pub const ONE_HALF_ZERO: PointsScale =
        PointsScale { win: 2, draw: 1, loss: 0, bye: 2, forfeit_win: 2, forfeit_loss: 0, double_loss: 0 };
    /// 3/1/0 (team relay practice, §13.1).
    pub const THREE_ONE_ZERO: PointsScale =
        PointsScale { win: 6, draw: 2, loss: 0, bye: 6, forfeit_win: 6, forfeit_loss: 0, double_loss: 0 };
}

impl PointsScale {
    /// The points (half points) of (Black, White) for a game's result, `None` for a game that
    /// counts nowhere (无胜负: its replay does). The one reading of a result as points, for
    /// pairing, standings and the results CSV alike.
    pub fn game(&self, r: GameResult) -> Option<(i32, i32)> {
        Some(match r {
            GameResult::BlackWins => (self.win, self.loss),
            GameResult::WhiteWins => (self.loss, self.win),
            GameResult::Draw => (self.draw, self.draw),
            GameResult::DoubleLoss | GameResult::DoubleForfeit => (self.double_loss, self.double_loss),
            GameResult::BlackWinsByForfeit => (self.forfeit_win, self.forfeit_loss),
            GameResult::WhiteWinsByForfeit => (self.forfeit_loss, self.forfeit_win),
            GameResult::NoResult => return None,
        })
    }
}

impl Default for PointsScale {
    fn default() -> Self {
        PointsScale::TWO_ONE_ZERO
    }
}

/// How strongly same-unit avoidance (rules.md §14.4) weighs. Both are below "no rematch".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum UnitStrength {
    /// Above the score criterion: a player floats rather than meet a team-mate.
    Hard,
    /// Below the score criterion: only chooses among pairings with equal score gaps.
    Soft,
}

/// How colours are decided (rules.md §4.1; decisions table "colours").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ColourMethod {
    /// Balanced by the pairing (§14.3: balance first/second moves, never at the cost of
    /// score pairing; avoid three times the same colour).
    Balanced,
    /// Drawn lots per table.
    Lot,
    /// Nigiri (§4.2). `remote: true` performs it from the seed; otherwise it is done at the
    /// board and the outcome recorded later (`draw::nigiri::record_outcome`).
    Nigiri { remote: bool, rule: NigiriRule },
}

/// McMahon bar and floor, as rank values (see [`Player::rank_value`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct McMahonSettings {
    /// Players at or above the bar start equal, at the top group.
    pub bar: i32,
    /// Players at or below the floor start equal, at the bottom group.
    pub floor: i32,
}

impl Default for McMahonSettings {
    fn default() -> Self {
        // 3d bar (rank value 2), 20k floor.
        McMahonSettings { bar: 2, floor: -20 }
    }
}

/// The handicap of a pairing (McMahon, or Swiss by rank; rules.md §3.4 for what a handicap
/// means in play). See [`weights::handicap_stones`] for the arithmetic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum HandicapRule {
    /// Even games.
    None,
    /// Stones = rank difference − `reduction`, capped at `max`; 1 = no-komi game (让先),
    /// n ≥ 2 = n stones (让n子). With `below_bar_only`, a game with a player at or above the
    /// McMahon bar is even.
    RankDifference { reduction: i32, max: i32, below_bar_only: bool },
    /// As `RankDifference`, but from the difference of the pairing scores (the McMahon
    /// score, pairgoth's and OpenGotha's "handicap based on MMS"): the gap in half points
    /// divided by `per_stone` (the value of a win: one McMahon point is one rank), rounded
    /// down. A player who has won more games than the rank predicts gives more stones.
    ScoreDifference { reduction: i32, max: i32, below_bar_only: bool, per_stone: i32 },
}

/// Order of round 1 (rules.md §14.2): the field in this order is split into halves that
/// are paired by lot, and the last of it has the bye of an odd field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Round1Order {
    /// By rank, then rating (unrated after rated of the same rank), equal players by lot:
    /// the Chinese default (a field with ranks and few ratings).
    RankThenRating,
    /// By rating; unrated players after the rated ones by rank; rating ties by rank; equal
    /// players by lot.
    Rating,
    /// A pure computer lot (电脑随机抽签): the whole order by lot, strength ignored.
    Lot,
}

/// The strength key of `p` under a round-1 order (ascending = stronger first): rank, then
/// rating (unrated after rated of the same rank); or rating (unrated after all rated, by
/// rank), then rank; or nothing at all for a pure lot. Players with equal keys are ordered
/// by a recorded lot (`draw::order_by_key`). Knockout seeding uses the first order too.
pub fn strength_key(p: &Player, order: Round1Order) -> (i64, i64, i64) {
    let rank = -i64::from(p.rank_value);
    let unrated = i64::from(p.rating.is_none());
    let rating = -i64::from(p.rating.unwrap_or(0));
    match order {
        Round1Order::RankThenRating => (rank, unrated, rating),
        Round1Order::Rating => (unrated, rating, rank),
        Round1Order::Lot => (0, 0, 0),
    }
}

/// The solver's knobs live with the solver; pairing settings carry them.
pub use matching::SolverTuning;

/// How [`SolverTuning`] reads and writes inside [`Settings`] (the `matching` crate has no
/// serde): serde's derive for a type of another crate, field by field.
#[derive(Serialize, Deserialize)]
#[serde(remote = "SolverTuning")]
struct SolverTuningDef {
    dense_limit: usize,
    candidates: usize,
    #[serde(default = "perfect_by_default")]
    perfect: bool,
}

fn perfect_by_default() -> bool {
    true
}

/// Event settings that pairing reads.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    pub points: PointsScale,
    /// Same-unit avoidance in rounds 1..=k (0 = off, `u32::MAX` = all rounds). Default 1
    /// (rules.md §14.4 and the decisions table: round 1 only).
    pub same_unit_rounds: u32,
    pub unit_strength: UnitStrength,
    /// 同单位回避 as a constraint: two players of one unit must not meet in rounds 1..=k,
    /// weighed like a rematch ([`avoid`]). 0 = off (the default); the weight above stays.
    #[serde(default)]
    pub same_unit_barred_rounds: u32,
    pub colours: ColourMethod,
    pub mcmahon: McMahonSettings,
    pub handicap: HandicapRule,
    /// rules.md §12 lot fallback: a drawn lot names a nominal winner of a double loss, used
    /// to pair the next round only. Off by default (double losses are native 0 : 0).
    pub double_loss_lot: bool,
    /// Whether a forfeited game counts as "already met" (default true: never re-pair).
    pub forfeit_counts_as_met: bool,
    pub round1_order: Round1Order,
    /// Review: a score gap above this (half points) is a warning. Default one win.
    pub warn_score_gap: i32,
    /// Review: a handicap above this many stones is a warning.
    pub warn_handicap: u8,
    /// Knockout: what a drawn game and a double loss do to the bracket.
    pub knockout: knockout::KnockoutRules,
    #[serde(with = "SolverTuningDef")]
    pub tuning: SolverTuning,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            points: PointsScale::default(),
            same_unit_rounds: 1,
            unit_strength: UnitStrength::Hard,
            same_unit_barred_rounds: 0,
            colours: ColourMethod::Balanced,
            mcmahon: McMahonSettings::default(),
            handicap: HandicapRule::None,
            double_loss_lot: false,
            forfeit_counts_as_met: true,
            round1_order: Round1Order::RankThenRating,
            warn_score_gap: 4,
            warn_handicap: 4,
            knockout: knockout::KnockoutRules::default(),
            tuning: SolverTuning::default(),
        }
    }
}

impl Settings {
    /// Whether same-unit avoidance applies when pairing `round` (1-based).
    pub fn unit_avoidance_in(&self, round: u32) -> bool {
        round <= self.same_unit_rounds
    }

    /// Whether two players of one unit must not meet when pairing `round` (1-based).
    pub fn unit_barred_in(&self, round: u32) -> bool {
        round <= self.same_unit_barred_rounds
    }

    /// Who holds the stones in a nigiri: the nigiri colours' rule, else Art. 10.
    pub fn nigiri_rule(&self) -> NigiriRule {
        match self.colours {
            ColourMethod::Nigiri { rule, .. } => rule,
            _ => NigiriRule::Art10,
        }
    }
}

/// How the colours of one game were decided.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ColourDecision {
    /// By the pairing's colour balance.
    Balanced,
    /// By a drawn lot (the table's draw is in [`RoundPairing::draws`]).
    Lot,
    /// Handicap game: the weaker player takes Black.
    Handicap,
    /// Fixed by a table (round robin, round-1 lot numbers).
    Table,
    /// Nigiri: `holder` grabs the white stones, `guesser` guesses (Art. 10). Until an
    /// outcome is known, `black` holds the guesser and `white` the holder provisionally.
    Nigiri { holder: PlayerId, guesser: PlayerId, outcome: Option<NigiriRecord> },
}

/// One game of the new round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pairing {
    /// Table number, from 1; top tables hold the highest scores.
    pub table: u32,
    pub black: PlayerId,
    pub white: PlayerId,
    /// 0 = even game with komi, 1 = no-komi game (让先), n ≥ 2 = n stones.
    pub handicap: u8,
    pub colours: ColourDecision,
    /// Why this pair: each criterion with its weight (see [`weights`]); empty for systems
    /// that do not use weights (round robin, knockout, round 1).
    pub explain: Vec<(Criterion, i128)>,
}

/// A paired round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundPairing {
    pub round: u32,
    pub games: Vec<Pairing>,
    pub bye: Option<PlayerId>,
    /// The seed every lot of this round was drawn from.
    pub seed: u64,
    /// Every lot drawn for this round, in order.
    pub draws: Vec<DrawRecord>,
}

/// Why a round cannot be paired.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PairingError {
    #[error("player {0} appears twice")]
    DuplicatePlayer(PlayerId),
    #[error("the history names player {0}, who is not in the player list")]
    UnknownPlayer(PlayerId),
    #[error("too many players for one round ({0}; the limit is {MAX_PLAYERS})")]
    TooManyPlayers(usize),
    #[error("round numbers start at 1")]
    BadRound,
    #[error("{0}")]
    Invalid(String),
}

/// The largest field the weight scale supports (see [`weights::Scale`]).
pub const MAX_PLAYERS: usize = 32_768;

/// What the history says about one player, computed once per pairing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRecord {
    /// Game points in half points (entry points + games + byes), as standings count them.
    pub points: i32,
    /// Points used for pairing: `points` plus a double-loss nominal win from the previous
    /// round when the lot fallback is on (rules.md §12).
    pub pairing_points: i32,
    /// Assigned Blacks minus assigned Whites over games played on the board.
    pub colour_balance: i32,
    /// Assigned colours of games played on the board, oldest first.
    pub colours: Vec<Colour>,
    /// Assigned Blacks minus assigned Whites over every game the pairing list gave colours
    /// to, forfeits included (a nigiri board never settled gives none): what a reader of the
    /// published lists counts, and OpenGotha's balance. The colour criterion weighs it
    /// below `colour_balance` ([`weights::ColourState::cost`]).
    pub listed_balance: i32,
    pub byes: u32,
}

/// Checks ids, then folds the history into a record per player id. Double-loss lots
/// (if the fallback is on) are drawn here for games of round `round − 1` and returned.
pub fn records(
    players: &[Player],
    history: &History,
    settings: &Settings,
    round: u32,
    seed: u64,
) -> Result<(HashMap<PlayerId, PlayerRecord>, Vec<DrawRecord>), PairingError> {
    if round == 0 {
        return Err(PairingError::BadRound);
    }
    if players.len() > MAX_PLAYERS {
        return Err(PairingError::TooManyPlayers(players.len()));
    }
    let mut recs: HashMap<PlayerId, PlayerRecord> = HashMap::with_capacity(players.len());
    for p in players {
        let rec = PlayerRecord {
            points: p.entry_points,
            pairing_points: p.entry_points,
            colour_balance: 0,
            colours: Vec::new(),
            listed_balance: 0,
            byes: 0,
        };
        if recs.insert(p.id, rec).is_some() {
            return Err(PairingError::DuplicatePlayer(p.id));
        }
    }
    let numbers: HashMap<PlayerId, u32> = players.iter().map(|p| (p.id, p.number)).collect();
    let number = |id: PlayerId| numbers.get(&id).copied().unwrap_or(id);
    let pts = &settings.points;
    let mut games: Vec<&PlayedGame> = history.games.iter().filter(|g| g.round < round).collect();
    games.sort_by_key(|g| g.round);
    let mut draws = Vec::new();
    for g in games {
        if g.black == g.white {
            return Err(PairingError::Invalid(format!(
                "player {} plays himself in round {}",
                g.black, g.round
            )));
        }
        let (b, w) = pts.game(g.result).unwrap_or((0, 0));
        let mut nominal = None;
        if settings.double_loss_lot && g.result.is_double_loss() && g.round + 1 == round {
            let (winner, rec) = crate::draw::double_loss::nominal_winner(seed, g, &number);
            if g.nominal_winner.is_none() {
                draws.push(rec);
            }
            nominal = Some(winner);
        }
        for (id, p, colour) in [(g.black, b, Colour::Black), (g.white, w, Colour::White)] {
            let rec = recs.get_mut(&id).ok_or(PairingError::UnknownPlayer(id))?;
            rec.points += p;
            rec.pairing_points += p;
            if nominal == Some(id) {
                rec.pairing_points += pts.win - pts.double_loss;
            }
            let sign = if colour == Colour::Black { 1 } else { -1 };
            if g.colours_held() {
                rec.colours.push(colour);
                rec.colour_balance += sign;
            }
            if !g.colours_unsettled {
                rec.listed_balance += sign;
            }
        }
    }
    for bye in history.byes.iter().filter(|b| b.round < round) {
        let rec = recs.get_mut(&bye.player).ok_or(PairingError::UnknownPlayer(bye.player))?;
        rec.points += pts.bye;
        rec.pairing_points += pts.bye;
        rec.byes += 1;
    }
    Ok((recs, draws))
}

/// Who has met whom (rematch check): how many earlier games each unordered pair played.
pub fn meetings(history: &History, settings: &Settings, round: u32) -> HashMap<(PlayerId, PlayerId), u8> {
    let mut met = HashMap::new();
    for g in history.games.iter().filter(|g| g.round < round) {
        let forfeit = !g.result.played_on_board();
        if forfeit && !settings.forfeit_counts_as_met {
            continue;
        }
        let e = met.entry(ordered(g.black, g.white)).or_insert(0u8);
        *e = e.saturating_add(1);
    }
    met
}

/// The unordered pair as (smaller, larger).
pub fn ordered(a: PlayerId, b: PlayerId) -> (PlayerId, PlayerId) {
    if a < b {
        (a, b)
    } else {
        (b, a)
    }
}

/// Table order: higher pairing score first, then stronger player, then id.
pub(crate) fn number_tables(games: &mut [Pairing], key: impl Fn(&Pairing) -> (i32, i32)) {
    games.sort_by(|x, y| {
        let (kx, ky) = (key(x), key(y));
        ky.cmp(&kx).then(x.black.min(x.white).cmp(&y.black.min(y.white)))
    });
    for (i, g) in games.iter_mut().enumerate() {
        g.table = i as u32 + 1;
    }
}

#[cfg(test)]
pub(crate) mod testutil;

#[cfg(test)]
mod tests {
    use super::*;

    /// The solver's knobs keep their stored form now that the `matching` crate, which has no
    /// serde, defines them: the same three fields, and `perfect` on by default when a value
    /// written before it existed is read.
    #[test]
    fn solver_tuning_keeps_its_stored_form() {
        let v = serde_json::to_value(Settings::default()).unwrap();
        assert_eq!(v["tuning"], serde_json::json!({ "dense_limit": 160, "candidates": 10, "perfect": true }));
        let mut old = v.clone();
        old["tuning"] = serde_json::json!({ "dense_limit": 40, "candidates": 6 });
        let back: Settings = serde_json::from_value(old).unwrap();
        assert_eq!(back.tuning, SolverTuning { dense_limit: 40, candidates: 6, perfect: true });
        let plain = Settings {
            tuning: SolverTuning { perfect: false, ..SolverTuning::default() },
            ..Settings::default()
        };
        let again: Settings = serde_json::from_value(serde_json::to_value(&plain).unwrap()).unwrap();
        assert_eq!(again, plain);
    }
}
