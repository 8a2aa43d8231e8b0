//! Standings (名次, rules.md §15): scores and tie-breaks from the results, in the event's order.
//!
//! Pure: a [`Record`] of the rounds counted (players, games and byes in the same vocabulary
//! the pairing reads, warnings per game) and the event's settings in; ordered rows with every
//! tie-break value out. Everything is an exact integer: scores in **half points** of the
//! event's scale (2/1/0 → a win is 4), SB in **quarter points** (a drawn opponent counts half).
//!
//! **As of round N** means rounds 1..=N and nothing later (the developers' guide): a
//! [`Record`] is made only by [`Record::as_of`], which keeps the players who had joined by
//! round N and the games, byes and warnings of rounds 1..=N, and drops everything else, once,
//! before anything is computed. [`compute`] reads nothing but the record, so no tie-break can
//! see a later round (a warning of round 3 cannot reorder the standings after round 1).
//!
//! Definitions (rules.md §15.2), for a player P after round R:
//! - **积分 score**: game points of P's games and byes in rounds 1..=R.
//! - **对手分 SOS**: the sum, over P's games, of the opponent's score after round R; a bye
//!   (and, with [`ForfeitSos::AsBye`], a game not played on the board) contributes 0 or the
//!   lowest score among players who scored (有分棋手中的最低得分, [`ByeSos`]). A double loss
//!   is a game played against that opponent (rules.md §12).
//! - **SOS−1**: SOS without its smallest contribution. **SOSOS**: the sum of the opponents'
//!   SOS (a bye contributes 0).
//! - **累进分 cumulative**: the sum over rounds 1..=R of P's running score after each round.
//! - **直胜 direct**: among players still tied when it applies, only if every two of them met:
//!   the points P scored against the others of the group; otherwise it separates no one.
//! - **胜局数 wins**: games won, forfeits included; a bye when it scores as a win.
//! - **fewer warnings**: warnings received in the games of rounds 1..=R (fewer ranks higher).
//! - **SB** (胜者小分): defeated opponents' scores plus half the drawn opponents' scores.
//! - **McMahon** (MMS): the initial McMahon score (the rank between the event's bar and
//!   floor, as pairing computes it) plus the score.
//! - **SOSM** and **SOSOSM**: SOS and SOSOS on McMahon scores (rules.md decisions, "McMahon
//!   standings": MMS → SOSM → SOSOSM). A bye contributes to SOSM as to SOS ([`ByeSos`]: 0, or
//!   the lowest McMahon score among players above 0), and 0 to SOSOSM.
//! - **lots** (抽签): the position in a seeded shuffle of the players counted (the
//!   tournament's stored seed, `Stream::Standings`), so a tie broken by lot can be replayed
//!   and shown; the players counted after round R never change once R is played.
//!
//! Games without points (无胜负, a replay pending) are left out: a replay game stands for them.

use crate::draw::lots::{Lot, Stream};
use crate::pairing::{
    self, ByeRecord, Colour, GameResult, History, McMahonSettings, PlayedGame, PlayerId, PointsScale,
};
use crate::settings::{ByeSos, ForfeitSos, TieBreak};
use std::collections::{HashMap, HashSet};

/// A player as standings sees one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entrant {
    pub id: PlayerId,
    /// Rank as one integer (pairing's convention), for the McMahon score.
    pub rank_value: i32,
    /// The first round the player was entered for (1, or later for a late entry).
    pub first_round: u32,
}

/// Warnings a player received in a game of `round` (rules.md §11.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Warning {
    pub round: u32,
    pub player: PlayerId,
    pub count: u32,
}

/// Everything the standings after one round count, and nothing later: made by
/// [`Record::as_of`] only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    after_round: u32,
    players: Vec<Entrant>,
    games: Vec<PlayedGame>,
    byes: Vec<ByeRecord>,
    warnings: Vec<Warning>,
}

impl Record {
    /// The record as of round `after_round`: the players entered by then (a late entrant of a
    /// later round is not yet in the event; before any round is counted, the players of round
    /// 1), and the games, byes and warnings of rounds 1..=`after_round`. This is the one place
    /// where later rounds are cut off.
    pub fn as_of(after_round: u32, players: &[Entrant], history: &History, warnings: &[Warning]) -> Record {
        let counted = |r: u32| (1..=after_round).contains(&r);
        let players: Vec<Entrant> =
            players.iter().filter(|p| p.first_round <= after_round.max(1)).cloned().collect();
        let known: HashSet<PlayerId> = players.iter().map(|p| p.id).collect();
        Record {
            after_round,
            games: history
                .games
                .iter()
                .filter(|g| counted(g.round) && g.black != g.white)
                .filter(|g| known.contains(&g.black) && known.contains(&g.white))
                .cloned()
                .collect(),
            byes: history
                .byes
                .iter()
                .filter(|b| counted(b.round) && known.contains(&b.player))
                .cloned()
                .collect(),
            warnings: warnings
                .iter()
                .filter(|w| counted(w.round) && known.contains(&w.player))
                .copied()
                .collect(),
            players,
        }
    }

    /// The last round counted.
    pub fn after_round(&self) -> u32 {
        self.after_round
    }

    /// The players counted.
    pub fn players(&self) -> &[Entrant] {
        &self.players
    }
}

/// The event's settings standings read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    pub points: PointsScale,
    pub tiebreaks: Vec<TieBreak>,
    pub bye_sos: ByeSos,
    pub forfeit_sos: ForfeitSos,
    pub mcmahon: McMahonSettings,
    pub lots_seed: u64,
}

impl Settings {
    /// The standings settings of a tournament.
    pub fn of(t: &crate::settings::TournamentSettings, lots_seed: u64) -> Settings {
        Settings {
            points: t.points(),
            tiebreaks: t.tiebreaks.clone(),
            bye_sos: t.bye_sos,
            forfeit_sos: t.forfeit_sos,
            mcmahon: crate::rounds::mcmahon_settings(&t.pairing.mcmahon),
            lots_seed,
        }
    }
}

/// How one game or bye ended for one player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

/// What one side of a game earns: its points (half points of the event's scale) and how the
/// game ended for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Side {
    pub points: i64,
    pub outcome: Outcome,
}

/// The points and outcome of (Black, White) for a game's result; `None` for a game that
/// counts nowhere (无胜负). Read from [`PointsScale::game`], as pairing reads it; the
/// standings and the results CSV both take a game's points from here.
pub fn game_sides(r: GameResult, p: &PointsScale) -> Option<(Side, Side)> {
    use Outcome::*;
    let (b, w) = p.game(r)?;
    let (ob, ow) = match r {
        GameResult::BlackWins | GameResult::BlackWinsByForfeit => (Win, Loss),
        GameResult::WhiteWins | GameResult::WhiteWinsByForfeit => (Loss, Win),
        GameResult::Draw => (Draw, Draw),
        GameResult::DoubleLoss | GameResult::DoubleForfeit | GameResult::NoResult => (Loss, Loss),
    };
    Some((Side { points: i64::from(b), outcome: ob }, Side { points: i64::from(w), outcome: ow }))
}

/// What a bye earns: the scale's bye points, a win when it is worth a win (as a game won), a
/// draw when it is worth more than a loss.
pub fn bye_side(p: &PointsScale) -> Side {
    let outcome = if p.bye >= p.win && p.win > p.draw {
        Outcome::Win
    } else if p.bye > p.loss {
        Outcome::Draw
    } else {
        Outcome::Loss
    };
    Side { points: i64::from(p.bye), outcome }
}

/// One game (or bye) of a player, for the crosstable and the player's page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cell {
    pub round: u32,
    /// None for a bye.
    pub opponent: Option<PlayerId>,
    pub colour: Option<Colour>,
    pub outcome: Outcome,
    /// Not played on the board (forfeit, lateness, both absent).
    pub forfeit: bool,
    /// A double loss (both lose).
    pub double_loss: bool,
    /// Points earned, half points.
    pub points: i64,
}

/// One line of the standings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// 1-based place; players tied on every criterion share it.
    pub place: u32,
    /// Someone else has the same place.
    pub shared: bool,
    pub id: PlayerId,
    /// 积分, half points.
    pub score: i64,
    /// The value of each tie-break of `Settings::tiebreaks`, in that order (units: see
    /// [`unit`]); `None` where it does not apply (直胜 without a complete group).
    pub values: Vec<Option<i64>>,
    /// Games and byes, by round.
    pub cells: Vec<Cell>,
}

/// The standings after a round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standings {
    pub after_round: u32,
    pub tiebreaks: Vec<TieBreak>,
    pub rows: Vec<Row>,
}

impl Standings {
    /// Order the players of each shared place by `key` (their names, in the event's name
    /// order), stably: places do not change, only the order in which equals are listed.
    pub fn order_equals_by<K: Ord>(&mut self, mut key: impl FnMut(PlayerId) -> K) {
        let mut start = 0;
        while start < self.rows.len() {
            let place = self.rows[start].place;
            let end = start + self.rows[start..].iter().take_while(|r| r.place == place).count();
            self.rows[start..end].sort_by_cached_key(|r| key(r.id));
            start = end;
        }
    }
}

/// The unit of a tie-break's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Half points of the event's scale.
    HalfPoints,
    /// Quarter points (SB).
    QuarterPoints,
    /// A plain count (wins, warnings, lot number).
    Count,
}

pub fn unit(t: TieBreak) -> Unit {
    match t {
        TieBreak::Score
        | TieBreak::Sos
        | TieBreak::Cumulative
        | TieBreak::Direct
        | TieBreak::SosMinus1
        | TieBreak::Sosos
        | TieBreak::McMahon
        | TieBreak::Sosm
        | TieBreak::Sososm => Unit::HalfPoints,
        TieBreak::Sb => Unit::QuarterPoints,
        TieBreak::Wins | TieBreak::FewerWarnings | TieBreak::Lots => Unit::Count,
    }
}

/// Whether a smaller value ranks higher.
fn ascending(t: TieBreak) -> bool {
    matches!(t, TieBreak::FewerWarnings | TieBreak::Lots)
}

/// One contribution to a player's opponent scores.
#[derive(Debug, Clone, Copy)]
enum Opp {
    Player {
        id: PlayerId,
        outcome: Outcome,
    },
    /// A bye, or a forfeit counted like one.
    ByeLike,
}

#[derive(Debug, Default, Clone)]
struct Acc {
    score: i64,
    per_round: Vec<i64>,
    wins: i64,
    opps: Vec<Opp>,
    cells: Vec<Cell>,
}

/// A player's opponents' values `of` (a bye or forfeit counted like one: `bye`), one per game.
fn contributions_of<'a>(
    a: &'a Acc,
    of: &'a HashMap<PlayerId, i64>,
    bye: i64,
) -> impl Iterator<Item = i64> + 'a {
    a.opps.iter().map(move |o| match o {
        Opp::Player { id, .. } => of[id],
        Opp::ByeLike => bye,
    })
}

/// Compute the standings after the record's round, from the record alone.
pub fn compute(rec: &Record, s: &Settings) -> Standings {
    let rounds = rec.after_round as usize;
    let pts = &s.points;
    let players = &rec.players;
    let mut acc: HashMap<PlayerId, Acc> =
        players.iter().map(|p| (p.id, Acc { per_round: vec![0; rounds], ..Acc::default() })).collect();
    for g in &rec.games {
        let Some((bs, ws)) = game_sides(g.result, pts) else { continue };
        let forfeit = !g.result.played_on_board();
        let double = matches!(g.result, GameResult::DoubleLoss | GameResult::DoubleForfeit);
        let as_player = !forfeit || s.forfeit_sos == ForfeitSos::Opponent;
        // The crosstable shows the colours as played (rules.md §4.3); scores follow the seats.
        let (cb, cw) =
            if g.played_swapped { (Colour::White, Colour::Black) } else { (Colour::Black, Colour::White) };
        for (me, other, side, colour) in [(g.black, g.white, bs, cb), (g.white, g.black, ws, cw)] {
            let a = acc.get_mut(&me).expect("the record names known players only");
            a.score += side.points;
            a.per_round[g.round as usize - 1] += side.points;
            if side.outcome == Outcome::Win {
                a.wins += 1;
            }
            a.opps.push(if as_player {
                Opp::Player { id: other, outcome: side.outcome }
            } else {
                Opp::ByeLike
            });
            a.cells.push(Cell {
                round: g.round,
                opponent: Some(other),
                colour: (!g.colours_unsettled).then_some(colour),
                outcome: side.outcome,
                forfeit,
                double_loss: double,
                points: side.points,
            });
        }
    }
    let bye = bye_side(pts);
    for b in &rec.byes {
        let a = acc.get_mut(&b.player).expect("the record names known players only");
        a.score += bye.points;
        a.per_round[b.round as usize - 1] += bye.points;
        if bye.outcome == Outcome::Win {
            a.wins += 1;
        }
        a.opps.push(Opp::ByeLike);
        a.cells.push(Cell {
            round: b.round,
            opponent: None,
            colour: None,
            outcome: bye.outcome,
            forfeit: false,
            double_loss: false,
            points: bye.points,
        });
    }

    let score: HashMap<PlayerId, i64> = acc.iter().map(|(id, a)| (*id, a.score)).collect();
    let rank: HashMap<PlayerId, i32> = players.iter().map(|p| (p.id, p.rank_value)).collect();
    // The McMahon score: the initial score from the rank (bar and floor) plus the score.
    let mms: HashMap<PlayerId, i64> = acc
        .iter()
        .map(|(id, a)| {
            let p = pairing::Player::new(*id, rank[id]);
            (*id, i64::from(pairing::mcmahon::initial_score(&p, &s.mcmahon, pts.win)) + a.score)
        })
        .collect();
    // What a bye (or a forfeit counted like one) adds to a sum of opponents' scores.
    let bye_value = |of: &HashMap<PlayerId, i64>| match s.bye_sos {
        ByeSos::Zero => 0,
        ByeSos::LowestScore => of.values().copied().filter(|v| *v > 0).min().unwrap_or(0),
    };
    let (bye_score, bye_mms) = (bye_value(&score), bye_value(&mms));
    let contributions = |a: &Acc| -> Vec<i64> { contributions_of(a, &score, bye_score).collect() };
    let sum_of = |of: &HashMap<PlayerId, i64>, bye: i64| -> HashMap<PlayerId, i64> {
        acc.iter().map(|(id, a)| (*id, contributions_of(a, of, bye).sum())).collect()
    };
    let sos = sum_of(&score, bye_score);
    let sosm = sum_of(&mms, bye_mms);
    let lots: HashMap<PlayerId, i64> = {
        let mut ids: Vec<PlayerId> = players.iter().map(|p| p.id).collect();
        ids.sort_unstable();
        Lot::new(s.lots_seed, Stream::Standings).shuffle(&mut ids);
        ids.into_iter().enumerate().map(|(i, id)| (id, i as i64 + 1)).collect()
    };
    let mut warnings: HashMap<PlayerId, i64> = players.iter().map(|p| (p.id, 0)).collect();
    for w in &rec.warnings {
        *warnings.entry(w.player).or_default() += i64::from(w.count);
    }

    // Values that do not depend on the tie group.
    let fixed = |t: TieBreak, id: PlayerId| -> i64 {
        let a = &acc[&id];
        match t {
            TieBreak::Score => a.score,
            TieBreak::Sos => sos[&id],
            TieBreak::SosMinus1 => {
                let c = contributions(a);
                c.iter().sum::<i64>() - c.iter().copied().min().unwrap_or(0)
            }
            TieBreak::Sosos => contributions_of(a, &sos, 0).sum(),
            TieBreak::Sosm => sosm[&id],
            TieBreak::Sososm => contributions_of(a, &sosm, 0).sum(),
            TieBreak::Cumulative => {
                let mut run = 0;
                a.per_round
                    .iter()
                    .map(|p| {
                        run += p;
                        run
                    })
                    .sum()
            }
            TieBreak::Wins => a.wins,
            TieBreak::FewerWarnings => warnings[&id],
            TieBreak::Sb => a
                .opps
                .iter()
                .map(|o| match o {
                    Opp::Player { id, outcome: Outcome::Win } => 2 * score[id],
                    Opp::Player { id, outcome: Outcome::Draw } => score[id],
                    _ => 0,
                })
                .sum(),
            TieBreak::McMahon => mms[&id],
            TieBreak::Lots => lots[&id],
            TieBreak::Direct => 0,
        }
    };

    // Refine groups criterion by criterion; 直胜 is computed inside each group when it applies,
    // from the games of the group's members only (a scan of every game per group was most of a
    // 10,000-player event's standings: thousands of tie groups, 25,000 games).
    let games_of = if s.tiebreaks.contains(&TieBreak::Direct) { games_by_black(rec) } else { HashMap::new() };
    let mut ids: Vec<PlayerId> = players.iter().map(|p| p.id).collect();
    ids.sort_unstable();
    let mut groups: Vec<Vec<PlayerId>> = vec![ids];
    let mut values: HashMap<PlayerId, Vec<Option<i64>>> =
        players.iter().map(|p| (p.id, vec![None; s.tiebreaks.len()])).collect();
    for (k, &t) in s.tiebreaks.iter().enumerate() {
        let mut next = Vec::with_capacity(groups.len());
        for group in groups {
            let keyed: Vec<(PlayerId, Option<i64>)> = if t == TieBreak::Direct {
                direct(&group, rec, &games_of, pts)
            } else {
                group.iter().map(|&id| (id, Some(fixed(t, id)))).collect()
            };
            for (id, v) in &keyed {
                values.get_mut(id).expect("every player")[k] = *v;
            }
            let mut keyed = keyed;
            keyed.sort_by(|(ia, a), (ib, b)| {
                let (a, b) = (a.unwrap_or(0), b.unwrap_or(0));
                let o = if ascending(t) { a.cmp(&b) } else { b.cmp(&a) };
                o.then(ia.cmp(ib))
            });
            let mut i = 0;
            while i < keyed.len() {
                let mut j = i + 1;
                while j < keyed.len() && keyed[j].1.unwrap_or(0) == keyed[i].1.unwrap_or(0) {
                    j += 1;
                }
                next.push(keyed[i..j].iter().map(|(id, _)| *id).collect());
                i = j;
            }
        }
        groups = next;
    }

    let mut rows = Vec::with_capacity(players.len());
    let mut place = 1u32;
    for group in groups {
        let shared = group.len() > 1;
        for id in &group {
            let mut a = acc.remove(id).unwrap_or_default();
            a.cells.sort_by_key(|c| {
                (c.round, c.opponent, c.colour == Some(Colour::White), c.points, c.double_loss, c.forfeit)
            });
            rows.push(Row {
                place,
                shared,
                id: *id,
                score: a.score,
                values: values.remove(id).unwrap_or_default(),
                cells: a.cells,
            });
        }
        place += group.len() as u32;
    }
    Standings { after_round: rec.after_round, tiebreaks: s.tiebreaks.clone(), rows }
}

/// The record's games by the player who sat as Black (each game once), for [`direct`].
fn games_by_black(rec: &Record) -> HashMap<PlayerId, Vec<usize>> {
    let mut m: HashMap<PlayerId, Vec<usize>> = HashMap::new();
    for (i, g) in rec.games.iter().enumerate() {
        m.entry(g.black).or_default().push(i);
    }
    m
}

/// 直胜 inside a tie group: the points each scored against the others, if every two of them
/// met in a game with points; otherwise `None` for all (it separates no one).
fn direct(
    group: &[PlayerId],
    rec: &Record,
    games_of: &HashMap<PlayerId, Vec<usize>>,
    pts: &PointsScale,
) -> Vec<(PlayerId, Option<i64>)> {
    if group.len() < 2 {
        return group.iter().map(|id| (*id, None)).collect();
    }
    let members: HashSet<PlayerId> = group.iter().copied().collect();
    let mut met: HashSet<(PlayerId, PlayerId)> = HashSet::new();
    let mut got: HashMap<PlayerId, i64> = HashMap::new();
    let games = group.iter().flat_map(|id| games_of.get(id).into_iter().flatten()).map(|&i| &rec.games[i]);
    for g in games {
        if !members.contains(&g.white) {
            continue;
        }
        let Some((b, w)) = game_sides(g.result, pts) else { continue };
        met.insert(pairing::ordered(g.black, g.white));
        *got.entry(g.black).or_default() += b.points;
        *got.entry(g.white).or_default() += w.points;
    }
    let n = group.len();
    if met.len() < n * (n - 1) / 2 {
        return group.iter().map(|id| (*id, None)).collect();
    }
    group.iter().map(|id| (*id, Some(got.get(id).copied().unwrap_or(0)))).collect()
}

/// A value as text in its unit: half points 9 → "4.5", quarter points 5 → "1.25".
pub fn value_text(t: TieBreak, v: i64) -> String {
    match unit(t) {
        Unit::Count => v.to_string(),
        Unit::HalfPoints => halves_text(v),
        Unit::QuarterPoints => {
            let sign = if v < 0 { "-" } else { "" };
            let a = v.unsigned_abs();
            let frac = match a % 4 {
                1 => ".25",
                2 => ".5",
                3 => ".75",
                _ => "",
            };
            format!("{sign}{}{frac}", a / 4)
        }
    }
}

/// Half points as text: 9 → "4.5", 8 → "4".
pub fn halves_text(v: i64) -> String {
    let sign = if v < 0 { "-" } else { "" };
    let a = v.unsigned_abs();
    if a.is_multiple_of(2) {
        format!("{sign}{}", a / 2)
    } else {
        format!("{sign}{}.5", a / 2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pairing::{ByeRecord, PlayedGame};
    use crate::settings::DEFAULT_TIEBREAKS;
    use proptest::prelude::*;
    use GameResult::*;

    /// The settings of a test, the round the standings are after, and warnings by round.
    struct T {
        s: Settings,
        after: u32,
        warnings: Vec<Warning>,
    }

    impl std::ops::Deref for T {
        type Target = Settings;
        fn deref(&self) -> &Settings {
            &self.s
        }
    }

    impl std::ops::DerefMut for T {
        fn deref_mut(&mut self) -> &mut Settings {
            &mut self.s
        }
    }

    fn settings(after: u32, tiebreaks: &[TieBreak]) -> T {
        let s = Settings {
            points: PointsScale::TWO_ONE_ZERO,
            tiebreaks: tiebreaks.to_vec(),
            bye_sos: ByeSos::Zero,
            forfeit_sos: ForfeitSos::Opponent,
            mcmahon: McMahonSettings::default(),
            lots_seed: 7,
        };
        T { s, after, warnings: Vec::new() }
    }

    /// The standings of `players` and `h` as of `t.after`.
    fn compute(players: &[Entrant], h: &History, t: &T) -> Standings {
        super::compute(&Record::as_of(t.after, players, h, &t.warnings), &t.s)
    }

    fn players(n: u32) -> Vec<Entrant> {
        (1..=n).map(|id| Entrant { id, rank_value: 0, first_round: 1 }).collect()
    }

    fn g(round: u32, black: u32, white: u32, result: GameResult) -> PlayedGame {
        PlayedGame::new(round, black, white, result)
    }

    fn row(st: &Standings, id: u32) -> &Row {
        st.rows.iter().find(|r| r.id == id).expect("a row")
    }

    fn val(st: &Standings, id: u32, t: TieBreak) -> Option<i64> {
        let k = st.tiebreaks.iter().position(|x| *x == t).expect("in the order");
        row(st, id).values[k]
    }

    /// A forfeit on a board whose nigiri was never made: nobody held a colour, so the cells
    /// carry none; a game played with settled colours carries them as played.
    #[test]
    fn a_game_without_settled_colours_has_no_colour_in_its_cells() {
        let unsettled = PlayedGame { colours_unsettled: true, ..g(1, 1, 2, BlackWinsByForfeit) };
        let h = History { games: vec![unsettled, g(1, 3, 4, WhiteWins)], ..History::default() };
        let st = compute(&players(4), &h, &settings(1, &[]));
        let colour = |id| row(&st, id).cells[0].colour;
        assert_eq!((colour(1), colour(2)), (None, None));
        assert_eq!((colour(3), colour(4)), (Some(Colour::Black), Some(Colour::White)));
        assert_eq!(row(&st, 1).cells[0].outcome, Outcome::Win);
    }

    /// rules.md §15.2's example: W W W W L → 累进分 28, L W W W W → 20 (2/1/0 points).
    #[test]
    fn cumulative_score_example_of_rules_md() {
        // Player 1: W W W W L; player 2: L W W W W; the others are fillers.
        let games = vec![
            g(1, 1, 3, BlackWins),
            g(2, 1, 4, BlackWins),
            g(3, 1, 5, BlackWins),
            g(4, 1, 6, BlackWins),
            g(5, 1, 2, WhiteWins),
            g(1, 2, 7, WhiteWins),
            g(2, 2, 8, BlackWins),
            g(3, 2, 9, BlackWins),
            g(4, 2, 10, BlackWins),
        ];
        let st =
            compute(&players(10), &History { games, ..History::default() }, &settings(5, &DEFAULT_TIEBREAKS));
        // In half points: 28 points = 56 halves, 20 points = 40.
        assert_eq!(val(&st, 1, TieBreak::Cumulative), Some(56));
        assert_eq!(val(&st, 2, TieBreak::Cumulative), Some(40));
        assert_eq!(row(&st, 1).score, 16);
        assert_eq!(row(&st, 2).score, 16);
        // Equal score; SOS: 1 met 3,4,5,6 (0 each) and 2 (8 points = 16 halves) = 16;
        // 2 met 7 (2 points: won against 2), 8, 9, 10 (0) and 1 (16) = 4 + 16 = 20.
        assert_eq!(val(&st, 1, TieBreak::Sos), Some(16));
        assert_eq!(val(&st, 2, TieBreak::Sos), Some(20));
        assert_eq!(st.rows[0].id, 2, "对手分 before 累进分: 2 is first");
        let st = compute(
            &players(10),
            &History { games: st_games(), ..History::default() },
            &settings(5, &[TieBreak::Score, TieBreak::Cumulative, TieBreak::Sos]),
        );
        assert_eq!(st.rows[0].id, 1, "累进分 first: 1 is first");
    }

    fn st_games() -> Vec<PlayedGame> {
        vec![
            g(1, 1, 3, BlackWins),
            g(2, 1, 4, BlackWins),
            g(3, 1, 5, BlackWins),
            g(4, 1, 6, BlackWins),
            g(5, 1, 2, WhiteWins),
            g(1, 2, 7, WhiteWins),
            g(2, 2, 8, BlackWins),
            g(3, 2, 9, BlackWins),
            g(4, 2, 10, BlackWins),
        ]
    }

    /// A 4-player round robin worked by hand:
    /// R1: 1–2 1 wins, 3–4 draw. R2: 1–3 3 wins, 2–4 2 wins. R3: 1–4 1 wins, 2–3 2 wins.
    /// Scores (2/1/0): 1: 4, 2: 4, 3: 3, 4: 1.
    /// SOS: 1 → 2+3+4 = 4+3+1 = 8; 2 → 1+4+3 = 4+1+3 = 8; 3 → 4+1+2 = 1+4+4 = 9;
    /// 4 → 3+2+1 = 3+4+4 = 11.
    /// 1 and 2 tie on score and SOS; 直胜: 1 beat 2.
    /// SB: 1 beat 2 (4) and 4 (1) = 5; 2 beat 4 (1) and 3 (3) = 4; 3 beat 1 (4), drew 4 (½·1) = 4.5;
    /// 4 drew 3 (½·3) = 1.5.
    #[test]
    fn small_round_robin_worked_by_hand() {
        let games = vec![
            g(1, 1, 2, BlackWins),
            g(1, 3, 4, Draw),
            g(2, 1, 3, WhiteWins),
            g(2, 2, 4, BlackWins),
            g(3, 4, 1, WhiteWins),
            g(3, 3, 2, WhiteWins),
        ];
        let h = History { games, ..History::default() };
        let order = [TieBreak::Score, TieBreak::Sos, TieBreak::Direct, TieBreak::Sb, TieBreak::Lots];
        let st = compute(&players(4), &h, &settings(3, &order));
        let ids: Vec<u32> = st.rows.iter().map(|r| r.id).collect();
        assert_eq!(ids, vec![1, 2, 3, 4]);
        assert_eq!(val(&st, 1, TieBreak::Sos), Some(16));
        assert_eq!(val(&st, 2, TieBreak::Sos), Some(16));
        assert_eq!(val(&st, 3, TieBreak::Sos), Some(18));
        assert_eq!(val(&st, 4, TieBreak::Sos), Some(22));
        assert_eq!(val(&st, 1, TieBreak::Direct), Some(4), "1 beat 2");
        assert_eq!(val(&st, 2, TieBreak::Direct), Some(0));
        assert_eq!(val(&st, 3, TieBreak::Direct), None, "not tied with anyone there");
        // SB in quarter points: 5 → 20, 4 → 16, 4.5 → 18, 1.5 → 6.
        assert_eq!(val(&st, 1, TieBreak::Sb), Some(20));
        assert_eq!(val(&st, 2, TieBreak::Sb), Some(16));
        assert_eq!(val(&st, 3, TieBreak::Sb), Some(18));
        assert_eq!(val(&st, 4, TieBreak::Sb), Some(6));
        assert_eq!(value_text(TieBreak::Sb, 18), "4.5");
        assert_eq!(value_text(TieBreak::Sb, 6), "1.5");
        assert!(st.rows.iter().all(|r| !r.shared));
        assert_eq!(st.rows.iter().map(|r| r.place).collect::<Vec<_>>(), vec![1, 2, 3, 4]);
        // SOS−1 drops the weakest opponent; SOSOS sums the opponents' SOS.
        let st =
            compute(&players(4), &h, &settings(3, &[TieBreak::Score, TieBreak::SosMinus1, TieBreak::Sosos]));
        assert_eq!(val(&st, 1, TieBreak::SosMinus1), Some(16 - 2));
        assert_eq!(val(&st, 4, TieBreak::SosMinus1), Some(22 - 6));
        // SOSOS of 1: SOS of 2, 3, 4 = 16 + 18 + 22.
        assert_eq!(val(&st, 1, TieBreak::Sosos), Some(56));
    }

    /// Direct encounter only applies when every two tied players met.
    #[test]
    fn direct_needs_a_complete_group() {
        // 1, 2, 3, 4 and 6 win one game each; 1 beat 2, but the others did not all meet.
        let games = vec![
            g(1, 1, 2, BlackWins),
            g(1, 3, 4, BlackWins),
            g(2, 2, 5, BlackWins),
            g(2, 1, 6, WhiteWins),
            g(2, 3, 4, WhiteWins),
        ];
        let st = compute(
            &players(6),
            &History { games, ..History::default() },
            &settings(2, &[TieBreak::Score, TieBreak::Direct]),
        );
        for id in [1, 2, 3, 4, 6] {
            assert_eq!(row(&st, id).score, 4);
            assert_eq!(val(&st, id, TieBreak::Direct), None, "{id}");
            assert!(row(&st, id).shared && row(&st, id).place == 1);
        }
        assert_eq!(row(&st, 5).place, 6);
    }

    #[test]
    fn byes_forfeits_double_losses_and_warnings() {
        // R1: byes for 1 and 2, 3 and 4 both lose (double loss). R2: 1 beats 2 by forfeit,
        // 3 beats 4.
        let games = vec![g(1, 3, 4, DoubleLoss), g(2, 1, 2, BlackWinsByForfeit), g(2, 3, 4, BlackWins)];
        let byes = vec![ByeRecord { round: 1, player: 1 }, ByeRecord { round: 1, player: 2 }];
        let ps = players(4);
        let h = History { games, byes, ..History::default() };
        let order = [TieBreak::Score, TieBreak::Sos, TieBreak::Wins, TieBreak::FewerWarnings, TieBreak::Lots];
        let warned = |after| {
            let mut t = settings(after, &order);
            t.warnings.push(Warning { round: 2, player: 3, count: 1 });
            t
        };
        let st = compute(&ps, &h, &warned(2));
        assert_eq!(row(&st, 1).score, 8, "bye + forfeit win");
        assert_eq!(row(&st, 2).score, 4, "bye");
        assert_eq!(row(&st, 3).score, 4, "double loss 0 + win");
        assert_eq!(row(&st, 4).score, 0);
        assert_eq!(val(&st, 1, TieBreak::Wins), Some(2), "a bye that scores a win counts");
        // SOS with bye = 0 and forfeits counting the opponent: 1 → 0 + 4 = 4; 3 → 0 + 0 = 0.
        assert_eq!(val(&st, 1, TieBreak::Sos), Some(4));
        assert_eq!(val(&st, 3, TieBreak::Sos), Some(0), "a double loss is a game against 4");
        assert_eq!(val(&st, 2, TieBreak::Sos), Some(8));
        // 2 and 3 tie on score; 2 is ahead on SOS.
        assert_eq!(row(&st, 2).place, 2);
        assert_eq!(row(&st, 3).place, 3);
        // Bye worth the lowest score among players who scored (4 halves), forfeits as byes.
        let mut s = warned(2);
        s.bye_sos = ByeSos::LowestScore;
        s.forfeit_sos = ForfeitSos::AsBye;
        let st = compute(&ps, &h, &s);
        assert_eq!(val(&st, 1, TieBreak::Sos), Some(8), "bye 4 + forfeit-as-bye 4");
        assert_eq!(val(&st, 2, TieBreak::Sos), Some(8));
        assert_eq!(val(&st, 3, TieBreak::FewerWarnings), Some(1));
        let c = &row(&st, 1).cells;
        assert_eq!((c[0].opponent, c[0].outcome), (None, Outcome::Win));
        assert!(c[1].forfeit && c[1].opponent == Some(2));
    }

    /// The standings as of a round read that round and the earlier ones only (rules.md §15):
    /// after round 1, a warning of round 3 does not exist yet. Player 1 and
    /// 2 draw in round 1 and are separated by the lot only; a later warning to whoever the
    /// lot puts first must not change the order after round 1.
    #[test]
    fn later_warnings_and_late_entrants_do_not_reach_back() {
        let order = [TieBreak::Score, TieBreak::FewerWarnings, TieBreak::Lots];
        let h = History { games: vec![g(1, 1, 2, Draw), g(3, 1, 2, Draw)], ..History::default() };
        let first = compute(&players(2), &h, &settings(1, &order)).rows[0].id;
        let mut t = settings(1, &order);
        t.warnings.push(Warning { round: 3, player: first, count: 2 });
        let st = compute(&players(2), &h, &t);
        assert_eq!(st.rows[0].id, first, "the round-3 warnings are not counted after round 1");
        assert_eq!(val(&st, first, TieBreak::FewerWarnings), Some(0));
        assert_eq!(row(&st, first).cells.len(), 1, "the round-3 game neither");
        t.after = 3;
        let st = compute(&players(2), &h, &t);
        assert_ne!(st.rows[0].id, first, "after round 3 they count");
        assert_eq!(val(&st, first, TieBreak::FewerWarnings), Some(2));
        // A player entered for round 3 is not in the standings after round 1, and does not
        // move the lot of those who were.
        let mut late = players(3);
        late[2].first_round = 3;
        let t = settings(1, &order);
        let with_late = compute(&late, &h, &t);
        assert_eq!(with_late.rows.len(), 2);
        assert_eq!(with_late, compute(&players(2), &h, &t));
        assert_eq!(compute(&late, &h, &settings(3, &order)).rows.len(), 3);
        // Before any round counts, the players of round 1 are listed.
        assert_eq!(compute(&late, &History::default(), &settings(0, &order)).rows.len(), 2);
    }

    #[test]
    fn no_result_games_are_left_out_and_lots_are_seeded() {
        let games = vec![g(1, 1, 2, NoResult), g(1, 1, 2, Draw)];
        let order = [TieBreak::Score, TieBreak::Lots];
        let st = compute(&players(2), &History { games, ..History::default() }, &settings(1, &order));
        assert_eq!(row(&st, 1).cells.len(), 1, "only the replay counts");
        assert_eq!(row(&st, 1).score, 2);
        let lot = |seed| {
            let mut s = settings(1, &order);
            s.lots_seed = seed;
            compute(&players(2), &History { games: vec![g(1, 1, 2, Draw)], ..History::default() }, &s).rows[0]
                .id
        };
        assert_eq!(lot(7), lot(7));
        assert!((0..20).any(|seed| lot(seed) != lot(7)), "the seed decides");
    }

    #[test]
    fn mcmahon_score_starts_from_rank() {
        let mut ps = players(2);
        ps[0].rank_value = 2; // 3d: at the bar
        ps[1].rank_value = 1; // 2d
        let st = compute(&ps, &History::default(), &settings(0, &[TieBreak::McMahon]));
        assert_eq!(val(&st, 1, TieBreak::McMahon), Some(22 * 4));
        assert_eq!(val(&st, 2, TieBreak::McMahon), Some(21 * 4));
        assert_eq!(st.rows[0].id, 1);
    }

    /// rules.md decisions, "McMahon standings": 5d, 4d, 12k and 15k, the weaker player winning
    /// every game for two rounds. By games won the 15k leads; by the McMahon order (MMS →
    /// SOSM → SOSOSM) the 5d loser stays above the 15k winner.
    #[test]
    fn mcmahon_order_keeps_the_weaker_winner_below() {
        let mut ps = players(4);
        for (p, rank) in ps.iter_mut().zip([4, 3, -12, -15]) {
            p.rank_value = rank; // 5d, 4d, 12k, 15k
        }
        let h = History {
            games: vec![
                g(1, 1, 2, WhiteWins),
                g(1, 3, 4, WhiteWins),
                g(2, 1, 3, WhiteWins),
                g(2, 2, 4, WhiteWins),
            ],
            ..History::default()
        };
        let by_games = compute(&ps, &h, &settings(2, &DEFAULT_TIEBREAKS));
        assert_eq!(by_games.rows[0].id, 4, "the Swiss order puts the 15k with two wins first");
        let st = compute(&ps, &h, &settings(2, &crate::settings::MCMAHON_TIEBREAKS));
        assert_eq!(st.rows.iter().map(|r| r.id).collect::<Vec<_>>(), vec![2, 1, 3, 4]);
        // MMS in half points (a win is 4), the bar at 3d: 5d 22 wins' worth + 0, 4d 22 + 1,
        // 12k 8 + 1, 15k 5 + 2.
        let mms = |id| val(&st, id, TieBreak::McMahon);
        assert_eq!([mms(1), mms(2), mms(3), mms(4)], [Some(88), Some(92), Some(36), Some(28)]);
        // SOSM: 5d met 4d (92) and 12k (36); 4d met 5d (88) and 15k (28).
        assert_eq!((val(&st, 1, TieBreak::Sosm), val(&st, 2, TieBreak::Sosm)), (Some(128), Some(116)));
        // SOSOSM: the opponents' SOSM (12k's: 15k 28 + 5d 88).
        assert_eq!(val(&st, 1, TieBreak::Sososm), Some(116 + 116));
        assert!(st.rows.iter().all(|r| !r.shared));
    }

    fn arb_history() -> impl Strategy<Value = (u32, u32, History)> {
        (4u32..12, 1u32..6).prop_flat_map(|(n, rounds)| {
            let result = prop_oneof![
                Just(BlackWins),
                Just(WhiteWins),
                Just(Draw),
                Just(DoubleLoss),
                Just(BlackWinsByForfeit),
                Just(WhiteWinsByForfeit),
                Just(NoResult),
            ];
            let game = (1..=rounds, 1..=n, 1..=n, result)
                .prop_filter("two players", |(_, b, w, _)| b != w)
                .prop_map(|(r, b, w, res)| PlayedGame::new(r, b, w, res));
            let bye = (1..=rounds, 1..=n).prop_map(|(round, player)| ByeRecord { round, player });
            (Just(n), Just(rounds), prop::collection::vec(game, 0..30), prop::collection::vec(bye, 0..4))
                .prop_map(|(n, r, games, byes)| (n, r, History { games, byes, ..History::default() }))
        })
    }

    proptest! {
        /// SOS = the sum of the opponents' final scores (byes count 0), and the scores add up
        /// to the points handed out by the games and byes.
        #[test]
        fn sos_is_the_sum_of_opponents_scores((n, rounds, h) in arb_history()) {
            let s = settings(rounds, &[TieBreak::Score, TieBreak::Sos, TieBreak::Cumulative]);
            let st = compute(&players(n), &h, &s);
            let score: HashMap<u32, i64> = st.rows.iter().map(|r| (r.id, r.score)).collect();
            for r in &st.rows {
                let want: i64 = r.cells.iter().filter_map(|c| c.opponent).map(|o| score[&o]).sum();
                prop_assert_eq!(r.values[1], Some(want));
                // 累进分 = Σ over rounds of (rounds − r + 1) × points of round r.
                let cum: i64 = r.cells.iter().map(|c| i64::from(rounds - c.round + 1) * c.points).sum();
                prop_assert_eq!(r.values[2], Some(cum));
            }
            let handed: i64 = h.games.iter().filter_map(|g| game_sides(g.result, &s.points)).map(|(b, w)| b.points + w.points).sum::<i64>()
                + h.byes.len() as i64 * i64::from(s.points.bye);
            prop_assert_eq!(score.values().sum::<i64>(), handed);
            // Sorted by score, places non-decreasing and starting at 1.
            prop_assert!(st.rows.windows(2).all(|w| w[0].score >= w[1].score && w[0].place <= w[1].place));
            prop_assert!(st.rows.first().is_none_or(|r| r.place == 1));
        }

        /// As of round k, nothing of a later round counts: adding later games, byes,
        /// warnings and entrants to what happened by round k changes no row, no value, no
        /// place (rules.md §15).
        #[test]
        fn later_rounds_change_nothing_before(
            (n, rounds, h) in arb_history(),
            k in 1u32..6,
            warned in prop::collection::vec((1u32..6, 1u32..12, 1u32..3), 0..8),
            late in 1u32..6,
        ) {
            let k = k.min(rounds);
            let order = [
                TieBreak::Score, TieBreak::FewerWarnings, TieBreak::Sos, TieBreak::Cumulative,
                TieBreak::Direct, TieBreak::Wins, TieBreak::Sb, TieBreak::Sosos, TieBreak::Lots,
            ];
            let mut ps = players(n);
            ps[0].first_round = late;
            let warnings: Vec<Warning> = warned
                .iter()
                .filter(|(_, p, _)| *p <= n)
                .map(|&(round, player, count)| Warning { round, player, count })
                .collect();
            let mut t = settings(k, &order);
            t.warnings = warnings.clone();
            let everything = compute(&ps, &h, &t);
            // What there was by round k, without anything later.
            let by_k = History {
                games: h.games.iter().filter(|g| g.round <= k).cloned().collect(),
                byes: h.byes.iter().filter(|b| b.round <= k).cloned().collect(),
                ..History::default()
            };
            let mut t_k = settings(k, &order);
            t_k.warnings = warnings.into_iter().filter(|w| w.round <= k).collect();
            let entered: Vec<Entrant> = ps.iter().filter(|p| p.first_round <= k).cloned().collect();
            prop_assert_eq!(everything, compute(&entered, &by_k, &t_k));
        }

        /// The order of the input does not matter.
        #[test]
        fn input_order_does_not_matter((n, rounds, h) in arb_history(), seed in any::<u64>()) {
            let s = settings(rounds, &DEFAULT_TIEBREAKS);
            let a = compute(&players(n), &h, &s);
            let mut ps = players(n);
            let mut h2 = h.clone();
            let mut lot = Lot::new(seed, Stream::Synthetic);
            lot.shuffle(&mut ps);
            lot.shuffle(&mut h2.games);
            lot.shuffle(&mut h2.byes);
            let b = compute(&ps, &h2, &s);
            prop_assert_eq!(a, b);
        }
    }
}
