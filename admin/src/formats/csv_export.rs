//! File exports for spreadsheets: pairings, results and standings as CSV.
//!
//! CSV files are UTF-8 with a BOM (so Excel shows Chinese), CRLF line ends, a header row in
//! Chinese or English, and text cells that a spreadsheet would run as a formula (starting with
//! `=`, `+`, `-`, `@`) prefixed with `'` — result texts such as "+R" or "-" included.

use super::spreadsheet::{guard, UTF8_BOM as BOM};
use crate::i18n::{tr, Lang};
use crate::sheets::{PairingRow, PrintError, SheetPlayer, StandingRow};

fn write_csv(header: &[String], rows: impl Iterator<Item = Vec<String>>) -> Vec<u8> {
    let mut out = BOM.to_vec();
    {
        let mut w = csv::WriterBuilder::new().terminator(csv::Terminator::CRLF).from_writer(&mut out);
        // Writing into a Vec<u8> cannot fail: csv only reports I/O errors.
        w.write_record(header).expect("writing CSV to memory");
        for r in rows {
            let guarded: Vec<String> = r.iter().map(|c| guard(c)).collect();
            w.write_record(&guarded).expect("writing CSV to memory");
        }
        w.flush().expect("writing CSV to memory");
    }
    out
}

fn player_headers(lang: Lang, who: rules::Color) -> Vec<String> {
    let who = lang.side(who);
    ["doc.player_chinese", "doc.player_latin", "doc.player_rank", "doc.player_unit"]
        .map(|k| tr!(lang, k, side = who))
        .into()
}

fn player_cells(p: &SheetPlayer, lang: Lang) -> Vec<String> {
    vec![p.name_zh.clone(), p.name_latin.clone(), p.rank(lang).to_string(), p.unit.clone()]
}

/// The pairings of a round: table, both players, handicap, nigiri and who holds, result. In an
/// event of several groups (one hall), the group's table is followed by its hall number (a
/// last column, "hall table"); a single group's file is as it always was.
pub fn pairings_csv(rows: &[PairingRow], lang: Lang) -> Vec<u8> {
    let l = |k: &str| lang.t(k).to_string();
    let hall = rows.iter().any(|r| r.group_table.is_some());
    let mut header = vec![l("round.table")];
    header.extend(player_headers(lang, rules::Color::Black));
    header.extend(player_headers(lang, rules::Color::White));
    header.extend([l("r.handicap"), l("doc.nigiri"), l("doc.holds"), l("r.result")]);
    if hall {
        header.push(l("doc.hall_table"));
    }
    let rows = rows.iter().map(|r| {
        let mut v = vec![r.group_table.unwrap_or(r.table).to_string()];
        v.extend(player_cells(&r.black, lang));
        v.extend(player_cells(&r.white, lang));
        v.push(r.handicap.to_string());
        v.push(if r.nigiri { l("doc.yes") } else { String::new() });
        // Who holds the stones at a nigiri board: the second player (the event's rule decided).
        v.push(if r.nigiri { r.white.display_name(lang) } else { String::new() });
        // A replay (重赛) is labelled in its result cell (the same table again), and the game
        // it replays is marked as replayed.
        let note = match (r.replay_of, r.replayed) {
            (Some(of), _) => Some(lang.replay_label(of)),
            (None, true) => Some(lang.t("r.replayed_note").to_string()),
            (None, false) => None,
        };
        v.push(with_notes(&r.result, note.into_iter().collect()));
        if hall {
            v.push(if r.table > 0 { r.table.to_string() } else { String::new() });
        }
        v
    });
    write_csv(&header, rows)
}

/// One game's result for the results export.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ResultRow {
    pub round: u32,
    pub table: u32,
    /// In an event of several groups, the table's hall number (a last column, "hall table").
    pub hall_table: Option<u32>,
    pub black: SheetPlayer,
    pub white: SheetPlayer,
    pub handicap: u8,
    /// Black's game points in **half points** of the event's scale (2/1/0: a win is 4, a bye
    /// worth a win 4; 1/½/0: a draw is 1); `None`: no result yet.
    pub black_points: Option<i64>,
    /// White's game points, as Black's; `None` for a bye's row (no White) or no result yet.
    pub white_points: Option<i64>,
    /// The result as the arbiters wrote it: "B+3¼", "W+R", "黑中盘胜".
    pub result_text: String,
    /// A replay (重赛): the game it replays at this table.
    pub replay_of: Option<i32>,
    /// Played with the colours swapped (黑白颠倒): `black` and `white` are the players as they
    /// sat, the assigned colours the other way round.
    pub swapped: bool,
}

/// A result cell with its notes (a replay, swapped colours): "B+¾ [重赛（原对局 #17）]".
fn with_notes(result: &str, notes: Vec<String>) -> String {
    match (result.is_empty(), notes.is_empty()) {
        (_, true) => result.to_string(),
        (true, false) => format!("[{}]", notes.join("; ")),
        (false, false) => format!("{result} [{}]", notes.join("; ")),
    }
}

/// Game points as a spreadsheet number, exact, as the standings CSV writes scores: half points
/// 4 → "2", 1 → "0.5"; empty when unknown.
fn points(halves: Option<i64>) -> String {
    halves.map(crate::domain::standings::halves_text).unwrap_or_default()
}

/// Game results: round, table, both players, handicap, the result, and each side's points.
pub fn results_csv(rows: &[ResultRow], lang: Lang) -> Vec<u8> {
    let l = |k: &str| lang.t(k).to_string();
    let hall = rows.iter().any(|r| r.hall_table.is_some());
    let mut header = vec![l("r.round"), l("round.table")];
    header.extend(player_headers(lang, rules::Color::Black));
    header.extend(player_headers(lang, rules::Color::White));
    header.extend([l("r.handicap"), l("r.result"), l("doc.black_points"), l("doc.white_points")]);
    if hall {
        header.push(l("doc.hall_table"));
    }
    let rows = rows.iter().map(|r| {
        let mut v = vec![r.round.to_string(), r.table.to_string()];
        v.extend(player_cells(&r.black, lang));
        v.extend(player_cells(&r.white, lang));
        v.push(r.handicap.to_string());
        let mut notes: Vec<String> = r.replay_of.map(|of| lang.replay_label(of)).into_iter().collect();
        if r.swapped {
            notes.push(l("doc.colours_swapped_as_played"));
        }
        v.push(with_notes(&r.result_text, notes));
        v.push(points(r.black_points));
        v.push(points(r.white_points));
        if hall {
            v.push(r.hall_table.filter(|&t| t > 0).map(|t| t.to_string()).unwrap_or_default());
        }
        v
    });
    write_csv(&header, rows)
}

/// The standings with their tie-break columns. Errors when the rows' tie-break labels differ.
pub fn standings_csv(rows: &[StandingRow], lang: Lang) -> Result<Vec<u8>, PrintError> {
    let labels = crate::sheets::tiebreak_labels(rows.iter().map(|r| (r.place, &r.tiebreaks[..])))?;
    let l = |k: &str| lang.t(k).to_string();
    let mut header = vec![l("pub.place"), l("e.section_name"), l("e.rank"), l("team.unit"), l("doc.score")];
    header.extend(labels);
    // The EGF ratings before and after the event, once computed (empty for a player without
    // a game rated).
    let rated = rows.iter().any(|r| r.gor.is_some());
    if rated {
        header.extend([l("gor.before"), l("gor.after")]);
    }
    let rows = rows.iter().map(move |r| {
        let mut v =
            vec![r.place.to_string(), r.name.clone(), r.rank.clone(), r.unit.clone(), r.score.clone()];
        v.extend(r.tiebreaks.iter().map(|(_, x)| x.clone()));
        if rated {
            let (b, a) =
                r.gor.map_or((String::new(), String::new()), |(b, a)| (b.to_string(), a.to_string()));
            v.extend([b, a]);
        }
        v
    });
    Ok(write_csv(&header, rows))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::print::testutil::player;

    fn text(bytes: &[u8]) -> &str {
        assert!(bytes.starts_with(BOM), "UTF-8 BOM first");
        std::str::from_utf8(&bytes[3..]).unwrap()
    }

    fn read_back(bytes: &[u8]) -> Vec<Vec<String>> {
        let mut r = csv::ReaderBuilder::new().has_headers(false).from_reader(&bytes[3..]);
        r.records().map(|rec| rec.unwrap().iter().map(String::from).collect()).collect()
    }

    #[test]
    fn pairings_csv_has_bom_header_and_chinese_names() {
        let rows = vec![PairingRow {
            table: 7,
            black: player(0),
            white: player(1),
            handicap: 0,
            nigiri: true,
            result: "+R".into(),
            replay_of: None,
            replayed: false,
            ..PairingRow::default()
        }];
        let out = pairings_csv(&rows, Lang::Zh);
        let t = text(&out);
        assert!(t.starts_with("台号,黑方,黑方（拼音/外文）,黑方段位,黑方单位,白方,"), "{t}");
        assert!(t.contains("\r\n"));
        let recs = read_back(&out);
        assert_eq!(recs.len(), 2);
        assert_eq!(recs[1][0], "7");
        assert_eq!(recs[1][1], "王伟");
        assert_eq!(recs[1][2], "Wang Wei");
        assert_eq!(recs[1][5], "李伟");
        assert_eq!(recs[1][10], "是");
        assert_eq!(recs[0][11], "握子");
        assert_eq!(recs[1][11], "李伟 Li Wei", "the holder named");
        assert_eq!(recs[1][12], "'+R", "formula-like cells are guarded");
        let even = PairingRow { nigiri: false, ..rows[0].clone() };
        let recs = read_back(&pairings_csv(&[even], Lang::En));
        assert_eq!((recs[0][11].as_str(), recs[1][10].as_str(), recs[1][11].as_str()), ("Holds", "", ""));
        let en = pairings_csv(&rows, Lang::En);
        assert!(text(&en).starts_with("Table,Black (Chinese),Black,Black rank,Black unit,"));
    }

    /// Seed 000 Arts. 17.5, 17.6 (a replay ruled by the chief arbiter): a replay's row is
    /// labelled as the replay of its game, and the game it replays is marked as replayed; no
    /// other row says either.
    #[test]
    fn pairings_csv_labels_a_replay_and_marks_the_game_replayed() {
        let base = PairingRow { table: 3, black: player(0), white: player(1), ..PairingRow::default() };
        let rows = [
            PairingRow { replayed: true, ..base.clone() },
            PairingRow { replay_of: Some(17), result: "B+R".into(), ..base.clone() },
            PairingRow { table: 4, black: player(2), white: player(3), ..PairingRow::default() },
        ];
        let recs = read_back(&pairings_csv(&rows, Lang::Zh));
        let results: Vec<&str> = recs[1..].iter().map(|r| r[12].as_str()).collect();
        assert_eq!(results, ["[已重赛]", "B+R [重赛（原对局 #17）]", ""]);
        let recs = read_back(&pairings_csv(&rows, Lang::En));
        assert_eq!(recs[1][12], "[replayed]");
        assert_eq!(recs[2][12], "B+R [replay of game #17]");
    }

    /// Tournament practice (one hall, one numbering): a group of a several-group event keeps
    /// its own table number in the table column and gives the hall number in a last column; a
    /// single group's file has no such column.
    #[test]
    fn pairings_csv_gives_the_hall_number_beside_the_groups_table() {
        let single = PairingRow { table: 2, black: player(0), white: player(1), ..PairingRow::default() };
        let recs = read_back(&pairings_csv(std::slice::from_ref(&single), Lang::Zh));
        assert_eq!(recs[0].len(), 13, "no hall column for a single group");
        let grouped = PairingRow { table: 14, group_table: Some(2), ..single.clone() };
        let bye = PairingRow { table: 0, black: player(2), ..PairingRow::default() };
        let recs = read_back(&pairings_csv(&[grouped, bye], Lang::Zh));
        assert_eq!(recs[0].len(), 14);
        assert_eq!(recs[0][0], "台号");
        assert_eq!(recs[0][13], "赛场台号");
        assert_eq!((recs[1][0].as_str(), recs[1][13].as_str()), ("2", "14"));
        assert_eq!((recs[2][0].as_str(), recs[2][13].as_str()), ("0", ""), "a bye has no table");
        let en = read_back(&pairings_csv(&[PairingRow { group_table: Some(2), ..single }], Lang::En));
        assert_eq!(en[0][13], "hall table");
    }

    /// Tournament practice (one hall, one numbering): a group's results file of a
    /// several-group event gives each game's hall number in a last column (a bye none); a
    /// single group's file has no such column.
    #[test]
    fn results_csv_gives_the_hall_number_in_a_hall_of_groups() {
        let game =
            ResultRow { round: 1, table: 2, black: player(0), white: player(1), ..ResultRow::default() };
        assert_eq!(read_back(&results_csv(std::slice::from_ref(&game), Lang::Zh))[0].len(), 14);
        let rows = [
            ResultRow { hall_table: Some(12), ..game },
            ResultRow { table: 0, black: player(2), hall_table: Some(0), ..ResultRow::default() },
        ];
        let recs = read_back(&results_csv(&rows, Lang::Zh));
        assert_eq!(recs[0].last().unwrap(), "赛场台号");
        assert_eq!((recs[1][1].as_str(), recs[1].last().unwrap().as_str()), ("2", "12"));
        assert_eq!(recs[2].last().unwrap(), "");
    }

    #[test]
    fn results_csv_gives_points_to_both_sides() {
        let rows = vec![
            ResultRow {
                round: 2,
                table: 1,
                black: player(0),
                white: player(1),
                handicap: 0,
                black_points: Some(4),
                white_points: Some(0),
                result_text: "B+3¼".into(),
                ..ResultRow::default()
            },
            ResultRow {
                round: 2,
                table: 2,
                black: player(2),
                white: player(3),
                handicap: 3,
                black_points: None,
                white_points: None,
                result_text: String::new(),
                ..ResultRow::default()
            },
            ResultRow {
                round: 2,
                table: 3,
                black: player(4),
                white: player(5),
                handicap: 0,
                black_points: Some(0),
                white_points: Some(0),
                result_text: "Both lose".into(),
                ..ResultRow::default()
            },
            ResultRow {
                round: 2,
                table: 4,
                black: player(6),
                white: player(7),
                handicap: 0,
                black_points: Some(1),
                white_points: Some(1),
                result_text: "Jigo".into(),
                ..ResultRow::default()
            },
            ResultRow {
                round: 2,
                table: 0,
                black: player(8),
                black_points: Some(4),
                result_text: "Bye".into(),
                ..ResultRow::default()
            },
        ];
        let recs = read_back(&results_csv(&rows, Lang::En));
        assert_eq!(recs[0][0], "Round");
        assert_eq!(recs[1][10], "0");
        // Half points as the standings CSV writes scores: a 2/1/0 win is "2".
        assert_eq!(&recs[1][11..], ["B+3¼", "2", "0"]);
        assert_eq!(recs[2][10], "3");
        assert_eq!(&recs[2][11..], ["", "", ""]);
        assert_eq!(&recs[3][11..], ["Both lose", "0", "0"], "a double loss scores for neither");
        assert_eq!(&recs[4][11..], ["Jigo", "0.5", "0.5"], "a 1/½/0 draw");
        assert_eq!(&recs[5][11..], ["Bye", "2", ""], "a bye worth a 2/1/0 win, no White");
        // A replay, played with the colours swapped: labelled beside its result.
        let replay = ResultRow { replay_of: Some(17), swapped: true, ..rows[0].clone() };
        let recs = read_back(&results_csv(&[replay], Lang::Zh));
        assert_eq!(recs[1][11], "B+3¼ [重赛（原对局 #17）; 黑白颠倒，按实际执子]");
    }

    #[test]
    fn standings_csv_has_the_tiebreak_columns() {
        let rows = vec![
            StandingRow {
                gor: None,
                place: 1,
                name: "王伟".into(),
                rank: "5d".into(),
                unit: "北京".into(),
                score: "5".into(),
                tiebreaks: vec![("SOS".into(), "17".into()), ("SODOS".into(), "12½".into())],
                withdrawn: false,
            },
            StandingRow {
                gor: None,
                place: 2,
                name: "=SUM(A1)".into(),
                rank: "4d".into(),
                unit: String::new(),
                score: "4".into(),
                tiebreaks: vec![("SOS".into(), "15".into()), ("SODOS".into(), "8".into())],
                withdrawn: false,
            },
        ];
        let recs = read_back(&standings_csv(&rows, Lang::Zh).unwrap());
        assert_eq!(recs[0], ["名次", "姓名", "段位", "单位", "积分", "SOS", "SODOS"]);
        assert_eq!(recs[1], ["1", "王伟", "5d", "北京", "5", "17", "12½"]);
        assert_eq!(recs[2][1], "'=SUM(A1)");
        let mut bad = rows.clone();
        bad[1].tiebreaks.reverse();
        assert!(standings_csv(&bad, Lang::Zh).is_err());
    }
}
