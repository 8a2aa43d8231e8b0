//! `tengen user add|passwd|list`: accounts from the machine itself (the first account, or a
//! forgotten password of the account administrator).

use super::files::CliError;
use crate::db::users::{self, NewAccount, Role};
use crate::db::Actor;
use crate::domain::password;
use crate::i18n::{tr, Lang};
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

fn read_password(username: &str, say: Lang) -> Result<String, String> {
    match std::env::var("TENGEN_PASSWORD") {
        Ok(p) => Ok(p),
        Err(_) => {
            eprintln!("{}", tr!(say, "cli_say.password_for", username));
            let mut line = String::new();
            std::io::stdin().lock().read_line(&mut line).map_err(|e| e.to_string())?;
            Ok(line.trim_end_matches(['\r', '\n']).to_string())
        }
    }
}

pub fn run(db: &Path, cmd: UserCommand) -> Result<(), CliError> {
    let say = Lang::from_environment();
    let pool = crate::db::open(db)?;
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    match cmd {
        UserCommand::Add { username, role, display_name } => {
            let role = Role::parse(&role).ok_or(CliError::BadRole)?;
            let password = read_password(&username, say)?;
            let events = crate::db::tournaments::names(&mut conn)?;
            let problems = password::check_account(&username, &display_name, &password, &events);
            if !problems.is_empty() {
                let msgs: Vec<String> = problems
                    .iter()
                    .map(|p| {
                        tr!(
                            say,
                            "cli_err.account_problem",
                            field = say.t(&format!("user.{}", p.field())),
                            problem = say.account_problem(p)
                        )
                    })
                    .collect();
                return Err(CliError::Said(msgs.join(say.t("cli_err.separator"))));
            }
            let acc =
                NewAccount { username: &username, display_name: &display_name, password: &password, role };
            match users::create(&mut conn, &Actor::system("cli"), &acc)? {
                Some(u) => {
                    let key = if u.admin { "cli_say.created_admin" } else { "cli_say.created" };
                    println!(
                        "{}",
                        tr!(
                            say,
                            key,
                            role = say.t(&format!("role.{}", u.role.code())),
                            username = u.username
                        )
                    );
                }
                None => return Err(CliError::NameTaken(username)),
            }
        }
        UserCommand::Passwd { username } => {
            let row = users::by_username(&mut conn, &username)?.ok_or(CliError::NoAccount(username))?;
            let password = read_password(&row.username, say)?;
            let events = crate::db::tournaments::names(&mut conn)?;
            let known =
                password::Known { username: &row.username, display_name: &row.display_name, events: &events };
            if let Some(w) = password::check(&password, &known) {
                return Err(CliError::Said(tr!(say, "cli_err.weak_password", problem = say.weakness(&w))));
            }
            users::set_password(&mut conn, &Actor::system("cli"), row.id, &password, None)?;
            println!("{}", tr!(say, "cli_say.password_set", username = row.username));
        }
        UserCommand::List => {
            // Tab-separated for scripts: the role's code, then the state in words.
            for u in users::all(&mut conn)? {
                let state = say.t(if u.active { "cli_say.user_active" } else { "cli_say.user_inactive" });
                let admin =
                    if u.admin { format!("\t{}", say.t("cli_say.user_admin")) } else { String::new() };
                println!("{}\t{}\t{state}{admin}", u.username, u.role.code());
            }
        }
    }
    Ok(())
}
