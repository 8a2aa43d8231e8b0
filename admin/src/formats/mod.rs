//! The files Tengen reads and writes for other programs: entrant lists as CSV, OpenGotha
//! tournaments (XML), the CSV exports of pairings, results and standings, and the EGF rating
//! list's `.h9`. Every function here takes bytes or plain values and returns plain values, bytes
//! or a typed error (worded by `i18n`); none touches the database or HTTP, and none panics on
//! bad input.

pub mod csv_export;
pub mod egf;
pub mod entrants_csv;
pub mod opengotha;
pub mod rating_lists;
mod spreadsheet;
pub mod words;
