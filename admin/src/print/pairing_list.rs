//! Pairing lists (对阵表): by table, for the arbiters and the hall; and by name, so that each
//! player finds their table, colour and opponent at a glance.
//!
//! A4 or A3, portrait or landscape ([`PdfOptions`]); as many pages as the round needs, the
//! column headings repeated on each, "page x of y" at the foot. Byes are listed too.

use super::pdf::{list_heading, paper_mm, Align, Column, Doc, Frame, Table};
use super::{Bye, Lang, PairingRow, PdfOptions, PrintError, SheetPlayer, SheetTournament};
use crate::domain::names::NameOrder;
use crate::i18n::tr;

/// Which list to print.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PairingOrder {
    /// One line per table: Black, White, handicap, result; a nigiri board marks who holds.
    #[default]
    ByTable,
    /// One line per player in the event's name order (pinyin or strokes, `domain::names`):
    /// table, colour, opponent.
    ByName,
}

/// The pairing list of a round. `byes` are the players without a game this round.
pub fn pairing_list(
    t: &SheetTournament,
    rows: &[PairingRow],
    byes: &[Bye],
    order: PairingOrder,
    opts: &PdfOptions<'_>,
) -> Result<Vec<u8>, PrintError> {
    let font = opts.font()?;
    let lang = opts.lang;
    let key = match order {
        // The event's list of several groups in one hall.
        PairingOrder::ByTable if rows.iter().any(|r| !r.group.is_empty()) => "doc.hall_pairings_title",
        PairingOrder::ByTable => "doc.pairings_by_table_title",
        PairingOrder::ByName => "doc.pairings_by_name_title",
    };
    let subtitle = tr!(lang, key, round = t.round_label(lang));
    let table = match order {
        PairingOrder::ByTable => by_table(rows, byes, lang),
        PairingOrder::ByName => by_name(rows, byes, lang, t.name_order),
    };
    let title = format!("{} {}", t.name(lang), subtitle);
    let mut doc = Doc::new(font, &title);
    let (w, h) = paper_mm(opts.paper, opts.landscape);
    let scale = opts.paper.scale();
    let frame = Frame { paper_w: w, paper_h: h, scale, margin: 12.0 * scale };
    let name = t.name(lang).to_string();
    let details = t.details();
    table.paginate(&mut doc, &frame, &|page, _| list_heading(page, scale, &name, &subtitle, &details));
    doc.footers(lang, &title, scale);
    doc.finish()
}

fn handicap_text(r: &PairingRow, lang: Lang) -> String {
    if r.nigiri {
        lang.t("stream.nigiri").to_string()
    } else if r.handicap > 0 {
        r.handicap.to_string()
    } else {
        String::new()
    }
}

/// A player's name on the list by table; on a nigiri board the one who holds the stones (the
/// second player, as the event's nigiri rule decided) is marked, as the list by name and the
/// scoresheets name holder and guesser.
fn table_name(r: &PairingRow, p: &SheetPlayer, holder: bool, lang: Lang) -> String {
    let name = p.display_name(lang);
    if r.nigiri && holder {
        format!("{name}{}", lang.t("doc.holds_mark"))
    } else {
        name
    }
}

/// The table number, with the replay's label on a replay's line (重赛: the same table again)
/// and the replayed game's line marked as replayed.
fn table_cell(r: &PairingRow, lang: Lang) -> String {
    match (r.replay_of, r.replayed) {
        (Some(of), _) => format!("{} {}", r.table, lang.replay_label(of)),
        (None, true) => format!("{} {}", r.table, lang.t("r.replayed_note")),
        (None, false) => r.table.to_string(),
    }
}

fn by_table(rows: &[PairingRow], byes: &[Bye], lang: Lang) -> Table {
    let l = |k| lang.t(k);
    let columns = vec![
        Column::new(l("round.table"), Align::Right),
        Column::grow(l("r.black")),
        Column::new(l("e.rank"), Align::Center),
        Column::grow(l("team.unit")),
        Column::grow(l("r.white")),
        Column::new(l("e.rank"), Align::Center),
        Column::grow(l("team.unit")),
        Column::new(l("doc.hcp"), Align::Center),
        Column::new(l("r.result"), Align::Center),
    ];
    let mut sorted: Vec<&PairingRow> = rows.iter().collect();
    sorted.sort_by_key(|r| r.table);
    // The hall's list of several groups names each table's group, after its number.
    let groups = rows.iter().map(|r| &r.group).chain(byes.iter().map(|b| &b.group)).any(|g| !g.is_empty());
    let mut columns = columns;
    if groups {
        columns.insert(1, Column::grow(l("doc.group")));
    }
    let mut out: Vec<Vec<String>> = sorted
        .iter()
        .map(|r| {
            let mut row = vec![
                table_cell(r, lang),
                table_name(r, &r.black, false, lang),
                r.black.rank(lang).to_string(),
                r.black.unit.clone(),
                table_name(r, &r.white, true, lang),
                r.white.rank(lang).to_string(),
                r.white.unit.clone(),
                handicap_text(r, lang),
                r.result.clone(),
            ];
            if groups {
                row.insert(1, r.group.clone());
            }
            row
        })
        .collect();
    for Bye { player: p, group } in byes {
        let mut row = vec![
            "—".into(),
            p.display_name(lang),
            p.rank(lang).to_string(),
            p.unit.clone(),
            l("doc.bye").into(),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
        ];
        if groups {
            row.insert(1, group.clone());
        }
        out.push(row);
    }
    Table { columns, rows: out, size: 9.5 }
}

fn by_name(rows: &[PairingRow], byes: &[Bye], lang: Lang, order: NameOrder) -> Table {
    let l = |k| lang.t(k);
    let columns = vec![
        Column::grow(l("e.section_name")),
        Column::new(l("e.rank"), Align::Center),
        Column::grow(l("team.unit")),
        Column::new(l("round.table"), Align::Right),
        Column::new(l("doc.colour"), Align::Center),
        Column::grow(l("pub.opponent")),
        Column::new(l("doc.opp_rank"), Align::Center),
    ];
    let mut lines: Vec<(&SheetPlayer, Vec<String>)> = Vec::with_capacity(rows.len() * 2 + byes.len());
    for r in rows {
        for (me, opp, black) in [(&r.black, &r.white, true), (&r.white, &r.black, false)] {
            // A nigiri still to be done: the first player guesses, the second holds the
            // stones (who holds follows the event's nigiri rule).
            let colour = if r.nigiri && black {
                l("doc.nigiri_guesses")
            } else if r.nigiri {
                l("doc.nigiri_holds")
            } else if black {
                l("doc.black")
            } else {
                l("doc.white")
            };
            lines.push((
                me,
                vec![
                    me.display_name(lang),
                    me.rank(lang).to_string(),
                    me.unit.clone(),
                    table_cell(r, lang),
                    colour.to_string(),
                    opp.display_name(lang),
                    opp.rank(lang).to_string(),
                ],
            ));
        }
    }
    for Bye { player: p, .. } in byes {
        lines.push((
            p,
            vec![
                p.display_name(lang),
                p.rank(lang).to_string(),
                p.unit.clone(),
                "—".into(),
                String::new(),
                l("doc.bye").into(),
                String::new(),
            ],
        ));
    }
    crate::domain::names::sort_by_name(&mut lines, order, |(p, _)| p.name());
    Table { columns, rows: lines.into_iter().map(|(_, r)| r).collect(), size: 9.5 }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::{player, read, squash, tables, tournament};
    use super::super::Paper;
    use super::*;

    fn rows(n: usize) -> Vec<PairingRow> {
        tables(n)
            .into_iter()
            .map(|t| PairingRow {
                table: t.table,
                black: t.black,
                white: t.white,
                handicap: t.handicap,
                nigiri: t.nigiri,
                result: if t.table == 1 { "B+R".into() } else { String::new() },
                replay_of: None,
                replayed: false,
                ..PairingRow::default()
            })
            .collect()
    }

    /// Tournament practice (one hall, one numbering): the hall's list of several groups names
    /// each table's group after its hall number, in hall order, under its own title.
    #[test]
    fn the_halls_list_names_each_tables_group() {
        let t = tournament();
        let mut rs = rows(4);
        for (i, r) in rs.iter_mut().enumerate() {
            r.group = if i < 2 { "业余高段组" } else { "少儿组" }.into();
            r.table = [12, 2, 30, 31][i];
        }
        let bye = Bye { player: player(500), group: "少儿组".into() };
        let table = by_table(&rs, std::slice::from_ref(&bye), Lang::Zh);
        assert_eq!(table.columns[1].title, "组别");
        let cells: Vec<(&str, &str)> = table.rows.iter().map(|r| (r[0].as_str(), r[1].as_str())).collect();
        assert_eq!(
            cells,
            [("2", "业余高段组"), ("12", "业余高段组"), ("30", "少儿组"), ("31", "少儿组"), ("—", "少儿组")],
            "a bye names its group too"
        );
        let pdf = pairing_list(&t, &rs, &[], PairingOrder::ByTable, &PdfOptions::new(Lang::Zh)).unwrap();
        let all = squash(&read("pairings_hall_zh", &pdf).all_text());
        assert!(all.contains("第3轮全场对阵表（按赛场台号）"), "{all}");
        assert!(all.contains("少儿组"), "{all}");
        assert_eq!(
            by_table(&rows(4), &[], Lang::Zh).columns.len(),
            9,
            "a group's own list has no group column"
        );
    }

    #[test]
    fn by_table_lists_every_table_in_order_over_pages() {
        let t = tournament();
        let rs = rows(60);
        let bye = Bye { player: player(500), group: String::new() };
        let pdf = pairing_list(
            &t,
            &rs,
            std::slice::from_ref(&bye),
            PairingOrder::ByTable,
            &PdfOptions::new(Lang::Zh),
        )
        .unwrap();
        let r = read("pairings_by_table_zh", &pdf);
        assert_eq!(r.pages.len(), 2, "60 tables and a bye take two A4 pages");
        let all = squash(&r.all_text());
        assert!(all.contains("第3轮对阵表（按台号）"));
        assert!(all.contains("第1页/共2页") && all.contains("第2页/共2页"));
        assert!(all.contains("B+R") && all.contains("猜先") && all.contains("（轮空）"));
        // The nigiri board (table 3) names who holds the stones: its second player, only.
        let nigiri: Vec<&PairingRow> = rs.iter().filter(|r| r.nigiri).collect();
        assert!(!nigiri.is_empty());
        for r in &nigiri {
            let holder = squash(&format!("{}（握子）", r.white.display_name(Lang::Zh)));
            assert!(all.contains(&holder), "{holder}: {all}");
        }
        assert_eq!(all.matches("（握子）").count(), nigiri.len(), "{all}");
        let en = by_table(&rs, &[], Lang::En);
        for (r, cells) in rs.iter().zip(&en.rows) {
            assert_eq!(cells[4].ends_with(" (holds)"), r.nigiri, "{cells:?}");
            assert!(!cells[1].contains("holds"), "the guesser is not marked: {cells:?}");
        }
        for row in &rs {
            assert!(all.contains(&squash(&row.black.display_name(Lang::Zh))), "{}", row.table);
        }
        assert!(all.contains(&squash(&bye.player.name_zh)));
        // Tables appear in order: 59 and 60 are on the second page, not the first.
        assert!(squash(&r.pages[1]).contains(&squash(&rs[59].white.name_zh)));
        assert!(!squash(&r.pages[0]).contains(&squash(&rs[59].white.display_name(Lang::Zh))));
    }

    #[test]
    fn by_name_has_one_line_per_player_sorted_by_pinyin() {
        let t = tournament();
        let rs = rows(6);
        let opts = PdfOptions { lang: Lang::En, paper: Paper::A3, landscape: true, font: None };
        let pdf = pairing_list(&t, &rs, &[], PairingOrder::ByName, &opts).unwrap();
        let r = read("pairings_by_name_en_a3", &pdf);
        assert_eq!(r.pages.len(), 1);
        // A3 landscape: 420 × 297 mm.
        let page = r.doc.get_pages()[&1];
        let mb = r
            .doc
            .get_object(page)
            .unwrap()
            .as_dict()
            .unwrap()
            .get(b"MediaBox")
            .unwrap()
            .as_array()
            .unwrap()
            .clone();
        let w = mb[2].as_float().unwrap();
        assert!((w - 420.0 * 72.0 / 25.4).abs() < 1.0, "{w}");
        let text = squash(&r.pages[0]);
        assert!(text.contains("Round3—pairingsbyname"));
        // Sorted by Latin name: Chen Wei before Li Wei before Zhang Wei.
        let pos = |s: &str| text.find(&squash(s)).unwrap_or_else(|| panic!("{s} missing"));
        assert!(pos("Chen Wei 陈伟") < pos("Li Wei 李伟"));
        assert!(pos("Li Wei 李伟") < pos("Zhang Wei 张伟"));
        let table = by_name(&rs, &[], Lang::En, NameOrder::Pinyin);
        assert_eq!(table.rows.len(), 12);
        // Table 3 is a nigiri board: its first player guesses, its second holds the stones.
        assert!(text.contains("nigiri,guesses") && text.contains("nigiri,holds"), "{text}");
        let zh = by_name(&rs, &[], Lang::Zh, NameOrder::Pinyin);
        let colours: Vec<&str> = zh.rows.iter().map(|cells| cells[4].as_str()).collect();
        assert_eq!(colours.iter().filter(|c| **c == "猜先·猜子").count(), 2, "{colours:?}");
        assert_eq!(colours.iter().filter(|c| **c == "猜先·握子").count(), 2, "{colours:?}");
    }
}
