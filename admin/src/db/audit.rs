//! The audit trail: one row per write, in the same transaction as the write.

use super::schema::{audit, tournaments};
use super::{now, Actor, DbError};
use diesel::prelude::*;
use serde::Serialize;
use std::sync::atomic::{AtomicU64, Ordering};

/// Audited writes made by this process (bumped when a write is recorded and again when the web
/// layer sees it finished). Caches of public pages compare it to decide whether to look at the
/// database's change tags again; see `web::public`.
static WRITES: AtomicU64 = AtomicU64::new(0);

/// The number of audited writes seen by this process so far.
pub fn writes() -> u64 {
    WRITES.load(Ordering::Acquire)
}

/// Note that a write has finished (committed or not): caches must look again.
pub fn note_write() {
    WRITES.fetch_add(1, Ordering::AcqRel);
}

/// 16 random hex digits: the tag of one state of a tournament.
fn random_tag() -> String {
    let mut b = [0u8; 8];
    if getrandom::fill(&mut b).is_err() {
        b = chrono::Utc::now().timestamp_nanos_opt().unwrap_or(0).to_le_bytes();
    }
    b.iter().map(|x| format!("{x:02x}")).collect()
}

#[derive(Debug, Clone, Queryable, Selectable, Serialize)]
#[diesel(table_name = audit)]
pub struct AuditRow {
    pub id: i32,
    pub tournament_id: Option<i32>,
    pub user_id: Option<i32>,
    pub actor: String,
    pub at: String,
    pub action: String,
    pub entity: String,
    pub entity_id: Option<i32>,
    pub before: Option<String>,
    pub after: Option<String>,
    pub reason: String,
}

#[derive(Insertable)]
#[diesel(table_name = audit)]
struct NewAudit<'a> {
    tournament_id: Option<i32>,
    user_id: Option<i32>,
    actor: &'a str,
    at: String,
    action: &'a str,
    entity: &'a str,
    entity_id: Option<i32>,
    before: Option<String>,
    after: Option<String>,
    reason: &'a str,
}

/// One change to record. `before`/`after` are serialised to JSON.
pub struct Change<'a, B: Serialize, A: Serialize> {
    pub tournament_id: Option<i32>,
    pub action: &'a str,
    pub entity: &'a str,
    pub entity_id: Option<i32>,
    pub before: Option<&'a B>,
    pub after: Option<&'a A>,
    pub reason: &'a str,
}

/// Write one audit row. Call inside the transaction of the write it records.
pub fn record<B: Serialize, A: Serialize>(
    conn: &mut SqliteConnection,
    actor: &Actor,
    change: Change<'_, B, A>,
) -> Result<(), DbError> {
    let row = NewAudit {
        tournament_id: change.tournament_id,
        user_id: actor.user_id,
        actor: &actor.name,
        at: now(),
        action: change.action,
        entity: change.entity,
        entity_id: change.entity_id,
        before: change.before.map(json),
        after: change.after.map(json),
        reason: change.reason,
    };
    diesel::insert_into(audit::table).values(&row).execute(conn)?;
    // Every audited write changes what the tournament's public pages show: bump its counter
    // and draw a new tag (the pages' ETag), in the same transaction.
    if let Some(tid) = change.tournament_id {
        diesel::update(tournaments::table.find(tid))
            .set((
                tournaments::changes.eq(tournaments::changes + 1),
                tournaments::change_tag.eq(random_tag()),
            ))
            .execute(conn)?;
    }
    note_write();
    Ok(())
}

fn json<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}

/// The audit rows of a tournament, newest first.
pub fn for_tournament(conn: &mut SqliteConnection, tid: i32, limit: i64) -> Result<Vec<AuditRow>, DbError> {
    Ok(audit::table
        .filter(audit::tournament_id.eq(tid))
        .order(audit::id.desc())
        .limit(limit)
        .select(AuditRow::as_select())
        .load(conn)?)
}

/// Audit rows about accounts (no tournament), newest first.
pub fn for_accounts(conn: &mut SqliteConnection, limit: i64) -> Result<Vec<AuditRow>, DbError> {
    Ok(audit::table
        .filter(audit::entity.eq("user"))
        .order(audit::id.desc())
        .limit(limit)
        .select(AuditRow::as_select())
        .load(conn)?)
}
