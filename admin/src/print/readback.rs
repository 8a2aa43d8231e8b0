//! Reading a PDF back with lopdf, for tests: the text of each page (through the fonts'
//! `/ToUnicode` maps), page counts, the embedded font's size.
//!
//! Self-contained (std and lopdf only) so that three kinds of tests share this one file: the
//! print module's unit tests (`print::testutil`), the end-to-end tests (`tests/common`, by
//! `#[path]`) and the CLI tests (`admin/tests`, by `#[path]`).
//!
//! Set `TENGEN_PRINT_DUMP=/some/dir` to also write every PDF read here to that folder, to look at.
#![allow(dead_code)]

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
