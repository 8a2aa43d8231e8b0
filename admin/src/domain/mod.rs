//! Pure tournament logic: no database, no HTTP.

pub mod settings;
