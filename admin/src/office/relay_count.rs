//! The count from a relay game's final position, confirmed at the board (seed 003 Art. 16.4:
//! "经对局双方和执行裁判正式确认的胜败结果"; Art. 21.4: dead and alive stones are agreed, else
//! play goes on): the referee marks the dead stones on the position the moves entered at the
//! board make (`domain::team::at_board`), each side's executing leader (执行领队, Art. 10.1)
//! confirms on the referee's tablet, and the referee's confirmation after both records Black's
//! count as the match's [`Event::Count`] through `team_matches::record_event_in`, in one
//! transaction with the count's own confirmation and audit rows. The match computes the result
//! (komi and the draw at 184 of Art. 12, penalty stones) when the event is recorded; the storage
//! and the rules of confirmation are the individual count's (`store::game_counts`,
//! [`super::confirm_count`]).

use super::confirm_count::{confirm_referee_on, save_dead_on, CountRefusal};
use super::count_position::{count_of, FinalPosition, PositionCount, Source};
use crate::db::game_counts::{self as gc, Counted};
use crate::db::team_matches::{self as mdb, EventInput, MatchError, RelayState};
use crate::db::{self, Actor, Conn, DbError};
use domain::team::at_board::{self, Gap};
use domain::team::matches::MatchRefusal;
use domain::team::relay::{Accepted, Event, Phase, Refusal, RelayMatch};
use domain::team::Timestamp;
use rules::board::{Board, Color, Point};

/// A relay match with the count from its position.
pub struct RelayCount {
    pub st: RelayState,
    /// The count from the position (the saved dead stones, or the rules crate's proposal);
    /// why the moves make no position (a move recorded without its point); `None` while the
    /// match cannot start (its setup refused).
    pub count: Option<Result<PositionCount, Gap>>,
}

/// The final position the moves of `m` entered at the board make.
pub fn position_of(m: &RelayMatch) -> Result<FinalPosition, Gap> {
    let pos = at_board::position(m)?;
    Ok(FinalPosition { board: pos.board().clone(), prisoners: pos.captures, source: Source::RelayBoard })
}

/// Relay match `mid` of tournament `tid` with the count from its position.
pub fn relay_count(conn: &mut Conn, tid: i32, mid: i32) -> Result<RelayCount, DbError> {
    let st = mdb::relay_state(conn, tid, mid)?;
    let saved = gc::get(conn, tid, Counted::Match(mid))?;
    let count = st.m.as_ref().map(|m| position_of(m).map(|p| count_of(p, saved)));
    Ok(RelayCount { st, count })
}

/// The count event of Black's `halves` at `at` (no clock readings: the referee stops the
/// clocks for the count, and a reading is recorded on the match page if wanted).
pub fn count_input(halves: u32, at: Timestamp) -> EventInput {
    EventInput { at, at_move: None, event: Event::Count { black_halves: halves, clocks: None }, also: vec![] }
}

/// What recording Black's `halves` would do to match `mid` at `version`, nothing written: the
/// result the leaders confirm, penalty stones included.
pub fn preview(
    conn: &mut Conn,
    actor: &Actor,
    (tid, mid): (i32, i32),
    version: i32,
    halves: u32,
    at: Timestamp,
) -> Result<(Vec<Accepted>, RelayMatch), MatchError> {
    mdb::preview_event(conn, actor, tid, mid, version, &count_input(halves, at))
}

fn refused(r: MatchRefusal) -> CountRefusal {
    CountRefusal::Match(MatchError::Refused(r))
}

/// Relay match `mid` in play and the board its moves make, or why it cannot be counted.
fn in_play(conn: &mut Conn, tid: i32, mid: i32) -> Result<(RelayMatch, Board), CountRefusal> {
    let st = mdb::relay_state(conn, tid, mid)?;
    if !st.row.is_relay() {
        return Err(refused(MatchRefusal::WrongKind));
    }
    if let Err(r) = st.setup {
        return Err(refused(r));
    }
    let m = st.m.ok_or(CountRefusal::NoPosition)?;
    match m.phase() {
        Phase::Playing => {}
        Phase::PlayoffPending => return Err(refused(MatchRefusal::Relay(Refusal::PlayoffPending))),
        Phase::Over => return Err(refused(MatchRefusal::Relay(Refusal::MatchOver))),
    }
    let board = position_of(&m).map_err(|_| CountRefusal::NoPosition)?.board;
    Ok((m, board))
}

/// The referee's marking of the dead stones of match `mid` (any point of each dead chain): a
/// list other than the saved one clears the leaders' confirmations. Returns the count's new
/// version.
pub fn save_dead(
    conn: &mut Conn,
    actor: &Actor,
    (tid, mid): (i32, i32),
    version: i32,
    points: &[Point],
) -> Result<i32, CountRefusal> {
    let (_, board) = in_play(conn, tid, mid)?;
    save_dead_on(conn, actor, (tid, Counted::Match(mid)), version, &board, points)
}

/// Side `side`'s executing leader's confirmation of the count as it stands, pressed on the
/// referee's tablet: refused while the side has no executing leader available (Art. 10.1).
/// The audit names the leader. Returns the count's new version.
pub fn confirm_leader(
    conn: &mut Conn,
    actor: &Actor,
    (tid, mid): (i32, i32),
    version: i32,
    side: Color,
) -> Result<i32, CountRefusal> {
    db::write_tx(&mut *conn, |conn| {
        let (m, _) = in_play(conn, tid, mid)?;
        let leader = m.acting_leader(side).ok_or(CountRefusal::NoLeader(side))?;
        let name = m.side(side).team.name_of(leader.person).unwrap_or_default();
        let tag = match side {
            Color::Black => "black",
            Color::White => "white",
        };
        let reason = format!("{tag} {} {name}", leader.person);
        Ok(gc::confirm_side_in(conn, actor, (tid, Counted::Match(mid)), version, side, &reason)?)
    })
}

/// The referee's confirmation after both leaders': Black's count is recorded as the match's
/// count event at `at`, with the match's version the page was shown with (`match_version`),
/// in one transaction with the count's confirmation. A refusal of the match (stale, over, a
/// request pending) writes nothing. Returns what the match accepted.
pub fn confirm_referee(
    conn: &mut Conn,
    actor: &Actor,
    (tid, mid): (i32, i32),
    (version, match_version): (i32, i32),
    at: Timestamp,
) -> Result<Vec<Accepted>, CountRefusal> {
    db::write_tx(&mut *conn, |conn| {
        let (_, board) = in_play(conn, tid, mid)?;
        let halves = confirm_referee_on(conn, actor, (tid, Counted::Match(mid)), version, &board)?;
        mdb::record_event_in(conn, actor, tid, mid, match_version, &count_input(halves, at))
            .map_err(CountRefusal::Match)
    })
}
