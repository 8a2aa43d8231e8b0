//! The office's use cases: each combines the store's queries, the domain's decisions and the
//! store's transaction (`db::write_tx`, with the audit row inside it) into one action, so that
//! web handlers, the command line and the lab call one function for it. One file per action.
//!
//! - [`pair_round`]: the next round's draft (the engine outside any transaction, the write
//!   checked against the event's change counter); [`schedule_rounds`]: a round robin's rounds.
//! - [`save_result`]: a game's entry, recomputed with its rulings.
//! - [`confirm_count`]: the count from the position: dead stones saved, the players' and the
//!   referee's confirmations, the result written; [`count_position`]: the final position (the
//!   one place it is chosen) and its count; [`relay_count`]: the same for a relay game, the
//!   executing leaders confirming and the referee's confirmation recorded as the match's count.
//! - [`withdraw_relay_event`]: the chief arbiter's take-back of a relay event.
//! - [`relay_board`]: a relay move entered at the board with its point and player; its undo.
//! - [`rating_lists`]: a rating list's rows matched to the entrants, and the ticked changes
//!   applied.
//!
//! And those that combine the store with what it may not name (other programs' files, the
//! printed sheets' values):
//!
//! - [`imports`]: an OpenGotha tournament file as the values an import brings into an event.
//! - [`print_data`]: the data of the printed and exported documents, read through the store.
//! - [`prizes`]: the prizes of a tournament with their winners, from the standings.
//! - [`ratings`]: the EGF ratings after the event, from the games the `.h9` file rates.
//! - [`purge_registrations`]: registrations kept past their event's retention deleted.
//! - [`events`]: a round paired or published for every group of an event; a group's title.
//! - [`registry`]: a person's events across Tengen with their places and scores.

pub mod confirm_count;
pub mod count_position;
pub mod pair_round;
pub mod relay_board;
pub mod relay_count;
pub mod save_result;
pub mod schedule_rounds;
pub mod withdraw_relay_event;

pub mod imports;
pub mod print_data;
pub mod prizes;
pub mod purge_registrations;
pub mod rating_lists;
pub mod ratings;

pub mod events;
pub mod registry;

#[cfg(test)]
pub(crate) mod fixtures;
