//! Taking back a wrongly recorded relay event.
//!
//! The event log of a relay match is append-only: an event entered by mistake (a card to the
//! wrong person, a count typed wrongly, moves recorded too far) is not deleted but
//! **withdrawn**: a withdrawal is its own record that names the event and gives the reason.
//! The match is then what the events still standing make of it: [`replay_standing`] applies
//! them in their order from the match's start, so penalty stones, cards, counts left and the
//! result are recomputed by the same state machine and the rules crate, never patched.
//!
//! A withdrawal is refused when a later standing event would no longer apply without the
//! withdrawn one (a replacement of a player whose red card is withdrawn, a confirmation of a
//! withdrawn request, moves after a withdrawn line-up…): [`WithdrawError::LaterEventFails`]
//! names that event and why, and the referee withdraws it first. \[INF\] This is the safer of
//! the two readings the issue offers: nothing is dropped silently, and every event that stays
//! in the log still applies exactly as the state machine accepts new ones. Later events that
//! still apply may mean something else afterwards (a second yellow becomes a first one, the
//! next order error costs one stone less): that is the recomputation asked for, and the
//! audit row keeps the counts before and after.
//!
//! Who may withdraw and the reason are checked with the match's log
//! ([`super::matches::withdraw`]): the chief arbiter, as for corrections of locked results,
//! after the stale-form check ([`super::matches::unchanged_since`]).

use super::relay::{Event, Refusal, RelayMatch};
use super::Timestamp;

/// One row of a match's event log as the state machine needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoggedEvent {
    /// The row's number in the log (from 1).
    pub seq: u32,
    pub at: Timestamp,
    pub event: Event,
    pub withdrawn: bool,
}

/// Why a withdrawal is refused. Nothing changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WithdrawError {
    /// No event with this number in the match's log.
    UnknownEvent {
        seq: u32,
    },
    AlreadyWithdrawn {
        seq: u32,
    },
    /// Without event `seq`, the later event `later` is refused by the state machine.
    LaterEventFails {
        seq: u32,
        later: u32,
        refusal: Refusal,
    },
}

/// The match after the events of `log` that stand, in order; the first that no longer applies
/// (its `seq`) and why.
pub fn replay_standing(start: RelayMatch, log: &[LoggedEvent]) -> Result<RelayMatch, (u32, Refusal)> {
    let mut m = start;
    for e in log.iter().filter(|e| !e.withdrawn) {
        m.apply(e.at, e.event.clone()).map_err(|r| (e.seq, r))?;
    }
    Ok(m)
}

/// The match once event `seq` of `log` is withdrawn: every later standing event must still
/// apply (see the module documentation).
pub fn withdraw(start: RelayMatch, log: &[LoggedEvent], seq: u32) -> Result<RelayMatch, WithdrawError> {
    let target = log.iter().find(|e| e.seq == seq).ok_or(WithdrawError::UnknownEvent { seq })?;
    if target.withdrawn {
        return Err(WithdrawError::AlreadyWithdrawn { seq });
    }
    let without: Vec<LoggedEvent> =
        log.iter().map(|e| LoggedEvent { withdrawn: e.withdrawn || e.seq == seq, ..e.clone() }).collect();
    replay_standing(start, &without).map_err(|(later, refusal)| WithdrawError::LaterEventFails {
        seq,
        later,
        refusal,
    })
}
