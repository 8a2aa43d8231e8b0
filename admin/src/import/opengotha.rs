//! STUB until h-import lands.
use crate::domain::entrant::EntrantInput;

pub struct OgPlayer {
    pub entrant: EntrantInput,
    pub key: String,
    pub participating: Vec<bool>,
}

pub struct OgGame {
    pub round: u32,
    pub table: u32,
    pub black_key: String,
    pub white_key: String,
    pub handicap: u32,
    pub result: String,
}

pub struct OgTournament {
    pub name: String,
    pub rounds: u32,
    pub players: Vec<OgPlayer>,
    pub games: Vec<OgGame>,
}

pub fn parse(_bytes: &[u8]) -> Result<OgTournament, String> {
    Err("OpenGotha import is not merged yet".into())
}
