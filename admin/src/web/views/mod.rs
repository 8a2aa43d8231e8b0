pub mod round;
