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
