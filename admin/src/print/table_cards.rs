//! Table cards (台卡): one per board of a round, standing on the table so that players find
//! their seat and spectators the game: the table number large, both players with their rank
//! and unit, the colours (黑/白) or 猜先 when the colours are decided at the board (2002
//! Art. 10), the tournament and round, and a QR code to the round's public pairings at that
//! table.
//!
//! One face, 148.5 × 105 mm (A6 landscape), drawn at two scales:
//! - [`CardFormat::Tent`]: an A4 page folded across its middle into a tent; each half is the
//!   face √2 larger (A5), and the top half is the same face turned half a turn, so it reads
//!   from the other side of the table once folded.
//! - [`CardFormat::A6`]: four faces on an A4 landscape page, with dashed cut lines.
//!
//! The QR code's dark modules are filled squares (no image), with a quiet zone of
//! [`QUIET`] modules left white; a card without a link (no public address configured) has
//! none rather than a wrong one.

use super::pdf::{Align, Doc, Page, Style};
use super::{Lang, PdfOptions, PrintError, SheetPlayer, SheetTournament, TableSheet};
use crate::i18n::tr;

/// How the cards are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CardFormat {
    /// One card per A4 page, folded into a tent (two faces, the top one upside down).
    #[default]
    Tent,
    /// Four A6 cards per A4 landscape page, to cut apart.
    A6,
}

/// One table's card: its board and the address its QR code opens (`None`: no QR code).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TableCard {
    pub sheet: TableSheet,
    pub link: Option<String>,
    /// The card's own top (its group's name and round), in a set of several groups' cards (the
    /// hall's); `None`: the set's.
    pub head: Option<SheetTournament>,
}

/// The face's size at scale 1 (A6 landscape), in millimetres.
pub const FACE_W: f32 = 148.5;
pub const FACE_H: f32 = 105.0;
/// The white margin around a QR code, in modules (the standard asks for 4; the card's own
/// margin adds to it).
pub const QUIET: usize = 2;
/// The QR code's side at scale 1, quiet zone included, in millimetres.
const QR_SIDE: f32 = 36.0;

/// Where one face goes on its page: its top-left corner, its scale, and whether it is drawn
/// turned half a turn (the far side of a tent).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Face {
    pub ox: f32,
    pub oy: f32,
    pub k: f32,
    pub turned: bool,
}

impl CardFormat {
    /// The page size (width, height) in millimetres.
    pub fn page(self) -> (f32, f32) {
        match self {
            CardFormat::Tent => (210.0, 297.0),
            CardFormat::A6 => (297.0, 210.0),
        }
    }

    /// Cards per page.
    pub fn per_page(self) -> usize {
        match self {
            CardFormat::Tent => 1,
            CardFormat::A6 => 4,
        }
    }

    /// The faces of the `i`-th card of a page. A tent's card has two: the lower half upright,
    /// and the same face turned half a turn about the page's centre, which lands it in the
    /// upper half upside down.
    pub fn faces(self, i: usize) -> Vec<Face> {
        match self {
            CardFormat::Tent => {
                let k = std::f32::consts::SQRT_2;
                let lower = Face { ox: 0.0, oy: 297.0 / 2.0, k, turned: false };
                vec![lower, Face { turned: true, ..lower }]
            }
            CardFormat::A6 => {
                vec![Face { ox: (i % 2) as f32 * FACE_W, oy: (i / 2) as f32 * FACE_H, k: 1.0, turned: false }]
            }
        }
    }
}

/// A QR code as squares: `width` modules a side (quiet zone included), and the dark ones as
/// (column, row).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QrGrid {
    pub width: usize,
    pub dark: Vec<(usize, usize)>,
}

/// The QR code of `link` (error correction M), or `None` when it cannot hold it.
pub fn qr_grid(link: &str) -> Option<QrGrid> {
    let code = qrcode::QrCode::with_error_correction_level(link.as_bytes(), qrcode::EcLevel::M).ok()?;
    let n = code.width();
    let colors = code.to_colors();
    let dark = colors
        .iter()
        .enumerate()
        .filter(|(_, c)| **c == qrcode::Color::Dark)
        .map(|(i, _)| (i % n + QUIET, i / n + QUIET))
        .collect();
    Some(QrGrid { width: n + 2 * QUIET, dark })
}

/// The table cards of a round, in the order given (by table). Returns the PDF.
pub fn table_cards(
    t: &SheetTournament,
    cards: &[TableCard],
    format: CardFormat,
    opts: &PdfOptions<'_>,
) -> Result<Vec<u8>, PrintError> {
    let font = opts.font()?;
    let lang = opts.lang;
    let title = format!("{} {} {}", t.name(lang), t.round_label(lang), lang.t("cards.title"));
    let mut doc = Doc::new(font, &title);
    let (pw, ph) = format.page();
    for chunk in cards.chunks(format.per_page()) {
        let page = doc.add_page(pw, ph);
        match format {
            CardFormat::Tent => {
                page.dashed_line(0.0, ph / 2.0, pw, ph / 2.0, 0.4);
                let st = Style::grey(6.5);
                page.text(pw / 2.0, ph / 2.0 + 3.5, st, Align::Center, lang.t("cards.fold"));
            }
            CardFormat::A6 => {
                page.dashed_line(FACE_W, 0.0, FACE_W, ph, 0.4);
                page.dashed_line(0.0, FACE_H, pw, FACE_H, 0.4);
            }
        }
        let grids: Vec<Option<QrGrid>> = chunk.iter().map(|c| c.link.as_deref().and_then(qr_grid)).collect();
        for (i, (card, grid)) in chunk.iter().zip(&grids).enumerate() {
            for f in format.faces(i) {
                page.turn(f.turned);
                let mut face = Card { page: &mut *page, f };
                draw_face(&mut face, t, card, grid.as_ref(), lang);
            }
            page.turn(false);
        }
    }
    doc.finish()
}

/// A face's local coordinates (millimetres at scale 1) mapped onto the page.
struct Card<'a, 'f> {
    page: &'a mut Page<'f>,
    f: Face,
}

impl Card<'_, '_> {
    fn text(&mut self, x: f32, y: f32, max_w: f32, s: Style, a: Align, text: &str) {
        let Face { ox, oy, k, .. } = self.f;
        let st = Style { size: s.size * k, ..s };
        self.page.text_fit(ox + x * k, oy + y * k, max_w * k, st, a, text);
    }
    fn line(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, w: f32) {
        let Face { ox, oy, k, .. } = self.f;
        self.page.line(ox + x1 * k, oy + y1 * k, ox + x2 * k, oy + y2 * k, w);
    }
    fn stone(&mut self, x: f32, y: f32, r: f32, black: bool) {
        let Face { ox, oy, k, .. } = self.f;
        let (x, y, r) = (ox + x * k, oy + y * k, r * k);
        if black {
            self.page.dot(x, y, r, 0.0);
        } else {
            self.page.circle(x, y, r, None, 0.8);
        }
    }
    fn qr(&mut self, x: f32, y: f32, side: f32, grid: &QrGrid) {
        let Face { ox, oy, k, .. } = self.f;
        let m = side * k / grid.width as f32;
        let corners: Vec<(f32, f32)> =
            grid.dark.iter().map(|&(c, r)| (ox + x * k + c as f32 * m, oy + y * k + r as f32 * m)).collect();
        self.page.squares(&corners, m);
    }
}

const M: f32 = 7.0;
/// Where the players' column starts.
const COL: f32 = 56.0;

fn draw_face(s: &mut Card<'_, '_>, t: &SheetTournament, card: &TableCard, qr: Option<&QrGrid>, lang: Lang) {
    let table = &card.sheet;
    let t = card.head.as_ref().unwrap_or(t);
    let w = FACE_W - 2.0 * M;
    // The tournament (its group named when the event has several) and the round.
    s.text(FACE_W / 2.0, 10.5, w, Style::bold(12.0), Align::Center, t.name(lang));
    let round =
        [t.round_label(lang), t.details()].iter().filter(|x| !x.is_empty()).cloned().collect::<Vec<_>>();
    s.text(FACE_W / 2.0, 16.5, w, Style::grey(8.0), Align::Center, &round.join("  ·  "));
    s.line(M, 19.5, FACE_W - M, 19.5, 0.6);

    // The table number, as large as it fits.
    let left_w = COL - M - 4.0;
    s.text(M + left_w / 2.0, 26.5, left_w, Style::new(8.0), Align::Center, lang.t("sheet.table"));
    s.text(M + left_w / 2.0, 52.0, left_w, Style::bold(72.0), Align::Center, &table.table.to_string());
    if let Some(grid) = qr {
        let side = QR_SIDE.min(left_w);
        let x = M + (left_w - side) / 2.0;
        s.qr(x, 57.0, side, grid);
        let caption = lang.t("cards.scan");
        s.text(M + left_w / 2.0, 57.0 + side + 3.0, left_w + 4.0, Style::grey(6.0), Align::Center, caption);
    }
    s.line(COL - 2.0, 23.0, COL - 2.0, FACE_H - M, 0.4);

    // The players: Black then White, or while a nigiri is to be done, the guesser and the
    // holder under one 猜先.
    let (top, bottom) = (30.0, 68.0);
    player_block(s, top, &table.black, (!table.nigiri).then_some(true), lang);
    player_block(s, bottom, &table.white, (!table.nigiri).then_some(false), lang);
    // Between the first block's last line (top + 21) and the second's stone.
    let mid = bottom - 6.0;
    let between =
        if table.nigiri { lang.t("doc.nigiri").to_string() } else { lang.t("cards.versus").to_string() };
    let st = if table.nigiri { Style::bold(12.0) } else { Style::grey(9.0) };
    s.text(COL + (FACE_W - M - COL) / 2.0, mid, FACE_W - M - COL, st, Align::Center, &between);
    if table.handicap > 0 {
        let h = tr!(lang, "doc.handicap_stones", handicap = table.handicap);
        s.text(FACE_W - M, FACE_H - M + 1.0, 40.0, Style::bold(9.0), Align::Right, &h);
    }
}

/// One player at `y`: the colour (a stone and 黑/白) when known, the name in `lang` large, the
/// other script's name, and rank · unit; long texts shrink and then are cut to the column.
fn player_block(s: &mut Card<'_, '_>, y: f32, p: &SheetPlayer, black: Option<bool>, lang: Lang) {
    let right = FACE_W - M;
    let mut x = COL + 1.0;
    if let Some(black) = black {
        s.stone(x + 4.0, y + 5.0, 4.0, black);
        let label = lang.t(if black { "doc.black" } else { "doc.white" });
        s.text(x + 4.0, y + 14.5, 10.0, Style::bold(9.0), Align::Center, label);
        x += 11.0;
    }
    let w = right - x;
    s.text(x, y + 8.0, w, Style::bold(20.0), Align::Left, p.primary_name(lang));
    s.text(x, y + 14.5, w, Style::grey(9.0), Align::Left, p.secondary_name(lang));
    let rank_unit =
        [p.rank(lang), p.unit.trim().to_string()].into_iter().filter(|x| !x.is_empty()).collect::<Vec<_>>();
    s.text(x, y + 21.0, w, Style::new(10.0), Align::Left, &rank_unit.join("  ·  "));
}

#[cfg(test)]
mod tests {
    use super::super::testutil::{read, squash, tables, tournament};
    use super::*;

    fn cards(n: usize) -> Vec<TableCard> {
        tables(n)
            .into_iter()
            .map(|sheet| {
                let link = Some(format!("https://go.example.org/t/7/pairings/3#table-{}", sheet.table));
                TableCard { sheet, link, head: None }
            })
            .collect()
    }

    /// 2002 Art. 10: a folded tent reads from both sides of the table — the top half is the
    /// same face turned half a turn, the lower half upright; A6 cards are four upright faces.
    #[test]
    fn the_tent_turns_its_top_half_and_a6_cuts_four() {
        let tent = CardFormat::Tent.faces(0);
        assert_eq!(tent.len(), 2);
        assert!(!tent[0].turned && tent[1].turned, "{tent:?}");
        // Turned about the page's centre, the lower half's face lands in the upper half.
        assert_eq!(
            (tent[0].oy, tent[0].oy + FACE_H * tent[0].k),
            (148.5, 148.5 + 105.0 * std::f32::consts::SQRT_2)
        );
        assert!(
            (FACE_W * tent[0].k - 210.0).abs() < 0.1 && (297.0 - tent[1].oy - FACE_H * tent[1].k).abs() < 0.1
        );
        let a6: Vec<Face> = (0..4).flat_map(|i| CardFormat::A6.faces(i)).collect();
        let corners: Vec<(f32, f32)> = a6.iter().map(|f| (f.ox, f.oy)).collect();
        assert_eq!(corners, vec![(0.0, 0.0), (148.5, 0.0), (0.0, 105.0), (148.5, 105.0)]);
        assert!(a6.iter().all(|f| !f.turned && f.k == 1.0));
        assert_eq!((CardFormat::Tent.per_page(), CardFormat::A6.per_page()), (1, 4));
    }

    /// 2002 Art. 10: the QR code holds the table's public address, module for module as
    /// encoded, with its quiet zone; no address, no code.
    #[test]
    fn the_qr_grid_holds_the_address_with_a_quiet_zone() {
        let link = "https://go.example.org/t/7/pairings/3#table-12";
        let g = qr_grid(link).unwrap();
        let code = qrcode::QrCode::with_error_correction_level(link.as_bytes(), qrcode::EcLevel::M).unwrap();
        assert_eq!(g.width, code.width() + 2 * QUIET);
        let dark = code.to_colors().iter().filter(|c| **c == qrcode::Color::Dark).count();
        assert_eq!(g.dark.len(), dark);
        assert!(g
            .dark
            .iter()
            .all(|&(c, r)| (QUIET..g.width - QUIET).contains(&c) && (QUIET..g.width - QUIET).contains(&r)));
        // The finder pattern's corner module is dark, at the quiet zone's edge.
        assert!(g.dark.contains(&(QUIET, QUIET)));
        assert_ne!(qr_grid("https://go.example.org/t/7/pairings/4#table-12").unwrap(), g);
        assert!(qr_grid(&"x".repeat(5000)).is_none());
    }

    /// 2002 Art. 10: the cards name the colours (黑/白) where the draw set them and 猜先 where
    /// the players decide at the board; names that do not fit are cut, never overflow.
    #[test]
    fn cards_read_back_with_colours_or_nigiri_and_names_cut_to_fit() {
        let t = tournament();
        let mut cs = cards(3);
        cs[0].sheet.black.name_zh = "欧阳".to_string() + &"长".repeat(30);
        for (format, pages) in [(CardFormat::Tent, 3), (CardFormat::A6, 1)] {
            let pdf = table_cards(&t, &cs, format, &PdfOptions::new(Lang::Zh)).unwrap();
            let back = read(&format!("cards-{format:?}"), &pdf);
            assert_eq!(back.pages.len(), pages, "{format:?}");
            let text = squash(&back.all_text());
            assert!(text.contains("台号") && text.contains("黑") && text.contains("白"), "{text}");
            // Table 3 is a nigiri board (the sample's every third).
            assert_eq!(
                text.matches("猜先").count(),
                if format == CardFormat::Tent { 2 } else { 1 },
                "{text}"
            );
            assert!(text.contains("欧阳长") && text.contains('…'), "{text}");
            assert!(!text.contains(&"长".repeat(30)), "cut to fit: {text}");
            assert!(text.contains("业余"), "Chinese ranks: {text}");
            let report = back.glyph_report();
            assert!(report.faults.is_empty(), "{:?}", report.faults);
        }
        // The tent's first page: the face twice (upright and turned).
        let pdf = table_cards(&t, &cs[1..2], CardFormat::Tent, &PdfOptions::new(Lang::En)).unwrap();
        let text = squash(&read("cards-en", &pdf).all_text());
        assert_eq!(text.matches(&cs[1].sheet.black.name_latin.replace(' ', "")).count(), 2, "{text}");
    }
}
