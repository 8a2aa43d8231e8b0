//! Encodings: [`parse_bytes`] decodes the file first ([`decode`], encoding_rs): in the encoding
//! its CA\[\] names (GB2312, GBK, GB18030, Big5, UTF-8, Latin-1…), else UTF-8 when the bytes
//! are UTF-8, else the encoding Mozilla's detector (chardetng) finds — old Chinese records in
//! GBK or Big5 often have no CA\[\]. [`Record::encoding`] says which was read.

use super::{parse, Record, SgfError, Warning, WarningKind};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// A file's text and the encoding it was read in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded<'a> {
    pub text: Cow<'a, str>,
    /// The encoding's name as encoding_rs knows it ("UTF-8", "GBK", "gb18030", "Big5", …).
    pub encoding: &'static str,
    /// How it was chosen.
    pub source: EncodingSource,
    /// Bytes that are not valid in that encoding were replaced (U+FFFD).
    pub replaced: bool,
}

/// How the encoding of a record was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EncodingSource {
    /// The CA\[\] property of the root.
    Declared,
    /// Valid UTF-8 (no CA\[\], or one naming an encoding unknown to encoding_rs).
    Utf8,
    /// Guessed from the bytes (Mozilla's detector, chardetng): no usable CA\[\] and not UTF-8.
    Detected,
}

/// The label of a CA\[\] property before the first game tree's first `;`…`(` ends, read from the
/// raw bytes (CA's value is ASCII in every encoding).
fn declared_charset(bytes: &[u8]) -> Option<&str> {
    // CA belongs to the root node: look in the first 4 KB, where headers stand.
    let head = &bytes[..bytes.len().min(4096)];
    let mut i = 0;
    while let Some(k) = head[i..].windows(3).position(|w| w == b"CA[") {
        let at = i + k;
        // A whole identifier: not the tail of a longer one (e.g. "PCA[").
        if at == 0 || !head[at - 1].is_ascii_alphabetic() {
            let rest = &head[at + 3..];
            let end = rest.iter().position(|&c| c == b']')?;
            return std::str::from_utf8(&rest[..end]).ok().map(str::trim);
        }
        i = at + 3;
    }
    None
}

/// Decode a record's bytes: the encoding CA\[\] names (GB2312, GBK, GB18030, Big5, UTF-8,
/// Latin-1, … as encoding_rs reads their labels); without a usable CA\[\], UTF-8 when the bytes
/// are UTF-8, else the encoding Mozilla's detector (chardetng) finds — old Chinese records
/// from servers and programs in GBK or Big5 rarely say so. A byte-order mark wins over both.
pub fn decode(bytes: &[u8]) -> Decoded<'_> {
    use encoding_rs::{Encoding, UTF_8};
    let declared = declared_charset(bytes).and_then(|l| Encoding::for_label(l.as_bytes()));
    let (encoding, source) = match declared {
        Some(e) if e != UTF_8 || std::str::from_utf8(bytes).is_ok() => (e, EncodingSource::Declared),
        _ if std::str::from_utf8(bytes).is_ok() => (UTF_8, EncodingSource::Utf8),
        _ => {
            let mut d = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
            d.feed(bytes, true);
            // Not UTF-8 (checked above); a Chinese event's files are most often GBK, so a tie
            // between GBK and Big5 goes to GBK (the .cn hint).
            (d.guess(Some(b"cn"), chardetng::Utf8Detection::Deny), EncodingSource::Detected)
        }
    };
    let (text, used, replaced) = encoding.decode(bytes);
    Decoded { text, encoding: used.name(), source, replaced }
}

/// Read a file's bytes in its encoding ([`decode`]): UTF-8, or what CA\[\] says, or what the
/// bytes look like (GBK, Big5), with a warning when the encoding was guessed or bytes had to
/// be replaced. [`Record::encoding`] names the encoding read.
pub fn parse_bytes(bytes: &[u8]) -> Result<Record, SgfError> {
    let d = decode(bytes);
    let mut rec = parse(&d.text)?;
    let encoding = d.encoding.to_string();
    if d.replaced {
        let kind = WarningKind::BytesReplaced { encoding: encoding.clone() };
        rec.warnings.insert(0, Warning { pos: None, kind });
    }
    if d.source == EncodingSource::Detected {
        let kind = WarningKind::EncodingGuessed { encoding: encoding.clone() };
        rec.warnings.insert(0, Warning { pos: None, kind });
    }
    rec.encoding = d.encoding.to_string();
    Ok(rec)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(s: &str) -> Vec<u8> {
        (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
    }

    /// `(;CA[..]PB[..]PW[..]C[..];B[pd];W[dp])` with the names and comment as raw bytes.
    fn record_bytes(ca: &str, black: &[u8], white: &[u8], comment: &[u8]) -> Vec<u8> {
        let mut b = b"(;GM[1]FF[4]".to_vec();
        if !ca.is_empty() {
            b.extend(format!("CA[{ca}]").bytes());
        }
        for (id, v) in [("PB", black), ("PW", white), ("C", comment)] {
            b.extend(id.bytes());
            b.push(b'[');
            b.extend(v);
            b.push(b']');
        }
        b.extend(b"SZ[19];B[pd];W[dp])");
        b
    }

    #[test]
    fn records_in_gb2312_gbk_gb18030_and_big5_are_decoded() {
        // 柯洁, 古力 in GBK (GB2312 characters); 中国围棋天元赛 as the comment.
        let (kejie, guli, comment) = (hex("bfc2bde0"), hex("b9c5c1a6"), hex("d6d0b9facea7c6e5ccecd4aac8fc"));
        for ca in ["GB2312", "GBK", "gb18030", "GB18030", "gbk"] {
            let rec = parse_bytes(&record_bytes(ca, &kejie, &guli, &comment)).unwrap();
            assert_eq!(
                (rec.info.black.as_deref(), rec.info.white.as_deref()),
                (Some("柯洁"), Some("古力")),
                "{ca}"
            );
            assert!(rec.warnings.is_empty(), "{ca}: {:?}", rec.warnings);
            assert_eq!(rec.move_count(), 2);
        }
        // Declared but missing: detected from the bytes, with a warning.
        let rec = parse_bytes(&record_bytes("", &kejie, &guli, &comment)).unwrap();
        assert_eq!(rec.info.black.as_deref(), Some("柯洁"));
        assert_eq!(rec.encoding, "GBK");
        assert_eq!(rec.warnings[0].kind, WarningKind::EncodingGuessed { encoding: "GBK".into() });
        // Big5: 柯潔, 聶衛平, and a comment 黑棋勝.
        let (b_kejie, b_nie) = (hex("ac5fbce4"), hex("c2bfbdc3a5ad"));
        let rec = parse_bytes(&record_bytes("Big5", &b_kejie, &b_nie, &hex("b6c2b4d1b3d3"))).unwrap();
        assert_eq!((rec.info.black.as_deref(), rec.info.white.as_deref()), (Some("柯潔"), Some("聶衛平")));
        assert_eq!(rec.encoding, "Big5");
        // A Big5 character whose second byte is a backslash (許 = B3 5C) or a bracket is one
        // character, not an escape: the file is read as its encoding, not byte by byte.
        let rec = parse_bytes(&record_bytes("Big5", &hex("b35ca55c"), &b_nie, b"")).unwrap();
        assert_eq!(rec.info.black.as_deref(), Some("許功"));
        assert_eq!(rec.move_count(), 2);
        // A CA[] that says UTF-8 of a file that is not: read by the bytes instead.
        let rec = parse_bytes(&record_bytes("UTF-8", &kejie, &guli, &comment)).unwrap();
        assert_eq!(rec.info.black.as_deref(), Some("柯洁"));
        // UTF-8 without CA[] stays UTF-8, quietly.
        let rec = parse_bytes(&record_bytes("", "柯洁".as_bytes(), "古力".as_bytes(), b"")).unwrap();
        assert_eq!((rec.info.black.as_deref(), rec.encoding.as_str()), (Some("柯洁"), "UTF-8"));
        assert!(rec.warnings.is_empty());
        // A declared encoding's invalid bytes are replaced, and said so.
        let rec = parse_bytes(&record_bytes("GBK", &[0xbf, b' '], &guli, b"")).unwrap();
        let replaced = WarningKind::BytesReplaced { encoding: "GBK".into() };
        assert!(rec.warnings.iter().any(|w| w.kind == replaced), "{:?}", rec.warnings);
        assert_eq!(rec.move_count(), 2);
    }

    #[test]
    fn ca_is_found_as_a_whole_identifier() {
        assert_eq!(declared_charset(b"(;GM[1]CA[GB2312]"), Some("GB2312"));
        assert_eq!(declared_charset(b"(;PCA[x]CA[Big5]"), Some("Big5"));
        assert_eq!(declared_charset(b"(;GM[1]"), None);
        assert_eq!(declared_charset(b"(;CA[GBK"), None);
    }
}
