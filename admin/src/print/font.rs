//! The one font every PDF uses, and its subsetting per document.
//!
//! WenQuanYi Micro Hei (`assets/fonts/wqy-microhei.ttc`, Apache-2.0) is compiled into the binary
//! with `include_bytes!`: about 5 MB more binary, and in exchange the PDFs work on a fresh
//! machine from any working folder, with nothing to install and no path to configure. The
//! environment variable [`FONT_ENV`] (`PATH` or `PATH#FACE`) points at another TrueType/OpenType
//! font or collection instead, e.g. Noto Sans CJK SC (`NotoSansCJK-Regular.ttc#2`).
//!
//! printpdf 0.12 without its `text_layout` feature embeds whatever font bytes it is given, whole.
//! So a document first collects the characters it draws, then [`FontFace::subset`] keeps only
//! those glyphs (allsorts, the subsetter printpdf itself depends on) and hands printpdf the
//! small font. printpdf writes the `/ToUnicode` map from the same characters, so the text of every
//! PDF can be searched, copied and extracted.

use super::PrintError;
use allsorts::binary::read::ReadScope;
use allsorts::font_data::FontData;
use allsorts::subset::{subset, CmapTarget, SubsetProfile};
use allsorts::tables::cmap::Cmap;
use allsorts::tables::{FontTableProvider, HeadTable, HheaTable, HmtxTable, MaxpTable};
use allsorts::tag;
use std::borrow::Cow;
use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::sync::OnceLock;

/// The font file shipped in `assets/fonts/`, compiled in.
pub static EMBEDDED_FONT: &[u8] =
    include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../assets/fonts/wqy-microhei.ttc"));
/// The face of [`EMBEDDED_FONT`] that is used (0 = "WenQuanYi Micro Hei", 1 = its Mono face).
pub const EMBEDDED_FACE: usize = 0;
/// Environment variable that replaces the embedded font: `PATH` or `PATH#FACE_INDEX`.
pub const FONT_ENV: &str = "TENGEN_PDF_FONT";

/// A parsed font face: its bytes, its character map and advance widths (for measuring text).
pub struct FontFace {
    bytes: Cow<'static, [u8]>,
    index: usize,
    name: String,
    glyphs: HashMap<char, u16>,
    advances: Vec<u16>,
    units_per_em: f32,
}

impl std::fmt::Debug for FontFace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FontFace")
            .field("name", &self.name)
            .field("index", &self.index)
            .field("bytes", &self.bytes.len())
            .field("chars", &self.glyphs.len())
            .finish()
    }
}

static EMBEDDED: OnceLock<FontFace> = OnceLock::new();
static DEFAULT: OnceLock<Result<FontFace, String>> = OnceLock::new();

impl FontFace {
    /// The compiled-in WenQuanYi Micro Hei, parsed once per process.
    pub fn embedded() -> &'static FontFace {
        EMBEDDED.get_or_init(|| {
            FontFace::parse(Cow::Borrowed(EMBEDDED_FONT), EMBEDDED_FACE, "WenQuanYiMicroHei")
                .expect("the embedded font parses (checked by a unit test)")
        })
    }

    /// The font the PDFs use by default: the one named by [`FONT_ENV`] if it is set, else the
    /// embedded one. A bad [`FONT_ENV`] is an error (once per process), not a silent fallback.
    pub fn default_face() -> Result<&'static FontFace, PrintError> {
        let Some(spec) = std::env::var_os(FONT_ENV) else {
            return Ok(FontFace::embedded());
        };
        DEFAULT
            .get_or_init(|| {
                let spec = spec.to_string_lossy().into_owned();
                let (path, index) = parse_spec(&spec);
                FontFace::from_path(Path::new(path), index).map_err(|e| format!("{FONT_ENV}={spec}: {e}"))
            })
            .as_ref()
            .map_err(|e| PrintError::Font(e.clone()))
    }

    /// Reads a TrueType/OpenType font or collection from a file; `index` picks the face.
    pub fn from_path(path: &Path, index: usize) -> Result<FontFace, PrintError> {
        let bytes = std::fs::read(path).map_err(|e| PrintError::Font(format!("{}: {e}", path.display())))?;
        let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        FontFace::from_bytes(bytes, index, &stem)
    }

    /// Parses font bytes; `index` picks the face of a collection, `name` is the PDF font name.
    pub fn from_bytes(bytes: Vec<u8>, index: usize, name: &str) -> Result<FontFace, PrintError> {
        FontFace::parse(Cow::Owned(bytes), index, name)
    }

    fn parse(bytes: Cow<'static, [u8]>, index: usize, name: &str) -> Result<FontFace, PrintError> {
        let err = |what: &str, e: &dyn std::fmt::Debug| PrintError::Font(format!("{what}: {e:?}"));
        let (glyphs, advances, units_per_em) = {
            let data = ReadScope::new(&bytes).read::<FontData<'_>>().map_err(|e| err("not a font", &e))?;
            let provider = data.table_provider(index).map_err(|e| err("no such face", &e))?;
            let table = |t: u32| provider.read_table_data(t).map_err(|e| err("missing table", &e));
            let head_data = table(tag::HEAD)?;
            let head = ReadScope::new(&head_data).read::<HeadTable>().map_err(|e| err("head", &e))?;
            let maxp_data = table(tag::MAXP)?;
            let maxp = ReadScope::new(&maxp_data).read::<MaxpTable>().map_err(|e| err("maxp", &e))?;
            let hhea_data = table(tag::HHEA)?;
            let hhea = ReadScope::new(&hhea_data).read::<HheaTable>().map_err(|e| err("hhea", &e))?;
            let hmtx_data = table(tag::HMTX)?;
            let hmtx = ReadScope::new(&hmtx_data)
                .read_dep::<HmtxTable<'_>>((usize::from(maxp.num_glyphs), usize::from(hhea.num_h_metrics)))
                .map_err(|e| err("hmtx", &e))?;
            let advances: Vec<u16> =
                (0..maxp.num_glyphs).map(|g| hmtx.horizontal_advance(g).unwrap_or(0)).collect();
            let cmap_data = table(tag::CMAP)?;
            let cmap = ReadScope::new(&cmap_data).read::<Cmap<'_>>().map_err(|e| err("cmap", &e))?;
            let (_, sub) = allsorts::font::read_cmap_subtable(&cmap)
                .map_err(|e| err("cmap", &e))?
                .ok_or_else(|| PrintError::Font("the font has no Unicode character map".into()))?;
            let mut glyphs = HashMap::new();
            sub.mappings_fn(|cp, gid| {
                if let Some(c) = char::from_u32(cp) {
                    if gid != 0 {
                        glyphs.insert(c, gid);
                    }
                }
            })
            .map_err(|e| err("cmap", &e))?;
            (glyphs, advances, f32::from(head.units_per_em.max(1)))
        };
        let name: String = name.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-').collect();
        let name = if name.is_empty() { "Font".to_string() } else { name };
        Ok(FontFace { bytes, index, name, glyphs, advances, units_per_em })
    }

    /// The PDF name of the font (before the subset tag).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether the font has a glyph for `c`.
    pub fn has_char(&self, c: char) -> bool {
        self.glyphs.contains_key(&c)
    }

    /// How many characters the font maps to glyphs.
    pub fn char_count(&self) -> usize {
        self.glyphs.len()
    }

    /// Advance width of `c` in em (a missing character advances like the .notdef box).
    pub fn advance_em(&self, c: char) -> f32 {
        let gid = self.glyphs.get(&c).copied().unwrap_or(0);
        f32::from(self.advances.get(usize::from(gid)).copied().unwrap_or(0)) / self.units_per_em
    }

    /// Width of `text` set at `size_pt`, in points.
    pub fn text_width_pt(&self, text: &str, size_pt: f32) -> f32 {
        text.chars().map(|c| self.advance_em(c)).sum::<f32>() * size_pt
    }

    /// A font holding only the glyphs for `chars` (plus .notdef), ready for printpdf. Its
    /// character map is the subset's own, so printpdf writes the renumbered glyph ids and a
    /// `/ToUnicode` map for exactly these characters.
    pub fn subset(&self, chars: &BTreeSet<char>) -> Result<SubsetFont, PrintError> {
        let mut gids: Vec<u16> = chars.iter().filter_map(|c| self.glyphs.get(c).copied()).collect();
        gids.push(0);
        gids.sort_unstable();
        gids.dedup();
        let data = ReadScope::new(&self.bytes)
            .read::<FontData<'_>>()
            .map_err(|e| PrintError::Font(format!("font: {e:?}")))?;
        let provider =
            data.table_provider(self.index).map_err(|e| PrintError::Font(format!("font: {e:?}")))?;
        let bytes = subset(&provider, &gids, &SubsetProfile::Pdf, CmapTarget::Unicode)
            .map_err(|e| PrintError::Font(format!("subsetting the font: {e:?}")))?;
        let mut warnings = Vec::new();
        let mut parsed = printpdf::ParsedFont::from_bytes(&bytes, 0, &mut warnings)
            .ok_or_else(|| PrintError::Font(format!("the subset font does not parse: {warnings:?}")))?;
        // ISO 32000-1 9.6.4: a subset font's name starts with a six-letter tag.
        parsed.font_name = Some(format!("{}+{}", subset_tag(chars), self.name));
        Ok(SubsetFont { glyphs: gids.len(), bytes: bytes.len(), parsed })
    }
}

/// `PATH#FACE` → (PATH, FACE); a plain path (even one containing `#`) is face 0.
fn parse_spec(spec: &str) -> (&str, usize) {
    match spec.rsplit_once('#') {
        Some((p, i)) if !p.is_empty() => match i.parse::<usize>() {
            Ok(i) => (p, i),
            Err(_) => (spec, 0),
        },
        _ => (spec, 0),
    }
}

/// A per-document subset of a [`FontFace`].
pub struct SubsetFont {
    /// Glyphs kept, .notdef included.
    pub glyphs: usize,
    /// Size of the subset font program before PDF compression.
    pub bytes: usize,
    pub(crate) parsed: printpdf::ParsedFont,
}

/// Six capital letters derived from the character set (stable for the same characters).
fn subset_tag(chars: &BTreeSet<char>) -> String {
    // FNV-1a over the code points.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for c in chars {
        for b in (*c as u32).to_le_bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    (0..6)
        .map(|i| {
            let v = (h >> (i * 5)) % 26;
            char::from(b'A' + v as u8)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_font_maps_chinese_latin_and_digits() {
        let f = FontFace::embedded();
        for c in "天元围棋赛张伟李娜业余段级黑白胜负和 Zhang Wei ÀéüÖǚ 0123456789+-=/:…—·½¾：（）".chars()
        {
            assert!(f.has_char(c) || c == ' ', "{c:?} missing");
        }
        assert!(f.char_count() > 20_000, "{}", f.char_count());
        // A Han character is one em wide; Latin letters are narrower.
        assert!((f.advance_em('围') - 1.0).abs() < 0.01, "{}", f.advance_em('围'));
        assert!(f.advance_em('i') < 0.5);
        assert!(f.text_width_pt("天元", 10.0) > f.text_width_pt("ab", 10.0));
    }

    #[test]
    fn subset_keeps_only_the_glyphs_asked_for() {
        let f = FontFace::embedded();
        let chars: BTreeSet<char> = "天元 Tengen 2026".chars().collect();
        let s = f.subset(&chars).unwrap();
        assert_eq!(s.glyphs, chars.len() + 1, "each distinct character plus .notdef");
        assert!(s.bytes < 30_000, "subset is {} bytes", s.bytes);
        for c in &chars {
            assert!(s.parsed.lookup_glyph_index(*c as u32).is_some_and(|g| g != 0), "{c:?}");
        }
        assert!(s.parsed.lookup_glyph_index('地' as u32).is_none());
        let name = s.parsed.font_name.clone().unwrap();
        assert!(name.ends_with("+WenQuanYiMicroHei") && name.len() == 6 + 1 + 17, "{name}");
        assert_eq!(subset_tag(&chars), subset_tag(&chars.clone()));
    }

    #[test]
    fn font_spec_names_a_path_and_a_face() {
        assert_eq!(parse_spec("/f/NotoSansCJK-Regular.ttc#2"), ("/f/NotoSansCJK-Regular.ttc", 2));
        assert_eq!(parse_spec("/f/wqy.ttc"), ("/f/wqy.ttc", 0));
        assert_eq!(parse_spec("/f/a#b.ttf"), ("/f/a#b.ttf", 0));
    }

    #[test]
    fn another_face_can_be_used_for_a_document() {
        use super::super::{scoresheets, testutil, Lang, PdfOptions, SheetsPerPage};
        let mono = FontFace::from_bytes(EMBEDDED_FONT.to_vec(), 1, "WenQuanYi Micro Hei Mono").unwrap();
        assert_eq!(mono.name(), "WenQuanYiMicroHeiMono");
        // Monospaced: Latin letters are all as wide.
        assert_eq!(mono.advance_em('i'), mono.advance_em('W'));
        let opts = PdfOptions { font: Some(&mono), ..PdfOptions::new(Lang::En) };
        let pdf =
            scoresheets(&testutil::tournament(), &testutil::tables(2), SheetsPerPage::Four, &opts).unwrap();
        let r = testutil::read("scoresheets_mono", &pdf);
        assert!(testutil::squash(&r.pages[0]).contains("王伟"));
        let text = String::from_utf8_lossy(&pdf);
        assert!(text.contains("+WenQuanYiMicroHeiMono"), "the PDF names the chosen font");
    }

    #[test]
    fn bad_font_bytes_are_an_error() {
        assert!(matches!(FontFace::from_bytes(b"not a font".to_vec(), 0, "x"), Err(PrintError::Font(_))));
        assert!(FontFace::from_path(Path::new("/nonexistent/font.ttf"), 0).is_err());
        assert!(FontFace::from_bytes(EMBEDDED_FONT.to_vec(), 7, "x").is_err(), "no face 7");
    }
}
