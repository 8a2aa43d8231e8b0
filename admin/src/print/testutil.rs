//! Test helpers: sample data, and reading PDFs back ([`super::readback`], shared with the
//! end-to-end and CLI tests).

pub use super::readback::{read, squash};
use super::{SheetPlayer, SheetTournament, TableSheet};

pub fn tournament() -> SheetTournament {
    SheetTournament {
        name_zh: "第一届天元杯业余围棋公开赛".into(),
        name_latin: "1st Tengen Cup Amateur Open".into(),
        venue: "北京棋院 Beijing Weiqi Academy".into(),
        round: 3,
        date: "2026-12-05".into(),
        komi_text: "黑贴3¾子 (7.5目)".into(),
        time_control_text: "基本用时60分钟，读秒30秒3次".into(),
        rules_text: "中国围棋竞赛规则（2002年版）".into(),
        name_order: Default::default(),
        notes: Vec::new(),
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
        rank: Some(crate::domain::entrant::Rank::Dan(d as u8)),
        rank_stored: format!("{d}d"),
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
            replay_of: None,
        })
        .collect()
}
