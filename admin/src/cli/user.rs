//! `tengen user add --role organizer|arbiter NAME`: create an account from the machine itself.

use crate::db::users::{self, NewAccount, Role};
use crate::db::Actor;
use crate::web::auth::check_account;
use crate::web::i18n::Lang;
use clap::Subcommand;
use std::io::BufRead;
use std::path::Path;

#[derive(Subcommand, Debug)]
pub enum UserCommand {
    /// Create an account. The password is read from TENGEN_PASSWORD or the first line of stdin.
    Add {
        username: String,
        #[arg(long, value_parser = ["organizer", "arbiter"])]
        role: String,
        #[arg(long, default_value = "")]
        display_name: String,
    },
    /// List accounts.
    List,
}

pub fn run(db: &Path, cmd: UserCommand) -> Result<(), String> {
    let pool = crate::db::open(db).map_err(|e| e.to_string())?;
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    match cmd {
        UserCommand::Add { username, role, display_name } => {
            let role = Role::parse(&role).ok_or("role must be organizer or arbiter")?;
            let password = match std::env::var("TENGEN_PASSWORD") {
                Ok(p) => p,
                Err(_) => {
                    eprintln!("password for {username}:");
                    let mut line = String::new();
                    std::io::stdin().lock().read_line(&mut line).map_err(|e| e.to_string())?;
                    line.trim_end_matches(['\r', '\n']).to_string()
                }
            };
            let errs = check_account(&username, &display_name, &password);
            if !errs.is_empty() {
                let msgs: Vec<String> = errs.iter().map(|(f, k)| format!("{f}: {}", Lang::En.t(k))).collect();
                return Err(msgs.join("; "));
            }
            let acc =
                NewAccount { username: &username, display_name: &display_name, password: &password, role };
            match users::create(&mut conn, &Actor::system("cli"), &acc).map_err(|e| e.to_string())? {
                Some(u) => println!("created {} account {}", u.role.code(), u.username),
                None => return Err(format!("the user name {username} is taken")),
            }
        }
        UserCommand::List => {
            for u in users::all(&mut conn).map_err(|e| e.to_string())? {
                println!(
                    "{}\t{}\t{}",
                    u.username,
                    u.role.code(),
                    if u.active { "active" } else { "inactive" }
                );
            }
        }
    }
    Ok(())
}
