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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::opengotha::read::{parse_opengotha_on, tests::sample};

    /// Operations (no rule article): an OpenGotha file's players, games, byes and absences
    /// arrive as the store's import values, games and byes pointing at the players by their
    /// place in the file, results as the stored OpenGotha codes.
    #[test]
    fn an_opengotha_file_becomes_the_values_an_import_writes() {
        let today = chrono::NaiveDate::from_ymd_opt(2026, 6, 1).unwrap();
        let og = parse_opengotha_on(&sample("tengen-written.xml"), today).unwrap();
        let data = from_opengotha(&og);
        let names: Vec<String> = data
            .rows
            .iter()
            .map(|r| format!("{}{}", r.input.family_name_zh, r.input.given_name_zh))
            .collect();
        assert_eq!(names, ["王子涵", "", "李昊然", "王子涵2", "赵磊"]);
        assert!(data.rows.iter().all(|r| r.allow_duplicate), "a file's players are distinct by its keys");
        // (round, board, Black, White, handicap, result)
        type Line<'a> = (i32, i32, Option<usize>, Option<usize>, i32, &'a str);
        let games: Vec<Line> = data
            .games
            .iter()
            .map(|g| (g.round, g.board, g.black, g.white, g.handicap, g.result.as_str()))
            .collect();
        assert_eq!(
            games,
            [
                (1, 1, Some(0), Some(1), 0, "RESULT_BLACKWINS"),
                (1, 2, Some(2), Some(3), 0, "RESULT_BOTHLOSE"),
                (2, 1, Some(3), Some(0), 2, "RESULT_UNKNOWN"),
                (1, 0, Some(4), None, 0, "BYE"),
            ]
        );
        let expected: Vec<(i32, usize)> =
            og.absences().into_iter().map(|(r, i)| (i32::try_from(r).unwrap(), i)).collect();
        assert_eq!(data.absences, expected);
        assert!(data.absences.iter().all(|&(r, i)| r >= 1 && i < data.rows.len()), "{:?}", data.absences);
    }
}
