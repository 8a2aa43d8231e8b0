pub mod entrant;
