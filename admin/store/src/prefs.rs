//! A user's own preferences: the language they chose, so the choice follows
//! the account to every login and device, not only the browser's cookie.

use super::audit::{self, AuditAction, Change};
use super::schema::user_prefs;
use super::Conn;
use super::{Actor, DbError};
use diesel::prelude::*;

/// The language code (`en`, `zh-CN`) this user chose, if they ever did.
pub fn lang(conn: &mut Conn, user_id: i32) -> Result<Option<String>, DbError> {
    Ok(user_prefs::table.find(user_id).select(user_prefs::lang).first::<String>(conn).optional()?)
}

/// Remember `code` as the user's language (audited like every write; nothing written when it
/// is already the stored one).
pub fn set_lang(conn: &mut Conn, actor: &Actor, user_id: i32, code: &str) -> Result<(), DbError> {
    crate::write_tx(&mut *conn, |conn| {
        let before = lang(conn, user_id)?;
        if before.as_deref() == Some(code) {
            return Ok(());
        }
        per_backend!(conn, |c| diesel::insert_into(user_prefs::table)
            .values((user_prefs::user_id.eq(user_id), user_prefs::lang.eq(code)))
            .on_conflict(user_prefs::user_id)
            .do_update()
            .set(user_prefs::lang.eq(code))
            .execute(c))?;
        audit::record(
            conn,
            actor,
            Change {
                tournament_id: None,
                action: AuditAction::UserSetLang,
                entity_id: Some(user_id),
                before: before.as_ref(),
                after: Some(&code),
                reason: "",
            },
        )?;
        Ok(())
    })
}
