//! Tengen's tournament logic under the Chinese rules: settings, entrants, pairing, draws,
//! results, standings and team relay matches, as values in and values out.
//!
//! **Architecture Invariant:** this crate depends on `rules`, `matching` and small value
//! crates only (serde, chrono, chrono-tz, rand_chacha, pinyin, zxcvbn, thiserror,
//! unicode-general-category). No database, web, templates, catalog or file formats, and no IO:
//! it reads no file, no environment and no clock (chrono without its `clock` feature: the
//! caller passes the zone, today's date and every instant). Its refusals are typed values for
//! the catalog to word (a few carry an English `Display` for logs); the office (`admin`) loads
//! the inputs, stores what this decides and words it.
//! Cargo.toml enforces the dependencies; a decision that needs the database's answer takes
//! that answer as an argument.

pub mod check_in;
pub mod clock;
pub mod demo;
pub mod draw;
pub mod duplicates;
pub mod entrant;
pub mod event_time;
pub mod gor;
pub mod groups;
pub mod hall;
pub mod moves;
pub mod names;
pub mod pairing;
pub mod password;
pub mod player;
pub mod prizes;
pub mod rating_lists;
pub mod registration;
pub mod registry;
pub mod results;
pub mod rounds;
pub mod screens;
pub mod settings;
pub mod standings;
pub mod team;
pub mod text;
pub mod withdrawal;
