//! The count from the position, reviewed and confirmed at the table (seed 000 Arts. 8, 9; the
//! result "经对局双方和执行裁判正式确认"): the referee saves the dead stones (a correction after a
//! player confirmed clears the confirmations), each player confirms on the referee's tablet,
//! and the referee's confirmation after both writes the game's result through the result sheet
//! ([`save_result_in`]: its audit, versions, rulings and standings), in one transaction with the
//! count's own confirmation and audit row.

use super::count_position::{black_halves, final_position};
use super::save_result::{save_result_in, SaveResult};
use crate::db::game_counts::{self as gc, CountError, Counted};
use crate::db::results::SheetError;
use crate::db::team_matches::MatchError;
use crate::db::{self, Actor, Conn, DbError};
use domain::results::Entry;
use rules::board::{Board, Color, Point};
use rules::count::{DeadStoneError, DeadStones};

/// Why a count write was refused. Nothing was written.
#[derive(Debug)]
pub enum CountRefusal {
    /// The game has no final position to count (no record; a relay game with a move recorded
    /// without its point).
    NoPosition,
    /// A dead stone named where there is none, or off the board.
    BadDead(DeadStoneError),
    Count(CountError),
    /// The result sheet refused the result (stale, locked, …).
    Sheet(SheetError),
    /// The relay match refused the count (stale, over, a request pending, …).
    Match(MatchError),
    /// Side's executing leader confirms a relay count, and the side has none available now
    /// (seed 003 Art. 10.1).
    NoLeader(Color),
}

impl From<diesel::result::Error> for CountRefusal {
    fn from(e: diesel::result::Error) -> Self {
        CountRefusal::Count(CountError::Db(e.into()))
    }
}

impl From<DbError> for CountRefusal {
    fn from(e: DbError) -> Self {
        CountRefusal::Count(CountError::Db(e))
    }
}

impl From<CountError> for CountRefusal {
    fn from(e: CountError) -> Self {
        CountRefusal::Count(e)
    }
}

/// Save the dead stones of game `gid` (any point of each dead chain). Returns the count's new
/// version.
pub fn save_dead(
    conn: &mut Conn,
    actor: &Actor,
    (tid, gid): (i32, i32),
    version: i32,
    points: &[Point],
) -> Result<i32, CountRefusal> {
    let position = final_position(conn, tid, gid)?.ok_or(CountRefusal::NoPosition)?;
    save_dead_on(conn, actor, (tid, Counted::Game(gid)), version, &position.board, points)
}

/// Save the dead stones of the count `at` on `board` (any point of each dead chain), with the
/// count they give. Returns the count's new version.
pub fn save_dead_on(
    conn: &mut Conn,
    actor: &Actor,
    at: (i32, Counted),
    version: i32,
    board: &Board,
    points: &[Point],
) -> Result<i32, CountRefusal> {
    let dead = DeadStones::new(board, points).map_err(CountRefusal::BadDead)?;
    let halves = black_halves(board, &dead);
    Ok(gc::save_dead(conn, actor, at, version, dead.stones(), halves)?)
}

/// A player's confirmation of the count as it stands.
pub fn confirm_player(
    conn: &mut Conn,
    actor: &Actor,
    (tid, gid): (i32, i32),
    version: i32,
    side: Color,
) -> Result<i32, CountRefusal> {
    Ok(gc::confirm_player(conn, actor, (tid, Counted::Game(gid)), version, side)?)
}

/// The referee's confirmation of the count `at` after both sides', inside the caller's
/// transaction: Black's count, checked against `board` (the position may have changed since
/// the dead stones were saved: the count the sides confirmed must still be the position's).
pub fn confirm_referee_on(
    conn: &mut Conn,
    actor: &Actor,
    at: (i32, Counted),
    version: i32,
    board: &Board,
) -> Result<u32, CountRefusal> {
    let row = gc::confirm_referee_in(conn, actor, at, version)?;
    let dead = DeadStones::lenient(board, &row.dead_points());
    let halves = black_halves(board, &dead);
    if i64::from(halves) != i64::from(row.black_halves) {
        return Err(CountRefusal::Count(CountError::Stale(Some(Box::new(row)))));
    }
    Ok(halves)
}

/// The referee's confirmation after both players': the count becomes the game's result
/// (`Entry::Count`, Black's count), written with the sheet's version the page was shown with.
/// Returns the sheet's new version.
pub fn confirm_referee(
    conn: &mut Conn,
    actor: &Actor,
    (tid, gid): (i32, i32),
    version: i32,
    sheet_version: i32,
) -> Result<i32, CountRefusal> {
    db::write_tx(&mut *conn, |conn| {
        let position = final_position(conn, tid, gid)?.ok_or(CountRefusal::NoPosition)?;
        let halves = confirm_referee_on(conn, actor, (tid, Counted::Game(gid)), version, &position.board)?;
        let entry = Some(Entry::Count { black_halves: halves, white_halves: None });
        let save = SaveResult { version: sheet_version, colours_version: None, entry, reason: "" };
        save_result_in(conn, actor, tid, gid, &save).map_err(CountRefusal::Sheet)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::game_counts as gc;
    use crate::db::results as rdb;
    use crate::db::rounds;
    use crate::office::pair_round::tests::events;
    use crate::office::pair_round::{pair_round, PairRound};

    /// The territory fixture of the rules crate: C17/C16 and R3 dead, Black 190.
    const RECORD: &[u8] = include_bytes!("../../../rules/tests/data/territory_markup.sgf");

    /// Saving the same list keeps the players' confirmations, another list clears them; a stale
    /// version and a referee before the players are refused with nothing written; the referee's
    /// confirmation writes the count as the game's result.
    #[test]
    fn confirmations_follow_the_list_and_the_referee_writes_the_result() {
        let (_dir, pool, tids) = events(1);
        let c = &mut pool.get().unwrap();
        let (tid, actor) = (tids[0], Actor::system("referee"));
        let ask = PairRound { round: 1, seed: 42, expected_version: None, confirm: false, reason: "" };
        let round = pair_round(c, &actor, tid, &ask).unwrap();
        rounds::publish(c, &actor, tid, 1, round.version, true, "").unwrap();
        let gid = rounds::games_of(c, tid, 1).unwrap().iter().find(|g| !g.is_bye()).unwrap().id;
        let at = (tid, gid);
        assert!(matches!(save_dead(c, &actor, at, 0, &[]), Err(CountRefusal::NoPosition)));
        let settings = rdb::settings_of(c, tid).unwrap();
        let report = domain::results::check_sgf(&settings.ruleset, 0, RECORD).unwrap();
        let text = String::from_utf8_lossy(RECORD).into_owned();
        rdb::attach_sgf(c, &actor, tid, gid, 0, "final.sgf", &text, RECORD, &report).unwrap();

        let p = |s: &str| Point::parse(s, 19).unwrap();
        let v = save_dead(c, &actor, at, 0, &[p("C16"), p("R3")]).unwrap();
        let row = gc::get(c, tid, Counted::Game(gid)).unwrap().unwrap();
        assert_eq!((row.dead.as_str(), row.black_halves), ("cc cd qq", 380));
        assert!(matches!(save_dead(c, &actor, at, 0, &[]), Err(CountRefusal::Count(CountError::Stale(_)))));
        let v = confirm_player(c, &actor, at, v, Color::Black).unwrap();
        assert!(matches!(
            confirm_referee(c, &actor, at, v, 1),
            Err(CountRefusal::Count(CountError::PlayersFirst))
        ));
        let v = confirm_player(c, &actor, at, v, Color::White).unwrap();
        // The same stones named by other points of their chains: the same list, confirmations kept.
        let v = save_dead(c, &actor, at, v, &[p("C17"), p("R3")]).unwrap();
        let row = gc::get(c, tid, Counted::Game(gid)).unwrap().unwrap();
        assert!(row.confirmed_black && row.confirmed_white);
        // Another list: cleared.
        let v = save_dead(c, &actor, at, v, &[p("C17")]).unwrap();
        let row = gc::get(c, tid, Counted::Game(gid)).unwrap().unwrap();
        assert!(!row.confirmed_black && !row.confirmed_white);
        assert!(matches!(save_dead(c, &actor, at, v, &[p("A1")]), Err(CountRefusal::BadDead(_))));
        let v = save_dead(c, &actor, at, v, &[p("C17"), p("R3")]).unwrap();
        let v = confirm_player(c, &actor, at, v, Color::Black).unwrap();
        let v = confirm_player(c, &actor, at, v, Color::White).unwrap();
        let sheet_version = rdb::sheet(c, tid, gid).unwrap().version();
        confirm_referee(c, &actor, at, v, sheet_version).unwrap();
        let sheet = rdb::sheet(c, tid, gid).unwrap();
        assert_eq!(sheet.entry(), Some(Entry::Count { black_halves: 380, white_halves: None }));
        assert!(gc::get(c, tid, Counted::Game(gid)).unwrap().unwrap().confirmed());
        assert!(matches!(
            save_dead(c, &actor, at, v + 1, &[]),
            Err(CountRefusal::Count(CountError::Confirmed))
        ));
    }
}
