//! `tengen purge-registrations`: delete the registrations every event has kept past the
//! retention its organizer set (days after the event's last day), with an audit row per event
//! counting them (`office::purge_registrations`). The server does the same on start and
//! daily; this is for an office whose server is not running, or to see the count.

use super::files::CliError;
use crate::i18n::{tr, Lang};
use crate::office::purge_registrations::purge_now;
use std::path::Path;

pub fn run(db: &Path) -> Result<(), CliError> {
    let say = Lang::from_environment();
    let pool = crate::db::open(db)?;
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    let (count, events) = purge_now(&mut conn)?;
    println!("{}", tr!(say, "cli.purge_done", count, events));
    Ok(())
}
