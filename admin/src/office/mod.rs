//! The office's use cases that need more than the store: each combines the store's queries
//! with what the store may not name (other programs' files, the printed sheets' values), so
//! that web handlers and the command line call one function for it.
//!
//! - [`imports`]: an OpenGotha tournament file as the values an import brings into an event.
//! - [`print_data`]: the data of the printed and exported documents, read through the store.
//! - [`prizes`]: the prizes of a tournament with their winners, from the standings.

pub mod imports;
pub mod print_data;
pub mod prizes;
