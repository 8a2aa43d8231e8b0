//! The prize ceremony's papers: the prize list (获奖名单), one line per prize with its winner,
//! and the certificates (获奖证书), one A4 landscape page per winner.
//!
//! A certificate follows Chinese convention: the title 获奖证书 spaced out, the winner's name
//! large, the unit under it, the sentence 在……中荣获……, the closing 特发此证，以资鼓励, and at
//! the foot, right-aligned, the organizer's name and the date. Two templates: **classic** draws
//! a double border with corner marks and the title; **plain** prints the words alone, for
//! certificate paper that already carries its border and title.

use super::pdf::{list_heading, paper_mm, Align, Column, Doc, Frame, Style, Table};
use super::{Paper, PdfOptions, PrintError};
use crate::i18n::tr;

/// One line of the prize list.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PrizeListRow {
    pub prize: String,
    pub amount: String,
    /// Empty when nobody won it.
    pub name: String,
    pub rank: String,
    pub unit: String,
    /// The standings place ("3", "3=" when shared).
    pub place: String,
    pub score: String,
}

/// The certificate's look.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CertificateStyle {
    Classic,
    Plain,
}

/// One certificate.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Certificate {
    pub name: String,
    pub unit: String,
    pub event: String,
    pub prize: String,
    pub organizer: String,
    /// As printed ("2026年12月5日").
    pub date: String,
}

/// The prize list of `event`, with `details` (the standings it follows) under the heading.
pub fn prize_list(
    event: &str,
    details: &str,
    rows: &[PrizeListRow],
    opts: &PdfOptions<'_>,
) -> Result<Vec<u8>, PrintError> {
    let lang = opts.lang;
    let l = |k| lang.t(k);
    let columns = vec![
        Column::grow(l("prize.name")),
        Column::grow(l("prize.winner")),
        Column::new(l("e.rank"), Align::Center),
        Column::grow(l("team.unit")),
        Column::new(l("pub.place"), Align::Right),
        Column::new(l("doc.score"), Align::Right),
        Column::grow(l("prize.amount")),
    ];
    let none = l("prize.none");
    let body = rows
        .iter()
        .map(|r| {
            let name = if r.name.is_empty() { none.to_string() } else { r.name.clone() };
            vec![
                r.prize.clone(),
                name,
                r.rank.clone(),
                r.unit.clone(),
                r.place.clone(),
                r.score.clone(),
                r.amount.clone(),
            ]
        })
        .collect();
    let table = Table { columns, rows: body, size: 11.0 };
    let font = opts.font()?;
    let subtitle = l("prize.list_title");
    let title = format!("{event} {subtitle}");
    let mut doc = Doc::new(font, &title);
    let (w, h) = paper_mm(Paper::A4, false);
    let frame = Frame { paper_w: w, paper_h: h, scale: 1.0, margin: 12.0 };
    table.paginate(&mut doc, &frame, &|page, _| list_heading(page, 1.0, event, subtitle, details));
    doc.footers(lang, &title, 1.0);
    doc.finish()
}

/// One certificate per entry of `certs`, A4 landscape, in `style`.
pub fn certificates(
    certs: &[Certificate],
    style: CertificateStyle,
    opts: &PdfOptions<'_>,
) -> Result<Vec<u8>, PrintError> {
    let lang = opts.lang;
    let font = opts.font()?;
    let title = lang.t("cert.title");
    let mut doc = Doc::new(font, title);
    let (w, h) = paper_mm(Paper::A4, true);
    for c in certs {
        let page = doc.add_page(w, h);
        let mid = w / 2.0;
        if style == CertificateStyle::Classic {
            page.rect(10.0, 10.0, w - 20.0, h - 20.0, 2.4);
            page.rect(14.0, 14.0, w - 28.0, h - 28.0, 0.8);
            for (x, y) in [(14.0, 14.0), (w - 24.0, 14.0), (14.0, h - 24.0), (w - 24.0, h - 24.0)] {
                page.rect(x, y, 10.0, 10.0, 0.8);
                page.fill(x + 3.0, y + 3.0, 4.0, 4.0, 0.2);
            }
            // 获 奖 证 书: a Chinese title is spaced out.
            let spaced = if lang.is_zh() {
                title.chars().map(String::from).collect::<Vec<_>>().join("  ")
            } else {
                title.to_string()
            };
            page.text(mid, 48.0, Style::bold(40.0), Align::Center, &spaced);
        }
        page.text_fit(mid, 92.0, w - 80.0, Style::bold(44.0), Align::Center, &c.name);
        page.text_fit(mid, 106.0, w - 80.0, Style::grey(15.0), Align::Center, &c.unit);
        let body = tr!(lang, "cert.body", event = c.event.clone(), prize = c.prize.clone());
        page.text_fit(mid, 128.0, w - 60.0, Style::new(22.0), Align::Center, &body);
        page.text(mid, 145.0, Style::new(16.0), Align::Center, lang.t("cert.closing"));
        let right = w - 40.0;
        page.text_fit(right, 168.0, w / 2.0, Style::new(16.0), Align::Right, &c.organizer);
        page.text(right, 180.0, Style::new(16.0), Align::Right, &c.date);
    }
    doc.finish()
}

#[cfg(test)]
mod tests {
    use super::super::testutil::{read, squash};
    use super::super::Lang;
    use super::*;

    fn cert() -> Certificate {
        Certificate {
            name: "王芳".into(),
            unit: "杭州棋院".into(),
            event: "第一届天元杯业余围棋公开赛".into(),
            prize: "最佳女棋手".into(),
            organizer: "杭州市围棋协会".into(),
            date: "2026年12月5日".into(),
        }
    }

    /// Decision D24 (prizes): a certificate is A4 landscape with the title, the name, the
    /// unit, 在……中荣获……, the organizer and the date; the plain template leaves out the
    /// title for pre-printed paper; every glyph drawn is in the font.
    #[test]
    fn certificates_carry_the_chinese_wording_on_a4_landscape() {
        let pdf =
            certificates(&[cert(), cert()], CertificateStyle::Classic, &PdfOptions::new(Lang::Zh)).unwrap();
        let r = read("certificates_zh", &pdf);
        assert_eq!(r.pages.len(), 2);
        let (w, h) = r.page_size_mm(1).unwrap();
        assert!((w - 297.0).abs() < 1.0 && (h - 210.0).abs() < 1.0, "{w}×{h}");
        let p = squash(&r.pages[0]);
        for s in [
            "获奖证书",
            "王芳",
            "杭州棋院",
            "在第一届天元杯业余围棋公开赛中荣获最佳女棋手",
            "特发此证",
            "杭州市围棋协会",
            "2026年12月5日",
        ] {
            assert!(p.contains(s), "{s} missing: {p}");
        }
        assert!(r.glyph_report().faults.is_empty(), "{:?}", r.glyph_report());
        let plain = certificates(&[cert()], CertificateStyle::Plain, &PdfOptions::new(Lang::Zh)).unwrap();
        let p = squash(&read("certificate_plain", &plain).all_text());
        assert!(!p.contains("获奖证书") && p.contains("王芳") && p.contains("荣获最佳女棋手"), "{p}");
    }

    /// Decision D24 (prizes): the prize list names each prize, its winner or that nobody won
    /// it.
    #[test]
    fn the_prize_list_has_a_line_per_prize() {
        let rows = vec![
            PrizeListRow {
                prize: "第一名".into(),
                name: "李伟".into(),
                place: "1".into(),
                score: "10".into(),
                ..Default::default()
            },
            PrizeListRow { prize: "最佳少年棋手".into(), ..Default::default() },
        ];
        let pdf = prize_list("天元杯", "第6轮后", &rows, &PdfOptions::new(Lang::Zh)).unwrap();
        let p = squash(&read("prize_list", &pdf).all_text());
        assert!(
            p.contains("获奖名单") && p.contains("第一名李伟") && p.contains("最佳少年棋手无人获得"),
            "{p}"
        );
    }
}
