//! An OpenGotha tournament file brought into an event: the file's values (read by
//! [`crate::formats::opengotha::read`]) as the store's import values, which
//! [`crate::db::entrants`] writes. The store knows no file format, so the conversion is here,
//! shared by the import page and the lab's benchmarks.

use crate::db::entrants::{ImportData, ImportGame, ImportRow};
use crate::formats::opengotha::read::OgTournament;

/// The players, games, byes (a game without White) and absences of an OpenGotha file, as
/// the import page and `tengen-lab bench pair --from` bring them in.
pub fn from_opengotha(og: &OgTournament) -> ImportData {
    let index = og.index();
    let at = |k: &str| index.get(k).copied();
    let mut games: Vec<ImportGame> = og
        .games
        .iter()
        .map(|g| ImportGame {
            round: i32::try_from(g.round).unwrap_or(0),
            board: i32::try_from(g.table).unwrap_or(0),
            black: at(&g.black_key),
            white: at(&g.white_key),
            handicap: i32::from(g.handicap),
            result: g.result.code(),
        })
        .collect();
    games.extend(og.byes.iter().map(|b| ImportGame {
        round: i32::try_from(b.round).unwrap_or(0),
        board: 0,
        black: at(&b.player_key),
        white: None,
        handicap: 0,
        result: "BYE".into(),
    }));
    ImportData {
        rows: og.players.iter().map(|p| ImportRow::trusted(p.entrant.clone())).collect(),
        games,
        absences: og.absences().into_iter().map(|(r, i)| (i32::try_from(r).unwrap_or(0), i)).collect(),
    }
}
