//! `bench pair --opengotha`: the same round paired again by **OpenGotha 3.51's pairing
//! criteria, restated here**, so that Tengen's colour figures stand beside OpenGotha's on
//! the same input. OpenGotha itself (Java, GPL) cannot run on this
//! machine. This module restates in its own code what OpenGotha's published source does
//! (`Tournament.makeAutomaticPairing`, `pairAGroup`, `costValue`, `gameBetween`,
//! `fillPairingInfo`, `chooseAByePlayer`, `Pairing.wbBalance`), with the defaults of
//! `PairingParameterSet.initForMM` and `initForSwiss`:
//!
//! - **Pairing groups.** Above 600 players the field is cut from the top score down into
//!   groups of at least 200 players (an even number, whole score levels; at most 600) and
//!   each is paired on its own; the rest is paired last.
//! - **Score groups** are whole main scores (McMahon score, or wins in Swiss; a draw's half
//!   counts down), numbered from the top. Inside one, players are placed by score, SOS and
//!   SOSOS (OpenGotha's default placement), then rating where the seeding system says so.
//! - **The weight of a pair**, maximised: 1; + 5·10¹⁴ if they have not met; + 10⁶ if their
//!   W − B balances have strictly opposite signs (half if one is level and the other two
//!   off); + 10¹¹·(1 − x)(1 + x/2), x the gap in score groups over the number of groups; the
//!   draw-up/draw-down term (10⁸/5 per scenario step, both sides placed MID, compensation
//!   on); seeding inside a score group (5·10⁶; McMahon split and fold, Swiss split and slip;
//!   split and random in McMahon's rounds 1 and 2); in McMahon only, a bonus for players of
//!   different clubs worth four to five score groups (club factor 3: the score term's
//!   loss over (3 × 1.2 + 0.5) / groups).
//! - **Colours**: the player with more Whites (W − B over every earlier game, forfeits
//!   included) takes Black; with equal balances a lot decides.
//! - **Bye**: the player with the lowest rank + McMahon score, 1000 more per earlier bye.
//!
//! Left out: handicaps (both sides pair even games here), categories, countries and club
//! groups, the random criterion (0 by default), the secondary criteria's handicap term (0 by
//! default), and the points OpenGotha gives an absent round; what its placement leaves tied,
//! rank and then the player's number decide.
//! The weights, the groups and the cut are OpenGotha's; the matching is Tengen's exact
//! solver, which finds a maximum as OpenGotha's does (ties between equal maxima may go
//! another way). Checked against two files OpenGotha paired itself: the Swiss one comes out
//! game for game in rounds 2–6 (91 of its 96 games), the McMahon one, with handicap games,
//! in 24 of 32 (`close_to_opengothas_own_pairings_of_real_files`).

use std::collections::HashMap;

use crate::bench_common::{Engine, NewGame, System};
use admin::domain::draw::lots::{Lot, Stream};
use admin::domain::pairing::{meetings, ordered, records, PlayerId, Status};
use admin::domain::rounds as dr;

const AVOID_DUPLICATE: i64 = 500_000_000_000_000;
const BALANCE_WB: i64 = 1_000_000;
const SCORE: i64 = 100_000_000_000;
const DUDD: i64 = SCORE / 1000;
const SEEDING: i64 = SCORE / 20_000;
/// McMahon's club factor (`paiSePreferMMSDiffRatherThanSameClub`).
const CLUB_FACTOR: f64 = 3.0;
/// The concavity factor of every (1 − x)(1 + kx) term.
const NX1: f64 = 0.5;
const GROUP_MIN: usize = 200;
const GROUP_MAX: usize = 600;

/// How players of one score group are paired by seeding: the group is split in halves,
/// and a pair across them is weighed by...
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Seeding {
    /// ... a (deterministic) random draw (split and random);
    Random,
    /// ... folding: 1st against last, 2nd against last but one (split and fold);
    Fold,
    /// ... slipping: 1st against the first of the lower half (split and slip).
    Slip,
}

/// The pairing parameters that differ between systems (`PairingParameterSet`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Params {
    pub system1: Seeding,
    pub system2: Seeding,
    /// The last round (counted from 1) seeded by `system1` and placed with rating as the
    /// last placement criterion when `rating1` (OpenGotha's 0-based
    /// `paiMaLastRoundForSeedSystem1` + 1).
    pub last_round_system1: u32,
    pub rating1: bool,
    pub rating2: bool,
    /// `paiSeAvoidSameGeo` and the club factor (0: no geographical criterion).
    pub same_geo: i64,
    pub club_factor: f64,
}

impl Params {
    /// `PairingParameterSet.initForSwiss` / `initForMM`.
    pub fn defaults(system: System) -> Params {
        match system {
            System::Swiss => Params {
                system1: Seeding::Slip,
                system2: Seeding::Slip,
                last_round_system1: 2,
                rating1: true,
                rating2: true,
                same_geo: 0,
                club_factor: 0.0,
            },
            System::Mcmahon => Params {
                system1: Seeding::Random,
                system2: Seeding::Fold,
                last_round_system1: 2,
                rating1: true,
                rating2: false,
                same_geo: SCORE,
                club_factor: CLUB_FACTOR,
            },
        }
    }

    fn system1_at(&self, round: u32) -> bool {
        round <= self.last_round_system1
    }
}

/// One player as OpenGotha's pairing sees it.
#[derive(Clone, Debug)]
struct Scored {
    id: PlayerId,
    /// Main score ×2 (a win 2, a draw 1), McMahon's starting score included.
    crit: i32,
    /// Whole main score: the score group's level.
    level: i32,
    /// Score group number, 0 at the top; its size; the place inside it.
    group: i32,
    size: i32,
    inner: i32,
    /// Draw-ups and draw-downs in earlier rounds.
    du: i32,
    dd: i32,
    /// Whites − Blacks over every earlier game.
    wb: i32,
    /// Sum of the opponents' main scores ×2, and of their own such sums (placement).
    sos: i32,
    sosos: i32,
    rank: i32,
    rating: i32,
    club: String,
    byes: u32,
}

/// Pairs the engine's round by OpenGotha's criteria with its default parameters (module docs).
pub(super) fn pair(e: &Engine<'_>, system: System) -> Result<Vec<NewGame>, String> {
    pair_with(e, system, &Params::defaults(system))
}

/// Pairs the engine's round by OpenGotha's criteria with `params`.
pub(super) fn pair_with(e: &Engine<'_>, system: System, params: &Params) -> Result<Vec<NewGame>, String> {
    let mut field = scored(e, system)?;
    let rating = if params.system1_at(e.round) { params.rating1 } else { params.rating2 };
    let groups = number_groups(&mut field, rating);
    let met = meetings(e.history, e.settings, e.round);
    let mut remaining: Vec<usize> = (0..field.len()).collect();
    if remaining.len() % 2 == 1 {
        let bye = bye_player(&field);
        remaining.retain(|&i| i != bye);
    }
    let mut lot = Lot::new(e.seed, Stream::Synthetic);
    let mut games = Vec::with_capacity(field.len() / 2);
    while remaining.len() > GROUP_MAX {
        let group = cut_group(&field, &mut remaining);
        pair_group(&field, &group, groups, e.round, params, &met, &mut lot, &mut games);
    }
    pair_group(&field, &remaining, groups, e.round, params, &met, &mut lot, &mut games);
    Ok(games)
}

/// The active players with their scores, earlier draw-ups/downs and colour balance.
fn scored(e: &Engine<'_>, system: System) -> Result<Vec<Scored>, String> {
    let score_of = dr::score_of(system.event_system(), e.settings);
    let win = e.settings.points.win.max(1);
    let crit_before = |round: u32| -> Result<HashMap<PlayerId, i32>, String> {
        let (recs, _) =
            records(e.players, e.history, e.settings, round, e.seed).map_err(|x| x.to_string())?;
        Ok(e.players.iter().map(|p| (p.id, score_of(p, recs[&p.id].points) * 2 / win)).collect())
    };
    let (recs, _) = records(e.players, e.history, e.settings, e.round, e.seed).map_err(|x| x.to_string())?;
    let now = crit_before(e.round)?;
    let mut du: HashMap<PlayerId, i32> = HashMap::new();
    let mut dd: HashMap<PlayerId, i32> = HashMap::new();
    let mut wb: HashMap<PlayerId, i32> = HashMap::new();
    for round in 1..e.round {
        let before = crit_before(round)?;
        for g in e.history.games.iter().filter(|g| g.round == round) {
            *wb.entry(g.white).or_default() += 1;
            *wb.entry(g.black).or_default() -= 1;
            let (b, w) = (before[&g.black].div_euclid(2), before[&g.white].div_euclid(2));
            let (up, down) = match b.cmp(&w) {
                std::cmp::Ordering::Less => (g.black, g.white),
                std::cmp::Ordering::Greater => (g.white, g.black),
                std::cmp::Ordering::Equal => continue,
            };
            *du.entry(up).or_default() += 1;
            *dd.entry(down).or_default() += 1;
        }
    }
    let mut opponents: HashMap<PlayerId, Vec<PlayerId>> = HashMap::new();
    for g in e.history.games.iter().filter(|g| g.round < e.round) {
        opponents.entry(g.black).or_default().push(g.white);
        opponents.entry(g.white).or_default().push(g.black);
    }
    let sum_over = |id: PlayerId, of: &dyn Fn(PlayerId) -> i32| -> i32 {
        opponents.get(&id).map_or(0, |os| os.iter().map(|&o| of(o)).sum())
    };
    let sos: HashMap<PlayerId, i32> =
        e.players.iter().map(|p| (p.id, sum_over(p.id, &|o| now.get(&o).copied().unwrap_or(0)))).collect();
    let sosos: HashMap<PlayerId, i32> =
        e.players.iter().map(|p| (p.id, sum_over(p.id, &|o| sos.get(&o).copied().unwrap_or(0)))).collect();
    Ok(e.players
        .iter()
        .filter(|p| p.status == Status::Active)
        .map(|p| Scored {
            id: p.id,
            crit: now[&p.id],
            level: now[&p.id].div_euclid(2),
            group: 0,
            size: 0,
            inner: 0,
            du: du.get(&p.id).copied().unwrap_or(0),
            dd: dd.get(&p.id).copied().unwrap_or(0),
            wb: wb.get(&p.id).copied().unwrap_or(0),
            sos: sos[&p.id],
            sosos: sosos[&p.id],
            rank: p.rank_value,
            rating: p.rating.unwrap_or(i32::MIN),
            club: p.unit.clone(),
            byes: recs[&p.id].byes,
        })
        .collect())
}

/// Numbers the score groups from the top and places players inside them by OpenGotha's
/// placement (main score, SOS, SOSOS, then rating where `rating` says so; rank and the
/// player's number break what is left); returns how many groups there are
/// (`fillPairingInfo`).
fn number_groups(field: &mut [Scored], rating: bool) -> i32 {
    let mut levels: Vec<i32> = field.iter().map(|s| s.level).collect();
    levels.sort_unstable_by(|a, b| b.cmp(a));
    levels.dedup();
    let number: HashMap<i32, i32> = levels.iter().enumerate().map(|(i, &l)| (l, i as i32)).collect();
    let mut order: Vec<usize> = (0..field.len()).collect();
    order.sort_by_key(|&i| {
        let s = &field[i];
        let by_rating = if rating { std::cmp::Reverse(s.rating) } else { std::cmp::Reverse(0) };
        (number[&s.level], -s.crit, -s.sos, -s.sosos, by_rating, -s.rank, s.id)
    });
    let mut sizes: HashMap<i32, i32> = HashMap::new();
    for s in field.iter() {
        *sizes.entry(s.level).or_default() += 1;
    }
    let mut placed: HashMap<i32, i32> = HashMap::new();
    for i in order {
        let s = &mut field[i];
        s.group = number[&s.level];
        s.size = sizes[&s.level];
        let inner = placed.entry(s.level).or_default();
        s.inner = *inner;
        *inner += 1;
    }
    levels.len() as i32
}

/// The bye player: lowest rank + McMahon score ×2, 1000 more per earlier bye; the last of
/// equals in the field's order (`chooseAByePlayer`).
fn bye_player(field: &[Scored]) -> usize {
    let weight = |s: &Scored| i64::from(s.rank) + i64::from(s.crit) + 1000 * i64::from(s.byes);
    let mut best = 0;
    for (i, s) in field.iter().enumerate() {
        if weight(s) <= weight(&field[best]) {
            best = i;
        }
    }
    best
}

/// Takes the next pairing group off `remaining`, whole score levels from the top, until it
/// has at least `GROUP_MIN` players and an even number; never more than `GROUP_MAX`, and
/// never leaving fewer than `GROUP_MIN` behind.
fn cut_group(field: &[Scored], remaining: &mut Vec<usize>) -> Vec<usize> {
    let mut levels: Vec<i32> = remaining.iter().map(|&i| field[i].level).collect();
    levels.sort_unstable_by(|a, b| b.cmp(a));
    levels.dedup();
    let mut group = Vec::new();
    for level in levels {
        let mut full = false;
        let mut keep = Vec::with_capacity(remaining.len());
        for (k, &i) in remaining.iter().enumerate() {
            if full || field[i].level < level {
                keep.push(i);
                continue;
            }
            group.push(i);
            let left = remaining.len() - k - 1 + keep.len();
            full = group.len() >= GROUP_MAX || left <= GROUP_MIN;
        }
        *remaining = keep;
        if full || (group.len() >= GROUP_MIN && group.len() % 2 == 0) {
            break;
        }
    }
    group
}

/// Pairs one pairing group by maximum weight and colours its games (`pairAGroup`).
#[allow(clippy::too_many_arguments)]
fn pair_group(
    field: &[Scored],
    group: &[usize],
    groups: i32,
    round: u32,
    params: &Params,
    met: &HashMap<(PlayerId, PlayerId), u8>,
    lot: &mut Lot,
    games: &mut Vec<NewGame>,
) {
    let n = group.len();
    let mut edges = Vec::with_capacity(n * n.saturating_sub(1) / 2);
    for a in 0..n {
        for b in a + 1..n {
            let (pa, pb) = (&field[group[a]], &field[group[b]]);
            let seen = met.contains_key(&ordered(pa.id, pb.id));
            edges.push((a, b, i128::from(weight(pa, pb, seen, groups, round, params))));
        }
    }
    let result = matching::max_weight_matching(n, &edges, true);
    for a in 0..n {
        let Some(b) = result.mate[a].filter(|&b| b > a) else { continue };
        let (pa, pb) = (&field[group[a]], &field[group[b]]);
        let a_black = match pa.wb.cmp(&pb.wb) {
            std::cmp::Ordering::Greater => true,
            std::cmp::Ordering::Less => false,
            std::cmp::Ordering::Equal => lot.coin(),
        };
        let (black, white) = if a_black { (pa.id, pb.id) } else { (pb.id, pa.id) };
        games.push(NewGame::even(black, white, 0));
    }
}

/// The weight of a pair (`costValue`, module docs).
fn weight(a: &Scored, b: &Scored, met: bool, groups: i32, round: u32, params: &Params) -> i64 {
    let mut w = 1;
    if !met {
        w += AVOID_DUPLICATE;
    }
    if a.wb * b.wb < 0 {
        w += BALANCE_WB;
    } else if (a.wb == 0 && b.wb.abs() >= 2) || (b.wb == 0 && a.wb.abs() >= 2) {
        w += BALANCE_WB / 2;
    }
    let x = f64::from((a.group - b.group).abs()) / f64::from(groups);
    w += concave(SCORE, x);
    w += draw_up_down(a, b);
    if a.group == b.group {
        let system = if params.system1_at(round) { params.system1 } else { params.system2 };
        w += seeding(a, b, system);
    }
    if params.same_geo > 0 {
        w += other_club(a, b, groups, params);
    }
    w
}

/// `max · (1 − x)(1 + kx)`, truncated as OpenGotha's `(long)` cast does.
fn concave(max: i64, x: f64) -> i64 {
    (max as f64 * (1.0 - x) * (1.0 + NX1 * x)) as i64
}

/// The draw-up/draw-down term between players of score groups less than 4 apart.
fn draw_up_down(p1: &Scored, p2: &Scored) -> i64 {
    let gap = (p1.group - p2.group).abs();
    if gap == 0 || gap >= 4 {
        return 0;
    }
    // 0: both drawn again the same way; 1: one of them; 2: nothing corrected; 3 and 4: it
    // corrects an earlier draw of one or both.
    let mut scenario = 2;
    for (p, q) in [(p1, p2), (p2, p1)] {
        if (p.du > 0 && p.group > q.group) || (p.dd > 0 && p.group < q.group) {
            scenario -= 1;
        }
    }
    for (p, q) in [(p1, p2), (p2, p1)] {
        let corrects =
            (p.du > 0 && p.dd < p.du && p.group < q.group) || (p.dd > 0 && p.du < p.dd && p.group > q.group);
        if scenario != 0 && corrects {
            scenario += 1;
        }
    }
    let step = DUDD / 5;
    let mid =
        |s: &Scored| step / 2 * i64::from(s.size - 1 - (2 * s.inner - s.size + 1).abs()) / i64::from(s.size);
    mid(p1) + mid(p2) + step * i64::from(scenario)
}

/// Seeding inside one score group (`Seeding`).
fn seeding(a: &Scored, b: &Scored, system: Seeding) -> i64 {
    let size = i64::from(a.size);
    let (c1, c2) = (i64::from(a.inner), i64::from(b.inner));
    match system {
        Seeding::Random => {
            if (2 * c1 < size) != (2 * c2 < size) {
                SEEDING - (i64::from(a.id) * 7919 + i64::from(b.id) * 104_729) % (SEEDING / 5 + 1)
            } else {
                0
            }
        }
        Seeding::Fold => {
            let x = c1 + c2 - (size - 1);
            SEEDING - (SEEDING * x / (size - 1) * x / (size - 1))
        }
        Seeding::Slip => {
            let x = 2 * (c1 - c2).abs() - size;
            SEEDING - (SEEDING * x / size * x / size)
        }
    }
}

/// The geographical criterion with clubs only: 0 for two players of one club, else a
/// bonus as large as the score term's loss over (club factor × 1.2 + 0.5) / groups.
fn other_club(a: &Scored, b: &Scored, groups: i32, params: &Params) -> i64 {
    let same = !a.club.is_empty() && a.club == b.club;
    let mut ratio = if same { 0.0 } else { (params.club_factor * 1.2 / f64::from(groups)).min(1.0) };
    if ratio > 0.0 {
        ratio += 0.5 / f64::from(groups);
    }
    (SCORE - concave(params.same_geo, ratio)).min(params.same_geo)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench_pair::{synthetic_history, synthetic_players};
    use admin::domain::pairing::Settings;

    fn s(id: PlayerId, group: i32, inner: i32, size: i32) -> Scored {
        Scored {
            id,
            crit: 0,
            level: -group,
            group,
            size,
            inner,
            du: 0,
            dd: 0,
            wb: 0,
            sos: 0,
            sosos: 0,
            rank: 0,
            rating: 0,
            club: String::new(),
            byes: 0,
        }
    }

    #[test]
    fn weights_follow_opengothas_order_of_criteria() {
        let swiss = Params::defaults(System::Swiss);
        let w = |x: &Scored, y: &Scored, met: bool| weight(x, y, met, 5, 6, &swiss);
        let (a, b, c) = (s(1, 0, 0, 4), s(2, 0, 3, 4), s(3, 1, 0, 4));
        // Not meeting again outweighs everything; the same group outweighs colours and seeding.
        assert!(w(&a, &b, false) > w(&a, &b, true));
        assert!(w(&a, &b, true) < w(&a, &c, false));
        assert!(w(&a, &b, false) > w(&a, &c, false));
        // Opposite colour leanings earn 10⁶, level against two off half of it.
        let (mut white, mut black) = (a.clone(), b.clone());
        white.wb = 1;
        black.wb = -1;
        let base = w(&a, &b, false);
        assert_eq!(w(&white, &black, false) - base, BALANCE_WB);
        black.wb = -2;
        assert_eq!(w(&a, &black, false) - base, BALANCE_WB / 2);
        // Split and fold: 1st meets 4th of four; split and slip: 1st meets 3rd.
        let fold = |x: &Scored, y: &Scored| seeding(x, y, Seeding::Fold);
        let slip = |x: &Scored, y: &Scored| seeding(x, y, Seeding::Slip);
        let third = s(4, 0, 2, 4);
        assert!(fold(&a, &b) > fold(&a, &third));
        assert!(slip(&a, &third) > slip(&a, &b));
        assert_eq!(fold(&a, &b), SEEDING);
        // McMahon: players of two clubs earn four to five score groups' worth; Swiss: nothing.
        let mm = Params::defaults(System::Mcmahon);
        let (mut x, mut y) = (a.clone(), b.clone());
        x.club = "A".into();
        y.club = "A".into();
        assert_eq!(other_club(&x, &y, 10, &mm), 0);
        y.club = "B".into();
        let bonus = other_club(&x, &y, 10, &mm);
        let one_group = SCORE - concave(SCORE, 0.1);
        assert!(bonus > 4 * one_group && bonus < 6 * one_group, "{bonus} {one_group}");
        let (mut x0, mut y0) = (x.clone(), y.clone());
        x0.club.clear();
        y0.club.clear();
        assert_eq!(weight(&x, &y, false, 10, 6, &swiss), weight(&x0, &y0, false, 10, 6, &swiss));
        // Rounds 1 and 2 are seeded by the first system (OpenGotha's 0-based round ≤ 1).
        assert!(mm.system1_at(2) && !mm.system1_at(3));
    }

    #[test]
    fn a_draw_up_again_weighs_less_than_one_that_corrects() {
        let (mut up, down) = (s(1, 1, 0, 3), s(2, 0, 1, 3));
        let plain = draw_up_down(&up, &down);
        up.du = 1;
        assert!(draw_up_down(&up, &down) < plain, "drawn up a second time");
        up.du = 0;
        up.dd = 1;
        assert!(draw_up_down(&up, &down) > plain, "up now, down before: corrected");
        assert_eq!(draw_up_down(&s(1, 0, 0, 3), &s(2, 4, 0, 3)), 0, "four groups apart: no term");
    }

    #[test]
    fn groups_are_cut_from_the_top_in_whole_levels() {
        // 1,000 players on five levels of 200: the first group is the top level.
        let field: Vec<Scored> = (0..1000)
            .map(|i| s(i as PlayerId + 1, 0, 0, 200))
            .map(|mut x| {
                x.level = 4 - (x.id as i32 - 1) % 5;
                x
            })
            .collect();
        let mut remaining: Vec<usize> = (0..1000).collect();
        let group = cut_group(&field, &mut remaining);
        assert_eq!(group.len(), 200);
        assert!(group.iter().all(|&i| field[i].level == 4));
        assert_eq!(remaining.len(), 800);
        let group = cut_group(&field, &mut remaining);
        assert!(group.iter().all(|&i| field[i].level == 3));
        assert_eq!(remaining.len(), 600, "600 left: paired as one group");
    }

    /// The pairs of each later round of a file OpenGotha paired itself, and this module's
    /// pairs of the same round from the rounds before: (round, pairs in common, games).
    fn agreement_with_the_file(file: &[u8], system: System, params: &Params) -> Vec<(u32, usize, usize)> {
        use crate::bench_pair::{read_event, Colours};
        use admin::db::{self, entrants, rounds, Actor};
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("event.xml");
        std::fs::write(&path, file).unwrap();
        let (og, settings) = read_event(&path, Some(system), Colours::Balanced).unwrap();
        let pool = db::open(&dir.path().join("event.db")).unwrap();
        let mut conn = pool.get().unwrap();
        let data = admin::office::imports::from_opengotha(&og);
        let note = entrants::ImportNote::new("test");
        let (tid, imported) =
            entrants::create_event(&mut conn, &Actor::system("test"), &settings, &data, &note).unwrap();
        let index = og.index();
        let id = |k: &str| rounds::pid(imported.ids[index[k]].unwrap());
        let last = og.games.iter().map(|g| g.round).max().unwrap();
        (2..=last)
            .map(|round| {
                let ctx = rounds::context(&mut conn, tid, round as i32).unwrap();
                let e = Engine {
                    players: &ctx.players,
                    history: &ctx.history,
                    settings: &ctx.psettings,
                    round,
                    seed: 1,
                };
                let ours: std::collections::HashSet<(PlayerId, PlayerId)> = pair_with(&e, system, params)
                    .unwrap()
                    .iter()
                    .map(|g| ordered(g.black, g.white))
                    .collect();
                let theirs: Vec<(PlayerId, PlayerId)> = og
                    .games
                    .iter()
                    .filter(|g| g.round == round)
                    .map(|g| ordered(id(&g.black_key), id(&g.white_key)))
                    .collect();
                (round, theirs.iter().filter(|p| ours.contains(p)).count(), theirs.len())
            })
            .collect()
    }

    /// Two files OpenGotha paired itself (pairgoth's test files, `admin/tests/fixtures`), each
    /// round paired again from the rounds before with the file's own parameters (the Swiss one
    /// seeds by split and slip in every round, the McMahon one by split and slip up to round 3,
    /// then split and fold, with clubs avoided). The Swiss file comes out the same in rounds
    /// 2–6 and in 11 of 16 games of round 7; the McMahon file in 24 of its 32 games, where
    /// its handicap games (by McMahon score, which the restatement leaves out: it pairs even
    /// games) lose the colour criterion in OpenGotha.
    #[test]
    fn close_to_opengothas_own_pairings_of_real_files() {
        let swiss = Params { last_round_system1: 3, ..Params::defaults(System::Swiss) };
        let mm =
            Params { system1: Seeding::Slip, last_round_system1: 3, ..Params::defaults(System::Mcmahon) };
        for (name, file, system, params) in [
            (
                "simpleswiss",
                &include_bytes!("../../tests/fixtures/opengotha/simpleswiss.xml")[..],
                System::Swiss,
                swiss,
            ),
            (
                "simplemm",
                &include_bytes!("../../tests/fixtures/opengotha/simplemm.xml")[..],
                System::Mcmahon,
                mm,
            ),
        ] {
            let rounds = agreement_with_the_file(file, system, &params);
            let same: usize = rounds.iter().map(|r| r.1).sum();
            let games: usize = rounds.iter().map(|r| r.2).sum();
            match name {
                "simpleswiss" => {
                    assert!(rounds[..5].iter().all(|r| r.1 == r.2), "{name}: {rounds:?}");
                    assert!(same >= 91, "{name}: {same} of {games}: {rounds:?}");
                }
                _ => assert!(same >= 24, "{name}: {same} of {games}: {rounds:?}"),
            }
        }
    }

    #[test]
    fn pairs_a_synthetic_round_completely_without_rematches() {
        for system in [System::Swiss, System::Mcmahon] {
            let players = synthetic_players(1401, 3);
            let settings = Settings::default();
            let history = synthetic_history(&players, &settings, 4, 3, system);
            let e = Engine { players: &players, history: &history, settings: &settings, round: 5, seed: 3 };
            let games = pair(&e, system).unwrap();
            assert_eq!(games.len(), 700, "{system:?}: one bye, every other player paired");
            let met = meetings(&history, &settings, 5);
            let mut seen = std::collections::HashSet::new();
            for g in &games {
                assert!(seen.insert(g.black) && seen.insert(g.white));
                assert!(!met.contains_key(&ordered(g.black, g.white)), "no rematch");
            }
        }
    }
}
