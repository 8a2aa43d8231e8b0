//! The purge of registrations kept past their event's retention, as of the machine's today
//! (`machine::today`; the decision is `domain::registration::purge_due`, the deletes and
//! audit rows `store::registrations::purge_expired`). Run by `tengen purge-registrations` and
//! by the server on start and daily.

use crate::db::registrations::purge_expired;
use crate::db::{Actor, Conn, DbError};

/// The actor of a purge the machine does itself.
pub const PURGE_ACTOR: &str = "tengen purge-registrations";

/// Purge on `conn` as of the machine's today: how many registrations went, in how many events.
pub fn purge_now(conn: &mut Conn) -> Result<(usize, usize), DbError> {
    let purged = purge_expired(conn, &Actor::system(PURGE_ACTOR), crate::machine::today())?;
    Ok((purged.iter().map(|p| p.registrations).sum(), purged.len()))
}
