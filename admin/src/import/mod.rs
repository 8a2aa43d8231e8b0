//! Reading and writing entrant lists and tournaments made elsewhere. Every function here takes
//! bytes and returns plain values or an error with English and Chinese messages; none touches
//! the database or HTTP, and none panics on bad input.

pub mod csv;

pub mod opengotha;
pub mod opengotha_settings;
pub mod opengotha_write;
