//! `tengen demo`: a fresh database with a realistic Chinese tournament to try things on.

use super::files::CliError;
use crate::db::{self, entrants, tournaments, users, Actor};
use crate::domain::demo::demo_entrants;
use crate::domain::settings::TournamentSettings;
use crate::i18n::{tr, Lang};
use clap::Args;
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
    let owner = organizer.as_ref().map(|u| u.actor()).unwrap_or(actor.clone());
    let tid = tournaments::create(&mut conn, &owner, &s)?;
    let field = demo_entrants(a.seed, a.entrants);
    let rows = field.iter().cloned().map(entrants::ImportRow::trusted).collect();
    entrants::add_entrants(&mut conn, &owner, tid, rows, &entrants::ImportNote::new("demo"))?;
    let (name, entrants, database) = (s.name_zh.clone(), field.len(), db::shown(db_path));
    println!("{}", tr!(say, "cli_say.demo_tournament", name, tournament = tid, entrants, database));
    Ok(())
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
