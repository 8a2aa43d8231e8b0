//! The end-to-end suite of Tengen: one test binary (`cargo test --test e2e`), a module per
//! subject. Each test starts the real server binary on a free port against a database of its
//! own (a temporary SQLite file, or a PostgreSQL database with `TENGEN_E2E_PG`) and drives it
//! over HTTP through its forms; the helpers are in [`common`].
//!
//! The tests run in parallel threads of this one process: a test keeps its state in its own
//! server, directory and database, and never sets an environment variable or the current
//! directory (it passes them to the programs it starts instead).
//!
//! Run one module with a filter: `cargo test --test e2e team::`; the PostgreSQL and browser
//! tests are ignored with their reason unless switched on (the root `build.rs`).

mod common;

mod accounts;
mod audit;
mod auth;
mod board;
mod browser;
mod browser_board;
mod browser_clock;
mod browser_count;
mod browser_live;
mod browser_phone;
mod browser_relay_board;
mod cards;
mod check_in;
mod colours_results;
mod count;
mod crawl;
mod draws;
mod entrants;
mod event_open;
mod events;
mod forbidden;
mod gor;
mod hall;
mod imports;
mod imports_groups;
mod input;
mod language;
mod layers;
mod live;
mod mcmahon;
mod multipart;
mod names;
mod office;
mod opengotha_time;
mod ops;
mod pair_concurrency;
mod phone;
mod postgres;
mod print;
mod prizes;
mod public_cache;
mod rating_lists;
mod references;
mod registration;
mod registry;
mod rehearsal;
mod relay_board;
mod relay_count;
mod results;
mod room;
mod rounds;
mod rulings;
mod screens;
mod security;
mod settings_pairing;
mod sgf;
mod skips;
mod standings;
mod standings_marks;
mod stress;
mod team;
mod time_zone;
mod tournaments;
mod two_servers;
mod withdrawal;
