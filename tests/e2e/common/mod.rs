//! The e2e harness: start the real server binary on a free port with a temporary SQLite file
//! (or a PostgreSQL database of its own), drive it over HTTP with a small client that keeps
//! cookies and reads CSRF tokens, and check what it wrote and printed.
//!
//! A module per job; the e2e modules take them all with `use common::*`:
//!
//! - [`server`]: the server binary (and the lab's) started, stopped and run as a CLI;
//! - [`client`]: requests with cookies, headers and forms, and the response;
//! - [`page`]: reading a page: its forms, fields, messages and text;
//! - [`forms`]: an office's steps through the forms (tournaments, entrants, imports, accounts,
//!   rounds, results);
//! - [`db`]: the database read (and, where a test stands in for another program, written) on
//!   either engine; [`pg`]: a PostgreSQL database of each server's own, and `psql`;
//! - [`fixtures`]: the entrants and OpenGotha files the tests import;
//! - [`documents`]: PDFs, CSVs and the standings as the documents show them;
//! - [`lots`]: the lots a page shows, replayed;
//! - [`team`]: team-relay events; [`standings`] and [`outsider`]: what a test computes itself;
//!   [`routes`]: the router's routes; [`webdriver`]: the browser tests' chromedriver.

pub mod client;
pub mod db;
pub mod documents;
pub mod fixtures;
pub mod forms;
pub mod lots;
pub mod outsider;
pub mod page;
pub mod pg;
pub mod routes;
pub mod server;
pub mod standings;
pub mod team;
pub mod webdriver;

/// Reading PDFs back (text per page, page sizes): the print module's own test helper, shared.
#[path = "../../../admin/src/print/readback.rs"]
pub mod readback;

pub use client::*;
pub use db::*;
pub use documents::*;
pub use fixtures::*;
pub use forms::*;
pub use lots::*;
pub use page::*;
pub use pg::*;
pub use server::*;
