pub mod results;
pub mod round;
