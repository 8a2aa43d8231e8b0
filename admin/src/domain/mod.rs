//! Pure tournament logic: no database, no HTTP.

pub mod demo;
pub mod entrant;
pub mod settings;
