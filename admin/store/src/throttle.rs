//! The login throttle's stored arrival times (the arithmetic is `web::throttle`'s). They live
//! in the database, not in one server's memory, so that every `tengen serve` of one office
//! counts the same failures: a guesser gains nothing by spreading attempts
//! over the servers.

use diesel::prelude::*;

use super::schema::login_throttle as lt;
use super::{write_tx, Conn, DbError};

/// The key's arrival time in milliseconds since 1970, if it has failed before.
pub fn tat(conn: &mut Conn, scope: &str, key: &str) -> Result<Option<i64>, DbError> {
    Ok(lt::table
        .filter(lt::scope.eq(scope).and(lt::key.eq(key)))
        .select(lt::tat_ms)
        .first::<i64>(conn)
        .optional()?)
}

/// Pushes the key's arrival time: `next(old)` with the old time (None for a new key), in one
/// write transaction, so two servers' failures at the same moment both count. At most
/// `capacity` keys per scope: a new key in a full scope first forgets the keys that carry no
/// information (`tat_ms <= forget_before`: back at full credit, and past the scope's memory),
/// then, if none was, the one with the least debt.
pub fn push(
    conn: &mut Conn,
    scope: &str,
    key: &str,
    (forget_before, capacity): (i64, i64),
    next: impl Fn(Option<i64>) -> i64,
) -> Result<(), DbError> {
    write_tx(conn, |conn| {
        let old = tat(conn, scope, key)?;
        if old.is_none() {
            make_room(conn, scope, forget_before, capacity)?;
        }
        // Read and written in one write transaction, so a plain insert or update does what an
        // upsert would (and is written once for both backends).
        let row = lt::table.filter(lt::scope.eq(scope).and(lt::key.eq(key)));
        match old {
            Some(_) => diesel::update(row).set(lt::tat_ms.eq(next(old))).execute(conn)?,
            None => diesel::insert_into(lt::table)
                .values((lt::scope.eq(scope), lt::key.eq(key), lt::tat_ms.eq(next(old))))
                .execute(conn)?,
        };
        Ok(())
    })
}

fn make_room(conn: &mut Conn, scope: &str, forget_before: i64, capacity: i64) -> Result<(), DbError> {
    let count = || lt::table.filter(lt::scope.eq(scope)).count();
    if count().get_result::<i64>(conn)? < capacity {
        return Ok(());
    }
    diesel::delete(lt::table.filter(lt::scope.eq(scope).and(lt::tat_ms.le(forget_before)))).execute(conn)?;
    if count().get_result::<i64>(conn)? >= capacity {
        let least: Option<String> = lt::table
            .filter(lt::scope.eq(scope))
            .order(lt::tat_ms.asc())
            .select(lt::key)
            .first(conn)
            .optional()?;
        if let Some(least) = least {
            diesel::delete(lt::table.filter(lt::scope.eq(scope).and(lt::key.eq(least)))).execute(conn)?;
        }
    }
    Ok(())
}

/// How many keys a scope holds (for tests and the bound).
pub fn keys(conn: &mut Conn, scope: &str) -> Result<i64, DbError> {
    Ok(lt::table.filter(lt::scope.eq(scope)).count().get_result(conn)?)
}
