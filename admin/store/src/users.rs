//! Accounts and sessions. Passwords are argon2id hashes (PHC strings); session tokens are
//! stored as their SHA-256 only (the cookie holds the token itself).
//!
//! Who manages whom: the first account is the account administrator (`admin`) and
//! manages every other account; an organizer manages the arbiter accounts they added, as long
//! as those arbiters work only in tournaments the organizer organizes ([`manages`]).

use super::audit::{self, AuditAction, Change};
use super::schema::{sessions, tournament_staff, users};
use super::Conn;

diesel::define_sql_function! {
    /// SQL `lower` (ASCII on SQLite): user names are unique without regard to ASCII case
    /// (SQLite: `COLLATE NOCASE`; PostgreSQL: a unique index on `lower(username)`), and found
    /// so on both.
    fn lower(x: diesel::sql_types::Text) -> diesel::sql_types::Text;
}
use super::{now, Actor, DbError};
use argon2::password_hash::{phc::PasswordHash, PasswordHasher, PasswordVerifier};
use argon2::Argon2;
use diesel::prelude::*;
use serde::Serialize;

/// How long a login lasts at most, however active.
pub const SESSION_HOURS: i64 = 12;
/// A session's last use is written at most this often (each write is a disk sync).
const TOUCH_EVERY_SECS: i64 = 60;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Organizer,
    Arbiter,
}

impl Role {
    pub fn code(self) -> &'static str {
        match self {
            Role::Organizer => "organizer",
            Role::Arbiter => "arbiter",
        }
    }
    pub fn parse(s: &str) -> Option<Role> {
        match s.trim() {
            "organizer" => Some(Role::Organizer),
            "arbiter" => Some(Role::Arbiter),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = users)]
pub struct UserRow {
    pub id: i32,
    pub username: String,
    pub display_name: String,
    pub password_hash: String,
    pub role: String,
    pub active: bool,
    pub created_at: String,
    pub admin: bool,
    pub created_by: Option<i32>,
}

/// A user as the rest of the program sees it (never the hash).
#[derive(Debug, Clone, Serialize)]
pub struct User {
    pub id: i32,
    pub username: String,
    pub display_name: String,
    pub role: Role,
    pub active: bool,
    pub created_at: String,
    /// The account administrator (the first account).
    pub admin: bool,
    /// Who added this account (None: the first account, or made on the command line).
    pub created_by: Option<i32>,
}

impl From<UserRow> for User {
    fn from(r: UserRow) -> User {
        User {
            id: r.id,
            username: r.username,
            display_name: r.display_name,
            role: Role::parse(&r.role).unwrap_or(Role::Arbiter),
            active: r.active,
            created_at: r.created_at,
            admin: r.admin,
            created_by: r.created_by,
        }
    }
}

impl User {
    pub fn actor(&self) -> Actor {
        Actor { user_id: Some(self.id), name: self.username.clone() }
    }
    pub fn is_organizer(&self) -> bool {
        self.role == Role::Organizer
    }
}

pub fn hash_password(password: &str) -> Result<String, DbError> {
    Argon2::default()
        .hash_password(password.as_bytes())
        .map(|h| h.to_string())
        .map_err(|e| DbError::Other(format!("password hashing: {e}")))
}

pub fn verify_password(password: &str, hash: &str) -> bool {
    match PasswordHash::new(hash) {
        Ok(parsed) => Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok(),
        Err(_) => false,
    }
}

/// Is `password` the password of account `id`?
pub fn password_ok(conn: &mut Conn, id: i32, password: &str) -> Result<bool, DbError> {
    let hash: String = users::table.find(id).select(users::password_hash).first(conn)?;
    Ok(verify_password(password, &hash))
}

/// Verify against a throw-away hash: an unknown user name costs as much time as a known one.
pub fn dummy_verify(password: &str) {
    static DUMMY: std::sync::LazyLock<String> =
        std::sync::LazyLock::new(|| hash_password("not a password of anyone").unwrap_or_default());
    let _ = verify_password(password, &DUMMY);
}

/// A random token: 32 bytes from the OS, hex.
pub fn random_token() -> String {
    let mut buf = [0u8; 32];
    if getrandom::fill(&mut buf).is_err() {
        // No OS randomness is a broken machine; refuse to hand out a guessable token.
        panic!("the operating system gave no random bytes");
    }
    buf.iter().map(|b| format!("{b:02x}")).collect()
}

pub fn count(conn: &mut Conn) -> Result<i64, DbError> {
    Ok(users::table.count().get_result(conn)?)
}

/// The order of user names: the column's `COLLATE NOCASE` (ASCII letters folded, then code
/// points). Accounts are sorted by it here, so both engines list them alike (PostgreSQL would
/// sort by its database's collation).
pub fn username_order(a: &str, b: &str) -> std::cmp::Ordering {
    a.to_ascii_lowercase().cmp(&b.to_ascii_lowercase()).then_with(|| a.cmp(b))
}

/// Every account by user name ([`username_order`]).
pub fn all(conn: &mut Conn) -> Result<Vec<User>, DbError> {
    let mut rows: Vec<UserRow> = users::table.select(UserRow::as_select()).load(conn)?;
    rows.sort_by(|a, b| username_order(&a.username, &b.username));
    Ok(rows.into_iter().map(User::from).collect())
}

pub fn by_id(conn: &mut Conn, id: i32) -> Result<User, DbError> {
    users::table
        .find(id)
        .select(UserRow::as_select())
        .first(conn)
        .optional()?
        .map(User::from)
        .ok_or(DbError::NotFound)
}

pub fn by_username(conn: &mut Conn, name: &str) -> Result<Option<UserRow>, DbError> {
    Ok(users::table
        .filter(lower(users::username).eq(lower(name.trim())))
        .select(UserRow::as_select())
        .first(conn)
        .optional()?)
}

/// What a new account needs. The caller has validated the fields.
pub struct NewAccount<'a> {
    pub username: &'a str,
    pub display_name: &'a str,
    pub password: &'a str,
    pub role: Role,
}

#[derive(Insertable)]
#[diesel(table_name = users)]
struct NewUserRow<'a> {
    username: &'a str,
    display_name: &'a str,
    password_hash: String,
    role: &'a str,
    active: bool,
    created_at: String,
    admin: bool,
    created_by: Option<i32>,
}

/// Create an account, with its audit row. `Ok(None)` when the name is taken. The first account
/// of the database becomes the account administrator (e.g. one made with `tengen user add`).
pub fn create(conn: &mut Conn, actor: &Actor, acc: &NewAccount<'_>) -> Result<Option<User>, DbError> {
    let hash = hash_password(acc.password)?;
    crate::write_tx(&mut *conn, |conn| {
        if by_username(conn, acc.username)?.is_some() {
            return Ok(None);
        }
        let first = count(conn)? == 0;
        let row = NewUserRow {
            username: acc.username.trim(),
            display_name: acc.display_name.trim(),
            password_hash: hash,
            role: if first { Role::Organizer.code() } else { acc.role.code() },
            active: true,
            created_at: now(),
            admin: first,
            created_by: actor.user_id,
        };
        let id: i32 = diesel::insert_into(users::table).values(&row).returning(users::id).get_result(conn)?;
        let user = by_id(conn, id)?;
        audit::record::<(), _>(
            conn,
            actor,
            Change {
                tournament_id: None,
                action: AuditAction::UserCreate,
                entity_id: Some(id),
                before: None,
                after: Some(&user),
                reason: "",
            },
        )?;
        Ok(Some(user))
    })
}

/// Create the first organizer if and only if no account exists (first start).
pub fn create_first(conn: &mut Conn, acc: &NewAccount<'_>) -> Result<Option<User>, DbError> {
    let hash = hash_password(acc.password)?;
    crate::write_tx(&mut *conn, |conn| {
        if count(conn)? > 0 {
            return Ok(None);
        }
        let row = NewUserRow {
            username: acc.username.trim(),
            display_name: acc.display_name.trim(),
            password_hash: hash,
            role: Role::Organizer.code(),
            active: true,
            created_at: now(),
            admin: true,
            created_by: None,
        };
        let id: i32 = diesel::insert_into(users::table).values(&row).returning(users::id).get_result(conn)?;
        let user = by_id(conn, id)?;
        audit::record::<(), _>(
            conn,
            &Actor::system("first-run"),
            Change {
                tournament_id: None,
                action: AuditAction::UserCreate,
                entity_id: Some(id),
                before: None,
                after: Some(&user),
                reason: "first organizer account",
            },
        )?;
        Ok(Some(user))
    })
}

/// Turn an account on or off; switching off ends its sessions.
pub fn set_active(conn: &mut Conn, actor: &Actor, id: i32, active: bool) -> Result<User, DbError> {
    crate::write_tx(&mut *conn, |conn| {
        let before = by_id(conn, id)?;
        diesel::update(users::table.find(id)).set(users::active.eq(active)).execute(conn)?;
        if !active {
            diesel::delete(sessions::table.filter(sessions::user_id.eq(id))).execute(conn)?;
        }
        let after = by_id(conn, id)?;
        audit::record(
            conn,
            actor,
            Change {
                tournament_id: None,
                action: if active { AuditAction::UserActivate } else { AuditAction::UserDeactivate },
                entity_id: Some(id),
                before: Some(&before),
                after: Some(&after),
                reason: "",
            },
        )?;
        Ok(after)
    })
}

/// Set a new password; every session of the account ends but `keep` (the session of a user
/// changing their own password stays).
pub fn set_password(
    conn: &mut Conn,
    actor: &Actor,
    id: i32,
    password: &str,
    keep: Option<&str>,
) -> Result<(), DbError> {
    let hash = hash_password(password)?;
    crate::write_tx(&mut *conn, |conn| {
        let before = by_id(conn, id)?;
        diesel::update(users::table.find(id)).set(users::password_hash.eq(hash)).execute(conn)?;
        let keep = keep.map(token_hash).unwrap_or_default();
        diesel::delete(
            sessions::table.filter(sessions::user_id.eq(id)).filter(sessions::token_hash.ne(keep)),
        )
        .execute(conn)?;
        audit::record(
            conn,
            actor,
            Change {
                tournament_id: None,
                action: AuditAction::UserPassword,
                entity_id: Some(id),
                before: Some(&before),
                after: Some(&before),
                reason: "password changed",
            },
        )?;
        Ok(())
    })
}

/// Does `manager` manage the account `target` (switch it on or off, set its password)? The
/// administrator manages every account but their own; an organizer, the arbiters they added
/// that are on the staff of no tournament the organizer does not organize. Nobody manages
/// themselves here (their own password is changed with the old one).
pub fn manages(conn: &mut Conn, manager: &User, target: &User) -> Result<bool, DbError> {
    if target.id == manager.id || !manager.active {
        return Ok(false);
    }
    if manager.admin {
        return Ok(true);
    }
    if manager.role != Role::Organizer
        || target.admin
        || target.role != Role::Arbiter
        || target.created_by != Some(manager.id)
    {
        return Ok(false);
    }
    let mine: Vec<i32> = tournament_staff::table
        .filter(tournament_staff::user_id.eq(manager.id))
        .filter(tournament_staff::role.eq(Role::Organizer.code()))
        .select(tournament_staff::tournament_id)
        .load(conn)?;
    let theirs: Vec<i32> = tournament_staff::table
        .filter(tournament_staff::user_id.eq(target.id))
        .select(tournament_staff::tournament_id)
        .load(conn)?;
    Ok(theirs.iter().all(|t| mine.contains(t)))
}

/// The accounts `viewer` sees on the accounts page: all for the administrator, else the ones
/// they added; each with whether the viewer manages it.
pub fn visible_to(conn: &mut Conn, viewer: &User) -> Result<Vec<(User, bool)>, DbError> {
    let list: Vec<User> = all(conn)?
        .into_iter()
        .filter(|u| viewer.admin || u.id == viewer.id || u.created_by == Some(viewer.id))
        .collect();
    list.into_iter()
        .map(|u| {
            let m = manages(conn, viewer, &u)?;
            Ok((u, m))
        })
        .collect()
}

/// A session row: the user it belongs to and its CSRF token.
#[derive(Debug, Clone)]
pub struct Session {
    /// The cookie's token (only its hash is stored).
    pub token: String,
    pub csrf: String,
    pub user: User,
}

/// What the sessions table stores for a token: SHA-256, hex.
pub fn token_hash(token: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(token.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

fn stamp(t: chrono::DateTime<chrono::Utc>) -> String {
    domain::event_time::stored(t)
}

pub fn create_session(conn: &mut Conn, user_id: i32) -> Result<Session, DbError> {
    let token = random_token();
    let csrf = random_token();
    let expires = stamp(chrono::Utc::now() + chrono::Duration::hours(SESSION_HOURS));
    diesel::insert_into(sessions::table)
        .values((
            sessions::token_hash.eq(token_hash(&token)),
            sessions::user_id.eq(user_id),
            sessions::csrf.eq(&csrf),
            sessions::created_at.eq(now()),
            sessions::expires_at.eq(expires),
            sessions::last_seen_at.eq(now()),
        ))
        .execute(conn)?;
    // Forget expired sessions now and then: here is as good a place as any.
    diesel::delete(sessions::table.filter(sessions::expires_at.lt(now()))).execute(conn)?;
    let user = by_id(conn, user_id)?;
    Ok(Session { token, csrf, user })
}

/// The live session for a cookie token, if any: not expired, used within `idle`, of an
/// active account. Its last use is noted (at most once a minute).
pub fn session(conn: &mut Conn, token: &str, idle: std::time::Duration) -> Result<Option<Session>, DbError> {
    let now_t = chrono::Utc::now();
    let idle = chrono::Duration::from_std(idle).unwrap_or(chrono::Duration::hours(SESSION_HOURS));
    let hash = token_hash(token);
    let found: Option<(String, String, UserRow)> = sessions::table
        .inner_join(users::table)
        .filter(sessions::token_hash.eq(&hash))
        .filter(sessions::expires_at.gt(stamp(now_t)))
        .filter(sessions::last_seen_at.gt(stamp(now_t - idle)))
        .filter(users::active.eq(true))
        .select((sessions::csrf, sessions::last_seen_at, UserRow::as_select()))
        .first(conn)
        .optional()?;
    let Some((csrf, seen, u)) = found else { return Ok(None) };
    if seen < stamp(now_t - chrono::Duration::seconds(TOUCH_EVERY_SECS)) {
        // A failed note (a full disk, a lock) must not end a valid session.
        let _ = diesel::update(sessions::table.find(&hash))
            .set(sessions::last_seen_at.eq(stamp(now_t)))
            .execute(conn);
    }
    Ok(Some(Session { token: token.to_string(), csrf, user: u.into() }))
}

pub fn delete_session(conn: &mut Conn, token: &str) -> Result<(), DbError> {
    diesel::delete(sessions::table.filter(sessions::token_hash.eq(token_hash(token)))).execute(conn)?;
    Ok(())
}
