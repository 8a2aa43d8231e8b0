//! Test helpers: sample data, and reading PDFs back with lopdf (text through the fonts'
//! `/ToUnicode` maps, page counts, the embedded font's size).
//!
//! Set `TENGEN_PRINT_DUMP=/some/dir` to also write every PDF a test makes there, to look at.

use super::{SheetPlayer, SheetTournament, TableSheet};

pub fn tournament() -> SheetTournament {
    SheetTournament {
        name_zh: "第一届天元杯业余围棋公开赛".into(),
        name_en: "1st Tengen Cup Amateur Open".into(),
        venue: "北京棋院 Beijing Weiqi Academy".into(),
        round: 3,
        date: "2026-12-05".into(),
        komi_text: "黑贴3¾子 (7.5目)".into(),
        time_control_text: "基本用时60分钟，读秒30秒3次".into(),
        rules_text: "中国围棋竞赛规则（2002年版）".into(),
    }
}

const SURNAMES: [(&str, &str); 12] = [
    ("王", "Wang"),
    ("李", "Li"),
    ("张", "Zhang"),
    ("刘", "Liu"),
    ("陈", "Chen"),
    ("杨", "Yang"),
    ("赵", "Zhao"),
    ("黄", "Huang"),
    ("周", "Zhou"),
    ("吴", "Wu"),
    ("徐", "Xu"),
    ("孙", "Sun"),
];
const GIVEN: [(&str, &str); 10] = [
    ("伟", "Wei"),
    ("芳", "Fang"),
    ("娜", "Na"),
    ("秀英", "Xiuying"),
    ("敏", "Min"),
    ("静", "Jing"),
    ("丽", "Li"),
    ("强", "Qiang"),
    ("磊", "Lei"),
    ("子轩", "Zixuan"),
];
const UNITS: [&str; 5] = ["北京棋院", "上海市围棋协会", "杭州棋院", "成都少儿围棋学校", "深圳大学"];

/// The `i`-th sample player: Chinese and pinyin names, a rank, a unit.
pub fn player(i: usize) -> SheetPlayer {
    let (s, sl) = SURNAMES[i % SURNAMES.len()];
    let (g, gl) = GIVEN[(i / SURNAMES.len()) % GIVEN.len()];
    let d = 1 + (i * 3) % 7;
    SheetPlayer {
        name_zh: format!("{s}{g}"),
        name_latin: format!("{sl} {gl}"),
        rank_zh: format!("业余{d}段"),
        rank_en: format!("{d}d"),
        unit: UNITS[i % UNITS.len()].into(),
    }
}

/// `n` tables with distinct players; every third is a nigiri board, every fifth a handicap game.
pub fn tables(n: usize) -> Vec<TableSheet> {
    (0..n)
        .map(|i| TableSheet {
            table: i as u32 + 1,
            black: player(2 * i),
            white: player(2 * i + 1),
            handicap: if i % 5 == 4 { 2 } else { 0 },
            nigiri: i % 3 == 2,
            komi_text: if i % 5 == 4 { Some("黑贴1子 (让2子)".into()) } else { None },
        })
        .collect()
}

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
