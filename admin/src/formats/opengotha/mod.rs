//! OpenGotha's tournament files (`.xml`): [`read`] them (players, games, byes, parameters),
//! turn their parameters into the event's [`settings`], and [`write`] a tournament so that
//! OpenGotha can continue it.

pub mod read;
pub mod settings;
pub mod write;
