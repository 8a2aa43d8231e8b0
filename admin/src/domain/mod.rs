//! Pure tournament logic: no database, no HTTP.

pub mod clock;
pub mod demo;
pub mod draw;
pub mod duplicates;
pub mod entrant;
pub mod event_time;
pub mod names;
pub mod pairing;
pub mod password;
pub mod results;
pub mod rounds;
pub mod settings;
pub mod standings;
pub mod team;
pub mod text;
