//! Pair a round: the next round as a draft, or the draft of the page's version paired again.
//!
//! The engine runs with no transaction open, so a 10,000-player round never holds the
//! database's write lock while it is paired: the inputs are read in one read transaction (a
//! consistent snapshot, with the event's change counter, [`rdb::read_inputs`]), the domain
//! pairs them ([`draft`]), and the draft is written in a short write transaction that first
//! checks the change counter ([`rdb::write_draft`], with its audit rows). If any audited write
//! of this event came in between, what was paired is no longer what is stored: the round is
//! paired again from a new read, up to [`PAIR_ATTEMPTS`] times, then refused with
//! [`RoundError::Changed`] and nothing written.

use crate::db::rounds::{self as rdb, Mode, PairInputs, RoundError, RoundRow};
use crate::db::{self, tournaments as tdb, Actor, Conn};
use diesel::Connection;
use domain::rounds as dr;

/// How many times [`pair_round`] pairs again when the event changed while it was pairing,
/// before it says so ([`RoundError::Changed`]).
pub const PAIR_ATTEMPTS: usize = 3;

/// The environment variable that holds every pairing for that many milliseconds after the
/// engine's run, with no transaction open: the end-to-end test of a change while pairing uses
/// it to stand for a slow engine deterministically (the engine at 1,024 players is now faster
/// than a few result saves). Unset in normal use; a value that is not a number is ignored.
pub const PAIR_HOLD_ENV: &str = "TENGEN_PAIR_HOLD_MS";

fn hold_after_engine() {
    let ms = std::env::var(PAIR_HOLD_ENV).ok().and_then(|v| v.parse::<u64>().ok());
    if let Some(ms) = ms.filter(|&ms| ms > 0) {
        std::thread::sleep(std::time::Duration::from_millis(ms.min(60_000)));
    }
}

/// What a pairing is asked: the round, the seed, the draft's version on the page (none for a
/// new round), whether games of earlier rounds without a result were confirmed, the reason.
pub struct PairRound<'a> {
    pub round: i32,
    pub seed: u64,
    pub expected_version: Option<i32>,
    pub confirm: bool,
    pub reason: &'a str,
}

/// Pairs round `ask.round` of event `tid` as a draft with `ask.seed`: a new round (it must be
/// the next one, after published rounds), or a new pairing of the existing draft of
/// `ask.expected_version`. Double-loss lots drawn for the previous round are stored on its
/// games and audited. Games of earlier rounds without a result
/// ([`open_games`](domain::pairing::review::open_games)) need `ask.confirm`: without it
/// nothing is written ([`RoundError::OpenGames`]); with it the audit row keeps the warnings
/// confirmed.
pub fn pair_round(conn: &mut Conn, actor: &Actor, tid: i32, ask: &PairRound) -> Result<RoundRow, RoundError> {
    pair_round_with(conn, actor, tid, ask, &mut |_| hold_after_engine())
}

/// [`pair_round`], with `between` run on the connection after each attempt's engine run and
/// before its write: the tests make a concurrent change there, deterministically.
pub fn pair_round_with(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    ask: &PairRound,
    between: &mut dyn FnMut(&mut Conn),
) -> Result<RoundRow, RoundError> {
    let n = ask.round;
    for _ in 0..PAIR_ATTEMPTS {
        let inputs = conn.transaction(|c| rdb::read_inputs(c, tid, n, ask.expected_version, Mode::Next))?;
        if !inputs.open.is_empty() && !ask.confirm {
            return Err(RoundError::OpenGames(inputs.open));
        }
        let planned = draft(&inputs, n, ask.seed)?;
        between(conn);
        let stored = db::write_tx(&mut *conn, |c| {
            let (changes, _) = tdb::change_stamp(c, tid)?;
            if changes != inputs.changes {
                return Ok(None);
            }
            rdb::write_draft(c, actor, &inputs, n, ask.seed, planned, ask.reason).map(Some)
        })?;
        if let Some(row) = stored {
            return Ok(row);
        }
    }
    Err(RoundError::Changed)
}

/// The domain's draft of round `n` from what was read, its tables numbered, the double-loss
/// lots stored by an earlier pairing of this round kept among its draws (pure: no database).
pub(super) fn draft(inputs: &PairInputs, n: i32, seed: u64) -> Result<dr::Draft, RoundError> {
    let ctx = &inputs.ctx;
    let input = dr::RoundInput {
        system: ctx.system(),
        settings: &ctx.psettings,
        players: &ctx.players,
        history: &ctx.history,
        round: u32::try_from(n).unwrap_or(1),
        seed,
        previous_plan: inputs.previous_plan.as_ref(),
        declared_rounds: u32::try_from(ctx.t.rounds).unwrap_or(1),
        komi_q: ctx.komi_q(),
    };
    let mut planned = dr::plan_round(&input).map_err(RoundError::Plan)?;
    ctx.number_tables(seed, &mut planned.games)?;
    planned.draws.extend(inputs.stored_lots.iter().cloned());
    Ok(planned)
}
#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::db::audit;
    use crate::db::entrants::{self as edb, Sort};
    use domain::demo::demo_entrants;
    use domain::settings::TournamentSettings;
    use std::collections::HashSet;

    /// A database with `events` tournaments of 20 demo entrants each (colours balanced by the
    /// pairing, no nigiri to wait for), nothing paired.
    pub(in crate::office) fn events(events: usize) -> (tempfile::TempDir, db::DbPool, Vec<i32>) {
        let dir = tempfile::tempdir().unwrap();
        let pool = db::open(&dir.path().join("t.db")).unwrap();
        let mut conn = pool.get().unwrap();
        let actor = Actor::system("test");
        let mut tids = Vec::new();
        for k in 0..events {
            let mut s = TournamentSettings::defaults(
                chrono::NaiveDate::from_ymd_opt(2026, 12, 5).unwrap(),
                db::server_zone(),
            );
            s.name_zh = format!("编排赛{k}");
            s.rounds = 5;
            s.colour_method = domain::settings::ColourMethod::Balanced;
            let tid = tdb::create(&mut conn, &actor, &s).unwrap();
            let rows = demo_entrants(7 + k as u64, 20).into_iter().map(edb::ImportRow::trusted).collect();
            edb::add_entrants(&mut conn, &actor, tid, rows, &edb::ImportNote::new("test")).unwrap();
            tids.push(tid);
        }
        (dir, pool, tids)
    }

    fn ask(round: i32, seed: u64, expected_version: Option<i32>) -> PairRound<'static> {
        PairRound { round, seed, expected_version, confirm: false, reason: "" }
    }

    fn paired_ids(conn: &mut Conn, tid: i32, n: i32) -> HashSet<i32> {
        rdb::games_of(conn, tid, n).unwrap().iter().flat_map(|g| [g.black_id, g.white_id]).flatten().collect()
    }

    fn audit_actions(conn: &mut Conn, tid: i32, action: &str) -> usize {
        audit::for_tournament(conn, tid, 1000).unwrap().iter().filter(|r| r.action == action).count()
    }

    /// A pairing never holds the write lock while the engine runs, so an entrant withdrawn
    /// while the round is being paired (after the read, before the write) is not in the
    /// stored draft: the first pairing is thrown away and the round paired again from a new
    /// read.
    #[test]
    fn a_change_while_pairing_pairs_again() {
        let (_dir, pool, tids) = events(1);
        let mut conn = pool.get().unwrap();
        let tid = tids[0];
        let actor = Actor::system("test");
        let leaver = edb::list(&mut conn, tid, "", Sort::Id).unwrap()[3].id;
        let mut calls = 0;
        let row = pair_round_with(&mut conn, &actor, tid, &ask(1, 42, None), &mut |c| {
            calls += 1;
            if calls == 1 {
                edb::set_status(c, &Actor::system("arbiter"), tid, leaver, true, "left").unwrap();
            }
        })
        .unwrap();
        assert_eq!(calls, 2, "paired twice: the first draft was of an older state");
        assert_eq!(row.version, 1);
        let ids = paired_ids(&mut conn, tid, 1);
        assert_eq!(ids.len(), 19, "the 19 entrants still in, one of them with the bye");
        assert!(!ids.contains(&leaver));
        assert_eq!(audit_actions(&mut conn, tid, "pair"), 1, "one draft stored, one audit row");
    }

    /// A write in another tournament does not make a pairing start again.
    #[test]
    fn a_change_elsewhere_does_not() {
        let (_dir, pool, tids) = events(2);
        let mut conn = pool.get().unwrap();
        let actor = Actor::system("test");
        let other = edb::list(&mut conn, tids[1], "", Sort::Id).unwrap()[0].id;
        let mut calls = 0;
        pair_round_with(&mut conn, &actor, tids[0], &ask(1, 42, None), &mut |c| {
            calls += 1;
            edb::set_status(c, &actor, tids[1], other, calls % 2 == 1, "").unwrap();
        })
        .unwrap();
        assert_eq!(calls, 1);
        assert_eq!(paired_ids(&mut conn, tids[0], 1).len(), 20);
    }

    /// When the event changes during every attempt, the pairing says so and writes nothing:
    /// no round, no game, no audit row of a pairing.
    #[test]
    fn an_event_that_keeps_changing_is_refused() {
        let (_dir, pool, tids) = events(1);
        let mut conn = pool.get().unwrap();
        let tid = tids[0];
        let actor = Actor::system("test");
        let e = edb::list(&mut conn, tid, "", Sort::Id).unwrap()[0].id;
        let mut calls = 0;
        let r = pair_round_with(&mut conn, &actor, tid, &ask(1, 42, None), &mut |c| {
            calls += 1;
            edb::set_status(c, &actor, tid, e, calls % 2 == 1, "").unwrap();
        });
        assert!(matches!(r, Err(RoundError::Changed)), "{r:?}");
        assert_eq!(calls, PAIR_ATTEMPTS);
        assert!(rdb::list(&mut conn, tid).unwrap().is_empty());
        assert!(paired_ids(&mut conn, tid, 1).is_empty());
        assert_eq!(audit_actions(&mut conn, tid, "pair"), 0);
    }

    /// An event of three groups of 20, 13 and 8 entrants in one hall, in that hall order (the
    /// first unnamed, the others 业余低段组 and 少儿组).
    pub(in crate::office) fn hall(conn: &mut Conn) -> Vec<i32> {
        let actor = Actor::system("test");
        let mut s = TournamentSettings::defaults(
            chrono::NaiveDate::from_ymd_opt(2026, 12, 5).unwrap(),
            db::server_zone(),
        );
        s.name_zh = "天元杯".into();
        s.rounds = 5;
        s.colour_method = domain::settings::ColourMethod::Balanced;
        let first = tdb::create(conn, &actor, &s).unwrap();
        let event = db::events::event_of(conn, first).unwrap();
        let mut tids = vec![first];
        for name in ["业余低段组", "少儿组"] {
            let f = db::events::GroupFields { group_name_zh: name.into(), ..Default::default() };
            tids.push(db::events::add_group(conn, &actor, event, &s, &f).unwrap());
        }
        for (tid, n) in tids.iter().zip([20usize, 13, 8]) {
            let rows = demo_entrants(n as u64, n).into_iter().map(edb::ImportRow::trusted).collect();
            edb::add_entrants(conn, &actor, *tid, rows, &edb::ImportNote::new("test")).unwrap();
        }
        tids
    }

    /// The hall numbers (tournament practice: one hall, every table number unique in a round)
    /// of each group's round `n`, by group.
    fn hall_numbers(conn: &mut Conn, tids: &[i32], n: i32) -> Vec<Vec<u32>> {
        tids.iter()
            .map(|&tid| {
                let r = rdb::get(conn, tid, n).unwrap();
                rdb::games_of(conn, tid, n)
                    .unwrap()
                    .iter()
                    .filter(|g| !g.is_bye())
                    .map(|g| r.hall_number(u32::try_from(g.board).unwrap()))
                    .collect()
            })
            .collect()
    }

    /// Tournament practice (one hall): groups paired one by one in any order take hall numbers
    /// fixed when each is paired, strongest group first, no number given twice in the round; a
    /// draft paired again keeps its range, and a published round's never moves.
    #[test]
    fn groups_paired_in_any_order_share_the_hall() {
        let (_dir, pool, _) = events(0);
        let mut conn = pool.get().unwrap();
        let actor = Actor::system("test");
        let tids = hall(&mut conn);
        // The youngest group first, then the strongest, then the middle one.
        for &tid in &[tids[2], tids[0], tids[1]] {
            pair_round(&mut conn, &actor, tid, &ask(1, 5, None)).unwrap();
        }
        let firsts: Vec<i32> = tids.iter().map(|&t| rdb::get(&mut conn, t, 1).unwrap().hall_first).collect();
        // 10 tables, then 7 (13 entrants, one bye: 6 games, 7 reserved), then 4.
        assert_eq!(firsts, vec![1, 11, 18]);
        let numbers = hall_numbers(&mut conn, &tids, 1);
        assert_eq!(numbers[0], (1..=10).collect::<Vec<_>>());
        assert_eq!(numbers[1], (11..=16).collect::<Vec<_>>());
        assert_eq!(numbers[2], (18..=21).collect::<Vec<_>>());
        let all: Vec<u32> = numbers.concat();
        assert_eq!(all.iter().collect::<HashSet<_>>().len(), all.len(), "a hall number given twice");
        // Paired again, the middle group keeps its range.
        pair_round(&mut conn, &actor, tids[1], &ask(1, 6, Some(1))).unwrap();
        assert_eq!(rdb::get(&mut conn, tids[1], 1).unwrap().hall_first, 11);
        // Round 2: the strongest group paired last takes 1 as before.
        for &tid in &tids {
            let v = rdb::get(&mut conn, tid, 1).unwrap().version;
            rdb::publish(&mut conn, &actor, tid, 1, v, true, "").unwrap();
        }
        assert_eq!(rdb::get(&mut conn, tids[1], 1).unwrap().hall_first, 11, "published, it stays");
        let ask2 = PairRound { round: 2, seed: 9, expected_version: None, confirm: true, reason: "" };
        for &tid in &[tids[1], tids[2], tids[0]] {
            pair_round(&mut conn, &actor, tid, &ask2).unwrap();
        }
        let all: Vec<u32> = hall_numbers(&mut conn, &tids, 2).concat();
        assert_eq!(all.iter().collect::<HashSet<_>>().len(), all.len(), "a hall number given twice");
        assert_eq!(rdb::get(&mut conn, tids[0], 2).unwrap().hall_first, 1);
    }

    /// Tournament practice (one hall): a group whose first hall number the organizer fixed (the
    /// juniors' room from 101) takes it, and the groups after it in the hall follow it.
    #[test]
    fn a_fixed_first_number_is_kept() {
        let (_dir, pool, _) = events(0);
        let mut conn = pool.get().unwrap();
        let actor = Actor::system("test");
        let tids = hall(&mut conn);
        let g = db::events::group(&mut conn, tids[1]).unwrap();
        let fields = db::events::GroupFields { first_table: Some(101), ..g.fields };
        db::events::set_group(&mut conn, &actor, tids[1], g.t.version, &fields).unwrap();
        for &tid in &tids {
            pair_round(&mut conn, &actor, tid, &ask(1, 4, None)).unwrap();
        }
        let firsts: Vec<i32> = tids.iter().map(|&t| rdb::get(&mut conn, t, 1).unwrap().hall_first).collect();
        assert_eq!(firsts, vec![1, 101, 107]);
    }

    /// Tournament practice (one hall): a tournament alone in its event numbers its tables from 1,
    /// as it always has.
    #[test]
    fn a_single_group_keeps_its_table_numbers() {
        let (_dir, pool, tids) = events(1);
        let mut conn = pool.get().unwrap();
        pair_round(&mut conn, &Actor::system("test"), tids[0], &ask(1, 1, None)).unwrap();
        let r = rdb::get(&mut conn, tids[0], 1).unwrap();
        assert_eq!(r.hall_first, 1);
        assert_eq!(hall_numbers(&mut conn, &tids, 1)[0], (1..=10).collect::<Vec<_>>());
    }

    /// A draft paired again over a stale version is refused before anything is computed.
    #[test]
    fn pairing_a_draft_again_checks_its_version() {
        let (_dir, pool, tids) = events(1);
        let mut conn = pool.get().unwrap();
        let actor = Actor::system("test");
        let tid = tids[0];
        pair_round(&mut conn, &actor, tid, &ask(1, 1, None)).unwrap();
        let again = pair_round(&mut conn, &actor, tid, &ask(1, 2, Some(1))).unwrap();
        assert_eq!(again.version, 2);
        assert!(matches!(
            pair_round(&mut conn, &actor, tid, &ask(1, 3, Some(1))),
            Err(RoundError::Stale { current: 2 })
        ));
        assert_eq!(audit_actions(&mut conn, tid, "repair"), 1);
    }
}
