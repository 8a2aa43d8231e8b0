//! The results notice (成绩公告) of a round, for the notice board: the tournament, the round
//! and its date, the round's results by table (byes, forfeits and double losses worded as the
//! results page words them), then the standings after the round with the tournament's own
//! tie-break columns, the standings wall chart's rows and columns ([`super::wall_chart`]).
//! One A4 portrait document; the tables continue on further pages with their headings.

use super::pdf::{list_heading, paper_mm, Align, Column, Doc, Frame, Page, Style, Table};
use super::wall_chart::{round_in_sentence, standings_table};
use super::{PdfOptions, PrintError, SheetPlayer, SheetTournament, StandingRow};
use crate::i18n::tr;

/// One line of the round's results: a board, or a bye (`table` 0, no White).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NoticeRow {
    pub table: u32,
    pub black: SheetPlayer,
    /// `None` for a bye.
    pub white: Option<SheetPlayer>,
    /// The result as the results page words it ("黑中盘胜", "白不战胜", "双方均负", "轮空").
    pub result: String,
}

/// The notice of round `t.round`: `results` by table, then `standings` after that round.
pub fn results_notice(
    t: &SheetTournament,
    results: &[NoticeRow],
    standings: &[StandingRow],
    opts: &PdfOptions<'_>,
) -> Result<Vec<u8>, PrintError> {
    let font = opts.font()?;
    let lang = opts.lang;
    let l = |k| lang.t(k);
    let subtitle = tr!(lang, "doc.results_notice_title", round = t.round_label(lang));
    let title = format!("{} {}", t.name(lang), subtitle);
    let mut doc = Doc::new(font, &title);
    let (w, h) = paper_mm(opts.paper, false);
    let scale = opts.paper.scale();
    let frame = Frame { paper_w: w, paper_h: h, scale, margin: 12.0 * scale };
    let name = t.name(lang).to_string();
    let details = t.details();

    let columns = vec![
        Column::new(l("sheet.table"), Align::Right),
        Column::grow(l("sheet.black")),
        Column::new(l("sheet.result"), Align::Center),
        Column::grow(l("sheet.white")),
    ];
    let rows = results
        .iter()
        .map(|r| {
            let cell = |p: &SheetPlayer| {
                let rank = p.rank(lang);
                let name = p.display_name(lang);
                if rank.is_empty() {
                    name
                } else {
                    tr!(lang, "doc.name_rank", name, rank)
                }
            };
            let table = if r.table == 0 { "—".to_string() } else { r.table.to_string() };
            vec![table, cell(&r.black), r.result.clone(), r.white.as_ref().map(cell).unwrap_or_default()]
        })
        .collect();
    let first = doc.add_page(frame.paper_w, frame.paper_h);
    let mut y = list_heading(first, scale, &name, &subtitle, &details);
    y = section(first, &frame, y, &tr!(lang, "doc.results_of_round", round = t.round_label(lang)));
    let cont = |page: &mut Page<'_>| list_heading(page, scale, &name, &subtitle, &details);
    y = Table { columns, rows, size: 10.0 }.flow(&mut doc, &frame, y, &cont);

    let table = standings_table(standings, lang)?;
    let heading = tr!(lang, "doc.standings_after", round = round_in_sentence(t, lang));
    let last = doc.pages.last_mut().expect("a page");
    let y = if y + 30.0 * scale > frame.paper_h - frame.margin {
        let page = doc.add_page(frame.paper_w, frame.paper_h);
        let y = cont(page);
        section(page, &frame, y, &heading)
    } else {
        section(last, &frame, y + 4.0 * scale, &heading)
    };
    table.flow(&mut doc, &frame, y, &cont);
    doc.footers(lang, &title, scale);
    doc.finish()
}

/// A part's heading at `y`; returns the y below it.
fn section(page: &mut Page<'_>, frame: &Frame, y: f32, text: &str) -> f32 {
    let s = frame.scale;
    let y = y + 5.0 * s;
    page.text_fit(
        frame.margin,
        y,
        frame.paper_w - 2.0 * frame.margin,
        Style::bold(11.5 * s),
        Align::Left,
        text,
    );
    y + 2.5 * s
}

#[cfg(test)]
mod tests {
    use super::super::testutil::{player, read, squash, tournament};
    use super::super::Lang;
    use super::*;

    fn standing(place: u32, i: usize) -> StandingRow {
        let p = player(i);
        StandingRow {
            gor: None,
            place,
            name: p.display_name(Lang::Zh),
            rank: p.rank(Lang::Zh),
            unit: p.unit.clone(),
            score: "2".into(),
            tiebreaks: vec![("对手分".into(), "4".into()), ("累进分".into(), "6".into())],
            withdrawn: false,
        }
    }

    /// D15: the notice's second part is the standings with the tournament's tie-break columns,
    /// in the rows' order; the first part words each board's result and the byes.
    #[test]
    fn the_notice_has_the_results_by_table_then_the_standings() {
        let t = tournament();
        let results = vec![
            NoticeRow { table: 1, black: player(0), white: Some(player(1)), result: "黑中盘胜".into() },
            NoticeRow { table: 2, black: player(2), white: Some(player(3)), result: "双方均负".into() },
            NoticeRow { table: 0, black: player(4), white: None, result: "轮空".into() },
        ];
        let standings: Vec<StandingRow> = (0..5).map(|i| standing(i as u32 + 1, i)).collect();
        let pdf = results_notice(&t, &results, &standings, &PdfOptions::new(Lang::Zh)).unwrap();
        let back = read("results-notice", &pdf);
        let text = squash(&back.all_text());
        for want in
            ["成绩公告", "第3轮", "黑中盘胜", "双方均负", "轮空", "对手分", "累进分", "第3轮后成绩排名"]
        {
            assert!(text.contains(want), "{want}: {text}");
        }
        // The results come before the standings, and the standings in their order.
        let (results_at, standings_at) = (text.find("黑中盘胜").unwrap(), text.find("第3轮后").unwrap());
        assert!(results_at < standings_at, "{text}");
        let after = &text[standings_at..];
        let at: Vec<usize> =
            (0..5).map(|i| after.find(&squash(&player(i).display_name(Lang::Zh))).unwrap()).collect();
        assert!(at.windows(2).all(|w| w[0] < w[1]), "{at:?}");
        assert!(back.glyph_report().faults.is_empty());
        // A long round continues on further pages, headed again.
        let many: Vec<NoticeRow> = (0..80)
            .map(|i| NoticeRow {
                table: i + 1,
                black: player(2 * i as usize),
                white: Some(player(2 * i as usize + 1)),
                result: "白胜".into(),
            })
            .collect();
        let pdf = results_notice(&t, &many, &standings, &PdfOptions::new(Lang::En)).unwrap();
        let back = read("results-notice-long", &pdf);
        assert!(back.pages.len() >= 2);
        assert!(
            back.pages
                .iter()
                .all(|p| squash(p).contains("Resultsnotice") || squash(p).contains("resultsnotice")),
            "{:?}",
            back.pages
        );
    }
}
