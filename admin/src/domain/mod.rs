//! Pure tournament logic: no database, no HTTP.

pub mod entrant;
pub mod settings;
