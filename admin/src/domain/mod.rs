pub mod draw;
pub mod pairing;
