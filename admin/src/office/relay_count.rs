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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::audit;
    use crate::db::game_counts::CountError;
    use crate::db::team_matches as tm;
    use crate::office::fixtures::RelayFixture;
    use domain::team::matches::MatchRefusal;
    use domain::team::relay::Placed;

    /// The game: Black's wall on column J, White's on column L, column K left empty (dame), a
    /// white stone at C3 in Black's area and a black one at R17 in White's: 40 moves, each
    /// entered at the board with its point by the player the clockwise order expects.
    fn moves() -> Vec<Point> {
        let p = |s: &str| Point::parse(s, 19).unwrap();
        let mut v = Vec::new();
        for row in 1..=19 {
            v.push(p(&format!("J{row}")));
            v.push(p(&format!("L{row}")));
        }
        v.extend([p("R17"), p("C3")]);
        v
    }

    fn play(c: &mut Conn, tid: i32, mid: i32) -> i32 {
        let a = Actor::system("referee");
        for (k, at) in moves().into_iter().enumerate() {
            let st = tm::relay_state(c, tid, mid).unwrap();
            let m = st.m.unwrap();
            let player = m.expected_player().unwrap();
            let event = at_board::entered(&m, player, Placed::Point(at)).unwrap();
            let t = 1060 + i64::try_from(k).unwrap() * 30;
            let input = EventInput { at: t, at_move: None, event, also: vec![] };
            tm::record_event(c, &a, tid, mid, st.row.version, &input).unwrap();
        }
        tm::get_match(c, tid, mid).unwrap().version
    }

    /// Black's count of the final position, counted here by columns (not by the rules crate):
    /// columns A–J (9, the letter I skipped) are Black's, its wall and territory with the dead
    /// white stone's point; column K's 19 points touch both walls and are dame, shared ½ each
    /// (seed 000 Art. 9.1, the rules digest's reading of points reached by both colours).
    fn black_halves_by_hand() -> u32 {
        (0..19u32)
            .map(|x| {
                if x < 9 {
                    2 * 19
                } else if x == 9 {
                    19
                } else {
                    0
                }
            })
            .sum()
    }

    /// Seed 003 Arts. 16.4, 21.4: the proposal and the count from the relay position; a
    /// leader's confirmation is of the list as it stands and a new list clears it; the referee
    /// confirms only after both leaders; a stale match version writes nothing; the referee's
    /// confirmation records the match's count, and the match computes its result (komi of
    /// Art. 12: Black 180½ < 184, White wins).
    #[test]
    fn leaders_confirm_and_the_referee_records_the_relay_count() {
        let f = RelayFixture::with_lineups();
        let (tid, mid) = (f.tid, f.mid);
        let c = &mut f.conn();
        let a = Actor::system("referee");
        let mv = play(c, tid, mid);
        let p = |s: &str| Point::parse(s, 19).unwrap();

        let rc = relay_count(c, tid, mid).unwrap();
        let pc = rc.count.unwrap().unwrap();
        assert!(pc.proposal);
        let mut proposed: Vec<Point> = pc.dead.stones().to_vec();
        proposed.sort_unstable();
        let mut expected = vec![p("C3"), p("R17")];
        expected.sort_unstable();
        assert_eq!(proposed, expected, "the lone stones in the other side's area are proposed dead");
        assert_eq!(pc.area.black_halves, black_halves_by_hand());
        assert_eq!(black_halves_by_hand(), 361);

        let at = (tid, mid);
        let v = save_dead(c, &a, at, 0, &[p("C3"), p("R17")]).unwrap();
        let v = confirm_leader(c, &a, at, v, Color::Black).unwrap();
        let early = confirm_referee(c, &a, at, (v, mv), 3000);
        assert!(matches!(early, Err(CountRefusal::Count(CountError::PlayersFirst))), "{early:?}");
        // A new marking clears the leaders' confirmations.
        let v = save_dead(c, &a, at, v, &[p("C3")]).unwrap();
        let row = gc::get(c, tid, Counted::Match(mid)).unwrap().unwrap();
        assert!(!row.confirmed_black && !row.confirmed_white);
        // R17 alive: its stone is Black's, and White's 151 empty points (9 columns less R17)
        // now reach both colours, shared ½ each like column K.
        assert_eq!(row.black_halves, 2 * (9 * 19 + 1) + 19 + (9 * 19 - 1 - 19));
        let v = save_dead(c, &a, at, v, &[p("C3"), p("R17")]).unwrap();
        let v = confirm_leader(c, &a, at, v, Color::Black).unwrap();
        let v = confirm_leader(c, &a, at, v, Color::White).unwrap();

        // A stale match: nothing written, the count still unconfirmed.
        let stale = confirm_referee(c, &a, at, (v, mv - 1), 3000);
        assert!(
            matches!(stale, Err(CountRefusal::Match(MatchError::Refused(MatchRefusal::Stale { .. })))),
            "{stale:?}"
        );
        let row = gc::get(c, tid, Counted::Match(mid)).unwrap().unwrap();
        assert_eq!((row.version, row.confirmed()), (v, false));
        assert_eq!(tm::get_match(c, tid, mid).unwrap().version, mv);

        confirm_referee(c, &a, at, (v, mv), 3000).unwrap();
        let st = tm::relay_state(c, tid, mid).unwrap();
        let m = st.m.unwrap();
        assert_eq!(m.phase(), Phase::Over);
        let r = m.result().unwrap();
        assert_eq!(r.winner, Some(Color::White));
        assert!(matches!(
            st.log.last().map(|l| &l.event),
            Some(Event::Count { black_halves: 361, clocks: None })
        ));
        assert!(gc::get(c, tid, Counted::Match(mid)).unwrap().unwrap().confirmed());
        let audited = audit::for_tournament(c, tid, 200).unwrap();
        assert_eq!(audited.iter().filter(|r| r.action == "relay_count_confirm").count(), 4);
        assert!(audited.iter().any(|r| r.action == "relay_count_confirm" && r.reason.ends_with(" L1")));
        assert_eq!(audited.iter().filter(|r| r.action == "relay_count_dead").count(), 3);
        // The match is over: no more marking.
        let after = save_dead(c, &a, at, v + 1, &[]);
        assert!(
            matches!(
                after,
                Err(CountRefusal::Match(MatchError::Refused(MatchRefusal::Relay(Refusal::MatchOver))))
            ),
            "{after:?}"
        );
    }

    /// Seed 003 Art. 10.1: a side whose leader is recorded absent and whose other candidates
    /// are at the board has no executing leader: nobody confirms for it, nothing is written.
    #[test]
    fn a_side_without_an_executing_leader_cannot_confirm() {
        let f = RelayFixture::with_lineups();
        let (tid, mid) = (f.tid, f.mid);
        let c = &mut f.conn();
        let a = Actor::system("referee");
        let m = tm::relay_state(c, tid, mid).unwrap().m.unwrap();
        let leader = m.acting_leader(Color::Black).unwrap().person;
        let absent = Event::Attendance { present: vec![], absent: vec![leader] };
        let v = tm::get_match(c, tid, mid).unwrap().version;
        tm::record_event(
            c,
            &a,
            tid,
            mid,
            v,
            &EventInput { at: 900, at_move: None, event: absent, also: vec![] },
        )
        .unwrap();
        let m = tm::relay_state(c, tid, mid).unwrap().m.unwrap();
        assert_eq!(m.acting_leader(Color::Black), None, "the others of Art. 10.1 are at the board or absent");
        let v = save_dead(c, &a, (tid, mid), 0, &[]).unwrap();
        let r = confirm_leader(c, &a, (tid, mid), v, Color::Black);
        assert!(matches!(r, Err(CountRefusal::NoLeader(Color::Black))), "{r:?}");
        let row = gc::get(c, tid, Counted::Match(mid)).unwrap().unwrap();
        assert_eq!((row.version, row.confirmed_black), (v, false));
        assert_eq!(confirm_leader(c, &a, (tid, mid), v, Color::White).unwrap(), v + 1);
    }
}
