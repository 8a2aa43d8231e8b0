//! # admin — Tengen's tournament office (binary `tengen`)
//!
//! The library behind the `tengen` binary, shared by the binary, the end-to-end tests and the
//! crate's own unit tests.
//!
//! - [`domain`]: the crate `domain` (admin/domain), pure tournament logic (settings, entrants,
//!   pairing, draws, results, standings, teams), re-exported under its old module path.
//! - [`formats`]: the files of other programs: entrant CSV, OpenGotha XML, CSV exports, EGF
//!   `.h9`. Pure: bytes in, values out, and back.
//! - [`db`]: the crate `store` (admin/store): SQLite or PostgreSQL through diesel, one module
//!   per aggregate, backups; re-exported under its old module path.
//! - [`office`]: the use cases that need more than the store: an OpenGotha file brought into
//!   an event, the documents' data read from the store.
//! - [`print`]: PDF sheets from plain data. Pure.
//! - [`sheets`]: the plain data a document is made from (rows, results, the refusals of a
//!   document and of the EGF file, with their words), shared by [`print`] and [`formats`].
//! - [`documents`]: the downloadable documents as web and CLI make them (options, data from
//!   [`office::print_data`], bytes from [`print`], file names).
//! - [`i18n`]: the one `Lang` and the one catalog of user-facing text (en and zh-CN), which web,
//!   print and CLI all render from; `rules` and `domain` return typed values, never sentences.
//! - [`web`]: actix handlers, sessions, CSRF, templates.
//! - [`cli`]: the `tengen` subcommands.
//! - [`log`]: logging and console lines that never take the program down.
//! - [`machine`]: the server's time zone and today's date, read here and handed to `domain`.

pub mod cli;
/// The crate `store` (admin/store), under the path it had as this crate's module: kept so that
/// every `crate::db::…` and `admin::db::…` caller did not change in the commit that made it a
/// crate of its own.
pub use store as db;
pub mod documents;
/// The crate `domain` (admin/domain), under the path it had as this crate's module: kept so that
/// every `crate::domain::…` and `admin::domain::…` caller did not change in the commit that
/// made it a crate of its own.
pub use domain;
pub mod formats;
pub mod i18n;
pub mod log;
pub mod machine;
pub mod office;
pub mod print;
pub mod sheets;
pub mod web;

#[cfg(test)]
mod tests {
    /// No clock format outside `domain::event_time`: every time shown or typed goes through it.
    #[test]
    fn no_clock_formats_elsewhere() {
        let admin = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut offenders = Vec::new();
        let mut dirs = vec![admin.join("src"), admin.join("domain/src"), admin.join("store/src")];
        while let Some(d) = dirs.pop() {
            for e in std::fs::read_dir(&d).unwrap().flatten() {
                let p = e.path();
                if p.is_dir() {
                    dirs.push(p);
                } else if p.extension().is_some_and(|x| x == "rs") && !p.ends_with("domain/src/event_time.rs")
                {
                    let text = std::fs::read_to_string(&p).unwrap();
                    if text.contains(concat!("%H", ":%M")) || text.contains(concat!("%M", ":%S")) {
                        offenders.push(p.display().to_string());
                    }
                }
            }
        }
        assert!(offenders.is_empty(), "clock formats outside domain::event_time: {offenders:?}");
    }
}
