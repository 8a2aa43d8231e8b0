//! The little of a TrueType font program that tells whether a glyph draws its character, and
//! builds a composite glyph: the table directory, `head`, `maxp`, `loca` and `glyf`.
//!
//! Std only, so that one reader serves both sides: [`super::font`] finds (and rebuilds) the
//! bundled font's incomplete fractions with it, and the PDF read-back of the tests
//! (`readback.rs`, which includes this file by `#[path]`) checks every glyph a PDF draws in the
//! font program embedded in that PDF — what a reader sees, not the text layer.

use std::borrow::Cow;

/// The vulgar fractions with a one-digit numerator and denominator, as Unicode decomposes
/// them (`<fraction>` numerator, U+2044 FRACTION SLASH, denominator).
pub const FRACTIONS: [(char, char, char); 18] = [
    ('¼', '1', '4'),
    ('½', '1', '2'),
    ('¾', '3', '4'),
    ('⅐', '1', '7'),
    ('⅑', '1', '9'),
    ('⅓', '1', '3'),
    ('⅔', '2', '3'),
    ('⅕', '1', '5'),
    ('⅖', '2', '5'),
    ('⅗', '3', '5'),
    ('⅘', '4', '5'),
    ('⅙', '1', '6'),
    ('⅚', '5', '6'),
    ('⅛', '1', '8'),
    ('⅜', '3', '8'),
    ('⅝', '5', '8'),
    ('⅞', '7', '8'),
    ('↉', '0', '3'),
];

/// U+2044, the slash a fraction glyph is built around.
pub const FRACTION_SLASH: char = '⁄';

/// The superscript form of a digit: '3' → '³'.
pub fn superscript(digit: char) -> Option<char> {
    match digit {
        '1' => Some('¹'),
        '2' => Some('²'),
        '3' => Some('³'),
        '0' | '4'..='9' => char::from_u32(0x2070 + digit.to_digit(10)?),
        _ => None,
    }
}

/// The parts a glyph drawing `text` needs: a vulgar fraction needs its numerator, the slash
/// and its denominator; anything else one.
pub fn parts_needed(text: &str) -> usize {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if FRACTIONS.iter().any(|f| f.0 == c) => 3,
        _ => 1,
    }
}

/// One part of a composite glyph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Component {
    pub glyph: u16,
    pub dx: i16,
    pub dy: i16,
    /// The part is placed by an x/y offset, unscaled (not by matching points, not scaled).
    pub offset: bool,
}

/// The parts of a composite glyph's `glyf` record, in order (empty for a simple or empty glyph).
pub fn components_of(g: &[u8]) -> Result<Vec<Component>, String> {
    if i16_at(g, 0).unwrap_or(0) >= 0 {
        return Ok(Vec::new());
    }
    let cut = || "a composite glyph is cut short".to_string();
    let mut parts = Vec::new();
    let mut o = 10;
    loop {
        let flags = u16_at(g, o).ok_or_else(cut)?;
        let glyph = u16_at(g, o + 2).ok_or_else(cut)?;
        let words = flags & ARG_1_AND_2_ARE_WORDS != 0;
        let (dx, dy) = if words {
            (i16_at(g, o + 4).ok_or_else(cut)?, i16_at(g, o + 6).ok_or_else(cut)?)
        } else {
            let a = g.get(o + 4..o + 6).ok_or_else(cut)?;
            (i16::from(a[0] as i8), i16::from(a[1] as i8))
        };
        o += if words { 8 } else { 6 };
        let scale = flags & (WE_HAVE_A_SCALE | WE_HAVE_AN_X_AND_Y_SCALE | WE_HAVE_A_TWO_BY_TWO);
        o += match scale {
            0 => 0,
            WE_HAVE_A_SCALE => 2,
            WE_HAVE_AN_X_AND_Y_SCALE => 4,
            _ => 8,
        };
        let offset = flags & ARGS_ARE_XY_VALUES != 0 && scale == 0;
        parts.push(Component { glyph, dx, dy, offset });
        if flags & MORE_COMPONENTS == 0 {
            return Ok(parts);
        }
    }
}

/// A parsed font program (or one face of a collection).
pub struct Sfnt<'a> {
    bytes: Cow<'a, [u8]>,
    tables: Vec<([u8; 4], usize, usize)>,
    long_loca: bool,
    /// Start and end of each glyph's record in `bytes`.
    glyphs: Vec<(usize, usize)>,
}

fn u16_at(b: &[u8], o: usize) -> Option<u16> {
    b.get(o..o + 2).map(|s| u16::from_be_bytes([s[0], s[1]]))
}

fn i16_at(b: &[u8], o: usize) -> Option<i16> {
    u16_at(b, o).map(|v| v as i16)
}

fn u32_at(b: &[u8], o: usize) -> Option<u32> {
    b.get(o..o + 4).map(|s| u32::from_be_bytes([s[0], s[1], s[2], s[3]]))
}

/// Composite glyph flags (OpenType `glyf`).
const ARG_1_AND_2_ARE_WORDS: u16 = 0x0001;
const ARGS_ARE_XY_VALUES: u16 = 0x0002;
const ROUND_XY_TO_GRID: u16 = 0x0004;
const WE_HAVE_A_SCALE: u16 = 0x0008;
const MORE_COMPONENTS: u16 = 0x0020;
const WE_HAVE_AN_X_AND_Y_SCALE: u16 = 0x0040;
const WE_HAVE_A_TWO_BY_TWO: u16 = 0x0080;

impl<'a> Sfnt<'a> {
    /// Parses a font program; `face` picks the face of a `ttcf` collection.
    pub fn parse(bytes: impl Into<Cow<'a, [u8]>>, face: usize) -> Result<Sfnt<'a>, String> {
        let bytes = bytes.into();
        let b: &[u8] = &bytes;
        let short = || "the font program is cut short".to_string();
        let start = if b.starts_with(b"ttcf") {
            if face >= u32_at(b, 8).ok_or_else(short)? as usize {
                return Err(format!("the collection has no face {face}"));
            }
            u32_at(b, 12 + 4 * face).ok_or_else(short)? as usize
        } else {
            0
        };
        let count = u16_at(b, start + 4).ok_or_else(short)?;
        let mut tables = Vec::with_capacity(usize::from(count));
        for i in 0..usize::from(count) {
            let rec = start + 12 + 16 * i;
            let tag: [u8; 4] = b.get(rec..rec + 4).ok_or_else(short)?.try_into().map_err(|_| short())?;
            let off = u32_at(b, rec + 8).ok_or_else(short)? as usize;
            let len = u32_at(b, rec + 12).ok_or_else(short)? as usize;
            if off.checked_add(len).is_none_or(|end| end > b.len()) {
                return Err(format!("table {} lies outside the file", String::from_utf8_lossy(&tag)));
            }
            tables.push((tag, off, len));
        }
        let find = |t: &[u8; 4]| {
            tables
                .iter()
                .find(|x| &x.0 == t)
                .map(|x| (x.1, x.2))
                .ok_or(format!("no {} table", String::from_utf8_lossy(t)))
        };
        let (head, _) = find(b"head")?;
        let long_loca = i16_at(b, head + 50).ok_or_else(short)? == 1;
        let (maxp, _) = find(b"maxp")?;
        let n = usize::from(u16_at(b, maxp + 4).ok_or_else(short)?);
        let (loca, _) = find(b"loca")?;
        let (glyf, glyf_len) = find(b"glyf")?;
        let at = |i: usize| -> Option<usize> {
            if long_loca {
                u32_at(b, loca + 4 * i).map(|v| v as usize)
            } else {
                u16_at(b, loca + 2 * i).map(|v| 2 * usize::from(v))
            }
        };
        let mut glyphs = Vec::with_capacity(n);
        for g in 0..n {
            let (from, to) = (at(g).ok_or_else(short)?, at(g + 1).ok_or_else(short)?);
            if from > to || to > glyf_len {
                return Err(format!("glyph {g} lies outside the glyf table"));
            }
            glyphs.push((glyf + from, glyf + to));
        }
        Ok(Sfnt { bytes, tables, long_loca, glyphs })
    }

    /// The bytes of a table.
    pub fn table(&self, tag: &[u8; 4]) -> Option<&[u8]> {
        let (_, off, len) = self.tables.iter().find(|x| &x.0 == tag)?;
        self.bytes.get(*off..*off + *len)
    }

    /// The `glyf` record of a glyph (empty for a glyph with no outline).
    pub fn glyph(&self, gid: u16) -> Option<&[u8]> {
        let &(from, to) = self.glyphs.get(usize::from(gid))?;
        self.bytes.get(from..to)
    }

    /// The number of contours (negative: a composite), 0 for an empty glyph.
    fn contours(&self, gid: u16) -> i16 {
        self.glyph(gid).and_then(|g| i16_at(g, 0)).unwrap_or(0)
    }

    /// A glyph's box: x min, y min, x max, y max (`None` for an empty glyph).
    pub fn bbox(&self, gid: u16) -> Option<[i16; 4]> {
        let g = self.glyph(gid)?;
        Some([i16_at(g, 2)?, i16_at(g, 4)?, i16_at(g, 6)?, i16_at(g, 8)?])
    }

    /// The parts of a composite glyph, in order (empty for a simple or empty glyph).
    pub fn components(&self, gid: u16) -> Result<Vec<Component>, String> {
        components_of(self.glyph(gid).ok_or(format!("glyph {gid} is not in the font"))?)
    }

    /// Whether glyph `gid` draws `text` (its character, from the PDF's `/ToUnicode` map or the
    /// font's own character map); `Err` says what a reader would miss: .notdef, no such glyph,
    /// no outline for a character with ink (only white space may be blank), a part of a
    /// composite that is missing, .notdef or blank, or a fraction drawn with fewer parts than
    /// numerator, slash and denominator.
    pub fn check(&self, gid: u16, text: &str) -> Result<(), String> {
        let inked = text.chars().any(|c| !c.is_whitespace());
        self.check_glyph(gid, inked, parts_needed(text), 0)
    }

    fn check_glyph(&self, gid: u16, inked: bool, needed: usize, depth: u8) -> Result<(), String> {
        if gid == 0 {
            return Err(".notdef: the font has no glyph for it".into());
        }
        if depth > 8 {
            return Err("its parts nest too deep (a cycle)".into());
        }
        if self.glyph(gid).is_none() {
            return Err(format!("glyph {gid} is not in the font"));
        }
        if self.contours(gid) == 0 {
            return if inked { Err("the glyph is blank".into()) } else { Ok(()) };
        }
        let parts = self.components(gid)?;
        if !parts.is_empty() && parts.len() < needed {
            return Err(format!("drawn with {} of its {needed} parts", parts.len()));
        }
        for p in parts {
            self.check_glyph(p.glyph, true, 1, depth + 1)
                .map_err(|e| format!("part glyph {}: {e}", p.glyph))?;
        }
        Ok(())
    }

    /// A composite glyph record of `parts`, each placed at its offset, boxed by the union of
    /// their boxes, with no hinting instructions. `None` if a part is empty or not an offset.
    pub fn composite(&self, parts: &[Component]) -> Option<Vec<u8>> {
        let mut bbox = [i16::MAX, i16::MAX, i16::MIN, i16::MIN];
        for p in parts {
            let [x0, y0, x1, y1] = self.bbox(p.glyph).filter(|_| p.offset)?;
            bbox[0] = bbox[0].min(x0.checked_add(p.dx)?);
            bbox[1] = bbox[1].min(y0.checked_add(p.dy)?);
            bbox[2] = bbox[2].max(x1.checked_add(p.dx)?);
            bbox[3] = bbox[3].max(y1.checked_add(p.dy)?);
        }
        if parts.is_empty() {
            return None;
        }
        let mut out = Vec::with_capacity(10 + 8 * parts.len());
        out.extend_from_slice(&(-1i16).to_be_bytes());
        for v in bbox {
            out.extend_from_slice(&v.to_be_bytes());
        }
        for (i, p) in parts.iter().enumerate() {
            let more = if i + 1 < parts.len() { MORE_COMPONENTS } else { 0 };
            let flags = ARG_1_AND_2_ARE_WORDS | ARGS_ARE_XY_VALUES | ROUND_XY_TO_GRID | more;
            for v in [flags, p.glyph, p.dx as u16, p.dy as u16] {
                out.extend_from_slice(&v.to_be_bytes());
            }
        }
        Some(out)
    }

    /// `glyf` and `loca` with some glyphs' records replaced, in this font's `loca` format
    /// (`None` if a short `loca` cannot hold the new offsets).
    pub fn with_glyphs(&self, replaced: &[(u16, Vec<u8>)]) -> Option<(Vec<u8>, Vec<u8>)> {
        let mut glyf = Vec::with_capacity(self.table(b"glyf")?.len() + 64 * replaced.len());
        let mut offsets = Vec::with_capacity(self.glyphs.len() + 1);
        for gid in 0..self.glyphs.len() {
            offsets.push(glyf.len());
            let gid = u16::try_from(gid).ok()?;
            match replaced.iter().find(|r| r.0 == gid) {
                Some((_, record)) => glyf.extend_from_slice(record),
                None => glyf.extend_from_slice(self.glyph(gid)?),
            }
            if glyf.len() % 2 == 1 {
                glyf.push(0);
            }
        }
        offsets.push(glyf.len());
        let mut loca = Vec::with_capacity(4 * offsets.len());
        for o in offsets {
            if self.long_loca {
                loca.extend_from_slice(&u32::try_from(o).ok()?.to_be_bytes());
            } else {
                loca.extend_from_slice(&u16::try_from(o / 2).ok()?.to_be_bytes());
            }
        }
        Some((glyf, loca))
    }
}
