//! Game record sheets (棋谱记录纸): one page per table, with the players and conditions at the
//! top and a 19×19 grid (coordinates A–T without I, 1–19, star points) on which the recorder
//! writes each move's number at its intersection. Below: the move range of the sheet, lines for
//! moves played where stones were captured earlier (ko, recaptures), the result and signatures.
//!
//! A4 portrait; A3 draws the same page √2 larger (bigger intersections for three-digit numbers).

use super::pdf::{paper_mm, Align, Doc, Page, Style};
use super::{Lang, PdfOptions, PrintError, SheetPlayer, SheetTournament, TableSheet};
use crate::i18n::tr;

/// Column letters of a 19×19 board (no I).
pub const COLUMNS: &str = "ABCDEFGHJKLMNOPQRST";

/// One record sheet per table, in the order given.
pub fn record_sheets(
    t: &SheetTournament,
    tables: &[TableSheet],
    opts: &PdfOptions<'_>,
) -> Result<Vec<u8>, PrintError> {
    let font = opts.font()?;
    let lang = opts.lang;
    let title = format!("{} {} {}", t.name(lang), t.round_label(lang), lang.t("doc.game_records"));
    let mut doc = Doc::new(font, &title);
    let (w, h) = paper_mm(opts.paper, false);
    let k = opts.paper.scale();
    for table in tables {
        let page = doc.add_page(w, h);
        draw(page, k, t, table, lang);
    }
    doc.finish()
}

fn draw(p: &mut Page<'_>, k: f32, t: &SheetTournament, table: &TableSheet, lang: Lang) {
    let l = |k| lang.t(k);
    let m = 15.0 * k;
    let cx = p.w / 2.0;
    let inner = p.w - 2.0 * m;
    let sz = |s: f32| s * k;

    p.text_fit(cx, 16.0 * k, inner, Style::bold(sz(14.0)), Align::Center, t.name(lang));
    let mut sub = tr!(lang, "doc.record_sheet_title", round = t.round_label(lang));
    if let Some(of) = table.replay_of {
        sub = format!("{sub} · {}", lang.replay_label(of));
    }
    p.text_fit(cx, 23.0 * k, inner, Style::bold(sz(11.0)), Align::Center, &sub);
    p.text_fit(cx, 28.5 * k, inner, Style::grey(sz(8.0)), Align::Center, &t.details());

    // Table number box, top right of the players' block.
    let (bx, by, bw, bh) = (p.w - m - 28.0 * k, 32.0 * k, 28.0 * k, 17.0 * k);
    p.fill(bx, by, bw, bh, 0.9);
    p.rect(bx, by, bw, bh, 1.0);
    p.text(bx + 2.0 * k, by + 5.0 * k, Style::new(sz(8.0)), Align::Left, l("round.table"));
    p.text_fit(
        bx + bw / 2.0,
        by + 14.0 * k,
        bw - 4.0 * k,
        Style::bold(sz(18.0)),
        Align::Center,
        &table.table.to_string(),
    );

    // The two players.
    let col_w = (bx - m - 8.0 * k) / 2.0;
    let (la, lb) =
        if table.nigiri { (l("doc.player_a"), l("doc.player_b")) } else { (l("r.black"), l("r.white")) };
    for (i, (label, player)) in [(la, &table.black), (lb, &table.white)].into_iter().enumerate() {
        let x = m + i as f32 * (col_w + 4.0 * k);
        player_block(p, k, x, 32.0 * k, col_w, label, player, table.nigiri, i == 0, lang);
    }

    // Conditions.
    let handicap = if table.nigiri {
        l("stream.nigiri").to_string()
    } else if table.handicap == 0 {
        l("doc.even_game").to_string()
    } else {
        tr!(lang, "doc.handicap_stones", handicap = table.handicap)
    };
    let komi = table.komi_text.as_deref().unwrap_or(&t.komi_text);
    let sep = l("doc.colon");
    let cond = format!(
        "{}{sep}{handicap}     {}{sep}{komi}     {}{sep}{}",
        l("r.handicap"),
        l("doc.komi"),
        l("doc.time"),
        t.time_control_text
    );
    p.text_fit(m, 56.0 * k, inner, Style::new(sz(8.5)), Align::Left, &cond);

    // The grid.
    let sp = 9.2 * k;
    let gw = 18.0 * sp;
    let gx = (p.w - gw) / 2.0;
    let gy = 64.0 * k;
    for i in 0..19 {
        let d = i as f32 * sp;
        let edge = i == 0 || i == 18;
        let wpt = if edge { 1.2 } else { 0.4 };
        p.line(gx, gy + d, gx + gw, gy + d, wpt);
        p.line(gx + d, gy, gx + d, gy + gw, wpt);
    }
    for &a in &[3usize, 9, 15] {
        for &b in &[3usize, 9, 15] {
            p.dot(gx + a as f32 * sp, gy + b as f32 * sp, 0.75 * k, 0.0);
        }
    }
    let cs = Style::grey(sz(7.5));
    for (i, c) in COLUMNS.chars().enumerate() {
        let x = gx + i as f32 * sp;
        let s = c.to_string();
        p.text(x, gy - 2.6 * k, cs, Align::Center, &s);
        p.text(x, gy + gw + 5.2 * k, cs, Align::Center, &s);
    }
    for i in 0..19 {
        let y = gy + i as f32 * sp + 1.0 * k;
        let s = (19 - i).to_string();
        p.text(gx - 3.0 * k, y, cs, Align::Right, &s);
        p.text(gx + gw + 3.0 * k, y, cs, Align::Left, &s);
    }

    // Below the grid.
    let st = Style::new(sz(8.5));
    let mut y = gy + gw + 14.0 * k;
    let range = l("doc.moves_on_sheet");
    p.text_fit(m, y, inner, st, Align::Left, range);
    y += 8.0 * k;
    p.text_fit(m, y, inner, st, Align::Left, l("doc.moves_played_where_stones_were"));
    for _ in 0..2 {
        y += 7.0 * k;
        p.line(m, y, p.w - m, y, 0.4);
    }
    y += 10.0 * k;
    let cols = [
        l("r.result"),
        l("doc.recorder"),
        if table.nigiri { l("doc.sign_player_a") } else { l("doc.sign_black") },
        if table.nigiri { l("doc.sign_player_b") } else { l("doc.sign_white") },
    ];
    let cw = inner / cols.len() as f32;
    for (i, lab) in cols.into_iter().enumerate() {
        let x = m + i as f32 * cw;
        p.line(x + 1.0 * k, y, x + cw - 3.0 * k, y, 0.5);
        p.text_fit(
            x + cw / 2.0 - 1.0 * k,
            y + 4.5 * k,
            cw - 4.0 * k,
            Style::grey(sz(7.5)),
            Align::Center,
            lab,
        );
    }
}

#[allow(clippy::too_many_arguments)]
fn player_block(
    p: &mut Page<'_>,
    k: f32,
    x: f32,
    y: f32,
    w: f32,
    label: &str,
    pl: &SheetPlayer,
    nigiri: bool,
    first: bool,
    lang: Lang,
) {
    let h = 17.0 * k;
    p.rect(x, y, w, h, 0.8);
    let mut lx = x + 2.5 * k;
    if !nigiri {
        if first {
            p.dot(x + 4.5 * k, y + 3.9 * k, 1.8 * k, 0.0);
        } else {
            p.circle(x + 4.5 * k, y + 3.9 * k, 1.8 * k, None, 0.7);
        }
        lx = x + 8.0 * k;
    }
    p.text(lx, y + 5.3 * k, Style::bold(8.0 * k), Align::Left, label);
    if nigiri {
        let mut cx = x + w - 34.0 * k;
        for lab in [lang.t("doc.took_black"), lang.t("doc.took_white")] {
            p.checkbox(cx, y + 2.0 * k, 3.4 * k);
            p.text(cx + 4.6 * k, y + 4.9 * k, Style::new(7.5 * k), Align::Left, lab);
            cx += 17.0 * k;
        }
    }
    p.text_fit(
        x + 2.5 * k,
        y + 11.3 * k,
        w - 5.0 * k,
        Style::bold(11.0 * k),
        Align::Left,
        &pl.display_name(lang),
    );
    let rank = pl.rank(lang);
    let unit = pl.unit.trim();
    let line = if unit.is_empty() { rank.to_string() } else { format!("{rank}  ·  {unit}") };
    p.text_fit(x + 2.5 * k, y + 15.2 * k, w - 5.0 * k, Style::grey(7.0 * k), Align::Left, &line);
}

#[cfg(test)]
mod tests {
    use super::super::testutil::{read, squash, tables, tournament};
    use super::super::Paper;
    use super::*;

    #[test]
    fn one_page_per_table_with_grid_coordinates_and_players() {
        let t = tournament();
        let tabs = tables(3);
        let pdf = record_sheets(&t, &tabs, &PdfOptions::new(Lang::Zh)).unwrap();
        let r = read("record_sheets_zh", &pdf);
        assert_eq!(r.pages.len(), 3);
        for (page, tab) in r.pages.iter().zip(&tabs) {
            let p = squash(page);
            assert!(p.contains("棋谱记录纸") && p.contains("台号"), "{p}");
            assert!(p.contains(&format!("台号{}", tab.table)) || p.contains(&tab.table.to_string()));
            assert!(p.contains(&squash(&tab.black.name_zh)) && p.contains(&squash(&tab.white.name_latin)));
            for c in ["A", "H", "J", "T", "19"] {
                assert!(p.contains(c), "{c}");
            }
            assert!(!p.contains('I'), "no column I on a Go board");
        }
        assert!(
            squash(&r.pages[2]).contains("棋手A") && squash(&r.pages[2]).contains("执黑"),
            "table 3 is nigiri"
        );
    }

    #[test]
    fn a3_english() {
        let tabs = tables(1);
        let opts = PdfOptions { lang: Lang::En, paper: Paper::A3, ..Default::default() };
        let pdf = record_sheets(&tournament(), &tabs, &opts).unwrap();
        let r = read("record_sheet_en_a3", &pdf);
        assert_eq!(r.pages.len(), 1);
        let p = squash(&r.pages[0]);
        assert!(
            p.contains("Round3—gamerecord") && p.contains("Recorder") && p.contains("Movesonthissheet"),
            "{p}"
        );
    }
}
