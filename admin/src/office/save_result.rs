//! Save a result: enter, change or clear the entry of a game's sheet, recomputed with the
//! game's rulings ([`domain::results::compute_entry`]), in one write transaction with its audit
//! row. A stale form is refused with the current sheet; a locked result is the chief
//! arbiter's to correct, with a reason (seed 000 Art. 16.4); a draw, a replay or a double loss
//! is the chief arbiter's to enter, change or clear (seed 000 Arts. 17.5, 17.6; decision D21),
//! a plain arbiter proposes one as a ruling.

use crate::db::audit::AuditAction;
use crate::db::results::{self as rdb, SheetError};
use crate::db::{self, Actor, Conn};
use domain::results::{self as dr, Entry};

/// What a result form saves: the sheet's version and the game's pairing version the form was
/// shown with (the colours it names; a different one is refused, since "Black" may now be
/// another player), the entry (`None` clears it) and the reason.
pub struct SaveResult<'a> {
    pub version: i32,
    pub colours_version: Option<i32>,
    pub entry: Option<Entry>,
    pub reason: &'a str,
}

/// Enters (or clears) the result of game `gid` of event `tid`. Returns the sheet's new version.
pub fn save_result(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    gid: i32,
    save: &SaveResult,
) -> Result<i32, SheetError> {
    let (entry, reason) = (save.entry.as_ref(), save.reason);
    db::write_tx(&mut *conn, |conn| {
        let s = rdb::sheet(conn, tid, gid)?;
        let correction = rdb::guard(conn, actor, tid, &s, save.version, reason)?;
        if save.colours_version.is_some_and(|v| v != s.game.pairing_version) {
            return Err(SheetError::ColoursChanged(Box::new(s)));
        }
        let settings = rdb::settings_of(conn, tid)?;
        if dr::change_needs_chief(&settings.ruleset, s.entry().as_ref(), entry)
            && !rdb::is_chief(conn, tid, actor.user_id)?
        {
            return Err(SheetError::NotChief);
        }
        let computed =
            dr::compute_entry(&settings.ruleset, s.handicap(), s.seats(), entry, &s.rules_rulings())
                .map_err(SheetError::Invalid)?;
        let v = rdb::write_result(conn, actor, &s, entry, &computed, true)?;
        let action = if correction {
            AuditAction::ResultCorrect
        } else if entry.is_none() {
            AuditAction::ResultClear
        } else {
            AuditAction::ResultEnter
        };
        rdb::record_sheet(conn, actor, action, &s, reason)?;
        Ok(v)
    })
}
