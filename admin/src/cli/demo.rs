//! `tengen demo`: a fresh database with a realistic Chinese open to try things on: one event of
//! three groups (业余高段组, 公开组, 少儿组, `domain::demo::demo_groups`), the field placed by
//! the groups' bands, two rounds paired and played in every group and the third paired and
//! published, waiting for its results.

use super::files::CliError;
use crate::db::events::{self, GroupFields};
use crate::db::{self, entrants, group_imports, rounds, tournaments, users, Actor, Conn};
use crate::domain::demo::{demo_entrants, demo_groups};
use crate::domain::groups::{self, Candidate};
use crate::domain::results::Entry;
use crate::domain::settings::{ColourMethod, TournamentSettings};
use crate::i18n::{tr, Lang};
use crate::office::pair_round::{pair_round, PairRound};
use crate::office::save_result::{save_result, SaveResult};
use clap::Args;
use rules::board::Color;
use std::path::Path;

#[derive(Args, Debug)]
pub struct DemoArgs {
    /// Number of entrants.
    #[arg(long, default_value_t = 128)]
    pub entrants: usize,
    /// Seed of the generated names and ranks (the same seed gives the same field).
    #[arg(long, default_value_t = 2026)]
    pub seed: u64,
}

pub fn run(db_path: &Path, a: DemoArgs) -> Result<(), CliError> {
    let say = Lang::from_environment();
    let pool = db::open(db_path)?;
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    if !tournaments::list(&mut conn)?.is_empty() {
        return Err(CliError::HasTournaments(db::shown(db_path)));
    }
    let actor = Actor::system("demo");
    let mut organizer = None;
    if users::count(&mut conn)? == 0 {
        let password = users::random_token()[..16].to_string();
        let acc = users::NewAccount {
            username: "organizer",
            display_name: "赛事组织者",
            password: &password,
            role: users::Role::Organizer,
        };
        // A fresh database: the name cannot be taken.
        let u = users::create(&mut conn, &actor, &acc)?.ok_or(CliError::NameTaken(acc.username.into()))?;
        println!("{}", tr!(say, "cli_say.demo_account", username = acc.username, password));
        organizer = Some(u);
    }
    // The demo is an event in Beijing: its times are China's, whatever the server's zone.
    let zone = crate::domain::event_time::EventZone::SHANGHAI;
    let today = crate::machine::today_in(zone);
    let mut s = TournamentSettings::defaults(today, zone);
    s.name_zh = "2026年天元杯业余围棋公开赛".into();
    s.name_latin = "Tengen Cup Amateur Open 2026".into();
    s.venue = "北京市东城区 中国棋院".into();
    s.end_date = today + chrono::Duration::days(2);
    s.rounds = 7;
    // Colours by the pairing, so that the games played here need no nigiri record.
    s.colour_method = ColourMethod::Balanced;
    let owner = organizer.as_ref().map(|u| u.actor()).unwrap_or(actor.clone());
    let tid = tournaments::create(&mut conn, &owner, &s)?;
    let ids = make_groups(&mut conn, &owner, tid, &s)?;
    let field = demo_entrants(a.seed, a.entrants);
    let bands: Vec<(i32, groups::Band)> =
        ids.iter().zip(demo_groups(s.start_date)).map(|(&id, g)| (id, g.band)).collect();
    let cands: Vec<Candidate> = (0..)
        .zip(&field)
        .map(|(id, e)| Candidate { id, rank_value: e.rank.value(), birth_date: e.birth_date })
        .collect();
    // The catch-all takes whoever no band does, so every entrant has a group.
    let rows = field
        .iter()
        .zip(groups::propose(&bands, &cands))
        .map(|(e, (_, g))| (g.unwrap_or(ids[1]), entrants::ImportRow::trusted(e.clone())))
        .collect();
    group_imports::add_to_groups(&mut conn, &owner, tid, rows, &entrants::ImportNote::new("demo"))?;
    for (i, &g) in ids.iter().enumerate() {
        play(&mut conn, &owner, g, a.seed.wrapping_add(i as u64))?;
    }
    let (name, entrants, database) = (s.name_zh.clone(), field.len(), db::shown(db_path));
    println!("{}", tr!(say, "cli_say.demo_tournament", name, tournament = tid, entrants, database));
    Ok(())
}

/// The event's three groups: `tid` (the event's first) named and banded as the first of
/// [`demo_groups`], the others added after it in hall order. Their ids in that order.
fn make_groups(
    conn: &mut Conn,
    owner: &Actor,
    tid: i32,
    s: &TournamentSettings,
) -> Result<Vec<i32>, CliError> {
    let event = events::event_of(conn, tid)?;
    let mut ids = Vec::new();
    for (order, g) in (1..).zip(demo_groups(s.start_date)) {
        let fields = GroupFields {
            group_name_zh: g.name_zh.into(),
            group_name_latin: g.name_latin.into(),
            group_order: order,
            first_table: None,
            band: g.band,
        };
        if ids.is_empty() {
            let version = tournaments::get(conn, tid)?.version;
            events::set_group(conn, owner, tid, version, &fields).map_err(|e| unexpected(&e))?;
            ids.push(tid);
        } else {
            ids.push(events::add_group(conn, owner, event, s, &fields)?);
        }
    }
    Ok(ids)
}

/// Rounds 1 and 2 of group `tid` paired, published and played (Black wins two games in
/// three, by the game's id and the seed), round 3 paired and published.
fn play(conn: &mut Conn, owner: &Actor, tid: i32, seed: u64) -> Result<(), CliError> {
    for round in 1..=3 {
        let ask =
            PairRound { round, seed: seed ^ round as u64, expected_version: None, confirm: true, reason: "" };
        let r = pair_round(conn, owner, tid, &ask).map_err(|e| unexpected(&e))?;
        rounds::publish(conn, owner, tid, round, r.version, true, "").map_err(|e| unexpected(&e))?;
        if round == 3 {
            break;
        }
        for g in rounds::games_of(conn, tid, round)?.iter().filter(|g| !g.is_bye()) {
            let winner = if (g.id as u64 ^ seed).is_multiple_of(3) { Color::White } else { Color::Black };
            let save = SaveResult {
                version: 0,
                colours_version: None,
                entry: Some(Entry::Resignation { winner }),
                reason: "",
            };
            save_result(conn, owner, tid, g.id, &save).map_err(|e| unexpected(&e))?;
        }
    }
    Ok(())
}

/// A refusal the demo's own fresh event cannot meet (its writes are the first there).
fn unexpected(e: &dyn std::fmt::Debug) -> CliError {
    CliError::Said(format!("{e:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::entrants_csv::{parse_entrants_on, write_entrants};

    /// The demo's entrants read back from the entrant CSV unchanged (the demo field is what an
    /// import of its own export gives).
    #[test]
    fn demo_entrants_survive_a_csv_round_trip() {
        let field = demo_entrants(11, 120);
        let today = chrono::NaiveDate::from_ymd_opt(2026, 6, 1).unwrap();
        let preview = parse_entrants_on(&write_entrants(&field), today).unwrap();
        assert!(preview.bad_rows().next().is_none());
        assert_eq!(preview.entrants().cloned().collect::<Vec<_>>(), field);
    }

    #[test]
    #[ignore = "prints a field to eyeball: cargo test -p admin show_demo -- --ignored --nocapture"]
    fn show_demo() {
        for e in demo_entrants(1, 40) {
            println!("{}", String::from_utf8_lossy(&write_entrants(&[e])[3..]).lines().nth(1).unwrap());
        }
    }
}
