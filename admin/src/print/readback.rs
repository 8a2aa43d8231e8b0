//! Reading a PDF back with lopdf, for tests: the text of each page (through the fonts'
//! `/ToUnicode` maps), page counts, the embedded font's size, and every glyph drawn checked in
//! the embedded font program ([`ReadBack::glyph_report`]: what a reader sees).
//!
//! Self-contained (std, lopdf and the sibling `sfnt.rs`) so that three kinds of tests share this one file: the
//! print module's unit tests (`print::testutil`), the end-to-end tests (`tests/e2e/common`, by
//! `#[path]`) and the CLI tests (`admin/tests`, by `#[path]`).
//!
//! Set `TENGEN_PRINT_DUMP=/some/dir` to also write every PDF read here to that folder, to look at.
#![allow(dead_code)]

/// The TrueType reader [`ReadBack::glyph_report`] checks the embedded font with (std only). The
/// same file is `print::sfnt` in the library, so the library's own test build holds it twice;
/// the end-to-end and CLI tests, which include this file by `#[path]`, hold it here only.
#[allow(clippy::duplicate_mod)]
#[path = "sfnt.rs"]
pub mod sfnt;
use sfnt::Sfnt;

/// Parsed PDF: the text of each page, in content order.
pub struct ReadBack {
    pub pages: Vec<String>,
    pub doc: lopdf::Document,
}

impl ReadBack {
    pub fn all_text(&self) -> String {
        self.pages.join("\n")
    }
    /// Bytes of the embedded font programs (FontFile2/FontFile3 streams, decompressed).
    pub fn font_program_bytes(&self) -> usize {
        let mut total = 0;
        for obj in self.doc.objects.values() {
            if let Ok(dict) = obj.as_dict() {
                for key in [&b"FontFile2"[..], b"FontFile3"] {
                    if let Ok(r) = dict.get(key).and_then(|o| o.as_reference()) {
                        if let Ok(stream) = self.doc.get_object(r).and_then(|o| o.as_stream()) {
                            total += stream
                                .decompressed_content()
                                .map(|c| c.len())
                                .unwrap_or(stream.content.len());
                        }
                    }
                }
            }
        }
        total
    }
    /// The size of page `page` (from 1) in millimetres, from its MediaBox.
    pub fn page_size_mm(&self, page: u32) -> Option<(f32, f32)> {
        let id = *self.doc.get_pages().get(&page)?;
        let dict = self.doc.get_object(id).ok()?.as_dict().ok()?;
        let mb = dict.get(b"MediaBox").ok()?.as_array().ok()?;
        let num = |i: usize| mb.get(i).and_then(|o| o.as_float().ok());
        let mm = |pt: f32| pt * 25.4 / 72.0;
        Some((mm(num(2)? - num(0)?), mm(num(3)? - num(1)?)))
    }
    /// Whether every Type0 font has a /ToUnicode map.
    pub fn every_font_has_to_unicode(&self) -> bool {
        let mut fonts = 0;
        for obj in self.doc.objects.values() {
            if let Ok(dict) = obj.as_dict() {
                if dict.get(b"Subtype").and_then(|o| o.as_name()).ok() == Some(&b"Type0"[..]) {
                    fonts += 1;
                    if dict.get(b"ToUnicode").is_err() {
                        return false;
                    }
                }
            }
        }
        fonts > 0
    }
}

/// Reads a PDF back; `name` is used for the optional dump.
pub fn read(name: &str, bytes: &[u8]) -> ReadBack {
    if let Some(dir) = std::env::var_os("TENGEN_PRINT_DUMP") {
        let path = std::path::Path::new(&dir).join(format!("{name}.pdf"));
        std::fs::write(&path, bytes).expect("dump PDF");
    }
    assert!(bytes.starts_with(b"%PDF-"), "not a PDF");
    let doc = lopdf::Document::load_mem(bytes).expect("lopdf reads the PDF");
    let n = doc.get_pages().len() as u32;
    let pages = (1..=n).map(|p| doc.extract_text(&[p]).expect("text extraction")).collect();
    ReadBack { pages, doc }
}

/// The text without any whitespace (lopdf puts breaks between text runs).
pub fn squash(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

// ---------------------------------------------------------------------------------------------
// Glyphs: what a reader sees, checked in the embedded font program itself.

/// What the glyphs of a PDF draw, checked glyph by glyph in the embedded TrueType program.
#[derive(Debug, Default)]
pub struct GlyphReport {
    /// Every distinct text (usually one character) a content stream draws, with its glyph.
    pub drawn: std::collections::BTreeMap<String, u16>,
    /// Each glyph that does not draw its text: "page 1: '¾' (glyph 12): component glyph 40 is empty".
    pub faults: Vec<String>,
}

impl ReadBack {
    /// Walks every text-showing operator of every page, decodes its two-byte codes (Identity-H:
    /// code = glyph id of the embedded font), and checks each glyph in the embedded `glyf`
    /// table: not .notdef, inside the font, with an outline when its text has ink, and — for a
    /// composite glyph — every component present (recursively) with an outline. Also a code
    /// with no `/ToUnicode` text is a fault: the picture and the text layer would disagree.
    pub fn glyph_report(&self) -> GlyphReport {
        let mut report = GlyphReport::default();
        let mut fonts: std::collections::HashMap<lopdf::ObjectId, Option<Sfnt<'static>>> = Default::default();
        for (page_no, page_id) in self.doc.get_pages() {
            let page_fonts = self.doc.get_page_fonts(page_id).unwrap_or_default();
            let Ok(content) = self.doc.get_and_decode_page_content(page_id) else {
                report.faults.push(format!("page {page_no}: content does not decode"));
                continue;
            };
            let mut current: Option<&lopdf::Dictionary> = None;
            for op in &content.operations {
                let strings: Vec<&[u8]> = match op.operator.as_str() {
                    "Tf" => {
                        current = op
                            .operands
                            .first()
                            .and_then(|o| o.as_name().ok())
                            .and_then(|n| page_fonts.get(n).copied());
                        continue;
                    }
                    "Tj" | "'" => op.operands.last().and_then(|o| o.as_str().ok()).into_iter().collect(),
                    "\"" => op.operands.get(2).and_then(|o| o.as_str().ok()).into_iter().collect(),
                    "TJ" => op
                        .operands
                        .first()
                        .and_then(|o| o.as_array().ok())
                        .map(|a| a.iter().filter_map(|o| o.as_str().ok()).collect())
                        .unwrap_or_default(),
                    _ => continue,
                };
                let Some(font) = current else {
                    report.faults.push(format!("page {page_no}: text shown with no font selected"));
                    continue;
                };
                let key = font_program_id(&self.doc, font);
                let sfnt = match key {
                    Some(id) => fonts.entry(id).or_insert_with(|| font_program(&self.doc, id)).as_ref(),
                    None => None,
                };
                let Some(sfnt) = sfnt else {
                    report.faults.push(format!("page {page_no}: text in a font with no TrueType program"));
                    continue;
                };
                let encoding = font.get_font_encoding(&self.doc).ok();
                for s in strings {
                    for pair in s.chunks(2) {
                        let [hi, lo] = *pair else {
                            report.faults.push(format!("page {page_no}: odd byte in a two-byte string"));
                            continue;
                        };
                        let gid = u16::from_be_bytes([hi, lo]);
                        let text = encoding
                            .as_ref()
                            .and_then(|e| e.bytes_to_string(&[hi, lo]).ok())
                            .filter(|t| !t.is_empty() && !t.contains('\u{fffd}'));
                        let Some(text) = text else {
                            report.faults.push(format!("page {page_no}: glyph {gid} has no /ToUnicode text"));
                            continue;
                        };
                        if report.drawn.insert(text.clone(), gid).is_some() {
                            continue;
                        }
                        if let Err(fault) = sfnt.check(gid, &text) {
                            report.faults.push(format!("page {page_no}: {text:?} (glyph {gid}): {fault}"));
                        }
                    }
                }
            }
        }
        report
    }
}

/// The `/FontFile2` stream of a Type0 font (through its descendant's descriptor).
fn font_program_id(doc: &lopdf::Document, font: &lopdf::Dictionary) -> Option<lopdf::ObjectId> {
    let descendants = match font.get(b"DescendantFonts").ok()? {
        lopdf::Object::Reference(r) => doc.get_object(*r).ok()?,
        o => o,
    };
    let descendant = match descendants.as_array().ok()?.first()? {
        lopdf::Object::Reference(r) => doc.get_dictionary(*r).ok()?,
        lopdf::Object::Dictionary(d) => d,
        _ => return None,
    };
    let descriptor = descendant.get(b"FontDescriptor").ok()?.as_reference().ok()?;
    doc.get_dictionary(descriptor).ok()?.get(b"FontFile2").ok()?.as_reference().ok()
}

fn font_program(doc: &lopdf::Document, id: lopdf::ObjectId) -> Option<Sfnt<'static>> {
    let stream = doc.get_object(id).ok()?.as_stream().ok()?;
    let bytes = stream.decompressed_content().unwrap_or_else(|_| stream.content.clone());
    Sfnt::parse(bytes, 0).ok()
}
