//! The final position a count is worked out from, and the count it gives (seed 000 Arts. 8, 9).
//!
//! [`final_position`] is the one place that chooses where a game's final position comes from:
//! the moves entered at the board (`store::game_moves`, each checked when it was entered) when
//! there are any, else the game record attached to the game (`results.sgf`, replayed by
//! `rules::sgf` under the event's rules).

use crate::db::game_counts::{self as gc, CountRow, Counted};
use crate::db::results as rdb;
use crate::db::{Conn, DbError};
use rules::board::{Board, Point};
use rules::count::{area_dead, AreaCount, DeadStones};
use rules::dead::propose_dead;
use rules::sgf::{self, ReplayOptions};

/// Where a final position was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The moves entered at the board.
    Board,
    /// The game record attached to the game (SGF).
    Record,
    /// The moves of a relay game entered at its board (seed 003, `domain::team::at_board`).
    RelayBoard,
}

/// A game's final position.
#[derive(Debug, Clone)]
pub struct FinalPosition {
    pub board: Board,
    /// Prisoners taken in play, `[by Black, by White]` (the fill-in methods' need).
    pub prisoners: [u32; 2],
    pub source: Source,
}

/// The final position of game `gid` of tournament `tid`: `None` while the game has no record
/// that replays to one (no record, or one that is not readable any more). The board's moves
/// win over an attached record: they were entered at the table as the game was played.
pub fn final_position(conn: &mut Conn, tid: i32, gid: i32) -> Result<Option<FinalPosition>, DbError> {
    use crate::db::game_moves::{self as gm, MoveError};
    match gm::final_position(conn, tid, gid) {
        Ok(Some(pos)) => {
            return Ok(Some(FinalPosition {
                board: pos.board().clone(),
                prisoners: pos.captures,
                source: Source::Board,
            }))
        }
        Ok(None) => {}
        Err(MoveError::Db(e)) => return Err(e),
        // Moves that no longer replay (the event's rules changed since): the attached record,
        // if any, is the position.
        Err(_) => {}
    }
    let Some(stored) = rdb::sgf(conn, tid, gid)? else { return Ok(None) };
    let settings = rdb::settings_of(conn, tid)?;
    let Ok(rec) = sgf::parse_bytes(&stored.bytes) else { return Ok(None) };
    let opts = ReplayOptions { rules: settings.ruleset.clone(), komi_q: None, dead: Some(Vec::new()) };
    let Ok(r) = sgf::replay(&rec, &opts) else { return Ok(None) };
    Ok(Some(FinalPosition {
        board: r.board,
        prisoners: [r.captures_by_black, r.captures_by_white],
        source: Source::Record,
    }))
}

/// The count of a position: the dead stones (the saved ones, or the rules crate's proposal while
/// none are saved) and the area count they give.
#[derive(Debug, Clone)]
pub struct PositionCount {
    pub position: FinalPosition,
    pub dead: DeadStones,
    pub area: AreaCount,
    /// The dead stones are the rules crate's proposal, not yet reviewed and saved by a referee.
    pub proposal: bool,
    pub saved: Option<CountRow>,
}

/// The count of game `gid` from its final position (`None` without a position).
pub fn position_count(conn: &mut Conn, tid: i32, gid: i32) -> Result<Option<PositionCount>, DbError> {
    let Some(position) = final_position(conn, tid, gid)? else { return Ok(None) };
    let saved = gc::get(conn, tid, Counted::Game(gid))?;
    Ok(Some(count_of(position, saved)))
}

/// The count of `position` with the saved dead stones, or the rules crate's proposal while
/// none are saved (a game's, or a relay game's: `office::relay_count`).
pub fn count_of(position: FinalPosition, saved: Option<CountRow>) -> PositionCount {
    let (dead, proposal) = match &saved {
        Some(row) => (DeadStones::lenient(&position.board, &row.dead_points()), false),
        None => (propose_dead(&position.board), true),
    };
    let area = area_dead(&position.board, &dead);
    PositionCount { position, dead, area, proposal, saved }
}

/// Black's count in half points with `dead` on `board` (any point of each dead chain).
pub fn black_halves(board: &Board, dead: &DeadStones) -> u32 {
    area_dead(board, dead).black_halves
}

/// The points of `dead` one per chain, as the form names them.
pub fn chain_heads(board: &Board, dead: &DeadStones) -> Vec<Point> {
    let mut seen = std::collections::HashSet::new();
    let mut heads = Vec::new();
    for &p in dead.stones() {
        if seen.insert(p) {
            seen.extend(board.chain(p));
            heads.push(p);
        }
    }
    heads
}
