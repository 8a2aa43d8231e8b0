//! An OpenGotha tournament file brought into an event: the file's values (read by
//! [`crate::formats::opengotha::read`]) as the store's import values, which
//! [`crate::db::entrants`] writes. The store knows no file format, so the conversion is here,
//! shared by the import page and the lab's benchmarks.
//!
//! And the groups (组别) of an event an import reaches: [`place_rows`] sends each row of an
//! entrants list to the group its 组别 cell names (or its band proposes, `domain::groups`),
//! and [`og_groups`] makes one group per category of an OpenGotha file.

use crate::db::entrants::{ImportData, ImportGame, ImportRow};
use crate::db::events::{Group, GroupFields};
use crate::db::group_imports::NewGroup;
use crate::domain::entrant::Rank;
use crate::domain::groups::{self, Band, Candidate};
use crate::domain::settings::TournamentSettings;
use crate::formats::opengotha::read::{OgCategory, OgTournament};
use crate::i18n::{tr, Lang};

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

/// Why a row of an entrants list has no group of the event to go to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlaceProblem {
    /// The 组别 cell names no group of the event (of several groups).
    UnknownGroup { name: String },
    /// An event of one group: the cell names something else.
    NotThisGroup { name: String },
    /// Placed by band, and no group's band takes the row (and no group is the catch-all).
    NoBand,
}

/// A group as a row's 组别 cell may name it, and its band.
#[derive(Debug, Clone)]
pub struct Placeable {
    pub id: i32,
    /// Its Chinese and Latin names; a group without a name (the one group of its event) is
    /// named by the event's names.
    pub names: Vec<String>,
    pub band: Band,
}

impl Placeable {
    pub fn of(g: &Group) -> Placeable {
        let f = &g.fields;
        let mut names = vec![f.group_name_zh.clone(), f.group_name_latin.clone()];
        if names.iter().all(|n| n.trim().is_empty()) {
            names = vec![g.t.name_zh.clone(), g.t.name_latin.clone()];
        }
        names.retain(|n| !n.trim().is_empty());
        Placeable { id: g.id(), names, band: f.band.clone() }
    }

    /// Whether `cell` names it, spaces and letter case aside.
    fn is_named(&self, cell: &str) -> bool {
        let norm = |s: &str| {
            s.chars().filter(|c| !c.is_whitespace()).flat_map(char::to_lowercase).collect::<String>()
        };
        self.names.iter().any(|n| norm(n) == norm(cell))
    }
}

/// The group each row of an entrants list goes to, imported on group `into`'s page of an
/// event whose groups are `groups` (hall order): the group its 组别 cell (`rows[i].0`) names;
/// a row whose cell is empty goes to `into`, or, `by_band`, to the group the bands propose
/// (`domain::groups::propose`: the first banded group that admits it, else the catch-all).
/// In an event of one group the cell may be empty or name the group, nothing else.
pub fn place_rows(
    groups: &[Placeable],
    into: i32,
    by_band: bool,
    rows: &[(&str, Candidate)],
) -> Vec<Result<i32, PlaceProblem>> {
    let bands: Vec<(i32, Band)> = groups.iter().map(|g| (g.id, g.band.clone())).collect();
    let single = groups.len() <= 1;
    rows.iter()
        .map(|(cell, cand)| {
            let cell = cell.trim();
            if !cell.is_empty() {
                return match groups.iter().find(|g| g.is_named(cell)) {
                    Some(g) => Ok(g.id),
                    None if single => Err(PlaceProblem::NotThisGroup { name: cell.to_string() }),
                    None => Err(PlaceProblem::UnknownGroup { name: cell.to_string() }),
                };
            }
            if single || !by_band {
                return Ok(into);
            }
            groups::propose(&bands, std::slice::from_ref(cand))[0].1.ok_or(PlaceProblem::NoBand)
        })
        .collect()
}

/// Why an OpenGotha file's categories cannot become groups.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SplitError {
    /// A game between players of two categories (round, table): no one group holds it.
    AcrossCategories { round: i32, board: i32 },
}

/// The band of a category: its ranks as rank values.
fn category_band(c: &OgCategory) -> Band {
    Band { rank_low: c.lowest.map(Rank::value), rank_high: c.highest.map(Rank::value), ..Band::default() }
}

/// The category (index into `cats`) of each player of the file, as OpenGotha places them:
/// the first whose lower limit the player's rank reaches, else the last.
pub fn og_categories(og: &OgTournament, cats: &[OgCategory]) -> Vec<usize> {
    og.players
        .iter()
        .map(|p| cats.iter().position(|c| c.admits(p.entrant.rank)).unwrap_or(cats.len().saturating_sub(1)))
        .collect()
}

/// An OpenGotha file of several categories as the groups of a new event: one group per
/// category, the strongest first in the hall, named "组 1"/"Group 1"…, its band the
/// category's ranks, each with `settings` and its players with their games, byes and
/// absences. Empty when the file has one category.
pub fn og_groups(og: &OgTournament, settings: &TournamentSettings) -> Result<Vec<NewGroup>, SplitError> {
    let cats = og.params.category_list();
    if cats.is_empty() {
        return Ok(Vec::new());
    }
    let all = from_opengotha(og);
    let of = og_categories(og, &cats);
    // Each player's place in their group's list.
    let mut local = vec![0usize; of.len()];
    let mut out: Vec<NewGroup> = cats
        .iter()
        .enumerate()
        .map(|(c, cat)| NewGroup {
            settings: settings.clone(),
            fields: GroupFields {
                group_name_zh: tr!(Lang::Zh, "imp.og_group_name", number = c + 1),
                group_name_latin: tr!(Lang::En, "imp.og_group_name", number = c + 1),
                group_order: i32::try_from(c + 1).unwrap_or(i32::MAX),
                first_table: None,
                band: category_band(cat),
            },
            data: ImportData::default(),
        })
        .collect();
    for (i, row) in all.rows.into_iter().enumerate() {
        local[i] = out[of[i]].data.rows.len();
        out[of[i]].data.rows.push(row);
    }
    for g in all.games {
        let group = g.black.map(|b| of[b]);
        if g.white.is_some_and(|w| Some(of[w]) != group) {
            return Err(SplitError::AcrossCategories { round: g.round, board: g.board });
        }
        if let Some(c) = group {
            let game = ImportGame { black: g.black.map(|b| local[b]), white: g.white.map(|w| local[w]), ..g };
            out[c].data.games.push(game);
        }
    }
    for (round, i) in all.absences {
        out[of[i]].data.absences.push((round, local[i]));
    }
    Ok(out)
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

    fn group(id: i32, zh: &str, latin: &str, band: Band) -> Placeable {
        let names = [zh, latin].into_iter().filter(|n| !n.is_empty()).map(str::to_string).collect();
        Placeable { id, names, band }
    }

    fn cand(rank_value: i32, born: Option<&str>) -> Candidate {
        Candidate { id: 0, rank_value, birth_date: born.map(|b| b.parse().unwrap()) }
    }

    /// Operations (no rule article: seed 000 has no groups; they are the event's own): a row goes to the group its 组别 cell names by its Chinese or Latin name; an empty cell
    /// stays in the group imported into, or by band goes where `domain::groups::propose` says;
    /// a name no group has is a problem naming it.
    #[test]
    fn rows_go_to_the_group_they_name_or_their_band_proposes() {
        let high = Band { rank_low: Some(4), ..Band::default() };
        let kids = Band { born_on_or_after: "2014-06-01".parse().ok(), ..Band::default() };
        let groups = [
            group(10, "业余高段组", "High dan", high.clone()),
            group(11, "公开组", "Open", Band::default()),
            group(12, "少儿组", "Juniors", kids),
        ];
        let rows = [
            ("少儿组", cand(0, None)),
            (" high DAN ", cand(-5, None)),
            ("", cand(5, Some("1990-01-01"))),
            ("", cand(-3, Some("2016-02-02"))),
            ("老年组", cand(0, None)),
        ];
        assert_eq!(
            place_rows(&groups, 11, false, &rows),
            [Ok(12), Ok(10), Ok(11), Ok(11), Err(PlaceProblem::UnknownGroup { name: "老年组".into() })]
        );
        assert_eq!(place_rows(&groups, 11, true, &rows)[2..4], [Ok(10), Ok(12)]);
        // Without a catch-all group, a row no band takes has no place.
        let banded = [group(10, "业余高段组", "", high), group(12, "少儿组", "", groups[2].band.clone())];
        assert_eq!(
            place_rows(&banded, 10, true, &[("", cand(0, Some("1990-01-01")))]),
            [Err(PlaceProblem::NoBand)]
        );
    }

    /// An event of one group: the column may be absent, empty or name the group (or, the
    /// group being unnamed, the event); anything else is refused with the name.
    #[test]
    fn in_an_event_of_one_group_the_column_names_it_or_nothing() {
        // Unnamed, the group is named by its event's names (`Placeable::of`).
        let only = group(7, "天元杯", "", Band::default());
        let rows = [("", cand(0, None)), ("天元杯", cand(0, None)), ("少儿组", cand(0, None))];
        assert_eq!(
            place_rows(std::slice::from_ref(&only), 7, true, &rows),
            [Ok(7), Ok(7), Err(PlaceProblem::NotThisGroup { name: "少儿组".into() })]
        );
    }

    /// OpenGotha's categories become groups: one per category, the strongest first in the
    /// hall, band = the category's ranks, each player with their games, byes and absences
    /// renumbered inside their group.
    #[test]
    fn an_opengotha_file_of_three_categories_becomes_three_groups() {
        let today = chrono::NaiveDate::from_ymd_opt(2026, 6, 1).unwrap();
        let og = parse_opengotha_on(&sample("categories.xml"), today).unwrap();
        let s = TournamentSettings::defaults(today, crate::domain::event_time::EventZone::SHANGHAI);
        let groups = og_groups(&og, &s).unwrap();
        let names: Vec<(&str, &str, i32)> = groups
            .iter()
            .map(|g| {
                (g.fields.group_name_zh.as_str(), g.fields.group_name_latin.as_str(), g.fields.group_order)
            })
            .collect();
        assert_eq!(names, [("组 1", "Group 1", 1), ("组 2", "Group 2", 2), ("组 3", "Group 3", 3)]);
        assert_eq!(groups[0].fields.band, Band { rank_low: Some(4), ..Band::default() });
        assert_eq!(groups[1].fields.band, Band { rank_low: Some(-1), rank_high: Some(3), ..Band::default() });
        assert_eq!(groups[2].fields.band, Band { rank_high: Some(-2), ..Band::default() });
        let sizes: Vec<usize> = groups.iter().map(|g| g.data.rows.len()).collect();
        assert_eq!(sizes, [2, 2, 2]);
        let games = |g: &NewGroup| -> Vec<(i32, Option<usize>, Option<usize>, String)> {
            g.data.games.iter().map(|x| (x.round, x.black, x.white, x.result.clone())).collect()
        };
        assert_eq!(games(&groups[0]), [(1, Some(1), Some(0), "RESULT_WHITEWINS".to_string())]);
        assert_eq!(games(&groups[1]), [(1, Some(1), Some(0), "RESULT_BLACKWINS".to_string())]);
        assert_eq!(games(&groups[2]), [(1, Some(0), None, "BYE".to_string())]);
        assert_eq!(groups[2].data.absences, [(1, 1)]);
        // A game across two categories cannot be split.
        let mut across = og.clone();
        across.games[1].white_key = across.games[0].black_key.clone();
        across.games.remove(0);
        assert_eq!(og_groups(&across, &s).err(), Some(SplitError::AcrossCategories { round: 1, board: 2 }));
    }
}
