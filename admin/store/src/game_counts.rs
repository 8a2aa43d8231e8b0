//! The count worked out from a final position: the dead stones the referee marked on it, the
//! count they give, and who confirmed it — of an individual game (seed 000 Arts. 8, 9; table
//! `game_counts`) or of a relay match's game (seed 003 Arts. 16.4, 21.4; table `relay_counts`,
//! the sides' executing leaders confirming). One logic for both ([`Counted`] names which): a
//! side confirms the list as it stands; a change of the list clears the sides' confirmations
//! (they confirmed another count). The referee's confirmation after both sides' is written in
//! the caller's transaction with the result it makes, through [`confirm_referee_in`]
//! (`admin::office::confirm_count`, `admin::office::relay_count`). Every write is versioned (a
//! stale one refused) and audited.

use super::audit::{self, AuditAction, Change};
use super::schema::{game_counts, relay_counts};
use super::{now, Actor, Conn, DbError};
use diesel::prelude::*;
use rules::board::{Color, Point};
use serde::Serialize;

/// Whose count: a game's (its id) or a relay match's (its id).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Counted {
    Game(i32),
    Match(i32),
}

impl Counted {
    fn id(self) -> i32 {
        match self {
            Counted::Game(id) | Counted::Match(id) => id,
        }
    }
    fn dead_action(self) -> AuditAction {
        match self {
            Counted::Game(_) => AuditAction::CountDead,
            Counted::Match(_) => AuditAction::RelayCountDead,
        }
    }
    fn confirm_action(self) -> AuditAction {
        match self {
            Counted::Game(_) => AuditAction::CountConfirm,
            Counted::Match(_) => AuditAction::RelayCountConfirm,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CountRow {
    pub of: Counted,
    pub tournament_id: i32,
    pub version: i32,
    /// SGF letters of every dead stone, space-separated.
    pub dead: String,
    /// Black's count in half points (for a relay game, before penalty stones).
    pub black_halves: i32,
    pub confirmed_black: bool,
    pub confirmed_white: bool,
    /// The referee who confirmed last, after both sides: the count is the result.
    pub confirmed_by: Option<String>,
    pub confirmed_at: Option<String>,
    pub updated_at: String,
}

/// A row as both tables store it (the key first).
type Stored = (i32, i32, i32, String, i32, bool, bool, Option<String>, Option<String>, String);

impl CountRow {
    fn of_stored(of: Counted, r: Stored) -> CountRow {
        let (_, tournament_id, version, dead, black_halves, confirmed_black, confirmed_white, by, at, up) = r;
        CountRow {
            of,
            tournament_id,
            version,
            dead,
            black_halves,
            confirmed_black,
            confirmed_white,
            confirmed_by: by,
            confirmed_at: at,
            updated_at: up,
        }
    }
    /// The dead stones as points (letters that name no point are skipped).
    pub fn dead_points(&self) -> Vec<Point> {
        self.dead.split_whitespace().filter_map(Point::from_sgf).collect()
    }
    /// Whether the referee confirmed it (the count is the result).
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
    /// The referee confirmed the count: it is the result and is no longer changed here.
    Confirmed,
    /// The referee confirms only after both sides (the players, or a relay match's leaders).
    PlayersFirst,
    /// There is no count to confirm yet.
    NoCount,
    Db(DbError),
}

db_variant!(CountError);

/// The count of `of` in tournament `tid`, if one was saved.
pub fn get(conn: &mut Conn, tid: i32, of: Counted) -> Result<Option<CountRow>, DbError> {
    let stored: Option<Stored> = match of {
        Counted::Game(id) => {
            game_counts::table.find(id).filter(game_counts::tournament_id.eq(tid)).first(conn).optional()?
        }
        Counted::Match(id) => {
            relay_counts::table.find(id).filter(relay_counts::tournament_id.eq(tid)).first(conn).optional()?
        }
    };
    Ok(stored.map(|r| CountRow::of_stored(of, r)))
}

/// Writes `row` over the stored one (`exists`) or as the first.
fn store(conn: &mut Conn, exists: bool, r: &CountRow) -> Result<(), DbError> {
    macro_rules! write_to {
        ($t:ident, $key:ident, $id:expr) => {{
            let fields = (
                $t::version.eq(r.version),
                $t::dead.eq(&r.dead),
                $t::black_halves.eq(r.black_halves),
                $t::confirmed_black.eq(r.confirmed_black),
                $t::confirmed_white.eq(r.confirmed_white),
                $t::confirmed_by.eq(&r.confirmed_by),
                $t::confirmed_at.eq(&r.confirmed_at),
                $t::updated_at.eq(&r.updated_at),
            );
            if exists {
                diesel::update($t::table.find($id)).set(fields).execute(conn)?;
            } else {
                let key = ($t::$key.eq($id), $t::tournament_id.eq(r.tournament_id));
                diesel::insert_into($t::table).values((key, fields)).execute(conn)?;
            }
        }};
    }
    match r.of {
        Counted::Game(id) => write_to!(game_counts, game_id, id),
        Counted::Match(id) => write_to!(relay_counts, match_id, id),
    }
    Ok(())
}

/// The row at `version` (0: none yet), or the refusal.
fn current(conn: &mut Conn, tid: i32, of: Counted, version: i32) -> Result<Option<CountRow>, CountError> {
    let row = get(conn, tid, of)?;
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

/// Stores `after` (over `before`, if any) and its audit row.
fn write(
    conn: &mut Conn,
    actor: &Actor,
    action: AuditAction,
    before: Option<&CountRow>,
    after: &CountRow,
    reason: &str,
) -> Result<(), DbError> {
    store(conn, before.is_some(), after)?;
    let old = before.map(audited);
    audit::record(
        conn,
        actor,
        Change {
            tournament_id: Some(after.tournament_id),
            action,
            entity_id: Some(after.of.id()),
            before: old.as_ref(),
            after: Some(&audited(after)),
            reason,
        },
    )
}

/// Save the dead stones the referee marked and the count they give (Black's, in half points).
/// A list different from the stored one clears the sides' confirmations. Returns the new
/// version. `version` is the one the page was shown with (0 before any was saved).
pub fn save_dead(
    conn: &mut Conn,
    actor: &Actor,
    (tid, of): (i32, Counted),
    version: i32,
    dead: &[Point],
    black_halves: u32,
) -> Result<i32, CountError> {
    let text = dead_text(dead);
    let halves = i32::try_from(black_halves).unwrap_or(i32::MAX);
    crate::write_tx(&mut *conn, |conn| {
        let before = current(conn, tid, of, version)?;
        let kept = before.as_ref().filter(|b| b.dead == text);
        let after = CountRow {
            of,
            tournament_id: tid,
            version: version + 1,
            dead: text,
            black_halves: halves,
            confirmed_black: kept.is_some_and(|b| b.confirmed_black),
            confirmed_white: kept.is_some_and(|b| b.confirmed_white),
            confirmed_by: None,
            confirmed_at: None,
            updated_at: now(),
        };
        write(conn, actor, of.dead_action(), before.as_ref(), &after, "")?;
        Ok(after.version)
    })
}

/// A side's confirmation of the count as it stands (pressed on the referee's tablet by the
/// player, or by the relay side's executing leader), inside the caller's write transaction.
/// `reason` says whose (the audit's). Returns the new version.
pub fn confirm_side_in(
    conn: &mut Conn,
    actor: &Actor,
    (tid, of): (i32, Counted),
    version: i32,
    side: Color,
    reason: &str,
) -> Result<i32, CountError> {
    let before = current(conn, tid, of, version)?.ok_or(CountError::NoCount)?;
    let mut after = CountRow { version: version + 1, updated_at: now(), ..before.clone() };
    match side {
        Color::Black => after.confirmed_black = true,
        Color::White => after.confirmed_white = true,
    }
    write(conn, actor, of.confirm_action(), Some(&before), &after, reason)?;
    Ok(after.version)
}

/// A player's confirmation of the count as it stands (pressed on the referee's tablet).
pub fn confirm_player(
    conn: &mut Conn,
    actor: &Actor,
    at: (i32, Counted),
    version: i32,
    side: Color,
) -> Result<i32, CountError> {
    let reason = match side {
        Color::Black => "black",
        Color::White => "white",
    };
    crate::write_tx(&mut *conn, |conn| confirm_side_in(conn, actor, at, version, side, reason))
}

/// The referee's confirmation after both sides', inside the caller's write transaction (the
/// one that writes the result): refused before both sides confirmed. Returns the count as it
/// was confirmed.
pub fn confirm_referee_in(
    conn: &mut Conn,
    actor: &Actor,
    (tid, of): (i32, Counted),
    version: i32,
) -> Result<CountRow, CountError> {
    let before = current(conn, tid, of, version)?.ok_or(CountError::NoCount)?;
    if !(before.confirmed_black && before.confirmed_white) {
        return Err(CountError::PlayersFirst);
    }
    let t = now();
    let after = CountRow {
        version: version + 1,
        confirmed_by: Some(actor.name.clone()),
        confirmed_at: Some(t.clone()),
        updated_at: t,
        ..before.clone()
    };
    write(conn, actor, of.confirm_action(), Some(&before), &after, "arbiter")?;
    Ok(after)
}
