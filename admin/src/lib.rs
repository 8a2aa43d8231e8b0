//! # admin — Tengen's tournament office (binary `tengen`)
//!
//! The library behind the `tengen` binary, shared by the binary, the end-to-end tests and the
//! crate's own unit tests.
//!
//! - [`domain`]: pure tournament logic (settings, entrants' value types, validation, demo data).
//! - [`formats`]: the files of other programs: entrant CSV, OpenGotha XML, CSV exports, EGF
//!   `.h9`. Pure: bytes in, values out, and back.
//! - [`db`]: SQLite through diesel, one module per aggregate; backups through rusqlite.
//! - [`print`]: PDF sheets from plain data. Pure.
//! - [`documents`]: the downloadable documents as web and CLI make them (options, data from
//!   [`db::print_data`], bytes from [`print`], file names).
//! - [`i18n`]: the one `Lang` and the one catalog of user-facing text (en and zh-CN), which web,
//!   print and CLI all render from; `rules` and `domain` return typed values, never sentences.
//! - [`web`]: actix handlers, sessions, CSRF, templates.
//! - [`cli`]: the `tengen` subcommands.
//! - [`log`]: logging and console lines that never take the program down.

pub mod cli;
pub mod db;
pub mod documents;
pub mod domain;
pub mod formats;
pub mod i18n;
pub mod log;
pub mod print;
pub mod web;

/// The entrant CSV's former path, for `domain::demo`'s tests alone while that module moves to
/// the domain crate: they check the demo entrants survive the CSV round trip.
#[cfg(test)]
pub(crate) mod import {
    pub(crate) use crate::formats::entrants_csv as csv;
}
