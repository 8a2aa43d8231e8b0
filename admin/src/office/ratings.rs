//! Ratings after the event (EGF GoR): the event's games as the EGF rates them
//! (`print_data::rated_event`), each player's rating before (their stored rating, else their
//! rank's, `domain::gor::rating_before`), the changes (`domain::gor::event_changes`, weighed by
//! the EGF class of the time control), stored by `store::rating_changes::replace` with its
//! audit row, checked against the tournament's change counter.

use super::print_data::{self, RatedEvent};
use crate::db::rating_changes::{self as rcdb, NewRatingChange, RatingError};
use crate::db::{Actor, Conn, DbError};
use crate::domain::gor;
use crate::formats::egf::{EgfClass, EgfRefusal};

/// Why ratings were not computed.
#[derive(Debug)]
pub enum ComputeError {
    Rating(RatingError),
    /// The time control is below the EGF's class C: the rating list rates no such event.
    NotRated(EgfRefusal),
}

impl From<DbError> for ComputeError {
    fn from(e: DbError) -> Self {
        ComputeError::Rating(RatingError::Db(e))
    }
}

/// The changes of an event's players who played a game on the board (thousandths of a point).
pub fn changes(event: &RatedEvent, class: EgfClass) -> Vec<NewRatingChange> {
    let before: Vec<f64> = event.players.iter().map(|p| f64::from(p.rating_before.unwrap_or(0))).collect();
    let class = match class {
        EgfClass::A => gor::Class::A,
        EgfClass::B => gor::Class::B,
        EgfClass::C => gor::Class::C,
        EgfClass::D => gor::Class::D,
    };
    let thousandths = |r: f64| i32::try_from(gor::milli(r)).unwrap_or(i32::MAX);
    gor::event_changes(&before, &event.games, class)
        .into_iter()
        .zip(&event.players)
        .filter(|(c, _)| c.games > 0)
        .map(|(c, p)| NewRatingChange {
            entrant_id: p.entrant_id,
            rating_before: thousandths(c.before),
            rating_after: thousandths(c.after),
            games: i32::try_from(c.games).unwrap_or(i32::MAX),
        })
        .collect()
}

/// Compute and store the ratings after the event `tid`, read at change counter `version`.
pub fn compute(conn: &mut Conn, actor: &Actor, tid: i32, version: i32) -> Result<usize, ComputeError> {
    let event = print_data::rated_event(conn, tid)?;
    if !event.finished {
        return Err(ComputeError::Rating(RatingError::Unfinished));
    }
    let class = event.class.clone().map_err(ComputeError::NotRated)?;
    let rows = changes(&event, class);
    rcdb::replace(conn, actor, tid, version, &rows).map_err(ComputeError::Rating)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::office::print_data::RatedPlayer;

    fn event(class: Result<EgfClass, EgfRefusal>) -> RatedEvent {
        let p = |id, r| RatedPlayer { entrant_id: id, rating_before: Some(r) };
        RatedEvent {
            players: vec![p(10, 2100), p(11, 2000), p(12, 1900)],
            games: vec![gor::RatedGame { black: 1, white: 0, handicap: 0, black_score: gor::Score::Win }],
            finished: true,
            class,
        }
    }

    /// EGF rating system (2021): only players with a game played on the board get a change,
    /// kept in thousandths; a class B event weighs the change 75 %.
    #[test]
    fn players_without_a_rated_game_get_no_row_and_the_class_weighs() {
        let a = changes(&event(Ok(EgfClass::A)), EgfClass::A);
        assert_eq!(a.iter().map(|c| c.entrant_id).collect::<Vec<_>>(), vec![10, 11]);
        assert_eq!(a[1].rating_before, 2_000_000);
        assert_eq!(a[1].games, 1);
        let gain_a = f64::from(a[1].rating_after - a[1].rating_before);
        let b = changes(&event(Ok(EgfClass::B)), EgfClass::B);
        let gain_b = f64::from(b[1].rating_after - b[1].rating_before);
        assert!((gain_b - 0.75 * gain_a).abs() <= 1.0, "{gain_a} {gain_b}");
        let by_hand = gor::game_change(2000.0, 2000.0, 2100.0, gor::Score::Win);
        assert!((gain_a - 1000.0 * by_hand).abs() <= 1.0);
    }
}
