pub mod demo;
pub mod entrant;
