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
//!
//! WenQuanYi Micro Hei draws some vulgar fractions with a part missing: its ¾ is only "⁄4" and its
//! ½ only "1⁄" (every part that should be its ² or ³ is absent; ⅜ lacks its 3 too), so a sheet
//! reading "黑贴3¾子" showed "黑贴3⁄4子". [`FontFace`] finds such glyphs when it parses a face
//! (a fraction glyph with fewer parts than numerator, slash and denominator, by
//! [`Sfnt::check`], the same check the tests run on every glyph a PDF draws) and rebuilds each
//! from the parts it has plus the superscript digit it lacks, placed as the face's own complete
//! fraction (¼) places its numerator or denominator. The subset then carries the rebuilt glyph
//! under the same character, so the text layer and the picture agree.

use super::sfnt::{self, Component, Sfnt};
use super::PrintError;
use allsorts::binary::read::ReadScope;
use allsorts::error::ParseError;
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
    /// Glyphs the face draws incompletely, with the record that replaces each.
    repairs: Vec<(u16, Vec<u8>)>,
    /// `glyf` and `loca` with [`FontFace::repairs`] in place: made by the first subset that
    /// needs one (about the size of the face's `glyf`), then kept.
    repaired: OnceLock<Option<(Vec<u8>, Vec<u8>)>>,
}

impl std::fmt::Debug for FontFace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FontFace")
            .field("name", &self.name)
            .field("index", &self.index)
            .field("bytes", &self.bytes.len())
            .field("chars", &self.glyphs.len())
            .field("repaired", &self.repairs.iter().map(|r| r.0).collect::<Vec<_>>())
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
        // A collection whose tables allsorts reads but this reader cannot is left as it is.
        let repairs =
            Sfnt::parse(&bytes[..], index).map(|f| fraction_repairs(&f, &glyphs)).unwrap_or_default();
        let name: String = name.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-').collect();
        let name = if name.is_empty() { "Font".to_string() } else { name };
        Ok(FontFace {
            bytes,
            index,
            name,
            glyphs,
            advances,
            units_per_em,
            repairs,
            repaired: OnceLock::new(),
        })
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
        let repaired = if self.repairs.iter().any(|r| gids.contains(&r.0)) {
            self.repaired
                .get_or_init(|| Sfnt::parse(&self.bytes[..], self.index).ok()?.with_glyphs(&self.repairs))
                .as_ref()
        } else {
            None
        };
        let bytes = match repaired {
            Some((glyf, loca)) => {
                let provider = Repaired { inner: &provider, glyf, loca };
                subset(&provider, &gids, &SubsetProfile::Pdf, CmapTarget::Unicode)
            }
            None => subset(&provider, &gids, &SubsetProfile::Pdf, CmapTarget::Unicode),
        }
        .map_err(|e| PrintError::Font(format!("subsetting the font: {e:?}")))?;
        let mut warnings = Vec::new();
        let mut parsed = printpdf::ParsedFont::from_bytes(&bytes, 0, &mut warnings)
            .ok_or_else(|| PrintError::Font(format!("the subset font does not parse: {warnings:?}")))?;
        // ISO 32000-1 9.6.4: a subset font's name starts with a six-letter tag.
        parsed.font_name = Some(format!("{}+{}", subset_tag(chars), self.name));
        Ok(SubsetFont { glyphs: gids.len(), bytes: bytes.len(), parsed })
    }
}

/// The face's fraction glyphs that draw fewer parts than numerator, slash and denominator,
/// each with a record that draws all three: its own parts plus the superscript digit it lacks,
/// a numerator where the face's first complete fraction has its numerator, a denominator where
/// that fraction has its denominator (from the slash), left edges aligned. A fraction whose
/// parts cannot be told apart (no slash among them, scaled parts) or whose digit the face lacks
/// is left as it is (and the PDF check of the tests names it).
fn fraction_repairs(font: &Sfnt<'_>, cmap: &HashMap<char, u16>) -> Vec<(u16, Vec<u8>)> {
    let Some(&slash) = cmap.get(&sfnt::FRACTION_SLASH) else {
        return Vec::new();
    };
    // (numerator parts, the slash, denominator parts)
    let split = |gid: u16| -> Option<(Vec<Component>, Component, Vec<Component>)> {
        let parts = font.components(gid).ok()?;
        let k = parts.iter().position(|p| p.glyph == slash)?;
        parts.iter().all(|p| p.offset).then(|| (parts[..k].to_vec(), parts[k], parts[k + 1..].to_vec()))
    };
    let whole = |c: char, gid: u16| font.check(gid, &c.to_string()).is_ok();
    let Some((num, tslash, den)) = sfnt::FRACTIONS.iter().find_map(|&(c, ..)| {
        let gid = *cmap.get(&c)?;
        split(gid).filter(|(n, _, d)| whole(c, gid) && n.len() == 1 && d.len() == 1)
    }) else {
        return Vec::new();
    };
    let (tnum, tden) = (num[0], den[0]);
    let xmin = |gid: u16| font.bbox(gid).map(|b| b[0]);
    let mut repairs = Vec::new();
    for (c, n, d) in sfnt::FRACTIONS {
        let Some(&gid) = cmap.get(&c) else { continue };
        if whole(c, gid) {
            continue;
        }
        let rebuilt = (|| {
            let (mut numerator, s, mut denominator) = split(gid)?;
            let digit = |d: char| cmap.get(&sfnt::superscript(d)?).copied();
            if numerator.is_empty() {
                let g = digit(n)?;
                let dx = tnum.dx.checked_add(xmin(tnum.glyph)?)?.checked_sub(xmin(g)?)?;
                numerator.push(Component { glyph: g, dx, dy: tnum.dy, offset: true });
            }
            if denominator.is_empty() {
                let g = digit(d)?;
                let dx = s.dx.checked_add(tden.dx - tslash.dx)?.checked_add(xmin(tden.glyph)? - xmin(g)?)?;
                let dy = s.dy.checked_add(tden.dy - tslash.dy)?;
                denominator.push(Component { glyph: g, dx, dy, offset: true });
            }
            let parts: Vec<Component> = numerator.into_iter().chain([s]).chain(denominator).collect();
            font.composite(&parts)
        })();
        if let Some(record) = rebuilt {
            repairs.push((gid, record));
        }
    }
    repairs
}

/// A face's tables with `glyf` and `loca` replaced (by [`Sfnt::with_glyphs`]).
struct Repaired<'a, P> {
    inner: &'a P,
    glyf: &'a [u8],
    loca: &'a [u8],
}

impl<P: FontTableProvider> FontTableProvider for Repaired<'_, P> {
    fn table_data(&self, t: u32) -> Result<Option<Cow<'_, [u8]>>, ParseError> {
        match t {
            tag::GLYF => Ok(Some(Cow::Borrowed(self.glyf))),
            tag::LOCA => Ok(Some(Cow::Borrowed(self.loca))),
            _ => self.inner.table_data(t),
        }
    }

    fn has_table(&self, t: u32) -> bool {
        self.inner.has_table(t)
    }

    fn table_tags(&self) -> Option<Vec<u32>> {
        self.inner.table_tags()
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

    /// The glyphs a subset font draws for `text`, checked as the PDF check does.
    fn drawn(sub: &SubsetFont, text: &str) -> Vec<(char, Result<(), String>, usize)> {
        let font = Sfnt::parse(&sub.parsed.original_bytes[..], 0).unwrap();
        text.chars()
            .map(|c| {
                let gid = sub.parsed.lookup_glyph_index(c as u32).unwrap_or(0);
                (c, font.check(gid, &c.to_string()), font.components(gid).unwrap().len())
            })
            .collect()
    }

    /// Seed 000 Art. 11 (komi 3¾ stones) and the half points of the standings: WenQuanYi Micro
    /// Hei's own ¾ is "⁄4" and its ½ "1⁄"; the check names both, and the face rebuilds them (and
    /// ⅜, the other one) from their parts plus the superscript digit each lacks.
    #[test]
    fn the_bundled_fractions_with_a_missing_part_are_rebuilt() {
        let f = FontFace::embedded();
        let g = |c: char| f.glyphs[&c];
        let original = Sfnt::parse(EMBEDDED_FONT, EMBEDDED_FACE).unwrap();
        for c in ['¾', '½', '⅜'] {
            let e = original.check(g(c), &c.to_string()).unwrap_err();
            assert!(e.contains("2 of its 3 parts"), "{c}: {e}");
        }
        for c in ['¼', '⅛', '⅝', '⅞', '3', '黑'] {
            assert_eq!(original.check(g(c), &c.to_string()), Ok(()), "{c}");
        }
        // A fraction glyph needs three parts; its missing digit is drawn by the superscript.
        assert_eq!((sfnt::parts_needed("¾"), sfnt::parts_needed("3"), sfnt::parts_needed("¾¾")), (3, 1, 1));
        let all: String = "0123456789".chars().map(|d| sfnt::superscript(d).unwrap()).collect();
        assert_eq!((all.as_str(), sfnt::superscript('x')), ("⁰¹²³⁴⁵⁶⁷⁸⁹", None));
        let mut repaired: Vec<u16> = f.repairs.iter().map(|r| r.0).collect();
        repaired.sort_unstable();
        assert_eq!(repaired, vec![g('½'), g('¾'), g('⅜')]);
        // ¾ = ³ ⁄ 4 with the ⁄ and 4 where the font has them; ½ = ¹ ⁄ ² with the ² on the
        // baseline, as far right of the slash as ¼'s 4 is of its slash.
        let rebuilt =
            |c: char| sfnt::components_of(&f.repairs.iter().find(|r| r.0 == g(c)).unwrap().1).unwrap();
        let glyphs = |c: char| rebuilt(c).iter().map(|p| p.glyph).collect::<Vec<_>>();
        let quarter = original.components(g('¼')).unwrap();
        assert_eq!(glyphs('¾'), vec![g('³'), g('⁄'), quarter[2].glyph]);
        assert_eq!(&rebuilt('¾')[1..], &original.components(g('¾')).unwrap()[..]);
        assert_eq!(glyphs('½'), vec![g('¹'), g('⁄'), g('²')]);
        let half = rebuilt('½');
        assert_eq!(half[2].dy - half[1].dy, quarter[2].dy - quarter[1].dy);
        assert!(half[2].dx > half[1].dx && half[0].dx < half[1].dx);
        assert_eq!(glyphs('⅜')[0], g('³'));
    }

    /// Seed 000 Art. 11: a document's subset draws 3¾ and 4½ whole: each fraction with its three
    /// parts, each part an outline (the rebuilt glyphs travel into the subset with their parts).
    #[test]
    fn a_subset_draws_every_fraction_whole() {
        let f = FontFace::embedded();
        let text = "黑贴3¾子 4½ ¼ 天元";
        let s = f.subset(&text.chars().collect()).unwrap();
        for (c, check, parts) in drawn(&s, text) {
            assert_eq!(check, Ok(()), "{c:?}");
            if "¾½¼".contains(c) {
                assert_eq!(parts, 3, "{c:?}");
            }
        }
        // A subset without a fraction needs no rebuilt table.
        let plain = FontFace::from_bytes(EMBEDDED_FONT.to_vec(), EMBEDDED_FACE, "x").unwrap();
        plain.subset(&"天元 3".chars().collect()).unwrap();
        assert!(plain.repaired.get().is_none());
        plain.subset(&"3½".chars().collect()).unwrap();
        assert!(plain.repaired.get().is_some_and(|r| r.is_some()));
    }

    /// Seed 000 Art. 11: the scoresheets' "黑贴3¾子" as a reader sees it. Read back from the
    /// PDF, every glyph drawn is checked in the embedded subset; the same sheets drawn with the
    /// font as shipped (nothing rebuilt) are caught drawing ¾ with a part missing.
    #[test]
    fn scoresheets_draw_the_komi_fraction_whole_and_the_check_sees_a_broken_one() {
        use super::super::{scoresheets, testutil, Lang, PdfOptions, SheetsPerPage};
        let mut shipped =
            FontFace::from_bytes(EMBEDDED_FONT.to_vec(), EMBEDDED_FACE, "WenQuanYiMicroHei").unwrap();
        shipped.repairs.clear();
        for lang in [Lang::Zh, Lang::En] {
            let sheets = |font: &FontFace, name: &str| {
                let opts = PdfOptions { font: Some(font), ..PdfOptions::new(lang) };
                let pdf =
                    scoresheets(&testutil::tournament(), &testutil::tables(3), SheetsPerPage::Four, &opts);
                testutil::read(&format!("{name}_{lang:?}"), &pdf.unwrap()).glyph_report()
            };
            let good = sheets(FontFace::embedded(), "scoresheets_fractions");
            assert!(good.faults.is_empty(), "{lang:?}: {:?}", good.faults);
            assert!(good.drawn.contains_key("¾") && good.drawn.len() > 30, "{lang:?}: {:?}", good.drawn);
            let broken = sheets(&shipped, "scoresheets_fractions_unrepaired");
            assert!(
                broken.faults.iter().any(|f| f.contains("\"¾\"") && f.contains("2 of its 3 parts")),
                "{lang:?}: {:?}",
                broken.faults
            );
        }
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
        // The glyph reader refuses what is not a font program, without a panic.
        assert!(Sfnt::parse(&b""[..], 0).is_err());
        assert!(Sfnt::parse(&b"ttcf\0\x01\0\0\0\0\0\x01\0\0\0\x10"[..], 3).is_err());
        assert!(Sfnt::parse(&b"\0\x01\0\0\0\x05"[..], 0).is_err());
    }
}
