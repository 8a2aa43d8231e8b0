//! Accounts and sessions. Passwords are argon2id hashes (PHC strings).

use super::audit::{self, Change};
use super::schema::{sessions, users};
use super::{now, Actor, DbError};
use argon2::password_hash::{phc::PasswordHash, PasswordHasher, PasswordVerifier};
use argon2::Argon2;
use diesel::prelude::*;
use serde::Serialize;

/// How long a login lasts without being renewed.
pub const SESSION_HOURS: i64 = 12;

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

pub fn count(conn: &mut SqliteConnection) -> Result<i64, DbError> {
    Ok(users::table.count().get_result(conn)?)
}

pub fn all(conn: &mut SqliteConnection) -> Result<Vec<User>, DbError> {
    let rows: Vec<UserRow> = users::table.order(users::username).select(UserRow::as_select()).load(conn)?;
    Ok(rows.into_iter().map(User::from).collect())
}

pub fn by_id(conn: &mut SqliteConnection, id: i32) -> Result<User, DbError> {
    users::table
        .find(id)
        .select(UserRow::as_select())
        .first(conn)
        .optional()?
        .map(User::from)
        .ok_or(DbError::NotFound)
}

pub fn by_username(conn: &mut SqliteConnection, name: &str) -> Result<Option<UserRow>, DbError> {
    Ok(users::table
        .filter(users::username.eq(name.trim()))
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
}

/// Create an account, with its audit row. `Ok(None)` when the name is taken.
pub fn create(
    conn: &mut SqliteConnection,
    actor: &Actor,
    acc: &NewAccount<'_>,
) -> Result<Option<User>, DbError> {
    let hash = hash_password(acc.password)?;
    conn.immediate_transaction(|conn| {
        if by_username(conn, acc.username)?.is_some() {
            return Ok(None);
        }
        let row = NewUserRow {
            username: acc.username.trim(),
            display_name: acc.display_name.trim(),
            password_hash: hash,
            role: acc.role.code(),
            active: true,
            created_at: now(),
        };
        let id: i32 = diesel::insert_into(users::table).values(&row).returning(users::id).get_result(conn)?;
        let user = by_id(conn, id)?;
        audit::record::<(), _>(
            conn,
            actor,
            Change {
                tournament_id: None,
                action: "create",
                entity: "user",
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
pub fn create_first(conn: &mut SqliteConnection, acc: &NewAccount<'_>) -> Result<Option<User>, DbError> {
    let hash = hash_password(acc.password)?;
    conn.immediate_transaction(|conn| {
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
        };
        let id: i32 = diesel::insert_into(users::table).values(&row).returning(users::id).get_result(conn)?;
        let user = by_id(conn, id)?;
        audit::record::<(), _>(
            conn,
            &Actor::system("first-run"),
            Change {
                tournament_id: None,
                action: "create",
                entity: "user",
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
pub fn set_active(
    conn: &mut SqliteConnection,
    actor: &Actor,
    id: i32,
    active: bool,
) -> Result<User, DbError> {
    conn.immediate_transaction(|conn| {
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
                action: if active { "activate" } else { "deactivate" },
                entity: "user",
                entity_id: Some(id),
                before: Some(&before),
                after: Some(&after),
                reason: "",
            },
        )?;
        Ok(after)
    })
}

/// Set a new password; all sessions of the account end.
pub fn set_password(
    conn: &mut SqliteConnection,
    actor: &Actor,
    id: i32,
    password: &str,
) -> Result<(), DbError> {
    let hash = hash_password(password)?;
    conn.immediate_transaction(|conn| {
        let before = by_id(conn, id)?;
        diesel::update(users::table.find(id)).set(users::password_hash.eq(hash)).execute(conn)?;
        diesel::delete(sessions::table.filter(sessions::user_id.eq(id))).execute(conn)?;
        audit::record(
            conn,
            actor,
            Change {
                tournament_id: None,
                action: "password",
                entity: "user",
                entity_id: Some(id),
                before: Some(&before),
                after: Some(&before),
                reason: "password changed",
            },
        )?;
        Ok(())
    })
}

/// A session row: the user it belongs to and its CSRF token.
#[derive(Debug, Clone)]
pub struct Session {
    pub token: String,
    pub csrf: String,
    pub user: User,
}

pub fn create_session(conn: &mut SqliteConnection, user_id: i32) -> Result<Session, DbError> {
    let token = random_token();
    let csrf = random_token();
    let expires =
        (chrono::Utc::now() + chrono::Duration::hours(SESSION_HOURS)).format("%Y-%m-%d %H:%M:%S").to_string();
    diesel::insert_into(sessions::table)
        .values((
            sessions::token.eq(&token),
            sessions::user_id.eq(user_id),
            sessions::csrf.eq(&csrf),
            sessions::created_at.eq(now()),
            sessions::expires_at.eq(expires),
        ))
        .execute(conn)?;
    // Forget expired sessions now and then: here is as good a place as any.
    diesel::delete(sessions::table.filter(sessions::expires_at.lt(now()))).execute(conn)?;
    let user = by_id(conn, user_id)?;
    Ok(Session { token, csrf, user })
}

/// The live session for a cookie token, if any (expired or deactivated → None).
pub fn session(conn: &mut SqliteConnection, token: &str) -> Result<Option<Session>, DbError> {
    let found: Option<(String, String, UserRow)> = sessions::table
        .inner_join(users::table)
        .filter(sessions::token.eq(token))
        .filter(sessions::expires_at.gt(now()))
        .filter(users::active.eq(true))
        .select((sessions::token, sessions::csrf, UserRow::as_select()))
        .first(conn)
        .optional()?;
    Ok(found.map(|(token, csrf, u)| Session { token, csrf, user: u.into() }))
}

pub fn delete_session(conn: &mut SqliteConnection, token: &str) -> Result<(), DbError> {
    diesel::delete(sessions::table.filter(sessions::token.eq(token))).execute(conn)?;
    Ok(())
}
