//! `tengen user add|passwd|list`: accounts from the machine itself (the first account, or a
//! forgotten password of the account administrator).

use crate::db::users::{self, NewAccount, Role};
use crate::db::Actor;
use crate::domain::password;
use crate::i18n::Lang;
use clap::Subcommand;
use std::io::BufRead;
use std::path::Path;

#[derive(Subcommand, Debug)]
pub enum UserCommand {
    /// Create an account. The password is read from TENGEN_PASSWORD or the first line of stdin.
    /// The first account of a database administers the accounts.
    Add {
        username: String,
        #[arg(long, value_parser = ["organizer", "arbiter"])]
        role: String,
        #[arg(long, default_value = "")]
        display_name: String,
    },
    /// Set a new password for NAME (from TENGEN_PASSWORD or the first line of stdin); every
    /// session of the account ends.
    Passwd { username: String },
    /// List accounts.
    List,
}

fn read_password(username: &str) -> Result<String, String> {
    match std::env::var("TENGEN_PASSWORD") {
        Ok(p) => Ok(p),
        Err(_) => {
            eprintln!("password for {username}:");
            let mut line = String::new();
            std::io::stdin().lock().read_line(&mut line).map_err(|e| e.to_string())?;
            Ok(line.trim_end_matches(['\r', '\n']).to_string())
        }
    }
}

pub fn run(db: &Path, cmd: UserCommand) -> Result<(), String> {
    let pool = crate::db::open(db).map_err(|e| e.to_string())?;
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    match cmd {
        UserCommand::Add { username, role, display_name } => {
            let role = Role::parse(&role).ok_or("role must be organizer or arbiter")?;
            let password = read_password(&username)?;
            let events = crate::db::tournaments::names(&mut conn).map_err(|e| e.to_string())?;
            let problems = password::check_account(&username, &display_name, &password, &events);
            if !problems.is_empty() {
                let msgs: Vec<String> = problems
                    .iter()
                    .map(|p| format!("{}: {}", p.field(), Lang::En.account_problem(p)))
                    .collect();
                return Err(msgs.join("; "));
            }
            let acc =
                NewAccount { username: &username, display_name: &display_name, password: &password, role };
            match users::create(&mut conn, &Actor::system("cli"), &acc).map_err(|e| e.to_string())? {
                Some(u) if u.admin => {
                    println!("created {} account {} (account administrator)", u.role.code(), u.username)
                }
                Some(u) => println!("created {} account {}", u.role.code(), u.username),
                None => return Err(format!("the user name {username} is taken")),
            }
        }
        UserCommand::Passwd { username } => {
            let row = users::by_username(&mut conn, &username)
                .map_err(|e| e.to_string())?
                .ok_or(format!("no account named {username}"))?;
            let password = read_password(&row.username)?;
            let events = crate::db::tournaments::names(&mut conn).map_err(|e| e.to_string())?;
            let known =
                password::Known { username: &row.username, display_name: &row.display_name, events: &events };
            if let Some(w) = password::check(&password, &known) {
                return Err(format!("password: {}", Lang::En.weakness(&w)));
            }
            users::set_password(&mut conn, &Actor::system("cli"), row.id, &password, None)
                .map_err(|e| e.to_string())?;
            println!("new password set for {}; its sessions ended", row.username);
        }
        UserCommand::List => {
            for u in users::all(&mut conn).map_err(|e| e.to_string())? {
                println!(
                    "{}\t{}\t{}{}",
                    u.username,
                    u.role.code(),
                    if u.active { "active" } else { "inactive" },
                    if u.admin { "\tadministrator" } else { "" }
                );
            }
        }
    }
    Ok(())
}
