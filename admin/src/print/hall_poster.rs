//! The hall poster (大厅海报): one page per event, A4 or A3 portrait, put up at the venue's door
//! and on the hall's walls so that players and parents open the event on their phones. The
//! event's name (both scripts), venue and dates; a large QR code of the event's public page
//! (pairings, results and standings of every group); and, once staff have set the day's
//! check-in code, a second QR code that opens the phone check-in form with the code filled in,
//! the code also printed large for those who type it.
//!
//! The QR codes are [`super::table_cards::qr_grid`]'s, drawn as filled squares; a poster
//! without the public address (no `--public-url`) has no codes rather than wrong ones, and
//! says so in small type.

use super::pdf::{Align, Doc, Style};
use super::table_cards::{qr_grid, QrGrid};
use super::{PdfOptions, PrintError};

/// What the poster shows. Texts are printed as given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HallPoster {
    /// The event's name in the print language, and in the other script (empty: the same).
    pub name: String,
    pub other_name: String,
    pub venue: String,
    /// e.g. "2026-12-05 – 2026-12-07".
    pub dates: String,
    /// The event's public page (absolute); `None`: no public address configured.
    pub page_link: Option<String>,
    /// The check-in code players type at the venue; `None`: none set yet.
    pub code: Option<String>,
    /// The phone check-in form with the code filled in (absolute); `None` without a code or
    /// without a public address.
    pub check_in_link: Option<String>,
}

/// A4's layout, in millimetres; A3 draws it √2 larger.
const W: f32 = 210.0;
const H: f32 = 297.0;
const M: f32 = 16.0;
/// The public page's code, quiet zone included.
const PAGE_QR: f32 = 112.0;
/// The check-in form's code, quiet zone included.
const CHECK_IN_QR: f32 = 58.0;
/// Where the public page's code starts.
const PAGE_QR_TOP: f32 = 62.0;
/// Where the check-in part starts.
const CHECK_IN_TOP: f32 = 196.0;

/// The two QR codes a poster draws (public page, check-in form), as laid out by [`hall_poster`]:
/// tests decode these.
pub fn poster_grids(p: &HallPoster) -> (Option<QrGrid>, Option<QrGrid>) {
    (p.page_link.as_deref().and_then(qr_grid), p.check_in_link.as_deref().and_then(qr_grid))
}

/// The poster, one page of `paper` (A4 or A3 portrait).
pub fn hall_poster(p: &HallPoster, opts: &PdfOptions<'_>) -> Result<Vec<u8>, PrintError> {
    let font = opts.font()?;
    let lang = opts.lang;
    let k = opts.paper.scale();
    let title = format!("{} {}", p.name, lang.t("poster.title"));
    let mut doc = Doc::new(font, &title);
    let page = doc.add_page(W * k, H * k);
    let cx = W * k / 2.0;
    let st = |s: Style| Style { size: s.size * k, ..s };
    let width = (W - 2.0 * M) * k;

    // The event.
    page.text_fit(cx, 30.0 * k, width, st(Style::bold(30.0)), Align::Center, &p.name);
    if !p.other_name.is_empty() && p.other_name != p.name {
        page.text_fit(cx, 40.0 * k, width, st(Style::grey(14.0)), Align::Center, &p.other_name);
    }
    let facts = [p.venue.trim(), p.dates.trim()].into_iter().filter(|s| !s.is_empty()).collect::<Vec<_>>();
    page.text_fit(cx, 50.0 * k, width, st(Style::new(13.0)), Align::Center, &facts.join("  ·  "));
    page.line(M * k, 55.0 * k, (W - M) * k, 55.0 * k, 0.8 * k);

    let (page_grid, check_in_grid) = poster_grids(p);
    // The public page: the large code and what it opens.
    match &page_grid {
        Some(g) => {
            draw_qr(page, (W - PAGE_QR) / 2.0 * k, PAGE_QR_TOP * k, PAGE_QR * k, g);
            let y = (PAGE_QR_TOP + PAGE_QR + 8.0) * k;
            page.text_fit(cx, y, width, st(Style::bold(16.0)), Align::Center, lang.t("poster.scan_page"));
            let link = p.page_link.as_deref().unwrap_or_default();
            page.text_fit(cx, y + 7.0 * k, width, st(Style::grey(10.0)), Align::Center, link);
        }
        None => {
            let y = (PAGE_QR_TOP + PAGE_QR / 2.0) * k;
            page.text_fit(cx, y, width, st(Style::grey(11.0)), Align::Center, lang.t("poster.no_public_url"));
        }
    }
    page.line(M * k, (CHECK_IN_TOP - 6.0) * k, (W - M) * k, (CHECK_IN_TOP - 6.0) * k, 0.4 * k);

    // Check-in: the code to type, large, beside the code that fills it in.
    let text_x = match &check_in_grid {
        Some(g) => {
            draw_qr(page, M * k, CHECK_IN_TOP * k, CHECK_IN_QR * k, g);
            (M + CHECK_IN_QR + 8.0) * k
        }
        None => M * k,
    };
    let text_w = (W - M) * k - text_x;
    let top = CHECK_IN_TOP * k;
    page.text_fit(
        text_x,
        top + 12.0 * k,
        text_w,
        st(Style::bold(18.0)),
        Align::Left,
        lang.t("poster.check_in"),
    );
    match &p.code {
        Some(code) => {
            page.text_fit(
                text_x,
                top + 26.0 * k,
                text_w,
                st(Style::new(11.0)),
                Align::Left,
                lang.t("poster.code"),
            );
            page.text_fit(text_x, top + 46.0 * k, text_w, st(Style::bold(48.0)), Align::Left, code);
            let hint =
                lang.t(if check_in_grid.is_some() { "poster.check_in_scan" } else { "poster.check_in_type" });
            page.text_fit(text_x, top + 56.0 * k, text_w, st(Style::grey(10.0)), Align::Left, hint);
        }
        None => {
            page.text_fit(
                text_x,
                top + 26.0 * k,
                text_w,
                st(Style::grey(11.0)),
                Align::Left,
                lang.t("poster.no_code"),
            );
        }
    }
    page.text(cx, (H - 10.0) * k, st(Style::grey(8.0)), Align::Center, lang.t("app.name"));
    doc.finish()
}

/// `grid`'s dark modules as squares in a `side` square at (`x`, `y`) (page millimetres).
fn draw_qr(page: &mut super::pdf::Page<'_>, x: f32, y: f32, side: f32, grid: &QrGrid) {
    let m = side / grid.width as f32;
    let corners: Vec<(f32, f32)> =
        grid.dark.iter().map(|&(c, r)| (x + c as f32 * m, y + r as f32 * m)).collect();
    page.squares(&corners, m);
}

#[cfg(test)]
mod tests {
    use super::super::testutil::{read, squash};
    use super::super::{Lang, Paper};
    use super::*;

    fn poster() -> HallPoster {
        HallPoster {
            name: "第一届天元杯业余围棋公开赛".into(),
            other_name: "1st Tengen Cup Amateur Open".into(),
            venue: "北京棋院".into(),
            dates: "2026-12-05 – 2026-12-07".into(),
            page_link: Some("https://go.example.org/e/3".into()),
            code: Some("4721".into()),
            check_in_link: Some("https://go.example.org/t/7/check-in/self?code=4721".into()),
        }
    }

    /// Reads a grid back as a scanner would: 4 pixels a module, through rqrr.
    fn decode(g: &QrGrid) -> String {
        let dark: std::collections::HashSet<(usize, usize)> = g.dark.iter().copied().collect();
        let px = 4;
        let mut img = rqrr::PreparedImage::prepare_from_greyscale(g.width * px, g.width * px, |x, y| {
            if dark.contains(&(x / px, y / px)) {
                0
            } else {
                255
            }
        });
        let grids = img.detect_grids();
        assert_eq!(grids.len(), 1, "one QR code");
        grids[0].decode().expect("a readable QR code").1
    }

    /// Operations (no rule article; the event's one check-in code is decision D27's): the poster's
    /// codes open the event's public page and the phone check-in form with the code filled in, both
    /// read back by a QR decoder; the code is printed large beside them.
    #[test]
    fn the_posters_codes_open_the_public_page_and_the_filled_check_in_form() {
        let p = poster();
        let (page, check_in) = poster_grids(&p);
        assert_eq!(decode(&page.unwrap()), "https://go.example.org/e/3");
        assert_eq!(decode(&check_in.unwrap()), "https://go.example.org/t/7/check-in/self?code=4721");
        for (lang, words) in [(Lang::Zh, ["签到码", "扫码"]), (Lang::En, ["Check-incode", "Scan"])] {
            let pdf = hall_poster(&p, &PdfOptions::new(lang)).unwrap();
            let back = read(&format!("poster-{lang:?}"), &pdf);
            assert_eq!(back.pages.len(), 1);
            let text = squash(&back.all_text());
            assert!(text.contains("第一届天元杯业余围棋公开赛") && text.contains("北京棋院"), "{text}");
            assert!(text.contains("4721") && text.contains("2026-12-05"), "{text}");
            for w in words {
                assert!(text.contains(w), "{w}: {text}");
            }
            assert!(back.glyph_report().faults.is_empty(), "{:?}", back.glyph_report().faults);
        }
    }

    /// Operations (no rule article): without a public address the poster has no codes (rather than
    /// wrong ones) and says so; without a check-in code it says none is set; A3 is the A4 page √2
    /// larger.
    #[test]
    fn a_poster_without_an_address_or_a_code_says_so_and_a3_is_larger() {
        let p = HallPoster { page_link: None, check_in_link: None, code: None, ..poster() };
        assert_eq!(poster_grids(&p), (None, None));
        let pdf = hall_poster(&p, &PdfOptions::new(Lang::Zh)).unwrap();
        let text = squash(&read("poster-bare", &pdf).all_text());
        assert!(text.contains("--public-url") && text.contains("未设"), "{text}");
        let a3 = PdfOptions { paper: Paper::A3, ..PdfOptions::new(Lang::En) };
        let back = read("poster-a3", &hall_poster(&poster(), &a3).unwrap());
        assert_eq!(back.page_size_mm(1).map(|(w, h)| (w.round(), h.round())), Some((297.0, 420.0)));
    }
}
