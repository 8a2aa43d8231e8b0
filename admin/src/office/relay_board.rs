//! A relay game entered at the board (seed 003): a move with its point and the player who
//! placed it, checked against the position by the rules crate (`domain::team::at_board`) and
//! then recorded as the match's [`Event::Move`], so the relay state machine judges the order
//! of the four players (Art. 10.3) and offers an out-of-order move to be claimed (Art. 17.7);
//! and the last move taken back by the one who entered it.
//!
//! A move is entered for its number. The same move sent again (a tablet's queue after the
//! network came back, its first answer lost) is found by its number, player and point and not
//! recorded twice; any other move for a number already played, or beyond the next, is stale.

use crate::db::team_matches::{self as mdb, EventInput, MatchError};
use crate::db::{self, Actor, Conn};
use domain::team::at_board::{self, Refusal as BoardRefusal};
use domain::team::matches::MatchRefusal;
use domain::team::relay::{Event, Placed, RelayMatch};
use domain::team::{PersonId, Timestamp};

/// Why a move or an undo at the relay board is refused.
#[derive(Debug)]
pub enum BoardError {
    /// The match refuses it (not in play, a request pending, not this player's side…) or the
    /// page was stale.
    Match(MatchError),
    /// The position refuses it (occupied, ko, suicide), or the moves make no position.
    Board(BoardRefusal),
    /// The page entered move `wanted`; the match has `have` moves.
    Stale { wanted: u32, have: u32 },
    /// Nothing of the board's to undo: the last event of the match is not a move entered at
    /// the board (or the page showed another move as the last).
    NothingToUndo,
    /// The last move was entered by someone else.
    NotYours,
}

impl From<MatchError> for BoardError {
    fn from(e: MatchError) -> Self {
        BoardError::Match(e)
    }
}

impl From<diesel::result::Error> for BoardError {
    fn from(e: diesel::result::Error) -> Self {
        BoardError::Match(MatchError::from(e))
    }
}

impl From<db::DbError> for BoardError {
    fn from(e: db::DbError) -> Self {
        BoardError::Match(MatchError::Db(e))
    }
}

/// What became of an entered move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entered {
    Written,
    /// The match already had this very move (sent again).
    Again,
}

/// The match as its log leaves it, or why it has none yet (no start, no line-ups).
fn current(conn: &mut Conn, tid: i32, mid: i32) -> Result<(mdb::RelayState, RelayMatch), BoardError> {
    let st = mdb::relay_state(conn, tid, mid)?;
    if !st.row.is_relay() {
        return Err(MatchError::Refused(MatchRefusal::WrongKind).into());
    }
    let m = match (&st.m, &st.setup) {
        (Some(m), _) => m.clone(),
        (None, Err(r)) => return Err(MatchError::Refused(r.clone()).into()),
        (None, Ok(_)) => return Err(MatchError::Refused(MatchRefusal::NoStart).into()),
    };
    Ok((st, m))
}

/// A move as the board entered it: move `number`, placed `at` by `player` at time `now`.
#[derive(Debug, Clone, Copy)]
pub struct Entry {
    pub number: u32,
    pub player: PersonId,
    pub at: Placed,
    pub now: Timestamp,
}

/// The move `entry` of relay match `mid`.
pub fn enter(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    mid: i32,
    entry: Entry,
) -> Result<Entered, BoardError> {
    let Entry { number, player, at, now } = entry;
    // The check against the position reads the match at one version; recording refuses any
    // other version, so a write in between (another tablet, the match page) is read again.
    for _ in 0..3 {
        let (st, m) = current(conn, tid, mid)?;
        let have = m.moves();
        if number <= have {
            let same =
                m.move_log().get(number as usize - 1).is_some_and(|r| r.player == player && r.at == Some(at));
            return if same && number == have {
                Ok(Entered::Again)
            } else {
                Err(BoardError::Stale { wanted: number, have })
            };
        }
        if number != have + 1 {
            return Err(BoardError::Stale { wanted: number, have });
        }
        let event = at_board::entered(&m, player, at).map_err(BoardError::Board)?;
        let input = EventInput { at: now, at_move: None, event, also: vec![] };
        match mdb::record_event(conn, actor, tid, mid, st.row.version, &input) {
            Err(MatchError::Refused(MatchRefusal::Stale { .. })) => continue,
            Err(e) => return Err(e.into()),
            Ok(_) => return Ok(Entered::Written),
        }
    }
    Err(MatchError::Refused(MatchRefusal::Stale { current: 0 }).into())
}

/// Takes back move `number`, the match's last event, entered at the board by `actor`: the
/// event is withdrawn (the log keeps it, struck through) with `reason`, in one transaction with
/// the audit row. Anything else is the chief arbiter's to withdraw on the match page.
pub fn undo(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    mid: i32,
    number: u32,
    reason: &str,
) -> Result<i32, BoardError> {
    db::write_tx(&mut *conn, |conn| {
        let row = mdb::get_match(conn, tid, mid)?;
        let (rows, _, log) = mdb::logged_events(conn, mid)?;
        let last = log.iter().zip(&rows).rev().find(|(e, _)| !e.withdrawn);
        let Some((e, r)) = last else { return Err(BoardError::NothingToUndo) };
        if !matches!(e.event, Event::Move { at: Some(_), .. }) {
            return Err(BoardError::NothingToUndo);
        }
        let (_, m) = current(conn, tid, mid)?;
        if m.moves() != number {
            return Err(BoardError::NothingToUndo);
        }
        if r.user_id.is_none() || r.user_id != actor.user_id {
            return Err(BoardError::NotYours);
        }
        Ok(super::withdraw_relay_event::withdraw_in(conn, actor, tid, &row, e.seq, reason, true)?)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::office::fixtures::RelayFixture;
    use domain::team::at_board;
    use domain::team::relay::Effect;
    use rules::board::Point;
    use rules::game::IllegalMove;

    fn p(s: &str) -> Placed {
        Placed::Point(Point::from_sgf(s).unwrap())
    }

    /// Seed 003 Art. 10.3 and Art. 17.7 through the board: moves in the clockwise order are
    /// recorded with their points; a move sent again is recorded once; an occupied point is
    /// refused before the match sees it; a move by the wrong partner is recorded (it stands) and
    /// offered to be claimed; a stale number is refused.
    #[test]
    fn board_moves_are_recorded_once_checked_and_judged_for_order() {
        let f = RelayFixture::with_lineups();
        let (c, a, tid, mid) = (&mut f.conn(), &f.chief, f.tid, f.mid);
        let [b1, b2] = f.black;
        let [w1, _] = f.white;
        let at = |number, player, at| Entry { number, player, at, now: f.start + 60 };
        assert_eq!(enter(c, a, tid, mid, at(1, b1, p("pd"))).unwrap(), Entered::Written);
        assert_eq!(enter(c, a, tid, mid, at(1, b1, p("pd"))).unwrap(), Entered::Again);
        let occupied = enter(c, a, tid, mid, at(2, w1, p("pd")));
        assert!(
            matches!(
                occupied,
                Err(BoardError::Board(BoardRefusal::Board(domain::moves::Refusal::Illegal {
                    reason: IllegalMove::Occupied,
                    ..
                })))
            ),
            "{occupied:?}"
        );
        assert_eq!(enter(c, a, tid, mid, at(2, w1, p("dp"))).unwrap(), Entered::Written);
        // b2 is due at move 3; b1 plays again.
        assert_eq!(enter(c, a, tid, mid, at(3, b1, p("dd"))).unwrap(), Entered::Written);
        let st = mdb::relay_state(c, tid, mid).unwrap();
        let m = st.m.unwrap();
        assert_eq!(m.pending_order_error().map(|e| (e.number, e.player)), Some((3, b1)));
        let effects: Vec<Effect> =
            st.log.iter().filter_map(|l| l.accepted.as_ref()).flat_map(|a| a.effects.clone()).collect();
        assert!(effects.iter().any(|e| matches!(e, Effect::OrderErrorClaimable { number: 3, .. })));
        assert_eq!(at_board::position(&m).unwrap().moves, 3);
        let stale = enter(c, a, tid, mid, at(3, b2, p("qq")));
        assert!(matches!(stale, Err(BoardError::Stale { wanted: 3, have: 3 })), "{stale:?}");
        let ahead = enter(c, a, tid, mid, at(5, b2, p("qq")));
        assert!(matches!(ahead, Err(BoardError::Stale { wanted: 5, have: 3 })), "{ahead:?}");
    }

    /// The last move is taken back by the one who entered it only (the log keeps it, struck
    /// through); someone else, or an older move, is refused and nothing is written.
    #[test]
    fn only_the_enterer_undoes_the_last_move() {
        let f = RelayFixture::with_lineups();
        let (c, a, tid, mid) = (&mut f.conn(), &f.chief, f.tid, f.mid);
        let other = Actor { user_id: Some(a.user_id.unwrap() + 100), name: "other".into() };
        let e = |number, player, at| Entry { number, player, at, now: f.start + 60 };
        enter(c, a, tid, mid, e(1, f.black[0], p("pd"))).unwrap();
        enter(c, a, tid, mid, e(2, f.white[0], Placed::Pass)).unwrap();
        assert!(matches!(undo(c, &other, tid, mid, 2, "x"), Err(BoardError::NotYours)));
        assert!(matches!(undo(c, a, tid, mid, 1, "x"), Err(BoardError::NothingToUndo)));
        assert!(mdb::withdrawals_of(c, mid).unwrap().is_empty());
        undo(c, a, tid, mid, 2, "x").unwrap();
        let m = mdb::relay_state(c, tid, mid).unwrap().m.unwrap();
        assert_eq!(m.moves(), 1);
        assert_eq!(mdb::withdrawals_of(c, mid).unwrap().len(), 1);
        // White's move is entered again after the undo.
        assert_eq!(enter(c, a, tid, mid, e(2, f.white[0], p("dp"))).unwrap(), Entered::Written);
    }
}
