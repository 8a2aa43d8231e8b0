//! Tengen's administration crate as a library, so the `tengen` binary, the end-to-end tests and
//! the crate's own unit tests share one code path.
//!
//! - [`domain`]: pure tournament logic about entrants (value types, validation, demo data).
//! - [`import`]: entrant CSV import/export and OpenGotha XML import. Pure: bytes in, values out;
//!   no database, no HTTP.

pub mod domain;
pub mod import;
pub mod print;
