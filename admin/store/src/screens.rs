//! Display screens (大屏) of an event: one row per screen, written whole and versioned (a stale
//! version refused), audited in every group's trail (the screens show the groups' pages, and
//! the write's change tag tells an open screen to fetch again). A screen's address carries a
//! random token stored only as its SHA-256 (as sessions are): `by_token` finds the screen, a
//! revoked screen (no token) is found by none. What a screen may hold is `domain::screens`'.

use super::audit::{self, AuditAction, Change};
use super::schema::screens;
use super::users::token_hash;
use super::{events, now, Actor, Conn, DbError};
use diesel::prelude::*;
use domain::screens::{self as ds, Content, Problem, Setup};
use serde::Serialize;

/// A screen as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Screen {
    pub id: i32,
    pub event_id: i32,
    pub version: i32,
    /// A token is current (not revoked).
    pub live: bool,
    pub setup: Setup,
}

/// A screen's row as read (its times left out).
#[derive(Queryable, Selectable)]
#[diesel(table_name = screens)]
struct Row {
    id: i32,
    event_id: i32,
    token_hash: Option<String>,
    name: String,
    contents: String,
    group_ids: String,
    pace: i32,
    page_columns: i32,
    page_rows: i32,
    announcement: String,
    version: i32,
}

fn of_row(r: Row) -> Screen {
    let Row { id, event_id, token_hash: token, name, contents, group_ids: groups, pace, version, .. } = r;
    let (columns, rows, announcement) = (r.page_columns, r.page_rows, r.announcement);
    Screen {
        id,
        event_id,
        version,
        live: token.is_some(),
        setup: Setup {
            name,
            contents: Content::parse_list(&contents),
            groups: groups.split(',').filter_map(|g| g.trim().parse().ok()).collect(),
            pace: u32::try_from(pace).unwrap_or(ds::PACE.start),
            columns: u32::try_from(columns).unwrap_or(1),
            rows: u32::try_from(rows).unwrap_or(ds::ROWS.start),
            announcement,
        },
    }
}

/// The screens of `event_id`, oldest first.
pub fn list(conn: &mut Conn, event_id: i32) -> Result<Vec<Screen>, DbError> {
    let rows: Vec<Row> = screens::table
        .filter(screens::event_id.eq(event_id))
        .order(screens::id)
        .select(Row::as_select())
        .load(conn)?;
    Ok(rows.into_iter().map(of_row).collect())
}

/// Screen `id` of `event_id` (NotFound for another event's).
pub fn get(conn: &mut Conn, event_id: i32, id: i32) -> Result<Screen, DbError> {
    let row: Row = screens::table
        .find(id)
        .filter(screens::event_id.eq(event_id))
        .select(Row::as_select())
        .first(conn)
        .optional()?
        .ok_or(DbError::NotFound)?;
    Ok(of_row(row))
}

/// The screen whose address carries `token` (NotFound for none, or a revoked one).
pub fn by_token(conn: &mut Conn, token: &str) -> Result<Screen, DbError> {
    let row: Row = screens::table
        .filter(screens::token_hash.eq(token_hash(token)))
        .select(Row::as_select())
        .first(conn)
        .optional()?
        .ok_or(DbError::NotFound)?;
    Ok(of_row(row))
}

/// Why a screen's write was refused.
#[derive(Debug)]
pub enum ScreenError {
    Invalid(Vec<Problem>),
    /// Written meanwhile by someone else.
    Stale,
    Db(DbError),
}

db_variant!(ScreenError);

/// What a write does.
pub enum Write<'a> {
    /// A new screen with its first token.
    Create { setup: &'a Setup, token: &'a str },
    /// New settings, read at `version`.
    Update { version: i32, setup: &'a Setup },
    /// The address no longer works.
    Revoke { version: i32 },
    /// A new token (a new address; the old one no longer works).
    Reissue { version: i32, token: &'a str },
}

/// Write a screen of `event_id` (`id` None for a new one), audited in every group's trail;
/// returns the screen's id.
pub fn write(
    conn: &mut Conn,
    actor: &Actor,
    event_id: i32,
    id: Option<i32>,
    w: Write<'_>,
) -> Result<i32, ScreenError> {
    crate::write_tx(&mut *conn, |conn| {
        let group_ids: Vec<i32> = events::groups(conn, event_id)?.iter().map(|g| g.id()).collect();
        if let Write::Create { setup, .. } | Write::Update { setup, .. } = &w {
            let problems = ds::check(setup, &group_ids);
            if !problems.is_empty() {
                return Err(ScreenError::Invalid(problems));
            }
        }
        let before = match id {
            Some(id) => Some(get(conn, event_id, id)?),
            None => None,
        };
        let stamp = now();
        let setup_values = |s: &Setup| {
            (
                screens::name.eq(s.name.trim().to_string()),
                screens::contents.eq(Content::list_code(&s.contents)),
                screens::group_ids.eq(s.groups.iter().map(|g| g.to_string()).collect::<Vec<_>>().join(",")),
                screens::pace.eq(s.pace as i32),
                screens::page_columns.eq(s.columns as i32),
                screens::page_rows.eq(s.rows as i32),
                screens::announcement.eq(s.announcement.trim().to_string()),
            )
        };
        let (sid, action) = match (&before, &w) {
            (None, Write::Create { setup, token }) => {
                diesel::insert_into(screens::table)
                    .values((
                        screens::event_id.eq(event_id),
                        screens::token_hash.eq(Some(token_hash(token))),
                        setup_values(setup),
                        screens::created_at.eq(&stamp),
                        screens::updated_at.eq(&stamp),
                    ))
                    .execute(conn)?;
                let sid: i32 = screens::table
                    .filter(screens::event_id.eq(event_id))
                    .select(diesel::dsl::max(screens::id))
                    .first::<Option<i32>>(conn)?
                    .ok_or(DbError::NotFound)?;
                (sid, AuditAction::ScreenCreate)
            }
            (Some(b), w) => {
                let version = match w {
                    Write::Update { version, .. }
                    | Write::Revoke { version }
                    | Write::Reissue { version, .. } => *version,
                    Write::Create { .. } => return Err(ScreenError::Stale),
                };
                if b.version != version {
                    return Err(ScreenError::Stale);
                }
                let row = screens::table.find(b.id);
                let bump = (screens::version.eq(version + 1), screens::updated_at.eq(&stamp));
                let action = match w {
                    Write::Update { setup, .. } => {
                        diesel::update(row).set((setup_values(setup), bump)).execute(conn)?;
                        AuditAction::ScreenUpdate
                    }
                    Write::Revoke { .. } => {
                        diesel::update(row)
                            .set((screens::token_hash.eq(None::<String>), bump))
                            .execute(conn)?;
                        AuditAction::ScreenRevoke
                    }
                    Write::Reissue { token, .. } => {
                        diesel::update(row)
                            .set((screens::token_hash.eq(Some(token_hash(token))), bump))
                            .execute(conn)?;
                        AuditAction::ScreenReissue
                    }
                    Write::Create { .. } => unreachable!("refused above"),
                };
                (b.id, action)
            }
            (None, _) => return Err(ScreenError::Db(DbError::NotFound)),
        };
        let after = get(conn, event_id, sid)?;
        // In every group's trail; the groups' change tags move, so open screens fetch again.
        let change = Change {
            tournament_id: None,
            action,
            entity_id: Some(sid),
            before: before.as_ref(),
            after: Some(&after),
            reason: "",
        };
        audit::record_each(conn, actor, &group_ids, change)?;
        Ok(sid)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tournament practice (大屏): a screen is found by its token only while the token is
    /// current; revoking makes it unknown at once, re-issuing gives a new token and the old one
    /// stays unknown; a stale version is refused; each write is audited.
    #[test]
    fn tokens_revoke_reissue_and_versions() {
        let dir = tempfile::tempdir().unwrap();
        let pool = crate::open(&dir.path().join("t.db")).unwrap();
        let mut conn = pool.get().unwrap();
        let c = &mut conn;
        let a = Actor::system("test");
        let s = domain::settings::TournamentSettings::defaults(chrono::NaiveDate::MIN, crate::server_zone());
        let tid = super::super::tournaments::create(c, &a, &s).unwrap();
        let event = events::event_of(c, tid).unwrap();
        let setup = Setup { name: "一号屏".into(), groups: vec![tid], ..Setup::default() };
        let bad = Setup { groups: vec![tid + 100], ..setup.clone() };
        let refused = write(c, &a, event, None, Write::Create { setup: &bad, token: "x" });
        assert!(matches!(refused, Err(ScreenError::Invalid(p)) if p == vec![Problem::NotAGroup]));
        let id = write(c, &a, event, None, Write::Create { setup: &setup, token: "first" }).unwrap();
        assert_eq!(by_token(c, "first").unwrap().id, id);
        assert!(matches!(by_token(c, "other"), Err(DbError::NotFound)));
        let stale = write(c, &a, event, Some(id), Write::Revoke { version: 0 });
        assert!(matches!(stale, Err(ScreenError::Stale)));
        write(c, &a, event, Some(id), Write::Revoke { version: 1 }).unwrap();
        assert!(matches!(by_token(c, "first"), Err(DbError::NotFound)));
        assert!(!get(c, event, id).unwrap().live);
        write(c, &a, event, Some(id), Write::Reissue { version: 2, token: "second" }).unwrap();
        assert_eq!(by_token(c, "second").unwrap().version, 3);
        assert!(matches!(by_token(c, "first"), Err(DbError::NotFound)));
        let audited: i64 = crate::schema::audit::table
            .filter(crate::schema::audit::entity.eq("screen"))
            .count()
            .get_result(c)
            .unwrap();
        assert_eq!(audited, 3);
        assert!(matches!(get(c, event + 1, id), Err(DbError::NotFound)));
    }
}
