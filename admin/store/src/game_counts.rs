//! The count worked out from a game's final position (seed 000 Arts. 8, 9): the dead stones the
//! referee marked on it, the count they give, and who confirmed it. A player confirms the list
//! as it stands; a change of the list clears the players' confirmations (they confirmed another
//! count). The referee's confirmation after both players' is written by
//! `admin::office::confirm_count` in the same transaction as the game's result, through
//! [`confirm_referee_in`]. Every write is versioned (a stale one refused) and audited.

use super::audit::{self, AuditAction, Change};
use super::schema::game_counts;
use super::{now, Actor, Conn, DbError};
use diesel::prelude::*;
use rules::board::{Color, Point};
use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Serialize)]
#[diesel(table_name = game_counts)]
pub struct CountRow {
    pub game_id: i32,
    pub tournament_id: i32,
    pub version: i32,
    /// SGF letters of every dead stone, space-separated.
    pub dead: String,
    pub black_halves: i32,
    pub confirmed_black: bool,
    pub confirmed_white: bool,
    /// The referee who confirmed last, after both players: the count is the game's result.
    pub confirmed_by: Option<String>,
    pub confirmed_at: Option<String>,
    pub updated_at: String,
}

impl CountRow {
    /// The dead stones as points (letters that name no point are skipped).
    pub fn dead_points(&self) -> Vec<Point> {
        self.dead.split_whitespace().filter_map(Point::from_sgf).collect()
    }
    /// Whether the referee confirmed it (the count is the game's result).
    pub fn confirmed(&self) -> bool {
        self.confirmed_by.is_some()
    }
}

/// The stored form of a list of dead stones: SGF letters, sorted, space-separated.
pub fn dead_text(dead: &[Point]) -> String {
    let mut v: Vec<Point> = dead.to_vec();
    v.sort_unstable();
    v.dedup();
    v.iter().map(|p| p.sgf()).collect::<Vec<_>>().join(" ")
}

/// Why a count write was refused. Nothing was written.
#[derive(Debug)]
pub enum CountError {
    /// Someone wrote in between (the count as it is now, if any).
    Stale(Option<Box<CountRow>>),
    /// The referee confirmed the count: it is the game's result and is no longer changed here.
    Confirmed,
    /// The referee confirms only after both players.
    PlayersFirst,
    /// There is no count to confirm yet.
    NoCount,
    Db(DbError),
}

db_variant!(CountError);

/// The count of game `gid` of tournament `tid`, if one was saved.
pub fn get(conn: &mut Conn, tid: i32, gid: i32) -> Result<Option<CountRow>, DbError> {
    Ok(game_counts::table
        .find(gid)
        .filter(game_counts::tournament_id.eq(tid))
        .select(CountRow::as_select())
        .first(conn)
        .optional()?)
}

/// The row at `version` (0: none yet), or the refusal.
fn current(conn: &mut Conn, tid: i32, gid: i32, version: i32) -> Result<Option<CountRow>, CountError> {
    let row = get(conn, tid, gid)?;
    if row.as_ref().map_or(0, |r| r.version) != version {
        return Err(CountError::Stale(row.map(Box::new)));
    }
    if row.as_ref().is_some_and(CountRow::confirmed) {
        return Err(CountError::Confirmed);
    }
    Ok(row)
}

#[derive(Serialize)]
struct Audited<'a> {
    dead: &'a str,
    black_halves: i32,
    confirmed_black: bool,
    confirmed_white: bool,
}

fn audited(r: &CountRow) -> Audited<'_> {
    Audited {
        dead: &r.dead,
        black_halves: r.black_halves,
        confirmed_black: r.confirmed_black,
        confirmed_white: r.confirmed_white,
    }
}

/// Save the dead stones the referee marked and the count they give (Black's, in half points).
/// A list different from the stored one clears the players' confirmations. Returns the new
/// version. `version` is the one the page was shown with (0 before any was saved).
pub fn save_dead(
    conn: &mut Conn,
    actor: &Actor,
    (tid, gid): (i32, i32),
    version: i32,
    dead: &[Point],
    black_halves: u32,
) -> Result<i32, CountError> {
    let text = dead_text(dead);
    let halves = i32::try_from(black_halves).unwrap_or(i32::MAX);
    crate::write_tx(&mut *conn, |conn| {
        let before = current(conn, tid, gid, version)?;
        let t = now();
        let v = version + 1;
        let kept = before.as_ref().is_some_and(|b| b.dead == text);
        let (cb, cw) = before
            .as_ref()
            .filter(|_| kept)
            .map_or((false, false), |b| (b.confirmed_black, b.confirmed_white));
        if before.is_some() {
            diesel::update(game_counts::table.find(gid))
                .set((
                    game_counts::version.eq(v),
                    game_counts::dead.eq(&text),
                    game_counts::black_halves.eq(halves),
                    game_counts::confirmed_black.eq(cb),
                    game_counts::confirmed_white.eq(cw),
                    game_counts::updated_at.eq(&t),
                ))
                .execute(conn)?;
        } else {
            diesel::insert_into(game_counts::table)
                .values((
                    game_counts::game_id.eq(gid),
                    game_counts::tournament_id.eq(tid),
                    game_counts::version.eq(v),
                    game_counts::dead.eq(&text),
                    game_counts::black_halves.eq(halves),
                    game_counts::updated_at.eq(&t),
                ))
                .execute(conn)?;
        }
        let after = Audited { dead: &text, black_halves: halves, confirmed_black: cb, confirmed_white: cw };
        let before = before.as_ref().map(audited);
        audit::record(
            conn,
            actor,
            Change {
                tournament_id: Some(tid),
                action: AuditAction::CountDead,
                entity_id: Some(gid),
                before: before.as_ref(),
                after: Some(&after),
                reason: "",
            },
        )?;
        Ok(v)
    })
}

/// A player's confirmation of the count as it stands (pressed on the referee's tablet).
pub fn confirm_player(
    conn: &mut Conn,
    actor: &Actor,
    (tid, gid): (i32, i32),
    version: i32,
    side: Color,
) -> Result<i32, CountError> {
    crate::write_tx(&mut *conn, |conn| {
        let before = current(conn, tid, gid, version)?.ok_or(CountError::NoCount)?;
        let v = version + 1;
        let (cb, cw) = match side {
            Color::Black => (true, before.confirmed_white),
            Color::White => (before.confirmed_black, true),
        };
        diesel::update(game_counts::table.find(gid))
            .set((
                game_counts::version.eq(v),
                game_counts::confirmed_black.eq(cb),
                game_counts::confirmed_white.eq(cw),
                game_counts::updated_at.eq(now()),
            ))
            .execute(conn)?;
        let after = Audited { confirmed_black: cb, confirmed_white: cw, ..audited(&before) };
        audit::record(
            conn,
            actor,
            Change {
                tournament_id: Some(tid),
                action: AuditAction::CountConfirm,
                entity_id: Some(gid),
                before: Some(&audited(&before)),
                after: Some(&after),
                reason: match side {
                    Color::Black => "black",
                    Color::White => "white",
                },
            },
        )?;
        Ok(v)
    })
}

/// The referee's confirmation after both players', inside the caller's write transaction (the
/// one that writes the game's result): refused before both players confirmed. Returns the count
/// as it was confirmed.
pub fn confirm_referee_in(
    conn: &mut Conn,
    actor: &Actor,
    (tid, gid): (i32, i32),
    version: i32,
) -> Result<CountRow, CountError> {
    let before = current(conn, tid, gid, version)?.ok_or(CountError::NoCount)?;
    if !(before.confirmed_black && before.confirmed_white) {
        return Err(CountError::PlayersFirst);
    }
    let t = now();
    diesel::update(game_counts::table.find(gid))
        .set((
            game_counts::version.eq(version + 1),
            game_counts::confirmed_by.eq(&actor.name),
            game_counts::confirmed_at.eq(&t),
            game_counts::updated_at.eq(&t),
        ))
        .execute(conn)?;
    audit::record(
        conn,
        actor,
        Change {
            tournament_id: Some(tid),
            action: AuditAction::CountConfirm,
            entity_id: Some(gid),
            before: Some(&audited(&before)),
            after: Some(&audited(&before)),
            reason: "arbiter",
        },
    )?;
    Ok(CountRow {
        version: version + 1,
        confirmed_by: Some(actor.name.clone()),
        confirmed_at: Some(t),
        ..before
    })
}
