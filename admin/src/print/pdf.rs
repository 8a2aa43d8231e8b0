//! Shared layout helpers over printpdf's op lists: pages in millimetres from the top-left
//! corner, text (CJK and Latin from one font) measured and fitted, lines, boxes, and paginated
//! tables with a repeated header row and "page x of y" footers.
//!
//! Each [`Page`] keeps its drawing and its text apart; the text is emitted last inside a single
//! `BT … ET` with absolute text matrices, which keeps content streams small (a 500-sheet round is
//! well under a megabyte). [`Doc::finish`] collects the characters actually drawn, subsets the font
//! to them and serializes the document.

use super::font::FontFace;
use super::{Lang, Paper, PrintError};
use crate::i18n::tr;
use printpdf::{
    Color, FontId, Greyscale, Line, LineDashPattern, LinePoint, Mm, Op, PaintMode, PdfDocument,
    PdfFontHandle, PdfPage, PdfSaveOptions, Point, Pt, Rect, TextItem, TextMatrix, TextRenderingMode,
};
use std::collections::BTreeSet;

/// Points per millimetre.
pub(crate) const PT_PER_MM: f32 = 72.0 / 25.4;
/// The resource name of the document's single font.
const FONT_RES: &str = "F1";

/// Horizontal alignment of a text at its anchor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Align {
    Left,
    Center,
    Right,
}

/// How a text is painted.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Style {
    /// Size in points.
    pub size: f32,
    /// Faux bold (fill and stroke the glyph outlines).
    pub bold: bool,
    /// Grey level, 0 = black.
    pub grey: f32,
}

impl Style {
    pub fn new(size: f32) -> Style {
        Style { size, bold: false, grey: 0.0 }
    }
    pub fn bold(size: f32) -> Style {
        Style { size, bold: true, grey: 0.0 }
    }
    pub fn grey(size: f32) -> Style {
        Style { size, bold: false, grey: 0.35 }
    }
}

/// Paper size in millimetres (width, height).
pub(crate) fn paper_mm(paper: Paper, landscape: bool) -> (f32, f32) {
    let (w, h) = match paper {
        Paper::A4 => (210.0, 297.0),
        Paper::A3 => (297.0, 420.0),
    };
    if landscape {
        (h, w)
    } else {
        (w, h)
    }
}

/// One page being laid out. Coordinates are millimetres from the top-left corner; a text's
/// `y` is its baseline.
pub(crate) struct Page<'f> {
    font: &'f FontFace,
    pub w: f32,
    pub h: f32,
    gfx: Vec<Op>,
    text: Vec<Op>,
    text_size: f32,
    text_bold: bool,
    text_grey: f32,
    line_width: f32,
    dashed: bool,
    /// Drawing turned half a turn about the page's centre (the far face of a folded table
    /// card): what is drawn at (x, y) lands at (w − x, h − y), upside down.
    turned: bool,
}

impl<'f> Page<'f> {
    fn new(font: &'f FontFace, w: f32, h: f32) -> Page<'f> {
        Page {
            font,
            w,
            h,
            gfx: Vec::with_capacity(64),
            text: Vec::with_capacity(256),
            text_size: 0.0,
            text_bold: false,
            text_grey: 0.0,
            line_width: -1.0,
            dashed: false,
            turned: false,
        }
    }

    /// From now on, draw turned half a turn about the page's centre (`true`) or upright.
    pub fn turn(&mut self, turned: bool) {
        self.turned = turned;
    }

    fn pt(&self, x: f32, y: f32) -> Point {
        let (x, y) = if self.turned { (self.w - x, self.h - y) } else { (x, y) };
        Point { x: Pt(x * PT_PER_MM), y: Pt((self.h - y) * PT_PER_MM) }
    }

    /// The lower-left corner, in PDF space, of the box whose top-left corner is (`x`, `y`).
    fn corner(&self, x: f32, y: f32, w: f32, h: f32) -> Point {
        if self.turned {
            self.pt(x + w, y)
        } else {
            self.pt(x, y + h)
        }
    }

    /// Width of `s` at `size` points, in millimetres.
    pub fn width(&self, s: &str, size: f32) -> f32 {
        self.font.text_width_pt(s, size) / PT_PER_MM
    }

    /// Draws `s` with its baseline at `y`, anchored at `x` by `align`.
    pub fn text(&mut self, x: f32, y: f32, style: Style, align: Align, s: &str) {
        if s.is_empty() {
            return;
        }
        let w = self.width(s, style.size);
        let x0 = match align {
            Align::Left => x,
            Align::Center => x - w / 2.0,
            Align::Right => x - w,
        };
        if style.size != self.text_size {
            self.text.push(Op::SetFont {
                font: PdfFontHandle::External(FontId(FONT_RES.into())),
                size: Pt(style.size),
            });
            self.text_size = style.size;
        }
        if style.bold != self.text_bold {
            if style.bold {
                self.text.push(Op::SetOutlineThickness { pt: Pt(0.3) });
                self.line_width = 0.3;
                self.text.push(Op::SetTextRenderingMode { mode: TextRenderingMode::FillStroke });
            } else {
                self.text.push(Op::SetTextRenderingMode { mode: TextRenderingMode::Fill });
            }
            self.text_bold = style.bold;
        }
        if style.grey != self.text_grey {
            self.text.push(Op::SetFillColor { col: grey(style.grey) });
            if style.bold || self.text_bold {
                self.text.push(Op::SetOutlineColor { col: grey(style.grey) });
            }
            self.text_grey = style.grey;
        }
        let p = self.pt(x0, y);
        let matrix = if self.turned {
            TextMatrix::Raw([-1.0, 0.0, 0.0, -1.0, p.x.0, p.y.0])
        } else {
            TextMatrix::Translate(p.x, p.y)
        };
        self.text.push(Op::SetTextMatrix { matrix });
        self.text.push(Op::ShowText { items: vec![TextItem::Text(s.to_string())] });
    }

    /// Like [`Page::text`], but shrinks the size (down to 60%) and then cuts the text with "…"
    /// so that it fits in `max_w` millimetres.
    pub fn text_fit(&mut self, x: f32, y: f32, max_w: f32, style: Style, align: Align, s: &str) {
        // A little slack, so that a column sized to its widest cell never cuts that cell.
        let max_w = max_w + 0.05;
        let w = self.width(s, style.size);
        if w <= max_w || max_w <= 0.05 {
            return self.text(x, y, style, align, s);
        }
        let min_size = style.size * 0.6;
        let size = (style.size * max_w / w).max(min_size);
        let st = Style { size, ..style };
        if self.width(s, size) <= max_w {
            return self.text(x, y, st, align, s);
        }
        let mut cut: String = s.to_string();
        while !cut.is_empty() && self.width(&format!("{cut}…"), size) > max_w {
            cut.pop();
        }
        let cut = format!("{}…", cut.trim_end());
        self.text(x, y, st, align, &cut);
    }

    fn set_line(&mut self, width_pt: f32, dashed: bool) {
        if width_pt != self.line_width {
            self.gfx.push(Op::SetOutlineThickness { pt: Pt(width_pt) });
            self.line_width = width_pt;
        }
        if dashed != self.dashed {
            let dash = if dashed { LineDashPattern::new(0.0, &[3.0, 2.0]) } else { LineDashPattern::solid() };
            self.gfx.push(Op::SetLineDashPattern { dash });
            self.dashed = dashed;
        }
    }

    /// A straight line, `width_pt` thick.
    pub fn line(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, width_pt: f32) {
        self.set_line(width_pt, false);
        let line = Line {
            points: vec![
                LinePoint { p: self.pt(x1, y1), bezier: false },
                LinePoint { p: self.pt(x2, y2), bezier: false },
            ],
            is_closed: false,
        };
        self.gfx.push(Op::DrawLine { line });
    }

    /// A dashed line (cut marks between sheets).
    pub fn dashed_line(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, width_pt: f32) {
        self.set_line(width_pt, true);
        let line = Line {
            points: vec![
                LinePoint { p: self.pt(x1, y1), bezier: false },
                LinePoint { p: self.pt(x2, y2), bezier: false },
            ],
            is_closed: false,
        };
        self.gfx.push(Op::DrawLine { line });
    }

    /// The outline of a box whose top-left corner is (`x`, `y`).
    pub fn rect(&mut self, x: f32, y: f32, w: f32, h: f32, width_pt: f32) {
        self.set_line(width_pt, false);
        let p = self.corner(x, y, w, h);
        let rectangle = Rect {
            x: p.x,
            y: p.y,
            width: Pt(w * PT_PER_MM),
            height: Pt(h * PT_PER_MM),
            mode: Some(PaintMode::Stroke),
            winding_order: None,
        };
        self.gfx.push(Op::DrawRectangle { rectangle });
    }

    /// A filled grey box (table stripes, header shading); `level` 0 = black, 1 = white.
    pub fn fill(&mut self, x: f32, y: f32, w: f32, h: f32, level: f32) {
        let p = self.corner(x, y, w, h);
        self.gfx.push(Op::SetFillColor { col: grey(level) });
        let rectangle = Rect {
            x: p.x,
            y: p.y,
            width: Pt(w * PT_PER_MM),
            height: Pt(h * PT_PER_MM),
            mode: Some(PaintMode::Fill),
            winding_order: None,
        };
        self.gfx.push(Op::DrawRectangle { rectangle });
        self.gfx.push(Op::SetFillColor { col: grey(0.0) });
    }

    /// Black squares of side `side` with their top-left corners at `corners` (a QR code's
    /// dark modules), one fill colour for all.
    pub fn squares(&mut self, corners: &[(f32, f32)], side: f32) {
        self.gfx.push(Op::SetFillColor { col: grey(0.0) });
        for &(x, y) in corners {
            let p = self.corner(x, y, side, side);
            let rectangle = Rect {
                x: p.x,
                y: p.y,
                width: Pt(side * PT_PER_MM),
                height: Pt(side * PT_PER_MM),
                mode: Some(PaintMode::Fill),
                winding_order: None,
            };
            self.gfx.push(Op::DrawRectangle { rectangle });
        }
    }

    /// A small filled circle (star points on a Go board, the black stone sign).
    pub fn dot(&mut self, x: f32, y: f32, r: f32, level: f32) {
        self.circle(x, y, r, Some(level), 0.0);
    }

    /// A circle outline (the white stone sign), or filled when `fill` is given.
    pub fn circle(&mut self, x: f32, y: f32, r: f32, fill: Option<f32>, width_pt: f32) {
        // Four Bézier quarter arcs.
        const K: f32 = 0.552_284_8;
        let c = |dx: f32, dy: f32| LinePoint { p: self.pt(x + dx, y + dy), bezier: false };
        let b = |dx: f32, dy: f32| LinePoint { p: self.pt(x + dx, y + dy), bezier: true };
        let k = K * r;
        let points = vec![
            c(r, 0.0),
            b(r, k),
            b(k, r),
            c(0.0, r),
            b(-k, r),
            b(-r, k),
            c(-r, 0.0),
            b(-r, -k),
            b(-k, -r),
            c(0.0, -r),
            b(k, -r),
            b(r, -k),
            c(r, 0.0),
        ];
        match fill {
            Some(level) => {
                self.gfx.push(Op::SetFillColor { col: grey(level) });
                self.gfx.push(Op::DrawPolygon {
                    polygon: printpdf::Polygon {
                        rings: vec![printpdf::PolygonRing { points }],
                        mode: PaintMode::Fill,
                        winding_order: printpdf::WindingOrder::NonZero,
                    },
                });
                self.gfx.push(Op::SetFillColor { col: grey(0.0) });
            }
            None => {
                self.set_line(width_pt, false);
                self.gfx.push(Op::DrawLine { line: Line { points, is_closed: true } });
            }
        }
    }

    /// A ticking box of side `s` with its top-left corner at (`x`, `y`).
    pub fn checkbox(&mut self, x: f32, y: f32, s: f32) {
        self.rect(x, y, s, s, 0.6);
    }

    fn into_pdf_page(self) -> PdfPage {
        let mut ops = self.gfx;
        if !self.text.is_empty() {
            ops.reserve(self.text.len() + 2);
            ops.push(Op::StartTextSection);
            ops.extend(self.text);
            ops.push(Op::EndTextSection);
        }
        PdfPage::new(Mm(self.w), Mm(self.h), ops)
    }
}

fn grey(level: f32) -> Color {
    Color::Greyscale(Greyscale { percent: level, icc_profile: None })
}

/// A document being laid out: its pages and the font they use.
pub(crate) struct Doc<'f> {
    pub font: &'f FontFace,
    pub pages: Vec<Page<'f>>,
    title: String,
}

impl<'f> Doc<'f> {
    pub fn new(font: &'f FontFace, title: &str) -> Doc<'f> {
        Doc { font, pages: Vec::new(), title: title.to_string() }
    }

    /// Adds an empty page `w` × `h` millimetres and returns it.
    pub fn add_page(&mut self, w: f32, h: f32) -> &mut Page<'f> {
        self.pages.push(Page::new(self.font, w, h));
        self.pages.last_mut().expect("just pushed")
    }

    /// Writes "page x / y" (or "第x页 共y页") at the foot of every page, with `left` on the
    /// left of each footer.
    pub fn footers(&mut self, lang: Lang, left: &str, scale: f32) {
        let n = self.pages.len();
        for (i, p) in self.pages.iter_mut().enumerate() {
            let y = p.h - 7.0 * scale;
            let st = Style::grey(7.5 * scale);
            let right = tr!(lang, "doc.page_of", page = i + 1, pages = n);
            let margin = 12.0 * scale;
            p.text_fit(margin, y, p.w * 0.6, st, Align::Left, left);
            p.text(p.w - margin, y, st, Align::Right, &right);
        }
    }

    /// Subsets the font to the characters drawn and serializes the PDF.
    pub fn finish(self) -> Result<Vec<u8>, PrintError> {
        let mut chars = BTreeSet::new();
        for p in &self.pages {
            for op in &p.text {
                if let Op::ShowText { items } = op {
                    for it in items {
                        if let TextItem::Text(t) = it {
                            chars.extend(t.chars());
                        }
                    }
                }
            }
        }
        let sub = self.font.subset(&chars)?;
        let mut doc = PdfDocument::new(&self.title);
        doc.metadata.info.creator = "Tengen 天元".into();
        doc.metadata.info.producer = "Tengen 天元 (printpdf)".into();
        doc.resources.fonts.map.insert(FontId(FONT_RES.into()), printpdf::PdfFont::new(sub.parsed));
        let pages: Vec<PdfPage> = self.pages.into_iter().map(Page::into_pdf_page).collect();
        doc.with_pages(pages);
        let mut warnings = Vec::new();
        let opts =
            PdfSaveOptions { optimize: true, subset_fonts: false, secure: true, image_optimization: None };
        let bytes = doc.save(&opts, &mut warnings);
        if let Some(w) = warnings.iter().find(|w| w.severity == printpdf::PdfParseErrorSeverity::Error) {
            return Err(PrintError::Pdf(w.msg.clone()));
        }
        Ok(bytes)
    }
}

// ---------------------------------------------------------------------------------------------
// Tables

/// One column of a [`Table`].
#[derive(Clone, Debug)]
pub(crate) struct Column {
    pub title: String,
    pub align: Align,
    /// Takes the spare width (names, units).
    pub grow: bool,
}

impl Column {
    pub fn new(title: &str, align: Align) -> Column {
        Column { title: title.to_string(), align, grow: false }
    }
    pub fn grow(title: &str) -> Column {
        Column { title: title.to_string(), align: Align::Left, grow: true }
    }
}

/// A table to lay out over as many pages as it needs.
pub(crate) struct Table {
    pub columns: Vec<Column>,
    pub rows: Vec<Vec<String>>,
    /// Text size in points at scale 1.
    pub size: f32,
}

/// Where and how big the tables go on each page.
pub(crate) struct Frame {
    pub paper_w: f32,
    pub paper_h: f32,
    pub scale: f32,
    pub margin: f32,
}

const CELL_PAD: f32 = 1.6;

impl Table {
    /// Column widths in millimetres for `avail` millimetres, and the text size that fits.
    fn widths(&self, font: &FontFace, avail: f32, scale: f32) -> (Vec<f32>, f32) {
        let mut size = self.size * scale;
        let natural = |size: f32| -> Vec<f32> {
            self.columns
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    let head = font.text_width_pt(&c.title, size * 0.9);
                    let body = self
                        .rows
                        .iter()
                        .map(|r| r.get(i).map_or(0.0, |s| font.text_width_pt(s, size)))
                        .fold(0.0f32, f32::max);
                    head.max(body) / PT_PER_MM + 2.0 * CELL_PAD * scale
                })
                .collect()
        };
        let mut w = natural(size);
        let total: f32 = w.iter().sum();
        if total > avail {
            // Shrink the text (not below 65%); what still does not fit is cut in the cells. The
            // padding does not shrink with the text: the factor is the text's own.
            let pad = self.columns.len() as f32 * 2.0 * CELL_PAD * scale;
            let f = ((avail - pad) / (total - pad) * 0.999).clamp(0.65, 1.0);
            size *= f;
            w = natural(size);
            let total: f32 = w.iter().sum();
            if total > avail {
                // Take the excess from the growing columns first, then from all.
                let excess = total - avail;
                let grow_total: f32 =
                    w.iter().zip(&self.columns).filter(|(_, c)| c.grow).map(|(w, _)| *w).sum();
                if grow_total > excess * 1.5 {
                    for (wi, c) in w.iter_mut().zip(&self.columns) {
                        if c.grow {
                            *wi -= excess * *wi / grow_total;
                        }
                    }
                } else {
                    for wi in w.iter_mut() {
                        *wi *= avail / total;
                    }
                }
            }
        } else {
            let spare = avail - total;
            let growers = self.columns.iter().filter(|c| c.grow).count();
            if growers > 0 {
                for (wi, c) in w.iter_mut().zip(&self.columns) {
                    if c.grow {
                        *wi += spare / growers as f32;
                    }
                }
            } else {
                for wi in w.iter_mut() {
                    *wi += spare / self.columns.len() as f32;
                }
            }
        }
        (w, size)
    }

    /// Lays the table out on new pages of `doc`. `header` draws each page's heading and returns
    /// the y where the table starts. Returns the number of pages added.
    pub fn paginate<'f>(
        &self,
        doc: &mut Doc<'f>,
        frame: &Frame,
        header: &dyn Fn(&mut Page<'f>, usize) -> f32,
    ) -> usize {
        let s = frame.scale;
        let x0 = frame.margin;
        let avail = frame.paper_w - 2.0 * frame.margin;
        let (widths, size) = self.widths(doc.font, avail, s);
        let row_h = size / PT_PER_MM * 1.75;
        let head_h = row_h * 1.15;
        let bottom = frame.paper_h - frame.margin - 6.0 * s;
        let mut added = 0;
        let mut next = 0usize;
        loop {
            let page = doc.add_page(frame.paper_w, frame.paper_h);
            added += 1;
            let top = header(page, added);
            let mut y = top;
            // Header row.
            page.fill(x0, y, avail, head_h, 0.85);
            let mut x = x0;
            for (c, w) in self.columns.iter().zip(&widths) {
                let tx = match c.align {
                    Align::Left => x + CELL_PAD * s,
                    Align::Center => x + w / 2.0,
                    Align::Right => x + w - CELL_PAD * s,
                };
                page.text_fit(
                    tx,
                    y + head_h * 0.68,
                    w - 2.0 * CELL_PAD * s,
                    Style::bold(size * 0.9),
                    c.align,
                    &c.title,
                );
                x += w;
            }
            y += head_h;
            let first = next;
            while next < self.rows.len() && y + row_h <= bottom {
                let row = &self.rows[next];
                if (next - first) % 2 == 1 {
                    page.fill(x0, y, avail, row_h, 0.94);
                }
                let mut x = x0;
                for ((c, w), cell) in self.columns.iter().zip(&widths).zip(row) {
                    let tx = match c.align {
                        Align::Left => x + CELL_PAD * s,
                        Align::Center => x + w / 2.0,
                        Align::Right => x + w - CELL_PAD * s,
                    };
                    page.text_fit(
                        tx,
                        y + row_h * 0.7,
                        w - 2.0 * CELL_PAD * s,
                        Style::new(size),
                        c.align,
                        cell,
                    );
                    x += w;
                }
                y += row_h;
                next += 1;
            }
            // Grid: outer box, column rules, a rule under the header.
            page.rect(x0, top, avail, y - top, 0.8);
            page.line(x0, top + head_h, x0 + avail, top + head_h, 0.6);
            let mut x = x0;
            for w in &widths[..widths.len().saturating_sub(1)] {
                x += w;
                page.line(x, top, x, y, 0.3);
            }
            if next >= self.rows.len() {
                break;
            }
            if next == first {
                // Not even one row fits under this header: stop rather than loop forever.
                break;
            }
        }
        added
    }
}

impl Table {
    /// Draws the table from `y` on the last page of `doc` (a new page if there is none),
    /// continuing on new pages as needed; `new_page` draws each new page's heading and returns
    /// the y to go on from. The header row repeats on every page. Returns the y below the table.
    pub fn flow<'f>(
        &self,
        doc: &mut Doc<'f>,
        frame: &Frame,
        y: f32,
        new_page: &dyn Fn(&mut Page<'f>) -> f32,
    ) -> f32 {
        let s = frame.scale;
        let x0 = frame.margin;
        let avail = frame.paper_w - 2.0 * frame.margin;
        let (widths, size) = self.widths(doc.font, avail, s);
        let row_h = size / PT_PER_MM * 1.75;
        let head_h = row_h * 1.15;
        let bottom = frame.paper_h - frame.margin - 6.0 * s;
        if doc.pages.is_empty() {
            let page = doc.add_page(frame.paper_w, frame.paper_h);
            let _ = new_page(page);
        }
        let mut top = y;
        // Keep the header with at least one row.
        if top + head_h + row_h > bottom {
            let page = doc.add_page(frame.paper_w, frame.paper_h);
            top = new_page(page);
        }
        let mut next = 0usize;
        loop {
            let page = doc.pages.last_mut().expect("a page");
            let mut y = top;
            page.fill(x0, y, avail, head_h, 0.85);
            let mut x = x0;
            for (c, w) in self.columns.iter().zip(&widths) {
                let tx = match c.align {
                    Align::Left => x + CELL_PAD * s,
                    Align::Center => x + w / 2.0,
                    Align::Right => x + w - CELL_PAD * s,
                };
                let st = Style::bold(size * 0.9);
                page.text_fit(tx, y + head_h * 0.68, w - 2.0 * CELL_PAD * s, st, c.align, &c.title);
                x += w;
            }
            y += head_h;
            let first = next;
            while next < self.rows.len() && y + row_h <= bottom {
                if (next - first) % 2 == 1 {
                    page.fill(x0, y, avail, row_h, 0.94);
                }
                let mut x = x0;
                for ((c, w), cell) in self.columns.iter().zip(&widths).zip(&self.rows[next]) {
                    let tx = match c.align {
                        Align::Left => x + CELL_PAD * s,
                        Align::Center => x + w / 2.0,
                        Align::Right => x + w - CELL_PAD * s,
                    };
                    page.text_fit(
                        tx,
                        y + row_h * 0.7,
                        w - 2.0 * CELL_PAD * s,
                        Style::new(size),
                        c.align,
                        cell,
                    );
                    x += w;
                }
                y += row_h;
                next += 1;
            }
            page.rect(x0, top, avail, y - top, 0.8);
            page.line(x0, top + head_h, x0 + avail, top + head_h, 0.6);
            let mut x = x0;
            for w in &widths[..widths.len().saturating_sub(1)] {
                x += w;
                page.line(x, top, x, y, 0.3);
            }
            if next >= self.rows.len() || next == first {
                return y;
            }
            let page = doc.add_page(frame.paper_w, frame.paper_h);
            top = new_page(page);
        }
    }
}

/// The heading of a list page: tournament name, the document's title, and lines of details
/// (`details` may hold several lines).
/// Returns the y below it.
pub(crate) fn list_heading(
    page: &mut Page<'_>,
    scale: f32,
    title: &str,
    subtitle: &str,
    details: &str,
) -> f32 {
    let s = scale;
    let m = 12.0 * s;
    let cx = page.w / 2.0;
    let mut y = m + 6.0 * s;
    let w = page.w - 2.0 * m;
    page.text_fit(cx, y, w, Style::bold(15.0 * s), Align::Center, title);
    y += 7.5 * s;
    page.text_fit(cx, y, w, Style::bold(12.0 * s), Align::Center, subtitle);
    for line in details.lines().filter(|l| !l.trim().is_empty()) {
        y += 5.0 * s;
        page.text_fit(cx, y, w, Style::grey(8.5 * s), Align::Center, line);
    }
    y + 4.5 * s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_fit_cuts_what_cannot_shrink_enough() {
        let font = FontFace::embedded();
        let mut doc = Doc::new(font, "t");
        let p = doc.add_page(210.0, 297.0);
        p.text_fit(
            10.0,
            10.0,
            20.0,
            Style::new(10.0),
            Align::Left,
            "一二三四五六七八九十一二三四五六七八九十",
        );
        let shown: Vec<String> = p
            .text
            .iter()
            .filter_map(|op| match op {
                Op::ShowText { items } => match &items[0] {
                    TextItem::Text(t) => Some(t.clone()),
                    _ => None,
                },
                _ => None,
            })
            .collect();
        assert_eq!(shown.len(), 1);
        assert!(shown[0].ends_with('…'), "{}", shown[0]);
        assert!(p.width(&shown[0], 6.0) <= 20.0 + 0.01);
    }

    #[test]
    fn table_widths_fit_the_page() {
        let font = FontFace::embedded();
        let t = Table {
            columns: vec![
                Column::new("No", Align::Right),
                Column::grow("Name"),
                Column::new("Rank", Align::Center),
            ],
            rows: (0..50).map(|i| vec![i.to_string(), "张伟 Zhang Wei".repeat(8), "5d".into()]).collect(),
            size: 10.0,
        };
        let (w, size) = t.widths(font, 186.0, 1.0);
        assert!((w.iter().sum::<f32>() - 186.0).abs() < 0.5, "{w:?}");
        assert!((6.5 - 0.01..10.0).contains(&size));
    }
}
