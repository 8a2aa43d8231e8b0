//! Tengen's administration crate as a library, so the `tengen` binary, the end-to-end tests and
//! the crate's own unit tests share one code path.
//!
//! - [`domain`]: pure tournament logic about entrants (value types, validation, demo data).

pub mod domain;
