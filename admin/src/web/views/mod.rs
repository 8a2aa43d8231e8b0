//! View models: the structs handed to the askama templates and the functions that build them
//! from rows the handler loaded and the domain's values. One module per template, named after
//! it (`relay_match.rs` builds `templates/relay_match.html`'s page). Pure: no database, no
//! request; a handler reads the request, loads, calls `build`, and renders what it returns.
//! Every askama page type lives here: the small ones, with the page frame (`Chrome`), forms as
//! typed (`FormView`) and the pager, in `pages`; the words they are made of in `text` (a leaf:
//! it imports no handler).

pub mod audit;
pub mod board;
pub mod board_match;
pub mod check_in;
pub mod count;
pub mod events;
pub mod forbidden;
pub mod pages;
pub mod prizes;
pub mod public;
pub mod rating_lists;
pub mod registration;
pub mod registry;
pub mod relay_board;
pub mod relay_match;
pub mod results;
pub mod room;
pub mod round;
pub mod screens;
pub mod team_rounds;
pub mod teams;
pub mod text;
pub mod tournament;
