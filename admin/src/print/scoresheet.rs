//! Scoresheets (记录单): one slip per table, handed to the players and back to the arbiters
//! with the result.
//!
//! Four slips per A4 portrait page (each A6, 105 × 148.5 mm), or two per A4 landscape page
//! (each A5, 148.5 × 210 mm): A6 and A5 have the same proportions, so the slip is one layout
//! drawn at two scales, with dashed cut lines between slips.
//!
//! A slip shows the tournament, round and table; both players with name (Chinese and Latin),
//! rank and unit; handicap, komi, time control and rules; boxes for the arrival times, Black's
//! count and the margin, ticks for the result, and signature lines for both players and the
//! arbiter. When the colours are decided at the board (nigiri) the players are "Player A ·
//! guesser" and "Player B · holder" (who holds the stones as the event's nigiri rule decided),
//! each with ticks for the colour taken, and a line records the holding and the guess.

use super::pdf::{Align, Doc, Page, Style};
use super::{Lang, PdfOptions, PrintError, SheetPlayer, SheetTournament, TableSheet};
use crate::i18n::tr;

/// How many slips go on one A4 page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SheetsPerPage {
    /// A5 slips on A4 landscape.
    Two,
    /// A6 slips on A4 portrait.
    #[default]
    Four,
}

impl SheetsPerPage {
    pub fn count(self) -> usize {
        match self {
            SheetsPerPage::Two => 2,
            SheetsPerPage::Four => 4,
        }
    }
}

/// Base slip size (A6) in millimetres.
const SLIP_W: f32 = 105.0;
const SLIP_H: f32 = 148.5;

/// The scoresheets of a round, in the order given (usually by table). Returns the PDF.
pub fn scoresheets(
    t: &SheetTournament,
    tables: &[TableSheet],
    per_page: SheetsPerPage,
    opts: &PdfOptions<'_>,
) -> Result<Vec<u8>, PrintError> {
    let font = opts.font()?;
    let lang = opts.lang;
    let title = format!("{} {} {}", t.name(lang), t.round_label(lang), lang.t("doc.scoresheets"));
    let mut doc = Doc::new(font, &title);
    let n = per_page.count();
    for chunk in tables.chunks(n) {
        let page = match per_page {
            SheetsPerPage::Four => doc.add_page(210.0, 297.0),
            SheetsPerPage::Two => doc.add_page(297.0, 210.0),
        };
        // Cut lines.
        match per_page {
            SheetsPerPage::Four => {
                page.dashed_line(105.0, 0.0, 105.0, 297.0, 0.4);
                page.dashed_line(0.0, 148.5, 210.0, 148.5, 0.4);
            }
            SheetsPerPage::Two => page.dashed_line(148.5, 0.0, 148.5, 210.0, 0.4),
        }
        for (i, table) in chunk.iter().enumerate() {
            let (ox, oy, k) = match per_page {
                SheetsPerPage::Four => ((i % 2) as f32 * 105.0, (i / 2) as f32 * 148.5, 1.0),
                SheetsPerPage::Two => (i as f32 * 148.5, 0.0, std::f32::consts::SQRT_2),
            };
            let mut slip = Slip { page, ox, oy, k };
            draw_slip(&mut slip, t, table, lang);
        }
    }
    doc.finish()
}

/// A slip's local coordinates (base A6 millimetres) mapped onto the page.
struct Slip<'a, 'f> {
    page: &'a mut Page<'f>,
    ox: f32,
    oy: f32,
    k: f32,
}

impl Slip<'_, '_> {
    fn st(&self, s: Style) -> Style {
        Style { size: s.size * self.k, ..s }
    }
    fn text(&mut self, x: f32, y: f32, max_w: f32, s: Style, a: Align, text: &str) {
        let st = self.st(s);
        self.page.text_fit(self.ox + x * self.k, self.oy + y * self.k, max_w * self.k, st, a, text);
    }
    fn width(&self, text: &str, size: f32) -> f32 {
        self.page.width(text, size * self.k) / self.k
    }
    fn line(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, w: f32) {
        let k = self.k;
        self.page.line(self.ox + x1 * k, self.oy + y1 * k, self.ox + x2 * k, self.oy + y2 * k, w);
    }
    fn rect(&mut self, x: f32, y: f32, w: f32, h: f32, lw: f32) {
        let k = self.k;
        self.page.rect(self.ox + x * k, self.oy + y * k, w * k, h * k, lw);
    }
    fn fill(&mut self, x: f32, y: f32, w: f32, h: f32, level: f32) {
        let k = self.k;
        self.page.fill(self.ox + x * k, self.oy + y * k, w * k, h * k, level);
    }
    fn checkbox(&mut self, x: f32, y: f32, s: f32) {
        let k = self.k;
        self.page.checkbox(self.ox + x * k, self.oy + y * k, s * k);
    }
    fn stone(&mut self, x: f32, y: f32, r: f32, black: bool) {
        let k = self.k;
        if black {
            self.page.dot(self.ox + x * k, self.oy + y * k, r * k, 0.0);
        } else {
            self.page.circle(self.ox + x * k, self.oy + y * k, r * k, None, 0.7);
        }
    }
}

struct Labels {
    table: &'static str,
    black: &'static str,
    white: &'static str,
    player_a: &'static str,
    player_b: &'static str,
    took_black: &'static str,
    took_white: &'static str,
    handicap: &'static str,
    even: &'static str,
    komi: &'static str,
    time: &'static str,
    rules: &'static str,
    nigiri: &'static str,
    holder: &'static str,
    guesser: &'static str,
    arrival: &'static str,
    count: &'static str,
    stones: &'static str,
    result: &'static str,
    black_wins: &'static str,
    white_wins: &'static str,
    jigo: &'static str,
    margin: &'static str,
    sign_black: &'static str,
    sign_white: &'static str,
    sign_a: &'static str,
    sign_b: &'static str,
    sign_arbiter: &'static str,
}

/// The slip's labels in `lang`, from the catalog (`sheet.*`).
fn labels(lang: Lang) -> Labels {
    Labels {
        table: lang.t("sheet.table"),
        black: lang.t("sheet.black"),
        white: lang.t("sheet.white"),
        player_a: lang.t("sheet.player_a"),
        player_b: lang.t("sheet.player_b"),
        took_black: lang.t("sheet.took_black"),
        took_white: lang.t("sheet.took_white"),
        handicap: lang.t("sheet.handicap"),
        even: lang.t("sheet.even"),
        komi: lang.t("sheet.komi"),
        time: lang.t("sheet.time"),
        rules: lang.t("sheet.rules"),
        nigiri: lang.t("sheet.nigiri"),
        holder: lang.t("sheet.holder"),
        guesser: lang.t("sheet.guesser"),
        arrival: lang.t("sheet.arrival"),
        count: lang.t("sheet.count"),
        stones: lang.t("sheet.stones"),
        result: lang.t("sheet.result"),
        black_wins: lang.t("sheet.black_wins"),
        white_wins: lang.t("sheet.white_wins"),
        jigo: lang.t("sheet.jigo"),
        margin: lang.t("sheet.margin"),
        sign_black: lang.t("sheet.sign_black"),
        sign_white: lang.t("sheet.sign_white"),
        sign_a: lang.t("sheet.sign_a"),
        sign_b: lang.t("sheet.sign_b"),
        sign_arbiter: lang.t("sheet.sign_arbiter"),
    }
}

fn draw_slip(s: &mut Slip<'_, '_>, t: &SheetTournament, table: &TableSheet, lang: Lang) {
    let l = &labels(lang);
    let m = 6.0;
    let w = SLIP_W - 2.0 * m;
    let cx = SLIP_W / 2.0;

    // Tournament, venue and date.
    s.text(cx, 10.5, w, Style::bold(10.5), Align::Center, t.name(lang));
    s.text(cx, 15.0, w, Style::grey(6.5), Align::Center, &t.details());

    // Round (left) and table (a box on the right).
    s.text(m, 25.0, 50.0, Style::bold(11.0), Align::Left, &t.round_label(lang));
    if let Some(of) = table.replay_of {
        s.text(m, 29.2, 60.0, Style::bold(6.5), Align::Left, &lang.replay_label(of));
    }
    let (bx, by, bw, bh) = (SLIP_W - m - 34.0, 18.0, 34.0, 10.5);
    s.fill(bx, by, bw, bh, 0.9);
    s.rect(bx, by, bw, bh, 1.0);
    s.text(bx + 2.0, by + 6.8, 14.0, Style::new(7.5), Align::Left, l.table);
    s.text(bx + bw - 2.5, by + 8.3, 22.0, Style::bold(17.0), Align::Right, &table.table.to_string());

    // The players.
    // A nigiri board names who guesses (Player A) and who holds the stones (Player B), as the
    // event's nigiri rule decided.
    let (label_1, label_2) = if table.nigiri {
        (format!("{} · {}", l.player_a, l.guesser), format!("{} · {}", l.player_b, l.holder))
    } else {
        (l.black.to_string(), l.white.to_string())
    };
    player_box(s, l, 31.0, &label_1, &table.black, table.nigiri, Some(true), lang);
    player_box(s, l, 53.5, &label_2, &table.white, table.nigiri, Some(false), lang);

    // Conditions.
    let mut y = 81.0;
    let handicap = if table.handicap == 0 {
        l.even.to_string()
    } else {
        tr!(lang, "doc.handicap_n", handicap = table.handicap)
    };
    let komi = table.komi_text.as_deref().unwrap_or(&t.komi_text);
    let sep = lang.t("doc.colon");
    s.text(
        m,
        y,
        w,
        Style::new(7.5),
        Align::Left,
        &format!("{}{sep}{handicap}    {}{sep}{komi}", l.handicap, l.komi),
    );
    y += 4.8;
    if !t.time_control_text.is_empty() {
        s.text(m, y, w, Style::new(7.5), Align::Left, &format!("{}{sep}{}", l.time, t.time_control_text));
        y += 4.8;
    }
    if !t.rules_text.is_empty() {
        s.text(m, y, w, Style::new(7.5), Align::Left, &format!("{}{sep}{}", l.rules, t.rules_text));
        y += 4.8;
    }
    if table.nigiri {
        y += 1.0;
        s.text(m, y, w, Style::bold(7.5), Align::Left, l.nigiri);
        y += 5.5;
        let hw = s.width(l.holder, 7.5);
        s.text(m, y, 30.0, Style::new(7.5), Align::Left, l.holder);
        s.line(m + hw + 1.5, y + 0.8, m + 44.0, y + 0.8, 0.5);
        let gx = m + 48.0;
        let gw = s.width(l.guesser, 7.5);
        s.text(gx, y, 30.0, Style::new(7.5), Align::Left, l.guesser);
        s.line(gx + gw + 1.5, y + 0.8, SLIP_W - m, y + 0.8, 0.5);
        y += 2.5;
    }

    // Results block.
    y += 1.5;
    s.line(m, y, SLIP_W - m, y, 0.6);
    y += 6.5;
    // Arrival times.
    let (a_lab, b_lab) = if table.nigiri { ("A", "B") } else { (l.black, l.white) };
    s.text(m, y, 26.0, Style::new(7.5), Align::Left, l.arrival);
    let mut x = m + 25.0;
    for lab in [a_lab, b_lab] {
        let lw = s.width(lab, 7.5);
        s.text(x, y, 20.0, Style::new(7.5), Align::Left, lab);
        let bx = x + lw + 1.5;
        s.rect(bx, y - 4.6, 17.0, 6.0, 0.6);
        s.text(bx + 8.5, y - 0.3, 4.0, Style::grey(7.5), Align::Center, ":");
        x = bx + 17.0 + 5.0;
    }
    y += 9.0;
    // Black's count and the margin.
    s.text(m, y, 26.0, Style::new(7.5), Align::Left, l.count);
    s.rect(m + 25.0, y - 5.0, 20.0, 6.8, 0.8);
    s.text(m + 46.5, y, 10.0, Style::new(7.5), Align::Left, l.stones);
    let mx = m + 58.0;
    let mw = s.width(l.margin, 7.5);
    s.text(mx, y, 14.0, Style::new(7.5), Align::Left, l.margin);
    s.rect(mx + mw + 1.5, y - 5.0, 16.0, 6.8, 0.8);
    s.text(mx + mw + 19.0, y, SLIP_W - m - (mx + mw + 19.0), Style::new(7.5), Align::Left, l.stones);
    y += 8.5;
    // Result ticks.
    s.text(m, y, 26.0, Style::new(7.5), Align::Left, l.result);
    let mut x = m + 25.0;
    for lab in [l.black_wins, l.white_wins, l.jigo] {
        s.checkbox(x, y - 3.3, 3.6);
        let lw = s.width(lab, 7.5);
        s.text(x + 5.0, y, 20.0, Style::new(7.5), Align::Left, lab);
        x += 5.0 + lw + 5.0;
    }

    // Signatures, at the foot of the slip.
    let (sa, sb) = if table.nigiri { (l.sign_a, l.sign_b) } else { (l.sign_black, l.sign_white) };
    let sy = SLIP_H - 12.5;
    let col = w / 3.0;
    for (i, lab) in [sa, sb, l.sign_arbiter].into_iter().enumerate() {
        let x0 = m + i as f32 * col;
        s.line(x0 + 1.0, sy, x0 + col - 2.0, sy, 0.5);
        s.text(x0 + col / 2.0 - 0.5, sy + 4.0, col - 2.0, Style::grey(6.5), Align::Center, lab);
    }
}

/// A player's box: colour (or "Player A" with colour ticks), name in both scripts, rank, unit.
#[allow(clippy::too_many_arguments)]
fn player_box(
    s: &mut Slip<'_, '_>,
    l: &Labels,
    y: f32,
    label: &str,
    p: &SheetPlayer,
    nigiri: bool,
    black: Option<bool>,
    lang: Lang,
) {
    let m = 6.0;
    let w = SLIP_W - 2.0 * m;
    let h = 20.0;
    s.rect(m, y, w, h, 0.8);
    let mut lx = m + 2.5;
    if !nigiri {
        if let Some(b) = black {
            s.stone(m + 4.2, y + 4.2, 1.7, b);
            lx = m + 7.5;
        }
    }
    s.text(lx, y + 5.6, 30.0, Style::bold(8.0), Align::Left, label);
    if nigiri {
        // Ticks for the colour this player took.
        let mut x = SLIP_W - m - 38.0;
        for lab in [l.took_black, l.took_white] {
            s.checkbox(x, y + 2.6, 3.4);
            s.text(x + 4.6, y + 5.5, 14.0, Style::new(7.5), Align::Left, lab);
            x += 19.0;
        }
    }
    let primary = p.primary_name(lang);
    let secondary = p.secondary_name(lang);
    let name_size = 13.0;
    let pw = s.width(primary, name_size).min(w - 6.0);
    s.text(m + 2.5, y + 12.6, w - 5.0, Style::bold(name_size), Align::Left, primary);
    if !secondary.is_empty() {
        let sx = m + 2.5 + pw + 3.0;
        let avail = SLIP_W - m - 2.0 - sx;
        if avail > 12.0 {
            s.text(sx, y + 12.6, avail, Style::new(8.5), Align::Left, secondary);
        }
    }
    let rank = p.rank(lang);
    let line = match (rank.is_empty(), p.unit.trim().is_empty()) {
        (false, false) => format!("{rank}  ·  {}", p.unit.trim()),
        (false, true) => rank.to_string(),
        (true, false) => p.unit.trim().to_string(),
        (true, true) => String::new(),
    };
    s.text(m + 2.5, y + 17.6, w - 5.0, Style::new(7.5), Align::Left, &line);
}

#[cfg(test)]
mod tests {
    use super::super::testutil::{read, squash, tables, tournament};
    use super::super::{Lang, PdfOptions};
    use super::*;

    #[test]
    fn ten_tables_at_four_per_page_make_three_pages_with_names_and_tables() {
        let t = tournament();
        let tabs = tables(10);
        let pdf = scoresheets(&t, &tabs, SheetsPerPage::Four, &PdfOptions::new(Lang::Zh)).unwrap();
        let r = read("scoresheets_4up_zh", &pdf);
        assert_eq!(r.pages.len(), 3);
        assert!(r.every_font_has_to_unicode());
        let all = squash(&r.all_text());
        for tab in &tabs {
            assert!(all.contains(&squash(&tab.black.name_zh)), "{}", tab.black.name_zh);
            assert!(all.contains(&squash(&tab.white.name_latin)), "{}", tab.white.name_latin);
        }
        // Page 1 holds tables 1-4, page 3 tables 9 and 10.
        let p1 = squash(&r.pages[0]);
        for label in [
            "第一届天元杯业余围棋公开赛",
            "第3轮",
            "台号",
            "黑方",
            "白方",
            "黑方数子",
            "到场时间",
            "裁判签名",
        ] {
            assert!(p1.contains(label), "{label} missing on page 1: {p1}");
        }
        assert!(p1.contains(&squash(&tabs[3].white.name_zh)));
        assert!(!p1.contains(&squash(&tabs[4].black.name_zh)));
        let p3 = squash(&r.pages[2]);
        assert!(p3.contains(&squash(&tabs[8].black.name_zh)) && p3.contains(&squash(&tabs[9].white.name_zh)));
        assert!(p3.contains("台号10"), "{p3}");
        // Table 3 (index 2) is a nigiri board: no fixed colours, holder/guesser lines.
        assert!(
            p1.contains("猜先决定黑白") && p1.contains("握子") && p1.contains("猜子") && p1.contains("棋手A")
        );
        // The guesser is Player A (the first player), the holder Player B.
        assert!(p1.contains("棋手A·猜子") && p1.contains("棋手B·握子"), "{p1}");
        // Small: the font is subset to the characters used.
        assert!(pdf.len() < 120_000, "{} bytes", pdf.len());
        assert!(r.font_program_bytes() < 100_000, "{}", r.font_program_bytes());
    }

    #[test]
    fn two_per_page_in_english() {
        let t = tournament();
        let tabs = tables(5);
        let pdf = scoresheets(&t, &tabs, SheetsPerPage::Two, &PdfOptions::new(Lang::En)).unwrap();
        let r = read("scoresheets_2up_en", &pdf);
        assert_eq!(r.pages.len(), 3);
        let p1 = squash(&r.pages[0]);
        for label in
            ["1stTengenCupAmateurOpen", "Round3", "Table", "Black'scount", "Arbiter", "WangWei", "王伟"]
        {
            assert!(p1.contains(label), "{label} missing: {p1}");
        }
        let p2 = squash(&r.pages[1]);
        assert!(
            p2.contains("Black/Whitedecidedbynigiri") && p2.contains("Holder") && p2.contains("Guesser"),
            "{p2}"
        );
        // Handicap game (table 5): handicap and its own komi.
        let p3 = squash(&r.pages[2]);
        assert!(p3.contains("2stones") && p3.contains("黑贴1子"), "{p3}");
    }

    #[test]
    fn a_thousand_player_round_stays_under_a_megabyte() {
        let mut entrants = crate::domain::demo::demo_entrants(7, 1000);
        entrants.sort_by_key(|e| std::cmp::Reverse(e.rank.value()));
        let tabs: Vec<TableSheet> = entrants
            .chunks(2)
            .enumerate()
            .map(|(i, p)| TableSheet {
                table: i as u32 + 1,
                black: SheetPlayer::from_entrant(&p[1]),
                white: SheetPlayer::from_entrant(&p[0]),
                ..Default::default()
            })
            .collect();
        let pdf = scoresheets(&tournament(), &tabs, SheetsPerPage::Four, &PdfOptions::default()).unwrap();
        assert!(pdf.len() < 1024 * 1024, "{} bytes", pdf.len());
        let r = read("scoresheets_1000_players", &pdf);
        assert_eq!(r.pages.len(), 125);
        let last = squash(&r.pages[124]);
        assert!(last.contains("500") && last.contains(&squash(&tabs[499].black.name_zh)), "{last}");
        assert!(last.contains(&squash(&tabs[499].white.name_latin)));
    }

    #[test]
    fn no_tables_is_an_empty_document_not_an_error() {
        let pdf = scoresheets(&tournament(), &[], SheetsPerPage::Four, &PdfOptions::default()).unwrap();
        assert!(pdf.starts_with(b"%PDF-"));
    }
}
