//! Wall charts: the standings with their tie-break columns (成绩排名表), and the crosstable
//! (成绩交叉表) with each round's opponent, result and colour, e.g. `12+/b` = won against
//! number 12 with Black; `0+` = bye.
//!
//! A4 or A3 (the same layout √2 larger, to be read on a wall), portrait or landscape; pages
//! repeat the column headings.

use super::pdf::{list_heading, paper_mm, Align, Column, Doc, Frame, Page, Style, Table};
use super::{
    name_cell, tiebreak_labels, CrosstableRow, Lang, PdfOptions, PrintError, SheetTournament, StandingRow,
};
use crate::i18n::tr;

/// The standings after the round of `t`, in the order given.
pub fn standings(
    t: &SheetTournament,
    rows: &[StandingRow],
    opts: &PdfOptions<'_>,
) -> Result<Vec<u8>, PrintError> {
    let lang = opts.lang;
    let table = standings_table(rows, lang)?;
    let subtitle = tr!(lang, "doc.standings_after", round = round_in_sentence(t, lang));
    render(t, table, &subtitle, &t.details(), opts)
}

/// The standings as a table: place, name, rank, unit, 积分 and the tie-break columns (the
/// wall chart's, and the results notice's second part).
pub(crate) fn standings_table(rows: &[StandingRow], lang: Lang) -> Result<Table, PrintError> {
    let labels = tiebreak_labels(rows.iter().map(|r| (r.place, &r.tiebreaks[..])))?;
    let l = |k| lang.t(k);
    let mut columns = vec![
        Column::new(l("pub.place"), Align::Right),
        Column::grow(l("e.section_name")),
        Column::new(l("e.rank"), Align::Center),
        Column::grow(l("team.unit")),
        Column::new(l("doc.score"), Align::Right),
    ];
    columns.extend(labels.iter().map(|lab| Column::new(lab, Align::Right)));
    let body = rows
        .iter()
        .map(|r| {
            let name = name_cell(lang, &r.name, r.withdrawn);
            let mut v = vec![r.place.to_string(), name, r.rank.clone(), r.unit.clone(), r.score.clone()];
            v.extend(r.tiebreaks.iter().map(|(_, val)| val.clone()));
            v
        })
        .collect();
    Ok(Table { columns, rows: body, size: 10.0 })
}

/// The crosstable after the round of `t`: one line per player, one column per round.
pub fn crosstable(
    t: &SheetTournament,
    rows: &[CrosstableRow],
    opts: &PdfOptions<'_>,
) -> Result<Vec<u8>, PrintError> {
    let lang = opts.lang;
    let labels = tiebreak_labels(rows.iter().map(|r| (r.place, &r.tiebreaks[..])))?;
    let rounds = rows.iter().map(|r| r.results.len()).max().unwrap_or(0);
    let l = |k| lang.t(k);
    let mut columns = vec![
        Column::new(l("pub.place"), Align::Right),
        Column::grow(l("e.section_name")),
        Column::new(l("e.rank"), Align::Center),
        Column::grow(l("team.unit")),
    ];
    for i in 1..=rounds {
        let title = tr!(lang, "doc.round_short", round = i);
        columns.push(Column::new(&title, Align::Center));
    }
    columns.push(Column::new(l("doc.score"), Align::Right));
    columns.extend(labels.iter().map(|lab| Column::new(lab, Align::Right)));
    let body = rows
        .iter()
        .map(|r| {
            let name = name_cell(lang, &r.name, r.withdrawn);
            let mut v = vec![r.place.to_string(), name, r.rank.clone(), r.unit.clone()];
            v.extend((0..rounds).map(|i| r.results.get(i).map(|x| x.notation()).unwrap_or_default()));
            v.push(r.score.clone());
            v.extend(r.tiebreaks.iter().map(|(_, val)| val.clone()));
            v
        })
        .collect();
    let subtitle = tr!(lang, "doc.crosstable_after", round = round_in_sentence(t, lang));
    let legend = l("doc.12_b_won_against_no");
    let details = format!("{}\n{legend}", t.details());
    render(t, Table { columns, rows: body, size: 9.0 }, &subtitle, &details, opts)
}

fn render(
    t: &SheetTournament,
    table: Table,
    subtitle: &str,
    details: &str,
    opts: &PdfOptions<'_>,
) -> Result<Vec<u8>, PrintError> {
    let font = opts.font()?;
    let lang = opts.lang;
    let title = format!("{} {}", t.name(lang), subtitle);
    let mut doc = Doc::new(font, &title);
    let (w, h) = paper_mm(opts.paper, opts.landscape);
    let scale = opts.paper.scale();
    let frame = Frame { paper_w: w, paper_h: h, scale, margin: 12.0 * scale };
    let name = t.name(lang).to_string();
    let heading = |page: &mut Page<'_>| list_heading(page, scale, &name, subtitle, details);
    if t.notes.is_empty() {
        table.paginate(&mut doc, &frame, &|page, _| heading(page));
    } else {
        // The footnotes (the withdrawals) under the table, on a new page when they do not fit.
        let top = heading(doc.add_page(w, h));
        let mut y = table.flow(&mut doc, &frame, top, &heading);
        let (line, bottom) = (5.0 * scale, h - frame.margin - 6.0 * scale);
        for note in &t.notes {
            if y + line > bottom {
                y = heading(doc.add_page(w, h));
            }
            y += line;
            let page = doc.pages.last_mut().expect("a page");
            page.text_fit(
                frame.margin,
                y,
                w - 2.0 * frame.margin,
                Style::grey(8.5 * scale),
                Align::Left,
                note,
            );
        }
    }
    doc.footers(lang, &title, scale);
    doc.finish()
}

/// "round 3" inside an English sentence ("Standings after round 3"), "第 3 轮" in Chinese.
pub(crate) fn round_in_sentence(t: &SheetTournament, lang: Lang) -> String {
    match lang {
        Lang::En => t.round_label(lang).to_lowercase(),
        Lang::Zh => t.round_label(lang),
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::{player, read, squash, tournament};
    use super::super::{Colour, Outcome, Paper, RoundResult};
    use super::*;

    fn standing_rows(n: u32) -> Vec<StandingRow> {
        (1..=n)
            .map(|p| {
                let pl = player(p as usize);
                StandingRow {
                    gor: None,
                    place: p,
                    name: pl.display_name(Lang::Zh),
                    rank: pl.rank(Lang::Zh),
                    unit: pl.unit.clone(),
                    score: format!("{}", 10 - p.min(10)),
                    tiebreaks: vec![
                        ("SOS".into(), format!("{}", 40 - p.min(40))),
                        ("SOSOS".into(), format!("{}", 200 - p)),
                        ("SODOS".into(), format!("{}½", p % 7)),
                    ],
                    withdrawn: p == 2,
                }
            })
            .collect()
    }

    #[test]
    fn standings_show_tiebreak_columns_on_every_page() {
        let t = tournament();
        let rows = standing_rows(90);
        let pdf = standings(&t, &rows, &PdfOptions::new(Lang::Zh)).unwrap();
        let r = read("standings_zh", &pdf);
        assert!(r.pages.len() >= 2, "{}", r.pages.len());
        for p in &r.pages {
            let p = squash(p);
            assert!(
                p.contains("名次") && p.contains("积分") && p.contains("SOS") && p.contains("SODOS"),
                "{p}"
            );
        }
        let all = squash(&r.all_text());
        assert!(all.contains("第3轮后成绩排名"));
        assert!(all.contains(&squash(&rows[89].name)) && all.contains("3½"));
        // The withdrawn player is marked as the players list marks them.
        assert!(all.contains(&squash(&format!("{}（退赛）", rows[1].name))), "{all}");
        assert!(!all.contains(&squash(&format!("{}（退赛）", rows[2].name))));
        // Mismatched tie-break columns are refused.
        let mut bad = standing_rows(3);
        bad[2].tiebreaks.pop();
        assert!(matches!(standings(&t, &bad, &PdfOptions::default()), Err(PrintError::Invalid(_))));
    }

    /// Seed 000 Art. 15.2 (退赛): the standings sheet's withdrawal footnotes stand under the
    /// table, after its last line, on the last page.
    #[test]
    fn withdrawal_footnotes_stand_under_the_table() {
        let t = SheetTournament {
            notes: vec!["退赛：李二，第3轮起，2026-12-05".into()], ..tournament()
        };
        let rows = standing_rows(90);
        let pdf = standings(&t, &rows, &PdfOptions::new(Lang::Zh)).unwrap();
        let r = read("standings_notes_zh", &pdf);
        let last = squash(r.pages.last().unwrap());
        let (at_name, at_note) =
            (last.find(&squash(&rows[89].name)), last.find("退赛：李二，第3轮起，2026-12-05"));
        assert!(at_name.is_some() && at_note > at_name, "{last}");
        assert!(r.pages[..r.pages.len() - 1].iter().all(|p| !squash(p).contains("第3轮起")));
    }

    #[test]
    fn crosstable_on_a3_landscape_has_round_columns_and_notation() {
        let t = tournament();
        let rows: Vec<CrosstableRow> = (1..=8u32)
            .map(|p| {
                let opp = |r: u32| ((p - 1 + r) % 8) + 1;
                let results = (1..=5u32)
                    .map(|r| {
                        if p == 8 && r == 5 {
                            RoundResult::no_game(Outcome::Win)
                        } else {
                            RoundResult::game(
                                opp(r),
                                if (p + r) % 2 == 0 { Outcome::Win } else { Outcome::Loss },
                                Some(if r % 2 == 0 { Colour::Black } else { Colour::White }),
                                if p == 3 && r == 2 { 2 } else { 0 },
                            )
                        }
                    })
                    .collect();
                let pl = player(p as usize);
                CrosstableRow {
                    place: p,
                    name: pl.display_name(Lang::En),
                    rank: pl.rank(Lang::En),
                    unit: pl.unit.clone(),
                    results,
                    score: format!("{}", 9 - p),
                    tiebreaks: vec![("SOS".into(), format!("{}", 30 - p))],
                    withdrawn: false,
                }
            })
            .collect();
        let opts = PdfOptions { lang: Lang::En, paper: Paper::A3, landscape: true, font: None };
        let pdf = crosstable(&t, &rows, &opts).unwrap();
        let r = read("crosstable_en_a3", &pdf);
        assert_eq!(r.pages.len(), 1);
        let text = squash(&r.pages[0]);
        for s in ["Crosstableafterround3", "R1", "R5", "Score", "SOS", "0+", "5-/b2", "ZhangWei张伟"] {
            assert!(text.contains(s), "{s} missing: {text}");
        }
        assert_eq!(rows[2].results[1].notation(), "5-/b2");
    }
}
