//! # admin — Tengen's tournament office (binary `tengen`)
//!
//! - [`domain`]: pure tournament logic (settings, entrants' input types).
//! - [`db`]: SQLite through diesel, one module per aggregate; backups through rusqlite.
//! - [`web`]: actix handlers, sessions, CSRF, i18n, templates.
//! - [`cli`]: the `tengen` subcommands.

pub mod cli;
pub mod db;
pub mod domain;
