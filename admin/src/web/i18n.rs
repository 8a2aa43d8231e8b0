//! The web's view of the one catalog: [`crate::i18n`] (one `Lang`, one catalog for web, print
//! and CLI). Re-exported here so handlers keep writing `super::i18n::Lang`.

pub use crate::i18n::*;
