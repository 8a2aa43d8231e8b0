//! The moves of a game entered at the board (`game_moves`), and the public board's delay
//! (`live_delays`). A move is appended only after `domain::moves` has replayed the game so far
//! and played it under the event's ko and suicide rule; each append and each undo writes its
//! audit row in the same transaction, which moves the tournament's change tag, so every open
//! board page hears of it (`web::live`).
//!
//! An entry carries the board page's own id (`client_id`): sent again when the network
//! returns, it is found and answered as written, never written twice. An entry made for a
//! move number the record has passed (someone else entered meanwhile) is refused as stale.

use super::audit::{self, AuditAction, Change};
use super::schema::{game_moves, games, live_delays};
use super::{now, Actor, Conn, DbError};
use diesel::prelude::*;
use domain::moves::{self as dm, BoardRules, Position, Refusal};
use rules::board::{Color, Point};
use rules::game::Move;
use serde::Serialize;

/// The public board's delay where the organizer set none: 30 moves. Chinese events commonly
/// delay a live board so nobody outside the hall can help a player; 30 moves keeps the
/// public well behind any fight at the table while the game is still followed closely.
pub const DEFAULT_DELAY: u32 = 30;
/// The longest delay the organizer may set (beyond a long game's length).
pub const MAX_DELAY: u32 = 500;
/// The longest client id a board page sends.
pub const MAX_CLIENT_ID: usize = 64;

/// A stored move.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StoredMove {
    pub seq: u32,
    pub colour: Color,
    pub mv: Move,
    pub client_id: String,
    pub entered_by: Option<i32>,
    pub entered_at: String,
}

#[derive(Queryable, Selectable)]
#[diesel(table_name = game_moves)]
struct Row {
    seq: i32,
    color: String,
    point: Option<String>,
    client_id: String,
    entered_by: Option<i32>,
    entered_at: String,
}

fn of_row(r: Row) -> Option<StoredMove> {
    let colour = match r.color.as_str() {
        "B" => Color::Black,
        "W" => Color::White,
        _ => return None,
    };
    let mv = match r.point {
        None => Move::Pass,
        Some(p) => Move::Play(Point::from_sgf(&p)?),
    };
    Some(StoredMove {
        seq: u32::try_from(r.seq).ok()?,
        colour,
        mv,
        client_id: r.client_id,
        entered_by: r.entered_by,
        entered_at: r.entered_at,
    })
}

/// The moves of game `gid` of tournament `tid`, in order (NotFound for another tournament's game).
pub fn list(conn: &mut Conn, tid: i32, gid: i32) -> Result<Vec<StoredMove>, DbError> {
    game_of(conn, tid, gid)?;
    let rows: Vec<Row> = game_moves::table
        .filter(game_moves::game_id.eq(gid))
        .order(game_moves::seq)
        .select(Row::as_select())
        .load(conn)?;
    Ok(rows.into_iter().filter_map(of_row).collect())
}

/// The game's handicap, checking it is `tid`'s and has two players (a bye has no board).
fn game_of(conn: &mut Conn, tid: i32, gid: i32) -> Result<u8, DbError> {
    let g: Option<(i32, Option<i32>)> = games::table
        .filter(games::tournament_id.eq(tid))
        .filter(games::id.eq(gid))
        .select((games::handicap, games::white_id))
        .first(conn)
        .optional()?;
    match g {
        Some((h, Some(_))) => Ok(u8::try_from(h).unwrap_or(0)),
        _ => Err(DbError::NotFound),
    }
}

/// The rules game `gid`'s board is checked under: the event's board size, ko and suicide
/// rule, and the game's handicap.
pub fn board_rules(conn: &mut Conn, tid: i32, gid: i32) -> Result<BoardRules, DbError> {
    let handicap = game_of(conn, tid, gid)?;
    let settings = super::tournaments::get(conn, tid)?.settings();
    Ok(BoardRules::of(&settings.ruleset, handicap))
}

/// The pairs a replay reads.
pub fn pairs(moves: &[StoredMove]) -> Vec<(Color, Move)> {
    moves.iter().map(|m| (m.colour, m.mv)).collect()
}

/// A game's stored moves replayed.
pub struct Replayed {
    pub rules: BoardRules,
    pub moves: Vec<StoredMove>,
    /// The position after them; the refusal when the record no longer replays (the event's
    /// rules changed meanwhile).
    pub pos: Result<Position, Refusal>,
}

/// The position after every stored move, with the rules it was replayed under.
pub fn position(conn: &mut Conn, tid: i32, gid: i32) -> Result<Replayed, DbError> {
    let rules = board_rules(conn, tid, gid)?;
    let moves = list(conn, tid, gid)?;
    let pos = dm::replay(rules, &pairs(&moves));
    Ok(Replayed { rules, moves, pos })
}

/// For the count from the position (the `count` work): the replayed game of `gid` — its
/// board, captures and moves — or `None` when no move was entered at the board.
pub fn final_position(conn: &mut Conn, tid: i32, gid: i32) -> Result<Option<Position>, MoveError> {
    let Replayed { moves, pos, .. } = position(conn, tid, gid)?;
    if moves.is_empty() {
        return Ok(None);
    }
    pos.map(Some).map_err(MoveError::Refused)
}

/// Why an entry at the board is refused.
#[derive(Debug)]
pub enum MoveError {
    /// The move is not legal here, or not this colour's (`domain::moves`).
    Refused(Refusal),
    /// The entry was made for move `wanted`, but the record has `have` moves now (someone
    /// else entered or undid meanwhile).
    Stale {
        wanted: u32,
        have: u32,
    },
    /// The client id is empty or too long.
    BadClient,
    /// Undo: there is no move to undo.
    NothingToUndo,
    /// Undo: the last move was entered by someone else (only its enterer undoes it).
    NotYours,
    Db(DbError),
}

db_variant!(MoveError);

/// What an append did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Appended {
    /// Written now, as move `seq`.
    Written { seq: u32 },
    /// Already written (the same client id): an entry sent again after the network returned.
    Again { seq: u32 },
}

#[derive(Serialize)]
struct Audited<'a> {
    game: i32,
    seq: u32,
    colour: char,
    point: Option<String>,
    client_id: &'a str,
}

fn point_text(mv: Move) -> Option<String> {
    match mv {
        Move::Play(p) => Some(p.sgf()),
        Move::Pass => None,
    }
}

/// An entry at the board: move `seq` (from 1), `mv` for `colour`, with the page's own id.
#[derive(Debug, Clone, Copy)]
pub struct Entry<'a> {
    pub seq: u32,
    pub colour: Color,
    pub mv: Move,
    pub client_id: &'a str,
}

/// Append `entry` to game `gid`, entered by `actor`. The same client id again is answered as
/// written; a `seq` the record has passed is stale; otherwise the move is checked on the
/// replayed game and written with its audit row.
pub fn append(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    gid: i32,
    entry: Entry<'_>,
) -> Result<Appended, MoveError> {
    let Entry { seq, colour, mv, client_id } = entry;
    if client_id.is_empty() || client_id.len() > MAX_CLIENT_ID || client_id.chars().any(char::is_control) {
        return Err(MoveError::BadClient);
    }
    crate::write_tx(&mut *conn, |conn| {
        let Replayed { rules: r, moves, pos } = position(conn, tid, gid)?;
        if let Some(m) = moves.iter().find(|m| m.client_id == client_id) {
            return Ok(Appended::Again { seq: m.seq });
        }
        let have = moves.len() as u32;
        if seq != have + 1 {
            return Err(MoveError::Stale { wanted: seq, have });
        }
        let mut pos = pos.map_err(MoveError::Refused)?;
        dm::play(&mut pos, r, colour, mv).map_err(MoveError::Refused)?;
        let stamp = now();
        diesel::insert_into(game_moves::table)
            .values((
                game_moves::tournament_id.eq(tid),
                game_moves::game_id.eq(gid),
                game_moves::seq.eq(seq as i32),
                game_moves::color.eq(colour.letter().to_string()),
                game_moves::point.eq(point_text(mv)),
                game_moves::client_id.eq(client_id),
                game_moves::entered_by.eq(actor.user_id),
                game_moves::entered_at.eq(&stamp),
            ))
            .execute(conn)?;
        let after = Audited { game: gid, seq, colour: colour.letter(), point: point_text(mv), client_id };
        audit::record(
            conn,
            actor,
            Change::<(), _> {
                tournament_id: Some(tid),
                action: AuditAction::MoveEnter,
                entity_id: Some(gid),
                before: None,
                after: Some(&after),
                reason: "",
            },
        )?;
        Ok(Appended::Written { seq })
    })
}

/// Undo move `seq` of game `gid`, which must be the last, entered by `actor`; its audit row
/// keeps what it was.
pub fn undo(conn: &mut Conn, actor: &Actor, tid: i32, gid: i32, seq: u32) -> Result<(), MoveError> {
    crate::write_tx(&mut *conn, |conn| {
        let moves = list(conn, tid, gid)?;
        let Some(last) = moves.last() else { return Err(MoveError::NothingToUndo) };
        if last.seq != seq {
            return Err(MoveError::Stale { wanted: seq, have: last.seq });
        }
        if last.entered_by.is_none() || last.entered_by != actor.user_id {
            return Err(MoveError::NotYours);
        }
        diesel::delete(
            game_moves::table.filter(game_moves::game_id.eq(gid)).filter(game_moves::seq.eq(seq as i32)),
        )
        .execute(conn)?;
        let before = Audited {
            game: gid,
            seq,
            colour: last.colour.letter(),
            point: point_text(last.mv),
            client_id: &last.client_id,
        };
        audit::record(
            conn,
            actor,
            Change::<_, ()> {
                tournament_id: Some(tid),
                action: AuditAction::MoveUndo,
                entity_id: Some(gid),
                before: Some(&before),
                after: None,
                reason: "",
            },
        )?;
        Ok(())
    })
}

/// The public board's delay of tournament `tid` in moves, and the version a form carries
/// back (0 while the default holds).
pub fn delay(conn: &mut Conn, tid: i32) -> Result<(u32, i32), DbError> {
    let row: Option<(i32, i32)> = live_delays::table
        .find(tid)
        .select((live_delays::moves, live_delays::version))
        .first(conn)
        .optional()?;
    Ok(match row {
        Some((m, v)) => (u32::try_from(m).unwrap_or(DEFAULT_DELAY), v),
        None => (DEFAULT_DELAY, 0),
    })
}

/// Why a delay is refused.
#[derive(Debug)]
pub enum DelayError {
    /// More than [`MAX_DELAY`].
    TooLong,
    Stale,
    Db(DbError),
}

db_variant!(DelayError);

/// Set the public board's delay of `tid` to `moves`, read at `version`.
pub fn set_delay(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    version: i32,
    moves: u32,
) -> Result<(), DelayError> {
    if moves > MAX_DELAY {
        return Err(DelayError::TooLong);
    }
    crate::write_tx(&mut *conn, |conn| {
        super::tournaments::get(conn, tid)?;
        let (before, v) = delay(conn, tid)?;
        if v != version {
            return Err(DelayError::Stale);
        }
        let stamp = now();
        if v == 0 {
            diesel::insert_into(live_delays::table)
                .values((
                    live_delays::tournament_id.eq(tid),
                    live_delays::moves.eq(moves as i32),
                    live_delays::version.eq(1),
                    live_delays::updated_at.eq(&stamp),
                ))
                .execute(conn)?;
        } else {
            diesel::update(live_delays::table.find(tid))
                .set((
                    live_delays::moves.eq(moves as i32),
                    live_delays::version.eq(v + 1),
                    live_delays::updated_at.eq(&stamp),
                ))
                .execute(conn)?;
        }
        audit::record(
            conn,
            actor,
            Change {
                tournament_id: Some(tid),
                action: AuditAction::MoveDelay,
                entity_id: Some(tid),
                before: Some(&before),
                after: Some(&moves),
                reason: "",
            },
        )?;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::game::IllegalMove;

    fn p(s: &str) -> Move {
        Move::Play(Point::from_sgf(s).unwrap())
    }

    /// A game of a fresh tournament: (tid, gid).
    fn game(c: &mut Conn) -> (i32, i32) {
        let a = Actor::system("test");
        let s = domain::settings::TournamentSettings::defaults(chrono::NaiveDate::MIN, crate::server_zone());
        let tid = super::super::tournaments::create(c, &a, &s).unwrap();
        let ids: Vec<i32> = (0..2)
            .map(|i| {
                let mut e = domain::entrant::EntrantInput::new(domain::entrant::Rank::Dan(1));
                (e.family_name_zh, e.given_name_zh) = ("王".into(), ["一", "二"][i].into());
                crate::entrants::create(c, &a, tid, &e, true, None).unwrap()
            })
            .collect();
        diesel::insert_into(games::table)
            .values((
                games::tournament_id.eq(tid),
                games::round_number.eq(1),
                games::board.eq(1),
                games::black_id.eq(ids[0]),
                games::white_id.eq(ids[1]),
                games::handicap.eq(0),
                games::result.eq(""),
            ))
            .execute(c)
            .unwrap();
        let gid = games::table.select(diesel::dsl::max(games::id)).first::<Option<i32>>(c).unwrap().unwrap();
        (tid, gid)
    }

    /// Seed 000 Art. 2 and Art. 6 at the board: an occupied point and the immediate retake of a
    /// ko are refused by name and write nothing; the same entry sent twice is written once; a
    /// stale move number is refused; only the enterer undoes the last move, audited.
    #[test]
    fn append_refuse_again_and_undo() {
        let dir = tempfile::tempdir().unwrap();
        let pool = crate::open(&dir.path().join("t.db")).unwrap();
        let mut conn = pool.get().unwrap();
        let c = &mut conn;
        let (tid, gid) = game(c);
        let rec = Actor { user_id: None, name: "recorder".into() };
        let seq = ["cd", "fd", "dc", "ec", "de", "ee", "aa", "dd", "ed"];
        for (k, s) in seq.iter().enumerate() {
            let n = k as u32 + 1;
            let colour = dm::colour_of(n, 0);
            assert_eq!(
                append(c, &rec, tid, gid, Entry { seq: n, colour, mv: p(s), client_id: &format!("c{n}") })
                    .unwrap(),
                Appended::Written { seq: n }
            );
        }
        // Sent again after the network returned: answered, not written twice.
        assert_eq!(
            append(c, &rec, tid, gid, Entry { seq: 9, colour: Color::Black, mv: p("ed"), client_id: "c9" })
                .unwrap(),
            Appended::Again { seq: 9 }
        );
        let ko =
            append(c, &rec, tid, gid, Entry { seq: 10, colour: Color::White, mv: p("dd"), client_id: "c10" });
        assert!(matches!(
            ko,
            Err(MoveError::Refused(Refusal::Illegal { reason: IllegalMove::Ko | IllegalMove::Superko, .. }))
        ));
        let occupied =
            append(c, &rec, tid, gid, Entry { seq: 10, colour: Color::White, mv: p("cd"), client_id: "c10" });
        assert!(matches!(
            occupied,
            Err(MoveError::Refused(Refusal::Illegal { reason: IllegalMove::Occupied, .. }))
        ));
        let stale =
            append(c, &rec, tid, gid, Entry { seq: 9, colour: Color::Black, mv: p("gg"), client_id: "x" });
        assert!(matches!(stale, Err(MoveError::Stale { wanted: 9, have: 9 })));
        assert_eq!(list(c, tid, gid).unwrap().len(), 9);
        let pos = final_position(c, tid, gid).unwrap().unwrap();
        assert_eq!(pos.captures, [1, 0]);
        // No user: nobody's move to undo.
        assert!(matches!(undo(c, &rec, tid, gid, 9), Err(MoveError::NotYours)));
        let audited: i64 = crate::schema::audit::table
            .filter(crate::schema::audit::entity.eq("game_move"))
            .count()
            .get_result(c)
            .unwrap();
        assert_eq!(audited, 9);
        assert!(matches!(list(c, tid + 1, gid), Err(DbError::NotFound)));
        assert_eq!(delay(c, tid).unwrap(), (DEFAULT_DELAY, 0));
        set_delay(c, &rec, tid, 0, 5).unwrap();
        assert_eq!(delay(c, tid).unwrap(), (5, 1));
        assert!(matches!(set_delay(c, &rec, tid, 0, 6), Err(DelayError::Stale)));
        assert!(matches!(set_delay(c, &rec, tid, 1, MAX_DELAY + 1), Err(DelayError::TooLong)));
    }
}
